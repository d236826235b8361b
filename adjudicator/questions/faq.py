"""`cloudspire faq`: every official ruling FAQ-01 … FAQ-30, and whether its cases hold."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adjudicator.questions.expectations import CaseResult, check_document, position_files
from adjudicator.position.load import PositionFileError, load_document
from adjudicator.solving.solve import Deadline, TimedOut

FAQ_IDS = tuple(f"FAQ-{n:02d}" for n in range(1, 31))
INCOMPLETE = "incomplete"  # a ruling with a case the deadline left unchecked, and none failing
OUTSIDE = "outside the board"
# Rulings about a phase the project does not adjudicate, with the reason (faq-rulings.md).
OUTSIDE_RULINGS = {
    "FAQ-06": "a fortress advancement used once per Market Phase: the market is not a board question",
    "FAQ-12": "the heir fortress die is a Build Phase option; while it lies on a spire, the position "
              "gives that spire the talents it grants",
}


@dataclass(frozen=True)
class Ruling:
    id: str
    cases: tuple[CaseResult, ...]

    @property
    def status(self) -> str:
        if not self.cases:
            return OUTSIDE if self.id in OUTSIDE_RULINGS else "uncovered"
        if any(c.failures for c in self.cases):
            return "fail"
        return "pass" if all(c.complete for c in self.cases) else INCOMPLETE

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "status": self.status,
            "why": OUTSIDE_RULINGS.get(self.id) if self.status == OUTSIDE else None,
            "cases": [
                {"file": c.file, "passed": c.passed, "complete": c.complete, "failures": list(c.failures)}
                for c in self.cases
            ],
        }


class Run:
    """The FAQ cases of a folder, checked one by one; ``report`` says how far it got at any moment, so
    that a hard stop past the deadline (a grounding clingo cannot interrupt) still prints the cases
    already checked, the rest marked incomplete."""

    def __init__(self, root: Path) -> None:
        self._results: list[CaseResult] = []
        self._pending: list[tuple[str, Any]] = []  # (file, its document), in the folder's order
        for path in position_files(root):
            try:
                doc = load_document(path)
            except PositionFileError as error:
                self._results.append(CaseResult(str(path), (), (str(error),)))
            else:
                if doc.faq:  # a position that tests no ruling: solving it again would only cost time
                    self._pending.append((str(path), doc))

    def check(self, deadline: Deadline | None = None, progress: Callable[[int], None] | None = None) -> list[Ruling]:
        """Check every case; once ``deadline`` passes, the cases left are marked incomplete.
        ``progress`` is told how many cases have been checked, after each one."""
        checked = 0
        while self._pending:
            file, doc = self._pending[0]
            try:
                result = check_document(doc, file, deadline)
            except TimedOut:
                result = CaseResult(file, doc.faq, (), complete=False)
            self._results.append(result)
            self._pending.pop(0)
            checked += 1
            if progress is not None:
                progress(checked)
        return self.report()

    def report(self) -> list[Ruling]:
        """Every ruling with its cases checked so far; a case not yet checked counts as incomplete."""
        by_id: dict[str, list[CaseResult]] = {i: [] for i in FAQ_IDS}
        waiting = [CaseResult(file, doc.faq, (), complete=False) for file, doc in list(self._pending)]
        for result in (*self._results, *waiting):
            for faq_id in result.faq:
                by_id.setdefault(faq_id, []).append(result)
        return [Ruling(i, tuple(cases)) for i, cases in by_id.items()]


def table(rulings: list[Ruling]) -> str:
    lines = []
    for r in rulings:
        files = ", ".join(Path(c.file).name for c in r.cases)
        lines.append(f"{r.id}  {r.status:<10}  {files or OUTSIDE_RULINGS.get(r.id, '')}")
        for case in r.cases:
            lines.extend(f"            {Path(case.file).name}: {f}" for f in case.failures)
            if not case.complete:
                lines.append(f"            {Path(case.file).name}: not checked before the deadline")
    return "\n".join(lines)
