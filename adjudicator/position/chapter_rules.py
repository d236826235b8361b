"""What a Harbinger chapter changes in the position itself, once it is read: talents the chapter grants
(adjudicator/data/scenarios.yaml lists each rule encoded here)."""

from __future__ import annotations

from dataclasses import replace

from adjudicator.position.model import Kind, Spire, Unit
from adjudicator.position.scenarios import Scenario

FLYING = "Flying"
WIND_SHEAR = "wind shear"  # a spire's chip name, compared without case


def _flying(talents: tuple[str, ...]) -> tuple[str, ...]:
    return talents if FLYING in talents else (*talents, FLYING)


def _gains_flying(unit: Unit) -> Unit:
    group = tuple(replace(g, talents=_flying(g.talents)) for g in unit.group)
    return replace(unit, talents=_flying(unit.talents), group=group)


def scenario_talents(scenario: Scenario, units: dict[str, Unit], spires: dict[str, Spire]) -> dict[str, Unit]:
    """Chapter 1: "While the wind shear spire is in play, all shada minions gain the talent Flying."
    A spire in the position is in play; the grouped minions beneath a shada minion are shada minions too."""
    if scenario.chapter != 1:
        return units
    if not any(s.faction == "shada" and s.chip.casefold() == WIND_SHEAR for s in spires.values()):
        return units
    return {uid: _gains_flying(u) if u.faction == "shada" and u.kind is Kind.MINION else u for uid, u in units.items()}


