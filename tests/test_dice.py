"""The spire attack die as data, and Spires Fire's exact odds checked by hand."""

from dataclasses import replace
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

from adjudicator.questions.adjudicate import spires_fire
from adjudicator.position.dice import DieFileError, die_names, load_die, shipped_die
from adjudicator.position.load import load_position
from adjudicator.position.data import parse_yaml
from adjudicator.position.readings import READINGS

from tests.profiles import in_fixed_share

ROOT = Path(__file__).resolve().parent.parent
ONE_DIE = ROOT / "positions" / "rules" / "spires-fire-one-die.yaml"  # 1 attack upgrade, 2 health
TWO_DICE = ROOT / "positions" / "rules" / "spires-fire-two-dice.yaml"  # 2 attack upgrades, 3 health


def test_two_dice_against_three_health_by_hand() -> None:
    # Every ordered pair of faces of the shipped table, counted one by one: defeated needs 3 or 4.
    faces = [f.damage for f in shipped_die("standard").faces]
    pairs = list(product(faces, repeat=2))
    by_hand = {
        "nothing changes": Fraction(sum(a + b == 0 for a, b in pairs), len(pairs)),
        "harrier health 2": Fraction(sum(a + b == 1 for a, b in pairs), len(pairs)),
        "harrier health 1": Fraction(sum(a + b == 2 for a, b in pairs), len(pairs)),
        "harrier defeated": Fraction(sum(a + b >= 3 for a, b in pairs), len(pairs)),
    }
    assert by_hand == {"nothing changes": Fraction(4, 36), "harrier health 2": Fraction(12, 36),
                       "harrier health 1": Fraction(13, 36), "harrier defeated": Fraction(7, 36)}
    result = spires_fire(load_position(TWO_DICE))
    assert {r.end.describe(): r.probability for r in result.results} == by_hand


# The positions with spires: Spires Fire on the others has nothing to fire. A fixed third of them in a
# normal run (the suite's budget; the agreement checks add up Spires Fire's odds on generated boards too).
ARMED = [p for p in sorted((ROOT / "positions").rglob("*.yaml"))
         if parse_yaml(p.read_text(encoding="utf-8")).get("spires") and in_fixed_share(str(p.relative_to(ROOT)), 3)]


@pytest.mark.parametrize("path", ARMED, ids=lambda p: p.name)
def test_probabilities_add_up_to_exactly_one(path: Path) -> None:
    result = spires_fire(load_position(path))
    plans: dict[tuple[tuple[str, str], ...], Fraction] = {}
    for r in result.results:
        plans[r.choices] = plans.get(r.choices, Fraction(0)) + r.probability
    if not result.decisions:
        assert sum(plans.values()) == 1


def test_the_spire_die_reading_picks_a_table() -> None:
    assert READINGS["spire-die"].values == die_names() == ("standard", "two-twos")
    position = load_position(ONE_DIE)
    # two-twos: miss, blank, 1, 1, 2, 2 against 2 health: a third each of nothing, 1 and defeat.
    switched = spires_fire(replace(position, readings={"spire-die": "two-twos"}))
    assert sorted(r.probability for r in switched.results) == [Fraction(1, 3)] * 3
    assert sorted(r.probability for r in spires_fire(position).results) == [Fraction(1, 6), Fraction(1, 3), Fraction(1, 2)]


def test_a_die_file_replaces_the_table(tmp_path: Path) -> None:
    path = tmp_path / "die.yaml"
    path.write_text("name: sure hit\nfaces:\n  - {face: '2', damage: 2}\n")
    result = spires_fire(load_position(ONE_DIE), load_die(path))
    assert [(r.probability, r.end.describe()) for r in result.results] == [(Fraction(1), "harrier defeated")]


@pytest.mark.parametrize(
    "text",
    ["faces: []", "faces: [{face: x, damage: -1}]", "not a table", "faces: [{damage: 1}]", "faces: [x",
     "faces: [{face: x, damage: 31}]", "faces: [{face: x, damage: 2147483648}]"],
)
def test_a_bad_die_file_says_what_is_expected(tmp_path: Path, text: str) -> None:
    path = tmp_path / "die.yaml"
    path.write_text(text)
    with pytest.raises(DieFileError, match="die.yaml"):
        load_die(path)


def test_rock_rolls_cost_one_health_a_miss_and_defeat_at_its_life() -> None:
    from adjudicator.answers.rolls import roll_odds

    # one miss face in six (spire-die=standard); 2 dice, 2 health: the second miss defeats it
    assert roll_odds(2, 2, shipped_die("standard")) == ((0, Fraction(25, 36)), (1, Fraction(10, 36)),
                                                        (2, Fraction(1, 36)))
    # 3 dice, 1 health: the first miss defeats it, wherever it falls
    assert roll_odds(3, 1, shipped_die("standard")) == ((0, Fraction(125, 216)), (1, Fraction(91, 216)))
    # more health than dice: never defeated
    assert roll_odds(1, 3, shipped_die("standard")) == ((0, Fraction(5, 6)), (1, Fraction(1, 6)))


def test_relentless_totals_follow_the_closed_form() -> None:
    # Standard die: goes on after a miss (0, 1/6) or a 1 (1, 1/2), stops on a blank (0) or a 2 (2),
    # each 1/6. By hand (docs/combat.md, Relentless): P(v) = (3/5)^v / 5 + (3/5)^(v-2) / 5 for v >= 2.
    die = shipped_die("standard")
    def exact(v: int) -> Fraction:
        return Fraction(3, 5) ** v / 5 + (Fraction(3, 5) ** (v - 2) / 5 if v >= 2 else 0)
    odds = die.rolled_until(6)
    assert [odds[v] for v in range(6)] == [exact(v) for v in range(6)]
    assert odds[6] == 1 - sum(exact(v) for v in range(6))
    assert die.rolled_until(2) == {0: Fraction(1, 5), 1: Fraction(3, 25), 2: Fraction(17, 25)}


def test_relentless_counted_on_is_what_half_the_rolls_reach() -> None:
    # Standard die: P(total >= 2) = 1 - 1/5 - 3/25 = 17/25 >= 1/2; P(total >= 3) = 17/25 - 34/125 = 51/125 < 1/2.
    assert shipped_die("standard").counted_on() == 2


def test_relentless_needs_a_face_that_stops_it() -> None:
    die = replace(shipped_die("standard"), faces=tuple(f for f in shipped_die("standard").faces
                                                       if f.face not in ("blank", "2")))
    with pytest.raises(DieFileError, match="never stops"):
        die.rolled_until(3)
