"""What a Harbinger chapter changes in the position itself, once it is read: talents the chapter grants,
and who rolls for the floating rocks (adjudicator/data/scenarios.yaml lists each rule encoded here)."""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, replace

from adjudicator.facts import fields
from adjudicator.position.model import Controller, Gate, Kind, Mark, Position, Spire, Terrain, Unit, gate_node
from adjudicator.position.movement_stat import allowances
from adjudicator.position.scenarios import ClosestMark, Scenario
from adjudicator.position.talents import catalogue

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
# Chapter 2: "they fire 1 cannonball from each of their 4 cannons" as the fortress docks at each wave's end.
CANNONS = 4
# Chapter 3: "After defeating a Graft spire, you may immediately spend 3 Source to purchase the top earthscape from
# the earthscape stack ... and you may choose to place it immediately": the one chapter whose keel buy one so.
PURCHASE_CHAPTER, EARTHSCAPE_PRICE = 3, 3
# Chapter 8: "When triggering the talents Evoke or Summon, you may treat minions in the current market options
# as if they are available in your barracks": the one chapter whose rules read a faction's market.
MARKET_CHAPTER = 8


def earthscape_id(number: int) -> str:
    """How an end state names the position's earthscape ``number`` (from 0, as the file lists them)."""
    return f"earthscape:{number}"
NARORA, GRAFT = "narora", "graft"


def round_worms(position: Position) -> bool:
    """Chapter 4's rotten worms may infest Bydra Graam as this turn ends (asp/scenarios/chapter_4.lp): the turn
    is the last of its round, and a rotten worms whose Infest # the position gives is on the board."""
    scenario = position.scenario
    return (scenario is not None and scenario.chapter == 4 and bool(position.turn.last_of_round)
            and any(chip_name(c.name) == ROTTEN_WORMS and c.infest is not None for c in position.chips))


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


# Chapter 2: "All Graft units benefit from the Membrane Barrier 1 – Grafted Snare fortress advancement"
# (asp/scenarios/chapter_2.lp, hushed/2), read by the files of the talents that act on another unit's move.
SNARE_CHAPTER, GRAFT = 2, "graft"


def snare_reach(position: Position) -> dict[str, tuple[str, ...]]:
    """Chapter 2, on the Graft's turn: each opposing unit (a landmark minion too) holding a talent that acts in
    movement (its catalogue steps) and standing where a Graft unit may come beside it during the step (within the
    reach of the Graft units' moves over the whole step, plus 1: fields.step_radii), with those talents."""
    scenario = position.scenario
    if scenario is None or scenario.chapter != SNARE_CHAPTER or position.turn.faction != GRAFT:
        return {}
    placed = {uid: u for uid, u in position.units.items() if position.placed(uid) is not None}
    movers = [uid for uid, u in placed.items() if u.faction == GRAFT and u.kind is not Kind.LANDMARK_MINION]
    near = fields.reach(position, {uid: r + 1 for uid, r in fields.step_radii(position, movers).items()})
    found: dict[str, tuple[str, ...]] = {}
    for uid, unit in placed.items():
        if unit.at is None or (unit.faction == GRAFT and unit.kind is not Kind.LANDMARK_MINION):
            continue
        names = (*unit.talents, *(t for g in unit.group for t in g.talents))
        moving = tuple(t.name for t in catalogue().known(names) if "movement" in t.steps)
        if moving and position.node_of(uid) in near:
            found[uid] = moving
    return found


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

    def flies(u: Unit) -> bool:  # "Ungrouped only" for a player's unit (asp/talents/flying.lp), grouped or deemed so
        deemed = any("deemed_grouped/2" in t.hooks for t in catalogue().known(u.talents))  # Infested
        return FLYING in u.talents and (ai or not (u.group or deemed)) and not hail

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


# Chapter 4, AI Rules: "The griege minions always deploy from the tunnel access closest to the naroran fortress
# gate that's possible for them to deploy from. If they cannot deploy from a tunnel access, they deploy from the
# Griege fortress gate as normal." A tunnel access is another chip so named (a chip's name, as chip_name gives it).
GRIEGE, TUNNEL_ACCESS = "griege", "tunnel access"
_DISPLACEABLE = "displaceable/2"  # a talent that lets other units displace its unit (Flying): onto any hex beside
_UNNAMED = "an other chip with no name, which may be a Tunnel Access that the griege minions deploy from"
_HERO = ("where the griege minions deploy from while a griege hero is in play, which deploys from and returns to the "
         "griege fortress gate as normal: the answer has the minions deploy from the gate")
_NO_COUNT = ("which tunnel access is closest to the naroran fortress gate, where the position holds no naroran gate or "
             "range cannot count from it to a tunnel access: the answer has the minions deploy from the gate")
_MAY_OPEN = ("a tunnel access as close to the naroran fortress gate as the one the minions deploy from, or closer, that "
             "no hex beside it leaves possible to deploy from as the step begins, but may as units move (a unit that "
             "may leave such a hex, or terrain only some waiting minion may enter)")
