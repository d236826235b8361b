"""The whole movement step: every distinct final board, their exact count, and a per-unit summary.

The faction's units fall into groups that cannot touch one another (``groups``). Each group's step is
searched on its own (``_search``): the solver says which of its units may move next and what each
may do (asp/movement/step.lp), and the search walks that tree, merging boards reached by different
orders. The whole step's boards are every combination of one board per group, so their count is the
product of the groups' counts, and no combination is ever built unless it is shown.
"""

from __future__ import annotations

import itertools
import math
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import NamedTuple

from adjudicator.answers.moves import MoveOutcome, StepOutcome, StepResult, UnitOptions, UnitSummary
from adjudicator.answers.notices import Notice
from adjudicator.answers.rolls import rolled, rolls_uncounted
from adjudicator.facts import fields
from adjudicator.facts.board import Query, board_facts, field_facts
from adjudicator.position.chapter_rules import snare_reach
from adjudicator.position.dice import shipped_die
from adjudicator.position.model import ELFINKAZE_SIDES, KEEL, SUMMON_HERO, Kind, Position, Unit
from adjudicator.position.readings import resolve
from adjudicator.position.talents import PARTLY, catalogue
from adjudicator.questions.adjudicate import (Progress, acting, ask, check_limit, declined, gambled, is_ai,
                                              present_units, sourced)
from adjudicator.questions import still, whole_solve
from adjudicator.questions.board_after import apply_move
from adjudicator.questions.coverage import STEP, notices, turned_notices
from adjudicator.solving.solve import Deadline, TimedOut, render

Board = tuple[tuple[str, str], ...]  # (unit, node): the group's units in id order, then displaced others
# A final board: where units stand, the health of each whose health the step changed, in id order
# (damage taken while moving: Toxic Secretion, Lahar, a floating rock's die; 0 when that defeated it),
# then each gate's so changed (Immolate, Eruption), then chapter 4's Source vein's, then 0 for each spire gone,
# and the fortification upgrades left to each that lost one so (FAQ-29); the side of each unit an act
# flipped or promoted (a spire's: Builder's siege tower), and the upgrades of each spire an act stripped
# (Yrtel's Will) or a unit's an act changed (Radiate), the chips and landmarks acts placed, moved or took
# off the map, and the talents of each unit an act gave or took an item: boards of their own.
Health = tuple[tuple[str, int], ...]
Sides = tuple[tuple[str, str], ...]
Upgrades = tuple[tuple[str, tuple[str, ...]], ...]
# The landmark minions an act put under a faction's control (Recruiter), the spires an act replaced by
# another faction's (Quantum Dark) and those an act built (Builder), with that faction, in id order.
Control = tuple[tuple[str, str], ...]
# Each faction whose Source the step changed, with its Source after it, by name (asp/movement/source.lp).
Source = tuple[tuple[str, int], ...]
# Each chip or landmark an act placed or moved (Dig's Tunnel Access chip, Portable Gateport's item dropped,
# Twister's landmark, Build Waygate's waygate) with its hex, or REMOVED where it left the map, by id.
Chips = tuple[tuple[str, str], ...]
# Each unit whose talents an act changed on the side it shows (Portable Gateport's item picked up or dropped;
# an item lost on the way, Cumbersome), with its talents now, by id.
Talents = tuple[tuple[str, tuple[str, ...]], ...]
# Each unit an act placed on top of or underneath a minion (Stasis, Possess), with the minion, by id: two holds
# on one hex (a roost and the elfinkaze riding it) are two boards.
Holds = tuple[tuple[str, str], ...]


class Final(NamedTuple):
    board: Board
    health: Health = ()
    forts: Health = ()
    sides: Sides = ()
    upgrades: Upgrades = ()
    control: Control = ()
    source: Source = ()
    chips: Chips = ()
    talents: Talents = ()
    holds: Holds = ()


AUTO, SEARCH = "auto", "search"
DEFEATED = "defeated"  # a final board's node for a unit that damage taken while moving defeated
DISCARDED = "discarded"  # a final board's node for a unit a die rolled before its move discarded (Anarchy)
REMOVED = "removed"  # a final board's place for a chip or landmark an act took off the map
ENGINES = (AUTO, SEARCH)


@dataclass(frozen=True)
class _Move:
    """One move of a group's sequence, with the mover's start distance at that moment (None: a hero,
    or a minion whose hex leads nowhere), by which the groups' sequences interleave."""

    outcome: MoveOutcome
    distance: int | None
    minion: bool


