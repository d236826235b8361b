"""Settling a dispute: is a claimed move or attack legal, mandatory or illegal, and why.

The verdict and every reason come out of the encodings (asp/explain/move.lp in the `explain` part,
asp/explain/attack.lp in the `combat` part); this module asks, decodes and attaches the unit's
legal options, written in notation so that any of them can be pasted back.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from clingo import Symbol

from adjudicator.questions.adjudicate import (HERO_LEVELS, OTHER_SIDE, acted, attack_options, combat_ai, declined,
                                               faction_query, holding_facts, ones_in, unit_options)
from adjudicator.questions.coverage import CHECK, LEVEL_UP_TEXT, LEVELING_UP, as_happened, notices, turned_notices
from adjudicator.facts.claims import claim_facts
from adjudicator.facts.combat import ATTACK, SINGLE, CombatQuery, combat_facts
from adjudicator.answers.decode import claim_notices, decode, decode_verdicts
from adjudicator.answers.moves import Act, UnitOptions
from adjudicator.answers.notices import Notice
from adjudicator.facts.board import Query, position_facts
from adjudicator.position.model import Kind, Position
from adjudicator.position.claims import ActClaim, AttackClaim, Claim, MoveClaim
from adjudicator.position.talents import NOT_MODELLED, PARTLY
from adjudicator.answers.notation import act_name, format_act, format_attack, format_claim, format_move
from adjudicator.position.readings import resolve
from adjudicator.solving.solve import EXPLAIN, Deadline, solve, solve_all
from adjudicator.answers.verdicts import (ILLEGAL, LEGAL, MANDATORY, CheckResult, Explanation, Judgement, Reason,
                                          known_reasons)


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
    found: tuple[Notice, ...] = ()
    ones: frozenset[str] | None = None
    if isinstance(claim, MoveClaim):
        judgements, alternatives, found, ones = _judge_move(position, claim, ai, everything, deadline)
    else:
        facts = list(claim_facts(claim, position, everything))
        judgements, alternatives = _judge_attack(position, claim, ai, facts, deadline)
    verdict = judgements.pop("")
    others = tuple(judgements[k] for k in sorted(judgements))
    # An unmodelled talent that takes part may overturn any of these verdicts: none is stated as sure.
    # A claimed move's verdict is about what the player chose: a rule only chance decides (the
    # floating rocks' dice) cannot overturn it (scenarios.yaml, counted_by: check).
    move = isinstance(claim, MoveClaim)
    unmodelled = (*notices(position, "movement" if move else "attack", ai, CHECK if move else "", ones=ones), *found)
    if not move and claim.level_up is None:
        # The choice of target comes before anything is defeated: what acts only on a defeat or at
        # the wave's end cannot overturn it (a stated level-up can be: Train).
        unmodelled = as_happened(unmodelled, defeats=False, wave_ends=False)
    if unmodelled:
        verdict = verdict.undetermined()
        others = tuple(j.undetermined() for j in others)
    return Explanation(CheckResult(format_claim(claim), verdict, alternatives, unmodelled), others)


def _judge_move(
    position: Position, claim: MoveClaim, ai: bool | None, everything: bool, deadline: Deadline | None
) -> tuple[dict[str, Judgement], tuple[str, ...], tuple[Notice, ...], frozenset[str]]:
    """The claim's judgements, the outcomes the rules allow, what its acts leave out, and the units whose
    some outcome of the unit's may leave at exactly 1 health (adjudicate.ones_in: a legal claim is one of them)."""
    faction = position.units[claim.unit].faction
    query = faction_query(position, faction, ai)

    def judged(claim: MoveClaim) -> tuple[dict[str, Judgement], list[Notice]]:
        by_subject: dict[str, list[Judgement]] = {}
        found: list[Notice] = []
        # A stat add its player may leave unused (a player's Gust): the claim is judged with it and without it.
        for board in declined(position, (claim.unit,), query.ai_factions):
            acts = _Acts(board, claim, query, everything, deadline)
            for subject, judgement in acts.judge(board, _in_order(claim.before), _any, frozenset()).items():
                by_subject.setdefault(subject, []).append(judgement)
            found += acts.notices
        return {subject: _either(found) for subject, found in by_subject.items()}, found

    judgements, found = judged(claim)
    stays = claim.path is not None and len(claim.path) == 1 and not claim.after and not claim.displaced
    if judgements[""].verdict == ILLEGAL and claim.before and stays:
        # Acts with no move: made after a stay (Save: "after or instead of this unit's movement") as well.
        staying, noted = judged(replace(claim, before=(), after=claim.before))
        if staying[""].verdict != ILLEGAL:
            judgements, found = staying, noted
    options = unit_options(position, claim.unit, ai, deadline)
    alternatives = tuple(dict.fromkeys(format_move(m) for m in options.outcomes))
    found += claim_notices(options, claim.end)
    return judgements, alternatives, tuple(dict.fromkeys(found)), ones_in(options)


