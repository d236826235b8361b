"""Sweep: the solver against the brute-force reference on many generated positions, and the loader
on many fuzzed position files, across a process pool; stops at the first disagreement.

    python -m bench.sweep --positions 2000 --workers 2 --seed 7

Not part of the test run (tests/test_sweep.py only smoke-tests it).  See bench/README.md.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import math
import multiprocessing
import os
import random
import resource
import signal
import sys
import time
import traceback
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent  # the repository root, where tests/ lives
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from adjudicator.position.load import load_position  # noqa: E402
from adjudicator.position.model import Controller, Position  # noqa: E402

from tests import comparisons as cmp  # noqa: E402
from tests.combat_strategies import combat_positions, describe_combat  # noqa: E402
from tests.load_fuzz import fuzzed_files, load_problem  # noqa: E402
from tests.strategies import (  # noqa: E402
    ablaze, acting, affordable_step, allied, blazing, crowded_lanes, describe, dispersing, grafted_boards, healing, motile,
    positions, refreshing, rifted, rocky, scorching, tracking, unhurt, veined,
)

# ------------------------------------------------------------------------------------ the checks


@dataclass(frozen=True)
class Check:
    """One kind of check: how to draw a sample, compare on it, and write it to a file."""

    name: str
    what: str
    strategy: Callable[[], st.SearchStrategy[Any]]
    compare: Callable[[Any], str | None]  # None: agree; else the disagreement, as text
    document: Callable[[Any], str]  # the sample as a file that reproduces it
    reload: Callable[[Path, Any], str | None] | None  # the comparison again, on the file written
    command: Callable[[Any], str]  # the cloudspire command that asks the same question
    chunk: int  # samples per task; fixed, so the samples drawn do not depend on --workers
    raw: bool = False  # the document is the file's exact text: notes go beside it, not into it


@st.composite
def _with_turn_unit(draw: st.DrawFn) -> tuple[Position, str]:
    position = draw(combat_positions())
    return position, draw(st.sampled_from(cmp.turn_units(position)))


def _ai_flag(ai: bool) -> str:
    return " --ai" if ai else ""


CHECKS = {
    c.name: c
    for c in (
        Check(
            "unit-options", "unit_options of each heirs unit (one solve per unit)",
            lambda: st.tuples(positions(), st.booleans()),
            lambda s: cmp.unit_options_problem(*s),
            lambda s: describe(s[0]),
            lambda path, s: cmp.unit_options_problem(load_position(path), s[1]),
            lambda s: f"cloudspire moves FILE --unit UNIT{_ai_flag(s[1])}  (each heirs unit, ai={s[1]})",
            50,
        ),
        Check(
            "faction-options", "faction_options (one solve for the faction)",
            positions,
            cmp.faction_options_problem,
            describe,
            lambda path, s: cmp.faction_options_problem(load_position(path)),
            lambda s: "cloudspire moves FILE",
            50,
        ),
        Check(
            "movement-step", "the whole movement step",
            lambda: st.tuples(positions(), st.booleans()),
            lambda s: cmp.movement_step_problem(*s),
            lambda s: describe(s[0]),
            lambda path, s: cmp.movement_step_problem(load_position(path), s[1]),
            lambda s: f"cloudspire movement-step FILE --all{_ai_flag(s[1])}",
            10,
        ),
        Check(
            "whole-solve", "the whole step in one solve against the search, where the solve answers",
            lambda: st.tuples(positions().map(unhurt).map(cmp.solved).filter(cmp.solvable), st.booleans()),
            lambda s: cmp.solve_search_problem(*s),
            lambda s: describe(s[0]),
            lambda path, s: cmp.solve_search_problem(load_position(path), s[1]),
            lambda s: f"cloudspire movement-step FILE --all{_ai_flag(s[1])}",
            10,
        ),
        Check(
            "step-summary", "the whole step's summary and every order of moves it shows, replayed",
            lambda: st.tuples(positions(), st.booleans()),
            lambda s: cmp.summary_problem(*s),
            lambda s: describe(s[0]),
            lambda path, s: cmp.summary_problem(load_position(path), s[1]),
            lambda s: f"cloudspire movement-step FILE --all{_ai_flag(s[1])}",
            10,
        ),
        Check(
            "attack-options", "attack_options of the faction (one solve)",
            combat_positions,
            cmp.attack_options_problem,
            describe_combat,
            lambda path, s: cmp.attack_options_problem(load_position(path)),
            lambda s: "cloudspire attacks FILE",
            50,
        ),
        Check(
            "unit-attack-options", "attack_options of one unit",
            _with_turn_unit,
            lambda s: cmp.one_unit_attack_options_problem(*s),
            lambda s: describe_combat(s[0]),
            lambda path, s: cmp.one_unit_attack_options_problem(load_position(path), s[1]),
            lambda s: f"cloudspire attacks FILE --unit {s[1]}",
            50,
        ),
        Check(
            "attack-step", "the whole attack step",
            combat_positions,
            cmp.attack_step_problem,
            describe_combat,
            lambda path, s: cmp.attack_step_problem(load_position(path)),
            lambda s: "cloudspire attack-step FILE --all",
            20,
        ),
        Check(
            "spires-fire", "Spires Fire, exact odds",
            lambda: combat_positions(firing=True).map(cmp.at_spires_fire),
            cmp.spires_fire_problem,
            describe_combat,
            lambda path, s: cmp.spires_fire_problem(load_position(path)),
            lambda s: "cloudspire spires-fire FILE --all",
            20,
        ),
        Check(
            "load", "the loader on a fuzzed position file",
            fuzzed_files,
            load_problem,
            lambda text: text,
            lambda path, s: load_problem(path.read_bytes().decode("utf-8")),
            lambda s: "cloudspire validate FILE",
            100,
            raw=True,
        ),
    )
}


def among_allies(check: Check) -> Check:
    """The check on its boards played in Harbinger chapter 7, their other units split between an ally
    and the Graft (tests/strategies.py, allied)."""
    return replace(check, name=f"allied-{check.name}", what=f"{check.what}, in Harbinger chapter 7 among allies",
                   strategy=lambda: allied(check.strategy()))


Boards = Callable[[st.SearchStrategy[Position]], st.SearchStrategy[Position]]


def remade(check: Check, prefix: str, where: str, make: Boards) -> Check:
    """The check on its boards remade by ``make`` (a strategy of tests/strategies.py taking boards);
    a (board, flag) sample keeps its flag."""
    def sample(drawn: Any) -> st.SearchStrategy[Any]:
        if isinstance(drawn, tuple):
            return st.tuples(make(st.just(drawn[0])), *(st.just(s) for s in drawn[1:]))
        return make(st.just(drawn))

    return replace(check, name=f"{prefix}-{check.name}", what=f"{check.what}, {where}",
                   strategy=lambda: check.strategy().flatmap(sample))


CHECKS |= {c.name: c for c in (among_allies(CHECKS[n]) for n in ("faction-options", "attack-options", "spires-fire"))}
CHECKS |= {c.name: c for c in (remade(CHECKS[n], "rocky", "in Harbinger chapter 1 among floating rocks", rocky)
                               for n in ("unit-options", "faction-options", "movement-step"))}
# The talents' own boards, kept out of the common pools (tests/test_agreement.py checks each on a few).
CHECKS |= {c.name: c for c in (
    remade(CHECKS["unit-options"], "rifted", "with Riftwalk or Naroran Rift spires", rifted),
    remade(CHECKS["unit-options"], "refreshing", "shada units beside Refresh spires on water", refreshing),
    remade(CHECKS["unit-options"], "dispersing", "AI minions with Disperse", dispersing),
    remade(CHECKS["unit-options"], "motile", "heroes with Motility and the reservoir given", motile),
    remade(CHECKS["unit-options"], "veined", "in Harbinger chapter 4 beside the Source vein", veined),
    remade(CHECKS["unit-options"], "consuming", "units with Consume beside wounded heroes",
           lambda boards: acting(boards, "Consume")),
    remade(CHECKS["unit-options"], "returning", "units with Yrtel's Way beside wounded minions",
           lambda boards: acting(boards, "Yrtel's Way")),
)}
# Incorporeal, Breakneck and Crush where something stands in the way, on a minion or a hero (crowded_lanes).
CHECKS |= {c.name: c for c in (
    replace(CHECKS[n], name=f"passing-{n}", what=f"{CHECKS[n].what}, a passing-talent minion or hero in a crowded lane",
            strategy=lambda: st.tuples(crowded_lanes(), st.booleans()))
    for n in ("unit-options", "movement-step")
)}


def among_healers(check: Check) -> Check:
    """The check on its boards played in Harbinger chapter 8 between the narora and the Graft, whose
    attacks and retaliations heal Graft units (tests/strategies.py, healing)."""
    return replace(check, name=f"healing-{check.name}", what=f"{check.what}, in Harbinger chapter 8, narora and Graft",
                   strategy=lambda: healing(check.strategy()))


CHECKS |= {c.name: c for c in (among_healers(CHECKS[n]) for n in ("attack-options", "attack-step"))}


def under_snare(check: Check) -> Check:
    """The check on its boards played in Harbinger chapter 2 between the Graft and the heirs, where
    Grafted Snare ignores talents beside Graft units (tests/strategies.py, grafted_boards)."""
    return replace(check, name=f"snared-{check.name}", what=f"{check.what}, in Harbinger chapter 2, Graft and heirs",
                   strategy=lambda: grafted_boards(check.strategy()))


CHECKS |= {c.name: c for c in (under_snare(CHECKS[n]) for n in ("attack-options", "attack-step", "spires-fire"))}


def _solved_boards(make: Boards, ai: bool) -> Callable[[], st.SearchStrategy[Position]]:
    """Boards ``make`` remakes from those the one solve may answer, kept where it does (its grounding
    too: whole.lp wtouch/2), so that the check reaches the solve and not the search."""
    return lambda: make(positions().map(unhurt).map(cmp.solved).filter(cmp.solvable).filter(affordable_step)).filter(
        lambda p: cmp.answered_by_solve(p, ai))


def _solve_reference_problem(position: Position, ai: bool) -> str | None:
    """The step the one solve answers against the reference's boards, and its summary and orders replayed
    through the reference: the search, many times slower, is left to the tests (whole_solve_problem)."""
    return cmp.movement_step_problem(position, ai) or cmp.summary_problem(position, ai)


# The talents the one solve takes in where they may act (tests/test_whole_step.py checks each on a few):
# Blaze on the AI's units and on a player's (ablaze; blazing: forest beside the AI's; scorching: its damage
# dealt), a player's Tracker
# (tracking).
def _solve_check(name: str, what: str, boards: Boards, ai: bool) -> Check:
    """The whole step in one solve with ``what`` on the boards it answers (``boards``, a strategy's map),
    against the reference and its own summary and orders."""
    return Check(name, f"the whole step in one solve with {what}, against the reference and its own summary and "
                 "orders", _solved_boards(boards, ai), lambda s: _solve_reference_problem(s, ai), describe,
                 lambda path, s: _solve_reference_problem(load_position(path), ai),
                 lambda s: "cloudspire movement-step FILE --all" + (" --ai" if ai else ""), 10)


CHECKS |= {c.name: c for c in (
    _solve_check("ablaze-whole-solve", "Blaze on the AI's units", lambda boards: boards.map(ablaze), True),
    _solve_check("blazing-whole-solve", "Blaze on the AI's minions and forest beside them", blazing, True),
    _solve_check("scorching-whole-solve", "Blaze on the AI's minions, forest on their way beside opposing units",
                 scorching, True),
    _solve_check("played-ablaze-whole-solve", "a player's Blaze on the moving units",
                 lambda boards: boards.map(lambda p: ablaze(p, Controller.PLAYER)), False),
    _solve_check("tracking-whole-solve", "a player's Tracker on moving units", tracking, False),
)}
CHECKS["load"] = CHECKS.pop("load")  # the loader's check last, as before

# ------------------------------------------------------------------------------------ drawing


def chunk_seed(sweep_seed: int, check: str, index: int) -> int:
    """The hypothesis seed of one task: a function of the sweep's seed, the check and the chunk."""
    digest = hashlib.sha256(f"{sweep_seed}/{check}/{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def draw_samples(strategy: st.SearchStrategy[Any], count: int, task_seed: int) -> list[Any]:
    """``count`` samples of ``strategy`` (fewer only if hypothesis stops early), the same ones for
    the same seed.

    Hypothesis's own engine draws them: a ``@given`` function that only collects its arguments, run
    under ``@seed`` with the generate phase alone (no database, no replay of earlier failures, no
    shrinking, no health checks), so nothing outside the seed decides what is drawn.
    """
    drawn: list[Any] = []

    @seed(task_seed)
    @settings(
        max_examples=count,
        database=None,
        derandomize=False,
        phases=[Phase.generate],
        deadline=None,
        suppress_health_check=list(HealthCheck),
        report_multiple_bugs=False,
        print_blob=False,
    )
    @given(strategy)
    def collect(sample: Any) -> None:
        drawn.append(sample)

    collect()
    return drawn


# Hypothesis repeats itself a little: different choices can build the same position, and every run
# starts from the simplest example. A task draws a quarter more than it needs and skips repeats,
# and draws again (up to ROUNDS times in all) while it is still short.
SLACK = 1.25
ROUNDS = 5


def distinct_samples(check: Check, count: int, task_seed: int, first: bool) -> list[Any]:
    """``count`` samples for one task, none repeated within it; only the first task keeps the
    strategy's simplest example, which every hypothesis run draws first."""
    seen = set() if first else {_key(check, _simplest(check.name))}
    kept: list[Any] = []
    for round in range(ROUNDS):  # short of ``count``: draw again, from the next seed
        wanted = count - len(kept)
        for sample in draw_samples(check.strategy(), math.ceil(wanted * SLACK) + 1, task_seed + round):
            key = _key(check, sample)
            if key not in seen:
                seen.add(key)
                kept.append(sample)
        if len(kept) >= count:
            break
    return kept[:count]


def _key(check: Check, sample: Any) -> str:
    return check.document(sample) + "\n" + check.command(sample)


@functools.cache
def _simplest(name: str) -> Any:
    return draw_samples(CHECKS[name].strategy(), 1, 0)[0]


# ------------------------------------------------------------------------------------ the worker


@dataclass(frozen=True)
class Task:
    check: str
    index: int
    count: int
    seed: int
    timeout: float
    memory: int  # bytes of address space the process comparing a position may use


@dataclass
class Found:
    """A disagreement: the comparison's text, the sample as a file, and how to ask again."""

    check: str
    index: int
    sample: int
    seed: int
    problem: str
    document: str
    command: str
    reproduced: str = ""


@dataclass
class Done:
    check: str
    index: int
    checked: int = 0
    timed_out: int = 0
    over_memory: int = 0
    seconds: float = 0.0
    found: Found | None = None


_stop: Any = None  # a multiprocessing Event, set once any worker finds a disagreement


def _init_worker(stop: Any) -> None:
    global _stop
    _stop = stop
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops the workers


def run_task(task: Task) -> Done:
    """Compares the task's positions in a forked child, which the worker kills once a position runs past
    the timeout: neither a long grounding inside clingo nor an enumeration that never hands back can
    hold a worker, as an alarm in the comparing process could. The child keeps its caches from one
    position to the next; only a killed one is forked again, from the next position."""
    check = CHECKS[task.check]
    done = Done(task.check, task.index)
    started = time.perf_counter()
    samples = distinct_samples(check, task.count, task.seed, first=task.index == 0)
    number = 0
    while number < len(samples) and done.found is None and not (_stop is not None and _stop.is_set()):
        number = _compare_from(check, samples, number, task, done)
    done.seconds = time.perf_counter() - started
    return done


def _compare_from(check: Check, samples: list[Any], first: int, task: Task, done: Done) -> int:
    """Compares ``samples[first:]`` in one forked child, counting into ``done``; the number of the
    position to go on from once the child has ended (len(samples) when all are done)."""
    receive, send = multiprocessing.Pipe(duplex=False)
    child = os.fork()
    if child == 0:  # the child: compare, report each step, and never return into the worker's code
        receive.close()
        status = 1  # an exception escaping the child (one it could not even report) is its death
        try:
            _child(check, samples, first, task.memory, send)
            status = 0
        finally:
            os._exit(status)
    send.close()
    current, reproducing = first, False
    try:
        while True:
            if not receive.poll(task.timeout):
                os.kill(child, signal.SIGKILL)
                if reproducing:
                    assert done.found is not None
                    done.found.reproduced = f"not known: re-checking it ran past {task.timeout:g} s"
                    return len(samples)
                done.timed_out += 1
                return current + 1
            try:
                message = receive.recv()
            except EOFError:  # the child ended: after the last position, or killed from outside
                break
            match message:
                case ("start", number):
                    current = number
                case ("checked", None):
                    done.checked += 1
                case ("checked", problem):
                    done.checked += 1
                    done.found = Found(task.check, task.index, current, task.seed, problem,
                                       check.document(samples[current]), check.command(samples[current]))
                    if _stop is not None:
                        _stop.set()
                    reproducing = True
                case ("reproduced", text):
                    assert done.found is not None
                    done.found.reproduced = text
                    return len(samples)
                case ("memory", _):
                    done.over_memory += 1
                    return current + 1
    finally:
        receive.close()
        _, status = os.waitpid(child, 0)
    if status != 0 and done.found is None:
        # Not killed by the worker (that returned above): a crash of either side is a finding too.
        how = signal.Signals(os.WTERMSIG(status)).name if os.WIFSIGNALED(status) else f"exit status {os.WEXITSTATUS(status)}"
        done.checked += 1
        done.found = Found(task.check, task.index, current, task.seed,
                           f"{check.name}: the process comparing this position died ({how})",
                           check.document(samples[current]), check.command(samples[current]))
    return len(samples)


def _child(check: Check, samples: list[Any], first: int, memory: int, send: Any) -> None:
    """The forked child's work: each position from ``first`` on, under the memory cap, each step sent
    to the worker; it stops after a disagreement (re-checked from its file) or running out of memory."""
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    for number in range(first, len(samples)):
        if _stop is not None and _stop.is_set():
            return
        send.send(("start", number))
        try:
            problem = check.compare(samples[number])
        except MemoryError:
            send.send(("memory", number))
            return
        except Exception:  # noqa: BLE001 - a crash of either side is a finding too
            problem = f"{check.name}: an exception on this position:\n{traceback.format_exc()}"
        send.send(("checked", problem))
        if problem is not None:
            send.send(("reproduced", _reproduces(check, samples[number])))
            return


def _reproduces(check: Check, sample: Any) -> str:
    """Writes the file to a scratch place, runs the comparison on what loads from it, and says
    whether the disagreement is still there."""
    import tempfile

    if check.reload is None:
        return ""
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "sweep.yaml"
        path.write_bytes(check.document(sample).encode("utf-8"))
        try:
            again = check.reload(path, sample)
        except Exception as error:  # noqa: BLE001 - a crash there is a finding too, reported
            return f"re-checking it raised {type(error).__name__}: {error}"
    if again is None:
        return "the file does not reproduce it: the position loaded from it agrees"
    return "the file reproduces it"


# ------------------------------------------------------------------------------------ the parent


@dataclass
class Tally:
    checked: int = 0
    timed_out: int = 0
    over_memory: int = 0
    disagreements: int = 0
    wall: float = 0.0
    worker_seconds: float = 0.0
    carried: int = 0  # positions checked in an earlier run (the ledger's chunks): not in this run's rate


def tasks_for(check: Check, positions: int, sweep_seed: int, timeout: float, memory: int) -> list[Task]:
    chunks = math.ceil(positions / check.chunk)
    return [
        Task(check.name, i, min(check.chunk, positions - i * check.chunk), chunk_seed(sweep_seed, check.name, i),
             timeout, memory)
        for i in range(chunks)
    ]


GIB = 2**30

NAME = max(len(name) for name in CHECKS)  # the check column, as wide as the longest name

HEADER = f"{'check':<{NAME}} {'positions':>9} {'timed out':>9} {'over memory':>11} {'seconds':>9} {'pos/s':>8} {'disagreements':>13}"


def _row(name: str, t: Tally) -> str:
    rate = (t.checked - t.carried) / t.wall if t.wall > 0 else 0.0
    return f"{name:<{NAME}} {t.checked:>9} {t.timed_out:>9} {t.over_memory:>11} {t.wall:>9.1f} {rate:>8.1f} {t.disagreements:>13}"


def _write(found: Found, out: Path, sweep_seed: int) -> Path:
    """The disagreeing sample as a file in ``out``, headed by comments saying what disagreed (for
    a fuzzed file, which must stay byte for byte as drawn, the notes go to a ``.txt`` beside it)."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"sweep-{found.check}-seed{sweep_seed}-chunk{found.index}-{found.sample}.yaml"
    notes = [
        f"bench.sweep disagreement: {found.check}, --seed {sweep_seed}, chunk {found.index}, "
        f"sample {found.sample} (hypothesis seed {found.seed})",
        f"ask again: {found.command.replace('FILE', str(path))}",
    ]
    if found.reproduced:
        notes.append(f"re-checked from this file: {found.reproduced}")
    notes += ["", *found.problem.replace(found.document, "(the position in this file)\n").splitlines()]
    if CHECKS[found.check].raw:
        path.write_bytes(found.document.encode("utf-8"))
        path.with_suffix(".txt").write_text("\n".join(notes) + "\n", encoding="utf-8")
    else:
        header = "\n".join(f"# {line}".rstrip() for line in notes)
        path.write_text(header + "\n" + found.document, encoding="utf-8")
    return path


class Ledger:
    """The chunks of a seed's sweep that finished in agreement, one JSON line each, so that a sweep too long
    for one sitting is done in parts: a chunk's positions are a function of the seed, the check and its
    index, so a chunk on the ledger is not drawn again. A chunk that disagreed, or was cut short, is not
    written: it runs again next time."""

    def __init__(self, path: Path | None, sweep_seed: int) -> None:
        self.path = path
        self.seed = sweep_seed
        self.done: dict[tuple[str, int], Done] = {}
        if path is not None and path.exists():
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                try:
                    entry = json.loads(line)
                    if entry["seed"] == sweep_seed:
                        self.done[entry["check"], entry["index"]] = Done(
                            entry["check"], entry["index"], entry["checked"], entry["timed_out"],
                            entry["over_memory"], entry["seconds"])
                except (ValueError, KeyError, TypeError) as error:
                    raise SystemExit(f"{path}, line {number}: not a ledger entry ({error}); expected one JSON "
                                     "object with seed, check, index, checked, timed_out, over_memory, seconds")

    def carried(self, task: Task) -> Done | None:
        done = self.done.get((task.check, task.index))
        return done if done is not None and done.checked + done.timed_out + done.over_memory == task.count else None

    def write(self, task: Task, done: Done) -> None:
        if self.path is None or done.found is not None or done.checked + done.timed_out + done.over_memory != task.count:
            return
        entry = {"seed": self.seed, "check": done.check, "index": done.index, "checked": done.checked,
                 "timed_out": done.timed_out, "over_memory": done.over_memory, "seconds": round(done.seconds, 3)}
        with self.path.open("a", encoding="utf-8") as ledger:
            ledger.write(json.dumps(entry) + "\n")


def _collect(tally: Tally, done: Done) -> None:
    tally.checked += done.checked
    tally.timed_out += done.timed_out
    tally.over_memory += done.over_memory
    tally.worker_seconds += done.seconds
    tally.disagreements += done.found is not None


def sweep(
    checks: list[str], positions: int, workers: int, sweep_seed: int, out: Path, timeout: float, memory: int,
    say: Callable[[str], None] = print, ledger: Path | None = None,
) -> int:
    """Runs the checks one after another, each across the whole pool; a chunk on the ``ledger`` counts
    as done (its positions and its worker's seconds), and each chunk that agrees is added to it. 0 when
    everything agreed, 1 on a disagreement, 2 when a worker process died or a task failed outside the
    comparisons, 130 when interrupted (SIGINT)."""
    book = Ledger(ledger, sweep_seed)
    say(f"sweep: seed {sweep_seed}, {workers} worker{'s' * (workers != 1)}, {positions} positions per check, "
        f"timeout {timeout:g} s and {memory / GIB:g} GiB per position")
    say(HEADER)
    context = multiprocessing.get_context()
    stop = context.Event()
    tallies: dict[str, Tally] = {}
    found: Found | None = None
    ending = ""  # why the sweep stopped early: "interrupted" or "broken"
    started = time.perf_counter()
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_init_worker, initargs=(stop,)) as pool:
        for name in checks:
            tally = tallies[name] = Tally()
            begun = time.perf_counter()
            pending: set[Future[Done]] = set()
            try:
                submitted: dict[Future[Done], Task] = {}
                for task in tasks_for(CHECKS[name], positions, sweep_seed, timeout, memory):
                    carried = book.carried(task)
                    if carried is None:
                        submitted[pool.submit(run_task, task)] = task
                    else:
                        _collect(tally, carried)
                        tally.carried += carried.checked
                pending = set(submitted)
                while pending:
                    finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for future in finished:
                        if not future.cancelled():
                            done = future.result()
                            _collect(tally, done)
                            book.write(submitted[future], done)
                            found = found or done.found
                    if found is not None:
                        for future in pending:
                            future.cancel()
            except KeyboardInterrupt:
                ending = "interrupted"
                stop.set()
                for future in pending:
                    future.cancel()
                for future in pending:  # the running tasks stop after their current position
                    if not future.cancelled():
                        try:
                            _collect(tally, future.result())
                        except Exception:  # noqa: BLE001 - the counts are what could be collected
                            pass
            except BrokenProcessPool as error:
                ending = f"broken: a worker process died ({error}); which position it was on is not known"
                stop.set()
            except Exception:  # noqa: BLE001 - a task that failed outside the comparison: drawing, say
                ending = f"broken: a task failed outside the comparisons:\n{traceback.format_exc()}"
                stop.set()
                for future in pending:
                    future.cancel()
            tally.wall = time.perf_counter() - begun
            say(_row(name, tally))
            if found is not None or ending:
                break
        if ending.startswith("broken"):
            pool.shutdown(wait=False, cancel_futures=True)
    total = Tally(
        checked=sum(t.checked for t in tallies.values()),
        timed_out=sum(t.timed_out for t in tallies.values()),
        over_memory=sum(t.over_memory for t in tallies.values()),
        disagreements=sum(t.disagreements for t in tallies.values()),
        wall=time.perf_counter() - started,
        carried=sum(t.carried for t in tallies.values()),
    )
    say(_row("total", total))
    if ledger is not None:
        say(f"ledger {ledger}: {total.carried} of the positions checked were checked in an earlier run")
    skipped = [name for name in checks if name not in tallies]
    not_run = f"not run: {', '.join(skipped)}" if skipped else ""
    if ending == "interrupted":
        say("interrupted: the counts above are what finished" + (f"; {not_run}" if not_run else ""))
        return 130
    if ending:
        say(ending[len("broken: "):])
        if not_run:
            say(not_run)
        return 2
    if found is not None:
        path = _write(found, out, sweep_seed)
        say("")
        say(found.problem)
        say("")
        say(f"disagreement in {found.check}: the position is in {path}")
        if found.reproduced:
            say(f"re-checked from that file: {found.reproduced}")
        say(f"ask again: {found.command.replace('FILE', str(path))}")
        if not_run:
            say(not_run)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.sweep",
        description="The solver against the brute-force reference on generated positions, and the loader on "
        "fuzzed files, across a process pool. Stops at the first disagreement and writes it as a position file.",
    )
    parser.add_argument("--positions", type=int, default=10000, metavar="N", help="positions per check (10000)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, metavar="K",
                        help="worker processes (os.cpu_count())")
    parser.add_argument("--seed", type=int, default=None, metavar="S",
                        help="what is drawn is a function of it (default: a fresh one, printed)")
    parser.add_argument("--out", type=Path, default=Path("sweep-out"), metavar="DIR",
                        help="where a disagreeing position is written (sweep-out)")
    parser.add_argument("--timeout", type=float, default=30.0, metavar="SECONDS",
                        help="per position; one that runs longer is counted as timed out, not checked (30)")
    parser.add_argument("--checks", nargs="+", choices=list(CHECKS), default=list(CHECKS), metavar="CHECK",
                        help=f"which checks, in this order (all: {' '.join(CHECKS)})")
    parser.add_argument("--ledger", type=Path, default=None, metavar="FILE",
                        help="resume: chunks of this seed this file records are not drawn again; each chunk that "
                        "agrees is added to it (a sweep done in parts)")
    parser.add_argument("--memory", type=float, default=4.0, metavar="GIB",
                        help="per position; one that needs more is counted as over memory, not checked (4)")
    args = parser.parse_args(argv)
    if args.positions < 1 or args.workers < 1 or not args.timeout > 0 or not args.memory > 0:
        parser.error("--positions and --workers must be at least 1, --timeout and --memory more than 0")
    sweep_seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    return sweep(args.checks, args.positions, args.workers, sweep_seed, args.out, args.timeout, int(args.memory * GIB),
                 lambda line: print(line, flush=True), args.ledger)


if __name__ == "__main__":
    sys.exit(main())
