"""The attack step solved as a product over groups of attacks that never meet (asp/combat/split.lp,
adjudicator/questions/attack_groups.py): where it splits, where it must stay whole, and that its count
and the boards it shows agree with the whole step's solve and with the brute-force reference."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from adjudicator.facts.combat import ATTACK, STEP, CombatQuery
from adjudicator.position.load import load_position, load_position_text
from adjudicator.position.model import Position
from adjudicator.position.readings import resolve
from adjudicator.questions import attack_groups
from adjudicator.questions.adjudicate import _may_attack, attack_step, combat_ai, step_summary
from bench import boards

from tests.comparisons import combat_ai as reference_ai
from tests.reference import combat as combat_ref

SPLIT_BOARD = Path(__file__).parent.parent / "positions" / "rules" / "attack-groups-a-capped-sum.yaml"


def _query(position: Position) -> CombatQuery:
    side = position.turn.faction
    return CombatQuery(ATTACK, STEP, side, combat_ai(position, side, None), 0,
                       readings=resolve(position.readings))


def _split(position: Position) -> attack_groups.Split:
    return attack_groups.split(position, _query(position), None)


def test_two_fights_apart_split_and_every_combination_plays_to_an_end_of_the_whole_step() -> None:
    position = load_position(SPLIT_BOARD)
    how = _split(position)
    assert how.groups == (("harrier",), ("jaelana",)) and how.joined == ()
    _, groups = attack_groups.solved(position, _query(position), how.groups, None)
    assert groups is not None and [len(g.ends) for g in groups] == [2, 2]
    whole = {e.end for e in attack_step(position).outcomes}
    played = {attack_groups.replayed(position, _query(position), line, None).end
              for line in attack_groups.combinations(groups)}
    # Both rewards together pass the capacity: the board played whole says 20, not 15 + 3 + 3.
    assert played == whole and len(whole) == 4
    assert any(dict(e.source) == {"heirs": 20} for e in played)


def test_a_split_step_counts_and_shows_what_the_whole_step_does() -> None:
    position = load_position(SPLIT_BOARD)
    whole = attack_step(position)
    assert attack_step(position, limit=0).count == whole.count == 4
    shown = attack_step(position, limit=3)
    assert shown.count == 4 and len(shown.outcomes) == 3
    assert {o.end for o in shown.outcomes} <= {o.end for o in whole.outcomes}


def _edited(old: str, new: str) -> Position:
    text = SPLIT_BOARD.read_text()
    assert old in text
    return load_position_text(text.replace(old, new))


SPARK = """  spark:   {chip: Wisp, faction: narora, kind: minion, at: e1, health: 3,
            stats: {health: 3, attack: 1, movement: 2}}
"""


@pytest.mark.parametrize(("old", "new", "why"), [
    # Without the minion out of reach every minion could fall, and the wave then ends for both fights.
    (SPARK, "", "wave"),
    # A talent on a chip an attack touches may act beyond it (Cover, Hail): the step stays whole.
    ("reward: {source: 3}}\n  ember", "reward: {source: 3}, talents: [Hail]}\n  ember", "talent"),
    # A fortress gate within reach: its defeat may end the game.
    ("narora: {beside: [e3]", "narora: {beside: [b3]", "gate"),
])
def test_a_step_stays_whole_where_its_fights_can_meet(old: str, new: str, why: str) -> None:
    assert _split(_edited(old, new)).joined == (why,)


def test_a_talent_that_acts_only_on_its_own_attacks_still_splits() -> None:
    # Tough caps the damage dealt to its own unit: nothing of another fight changes.
    tough = _edited("reward: {source: 3}}\n  ember", "reward: {source: 3}, talents: [Tough]}\n  ember")
    assert _split(tough) == attack_groups.Split((("harrier",), ("jaelana",)), ())


# Field boards of 150 hexes and 20 units, armed, the odd seeds under AI control: every one splits, with
# or without talents that act only in the attacks touching their chip (the catalogue's acts_on: self).
FIELD_SEEDS = (0, 3, 4, 7)
SELF_ONLY = ("Armored", "Tough", "Evasive", "Leech", "Riposte", "Poison", "Quick Counter")


@pytest.mark.generated
@pytest.mark.parametrize("talents", [(), SELF_ONLY], ids=["bare", "self-only-talents"])
@pytest.mark.parametrize("seed", FIELD_SEEDS)
def test_a_split_field_board_agrees_with_the_reference(seed: int, talents: tuple[str, ...]) -> None:
    position = boards.with_talents(boards.armed(boards.field(seed, 150, 20), seed), talents)
    if seed % 2:
        position = boards.as_ai(position)
    how = _split(position)
    assert len(how.groups) > 1 and not how.joined
    ai = reference_ai(position)
    expected = combat_ref.attack_step(position, ai)
    assert attack_step(copy.deepcopy(position), limit=0).count == expected.count
    ends = {o.end for o in expected.outcomes}
    for shown in attack_step(copy.deepcopy(position), limit=2).outcomes:
        assert shown.end in ends
        reached, problems = combat_ref.replay(position, ai, shown.sequence)
        assert not problems and reached == shown.end


def test_the_summary_says_what_every_unit_may_or_must_attack_and_what_may_fall() -> None:
    # By hand (the position's comment): each minion must attack one of its two; the drift and the wisp
    # fall in some end states, none in all.
    summary = attack_step(load_position(SPLIT_BOARD), limit=0).summary
    assert summary is not None
    assert [(a.unit, a.targets, a.forced) for a in summary.attackers] == [
        ("harrier", ("drift", "ember"), True), ("jaelana", ("cinder", "wisp"), True)]
    assert summary.may_fall == ("drift", "wisp") and summary.must_fall == ()


def test_the_summary_names_a_discarded_chip_once() -> None:
    # positions/talents/pacify/pacify-player-may.yaml: the golem is discarded in one end state (Pacify),
    # damaged in the other; a discard is also a chip gone from the board, named once.
    pacify = Path(__file__).resolve().parents[1] / "positions" / "talents" / "pacify" / "pacify-player-may.yaml"
    summary = attack_step(load_position(pacify), limit=0).summary
    assert summary is not None
    assert summary.may_fall == ("golem",) and summary.must_fall == ()


@pytest.mark.generated
@pytest.mark.parametrize("seed", FIELD_SEEDS[:2])
def test_a_split_summary_agrees_with_the_whole_step(seed: int) -> None:
    position = boards.armed(boards.field(seed, 150, 20), seed)
    side = position.turn.faction
    whole = CombatQuery(ATTACK, STEP, side, combat_ai(position, side, None), _may_attack(position, side),
                        readings=resolve(position.readings))
    assert attack_step(copy.deepcopy(position), limit=0).summary == step_summary(position, whole, None)
