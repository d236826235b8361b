"""An SVG picture of a position, for people at the table: legible at a glance, no dependencies.

`render(position, moves=..., attacks=..., focus=...)` returns SVG text; `to_png(svg)` rasterises it
with the optional ``resvg-py`` package (the Rust renderer resvg, shipped as a self-contained wheel).

The picture follows adjudicator.position.hexmap: pointy-top hexes, every even-numbered row shifted half a
hex to the right.  A fortress gate is drawn as the off-map hex it is, on the empty cell touching
its ``beside`` hexes; the units waiting in it are listed in a panel outside it, top first.

The document is built with xml.etree.ElementTree, which escapes every name, so ids such as
``x). #false.`` or ``a<b&"c`` are safe; characters XML cannot hold at all are replaced.  Factions
take Okabe-Ito colours and terrain a lightness ramp, so nothing depends on telling red from
green; the legend explains every colour, shape and code the picture uses.  Each hex, gate and chip
carries its name in a ``data-`` attribute (``data-hex``, ``data-unit``…), so that a page can tell
which one was tapped.
"""

from __future__ import annotations

import math
import re
import textwrap
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from adjudicator.answers.attacks import AttackOutcome
from adjudicator.position.hexmap import neighbour_cells
from adjudicator.position.model import Chip, Gate, Hex, Kind, Landmark, Position, Spire, Terrain, Unit
from adjudicator.answers.moves import MoveOutcome

Point = tuple[float, float]
Box = tuple[float, float, float, float]  # left, top, right, bottom

R = 58.0  # hex circumradius, in SVG pixels
W = math.sqrt(3) * R  # width of a pointy-top hex; rows are 1.5 R apart
CHIP = 20.0  # a unit chip's radius on the board
MARGIN = 30.0
TITLE_HEIGHT = 50.0
NARROW_TITLE = 15.0  # the title's size in a narrow picture, wrapped to its width
TITLE_LINE = 19.0  # the step between its lines
LEGEND_WIDTH = 290.0
class Ends(Protocol):
    """Where one unit can end a step or the turn: a movement step's or a whole turn's summary entry."""

    @property
    def unit(self) -> str: ...
    @property
    def ends(self) -> tuple[str, ...]: ...
    @property
    def forced(self) -> bool: ...


FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
INK = "#222222"
HALO = "#ffffff"

# Lightness falls with difficulty, so the order still reads without colour vision.
TERRAIN_FILL = {
    Terrain.PATH: "#f6f0df",
    Terrain.PLAINS: "#e6d98c",
    Terrain.FOREST: "#4f8c5c",
    Terrain.MOUNTAINS: "#9b9794",
    Terrain.WATER: "#5b9bd5",
}
GAP_STROKE = "#c8c8c8"
ROCK_FILL = "#c9bba8"  # a floating rock: path terrain, drawn as stone with a dashed rim
ROCK_STROKE = "#6e5b45"

# Okabe-Ito: distinguishable under the common colour-vision deficiencies.
FACTION_PALETTE = ("#E69F00", "#56B4E9", "#CC79A7", "#0072B2", "#D55E00", "#F0E442", "#009E73", "#999999")
NO_FACTION = "#bbbbbb"  # a landmark minion belongs to no faction

UPGRADE_CODE = {"attack": "A", "range": "R", "fortification": "F"}
MOVE_COLOUR = "#111111"
ATTACK_COLOUR = "#c0182a"
HIGHLIGHT = "#7a1fa2"  # purple, neither a faction's nor a terrain's colour: destinations and focus
HEALTH_COLOUR = "#9b1c1c"


@dataclass
class _Picture:
    """What the drawing functions share: colours, codes, and where everything was put."""

    position: Position
    colours: dict[str, str]
    talent_codes: dict[str, str]
    nodes: dict[str, Point] = field(default_factory=dict)  # hex names and gate nodes
    chips: dict[str, Point] = field(default_factory=dict)  # unit, spire, landmark ids and gate nodes
    radii: dict[str, float] = field(default_factory=dict)  # how big each chip is drawn
    boxes: list[Box] = field(default_factory=list)  # stack panels, which lie outside the cells
    used: set[str] = field(default_factory=set)  # legend entries the picture needs
    names: ET.Element = field(default_factory=lambda: ET.Element("g", {"class": "names"}))  # drawn last
    damage_at: dict[str, tuple[Point, int]] = field(default_factory=dict)  # stacked units: beside the panel


# --- the public functions


def render(
    position: Position,
    *,
    moves: Sequence[MoveOutcome] = (),
    attacks: Sequence[AttackOutcome] = (),
    focus: str | None = None,
    forbidden: Sequence[MoveOutcome | AttackOutcome] = (),
    narrow: bool = False,
    ends: Sequence[Ends] = (),
) -> str:
    """The position as an SVG document; ``moves`` and ``attacks`` are drawn over it, ``focus`` ringed;
    ``forbidden`` are claimed moves or attacks the rules do not allow, drawn dashed and crossed.
    ``narrow``: the legend below the board instead of beside it, and the title wrapped to the width,
    for a phone's screen. ``ends``: a step's per-unit summary, each unit's possible ends marked, the
    forced ones solid."""
    pic = _Picture(position, _faction_colours(position), _talent_codes(position))
    for h in position.hexes.values():
        pic.nodes[h.name] = _cell_centre(h.column, h.row)
    for gate in position.gates.values():
        pic.nodes[gate.node] = _gate_centre(position, gate, pic.nodes)

    # Back to front: terrain, then routes (under the chips, so numbers stay readable), then chips,
    # then everything that must not be hidden.
    board = ET.Element("g", {"class": "board"})
    _draw_gaps(board, pic)
    for h in position.hexes.values():
        _draw_hex(board, h, pic.nodes[h.name])
    _draw_destinations(board, moves, pic)
    _draw_ends(board, ends, pic)
    _draw_routes(board, moves, pic)
    for gate in position.gates.values():
        _draw_gate(board, gate, moves, pic)
    focus_layer = _el(board, "g")  # filled once the chips are placed, so the halo lies beneath them
    _draw_occupants(board, pic)
    _draw_marks(board, pic)
    _draw_displacements(board, moves, pic)
    _draw_attacks(board, attacks, pic)
    _draw_forbidden(board, forbidden, pic)
    board.append(pic.names)  # chip names over every line, so no arrow hides one
    if focus is not None and focus in pic.chips:
        # A chip in a stack panel has no badges to hide, and the panel would hide a halo beneath.
        in_panel = any(focus in g.stack for g in position.gates.values())
        _draw_focus(board if in_panel else focus_layer, pic.chips[focus], pic.radii.get(focus, CHIP))

    left, top, right, bottom = _bounds(pic)
    legend, legend_height = _legend(pic, moves, attacks, focus, bool(forbidden), bool(ends))
    title = position.title or "Cloudspire position"
    if narrow:
        width = max(right - left, LEGEND_WIDTH) + 2 * MARGIN
        # The title wrapped to the width, at a size still read on a phone.
        titles = textwrap.wrap(title, max(8, int((width - 2 * MARGIN) / (0.62 * NARROW_TITLE))))
        head = TITLE_HEIGHT + TITLE_LINE * (len(titles) - 1)
        legend.set("transform", f"translate({_n(MARGIN)},{_n(MARGIN * 2 + head + bottom - top)})")
        height = MARGIN * 3 + head + bottom - top + legend_height
        title_size = NARROW_TITLE
    else:
        titles = [title]
        head = TITLE_HEIGHT
        legend_x = right - left + 2 * MARGIN
        legend.set("transform", f"translate({_n(legend_x)},{_n(MARGIN + head)})")
        width = max(legend_x + LEGEND_WIDTH, 2 * MARGIN + _text_width(title, 17))
        height = MARGIN * 2 + head + max(bottom - top, legend_height)
        title_size = 17
    board.set("transform", f"translate({_n(MARGIN - left)},{_n(MARGIN + head - top)})")

    svg = ET.Element("svg", {
        "xmlns": "http://www.w3.org/2000/svg",
        "width": _n(width),
        "height": _n(height),
        "viewBox": f"0 0 {_n(width)} {_n(height)}",
        "font-family": FONT,
    })
    svg.append(_markers())
    _el(svg, "rect", width=_n(width), height=_n(height), fill="#ffffff")
    for i, line in enumerate(titles):
        _label(svg, (MARGIN, MARGIN + 6 + TITLE_LINE * i), line, title_size, weight="bold", anchor="start")
    turn = f"turn: {position.turn.faction}, {position.turn.step} step"
    _label(svg, (MARGIN, MARGIN + 28 + TITLE_LINE * (len(titles) - 1)), turn, 12, fill="#555555", anchor="start")
    svg.append(board)
    svg.append(legend)
    ET.indent(svg)
    return ET.tostring(svg, encoding="unicode") + "\n"


