"""Which factions oppose each other, independently of asp/core/sides.lp."""

from __future__ import annotations

from adjudicator.position.model import Position


def opposing(position: Position, a: str, b: str) -> bool:
    """Two factions oppose each other, save the allies of Harbinger chapter 7: "All non-Graft
    factions are allied with each other." A chip of no faction (a landmark minion) opposes all."""
    if a == b:
        return False
    if not a or not b:
        return True
    scenario = position.scenario
    return scenario is None or scenario.chapter != 7 or "graft" in (a, b)
