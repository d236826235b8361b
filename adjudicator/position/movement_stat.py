"""What the Python side must know of the talents that change a unit's movement stat or terrain
allowance (docs/movement.md, The movement stat). The encodings (asp/talents/) decide the values;
these bounds only make sure that the loader refuses a stat the routes cannot follow and that a
question is handed enough of the board and every distance field it may need."""

from __future__ import annotations

from adjudicator.position.model import Terrain, Unit

# The most each talent adds to the movement stat (mv_add/3), and the stats a talent sets (mv_set/3)
# that may lie above the chip's own.
ADDS = {"Speed": 1, "Gust": 1}
SETS = {"Cumbersome": 2}


def movement_bound(unit: Unit) -> int:
    """The largest movement stat the unit can have this turn."""
    added = unit.side.movement + sum(ADDS.get(t, 0) for t in unit.talents)
    return max([added, *(SETS[t] for t in unit.talents if t in SETS)])


def allowances(unit: Unit) -> frozenset[Terrain]:
    """Every terrain allowance the unit may have (allow_set/3): its chip's, and each one a talent sets.
    Sure-Footed: "This unit gains [M]", the mountains icon (docs/readings.md)."""
    found = {unit.terrain}
    if "Sure-Footed" in unit.talents:
        found.add(max(unit.terrain, Terrain.MOUNTAINS, key=lambda t: t.level))
    if "Cumbersome" in unit.talents:
        found.add(Terrain.PATH)
    return frozenset(found)
