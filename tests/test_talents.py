"""The talent catalogue, talents in positions, and the notices: an answer says which talents it could
not take into account, and a check on such a board is undetermined rather than wrong."""

from __future__ import annotations

import functools
import json
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.position.load import PositionFileError, load_position, load_position_text
from adjudicator.position.model import Controller, Position
from adjudicator.position.talents import BOARD_STEPS, MODELLED, NO_EFFECT, NOT_MODELLED, OUTSIDE, PARTLY, catalogue
from adjudicator.questions.adjudicate import attack_options, faction_options, spires_fire
from adjudicator.questions.coverage import notices
from adjudicator.solving.solve import talent_files

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()

BOARD = """format: cloudspire-position/1
map: |4
        a  b  c  d
    1   p  p  p  p
gates:
  narora: {beside: [d1], health: 10}
  heirs:  {beside: [a1], health: 10}
factions:
  heirs:  {controller: player, mark: {gate: narora}}
  narora: {controller: ai, mark: {gate: heirs}}
turn: {faction: heirs, step: movement}
units:
  harrier: {chip: Harrier, faction: heirs, kind: minion, at: a1, health: 1,
            stats: {health: 1, attack: 1, movement: 2}, talents: TALENTS}
"""


def board(talents: str) -> Position:
    return load_position_text(BOARD.replace("TALENTS", talents))


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "position.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


# --- the catalogue


def test_the_catalogue_lists_every_talent_once_with_a_status_for_each_side() -> None:
    talents = list(catalogue().talents.values())
    assert len(talents) >= 177
    spellings = [s.casefold() for t in talents for s in (t.name, *t.was)]
    assert len(spellings) == len(set(spellings))
    for t in talents:
        assert t.status(ai=False) in (MODELLED, PARTLY, OUTSIDE, NOT_MODELLED), t.name
        assert t.status(ai=True) in (MODELLED, PARTLY, NO_EFFECT, OUTSIDE, NOT_MODELLED), t.name
        assert t.steps, t.name


