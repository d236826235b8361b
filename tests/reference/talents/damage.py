"""What a hit or a retaliation deals, as a talent on either chip changes it (docs/combat.md, One attack,
in order; Retaliation). The notes are those at the top of tests/reference/combat.py."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.position.model import Kind
from tests.reference import combat as core  # a module: the core imports this package too
from tests.reference.talents import talent

if TYPE_CHECKING:
    from tests.reference.combat import Board, Fighter, Rules


@talent("Armored", "reduce", "N14")
def armored(target: Fighter) -> int:
    return 1  # "reduce the damage ... by 1": a unit's talent, spires and gates take the full damage


@talent("Armored", "sreduce", "N27")
def armored_shot(target: Fighter) -> int:
    return 1


@talent("Battle Hardened", "sreduce", "N27")
def battle_hardened(target: Fighter) -> int:
    return 2  # off each spire's shot at the unit, beside Armored's 1


@talent("Fair Fight", "atk_as", "N29")
def fair_fight(attacker: Fighter, target: Fighter | None) -> int | None:
    return target.attack if target is not None else None  # against a spire or a gate, its own stat


@talent("Hunter", "boost", "N28")
def hunter(attacker: Fighter, target: Fighter | None) -> int:
    return int(target is not None and target.kind is Kind.LANDMARK_MINION)


@talent("Evasive", "cap", "N26")
def evasive(rules: Rules, board: Board, attacker: Fighter, target: Fighter) -> int | None:
    return 1 if core._range(rules, board, attacker) >= 2 else None  # its Range, with range upgrades


@talent("Poison", "halves", "N58")
def poison() -> bool:
    return True  # N164 too: an attack stat of * with Poison in use attacks, every hit successful


@talent("Relentless", "rdie", "N78")
def relentless() -> bool:
    return True


@talent("Prepared", "rreduce", "N25")
def prepared() -> int:
    return 1


@talent("Tough", "rcap", "N25")
def tough() -> int:
    return 2


@talent("Dexterity", "rspare", "N25")
def dexterity() -> bool:
    return True


@talent("Dodge", "dodge", "N67")
def dodge() -> bool:
    return True
