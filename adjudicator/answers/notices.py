"""What an answer could not take into account: a talent on a chip that takes part, acting in a step
the question covers, that the adjudicator does not model there; or a rule of the Harbinger chapter the
position names that acts in such a step and is not modelled. docs/output-format.md, notices."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, order=True)
class Notice:
    """What an answer leaves out: a talent or chapter rule that acts in it and is not (wholly) modelled."""

    talent: str  # its current name; "" for a chapter's rule
    status: str  # not modelled, or partly modelled (adjudicator/position/talents.py)
    steps: tuple[str, ...]  # the steps of this question it acts in and is not modelled in
    chips: tuple[str, ...]  # the chips carrying it: unit ids ("kram/Scout" for a grouped chip), spire ids
    left_out: str = ""  # a partly modelled talent or chapter rule: what its encoding leaves out
    rule: str = ""  # a chapter's rule instead of a talent: "chapter 2: grafted-snare-all" (cloudspire scenarios)
    text: str = ""  # that rule's wording, as printed

    @property
    def name(self) -> str:
        """What is left out: the talent, or the chapter's rule."""
        return self.talent or self.rule

    def as_json(self) -> dict[str, Any]:
        if self.rule:
            shape = {"rule": self.rule, "text": self.text, "status": self.status, "steps": list(self.steps)}
            return {**shape, "left_out": self.left_out} if self.left_out else shape
        shape = {"talent": self.talent, "status": self.status, "steps": list(self.steps), "chips": list(self.chips)}
        return {**shape, "left_out": self.left_out} if self.left_out else shape

    def __str__(self) -> str:
        if self.rule:
            missing = f"; left out: {self.left_out}" if self.left_out else ""
            return f"{self.rule}: {self.status} ({', '.join(self.steps)}): \"{self.text}\"{missing}"
        missing = f": {self.left_out}" if self.left_out else ""
        return f"{self.talent} on {', '.join(self.chips)}: {self.status} ({', '.join(self.steps)}{missing})"


def notices_json(notices: tuple[Notice, ...]) -> list[dict[str, Any]]:
    return [n.as_json() for n in notices]
