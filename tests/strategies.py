"""Hypothesis strategies for small, valid movement positions, and helpers to build and show them.

Boards are small (at most 40 hexes, 8 units) so that brute force stays fast.  The moving faction is
``heirs``; its minions are placed close together so that blocking and displacement happen often.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

import yaml
from hypothesis import assume
from hypothesis import strategies as st

from adjudicator.facts import fields
from adjudicator.position.hexmap import hex_name, neighbour_cells, parse_map
from adjudicator.position.model import (
    Chip,
    Controller,
    Done,
    Faction,
    Gate,
    GroupedChip,
    Kind,
    Landmark,
    Mark,
    Position,
    Reward,
    Spire,
    Stats,
    Terrain,
    Turn,
    Unit,
)
from adjudicator.position.scenarios import MAX_HEROES_CHAPTER_1, Scenario

from tests.reference import talents as reference_talents

MOVER, OPPONENT = "heirs", "narora"
MAX_UNITS = 8

# ------------------------------------------------------------------------------------- building


def unit(
    id: str,
    faction: str,
    at: str | None,
    movement: int,
    *,
    kind: Kind = Kind.MINION,
    terrain: Terrain = Terrain.PATH,
    range: int = 1,
    campfire: bool = False,
    moved: bool = False,
    talents: tuple[str, ...] = (),
    grouped: bool = False,
    must_move: bool = False,
    health: int = 2,
) -> Unit:
    """A unit with just what movement needs; ``grouped``: one chip waits beneath it."""
    stats = Stats(health=health, attack=1, movement=movement, range=range)
    group = (GroupedChip(f"{id} below", stats),) if grouped else ()
    return Unit(
        id, id, faction, kind, health, stats, at, terrain=terrain, talents=talents, group=group,
        campfire=campfire, done=Done(moved=moved), must_move=must_move,
    )


def build(
    map_text: str,
    units: Iterable[Unit],
    *,
    gates: dict[str, tuple[str, ...]],
    stacks: dict[str, tuple[str, ...]] | None = None,
    marks: dict[str, Mark] | None = None,
    controllers: dict[str, Controller] | None = None,
    spires: Iterable[str] = (),
    spire_chips: Iterable[Spire] = (),  # spires with a faction, upgrades or talents of their own
    landmarks: Iterable[tuple[str, bool]] = (),
    chips: Iterable[str] = (),  # hexes of other chips
    readings: dict[str, str] | None = None,
) -> Position:
    """A position for ``heirs`` to move in; by default each faction's mark is the other's gate."""
    hexes, adjacency, problems = parse_map(map_text)
    assert not problems, problems
    stacks = stacks or {}
    marks = marks or {}
    controllers = controllers or {}
    factions = {
        name: Faction(
            name,
            controllers.get(name, Controller.PLAYER),
            marks.get(name, Mark(gate=OPPONENT if name == MOVER else MOVER)),
        )
        for name in (MOVER, OPPONENT)
    }
    return Position(
        hexes=hexes,
        adjacency=adjacency,
        gates={f: Gate(f, beside, stack=stacks.get(f, ())) for f, beside in gates.items()},
        factions=factions,
        units={u.id: u for u in units},
        turn=Turn(MOVER),
        spires=(*(Spire(f"spire{i}", OPPONENT, at) for i, at in enumerate(spires)), *spire_chips),
        landmarks=tuple(
            Landmark(f"landmark{i}", at, revealed=shown) for i, (at, shown) in enumerate(landmarks)
        ),
        chips=tuple(Chip(f"chip{i}", at) for i, at in enumerate(chips)),
        readings=dict(readings or {}),
    )


def renamed(position: Position, names: dict[str, str], spires: tuple[Spire, ...] | None = None) -> Position:
    """``position`` with its factions renamed by ``names`` (a name it leaves out stays), in their gates,
    marks, units, spires (or ``spires``, renamed already) and turn."""
    def name(faction: str) -> str:
        return names.get(faction, faction)

    return replace(
        position,
        gates={name(f): replace(g, faction=name(f)) for f, g in position.gates.items()},
        factions={name(n): replace(f, name=name(n), mark=replace(f.mark, gate=name(f.mark.gate)) if f.mark.gate else f.mark)
                  for n, f in position.factions.items()},
        units={uid: replace(u, faction=name(u.faction)) for uid, u in position.units.items()},
        spires=spires if spires is not None else tuple(replace(s, faction=name(s.faction)) for s in position.spires),
        turn=replace(position.turn, faction=name(position.turn.faction)),
    )


def describe(position: Position) -> str:
    """The position in the position-file format, to paste into a file and reproduce a failure."""
    rows = max(h.row for h in position.hexes.values())
    columns = max(h.column for h in position.hexes.values()) + 1
    letters = {terrain: letter for letter, terrain in (("p", Terrain.PATH), ("l", Terrain.PLAINS),
               ("f", Terrain.FOREST), ("m", Terrain.MOUNTAINS), ("w", Terrain.WATER))}
    picture = []
    for row in range(1, rows + 1):
        cells = [position.hexes.get(hex_name(c, row)) for c in range(columns)]
        tokens = ["." if h is None else "r" if h.rock else letters[h.terrain] + ("*" if h.well else "") for h in cells]
        picture.append(f"{row:<3}" + (" " if row % 2 == 0 else "") + " ".join(tokens))

    def mark(m: Mark) -> dict[str, str] | str:
        return {k: v for k, v in (("gate", m.gate), ("unit", m.unit), ("hex", m.hex)) if v is not None} or "none"

    document = {
        "format": "cloudspire-position/1",
        "map": "\n".join(picture) + "\n",
        "gates": {
            g.faction: {"beside": list(g.beside), "health": g.health, "stack": list(g.stack)}
            for g in position.gates.values()
        },
        "factions": {
            f.name: {"controller": f.controller.value, "mark": mark(f.mark),
                     **({"source": f.source} if f.source else {}),
                     **({"motility": f.motility} if f.motility is not None else {}),
                     **({"barracks": list(f.barracks)} if f.barracks is not None else {})}
            for f in position.factions.values()
        },
        "turn": {"faction": position.turn.faction, "step": position.turn.step,
                 **({"first-of-round": position.turn.first_of_round}
                    if position.turn.first_of_round is not None else {}),
                 **({"first-of-onslaught": position.turn.first_of_onslaught}
                    if position.turn.first_of_onslaught is not None else {}),
                 **({"last-of-round": position.turn.last_of_round} if position.turn.last_of_round is not None else {})},
        "spires": {
            s.id: {"faction": s.faction, "at": s.at, "upgrades": list(s.upgrades), "talents": list(s.talents)}
            for s in position.spires
        },
        # A face-down landmark's talents only where the position says what lies face down (known).
        "landmarks": {lm.id: {"at": lm.at, "revealed": lm.revealed,
                              **({"talents": list(lm.talents)} if lm.revealed or lm.known else {})}
                      for lm in position.landmarks},
        "chips": {c.id: _chip_document(c) for c in position.chips},
        "units": {u.id: _unit_document(u) for u in position.units.values()},
        "readings": dict(position.readings),
    }
    if position.scenario is not None:
        document["scenario"] = {"chapter": position.scenario.chapter, "wave": position.scenario.wave}
        if position.scenario.event is not None:
            document["scenario"]["event"] = list(position.scenario.event)
    return yaml.dump(document, Dumper=_Dumper, sort_keys=False, default_flow_style=None, width=110)


class _Dumper(yaml.SafeDumper):
    """Writes the map picture as a literal block, the way position files show it."""


def _text(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style="|" if "\n" in text else None)


_Dumper.add_representer(str, _text)


def _chip_document(c: Chip) -> dict[str, object]:
    doc: dict[str, object] = {"at": c.at}
    if c.name:
        doc["name"] = c.name
    if c.health is not None:
        doc["health"] = c.health
    if c.talents:
        doc["talents"] = list(c.talents)
    if c.count != 1:
        doc["count"] = c.count
    if c.infest is not None:
        doc["infest"] = c.infest
    return doc


def written_talents(talents: tuple[str, ...], numbers: tuple[tuple[str, int], ...]) -> list[str]:
    """Talents as a file writes them, a numbered one with its # ("2 Roost")."""
    given = dict(numbers)
    return [f"{given[t]} {t}" if t in given else t for t in talents]


def _unit_document(u: Unit) -> dict[str, object]:
    document: dict[str, object] = {"chip": u.chip, "faction": u.faction, "kind": u.kind.value}
    if u.at is not None:
        document["at"] = u.at
    document["health"] = u.health
    document["stats"] = {"health": u.stats.health, "attack": "*" if u.stats.star else u.stats.attack,
                         "movement": u.stats.movement, "range": u.stats.range}
    document["terrain"] = u.terrain.value
    if u.talents:
        document["talents"] = written_talents(u.talents, u.talent_numbers)
    if u.mark is not None:
        document["mark"] = {k: v for k, v in (("gate", u.mark.gate), ("unit", u.mark.unit), ("hex", u.mark.hex)) if v}
    if u.group:
        document["group"] = [{"chip": g.chip, "stats": {"health": g.stats.health, "attack": g.stats.attack,
                              "movement": g.stats.movement}} for g in u.group]
    if u.campfire:
        document["campfire"] = True
    if u.done.moved:
        document["done"] = {"moved": True}
    if u.must_move:
        document["must-move"] = True
    if u.used:
        document["used"] = list(u.used)
    return document


# ------------------------------------------------------------------------------------ generating

FIELD_TERRAIN = "p" * 5 + "l" * 4 + "fwm."  # path and plains, a little of the rest
WALL_TERRAIN = "f" * 3 + "w" * 2 + "m" * 2 + "l."  # what a path corridor winds through
HERO_TERRAIN = (Terrain.PATH, Terrain.PLAINS) + (Terrain.FOREST,) * 2 + (Terrain.MOUNTAINS, Terrain.WATER)
MINION_TERRAIN = (Terrain.PATH,) * 4 + (Terrain.PLAINS, Terrain.PLAINS, Terrain.FOREST)
# Talents that change movement: "Other units may displace this unit" (Flying ungrouped, Peaceful);
# "may move through opposing units" (Incorporeal); passing through anything, closest ends (Breakneck);
# displacing opposing units with less health (Crush: its unit has 2 or 3 health, every other 2): those the
# catalogue encodes on a passing hook that the reference checks (tests/reference/talents).
PASSING_HOOKS = ("displaceable/2", "through/3", "crushes/3")
TALENTS = ((),) * 5 + tuple((t,) for t in reference_talents.drawable("unit", ("movement",), core="movement", hooks=PASSING_HOOKS))
# Spires: mostly the opponent's, sometimes with a talent that sets a unit's movement stat (Snare: a range
# upgrade widens it).
SPIRE_FACTIONS = (OPPONENT,) * 3 + (MOVER,)
SPIRE_UPGRADES = ((),) * 2 + (("range",),)
SPIRE_TALENTS = ((),) + tuple((t,) for t in reference_talents.drawable("spire", ("movement",), moments=("smv_set",)))
# Talents that change the movement stat or the terrain allowance, or where the AI ends, on a few units:
# those registered at those moments of the reference (Speed, Sure-Footed, Gust, Waterwalker).
STAT_MOMENTS = ("mv_add", "mv_may", "allow_gain", "ai_end_pref")
STAT_TALENTS = ((),) * 3 + tuple((t,) for t in reference_talents.drawable("unit", ("movement",), moments=STAT_MOMENTS))


def _cells(rows: int, columns: int) -> list[tuple[int, int]]:
    return [(c, r) for r in range(1, rows + 1) for c in range(columns)]


@st.composite
def _field(draw: st.DrawFn, rows: int, columns: int) -> dict[tuple[int, int], str]:
    """An open field of path and plains."""
    return {cell: draw(st.sampled_from(FIELD_TERRAIN)) for cell in _cells(rows, columns)}


