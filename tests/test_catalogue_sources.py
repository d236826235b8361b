"""The talent catalogue (adjudicator/data/talents.yaml): its shape, and that it agrees with the rule texts in
../shared/ heading for heading and word for word."""

import re
from functools import cache
from pathlib import Path

import pytest
import yaml

from tests.rule_texts import SHARED, needs_shared

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = ROOT / "adjudicator" / "data" / "talents.yaml"

STEPS = ("start-of-turn", "quick-strike", "spires-fire", "movement", "exploration", "attack", "end-of-turn",
         "defeat", "end-of-wave", "prep", "build", "market")
OFF_BOARD = {"prep", "build", "market"}
LISTS = ("player", "ai", "harbinger", "landmark-market", "harbinger-upgrade", "faction")
# The lists with a heading for every talent they print; a faction sheet ("faction") is read only for the
# player wordings the others lack, and prints talents of the other lists beside them.
HEADED = LISTS[:-1]
FIELDS = ("name", "was", "number", "lists", "player", "ai", "steps", "ai_no_effect", "outside", "note")
# The project's own fields, after the texts' ones: how far it models the talent.
MODEL_FIELDS = ("encoding", "acts_on", "hooks", "movement", "reach", "in_range", "reads_health", "shots", "edge_acts", "strides", "teleports", "places", "teleports_self", "aims", "grants", "on_landmarks", "own_move", "calls", "summons", "whole_board", "recruits", "nearest", "modelled_steps", "sides", "left_out", "positions", "cannot")
NO_EFFECT = {"units": "AI units", "spires": "AI spires"}


@cache
def talents() -> tuple[dict, ...]:
    return tuple(yaml.safe_load(CATALOGUE.read_text(encoding="utf-8"))["talents"])


def _names(entry: dict) -> list[str]:
    return [entry["name"], *entry["was"]]


# --- the catalogue's own shape -------------------------------------------------------------------------


def test_there_are_at_least_177_talents() -> None:
    assert len(talents()) >= 177


def test_every_entry_has_the_fields_in_order() -> None:
    for entry in talents():
        name = entry.get("name")
        assert tuple(entry)[: len(FIELDS)] == FIELDS, name
        assert [k for k in entry if k not in FIELDS] == [k for k in MODEL_FIELDS if k in entry], name
        assert set(entry.get("modelled_steps", ())) <= set(entry["steps"]), name
        assert isinstance(name, str) and name == name.strip() and "#" not in name, name
        assert isinstance(entry["was"], list) and all(isinstance(w, str) and w for w in entry["was"]), name
        assert entry["number"] in ("none", "before", "after"), entry["name"]
        assert entry["ai_no_effect"] in ("none", "units", "spires", "equipment"), entry["name"]
        assert isinstance(entry["outside"], bool) and isinstance(entry["note"], str), entry["name"]


def test_lists_are_known_and_in_order() -> None:
    for entry in talents():
        assert entry["lists"], entry["name"]
        assert entry["lists"] == [name for name in LISTS if name in entry["lists"]], entry["name"]


def test_wordings_are_one_line_or_null() -> None:
    for entry in talents():
        for field in ("player", "ai"):
            text = entry[field]
            assert text is None or (isinstance(text, str) and text and "\n" not in text
                                    and text == " ".join(text.split())), (entry["name"], field)
        # an entry with no wording at all must say where its text is
        assert entry["player"] or entry["ai"] or entry["note"], entry["name"]


def test_names_are_unique_also_against_earlier_names() -> None:
    seen: list[str] = [name.casefold() for entry in talents() for name in _names(entry)]
    assert len(seen) == len(set(seen)), sorted({name for name in seen if seen.count(name) > 1})


def test_names_are_sorted() -> None:
    names = [entry["name"] for entry in talents()]
    assert names == sorted(names, key=str.casefold)


def test_steps_come_from_the_vocabulary_in_its_order() -> None:
    for entry in talents():
        steps = entry["steps"]
        assert steps and set(steps) <= set(STEPS), entry["name"]
        assert steps == [step for step in STEPS if step in steps], entry["name"]


