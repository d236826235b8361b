"""The Harbinger chapters (adjudicator/data/scenarios.yaml): their shape, every quote against the
chapter's text in ../shared/rules/harbinger-rulebook.txt, and every encoded rule against the files and
positions it names."""

import re
from functools import cache
from pathlib import Path

import yaml

from adjudicator.position.scenarios import ACTS, CLOSEST_TIERS, OFF_BOARD_STEPS, Scenario, chapters
from tests.rule_texts import SHARED, needs_shared

ROOT = Path(__file__).resolve().parents[1]
BOOK = "rules/harbinger-rulebook.txt"


def _squash(text: str) -> str:
    return " ".join(text.split())


@cache
def _sections() -> dict[int, list[str]]:
    """Each chapter's lines, from its heading to the next one."""
    lines = [line.strip() for line in (SHARED / BOOK).read_text(encoding="utf-8").splitlines()]
    starts = [i for i, line in enumerate(lines) if re.match(r"Chapter [1-8]: ", line)]
    return {int(lines[s][8]): lines[s:e] for s, e in zip(starts, [*starts[1:], len(lines)], strict=True)}


def _part(chapter: int, heading: str) -> str:
    """The lines of one part of a chapter (Marks, Event Die Results...), up to the next blank-separated heading."""
    lines = _sections()[chapter]
    start = lines.index(heading) + 1
    end = next((i for i in range(start + 1, len(lines)) if lines[i] and lines[i - 1] == "" and ":" not in lines[i]
                and not lines[i].endswith(".")), len(lines))
    return "\n".join(lines[start:end])


def test_there_are_the_8_chapters_in_order() -> None:
    assert list(chapters()) == list(range(1, 9))


def test_rule_ids_are_unique_within_a_chapter_and_fields_fit() -> None:
    for chapter in chapters().values():
        ids = [r.id for r in chapter.rules]
        assert len(ids) == len(set(ids)), chapter.chapter
        assert chapter.player in chapter.factions, chapter.chapter
        for rule in chapter.rules:
            assert set(rule.acts) <= set(ACTS), rule.id
            assert (rule.kind == "event") == bool(rule.faces), rule.id
            assert rule.text == _squash(rule.text) and rule.text, rule.id
            if rule.gate_mark is not None:  # a checked mark: of the chapter's factions, at one of theirs
                owners, gate = rule.gate_mark
                assert rule.kind == "mark" and set(owners) <= set(chapter.factions), rule.id
                assert gate in chapter.factions and gate not in owners, rule.id
            if rule.marks is not None:  # checked alternatives: of the chapter's factions, gates of theirs
                assert rule.kind == "mark" and set(rule.marks.factions) <= set(chapter.factions), rule.id
                assert set(rule.marks.gates) <= set(chapter.factions), rule.id
                assert rule.marks.gates or rule.marks.units or rule.marks.chips, rule.id
            if rule.closest is not None:  # a checked closest mark: its tiers known, a gate one of the chapter's
                assert rule.kind == "mark" and rule.closest.tiers, rule.id
                for tier in rule.closest.tiers:
                    assert tier in CLOSEST_TIERS or tier.removeprefix("gate:") in chapter.factions, rule.id
                assert (rule.closest.chip is None) == (rule.closest.faction is not None), rule.id
            # acting only off the board is what "outside" means, both ways
            assert (rule.status == "outside") == (set(rule.acts) <= set(OFF_BOARD_STEPS)), rule.id
        assert chapter.event_die == any(r.kind == "event" for r in chapter.rules), chapter.chapter


def test_every_encoded_rule_names_a_file_and_positions_that_name_its_chapter() -> None:
    for chapter in chapters().values():
        for rule in chapter.rules:
            if rule.status in ("encoded", "core"):
                assert rule.encoding and (ROOT / rule.encoding).is_file(), rule.id
            else:
                assert rule.encoding is None, rule.id
            if rule.status == "encoded":
                assert rule.positions, rule.id
            for path in rule.positions:
                doc = yaml.safe_load((ROOT / "positions" / path).read_text(encoding="utf-8"))
                assert doc["scenario"]["chapter"] == chapter.chapter, (rule.id, path)