_MAY_FILL = ("the hexes beside the closest tunnel access, which the units moving before a waiting minion may fill, so "
             "that it deploys from the next: the answer has every waiting minion deploy from the closest")
_RANGE = ("ranges counted through the griege fortress gate, whose hexes beside it are not all within 2 of each other "
          "on the map: the answer has the minions deploy from the gate")


@dataclass(frozen=True)
class Tunnels:
    """Where the griege minions waiting in their gate deploy from on their turn in chapter 4: ``chips``, the
    Tunnel Access chips closest to the naroran gate of those possible to deploy from, ties all kept (an AI's tie
    is its player's choice, minion by minion); none, the gate as normal. ``undecided``: what the answer leaves
    out where it cannot tell (a notice's text); "" where it can."""

    chips: tuple[str, ...] = ()
    undecided: str = ""


def _counts(position: Position, source: str) -> dict[str, int]:
    """Hexes from ``source`` to every node, counted as range is (map hexes and gate nodes, through anything)."""
    dist, queue = {source: 0}, deque([source])
    while queue:
        node = queue.popleft()
        for near in sorted(position.neighbours(node)):
            if near not in dist:
                dist[near] = dist[node] + 1
                queue.append(near)
    return dist


def _within_two(position: Position, hexes: tuple[str, ...]) -> bool:
    """Every two of ``hexes`` at most 2 apart over map hexes alone."""
    near = {h: {h, *position.adjacency.get(h, ())} for h in hexes}
    return all(b in near[a] or near[a] & set(position.adjacency.get(b, ())) for a in hexes for b in hexes)


def tunnels(position: Position) -> Tunnels | None:
    """Chapter 4's griege-tunnel-deployment on the griege's turn while a griege minion waits in its gate and a
    tunnel access (or an unnamed other chip) is in play; None elsewhere, or once the gate deploys from them.

    Readings (docs/movement.md, Harbinger chapter 4): "closest", counted in hexes as range is (as every closest
    of the chapters); "possible for them to deploy from", a map hex beside it that a waiting minion could step
    onto: nothing on it, its terrain one every waiting minion may enter. Which is possible changes as units
    move: the answer is given only where it cannot (else ``undecided``): no tunnel access as close or closer
    has a hex beside it that a unit may leave or that only some minion may enter, and the closest have as many free
    hexes beside them as units could fill before the last minion deploys (the griege's units waiting, those on
    the map whose moves reach one, and each unit beside them that others may displace)."""
    scenario = position.scenario
    gate = position.gates.get(GRIEGE)
    if scenario is None or scenario.chapter != 4 or position.turn.faction != GRIEGE or gate is None or gate.tunnels:
        return None
    waiting = [position.units[u] for u in gate.stack if position.units[u].kind is Kind.MINION]
    found = [c for c in position.chips if chip_name(c.name) == TUNNEL_ACCESS]
    if not waiting or not (found or any(not c.name for c in position.chips)):
        return None
    if any(not c.name for c in position.chips):
        return Tunnels(undecided=_UNNAMED)
    if any(u.faction == GRIEGE and u.kind is Kind.HERO for u in position.units.values()):
        return Tunnels(undecided=_HERO)
    if NARORA not in position.gates:
        return Tunnels(undecided=_NO_COUNT)
    counts = _counts(position, gate_node(NARORA))
    if any(c.at not in counts for c in found):
        return Tunnels(undecided=_NO_COUNT)
    levels = {a.level for u in waiting for a in allowances(u)}
    blocking = {s.at for s in position.spires} | {lm.at for lm in position.landmarks} | {c.at for c in position.chips}
    movable = {u.at for u in position.units.values() if u.at and (u.faction == GRIEGE or _displaceable(u))}
    fixed = {u.at for u in position.units.values() if u.at} - movable

    def state(h: str) -> str:  # free, shut (for the whole step) or may (open or shut as units move)
        terrain = position.hexes[h].terrain
        admits = {terrain is Terrain.PATH or terrain.level <= level for level in levels}
        if h in blocking or h in fixed or admits == {False}:
            return "shut"
        return "free" if h not in movable and admits == {True} else "may"

    beside = {c.id: [h for h in position.adjacency.get(c.at, ()) if h in position.hexes] for c in found}
    states = {c.id: {state(h) for h in beside[c.id]} for c in found}
    possible = [c for c in found if "free" in states[c.id]]
    closest = min((counts[c.at] for c in possible), default=None)
    if any("may" in states[c.id] and "free" not in states[c.id] and (closest is None or counts[c.at] <= closest)
           for c in found):
        return Tunnels(undecided=_MAY_OPEN)
    chosen = tuple(c for c in possible if counts[c.at] == closest)
    if not chosen:
        return Tunnels()
    free = {h for c in chosen for h in beside[c.id] if state(h) == "free"}
    # Who could stand there before the last minion deploys: each griege unit waiting, and each on the map whose
    # moves over the step reach a hex of them (fields.step_radii, pushes by others included).
    placed = [uid for uid, u in position.units.items() if u.faction == GRIEGE and u.at]
    reach = fields.step_radii(position, placed)
    movers = len(gate.stack) + sum(1 for uid in placed if free & fields.ball(position, position.units[uid].at, reach[uid]))
    pushed = sum(1 for u in position.units.values()
                 if u.at and u.faction != GRIEGE and _displaceable(u) and free & set(position.adjacency.get(u.at, ())))
    if len(free) < movers + pushed:
        return Tunnels(undecided=_MAY_FILL)
    if not _within_two(position, gate.beside):
        return Tunnels(undecided=_RANGE)
    return Tunnels(chips=tuple(c.id for c in chosen))


