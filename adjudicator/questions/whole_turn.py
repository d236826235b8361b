"""The whole turn: every step from the one the position stands at to the end of turn, played in the
order of reference/ai-rules.md (Turn structure), each by its own question.

The start of turn gives its end states; Spires Fire then splits the turn by its dice, each result
carrying its exact probability. The movement step gives every final board the rules allow (the AI's
obliged ones under AI control), the attack step every end state after each board, and the end of
turn closes each. Two lines of play that end the same under the same Spires Fire result are one
outcome. Quick Strike and exploration, where only talents act, are passed through: the notices say
which talents are left out; a core rule that is left out is named as a gap (docs/turn.md).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from fractions import Fraction

from adjudicator.answers.attacks import EndState, FireResult, StepEnd
from adjudicator.answers.moves import StepOutcome
from adjudicator.answers.turns import (
    DONE,
    NO_RULE,
    NOT_MODELLED,
    PLAYED,
    PLAYED_IN_PART,
    Gap,
    TurnEnd,
    TurnOutcome,
    TurnResult,
    TurnStep,
    TurnSummary,
    UnitEnd,
)
from adjudicator.position.model import Position
from adjudicator.position.talents import TURN_STEPS
from adjudicator.questions.adjudicate import (
    Progress, attack_step, check_limit, end_of_turn, first_shown, is_ai, spires_fire, start_of_turn,
)
from adjudicator.questions.board_after import apply_end, apply_move
from adjudicator.questions.coverage import notices_in
from adjudicator.questions.whole_step import movement_step
from adjudicator.solving.solve import Deadline, TimedOut

# The steps the core plays with a question of its own; the others only talents act in.
_PLAYED = ("start-of-turn", "spires-fire", "movement", "attack", "end-of-turn")
# A defeat or the end of a wave can happen inside any played step.
_EVENTS = ("defeat", "end-of-wave")
OFF = "off the board"


def remaining(position: Position) -> tuple[str, ...]:
    """The steps still to come this turn: the position's own step (perhaps begun) and those after."""
    return TURN_STEPS[TURN_STEPS.index(position.turn.step):]


def _gaps(position: Position, steps: tuple[str, ...], ai: bool) -> tuple[Gap, ...]:
    gaps = []
    if "start-of-turn" in steps and not ai:
        # ai-rules.md, Economy and building: "The AI does not use limited build options".
        gaps.append(Gap("start-of-turn", "a player's limited build options (a spire built, a merc spire "
                        "constructed) are not adjudicated"))
    hidden = sorted(m.id for m in position.landmarks if not m.revealed)
    if "exploration" in steps and not ai and hidden:
        # game-elements, Landmarks: a unit that explores "may choose to either reveal it"; the
        # position cannot say what a face-down landmark is. ai-rules.md: "AI units do not explore".
        gaps.append(Gap("exploration", f"exploring the face-down landmarks {', '.join(hidden)} is not "
                        "adjudicated: what one reveals is not in the position"))
    return tuple(gaps)


def _statuses(steps: tuple[str, ...], gaps: tuple[Gap, ...]) -> tuple[TurnStep, ...]:
    gapped = {g.step for g in gaps}

    def status(step: str) -> str:
        if step not in steps:
            return DONE
        if step in _PLAYED:
            return PLAYED_IN_PART if step in gapped else PLAYED
        return NOT_MODELLED if step in gapped else NO_RULE

    return tuple(TurnStep(s, status(s)) for s in TURN_STEPS)


def turn_end(start: Position, final: Position, ends: Sequence[EndState] = ()) -> TurnEnd:
    """``final`` as changes against ``start``; the wave, game and campfire flags of the steps' ``ends``."""
    units = []
    for uid, before in sorted(start.units.items()):
        after = final.units[uid]
        node = final.placed(uid)
        if node is None:
            if start.placed(uid) is not None:
                units.append(UnitEnd(uid, None))
            continue
        chip = after.chip if after.chip != before.chip else ""
        health = after.health if after.health != before.health else None
        upgrades = after.upgrades if after.upgrades != before.upgrades else None
        promoted = after.promoted and not before.promoted
        if node != start.placed(uid) or chip or health is not None or upgrades is not None or promoted:
            units.append(UnitEnd(uid, node, health, chip, upgrades, promoted))
    kept = {s.id: s for s in final.spires}
    spires = tuple(
        (s.id, kept[s.id].upgrades if s.id in kept else None)
        for s in start.spires if s.id not in kept or kept[s.id].upgrades != s.upgrades
    )
    gates = tuple((f, g.health) for f, g in sorted(final.gates.items()) if g.health != start.gates[f].health)
    source = tuple(
        (f, x.source) for f, x in sorted(final.factions.items()) if x.source != start.factions[f].source
    )
    campfire = next((e.campfire for e in reversed(ends) if e.campfire), ())
    return TurnEnd(
        tuple(units), spires, gates, source, wave_over=any(e.wave_over for e in ends),
        game_over=any(e.game_over for e in ends), campfire=campfire,
    )


