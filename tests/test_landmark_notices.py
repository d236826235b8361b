"""A landmark's talents: no encoding reads them (but those the catalogue marks on_landmarks: Fountain, Secret Passage, Summon Hero, Unstable Rift, Foreboding), so each names
itself, as not modelled, in every answer covering a step it acts in, and changes nothing else; face
down, only where a unit explores (docs/position-format.md, Landmarks)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from adjudicator.position.load import load_position_text
from adjudicator.position.model import Landmark, Position
from adjudicator.position.talents import BOARD_STEPS, NOT_MODELLED, catalogue
from adjudicator.questions.adjudicate import faction_options
from adjudicator.questions.coverage import QUESTION_STEPS, notices

BOARD = """format: cloudspire-position/1
map: |4
        a  b  c  d  e
    1   p  f  p  p  p
gates:
  heirs:  {beside: [a1], health: 10}
  narora: {beside: [e1], health: 10}
factions:
  heirs:  {controller: player, mark: {gate: narora}}
  narora: {controller: ai, mark: {gate: heirs}}
turn: {faction: heirs, step: movement}
units:
  joust: {chip: Joust, faction: heirs, kind: minion, at: a1, health: 1,
          stats: {health: 2, attack: 1, movement: 2}}
"""

# Every talent of the landmark and market sheet that acts on the board (modelled ones, Engage,
# Riftwalk, included: on a landmark no encoding reads them).
ON_THE_BOARD = sorted(t.name for t in catalogue().talents.values()
                      if "landmark-market" in t.lists and not t.outside and set(t.steps) & set(BOARD_STEPS))


def _with(talent: str, revealed: bool) -> Position:
    """The board with a landmark on c1 holding ``talent`` ("": none), beside the joust's way."""
    position = load_position_text(BOARD, "board.yaml")
    talents = (talent,) if talent else ()
    return replace(position, landmarks=(Landmark("spring", "c1", "Spring", revealed, talents),))


def _named(position: Position, question: str, talent: str) -> tuple[str, ...]:
    """The steps the notices of ``question`` name ``talent`` in, each as not modelled on the landmark."""
    found = [n for n in notices(position, question) if n.talent == talent]
    assert all(n.status == NOT_MODELLED and n.chips == ("spring",) for n in found)
    return tuple(s for n in found for s in n.steps)


@pytest.mark.parametrize("talent", [t for t in ON_THE_BOARD if not catalogue().get(t).on_landmarks])
def test_a_revealed_landmarks_talent_is_named_in_every_step_it_acts_in(talent: str) -> None:
    position = _with(talent, revealed=True)
    steps = catalogue().get(talent).steps
    for question, asked in QUESTION_STEPS.items():
        assert set(_named(position, question, talent)) == set(steps) & set(asked), (talent, question)


def test_a_revealed_fountain_is_named_where_its_encoding_leaves_it_out() -> None:
    # fountain.lp reads it: the start of the turn names it only while the position does not say whether
    # the turn starts the round; its discard at the end of the wave is modelled (the end of the wave).
    position = _with("Fountain", revealed=True)
    said = replace(position, turn=replace(position.turn, first_of_round=True))
    for question, asked in QUESTION_STEPS.items():
        wanted = {"start-of-turn"} & set(asked)
        named = [n for n in notices(position, question) if n.talent == "Fountain"]
        assert {s for n in named for s in n.steps} == wanted, question
        assert not [n for n in notices(said, question) if n.talent == "Fountain"], question


@pytest.mark.parametrize("talent", [t for t in ON_THE_BOARD if not catalogue().get(t).on_landmarks])
def test_a_face_down_landmarks_talent_is_named_only_where_a_unit_explores(talent: str) -> None:
    position = _with(talent, revealed=False)
    explores = "exploration" in catalogue().get(talent).steps
    for question, asked in QUESTION_STEPS.items():
        wanted = ("exploration",) if explores and "exploration" in asked else ()
        assert _named(position, question, talent) == wanted, (talent, question)


@pytest.mark.parametrize("talent", [t for t in ON_THE_BOARD if catalogue().get(t).on_landmarks])
def test_a_face_down_landmarks_talent_an_encoding_reads_is_never_named_not_modelled(talent: str) -> None:
    # Read face down as a unit explores (input ftalent/2: Unstable Rift, Foreboding) or on the board
    # (Secret Passage): named, if at all, only for a part its catalogue entry leaves out.
    position = _with(talent, revealed=False)
    for question in QUESTION_STEPS:
        found = [n for n in notices(position, question) if n.talent == talent]
        assert all(n.status != NOT_MODELLED for n in found), (talent, question)


@pytest.mark.parametrize("talent", ["Engage", "Fountain", "Riftwalk"])
def test_a_landmarks_talent_changes_no_move(talent: str) -> None:
    moves = [o.as_json() for o in faction_options(_with("", revealed=True))]
    given = [o.as_json() for o in faction_options(_with(talent, revealed=True))]
    for entry in (*moves, *given):
        entry.pop("notices")
    assert given == moves