def _any(act: Act) -> bool:
    return True


def _in_order(before: tuple[ActClaim, ...]) -> tuple[ActClaim, ...]:
    """The acts before the move in the order `moves` lists them: Radiate's transfers, a set of them one
    per unit, by unit id (adjudicate.acting), however the claim orders them."""
    ordered = list(before)
    i = 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and _same(ordered[j].talent, "Radiate"):
            j += 1
        ordered[i:j] = sorted(ordered[i:j], key=lambda a: a.chip or "")
        i = j + 1
    return tuple(ordered)


class _Acts:
    """A claimed move judged with the acts it states (docs/notation.md, Acts): each act before the move
    among those the unit's talents offer on the board it stands on (before_act/4, decoded), the board it
    leaves then asked again (adjudicate.acted), as `moves` asks it; on the last board, the move by the
    explain encoding, and the acts after it among those offered where it ends (after_act/5)."""

    def __init__(self, position: Position, claim: MoveClaim, query: Query, everything: bool,
                 deadline: Deadline | None) -> None:
        self.claim, self.query, self.everything, self.deadline = claim, query, everything, deadline
        self.unit = position.units[claim.unit]
        self.end = claim.end  # where the claim ends on the last board asked (a stay: the hex an act put it on)
        self.notices: list[Notice] = []

    def _solve(self, board: Position) -> tuple[dict[str, Judgement], UnitOptions]:
        claim = self.claim
        start = board.node_of(claim.unit)
        if claim.path is not None and len(claim.path) == 1 and claim.path[0] != start:
            claim = replace(claim, path=(start,), end=start)  # stays on the hex an act put it on (Scatter)
        self.end = claim.end
        facts = [*position_facts(board, self.query), *holding_facts(board, self.query, self.deadline),
                 *claim_facts(claim, board, self.everything)]
        symbols = solve(facts, parts=EXPLAIN, deadline=self.deadline)
        starts = {uid: board.node_of(uid) for uid in self.query.units}
        options = decode(symbols, starts, (claim.unit,)).options[claim.unit]
        routed = claim.path is not None and len(claim.path) > 1
        return {subject: _apart(judgement, options, subject or claim.end, routed and not subject)
                for subject, judgement in decode_verdicts(symbols).items()}, options

    def judge(self, board: Position, left: tuple[ActClaim, ...], accepts: Callable[[Act], bool],
              optional: frozenset[str]) -> dict[str, Judgement]:
        """The judgements on ``board``, where the acts ``left`` are still to come before the move;
        ``accepts``: which acts before it the unit may still take (after Radiate, Radiate to later units);
        ``optional``: the talents that offered an act its player could take or leave on the boards before.
        An act a talent must take (no act_may/2: the AI's), left out of the claim, is taken as made, each
        one it may be, as a displacement left out is (docs/notation.md, Acts)."""
        verdicts, options = self._solve(board)
        offers = tuple(a for a in options.before if accepts(a))
        optional |= {a.talent for a in offers if a.talent not in options.must_act}
        if left:
            wanted, rest = left[0], left[1:]
            rolled = [(t, p) for t, p in options.gambles if _same(t, wanted.talent)]
            if rolled:  # a die rolled before its move discarded it (Anarchy): chance, and no move after it
                return {"": self._instead(Reason(LEGAL, "act_chance", (rolled[0][0], str(rolled[0][1]))), rest)}
            fits = _closest(wanted, offers)
            if not fits:
                return {"": _not_offered(wanted, "before", offers)}
        else:  # the AI's talent acts before its move where it can (docs/movement.md)
            rest, fits = left, [a for a in offers if a.talent in options.must_act]
            if not fits:
                return self._after(verdicts, options, optional)
        tried, noted, mark = [], [], len(self.notices)
        for act in fits:
            del self.notices[mark:]  # each act tried names what it leaves out: the one chosen's are kept
            must = act.talent in options.must_act
            reason = _cited(MANDATORY if must else LEGAL, "act_must" if must else "act", act.talent,
                            (act.talent, "before", format_act(act)))
            self._note(act)
            if act.instead:  # Tracker, Evoke: the act is its move
                judgement = self._instead(reason, rest)
                if reason.kind == MANDATORY and len(offers) == 1 and judgement.verdict != ILLEGAL:
                    judgement = replace(judgement, verdict=MANDATORY)
                tried.append({"": judgement})
                noted.append(self.notices[mark:])
                continue
            after = acted(board, self.claim.unit, act)
            self.notices += turned_notices(board, after, "movement", CHECK)  # the side a flip shows
            then = self.judge(after, rest, _later(act), optional)
            tried.append({**then, "": _joined(reason, then[""])})
            noted.append(self.notices[mark:])
        chosen = next((i for i, t in enumerate(tried) if t[""].verdict != ILLEGAL), 0)
        self.notices[mark:] = noted[chosen]
        return tried[chosen]

    def _instead(self, reason: Reason, rest: tuple[ActClaim, ...]) -> Judgement:
        """An act made instead of moving: nothing may follow it, no move, no act."""
        claim = self.claim
        if rest or claim.after or claim.displaced or claim.path is None or len(claim.path) > 1:
            return Judgement("", ILLEGAL, (Reason(ILLEGAL, "act_instead", (reason.args[0],)),))
        return Judgement("", LEGAL, (reason,))

    def _after(self, verdicts: dict[str, Judgement], options: UnitOptions,
               optional: frozenset[str]) -> dict[str, Judgement]:
        """The move's judgements on the last board, with the acts stated once it ends."""
        move = verdicts.pop("")
        if move.verdict == ILLEGAL:
            return {**verdicts, "": move}
        wanted = self.claim.after
        end = self.end
        made = [tuple(a for a in m.acts if a.stated) for m in options.outcomes if m.end == end] or [()]  # none: no act
        offered = tuple(dict.fromkeys(a for acts in made for a in acts))
        optional |= {a.talent for a in offered if a.talent not in options.must_act}
        must = frozenset(options.must_act)
        match = next((acts for fits in (_exact, _fits) for acts in made if _pairs(wanted, acts, must, fits) is not None),
                     None)
        if match is None:
            missing = next((w for w in wanted if not any(_fits(w, a) for a in offered)), None)
            if missing is not None:
                judgement = _not_offered(missing, "after", offered)
            else:
                judgement = Judgement("", ILLEGAL, (Reason(ILLEGAL, "acts_apart", (
                    " ".join(format_act(w) for w in wanted),)),))
            return {**verdicts, "": judgement}
        taken = tuple(a for a in match if a.when == "after")  # those claimed, and those a talent must take
        for act in taken:
            self._note(act)
        reasons = tuple(_cited(MANDATORY, "act_must", a.talent, (a.talent, "after", format_act(a))) if a.talent in must
                        else _cited(LEGAL, "act_after", a.talent, (a.talent, "after", format_act(a))) for a in taken)
        judgement = replace(move, reasons=(*move.reasons, *reasons))
        if optional and move.verdict == MANDATORY:  # it might as well have taken, or left, an act
            kept = tuple(r for r in judgement.reasons if r.kind != MANDATORY)
            stated = (*self.claim.before, *self.claim.after)
            left = sorted(t for t in optional if not any(_same(t, w.talent) for w in stated))
            judgement = replace(judgement, verdict=LEGAL, reasons=(*kept, *(Reason(LEGAL, "act_may", (t,)) for t in left)))
        return {**verdicts, "": judgement}

    def _note(self, act: Act) -> None:
        """What a claimed act leaves out, as `moves` names it (adjudicate.acting, sourced): a basic unit
        flipped or promoted to a side the position does not give; a hero's level-up after its act's defeat."""
        unit = self.unit
        if not unit.promoted and unit.promoted_stats is None and (
                act.then == "promote" or (act.then == "flip" and act.when == "before")):
            self.notices.append(Notice(act.talent, PARTLY, ("movement",), (unit.id,), left_out=OTHER_SIDE))
        if unit.kind is Kind.HERO and act.defeats and act.then != "defeated":
            self.notices.append(Notice("", NOT_MODELLED, ("movement",), (unit.id,), HERO_LEVELS, LEVELING_UP,
                                       LEVEL_UP_TEXT))


