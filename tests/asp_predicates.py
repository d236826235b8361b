"""What each encoding file defines and reads, parsed with clingo's own parser: the hook contract's
tests (tests/test_hook_contract.py) compare these with asp/core/hooks.lp, asp/doc.lp and the catalogue."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from clingo.ast import ASTType, parse_files

ASP = Path(__file__).resolve().parent.parent / "asp"
Predicate = tuple[str, int]


@dataclass
class Uses:
    heads: set[Predicate] = field(default_factory=set)  # defined by a rule of the file
    reads: set[Predicate] = field(default_factory=set)  # read in a body or a condition
    declared: set[Predicate] = field(default_factory=set)  # #defined in the file


def _atoms(node: Any, into: set[Predicate], conditions: set[Predicate]) -> None:
    """The predicates of ``node``'s atoms; a conditional literal's condition goes to ``conditions``."""
    if not hasattr(node, "ast_type"):
        if isinstance(node, (list, tuple)) or type(node).__name__ == "ASTSequence":
            for child in node:
                _atoms(child, into, conditions)
        return
    if node.ast_type == ASTType.SymbolicAtom:
        term = node.symbol
        if term.ast_type == ASTType.Function:
            into.add((term.name, len(term.arguments)))
        elif term.ast_type == ASTType.SymbolicTerm:
            into.add((str(term.symbol), 0))
        return
    if node.ast_type == ASTType.ConditionalLiteral:
        _atoms(node.literal, into, conditions)
        _atoms(node.condition, conditions, conditions)
        return
    for key in node.child_keys:
        _atoms(getattr(node, key), into, conditions)


@cache  # each file parsed once a process: the contract's tests ask of the core files for every talent
def uses(path: Path) -> Uses:
    """What ``path`` defines and reads; shared between callers, so read, never changed."""
    found = Uses()

    def take(statement: Any) -> None:
        if statement.ast_type == ASTType.Rule:
            _atoms(statement.head, found.heads, found.reads)
            _atoms(statement.body, found.reads, found.reads)
        elif statement.ast_type == ASTType.Defined:
            found.declared.add((statement.name, statement.arity))
        elif statement.ast_type == ASTType.ShowSignature:
            found.reads.add((statement.name, statement.arity))

    parse_files([str(path)], take)
    return found


def extension_files() -> list[Path]:
    """The talent and chapter files: grounded only when a position needs them."""
    return sorted([*(ASP / "talents").glob("*.lp"), *(ASP / "scenarios").glob("*.lp")])


def core_files() -> list[Path]:
    extensions = set(extension_files())
    return sorted(p for p in ASP.rglob("*.lp") if p not in extensions and p.name not in ("doc.lp", "hooks.lp"))


def hooks() -> set[Predicate]:
    return uses(ASP / "core" / "hooks.lp").declared
