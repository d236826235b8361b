"""Benchmark: the ASP adjudicator against the brute-force reference, on generated boards.

Prints median milliseconds per question and size; asserts nothing.  See bench/README.md.
"""

from __future__ import annotations

import argparse
import importlib
import multiprocessing
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from multiprocessing.connection import Connection
from pathlib import Path
from types import ModuleType

import clingo

ROOT = Path(__file__).resolve().parent.parent  # the repository root, where bench/ and tests/ live
if str(ROOT) not in sys.path:  # run as `python bench/run.py` as well as `python -m bench.run`
    sys.path.insert(0, str(ROOT))

from adjudicator.facts.board import Query, position_facts  # noqa: E402
from adjudicator.position.dice import standard_die  # noqa: E402
from adjudicator.position.model import Kind, Position  # noqa: E402
from adjudicator.position.readings import resolve  # noqa: E402
from adjudicator.questions import adjudicate, whole_step, whole_turn  # noqa: E402
from adjudicator.solving.solve import MOVE, Deadline, encoding_dir  # noqa: E402
from bench import boards  # noqa: E402

ASP, REF = "ASP", "reference"
KNOWN_SIZES = {60: 5, 100: 10, 150: 20, 250: 50}  # hexes → units
Size = tuple[int, int]
Call = Callable[[], object]
Timer = Callable[[Call], float | None]  # milliseconds, or None when the call ran past its budget


def _load_reference(name: str) -> ModuleType | None:
    """tests.reference.<name>, or None while it has not been written yet."""
    module = f"tests.reference.{name}"
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        if error.name not in ("tests", "tests.reference", module):
            raise
        return None


REFERENCE = _load_reference("movement")
COMBAT_REFERENCE = _load_reference("combat")


# ----------------------------------------------------------------------------------- timing


def time_ms(call: Call) -> float:
    start = time.perf_counter()
    call()
    return (time.perf_counter() - start) * 1000


def _send_time(call: Call, sender: Connection) -> None:
    try:
        sender.send((True, time_ms(call)))
    except Exception:  # noqa: BLE001 - any failure is reported to the parent, which raises it
        sender.send((False, traceback.format_exc()))


def time_ms_within(budget_s: float) -> Timer:
    """A timer that runs each call in a forked child and kills it once it runs past ``budget_s``."""
    context = multiprocessing.get_context("fork")

    def timer(call: Call) -> float | None:
        receiver, sender = context.Pipe(duplex=False)
        child = context.Process(target=_send_time, args=(call, sender), daemon=True)
        child.start()
        sender.close()
        if not receiver.poll(budget_s):
            child.kill()
            child.join()
            return None
        try:
            ok, value = receiver.recv()
        except EOFError:
            raise RuntimeError(f"the timed call's process died (exit code {child.exitcode})") from None
        finally:
            child.join()
        if not ok:
            raise RuntimeError(f"the timed call failed:\n{value}")
        return float(value)

    return timer


@dataclass
class Samples:
    ms: list[float] = field(default_factory=list)
    over_budget: bool = False  # a call ran past the budget; the later ones were skipped


def measure(calls: Sequence[dict[str, Call]], reps: int, timer: Timer) -> dict[str, Samples]:
    """Times every implementation on every board, ``reps`` times, alternating which goes first."""
    names = list(calls[0])
    samples = {name: Samples() for name in names}
    for rep in range(reps):
        for index, board_calls in enumerate(calls):
            for name in names if (index + rep) % 2 == 0 else names[::-1]:
                if samples[name].over_budget:
                    continue
                ms = timer(board_calls[name])
                if ms is None:
                    samples[name].over_budget = True
                else:
                    samples[name].ms.append(ms)
    return samples


# -------------------------------------------------------------------------------- questions


def probe_unit(position: Position) -> str:
    """The current faction's minion with the most movement (the most work), lowest id on ties; a hero
    where the faction has no minion."""
    own = [u for u in position.units.values() if u.faction == position.turn.faction]
    minions = [u for u in own if u.kind is Kind.MINION] or own
    return min(minions, key=lambda u: (-u.stats.movement, u.id)).id


def faction_units(position: Position) -> list[str]:
    return sorted(uid for uid, u in position.units.items() if u.faction == position.turn.faction)


def unit_calls(position: Position) -> dict[str, Call]:
    unit = probe_unit(position)
    calls: dict[str, Call] = {ASP: lambda: adjudicate.unit_options(position, unit)}
    if REFERENCE is not None:
        calls[REF] = lambda: REFERENCE.unit_options(position, unit, ai=False)
    return calls


