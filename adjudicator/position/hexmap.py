"""The text picture of the board: parsing it into named hexes and their adjacency.

Pointy-top hexes.  Each map row starts with its number; every even-numbered row is drawn shifted
half a hex to the right.  The n-th token of a row is column n, lettered a, b, c…; so hex ``c2`` is
the third token of row 2.  Tokens: ``p`` path, ``l`` plains, ``f`` forest, ``m`` mountains,
``w`` water, ``r`` a floating rock (Harbinger chapter 1: a path hex no move may end on), ``.`` no
hex (a gap between hex groups, or a Harbinger sky hex).  A trailing ``*`` marks a Source Well.
Row numbers are written in the digits 0–9 and run from 1 to `MAX_ROW`.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass

from adjudicator.position.model import Hex, Terrain

TERRAIN_LETTERS = {
    "p": Terrain.PATH,
    "l": Terrain.PLAINS,
    "f": Terrain.FOREST,
    "m": Terrain.MOUNTAINS,
    "w": Terrain.WATER,
}
ROCK = "r"  # chapter 1: "Floating rocks are treated like path hexes"
COLUMNS = string.ascii_lowercase
MAX_ROW = 99  # the columns stop at z; no table holds a board of 99 rows
_ROW = re.compile(r"[0-9]+")


@dataclass(frozen=True)
class MapProblem:
    """What is wrong with a map picture, and where."""

    line: int  # 0-based line within the map text
    message: str


def shown(text: str, limit: int = 40) -> str:
    """``text`` quoted for a message, cut short so that a message stays readable."""
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def hex_name(column: int, row: int) -> str:
    """Name of the hex in 0-based ``column`` of 1-based ``row``."""
    return f"{COLUMNS[column]}{row}"


def line_from(hexes: dict[str, Hex], start: str, towards: str) -> tuple[str, ...]:
    """The hexes of the map along the straight line from ``start`` through ``towards``, which must be
    beside it (else none), nearest first; the line goes on across gaps to the picture's edge."""
    first, second = hexes[start], hexes[towards]
    around = neighbour_cells(first.column, first.row)
    if (second.column, second.row) not in around:
        return ()
    way = around.index((second.column, second.row))
    at = {(h.column, h.row): name for name, h in hexes.items()}
    last_column = max(h.column for h in hexes.values())
    rows = (min(h.row for h in hexes.values()), max(h.row for h in hexes.values()))
    line = []
    cell = (first.column, first.row)
    while True:
        cell = neighbour_cells(*cell)[way]  # the same index is the same direction on odd and even rows
        if not (0 <= cell[0] <= last_column and rows[0] <= cell[1] <= rows[1]):
            return tuple(line)
        if cell in at:
            line.append(at[cell])


def stride(hexes: dict[str, Hex], start: str, way: int, count: int) -> tuple[str, ...]:
    """The first ``count`` hexes along the straight line from ``start`` in direction ``way`` (an index of
    neighbour_cells), nearest first, up to the first cell that is no map hex: a unit moved along it
    crosses no gap."""
    at = {(h.column, h.row): name for name, h in hexes.items()}
    cell, line = (hexes[start].column, hexes[start].row), []
    for _ in range(count):
        cell = neighbour_cells(*cell)[way]
        if cell not in at:
            break
        line.append(at[cell])
    return tuple(line)


def neighbour_cells(column: int, row: int) -> list[tuple[int, int]]:
    """The six cells around a cell; even rows are shifted right."""
    shift = 0 if row % 2 == 0 else -1
    return [
        (column - 1, row),
        (column + 1, row),
        (column + shift, row - 1),
        (column + shift + 1, row - 1),
        (column + shift, row + 1),
        (column + shift + 1, row + 1),
    ]


