"""Hand-checked answers of the reference on tiny boards.

Every expected answer below is worked out by hand from the rule text; the comment says how.
Adjacency reminder: odd rows touch the cell below and the one below-left; even rows are shifted
right and touch the cell above and the one above-right.  So on the two-row board

    1  a1 b1 c1 d1
    2    a2 b2 c2 d2

b1 touches a1 c1 a2 b2; b2 touches a2 c2 b1 c1; c2 touches b2 d2 c1 d1; d2 touches c2 d1.
"""

from __future__ import annotations

from dataclasses import replace

from adjudicator.position.model import Controller, Kind, Mark, Terrain
from adjudicator.answers.moves import (
    ESCAPE,
    FREE,
    LATERAL,
    PROGRESS,
    RETURN,
    STAY,
    Displacement,
    StepResult,
    UnitOptions,
)

from tests.reference.movement import movement_step, unit_options
from tests.strategies import MOVER, OPPONENT, build, unit

LINE = "1 p p p p p p"  # a1 … f1
TWO_ROWS = "1 p p p p\n2 p p p p"
LINE_GATES = {MOVER: ("a1",), OPPONENT: ("f1",)}
TWO_ROW_GATES = {MOVER: ("a1",), OPPONENT: ("d2",)}
# Distances to narora's gate on TWO_ROWS: d2 1; c2 d1 2; c1 b2 3; b1 a2 4; a1 5.


def ends(options: UnitOptions) -> dict[str, tuple[str, tuple[Displacement, ...], tuple[str, ...]]]:
    return {o.end: (o.kind, o.displaced, o.path) for o in options.outcomes}


def finals(result: StepResult) -> set[frozenset[tuple[str, str]]]:
    return {frozenset(o.final) for o in result.outcomes}


def test_full_movement_is_required() -> None:
    # Minion Movement: "must use its full movement stat while making progress" — b1 (d 5) with
    # movement 2 must end on d1 (d 3); c1 (d 4) also progresses but uses only 1.
    position = build(LINE, [unit("m", MOVER, "b1", 2)], gates=LINE_GATES)
    options = unit_options(position, "m", ai=False)
    assert options.start_distance == 5
    assert ends(options) == {"d1": (PROGRESS, (), ("b1", "c1", "d1"))}


def test_a_route_may_step_away_first() -> None:
    # FAQ-17 / FAQ-20: only start and end matter.  m on b2 (d 3), movement 3, c2 held by a friendly
    # minion.  Three-step routes ending closer: b2-c1-d1-d2 (d 1) and b2-b1-c1-d1 (d 2), which first
    # steps away to b1 (d 4).  Nothing else: b2-a2-b1-c1 ends on c1 (d 3), not closer.
    position = build(TWO_ROWS, [unit("m", MOVER, "b2", 3), unit("x", MOVER, "c2", 1)], gates=TWO_ROW_GATES)
    assert ends(unit_options(position, "m", ai=False)) == {
        "d1": (PROGRESS, (), ("b2", "b1", "c1", "d1")),
        "d2": (PROGRESS, (), ("b2", "c1", "d1", "d2")),
    }
    # FAQ-30: the AI takes the end closest to its mark.
    assert ends(unit_options(position, "m", ai=True)) == {"d2": (PROGRESS, (), ("b2", "c1", "d1", "d2"))}


def test_blocked_minion_makes_as_much_progress_as_it_can() -> None:
    # Blocking Movement: x on e1 blocks m (b1, movement 4); the most movement that still progresses
    # is b1-c1-d1 (2 steps).  Going back to a1 first would need to re-enter b1 (Making Progress).
    position = build(LINE, [unit("m", MOVER, "b1", 4), unit("x", MOVER, "e1", 1)], gates=LINE_GATES)
    assert ends(unit_options(position, "m", ai=False)) == {"d1": (PROGRESS, (), ("b1", "c1", "d1"))}


def test_no_reentry() -> None:
    # Making Progress: no moving back onto a hex left this turn.  On a1…d1 with the mark beside d1,
    # m on b1 (d 3, movement 3) reaches d1 in 2 steps and no third step exists; re-entering would
    # allow b1-a1-b1-c1, a full-movement progress to c1, which must not appear.
    position = build("1 p p p p", [unit("m", MOVER, "b1", 3)], gates={MOVER: ("a1",), OPPONENT: ("d1",)})
    assert ends(unit_options(position, "m", ai=False)) == {"d1": (PROGRESS, (), ("b1", "c1", "d1"))}


