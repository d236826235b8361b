"""The questions the tool answers, each one or more solver calls: facts → clingo → decoded outcomes."""

from __future__ import annotations

from dataclasses import replace

from adjudicator.decode import Answer, decode
from adjudicator.facts import Query, board_facts, field_facts, position_facts, query_facts, unit_facts
from adjudicator.model import Controller, Done, Kind, Position
from adjudicator.outcomes import MoveOutcome, StepOutcome, StepResult, UnitOptions
from adjudicator.readings import resolve
from adjudicator.solve import render, solve


def is_ai(position: Position, faction: str) -> bool:
    return position.factions[faction].controller is Controller.AI


def _ai_factions(position: Position, faction: str, ai: bool | None) -> frozenset[str]:
    wanted = is_ai(position, faction) if ai is None else ai
    return frozenset({faction}) if wanted else frozenset()


def present_units(position: Position, faction: str) -> tuple[str, ...]:
    """The faction's units on the board or waiting in its gate, in id order."""
    return tuple(
        sorted(uid for uid, u in position.units.items() if u.faction == faction and position.placed(uid))
    )


def ask(position: Position, query: Query, fixed: str | None = None) -> Answer:
    """Solve ``query``; ``fixed``, when given, is the rendered board and field facts of this position."""
    starts = {uid: position.node_of(uid) for uid in query.units}
    if fixed is None:
        symbols = solve(position_facts(position, query))
    else:
        symbols = solve([*unit_facts(position), *query_facts(query)], fixed=fixed)
    return decode(symbols, starts, query.units)


def moves_query(position: Position, unit_id: str | None = None, ai: bool | None = None) -> Query:
    """The question `moves` asks: one unit, or every unit of the faction whose turn it is."""
    faction = position.units[unit_id].faction if unit_id else position.turn.faction
    units = (unit_id,) if unit_id else present_units(position, faction)
    return Query(units, _ai_factions(position, faction, ai), readings=resolve(position.readings))


def unit_options(position: Position, unit_id: str, ai: bool | None = None) -> UnitOptions:
    """Every legal outcome of ``unit_id``'s move now; with the AI in control, the mandated ones."""
    return ask(position, moves_query(position, unit_id, ai)).options[unit_id]


def faction_options(position: Position, ai: bool | None = None) -> list[UnitOptions]:
    """``unit_options`` for each unit of the faction whose turn it is, from one solve."""
    query = moves_query(position, None, ai)
    units = query.units
    answer = ask(position, query)
    return [answer.options[uid] for uid in units]


def apply_move(position: Position, move: MoveOutcome) -> Position:
    """The board after ``move``: the unit on its end node, displaced heroes where they landed."""
    units = dict(position.units)
    gates = dict(position.gates)

    def place(uid: str, node: str, *, moved: bool) -> None:
        unit = units[uid]
        done = Done(True, unit.done.attacked, unit.done.retaliated) if moved else unit.done
        on_board = node if node in position.hexes else None
        units[uid] = replace(unit, at=on_board, done=done)
        gate = gates.get(unit.faction)
        if gate is not None and uid in gate.stack and node != gate.node:
            gates[unit.faction] = replace(gate, stack=tuple(u for u in gate.stack if u != uid))

    for push in move.displaced:
        place(push.unit, push.to, moved=False)
    place(move.unit, move.end, moved=True)
    return replace(position, units=units, gates=gates)


def movement_step(position: Position, ai: bool | None = None, limit: int | None = None) -> StepResult:
    """Every distinct final board of the current faction's movement step, with one sequence each.

    The solver says which units may move next (asp/step.lp) and what each may do; this walks the
    resulting tree, merging boards reached by different orders.
    """
    faction = position.turn.faction
    ai_factions = _ai_factions(position, faction, ai)
    units = present_units(position, faction)
    readings = resolve(position.readings)
    # Board, spires, landmarks and distance fields do not change during the step.
    fixed = render([*board_facts(position), *field_facts(position, units, ai_factions)])
    finals: dict[tuple[tuple[str, str], ...], tuple[MoveOutcome, ...]] = {}
    seen: set[tuple[object, ...]] = set()

    def board(pos: Position) -> tuple[tuple[str, str], ...]:
        return tuple((uid, pos.node_of(uid)) for uid in units)

    def explore(pos: Position, begun: bool, sequence: tuple[MoveOutcome, ...]) -> None:
        moved = frozenset(uid for uid in units if pos.units[uid].done.moved)
        key = (board(pos), moved, begun)
        if key in seen:
            return
        seen.add(key)
        answer = ask(pos, Query(units, ai_factions, stepping=True, begun=begun, readings=readings), fixed)
        if not answer.next_units:
            finals.setdefault(board(pos), sequence)
            return
        for uid in sorted(answer.next_units):
            minion = pos.units[uid].kind is Kind.MINION
            for move in answer.options[uid].outcomes:
                explore(apply_move(pos, move), begun or minion, sequence + (move,))

    explore(position, False, ())
    ordered = sorted(finals.items())
    shown = ordered if limit is None else ordered[:limit]
    return StepResult(
        faction, bool(ai_factions), len(ordered), tuple(StepOutcome(f, s) for f, s in shown)
    )
