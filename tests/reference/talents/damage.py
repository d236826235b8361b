"""What a hit or a retaliation deals, as a talent on either chip changes it (docs/combat.md, One attack,
in order; Retaliation). The notes are those at the top of tests/reference/combat.py."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.position.model import Kind
from tests.reference import combat as core  # a module: the core imports this package too
from tests.reference.sides import opposing
from tests.reference.talents import talent

if TYPE_CHECKING:
    from tests.reference.combat import Board, Fighter, Rules, Tower


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


@talent("Peaceful", "spared", "N79")
def peaceful(rules: Rules, board: Board, by: str) -> bool:
    """Nothing from a hit of a chip that is no merc."""
    if by in board.spires:
        return not board.spires[by].merc
    if by in board.units:
        return not board.units[by].merc
    fallen = rules.position.units.get(by)  # a chip that fell still deals its Spike
    return fallen is None or not fallen.merc  # a gate is no merc


@talent("Bio-Indefinite", "held", "N39")
def bio_indefinite(rules: Rules, board: Board, by: str, unit: Fighter, how: str) -> bool:
    """"This unit cannot gain or lose more than 1 health at a time"; chapter 7: "Opposing heroes ignore the
    talent Bio-Indefinite when attacking Nucleus"."""
    a = board.units.get(by)
    scenario = rules.position.scenario
    return not (scenario is not None and scenario.chapter == 7 and how == core.ATTACK and a is not None
                and a.kind is Kind.HERO and unit.chip.casefold() == "nucleus"
                and opposing(rules.position, a.faction, unit.faction))


@talent("Bio-Indefinite", "recover_cap", "N39")
def bio_indefinite_recovery() -> int:
    return 1


@talent("Cover", "covers", "N33")
def cover(rules: Rules, spire: Tower, unit: Fighter) -> bool:
    """"When a taproot is adjacent to this spire, the damage dealt by an attack on the taproot is reduced
    to 1": the unit's active chip is a taproot, beside the spire in play."""
    return (unit.chip.casefold() == "taproot" and not unit.in_gate and not spire.defeated
            and spire.at in rules.position.neighbours(unit.node))


@talent("Channel", "attacked_gain", "N53")
def channel(rules: Rules, unit: Fighter) -> int:
    return 2 if not unit.free and not rules.ai(unit.faction) else 0  # not the AI's


@talent("Sourcefield", "may_cancel", "N63")
def sourcefield(rules: Rules, board: Board, unit: Fighter, amount: int) -> bool:
    """A faction's unit (no landmark minion no faction controls, N1), not the AI's, whose faction has the
    Source to pay for a hit of 1 or more (N63; a spire's shot, N76)."""
    return bool(unit.faction) and not rules.ai(unit.faction) and 1 <= amount <= board.source[unit.faction]
