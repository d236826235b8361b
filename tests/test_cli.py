"""The command line as a user drives it: exit codes, --json shapes, errors without tracebacks."""

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
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
    result = runner.invoke(app, ["movement-step", write(tmp_path, BOARD), "--limit", "1", "--json"])
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
    assert {r["status"] for r in report} == {"pass", "uncovered", "outside the board"}
    # A market or build phase ruling says why it is no board question, rather than "uncovered".
    outside = {r["id"]: r["why"] for r in report if r["status"] == "outside the board"}
    assert set(outside) == {"FAQ-06", "FAQ-12"} and all(outside.values())


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


def test_moves_json_marks_where_a_teleport_lands() -> None:
    # Riftwalk: onto the rift chip e5, landing on the other rift f1 (docs/output-format.md, moves).
    path = str(ROOT / "positions" / "talents" / "riftwalk" / "riftwalk-hero.yaml")
    result = runner.invoke(app, ["moves", path, "--json"])
    outcomes = {o["end"]: o for unit in json.loads(result.output) for o in unit["outcomes"]}
    assert (outcomes["f2"]["path"], outcomes["f2"]["landed"]) == (["d4", "e5", "f1", "f2"], [2])
    assert "landed" not in outcomes["f4"]
    assert "d4-e5~f1-f2" in runner.invoke(app, ["moves", path]).output


def test_attacks_step_and_fire_answer_in_json() -> None:
    fight = str(ROOT / "positions" / "rulebook" / "dispatch-battleborn-harrier.yaml")
    attacks = json.loads(runner.invoke(app, ["attacks", fight, "--json"]).output)
    assert {a["unit"] for a in attacks} >= {"battleborn", "dispatch"}
    step = json.loads(runner.invoke(app, ["attack-step", fight, "--json", "--limit", "1"]).output)
    assert step["count"] == 2 and step["shown"] == 1
    fire = json.loads(runner.invoke(app, ["spires-fire", str(ROOT / "positions/rules/spires-fire-one-die.yaml"), "--json"]).output)
    assert sorted(r["probability"] for r in fire["results"]) == ["1/2", "1/3", "1/6"]


def test_fire_reads_a_die_file_and_reports_a_bad_one(tmp_path: Path) -> None:
    die = tmp_path / "die.yaml"
    die.write_text("faces:\n  - {face: hit, damage: 2}\n  - {face: miss, damage: 0}\n")
    fire = str(ROOT / "positions/rules/spires-fire-one-die.yaml")
    data = json.loads(runner.invoke(app, ["spires-fire", fire, "--die", str(die), "--json"]).output)
    assert sorted(r["probability"] for r in data["results"]) == ["1/2", "1/2"]
    die.write_text("faces: [{face: hit}]\n")
    result = runner.invoke(app, ["spires-fire", fire, "--die", str(die)])
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
    effects = json.loads(runner.invoke(app, ["readings", path, "--only", "gate-redirect", "--json"]).output)
    changed = {(e["reading"], e["value"], e["question"]) for e in effects}
    assert ("gate-redirect", "unit", "attacks") in changed
    assert {e["reading"] for e in effects} == {"gate-redirect"}
    refused = runner.invoke(app, ["readings", path, "--only", "nope"])
    assert refused.exit_code == 2 and "unknown reading nope" in refused.output


def test_readings_compares_where_moves_lead_not_the_route_shown() -> None:
    # By stop-counts=full the harrier may also stop on a2, and b2 gains a shorter route, which
    # changes the route shown for b2 but not the outcome: only a2 is an effect.
    path = str(ROOT / "positions" / "talents" / "mire" / "mire-stop-counts-walked.yaml")
    effects = json.loads(runner.invoke(app, ["readings", path, "--only", "stop-counts", "--json"]).output)
    assert [(e["reading"], e["question"], e["gained"], e["lost"]) for e in effects] == [
        ("stop-counts", "moves", ["harrier a2"], [])]


def test_the_ai_shada_reading_on_a_board_without_shada_changes_nothing() -> None:
    # ai-shada-promotion set on a board with no shada faction: no shada rule has anything to do (it once
    # stopped every question with an internal error, exit 70).
    path = str(ROOT / "positions" / "rulebook" / "joust-harrier-jaelana.yaml")
    result = runner.invoke(app, ["readings", path, "--only", "ai-shada-promotion", "--json"])
    assert result.exit_code == 0 and json.loads(result.output) == []


# ---------------------------------------------------------------------- exit statuses and errors

DISPUTE = str(ROOT / "positions" / "rulebook" / "joust-harrier-jaelana-after-joust.yaml")


