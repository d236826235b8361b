"""One group's whole movement step in one projected solve (asp/movement/whole.lp).

The solver chooses the order of moves and the ends; projection onto the final board (wfin/2) gives
each distinct board once for each case of the heroes' timing (``_phases``), and the cases' boards
are merged here.
The order of moves that makes a board is read only for the boards shown: the part ``witness`` is
grounded onto the solved program, and the solver runs once more under the board's atoms.

``outside`` says when a group falls outside what the encoding expresses; whole_step.py then searches.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cache

from clingo import Control, Function, Number, String, Symbol

from adjudicator.answers.decode import (decode_whole_board, decode_whole_dealt, decode_whole_ends, decode_whole_escapes,
                                        decode_whole_notices, decode_whole_touch, decode_whole_witness)
from adjudicator.answers.moves import MoveOutcome
from adjudicator.answers.notices import Notice
from adjudicator.facts import fields
from adjudicator.facts.board import Query, fact, position_facts
from adjudicator.position.chapter_rules import rock_rollers, snare_reach
from adjudicator.position.model import KEEL, SHADA, SUMMON_HERO, Kind, Position, Unit
from adjudicator.position.movement_stat import allowances
from adjudicator.position.readings import resolve
from adjudicator.position.talents import catalogue
from adjudicator.questions.still import chapter_nucleus
from adjudicator.solving.solve import Deadline, TimedOut, encoding_dir, extend, ground, models

Board = tuple[tuple[str, str], ...]
Dealt = tuple[tuple[str, int], ...]  # what each chip took from damage dealt as minions moved (Blaze), by id
Found = tuple[Board, Dealt]
Witness = list[tuple[MoveOutcome, int | None, bool]]

WHOLE = ("base", "move", "whole")

# The movement hooks (asp/core/hooks.lp) whose effect the one solve takes in whole: each fixes a
# unit's movement stat, terrain allowance or immunity to talents, or the hexes that stop it, from facts
# that do not change during the step (its chip, its start, a spire, an opposing unit that no move
# displaces), and routes, walks and lateral moves read those (mv_may/3 taken: whole_step.py solves
# again without its talent, adjudicate.declined); or lets the group's minions displace
# another faction's unit, which whole.lp then moves as it moves a friendly hero (see ``outside``).
# spared/3 (Peaceful) only narrows hurts/4, and mdrops/2 (Cumbersome) acts only on damage hurts/4 deals,
# which the solve never honours: a position that holds a talent that hurts moving units is searched, so
# there the solve has nothing to spare or drop.
HONOURED = frozenset({"mv_add/3", "mv_may/3", "mv_set/3", "allow_set/3", "unmovable/2", "stops/3", "displaceable/2",
                      "ai_end_pref/3", "spared/3", "mdrops/2"})
# Damage a unit deals as it moves, and the AI's preference for routes onto some hexes (Blaze): an AI
# minion's damage on its routes is played (whole.lp, burn/3), unless the grounding shows that it may
# defeat a chip; a player's choice, or a lateral walk onto such a hex, only where no move may make one
# (whole.lp, wtouch/2: otherwise searched); a hero's walk keeps its notice (scorch_unknown/3). What such a
# unit deals where a move displaces it (scorch.lp, lscorched/7) is searched (``outside``).
UNTOUCHED = frozenset({"scorches/5", "scorch_may/2", "ai_enter_pref/3", "scorches_mover/5"})
SCORCHES = "scorches/5"
# A talent's act before the move that teleports its unit instead of moving (Tracker: catalogue
# teleports_self): whole.lp takes each hex it names as an end of the unit's move, where no unit holds it
# then; an act of any other kind is searched.
TELEPORTS = frozenset({"beforemove_act/4", "act_may/2"})
# Hooks whose effect hangs on where their chip stands, and one that lets a move displace the chip.
PLACED = frozenset({"stops/3"})
DISPLACEABLE = "displaceable/2"
# A hook whose effect the solve takes in for minions only (whole.lp): an AI hero's end preference.
MINIONS_ONLY = frozenset({"ai_end_pref/3"})


def outside(position: Position, units: tuple[str, ...], ai_factions: frozenset[str] = frozenset()) -> str | None:
    """Why the one solve cannot answer this group's step (the search then does), or None. Only the
    chips whose talents can act in it count (``idle``); ``ai_factions``: as the question has them."""
    faction = position.turn.faction
    if faction in position.gates and not position.gates[faction].fortress:
        return "its units deploy from a point that is no fortress, where no hero returns (searched)"
    for uid in units:
        unit = position.units[uid]
        if unit.mark is not None:
            return f"{uid} has a mark of its own (searched)"
        if chapter_nucleus(position, uid):
            return f"{uid} is Nucleus, whose chapter holds it still by what it can defeat, moves it last or has it flee spires (searched)"
        if unit.at is None and unit.kind is Kind.MINION and None in _gate_distances(position, unit):
            return f"{uid} waits in a gate that does not lead to its mark (it moves last: searched)"
        if position.controlled(unit):
            return f"{uid} is a landmark minion its faction controls, which stands in others' way where it is (searched)"
    if position.hex_groups and any(position.units[u].faction == KEEL and position.units[u].kind is Kind.MINION
                                   for u in units):
        return "a keel minion promotes or demotes where its move ends (searched)"
    if any(position.units[u].faction == SHADA and position.units[u].kind is Kind.MINION
           and not position.units[u].promoted for u in units):
        if SHADA not in ai_factions:
            return "a basic shada minion may be placed on a Source well once its move ends (searched)"
        if resolve(position.readings)["ai-shada-promotion"] == "fuse":  # asp/movement/shada.lp, shada_fuser/1
            return "an AI's basic shada minion fuses where it can once its move ends (searched)"
    if any(c.health for c in position.chips) and any(position.units[u].faction == "narora" for u in units):
        return "a naroran unit may end its move beside the Source vein and strike it (searched)"
    gate = position.gates.get(faction)
    if gate is not None and gate.health_chips and any(position.units[u].at is None for u in units):
        return "a unit deploying may take a health chip of its fortress (Harbinger chapter 2: searched)"
    if snare_reach(position):  # asp/scenarios/chapter_2.lp, hushed/2: read as each move begins
        return "an opposing unit's talents are ignored while it stands beside a Graft unit not moving (Harbinger chapter 2: searched)"
    known = catalogue()
    chips = [(u.id, t) for u in position.units.values() if position.placed(u.id) for t in u.talents]
    chips += [(s.id, t) for s in position.spires for t in s.talents]
    chips += [(c.id, t) for c in position.chips for t in c.talents]
    for chip, name in chips:
        if idle(position, chip, name, units, ai_factions):
            continue
        if not expressed(name):
            return f"{chip} has the talent {name}, which acts on movement in a way the solve does not express (searched)"
        talent = known.resolve(name)
        hooks = set(talent.hooks) & movement_hooks() if talent is not None else set()
        if hooks & PLACED and _opens(n for c, n in chips if c == chip):
            return f"{chip} has the talent {name} and may be displaced, which moves where it acts (searched)"
        if hooks & MINIONS_ONLY and chip in units and position.units[chip].kind is Kind.HERO:
            return f"{chip} has the talent {name}, whose choice among a hero's ends the solve does not express (searched)"
        if SCORCHES in hooks and chip in units and _opened(position, faction):
            return f"{chip} has the talent {name}, and a move may displace an opposing unit beside where it deals damage (searched)"
        if SCORCHES in hooks and _pushable(position, chip, faction):
            return f"{chip} has the talent {name} and a minion's move may displace it, where it deals damage as it lands (searched)"
    if any(lm.health == 0 for lm in position.landmarks):  # the landmarks it swaps stand in later moves' way
        return "a hero may move onto a Secret Passage, which swaps it with a landmark (searched)"
    if any(lm.revealed and SUMMON_HERO in lm.talents for lm in position.landmarks):
        return "a hero beside a Summon Hero landmark may teleport another hero (searched)"
    minions = [position.units[u] for u in units if position.units[u].kind is Kind.MINION]
    hardest = max((a.level for m in minions for a in allowances(m)), default=0)
    mark = position.factions[faction].mark.unit
    for unit in position.units.values():
        if unit.faction == faction and unit.kind is Kind.HERO and position.placed(unit.id):
            if min(a.level for a in allowances(unit)) < hardest:
                return f"{unit.id} may be displaced onto terrain it may not stand on (landings are searched)"
            if unit.id == mark:
                return f"{unit.id} is its own faction's mark"
    if any(h.rock for h in position.hexes.values()) and _may_be_displaced(position, faction):
        return "a displaced unit may not land on a floating rock (landings are searched)"
    rocks = {n for n, h in position.hexes.items() if h.rock}
    radii = fields.step_radii(position, set(units) & set(rock_rollers(position)))
    rolling = [u for u, r in radii.items() if rocks & fields.ball(position, position.node_of(u), r)]
    if rolling:
        return f"{min(rolling)} may roll for a floating rock, and each result may change the board (searched)"
    return _displaced_by_talent(position, units, hardest)


def idle(position: Position, chip: str, name: str, units: tuple[str, ...], ai_factions: frozenset[str]) -> bool:
    """Whether a chip's talent does nothing in this group's step, by its catalogue entry: one that acts
    only in its own unit's move (own_move) on a unit that makes no move in it (another faction's, or
    one of another group), or one whose AI wording says it does not trigger for AI units on a unit
    of a faction the question plays as the AI (tests/test_hook_contract.py checks both against the
    encodings)."""
    talent = catalogue().resolve(name)
    unit = position.units.get(chip)
    if talent is None or unit is None:
        return False
    return (talent.own_move and chip not in units) or (talent.ai_no_effect == "units" and unit.faction in ai_factions)


def _opens(talents: Iterable[str]) -> bool:
    """A talent among ``talents`` opens its chip to displacement (Flying, Peaceful)."""
    return any(DISPLACEABLE in t.hooks for t in catalogue().known(talents))


def _opened(position: Position, faction: str) -> bool:
    """Some unit of another faction on the map that a talent opens to displacement."""
    return any(u.faction != faction and position.placed(u.id) and _opens(u.talents) for u in position.units.values())


def _pushable(position: Position, chip: str, faction: str) -> bool:
    """Whether the faction's minions may displace the unit ``chip``: a hero of its own, or a unit a talent
    opens (Flying, Peaceful); a spire or other chip never."""
    unit = position.units.get(chip)
    return unit is not None and position.placed(chip) and (
        (unit.faction == faction and unit.kind is Kind.HERO) or _opens(unit.talents))


def _may_be_displaced(position: Position, faction: str) -> bool:
    """Whether the faction's minions may displace anyone: a hero of its own, or a unit a talent opens."""
    return any((u.faction == faction and u.kind is Kind.HERO) or _opens(u.talents) for u in position.units.values())


