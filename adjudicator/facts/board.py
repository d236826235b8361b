"""Position model → ASP facts, built as clingo Symbols (never by pasting text).

Every user-supplied name becomes a clingo String, so no id can change the program. docs/facts.md and
asp/doc.lp list the predicates.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache

from clingo import Function, Number, String, Symbol

from adjudicator.facts import fields
from adjudicator.position.chapter_rules import SOURCE_VEIN, chip_name
from adjudicator.position.model import (BIOSONAR, BUILD_WAYGATE, ELFIN, ELFINKAZE, ELFINKAZE_SIDES, FUSIONS, KEEL, SECRET_PASSAGE,
                                        SHADA, SUMMON_COSTS, SUMMON_HERO, Controller, Kind, Mark, Position, Terrain, Unit)
from adjudicator.position.movement_stat import allowances
from adjudicator.position.talents import catalogue

KIND_NAMES = {Kind.MINION: "minion", Kind.HERO: "hero", Kind.LANDMARK_MINION: "landmark_minion"}
READING_NAMES = {
    "displacement": "displacement",
    "displaced-landing": "displaced_landing",
    "ai-hero-approach": "ai_hero_approach",
    "escape-route": "escape_route",
    "stop-counts": "stop_counts",
}


def fact(name: str, *args: Symbol) -> Symbol:
    return Function(name, list(args))


@cache  # names of ours are few, and a map reads one a hex
def const(name: str) -> Symbol:
    """A constant from a name of ours (path, hero, last-upgrade → last_upgrade)."""
    return Function(name.replace("-", "_"))


@dataclass
class Query:
    """What the solver is asked: whose options, under whose control, in which mode."""

    units: tuple[str, ...]
    ai_factions: frozenset[str] = frozenset()
    stepping: bool = False
    begun: bool = False  # a minion has moved
    over: bool = False  # a hero has moved after the minions: no minion moves again
    whole: bool = False  # the whole step in one solve (asp/movement/whole.lp)
    readings: dict[str, str] = field(default_factory=dict)



def _kaze_facts(position: Position, faction: str) -> Iterator[Symbol]:
    """kazes(F,N): faction F's barracks hold N elfinkaze; kaze_sides(F,S,N): N of them list side S."""
    waiting = [position.units[b] for b in position.factions[faction].barracks or ()
               if position.units[b].chip.casefold() == ELFINKAZE]
    yield fact("kazes", String(faction), Number(len(waiting)))
    for side in ELFINKAZE_SIDES:
        yield fact("kaze_sides", String(faction), String(side), Number(sum(side in k.talents for k in waiting)))

# A node's name as a Symbol, made once: a map names each hex some eight times, and making a Symbol is a
# call into clingo (a tenth of a 150-hex board's facts). Names are few (a column letter and a row, gates).
_node = cache(String)


def _map_part(position: Position, kept: Callable[[str], bool]) -> Iterator[Symbol]:
    """The map's hexes, terrain, wells, rocks and adjacency, on the nodes ``kept``."""
    for h in position.hexes.values():
        if not kept(h.name):
            continue
        yield fact("hex", _node(h.name))
        yield fact("terrain", _node(h.name), const(h.terrain.value))
        if h.well:
            yield fact("well", _node(h.name))
        if h.rock:
            yield fact("rock", _node(h.name))
    for name, near in position.adjacency.items():
        if kept(name):
            for other in near:
                if kept(other):
                    yield fact("adj", _node(name), _node(other))


# The last whole map's facts, with the map they are of: the boards of a whole turn share one map
# (dataclasses.replace keeps its dicts), whose facts were a sixth of an end of turn's time on a
# 150-hex board. The map is held, so that no other can take its identity.
_MAP: list[tuple[object, object, tuple[Symbol, ...]]] = []


def _map_facts(position: Position) -> tuple[Symbol, ...]:
    kept = _MAP[0] if _MAP else None  # read once: a question on another thread may replace it
    if kept is not None and kept[0] is position.hexes and kept[1] is position.adjacency:
        return kept[2]
    facts = tuple(_map_part(position, lambda _: True))
    _MAP[:] = [(position.hexes, position.adjacency, facts)]
    return facts