def test_outside_means_only_steps_off_the_board() -> None:
    for entry in talents():
        assert entry["outside"] == (set(entry["steps"]) <= OFF_BOARD), entry["name"]


def test_no_effect_for_the_ai_is_what_the_ai_line_says() -> None:
    for entry in talents():
        said = {kind for kind, words in NO_EFFECT.items()
                if entry["ai"] and re.search(rf"does not trigger for {words}|^{words} do not", entry["ai"])}
        # harbinger-rulebook, AI Talents: "talents found only on equipment" are ones "the AI will never
        # interact with": no AI wording, and the player's names the chip it is on as equipment
        if entry["ai"] is None and entry["player"] and "this equipment" in entry["player"]:
            said.add("equipment")
        assert said == ({entry["ai_no_effect"]} - {"none"}), entry["name"]


def test_model_fields_name_files_that_exist() -> None:
    # A misspelt encoding would never be grounded, and the talent silently ignored.
    for entry in talents():
        if entry.get("encoding") not in (None, "core"):
            assert (ROOT / "asp" / "talents" / entry["encoding"]).is_file(), entry["name"]
        for position in entry.get("positions", ()):
            assert (ROOT / position).is_file(), (entry["name"], position)


# --- the rule texts --------------------------------------------------------------------------------------

MASTER = "reference/master-talent-list.txt"
AI_SHEET = "reference/ai-master-talent-list.txt"
LANDMARK = "reference/landmark-and-market-talents.txt"
HARBINGER = "rules/harbinger-rulebook.txt"
FACTIONS = "reference/factions"

# Lines the PDF extraction leaves where the sheets have icons, page numbers, section letters, footers and
# the index's title.
NOISE = re.compile(r"=== PAGE \d+ ===|\d+|[A-Za-z#]|landmark and market talents|v2\.0|Index")
# The landmark sheet's extraction lost this icon, which the master sheet renders as text.
LOST_ICONS = {"Sure-Footed": "[M]"}


def _lines(path: str) -> list[str]:
    text = (SHARED / path).read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip() and not NOISE.fullmatch(line.strip())]


def _joined(lines: list[str]) -> str:
    """Lines made one text: a line ending in a dash runs on into the next (the sheets break words there)."""
    text = ""
    for line in lines:
        text += line if text.endswith(("-", "–")) else (" " + line if text else line)
    return text


def _plain(text: str) -> str:
    """Typography (the sheets' fl and fi ligatures too) and whitespace evened out. Hyphens are left out: a PDF line-end hyphen is soft in
    "retal-iation" and real in "non-path", and the extraction cannot tell which."""
    for typographic, plain in (("’", "'"), ("‘", "'"), ("“", '"'), ("”", '"'), ("★", "*"), ("–", "-"), ("ﬂ", "fl"), ("ﬁ", "fi")):
        text = text.replace(typographic, plain)
    return " ".join(text.replace("-", "").split())


def _words(text: str) -> str:
    """The words alone: two wordings that differ only in punctuation say the same."""
    return " ".join(re.sub(r"[^\w'*#+]+", " ", _plain(text)).split()).casefold()


def _key(heading: str) -> str:
    """A heading as the catalogue names it: no "(was …)", "(AI)" or "#", typography evened out."""
    name = re.sub(r"\((was [^)]*|AI)\)", "", heading).replace("#", "")
    return " ".join(name.replace("’", "'").replace("–", "-").split()).casefold()


def _renamed_from(heading: str) -> str | None:
    found = re.search(r"\(was ([^)]*)\)", heading)
    return found.group(1) if found else None


@cache
def _sheet(path: str) -> dict[str, str]:
    """Heading -> wording of the master or AI sheet. Both end with an index of every heading (name, then page
    numbers) that reads more reliably than the body, whose columns the extraction interleaves; the body is
    then cut at those headings. A name the index wraps ends its first line with a (soft) hyphen."""
    lines = _lines(path)
    start = max(i for i, line in enumerate(lines) if line == "Symbols")
    headings: list[str] = []
    wrapped = ""
    for line in lines[start + 1:]:
        if line.endswith("-"):
            wrapped += line[:-1]
            continue
        entry = re.fullmatch(r"(.*?)\s+[\d, ]+", wrapped + line)
        wrapped = ""
        if entry:
            headings.append(entry.group(1))
    sections: dict[str, list[str]] = {}
    current = None
    for line in lines[:start]:
        if line in headings and line not in sections:
            current = sections.setdefault(line, [])
        elif current is not None:
            current.append(line)
    missing = set(headings) - set(sections)
    assert not missing, (path, "index headings missing from the body", missing)
    return {heading: _joined(body) for heading, body in sections.items()}


