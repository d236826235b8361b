"""The whole turn and the end-of-turn question asked alone agree with the brute-force reference
(tests/reference/turn.py) on Back to the Future's extra move and attack at the end of the turn, on generated
boards drawn derandomized (tests/profiles.py): the unit's move, then its attack, or no use (reference
N288-N290, N313)."""

from __future__ import annotations

import copy
from dataclasses import replace

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from adjudicator.answers.attacks import AttackStepResult
from adjudicator.answers.turns import TurnEnd, TurnResult
from adjudicator.position.model import Controller, Position
from adjudicator.questions.closing import end_of_turn
from adjudicator.questions.whole_turn import whole_turn
from tests.comparisons import report
from tests.profiles import examples
from tests.reference import turn as turn_ref
from tests.strategies import positions, without_talents


@st.composite
def returning(draw: st.DrawFn) -> tuple[Position, bool]:
    """A board of ``positions`` with no talents, at the end of the turn, every unit of the turn's faction
    having moved and attacked, one of them on the map with Back to the Future, the others' units at 1
    health by a coin toss, played by a player or the AI (reference N288, N289)."""
    position = without_talents(draw(positions()))
    side = position.turn.faction
    ours = sorted(u for u, x in position.units.items() if x.faction == side and x.at is not None and not x.campfire)
    assume(ours)
    uid = draw(st.sampled_from(ours))
    ai = draw(st.booleans())
    units = {u: replace(x, done=replace(x.done, moved=True, attacked=True)) if x.faction == side else x
             for u, x in position.units.items()}
    units[uid] = replace(units[uid], talents=(turn_ref.BACK_TO_THE_FUTURE,))
    if draw(st.booleans()):  # the other factions' units at 1 health, so that an attack defeats one (N289)
        units = {u: replace(x, health=1) if x.faction != side else x for u, x in units.items()}
    factions = {**position.factions, side: replace(position.factions[side],
                                                   controller=Controller.AI if ai else Controller.PLAYER)}
    return replace(position, units=units, factions=factions,
                   turn=replace(position.turn, step="end-of-turn")), ai


def _boards(position: Position, result: TurnResult) -> set[turn_ref.Board]:
    """Each outcome's board as the reference compares it (N290)."""
    start = {uid: (node, health) for uid, node, health in turn_ref.board(position)}
    return {_changed(start, outcome.end) for outcome in result.outcomes}


def _changed(places: dict[str, tuple[str, int | None]], end: TurnEnd) -> turn_ref.Board:
    """The board ``places`` once ``end``'s changes to its units are made (N290)."""
    places = dict(places)
    for unit in end.units:
        was = places[unit.unit][1]
        places[unit.unit] = (turn_ref.OFF, None) if unit.node is None else (
            unit.node, was if unit.health is None else unit.health)
    return tuple(sorted((uid, node, health) for uid, (node, health) in places.items()))


def _closed(position: Position, result: AttackStepResult) -> set[turn_ref.Board]:
    """Each end state of the end-of-turn question as the reference compares it (N313): the board its own
    acts leave, then what its lines changed."""
    start = {uid: (node, health) for uid, node, health in turn_ref.board(position)}
    found = set()
    for outcome in result.outcomes:
        places = dict(start)
        for chip in outcome.end.chips:
            if chip.chip in places:
                node, health = places[chip.chip]
                places[chip.chip] = (turn_ref.OFF, None) if chip.defeated or chip.discarded or chip.returned else (
                    chip.at or node, health if chip.health is None else chip.health)
        found.add(_changed(places, outcome.again_end) if outcome.again_end else
                  tuple(sorted((uid, node, health) for uid, (node, health) in places.items())))
    return found


@settings(max_examples=examples(150), deadline=None)
@given(returning())
def test_whole_turn_agrees_on_back_to_the_future(drawn: tuple[Position, bool]) -> None:
    position, ai = drawn
    want = turn_ref.back_to_the_future(position, ai)
    have = _boards(position, whole_turn(copy.deepcopy(position), ai))
    lines = [f"  missing from solver: {b}" for b in sorted(want - have, key=str)]
    lines += [f"  extra in solver:     {b}" for b in sorted(have - want, key=str)]
    assert not lines, report(position, f"whole_turn(ai={ai}) from the end of the turn", lines)


@settings(max_examples=examples(150), deadline=None)
@given(returning())
def test_end_of_turn_asked_alone_agrees_on_back_to_the_future(drawn: tuple[Position, bool]) -> None:
    position, ai = drawn
    want = turn_ref.back_to_the_future(position, ai)
    alone = end_of_turn(copy.deepcopy(position), ai)
    have = _closed(position, alone)
    lines = [f"  missing from solver: {b}" for b in sorted(want - have, key=str)]
    lines += [f"  extra in solver:     {b}" for b in sorted(have - want, key=str)]
    # The same end states as the whole turn's, one for one (N313): none merged or split by the turn.
    turn = whole_turn(copy.deepcopy(position), ai)
    if alone.count != turn.count:
        lines.append(f"  {alone.count} end states asked alone, {turn.count} outcomes of the whole turn")
    assert not lines, report(position, f"end_of_turn(ai={ai}) asked alone", lines)
