"""Position model → the ASP facts of a combat question, built as clingo Symbols.

The board and unit facts are those of movement (facts.py); this adds what combat reads: each unit's
chips (a group's top first), upgrades, spire upgrades and talents, gate health, Source, rewards, the
AI priority lists, the spire die's totals, and the question itself. asp/doc.lp lists the predicates.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from itertools import product

from clingo import Function, Number, String, Symbol

from adjudicator.facts import fields
from adjudicator.position.chapter_rules import GRAFT, chip_name
from adjudicator.position.dice import Die, shipped_die
from adjudicator.position.hexmap import covered, line_from, stride
from adjudicator.facts.board import KIND_NAMES, READING_NAMES, board_facts, const, fact, unit_facts
from adjudicator.position.model import GroupedChip, Kind, Position, Reward, Spire, Stats, Unit
from adjudicator.position.movement_stat import allowances
from adjudicator.position.priorities import in_force
from adjudicator.position.talents import Talent, catalogue

ATTACK, FIRE = "attack", "fire"
EXPLORE = "explore"  # the exploration step (asp/combat/explore.lp)
STEP, SINGLE, SPLIT = "step", "single", "split"




def category(name: str) -> Symbol:
    """A priority category as the encodings spell it: defeat-hero → defeat(hero), gate → gate."""
    verb, _, kind = name.partition("-")
    if verb in ("defeat", "damage", "closest") and kind:
        return Function(verb, [const(kind)])
    return const(name)


@dataclass(frozen=True)
class Line:
    """A line of attacks to play again (asp/combat/attack_step.lp, replay): each attack as
    (time, attacker, target) and each level-up as (time, hero, option), as the solver names them."""

    attacks: tuple[tuple[int, Symbol, Symbol], ...] = ()
    level_ups: tuple[tuple[int, Symbol, Symbol], ...] = ()

    def then(self, other: Line) -> Line:
        """This line, then ``other`` played after its last attack."""
        shift = len(self.attacks)
        return Line((*self.attacks, *((t + shift, a, x) for t, a, x in other.attacks)),
                    (*self.level_ups, *((t + shift, h, o) for t, h, o in other.level_ups)))


@dataclass(frozen=True)
class CombatQuery:
    """What the solver is asked about combat on one board."""

    kind: str  # ATTACK (the attack step), FIRE (the Spires Fire step), "start" or "end" (of the turn), EXPLORE, "wave" (its end)
    mode: str  # STEP (every attack in turn) or SINGLE (one attack of one of ``units``)
    side: str  # the faction whose turn it is
    ai_factions: frozenset[str]  # AI-controlled factions (the side too, when --ai asks for it)
    horizon: int  # how many attacks or shots at most
    units: tuple[str, ...] = ()  # SINGLE: the units asked about
    fire_order: tuple[str, ...] = ()  # FIRE: the spires that may fire, in order
    readings: dict[str, str] = field(default_factory=dict)
    die: Die | None = None  # FIRE: the spire attack die
    measure_from: str | None = None  # a unit whose distance to every chip is wanted (explanations)
    quick: bool = False  # ATTACK: the Quick Strike step, before the spires fire
    split: bool = False  # STEP: solved group by group, the group's units set by the external active/1
    line: Line = Line()  # STEP: the one line of attacks to play (a board shown from a split step)


def _stats(uid: Symbol, layer: int, stats: Stats) -> Iterator[Symbol]:
    for name, value in (("health", stats.health), ("attack", stats.attack), ("range", stats.range)):
        yield fact("lstat", uid, Number(layer), const(name), Number(value))
    if stats.star:  # an attack stat of * (Poison): its attack above is 0
        yield fact("lstar", uid, Number(layer))


def _reward(name: str, owner: Symbol, *where: Symbol, reward: Reward) -> Iterator[Symbol]:
    for kind, value in (("source", reward.source), ("relics", reward.relics), ("spire", int(reward.spire))):
        if value:
            yield fact(name, owner, *where, const(kind), Number(value))


def chip_facts(position: Position) -> Iterator[Symbol]:
    """Each unit's chips top first (layer 0 is the active one), upgrades and what it has done."""
    for unit in position.units.values():
        if position.placed(unit.id) is None and not position.in_barracks(unit.id):
            continue
        # A unit's facts hang on the unit alone, which the boards of a whole turn share where it did not
        # change: made once for them all (kept with the unit, so that its id names no other).
        kept = _CHIPS.get(id(unit))
        if kept is None or kept[0] is not unit:
            if len(_CHIPS) >= 1 << 14:
                _CHIPS.clear()
            kept = _CHIPS[id(unit)] = (unit, tuple(_unit_chips(unit)))
        yield from kept[1]