@dataclass
class _Group:
    units: tuple[str, ...]
    finals: dict[Final, tuple[_Move, ...] | None]  # None: read from the solver when shown
    complete: bool
    witness: Callable[[Final], tuple[_Move, ...]] | None = None
    ends: dict[str, tuple[str, ...]] | None = None  # each unit's possible ends, known before any board
    notices: tuple[Notice, ...] = ()  # what the answers of its moves left out

    def sequence(self, final: Final) -> tuple[_Move, ...]:
        found = self.finals[final]
        if found is None and self.witness is not None:
            found = self.finals[final] = self.witness(final)
        assert found is not None
        return found


def movement_step(
    position: Position,
    ai: bool | None = None,
    limit: int | None = None,
    deadline: Deadline | None = None,
    progress: Progress | None = None,
    engine: str = AUTO,
) -> StepResult:
    """Every distinct final board of the current faction's movement step, with one order of moves each,
    the exact count, and where each unit can end. When ``deadline`` passes, the boards found so far,
    marked incomplete; ``progress`` hears how many boards are known so far. ``engine``: AUTO solves
    each group in one solve where the encoding expresses it and searches the rest; SEARCH searches all."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
    check_limit(limit)
    faction = position.turn.faction
    wanted = is_ai(position, faction) if ai is None else ai
    ai_factions = frozenset({faction}) if wanted else frozenset()
    searched: list[_Group] = []
    because: list[str] = []
    parts = groups(position, present_units(position, faction))
    if len(parts) > 1 and (still.depends_on_combat(position, present_units(position, faction), ai_factions)
                           or _scattering(position, present_units(position, faction))
                           or _recruitable(position, present_units(position, faction))
                           or _spending(position, present_units(position, faction))):
        # What such a unit may attack can change with any move that pushes a chip; a unit leaving its
        # group (Scatter) reveals one that may move on, further than the group could, as a landmark minion
        # a unit puts under control does (Recruiter: "The controlled minion moves this turn"); what one group spends
        # or steals changes what another may afford, and in which order gains and costs come: one search.
        parts = [tuple(sorted(u for part in parts for u in part))]
    for units in parts:
        done = math.prod(len(g.finals) for g in searched)

        def heard(found: int, done: int = done) -> None:
            if progress is not None:
                progress(done * found)

        reason = whole_solve.outside(position, units, ai_factions) if engine == AUTO else "the search was asked for"
        found = _solve(position, units, ai_factions, deadline, heard) if reason is None else reason
        if isinstance(found, str):  # outside the solve, or its grounding shows it (whole_solve.solve_group)
            because.append(found)
            found = _search(position, units, ai_factions, deadline, heard)
        searched.append(found)
        if not searched[-1].complete:
            break
    complete = len(searched) == len(parts) and all(g.complete for g in searched)
    # Boards exist only once every group has some: a group cut short leaves a lower bound.
    whole = len(searched) == len(parts)
    count = math.prod(len(g.finals) for g in searched) if whole else 0
    known = whole and all(g.complete or g.ends is not None for g in searched)
    summary = _summary(position, searched) if known else ()
    shown, all_shown = _boards(position, searched, limit, deadline) if whole else ((), True)
    complete = complete and all_shown
    method = "search" if because else "solve"
    # What acts on a defeat counts where some board has one, or where not every board is known.
    defeats = not complete or any(_defeats(final) for g in searched for final in g.finals)
    # What acts where a unit's health is reduced to exactly 1 as units move counts where some board may have
    # done that, or where not every board is known.
    ones = None if not complete else frozenset(u for g in searched for final, moves in g.finals.items()
                                               for u in _ones(position, final, moves))
    unmodelled = (*notices(position, "movement", ai, STEP, defeats, ones),
                  *sorted({n for g in searched for n in g.notices}))
    return StepResult(faction, wanted, count, shown, complete, unmodelled, summary, method, tuple(because))


# ----------------------------------------------------------------------------------------- groups


def groups(position: Position, units: Sequence[str]) -> list[tuple[str, ...]]:
    """The units, in groups whose moves can never change one another's options, smallest id first.

    A unit's move reads and changes only nodes within its movement of where it stands, plus one for a
    displaced unit's landing; an escape from invalid terrain looks further. A unit others may push
    (a friendly hero, a Flying or Peaceful minion) may stand anywhere the pushers reach, so it
    reaches further still. Two units whose reaches overlap share a group; every unit waiting in a
    gate reaches the gate node, so a stack is never split.
    """
    mobile = [u for u in units if _mobile(position, position.units[u])]
    balls = {u: fields.ball(position, position.node_of(u), r) for u, r in fields.step_radii(position, mobile).items()}
    parent = {u: u for u in mobile}

    def root(u: str) -> str:
        while parent[u] != u:
            parent[u] = parent[parent[u]]
            u = parent[u]
        return u

    owner: dict[str, str] = {}
    for u in mobile:
        for node in balls[u]:
            other = owner.setdefault(node, u)
            if root(other) != root(u):
                parent[root(other)] = root(u)
    members: dict[str, list[str]] = {}
    for u in mobile:
        members.setdefault(root(u), []).append(u)
    return sorted(tuple(sorted(m)) for m in members.values())


def _scattering(position: Position, units: Sequence[str]) -> bool:
    """Some unit may leave its group in this step (Scatter), revealing a unit of its own."""
    return any("Scatter" in position.units[u].talents and position.units[u].group for u in units)


def _spending(position: Position, units: Sequence[str]) -> bool:
    """Some unit may spend Source in this step, or steal it (hooks pays/3, steals/3; a summons' cost, Evoke;
    a Summon Hero landmark a hero of its faction may use): the step's boards hang on the order of its moves."""
    known = catalogue()
    hooks = {h for uid in units for t in known.known(position.units[uid].talents) for h in t.hooks}
    summons = any(t.summons for uid in units for t in known.known(position.units[uid].talents))
    landmark = any(lm.revealed and SUMMON_HERO in lm.talents for lm in position.landmarks)
    return bool(hooks & SPENDING) or summons or (landmark and any(position.units[u].kind is Kind.HERO for u in units))