def test_lateral_moves_only_without_progress() -> None:
    # FAQ-17 / FAQ-30: m on c1 (d 3), movement 2; enemies on c2 and d1 block every closer hex.
    # Reachable: b1 (d 4), b2 (d 3), a2 (d 4), a1 (d 5): the only same-distance hex is b2.
    enemies = [unit("e1", OPPONENT, "c2", 1), unit("e2", OPPONENT, "d1", 1)]
    position = build(TWO_ROWS, [unit("m", MOVER, "c1", 2), *enemies], gates=TWO_ROW_GATES)
    assert ends(unit_options(position, "m", ai=False)) == {
        "b2": (LATERAL, (), ("c1", "b2")),
        "c1": (STAY, (), ("c1",)),
    }
    # With d1 free, c1-d1-d2 progresses with full movement: no lateral move, no staying.
    position = build(TWO_ROWS, [unit("m", MOVER, "c1", 2), enemies[0]], gates=TWO_ROW_GATES)
    assert ends(unit_options(position, "m", ai=False)) == {"d2": (PROGRESS, (), ("c1", "d1", "d2"))}


def test_displacement_when_it_is_the_only_progress() -> None:
    # Blocking Movement / FAQ-18 / FAQ-22: h (campfired) on c1 blocks m (b1, movement 2); the only
    # progress is through c1, so h swaps into b1.
    hero = unit("h", MOVER, "c1", 1, kind=Kind.HERO, campfire=True)
    position = build(LINE, [unit("m", MOVER, "b1", 2), hero], gates=LINE_GATES)
    assert ends(unit_options(position, "m", ai=False)) == {
        "d1": (PROGRESS, (Displacement("h", "c1", "b1"),), ("b1", "c1", "d1"))
    }


def test_displacement_only_when_needed() -> None:
    # FAQ-24: m on b2 (d 3), movement 2, hero on c2.  b2-c1-d1 progresses with full movement without
    # displacing, so no displacing route counts, though b2-c2-d2 would end closer (Blocking Movement:
    # "not considered to be blocked … even if a unit stands in the way of a more optimal path").
    units = [unit("m", MOVER, "b2", 2), unit("h", MOVER, "c2", 1, kind=Kind.HERO)]
    position = build(TWO_ROWS, units, gates=TWO_ROW_GATES)
    assert ends(unit_options(position, "m", ai=False)) == {"d1": (PROGRESS, (), ("b2", "c1", "d1"))}
    # displacement=optional: the displacing full-movement routes are offered too: through c2 to d1
    # or d2 (h swaps into b2), or b2-c1-c2 (h swaps into c1).
    optional = build(TWO_ROWS, units, gates=TWO_ROW_GATES, readings={"displacement": "optional"})
    keys = {(o.end, o.displaced) for o in unit_options(optional, "m", ai=False).outcomes}
    pushed = (Displacement("h", "c2", "b2"),)
    assert keys == {("d1", ()), ("d1", pushed), ("d2", pushed), ("c2", (Displacement("h", "c2", "c1"),))}


def test_displaced_hero_on_terrain_it_does_not_admit() -> None:
    # Displaced heroes: m (forest) on forest b1, movement 2; enemy on b2; the path hero h on c1.
    # Plain routes only reach a1/a2 (d 4), so m must go through c1, to d1 or c2.  h cannot stand on
    # forest b1: of b1's free neighbours (a1 plains, a2 path) it admits only a2.
    board = "1 l f p p\n2 p p p p"
    units = [
        unit("m", MOVER, "b1", 2, terrain=Terrain.FOREST),
        unit("h", MOVER, "c1", 1, kind=Kind.HERO),
        unit("e", OPPONENT, "b2", 1),
    ]
    position = build(board, units, gates={MOVER: ("a2",), OPPONENT: ("d1",)})
    pushed = (Displacement("h", "c1", "a2"),)
    assert ends(unit_options(position, "m", ai=False)) == {
        "c2": (PROGRESS, pushed, ("b1", "c1", "c2")),
        "d1": (PROGRESS, pushed, ("b1", "c1", "d1")),
    }