_CHIPS: dict[int, tuple[Unit, tuple[Symbol, ...]]] = {}


def _unit_chips(unit: Unit) -> Iterator[Symbol]:
    """One unit's chip_facts."""
    u = String(unit.id)
    yield fact("health", u, Number(unit.health))
    top = GroupedChip(unit.chip, unit.side, unit.talents, unit.reward, unit.merc, unit.talent_numbers)
    for index, chip in enumerate((top, *unit.group)):
        i = Number(index)
        yield fact("layer", u, i)
        yield fact("lchip", u, i, String(chip_name(chip.chip)))  # a talent may name a chip (Cover: taproot)
        yield from _stats(u, index, chip.stats)
        for talent in chip.talents:
            yield fact("ltalent", u, i, String(talent))
        for talent, number in chip.talent_numbers:  # a numbered talent's # ("Roost 3")
            yield fact("lnumber", u, i, String(talent), Number(number))
        yield from _reward("lreward", u, i, reward=chip.reward)
        if chip.merc:
            yield fact("lmerc", u, i)
    for index, upgrade in enumerate(unit.upgrades):
        yield fact("upgrade", u, Number(index), const(upgrade))
    if unit.promoted:  # promoted/1 itself: board.unit_facts
        for name, value in (("health", unit.stats.health), ("attack", unit.stats.attack),
                            ("range", unit.stats.range)):
            yield fact("bstat", u, const(name), Number(value))  # its basic side, should it flip back (Dodge)
    if unit.promoted_stats is not None:
        for name, value in (("health", unit.promoted_stats.health), ("attack", unit.promoted_stats.attack),
                            ("range", unit.promoted_stats.range)):
            yield fact("pstat", u, const(name), Number(value))
    if unit.other_talents is not None and (sorted(unit.other_talents), sorted(unit.other_talent_numbers)) == (
            sorted(unit.talents), sorted(unit.talent_numbers)):  # a flip shows the same talents
        yield fact("same_sides", u)
    if unit.capacity is not None:
        yield fact("capacity", u, Number(unit.capacity))
    if unit.done.attacked or unit.done.silenced:  # Silencer: it "cannot attack for the remainder of the turn"
        yield fact("attacked", u)
    if unit.done.silenced and not unit.done.attacked:  # ... though it did not attack (Survival)
        yield fact("muted", u)
    if unit.done.retaliated:
        yield fact("retaliated", u)
    if unit.done.displaced:  # moving, for Survival (FAQ-25)
        yield fact("displaced", u)
    if unit.done.held:  # held still by Survival's AI wording: no attack either
        yield fact("stilled", u)
    if unit.done.targeted:  # attacked this turn by the turn's faction (Recruitable)
        yield fact("targeted", u)