def _displaced_by_talent(position: Position, units: tuple[str, ...], hardest: int) -> str | None:
    """Why a unit the group's minions may displace by its talent (Flying, Peaceful) is searched: one of
    the moving faction that is no hero (it may move itself, and its start distance would hang on the
    order), or another faction's that could land where it may not stand: on terrain its allowance does
    not admit, or on the gate a minion deploys from (pushed beside it first, by another minion, it
    may be pushed into it: any such unit while a minion waits to deploy)."""
    faction = position.turn.faction
    deploying = any(position.units[u].at is None for u in units)
    for unit in position.units.values():
        if not _opens(unit.talents):
            continue
        if unit.faction == faction and unit.kind is not Kind.HERO:  # on the map or deploying
            return f"{unit.id} may be displaced by a minion of its own faction (searched)"
        if unit.faction != faction and unit.kind is not Kind.LANDMARK_MINION and unit.at is not None:
            if min(a.level for a in allowances(unit)) < hardest:
                return f"{unit.id} may be displaced onto terrain it may not stand on (landings are searched)"
            if deploying:
                return f"{unit.id} may be displaced onto a gate a minion deploys from (landings are searched)"
    return None


def _gate_distances(position: Position, unit: Unit) -> set[int | None]:
    """The waiting minion's start distance, its gate's, for each allowance it may have (None: the gate
    does not lead to its mark)."""
    gate = position.node_of(unit.id)
    through = fields.counts_through(unit)
    return {fields.mark_distances(position, a, unit.faction, through).get(gate) for a in allowances(unit)}


