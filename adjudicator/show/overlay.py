"""What to draw over the board for a question: the outcomes, a claim, the unit in focus.

Shared by `cloudspire render` and the web page, so that both draw the same answer.
"""

from __future__ import annotations

from typing import Any

from adjudicator.answers.attacks import AttackOutcome, StepEnd
from adjudicator.answers.moves import MoveOutcome, StepOutcome
from adjudicator.answers.turns import TurnOutcome
from adjudicator.position.claims import AttackClaim, Claim, MoveClaim
from adjudicator.position.model import Position
from adjudicator.answers.notation import act_name
from adjudicator.questions import adjudicate
from adjudicator.questions.board_after import apply_end, apply_move
from adjudicator.solving.solve import Deadline


def overlay_of(
    pos: Position, claim: Claim | None, unit: str | None, ai: bool | None, deadline: Deadline | None
) -> dict[str, Any]:
    """What to draw over the board (render_svg.render's keywords): a claimed move or attack with the
    unit's legal outcomes, the claim crossed out when the rules forbid it; or every outcome of one
    unit at the current step."""
    if isinstance(claim, MoveClaim):
        options = adjudicate.unit_options(pos, claim.unit, ai, deadline).outcomes
        stated = (*claim.before, *claim.after)

        def acts_fit(m: MoveOutcome) -> bool:  # each stated act one of the outcome's (docs/notation.md, Acts)
            return all(any(act_name(a.talent) == act_name(w.talent) and w.chip in (None, a.chip) and w.to in (None, a.to)
                           for a in m.acts) for w in stated)

        taken = sorted((
            m for m in options
            if acts_fit(m) and (any(a.instead for a in m.acts) or m.end == claim.end and (
                claim.path is None or m.path == claim.path))
            and (claim.displaced is None or sorted((d.unit, d.to) for d in m.displaced) == list(claim.displaced))
        ), key=lambda m: len(m.acts))  # the fewest acts: those it must take, where the claim leaves them out
        if taken:
            return {"moves": taken[:1], "focus": claim.unit}
        path = claim.path or (pos.node_of(claim.unit), claim.end)
        forbidden = MoveOutcome(claim.unit, claim.end, "claimed", (), path)
        return {"moves": list(options), "forbidden": [forbidden], "focus": claim.unit}
    if isinstance(claim, AttackClaim):
        [options] = adjudicate.attack_options(pos, claim.unit, ai, deadline)
        if claim.target is None:
            return {"attacks": list(options.outcomes), "focus": claim.unit}
        key = (claim.unit, claim.target, claim.redirected_to)
        taken = [o for o in options.outcomes if o.key[:3] == key]  # with or without a splash or a Riposte
        if taken:
            return {"attacks": taken, "focus": claim.unit}
        forbidden = AttackOutcome(claim.unit, claim.target, claim.redirected_to)
        return {"attacks": list(options.outcomes), "forbidden": [forbidden], "focus": claim.unit}
    if unit is None:
        return {}
    if pos.turn.step == "attack":
        [options] = adjudicate.attack_options(pos, unit, ai, deadline)
        return {"attacks": list(options.outcomes), "focus": unit}
    return {"moves": list(adjudicate.unit_options(pos, unit, ai, deadline).outcomes), "focus": unit}


def outcome_overlay(pos: Position, outcome: object) -> tuple[Position, dict[str, Any]]:
    """The board to draw one outcome of a step question on, and what to draw over it: a movement
    step's moves, a combat step's attacks; for a whole turn, its moves and its attack step's attacks
    (Quick Strike's are in its text). Other outcomes (Spires Fire's results, the start and end of a
    turn) draw the board as it stands."""
    if isinstance(outcome, StepOutcome):
        return pos, {"moves": list(outcome.sequence)}
    if isinstance(outcome, StepEnd):
        return pos, {"attacks": list(outcome.sequence)}
    if isinstance(outcome, TurnOutcome):
        # The board as the movement step begins (after the start of the turn, Quick Strike and the
        # spires' shots: a spire Creep moved stands where it went), its moves played; the attack
        # step's attacks drawn from where its units moved to.
        after = pos
        for end in (outcome.start, outcome.quick_strike, outcome.fire):
            after = apply_end(after, end.end) if end is not None else after
        moves = list(outcome.movement.sequence) if outcome.movement else []
        for move in moves:
            after = apply_move(after, move)
        return after, {"moves": moves, "attacks": list(outcome.attack.sequence) if outcome.attack else []}
    return pos, {}
