"""Run clingo on the encodings in asp/ with a list of fact Symbols; return the shown atoms."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from importlib.resources import files
from pathlib import Path

import clingo
from clingo import Symbol, ast


@cache
def encoding_dir() -> Path:
    """asp/ beside the package in a checkout, adjudicator/asp inside an installed wheel."""
    packaged = Path(str(files("adjudicator"))) / "asp"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent / "asp"


@cache
def _program() -> tuple[ast.AST, ...]:
    """The encodings, parsed once per process: adding parsed statements is faster than loading."""
    statements: list[ast.AST] = []
    ast.parse_files([str(encoding_dir() / "main.lp")], statements.append)
    return tuple(statements)


class EncodingWarning(Exception):
    """clingo warned about the program itself (an undefined atom is usually a misspelt predicate)."""


def render(facts: Iterable[Symbol]) -> str:
    """Facts as clingo itself prints the Symbols: every string quoted and escaped by clingo."""
    return "".join(f"{fact}.\n" for fact in facts)


def solve(facts: Sequence[Symbol], *, fixed: str = "", strict: bool = False) -> list[Symbol]:
    """The shown atoms of the (unique) answer set of the encodings plus ``facts``.

    ``fixed`` is further facts already rendered by ``render``: a caller asking many questions about
    one board renders the parts that do not change only once.
    """
    warnings: list[str] = []

    def log(code: clingo.MessageCode, message: str) -> None:
        warnings.append(message)

    control = clingo.Control(["--warn=all" if strict else "--warn=none"], logger=log if strict else None)
    with ast.ProgramBuilder(control) as builder:
        for statement in _program():
            builder.add(statement)
    # Facts go in as program text rendered by clingo itself from the Symbols (str() quotes and escapes
    # every string), so the grounder knows they hold and simplifies; backend atoms would stay undecided.
    control.add("base", [], fixed + render(facts))
    control.ground([("base", [])])
    if strict and warnings:
        raise EncodingWarning("\n".join(warnings))
    shown: list[Symbol] = []
    with control.solve(yield_=True) as handle:
        for model in handle:
            shown = model.symbols(shown=True)
            break
    return shown
