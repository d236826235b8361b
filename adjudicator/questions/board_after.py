"""The board after a step: a move, or a combat step's end state, applied to a position.

The whole movement step replays moves with ``apply_move``; the whole turn carries the board from one
step to the next with both. Only what the steps' answers say changes; everything else is kept.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from adjudicator.answers.moves import Act, MoveOutcome
from adjudicator.position.chapter_rules import VEIN_HEALTH, WAYGATE_HEALTH, bydra_mark, earthscape_id
from adjudicator.position.model import (ELFINKAZE, ELFINKAZE_SIDES, SECRET_PASSAGE, SUMMON_COSTS, Chip, Controller,
                                        Faction, Gate, GroupedChip, Hex, Landmark, Position, Reward, Spire, Terrain,
                                        Unit)
from adjudicator.position.hexmap import COLUMNS, covered, hex_name, neighbour_cells

if TYPE_CHECKING:  # the attack step's classes: `moves` need not build them
    from adjudicator.answers.attacks import ChipEnd, EndState, Gain


# The spires Builder builds and promotes (master-talent-list: "Build a dispatch platform ...", "Promote an
# adjacent dispatch platform to a siege tower"), by printed name.
DISPATCH_PLATFORM = "Dispatch Platform"
SIEGE_TOWER = "Siege Tower"
# The most health an act's recovery gives (Save: "may recover up to 4 health").
SAVED = 4
# The chip Dig places (griege.txt: "place a Tunnel Access chip on an adjacent non-path hex").
TUNNEL_ACCESS = "Tunnel Access"
# A unit Infest places under a minion gives it Infested (harbinger-rulebook, Infest #).
INFEST, INFESTED = "Infest", "Infested"
# The talents of a chip a defeat places (hook lays/4), by its name: the griege sheet's "Toxic Fumes /
# Exposure" (docs/position-format.md, chips).
LAID_TALENTS = {"Toxic Fumes": ("Exposure",)}
# The item a hero picks up or drops (landmark-and-market-talents: "pick this item up from an adjacent hex
# or drop it on an adjacent non-path hex"): a talent held, a chip with it on the map.
GATEPORT = "Portable Gateport"


# Yrtel's Will: "discard an adjacent landmark minion to gain 3 Source".
YRTEL_CASH = 3


def apply_act(position: Position, uid: str, act: Act) -> Position:
    """The board after unit ``uid``'s talent acted (``_acted``)."""
    return _acted(position, uid, act)[0]


def _acted(position: Position, uid: str, act: Act) -> tuple[Position, tuple[Gain, ...]]:
    """The board after unit ``uid``'s talent acted (``_act``), its faction first paying what the act costs
    (Act.cost: hook pays/3), then gaining the reward of the chip it defeated where the act earns it
    (Act.earns: asp/movement/source.lp): a unit defeated outright (Consume), or one its damage defeats
    (Magic-Like Missile), its active chip's reward as it was hit; and what the faction so gained."""
    faction = position.units[uid].faction
    if act.cost:
        position = _spend(position, faction, act.cost)
    after = _act(position, uid, act)
    hit = position.units.get(act.chip)
    if act.earns and hit is not None and (act.how == "defeat" or (act.how == "hurt" and int(act.to) >= hit.life)):
        return _gain(after, faction, hit.reward)
    return after, ()


def _spend(position: Position, faction: str, amount: int) -> Position:
    """``faction`` with ``amount`` Source less (what a talent costs it, or a steal takes: never more than it holds)."""
    info = position.factions[faction]
    return replace(position, factions={**position.factions, faction: replace(info, source=max(0, info.source - amount))})


def _gain(position: Position, faction: str, reward: Reward) -> tuple[Position, tuple[Gain, ...]]:
    """``faction`` granted ``reward`` (game-elements, Defeat): its Source up to its capacity (Source: "Any Source
    gained above a faction's maximum capacity is lost"); the relics and the spire it may build are reported only,
    as the combat steps report them (no position state)."""
    from adjudicator.answers.attacks import Gain  # imported here: only a reward builds one
    info = position.factions[faction]
    kept = max(info.source, min(info.source_capacity, info.source + reward.source))
    gained = replace(position, factions={**position.factions, faction: replace(info, source=kept)})
    return gained, () if reward.empty else (Gain(faction, kept - info.source, reward.relics, reward.spire),)


def _robbed(position: Position, move: MoveOutcome) -> Position:
    """What the move's talent stole as it passed opposing units (Incorporeal: "Steal 1 Source from the
    controlling faction of each active unit it passes through"): each faction loses what it is robbed of,
    no more than it holds; the mover's faction gains what was taken, up to its capacity, where it keeps it (a
    player's; the AI's wording: "Opposing factions will lose 1 Source")."""
    taken = 0
    for faction, amount in move.robbed:
        took = min(amount, position.factions[faction].source)
        position = _spend(position, faction, took)
        taken += took
    return _gain(position, position.units[move.unit].faction, Reward(source=taken))[0] if move.pocket else position


