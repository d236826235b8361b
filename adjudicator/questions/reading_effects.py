"""`cloudspire readings`: where switching an interpretation changes what the tool answers.

Each reading's other values are tried one at a time against the position's own readings, on every
question that does not explode with the board (a unit's moves, attacks, the attack step, Spires
Fire) and that the reading can change (Reading.parts); what only one side lists is reported, in the
notation and words the other commands use.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from adjudicator.questions.adjudicate import (
    attack_options, attack_step, faction_options, spires_fire, whole,
)
from adjudicator.position.model import Position
from adjudicator.answers.notation import format_attack, format_end
from adjudicator.position.readings import READINGS, resolve
from adjudicator.solving.solve import Deadline


@dataclass(frozen=True)
class ReadingEffect:
    reading: str
    value: str  # the value tried
    baseline: str  # the position's value
    question: str  # moves, attacks, step or fire
    gained: tuple[str, ...]  # listed only with ``value``
    lost: tuple[str, ...]  # listed only with ``baseline``

    def as_json(self) -> dict[str, Any]:
        return {"reading": self.reading, "value": self.value, "baseline": self.baseline,
                "question": self.question, "gained": list(self.gained), "lost": list(self.lost)}


def _moves(position: Position, deadline: Deadline | None) -> set[str]:
    # A move is told apart by where it ends and whom it displaces where, not by the route shown: a
    # reading that only adds another route to the same outcome changes no answer.
    return {format_end(m) for o in faction_options(position, deadline=deadline) for m in o.outcomes}


def _attacks(position: Position, deadline: Deadline | None) -> set[str]:
    # An attack is told apart by what it leads to, not only by its target.
    return {
        f"{format_attack(o)}: " + "; ".join(f"{chip} -{n}" for chip, n in sorted(o.damage_by_chip().items()))
        for options in attack_options(position, deadline=deadline) for o in options.outcomes
    }


# A step or fire answer cut short would show as an effect of the reading: `whole` stops instead.
def _step(position: Position, deadline: Deadline | None) -> set[str]:
    result = whole(attack_step(position, deadline=deadline), deadline)
    return {o.end.describe() for o in result.outcomes}


def _fire(position: Position, deadline: Deadline | None) -> set[str]:
    result = whole(spires_fire(position, deadline=deadline), deadline)
    return {
        f"{r.probability}: {r.end.describe()}" + (f" after {r.choices}" if r.choices else "")
        for r in result.results
    }


# Each question with the part of the encodings that answers it (Reading.parts).
QUESTIONS: dict[str, tuple[str, Callable[[Position, Deadline | None], set[str]]]] = {
    "moves": ("movement", _moves), "attacks": ("combat", _attacks), "attack-step": ("combat", _step),
    "spires-fire": ("combat", _fire),
}


def reading_effects(
    position: Position, deadline: Deadline | None = None, names: Sequence[str] = tuple(READINGS)
) -> list[ReadingEffect]:
    """Every effect of switching one of the readings ``names``; TimedOut when ``deadline`` passes first."""
    baseline = resolve(position.readings)
    chosen = {name: READINGS[name] for name in READINGS if name in names}
    parts = {part for reading in chosen.values() for part in reading.parts}
    answers = {name: ask(position, deadline) for name, (part, ask) in QUESTIONS.items() if part in parts}
    effects = []
    for name, reading in chosen.items():
        for value in reading.values:
            if value == baseline[name]:
                continue
            switched = replace(position, readings={**position.readings, name: value})
            for question, (part, ask) in QUESTIONS.items():
                if part not in reading.parts:  # a question the reading cannot change
                    continue
                other = ask(switched, deadline)
                if other != answers[question]:
                    effects.append(ReadingEffect(
                        name, value, baseline[name], question,
                        tuple(sorted(other - answers[question])), tuple(sorted(answers[question] - other)),
                    ))
    return effects
