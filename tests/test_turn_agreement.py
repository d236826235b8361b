"""The whole turn agrees with the brute-force reference (tests/reference/turn.py) on Back to the Future's
extra move and attack at the end of the turn, on generated boards drawn derandomized (tests/profiles.py).
The end-of-turn question alone plays neither (its catalogue part is counted by the turn), so this is
where the branch is checked: the unit's move, then its attack, or no use (reference N288-N290)."""

from __future__ import annotations

import copy
from dataclasses import replace

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from adjudicator.answers.turns import TurnResult
from adjudicator.position.model import Controller, Position
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
    found = set()
    for outcome in result.outcomes:
        places = dict(start)
        for end in outcome.end.units:
            was = places[end.unit][1]
            places[end.unit] = (turn_ref.OFF, None) if end.node is None else (
                end.node, was if end.health is None else end.health)
        found.add(tuple(sorted((uid, node, health) for uid, (node, health) in places.items())))
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
