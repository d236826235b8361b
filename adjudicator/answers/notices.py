"""What an answer could not take into account: a talent on a chip that takes part, acting in a step
the question covers, that the adjudicator does not model there. docs/output-format.md, notices."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, order=True)
class Notice:
    talent: str  # its current name
    status: str  # not modelled, or partly modelled (adjudicator/position/talents.py)
    steps: tuple[str, ...]  # the steps of this question it acts in and is not modelled in
    chips: tuple[str, ...]  # the chips carrying it: unit ids ("kram/Scout" for a grouped chip), spire ids

    def as_json(self) -> dict[str, Any]:
        return {"talent": self.talent, "status": self.status, "steps": list(self.steps), "chips": list(self.chips)}

    def __str__(self) -> str:
        return f"{self.talent} on {', '.join(self.chips)}: {self.status} ({', '.join(self.steps)})"


def notices_json(notices: tuple[Notice, ...]) -> list[dict[str, Any]]:
    return [n.as_json() for n in notices]