@cache
def _landmark_sheet() -> dict[str, str]:
    """Heading -> wording of the landmark and market sheet, which has no index. Entries sit under section
    letters; a heading is a short line that starts an entry: it follows a section letter, a page break or a
    line ending a sentence, and does not end a sentence itself."""
    raw = [line.strip() for line in (SHARED / LANDMARK).read_text(encoding="utf-8").splitlines() if line.strip()]
    sections: dict[str, list[str]] = {}
    current: list[str] = []
    entry_may_start = True
    for line in raw:
        if NOISE.fullmatch(line):
            entry_may_start = entry_may_start or bool(re.fullmatch(r"=== PAGE \d+ ===|[A-Za-z#]", line))
            continue
        starts_like_a_name = line[0].isupper() or line[0] == "#"
        if entry_may_start and starts_like_a_name and len(line) < 30 and not line.endswith("."):
            current = sections.setdefault(line, [])
            entry_may_start = False
            continue
        current.append(line)
        entry_may_start = line.endswith(".")
    return {heading: _joined(body) for heading, body in sections.items()}


@cache
def _harbinger_lines(first: str, last: str) -> list[str]:
    lines = [line.strip() for line in (SHARED / HARBINGER).read_text(encoding="utf-8").splitlines()]
    return lines[lines.index(first) + 1:lines.index(last)]


@cache
def _harbinger_list() -> dict[str, tuple[bool, str]]:
    """Heading -> (marked (AI), wording) of the harbinger book's "AI Talents" list: one "Name (AI): text" line
    per talent. A name may hold one colon ("Imbue: Flying: While…"); "- 1: …" lines continue Motility."""
    entries: dict[str, tuple[bool, str]] = {}
    last = None
    for line in _harbinger_lines("AI Talents", "Solo Scenarios"):
        if line.startswith("- ") and last:
            entries[last] = (entries[last][0], entries[last][1] + " " + line)
            continue
        found = re.fullmatch(r"(?P<name>[^:]+?(?:: [A-Z][\w-]*)?)(?P<ai> \(AI\))?: (?P<text>.+)", line)
        if found:
            last = found["name"]
            entries[last] = (bool(found["ai"]), found["text"])
    return entries


@cache
def _harbinger_upgrades() -> dict[str, str]:
    """Name -> text of the three upgrade chips in "New Upgrade Chips", listed after "…as follows:"."""
    lines = _harbinger_lines("New Upgrade Chips", "Some notes regarding these abilities:")
    first = next(i for i, line in enumerate(lines) if line.endswith("as follows:"))
    return dict(line.split(": ", 1) for line in lines[first + 1:] if line)


def _headings(source: str) -> list[str]:
    return list({
        "player": lambda: _sheet(MASTER),
        "ai": lambda: _sheet(AI_SHEET),
        "landmark-market": _landmark_sheet,
        "harbinger": _harbinger_list,
        "harbinger-upgrade": _harbinger_upgrades,
    }[source]())


def _entry(heading: str) -> dict:
    found = [entry for entry in talents() if _key(heading) in {_key(name) for name in _names(entry)}]
    assert len(found) == 1, (heading, [entry["name"] for entry in found])
    return found[0]


def _text(path: str) -> str:
    return _plain(_joined(_lines(path)))


@needs_shared
@pytest.mark.parametrize("source", HEADED)
def test_every_heading_has_one_entry_that_names_its_list(source: str) -> None:
    headings = _headings(source)
    assert len(headings) >= 3, source
    for heading in headings:
        entry = _entry(heading)
        assert source in entry["lists"], (heading, source)
        old = _renamed_from(heading)
        assert old is None or old in entry["was"], (heading, entry["was"])


