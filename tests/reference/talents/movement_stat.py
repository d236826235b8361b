"""The movement stat and the terrain allowance (docs/movement.md, The movement stat): Speed, Gust,
Snare, Sure-Footed, Waterwalker. The notes are those at the top of tests/reference/movement.py."""

from __future__ import annotations

import math

from adjudicator.position.model import Kind, Position, Spire, Terrain, Unit
from tests.reference import movement as core  # a module: the core imports this package too
from tests.reference.sides import opposing
from tests.reference.talents import talent


def _on_plains(position: Position, node: str) -> bool:
    """A grasslands hex, as Gust names it: plains, the only grassy terrain of the five."""
    return node in position.hexes and position.hexes[node].terrain is Terrain.PLAINS


@talent("Speed", "mv_add")
def speed(position: Position, unit: Unit, start: str, ai: bool) -> int:
    return 1  # "This unit's movement stat is increased by 1."


@talent("Gust", "mv_add")
def gust(position: Position, unit: Unit, start: str, ai: bool) -> int:
    return int(ai and _on_plains(position, start))  # AI: "If this unit starts its movement on a grassland hex"


@talent("Gust", "mv_may")
def gust_may(position: Position, unit: Unit, start: str, ai: bool) -> bool:
    """A player's (the shada sheet, Wind): "If this unit starts its movement on a grassland hex, you may
    increase its movement stat by 1 for this turn"."""
    return not ai and _on_plains(position, start)


@talent("Gust", "ai_end_pref")
def gust_end() -> Terrain:
    return Terrain.PLAINS  # AI: "If this unit can end its movement on a grasslands hex ..., it will do so"


@talent("Waterwalker", "ai_end_pref")
def waterwalker_end() -> Terrain:
    return Terrain.WATER


@talent("Snare", "smv_set")
def snare(position: Position, spire: Spire, unit: Unit, start: str) -> int | None:
    """"The movement stat of all opposing minions beginning their movement within this spire's range is
    reduced to 1", range counted over every node as for attacks, after any increase."""
    if not opposing(position, spire.faction, unit.faction) or unit.kind is not Kind.MINION:
        return None
    steps = core._bfs(position, [spire.at], lambda _n: True)
    return 1 if steps.get(start, math.inf) <= 1 + spire.upgrades.count("range") else None


@talent("Sure-Footed", "allow_gain")
def sure_footed() -> Terrain:
    return Terrain.MOUNTAINS  # "This unit gains [M]": the mountains icon, which lowers no harder allowance