def parse_map(text: str) -> tuple[dict[str, Hex], dict[str, frozenset[str]], list[MapProblem]]:
    """Hexes by name, adjacency by name, and every problem found in the picture."""
    hexes: dict[str, Hex] = {}
    problems: list[MapProblem] = []
    seen_rows: dict[int, int] = {}
    for index, line in enumerate(text.splitlines()):
        tokens = line.split()
        if not tokens:
            continue
        first = tokens[0]
        if not _ROW.fullmatch(first):
            if any(c.isnumeric() for c in first):  # '²' or '١' would pass str.isdigit()
                problems.append(MapProblem(index, f"expected a row number in the digits 0–9, found {shown(first)}"))
            elif not all(len(t) == 1 and t in COLUMNS for t in tokens):
                problems.append(
                    MapProblem(index, f"expected a row number at the start of the line, found {shown(first)}")
                )
            continue  # the column-letter header, kept for the reader's eye
        digits = first.lstrip("0")
        if len(digits) > len(str(MAX_ROW)) or int(digits or "0") > MAX_ROW:
            problems.append(MapProblem(index, f"row numbers run from 1 to {MAX_ROW}, found {shown(first, 12)[1:-1]}"))
            continue
        row = int(digits or "0")
        if row < 1:
            problems.append(MapProblem(index, "row numbers start at 1"))
            continue
        if row in seen_rows:
            problems.append(MapProblem(index, f"row {row} appears twice (first on map line {seen_rows[row] + 1})"))
            continue
        seen_rows[row] = index
        cells = tokens[1:]
        if len(cells) > len(COLUMNS):
            problems.append(MapProblem(index, f"row {row} has {len(cells)} columns; at most {len(COLUMNS)}"))
            cells = cells[: len(COLUMNS)]
        for column, token in enumerate(cells):
            if token == ".":
                continue
            if token == ROCK:
                name = hex_name(column, row)
                hexes[name] = Hex(name, Terrain.PATH, rock=True, column=column, row=row)
                continue
            well = token.endswith("*")
            letter = token[:-1] if well else token
            terrain = TERRAIN_LETTERS.get(letter)
            if terrain is None:
                problems.append(
                    MapProblem(
                        index,
                        f"hex {hex_name(column, row)}: unknown terrain {shown(token)}; expected one of "
                        "p l f m w (optionally followed by *), r for a floating rock or . for no hex",
                    )
                )
                continue
            name = hex_name(column, row)
            hexes[name] = Hex(name, terrain, well, column=column, row=row)
    if not hexes and not problems:
        problems.append(MapProblem(0, "the map has no hexes"))
    adjacency = {
        name: frozenset(
            hex_name(c, r)
            for c, r in neighbour_cells(h.column, h.row)
            if 0 <= c < len(COLUMNS) and r >= 1 and hex_name(c, r) in hexes
        )
        for name, h in hexes.items()
    }
    return hexes, adjacency, problems


def covered(hexes: dict[str, Hex], adjacency: dict[str, frozenset[str]],
            place: tuple[Hex, ...]) -> tuple[dict[str, Hex], dict[str, frozenset[str]]]:
    """The board's hexes and adjacency once an earthscape is placed over ``place``'s cells, each a hex of its
    terrain from now on (game-elements, Earthscapes: "placed on top of existing hex groups" or "adjacent to
    existing hex groups to extend the play area"; Harbinger chapter 3)."""
    board = {**hexes, **{h.name: h for h in place}}
    near = {name: set(around) for name, around in adjacency.items()} | {h.name: set() for h in place if h.name not in adjacency}
    for h in place:
        cells = {hex_name(c, r) for c, r in neighbour_cells(h.column, h.row) if 0 <= c < len(COLUMNS) and r >= 1}
        near[h.name] = cells & set(board)
        for name in near[h.name]:
            near[name].add(h.name)
    return board, {n: frozenset(a) for n, a in near.items()}


def terrain_token(hex_: Hex) -> str:
    """The hex's terrain as the map writes it: its letter, * for a Source Well."""
    letter = ROCK if hex_.rock else next(k for k, t in TERRAIN_LETTERS.items() if t is hex_.terrain)
    return letter + ("*" if hex_.well else "")
