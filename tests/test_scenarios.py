"""A position that names a Harbinger chapter: what the loader makes of `scenario`, the chapter's checks on
the position, and the notices of the chapter's rules left out (docs/position-format.md, scenario)."""

from __future__ import annotations

from pathlib import Path

import pytest
from clingo import Function, Number, String

from adjudicator.position.chapter_rules import chip_name
from adjudicator.position.load import PositionFileError, load_position_text
from adjudicator.position.priorities import presets
from adjudicator.position.scenarios import Scenario, chapters
from adjudicator.questions.adjudicate import attack_options, attack_step, spires_fire
from adjudicator.questions.coverage import notices, notices_in
from adjudicator.questions.whole_turn import whole_turn
from adjudicator.solving.solve import encoding_dir, scenario_files

# Chapter 6: the uprising (the player) against the keel and the shada.
CHAPTER_6 = """\
format: cloudspire-position/1
map: |
  1  p  p  p
gates:
  uprising: {beside: [a1]}
  keel: {beside: [c1]}
factions:
  uprising: {controller: player, mark: {gate: keel}}
  keel: {controller: ai, mark: {gate: uprising}}
turn: {faction: keel}
"""


def test_without_a_scenario_the_base_rules_hold() -> None:
    position = load_position_text(CHAPTER_6)
    assert position.scenario is None and position.ai_priority is None


def test_scenario_fields_are_read() -> None:
    position = load_position_text(CHAPTER_6 + "scenario: {chapter: 6, wave: 2, event: 5}\n")
    assert position.scenario == Scenario(6, 2, (5,))
    assert position.scenario.book.title == "The Uprising – If You're Not Enough"


def test_chapter_6_selects_its_attack_priority() -> None:
    position = load_position_text(CHAPTER_6 + "scenario: {chapter: 6}\n")
    assert position.ai_priority is not None
    assert position.ai_priority.units == presets("units")["harbinger-6"]
    assert position.ai_priority.spires == presets("spires")["standard"]


def test_a_position_s_own_priority_wins_over_the_chapter_s() -> None:
    position = load_position_text(CHAPTER_6 + "scenario: {chapter: 6}\nai-priority: {units: standard}\n")
    assert position.ai_priority is not None and position.ai_priority.units == presets("units")["standard"]


def test_another_chapter_keeps_the_standard_priority() -> None:
    text = CHAPTER_6.replace("uprising", "keel2").replace("keel:", "graft:").replace("keel}", "graft}")
    text = text.replace("keel2", "keel").replace("faction: keel", "faction: graft")
    position = load_position_text(text + "scenario: {chapter: 3}\n")
    assert position.ai_priority is None


def test_two_rolls_are_a_list() -> None:
    text = CHAPTER_6.replace("uprising", "graft")
    position = load_position_text(text + "scenario: {chapter: 7, event: [2, 5]}\n")
    assert position.scenario == Scenario(7, None, (2, 5))


def test_too_many_rolls_are_an_error() -> None:
    with pytest.raises(PositionFileError) as raised:
        load_position_text(CHAPTER_6 + "scenario: {chapter: 6, event: [1, 1, 1, 1, 1, 1, 1, 1, 1]}\n")
    assert [p.field for p in raised.value.problems] == ["scenario.event"]


# --- notices: the chapter's rules left out

CHAPTER_1 = """\
format: cloudspire-position/1
map: |
  1  p  p  p
gates:
  horizons-wrath: {beside: [a1]}
  shada: {beside: [c1]}
factions:
  horizons-wrath: {controller: player, mark: {gate: shada}}
  shada: {controller: ai, mark: {gate: horizons-wrath}}
turn: {faction: shada}
"""


def _rules(text: str, question: str) -> list[str]:
    return [n.rule for n in notices(load_position_text(text), question) if n.rule]


def test_no_scenario_no_rule_notices() -> None:
    assert _rules(CHAPTER_1.replace("horizons-wrath", "heirs"), "movement") == []


ROCKY = CHAPTER_1.replace("1  p  p  p", "1  p  r  p") + """\
units:
  wind: {chip: Wind, faction: shada, kind: minion, at: c1, health: 1, stats: {health: 1, attack: 1, movement: 2}}
"""


def test_the_rock_roll_is_counted_by_the_answers_not_noticed() -> None:
    # chapter 1's roll for a floating rock is encoded (asp/movement/rolls.lp): every answer acting in
    # movement counts the dice, so the position's notices do not name it
    assert _rules(ROCKY + "scenario: {chapter: 1}\n", "movement") == []
    assert next(r for r in chapters()[1].rules if r.id == "floating-rocks-roll").status == "encoded"


def test_an_unknown_event_is_noticed_only_where_horizons_wrath_may_roll() -> None:
    # Event 1-2: "Horizon's Wrath units do not need to roll"; an event not given may be any face, and
    # the answers then have them roll.
    theirs = ROCKY.replace("faction: shada, kind", "faction: horizons-wrath, kind").replace(
        "turn: {faction: shada}", "turn: {faction: horizons-wrath}")
    assert _rules(theirs + "scenario: {chapter: 1}\n", "movement") == ["chapter 1: event-no-rock-rolls"]
    assert _rules(theirs + "scenario: {chapter: 1, event: 3}\n", "movement") == []
    assert _rules(theirs + "scenario: {chapter: 1, event: 2}\n", "movement") == []
    # a claimed move's verdict hangs on no die
    position = load_position_text(theirs + "scenario: {chapter: 1}\n")
    assert [n.rule for n in notices(position, "movement", answer="check") if n.rule] == []
    # "Units with the talent Flying do not need to roll dice in this way" ...
    flying = theirs.replace("movement: 2}}", "movement: 2}, talents: [Flying]}")
    assert _rules(flying + "scenario: {chapter: 1}\n", "movement") == []
    # ... unless Hail, which ignores Flying, is in play
    hail = flying.replace("units:\n", "units:\n  hailer: {chip: Hailer, faction: shada, kind: hero, at: a1, "
                          "health: 1, stats: {health: 1}, talents: [Hail]}\n")
    assert _rules(hail + "scenario: {chapter: 1}\n", "movement") == ["chapter 1: event-no-rock-rolls"]
    # ... and not on another faction's turn, nor without a rock
    assert _rules(ROCKY + "scenario: {chapter: 1}\n", "movement") == []
    flat = theirs.replace("1  p  r  p", "1  p  p  p")
    assert _rules(flat + "scenario: {chapter: 1}\n", "movement") == []


