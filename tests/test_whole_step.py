"""The whole movement step: groups that cannot touch each other, searched apart and combined.

The step's boards are every combination of one board per group, so the combined answer must be the
brute-force reference's, board for board, and every order of moves shown must replay.
"""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest
from clingo import Function, Number, String
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.answers.decode import decode_whole_witness
from adjudicator.answers.moves import Displacement, Strike
from adjudicator.position.model import Controller, Kind, Position, Terrain

from adjudicator.questions.whole_step import SEARCH, _Group, _summary, groups, movement_step

from tests.combat_strategies import perched
from tests.comparisons import (answered_by_solve, movement_step_problem, solvable, solve_search_problem, solved,
                               summary_problem, whole_solve_problem)
from tests.profiles import examples, explored_only
from tests.strategies import (MOVER, OPPONENT, ablaze, affordable_step, blazing, build, gusting, idling, positions, scorching,
                              keeping, tracking, unhurt, unit)

# Two rows of twenty path hexes: the mark (narora's gate) is off the right end.
LONG = "1  " + " ".join("p" * 20) + "\n2   " + " ".join("p" * 20) + "\n"
GATES = {MOVER: ("a1", "a2"), OPPONENT: ("t1", "t2")}


def two_clusters(ai: bool) -> Position:
    """Tied minions, a hero that may go before or after them, and a second cluster far away."""
    units = [
        unit("m1", MOVER, "b1", 2), unit("m2", MOVER, "b2", 2), unit("h1", MOVER, "c1", 2, kind=Kind.HERO),
        unit("m3", MOVER, "n1", 2), unit("m4", MOVER, "n2", 2), unit("m5", MOVER, "o1", 1),
    ]
    controller = Controller.AI if ai else Controller.PLAYER
    return build(LONG, units, gates=GATES, controllers={MOVER: controller, OPPONENT: Controller.AI})


def test_far_apart_units_form_groups_and_a_stack_stays_whole() -> None:
    assert groups(two_clusters(False), ["h1", "m1", "m2", "m3", "m4", "m5"]) == [
        ("h1", "m1", "m2"), ("m3", "m4", "m5")]
    stacked = build(LONG, [unit("m1", MOVER, None, 1), unit("m2", MOVER, None, 1), unit("m3", MOVER, "s1", 1)],
                    gates=GATES, stacks={MOVER: ("m1", "m2")})
    assert groups(stacked, ["m1", "m2", "m3"]) == [("m1", "m2"), ("m3",)]


def test_groups_combine_into_the_references_boards() -> None:
    for ai in (False, True):
        position = two_clusters(ai)
        assert len(groups(position, sorted(position.units))) == 2
        assert movement_step_problem(position, ai) is None
        assert summary_problem(position, ai) is None


def test_the_count_is_the_product_of_the_groups_counts() -> None:
    for ai in (False, True):
        position = two_clusters(ai)
        near = replace(position, units={u: x for u, x in position.units.items() if u in ("h1", "m1", "m2")})
        far = replace(position, units={u: x for u, x in position.units.items() if u in ("m3", "m4", "m5")})
        result = movement_step(position, ai=ai, limit=0)
        assert result.count == movement_step(near, ai=ai).count * movement_step(far, ai=ai).count > 1
        # No unit's end narrows the end of a unit of the other group.
        for s in result.summary:
            other = {"m3", "m4", "m5"} if s.unit in ("h1", "m1", "m2") else {"h1", "m1", "m2"}
            assert not other & set(s.depends_on)


def test_talents_that_fix_the_movement_stat_are_solved_and_the_others_searched() -> None:
    # Speed and Sure-Footed fix the stat and allowance from the chip alone: the solve expresses them,
    # and Speed's extra step shows (m1 reaches e1 only with 3). Incorporeal's passing through is searched.
    sped = [unit("m1", MOVER, "b1", 2, talents=("Speed",)), unit("m2", MOVER, "b2", 2, talents=("Sure-Footed",)),
            unit("h1", MOVER, "c2", 2, kind=Kind.HERO, terrain=Terrain.MOUNTAINS)]
    for ai in (False, True):
        position = build(LONG, sped, gates=GATES, controllers={MOVER: Controller.AI if ai else Controller.PLAYER,
                                                               OPPONENT: Controller.AI})
        result = movement_step(position, ai=ai, limit=0)
        assert result.answered_by == "solve", result.searched_because
        assert "e1" in next(s.ends for s in result.summary if s.unit == "m1")
        assert movement_step_problem(position, ai) is None
    passing = build(LONG, [unit("m1", MOVER, "b1", 2, talents=("Incorporeal",))], gates=GATES)
    result = movement_step(passing, ai=False, limit=0)
    assert result.answered_by == "search" and "Incorporeal" in result.searched_because[0]


