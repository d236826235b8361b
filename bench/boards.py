"""Deterministic benchmark boards, and writing a position as a position file (docs/position-format.md).

Three kinds of board, all for ``heirs`` to move in against ``narora``:

- `field`: an open board of exactly ``hexes`` hexes, mostly path and plains with a few forest and
  water patches and a few gaps; ``units`` units, mostly heirs minions, with a couple of heirs heroes,
  some narora minions, and a few spires and landmarks.
- `realistic`: a field board whose minions all stand on hexes that lead to their mark (real boards
  rarely have a minion on a path island among plains), two heroes a side, and optionally minions
  waiting in the heirs gate to deploy.
- `corridor`: one path winding from the left edge to the right through forest and water, a few heirs
  minions on it and a hero who may walk the forest, all with the same movement: for measuring how
  grounding grows.

Every board is a function of its arguments alone (``random.Random(seed)``); one chip per hex.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import yaml

from adjudicator.facts import fields
from adjudicator.position.hexmap import ROCK, TERRAIN_LETTERS, hex_name, neighbour_cells, parse_map
from adjudicator.position.chapter_rules import closest_marks
from adjudicator.position.load import load_position_text
from adjudicator.position.scenarios import Scenario
from adjudicator.position.model import (
    Controller,
    Faction,
    Gate,
    Hex,
    Kind,
    Landmark,
    Mark,
    Position,
    Spire,
    Stats,
    Terrain,
    Turn,
    Unit,
)

MOVER, OPPONENT = "heirs", "narora"
FORMAT = "cloudspire-position/1"

Cell = tuple[int, int]  # (0-based column, 1-based row), as in adjudicator.position.hexmap
Grid = dict[Cell, str]  # cell → map token

LETTERS = {terrain: letter for letter, terrain in TERRAIN_LETTERS.items()}
HERO_ALLOWANCES = (Terrain.PLAINS, Terrain.FOREST)


# ------------------------------------------------------------------------------------ the maps


def _map_text(grid: Grid) -> str:
    """The picture of ``grid``: absent cells are drawn as gaps, even rows shifted right."""
    rows = max(row for _, row in grid)
    columns = max(column for column, _ in grid) + 1
    lines = []
    for row in range(1, rows + 1):
        tokens = [grid.get((column, row), ".") for column in range(columns)]
        lines.append(f"{row:<3}" + (" " if row % 2 == 0 else "") + "  ".join(tokens))
    return "\n".join(lines) + "\n"


def _field_grid(rng: random.Random, hexes: int) -> tuple[Grid, int]:
    """Exactly ``hexes`` hexes, row by row (the last row may be short), and the number of columns."""
    gaps = max(1, hexes // 60)
    columns = min(26, round(math.sqrt(1.6 * hexes)))
    cells = [(index % columns, index // columns + 1) for index in range(hexes + gaps)]
    grid = {cell: rng.choice("ppppplll") for cell in cells}
    for _ in range(max(1, hexes // 30)):  # forest and water patches
        centre = rng.choice(cells)
        patch = rng.choice("fw")
        for cell in [centre, *neighbour_cells(*centre)]:
            if cell in grid and rng.random() < 0.7:
                grid[cell] = patch
    inner = [cell for cell in cells if 0 < cell[0] < columns - 1]  # the gate edges stay whole
    for cell in rng.sample(inner, gaps):
        del grid[cell]
    return grid, columns


def _corridor_grid(rng: random.Random, columns: int, rows: int) -> tuple[Grid, list[Cell]]:
    """Forest and water, with a path from the left edge to the right; the path's cells in order."""
    grid = {(column, row): rng.choice("fw") for row in range(1, rows + 1) for column in range(columns)}
    cell = (0, rng.randint(1, rows))
    path = [cell]
    sideways = rows  # steps within one column, so that the walk always ends
    while cell[0] < columns - 1:
        around = [n for n in neighbour_cells(*cell) if n in grid and n not in path]
        forward = sorted(n for n in around if n[0] > cell[0])
        within = sorted(n for n in around if n[0] == cell[0]) if sideways else []
        cell = rng.choice(forward + within)
        sideways -= cell in within
        path.append(cell)
    for cell in path:
        grid[cell] = "p"
    return grid, path