# The hooks by which a unit spends or steals Source as it moves (asp/core/hooks.lp).
SPENDING = frozenset({"pays/3", "steals/3"})


def _recruitable(position: Position, units: Sequence[str]) -> tuple[str, ...]:
    """The landmark minions on map hexes a unit of ``units`` may put under its faction's control in this step,
    and which then move in it (catalogue ``recruits``: Recruiter): those not its faction's within its move's
    reach and one hex more, a superset (asp/talents/recruiter.lp decides)."""
    recruiters = [u for u in units if any(t.recruits for t in catalogue().known(position.units[u].talents))]
    if not recruiters:
        return ()
    near = fields.reach(position, {u: r + 1 for u, r in fields.move_radii(position, recruiters).items()})
    return tuple(sorted(uid for uid, u in position.units.items() if u.kind is Kind.LANDMARK_MINION and u.at in near
                        and u.at in position.hexes and u.faction != position.turn.faction))


def _mobile(position: Position, unit: Unit) -> bool:
    """It may move in this step: a landmark minion only where its faction controls it (Position.controlled)."""
    return (not unit.done.moved and not unit.campfire
            and (unit.kind is not Kind.LANDMARK_MINION or position.controlled(unit)))


# ----------------------------------------------------------------------------------------- solve


def _solve(
    position: Position,
    units: tuple[str, ...],
    ai_factions: frozenset[str],
    deadline: Deadline | None,
    progress: Progress,
) -> _Group | str:
    """One group's boards from one projected solve, one for each way its players may use a stat add they
    may leave (adjudicate.declined); the moves of a board are read when it is shown, from a solve that
    found it. Or why its grounding shows that the solve cannot answer it."""
    solved = [whole_solve.solve_group(board, units, ai_factions, deadline, progress)
              for board in declined(position, units, ai_factions)]
    beyond = next((one.beyond for one in solved if one.beyond), None)
    if beyond is not None:
        return beyond
    found = {board: one for one in reversed(solved) for board in one.boards}
    finals: dict[Final, tuple[_Move, ...] | None] = {}
    shown: dict[Final, whole_solve.Found] = {}
    for board in (board for one in solved for board in one.boards):
        final = _dealt(position, *board)
        shown[final] = board
        finals[final] = None

    def witness(final: Final) -> tuple[_Move, ...]:
        board = shown[final]
        return tuple(_Move(move, distance, minion) for move, distance, minion in found[board].witness(board))

    ends = solved[0].ends if len(solved) == 1 else None if any(one.ends is None for one in solved) else {
        uid: tuple(sorted({e for one in solved for e in (one.ends or {}).get(uid, ())}))
        for uid in dict.fromkeys(u for one in solved for u in one.ends or {})}
    notices = tuple(sorted({n for one in solved for n in one.notices}))
    return _Group(units, finals, all(one.complete for one in solved), witness, ends, notices)