def test_a_hero_never_lands_on_the_hexes_ahead() -> None:
    # Displaced heroes (docs/movement.md).  3x3 path board, b1 forest; mark beside c1
    # (d: c1 1; b1 b2 c2 2; a1 3).  m (forest, a1, movement 3); enemies on a2 and c2; path hero h on
    # b2.  Plain routes reach c1 in 2 steps at most, so m must displace for 3:
    #  a1-b1-c1-b2: h swaps into c1;
    #  a1-b1-b2-c1: h cannot stand on forest b1 and goes to a free path hex beside it: a1 (m's start);
    #  c1 is not offered, m enters it later.  Never two units on one hex.
    units = [
        unit("m", MOVER, "a1", 3, terrain=Terrain.FOREST),
        unit("h", MOVER, "b2", 1, kind=Kind.HERO),
        unit("e1", OPPONENT, "a2", 1),
        unit("e2", OPPONENT, "c2", 1),
    ]
    position = build("1 p f p\n2 p p p\n3 p p p", units, gates={MOVER: ("a3",), OPPONENT: ("c1",)})
    keys = {(o.end, o.displaced) for o in unit_options(position, "m", ai=False).outcomes}
    assert keys == {
        ("b2", (Displacement("h", "b2", "c1"),)),
        ("c1", (Displacement("h", "b2", "a1"),)),
    }


def test_invalid_terrain_takes_the_shortest_route_back() -> None:
    # Making Progress, last paragraph: a path minion on forest b1.  a1 does not lead to the mark (the
    # forest cuts it off), c1 does: k* = 1, d0 = 1 + d(c1) = 3.  Then full movement: c1, d1.
    position = build("1 p f p p", [unit("m", MOVER, "b1", 3)], gates={MOVER: ("a1",), OPPONENT: ("d1",)})
    options = unit_options(position, "m", ai=False)
    assert options.start_distance == 3
    assert ends(options) == {"d1": (PROGRESS, (), ("b1", "c1", "d1"))}


def test_the_way_back_to_valid_terrain_displaces_no_one() -> None:
    # Invalid terrain: k* counts free hexes only, the escape displaces no one.  m (path) on plains
    # a1; the only way to valid terrain is through h on b1, so no valid hex can be reached: it stays.
    units = [unit("m", MOVER, "a1", 2), unit("h", MOVER, "b1", 1, kind=Kind.HERO)]
    position = build("1 l p p", units, gates={MOVER: ("a1",), OPPONENT: ("c1",)})
    options = unit_options(position, "m", ai=False)
    assert options.start_distance is None
    assert ends(options) == {"a1": (STAY, (), ("a1",))}


def test_escape_from_far_invalid_terrain() -> None:
    # Invalid terrain with k* > M: on forest c1, the nearest valid hex is e1, two steps away; with
    # movement 1 it moves one step along that route, to d1.  d0 = 2 + d(e1) = 4.
    position = build("1 p f f f p p", [unit("m", MOVER, "c1", 1)], gates=LINE_GATES)
    options = unit_options(position, "m", ai=False)
    assert options.start_distance == 4
    assert ends(options) == {"d1": (ESCAPE, (), ("c1", "d1"))}
    # By the reading escape-route: allowance it may enter no forest, so it cannot leave and stays.
    held = unit_options(replace(position, readings={"escape-route": "allowance"}), "m", ai=False)
    assert held.start_distance is None and ends(held) == {"c1": (STAY, (), ("c1",))}


def test_hero_moves_freely_and_may_return() -> None:
    # Hero Movement / Returning to the Fortress: h on b1, movement 2: a1, c1, d1, its own gate
    # (beside a1) or stay.  Distances to the mark by range: e1 1, d1 2, c1 3, b1 4, a1 5.
    hero = unit("h", MOVER, "b1", 2, kind=Kind.HERO)
    position = build("1 p p p p p", [hero], gates={MOVER: ("a1",), OPPONENT: ("e1",)})
    assert ends(unit_options(position, "h", ai=False)) == {
        "a1": (FREE, (), ("b1", "a1")),
        "b1": (STAY, (), ("b1",)),
        "c1": (FREE, (), ("b1", "c1")),
        "d1": (FREE, (), ("b1", "c1", "d1")),
        "gate:heirs": (RETURN, (), ("b1", "a1", "gate:heirs")),
    }