# What the encoding calls the one thing the unit may do: its one end (only_outcome), the end the AI must take
# (ai_closest, ai_hero).
ONE_END = ("ai_closest", "ai_hero")


def _apart(judgement: Judgement, options: UnitOptions, end: str, routed: bool) -> Judgement:
    """``judgement`` on a move ending on ``end`` (``routed``: the claim states its route), mandatory only where
    nothing the unit may do differs from it for a user: the encoding counts ends, but two routes to one end
    that take different damage, roll dice, strike or carry differently are outcomes apart (MoveOutcome.key, as
    `moves` lists them), either the unit's to take. Where there are such, "the only outcome" holds for no
    claim, and the AI's end taken by force does not make a stated route mandatory."""
    if judgement.verdict != MANDATORY:
        return judgement
    # The acts a move may or must take are judged on their own (_Acts._after: act_may).
    # The D6s an end sets off are chance, not choice (Explosion): the outcome before them.
    keys = {(m.end, replace(m.chosen, acts=()).key) for m in options.outcomes}
    dropped = {"only_outcome"} if len(keys) > 1 else set()
    if routed and len({k for e, k in keys if e == end}) > 1:
        dropped.update(ONE_END)
    if not dropped:
        return judgement
    reasons = tuple(r for r in judgement.reasons if r.kind != MANDATORY or r.id not in dropped)
    if any(r.kind == MANDATORY for r in reasons):
        return replace(judgement, reasons=reasons)
    return replace(judgement, verdict=LEGAL, reasons=reasons)


