"""The rules of the factions' own sheets (adjudicator/data/faction-rules.yaml): quoted word for word,
and noticed wherever they could change an answer, never elsewhere."""

from __future__ import annotations

import re
from pathlib import Path

from adjudicator.position.faction_rules import faction_rules
from adjudicator.position.load import load_position_text
from adjudicator.questions.coverage import CHECK, MOVES, notices
from tests.rule_texts import SHARED, needs_shared

RULES = Path(__file__).resolve().parents[1] / "positions" / "rules"
KEEL = (RULES / "notice-keel-minion-promotion.yaml").read_text(encoding="utf-8")
SHADA = (RULES / "shada-minion-placement-on-a-well.yaml").read_text(encoding="utf-8")


def _words(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("’", "'"))


@needs_shared
def test_each_rule_is_quoted_from_its_sheet() -> None:
    for rule in faction_rules():
        assert _words(rule.text) in _words((SHARED / rule.source).read_text(encoding="utf-8")), rule.name


def _named(text: str, question: str, answer: str = "") -> list[str]:
    return [n.rule for n in notices(load_position_text(text), question, answer=answer) if n.rule]


def test_keel_promotion_needs_a_keel_spire_and_leaves_a_unit_s_moves_alone() -> None:
    assert _named(KEEL, "movement") == ["keel: minion-promotion"]
    assert _named(KEEL, "attack") == ["keel: minion-promotion"]
    for answer in (MOVES, CHECK):  # "finish their full movement and then assess whether to promote"
        assert _named(KEEL, "movement", answer) == []
    no_spire = KEEL.replace("spires:\n  outpost: {faction: keel, at: e1, upgrades: []}\n", "")
    assert _named(no_spire, "movement") == []


def test_keel_demotion_is_named_wherever_a_keel_minion_is_promoted() -> None:
    # "if a promoted minion is no longer occupying a hex group with a keel spire, it demotes": with
    # or without a keel spire in play (the last one may fall), hex groups not being modelled.
    promoted = KEEL.replace("movement: 2}}", "movement: 2}, promoted: true}")
    assert _named(promoted, "attack") == ["keel: minion-promotion", "keel: minion-demotion"]
    no_spire = promoted.replace("spires:\n  outpost: {faction: keel, at: e1, upgrades: []}\n", "")
    assert _named(no_spire, "movement") == _named(no_spire, "attack") == ["keel: minion-demotion"]
    assert _named(no_spire, "movement", MOVES) == []  # it assesses once its full movement is done


def test_keel_promotion_is_played_where_the_hex_groups_are_given() -> None:
    # asp/combat/keel.lp: with hex-groups the attack steps play it; as units move (movement/keel.lp),
    # only where each keel minion gives promoted-stats (its health once turned) and none may be displaced.
    grouped = KEEL.replace("units:\n", "hex-groups:\n  - [a1, b1, c1, d1, e1]\n\nunits:\n")
    assert _named(grouped, "attack") == []
    assert _named(grouped, "movement") == ["keel: minion-promotion"]
    promoted = grouped.replace("movement: 2}}", "movement: 2}, promoted: true}")
    assert _named(promoted, "attack") == []
    assert _named(promoted, "movement") == ["keel: minion-promotion", "keel: minion-demotion"]
    sided = grouped.replace("movement: 2}}", "movement: 2}, promoted-stats: {health: 3, attack: 2, movement: 2}}")
    assert _named(sided, "movement") == []
    flying = sided.replace("promoted-stats:", "talents: [Flying], promoted-stats:")
    assert _named(flying, "movement") == ["keel: minion-promotion"]  # displaced across hex groups: not played


def test_the_shada_s_placement_is_played_for_a_player_and_named_for_the_ai_within_reach_on_their_turn() -> None:
    assert _named(SHADA, "movement", MOVES) == []  # asp/movement/shada.lp plays a player's
    ai = SHADA.replace("shada: {controller: player", "shada: {controller: ai")
    assert ai != SHADA
    assert _named(ai, "movement", MOVES) == ["shada: minion-placement"]
    distant = ai.replace("movement: 2}", "movement: 1}").replace("at: d1", "at: e1")
    assert _named(distant, "movement") == []  # the well on a1, 4 hexes from e1: beyond 1 step and 1 more
    promoted = ai.replace("movement: 2}}", "movement: 2}, promoted: true}")
    assert _named(promoted, "movement") == []  # "After a basic shada minion's movement"
    theirs = ai.replace("turn: {faction: shada", "turn: {faction: heirs")
    assert _named(theirs, "movement") == []


def test_the_shada_s_fusion_is_named_where_two_basic_minions_are_in_play() -> None:
    # "After any other basic shada minion's movement, if it is adjacent to an ungrouped shada minion on a
    # Source well, the two may trigger a fusion": one basic minion alone never does.
    pair = SHADA.replace("units:\n", "units:\n  fire: {chip: Fire, faction: shada, kind: minion, at: e1, health: 2,\n"
                                     "         stats: {health: 2, attack: 1, movement: 2}}\n")
    assert pair != SHADA
    assert _named(pair, "movement") == ["shada: fusion"]
    assert _named(pair.replace("movement: 2}}\n  wind", "movement: 2}, promoted: true}\n  wind"), "movement") == []



def test_the_shada_s_fusion_is_played_only_where_every_part_of_it_is() -> None:
    # asp/movement/shada.lp plays a player's fusion where the position gives what it reads (coverage.py,
    # _fusion_played): the barracks, the pairing's promoted side, no grouped basic minion, no health that
    # may change on the way (the price reads it as the move begins).
    fusing = (RULES / "shada-fusion-beside-a-well.yaml").read_text(encoding="utf-8")
    assert _named(fusing, "movement") == []
    sideless = fusing.replace(", promoted-stats: {health: 4, attack: 3, movement: 2}}", "}")
    assert sideless != fusing and _named(sideless, "movement") == ["shada: fusion"]
    unknown = fusing.replace(", barracks: [ash1]", "").replace("  ash1: {chip: Ash, faction: shada, kind: minion, health: 3,\n", "  ash1: {chip: Ash, faction: shada, kind: minion, health: 3, at: e1,\n")
    assert unknown != fusing and _named(unknown, "movement") == ["shada: fusion"]
    hurting = fusing.replace("units:\n", "units:\n  lahar: {chip: Lava, faction: heirs, kind: minion, at: e1, health: 2,\n"
                                          "          stats: {health: 2, attack: 1, movement: 1}, talents: [Lahar]}\n")
    assert _named(hurting, "movement") == ["shada: fusion"]
    ai = fusing.replace("shada: {controller: player", "shada: {controller: ai")
    assert ai != fusing and "shada: fusion" in _named(ai, "movement")