HEIRS_DEPLOY = """\
format: cloudspire-position/1
map: |
  1  p  p  p
gates:
  heirs: {beside: [a1], stack: [kram]}
  graft: {beside: [c1]}
factions:
  heirs: {controller: player, mark: none}
  graft: {controller: ai, mark: {gate: heirs}}
turn: {faction: heirs}
scenario: {chapter: 2}
units:
  kram: {chip: Kram, faction: heirs, kind: hero, health: 3, stats: {health: 3, attack: 1, movement: 2}}
"""


def test_a_rule_is_noticed_only_when_what_it_needs_is_in_play() -> None:
    # Chapter 2: "Each time the heirs deploy a unit, they may add one of the health chips in the
    # Horizon's Wrath fortress to it": only when an heir unit waits to deploy on the heirs' turn.
    assert "chapter 2: deploy-health-chips" in _rules(HEIRS_DEPLOY, "movement")
    placed = HEIRS_DEPLOY.replace(", stack: [kram]", "").replace("kind: hero,", "kind: hero, at: b1,")
    assert "chapter 2: deploy-health-chips" not in _rules(placed, "movement")
    on_their_turn = HEIRS_DEPLOY.replace("turn: {faction: heirs}", "turn: {faction: graft}")
    assert "chapter 2: deploy-health-chips" not in _rules(on_their_turn, "movement")


def test_the_waygates_part_left_out_is_noticed_only_where_it_could_act() -> None:
    # Chapter 6's waygates are encoded (asp/scenarios/chapter_6.lp); one part is not: which waygate the
    # Uprising's waiting units stand on. Only on the keel's or the shada's turn, with a waygate standing.
    waygates = ["chapter 6: casualties", "chapter 6: waygate-health", "chapter 6: waygate-destroyed"]
    board = CHAPTER_6.replace("1  p  p  p", "1  p  p* p") + "scenario: {chapter: 6, wave: 1}\n"
    assert not set(waygates) & set(_rules(board, "attack") + _rules(board, "movement"))
    standing = board + "chips:\n  wg: {at: b1, name: Waygate, health: 2}\n"
    assert not set(waygates) & set(_rules(standing, "attack") + _rules(standing, "movement"))
    waiting = standing.replace("uprising: {beside: [a1]}", "uprising: {beside: [a1], stack: [lock]}") + (
        "units:\n  lock: {chip: Flintlock, faction: uprising, kind: hero, health: 4, stats: {health: 4, attack: 2, movement: 3}}\n")
    for question in ("attack", "quick"):
        assert "chapter 6: waygate-health" in _rules(waiting, question)
    assert "chapter 6: waygate-health" not in _rules(waiting, "fire")  # spires fire at units only
    destroyed = waiting.replace("health: 2}", "health: 0}")
    assert "chapter 6: waygate-health" not in _rules(destroyed, "attack")
    uprising = waiting.replace("turn: {faction: keel}", "turn: {faction: uprising}")
    assert "chapter 6: waygate-health" not in _rules(uprising, "attack")
    burning = standing + (  # Immolate's damage to a waygate beside its end is encoded (immolate.lp)
        "units:\n  fire: {chip: Burner, faction: keel, kind: minion, at: c1, health: 2, talents: [Immolate],\n"
        "         stats: {health: 2, attack: 1, movement: 2}}\n")
    assert "chapter 6: waygate-health" not in _rules(burning, "movement")


def test_a_waygate_gives_its_health_on_a_source_well() -> None:
    board = CHAPTER_6.replace("1  p  p  p", "1  p  p* p") + "scenario: {chapter: 6, wave: 1}\n"
    chip = "chips:\n  wg: {at: b1, name: Waygate, health: 4}\n"
    assert [(c.name, c.health) for c in load_position_text(board + chip).chips] == [("Waygate", 4)]
    for wrong, field in [("{at: b1, name: Waygate}", "chips.wg.health"),
                         ("{at: a1, name: Waygate, health: 4}", "chips.wg.at"),
                         ("{at: b1, name: Waygate, health: 5}", "chips.wg.health"),
                         ("{at: b1, name: Rubble, health: 4}", "chips.wg.health")]:
        with pytest.raises(PositionFileError) as raised:
            load_position_text(board + chip.replace("{at: b1, name: Waygate, health: 4}", wrong))
        assert field in {p.field for p in raised.value.problems}, wrong


def test_grafted_snare_in_movement_is_noticed_only_where_an_opposing_unit_has_a_moving_talent_it_does_not_read() -> None:
    board = Path(__file__).resolve().parents[1] / "positions/harbinger/2/scenario-2-merc-stack-blocks.yaml"
    text = board.read_text(encoding="utf-8")
    moving = "chapter 2: grafted-snare-all-moving"
    assert moving not in _rules(text, "movement")

    def holding(talent: str) -> str:
        return text.replace("stats: {health: 5, attack: 2, movement: 3}}",
                            f"stats: {{health: 5, attack: 2, movement: 3}},\n talents: [{talent}]}}")

    talented = holding("Stubborn")
    assert moving in _rules(talented, "movement")
    # a talent acting only in combat changes no move, ignored or not
    assert moving not in _rules(holding("Armored"), "movement")
    # encoded in combat: no notice there
    assert "chapter 2: grafted-snare-all" not in _rules(holding("Armored"), "attack")
    theirs = talented.replace("turn: {faction: graft, step: movement}", "turn: {faction: heirs, step: attack}")
    assert moving not in _rules(theirs, "movement")
    # landmark minions are "opposing units to every faction" (game-elements: Landmarks)
    def landmark(talent: str) -> str:
        return text.replace("units:\n", "units:\n  imp: {chip: Imp, kind: landmark-minion, at: d2, health: 1,\n"
                            f"        stats: {{health: 1, attack: 0}}, talents: [{talent}]}}\n")

    assert moving in _rules(landmark("Stubborn"), "movement")
    assert moving not in _rules(landmark("Engage"), "movement")
    # a talent whose encoding reads the snare (hushed/2) is played, not named (Blaze: displaced by a Graft move)
    assert moving not in _rules(landmark("Toxic Secretion"), "movement")
    assert moving not in _rules(holding("Flying"), "movement")
    assert moving not in _rules(holding("Blaze"), "movement")


