"""Deadlines in the question layer: a running solve is interrupted, and what was found is kept."""

import time

import clingo
import pytest

from adjudicator.position.load import load_position_text
from adjudicator.questions.whole_step import movement_step
from adjudicator.solving.solve import Deadline, TimedOut, models

from tests.test_cli import BOARD, OPEN


def test_a_running_search_is_interrupted() -> None:
    # Twelve pigeons, eleven holes: no answer set, and a long search to prove it.
    control = clingo.Control(["0"])
    control.add("base", [], "p(1..12). h(1..11). 1 { in(P,H) : h(H) } 1 :- p(P). :- in(P,H), in(Q,H), P < Q.")
    control.ground([("base", [])])
    ticks: list[int] = []
    started = time.monotonic()
    with pytest.raises(TimedOut):
        list(models(control, Deadline(0.3), ticks.append))
    assert time.monotonic() - started < 5


class _PassesOnceFound(Deadline):
    """A deadline that passes as soon as a board is reported, however busy the machine."""

    def __init__(self) -> None:
        super().__init__(60)
        self.found = False

    def remaining(self) -> float:
        return 0.0 if self.found else super().remaining()


def test_the_movement_step_keeps_the_boards_found() -> None:
    found: list[int] = []
    deadline = _PassesOnceFound()

    def heard(count: int) -> None:
        found.append(count)
        deadline.found = deadline.found or count > 0

    result = movement_step(load_position_text(OPEN), limit=None, deadline=deadline, progress=heard)
    # Boards found, each shown with its moves until the deadline: then the rest are only counted.
    assert not result.complete and 0 < len(result.outcomes) <= result.count and found
    done = movement_step(load_position_text(BOARD), deadline=Deadline(60))
    assert done.complete and done.count > 1


def test_bad_limits_and_deadlines_are_refused() -> None:
    with pytest.raises(ValueError):
        Deadline(0)
    with pytest.raises(ValueError):
        movement_step(load_position_text(BOARD), limit=-1)
