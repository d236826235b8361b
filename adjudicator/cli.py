"""The `cloudspire` command: readable tables for people, --json for tools."""

from __future__ import annotations

import gc
import inspect
import json
import os
import sys
import threading
import time
from dataclasses import asdict, replace
from pathlib import Path
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, Optional

# A command run as its own program counts its timeout from here: its start-up is included.
_STARTED = time.monotonic()

import typer
from typer.core import TyperGroup
from typer.main import get_command_name

# Only what every command needs is imported here: the solver, the questions and the renderers are
# imported by the commands that use them, so that `validate` never loads clingo.
from adjudicator.position.talents import STATUSES, catalogue
from adjudicator.position.load import PositionFileError, load_position
from adjudicator.position.model import Position
from adjudicator.position.readings import READINGS, resolve
from adjudicator.questions.steps import STEPS, Step
from adjudicator.show import exit_codes

if TYPE_CHECKING:
    from adjudicator.position.claims import Claim
    from adjudicator.solving.solve import Deadline


class CliError(Exception):
    """Why the command cannot answer: ``kind`` and ``problems`` as docs/output-format.md, Errors."""

    def __init__(
        self, kind: str, message: str, problems: Sequence[dict[str, Any]] = (), status: int = exit_codes.BAD_INPUT
    ) -> None:
        super().__init__(message)
        self.kind, self.message, self.problems, self.status = kind, message, list(problems), status


_JSON = "cloudspire.json"  # ctx.meta key: --json was given, so errors are JSON too
# click's exception classes, which typer does not all export (it vendors click in recent versions).
_CLICK_ERROR = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")
_USAGE_ERROR = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")


class _Commands(TyperGroup):
    """Every command's errors reported alike: the exit status of the scheme (README, Exit status),
    a message on stderr, or under --json an error object on stdout; never a traceback."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        ctx.meta[_JSON] = "--json" in args
        return super().parse_args(ctx, args)

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except (typer.Exit, typer.Abort, BrokenPipeError):
            raise
        except _USAGE_ERROR as error:
            if not ctx.meta.get(_JSON):
                raise
            _report(ctx, CliError("usage", error.format_message()))
        except _CLICK_ERROR:
            raise
        except CliError as error:
            _report(ctx, error)
        except Exception as error:
            # The solver is imported only by the commands that solve: never loaded, nothing timed out.
            solve = sys.modules.get("adjudicator.solving.solve")
            if solve is not None and isinstance(error, solve.TimedOut):
                message = f"timed out after {error.seconds:g} s, before any answer"
                _report(ctx, CliError("timeout", message, status=exit_codes.TIMED_OUT))
            if os.environ.get("CLOUDSPIRE_DEBUG"):
                raise
            detail = " ".join(f"{type(error).__name__}: {error}".split())
            _report(ctx, CliError(
                "internal",
                f"internal error, a bug in the adjudicator ({detail}); please report it with the command "
                "and the position file (CLOUDSPIRE_DEBUG=1 shows the traceback)",
                status=exit_codes.INTERNAL,
            ))


def _report(ctx: Any, error: CliError) -> NoReturn:
    _answered()  # the error is the answer: not said twice
    if ctx.meta.get(_JSON):
        _emit({"error": {"kind": error.kind, "message": error.message, "problems": error.problems}})
    else:
        typer.echo(error.message, err=True)
    raise typer.Exit(error.status)


class _App(typer.Typer):
    """The command as a program builds only the subcommand its arguments name: typer makes each
    command from its function's signature, all of them before parsing a word, and making the other
    dozen cost a run of `moves` a twentieth of its time. Without one named first (`--help`, `--version`,
    a misspelt name) every command is made, so help and suggestions list them all.

    The objects there are when it starts (the modules imported) and when it ends are frozen out of the
    cyclic garbage collector (gc.freeze): its collections during the command need not walk them, and
    those of the interpreter's shutdown, which walked them all, cost `moves` a sixth of its time."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        gc.freeze()
        every = self.registered_commands
        asked = sys.argv[1:2]
        only = [c for c in every if (c.name or get_command_name(c.callback.__name__)) in asked]  # type: ignore[union-attr]
        self.registered_commands = only or every
        try:
            return super().__call__(*args, **kwargs)
        finally:
            self.registered_commands = every
            gc.freeze()