def structure_facts(position: Position) -> Iterator[Symbol]:
    """Spire upgrades and talents, a revealed landmark's talents, whether the turn starts its round, gate
    health, each faction's Source and its capacity, and its morale die where the position gives one."""
    for spire in position.spires:
        s = String(spire.id)
        for index, upgrade in enumerate(spire.upgrades):
            yield fact("supgrade", s, Number(index), const(upgrade))
        for talent in spire.talents:
            yield fact("stalent", s, String(talent))
        for talent, number in spire.talent_numbers:
            yield fact("snumber", s, String(talent), Number(number))
        if spire.arrow:  # Directional Attack's line, nearest hex first
            for node in line_from(position.hexes, spire.at, spire.arrow):
                yield fact("sline", s, String(node))
        yield from _reward("sreward", s, reward=spire.reward)
        if spire.merc:
            yield fact("smerc", s)
        if spire.capacity is not None:
            yield fact("scap", s, Number(spire.capacity))
    for kind, left in (position.supply or {}).items():  # the upgrade chips left, where the position says
        yield fact("supply", const(kind), Number(left))
    for landmark in position.landmarks:  # face down, its talents do nothing (game-elements, Landmarks)
        if landmark.revealed:
            for talent in landmark.talents:
                yield fact("mtalent", String(landmark.id), String(talent))
        if landmark.faction:  # the faction that controls it (Source Link)
            yield fact("mfaction", String(landmark.id), String(landmark.faction))
        if landmark.reward is not None:  # the Source discarding it gains (Overload)
            yield fact("msource", String(landmark.id), Number(landmark.reward.source))
    if position.turn.first_of_round:  # the turn is the first of its round (Fountain)
        yield fact("round_start")
    if position.turn.last_of_round:  # the turn is the last of its round (chapter 4's rotten worms)
        yield fact("round_end")
    for gate in position.gates.values():
        if gate.fortress:  # a deployment point has no health: never attacked, never counted standing
            yield fact("gate_health", String(gate.faction), Number(gate.health))
    for faction in position.factions.values():
        yield fact("source_cap", String(faction.name), Number(faction.source_capacity))
        if faction.morale is not None:  # its morale die, once acquired (Morale)
            yield fact("morale", String(faction.name), Number(faction.morale))
        if faction.captives is not None:  # the minions it holds captured, by their faction (Capture's cap)
            yield fact("captives_known", String(faction.name))
            for other, count in faction.captives:
                yield fact("captives", String(faction.name), String(other), Number(count))


def barracks_facts(position: Position) -> Iterator[Symbol]:
    """barracks(U,F): unit U waits in faction F's barracks, off the board (its chips as chip_facts gives
    them), with unit/1, owner/2, kind/2; barracks_known(F): the position gives F's barracks;
    onslaught_first: the turn is its faction's first of the wave's Onslaught Phase; onslaught_start:
    the position stands at that phase's start; bdist(U,H,D): U,
    placed on map hex H beside a chip with Spawn of its faction, would be D steps from its mark
    (docs/movement.md d(n), its terrain allowance), which the AI's Spawn weighs."""
    if position.turn.first_of_onslaught:
        yield fact("onslaught_first")
    if position.turn.onslaught_start:  # the phase's start, before this turn's (Elfin)
        yield fact("onslaught_start")
    beside = {f: {n for chip in (*(u.at for u in position.units.values() if u.faction == f and u.at
                                   and "Spawn" in u.talents),
                                 *(s.at for s in position.spires if s.faction == f and "Spawn" in s.talents))
                  for n in position.neighbours(chip) if n in position.hexes}
              for f in position.factions}
    for name, info in sorted(position.factions.items()):
        if info.barracks is not None:  # what waits there is known (Evoke's AI)
            yield fact("barracks_known", String(name))
    for uid, unit in position.units.items():
        if not position.in_barracks(uid):
            continue
        u = String(uid)
        yield fact("barracks", u, String(unit.faction))
        yield fact("unit", u)
        yield fact("owner", u, String(unit.faction))
        yield fact("kind", u, const(KIND_NAMES[unit.kind]))
        if unit.promoted:  # promoted where it waits (Powerhouse: no worm to promote again)
            yield fact("promoted", u)
        dist = fields.mark_distances(position, unit.terrain, unit.faction, False, fields.own_mark(unit))
        for node in sorted(beside[unit.faction] & dist.keys()):
            yield fact("bdist", u, String(node), Number(dist[node]))


def locality_facts(position: Position) -> Iterator[Symbol]:
    """self_only(T): talent T, as a chip of the position spells it, acts only in the attacks that touch
    its own chip (its catalogue entry's acts_on)."""
    names = {t for u in position.units.values() for chip in (u, *u.group) for t in chip.talents}
    names |= {t for s in position.spires for t in s.talents}
    for name in sorted(names):
        talent = catalogue().resolve(name)
        if talent is not None and talent.acts_on == "self":
            yield fact("self_only", String(name))