def to_png(svg: str, zoom: float = 2.0) -> bytes:
    """PNG bytes of an SVG document, drawn by resvg-py (optional: ``pip install resvg-py``).

    resvg is a self-contained Rust renderer in a manylinux wheel: no libcairo or other system
    library; it draws text with the machine's fonts (DejaVu Sans when installed).
    """
    try:
        import resvg_py  # here, not at the top: the package is optional and only PNG output needs it
    except ImportError as error:
        raise RuntimeError(
            "PNG output needs the optional resvg-py package (a self-contained SVG renderer): "
            "pip install resvg-py"
        ) from error
    return bytes(resvg_py.svg_to_bytes(svg_string=svg, zoom=zoom, background="#ffffff"))


# --- geometry


def _cell_centre(column: int, row: int) -> Point:
    """Centre of a grid cell; even rows are shifted half a hex right (adjudicator.position.hexmap)."""
    return (column * W + (W / 2 if row % 2 == 0 else 0.0), (row - 1) * 1.5 * R)


def _hexagon(centre: Point, radius: float) -> str:
    x, y = centre
    corners = [(x + radius * math.cos(math.radians(a)), y + radius * math.sin(math.radians(a)))
               for a in range(-90, 270, 60)]
    return " ".join(f"{_n(cx)},{_n(cy)}" for cx, cy in corners)


def _gate_centre(position: Position, gate: Gate, nodes: dict[str, Point]) -> Point:
    """Where a gate is drawn: an empty cell touching all its ``beside`` hexes and few others.

    A gate is a hex off the map, so the truest picture puts it on a cell it could fill; of
    equals, the one farthest from the map's middle keeps it clear of the board.  The gate's ties
    (`_draw_gate`) then show exactly which hexes it touches.
    """
    by_cell = {(h.column, h.row): h.name for h in position.hexes.values()}
    middle = _mean([nodes[name] for name in position.hexes])
    columns = [c for c, _ in by_cell]
    rows = [r for _, r in by_cell]
    best: tuple[int, float, Point] | None = None
    for column in range(min(columns) - 2, max(columns) + 3):
        for row in range(min(rows) - 2, max(rows) + 3):
            touched = {by_cell[c] for c in neighbour_cells(column, row) if c in by_cell}
            if (column, row) in by_cell or not gate.beside or not touched >= set(gate.beside):
                continue
            centre = _cell_centre(column, row)
            score = (-len(touched), math.dist(centre, middle), centre)
            if best is None or score[:2] > best[:2]:
                best = score
    if best is not None:
        return best[2]
    # No cell touches them all (an unusual board, or a deployment point around a spire): above or
    # below them, whichever edge is nearer, clear of every hex; gates keep to cells beside the map.
    near = _mean([nodes[name] for name in gate.beside if name in nodes] or [middle])
    up = -1.0 if near[1] <= middle[1] else 1.0
    hexes = [nodes[name] for name in position.hexes]
    step = W * 1.2
    while any(math.dist((near[0], near[1] + up * step), h) < W for h in hexes):
        step += W / 2
    return (near[0], near[1] + up * step)


def _mean(points: Sequence[Point]) -> Point:
    return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))


def _bounds(pic: _Picture) -> Box:
    xs = [x for x, _ in pic.nodes.values()]
    ys = [y for _, y in pic.nodes.values()]
    left, top, right, bottom = min(xs) - W / 2, min(ys) - R, max(xs) + W / 2, max(ys) + R
    for x0, y0, x1, y1 in pic.boxes:
        left, top, right, bottom = min(left, x0), min(top, y0), max(right, x1), max(bottom, y1)
    return left - 12, top - 12, right + 12, bottom + 12  # room for damage numbers at the edge