def test_ai_hero_approach() -> None:
    # ai-hero-approach=range: h (movement 3, range 2) can end on d1, within range 2 of the gate, and
    # takes the farthest such end, d1, rather than e1.  =closest takes e1.
    hero = unit("h", MOVER, "b1", 3, kind=Kind.HERO, range=2)
    gates = {MOVER: ("a1",), OPPONENT: ("e1",)}
    position = build("1 p p p p p", [hero], gates=gates)
    assert set(ends(unit_options(position, "h", ai=True))) == {"d1"}
    closest = build("1 p p p p p", [hero], gates=gates, readings={"ai-hero-approach": "closest"})
    assert set(ends(unit_options(closest, "h", ai=True))) == {"e1"}


def test_hero_in_gate_must_leave_if_it_can() -> None:
    # Deployment erratum: h waits in its gate beside a1; a1 leads to the mark, so staying is out.
    hero = unit("h", MOVER, None, 1, kind=Kind.HERO)
    gates, stacks = {MOVER: ("a1",), OPPONENT: ("c1",)}, {MOVER: ("h",)}
    position = build("1 p p p", [hero], gates=gates, stacks=stacks)
    assert ends(unit_options(position, "h", ai=False)) == {"a1": (FREE, (), ("gate:heirs", "a1"))}
    # A spire on b1 cuts a1 off from the mark: the hero may stay.
    blocked = build("1 p p p", [hero], gates=gates, stacks=stacks, spires=["b1"])
    assert set(ends(unit_options(blocked, "h", ai=False))) == {"a1", "gate:heirs"}


def test_units_wait_below_the_top_of_the_stack() -> None:
    # Deployment note: units leave the gate top-down.
    units = [unit("m1", MOVER, None, 1), unit("m2", MOVER, None, 1)]
    gates = {MOVER: ("a1",), OPPONENT: ("e1",)}
    position = build("1 p p p p p", units, gates=gates, stacks={MOVER: ("m1", "m2")})
    assert unit_options(position, "m2", ai=False).must_wait
    assert ends(unit_options(position, "m1", ai=False)) == {"a1": (PROGRESS, (), ("gate:heirs", "a1"))}


def test_step_follows_the_leading_minion() -> None:
    # Making Progress: the leading minion (closest) moves first.  m1 on d1 (d 3) goes to e1, then m2
    # (c1, d 4, movement 2) reaches d1.  The other order would leave m2 blocked: not allowed.
    units = [unit("m1", MOVER, "d1", 1), unit("m2", MOVER, "c1", 2)]
    result = movement_step(build(LINE, units, gates=LINE_GATES), ai=False)
    assert finals(result) == {frozenset({("m1", "e1"), ("m2", "d1")})}


def test_step_heroes_before_or_after_minions() -> None:
    # Hero Movement: h (d1, movement 1) moves before or after m (b1, movement 2).
    #  before, to c1: m must displace it (b1-c1-d1), h lands on b1;
    #  before, to e1: m goes b1-c1-d1 freely;
    #  stays, or after: m displaces it to c1 (b1-c1-d1); afterwards h may go to b1 or stay on c1.
    units = [unit("m", MOVER, "b1", 2), unit("h", MOVER, "d1", 1, kind=Kind.HERO)]
    result = movement_step(build(LINE, units, gates=LINE_GATES), ai=False)
    assert finals(result) == {
        frozenset({("m", "d1"), ("h", "b1")}),
        frozenset({("m", "d1"), ("h", "e1")}),
        frozenset({("m", "d1"), ("h", "c1")}),
    }
    assert result.count == 3


def test_step_deploying_minion_sends_a_hero_home() -> None:
    # Displaced heroes: m leaves the gate into a1 where h stands; the hex it left is h's own gate, so
    # h returns.  Unless h moves first: to b1 (then m pushes it back to a1 to reach b1), or home.
    units = [unit("m", MOVER, None, 2), unit("h", MOVER, "a1", 1, kind=Kind.HERO)]
    position = build(LINE, units, gates=LINE_GATES, stacks={MOVER: ("m",)})
    assert finals(movement_step(position, ai=False)) == {
        frozenset({("m", "b1"), ("h", "a1")}),
        frozenset({("m", "b1"), ("h", "gate:heirs")}),
    }


