"""Which talents an answer depends on but the adjudicator does not model (the "notices").

Worked out cautiously, never more narrowly than the rules allow: every chip on the board or waiting
in a gate takes part (a blocker's, a target's or a bystander's talent can change a unit's options),
and a talent counts for every step the catalogue says it acts in. A talent that does not trigger for
AI units is left out on AI chips; one acting only in prep, build or market never counts.
"""

from __future__ import annotations

from collections import defaultdict

from adjudicator.answers.notices import Notice
from adjudicator.position.model import Controller, Position
from adjudicator.position.talents import catalogue

# The steps of a turn each question's answer depends on (adjudicator/position/talents.py, STEPS).
# A defeat or the end of a wave can happen inside an attack step or Spires Fire.
QUESTION_STEPS = {
    "movement": ("movement",),
    "attack": ("attack", "defeat", "end-of-wave"),
    "fire": ("spires-fire", "defeat", "end-of-wave"),
    "start": ("start-of-turn", "defeat", "end-of-wave"),
    "end": ("end-of-turn", "defeat", "end-of-wave"),
}


def _carriers(position: Position, ai: bool | None) -> list[tuple[str, bool, tuple[str, ...]]]:
    """(chip label, on an AI chip, its talents) for every chip of the position."""
    def is_ai(faction: str | None) -> bool:
        if faction is None:  # a landmark minion: no side; the player wording is the cautious one
            return False
        if ai is not None and faction == position.turn.faction:
            return ai
        return position.factions[faction].controller is Controller.AI

    chips = []
    for uid, unit in sorted(position.units.items()):
        faction = unit.faction if unit.faction in position.factions else None
        chips.append((uid, is_ai(faction), unit.talents))
        for grouped in unit.group:
            chips.append((f"{uid}/{grouped.chip}", is_ai(faction), grouped.talents))
    for spire in position.spires:
        chips.append((spire.id, is_ai(spire.faction), spire.talents))
    return chips


def notices(position: Position, question: str, ai: bool | None = None) -> tuple[Notice, ...]:
    """The unmodelled talents the answer to ``question`` (a key of QUESTION_STEPS) may depend on;
    ``ai`` as the questions take it (True: the faction whose turn it is plays as the AI)."""
    return notices_in(position, QUESTION_STEPS[question], ai)


def notices_in(position: Position, asked: tuple[str, ...], ai: bool | None = None) -> tuple[Notice, ...]:
    """The unmodelled talents an answer covering the steps ``asked`` may depend on."""
    found: dict[tuple[str, str, tuple[str, ...]], list[str]] = defaultdict(list)
    for label, on_ai, talents in _carriers(position, ai):
        for name in talents:
            talent = catalogue().get(name)
            left = tuple(s for s in talent.unmodelled_steps(on_ai) if s in asked)
            if left:
                found[(name, talent.status(on_ai), left)].append(label)
    return tuple(sorted(Notice(name, status, steps, tuple(chips)) for (name, status, steps), chips in found.items()))
