"""Where a defeated unit goes (docs/combat.md, Defeat and rewards): Incinerate, Press Gang, Capture. The
notes are those at the top of tests/reference/combat.py."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.position.model import Kind
from tests.reference import combat as core  # a module: the core imports this package too
from tests.reference.sides import opposing
from tests.reference.talents import talent

if TYPE_CHECKING:
    from tests.reference.combat import Board, Fighter, Log, Rules


@talent("Incinerate", "sends", "N49")
def incinerate(rules: Rules, board: Board, unit: Fighter, burner: Fighter) -> str | None:
    return "removed-from-game" if not unit.free and core._hostile(rules, unit, burner) else None  # N1


@talent("Press Gang", "goes", "N51")
def press_gang(rules: Rules, board: Board, log: Log, unit: Fighter) -> str | None:
    """An AI unit goes to its barracks (N51); a player's, if its faction pays, else out of the game (N116)."""
    if not unit.free and rules.ai(unit.faction):
        return "barracks"
    if unit.faction:
        return "barracks" if core._gang_pays(rules, board, log, unit) else "removed-from-game"
    return None


@talent("Capture", "takes", "N206")
def capture(rules: Rules, board: Board, log: Log, unit: Fighter, taker: Fighter) -> str | None:
    """An AI unit captures an opposing faction minion it defeats, while its faction has room (N335)."""
    if (rules.ai(taker.faction) and unit.kind is Kind.MINION and unit.faction and core._hostile(rules, unit, taker)
            and core._capture_room(rules, log, taker.faction, unit.faction)):
        return f"captured:{taker.faction}"
    return None


@talent("Entropy", "at_one", "N177")
def entropy() -> bool:
    return True


@talent("Morale", "cheers", "N156")
def morale(rules: Rules, unit: Fighter, fallen: Fighter) -> bool:
    """A player's unit that defeats an opposing unit."""
    return not rules.ai(unit.faction) and core._hostile(rules, unit, fallen)


@talent("Source", "levies", "N112")
def source() -> int:
    return 2


@talent("Prophesy", "withholds", "N113")
def prophesy_withholds() -> bool:
    return True


@talent("Prophesy", "levied", "N113")
def prophesy(rules: Rules, unit: Fighter, credit: str, by: str) -> int:
    """An opposing faction credited with its defeat takes its Source reward from its faction; a player's
    unit's, only from a unit's or spire's hit, not its gate's."""
    if (unit.faction and credit and opposing(rules.position, credit, unit.faction)
            and (rules.ai(unit.faction) or not core._is_gate(by))):
        return unit.reward.source
    return 0
