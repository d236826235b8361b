"""The `cloudspire` command: readable tables for people, --json for tools."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from collections.abc import Callable, Sequence
from typing import Annotated, Any, NoReturn, Optional

import typer

from adjudicator.questions import adjudicate
from adjudicator.questions import faq as faq_report
from adjudicator.show import render_text
from adjudicator.questions import dispute
from adjudicator.questions import reading_effects
from adjudicator.show import render_svg
from adjudicator.answers.attacks import AttackOutcome
from adjudicator.answers.moves import MoveOutcome
from adjudicator.position.dice import DieFileError, load_die
from adjudicator.position.claims import AttackClaim, Claim, MoveClaim
from adjudicator.answers.notation import NotationError, parse
from adjudicator.facts.board import position_facts
from adjudicator.position.load import PositionFileError, load_position
from adjudicator.position.model import Position
from adjudicator.position.readings import resolve
from adjudicator.solving.solve import render as render_facts

app = typer.Typer(add_completion=False, no_args_is_help=True, help=__doc__)

PositionArg = Annotated[Path, typer.Argument(help="A position file (docs/position-format.md).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable output (docs/output-format.md).")]
AiOpt = Annotated[bool, typer.Option("--ai", help="List only what the AI is obliged to do.")]
ReadingOpt = Annotated[
    Optional[list[str]], typer.Option("--reading", help="Switch an interpretation: NAME=VALUE (docs/readings.md).")
]


def _fail(message: str) -> NoReturn:
    typer.echo(message, err=True)
    raise typer.Exit(2)


def _emit(data: Any) -> None:
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False))


def _load(path: Path, readings: list[str] | None = None) -> Position:
    try:
        position = load_position(path)
    except PositionFileError as error:
        _fail(str(error))
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
        _fail(f"{path}: no unit {unit!r}; units: {', '.join(sorted(position.units))}")


def _ai_flag(ai: bool) -> bool | None:
    return True if ai else None


def _per_unit(pos: Position, results: Sequence[Any], ai: bool, step: str, show: Callable[..., str]) -> None:
    """The board, then each unit's answer; a note when the position is at another step."""
    typer.echo(render_text.board(pos) + "\n")
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
        results.append({"file": str(position), "valid": not problems, "problems": [p.__dict__ for p in problems]})
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
            raise typer.Exit(1)
    if invalid:
        raise typer.Exit(2)