def _toward(start: Point, end: Point, cut: float) -> Point:
    """``end`` moved ``cut`` pixels back toward ``start``: an arrowhead that stops at a chip's rim."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy)
    if length <= cut:
        return end
    return (end[0] - dx / length * cut, end[1] - dy / length * cut)


# --- colours, codes and text


def _faction_colours(position: Position) -> dict[str, str]:
    names = list(position.factions)
    names += sorted({u.faction for u in position.units.values() if u.faction} - set(names))
    colours = {name: FACTION_PALETTE[i % len(FACTION_PALETTE)] for i, name in enumerate(names)}
    colours[""] = NO_FACTION
    return colours


def _talent_codes(position: Position) -> dict[str, str]:
    """A short, unique code per talent: the initials of its words, or its first two letters."""
    names: set[str] = set()
    for unit in position.units.values():
        names.update(unit.talents)
    for spire in position.spires:
        names.update(spire.talents)
    for chip in (*position.landmarks, *position.chips):  # a revealed landmark's (Fountain), a chip's (Exposure)
        names.update(chip.talents)
    codes: dict[str, str] = {}
    for name in sorted(names):
        words = [w for w in re.split(r"[\s_-]+", name) if w]
        base = "".join(w[0] for w in words).upper() if len(words) > 1 else name[:2].capitalize() or "?"
        code, n = base, 2
        while code in codes.values():
            code, n = f"{base}{n}", n + 1
        codes[name] = code
    return codes


def _text_colour(fill: str) -> str:
    """Black or white, whichever reads better on ``fill`` (#rrggbb)."""
    r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#ffffff"


_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _safe(text: str) -> str:
    """Text XML 1.0 can hold: ElementTree escapes markup but lets control characters through."""
    return _NOT_XML.sub("\ufffd", text)


def _n(value: float) -> str:
    """A coordinate, short: 12.5 rather than 12.500000001."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _text_width(text: str, size: float) -> float:
    return 0.62 * size * len(text)  # DejaVu Sans, bold, on average


def _fit(text: str, size: float, room: float, smallest: float = 6.0) -> float:
    """The font size, at most ``size``, at which ``text`` fits ``room`` pixels."""
    return max(smallest, min(size, room / (0.62 * max(len(text), 1))))


def _possessive(faction: str) -> str:
    return f"{faction}'" if faction.endswith("s") else f"{faction}'s"


# --- element helpers


def _el(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
    """A child element; ``stroke_width=`` becomes ``stroke-width``, ``class_=`` becomes ``class``."""
    element = ET.SubElement(parent, tag, {k.rstrip("_").replace("_", "-"): v for k, v in attrs.items()})
    if text is not None:
        element.text = _safe(text)
    return element


def _label(
    parent: ET.Element, at: Point, text: str, size: float, *, fill: str = INK, weight: str = "normal",
    anchor: str = "middle", halo: str | None = None,
) -> ET.Element:
    """One line of text centred (or anchored) on ``at``; a halo keeps it readable over anything."""
    attrs = {"x": _n(at[0]), "y": _n(at[1]), "font_size": _n(size), "text_anchor": anchor,
             "dominant_baseline": "central", "fill": fill, "font_weight": weight}
    if halo:
        attrs |= {"stroke": halo, "stroke_width": _n(size / 3.5), "paint_order": "stroke",
                  "stroke_linejoin": "round"}
    return _el(parent, "text", text, **attrs)


def _tooltip(parent: ET.Element, text: str) -> None:
    """A <title>: the full details, shown on hover in a browser."""
    _el(parent, "title", text)


def _markers() -> ET.Element:
    defs = ET.Element("defs")
    for name, colour in (("move", MOVE_COLOUR), ("attack", ATTACK_COLOUR)):
        marker = _el(defs, "marker", id=f"arrow-{name}", viewBox="0 0 10 10", refX="7", refY="5",
                     markerWidth="4.5", markerHeight="4.5", orient="auto", markerUnits="strokeWidth")
        _el(marker, "path", d="M0,0 L10,5 L0,10 z", fill=colour)
    return defs


def _line(points: Sequence[Point]) -> str:
    return "M" + " L".join(f"{_n(x)},{_n(y)}" for x, y in points)


def _bow(start: Point, end: Point, bend: float) -> Point:
    """The control point of a curve bowed ``bend`` pixels to the left of start→end."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy) or 1.0
    return ((start[0] + end[0]) / 2 + dy / length * bend, (start[1] + end[1]) / 2 - dx / length * bend)


def _curve(start: Point, end: Point, bend: float) -> str:
    """A quadratic curve bowed to one side: it never lies on a straight route."""
    control = _bow(start, end, bend)
    return f"M{_n(start[0])},{_n(start[1])} Q{_n(control[0])},{_n(control[1])} {_n(end[0])},{_n(end[1])}"


def _arrow(parent: ET.Element, d: str, colour: str, marker: str, *, width: float = 3.5, dashed: bool = False,
           css: str) -> None:
    """A path ending in an arrowhead, over a white casing so it shows on any terrain."""
    group = _el(parent, "g", class_=css)
    common = {"d": d, "fill": "none", "stroke_linejoin": "round", "stroke_linecap": "round"}
    _el(group, "path", stroke=HALO, stroke_width=_n(width + 3), **common)
    dash = {"stroke_dasharray": "7 4"} if dashed else {}
    _el(group, "path", stroke=colour, stroke_width=_n(width), marker_end=f"url(#arrow-{marker})", **common, **dash)


# --- the board


def _draw_gaps(parent: ET.Element, pic: _Picture) -> None:
    """Cells within the map's rows and columns that hold no hex: faint and dashed, so a gap reads."""
    cells = {(h.column, h.row) for h in pic.position.hexes.values()}
    gates = {pic.nodes[g.node] for g in pic.position.gates.values()}
    group = _el(parent, "g", class_="gaps", fill="none", stroke=GAP_STROKE, stroke_dasharray="4 4")
    for row in range(min(r for _, r in cells), max(r for _, r in cells) + 1):
        for column in range(min(c for c, _ in cells), max(c for c, _ in cells) + 1):
            centre = _cell_centre(column, row)
            if (column, row) not in cells and centre not in gates:
                _el(group, "polygon", points=_hexagon(centre, R - 2))


def _draw_hex(parent: ET.Element, h: Hex, centre: Point) -> None:
    group = _el(parent, "g", class_="hex", data_hex=h.name)
    what = "floating rock (path; no move ends on it)" if h.rock else h.terrain.value
    _tooltip(group, f"{h.name}: {what}{', Source Well' if h.well else ''}")
    fill = ROCK_FILL if h.rock else TERRAIN_FILL[h.terrain]
    if h.rock:
        _el(group, "polygon", points=_hexagon(centre, R - 1), fill=fill, stroke=ROCK_STROKE, stroke_width="2.5",
            stroke_dasharray="6 4", class_="rock")
    else:
        _el(group, "polygon", points=_hexagon(centre, R - 1), fill=fill, stroke="#6b6b6b", stroke_width="1.5")
    x, y = centre
    size = _fit(h.name, 11, W * 0.45)
    _label(group, (x, y - R * 0.68), h.name, size, fill=_text_colour(fill), weight="bold")
    if h.well:  # left of the name: a damage number may cover the right
        _well(group, (x - _text_width(h.name, size) / 2 - 9, y - R * 0.68))


def _well(parent: ET.Element, at: Point) -> None:
    """The Source Well: a teal diamond with a white rim."""
    x, y = at
    _el(parent, "polygon", points=f"{_n(x)},{_n(y - 8)} {_n(x + 6)},{_n(y)} {_n(x)},{_n(y + 8)} {_n(x - 6)},{_n(y)}",
        fill="#00a7c4", stroke="#ffffff", stroke_width="1.5", class_="well")


def _draw_destinations(parent: ET.Element, moves: Sequence[MoveOutcome], pic: _Picture) -> None:
    """Every end a move may reach: a thick purple ring inside the hex, with the kinds of move."""
    kinds: dict[str, list[str]] = {}
    for move in moves:
        if move.kind not in kinds.setdefault(move.end, []):
            kinds[move.end].append(move.kind)
    for end, names in kinds.items():
        if end not in pic.position.hexes:
            continue  # a gate's ring is drawn with the gate
        centre = pic.nodes[end]
        group = _el(parent, "g", class_="destination")
        _el(group, "polygon", points=_hexagon(centre, R - 6), fill="none", stroke=HIGHLIGHT, stroke_width="5")
        _label(group, (centre[0], centre[1] + R * 0.8), "/".join(names), 9, fill="#ffffff", weight="bold",
               halo=HIGHLIGHT)


def _draw_ends(parent: ET.Element, ends: Sequence[Ends], pic: _Picture) -> None:
    """Where each unit can end the step: a ring in the hex, solid where some unit must end there,
    dashed where units only may; the units named below, a forced one with "!"."""
    at: dict[str, list[tuple[str, bool]]] = {}
    for summary in ends:
        for node in summary.ends:
            at.setdefault(node, []).append((summary.unit, summary.forced))
    for node, units in at.items():
        if node not in pic.nodes:
            continue  # off the board (defeated)
        centre = pic.nodes[node]
        forced = [u for u, f in units if f]
        group = _el(parent, "g", class_="end", data_node=_safe(node), data_forced=_safe(" ".join(forced)),
                    data_possible=_safe(" ".join(u for u, f in units if not f)))
        dash = {} if forced else {"stroke_dasharray": "6 4"}
        _el(group, "polygon", points=_hexagon(centre, R - 6), fill="none", stroke=HIGHLIGHT, stroke_width="4", **dash)
        names = ", ".join(u + ("!" if f else "") for u, f in units)
        _label(group, (centre[0], centre[1] + R * 0.8), names, _fit(names, 9, W - 12), fill="#ffffff", weight="bold",
               halo=HIGHLIGHT)


def _draw_gate(parent: ET.Element, gate: Gate, moves: Sequence[MoveOutcome], pic: _Picture) -> None:
    """A fortress gate: a grey hex with a thick rim in its faction's colour, its health and marks."""
    centre = pic.nodes[gate.node]
    x, y = centre
    colour = pic.colours.get(gate.faction, NO_FACTION)
    pic.chips[gate.node] = centre
    pic.radii[gate.node] = R * 0.7
    group = _el(parent, "g", class_="gate", data_gate=_safe(gate.faction))
    what = f"gate of {gate.faction}, health {gate.health}" if gate.fortress else f"deployment point of {gate.faction}"
    faction = pic.position.factions.get(gate.faction)
    barracks = faction.barracks if faction is not None and faction.barracks else ()
    market = faction.market if faction is not None and faction.market else ()  # Harbinger chapter 8
    waiting = "; ".join((*([f"barracks: {', '.join(barracks)}"] if barracks else []),
                         *([f"market: {', '.join(market)}"] if market else [])))
    if gate.tunnels:  # Harbinger chapter 4: its minions deploy from these this turn, beside their hexes
        what += f", its minions deploying from {', '.join(gate.tunnels)}"
    _tooltip(group, f"{what}, beside {', '.join(gate.beside) or 'nothing'}"
                    + (f"; stack, top first: {', '.join(gate.stack)}" if gate.stack else "")
                    + (f"; {waiting}" if waiting else ""))
    _el(group, "polygon", points=_hexagon(centre, R - 4), fill="#e9e9e9", stroke=colour, stroke_width="7")
    _el(group, "polygon", points=_hexagon(centre, R - 9), fill="none", stroke=INK, stroke_width="1")
    # Ties across the edges to the hexes the gate touches: the cell it is drawn on may touch more.
    for name in gate.beside:
        if name in pic.nodes:
            start, end = _toward(pic.nodes[name], centre, R * 0.7), _toward(centre, pic.nodes[name], R * 0.62)
            for stroke, width in ((INK, "9"), (colour, "6")):
                _el(group, "line", x1=_n(start[0]), y1=_n(start[1]), x2=_n(end[0]), y2=_n(end[1]), stroke=stroke,
                    stroke_width=width, stroke_linecap="round", class_="tie")
    if any(m.end == gate.node for m in moves):  # a unit may stay in, or return to, this gate
        _el(group, "polygon", points=_hexagon(centre, R + 3), fill="none", stroke=HIGHLIGHT, stroke_width="4",
            class_="destination")
    _label(group, (x, y - R * 0.62), "gate" if gate.fortress else "deploys", 8, fill="#555555")
    _label(group, (x, y - R * 0.4), gate.faction, _fit(gate.faction, 11, W * 0.7), weight="bold")
    if gate.fortress:  # a deployment point has no health
        _label(group, (x, y - R * 0.1), f"♥ {gate.health}", 13, fill=HEALTH_COLOUR, weight="bold")
    marks = _marked(pic).get(gate.node, [])
    if marks:  # targets, then whose marks they are: a gate is too narrow for both on one line
        _mark_line(group, (x, y + R * 0.2), marks, pic, W * 0.8, label_below=True)
    kinds = sorted({m.kind for m in moves if m.end == gate.node})
    if kinds:
        _label(group, (x, y + R * 0.85), "/".join(kinds), 9, fill="#ffffff", weight="bold", halo=HIGHLIGHT)
    if waiting:  # off the board, where a talent may place them from (Spawn; Evoke in chapter 8): below the gate
        _label(group, (x, y + R * 1.2), waiting, _fit(waiting, 9, W * 1.6), fill="#555555")
    units = [pic.position.units[u] for u in gate.stack if u in pic.position.units]
    if units:
        _draw_stack(parent, gate, units, pic)


def _draw_stack(parent: ET.Element, gate: Gate, units: list[Unit], pic: _Picture) -> None:
    """The units waiting in a gate, top first, in a panel on the gate's outer side.

    Chips sit on the side nearer the gate, so an attack on a waiting unit crosses no text.
    """
    x, y = pic.nodes[gate.node]
    middle = _mean([pic.nodes[name] for name in pic.position.hexes])
    row_height = 30.0
    lines = [_stack_line(u, i, pic) for i, u in enumerate(units)]
    width = max(120.0, max(_text_width(line, 10) for line in lines) + 44)
    height = 24 + row_height * len(units)
    outward = 1 if x >= middle[0] else -1  # +1: the panel is right of the gate
    left = x + W / 2 + 8 if outward > 0 else x - W / 2 - 8 - width
    right, top = left + width, y - height / 2
    pic.boxes.append((left - 50, top, right + 50, top + height))  # with room for damage numbers
    group = _el(parent, "g", class_="stack")
    colour = pic.colours.get(gate.faction, NO_FACTION)
    near, far = (left, right) if outward > 0 else (right, left)
    _el(group, "line", x1=_n(x + outward * (W / 2 - 4)), y1=_n(y), x2=_n(near), y2=_n(y), stroke=colour,
        stroke_width="4")
    _el(group, "rect", x=_n(left), y=_n(top), width=_n(width), height=_n(height), rx="6", fill="#ffffff",
        stroke=colour, stroke_width="2.5")
    _label(group, ((left + right) / 2, top + 11), f"in gate {gate.faction}, top first", 9, fill="#555555")
    anchor = "start" if outward > 0 else "end"
    for index, (unit, line) in enumerate(zip(units, lines, strict=True)):
        chip_at = (near + outward * 18, top + 24 + row_height * (index + 0.5))
        _unit_chip(group, unit, chip_at, 12.0, pic, numbers=False)
        pic.chips[unit.id] = chip_at
        pic.radii[unit.id] = 12.0
        pic.damage_at[unit.id] = ((far + outward * 4, chip_at[1] - 10), outward)  # outside, away from the gate
        _label(group, (near + outward * 38, chip_at[1]), line, _fit(line, 10, width - 46), anchor=anchor,
               weight="bold")


def _stack_line(unit: Unit, index: int, pic: _Picture) -> str:
    """A waiting unit in words: its place in the stack, id, health, talent and upgrade codes."""
    codes = [pic.talent_codes[t] for t in unit.talents] + [UPGRADE_CODE.get(u, u) for u in unit.upgrades]
    if unit.upgrades:
        pic.used.add("upgrade")
    return " ".join([f"{index + 1}. {unit.id}", f"{unit.health}/{_max_health(unit)}", *codes])


def _draw_occupants(parent: ET.Element, pic: _Picture) -> None:
    """Units, spires and landmarks; a hex holds one, but a crowded hex still shows them all."""
    position = pic.position
    on_hex: dict[str, list[Unit | Spire | Landmark | Chip]] = {}
    things: list[Unit | Spire | Landmark | Chip] = [
        *position.chips, *position.landmarks, *position.spires, *position.units.values()
    ]
    for thing in things:
        if thing.at is not None and thing.at in pic.nodes:
            on_hex.setdefault(thing.at, []).append(thing)
    for at, here in on_hex.items():
        x, y = pic.nodes[at]
        scale = 1.0 if len(here) == 1 else 0.6
        for index, thing in enumerate(here):
            centre = (x + (index - (len(here) - 1) / 2) * W * 0.42, y - 4 * scale)
            pic.chips[thing.id] = centre
            pic.radii[thing.id] = CHIP * scale
            if isinstance(thing, Unit):
                _draw_unit(parent, thing, centre, scale, pic)
            elif isinstance(thing, Spire):
                _draw_spire(parent, thing, centre, scale, pic)
            elif isinstance(thing, Chip):
                _draw_chip(parent, thing, centre, scale, pic)
            else:
                _draw_landmark(parent, thing, centre, scale, pic)


def _draw_unit(parent: ET.Element, unit: Unit, centre: Point, scale: float, pic: _Picture) -> None:
    group = _el(parent, "g", class_="unit", data_unit=_safe(unit.id))
    radius = CHIP * scale
    _unit_chip(group, unit, centre, radius, pic)
    x, y = centre
    _label(pic.names, (x, y + radius + 10 * scale), unit.id, _fit(unit.id, 11.5 * scale, W * 0.8), weight="bold",
           halo=HALO)
    details = [pic.talent_codes[t] for t in unit.talents]
    done = [name for name in ("moved", "attacked") if getattr(unit.done, name)]
    if done:
        pic.used.add("done")
    text = " ".join(details + done)
    if text:
        _label(pic.names, (x, y + radius + 22 * scale), text, _fit(text, 9 * scale, W * 0.6), fill="#333333",
               halo=HALO)


def _max_health(unit: Unit) -> int:
    return (unit.promoted_stats if unit.promoted and unit.promoted_stats else unit.stats).health


def _unit_chip(group: ET.Element, unit: Unit, centre: Point, radius: float, pic: _Picture,
               numbers: bool = True) -> None:
    """The chip: shape and rim tell the kind, fill the faction, the number inside its health."""
    _tooltip(group, _unit_summary(unit))
    x, y = centre
    fill = pic.colours.get(unit.faction, NO_FACTION)
    pic.used.add(unit.kind.value)
    if unit.kind is Kind.LANDMARK_MINION:
        side = radius * 1.8
        _el(group, "rect", x=_n(x - side / 2), y=_n(y - side / 2), width=_n(side), height=_n(side),
            rx=_n(radius * 0.3), fill=fill, stroke=INK, stroke_width="2", stroke_dasharray="4 2")
    elif unit.kind is Kind.HERO:  # a double rim: dark outside, white inside
        _el(group, "circle", cx=_n(x), cy=_n(y), r=_n(radius), fill=fill, stroke=INK, stroke_width=_n(radius * 0.22))
        _el(group, "circle", cx=_n(x), cy=_n(y), r=_n(radius * 0.8), fill="none", stroke="#ffffff",
            stroke_width=_n(max(1.0, radius * 0.08)))
    else:
        _el(group, "circle", cx=_n(x), cy=_n(y), r=_n(radius), fill=fill, stroke=INK, stroke_width="1.5")
    if not numbers:
        return  # a stack panel writes the health beside the chip
    health = f"{unit.health}/{_max_health(unit)}"
    _label(group, (x, y), health, _fit(health, radius * 0.62, radius * 1.45), fill=_text_colour(fill), weight="bold")
    badge = radius * 0.42
    # Badges round the chip: top left a minion's group or a hero's campfire (never both), bottom
    # left a promoted hero's star, on the right its upgrades; top right stays free for damage.
    if unit.group:
        pic.used.add("group")
        _badge(group, (x - radius * 1.0, y - radius * 0.5), f"×{len(unit.group) + 1}", badge * 0.9)
    if unit.campfire:
        pic.used.add("campfire")
        _campfire(group, (x - radius * 1.05, y - radius * 0.45), badge)
    if unit.promoted:
        pic.used.add("promoted")
        _label(group, (x - radius * 1.1, y + radius * 0.7), "★", radius * 0.75, fill="#b8860b", halo=HALO)
    for index, upgrade in enumerate(unit.upgrades):
        pic.used.add("upgrade")
        _upgrade(group, (x + radius * 1.3, y + radius * 0.6 - index * badge * 2.2), upgrade, badge)


def _unit_summary(unit: Unit) -> str:
    """Everything about a unit, for its tooltip."""
    parts = [f"{unit.id}: {unit.chip}", unit.faction or "no faction", unit.kind.value,
             f"health {unit.health}/{_max_health(unit)}", f"attack {'*' if unit.stats.star else unit.stats.attack}",
             f"movement {unit.stats.movement}", f"range {unit.stats.range}", f"terrain {unit.terrain.value}"]
    if unit.talents:
        parts.append("talents " + ", ".join(unit.talents))
    if unit.upgrades:
        parts.append("upgrades " + ", ".join(unit.upgrades))
    if unit.group:
        parts.append("group below, top first: " + ", ".join(c.chip for c in unit.group))
    if unit.campfire:
        parts.append("campfire")
    done = [name for name in ("moved", "attacked", "retaliated") if getattr(unit.done, name)]
    if done:
        parts.append("has " + ", ".join(done))
    if unit.done.silenced:
        parts.append("silenced: cannot attack this turn")
    return "; ".join(parts)


def _badge(parent: ET.Element, at: Point, text: str, size: float) -> None:
    _el(parent, "circle", cx=_n(at[0]), cy=_n(at[1]), r=_n(size * 1.3), fill="#ffffff", stroke=INK, stroke_width="1")
    _label(parent, at, text, size * 1.3, weight="bold")


def _campfire(parent: ET.Element, at: Point, size: float) -> None:
    """Campfire mode: an orange flame on a dark log."""
    x, y = at
    _el(parent, "rect", x=_n(x - size * 1.2), y=_n(y + size * 0.5), width=_n(size * 2.4), height=_n(size * 0.5),
        fill="#5b3a1a")
    _el(parent, "polygon", points=f"{_n(x)},{_n(y - size * 1.3)} {_n(x + size)},{_n(y + size * 0.6)} "
        f"{_n(x - size)},{_n(y + size * 0.6)}", fill="#ff7f0e", stroke="#7a2e00", stroke_width="1", class_="campfire")


def _upgrade(parent: ET.Element, at: Point, upgrade: str, size: float) -> None:
    """An upgrade chip: a small white square with its letter (A attack, R range, F fortification)."""
    x, y = at
    _el(parent, "rect", x=_n(x - size), y=_n(y - size), width=_n(size * 2), height=_n(size * 2), fill="#ffffff",
        stroke=INK, stroke_width="1", class_="upgrade")
    _label(parent, at, UPGRADE_CODE.get(upgrade, upgrade[:1].upper()), size * 1.45, weight="bold")


def _draw_spire(parent: ET.Element, spire: Spire, centre: Point, scale: float, pic: _Picture) -> None:
    """A spire: a tower (a tall pentagon) in its faction's colour, its upgrades stacked bottom to top."""
    pic.used.add("spire")
    group = _el(parent, "g", class_="spire", data_spire=_safe(spire.id))
    _tooltip(group, f"spire {spire.id} of {spire.faction}; upgrades bottom to top: "
                    f"{', '.join(spire.upgrades) or 'none'}"
                    + (f"; talents {', '.join(spire.talents)}" if spire.talents else ""))
    x, y = centre
    half, top, bottom = 15 * scale, y - 27 * scale, y + 17 * scale
    shoulder = top + 12 * scale
    _el(group, "polygon", points=f"{_n(x)},{_n(top)} {_n(x + half)},{_n(shoulder)} {_n(x + half)},{_n(bottom)} "
        f"{_n(x - half)},{_n(bottom)} {_n(x - half)},{_n(shoulder)}",
        fill=pic.colours.get(spire.faction, NO_FACTION), stroke=INK, stroke_width="2")
    size = 5.5 * scale
    for index, upgrade in enumerate(spire.upgrades):  # the first is the bottom one, as on the table
        _upgrade(group, (x, bottom - size - 2 - index * (size * 2 + 1)), upgrade, size)
    label = f"spire {spire.id}"
    _label(pic.names, (x, bottom + 9 * scale), label, _fit(label, 11 * scale, W * 0.8), weight="bold", halo=HALO)
    _talent_line(pic, (x, bottom + 21 * scale), spire.talents, scale)


def _draw_landmark(parent: ET.Element, landmark: Landmark, centre: Point, scale: float, pic: _Picture) -> None:
    """A landmark: a diamond, grey with a question mark until revealed, then gold with its name."""
    pic.used.add("landmark")
    group = _el(parent, "g", class_="landmark", data_landmark=_safe(landmark.id))
    state = "revealed" if landmark.revealed else "not revealed"
    _tooltip(group, f"landmark {landmark.id}: {landmark.name or 'unnamed'} ({state})"
             + (f"; talents {', '.join(landmark.talents)}" if landmark.talents else ""))
    x, y = centre
    s = 19 * scale
    fill = "#f2c14e" if landmark.revealed else "#9e9e9e"
    _el(group, "polygon", points=f"{_n(x)},{_n(y - s)} {_n(x + s)},{_n(y)} {_n(x)},{_n(y + s)} {_n(x - s)},{_n(y)}",
        fill=fill, stroke=INK, stroke_width="2")
    _label(group, (x, y), "L" if landmark.revealed else "?", 14 * scale, weight="bold")
    label = f"{landmark.id}: {landmark.name}" if landmark.revealed and landmark.name else landmark.id
    _label(pic.names, (x, y + s + 9 * scale), label, _fit(label, 11 * scale, W * 0.85), weight="bold", halo=HALO)
    _talent_line(pic, (x, y + s + 21 * scale), landmark.talents, scale)


def _draw_chip(parent: ET.Element, chip: Chip, centre: Point, scale: float, pic: _Picture) -> None:
    """Any other chip: a dark grey disc, crossed, since nothing moves onto it."""
    pic.used.add("chip")
    group = _el(parent, "g", class_="chip", data_chip=_safe(chip.id))
    _tooltip(group, f"chip {chip.id}: {chip.name or 'unnamed'}"
             + (f"; talents {', '.join(chip.talents)}" if chip.talents else ""))
    x, y = centre
    r = 16 * scale
    _el(group, "circle", cx=_n(x), cy=_n(y), r=_n(r), fill="#616161", stroke=INK, stroke_width="2")
    _el(group, "path", d=f"M{_n(x - r * 0.6)},{_n(y - r * 0.6)} L{_n(x + r * 0.6)},{_n(y + r * 0.6)} "
        f"M{_n(x + r * 0.6)},{_n(y - r * 0.6)} L{_n(x - r * 0.6)},{_n(y + r * 0.6)}", stroke="#ffffff", stroke_width="2")
    label = f"{chip.id}: {chip.name}" if chip.name else chip.id
    _label(pic.names, (x, y + r + 9 * scale), label, _fit(label, 11 * scale, W * 0.85), weight="bold", halo=HALO)
    _talent_line(pic, (x, y + r + 21 * scale), chip.talents, scale)


def _talent_line(pic: _Picture, at: Point, talents: tuple[str, ...], scale: float) -> None:
    """The codes of a chip's talents, below its name (the legend spells them out)."""
    if talents:
        _label(pic.names, at, " ".join(pic.talent_codes[t] for t in talents), 9 * scale, halo=HALO)


def _marked(pic: _Picture) -> dict[str, list[str]]:
    """The factions (and units with a mark of their own) whose mark each board node or unit id is."""
    marks: dict[str, list[str]] = {}
    position = pic.position
    owners = [(name, None) for name in position.factions]
    owners += [(u.faction, uid) for uid, u in position.units.items() if u.mark is not None]
    for faction, uid in owners:
        mark = position.mark_of(uid) if uid is not None else position.factions[faction].mark
        keys = (mark.unit,) if mark.unit is not None else position.mark_nodes(faction, uid)
        for key in keys:
            marks.setdefault(key, []).append(uid or faction)
    return marks


def _draw_marks(parent: ET.Element, pic: _Picture) -> None:
    """Marks on a hex or a unit: a row of targets and whose they are, under the hex's name."""
    for key, factions in _marked(pic).items():
        unit = pic.position.units.get(key)
        hex_name = unit.at if unit is not None else key
        if hex_name in pic.position.hexes:
            x, y = pic.nodes[hex_name]
            _mark_line(parent, (x, y - R * 0.53), factions, pic, W * 0.8)
        elif unit is not None and key in pic.chips:  # a marked unit waiting in a gate's panel
            x, y = pic.chips[key]
            _mark_line(parent, (x, y + 15), factions, pic, W * 0.8)


def _mark_line(parent: ET.Element, at: Point, factions: list[str], pic: _Picture, room: float,
               label_below: bool = False) -> None:
    """Targets in the marking factions' colours and "heirs' mark", centred together on ``at``."""
    group = _el(parent, "g", class_="mark")
    text = " & ".join(_possessive(f) for f in factions) + " mark"
    _tooltip(group, text)
    targets = 15.0 * len(factions)
    if label_below:
        size = _fit(text, 8.5, room)
        _label(group, (at[0], at[1] + 14), text, size, weight="bold", halo=HALO)
        x = at[0] - targets / 2
    else:
        size = _fit(text, 8.5, room - targets - 3)
        x = at[0] - (targets + 3 + _text_width(text, size)) / 2
        _label(group, (x + targets + 3, at[1]), text, size, weight="bold", anchor="start", halo=HALO)
    for index, faction in enumerate(factions):
        cx = x + 7.5 + index * 15
        colour = pic.colours.get(faction, NO_FACTION)
        for radius, fill in ((7, colour), (4.5, "#ffffff"), (2.2, colour)):
            _el(group, "circle", cx=_n(cx), cy=_n(at[1]), r=_n(radius), fill=fill, stroke=INK, stroke_width="1")


def _draw_focus(parent: ET.Element, at: Point, radius: float) -> None:
    """The focused chip: a purple halo behind it and a dashed ring, leaving its badges visible."""
    group = _el(parent, "g", class_="focus")
    ring = _n(radius + max(4.0, radius * 0.35))
    _el(group, "circle", cx=_n(at[0]), cy=_n(at[1]), r=ring, fill=HIGHLIGHT, fill_opacity="0.3", stroke=HIGHLIGHT,
        stroke_width="3", stroke_dasharray="6 3")


# --- overlays


def _draw_routes(parent: ET.Element, moves: Sequence[MoveOutcome], pic: _Picture) -> None:
    """Each outcome's route as a line from hex centre to hex centre, ending in an arrow."""
    occupied = {u.at for u in pic.position.units.values()} | {s.at for s in pic.position.spires}
    routes = [m for m in moves if len(m.path) > 1]
    for index, move in enumerate(routes):
        # Side by side where routes share hexes, but never spread wider than a chip.
        shift = (index - (len(routes) - 1) / 2) * min(7.0, 2 * CHIP / len(routes))
        points = [(pic.nodes[n][0] + shift, pic.nodes[n][1] + shift) for n in move.path if n in pic.nodes]
        if len(points) > 1:
            # Stop at the rim of a chip standing on the end, so the arrowhead shows.
            points[-1] = _toward(points[-2], points[-1], CHIP + 5 if move.end in occupied else 6)
            _arrow(parent, _line(points), MOVE_COLOUR, "move", css="move")


def _draw_displacements(parent: ET.Element, moves: Sequence[MoveOutcome], pic: _Picture) -> None:
    """A displaced unit: a dashed curve from its chip to a dashed ghost of it where it goes."""
    drawn: set[tuple[str, str]] = set()
    for move in moves:
        for d in move.displaced:
            if d.to not in pic.nodes or (d.unit, d.to) in drawn:
                continue
            drawn.add((d.unit, d.to))
            start = pic.chips.get(d.unit, pic.nodes.get(d.source, pic.nodes[d.to]))
            end = pic.nodes[d.to]
            if d.to in pic.position.hexes:  # a unit pushed into its gate needs no ghost
                end = (end[0], end[1] - 4)  # where a chip sits in a hex
                unit = pic.position.units.get(d.unit)
                _el(parent, "circle", cx=_n(end[0]), cy=_n(end[1]), r=_n(CHIP), class_="ghost",
                    fill=pic.colours.get(unit.faction if unit else "", NO_FACTION), fill_opacity="0.45",
                    stroke=INK, stroke_width="2", stroke_dasharray="5 3")
                _label(pic.names, (end[0], end[1] + CHIP + 10), d.unit, _fit(d.unit, 10, W * 0.8), weight="bold",
                       fill="#555555", halo=HALO)
            reach = pic.radii.get(d.to, CHIP) + 3  # a gate is bigger than a chip
            path = _curve(_toward(end, start, pic.radii.get(d.unit, CHIP) + 1), _toward(start, end, reach),
                          max(30.0, math.dist(start, end) * 0.35))
            _arrow(parent, path, MOVE_COLOUR, "move", width=2.5, dashed=True, css="displacement")


def _draw_attacks(parent: ET.Element, attacks: Sequence[AttackOutcome], pic: _Picture) -> None:
    """An arrow from attacker to target, and on to the unit in a gate that took it; damage in red.

    Several outcomes are alternatives, so each is numbered: arrows carry the numbers of the
    outcomes they belong to, and each damage number says in which outcome it is taken.
    """
    numbered = len(attacks) > 1
    legs: dict[tuple[str, str], list[int]] = {}
    for number, attack in enumerate(attacks, 1):
        legs.setdefault((attack.attacker, attack.target), []).append(number)
        if attack.redirected_to:
            legs.setdefault((attack.target, attack.redirected_to), []).append(number)
    for (source, target), numbers in legs.items():
        if source not in pic.chips or target not in pic.chips:
            continue
        here, there = pic.chips[source], pic.chips[target]
        start = _toward(there, here, pic.radii.get(source, CHIP) + 2)
        end = _toward(here, there, pic.radii.get(target, CHIP) + 4)
        # Bow down, or left when the arrow is steep: damage pills sit above chips, to the right.
        dx, dy = end[0] - start[0], end[1] - start[1]
        bend = 14.0 * ((1 if dx < 0 else -1) if abs(dx) > abs(dy) else (1 if dy < 0 else -1))
        _arrow(parent, _curve(start, end, bend), ATTACK_COLOUR, "attack", css="attack")
        if numbered:
            # The curve's middle is half way to its control point; the number sits just outside it.
            label_at = _bow(start, end, bend / 2 + math.copysign(11, bend))
            _label(parent, label_at, ", ".join(map(str, numbers)), 11, fill=ATTACK_COLOUR, weight="bold", halo=HALO)
    # One pill per chip and amount: "1,2,4: −1" says outcomes 1, 2 and 4 each cost it 1.
    hits: dict[str, dict[tuple[int, bool], list[int]]] = {}
    tips: dict[str, list[str]] = {}
    for number, attack in enumerate(attacks, 1):
        amounts = attack.damage_by_chip()  # a heal instead of damage draws no number, only its tip
        for damage in attack.damage:
            healed = " healed instead" if damage.healed else ""
            tips.setdefault(damage.chip, []).append(
                (f"outcome {number}: " if numbered else "") + f"{damage.amount} by {damage.by} ({damage.how}){healed}")
        defeated = {d.chip for d in attack.defeated}
        for chip, amount in amounts.items():
            hits.setdefault(chip, {}).setdefault((amount, chip in defeated), []).append(number)
    for chip, by_amount in hits.items():
        if chip not in pic.chips:
            continue
        for index, ((amount, killed), numbers) in enumerate(by_amount.items()):
            text = (",".join(map(str, numbers)) + ": " if numbered else "") + f"−{amount}" + (" ✕" if killed else "")
            _damage(parent, chip, text, index, f"{chip} takes " + "; ".join(tips[chip]), pic)


def _draw_forbidden(parent: ET.Element, claims: Sequence[MoveOutcome | AttackOutcome], pic: _Picture) -> None:
    """A claimed move or attack the rules forbid: a dashed red route or arrow, crossed at its end."""
    for claim in claims:
        if isinstance(claim, MoveOutcome):
            points = [pic.nodes[n] for n in claim.path if n in pic.nodes]
        else:
            points = [pic.chips[c] for c in (claim.attacker, claim.target) if c in pic.chips]
        if len(points) < 2:
            continue
        # Just below the legal routes it usually shares hexes with, so both stay visible.
        points = [(x, y + 9) for x, y in points]
        points[-1] = _toward(points[-2], points[-1], CHIP + 5)
        _arrow(parent, _line(points), ATTACK_COLOUR, "attack", width=3.0, dashed=True, css="forbidden")
        _label(parent, (points[-1][0], points[-1][1] - 14), "✗", 20, fill=ATTACK_COLOUR, weight="bold", halo=HALO)


def _damage(parent: ET.Element, chip: str, text: str, index: int, tip: str, pic: _Picture) -> None:
    """A damage number in a red-rimmed pill, top right of the chip (outside a stack panel)."""
    group = _el(parent, "g", class_="damage")
    _tooltip(group, tip)
    x, y = pic.chips[chip]
    radius = pic.radii.get(chip, CHIP)
    pill = _text_width(text, 13) + 8
    (left, top), side = pic.damage_at.get(chip, ((x + radius * 0.55, y - radius - 16), 1))
    left, top = (left if side > 0 else left - pill), top + index * 21
    _el(group, "rect", x=_n(left), y=_n(top), width=_n(pill), height="19", rx="9", fill="#ffffff",
        stroke=ATTACK_COLOUR, stroke_width="2")
    _label(group, (left + 4, top + 10), text, 13, fill=ATTACK_COLOUR, weight="bold", anchor="start")


# --- the legend


def _legend(pic: _Picture, moves: Sequence[MoveOutcome], attacks: Sequence[AttackOutcome],
            focus: str | None, forbidden: bool, ends: bool) -> tuple[ET.Element, float]:
    """Every colour, shape and code the picture uses, explained; and the legend's height."""
    legend = ET.Element("g", {"class": "legend"})
    y = 0.0

    def heading(text: str) -> None:
        nonlocal y
        _label(legend, (0, y + 6), text, 12, weight="bold", anchor="start")
        y += 24

    def row(text: str) -> Point:
        """Writes ``text`` and returns where its symbol goes, left of it."""
        nonlocal y
        _label(legend, (30, y), text, _fit(text, 10.5, LEGEND_WIDTH - 36), anchor="start")
        y += 23
        return (11, y - 23)

    def gap() -> None:
        nonlocal y
        y += 8

    heading("Terrain")
    for terrain in Terrain:
        _el(legend, "polygon", points=_hexagon(row(terrain.value), 10), fill=TERRAIN_FILL[terrain], stroke="#6b6b6b")
    if any(h.rock for h in pic.position.hexes.values()):
        _el(legend, "polygon", points=_hexagon(row("floating rock: no move ends on it"), 10), fill=ROCK_FILL,
            stroke=ROCK_STROKE, stroke_dasharray="3 2")
    if any(h.well for h in pic.position.hexes.values()):
        _well(legend, row("Source Well"))
    _el(legend, "polygon", points=_hexagon(row("no hex (a gap or sky)"), 10), fill="none", stroke=GAP_STROKE,
        stroke_dasharray="3 3")
    gap()
    heading("Factions")
    for name, faction in pic.position.factions.items():
        x, ty = row(f"{name} ({faction.controller.value}, source {faction.source})")
        _el(legend, "circle", cx=_n(x), cy=_n(ty), r="9", fill=pic.colours.get(name, NO_FACTION), stroke=INK)
    if Kind.LANDMARK_MINION.value in pic.used and any(u.faction == "" for u in pic.position.units.values()):
        x, ty = row("no faction")
        _el(legend, "circle", cx=_n(x), cy=_n(ty), r="9", fill=NO_FACTION, stroke=INK)
    x, ty = row("gate, its health; where units deploy")
    _el(legend, "polygon", points=_hexagon((x, ty), 10), fill="#e9e9e9", stroke=INK, stroke_width="3")
    x, ty = row("a faction's mark, in its colour")
    for radius, fill in ((8.5, INK), (5.5, "#ffffff"), (2.8, INK)):
        _el(legend, "circle", cx=_n(x), cy=_n(ty), r=_n(radius), fill=fill, stroke=INK)
    gap()
    heading("Chips (health / maximum inside)")
    _legend_chips(legend, row, pic)

    if moves or attacks or focus or forbidden or ends:
        gap()
        heading("Overlay")
    if ends:
        _el(legend, "polygon", points=_hexagon(row("where a unit must end the step (unit!)"), 10), fill="none",
            stroke=HIGHLIGHT, stroke_width="3")
        _el(legend, "polygon", points=_hexagon(row("where units may end it"), 10), fill="none",
            stroke=HIGHLIGHT, stroke_width="3", stroke_dasharray="4 3")
    if forbidden:
        x, ty = row("✗ the claim, which the rules forbid")
        _arrow(legend, _line([(x - 11, ty), (x + 10, ty)]), ATTACK_COLOUR, "attack", width=3.0, dashed=True,
               css="legend-forbidden")
    if moves:
        _el(legend, "polygon", points=_hexagon(row("a legal destination (kind of move)"), 10), fill="none",
            stroke=HIGHLIGHT, stroke_width="3")
        x, ty = row("a route, start to end")
        _arrow(legend, _line([(x - 11, ty), (x + 10, ty)]), MOVE_COLOUR, "move", css="legend-move")
        if any(m.displaced for m in moves):
            x, ty = row("a displaced unit, to its dashed ghost")
            _arrow(legend, _line([(x - 11, ty), (x + 10, ty)]), MOVE_COLOUR, "move", width=2.5, dashed=True,
                   css="legend-displace")
    if attacks:
        x, ty = row("an attack (on to the unit in a gate hit)")
        _arrow(legend, _line([(x - 11, ty), (x + 10, ty)]), ATTACK_COLOUR, "attack", css="legend-attack")
        _label(legend, row("damage taken; ✕ defeated"), "−2", 12, fill=ATTACK_COLOUR, weight="bold")
        if len(attacks) > 1:
            _label(legend, row("in outcome 1 (arrows: their outcomes)"), "1: −2", 10, fill=ATTACK_COLOUR,
                   weight="bold")
    if focus:
        x, ty = row(f"focus: {focus}")
        _el(legend, "circle", cx=_n(x), cy=_n(ty), r="9", fill="none", stroke=HIGHLIGHT, stroke_width="2.5",
            stroke_dasharray="4 2")
    return legend, y


def _legend_chips(legend: ET.Element, row: Callable[[str], Point], pic: _Picture) -> None:
    """The kinds of chip and their badges, only those on the board."""
    used = pic.used
    if Kind.MINION.value in used:
        x, ty = row("minion")
        _el(legend, "circle", cx=_n(x), cy=_n(ty), r="9", fill="#ffffff", stroke=INK, stroke_width="1.5")
    if Kind.HERO.value in used:
        x, ty = row("hero: a double rim")
        _el(legend, "circle", cx=_n(x), cy=_n(ty), r="9", fill="#ffffff", stroke=INK, stroke_width="2.5")
        _el(legend, "circle", cx=_n(x), cy=_n(ty), r="7", fill="none", stroke="#ffffff", stroke_width="1")
    if Kind.LANDMARK_MINION.value in used:
        x, ty = row("landmark minion: a dashed square")
        _el(legend, "rect", x=_n(x - 8), y=_n(ty - 8), width="16", height="16", rx="3", fill="#ffffff", stroke=INK,
            stroke_dasharray="4 2", stroke_width="2")
    if "group" in used:
        _badge(legend, row("group: chips in it"), "×2", 6.5)
    if "campfire" in used:
        _campfire(legend, row("campfire mode"), 6)
    if "promoted" in used:
        _label(legend, row("promoted"), "★", 14, fill="#b8860b")
    if "upgrade" in used or any(s.upgrades for s in pic.position.spires):
        _upgrade(legend, row("upgrades: A attack, R range, F fortification"), "attack", 7)
    if "spire" in used:
        x, ty = row("spire; its upgrades bottom to top")
        _el(legend, "polygon", points=f"{_n(x)},{_n(ty - 11)} {_n(x + 8)},{_n(ty - 4)} {_n(x + 8)},{_n(ty + 9)} "
            f"{_n(x - 8)},{_n(ty + 9)} {_n(x - 8)},{_n(ty - 4)}", fill="#ffffff", stroke=INK, stroke_width="1.5")
    if "landmark" in used:
        x, ty = row("landmark: ? hidden, L revealed")
        _el(legend, "polygon", points=f"{_n(x)},{_n(ty - 10)} {_n(x + 10)},{_n(ty)} {_n(x)},{_n(ty + 10)} "
            f"{_n(x - 10)},{_n(ty)}", fill="#9e9e9e", stroke=INK)
    if "chip" in used:
        x, ty = row("other chip: nothing moves onto it")
        _el(legend, "circle", cx=_n(x), cy=_n(ty), r="9", fill="#616161", stroke=INK)
    if "done" in used:
        _label(legend, row("has already moved / attacked"), "moved", 7, fill="#333333")
    for name, code in pic.talent_codes.items():
        _label(legend, row(f"talent: {name}"), code, 10, weight="bold")
