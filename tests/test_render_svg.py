"""The SVG picture (adjudicator/show/render_svg.py): well-formed, complete, escaped, overlays drawn."""

from __future__ import annotations

import dataclasses
import math
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from adjudicator.answers.attacks import AttackOutcome, Damage, Defeat
from adjudicator.position.load import load_position, load_position_text
from adjudicator.position.model import Position
from adjudicator.answers.moves import Displacement, MoveOutcome
from adjudicator.show.render_svg import W, _cell_centre, _gate_centre, render, to_png

ROOT = Path(__file__).resolve().parent.parent / "positions"
FILES = sorted(ROOT.glob("**/*.yaml"))
SVG = "{http://www.w3.org/2000/svg}"
JOUST = ROOT / "rulebook" / "joust-harrier-jaelana-after-joust.yaml"
DEPLOY = ROOT / "rules" / "deploy-from-gate.yaml"

HOSTILE = """\
format: cloudspire-position/1
title: Hostile names <b> & "quotes"
map: |4
        a  b  c
    1   p  p* p
    2     p  l  p
gates:
  heirs: {beside: [a1], health: 10, stack: ["a<b&\\"c"]}
  narora: {beside: [c2], health: 10}
factions:
  heirs: {controller: player, mark: {unit: "x). #false."}}
  narora: {controller: ai, mark: {gate: heirs}}
turn: {faction: heirs, step: movement}
spires:
  "]]>spire": {faction: heirs, at: b2, upgrades: [attack, range]}
landmarks:
  "<!--lm": {at: c1, name: "Ruin & <Co>", revealed: true, talents: []}
units:
  "x). #false.": {chip: "Drift <&>", faction: narora, kind: minion, at: b1, health: 1,
                  stats: {health: 2, attack: 1, movement: 3}, talents: ["Queen's Blood"]}
  "a<b&\\"c": {chip: Joust, faction: heirs, kind: minion, health: 2, stats: {health: 2, attack: 1, movement: 2}}
"""


def _parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)  # raises on anything that is not well-formed XML
    assert root.tag == f"{SVG}svg"
    return root


def _texts(root: ET.Element) -> list[str]:
    """The content of every <text> element: what a reader sees written."""
    return ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]


def _of_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if e.get("class") == name]


def _pills(root: ET.Element) -> list[str]:
    """The damage numbers written on the picture."""
    return ["".join(d.find(f"{SVG}text").itertext()) for d in _of_class(root, "damage")]  # type: ignore[union-attr]


def _assert_complete(position: Position, root: ET.Element) -> None:
    texts = _texts(root)
    for name in position.hexes:
        assert name in texts, f"hex {name!r} has no label"
    for unit in position.units.values():
        if unit.at is not None:
            assert unit.id in texts, f"unit {unit.id!r} has no label"
        else:  # a waiting unit is one line of its gate's stack panel
            assert any(unit.id in t for t in texts), f"unit {unit.id!r} in a stack is not listed"
    assert len(_of_class(root, "hex")) == len(position.hexes)
    assert len(_of_class(root, "gate")) == len(position.gates)
    assert len(_of_class(root, "unit")) == sum(u.at is not None for u in position.units.values())
    assert len(_of_class(root, "spire")) == len(position.spires)
    assert len(_of_class(root, "landmark")) == len(position.landmarks)
    legend = "".join(_of_class(root, "legend")[0].itertext())
    for faction in position.factions:
        assert faction in legend
    chips = (*position.units.values(), *position.spires, *position.landmarks, *position.chips)
    for talent in {t for chip in chips for t in chip.talents}:
        assert f"talent: {talent}" in legend, f"talent {talent!r} is not in the legend"


def test_there_are_positions() -> None:
    assert len(FILES) >= 8


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_every_position_renders_completely(path: Path) -> None:
    position = load_position(path)
    _assert_complete(position, _parse(render(position)))


def test_hostile_names_are_escaped_and_complete() -> None:
    position = load_position_text(HOSTILE, "hostile.yaml")
    # The loader takes only catalogue names; the renderer must escape whatever it is given all the same.
    units = {uid: dataclasses.replace(u, talents=(*u.talents, "Air <Defense>", "&amp;")) if u.talents else u
             for uid, u in position.units.items()}
    position = dataclasses.replace(position, units=units)
    svg = render(position, focus="x). #false.")
    root = _parse(svg)
    _assert_complete(position, root)
    texts = _texts(root)
    assert "spire ]]>spire" in texts
    assert any("<!--lm" in t for t in texts)
    assert "a<b" not in svg and "a&lt;b&amp;" in svg  # escaped in the text, intact once parsed
    assert len(_of_class(root, "focus")) == 1
    legend = "".join(_of_class(root, "legend")[0].itertext())
    assert "talent: Queen's Blood" in legend
    assert "talent: Air <Defense>" in legend and "talent: &amp;" in legend


def test_characters_xml_cannot_hold_are_replaced() -> None:
    position = load_position(JOUST)
    joust = position.units["joust"]
    units = {("bad\x01id\x1b" if k == "joust" else k): u for k, u in position.units.items()}
    units["bad\x01id\x1b"] = dataclasses.replace(joust, id="bad\x01id\x1b")
    root = _parse(render(dataclasses.replace(position, units=units)))
    assert "bad\ufffdid\ufffd" in _texts(root)