def test_a_talent_of_a_units_own_move_counts_only_on_the_units_that_move() -> None:
    # Blaze acts only as its unit moves, displaced too (N266), and Tracker only in its own unit's move: on
    # the opponent's e1, which no move displaces, they leave the step to the solve. Tracker does not
    # trigger for AI units.
    movers = [unit("m1", MOVER, "b1", 2), unit("m2", MOVER, "b2", 2)]
    watched = build(LONG, [*movers, unit("e1", OPPONENT, "e2", 2, talents=("Blaze",))], gates=GATES)
    assert movement_step(watched, ai=False, limit=0).answered_by == "solve"
    tracker = replace(movers[0], talents=("Tracker",), talent_numbers=(("Tracker", 2),))
    tracking = build(LONG, [tracker, movers[1], unit("x1", OPPONENT, "e1", 0, kind=Kind.LANDMARK_MINION)], gates=GATES)
    assert movement_step(tracking, ai=True, limit=0).answered_by == "solve"
    for ai in (False, True):
        assert movement_step_problem(watched, ai) is None
    assert movement_step_problem(tracking, True) is None


def test_a_players_tracker_teleport_is_solved_unless_a_minion_may_push_the_hero_first() -> None:
    # Tracker 2 on m1 (b1), the landmark minion x1 on e1: of the hexes beside x1 only d1 is 2 from b1
    # (d2 is 3). m1 and m2 (b2) are as far from their mark, so either moves first: m1 may teleport to
    # d1 instead of moving, unless m2 moved first and ended there.
    movers = [unit("m1", MOVER, "b1", 2, talents=("Tracker",)), unit("m2", MOVER, "b2", 2)]
    movers[0] = replace(movers[0], talent_numbers=(("Tracker", 2),))
    landmark = unit("x1", OPPONENT, "e1", 0, kind=Kind.LANDMARK_MINION)
    tracking = build(LONG, [*movers, landmark], gates=GATES)
    result = movement_step(tracking, ai=False)
    assert result.answered_by == "solve", result.searched_because
    teleports = {(m.end, a.chip) for o in result.outcomes for m in o.sequence if m.unit == "m1" for a in m.acts}
    assert teleports == {("d1", "d1")}  # d2 is 3 from b1
    assert movement_step_problem(tracking, False) is None and solve_search_problem(tracking, False) is None
    assert summary_problem(tracking, False) is None
    # A Tracker hero on c2, where m2's routes go: pushed there before it moves, it would teleport from
    # another hex than the one the talent counts from. Searched; on k2, out of the way, solved.
    hero = replace(unit("h1", MOVER, "c2", 2, kind=Kind.HERO, talents=("Tracker",)), talent_numbers=(("Tracker", 3),))
    pushed = build(LONG, [hero, *movers[1:], landmark], gates=GATES)
    assert not answered_by_solve(pushed, False)
    aside = build(LONG, [replace(hero, at="c1"), unit("m2", MOVER, "k2", 2), landmark], gates=GATES)
    assert answered_by_solve(aside, False)
    assert movement_step_problem(aside, False) is None and solve_search_problem(aside, False) is None


