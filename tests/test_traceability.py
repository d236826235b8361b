"""`cloudspire coverage`: the traceability matrix, read from the project's own citations."""

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.position.scenarios import chapters
from adjudicator.position.talents import NOT_MODELLED, catalogue
from adjudicator.questions import traceability
from adjudicator.questions.faq import FAQ_IDS
from adjudicator.solving.solve import encoding_dir
from tests.rule_texts import SHARED, needs_shared

ROOT = Path(__file__).resolve().parent.parent
NAMES = tuple(s.name for s in traceability.sections())
runner = CliRunner()


@needs_shared
def test_the_shipped_sections_are_the_headings_of_the_core_rules_in_order() -> None:
    lines = [line.strip() for line in (SHARED / "rules" / "game-elements.txt").read_text(encoding="utf-8").splitlines()]
    # A heading stands alone on its line; the unit chips' headings carry a note on their border.
    at = [next(i for i, line in enumerate(lines) if line == name or line.startswith(f"{name} (denoted"))
          for name in NAMES]
    assert at == sorted(at)


def test_a_citation_names_each_section_it_lists_and_the_longest_name_only() -> None:
    cited = traceability._cited
    assert cited('% game-elements: Terrain Types; Movement ("cannot move on; or through").', NAMES) == \
        {"Terrain Types", "Movement"}
    assert cited("% game-elements, Fortress Gate Pillaging: ...", NAMES) == {"Fortress Gate Pillaging"}
    # A citation may wrap onto the next comment line, and list sections with commas.
    assert cited("% see game-elements: Defeat (\"x, y\"), Returning to\n% the Fortress, and more", NAMES) == \
        {"Defeat", "Returning to the Fortress"}
    # A full stop ends it: what follows is no longer the citation.
    assert cited("source: game-elements.txt, Retaliation. Movement is elsewhere", NAMES) == {"Retaliation"}
    assert cited("game-elements: a fortification upgrade", NAMES) == set()


def test_the_matrix_has_a_row_for_every_section_talent_ruling_and_chapter_rule() -> None:
    rows = traceability.matrix(ROOT, encoding_dir())
    ids = {kind: [r.id for r in rows if r.kind == kind] for kind in traceability.KINDS}
    assert ids["section"] == list(NAMES)
    assert sorted(ids["talent"]) == sorted(catalogue().talents)
    assert ids["faq"] == list(FAQ_IDS)
    assert ids["chapter"] == [f"{c.chapter}/{r.id}" for c in chapters().values() for r in c.rules]
    assert all(r.status in traceability.STATUSES for r in rows)
    # Every row not traced says why.
    assert all(r.why for r in rows if r.status != traceability.TRACED)


def test_a_talent_not_modelled_on_a_side_is_missing_and_a_traced_one_has_its_encoding_and_positions() -> None:
    rows = {r.id: r for r in traceability.talent_rows()}
    for talent in catalogue().talents.values():
        row = rows[talent.name]
        if NOT_MODELLED in (talent.status(ai=False), talent.status(ai=True)):
            assert row.status == traceability.MISSING, talent.name
        if row.status == traceability.TRACED:
            assert row.encodings and row.positions, talent.name


def test_a_section_nothing_exercises_is_missing_and_says_so(tmp_path: Path) -> None:
    # A checkout with no positions and no tests: the encodings still cite, nothing exercises.
    (tmp_path / "positions").mkdir()
    rows = {r.id: r for r in traceability.section_rows(encoding_dir(), tmp_path)}
    assert rows["Blocking Movement"].status == traceability.MISSING
    assert rows["Blocking Movement"].why == "no position or test cites it"
    assert rows["Blocking Movement"].encodings
    assert rows["The Market"].status == traceability.OUTSIDE_BOARD and rows["The Market"].why
    # The checkout itself traces it.
    rows = {r.id: r for r in traceability.section_rows(encoding_dir(), ROOT)}
    assert rows["Blocking Movement"].status == traceability.TRACED and not rows["Blocking Movement"].why


def test_coverage_json_and_table() -> None:
    result = runner.invoke(app, ["coverage", "--root", str(ROOT), "--kind", "faq", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert [r["id"] for r in report["rows"]] == list(FAQ_IDS)
    assert sum(report["counts"]["faq"].values()) == 30
    outside = {r["id"] for r in report["rows"] if r["status"] == traceability.OUTSIDE_BOARD}
    assert outside == {"FAQ-06", "FAQ-12"}
    table = runner.invoke(app, ["coverage", "--root", str(ROOT), "--kind", "section"]).output
    assert table.startswith("Core rule sections (game-elements.txt): ")
    assert re.search(r"^  Blocking Movement +traced ", table, re.M)


def test_coverage_refuses_an_unknown_kind_or_status_and_a_folder_without_positions(tmp_path: Path) -> None:
    assert runner.invoke(app, ["coverage", "--kind", "rule"]).exit_code == 2
    assert runner.invoke(app, ["coverage", "--status", "done"]).exit_code == 2
    result = runner.invoke(app, ["coverage", "--root", str(tmp_path)])
    assert result.exit_code == 2 and "no positions/" in result.output