def _act(position: Position, uid: str, act: Act) -> Position:
    """The board after unit ``uid``'s talent acted (asp/movement/after.lp, before_act/4, after_act/5):
    the chip it defeats off the board as one defeated (a group's next chip shows), or returns to its
    barracks undefeated (its whole group, as Eruption's return; a spire, Rigging), or a spire it strips loses its attack
    upgrades (Yrtel's Will), or a unit it lets recover gains up to 4 health, never past its health stat
    (Save), or the unit leaves its group for the hex ``act.chip`` (Scatter: revealed) or is teleported
    there (Tracker), or a Tunnel Access chip is placed there (Dig: the unit unchanged), or a landmark
    ``act.chip`` is placed on hex ``act.to`` (Twister: the unit unchanged), or the unit gives ``act.chip``
    1 health or 1 upgrade of the kind ``act.to`` (Radiate: past its health stat or capacity), or a spire
    ``act.chip`` gains an ``act.to`` upgrade on top or at the bottom (Improve: past its capacity), or a unit
    ``act.chip`` takes the damage ``act.to`` (Magic-Like Missile: a fortification first), or a minion ``act.chip``
    is teleported to hex ``act.to`` (Call Minion: moved off its hex by a talent, FAQ-25), or the unit leaves its
    group and is placed on top of or underneath the minion ``act.chip`` (Stasis, Possess: the position's
    ``stasis-on``, ``possessing``), or a unit ``act.chip`` of its faction's barracks is placed on hex ``act.to``,
    its Source spent (Evoke), or promoted on the unit's hex with the unit flipped and grouped under it (Summon:
    ``_summoned``: the group known by the unit's id), or placed on the hex ``act.chip`` with no health left,
    inactive (Burrow: the position's ``burrowed``), or placed on the hex ``act.chip``, out of its group (the
    shada's minion placement), or the landmark minion ``act.chip`` discarded, not defeated, its faction
    gaining 3 Source (Yrtel's Will), or the unit itself
    leaves play, discarded, not defeated (Anarchy's die: apply_move then makes no move), or the landmark minion
    ``act.chip`` is put under the control of the unit's faction (Recruiter: its faction), or an earthscape is
    placed over the unit's isle (Matter Distortion: the board unchanged, where it lies not modelled), or the
    spire ``act.chip`` is replaced by a spire of the unit's faction with its upgrades (Quantum Dark), or the hero
    picks up the item ``act.chip`` (its chip off the map, the talent held) or drops it on the hex ``act.chip``
    (a chip with the talent there, the talent no longer held: Portable Gateport), or a dispatch platform of the
    unit's faction is built on the Source well ``act.chip`` or the dispatch platform ``act.chip`` becomes a siege
    tower, its upgrades kept (Builder); then the unit flipped to its other side with its upgrades removed, its
    health kept, or promoted: a basic unit flipped to its promoted side,
    its upgrades removed, with the health between the sides' health stats (game-elements: Leveling Up;
    none known where the position gives one side); a promoted one stays as it is; or defeated, off the
    board (Save); or returned to its barracks, off the board undefeated, its movement made (Builder's basic
    unit: its faction's barracks lists it, where the position gives them), or demoted to its basic side, its
    upgrades kept and its health at most that side's health stat (Builder's promoted unit, as the keel's
    demotion) (docs/movement.md, An action before or after a move)."""
    units = dict(position.units)
    if act.how == "barracks" and act.chip not in units:  # Rigging: the spire to its barracks, off the board
        return replace(position, spires=tuple(s for s in position.spires if s.id != act.chip))
    if act.how == "defeat":
        units[act.chip] = _hurt(units[act.chip], 0, True)
    elif act.how == "barracks":
        units[act.chip] = replace(units[act.chip], at=None)
    elif act.how == "recover":
        healed = units[act.chip]
        units[act.chip] = replace(healed, health=max(healed.health, min(healed.side.health, healed.health + SAVED)))
    elif act.how == "hurt":  # Magic-Like Missile: act.to is the damage (0: Peaceful; -1: a heal)
        hit, dealt = units[act.chip], int(act.to)
        units[act.chip] = _hurt(hit, dealt, dealt >= hit.life)
    elif act.how == "call":  # Call Minion: minion act.chip teleported to hex act.to, moved by a talent (FAQ-25)
        called = units[act.chip]
        # A rider called leaves its roost (rides nothing); a roost called carries its riders (Roost: _carry).
        landed = replace(called, at=act.to, rides=None, done=replace(called.done, displaced=True))
        # What it takes where it lands (FAQ-07), a fortification first, or its defeat there.
        units[act.chip] = _hurt(landed, act.taken, act.fells) if act.taken else landed
        _carry(position, units, [(act.chip, act.to)])
    elif act.how == "teleport":  # Tracker: the unit, its group with it, stands there
        units[uid] = replace(units[uid], at=act.chip)
    elif act.how == "cash":  # Yrtel's Will: the landmark minion discarded (not defeated), 3 Source up to the capacity
        units[act.chip] = replace(units[act.chip], at=None, discarded=True)
        position = _gain(position, units[uid].faction, Reward(source=YRTEL_CASH))[0]
    elif act.how == "control":  # Recruiter: the landmark minion is the unit's faction's from now on
        units[act.chip] = replace(units[act.chip], faction=units[uid].faction)
    elif act.how == "discard":  # Anarchy: the unit leaves the map and play, not defeated (never from its gate)
        units[uid] = replace(units[uid], at=None, discarded=True, done=replace(units[uid].done, moved=True))
        return replace(position, units=units)
    elif act.how == "health_chip":  # Harbinger chapter 2: a health chip of its fortress, past its health stat
        gate = position.gates[units[uid].faction]
        units[uid] = replace(units[uid], health=units[uid].health + 1)
        gates = {**position.gates, gate.faction: replace(gate, health_chips=(gate.health_chips or 1) - 1)}
        return replace(position, units=units, gates=gates)
    elif act.how == "dig":  # Dig: a Tunnel Access chip on that hex, another chip from then on
        chips = (*position.chips, Chip(tunnel_id(act.chip), act.chip, TUNNEL_ACCESS))
        return replace(position, chips=chips)
    elif act.how in ("clear", "waygate", "clear_waygate"):  # Build Waygate: the landmark discarded, the waygate placed
        position = _waygated(position, act)
    elif act.how == "perch":  # Elfin as its unit deploys: elfinkaze from its barracks riding it, their sides chosen
        return _perched_on_deploy(position, uid, int(act.chip), int(act.to))
    elif act.how == "pickup":  # Portable Gateport: the item's chip leaves its hex, the hero holds it (the talent)
        units[uid] = replace(units[uid], talents=(*units[uid].talents, GATEPORT))
        return replace(position, units=units, chips=tuple(c for c in position.chips if c.id != act.chip))
    elif act.how == "drop":  # Portable Gateport, Explosion: the hero's item on that hex, another chip from then on
        units[uid] = replace(units[uid], talents=tuple(t for t in units[uid].talents if t != act.talent))
        item = Chip(item_id(act.talent, act.chip), act.chip, act.talent, talents=(act.talent,))
        return replace(position, units=units, chips=(*position.chips, item))
    elif act.how == "explode":  # Explosion: the chip that went off as the unit moved beside it, discarded
        return replace(position, chips=tuple(c for c in position.chips if c.id != act.chip))
    elif act.how == "radiate":  # Radiate: 1 health, or 1 upgrade of that kind, from the unit to act.chip
        giver, taker = units[uid], units[act.chip]
        if act.to == "health":
            units[uid] = replace(giver, health=giver.health - 1)
            units[act.chip] = replace(taker, health=taker.health + 1)
        else:
            kept = list(giver.upgrades)
            kept.remove(act.to)
            units[uid] = replace(giver, upgrades=tuple(kept))
            units[act.chip] = replace(taker, upgrades=(*taker.upgrades, act.to))
        return replace(position, units=units)
    elif act.how in ("improve", "improve_under"):  # Improve, Builder: spire act.chip gains an act.to upgrade, on top or
        # at the bottom; then Builder's unit goes to its barracks or is demoted (below)
        position = replace(position, spires=tuple(
            replace(s, upgrades=(*s.upgrades, act.to) if act.how == "improve" else (act.to, *s.upgrades))
            if s.id == act.chip else s for s in position.spires))
    elif act.how == "shift":  # Twister: the landmark, or landmark minion, now stands on hex act.to
        if act.chip in units:
            units[act.chip] = replace(units[act.chip], at=act.to)
            return replace(position, units=units)
        return replace(position, landmarks=tuple(replace(lm, at=act.to) if lm.id == act.chip else lm
                                                 for lm in position.landmarks))
    elif act.grasps:  # Stasis, Possess: out of its group, on top of (underneath) the minion, on its hex
        _leave_group(units, uid)  # "Leaves group if grouped"
        held = units[act.chip]
        field = {"stasis_on": act.chip} if act.how == "stasis" else {"possessing": act.chip}
        units[uid] = replace(units[uid], at=held.at, group=(), rides=None, **field)
    elif act.how == "evoke":  # Evoke: from its barracks onto hex act.to, basic side, full health; it does not move
        summoned, faction = units[act.chip], units[uid].faction
        units[act.chip] = replace(turn(summoned, False), at=act.to, health=summoned.stats.health, upgrades=(),
                                  done=replace(summoned.done, moved=True))
        info = position.factions[faction]
        factions = {**position.factions, faction: _summoned_from(info, summoned, act.chip)}
        return replace(position, units=units, factions=factions)
    elif act.how == "burrow":  # Burrow: out of its group, on that hex, no health left, inactive (not defeated)
        _leave_group(units, uid)  # the AI's "Leaves group if grouped"
        kept = tuple(u for u in units[uid].upgrades if u != "fortification")  # health, as a fortification counts (FAQ-29)
        units[uid] = replace(units[uid], at=act.chip, group=(), health=0, upgrades=kept, burrowed=True)
    elif act.how == "summon":  # Summon: promoted on the taproot's hex, the taproot flipped and grouped under it
        return _summoned(position, units, uid, act.chip)
    elif act.how in ("scatter", "place"):  # Scatter; the shada's minion placement: out of its group, on that hex
        _leave_group(units, uid)
        units[uid] = replace(units[uid], at=act.chip, group=())
    elif act.how == "fuse":  # the shada's fusion: both to the barracks, the pairing's chip promoted on the well
        return _fused(position, units, uid, act.chip, act.to)
    spires = tuple(_spire_after(s, act, units[uid].faction) if s.id == act.chip else s for s in position.spires)
    if act.how == "build":  # Builder: a dispatch platform of its faction on that Source well (its printed side: a notice)
        spires = (*spires, Spire(platform_id(act.chip), units[uid].faction, act.chip, chip=DISPATCH_PLATFORM))
    unit = units[uid]
    factions = position.factions
    if act.then == "barracks":  # Builder's basic unit: off the board, undefeated, its group with it (as Eruption's)
        units[uid] = replace(unit, at=None, done=replace(unit.done, moved=True))
        factions = _into_barracks(factions, unit)
    elif act.then == "demote":  # Builder's promoted unit: its basic side, upgrades kept, at most that side's health
        units[uid] = replace(turn(unit, False), health=min(unit.health, unit.stats.health))
    elif act.then == "flip":
        units[uid] = replace(turn(unit, not unit.promoted), upgrades=())
    elif act.then == "promote" and not unit.promoted:
        gained = unit.promoted_stats.health - unit.stats.health if unit.promoted_stats is not None else 0
        units[uid] = replace(turn(unit, True), upgrades=(), health=unit.health + max(0, gained))
    elif act.then == "defeated":
        units[uid] = _hurt(unit, 0, True)
    return replace(position, units=units, spires=spires, factions=factions)