def test_moves_overlay_draws_route_destination_and_displacement() -> None:
    position = load_position(JOUST)
    plain = _parse(render(position))
    for name in ("move", "destination", "displacement", "ghost"):
        assert _of_class(plain, name) == []
    move = MoveOutcome(
        unit="harrier", end="c4", kind="progress",
        displaced=(Displacement("jaelana", "c4", "c3"),), path=("a3", "b3", "c3", "c4"),
    )
    root = _parse(render(position, moves=[move], focus="harrier"))
    routes = _of_class(root, "move")
    assert len(routes) == 1
    drawn = routes[0].findall(f"{SVG}path")[-1]
    assert drawn.get("marker-end") == "url(#arrow-move)"
    assert drawn.get("d", "").count("L") == len(move.path) - 1  # a vertex on every hex of the path
    assert len(_of_class(root, "destination")) == 1
    assert "progress" in _texts(root)
    assert len(_of_class(root, "displacement")) == 1
    assert len(_of_class(root, "ghost")) == 1
    assert _texts(root).count("jaelana") == 2  # the chip, and its ghost where it is displaced to
    assert len(_of_class(root, "focus")) == 1


def test_staying_in_a_gate_rings_the_gate() -> None:
    position = load_position(DEPLOY)
    stay = MoveOutcome(unit="joust_top", end="gate:heirs", kind="stay", path=("gate:heirs",))
    lateral = MoveOutcome(unit="joust_top", end="a1", kind="lateral", path=("gate:heirs", "a1"))
    root = _parse(render(position, moves=[stay, lateral]))
    assert len(_of_class(root, "destination")) == 2  # a1, and the gate itself
    assert {"stay", "lateral"} <= set(_texts(root))
    assert len(_of_class(root, "move")) == 1  # staying has no route


def test_attacks_overlay_draws_arrows_and_numbered_damage() -> None:
    position = load_position(ROOT / "faq" / "faq-15-player-gate-redirect.yaml")
    on_gate = AttackOutcome(
        "battleborn", "gate:heirs",
        damage=(Damage("gate:heirs", 1, "battleborn", "attack"), Damage("battleborn", 1, "gate:heirs", "retaliation")),
    )
    on_scout = AttackOutcome(
        "battleborn", "gate:heirs", redirected_to="scout",
        damage=(Damage("scout", 2, "battleborn", "attack"),), defeated=(Defeat("scout", "Harrier", "brawnen", "barracks"),),
    )
    one = _parse(render(position, attacks=[on_gate]))
    assert len(_of_class(one, "attack")) == 1
    assert _pills(one) == ["−1", "−1"]  # the gate and, by retaliation, the attacker
    both = _parse(render(position, attacks=[on_gate, on_scout]))
    assert len(_of_class(both, "attack")) == 2  # battleborn → gate, and on from the gate to the scout
    assert sorted(_pills(both)) == ["1: −1", "1: −1", "2: −2 ✕"]  # numbered by outcome, the defeat marked
    assert {"1, 2", "2"} <= set(_texts(both))  # the arrows' outcome numbers
    assert _of_class(_parse(render(position)), "attack") == []


def test_gate_is_drawn_on_the_cell_touching_its_hexes() -> None:
    position = load_position(DEPLOY)
    nodes = {name: _cell_centre(h.column, h.row) for name, h in position.hexes.items()}
    gate = position.gates["heirs"]
    centre = _gate_centre(position, gate, nodes)
    for name in gate.beside:
        assert math.dist(centre, nodes[name]) == pytest.approx(W)
    root = _parse(render(position))
    assert len(_of_class(root, "tie")) == 2 * sum(len(g.beside) for g in position.gates.values())


def test_marks_are_labelled_with_whose_they_are() -> None:
    position = load_position_text(HOSTILE, "hostile.yaml")
    texts = _texts(_parse(render(position)))
    assert "heirs' mark" in texts  # on the unit x). #false.
    assert "narora's mark" in texts  # on the heirs' gate


def test_png_needs_resvg_and_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    svg = render(load_position(JOUST))
    monkeypatch.setitem(sys.modules, "resvg_py", None)  # as if it were not installed
    with pytest.raises(RuntimeError, match="pip install resvg-py"):
        to_png(svg)


def test_png_when_resvg_is_installed() -> None:
    pytest.importorskip("resvg_py")
    png = to_png(render(load_position(DEPLOY)), zoom=1.0)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    root = _parse(render(load_position(DEPLOY)))
    assert (width, height) == (round(float(root.get("width", 0))), round(float(root.get("height", 0))))


def test_a_narrow_picture_puts_the_legend_below_the_board_and_wraps_the_title() -> None:
    title = "A title far longer than the board is wide, which a phone would otherwise cut off at its right edge"
    position = dataclasses.replace(load_position(JOUST), title=title)
    wide, narrow = ET.fromstring(render(position)), ET.fromstring(render(position, narrow=True))
    assert float(narrow.get("width", 0)) < float(wide.get("width", 0))
    assert float(narrow.get("height", 0)) > float(wide.get("height", 0))  # the legend went below the board
    titles = [t.text for t in narrow.findall(f"{SVG}text")][:-1]  # the title's lines, then the turn
    assert len(titles) > 1 and " ".join(titles) == title