def board_facts(position: Position, nodes: Collection[str] | None = None) -> Iterator[Symbol]:
    """Hexes, gates, adjacency and static chips; with ``nodes``, only those on these nodes (the
    reach of the units asked about, fields.reach: no rule looks further)."""

    def kept(node: str) -> bool:
        return nodes is None or node in nodes

    yield from _map_facts(position) if nodes is None else _map_part(position, kept)
    for gate in position.gates.values():
        yield fact("gate", String(gate.faction), String(gate.node))
        if not gate.fortress:
            yield fact("deploy_only", String(gate.faction))
        if kept(gate.node):
            for h in gate.beside:
                if kept(h):
                    yield fact("adj", String(gate.node), String(h))
                    yield fact("adj", String(h), String(gate.node))
    # Harbinger chapter 3's Nucleus moves when a spire has it in range, and flees their ranges
    # (asp/scenarios/chapter_3.lp): every spire's range is read there.
    ranges_read = position.scenario is not None and position.scenario.chapter == 3
    for spire in position.spires:
        if kept(spire.at):
            yield fact("spire", String(spire.id), String(spire.faction), String(spire.at))
            if "attack" in spire.upgrades:  # an act may remove them (Yrtel's Will)
                yield fact("sattack", String(spire.id))
            if spire.upgrades:  # an act may need it to hold few (Quantum Dark)
                yield fact("supgrades", String(spire.id), Number(len(spire.upgrades)))
            for index, upgrade in enumerate(spire.upgrades):  # a unit's damage removes the bottom one (Glidebomb)
                yield fact("supgrade", String(spire.id), Number(index), const(upgrade))
            if spire.chip:  # a chapter's rule may name the spire (chapter 8)
                yield fact("schip", String(spire.id), String(chip_name(spire.chip)))
        if spire.talents or ranges_read:  # a talent may act on the units within its range (Snare), kept or not
            for node in fields.range_counts(position, [spire.at], fields.spire_range(spire))[spire.at]:
                if kept(node):
                    yield fact("swithin", String(spire.id), String(spire.faction), String(node))
    # A spire's talent may act on the units on its hex group (Imbue: Flying): each hex's, numbered; a
    # Secret Passage swaps with a landmark on an adjacent isle.
    passages = [lm for lm in position.landmarks if lm.health is not None]
    quakes = any("Quake" in spire.talents for spire in position.spires)
    clearing = any(BUILD_WAYGATE in u.talents for u in position.units.values())  # it discards an unrevealed one
    sonar = any(BIOSONAR in u.talents for u in position.units.values())  # explores on its unit's hex group
    # A keel minion promotes and demotes as its hex group gains or loses a keel spire (combat/keel.lp).
    keel = any(u.faction == KEEL and u.kind is Kind.MINION for u in position.units.values())
    if any(spire.talents for spire in position.spires) or passages or sonar or keel:  # hex groups the file lists
        for h, group in sorted(position.hex_group().items()):
            if kept(h):
                yield fact("isle", String(h), Number(group))
    # A keel minion's move ends on a hex group where it promotes or demotes (movement/keel.lp): the groups
    # holding a keel spire, wherever it stands (a spire beyond the move's reach), and each keel minion
    # showing its promoted side.
    if keel and position.hex_groups:
        group_of = position.hex_group()
        for group in sorted({group_of[s.at] for s in position.spires if s.faction == KEEL and s.at in group_of}):
            yield fact("kgroup", Number(group))
        for uid, unit in sorted(position.units.items()):
            if unit.faction == KEEL and unit.kind is Kind.MINION and unit.promoted:
                yield fact("kraised", String(uid))
        # Where a chapter bars their promotion by the spires on or beside a group (chapter 3: Graft spires),
        # each spire's faction with the groups it stands on or beside.
        if position.scenario is not None:
            for faction, group in sorted({(s.faction, group_of[n]) for s in position.spires
                                          for n in (s.at, *position.neighbours(s.at)) if n in group_of}):
                yield fact("sisle", String(faction), Number(group))
    for landmark in position.landmarks:
        if kept(landmark.at):
            yield fact("landmark", String(landmark.id), String(landmark.at))
            # A Secret Passage swaps with an unrevealed one; chapter 6's end of the wave keeps an earthscape
            # with a revealed one; a player's Quake spire may remove an unrevealed one from play, a unit's Build
            # Waygate discard one.
            if (passages or position.earthscapes or quakes or clearing) and not landmark.revealed:
                yield fact("facedown", String(landmark.id))
    # A talent that moves a landmark from within its count of hexes (hook shifts/5: Twister): the map
    # hexes within that count of each landmark's hex, a revealed landmark minion's too.
    shift = fields.shift_reach(position)
    if shift:
        held = {lm.at for lm in position.landmarks} | {
            u.at for u in position.units.values() if u.kind is Kind.LANDMARK_MINION and u.at is not None}
        for q, near in sorted(fields.range_counts(position, held, shift).items()):
            for node in sorted(near):
                if kept(node) and node in position.hexes and node != q:
                    yield fact("lnear", String(q), String(node))
    # A talent that deals damage to a unit up to its count of hexes away as units move (Magic-Like
    # Missile): the map hexes within that count of each hex a unit stands on.
    aim = fields.aim_reach(position)
    if aim:
        aimed = {u.at for u in position.units.values() if u.at in position.hexes}
        for q, near in sorted(fields.range_counts(position, aimed, aim).items()):
            for node in sorted(near):
                if kept(node) and kept(q) and node in position.hexes:
                    yield fact("anear", String(q), String(node))
    for chip in position.chips:
        if kept(chip.at):
            yield fact("chip", String(chip.id), String(chip.at))
            if position.scenario is not None and chip.name:  # a chapter's rule may name it (chapter 4's Source vein)
                yield fact("ochip", String(chip.id), String(chip_name(chip.name)))
            if chip.infest is not None:  # chapter 4's rotten worms: the # of the Infest it uses on Bydra Graam
                yield fact("onumber", String(chip.id), String("Infest"), Number(chip.infest))
    # Chapter 6's earthscapes, numbered as the file lists them (asp/scenarios/chapter_6.lp).
    for number, scape in enumerate(position.earthscapes or ()):
        for h in scape:
            if kept(h):
                yield fact("earthscape", Number(number), String(h))
    for name, faction in sorted(position.factions.items()):
        if faction.controller is Controller.AI:
            yield fact("ai_controlled", String(name))