CHAPTER_2 = Path(__file__).resolve().parents[1] / "positions/harbinger/2"
WAVE = "chapter 2: end-of-wave-maneuver"  # acts when the wave ends
EARTHSCAPE = "chapter 3: earthscape-after-defeat"  # acts when a Graft spire is defeated

# Chapter 3: a keel hero beside a Graft spire, on the keel's turn.
CHAPTER_3 = """format: cloudspire-position/1
map: |4
        a  b  c
    1   p  p  p
gates:
  keel: {beside: [a1], health: 10}
  graft: {beside: [c1], health: 10}
factions:
  keel: {controller: player, mark: {gate: graft}, source: SOURCE}
  graft: {controller: ai, mark: {gate: keel}}
turn: {faction: keel, step: STEP}
scenario: {chapter: 3, wave: 2}
spires:
  golgi: {faction: graft, at: c1, upgrades: UPGRADES, chip: Golgi Body}
units:
  clutch: {chip: Clutch, faction: keel, kind: hero, at: b1, health: HEALTH, capacity: 2, stats: {health: 5, attack: 1, movement: 2}}
"""


def _chapter_3(step: str, upgrades: str = "[attack]", health: int = 5, source: int = 3) -> str:
    return CHAPTER_3.replace("STEP", step).replace("UPGRADES", upgrades).replace("HEALTH", str(health)).replace(
        "SOURCE", str(source))


def test_a_rule_acting_on_a_defeat_or_the_wave_s_end_is_left_out_where_none_happens() -> None:
    # No attack of the briar defeats anyone: the rule acting at the wave's end cannot act.
    quiet = load_position_text((CHAPTER_2 / "scenario-2-attack-closest-hero.yaml").read_text(encoding="utf-8"))
    assert WAVE in _rules((CHAPTER_2 / "scenario-2-attack-closest-hero.yaml").read_text(), "attack")
    assert [n.name for o in attack_options(quiet) for n in o.notices] == []
    assert attack_step(quiet).notices == ()
    # The briar defeats the mill, and the wave goes on: still nothing.
    fall = load_position_text((CHAPTER_2 / "scenario-2-attack-spire-first.yaml").read_text(encoding="utf-8"))
    assert attack_step(fall).notices == ()
    # The clutch's 1 damage defeats a spire with no upgrade left, never one with two.
    bare = load_position_text(_chapter_3("attack", "[]"))
    assert {n.name for o in attack_options(bare) for n in o.notices} == {EARTHSCAPE}
    assert {n.name for n in attack_step(bare).notices} == {EARTHSCAPE}
    assert attack_step(load_position_text(_chapter_3("attack", "[attack, attack]"))).notices == ()


def test_spires_fire_leaves_them_out_where_no_shot_can_defeat() -> None:
    # One die deals at most 2: the clutch at 5 cannot fall, at 2 it may, and what acts on its defeat (Morale,
    # its die not given) is kept; the earthscape purchase acts only on a Graft spire's defeat, which no shot
    # brings (coverage.as_happened, fallen).
    morale = "stats: {health: 5, attack: 1, movement: 2}, talents: [Morale]}"

    def named(health: int) -> set[str]:
        board = _chapter_3("spires-fire", health=health).replace("stats: {health: 5, attack: 1, movement: 2}}", morale)
        return {n.name for n in spires_fire(load_position_text(board)).notices}

    assert named(5) == set()
    assert named(2) == {"Morale"}


def test_the_earthscape_purchase_is_named_only_where_a_graft_spire_falls() -> None:
    # The keel's clutch defeats the bare golgi (the rule named) or a Graft unit beside it (not named); the
    # whole turn names it on the same board only where its attack step does.
    bare = load_position_text(_chapter_3("attack", "[]"))
    assert {n.name for n in whole_turn(bare).notices} == {EARTHSCAPE}
    # "you may immediately spend 3 Source": the keel with 2, the golgi giving no reward, can buy none
    short = load_position_text(_chapter_3("attack", "[]", source=2))
    assert {n.name for n in attack_step(short).notices} == set()
    assert {n.name for o in attack_options(short) for n in o.notices} == set()
    assert {n.name for n in whole_turn(short).notices} == set()
    # where Source may be spent after the fall (Press Gang: spends/4), the end's Source does not tell: named
    spent = _chapter_3("attack", "[]", source=2).replace("stats: {health: 5, attack: 1, movement: 2}}",
                                                          "stats: {health: 5, attack: 1, movement: 2}, talents: [Press Gang]}")
    assert EARTHSCAPE in {n.name for n in attack_step(load_position_text(spent)).notices}
    unit = _chapter_3("attack", "[attack, attack]").replace("capacity: 2, stats: {health: 5, attack: 1,",
                                                            "capacity: 2, stats: {health: 5, attack: 3,")
    unit += "  briar: {chip: Grafted Briar, faction: graft, kind: minion, at: a1, health: 1, stats: {health: 1, attack: 1, movement: 2}}\n"
    ends = attack_step(load_position_text(unit))
    assert any(c.defeated and c.chip == "briar" for e in ends.outcomes for c in e.end.chips)
    assert EARTHSCAPE not in {n.name for n in ends.notices}
    assert EARTHSCAPE not in {n.name for n in whole_turn(load_position_text(unit)).notices}


def test_a_claimed_attack_leaves_them_out_unless_it_states_a_level_up() -> None:
    from adjudicator.answers.notation import parse
    from adjudicator.questions.dispute import check
    board = load_position_text((CHAPTER_2 / "scenario-2-level-up-full-health.yaml").read_text(encoding="utf-8"))
    assert check(board, parse("jaelana x briar", board)).judgement.verdict == "legal"
    # A level-up follows the defeat, and what acts on a defeat may change it (Train's capacity).
    assert check(board, parse("jaelana x briar +attack", board)).judgement.verdict == "undetermined"


