"""Answers kept for a loaded position (adjudicator/questions/kept.py): a question asked again of it
solves nothing and answers as a question asked of a fresh load of the same file."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.position.load import load_position
from adjudicator.questions import adjudicate
from adjudicator.web import api

ROOT = Path(__file__).resolve().parent.parent
# A player's and the AI's moves, a minion leading, and Survival's pre-questions (extra facts).
FILES = (
    "positions/rulebook/joust-harrier-jaelana.yaml",
    "positions/rulebook/treed-war-briar.yaml",
    "positions/talents/survival/survival-ai-holds.yaml",
)


@pytest.mark.parametrize("name", FILES)
def test_a_question_asked_again_is_kept_and_answers_as_a_fresh_one(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    position = load_position(ROOT / name)
    units = adjudicate.present_units(position, position.turn.faction)
    first = {(uid, ai): adjudicate.unit_options(position, uid, ai) for uid in units for ai in (False, True)}
    faction = {ai: adjudicate.faction_options(position, ai) for ai in (False, True)}

    def unasked(*args: object, **kwargs: object) -> None:
        raise AssertionError("a question asked again was solved again")

    with monkeypatch.context() as patched:
        patched.setattr(adjudicate, "solve", unasked)
        again = {(uid, ai): adjudicate.unit_options(position, uid, ai) for uid in units for ai in (False, True)}
        faction_again = {ai: adjudicate.faction_options(position, ai) for ai in (False, True)}
    # Each asked of a position of its own, which has nothing kept.
    assert again == first == {(uid, ai): adjudicate.unit_options(load_position(ROOT / name), uid, ai)
                              for uid, ai in first}
    assert faction_again == faction == {ai: adjudicate.faction_options(load_position(ROOT / name), ai)
                                        for ai in (False, True)}


def test_an_attack_question_asked_again_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    name = "positions/faq/faq-27-engage-in-and-out-of-range.yaml"
    position = load_position(ROOT / name)
    units = adjudicate.present_units(position, position.turn.faction)
    asked = [(uid, ai) for uid in (None, *units) for ai in (False, True)]
    first = [adjudicate.attack_options(position, uid, ai) for uid, ai in asked]

    def unasked(*args: object, **kwargs: object) -> None:
        raise AssertionError("an attack question asked again was solved again")

    with monkeypatch.context() as patched:
        patched.setattr(adjudicate, "solve_all", unasked)
        again = [adjudicate.attack_options(position, uid, ai) for uid, ai in asked]
    assert again == first == [adjudicate.attack_options(load_position(ROOT / name), uid, ai) for uid, ai in asked]
    # The AI's answer and the player's differ here, and neither was served for the other.
    assert first[0] != first[1]


def test_the_page_reads_a_text_once_for_each_choice_of_readings() -> None:
    text = (ROOT / FILES[0]).read_text(encoding="utf-8")
    body = {"position": {"yaml": text}}
    switched = {**body, "readings": {"displacement": "optional"}}
    assert api.load(body) is api.load({"position": {"yaml": text}})
    assert api.load(switched) is api.load(dict(switched))
    assert api.load(switched) is not api.load(body)
    assert api.load(switched).readings["displacement"] == "optional"


def test_one_units_attack_options_are_read_off_its_factions_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    # `check` of a claimed attack asks the attacker's options: once the faction's are kept (the page's
    # attack step, the position test), they serve, with the same outcomes a fresh solve of that unit finds.
    name = ROOT / "positions/faq/faq-27-engage-in-and-out-of-range.yaml"
    position = load_position(name)
    units = adjudicate.present_units(position, position.turn.faction)
    faction = {ai: adjudicate.attack_options(position, None, ai) for ai in (False, True)}

    def unasked(*args: object, **kwargs: object) -> None:
        raise AssertionError("a unit's attack options were solved again")

    with monkeypatch.context() as patched:
        patched.setattr(adjudicate, "solve_all", unasked)
        served = {(uid, ai): adjudicate.attack_options(position, uid, ai) for uid in units for ai in (False, True)}
    for (uid, ai), [options] in served.items():
        assert options == next(o for o in faction[ai] if o.unit == uid)
        [fresh] = adjudicate.attack_options(load_position(name), uid, ai)
        assert set(fresh.outcomes) == set(options.outcomes) and fresh.must_attack == options.must_attack