class _Cut(Exception):
    """The deadline passed: the outcomes found so far stand, incomplete."""


def whole_turn(
    position: Position,
    ai: bool | None = None,
    limit: int | None = None,
    deadline: Deadline | None = None,
    progress: Progress | None = None,
) -> TurnResult:
    """Every distinct way the current faction's turn can end from where the position stands, each
    under the Spires Fire result it follows with that result's exact probability, and their count.
    When ``deadline`` passes, the outcomes found so far, marked incomplete."""
    check_limit(limit)
    side = position.turn.faction
    as_ai = is_ai(position, side) if ai is None else ai
    steps = remaining(position)
    gaps = _gaps(position, steps, as_ai)
    found: dict[tuple[tuple[tuple[str, str], ...], str, str], TurnOutcome] = {}
    tell = progress or (lambda _: None)

    def finish(pos: Position, fire: FireResult | None, odds: Fraction, moves: StepOutcome | None,
               attack: StepEnd | None) -> None:
        ends = [step.end for step in (fire, attack) if step is not None]
        finals = [(pos, ends)]
        if "end-of-turn" in steps and not any(e.wave_over or e.game_over for e in ends):
            closed = end_of_turn(pos, ai, None, deadline)
            if not closed.complete:
                raise _Cut
            finals = [(apply_end(pos, c.end), [*ends, c.end]) for c in closed.outcomes]
        for final, seen in finals:
            end = turn_end(position, final, seen)
            key = (fire.choices if fire else (), fire.end.sort_key if fire else "", end.sort_key)
            found.setdefault(key, TurnOutcome(end, odds, fire, moves, attack))
        tell(len(found))

    def after_movement(pos: Position, fire: FireResult | None, odds: Fraction, moves: StepOutcome | None) -> None:
        if "attack" not in steps:
            finish(pos, fire, odds, moves, None)
            return
        result = attack_step(pos, ai, None, deadline)
        if not result.complete:
            raise _Cut
        for end in result.outcomes:
            attackers = frozenset(a.attacker for a in end.sequence)
            finish(apply_end(pos, end.end, attackers), fire, odds, moves, end)

    def after_fire(pos: Position, fire: FireResult | None, odds: Fraction) -> None:
        if fire is not None and (fire.end.wave_over or fire.end.game_over):
            finish(pos, fire, odds, None, None)  # the turn ends with the wave or the game
            return
        if "movement" not in steps:
            after_movement(pos, fire, odds, None)
            return
        result = movement_step(pos, ai, None, deadline)
        if not result.complete:
            raise _Cut
        for board in result.outcomes:
            moved = pos
            for move in board.sequence:
                moved = apply_move(moved, move)
            after_movement(moved, fire, odds, board)

    def after_start(pos: Position) -> None:
        if "spires-fire" not in steps:
            after_fire(pos, None, Fraction(1))
            return
        fired = spires_fire(pos, None, None, deadline)
        if not fired.complete:
            raise _Cut
        for result in fired.results:
            after_fire(apply_end(pos, result.end), result, result.probability)
        if not fired.results:
            after_fire(pos, None, Fraction(1))

    complete = True
    try:
        if "start-of-turn" in steps:
            started = start_of_turn(position, ai, None, deadline)
            if not started.complete:
                raise _Cut
            for start in started.outcomes:
                after_start(apply_end(position, start.end))
        else:
            after_start(position)
    except (_Cut, TimedOut):
        complete = False
    outcomes = sorted(found.values(), key=lambda o: (o.fire.choices if o.fire else (), -o.probability,
                                                     o.end.sort_key))
    return TurnResult(
        side, as_ai, _statuses(steps, gaps), len(outcomes), first_shown(outcomes, limit), complete,
        _summary(position, side, outcomes) if complete else (),
        notices_in(position, steps + _EVENTS, ai),
        gaps,
    )


def _summary(position: Position, side: str, outcomes: list[TurnOutcome]) -> tuple[TurnSummary, ...]:
    """For each unit of the faction on the board or in its gate: every node it ends the turn on."""
    ends: dict[str, set[str]] = defaultdict(set)
    units = sorted(u for u, unit in position.units.items() if unit.faction == side and position.placed(u))
    for outcome in outcomes:
        changed = {u.unit: u.node for u in outcome.end.units}
        for uid in units:
            node = changed.get(uid, position.placed(uid))
            ends[uid].add(node if node is not None else OFF)
    return tuple(
        TurnSummary(uid, tuple(sorted(ends[uid])), len(ends[uid]) == 1) for uid in units if ends[uid]
    )
