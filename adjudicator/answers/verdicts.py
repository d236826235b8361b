"""Typed answers of `check` and `explain`: a verdict on a claimed move or attack, and its reasons.

Each reason is one the encodings derived (asp/explain/move.lp, asp/explain/attack.lp), with the rule
it comes from, the words of that rule, and how to say it (adjudicator/data/reasons.yaml).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from adjudicator.answers.notices import Notice, notices_json
from adjudicator.position.data import shipped

LEGAL, MANDATORY, ILLEGAL = "legal", "mandatory", "illegal"
# The core rules' verdict may not stand: a talent that takes part is not modelled (the notices).
UNDETERMINED = "undetermined"


@cache
def _table() -> dict[str, dict[str, str]]:
    return dict(shipped("reasons.yaml"))


def known_reasons() -> dict[str, dict[str, str]]:
    return _table()


@dataclass(frozen=True, order=True)
class Reason:
    """One reason: ``kind`` is ILLEGAL (a rule the move breaks), LEGAL (why it is allowed) or
    MANDATORY (why it must be taken); ``id`` a key of reasons.yaml; ``args`` its arguments."""

    kind: str
    id: str
    args: tuple[str, ...] = ()

    @property
    def rule(self) -> str:
        return _table()[self.id]["rule"]

    @property
    def quote(self) -> str:
        return _table()[self.id]["quote"]

    @property
    def text(self) -> str:
        return _table()[self.id]["text"].format(*self.args)

    def as_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "id": self.id, "args": list(self.args), "text": self.text,
                "rule": self.rule, "quote": self.quote}


@dataclass(frozen=True)
class Judgement:
    """The verdict on one subject: the claim itself, or another end hex or target (``explain``)."""

    subject: str
    verdict: str  # LEGAL, MANDATORY, ILLEGAL, or UNDETERMINED
    reasons: tuple[Reason, ...]
    core_verdict: str | None = None  # when UNDETERMINED: what the modelled rules alone say

    def undetermined(self) -> Judgement:
        return replace(self, verdict=UNDETERMINED, core_verdict=self.verdict)

    def as_json(self) -> dict[str, Any]:
        return {"subject": self.subject, "verdict": self.verdict, "core_verdict": self.core_verdict,
                "reasons": [r.as_json() for r in self.reasons]}


@dataclass(frozen=True)
class CheckResult:
    """``check``: the claim as written back in notation, its judgement, the unit's legal options."""

    claim: str
    judgement: Judgement
    alternatives: tuple[str, ...]  # in notation; for the AI, what it must choose among
    notices: tuple[Notice, ...] = ()  # why the verdict is UNDETERMINED

    def as_json(self) -> dict[str, Any]:
        return {"claim": self.claim, **self.judgement.as_json(), "alternatives": list(self.alternatives),
                "notices": notices_json(self.notices)}


@dataclass(frozen=True)
class Explanation:
    """``explain``: the check, and why every other end (or target) in reach is or is not allowed."""

    check: CheckResult
    others: tuple[Judgement, ...]

    def as_json(self) -> dict[str, Any]:
        return {**self.check.as_json(), "others": [j.as_json() for j in self.others]}
