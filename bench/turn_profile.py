"""Where the AI's whole turn spends its time: one bench board's turn from Spires Fire (bench/run.py,
question 9), profiled per step.

    python -m bench.turn_profile --family realistic --size 150 --seed 1

For each step the turn asks: for how many boards (`calls`; most steps are asked once for all the
boards that reach them, Step.ask_many), its wall time, and its profiled time split into clingo's
grounding, solving (the search and reading the models), adding the program (the parsed statements and
the rendered facts), freeing the control, and the rest in Python (facts, slicing, decoding); the
turn's own code (board_after, turn_end) is the row `turn`. `distinct` counts the step's distinct
answers over its calls: where it is far below `calls`, boards differing only where the step cannot
see ask it the same question. Profiled times run above wall times without the profiler. Not a test.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import time
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from adjudicator.questions import steps, whole_turn
from bench import boards
from bench.run import FAMILIES, _at_fire

# clingo's C calls, by what they do.
PARTS = {
    "ground": ("clingo_control_ground",),
    "solve": ("clingo_control_solve", "clingo_solve_handle_wait", "clingo_solve_handle_resume",
              "clingo_solve_handle_model", "clingo_model_symbols"),
    "add": ("clingo_control_add", "clingo_program_builder_add"),
    "free": ("clingo_control_free",),
}
TURN = "turn"


def profile(position: Any) -> tuple[dict[str, cProfile.Profile], dict[str, float], dict[str, list[str]], float, int]:
    """The whole turn of ``position`` under the AI, each step's ask under its own profiler: the
    profilers, wall times and answers (as JSON) by step, the total wall time and the outcome count."""
    profilers: dict[str, cProfile.Profile] = defaultdict(cProfile.Profile)
    walls: dict[str, float] = defaultdict(float)
    answers: dict[str, list[Any]] = defaultdict(list)
    stack = [TURN]
    ask, ask_many = steps.Step.ask, steps.Step.ask_many

    def timed(step: steps.Step, call: Any, many: bool, *args: Any, **kwargs: Any) -> Any:
        if stack[-1] == step.name:  # ask_many asking board by board: timed as one
            return call(step, *args, **kwargs)
        profilers[stack[-1]].disable()
        stack.append(step.name)
        started = time.perf_counter()
        profilers[step.name].enable()
        try:
            result = call(step, *args, **kwargs)
        finally:
            profilers[step.name].disable()
            walls[step.name] += time.perf_counter() - started
            stack.pop()
            profilers[stack[-1]].enable()
        answers[step.name].extend(result if many else [result])  # read after the turn, unprofiled
        return result

    steps.Step.ask = lambda step, *a, **k: timed(step, ask, False, *a, **k)  # type: ignore[method-assign]  # restored below
    steps.Step.ask_many = lambda step, *a, **k: timed(step, ask_many, True, *a, **k)  # type: ignore[method-assign]
    try:
        started = time.perf_counter()
        profilers[TURN].enable()
        result = whole_turn.whole_turn(position, ai=True, limit=0)
        profilers[TURN].disable()
        total = time.perf_counter() - started
    finally:
        steps.Step.ask, steps.Step.ask_many = ask, ask_many  # type: ignore[method-assign]
    walls[TURN] = total - sum(walls.values())
    shown = {name: [json.dumps(r.as_json(), sort_keys=True, default=str) for r in found] for name, found in answers.items()}
    return profilers, walls, shown, total, result.count


def split(profiler: cProfile.Profile) -> dict[str, float]:
    """The profiler's own time by PARTS, and the rest as `python`."""
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]  # pstats keeps them untyped
    times = {part: 0.0 for part in PARTS}
    rest = 0.0
    for (_, _, function), (_, _, own, _, _) in stats.items():
        part = next((p for p, names in PARTS.items() if any(n in function for n in names)), None)
        if part is None:
            rest += own
        else:
            times[part] += own
    return {**times, "python": rest}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--family", choices=FAMILIES, default="realistic")
    parser.add_argument("--size", type=int, default=150, help="hexes")
    parser.add_argument("--units", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    board = FAMILIES[args.family](args.seed, args.size, args.units)
    position = _at_fire(boards.as_ai(boards.armed(board, len(board.units))))
    profilers, walls, answers, total, count = profile(position)
    print(f"{args.family} {args.size} hexes / {args.units} units, seed {args.seed}: the AI's whole turn "
          f"{total:.2f} s wall, {count} outcomes")
    header = ("step", "calls", "distinct", "wall s", *PARTS, "python")
    print(" | ".join(header))
    print(" | ".join("---" for _ in header))
    for name, profiler in profilers.items():
        parts = split(profiler)
        calls = len(answers[name]) if name != TURN else 1
        distinct = len(set(answers[name])) if name != TURN else 1
        print(" | ".join((name, str(calls), str(distinct), f"{walls[name]:.2f}", *(f"{v:.2f}" for v in parts.values()))))


if __name__ == "__main__":
    main()