def fusion_facts(position: Position) -> Iterator[Symbol]:
    """fuses(U,W,V,C): the shada's basic ungrouped minions U and W on map hexes, whose printed names pair in
    the sheet's Fusions table, may fuse into V, the first by id of the pairing's chips waiting in the shada's
    barracks, for C Source: "the combined difference between the units' current health and their health
    stats" (reference/factions/shada.txt, Minion Promotion; asp/movement/shada.lp)."""
    info = position.factions.get(SHADA)
    if info is None or not info.barracks:
        return
    waiting: dict[str, str] = {}
    for uid in sorted(info.barracks):
        waiting.setdefault(position.units[uid].chip.lower(), uid)

    def fusing(unit: Unit) -> bool:
        return (unit.faction == SHADA and unit.kind is Kind.MINION and not unit.promoted and not unit.group
                and unit.at in position.hexes)

    minions = sorted((uid, u) for uid, u in position.units.items() if fusing(u))
    for uid, unit in minions:
        for other, partner in minions:
            product = FUSIONS.get(frozenset({unit.chip.lower(), partner.chip.lower()}))
            if other != uid and product in waiting:
                cost = unit.stats.health - unit.health + partner.stats.health - partner.health
                yield fact("fuses", String(uid), String(other), String(waiting[product]), Number(cost))