def _dealt(position: Position, board: Board, dealt: whole_solve.Dealt) -> Final:
    """A board of the one solve as the search gives it: the health and fortification upgrades of each
    chip the damage its minions dealt as they moved changed (Blaze; never all its life: whole.lp), a
    fortification upgrade lost first (FAQ-29, board_after._hurt)."""
    health: list[tuple[str, int]] = []
    forts: list[tuple[str, int]] = []
    for uid, damage in dealt:
        unit = position.units[uid]
        absorbed = min(damage, unit.fortifications)
        if damage > absorbed:
            health.append((uid, unit.health - damage + absorbed))
        if absorbed:
            forts.append((uid, unit.fortifications - absorbed))
    return Final(board, tuple(health), tuple(forts))


# ----------------------------------------------------------------------------------------- search


def _search(
    position: Position,
    units: tuple[str, ...],
    ai_factions: frozenset[str],
    deadline: Deadline | None,
    progress: Progress,
) -> _Group:
    """Every distinct final board of one group's step, the group's units alone moving."""
    readings = resolve(position.readings)
    die = shipped_die(readings["spire-die"])
    # Board, spires, landmarks and distance fields do not change during the step, but where a move's
    # damage defeats a landmark minion (Impale, Source Aura): an obstacle gone, they are rendered again
    # for each set of landmark minions standing, and for each set of spire upgrades an act left (Yrtel's
    # Will) or factions (Quantum Dark); and for each place of the marks, a marked unit a move defeated
    # being no mark to the moves after it (docs/movement.md, Distance to the mark). Only the nodes the
    # group's moves can read or change are sent.
    # A unit a group reveals as its top chip leaves it (Scatter) moves from a hex of the group's move, as far
    # as its own stat: the group's reach is that much further.
    radii = fields.step_radii(position, units)
    for uid in units:
        if _scattering(position, (uid,)):
            radii[uid] += 1 + max(g.stats.movement for g in position.units[uid].group)
    # A landmark minion a unit may put under control moves in the step too (Recruiter), as far as its own move.
    recruited = _recruitable(position, units)
    radii.update(fields.move_radii(position, recruited))
    nodes = fields.reach(position, radii)
    rendered: dict[tuple[frozenset[tuple[str, str]], tuple[tuple[tuple[str, ...], str], ...], tuple[str, ...],
                         tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[tuple[str, ...], ...]], str] = {}

    def members(pos: Position) -> tuple[str, ...]:
        """The group's units, each a group revealed as its top chip left it (Scatter), and each landmark minion a
        move put under control (Recruiter)."""
        return tuple(sorted({*units, *(uid for uid in pos.units if uid not in position.units),
                             *(uid for uid in recruited
                               if uid in pos.units and pos.units[uid].faction != position.units[uid].faction)}))

    def fixed(pos: Position) -> str:
        # A spire an act stripped (Yrtel's Will) holds no attack upgrade to remove again, one an act replaced
        # (Quantum Dark) is another faction's; a revealed unit may be of a class of its own; a chip an act
        # placed (Dig), or a landmark it moved (Twister), stands in the way; a keel minion a move promoted
        # shows its other side (kraised/1).
        standing = (frozenset((uid, u.at) for uid, u in pos.units.items() if u.kind is Kind.LANDMARK_MINION and u.at),
                    tuple((s.upgrades, s.faction, s.at, s.chip) for s in pos.spires), members(pos), tuple(c.at for c in pos.chips),
                    tuple(lm.at for lm in pos.landmarks),
                    tuple(uid for uid, u in sorted(pos.units.items()) if u.faction == KEEL and u.promoted),
                    _mark_places(pos))
        if standing not in rendered:
            rendered[standing] = render([*board_facts(pos, nodes),
                                         *field_facts(pos, members(pos), ai_factions, nodes)])
        return rendered[standing]
    hushing = bool(snare_reach(position))
    finals: dict[Final, tuple[_Move, ...]] = {}
    uncounted: set[Notice] = set()  # what a move's own answer left out (damage along an escape)
    # Each state explored, with the chance of the likeliest sequence that reached it (its dice: Anarchy, the
    # floating rocks): one reached again by a likelier sequence is explored again, as each board keeps its
    # likeliest sequence (docs/movement.md, The whole movement step).
    seen: dict[tuple[object, ...], Fraction] = {}
    # Any other unit a move displaced (Flying, Peaceful): boards that differ only in where such a
    # unit went are different boards.
    others = {uid: position.node_of(uid) for uid in sorted(position.units) if uid not in units}

    def board(pos: Position) -> Final:
        now = members(pos)  # a landmark minion put under control (Recruiter) is one of them, moved or not
        pushed = tuple((uid, _node(pos, uid)) for uid, node in others.items() if uid not in now and _node(pos, uid) != node)
        # A revealed unit (Scatter) is on the board with its own node, its health its stat.
        began = {uid: u for uid, u in sorted(pos.units.items()) if uid in position.units}
        health = tuple((uid, u.health) for uid, u in began.items() if u.health != position.units[uid].health)
        # A gate a unit dealt damage once its move ended (Immolate, Eruption), by its node.
        health += tuple((g.node, g.health) for f, g in sorted(pos.gates.items()) if g.health != position.gates[f].health)
        # Chapter 4's Source vein, its health chips a naroran unit's move removed; shown too where a strike
        # gained an earthscape, its health placed again (a vein struck back to the health it began with).
        health += tuple((c.id, c.health or 0) for c, was in zip(pos.chips, position.chips)
                        if (c.health, c.earthscapes) != (was.health, was.earthscapes))
        # A spire gone from the board (a unit's damage defeated it once its move ended, Glidebomb; Rigging
        # returned it), 0: a board of its own, the later moves seeing its hex free.
        standing = {s.id for s in pos.spires}
        health += tuple((s.id, 0) for s in position.spires if s.id not in standing)
        forts = tuple((uid, u.fortifications) for uid, u in began.items()
                      if u.fortifications != position.units[uid].fortifications)
        # A spire an act promoted (Builder: a dispatch platform now a siege tower) shows its promoted side too.
        printed = {s.id: s.chip for s in position.spires}
        # An elfinkaze placed from its barracks as its roost deployed (Elfin) shows the side it came out on.
        sides = tuple(sorted((*((uid, "promoted" if u.promoted else "basic") for uid, u in began.items()
                                if u.promoted != position.units[uid].promoted),
                              *((uid, side) for uid, u in began.items() if u.rides and position.in_barracks(uid)
                                for side in ELFINKAZE_SIDES if side in u.talents),
                              *((s.id, "promoted") for s in pos.spires if s.id in printed and s.chip != printed[s.id]))))
        # A landmark minion now controlled (Recruiter), a spire replaced by another faction's (Quantum Dark),
        # a spire an act built (Builder), with its faction.
        owned = {s.id: s.faction for s in position.spires}
        control = tuple(sorted((*((uid, u.faction) for uid, u in began.items() if u.faction != position.units[uid].faction),
                               *((s.id, s.faction) for s in pos.spires if s.faction != owned.get(s.id)))))
        source = tuple((f, x.source) for f, x in sorted(pos.factions.items()) if x.source != position.factions[f].source)
        # A unit's talents and upgrades where an act changed them, not a flip's (which ``sides`` tells: the side's
        # talents, its upgrades removed) nor a revealed chip's.
        kept = {uid for uid, u in began.items() if uid not in dict(sides) and u.chip == position.units[uid].chip}
        talents = tuple((uid, began[uid].talents) for uid in sorted(kept)
                        if began[uid].talents != position.units[uid].talents)
        holds = tuple((uid, u.stasis_on or u.possessing or "") for uid, u in began.items()
                      if (u.stasis_on, u.possessing) != (position.units[uid].stasis_on, position.units[uid].possessing))
        return Final(tuple((uid, _node(pos, uid)) for uid in now) + pushed, health, forts, sides,
                     _stripped(pos, position, kept), control, source, _placed(pos, position), talents, holds)

    def explore(pos: Position, begun: bool, over: bool, sequence: tuple[_Move, ...]) -> None:
        now = members(pos)
        moved = frozenset(uid for uid in now if pos.units[uid].done.moved)
        key = (board(pos), moved, begun, over)
        chance = _chance(sequence)
        if seen.get(key, -1) >= chance:
            return
        seen[key] = chance
        progress(len(finals))
        query = Query(now, ai_factions, stepping=True, begun=begun, over=over, readings=readings)
        answer = ask(pos, query, fixed(pos), deadline)
        if not answer.next_units:
            final = board(pos)
            if final not in finals or chance > _chance(finals[final]):
                finals[final] = sequence
            return
        uncounted.update(turned_notices(position, pos, "movement", STEP))  # a flipped unit's side, read by the moves now

        def alone(board: Position, uid: str) -> UnitOptions:
            return ask(board, Query((uid,), ai_factions, stepping=True, begun=begun, over=over, readings=readings),
                       fixed(board), deadline).options[uid]
        for uid in sorted(answer.next_units):
            minion = _ordered_as_minion(pos, pos.units[uid])
            # Chapter 2's Grafted Snare knows no mover (chapter_2.lp, hushed/2): each of several next moves is
            # asked alone, the others' units standing still.
            first = alone(pos, uid) if hushing and len(answer.next_units) > 1 else answer.options[uid]
            # What its talents may do before it moves (Consume): its move asked again on the board left, as
            # the one moving now (a unit its group revealed, Scatter, may then be closer to the mark).
            options = sourced(pos, gambled(pos, acting(pos, first, lambda board, uid=uid: alone(board, uid))))
            uncounted.update(options.notices)
            unit = pos.units[uid]
            for move in (r for o in options.outcomes for r in rolled(o, unit.life, die)):
                if move.defeated and move.rolls and unit.group:  # the next chip cannot show on a rock
                    uncounted.add(rolls_uncounted())
                step = _Move(move, options.start_distance if minion else None, minion)
                after, open_mark = _remarked(position, pos, apply_move(pos, move), members)
                uncounted.update(open_mark)
                explore(after, begun or minion, over or (begun and not minion), sequence + (step,))

    try:
        explore(position, False, False, ())
        complete = True
    except TimedOut:
        complete = False
    return _Group(units, finals, complete, notices=tuple(sorted(uncounted)))


