"""The solver agrees with the brute-force reference (tests/reference) on generated boards.

On a disagreement the message prints the position as a position file, and what differs.  The
solver gets a copy, so the position printed is the one generated.  The comparisons themselves are
in tests/comparisons.py, shared with the sweep (bench/sweep.py).

The boards are drawn derandomized, so a normal run is the same every time (tests/profiles.py).
For a random sweep outside CI, with ten times the examples:
``HYPOTHESIS_PROFILE=explore pytest tests/test_agreement.py tests/test_combat_agreement.py``,
or ``python -m bench.sweep`` (bench/README.md).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import replace

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from adjudicator.position.chapter_rules import deploy_from_tunnels, tunnels
from adjudicator.position.model import Controller, Position

from tests.combat_strategies import perched
from tests.profiles import examples, explored_only
from tests.strategies import (
    affordable_step,
    chipped,
    snaring,
    allied,
    acting,
    blazing,
    crowded_lanes,
    digging,
    gateporting,
    building,
    burrowing,
    calling,
    summoning,
    twisting,
    radiating,
    dispersing,
    erupting,
    exploding,
    falling_pushers,
    fumed,
    missiling,
    gusting,
    healing,
    improving,
    motile,
    naroran_lahar,
    passaged,
    positions,
    preyed,
    pushed_ablaze,
    refreshing,
    rifted,
    rigged,
    rocky,
    scattering,
    spire_shooting,
    striking,
    tracking,
    tunneled,
    veined,
)

pytest.importorskip("adjudicator.questions.adjudicate")

from adjudicator.answers.decode import RIFT_HELD  # noqa: E402
from adjudicator.questions.adjudicate import unit_options as solved_options  # noqa: E402
from adjudicator.questions.whole_step import movement_step  # noqa: E402
from tests.comparisons import (  # noqa: E402
    exits_problem,
    faction_options_problem,
    mover_units,
    movement_step_problem,
    rider_options_problem,
    roost_options_problem,
    unit_options_problem,
)
from tests.reference import movement as movement_ref  # noqa: E402


@settings(max_examples=examples(80), deadline=None)
@given(positions(), st.booleans())
def test_unit_options_agree(position: Position, ai: bool) -> None:
    problem = unit_options_problem(position, ai)
    assert problem is None, problem


@settings(max_examples=examples(380), deadline=None)
@given(positions())
def test_faction_options_agree(position: Position) -> None:
    problem = faction_options_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(24), deadline=None)  # 32 took 43-48 s of the suite
@given(positions().filter(affordable_step), st.booleans())
def test_movement_step_agrees(position: Position, ai: bool) -> None:
    # Boards whose order search stays affordable in CI; `python -m bench.sweep` draws every board.
    problem = movement_step_problem(position, ai)
    assert problem is None, problem


@settings(max_examples=examples(60), deadline=None)
@given(crowded_lanes(), st.booleans())
def test_passing_talents_agree(position: Position, ai: bool) -> None:
    # Incorporeal, Breakneck and Crush on boards where something stands in the way.
    problem = unit_options_problem(position, ai)
    assert problem is None, problem


@settings(max_examples=examples(15), deadline=None)
@given(crowded_lanes(), st.booleans())
def test_passing_step_agrees(position: Position, ai: bool) -> None:
    problem = movement_step_problem(position, ai)
    assert problem is None, problem


@settings(max_examples=examples(60), deadline=None)
@given(allied(positions()))
def test_faction_options_agree_among_allies(position: Position) -> None:
    # Harbinger chapter 7: allies feel none of each other's "opposing" talents.
    problem = faction_options_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(30), deadline=None)
@given(allied(crowded_lanes()))
def test_passing_talents_agree_among_allies(position: Position) -> None:
    # Crush and Incorporeal pass opposing units only: an ally's unit stands in the way.
    problem = faction_options_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(12), deadline=None)
@given(healing(positions()).map(naroran_lahar), st.booleans())
def test_unit_options_agree_where_naroran_lahar_heals(position: Position, ai: bool) -> None:
    # Harbinger chapter 8: a naroran unit's damage to a moving Graft unit is health gained instead.
    problem = unit_options_problem(position, ai)
    assert problem is None, problem


@settings(max_examples=examples(12), deadline=None)
@given(veined(positions()), st.booleans())
def test_unit_options_agree_beside_the_source_vein(position: Position, ai: bool) -> None:
    # Harbinger chapter 4: a naroran unit whose move ends beside the Source vein may deal it its health.
    problem = unit_options_problem(position, ai)
    assert problem is None, problem


def _tunnels_decided(position: Position) -> bool:
    """A griege minion waits to deploy and the answer can tell which tunnel access it deploys from (else the
    rule's notice stands: chapter_rules.tunnels)."""
    found = tunnels(position)
    return found is not None and not found.undecided


@settings(max_examples=examples(12), deadline=None)
@given(tunneled(positions()).filter(_tunnels_decided), st.booleans())
def test_unit_options_agree_deploying_from_a_tunnel_access(position: Position, ai: bool) -> None:
    # Harbinger chapter 4: the griege minions deploy from the closest possible tunnel access (N240): the
    # gate's hexes the reference reads from the text, then every unit's options on that board.
    deploying = deploy_from_tunnels(position)
    assert deploying.gates["griege"].beside == movement_ref.tunnel_beside(position)
    problem = unit_options_problem(deploying, ai)
    assert problem is None, problem


@settings(max_examples=examples(12), deadline=None)
@given(tunneled(positions().filter(affordable_step)).filter(_tunnels_decided), st.booleans())
def test_movement_step_agrees_deploying_from_a_tunnel_access(position: Position, ai: bool) -> None:
    # The whole step from the tunnel accesses, the stack leaving top-down as from the gate (N240).
    problem = movement_step_problem(deploy_from_tunnels(position), ai)
    assert problem is None, problem


def _deploying(position: Position) -> bool:
    """A heirs unit waits in its gate to deploy (chapter 2's health chips act on it)."""
    gate = position.gates.get("heirs")
    return gate is not None and bool(gate.stack)


@settings(max_examples=examples(12), deadline=None)
@given(chipped(positions()).filter(_deploying), st.booleans())
def test_unit_options_agree_on_deploy_health_chips(position: Position, ai: bool) -> None:
    # Harbinger chapter 2: a heirs unit leaving its gate may take one of its fortress's health chips (N211).
    problem = unit_options_problem(position, ai)
    assert problem is None, problem


@settings(max_examples=examples(12), deadline=None)
@given(chipped(positions().filter(affordable_step)).filter(_deploying), st.booleans())
def test_movement_step_agrees_on_deploy_health_chips(position: Position, ai: bool) -> None:
    # The chips carried from deploy to deploy, each taken showing as health past the unit's stat (N211).
    problem = movement_step_problem(position, ai)
    assert problem is None, problem


@settings(max_examples=examples(12), deadline=None)
@given(snaring(positions().filter(affordable_step)).filter(lambda p: p.turn.faction == "graft"), st.booleans())
def test_movement_step_agrees_on_grafted_snare_while_moving(position: Position, ai: bool) -> None:
    # Harbinger chapter 2: while a Graft unit moves, the talents of opposing units beside another Graft unit
    # are ignored, read as each move begins (N281).
    problem = movement_step_problem(position, ai)
    assert problem is None, problem


@settings(max_examples=examples(12), deadline=None)
@given(veined(positions().filter(affordable_step)), st.booleans())
def test_movement_step_agrees_beside_the_source_vein(position: Position, ai: bool) -> None:
    # Harbinger chapter 4: the vein's health carried from strike to strike, 3 placed again once its last
    # chip goes while an earthscape is left (N210).
    problem = movement_step_problem(position, ai)
    assert problem is None, problem


@settings(max_examples=examples(12), deadline=None)  # Motility acts on about one board in six: bench.sweep draws more
@given(motile(positions()))
def test_unit_options_agree_where_motility_spends(position: Position) -> None:
    # Motility (AI): the moving heroes hold it, the reservoir given, some hexes rough (tests/strategies.py,
    # motile); asked as the AI, whose wording it is.
    problem = unit_options_problem(position, True)
    assert problem is None, problem


@settings(max_examples=examples(60), deadline=None)
@given(rocky(positions()), st.booleans())
def test_unit_options_agree_among_floating_rocks(position: Position, ai: bool) -> None:
    # Harbinger chapter 1: floating rocks are passed, never ended on, never landed on. The whole step
    # among them is swept by `python -m bench.sweep --checks rocky-movement-step`.
    problem = unit_options_problem(position, ai)
    assert problem is None, problem



# Riftwalk and Naroran Rift: a unit's move through teleporting spires, on boards of their own
# (tests/strategies.py, rifted), few of them: the suite's time is tight.
@settings(max_examples=examples(12), deadline=None)
@given(rifted(positions()), st.booleans())
def test_unit_options_agree_through_rifts(position: Position, ai: bool) -> None:
    problem = unit_options_problem(position, ai)
    assert problem is None, problem


# The whole step through rifts: a later move's teleport onto a chip a unit ended on defeats it. A hero's
# walk through such a chip, or a lone chip a unit stands on, is named by the answer and not compared.
@settings(max_examples=examples(12), deadline=None)
@given(rifted(positions().filter(affordable_step)), st.booleans())
def test_movement_step_agrees_through_rifts(position: Position, ai: bool) -> None:
    got = movement_step(copy.deepcopy(position), ai=ai)
    assume(not any(n.left_out == RIFT_HELD for n in got.notices))
    problem = movement_step_problem(position, ai, got)
    assert problem is None, problem


# Secret Passage (N126): a player's hero through an open passage, landing where an unrevealed landmark on
# a touching hex group stood, on boards of their own (tests/strategies.py, passaged); the whole step
# carries the swap to the later moves.
@settings(max_examples=examples(8), deadline=None)
@given(passaged(positions()))
def test_unit_options_agree_through_secret_passages(position: Position) -> None:
    problem = unit_options_problem(position, False)
    assert problem is None, problem


@settings(max_examples=examples(6), deadline=None)
@given(passaged(positions().filter(affordable_step)))
def test_movement_step_agrees_through_secret_passages(position: Position) -> None:
    problem = movement_step_problem(position, False)
    assert problem is None, problem


def _played(position: Position) -> Position:
    faction = position.turn.faction
    return replace(position, factions={**position.factions, faction: replace(
        position.factions[faction], controller=Controller.PLAYER)})


# Spire Shot: a player's unit may step onto its faction's spires, on boards of their own
# (tests/strategies.py, spire_shooting), few of them: the suite's time is tight.
@settings(max_examples=examples(12), deadline=None)
@given(spire_shooting(positions()), st.booleans())
def test_unit_options_agree_onto_spires(position: Position, ai: bool) -> None:
    problem = unit_options_problem(position, ai)
    assert problem is None, problem


@settings(max_examples=examples(12), deadline=None)
@given(spire_shooting(positions().filter(affordable_step)).map(_played))
def test_movement_step_agrees_onto_spires(position: Position) -> None:
    # A player's: a unit that ends on a spire stands there for the later moves (the AI's never steps on).
    problem = movement_step_problem(position, False)
    assert problem is None, problem


# Rigging: a Horizon's Wrath hero may step onto its faction's Rigging spire, to its fortress, the spire
# to its barracks, on boards of their own (tests/strategies.py, rigged), few of them: the suite's time
# is tight.
@settings(max_examples=examples(8), deadline=None)
@given(rigged(positions()), st.booleans())
def test_unit_options_agree_onto_rigging(position: Position, ai: bool) -> None:
    problem = unit_options_problem(position, ai) or exits_problem(position, ai)
    assert problem is None, problem


@settings(max_examples=examples(6), deadline=None)
@given(rigged(positions().filter(affordable_step)).map(_played))
def test_movement_step_agrees_onto_rigging(position: Position) -> None:
    # The spire off the board for the moves after the hero's (the AI's heroes never use it).
    problem = movement_step_problem(position, False)
    assert problem is None, problem


# Improve: an upgrade a unit's move adds to a spire of its faction beside its end, on boards of their own
# (tests/strategies.py, improving), few of them: the suite's time is tight.
@settings(max_examples=examples(8), deadline=None)
@given(improving(positions()), st.booleans())
def test_unit_options_agree_improving_spires(position: Position, ai: bool) -> None:
    problem = unit_options_problem(position, ai)
    assert problem is None, problem


@settings(max_examples=examples(6), deadline=None)
@given(improving(positions().filter(affordable_step)), st.booleans())
def test_movement_step_agrees_improving_spires(position: Position, ai: bool) -> None:
    # The spires' upgrades after, on each final board.
    problem = movement_step_problem(position, ai)
    assert problem is None, problem


# Exposure: toxic fumes chips entered as path hexes, each hurting a unit moving onto it, on boards of
# their own (tests/strategies.py, fumed), few of them: the suite's time is tight.
@settings(max_examples=examples(12), deadline=None)
@given(fumed(positions()), st.booleans())
def test_unit_options_agree_over_toxic_fumes(position: Position, ai: bool) -> None:
    problem = unit_options_problem(position, ai)
    assert problem is None, problem


@settings(max_examples=examples(12), deadline=None)
@given(fumed(positions().filter(affordable_step)), st.booleans())
def test_movement_step_agrees_over_toxic_fumes(position: Position, ai: bool) -> None:
    # Each move's damage applied before the next; a unit may end on a chip, where later moves find it.
    problem = movement_step_problem(position, ai)
    assert problem is None, problem


# Explosion: chips whose neighbours end a unit's move, which rolls their D6s there (tests/strategies.py,
# exploding; reference/movement.py, N347), where the solver names no part of it left out; few boards.
def _explosion_counted(position: Position, ai: bool) -> bool:
    return not any(n.talent == "Explosion" for u in mover_units(position)
                   for n in solved_options(copy.deepcopy(position), u, ai=ai).notices)


@settings(max_examples=examples(12), deadline=None)
@given(exploding(positions()), st.booleans())
def test_unit_options_agree_beside_explosion_chips(position: Position, ai: bool) -> None:
    assume(_explosion_counted(position, ai))
    problem = unit_options_problem(position, ai)
    assert problem is None, problem


@settings(max_examples=examples(12), deadline=None)
@given(exploding(positions().filter(affordable_step)), st.booleans())
def test_movement_step_agrees_beside_explosion_chips(position: Position, ai: bool) -> None:
    # Each chip set off is gone for the later moves of the step.
    assume(not any(n.talent == "Explosion" for n in movement_step(copy.deepcopy(position), ai=ai).notices))
    problem = movement_step_problem(position, ai)
    assert problem is None, problem


# A minion that displaces a hero on its way and is then defeated further on (Lahar): the hero stays
# displaced (tests/strategies.py, falling_pushers; reference/movement.py, N265), few boards: the suite's time is tight.
@settings(max_examples=examples(12), deadline=None)
@given(falling_pushers(positions()), st.booleans())
def test_unit_options_agree_where_a_pushing_minion_falls(position: Position, ai: bool) -> None:
    problem = unit_options_problem(position, ai)
    assert problem is None, problem


@settings(max_examples=examples(8), deadline=None)
@given(falling_pushers(positions().filter(affordable_step)), st.booleans())
def test_movement_step_agrees_where_a_pushing_minion_falls(position: Position, ai: bool) -> None:
    # The hero a fallen minion displaced stands where it landed for the later moves.
    problem = movement_step_problem(position, ai)
    assert problem is None, problem


# Blaze on units a minion's move may displace, beside forest (tests/strategies.py, pushed_ablaze;
# reference/movement.py, N266): what such a unit deals where it lands, few boards: the suite's time is tight.
@settings(max_examples=examples(12), deadline=None)
@given(pushed_ablaze(positions()), st.booleans())
def test_unit_options_agree_where_a_displaced_unit_blazes(position: Position, ai: bool) -> None:
    problem = unit_options_problem(position, ai)
    assert problem is None, problem


@settings(max_examples=examples(8), deadline=None)
@given(pushed_ablaze(positions().filter(affordable_step)), st.booleans())
def test_movement_step_agrees_where_a_displaced_unit_blazes(position: Position, ai: bool) -> None:
    problem = movement_step_problem(position, ai)
    assert problem is None, problem


# Impale and Source Aura: what a unit deals the chips beside it once its move ends, on boards of
# their own (tests/strategies.py, striking), few of them: the suite's time is tight.
@settings(max_examples=examples(12), deadline=None)
@given(striking(positions()), st.booleans())
def test_unit_options_agree_on_what_a_move_strikes(position: Position, ai: bool) -> None:
    problem = unit_options_problem(position, ai)
    assert problem is None, problem


@settings(max_examples=examples(12), deadline=None)
@given(striking(positions()))
def test_faction_options_agree_on_what_a_move_strikes(position: Position) -> None:
    problem = faction_options_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(12), deadline=None)
