"""The web page's JSON API, without a browser: its answers are the question functions' own, and bad or
hostile input gets a located JSON error, never a traceback, within the size and time bounds."""

from __future__ import annotations

import json
import re
import socket
import time
import urllib.request
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from adjudicator.answers.notation import parse
from adjudicator.position.claims import MoveClaim
from adjudicator.position.load import load_position, load_position_text
from adjudicator.questions import adjudicate, dispute, whole_step, whole_turn
from adjudicator.show import render_text
from adjudicator.web.api import Limits, to_yaml
from adjudicator.web.lan import lan_address, qr_terminal
from adjudicator.web.server import Handler
from tests.web_server import running, send

ROOT = Path(__file__).resolve().parent.parent
JOUST = ROOT / "positions/rulebook/joust-harrier-jaelana.yaml"
AFTER = ROOT / "positions/rulebook/joust-harrier-jaelana-after-joust.yaml"


@pytest.fixture(scope="module")
def server():
    with running() as board:
        yield board


def _yaml(path: Path) -> dict:
    return {"position": {"yaml": path.read_text(encoding="utf-8")}}


def _poll(server, job: dict) -> dict:
    while job["state"] == "running":
        time.sleep(0.1)
        _, job = send(server, f"/api/jobs/{job['job']}")
    return job


def test_the_page_and_its_files_are_served(server):
    for path in ("/", "/board.js", "/style.css"):
        with urllib.request.urlopen(server.url.rstrip("/") + path) as response:
            assert response.status == 200 and response.read()


def test_catalogue_offers_the_formats_choices(server):
    status, data = send(server, "/api/catalogue")
    assert status == 200
    assert data["steps"] == ["start-of-turn", "quick-strike", "spires-fire", "movement", "exploration", "attack", "end-of-turn",
                            "end-of-wave"]
    assert any(t["name"] == "Flying" for t in data["talents"])
    assert {r["name"] for r in data["readings"]} >= {"displacement"}


def test_a_valid_file_round_trips_in_meaning(server):
    status, data = send(server, "/api/position", _yaml(JOUST))
    assert status == 200 and data["valid"] and "<svg" in data["svg"]
    # The content the page edits, sent back, is saved as a file the loader reads as the same position.
    status, again = send(server, "/api/position", {"position": {"document": data["document"]}})
    assert again["valid"]
    assert load_position_text(again["yaml"]) == load_position(JOUST)


@pytest.mark.parametrize("step", ["start-of-turn", "quick-strike", "spires-fire", "movement", "exploration",
                                  "attack", "end-of-turn"])
def test_a_position_at_any_step_is_drawn_with_what_that_step_leaves_out(server, step):
    # Spawn, a start-of-turn talent, reads whether this is its faction's first turn of the Onslaught Phase,
    # which this position does not say: only a position standing at the start of the turn names it (it once
    # failed at every step but three).
    document = yaml.safe_load(JOUST.read_text(encoding="utf-8"))
    document["turn"]["step"] = step
    document["units"]["joust"]["talents"] = ["Spawn"]
    status, data = send(server, "/api/position", {"position": {"document": document}})
    assert status == 200 and data["valid"] and "<svg" in data["svg"]
    assert ("Spawn" in data["notices"]) == (step == "start-of-turn")


def test_an_invalid_position_gets_the_loaders_located_problems(server):
    document = yaml.safe_load(JOUST.read_text(encoding="utf-8"))
    document["units"]["joust"]["at"] = "z9"
    status, data = send(server, "/api/position", {"position": {"document": document}})
    assert status == 200 and not data["valid"]
    [problem] = data["problems"]
    assert problem["field"] == "units.joust.at" and problem["line"]
    assert problem["file"] == "position.yaml"


def test_options_are_those_of_unit_options_and_explain(server):
    status, data = send(server, "/api/options", {**_yaml(AFTER), "unit": "harrier"})
    assert status == 200
    position = load_position(AFTER)
    assert data["legal"] == adjudicate.unit_options(position, "harrier").as_json()
    assert data["ai"] == adjudicate.unit_options(position, "harrier", True).as_json()
    assert data["explanation"] == dispute.explain(position, MoveClaim("harrier", "a3")).as_json()
    assert 'class="destination"' in data["svg"]


def test_a_units_options_carry_the_dice_it_rolls_with_their_odds(server):
    rocks = ROOT / "positions/harbinger/1/scenario-1-rock-rolls-minion.yaml"
    status, data = send(server, "/api/options", {**_yaml(rocks), "unit": "deckhand"})
    assert status == 200
    [outcome] = data["legal"]["outcomes"]
    assert outcome["rolls"] == 2
    assert outcome["odds"] == [{"lost": 0, "probability": "25/36"}, {"lost": 1, "probability": "5/18"},
                               {"lost": 2, "probability": "1/36"}]


def test_a_claim_gets_the_check_verdict(server):
    position = load_position(AFTER)
    for body in ({"move": "harrier a3-b3-c3"}, {"unit": "harrier", "to": "c3"}):
        status, data = send(server, "/api/check", {**_yaml(AFTER), **body})
        assert status == 200
        claim = parse(body.get("move", "harrier c3"), position)
        expected = dispute.check(position, claim)
        assert data["explanation"]["verdict"] == expected.judgement.verdict == "illegal"
        assert data["explanation"]["reasons"] == [r.as_json() for r in expected.judgement.reasons]