# ---------------------------------------------------------------------------------------- answers


def _ordered_as_minion(position: Position, unit: Unit) -> bool:
    """Whether the unit's move is a minion's in the step's order: a minion (a landmark minion its faction controls
    too), unless a talent has it move like a hero (hook as_hero/2: Roost Roam, FAQ-11), before or after the minions."""
    hooks = {h for t in catalogue().known(unit.talents) for h in t.hooks}
    return fields.walks_as_minion(position, unit) and AS_HERO not in hooks


# The hook by which a minion moves like a hero (asp/core/hooks.lp).
AS_HERO = "as_hero/2"


def _mark_places(position: Position) -> tuple[tuple[str, ...], ...]:
    """Where every faction's mark and every unit's own mark is now: a marked unit moves with it, and
    leaves it once defeated."""
    return (*(position.mark_nodes(f) for f in sorted(position.factions)),
            *(position.mark_nodes(u.faction, uid) for uid, u in sorted(position.units.items()) if u.mark is not None))


# The reading defeated-mark (docs/readings.md): what a marked unit a move defeats leaves to the moves after it.
DEFEATED_MARK = "defeated-mark"
MARK_TEXT = ("The Graft: Opposing hero with the highest health at the start of the Onslaught Phase (remains the mark "
             "until it is defeated); game-elements, Fortress Gate: All players with this faction as their mark must "
             "declare a new mark immediately")


