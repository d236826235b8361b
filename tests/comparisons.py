"""The comparisons between the solver and the brute-force reference (tests/reference), one per
question, shared by the agreement tests (tests/test_agreement.py, tests/test_combat_agreement.py)
and the sweep (bench/sweep.py).

Each ``*_problem`` function asks the solver and the reference the same question about one position
and returns ``None`` when they agree, or the disagreement as text: what was asked, the position as a
position file, and one line per difference.  The solver gets a copy, so the position printed is the
one given.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from fractions import Fraction
from typing import TypeVar

from adjudicator.answers.attacks import AttackOptions, AttackOutcome, AttackStepResult, EndState, FireStepResult, Rolled, Target
from adjudicator.answers.moves import ESCAPE, PROGRESS, Act, Displacement, MoveOutcome, StepResult, Strike, UnitOptions
from adjudicator.position.model import Controller, Kind, Position
from adjudicator.questions import adjudicate as solver
from adjudicator.questions import whole_solve
from adjudicator.questions.whole_solve import expressed
from adjudicator.questions.adjudicate import present_units
from adjudicator.questions.whole_step import SEARCH, groups, movement_step

from tests.combat_strategies import describe_combat
from tests.reference import combat as combat_ref
from tests.reference import movement as movement_ref
from tests.strategies import describe, keeping, without_talents

K = TypeVar("K")
V = TypeVar("V")

# ===================================================================================== movement

Key = tuple[str, str, tuple[Displacement, ...], int, bool, int, tuple[Strike, ...], str, tuple[Act, ...],
            tuple[tuple[str, int, bool], ...], Fraction | None, tuple[object, ...]]
Compared = dict[Key, tuple[str, tuple[str, ...], int | None]]


def _compared(options: UnitOptions) -> Compared:
    """Outcomes by key (displacements in any order) → kind, path, and route count when it is defined."""
    return {
        (o.unit, o.end, tuple(sorted(o.displaced)), o.damage, o.defeated, o.rolls, tuple(sorted(o.struck)), o.placed,
         o.acts, o.carried, o.chance, (o.spent, o.earned, o.robbed, o.pocket, o.credited, o.lost, o.stat)): (
            o.kind,
            o.path,
            o.paths if o.kind in (PROGRESS, ESCAPE) else None,
        )
        for o in options.outcomes
    }


def _show(key: Key, seen: tuple[str, tuple[str, ...], int | None]) -> str:
    (unit, end, displaced, damage, defeated, rolls, struck, placed, acts, carried, chance, source), (kind, path, paths) = key, seen
    pushed = ", ".join(f"{d.unit} {d.source}->{d.to}" + (f" ({d.damage} damage)" if d.damage else "") for d in displaced)
    hurt = (" defeated" if defeated else f" {damage} damage" if damage else "") + (f" {rolls} dice" if rolls else "")
    dealt = ", ".join(f"{x.chip} {x.damage}" + (" defeated" if x.defeated else "") for x in struck)
    return (f"{unit} -> {end}{hurt} [{kind}] path {'-'.join(path)} paths {paths} displaced {{{pushed}}}"
            + (f" placed {placed}" if placed else "") + (f" struck {{{dealt}}}" if dealt else "")
            + "".join(f" {a.when}: {a.talent} {a.how}s {a.chip}" for a in acts)
            + "".join(f" carried {r} {n}" + (" defeated" if fell else "") for r, n, fell in carried)
            + (f" chance {chance}" if chance is not None else "")
            + "".join(f" {a.talent} costs {a.cost}" for a in acts if a.cost)
            + (f" Source, movement stat {source}" if any(source) else ""))


def options_difference(expected: UnitOptions, got: UnitOptions) -> list[str]:
    """How the solver's options of one unit differ from the reference's, one line each."""
    want, have = _compared(expected), _compared(got)
    lines = [f"  missing from solver: {_show(k, want[k])}" for k in sorted(want.keys() - have.keys())]
    lines += [f"  extra in solver:     {_show(k, have[k])}" for k in sorted(have.keys() - want.keys())]
    for k in sorted(want.keys() & have.keys()):
        if want[k] != have[k]:
            lines.append(f"  reference: {_show(k, want[k])}\n  solver:    {_show(k, have[k])}")
    if bool(expected.must_wait) != bool(got.must_wait):
        lines.append(f"  must_wait: reference {expected.must_wait!r}, solver {got.must_wait!r}")
    minion = not any(o.kind in ("free", "return") for o in expected.outcomes)
    if minion and not expected.must_wait and expected.start_distance != got.start_distance:
        lines.append(f"  start_distance: reference {expected.start_distance}, solver {got.start_distance}")
    return lines


def report(position: Position, what: str, lines: Iterable[str]) -> str:
    """A movement disagreement: what was asked, the position as a position file, what differs."""
    return f"{what} disagree on this position:\n{describe(position)}\n" + "\n".join(lines)


def mover_units(position: Position) -> list[str]:
    return sorted(u.id for u in position.units.values() if u.faction == position.turn.faction)


def _unit_problem(position: Position, unit: str, got: UnitOptions, ai: bool) -> str | None:
    lines = options_difference(movement_ref.unit_options(position, unit, ai), got)
    return report(position, f"unit_options({unit!r}, ai={ai})", lines) if lines else None


def unit_options_problem(position: Position, ai: bool) -> str | None:
    """``unit_options`` of every unit of the turn's faction, one solve each, against the reference."""
    for unit in mover_units(position):
        got = solver.unit_options(copy.deepcopy(position), unit, ai=ai)
        if problem := _unit_problem(position, unit, got, ai):
            return problem
    return None