def test_what_acts_only_on_a_defeat_or_the_wave_s_end_only_follows_it() -> None:
    # coverage.as_happened drops these where no outcome has a defeat or the wave's end: sound only
    # while each acts after the event and never decides it (as Neglected and Precious would, which are
    # modelled). A new entry here needs that read in its wording before it joins the list.
    from adjudicator.position.talents import catalogue
    events = {"defeat", "end-of-wave"}
    talents = {t.name for t in catalogue().talents.values() for ai in (False, True)
               if t.unmodelled_steps(ai) and set(t.unmodelled_steps(ai)) <= events}
    # Morale's and Powerhouse's part left out: the die or the barracks a position does not give, read once
    # the defeat is dealt (what Impale's defeats bring is played as units move: docs/movement.md).
    assert talents == {"Morale", "Powerhouse"}
    rules = {f"{n}: {r.id}" for n, book in chapters().items() for r in book.rules
             if r.status == "not-modelled" and set(r.acts) <= events}
    assert rules == set()
    # chapter 6's earthscapes-removed, encoded, keeps a notice where the position lacks its earthscapes
    # (coverage.earthscape_notices): it too acts only once the wave has ended
    assert chapters()[6].rule("earthscapes-removed").acts == ("end-of-wave",)


def test_earthscapes_are_noticed_only_where_the_answer_cannot_count_them() -> None:
    ended = CHAPTER_6.replace("turn: {faction: keel}", "turn: {faction: keel, step: end-of-wave}")
    given = ended + "scenario: {chapter: 6}\nearthscapes: [[b1]]\n"
    assert _rules(given, "wave") == []
    assert _rules(ended + "scenario: {chapter: 6}\n", "wave") == ["chapter 6: earthscapes-removed"]
    # a waygate with health keeps its earthscape; a destroyed one is removed with it, which shows too
    waygate = given.replace("1  p  p  p", "1  p  p* p") + "chips:\n  wg: {at: b1, name: Waygate, health: 1}\n"
    assert _rules(waygate, "wave") == []
    assert _rules(waygate.replace("health: 1}", "health: 0}"), "wave") == []
    # not in a step before the wave's end
    assert _rules(CHAPTER_6 + "scenario: {chapter: 6}\n", "movement") == []


def test_a_hero_s_earthscape_removal_is_noticed_only_where_the_answer_cannot_count_it() -> None:
    board = CHAPTER_6.replace("1  p  p  p", "1  p  p  p  p  p").replace(
        "turn: {faction: keel}", "turn: {faction: keel, step: end-of-turn}")
    hero = board + ("scenario: {chapter: 6}\nunits:\n"
                    "  vex: {chip: Vex, faction: uprising, kind: hero, at: b1, health: 5, stats: {health: 5}}\n")
    rule = ["chapter 6: hero-removes-earthscape"]
    # no earthscapes given: any hex may be one (the end of the wave's rule too)
    assert _rules(hero, "end") == ["chapter 6: earthscapes-removed", *rule]
    assert _rules(hero + "earthscapes: [[c1]]\n", "end") == []  # counted by the answer
    # a spire on one the hero may remove leaves with it, removed from the game (hook sdrop/3): counted too
    spire = "spires:\n  tower: {faction: keel, at: SPOT, upgrades: []}\n"
    assert _rules(hero + "earthscapes: [[c1]]\n" + spire.replace("SPOT", "c1"), "end") == []
    moving = hero.replace("step: end-of-turn", "step: movement") + "earthscapes: [[e1]]\n" + spire.replace("SPOT", "e1")
    assert [n.rule for n in notices_in(load_position_text(moving), ("movement", "end-of-turn")) if n.rule] == []


def test_an_event_rule_holds_only_under_its_faces() -> None:
    spared = next(r for r in chapters()[1].rules if r.id == "event-no-rock-rolls")  # results 1-2
    assert spared.in_force(None) and spared.in_force((2,)) and spared.in_force((3, 1))
    assert not spared.in_force((3,))
    rock = next(r for r in chapters()[1].rules if r.id == "floating-rocks-roll")
    assert rock.in_force((3,))  # no event rule: whatever the die says


def test_a_rule_notice_names_its_text_in_json() -> None:
    found = notices(load_position_text(TUNNEL.replace("stack: [skitter]", "stack: [skitter, echri]") + ECHRI
                                       + "scenario: {chapter: 4}\n"), "movement")
    notice = next(n for n in found if n.rule == "chapter 4: griege-tunnel-deployment")
    rule = chapters()[4].rule("griege-tunnel-deployment")
    assert notice.as_json() == {"rule": "chapter 4: griege-tunnel-deployment", "status": "partly modelled",
                                "steps": ["movement"], "text": rule.text, "left_out": notice.left_out}
    assert "griege hero" in notice.left_out


def test_griege_minions_deploy_from_the_tunnel_access() -> None:
    """Chapter 4: "The griege minions always deploy from the tunnel access closest to the naroran fortress gate
    that's possible for them to deploy from": on the griege's turn the loader gives their gate the hexes beside
    it (chapter_rules.deploy_from_tunnels); on another faction's turn, or outside the chapter, the gate's own."""
    position = load_position_text(TUNNEL + "scenario: {chapter: 4}\n")
    gate = position.gates["griege"]
    assert gate.tunnels == ("tunnel",) and set(gate.beside) == {"b1", "c1", "a2", "c2"}
    assert not notices(position, "movement")
    assert load_position_text(TUNNEL).gates["griege"].beside == ("c1",)
    narora = TUNNEL.replace("turn: {faction: griege}", "turn: {faction: narora}")
    assert load_position_text(narora + "scenario: {chapter: 4}\n").gates["griege"].beside == ("c1",)