@needs_shared
def test_titles_waves_and_opponents_are_as_printed() -> None:
    for number, chapter in chapters().items():
        lines = _sections()[number]
        assert lines[0] == f"Chapter {number}: {chapter.title}"
        opponents = ", ".join(chapter.opponents)
        plural = "s" if len(chapter.opponents) > 1 else ""
        assert f"Waves: {chapter.waves}. Opponent{plural}: {opponents}." in lines, number


@needs_shared
def test_every_quote_is_verbatim_in_its_chapter() -> None:
    for number, chapter in chapters().items():
        text = _squash(" ".join(_sections()[number]))
        for rule in chapter.rules:
            assert rule.text in text, (number, rule.id)


@needs_shared
def test_marks_are_the_chapters_marks() -> None:
    for number, chapter in chapters().items():
        printed = [line for line in _part(number, "Marks").splitlines() if line]
        assert sorted(chapter.marks) == sorted(printed), number


@needs_shared
def test_event_rules_are_under_their_die_results() -> None:
    for number, chapter in chapters().items():
        if not chapter.event_die:
            assert "Event Die Results" not in _sections()[number], number
            continue
        printed = [line for line in _part(number, "Event Die Results").splitlines() if line]
        found = {}
        for line in printed:
            faces, text = line.split(": ", 1)
            low, _, high = faces.partition("–")
            found[text] = tuple(range(int(low), int(high or low) + 1))
        events = {r.text: r.faces for r in chapter.rules if r.kind == "event"}
        assert events == found, number


def _named_rules(expected: object) -> set[str]:
    """Every chapter rule ("chapter N: id") an expectation names, at any depth (notices by question, a
    step's own notices)."""
    if isinstance(expected, dict):
        return set().union(*map(_named_rules, expected.values()))
    if isinstance(expected, list):
        return set().union(*map(_named_rules, expected))
    return {expected} if isinstance(expected, str) and re.fullmatch(r"chapter [1-8]: [a-z0-9-]+", expected) else set()


def test_a_position_that_names_a_chapter_rule_is_listed_under_it() -> None:
    # `cloudspire scenarios` lists a rule's positions from the data: a position proving its notice counts.
    listed = {f"chapter {c.chapter}: {r.id}": set(r.positions) for c in chapters().values() for r in c.rules}
    for path in sorted((ROOT / "positions").rglob("*.yaml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        for rule in _named_rules(doc.get("expected")):
            assert rule in listed, (path.name, rule)
            assert str(path.relative_to(ROOT / "positions")) in listed[rule], (rule, path.name)


@needs_shared
def test_prep_lines_are_the_wave_tables_own() -> None:
    """A chapter's `prep` lines (Evoke's AI wording reads "the unit stated in the Prep Phase section for
    this wave") are its Wave Table's: the faction's part of the wave's Prep Phase line where it names the
    faction, and empty where it does not; the unit stated is the first it names."""
    read = 0
    for chapter in chapters().values():
        lines = [line for line in _sections()[chapter.chapter] if line.startswith("Prep Phase:")]
        for faction, waves in chapter.prep.items():
            name = chapter.factions[faction]
            assert len(lines) == chapter.waves == len(waves), chapter.chapter
            for wave, part in waves.items():
                if part:
                    assert f"{name}: {part}." in lines[wave - 1], (chapter.chapter, wave)
                else:
                    assert f" {name}:" not in lines[wave - 1], (chapter.chapter, wave)
                read += 1
    assert read == 4
    assert Scenario(7, 4).stated("grovetenders") == ("grizzled oak", "ogregrowth")
    assert Scenario(7, 3).stated("grovetenders")[0] == "war briar"
    assert Scenario(7, 1).stated("grovetenders") == ()
    assert Scenario(7).stated("grovetenders") is None and Scenario(7, 3).stated("keel") is None