def _remarked(start: Position, before: Position, after: Position,
              members: Callable[[Position], tuple[str, ...]]) -> tuple[Position, tuple[Notice, ...]]:
    """The board ``after`` a move with the marks the reading defeated-mark gives once the move defeated a marked
    unit that a unit still to move counts to: by none, no mark (its node off the board); by declare-again, its
    faction's next-mark in its place. A notice where the position leaves the reading unsaid, or gives no
    next-mark (or the mark is a unit's own) by declare-again: which mark it moves to is then not known."""
    fallen = {uid for uid, u in before.units.items() if u.at is not None and after.units[uid].at is None}
    waiting = [uid for uid in members(after) if not after.units[uid].done.moved and after.placed(uid) is not None]
    hit = {uid: mark for uid in waiting for mark in [after.mark_of(uid)]
           if (mark.beside.unit if mark.beside is not None else mark.unit) in fallen}
    if not hit:
        return after, ()
    reading = start.readings.get(DEFEATED_MARK)
    factions = dict(after.factions)
    if reading == "declare-again":
        for faction in {after.units[uid].faction for uid, mark in hit.items() if after.units[uid].mark is None}:
            declared = factions[faction].next_mark
            if declared is not None:
                factions[faction] = replace(factions[faction], mark=declared, next_mark=None)
        after = replace(after, factions=factions)
        hit = {uid: mark for uid, mark in hit.items() if after.mark_of(uid) == mark}
    if reading == "none" or not hit:
        return after, ()
    chips = tuple(sorted({mark.beside.unit if mark.beside is not None else mark.unit or "" for mark in hit.values()}))
    left = ("the mark declared in its place: the faction's next-mark" if reading == "declare-again"
            else "whether the units whose mark it was have none, or a new one (reading defeated-mark)")
    return after, (Notice("", PARTLY, ("movement",), chips, left, f"reading {DEFEATED_MARK}", MARK_TEXT),)


