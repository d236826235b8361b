"""Distance fields: the breadth-first counts the encodings take as input facts.

game-elements, Making Progress: "count the shortest distance in hexes (adhering to your minion's
terrain allowance) ... count hexes occupied by units but not spires or landmarks". Attacking: range
counts real hexes only, occupied or not, and the fortress only at its gate hex.

The grounder needs about a hundred times longer for the same layered count (docs/performance.md), so
it is done here once per class and handed to clingo as dist/3 and rdist/3.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable

from adjudicator.position.model import Kind, Position, Spire, Terrain, Unit
from adjudicator.position.movement_stat import allowances, movement_bound
from adjudicator.position.talents import Talent, catalogue


def obstacles(position: Position) -> frozenset[str]:
    """Hexes never counted through: spires and landmarks, revealed landmark minions included, and
    other chips."""
    blocked = {s.at for s in position.spires} | {lm.at for lm in position.landmarks}
    blocked |= {u.at for u in position.units.values() if u.kind is Kind.LANDMARK_MINION and u.at}
    return frozenset(blocked) | other_chips(position)


def other_chips(position: Position) -> frozenset[str]:
    """Hexes of other chips (Position.chips): not counted through even by a unit that passes through
    spires and landmarks (docs/movement.md, Other chips); but not those entered as path hexes."""
    return frozenset(c.at for c in position.chips) - paved(position)


def paved(position: Position) -> frozenset[str]:
    """Hexes of chips whose talent lets units move onto them as if they were path hexes (hook paved/2:
    Exposure, the toxic fumes chip): counted through, and as path terrain (docs/movement.md, Exposure)."""
    return frozenset(c.at for c in position.chips
                     if any("paved/2" in t.hooks for t in catalogue().known(c.talents)))


def _bfs(position: Position, goals: tuple[str, ...], passable: Callable[[str], bool]) -> dict[str, int]:
    """Steps from every node to the nearest of ``goals``; only nodes accepted by ``passable`` are passed
    through."""
    dist = dict.fromkeys(goals, 0)
    queue = deque(goals)
    while queue:
        node = queue.popleft()
        for near in sorted(position.neighbours(node)):
            if near not in dist and passable(near):
                dist[near] = dist[node] + 1
                queue.append(near)
    return dist


# The last fields counted, by position (held, so that its id is not reused) and class: a question
# needs each field twice, for its reach and for its facts. Positions are never changed in place.
_COUNTED: dict[tuple[int, Terrain, str, bool, str | None], tuple[Position, dict[str, int]]] = {}


def _defines(unit: Unit, hook: str) -> bool:
    """Some talent of the unit has a file that may define ``hook`` (name/arity, its catalogue entry):
    what Python must know of a talent it reads from there, never from the talent's name."""
    return any(hook in t.hooks for t in catalogue().known(unit.talents))


def counts_through(unit: Unit) -> bool:
    """A minion or hero whose distance counts through spires and landmarks too (hook counts_through/2:
    Breakneck, "may pass through units, spires, and landmarks"; docs/movement.md, Breakneck)."""
    return unit.kind in (Kind.MINION, Kind.HERO) and _defines(unit, "counts_through/2")


def own_mark(unit: Unit) -> str | None:
    """The unit's id when it has a mark of its own (a Harbinger chapter's), else None: its faction's."""
    return unit.id if unit.mark is not None else None


def mark_distances(
    position: Position, allowance: Terrain, faction: str, through: bool = False, owner: str | None = None
) -> dict[str, int]:
    """``d(n)`` for units of ``faction`` with that terrain allowance (docs/movement.md); with
    ``through``, counted through spires and landmarks as well (not other chips); with ``owner``, to
    that unit's own mark. The caller must not change the dict returned."""
    key = (id(position), allowance, faction, through, owner)
    counted = _COUNTED.get(key)
    if counted is not None and counted[0] is position:
        return counted[1]
    if len(_COUNTED) >= 32:
        _COUNTED.clear()
    dist = _count_marks(position, allowance, faction, through, owner)
    _COUNTED[key] = (position, dist)
    return dist


def _count_marks(
    position: Position, allowance: Terrain, faction: str, through: bool, owner: str | None
) -> dict[str, int]:
    goals = position.mark_nodes(faction, owner)
    if not goals:
        return {}
    blocked = other_chips(position) if through else obstacles(position)
    paths = paved(position)

    def countable(node: str) -> bool:
        hex_ = position.hexes.get(node)
        admitted = hex_ is not None and (hex_.terrain.level <= allowance.level or node in paths)
        return admitted and node not in blocked

    dist = _bfs(position, goals, countable)
    # A unit waiting in its own gate counts from the gate node.
    own = position.gates.get(faction)
    if own is not None and own.node not in goals:
        steps = [dist[h] for h in own.beside if h in dist]
        if steps:
            dist[own.node] = 1 + min(steps)
    return dist