@given(striking(positions().filter(affordable_step)), st.booleans())
def test_movement_step_agrees_on_what_moves_strike(position: Position, ai: bool) -> None:
    # Each move's damage applied before the next: a unit it defeats leaves its hex to later moves.
    problem = movement_step_problem(position, ai)
    assert problem is None, problem


# Refresh: a wounded shada unit recovers 1, once in its move, beside a water spire, on boards of
# their own (tests/strategies.py, refreshing), few of them.
@settings(max_examples=examples(12), deadline=None)
@given(refreshing(positions()), st.booleans())
def test_unit_options_agree_where_refresh_heals(position: Position, ai: bool) -> None:
    problem = unit_options_problem(position, ai)
    assert problem is None, problem


@settings(max_examples=examples(12), deadline=None)
@given(refreshing(positions().filter(affordable_step)), st.booleans())
def test_movement_step_agrees_where_refresh_heals(position: Position, ai: bool) -> None:
    # Each move's recovery applied before the next, a displaced unit's where it lands.
    problem = movement_step_problem(position, ai)
    assert problem is None, problem


# Refresh, a player's (the shada sheet's Water Tower: "your units"): the shada played by a player and
# asked as one, each board with a move the reference heals on.
def _player_refreshes(position: Position) -> bool:
    return position.factions["shada"].controller is Controller.PLAYER and any(
        m.damage < 0 for u in mover_units(position) for m in movement_ref.unit_options(position, u, False).outcomes)


