"""`cloudspire faq`: every official ruling FAQ-01 … FAQ-30, and whether its cases hold."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adjudicator.questions.expectations import CaseResult, check_file, position_files
from adjudicator.position.load import PositionFileError

FAQ_IDS = tuple(f"FAQ-{n:02d}" for n in range(1, 31))


@dataclass(frozen=True)
class Ruling:
    id: str
    cases: tuple[CaseResult, ...]

    @property
    def status(self) -> str:
        if not self.cases:
            return "uncovered"
        return "pass" if all(c.passed for c in self.cases) else "fail"

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "status": self.status,
            "cases": [{"file": c.file, "passed": c.passed, "failures": list(c.failures)} for c in self.cases],
        }


def run(root: Path) -> list[Ruling]:
    by_id: dict[str, list[CaseResult]] = {i: [] for i in FAQ_IDS}
    for path in position_files(root):
        try:
            result = check_file(path)
        except PositionFileError as error:
            result = CaseResult(str(path), (), (str(error),))
        for faq_id in result.faq:
            by_id.setdefault(faq_id, []).append(result)
    return [Ruling(i, tuple(cases)) for i, cases in by_id.items()]


def table(rulings: list[Ruling]) -> str:
    lines = []
    for r in rulings:
        files = ", ".join(Path(c.file).name for c in r.cases)
        lines.append(f"{r.id}  {r.status:<9}  {files}")
        for case in r.cases:
            lines.extend(f"           {Path(case.file).name}: {f}" for f in case.failures)
    return "\n".join(lines)