def priority_facts(position: Position) -> Iterator[Symbol]:
    for level, name in enumerate(in_force(position.ai_priority, "units"), 1):
        yield fact("upri", Number(level), category(name))
    for level, name in enumerate(in_force(position.ai_priority, "spires"), 1):
        yield fact("spri", Number(level), category(name))


def dice_facts(die: Die, most: int, odds: str) -> Iterator[Symbol]:
    """dval(K,D): K dice can total D; dsil(K,D,Y): ... with (Y = yes) or without (no) a silencing face
    among them (dice.SILENCING); dthr(K,D): the most damage the AI counts on (ai-spire-odds)."""
    for dice in range(1, most + 1):
        totals = die.totals(dice)
        for total in totals:
            yield fact("dval", Number(dice), Number(total))
        for shown, word in ((True, "yes"), (False, "no")):
            for total in die.totals(dice, shown):
                yield fact("dsil", Number(dice), Number(total), const(word))
        yield fact("dthr", Number(dice), Number(_threshold(totals, odds)))


def weigh_facts(position: Position, readings: dict[str, str]) -> Iterator[Symbol]:
    """rthr(D): the most total a retaliation rolled with the spire die (hook rdie/3: Relentless) is
    counted on to reach before its roll, where an AI Riposte weighs it: under ai-spire-odds likely, the
    largest total at least half the rolls reach; under possible none is given (any total may be rolled)."""
    if readings.get("ai-spire-odds", "possible") != "likely":
        return
    carried = {t for u in position.units.values() for chip in (u, *u.group) for t in chip.talents}
    if any("rdie/3" in t.hooks for t in catalogue().known(carried)):
        yield fact("rthr", Number(shipped_die(readings.get("spire-die", "standard")).counted_on()))


def _threshold(totals: dict[int, Fraction], odds: str) -> int:
    if odds != "likely":
        return max(totals)
    # The largest D that at least half the rolls reach.
    return max(d for d in totals if sum(p for t, p in totals.items() if t >= d) >= Fraction(1, 2))


def range_facts(position: Position, query: CombatQuery) -> Iterator[Symbol]:
    """rmin(N1,N2,D): real hexes between chips' nodes, as far as any chip could reach; from the unit
    ``measure_from``, to every chip however far."""
    chips = {position.node_of(uid) for uid in position.units if position.placed(uid)}
    chips |= {s.at for s in position.spires}
    targets = chips | {g.node for g in position.gates.values()}
    targets |= {c.at for c in position.chips if c.health is not None}  # a waygate (Harbinger chapter 6)
    if any("Quake" in s.talents for s in position.spires):  # a player's Quake reaches landmarks in range
        targets |= {lm.at for lm in position.landmarks}
    targets |= {node for near in _teleport_hexes(position).values() for node in near}  # a unit may land there
    counts = fields.range_counts(position, chips, fields.range_bound(position))
    if query.measure_from is not None:
        node = position.node_of(query.measure_from)
        counts[node] = fields.range_counts(position, [node], None)[node]
    for source, dist in sorted(counts.items()):
        for node in sorted(targets & dist.keys()):
            yield _rmin(source, node, dist[node])
    if query.kind == ATTACK and query.mode == STEP:
        yield from _laid_range_facts(position, chips, targets, counts)


