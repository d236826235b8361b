"""`cloudspire faq`: every official ruling FAQ-01 … FAQ-30, and whether its cases hold."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adjudicator.questions.expectations import CaseResult, check_document, position_files
from adjudicator.position.load import PositionFileError, load_document
from adjudicator.solving.solve import Deadline, TimedOut

FAQ_IDS = tuple(f"FAQ-{n:02d}" for n in range(1, 31))
INCOMPLETE = "incomplete"  # a ruling with a case the deadline left unchecked, and none failing
OUTSIDE = "outside"  # a ruling about a phase the project does not adjudicate, and no case for it
# The rulings about the market and build phases, which no board position stands in
# (../shared/faq-rulings.md: they would become rule-level tests where they touch what is modelled,
# and neither does: no encoding plays a market or build phase).
OUTSIDE_REASONS = {
    "FAQ-06": "market phase: how often a fortress advancement may be used in one market phase",
    "FAQ-12": "build phase: the heir fortress die is a build option, placed on a fortress spire",
}


@dataclass(frozen=True)
class Ruling:
    id: str
    cases: tuple[CaseResult, ...]

    @property
    def status(self) -> str:
        if not self.cases:
            return OUTSIDE if self.id in OUTSIDE_REASONS else "uncovered"
        if any(c.failures for c in self.cases):
            return "fail"
        return "pass" if all(c.complete for c in self.cases) else INCOMPLETE

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "status": self.status,
            "reason": OUTSIDE_REASONS.get(self.id) if self.status == OUTSIDE else None,
            "cases": [
                {"file": c.file, "passed": c.passed, "complete": c.complete, "failures": list(c.failures)}
                for c in self.cases
            ],
        }


def run(root: Path, deadline: Deadline | None = None) -> list[Ruling]:
    """Every ruling and its cases; once ``deadline`` passes, the cases left are marked incomplete."""
    by_id: dict[str, list[CaseResult]] = {i: [] for i in FAQ_IDS}
    for path in position_files(root):
        try:
            doc = load_document(path)
        except PositionFileError as error:
            result = CaseResult(str(path), (), (str(error),))
        else:
            try:
                result = check_document(doc, str(path), deadline)
            except TimedOut:
                result = CaseResult(str(path), doc.faq, (), complete=False)
        for faq_id in result.faq:
            by_id.setdefault(faq_id, []).append(result)
    return [Ruling(i, tuple(cases)) for i, cases in by_id.items()]


def table(rulings: list[Ruling]) -> str:
    lines = []
    for r in rulings:
        files = ", ".join(Path(c.file).name for c in r.cases)
        lines.append(f"{r.id}  {r.status:<10}  {files or OUTSIDE_REASONS.get(r.id, '')}")
        for case in r.cases:
            lines.extend(f"            {Path(case.file).name}: {f}" for f in case.failures)
            if not case.complete:
                lines.append(f"            {Path(case.file).name}: not checked before the deadline")
    return "\n".join(lines)