def unit_facts(position: Position) -> Iterator[Symbol]:
    """Every unit on the board or waiting in a gate; units that returned to their fortress are gone.
    Also the Harbinger chapter named: these facts reach the solver unrendered, as talent files' do."""
    for landmark in position.landmarks:  # a Secret Passage, read while units move, and the health under it
        if landmark.health is not None:
            yield fact("mtalent", String(landmark.id), String(SECRET_PASSAGE))
            yield fact("lhealth", String(landmark.id), Number(landmark.health))
        if landmark.revealed and SUMMON_HERO in landmark.talents:  # a hero beside it teleports another (Summon Hero)
            yield fact("mtalent", String(landmark.id), String(SUMMON_HERO))
    if position.scenario is not None:
        yield fact("scenario", Number(position.scenario.chapter))
        if position.scenario.wave == position.scenario.book.waves:  # a talent may not act then (Colony)
            yield fact("last_wave")
        for result in position.scenario.event or ():
            yield fact("event", Number(result))
        # The unit this wave's Prep Phase line names first for a faction whose lines are read (Evoke's AI).
        for faction in sorted(position.factions):
            stated = position.scenario.stated(faction)
            if stated is not None:
                yield fact("prep_read", String(faction))
                if stated:
                    yield fact("prep_unit", String(faction), String(stated[0]))
    yield from fusion_facts(position)
    for gate in position.gates.values():
        for index, uid in enumerate(gate.stack):
            yield fact("stack", String(uid), Number(index))
        # A fortress gate's health, read while units move where a unit waiting in it may not deploy
        # with too little (Queen's Blood), or a unit's damage may bring it to 0 (Immolate): the same
        # fact the combat steps read.
        if gate.fortress:
            yield fact("gate_health", String(gate.faction), Number(gate.health))
        if gate.plank is not None:  # Harbinger chapter 2: the plank hex, pulled as the wave ends
            yield fact("plank", String(gate.faction), String(gate.plank))
        if gate.maneuver is not None:  # Harbinger chapter 2: where the fortress docks as the wave ends, its cannons
            yield fact("dock", String(gate.faction), String(gate.maneuver.plank))
            for number, line in enumerate(gate.maneuver.cannons, 1):
                for place, node in enumerate(line, 1):  # a hex, or a fortress gate g(F) last
                    target = Function("g", [String(node[5:])]) if node.startswith("gate:") else String(node)
                    yield fact("cannon", Number(number), Number(place), target)
        if gate.health_chips:  # Harbinger chapter 2: taken one by one as units deploy, so with the unit facts
            yield fact("health_chips", String(gate.faction), Number(gate.health_chips))
    if position.earthscape_places is not None:  # Harbinger chapter 3: the stack's earthscapes (0 the top), if bought
        yield fact("scape_offer")
        for depth, places in enumerate((position.earthscape_places, *position.earthscape_stack)):
            yield fact("scape_card", Number(depth))
            for number, place in enumerate(places):
                yield fact("scape_place", Number(depth), Number(number))
                for cell in place:
                    yield fact("scape_cell", Number(depth), Number(number), String(cell.name))
    for faction, info in position.factions.items():
        yield fact("faction", String(faction))
        yield fact("source", String(faction), Number(info.source))  # spent while moving too (Eruption)
        if info.mark.unit is not None:
            yield fact("marked", String(faction), String(info.mark.unit))
        if info.mark == Mark():
            yield fact("no_mark", String(faction))
    for uid, unit in position.units.items():  # a mark of its own (a Harbinger chapter's)
        if unit.mark is not None:
            yield fact("own_mark", String(uid), mark_key(unit.faction, uid))
            if unit.mark.unit is not None:
                yield fact("marked", mark_key(unit.faction, uid), String(unit.mark.unit))
    # Spire talents go with the unit facts, which every solve sends (the talent files follow them).
    for spire in position.spires:
        for talent in spire.talents:
            yield fact("stalent", String(spire.id), String(talent))
        for talent, number in spire.talent_numbers:  # a numbered talent's # ("Absorb 1")
            yield fact("snumber", String(spire.id), String(talent), Number(number))
    for chip in position.chips:  # and other chips' (Exposure: the toxic fumes chip, how many on its hex)
        for talent in chip.talents:
            yield fact("otalent", String(chip.id), String(talent))
        if chip.talents:
            yield fact("ocount", String(chip.id), Number(chip.count))
    # Only a talent's encoding reads health while units move (its catalogue entry's reads_health: Crush
    # compares it; Toxic Secretion, Lahar deal damage, which a fortification takes first, FAQ-29, and
    # a Peaceful unit takes only from a merc; Refresh heals a wounded unit only).
    # Chapter 4's Source vein takes a naroran unit's health (asp/scenarios/chapter_4.lp): its health chips
    # change as units strike it, so they go with the unit facts too, and the units' health with them.
    # Chapter 6's waygates have health too, which only attacks take (asp/scenarios/chapter_6.lp).
    healthy = [c for c in position.chips if c.health is not None]
    veins = [c for c in healthy if chip_name(c.name) == SOURCE_VEIN]
    healths = bool(veins) or any(t.reads_health for t in fields.active_talents(position))
    for chip in healthy:  # none left: the vein's last chip removed this step, a waygate destroyed
        if chip.health:
            yield fact("life", String(chip.id), Number(chip.health))
    if healths:
        for spire in position.spires:
            if spire.merc:
                yield fact("merc", String(spire.id))
    for unit in position.units.values():
        node = position.placed(unit.id)
        if node is None:
            continue
        u = String(unit.id)
        if healths:
            yield fact("health", u, Number(unit.health))
            yield fact("life", u, Number(unit.life))
            for kind in sorted(set(unit.upgrades)):  # an act may give one away (Radiate)
                yield fact("uupgrade", u, const(kind))
            if unit.merc:
                yield fact("merc", u)
            # A recovery never passes the health stat (Refresh), and comes once per unit per turn:
            # a unit displaced earlier this turn may have had it already.
            if unit.health < unit.side.health:
                yield fact("wounded", u)
            if unit.done.displaced:
                yield fact("displaced", u)
        yield fact("unit", u)
        yield fact("owner", u, String(unit.faction))
        if position.scenario is not None:  # a chapter's rules name some units (chapter 5: Bydra Graam, Nucleus)
            yield fact("uchip", u, String(chip_name(unit.chip)))
        if unit.carrying:
            yield fact("carries", u, Number(len(unit.carrying)))
        yield fact("kind", u, const(KIND_NAMES[unit.kind]))
        if unit.promoted:  # combat reads its side; as units move, a basic shada minion's placement does
            yield fact("promoted", u)
        yield fact("at", u, String(node))
        yield fact("movement", u, Number(unit.side.movement))
        yield fact("range", u, Number(unit.side.range))
        yield fact("allowance", u, const(unit.terrain.value))
        for talent in unit.talents:
            yield fact("talent", u, String(talent))
        for talent in unit.used:  # a once-per-wave talent used up this wave (Call Minion)
            yield fact("used", u, String(talent))
        for talent, number in unit.talent_numbers:  # a numbered talent's # ("Roost 3")
            yield fact("number", u, String(talent), Number(number))
        # Elfin as its unit deploys from its gate stack: the elfinkaze its faction's barracks hold (chip
        # Elfinkaze), all and by the side each may show (asp/talents/elfin.lp).
        if unit.at is None and ELFIN in unit.talents:  # waiting in its gate (node: its gate)
            yield from _kaze_facts(position, unit.faction)
        # A talent may act on the chips within its unit's range while units move (Hail).
        if unit.at is not None and any(t.in_range for t in catalogue().known(unit.talents)):
            reach = unit.side.range + unit.upgrades.count("range")
            for near in fields.range_counts(position, [unit.at], reach)[unit.at]:
                yield fact("uwithin", u, String(unit.faction), String(near))
        # A talent that teleports its unit up to its # hexes (Tracker): the map hexes within that count.
        if unit.at is not None:
            for near in sorted(fields.self_teleport_counts(position, unit)):
                yield fact("tnear", u, String(near))
        # A talent that summons a unit of its faction's barracks onto the closest path hex (Evoke): the
        # units waiting there, one per printed name (identical chips are one choice: the first by id), what
        # each name costs, and how far each map hex is from its unit, as range counts. Harbinger chapter 8's
        # market options count as in the barracks (the loader gives only the solo player a market); a
        # market chip is another choice than a barracks chip of its name: it leaves the market.
        if unit.at is not None and fields.summoner(unit):
            firsts: dict[tuple[str, bool], str] = {}
            info = position.factions[unit.faction]
            for waiting, listed in sorted([(b, False) for b in info.barracks or ()] + [(m, True) for m in info.market or ()]):
                firsts.setdefault((position.units[waiting].chip.lower(), listed), waiting)
            for (name, _), waiting in firsts.items():
                yield fact("summonable", String(waiting), String(unit.faction), String(name))
                if name in SUMMON_COSTS:
                    yield fact("summon_cost", String(name), Number(SUMMON_COSTS[name]))
            for near, count in sorted(fields.range_counts(position, [unit.at], None)[unit.at].items()):
                if near in position.hexes:
                    yield fact("udist", u, String(near), Number(count))
        if unit.done.moved:
            yield fact("moved", u)
        if unit.campfire:
            yield fact("campfire", u)
        if unit.must_move:
            yield fact("must_move", u)
        if unit.group:
            yield fact("group", u)