def rider_options_problem(position: Position, ai: bool) -> str | None:
    """``unit_options`` of each elfinkaze of the turn's faction, on its roost or off it, against the
    reference. Only theirs: the other units' moves beside a rider (displacing it, its roost carrying it)
    are not modelled yet, and keep their notice."""
    for unit in mover_units(position):
        if "Roost Roam" in position.units[unit].talents:
            got = solver.unit_options(copy.deepcopy(position), unit, ai=ai)
            if problem := _unit_problem(position, unit, got, ai):
                return problem
            # Glidebomb's defeat (exit), which the common key leaves to the boards.
            want = _exits(movement_ref.unit_options(position, unit, ai))
            if want != _exits(got):
                return report(position, f"unit_options({unit!r}, ai={ai}) exits", [f"  reference {want}", f"  solver    {_exits(got)}"])
    return None


def roost_options_problem(position: Position, ai: bool) -> str | None:
    """``unit_options`` of each minion of the turn's faction carrying an elfinkaze, against the reference
    (N152: what its routes cost its riders, FAQ-07)."""
    for unit in mover_units(position):
        if any(u.rides == unit for u in position.units.values()) and position.units[unit].kind is Kind.MINION:
            got = solver.unit_options(copy.deepcopy(position), unit, ai=ai)
            if problem := _unit_problem(position, unit, got, ai):
                return problem
    return None


def exits_problem(position: Position, ai: bool) -> str | None:
    """How each unit of the turn's faction leaves the board once its move ends (Eruption's return to
    the barracks), which the common key leaves out, against the reference."""
    for unit in mover_units(position):
        want = _exits(movement_ref.unit_options(position, unit, ai))
        got = _exits(solver.unit_options(copy.deepcopy(position), unit, ai=ai))
        if want != got:
            return report(position, f"unit_options({unit!r}, ai={ai}) exits", [f"  reference {want}", f"  solver    {got}"])
    return None


def _exits(options: UnitOptions) -> list[tuple[str, str, tuple[Strike, ...], str]]:
    return sorted((o.end, o.kind, tuple(sorted(o.struck)), o.exit) for o in options.outcomes)


def faction_options_problem(position: Position) -> str | None:
    """``faction_options`` (one solve for the whole faction) against the reference per unit."""
    ai = position.factions[position.turn.faction].controller is Controller.AI
    got = {o.unit: o for o in solver.faction_options(copy.deepcopy(position))}
    if sorted(got) != mover_units(position):
        return report(position, "faction_options units", [f"  solver lists {sorted(got)}"])
    for unit, options in got.items():
        if problem := _unit_problem(position, unit, options, ai):
            return problem
    return None


Board = frozenset[tuple[str, str | int]]


