"""The encodings themselves: clingo warns about nothing, and the grounder decides every program.

A warning usually means a misspelt predicate (it then silently derives nothing). A rule left for the
solver means part of the program is unstratified, which costs the grounder most of its speed.
"""

from pathlib import Path

import clingo
import pytest

from adjudicator.facts.combat import ATTACK, FIRE, SINGLE, STEP, CombatQuery, combat_facts
from adjudicator.position.dice import shipped_die
from adjudicator.position.readings import resolve
from adjudicator.questions.adjudicate import combat_ai, present_units
from adjudicator.facts.board import Query, position_facts
from adjudicator.position.load import load_position
from adjudicator.solving.solve import _program, render, solve, solve_all, talent_files

ROOT = Path(__file__).resolve().parent.parent / "positions"
FILES = sorted(ROOT.rglob("*.yaml"))


def queries(path: Path) -> list[Query]:
    position = load_position(path)
    faction = position.turn.faction
    units = present_units(position, faction)
    return [Query(units), Query(units, frozenset({faction}), stepping=True)]


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_no_warnings(path: Path) -> None:
    for query in queries(path):
        solve(position_facts(load_position(path), query), strict=True)


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_grounder_decides_everything(path: Path) -> None:
    from clingo import ast

    for query in queries(path):
        facts = position_facts(load_position(path), query)
        control = clingo.Control(["--warn=none"])
        with ast.ProgramBuilder(control) as builder:
            # The core and the base part of each talent file the position needs (solve.py).
            for program in (_program(), *(_program(name) for name in talent_files(facts))):
                for statement in program.get("base", ()):
                    builder.add(statement)
        control.add("base", [], render(facts))
        control.ground([("base", [])])
        control.solve()
        # Every rule reaching the solver is a fact: no rule has a body left.
        assert control.statistics["problem"]["lp"]["bodies"] == 0


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_no_warnings_in_combat(path: Path) -> None:
    # The combat part and every talent file the position grounds: a misspelt predicate there would
    # silently derive nothing, just as in the movement part.
    position = load_position(path)
    side = position.turn.faction
    units = present_units(position, side)
    readings = resolve(position.readings)
    ai = combat_ai(position, side, None)
    spires = tuple(s.id for s in position.spires if s.faction != side)
    for query in (
        CombatQuery(ATTACK, SINGLE, side, ai, 1, units=units, readings=readings),
        CombatQuery(ATTACK, STEP, side, ai, len(units), readings=readings),
        CombatQuery(FIRE, STEP, side, ai, len(spires), fire_order=spires, readings=readings,
                    die=shipped_die(readings["spire-die"])),
    ):
        solve_all(combat_facts(position, query), strict=True)
