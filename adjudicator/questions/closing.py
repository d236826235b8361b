"""The end of the turn: what its talents do (adjudicate.end_of_turn, asp/combat/state.lp), then Back to the
Future's extra move and attack (docs/turn.md, Back to the Future).

The `end-of-turn` question asked alone and the whole turn both play it through ``close``, so that a board
standing at the end of the turn gets the same end states from either.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from adjudicator.answers.attacks import AttackStepResult, EndState, StepEnd
from adjudicator.answers.moves import StepOutcome
from adjudicator.answers.notices import Notice
from adjudicator.answers.turns import Gap
from adjudicator.position.model import Position
from adjudicator.position.talents import PARTLY
from adjudicator.questions.adjudicate import Progress, check_limit, end_of_turn as acts_of, first_shown
from adjudicator.questions.steps import BY_NAME
from adjudicator.solving.solve import Deadline, TimedOut

BACK_TO_THE_FUTURE = "Back to the Future"
# One unit's use of it: the unit, its move (one final board of a movement step only it moves in) and its
# attack (one end of an attack step only it attacks in; a bare wave_over end where its move ended the wave).
Again = tuple[str, StepOutcome, StepEnd]


@dataclass(frozen=True)
class Closed:
    """One way the end of the turn ends: the board after it, its chance (what the acts and the lines rolled),
    the end as shown (the acts' end, the lines in ``again``), and every end state it passed through, in order."""

    after: Position
    chance: Fraction
    outcome: StepEnd
    ends: tuple[EndState, ...]


@dataclass(frozen=True)
class Closing:
    """Every way the end of the turn ends, and what its answer left out (the acts' notices and those of the
    lines' movement and attack steps); ``fells``: some line's move defeated a unit (the wave may have ended so)."""

    faction: str
    ai: bool
    lines: tuple[Closed, ...]
    complete: bool
    notices: tuple[Notice, ...]
    fells: bool
    gaps: tuple[Gap, ...]  # a line that ended the wave with a move after it (whole_turn.REORDERED)


class _Cut(Exception):
    """A step of a line was cut short by the deadline."""


def close(position: Position, ai: bool | None = None, deadline: Deadline | None = None,
          progress: Progress | None = None, acts: AttackStepResult | None = None) -> Closing:
    """The end of the turn: each end state of its acts, then on the board each leaves, Back to the Future
    ("At the end of your turn during the Onslaught Phase, this unit may move and attack even if it has
    already done so this turn"): each unit of the turn's faction with it, active and not used this wave,
    may make a move (a movement step only it moves in) and then an attack (an attack step only it attacks
    in), a player's in any order or not at all; the AI's in the order of their ids, only along the lines of
    its obliged move and attack that defeat an opposing unit, where there are any ("if doing so would
    result in it defeating an opposing unit"). Lines of one end of the acts that leave the same board under
    the same dice are one. ``acts``: the end of the turn's acts on this board, where they were asked already
    (the whole turn asks them for many boards at once)."""
    # The turn's own branching of a step's answer (a move that fells the last minion ends the wave there),
    # and its account of a board's changes, imported here: the whole turn imports this module.
    from adjudicator.questions.whole_turn import _branches, turn_end

    side = position.turn.faction
    acts = acts_of(position, ai, None, deadline, progress) if acts is None else acts
    notices: dict[Notice, None] = dict.fromkeys(acts.notices)
    gaps: set[Gap] = set()
    found: list[Closed] = []
    fells = False
    if not acts.complete:  # the acts' ends found so far, no line played on them
        return Closing(side, acts.ai, tuple(Closed(board, chance, acted, (end,))
                                            for board, chance, acted, end in _branches(position, acts)),
                       False, acts.notices, False, ())

    def lines(pos: Position, uid: str) -> Any:
        """Unit ``uid``'s move and attack: the board after, its chance, the line, its end state."""
        nonlocal fells
        alone = _alone(pos, side, uid)
        moves = BY_NAME["movement-step"].ask(alone, ai, None, deadline)
        if not moves.complete:
            raise _Cut
        notices.update(dict.fromkeys(moves.notices))
        fells = fells or any(m.fells for board in moves.outcomes for m in board.sequence)
        for moved, chance, board, waved in _branches(alone, moves, gaps):
            if waved is not None:  # its move ended the wave: no attack follows (the end of the wave does)
                yield _restored(moved, pos, uid), chance, (uid, board, StepEnd(waved, ())), waved
                continue
            attacks = BY_NAME["attack-step"].ask(moved, ai, None, deadline)
            if not attacks.complete:
                raise _Cut
            notices.update(dict.fromkeys(attacks.notices))
            for after, odds, step_end, end in _branches(moved, attacks):
                yield _restored(after, pos, uid), chance * odds, (uid, board, step_end), end

    def keep(kept: dict[Any, Closed], board: Position, acted: StepEnd, after: Position, chance: Fraction,
             made: tuple[Again, ...], ends: tuple[EndState, ...]) -> None:
        """One line, unless another of the same end of the acts left the same board under the same dice."""
        changed = turn_end(board, after, ends)
        total = (acted.probability or Fraction(1)) * chance
        kept.setdefault((changed.sort_key, rolls(made)), Closed(after, total, replace(
            acted, again=made, again_end=changed if made else None,
            probability=acted.probability if chance == 1 else total), ends))

    def again(pos: Position, chance: Fraction, made: tuple[Again, ...], ends: tuple[EndState, ...],
              done: frozenset[str], kept: dict[Any, Closed], board: Position, acted: StepEnd) -> None:
        ready = [u for u in _returners(pos, side) if u not in done]
        if not acts.ai or not ready:
            keep(kept, board, acted, pos, chance, made, ends)  # no (other) unit uses it
        for uid in ready[:1] if acts.ai else ready:
            options = list(lines(pos, uid))
            if acts.ai:
                options = [o for o in options if _defeats(pos, side, o[2], o[3])]
                if not options:  # it would defeat no opposing unit: not used, the next one's turn
                    again(pos, chance, made, ends, done | {uid}, kept, board, acted)
            for after, odds, line, end in options:
                if end.game_over or end.wave_over:  # the wave's end, or the game's: the turn ends there
                    keep(kept, board, acted, after, chance * odds, (*made, line), (*ends, end))
                else:
                    again(after, chance * odds, (*made, line), (*ends, end), done | {uid}, kept, board, acted)

    try:
        for board, chance, acted, end in _branches(position, acts):
            if not _returners(board, side):  # no line to play: the acts' end as it is
                found.append(Closed(board, chance, acted, (end,)))
                continue
            kept: dict[Any, Closed] = {}
            again(board, Fraction(1), (), (), frozenset(), kept, board, acted)
            found += [replace(c, ends=(end, *c.ends)) for c in kept.values()]
    except (_Cut, TimedOut):
        return Closing(side, acts.ai, tuple(found), False, tuple(notices), fells, tuple(gaps))
    return Closing(side, acts.ai, tuple(found), True, tuple(notices), fells, tuple(gaps))


def end_of_turn(
    position: Position,
    ai: bool | None = None,
    limit: int | None = None,
    deadline: Deadline | None = None,
    progress: Progress | None = None,
) -> AttackStepResult:
    """Every distinct end state of the end of the current faction's turn: what its talents do, each unit's
    ``done`` saying what it did this turn, then Back to the Future's lines (``close``), with their exact count."""
    check_limit(limit)
    closing = close(position, ai, deadline, progress)
    outcomes = sorted((c.outcome for c in closing.lines), key=_order)
    notices = (*closing.notices, *(_reordered(position, g.text) for g in closing.gaps))
    return AttackStepResult(closing.faction, closing.ai, len(outcomes), first_shown(outcomes, limit),
                            closing.complete, tuple(dict.fromkeys(notices)))


def rolls(made: tuple[Again, ...]) -> tuple[Any, ...]:
    """What the lines' dice rolled, which tells their ends apart (as the turn's own steps' do): each move's
    (chapter 1's floating rocks, Anarchy) and each attack's retaliation (Relentless)."""
    rolled = ((uid, tuple((m.unit, m.rolls, m.damage, m.chance) for m in board.sequence
                          if m.rolls or m.chance is not None), attack.rolled) for uid, board, attack in made)
    return tuple(line for line in rolled if line[1] or line[2])


def _order(outcome: StepEnd) -> tuple[str, str]:
    return outcome.end.sort_key, outcome.again_end.sort_key if outcome.again_end else ""


def _reordered(position: Position, text: str) -> Notice:
    """A line whose move ended the wave and showed a move after it (whole_turn.REORDERED): named, as the
    turn names it a gap."""
    chips = tuple(_returners(position, position.turn.faction))
    return Notice(BACK_TO_THE_FUTURE, PARTLY, ("end-of-turn",), chips, text)


def _returners(position: Position, side: str) -> list[str]:
    """The units of ``side`` that may use Back to the Future now: on the board or in their gate, the
    talent on their active chip, not campfired (inactive) and not used this wave ("Once per wave")."""
    return [uid for uid, u in sorted(position.units.items())
            if u.faction == side and position.placed(uid) is not None and BACK_TO_THE_FUTURE in u.talents
            and BACK_TO_THE_FUTURE not in u.used and not u.campfire]


def _alone(position: Position, side: str, uid: str) -> Position:
    """The board with only ``uid`` of its side still to move and attack ("even if it has already done so
    this turn"): every other unit of the side written as having moved and attacked."""
    units = {u: replace(x, done=replace(x.done, moved=True, attacked=True)) if x.faction == side and u != uid else x
             for u, x in position.units.items()}
    unit = units[uid]
    units[uid] = replace(unit, done=replace(unit.done, moved=False, attacked=False, displaced=False, held=False))
    return replace(position, units=units)


def _restored(after: Position, before: Position, uid: str) -> Position:
    """``after`` with every other unit's `done` as in ``before``, and ``uid`` having used Back to the
    Future this wave, moved and attacked."""
    units = dict(after.units)
    for u, x in units.items():
        if u in before.units and u != uid:
            units[u] = replace(x, done=before.units[u].done)
    unit = units[uid]
    units[uid] = replace(unit, used=(*unit.used, BACK_TO_THE_FUTURE), done=replace(unit.done, moved=True, attacked=True))
    return replace(after, units=units)


def _defeats(position: Position, side: str, line: Again, end: EndState) -> bool:
    """Whether ``line`` defeats a unit of another side than ``side`` (the AI's "if doing so would result in it
    defeating an opposing unit"): "doing so" is its move and its attack, so a defeat its move deals (Crush,
    Impale, damage on its way; one that ends the wave, no attack following) counts as one its attack's
    ``end`` deals."""
    _, board, _ = line
    fallen = {u for m in board.sequence for u in m.fallen} | {c.chip for c in end.chips if c.defeated}
    return any(u in position.units and position.units[u].faction != side for u in fallen)
