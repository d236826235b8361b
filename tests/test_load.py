"""The position loader: the model it builds, and the problems it reports for bad files.

Each file in tests/bad_positions/ ends with ``# expect LINE FIELD: MESSAGE`` comments, and the loader
must report exactly those problems: the same lines and fields, each message containing the text given.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.position.load import (
    PositionFileError,
    Problem,
    load_document,
    load_document_text,
    load_position,
    load_position_text,
)
from adjudicator.position.model import Controller, Done, Kind, Mark, Stats, Terrain

from tests.load_fuzz import doc_example, line_edited, value_replaced
from tests.profiles import examples

ROOT = Path(__file__).resolve().parents[1]
BAD = Path(__file__).resolve().parent / "bad_positions"
EXPECT = re.compile(r"^# expect (\d+) (\S*): (.+)$")

MINIMAL = """\
format: cloudspire-position/1
map: |
  1  p  p  p
  2   p  f  l
factions:
  heirs: {controller: player, mark: {hex: c2}}
turn: {faction: heirs}
"""


def problems_of(text: str) -> list[Problem]:
    with pytest.raises(PositionFileError) as raised:
        load_position_text(text, "t.yaml")
    return raised.value.problems


def unit_entry(key: str, at: str) -> str:
    """One line of a ``units`` section: a minimal heirs minion."""
    return f"  {key}: {{chip: J, faction: heirs, kind: minion, at: {at}, health: 2, stats: {{health: 2}}}}\n"


# --- the bad fixtures


@pytest.mark.parametrize("path", sorted(BAD.glob("*.yaml")), ids=lambda p: p.stem)
def test_bad_position_reports_exactly_the_expected_problems(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    expected = [m.groups() for line in lines if (m := EXPECT.match(line))]
    assert expected, f"{path.name} has no '# expect' lines"
    with pytest.raises(PositionFileError) as raised:
        load_position(path)
    found = raised.value.problems
    wanted = sorted((int(line), field) for line, field, _ in expected)
    assert sorted((p.line, p.field) for p in found) == wanted
    for line, field, message in expected:
        assert any(p.line == int(line) and p.field == field and message in p.message for p in found), (
            f"no problem at {line} {field} containing {message!r}; found:\n{raised.value}"
        )
    assert all(p.file == str(path) for p in found)


# --- what a good file becomes


def test_doc_example_loads() -> None:
    document = load_document_text(doc_example(), "doc")
    position = document.position
    assert document.faq == ("FAQ-24",)
    assert document.expected == {}
    assert position.title == "Harrier displaces Jaelana Nestor"
    assert position.gates["heirs"].stack == ("scout",)
    assert position.units["scout"].at is None
    assert position.node_of("scout") == "gate:heirs"
    assert position.units["jaelana"].terrain is Terrain.FOREST
    assert position.units["joust"].talents == ("Eager",)
    assert position.factions["narora"].controller is Controller.AI
    assert position.factions["heirs"].mark == Mark(gate="narora")
    assert position.spires[0].upgrades == ("attack", "fortification")
    assert position.landmarks[0].name == "Ancient Ruin"
    assert position.readings == {"displacement": "needed"}
    assert position.hexes["c2"].well
    assert position.neighbours("a2") >= {"gate:heirs", "b2"}


def test_defaults() -> None:
    text = MINIMAL + """\
gates:
  heirs: {beside: [a1]}
landmarks:
  ruin: {at: c1}
units:
  joust: {chip: Joust, faction: heirs, kind: minion, at: b1, health: 2, stats: {health: 2}}
"""
    position = load_position_text(text)
    joust = position.units["joust"]
    assert joust.stats == Stats(health=2, attack=0, movement=0, range=1)
    assert joust.terrain is Terrain.PATH
    assert joust.kind is Kind.MINION
    assert joust.done == Done(moved=False, attacked=False, retaliated=False)
    assert (joust.talents, joust.upgrades, joust.group) == ((), (), ())
    assert not joust.promoted and not joust.campfire
    assert position.gates["heirs"].health == 10
    assert position.gates["heirs"].stack == ()
    assert position.landmarks[0].revealed is False
    assert position.landmarks[0].name == ""
    assert position.turn.step == "movement"
    assert (position.title, position.source, position.readings) == ("", "", {})


def test_every_field_of_a_unit() -> None:
    # A chip's fields as game-elements: Minion Unit (stats, talents); Hero Unit (promoted side, terrain
    # allowance) print them.
    text = MINIMAL + """\