def _chance(sequence: tuple[_Move, ...]) -> Fraction:
    """The chance of the dice results a sequence shows (1 where none were rolled)."""
    return math.prod((m.outcome.chance for m in sequence if m.outcome.chance is not None), start=Fraction(1))


def _node(position: Position, uid: str) -> str:
    """Where the unit stands; DEFEATED when damage taken while moving defeated it (board_after.py), DISCARDED
    when a die rolled before its move discarded it (Anarchy)."""
    unit = position.units[uid]
    return DEFEATED if unit.health == 0 and not unit.burrowed else DISCARDED if unit.discarded else position.node_of(uid)


def _defeats(final: Final) -> bool:
    """Some unit of this final board was defeated, or a gate or chapter 4's Source vein brought to 0
    health, in the step."""
    board, health, *_ = final
    return any(node == DEFEATED for _, node in board) or any(left == 0 for _, left in health)


def _ones(position: Position, final: Final, moves: tuple[_Move, ...] | None) -> set[str]:
    """The units of this final board whose health the step may have reduced to exactly 1: those it defeated
    (a hit before the last may have left them at 1) and those it left at 1 from more. Health only falls as
    units move (a unit both healed and hurt is mend_unknown's notice), so one left above 1 never was at 1.
    Not a unit its own move defeated where a talent of its own acts at exactly 1 on its way (hook one_falls/2:
    Entropy; the solver read its health hex by hex), unless a move of the sequence ``moves`` (where known)
    may also have left it at 1 otherwise (MoveOutcome.ones: another's move, its own dice)."""
    board, health, *_ = final
    found = {uid for uid, node in board if node == DEFEATED} | {
        uid for uid, left in health if uid in position.units and left == 1 < position.units[uid].health}
    if moves is None:
        return found
    read = {m.outcome.unit for m in moves if m.outcome.defeated and any(
        "one_falls/2" in t.hooks for t in catalogue().known(position.units[m.outcome.unit].talents))}
    return found - (read - {u for m in moves for u in m.outcome.ones})


def _summary(position: Position, searched: list[_Group]) -> tuple[UnitSummary, ...]:
    """Each unit's possible ends; forced when there is one; and the units of its group whose end
    narrows its own (some pair of their possible ends never occurs together). A solved group's ends
    come from the solver (whole_solve.py, brave consequences), a searched group's from its boards;
    which units narrow an end is read from the boards, unknown (None) when they were not all listed.
    The faction's units that cannot move are there too, forced, unless a group may displace them; the
    units are those the step began with."""
    faction = position.turn.faction
    summary: dict[str, UnitSummary] = {
        u: UnitSummary(u, (position.node_of(u),), True) for u in present_units(position, faction)
    }
    for group in searched:
        # A unit a group revealed in the step (Scatter) had no start: its ends are on the boards alone.
        members = {u for u in set(group.units).union(u for board, *_ in group.finals for u, _ in board)
                   .union(group.ends or ()) if u in position.units}
        starts = {u: position.node_of(u) for u in members}
        boards = [{**starts, **dict(board)} for board, *_ in group.finals]
        if group.ends is None:
            ends = {u: tuple(sorted({b[u] for b in boards})) for u in sorted(members)}
        else:  # placed units no board moves are left out, as a searched group leaves them
            ends = {u: nodes for u, nodes in group.ends.items() if u in group.units or nodes != (position.node_of(u),)}
        together = {(u, b[u], v, b[v]) for b in boards for u, v in itertools.permutations(ends, 2)}
        for u, nodes in ends.items():
            narrowed = tuple(
                v for v in sorted(ends) if v != u and len(nodes) > 1 and len(ends[v]) > 1
                and any((u, a, v, b) not in together for a in nodes for b in ends[v])
            )
            known = group.complete or len(nodes) == 1
            summary[u] = UnitSummary(u, nodes, len(nodes) == 1, narrowed if known else None)
    return tuple(summary[u] for u in sorted(summary))


