"""A unit that flips to a side the position does not give (Pistoleer), and whose own attack then reads
that side (its level-up), is answered with a notice in the attacks question too, not only in the step."""

from __future__ import annotations

from pathlib import Path

from adjudicator.position.load import load_position_text
from adjudicator.questions.adjudicate import attack_options

CHOICE = Path(__file__).parent.parent / "positions" / "talents" / "pistoleer" / "pistoleer-player-choice.yaml"


def _tinbeard_notices(text: str) -> set[str]:
    options = {o.unit: o for o in attack_options(load_position_text(text))}
    return {n.name for n in options["tinbeard"].notices}


def test_a_shot_that_defeats_and_levels_up_after_the_flip_is_noticed() -> None:
    # The harrier at 2 health: Tinbeard's shot (2) defeats it, and Tinbeard, flipped to its promoted side
    # (not in the position), may level up: its options read that side (game-elements, Leveling Up).
    text = CHOICE.read_text()
    weak = text.replace("harrier:  {chip: Harrier, faction: narora, kind: minion, at: d1, health: 3,",
                        "harrier:  {chip: Harrier, faction: narora, kind: minion, at: d1, health: 2,")
    assert weak != text
    assert "Pistoleer" in _tinbeard_notices(weak)


def test_a_shot_that_defeats_nothing_needs_no_notice() -> None:
    assert "Pistoleer" not in _tinbeard_notices(CHOICE.read_text())