def _cited(kind: str, rid: str, talent: str, args: tuple[str, ...]) -> Reason:
    """A reason on a talent's act, citing that talent's own words where reasons.yaml has them (act.consume)."""
    own = f"{rid}.{re.sub(r'[^a-z]+', '_', talent.lower()).strip('_')}"
    return Reason(kind, own if own in known_reasons() else rid, args)


def _same(talent: str, name: str) -> bool:
    return act_name(talent) == act_name(name)


def _fits(wanted: ActClaim, act: Act) -> bool:
    """The claimed act names this act: its talent, and its chip and ``to`` where the claim gives them."""
    return _same(act.talent, wanted.talent) and wanted.chip in (None, act.chip) and wanted.to in (None, act.to)


def _exact(wanted: ActClaim, act: Act) -> bool:
    """The claimed act is this act as `moves` prints it: a chip or ``to`` it leaves out, the act leaves out too."""
    return _fits(wanted, act) and format_act(wanted) == format_act(act)


def _closest(wanted: ActClaim, offers: tuple[Act, ...]) -> list[Act]:
    """The acts offered that the claimed act names: those it states as printed where there are any, so that
    an act that names no ``to`` reads back as itself (Builder's tower, ``builder:platform``, not one of its
    upgrades ``builder:platform>attack``; Build Waygate's discard, ``build-waygate:ruin``, not its discard
    with a waygate ``build-waygate:ruin>b2``), else every act it fits."""
    fits = [a for a in offers if _fits(wanted, a)]
    return [a for a in fits if _exact(wanted, a)] or fits


def _later(act: Act) -> Callable[[Act], bool]:
    """The acts before the move still open after ``act``: after Radiate's, only Radiate to a unit after
    that one in id order, as `moves` lists them (adjudicate.acting)."""
    return (lambda b: b.how == "radiate" and b.chip > act.chip) if act.how == "radiate" else _any


def _pairs(wanted: tuple[ActClaim, ...], acts: tuple[Act, ...], must: frozenset[str],
           fits: Callable[[ActClaim, Act], bool]) -> tuple[tuple[ActClaim, Act], ...] | None:
    """Each act claimed after the move paired with one of the outcome's ``acts`` it names (``fits``), each of those
    claimed once but those of a talent the unit ``must`` use, which the claim may leave out; None where
    they do not pair up."""
    made = [a for a in acts if a.when == "after"]

    def pair(i: int, free: frozenset[int]) -> tuple[tuple[ActClaim, Act], ...] | None:
        if i == len(wanted):
            return () if all(made[j].talent in must for j in free) else None
        for j in sorted(free):
            if fits(wanted[i], made[j]) and (rest := pair(i + 1, free - {j})) is not None:
                return ((wanted[i], made[j]), *rest)
        return None

    return pair(0, frozenset(range(len(made))))


def _not_offered(wanted: ActClaim, when: str, offers: tuple[Act, ...]) -> Judgement:
    listed = ", ".join(format_act(a) for a in dict.fromkeys(offers)) or "none"
    # Each side of the move has its own rule (docs/notation.md, Acts).
    key = "act_not_offered" if when == "before" else "act_after_not_offered"
    return Judgement("", ILLEGAL, (Reason(ILLEGAL, key, (format_act(wanted), when, listed)),))


def _joined(reason: Reason, then: Judgement) -> Judgement:
    """The act before the move, then the judgement on the board it leaves: a move it must make after an act
    its player chose is no longer the one thing it must do."""
    if then.verdict == MANDATORY and reason.kind == LEGAL:
        return replace(then, verdict=LEGAL, reasons=(reason, *(r for r in then.reasons if r.kind != MANDATORY)))
    return replace(then, reasons=(reason, *then.reasons))


def _either(found: list[Judgement]) -> Judgement:
    """One verdict from the verdicts of a claim on each board its player may choose (a stat taken or
    left): legal where some board allows it, mandatory only where every board forces it, its reasons
    those of the first board that allows it (why it must be taken dropped where another allows more);
    illegal, with the first board's reasons, where none allows it."""
    allowed = [j for j in found if j.verdict != ILLEGAL]
    if not allowed or len(found) == 1:
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

