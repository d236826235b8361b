"""A claimed move or attack (adjudicator/answers/notation.py) → the ASP facts explain_*.lp judge it by."""

from __future__ import annotations

from collections.abc import Iterator

from clingo import Function, Number, String, Symbol

from adjudicator.facts.board import fact
from adjudicator.position.model import Position
from adjudicator.position.claims import Claim, MoveClaim

# No move is this long: a position file's movement stat is at most 8 (position/load.py). A longer
# route is judged on its length alone (clong/1), its later steps left out: the solver's work
# grows with the square of a route that goes back and forth.
ROUTE_CAP = 32


def _chip(position: Position, name: str) -> Symbol:
    """A chip as the combat encodings name it: u(Unit), g(Faction), w(Chip) for another chip with
    health (a Harbinger chapter 6 waygate), or s(Spire)."""
    if name in position.units:
        return Function("u", [String(name)])
    if name.startswith("gate:"):
        return Function("g", [String(name[5:])])
    if any(c.id == name and c.health is not None for c in position.chips):
        return Function("w", [String(name)])
    return Function("s", [String(name)])


def claim_facts(claim: Claim, position: Position, explain_all: bool) -> Iterator[Symbol]:
    """The claim, whose turn and which step it is, and whether to judge every alternative too."""
    yield fact("turn_of", String(position.turn.faction))
    yield fact("step_now", Function(position.turn.step.replace("-", "_")))
    if isinstance(claim, MoveClaim):
        yield fact("claim", String(claim.unit))
        yield fact("cend", String(claim.end))
        # A teleport is one step of the route, onto the hex landed on; the chip stepped onto is named
        # with it (cjump/2), as the routes keep it (asp/movement/minion.lp).
        entered = {i - 1 for i in claim.landed}
        path = tuple(node for i, node in enumerate(claim.path or ()) if i not in entered)
        chips = [(claim.path or ())[i - 1] for i in claim.landed]
        for index, node in enumerate(path[:ROUTE_CAP + 1]):
            yield fact("cstep", Number(index), String(node))
        for index, chip in zip((i - n for n, i in enumerate(claim.landed, start=1)), chips):
            if index <= ROUTE_CAP:
                yield fact("cjump", Number(index), String(chip))
        if len(path) > ROUTE_CAP + 1:
            yield fact("clong", Number(len(path) - 1))
        for pushed, to in claim.displaced or ():
            yield fact("cpush", String(pushed), String(to))
    else:
        yield fact("aclaim", String(claim.unit))
        if claim.target is not None:
            yield fact("ctarget", _chip(position, claim.target))
        if claim.redirected_to is not None:
            yield fact("credirect", String(claim.redirected_to))
        if claim.level_up is not None:
            yield fact("clevel", Function(claim.level_up))
    if explain_all:
        yield fact("explain_all")