@settings(max_examples=examples(12), deadline=None)
@given(refreshing(positions()).filter(_player_refreshes))
def test_unit_options_agree_where_a_players_refresh_heals(position: Position) -> None:
    problem = unit_options_problem(position, False)
    assert problem is None, problem


# Disperse (AI): where a minion places itself once its move ends, and what it deals the minion beside
# it and itself, on boards of their own (tests/strategies.py, dispersing), few of them, each with a
# move the reference says Disperse acts on (about one drawn board in five).
def _disperses(position: Position, ai: bool = True) -> bool:
    return any(m.placed for u in mover_units(position) for m in movement_ref.unit_options(position, u, ai).outcomes)


@settings(max_examples=examples(12), deadline=None)
@given(dispersing(positions()).filter(_disperses))
def test_unit_options_agree_on_where_disperse_places(position: Position) -> None:
    problem = unit_options_problem(position, True)
    assert problem is None, problem


@settings(max_examples=examples(12), deadline=None)
@given(dispersing(positions()).filter(_disperses))
def test_faction_options_agree_on_where_disperse_places(position: Position) -> None:
    problem = faction_options_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(12), deadline=None)
@given(dispersing(positions().filter(affordable_step)).filter(_disperses))
def test_movement_step_agrees_on_where_disperse_places(position: Position) -> None:
    # Each placement made before the next move: the hex it takes is held for the later moves.
    problem = movement_step_problem(position, True)
    assert problem is None, problem