def test_explain_exits_1_when_the_claim_is_illegal_as_check_does() -> None:
    assert runner.invoke(app, ["explain", DISPUTE, "--move", "harrier a3-b3-c3"]).exit_code == 1
    assert runner.invoke(app, ["explain", DISPUTE, "--move", "harrier a3-b3-c3-c4 jaelana>c3"]).exit_code == 0


def test_validate_exits_2_on_a_bad_file_with_or_without_json(tmp_path: Path) -> None:
    bad = write(tmp_path, BOARD.replace("at: a1", "at: z9"))
    assert runner.invoke(app, ["validate", bad]).exit_code == 2
    result = runner.invoke(app, ["validate", bad, "--json"])
    assert result.exit_code == 2
    assert json.loads(result.stdout)["valid"] is False


def test_under_json_every_error_is_json_on_stdout(tmp_path: Path) -> None:
    text = BOARD.replace("at: a1", "at: z9")
    result = runner.invoke(app, ["moves", write(tmp_path, text), "--json"])
    assert result.exit_code == 2
    error = json.loads(result.stdout)["error"]
    assert error["kind"] == "position-file"
    [problem] = error["problems"]
    line = 1 + next(i for i, t in enumerate(text.splitlines()) if "z9" in t)
    assert (problem["field"], problem["line"]) == ("units.m.at", line) and problem["file"].endswith("board.yaml")
    good = write(tmp_path, BOARD)
    for args, kind in [
        (["check", good, "--move", "m z9"], "notation"),
        (["moves", good, "--unit", "nobody"], "unit"),
        (["movement-step", good, "--limit", "many"], "usage"),
        (["moves", good, "--reading", "displacement=sometimes"], "usage"),
        (["nonsense", good], "usage"),
    ]:
        result = runner.invoke(app, [*args, "--json"])
        assert result.exit_code == 2, args
        error = json.loads(result.stdout)["error"]
        assert error["kind"] == kind and error["message"] and error["problems"] == [], args


def test_a_bug_exits_70_with_one_line_and_no_traceback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise KeyError("the decoder lost a unit")

    monkeypatch.setattr("adjudicator.questions.adjudicate.faction_options", broken)
    monkeypatch.delenv("CLOUDSPIRE_DEBUG", raising=False)
    result = runner.invoke(app, ["moves", write(tmp_path, BOARD)])
    assert result.exit_code == 70
    assert "Traceback" not in result.output
    [line] = result.stderr.splitlines()
    assert "bug" in line and "report" in line and "the decoder lost a unit" in line
    result = runner.invoke(app, ["moves", write(tmp_path, BOARD), "--json"])
    assert result.exit_code == 70 and json.loads(result.stdout)["error"]["kind"] == "internal"


# ------------------------------------------------------------------- render, limits, long routes


def test_render_never_overwrites_the_position_file(tmp_path: Path) -> None:
    position = tmp_path / "position.yaml"
    shutil.copy(DISPUTE, position)
    before = position.read_bytes()
    for output in (position, tmp_path / "." / "position.yaml"):
        result = runner.invoke(app, ["render", str(position), "-o", str(output)])
        assert result.exit_code == 2 and "position file" in result.stderr
    result = runner.invoke(app, ["render", str(position), "--move", "harrier c4", "-o", str(position), "--json"])
    assert result.exit_code == 2 and json.loads(result.stdout)["error"]["kind"] == "output"
    assert position.read_bytes() == before
    notes = tmp_path / "notes.txt"
    notes.write_text("keep me")
    result = runner.invoke(app, ["render", str(position), "-o", str(notes)])
    assert result.exit_code == 2 and notes.read_text() == "keep me"
    picture = tmp_path / "old.svg"
    picture.write_text("<svg/>")
    assert runner.invoke(app, ["render", str(position), "-o", str(picture)]).exit_code == 0
    assert "harrier" in picture.read_text()


def test_limit_is_bounded_and_all_lists_everything(tmp_path: Path) -> None:
    board = write(tmp_path, BOARD)
    result = runner.invoke(app, ["movement-step", board, "--limit", "-1"])
    assert result.exit_code == 2 and "--limit" in result.output
    result = runner.invoke(app, ["movement-step", board, "--limit", "-1", "--json"])
    assert result.exit_code == 2 and json.loads(result.stdout)["error"]["kind"] == "usage"
    every = json.loads(runner.invoke(app, ["movement-step", board, "--all", "--json"]).stdout)
    assert every["shown"] == every["count"] > 1
    none = json.loads(runner.invoke(app, ["movement-step", board, "--limit", "0", "--json"]).stdout)
    assert none["shown"] == 0 and none["count"] == every["count"]
    assert runner.invoke(app, ["movement-step", board, "--all", "--limit", "3"]).exit_code == 2
    fight = str(ROOT / "positions" / "rulebook" / "dispatch-battleborn-harrier.yaml")
    step = json.loads(runner.invoke(app, ["attack-step", fight, "--all", "--json"]).stdout)
    assert step["shown"] == step["count"] == 2
    assert runner.invoke(app, ["spires-fire", fight, "--limit", "-2"]).exit_code == 2


