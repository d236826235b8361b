"""The encodings themselves: clingo warns about nothing, and the grounder decides every program.

A warning usually means a misspelt predicate (it then silently derives nothing). A rule left for the
solver means part of the program is unstratified, which costs the grounder most of its speed.
"""

from pathlib import Path

import pytest

from adjudicator.facts.combat import ATTACK, FIRE, STEP, CombatQuery, combat_facts
from adjudicator.position.dice import shipped_die
from adjudicator.position.readings import resolve
from adjudicator.questions.adjudicate import combat_ai, present_units
from adjudicator.facts.board import Query, position_facts
from adjudicator.position.load import load_position
from adjudicator.position.model import Position
from adjudicator.solving.solve import COMBAT, ground

ROOT = Path(__file__).resolve().parent.parent / "positions"
FILES = sorted(ROOT.rglob("*.yaml"))


def queries(position: Position) -> list[Query]:
    faction = position.turn.faction
    units = present_units(position, faction)
    return [Query(units), Query(units, frozenset({faction}), stepping=True)]


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_no_warnings_and_the_grounder_decides_everything(path: Path) -> None:
    position = load_position(path)
    for query in queries(position):
        control = ground(position_facts(position, query), ("base",), strict=True)
        control.solve()
        # Every rule of the movement part reaching the solver is a fact: no rule has a body left.
        assert control.statistics["problem"]["lp"]["bodies"] == 0
    # The combat part and every talent file the position grounds: a misspelt predicate there would
    # silently derive nothing, just as in the movement part. The attack step grounds the rules a
    # single unit's attack does (the mode is a fact), so it stands for both.
    side = position.turn.faction
    units = present_units(position, side)
    readings = resolve(position.readings)
    ai = combat_ai(position, side, None)
    spires = tuple(s.id for s in position.spires if s.faction != side)
    for combat in (
        CombatQuery(ATTACK, STEP, side, ai, len(units), readings=readings),
        CombatQuery(FIRE, STEP, side, ai, len(spires), fire_order=spires, readings=readings,
                    die=shipped_die(readings["spire-die"])),
    ):
        ground(combat_facts(position, combat), COMBAT, strict=True)
