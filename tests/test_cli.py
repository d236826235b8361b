"""The command line as a user drives it: exit codes, --json shapes, errors without tracebacks."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.solve import encoding_dir

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


def test_faq_lists_every_ruling(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(ROOT)
    result = runner.invoke(app, ["faq", "--json"])
    report = json.loads(result.output)
    assert [r["id"] for r in report] == [f"FAQ-{n:02d}" for n in range(1, 31)]
    assert {r["status"] for r in report} <= {"pass", "fail", "uncovered"}


def test_installed_encodings_are_complete() -> None:
    # The wheel carries asp/ as adjudicator/asp; every include must resolve there.
    main = (encoding_dir() / "main.lp").read_text()
    for name in re.findall(r'#include "([^"]+)"', main):
        assert (encoding_dir() / name).is_file(), name


def test_installed_command_runs_outside_the_checkout(tmp_path: Path) -> None:
    # From another folder the installed package is what runs (CI installs it non-editable).
    board = write(tmp_path, BOARD)
    done = subprocess.run(
        [sys.executable, "-m", "adjudicator", "moves", board, "--unit", "m", "--json"],
        cwd=tmp_path, capture_output=True, text=True, check=True,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    )
    assert json.loads(done.stdout)[0]["outcomes"][0]["end"] == "c1"