def faction_calls(position: Position) -> dict[str, Call]:
    calls: dict[str, Call] = {ASP: lambda: adjudicate.faction_options(position)}
    if REFERENCE is not None:
        calls[REF] = lambda: [REFERENCE.unit_options(position, uid, ai=False) for uid in faction_units(position)]
    return calls


def step_calls(position: Position) -> dict[str, Call]:
    ai = boards.as_ai(position)
    calls: dict[str, Call] = {ASP: lambda: whole_step.movement_step(ai, ai=True)}
    if REFERENCE is not None:
        calls[REF] = lambda: REFERENCE.movement_step(ai, ai=True)
    return calls


def count_calls(position: Position) -> dict[str, Call]:
    # movement-step --limit 0: the count and the per-unit summary, no board built; the reference
    # has no such answer, so it lists every board as in question 3.
    ai = boards.as_ai(position)
    calls: dict[str, Call] = {ASP: lambda: whole_step.movement_step(ai, ai=True, limit=0)}
    if REFERENCE is not None:
        calls[REF] = lambda: REFERENCE.movement_step(ai, ai=True)
    return calls


def attack_calls(position: Position) -> dict[str, Call]:
    armed = boards.armed(position, len(position.units))
    calls: dict[str, Call] = {ASP: lambda: adjudicate.attack_options(armed)}
    if COMBAT_REFERENCE is not None:
        calls[REF] = lambda: [COMBAT_REFERENCE.attack_options(armed, uid, False) for uid in faction_units(armed)]
    return calls


# Attack talents that act only in the attacks touching their chip (the catalogue's acts_on: self).
FIVE_ATTACK_TALENTS = ("Tough", "Leech", "Riposte", "Poison", "Evasive")


def attack_count_calls(position: Position) -> dict[str, Call]:
    # attack-step --limit 0: the exact count and the summary, no board listed; the reference lists every
    # end state, as in question 7.
    armed = boards.armed(position, len(position.units))
    calls: dict[str, Call] = {ASP: lambda: adjudicate.attack_step(armed, limit=0)}
    if COMBAT_REFERENCE is not None:
        calls[REF] = lambda: COMBAT_REFERENCE.attack_step(armed, False)
    return calls


def talented_count_calls(position: Position) -> dict[str, Call]:
    # The same with five attack talents handed round the units (boards.with_talents), against the same
    # question on the bare board as the reference column, for the ratio.
    armed = boards.armed(position, len(position.units))
    talented = boards.with_talents(armed, FIVE_ATTACK_TALENTS)
    return {ASP: lambda: adjudicate.attack_step(talented, limit=0), REF: lambda: adjudicate.attack_step(armed, limit=0)}


def attack_step_calls(position: Position) -> dict[str, Call]:
    armed = boards.armed(position, len(position.units))
    calls: dict[str, Call] = {ASP: lambda: adjudicate.attack_step(armed)}
    if COMBAT_REFERENCE is not None:
        calls[REF] = lambda: COMBAT_REFERENCE.attack_step(armed, False)
    return calls


def fire_calls(position: Position) -> dict[str, Call]:
    armed = boards.armed(position, len(position.units))
    die = standard_die()
    calls: dict[str, Call] = {ASP: lambda: adjudicate.spires_fire(armed, die)}
    if COMBAT_REFERENCE is not None:
        calls[REF] = lambda: COMBAT_REFERENCE.spires_fire(armed, die)
    return calls


def turn_calls(position: Position) -> dict[str, Call]:
    # No reference plays a whole turn: the ASP side alone, from Spires Fire on.
    at_fire = _at_fire(boards.as_ai(boards.armed(position, len(position.units))))
    return {ASP: lambda: whole_turn.whole_turn(at_fire, ai=True)}


def _at_fire(position: Position) -> Position:
    return replace(position, turn=replace(position.turn, step="spires-fire"))


def chapter_board(position: Position, chapter: int) -> Position:
    """Question 11's board: the armed board played in the chapter, the AI's turn at Spires Fire."""
    return _at_fire(boards.in_chapter(boards.armed(position, len(position.units)), chapter, len(position.units)))


@dataclass(frozen=True)
class Question:
    number: int
    title: str
    target: str
    calls: Callable[[Position], dict[str, Call]]
    budgeted: bool = False  # each call runs under --step-budget-s