@pytest.mark.parametrize("change", [
    # an unnamed other chip may be a tunnel access
    lambda text: text.replace("chips:\n", "chips:\n  crate: {at: a2}\n"),
    # five minions may fill the four hexes beside the tunnel before the last deploys
    lambda text: text.replace("stack: [skitter]", "stack: [skitter, s2, s3, s4, s5]") + "".join(
        f"  {u}: {{chip: Skitter, faction: griege, kind: minion, health: 2, stats: {{health: 2, movement: 3}}}}\n"
        for u in ("s2", "s3", "s4", "s5")),
    # the tunnel's one hex not shut holds a griege minion, which may leave it
    lambda text: text.replace("  2   p  f  p", "  2   f  f  f") + (
        "  drift: {chip: Drift, faction: narora, kind: minion, health: 2, at: b1, stats: {health: 2, movement: 2}}\n"
        "  larva: {chip: Larva, faction: griege, kind: minion, health: 2, at: c1, stats: {health: 2, movement: 2}}\n"),
])
def test_a_tunnel_the_step_may_open_or_fill_is_noticed(change) -> None:
    position = load_position_text(change(TUNNEL) + "scenario: {chapter: 4}\n")
    assert position.gates["griege"].tunnels == () and position.gates["griege"].beside == ("c1",)
    assert "chapter 4: griege-tunnel-deployment" in [n.rule for n in notices(position, "movement")]


# Chapter 4: a griege minion waits to deploy while a tunnel access is in play.
TUNNEL = """\
format: cloudspire-position/1
map: |
  1  p  p  p
  2   p  f  p
gates:
  narora: {beside: [a1]}
  griege: {beside: [c1], stack: [skitter]}
factions:
  narora: {controller: player, mark: {gate: griege}}
  griege: {controller: ai, mark: {gate: narora}}
turn: {faction: griege}
chips:
  tunnel: {at: b2, name: Tunnel Access}
units:
  skitter: {chip: Skitter, faction: griege, kind: minion, health: 2, stats: {health: 2, attack: 1, movement: 3}}
"""
ECHRI = "  echri: {chip: Echri, faction: griege, kind: hero, health: 6, stats: {health: 6, attack: 2, movement: 3}}\n"


# --- a chapter's encoding is grounded only when a position names that chapter


def test_chapter_files_come_with_the_scenario_fact_only() -> None:
    assert scenario_files([Function("faction", [String("heirs")])]) == []
    assert scenario_files([Function("scenario", [Number(2)])]) == ["scenarios/chapter_2.lp"]
    assert scenario_files([Function("scenario", [Number(3)])]) == ["scenarios/chapter_3.lp"]
    assert scenario_files([Function("scenario", [Number(4)])]) == ["scenarios/chapter_4.lp"]
    assert scenario_files([Function("scenario", [Number(6)])]) == ["scenarios/chapter_6.lp"]


def test_every_chapter_file_is_the_encoding_of_a_rule_of_its_chapter() -> None:
    named = {r.encoding for c in chapters().values() for r in c.rules if r.encoding}
    for path in sorted((encoding_dir() / "scenarios").glob("chapter_*.lp")):
        assert f"asp/scenarios/{path.name}" in named, path.name


def test_the_wind_shear_spire_gives_shada_minions_flying_in_chapter_1_only() -> None:
    board = CHAPTER_1.replace("map: |\n  1  p  p  p", "map: |\n  1  p  p  p  p") + (
        "spires:\n  shear: {faction: shada, at: d1, chip: Wind Shear}\n"
        "units:\n  wind: {chip: Wind, faction: shada, kind: minion, at: b1, health: 1, stats: {health: 1},"
        " group: [{chip: Mud, stats: {health: 1}}]}\n")
    wind = load_position_text(board + "scenario: {chapter: 1}\n").units["wind"]
    assert wind.talents == ("Flying",) and wind.group[0].talents == ("Flying",)
    assert load_position_text(board.replace("horizons-wrath", "heirs")).units["wind"].talents == ()


def test_a_chip_a_rule_needs_is_matched_by_its_printed_name_as_the_encodings_match_it() -> None:
    # Chapter 4: "if Bydra Graam is adjacent to a rotten worms at the end of a round ..., the rotten
    # worms uses the talent Infest" (not modelled): its notice follows the name the encodings know
    # (uchip/2), and no other.
    assert chip_name("  The   Nucleus ") == chip_name("nucleus") == "nucleus"
    board = """\
format: cloudspire-position/1
map: |
  1  p  p  p
gates:
  griege: {beside: [a1]}
  narora: {beside: [c1]}
factions:
  griege: {controller: ai, mark: {gate: narora}}
  narora: {controller: player, mark: {gate: griege}}
turn: {faction: narora}
scenario: {chapter: 4}
units:
  bydra: {chip: the Bydra Graam, faction: narora, kind: hero, at: b1, health: 10, stats: {health: 10, attack: 2, movement: 1}}
chips:
  worms: {at: c1, name: Rotten Worms}
"""

    def closing_rules(text: str) -> list[str]:
        return [n.rule for n in notices_in(load_position_text(text), ("end-of-turn",), None, False) if n.rule]

    assert "chapter 4: rotten-worms-infest" in closing_rules(board)
    for other in ("Bydra Graam's Ghost", "Keeper"):
        assert "chapter 4: rotten-worms-infest" not in closing_rules(board.replace("the Bydra Graam", other))


# --- chapter 5: Bydra Graam's marks, by what is placed under her

BYDRA = (Path(__file__).resolve().parents[1] / "positions/harbinger/5/scenario-5-bydra-feeds-nucleus.yaml").read_text()


def test_bydra_graam_s_mark_follows_what_is_placed_under_her() -> None:
    position = load_position_text(BYDRA)
    assert position.units["bydra"].carrying == ("Drift",)
    assert position.mark_nodes("narora", "bydra") == ("b2", "b3", "c2", "d3")  # every hex beside Nucleus
    for wrong in ("{beside: {gate: narora}}", "{unit: nucleus}"):
        with pytest.raises(PositionFileError) as raised:
            load_position_text(BYDRA.replace("{beside: {unit: nucleus}}", wrong))
        assert [p.field for p in raised.value.problems] == ["units.bydra.mark"]
        assert "{beside: {unit: nucleus}} while minions are placed under her" in raised.value.problems[0].message
    empty = BYDRA.replace(", carrying: [Drift]", "")
    with pytest.raises(PositionFileError) as raised:
        load_position_text(empty)
    assert "{beside: {gate: narora}} while no minion is placed under her" in raised.value.problems[0].message
    assert load_position_text(empty.replace("{beside: {unit: nucleus}}", "{beside: {gate: narora}}"))


