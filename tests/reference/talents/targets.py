"""Who may attack, and whom (docs/combat.md, Valid targets; FAQ-27, FAQ-28). The notes are those at the
top of tests/reference/combat.py."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.position.model import Kind, Terrain
from tests.reference import combat as core  # a module: the core imports this package too
from tests.reference.sides import opposing
from tests.reference.talents import talent

if TYPE_CHECKING:
    from tests.reference.combat import Board, Fighter, Rules, Tower


@talent("Roost Roam", "rests", "N83")
def roost_roam_rests(rules: Rules, attacker: Fighter) -> str | None:
    return "an AI elfinkaze does not attack (Roost Roam)" if rules.ai(attacker.faction) else None


@talent("Roost Roam", "at_will", "N83")
def roost_roam_at_will(rules: Rules, attacker: Fighter) -> bool:
    return True  # a player's minion attacks as a hero, at will


@talent("Slap", "strikes", "N14")
def slap() -> bool:
    return True  # "can attack and retaliate ... with an attack of 0"


@talent("Flying", "flies", "N12")
def flying() -> bool:
    return True


@talent("Flying", "anti_air", "N12", on=("spire",))
def flying_spire(chip: Tower) -> bool:
    return True  # a spire with Flying fires at Flying units; a unit's Flying counts as it flies


@talent("Air Defense", "anti_air")
def air_defense(chip: Fighter | Tower) -> bool:
    return True  # "can attack units with Flying"


@talent("Air Defense", "prefers_flying")
def air_defense_prefers() -> bool:
    return True  # AI list: "Spires will prioritize attacking Flying units ... of the same priority level"


@talent("Innovative", "loose", "N74")
def innovative() -> bool:
    return True


@talent("Lift", "grants_flying", "N69")
def lift(rules: Rules, spire: Tower, unit: Fighter) -> bool:
    """A shada minion within range of a Lift spire in play on a plains hex."""
    hexes = rules.position.hexes
    return (unit.faction == "shada" and unit.kind is Kind.MINION and not spire.defeated and spire.at in hexes
            and hexes[spire.at].terrain is Terrain.PLAINS and rules.within(spire.at, unit.node, spire.range))


@talent("Hail", "unflown", "N32", on=("unit",))
def hail(rules: Rules, board: Board, hailer: Fighter, unit: Fighter) -> bool:
    """"While an opposing faction unit with the talent Flying is in this unit's range, the Flying talent
    is ignored." """
    return (bool(hailer.faction) and bool(unit.faction) and opposing(rules.position, hailer.faction, unit.faction)
            and rules.within(hailer.node, unit.node, core._range(rules, board, hailer)))


def _turbine(rules: Rules, spire: Tower, unit: Fighter) -> bool:
    return not spire.defeated and rules.within(spire.at, unit.node, spire.range)


@talent("Wind Turbine", "unflown", "N69", on=("spire",))
def wind_turbine_flying(rules: Rules, board: Board, spire: Tower, unit: Fighter) -> bool:
    return _turbine(rules, spire, unit)


@talent("Wind Turbine", "unranged", "N69")
def wind_turbine_range(rules: Rules, spire: Tower, unit: Fighter) -> bool:
    return _turbine(rules, spire, unit)


@talent("Camouflage", "shield", "N24")
def camouflage(rules: Rules, board: Board, by: Fighter | Tower, at: str) -> bool:
    """Only an adjacent unit or spire may attack the chip."""
    return at not in rules.position.neighbours(by.at if isinstance(by, core.Tower) else by.node)


@talent("Spyglass", "shield", on=("unit",))
def spyglass(rules: Rules, board: Board, by: Fighter | Tower, at: str) -> bool:
    return isinstance(by, core.Fighter) and core._flies(rules, board, by)  # "Flying units cannot attack this unit."


@talent("Waterwalker", "sshield", "N31")
def waterwalker(rules: Rules, spire: Tower, unit: Fighter) -> bool:
    hexes = rules.position.hexes
    return unit.node in hexes and hexes[unit.node].terrain is Terrain.WATER


@talent("Challenge", "challenges", "N30")
def challenge(rules: Rules, attacker: Fighter, unit: Fighter) -> bool:
    return attacker.kind is Kind.HERO and rules.within(attacker.node, unit.node, 3)


@talent("Engage", "binds")
def engage(unit: Fighter) -> bool:
    return unit.kind is Kind.LANDMARK_MINION  # a landmark minion's talent (FAQ-27)


@talent("Pistoleer", "afar", "N73")
def pistoleer() -> int:
    return 2
