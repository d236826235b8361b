"""The solver agrees with the brute-force combat reference (tests/reference/combat.py).

Compared by keys: per unit its targets and outcomes, per step the set of end states (and each
solver sequence is replayed through the reference), per Spires Fire the probability of every
(choices, end).  A disagreement prints the position as a position file, and what differs.  The
solver gets a copy, so the position printed is the one generated.  The turn's faction acts as its
controller says (``ai=None`` to the solver); the strategies draw both controllers.  The comparisons
themselves are in tests/comparisons.py, shared with the sweep (bench/sweep.py).

The boards are drawn derandomized, so a normal run is the same every time (tests/profiles.py).
For a random sweep outside CI, with ten times the examples:
``HYPOTHESIS_PROFILE=explore pytest tests/test_agreement.py tests/test_combat_agreement.py``,
or ``python -m bench.sweep`` (bench/README.md).
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.answers.decode import _Moment, _talent_choices
from adjudicator.position.model import Kind, Position, Terrain

from tests.combat_strategies import (
    SPIRE_HITS, UNGROUPED, absorbing, assisting, calling, cheering, combat_positions, cumbersome, detonating, entropic,
    exploding, fountained, gifted, held_still,
    capturing, fuming, keeled, pollinating, powering,
    peaceful,
    perched, pistoleers, quaking, rallied, razing, recruiting, relentless_ripostes, robbing, secreting, spawning,
    infesting, limited, refreshing, spire_gifted, starred, swap_harmed, translocating, turn_edged, walloped, walloping,
    winded,
)
from tests.strategies import (
    allied, earthscaped, explored, grafted_boards, healing, unstabled, wave_ended, waygated,
)
from tests.profiles import examples

solver = pytest.importorskip("adjudicator.questions.adjudicate")
if not all(hasattr(solver, name) for name in ("attack_options", "attack_step", "spires_fire")):
    pytest.skip("the solver has no combat questions yet", allow_module_level=True)

from tests.comparisons import (  # noqa: E402
    at_spires_fire,
    end_of_wave_problem,
    exploration_problem,
    attack_options_problem,
    attack_step_problem,
    one_unit_attack_options_problem,
    spires_fire_problem,
    turn_edge_problem,
    turn_units,
)


@settings(max_examples=examples(150), deadline=None, report_multiple_bugs=False)  # the sweep draws more
@given(combat_positions())
def test_attack_options_agree(position: Position) -> None:
    problem = attack_options_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(70), deadline=None, report_multiple_bugs=False)
@given(combat_positions(), st.data())
def test_one_unit_attack_options_agree(position: Position, data: st.DataObject) -> None:
    uid = data.draw(st.sampled_from(turn_units(position)))
    problem = one_unit_attack_options_problem(position, uid)
    assert problem is None, problem


@settings(max_examples=examples(45), deadline=None, report_multiple_bugs=False)
@given(combat_positions())
def test_attack_step_agrees(position: Position) -> None:
    problem = attack_step_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(45), deadline=None, report_multiple_bugs=False)
@given(combat_positions(firing=True))
def test_spires_fire_agrees(position: Position) -> None:
    position = at_spires_fire(position)
    problem = spires_fire_problem(position)
    assert problem is None, problem


def _splashing(position: Position) -> Position:
    """Splash on every spire: on a coin toss too few of the drawn boards had a unit beside a target."""
    return replace(position, spires=tuple(replace(s, talents=tuple(sorted({*s.talents, "Splash"})))
                                          for s in position.spires))


@settings(max_examples=examples(16), deadline=None, report_multiple_bugs=False)
@given(gifted(combat_positions(firing=True), ("Sourcefield",)).map(_splashing).map(at_spires_fire))
def test_spires_fire_agrees_with_splash_and_sourcefield(position: Position) -> None:
    # Splash on every spire, Sourcefield on half the units (reference N75, N76): a player's spire's
    # splash and each payment the Source allows are choices, an AI spire's splash is forced.
    problem = spires_fire_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(30), deadline=None, report_multiple_bugs=False)
@given(spire_gifted(combat_positions(firing=True), "Inferno", Terrain.FOREST,
                    {"inferno-upgrade": ("attack", "fortification", "range")}).map(at_spires_fire))
def test_spires_fire_agrees_with_inferno(position: Position) -> None:
    # A spire on a forest hex gains an upgrade after each attack; Repeater's second shot counts it.
    problem = spires_fire_problem(position)
    assert problem is None, problem


# Its "if able" (reference N165): a capacity and a supply, where the board gives them.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(limited(spire_gifted(combat_positions(firing=True), "Inferno", Terrain.FOREST)).map(at_spires_fire))
def test_spires_fire_agrees_with_inferno_if_able(position: Position) -> None:
    problem = spires_fire_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(30), deadline=None, report_multiple_bugs=False)
@given(quaking(combat_positions(firing=True)).map(at_spires_fire))
def test_spires_fire_agrees_with_quake(position: Position) -> None:
    # An AI spire on a mountain hex first strips the opposing spire in range with the fewest upgrades.
    problem = spires_fire_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(quaking(combat_positions(firing=True), player=True).map(at_spires_fire))
def test_spires_fire_agrees_with_a_players_quake(position: Position) -> None:
    # A player's spire on a mountain hex may strip any opposing spire in range that has an upgrade.
    problem = spires_fire_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(16), deadline=None, report_multiple_bugs=False)
@given(walloping(combat_positions(firing=True)).map(at_spires_fire))
def test_spires_fire_agrees_with_wallop(position: Position) -> None:
    # A Wallop spire deals 1 to a unit beside it and teleports it instead of its shot: a player's may,
    # an AI's must, at a hero it would shoot at and cannot defeat; the spire flips.
    problem = spires_fire_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(walloped(walloping(combat_positions(firing=True))).map(at_spires_fire))
def test_spires_fire_agrees_with_wallop_allowances(position: Position) -> None:
    # The walloped unit may hold Cumbersome, Peaceful or Sure-Footed: damage first, then the teleport,
    # with the allowance it has then; a hero that took 0 keeps its item and stays.
    problem = spires_fire_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(60), deadline=None, report_multiple_bugs=False)
@given(allied(combat_positions()))
def test_attack_options_agree_among_allies(position: Position) -> None:
    # Harbinger chapter 7: no attack on an ally's chips; no Source from a gate.
    problem = attack_options_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(30), deadline=None, report_multiple_bugs=False)
@given(allied(combat_positions(firing=True)).map(at_spires_fire))
def test_spires_fire_agrees_among_allies(position: Position) -> None:
    # An ally's spire does not fire.
    problem = spires_fire_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(40), deadline=None, report_multiple_bugs=False)
@given(grafted_boards(combat_positions()))
def test_attack_options_agree_under_grafted_snare(position: Position) -> None:
    # Harbinger chapter 2: on the Graft's turn the talents of opposing units beside a Graft unit are
    # ignored; an heirs hero below its health stat recovers 1 instead of levelling up.
    problem = attack_options_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(20), deadline=None, report_multiple_bugs=False)
@given(grafted_boards(combat_positions()))
def test_attack_step_agrees_under_grafted_snare(position: Position) -> None:
    problem = attack_step_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(20), deadline=None, report_multiple_bugs=False)
@given(grafted_boards(combat_positions(firing=True)).map(at_spires_fire))
def test_spires_fire_agrees_under_grafted_snare(position: Position) -> None:
    problem = spires_fire_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(45), deadline=None, report_multiple_bugs=False)
@given(healing(combat_positions()))
def test_attack_options_agree_as_narora_heal_the_graft(position: Position) -> None:
    # Harbinger chapter 8: a naroran unit's attack or retaliation heals a Graft unit.
    problem = attack_options_problem(position)
    assert problem is None, problem


# Harbinger chapter 6 (reference N84): the keel against the Uprising, one or two waygates on the board.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(waygated(combat_positions()))
def test_attack_options_agree_with_waygates(position: Position) -> None:
    problem = attack_options_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(8), deadline=None, report_multiple_bugs=False)
@given(waygated(combat_positions()))
def test_attack_step_agrees_with_waygates(position: Position) -> None:
    problem = attack_step_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(45), deadline=None, report_multiple_bugs=False)
@given(gifted(combat_positions()))
def test_attack_options_agree_with_hit_talents(position: Position) -> None:
    # Leech, Riposte, ...: on half the units each, so that they meet the exchanges they change.
    problem = attack_options_problem(position)
    assert problem is None, problem


# Rally, Dispirit and Invigorate on half the units, minions with a promoted side (reference N95 to N97):
# what the minions within 2 hexes of a unit that defeats, and a group's revealed chip, show, and their
# health, in the whole step.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(rallied(combat_positions()))
def test_attack_step_agrees_with_promoting_talents(position: Position) -> None:
    problem = attack_step_problem(position)
    assert problem is None, problem


# The same boards, one attack's listing: a player's Rally, Dispirit or Invigorate takes no choice there and names whom
# it would turn (reference N140); an AI's promotes and demotes.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(rallied(combat_positions()))
def test_attack_options_agree_with_promoting_talents(position: Position) -> None:
    problem = attack_options_problem(position)
    assert problem is None, problem


# The same in Spires Fire (reference N97, N118): a shot, a splash or a Wallop's 1 that defeats an
# Invigorate chip promotes the revealed one (AI), or one friendly minion the owner picks (a player).
@settings(max_examples=examples(16), deadline=None, report_multiple_bugs=False)
@given(rallied(combat_positions(firing=True)).map(at_spires_fire))
def test_spires_fire_agrees_with_promoting_talents(position: Position) -> None:
    problem = spires_fire_problem(position)
    assert problem is None, problem


# One side the keel, its minions promoted mostly, hex groups by column (reference N205): a promoted keel
# minion whose hex group loses its last keel spire demotes, or returns to its fortress (Colony; N334 a player's), in a
# listing and the whole step.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(keeled(combat_positions()))
def test_attack_options_agree_with_keel_promotion(position: Position) -> None:
    problem = attack_options_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(keeled(combat_positions()))
def test_attack_step_agrees_with_keel_promotion(position: Position) -> None:
    problem = attack_step_problem(position)
    assert problem is None, problem


# Capture on the AI factions' units (reference N206): where an opposing minion they defeat goes, in a
# listing and the whole step.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(capturing(combat_positions()))
def test_attack_options_agree_with_capture(position: Position) -> None:
    problem = attack_options_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(capturing(combat_positions()))
def test_attack_step_agrees_with_capture(position: Position) -> None:
    problem = attack_step_problem(position)
    assert problem is None, problem


# Toxic Fumes on the AI factions' units (reference N235): the chip a defeated one lays on its hex, in a
# listing and the whole step.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(fuming(combat_positions()))
def test_attack_options_agree_with_toxic_fumes(position: Position) -> None:
    problem = attack_options_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(fuming(combat_positions()))
def test_attack_step_agrees_with_toxic_fumes(position: Position) -> None:
    problem = attack_step_problem(position)
    assert problem is None, problem


# Powerhouse on the spires, worms in their factions' barracks (reference N263): a player's spire defeated may
# promote one waiting there, in a listing (offered) and the whole step.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(powering(combat_positions()))
def test_attack_options_agree_with_powerhouse(position: Position) -> None:
    problem = attack_options_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(powering(combat_positions()))
def test_attack_step_agrees_with_powerhouse(position: Position) -> None:
    problem = attack_step_problem(position)
    assert problem is None, problem


# Pollinate on the AI factions' units, one side the keel with one spire at most (reference N207): the
# upgrade a defeated one adds beneath the keel spire's others, in a listing and the whole step.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(pollinating(combat_positions()))
def test_attack_options_agree_with_pollinate(position: Position) -> None:
    problem = attack_options_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(pollinating(combat_positions()))
def test_attack_step_agrees_with_pollinate(position: Position) -> None:
    problem = attack_step_problem(position)
    assert problem is None, problem


# Absorb # on half the spires, one side the Graft (reference N119): where each Graft minion defeated goes
# (underneath a spire near, a player's choice, the AI's to the fewest upgrades), in a listing, the whole
# step and Spires Fire, whose odds count each choice once.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(absorbing(combat_positions()))
def test_attack_options_agree_with_absorb(position: Position) -> None:
    problem = attack_options_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(absorbing(combat_positions(firing=True)).map(at_spires_fire))
def test_spires_fire_agrees_with_absorb(position: Position) -> None:
    problem = spires_fire_problem(position)
    assert problem is None, problem


# The Source upgrade and Prophesy (reference N112, N113) on units and spires: what each faction loses and
# gains once a defeat's rewards are in, in a listing, the whole step and Spires Fire.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(robbing(combat_positions()))
def test_attack_options_agree_with_robbers(position: Position) -> None:
    problem = attack_options_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(8), deadline=None, report_multiple_bugs=False)
@given(robbing(combat_positions()))
def test_attack_step_agrees_with_robbers(position: Position) -> None:
    problem = attack_step_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(8), deadline=None, report_multiple_bugs=False)
@given(robbing(combat_positions(firing=True)).map(at_spires_fire))
def test_spires_fire_agrees_with_robbers(position: Position) -> None:
    problem = spires_fire_problem(position)
    assert problem is None, problem


# Detonate (reference N147): the blast of the units that fall, in a listing, the whole step, Spires Fire
# Poison's attack stat of * (reference N164): attacks and retaliations that halve whatever they deal.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(starred(combat_positions()))
def test_attack_options_agree_with_a_star_attack(position: Position) -> None:
    problem = attack_options_problem(position)
    assert problem is None, problem


# and at the turn's edges (a Self Destruct unit with it blasts too).
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(detonating(combat_positions()))
def test_attack_options_agree_with_detonate(position: Position) -> None:
    problem = attack_options_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(6), deadline=None, report_multiple_bugs=False)
@given(detonating(combat_positions()))
def test_attack_step_agrees_with_detonate(position: Position) -> None:
    problem = attack_step_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(6), deadline=None, report_multiple_bugs=False)
@given(detonating(combat_positions(firing=True)).map(at_spires_fire))
def test_spires_fire_agrees_with_detonate(position: Position) -> None:
    problem = spires_fire_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(6), deadline=None, report_multiple_bugs=False)
@given(detonating(turn_edged(combat_positions())), st.sampled_from(("start", "end")))
def test_turn_edge_agrees_with_detonate(position: Position, moment: str) -> None:
    problem = turn_edge_problem(position, moment)
    assert problem is None, problem


# Entropy (reference N177): the unit an attack leaves at exactly 1 retaliates not, defeats itself and deals 2
# beside it, in a listing and the whole step.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(entropic(combat_positions()))
def test_attack_options_agree_with_entropy(position: Position) -> None:
    problem = attack_options_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(6), deadline=None, report_multiple_bugs=False)
@given(entropic(combat_positions()))
def test_attack_step_agrees_with_entropy(position: Position) -> None:
    problem = attack_step_problem(position)
    assert problem is None, problem


# Assist (reference N178): the units beside a unit of their faction credited with a defeat level up, in a
# listing and the whole step.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(assisting(combat_positions()))
def test_attack_options_agree_with_assist(position: Position) -> None:
    problem = attack_options_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(6), deadline=None, report_multiple_bugs=False)
@given(assisting(combat_positions()))
def test_attack_step_agrees_with_assist(position: Position) -> None:
    problem = attack_step_problem(position)
    assert problem is None, problem


# Morale (reference N156): the morale die's rise for each opposing unit a player's Morale unit defeats, in a
# listing and the whole step.
@settings(max_examples=examples(8), deadline=None, report_multiple_bugs=False)
@given(cheering(combat_positions()))
def test_attack_options_agree_with_morale(position: Position) -> None:
    problem = attack_options_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(4), deadline=None, report_multiple_bugs=False)
@given(cheering(combat_positions()))
def test_attack_step_agrees_with_morale(position: Position) -> None:
    problem = attack_step_problem(position)
    assert problem is None, problem


# 12 boards: with Eager handed out the horizon counts more units, and 20 took 25-44 s of the suite.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(gifted(combat_positions()))
def test_attack_step_agrees_with_hit_talents(position: Position) -> None:
    problem = attack_step_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(45), deadline=None, report_multiple_bugs=False)
@given(gifted(combat_positions(firing=True), SPIRE_HITS))
def test_attack_options_agree_on_spires_with_spire_talents(position: Position) -> None:
    # Assault, Ram, Weak Point on half the units each, every spire with an attack upgrade at least.
    problem = attack_options_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(20), deadline=None, report_multiple_bugs=False)
@given(gifted(combat_positions(firing=True), SPIRE_HITS))
def test_attack_step_agrees_on_spires_with_spire_talents(position: Position) -> None:
    problem = attack_step_problem(position)
    assert problem is None, problem


def _landmarked(position: Position) -> bool:
    """A landmark minion on the board, for a Pacify unit to meet."""
    return any(u.kind is Kind.LANDMARK_MINION and u.at for u in position.units.values())


@settings(max_examples=examples(40), deadline=None, report_multiple_bugs=False)
@given(gifted(combat_positions(), ("Pacify",)).filter(_landmarked))
def test_attack_options_agree_with_pacify(position: Position) -> None:
    # Pacify on half the units, a landmark minion on every board: drawn as every talent is, a unit
    # with it seldom stands beside one.
    problem = attack_options_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(40), deadline=None, report_multiple_bugs=False)
@given(gifted(combat_positions(), UNGROUPED))
def test_attack_options_agree_with_innovative(position: Position) -> None:
    # Innovative and Flying on half the units (reference N74): a grouped flier with it stays a flier.
    problem = attack_options_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(30), deadline=None, report_multiple_bugs=False)
@given(gifted(combat_positions(), ("Relentless",)))
def test_attack_options_agree_with_relentless(position: Position) -> None:
    # Relentless on half the units (reference N78): each outcome of an attack it retaliates carries
    # the exact odds of the totals that lead to it.
    problem = attack_options_problem(position)
    assert problem is None, problem


# Relentless on half the units in the whole attack step (reference N87): each end is told apart by
# its line's rolls and carries their chance.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(gifted(combat_positions(), ("Relentless",)))
def test_attack_step_agrees_with_relentless(position: Position) -> None:
    problem = attack_step_problem(position)
    assert problem is None, problem


# Relentless and Riposte on every opposing unit, the AI's (reference N86): an AI Riposte weighs the
# roll before it is made (ai-spire-odds), and recovering instead rolls nothing.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(relentless_ripostes(combat_positions()))
def test_attack_options_agree_with_relentless_and_riposte(position: Position) -> None:
    problem = attack_options_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(20), deadline=None, report_multiple_bugs=False)
@given(gifted(combat_positions(firing=True), UNGROUPED))
def test_spires_fire_agrees_with_innovative(position: Position) -> None:
    problem = spires_fire_problem(at_spires_fire(position))
    assert problem is None, problem


# Pistoleer on half the units (reference N73): a unit 2 hexes away is a target too, which the AI takes
# only when nothing within its range would take damage; the attacker then flips and gives up an
# upgrade, a player's choice.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(pistoleers(combat_positions()))
def test_attack_options_agree_with_pistoleer(position: Position) -> None:
    problem = attack_options_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(pistoleers(combat_positions(), ai=True))
def test_ai_attack_options_agree_with_pistoleer(position: Position) -> None:
    problem = attack_options_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(8), deadline=None, report_multiple_bugs=False)
@given(pistoleers(combat_positions()))
def test_attack_step_agrees_with_pistoleer(position: Position) -> None:
    problem = attack_step_problem(position)
    assert problem is None, problem


# Cumbersome and Eager on half the units (reference N81): a hero holding the item drops it when a hit
# takes from it, and does not swap with the minion it attacks.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(cumbersome(combat_positions()))
def test_attack_options_agree_with_cumbersome(position: Position) -> None:
    problem = attack_options_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(8), deadline=None, report_multiple_bugs=False)
@given(cumbersome(combat_positions(firing=True)).map(at_spires_fire))
def test_spires_fire_agrees_with_cumbersome(position: Position) -> None:
    problem = spires_fire_problem(position)
    assert problem is None, problem


# Eager on most units, Toxic Secretion and Lahar on half the units and spires (reference N132): a unit
# the swap moves takes their damage where it lands, before the attack's.
@settings(max_examples=examples(16), deadline=None, report_multiple_bugs=False)
@given(swap_harmed(combat_positions()))
def test_attack_options_agree_with_swap_harm(position: Position) -> None:
    problem = attack_options_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(8), deadline=None, report_multiple_bugs=False)
@given(swap_harmed(combat_positions()))
def test_attack_step_agrees_with_swap_harm(position: Position) -> None:
    problem = attack_step_problem(position)
    assert problem is None, problem


# One or two Explosion chips on free hexes (reference N274): a unit the swap moves beside one rolls the
# D6 there, each face with its chance, and the chip goes off.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(exploding(swap_harmed(combat_positions())))
def test_attack_options_agree_with_explosion(position: Position) -> None:
    problem = attack_options_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(8), deadline=None, report_multiple_bugs=False)
@given(exploding(swap_harmed(combat_positions())))
def test_attack_step_agrees_with_explosion(position: Position) -> None:
    problem = attack_step_problem(position)
    assert problem is None, problem


# A unit Wallop teleports beside an Explosion chip rolls the D6 after Wallop's 1 (reference N274).
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(exploding(walloping(combat_positions(firing=True))).map(at_spires_fire))
def test_spires_fire_agrees_where_a_walloped_unit_lands_beside_explosion(position: Position) -> None:
    problem = spires_fire_problem(position)
    assert problem is None, problem


# Survival's AI wording held half the turn's units still (reference N80): an AI unit so held does not
# attack, a player's may.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(held_still(combat_positions()))
def test_attack_step_agrees_with_survival_held(position: Position) -> None:
    problem = attack_step_problem(position)
    assert problem is None, problem


# Ends told apart by the Survival units that attacked and the Recruitable units attacked (reference N316):
# Survival on half the turn's units (held still by the AI wording), Recruitable on the landmark minions.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(recruiting(held_still(combat_positions())))
def test_attack_step_agrees_with_attacks_read_later(position: Position) -> None:
    problem = attack_step_problem(position)
    assert problem is None, problem


# Peaceful on most units, mercs on half the units and spires (reference N79): a hit of no merc's
# deals it 0, the attack's, a splash, Spike, a retaliation, a gate's, a shot; the AI weighs it so.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(peaceful(combat_positions()))
def test_attack_step_agrees_with_peaceful(position: Position) -> None:
    problem = attack_step_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(peaceful(combat_positions(firing=True)))
def test_spires_fire_agrees_with_peaceful(position: Position) -> None:
    problem = spires_fire_problem(at_spires_fire(position))
    assert problem is None, problem


# Hidden Armor on half the units (reference N72): each hit on one of the mover's units is then a
# choice, and on the opponent's in the AI's turn, where the player still discards it.
@settings(max_examples=examples(40), deadline=None, report_multiple_bugs=False)
@given(gifted(combat_positions(), ("Hidden Armor",)))
def test_attack_options_agree_with_hidden_armor(position: Position) -> None:
    problem = attack_options_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(10), deadline=None, report_multiple_bugs=False)
@given(gifted(combat_positions(), ("Hidden Armor",)))
def test_attack_step_agrees_with_hidden_armor(position: Position) -> None:
    problem = attack_step_problem(position)
    assert problem is None, problem


# Hidden Armor in Spires Fire (reference N136): a shot, a splash (every spire splashes) or a volley's hit
# on a player's unit with it may be ignored once the dice show it; Sourcefield beside it pays first.
@settings(max_examples=examples(16), deadline=None, report_multiple_bugs=False)
@given(gifted(combat_positions(firing=True), ("Hidden Armor", "Sourcefield")).map(_splashing).map(at_spires_fire))
def test_spires_fire_agrees_with_hidden_armor(position: Position) -> None:
    problem = spires_fire_problem(position)
    assert problem is None, problem


def _volleying(position: Position) -> Position:
    """Multi-Target and Splash on every spire: a volley's splash (N135) beside each unit it hits."""
    return replace(position, spires=tuple(replace(s, talents=tuple(sorted({*s.talents, "Multi-Target", "Splash"})))
                                          for s in position.spires))


