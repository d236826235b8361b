"""What the Python side must know of the talents that change a unit's movement stat or terrain
allowance (docs/movement.md, The movement stat). The encodings (asp/talents/) decide the values;
these bounds, read from each talent's catalogue entry (``movement``), only make sure that the loader
refuses a stat the routes cannot follow and that a question is handed enough of the board and every
distance field it may need."""

from __future__ import annotations

from adjudicator.position.model import Terrain, Unit
from adjudicator.position.talents import Movement, catalogue


def _movements(unit: Unit) -> list[Movement]:
    return [t.movement for t in catalogue().known(unit.talents)]


def movement_bound(unit: Unit) -> int:
    """The largest movement stat the unit can have this turn."""
    effects = _movements(unit)
    added = unit.side.movement + sum(m.adds for m in effects)
    return max([added, *(m.sets for m in effects if m.sets is not None)])


def allowances(unit: Unit) -> frozenset[Terrain]:
    """Every terrain allowance the unit may have (allow_set/3): its chip's, and each one a talent sets
    (Sure-Footed gains mountains, docs/readings.md; Cumbersome only path)."""
    found = {unit.terrain}
    for effect in _movements(unit):
        gains = effect.promoted_gains if unit.promoted and effect.promoted_gains is not None else effect.gains
        if gains is not None:
            found.add(max(unit.terrain, Terrain(gains), key=lambda t: t.level))
        if effect.only is not None:
            found.add(Terrain(effect.only))
    return frozenset(found)