app = _App(cls=_Commands, add_completion=False, no_args_is_help=True, help=f"{__doc__}\n\n{exit_codes.HELP}")


def _version() -> str:
    # imported here: only --version reads the installed metadata
    from importlib.metadata import PackageNotFoundError, version as package_version

    try:
        return package_version("cloudspire-adjudicator")
    except PackageNotFoundError:
        return "unknown (the package is not installed)"


PositionArg = Annotated[Path, typer.Argument(help="A position file (docs/position-format.md).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable output (docs/output-format.md).")]


@app.callback(invoke_without_command=True)
def _main(
    ctx: typer.Context,
    version: Annotated[bool, typer.Option("--version", help="Print the version and exit.")] = False,
    json_out: Annotated[bool, typer.Option("--json", help="With --version: the version as JSON.")] = False,
) -> None:
    if version:
        text = _version()
        if json_out:
            _emit({"version": text})
        else:
            typer.echo(f"cloudspire {text}")
        raise typer.Exit()
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())
        raise typer.Exit(exit_codes.BAD_INPUT)
AiOpt = Annotated[bool, typer.Option("--ai", help="List only what the AI is obliged to do.")]
ReadingOpt = Annotated[
    Optional[list[str]], typer.Option("--reading", help="Switch an interpretation: NAME=VALUE (docs/readings.md).")
]
MAX_TIMEOUT = 86400.0  # a day: past that, nobody is waiting for the answer


def _seconds(value: float | None) -> float | None:
    if value is not None and not 0 < value <= MAX_TIMEOUT:
        raise typer.BadParameter(f"expected seconds, more than 0 and at most {MAX_TIMEOUT:g}; got {value:g}")
    return value


TimeoutOpt = Annotated[
    Optional[float],
    typer.Option(
        "--timeout", metavar="SECONDS", callback=_seconds,
        help="Stop after this many seconds and print what was found, marked incomplete (exit status 4). "
        "Default: no limit.",
    ),
]


def _limit_option(default: int) -> Any:
    return typer.Option("--limit", min=0, help=f"Print at most this many (default {default}; 0: only the count).")


AllOpt = Annotated[bool, typer.Option("--all", help="Print every one, however many (instead of --limit).")]
ProgressOpt = Annotated[
    Optional[bool],
    typer.Option(
        "--progress/--no-progress",
        help="Report on stderr about every second how much was found (default: when stderr is a terminal).",
    ),
]


def _fail(message: str, kind: str = "usage", problems: Sequence[dict[str, Any]] = ()) -> NoReturn:
    raise CliError(kind, message, problems)


def _emit(data: Any) -> None:
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False))


class _Watchdog:
    """The hard stop of `--timeout`: clingo cannot interrupt a grounding, so a question still busy
    MARGIN seconds past its deadline (solving/solve.py) is abandoned; the command says it timed out,
    before any answer, and the process ends with status 4. Only where the command is the process's
    own program (`cloudspire`, `python -m adjudicator`): a program that calls it in-process, a test's
    runner, is not ended under it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None

    def arm(self, seconds: float, after: float, json_out: bool, last_words: Callable[[], int] | None) -> None:
        """``last_words``: prints what the command has so far, in place of the message, and gives the
        exit status."""
        self._timer = threading.Timer(after, self._stop, (seconds, json_out, last_words))
        self._timer.daemon = True
        self._timer.start()

    def disarm(self) -> None:
        """The answer is ready: printing it is not cut off."""
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

    def _stop(self, seconds: float, json_out: bool, last_words: Callable[[], int] | None) -> None:
        with self._lock:  # held until the process ends: the answer is not printed after this
            if self._timer is None:
                return
            if last_words is not None:
                status = last_words()
                sys.stdout.flush()
                os._exit(status)
            message = f"timed out after {seconds:g} s, before any answer"
            if json_out:
                _emit({"error": {"kind": "timeout", "message": message, "problems": []}})
            else:
                typer.echo(message, err=True)
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(exit_codes.TIMED_OUT)


_WATCHDOG = _Watchdog()


def _own_program() -> bool:
    """The command runs as the process's program: its __main__ is the `cloudspire` script or
    adjudicator/__main__.py, both of which import ``app``."""
    return getattr(sys.modules.get("__main__"), "app", None) is app


def _deadline(
    seconds: float | None, json_out: bool = False, last_words: Callable[[], int] | None = None
) -> Deadline | None:
    from adjudicator.solving.solve import MARGIN, Deadline  # imported here: only the solving commands take a timeout

    if seconds is None:
        return None
    if not _own_program():  # called in-process: counted from the call, and never ends the process
        return Deadline(seconds)
    deadline = Deadline(seconds, _STARTED)
    _WATCHDOG.arm(seconds, deadline.remaining() + MARGIN, json_out, last_words)
    return deadline


def _answered() -> None:
    """The question is answered: from here the command only prints, whatever the time."""
    _WATCHDOG.disarm()


def _limit(limit: int | None, every: bool, default: int) -> int | None:
    """How many results to print: None for all of them."""
    if every and limit is not None:
        _fail("--all and --limit exclude each other: give one")
    return None if every else default if limit is None else limit


def _print_step(result: Any, json_out: bool, text: Callable[[Any], str], seconds: float | None) -> None:
    """A whole step's answer; when the deadline cut it short, said first, and exit status 4."""
    if json_out:
        _emit(result.as_json())
    else:
        if not result.complete:
            typer.echo(f"timed out after {seconds:g} s: the answer below is incomplete")
        typer.echo(text(result))
    if not result.complete:
        raise typer.Exit(exit_codes.TIMED_OUT)


