"""The movement-stat talents' Python side: the loader refuses a stat the routes cannot follow, and a
one-unit question is handed enough board (docs/movement.md, The movement stat)."""

from __future__ import annotations

import pytest

from adjudicator.facts import fields
from adjudicator.facts.board import field_facts
from adjudicator.position.load import PositionFileError, load_position_text
from adjudicator.position.model import Position

BOARD = """format: cloudspire-position/1
map: |4
    1   p  p  p  p  p  p  p  p  p  p  p  p
gates:
  narora: {beside: [l1], health: 10}
  heirs:  {beside: [a1], health: 10}
factions:
  heirs:  {controller: player, mark: {gate: narora}}
  narora: {controller: ai, mark: {gate: heirs}}
turn: {faction: heirs, step: movement}
units:
  harrier: {chip: Harrier, faction: heirs, kind: minion, at: a1, health: 1,
            stats: {health: 1, attack: 1, movement: MOVEMENT}, talents: TALENTS}
"""


def board(movement: int, talents: str) -> Position:
    return load_position_text(BOARD.replace("MOVEMENT", str(movement)).replace("TALENTS", talents), "t.yaml")


def test_speed_beyond_eight_is_a_located_error() -> None:
    with pytest.raises(PositionFileError) as raised:
        board(8, "[Speed]")
    [problem] = raised.value.problems
    assert problem.field == "units.harrier.talents"
    assert "raise its movement stat to 9" in problem.message


def test_the_radius_counts_speed() -> None:
    assert fields.move_radii(board(3, "[Speed]"), ["harrier"]) == {"harrier": 5}
    assert fields.move_radii(board(3, "[]"), ["harrier"]) == {"harrier": 4}


def test_a_sure_footed_unit_gets_the_mountains_field_too() -> None:
    classes = {str(f.arguments[0]) for f in field_facts(board(2, "[Sure-Footed]"), ["harrier"], ())}
    assert classes == {'c(path,"heirs")', 'c(mountains,"heirs")'}