@st.composite
def _corridor(draw: st.DrawFn, rows: int, columns: int) -> dict[tuple[int, int], str]:
    """A path winding from the left edge to the right edge through harder terrain."""
    grid = {cell: draw(st.sampled_from(WALL_TERRAIN)) for cell in _cells(rows, columns)}
    cell = (0, draw(st.integers(1, rows)))
    grid[cell] = "p"
    sideways = rows  # steps within a column, so that the walk always ends
    while cell[0] < columns - 1:
        around = [n for n in neighbour_cells(*cell) if n in grid]
        forward = sorted(n for n in around if n[0] > cell[0])
        within = sorted(n for n in around if n[0] == cell[0]) if sideways else []
        step = draw(st.sampled_from(forward + within))
        sideways -= step in within
        cell = step
        grid[cell] = "p"
    return grid


def _map_text(grid: dict[tuple[int, int], str], rows: int, columns: int) -> str:
    return "\n".join(f"{r} " + " ".join(grid[(c, r)] for c in range(columns)) for r in range(1, rows + 1))


def _near(hexes: list[str], centre: tuple[int, int], position_of: dict[str, tuple[int, int]]) -> list[str]:
    """Hexes by closeness to a cell (rough, for placing units in a cluster)."""

    def distance(name: str) -> tuple[int, str]:
        c, r = position_of[name]
        return (abs(c - centre[0]) + abs(r - centre[1]), name)

    return sorted(hexes, key=distance)


# Talents that hurt units as they move: the one solve does not take them (the step is searched).
HURTING = ("Toxic Secretion", "Lahar")


def unhurt(position: Position) -> Position:
    """The position without the talents that hurt moving units, for checks of the one solve."""
    units = {uid: replace(u, talents=tuple(t for t in u.talents if t not in HURTING)) for uid, u in position.units.items()}
    return replace(position, units=units)


def keeping(u: Unit, talents: tuple[str, ...]) -> Unit:
    """``u`` with only ``talents``; what rests on one it drops goes with it (Rooted's must-move, a #),
    as a file could not give it."""
    return replace(u, talents=talents, must_move=u.must_move and "Rooted" in talents,
                   talent_numbers=tuple((t, n) for t, n in u.talent_numbers if t in talents))