def range_distances(position: Position, faction: str, owner: str | None = None) -> dict[str, int]:
    """Steps from ``faction``'s mark (``owner``'s own, when given) over map hexes of any terrain and gate
    nodes, through anything: counted as attack range is (docs/combat.md, Range), so a hero in its gate
    has a count too. None for a mark of hexes beside a chip (Mark.beside): a place to stand on, not a
    chip to attack, so an AI hero goes as close to it as it can (docs/movement.md)."""
    mark = position.mark_of(owner) if owner is not None else position.factions[faction].mark
    goals = position.mark_nodes(faction, owner)
    if not goals or mark.beside is not None:
        return {}
    return _bfs(position, goals, lambda node: True)


def range_counts(position: Position, sources: Iterable[str], bound: int | None) -> dict[str, dict[str, int]]:
    """From each source node, the real hexes to every node within ``bound`` (None: no bound).

    game-elements, Hero Attacks: range counts hexes, occupied or not, "not ... through non-hexes
    such as gaps ... or any other part of the fortress except the fortress gate hex": map hexes and
    gate nodes, whatever their terrain (docs/combat.md, Range).
    """
    counts = {}
    # The counts hang on the map and the gates alone, which the boards of a whole turn share: each is
    # counted once for them all (the callers only read them).
    geometry = (position.adjacency, tuple(sorted((f, g.beside) for f, g in position.gates.items())))
    if _RANGES[0] is not geometry[0] or _RANGES[1] != geometry[1]:
        _RANGES[:] = [geometry[0], geometry[1], {}]
    known: dict[tuple[str, int | None], dict[str, int]] = _RANGES[2]
    for source in sorted(set(sources)):
        dist = known.get((source, bound))
        if dist is None:
            dist = known[(source, bound)] = _range_count(position, source, bound)
        counts[source] = dist
    return counts


# The map the counts in the dict were made on, its gates' beside hexes, and the counts by source and bound.
_RANGES: list = [None, None, {}]


def _range_count(position: Position, source: str, bound: int | None) -> dict[str, int]:
    dist = {source: 0}
    queue = deque([source])
    while queue:
        node = queue.popleft()
        if bound is not None and dist[node] >= bound:
            continue
        for near in sorted(position.neighbours(node)):
            if near not in dist:
                dist[near] = dist[node] + 1
                queue.append(near)
    return dist


def spire_range(spire: Spire) -> int:
    """A spire's range: 1 plus its range upgrades (docs/combat.md, Chips and their stats)."""
    return 1 + spire.upgrades.count("range")


def active_talents(position: Position) -> list[Talent]:
    """The known talents of every unit's active chip, every spire and every other chip (chips waiting in a
    group act not)."""
    carried = [t for u in position.units.values() for t in u.talents] + [t for s in position.spires for t in s.talents]
    carried += [t for c in position.chips for t in c.talents]
    return catalogue().known(carried)


def teleports_units(position: Position) -> bool:
    """A chip's talent may teleport a moving unit to another chip anywhere on the board (hook warps/4:
    Riftwalk), or a unit's may move a landmark (shifts/5: Twister), which changes every distance to a
    mark: a unit's move then reads further than its movement. A Secret Passage is a landmark's."""
    passages = [name for lm in position.landmarks if lm.health is not None for name in lm.talents]
    return any({"warps/4", "shifts/5"} & set(t.hooks) for t in [*active_talents(position), *catalogue().known(passages)])


def shift_reach(position: Position) -> int:
    """The farthest count of hexes from its unit a talent moving landmarks (hook shifts/5: Twister) takes
    one from, its catalogue entry's reach; 0 where none is in play."""
    return max((t.reach for t in active_talents(position) if "shifts/5" in t.hooks), default=0)


def aim_reach(position: Position) -> int:
    """The farthest count of hexes from its unit a talent deals damage to a unit as units move (catalogue:
    aims; Magic-Like Missile's 3); 0 where none is in play."""
    return max((t.aims for t in active_talents(position)), default=0)


