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


_NAMES: dict[Symbol, str] = {}  # hex and unit names recur thousands of times per answer


def _name(symbol: Symbol) -> str:
    name = _NAMES.get(symbol)
    if name is None:
        name = _NAMES[symbol] = symbol.string if symbol.type is SymbolType.String else str(symbol)
        if len(_NAMES) > 100_000:
            _NAMES.clear()
    return name


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
    landing: dict[tuple[Symbol, str, str], list[str]] = field(default_factory=lambda: defaultdict(list))
    pred: dict[str, dict[str, list[str]]] = field(default_factory=lambda: defaultdict(lambda: defaultdict(list)))
    origin: dict[str, int] = field(default_factory=dict)
    via: dict[str, list[tuple[int, str]]] = field(default_factory=lambda: defaultdict(list))


@dataclass(frozen=True)
class Answer:
    """Decoded answer of one solve: options per queried unit, and who may move next."""

    options: dict[str, UnitOptions]
    next_units: frozenset[str]


def decode(symbols: Iterable[Symbol], starts: dict[str, str], queried: Iterable[str]) -> Answer:
    atoms: dict[str, _UnitAtoms] = defaultdict(_UnitAtoms)
    next_units: set[str] = set()
    leading: set[str] = set()
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
            a.landing[(args[1], _name(args[2]), _name(args[3]))].append(_name(args[4]))
        elif s.name == "pred":
            atoms[_name(args[1])].pred[args[0].name][_name(args[2])].append(_name(args[3]))
        elif s.name == "origin":
            a.origin[_name(args[1])] = args[2].number
        elif s.name == "via":
            a.via[_name(args[1])].append((args[3].number, _name(args[2])))
        elif s.name == "next":
            next_units.add(unit)
        elif s.name == "leading":
            leading.add(unit)
    options = {uid: _unit_options(uid, atoms[uid], starts[uid], uid in leading) for uid in queried}
    return Answer(options, frozenset(next_units))


def _unit_options(uid: str, a: _UnitAtoms, start: str, leading: bool) -> UnitOptions:
    if a.waits:
        return UnitOptions(uid, (), a.d0, _wait_text(a.waits[0]))
    # outcome → {witness path: how many routes it stands for}
    grouped: dict[tuple[str, tuple[Displacement, ...]], dict[tuple[str, ...], int]] = defaultdict(dict)
    kinds: dict[tuple[str, tuple[Displacement, ...]], str] = {}
    for kind, end, route in a.offers:
        for path, displaced, routes in _paths(a, start, kind, end, route):
            grouped[(end, displaced)][path] = routes
            kinds[(end, displaced)] = kind
    outcomes = tuple(
        MoveOutcome(uid, end, kinds[key], displaced, min(paths), sum(paths.values()))
        for key, paths in sorted(grouped.items())
        for end, displaced in [key]
    )
    return UnitOptions(uid, outcomes, a.d0, leading=leading)


def _wait_text(reason: Symbol) -> str:
    if reason.name == "below":
        return f"waits in the gate below {_name(reason.arguments[0])}, which has not left it"
    return WAIT_TEXT.get(reason.name, reason.name)


def _paths(
    a: _UnitAtoms, start: str, kind: str, end: str, route: Symbol
) -> Iterable[tuple[tuple[str, ...], tuple[Displacement, ...], int]]:
    """Each route an offer stands for, with each way its displaced heroes may land, and how many
    routes of the required length it stands for (moves of any length count once)."""
    if route.type is SymbolType.Function and route.name == "walk":
        walk = route.arguments[0].name
        if kind == "return":
            steps = min(steps for steps, _ in a.via[end])
            yield min(_first(a, walk, p, start) for n, p in a.via[end] if n == steps) + (end,), (), 1
        else:
            routes = _count(a, walk, end, start) if kind == "escape" else 1
            yield _first(a, walk, end, start), (), routes
        return
    nodes = _route(route)
    escaped = a.origin.get(nodes[0], 0) > 0
    prefix = _first(a, "escape", nodes[0], start)[:-1] if escaped else ()
    routes = _count(a, "escape", nodes[0], start) if escaped else 1
    pushes = a.disp.get(route, [])
    choices = [[Displacement(x, source, to) for to in a.landing[(route, x, left)]] for x, source, left in pushes]
    for combo in product(*choices):
        ends = [d.to for d in combo if not d.to.startswith("gate:")]
        if len(ends) == len(set(ends)):  # two displaced heroes never share a hex
            yield prefix + nodes, tuple(sorted(combo)), routes


def _count(a: _UnitAtoms, walk: str, end: str, start: str) -> int:
    memo: dict[str, int] = {start: 1}

    def count(node: str) -> int:
        if node not in memo:
            memo[node] = sum(count(q) for q in a.pred[walk][node])
        return memo[node]

    return count(end)


def _first(a: _UnitAtoms, walk: str, end: str, start: str) -> tuple[str, ...]:
    """The first shortest route to ``end`` in hex-name order, from the shortest-route graph."""
    memo: dict[str, tuple[str, ...]] = {start: (start,)}

    def best(node: str) -> tuple[str, ...]:
        if node not in memo:
            memo[node] = min(best(q) for q in a.pred[walk][node]) + (node,)
        return memo[node]

    return best(end)
