"""Answer-set atoms → typed outcomes. The only module that reads clingo Symbols."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import product

from clingo import Symbol, SymbolType

from adjudicator.outcomes import Displacement, MoveOutcome, UnitOptions

WAIT_TEXT = {
    "moved": "has already moved this turn",
    "campfire": "is in campfire mode",
    "landmark": "is a landmark minion; landmark minions do not move",
}


def _name(symbol: Symbol) -> str:
    return symbol.string if symbol.type is SymbolType.String else str(symbol)


def _route(symbol: Symbol) -> tuple[str, ...]:
    """A nested route (Hk,(...,(O,start))) as its nodes in order, origin first."""
    nodes = []
    while symbol.type is SymbolType.Function and symbol.name == "" and len(symbol.arguments) == 2:
        nodes.append(_name(symbol.arguments[0]))
        symbol = symbol.arguments[1]
    return tuple(reversed(nodes))


@dataclass
class _UnitAtoms:
    offers: list[tuple[str, str, Symbol]] = field(default_factory=list)  # kind, end, route
    d0: int | None = None
    waits: list[Symbol] = field(default_factory=list)
    disp: dict[Symbol, list[tuple[str, str, str]]] = field(default_factory=lambda: defaultdict(list))
    landing: dict[tuple[str, str], list[str]] = field(default_factory=lambda: defaultdict(list))
    prev: dict[tuple[str, str], str] = field(default_factory=dict)  # (walk, hex) -> predecessor
    origin: dict[str, int] = field(default_factory=dict)
    return_via: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Answer:
    """Decoded answer of one solve: options per queried unit, and who may move next."""

    options: dict[str, UnitOptions]
    next_units: frozenset[str]


def decode(symbols: Iterable[Symbol], starts: dict[str, str], queried: Iterable[str]) -> Answer:
    atoms: dict[str, _UnitAtoms] = defaultdict(_UnitAtoms)
    next_units: set[str] = set()
    for s in symbols:
        args = s.arguments
        unit = _name(args[0]) if args else ""
        a = atoms[unit]
        if s.name == "offer":
            a.offers.append((args[1].name, _name(args[2]), args[3]))
        elif s.name == "d0":
            a.d0 = args[1].number
        elif s.name == "wait":
            a.waits.append(args[1])
        elif s.name == "rdisp":
            a.disp[args[1]].append((_name(args[2]), _name(args[3]), _name(args[4])))
        elif s.name == "landing":
            a.landing[(_name(args[1]), _name(args[2]))].append(_name(args[3]))
        elif s.name == "prev":
            atoms[_name(args[1])].prev[(args[0].name, _name(args[2]))] = _name(args[3])
        elif s.name == "origin":
            a.origin[_name(args[1])] = args[2].number
        elif s.name == "return_via":
            a.return_via[_name(args[1])] = _name(args[2])
        elif s.name == "next":
            next_units.add(unit)
    options = {uid: _unit_options(uid, atoms[uid], starts[uid]) for uid in queried}
    return Answer(options, frozenset(next_units))


def _unit_options(uid: str, a: _UnitAtoms, start: str) -> UnitOptions:
    if a.waits:
        return UnitOptions(uid, (), a.d0, _wait_text(a.waits[0]))
    grouped: dict[tuple[str, tuple[Displacement, ...]], list[tuple[str, ...]]] = defaultdict(list)
    kinds: dict[tuple[str, tuple[Displacement, ...]], str] = {}
    for kind, end, route in a.offers:
        for path, displaced in _paths(uid, a, start, kind, end, route):
            grouped[(end, displaced)].append(path)
            kinds[(end, displaced)] = kind
    outcomes = tuple(
        MoveOutcome(uid, end, kinds[(end, displaced)], displaced, min(paths), len(set(paths)))
        for (end, displaced), paths in sorted(grouped.items())
    )
    return UnitOptions(uid, outcomes, a.d0)


def _wait_text(reason: Symbol) -> str:
    if reason.name == "below":
        return f"waits in the gate below {_name(reason.arguments[0])}, which has not left it"
    return WAIT_TEXT.get(reason.name, reason.name)


def _paths(
    uid: str, a: _UnitAtoms, start: str, kind: str, end: str, route: Symbol
) -> Iterable[tuple[tuple[str, ...], tuple[Displacement, ...]]]:
    """Each route an offer stands for, with each way its displaced heroes may land."""
    if route.type is SymbolType.Function and route.name == "walk":
        walk = route.arguments[0].name
        if kind == "return":
            yield _chain(a, walk, a.return_via[end], start) + (end,), ()
        else:
            yield _chain(a, walk, end, start), ()
        return
    nodes = _route(route)
    prefix = _chain(a, "escape", nodes[0], start)[:-1] if a.origin.get(nodes[0], 0) else ()
    pushes = a.disp.get(route, [])
    choices = [[Displacement(x, source, to) for to in a.landing[(x, left)]] for x, source, left in pushes]
    for combo in product(*choices):
        yield prefix + nodes, tuple(sorted(combo))


def _chain(a: _UnitAtoms, walk: str, end: str, start: str) -> tuple[str, ...]:
    """Follow the witness route of ``walk`` back from ``end`` to the start."""
    path = [end]
    while path[-1] != start:
        path.append(a.prev[(walk, path[-1])])
    return tuple(reversed(path))