def mark_key(faction: str, owner: str | None) -> Symbol:
    """The term a mark's fields are keyed by (asp/core/distance.lp, mkey/2): the faction, or u(Unit)
    for a unit with a mark of its own."""
    return String(faction) if owner is None else Function("u", [String(owner)])


def field_facts(
    position: Position, units: Iterable[str], ai_factions: Iterable[str], nodes: Collection[str] | None = None
) -> Iterator[Symbol]:
    """Distance fields for the classes of ``units`` (and of heroes they may displace); with
    ``nodes``, only their values there."""
    classes: set[tuple[Terrain, str, bool, str]] = set()
    ranged: set[tuple[str, str]] = {(faction, "") for faction in ai_factions}
    units = tuple(units)
    for uid in (*units, *fields.called(position, units)):  # a minion a unit may call (Call Minion) too
        unit = position.units[uid]
        owner = fields.own_mark(unit) or ""
        classes.update((allowance, unit.faction, fields.counts_through(unit), owner) for allowance in allowances(unit))
        if owner and unit.faction in ai_factions:
            ranged.add((unit.faction, owner))
    for allowance, faction, through, owner in sorted(classes):
        # b(A,M): the class of a unit counting through spires and landmarks (asp/core/distance.lp)
        cls = Function("b" if through else "c", [const(allowance.value), mark_key(faction, owner or None)])
        for node, steps in sorted(fields.mark_distances(position, allowance, faction, through, owner or None).items()):
            if nodes is None or node in nodes:
                yield fact("dist", cls, String(node), Number(steps))
    for faction, owner in sorted(ranged):
        key = mark_key(faction, owner or None)
        for node, steps in sorted(fields.range_distances(position, faction, owner or None).items()):
            if nodes is None or node in nodes:
                yield fact("rdist", key, String(node), Number(steps))


def query_facts(query: Query) -> Iterator[Symbol]:
    for uid in query.units:
        yield fact("query", String(uid))
    for faction in sorted(query.ai_factions):
        yield fact("ai", String(faction))
    if query.stepping:
        yield fact("stepping")
    if query.begun:
        yield fact("begun")
    if query.over:
        yield fact("over")
    if query.whole:
        yield fact("whole")
    for name, value in sorted(query.readings.items()):
        yield fact("reading", const(READING_NAMES.get(name, name)), const(value))


def position_facts(position: Position, query: Query, nodes: Collection[str] | None = None) -> list[Symbol]:
    """All facts clingo receives for ``query`` on ``position``; ``nodes`` as for ``board_facts``."""
    return [
        *board_facts(position, nodes),
        *unit_facts(position),
        *field_facts(position, query.units, query.ai_factions, nodes),
        *query_facts(query),
    ]
