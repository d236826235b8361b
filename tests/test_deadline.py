"""Deadlines in the question layer: a running solve is interrupted, and what was found is kept."""

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import clingo
import pytest

from adjudicator.position.load import load_position_text
from adjudicator.questions.whole_step import movement_step
from adjudicator.solving.solve import Deadline, TimedOut, models

from adjudicator.web import api
from adjudicator.web.api import Limits
from bench import boards
from tests.test_cli import BOARD, OPEN
from tests.web_server import running, send


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


# ------------------------------------------------------------------- the preparation bounded too

ROOT = Path(__file__).resolve().parent.parent
STOPPED = 10  # seconds a command given --timeout 0.5 may run before it counts as not stopping (was 12-40 s)


@pytest.fixture(scope="module")
def slow_boards(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A 26x99 board of 200 units, whose grounding takes seconds, and a 600-hex board at Spires Fire
    whose results take seconds to decode: each overran --timeout by many times before."""
    where = tmp_path_factory.mktemp("slow")
    large = boards.field(1, 2530, 200)
    files = {"move": large, "fire": boards.armed(boards.field(2, 600, 150), 2)}
    for name, position in files.items():
        (where / f"{name}.yaml").write_text(boards.position_yaml(position), encoding="utf-8")
    return {name: where / f"{name}.yaml" for name in files}


@pytest.mark.parametrize("command, board", [
    (["moves"], "move"),
    (["check", "--move", "m01 stay"], "move"),
    (["explain", "--move", "m01 stay"], "move"),
    (["spires-fire"], "fire"),
])
def test_a_command_stops_though_its_preparation_is_long(
    slow_boards: dict[str, Path], command: list[str], board: str
) -> None:
    # Run as its own program: the watchdog ends only such a process (adjudicator/cli.py).
    ran = subprocess.run([sys.executable, "-m", "adjudicator", command[0], str(slow_boards[board]), *command[1:],
                          "--timeout", "0.5", "--json"], cwd=ROOT, capture_output=True, text=True, timeout=STOPPED)
    assert ran.returncode == 4, ran.stderr
    answer = json.loads(ran.stdout)
    assert answer.get("complete") is False or answer["error"]["kind"] == "timeout"


def test_a_page_job_stops_though_its_preparation_is_long(slow_boards: dict[str, Path]) -> None:
    text = slow_boards["fire"].read_text(encoding="utf-8")
    with running(Limits(seconds=0.3)) as hurried:
        started = time.monotonic()
        _, job = send(hurried, "/api/jobs", {"position": {"yaml": text}, "question": "spires-fire"})
        while job["state"] == "running" and time.monotonic() - started < STOPPED:
            time.sleep(0.1)
            _, job = send(hurried, f"/api/jobs/{job['job']}")
    assert (job["state"] == "done" and not job["answer"]["complete"]) or job["error"]["kind"] == "timeout", job


def test_a_page_call_answers_timed_out_while_its_grounding_runs_on(monkeypatch: pytest.MonkeyPatch) -> None:
    # A call stuck where no deadline is checked (a grounding, which clingo cannot interrupt), released
    # 3 s later: answered "timed out" MARGIN past its 0.3 s, counted as busy until it returns (it was
    # answered only once it returned).
    release = threading.Event()

    def grounding(body: dict[str, object], limits: Limits) -> dict[str, object]:
        release.wait(60)
        return {"late": True}

    monkeypatch.setitem(api.CALLS, "options", grounding)
    threading.Timer(3, release.set).start()
    with running(Limits(seconds=0.3)) as hurried:
        status, answer = send(hurried, "/api/options", {})
        assert (status, answer["error"]["kind"]) == (503, "timeout")
        assert hurried.overrunning
        started = time.monotonic()
        while hurried.overrunning and time.monotonic() - started < 60:
            time.sleep(0.1)
        assert not hurried.overrunning  # let go of once it returns