def _perched_on_deploy(position: Position, uid: str, glide: int, save: int) -> Position:
    """Elfin as unit ``uid`` deploys: ``glide`` elfinkaze of its faction's barracks showing Glidebomb and ``save``
    showing Save placed on top of it, riding it on its hex, their movement its Roost number (Roost Roam), out of
    the barracks and taken to have moved (a reading: docs/combat.md, Elfin). The first by id of those that may show each
    side, one that may show only that side first, so that any choice the encoding offers is met."""
    roost = position.units[uid]
    info = position.factions[roost.faction]
    waiting = sorted(b for b in info.barracks or () if position.units[b].chip.casefold() == ELFINKAZE)
    units = dict(position.units)
    taken: list[str] = []
    for side, count in zip(ELFINKAZE_SIDES, (glide, save)):
        able = [b for b in waiting if b not in taken and side in units[b].talents]
        chosen = sorted(able, key=lambda b: (all(s in units[b].talents for s in ELFINKAZE_SIDES), b))[:count]
        for b in chosen:
            kaze = units[b]
            units[b] = replace(kaze, at=roost.at, rides=uid, done=replace(kaze.done, moved=True),
                               talents=tuple(t for t in kaze.talents if t not in ELFINKAZE_SIDES or t == side),
                               stats=replace(kaze.stats, movement=dict(roost.talent_numbers).get("Roost", kaze.stats.movement)))
        taken += chosen
    factions = {**position.factions, roost.faction: replace(info, barracks=tuple(b for b in info.barracks or () if b not in taken))}
    return replace(position, units=units, factions=factions)


def _waygated(position: Position, act: Act) -> Position:
    """Build Waygate: the unrevealed landmark ``act.chip`` discarded (clear), a waygate placed on the Source
    well ``act.chip`` (waygate), or both, the well ``act.to`` (clear_waygate): another chip named Waygate, with
    the 4 health it is placed with in Harbinger chapter 6 (the chapter that gives waygates health), known as
    ``waygate-<hex>``."""
    well = act.chip if act.how == "waygate" else act.to
    landmarks = position.landmarks if act.how == "waygate" else tuple(lm for lm in position.landmarks if lm.id != act.chip)
    chips = position.chips
    if well:
        health = WAYGATE_HEALTH if position.scenario is not None and position.scenario.chapter == 6 else None
        chips = (*chips, Chip(waygate_id(well), well, "Waygate", health=health))
    return replace(position, landmarks=landmarks, chips=chips)


def _spire_after(spire: Spire, act: Act, faction: str) -> Spire:
    """Spire ``act.chip`` once the act: its attack upgrades removed (Yrtel's Will), or replaced by a spire of
    the unit's ``faction`` from its barracks with its upgrades (Quantum Dark), known by the same id; which
    spire that is the position does not say (the catalogue's notice): no talents, no printed name."""
    if act.how == "strip":
        return replace(spire, upgrades=tuple(u for u in spire.upgrades if u != "attack"))
    if act.how == "replace":
        return Spire(spire.id, faction, spire.at, spire.upgrades)
    if act.how == "tower":  # Builder: its upgrades kept; the siege tower's printed talents are the catalogue's notice
        return Spire(spire.id, spire.faction, spire.at, spire.upgrades, chip=SIEGE_TOWER, capacity=spire.capacity)
    return spire