# A volley splashes once, beside every unit it hits (reference N135); a unit both hit may ignore either
# with Hidden Armor, and Sourcefield pays off no volley hit the splash leaves nothing to land on.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(gifted(combat_positions(firing=True), ("Hidden Armor", "Sourcefield")).map(_volleying).map(at_spires_fire))
def test_spires_fire_agrees_with_volley_splash(position: Position) -> None:
    problem = spires_fire_problem(position)
    assert problem is None, problem


# Wallop's 1 on a unit with Hidden Armor (N136) may be ignored; a Cumbersome hero that ignores it stays.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(gifted(walloping(combat_positions(firing=True)), ("Hidden Armor", "Cumbersome")).map(at_spires_fire))
def test_spires_fire_agrees_with_wallop_and_hidden_armor(position: Position) -> None:
    problem = spires_fire_problem(position)
    assert problem is None, problem


# A unit Wallop teleports takes Toxic Secretion's and Lahar's damage where it lands, after Wallop's 1 (N134);
# a Cumbersome hero the 1 made drop its item is teleported, and may fall where it lands.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(secreting(gifted(walloping(combat_positions(firing=True)), ("Cumbersome",))).map(at_spires_fire))
def test_spires_fire_agrees_where_a_walloped_unit_lands(position: Position) -> None:
    problem = spires_fire_problem(position)
    assert problem is None, problem