units:
  lord:
    chip: Lord
    faction: heirs
    kind: hero
    at: b2
    health: 3
    stats: {health: 5, attack: 2, movement: 8, range: 2}
    terrain: mountains
    talents: [Eager, Roost Roam]
    upgrades: [attack, fortification]
    promoted: true
    group: [{chip: Squire, stats: {health: 1}, talents: [Armored]}]
    campfire: true
    done: {moved: true, retaliated: true}
"""
    lord = load_position_text(text).units["lord"]
    assert lord.stats == Stats(5, 2, 8, 2)
    assert lord.terrain is Terrain.MOUNTAINS
    assert lord.upgrades == ("attack", "fortification")
    assert lord.promoted and lord.campfire
    assert lord.group[0].chip == "Squire" and lord.group[0].talents == ("Armored",)
    assert lord.done == Done(moved=True, attacked=False, retaliated=True)


@pytest.mark.parametrize("step", ["movement", "attack", "spires-fire"])
def test_turn_steps(step: str) -> None:
    text = MINIMAL.replace("turn: {faction: heirs}", f"turn: {{faction: heirs, step: {step}}}")
    assert load_position_text(text).turn.step == step


def test_readings_are_stored_as_strings() -> None:
    position = load_position_text(MINIMAL + "readings: {displacement: needed, spire-die: standard}\n")
    assert position.readings == {"displacement": "needed", "spire-die": "standard"}


def test_expected_is_plain_data_with_string_keys() -> None:
    text = MINIMAL + """\
expected:
  moves:
    harrier:
      - {end: c3, kind: progress, displaced: {jaelana: b3}, path: [b2, c2, c3]}
  movement-step: {count: 2, finals: [{123: d2}]}
"""
    document = load_document_text(text)
    assert document.expected == {
        "moves": {
            "harrier": [
                {"end": "c3", "kind": "progress", "displaced": {"jaelana": "b3"}, "path": ["b2", "c2", "c3"]}
            ]
        },
        "movement-step": {"count": 2, "finals": [{"123": "d2"}]},
    }
    assert document.faq == ()


def test_load_document_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "p.yaml"
    path.write_text(MINIMAL + "faq: [FAQ-17]\n", encoding="utf-8")
    assert load_document(path).faq == ("FAQ-17",)
    assert load_position(path).turn.faction == "heirs"


@pytest.mark.parametrize(
    "unit_id",
    ["x). #false.", 'say "hi"', "it's", "not(a,fact)", "123", "true", "gate:heirs", "Kram the Mighty", "x" * 40],
)
def test_hostile_unit_ids_are_plain_strings(unit_id: str) -> None:
    key = json.dumps(unit_id)  # a double-quoted YAML scalar
    text = MINIMAL + f"""\
gates:
  heirs: {{beside: [a1], stack: [{key}]}}
units:
  {key}: {{chip: Joust, faction: heirs, kind: minion, health: 2, stats: {{health: 2}}}}
"""
    position = load_position_text(text)
    assert list(position.units) == [unit_id]
    assert position.units[unit_id].id == unit_id
    assert position.gates["heirs"].stack == (unit_id,)


@pytest.mark.parametrize("unit_id", ["x). #false.\nnext", "a\u2028b", "a\x85b", "\u202e"])
def test_hostile_unit_id_in_a_problem_stays_on_one_line(unit_id: str) -> None:
    text = MINIMAL + "units:\n" + unit_entry(json.dumps(unit_id), at="z9")
    problems = problems_of(text)
    assert [p.field.endswith("].at") for p in problems] == [False, True]
    assert all(len(str(p).splitlines()) == 1 and str(p).isprintable() for p in problems)


def test_bare_number_id_keeps_its_source_text() -> None:
    text = MINIMAL + "units:\n" + unit_entry("007", at="a1")
    assert list(load_position_text(text).units) == ["007"]


# --- map lines are file lines


def test_map_problem_lines_with_a_header_and_indentation_indicator() -> None:
    text = """\
