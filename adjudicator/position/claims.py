"""A claimed move or attack: what a player says a unit does, before the rules judge it.

adjudicator/answers/notation.py reads and writes claims; adjudicator/questions/dispute.py judges them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ActClaim:
    """An act a talent (or a rule: the shada's placement) takes before or after the move, as a claim
    states it (docs/notation.md, Acts): the talent by its catalogue name, the chip it acts on and what
    it gives or where it puts it (Act.chip, Act.to), each None where the claim leaves it out (any will do)."""

    talent: str
    chip: str | None = None
    to: str | None = None


@dataclass(frozen=True)
class MoveClaim:
    """A unit's move: its route (start first) or only its end; displacements when stated; the acts
    stated before and after it, in order."""

    unit: str
    end: str
    path: tuple[str, ...] | None = None  # None: only the end is given
    displaced: tuple[tuple[str, str], ...] | None = None  # (unit, lands on); None: not stated
    # The index in ``path`` of each hex a teleport landed it on (written after '~'); the node before
    # it is the chip stepped onto (Riftwalk, Naroran Rift).
    landed: tuple[int, ...] = ()
    before: tuple[ActClaim, ...] = ()
    after: tuple[ActClaim, ...] = ()


@dataclass(frozen=True)
class AttackClaim:
    """An attack (or, with ``target`` None, a unit that does not attack)."""

    unit: str
    target: str | None
    redirected_to: str | None = None
    level_up: str | None = None


Claim = MoveClaim | AttackClaim
