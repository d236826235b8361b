"""Readable tables and a text picture of the board, for people at the table."""

from __future__ import annotations

from collections.abc import Iterable

from adjudicator.hexmap import TERRAIN_LETTERS
from adjudicator.model import Hex, Kind, Position, Terrain
from adjudicator.outcomes import MoveOutcome, StepResult, UnitOptions


TERRAIN_LETTER = {terrain: letter for letter, terrain in TERRAIN_LETTERS.items()}


def board(position: Position) -> str:
    """The map picture with hex names, and what stands on each hex."""
    chips: dict[str, str] = {}
    for unit in position.units.values():
        if unit.at:
            chips[unit.at] = unit.id
    for spire in position.spires:
        chips[spire.at] = f"spire {spire.id}"
    for landmark in position.landmarks:
        chips[landmark.at] = f"landmark {landmark.id}"
    rows = sorted({h.row for h in position.hexes.values()})
    width = max(len(_cell(h)) for h in position.hexes.values()) + 1
    lines = []
    for row in rows:
        cells = {h.column: h for h in position.hexes.values() if h.row == row}
        last = max(cells)
        text = " " * (width // 2 if row % 2 == 0 else 0)
        for column in range(last + 1):
            h = cells.get(column)
            text += _cell(h).ljust(width) if h else ".".ljust(width)
        lines.append(f"{row:>3}  {text.rstrip()}")
    lines.append("     terrain after the name: l plains, f forest, m mountains, w water (none: path); * Source Well")
    for gate in position.gates.values():
        stack = f", stack {', '.join(gate.stack)}" if gate.stack else ""
        lines.append(f"     {gate.node} beside {', '.join(gate.beside)}{stack}")
    for hex_name in sorted(chips):
        lines.append(f"     {hex_name}: {chips[hex_name]}")
    return "\n".join(lines)


def _cell(h: Hex) -> str:
    """A hex as the picture shows it: name, terrain letter unless path, * for a Source Well."""
    letter = "" if h.terrain is Terrain.PATH else TERRAIN_LETTER[h.terrain]
    return h.name + letter + ("*" if h.well else "")


def _table(header: tuple[str, ...], rows: Iterable[tuple[str, ...]]) -> str:
    rows = list(rows)
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    out = ["  " + "  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip()]
    out += ["  " + "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    return "\n".join(out)


def _displaced(move: MoveOutcome) -> str:
    return ", ".join(f"{d.unit} {d.source}→{d.to}" for d in move.displaced) or "-"


def unit_options(options: UnitOptions, position: Position, ai: bool) -> str:
    unit = position.units[options.unit]
    start = unit.at or f"gate:{unit.faction}"
    distance = "no route to its mark" if options.start_distance is None else f"{options.start_distance} from its mark"
    title = f"{unit.id} ({unit.chip}, {unit.kind.value}, at {start}, {distance})"
    if options.must_wait:
        return f"{title}\n  cannot move: {options.must_wait}"
    label = "outcomes the AI must take" if ai else "legal outcomes"
    rows = ((m.end, m.kind, "-".join(m.path), str(m.paths), _displaced(m)) for m in options.outcomes)
    table = _table(("end", "kind", "path", "routes", "displaced"), rows)
    text = f"{title}: {len(options.outcomes)} {label}\n{table}"
    if unit.kind is Kind.MINION and not options.leading:
        text += "\n  (not the leading minion: it moves after closer ones, on the board they leave; `turn` plays it out)"
    return text


def step(result: StepResult) -> str:
    who = "the AI's obligatory" if result.ai else "legal"
    lines = [f"{result.faction}: {result.count} distinct final boards of the {who} movement step"]
    if len(result.outcomes) < result.count:
        lines[0] += f" (showing {len(result.outcomes)})"
    for number, outcome in enumerate(result.outcomes, 1):
        board_text = ", ".join(f"{u} {n}" for u, n in outcome.final)
        lines.append(f"\n{number}. {board_text}")
        for move in outcome.sequence:
            extra = f"  displacing {_displaced(move)}" if move.displaced else ""
            lines.append(f"     {move.unit:<12} {'-'.join(move.path):<28} {move.kind}{extra}")
    return "\n".join(lines)
