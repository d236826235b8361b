"""`check` and `explain` against the outcome lists: on generated boards the ends `explain` allows are
exactly the ends `moves` lists (every position's own outcomes read back in tests/position_checks.py)."""

from __future__ import annotations

import copy

from hypothesis import given, settings

from adjudicator.questions.adjudicate import faction_options
from adjudicator.questions.dispute import check, explain
from adjudicator.position.load import load_position
from adjudicator.position.model import Position
from adjudicator.position.claims import AttackClaim, MoveClaim
from adjudicator.answers.notation import parse
from adjudicator.answers.verdicts import ILLEGAL

from tests.profiles import examples
from tests.strategies import describe, positions


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
    # A minion that does not lead may not move yet (not_leading), whatever `moves` lists for later; nor may
    # a landmark minion its faction controls, which moves as its minion.
    free = [o for o in faction_options(copy.deepcopy(position))
            if o.leading or position.units[o.unit].kind.value not in ("minion", "landmark-minion")]
    for options in free:
        # A unit its own die discards before it moves (Anarchy) makes no move: the claim states none.
        unit = options.unit
        listed = {m.end for m in options.outcomes if not any(a.how == "discard" and a.chip == unit for a in m.acts)}
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
            # "The only outcome": `moves` lists one, by what differs for a user (damage, dice, chips struck), but
            # for its discard by its own die before it moves (Anarchy), which chance decides, not the claim.
            if "only_outcome" in ids:
                moved = {m.key for m in options.outcomes if not m.discarded}
                assert len(moved) == 1, (j, options.outcomes, describe(position))


def test_an_act_printed_without_a_to_reads_back_as_itself() -> None:
    # docs/notation.md, Acts: a claim may leave out `>TO` where any will do, yet an act that names none
    # reads back as itself where it is offered: Builder's tower (builder:platform) is not one of its
    # upgrades (builder:platform>attack), Build Waygate's discard (build-waygate:ruin) not its discard
    # with a waygate placed (build-waygate:ruin>b2).
    for path, move in (("builder/builder-basic-builds-promotes-or-upgrades.yaml", "engineer b1-c1 builder:platform"),
                       ("build-waygate/build-waygate-discard-place-or-both.yaml", "mason b1-c1 build-waygate:ruin")):
        position = load_position(f"positions/talents/{path}")
        reasons = check(position, parse(move, position)).judgement.reasons
        assert [r.args[2] for r in reasons if r.id == "act_after"] == [move.split()[-1]]