# A unit Wallop teleports beside a Refresh spire of its side on water recovers 1 once it lands, unless a
# chip hurts it there (N264).
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(refreshing(secreting(walloping(combat_positions(firing=True)))).map(at_spires_fire))
def test_spires_fire_agrees_where_a_walloped_unit_lands_beside_refresh(position: Position) -> None:
    problem = spires_fire_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(45), deadline=None, report_multiple_bugs=False)
@given(winded(combat_positions()))
def test_attack_options_agree_with_lift_and_wind_turbine(position: Position) -> None:
    # One side the shada, each spire with Lift and Wind Turbine by a coin toss (reference N69).
    problem = attack_options_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(winded(combat_positions()))
def test_attack_step_agrees_with_lift_and_wind_turbine(position: Position) -> None:
    problem = attack_step_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(30), deadline=None, report_multiple_bugs=False)
@given(winded(combat_positions(firing=True)).map(at_spires_fire))
def test_spires_fire_agrees_with_lift_and_wind_turbine(position: Position) -> None:
    problem = spires_fire_problem(position)
    assert problem is None, problem


# Elfinkaze riding roosts (reference N82, N83): both chips of a hex are targets, neither is beside the
# other, and a player's elfinkaze attacks at will, an AI's not at all.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(perched(gifted(combat_positions(), ("Splash", "Air Defense"))))
def test_attack_options_agree_with_riders(position: Position) -> None:
    problem = attack_options_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(8), deadline=None, report_multiple_bugs=False)