@needs_shared
def test_every_entry_stands_in_the_lists_it_names() -> None:
    keys = {source: {_key(heading) for heading in _headings(source)} for source in HEADED}
    harbinger = " ".join(_harbinger_lines("AI Talents", "Solo Scenarios"))
    for entry in talents():
        names = {_key(name) for name in _names(entry)}
        for source in set(entry["lists"]) & set(HEADED):
            # Infested heads no list: the harbinger list names it only inside Infest's wording.
            named = source == "harbinger" and f"the talent {entry['name']}" in harbinger
            assert names & keys[source] or named, (entry["name"], source)


@needs_shared
def test_player_wordings_are_verbatim() -> None:
    sheets = _text(MASTER) + " " + _text(LANDMARK)
    harbinger = _text(HARBINGER)
    for entry in talents():
        if entry["player"] is None:
            continue
        # Talents on neither player sheet take their player wording from a faction sheet where one prints it
        # (test_faction_wording_stands_under_its_name), else from the harbinger book: its list marks them as
        # working as for players, and its upgrade chips are player chips.
        if "faction" in entry["lists"]:
            continue
        sheet_only = {"player", "landmark-market"} & set(entry["lists"])
        assert _plain(entry["player"]) in (sheets if sheet_only else harbinger), entry["name"]


@needs_shared
def test_faction_wording_stands_under_its_name() -> None:
    # A faction sheet prints a talent as "Name – wording" ("Name # – wording" where its # follows the name):
    # the catalogue's player wording is that one, for a talent no player list prints (their wording would
    # win: reference/README.md, Precedence).
    sheets = " ".join(_text(str(path.relative_to(SHARED))) for path in sorted((SHARED / FACTIONS).glob("*.txt")))
    for entry in talents():
        if "faction" in entry["lists"]:
            assert not {"player", "landmark-market"} & set(entry["lists"]), entry["name"]
            number = " #" if entry["number"] == "after" else ""
            assert entry["player"] and _plain(f"{entry['name']}{number} - {entry['player']}") in sheets, entry["name"]


@needs_shared
def test_ai_wordings_are_verbatim() -> None:
    texts = _text(AI_SHEET) + " " + _text(HARBINGER)
    for entry in talents():
        if entry["ai"] is not None:
            assert _plain(entry["ai"]) in texts, entry["name"]


@needs_shared
def test_master_sheet_wording_is_the_player_wording() -> None:
    for heading, wording in _sheet(MASTER).items():
        assert _plain(wording) == _plain(_entry(heading)["player"]), heading


@needs_shared
def test_landmark_sheet_wording_is_the_player_wording() -> None:
    for heading, wording in _landmark_sheet().items():
        entry = _entry(heading)
        expected = entry["player"].replace(LOST_ICONS.get(entry["name"], "\0"), "")
        assert _plain(wording) == _plain(expected), heading


@needs_shared
def test_harbinger_wording_is_the_ai_or_player_wording() -> None:
    for heading, (marked, wording) in _harbinger_list().items():
        entry = _entry(heading)
        wordings = {_words(text) for text in (entry["player"], entry["ai"]) if text}
        assert _words(wording) in wordings, heading
        # a talent the list marks (AI) has its own AI wording, unless it says the same as the player's
        assert not marked or entry["ai"] or _words(wording) == _words(entry["player"] or ""), heading


@needs_shared
def test_ai_sheet_wording_is_the_ai_or_player_wording_or_noted() -> None:
    for heading, wording in _sheet(AI_SHEET).items():
        entry = _entry(heading)
        wordings = {_words(text) for text in (entry["player"], entry["ai"]) if text}
        # where the harbinger list (newer) overrides the AI sheet, the note says how the sheet differs
        assert _words(wording) in wordings or "AI list" in entry["note"], heading


@needs_shared
def test_upgrade_chips_give_their_talent() -> None:
    for name, text in _harbinger_upgrades().items():
        entry = _entry(name)
        assert text == f"This unit or spire now has the talent {entry['name']}." or entry["player"] == text, name
