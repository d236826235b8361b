"""What else an attack sets off, a hero's room for upgrades, and the wave's end by minion type. The notes
are those at the top of tests/reference/combat.py."""

from __future__ import annotations

from tests.reference.talents import talent


@talent("Spike", "spikes", "N34")
def spike() -> int:
    return 1  # the attacked unit's or spire's, as the attack comes, even if the attack defeats it


@talent("Train", "capacity", "N48")
def train() -> int:
    return 1


@talent("Neglected", "lone_type", "N176")
def neglected() -> str:
    return "forsaken"  # "If forsaken are the only minion type in play, the wave ends"


@talent("Precious", "lone_type", "N176")
def precious() -> str:
    return "elfinkaze"  # "If elfinkaze are the only minion type in play, the wave ends"