def _finals(result: StepResult) -> dict[Board, tuple[MoveOutcome, ...]]:
    """Each final board with its sequence: where units stand, and the health and fortifications of
    those it changed, the side of each unit an act flipped, the upgrades of each spire it stripped."""
    return {frozenset(o.final) | frozenset((f"{u} health", h) for u, h in o.health)
            | frozenset((f"{u} fortifications", n) for u, n in o.fortifications)
            | frozenset((f"{u} side", side) for u, side in o.sides)
            | frozenset((f"{s} upgrades", " ".join(u)) for s, u in o.upgrades)
            | frozenset((f"{x} control", f) for x, f in o.control)
            | frozenset((f"{f} source", n) for f, n in o.source)  # N215
            # N144: a chip placed by where it lies (each side names its own), one taken off by its id; a unit's items
            | frozenset(("chip", at) if at != "removed" else (f"{c} removed", "") for c, at in o.chips)
            | frozenset((f"{u} items", " ".join(sorted({x for x in ts if x in movement_ref.ITEMS}))) for u, ts in o.talents)
            # N171: the chance of the dice rolled before the moves (Anarchy), which each board settles
            | frozenset({("chance", str(math.prod(m.chance for m in o.sequence if m.chance is not None)))}): o.sequence
            for o in result.outcomes}


def _show_final(final: Board, sequence: tuple[MoveOutcome, ...]) -> str:
    board = ", ".join(f"{u}:{n}" for u, n in sorted(final, key=str))
    moves = "; ".join(f"{m.unit} {'-'.join(m.path)}" for m in sequence)
    return f"{{{board}}} by {moves or 'no move'}"


def movement_step_problem(position: Position, ai: bool, got: StepResult | None = None) -> str | None:
    """The whole movement step: the count and the set of final boards (``got``: the solver's, where
    the caller has it already)."""
    expected = movement_ref.movement_step(position, ai)
    got = got or movement_step(copy.deepcopy(position), ai=ai)
    want, have = _finals(expected), _finals(got)
    if expected.count == got.count and want.keys() == have.keys():
        return None
    lines = [f"  count: reference {expected.count}, solver {got.count}"]
    missing = sorted(want.keys() - have.keys(), key=lambda f: sorted(map(str, f)))
    extra = sorted(have.keys() - want.keys(), key=lambda f: sorted(map(str, f)))
    lines += [f"  missing from solver: {_show_final(f, want[f])}" for f in missing]
    lines += [f"  extra in solver:     {_show_final(f, have[f])}" for f in extra]
    return report(position, f"movement_step(ai={ai})", lines)


def solvable(position: Position, ai: bool = False) -> bool:
    """Every group of the step is answered by the one solve (whole_solve.outside), asked as the AI or not."""
    ai_factions = frozenset({position.turn.faction}) if ai else frozenset()
    return all(whole_solve.outside(position, units, ai_factions) is None
               for units in groups(position, present_units(position, position.turn.faction)))


def solved(position: Position) -> Position:
    """The board if the one solve answers it, else with only the talents the solve expresses, else
    with none: most generated boards hold a talent the search answers, and drawing until one does not
    costs more than the checks."""
    if solvable(position):
        return position
    units = {uid: keeping(u, tuple(filter(expressed, u.talents))) for uid, u in position.units.items()}
    kept = replace(position, units=units)
    return kept if solvable(kept) else without_talents(position)


def answered_by_solve(position: Position, ai: bool) -> bool:
    """The one solve answers the whole step, its grounding too (whole.lp wtouch/2), not only ``solvable``;
    found without solving or searching."""
    ai_factions = frozenset({position.turn.faction}) if ai else frozenset()
    return all(whole_solve.outside(position, units, ai_factions) is None
               and whole_solve.beyond(position, units, ai_factions) is None
               for units in groups(position, present_units(position, position.turn.faction)))


def whole_solve_problem(position: Position, ai: bool) -> str | None:
    """The whole step in one solve against the search (every board), the reference (every board), and its
    own boards (the summary, and each order shown replayed through the reference)."""
    return (solve_search_problem(position, ai) or movement_step_problem(position, ai)
            or summary_problem(position, ai))


def solve_search_problem(position: Position, ai: bool) -> str | None:
    """The whole step in one solve against the search it replaces: the count and every board."""
    solved = movement_step(copy.deepcopy(position), ai=ai, limit=None)
    searched = movement_step(copy.deepcopy(position), ai=ai, limit=None, engine=SEARCH)
    want, have = _finals(searched), _finals(solved)
    if solved.count == searched.count and want.keys() == have.keys():
        return None
    lines = [f"  count: search {searched.count}, solve {solved.count} ({solved.answered_by})"]
    lines += [f"  missing from the solve: {_show_final(f, want[f])}" for f in sorted(want.keys() - have.keys(), key=lambda f: sorted(map(str, f)))]
    lines += [f"  extra in the solve:     {_show_final(f, have[f])}" for f in sorted(have.keys() - want.keys(), key=lambda f: sorted(map(str, f)))]
    return report(position, f"movement_step solve against search (ai={ai})", lines)