def range_bound(position: Position) -> int:
    """How far any chip could reach this turn: the longest range stat, every range upgrade any chip
    carries, and one more for a range upgrade a hero may gain by leveling up; at least as far as a
    talent's wording measures from its chip (its catalogue entry's reach: Challenge's 3 hexes)."""
    stats = [u.stats.range for u in position.units.values()]
    stats += [g.stats.range for u in position.units.values() for g in u.group]
    stats += [u.promoted_stats.range for u in position.units.values() if u.promoted_stats]
    upgrades = [u.upgrades.count("range") for u in position.units.values()]
    upgrades += [s.upgrades.count("range") for s in position.spires]
    chips = [*position.units.values(), *(g for u in position.units.values() for g in u.group), *position.spires]
    reaches = [t.reach for c in chips for t in catalogue().known(c.talents)]
    reaches += [n for c in chips for name, n in c.talent_numbers
                if (t := catalogue().talents.get(name)) is not None and t.reach_number]  # Absorb #: the chip's own #
    return max([max(stats, default=1) + max(upgrades, default=0) + 1, *reaches])


# Steps an escape from invalid terrain may look ahead (asp/movement/minion.lp, escaper/3).
ESCAPE_LOOKAHEAD = 16


def move_radii(position: Position, units: Iterable[str]) -> dict[str, int]:
    """How far from where it stands each unit's move reads or changes the board: its movement (the
    most talents can make it), plus one for a displaced unit's landing, and one more for a chip that
    hurts units landing beside it; an escape from invalid terrain (for any allowance it may have)
    looks further; a talent placing the unit once its move ends (aftermove_place/4: Disperse) as far
    again as its catalogue's ``places``; one teleporting it (Tracker) its # and the hex beside."""
    blocked = obstacles(position)
    # A talent that hurts or heals a unit moving or displaced onto a hex beside its chip (hooks hurts/4,
    # mends/4: Toxic Secretion, Refresh) reads one hex past the farthest landing.
    beside = int(any({"hurts/4", "mends/4"} & set(t.hooks) for t in active_talents(position)))
    # A teleport (hook warps/4: Riftwalk) may take a move to a chip anywhere: it reads the whole board.
    anywhere = len(position.hexes) + len(position.gates) if teleports_units(position) else 0
    radii = {}
    for uid in units:
        unit = position.units[uid]
        # A talent that places the unit (Disperse) or hits a unit (Magic-Like Missile) past its move's end.
        further = max((max(t.places, t.aims) for t in catalogue().known(unit.talents)), default=0)
        # A talent that calls a friendly minion from anywhere to beside it (Call Minion) reads the whole board,
        # as one reading the paths to the marks (Build Waygate).
        calls = (len(position.hexes) + len(position.gates)
                 if callers(position, [uid]) or summoner(unit) or surveyor(unit) else 0)
        radius = max(max(movement_bound(unit), _roost_bound(position, unit)) + 1 + beside + further, anywhere,
                     self_teleport(unit) + 1, calls)
        if walks_as_minion(position, unit) and invalid_start(position, unit, blocked):
            radius += ESCAPE_LOOKAHEAD
        radii[uid] = radius
    return radii


def _roost_bound(position: Position, unit: Unit) -> int:
    """How far a unit that may move onto a roost and on from it (hook roosts/4: an elfinkaze) walks at
    most: the largest Roost number of its faction's chips, its movement stat from such a chip on."""
    if not _defines(unit, "roosts/4"):
        return 0
    from adjudicator.position.load import ROOST  # load imports this module
    chips = [*position.units.values(), *position.spires]
    return max((n for c in chips if c.faction == unit.faction for t, n in c.talent_numbers if t == ROOST), default=0)


def callers(position: Position, units: Iterable[str]) -> list[str]:
    """Those of ``units`` holding a talent that teleports a friendly unit to beside them or their chip
    (catalogue: calls; Call Minion), and every hero where a revealed landmark holds one (Summon Hero)."""
    summoning = any(t.calls for lm in position.landmarks if lm.revealed for t in catalogue().known(lm.talents))
    return [uid for uid in units if any(t.calls for t in catalogue().known(position.units[uid].talents))
            or (summoning and position.units[uid].kind is Kind.HERO)]


def summoner(unit: Unit) -> bool:
    """The unit holds a talent that summons a unit of its barracks onto the closest path hex (catalogue:
    summons; Evoke): its move reads the whole board."""
    return any(t.summons for t in catalogue().known(unit.talents))


def surveyor(unit: Unit) -> bool:
    """The unit holds a talent whose encoding reads the whole board's terrain (catalogue: whole_board; Build
    Waygate's path to the marks): its move reads the whole board."""
    return any(t.whole_board for t in catalogue().known(unit.talents))


