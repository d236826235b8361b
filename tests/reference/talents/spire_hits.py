"""What a unit's attack on a spire removes besides or instead of its damage (Assault, Ram, Weak Point).
The notes are those at the top of tests/reference/combat.py."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.reference.talents import talent

if TYPE_CHECKING:
    from tests.reference.combat import Board, Fighter, Rules, Tower


@talent("Assault", "prestrip", "N61")
def assault() -> int:
    return 1  # the spire's bottom upgrade, none from a spire without any


@talent("Ram", "unstack", "N62")
def ram(rules: Rules, board: Board, attacker: Fighter, sid: str, ups: tuple[str, ...]) -> frozenset[int] | None:
    """An AI unit removes the topmost attack upgrade whenever the spire has one."""
    if not rules.ai(attacker.faction) or "attack" not in ups:
        return None
    return frozenset({max(i for i, u in enumerate(ups) if u == "attack")})


@talent("Ram", "may_unstack", "N62")
def ram_choice(rules: Rules, attacker: Fighter, spire: Tower) -> list[int]:
    """A player's unit may remove any one attack upgrade: one choice per run one on another, the lowest."""
    if rules.ai(attacker.faction):
        return []
    return [spire.held[i] for i, u in enumerate(spire.upgrades)
            if u == "attack" and (i == 0 or spire.upgrades[i - 1] != "attack")]


@talent("Weak Point", "unstack", "N64")
def weak_point(rules: Rules, board: Board, attacker: Fighter, sid: str, ups: tuple[str, ...]) -> frozenset[int] | None:
    """AI side only: on a spire beside it, the top two upgrades, or as many as it has."""
    if not rules.ai(attacker.faction) or board.spires[sid].at not in rules.position.neighbours(attacker.node):
        return None
    return frozenset(range(max(0, len(ups) - 2), len(ups)))


@talent("Weak Point", "may_instead_spire", "N71")
def weak_point_instead(rules: Rules, attacker: Fighter) -> bool:
    return not rules.ai(attacker.faction)  # a player's unit; the AI's strips as it attacks (N64)
