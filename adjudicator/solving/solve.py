"""Run clingo on the encodings in asp/ with a list of fact Symbols; return the shown atoms."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from importlib.resources import files
from pathlib import Path

import clingo
from clingo import Symbol, ast

from adjudicator.position.talents import catalogue


@cache
def encoding_dir() -> Path:
    """asp/ beside the package in a checkout, adjudicator/asp inside an installed wheel."""
    packaged = Path(str(files("adjudicator"))) / "asp"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "asp"


@cache
def _program(entry: str = "main.lp") -> dict[str, tuple[ast.AST, ...]]:
    """An encoding file parsed once per process, by program part: ``base`` (movement and the board),
    ``explain`` and ``combat``. Adding parsed statements is faster than loading, and a movement
    question adds and grounds only the base part."""
    parts: dict[str, list[ast.AST]] = {"base": []}
    current = parts["base"]

    def take(statement: ast.AST) -> None:
        nonlocal current
        if statement.ast_type is ast.ASTType.Program:
            current = parts.setdefault(statement.name, [])
        current.append(statement)

    ast.parse_files([str(encoding_dir() / entry)], take)
    return {name: tuple(statements) for name, statements in parts.items()}


# The facts that name a chip's talent, and the argument that holds the name (asp/doc.lp).
_TALENT_FACTS = {("talent", 2): 1, ("ltalent", 3): 2, ("stalent", 2): 1}


def talent_files(facts: Iterable[Symbol]) -> list[str]:
    """The talent encodings (asp/talents/) this question needs: those of the talents its facts name.
    A talent no chip holds is never grounded, so the catalogue's size costs a question nothing."""
    names: set[str] = set()
    for fact in facts:
        where = _TALENT_FACTS.get((fact.name, len(fact.arguments)))
        if where is not None:
            names.add(fact.arguments[where].string)
    if not names:
        return []
    return [f"talents/{name}" for name in catalogue().encoding_files(names)]


class EncodingWarning(Exception):
    """clingo warned about the program itself (an undefined atom is usually a misspelt predicate)."""


def render(facts: Iterable[Symbol]) -> str:
    """Facts as clingo itself prints the Symbols: every string quoted and escaped by clingo."""
    return "".join(f"{fact}.\n" for fact in facts)


def _control(
    arguments: list[str], facts: Sequence[Symbol], fixed: str, strict: bool, parts: tuple[str, ...]
) -> clingo.Control:
    """The encodings' ``parts`` plus ``facts`` (in the base part), grounded."""
    warnings: list[str] = []

    def log(code: clingo.MessageCode, message: str) -> None:
        warnings.append(message)

    control = clingo.Control(
        [*arguments, "--warn=all" if strict else "--warn=none"], logger=log if strict else None
    )
    programs = [_program(), *(_program(name) for name in talent_files(facts))]
    with ast.ProgramBuilder(control) as builder:
        for program in programs:
            for part in parts:
                for statement in program.get(part, ()):
                    builder.add(statement)
    # Facts go in as program text rendered by clingo itself from the Symbols (str() quotes and escapes
    # every string), so the grounder knows they hold and simplifies; backend atoms would stay undecided.
    control.add("base", [], fixed + render(facts))
    control.ground([(part, []) for part in parts])
    if strict and warnings:
        raise EncodingWarning("\n".join(warnings))
    return control


COMBAT = ("base", "combat")


def solve_all(facts: Sequence[Symbol], *, project: bool = False, strict: bool = False) -> list[list[Symbol]]:
    """The shown atoms of every answer set of the combat encodings plus ``facts``; with ``project``,
    one answer set per distinct set of fin/1 atoms (the end states)."""
    control = _control(["0", "--project"] if project else ["0"], facts, "", strict, COMBAT)
    models: list[list[Symbol]] = []
    with control.solve(yield_=True) as handle:
        for model in handle:
            models.append(model.symbols(shown=True))
    return models


def solve(
    facts: Sequence[Symbol], *, fixed: str = "", strict: bool = False, parts: tuple[str, ...] = ("base",)
) -> list[Symbol]:
    """The shown atoms of the (unique) answer set of the encodings' ``parts`` plus ``facts``.

    ``fixed`` is further facts already rendered by ``render``: a caller asking many questions about
    one board renders the parts that do not change only once.
    """
    control = _control([], facts, fixed, strict, parts)
    shown: list[Symbol] = []
    with control.solve(yield_=True) as handle:
        for model in handle:
            shown = model.symbols(shown=True)
            break
    return shown
