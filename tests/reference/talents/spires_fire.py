"""How a spire fires (docs/combat.md, Spires Fire): Multi-Target, Silencer, Repeater, a spire's Splash,
Directional Attack.
The notes are those at the top of tests/reference/combat.py."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.reference.talents import talent

if TYPE_CHECKING:
    from tests.reference.combat import Rules, Tower


@talent("Multi-Target", "volley", "N43")
def multi_target() -> bool:
    return True  # one roll for every target, no choice


@talent("Silencer", "faces", "N44")
def silencer() -> bool:
    return True  # "If this spire rolls a miss or a 2 on any of its attack dice"


@talent("Repeater", "again", "N45")
def repeater() -> bool:
    return True


@talent("Splash", "splashes", "N75", on=("spire",))
def spire_splash() -> bool:
    return True  # the units beside the target of a spire with it


@talent("Directional Attack", "aims", "N56")
def directional_attack(rules: Rules, s: Tower, node: str) -> bool:
    """A player's spire with it fires only at units on the straight line from it through its arrow's hex.
    Independently of the map's adjacency: in doubled coordinates (x = 2 × column, + 1 on an even row, drawn
    shifted), the hex is the spire's plus k ≥ 1 times the step."""
    if rules.ai(s.faction) or not s.arrow:
        return True
    hexes = rules.position.hexes

    def doubled(name: str) -> tuple[int, int]:
        h = hexes[name]
        return 2 * h.column + (h.row % 2 == 0), h.row

    (x0, y0), (x1, y1), (x, y) = doubled(s.at), doubled(s.arrow), doubled(node)
    dx, dy = x1 - x0, y1 - y0
    k = (x - x0) // dx if dx else (y - y0) // dy
    return k >= 1 and (x0 + k * dx, y0 + k * dy) == (x, y)
