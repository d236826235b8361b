"""The reference's talents: one small function per talent and moment, registered by the talent's name.

The reference's core (``combat.py``, ``movement.py``) does not name a talent it has handed over here: at
each moment of ``MOMENTS`` it asks what the talents on a chip change (``total``, ``least``, ``says``,
``first``, ``results``), and this package answers from the functions registered for that moment with
``@talent(name, moment, note)``. The note is the reference's numbered note (the notes stay at the top of
``combat.py`` and ``movement.py``), so that a function and the reading it follows are found together.

A talent on an existing moment is one function in a module of this package, of its own or of its
family's; every module here is loaded, so nothing else is edited. A talent that needs a moment no core
function asks yet adds the moment to ``MOMENTS`` and the one question to the core, as a talent file
adds a hook to ``asp/core/hooks.lp``. The moments are named after those hooks where one fits.

The reference stays independent of ``asp/`` and the solver path: nothing here reads an encoding.
``drawable`` reads the catalogue's modelled talents, for the generators only.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol


class Chip(Protocol):
    """A unit or a spire as the reference's core holds it: whether a talent is in use on it now."""

    def has(self, talent: str) -> bool: ...


@dataclass(frozen=True)
class Moment:
    holders: tuple[str, ...]  # whose talents the core asks at it: "unit", "spire"
    step: str  # the catalogue's step it acts in (what ``drawable`` filters by)
    asks: str  # what the function is given and returns, and how the core combines the answers


MOMENTS: dict[str, Moment] = {
    # A unit's attack and a spire's shot (docs/combat.md, One attack, in order)
    "atk_as": Moment(("unit",), "attack", "f(attacker, target: Fighter | None) -> int | None: the attacker's "
                     "attack stat against the chip (hook atk_as/5); the first given wins, else its own"),
    "boost": Moment(("unit",), "attack", "f(attacker, target: Fighter | None) -> int: its attack deals the "
                    "chip that much more, before reduce (hook boost/5); summed"),
    "reduce": Moment(("unit",), "attack", "f(target) -> int: a unit's attack on it deals that much less "
                     "(hook reduce/4); summed"),
    "cap": Moment(("unit",), "attack", "f(rules, board, attacker, target) -> int | None: a unit's attack "
                  "on it deals at most that, after reduce (hook cap/5); the least wins"),
    "sreduce": Moment(("unit",), "spires-fire", "f(target) -> int: a spire's shot at it deals that much "
                      "less; summed"),
    "halves": Moment(("unit", "spire"), "attack", "f() -> bool: its hit on a unit that would take 1 or more "
                     "takes half that unit's health instead, and an attack stat of * is in use (Poison)"),
    # A retaliation (docs/combat.md, Retaliation)
    "rdie": Moment(("unit",), "attack", "f() -> bool: its retaliation deals what the spire die rolls "
                   "until a blank or a 2, not its stat (hook rdie/3)"),
    "rreduce": Moment(("unit",), "attack", "f() -> int: a retaliation on it deals that much less "
                      "(hook rreduce/4); summed"),
    "rcap": Moment(("unit",), "attack", "f() -> int | None: a retaliation on it deals at most that, after "
                   "rreduce (hook rcap/4); the least wins"),
    "rspare": Moment(("unit",), "attack", "f() -> bool: a retaliation that would defeat it deals 0 "
                     "(hook rspare/3)"),
    "dodge": Moment(("unit",), "attack", "f() -> bool: a unit's attack or retaliation hit that would "
                    "defeat it deals 0, and it flips to its basic side (hook dodge/3)"),
    # An attack on a spire
    "prestrip": Moment(("unit",), "attack", "f() -> int: its attack on a spire first removes that many of "
                       "the spire's bottom upgrades, no damage (hook prestrip/4); summed"),
    "unstack": Moment(("unit",), "attack", "f(rules, board, attacker, spire id, upgrades) -> frozenset[int] "
                      "| None: the places among ``upgrades`` (the spire as prestrip left it) its attack "
                      "removes instead of its damage, or None when it deals its damage (hook unstack/5); "
                      "joined"),
    "may_unstack": Moment(("unit",), "attack", "f(rules, attacker, spire: Tower) -> list[int]: the "
                          "upgrades (indexes in the position's list) a player's unit may remove instead of "
                          "its damage, each a choice (hook may_unstack/5); joined"),
    "may_instead_spire": Moment(("unit",), "attack", "f(rules, attacker) -> bool: its unit may, instead of "
                                "attacking, strip an opposing spire with an upgrade beside it (hook may_instead/4)"),
}

_REGISTERED: dict[str, dict[str, Callable[..., Any]]] = {m: {} for m in MOMENTS}
NOTES: dict[str, tuple[str, ...]] = {}  # talent -> the reference's notes its functions follow


def talent(name: str, moment: str, note: str = "") -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Registers the function as what talent ``name`` does at ``moment``; ``note``: the reference's note."""
    if moment not in MOMENTS:
        raise ValueError(f"{name}: no moment {moment!r} (tests/reference/talents MOMENTS)")

    def register(f: Callable[..., Any]) -> Callable[..., Any]:
        if name in _REGISTERED[moment]:
            raise ValueError(f"{name} is registered twice at {moment}")
        _REGISTERED[moment][name] = f
        if note:
            NOTES[name] = tuple(dict.fromkeys((*NOTES.get(name, ()), note)))
        return f

    return register


def _acting(moment: str, chip: Chip) -> Iterable[Callable[..., Any]]:
    return [f for name, f in _REGISTERED[moment].items() if chip.has(name)]


def results(moment: str, chip: Chip, *args: Any) -> list[Any]:
    """What each talent in use on ``chip`` says at ``moment``, given ``args``."""
    return [f(*args) for f in _acting(moment, chip)]


def total(moment: str, chip: Chip, *args: Any) -> int:
    return sum(results(moment, chip, *args))


def says(moment: str, chip: Chip, *args: Any) -> bool:
    return any(results(moment, chip, *args))


def least(moment: str, chip: Chip, *args: Any) -> int | None:
    given = [n for n in results(moment, chip, *args) if n is not None]
    return min(given) if given else None


def first(moment: str, chip: Chip, *args: Any) -> Any:
    return next((r for r in results(moment, chip, *args) if r is not None), None)


def registered(holder: str | None = None, step: str | None = None) -> frozenset[str]:
    """The talents with a function at a moment of ``holder``'s talents in ``step`` (None: any)."""
    return frozenset(name for moment, fs in _REGISTERED.items() for name in fs
                     if (holder is None or holder in MOMENTS[moment].holders)
                     and (step is None or MOMENTS[moment].step == step))


for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")
