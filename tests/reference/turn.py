"""A brute-force reference of the whole turn's end: Back to the Future's extra move and attack.

Written from docs/turn.md (Back to the Future) and the talent's wordings; it shares nothing with the
solver path: the move is the movement reference's (tests/reference/movement.py), the attack the combat
reference's (tests/reference/combat.py), on the board the reference's own moves leave.

NOTES: readings this reference takes where docs/turn.md is silent or leaves room
---------------------------------------------------------------------------------
N288 Back to the Future ("At the end of your turn during the Onslaught Phase, this unit may move and
    attack even if it has already done so this turn"), once the end of the turn has changed nothing: a
    unit of the turn's faction with it, on the board or in its gate, not campfired and not ``used``,
    makes a movement step in which it alone moves (every other unit of its faction written as having
    moved and attacked; its own ``done`` cleared), each final board of that step a line, then an attack
    step in which it alone attacks on the board the line's moves leave, each end a line. A player's
    may also not use it (the board as it was). Only one such unit per board: the order of several is
    not played here.
N289 The AI's ("this unit will move and attack ..., if doing so would result in it defeating an opposing
    unit"): only the lines whose move or attack step defeats a unit of another faction (one its move takes
    off the board with no health, or its attack's end defeats); where none does, it does not use it (the
    board as it was).
N290 A line is compared as where each unit of the board stands once it ends and its health: a node, or
    ``off`` (defeated, returned, discarded) with no health; the odds and the other chips are not.
N313 The end-of-turn question asked alone plays the same lines as the whole turn from the end of the turn
    (docs/turn.md, Back to the Future): each of its end states leaves the board its own acts leave (none
    on these boards, which hold no other talent), then what its lines changed; so it leaves the same
    boards as ``back_to_the_future``: the wave's end, which the question does not play, moves no unit and
    changes no health on boards with no other talent (a campfired hero only wakes).
"""

from __future__ import annotations

import dataclasses

from adjudicator.position.model import Position
from tests.reference import combat, movement

BACK_TO_THE_FUTURE = "Back to the Future"
OFF = "off"

# Where each unit stands and its health (N290), sorted by unit.
Board = tuple[tuple[str, str, int | None], ...]


def board(position: Position) -> Board:
    """N290: each unit's node, or ``off`` with no health."""
    return tuple(sorted((uid, node, u.health) if (node := position.placed(uid)) is not None else (uid, OFF, None)
                        for uid, u in position.units.items()))


def returners(position: Position) -> list[str]:
    """N288: the turn's faction's units that may use Back to the Future now."""
    side = position.turn.faction
    return [uid for uid, u in sorted(position.units.items())
            if u.faction == side and position.placed(uid) is not None and BACK_TO_THE_FUTURE in u.talents
            and BACK_TO_THE_FUTURE not in u.used and not u.campfire]


def alone(position: Position, uid: str) -> Position:
    """N288: only ``uid`` of its faction still to move and attack."""
    side = position.turn.faction
    done = {u: dataclasses.replace(x.done, moved=True, attacked=True) for u, x in position.units.items()
            if x.faction == side and u != uid}
    done[uid] = dataclasses.replace(position.units[uid].done, moved=False, attacked=False, displaced=False,
                                    held=False)
    units = {u: dataclasses.replace(x, done=done[u]) if u in done else x for u, x in position.units.items()}
    return dataclasses.replace(position, units=units)


def _attacked(position: Position, end: combat.EndState) -> tuple[Board, bool]:
    """The board once the attack step's ``end`` (N290), and whether it defeats a unit of another faction
    than the turn's (N289)."""
    side = position.turn.faction
    places = {uid: (node, health) for uid, node, health in board(position)}
    defeats = False
    for chip in end.chips:
        if chip.chip not in position.units:
            continue
        if chip.defeated or chip.returned or chip.discarded or chip.under is not None:
            places[chip.chip] = (OFF, None)
            defeats = defeats or (chip.defeated and position.units[chip.chip].faction != side)
            continue
        node, health = places[chip.chip]
        places[chip.chip] = (chip.at or node, health if chip.health is None else chip.health)
    return tuple(sorted((uid, node, health) for uid, (node, health) in places.items())), defeats


def back_to_the_future(position: Position, ai: bool) -> set[Board]:
    """N288, N289: every board the end of the turn may leave, for a board with one unit that may use it."""
    (uid,) = returners(position)
    start = alone(position, uid)
    lines: set[Board] = set()
    side = position.turn.faction
    for final in movement.movement_step(start, ai).outcomes:
        moved = start
        for move in final.sequence:
            moved = movement.apply_move(moved, move)
        felled = any(uid in position.units and u.faction != side and start.placed(uid) is not None
                     and moved.placed(uid) is None and u.health == 0 for uid, u in moved.units.items())  # N289
        for step_end in combat.attack_step(moved, ai).outcomes:
            after, defeats = _attacked(moved, step_end.end)
            if defeats or felled or not ai:
                lines.add(after)
    return lines if lines and ai else lines | {board(position)}