def test_step_second_unit_stays_when_the_first_blocks_the_exit() -> None:
    # Deployment note: m1 (movement 1) leaves to a1; m2 then cannot reach any hex and stays.
    units = [unit("m1", MOVER, None, 1), unit("m2", MOVER, None, 1)]
    position = build(LINE, units, gates=LINE_GATES, stacks={MOVER: ("m1", "m2")})
    assert finals(movement_step(position, ai=True)) == {frozenset({("m1", "a1"), ("m2", "gate:heirs")})}


def test_step_hero_between_minions_deploys_after_them() -> None:
    # Hero Deployment, "before or after your minions, but not between them": stack top, h, low on
    # a1-b1-c1 (gate beside a1 and b1, d: c1 1, b1 2, a1 3, gate 3).  top (movement 2) goes to b1 or
    # c1; h may not move before it, nor between minions, so low cannot leave while the minions move;
    # h then must deploy (a1, or b1 when free); low stays, though b1 may be free by then.
    hero = unit("h", MOVER, None, 1, kind=Kind.HERO)
    units = [unit("top", MOVER, None, 2), hero, unit("low", MOVER, None, 1)]
    gates = {MOVER: ("a1", "b1"), OPPONENT: ("c1",)}
    position = build("1 p p p", units, gates=gates, stacks={MOVER: ("top", "h", "low")})
    home = ("low", "gate:heirs")
    assert finals(movement_step(position, ai=False)) == {
        frozenset({("top", "b1"), ("h", "a1"), home}),
        frozenset({("top", "c1"), ("h", "a1"), home}),
        frozenset({("top", "c1"), ("h", "b1"), home}),
    }


def test_mark_on_a_unit_and_ai_controller_do_not_change_the_procedure() -> None:
    # The mark can be a unit: distance counts onto its hex.  e on f1 is the mark; m (c1, d 3,
    # movement 3) cannot enter f1 and ends on e1 in 2 steps.
    units = [unit("m", MOVER, "c1", 3), unit("e", OPPONENT, "f1", 1)]
    marks, controllers = {MOVER: Mark(unit="e")}, {MOVER: Controller.AI}
    position = build(LINE, units, gates=LINE_GATES, marks=marks, controllers=controllers)
    assert ends(unit_options(position, "m", ai=True)) == {"e1": (PROGRESS, (), ("c1", "d1", "e1"))}


def test_flying_and_peaceful_units_may_be_displaced() -> None:
    # Flying, Peaceful: "Other units may displace this unit", any faction; FAQ-24 makes it
    # mandatory here.  m on b1 (d 5), movement 3; enemy e on c1.  Plain: only b1-a1 (6).  Through
    # c1: b1-c1-d1-e1 (2), e swaps into b1.
    for talent in ("Flying", "Peaceful"):
        units = [unit("m", MOVER, "b1", 3), unit("e", OPPONENT, "c1", 1, talents=(talent,))]
        position = build(LINE, units, gates=LINE_GATES)
        assert ends(unit_options(position, "m", ai=False)) == {
            "e1": (PROGRESS, (Displacement("e", "c1", "b1"),), ("b1", "c1", "d1", "e1"))
        }
    # Flying is "Ungrouped only": a group blocks, and m, with no progress and no hex at d 5 to go
    # to, stays.
    units = [unit("m", MOVER, "b1", 3), unit("e", OPPONENT, "c1", 1, talents=("Flying",), grouped=True)]
    assert ends(unit_options(build(LINE, units, gates=LINE_GATES), "m", ai=False)) == {
        "b1": (STAY, (), ("b1",))
    }


def test_a_landmark_minion_is_never_displaced() -> None:
    # A landmark minion is a landmark (game-elements: Movement), Flying or not.  On TWO_ROWS with
    # l on c1, b2 held by an enemy: distances without c1 are b1 a2 4 (by b2), so m (b1, movement 2)
    # has no progress; a2 is a lateral move.  Through c1 it would reach d1.
    units = [
        unit("m", MOVER, "b1", 2),
        unit("l", OPPONENT, "c1", 0, kind=Kind.LANDMARK_MINION, talents=("Flying",)),
        unit("e", OPPONENT, "b2", 1),
    ]
    position = build(TWO_ROWS, units, gates=TWO_ROW_GATES)
    assert ends(unit_options(position, "m", ai=False)) == {
        "a2": (LATERAL, (), ("b1", "a2")),
        "b1": (STAY, (), ("b1",)),
    }


