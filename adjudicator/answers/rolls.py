"""Dice rolled while moving (asp/movement/rolls.lp; Harbinger chapter 1's floating rocks): the exact
odds of what a number of spire attack dice cost a unit, and the notices where the floating rocks'
rules are not fully counted."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from math import comb

from adjudicator.answers.moves import MoveOutcome
from adjudicator.answers.notices import Notice
from adjudicator.position.dice import Die
from adjudicator.position.scenarios import chapters

ROCK_CHAPTER, ROCK_RULE, PATH_RULE = 1, "floating-rocks-roll", "floating-rocks-path"
MISS = "miss"  # "If the unit rolls a miss, it loses 1 health."


def roll_odds(dice: int, life: int, die: Die) -> tuple[tuple[int, Fraction], ...]:
    """(health lost, probability) for each result of ``dice`` rolls, one health lost per miss; ``life``
    lost stands for the unit's defeat, on the rock where that miss falls (it rolls no further)."""
    miss = Fraction(sum(f.face == MISS for f in die.faces), len(die.faces))
    odds = [(j, comb(dice, j) * miss**j * (1 - miss) ** (dice - j)) for j in range(min(dice, life - 1) + 1)]
    if dice >= life:
        odds.append((life, 1 - sum(p for _, p in odds)))
    return tuple((j, p) for j, p in odds if p)


def rolled(move: MoveOutcome, life: int, die: Die) -> tuple[MoveOutcome, ...]:
    """The move once its dice are rolled: one outcome per result, with the health it cost as
    ``damage`` (``defeated`` at ``life``) and that result with its probability as its only ``odds``.
    A unit the dice defeat falls on a rock of its route; ``end`` stays where the route ends."""
    if not move.rolls:
        return (move,)
    return tuple(replace(move, damage=lost, defeated=lost >= life, odds=((lost, p),))
                 for lost, p in roll_odds(move.rolls, life, die))


def _rule_notice(rule_id: str, status: str, left_out: str = "") -> Notice:
    rule = chapters()[ROCK_CHAPTER].rule(rule_id)
    return Notice("", status, ("movement",), (), left_out, f"chapter {ROCK_CHAPTER}: {rule_id}", rule.text)


UNCOUNTED = ("the dice of a unit also hurt while it moves, or escaping invalid terrain, or that may teleport, and dice "
             "that may defeat a grouped unit on a rock: not counted")


def rolls_uncounted() -> Notice:
    """A unit whose dice the answer does not count: with damage while moving, along an escape, with a
    teleport, or where they may defeat a grouped unit on a rock. The rule is encoded but for these."""
    return _rule_notice(ROCK_RULE, "partly modelled", UNCOUNTED)


def escape_rock_notice() -> Notice:
    """A minion leaving invalid terrain across a floating rock: its routes after the escape may go back
    onto that rock (asp/movement/minion.lp, escape_rock)."""
    return _rule_notice(PATH_RULE, "partly modelled")
