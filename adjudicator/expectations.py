"""Holding a position file to its `expected` section (docs/position-format.md).

Used by the parametrised position test and by `cloudspire faq`: both run the same checks.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adjudicator.adjudicate import movement_step, unit_options
from adjudicator.load import PositionDocument, load_document
from adjudicator.outcomes import MoveOutcome

MOVE_KEYS = {"moves": False, "ai-moves": True}
TURN_KEYS = {"turn": None, "ai-turn": True}


@dataclass(frozen=True)
class CaseResult:
    file: str
    faq: tuple[str, ...]
    failures: tuple[str, ...]

    @property
    def passed(self) -> bool:
        return not self.failures


def _outcome_key(end: str, displaced: dict[str, str]) -> tuple[str, tuple[tuple[str, str], ...]]:
    return (end, tuple(sorted(displaced.items())))


def _actual_key(move: MoveOutcome) -> tuple[str, tuple[tuple[str, str], ...]]:
    return _outcome_key(move.end, {d.unit: d.to for d in move.displaced})


def check_moves(doc: PositionDocument, key: str, expected: dict[str, list[dict[str, Any]]]) -> list[str]:
    failures = []
    for uid, wanted in expected.items():
        if uid not in doc.position.units:
            failures.append(f"{key}.{uid}: no such unit")
            continue
        # `moves` follows the controller; `ai-moves` forces the AI's obligations.
        ai = True if MOVE_KEYS[key] else None
        actual = {_actual_key(m): m for m in unit_options(doc.position, uid, ai=ai).outcomes}
        wanted_keys = {}
        for entry in wanted or []:
            wanted_keys[_outcome_key(str(entry["end"]), dict(entry.get("displaced") or {}))] = entry
        for missing in sorted(set(wanted_keys) - set(actual)):
            failures.append(f"{key}.{uid}: expected outcome {_show(missing)} is not listed")
        for extra in sorted(set(actual) - set(wanted_keys)):
            failures.append(f"{key}.{uid}: unexpected outcome {_show(extra)} (path {'-'.join(actual[extra].path)})")
        for k in sorted(set(actual) & set(wanted_keys)):
            entry, move = wanted_keys[k], actual[k]
            if "kind" in entry and entry["kind"] != move.kind:
                failures.append(f"{key}.{uid}: {_show(k)} is {move.kind}, expected {entry['kind']}")
            if "path" in entry and tuple(entry["path"]) != move.path:
                failures.append(
                    f"{key}.{uid}: {_show(k)} path {'-'.join(move.path)}, expected {'-'.join(entry['path'])}"
                )
    return failures


def check_turn(doc: PositionDocument, key: str, expected: dict[str, Any]) -> list[str]:
    result = movement_step(doc.position, ai=TURN_KEYS[key])
    failures = []
    if "count" in expected and expected["count"] != result.count:
        failures.append(f"{key}: {result.count} distinct final boards, expected {expected['count']}")
    if "finals" in expected:
        actual = {tuple(sorted(o.final)) for o in result.outcomes}
        wanted = {tuple(sorted((str(u), str(n)) for u, n in f.items())) for f in expected["finals"]}
        for missing in sorted(wanted - actual):
            failures.append(f"{key}: expected final board {dict(missing)} is not produced")
        for extra in sorted(actual - wanted):
            failures.append(f"{key}: unexpected final board {dict(extra)}")
    return failures


def _show(key: tuple[str, tuple[tuple[str, str], ...]]) -> str:
    end, displaced = key
    pushed = ", ".join(f"{u}→{h}" for u, h in displaced)
    return f"end {end}" + (f" displacing {pushed}" if pushed else "")


def check_document(doc: PositionDocument, file: str) -> CaseResult:
    failures: list[str] = []
    for key, value in doc.expected.items():
        if key in MOVE_KEYS:
            failures += check_moves(doc, key, value or {})
        elif key in TURN_KEYS:
            failures += check_turn(doc, key, value or {})
        else:
            failures.append(f"expected.{key}: unknown expectation; known: {', '.join([*MOVE_KEYS, *TURN_KEYS])}")
    if not doc.expected:
        failures.append("the file has no expected outcomes")
    return CaseResult(file, doc.faq, tuple(failures))


def check_file(path: Path) -> CaseResult:
    return check_document(load_document(path), str(path))


def position_files(root: Path) -> list[Path]:
    return sorted(root.rglob("*.yaml"))