def _boards(
    position: Position, searched: list[_Group], limit: int | None, deadline: Deadline | None
) -> tuple[tuple[StepOutcome, ...], bool]:
    """The first ``limit`` combinations of one board per group, each with its moves interleaved, and
    whether all were shown: each order of moves may need a solve (a group solved in one), so once
    ``deadline`` passes the boards shown so far are kept and the rest only counted."""
    ordered = [[(g, f) for f in sorted(g.finals)] for g in searched]
    outcomes: list[StepOutcome] = []
    for combination in itertools.islice(itertools.product(*ordered), limit):
        if outcomes and deadline is not None and deadline.remaining() <= 0:
            return tuple(sorted(outcomes, key=lambda o: o.final)), False
        outcomes.append(StepOutcome(_merge_board(position, [f.board for _, f in combination]),
                                    _interleave([g.sequence(f) for g, f in combination]),
                                    tuple(sorted(pair for _, f in combination for pair in f.health)),
                                    tuple(sorted(pair for _, f in combination for pair in f.forts)),
                                    tuple(sorted(pair for _, f in combination for pair in f.sides)),
                                    _merge_upgrades([f.upgrades for _, f in combination]),
                                    tuple(sorted(dict(pair for _, f in combination for pair in f.control).items())),
                                    _merge_source(position, [f.source for _, f in combination]),
                                    tuple(sorted(dict(pair for _, f in combination for pair in f.chips).items())),
                                    tuple(sorted(pair for _, f in combination for pair in f.talents))))
    return tuple(sorted(outcomes, key=lambda o: o.final)), True


def _merge_source(position: Position, changed: list[Source]) -> Source:
    """Each faction's Source after the groups' moves: what each group's added to it, up to its capacity. Groups
    are apart only where no unit may spend or steal Source (_spending), so each only adds: any order gives it."""
    added: dict[str, int] = {}
    for board in changed:
        for faction, now in board:
            added[faction] = added.get(faction, 0) + now - position.factions[faction].source
    merged = {f: min(max(info.source, info.source_capacity), info.source + added[f])
              for f, info in position.factions.items() if f in added}
    return tuple(sorted((f, n) for f, n in merged.items() if n != position.factions[f].source))


def _merge_upgrades(changed: list[Upgrades]) -> Upgrades:
    """The spires' and units' upgrades the groups' boards changed; a spire two groups stripped keeps the
    same either way (an act only takes its attack upgrades, Yrtel's Will)."""
    return tuple(sorted(dict(pair for board in changed for pair in board).items()))


def _stripped(position: Position, start: Position, units: set[str]) -> Upgrades:
    """Each spire whose upgrades differ from those it had as the step began (none where an act built it:
    Builder), with its upgrades now; then each of ``units`` whose upgrades other than fortifications do
    (Radiate: a fortification given is in the board's fortifications), with those."""
    was = {s.id: s.upgrades for s in start.spires}
    spires = tuple((s.id, s.upgrades) for s in position.spires if s.upgrades != was.get(s.id, ()))

    def kept(upgrades: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(u for u in upgrades if u != "fortification")

    return spires + tuple((uid, kept(position.units[uid].upgrades)) for uid in sorted(units)
                          if kept(position.units[uid].upgrades) != kept(start.units[uid].upgrades))


def _placed(position: Position, start: Position) -> Chips:
    """Each chip and landmark whose hex differs from the one it had as the step began, with its hex now,
    or REMOVED where it left the map; a chip placed in the step, with its hex."""
    was = {c.id: c.at for c in (*start.chips, *start.landmarks)}
    now = {c.id: c.at for c in (*position.chips, *position.landmarks)}
    return tuple(sorted((*((i, at) for i, at in now.items() if was.get(i) != at),
                         *((i, REMOVED) for i in was if i not in now))))


def _merge_board(position: Position, boards: list[Board]) -> Board:
    """One board from the groups' boards: every unit of the faction in id order, then the other units
    a move displaced."""
    merged = dict(pair for board in boards for pair in board)
    faction = present_units(position, position.turn.faction)
    pushed = tuple(sorted((u, n) for u, n in merged.items() if u not in faction))
    return tuple((u, merged.get(u, position.node_of(u))) for u in faction) + pushed


def _interleave(sequences: list[tuple[_Move, ...]]) -> tuple[MoveOutcome, ...]:
    """The groups' moves as one legal order: heroes that moved before their group's minions, then the
    minions, the closest to its mark next each time, then the heroes that moved after them. Groups
    never touch, so each group's moves keep their own order and their outcomes."""
    before: list[MoveOutcome] = []
    after: list[MoveOutcome] = []
    minions: list[deque[_Move]] = []
    for sequence in sequences:
        first = next((i for i, m in enumerate(sequence) if m.minion), len(sequence))
        before += [m.outcome for m in sequence[:first]]
        rest = sequence[first:]
        last = max((i for i, m in enumerate(rest) if m.minion), default=-1)
        after += [m.outcome for m in rest[last + 1:]]
        minions.append(deque(rest[: last + 1]))
    middle: list[MoveOutcome] = []
    while any(minions):
        queue = min((q for q in minions if q), key=lambda q: (q[0].distance is None, q[0].distance or 0))
        middle.append(queue.popleft().outcome)
    return tuple(before + middle + after)