REPLAYED = 12  # boards whose order of moves is replayed: each replay asks the reference at every move


def summary_problem(position: Position, ai: bool) -> str | None:
    """The whole step's per-unit summary against its own full list of boards (a forced end is in
    every board, a possible end in some), and every order shown replayed through the reference: each
    move one the reference offers the unit then, the minions closest first, the heroes before all
    minions or after them, and the moves making the board shown (the first REPLAYED boards)."""
    result = movement_step(copy.deepcopy(position), ai=ai, limit=None)
    lines = []
    finals = [dict(o.final) for o in result.outcomes]
    for s in result.summary:
        seen = {f.get(s.unit, position.node_of(s.unit)) for f in finals}
        if seen != set(s.ends) or s.forced != (len(seen) == 1):
            lines.append(f"  summary {s.unit}: ends {s.ends} forced {s.forced}, boards show {sorted(seen)}")
    for outcome in result.outcomes[:REPLAYED]:
        lines += [f"  {line} (board {outcome.final})" for line in _replay(position, outcome.sequence, dict(outcome.final), ai)]
    return report(position, f"movement_step summary and orders (ai={ai})", lines) if lines else None


def _replay(position: Position, sequence: tuple[MoveOutcome, ...], final: dict[str, str], ai: bool) -> list[str]:
    board = copy.deepcopy(position)
    mine = [u for u in board.units.values() if u.faction == position.turn.faction]
    begun = finished = False
    for move in sequence:
        mover = board.units[move.unit]
        options = movement_ref.unit_options(board, move.unit, ai)
        if move.key not in {o.key for o in options.outcomes}:
            return [f"{move.unit} -> {move.end}: not an outcome the reference offers then"]
        # A minion in the step's order: a landmark minion its faction controls too, an elfinkaze not (N277, FAQ-11).
        ready = [u for u in mine if movement_ref.moves_as(board, u, ai).value == "minion"
                 and not movement_ref.must_wait(board, board.units[u.id])]
        if movement_ref.moves_as(board, mover, ai).value == "minion":
            if finished:
                return [f"{move.unit} moves after a hero moved after the minions"]
            distance = {u.id: movement_ref.unit_options(board, u.id, ai).start_distance for u in ready}
            least = min((d for d in distance.values() if d is not None), default=None)
            if least is not None and distance[move.unit] != least:
                return [f"{move.unit} moves at distance {distance[move.unit]} while {least} is closer"]
            begun = True
        elif begun:
            if ready:
                return [f"hero {move.unit} moves between minions ({', '.join(u.id for u in ready)} still to move)"]
            finished = True
        board = movement_ref.apply_move(board, move)
        mine = [u for u in board.units.values() if u.faction == position.turn.faction]
    ended = {uid: movement_ref.node_now(board, uid) for uid in final}
    return [] if ended == final else [f"the moves end on {ended}"]


# ======================================================================================= combat
#
# Compared by keys: per unit its targets and outcomes, per step the set of end states (and each
# solver sequence is replayed through the reference), per Spires Fire the probability of every
# (choices, end).  The turn's faction acts as its controller says (``ai=None`` to the solver).

# Each end, with what its line's Relentless retaliations rolled and the chance of it (N87), and one
# sequence reaching it.
EndKey = tuple[EndState, tuple[Rolled, ...], Fraction | None]
Ends = dict[EndKey, tuple[AttackOutcome, ...]]


def combat_ai(position: Position) -> bool:
    return position.factions[position.turn.faction].controller is Controller.AI


def combat_report(position: Position, what: str, lines: Iterable[str]) -> str:
    """A combat disagreement: the position printed with every field combat reads."""
    return f"{what} disagree on this position:\n{describe_combat(position)}\n" + "\n".join(lines)


def _sorted(keys: Iterable[K]) -> list[K]:
    return sorted(keys, key=repr)


def _diff(label: str, want: Mapping[K, V], have: Mapping[K, V], show: Callable[[K], str] = repr) -> list[str]:
    """Missing, extra and differing entries of two keyed collections, one line each."""
    lines = [f"  {label} missing from solver: {show(k)} -> {want[k]}" for k in _sorted(want.keys() - have)]
    lines += [f"  {label} extra in solver: {show(k)} -> {have[k]}" for k in _sorted(have.keys() - want)]
    for k in _sorted(want.keys() & have.keys()):
        if want[k] != have[k]:
            lines.append(f"  {label} {show(k)}:\n    reference {want[k]}\n    solver    {have[k]}")
    return lines


