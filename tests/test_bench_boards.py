"""The benchmark's Harbinger chapter boards (bench/boards.py, in_chapter): each is a position of its
chapter that the loader takes, with the chapter's sides, and it writes back to the same position."""

from __future__ import annotations

import pytest

from adjudicator.position.load import load_position_text
from adjudicator.position.model import Controller, Kind, Mark

from bench import boards


@pytest.mark.parametrize("chapter", sorted(boards.CHAPTER_SIDES))
def test_a_chapter_board_is_a_position_of_its_chapter(chapter: int) -> None:
    board = boards.in_chapter(boards.realistic(0, 60, 5), chapter, 0)
    ai, player = boards.CHAPTER_SIDES[chapter]
    assert board.scenario is not None and board.scenario.chapter == chapter
    assert board.turn.faction == ai and board.factions[ai].controller is Controller.AI
    assert board.factions[player].controller is Controller.PLAYER
    assert {u.faction for u in board.units.values()} == {ai, player}
    assert load_position_text(boards.position_yaml(board)) == board


def test_the_chapters_that_say_so_change_the_board() -> None:
    rocky = boards.in_chapter(boards.realistic(0, 60, 5), 1, 0)
    assert sum(h.rock for h in rocky.hexes.values()) == boards.ROCKS
    heirs = boards.in_chapter(boards.realistic(0, 60, 5), 2, 0)
    assert all(u.kind is Kind.HERO for u in heirs.units.values() if u.faction == "heirs")
    assert heirs.factions["heirs"].mark == Mark() and heirs.factions["graft"].mark.unit in heirs.units
    keel = boards.in_chapter(boards.realistic(0, 60, 5), 7, 0)
    assert keel.units[keel.factions["keel"].mark.unit].chip == "Nucleus"
    spires = boards.in_chapter(boards.realistic(0, 60, 5), 8, 0).spires
    assert spires and all(s.chip for s in spires)
