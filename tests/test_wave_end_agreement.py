"""Neglected, Precious (and the end of the wave): the solver's attack step agrees with the combat
reference (tests/reference/combat.py, _wave_over, N176) on generated boards whose drawn minions carry
Neglected or Precious, both kinds together too.

Derandomized like tests/test_combat_agreement.py (tests/profiles.py). A board on which every minion
is already a forsaken is left out: its wave was over before the step (a position past the wave's end).
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from adjudicator.position.model import Kind, Position
from tests.combat_strategies import combat_positions
from tests.comparisons import attack_step_problem
from tests.profiles import examples


@settings(max_examples=examples(30), deadline=None, report_multiple_bugs=False)
@given(combat_positions(), st.data())
def test_the_attack_step_agrees_with_forsaken_and_elfinkaze_on_the_board(position: Position, data: st.DataObject) -> None:
    minions = sorted(uid for uid, u in position.units.items() if u.kind is Kind.MINION)
    assume(len(minions) >= 2)
    # All but one: the step that defeats that one ends the wave.
    keeper = data.draw(st.sampled_from(minions))
    # Each other minion a forsaken (Neglected) or an elfinkaze (Precious): two types keep the wave going.
    idle = {uid: data.draw(st.sampled_from(("Neglected", "Precious"))) for uid in minions if uid != keeper}
    units = {
        uid: replace(u, talents=(*u.talents, idle[uid])) if uid in idle else u for uid, u in position.units.items()
    }
    problem = attack_step_problem(replace(position, units=units))
    assert problem is None, problem