def test_a_route_longer_than_any_move_is_judged_at_once() -> None:
    route = "-".join(["a3", "b3"] * 2000)
    started = time.monotonic()
    result = runner.invoke(app, ["check", DISPUTE, "--move", f"harrier {route}", "--json"])
    assert time.monotonic() - started < 10  # it took minutes
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["verdict"] == "illegal"
    assert ["3999", "4"] in [r["args"] for r in data["reasons"] if r["id"] == "too_far"]
    assert runner.invoke(app, ["explain", DISPUTE, "--move", f"harrier {route}"]).exit_code == 1



# ------------------------------------------------------------------------------------ timeouts

# Eight minions with room to move: tens of thousands of orders (over a minute to list).
OPEN = "format: cloudspire-position/1\nmap: |\n" + "".join(
    f"  {row}  {' ' if row % 2 == 0 else ''}{'  '.join('p' * 12)}\n" for row in range(1, 9)
) + """gates:
  heirs: {beside: [a4, a5]}
  narora: {beside: [l4, l5]}
factions:
  heirs: {controller: player, mark: {gate: narora}}
  narora: {controller: ai, mark: {gate: heirs}}
turn: {faction: heirs, step: movement}
units:
""" + "".join(
    f"  m{i}: {{chip: Harrier, faction: heirs, kind: minion, at: {at}, health: 1, stats: {{health: 1, movement: 4}}}}\n"
    for i, at in enumerate(["b2", "c4", "d6", "b7", "e3", "f5", "c8", "g2"])
)

# Eight attackers beside four defenders: hundreds of end states, found slowly (minutes).
FIGHT = "format: cloudspire-position/1\nmap: |\n  1  p  p  p  p\n  2   p  p  p  p\n  3  p  p  p  p\n" + """factions:
  heirs: {controller: player, mark: {hex: d1}}
  narora: {controller: player, mark: {hex: a1}}
turn: {faction: heirs, step: attack}
units:
""" + "".join(
    f"  {side}{i}: {{chip: {chip}, faction: {faction}, kind: minion, at: {column}{row}, health: 3,"
    " stats: {health: 3, attack: 1, movement: 2}}\n"
    for i, column in enumerate("abcd")
    for side, chip, faction, row in (
        ("h", "Harrier", "heirs", 1), ("n", "Drift", "narora", 2), ("k", "Harrier", "heirs", 3)
    )
)


def test_turn_stops_at_the_timeout_with_what_it_found(tmp_path: Path) -> None:
    board = write(tmp_path, OPEN)
    started = time.monotonic()
    result = runner.invoke(app, ["movement-step", board, "--timeout", "3", "--limit", "1", "--progress"])
    assert time.monotonic() - started < 20
    assert result.exit_code == 4
    assert result.stdout.startswith("timed out after 3 s: the answer below is incomplete\n")
    assert "heirs: at least " in result.stdout
    # The last report says what was found, even where grounding on a loaded machine outlasted every second.
    last = result.stderr.splitlines()[-1]
    assert " final boards so far, " in last and last.endswith(": stopped at the time limit")
    result = runner.invoke(app, ["movement-step", board, "--timeout", "1", "--json"])
    assert result.exit_code == 4 and result.stderr == ""  # progress only when asked or on a terminal
    data = json.loads(result.stdout)
    assert data["complete"] is False and data["count"] >= data["shown"]


def test_step_stops_at_the_timeout_with_the_end_states_found(tmp_path: Path) -> None:
    started = time.monotonic()
    result = runner.invoke(app, ["attack-step", write(tmp_path, FIGHT), "--timeout", "1", "--json"])
    assert time.monotonic() - started < 20
    assert result.exit_code == 4
    data = json.loads(result.stdout)
    assert data["complete"] is False and data["shown"] == min(data["count"], 20)


def test_a_complete_answer_says_so(tmp_path: Path) -> None:
    data = json.loads(runner.invoke(app, ["movement-step", write(tmp_path, BOARD), "--timeout", "60", "--json"]).stdout)
    assert data["complete"] is True