@given(perched(combat_positions()))
def test_attack_step_agrees_with_riders(position: Position) -> None:
    problem = attack_step_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(8), deadline=None, report_multiple_bugs=False)
@given(perched(combat_positions(firing=True)))
def test_spires_fire_agrees_with_riders(position: Position) -> None:
    problem = spires_fire_problem(at_spires_fire(position))
    assert problem is None, problem


# Self Destruct on half the turn's units, often with an upgrade more, Creep on half its spires
# (reference N105-N108): the start and the end of the turn, where they act one after another, in any
# order (the AI's units when that defeats something; its spires do not creep); at the end, Recruitable
# landmark minions the turn's faction attacked may be taken (N122).
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(turn_edged(combat_positions()), st.sampled_from(("start", "end")))
def test_turn_edge_agrees_with_self_destruct_and_creep(position: Position, moment: str) -> None:
    problem = turn_edge_problem(position, moment)
    assert problem is None, problem


# The Source upgrade and Prophesy (reference N112, N113) at the turn's edges: a Self Destruct blast robs
# for each Prophesy unit it defeats; the Self Destruct unit, fallen first, steals nothing.
@settings(max_examples=examples(8), deadline=None, report_multiple_bugs=False)
@given(robbing(turn_edged(combat_positions())), st.sampled_from(("start", "end")))
def test_turn_edge_agrees_with_robbers(position: Position, moment: str) -> None:
    problem = turn_edge_problem(position, moment)
    assert problem is None, problem