format: cloudspire-position/1
title: x
map: |4
        a  b  c
    1   p  p  p
    2     p  q  p
factions:
  heirs: {controller: player, mark: {hex: a1}}
turn: {faction: heirs}
"""
    assert [(p.line, p.field) for p in problems_of(text)] == [(6, "map")]


def test_map_problem_lines_with_keep_chomping_and_a_comment() -> None:
    text = """\
format: cloudspire-position/1
map: |+  # the board

  1  p  p  p

  2   p  p  ?
factions:
  heirs: {controller: player, mark: {hex: a1}}
turn: {faction: heirs}
"""
    assert [(p.line, p.field) for p in problems_of(text)] == [(6, "map")]


def test_map_in_a_quoted_string_reports_at_its_first_line() -> None:
    text = """\
format: cloudspire-position/1
factions:
  heirs: {controller: player, mark: {hex: a1}}
map: "1 p p p\\n2  p q p"
turn: {faction: heirs}
"""
    assert [(p.line, p.field) for p in problems_of(text)] == [(4, "map")]


def test_map_problem_names_the_hex() -> None:
    (problem,) = problems_of(MINIMAL.replace("2   p  f  l", "2   p  f  z"))
    assert (problem.line, problem.field) == (4, "map")
    assert problem.message.startswith("hex c2: unknown terrain 'z'")


# --- whole-file problems


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("", 1, "the file is empty"),
        ("# only a comment\n", 1, "the file is empty"),
        ("just text\n", 1, "expected a mapping with keys format, map"),
        ("- a\n- b\n", 1, "found a list"),
        ("format: x\n---\nformat: y\n", 2, "expected a single document"),
        ("a: 1\nb: \x00\n", 2, "unacceptable character #x0000"),
        ("a:\n\tb: 1\n", 2, "found character '\\t'"),
    ],
)
def test_whole_file_problems(text: str, line: int, message: str) -> None:
    (problem,) = problems_of(text)
    assert (problem.line, problem.field) == (line, "")
    assert message in problem.message


def test_deep_nesting_is_a_problem_not_a_crash() -> None:
    (problem,) = problems_of(MINIMAL + "expected: " + "[" * 5000 + "]" * 5000 + "\n")
    assert problem.message == "the YAML nests too deeply"


def test_recursive_alias_in_expected() -> None:
    (problem,) = problems_of(MINIMAL + "expected: &e {moves: *e}\n")
    assert (problem.line, problem.field) == (8, "expected.moves")


def test_merge_keys_and_unknown_tags_are_problems() -> None:
    text = MINIMAL + "units:\n  <<: {}\nexpected: {moves: !secret x}\n"
    assert [(p.line, p.field) for p in problems_of(text)] == [(9, "units"), (10, "expected.moves")]


def test_bad_tagged_scalars_are_problems() -> None:
    text = MINIMAL + "gates:\n  heirs: {beside: [a1], health: !!int }\nexpected: {moves: !!bool maybe}\n"
    found = [(p.line, p.field) for p in problems_of(text)]
    assert found == [(9, "gates.heirs.health"), (10, "expected.moves")]


def test_aliases_are_read_like_their_anchor() -> None:
    text = MINIMAL + """\
units:
  a: {chip: J, faction: heirs, kind: minion, at: a1, health: 2, stats: &two {health: 2, attack: 1}}
  b: {chip: J, faction: heirs, kind: minion, at: b1, health: 2, stats: *two}