# Disperse, a player's (the shada sheet, Ash: "it may place itself"): beside such a minion already or
# not, and not placed too; the dispersing boards played by a player, each with a placement.
@settings(max_examples=examples(12), deadline=None)
@given(dispersing(positions()).map(_played).filter(lambda p: _disperses(p, False)))
def test_unit_options_agree_on_where_a_players_disperse_places(position: Position) -> None:
    problem = unit_options_problem(position, False)
    assert problem is None, problem


# Eruption (N129), the AI's and a player's: what a minion deals once its move ends, and its return to the
# barracks, on boards of their own (tests/strategies.py, erupting), each with a move the reference says it
# erupts in (the AI's conditions met; a player's with 3 Source).
def _erupts(position: Position, ai: bool) -> bool:
    return any(m.exit == "barracks" for u in mover_units(position)
               for m in movement_ref.unit_options(position, u, ai).outcomes)


def _either_side(draw: Callable[[st.SearchStrategy[Position]], st.SearchStrategy[Position]],
                 affordable: bool = False) -> st.SearchStrategy[tuple[Position, bool]]:
    """Boards ``draw`` makes of the generated ones (those whose whole step is affordable, if ``affordable``),
    played by a player or the AI, each with a move the reference says the talent acts in."""
    boards = positions().filter(affordable_step) if affordable else positions()
    return st.booleans().flatmap(lambda ai: st.tuples(draw(boards).filter(lambda p: _acts(p, ai)), st.just(ai)))


def _erupting(affordable: bool = False) -> st.SearchStrategy[tuple[Position, bool]]:
    boards = positions().filter(affordable_step) if affordable else positions()
    return st.booleans().flatmap(lambda ai: st.tuples(
        erupting(boards).map(lambda p: p if ai else _played(p)).filter(lambda p: _erupts(p, ai)), st.just(ai)))


@settings(max_examples=examples(12), deadline=None)
@given(_erupting())
def test_unit_options_agree_on_what_eruption_deals(drawn: tuple[Position, bool]) -> None:
    position, ai = drawn
    problem = unit_options_problem(position, ai) or exits_problem(position, ai)
    assert problem is None, problem


@settings(max_examples=examples(12), deadline=None)
@given(_erupting(affordable=True))
def test_movement_step_agrees_on_what_eruption_deals(drawn: tuple[Position, bool]) -> None:
    # An erupted minion is off the board, and a unit it defeats leaves its hex, for the later moves.
    position, ai = drawn
    problem = movement_step_problem(position, ai)
    assert problem is None, problem


# Dig (N131), a player's: a Tunnel Access chip placed beside the unit before its move (made then on the
# board with the chip) or after it, on boards of their own (tests/strategies.py, digging), each with a
# move the reference says it digs in.
@settings(max_examples=examples(12), deadline=None)
@given(digging(positions()).filter(lambda p: _acts(p, False)))
def test_unit_options_agree_on_where_dig_places(position: Position) -> None:
    problem = unit_options_problem(position, False)
    assert problem is None, problem


