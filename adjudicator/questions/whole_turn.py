"""The whole turn: every step from the one the position stands at to the end of turn, played in the
order of reference/ai-rules.md (Turn structure), each by its own question.

The steps played are the entries of the steps table (questions/steps.py) with a place in the turn.
The start of turn and Quick Strike give their end states; Spires Fire then splits the turn by its
dice, each result carrying its exact probability. The movement step gives every final board the
rules allow (the AI's obliged ones under AI control), each with the chance of the floating rocks'
dice its moves rolled, the attack step (and Quick Strike) every end state after each board, each with
the chance of the totals its retaliations rolled with the spire die (Relentless), and the end of turn
closes each. Two lines of play that end the same under the same Spires Fire result and the same dice
results are one outcome. Exploration is played by its own question (what a face-down landmark the position does not describe does is a notice); a core rule
that is left out is named as a gap (docs/turn.md). A step that ends the game ends the turn; one that ends
the wave is followed by the end of the wave (its own question), which ends the turn.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from adjudicator.answers.attacks import Cannonball, EndState, FireStepResult, Roll6, Rolled, StepEnd
from adjudicator.answers.moves import StepOutcome, StepResult
from adjudicator.answers.notices import Notice
from adjudicator.answers.turns import (
    BARRACKS,
    DEFEATED,
    DISCARDED,
    DONE,
    IN_BARRACKS,
    NO_RULE,
    NOT_MODELLED,
    NOT_REACHED,
    PLAYED,
    PLAYED_IN_PART,
    RETURNED,
    UNDER,
    Gap,
    TurnEnd,
    TurnOutcome,
    TurnResult,
    TurnStep,
    TurnSummary,
    UnitEnd,
)
from adjudicator.position.dice import Die
from adjudicator.position.hexmap import terrain_token
from adjudicator.position.model import ELFINKAZE_SIDES, Kind, Position
from adjudicator.position.talents import BOARD_STEPS, TURN_STEPS, catalogue
from adjudicator.questions.adjudicate import Progress, check_limit, first_shown, is_ai
from adjudicator.questions import closing
from adjudicator.questions.board_after import apply_end, apply_move
from adjudicator.questions.coverage import TURN, as_happened, fallen_spires, flipped, notices_in
from adjudicator.questions.steps import BY_NAME, EVENTS, PLAYED_STEPS, WAVE_STEP, Step
from adjudicator.solving.solve import Deadline, TimedOut



def remaining(position: Position) -> tuple[str, ...]:
    """The steps still to come this turn: the position's own step (perhaps begun) and those after; at
    the end of the wave, that alone (the turn ends with the wave)."""
    if position.turn.step not in TURN_STEPS:
        return (position.turn.step,)
    return TURN_STEPS[TURN_STEPS.index(position.turn.step):]


def _gaps(position: Position, steps: tuple[str, ...], ai: bool) -> tuple[Gap, ...]:
    gaps = []
    if "start-of-turn" in steps and not ai:
        # ai-rules.md, Economy and building: "The AI does not use limited build options".
        gaps.append(Gap("start-of-turn", "a player's limited build options other than Translocate's swap and "
                        "Unstable's flip (a spire built, a merc spire constructed) are not adjudicated"))
    return tuple(gaps)


def _statuses(steps: tuple[str, ...], gaps: tuple[Gap, ...], reached: frozenset[str] | None = None) -> tuple[TurnStep, ...]:
    """Each step of the turn and what the answer did with it; ``reached``: the steps some line of play
    came to (None: not known, the answer being incomplete); the end of the wave is listed where one did."""
    gapped = {g.step for g in gaps}

    def status(step: str) -> str:
        if step not in steps and step != WAVE_STEP.place:
            return DONE
        if reached is not None and step not in reached:
            return NOT_REACHED
        if step in {s.place for s in (*PLAYED_STEPS, WAVE_STEP)}:
            return PLAYED_IN_PART if step in gapped else PLAYED
        return NOT_MODELLED if step in gapped else NO_RULE

    # A position standing at the end of the wave: that moment, after the steps of the turn; a turn that
    # ended the wave: that moment too.
    waved = (WAVE_STEP.place,) if reached is not None and WAVE_STEP.place in reached else ()
    listed = (*TURN_STEPS, *dict.fromkeys(s for s in (*steps, *waved) if s not in TURN_STEPS))
    return tuple(TurnStep(s, status(s)) for s in listed)


def turn_end(start: Position, final: Position, ends: Sequence[EndState] = (), movement: StepOutcome | None = None) -> TurnEnd:
    """``final`` as changes against ``start``; the wave, game and campfire flags of the steps' ``ends``;
    what they and the acts of the ``movement`` step sent home (Precious, Mining; Rigging's spire) left
    the board undefeated."""
    units = []
    # A unit placed under another (chapter 5's Bydra Graam) left the board, not defeated; another chip too
    # (chapter 4's rotten worms).
    under = {c.chip: c.under for e in ends for c in e.chips if c.under is not None}
    # A chip a taproot summoned (Summon): its group, known by the taproot's id, shows it.
    summoned = {a.chip for m in (movement.sequence if movement else ()) for a in m.acts if a.how == "summon"}
    homed = {c.chip for e in ends for c in e.chips if c.returned}  # to their barracks as the wave ended
    discarded = {c.chip for e in ends for c in e.chips if c.discarded}  # not defeated: no reward (Pacify)
    # or as units moved: by an act, a minion (Yrtel's Way) or a spire (Rigging); a minion itself (Eruption)
    moves = movement.sequence if movement else ()
    discarded |= {a.chip for m in moves for a in m.acts if a.how == "explode"}  # an Explosion chip that went off
    homed |= {a.chip for m in moves for a in m.acts if a.how == "barracks"} | {m.unit for m in moves if m.exit == "barracks"}
    homed |= {x for m in moves for a in m.acts if a.how == "fuse" for x in (m.unit, a.chip)}  # the shada's fusion
    homed |= {m.unit for m in moves for a in m.acts if a.then == "barracks"}  # Builder's basic unit
    homed |= {m.unit for m in moves if m.turns == "fortress"}  # a keel minion that would demote (Colony)
    for uid, before in sorted(start.units.items()):
        if uid in summoned:
            continue
        after = final.units[uid]
        node = final.placed(uid)
        if node is None:
            if uid in under:
                units.append(UnitEnd(uid, None, left=UNDER + under[uid]))
            elif after.discarded or uid in discarded:  # a die rolled before its move (Anarchy); Pacify
                units.append(UnitEnd(uid, None, left=DISCARDED))
            # On the board as the turn began, or placed from its barracks since (Spawn).
            elif start.placed(uid) is not None or (start.in_barracks(uid) and not final.in_barracks(uid)):
                # A defeat leaves no health (board_after.py); a hero that returned keeps its own.
                # One a talent sent home: a minion to its barracks (Precious), a hero to its fortress (Hero's Quest).
                home = RETURNED if after.kind is Kind.HERO else BARRACKS
                units.append(UnitEnd(uid, None, left=home if uid in homed else DEFEATED if after.health == 0
                                     else RETURNED))
            elif start.in_barracks(uid) and after.promoted and not before.promoted:  # promoted there (Powerhouse)
                units.append(UnitEnd(uid, None, promoted=True, left=IN_BARRACKS))
            continue
        chip = after.chip if after.chip != before.chip else ""
        health = after.health if after.health != before.health else None
        upgrades = after.upgrades if after.upgrades != before.upgrades else None
        promoted = after.promoted and not before.promoted
        basic = before.promoted and not after.promoted and not chip  # flipped back (Dodge)
        # Hidden Armor: a talent the unit discarded (a revealed chip's own talents are no discard, nor the other
        # side's that a flip shows: board_after.turn), against what the side it shows printed.
        printed = before.other_talents if after.promoted != before.promoted and before.other_talents is not None \
            else before.talents
        shed = tuple(sorted(set(printed) - set(after.talents))) if not chip else ()
        control = after.faction if after.faction != before.faction else None  # Recruitable
        # Placed from its barracks on top of a chip (Elfin): the side it shows, no talent discarded.
        rides = after.rides if start.in_barracks(uid) else None
        side = "".join(t for t in ELFINKAZE_SIDES if t in after.talents) if rides else ""
        shed = () if rides else shed
        woke = before.campfire and not after.campfire  # its campfire mode ended with the wave
        if (node != start.placed(uid) or chip or health is not None or upgrades is not None or promoted or basic
                or shed or control or woke):
            units.append(UnitEnd(uid, node, health, chip, upgrades, promoted, basic=basic, discarded_talents=shed,
                                 control=control, rides=rides, side=side, woke=woke))
    # A unit a group revealed as its top chip left it (Scatter): its chip, where it ends and its health.
    for uid, after in sorted(final.units.items()):
        if uid not in start.units:
            node = final.placed(uid)
            units.append(UnitEnd(uid, node, after.health if node else None, after.chip,
                                 left="" if node else DEFEATED))
    kept = {s.id: s for s in final.spires}
    spires = tuple(
        (s.id, kept[s.id].upgrades if s.id in kept else None)
        for s in start.spires if s.id not in homed and (s.id not in kept or kept[s.id].upgrades != s.upgrades)
    )
    began = {s.id: s.at for s in start.spires}
    spires_at = tuple((s.id, s.at) for s in final.spires if s.id in began and s.at != began[s.id])  # Creep
    aimed = {s.id: s.arrow for s in start.spires}
    arrows = tuple((s.id, s.arrow) for s in final.spires if s.id in aimed and s.arrow != aimed[s.id])  # Translocate
    # Built as units moved (Builder), or promoted to another chip (Builder's siege tower).
    built = tuple((s.id, s.at, s.faction, s.chip, s.upgrades) for s in final.spires if s.id not in began)
    printed = {s.id: s.chip for s in start.spires}
    renamed = tuple((s.id, s.chip) for s in final.spires if s.id in printed and s.chip != printed[s.id])
    gates = tuple((f, g.health) for f, g in sorted(final.gates.items()) if g.health != start.gates[f].health)
    source = tuple(
        (f, x.source) for f, x in sorted(final.factions.items()) if x.source != start.factions[f].source
    )
    morale = tuple((f, x.morale) for f, x in sorted(final.factions.items())
                   if x.morale is not None and x.morale != start.factions[f].morale)  # its morale die (Morale)
    campfire = next((e.campfire for e in reversed(ends) if e.campfire), ())
    was = {c.id: (c.health, c.earthscapes) for c in start.chips}
    # The Source vein: its health, where a strike changed it or gained an earthscape (placing 3 health again).
    chips = tuple((c.id, c.health or 0) for c in final.chips
                  if c.health is not None and (c.health, c.earthscapes) != was.get(c.id))
    # Other chips a defeat placed or whose number changed, and those that left the board (Toxic Fumes).
    counts = {c.id: c.count for c in start.chips}
    others = tuple((c.id, c.at, c.count) for c in final.chips if c.count != counts.get(c.id))
    # An item a hero picked up (Portable Gateport): held by that hero, so that ends differing only by who
    # holds it stay apart; one picked up after another hero dropped it this turn was no chip as it began.
    picked = {a.chip: m.unit for m in moves for a in m.acts if a.how == "pickup"}
    left = {f.id for f in final.chips}
    others += tuple((c.id, c.at, 0) for c in start.chips
                    if c.id not in left and c.id not in under and c.id not in discarded and c.id not in picked)
    # Placed under a unit (chapter 4's rotten worms infesting Bydra Graam).
    tucked = tuple((c.id, under[c.id]) for c in start.chips if c.id in under)
    shown = {m.id: m for m in final.landmarks}
    landmarks = tuple((m.id, "removed" if m.id not in shown else "revealed") for m in start.landmarks
                      if m.id not in shown or shown[m.id].revealed != m.revealed)  # explored, Overload
    linked = tuple((m.id, shown[m.id].faction) for m in start.landmarks
                   if m.id in shown and shown[m.id].faction != m.faction)  # Source Link
    chips += tuple((m.id, shown[m.id].health or 0) for m in start.landmarks  # its health removed (Quake)
                   if m.id in shown and shown[m.id].health != m.health)
    landmarks_at = tuple((m.id, shown[m.id].at) for m in start.landmarks
                         if m.id in shown and shown[m.id].at != m.at)  # Twister
    # Chapter 3: the hexes of the earthscapes the keel placed at once, with their terrain (other ends may place others)
    laid = tuple((name, terrain_token(h)) for name, h in sorted(final.hexes.items())
                 if start.earthscape_places is not None and h != start.hexes.get(name))
    return TurnEnd(
        tuple(units), spires, gates, source, wave_over=any(e.wave_over for e in ends),
        game_over=any(e.game_over for e in ends), campfire=campfire, chips=chips, spires_at=spires_at, arrows=arrows,
        landmarks=landmarks, landmarks_at=landmarks_at, morale=morale,
        spires_home=tuple(s.id for s in start.spires if s.id in homed and s.id not in kept), others=others,
        replaced=tuple((s.id, kept[s.id].faction) for s in start.spires if s.id in kept and kept[s.id].faction != s.faction),
        linked=linked,
        built=built, renamed=renamed, tucked=tucked,
        discarded=tuple(c.id for c in start.chips if c.id in discarded),  # an Explosion chip that went off
        docked=tuple((f, g.plank) for f, g in sorted(final.gates.items())
                     if g.plank is not None and g.plank != start.gates[f].plank),  # chapter 2's maneuver
        held=tuple(sorted((c, u) for c, u in picked.items() if c not in left)),
        laid=laid,
    )


class _Cut(Exception):
    """The deadline passed: the outcomes found so far stand, incomplete."""


def whole_turn(
    position: Position,
    ai: bool | None = None,
    limit: int | None = None,
    deadline: Deadline | None = None,
    progress: Progress | None = None,
    die: Die | None = None,
) -> TurnResult:
    """Every distinct way the current faction's turn can end from where the position stands, each
    under the chance results it follows (Spires Fire, the floating rocks' dice, Anarchy's, a Relentless
    retaliation's rolls) with their exact probability, and their count.
    ``die``: the spire die Spires Fire rolls (default: the reading's). When ``deadline`` passes, the
    outcomes found so far, marked incomplete."""
    check_limit(limit)
    side = position.turn.faction
    as_ai = is_ai(position, side) if ai is None else ai
    steps = remaining(position)
    gaps = _gaps(position, steps, as_ai)
    played = tuple(s for s in PLAYED_STEPS if s.place in steps)
    # The lines of play are played step by step: every board that reaches a step waits for it, and the
    # step is asked once for them all (Step.ask_many, one grounding for a batch of boards), the steps in
    # turn order and the end of the wave last. Each line carries its path, the indices of the branches
    # it took: the outcome kept for an end, and the order the notices are named in, are those of the
    # first line in path order, as when the lines were played one after another (depth first).
    waiting: dict[str, list[_Line]] = defaultdict(list)
    found: dict[tuple[Any, ...], tuple[Path, TurnOutcome]] = {}
    fallen = False  # a unit defeated as it moves in some line of play
    emptied: set[Gap] = set()  # a line that ended the wave as units moved showed a move after it (REORDERED)
    reached: set[str] = set()  # the steps some line of play came to
    uncounted: dict[Notice, tuple[Path, int]] = {}  # what a step's own answer left out, beyond the turn's notices
    tell = progress or (lambda _: None)

    def note(path: Path, notices: Iterable[Notice]) -> None:
        for index, notice in enumerate(notices):
            if notice not in uncounted or (path, index) < uncounted[notice]:
                uncounted[notice] = (path, index)

    def finish(path: Path, pos: Position, odds: Fraction, records: dict[str, Any], ends: list[EndState]) -> None:
        fire = records.get("spires-fire")
        end = turn_end(position, pos, ends, records.get("movement"))
        start, close = records.get("start-of-turn"), records.get("end-of-turn")
        wave = records.get(WAVE_STEP.name)
        # A D6 rolled at the start or at the end (Reap): lines that rolled alike are one outcome, whenever.
        d6 = tuple(sorted((*(start.d6 if start else ()), *(close.d6 if close else ()))))
        # Every die a line rolled tells it apart, the end of the wave's too (chapter 2's cannonballs): two results
        # that leave one board are two outcomes, each with its own chance, as the end of the wave lists them.
        key = (fire.choices if fire else (), fire.end.sort_key if fire else "", _dice(records.get("movement")),
               _rolled(records.get("quick-strike")), _rolled(records.get("attack")), end.sort_key,
               start.razed if start else (), d6, closing.rolls(close.again) if close else (), _rolled(wave))
        if key not in found or path < found[key][0]:
            found[key] = (path, TurnOutcome(end, odds, fire, records.get("movement"), records.get("attack"),
                                            records.get("quick-strike"), start, close, wave))
        tell(len(found))

    def play(path: Path, pos: Position, index: int, odds: Fraction, records: dict[str, Any],
             ends: list[EndState]) -> None:
        game_over = any(e.game_over for e in ends)
        if any(e.wave_over for e in ends) and not game_over and WAVE_STEP.name not in records:
            reached.add(WAVE_STEP.place or "")
            waiting[WAVE_STEP.name].append(_Line(path, pos, index, odds, records, ends))  # then the turn ends
            return
        if index == len(played) or game_over or any(e.wave_over for e in ends):
            finish(path, pos, odds, records, ends)  # the turn ends with the wave or the game
            return
        step = played[index]
        reached.add(step.place or "")
        if step.place == "exploration" and (as_ai or all(m.revealed for m in pos.landmarks)):
            # The AI explores nothing, and with nothing face down no unit can: the step changes nothing
            # (asp/combat/explore.lp acts on face-down landmarks alone), so it is not asked.
            play(path, pos, index + 1, odds, records, ends)
            return
        waiting[step.name].append(_Line(path, pos, index, odds, records, ends))

    def asked(step: Step, line: _Line, result: Any) -> None:
        """A line of play on past the step it waited for, ``result`` the step's answer on its board."""
        nonlocal fallen
        if not result.complete:
            raise _Cut
        if step is WAVE_STEP:
            note(line.path, result.notices)
            for k, (after, chance, record, end) in enumerate(_branches(line.pos, result)):
                finish((*line.path, k), after, line.odds * chance, {**line.records, WAVE_STEP.name: record},
                       [*line.ends, end])
            return
        if step.place == "end-of-turn":  # its acts, then Back to the Future's lines (questions/closing.py)
            close = closing.close(line.pos, ai, deadline, progress=lambda _: tell(len(found)), acts=result)
            if not close.complete:
                raise _Cut
            note(line.path, close.notices)
            emptied.update(close.gaps)
            fallen = fallen or close.fells
            for k, closed in enumerate(close.lines):
                play((*line.path, k), closed.after, line.index + 1, line.odds * closed.chance,
                     {**line.records, step.place: closed.outcome}, [*line.ends, *closed.ends])
            return
        notices = list(result.notices)
        if isinstance(result, FireStepResult):  # a spire flipped (Wallop): the steps after read the side given
            notices += flipped(result.flips, "turn")
        note(line.path, notices)
        if isinstance(result, StepResult) and any(m.fells for board in result.outcomes for m in board.sequence):
            fallen = True
        for k, (after, chance, record, end) in enumerate(_branches(line.pos, result, emptied)):
            play((*line.path, k), after, line.index + 1, line.odds * chance, {**line.records, step.place or "": record},
                 line.ends if end is None else [*line.ends, end])

    def drain() -> None:
        """Ask each step for the lines waiting for it, the earliest step first, until none waits."""
        order = (*(s.name for s in played), WAVE_STEP.name)
        while any(waiting.values()):
            step = BY_NAME[next(name for name in order if waiting[name])]
            lines = sorted(waiting.pop(step.name), key=lambda line: line.path)  # the batches follow the turn
            options: dict[str, Any] = {"die": die} if "die" in step.options else {}
            if step.progress:  # a long step reports too, so that the turn is never silent for long
                options["progress"] = lambda _: tell(len(found))
            for line, result in zip(lines, step.ask_many([line.pos for line in lines], ai, deadline, **options)):
                asked(step, line, result)

    complete = True
    # A position standing at the end of the wave: the wave is over, and its end is all that is left.
    over = [EndState((), wave_over=True)] if position.turn.step == WAVE_STEP.place else []
    try:
        play((), position, 0, Fraction(1), {}, over)
        drain()
    except (_Cut, TimedOut):
        complete = False
    firsts = [outcome for _, outcome in sorted(found.values(), key=lambda f: f[0])]
    outcomes = sorted(firsts, key=lambda o: (o.fire.choices if o.fire else (), -o.probability, o.end.sort_key))
    gaps += tuple(emptied)
    # What acts only as the wave ends (a chapter's end-of-wave rule) changes nothing where no line of
    # play ends it: a step's end says so, and a unit felled as units move (the movement step gives no
    # end) may have ended it. What acts on a defeat is kept: the ends do not show every defeat.
    wave_ends = not complete or fallen or any(o.end.wave_over for o in outcomes)
    # A part acting where a unit's health is reduced to exactly 1 as units move (Part.harmed) is named by the
    # movement step's own answer where some board of it may do that (every board known).
    ones = frozenset() if complete else None
    # A spire's defeat the ends all show (a defeated spire is no longer among the board's spires): what acts on
    # one faction's only (chapter 3's earthscape-after-defeat) counts only where one fell.
    fallen = fallen_spires(position, (([sid for sid, ups in o.end.spires if ups is None], o.end.source) for o in outcomes)) \
        if complete else None
    unmodelled = as_happened(notices_in(position, steps + EVENTS, ai, answer=TURN, ones=ones), True, wave_ends, fallen)
    return TurnResult(
        side, as_ai, _statuses(steps, gaps, frozenset(reached) if complete else None), len(outcomes), first_shown(outcomes, limit), complete,
        _summary(position, side, outcomes) if complete else (),
        merged((*unmodelled, *sorted(uncounted, key=uncounted.__getitem__))),
        gaps,
    )


def merged(notices: Sequence[Notice]) -> tuple[Notice, ...]:
    """``notices`` with those that leave out the same thing (talent or rule, status, part) named once: a
    step's own answer may name a talent the turn names already, in fewer steps or on other chips; the
    steps in turn order, the chips sorted, first seen first."""
    found: dict[tuple[str, str, str, str, str], Notice] = {}
    for n in notices:
        key = (n.talent, n.rule, n.status, n.left_out, n.text)
        seen = found.get(key)
        if seen is None:
            found[key] = n
            continue
        steps = sorted({*seen.steps, *n.steps}, key=BOARD_STEPS.index)
        found[key] = replace(seen, steps=tuple(steps), chips=tuple(sorted({*seen.chips, *n.chips})))
    return tuple(found.values())


Branch = tuple[Position, Fraction, Any, "EndState | None"]

# A line of play's path: the index of the branch it took at each step (whole_turn orders by it).
Path = tuple[int, ...]


@dataclass(frozen=True)
class _Line:
    """A line of play waiting for a step: its path, the board, the index of the step in the turn's
    played steps, its probability so far, the steps' records and the ends they came to."""

    path: Path
    pos: Position
    index: int
    odds: Fraction
    records: dict[str, Any]
    ends: list[EndState]

# game-elements, Defeat: "The current wave ends immediately when all minions in play have been defeated". The
# combat steps end the wave on a defeat of their own (asp/combat/wave.lp); the whole turn ends it on one dealt
# as units move (docs/turn.md, The end of the wave), with the moves the line showed after it left unmade.
REORDERED = Gap("movement", "a line of play that ended the wave as units moved showed a unit moving after the "
                "defeat that ended it: that move is not made (the wave ended first), and whether another order "
                "of the same moves (a hero before the minions) ends the wave after it is not searched")


def _wave_goes_on(position: Position) -> bool:
    """Some minion keeps the wave going (asp/combat/wave.lp, minions_up/1, as the loader's check_wave_ended reads
    it): one on the board or waiting in its gate, a landmark minion a faction controls too (its minion: lheld/1;
    one no faction controls is none), but for one on a map hex whose talent lets the wave end without it (hook
    idle/3: Neglected, Precious), unless two such talents are in play ("the only minion type in play").
    The printed talents are read as the solver's tal/3 reads them: the rules that ignore a unit's talents
    (muted/3, hushed/2: chapter 2's Grafted Snare, chapter 5's call) meet no minion the loader lets hold one
    of these (chapter 2's only minions the Graft's and landmark minions, chapter 5's called minion leaves the
    board), and campfire mode is a hero's."""
    idle: dict[str, set[str]] = defaultdict(set)  # such a talent → the minions with it on the map
    for uid, u in position.units.items():
        if position.placed(uid) is None:
            continue
        if position.controlled(u):  # idle/3 is a minion's (kind minion): a landmark minion's talent idles none
            return True
        if u.kind is not Kind.MINION:
            continue
        talents = [t.name for t in catalogue().known(u.talents) if "idle/3" in t.hooks]
        if not talents or u.at not in position.hexes:
            return True
        for name in talents:
            idle[name].add(uid)
    return len(idle) > 1


# The results of the dice a line of play's moves rolled (chapter 1's floating rocks): (unit, dice, lost), and the
# chance of a die rolled before a move (Anarchy), as closing.rolls reads Back to the Future's moves.
Dice = tuple[tuple[str, int, int, Fraction | None], ...]


def _dice(movement: StepOutcome | None) -> Dice:
    return tuple((m.unit, m.rolls, m.damage, m.chance) for m in movement.sequence
                 if m.rolls or m.chance is not None) if movement else ()


# What an attack step's or a moment's line rolled: the totals its retaliations rolled with the spire die
# (Relentless), a talent's D6 (Explosion), the cannonballs fired as the wave ended (chapter 2).
Rolls = tuple[tuple[Rolled, ...], tuple[Roll6, ...], tuple[Cannonball, ...]]


def _rolled(step: StepEnd | None) -> Rolls:
    return (step.rolled, step.d6, step.cannonballs) if step else ((), (), ())


def _branches(position: Position, result: Any, gaps: set[Gap] | None = None) -> list[Branch]:
    """Each outcome of one step's answer: the board after it, its probability, the outcome itself (the
    turn's record of that step), and the end state that says whether the wave or the game ended. A
    movement step's line that defeats the last minion keeping the wave going ends it there: the moves
    after it are not made (``gaps`` then names any that was more than a stay)."""
    if isinstance(result, FireStepResult):
        if not result.results:  # no spire fires: the turn goes on unchanged
            return [(position, Fraction(1), None, None)]
        return [(apply_end(position, r.end, targeted=frozenset(s.target for s in r.shots if not s.instead)),
                 r.probability, r, r.end) for r in result.results]
    if isinstance(result, StepResult):
        branches: list[Branch] = []
        going = _wave_goes_on(position)
        for board in result.outcomes:
            moved = position
            stayed: dict[str, bool] = {}  # each unit whose move was to stay: whether Survival held it
            made: list[Any] = []
            waved: EndState | None = None
            for move in board.sequence:
                if waved is not None:  # "The current wave ends immediately": no move after it
                    if gaps is not None and (len(move.path) > 1 or move.acts or move.placed or move.exit):
                        gaps.add(REORDERED)
                    continue
                if len(move.path) <= 1:  # the solver's own reason for the stay (holds/2)
                    stayed[move.unit] = move.held == "survival"
                moved = apply_move(moved, move)
                made.append(move)
                if going and move.fells and not _wave_goes_on(moved):
                    waved = EndState((), wave_over=True)
            line = board if waved is None else replace(board, sequence=tuple(made))
            branches.append((_stayed(moved, stayed), line.chance, line, waved))
        return branches
    # An attack step's end has the chance of the totals its retaliations rolled (Relentless), given its attacks.
    return [(apply_end(position, e.end, frozenset(a.attacker for a in e.sequence),
                       frozenset(a.target for a in e.sequence if not a.instead)),
             Fraction(1) if e.probability is None else e.probability, e, e.end)
            for e in result.outcomes]


def _stayed(position: Position, stayed: dict[str, bool]) -> Position:
    """The board after the movement step, each unit that stayed where it was written as not having
    moved (FAQ-25: it moved only if it moved in the movement step; Survival reads that at the end of
    the turn), and as held where Survival held it (it does not attack either)."""
    units = dict(position.units)
    for uid, held in stayed.items():
        unit = units[uid]
        units[uid] = replace(unit, done=replace(unit.done, moved=False, held=held))
    return replace(position, units=units)


def _summary(position: Position, side: str, outcomes: list[TurnOutcome]) -> tuple[TurnSummary, ...]:
    """For each unit of the faction on the board or in its gate: every node it ends the turn on."""
    ends: dict[str, set[str]] = defaultdict(set)
    units = sorted(u for u, unit in position.units.items() if unit.faction == side and position.placed(u))
    for outcome in outcomes:
        changed = {u.unit: u.node or u.left for u in outcome.end.units}
        for uid in units:
            ends[uid].add(changed.get(uid) or position.node_of(uid))
    return tuple(
        TurnSummary(uid, tuple(sorted(ends[uid])), len(ends[uid]) == 1) for uid in units if ends[uid]
    )