def _edge_gate(rng: random.Random, grid: Grid, column: int) -> tuple[str, ...]:
    """Two touching hexes of an edge column, made path, for a fortress gate to stand beside."""
    rows = sorted(row for c, row in grid if c == column and (c, row + 1) in grid)
    row = rng.choice(rows)
    for cell in ((column, row), (column, row + 1)):
        grid[cell] = "p"
    return (hex_name(column, row), hex_name(column, row + 1))


# ---------------------------------------------------------------------------------- the chips


class _Builder:
    """A map being filled with chips, one per hex, in the order they are asked for."""

    def __init__(self, rng: random.Random, grid: Grid, gates: Mapping[str, tuple[str, ...]]) -> None:
        self.rng = rng
        self.hexes, self.adjacency, problems = parse_map(_map_text(grid))
        assert not problems, problems
        self.gates = gates
        self.free = sorted(set(self.hexes) - {h for beside in gates.values() for h in beside})
        self.units: list[Unit] = []
        self.spires: list[Spire] = []
        self.landmarks: list[Landmark] = []

    def take(self, hardest: Terrain) -> str:
        """A free hex whose terrain is at most ``hardest``, or any free hex when there is none."""
        admitted = [h for h in self.free if self.hexes[h].terrain.level <= hardest.level]
        choice = self.rng.choice(admitted or self.free)
        self.free.remove(choice)
        return choice

    def unit(self, id: str, faction: str, kind: Kind, movement: int, at: str, terrain: Terrain) -> None:
        stats = Stats(health=2, attack=1, movement=movement, range=self.rng.randint(1, 2))
        self.units.append(Unit(id, id, faction, kind, stats.health, stats, at, terrain=terrain))

    def minion(self, id: str, faction: str, movement: int, at: str | None = None) -> None:
        self.unit(id, faction, Kind.MINION, movement, at or self.take(Terrain.PATH), Terrain.PATH)

    def hero(self, id: str, movement: int, allowance: Terrain) -> None:
        self.unit(id, MOVER, Kind.HERO, movement, self.take(allowance), allowance)

    def spire(self) -> None:
        self.spires.append(Spire(f"spire{len(self.spires) + 1}", OPPONENT, self.take(Terrain.WATER)))

    def landmark(self) -> None:
        at = self.take(Terrain.WATER)
        self.landmarks.append(Landmark(f"landmark{len(self.landmarks) + 1}", at, "Ruin"))

    def position(self, title: str) -> Position:
        factions = {
            MOVER: Faction(MOVER, Controller.PLAYER, Mark(gate=OPPONENT)),
            OPPONENT: Faction(OPPONENT, Controller.AI, Mark(gate=MOVER)),
        }
        return Position(
            hexes=self.hexes,
            adjacency=self.adjacency,
            gates={faction: Gate(faction, beside) for faction, beside in self.gates.items()},
            factions=factions,
            units={u.id: u for u in self.units},
            turn=Turn(MOVER),
            spires=tuple(self.spires),
            landmarks=tuple(self.landmarks),
            title=title,
        )