def called(position: Position, units: Iterable[str]) -> list[str]:
    """The minions of their factions on map hexes that such units of ``units`` may call (asp/talents/
    call_minion.lp reads their distance fields): every other minion of a caller's faction."""
    factions = {position.units[uid].faction for uid in callers(position, units) if position.units[uid].kind is not Kind.HERO
                or any(t.calls for t in catalogue().known(position.units[uid].talents))}
    return sorted(uid for uid, u in position.units.items()
                  if u.faction in factions and u.kind is Kind.MINION and position.placed(uid) in position.hexes)


def self_teleport(unit: Unit) -> int:
    """The most hexes a talent of the unit teleports it (catalogue: teleports_self, its #: Tracker); 0 none."""
    numbers = dict(unit.talent_numbers)
    return max((numbers.get(t.name, 0) for t in catalogue().known(unit.talents) if t.teleports_self), default=0)


def self_teleport_counts(position: Position, unit: Unit) -> set[str]:
    """The map hexes such a talent may teleport the unit to, counted as range is (range_counts)."""
    bound = self_teleport(unit)
    if not bound or unit.at is None:
        return set()
    return {n for n in range_counts(position, [unit.at], bound)[unit.at] if n in position.hexes}


def walks_as_minion(position: Position, unit: Unit) -> bool:
    """The unit moves as a minion: a minion, or a landmark minion a faction controls (asp/movement/deployment.lp,
    lmoves/1: its movement stat counts once a faction controls it)."""
    return unit.kind is Kind.MINION or position.controlled(unit)


def invalid_start(position: Position, unit: Unit, blocked: frozenset[str] | None = None) -> bool:
    """The minion stands on a hex it may not stand on, or one that does not lead to its mark, for
    some allowance it may have (asp/core/distance.lp, invalid_start/1): its move begins with an escape.
    A controlled landmark minion's own hex blocks others alone: it leads on where a node beside it that the
    field counts does (a map hex, or the mark: asp/core/distance.lp, ldist/2)."""
    start = unit.at
    if start is None:
        return False
    if blocked is None:
        blocked = obstacles(position)
    paths = paved(position)
    own = position.controlled(unit)

    def leads(field: dict[str, int]) -> bool:
        if not own or field.get(start) == 0:  # on its mark, a controlled landmark minion is 0 away
            return start in field
        return any(n in field and (n in position.hexes or field[n] == 0) for n in position.neighbours(start))

    return (start in blocked and not own) or any(
        (position.hexes[start].terrain.level > allowance.level and start not in paths)
        or not leads(mark_distances(position, allowance, unit.faction, counts_through(unit), own_mark(unit)))
        for allowance in allowances(unit)
    )


def pushable(unit: Unit) -> bool:
    """Others' moves may displace it: a hero (Blocking Movement), or a unit with a talent that may
    open it to displacement (hook displaceable/2: Flying, Peaceful, "Other units may displace this unit")."""
    return unit.kind is Kind.HERO or _defines(unit, "displaceable/2")


def step_radii(position: Position, units: Iterable[str]) -> dict[str, int]:
    """``move_radius`` of each unit over a whole step: one that others may push may stand anywhere
    the farthest pusher reaches before it moves, so it reaches as far again."""
    radius = move_radii(position, units)
    farthest = max(radius.values(), default=0)
    return {u: r + farthest if pushable(position.units[u]) else r for u, r in radius.items()}


def ball(position: Position, start: str, radius: int) -> set[str]:
    """Every node within ``radius`` steps of ``start``, whatever stands or grows there. A radius of the
    whole board stands for a move that reads all of it (a teleport to a chip anywhere: move_radii), so it
    takes every piece of a map in pieces too, which no walk reaches: a position may describe two parts
    of a board."""
    if radius >= len(position.hexes) + len(position.gates):
        return {*position.hexes, *(gate.node for gate in position.gates.values())}
    seen = {start}
    frontier = deque([(start, 0)])
    while frontier:
        node, steps = frontier.popleft()
        if steps == radius:
            continue
        for near in position.neighbours(node):
            if near not in seen:
                seen.add(near)
                frontier.append((near, steps + 1))
    return seen


def reach(position: Position, radii: dict[str, int]) -> frozenset[str]:
    """The nodes the moves of these units (unit → radius) can read or change."""
    nodes: set[str] = set()
    for unit, radius in radii.items():
        nodes |= ball(position, position.node_of(unit), radius)
    return frozenset(nodes)