def test_a_mark_beside_names_a_gate_or_a_unit() -> None:
    with pytest.raises(PositionFileError) as raised:
        load_position_text(BYDRA.replace("{beside: {unit: nucleus}}", "{beside: {hex: a2}}"))
    found = {p.field: p.message for p in raised.value.problems}
    assert found["units.bydra.mark.beside.hex"] == "unknown key; expected one of gate, unit"
    # A faction's mark is a gate, a unit or a hex: only a unit's own may be beside something.
    with pytest.raises(PositionFileError) as raised:
        load_position_text(BYDRA.replace("narora: {controller: ai, mark: {gate: shada}}",
                                         "narora: {controller: ai, mark: {beside: {gate: shada}}}"))
    assert "factions.narora.mark.beside" in {p.field for p in raised.value.problems}  # unknown key


def test_chapter_4_s_rotten_worms_are_chips_not_units() -> None:
    # "Rotten worms are inactive": the position holds them as other chips, never as units.
    text = (Path(__file__).resolve().parents[1] / "positions/harbinger/4/scenario-4-rotten-worms-inactive.yaml").read_text()
    assert [c.name for c in load_position_text(text).chips] == ["Rotten Worms"]
    as_unit = text.replace("chips:\n  worms: {at: b1, name: Rotten Worms}\n", "").replace(
        "units:\n", "units:\n  worms: {chip: Rotten Worms, faction: graft, kind: minion, at: b1, health: 1,\n"
        "          stats: {health: 1, attack: 1, movement: 1}}\n")
    with pytest.raises(PositionFileError) as raised:
        load_position_text(as_unit.replace("  griege: {controller: ai", "  graft: {controller: ai, mark: {gate: narora}}\n"
                                           "  griege: {controller: ai"))
    assert [p.field for p in raised.value.problems] == ["units.worms.chip"]


def test_the_keel_s_promotion_bar_is_played_wherever_the_keel_s_promotion_is() -> None:
    # Chapter 3: "Keel minions cannot promote while occupying an isle adjacent to an active Graft
    # spire" is encoded (asp/scenarios/chapter_3.lp) with the keel's promotion; where that is not played
    # (no hex-groups here), the keel's own rule is named, and stands for the bar.
    text = (Path(__file__).resolve().parents[1]
            / "positions/harbinger/3/scenario-3-keel-promotion-beside-graft-spire-noticed.yaml").read_text()
    assert _rules(text, "movement") == ["keel: minion-promotion"]
    assert _rules(text.replace("  anchor: {faction: keel, at: e2}\n", ""), "movement") == []


def test_chapter_4_s_source_vein_alone_gives_health_chips() -> None:
    # "Then, place 3 health chips on the Source vein": the vein gives them; no other chip has any.
    text = (Path(__file__).resolve().parents[1] / "positions/harbinger/4/scenario-4-source-vein-struck.yaml").read_text()
    assert [(c.name, c.health) for c in load_position_text(text).chips] == [("Source Vein", 3)]
    vein = "  vein: {at: a1, name: Source Vein, health: 3}\n"
    for wrong, field in [("  vein: {at: a1, name: Source Vein}\n", "chips.vein.health"),
                         ("  vein: {at: a1, name: Rotten Worms, health: 3}\n", "chips.vein.health"),
                         ("  vein: {at: a1, name: Source Vein, health: 4}\n", "chips.vein.health")]:
        with pytest.raises(PositionFileError) as raised:
            load_position_text(text.replace(vein, wrong))
        assert {p.field for p in raised.value.problems} == {field}
    with pytest.raises(PositionFileError) as raised:  # another chapter's board has no Source vein
        load_position_text(text.replace("scenario: {chapter: 4, wave: 1}", "scenario: {chapter: 3, wave: 1}")
                           .replace("griege: {controller: ai, mark: {gate: narora}}", "graft: {controller: ai, mark: {gate: narora}}")
                           .replace("narora:", "keel:").replace("faction: narora", "faction: keel")
                           .replace("gate: narora", "gate: keel"))
    assert "chips.vein.health" in {p.field for p in raised.value.problems}


def test_bydra_graam_s_return_is_the_position_s_to_state_on_either_turn() -> None:
    # Chapter 4: her return is a hero's; whether she may deploy again this wave, the gate's stack says.
    text = (Path(__file__).resolve().parents[1] / "positions/harbinger/4/scenario-4-mark-griege.yaml").read_text()
    bydra = text.replace("units:\n", "units:\n  bydra: {chip: Bydra Graam, faction: narora, kind: hero, at: f1, health: 6,\n"
                         "          stats: {health: 6, attack: 2, movement: 3}}\n")
    returns = {"chapter 4: bydra-redeploys", "chapter 4: bydra-no-redeploy"}
    assert not returns & set(_rules(bydra, "movement"))  # the griege's turn
    theirs = bydra.replace("turn: {faction: griege", "turn: {faction: narora")
    assert "bydra" in load_position_text(theirs).units and not returns & set(_rules(theirs, "movement"))


def test_the_rotten_worms_infest_bydra_graam_only_while_one_is_on_the_board() -> None:
    text = (Path(__file__).resolve().parents[1] / "positions/harbinger/4/scenario-4-rotten-worms-inactive.yaml").read_text()
    bydra = text.replace("units:\n", "units:\n  bydra: {chip: Bydra Graam, faction: narora, kind: hero, at: a1, health: 6,\n"
                         "          stats: {health: 6, attack: 2, movement: 3}}\n")
    infest = "chapter 4: rotten-worms-infest"
    assert infest in _rules(bydra, "end")
    gone = bydra.replace("chips:\n  worms: {at: b1, name: Rotten Worms}\n", "")
    assert infest not in _rules(gone, "end")


