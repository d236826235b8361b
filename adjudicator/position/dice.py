"""The spire attack die as data: its faces, and the exact odds of a number of dice's total.

The default table is adjudicator/data/spire-die.yaml; docs/dice.md says what is known about it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from adjudicator.position.data import parse_yaml, shipped


# The faces a talent may ask about besides the damage: Silencer's "If this spire rolls a miss or a 2
# on any of its attack dice" (docs/dice.md).
SILENCING = frozenset({"miss", "2"})

# The faces that end Relentless's rolling: "Continue rolling the die until you roll a blank or a 2".
STOPPING = frozenset({"blank", "2"})


@dataclass(frozen=True)
class Face:
    """One face of a die: its name and the damage it deals."""

    face: str
    damage: int


@dataclass(frozen=True)
class Die:
    """A die of the game, face by face."""

    name: str
    faces: tuple[Face, ...]

    def totals(self, dice: int, silencing: bool | None = None) -> dict[int, Fraction]:
        """The exact probability of each total damage of ``dice`` dice rolled together; with
        ``silencing``, only of the rolls that show (True) or do not show (False) a SILENCING face."""
        if silencing is None:
            return _totals(tuple(f.damage for f in self.faces), dice)
        marked = _marked(tuple((f.damage, f.face in SILENCING) for f in self.faces), dice)
        return {total: p for (total, shown), p in marked.items() if shown == silencing}

    def dealt(self, dice: int, cut: int, cap: int, silencing: bool | None = None) -> dict[int, Fraction]:
        """The odds of the damage dealt: the total less ``cut`` (never below 0), and ``cap`` standing
        for every total that deals at least that much (``silencing`` as for ``totals``)."""
        odds: dict[int, Fraction] = {}
        for total, p in self.totals(dice, silencing).items():
            damage = min(max(total - cut, 0), cap)
            odds[damage] = odds.get(damage, Fraction(0)) + p
        return odds

    def rolled_until(self, top: int) -> dict[int, Fraction]:
        """Relentless: the exact odds of the total of rolling this die until a STOPPING face shows, that
        face's damage counted (docs/combat.md, Relentless), each total below ``top`` alone and ``top``
        standing for every total from it on. A die without a STOPPING face never stops: an error."""
        if not any(f.face in STOPPING for f in self.faces):
            raise DieFileError(f"{self.name}: no face named {' or '.join(sorted(STOPPING))}: Relentless never stops rolling")
        return _rolled_until(tuple((f.damage, f.face in STOPPING) for f in self.faces), top)


    def counted_on(self) -> int:
        """Relentless: the largest total that at least half the rolls until a STOPPING face reach (what
        an AI Riposte counts on before the roll under ai-spire-odds likely)."""
        total = 0
        while self.rolled_until(total + 1)[total + 1] >= Fraction(1, 2):
            total += 1
        return total

@cache
def _rolled_until(faces: tuple[tuple[int, bool], ...], top: int) -> dict[int, Fraction]:
    # ways[w]: the chance that the faces rolled before the stopping one add up to w, over any number
    # of them; a 0 face that goes on (a miss) is a geometric series, 1 / (1 - its chance).
    each = Fraction(1, len(faces))
    stay = 1 / (1 - sum((each for damage, stops in faces if damage == 0 and not stops), Fraction(0)))
    ways: list[Fraction] = []
    for w in range(top):
        ways.append(stay * (Fraction(w == 0) + sum((each * ways[w - d] for d, stops in faces if not stops and 0 < d <= w),
                                           Fraction(0))))
    odds = {v: sum((each * ways[v - d] for d, stops in faces if stops and d <= v), Fraction(0)) for v in range(top)}
    odds[top] = 1 - sum(odds.values(), Fraction(0))
    return odds


@cache
def _totals(damages: tuple[int, ...], dice: int) -> dict[int, Fraction]:
    odds: dict[int, Fraction] = {0: Fraction(1)}
    one = Counter(damages)
    for _ in range(dice):
        rolled: dict[int, Fraction] = {}
        for total, p in odds.items():
            for damage, count in one.items():
                rolled[total + damage] = rolled.get(total + damage, 0) + p * Fraction(count, len(damages))
        odds = rolled
    return dict(sorted(odds.items()))


@cache
def _marked(faces: tuple[tuple[int, bool], ...], dice: int) -> dict[tuple[int, bool], Fraction]:
    """The exact probability of each (total, whether some die shows a marked face)."""
    odds: dict[tuple[int, bool], Fraction] = {(0, False): Fraction(1)}
    one = Counter(faces)
    for _ in range(dice):
        rolled: dict[tuple[int, bool], Fraction] = {}
        for (total, shown), p in odds.items():
            for (damage, marked), count in one.items():
                key = (total + damage, shown or marked)
                rolled[key] = rolled.get(key, 0) + p * Fraction(count, len(faces))
        odds = rolled
    return odds


class DieFileError(Exception):
    """A die file that cannot be read, with what was expected."""


@cache
def _tables() -> dict[str, Any]:
    return shipped("spire-die.yaml")


def die_names() -> tuple[str, ...]:
    """The shipped tables, the values of the reading spire-die."""
    return tuple(_tables())


def shipped_die(name: str) -> Die:
    return _read(_tables()[name], f"spire-die.yaml: {name}")


def standard_die() -> Die:
    return shipped_die("standard")


def load_die(path: str | Path) -> Die:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise DieFileError(f"{path}: cannot read the file: {error}") from None
    return _parse(text, str(path))


def _parse(text: str, filename: str) -> Die:
    try:
        data = parse_yaml(text)
    except yaml.YAMLError as error:
        raise DieFileError(f"{filename}: malformed YAML: {error}") from None
    return _read(data, filename)


MAX_DAMAGE = 30  # the largest health a chip may have (docs/position-format.md, Numbers); the texts' faces deal 0-2


def _read(data: Any, filename: str) -> Die:
    shape = f"a mapping with `faces:`, a list of {{face: name, damage: integer from 0 to {MAX_DAMAGE}}}"
    if not isinstance(data, dict) or not isinstance(data.get("faces"), list) or not data["faces"]:
        raise DieFileError(f"{filename}: expected {shape}")
    faces = []
    for index, entry in enumerate(data["faces"]):
        damage = entry.get("damage") if isinstance(entry, dict) else None
        if not isinstance(damage, int) or isinstance(damage, bool) or not 0 <= damage <= MAX_DAMAGE or "face" not in entry:
            found = repr(entry) if len(repr(entry)) <= 80 else repr(entry)[:79] + "…"
            raise DieFileError(
                f"{filename}: faces[{index}]: expected {{face: name, damage: integer from 0 to {MAX_DAMAGE}}}, found {found}"
            )
        faces.append(Face(str(entry["face"]), damage))
    return Die(str(data.get("name", filename)), tuple(faces))
