"""`cloudspire scenarios` as a user runs it: the 8 chapters, every rule with its status, the JSON shape."""

import json
from pathlib import Path

from typer.testing import CliRunner

from adjudicator.cli import app

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def test_json_lists_8_chapters_every_rule_placed() -> None:
    result = runner.invoke(app, ["scenarios", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["count"] == 8 and [c["chapter"] for c in data["chapters"]] == list(range(1, 9))
    for chapter in data["chapters"]:
        assert chapter["opponents"] and chapter["marks"] and chapter["rules"], chapter["chapter"]
        assert sum(chapter["counts"].values()) == len(chapter["rules"])
        for rule in chapter["rules"]:
            # none without an encoding and a test position, unless stated, outside or noticed
            if rule["status"] == "encoded":
                assert (ROOT / rule["encoding"]).is_file() and rule["positions"], rule["id"]
                assert all((ROOT / "positions" / p).is_file() for p in rule["positions"]), rule["id"]
            assert rule["status"] in ("encoded", "core", "stated", "outside", "not-modelled"), rule["id"]


def test_the_table_names_each_chapter_and_its_rules() -> None:
    result = runner.invoke(app, ["scenarios"])
    assert result.exit_code == 0, result.output
    assert "Chapter 6: The Uprising – If You're Not Enough (4 waves)" in result.output
    assert "  player: The Uprising; opponents: Keel, Shada" in result.output
    assert "event-morale-die" in result.output and "event 5–6" in result.output
    assert result.output.rstrip().endswith("8 chapters; a rule's wording: cloudspire scenarios --json")


def test_a_question_in_a_chapter_lists_its_rules_left_out_and_is_undetermined() -> None:
    position = str(ROOT / "positions" / "harbinger" / "2" / "scenario-2-heirs-no-mark.yaml")
    result = runner.invoke(app, ["moves", position, "--json"])
    assert result.exit_code == 3, result.output  # undetermined (adjudicator/show/exit_codes.py)
    notices = json.loads(result.output)[0]["notices"]
    # encoded where the position gives the fortress's health chips (gates.heirs.health-chips); not given here
    assert {"rule": "chapter 2: deploy-health-chips", "status": "partly modelled", "steps": ["movement"],
            "text": "Each time the heirs deploy a unit, they may add one of the health chips in the Horizon's "
                    "Wrath fortress to it. This may exceed the unit's health stat.",
            "left_out": "the health chips in the Horizon's Wrath fortress, which the position does not give "
                        "(gates.<heirs>.health-chips): the answer has the heirs deploy with none"} in notices
    # the stated rule is applied, not noticed: the hero deploys though the heirs have no mark
    assert all(n.get("rule") != "chapter 2: mark-heirs" for n in notices)
    assert "gate:heirs" not in [o["end"] for o in json.loads(result.output)[0]["outcomes"]]