def _leave_group(units: dict[str, Unit], uid: str) -> None:
    """Unit ``uid`` leaves its group, if it is grouped: the group's next chip is shown where it stood."""
    if units[uid].group:
        rest = revealed(units[uid])
        units[rest.id] = rest


def _summoned(position: Position, units: dict[str, Unit], uid: str, chip: str) -> Position:
    """Summon: unit ``chip`` of the faction's barracks on top of taproot ``uid`` on its hex, on its promoted
    side (``turn``: its other-talents and promoted-stats, where given) with its health stat there, moved this
    turn; the taproot, flipped to its other side (``turn`` likewise), the chip beneath it, what the position
    does not give of that side kept in ``GroupedChip.unseen``. The group is known by the taproot's id, as a
    group by its unit's whatever chip shows (``revealed``); the summoned chip's own entry leaves the barracks
    for it."""
    taproot, summoned = units[uid], turn(units[chip], True)
    flipped = turn(taproot, not taproot.promoted)
    beneath = GroupedChip(flipped.chip, flipped.side, flipped.talents, flipped.reward, flipped.merc,
                          flipped.talent_numbers, flipped.unseen)
    units[uid] = replace(taproot, chip=summoned.chip, stats=summoned.stats, promoted_stats=summoned.promoted_stats,
                         talents=summoned.talents, talent_numbers=summoned.talent_numbers,
                         other_talents=summoned.other_talents, other_talent_numbers=summoned.other_talent_numbers,
                         unseen=summoned.unseen, reward=summoned.reward, merc=summoned.merc, promoted=True,
                         health=summoned.side.health, upgrades=(), group=(beneath, *taproot.group),
                         terrain=summoned.terrain, capacity=None)
    units[chip] = replace(units[chip], at=None)
    factions = {**position.factions, taproot.faction: _summoned_from(position.factions[taproot.faction], summoned, chip)}
    return replace(position, units=units, factions=factions)


def _fused(position: Position, units: dict[str, Unit], uid: str, partner: str, chip: str) -> Position:
    """The shada's fusion of unit ``uid`` with ``partner``, on a Source well (reference/factions/shada.txt,
    Minion Promotion): the faction first spends "the combined difference between the units' current health
    and their health stats"; both return to its barracks at full health; ``chip``, waiting there, is deployed
    to the partner's hex on its promoted side (its promoted-stats, where given: the rule's notice otherwise,
    coverage.py) at that side's health stat, its deployment its move this turn (docs/movement.md, Shada
    fusion). The AI spends none: "It has unlimited Source" (ai-rules.md)."""
    mover, other, fused = units[uid], units[partner], units[chip]
    info = position.factions[mover.faction]
    cost = 0 if info.controller is Controller.AI else \
        mover.stats.health - mover.health + other.stats.health - other.health
    side = fused.promoted_stats or fused.stats
    units[chip] = replace(fused, at=other.at, promoted=True, health=side.health, upgrades=(),
                          done=replace(fused.done, moved=True))
    for gone in (uid, partner):
        units[gone] = replace(units[gone], at=None, health=units[gone].stats.health, upgrades=())
    kept = tuple(b for b in info.barracks or () if b != chip) + (uid, partner)
    factions = {**position.factions, mover.faction: replace(info, source=max(0, info.source - cost), barracks=kept)}
    return replace(position, units=units, factions=factions)


def _summoned_from(info: Faction, summoned: Unit, chip: str) -> Faction:
    """The faction once Evoke or Summon has taken unit ``chip`` from its barracks, or from its market
    (Harbinger chapter 8): the chip's cost spent, the chip gone from where it waited."""
    market = tuple(m for m in info.market if m != chip) if info.market is not None else None
    return replace(info, source=info.source - SUMMON_COSTS[summoned.chip.lower()],
                   barracks=tuple(b for b in info.barracks or () if b != chip), market=market)


def _vein_struck(vein: Chip, damage: int) -> Chip:
    """Chapter 4's Source vein once a strike deals it ``damage``. "When the last health chip is removed from the
    Source vein, you gain its top earthscape and may place it during a subsequent Build Phase. Then, place 3
    health on the Source vein (unless all earthscapes have been removed from it)." Reading (docs/movement.md,
    The Source vein): damage beyond the last chip is lost, the 3 placed after the strike; where the position
    gives no earthscapes the vein stays at 0 (the rule's notice). The earthscape gained waits off the board."""
    left = max(0, vein.health - damage)
    if left or vein.earthscapes is None:
        return replace(vein, health=left)
    stack = vein.earthscapes - 1
    return replace(vein, health=VEIN_HEALTH if stack else 0, earthscapes=stack)


def platform_id(hex_name: str) -> str:
    """The id of the dispatch platform Builder built on the Source well ``hex_name``."""
    return f"dispatch-platform-{hex_name}"


def waygate_id(hex_name: str) -> str:
    """The id of the waygate Build Waygate placed on ``hex_name``."""
    return f"waygate-{hex_name}"


def item_id(talent: str, hex_name: str) -> str:
    """The id of the chip of the item ``talent`` (Portable Gateport, Explosion) a hero dropped on ``hex_name``."""
    return f"{talent.lower().replace(' ', '-')}-{hex_name}"


def tunnel_id(hex_name: str) -> str:
    """The id of the Tunnel Access chip Dig placed on ``hex_name``."""
    return f"tunnel-access-{hex_name}"


def revealed_id(uid: str, chip: str) -> str:
    """The id of the chip a group reveals once its top chip ``uid`` leaves it (Scatter): a unit of its own."""
    return f"{uid}-{'-'.join(chip.lower().replace(chr(39), '').split())}"


def revealed(unit: Unit) -> Unit:
    """The group ``unit`` leaves (Scatter), a unit of its own where it stands: its next chip active with
    health equal to its health stat, as when a top chip is defeated, and at the same point in the turn
    ("it continues from the same point in the turn as the previous unit", game-elements: Groups)."""
    shown = _revealed(unit, unit.group[0].chip)
    return replace(shown, id=revealed_id(unit.id, shown.chip), health=shown.stats.health, must_move=False)


def apply_move(position: Position, move: MoveOutcome) -> Position:
    """The board after ``move`` (``made``)."""
    return made(position, move)[0]