def without_talents(position: Position) -> Position:
    """The position with no talent on any unit."""
    return replace(position, units={uid: keeping(u, ()) for uid, u in position.units.items()})


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """A small movement position for ``heirs``: open field or corridor, units clustered."""
    rows = draw(st.integers(3, 6))
    columns = draw(st.integers(4, min(8, 40 // rows)))
    grid = draw(st.one_of(_field(rows, columns), _corridor(rows, columns)))
    hexes, _, _ = parse_map(_map_text(grid, rows, columns))
    if len(hexes) < 6:
        grid = {cell: "p" for cell in grid}  # too many gaps: fall back to an all-path board
    map_text = _map_text(grid, rows, columns)
    hexes, adjacency, _ = parse_map(map_text)
    cell_of = {name: (h.column, h.row) for name, h in hexes.items()}

    def edge_gate(column: int) -> tuple[str, ...]:
        """A gate beside a hex of an edge column, mostly a path hex (a corridor's end)."""
        edge = sorted(n for n in hexes if cell_of[n][0] == column) or sorted(hexes)
        paths = [n for n in edge if hexes[n].terrain is Terrain.PATH]
        first = draw(st.sampled_from(paths if paths and draw(st.integers(0, 5)) > 0 else edge))
        extra = draw(st.sampled_from(sorted(adjacency[first]) + [first]))
        return tuple(sorted({first, extra}))

    gates = {MOVER: edge_gate(0), OPPONENT: edge_gate(columns - 1)}
    free = sorted(hexes)

    def take(candidates: list[str], spread: int) -> str:
        choice = candidates[draw(st.integers(0, min(spread, len(candidates) - 1)))]
        free.remove(choice)
        return choice

    centre = draw(st.sampled_from(sorted(cell_of.values())))
    stat_board = draw(st.integers(0, 3)) == 0
    units: list[Unit] = []
    stack: list[str] = []

    def place(id: str, faction: str, kind: Kind, terrain: Terrain, movement: int, stackable: bool) -> None:
        pushed = draw(st.sampled_from(TALENTS))
        # Stat talents on one board in four, and on slower units only: a longer move multiplies the
        # reference's routes and orders.
        talents = pushed + (draw(st.sampled_from(STAT_TALENTS)) if stat_board and movement <= 3 else ())
        if stat_board and kind is Kind.HERO and draw(st.integers(0, 3)) == 0:
            talents += ("Cumbersome",)  # an item only a hero holds
        # Rooted on about one moving minion in eight; one in three of those owes its move.
        rooted = faction == MOVER and kind is Kind.MINION and draw(st.integers(0, 7)) == 0
        if rooted:
            talents += ("Rooted",)
        # Survival on about one moving unit in ten, wounded half the time.
        survival = faction == MOVER and draw(st.integers(0, 9)) == 0
        if survival:
            talents += ("Survival",)
        # Hail on about one moving unit in eight: the opposing fliers in its range lose Flying.
        if faction == MOVER and kind is not Kind.LANDMARK_MINION and draw(st.integers(0, 7)) == 0:
            talents += ("Hail",)
        # Anarchy on about one moving unit in ten (N171): its D6 may discard it before its move.
        if faction == MOVER and kind is not Kind.LANDMARK_MINION and draw(st.integers(0, 9)) == 0:
            talents += ("Anarchy",)
        # Mire on about one opposing unit in four: the hexes beside it end a mover's walk.
        if faction == OPPONENT and kind is not Kind.LANDMARK_MINION and draw(st.integers(0, 3)) == 0:
            talents += ("Mire",)
        # Toxic Secretion on about one unit in eight, Lahar on one opposing unit in six: a unit moving
        # or displaced beside them takes damage, and may be defeated.
        if kind is not Kind.LANDMARK_MINION and draw(st.integers(0, 7)) == 0:
            talents += (HURTING[0],)
        if faction == OPPONENT and kind is not Kind.LANDMARK_MINION and draw(st.integers(0, 5)) == 0:
            talents += (HURTING[1],)
        if pushed and faction == OPPONENT:
            terrain = draw(st.sampled_from(HERO_TERRAIN))  # where a displaced enemy may stand
        admitted = [h for h in free if hexes[h].terrain.level <= terrain.level]
        candidates = admitted if admitted and draw(st.integers(0, 9)) > 0 else free
        in_gate = stackable and draw(st.integers(0, 5)) == 0
        at = None if in_gate or not candidates else take(_near(candidates, centre, cell_of), 5)
        if at is None:
            if not stackable:
                return
            stack.append(id)
        units.append(
            unit(
                id,
                faction,
                at,
                movement,
                kind=kind,
                terrain=terrain,
                range=draw(st.integers(1, 3)),
                campfire=kind is Kind.HERO and draw(st.integers(0, 6)) == 0,
                moved=draw(st.integers(0, 12)) == 0 and at is not None,  # a unit waiting in its gate has not moved
                talents=talents,
                grouped=kind is Kind.MINION and bool(pushed) and draw(st.integers(0, 3)) == 0,
                must_move=rooted and draw(st.integers(0, 2)) == 0,
                health=draw(st.sampled_from((2, 3))) if "Crush" in talents else 1 if survival and draw(st.booleans()) else 2,
            )
        )

    for i in range(draw(st.integers(2, 5))):
        terrain = draw(st.sampled_from(MINION_TERRAIN))
        place(f"m{i + 1}", MOVER, Kind.MINION, terrain, draw(st.integers(1, 6)), True)
    for i in range(draw(st.integers(0, 2))):
        terrain = draw(st.sampled_from(HERO_TERRAIN))
        place(f"h{i + 1}", MOVER, Kind.HERO, terrain, draw(st.integers(1, 6)), True)
    for i in range(draw(st.integers(0, MAX_UNITS - len(units)))):
        kind = draw(st.sampled_from((Kind.MINION, Kind.HERO, Kind.LANDMARK_MINION)))
        place(f"e{i + 1}", OPPONENT, kind, Terrain.WATER, 2, False)
    spires = [
        Spire(f"spire{i}", draw(st.sampled_from(SPIRE_FACTIONS)), take(_near(free, centre, cell_of), 8),
              draw(st.sampled_from(SPIRE_UPGRADES)), draw(st.sampled_from(SPIRE_TALENTS)) if stat_board else ())
        for i in range(draw(st.integers(0, 2)))
        if free
    ]
    landmarks = [
        (take(_near(free, centre, cell_of), 8), draw(st.booleans()))
        for _ in range(draw(st.integers(0, 1)))
        if free
    ]
    # Another chip (a defeated Graft spire left in place) on about one board in four.
    others = [take(_near(free, centre, cell_of), 8) for _ in range(draw(st.integers(0, 3)) // 3) if free]

    # N277: a landmark minion the mover controls on about one board in five, with no talent: it moves as the
    # mover's minion.
    if free and draw(st.integers(0, 4)) == 0:
        units.append(unit("l1", MOVER, take(_near(free, centre, cell_of), 5), draw(st.integers(1, 4)),
                          kind=Kind.LANDMARK_MINION, terrain=draw(st.sampled_from(MINION_TERRAIN))))
    enemies_on_map = [u.id for u in units if u.faction == OPPONENT and u.at is not None]
    mark_kind = draw(st.sampled_from(("gate",) * 6 + ("unit", "hex")))
    if mark_kind == "unit" and enemies_on_map:
        mover_mark = Mark(unit=draw(st.sampled_from(enemies_on_map)))
    elif mark_kind == "hex" and free:
        mover_mark = Mark(hex=draw(st.sampled_from(free)))
    else:
        mover_mark = Mark(gate=OPPONENT)
    # A mark of its own (a Harbinger chapter's: Bydra Graam's hex, Jaelana's closest Graft hero) for
    # one moving unit on about one board in five: a hex, or an opposing unit on the map.
    movers = [i for i, u in enumerate(units) if u.faction == MOVER]
    if movers and draw(st.integers(0, 4)) == 0:
        chosen = draw(st.sampled_from(movers))
        own = [Mark(hex=h) for h in free] + [Mark(unit=e) for e in enemies_on_map]
        if own:
            units[chosen] = replace(units[chosen], mark=draw(st.sampled_from(own)))
    return build(
        map_text,
        units,
        gates=gates,
        stacks={MOVER: tuple(draw(st.permutations(stack)))},
        marks={MOVER: mover_mark},
        controllers={
            MOVER: draw(st.sampled_from((Controller.PLAYER, Controller.AI))),
            OPPONENT: Controller.AI,
        },
        spire_chips=spires,
        landmarks=landmarks,
        chips=others,
        readings={
            "displacement": draw(st.sampled_from(("needed",) * 3 + ("optional",))),
            "displaced-landing": draw(st.sampled_from(("adjacent",) * 2 + ("swap", "blocked"))),
            "ai-hero-approach": draw(st.sampled_from(("range",) * 3 + ("closest",))),
            "stop-counts": draw(st.sampled_from(("walked",) * 3 + ("full",))),
        },
    )


# Harbinger chapter 7: "All non-Graft factions are allied with each other." The mover plays the keel,
# the other units the shada (its allies) or the Graft (the solo player).
CHAPTER_7 = {MOVER: "keel", OPPONENT: "shada"}


def _renamed(mark: Mark) -> Mark:
    return replace(mark, gate=CHAPTER_7.get(mark.gate, mark.gate)) if mark.gate else mark


@st.composite
def allied(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` played in chapter 7: its opposing units split between an ally and the
    Graft, so that the "opposing" talents (Mire, Lahar, Hail, Snare, Crush, Incorporeal) meet both;
    a Graft hero may be Nucleus, with Bio-Indefinite."""
    position = draw(boards)
    # only the shada wait in the shada gate: the Graft's units are drawn from those on the map
    others = sorted(uid for uid, u in position.units.items() if u.faction == OPPONENT and u.at is not None)
    graft = draw(st.sets(st.sampled_from(others))) if others else set()
    units = {
        uid: replace(u, faction="graft" if uid in graft else CHAPTER_7.get(u.faction, u.faction))
        for uid, u in position.units.items()
    }
    # A Graft hero may be Nucleus, whose Bio-Indefinite opposing heroes ignore ("ignore-bio-indefinite").
    heroes = sorted(uid for uid in graft if units[uid].kind is Kind.HERO and not units[uid].group)
    for uid in draw(st.sets(st.sampled_from(heroes), max_size=1)) if heroes else ():
        unit = units[uid]
        units[uid] = replace(unit, chip="Nucleus", talents=tuple(sorted({*unit.talents, "Bio-Indefinite"})))
    # "All other factions: Nucleus" while it is in play; "The Graft: Any opposing fortress gate" standing
    nucleus = next((uid for uid in sorted(graft) if units[uid].chip == "Nucleus"), None)
    factions = {  # the chapter's AI factions (docs/position-format.md, Scenario)
        CHAPTER_7[n]: replace(f, name=CHAPTER_7[n], controller=Controller.AI,
                              mark=Mark(unit=nucleus) if nucleus else _renamed(f.mark))
        for n, f in position.factions.items()
    }
    standing = [f for f in (MOVER, OPPONENT) if f in position.gates and position.gates[f].health > 0]
    factions["graft"] = Faction("graft", Controller.PLAYER, Mark(gate=CHAPTER_7[(standing or [MOVER])[0]]))
    spires = tuple(
        replace(s, faction="graft" if draw(st.booleans()) else CHAPTER_7[s.faction]) for s in position.spires
    )
    return replace(
        position,
        gates={CHAPTER_7[f]: replace(g, faction=CHAPTER_7[f]) for f, g in position.gates.items()},
        factions=factions,
        units=units,
        spires=spires,
        turn=replace(position.turn, faction=CHAPTER_7[position.turn.faction]),
        scenario=Scenario(7, 1),
    )


CHAPTER_1 = {MOVER: "horizons-wrath", OPPONENT: "shada"}
CHAPTER_1_MARKS = {MOVER: OPPONENT, OPPONENT: MOVER}  # "Horizon's Wrath: Shada fortress gate", and back


@st.composite
def rocky(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` played in chapter 1 as a position file could give it, some of its free
    hexes floating rocks (path hexes that moves pass and never end on, where units roll dice), and
    the event die's result none, 1 (Horizon's Wrath rolls no dice) or 5."""
    position = draw(boards.filter(lambda p: sum(u.faction == MOVER and u.kind is Kind.HERO
                                                  for u in p.units.values()) <= MAX_HEROES_CHAPTER_1))
    held = {position.node_of(uid) for uid in position.units} | {s.at for s in position.spires}
    held |= {m.at for m in position.landmarks} | {c.at for c in position.chips}
    free = sorted(n for n in position.hexes if n not in held)
    rocks = draw(st.sets(st.sampled_from(free), min_size=1, max_size=max(1, len(free) // 3))) if free else set()
    hexes = {n: replace(h, terrain=Terrain.PATH, well=False, rock=True) if n in rocks else h
             for n, h in position.hexes.items()}
    return replace(
        position,
        hexes=hexes,
        gates={CHAPTER_1[f]: replace(g, faction=CHAPTER_1[f]) for f, g in position.gates.items()},
        factions={
            CHAPTER_1[n]: replace(
                f, name=CHAPTER_1[n], controller=Controller.PLAYER if n == MOVER else Controller.AI,
                mark=Mark(gate=CHAPTER_1[CHAPTER_1_MARKS[n]]) if CHAPTER_1_MARKS[n] in position.gates
                else _renamed_1(f.mark))
            for n, f in position.factions.items()
        },
        units={uid: replace(u, faction=CHAPTER_1[u.faction]) for uid, u in position.units.items()},
        spires=tuple(replace(s, faction=CHAPTER_1[s.faction]) for s in position.spires),
        turn=replace(position.turn, faction=CHAPTER_1[position.turn.faction]),
        scenario=Scenario(1, 1, draw(st.sampled_from((None, (1,), (5,))))),
    )


CHAPTER_2 = ("graft", "heirs")


@st.composite
def grafted(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` played in chapter 2 between the Graft and the heirs, either moving: on the
    Graft's turn every Graft unit's Grafted Snare ignores the talents of the opposing units beside it,
    and an heirs hero below its health stat recovers instead of levelling up. The heirs have no mark,
    and all their units are heroes ("All heir-controlled units are considered to be heroes")."""
    position = draw(boards)
    names = dict(zip((MOVER, OPPONENT), CHAPTER_2 if draw(st.booleans()) else CHAPTER_2[::-1]))

    def unit(u: Unit) -> Unit:
        faction = names.get(u.faction, u.faction)
        heir = faction == "heirs" and u.kind is not Kind.HERO  # a landmark minion they control too
        return replace(u, faction=faction, kind=Kind.HERO if heir else u.kind)

    factions = {  # the chapter's controllers: the heirs are the solo player's
        names[n]: replace(f, name=names[n], controller=Controller.PLAYER if names[n] == "heirs" else Controller.AI,
                          mark=Mark() if names[n] == "heirs" else
                          replace(f.mark, gate=names[f.mark.gate]) if f.mark.gate else f.mark)
        for n, f in position.factions.items()
    }
    return replace(
        position,
        gates={names[f]: replace(g, faction=names[f]) for f, g in position.gates.items()},
        factions=factions,
        units={uid: unit(u) for uid, u in position.units.items()},
        spires=tuple(replace(s, faction=names[s.faction]) for s in position.spires),
        turn=replace(position.turn, faction=names[position.turn.faction]),
        scenario=Scenario(2, 1),
    )


def grafted_boards(boards: st.SearchStrategy[Position]) -> st.SearchStrategy[Position]:
    """``grafted`` boards that keep a minion in play (the Graft's: the heirs have none), since on a
    board with no minion at all the two sides read the wave's end differently (reference N4)."""
    return grafted(boards).filter(lambda p: any(u.kind is Kind.MINION for u in p.units.values()))


CHAPTER_8 = ("narora", "graft")


@st.composite
def healing(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` played in chapter 8 between the narora and the Graft, either moving, so
    that naroran attacks and retaliations heal Graft units. Its spires are left out: the chapter's
    rules on spires (the four opposing all, the Graft spires naroran units spare) are tested apart."""
    position = draw(boards)
    names = dict(zip((MOVER, OPPONENT), CHAPTER_8 if draw(st.booleans()) else CHAPTER_8[::-1]))
    named = renamed(position, names, spires=())
    return replace(named, factions={n: replace(f, controller=Controller.AI) for n, f in named.factions.items()},
                   scenario=Scenario(8, 1))


def naroran_lahar(position: Position) -> Position:
    """A ``healing`` board whose naroran units all hold Lahar, so that a Graft unit moving beside one
    gains the health it would have lost (chapter 8; reference/movement.py, _heals)."""
    def lahar(u: Unit) -> Unit:
        return replace(u, talents=(*u.talents, "Lahar")) if u.faction == "narora" and "Lahar" not in u.talents else u

    return replace(position, units={uid: lahar(u) for uid, u in position.units.items()})


CHAPTER_2 = ("heirs", "graft")


@st.composite
def chipped(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` played in chapter 2, the heirs moving against the Graft: every heirs unit a hero
    ("All heir-controlled units are considered to be heroes"; ungrouped, no mark of its own), the heirs with
    no mark ("Heirs: None"), their gate holding 1 or 2 health chips, which each heirs unit leaving it may
    take (reference/movement.py, N211); no heirs hero returns (N212)."""
    position = draw(boards)
    names = dict(zip((MOVER, OPPONENT), CHAPTER_2))

    def unit(u: Unit) -> Unit:
        u = replace(u, faction=names.get(u.faction, u.faction))
        return replace(u, kind=Kind.HERO, group=(), mark=None, must_move=False) if u.faction == "heirs" else u

    def mark(f: Faction) -> Mark:
        return Mark() if f.name == MOVER else replace(f.mark, gate=names[f.mark.gate]) if f.mark.gate else f.mark

    chips = draw(st.integers(1, 2))
    return replace(
        position,
        gates={names[f]: replace(g, faction=names[f], health_chips=chips if names[f] == "heirs" else None)
               for f, g in position.gates.items()},
        factions={names[n]: replace(f, name=names[n], mark=mark(f)) for n, f in position.factions.items()},
        units={uid: unit(u) for uid, u in sorted(position.units.items())},
        spires=tuple(replace(s, faction=names.get(s.faction, s.faction)) for s in position.spires),
        turn=replace(position.turn, faction=names[position.turn.faction]),
        scenario=Scenario(2, 1),
    )


# The talents of an opposing unit that act on a Graft unit's move and that chapter 2's Grafted Snare ignores
# beside another Graft unit (asp/scenarios/chapter_2.lp, hushed/2).
SNARED_TALENTS = ("Flying", "Peaceful", "Mire", "Toxic Secretion", "Lahar")


@st.composite
def snaring(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` played in chapter 2, the Graft moving against the heirs: every heirs unit a hero
    (ungrouped, no mark of its own), the heirs with no mark, each holding one of SNARED_TALENTS or not, so that
    while a Graft unit moves the talents of those beside another Graft unit are ignored (reference N281)."""
    position = draw(boards)
    names = dict(zip((MOVER, OPPONENT), ("graft", "heirs")))

    def unit(u: Unit) -> Unit:
        u = replace(u, faction=names.get(u.faction, u.faction))
        if u.faction != "heirs":
            return u
        extra = draw(st.sampled_from((None, *SNARED_TALENTS)))
        talents = u.talents if extra is None or extra in u.talents else (*u.talents, extra)
        return replace(u, kind=Kind.HERO, group=(), mark=None, must_move=False, talents=talents)

    def mark(f: Faction) -> Mark:
        return Mark() if names[f.name] == "heirs" else replace(f.mark, gate=names[f.mark.gate]) if f.mark.gate else f.mark

    return replace(
        position,
        gates={names[f]: replace(g, faction=names[f]) for f, g in position.gates.items()},
        factions={names[n]: replace(f, name=names[n], mark=mark(f)) for n, f in position.factions.items()},
        units={uid: unit(u) for uid, u in sorted(position.units.items())},
        spires=tuple(replace(s, faction=names.get(s.faction, s.faction)) for s in position.spires),
        turn=replace(position.turn, faction=names[position.turn.faction]),
        scenario=Scenario(2, 1),
    )


CHAPTER_4 = ("narora", "griege")


@st.composite
def veined(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` played in chapter 4, the narora moving against the griege, with the Source
    vein (an other chip, 1 to 3 health chips) on a free map hex: naroran units whose moves end beside
    it may strike it (reference/movement.py, _vein_struck). Some naroran units are wounded or
    fortified, so that the damage dealt may or may not remove its last chip. As the loader has the chapter:
    the narora the solo player, their mark "Source vein OR griege fortress gate", the griege's "Naroran
    fortress gate"."""
    position = draw(boards)
    names = dict(zip((MOVER, OPPONENT), CHAPTER_4))
    taken = {u.at for u in position.units.values()} | {s.at for s in position.spires}
    taken |= {lm.at for lm in position.landmarks} | {c.at for c in position.chips}
    free = sorted(h for h in position.hexes if h not in taken)
    chips = position.chips
    marks = {"narora": Mark(gate="griege"), "griege": Mark(gate="narora")}
    if free:  # the earthscapes left on it, given or not (N210)
        scapes = draw(st.sampled_from((None, 1, 2, 3)))
        vein = Chip("vein", draw(st.sampled_from(free)), "Source Vein", draw(st.integers(1, 3)), earthscapes=scapes)
        chips += (vein,)
        marks["narora"] = draw(st.sampled_from((marks["narora"], Mark(hex=vein.at))))

    def unit(u: Unit) -> Unit:
        u = replace(u, faction=names.get(u.faction, u.faction))
        if u.faction != "narora":
            return u
        worn = draw(st.sampled_from(("whole",) * 2 + ("wounded", "fortified")))
        return replace(u, health=1) if worn == "wounded" else replace(u, upgrades=("fortification",)) if worn == "fortified" else u

    return replace(
        position,
        gates={names[f]: replace(g, faction=names[f]) for f, g in position.gates.items()},
        factions={names[n]: replace(f, name=names[n], mark=marks[names[n]],
                                    controller=Controller.PLAYER if names[n] == "narora" else Controller.AI)
                  for n, f in position.factions.items()},
        units={uid: unit(u) for uid, u in sorted(position.units.items())},
        spires=tuple(replace(s, faction=names.get(s.faction, s.faction)) for s in position.spires),
        chips=chips,
        turn=replace(position.turn, faction=names[position.turn.faction]),
        scenario=Scenario(4, 1),
    )


@st.composite
def tunneled(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` played in chapter 4, the griege moving against the narora, with one or two Tunnel
    Access chips (other chips) on free map hexes: griege minions waiting in their gate deploy from the closest
    possible (reference/movement.py, tunnel_beside; N240)."""
    position = draw(boards)
    names = {MOVER: "griege", OPPONENT: "narora"}
    # No moving hero (one deploys from the gate as normal: a notice), and a minion or two sent back to wait in
    # the gate, on top of its stack; the other chips named (an unnamed one may be a tunnel access: a notice).
    units = {uid: u for uid, u in position.units.items() if not (u.faction == MOVER and u.kind is Kind.HERO)}
    gate = position.gates[MOVER]
    stack = tuple(u for u in gate.stack if u in units)
    placed = sorted(uid for uid, u in units.items() if u.faction == MOVER and u.at is not None and not u.group and u.rides is None)
    for uid in draw(st.lists(st.sampled_from(placed), max_size=2, unique=True)) if placed else []:
        units[uid] = replace(units[uid], at=None, done=Done())
        stack = (uid, *stack)
    taken = {u.at for u in units.values()} | {s.at for s in position.spires}
    taken |= {lm.at for lm in position.landmarks} | {c.at for c in position.chips}
    free = sorted(h for h in position.hexes if h not in taken)
    spots = draw(st.lists(st.sampled_from(free), min_size=1, max_size=2, unique=True)) if free else []
    chips = tuple(replace(c, name=c.name or "Defeated Spire") for c in position.chips)
    chips += tuple(Chip(f"tunnel-{h}", h, "Tunnel Access") for h in spots)
    return replace(
        position,
        gates={names[f]: replace(g, faction=names[f], stack=stack if f == MOVER else g.stack)
               for f, g in position.gates.items()},
        factions={names[n]: replace(f, name=names[n], mark=replace(f.mark, gate=names[f.mark.gate]) if f.mark.gate else f.mark)
                  for n, f in position.factions.items()},
        units={uid: replace(u, faction=names.get(u.faction, u.faction)) for uid, u in sorted(units.items())},
        spires=tuple(replace(s, faction=names.get(s.faction, s.faction)) for s in position.spires),
        chips=chips,
        turn=replace(position.turn, faction=names[position.turn.faction]),
        scenario=Scenario(4, 2),
    )


CHAPTER_6 = {MOVER: "keel", OPPONENT: "uprising"}


def _free_near(position: Position, faction: str) -> tuple[list[str], list[str]]:
    """The map hexes no unit, spire, landmark or other chip stands on, and those of them beside one of
    ``faction``'s units on the map: where a strategy places a chip, near them where it can."""
    taken = {u.at for u in position.units.values()} | {s.at for s in position.spires}
    taken |= {lm.at for lm in position.landmarks} | {c.at for c in position.chips}
    free = sorted(h for h in position.hexes if h not in taken)
    near = sorted({n for u in position.units.values() if u.faction == faction and u.at
                   for n in position.adjacency.get(u.at, ()) if n in free})
    return free, near


@st.composite
def waygated(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` played in chapter 6, the keel against the Uprising, with one or two
    waygates (other chips named Waygate, 0 to 4 health) on free map hexes, beside the keel's units
    where it can be, so that they are attacked, destroyed, or stand out of reach (reference N84)."""
    position = draw(boards)
    free, near = _free_near(position, MOVER)
    chips = position.chips
    for index in range(draw(st.integers(1, 2)) if free else 0):
        used = {c.at for c in chips}
        left = [h for h in near if h not in used] or [h for h in free if h not in used]
        if left:
            chips += (Chip(f"wg{index}", draw(st.sampled_from(left)), "Waygate", draw(st.integers(0, 4))),)
    names = CHAPTER_6
    return replace(
        position,
        gates={names[f]: replace(g, faction=names[f]) for f, g in position.gates.items()},
        factions={names[n]: replace(f, name=names[n], mark=replace(f.mark, gate=names[f.mark.gate]) if f.mark.gate else f.mark)
                  for n, f in position.factions.items()},
        units={uid: replace(u, faction=names.get(u.faction, u.faction)) for uid, u in sorted(position.units.items())},
        spires=tuple(replace(s, faction=names.get(s.faction, s.faction)) for s in position.spires),
        chips=chips,
        turn=replace(position.turn, faction=names[position.turn.faction]),
        scenario=Scenario(6, 1),
    )


@st.composite
def explored(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` at the exploration step, its units' talents taken off (reference N150's scope),
    with one to three face-down landmarks on free map hexes, beside the turn's faction's units where
    it can be: each an Unstable Rift, a Hero's Quest (N161), one with no talents, or one the position does
    not describe; some of that faction's units with Biosonar (N151)."""
    position = draw(boards)
    free, near = _free_near(position, position.turn.faction)
    landmarks = position.landmarks
    for index in range(draw(st.integers(1, 3)) if free else 0):
        used = {m.at for m in landmarks}
        left = [h for h in near if h not in used] or [h for h in free if h not in used]
        if left:
            kind = draw(st.sampled_from(("rift", "rift", "blank", "unknown", "quest")))
            talents = {"rift": ("Unstable Rift",), "quest": ("Hero's Quest",)}.get(kind, ())
            landmarks += (Landmark(f"lm{index}", draw(st.sampled_from(left)), talents=talents, known=kind != "unknown"),)
    # Biosonar (N151) on some of the turn's faction's units, by a coin toss each, the map cut into hex
    # groups by column pairs for it.
    sonar = {uid for uid, u in position.units.items() if u.faction == position.turn.faction and draw(st.booleans())}
    units = {uid: replace(u, talents=("Biosonar",) if uid in sonar else (), talent_numbers=(),
                          group=tuple(replace(g, talents=(), talent_numbers=()) for g in u.group))
             for uid, u in position.units.items()}
    bands: dict[int, list[str]] = {}
    for h in sorted(position.hexes):
        bands.setdefault((ord(h[0]) - ord("a")) // 2, []).append(h)
    return replace(position, landmarks=landmarks, units=units, turn=replace(position.turn, step="exploration"),
                   hex_groups=tuple(tuple(g) for _, g in sorted(bands.items())))


@st.composite
def wave_ended(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` at the end of the wave (reference N160): no minion waits in a gate, and those
    on the map are kept only with one talent drawn for the board, Precious or Neglected (by a coin toss each,
    the others taken off: minions of both would be two minion types, which keep the wave going, and the
    loader refuses such a board, check_wave_ended);
    every other talent taken off the units; heroes in campfire mode by coin tosses; spires with Mining,
    Refinery, both or neither; each faction's Source drawn up to its capacity."""
    position = draw(boards)
    waiting = {uid for g in position.gates.values() for uid in g.stack}
    units = {}
    idle = draw(st.sampled_from(("Precious", "Neglected")))
    for uid, u in position.units.items():
        if u.kind is Kind.MINION and (uid in waiting or u.at is None):
            continue
        kept = () if u.kind is not Kind.MINION else (draw(st.sampled_from((idle, None))),)
        if kept == (None,):
            continue
        units[uid] = replace(u, talents=tuple(t for t in kept if t), talent_numbers=(),
                             campfire=u.kind is Kind.HERO and u.at in position.hexes and draw(st.booleans()),
                             group=tuple(replace(g, talents=(), talent_numbers=()) for g in u.group))
    gates = {f: replace(g, stack=tuple(uid for uid in g.stack if uid in units)) for f, g in position.gates.items()}
    pools = ((), ("Mining",), ("Refinery",), ("Mining", "Refinery"))
    spires = tuple(replace(s, talents=draw(st.sampled_from(pools)), talent_numbers=()) for s in position.spires)
    factions = {f: replace(x, source=draw(st.integers(0, x.source_capacity))) for f, x in position.factions.items()}
    return replace(position, units=units, gates=gates, spires=spires, factions=factions,
                   turn=replace(position.turn, step="end-of-wave"))


@st.composite
def earthscaped(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A chapter 6 board of ``boards`` with zero to three earthscapes over its map hexes (reference N186),
    none under a minion with Precious (it and the earthscape would both take it off the board: their
    order is not read), and by a coin toss a face-down landmark on a free hex."""
    position = draw(boards)
    precious = {u.at for u in position.units.values() if "Precious" in u.talents}
    hexes = sorted(h for h in position.hexes if h not in precious)
    picked = draw(st.lists(st.sampled_from(hexes), unique=True, max_size=min(6, len(hexes)))) if hexes else []
    cuts = sorted(draw(st.lists(st.integers(1, max(1, len(picked) - 1)), unique=True, max_size=2))) if picked else []
    scapes = tuple(tuple(sorted(picked[i:j])) for i, j in zip((0, *cuts), (*cuts, len(picked))) if picked[i:j])
    landmarks = position.landmarks
    taken = {u.at for u in position.units.values()} | {s.at for s in position.spires} | {c.at for c in position.chips}
    free = [h for h in sorted(position.hexes) if h not in taken and h not in {m.at for m in landmarks}]
    if free and draw(st.booleans()):
        landmarks += (Landmark("ruin", draw(st.sampled_from(free)), "Ruin"),)
    return replace(position, earthscapes=scapes, landmarks=landmarks)


@st.composite
def unstabled(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A waygated board (two waygates at least, the first two standing) on the Uprising's turn, mostly a
    player's, whose first waygate has Unstable and the others by a coin toss, and whose units waiting in
    the Uprising's gate, by a coin toss, are taken off the board (reference N123)."""
    position = draw(boards)
    ways = [c.id for c in position.chips if c.name == "Waygate"]
    assume(len(ways) >= 2)
    chips = tuple(replace(c, talents=("Unstable",) if c.id == ways[0] or draw(st.booleans()) else c.talents,
                          health=max(c.health or 0, 1 if c.id in ways[:2] else 0))
                  if c.id in ways else c for c in position.chips)
    units, gates = position.units, position.gates
    if draw(st.booleans()):  # none waits to deploy: Unstable may be used
        units = {uid: u for uid, u in units.items() if uid not in gates["uprising"].stack}
        gates = {**gates, "uprising": replace(gates["uprising"], stack=())}
    controller = draw(st.sampled_from((Controller.PLAYER, Controller.PLAYER, Controller.AI)))
    factions = {**position.factions, "uprising": replace(position.factions["uprising"], controller=controller)}
    return replace(position, chips=chips, units=units, gates=gates, factions=factions,
                   turn=replace(position.turn, faction="uprising"))


@st.composite
def motile(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` whose moving heroes hold Motility and move 1 or 2 (some promoted, so the
    mountain allowance is bought), their faction's Motility Reservoir given, 0 to 4 (the dearest use costs 4),
    and some hexes forest or mountains for the allowance to open. Only here, never in the common pools:
    drawn there it would change every board of the suite's fixed sample."""
    position = draw(boards)
    faction = position.turn.faction
    # Motility acts on the map only: a board whose heroes all wait in the gate checks nothing.
    assume(any(u.faction == faction and u.kind is Kind.HERO and u.at for u in position.units.values()))

    def slowed(u: Unit, movement: int) -> Unit:
        # Slow heroes (movement 1 or 2) whose plain move often leaves them short of an attack.
        return replace(u, talents=(*u.talents, "Motility"), promoted=draw(st.booleans()), promoted_stats=None,
                       stats=replace(u.stats, movement=movement))

    units = {uid: slowed(u, draw(st.integers(1, 2)))
             if u.faction == faction and u.kind is Kind.HERO and "Motility" not in u.talents else u
             for uid, u in sorted(position.units.items())}
    # Few targets: the other factions' units on the map kept one time in three (a mark always), their
    # spires one time in two.
    marked = {f.mark.unit for f in position.factions.values()} | {u.mark.unit for u in units.values() if u.mark}
    units = {uid: u for uid, u in units.items()
             if u.faction == faction or u.at is None or uid in marked or draw(st.integers(0, 2)) == 0}
    spires = tuple(s for s in position.spires if s.faction == faction or draw(st.booleans()))
    rough = (Terrain.PATH,) * 2 + (Terrain.FOREST, Terrain.MOUNTAINS)
    taken = {u.at for u in position.units.values()}
    hexes = {name: replace(h, terrain=draw(st.sampled_from(rough))) if h.terrain is Terrain.PATH and name not in taken
             else h for name, h in sorted(position.hexes.items())}
    factions = {**position.factions, faction: replace(position.factions[faction], motility=draw(st.integers(0, 4)))}
    return replace(position, units=units, hexes=hexes, factions=factions, spires=spires)


def _renamed_1(mark: Mark) -> Mark:
    return replace(mark, gate=CHAPTER_1.get(mark.gate, mark.gate)) if mark.gate else mark


# Talents that deal damage once a unit's move ends: handed out by ``striking`` only, never from the
# common pools (drawn there they would change every board of the suite's fixed sample).
AFTERMOVE = (("Impale",), ("Source Aura",), ("Impale", "Source Aura"))


@st.composite
def striking(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` where one or more units of the moving faction have Impale, Source Aura
    or both, some of them mercs (whose damage Peaceful does not stop); opposing units are sometimes
    down to 1 health or wear a fortification upgrade, so that the damage may defeat them or not."""
    position = draw(boards)
    units = dict(position.units)
    movers = sorted(uid for uid, u in units.items()
                    if u.faction == position.turn.faction and u.kind is not Kind.LANDMARK_MINION)
    for uid in draw(st.sets(st.sampled_from(movers), min_size=1)) if movers else ():
        u = units[uid]
        units[uid] = replace(u, talents=u.talents + draw(st.sampled_from(AFTERMOVE)),
                             merc=draw(st.integers(0, 3)) == 0)
    for uid, u in sorted(units.items()):
        if u.kind is Kind.LANDMARK_MINION and draw(st.booleans()):
            # Of no faction, as a position gives one: it opposes every faction, the mover's too.
            u = units[uid] = replace(u, faction="")
        if u.faction != position.turn.faction:
            worn = draw(st.sampled_from(("whole",) * 2 + ("wounded", "fortified")))
            if worn == "wounded":
                units[uid] = replace(u, health=1)
            elif worn == "fortified":
                units[uid] = replace(u, upgrades=("fortification",))
    readings = {**position.readings, "spire-defeat": draw(st.sampled_from(("bare", "last-upgrade")))}
    return replace(position, units=units, spires=_struck_spires(draw, position), readings=readings)


# N302: the upgrades a spire a move's end strikes may hold: none (it falls), an attack or range upgrade at the
# bottom (1 damage takes it), a fortification there (2 takes it), one or two of them; under either reading
# spire-defeat, and with a reward that a defeat gains.
STRUCK_SPIRE_UPGRADES = ((), ("range",), ("attack", "range"), ("fortification",), ("fortification", "attack"))


def _struck_spires(draw: st.DrawFn, position: Position) -> tuple[Spire, ...]:
    """N302: the board's spires redrawn with upgrades a strike may take, some with a reward of Source."""
    return tuple(replace(sp, upgrades=draw(st.sampled_from(STRUCK_SPIRE_UPGRADES)),
                         reward=Reward(source=draw(st.sampled_from((0, 2))))) for sp in position.spires)


@st.composite
def improving(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` where one or more units of the moving faction have Improve, some having used
    it this wave, with one or two more spires of that faction on free hexes (no marked hex), the faction
    holding 0 to 4 Source (Improve costs a player 2). Not in the common pools (drawn there it would change
    every board of the suite's fixed sample)."""
    position = draw(boards)
    faction = position.turn.faction
    free = _free_unmarked(position)
    hexes = draw(st.lists(st.sampled_from(free), min_size=1, max_size=2, unique=True)) if free else []
    towers = tuple(Spire(f"tower{i}", faction, at, draw(st.sampled_from(((), ("attack",), ("range", "attack")))))
                   for i, at in enumerate(hexes))
    units = dict(position.units)
    movers = sorted(uid for uid, u in units.items() if u.faction == faction and u.kind is not Kind.LANDMARK_MINION)
    for uid in _some(draw, movers):
        used = ("Improve",) if draw(st.integers(0, 3)) == 0 else ()
        units[uid] = replace(units[uid], talents=units[uid].talents + ("Improve",), used=used)
    factions = {**position.factions, faction: replace(position.factions[faction], source=draw(st.integers(0, 4)))}
    return replace(position, units=units, factions=factions, spires=(*position.spires, *towers))


# Talents no rift board holds: Breakneck passes chips, which only a teleport enters there.
_NOT_BY_RIFTS = frozenset({"Breakneck"})
# Nor, where a hex lies beside two teleporting chips, the talents that hurt moving units (HURTING): which
# chip a unit enters there is not counted (a notice, docs/movement.md, Damage while moving; N245).


def _free_unmarked(position: Position) -> list[str]:
    """The map hexes no chip stands on, no floating rock, no mark: a chip placed on a marked hex would
    make a unit's distance there 0, not counted from beside."""
    taken = {u.at for u in position.units.values() if u.at} | {s.at for s in position.spires}
    taken |= {lm.at for lm in position.landmarks} | {c.at for c in position.chips}
    taken |= {m.hex for m in (*(f.mark for f in position.factions.values()),
                              *(u.mark for u in position.units.values() if u.mark)) if m.hex}
    return sorted(h for h, cell in position.hexes.items() if h not in taken and not cell.rock)


@st.composite
def rifted(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` with one to four more spires on free hexes (no marked hex), each with Riftwalk (any
    faction's) or Naroran Rift (the moving faction's, which only its units take), and none of the
    talents a teleport is not modelled beside (Toxic Secretion and Lahar only where a hex lies beside two of
    them). One chip alone is a path hex ("if able")."""
    position = draw(boards)
    free = _free_unmarked(position)
    hexes = draw(st.lists(st.sampled_from(free), min_size=1, max_size=4, unique=True)) if free else []
    rifts = []
    for i, at in enumerate(hexes):
        naroran = draw(st.integers(0, 2)) == 0
        faction = position.turn.faction if naroran else draw(st.sampled_from(sorted(position.factions)))
        rifts.append(Spire(f"rift{i}", faction, at, (), ("Naroran Rift",) if naroran else ("Riftwalk",)))
    touched = [h for at in hexes for h in position.neighbours(at)]
    left_out = _NOT_BY_RIFTS | (frozenset(HURTING) if len(touched) != len(set(touched)) else frozenset())
    units = {uid: replace(u, talents=tuple(t for t in u.talents if t not in left_out))
             for uid, u in position.units.items()}
    spires = tuple(replace(s, talents=tuple(t for t in s.talents if t not in left_out)) for s in position.spires)
    return replace(position, units=units, spires=(*spires, *rifts))


@st.composite
def passaged(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` played by a player, with a revealed Secret Passage, its health removed, on a
    free hex (no marked hex), one to three more face-down landmarks on free hexes, and hex groups of two
    columns each, so that each group touches the next (N126); none of the talents a teleport is not
    modelled beside (as for ``rifted``). Handed out here only, never from the common pools."""
    position = draw(boards)
    free = _free_unmarked(position)
    # The passage beside a hero of the moving faction where one has a free hex beside it, so it is used.
    heroes = {u.at for u in position.units.values() if u.kind is Kind.HERO and u.faction == position.turn.faction}
    beside = [h for h in free if heroes & set(position.neighbours(h))] or free
    assume(len(free) >= 2)
    at = draw(st.sampled_from(beside))
    hexes = draw(st.lists(st.sampled_from([h for h in free if h != at]), min_size=1, max_size=3, unique=True))
    passage = Landmark("passage", at, "Passage", True, ("Secret Passage",), 0)
    hidden = tuple(Landmark(f"hidden{i}", h) for i, h in enumerate(hexes))
    bands: dict[int, list[str]] = {}
    for h in sorted(position.hexes):
        bands.setdefault((ord(h[0]) - ord("a")) // 2, []).append(h)
    units = {uid: replace(u, talents=tuple(x for x in u.talents if x not in _NOT_BY_RIFTS))
             for uid, u in position.units.items()}
    faction = position.turn.faction
    factions = {**position.factions, faction: replace(position.factions[faction], controller=Controller.PLAYER)}
    return replace(position, units=units, factions=factions, landmarks=(*position.landmarks, passage, *hidden),
                   hex_groups=tuple(tuple(g) for _, g in sorted(bands.items())))


@st.composite
def spire_shooting(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` where some units of the moving faction have Spire Shot, with one or two more
    spires of that faction on free hexes (no marked hex), and none of the talents a step onto a spire is
    not modelled beside (as for ``rifted``). Played by a player or the AI (for which it does not trigger)."""
    position = draw(boards)
    free = _free_unmarked(position)
    hexes = draw(st.lists(st.sampled_from(free), min_size=1, max_size=2, unique=True)) if free else []
    faction = position.turn.faction
    towers = tuple(Spire(f"tower{i}", faction, at) for i, at in enumerate(hexes))
    movers = sorted(uid for uid, u in position.units.items() if u.faction == faction and u.kind is not Kind.LANDMARK_MINION)
    shooters = draw(st.sets(st.sampled_from(movers), min_size=1)) if movers else set()

    def kept(talents: tuple[str, ...], shooter: bool) -> tuple[str, ...]:
        left = tuple(t for t in talents if t not in _NOT_BY_RIFTS)
        return left + ("Spire Shot",) if shooter and "Spire Shot" not in left else left

    units = {uid: replace(u, talents=kept(u.talents, uid in shooters)) for uid, u in position.units.items()}
    spires = tuple(replace(s, talents=kept(s.talents, False)) for s in position.spires)
    return replace(position, units=units, spires=(*spires, *towers))


@st.composite
def rigged(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` whose moving faction is Horizon's Wrath, with one or two of its spires with
    Rigging on free hexes (no marked hex), and none of the talents a step onto a spire is not modelled
    beside (as for ``rifted``). Not in the common pools (drawn there it would change every board of the
    suite's fixed sample)."""
    position = draw(boards)
    free = _free_unmarked(position)
    hexes = draw(st.lists(st.sampled_from(free), min_size=1, max_size=2, unique=True)) if free else []
    wrath = "horizons-wrath"
    named = renamed(position, {MOVER: wrath})
    towers = tuple(Spire(f"rigging{i}", wrath, at, talents=("Rigging",)) for i, at in enumerate(hexes))

    def kept(talents: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(t for t in talents if t not in _NOT_BY_RIFTS)

    return replace(
        named,
        units={uid: replace(u, talents=kept(u.talents)) for uid, u in named.units.items()},
        spires=(*(replace(s, talents=kept(s.talents)) for s in named.spires), *towers),
    )


@st.composite
def fumed(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` with one or two toxic fumes chips (Exposure) on free hexes of any terrain (no
    marked hex), one to three on each, which every unit may move onto as onto a path hex and which hurt
    every unit moving onto them (no faction here is the griege). Not in the common pools (drawn there it
    would change every board of the suite's fixed sample)."""
    position = draw(boards)
    free = _free_unmarked(position)
    hexes = draw(st.lists(st.sampled_from(free), min_size=1, max_size=2, unique=True)) if free else []
    fumes = tuple(Chip(f"fumes{i}", at, "Toxic Fumes", talents=("Exposure",), count=draw(st.integers(1, 3)))
                  for i, at in enumerate(hexes))
    return replace(position, chips=(*position.chips, *fumes))


@st.composite
def exploding(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` with one or two Explosion chips on free hexes (no marked hex): a unit moving onto a
    hex beside one ends its move there and rolls its D6 (reference/movement.py, N347). Not in the common pools
    (drawn there it would change every board of the suite's fixed sample)."""
    position = draw(boards)
    free = _free_unmarked(position)
    hexes = draw(st.lists(st.sampled_from(free), min_size=1, max_size=2, unique=True)) if free else []
    bombs = tuple(Chip(f"bomb{i}", at, "Explosion", talents=("Explosion",)) for i, at in enumerate(hexes))
    return replace(position, chips=(*position.chips, *bombs))


@st.composite
def falling_pushers(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` with a hero of the moving faction on the map, its minions mostly at 1 health and
    every opposing unit but a landmark minion holding Lahar: a minion that displaces the hero on its way is
    often defeated further on, the hero staying displaced (reference/movement.py, N265). Not in the common
    pools (drawn there it would change every board of the suite's fixed sample)."""
    position = draw(boards)
    assume(any(u.faction == MOVER and u.kind is Kind.HERO and u.at in position.hexes for u in position.units.values()))

    def worn(u: Unit) -> Unit:
        if u.faction == MOVER and u.kind is Kind.MINION:
            return replace(u, health=min(u.health, draw(st.sampled_from((1, 1, 2)))))
        if u.faction == OPPONENT and u.kind is not Kind.LANDMARK_MINION and "Lahar" not in u.talents:
            return replace(u, talents=(*u.talents, "Lahar"))
        return u

    return replace(position, units={uid: worn(u) for uid, u in sorted(position.units.items())})


@st.composite
def pushed_ablaze(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` where units a minion's move may displace (the moving faction's heroes, Flying
    or Peaceful units on the map) mostly hold Blaze with an allowance that admits forest, some hexes beside
    them made forest (a minion standing on one admitting it), and the opposing faction played by a player
    on one board in two: a unit displaced onto forest deals its damage there by its side's wording
    (reference/movement.py, N266). Handed out here only, never from the common pools."""
    position = draw(boards)
    units = dict(position.units)
    faction = position.turn.faction
    open_ = ("Flying", "Peaceful")
    pushable = sorted(uid for uid, u in units.items() if u.at in position.hexes and u.kind is not Kind.LANDMARK_MINION
                      and ((u.faction == faction and u.kind is Kind.HERO) or set(open_) & set(u.talents)))
    assume(pushable)
    for uid in pushable:
        u = units[uid]
        if draw(st.integers(0, 3)) > 0:
            terrain = u.terrain if u.terrain.level >= Terrain.FOREST.level else Terrain.FOREST
            units[uid] = replace(u, talents=(*u.talents, "Blaze"), terrain=terrain)
    others = {s.at for s in position.spires} | {m.at for m in position.landmarks} | {c.at for c in position.chips}
    near = sorted({n for uid in pushable for n in position.neighbours(units[uid].at)} & set(position.hexes) - others
                  - {u.at for u in units.values() if u.kind is not Kind.MINION or u.faction != faction})
    forests = set(draw(st.lists(st.sampled_from(near), min_size=1, max_size=4, unique=True))) if near else set()
    for uid, u in sorted(units.items()):
        if u.at in forests and u.terrain.level < Terrain.FOREST.level:
            units[uid] = replace(u, terrain=Terrain.FOREST)
    hexes = {n: replace(h, terrain=Terrain.FOREST) if n in forests else h for n, h in position.hexes.items()}
    factions = dict(position.factions)
    if draw(st.booleans()):
        factions[OPPONENT] = replace(factions[OPPONENT], controller=Controller.PLAYER)
    return replace(position, hexes=hexes, units=units, factions=factions)


@st.composite
def refreshing(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` whose moving faction is the shada, played by the AI or a player, with one
    or two shada Refresh spires on free hexes made water (a recovery only on water) and shada units
    below their health stat, some with a fortification upgrade: the boards where Refresh heals. Not
    in the common pools (drawn there it would change every board of the suite's fixed sample)."""
    position = draw(boards)
    shada = "shada"
    taken = {u.at for u in position.units.values()} | {s.at for s in position.spires} \
        | {m.at for m in position.landmarks} | {c.at for c in position.chips}
    free = sorted(n for n in position.hexes if n not in taken)
    places = draw(st.lists(st.sampled_from(free), min_size=1, max_size=2, unique=True)) if free else []
    hexes = {n: replace(h, terrain=Terrain.WATER) if n in places else h for n, h in position.hexes.items()}
    towers = tuple(Spire(f"tower{i}", shada, at, talents=("Refresh",)) for i, at in enumerate(places))
    controller = draw(st.sampled_from((Controller.AI, Controller.PLAYER)))

    def worn(u: Unit) -> Unit:
        if u.faction != shada or u.kind is Kind.LANDMARK_MINION or u.side.health < 2:
            return u
        health = draw(st.integers(1, u.side.health))
        upgrades = ("fortification",) if draw(st.integers(0, 3)) == 0 else u.upgrades
        return replace(u, health=health, upgrades=upgrades)

    named = renamed(position, {MOVER: shada})
    return replace(
        named,
        hexes=hexes,
        factions={n: replace(f, controller=controller) if n == shada else f for n, f in named.factions.items()},
        units={uid: worn(u) for uid, u in sorted(named.units.items())},
        spires=(*named.spires, *towers),
    )


def _some(draw: st.DrawFn, ids: list[str]) -> set[str]:
    """One or more of ``ids`` (none where there are none): the units a strategy hands its talent."""
    return draw(st.sets(st.sampled_from(ids), min_size=1)) if ids else set()


def _placed_movers(draw: st.DrawFn, position: Position) -> set[str]:
    """One or more of the moving faction's units on the map (no landmark minion): those a strategy hands its
    talent."""
    return _some(draw, sorted(uid for uid, u in position.units.items() if u.faction == position.turn.faction
                              and u.kind is not Kind.LANDMARK_MINION and position.placed(uid)))


def _played_with(draw: st.DrawFn, position: Position, talent: str, placed: bool = False) -> Position:
    """``position`` played by a player, one or more of its moving faction's units (no landmark minion;
    on the map, if ``placed``) given ``talent``."""
    faction = position.turn.faction
    movers = sorted(uid for uid, u in position.units.items()
                    if u.faction == faction and u.kind is not Kind.LANDMARK_MINION and (u.at is not None or not placed))
    units = dict(position.units)
    for uid in _some(draw, movers):
        units[uid] = replace(units[uid], talents=units[uid].talents + (talent,))
    factions = {**position.factions, faction: replace(position.factions[faction], controller=Controller.PLAYER)}
    return replace(position, units=units, factions=factions)


@st.composite
def dispersing(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` whose moving faction the AI controls, one or more of its minions holding
    Disperse (some Impale too, some mercs, some down to 1 health, so that the damage to itself may
    defeat it); opposing heroes are mostly made minions and one more opposing minion stands on a free
    hex, so that there is a minion to place beside; opposing units are sometimes down to 1 health or
    wear a fortification upgrade. Handed out here only, never from the common pools (as ``striking``)."""
    position = draw(boards)
    units = dict(position.units)
    faction = position.turn.faction
    movers = sorted(uid for uid, u in units.items() if u.faction == faction and u.kind is Kind.MINION)
    chosen = _some(draw, movers)
    for uid in chosen:
        u = units[uid]
        extra = draw(st.sampled_from((("Disperse",),) * 3 + (("Disperse", "Impale"),)))
        units[uid] = replace(u, talents=u.talents + extra, merc=draw(st.integers(0, 3)) == 0,
                             health=draw(st.sampled_from((u.health,) * 2 + (1,))))
    for uid, u in sorted(units.items()):
        if u.faction != faction:
            if u.kind is Kind.HERO and draw(st.integers(0, 3)) > 0:
                u = replace(u, kind=Kind.MINION, campfire=False)
            worn = draw(st.sampled_from(("whole",) * 2 + ("wounded", "fortified")))
            units[uid] = replace(u, health=1) if worn == "wounded" else (
                replace(u, upgrades=("fortification",)) if worn == "fortified" else u)
    taken = {u.at for u in units.values()} | {s.at for s in position.spires} | {m.at for m in position.landmarks}
    free = set(position.hexes) - taken - {c.at for c in position.chips}
    # Mostly a few hexes from a Disperse minion on the map, where its moves may end 2 hexes from it.
    near = {n for uid in chosen if units[uid].at for n in _within(position, units[uid].at, 4)}
    free = sorted(free & near if free & near and draw(st.integers(0, 3)) > 0 else free)
    if free:
        units["e9"] = unit("e9", OPPONENT, draw(st.sampled_from(free)), 2, terrain=Terrain.WATER,
                           health=draw(st.sampled_from((1, 2))))
    factions = {**position.factions, faction: replace(position.factions[faction], controller=Controller.AI)}
    return replace(position, units=units, factions=factions)


@st.composite
def erupting(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` where one or more of the moving faction's minions hold Eruption (N129),
    some down to 1 or 2 health (the AI's "2 health or less"), some mercs (a Peaceful unit beside takes
    theirs); the faction holds 0 to 5 Source (a player's spends 3); opposing units are sometimes down
    to 1 health or wear a fortification upgrade. Handed out here only, never from the common pools."""
    position = draw(boards)
    units = dict(position.units)
    faction = position.turn.faction
    movers = sorted(uid for uid, u in units.items() if u.faction == faction and u.kind is Kind.MINION)
    for uid in _some(draw, movers):
        u = units[uid]
        units[uid] = replace(u, talents=u.talents + ("Eruption",), merc=draw(st.integers(0, 3)) == 0,
                             health=draw(st.sampled_from((u.health, 1, 2))))
    for uid, u in sorted(units.items()):
        if u.faction != faction:
            worn = draw(st.sampled_from(("whole",) * 2 + ("wounded", "fortified")))
            units[uid] = replace(u, health=1) if worn == "wounded" else (
                replace(u, upgrades=("fortification",)) if worn == "fortified" else u)
    factions = {**position.factions, faction: replace(position.factions[faction], source=draw(st.integers(0, 5)))}
    readings = {**position.readings, "spire-defeat": draw(st.sampled_from(("bare", "last-upgrade")))}
    return replace(position, units=units, factions=factions, spires=_struck_spires(draw, position), readings=readings)


@st.composite
def digging(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` played by a player, one or more of whose units hold Dig (N131), on a map of
    mixed terrain, so that a chip placed before a move may stand in its way. Handed out here only, never
    from the common pools."""
    return _played_with(draw, draw(boards), "Dig")


@st.composite
def gateporting(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` played by a player, some of whose units hold Portable Gateport (N195), its
    faction holding 0 to 2 Source, and often the item's chip on a free hex near its heroes, on a map of
    mixed terrain. Handed out here only, never from the common pools."""
    position = _played_with(draw, draw(boards), "Portable Gateport")
    faction = position.turn.faction
    factions = {**position.factions, faction: replace(position.factions[faction], source=draw(st.integers(0, 2)))}
    taken = ({u.at for u in position.units.values()} | {s.at for s in position.spires}
             | {m.at for m in position.landmarks} | {c.at for c in position.chips})
    near = {n for u in position.units.values() if u.faction == faction and u.kind is Kind.HERO and u.at
            for n in _within(position, u.at, 2)}
    free = sorted((set(position.hexes) - taken) & near)
    chips = position.chips
    if free and draw(st.integers(0, 3)) > 0:
        item = Chip("item8", draw(st.sampled_from(free)), "Portable Gateport", talents=("Portable Gateport",))
        chips = (*chips, item)
    return replace(position, factions=factions, chips=chips)


@st.composite
def building(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` where some of the moving faction's units hold Builder (N225), some promoted with a
    promoted side of more movement and health, every spire named (some Dispatch Platforms), Source wells on
    free hexes near them (some covered by a unit or spire), one more dispatch platform near them, and often
    the faction's barracks given. Handed out here only, never from the common pools."""
    position = draw(boards)
    units = dict(position.units)
    faction = position.turn.faction
    chosen = _placed_movers(draw, position)
    for uid in chosen:
        u = units[uid]
        promoted = draw(st.booleans())
        side = replace(u.stats, movement=u.stats.movement + 1, health=u.stats.health + 1) if promoted else None
        units[uid] = replace(u, talents=(*u.talents, "Builder"), promoted=promoted, promoted_stats=side,
                             health=side.health if side else u.health)
    names = ("Dispatch Platform", "Tower")
    spires = [replace(sp, chip=draw(st.sampled_from(names))) for sp in position.spires]
    near = sorted({n for uid in chosen if units[uid].at for n in _within(position, units[uid].at, 2)
                   if n in position.hexes})
    taken = {u.at for u in units.values()} | {sp.at for sp in spires} | {m.at for m in position.landmarks}
    free = sorted(set(near) - taken - {c.at for c in position.chips})
    if free and draw(st.booleans()):
        spires.append(Spire("platform8", draw(st.sampled_from((OPPONENT, faction))), draw(st.sampled_from(free)),
                            draw(st.sampled_from(((), ("attack",)))), chip="Dispatch Platform"))
    wells = set(draw(st.lists(st.sampled_from(near), max_size=4))) if near else set()
    hexes = {n: replace(h, well=True) if n in wells and not h.rock else h for n, h in position.hexes.items()}
    factions = position.factions
    if draw(st.booleans()):
        factions = {**factions, faction: replace(factions[faction], barracks=factions[faction].barracks or ())}
    return replace(position, units=units, spires=tuple(spires), hexes=hexes, factions=factions)


@st.composite
def burrowing(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` where some of the moving faction's units hold Burrow (N192), some of them
    wounded (the AI's burrows then), some grouped (a player's does not), on a map of mixed terrain. Handed
    out here only, never from the common pools."""
    position = draw(boards)
    units = dict(position.units)
    for uid in _placed_movers(draw, position):
        u = units[uid]
        health = max(1, u.health - 1) if draw(st.booleans()) else u.health
        group = u.group or ((GroupedChip("Scout", Stats(health=1, movement=u.stats.movement)),)
                            if u.kind is Kind.MINION and draw(st.integers(0, 3)) == 0 else ())
        units[uid] = replace(u, talents=(*u.talents, "Burrow"), health=health, group=group)
    return replace(position, units=units)


@st.composite
def calling(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` played by a player, one or more of whose units hold Call Minion (N127), some
    having used it this wave; the faction holds 1 to 4 Source (it spends 2). Handed out here only, never
    from the common pools."""
    position = _played_with(draw, draw(boards), "Call Minion")
    units = dict(position.units)
    for uid, u in sorted(units.items()):
        if "Call Minion" in u.talents and draw(st.integers(0, 3)) == 0:
            units[uid] = replace(u, used=("Call Minion",))
    faction = position.turn.faction
    factions = {**position.factions, faction: replace(position.factions[faction], source=draw(st.integers(1, 4)))}
    return replace(position, units=units, factions=factions)


@st.composite
def summoning(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` played by a player, with a revealed landmark holding Summon Hero (N128) on a free
    hex, mostly beside a hero of the moving faction; the faction holds 2 to 4 Source (a use spends 3).
    Handed out here only, never from the common pools."""
    position = draw(boards)
    faction = position.turn.faction
    taken = {u.at for u in position.units.values()} | {s.at for s in position.spires}
    taken |= {c.at for c in position.chips} | {m.at for m in position.landmarks}
    free = sorted(h for h in position.hexes if h not in taken)
    heroes = [u.at for u in position.units.values() if u.faction == faction and u.kind is Kind.HERO and u.at]
    near = sorted({n for at in heroes for n in position.neighbours(at)} & set(free))
    if not free:
        return position
    site = draw(st.sampled_from(near if near and draw(st.integers(0, 3)) > 0 else free))
    landmarks = (*position.landmarks, Landmark("shrine", site, "Shrine", True, ("Summon Hero",)))
    factions = {**position.factions, faction: replace(position.factions[faction], controller=Controller.PLAYER,
                                                      source=draw(st.integers(2, 4)))}
    return replace(position, landmarks=landmarks, factions=factions)


@st.composite
def radiating(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` played by a player, one or more of whose units on the map hold Radiate (N111),
    some with an upgrade or more health to give, and some of the units beside them wounded or fortified.
    Handed out here only, never from the common pools."""
    position = _played_with(draw, draw(boards), "Radiate", placed=True)
    units = dict(position.units)
    for uid, u in sorted(units.items()):
        if "Radiate" in u.talents:
            units[uid] = replace(u, health=draw(st.integers(1, 3)),
                                 upgrades=tuple(draw(st.lists(st.sampled_from(("fortification", "range")), max_size=2))))
    return replace(position, units=units)


@st.composite
def twisting(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` played by a player, one or more of whose units hold Twister (N110), with a face
    down landmark added on a free hex where the board has none, so that a landmark moved may stand in
    a later move's way. Handed out here only, never from the common pools."""
    position = _played_with(draw, draw(boards), "Twister")
    landmarks = position.landmarks
    taken = {u.at for u in position.units.values()} | {s.at for s in position.spires} | {c.at for c in position.chips}
    free = sorted(h for h in position.hexes if h not in taken)
    if not landmarks and free:
        landmarks = (Landmark("twisted", draw(st.sampled_from(free))),)
    return replace(position, landmarks=landmarks)


@st.composite
def acting(draw: st.DrawFn, boards: st.SearchStrategy[Position], talent: str) -> Position:
    """A board of ``boards`` where some of the moving faction's units hold ``talent``, one that acts
    before or after a move (Consume: on heroes; Yrtel's Way: on minions; Yrtel's Will: on spires; a hero
    among the holders where there is one, some with a promoted side of more movement and health), and
    the units it acts on, of every faction, one more of the opponent's on a free hex near them, are
    often down to 1 or 2 health (some with a fortification, which counts as health); the spires, some
    with attack upgrades, one more of either side near them. Handed out here only, never from the
    common pools."""
    position = draw(boards)
    prey = Kind.HERO if talent == "Consume" else Kind.MINION
    units = dict(position.units)
    faction = position.turn.faction
    movers = sorted(uid for uid, u in units.items() if u.faction == faction and position.placed(uid))
    chosen = _some(draw, movers)
    for uid in chosen:
        u = units[uid]
        side = replace(u.stats, movement=u.stats.movement + 1, health=u.stats.health + 1) if draw(st.booleans()) else None
        units[uid] = replace(u, talents=(*u.talents, talent), promoted_stats=side,
                             upgrades=draw(st.sampled_from(((), ("attack",)))))
    for uid, u in sorted(units.items()):
        if u.kind is prey and uid not in chosen:
            worn = draw(st.sampled_from(("whole", "wounded", "wounded", "fortified")))
            units[uid] = replace(u, health=draw(st.sampled_from((1, 2)))) if worn == "wounded" else (
                replace(u, health=2, upgrades=("fortification",)) if worn == "fortified" else u)
    taken = {u.at for u in units.values()} | {s.at for s in position.spires} | {m.at for m in position.landmarks}
    free = set(position.hexes) - taken - {c.at for c in position.chips}
    near = {n for uid in chosen if units[uid].at for n in _within(position, units[uid].at, 3)}
    free = sorted(free & near if free & near and draw(st.integers(0, 3)) > 0 else free)
    if talent == "Yrtel's Will":  # it acts on spires: some with attack upgrades, one more near the holders
        kinds = ((), ("attack",), ("fortification", "attack"), ("range",))
        spires = [replace(sp, upgrades=draw(st.sampled_from(kinds))) for sp in position.spires]
        if free:
            spires.append(Spire("tower8", draw(st.sampled_from((OPPONENT, faction))), draw(st.sampled_from(free)),
                                draw(st.sampled_from(kinds[1:]))))
        return replace(position, units=units, spires=tuple(spires))
    if free:
        units["e8"] = unit("e8", OPPONENT, draw(st.sampled_from(free)), 2, kind=prey,
                           health=draw(st.sampled_from((1, 2, 3))))
    return replace(position, units=units)


@st.composite
def missiling(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` where some of the moving faction's units on the map hold Magic-Like Missile
    (N133), some of them mercs, the faction holding 1 to 3 Source (2 lets a player's fire); the other units
    often down to 1 health, some fortified, some Peaceful, so that a missile before a move may clear its
    way and the AI's "most health" has ties. Handed out here only, never from the common pools."""
    position = draw(boards)
    units = dict(position.units)
    faction = position.turn.faction
    chosen = _placed_movers(draw, position)
    for uid in chosen:
        units[uid] = replace(units[uid], talents=(*units[uid].talents, "Magic-Like Missile"), merc=draw(st.booleans()))
    for uid, u in sorted(units.items()):
        if uid not in chosen:
            worn = draw(st.sampled_from(("whole", "wounded", "fortified", "peaceful")))
            units[uid] = (replace(u, health=1) if worn == "wounded" else
                          replace(u, upgrades=(*u.upgrades, "fortification")) if worn == "fortified" else
                          replace(u, talents=(*u.talents, "Peaceful")) if worn == "peaceful" else u)
    factions = {**position.factions, faction: replace(position.factions[faction], source=draw(st.integers(1, 3)))}
    return replace(position, units=units, factions=factions)


@st.composite
def scattering(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` where some of the moving faction's minions on the map hold Scatter, most of
    them grouped (a chip beneath of as much movement or one more, sometimes with Scatter too), and one
    more opposing minion or spire stands on a free hex near them, so that the AI's "adjacent to an
    opposing unit or spire" holds somewhere. Handed out here only, never from the common pools."""
    position = draw(boards)
    units = dict(position.units)
    faction = position.turn.faction
    movers = sorted(uid for uid, u in units.items() if u.faction == faction and u.kind is Kind.MINION and u.at)
    chosen = _some(draw, movers)
    for uid in chosen:
        u = units[uid]
        below = replace(u.stats, movement=u.stats.movement + draw(st.integers(0, 1)), health=draw(st.integers(1, 3)))
        talents = draw(st.sampled_from(((), (), ("Scatter",))))
        group = (GroupedChip(f"{uid} below", below, talents),) if draw(st.integers(0, 3)) > 0 else ()
        units[uid] = replace(u, talents=(*u.talents, "Scatter"), group=group)
    taken = {u.at for u in units.values()} | {s.at for s in position.spires} | {m.at for m in position.landmarks}
    free = set(position.hexes) - taken - {c.at for c in position.chips}
    near = {n for uid in chosen for n in _within(position, units[uid].at, 3)}
    free = sorted(free & near if free & near and draw(st.integers(0, 3)) > 0 else free)
    if free and draw(st.booleans()):
        units["e9"] = unit("e9", OPPONENT, draw(st.sampled_from(free)), 2)
    elif free:
        spire = Spire("tower9", OPPONENT, draw(st.sampled_from(free)), ())
        return replace(position, units=units, spires=(*position.spires, spire))
    return replace(position, units=units)


@st.composite
def tracking(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` where some of the moving faction's units on the map hold Tracker (1 to 3),
    and one more landmark minion stands on a free hex a few hexes from them. Handed out here only, never
    from the common pools."""
    position = draw(boards)
    units = dict(position.units)
    faction = position.turn.faction
    movers = sorted(uid for uid, u in units.items() if u.faction == faction and u.at and u.kind is not Kind.LANDMARK_MINION)
    chosen = _some(draw, movers)
    for uid in chosen:
        u = units[uid]
        units[uid] = replace(u, talents=(*u.talents, "Tracker"),
                             talent_numbers=(*u.talent_numbers, ("Tracker", draw(st.integers(1, 3)))))
    taken = {u.at for u in units.values()} | {s.at for s in position.spires} | {m.at for m in position.landmarks}
    free = set(position.hexes) - taken - {c.at for c in position.chips}
    near = {n for uid in chosen for n in _within(position, units[uid].at, 4)}
    free = sorted(free & near if free & near and draw(st.integers(0, 3)) > 0 else free)
    if free:
        units["lm9"] = unit("lm9", OPPONENT, draw(st.sampled_from(free)), 0, kind=Kind.LANDMARK_MINION)
    return replace(position, units=units)


@st.composite
def idling(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` where some of the other factions' units hold Blaze or Tracker, talents that act
    only as their own unit moves (Tracker: catalogue own_move): the moving faction's step is as it is without
    them, and the one solve answers it. Handed out here only, never from the common pools. Not on a unit a move
    may displace (Flying, Peaceful): Blaze acts where it lands (N266), which the search answers."""
    position = draw(boards)
    units = dict(position.units)
    others = sorted(uid for uid, u in units.items() if u.faction != position.turn.faction and u.kind is not Kind.LANDMARK_MINION
                    and not {"Flying", "Peaceful"} & set(u.talents))
    for uid in _some(draw, others):
        u = units[uid]
        name = draw(st.sampled_from(("Blaze", "Tracker")))
        numbers = (*u.talent_numbers, ("Tracker", draw(st.integers(1, 3)))) if name == "Tracker" else u.talent_numbers
        units[uid] = replace(u, talents=(*u.talents, name), talent_numbers=numbers)
    return replace(position, units=units)


def ablaze(position: Position, controller: Controller = Controller.AI) -> Position:
    """The board with its moving faction under ``controller`` and Blaze on each of that faction's units, their
    allowances and the terrain as drawn: most routes then meet no forest hex, where the one solve answers
    (whole.lp, wtouch/2), and an AI Blaze hero's walk keeps its notice."""
    faction = position.turn.faction
    units = {uid: replace(u, talents=(*u.talents, "Blaze")) if u.faction == faction else u for uid, u in position.units.items()}
    factions = {**position.factions, faction: replace(position.factions[faction], controller=controller)}
    return replace(position, units=units, factions=factions)


def _blaze_minions(draw: st.DrawFn, units: dict[str, Unit], faction: str, mercs: bool) -> set[str]:
    """Some of ``faction``'s minions given Blaze and an allowance that admits forest, in ``units``;
    ``mercs``: each a merc by a draw (as some are)."""
    chosen = _some(draw, sorted(uid for uid, u in units.items() if u.faction == faction and u.kind is Kind.MINION))
    for uid in chosen:
        u = units[uid]
        terrain = u.terrain if u.terrain.level >= Terrain.FOREST.level else Terrain.FOREST
        merc = draw(st.integers(0, 3)) == 0 if mercs else u.merc
        units[uid] = replace(u, talents=u.talents + ("Blaze",), terrain=terrain, merc=merc)
    return chosen


@st.composite
def blazing(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` whose moving faction the AI controls, one or more of its minions holding
    Blaze with an allowance that admits forest (some mercs), a few free hexes near them made forest, and
    opposing units sometimes down to 1 health, so that a route may enter a forest hex beside one and its
    damage may defeat it. Handed out here only, never from the common pools (as ``dispersing``)."""
    position = draw(boards)
    units = dict(position.units)
    faction = position.turn.faction
    chosen = _blaze_minions(draw, units, faction, mercs=True)
    for uid, u in sorted(units.items()):
        if u.faction != faction and draw(st.integers(0, 2)) == 0:
            units[uid] = replace(u, health=1)
    taken = {u.at for u in units.values()} | {s.at for s in position.spires} | {m.at for m in position.landmarks}
    near = {n for uid in chosen if units[uid].at for n in _within(position, units[uid].at, 3)}
    free = sorted((set(position.hexes) - taken - {c.at for c in position.chips}) & near)
    forests = draw(st.lists(st.sampled_from(free), min_size=1, max_size=4, unique=True)) if free else []
    hexes = {n: replace(h, terrain=Terrain.FOREST) if n in forests else h for n, h in position.hexes.items()}
    factions = {**position.factions, faction: replace(position.factions[faction], controller=Controller.AI)}
    return replace(position, hexes=hexes, units=units, factions=factions)


@st.composite
def preyed(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` whose moving faction's mark is an opposing unit on a map hex (no landmark minion)
    down to 1 health: a Blaze move beside it defeats the mark, which is no mark for the moves after it
    (reference/movement.py, N291). Handed out here only, never from the common pools (as ``blazing``)."""
    position = draw(boards)
    faction = position.turn.faction
    prey = sorted(uid for uid, u in position.units.items()
                  if u.faction != faction and u.at in position.hexes and u.kind is not Kind.LANDMARK_MINION)
    assume(prey)
    uid = draw(st.sampled_from(prey))
    factions = {**position.factions, faction: replace(position.factions[faction], mark=Mark(unit=uid))}
    return replace(position, factions=factions, units={**position.units, uid: replace(position.units[uid], health=1)})


@st.composite
def scorching(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` whose moving faction the AI controls, one or more of its minions holding
    Blaze with an allowance that admits forest, a few free hexes on their way (within their movement and
    closer to their mark) made forest, and opposing units moved beside some of those, at 2 or 3 health:
    the boards where the one solve plays Blaze's damage (whole.lp, burn/3). Handed out here only, never
    from the common pools (as ``blazing``)."""
    position = draw(boards)
    units = dict(position.units)
    faction = position.turn.faction
    chosen = _blaze_minions(draw, units, faction, mercs=False)
    taken = {u.at for u in units.values()} | {s.at for s in position.spires} | {m.at for m in position.landmarks}
    free = set(position.hexes) - taken - {c.at for c in position.chips}
    way: set[str] = set()
    for uid in sorted(chosen):
        u = units[uid]
        d = fields.mark_distances(position, Terrain.FOREST, faction, fields.counts_through(u))
        if u.at in d:
            way |= {n for n in _within(position, u.at, u.stats.movement) & free
                    if d[u.at] - u.stats.movement <= d.get(n, -1) < d[u.at]}
    forests = draw(st.lists(st.sampled_from(sorted(way)), min_size=1, max_size=3, unique=True)) if way else []
    foes = [uid for uid, u in sorted(units.items())
            if u.faction != faction and u.at in position.hexes and u.kind is not Kind.LANDMARK_MINION]
    for forest in forests:
        spots = sorted(set(position.neighbours(forest)) & free - way)
        if foes and spots and draw(st.booleans()):
            uid, spot = draw(st.sampled_from(foes)), draw(st.sampled_from(spots))
            free = (free | {units[uid].at}) - {spot}
            units[uid] = replace(units[uid], at=spot, health=min(units[uid].stats.health, draw(st.integers(2, 3))))
    hexes = {n: replace(h, terrain=Terrain.FOREST) if n in forests else h for n, h in position.hexes.items()}
    factions = {**position.factions, faction: replace(position.factions[faction], controller=Controller.AI)}
    return replace(position, hexes=hexes, units=units, factions=factions)


@st.composite
def gusting(draw: st.DrawFn, boards: st.SearchStrategy[Position]) -> Position:
    """A board of ``boards`` whose moving faction a player controls, one or two of its units on the map
    holding Gust on a plains hex, with an allowance that admits it: the boards where a player's Gust is a
    choice of stat. Handed out here only, never from the common pools (as ``blazing``)."""
    position = draw(boards)
    units = dict(position.units)
    faction = position.turn.faction
    movers = sorted(uid for uid, u in units.items()
                    if u.faction == faction and u.at in position.hexes and u.kind is not Kind.LANDMARK_MINION)
    chosen = draw(st.sets(st.sampled_from(movers), min_size=1, max_size=2)) if movers else set()
    hexes = dict(position.hexes)
    for uid in sorted(chosen):
        u = units[uid]
        terrain = u.terrain if u.terrain.level >= Terrain.PLAINS.level else Terrain.PLAINS
        units[uid] = replace(u, talents=tuple(t for t in u.talents if t != "Gust") + ("Gust",), terrain=terrain)
        hexes[u.at] = replace(hexes[u.at], terrain=Terrain.PLAINS)
    factions = {**position.factions, faction: replace(position.factions[faction], controller=Controller.PLAYER)}
    return replace(position, hexes=hexes, units=units, factions=factions)


def _within(position: Position, start: str, steps: int) -> set[str]:
    """The nodes up to ``steps`` hexes from ``start``."""
    seen, frontier = {start}, {start}
    for _ in range(steps):
        frontier = {n for f in frontier for n in position.neighbours(f)} - seen
        seen |= frontier
    return seen


# The whole step's tests list every board by the order search. Its cost grows with the orders and
# routes of the faction's units; CI keeps to boards where it stays affordable, and `python -m
# bench.sweep` draws every board.
STEP_UNITS = 5
STEP_MOVEMENT = 16


def affordable_step(position: Position) -> bool:
    """At most STEP_UNITS units of the moving faction still to move, with at most STEP_MOVEMENT
    movement between them."""
    moving = [u for u in position.units.values() if u.faction == position.turn.faction and not u.done.moved]
    return len(moving) <= STEP_UNITS and sum(u.stats.movement for u in moving) <= STEP_MOVEMENT


# Talents a minion uses to get past what stands in its way (Incorporeal, Breakneck, Crush); a Breakneck
# Incorporeal unit steals only from the units Incorporeal passes (N217, N269).
PASSING = (("Incorporeal",), ("Breakneck",), ("Crush",), ("Crush", "Incorporeal"), ("Breakneck", "Incorporeal"))


@st.composite
def crowded_lanes(draw: st.DrawFn) -> Position:
    """A narrow board, one or two rows, with a passing-talent minion (a hero one time in three, N269,
    N270, with range 1 to 3) at its left end and opposing units, a spire or a landmark in its way: the
    boards where those talents change the outcome."""
    rows = draw(st.integers(1, 2))
    columns = draw(st.integers(4, 8))
    grid = {cell: draw(st.sampled_from("p" * 6 + "lf")) for cell in _cells(rows, columns)}
    map_text = _map_text(grid, rows, columns)
    hexes, _, _ = parse_map(map_text)
    column = {name: h.column for name, h in hexes.items()}
    start = draw(st.sampled_from(sorted(n for n in hexes if column[n] == 0)))
    free = sorted((n for n in hexes if n != start), key=lambda n: (column[n], n))
    mover = unit(
        "m1", MOVER, start, draw(st.integers(2, 5)), terrain=draw(st.sampled_from((Terrain.PATH, Terrain.PLAINS))),
        talents=draw(st.sampled_from(PASSING)), health=draw(st.integers(2, 3)),
        kind=draw(st.sampled_from((Kind.MINION, Kind.MINION, Kind.HERO))), range=draw(st.integers(1, 3)),
    )
    units = [mover]
    for i in range(draw(st.integers(1, 3))):
        at = free.pop(draw(st.integers(0, min(3, len(free) - 1))))
        kind = draw(st.sampled_from((Kind.MINION, Kind.MINION, Kind.HERO, Kind.LANDMARK_MINION)))
        # N242: an opposing unit the mover may also displace (Flying, Peaceful), to pass or displace.
        units.append(unit(f"e{i + 1}", OPPONENT, at, 2, kind=kind, terrain=Terrain.WATER,
                          health=draw(st.integers(1, 3)), talents=draw(st.sampled_from(((),) * 3 + (("Flying",), ("Peaceful",))))))
    if free and draw(st.booleans()):
        kind = draw(st.sampled_from((Kind.MINION, Kind.HERO)))
        units.append(unit("f1", MOVER, free.pop(draw(st.integers(0, min(3, len(free) - 1)))), 2, kind=kind,
                          terrain=Terrain.WATER, moved=True))
    chips = [free.pop(draw(st.integers(0, min(3, len(free) - 1)))) for _ in range(draw(st.integers(0, 2))) if free]
    other = [chips.pop()] if chips and draw(st.integers(0, 2)) == 0 else []  # no talent passes another chip
    landmark = draw(st.booleans())
    last = sorted(n for n in hexes if column[n] == columns - 1)
    # N217, N218: Source to steal as the mover passes opposing units (Incorporeal), and rewards for the
    # units a displacement's damage defeats (Crush), the mover's faction near its capacity.
    units = [replace(u, reward=Reward(source=draw(st.integers(0, 2)))) if u.faction == OPPONENT else u for u in units]
    board = build(
        map_text,
        units,
        gates={MOVER: (start,), OPPONENT: tuple(last)},
        controllers={MOVER: draw(st.sampled_from((Controller.PLAYER, Controller.AI))), OPPONENT: Controller.AI},
        spires=chips[1:] if landmark else chips,
        landmarks=[(chips[0], True)] if landmark and chips else [],
        chips=other,
        readings={"displacement": draw(st.sampled_from(("needed", "needed", "optional"))),
                  "displaced-landing": draw(st.sampled_from(("adjacent", "adjacent", "swap", "blocked")))},
    )
    return replace(board, factions={f: replace(x, source=draw(st.integers(0, 3)), source_capacity=draw(st.integers(3, 5)))
                                    for f, x in board.factions.items()})