def _laid_range_facts(position: Position, chips: set[str], targets: set[str],
                      counts: dict[str, dict[str, int]]) -> Iterator[Symbol]:
    """Harbinger chapter 3: each board the step may leave once the keel place earthscapes they buy as Graft spires fall
    (asp/scenarios/chapter_3.lp): scape_board(B) with its placements scape_part(B,K,I), one of earthscape K of the
    stack (0 the top) at most a depth, no two sharing a cell, and scape_rmin(B,N1,N2,D) wherever its count of real
    hexes is less than rmin's, or rmin has none (a filled gap to count through). A line buys one earthscape a Graft
    spire's defeat, so no deeper in the stack than the Graft spires standing."""
    if position.earthscape_places is None:
        return
    falls = sum(1 for s in position.spires if s.faction == GRAFT)
    cards = (position.earthscape_places, *position.earthscape_stack)[:falls]
    bound = fields.range_bound(position)
    choices = [[None, *range(len(places))] for places in cards]
    number = 0
    for laid in product(*choices):
        parts = [(depth, i) for depth, i in enumerate(laid) if i is not None]
        cells = [h.name for depth, i in parts for h in cards[depth][i]]
        if not parts or len(cells) != len(set(cells)):
            continue
        hexes, adjacency = position.hexes, position.adjacency
        for depth, i in parts:
            hexes, adjacency = covered(hexes, adjacency, cards[depth][i])
        board = replace(position, hexes=hexes, adjacency=adjacency)
        yield fact("scape_board", Number(number))
        for depth, i in parts:
            yield fact("scape_part", Number(number), Number(depth), Number(i))
        for source, dist in sorted(fields.range_counts(board, chips, bound).items()):
            for node in sorted(targets & dist.keys()):
                if dist[node] < counts.get(source, {}).get(node, dist[node] + 1):
                    yield fact("scape_rmin", Number(number), String(source), String(node), Number(dist[node]))
        number += 1


@lru_cache(maxsize=1 << 16)
def _rmin(source: str, node: str, steps: int) -> Symbol:
    """The boards of a whole turn share most range facts: each made once (Symbols are values)."""
    return fact("rmin", String(source), String(node), Number(steps))


def teleport_facts(position: Position) -> Iterator[Symbol]:
    """Where a spire's talent may teleport a unit (its catalogue entry's teleports: Wallop's 3 hexes):
    hnear(S,H,D), map hex H is D real hexes from spire S, counted as range is, up to that count;
    mdist(U,A,H,D), unit U, on the map, would be D steps from its mark at such a hex (docs/movement.md
    d(n)) with terrain allowance A, only where that hex leads to its mark: every faction unit (a landmark
    minion a faction controls too: Wallop's "an adjacent unit"), as a teleport may bring one beside
    another such spire, and each allowance it may have (its chip's, one a talent sets: Sure-Footed,
    Cumbersome), as the one it has then is the one counted."""
    near: set[str] = set()
    for sid, hexes in _teleport_hexes(position).items():
        for node, steps in sorted(hexes.items()):
            near.add(node)
            yield fact("hnear", String(sid), String(node), Number(steps))
    if not near:
        return
    for unit in position.units.values():
        if unit.at is None or unit.at not in position.hexes or (
                unit.kind is Kind.LANDMARK_MINION and not position.controlled(unit)):
            continue  # in its gate, or a landmark minion no faction controls: never teleported
        for allowance in sorted(allowances(unit), key=lambda t: t.level):
            dist = fields.mark_distances(position, allowance, unit.faction, False, fields.own_mark(unit))
            for node in sorted(near & dist.keys()):
                yield fact("mdist", String(unit.id), const(allowance.value), String(node), Number(dist[node]))


def _teleport_hexes(position: Position) -> dict[str, dict[str, int]]:
    """Spire → the map hexes a talent of it may teleport a unit to, with their count of real hexes from it."""
    found = {}
    for spire in position.spires:
        reach = max((t.teleports for t in catalogue().known(spire.talents)), default=0)
        if reach:
            counts = fields.range_counts(position, [spire.at], reach)[spire.at]
            found[spire.id] = {n: d for n, d in counts.items() if n in position.hexes and n != spire.at}
    return found


def nearest_facts(position: Position) -> Iterator[Symbol]:
    """sdist(S,N,D): node N is D real hexes from spire S, counted as range is, however far: for the spires
    of each faction a talent in play names as the one whose nearest spire it acts on (its catalogue
    entry's nearest: Pollinate, keel), its own or one a spire gives (Imbue: Pollinate)."""
    named = {t.nearest for _, t in _nearing(position)}
    for spire in position.spires:
        if spire.faction in named:
            dist = fields.range_counts(position, [spire.at], None)[spire.at]
            for node, steps in sorted(dist.items()):
                yield fact("sdist", String(spire.id), String(node), Number(steps))