def made(position: Position, move: MoveOutcome) -> tuple[Position, tuple[Gain, ...]]:
    """The board after ``move``, and what the defeats it deals rewarded, in their order: the unit on its end node, displaced units where they landed, each
    with the damage it took on the way (Toxic Secretion, Lahar), the damage it dealt once its move
    ended (Impale, Source Aura, Immolate, Eruption) and, where it then leaves the board (Immolate's
    defeat, Eruption's return to the barracks), the board without it; where it then places itself
    (Disperse), the unit there before that damage (its own included) is dealt; what its talents did
    before or after it (Consume: apply_act), in their order: an act before the move, then the move with
    what it took on its way, then an act after it (a flip after the move takes the upgrades the damage
    on the way left; Scatter leaves the group where the move ended); then a keel minion's promotion
    or demotion on the hex group where it ended (_turned)."""
    gains: tuple[Gain, ...] = ()
    for act in move.acts:
        if act.when == "before":
            position, got = _acted(position, move.unit, act)
            gains += got
    if move.gone_before:  # Anarchy, Quantum Dark: no move after it, its movement made
        gone = position.units[move.unit]
        moved = replace(gone, done=replace(gone.done, moved=True))
        return replace(position, units={**position.units, move.unit: moved}), gains
    # Its faction's Source (asp/movement/source.lp): what it steals on its way and the rewards of the units its
    # teleports defeat there (and of those damage taken on the way defeats, to the faction credited), then what it pays for its talents once its move ends (a player's Eruption), then
    # the rewards of the units they defeat; each active chip's reward as it stood before the move.
    faction = position.units[move.unit].faction
    # A spire its damage defeats once its move ends (Glidebomb) rewards it too.
    spire_rewards = {s.id: s.reward for s in position.spires}
    rewards = [(uid, position.units[uid].reward if uid in position.units else spire_rewards[uid]) for uid in move.earned]
    credited = [(uid, position.units[uid].reward, to) for uid, to in move.credited]
    position = _robbed(position, move)
    for uid, reward in rewards:
        if uid in move.felled:
            position, got = _gain(position, faction, reward)
            gains += got
    for uid, reward, to in credited:  # what damage taken on the way defeated (Toxic Secretion): that chip's faction
        position, got = _gain(position, to, reward)
        gains += got
    position = _spend(position, faction, move.spent)
    position = _passed(_moved(position, move), move)
    for uid, reward in rewards:
        if uid not in move.felled:
            position, got = _gain(position, faction, reward)
            gains += got
    for act in move.acts:
        if act.when == "after":
            position, got = _acted(position, move.unit, act)
            gains += got
    return _turned(position, move), gains


def _turned(position: Position, move: MoveOutcome) -> Position:
    """A keel minion whose move ended on a hex group where it promotes or demotes (asp/movement/keel.lp,
    ``move.turns``), still on the board: promoted, its upgrades go and it gains the difference between
    its sides' health stats (game-elements, Leveling Up); demoted, it keeps its upgrades and its health
    is at most its basic side's health stat (the keel sheet); returned to its fortress instead (Colony), it
    leaves the board undefeated, as it is. A side the position does not give (no promoted-stats) keeps the
    health given: the rule keeps its notice then (coverage)."""
    unit = position.units.get(move.unit)
    if not move.turns or unit is None or unit.at is None:
        return position
    if move.turns == "fortress":
        return replace(position, units={**position.units, move.unit: replace(unit, at=None)})
    basic, promoted = unit.stats, unit.promoted_stats
    if move.turns == "promote":
        gained = max(0, promoted.health - basic.health) if promoted is not None else 0
        unit = replace(turn(unit, True), upgrades=(), health=unit.health + gained)
    else:
        health = min(unit.health, basic.health) if promoted is not None else unit.health
        unit = replace(turn(unit, False), health=health)
    return replace(position, units={**position.units, move.unit: unit})


def _moved(position: Position, move: MoveOutcome) -> Position:
    """The board after ``move`` itself, its acts aside (apply_move)."""
    units = dict(position.units)
    gates = dict(position.gates)

    def place(uid: str, node: str, damage: int, defeated: bool, *, moved: bool) -> None:
        unit = units[uid]
        # A displaced unit has not had its move, but has moved for Survival (FAQ-25).
        done = replace(unit.done, moved=True) if moved else replace(unit.done, displaced=True)
        on_board = node if node in position.hexes else None
        # An elfinkaze that leaves its roost's hex rides it no more; one whose move ends on another roost's
        # hex rides that one, its number its movement stat (Roost Roam, hook roosts/3).
        rides = unit.rides if on_board == unit.at else None
        perch = _roost_on(position, unit, on_board) if moved and on_board != unit.at else None
        if perch is not None:
            unit = replace(unit, stats=replace(unit.stats, movement=perch[1]))
            rides = perch[0]
        if moved and move.stat:  # a walk on from a roost: its number now its movement stat (Roost Roam)
            unit = replace(unit, stats=replace(unit.stats, movement=move.stat))
        units[uid] = _hurt(replace(unit, at=on_board, done=done, rides=rides), damage, defeated)
        gate = gates.get(unit.faction)
        if gate is not None and uid in gate.stack and node != gate.node:
            gates[unit.faction] = replace(gate, stack=tuple(u for u in gate.stack if u != uid))

    for push in move.displaced:
        place(push.unit, push.to, push.damage, push.defeated, moved=False)
    place(move.unit, move.placed or move.end, move.damage, move.defeated, moved=True)
    if move.lost:  # its item left it as it took damage on its way (Cumbersome): no talent of it from now on
        units[move.unit] = replace(units[move.unit], talents=tuple(t for t in units[move.unit].talents if t not in move.lost))
    _carry(position, units, [(p.unit, p.to) for p in move.displaced] + [(move.unit, move.placed or move.end)])
    for rider, damage, defeated in move.carried:  # what the way did to the riders it carried (FAQ-07)
        units[rider] = _hurt(units[rider], damage, defeated)
    # A teleport onto a chip a unit stands on defeats it, its group with it ("those units are defeated").
    for uid in move.felled:
        units[uid] = replace(units[uid], at=None, health=0)
    # Once its move ends (Impale, Source Aura, Immolate, Eruption; chapter 4's Source vein): the units,
    # gates and the vein beside it take what it deals them; a spire loses its bottom upgrade, or falls
    # and leaves the board (game-elements, Attacking; reading spire-defeat: decode._tally).
    chips = {c.id: c for c in position.chips}
    spires = {s.id: s for s in position.spires}
    for strike in move.struck:
        chip = chips.get(strike.chip)
        if chip is not None and chip.health:  # chapter 4's Source vein: its health chips removed
            chips[chip.id] = _vein_struck(chip, strike.damage)
        elif strike.chip in spires and strike.defeated:
            del spires[strike.chip]
            for uid, unit in units.items():  # an elfinkaze riding it stands on the hex, riding nothing (Roost)
                if unit.rides == strike.chip:
                    units[uid] = replace(unit, rides=None)
        elif strike.chip in spires and strike.removed:
            spires[strike.chip] = replace(spires[strike.chip], upgrades=spires[strike.chip].upgrades[1:])
        elif strike.chip in units:
            units[strike.chip] = _hurt(units[strike.chip], strike.damage, strike.defeated)
        elif strike.chip.startswith("gate:"):
            faction = strike.chip.removeprefix("gate:")
            gates[faction] = replace(gates[faction], health=max(0, gates[faction].health - strike.damage))
    if move.exit == "defeated":  # Immolate: as a defeat by damage, the group's next chip shows
        units[move.unit] = _hurt(units[move.unit], 0, True)
    factions = position.factions
    if move.exit in ("barracks", "fortress"):  # Eruption, Rigging: off the board, not defeated
        units[move.unit] = replace(units[move.unit], at=None)
    if move.exit == "fortress" or move.kind == "return":  # game-elements, Returning to the Fortress: "it
        unit = units[move.unit]                            # immediately recovers to full health"
        units[move.unit] = replace(unit, health=max(unit.health, unit.side.health))
    if move.exit == "barracks":  # Eruption: "return this unit to its barracks"
        factions = _into_barracks(factions, units[move.unit])
    return replace(position, units=units, gates=gates, chips=tuple(chips.values()), factions=factions,
                   spires=tuple(spires[s.id] for s in position.spires if s.id in spires))