def field(seed: int, hexes: int, units: int) -> Position:
    """An open board of ``hexes`` hexes with ``units`` units (at least 3), heirs to move."""
    rng = random.Random(seed)
    grid, columns = _field_grid(rng, hexes)
    gates = {MOVER: _edge_gate(rng, grid, 0), OPPONENT: _edge_gate(rng, grid, columns - 1)}
    board = _Builder(rng, grid, gates)
    heroes = 1 if units < 10 else 2
    opponents = max(1, units // 5)
    for index in range(units - heroes - opponents):
        board.minion(f"m{index + 1:02}", MOVER, rng.randint(2, 6))
    for index in range(heroes):
        board.hero(f"h{index + 1}", rng.randint(3, 4), rng.choice(HERO_ALLOWANCES))
    for index in range(opponents):
        board.minion(f"e{index + 1:02}", OPPONENT, rng.randint(2, 6))
    for _ in range(1 + units // 20):
        board.spire()
        board.landmark()
    return board.position(f"field {hexes} hexes, {units} units, seed {seed}")


def realistic(seed: int, hexes: int, units: int, waiting: int = 0) -> Position:
    """A field board as games have it: every minion on a hex that leads to its mark, two heroes a
    side, and ``waiting`` heirs minions in their gate's stack, to deploy (from 10 units on)."""
    rng = random.Random(seed)
    grid, columns = _field_grid(rng, hexes)
    gates = {MOVER: _edge_gate(rng, grid, 0), OPPONENT: _edge_gate(rng, grid, columns - 1)}
    board = _Builder(rng, grid, gates)
    waiting = waiting if units >= 10 else 0
    opponents = max(1, units // 5)
    for index in range(2):
        board.hero(f"h{index + 1}", rng.randint(3, 4), rng.choice(HERO_ALLOWANCES))
    for index in range(units - 2 * 2 - opponents - waiting):  # some may be left out (_onto_valid_starts)
        board.minion(f"m{index + 1:02}", MOVER, rng.randint(2, 6))
    for index in range(2):
        board.unit(f"x{index + 1}", OPPONENT, Kind.HERO, rng.randint(3, 4), board.take(Terrain.FOREST), Terrain.FOREST)
    for index in range(opponents):
        board.minion(f"e{index + 1:02}", OPPONENT, rng.randint(2, 6))
    for _ in range(1 + units // 20):
        board.spire()
        board.landmark()
    for index in range(waiting):
        board.units.append(Unit(f"w{index + 1}", f"w{index + 1}", MOVER, Kind.MINION, 2,
                                Stats(health=2, attack=1, movement=rng.randint(2, 6), range=1), None))
    position = board.position(f"realistic {hexes} hexes, {units} units, seed {seed}")
    stack = tuple(f"w{index + 1}" for index in range(waiting))
    position = replace(position, gates={**position.gates, MOVER: replace(position.gates[MOVER], stack=stack)})
    return _deployable(_onto_valid_starts(position, rng))


def _deployable(position: Position) -> Position:
    """The position with each minion waiting in a gate given the easiest terrain allowance from
    which its gate leads to its mark, as a fortress gate beside the path does in games."""
    units = dict(position.units)
    for uid, unit in position.units.items():
        if unit.at is None and unit.kind is Kind.MINION:
            gate = position.node_of(uid)
            leads = [t for t in Terrain if gate in fields.mark_distances(position, t, unit.faction)]
            units[uid] = replace(unit, terrain=leads[0] if leads else unit.terrain)
    return replace(position, units=units)


def _onto_valid_starts(position: Position, rng: random.Random) -> Position:
    """The position with each minion on invalid terrain (fields.invalid_start) moved to a free hex
    that leads to its mark, if there is one; otherwise it is left out."""
    units = dict(position.units)
    taken = {u.at for u in units.values()} | {s.at for s in position.spires} | {m.at for m in position.landmarks}
    taken |= {h for gate in position.gates.values() for h in gate.beside}
    for uid in sorted(units):
        unit = units[uid]
        if unit.kind is not Kind.MINION or not fields.invalid_start(position, unit):
            continue
        free = [h for h in sorted(position.hexes) if h not in taken
                and not fields.invalid_start(position, replace(unit, at=h))]
        del units[uid]
        if free:
            units[uid] = replace(unit, at=rng.choice(free))
            taken.add(units[uid].at)
    return replace(position, units=units)


def corridor(seed: int, columns: int, rows: int, movement: int, minions: int = 3) -> Position:
    """A winding path through forest and water; heirs minions near its start and a forest hero."""
    rng = random.Random(seed)
    grid, path = _corridor_grid(rng, columns, rows)
    gates = {MOVER: (hex_name(*path[0]),), OPPONENT: (hex_name(*path[-1]),)}
    board = _Builder(rng, grid, gates)
    for index in range(minions):
        at = hex_name(*path[1 + 2 * index])
        board.free.remove(at)
        board.minion(f"m{index + 1:02}", MOVER, movement, at)
    board.hero("h1", movement, Terrain.FOREST)
    return board.position(f"corridor {columns}x{rows}, path {len(path)}, movement {movement}, seed {seed}")


def armed(position: Position, seed: int) -> Position:
    """The same board at the attack step and ready for Spires Fire: every spire gets one or two
    attack upgrades (some a range or fortification upgrade under them), heroes a capacity and a
    promoted side, and a few heirs units a fortification. Units and hexes stay where they are."""
    rng = random.Random(seed)
    spires = tuple(
        replace(s, upgrades=(*rng.choice([(), ("range",), ("fortification",)]), *["attack"] * rng.randint(1, 2)))
        for s in position.spires
    )
    units = {}
    for uid, unit in position.units.items():
        if unit.kind is Kind.HERO:
            unit = replace(unit, capacity=2, promoted_stats=replace(unit.stats, health=unit.stats.health + 1))
        if unit.faction == MOVER and rng.random() < 0.2:
            unit = replace(unit, upgrades=("fortification",))
        units[uid] = unit
    return replace(position, spires=spires, units=units, turn=replace(position.turn, step="attack"))


def with_talents(position: Position, talents: Sequence[str]) -> Position:
    """The same board with each of ``talents`` on one more unit, in id order, cycling: the
    talent-free board and this one answer the same questions, so their times compare."""
    if not talents:
        return position
    units = dict(position.units)
    for index, uid in enumerate(sorted(units)):
        name = talents[index % len(talents)]
        if name not in units[uid].talents:
            units[uid] = replace(units[uid], talents=(*units[uid].talents, name))
    return replace(position, units=units)


def as_ai(position: Position) -> Position:
    """The same board with the moving faction under AI control."""
    faction = position.factions[position.turn.faction]
    factions = {**position.factions, faction.name: replace(faction, controller=Controller.AI)}
    return replace(position, factions=factions)


# The sides of each chapter's board: (the AI faction whose turn it is, the player's faction).
CHAPTER_SIDES = {1: ("shada", "horizons-wrath"), 2: ("graft", "heirs"), 3: ("graft", "keel"), 4: ("griege", "narora"),
                 5: ("narora", "shada"), 6: ("shada", "uprising"), 7: ("keel", "graft"), 8: ("graft", "uprising")}
ROCKS = 4  # chapter 1: free path hexes made floating rocks


def in_chapter(position: Position, chapter: int, seed: int) -> Position:
    """The board played in Harbinger ``chapter``, wave 1: the moving faction becomes the chapter's AI
    faction (CHAPTER_SIDES), under AI control, and its opponent the player's; each keeps the other's
    gate as its mark, as the chapter's AI has it but in chapters 2 and 7, and a unit the chapter gives a mark of
    its own (the closest of something) holds it. In chapter 2 the Graft's mark
    is the heirs hero with the most health, the heirs have none, and all their units are heroes. In
    chapter 7 the keel's mark is Nucleus: the Graft's hero with the most health, renamed so. Chapter 1
    makes a few free path hexes floating rocks; chapter 8 names every spire. Loaded back from its
    position file, so the loader's chapter rules apply (the chapter's attack priority among them)."""
    ai, player = CHAPTER_SIDES[chapter]
    names = {MOVER: ai, OPPONENT: player}
    units = {uid: replace(u, faction=names[u.faction]) for uid, u in position.units.items()}
    marks = {ai: Mark(gate=player), player: Mark(gate=ai)}
    if chapter == 2:
        units = {uid: replace(u, kind=Kind.HERO) if u.faction == player else u for uid, u in units.items()}
    heroes = sorted((-u.health, uid) for uid, u in units.items()
                    if u.faction == player and u.kind is Kind.HERO and u.at is not None)
    if chapter in (2, 7) and heroes:
        marks[ai] = Mark(unit=heroes[0][1])
    if chapter == 2:
        marks[player] = Mark()
    if chapter == 7 and heroes:
        units[heroes[0][1]] = replace(units[heroes[0][1]], chip="Nucleus")
    hexes = dict(position.hexes)
    if chapter == 1:
        taken = {u.at for u in units.values()} | {s.at for s in position.spires} | {m.at for m in position.landmarks}
        taken |= {h for gate in position.gates.values() for h in gate.beside}
        free = sorted(h for h, cell in hexes.items() if cell.terrain is Terrain.PATH and h not in taken)
        hexes |= {h: replace(hexes[h], rock=True) for h in random.Random(seed).sample(free, min(ROCKS, len(free)))}
    spires = tuple(replace(s, faction=names[s.faction], chip=s.chip or ("Watchtower" if chapter == 8 else ""))
                   for s in position.spires)
    board = replace(
        position,
        hexes=hexes,
        gates={names[f]: replace(g, faction=names[f]) for f, g in position.gates.items()},
        factions={names[f]: Faction(names[f], Controller.AI if f == MOVER else Controller.PLAYER, marks[names[f]])
                  for f in position.factions},
        units=units,
        spires=spires,
        turn=replace(position.turn, faction=names[position.turn.faction]),
        scenario=Scenario(chapter, wave=1),
        title=f"{position.title}, in Harbinger chapter {chapter}",
    )
    # A unit whose own mark the chapter picks as the closest of something (chapter 2's opposing heroes,
    # chapter 8's Graft heroes) holds the first it may.
    own = {uid: marks[0] for uid, _, marks in closest_marks(board) if marks}
    board = replace(board, units={uid: replace(u, mark=own.get(uid, u.mark)) for uid, u in board.units.items()})
    return load_position_text(position_yaml(board))


def path_length(position: Position) -> int:
    return sum(h.terrain is Terrain.PATH for h in position.hexes.values())


# ---------------------------------------------------------------------------- the position file


class _Literal(str):
    """A string YAML writes as a literal block (``map: |``), so the picture stays a picture."""


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(_Literal, lambda dumper, text: dumper.represent_scalar("tag:yaml.org,2002:str", text, style="|"))


def _picture(hexes: dict[str, Hex]) -> str:
    grid = {(h.column, h.row): (ROCK if h.rock else LETTERS[h.terrain]) + ("*" if h.well else "")
            for h in hexes.values()}
    return _map_text(grid)


def _mark(mark: Mark) -> dict[str, str] | str:
    found = {key: value for key, value in (("gate", mark.gate), ("unit", mark.unit), ("hex", mark.hex)) if value}
    return found or "none"


def _stats(stats: Stats) -> dict[str, int]:
    return {"health": stats.health, "attack": stats.attack, "movement": stats.movement, "range": stats.range}


def _unit(unit: Unit) -> dict[str, Any]:
    document: dict[str, Any] = {"chip": unit.chip, "faction": unit.faction, "kind": unit.kind.value}
    if unit.at is not None:
        document["at"] = unit.at
    document.update(health=unit.health, stats=_stats(unit.stats), terrain=unit.terrain.value)
    optional: dict[str, Any] = {
        "talents": list(unit.talents),
        "upgrades": list(unit.upgrades),
        "promoted": unit.promoted,
        "group": [{"chip": g.chip, "stats": _stats(g.stats), "talents": list(g.talents)} for g in unit.group],
        "campfire": unit.campfire,
        "done": {k: v for k, v in vars(unit.done).items() if v},
        "mark": _mark(unit.mark) if unit.mark is not None else None,
    }
    document.update((key, value) for key, value in optional.items() if value)
    return document


def position_yaml(position: Position) -> str:
    """The position as a position file that `cloudspire` loads back to an equal `Position`."""
    document: dict[str, Any] = {
        "format": FORMAT,
        "title": position.title,
        "map": _Literal(_picture(position.hexes)),
        "gates": {
            g.faction: {"beside": list(g.beside), "health": g.health, "stack": list(g.stack)}
            for g in position.gates.values()
        },
        "factions": {
            f.name: {"controller": f.controller.value, "mark": _mark(f.mark)} for f in position.factions.values()
        },
        "turn": {"faction": position.turn.faction, "step": position.turn.step},
        "spires": {s.id: {"faction": s.faction, "at": s.at, "upgrades": list(s.upgrades)}
                   | ({"chip": s.chip} if s.chip else {}) for s in position.spires},
        "landmarks": {lm.id: {"at": lm.at, "name": lm.name, "revealed": lm.revealed} for lm in position.landmarks},
        "units": {u.id: _unit(u) for u in position.units.values()},
        "readings": dict(position.readings),
    }
    if position.scenario is not None:
        document["scenario"] = {"chapter": position.scenario.chapter, "wave": position.scenario.wave}
    text: str = yaml.dump(document, Dumper=_Dumper, sort_keys=False, default_flow_style=None, width=120)
    return text