"""
    units = load_position_text(text).units
    assert units["a"].stats == units["b"].stats == Stats(2, 1)


def test_unreadable_file() -> None:
    with pytest.raises(PositionFileError) as raised:
        load_position("/nonexistent/position.yaml")
    (problem,) = raised.value.problems
    assert (problem.file, problem.line, problem.field) == ("/nonexistent/position.yaml", None, "")
    assert problem.message.startswith("cannot read the file")


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes(MINIMAL.encode() + b"title: caf\xe9\n")
    with pytest.raises(PositionFileError) as raised:
        load_position(path)
    assert raised.value.problems[0].message.startswith("cannot read the file")


# --- how problems print


def test_problem_and_error_text() -> None:
    assert str(Problem("f.yaml", 3, "units.drift.at", "bad")) == "f.yaml:3: units.drift.at: bad"
    assert str(Problem("f.yaml", 3, "", "bad")) == "f.yaml:3: bad"
    assert str(Problem("f.yaml", None, "", "bad")) == "f.yaml: bad"
    problems = problems_of(MINIMAL.replace("{hex: c2}", "{hex: z9}") + "colour: red\n")
    assert str(PositionFileError(problems)).splitlines() == [str(p) for p in problems]
    assert [p.line for p in problems] == sorted(p.line or 0 for p in problems)


# --- no traceback, whatever the input


@settings(max_examples=examples(300), deadline=None)
@given(st.text())
def test_any_text_loads_or_reports(text: str) -> None:
    try:
        load_document_text(text)
    except PositionFileError as error:
        assert error.problems


@settings(max_examples=examples(300), deadline=None)
@given(st.data())
def test_mutated_example_loads_or_reports(data: st.DataObject) -> None:
    text = data.draw(line_edited(doc_example()))
    try:
        load_document_text(text)
    except PositionFileError as error:
        assert error.problems


@settings(max_examples=examples(300), deadline=None)
@given(st.data())
def test_example_with_one_value_replaced_loads_or_reports(data: st.DataObject) -> None:
    text = data.draw(value_replaced(doc_example()))
    try:
        load_document_text(text)
    except PositionFileError as error:
        assert error.problems


# --- the JSON Schema says the same


@cache  # built and checked once a process: each of some 550 positions is validated with it
def schema_validator() -> Any:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "schema" / "position.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.mark.parametrize(
    "path",
    sorted((ROOT / "positions").rglob("*.yaml")),
    ids=lambda p: str(p.relative_to(ROOT / "positions")),
)
def test_positions_validate_against_the_schema(path: Path) -> None:
    validator = schema_validator()
    errors = [e.message for e in validator.iter_errors(yaml.safe_load(path.read_text(encoding="utf-8")))]
    assert errors == []


def test_doc_example_validates_against_the_schema() -> None:
    assert list(schema_validator().iter_errors(yaml.safe_load(doc_example()))) == []


@pytest.mark.parametrize(
    "name",
    [
        "bad_numbers",
        "campfire",
        "extras",
        "landmark_talents",
        "missing_keys",
        "unknown_keys",
        "unknown_names",
        "wrong_format",
        "wrong_types",
        "readings",
    ],
)
def test_structural_problems_fail_the_schema_too(name: str) -> None:
    data = yaml.safe_load((BAD / f"{name}.yaml").read_text(encoding="utf-8"))
    assert list(schema_validator().iter_errors(data))


# --- every number has a bound (docs/position-format.md, Numbers)

# A board with every number the format has; each placeholder is filled in by `bounded_board`.
BOUNDED = """\
format: cloudspire-position/1
map: |
  1  p  p  p  p
gates:
  heirs: {beside: [a1], health: {gate_health}}
  narora: {beside: [d1]}
factions:
  heirs: {controller: player, mark: {gate: narora}, source: {source}, source-capacity: {source_capacity}}
  narora: {controller: player, mark: {gate: heirs}, motility: {motility}}
turn: {faction: heirs, step: attack}
spires:
  tower: {faction: narora, at: d1, reward: {source: {spire_source}, relics: {spire_relics}}}
units:
  lord:
    chip: Lord
    faction: heirs
    kind: hero
    at: b1
    health: {health}
    stats: {health: {stat_health}, attack: {attack}, movement: {movement}, range: {range}}
    promoted-stats: {health: {p_health}, attack: {p_attack}, movement: {p_movement}, range: {p_range}}
    capacity: {capacity}
    reward: {source: {reward_source}, relics: {reward_relics}}
  drift:
    chip: Drift
    faction: narora
    kind: minion
    at: c1
    health: 1
    stats: {health: 1}
    group:
      - {chip: Husk, stats: {health: {g_health}, attack: {g_attack}, movement: {g_movement}, range: {g_range}},
         reward: {source: {g_source}, relics: {g_relics}}}
