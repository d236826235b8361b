"""What a Harbinger chapter changes in the position itself, once it is read: talents the chapter grants,
and who rolls for the floating rocks (adjudicator/data/scenarios.yaml lists each rule encoded here)."""

from __future__ import annotations

import re
from dataclasses import replace

from adjudicator.position.model import Controller, Gate, Kind, Mark, Position, Spire, Unit
from adjudicator.position.scenarios import Scenario

FLYING = "Flying"
HAIL = "Hail"  # ignores Flying (asp/talents/hail.lp): a flier within its range rolls after all
NO_ROCK_ROLLS = (1, 2)  # chapter 1's event die: "Horizon's Wrath units do not need to roll"
WIND_SHEAR = "wind shear"  # a spire's chip name, as chip_name gives it
BYDRA_GRAAM, NUCLEUS = "bydra graam", "nucleus"  # units' chip names, as chip_name gives them (chapter 5)
ROTTEN_WORMS = "rotten worms"  # chapter 4: "Rotten worms are inactive": other chips, no units
# Chapter 4: "place 3 health chips on the Source vein"; an other chip so named, with its health.
SOURCE_VEIN, VEIN_HEALTH = "source vein", 3
# "take all 7 remaining base game earthscape tiles ... place them facedown in a stack on the Source vein"
VEIN_EARTHSCAPES = 7
# Chapter 6: "When waygates are placed, they are placed with 4 health"; other chips so named.
WAYGATE, WAYGATE_HEALTH = "waygate", 4
UPRISING, HORIZONS_WRATH = "uprising", "horizons-wrath"
# Chapter 6: "At the end of each wave, each earthscape that does not have a waygate, spire, or revealed
# landmark on it is removed": the one chapter whose rules read the board's earthscapes.
EARTHSCAPES_CHAPTER = 6
# Chapter 2: "Each time the heirs deploy a unit, they may add one of the health chips in the Horizon's Wrath
# fortress to it": the one chapter whose gate holds health chips (the heirs', the solo player's).
HEALTH_CHIPS_CHAPTER = 2
# Chapter 8: "When triggering the talents Evoke or Summon, you may treat minions in the current market options
# as if they are available in your barracks": the one chapter whose rules read a faction's market.
MARKET_CHAPTER = 8


def earthscape_id(number: int) -> str:
    """How an end state names the position's earthscape ``number`` (from 0, as the file lists them)."""
    return f"earthscape:{number}"
NARORA, GRAFT = "narora", "graft"


def chip_name(name: str) -> str:
    """A chip's printed name as a chapter's rules know it: case, runs of spaces and a leading "The" aside
    ("The Nucleus" is the chip the rulebook calls Nucleus). The one comparison for a chip a chapter
    names: the facts the encodings read (uchip/2, schip/2, lchip/3), the loader's checks and the notices
    (adjudicator/questions/coverage.py) all take it, so no chip gets a rule's notice without its rule."""
    return re.sub(r"\s+", " ", name.strip()).casefold().removeprefix("the ")


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
    if not any(s.faction == "shada" and chip_name(s.chip) == WIND_SHEAR for s in spires.values()):
        return units
    return {uid: _gains_flying(u) if u.faction == "shada" and u.kind is Kind.MINION else u for uid, u in units.items()}


def rock_rollers(position: Position) -> tuple[str, ...]:
    """Chapter 1: the units of the faction whose turn it is that may have to roll a spire attack die
    for a floating rock as they move ("Units with the talent Flying do not need to roll dice in this
    way"; event 1–2: "Horizon's Wrath units do not need to roll"). None on a board without rocks.
    Cautious: a flier rolls wherever a unit or spire with Hail, which ignores Flying, is in play; an
    event not given may be 1–2 or not, so it exempts no one (coverage.rock_event_notices)."""
    scenario = position.scenario
    if scenario is None or scenario.chapter != 1 or not any(h.rock for h in position.hexes.values()):
        return ()
    faction = position.turn.faction
    if faction == HORIZONS_WRATH and scenario.event is not None and set(scenario.event) <= set(NO_ROCK_ROLLS):
        return ()
    hail = any(HAIL in u.talents for u in position.units.values()) or any(HAIL in s.talents for s in position.spires)
    ai = position.factions[faction].controller is Controller.AI if faction in position.factions else False

    def flies(u: Unit) -> bool:  # "Ungrouped only" for a player's unit (asp/talents/flying.lp)
        return FLYING in u.talents and (ai or not u.group) and not hail

    return tuple(
        uid for uid, u in position.units.items()
        if u.faction == faction and u.kind is not Kind.LANDMARK_MINION and not flies(u)
    )


def bydra_mark(unit: Unit, units: dict[str, Unit], gates: dict[str, Gate]) -> Mark | None:
    """Chapter 5's mark for ``unit`` if it is Bydra Graam: "when she does not have a minion placed under
    her: Hex adjacent to the naroran fortress gate"; "when she has a minion placed under her: Hex
    adjacent to Nucleus". None where it is not her, or the chip her mark is beside is not in play."""
    if chip_name(unit.chip) != BYDRA_GRAAM or unit.faction != NARORA:
        return None
    if not unit.carrying:
        return Mark(beside=Mark(gate=NARORA)) if NARORA in gates else None
    nucleus = [u.id for u in units.values() if chip_name(u.chip) == NUCLEUS and u.faction == GRAFT and u.at]
    return Mark(beside=Mark(unit=nucleus[0])) if len(nucleus) == 1 else None
