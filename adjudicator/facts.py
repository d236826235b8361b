"""Position model → ASP facts, built as clingo Symbols (never by pasting text).

Every user-supplied name becomes a clingo String, so no id can change the program. docs/facts.md and
asp/doc.lp list the predicates.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from clingo import Function, Number, String, Symbol

from adjudicator import fields
from adjudicator.model import Kind, Position, Terrain

KIND_NAMES = {Kind.MINION: "minion", Kind.HERO: "hero", Kind.LANDMARK_MINION: "landmark_minion"}
READING_NAMES = {"displacement": "displacement", "ai-hero-approach": "ai_hero_approach"}


def _fact(name: str, *args: Symbol) -> Symbol:
    return Function(name, list(args))


def _const(name: str) -> Symbol:
    return Function(name.replace("-", "_"))


@dataclass
class Query:
    """What the solver is asked: whose options, under whose control, in which mode."""

    units: tuple[str, ...]
    ai_factions: frozenset[str] = frozenset()
    stepping: bool = False
    begun: bool = False
    readings: dict[str, str] = field(default_factory=dict)


def board_facts(position: Position) -> Iterator[Symbol]:
    """Hexes, gates, adjacency and static chips."""
    for h in position.hexes.values():
        yield _fact("hex", String(h.name))
        yield _fact("terrain", String(h.name), _const(h.terrain.value))
        if h.well:
            yield _fact("well", String(h.name))
    for name, near in position.adjacency.items():
        for other in near:
            yield _fact("adj", String(name), String(other))
    for gate in position.gates.values():
        yield _fact("gate", String(gate.faction), String(gate.node))
        for h in gate.beside:
            yield _fact("adj", String(gate.node), String(h))
            yield _fact("adj", String(h), String(gate.node))
    for spire in position.spires:
        yield _fact("spire", String(spire.id), String(spire.faction), String(spire.at))
    for landmark in position.landmarks:
        yield _fact("landmark", String(landmark.id), String(landmark.at))


def unit_facts(position: Position) -> Iterator[Symbol]:
    """Every unit on the board or waiting in a gate; units that returned to their fortress are gone."""
    for gate in position.gates.values():
        for index, uid in enumerate(gate.stack):
            yield _fact("stack", String(uid), Number(index))
    for faction in position.factions:
        yield _fact("faction", String(faction))
    for unit in position.units.values():
        node = position.placed(unit.id)
        if node is None:
            continue
        u = String(unit.id)
        yield _fact("unit", u)
        yield _fact("owner", u, String(unit.faction))
        yield _fact("kind", u, _const(KIND_NAMES[unit.kind]))
        yield _fact("at", u, String(node))
        yield _fact("movement", u, Number(unit.side.movement))
        yield _fact("range", u, Number(unit.side.range))
        yield _fact("allowance", u, _const(unit.terrain.value))
        for talent in unit.talents:
            yield _fact("talent", u, String(talent))
        if unit.done.moved:
            yield _fact("moved", u)
        if unit.campfire:
            yield _fact("campfire", u)


def field_facts(position: Position, units: Iterable[str], ai_factions: Iterable[str]) -> Iterator[Symbol]:
    """Distance fields for the classes of ``units`` (and of heroes they may displace)."""
    classes: set[tuple[Terrain, str]] = set()
    for uid in units:
        unit = position.units[uid]
        classes.add((unit.terrain, unit.faction))
    for allowance, faction in sorted(classes):
        cls = Function("c", [_const(allowance.value), String(faction)])
        for node, steps in sorted(fields.mark_distances(position, allowance, faction).items()):
            yield _fact("dist", cls, String(node), Number(steps))
    for faction in sorted(ai_factions):
        for node, steps in sorted(fields.range_distances(position, faction).items()):
            yield _fact("rdist", String(faction), String(node), Number(steps))


def query_facts(query: Query) -> Iterator[Symbol]:
    for uid in query.units:
        yield _fact("query", String(uid))
    for faction in sorted(query.ai_factions):
        yield _fact("ai", String(faction))
    if query.stepping:
        yield _fact("stepping")
    if query.begun:
        yield _fact("begun")
    for name, value in sorted(query.readings.items()):
        yield _fact("reading", _const(READING_NAMES.get(name, name)), _const(value))


def position_facts(position: Position, query: Query) -> list[Symbol]:
    """All facts clingo receives for ``query`` on ``position``."""
    return [
        *board_facts(position),
        *unit_facts(position),
        *field_facts(position, query.units, query.ai_factions),
        *query_facts(query),
    ]