def test_the_report_counts_add_up() -> None:
    result = runner.invoke(app, ["talents", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["count"] == len(report["talents"]) >= 177
    for side in ("player", "ai"):
        assert sum(report["counts"][side].values()) == report["count"]
        key = f"{side}_status"
        assert report["counts"][side][NOT_MODELLED] == sum(1 for r in report["talents"] if r[key] == NOT_MODELLED)


def test_the_report_filters_by_status() -> None:
    result = runner.invoke(app, ["talents", "--status", PARTLY])
    assert result.exit_code == 0
    partly = min(t.name for t in catalogue().talents.values() if t.status(ai=False) == PARTLY)
    assert partly in result.output and "Armored" not in result.output
    assert runner.invoke(app, ["talents", "--status", "maybe"]).exit_code == 2


def test_every_encoded_talent_names_positions_that_hold_it() -> None:
    for t in catalogue().talents.values():
        if t.encoding in (None, "core"):
            continue
        assert t.positions, f"{t.name} is encoded in {t.encoding} but no position tests it"
        for name in t.positions:
            position = load_position(ROOT / name)
            held = {n for u in position.units.values() for n in (*u.talents, *(n for g in u.group for n in g.talents))}
            held |= {n for s in position.spires for n in s.talents} | {n for c in position.chips for n in c.talents}
            held |= {n for lm in position.landmarks for n in lm.talents}  # Fountain (on_landmarks)
            assert t.name in held, f"{name} does not hold {t.name}"


def test_a_talent_file_is_grounded_only_when_the_position_holds_the_talent() -> None:
    from adjudicator.facts.board import position_facts
    from adjudicator.questions.adjudicate import moves_query

    bare = board("[]")
    assert talent_files(position_facts(bare, moves_query(bare))) == []
    flying = board("[Flying]")
    assert talent_files(position_facts(flying, moves_query(flying))) == ["talents/flying.lp"]


# --- talents in positions


def test_an_old_name_is_read_as_the_current_one() -> None:
    assert board("[Pilotable, stealth]").units["harrier"].talents == ("Innovative", "Run Silent")


def test_a_number_goes_where_the_talent_takes_it() -> None:
    unit = board("[2 Range, Lookout 3]").units["harrier"]
    assert unit.talents == ("Range", "Lookout")
    assert unit.talent_numbers == (("Range", 2), ("Lookout", 3))
    assert unit.stats.range == 2  # "# Range": the chip's range


def test_a_number_reaches_the_solver_for_moving_and_for_combat() -> None:
    from clingo import Function, Number, String

    from adjudicator.facts.board import position_facts
    from adjudicator.facts.combat import chip_facts
    from adjudicator.questions.adjudicate import moves_query

    position = board("[2 Range, Lookout 3]")
    moving = set(position_facts(position, moves_query(position)))
    assert Function("number", [String("harrier"), String("Lookout"), Number(3)]) in moving
    assert Function("number", [String("harrier"), String("Range"), Number(2)]) in moving
    combat = set(chip_facts(position))
    assert Function("lnumber", [String("harrier"), Number(0), String("Lookout"), Number(3)]) in combat


def test_a_misspelt_talent_is_a_located_error_with_a_suggestion(tmp_path: Path) -> None:
    path = write(tmp_path, BOARD.replace("TALENTS", "[Flyng]"))
    with pytest.raises(PositionFileError) as raised:
        load_position(path)
    [problem] = raised.value.problems
    assert (problem.line, problem.field) == (14, "units.harrier.talents[0]")
    assert "did you mean Flying?" in problem.message
    result = runner.invoke(app, ["validate", path])
    assert result.exit_code == 2 and "did you mean Flying?" in result.output


# --- notices


def test_a_movement_talent_not_modelled_is_named_above_the_answer(tmp_path: Path) -> None:
    # A hero: Incorporeal, modelled on a hero's walk too, is not named; Unruly is.
    path = write(tmp_path, BOARD.replace("TALENTS", "[Unruly, Incorporeal]").replace("kind: minion", "kind: hero"))
    text = runner.invoke(app, ["moves", path])
    assert text.exit_code == 3
    assert "NOT TAKEN INTO ACCOUNT" in text.output
    assert "Unruly on harrier: not modelled (movement: the forsaken die's faces: no text here prints them" in text.output
    data = json.loads(runner.invoke(app, ["moves", path, "--json"]).output)
    assert [n["talent"] for n in data[0]["notices"]] == ["Unruly"]


def test_a_check_on_such_a_board_is_undetermined_with_its_own_status(tmp_path: Path) -> None:
    path = write(tmp_path, BOARD.replace("TALENTS", "[Unruly]"))
    result = runner.invoke(app, ["check", path, "--move", "harrier a1-b1", "--json"])
    assert result.exit_code == 3
    verdict = json.loads(result.output)
    assert (verdict["verdict"], verdict["core_verdict"]) == ("undetermined", "illegal")
    assert [n["talent"] for n in verdict["notices"]] == ["Unruly"]
    assert runner.invoke(app, ["explain", path, "--move", "harrier a1-b1-c1"]).exit_code == 3


def test_no_notice_for_a_talent_of_another_step_or_one_modelled() -> None:
    # Infest acts outside the movement step, not modelled; Armored is modelled in the attack step.
    position = board("[Infest 2, Armored]")
    assert notices(position, "movement") == ()
    assert [n.talent for n in notices(position, "attack")] == ["Infest"]
    assert runner.invoke(app, ["moves", "--json", str(ROOT / "positions/rulebook/joust-harrier-jaelana.yaml")]).exit_code == 0


def test_the_damage_talents_need_no_notice_in_the_steps_they_cover() -> None:
    position = board("[Tough, Evasive, Battle Hardened, Hunter, Prepared, Dexterity]")
    assert notices(position, "attack") == () and notices(position, "fire") == ()
    assert catalogue().get("Battle Hardened").status(ai=False) == MODELLED
    # The Quick Strike step is the attack step's encoding with fewer attackers: it covers them too.
    assert notices(position, "quick") == ()
    assert catalogue().get("Tough").status(ai=True) == catalogue().get("Evasive").status(ai=False) == MODELLED


def test_a_part_left_out_of_a_covered_step_keeps_its_own_notice_where_it_can_act() -> None:
    # Bio-Indefinite's encoding covers the attack step, but not a discard by Pacify read as a defeat
    # (reading bio-indefinite-discard `returned`): that part needs Pacify in play, and that reading.
    returned = {"bio-indefinite-discard": "returned"}
    assert notices(replace(board("[Bio-Indefinite]"), readings=returned), "attack") == ()
    assert notices(board("[Bio-Indefinite, Pacify]"), "attack") == ()
    [notice] = notices(replace(board("[Bio-Indefinite, Pacify]"), readings=returned), "attack")
    assert (notice.talent, notice.status, notice.steps) == ("Bio-Indefinite", PARTLY, ("attack",))
    assert "Pacify" in notice.left_out
    # Refresh's teleported unit needs Wallop, which acts in Spires Fire only.
    assert notices(board("[Refresh, Wallop]"), "movement") == ()
    for name in ("Refresh", "Bio-Indefinite"):
        assert catalogue().get(name).status(ai=False) == PARTLY, name


def test_a_part_left_out_names_only_its_own_steps() -> None:
    # Roost Roam's parts left out act as its unit moves onto a roost: not in the attack it also covers.
    roam = catalogue().get("Roost Roam")
    assert roam.unmodelled_steps(ai=False) == ("movement",)
    assert notices(board("[Roost Roam]"), "attack") == ()
    [notice] = notices(board("[Roost Roam]"), "movement")
    assert notice.steps == ("movement",) and "Roost" in notice.left_out


def test_a_part_of_one_sides_wording_counts_on_that_sides_chips_only() -> None:
    # Evoke's player summons from the barracks, which a position may not give; the AI's wording reads them
    # in the combat steps only, so the part is the player's.
    evoke = catalogue().get("Evoke")
    [choice] = [p for p in evoke.left_out if "barracks" in p.text]
    assert choice.sides == ("player",)
    assert choice in evoke.parts_left(ai=False) and choice not in evoke.parts_left(ai=True)
    # A part with no `sides` counts on both.
    assert all(p.sides == ("player", "ai") for p in catalogue().get("Roost").left_out)


def test_a_talent_acting_on_a_defeat_is_named_where_a_chip_falls_as_units_move() -> None:
    # Incinerate is modelled where defeats are played (the attack steps); the movement encodings play
    # none, so a movement answer in which a chip falls names it, and one in which none falls does not.
    position = board("[Incinerate]")
    assert catalogue().get("Incinerate").status(ai=False) == MODELLED
    assert notices(position, "movement") == ()
    [notice] = notices(position, "movement", defeats=True)
    assert (notice.talent, notice.status, notice.steps) == ("Incinerate", PARTLY, ("defeat",))
    assert "as units move" in notice.left_out
    assert notices(position, "attack") == ()


def test_the_audit_has_the_parts_of_every_partly_modelled_talent() -> None:
    audit = (Path(__file__).resolve().parent.parent / "docs" / "talent-audit.md").read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip() for line in audit.splitlines() if line.startswith("| ")}
    partly = {t.name for t in catalogue().talents.values() if PARTLY in (t.status(ai=False), t.status(ai=True))}
    assert partly - rows == set()


def test_a_part_an_answer_counts_itself_is_noticed_only_elsewhere() -> None:
    # Burrow: one unit's moves are made before it burrows; the whole step keeps the part's notice, as the
    # moves made later in it read the unit as standing there (catalogue counted_by).
    position = load_position("positions/talents/burrow/burrow-beside-non-path-after-move.yaml")
    assert all(o.notices == () for o in faction_options(position))
    [notice] = notices(position, "movement")
    assert notice.talent == "Burrow" and "moves made later" in notice.left_out
    assert notices(position, "movement", answer="moves") == ()


def test_relentless_is_modelled_in_every_answer() -> None:
    # Each end of a whole step carries the chance of its rolls, and an AI Riposte weighs the roll
    # before it is made: nothing of Relentless is left out (positions/talents/relentless).
    position = load_position("positions/talents/relentless/relentless-rolled-retaliation.yaml")
    assert notices(position, "attack") == notices(position, "quick") == ()
    assert catalogue().get("Relentless").status(ai=False) == catalogue().get("Relentless").status(ai=True) == MODELLED


def test_the_holding_still_talents_are_not_noticed_even_beside_silencer() -> None:
    # Rooted acts only in movement; Survival's "will not ... attack" and its healing at the end of
    # the turn are encoded, a silenced unit's too (done: silenced, which is not having attacked).
    position = board("[Rooted, Survival]")
    for moment in ("movement", "attack", "end"):
        assert notices(position, moment) == ()
    silencer = BOARD.replace("TALENTS", "[Survival]") + "spires:\n  hush: {faction: narora, at: c1, talents: [Silencer]}\n"
    for moment in ("attack", "end"):
        assert notices(load_position_text(silencer), moment) == ()
    assert catalogue().get("Rooted").status(ai=True) == MODELLED
    assert catalogue().get("Survival").status(ai=True) == catalogue().get("Survival").status(ai=False) == MODELLED


def test_a_move_held_by_an_attack_names_what_the_attack_leaves_out() -> None:
    # The AI's Rooted asks whether its attack would deal damage: a target's unmodelled attack-step
    # talent may change that, so the movement answer names it; the player's Rooted asks nothing.
    position = load_position(ROOT / "positions/talents/rooted/rooted-beside-spire.yaml")
    husk = replace(position.units["husk"], talents=("Infest",), talent_numbers=(("Infest", 2),))
    position = replace(position, units={**position.units, "husk": husk})
    assert [n.talent for n in notices(position, "movement", ai=True)] == ["Infest"]
    assert notices(position, "movement", ai=False) == ()


def test_a_talent_off_the_board_never_needs_a_notice() -> None:
    outside = [t.name for t in catalogue().talents.values() if t.outside]
    assert outside
    for name in outside:
        assert not set(catalogue().get(name).steps) & set(BOARD_STEPS), name
    position = board("[" + ", ".join(outside) + "]")
    assert all(notices(position, q) == () for q in ("movement", "attack", "fire"))


# --- talents that do not trigger for the AI (harbinger-rulebook, AI Talents)

NO_EFFECT_TALENTS = sorted(t.name for t in catalogue().talents.values() if t.ai_no_effect != "none")
AI_BOARDS = {
    "movement": "positions/faq/faq-30-fallback-less-movement.yaml",
    "attack": "positions/rules/ai-priority-gate-first.yaml",
    "fire": "positions/talents/air-defense/spires-fire-air-defense.yaml",
}


def _give(position: Position, talent: str, on: str) -> Position:
    """``talent`` added to every AI unit (on = units, or equipment: a hero's, given to every unit all the
    same) or AI spire (on = spires); a numbered talent 1."""
    t = catalogue().get(talent)
    ai = {f for f, faction in position.factions.items() if faction.controller is Controller.AI}
    numbers = ((talent, 1),) if t.numbered else ()
    units = {
        uid: replace(u, talents=(*u.talents, talent), talent_numbers=(*u.talent_numbers, *numbers))
        if on in ("units", "equipment") and u.faction in ai else u
        for uid, u in position.units.items()
    }
    spires = tuple(
        replace(s, talents=(*s.talents, talent), talent_numbers=(*s.talent_numbers, *numbers))
        if on == "spires" and s.faction in ai else s
        for s in position.spires
    )
    return replace(position, units=units, spires=spires)


def _answers(position: Position, question: str) -> object:
    """The AI's answer to the question, without its notices."""
    if question == "movement":
        found = [o.as_json() for o in faction_options(position, ai=True)]
    elif question == "attack":
        found = [o.as_json() for o in attack_options(position, ai=True)]
    else:
        found = [spires_fire(position).as_json()]
    for entry in found:
        entry.pop("notices")
    return found


@functools.cache
def _base_answers(question: str) -> object:
    """The AI's answer on the board of ``question`` as the file gives it: the same for every talent."""
    return _answers(load_position(ROOT / AI_BOARDS[question]), question)


@pytest.mark.parametrize("talent", NO_EFFECT_TALENTS)
def test_a_talent_that_does_not_trigger_for_ai_chips_changes_nothing_for_them(talent: str) -> None:
    on = catalogue().get(talent).ai_no_effect
    for question, name in AI_BOARDS.items():
        given = _give(load_position(ROOT / name), talent, on)
        assert _answers(given, question) == _base_answers(question), (talent, question)
        assert talent not in {n.talent for n in notices(given, question)}, (talent, question)


def test_every_talent_folder_of_positions_belongs_to_a_talent() -> None:
    folders = {t.folder for t in catalogue().talents.values()}
    for folder in sorted((ROOT / "positions" / "talents").iterdir()):
        assert f"talents/{folder.name}" in folders, f"positions/talents/{folder.name} names no talent"


def test_unruly_s_notice_says_what_no_text_gives() -> None:
    # No text here prints the forsaken die's faces (catalogue `cannot`): the notice says so, not just
    # "not modelled".
    position = load_position("positions/rules/notice-unmodelled-unruly.yaml")
    [notice] = [n for n in notices(position, "movement") if n.talent == "Unruly"]
    assert notice.status == NOT_MODELLED and notice.left_out == catalogue().get("Unruly").cannot
    assert "forsaken die's faces" in notice.left_out


def test_a_harmed_part_counts_only_where_a_unit_with_it_may_be_left_at_one_as_units_move() -> None:
    # Entropy's "reduced to exactly 1" as units move (catalogue `harmed`): named where the answer's outcomes
    # may leave the unit holding it at exactly 1 health, or where they are not known (ones None); not where
    # none does.
    position = load_position("positions/talents/entropy/entropy-unhurt-as-units-move-nothing.yaml")
    named = {n.talent for n in notices(position, "movement", ones=frozenset())}
    assert "Entropy" not in named
    assert "Entropy" in {n.talent for n in notices(position, "movement", ones=frozenset({"harrier"}))}
    assert "Entropy" in {n.talent for n in notices(position, "movement")}
    assert "Entropy" not in {n.talent for n in notices(position, "movement", ones=frozenset({"geckweb"}))}
