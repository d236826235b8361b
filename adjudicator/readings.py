"""Named interpretations where the rule texts leave a real question open (docs/readings.md)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Reading:
    name: str
    default: str
    values: tuple[str, ...]
    summary: str


READINGS = {
    r.name: r
    for r in (
        Reading(
            "displacement",
            "needed",
            ("needed", "optional"),
            "may a minion displace a friendly hero when a plain route uses as much movement? "
            "(game-elements: Blocking Movement; FAQ-24 'not required to')",
        ),
        Reading(
            "ai-hero-approach",
            "range",
            ("range", "closest"),
            "an AI hero with Range stops as soon as its mark is within range, or goes as close as it can "
            "(ai-rules.md, secondary)",
        ),
    )
}


def resolve(chosen: dict[str, str]) -> dict[str, str]:
    """Every reading's value, defaults filled in; raises ValueError naming a bad name or value."""
    values = {name: r.default for name, r in READINGS.items()}
    for name, value in chosen.items():
        reading = READINGS.get(name)
        if reading is None:
            raise ValueError(f"unknown reading {name!r}; known: {', '.join(sorted(READINGS))}")
        if value not in reading.values:
            raise ValueError(f"reading {name} takes {' or '.join(reading.values)}, not {value!r}")
        values[name] = value
    return values