def test_a_reading_switched_by_the_call_is_in_force(server):
    status, data = send(server, "/api/options", {**_yaml(JOUST), "unit": "joust",
                                                 "readings": {"displacement": "optional"}})
    assert status == 200
    position = replace(load_position(JOUST), readings={"displacement": "optional"})
    assert data["legal"] == adjudicate.unit_options(position, "joust").as_json()
    status, data = send(server, "/api/options", {**_yaml(JOUST), "unit": "joust", "readings": {"displacement": "x"}})
    assert status == 400 and data["error"]["kind"] == "readings"


def test_the_movement_step_is_a_job_with_the_movement_step_answer(server):
    status, job = send(server, "/api/jobs", {**_yaml(AFTER), "question": "movement-step"})
    assert status == 202
    job = _poll(server, job)
    assert job["state"] == "done"
    result = whole_step.movement_step(load_position(AFTER), None, 20)
    assert job["answer"] == {**result.as_json(), "lines": [render_text.step_outcome(o) for o in result.outcomes]}


def test_the_whole_turn_is_a_job_with_the_turn_answer(server):
    fire = ROOT / "positions/turn/turn-from-spires-fire.yaml"
    status, job = send(server, "/api/jobs", {**_yaml(fire), "question": "turn"})
    assert status == 202
    job = _poll(server, job)
    assert job["state"] == "done"
    result = whole_turn.whole_turn(load_position(fire), None, 20)
    assert job["answer"] == {**result.as_json(), "lines": [render_text.turn_outcome(o) for o in result.outcomes]}
    assert job["answer"]["count"] == 3


@pytest.mark.parametrize("raw, kind", [
    (b"{not json", "request"),
    (b"[1, 2]", "request"),
    (b"\xff\xfe", "request"),
    (b"[" * 100000 + b"]" * 100000, "request"),
    (json.dumps({"position": {"yaml": "map: [unclosed"}}).encode(), "position-file"),
    (json.dumps({"position": 3}).encode(), "request"),
    (json.dumps({"position": {"yaml": 3}}).encode(), "request"),
])
def test_malformed_input_gets_a_json_error(server, raw, kind):
    status, data = send(server, "/api/options", raw=raw)
    assert 400 <= status < 500
    assert data["error"]["kind"] == kind and data["error"]["message"]
    assert "Traceback" not in json.dumps(data)


def test_a_huge_request_is_refused_by_its_size():
    with running(Limits(body=10_000)) as small:
        rows = "\n".join(f"{r} " + " p" * 26 for r in range(1, 100))
        status, data = send(small, "/api/position", {"position": {"yaml": f"map: |\n{rows}\n" * 3}})
    assert status == 413 and "at most 10000" in data["error"]["message"]


def _by_hand(server, length: str, body: bytes, finish: bool) -> tuple[int, dict]:
    """A POST with the Content-Length given, the body sent, and the sending side closed if ``finish``."""
    host, port = server.server_address[:2]
    with socket.create_connection((host, port), timeout=30) as connection:
        connection.sendall(f"POST /api/position HTTP/1.1\r\nHost: x\r\nContent-Length: {length}\r\n\r\n".encode() + body)
        if finish:
            connection.shutdown(socket.SHUT_WR)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    head, _, data = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(data)


def test_a_bad_length_or_a_broken_or_stalled_body_is_bad_input(server, monkeypatch):
    status, data = _by_hand(server, "-5", b"", finish=True)
    assert status == 400 and "-5" in data["error"]["message"]
    status, data = _by_hand(server, "100", b'{"position": ', finish=True)
    assert status == 400 and "13 of 100" in data["error"]["message"]
    monkeypatch.setattr(Handler, "timeout", 0.5)
    status, data = _by_hand(server, "100", b'{"position": ', finish=False)
    assert status == 408 and data["error"]["kind"] == "request"


def test_a_huge_board_within_the_size_is_answered(server):
    document = yaml.safe_load(JOUST.read_text(encoding="utf-8"))
    document["map"] = "\n".join(f"{r} " + " p" * 26 for r in range(1, 100)) + "\n"
    status, data = send(server, "/api/position", {"position": {"document": document}})
    assert status == 200  # valid or not, located: never a crash


def test_hostile_names_are_located_or_escaped(server):
    document = yaml.safe_load(JOUST.read_text(encoding="utf-8"))
    document["units"]['x). #false. <script>"&'] = document["units"].pop("harrier")
    status, data = send(server, "/api/position", {"position": {"document": document}})
    assert status == 200 and data["valid"]
    assert "<script>" not in data["svg"]
    status, data = send(server, "/api/options", {"position": {"document": document}, "unit": "<nobody>"})
    assert status == 400 and data["error"]["kind"] == "unit"
    status, data = send(server, "/api/check", {**_yaml(JOUST), "move": "harrier )(;"})
    assert status == 400 and data["error"]["kind"] == "notation"