def test_a_minion_never_displaces_its_marked_unit() -> None:
    # The mark e (Flying) on d1: distances c1 e1 1, b1 2.  m (b1, movement 4) stops on c1; through
    # d1 it would "reach" its mark and pass it.
    units = [unit("m", MOVER, "b1", 4), unit("e", OPPONENT, "d1", 1, talents=("Flying",))]
    position = build(LINE, units, gates=LINE_GATES, marks={MOVER: Mark(unit="e")})
    assert ends(unit_options(position, "m", ai=False)) == {"c1": (PROGRESS, (), ("b1", "c1"))}


def test_a_unit_displaced_towards_a_gate_not_its_own() -> None:
    # m deploys (gate:heirs beside a1 and a2; gate d 1 + d(a2) = 5, movement 1); enemy e (Flying,
    # path) on a2.  Through a2 (4) it progresses, but e may not enter the heirs' gate:
    #  adjacent: it goes to the gate's other free hex, a1;
    #  swap, blocked: it cannot be displaced; no progress, and a1 (5) is a lateral move.
    units = [unit("m", MOVER, None, 1), unit("e", OPPONENT, "a2", 1, talents=("Flying",))]
    gates = {MOVER: ("a1", "a2"), OPPONENT: ("d2",)}
    position = build(TWO_ROWS, units, gates=gates, stacks={MOVER: ("m",)})
    assert ends(unit_options(position, "m", ai=False)) == {
        "a2": (PROGRESS, (Displacement("e", "a2", "a1"),), ("gate:heirs", "a2"))
    }
    for value in ("swap", "blocked"):
        position = build(TWO_ROWS, units, gates=gates, stacks={MOVER: ("m",)},
                         readings={"displaced-landing": value})
        assert ends(unit_options(position, "m", ai=False)) == {
            "a1": (LATERAL, (), ("gate:heirs", "a1")),
            "gate:heirs": (STAY, (), ("gate:heirs",)),
        }


def test_displaced_landing_readings() -> None:
    # The board of test_displaced_hero_on_terrain_it_does_not_admit: h cannot stand on forest b1.
    #  swap: it goes there all the same;  blocked: m cannot displace it, has no progress and no
    #  free hex at d 3 (b2 is held), so it stays.
    board = "1 l f p p\n2 p p p p"
    units = [
        unit("m", MOVER, "b1", 2, terrain=Terrain.FOREST),
        unit("h", MOVER, "c1", 1, kind=Kind.HERO),
        unit("e", OPPONENT, "b2", 1),
    ]
    gates = {MOVER: ("a2",), OPPONENT: ("d1",)}
    swap = build(board, units, gates=gates, readings={"displaced-landing": "swap"})
    pushed = (Displacement("h", "c1", "b1"),)
    assert ends(unit_options(swap, "m", ai=False)) == {
        "c2": (PROGRESS, pushed, ("b1", "c1", "c2")),
        "d1": (PROGRESS, pushed, ("b1", "c1", "d1")),
    }
    blocked = build(board, units, gates=gates, readings={"displaced-landing": "blocked"})
    assert ends(unit_options(blocked, "m", ai=False)) == {"b1": (STAY, (), ("b1",))}


def test_step_a_displaced_friendly_minion_moves_later() -> None:
    # FAQ-25: being displaced is not the unit's move.  TWO_ROWS, enemy on c2; m (b2, d 3, movement
    # 2) and Flying f (c1, d 3, movement 1) tie for the lead.
    #  f first, to d1; m then displaces it back to c1 (b2-c1-d1): {m d1, f c1}.
    #  m first: b2-c1-d1, f into b2; f has no progress from b2 and may go lateral to c1 or stay.
    units = [
        unit("m", MOVER, "b2", 2),
        unit("f", MOVER, "c1", 1, talents=("Flying",)),
        unit("e", OPPONENT, "c2", 1),
    ]
    result = movement_step(build(TWO_ROWS, units, gates=TWO_ROW_GATES), ai=False)
    assert finals(result) == {
        frozenset({("m", "d1"), ("f", "c1")}),
        frozenset({("m", "d1"), ("f", "b2")}),
    }