# Fountain (reference N124): revealed Fountain landmarks beside the board's units, on the round's
# first turn or not, with the Self Destruct units and Creep spires of the start of the turn.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(fountained(turn_edged(combat_positions())))
def test_start_of_turn_agrees_with_fountain(position: Position) -> None:
    problem = turn_edge_problem(position, "start")
    assert problem is None, problem


# Spawn (reference N125): larvae in the turn's faction's barracks, Spawn on half its units and spires,
# on its first Onslaught turn or not, with the Self Destruct units and Creep spires of the start of the turn.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(spawning(turn_edged(combat_positions())))
def test_start_of_turn_agrees_with_spawn(position: Position) -> None:
    problem = turn_edge_problem(position, "start")
    assert problem is None, problem


# Invigorate at the turn's edges (reference N97, N118): a Self Destruct unit that holds it, or one its
# blast defeats, promotes as in the attack step.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(rallied(turn_edged(combat_positions())), st.sampled_from(("start", "end")))
def test_turn_edge_agrees_with_promoting_talents(position: Position, moment: str) -> None:
    problem = turn_edge_problem(position, moment)
    assert problem is None, problem


# Harbinger chapter 5 (reference N146): at the start of the narora's turn Bydra Graam calls each
# ungrouped naroran minion on the map with 1 health under her, before their Self Destruct.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(calling(turn_edged(combat_positions())), st.sampled_from(("start", "end")))
def test_turn_edge_agrees_with_bydra_calling_minions(position: Position, moment: str) -> None:
    problem = turn_edge_problem(position, moment)
    assert problem is None, problem


