"""Move notation (docs/notation.md). That every outcome a position prints reads back to the claim it
states is checked beside the verdicts, in tests/position_checks.py."""

import pytest

from adjudicator.position.load import load_position, load_position_text
from adjudicator.position.claims import ActClaim, AttackClaim, MoveClaim
from adjudicator.answers.notation import NotationError, format_claim, parse


BOARD = """
format: cloudspire-position/1
map: |
  1  p  p  p  p  p
gates:
  my-side: {beside: [a1]}
factions:
  my-side: {controller: player, mark: {hex: e1}}
turn: {faction: my-side}
units:
  UID: {chip: Harrier, faction: my-side, kind: minion, at: b1, health: 1, stats: {health: 1, movement: 2}}
"""


@pytest.mark.parametrize("uid", ["x). #false.", "stay", "a b", 'q"uote', "-dash", "gate:my-side"])
def test_awkward_names_round_trip(uid: str) -> None:
    import json

    position = load_position_text(BOARD.replace("UID", json.dumps(uid)))
    for text in (f"{json.dumps(uid)} b1-c1-d1", f"{json.dumps(uid)} stay", f"{json.dumps(uid)} pass"):
        claim = parse(text, position)
        assert claim.unit == uid
        assert parse(format_claim(claim), position) == claim


def test_a_gate_node_whose_faction_has_a_dash() -> None:
    position = load_position_text(BOARD.replace("UID", "h"))
    assert parse("h b1-a1-gate:my-side", position).path == ("b1", "a1", "gate:my-side")


def test_forms() -> None:
    position = load_position_text(BOARD.replace("UID", "h"))
    assert parse("h c1", position) == MoveClaim("h", "c1")
    assert parse("h b1", position) == MoveClaim("h", "b1", ("b1",))  # its own hex: it stays
    assert parse("h x gate:my-side +fortification", position) == AttackClaim("h", "gate:my-side", None, "fortification")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("h", "expected a unit and its move"),
        ("nobody b1-c1", "no unit 'nobody'"),
        ("h b1-z9", "not a hex or gate"),
        ("h x nobody", "no unit, spire, gate or waygate"),
        ("h x gate:my-side +wings", "level-up"),
        ('h "unterminated b1', "unterminated"),
        ("h b1-c1 nobody>c1", "displaced unit"),
        ("h pass now", "nothing may follow"),
        ("h dig:nobody b1-c1", "act dig: 'nobody' is no unit, hex"),
        ("h dig:b1>c1>d1 b1-c1", "at most one '>'"),
        ("h digg:c1 b1-c1", "no talent or rule named 'digg' \\(did you mean dig"),
        ("h b1-c1 consum:h", "no talent or rule named 'consum'"),
        ("h b1-c1 nobody>c1", "displaced unit"),
    ],
)
def test_bad_notation_says_what_is_wrong(text: str, message: str) -> None:
    position = load_position_text(BOARD.replace("UID", "h"))
    with pytest.raises(NotationError, match=message):
        parse(text, position)


def test_a_quoted_name_inside_a_route() -> None:
    position = load_position_text(BOARD.replace("UID", "h"))
    assert parse('h "b1"-c1-"d1"', position).path == ("b1", "c1", "d1")
    assert parse('h b1-a1-"gate:my-side"', position).path == ("b1", "a1", "gate:my-side")


def test_acts_before_and_after_the_route() -> None:
    position = load_position_text(BOARD.replace("UID", "h"))
    claim = parse("h dig:c1 b1-c1 call-minion:h>a1 YrtelsWay", position)
    assert isinstance(claim, MoveClaim)
    assert claim.before == (ActClaim("Dig", "c1"),)
    assert claim.after == (ActClaim("Call Minion", "h", "a1"), ActClaim("Yrtel's Way"))
    assert format_claim(claim) == "h dig:c1 b1-c1 call-minion:h>a1 yrtels-way"
    assert parse(format_claim(claim), position) == claim
    # Acts alone: the unit stays after them (or made them instead of moving).
    assert parse("h tracker:d1", position) == MoveClaim("h", "b1", ("b1",), before=(ActClaim("Tracker", "d1"),))