def _displaceable(unit: Unit) -> bool:
    """Other units may displace it (a talent defining displaceable/2: Flying)."""
    return any(_DISPLACEABLE in t.hooks for t in catalogue().known(unit.talents))


def deploy_from_tunnels(position: Position) -> Position:
    """The position with the griege gate's hexes those beside the tunnel accesses its minions deploy from
    "as if it were your fortress gate" (``tunnels``), where the answer can tell which: on that turn the gate
    is nothing else (no griege hero is in play to deploy from or return to it, and no opposing unit moves or
    attacks it; ranges through it are unchanged, ``_within_two``). Else the position unchanged."""
    found = tunnels(position)
    if found is None or not found.chips:
        return position
    chips = {c.id: c for c in position.chips}
    beside = sorted({h for cid in found.chips for h in position.adjacency.get(chips[cid].at, ()) if h in position.hexes})
    gate = replace(position.gates[GRIEGE], beside=tuple(beside), tunnels=found.chips)
    return replace(position, gates={**position.gates, GRIEGE: gate})


def _holds(rule: ClosestMark, unit: Unit) -> bool:
    if rule.chip is not None:
        return chip_name(unit.chip) == chip_name(rule.chip)
    return unit.faction == rule.faction and unit.kind.value == rule.kind


def _tier(position: Position, holder: Unit, tier: str) -> list[tuple[Mark, str | None]] | None:
    """The chips of ``tier`` the holder's mark may pick, each with the node it is counted to (None where the tier
    cannot tell: a chip of it waits in a gate, or a landmark minion, "opposing units to every faction", is in
    play for "units", which players may read either way); an empty list where none is in play."""
    if tier.startswith("gate:"):
        gate = position.gates.get(tier[5:])
        return [(Mark(gate=gate.faction), gate.node)] if gate is not None and gate.fortress and gate.health > 0 else []
    if tier == "spires":
        return [(Mark(hex=s.at), s.at) for s in position.spires if s.faction != holder.faction]
    picked = [u for u in position.units.values() if u.id != holder.id and u.kind is not Kind.LANDMARK_MINION and (
        (tier == "graft-heroes" and u.faction == GRAFT and u.kind is Kind.HERO)
        or (tier == "heroes" and u.faction != holder.faction and u.kind is Kind.HERO)
        or (tier == "units" and u.faction != holder.faction))]
    landmark = tier == "units" and any(u.kind is Kind.LANDMARK_MINION and u.at for u in position.units.values())
    if landmark or any(u.at is None for u in picked):
        return None
    return [(Mark(unit=u.id), u.at) for u in picked]


def closest_marks(position: Position) -> list[tuple[str, str, tuple[Mark, ...]]]:
    """Units whose own mark a chapter picks as the closest of something (scenarios.yaml, `closest`) that hold
    another, as their faction's movement step begins (no unit has moved or been displaced yet): (unit, the
    rule's text, the marks it may have). Closest counted in hexes as range is; ties all allowed. Only then:
    what it picks is taken as it moves (docs/position-format.md), and a move earlier in the step may change it."""
    scenario = position.scenario
    if scenario is None or position.turn.step != "movement":
        return []
    if any(u.done.moved or u.done.displaced for u in position.units.values()):
        return []
    wrong = []
    for rule in scenario.book.rules:
        if rule.closest is None:
            continue
        for holder in sorted(position.units.values(), key=lambda u: u.id):
            if holder.faction != position.turn.faction or not _holds(rule.closest, holder):
                continue
            node = position.node_of(holder.id)
            counts = _counts(position, node)
            for tier in rule.closest.tiers:
                found = _tier(position, holder, tier)
                if found is None:
                    break
                found = [(m, n) for m, n in found if n in counts]
                if found:
                    nearest = min(counts[n] for _, n in found)
                    allowed = tuple(m for m, n in found if counts[n] == nearest)
                    if holder.mark not in allowed:
                        wrong.append((holder.id, rule.text, allowed))
                    break
    return wrong
