"""Run clingo on the encodings in asp/ with a list of fact Symbols; return the shown atoms."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from importlib.resources import files
from pathlib import Path

import clingo
from clingo import Symbol


@cache
def encoding_dir() -> Path:
    """asp/ beside the package in a checkout, adjudicator/asp inside an installed wheel."""
    packaged = Path(str(files("adjudicator"))) / "asp"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent / "asp"


class EncodingWarning(Exception):
    """clingo warned about the program itself (an undefined atom is usually a misspelt predicate)."""


def solve(facts: Sequence[Symbol], *, strict: bool = False) -> list[Symbol]:
    """The shown atoms of the (unique) answer set of the encodings plus ``facts``."""
    warnings: list[str] = []

    def log(code: clingo.MessageCode, message: str) -> None:
        warnings.append(message)

    control = clingo.Control(["--warn=all" if strict else "--warn=none"], logger=log if strict else None)
    control.load(str(encoding_dir() / "main.lp"))
    with control.backend() as backend:
        for fact in facts:
            backend.add_rule([backend.add_atom(fact)])
    control.ground([("base", [])])
    if strict and warnings:
        raise EncodingWarning("\n".join(warnings))
    shown: list[Symbol] = []
    with control.solve(yield_=True) as handle:
        for model in handle:
            shown = model.symbols(shown=True)
            break
    return shown
