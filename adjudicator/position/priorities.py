"""The AI attack priority tables: data (adjudicator/data/ai-priority.yaml), read once."""

from __future__ import annotations

from functools import cache

from adjudicator.position.data import shipped
from adjudicator.position.model import AiPriority

UNIT_CATEGORIES = (
    "gate",
    "defeat-hero",
    "defeat-spire",
    "defeat-minion",
    "defeat-landmark-minion",
    "damage-hero",
    "damage-spire",
    "damage-minion",
    "damage-landmark-minion",
    "any-unit",
    "closest-spire",
    "closest-hero",
)
SPIRE_CATEGORIES = ("defeat-hero", "defeat-minion", "damage-hero", "damage-minion", "any-unit")
# The chapters that change the AI units' attack priority, and their preset: chapter 2, "Attack
# Priority: Closest opposing spire > closest opposing hero"; chapter 6, "AI units follow a new attack
# priority". A position's own ai-priority wins.
CHAPTER_PRIORITY = {2: "harbinger-2", 6: "harbinger-6"}


@cache
def presets(which: str) -> dict[str, tuple[str, ...]]:
    """The named lists for ``which`` ("units" or "spires"), by preset name."""
    data = shipped("ai-priority.yaml")
    return {name: tuple(categories) for name, categories in data[which].items()}


def in_force(chosen: AiPriority | None, which: str) -> tuple[str, ...]:
    """The list a position uses for ``which``: its own, or the standard preset."""
    if chosen is None:
        return presets(which)["standard"]
    return chosen.units if which == "units" else chosen.spires
