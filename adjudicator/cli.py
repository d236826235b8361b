"""The `cloudspire` command: readable tables for people, --json for tools."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any, NoReturn, Optional

import typer

from adjudicator import adjudicate, faq as faq_report, render_text
from adjudicator.dice import DieFileError, load_die
from adjudicator.facts import position_facts
from adjudicator.load import PositionFileError, load_position
from adjudicator.model import Position
from adjudicator.readings import resolve
from adjudicator.solve import render

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


@app.command()
def validate(position: PositionArg, json_out: JsonOpt = False) -> None:
    """Check a position file; list every problem in it."""
    try:
        load_position(position)
    except PositionFileError as error:
        if json_out:
            _emit({"valid": False, "problems": [p.__dict__ for p in error.problems]})
            raise typer.Exit(1)
        _fail(str(error))
    if json_out:
        _emit({"valid": True, "problems": []})
    else:
        typer.echo(f"{position}: valid")


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
        typer.echo(render(symbols), nl=False)


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
        return
    typer.echo(render_text.board(pos) + "\n")
    for r in results:
        is_ai = ai or adjudicate.is_ai(pos, pos.units[r.unit].faction)
        typer.echo(render_text.unit_options(r, pos, is_ai) + "\n")


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
        return
    typer.echo(render_text.board(pos) + "\n")
    for r in results:
        is_ai = ai or adjudicate.is_ai(pos, pos.units[r.unit].faction)
        typer.echo(render_text.attack_options(r, pos, is_ai) + "\n")


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