def _nearing(position: Position) -> list[tuple[str, Talent]]:
    """(unit, talent): each unit that may hold a talent with a ``nearest`` as it falls: on a chip of its
    group, or given by a spire's talent (grants), which any unit on the map may be given."""
    given = [g for s in position.spires for t in catalogue().known(s.talents) for g in t.grants]
    found = []
    for uid, unit in position.units.items():
        names = {n for chip in (unit, *unit.group) for n in chip.talents} | (set(given) if unit.at else set())
        found += [(uid, t) for t in catalogue().known(sorted(names)) if t.nearest]
    return found


def query_facts(query: CombatQuery) -> Iterator[Symbol]:
    yield fact("combat", const(query.kind))
    yield fact("mode", const(query.mode))
    yield fact("side", String(query.side))
    yield fact("horizon", Number(query.horizon))
    if query.quick:
        yield fact("quick")
    if query.split:
        yield fact("split")
    for time, attacker, target in query.line.attacks:
        yield fact("play", Number(time), attacker, target)
    for time, hero, option in query.line.level_ups:
        yield fact("play_lv", Number(time), hero, option)
    for faction in sorted(query.ai_factions):
        yield fact("ai", String(faction))
    for uid in query.units:
        yield fact("single", String(uid))
    for index, spire in enumerate(query.fire_order, 1):
        yield fact("fire_order", String(spire), Number(index))
    for name, value in sorted(query.readings.items()):
        yield fact("reading", const(READING_NAMES.get(name, name)), const(value))


def combat_facts(position: Position, query: CombatQuery) -> list[Symbol]:
    """All facts clingo receives for a combat ``query`` on ``position``."""
    facts = [
        *board_facts(position),
        *unit_facts(position),
        *chip_facts(position),
        *barracks_facts(position),
        *structure_facts(position),
        *locality_facts(position),
        *priority_facts(position),
        *range_facts(position, query),
        *teleport_facts(position),
        *nearest_facts(position),
        *query_facts(query),
        *weigh_facts(position, query.readings),
    ]
    if query.kind == "start":
        facts += stride_facts(position)
    if query.kind == EXPLORE:
        facts += explore_facts(position)
    if query.die is not None:
        most = max((s.upgrades.count("attack") + _gains(s) for s in position.spires), default=0)
        most += len({uid for uid, _ in _nearing(position)})  # each may add one at a spire's bottom (Pollinate)
        most = max(most, 1)  # one die at least: chapter 2's cannons roll one each, with no spire on the board
        facts += dice_facts(query.die, most, query.readings.get("ai-spire-odds", "possible"))
    return facts


def stride_facts(position: Position) -> Iterator[Symbol]:
    """ray(U,D,I,H): map hex H is the I-th along the straight line from unit U's map hex in direction D,
    for a unit with a talent that moves it so (its catalogue entry's strides: Prowl's 2 hexes)."""
    for unit in position.units.values():
        far = max((t.strides for t in catalogue().known(unit.talents)), default=0)
        if not far or unit.at not in position.hexes:
            continue
        for way in range(6):
            for index, node in enumerate(stride(position.hexes, unit.at, way, far), start=1):
                yield fact("ray", String(unit.id), Number(way), Number(index), String(node))


def explore_facts(position: Position) -> Iterator[Symbol]:
    """The face-down landmarks a unit may explore (asp/combat/explore.lp), and the talents of those the
    position says what lies face down of (Landmark.known: a player who looked with Lookout)."""
    for landmark in position.landmarks:
        if not landmark.revealed:
            yield fact("facedown", String(landmark.id))
            for talent in landmark.talents:
                yield fact("ftalent", String(landmark.id), String(talent))


def _gains(spire: Spire) -> int:
    """How many upgrades, an attack one perhaps, the spire may gain in Spires Fire: one after each of its
    shots where a talent of its gives it one (hook sgain/4: Inferno), so that its dice are counted."""
    known = catalogue().known(spire.talents)
    return max((t.shots for t in known), default=1) if any("sgain/4" in t.hooks for t in known) else 0