def expressed(name: str) -> bool:
    """Whether the one solve expresses what a talent does to movement: nothing, or only through the
    hooks it honours, or those it checks cannot act (UNTOUCHED), or a teleport instead of moving (TELEPORTS)."""
    talent = catalogue().resolve(name)
    if talent is None:
        return False
    hooks = set(talent.hooks) & movement_hooks()
    honoured = HONOURED | UNTOUCHED | (TELEPORTS if talent.teleports_self else frozenset())
    return not ("movement" in talent.steps and not hooks) and hooks <= honoured


@cache
def movement_hooks() -> frozenset[str]:
    """The hooks the movement rules read (asp/core/hooks.lp, the lines before the combat hooks), as
    name/arity: a talent that defines one changes moves."""
    text = (encoding_dir() / "core" / "hooks.lp").read_text(encoding="utf-8")
    movement = text.split("(#program combat)")[0]
    return frozenset(re.findall(r"#defined (\w+/\d+)\.", movement))


@dataclass
class Solved:
    """One group's boards, in the order found, and how to read the moves that make one."""

    boards: list[Found]
    complete: bool
    witness: Callable[[Found], Witness]
    ends: dict[str, tuple[str, ...]] | None  # every end of each placed unit, from brave consequences
    notices: tuple[Notice, ...] = ()  # what the group's moves leave out (a hero's walk dealing damage)
    beyond: str | None = None  # why the grounding shows the solve cannot answer (whole.lp wtouch/2, wescape/1): searched


