"""A question grounds only the rules that may fire on its facts (adjudicator/solving/solve.py, slicing):
the answer sets are those of the whole program, and a rule left out still has its reads checked."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from clingo import Function, Number, Symbol, ast

from adjudicator.facts.board import Query, position_facts
from adjudicator.facts.combat import ATTACK, FIRE, STEP, CombatQuery, combat_facts
from adjudicator.position.dice import shipped_die
from adjudicator.position.load import load_position
from adjudicator.position.readings import resolve
from adjudicator.questions.adjudicate import _edge_points, combat_ai, present_units
from adjudicator.solving import solve
from tests.rule_texts import ROOT


def _whole(files: tuple[str, ...], parts: tuple[str, ...], projected: bool, *_: object) -> tuple[str, str, tuple[str, ...]]:
    """Every statement of the parts, as before slicing."""
    return "\n".join(shape.statement for entry in files for part in parts for shape in solve._shapes(entry, part)
                     if projected or not shape.project) + "\n", "", ()


def _answers(facts: Sequence[Symbol], parts: tuple[str, ...]) -> set[frozenset[Symbol]]:
    control = solve.ground(facts, parts, ["0"])
    return {frozenset(model) for model in solve.models(control, None, None)}


# Positions whose edges, attacks and moves act through talents: an edge's attack (Prowl), a spire's
# (Raze), a defeat and a blast (Self Destruct), a spire's move (Creep), healing, a displacement (Eager).
POSITIONS = [
    "positions/talents/prowl/prowl-two-hexes-then-the-gate.yaml",
    "positions/talents/raze/raze-ai-fewest-upgrades.yaml",
    *sorted(str(p.relative_to(ROOT)) for name in ("self-destruct", "creep", "healing", "eager")
            for p in (ROOT / "positions/talents" / name).glob("*.yaml"))[:8],
    "positions/turn/turn-from-spires-fire.yaml",
]


@pytest.mark.parametrize("name", POSITIONS)
def test_slicing_changes_no_answer_set(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    position = load_position(ROOT / name)
    side = position.turn.faction
    readings = resolve(position.readings)
    ai = combat_ai(position, side, None)
    spires = tuple(s.id for s in position.spires if position.may_oppose(s, side))
    questions = [
        (combat_facts(position, CombatQuery(moment, STEP, side, ai, _edge_points(position, side), readings=readings,
                                            die=shipped_die(readings["spire-die"]))), solve.COMBAT)
        for moment in ("start", "end")
    ]
    questions.append((combat_facts(position, CombatQuery(ATTACK, STEP, side, ai, 2, readings=readings)), solve.COMBAT))
    questions.append((combat_facts(position, CombatQuery(FIRE, STEP, side, ai, len(spires), fire_order=spires,
                                                         readings=readings, die=shipped_die(readings["spire-die"]))),
                      solve.COMBAT))
    questions.append((position_facts(position, Query(present_units(position, side))), solve.MOVE))
    sliced = [_answers(facts, parts) for facts, parts in questions]
    assert all(sliced)
    monkeypatch.setattr(solve, "_sliced", _whole)
    assert sliced == [_answers(facts, parts) for facts, parts in questions]


def test_a_rule_left_out_may_not_read_a_predicate_nothing_defines(monkeypatch: pytest.MonkeyPatch) -> None:
    # The grounder warns of a misspelt name only in the rules it is given: one slicing leaves out is
    # checked by slicing itself (solve.STRICT, set for the tests).
    program = {"base": ("kept(X) :- given(X).", "attacking(X) :- kept(X), combat(attack).",
                        "left(X) :- given(X), wanted(X).", "wanted(X) :- nothing(X).", "#defined nothing/1.",
                        "odd(X) :- given(X), mispelt(X).")}
    parsed: dict[str, list[ast.AST]] = {"base": []}
    for text in program["base"]:
        ast.parse_string(text, parsed["base"].append)
    monkeypatch.setattr(solve, "_files", lambda entry: ("main.lp",))
    monkeypatch.setattr(solve, "_outlines", lambda entry: {"main.lp": {part: tuple(map(solve._outline, s))
                                                                       for part, s in parsed.items()}})
    monkeypatch.setattr(solve, "_shapes", solve._shapes.__wrapped__)
    monkeypatch.setattr(solve, "_constant_names", solve._constant_names.__wrapped__)
    monkeypatch.setattr(solve, "_SLICES", {})
    facts = [Function("given", [Number(1)]), Function("combat", [Function("end")])]
    with pytest.raises(solve.EncodingWarning, match="mispelt/1"):
        solve.ground(facts, ("base",))
    parsed["base"] = [s for s in parsed["base"] if "mispelt" not in str(s)]
    statements, undefined, unknown = solve._slice(("main.lp",), ("base",), True, {"given", "combat"},
                                                  frozenset({"combat(end)."}))
    assert _rules(statements) == ["kept(X) :- given(X)."]
    assert undefined == "#defined attacking/1.\n#defined left/1.\n#defined wanted/1.\n" and unknown == ()
    statements, _, _ = solve._slice(("main.lp",), ("base",), True, {"given", "combat"},
                                    frozenset({"combat(attack)."}))
    assert _rules(statements) == ["kept(X) :- given(X).", "attacking(X) :- kept(X); combat(attack)."]


def _rules(statements: str) -> list[str]:
    """The rules of a slice's text, one a line as clingo prints them."""
    return [line for line in statements.splitlines() if " :- " in line]