@pytest.mark.parametrize(
    ("args", "partial"),
    [
        (["moves", "{board}"], False),
        (["movement-step", "{board}"], True),
        (["attacks", "{fight}"], False),
        (["attack-step", "{fight}"], True),
        (["spires-fire", "{fire}"], True),
        (["turn", "{fire}"], True),
        (["start-of-turn", "{fire}"], True),
        (["end-of-turn", "{fire}"], True),
        (["check", "{board}", "--move", "m c1"], False),
        (["explain", "{board}", "--move", "m c1"], False),
        (["readings", "{board}"], False),
        (["render", "{board}", "--unit", "m", "-o", "{tmp}/out.svg"], False),
    ],
)
def test_every_solving_command_honours_the_timeout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], partial: bool
) -> None:
    monkeypatch.setattr("adjudicator.solving.solve.Deadline.remaining", lambda self: 0.0)
    names = {
        "board": write(tmp_path, BOARD), "fight": str(ROOT / "positions/rulebook/dispatch-battleborn-harrier.yaml"),
        "fire": str(ROOT / "positions/rules/spires-fire-one-die.yaml"), "tmp": str(tmp_path),
    }
    result = runner.invoke(app, [*(a.format(**names) for a in args), "--timeout", "5", "--json"])
    assert result.exit_code == 4, result.output
    data = json.loads(result.stdout)
    if partial:
        assert data["complete"] is False
    else:
        assert data["error"]["kind"] == "timeout" and "5 s" in data["error"]["message"]
    assert not (tmp_path / "out.svg").exists()


def test_faq_marks_the_cases_the_timeout_left_unchecked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copy(ROOT / "positions" / "faq" / "faq-14-no-friendly-targets.yaml", tmp_path)
    monkeypatch.setattr("adjudicator.solving.solve.Deadline.remaining", lambda self: 0.0)
    result = runner.invoke(app, ["faq", "--root", str(tmp_path), "--timeout", "5", "--json"])
    assert result.exit_code == 4
    report = {r["id"]: r for r in json.loads(result.stdout)}
    assert report["FAQ-14"]["status"] == "incomplete" and report["FAQ-14"]["cases"][0]["complete"] is False


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")  # the stop's thread ends so
def test_faq_stopped_in_a_grounding_still_reports_the_cases_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hard stop past the deadline (a grounding clingo cannot interrupt) prints the report so far,
    not "before any answer": here a case that outlasts the deadline and its margin."""
    import threading

    from adjudicator import cli
    from adjudicator.questions import faq
    from adjudicator.solving.solve import TimedOut

    shutil.copy(ROOT / "positions" / "faq" / "faq-14-no-friendly-targets.yaml", tmp_path)
    stopped = threading.Event()
    statuses: list[int] = []

    def grounding(*args: object) -> None:
        assert stopped.wait(10), "the hard stop did not come"  # busy until it has spoken
        raise TimedOut(0.2)  # in a real run the process has ended by now

    def exit_(status: int) -> None:
        statuses.append(status)
        stopped.set()
        raise SystemExit(status)  # ends the watchdog's thread, as os._exit would the process

    monkeypatch.setattr(cli, "_own_program", lambda: True)
    monkeypatch.setattr(cli, "_STARTED", __import__("time").monotonic())
    monkeypatch.setattr(cli.os, "_exit", exit_)
    monkeypatch.setattr(faq, "check_document", grounding)
    result = runner.invoke(app, ["faq", "--root", str(tmp_path), "--timeout", "0.2", "--json"])
    for thread in threading.enumerate():  # the stop's thread ends here, not in a later test's time
        if isinstance(thread, threading.Timer):
            thread.join(10)
    assert statuses == [4]
    first, _ = json.JSONDecoder().raw_decode(result.stdout)  # what the hard stop printed
    report = {r["id"]: r for r in first}
    assert report["FAQ-14"]["status"] == "incomplete" and report["FAQ-14"]["cases"][0]["complete"] is False


def test_timeout_must_be_a_positive_bounded_number(tmp_path: Path) -> None:
    board = write(tmp_path, BOARD)
    for value in ("0", "-3", "nan", "inf", "1e9", "soon"):
        assert runner.invoke(app, ["movement-step", board, "--timeout", value]).exit_code == 2, value
    assert runner.invoke(app, ["movement-step", board, "--timeout", "0.5e2"]).exit_code == 0


# ------------------------------------------------------------------------------------- smaller


def test_version_comes_from_the_package_metadata() -> None:
    from importlib.metadata import version

    as_json = runner.invoke(app, ["--version", "--json"])
    assert as_json.exit_code == 0 and json.loads(as_json.stdout) == {"version": version("cloudspire-adjudicator")}

    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout.strip() == f"cloudspire {version('cloudspire-adjudicator')}"


def test_the_ai_step_is_worded_once(tmp_path: Path) -> None:
    text = runner.invoke(app, ["movement-step", write(tmp_path, BOARD), "--ai"]).stdout
    assert "of the AI's obligatory movement step" in text and "the the" not in text


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
    assert several.exit_code == 2
    [first, second] = json.loads(several.output)
    assert first == {"file": str(good), "valid": True, "problems": []}
    assert second["file"] == str(bad) and second["valid"] is False
    assert [p["field"] for p in second["problems"]] == ["units.m.at"]
