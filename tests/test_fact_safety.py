"""Hostile names cannot change the program: facts are Symbols, and names stay strings. (Control
characters, which clingo would cut a string at, the loader refuses: tests/test_load.py.)"""

import pytest

from adjudicator.questions.adjudicate import faction_options
from adjudicator.facts.board import Query, position_facts
from adjudicator.position.load import load_position_text

HOSTILE = ['x). #false.', 'a"b', "two words", "ünï", "#false", "q). mover(\"joust\"", "\\", "%comment"]

TEMPLATE = """
format: cloudspire-position/1
map: |
  1  p  p  p  p  p
factions:
  heirs: {{controller: player, mark: {{hex: e1}}}}
turn: {{faction: heirs, step: movement}}
units:
  {uid}: {{chip: Harrier, faction: heirs, kind: minion, at: a1, health: 1,
          stats: {{health: 1, attack: 1, movement: 2}}}}
"""


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_unit_id_is_just_a_name(name: str) -> None:
    import json

    position = load_position_text(TEMPLATE.format(uid=json.dumps(name)))
    [options] = faction_options(position)
    # Movement 2 along a row of five path hexes towards e1: it must end on c1 (FAQ-30 second step).
    assert options.unit == name
    assert [(o.end, o.path) for o in options.outcomes] == [("c1", ("a1", "b1", "c1"))]
    facts = position_facts(position, Query((name,)))
    assert any(f.name == "unit" and f.arguments[0].string == name for f in facts)