QUESTIONS = (
    Question(
        1,
        "one unit's options: adjudicate.unit_options vs reference unit_options (the minion with most movement)",
        "single unit <= 5 ms",
        unit_calls,
    ),
    Question(
        2,
        "every unit of the current faction: adjudicate.faction_options vs reference unit_options per unit",
        "whole faction <= 10 ms at 150 hexes / 20 units, <= 20 ms at 250 / 50",
        faction_calls,
    ),
    Question(
        3,
        "an AI faction's whole movement step: movement_step(ai=True), ASP vs reference",
        "AI step <= 200 ms at 150 hexes / 20 units, <= 1 s at 250 / 50; <= 0.1 of the reference",
        step_calls,
        budgeted=True,
    ),
    Question(
        10,
        "the same step's count and per-unit summary only: movement_step(ai=True, limit=0) vs the reference's full step",
        "exact count <= 1 s, per-unit summary <= 200 ms at 150 hexes / 20 units",
        count_calls,
        budgeted=True,
    ),
    Question(
        6,
        "every unit's attacks on the same boards, armed (boards.armed): attack_options vs reference",
        "",
        attack_calls,
    ),
    Question(
        7,
        "the whole attack step on the armed boards: attack_step vs reference (every order)",
        "",
        attack_step_calls,
        budgeted=True,
    ),
    Question(
        12,
        "the whole attack step's count and summary only: attack_step(limit=0) vs the reference's full step",
        "exact count and per-unit summary <= 1 s at 250 hexes / 50 units",
        attack_count_calls,
        budgeted=True,
    ),
    Question(
        13,
        "the same with five attack talents on the units: attack_step(limit=0), talented (ASP) vs bare (ref column)",
        "within 2x of the same board without them",
        talented_count_calls,
        budgeted=True,
    ),
    Question(
        8,
        "Spires Fire on the armed boards: spires_fire vs reference, exact odds",
        "",
        fire_calls,
        budgeted=True,
    ),
    Question(
        9,
        "the AI's whole turn on the armed boards from Spires Fire: whole_turn(ai=True), ASP only",
        "",
        turn_calls,
        budgeted=True,
    ),
)


# ----------------------------------------------------------------------------------- printing


def _median(samples: Samples) -> float | None:
    return statistics.median(samples.ms) if samples.ms and not samples.over_budget else None


def _cell(samples: Samples | None) -> str:
    if samples is None:
        return "missing"
    if samples.over_budget:
        return "over budget"
    median = _median(samples)
    return "-" if median is None else f"{median:.1f}"


def _ratio(asp: Samples, ref: Samples | None) -> str:
    a, r = _median(asp), None if ref is None else _median(ref)
    return "n/a" if a is None or r is None or r == 0 else f"{a / r:.1f}"


def print_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        print("  ".join(str(cell).rjust(width) for cell, width in zip(row, widths)))


def heading(title: str, target: str | None = None) -> None:
    print(f"\n== {title}")
    if target:
        print(f"   target (from the issue): {target}")


def _size_label(size: Size) -> str:
    return f"{size[0]}/{size[1]}"


# ------------------------------------------------------------------------------- the sections


def run_question(question: Question, fields: dict[Size, list[Position]], reps: int, budget_s: float) -> None:
    heading(f"{question.number}. {question.title}", question.target)
    timer = time_ms_within(budget_s) if question.budgeted else time_ms
    rows, notes = [], []
    for size, positions in fields.items():
        samples = measure([question.calls(p) for p in positions], reps, timer)
        asp, ref = samples[ASP], samples.get(REF)
        counts = f"{len(asp.ms)}/{'-' if ref is None else len(ref.ms)}"
        rows.append([_size_label(size), counts, _cell(asp), _cell(ref), _ratio(asp, ref)])
        notes += [_budget_note(name, size, s, budget_s) for name, s in samples.items() if s.over_budget]
    print_table(["hexes/units", "calls ASP/ref", "median ms ASP", "median ms ref", "ASP/ref"], rows)
    for note in notes:
        print(note)