"""

# placeholder → (its field path, the largest value the loader accepts)
BOUNDED_FIELDS = {
    "gate_health": ("gates.heirs.health", 30),
    "source": ("factions.heirs.source", 30),
    "source_capacity": ("factions.heirs.source-capacity", 30),
    "motility": ("factions.narora.motility", 15),
    "spire_source": ("spires.tower.reward.source", 30),
    "spire_relics": ("spires.tower.reward.relics", 30),
    "health": ("units.lord.health", 30),
    "stat_health": ("units.lord.stats.health", 30),
    "attack": ("units.lord.stats.attack", 30),
    "movement": ("units.lord.stats.movement", 8),
    "range": ("units.lord.stats.range", 20),
    "p_health": ("units.lord.promoted-stats.health", 30),
    "p_attack": ("units.lord.promoted-stats.attack", 30),
    "p_movement": ("units.lord.promoted-stats.movement", 8),
    "p_range": ("units.lord.promoted-stats.range", 20),
    "capacity": ("units.lord.capacity", 10),
    "reward_source": ("units.lord.reward.source", 30),
    "reward_relics": ("units.lord.reward.relics", 30),
    "g_health": ("units.drift.group[0].stats.health", 30),
    "g_attack": ("units.drift.group[0].stats.attack", 30),
    "g_movement": ("units.drift.group[0].stats.movement", 8),
    "g_range": ("units.drift.group[0].stats.range", 20),
    "g_source": ("units.drift.group[0].reward.source", 30),
    "g_relics": ("units.drift.group[0].reward.relics", 30),
}


def bounded_board(**values: int) -> str:
    """`BOUNDED` with every number at its bound, but those given."""
    text = BOUNDED
    for name, (_, bound) in BOUNDED_FIELDS.items():
        text = text.replace("{" + name + "}", str(values.get(name, bound)))
    return text


def test_every_number_at_its_bound_loads() -> None:
    position = load_position_text(bounded_board())
    lord = position.units["lord"]
    assert (lord.health, lord.stats, lord.capacity) == (30, Stats(30, 30, 8, 20), 10)
    assert position.gates["heirs"].health == 30 and position.factions["heirs"].source == 30
    assert position.factions["narora"].motility == 15


@pytest.mark.parametrize("name", sorted(BOUNDED_FIELDS))
def test_every_number_above_its_bound_is_a_located_problem(name: str) -> None:
    field, bound = BOUNDED_FIELDS[name]
    (problem,) = problems_of(bounded_board(**{name: bound + 1}))
    assert problem.field == field
    assert problem.message == f"expected an integer from 0 to {bound}, found {bound + 1}"
    assert problem.line is not None


@pytest.mark.parametrize("value", ["2147483648", "9" * 5000, "-2147483649"])
def test_huge_numbers_are_located_problems(value: str) -> None:
    (problem,) = problems_of(bounded_board().replace("attack: 30,", f"attack: {value},", 1))
    assert problem.field == "units.lord.stats.attack"
    assert problem.message.startswith("expected an integer from 0 to 30, found ")


def test_schema_bounds_are_the_loaders() -> None:
    schema = json.loads((ROOT / "schema" / "position.schema.json").read_text(encoding="utf-8"))
    defs = schema["$defs"]

    def maximum(ref: dict[str, Any]) -> int:
        ref = ref.get("oneOf", [ref])[0]  # the number, beside another form (an attack stat of *)
        while "$ref" in ref:
            ref = defs[ref["$ref"].rsplit("/", 1)[1]]
        return ref["maximum"]

    stats = defs["stats"]["properties"]
    assert [maximum(stats[k]) for k in ("health", "attack", "movement", "range")] == [30, 30, 8, 20]
    assert maximum(defs["gate"]["properties"]["health"]) == 30
    assert maximum(defs["faction"]["properties"]["source"]) == 30
    assert maximum(defs["faction"]["properties"]["source-capacity"]) == 30
    assert maximum(defs["faction"]["properties"]["motility"]) == 15
    assert maximum(defs["unit"]["properties"]["health"]) == 30
    assert maximum(defs["unit"]["properties"]["capacity"]) == 10
    assert [maximum(defs["reward"]["properties"][k]) for k in ("source", "relics")] == [30, 30]


@pytest.mark.parametrize("command", ["moves", "attacks", "attack-step"])
def test_the_largest_accepted_numbers_run_through_the_solver(tmp_path: Path, command: str) -> None:
    from typer.testing import CliRunner

    from adjudicator.cli import app

    path = tmp_path / "bounds.yaml"
    path.write_text(bounded_board(), encoding="utf-8")
    result = CliRunner().invoke(app, [command, str(path), "--json"])
    assert result.exit_code == 0, result.output
    assert result.exception is None
    json.loads(result.output)


# --- row numbers and hex names

@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("²", "expected a row number in the digits 0–9, found '²'"),
        ("١", "expected a row number in the digits 0–9, found '١'"),
        ("100", "row numbers run from 1 to 99, found 100"),
        ("7" * 5000, "row numbers run from 1 to 99, found 7777"),
    ],
)
def test_bad_row_numbers_are_map_problems(row: str, message: str) -> None:
    (problem,) = problems_of(MINIMAL.replace("  2   p  f  l", f"  {row}   p  f  l"))
    assert (problem.line, problem.field) == (4, "map")
    assert problem.message.startswith(message)
    assert len(problem.message) < 200


def test_leading_zeros_are_allowed_in_a_row_number() -> None:
    assert "c2" in load_position_text(MINIMAL.replace("  2   p  f  l", "  002   p  f  l")).hexes


@pytest.mark.parametrize("name", ["a" + "1" * 5000, "a99", "a100"])
def test_long_hex_names_are_located_problems(name: str) -> None:
    (problem,) = problems_of(MINIMAL.replace("{hex: c2}", f"{{hex: {name}}}"))
    assert (problem.line, problem.field) == (6, "factions.heirs.mark.hex")
    assert "is not a hex on the map (columns a–c, rows 1–2)" in problem.message
    assert len(problem.message) < 200


def test_schema_readings_are_the_loaders() -> None:
    from adjudicator.position.readings import READINGS

    schema = json.loads((ROOT / "schema" / "position.schema.json").read_text(encoding="utf-8"))
    readings = schema["properties"]["readings"]
    assert readings["additionalProperties"] is False
    assert {name: entry["enum"] for name, entry in readings["properties"].items()} == {
        name: list(r.values) for name, r in READINGS.items()
    }


# --- ids and names: 1 to 40 printable characters (docs/position-format.md, Names)

BAD_NAMES = ["a\x00b", "two\nlines", "tab\there", "", " lead", "trail ", "x" * 41, "zero\u200bwidth", "a\u2028b",
             "\x1b[31mred"]
NAME_MESSAGE = "expected a name of 1 to 40 printable characters, with no control characters and no space at either end"
NAMED = """\
format: cloudspire-position/1
map: |
  1  p  p  p  p