class _Progress:
    """A line on stderr about every second: how many results a long question has found so far."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.start = self.last = time.monotonic()

    def __call__(self, found: int) -> None:
        now = time.monotonic()
        if now - self.last >= 1.0:
            self.last = now
            typer.echo(f"... {found} {self.what} so far, {now - self.start:.0f} s", err=True)

    def stopped(self, found: int) -> None:
        """The last line of a question cut short: what it had found, even where no second had passed
        between reports (a long grounding on a loaded machine)."""
        typer.echo(f"... {found} {self.what} so far, {time.monotonic() - self.start:.0f} s: stopped at the time limit",
                   err=True)


def _progress(wanted: bool | None, what: str) -> _Progress | None:
    on = sys.stderr.isatty() if wanted is None else wanted
    return _Progress(what) if on else None


def _load(path: Path, readings: list[str] | None = None) -> Position:
    try:
        position = load_position(path)
    except PositionFileError as error:
        _fail(str(error), "position-file", [asdict(p) for p in error.problems])
    chosen = dict(position.readings)
    for item in readings or []:
        name, sep, value = item.partition("=")
        if not sep:
            _fail(f"--reading {item!r}: expected NAME=VALUE")
        chosen[name.strip()] = value.strip()
    try:
        resolve(chosen)
    except ValueError as error:
        _fail(f"{path}: readings: {error}")
    return replace(position, readings=chosen)


def _check_unit(path: Path, position: Position, unit: str | None) -> None:
    if unit is not None and unit not in position.units:
        _fail(f"{path}: no unit {unit!r}; units: {', '.join(sorted(position.units))}", "unit")


def _settle(notices: Sequence[Any]) -> None:
    """Exit with the undetermined status when the answer printed carries notices."""
    if notices:
        raise typer.Exit(exit_codes.UNDETERMINED)


def _ai_flag(ai: bool) -> bool | None:
    return True if ai else None


def _per_unit(pos: Position, results: Sequence[Any], ai: bool, step: str, show: Callable[..., str]) -> None:
    """The board, then each unit's answer; a note when the position is at another step."""
    from adjudicator.questions import adjudicate  # imported here: only the solving commands ask questions
    from adjudicator.show import render_text  # imported here: only the solving commands print answers

    typer.echo(render_text.board(pos) + "\n")
    typer.echo(render_text.notices(results[0].notices if results else ()), nl=False)
    if pos.turn.step != step:
        typer.echo(f"(the position is at the {pos.turn.step} step: this is what the {step} step would allow on this board)\n")
    for r in results:
        typer.echo(show(r, pos, ai or adjudicate.is_ai(pos, pos.units[r.unit].faction)) + "\n")