def run_chapters(sizes: Sequence[Size], seeds: int, reps: int, budget_s: float) -> None:
    heading("11. the AI's whole turn from Spires Fire in each Harbinger chapter, on realistic boards armed and "
            "played in it (boards.in_chapter), whatever --family: whole_turn(ai=True), ASP only; chapter - is "
            "the same boards under the base rules",
            "one scenario board per chapter, with the AI whole-turn question")
    timer = time_ms_within(budget_s)
    rows, notes = [], []
    for size in sizes:
        positions = [boards.realistic(seed, *size) for seed in range(seeds)]
        base = [_at_fire(boards.as_ai(boards.armed(p, len(p.units)))) for p in positions]
        for chapter in [None, *sorted(boards.CHAPTER_SIDES)]:
            played = base if chapter is None else [chapter_board(p, chapter) for p in positions]
            # untimed, what is answered: the count (a lower bound where the budget ran out) and what is left out
            answers = [whole_turn.whole_turn(p, ai=True, deadline=Deadline(budget_s)) for p in played]
            samples = measure([{ASP: lambda p=p: whole_turn.whole_turn(p, ai=True)} for p in played], reps, timer)
            count = f"{statistics.median(a.count for a in answers):g}"
            count += "" if all(a.complete for a in answers) else "+"
            left_out = sorted({n.name.removeprefix(f"chapter {chapter}: ") for a in answers for n in a.notices})
            sides = "heirs/narora" if chapter is None else "/".join(boards.CHAPTER_SIDES[chapter])
            rows.append([_size_label(size), str(chapter or "-"), sides, str(len(samples[ASP].ms)), _cell(samples[ASP]),
                         count, ", ".join(left_out) or "none"])
            if samples[ASP].over_budget:
                notes.append(_budget_note(ASP, size, samples[ASP], budget_s) + f" (chapter {chapter or '-'})")
    print_table(["hexes/units", "chapter", "AI/player", "calls", "median ms", "median outcomes", "left out (notices)"],
                rows)
    for note in notes:
        print(note)


def _budget_note(name: str, size: Size, samples: Samples, budget_s: float) -> str:
    finished = f"{len(samples.ms)} call(s) finished"
    if samples.ms:
        finished += f" (median {statistics.median(samples.ms):.1f} ms)"
    return (
        f"   {name} at {_size_label(size)}: {finished}, then one ran past {budget_s:g} s and was killed; "
        "its remaining repetitions at this size were skipped"
    )


def cloudspire_command() -> str:
    beside = Path(sys.executable).with_name("cloudspire")
    found = str(beside) if beside.exists() else shutil.which("cloudspire")
    if found is None:
        raise SystemExit("no `cloudspire` command: install the package (pip install -e .) in this Python")
    return found


def run_end_to_end(fields: dict[Size, list[Position]], runs: int) -> None:
    heading(
        "4. end to end: `cloudspire moves FILE` as a subprocess, process start included "
        "(`validate FILE` for the fixed cost of starting and loading)",
        "end-to-end moves <= 300 ms",
    )
    command = cloudspire_command()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for size, positions in fields.items():
            files = []
            for seed, position in enumerate(positions):
                path = Path(folder) / f"field-{size[0]}-{seed}.yaml"
                path.write_text(boards.position_yaml(position), encoding="utf-8")
                files.append(path)
            medians = [
                statistics.median(_run_cli(command, verb, files[run % len(files)]) for run in range(runs))
                for verb in ("moves", "validate")
            ]
            rows.append([_size_label(size), str(runs), *(f"{m:.1f}" for m in medians)])
    print_table(["hexes/units", "runs", "median ms moves", "median ms validate"], rows)


def _run_cli(command: str, verb: str, path: Path) -> float:
    start = time.perf_counter()
    done = subprocess.run([command, verb, str(path)], check=False, capture_output=True, text=True)
    ms = (time.perf_counter() - start) * 1000
    if done.returncode != 0:
        raise SystemExit(f"`cloudspire {verb} {path}` failed ({done.returncode}):\n{done.stderr}")
    return ms


def ground_size(position: Position) -> tuple[int, int, float]:
    """Atoms and rules of the ground program for the current faction's options, and ms to get them.

    The same steps as adjudicator.solve.solve, for the query adjudicate.faction_options asks.
    """
    query = Query(tuple(faction_units(position)), readings=resolve(position.readings))
    start = time.perf_counter()
    control = clingo.Control(["--warn=none"])
    control.load(str(encoding_dir() / "main.lp"))
    with control.backend() as backend:
        for fact in position_facts(position, query):
            backend.add_rule([backend.add_atom(fact)])
    control.ground([(part, []) for part in MOVE])  # the movement parts only, as adjudicator/solving/solve.py grounds them
    control.solve()
    ms = (time.perf_counter() - start) * 1000
    lp = control.statistics["problem"]["lp"]
    return int(lp["atoms"]), int(lp["rules"]), ms