def test_a_rule_acting_as_the_wave_ends_is_noticed_in_a_turn_only_where_a_line_of_play_ends_it() -> None:
    # Chapter 2: "At the end of each wave, Horizon's Wrath performs Strategic Maneuver" (not modelled).
    maneuver = "chapter 2: end-of-wave-maneuver"
    harbinger = Path(__file__).resolve().parents[1] / "positions/harbinger/2"
    ending = whole_turn(load_position_text((harbinger / "scenario-2-no-return.yaml").read_text()))
    assert any(o.end.wave_over for o in ending.outcomes) and maneuver in {n.rule for n in ending.notices}
    going_on = whole_turn(load_position_text((harbinger / "scenario-2-level-up-full-health.yaml").read_text()))
    assert going_on.complete and not any(o.end.wave_over for o in going_on.outcomes)
    assert maneuver not in {n.rule for n in going_on.notices}


def test_grafted_snare_while_moving_is_noticed_only_where_a_graft_unit_may_come_beside_the_heir() -> None:
    # Chapter 2's grafted-snare-all-moving: Stubborn acts in movement, and its encoding does not read the snare
    # (hushed/2); a Graft unit beside the harrier would mute it. The briar on b1 (movement 2) reaches d1 at most,
    # its moves read one hex past (a displaced unit's landing): f1 is within that reach plus 1, j1 is not.
    far = (CHAPTER_2 / "scenario-2-snare-moving-far-flier-definite.yaml").read_text()
    far = far.replace("talents: [Flying]", "talents: [Stubborn]")
    assert "chapter 2: grafted-snare-all-moving" not in _rules(far, "movement")
    near = far.replace("at: j1, health: 3,", "at: f1, health: 3,")
    assert "chapter 2: grafted-snare-all-moving" in _rules(near, "movement")
    # a Graft unit that waits in its gate reaches from there: beside j1, the harrier's hex
    gated = far.replace("  heirs: {beside: [a1], health: 10}",
                        "  heirs: {beside: [a1], health: 10}\n  graft: {beside: [i1], health: 10, stack: [joust]}")
    gated = gated.replace("  harrier:", "  joust: {chip: Grafted Joust, faction: graft, kind: minion, health: 2,\n"
                          "          stats: {health: 2, attack: 1, movement: 2}}\n  harrier:")
    assert "chapter 2: grafted-snare-all-moving" in _rules(gated, "movement")


def test_a_closest_mark_of_ones_own_is_checked_as_the_step_begins() -> None:
    # Chapter 5, "Nucleus: Closest opposing unit", on the harbinger/5 board: Nucleus on a1, its mark the wind
    # on d1 (3 hexes). A gust on c1 (2 hexes) would be the closest; on e1 (4 hexes) it is not; with Nucleus on
    # c1, the wind on d1 and a gust on b1 are both 1 hex away, a tie: either may be its mark.
    text = (Path(__file__).resolve().parents[1] / "positions/harbinger/5/scenario-5-mark-nucleus.yaml").read_text()
    text = text.split("\nexpected:")[0]

    def gust(at: str) -> str:
        return text + f"  gust: {{chip: Wind, faction: shada, kind: minion, at: {at}, health: 2, stats: {{health: 2, movement: 2}}}}\n"
    with pytest.raises(PositionFileError, match="expected mark: {unit: gust}"):
        load_position_text(gust("c1"))
    assert load_position_text(gust("e1")).units["nucleus"].mark.unit == "wind"
    assert load_position_text(gust("b1").replace("at: a1, health: 8", "at: c1, health: 8")).units["nucleus"].mark.unit == "wind"
    # once a unit has moved or been displaced this step, the pick is not checked: it is taken as each unit moves
    moved = gust("c1").replace("at: d1, health: 2,", "at: d1, health: 2, done: {displaced: true},")
    assert load_position_text(moved).units["nucleus"].mark.unit == "wind"


def test_the_rotten_worms_infest_is_noticed_only_where_bydra_graam_may_end_the_turn_beside_one() -> None:
    # Bydra Graam on d1, the worms on b1: at the end of the turn alone she stays apart; a turn that plays the
    # narora's movement may bring her beside them (movement 3); the griege's movement does not move her.
    text = (Path(__file__).resolve().parents[1]
            / "positions/harbinger/4/scenario-4-bydra-apart-from-rotten-worms-nothing.yaml").read_text().split("expected:")[0]
    rule = "chapter 4: rotten-worms-infest"
    assert rule not in [n.rule for n in notices_in(load_position_text(text), ("end-of-turn",))]
    assert rule in [n.rule for n in notices_in(load_position_text(text), ("movement", "end-of-turn"))]
    griege = text.replace("turn: {faction: narora, step: end-of-turn}", "turn: {faction: griege, step: movement}")
    assert rule not in [n.rule for n in notices_in(load_position_text(griege), ("movement", "end-of-turn"))]
    # ... unless others may displace her (Flying), or a talent in play moves units in the combat steps asked
    flying = griege.replace("movement: 3}}", "movement: 3}, talents: [Flying]}")
    assert rule in [n.rule for n in notices_in(load_position_text(flying), ("movement", "end-of-turn"))]
    eager = griege.replace("movement: 2}}", "movement: 2}, talents: [Eager]}")
    assert rule in [n.rule for n in notices_in(load_position_text(eager), ("attack", "end-of-turn"))]
    assert rule not in [n.rule for n in notices_in(load_position_text(eager), ("end-of-turn",))]


def test_the_rotten_worms_infest_is_noticed_only_for_what_the_position_leaves_unsaid() -> None:
    # Encoded (asp/scenarios/chapter_4.lp) where the turn says it ends its round and each worms gives its #:
    # the notice names whichever of the two is missing, and none where the turn does not end the round.
    text = (Path(__file__).resolve().parents[1]
            / "positions/harbinger/4/scenario-4-bydra-beside-rotten-worms-noticed.yaml").read_text().split("expected:")[0]
    rule = "chapter 4: rotten-worms-infest"

    def left(board: str) -> list[str]:
        return sorted(n.left_out for n in notices_in(load_position_text(board), ("end-of-turn",)) if n.rule == rule)

    assert [why.split(",")[0] for why in left(text)] == ["a rotten worms' Infest #", "whether this turn is the last of its round"]
    last = text.replace("step: end-of-turn}", "step: end-of-turn, last-of-round: true}")
    assert [why.split(",")[0] for why in left(last)] == ["a rotten worms' Infest #"]
    assert left(last.replace("name: Rotten Worms}", "name: Rotten Worms, infest: 2}")) == []
    assert left(text.replace("step: end-of-turn}", "step: end-of-turn, last-of-round: false}")) == []


