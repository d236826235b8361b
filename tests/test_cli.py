"""The command line as a user drives it: exit codes, --json shapes, errors without tracebacks."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.position.talents import catalogue
from adjudicator.solving.solve import encoding_dir

ROOT = Path(__file__).resolve().parent.parent
BOARD = """
format: cloudspire-position/1
map: |
  1  p  p  p  p  p
  2   l  l  l  l  l
factions:
  heirs: {controller: player, mark: {hex: e1}}
turn: {faction: heirs, step: movement}
units:
  m: {chip: Harrier, faction: heirs, kind: minion, at: a1, health: 1, stats: {health: 1, movement: 2}}
  h: {chip: Jaelana, faction: heirs, kind: hero, at: b1, health: 5, stats: {health: 5, movement: 2}, terrain: plains}
"""
runner = CliRunner()


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "board.yaml"
    path.write_text(text)
    return str(path)


def test_moves_json_lists_the_forced_displacement(tmp_path: Path) -> None:
    # The path row is the only route; the hero on b1 blocks full movement, so it is displaced
    # (game-elements: Blocking Movement).
    result = runner.invoke(app, ["moves", write(tmp_path, BOARD), "--unit", "m", "--json"])
    assert result.exit_code == 0, result.output
    [unit] = json.loads(result.output)
    assert unit["start_distance"] == 4
    assert [(o["end"], o["path"], o["displaced"]) for o in unit["outcomes"]] == [
        ("c1", ["a1", "b1", "c1"], [{"unit": "h", "from": "b1", "to": "a1"}])
    ]


def test_moves_table_names_the_hexes(tmp_path: Path) -> None:
    result = runner.invoke(app, ["moves", write(tmp_path, BOARD)])
    assert result.exit_code == 0
    assert "a1-b1-c1" in result.output and "h b1→a1" in result.output


def test_turn_reports_exact_count_and_respects_limit(tmp_path: Path) -> None:
    result = runner.invoke(app, ["turn", write(tmp_path, BOARD), "--limit", "1", "--json"])
    data = json.loads(result.output)
    assert data["shown"] == 1 and data["count"] > 1


def test_bad_file_gives_located_errors_not_a_traceback(tmp_path: Path) -> None:
    bad = BOARD.replace("at: a1", "at: z9").replace("health: 5,", "health: -1,")
    result = runner.invoke(app, ["moves", write(tmp_path, bad)])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert re.search(r"board\.yaml:\d+: units\.m\.at: 'z9' is not a hex", result.output)
    assert "units.h.health" in result.output


def test_unknown_reading_is_refused(tmp_path: Path) -> None:
    result = runner.invoke(app, ["moves", write(tmp_path, BOARD), "--reading", "displacement=sometimes"])
    assert result.exit_code == 2 and "displacement" in result.output


def test_facts_are_what_clingo_receives(tmp_path: Path) -> None:
    result = runner.invoke(app, ["facts", write(tmp_path, BOARD)])
    lines = result.output.splitlines()
    assert 'at("m","a1").' in lines and 'query("h").' in lines


def test_faq_lists_every_ruling(tmp_path: Path) -> None:
    # One case is enough to see the report's shape; test_positions runs them all.
    shutil.copy(ROOT / "positions" / "faq" / "faq-14-no-friendly-targets.yaml", tmp_path)
    result = runner.invoke(app, ["faq", "--json", "--root", str(tmp_path)])
    report = json.loads(result.output)
    assert [r["id"] for r in report] == [f"FAQ-{n:02d}" for n in range(1, 31)]
    assert {r["id"]: r["status"] for r in report}["FAQ-14"] == "pass"
    assert {r["status"] for r in report} == {"pass", "uncovered"}


def test_installed_encodings_are_complete() -> None:
    # The wheel carries asp/ as adjudicator/asp; every include must resolve there.
    main = (encoding_dir() / "main.lp").read_text()
    for name in re.findall(r'#include "([^"]+)"', main):
        assert (encoding_dir() / name).is_file(), name
    # ... and every talent file the catalogue grounds on demand.
    for talent in catalogue().talents.values():
        if talent.encoding not in (None, "core"):
            assert (encoding_dir() / "talents" / talent.encoding).is_file(), talent.name


def test_installed_command_runs_outside_the_checkout(tmp_path: Path) -> None:
    # From another folder the installed package is what runs (CI installs it non-editable).
    board = write(tmp_path, BOARD)
    done = subprocess.run(
        [sys.executable, "-m", "adjudicator", "moves", board, "--unit", "m", "--json"],
        cwd=tmp_path, capture_output=True, text=True, check=True,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    )
    assert json.loads(done.stdout)[0]["outcomes"][0]["end"] == "c1"


def test_check_says_illegal_with_the_rule_and_exits_1() -> None:
    path = str(ROOT / "positions" / "rulebook" / "joust-harrier-jaelana-after-joust.yaml")
    result = runner.invoke(app, ["check", path, "--move", "harrier a3-b3-c3", "--json"])
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data["verdict"] == "illegal" and [r["id"] for r in data["reasons"]] == ["short"]
    assert data["reasons"][0]["rule"] == "game-elements: Minion Movement"
    assert data["alternatives"] == ["harrier a3-b3-c3-c4 jaelana>c3"]


def test_bad_move_notation_is_an_error_not_a_traceback() -> None:
    path = str(ROOT / "positions" / "rulebook" / "joust-harrier-jaelana-after-joust.yaml")
    result = runner.invoke(app, ["check", path, "--move", "harrier z9"])
    assert result.exit_code == 2 and "not a hex or gate" in result.output and "Traceback" not in result.output


def test_attacks_step_and_fire_answer_in_json() -> None:
    fight = str(ROOT / "positions" / "rulebook" / "dispatch-battleborn-harrier.yaml")
    attacks = json.loads(runner.invoke(app, ["attacks", fight, "--json"]).output)
    assert {a["unit"] for a in attacks} >= {"battleborn", "dispatch"}
    step = json.loads(runner.invoke(app, ["step", fight, "--json", "--limit", "1"]).output)
    assert step["count"] == 2 and step["shown"] == 1
    fire = json.loads(runner.invoke(app, ["fire", str(ROOT / "positions/rules/spires-fire-one-die.yaml"), "--json"]).output)
    assert sorted(r["probability"] for r in fire["results"]) == ["1/2", "1/3", "1/6"]


def test_fire_reads_a_die_file_and_reports_a_bad_one(tmp_path: Path) -> None:
    die = tmp_path / "die.yaml"
    die.write_text("faces:\n  - {face: hit, damage: 2}\n  - {face: miss, damage: 0}\n")
    fire = str(ROOT / "positions/rules/spires-fire-one-die.yaml")
    data = json.loads(runner.invoke(app, ["fire", fire, "--die", str(die), "--json"]).output)
    assert sorted(r["probability"] for r in data["results"]) == ["1/2", "1/2"]
    die.write_text("faces: [{face: hit}]\n")
    result = runner.invoke(app, ["fire", fire, "--die", str(die)])
    assert result.exit_code == 2 and "damage" in result.output


def test_render_draws_svg_and_png(tmp_path: Path) -> None:
    path = str(ROOT / "positions" / "rulebook" / "joust-harrier-jaelana-after-joust.yaml")
    svg = tmp_path / "board.svg"
    result = runner.invoke(app, ["render", path, "--move", "harrier a3-b3-c3", "-o", str(svg), "--json"])
    assert json.loads(result.output) == {"file": str(svg), "format": "svg", "moves": 1, "attacks": 0, "forbidden": 1}
    assert "harrier" in svg.read_text()
    png = tmp_path / "board.png"
    assert runner.invoke(app, ["render", path, "--unit", "harrier", "-o", str(png), "--format", "png"]).exit_code == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_readings_shows_where_a_reading_changes_the_outcomes() -> None:
    path = str(ROOT / "positions" / "faq" / "faq-15-player-gate-redirect.yaml")
    effects = json.loads(runner.invoke(app, ["readings", path, "--json"]).output)
    changed = {(e["reading"], e["value"], e["question"]) for e in effects}
    assert ("gate-redirect", "unit", "attacks") in changed


def test_validate_checks_the_readings_with_their_line(tmp_path: Path) -> None:
    path = write(tmp_path, BOARD + "readings: {displacement: sometimes}\n")
    for command in ("validate", "moves"):
        result = runner.invoke(app, [command, path])
        assert result.exit_code == 2, (command, result.output)
        assert re.search(r"board\.yaml:12: readings\.displacement: expected a value of reading displacement "
                         r"\(needed, optional\), found 'sometimes'", result.output), result.output


def test_validate_takes_several_files_and_reports_each(tmp_path: Path) -> None:
    good = tmp_path / "good.yaml"
    good.write_text(BOARD)
    bad = tmp_path / "bad.yaml"
    bad.write_text(BOARD.replace("at: a1", "at: z9"))
    result = runner.invoke(app, ["validate", str(good), str(bad), str(good)])
    assert result.exit_code == 2
    assert result.output.count(f"{good}: valid") == 2
    assert re.search(r"bad\.yaml:\d+: units\.m\.at: 'z9' is not a hex", result.output)
    assert runner.invoke(app, ["validate", str(good), str(good)]).exit_code == 0


def test_validate_json_for_one_file_and_for_several(tmp_path: Path) -> None:
    good = tmp_path / "good.yaml"
    good.write_text(BOARD)
    bad = tmp_path / "bad.yaml"
    bad.write_text(BOARD.replace("at: a1", "at: z9"))
    one = runner.invoke(app, ["validate", str(good), "--json"])
    assert one.exit_code == 0 and json.loads(one.output) == {"valid": True, "problems": []}
    several = runner.invoke(app, ["validate", str(good), str(bad), "--json"])
    assert several.exit_code == 1
    [first, second] = json.loads(several.output)
    assert first == {"file": str(good), "valid": True, "problems": []}
    assert second["file"] == str(bad) and second["valid"] is False
    assert [p["field"] for p in second["problems"]] == ["units.m.at"]