def run_grounding(columns: Sequence[int], movements: Sequence[int], rows: int, seed: int) -> None:
    heading(
        f"5. grounding size on corridor boards ({rows} rows; 3 minions and a forest hero, all with the "
        "given movement; the faction_options query)"
    )
    table = []
    for width in columns:
        for movement in movements:
            position = boards.corridor(seed, width, rows, movement)
            atoms, rules, ms = ground_size(position)
            hexes = len(position.hexes)
            product = hexes * movement
            table.append((product, hexes, boards.path_length(position), movement, atoms, rules, ms))
    rows_out = [
        [str(h), str(p), str(m), str(hm), str(a), str(r), f"{a / hm:.1f}", f"{r / hm:.1f}", f"{ms:.1f}"]
        for hm, h, p, m, a, r, ms in sorted(table)
    ]
    print_table(
        ["hexes", "path", "movement", "hexes*movement", "atoms", "rules", "atoms/(h*m)", "rules/(h*m)", "ms"],
        rows_out,
    )
    print("   linear growth in hexes*movement shows as flat atoms/(h*m) and rules/(h*m) columns")


# ------------------------------------------------------------------------------------- main


def _size(text: str) -> Size:
    hexes, sep, units = text.partition(":")
    if sep:
        return int(hexes), int(units)
    if int(hexes) not in KNOWN_SIZES:
        raise argparse.ArgumentTypeError(f"{text}: one of {', '.join(map(str, KNOWN_SIZES))}, or HEXES:UNITS")
    return int(hexes), KNOWN_SIZES[int(hexes)]


FAMILIES: dict[str, Callable[[int, int, int], Position]] = {
    "field": boards.field,
    "realistic": boards.realistic,
    "deploying": lambda seed, hexes, units: boards.realistic(seed, hexes, units, waiting=2),
}


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", nargs="+", type=_size, default=[(h, u) for h, u in KNOWN_SIZES.items()],
                        help="board sizes: 60, 150, 250 (with 5, 20, 50 units) or HEXES:UNITS")
    parser.add_argument("--seeds", type=int, default=5, help="boards per size (seeds 0 … N-1)")
    parser.add_argument("--reps", type=int, default=3, help="repetitions per board and implementation")
    parser.add_argument("--questions", nargs="+", type=int, choices=range(1, 14), default=list(range(1, 14)))
    parser.add_argument("--step-budget-s", type=float, default=10.0,
                        help="question 3: a call running longer is killed and the size's remaining "
                             "repetitions for that implementation are skipped")
    parser.add_argument("--e2e-runs", type=int, default=5, help="question 4: runs per size")
    parser.add_argument("--e2e-all-sizes", action="store_true", help="question 4: every size, not only the largest")
    parser.add_argument("--talents", nargs="+", default=[], metavar="NAME",
                        help="give every board's units these talents, one each in turn (talent cost: compare "
                             "with a run without them)")
    parser.add_argument("--family", choices=FAMILIES, default="field",
                        help="the boards: field (bench/boards.py), realistic (every minion on a hex that leads "
                             "to its mark, two heroes a side), or deploying (realistic, two minions in the gate)")
    parser.add_argument("--quick", action="store_true",
                        help="smoke run: 1 seed, 60 hexes only, 2 repetitions, small grounding table")
    args = parser.parse_args(argv)
    if args.quick:
        args.sizes, args.seeds, args.reps, args.e2e_runs = [(60, KNOWN_SIZES[60])], 1, 2, 3
    return args


def warm_up() -> None:
    """One untimed call of each implementation, so that imports and first loads are not timed."""
    for call in unit_calls(boards.field(0, 60, 5)).values():
        call()


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    print(f"Cloudspire adjudicator benchmark: Python {platform.python_version()}, clingo {clingo.__version__}, "
          f"{platform.machine()}")
    print(f"sizes (hexes/units) {', '.join(map(_size_label, args.sizes))}; seeds 0..{args.seeds - 1}; "
          f"{args.reps} repetitions per board; {args.family} boards; times are medians over all boards and repetitions")
    if REFERENCE is None:
        print("the reference (tests/reference/movement.py) is missing: ASP numbers only")
    warm_up()
    family = FAMILIES[args.family]
    fields = {size: [boards.with_talents(family(seed, *size), args.talents) for seed in range(args.seeds)]
              for size in args.sizes}
    if args.talents:
        print(f"every board's units carry, one each in turn: {', '.join(args.talents)}")
    for question in QUESTIONS:
        if question.number in args.questions:
            run_question(question, fields, args.reps, args.step_budget_s)
    if 11 in args.questions:
        run_chapters(args.sizes, args.seeds, args.reps, args.step_budget_s)
    if 4 in args.questions:
        largest = max(args.sizes)
        run_end_to_end(fields if args.e2e_all_sizes else {largest: fields[largest]}, args.e2e_runs)
    if 5 in args.questions:
        columns, movements = ((6, 12), (2, 4)) if args.quick else ((6, 12, 18, 24), (2, 4, 6, 8))
        run_grounding(columns, movements, rows=5, seed=0)


if __name__ == "__main__":
    main()