@settings(max_examples=examples(12), deadline=None)
@given(digging(positions().filter(affordable_step)).filter(lambda p: _acts(p, False)))
def test_movement_step_agrees_on_where_dig_places(position: Position) -> None:
    # A chip placed stands in the way of the later moves, and each side's final board shows where it lies (N144).
    problem = movement_step_problem(position, False)
    assert problem is None, problem


# Portable Gateport (N195), a player's hero: the item dropped on a free non-path hex beside it (then in the
# way) or picked up from beside it, before its move or after it; on boards of their own (tests/strategies.py,
# gateporting), each with a move the reference says it acts in.
@settings(max_examples=examples(12), deadline=None)
@given(gateporting(positions()).filter(lambda p: _acts(p, False)))
def test_unit_options_agree_on_portable_gateport(position: Position) -> None:
    problem = unit_options_problem(position, False)
    assert problem is None, problem


@settings(max_examples=examples(6), deadline=None)
@given(gateporting(positions().filter(affordable_step)).filter(lambda p: _acts(p, False)))
def test_movement_step_agrees_on_portable_gateport(position: Position) -> None:
    problem = movement_step_problem(position, False)
    assert problem is None, problem


# Builder (N225): a dispatch platform built on a free Source well beside the unit, a dispatch platform made a
# siege tower or any spire upgraded (a player's), before its move or after it; then the unit to its barracks (no
# move after an act before it) or demoted; a player's may, the AI's must build. On boards of their own
# (tests/strategies.py, building), each with a move the reference says it acts in.
@settings(max_examples=examples(12), deadline=None)
@given(_either_side(building))
def test_unit_options_agree_on_builder(drawn: tuple[Position, bool]) -> None:
    position, ai = drawn
    problem = unit_options_problem(position, ai)
    assert problem is None, problem


@settings(max_examples=examples(6), deadline=None)
@given(_either_side(building, affordable=True))
def test_movement_step_agrees_on_builder(drawn: tuple[Position, bool]) -> None:
    # A spire built stands in the way of the later moves, a unit sent to its barracks moves no more.
    position, ai = drawn
    problem = movement_step_problem(position, ai)
    assert problem is None, problem


# Matter Distortion (N193), a player's: the act on its own hex before its move (made then with its promoted
# side, some boards giving one of more movement) or after it, then the promotion.
@settings(max_examples=examples(12), deadline=None)
@given(acting(positions(), "Matter Distortion").filter(lambda p: _acts(p, False)))
def test_unit_options_agree_on_matter_distortion(position: Position) -> None:
    problem = unit_options_problem(position, False)
    assert problem is None, problem


# Burrow (N192): once a move ends, the unit placed on a free non-path hex beside it with no health, a player's
# ungrouped unit's choice, a wounded AI unit's obligation; on boards of their own (tests/strategies.py,
# burrowing), each with a move the reference says it burrows in.
@settings(max_examples=examples(8), deadline=None)
@given(_either_side(burrowing))
def test_unit_options_agree_on_where_burrow_places(drawn: tuple[Position, bool]) -> None:
    position, ai = drawn
    problem = unit_options_problem(position, ai)
    assert problem is None, problem


@settings(max_examples=examples(4), deadline=None)
@given(_either_side(burrowing, affordable=True))
def test_movement_step_agrees_on_where_burrow_places(drawn: tuple[Position, bool]) -> None:
    # A burrowed unit stands on its new hex, with no health, for the later moves.
    position, ai = drawn
    problem = movement_step_problem(position, ai)
    assert problem is None, problem


# Call Minion (N127), a player's: another minion of its faction teleported beside the unit before its move
# (made then on the board with the minion moved) or after it, on boards of their own (tests/strategies.py,
# calling), each with a move the reference says it calls in; a small fixed sample (a caller reads the whole
# board, and the whole step's search of a board with several callers is long).
@settings(max_examples=examples(4), deadline=None)
@given(calling(positions()).filter(lambda p: _acts(p, False)))
def test_unit_options_agree_on_where_call_minion_teleports(position: Position) -> None:
    problem = unit_options_problem(position, False)
    assert problem is None, problem


# Reference N354: a roost carrying an elfinkaze, and the elfinkaze riding it, are each a minion to call (FAQ-05,
# FAQ-08): the same boards with riders on some roosts (tests/combat_strategies.py, perched), none with a floating
# rock (the dice of a rider its roost carries over one are left out: Roost's notice), no caller carrying a rider
# (where its route defeats the rider, the solver lists no call after the move and the reference does: a
# disagreement older than N354, left to its own look); few of them.
@settings(max_examples=examples(3), deadline=None)
@given(perched(calling(positions())).filter(
    lambda p: _acts(p, False) and not any(h.rock for h in p.hexes.values())
    and not any(p.units[u.rides].talents.count("Call Minion") for u in p.units.values() if u.rides in p.units)))
def test_unit_options_agree_on_calling_roosts_and_riders(position: Position) -> None:
    problem = unit_options_problem(position, False)
    assert problem is None, problem


@explored_only("two boards took 97 s of the suite")
@settings(max_examples=examples(2), deadline=None)
@given(calling(positions().filter(affordable_step)).filter(lambda p: _acts(p, False)))
def test_movement_step_agrees_on_where_call_minion_teleports(position: Position) -> None:
    # A minion called before it has moved moves later from where it landed.
    problem = movement_step_problem(position, False)
    assert problem is None, problem


# Summon Hero (N128, N353), a revealed landmark's: a hero beside it teleports another hero (any faction's) beside
# it, before the hero's move or after it, on boards of their own (tests/strategies.py, summoning); a small
# fixed sample.
@settings(max_examples=examples(6), deadline=None)
@given(summoning(positions()).filter(lambda p: _acts(p, False)))
def test_unit_options_agree_on_where_summon_hero_teleports(position: Position) -> None:
    problem = unit_options_problem(position, False)
    assert problem is None, problem