@app.command()
def validate(
    positions: Annotated[list[Path], typer.Argument(help="Position files (docs/position-format.md).")],
    json_out: JsonOpt = False,
) -> None:
    """Check position files; list every problem in each."""
    results = []
    for position in positions:
        try:
            load_position(position)
            problems = []
        except PositionFileError as error:
            problems = error.problems
        results.append({"file": str(position), "valid": not problems, "problems": [asdict(p) for p in problems]})
        if not json_out:
            if problems:
                typer.echo(str(PositionFileError(problems)), err=True)
            else:
                typer.echo(f"{position}: valid")
    invalid = not all(r["valid"] for r in results)
    if json_out:
        # One file keeps the single result's shape (docs/output-format.md).
        _emit({k: v for k, v in results[0].items() if k != "file"} if len(results) == 1 else results)
    if invalid:
        raise typer.Exit(exit_codes.BAD_INPUT)


@app.command()
def facts(
    position: PositionArg,
    unit: Annotated[Optional[str], typer.Option(help="Facts for this unit's question.")] = None,
    ai: AiOpt = False,
    reading: ReadingOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Print exactly the ASP facts clingo receives for `moves`."""
    from adjudicator.questions import adjudicate  # imported here: only the solving commands ask questions
    from adjudicator.facts.board import position_facts  # imported here: only `facts` prints them
    from adjudicator.solving.solve import render as render_facts

    pos = _load(position, reading)
    _check_unit(position, pos, unit)
    symbols = position_facts(pos, adjudicate.moves_query(pos, unit, _ai_flag(ai)))
    if json_out:
        _emit([str(s) for s in symbols])
    else:
        typer.echo(render_facts(symbols), nl=False)


@app.command()
def moves(
    position: PositionArg,
    unit: Annotated[Optional[str], typer.Option(help="Only this unit.")] = None,
    ai: AiOpt = False,
    reading: ReadingOpt = None,
    timeout: TimeoutOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Every legal outcome of a unit's move, or of each unit of the faction whose turn it is."""
    from adjudicator.questions import adjudicate  # imported here: only the solving commands ask questions
    from adjudicator.show import render_text  # imported here: only the solving commands print answers

    deadline = _deadline(timeout, json_out)
    pos = _load(position, reading)
    _check_unit(position, pos, unit)
    if unit is not None:
        results = [adjudicate.unit_options(pos, unit, _ai_flag(ai), deadline)]
    else:
        results = adjudicate.faction_options(pos, _ai_flag(ai), deadline)
    _answered()
    if json_out:
        _emit([r.as_json() for r in results])
    else:
        _per_unit(pos, results, ai, "movement", render_text.unit_options)
    _settle(results[0].notices if results else ())


@app.command()
def faq(
    root: Annotated[Path, typer.Option(help="Where the position files are.")] = Path("positions"),
    timeout: TimeoutOpt = None,
    progress: ProgressOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Run the FAQ cases in positions/ and report every ruling FAQ-01 … FAQ-30."""
    from adjudicator.questions import faq as faq_report  # imported here: only `faq` runs the cases

    if not root.is_dir():
        _fail(f"{root}: no such folder; run from the repository root or pass --root")
    cases = faq_report.Run(root)

    def show(report: list[faq_report.Ruling]) -> int:
        """Print the report; the exit status it calls for."""
        cut = any(r.status == faq_report.INCOMPLETE for r in report)
        if cut and not json_out:
            typer.echo(f"timed out after {timeout:g} s: the report below is incomplete")
        if json_out:
            _emit([r.as_json() for r in report])
        else:
            typer.echo(faq_report.table(report))
        if any(r.status == "fail" for r in report):
            return exit_codes.NO
        return exit_codes.TIMED_OUT if cut else exit_codes.OK

    # Stopped in a grounding past the deadline, it still prints the cases checked so far.
    deadline = _deadline(timeout, json_out, lambda: show(cases.report()))
    report = cases.check(deadline, _progress(progress, "FAQ cases checked"))
    _answered()
    status = show(report)
    if status != exit_codes.OK:
        raise typer.Exit(status)


@app.command()
def talents(
    status: Annotated[Optional[str], typer.Option(help=f"Only talents with this status on either side: {', '.join(STATUSES)}.")] = None,
    hook: Annotated[Optional[str], typer.Option(help="Only talents whose encoding defines this hook (asp/core/hooks.lp), e.g. mv_add or mv_add/3.")] = None,
    json_out: JsonOpt = False,
) -> None:
    """The talent catalogue: each talent's steps, and how far it is modelled on player and AI chips."""
    from adjudicator.show import catalogue_report  # imported here: only `talents` prints the catalogue

    if status is not None and status not in STATUSES:
        _fail(f"--status: expected one of {', '.join(STATUSES)}, not {status!r}")
    chosen = [
        t for t in sorted(catalogue().talents.values(), key=lambda t: t.name.casefold())
        if (status is None or status in (t.status(ai=False), t.status(ai=True)))
        and (hook is None or any(h == hook or h.split("/")[0] == hook for h in t.hooks))
    ]
    if json_out:
        _emit(catalogue_report.as_json(chosen))
    else:
        typer.echo(catalogue_report.table(chosen))


@app.command()
def coverage(
    root: Annotated[Path, typer.Option(help="The checkout whose positions/ and tests/ are read.")] = Path("."),
    kind: Annotated[Optional[str], typer.Option(help="Only rows of this kind: section, talent, faq, chapter.")] = None,
    status: Annotated[Optional[str], typer.Option(help="Only rows with this status: traced, partly, outside the board, missing.")] = None,
    json_out: JsonOpt = False,
) -> None:
    """The traceability matrix: each core rule section, talent, FAQ ruling and chapter rule, the
    encodings that cite it, the positions and tests that exercise it, and its status."""
    from adjudicator.questions import traceability  # imported here: only `coverage` reads the citations
    from adjudicator.show import coverage_report
    from adjudicator.solving.solve import encoding_dir

    if kind is not None and kind not in traceability.KINDS:
        _fail(f"--kind: expected one of {', '.join(traceability.KINDS)}, not {kind!r}")
    if status is not None and status not in traceability.STATUSES:
        _fail(f"--status: expected one of {', '.join(traceability.STATUSES)}, not {status!r}")
    if not (root / "positions").is_dir():
        _fail(f"{root}: no positions/ folder; run from the repository root or pass --root")
    rows = [r for r in traceability.matrix(root, encoding_dir())
            if (kind is None or r.kind == kind) and (status is None or r.status == status)]
    if json_out:
        _emit(coverage_report.as_json(rows))
    else:
        typer.echo(coverage_report.table(rows))


@app.command()
def scenarios(json_out: JsonOpt = False) -> None:
    """The Harbinger chapters: opponents, marks, and every rule each changes, with its status and tests."""
    from adjudicator.position.scenarios import chapters
    from adjudicator.show import scenarios_report

    listed = list(chapters().values())
    if json_out:
        _emit(scenarios_report.as_json(listed))
    else:
        typer.echo(scenarios_report.table(listed))


@app.command()
def attacks(
    position: PositionArg,
    unit: Annotated[Optional[str], typer.Option(help="Only this unit.")] = None,
    ai: AiOpt = False,
    reading: ReadingOpt = None,
    timeout: TimeoutOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """What each unit may, or must, attack now, and what each attack leads to."""
    from adjudicator.questions import adjudicate  # imported here: only the solving commands ask questions
    from adjudicator.show import render_text  # imported here: only the solving commands print answers

    deadline = _deadline(timeout, json_out)
    pos = _load(position, reading)
    _check_unit(position, pos, unit)
    results = adjudicate.attack_options(pos, unit, _ai_flag(ai), deadline)
    _answered()
    if json_out:
        _emit([r.as_json() for r in results])
    else:
        _per_unit(pos, results, ai, "attack", render_text.attack_options)
    _settle(results[0].notices if results else ())


DieOpt = Annotated[Optional[Path], typer.Option("--die", help="A spire die face table (docs/dice.md).")]


def _step_command(step: Step) -> None:
    """The command of one entry of the steps table (adjudicator/questions/steps.py): the options the
    question takes, its answer printed by the renderer the entry names."""

    def command(
        position: PositionArg,
        ai: AiOpt = False,
        limit: Optional[int] = None,
        every: AllOpt = False,
        die: DieOpt = None,
        reading: ReadingOpt = None,
        timeout: TimeoutOpt = None,
        progress: ProgressOpt = None,
        json_out: JsonOpt = False,
    ) -> None:
        from adjudicator.show import render_text  # imported here: only the solving commands print answers

        deadline = _deadline(timeout, json_out)
        shown = _limit(limit, every, step.limit)
        pos = _load(position, reading)
        options: dict[str, Any] = {}
        if die is not None:
            from adjudicator.position.dice import DieFileError, load_die  # imported here: only --die reads one

            try:
                options["die"] = load_die(die)
            except DieFileError as error:
                _fail(str(error), "die-file")
        reporter = _progress(progress, step.noun) if step.progress else None
        result = step.ask(pos, _ai_flag(ai), shown, deadline, reporter, **options)
        if reporter is not None and not result.complete:
            reporter.stopped(result.count)
        _answered()
        _print_step(result, json_out, getattr(render_text, step.renderer), timeout)
        _settle((*result.notices, *getattr(result, "gaps", ())))

    dropped = {"ai": not step.sides, "progress": not step.progress, "die": "die" not in step.options}
    hints = {"position": PositionArg, "ai": AiOpt, "limit": Annotated[Optional[int], _limit_option(step.limit)],
             "every": AllOpt, "die": DieOpt, "reading": ReadingOpt, "timeout": TimeoutOpt,
             "progress": ProgressOpt, "json_out": JsonOpt}
    params = [p.replace(annotation=hints[p.name]) for p in inspect.signature(command).parameters.values()
              if not dropped.get(p.name)]
    command.__signature__ = inspect.Signature(params, return_annotation=None)  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in params}
    command.__doc__ = step.summary
    app.command(step.name)(command)


for _step in STEPS:
    _step_command(_step)


MoveOpt = Annotated[str, typer.Option("--move", help='A move or attack in notation (docs/notation.md), e.g. "harrier b2-c2-c3".')]


def _claim(path: Path, position: Position, text: str) -> Claim:
    from adjudicator.answers.notation import NotationError, parse  # imported here: only --move is notation

    try:
        return parse(text, position)
    except NotationError as error:
        _fail(f"{path}: --move: {error}", "notation")


@app.command()
def check(
    position: PositionArg,
    move: MoveOpt,
    ai: AiOpt = False,
    reading: ReadingOpt = None,
    timeout: TimeoutOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Is a move or attack legal, mandatory or illegal, and by which rules. Exit status 1 if illegal."""
    from adjudicator.questions import dispute  # imported here: only `check` and `explain` judge a claim
    from adjudicator.show import render_text  # imported here: only the solving commands print answers

    deadline = _deadline(timeout, json_out)
    pos = _load(position, reading)
    result = dispute.check(pos, _claim(position, pos, move), _ai_flag(ai), deadline)
    _answered()
    if json_out:
        _emit(result.as_json())
    else:
        typer.echo(render_text.check(result))
    _settle(result.notices)
    if result.judgement.verdict == "illegal":
        raise typer.Exit(exit_codes.NO)


@app.command()
def explain(
    position: PositionArg,
    move: MoveOpt,
    ai: AiOpt = False,
    reading: ReadingOpt = None,
    timeout: TimeoutOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Why a move or attack is legal or mandatory, and why each other end hex or target is not.
    Exit status 1 if illegal."""
    from adjudicator.questions import dispute  # imported here: only `check` and `explain` judge a claim
    from adjudicator.show import render_text  # imported here: only the solving commands print answers

    deadline = _deadline(timeout, json_out)
    pos = _load(position, reading)
    result = dispute.explain(pos, _claim(position, pos, move), _ai_flag(ai), deadline)
    _answered()
    if json_out:
        _emit(result.as_json())
    else:
        typer.echo(render_text.explanation(result))
    _settle(result.check.notices)
    if result.check.judgement.verdict == "illegal":
        raise typer.Exit(exit_codes.NO)


@app.command()
def readings(
    position: PositionArg,
    only: Annotated[Optional[list[str]], typer.Option("--only", help="Switch only this reading (repeatable).")] = None,
    timeout: TimeoutOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Where switching an interpretation (docs/readings.md) changes the outcomes of this position."""
    from adjudicator.questions import reading_effects  # imported here: only `readings` compares them

    deadline = _deadline(timeout, json_out)
    unknown = sorted(set(only or ()) - set(READINGS))
    if unknown:
        _fail(f"--only: unknown reading {', '.join(unknown)}; known: {', '.join(sorted(READINGS))}")
    pos = _load(position)
    effects = reading_effects.reading_effects(pos, deadline, tuple(only or READINGS))
    _answered()
    if json_out:
        _emit([e.as_json() for e in effects])
        return
    if not effects:
        typer.echo("no reading changes any outcome of this position")
    for e in effects:
        typer.echo(f"{e.reading}={e.value} (instead of {e.baseline}) changes {e.question}:")
        typer.echo("".join(f"  + {line}\n" for line in e.gained) + "".join(f"  - {line}\n" for line in e.lost), nl=False)


PICTURES = (".svg", ".png")


def _check_output(position: Path, output: Path) -> None:
    """Refuse to overwrite the position file, or any existing file that is not a picture."""
    if not output.exists():
        return
    try:
        same = position.exists() and os.path.samefile(position, output)
    except OSError:
        same = False
    if same:
        _fail(f"{output}: that is the position file; write the picture to another file", "output")
    if output.suffix.lower() not in PICTURES:
        _fail(f"{output}: exists and is not an .svg or .png file; render overwrites only pictures", "output")


@app.command()
def render(
    position: PositionArg,
    output: Annotated[
        Path, typer.Option("-o", "--output", help="Where to write the picture: a new file, or an existing .svg or .png.")
    ],
    move: Annotated[Optional[str], typer.Option("--move", help="Draw this move or attack (docs/notation.md).")] = None,
    unit: Annotated[Optional[str], typer.Option(help="Draw this unit's outcomes at the current step.")] = None,
    image: Annotated[str, typer.Option("--format", help="svg, or png (needs resvg-py: pip install '.[png]').")] = "svg",
    narrow: Annotated[bool, typer.Option("--narrow", help="The legend below the board, for a phone's screen.")] = False,
    ai: AiOpt = False,
    reading: ReadingOpt = None,
    timeout: TimeoutOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Draw the position as SVG (or PNG): terrain, chips, marks; a move's route or a unit's options."""
    from adjudicator.show import render_svg  # imported here: only `render` draws
    from adjudicator.show.overlay import overlay_of

    deadline = _deadline(timeout, json_out)
    if image not in ("svg", "png"):
        _fail(f"--format: expected svg or png, not {image!r}")
    _check_output(position, output)
    pos = _load(position, reading)
    _check_unit(position, pos, unit)
    claim = _claim(position, pos, move) if move is not None else None
    overlay = overlay_of(pos, claim, unit, _ai_flag(ai), deadline)
    _answered()
    svg = render_svg.render(pos, **overlay, narrow=narrow)
    try:
        output.write_bytes(render_svg.to_png(svg) if image == "png" else svg.encode("utf-8"))
    except (RuntimeError, OSError) as error:
        _fail(f"{output}: {error}", "output")
    drawn = {key: len(overlay.get(key, ())) for key in ("moves", "attacks", "forbidden")}
    if json_out:
        _emit({"file": str(output), "format": image, **drawn})
    else:
        counts = ", ".join(f"{n} {key}" for key, n in drawn.items() if n)
        typer.echo(f"{output}: {image}" + (f" ({counts} drawn)" if counts else ""))


@app.command()
def serve(
    position: Annotated[
        Optional[Path], typer.Argument(help="A position file the page opens at once (docs/position-format.md).")
    ] = None,
    host: Annotated[str, typer.Option(help="The address to listen on; another than 127.0.0.1 opens the page to the network.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="The port; 0 picks a free one.")] = 8765,
    lan: Annotated[bool, typer.Option("--lan", help="Open the page to phones on this network: listen on every address, print the page's address there and its QR code; shared links carry that address.")] = False,
    timeout: Annotated[
        float, typer.Option("--timeout", metavar="SECONDS", callback=_seconds, help="The most one question may take (default 20).")
    ] = 20.0,
) -> None:
    """A board in the browser: build a position by tapping, ask what a unit may and must do, and why."""
    from adjudicator.web.api import Limits  # imported here: only `serve` runs the web page
    from adjudicator.web.lan import lan_address, qr_terminal
    from adjudicator.web.server import make_server

    text = None
    if position is not None:
        _load(position)  # its located errors before the server starts
        text = position.read_text(encoding="utf-8")
    if lan:
        host = "0.0.0.0"
    try:
        server = make_server(host, port, Limits(seconds=timeout), text)
    except OSError as error:
        _fail(f"cannot listen on {host}:{port}: {error.strerror or error}", "serve")
    if lan:
        server.public = f"http://{lan_address()}:{server.server_address[1]}/"
        typer.echo(qr_terminal(server.public) + f"phones on this network: {server.public} (the code above opens it)")
    typer.echo(f"the board is at {server.url} (Ctrl-C stops it)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