def _into_barracks(factions: dict[str, Faction], unit: Unit) -> dict[str, Faction]:
    """The factions once ``unit`` is back in its barracks: listed there, where the position gives them."""
    info = factions[unit.faction]
    if info.barracks is None:
        return factions
    return {**factions, unit.faction: replace(info, barracks=(*info.barracks, unit.id))}


def _passed(position: Position, move: MoveOutcome) -> Position:
    """Secret Passage (landmark-and-market-talents): a hero that moved onto it, its health removed, "Swap
    this chip and the hero with the unrevealed landmark": the passage stands where the landmark its
    route landed on stood, and that landmark where the passage stood; "When a hero moves off this
    landmark, place 1 health under it": 1 again unless the move ended on it."""
    open_at = {lm.at: lm.id for lm in position.landmarks if lm.health == 0}
    if not open_at:
        return position
    moves: dict[str, str] = {}
    for i, node in enumerate(move.path):
        if i in move.landed and move.path[i - 1] in open_at:  # onto the passage, landing on ``node``
            moves[open_at[move.path[i - 1]]] = node
            moves.update({lm.id: move.path[i - 1] for lm in position.landmarks if lm.at == node and not lm.revealed})
        elif node in open_at and i + 1 not in move.landed and i > 0:  # a passage with nowhere to send it
            moves.setdefault(open_at[node], node)
    landmarks = []
    for lm in position.landmarks:
        at = moves.get(lm.id, lm.at)
        off = lm.id in moves and lm.health is not None and at != move.end
        landmarks.append(replace(lm, at=at, health=1 if off else lm.health))
    return replace(position, landmarks=tuple(landmarks))


def _roost_on(position: Position, unit: Unit, node: str | None) -> tuple[str, int] | None:
    """The chip of the unit's faction with Roost on ``node`` that an elfinkaze (Roost Roam) ending its move
    there rides, and its number; None for any other unit or hex."""
    if node is None or "Roost Roam" not in unit.talents:
        return None
    chips = [*(u for u in position.units.values() if u.at == node and u.id != unit.id and u.rides is None),
             *(s for s in position.spires if s.at == node)]
    for chip in chips:
        number = dict(chip.talent_numbers).get("Roost")
        if number is not None and chip.faction == unit.faction:
            return chip.id, number
    return None


def _carry(position: Position, units: dict[str, Unit], moved: list[tuple[str, str]]) -> None:
    """Roost: "When this unit moves, elfinkaze on it are moved with it" (FAQ-02: riding is not the
    elfinkaze's own move, which it keeps). A rider still on its roost as it moved goes where the roost
    stands now; where the roost fell on its way or left the map, the rider stays on the hex it fell on
    (or its own), riding nothing. What the way does to a rider (FAQ-07) is the move's ``carried``.
    Moved so, it has moved for what reads a move (FAQ-02: riding "triggers movement effects"; FAQ-25,
    Survival), as a rider its spire carries has (apply_change)."""
    for roost, node in moved:
        start = position.units[roost].at
        for rider in [u for u in units.values() if u.rides == roost and u.at == start and start is not None]:
            now = units[roost].at
            carried = replace(rider, at=now) if now is not None else replace(
                rider, at=node if node in position.hexes else start, rides=None)
            if carried.at != start:
                carried = replace(carried, done=replace(carried.done, displaced=True))
            units[rider.id] = carried


def _hurt(unit: Unit, damage: int, defeated: bool) -> Unit:
    """The unit after damage taken as it moved: a fortification upgrade goes first (FAQ-29). Defeated,
    it leaves the board with no health left, unless chips wait beneath it: the next becomes active
    where it stood, with health equal to its health stat (game-elements: Groups; docs/movement.md,
    Damage while moving)."""
    if defeated:
        if unit.group:
            return replace(_revealed(unit, unit.group[0].chip), health=unit.group[0].stats.health)
        return replace(unit, at=None, health=0)
    if damage < 0:  # healed instead (chapter 8, heals/3): health gained, past its stat; upgrades kept
        return replace(unit, health=unit.health - damage)
    fortified = unit.upgrades.count("fortification")
    kept = list(unit.upgrades)
    for _ in range(min(damage, fortified)):
        kept.remove("fortification")
    return replace(unit, upgrades=tuple(kept), health=unit.health - max(0, damage - fortified))


def _revealed(unit: Unit, chip: str) -> Unit:
    """The unit once its group shows ``chip``: the chips above it are gone (game-elements: Groups)."""
    index = next(i for i, g in enumerate(unit.group) if g.chip == chip)
    shown = unit.group[index]
    return replace(
        unit, chip=shown.chip, stats=shown.stats, talents=shown.talents, reward=shown.reward, merc=shown.merc,
        talent_numbers=shown.talent_numbers, group=unit.group[index + 1:], upgrades=(), promoted=False,
        promoted_stats=None, capacity=None, other_talents=None, other_talent_numbers=(), unseen=shown.unseen,
    )


