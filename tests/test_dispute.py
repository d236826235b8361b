"""`check` and `explain` against the outcome lists: every listed outcome is legal or mandatory, and on
generated boards the ends `explain` allows are exactly the ends `moves` lists."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings

from adjudicator.questions.adjudicate import attack_options, faction_options, is_ai
from adjudicator.questions.dispute import check, explain
from adjudicator.position.load import load_position
from adjudicator.position.model import Position
from adjudicator.position.claims import AttackClaim, MoveClaim
from adjudicator.answers.moves import MoveOutcome
from adjudicator.answers.notation import NotationError, format_attack, format_move, parse
from adjudicator.answers.verdicts import ILLEGAL, LEGAL, MANDATORY

from tests.profiles import examples
from tests.strategies import describe, positions
from tests.test_positions import FILES


CHECKED = 4


def _beyond_claims(position: Position, move: MoveOutcome) -> bool:
    """A move a claim cannot state yet: a step onto a teleporting chip (Riftwalk, Naroran Rift), onto
    a spire of its own faction (Spire Shot) or a placement once it ends (Disperse); `check` names those
    talents as not taken into account for claims (their catalogue left_out), so its verdict is no test
    of the outcome."""
    rifts = {s.at for s in position.spires if {"Riftwalk", "Naroran Rift"} & set(s.talents)}
    if "Spire Shot" in position.units[move.unit].talents:
        rifts |= {s.at for s in position.spires if s.faction == position.units[move.unit].faction}
    return bool(move.placed) or bool(rifts & set(move.path))


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_printed_outcome_reads_back_and_checks_legal_or_mandatory(path) -> None:  # type: ignore[no-untyped-def]
    # Every outcome printed reads back as the claim it states; those of the position's own step check
    # legal or mandatory (a move claimed at the attack step is wrong_step).
    position = load_position(path)
    ai = is_ai(position, position.turn.faction)
    step = position.turn.step
    # The first few of each unit's outcomes are checked by `check`: each check solves again.
    for options in faction_options(position):
        for index, move in enumerate(options.outcomes):
            claim = parse(format_move(move), position)
            assert isinstance(claim, MoveClaim)
            assert (claim.unit, claim.end, claim.path) == (move.unit, move.end, move.path)
            assert claim.displaced == (tuple(sorted((d.unit, d.to) for d in move.displaced)) or None)
            if step != "movement" or not options.leading or index >= CHECKED or _beyond_claims(position, move):
                continue
            result = check(position, claim)
            # Undetermined when an unmodelled talent takes part: the modelled rules' verdict must agree.
            verdict = result.judgement.core_verdict or result.judgement.verdict
            assert verdict in (LEGAL, MANDATORY), (format_move(move), result.judgement)
            # An AI minion's only end is mandatory; among tied ends the player chooses (FAQ-30).
            if ai and move.kind == "progress":
                assert verdict == (MANDATORY if len(options.outcomes) == 1 else LEGAL)
    for options in attack_options(position):
        for index, attack in enumerate(options.outcomes):
            if attack.instead:  # no claim states it (Pacify): never read back as an attack on the chip
                with pytest.raises(NotationError):
                    parse(format_attack(attack), position)
                continue
            claim = parse(format_attack(attack), position)
            assert claim == AttackClaim(attack.attacker, attack.target, attack.redirected_to)
            if step == "attack" and index < CHECKED:
                result = check(position, claim)
                verdict = result.judgement.core_verdict or result.judgement.verdict
                assert verdict in (LEGAL, MANDATORY), (format_attack(attack), result.judgement)


def test_an_illegal_claim_lists_the_legal_alternatives() -> None:
    position = load_position("positions/rulebook/joust-harrier-jaelana-after-joust.yaml")
    result = check(position, MoveClaim("harrier", "c3"))
    assert result.judgement.verdict == ILLEGAL
    assert [r.id for r in result.judgement.reasons] == ["short"]
    assert result.alternatives == ("harrier a3-b3-c3-c4 jaelana>c3",)
    assert all(r.rule and r.quote for r in result.judgement.reasons)


def test_a_hero_declining_to_attack_is_legal_a_minion_not() -> None:
    position = load_position("positions/faq/faq-27-engage-in-and-out-of-range.yaml")
    assert check(position, AttackClaim("lancer", None)).judgement.verdict == ILLEGAL
    assert {r.id for r in check(position, AttackClaim("jaelana", None)).judgement.reasons} == {"must_attack.engage"}


@settings(max_examples=examples(60), deadline=None)
@given(positions())
def test_explain_allows_exactly_the_listed_ends(position: Position) -> None:
    # A minion that does not lead may not move yet (not_leading), whatever `moves` lists for later.
    free = [o for o in faction_options(copy.deepcopy(position)) if o.leading or position.units[o.unit].kind.value != "minion"]
    for options in free:
        unit, listed = options.unit, {m.end for m in options.outcomes}
        start = position.node_of(unit)
        result = explain(copy.deepcopy(position), MoveClaim(unit, start, (start,)))
        judged = [result.check.judgement, *result.others]
        # Undetermined (an unmodelled talent takes part): what the modelled rules alone say counts.
        allowed = {j.subject or start for j in judged if (j.core_verdict or j.verdict) != ILLEGAL}
        assert allowed == listed, f"{unit}: explain allows {sorted(allowed)}, moves lists {sorted(listed)}\n{describe(position)}"
        for j in judged:
            ids = {r.id for r in j.reasons}
            if j.verdict == ILLEGAL:
                assert ids and ids.isdisjoint({"progress", "lateral", "stay", "only_outcome"}), (j, describe(position))
