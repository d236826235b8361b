"""Settling a dispute: is a claimed move or attack legal, mandatory or illegal, and why.

The verdict and every reason come out of the encodings (asp/explain/move.lp in the `explain` part,
asp/explain/attack.lp in the `combat` part); this module asks, decodes and attaches the unit's
legal options, written in notation so that any of them can be pasted back.
"""

from __future__ import annotations

from dataclasses import replace

from clingo import Symbol

from adjudicator.questions.adjudicate import attack_options, combat_ai, declined, faction_query, holding_facts
from adjudicator.questions.coverage import CHECK, as_happened, notices
from adjudicator.facts.claims import claim_facts
from adjudicator.facts.combat import ATTACK, SINGLE, CombatQuery, combat_facts
from adjudicator.answers.decode import decode, decode_verdicts
from adjudicator.facts.board import position_facts
from adjudicator.position.model import Position
from adjudicator.position.claims import AttackClaim, Claim, MoveClaim
from adjudicator.answers.notation import format_attack, format_claim, format_move
from adjudicator.position.readings import resolve
from adjudicator.solving.solve import EXPLAIN, Deadline, solve, solve_all
from adjudicator.answers.verdicts import ILLEGAL, LEGAL, MANDATORY, CheckResult, Explanation, Judgement


def check(
    position: Position, claim: Claim, ai: bool | None = None, deadline: Deadline | None = None
) -> CheckResult:
    """The verdict on ``claim``, with its reasons and the unit's legal alternatives."""
    return _judge(position, claim, ai, False, deadline).check


def explain(
    position: Position, claim: Claim, ai: bool | None = None, deadline: Deadline | None = None
) -> Explanation:
    """``check``, and the verdict on every other end hex (or target) the unit could reach."""
    return _judge(position, claim, ai, True, deadline)


def _judge(
    position: Position, claim: Claim, ai: bool | None, everything: bool, deadline: Deadline | None
) -> Explanation:
    facts = list(claim_facts(claim, position, everything))
    if isinstance(claim, MoveClaim):
        judgements, alternatives = _judge_move(position, claim, ai, facts, deadline)
    else:
        judgements, alternatives = _judge_attack(position, claim, ai, facts, deadline)
    verdict = judgements.pop("")
    others = tuple(judgements[k] for k in sorted(judgements))
    # An unmodelled talent that takes part may overturn any of these verdicts: none is stated as sure.
    # A claimed move's verdict is about what the player chose: a rule only chance decides (the
    # floating rocks' dice) cannot overturn it (scenarios.yaml, counted_by: check).
    move = isinstance(claim, MoveClaim)
    unmodelled = notices(position, "movement" if move else "attack", ai, CHECK if move else "")
    if not move and claim.level_up is None:
        # The choice of target comes before anything is defeated: what acts only on a defeat or at
        # the wave's end cannot overturn it (a stated level-up can be: Train).
        unmodelled = as_happened(unmodelled, defeats=False, wave_ends=False)
    if unmodelled:
        verdict = verdict.undetermined()
        others = tuple(j.undetermined() for j in others)
    return Explanation(CheckResult(format_claim(claim), verdict, alternatives, unmodelled), others)


def _judge_move(
    position: Position, claim: MoveClaim, ai: bool | None, facts: list[Symbol], deadline: Deadline | None
) -> tuple[dict[str, Judgement], tuple[str, ...]]:
    faction = position.units[claim.unit].faction
    query = faction_query(position, faction, ai)
    starts = {uid: position.node_of(uid) for uid in query.units}
    judged: dict[str, list[Judgement]] = {}
    moves: list[str] = []
    # A stat add its player may leave unused (a player's Gust): the claim is judged with it and without it.
    for board in declined(position, (claim.unit,), query.ai_factions):
        asked = [*position_facts(board, query), *holding_facts(board, query, deadline), *facts]
        symbols = solve(asked, parts=EXPLAIN, deadline=deadline)
        for subject, judgement in decode_verdicts(symbols).items():
            judged.setdefault(subject, []).append(judgement)
        options = decode(symbols, starts, (claim.unit,)).options[claim.unit]  # the claimed unit's alone
        moves += [format_move(m) for m in options.outcomes]
    # A move listed with and without an act a claim cannot state (Consume) reads alike: listed once.
    return {subject: _either(found) for subject, found in judged.items()}, tuple(dict.fromkeys(moves))


def _either(found: list[Judgement]) -> Judgement:
    """One verdict from the verdicts of a claim on each board its player may choose (a stat taken or
    left): legal where some board allows it, mandatory only where every board forces it, its reasons
    those of the first board that allows it (why it must be taken dropped where another allows more);
    illegal, with the first board's reasons, where none allows it."""
    allowed = [j for j in found if j.verdict != ILLEGAL]
    if not allowed:
        return found[0]
    if len(allowed) == len(found) and all(j.verdict == MANDATORY for j in found):
        return found[0]
    first = allowed[0]
    return replace(first, verdict=LEGAL, reasons=tuple(r for r in first.reasons if r.kind != MANDATORY))


def _judge_attack(
    position: Position, claim: AttackClaim, ai: bool | None, facts: list[Symbol], deadline: Deadline | None
) -> tuple[dict[str, Judgement], tuple[str, ...]]:
    side = position.units[claim.unit].faction
    query = CombatQuery(ATTACK, SINGLE, side, combat_ai(position, side, ai), 1, units=(claim.unit,),
                        readings=resolve(position.readings), measure_from=claim.unit)
    models = solve_all([*combat_facts(position, query), *facts], deadline=deadline)
    [options] = attack_options(position, claim.unit, ai, deadline)
    alternatives = tuple(format_attack(o) for o in options.outcomes)
    if not options.must_attack:
        alternatives += (format_claim(AttackClaim(claim.unit, None)),)
    return decode_verdicts(models[0]), alternatives