def turn(unit: Unit, promoted: bool) -> Unit:
    """``unit`` showing its promoted side (``promoted``) or its basic one, its upgrades and health as they
    were (each caller applies its rule's). A flip shows the talents printed on the other side
    (game-elements, Leveling Up: "Leveling up improves your units stats and/or talents"): the position's
    ``other-talents``, the side it showed becoming the one facing down. Where the position does not give
    them (or, for the stats, ``promoted-stats``), the unit keeps the side it showed, and ``unseen`` says
    what of it the steps after the flip read wrongly: their answers name it (coverage.unseen_sides)."""
    if promoted == unit.promoted:
        return unit
    unseen = set(unit.unseen)
    if unit.promoted_stats is None:
        unseen.add("stats")
    if unit.other_talents is None:
        unseen.add("talents")
        return replace(unit, promoted=promoted, unseen=tuple(sorted(unseen)))
    return replace(unit, promoted=promoted, talents=unit.other_talents, talent_numbers=unit.other_talent_numbers,
                   other_talents=unit.talents, other_talent_numbers=unit.talent_numbers, unseen=tuple(sorted(unseen)))


def _tuck(position: Position, units: dict[str, Unit], gates: dict[str, Gate], uid: str, carrier: str) -> None:
    """Unit ``uid`` placed under ``carrier`` "without any health" (chapter 5: Bydra Graam's Call Minion; Infest,
    whose carrier then holds Infested):
    off the board, its printed name among the chips the carrier carries, whose chapter 5 mark follows
    what is under her ("when she has a minion placed under her: Hex adjacent to Nucleus")."""
    units[uid] = replace(units[uid], at=None, health=0)
    bearer = replace(units[carrier], carrying=(*units[carrier].carrying, units[uid].chip))
    if INFEST in units[uid].talents:  # "That opposing minion gains the talent Infested" (Infest)
        bearer = replace(bearer, talents=tuple(sorted({*bearer.talents, INFESTED})))
    mark = bydra_mark(bearer, units, gates) if position.scenario is not None and position.scenario.chapter == 5 else None
    units[carrier] = bearer if mark is None else replace(bearer, mark=mark)


def _unit_after(unit: Unit, change: ChipEnd) -> Unit:
    if change.name and change.name != unit.chip:
        unit = _revealed(unit, change.name)
    if change.health is not None:
        unit = replace(unit, health=change.health)
    if change.upgrades is not None:
        unit = replace(unit, upgrades=change.upgrades)
    if change.promoted:
        unit = turn(unit, True)
    if change.basic:  # Dodge: flipped back to its basic side
        unit = turn(unit, False)
    if change.silenced:  # Silencer: "cannot attack for the remainder of the turn" (done: silenced)
        unit = replace(unit, done=replace(unit.done, silenced=True))
    if change.at is not None:  # displaced (Eager), teleported (Wallop): it stands on another hex
        unit = replace(unit, at=change.at, done=replace(unit.done, displaced=True))
    if change.discarded_talents:  # Hidden Armor: the equipment is gone for the rest of the turn
        unit = replace(unit, talents=tuple(t for t in unit.talents if t not in change.discarded_talents))
    if change.control is not None:  # Recruitable: another faction controls it now
        unit = replace(unit, faction=change.control)
    if change.used:  # a once-per-wave talent used (Reap): not offered again this wave
        unit = replace(unit, used=(*unit.used, *change.used))
    return unit