@app.command()
def facts(
    position: PositionArg,
    unit: Annotated[Optional[str], typer.Option(help="Facts for this unit's question.")] = None,
    ai: AiOpt = False,
    reading: ReadingOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Print exactly the ASP facts clingo receives for `moves`."""
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
    json_out: JsonOpt = False,
) -> None:
    """Every legal outcome of a unit's move, or of each unit of the faction whose turn it is."""
    pos = _load(position, reading)
    _check_unit(position, pos, unit)
    if unit is not None:
        results = [adjudicate.unit_options(pos, unit, _ai_flag(ai))]
    else:
        results = adjudicate.faction_options(pos, _ai_flag(ai))
    if json_out:
        _emit([r.as_json() for r in results])
    else:
        _per_unit(pos, results, ai, "movement", render_text.unit_options)


@app.command()
def turn(
    position: PositionArg,
    ai: AiOpt = False,
    limit: Annotated[Optional[int], typer.Option(help="Print at most this many final boards.")] = 20,
    reading: ReadingOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Every distinct final board of the current faction's whole movement step, with the exact count."""
    pos = _load(position, reading)
    result = adjudicate.movement_step(pos, _ai_flag(ai), limit)
    if json_out:
        _emit(result.as_json())
    else:
        typer.echo(render_text.step(result))


@app.command()
def faq(
    root: Annotated[Path, typer.Option(help="Where the position files are.")] = Path("positions"),
    json_out: JsonOpt = False,
) -> None:
    """Run the FAQ cases in positions/ and report every ruling FAQ-01 … FAQ-30."""
    if not root.is_dir():
        _fail(f"{root}: no such folder; run from the repository root or pass --root")
    report = faq_report.run(root)
    if json_out:
        _emit([r.as_json() for r in report])
    else:
        typer.echo(faq_report.table(report))
    if any(r.status == "fail" for r in report):
        raise typer.Exit(1)


@app.command()
def attacks(
    position: PositionArg,
    unit: Annotated[Optional[str], typer.Option(help="Only this unit.")] = None,
    ai: AiOpt = False,
    reading: ReadingOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """What each unit may, or must, attack now, and what each attack leads to."""
    pos = _load(position, reading)
    _check_unit(position, pos, unit)
    results = adjudicate.attack_options(pos, unit, _ai_flag(ai))
    if json_out:
        _emit([r.as_json() for r in results])
    else:
        _per_unit(pos, results, ai, "attack", render_text.attack_options)


@app.command()
def step(
    position: PositionArg,
    ai: AiOpt = False,
    limit: Annotated[Optional[int], typer.Option(help="Print at most this many end states.")] = 20,
    reading: ReadingOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Every distinct end state of the current faction's whole attack step, with the exact count."""
    pos = _load(position, reading)
    result = adjudicate.attack_step(pos, _ai_flag(ai), limit)
    if json_out:
        _emit(result.as_json())
    else:
        typer.echo(render_text.attack_step(result))


@app.command()
def fire(
    position: PositionArg,
    die: Annotated[Optional[Path], typer.Option(help="A spire die face table (docs/dice.md).")] = None,
    limit: Annotated[Optional[int], typer.Option(help="Print at most this many results.")] = 50,
    reading: ReadingOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """The Spires Fire step: which spires fire, their targets, every result with its exact odds."""
    pos = _load(position, reading)
    try:
        faces = load_die(die) if die is not None else None
    except DieFileError as error:
        _fail(str(error))
    result = adjudicate.spires_fire(pos, faces, limit)
    if json_out:
        _emit(result.as_json())
    else:
        typer.echo(render_text.fire_step(result))


MoveOpt = Annotated[str, typer.Option("--move", help='A move or attack in notation (docs/notation.md), e.g. "harrier b2-c2-c3".')]


def _claim(path: Path, position: Position, text: str) -> Claim:
    try:
        return parse(text, position)
    except NotationError as error:
        _fail(f"{path}: --move: {error}")


@app.command()
def check(
    position: PositionArg,
    move: MoveOpt,
    ai: AiOpt = False,
    reading: ReadingOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Is a move or attack legal, mandatory or illegal, and by which rules. Exit status 1 if illegal."""
    pos = _load(position, reading)
    result = dispute.check(pos, _claim(position, pos, move), _ai_flag(ai))
    if json_out:
        _emit(result.as_json())
    else:
        typer.echo(render_text.check(result))
    if result.judgement.verdict == "illegal":
        raise typer.Exit(1)


@app.command()
def explain(
    position: PositionArg,
    move: MoveOpt,
    ai: AiOpt = False,
    reading: ReadingOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Why a move or attack is legal or mandatory, and why each other end hex or target is not."""
    pos = _load(position, reading)
    result = dispute.explain(pos, _claim(position, pos, move), _ai_flag(ai))
    if json_out:
        _emit(result.as_json())
    else:
        typer.echo(render_text.explanation(result))


@app.command()
def readings(position: PositionArg, json_out: JsonOpt = False) -> None:
    """Where switching an interpretation (docs/readings.md) changes the outcomes of this position."""
    pos = _load(position)
    effects = reading_effects.reading_effects(pos)
    if json_out:
        _emit([e.as_json() for e in effects])
        return
    if not effects:
        typer.echo("no reading changes any outcome of this position")
    for e in effects:
        typer.echo(f"{e.reading}={e.value} (instead of {e.baseline}) changes {e.question}:")
        typer.echo("".join(f"  + {line}\n" for line in e.gained) + "".join(f"  - {line}\n" for line in e.lost), nl=False)


def _overlay(pos: Position, claim: Claim | None, unit: str | None, ai: bool | None) -> dict[str, Any]:
    """What to draw over the board (render_svg.render's keywords): a claimed move or attack with the
    unit's legal outcomes, the claim crossed out when the rules forbid it; or every outcome of one
    unit at the current step."""
    if isinstance(claim, MoveClaim):
        options = adjudicate.unit_options(pos, claim.unit, ai).outcomes
        taken = [
            m for m in options
            if m.end == claim.end and (claim.path is None or m.path == claim.path)
            and (claim.displaced is None or sorted((d.unit, d.to) for d in m.displaced) == list(claim.displaced))
        ]
        if taken:
            return {"moves": taken[:1], "focus": claim.unit}
        path = claim.path or (pos.node_of(claim.unit), claim.end)
        forbidden = MoveOutcome(claim.unit, claim.end, "claimed", (), path)
        return {"moves": list(options), "forbidden": [forbidden], "focus": claim.unit}
    if isinstance(claim, AttackClaim):
        [options] = adjudicate.attack_options(pos, claim.unit, ai)
        if claim.target is None:
            return {"attacks": list(options.outcomes), "focus": claim.unit}
        key = (claim.unit, claim.target, claim.redirected_to)
        taken = [o for o in options.outcomes if o.key == key]
        if taken:
            return {"attacks": taken, "focus": claim.unit}
        forbidden = AttackOutcome(claim.unit, claim.target, claim.redirected_to)
        return {"attacks": list(options.outcomes), "forbidden": [forbidden], "focus": claim.unit}
    if unit is None:
        return {}
    if pos.turn.step == "attack":
        [options] = adjudicate.attack_options(pos, unit, ai)
        return {"attacks": list(options.outcomes), "focus": unit}
    return {"moves": list(adjudicate.unit_options(pos, unit, ai).outcomes), "focus": unit}


@app.command()
def render(
    position: PositionArg,
    output: Annotated[Path, typer.Option("-o", "--output", help="Where to write the picture.")],
    move: Annotated[Optional[str], typer.Option("--move", help="Draw this move or attack (docs/notation.md).")] = None,
    unit: Annotated[Optional[str], typer.Option(help="Draw this unit's outcomes at the current step.")] = None,
    image: Annotated[str, typer.Option("--format", help="svg, or png (needs resvg-py).")] = "svg",
    ai: AiOpt = False,
    reading: ReadingOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Draw the position as SVG (or PNG): terrain, chips, marks; a move's route or a unit's options."""
    if image not in ("svg", "png"):
        _fail(f"--format: expected svg or png, not {image!r}")
    pos = _load(position, reading)
    _check_unit(position, pos, unit)
    claim = _claim(position, pos, move) if move is not None else None
    overlay = _overlay(pos, claim, unit, _ai_flag(ai))
    svg = render_svg.render(pos, **overlay)
    try:
        output.write_bytes(render_svg.to_png(svg) if image == "png" else svg.encode("utf-8"))
    except (RuntimeError, OSError) as error:
        _fail(f"{output}: {error}")
    drawn = {key: len(overlay.get(key, ())) for key in ("moves", "attacks", "forbidden")}
    if json_out:
        _emit({"file": str(output), "format": image, **drawn})
    else:
        counts = ", ".join(f"{n} {key}" for key, n in drawn.items() if n)
        typer.echo(f"{output}: {image}" + (f" ({counts} drawn)" if counts else ""))