# Radiate (N111), a player's: each set of transfers to the units beside it before its move (made then on
# the board they leave), on boards of their own (tests/strategies.py, radiating).
@settings(max_examples=examples(12), deadline=None)
@given(radiating(positions()).filter(lambda p: _acts(p, False)))
def test_unit_options_agree_on_what_radiate_gives(position: Position) -> None:
    problem = unit_options_problem(position, False)
    assert problem is None, problem


@settings(max_examples=examples(12), deadline=None)
@given(radiating(positions().filter(affordable_step)).filter(lambda p: _acts(p, False)))
def test_movement_step_agrees_on_what_radiate_gives(position: Position) -> None:
    # Health given shows on the final boards; an upgrade given does not, on either side (a notice).
    problem = movement_step_problem(position, False)
    assert problem is None, problem


# Twister (N110), a player's: a landmark within 3 hexes of the end placed on a free non-path hex beside it,
# on boards of their own (tests/strategies.py, twisting), each with a move the reference says it acts in.
@settings(max_examples=examples(12), deadline=None)
@given(twisting(positions()).filter(lambda p: _acts(p, False)))
def test_unit_options_agree_on_where_twister_places(position: Position) -> None:
    problem = unit_options_problem(position, False)
    assert problem is None, problem


@settings(max_examples=examples(12), deadline=None)
@given(twisting(positions().filter(affordable_step)).filter(lambda p: _acts(p, False)))
def test_movement_step_agrees_on_where_twister_places(position: Position) -> None:
    # A landmark moved stands in the way of the later moves; neither side's final board shows its hex (a notice).
    problem = movement_step_problem(position, False)
    assert problem is None, problem


# Two acting talents on one unit (Dig and Yrtel's Will): each may act before the move, in either order, the
# move then made on the board both leave (adjudicate.acting).
@settings(max_examples=examples(6), deadline=None)
@given(digging(acting(positions(), "Yrtel's Will")).filter(lambda p: _acts(p, False)))
def test_unit_options_agree_with_two_acting_talents(position: Position) -> None:
    problem = unit_options_problem(position, False)
    assert problem is None, problem


# Magic-Like Missile (N133): 1 damage to a unit up to 3 hexes away, before a move (then made on the board
# so changed) or after it, a player's or the AI's, on boards of their own (tests/strategies.py, missiling),
# each with a move the reference says the talent acts in.
@settings(max_examples=examples(8), deadline=None)
@given(_either_side(missiling))
def test_unit_options_agree_on_what_magic_like_missile_deals(drawn: tuple[Position, bool]) -> None:
    position, ai = drawn
    problem = unit_options_problem(position, ai)
    assert problem is None, problem


@settings(max_examples=examples(8), deadline=None)
@given(_either_side(missiling, affordable=True))
def test_movement_step_agrees_on_what_magic_like_missile_deals(drawn: tuple[Position, bool]) -> None:
    # A unit a missile defeats before a move no longer stands in the way of that move and the later ones.
    position, ai = drawn
    problem = movement_step_problem(position, ai)
    assert problem is None, problem


# Consume, Yrtel's Way, Yrtel's Will: a chip acted on before a move (which is then made on the board that act
# leaves) or after it, on boards of their own (tests/strategies.py, acting), few of them, each with a
# move the reference says the talent acts in, player or AI.
def _acts(position: Position, ai: bool) -> bool:
    return any(m.acts for u in mover_units(position) for m in movement_ref.unit_options(position, u, ai).outcomes)


def _acting(talent: str, affordable: bool = False) -> st.SearchStrategy[tuple[Position, bool]]:
    return _either_side(lambda boards: acting(boards, talent), affordable)


# Quantum Dark (N194): a spire beside the unit replaced, the unit defeated, instead of its move or after it; a
# player's may, the AI's must.
@settings(max_examples=examples(12), deadline=None)
@given(_acting("Quantum Dark"))
def test_unit_options_agree_on_quantum_dark(drawn: tuple[Position, bool]) -> None:
    position, ai = drawn
    problem = unit_options_problem(position, ai)
    assert problem is None, problem


@settings(max_examples=examples(6), deadline=None)
@given(_acting("Quantum Dark", affordable=True))
def test_movement_step_agrees_on_quantum_dark(drawn: tuple[Position, bool]) -> None:
    # A replaced spire is the unit's faction's for the later moves; the boards say so (control).
    position, ai = drawn
    problem = movement_step_problem(position, ai)
    assert problem is None, problem


@settings(max_examples=examples(12), deadline=None)
@given(_acting("Consume"))
def test_unit_options_agree_on_what_consume_does(drawn: tuple[Position, bool]) -> None:
    position, ai = drawn
    problem = unit_options_problem(position, ai)
    assert problem is None, problem


@settings(max_examples=examples(12), deadline=None)
@given(_acting("Consume", affordable=True))
def test_movement_step_agrees_on_what_consume_does(drawn: tuple[Position, bool]) -> None:
    # A hero consumed before a move no longer stands in the way of that move and the later ones.
    position, ai = drawn
    problem = movement_step_problem(position, ai)
    assert problem is None, problem


# Stasis and Possess (N191): a unit placed on top of, underneath, an ungrouped opposing minion beside it,
# a player's after its move or a stay, the AI's instead of moving where one is beside it, else after;
# on boards of their own (tests/strategies.py, acting), each with a move the reference says it acts in.
@settings(max_examples=examples(8), deadline=None)
@given(st.sampled_from(("Stasis", "Possess")).flatmap(_acting))
def test_unit_options_agree_on_what_stasis_and_possess_hold(drawn: tuple[Position, bool]) -> None:
    position, ai = drawn
    problem = unit_options_problem(position, ai)
    assert problem is None, problem