def _outcomes(options: AttackOptions) -> dict[tuple[str, str, str | None], AttackOutcome]:
    return {o.key: combat_ref.comparable(o) for o in options.outcomes}


def attack_options_difference(expected: AttackOptions, got: AttackOptions) -> list[str]:
    unit = expected.unit
    lines = []
    if expected.must_attack != got.must_attack:
        lines.append(f"  {unit} must_attack: reference {expected.must_attack}, solver {got.must_attack}")
    if bool(expected.cannot) != bool(got.cannot):
        lines.append(f"  {unit} cannot: reference {expected.cannot!r}, solver {got.cannot!r}")
    want = {t.chip: (t.priority, t.category) for t in expected.targets}
    have = {t.chip: (t.priority, t.category) for t in got.targets}
    lines += _diff(f"{unit} target", want, have)
    return lines + _diff(f"{unit} outcome", _outcomes(expected), _outcomes(got))


def turn_units(position: Position) -> list[str]:
    return sorted(uid for uid, u in position.units.items() if u.faction == position.turn.faction and position.placed(uid))


def attack_options_problem(position: Position) -> str | None:
    """``attack_options`` of the whole faction (one solve) against the reference per unit."""
    ai = combat_ai(position)
    got = {o.unit: o for o in solver.attack_options(copy.deepcopy(position))}
    if sorted(got) != turn_units(position):
        return combat_report(position, "attack_options units", [f"  solver lists {sorted(got)}"])
    lines = [
        line for u in got for line in attack_options_difference(combat_ref.attack_options(position, u, ai), got[u])
    ]
    return combat_report(position, f"attack_options(ai={ai})", lines) if lines else None


def one_unit_attack_options_problem(position: Position, uid: str) -> str | None:
    """``attack_options(unit=uid)`` against the reference."""
    got = solver.attack_options(copy.deepcopy(position), unit=uid)
    if [o.unit for o in got] != [uid]:
        return combat_report(position, "attack_options(unit=)", [f"  solver lists {[o.unit for o in got]}"])
    lines = attack_options_difference(combat_ref.attack_options(position, uid, combat_ai(position)), got[0])
    return combat_report(position, f"attack_options(unit={uid!r})", lines) if lines else None


def _count(expected: int, got: int) -> list[str]:
    return [] if expected == got else [f"  count: reference {expected}, solver {got}"]


def _show_end(end: EndState) -> str:
    parts = [ch.as_json() for ch in end.chips] or "no change"
    extra = f" source {dict(end.source)}" if end.source else ""
    extra += " wave over" if end.wave_over else ""
    extra += f" campfire {list(end.campfire)} ({end.campfire_when})" if end.campfire else ""
    return f"{parts}{extra}"


def _show_sequence(sequence: tuple[AttackOutcome, ...]) -> str:
    def one(o: AttackOutcome) -> str:
        chosen = "".join(f" {lv.hero}:{lv.chosen}" for lv in o.level_ups)
        return f"{o.attacker}->{o.target}" + (f"({o.redirected_to})" if o.redirected_to else "") + chosen

    return "; ".join(one(o) for o in sequence) or "no attack"


def _only_in(label: str, ends: Ends, other: Ends) -> list[str]:
    return [f"  {label}: {_show_end(e)}{_show_rolled(rolled, chance)} by {_show_sequence(s)}"
            for (e, rolled, chance), s in ends.items() if (e, rolled, chance) not in other]


def _show_rolled(rolled: tuple[Rolled, ...], chance: Fraction | None) -> str:
    return "" if chance is None else f" rolling {[r.as_json() for r in rolled]} (probability {chance})"