def apply_end(
    position: Position, end: EndState, attacked: frozenset[str] = frozenset(), targeted: frozenset[str] = frozenset()
) -> Position:
    """The board after a combat step that ended in ``end``; ``attacked``: the units that attacked;
    ``targeted``: the chips they attacked (the units among them are written as attacked this turn).
    A defeated unit leaves the board (to its barracks, the discard or the market: off the board
    either way) with no health left, as one defeated while moving; a defeated spire leaves it too, but
    for a chip a rule leaves on its hex (``stays``)."""
    units = dict(position.units)
    gates: dict[str, Gate] = dict(position.gates)
    spires = {s.id: s for s in position.spires}
    others = {c.id: c for c in position.chips}
    barracks = {f: x.barracks for f, x in position.factions.items() if x.barracks}
    landmarks = {m.id: m for m in position.landmarks}
    scapes = list(position.earthscapes or ())
    lifted = {earthscape_id(i): i for i in range(len(scapes))}
    board = (position.hexes, position.adjacency)
    for change in end.chips:
        if change.laid:  # placed by a defeat (Toxic Fumes): more of them on a chip of that name there
            was = others.get(change.chip)
            others[change.chip] = replace(was, count=was.count + change.laid) if was is not None else Chip(
                change.chip, change.at or "", change.name, talents=LAID_TALENTS.get(change.name, ()), count=change.laid)
        elif change.chip in others and (change.returned or change.discarded):  # the toxic fumes chips, as the
            del others[change.chip]  # wave ends; an Explosion chip that went off
        elif change.chip in others and change.under is not None:  # chapter 4's rotten worms, by Infest
            worms = others.pop(change.chip)
            bearer = units[change.under]
            units[change.under] = replace(bearer, carrying=(*bearer.carrying, worms.name),
                                          talents=tuple(sorted({*bearer.talents, INFESTED})))
        elif change.chip in landmarks and change.control is not None and not change.removed:  # Source Link
            landmarks[change.chip] = replace(landmarks[change.chip], faction=change.control)
        elif change.chip in landmarks and change.health is not None:  # its health removed (Quake)
            landmarks[change.chip] = replace(landmarks[change.chip], health=change.health)
        elif change.chip in landmarks:  # explored (asp/combat/explore.lp): revealed, or out of play
            landmarks[change.chip] = _face_up(landmarks[change.chip])
            if change.removed:
                del landmarks[change.chip]
        elif change.chip in units and change.under is not None:
            _tuck(position, units, gates, change.chip, change.under)
        elif change.chip in units and change.woke:  # its campfire mode ended with the wave
            units[change.chip] = replace(units[change.chip], campfire=False)
        elif change.chip in units and change.returned:  # to its barracks (a hero: its fortress), at full health
            unit = units[change.chip]
            units[change.chip] = replace(unit, at=None, health=unit.stats.health)
            if unit.faction in barracks:
                barracks[unit.faction] = (*barracks[unit.faction], change.chip)
        elif change.chip in units:
            unit = units[change.chip]
            if change.defeated or change.discarded:  # off the board either way (Pacify discards)
                units[change.chip] = replace(unit, at=None, health=0)
                gate = gates.get(unit.faction)
                if gate is not None and change.chip in gate.stack:
                    gates[unit.faction] = replace(gate, stack=tuple(u for u in gate.stack if u != change.chip))
            elif position.in_barracks(change.chip) and change.at is not None:  # placed from its barracks (Spawn)
                units[change.chip] = _perched(position, unit, change) if change.rides else replace(unit, at=change.at)
                if change.unmoved:  # it does not move this turn (Evoke's AI)
                    units[change.chip] = replace(units[change.chip], done=replace(unit.done, moved=True))
                barracks[unit.faction] = tuple(u for u in barracks[unit.faction] if u != change.chip)
            else:
                units[change.chip] = _unit_after(unit, change)
        elif change.chip in spires:
            if change.returned or change.discarded:  # to its barracks (Mining), out of the game (chapter 6): off the board
                del spires[change.chip]
                continue
            if change.defeated:
                fallen = spires.pop(change.chip)
                if change.stays:  # its chip left where it stood, an obstacle no rule moves (chapter 3)
                    others[fallen.id] = Chip(fallen.id, fallen.at, fallen.chip)
                continue
            if change.upgrades is not None:
                spires[change.chip] = replace(spires[change.chip], upgrades=change.upgrades)
            if change.at is not None:  # it moved (Creep)
                spires[change.chip] = replace(spires[change.chip], at=change.at)
            if change.arrow is not None:  # its arrow pointed anew (Translocate)
                spires[change.chip] = replace(spires[change.chip], arrow=change.arrow)
        elif change.chip.startswith("gate:") and (change.health is not None or change.at is not None):
            faction = change.chip.removeprefix("gate:")
            if change.health is not None:
                gates[faction] = replace(gates[faction], health=change.health)
            if change.at is not None:  # chapter 2: the fortress docked elsewhere as the wave ended
                gates[faction], board = _docked(gates[faction], board, change.at)
        elif change.chip in others and change.health is not None:  # a waygate (chapter 6), 0 destroyed
            others[change.chip] = replace(others[change.chip], health=change.health)
        elif change.chip in lifted:  # chapter 6: an earthscape left the board; the others keep their numbers
            scapes[lifted[change.chip]] = ()
        else:
            raise ValueError(f"an end state names {change.chip!r}, which this position does not hold")
    groups = position.hex_groups
    # Chapter 3: the earthscapes the keel bought, the stack's in turn from the top, each placed at once or kept.
    cards = (position.earthscape_places, *position.earthscape_stack) if position.earthscape_places is not None else ()
    for depth, bought in enumerate(end.earthscape):
        if bought.startswith("placed:"):
            place = cards[depth][int(bought.removeprefix("placed:"))]
            board = covered(*board, place)
            cells = {h.name for h in place}
            # the chips left in the hole (a defeated Graft spire's) stay under it, no longer on the board
            others = {cid: c for cid, c in others.items() if c.at not in cells}
            groups = (*groups, tuple(h.name for h in place)) if groups else groups
    # the earthscape now on top, the next the keel may buy, and those under it (none known: not given); a placement
    # over a cell an earthscape now covers is not offered (docs/combat.md, The earthscape bought)
    laid = {h.name for depth, bought in enumerate(end.earthscape) if bought.startswith("placed:")
            for h in cards[depth][int(bought.removeprefix("placed:"))]}
    left = [tuple(p for p in places if not laid & {h.name for h in p}) for places in cards[len(end.earthscape):]]
    for uid in attacked:
        unit = units[uid]
        units[uid] = replace(unit, done=replace(unit.done, attacked=True))
    for uid in targeted & units.keys():  # Recruitable reads it at the end of the turn
        unit = units[uid]
        units[uid] = replace(unit, done=replace(unit.done, targeted=True))
    factions = {f: replace(x, barracks=barracks[f]) if f in barracks else x for f, x in position.factions.items()}
    for name, amount in end.source:
        factions[name] = replace(factions[name], source=amount)
    for name, shown in end.morale:  # its morale die (Morale)
        factions[name] = replace(factions[name], morale=shown)
    return replace(position, units=units, gates=gates, factions=factions, hexes=board[0], adjacency=board[1],
                   hex_groups=groups, earthscape_places=left[0] if left else None, earthscape_stack=tuple(left[1:]),
                   spires=tuple(spires[s.id] for s in position.spires if s.id in spires),
                   chips=tuple(others.values()), landmarks=tuple(landmarks.values()),
                   earthscapes=None if position.earthscapes is None else tuple(scapes))


Board = tuple[dict[str, Hex], dict[str, frozenset[str]]]


def _docked(gate: Gate, board: Board, plank: str) -> tuple[Gate, Board]:
    """Chapter 2's Strategic Maneuver: the fortress "detach[ed] from the play area" takes its old plank hex with it,
    and its plank hex, restored, is a path hex of the map where it docked, the gate beside only it. Where it docks
    next is not known from here: the board after gives no maneuver."""
    hexes = {name: h for name, h in board[0].items() if name != gate.plank}
    column, row = COLUMNS.index(plank[0]), int(plank[1:])
    hexes[plank] = Hex(plank, Terrain.PATH, column=column, row=row)
    around = {hex_name(c, r) for c, r in neighbour_cells(column, row) if 0 <= c < len(COLUMNS) and r >= 1} & set(hexes)
    adjacency = {name: (near - {gate.plank or ""}) | ({plank} if name in around else set())
                 for name, near in board[1].items() if name != gate.plank}
    adjacency[plank] = frozenset(around)
    return replace(gate, beside=(plank,), plank=plank, maneuver=None), (hexes, {n: frozenset(a) for n, a in adjacency.items()})


# An elfinkaze's two sides, each named by the talent it alone shows (heirs.txt: "Elfinkaze have two
# basic sides"; Elfin: "You must choose whether the elfinkaze comes out on its Glidebomb side or its Save side").


def _perched(position: Position, unit: Unit, change: ChipEnd) -> Unit:
    """An elfinkaze Elfin placed from its barracks on top of ``change.rides``: it rides that chip on its
    hex, shows the side chosen, and its movement stat is that chip's Roost number (Roost Roam)."""
    roost = position.units.get(change.rides or "") or next(s for s in position.spires if s.id == change.rides)
    number = dict(roost.talent_numbers).get("Roost", unit.stats.movement)
    talents = tuple(t for t in unit.talents if t not in ELFINKAZE_SIDES or t == change.side)
    return replace(unit, at=change.at, rides=change.rides, talents=talents,
                   stats=replace(unit.stats, movement=number))


def _face_up(landmark: Landmark) -> Landmark:
    """A face-down landmark flipped face up (game-elements, Landmarks): a Secret Passage with its 1 health
    ("When this chip is revealed, place 1 health under it")."""
    return replace(landmark, revealed=True, health=1 if SECRET_PASSAGE in landmark.talents else landmark.health)
