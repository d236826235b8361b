"""The sweep (bench/sweep.py) still runs: a tiny sweep of every check, and the path a disagreement
takes, from the worker to the position file written."""

from __future__ import annotations

import os
import signal
import time
from dataclasses import replace
from pathlib import Path

import pytest

from adjudicator.position.load import load_position

from bench import sweep


def test_a_tiny_sweep_of_every_check_agrees(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # One position per check proves the machinery; the sweeps themselves run in python -m bench.sweep.
    status = sweep.main(["--positions", "1", "--workers", "1", "--seed", "3", "--timeout", "2",
                         "--out", str(tmp_path)])
    shown = capsys.readouterr().out
    assert status == 0, shown
    rows = {line.split()[0]: line.split()[1:] for line in shown.splitlines()[2:]}
    assert list(rows) == [*sweep.CHECKS, "total"]
    for name in sweep.CHECKS:
        checked, timed_out, over_memory, _, _, disagreements = rows[name]
        assert int(checked) + int(timed_out) + int(over_memory) == 1 and disagreements == "0", shown
    assert not list(tmp_path.iterdir())


def test_the_same_seed_draws_the_same_positions() -> None:
    check = sweep.CHECKS["faction-options"]
    first = [check.document(s) for s in sweep.distinct_samples(check, 3, 11, first=False)]
    assert first == [check.document(s) for s in sweep.distinct_samples(check, 3, 11, first=False)]
    assert len(set(first)) == 3


@pytest.mark.parametrize("name", [n for n, c in sweep.CHECKS.items() if not c.raw])
def test_every_check_draws_positions_the_loader_accepts(name: str, tmp_path: Path) -> None:
    # A board no file could give proves nothing about the rules: a chapter's board keeps its controllers,
    # marks and kinds, a dropped talent what rests on it.
    check = sweep.CHECKS[name]
    for index, sample in enumerate(sweep.draw_samples(check.strategy(), 3, 14)):
        path = tmp_path / f"{index}.yaml"
        path.write_text(check.document(sample), encoding="utf-8")
        load_position(path)


def test_a_disagreement_is_written_as_a_position_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    always = replace(sweep.CHECKS["faction-options"], name="always", compare=lambda s: "made up",
                     reload=lambda path, s: load_position(path) and "made up")
    monkeypatch.setitem(sweep.CHECKS, "always", always)
    done = sweep.run_task(sweep.Task("always", 0, 3, 5, 10.0, 2**31))
    assert (done.checked, done.timed_out) == (1, 0) and done.found is not None
    assert done.found.reproduced == "the file reproduces it"
    path = sweep._write(done.found, tmp_path, 5)
    assert path.parent == tmp_path and "# made up" in path.read_text(encoding="utf-8")
    load_position(path)  # the comments above the position leave it loadable


def test_a_sweep_in_parts_draws_no_chunk_its_ledger_holds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # 10,000 positions of every check is more than one sitting of two cores: the ledger carries the chunks done.
    monkeypatch.setitem(sweep.CHECKS, "ledgered", replace(sweep.CHECKS["load"], name="ledgered", chunk=2))
    ledger, lines = tmp_path / "ledger.jsonl", []
    assert sweep.sweep(["ledgered"], 3, 1, 4, tmp_path, 10.0, 2**31, lines.append, ledger) == 0
    assert len(ledger.read_text(encoding="utf-8").splitlines()) == 2  # chunks of 2 and 1 positions
    # Were a chunk drawn again, this comparison would disagree.
    monkeypatch.setitem(sweep.CHECKS, "ledgered", replace(sweep.CHECKS["ledgered"], compare=lambda s: "made up"))
    lines.clear()
    assert sweep.sweep(["ledgered"], 3, 1, 4, tmp_path, 10.0, 2**31, lines.append, ledger) == 0, lines
    assert lines[-1].endswith(": 3 of the positions checked were checked in an earlier run")
    assert lines[2].split()[1] == "3"
    # Another seed, or a chunk of another size (5 positions: chunk 1 holds 2 now), is drawn.
    assert sweep.sweep(["ledgered"], 3, 1, 5, tmp_path, 10.0, 2**31, lines.append, ledger) == 1
    assert sweep.sweep(["ledgered"], 5, 1, 4, tmp_path / "b", 10.0, 2**31, lines.append, ledger) == 1


def test_a_fuzzed_file_is_written_byte_for_byte(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    always = replace(sweep.CHECKS["load"], name="always-load", compare=lambda s: "made up")
    monkeypatch.setitem(sweep.CHECKS, "always-load", always)
    done = sweep.run_task(sweep.Task("always-load", 0, 2, 8, 10.0, 2**31))
    assert done.found is not None
    assert done.found.reproduced == "the file does not reproduce it: the position loaded from it agrees"
    path = sweep._write(done.found, tmp_path, 8)
    assert path.read_bytes() == done.found.document.encode("utf-8")
    assert "made up" in path.with_suffix(".txt").read_text(encoding="utf-8")


def _never_returns(sample: object) -> str | None:
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM, signal.SIGINT})  # as deaf as a long grounding
    time.sleep(600)
    return None


def _grows(sample: object) -> str | None:
    hoard = []
    while True:
        hoard.append(bytearray(2**26))


def test_a_position_past_its_time_or_memory_is_counted_and_the_next_one_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    # The sweep's worker once hung for 90 minutes at 3 GB on one position an alarm could not stop.
    check = sweep.CHECKS["faction-options"]
    first = check.document(sweep.distinct_samples(check, 3, 5, first=True)[0])
    for compare, counted, seconds in ((_never_returns, "timed_out", 1.0), (_grows, "over_memory", 60.0)):
        stuck = replace(check, name="stuck",
                        compare=lambda s, compare=compare: compare(s) if check.document(s) == first else None)
        monkeypatch.setitem(sweep.CHECKS, "stuck", stuck)
        started = time.monotonic()
        done = sweep.run_task(sweep.Task("stuck", 0, 3, 5, seconds, 2**31))
        assert (done.checked, getattr(done, counted), done.found) == (2, 1, None)
        assert time.monotonic() - started < 60 + seconds


def test_a_process_that_dies_on_a_position_is_a_finding(monkeypatch: pytest.MonkeyPatch) -> None:
    dies = replace(sweep.CHECKS["faction-options"], name="dies", compare=lambda s: os.kill(os.getpid(), signal.SIGKILL))
    monkeypatch.setitem(sweep.CHECKS, "dies", dies)
    done = sweep.run_task(sweep.Task("dies", 0, 2, 5, 10.0, 2**31))
    assert done.found is not None and done.found.sample == 0
    assert "died (SIGKILL)" in done.found.problem  # as the kernel's out-of-memory killer would