def test_unknown_paths_and_jobs_are_json_errors(server):
    assert send(server, "/api/nothing", {})[0] == 404
    assert send(server, "/api/jobs/nope")[0] == 404
    status, data = send(server, "/api/jobs", {**_yaml(AFTER), "question": "everything"})
    assert status == 400 and "question" in data["error"]["message"]


def test_a_slow_question_stops_at_the_time_bound():
    with running(Limits(seconds=0.001)) as hurried:
        started = time.monotonic()
        status, job = send(hurried, "/api/jobs", {**_yaml(AFTER), "question": "movement-step"})
        job = _poll(hurried, job)
        assert time.monotonic() - started < 10
    # Cut short: the boards found so far, said to be incomplete; or, before any, a timeout.
    assert (job["state"] == "done" and not job["answer"]["complete"]) or job["error"]["kind"] == "timeout"


def test_the_saved_yaml_writes_the_map_as_a_literal_block():
    text = to_yaml({"format": "cloudspire-position/1", "map": "    a  b\n1   p  p\n2     l  p\n"})
    assert "map: |" in text and yaml.safe_load(text)["map"] == "    a  b\n1   p  p\n2     l  p\n"


def test_serve_refuses_an_invalid_file_before_it_listens():
    from typer.testing import CliRunner

    from adjudicator.cli import app

    done = CliRunner().invoke(app, ["serve", str(ROOT / "tests/bad_positions/bad_marks.yaml"), "--port", "0"])
    assert done.exit_code == 2
    assert "bad_marks.yaml:" in done.output


def test_serve_prints_its_address_and_serves_the_file():
    import subprocess
    import sys

    command = [sys.executable, "-m", "adjudicator", "serve", str(AFTER), "--port", "0"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=ROOT) as process:
        try:
            line = process.stdout.readline()
            url = line.split(" at ")[1].split()[0]
            with urllib.request.urlopen(url + "api/start", timeout=30) as response:
                assert json.loads(response.read())["yaml"] == AFTER.read_text(encoding="utf-8")
        finally:
            process.terminate()


def test_a_date_in_free_text_stays_text(server):
    text = re.sub(r"(?m)^title: .*$", "title: 2024-05-01", JOUST.read_text(encoding="utf-8"))
    status, data = send(server, "/api/position", {"position": {"yaml": text}})
    assert status == 200 and data["document"]["title"] == "2024-05-01"


def test_each_outcome_of_an_answered_question_is_drawn_on_asking(server):
    status, job = send(server, "/api/jobs", {**_yaml(AFTER), "question": "movement-step"})
    job = _poll(server, job)
    status, drawn = send(server, f"/api/jobs/{job['job']}/outcomes/0?narrow=1")
    assert status == 200 and drawn["svg"].startswith("<svg") and 'class="move"' in drawn["svg"]
    status, error = send(server, f"/api/jobs/{job['job']}/outcomes/{job['answer']['count']}")
    assert status == 404 and error["error"]["kind"] == "request"
    status, error = send(server, f"/api/jobs/{job['job']}/pictures")
    assert status == 404 and error["error"]["kind"] == "path"


def test_a_position_at_the_end_of_the_wave_is_answered_and_each_end_drawn(server):
    # Mining's spire kept, or returned to its barracks: the board drawn after each end.
    mining = ROOT / "positions/talents/mining/mining-end-of-wave-may-return.yaml"
    status, data = send(server, "/api/position", _yaml(mining))
    assert status == 200 and data["valid"] and not data["notices"]
    status, job = send(server, "/api/jobs", {**_yaml(mining), "question": "end-of-wave"})
    job = _poll(server, job)
    assert job["answer"]["count"] == 2
    for index in range(2):
        status, drawn = send(server, f"/api/jobs/{job['job']}/outcomes/{index}?narrow=1")
        assert status == 200 and drawn["svg"].startswith("<svg")


def test_a_shared_position_gets_a_short_link_and_its_qr_code(server):
    status, shared = send(server, "/api/share", _yaml(JOUST))
    assert status == 200 and shared["url"] == f"{server.url}#p={shared['id']}" and "<svg" in shared["qr"]
    status, kept = send(server, f"/api/shared/{shared['id']}")
    assert status == 200 and load_position_text(kept["yaml"]) == load_position(JOUST)
    status, error = send(server, "/api/shared/000000000000")
    assert status == 404 and error["error"]["kind"] == "link"
    status, error = send(server, "/api/share", {"position": {"yaml": "format: cloudspire-position/1\n"}})
    assert status == 422 and error["error"]["kind"] == "position-file"


def test_serving_to_the_network_shares_links_on_the_address_phones_reach():
    with running() as board:
        board.public = "http://192.0.2.7:8765/"  # as serve --lan sets it
        status, shared = send(board, "/api/share", _yaml(JOUST))
        assert status == 200 and shared["url"].startswith("http://192.0.2.7:8765/#p=")
    assert re.fullmatch(r"\d+\.\d+\.\d+\.\d+", lan_address())
    assert "█" in qr_terminal("http://192.0.2.7:8765/")