factions:
  {faction}: {{controller: player, mark: {{hex: d1}}}}
turn: {{faction: {faction}}}
spires:
  {spire}: {{faction: {faction}, at: a1}}
landmarks:
  {landmark}: {{at: b1, name: {landmark_name}}}
units:
  {unit}: {{chip: {chip}, faction: {faction}, kind: minion, at: c1, health: 1, stats: {{health: 1}},
           group: [{{chip: {grouped}, stats: {{health: 1}}}}]}}
"""
# placeholder → the field path its problem has (the id's own, for a key), and its line
NAME_FIELDS = {
    "faction": ("factions[{}]", 5),
    "spire": ("spires[{}]", 8),
    "landmark": ("landmarks[{}]", 10),
    "landmark_name": ("landmarks.ruin.name", 10),
    "unit": ("units[{}]", 12),
    "chip": ("units.u.chip", 12),
    "grouped": ("units.u.group[0].chip", 13),
}


def named_board(**names: str) -> str:
    defaults = {"faction": "heirs", "spire": "tower", "landmark": "ruin", "landmark_name": "Ruin", "unit": "u",
                "chip": "Joust", "grouped": "Squire"}
    return NAMED.format(**{k: json.dumps(names.get(k, v)) for k, v in defaults.items()})


def test_named_board_loads() -> None:
    position = load_position_text(named_board(chip="Kram the Mighty", unit="x). #false."))
    assert position.units["x). #false."].chip == "Kram the Mighty"


@pytest.mark.parametrize("name", BAD_NAMES, ids=repr)
@pytest.mark.parametrize("where", sorted(NAME_FIELDS))
def test_bad_ids_and_names_are_located_problems(where: str, name: str) -> None:
    field, line = NAME_FIELDS[where]
    problems = problems_of(named_board(**{where: name}))
    shown = name if len(name) <= 40 else name[:40] + "…"
    wanted = field.format(json.dumps(shown, ensure_ascii=False).replace("\u2028", "\\u2028").replace("\u200b", "\\u200b"))
    assert [(p.line, p.field) for p in problems] == [(line, wanted)], problems
    assert problems[0].message.startswith(NAME_MESSAGE)
    assert all(len(str(p).splitlines()) == 1 and str(p).isprintable() for p in problems)


@pytest.mark.parametrize("name", [n for n in BAD_NAMES if n != "zero\u200bwidth"], ids=repr)
@pytest.mark.parametrize("where", sorted(NAME_FIELDS))
def test_bad_ids_and_names_fail_the_schema_too(where: str, name: str) -> None:
    validator = schema_validator()
    assert list(validator.iter_errors(yaml.safe_load(named_board(**{where: name}))))


def test_named_board_passes_the_schema() -> None:
    assert list(schema_validator().iter_errors(yaml.safe_load(named_board(unit="x). #false.")))) == []


def test_must_move_needs_rooted() -> None:
    # A unit owes a move after staying put only by a talent that lets it stay (Rooted).
    rooted = MINIMAL + "units:\n  ogre: {chip: O, faction: heirs, kind: minion, at: b2, health: 2,\n" \
        "    stats: {health: 2}, talents: [Rooted], must-move: true}\n"
    assert load_position_text(rooted).units["ogre"].must_move
    problems = problems_of(rooted.replace("talents: [Rooted], ", ""))
    assert [(p.line, p.field) for p in problems] == [(10, "units.ogre.must-move")]
    assert "Rooted" in problems[0].message


def test_held_needs_survival_and_no_move() -> None:
    # Only Survival's AI wording holds a unit still so that it does not attack (done: held).
    held = MINIMAL + "units:\n  sage: {chip: S, faction: heirs, kind: minion, at: b2, health: 1,\n" \
        "    stats: {health: 2}, talents: [Survival], done: {held: true, displaced: true}}\n"
    assert load_position_text(held).units["sage"].done.held
    assert load_position_text(held).units["sage"].done.displaced
    problems = problems_of(held.replace("talents: [Survival], ", ""))
    assert [(p.line, p.field) for p in problems] == [(10, "units.sage.done.held")]
    assert "Survival" in problems[0].message
    moved = problems_of(held.replace("held: true", "held: true, moved: true"))
    assert [(p.line, p.field) for p in moved] == [(10, "units.sage.done.held")]


def test_a_file_longer_than_the_bound_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    from adjudicator.position.load import MAX_FILE_CHARACTERS

    path = tmp_path / "huge.yaml"
    path.write_text("title: " + "x" * MAX_FILE_CHARACTERS + "\n", encoding="utf-8")
    with pytest.raises(PositionFileError, match="longer than 1,048,576 characters"):
        load_position(path)


def test_a_file_that_never_ends_is_refused() -> None:
    with pytest.raises(PositionFileError, match="longer than"):
        load_position("/dev/zero")


def test_an_attack_stat_of_star_comes_with_poison() -> None:
    starred = bounded_board().replace("attack: 30,", 'attack: "*",', 1)
    found = {p.field: p.message for p in problems_of(starred)}
    assert "Poison" in found["units.lord.stats"] and "units.lord.promoted-stats" in found  # a side not read
