"""How a spire fires (docs/combat.md, Spires Fire): Multi-Target, Silencer, Repeater, a spire's Splash.
The notes are those at the top of tests/reference/combat.py."""

from __future__ import annotations

from tests.reference.talents import talent


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
