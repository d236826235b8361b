"""What every position file must also show beside its expected outcomes, checked on the position the
expectations loaded (tests/test_positions.py), so that the answers kept for it serve each check.

- Every printed outcome reads back as the claim it states, and, on a fixed sample of the positions
  (SOLVED_SHARE), `check` finds the first legal or mandatory.
- The movement part leaves the solver no rule (on the same sample): a rule left for the solver means part of the program is
  unstratified, which costs the grounder most of its speed. (No grounding in the tests draws a warning
  from clingo: tests/conftest.py makes every one strict.)
"""

from __future__ import annotations

import pytest

from adjudicator.answers.moves import MoveOutcome
from adjudicator.answers.notation import NotationError, format_attack, format_move, parse
from adjudicator.answers.verdicts import LEGAL, MANDATORY
from adjudicator.facts.board import Query, position_facts
from adjudicator.position.claims import AttackClaim, MoveClaim
from adjudicator.position.load import PositionDocument
from adjudicator.position.model import Position
from adjudicator.questions.adjudicate import attack_options, faction_options, is_ai, present_units
from adjudicator.questions.dispute import check
from adjudicator.questions.expectations import ATTACK_KEYS, MOVE_KEYS
from adjudicator.solving.solve import MOVE, ground, scenario_files, talent_files


CHECKED = 1  # the first of each unit's outcomes is checked by `check`: each check solves again (4 until
# the suite, 3,095 tests, took 9 min 44 s on a quiet machine)
SOLVED_SHARE = 10  # a normal run solves a position again (`check` of its claims, grounds_to_facts) on one
# position in 10 (4 until 3,669 tests took 11 min 33 s), a fixed sample by file name (tests/profiles.py, in_fixed_share): those solves took some
# 30 % of the positions' time; tests/test_hook_contract.py grounds every talent file to facts besides


def _beyond_claims(position: Position, move: MoveOutcome) -> bool:
    """A move a claim cannot state yet: a placement once it ends (Disperse)."""
    return bool(move.placed)


def reads_back(doc: PositionDocument, checked: int = CHECKED) -> None:
    """Every printed outcome of the moves or attacks the position stands at or expects reads back as the
    claim it states, with its acts (docs/notation.md, Acts); the first ``checked`` of each unit's, at the
    position's own step, check legal or mandatory (a move claimed at the attack step is wrong_step).
    Moves of a position standing at another step, and not expected, are left to the positions that do:
    each would be a solve of its own."""
    position = doc.position
    ai = is_ai(position, position.turn.faction)
    step = position.turn.step
    moves = step == "movement" or bool(set(doc.expected) & set(MOVE_KEYS))
    attacks = step in ("attack", "quick-strike") or bool(set(doc.expected) & set(ATTACK_KEYS))
    for options in faction_options(position) if moves else ():
        for index, move in enumerate(options.outcomes):
            claim = parse(format_move(move), position)
            assert isinstance(claim, MoveClaim)
            assert [(a.talent, a.chip if a.how != "discard" else None, a.to or None) for a in move.acts if a.stated] == \
                [(a.talent, a.chip, a.to) for a in (*claim.before, *claim.after)], format_move(move)
            if any(a.instead for a in move.acts):
                assert claim.path == (position.node_of(move.unit),) and not claim.after, format_move(move)
            elif not any(a.when == "before" and a.places for a in move.acts):  # else it starts where the act put it
                assert (claim.unit, claim.end, claim.path, claim.landed) == (move.unit, move.end, move.path, move.landed)
                assert claim.displaced == (tuple(sorted((d.unit, d.to) for d in move.displaced)) or None)
            if step != "movement" or not options.leading or index >= checked or _beyond_claims(position, move):
                continue
            result = check(position, claim)
            # Undetermined when an unmodelled talent takes part: the modelled rules' verdict must agree.
            verdict = result.judgement.core_verdict or result.judgement.verdict
            assert verdict in (LEGAL, MANDATORY), (format_move(move), result.judgement)
            # An AI minion's only end is mandatory; among tied ends the player chooses (FAQ-30).
            if ai and move.kind == "progress" and not move.acts and not options.before:
                assert verdict == (MANDATORY if len(options.outcomes) == 1 else LEGAL)
    for options in attack_options(position) if attacks else ():
        for index, attack in enumerate(options.outcomes):
            if attack.instead:  # no claim states it (Pacify): never read back as an attack on the chip
                with pytest.raises(NotationError):
                    parse(format_attack(attack), position)
                continue
            claim = parse(format_attack(attack), position)
            assert claim == AttackClaim(attack.attacker, attack.target, attack.redirected_to)
            if step == "attack" and index < checked:
                result = check(position, claim)
                verdict = result.judgement.core_verdict or result.judgement.verdict
                assert verdict in (LEGAL, MANDATORY), (format_attack(attack), result.judgement)


# The programs already seen to ground to facts, in this worker: the property is the encodings', so a
# second position with the same talent and chapter files, side, step and readings adds nothing.
_GROUNDED: set[tuple[object, ...]] = set()


def grounds_to_facts(position: Position) -> None:
    """Every rule of the movement part reaching the solver is a fact: no rule has a body left."""
    faction = position.turn.faction
    units = present_units(position, faction)
    for query in (Query(units), Query(units, frozenset({faction}), stepping=True)):
        facts = position_facts(position, query)
        key = (tuple(talent_files(facts)), tuple(scenario_files(facts)), is_ai(position, faction),
               position.turn.step, query.stepping, tuple(sorted(position.readings.items())))
        if key in _GROUNDED:
            continue
        control = ground(facts, MOVE)
        control.solve()
        assert control.statistics["problem"]["lp"]["bodies"] == 0
        _GROUNDED.add(key)
