"""Start-up and the cost of one question (issue 24, section 3): one row per target of its table.

Prints medians and each one's ratio to `python -c "import clingo"` timed alongside; asserts nothing.
See bench/README.md, "Start-up".
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # the checkout measured: `python -m adjudicator` run from here
if str(ROOT) not in sys.path:  # run as `python bench/startup.py` as well as `python -m bench.startup`
    sys.path.insert(0, str(ROOT))

from bench import boards  # noqa: E402
from bench.run import print_table, probe_unit  # noqa: E402

HEXES, UNITS = 150, 20
CLINGO = [sys.executable, "-c", "import clingo"]

# Run in a fresh process: the position loaded (untimed), then one unit's first question, the same
# question asked again of the loaded position, each other unit of its faction once (a tap on another
# unit of the browser board: the same solve, kept, and that unit's options decoded), and the whole
# faction's; wall and CPU milliseconds of each, as JSON (on a busy machine the CPU time varies less).
QUESTIONS = """
import json, sys, time
from pathlib import Path
from adjudicator.position.load import load_position
from adjudicator.questions import adjudicate
position = load_position(Path(sys.argv[1]))
unit, reps = sys.argv[2], int(sys.argv[3])
def ms(call):
    wall, cpu = time.perf_counter(), time.process_time()
    call()
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000
first = ms(lambda: adjudicate.unit_options(position, unit))
again = [ms(lambda: adjudicate.unit_options(position, unit)) for _ in range(reps)]
others = [u for u in adjudicate.moves_query(position, unit).units if u != unit][:reps]
other = [ms(lambda: adjudicate.unit_options(position, u)) for u in others]
faction = [ms(lambda: adjudicate.faction_options(position)) for _ in range(reps)]
print(json.dumps({"first": first, "again": again, "other": other, "faction": faction}))
"""


def _environment() -> dict[str, str]:
    """This environment, but writing bytecode: an installed package runs from compiled modules, and
    a command compiling every module anew would measure the compiler."""
    return {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def _run(command: Sequence[str]) -> tuple[float, float]:
    """Wall and CPU (user + system) milliseconds of ``command`` as a whole process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=_environment(), capture_output=True, text=True, check=False)
    wall = (time.perf_counter() - start) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 3):  # 3: an answer with notices, still an answer
        raise SystemExit(f"`{' '.join(command)}` failed ({done.returncode}):\n{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    return wall, cpu


def _processes(files: Sequence[Path], runs: int) -> dict[str, list[tuple[float, float]]]:
    """`import clingo`, `cloudspire moves` and `cloudspire validate` in turn, ``runs`` times each (the
    files in turn), after one untimed run of each (bytecode written, the shipped data's parses kept)."""
    commands = {
        "clingo": lambda path: CLINGO,
        "moves": lambda path: [sys.executable, "-m", "adjudicator", "moves", str(path)],
        "validate": lambda path: [sys.executable, "-m", "adjudicator", "validate", str(path)],
    }
    for command in commands.values():
        _run(command(files[0]))
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for run in range(runs):
        for name, command in commands.items():
            times[name].append(_run(command(files[run % len(files)])))
    return times


def _questions(files: Sequence[Path], units: Sequence[str], reps: int) -> dict[str, list[tuple[float, float]]]:
    """The in-process questions, one fresh process per board: (wall, CPU) milliseconds of each."""
    found: dict[str, list[tuple[float, float]]] = {"first": [], "again": [], "other": [], "built": [], "faction": []}
    for path, unit in zip(files, units):
        done = subprocess.run([sys.executable, "-c", QUESTIONS, str(path), unit, str(reps)], cwd=ROOT,
                              env=_environment(), capture_output=True, text=True, check=True)
        answer = json.loads(done.stdout)
        found["first"].append(tuple(answer["first"]))
        found["again"] += map(tuple, answer["again"])
        found["other"] += map(tuple, answer["other"])
        found["built"].append(tuple(answer["faction"][0]))  # every unit's options built from the kept answer
        found["faction"] += map(tuple, answer["faction"][1:])
    return found


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=3, help="boards (field boards of 150 hexes, 20 units), seeds 0 … N-1")
    parser.add_argument("--runs", type=int, default=10, help="whole-process runs of each command (the boards in turn)")
    parser.add_argument("--reps", type=int, default=10, help="questions asked again per board, in its process")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        positions = [boards.field(seed, HEXES, UNITS) for seed in range(args.seeds)]
        files = []
        for seed, position in enumerate(positions):
            path = Path(folder) / f"field-{HEXES}-{seed}.yaml"
            path.write_text(boards.position_yaml(position), encoding="utf-8")
            files.append(path)
        processes = _processes(files, args.runs)
        questions = _questions(files, [probe_unit(p) for p in positions], args.reps)
    wall = {name: statistics.median(w for w, _ in times) for name, times in processes.items()}
    cpu = {name: statistics.median(c for _, c in times) for name, times in processes.items()}
    clingo_wall, clingo_cpu = wall["clingo"], cpu["clingo"]
    print(f"start-up, {HEXES} hexes / {UNITS} units (field boards, seeds 0..{args.seeds - 1}); Python "
          f"{sys.version.split()[0]}; `import clingo` as a whole process: {clingo_wall:.1f} ms wall, "
          f"{clingo_cpu:.1f} ms CPU (median of {args.runs})")
    rows = []

    def row(label: str, wall_ms: float, cpu_ms: float, target: str) -> None:
        rows.append([label, f"{wall_ms:.1f}", f"{cpu_ms:.1f}", f"{wall_ms / clingo_wall:.2f}",
                     f"{cpu_ms / clingo_cpu:.2f}", target])

    row("cloudspire moves, whole process", wall["moves"], cpu["moves"], "<= 150 ms, about 5x import clingo")
    row("cloudspire validate, whole process", wall["validate"], cpu["validate"], "<= 2x import clingo")
    for name, label, target in (
        ("first", "one unit's options, a fresh process's first question", "<= 10 ms"),
        ("again", "one unit's options, asked again of the loaded position", "<= 5 ms"),
        ("other", "another unit's options, asked after the first", "<= 5 ms"),
        ("built", "every unit of the faction, its first time", "<= 20 ms"),
        ("faction", "every unit of the faction, asked again", "<= 20 ms"),
    ):
        row(label, statistics.median(w for w, _ in questions[name]), statistics.median(c for _, c in questions[name]),
            target)
    print_table(["question", "median ms", "median CPU ms", "ms / clingo", "CPU / clingo", "target (issue 24)"], rows)
    print("   whole processes: `python -m adjudicator` from the checkout, bytecode written; questions: in one "
          "process per board, the position loaded first (untimed)")


if __name__ == "__main__":
    main()