@pytest.mark.parametrize("ai", [True, False])
def test_a_blaze_minion_is_solved_where_no_route_of_its_may_enter_a_forest_hex(ai: bool) -> None:
    # m1 (movement 2, forest allowance) reaches d1 at most: a forest hex on j1 changes none of its moves,
    # one on c1 may be entered (a route the AI prefers, 1 damage to e1 beside it on c2; a player's may
    # deal it to e1, or to m2 wherever it stands then): a player's is searched.
    controllers = {MOVER: Controller.AI if ai else Controller.PLAYER, OPPONENT: Controller.AI}
    movers = [unit("m1", MOVER, "b1", 2, terrain=Terrain.FOREST, talents=("Blaze",)), unit("e1", OPPONENT, "c2", 2),
              unit("m2", MOVER, "g2", 2)]
    for forest, answered in (("j1", "solve"), ("c1", "solve" if ai else "search")):
        column = "abcdefghijklmnopqrst".index(forest[0])
        row = " ".join("f" if i == column else "p" for i in range(20))
        position = build(f"1  {row}\n2   " + " ".join("p" * 20) + "\n", movers, gates=GATES, controllers=controllers)
        result = movement_step(position, ai=ai, limit=0)
        assert result.answered_by == answered, result.searched_because
        assert movement_step_problem(position, ai) is None


def test_an_ai_blaze_minions_damage_is_solved_unless_it_may_defeat() -> None:
    # The AI's m1 (b1, movement 2, forest allowance) takes b1-c1-d1 onto the forest hex c1 beside e1 (c2) and
    # deals e1 1; m2 (g2) ends on i1 or i2: two boards, e1 left with 1 health in each. With e1 at 1 health,
    # that damage defeats it, which frees c2 for later moves: searched.
    controllers = {MOVER: Controller.AI, OPPONENT: Controller.AI}
    row = " ".join("f" if i == 2 else "p" for i in range(20))
    field = f"1  {row}\n2   " + " ".join("p" * 20) + "\n"
    foe = unit("e1", OPPONENT, "c2", 2)
    movers = [unit("m1", MOVER, "b1", 2, terrain=Terrain.FOREST, talents=("Blaze",)), unit("m2", MOVER, "g2", 2)]
    result = movement_step(build(field, [*movers, foe], gates=GATES, controllers=controllers), ai=True)
    assert result.answered_by == "solve", result.searched_because
    assert sorted((o.final, o.health) for o in result.outcomes) == [
        ((("m1", "d1"), ("m2", "i1")), (("e1", 1),)), ((("m1", "d1"), ("m2", "i2")), (("e1", 1),))]
    assert {m.path: m.struck for o in result.outcomes for m in o.sequence if m.unit == "m1"} == {
        ("b1", "c1", "d1"): (Strike("e1", 1),)}
    weak = build(field, [*movers, replace(foe, health=1)], gates=GATES, controllers=controllers)
    assert movement_step(weak, ai=True, limit=0).answered_by == "search"


def test_an_ai_blaze_minions_preference_for_a_forest_hex_is_solved_where_it_deals_nothing() -> None:
    # m1 (b2, 19 from the mark, movement 2, forest allowance) ends closest on d1 (b2-c1-d1, b2-c2-d1) or d2
    # (b2-c2-d2), both 17. With forest on c1 and no opposing unit beside it, the AI's Blaze takes the route
    # onto it: d1 only, and deals nothing. Without the talent, d1 or d2.
    controllers = {MOVER: Controller.AI, OPPONENT: Controller.AI}
    row = " ".join("f" if i == 2 else "p" for i in range(20))
    field = f"1  {row}\n2   " + " ".join("p" * 20) + "\n"
    movers = [unit("m1", MOVER, "b2", 2, terrain=Terrain.FOREST, talents=("Blaze",)), unit("e1", OPPONENT, "p2", 2)]
    position = build(field, movers, gates=GATES, controllers=controllers)
    result = movement_step(position, ai=True)
    assert result.answered_by == "solve", result.searched_because
    assert {s.unit: s.ends for s in result.summary}["m1"] == ("d1",)
    assert [m.path for o in result.outcomes for m in o.sequence] == [("b2", "c1", "d1")]
    plain = build(field, [replace(movers[0], talents=()), movers[1]], gates=GATES, controllers=controllers)
    assert {s.unit: s.ends for s in movement_step(plain, ai=True, limit=0).summary}["m1"] == ("d1", "d2")
    assert whole_solve_problem(position, True) is None