def attack_step_problem(position: Position) -> str | None:
    """The whole attack step: the count, the set of end states, and each solver sequence replayed."""
    ai = combat_ai(position)
    expected = combat_ref.attack_step(position, ai)
    got = solver.attack_step(copy.deepcopy(position))
    want: Ends = {(o.end, o.rolled, o.probability): o.sequence for o in expected.outcomes}
    have: Ends = {(o.end, o.rolled, o.probability): o.sequence for o in got.outcomes}
    lines = _count(expected.count, got.count)
    lines += _only_in("missing from solver", want, have) + _only_in("extra in solver", have, want)
    for (end, rolled, _), sequence in have.items():  # each solver sequence must be legal and reach its end
        replayed, problems = combat_ref.replay(position, ai, sequence, rolled)
        if replayed is not None and replayed != end:
            problems = [f"reaches {_show_end(replayed)}"]
        if problems:
            shown = f"{_show_sequence(sequence)} for {_show_end(end)}"
            lines.append(f"  solver sequence {shown}: {'; '.join(problems)}")
    return combat_report(position, f"attack_step(ai={ai})", lines) if lines else None


def turn_edge_problem(position: Position, moment: str) -> str | None:
    """The start (``moment`` "start") or the end ("end") of the turn: the count and the set of end
    states (reference N105-N108, N122)."""
    ai = combat_ai(position)
    expected = combat_ref.turn_edge(position, ai, moment)
    ask = solver.start_of_turn if moment == "start" else solver.end_of_turn
    got = ask(copy.deepcopy(position))
    have = {o.end for o in got.outcomes}
    # A Raze spire's totals (N120) tell apart ends that leave the same board, each with its chance:
    # counted once each with them.
    razed = any(o.razed for o in got.outcomes)
    lines = _count(len(expected), len(have) if razed else got.count)
    if razed and len({(o.end, o.razed) for o in got.outcomes}) != got.count:
        lines.append(f"  {got.count} ends, not one for each board and Raze totals")
    lines += [f"  missing from solver: {_show_end(e)}" for e in _sorted(expected - have)]
    lines += [f"  extra in solver: {_show_end(e)}" for e in _sorted(have - expected)]
    return combat_report(position, f"{moment}_of_turn(ai={ai})", lines) if lines else None


def exploration_problem(position: Position) -> str | None:
    """The exploration step: the count and the set of end states (reference N150)."""
    return _ends_problem(position, "exploration", combat_ref.exploration, solver.exploration)


def end_of_wave_problem(position: Position) -> str | None:
    """The end of the wave: the count and the set of end states (reference N160)."""
    return _ends_problem(position, "end_of_wave", combat_ref.end_of_wave, solver.end_of_wave)


def _ends_problem(position: Position, name: str, reference: Callable[[Position, bool], set[EndState]],
                  solved: Callable[[Position], AttackStepResult]) -> str | None:
    """A step answered by its set of end states, with their count, against the reference's."""
    ai = combat_ai(position)
    expected = reference(position, ai)
    got = solved(copy.deepcopy(position))
    have = {o.end for o in got.outcomes}
    lines = _count(len(expected), got.count)
    lines += [f"  missing from solver: {_show_end(e)}" for e in _sorted(expected - have)]
    lines += [f"  extra in solver: {_show_end(e)}" for e in _sorted(have - expected)]
    return combat_report(position, f"{name}(ai={ai})", lines) if lines else None


def at_spires_fire(position: Position) -> Position:
    """The same position at the Spires Fire step."""
    return replace(position, turn=replace(position.turn, step="spires-fire"))


def _target(t: Target) -> tuple[str, int, str]:
    return (t.chip, t.priority or 0, t.category)


def _fire(result: FireStepResult) -> dict[tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, str], ...], EndState],
                                           Fraction]:
    # A result is told apart by the chips the spires fired at, too (N317).
    return {(r.choices, tuple(sorted({(s.spire, s.target) for s in r.shots})), r.end): r.probability
            for r in result.results}


def _spires(result: FireStepResult) -> dict[str, object]:
    return {
        s.spire: (s.faction, s.dice, s.range, s.ai, sorted(_target(t) for t in s.targets))
        for s in result.spires
    }


def spires_fire_problem(position: Position) -> str | None:
    """Spires Fire (a position at that step, ``at_spires_fire``): the count, every result's exact
    probability, and each firing spire's dice, range and targets."""
    expected = combat_ref.spires_fire(position)
    got = solver.spires_fire(copy.deepcopy(position))
    lines = _count(expected.count, got.count)

    def show(key: tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, str], ...], EndState]) -> str:
        return f"choices {list(key[0])} fired at {list(key[1])} end {_show_end(key[2])}"

    lines += _diff("result", _fire(expected), _fire(got), show)
    lines += _diff("spire", _spires(expected), _spires(got))
    return combat_report(position, "spires_fire", lines) if lines else None