def test_step_final_boards_name_displaced_enemies() -> None:
    # The Flying enemy e on c1 is displaced into b1 by m (b1, movement 3): the board says so.
    units = [unit("m", MOVER, "b1", 3), unit("e", OPPONENT, "c1", 1, talents=("Flying",))]
    result = movement_step(build(LINE, units, gates=LINE_GATES), ai=False)
    assert finals(result) == {frozenset({("m", "e1"), ("e", "b1")})}


def test_chapter_5_bydra_graam_holds_or_goes_beside_her_mark() -> None:
    # The four bundled positions of chapter 5's Bydra Graam's move, each worked out by hand in its file:
    # the reference ends her where the file says the AI must.
    from pathlib import Path

    from adjudicator.position.load import load_document

    folder = Path(__file__).resolve().parents[1] / "positions" / "harbinger" / "5"
    documents = [(p, load_document(p)) for p in sorted(folder.glob("scenario-5-bydra-*.yaml"))]
    moving = [(p, d) for p, d in documents if "bydra" in d.expected.get("ai-moves", {})]
    assert len(moving) == 4
    for path, document in moving:
        expected = sorted(m["end"] for m in document.expected["ai-moves"]["bydra"])
        found = sorted(o.end for o in unit_options(document.position, "bydra", ai=True).outcomes)
        assert found == expected, path.name


def test_call_minion_and_summon_hero_teleport_where_their_positions_say() -> None:
    # N127, N128: the two bundled positions where each acts, their outcomes worked out by hand in each
    # file (ends and acts): the reference lists the same ones.
    from pathlib import Path

    from adjudicator.position.load import load_document

    folder = Path(__file__).resolve().parents[1] / "positions" / "talents"
    for path, uid in ((folder / "call-minion" / "call-minion-before-or-after.yaml", "caller"),
                      (folder / "summon-hero" / "summon-hero-before-or-after.yaml", "aric")):
        document = load_document(path)
        expected = sorted((m["end"], tuple((a["when"], a["chip"], a["to"]) for a in m.get("acts", ())))
                          for m in document.expected["moves"][uid])
        found = sorted((o.end, tuple((a.when, a.chip, a.to) for a in o.acts))
                       for o in unit_options(document.position, uid, ai=False).outcomes)
        assert found == expected, path.name


def test_anarchy_discards_or_lets_move_as_its_positions_say() -> None:
    # N171: the bundled Anarchy positions, their outcomes and boards worked out by hand in each file (ends,
    # acts, chances): the reference lists the same moves and the same final boards.
    from fractions import Fraction
    from pathlib import Path

    from adjudicator.position.load import load_document

    folder = Path(__file__).resolve().parents[1] / "positions" / "talents" / "anarchy"
    for name, uid, ai in (("anarchy-ai-discard-frees-the-way.yaml", "merc", True),
                          ("anarchy-player-hero-chooses-after-the-roll.yaml", "rogue", False)):
        document = load_document(folder / name)
        expected = sorted((m["end"], tuple(a["how"] for a in m.get("acts", ())), Fraction(m["chance"]))
                          for m in document.expected["moves"][uid])
        found = sorted((o.end, tuple(a.how for a in o.acts), o.chance)
                       for o in unit_options(document.position, uid, ai=ai).outcomes)
        assert found == expected, name
        step = document.expected["ai-movement-step" if ai else "movement-step"]["finals"]
        boards = sorted(tuple(sorted((u, str(n)) for u, n in f.items() if u != "chance")) for f in step)
        assert sorted(o.final for o in movement_step(document.position, ai).outcomes) == boards, name


def test_the_reference_registers_only_catalogue_talents_at_moments_its_core_asks() -> None:
    """A talent's reference function (tests/reference/talents) names a talent of the catalogue, so that a
    misspelt name cannot leave it silently unused, and each moment is one the core asks by its name."""
    from pathlib import Path

    from adjudicator.position.talents import catalogue
    from tests.reference import talents

    assert talents.registered() - set(catalogue().talents) == set()
    core = "".join(Path(talents.__file__).parent.parent.joinpath(f).read_text() for f in ("combat.py", "movement.py"))
    assert [m for m in talents.MOMENTS if f'"{m}"' not in core] == []