def test_an_opposing_mire_unit_is_solved_unless_a_move_may_displace_it() -> None:
    # Mire's stopping hexes hang on where its chip stands: fixed while its faction does not move, so
    # the solve takes them in; an opposing Flying chip may be displaced, which moves them: searched.
    # e1 beside d1 and d2 stops m1 (movement 4 from b1) there, where the board without it reaches f1.
    movers = [unit("m1", MOVER, "b1", 4), unit("m2", MOVER, "b2", 2), unit("h1", MOVER, "c2", 3, kind=Kind.HERO)]
    for ai in (False, True):
        controllers = {MOVER: Controller.AI if ai else Controller.PLAYER, OPPONENT: Controller.AI}
        mired = build(LONG, [*movers, unit("e1", OPPONENT, "e2", 2, talents=("Mire",))], gates=GATES,
                      controllers=controllers)
        result = movement_step(mired, ai=ai, limit=0)
        assert result.answered_by == "solve", result.searched_because
        assert "f1" not in next(s.ends for s in result.summary if s.unit == "m1")
        assert movement_step_problem(mired, ai) is None
    # The AI's step: the player's search of this board takes six times as long.
    flying = build(LONG, [*movers, unit("e1", OPPONENT, "e2", 2, talents=("Mire", "Flying"))], gates=GATES,
                   controllers={MOVER: Controller.AI, OPPONENT: Controller.AI})
    result = movement_step(flying, ai=True, limit=0)
    assert result.searched_because == ("e1 has the talent Mire and may be displaced, which moves where it acts (searched)",)
    assert movement_step_problem(flying, True) is None


def test_an_ai_minions_end_preference_is_solved_and_an_ai_heros_searched() -> None:
    # Gust (plains) and Waterwalker (water) narrow an AI minion's ends, after the AI's own rules: the
    # solve takes that in for minions. m1 and m2 reach c1/c2 or d1/d2 at the same distance, where the
    # plains and the water lie. An AI hero's preference is searched.
    field = "1  p p l p p p p p\n2   p p w l p p p p\n"
    movers = [unit("m1", MOVER, "a1", 2, terrain=Terrain.PLAINS, talents=("Gust",)), unit("m2", MOVER, "a2", 2, terrain=Terrain.WATER,
                                                                    talents=("Waterwalker",))]
    controllers = {MOVER: Controller.AI, OPPONENT: Controller.AI}
    position = build(field, movers, gates={MOVER: ("a1",), OPPONENT: ("h1", "h2")}, controllers=controllers)
    result = movement_step(position, ai=True, limit=None)
    assert result.answered_by == "solve", result.searched_because
    assert movement_step_problem(position, True) is None
    hero = build(field, [*movers, unit("h1", MOVER, "f1", 2, kind=Kind.HERO, talents=("Gust",))],
                 gates={MOVER: ("a1",), OPPONENT: ("h1", "h2")}, controllers=controllers)
    assert movement_step(hero, ai=True, limit=0).answered_by == "search"


def test_a_solved_group_cut_short_still_gives_every_end() -> None:
    # The solver's ends (brave consequences) are known before any board; which units narrow an end
    # is read from the boards, so it stays unknown when they were not all listed.
    position = two_clusters(True)
    solved = movement_step(position, ai=True, limit=0)
    assert solved.answered_by == "solve"
    ends = {s.unit: s.ends for s in solved.summary if s.unit in ("h1", "m1", "m2")}
    cut_short = _Group(("h1", "m1", "m2"), {}, False, None, ends)
    summary = {s.unit: s for s in _summary(position, [cut_short])}
    assert summary["m1"].ends == ("c1", "c2", "d1") and summary["m1"].depends_on is None
    assert not summary["m1"].forced
    assert summary["m5"].forced and summary["m5"].depends_on == ()  # no group moves it: where it stands


@settings(max_examples=examples(8), deadline=None)  # 25 took 51 s of the suite, 10 up to 32 s; bench.sweep draws more
@given(positions().filter(affordable_step), st.booleans())
def test_the_summary_and_the_orders_agree_with_the_boards(position: Position, ai: bool) -> None:
    problem = summary_problem(copy.deepcopy(position), ai)
    assert problem is None, problem