# Reference N354: a roost carrying an elfinkaze, and the elfinkaze riding it, are each a minion to hold (FAQ-05,
# FAQ-08): the same boards with riders on some roosts (tests/combat_strategies.py, perched), none with a floating
# rock, none on a roost of the moving faction (where its route displaces units into damage, what the solver and
# the reference carry its riders through differs on some boards: a disagreement older than N354, left to its
# own look); few of them.
@settings(max_examples=examples(4), deadline=None)
@given(st.sampled_from(("Stasis", "Possess")).flatmap(
    lambda t: _either_side(lambda boards: perched(acting(boards, t)).filter(
        lambda p: not any(h.rock for h in p.hexes.values()) and not any(
            u.rides in p.units and p.units[u.rides].faction == p.turn.faction for u in p.units.values())))))
def test_unit_options_agree_on_holding_roosts_and_riders(drawn: tuple[Position, bool]) -> None:
    position, ai = drawn
    problem = unit_options_problem(position, ai)
    assert problem is None, problem


@settings(max_examples=examples(4), deadline=None)
@given(st.sampled_from(("Stasis", "Possess")).flatmap(lambda t: _acting(t, affordable=True)))
def test_movement_step_agrees_on_what_stasis_and_possess_hold(drawn: tuple[Position, bool]) -> None:
    # The unit then stands on the minion's hex, out of its group, for the later moves.
    position, ai = drawn
    problem = movement_step_problem(position, ai)
    assert problem is None, problem


@settings(max_examples=examples(12), deadline=None)
@given(_acting("Yrtel's Way"))
def test_unit_options_agree_on_what_yrtels_way_does(drawn: tuple[Position, bool]) -> None:
    position, ai = drawn
    problem = unit_options_problem(position, ai)
    assert problem is None, problem


@settings(max_examples=examples(12), deadline=None)
@given(_acting("Yrtel's Way", affordable=True))
def test_movement_step_agrees_on_what_yrtels_way_does(drawn: tuple[Position, bool]) -> None:
    # A minion returned to its barracks before a move no longer stands in the way of the later moves.
    position, ai = drawn
    problem = movement_step_problem(position, ai)
    assert problem is None, problem


# Yrtel's Will: a spire stripped before or after a move, the unit flipped (a board of its own in the
# whole step though every chip stands where it would without the act).
@settings(max_examples=examples(12), deadline=None)
@given(_acting("Yrtel's Will"))
def test_unit_options_agree_on_what_yrtels_will_does(drawn: tuple[Position, bool]) -> None:
    position, ai = drawn
    problem = unit_options_problem(position, ai)
    assert problem is None, problem


@settings(max_examples=examples(12), deadline=None)
@given(_acting("Yrtel's Will", affordable=True))
def test_movement_step_agrees_on_what_yrtels_will_does(drawn: tuple[Position, bool]) -> None:
    position, ai = drawn
    problem = movement_step_problem(position, ai)
    assert problem is None, problem


# Scatter: a unit leaves its group for a hex beside it before its move (then made from there) or after
# it, the group's next chip revealed as a unit of its own, on boards of their own (tests/strategies.py,
# scattering), few of them, each with a move the reference says the talent acts in, player or AI.
def _scattering(affordable: bool = False) -> st.SearchStrategy[tuple[Position, bool]]:
    boards = positions().filter(_small_step) if affordable else positions()
    return st.booleans().flatmap(lambda ai: st.tuples(scattering(boards).filter(lambda p: _acts(p, ai)), st.just(ai)))


def _small_step(position: Position) -> bool:
    """Each hex a unit may leave its group for opens a tree of its own, the revealed unit moving too: at
    most 2 units of the moving faction to move, with at most 4 movement between them."""
    moving = [u for u in position.units.values() if u.faction == position.turn.faction and not u.done.moved]
    return len(moving) <= 2 and sum(u.stats.movement for u in moving) <= 4


@settings(max_examples=examples(12), deadline=None)
@given(_scattering())
def test_unit_options_agree_on_what_scatter_does(drawn: tuple[Position, bool]) -> None:
    position, ai = drawn
    problem = unit_options_problem(position, ai)
    assert problem is None, problem


@settings(max_examples=examples(8), deadline=None)
@given(_scattering(affordable=True))
def test_movement_step_agrees_on_what_scatter_does(drawn: tuple[Position, bool]) -> None:
    # The unit a group revealed before the group's move moves in the step too, from where the group stood.
    position, ai = drawn
    problem = movement_step_problem(position, ai)
    assert problem is None, problem


# Tracker: a player's unit teleported, instead of moving, up to its # hexes beside a landmark minion, on
# boards of their own (tests/strategies.py, tracking), few of them, each where the reference teleports one.
# Its unit's options only: the whole step over such boards costs minutes (the teleport's position
# checks the step).
@settings(max_examples=examples(12), deadline=None)
@given(tracking(positions()).filter(lambda p: _acts(p, False)))
def test_unit_options_agree_on_what_tracker_does(position: Position) -> None:
    problem = unit_options_problem(position, False)
    assert problem is None, problem


# Blaze (AI): a route onto a forest hex where one is, and 1 damage to an opposing unit beside the first
# such hex, on boards of their own (tests/strategies.py, blazing), few of them, each with a Blaze
# minion whose move the talent changes by the reference: a route left, or damage dealt.
def _blazes(position: Position, ai: bool = True) -> bool:
    for uid in mover_units(position):
        unit = position.units[uid]
        if "Blaze" not in unit.talents:
            continue
        plain = replace(unit, talents=tuple(t for t in unit.talents if t != "Blaze"))
        without = replace(position, units={**position.units, uid: plain})
        if movement_ref.unit_options(position, uid, ai) != movement_ref.unit_options(without, uid, ai):
            return True
    return False