# Harbinger chapter 4 (reference N257): at the end of the last turn of a round, a rotten worms beside Bydra
# Graam is placed under her and deals her its Infest #, after every other act of that end.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(infesting(turn_edged(combat_positions())))
def test_end_of_turn_agrees_with_rotten_worms_infesting_bydra_graam(position: Position) -> None:
    problem = turn_edge_problem(position, "end")
    assert problem is None, problem


# Raze (reference N120): the turn's spires with it attack an opposing spire or gate at the start of the
# turn, each total of their dice an end, with the Self Destruct units and Creep spires of that moment.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(razing(turn_edged(combat_positions(firing=True))))
def test_start_of_turn_agrees_with_raze(position: Position) -> None:
    problem = turn_edge_problem(position, "start")
    assert problem is None, problem


# Translocate (reference N121): the turn's spires with it may swap hexes with another of their faction's
# spires on their hex group or a touching one, with the Self Destruct units and Creep spires of the moment.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(translocating(turn_edged(combat_positions(firing=True))))
def test_start_of_turn_agrees_with_translocate(position: Position) -> None:
    problem = turn_edge_problem(position, "start")
    assert problem is None, problem


# A spire with Roost that Translocate swaps or Creep moves (reference N287) carries its elfinkaze with it.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(translocating(perched(turn_edged(combat_positions(firing=True)))))
def test_start_of_turn_agrees_with_riders_of_moving_spires(position: Position) -> None:
    problem = turn_edge_problem(position, "start")
    assert problem is None, problem


