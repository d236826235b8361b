"""The whole turn: the board carried from step to step, and the answer's invariants on generated boards.

Hand-derived whole turns are in positions/turn/; here the carrying (board_after) is checked against
what each step's own answer says, and the composition against the steps asked alone.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import defaultdict
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

from hypothesis import given, settings

from adjudicator.answers.attacks import AttackStepResult, ChipEnd, EndState
from adjudicator.answers.moves import MoveOutcome
from adjudicator.position.load import load_document
from adjudicator.position.model import Position
from adjudicator.questions.adjudicate import attack_step, end_of_wave, spires_fire, unit_options
from adjudicator.questions.board_after import apply_end, apply_move, turn
from adjudicator.answers.notices import Notice
from adjudicator.questions.steps import BY_NAME
from adjudicator.questions.whole_step import movement_step
from adjudicator.questions.whole_turn import _branches, merged, remaining, turn_end, whole_turn
from bench import boards

from tests.combat_strategies import combat_positions
from tests.comparisons import at_spires_fire
from tests.rule_texts import ROOT
from tests.profiles import examples


def _position(name: str) -> Position:
    return load_document(ROOT / name).position


def test_a_defeated_unit_leaves_the_board_and_its_gate_stack() -> None:
    position = _position("positions/turn/turn-from-spires-fire.yaml")
    after = apply_end(position, EndState((ChipEnd("harrier", defeated=True), ChipEnd("joust", health=1))))
    assert after.placed("harrier") is None and after.units["joust"].health == 1
    end = turn_end(position, after)
    assert end.describe() == "harrier defeated; joust e1, health 1"
    assert end.as_json()["units"][0] == {"unit": "harrier", "node": None, "left": "defeated"}


def test_a_hero_that_returns_to_its_fortress_is_not_called_defeated() -> None:
    position = _position("positions/rulebook/joust-harrier-jaelana.yaml")
    after = apply_move(position, MoveOutcome("jaelana", "gate:heirs", "return", path=("c4", "gate:heirs")))
    end = turn_end(position, after)
    assert end.describe() == "jaelana returned to its fortress"
    assert end.as_json()["units"] == [{"unit": "jaelana", "node": None, "left": "returned"}]


def test_a_hero_that_returns_to_its_fortress_recovers_its_full_health() -> None:
    # game-elements, Returning to the Fortress: "When it does so, it immediately recovers to full health".
    position = _position("positions/rulebook/joust-harrier-jaelana.yaml")
    hurt = replace(position, units={**position.units, "jaelana": replace(position.units["jaelana"], health=1)})
    after = apply_move(hurt, MoveOutcome("jaelana", "gate:heirs", "return", path=("c4", "gate:heirs")))
    assert after.units["jaelana"].health == position.units["jaelana"].stats.health


def test_a_rider_its_walking_roost_carries_has_moved_for_what_reads_a_move() -> None:
    # FAQ-02: riding "triggers movement effects"; FAQ-25: moved by another chip counts for Survival. The
    # harrier displaces lord, a hero with Roost, from c1 to b1, and elf rides lord.
    position = _position("positions/talents/roost/roost-displaced-hero-carries-rider.yaml")
    (harrier,) = unit_options(position, "harrier").outcomes
    after = apply_move(position, harrier)
    assert after.units["elf"].at == "b1" and after.units["elf"].done.displaced
    assert not after.units["harrier"].done.displaced


def test_a_landmark_an_act_moved_is_on_its_new_hex_in_the_turns_end() -> None:
    # Twister: "place it on an unoccupied non-path hex adjacent to this unit": two ends that differ only by
    # the landmark's hex are two ends.
    position = _position("positions/talents/twister/twister-landmark-within-three-placed-beside.yaml")
    placed = [o for o in unit_options(position, "tempest").outcomes if o.end == "b1" and o.acts]
    ends = {turn_end(position, apply_move(position, o)).landmarks_at for o in placed}
    assert ends == {(("ruin", "a2"),), (("ruin", "b2"),)}
    assert "ruin on a2" in turn_end(position, apply_move(position, placed[0])).describe() + \
        turn_end(position, apply_move(position, placed[1])).describe()


def test_a_spire_rigging_sent_to_its_barracks_is_not_called_defeated() -> None:
    position = _position("positions/talents/rigging/rigging-hero-returns-spire-to-barracks.yaml")
    rigged = next(o for o in whole_turn(position).outcomes if o.movement and o.movement.sequence[0].exit)
    assert rigged.end.describe().endswith("rig returned to its barracks")
    assert rigged.end.as_json()["spires_home"] == ["rig"] and rigged.end.as_json()["spires"] == {}


def test_a_unit_that_erupts_waits_in_its_barracks() -> None:
    # Eruption: "return this unit to its barracks": where the position gives the barracks, the unit is there
    # for what later takes from them (Spawn, Evoke, Summon), as Builder's unit is.
    position = _position("positions/talents/eruption/eruption-low-health-beside-foe-erupts.yaml")
    position = replace(position, factions={**position.factions,
                                           "shada": replace(position.factions["shada"], barracks=())})
    after = apply_move(position, MoveOutcome("magma", "e1", "progress", path=("c1", "d1", "e1"), exit="barracks"))
    assert after.placed("magma") is None and after.factions["shada"].barracks == ("magma",)


def test_spires_gates_and_source_change_as_the_end_says() -> None:
    position = _position("positions/turn/turn-from-spires-fire.yaml")
    end = EndState((ChipEnd("gate:narora", health=7), ChipEnd("tower", upgrades=())), (("heirs", 3),))
    after = apply_end(position, end, frozenset({"harrier"}))
    assert after.gates["narora"].health == 7 and after.spires[0].upgrades == ()
    assert after.factions["heirs"].source == 3 and after.units["harrier"].done.attacked
    gone = apply_end(position, EndState((ChipEnd("tower", defeated=True),)))
    assert gone.spires == ()


def test_a_group_reveal_shows_the_next_chip_with_its_own_stats() -> None:
    position = _position("positions/rules/group-reveal-full-health.yaml")
    uid, unit = next((u, x) for u, x in position.units.items() if x.group)
    shown = unit.group[0]
    after = apply_end(position, EndState((ChipEnd(uid, name=shown.chip, health=shown.stats.health),)))
    new = after.units[uid]
    assert (new.chip, new.stats, new.health, new.group) == (shown.chip, shown.stats, shown.stats.health, unit.group[1:])


def test_a_flip_shows_the_other_sides_talents_and_a_second_flip_the_first_ones_again() -> None:
    # docs/position-format.md, A unit's other side: the fox shows its promoted side (Prepared), its basic
    # side prints none; the clutch its basic side (none), its promoted side Prepared.
    position = _position("positions/rules/other-side-keel-promotes-then-prepared.yaml")
    fox, clutch = position.units["fox"], position.units["clutch"]
    down = turn(fox, False)
    assert (down.talents, down.other_talents, down.unseen) == ((), ("Prepared",), ())
    assert turn(down, True) == fox
    up = turn(clutch, True)
    assert (up.talents, up.other_talents, up.side) == (("Prepared",), (), clutch.promoted_stats)
    # A turn to the side already shown changes nothing (a keel minion promoted again).
    assert turn(fox, True) == fox
    # A combat step's promotion (the keel's rule, Rally, a level-up) turns it alike; where the position gives
    # neither its other side's talents nor its stats, the unit keeps what it showed and says what is unseen.
    shown = apply_end(position, EndState((ChipEnd("clutch", health=1, promoted=True),)))
    assert shown.units["clutch"].talents == ("Prepared",) and not shown.units["clutch"].unseen
    blind = replace(clutch, other_talents=None, promoted_stats=None)
    assert turn(blind, True).unseen == ("stats", "talents") and turn(blind, True).talents == ()
    # The end of the turn calls no talent the flip put face down discarded (Hidden Armor's discard).
    assert not turn_end(position, apply_end(position, EndState((ChipEnd("fox", health=2, basic=True),)))).units[0].discarded_talents


def test_the_turn_reports_progress_before_its_first_outcome() -> None:
    # A long step inside the turn reports too (the number of whole-turn outcomes so far: 0 at first),
    # so that `turn --progress` is not silent until the first outcome.
    heard: list[int] = []
    result = whole_turn(_position("positions/turn/turn-from-spires-fire.yaml"), progress=heard.append)
    assert heard[0] == 0 and heard[-1] == result.count >= 1


def test_the_steps_still_to_come_follow_the_turn_order() -> None:
    position = _position("positions/turn/turn-from-spires-fire.yaml")
    assert remaining(position) == ("spires-fire", "movement", "exploration", "attack", "end-of-turn")
    at_end = replace(position, turn=replace(position.turn, step="end-of-turn"))
    result = whole_turn(at_end)
    assert remaining(at_end) == ("end-of-turn",) and result.count == 1
    assert result.outcomes[0].end.describe() == "nothing changes"


def test_a_step_no_line_of_play_reaches_is_not_called_played() -> None:
    # The attack step ends the wave in every line (Neglected's forsaken do not keep it going): the end of
    # the turn is never played, the end of the wave always is.
    result = whole_turn(_position("positions/talents/neglected/neglected-wave-ends.yaml"))
    assert all(o.end.wave_over for o in result.outcomes)
    statuses = {s.step: s.status for s in result.steps}
    assert statuses["attack"] == "played"
    assert statuses["end-of-turn"] == "not reached" and statuses["end-of-wave"] == "played"


@settings(max_examples=examples(20), deadline=None)
@given(combat_positions())
def test_from_the_attack_step_the_turn_ends_as_the_attack_step_does(position: Position) -> None:
    turn = whole_turn(position)
    step = attack_step(position)
    assert turn.count == step.count
    for outcome in turn.outcomes:
        assert outcome.attack is not None and outcome.probability == 1
        attackers = frozenset(a.attacker for a in outcome.attack.sequence)
        after, ends = apply_end(position, outcome.attack.end, attackers), [outcome.attack.end]
        if outcome.attack.end.wave_over and not outcome.attack.end.game_over:
            # The end of the wave follows (docs/turn.md): with these boards' talents it has one end (a
            # campfired hero's campfire mode ends), so the count stays the attack step's.
            [wave] = end_of_wave(after).outcomes
            after, ends = apply_end(after, wave.end), [*ends, wave.end]
        assert outcome.end == turn_end(position, after, ends)


@settings(max_examples=examples(15), deadline=None)
@given(combat_positions(firing=True))
def test_the_turn_follows_each_spires_fire_result_with_its_probability(position: Position) -> None:
    # Every unit has moved and attacked already, so the later steps keep the board and the turn stays
    # small: a fire result times every attack step after it ran to thousands of outcomes. The test
    # above follows the attack step into the turn.
    moved = {u: replace(x, done=replace(x.done, moved=True, attacked=True)) for u, x in position.units.items()}
    position = at_spires_fire(replace(position, units=moved))
    turn = whole_turn(position, limit=None)
    fired = spires_fire(position)
    by_plan: dict[tuple[tuple[str, str], ...], dict[object, Fraction]] = defaultdict(dict)
    for outcome in turn.outcomes:
        assert outcome.fire is not None
        by_plan[outcome.fire.choices][outcome.fire.end] = outcome.probability
    wanted: dict[tuple[tuple[str, str], ...], dict[object, Fraction]] = defaultdict(dict)
    for r in fired.results:
        wanted[r.choices][r.end] = r.probability
    assert by_plan == wanted
    # A line of choices is part of one way of choosing, whose results add up to 1; it is all of it
    # unless a later spire's choice depends on an earlier roll (its first pick defeated).
    assert all(sum(results.values()) <= 1 for results in by_plan.values())


def test_a_unit_that_struck_quickly_does_not_attack_again_in_the_attack_step() -> None:
    # Quick Strike: one that struck before the spires fired has attacked for the turn.
    result = whole_turn(_position("positions/talents/quick-strike/ai-must-strike.yaml"))
    assert result.complete and result.outcomes
    for outcome in result.outcomes:
        assert outcome.quick_strike is not None
        assert [a.attacker for a in outcome.quick_strike.sequence] == ["scout"]
        assert outcome.attack is not None
        assert "scout" not in {a.attacker for a in outcome.attack.sequence}


def test_a_talent_the_turn_and_a_step_both_leave_out_is_named_once() -> None:
    # The turn names Dodge in the movement and attack steps; the attack step's own answer names it
    # again on another chip: one notice, both chips, the steps in turn order. A different part left
    # out is another notice.
    turn = Notice("Dodge", "partly modelled", ("attack", "movement"), ("darb",), "its flip")
    step = Notice("Dodge", "partly modelled", ("quick-strike",), ("kram",), "its flip")
    other = Notice("Dodge", "partly modelled", ("attack",), ("darb",), "another part")
    assert merged((turn, step, other)) == (
        Notice("Dodge", "partly modelled", ("quick-strike", "movement", "attack"), ("darb", "kram"), "its flip"),
        other,
    )


def _bench_turn() -> Position:
    """A realistic 60-hex / 5-unit bench board under the AI at Spires Fire (bench/run.py, question 9), one
    whose every line of play attacks."""
    board = boards.realistic(0, 60, 5)
    position = boards.as_ai(boards.armed(board, len(board.units)))
    return replace(position, turn=replace(position.turn, step="spires-fire"))


def test_a_step_asked_of_many_boards_at_once_answers_each_as_its_own_question() -> None:
    # The whole turn asks a step once for every board that reaches it, one grounding for a batch of boards
    # (solve_each): each board gets its own count, end states and notices; a board asked twice is solved
    # once. Only the order of attacks shown for an end state may differ (the witness is the batch solve's).
    start = _bench_turn()
    moved = [after for after, _, _, _ in _branches(start, movement_step(replace(
        start, turn=replace(start.turn, step="movement")), ai=True))]
    other = _position("positions/turn/turn-from-spires-fire.yaml")  # other talents: another grounding
    positions = [*moved, moved[0], replace(other, turn=replace(other.turn, step="attack"))]
    assert len(moved) > 1
    answers: dict[str, list[AttackStepResult]] = {}
    for name in ("attack-step", "end-of-turn"):
        step = BY_NAME[name]
        answers[name] = together = step.ask_many(positions, True)
        alone = [step.ask(p, True) for p in positions]
        assert [(r.count, [e.end for e in r.outcomes], r.notices) for r in together] == \
            [(r.count, [e.end for e in r.outcomes], r.notices) for r in alone]
    assert all(e.sequence for r in answers["attack-step"][:len(moved)] for e in r.outcomes)


def test_the_turn_shows_the_same_orders_of_attacks_on_every_run_and_under_any_hash_seed(tmp_path: Path) -> None:
    # The order of attacks shown for an end state is the first answer set the batch's solve finds
    # (solve.solve_each): its program is built from the facts sorted by their text and the boards in
    # the order of their lines of play, so it follows from the position alone.
    path = tmp_path / "turn.yaml"
    path.write_text(boards.position_yaml(_bench_turn()))
    runs = [subprocess.run([sys.executable, "-m", "adjudicator", "turn", str(path), "--ai", "--all", "--json"],
                           cwd=ROOT, capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("0", "1")]
    assert runs[0] == runs[1]
    assert any(o["attack"]["sequence"] for o in json.loads(runs[0])["outcomes"])
