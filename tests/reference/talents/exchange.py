"""What else an attack sets off, a hero's room for upgrades, and the wave's end by minion type. The notes
are those at the top of tests/reference/combat.py."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.position.model import Kind
from tests.reference import combat as core  # a module: the core imports this package too
from tests.reference.talents import talent

if TYPE_CHECKING:
    from tests.reference.combat import Board, Fighter, Rules


@talent("Spike", "spikes", "N34")
def spike() -> int:
    return 1  # the attacked unit's or spire's, as the attack comes, even if the attack defeats it


@talent("Train", "capacity", "N48")
def train() -> int:
    return 1


@talent("Neglected", "lone_type", "N176")
def neglected() -> str:
    return "forsaken"  # "If forsaken are the only minion type in play, the wave ends"


@talent("Precious", "lone_type", "N176")
def precious() -> str:
    return "elfinkaze"  # "If elfinkaze are the only minion type in play, the wave ends"


@talent("Riposte", "forgo", "N47")
def riposte(rules: Rules, board: Board, r: Fighter, attacker: str, chosen: bool, roll: int | None) -> bool:
    """A player's unit (a landmark minion's too) recovers instead of retaliating when ``chosen``; an AI
    unit whenever its retaliation would not defeat the attacker."""
    if not rules.ai(r.faction):
        return chosen
    a = board.units[attacker]
    if core._rolls_die(r):  # N86: weighed before the roll, whatever it then rolls
        roll = core._weighed(rules, a)
    amount = 0 if core._swindles(r, a) else core._retaliation(board, r, attacker, roll)  # N65: a swindle defeats no one
    if core._held(rules, board, r.id, attacker, core.RETALIATION):
        amount = min(amount, 1)
    return core.heals(rules, r.id, attacker) or amount < a.health + a.forts or core._dodges(a)  # N67


@talent("Quick Counter", "counter_first", "N55")
def quick_counter(rules: Rules, unit: Fighter, attacker: Fighter) -> bool:
    return not unit.in_gate and unit.node in rules.position.neighbours(attacker.node)  # beside its attacker


@talent("Pacify", "may_instead_landmark", "N66")
def pacify() -> bool:
    return True


@talent("Swashbuckler", "may_boost", "N54")
def swashbuckler(rules: Rules, board: Board, attacker: Fighter) -> int:
    """1 more damage for each opposing unit beside the attacker."""
    near = rules.position.neighbours(attacker.node)
    return sum(1 for t in board.units.values() if t.node in near and t.id != attacker.id and not t.in_gate
               and not t.campfire and core._hostile(rules, attacker, t))


@talent("Splash", "splashes", "N42", on=("unit",))
def splash() -> bool:
    return True


@talent("Leech", "leech", "N46")
def leech() -> bool:
    return True


@talent("Swindle", "swindles", "N65")
def swindle() -> bool:
    return True


@talent("Eager", "displace", "N57")
def eager(rules: Rules, attacker: Fighter, unit: Fighter) -> bool:
    """On a minion; a landmark minion as the eager-landmark reading says."""
    return unit.kind is Kind.MINION or (unit.kind is Kind.LANDMARK_MINION and rules.readings["eager-landmark"] == "swap")


@talent("Assimilate", "assimilates", "N52")
def assimilate(rules: Rules, unit: Fighter, fallen: Fighter) -> bool:
    return rules.within(unit.node, fallen.node, 2)  # within 2 hexes of the fallen unit