@settings(max_examples=examples(60), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(positions().map(unhurt).map(solved).filter(solvable), st.booleans())
def test_the_one_solve_agrees_with_the_reference(position: Position, ai: bool) -> None:
    problem = movement_step_problem(position, ai)
    assert problem is None, problem


# A player's Gust: the one solve asked once for each choice of stat (adjudicate.declined), on boards of
# their own (tests/strategies.py, gusting), few of them.
@settings(max_examples=examples(12), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(gusting(positions().map(unhurt).map(solved).filter(solvable)).filter(solvable))
def test_the_one_solve_agrees_with_the_reference_where_a_players_gust_is_a_choice(position: Position) -> None:
    problem = movement_step_problem(position, False)
    assert problem is None, problem


# Elfinkaze riding roosts (reference N109): a rider moves as a hero, its roost's move carries it, and
# no move displaces it alone off its roost's hex. Such a step is searched; few boards, each slow.
@explored_only("one board took 71 s of the suite")
@settings(max_examples=examples(8), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(perched(positions().map(unhurt)).filter(affordable_step), st.booleans())
def test_the_step_agrees_with_the_reference_where_elfinkazes_ride(position: Position, ai: bool) -> None:
    problem = movement_step_problem(position, ai)
    assert problem is None, problem


# The search it replaced, kept as the check, where it is affordable (bench.sweep draws many more).
@settings(max_examples=examples(15), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(positions().map(unhurt).map(solved).filter(solvable).filter(affordable_step), st.booleans())
def test_the_one_solve_agrees_with_the_search(position: Position, ai: bool) -> None:
    problem = solve_search_problem(position, ai)
    assert problem is None, problem


# Talents that act only as their own unit moves (Blaze, Tracker), on units that make no move in the step and
# that no move displaces, and Tracker, which does not trigger for AI units, on the AI's: the one solve
# answers, as without them.
@settings(max_examples=examples(10), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(idling(positions().map(unhurt).map(solved).filter(solvable)), st.booleans())
def test_talents_of_units_that_make_no_move_leave_the_step_to_the_one_solve(position: Position, ai: bool) -> None:
    assert solvable(position, ai)
    problem = movement_step_problem(position, ai)
    assert problem is None, problem


def _untracked(position: Position) -> Position:
    return replace(position, units={uid: keeping(u, tuple(t for t in u.talents if t != "Tracker"))
                                    for uid, u in position.units.items()})


# The landmark minion tracking adds may shut a gate's way to the mark, which the search answers with or
# without Tracker: boards the AI's step solves without it.
@settings(max_examples=examples(6), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(tracking(positions().map(unhurt).map(solved).filter(solvable)).filter(lambda p: solvable(_untracked(p), True)))
def test_tracker_on_the_ais_units_leaves_the_ais_step_to_the_one_solve(position: Position) -> None:
    assert solvable(position, True)
    problem = movement_step_problem(position, True)
    assert problem is None, problem


# Blaze (AI) on the AI's units where the one solve answers (tests/strategies.py: ablaze, the terrain as
# drawn; blazing, forest beside its minions, where routes onto it are preferred): no route moves onto a
# forest hex beside an opposing unit (whole.lp wtouch/2). Every board, the summary and the orders as the
# search's and the reference's, and the notices (a Blaze hero's walk) as the search's.
@settings(max_examples=examples(10), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(st.one_of(positions().map(unhurt).map(solved).filter(solvable).filter(affordable_step).map(ablaze),
                 blazing(positions().map(unhurt).map(solved).filter(solvable).filter(affordable_step)))
       .filter(lambda p: answered_by_solve(p, True)))
def test_an_ai_blaze_in_the_one_solve_agrees_with_the_search_and_the_reference(position: Position) -> None:
    problem = whole_solve_problem(position, True)
    assert problem is None, problem
    solved_notices = movement_step(copy.deepcopy(position), ai=True, limit=0).notices
    assert solved_notices == movement_step(copy.deepcopy(position), ai=True, limit=0, engine=SEARCH).notices


# Blaze's damage on the AI's routes (tests/strategies.py, scorching: forest on its minions' way, opposing
# units beside it): the one solve plays it where it cannot defeat (whole.lp, burn/3); every board with
# the health it leaves, the summary and the orders as the search's and the reference's.
@settings(max_examples=examples(6), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(scorching(positions().map(unhurt).map(solved).filter(solvable).filter(affordable_step))
       .filter(lambda p: answered_by_solve(p, True)))
def test_an_ai_blazes_damage_in_the_one_solve_agrees_with_the_search_and_the_reference(position: Position) -> None:
    problem = whole_solve_problem(position, True)
    assert problem is None, problem


# A player's Blaze on the moving units (ablaze, played): the one solve answers where no route of its
# minions moves onto a forest hex a unit may stand beside; its heroes are searched.
@settings(max_examples=examples(6), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(positions().map(unhurt).map(solved).filter(solvable).filter(affordable_step)
       .map(lambda p: ablaze(p, Controller.PLAYER)).filter(lambda p: answered_by_solve(p, False)))
def test_a_players_blaze_in_the_one_solve_agrees_with_the_search_and_the_reference(position: Position) -> None:
    problem = whole_solve_problem(position, False)
    assert problem is None, problem


# A player's Tracker on the moving units, a landmark minion near them (tests/strategies.py, tracking): where
# the one solve answers, every board, the summary and the orders (teleports among them) as the search's
# and the reference's.
@settings(max_examples=examples(6), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(tracking(positions().map(unhurt).map(solved).filter(solvable).filter(affordable_step))
       .filter(lambda p: answered_by_solve(p, False)))
def test_a_players_tracker_in_the_one_solve_agrees_with_the_search_and_the_reference(position: Position) -> None:
    problem = whole_solve_problem(position, False)
    assert problem is None, problem


def test_the_one_solve_answers_where_it_can_and_says_why_it_searched_elsewhere() -> None:
    for ai in (False, True):
        position = two_clusters(ai)
        result = movement_step(position, ai=ai, limit=None)
        assert (result.answered_by, result.searched_because) == ("solve", ())
        assert movement_step_problem(position, ai) is None
    passing = build(LONG, [unit("m1", MOVER, "b1", 2), unit("m2", MOVER, "c2", 2, talents=("Flying",))], gates=GATES)
    result = movement_step(passing, ai=False)
    assert result.answered_by == "search"
    assert result.searched_because == ("m2 may be displaced by a minion of its own faction (searched)",)
    assert movement_step_problem(passing, False) is None
    # Still in its gate, above another minion: once it deploys, the one below may push it (sweep
    # seed 51 found the solve wrong there).
    waiting = build(LONG, [unit("m1", MOVER, None, 2, talents=("Peaceful",)), unit("m2", MOVER, None, 2)],
                    gates=GATES, stacks={MOVER: ("m1", "m2")})
    assert movement_step(waiting, ai=False).searched_because == (
        "m1 may be displaced by a minion of its own faction (searched)",)
    assert movement_step_problem(waiting, False) is None


def test_another_factions_unit_that_a_talent_opens_to_displacement_is_solved() -> None:
    # An opposing Flying or Peaceful unit never moves in the step; the group's minions may push it as
    # they push a friendly hero, so whole.lp moves it too. On one row, m1 (movement 2) on b1 must push
    # e1 off c1 to move at all (b1-c1-d1, FAQ-24): e1 lands on b1, where m2, leading after m1, meets it
    # again. One on terrain a pushing minion could leave it unable to stand on is searched.
    for talent in ("Flying", "Peaceful"):
        for ai in (False, True):
            controllers = {MOVER: Controller.AI if ai else Controller.PLAYER, OPPONENT: Controller.AI}
            movers = [unit("m1", MOVER, "b1", 2), unit("m2", MOVER, "a1", 3), unit("h1", MOVER, "g1", 2, kind=Kind.HERO)]
            flier = unit("e1", OPPONENT, "c1", 2, talents=(talent,), terrain=Terrain.WATER)
            position = build("1  p p p p p p p p\n", [*movers, flier], gates={MOVER: ("a1",), OPPONENT: ("h1",)},
                             controllers=controllers)
            result = movement_step(position, ai=ai, limit=None)
            assert result.answered_by == "solve", result.searched_because
            assert any(dict(o.final).get("e1") not in (None, "c1") for o in result.outcomes)
            assert movement_step_problem(position, ai) is None
    # Pushed beside the gate by m2 (a1-b1-c1), e1 would be pushed into it by m1 deploying onto a1
    # (sweep seeds 54 and 55 found the solve wrong there): searched while a minion waits to deploy.
    chain = build("1  p p p p p p\n", [unit("m1", MOVER, None, 2), unit("m2", MOVER, "a1", 2),
                                        unit("e1", OPPONENT, "b1", 2, talents=("Flying",), terrain=Terrain.WATER)],
                  gates={MOVER: ("a1",), OPPONENT: ("f1",)}, stacks={MOVER: ("m1",)})
    assert movement_step(chain, ai=False, limit=0).searched_because == (
        "e1 may be displaced onto a gate a minion deploys from (landings are searched)",)
    assert movement_step_problem(chain, False) is None
    pathbound = build(LONG, [unit("m1", MOVER, "b1", 2, terrain=Terrain.FOREST),
                             unit("e1", OPPONENT, "c1", 2, talents=("Flying",))], gates=GATES)
    assert movement_step(pathbound, ai=False, limit=0).searched_because == (
        "e1 may be displaced onto terrain it may not stand on (landings are searched)",)


def test_minions_in_a_gate_stack_are_solved_and_a_hero_they_push_into_it_has_returned() -> None:
    # Minions deploy top-down, and one that stays keeps those below it in the gate: the solve orders
    # the stack itself. With a2 held by an opponent, m1 can deploy only into the hex of h1 (which
    # cannot move), and sends it to its own gate: it has returned, and makes no move after that.
    minions = [unit("m1", MOVER, None, 1), unit("m2", MOVER, None, 1), unit("m3", MOVER, "s1", 1)]
    stacked = build(LONG, minions, gates=GATES, stacks={MOVER: ("m1", "m2")})
    pushing = build(LONG, [unit("h1", MOVER, "a1", 0, kind=Kind.HERO), unit("e1", OPPONENT, "a2", 1), *minions],
                    gates=GATES, stacks={MOVER: ("m1", "m2")})
    # m1 has moved already this turn (it stayed in the gate): m2 below it stays there too.
    stayed = build(LONG, [unit("m1", MOVER, None, 1, moved=True), *minions[1:]], gates=GATES,
                   stacks={MOVER: ("m1", "m2")})
    for position in (stacked, pushing, stayed):
        for ai in (False, True):
            assert movement_step(position, ai=ai, limit=0).answered_by == "solve"
            assert movement_step_problem(position, ai) is None
    pushes = [(o, i) for o in movement_step(pushing, ai=False).outcomes for i, m in enumerate(o.sequence)
              if any(d.unit == "h1" and d.to == "gate:" + MOVER for d in m.displaced)]
    assert pushes
    assert all(m.unit != "h1" for outcome, i in pushes for m in outcome.sequence[i:])



def test_a_stack_at_different_distances_is_solved_and_a_gate_leading_nowhere_searched() -> None:
    # From the gate (beside a1) the forest minion m2 is 8 from its mark, the path minion m1 above it
    # 9: once m1 leaves, m2 is free and leads before units farther than 8, after those closer.
    position = build("1  p f f f f f p\n2   p p p p p p p\n",
                     [unit("m1", MOVER, None, 2), unit("m2", MOVER, None, 2, terrain=Terrain.FOREST),
                      unit("m3", MOVER, "d2", 1)],
                     gates={MOVER: ("a1",), OPPONENT: ("g1",)}, stacks={MOVER: ("m1", "m2")})
    for ai in (False, True):
        assert movement_step(position, ai=ai, limit=0).answered_by == "solve"
        assert movement_step_problem(position, ai) is None
    # A gate beside forest only does not lead a path minion to its mark: it has no start distance.
    nowhere = build("1  f p p p p p\n", [unit("m1", MOVER, None, 2), unit("m3", MOVER, "d1", 1)],
                    gates={MOVER: ("a1",), OPPONENT: ("f1",)}, stacks={MOVER: ("m1",)})
    result = movement_step(nowhere, ai=True, limit=0)
    assert result.searched_because == ("m1 waits in a gate that does not lead to its mark (it moves last: searched)",)
    assert movement_step_problem(nowhere, True) is None


@pytest.mark.parametrize("stack", [("h1", "m1", "m2"), ("m1", "h1", "m2"), ("h1", "h2", "m1"), ("m1", "h1", "h2", "m2")])
def test_heroes_in_a_gate_stack_are_solved_as_the_rules_play_them(stack: tuple[str, ...]) -> None:
    # A hero above every minion of its stack deploys before them, one below a minion after them and
    # keeps those below it in the gate, and a hero in its gate must leave it if it can.
    chips = [unit(u, MOVER, None, 2 if u[0] == "h" else 1, kind=Kind.HERO if u[0] == "h" else Kind.MINION)
             for u in stack]
    position = build(LONG, [*chips, unit("m3", MOVER, "c1", 2)], gates=GATES, stacks={MOVER: stack})
    for ai in (False, True):
        assert movement_step(position, ai=ai, limit=0).answered_by == "solve"
        assert movement_step_problem(position, ai) is None


def test_two_minions_on_one_route_keep_their_own_displacements_in_the_order_shown() -> None:
    # Two minions leaving one gate may take the same route at different moments: the first pushes the
    # hero on b1 back to a1, the second then meets no hero there. Each route's pushes are its own unit's
    # (a sweep's board once merged them, and showing its boards raised an error).
    route = Function("", [String("c1"), Function("", [String("b1"), Function("", [String("a1"), Function(
        "", [String("gate:g"), Function("start")])])])])
    atoms = [Function(name, args) for name, args in (
        ("go", [String("m1"), route]), ("go", [String("m2"), route]), ("ok", [String("m1"), route]),
        ("ok", [String("m2"), route]), ("okp", [String("m1"), route, String("b1"), String("a1")]),
        ("push", [String("m1"), String("h1"), String("a1")]), ("bef", [String("m1"), String("m2")]),
        ("wd0", [String("m1"), Number(3)]), ("wd0", [String("m2"), Number(3)]))]
    first, second = (move for move, _, _ in decode_whole_witness(atoms, lambda node: ()))
    assert (first.unit, first.displaced, first.paths) == ("m1", (Displacement("h1", "b1", "a1"),), 1)
    assert (second.unit, second.displaced, second.paths) == ("m2", (), 1)


# Plains on the left, path on the right: a path minion on plains escapes to the nearest path hex first.
ESCAPE = "1  l l l p p p p p\n2   l p p p p p p p\n3  l l l p p p p p\n"
ESCAPE_GATES = {MOVER: ("a1", "a2", "a3"), OPPONENT: ("h1", "h2", "h3")}


def test_an_escape_from_invalid_terrain_is_solved_unless_a_unit_may_stand_on_it_first() -> None:
    # m1 escapes from a2 onto b2, then goes on to c2; with movement 1 from a1 it cannot reach a path
    # hex and moves one step along a shortest escape (a2 or b1, kind escape). m2 moves far away.
    alone = build(ESCAPE, [unit("m1", MOVER, "a2", 2), unit("m2", MOVER, "g3", 1)], gates=ESCAPE_GATES)
    short = build(ESCAPE, [unit("m1", MOVER, "a1", 1), unit("m2", MOVER, "g3", 1)], gates=ESCAPE_GATES)
    # A player's hero may walk onto b2 before the minions (an AI hero only goes towards its mark).
    hero = build(ESCAPE, [unit("m1", MOVER, "a2", 2), unit("h1", MOVER, "d2", 2, kind=Kind.HERO)], gates=ESCAPE_GATES)
    for position, ai in ((alone, False), (alone, True), (short, False), (short, True), (hero, True)):
        result = movement_step(position, ai=ai, limit=None)
        assert result.answered_by == "solve"
        assert solve_search_problem(position, ai) is None
        assert summary_problem(position, ai) is None
    moves = {m.unit: m for m in movement_step(alone, ai=True).outcomes[0].sequence}
    assert (moves["m1"].kind, moves["m1"].path) == ("progress", ("a2", "b2", "c2"))
    assert {(m.kind, m.path) for o in movement_step(short, ai=True).outcomes for m in o.sequence if m.unit == "m1"} == {
        ("escape", ("a1", "a2")), ("escape", ("a1", "b1"))}
    assert movement_step(hero, ai=False).searched_because == (
        "a minion's escape from invalid terrain may meet a unit that moves (escapes are searched)",)
    # m2 stands on b2 until it moves: m1's escape is longer until then.
    start = build(ESCAPE, [unit("m1", MOVER, "a2", 2), unit("m2", MOVER, "b2", 1)], gates=ESCAPE_GATES)
    assert movement_step(start, ai=True).searched_because == (
        "m1 starts on a hex it may not stand on, and the one solve does not follow its escape (searched)",)
    for position in (hero, start):
        assert movement_step_problem(position, False) is None