def solve_group(
    position: Position,
    units: tuple[str, ...],
    ai_factions: frozenset[str],
    deadline: Deadline | None,
    progress: Callable[[int], None],
) -> Solved:
    """Every distinct final board of the group's step: its units in id order, then any other unit
    a move displaced."""
    if deadline is not None and deadline.remaining() <= 0:
        return Solved([], False, lambda board: [], None)
    control = _grounded(position, units, ai_factions)
    try:
        why = _beyond(control, deadline)
    except TimedOut:
        return Solved([], False, lambda board: [], None)
    if why is not None:
        return Solved([], True, lambda board: [], None, beyond=why)
    notices = decode_whole_notices(a.symbol for a in control.symbolic_atoms.by_signature("scorch_unknown", 3)
                                   if a.symbol.arguments[0].string in units)
    starts = {uid: position.node_of(uid) for uid in sorted(position.units) if position.placed(uid)}

    def board(symbols: list[Symbol]) -> Found:
        ends = decode_whole_board(symbols)
        pushed = tuple(sorted((u, n) for u, n in ends.items() if u not in units and n != starts[u]))
        return tuple((u, ends[u]) for u in units) + pushed, tuple(sorted(decode_whole_dealt(symbols).items()))

    # The chips the group's minions may deal damage as they move: each board says what each took, 0 too.
    burnable = sorted(a.symbol.arguments[0].string for a in control.symbolic_atoms.by_signature("burnable", 1))
    boards: list[Found] = []
    seen: set[Found] = set()
    complete = True
    ends = None
    cases = _phases(position, units)
    try:
        ends = _possible_ends(control, cases, deadline)
        for case in cases:
            # The solver's own count restarts with each case and repeats boards: report the distinct ones.
            for symbols in models(control, deadline, lambda _: progress(len(boards)), case):
                found = board(symbols)
                if found not in seen:
                    seen.add(found)
                    boards.append(found)
                    progress(len(boards))
    except TimedOut:
        complete = False

    witnessing = False  # the witness part is grounded once, when the first board is shown

    def witness(shown: Found) -> Witness:
        nonlocal witnessing
        at, dealt = dict(shown[0]), dict(shown[1])
        # Every unit the solve places (whole.lp, wfin/2): the group's, and the units its minions may
        # push, as the brave ends name them; a board lists a pushed one only where it moved.
        placed = sorted(ends or {})
        assumptions = [(fact("wfin", String(u), String(at.get(u, starts[u]))), True) for u in placed]
        assumptions += [(fact("wdealt", String(x), Number(dealt.get(x, 0))), True) for x in burnable]
        if not witnessing:
            extend(control, "witness")
            witnessing = True
        return decode_whole_witness(_first(models(control, None, None, assumptions)), position.neighbours)

    return Solved(boards, complete, witness, ends, notices)


