"""The steps table (adjudicator/questions/steps.py) is what the CLI, the page, the position files and
the whole turn read: each entry must be complete, and each reader must offer every entry."""

import inspect

import pytest

from adjudicator.cli import app
from adjudicator.position.talents import TURN_STEPS
from adjudicator.questions.coverage import QUESTION_STEPS
from adjudicator.questions.expectations import CHECKS
from adjudicator.questions.steps import PLAYED_STEPS, STEPS, WAVE_STEP, Step
from adjudicator.show import render_text
from adjudicator.web.api import QUESTIONS


@pytest.mark.parametrize("step", STEPS, ids=[s.name for s in STEPS])
def test_each_entry_names_a_question_that_takes_its_options_and_a_renderer(step: Step) -> None:
    taken = set(inspect.signature(step.answer()).parameters)
    wanted = {"limit", "deadline", *step.options} | ({"ai"} if step.sides else set()) | (
        {"progress"} if step.progress else set())
    assert wanted <= taken
    assert callable(getattr(render_text, step.renderer))


def test_every_step_is_a_command_a_page_question_and_an_expectation() -> None:
    commands = {c.name for c in app.registered_commands}
    for step in STEPS:
        assert step.name in commands
        assert step.name in QUESTIONS
        assert step.name in CHECKS
        assert (f"ai-{step.name}" in CHECKS) is step.sides


def test_the_whole_turn_plays_the_steps_in_turn_order_and_each_has_its_notices() -> None:
    places = [s.place for s in PLAYED_STEPS]
    assert places == sorted(places, key=TURN_STEPS.index)
    # The end of the wave has notices of its own too, but no place in turn order: the turn plays it
    # where a step ends the wave.
    assert {s.mode for s in (*PLAYED_STEPS, WAVE_STEP)} == set(QUESTION_STEPS)
    assert WAVE_STEP not in PLAYED_STEPS and WAVE_STEP.place == "end-of-wave"
    assert all(s.place in s.acts for s in PLAYED_STEPS)


def test_an_option_the_step_does_not_take_is_refused() -> None:
    movement = next(s for s in STEPS if s.name == "movement-step")
    with pytest.raises(TypeError, match="die"):
        movement.ask(None, die=None)