# Unstable (reference N123): on the Uprising's turn in chapter 6 a waygate with it may flip, defeating
# every active unit beside it, with the Self Destruct units of the start of the turn.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(unstabled(waygated(turn_edged(combat_positions()))))
def test_start_of_turn_agrees_with_unstable(position: Position) -> None:
    problem = turn_edge_problem(position, "start")
    assert problem is None, problem


# Recruitable (reference N122): at the end of the turn, each landmark minion the turn's faction attacked
# and no faction controls may be taken, after the Self Destruct units (boards that always hold one).
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(recruiting(turn_edged(combat_positions())))
def test_end_of_turn_agrees_with_recruitable(position: Position) -> None:
    problem = turn_edge_problem(position, "end")
    assert problem is None, problem


# The end of the wave (reference N160): Precious's elfinkaze returned, Neglected's forsaken kept, campfired
# heroes woken, a player's Mining spire kept or returned for 6 Source, Refinery's 2, up to the capacity.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(wave_ended(combat_positions()))
def test_end_of_wave_agrees(position: Position) -> None:
    problem = end_of_wave_problem(position)
    assert problem is None, problem


# Harbinger chapter 6's earthscapes at the end of the wave (reference N186): those with no standing
# waygate, spire or revealed landmark removed, their chips with them, 4 casualties each.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(earthscaped(wave_ended(waygated(combat_positions()))))
def test_end_of_wave_agrees_with_earthscapes(position: Position) -> None:
    problem = end_of_wave_problem(position)
    assert problem is None, problem


# Exploration (reference N150): a player's units may reveal the face-down landmarks beside them, an
# Unstable Rift defeating every unit beside it; the AI's explore nothing.
@settings(max_examples=examples(12), deadline=None, report_multiple_bugs=False)
@given(explored(combat_positions()))
def test_exploration_agrees(position: Position) -> None:
    problem = exploration_problem(position)
    assert problem is None, problem


def test_a_talent_used_against_a_spires_deed_names_no_shot() -> None:
    # A Press Gang payment made as Wallop's 1 defeats a unit answers no shot: the choice is (unit, talent),
    # as the reference gives it, not (unit, talent, "") (found on a generated Spires Fire board).
    moment = _Moment(sdeed=("s1", "h1", "Wallop"), paid_for=[("h1", "Press Gang")])
    assert _talent_choices(moment, {"s1": "narora"}, {"narora"}) == [("h1", "Press Gang")]