def test_the_plank_is_the_heirs_gates_one_hex_in_chapter_2_and_named_where_not_given() -> None:
    # Chapter 2: "At the end of each wave, Horizon's Wrath performs Strategic Maneuver", pulling the plank; the
    # fortress gate "is adjacent to only the plank hex" (horizons-wrath.txt).
    text = (CHAPTER_2 / "scenario-2-wave-end-plank-pulled.yaml").read_text(encoding="utf-8").split("\nexpected:")[0]
    assert load_position_text(text).gates["heirs"].plank == "a1"
    with pytest.raises(PositionFileError, match="adjacent to only the plank hex"):
        load_position_text(text.replace("{beside: [a1], health: 10, plank: a1}", "{beside: [a1, b1], health: 10, plank: a1}"))
    with pytest.raises(PositionFileError, match="is not a hex on the map"):
        load_position_text(text.replace("plank: a1}", "plank: z9}"))
    with pytest.raises(PositionFileError, match="has a plank hex"):
        load_position_text(text.replace("  graft: {beside: [e1], health: 10}", "  graft: {beside: [e1], health: 10, plank: e1}"))
    # not given: the end of the wave names the rule, as partly modelled
    plank = "chapter 2: end-of-wave-plank"
    assert plank not in _rules(text, "wave")
    assert plank in _rules(text.replace(", plank: a1}", "}"), "wave")


def test_the_fortress_docks_where_the_position_says_and_the_board_after_holds_it_there() -> None:
    # Chapter 2: "reattaching to the next isle clockwise ... The plank is then restored, and they fire 1 cannonball
    # from each of their 4 cannons": where it docks (a cell the map leaves empty until then) and the 4 lines.
    from adjudicator.questions.adjudicate import end_of_wave
    from adjudicator.questions.board_after import apply_end
    text = (CHAPTER_2 / "scenario-2-wave-end-cannons-hit-nothing.yaml").read_text(encoding="utf-8").split("\nexpected:")[0]
    position = load_position_text(text)
    maneuver = position.gates["heirs"].maneuver
    assert maneuver is not None and maneuver.plank == "a3" and maneuver.cannons[0] == ("b3", "c3", "d3")
    after = apply_end(position, end_of_wave(position).outcomes[0].end)
    assert after.gates["heirs"].beside == ("a3",) and after.gates["heirs"].plank == "a3"
    assert "a3" in after.hexes and "a1" not in after.hexes and after.adjacency["a3"] == {"a2", "b3"}
    assert "a1" not in after.adjacency["b1"] and "a3" in after.adjacency["b3"]
    dock = "maneuver: {plank: a3, cannons: [[b3, c3, d3], [b2, c2], [], []]}"
    for wrong, problem in (("maneuver: {plank: b3, cannons: [[b3, c3, d3], [b2, c2], [], []]}", "is a map hex"),
                           ("maneuver: {plank: a3, cannons: [[b3, c3, d3], [b2, c2], []]}", "expected 4 lines"),
                           ("maneuver: {plank: a3, cannons: [[b3, gate:graft, c3], [b2, c2], [], []]}", "comes last"),
                           ("maneuver: {plank: a3, cannons: [[b3, gate:heirs], [b2, c2], [], []]}", "no other faction's"),
                           ("maneuver: {plank: a3, cannons: [[b3, z9], [b2, c2], [], []]}", "not a hex on the map")):
        with pytest.raises(PositionFileError, match=problem):
            load_position_text(text.replace(dock, wrong))
    with pytest.raises(PositionFileError, match="give its plank hex too"):
        load_position_text(text.replace("plank: a1,\n", "\n"))
    with pytest.raises(PositionFileError, match="docks elsewhere as the wave ends"):
        load_position_text(text.replace("scenario: {chapter: 2, wave: 2, event: 4}\n", ""))
    # not given: the end of the wave names the rule, as partly modelled
    named = "chapter 2: end-of-wave-maneuver"
    assert named not in _rules(text, "wave")
    assert named in _rules(text.replace(",\n          " + dock + "}", "}"), "wave")


def test_the_keel_buy_the_top_earthscape_where_the_position_says_it_may_go() -> None:
    # Chapter 3: "After defeating a Graft spire, you may immediately spend 3 Source to purchase the top earthscape
    # ... and you may choose to place it immediately"; the position gives the placements (earthscape-places).
    from adjudicator.questions.board_after import apply_end
    harbinger = Path(__file__).resolve().parents[1] / "positions/harbinger/3"
    text = (harbinger / "scenario-3-graft-spire-defeated-earthscape-bought.yaml").read_text(encoding="utf-8")
    text = text.split("\nexpected:")[0]
    position = load_position_text(text)
    assert position.earthscape_places is not None and [h.name for h in position.earthscape_places[0]] == ["c1", "c2"]
    step = attack_step(position)
    placed = next(e for e in step.outcomes if e.end.earthscape == ("placed:0",))
    after = apply_end(position, placed.end)
    assert after.hexes["c2"].terrain.name == "FOREST" and after.hexes["c1"].terrain.name == "FOREST"
    assert "c2" in after.adjacency["c1"] and after.earthscape_places is None
    # one attack's outcomes do not play the purchase: they name it, as partly modelled
    assert {n.name for o in attack_options(position) for n in o.notices} == {EARTHSCAPE}
    with pytest.raises(PositionFileError, match="only Harbinger chapter 3's keel buy an earthscape"):
        load_position_text(text.replace("scenario: {chapter: 3, wave: 2}", "scenario: {chapter: 2, wave: 2}"))
    with pytest.raises(PositionFileError, match="expected a hex name and its terrain"):
        load_position_text(text.replace("{c1: f, c2: f}", "{c1: x, c2: f}"))