def beyond(position: Position, units: tuple[str, ...], ai_factions: frozenset[str]) -> str | None:
    """Why the grounding shows that the solve cannot answer this group's step (whole.lp wtouch/2, wescape/1), or
    None: what ``solve_group`` finds before it solves."""
    return _beyond(_grounded(position, units, ai_factions), None)


def _grounded(position: Position, units: tuple[str, ...], ai_factions: frozenset[str]) -> Control:
    nodes = fields.reach(position, fields.step_radii(position, units))
    query = Query(units, ai_factions, whole=True, readings=resolve(position.readings))
    return ground(position_facts(position, query, nodes), WHOLE, ["0", "--project=project"])


def _beyond(control: Control, deadline: Deadline | None) -> str | None:
    escaping = decode_whole_escapes(a.symbol for a in control.symbolic_atoms.by_signature("wescape", 1))
    if escaping:
        return f"{escaping[0]} starts on a hex it may not stand on, and the one solve does not follow its escape (searched)"
    # An answer where a unit stands on a hex an escape explores before the escaper moves (whole.lp, wmet/1).
    if any(True for _ in control.symbolic_atoms.by_signature("wmet", 1)):
        met = models(control, deadline, None, [(Function("wmeets", []), True)])
        try:
            if next(met, None) is not None:
                return "a minion's escape from invalid terrain may meet a unit that moves (escapes are searched)"
        finally:
            met.close()  # type: ignore[attr-defined]  # a generator's close
    touched = decode_whole_touch(a.symbol for a in control.symbolic_atoms.by_signature("wtouch", 2))
    if not touched:
        return None
    unit, talent = touched[0]
    return f"{unit} has the talent {talent}, which may act where it moves (searched)"


def _possible_ends(control: Control, cases: list[list[tuple[Symbol, bool]]], deadline: Deadline | None) -> dict[str, tuple[str, ...]]:
    """Every node each placed unit ends on in some final board: the union of the cases' brave
    consequences over wfin/2, without listing a board. A unit has one wfin/2 atom in each answer, so
    one brave end is a forced end, and cautious consequences would add nothing."""
    ends: dict[str, set[str]] = {}
    control.configuration.solve.enum_mode = "brave"  # type: ignore[union-attr]  # clingo's configuration is untyped
    try:
        for case in cases:
            last: list[Symbol] = []
            for last in models(control, deadline, None, case):
                pass
            for unit, node in decode_whole_ends(last):
                ends.setdefault(unit, set()).add(node)
    finally:
        control.configuration.solve.enum_mode = "auto"  # type: ignore[union-attr]
    return {unit: tuple(sorted(nodes)) for unit, nodes in ends.items()}


def _phases(position: Position, units: tuple[str, ...]) -> list[list[tuple[Symbol, bool]]]:
    """One case for each way the group's heroes split into those moving before the minions and those
    moving after (late/1). The same board often comes from several splits, and one projected solve
    over all of them spends most of its time proving so (about 4 times slower at 150 hexes / 20
    units); apart, each case is quick and the boards are merged here."""
    heroes = [u for u in units if position.units[u].kind is Kind.HERO]
    return [[(Function("late", [String(x)]), late) for x, late in zip(heroes, split)]
            for split in itertools.product((True, False), repeat=len(heroes))]


def _first(answers: Iterator[list[Symbol]]) -> list[Symbol]:
    try:
        return next(answers)
    finally:
        answers.close()  # type: ignore[attr-defined]  # a generator's close