@settings(max_examples=examples(12), deadline=None)
@given(blazing(positions()).filter(_blazes))
def test_unit_options_agree_where_blaze_acts(position: Position) -> None:
    problem = unit_options_problem(position, True)
    assert problem is None, problem


@settings(max_examples=examples(12), deadline=None)
@given(blazing(positions().filter(affordable_step)).filter(_blazes))
def test_movement_step_agrees_where_blaze_acts(position: Position) -> None:
    # Each move's damage applied before the next: a unit it defeats leaves its hex to later moves.
    problem = movement_step_problem(position, True)
    assert problem is None, problem


# N291: a Blaze move defeats the moving faction's marked unit, which is then no mark for the moves after
# it (tests/strategies.py, preyed), few of them.
def _fells_mark(position: Position) -> bool:
    mark = position.factions[position.turn.faction].mark.unit
    return any(t.chip == mark and t.defeated for uid in mover_units(position) if "Blaze" in position.units[uid].talents
               for o in movement_ref.unit_options(position, uid, True).outcomes for t in o.struck)


@settings(max_examples=examples(12), deadline=None)
@given(blazing(preyed(positions())).filter(affordable_step).filter(_fells_mark))
def test_movement_step_agrees_where_blaze_defeats_the_mark(position: Position) -> None:
    problem = movement_step_problem(position, True)
    assert problem is None, problem


# Gust, a player's (the shada sheet, Wind: "you may increase its movement stat by 1"): the moves with
# either stat, on boards of their own (tests/strategies.py, gusting), few of them.
@settings(max_examples=examples(12), deadline=None)
@given(gusting(positions()))
def test_unit_options_agree_where_a_players_gust_is_a_choice(position: Position) -> None:
    problem = unit_options_problem(position, False)
    assert problem is None, problem


@settings(max_examples=examples(12), deadline=None)
@given(gusting(positions()))
def test_faction_options_agree_where_a_players_gust_is_a_choice(position: Position) -> None:
    problem = faction_options_problem(position)
    assert problem is None, problem


@settings(max_examples=examples(6), deadline=None)  # 12 took 20 s; the one solve's own check: test_whole_step
@given(gusting(positions().filter(affordable_step)))
def test_movement_step_agrees_where_a_players_gust_is_a_choice(position: Position) -> None:
    # Each unit's stat chosen as it moves: the boards of every choice (the one solve asks once for each).
    problem = movement_step_problem(position, False)
    assert problem is None, problem


# Blaze, a player's (the shada sheet, Fire): any unit beside any forest hex its route enters, or none, no
# route preferred; the blazing boards played by a player, each with a move the talent changes. Not the
# whole step: with each unit's choice its boards multiply (12 boards took 9 minutes); positions cover it.
@settings(max_examples=examples(12), deadline=None)
@given(blazing(positions()).map(_played).filter(lambda p: _blazes(p, False)))
def test_unit_options_agree_where_a_players_blaze_acts(position: Position) -> None:
    problem = unit_options_problem(position, False)
    assert problem is None, problem


# Roost Roam: an elfinkaze riding its roost moves like a hero (FAQ-11), the AI's to the ends its own wording
# names: the riders' options, on boards of their own (tests/combat_strategies.py, perched: riders on the turn's
# units and spires), few of them: the suite's time is tight.
@settings(max_examples=examples(12), deadline=None)
@given(perched(positions()), st.booleans())
def test_unit_options_agree_for_riding_elfinkazes(position: Position, ai: bool) -> None:
    problem = rider_options_problem(position, ai)
    assert problem is None, problem


# Glidebomb and Save: riders showing either side, their strikes and defeat, or their act, after a move or
# instead of it (a stay), player and AI.
@settings(max_examples=examples(12), deadline=None)
@given(perched(positions(), sides=True), st.booleans())
def test_unit_options_agree_for_gliding_and_saving_elfinkazes(position: Position, ai: bool) -> None:
    problem = rider_options_problem(position, ai)
    assert problem is None, problem


# FAQ-07 (reference N152): a roost's route hurts the elfinkaze it carries as moving there would: the
# roosts' options, on boards with toxic fumes chips besides the common pools' Toxic Secretion and
# Lahar; few of them.
@settings(max_examples=examples(8), deadline=None)
@given(perched(fumed(positions())), st.booleans())
def test_unit_options_agree_for_roosts_carrying_elfinkazes(position: Position, ai: bool) -> None:
    problem = roost_options_problem(position, ai)
    assert problem is None, problem


# FAQ-07 (reference N303): a roost a move displaces lands with its rider, which takes what hurts it there: every
# unit's options, on the same boards; few of them.
@settings(max_examples=examples(8), deadline=None)
@given(perched(fumed(positions())), st.booleans())
def test_unit_options_agree_where_a_displaced_roost_carries_its_rider(position: Position, ai: bool) -> None:
    problem = unit_options_problem(position, ai)
    assert problem is None, problem


# Reference N330: a wounded rider recovers on its roost's way, or where a move displaces its roost, beside a
# Refresh spire of its faction, once per move: every unit's options, on boards with the shada's Refresh
# spires (tests/strategies.py, refreshing) and wounded riders; few of them.
@settings(max_examples=examples(8), deadline=None)
@given(perched(refreshing(positions()), wounded=True), st.booleans())
def test_unit_options_agree_where_a_roost_carries_a_wounded_rider_past_refresh(position: Position, ai: bool) -> None:
    problem = unit_options_problem(position, ai)
    assert problem is None, problem
