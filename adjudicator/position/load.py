"""Loading position files: YAML text → the validated model (adjudicator.position.model).

The format is docs/position-format.md.  Bad input never ends in a traceback: every problem in a file
is collected and raised together as one `PositionFileError`, each `Problem` naming the file, the
1-based line, the field (``units.drift.at``) and what was expected.

- `load_position(path)`, `load_position_text(text, filename)` → `Position`.
- `load_document(path)`, `load_document_text(text, filename)` → `PositionDocument`: the position
  plus what the file says about itself rather than the board: ``faq``, the FAQ ids it demonstrates
  (a tuple of str), and ``expected``, the outcome set a test holds it to, as plain dicts, lists and
  scalars ({} when absent).  The test runner interprets ``expected``; this module only reads it.

Field paths join keys with dots and list indexes with brackets (``units.joust.group[0].chip``); an
id that is not a plain word is written as a JSON string (``units["x). #false."].at``), and one longer
than an id may be is cut short, so every problem stays on one readable line.  ``field`` is "" for a
problem with the file as a whole.

The YAML is composed, not constructed: nodes keep their line numbers, duplicate keys stay visible,
and ids keep their source text (the id ``123`` is the string "123").
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

import yaml
from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from adjudicator.position.hexmap import COLUMNS, MAX_ROW, TERRAIN_LETTERS, hex_name, line_from, neighbour_cells, parse_map, shown
from adjudicator.position.priorities import CHAPTER_PRIORITY, SPIRE_CATEGORIES, UNIT_CATEGORIES, presets
from adjudicator.position.talents import TURN_STEPS, WAVE_END, catalogue
from adjudicator.position.readings import READINGS
from adjudicator.position.chapter_rules import (
    BYDRA_GRAAM, CANNONS, EARTHSCAPES_CHAPTER, PURCHASE_CHAPTER, HEALTH_CHIPS_CHAPTER, MARKET_CHAPTER, NARORA, ROTTEN_WORMS, SOURCE_VEIN, VEIN_EARTHSCAPES, VEIN_HEALTH,
    WAYGATE, WAYGATE_HEALTH,
    bydra_mark, chip_name, closest_marks,
    deploy_from_tunnels,
    scenario_talents,
)
from adjudicator.position.scenarios import DIE_FACES, MAX_EVENT_ROLLS, MAX_HEROES_CHAPTER_1, Scenario, chapters
from adjudicator.position.model import (
    AiPriority,
    Controller,
    controlled,
    Done,
    Faction,
    Gate,
    GroupedChip,
    Hex,
    Kind,
    Landmark,
    Maneuver,
    Mark,
    Position,
    Reward,
    BIOSONAR,
    OVERLOAD,
    BUILDER,
    SECRET_PASSAGE,
    Spire,
    Chip,
    Stats,
    Terrain,
    Turn,
    Unit,
)
from adjudicator.position.movement_stat import movement_bound

FORMAT = "cloudspire-position/1"
# A position stands at a step of the turn, or at the end of the wave, which happens inside one.
STEPS = (*TURN_STEPS, WAVE_END)
UPGRADES = ("attack", "range", "fortification")  # game-elements: Leveling Up; Spires
# Every number has a bound: at least the largest the rule texts allow, and far inside clingo's
# 32-bit integers. The reasons are in docs/position-format.md, Numbers.
MAX_FILE_CHARACTERS = 1 << 20  # the largest bundled position has some 7,000
MAX_MOVEMENT = 8  # the movement encoding follows routes of at most 8 hexes
MAX_RANGE = 20
MAX_HEALTH = 30  # health, and the health stat
MAX_ATTACK = 30
STAR_ATTACK = ("*", "★")  # an attack stat of * (Poison), as the lists print it
MAX_GATE_HEALTH = 30
MARK_KINDS = ("gate", "unit", "hex")
OWN_MARK_KINDS = (*MARK_KINDS, "beside")  # a unit's own mark may be any hex beside a gate or unit
BESIDE_KINDS = ("gate", "unit")
HEIRS, MINARET = "heirs", "minaret"  # chapter 1: the heirs deploy from "the minaret spire" of the wave
# Talents that bar a unit from one faction's deployment (check_undeployable), by faction id.
UNDEPLOYABLE = {"Anti-Heirs": HEIRS, "Anti-Brawnen": "brawnen"}
MAX_SOURCE = 30  # Source, its capacity, and a reward's Source
MAX_RELICS = 30
# The Motility Reservoir: "a maximum of 10", 15 with Metabolic Energy (the-graft.txt).
MAX_MOTILITY = 15
MAX_MORALE = 6  # the morale die's highest face (docs/combat.md, Morale)
MAX_CAPTIVES = 3  # Capture: "a maximum of 3 minions captured from each faction at a time"
# Earthscapes under the top one: chapter 4 stacks "all 7 remaining base game earthscape tiles", so the base game
# prints 8, and Harbinger "one new earthscape": 9 in all, the top one and 8 under it at most.
MAX_EARTHSCAPE_STACK = 8
# The talents that leave a unit owing a move after it stayed put (`must-move`).
MUST_MOVE_TALENTS = ("Rooted",)
# The talent whose AI wording keeps a unit from moving and attacking (`done: held`).
HOLDING_TALENT = "Survival"
# The wording of the talents a unit uses up for the wave (a unit's `used`: Call Minion; Improve's AI wording).
ONCE_PER_WAVE = "Once per wave"
FIRST_EACH_WAVE = "The first time each wave"
ELFIN = "Elfin"  # the talent that places an elfinkaze on its chip
ROOST, ROOST_RIDER = "Roost", "Roost Roam"  # the talent of the chip ridden, the rider's
# The fields of a unit holding an opposing minion on its hex, by the talent that placed it there.
GRASP_FIELDS = {"stasis-on": "Stasis", "possessing": "Possess"}
MAX_CAPACITY = 10  # a hero's upgrade chip capacity
MAX_SUPPLY = 30  # upgrade chips of one kind left in the supply
MAX_NAME = 40  # characters in an id or a chip's name
# Toxic fumes chips on one hex: the texts give no number; 10 deal more than any unit's health and
# fortifications (docs/position-format.md, Numbers).
MAX_PILE = 10
# A rotten worms' Infest # (Harbinger chapter 4): the texts do not print it; 9 deal more than Bydra Graam's health.
MAX_INFEST = 9
NAME = (
    f"a name of 1 to {MAX_NAME} printable characters, with no control characters and no space at either end"
)

_NULL = "tag:yaml.org,2002:null"
_INT = "tag:yaml.org,2002:int"
_BOOL = "tag:yaml.org,2002:bool"
_STR = "tag:yaml.org,2002:str"
_MERGE = "tag:yaml.org,2002:merge"
_PLAIN_SEGMENT = re.compile(r"[A-Za-z0-9_-]+")
_HEX_NAME = re.compile(r"([a-z])([1-9][0-9]*)")
_FAQ_ID = re.compile(r"FAQ-[0-9]+")
# The usual cause of a YAML error on a map row: a header line indented further than the rows.
_MAP_ROW = re.compile(r"\s+[0-9]+\s")
_MAP_INDENT_HINT = (
    "if this is a map row: a literal block takes its indentation from its first line, "
    "so after a header line write the rows' indentation after the bar (map: |4)"
)
# libyaml, where PyYAML has it: some twenty times faster than the pure-Python composer.
_FAST_COMPOSER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_UNREADABLE = object()  # a scalar whose tag has no safe constructor
_IN_PROGRESS = object()  # a collection being converted: meeting it again means a recursive alias

T = TypeVar("T")


@dataclass(frozen=True)
class Problem:
    """One problem of a position file, with its place in the text where it has one."""

    file: str
    line: int | None  # 1-based; None when the problem has no place in the text
    field: str  # dotted path such as "units.drift.at"; "" for the file as a whole
    message: str

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{where}: {self.field}: {self.message}" if self.field else f"{where}: {self.message}"


class PositionFileError(Exception):
    """A position file that cannot be loaded, with every problem found in it."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


@dataclass(frozen=True)
class PositionDocument:
    """A position file whole: the position, the FAQ rulings it cites and its expected answers."""

    position: Position
    faq: tuple[str, ...]
    expected: dict[str, Any]


def load_position(path: str | Path) -> Position:
    return load_document(path).position


def load_position_text(text: str, filename: str = "<text>") -> Position:
    return load_document_text(text, filename).position


def load_document(path: str | Path) -> PositionDocument:
    try:
        with open(path, encoding="utf-8") as file:  # read at most the bound: /dev/zero never ends
            text = file.read(MAX_FILE_CHARACTERS + 1)
    except (OSError, UnicodeDecodeError) as error:
        raise PositionFileError([Problem(str(path), None, "", f"cannot read the file: {error}")]) from None
    if len(text) > MAX_FILE_CHARACTERS:
        raise PositionFileError([Problem(str(path), None, "", f"the file is longer than {MAX_FILE_CHARACTERS:,} "
                                         "characters; a position needs a few thousand")])
    return load_document_text(text, str(path))


def load_document_text(text: str, filename: str = "<text>") -> PositionDocument:
    reader = _PositionReader(filename)
    try:
        document = reader.document(_compose(text))
    except yaml.YAMLError as error:
        raise PositionFileError([_yaml_problem(filename, text, error)]) from None
    except RecursionError:  # pure-Python PyYAML composes nested collections recursively
        raise PositionFileError([Problem(filename, None, "", "the YAML nests too deeply")]) from None
    if document is None or reader.problems:
        raise PositionFileError(sorted(reader.problems, key=lambda p: p.line or 0))
    return document


def _compose(text: str) -> yaml.Node | None:
    try:
        return yaml.compose(text, Loader=_FAST_COMPOSER)
    except yaml.YAMLError:  # libyaml names the fault less well ("found character" without which)
        return yaml.compose(text, Loader=yaml.SafeLoader)


def _yaml_problem(filename: str, text: str, error: yaml.YAMLError) -> Problem:
    if isinstance(error, yaml.reader.ReaderError):  # a character YAML forbids; marked by offset only
        line = text.count("\n", 0, error.position) + 1
        return Problem(filename, line, "", f"malformed YAML: unacceptable character #x{error.character:04x}")
    if not isinstance(error, yaml.MarkedYAMLError) or error.problem_mark is None:
        return Problem(filename, None, "", f"malformed YAML: {error}")
    mark = error.problem_mark
    message = f"{error.problem} (column {mark.column + 1})"
    if error.context:
        since = f" (from line {error.context_mark.line + 1})" if error.context_mark else ""
        message = f"{error.context}{since}: {message}"
    lines = text.splitlines()
    if mark.line < len(lines) and _MAP_ROW.match(lines[mark.line]):
        message += f"; {_MAP_INDENT_HINT}"
    return Problem(filename, mark.line + 1, "", f"malformed YAML: {message}")


def _under(node: Node, *keys: str) -> Node:
    """The node at ``keys`` below a mapping node, or the deepest of them found (a merge key hides one)."""
    for key in keys:
        found = next((v for k, v in node.value if k.value == key), None) if isinstance(node, MappingNode) else None
        if found is None:
            return node
        node = found
    return node


def _child(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    if len(key) > MAX_NAME:  # too long an id, reported as such; cut short, so that the line stays readable
        return f"{path}[{_quoted(key[:MAX_NAME] + '…')}]"
    if not _PLAIN_SEGMENT.fullmatch(key):
        return f"{path}[{_quoted(key)}]"
    return f"{path}.{key}" if path else key


def _quoted(text: str) -> str:
    """A JSON string that prints on one line: JSON leaves U+2028 and other invisibles unescaped."""
    return "".join(c if c.isprintable() else json.dumps(c)[1:-1] for c in json.dumps(text, ensure_ascii=False))


def _good_name(name: str) -> bool:
    """An id or name as docs/position-format.md, Names, allows: it reaches clingo, tables and moves."""
    return 0 < len(name) <= MAX_NAME and name.isprintable() and name == name.strip(" ")


def _describe(node: Node) -> str:
    if isinstance(node, MappingNode):
        return "a mapping"
    if isinstance(node, SequenceNode):
        return "a list" if node.value else "an empty list"
    if node.tag == _NULL:
        return "nothing"
    text = node.value if len(node.value) <= 40 else node.value[:39] + "…"
    return repr(text) if node.tag == _STR else text


def _or(value: T | None, default: T) -> T:
    return default if value is None else value


def _complete(values: Sequence[T | None]) -> tuple[T, ...] | None:
    """All the values, or None when any failed to read (its problem is already reported)."""
    if any(v is None for v in values):
        return None
    return tuple(v for v in values if v is not None)


def _listing(names: set[str] | dict[str, Any]) -> str:
    return ", ".join(shown(n) for n in sorted(names)) or "none"


@dataclass(frozen=True)
class _Value:
    """A node to read and the field path it sits at; node is None when the key is absent."""

    node: Node | None
    path: str


@dataclass(frozen=True)
class _Fields:
    """The known keys of a mapping node, each readable as a `_Value`."""

    node: MappingNode
    path: str
    values: dict[str, _Value]  # the keys present

    def __getitem__(self, key: str) -> _Value:
        return self.values.get(key) or _Value(None, _child(self.path, key))


@dataclass(frozen=True)
class _Talents:
    """A chip's talents as listed: their names, and the number of each numbered one."""

    names: tuple[str, ...]
    numbers: tuple[tuple[str, int], ...]


# A numbered talent: "2 Range" or "Roost 3" (ASCII digits only, and few of them).
_NUMBER_BEFORE = re.compile(r"([0-9]{1,3})\s+(\S.*)")
_NUMBER_AFTER = re.compile(r"(\S.*?)\s+([0-9]{1,3})")
# The largest # any talent prints is a single digit; 20 leaves room and keeps clingo's numbers small.
MAX_TALENT_NUMBER = 20


class _Reader:
    """Generic readers for typed values; each reports its own problems and returns None on failure.

    A reader given an absent value returns None without a report: a missing required key has
    already been reported by `fields`, and an absent optional one takes its default.
    """

    def __init__(self, filename: str) -> None:
        self.filename = filename
        self.problems: list[Problem] = []
        self._constructor = SafeConstructor()
        self._plain: dict[int, Any] = {}  # by node id: shared (aliased) nodes are converted once

    def report(self, node: Node, path: str, message: str) -> None:
        self.report_line(node.start_mark.line + 1, path, message)

    def report_line(self, line: int, path: str, message: str) -> None:
        self.problems.append(Problem(self.filename, line, path, message))

    def problem(self, value: _Value, message: str) -> None:
        """Reports a problem with a value that is present in the file."""
        assert value.node is not None
        self.report(value.node, value.path, message)

    def expected(self, value: _Value, what: str) -> None:
        assert value.node is not None
        self.problem(value, f"expected {what}, found {_describe(value.node)}")

    def construct(self, node: Node) -> Any:
        try:
            return self._constructor.construct_object(node)
        except Exception:  # PyYAML's constructors raise all sorts on bad tagged scalars ("!!int", "!x")
            return _UNREADABLE

    def text(self, value: _Value, what: str = "text") -> str | None:
        node = value.node
        if node is None:
            return None
        if isinstance(node, ScalarNode) and node.tag != _NULL:
            return str(node.value)
        self.expected(value, what)
        return None

    def integer(self, value: _Value, high: int) -> int | None:
        node = value.node
        if node is None:
            return None
        number = self.construct(node) if node.tag == _INT else None
        if isinstance(number, int) and 0 <= number <= high:
            return number
        self.expected(value, f"an integer from 0 to {high}")
        return None

    def name(self, value: _Value) -> str | None:
        """A chip's or landmark's name: shown in tables and, for chips, handed to clingo."""
        text = self.text(value, NAME)
        if text is None or _good_name(text):
            return text
        self.expected(value, NAME)
        return None

    def boolean(self, value: _Value) -> bool | None:
        node = value.node
        if node is None:
            return None
        flag = self.construct(node) if node.tag == _BOOL else None
        if isinstance(flag, bool):
            return flag
        self.expected(value, "true or false")
        return None

    def choice(self, value: _Value, options: Sequence[str], what: str) -> str | None:
        what = f"{what} ({', '.join(options)})"
        name = self.text(value, what)
        if name is None or name in options:
            return name
        self.expected(value, what)
        return None

    def items(self, value: _Value, what: str) -> list[_Value] | None:
        node = value.node
        if node is None:
            return None
        if isinstance(node, SequenceNode):
            return [_Value(item, _child(value.path, i)) for i, item in enumerate(node.value)]
        self.expected(value, f"a list of {what}")
        return None

    def names(self, value: _Value, what: str) -> tuple[str, ...] | None:
        items = self.items(value, what)
        return None if items is None else _complete([self.text(item, what) for item in items])

    def talents(self, value: _Value) -> _Talents | None:
        """A chip's talents, by their current names (earlier names accepted), with their numbers."""
        items = self.items(value, "talent names")
        if items is None:
            return None
        names: list[str] = []
        numbers: list[tuple[str, int]] = []
        for item in items:
            written = self.text(item, "a talent")
            read = None if written is None else self.talent(item, written)
            if read is None:
                continue
            name, number = read
            if name in names:
                self.problem(item, f"{name} is listed twice")
                continue
            names.append(name)
            if number is not None:
                numbers.append((name, number))
        return _Talents(tuple(names), tuple(numbers))

    def talent(self, value: _Value, written: str) -> tuple[str, int | None] | None:
        """One talent as a position writes it: ``Flying``, ``2 Range``, ``Roost 3``."""
        name, number_text = written.strip(), None
        if match := _NUMBER_BEFORE.fullmatch(name):
            number_text, name = match.groups()
        elif match := _NUMBER_AFTER.fullmatch(name):
            name, number_text = match.groups()
        talent = catalogue().resolve(name)
        if talent is None:
            close = catalogue().suggestions(name)
            hint = f"; did you mean {' or '.join(close)}?" if close else " (adjudicator/data/talents.yaml lists them)"
            self.problem(value, f"unknown talent {written!r}{hint}")
            return None
        if number_text is None:
            if talent.numbered:
                self.problem(value, f"{talent.name} takes a number: write it as {talent.written(2)!r}")
                return None
            return talent.name, None
        if not talent.numbered:
            self.problem(value, f"{talent.name} takes no number; write it as {talent.name!r}")
            return None
        number = int(number_text)
        if not 1 <= number <= MAX_TALENT_NUMBER:
            self.problem(value, f"{talent.name}: expected a number from 1 to {MAX_TALENT_NUMBER}, found {number_text}")
            return None
        return talent.name, number

    def pairs(self, value: _Value, what: str) -> list[tuple[str, Node, _Value]] | None:
        """Each entry of a mapping as (key, key node, value); reports odd and duplicate keys."""
        node = value.node
        if node is None:
            return None
        if not isinstance(node, MappingNode):
            self.expected(value, what)
            return None
        first: dict[str, Node] = {}
        entries: list[tuple[str, Node, _Value]] = []
        for key_node, value_node in node.value:
            if not isinstance(key_node, ScalarNode) or key_node.tag == _NULL:
                self.report(key_node, value.path, f"expected a name as key, found {_describe(key_node)}")
            elif key_node.tag == _MERGE:
                self.report(key_node, value.path, "merge keys (<<) are not supported; write the keys out")
            elif key_node.value in first:
                line = first[key_node.value].start_mark.line + 1
                path = _child(value.path, key_node.value)
                self.report(key_node, path, f"duplicate key (first on line {line})")
            else:
                key = str(key_node.value)
                first[key] = key_node
                entries.append((key, key_node, _Value(value_node, _child(value.path, key))))
        return entries

    def fields(self, value: _Value, required: Sequence[str], optional: Sequence[str] = ()) -> _Fields | None:
        """A mapping with fixed keys: reports unknown and missing ones."""
        known = (*required, *optional)
        entries = self.pairs(value, f"a mapping with keys {', '.join(known)}")
        if entries is None:
            return None
        assert isinstance(value.node, MappingNode)  # pairs() accepted it
        values: dict[str, _Value] = {}
        for key, key_node, item in entries:
            if key in known:
                values[key] = item
            else:
                self.report(key_node, item.path, f"unknown key; expected one of {', '.join(known)}")
        for key in required:
            if key not in values:
                self.report(value.node, _child(value.path, key), "is required but missing")
        return _Fields(value.node, value.path, values)

    def plain(self, value: _Value) -> Any:
        """Plain Python data (dicts with str keys, lists, scalars), for the loosely checked parts."""
        node = value.node
        if node is None:
            return None
        if id(node) in self._plain:
            if self._plain[id(node)] is _IN_PROGRESS:
                self.problem(value, "an alias refers to a collection that contains it")
                return None
            return self._plain[id(node)]
        self._plain[id(node)] = _IN_PROGRESS
        if isinstance(node, MappingNode):
            result: Any = {key: self.plain(item) for key, _, item in self.pairs(value, "a mapping") or []}
        elif isinstance(node, SequenceNode):
            result = [self.plain(item) for item in self.items(value, "values") or []]
        else:
            result = self.construct(node)
            if result is _UNREADABLE:
                self.report(node, value.path, f"cannot read a value tagged {node.tag}")
                result = None
        self._plain[id(node)] = result
        return result


@dataclass(frozen=True)
class _Stacked:
    """A unit named in a gate's stack."""

    gate: str  # the gate's faction
    entry: _Value


class _PositionReader(_Reader):
    """Reads a whole position file, checking every name against the map and the other sections.

    A name is checked only against a section that could be read: when the map or the factions are
    broken, their own problems are reported, not a cascade of unknown names.
    """

    def __init__(self, filename: str) -> None:
        super().__init__(filename)
        self.hexes: dict[str, Hex] | None = None
        self.faction_names: set[str] | None = None
        self.controllers: dict[str, Controller] = {}  # the factions read cleanly
        self.gate_names: set[str] | None = None
        self.unit_ids: set[str] | None = None
        self.stacked: dict[str, _Stacked] = {}
        self.barracked: dict[str, _Stacked] = {}  # a unit waiting in its faction's barracks or market
        self.markets: dict[str, _Value] = {}  # a faction's market, where the file gives one (Harbinger chapter 8)
        self.health_chips: dict[str, _Value] = {}  # a gate's health chips, where given (Harbinger chapter 2)
        self.planks: dict[str, _Value] = {}  # a gate's plank hex, where given (Harbinger chapter 2)
        self.maneuvers: dict[str, _Value] = {}  # a gate's next dock and cannon lines, where given (Harbinger chapter 2)
        self.occupied: dict[str, tuple[str, int]] = {}  # hex → (the chip on it, its line)
        self.riding: dict[str, tuple[str, _Value]] = {}  # a rider's id → the chip it rides, and where it says so
        # A unit on top of (Stasis) or underneath (Possess) an opposing minion → (its field, the minion, where).
        self.grasping: dict[str, tuple[str, str, _Value]] = {}

    def document(self, root: Node | None) -> PositionDocument | None:
        if root is None:
            self.report_line(1, "", "the file is empty; expected a position (docs/position-format.md)")
            return None
        top = self.fields(
            _Value(root, ""),
            ("format", "map", "factions", "turn"),
            ("title", "source", "faq", "gates", "spires", "landmarks", "chips", "units", "readings", "ai-priority",
             "scenario", "expected", "hex-groups", "supply", "earthscapes", "earthscape-places",
             "earthscape-stack"),
        )
        if top is None:
            return None
        self.check_format(top["format"])
        hexes, adjacency = self.board(top["map"])
        # Declared names first, so that any section may refer to any other.
        self.faction_names = self.keys(top["factions"], absent=None)
        self.gate_names = self.keys(top["gates"], absent=set())
        self.unit_ids = self.keys(top["units"], absent=set())
        factions = self.section(top["factions"], "faction name → faction", self.faction)
        self.controllers = {name: faction.controller for name, faction in factions.items()}
        # A gate's key is checked against factions; before units: stacks.
        gates = self.section(top["gates"], "faction name → gate", self.gate, ids=False)
        units = self.section(top["units"], "unit id → unit", self.unit)
        for uid, unit in units.items():  # a faction may have no mark only where no minion's move needs one
            unmarked = unit.faction in factions and factions[unit.faction].mark == Mark()
            if unit.kind is Kind.MINION and unit.mark is None and unmarked:
                self.problem(top["units"], f"{uid} is a minion of {unit.faction}, which has no mark (mark: none); "
                             "a minion's move needs one")
        for name, faction in factions.items():  # game-elements, Minion Movement: "the opponent's fortress gate"
            marked = units.get(faction.mark.unit) if faction.mark.unit else None
            if marked is not None and marked.faction == name:
                node = _under(top["factions"].node, name, "mark", "unit")
                self.report(node, _child(_child(_child(top["factions"].path, name), "mark"), "unit"),
                            f"{faction.mark.unit} belongs to {name} itself; a faction's mark is an opponent's")
        spires = self.section(top["spires"], "spire id → spire", self.spire)
        units = self.perch(units, spires, self.keys(top["spires"], absent=set()))
        units = self.grasp(units)
        landmarks = self.section(top["landmarks"], "landmark id → landmark", self.landmark)
        chips = self.section(top["chips"], "chip id → chip", self.chip)
        hex_groups = self.hex_groups(top["hex-groups"], hexes)
        earthscapes = self.earthscapes(top["earthscapes"])
        places = self.earthscape_places(top["earthscape-places"])
        stack = self.earthscape_stack(top["earthscape-stack"])
        # Isles and earthscapes touch (game-elements, Earthscapes: "placed adjacent to existing hex
        # groups"), so the map alone does not tell a rule naming a hex group where one ends.
        for named in ("Imbue: Flying", "Imbue: Pollinate", "Translocate"):  # each reads its spire's hex group
            grouping = sorted(sid for sid, s in (spires or {}).items() if named in s.talents)
            if grouping and top["hex-groups"].node is None:
                self.problem(top["spires"], f"{_listing(set(grouping))} has {named}, which acts on its hex group: "
                             "list the map's hex groups (hex-groups: [[a1, b1, ...], ...]); touching isles are "
                             "separate groups, so the map alone does not tell them")
        sonar = sorted(uid for uid, u in (units or {}).items() if BIOSONAR in u.talents)  # its unit's hex group
        if sonar and top["hex-groups"].node is None:
            self.problem(top["units"], f"{_listing(set(sonar))} has {BIOSONAR}, which explores a landmark on its "
                         "hex group: list the map's hex groups (hex-groups: [[a1, b1, ...], ...]); touching isles "
                         "are separate groups, so the map alone does not tell them")
        # Builder promotes "an adjacent dispatch platform": a spire is one by its printed name alone.
        builders = sorted(uid for uid, u in (units or {}).items() if BUILDER in u.talents)
        unnamed = sorted(sid for sid, sp in (spires or {}).items() if not sp.chip)
        if builders and unnamed:
            self.problem(top["spires"], f"{_listing(set(builders))} has {BUILDER}, which promotes a dispatch platform: "
                         f"give every spire its printed name (chip: Dispatch Platform, ...): {_listing(set(unnamed))}")
        passages = sorted(lid for lid, lm in (landmarks or {}).items() if lm.revealed and SECRET_PASSAGE in lm.talents)
        if passages and top["hex-groups"].node is None:
            self.problem(top["landmarks"], f"{_listing(set(passages))} has Secret Passage, which swaps with an "
                         "unrevealed landmark on an adjacent isle: list the map's hex groups (hex-groups: "
                         "[[a1, b1, ...], ...]); touching isles are separate groups, so the map alone does not tell them")
        turn = self.turn(top["turn"])
        if turn is not None and turn.step == WAVE_END:
            self.check_wave_ended(top["turn"], units or {}, factions or {})
        readings = self.section(top["readings"], "reading name → value", self.reading, ids=False)
        supply = self.supply(top["supply"])
        ai_priority = self.ai_priority(top["ai-priority"])
        scenario = self.scenario(top["scenario"], factions, gates)
        if scenario is not None:
            self.scenario_units(scenario, top["scenario"], top["units"], units, gates)
            self.scenario_spires(scenario, top["spires"], spires)
            self.scenario_chips(scenario, top["chips"], chips, hexes)
            self.scenario_marks(scenario, top["factions"], factions, units or {}, chips or {}, gates)
            if scenario.chapter == 2 and "heirs" in factions and factions["heirs"].mark != Mark():
                self.problem(top["factions"], 'in chapter 2 the heirs mark is none ("Heirs: None"): write mark: none')
            units = scenario_talents(scenario, units, spires)
        elif any(c.infest is not None for c in (chips or {}).values()):
            self.problem(top["chips"], "only chapter 4's rotten worms give an Infest # (chips.<id>.infest): name the "
                         "scenario, or leave infest out")
        self.check_markets(scenario, factions, units or {})
        for name, value in self.planks.items():  # chapter 2: the Horizon's Wrath fortress, whose gate the heirs use
            if scenario is None or scenario.chapter != HEALTH_CHIPS_CHAPTER or name != scenario.book.player:
                self.problem(value, "only the heirs' gate in Harbinger chapter 2 (the Horizon's Wrath fortress) has a plank "
                             "hex; expected scenario: {chapter: 2, …}")
        for name, value in self.maneuvers.items():  # chapter 2: "Horizon's Wrath performs Strategic Maneuver"
            if scenario is None or scenario.chapter != HEALTH_CHIPS_CHAPTER or name != scenario.book.player:
                self.problem(value, "only the heirs' gate in Harbinger chapter 2 (the Horizon's Wrath fortress) docks "
                             "elsewhere as the wave ends; expected scenario: {chapter: 2, …}")
        for name, value in self.health_chips.items():  # chapter 2: "the health chips in the Horizon's Wrath fortress"
            if scenario is None or scenario.chapter != HEALTH_CHIPS_CHAPTER or name != scenario.book.player:
                self.problem(value, "only the heirs' gate in Harbinger chapter 2 (the Horizon's Wrath fortress) holds "
                             "health chips; expected scenario: {chapter: 2, …}")
        if places is not None and (scenario is None or scenario.chapter != PURCHASE_CHAPTER):
            self.problem(top["earthscape-places"], "only Harbinger chapter 3's keel buy an earthscape as a Graft spire "
                         "falls; expected scenario: {chapter: 3, …}")
        if stack and places is None:
            self.problem(top["earthscape-stack"], "the earthscapes under the top one need the top one's placements "
                         "first: give earthscape-places too")
        if earthscapes is not None and (scenario is None or scenario.chapter != EARTHSCAPES_CHAPTER):
            self.problem(top["earthscapes"], "only Harbinger chapter 6's rules read the earthscapes; "
                         "expected scenario: {chapter: 6, …}")
        self.deployment_points(top["gates"], top["factions"], gates, factions, spires, adjacency, scenario)
        if any(h.rock for h in hexes.values()) and (scenario is None or scenario.chapter != 1):
            self.problem(top["map"], "floating rocks (r) belong to Harbinger chapter 1; "
                         "expected scenario: {chapter: 1, …}")
        if scenario is not None and scenario.chapter in CHAPTER_PRIORITY and top["ai-priority"].node is None:
            preset = CHAPTER_PRIORITY[scenario.chapter]
            ai_priority = AiPriority(presets("units")[preset], presets("spires")["standard"])
        faq = self.faq(top["faq"])
        expected = self.expected_outcomes(top["expected"])
        title, source = self.text(top["title"]), self.text(top["source"])
        if turn is None or self.problems:
            return None
        position = Position(
            hexes=hexes,
            adjacency=adjacency,
            gates=gates,
            factions=factions,
            units=units,
            turn=turn,
            spires=tuple(spires.values()),
            landmarks=tuple(landmarks.values()),
            chips=tuple(chips.values()),
            hex_groups=hex_groups,
            earthscapes=earthscapes,
            earthscape_places=places,
            earthscape_stack=stack,
            readings=readings,
            ai_priority=ai_priority,
            scenario=scenario,
            supply=supply,
            title=_or(title, Position.title),
            source=_or(source, Position.source),
        )
        for uid, text, allowed in closest_marks(position):
            self.problem(top["units"], f"{uid}'s mark is \"{text}\" as its faction's movement step begins: expected "
                         f"mark: {' or '.join(m.written for m in allowed)}")
        if self.problems:
            return None
        return PositionDocument(deploy_from_tunnels(position), faq, expected)

    def supply(self, value: _Value) -> dict[str, int] | None:
        """The upgrade chips left in the supply, by kind (a kind not named: none left)."""
        if value.node is None:
            return None
        f = self.fields(value, (), UPGRADES)
        if f is None:
            return None
        counts = {kind: self.integer(f[kind], MAX_SUPPLY) for kind in UPGRADES}
        return {kind: n or 0 for kind, n in counts.items()}

    @staticmethod
    def keys(value: _Value, absent: set[str] | None) -> set[str] | None:
        """The names a section declares; None when it is not a mapping, so names go unchecked."""
        if value.node is None:
            return absent
        if not isinstance(value.node, MappingNode):
            return None
        return {str(key.value) for key, _ in value.node.value if isinstance(key, ScalarNode)}

    def section(
        self, value: _Value, what: str, read: Callable[[str, Node, _Value], T | None], ids: bool = True
    ) -> dict[str, T]:
        """An id-keyed section, keeping the entries that read cleanly; ``ids``: its keys are ids."""
        pairs = self.pairs(value, f"a mapping of {what}") or []
        for key, key_node, item in pairs:
            if ids and not _good_name(key):
                self.report(key_node, item.path, f"expected {NAME}, found {_describe(key_node)}")
        entries = {key: read(key, key_node, item) for key, key_node, item in pairs}
        return {key: entry for key, entry in entries.items() if entry is not None}

    def check_format(self, value: _Value) -> None:
        name = self.text(value, repr(FORMAT))
        if name is not None and name != FORMAT:
            self.expected(value, repr(FORMAT))

    def expected_outcomes(self, value: _Value) -> dict[str, Any]:
        outcomes = self.plain(value)
        if outcomes is None or isinstance(outcomes, dict):
            return outcomes or {}
        self.expected(value, "a mapping (moves, movement-step, attacks, attack-step, spires-fire, turn, check, …)")
        return {}

    # --- the map and the names on it

    def board(self, value: _Value) -> tuple[dict[str, Hex], dict[str, frozenset[str]]]:
        picture = self.text(value, "the map picture (map: | then one row per line)")
        if picture is None or not isinstance(value.node, ScalarNode):
            return {}, {}
        hexes, adjacency, problems = parse_map(picture)
        for problem in problems:
            self.report_line(self.map_line(value.node, problem.line), value.path, problem.message)
        self.hexes = None if problems else hexes
        return hexes, adjacency

    @staticmethod
    def map_line(node: ScalarNode, index: int) -> int:
        """The file line of line ``index`` (0-based) of the map text."""
        if node.style == "|":  # a literal block's text starts on the line after its "|"
            return node.start_mark.line + 2 + index
        return node.start_mark.line + 1  # other styles fold or escape lines: no line-for-line match

    def hex(self, value: _Value) -> str | None:
        name = self.text(value, "a hex name")
        if name is None or self.hexes is None or name in self.hexes:
            return name
        self.problem(value, _not_a_hex(name, self.hexes))
        return None

    def placed(self, value: _Value, chip: str) -> str | None:
        """The hex a chip stands on, claimed for it (place)."""
        at = self.hex(value)
        if at is not None:
            self.place(at, value, chip)
        return at

    def place(self, hex_name: str, value: _Value, chip: str) -> None:
        """Claims a hex for a chip: one chip per hex."""
        assert value.node is not None
        line = value.node.start_mark.line + 1
        if self.hexes is not None and self.hexes[hex_name].rock:
            # chapter 1: "units cannot end their movement on them"; a rock is marked by a chip of its own
            self.problem(value, f"{shown(hex_name)} is a floating rock; no chip stands on one")
        elif hex_name in self.occupied:
            other, other_line = self.occupied[hex_name]
            self.problem(value, f"{shown(hex_name)} already holds {other} (line {other_line}); one chip per hex")
        else:
            self.occupied[hex_name] = (chip, line)

    def reference(self, value: _Value, known: set[str] | None, what: str, section: str) -> str | None:
        """A name that must be declared in ``section``."""
        name = self.text(value, f"a {what} name")
        if name is None or known is None or name in known:
            return name
        self.problem(value, f"no {what} {shown(name)} in {section} ({_listing(known)})")
        return None

    def faction_name(self, value: _Value) -> str | None:
        return self.reference(value, self.faction_names, "faction", "factions")

    # --- factions and gates

    def faction(self, name: str, _key: Node, value: _Value) -> Faction | None:
        f = self.fields(value, ("controller", "mark"),
                        ("source", "source-capacity", "motility", "barracks", "morale", "market", "next-mark",
                         "captives"))
        if f is None:
            return None
        barracks = self.barracks(name, f["barracks"])
        market = self.barracks(name, f["market"])
        if f["market"].node is not None:
            self.markets[name] = f["market"]
        controller = self.choice(f["controller"], [c.value for c in Controller], "a controller")
        mark = self.mark(f["mark"], none=True)
        source = self.integer(f["source"], MAX_SOURCE)
        capacity = self.integer(f["source-capacity"], MAX_SOURCE)
        motility = self.integer(f["motility"], MAX_MOTILITY)
        morale = self.integer(f["morale"], MAX_MORALE)
        captives = self.captives(name, f["captives"])
        limit = _or(capacity, Faction.source_capacity)
        readable = capacity is not None or f["source-capacity"].node is None  # a bad one is reported already
        if source is not None and readable and source > limit:
            self.problem(f["source"], f"{source} is above the faction's Source capacity ({limit})")
        next_mark = None if f["next-mark"].node is None else self.mark(f["next-mark"])
        if next_mark is not None and mark is not None and mark.unit is None:
            self.problem(f["next-mark"], "next-mark is the mark declared once the marked unit is defeated; "
                                         "this faction's mark is no unit")
        if controller is None or mark is None or (f["next-mark"].node is not None and next_mark is None):
            return None
        return Faction(
            name,
            Controller(controller),
            mark,
            _or(source, Faction.source),
            _or(capacity, Faction.source_capacity),
            motility,
            barracks,
            morale,
            market,
            next_mark,
            captives,
        )

    def captives(self, name: str, value: _Value) -> tuple[tuple[str, int], ...] | None:
        """Faction → the minions captured from it beside this faction's fortress (Capture's cap), each another
        faction of the position, 0 to 3."""
        entries = self.pairs(value, "a mapping of faction → minions captured from it (0-3)")
        if entries is None:
            return None
        found = []
        for _, key_node, count in entries:
            other = self.reference(_Value(key_node, count.path), self.faction_names, "faction", "factions")
            if other == name:
                self.problem(count, "a faction captures no minions of its own")
                continue
            number = self.integer(count, MAX_CAPTIVES)
            if other is not None and number is not None:
                found.append((other, number))
        return tuple(sorted(found))

    def mark(self, value: _Value, none: bool = False, kinds: tuple[str, ...] = MARK_KINDS) -> Mark | None:
        """One of ``kinds``: gate, unit or hex, and for a unit's own mark beside (any hex beside a gate
        or unit: Harbinger chapter 5); with ``none``, also the word none: no mark (Harbinger chapter 2,
        "Heirs: None"), an empty Mark."""
        node = value.node
        if none and isinstance(node, ScalarNode) and node.tag == _STR and node.value == "none":
            return Mark()
        f = self.fields(value, (), kinds)
        if f is None:
            return None
        named = list(f.values)
        if len(named) != 1:
            found = " and ".join(named) or "none of them"
            self.problem(value, f"a mark names exactly one of {', '.join(kinds[:-1])} or {kinds[-1]}; found {found}")
            return None
        if "beside" in f.values:
            near = self.mark(f["beside"], kinds=BESIDE_KINDS)
            return None if near is None else Mark(beside=near)
        if "gate" in f.values:
            gate = self.reference(f["gate"], self.gate_names, "gate", "gates")
            return None if gate is None else Mark(gate=gate)
        if "unit" in f.values:
            unit = self.reference(f["unit"], self.unit_ids, "unit", "units")
            return None if unit is None else Mark(unit=unit)
        hex_name = self.hex(f["hex"])
        return None if hex_name is None else Mark(hex=hex_name)

    def gate(self, faction: str, key: Node, value: _Value) -> Gate | None:
        if self.faction_names is not None and faction not in self.faction_names:
            listing = _listing(self.faction_names)
            self.report(key, value.path, f"no faction {shown(faction)} in factions ({listing})")
        f = self.fields(value, ("beside",), ("health", "stack", "fortress", "health-chips", "plank", "maneuver"))
        if f is None:
            return None
        fortress = self.boolean(f["fortress"])
        # Chapter 2: "Place health chips equal to half this number [the heirs' Source tracker], rounded up":
        # at most half of the largest Source, rounded up (checked in scenario_gates).
        chips = self.bounded(f["health-chips"], 0, (MAX_SOURCE + 1) // 2, "the health chips in the fortress")
        if f["health-chips"].node is not None:
            self.health_chips[faction] = f["health-chips"]
        point = fortress is False
        beside = self.beside(f["beside"], empty=point)
        health = self.integer(f["health"], MAX_GATE_HEALTH)
        stack = self.stack(faction, f["stack"])
        if point and f["health"].node is not None:
            self.problem(f["health"], "a deployment point (fortress: false) has no health")
        # Chapter 2: the Horizon's Wrath fortress gate "is adjacent to only the plank hex".
        plank = self.hex(f["plank"]) if f["plank"].node is not None else None
        if f["plank"].node is not None:
            self.planks[faction] = f["plank"]
        maneuver = None
        if f["maneuver"].node is not None:
            self.maneuvers[faction] = f["maneuver"]
            maneuver = self.maneuver(faction, f["maneuver"], f["plank"], plank)
        if beside is None:
            return None
        if plank is not None and list(beside) != [plank]:
            self.problem(f["plank"], f"the fortress gate is \"adjacent to only the plank hex\": expected beside: [{plank}]")
        return Gate(faction, beside, _or(health, Gate.health), _or(stack, Gate.stack), not point, chips, plank=plank,
                    maneuver=maneuver)

    def maneuver(self, faction: str, value: _Value, plank_value: _Value, plank: str | None) -> Maneuver | None:
        """Chapter 2's Strategic Maneuver as the wave ends: the plank cell where the fortress docks next ("the
        next isle clockwise"), sky until it does, beside the map; its 4 cannons' lines from there."""
        f = self.fields(value, ("plank", "cannons"))
        if f is None:
            return None
        if plank_value.node is None:
            self.problem(value, "the fortress docks elsewhere from where it is: give its plank hex too (plank:)")
        dock = self.text(f["plank"], "a hex name")
        if dock is not None and (_HEX_NAME.fullmatch(dock) is None or int(_HEX_NAME.fullmatch(dock)[2]) > MAX_ROW):
            self.problem(f["plank"], f"{shown(dock)} is no hex name (a column letter and a row number)")
            dock = None
        elif dock is not None and self.hexes is not None:
            cell = _HEX_NAME.fullmatch(dock)
            assert cell is not None
            around = {hex_name(c, r) for c, r in neighbour_cells(COLUMNS.index(cell[1]), int(cell[2]))
                      if 0 <= c < len(COLUMNS) and r >= 1}
            if dock in self.hexes:  # the airship is elsewhere until it docks: that cell is sky now
                self.problem(f["plank"], f"{shown(dock)} is a map hex; the plank docks on a cell the map leaves "
                             "empty (.) until the fortress comes")
                dock = None
            elif not around & set(self.hexes):
                self.problem(f["plank"], f"{shown(dock)} touches no map hex; the plank hex \"attaches on all 3 sides\"")
                dock = None
            elif dock == plank:
                self.problem(f["plank"], "the fortress docks at the next isle clockwise, not where it is")
                dock = None
        lines = self.items(f["cannons"], "cannon lines")
        if lines is not None and len(lines) != CANNONS:
            self.problem(f["cannons"], f"expected {CANNONS} lines, one for each cannon (\"1 cannonball from each of "
                         f"their {CANNONS} cannons\"), found {len(lines)}")
            lines = None
        cannons = None if lines is None else _complete([self.cannon(faction, line) for line in lines])
        return None if dock is None or cannons is None else Maneuver(dock, cannons)

    def cannon(self, faction: str, value: _Value) -> tuple[str, ...] | None:
        """One cannon's direct line, nearest first: map hexes, and another faction's fortress gate last where it
        reaches one; sky cells are left out ("Sky and any other chips in this line are ignored")."""
        items = self.items(value, "hex names and a fortress gate")
        if items is None:
            return None
        line: list[str] = []
        for index, item in enumerate(items):
            name = self.text(item, "a hex name or a fortress gate")
            if name is None:
                return None
            if name.startswith("gate:"):
                other = name.removeprefix("gate:")
                if other == faction or self.gate_names is None or other not in self.gate_names:
                    self.problem(item, f"{shown(name)} is no other faction's fortress gate of this position")
                    return None
                if index != len(items) - 1:
                    self.problem(item, "a cannonball stops at the fortress gate: it comes last in its line")
                    return None
            elif self.hex(item) is None:
                return None
            if name in line:
                self.problem(item, f"{shown(name)} comes twice in this line")
                return None
            line.append(name)
        return tuple(line)

    def beside(self, value: _Value, empty: bool = False) -> tuple[str, ...] | None:
        """The hexes a gate touches; ``empty``: none is allowed (a deployment point not in play)."""
        items = self.items(value, "hex names")
        if items == [] and empty:
            return ()
        if items == []:
            self.expected(value, "at least one hex name")
        return _complete([self.hex(item) for item in items]) if items else None

    def hex_groups(self, value: _Value, hexes: dict[str, Any] | None) -> tuple[tuple[str, ...], ...]:
        """The hex groups, each a list of hexes: every map hex in exactly one; none given, ()."""
        groups = self.items(value, "hex groups, each a list of hex names")
        if not groups:
            return ()
        read: list[tuple[str, ...]] = []
        seen: set[str] = set()
        for group in groups:
            items = self.items(group, "hex names")
            if not items:
                self.expected(group, "a list of at least one hex name")
                continue
            mine: list[str] = []
            for item in items:
                name = self.hex(item)
                if name is not None and name in seen:
                    self.problem(item, f"{shown(name)} is already in a hex group; a hex is in one only")
                elif name is not None:
                    seen.add(name)
                    mine.append(name)
            read.append(tuple(sorted(mine)))
        missing = sorted(set(hexes or ()) - seen)
        if missing:
            self.problem(value, f"every hex is in one; these are in none: {_listing(set(missing))}")
        return tuple(read)

    def earthscapes(self, value: _Value) -> tuple[tuple[str, ...], ...] | None:
        """Chapter 6's earthscapes, each a list of its hexes, a hex in one at most; [] where the board has
        none; None: not given."""
        if value.node is None:
            return None
        scapes = self.items(value, "earthscapes, each a list of hex names")
        read: list[tuple[str, ...]] = []
        seen: set[str] = set()
        for scape in scapes or ():
            items = self.items(scape, "hex names")
            if not items:
                self.expected(scape, "a list of at least one hex name")
                continue
            mine: list[str] = []
            for item in items:
                name = self.hex(item)
                if name is not None and name in seen:
                    self.problem(item, f"{shown(name)} is already in an earthscape; a hex is in one only")
                elif name is not None:
                    seen.add(name)
                    mine.append(name)
            read.append(tuple(sorted(mine)))
        return tuple(read)

    def earthscape_places(self, value: _Value) -> tuple[tuple[Hex, ...], ...] | None:
        """Chapter 3: where the top earthscape may be placed, each placement a mapping of cell → terrain token
        (as the map's: p l f m w, * for a Source Well): map hexes it covers, gaps it fills. None: not given."""
        if value.node is None:
            return None
        read: list[tuple[Hex, ...]] = []
        for place in self.items(value, "placements, each a mapping of hex name → terrain") or ():
            node = place.node
            if not isinstance(node, MappingNode) or not node.value:
                self.expected(place, "a mapping of hex name → terrain (p, l, f, m or w, * for a Source Well)")
                continue
            cells: list[Hex] = []
            for key, token in node.value:
                name, letter = str(key.value), str(token.value)
                cell = _HEX_NAME.fullmatch(name)
                terrain = TERRAIN_LETTERS.get(letter.removesuffix("*"))
                if cell is None or int(cell[2]) > MAX_ROW or terrain is None:
                    self.report(key, _child(place.path, name), f"expected a hex name and its terrain (p, l, f, m or w, "
                                f"* for a Source Well), found {shown(name)}: {shown(letter)}")
                    continue
                cells.append(Hex(name, terrain, letter.endswith("*"), column=COLUMNS.index(cell[1]), row=int(cell[2])))
            read.append(tuple(sorted(cells, key=lambda h: h.name)))
        return tuple(read)

    def earthscape_stack(self, value: _Value) -> tuple[tuple[tuple[Hex, ...], ...], ...]:
        """Chapter 3: the earthscapes under the top one, the next first, each a list of its placements as
        earthscape-places' ([]: it can be placed nowhere, only kept). (): not given."""
        if value.node is None:
            return ()
        cards = self.items(value, "earthscapes, each a list of its placements") or ()
        if len(cards) > MAX_EARTHSCAPE_STACK:
            self.problem(value, f"at most {MAX_EARTHSCAPE_STACK} earthscapes lie under the top one (the base game "
                         "and Harbinger print 9 in all)")
        return tuple(self.earthscape_places(card) or () for card in cards)

    def stack(self, faction: str, value: _Value) -> tuple[str, ...] | None:
        """The unit ids waiting in a gate, top first; a unit waits in one place only."""
        return self._waiting(faction, value, self.stacked)

    def barracks(self, faction: str, value: _Value) -> tuple[str, ...] | None:
        """The unit ids waiting in a faction's barracks (Spawn's larva) or market (Harbinger chapter 8), off the
        board; each in one place only."""
        return None if value.node is None else self._waiting(faction, value, self.barracked)

    def _waiting(self, faction: str, value: _Value, seen: dict[str, _Stacked]) -> tuple[str, ...] | None:
        """The unit ids of a list of units waiting off the map, each recorded in ``seen`` with where it
        was listed; one listed already, in a stack or a barracks, is a problem."""
        items = self.items(value, "unit ids")
        if items is None:
            return None
        ids = [self.reference(item, self.unit_ids, "unit", "units") for item in items]
        for unit_id, item in zip(ids, items, strict=True):
            if unit_id is None:
                continue
            earlier = self.stacked.get(unit_id) or self.barracked.get(unit_id)
            if earlier is not None:
                self.problem(item, f"unit {shown(unit_id)} is already in {earlier.entry.path}; a unit waits in one "
                             "place only")
            else:
                seen[unit_id] = _Stacked(faction, item)
        return _complete(ids)

    # --- units

    def unit(self, unit_id: str, _key: Node, value: _Value) -> Unit | None:
        f = self.fields(
            value,
            ("chip", "kind", "health", "stats"),
            ("faction", "at", "terrain", "talents", "upgrades", "promoted", "group", "campfire", "done",
             "reward", "merc", "capacity", "promoted-stats", "must-move", "mark", "carrying", "rides", "used",
             "stasis-on", "possessing", "burrowed", "other-talents"),
        )
        if f is None:
            return None
        chip = self.name(f["chip"])
        kind = self.choice(f["kind"], [k.value for k in Kind], "a kind")
        faction = self.unit_faction(f, kind)
        health = self.integer(f["health"], MAX_HEALTH)
        stats = self.stats(f["stats"])
        at = self.unit_place(unit_id, f)
        self.check_stack_faction(unit_id, faction)
        terrain = self.choice(f["terrain"], [t.value for t in Terrain], "a terrain")
        talents = self.talents(f["talents"])
        upgrades = self.upgrades(f["upgrades"])
        promoted = self.boolean(f["promoted"])
        group = self.group(f["group"])
        campfire = self.boolean(f["campfire"])
        if campfire and kind not in (None, Kind.HERO.value):
            self.problem(f["campfire"], f"only a hero can be in campfire mode; this unit is a {kind}")
        done = self.done(f["done"], talents.names if talents else (None if f["talents"].node is not None else ()))
        must_move = self.boolean(f["must-move"])
        held_by = set(talents.names) if talents else set()
        if must_move and (talents or f["talents"].node is None) and not held_by & set(MUST_MOVE_TALENTS):
            self.problem(f["must-move"], f"expected a unit with {' or '.join(MUST_MOVE_TALENTS)}: only they "
                         "stay put on one turn and must move on the next (docs/position-format.md)")
        reward = self.reward(f["reward"])
        merc = self.boolean(f["merc"])
        capacity = self.integer(f["capacity"], MAX_CAPACITY)
        promoted_stats = self.stats(f["promoted-stats"])
        other_talents = self.talents(f["other-talents"])
        # A "# Range" sets the range of the side that prints it: `talents` the side showing, `other-talents`
        # the other (a promoted unit without promoted-stats shows its basic stats: Unit.side).
        if promoted and promoted_stats is not None:
            promoted_stats = self.ranged(promoted_stats, f, talents, "promoted-stats", "talents")
            stats = self.ranged(stats, f, other_talents, "stats", "other-talents")
        else:
            stats = self.ranged(stats, f, talents, "stats", "talents")
            promoted_stats = self.ranged(promoted_stats, f, other_talents, "promoted-stats", "other-talents")
        mark = self.mark(f["mark"], kinds=OWN_MARK_KINDS) if f["mark"].node is not None else None
        if mark is not None and unit_id in (mark.unit, mark.beside and mark.beside.unit):
            self.problem(f["mark"], "a unit cannot be its own mark")
        carrying = self.names(f["carrying"], "chip names")
        used = self.used(f["used"], talents.names if talents else ())
        burrowed = self.boolean(f["burrowed"])
        if burrowed:  # Burrow: "remove all of its health and place it on any adjacent non-path hex ... It is now inactive"
            if (talents or f["talents"].node is None) and "Burrow" not in (talents.names if talents else ()):
                self.problem(f["burrowed"], "only a unit with Burrow burrows")
            elif f["at"].node is None:
                self.problem(f["burrowed"], "a burrowed unit stands on a map hex: give its `at`")
            elif health not in (None, 0):
                self.problem(f["health"], "a burrowed unit has no health (Burrow: \"remove all of its health\")")
            elif f["group"].node is not None:
                self.problem(f["group"], "a burrowed unit is ungrouped (Burrow: \"Ungrouped only\", \"Leaves group if grouped\")")
        if f["capacity"].node is not None and kind not in (None, Kind.HERO.value):
            self.problem(f["capacity"], f"only a hero has an upgrade capacity; this unit is a {kind}")
        # A minion's promoted side too: a talent may promote or demote it at a defeat (Rally, Dispirit).
        if f["promoted-stats"].node is not None and kind not in (None, Kind.HERO.value, Kind.MINION.value):
            self.problem(f["promoted-stats"], f"only a hero or a minion has a promoted side given; this unit is a {kind}")
        if f["other-talents"].node is not None and kind not in (None, Kind.HERO.value, Kind.MINION.value):
            self.problem(f["other-talents"], f"only a hero or a minion has another side whose talents are given; "
                         f"this unit is a {kind}")
        self.check_health(f, health, stats, promoted, promoted_stats)
        self.check_star(f, stats, talents, promoted_stats)
        self.check_stubborn(f, faction, talents, group)
        self.check_perch(f["talents"], talents)
        self.check_undeployable(unit_id, faction, talents, group)
        if chip is None or faction is None or kind is None or health is None or stats is None:
            return None
        unit = Unit(
            id=unit_id,
            chip=chip,
            faction=faction,
            kind=Kind(kind),
            health=health,
            stats=stats,
            at=at,
            terrain=Terrain(_or(terrain, Unit.terrain.value)),
            talents=talents.names if talents else Unit.talents,
            talent_numbers=talents.numbers if talents else Unit.talent_numbers,
            upgrades=_or(upgrades, Unit.upgrades),
            promoted=_or(promoted, Unit.promoted),
            group=_or(group, Unit.group),
            campfire=_or(campfire, Unit.campfire),
            done=_or(done, Unit.done),
            must_move=_or(must_move, Unit.must_move),
            reward=_or(reward, Unit.reward),
            merc=_or(merc, Unit.merc),
            capacity=capacity,
            promoted_stats=promoted_stats,
            other_talents=other_talents.names if other_talents else None,
            other_talent_numbers=other_talents.numbers if other_talents else Unit.other_talent_numbers,
            mark=mark,
            carrying=_or(carrying, Unit.carrying),
            used=_or(used, Unit.used),
            burrowed=_or(burrowed, Unit.burrowed),
        )
        # Its other side too, which a flip may show this turn (board_after.turn): its talents, its stats there.
        other = replace(unit, talents=unit.other_talents or (), talent_numbers=unit.other_talent_numbers,
                        promoted=not unit.promoted)
        for side, field in ((unit, "talents"), (other, "other-talents")):
            bound = movement_bound(side)
            if bound > MAX_MOVEMENT:
                self.problem(
                    f[field],
                    f"its talents can raise its movement stat to {bound}; the movement encoding follows"
                    f" routes of at most {MAX_MOVEMENT} hexes",
                )
        return unit

    def used(self, value: _Value, held: tuple[str, ...]) -> tuple[str, ...] | None:
        """The once-per-wave talents the unit has used this wave (Call Minion: "Once per wave"; Improve's AI
        wording, "The first time each wave"): each one it holds whose wording says so; a use the position
        does not record is taken as still to come."""
        read = self.talents(value)
        if read is None:
            return None
        for name in read.names:
            talent = catalogue().talents[name]
            if name not in held:
                self.problem(value, f"{name} is used but the unit does not hold it")
            elif not (talent.player or "").startswith(ONCE_PER_WAVE) and not (talent.ai or "").startswith(FIRST_EACH_WAVE):
                self.problem(value, f"expected a talent whose wording begins {ONCE_PER_WAVE!r} (or its AI wording "
                             f"{FIRST_EACH_WAVE!r}): only those are used up for the wave; {name} is not")
        return read.names

    def check_star(self, f: _Fields, stats: Stats | None, talents: _Talents | None, other: Stats | None = None) -> None:
        """An attack stat of * comes with Poison, the one wording that says what it does; a promoted side
        with or without one is not read (docs/position-format.md)."""
        starred = [s for s in (stats, other) if s is not None and s.star]
        if not starred:
            return
        if talents is None or "Poison" not in talents.names:
            self.problem(f["stats"], "an attack stat of * needs the talent Poison, the one wording that says what it does")
        if f.values.get("promoted-stats") is not None:
            self.problem(f["promoted-stats"], "a unit with an attack stat of * cannot have promoted-stats given")

    def check_health(
        self, f: _Fields, health: int | None, stats: Stats | None, promoted: bool | None, promoted_stats: Stats | None
    ) -> None:
        """Health is at most the health stat of the side showing (the top chip's, for a group).

        The health stat is the unit's "maximum health" (FAQ-29). Some effects let health exceed it: the
        heirs' Joust Die, the grovetenders' Forming Die, the keel's Resupply (faction sheets), and in
        the Harbinger, Horizon's Wrath's health chips, Nucleus's event die and Graft units healed by
        naroran attacks. None is modelled, so such a board is refused rather than half read.
        """
        if health is None or stats is None:
            return
        if (promoted is None and f["promoted"].node is not None) or (
            promoted_stats is None and f["promoted-stats"].node is not None
        ):
            return  # which side shows is unknown; its problem is reported already
        side = promoted_stats if promoted and promoted_stats is not None else stats
        if health > side.health:
            which = "its promoted side's health stat" if side is promoted_stats else "its health stat"
            self.expected(f["health"], f"an integer from 0 to {side.health} ({which})")

    def check_stubborn(
        self, f: _Fields, faction: str | None, talents: _Talents | None, group: tuple[GroupedChip, ...] | None
    ) -> None:
        """master-talent-list, Stubborn: "This unit cannot be grouped"; the AI's wording drops it."""
        if not group or self.controllers.get(faction or "") is not Controller.PLAYER:
            return
        if talents and "Stubborn" in talents.names:
            self.problem(f["group"], "a player's Stubborn unit cannot be grouped: expected no chips beneath it")
        for chip in group:
            if "Stubborn" in chip.talents:
                self.problem(f["group"], f"{chip.chip} is Stubborn: a player's Stubborn chip cannot be grouped")

    def check_perch(self, value: _Value, talents: _Talents | None) -> None:
        """Elfin places its elfinkaze "on top of this unit", where it rides the chip (Roost): every chip
        the texts give Elfin has Roost too, which gives the elfinkaze its movement stat (Roost Roam)."""
        if talents and ELFIN in talents.names and ROOST not in talents.names:
            self.problem(value, f"a chip with {ELFIN} needs {ROOST} too: its elfinkaze rides it and takes its "
                         f"movement stat from its {ROOST} number")

    def check_wave_ended(self, value: _Value, units: dict[str, Unit], factions: Iterable[str]) -> None:
        """A position standing at the end of the wave holds no minion that keeps it going: game-elements,
        Defeat, "The current wave ends immediately when all minions in play have been defeated"; a minion
        on a map hex whose talent lets the wave end without it (hook idle/3: Neglected, Precious) stays
        (asp/combat/wave.lp, which counts a minion waiting in its gate as in play, and a landmark minion a
        faction controls as its minion)."""
        def idle(unit: Unit) -> bool:
            return unit.at in (self.hexes or {}) and any("idle/3" in t.hooks for t in catalogue().known(unit.talents))

        keeping = sorted(uid for uid, u in units.items()
                         if (u.kind is Kind.MINION and (uid in self.stacked or u.at is not None) and not idle(u))
                         or (controlled(u, factions) and u.at is not None))
        if keeping:
            self.problem(value, f"the position stands at the end of the wave, but the minions {_listing(set(keeping))} "
                         "are in play and keep it going (game-elements, Defeat: \"The current wave ends immediately "
                         "when all minions in play have been defeated\")")
        # Each such talent ends the wave only where its minions are "the only minion type in play" (asp/combat/wave.lp).
        kinds = sorted({t.name for u in units.values() if u.kind is Kind.MINION and idle(u)
                        for t in catalogue().known(u.talents) if "idle/3" in t.hooks})
        if len(kinds) > 1:
            self.problem(value, f"the position stands at the end of the wave, but minions with {_listing(set(kinds))} "
                         "are in play together: neither is \"the only minion type in play\", so the wave goes on")

    def check_undeployable(
        self, unit_id: str, faction: str | None, talents: _Talents | None, group: tuple[GroupedChip, ...] | None
    ) -> None:
        """Anti-Heirs, Anti-Brawnen: "This unit cannot be deployed by the heir faction" (the AI's: such a
        unit is discarded when selected for deployment, in the Prep Phase). So it never waits in that
        faction's gate stack, where a unit waits to deploy."""
        stacked = self.stacked.get(unit_id)
        if stacked is None or faction is None:
            return
        names = (*(talents.names if talents else ()), *(t for chip in group or () for t in chip.talents))
        for talent, banned in UNDEPLOYABLE.items():
            if talent in names and faction == banned:
                self.problem(stacked.entry, f"unit {shown(unit_id)} has {talent}: it cannot be deployed by the "
                                            f"{shown(banned)} faction, so it never waits in its gate's stack")

    def unit_faction(self, f: _Fields, kind: str | None) -> str | None:
        """A unit's faction; a landmark minion may have none: it opposes every faction."""
        if f["faction"].node is None:
            if kind == Kind.LANDMARK_MINION.value:
                return ""
            if kind is not None:
                self.report(f.node, f["faction"].path, "is required (only a landmark minion has no faction)")
            return None
        return self.faction_name(f["faction"])

    def upgrades(self, value: _Value) -> tuple[str, ...] | None:
        items = self.items(value, "upgrade names")
        if items is None:
            return None
        return _complete([self.choice(item, UPGRADES, "an upgrade") for item in items])

    def reward(self, value: _Value) -> Reward | None:
        f = self.fields(value, (), ("source", "relics", "spire"))
        if f is None:
            return None
        source, relics = self.integer(f["source"], MAX_SOURCE), self.integer(f["relics"], MAX_RELICS)
        spire = self.boolean(f["spire"])
        return Reward(_or(source, Reward.source), _or(relics, Reward.relics), _or(spire, Reward.spire))

    def unit_place(self, unit_id: str, f: _Fields) -> str | None:
        """The unit's hex: a unit is either on the map (``at``), on a roost (``rides``: its hex, once the
        roost is read, ``perch``) or in its gate's stack."""
        stacked = self.stacked.get(unit_id) or self.barracked.get(unit_id)
        held = [name for name in GRASP_FIELDS if f[name].node is not None]
        if held:
            minion = self.text(f[held[0]], "the id of the opposing minion it holds")
            if len(held) > 1 or f["rides"].node is not None:
                self.problem(f[held[-1]], "a unit stands on one chip's hex only: give one of `rides`, `stasis-on`, "
                             "`possessing`")
            elif f["at"].node is not None:
                self.problem(f["at"], f"a unit with `{held[0]}` stands on that minion's hex: give `{held[0]}` or `at`, "
                             "not both")
            elif stacked is not None:
                self.problem(f[held[0]], f"the unit is also in {stacked.entry.path}; it holds a minion or waits off "
                             "the map, not both")
            elif minion is not None:
                self.grasping[unit_id] = (held[0], minion, f[held[0]])
            return None
        if f["rides"].node is not None:
            roost = self.text(f["rides"], "the id of the unit or spire with Roost it rides")
            if f["at"].node is not None:
                self.problem(f["at"], "a unit that rides a roost stands on the roost's hex: give `rides` or `at`, "
                             "not both")
            elif stacked is not None:
                self.problem(f["rides"], f"the unit is also in {stacked.entry.path}; it rides a roost or waits "
                             "off the map, not both")
            elif roost is not None:
                self.riding[unit_id] = (roost, f["rides"])
            return None
        if f["at"].node is None:
            if stacked is None:
                self.report(f.node, f["at"].path,
                            "is required unless the unit waits in its gate's stack, its barracks or its market, "
                            "or rides a roost")
            return None
        if stacked is not None:
            where = stacked.entry.path
            self.problem(f["at"], f"the unit is also in {where}; it is on the map or waits off it, not both")
        return self.placed(f["at"], f"unit {shown(unit_id)}")

    def perch(self, units: dict[str, Unit], spires: dict[str, Spire], spire_ids: set[str] | None) -> dict[str, Unit]:
        """Riders on their roosts' hexes. Only an elfinkaze (Roost Roam) rides, a chip of its faction
        with Roost that stands on the map (master-talent-list, Roost: "Any number of elfinkaze may share
        a hex with this unit or spire"; FAQ-05: two active chips on one hex)."""
        placed = dict(units)
        for uid, (roost, value) in self.riding.items():
            rider = units.get(uid)
            chip: Unit | Spire | None = units.get(roost) or spires.get(roost)
            if chip is None:  # a chip declared but unread has its own problem reported
                if self.unit_ids is not None and spire_ids is not None and roost not in self.unit_ids | spire_ids:
                    self.problem(value, f"no unit or spire {shown(roost)} to ride")
                continue
            if rider is not None and ROOST_RIDER not in rider.talents:
                self.problem(value, f"only an elfinkaze ({ROOST_RIDER}) rides a roost")
            if ROOST not in chip.talents:
                self.problem(value, f"{shown(roost)} has no {ROOST}: an elfinkaze shares a hex only with a chip "
                             "that has it")
            elif chip.at is None:
                self.problem(value, f"{shown(roost)} is not on the map (it rides, or waits in a stack)")
            elif rider is not None and rider.faction != chip.faction:
                self.problem(value, f"{shown(roost)} belongs to {shown(chip.faction)}; an elfinkaze rides only "
                             "its own faction's roost")
            elif rider is not None:
                # Roost Roam: "Its movement stat is the Roost value of the chip with which it most
                # recently shared a hex": on a roost, that roost's.
                number = dict(chip.talent_numbers).get(ROOST)
                if number is not None and rider.side.movement != number:
                    self.problem(value, f"its movement stat is {rider.side.movement}, but {shown(roost)} has "
                                 f"{number} {ROOST}: a rider's movement stat is its roost's number (Roost Roam)")
                placed[uid] = replace(rider, at=chip.at, rides=roost)
        return placed

    def grasp(self, units: dict[str, Unit]) -> dict[str, Unit]:
        """Units on top of (Stasis: `stasis-on`) or underneath (Possess: `possessing`) an opposing minion, on
        its hex: "an adjacent ungrouped opposing faction minion" (master-talent-list), one such minion on
        the map, held by one unit; the unit holds the talent that placed it (docs/position-format.md)."""
        placed = dict(units)
        holders: dict[str, str] = {}
        for uid, (field, minion, value) in self.grasping.items():
            unit, held = units.get(uid), units.get(minion)
            talent = GRASP_FIELDS[field]
            if held is None:
                if self.unit_ids is not None and minion not in self.unit_ids:
                    self.problem(value, f"no unit {shown(minion)} to hold")
                continue
            if unit is None:
                continue
            if talent not in unit.talents:
                self.problem(value, f"only a unit with {talent} is placed {'on top of' if talent == 'Stasis' else 'underneath'} "
                             "a minion by `" + field + "`")
            elif held.kind is not Kind.MINION or held.faction == unit.faction:
                self.problem(value, f"{shown(minion)} is no opposing faction minion ({talent}: \"an adjacent ungrouped "
                             "opposing faction minion\")")
            elif held.at is None or held.rides is not None or minion in self.grasping:
                self.problem(value, f"{shown(minion)} is not on a map hex of its own")
            elif held.group:
                self.problem(value, f"{shown(minion)} is grouped; {talent} holds an ungrouped minion")
            elif minion in holders:
                self.problem(value, f"{shown(minion)} is held by {shown(holders[minion])} already")
            else:
                holders[minion] = uid
                placed[uid] = replace(unit, at=held.at, group=(),
                                      **({"stasis_on": minion} if talent == "Stasis" else {"possessing": minion}))
                if unit.group:
                    self.problem(value, f"{talent} leaves its unit's group: a unit holding a minion has none")
        return placed

    def check_stack_faction(self, unit_id: str, faction: str | None) -> None:
        for stacked in (self.stacked.get(unit_id), self.barracked.get(unit_id)):
            if stacked is not None and faction is not None and faction != stacked.gate:
                message = f"unit {shown(unit_id)} belongs to {shown(faction)}; only {shown(stacked.gate)} units wait here"
                self.problem(stacked.entry, message)

    def stats(self, value: _Value) -> Stats | None:
        f = self.fields(value, ("health",), ("attack", "movement", "range"))
        if f is None:
            return None
        health = self.integer(f["health"], MAX_HEALTH)
        node = f["attack"].node
        # Poison: "If this unit or spire has an attack stat of *" (the harbinger list prints a star).
        star = isinstance(node, ScalarNode) and node.tag != _NULL and str(node.value) in STAR_ATTACK
        attack = None if star else self.integer(f["attack"], MAX_ATTACK)
        movement = self.integer(f["movement"], MAX_MOVEMENT)
        reach = self.integer(f["range"], MAX_RANGE)
        if health is None:
            return None
        return Stats(
            health, _or(attack, Stats.attack), _or(movement, Stats.movement), _or(reach, Stats.range), star
        )

    def ranged(self, stats: Stats | None, f: _Fields, talents: _Talents | None, stats_field: str = "stats",
               talents_field: str = "talents") -> Stats | None:
        """The talent "# Range" is the chip's range (master-talent-list: "This unit attacks and
        retaliates from up to # hexes away"): it sets the range of the stats ``stats_field`` of the side whose
        talents ``talents_field`` print it, and must agree with a range stat given there."""
        number = dict(talents.numbers).get("Range") if talents else None
        if stats is None or number is None:
            return stats
        given = f[stats_field].node is not None and any(
            isinstance(k, ScalarNode) and k.value == "range" for k, _ in f[stats_field].node.value
        )
        if given and stats.range != number:
            self.problem(f[talents_field], f"{number} Range disagrees with the range stat {stats.range}"
                         + (f" of {stats_field}" if stats_field != "stats" else ""))
        return replace(stats, range=number)

    def group(self, value: _Value) -> tuple[GroupedChip, ...] | None:
        items = self.items(value, "grouped chips")
        return None if items is None else _complete([self.grouped_chip(item) for item in items])

    def grouped_chip(self, value: _Value) -> GroupedChip | None:
        f = self.fields(value, ("chip", "stats"), ("talents", "reward", "merc"))
        if f is None:
            return None
        chip = self.name(f["chip"])
        stats = self.stats(f["stats"])
        talents = self.talents(f["talents"])
        stats = self.ranged(stats, f, talents)
        reward = self.reward(f["reward"])
        merc = self.boolean(f["merc"])
        self.check_star(f, stats, talents)
        if chip is None or stats is None:
            return None
        return GroupedChip(
            chip, stats, talents.names if talents else (), _or(reward, GroupedChip.reward), _or(merc, False),
            talents.numbers if talents else (),
        )

    def done(self, value: _Value, talents: tuple[str, ...] | None) -> Done | None:
        keys = ("moved", "attacked", "retaliated", "displaced", "held", "targeted", "silenced")
        f = self.fields(value, (), keys)
        if f is None:
            return None
        moved, attacked, retaliated, displaced, held, targeted, silenced = (self.boolean(f[key]) for key in keys)
        # Only Survival's AI wording holds a unit still so that it does not attack either.
        if held and talents is not None and HOLDING_TALENT not in talents:
            self.problem(f["held"], f"expected a unit with {HOLDING_TALENT}: only its AI wording keeps a unit "
                         "from moving and attacking (docs/position-format.md)")
        if held and moved:
            self.problem(f["held"], "a unit held still did not move")
        return Done(_or(moved, Done.moved), _or(attacked, Done.attacked), _or(retaliated, Done.retaliated),
                    _or(displaced, Done.displaced), _or(held, Done.held), _or(targeted, Done.targeted),
                    _or(silenced, Done.silenced))

    # --- the other sections

    def spire(self, spire_id: str, _key: Node, value: _Value) -> Spire | None:
        f = self.fields(value, ("faction", "at"), ("upgrades", "talents", "reward", "merc", "chip", "arrow", "capacity"))
        if f is None:
            return None
        chip = self.name(f["chip"])
        arrow = self.hex(f["arrow"])
        faction = self.faction_name(f["faction"])
        at = self.placed(f["at"], f"spire {shown(spire_id)}")
        items = self.items(f["upgrades"], "spire upgrades") or []
        upgrades = _complete([self.choice(item, UPGRADES, "a spire upgrade") for item in items])
        talents = self.talents(f["talents"])
        reward = self.reward(f["reward"])
        merc = self.boolean(f["merc"])
        self.check_perch(f["talents"], talents)
        capacity = self.integer(f["capacity"], MAX_CAPACITY)
        if capacity is not None and upgrades is not None and len(upgrades) > capacity:
            self.problem(f["capacity"], f"the spire holds {len(upgrades)} upgrades, more than its capacity {capacity}")
        if faction is None or at is None:
            return None
        if arrow is not None and self.hexes is not None and not line_from(self.hexes, at, arrow):
            self.problem(f["arrow"], f"expected a hex beside the spire's {shown(at)}, got {shown(arrow)}")
            arrow = None
        elif arrow is None and talents and "Directional Attack" in talents.names \
                and self.controllers.get(faction) is not Controller.AI:
            self.problem(value, "a player's spire with Directional Attack needs `arrow`: the hex beside it "
                         "that its arrow points at")
        return Spire(
            spire_id,
            faction,
            at,
            _or(upgrades, Spire.upgrades),
            talents.names if talents else Spire.talents,
            _or(reward, Spire.reward),
            _or(merc, Spire.merc),
            talents.numbers if talents else Spire.talent_numbers,
            _or(chip, Spire.chip),
            _or(arrow, Spire.arrow),
            capacity,
        )

    def landmark(self, landmark_id: str, _key: Node, value: _Value) -> Landmark | None:
        f = self.fields(value, ("at",), ("name", "revealed", "talents", "health", "faction", "reward"))
        if f is None:
            return None
        at = self.placed(f["at"], f"landmark {shown(landmark_id)}")
        faction = self.faction_name(f["faction"]) if f["faction"].node is not None else None
        reward = self.reward(f["reward"]) if f["reward"].node is not None else None
        name = self.name(f["name"])
        revealed = self.boolean(f["revealed"])
        talents = self.talents(f["talents"])
        # Its name does not tell its talents (the reference lists talents, not landmarks), and one left
        # out would go unnoticed: a revealed landmark says them, `[]` for none (docs/position-format.md).
        if revealed and f["talents"].node is None:
            self.problem(value, "a revealed landmark needs `talents`: those printed on its chip, [] for none")
        # Secret Passage: "When this chip is revealed, place 1 health under it. You may attack this chip to
        # remove its health": whether it was removed decides whether heroes may move onto it, so a
        # revealed one says it (0 or 1), and no other landmark has any.
        passage = bool(revealed) and talents is not None and SECRET_PASSAGE in talents.names
        health = self.bounded(f["health"], 0, 1, "the health under a Secret Passage")
        if passage and f["health"].node is None:
            self.problem(value, "a revealed Secret Passage needs `health`: 1 as revealed, 0 once an attack removed it")
        elif not passage and f["health"].node is not None:
            self.problem(f["health"], "only a revealed landmark with Secret Passage has health under it")
        # Overload: "spend 6 Source to discard this landmark and gain its reward": its chip prints the reward,
        # which its name does not tell, so one with it says it, face down too (an exploration may reveal it).
        if talents is not None and OVERLOAD in talents.names and f["reward"].node is None:
            self.problem(value, "a landmark with Overload needs `reward`: what discarding it gains "
                                "({source: N, relics: N, spire: bool})")
        if at is None:
            return None
        return Landmark(landmark_id, at, _or(name, Landmark.name), _or(revealed, Landmark.revealed),
                        talents.names if talents else Landmark.talents, health if passage else None,
                        known=f["talents"].node is not None, faction=faction or "", reward=reward)

    def chip(self, chip_id: str, _key: Node, value: _Value) -> Chip | None:
        f = self.fields(value, ("at",), ("name", "health", "talents", "count", "earthscapes", "infest"))
        if f is None:
            return None
        at = self.placed(f["at"], f"chip {shown(chip_id)}")
        name = self.name(f["name"])
        # Chapter 4's Source vein, "place 3 health chips on the Source vein", and chapter 6's waygates,
        # "placed with 4 health" (checked in scenario_chips).
        health = self.bounded(f["health"], 0, WAYGATE_HEALTH, "a chip's health")
        talents = self.talents(f["talents"])
        count = self.bounded(f["count"], 1, MAX_PILE, "the alike chips on its hex")
        # Chapter 4's Source vein: the earthscapes left on it (checked in scenario_chips). One at least: once
        # all are removed the objective is met and the scenario ends ("Outcome: Scenario ends immediately").
        earthscapes = self.bounded(f["earthscapes"], 1, VEIN_EARTHSCAPES, "the earthscapes left on the Source vein")
        # Chapter 4's rotten worms: the # of the Infest it uses on Bydra Graam (checked in scenario_chips).
        infest = self.bounded(f["infest"], 1, MAX_INFEST, "a rotten worms' Infest #")
        # Only a chip entered as a path hex (hook paved/2: Exposure, the toxic fumes chip) lies with
        # others like it: "A hex can contain multiple toxic fumes"; every other chip, one per hex.
        paved = any("paved/2" in t.hooks for t in catalogue().known(talents.names if talents else ()))
        if count is not None and count > 1 and not paved:
            self.problem(f["count"], "only a chip entered as a path hex (Exposure: the toxic fumes chip) lies "
                         "several to a hex; expected no count, or 1")
        if at is None or (f["health"].node is not None and health is None):  # reported once, above
            return None
        if f["earthscapes"].node is not None and earthscapes is None:
            return None
        return Chip(chip_id, at, _or(name, Chip.name), health, talents.names if talents else Chip.talents,
                    _or(count, Chip.count), earthscapes, infest)

    def turn(self, value: _Value) -> Turn | None:
        f = self.fields(value, ("faction",), ("step", "first-of-round", "first-of-onslaught", "onslaught-start",
                                              "last-of-round"))
        if f is None:
            return None
        faction = self.faction_name(f["faction"])
        step = self.choice(f["step"], STEPS, "a step")
        first = self.boolean(f["first-of-round"])
        onslaught = self.boolean(f["first-of-onslaught"])
        phase = self.boolean(f["onslaught-start"])
        # The phase's start comes before its first turn's start (FAQ-09): that turn is then the first of
        # its round and of its faction's in the phase, and stands at its start.
        if phase and (_or(step, Turn.step) != "start-of-turn" or first is False or onslaught is False):
            self.problem(f["onslaught-start"], "the start of the Onslaught Phase comes before its first turn's "
                         "start: give step: start-of-turn, and neither first-of-round nor first-of-onslaught false")
        last = self.boolean(f["last-of-round"])
        return None if faction is None else Turn(faction, _or(step, Turn.step), first, onslaught, phase, last)

    def ai_priority(self, value: _Value) -> AiPriority | None:
        """The AI's attack priorities: a preset name or a list of categories, for units and spires."""
        f = self.fields(value, (), ("units", "spires"))
        if f is None:
            return None
        units = self.priority_list(f["units"], "units", UNIT_CATEGORIES)
        spires = self.priority_list(f["spires"], "spires", SPIRE_CATEGORIES)
        if units is None or spires is None:
            return None
        return AiPriority(units, spires)

    def priority_list(self, value: _Value, which: str, categories: tuple[str, ...]) -> tuple[str, ...] | None:
        named = presets(which)
        if value.node is None:
            return named["standard"]
        if isinstance(value.node, ScalarNode):
            name = self.choice(value, tuple(named), "a preset")
            return None if name is None else named[name]
        items = self.items(value, "priority categories")
        if items == []:
            self.expected(value, "at least one category")
        if not items:
            return None
        return _complete([self.choice(item, categories, "a category") for item in items])

    def scenario(self, value: _Value, factions: dict[str, Faction], gates: dict[str, Gate]) -> Scenario | None:
        """The Harbinger chapter the position is played in (docs/position-format.md, scenario)."""
        f = self.fields(value, ("chapter",), ("wave", "event"))
        if f is None:
            return None
        number = self.bounded(f["chapter"], 1, len(chapters()), "a chapter")
        if number is None:
            return None
        chapter = chapters()[number]
        wave = self.bounded(f["wave"], 1, chapter.waves, f"a wave of chapter {number}")
        event = self.event(f["event"], number)
        for name, faction in factions.items():
            if name not in chapter.factions:
                self.problem(value, f"no faction {shown(name)} in chapter {number}; expected one of "
                             f"{', '.join(chapter.factions)}")
            elif (faction.controller is Controller.PLAYER) != (name == chapter.player):
                want = "player" if name == chapter.player else "ai"
                self.problem(value, f"in chapter {number} the faction {shown(name)} must be controller: {want}")
        for rule in chapter.rules:
            self.check_gate_mark(value, number, rule.gate_mark, factions, gates)
        return Scenario(number, wave, event)

    def deployment_points(self, value: _Value, factions_value: _Value, gates: dict[str, Gate],
                          factions: dict[str, Faction], spires: dict[str, Spire],
                          adjacency: dict[str, frozenset[str]], scenario: Scenario | None) -> None:
        """A gate that is no fortress (fortress: false) is nobody's mark. In Harbinger chapter 1 the heirs'
        is one: "Heir units deploy from the minaret spire of the number matching the current wave ... If
        the spire isn't active, then the heir units do not deploy": beside the hexes around a spire whose
        chip names a minaret, or beside none."""
        points = {f for f, g in gates.items() if not g.fortress}
        for name, faction in factions.items():
            if faction.mark.gate in points:
                self.problem(factions_value,
                             f"{name}'s mark is {{gate: {faction.mark.gate}}}, which is no fortress (fortress: false)")
        if scenario is None or scenario.chapter != 1 or HEIRS not in gates:
            return
        heirs = gates[HEIRS]
        minarets = [s for s in spires.values() if MINARET in s.chip.casefold()]
        around = [{n for n in adjacency.get(s.at, ()) if n in adjacency} for s in minarets]
        if heirs.fortress or (heirs.beside and set(heirs.beside) not in around):
            self.problem(value, "in chapter 1 the heirs deploy from the minaret spire of the wave: write gates.heirs "
                         "with fortress: false, beside every hex around that spire (chip: Minaret …), or beside: [] "
                         "when it is not active")

    def scenario_marks(self, scenario: Scenario, value: _Value, factions: dict[str, Faction], units: dict[str, Unit],
                       chips: dict[str, Chip], gates: dict[str, Gate]) -> None:
        """A chapter's mark with alternatives, or one that a chip names (scenarios.yaml, `marks`): the faction's
        mark is one of those in play, while one is ("Narora: Source vein OR griege fortress gate"). Which one,
        where several are, is the position's to say (the player's pick, or where the AI's mark now lies)."""
        for rule in scenario.book.rules:
            options = rule.marks
            if options is None:
                continue
            allowed = [Mark(gate=g) for g in options.gates if g in gates and gates[g].health > 0]
            allowed += [Mark(unit=uid) for uid, u in units.items() if chip_name(u.chip) in {chip_name(n) for n in options.units}]
            allowed += [Mark(hex=c.at) for c in chips.values() if chip_name(c.name) in {chip_name(n) for n in options.chips}]
            for name in options.factions:
                if allowed and name in factions and factions[name].mark not in allowed:
                    wanted = " or ".join(sorted(m.written for m in allowed))
                    self.problem(value, f"in chapter {scenario.chapter} the {name} mark is \"{rule.text}\": "
                                 f"expected {wanted}")

    def check_gate_mark(self, value: _Value, chapter: int, gate_mark: tuple[tuple[str, ...], str] | None,
                        factions: dict[str, Faction], gates: dict[str, Gate]) -> None:
        """A chapter's mark that is one fortress gate, while that gate stands in the position."""
        if gate_mark is None or gate_mark[1] not in gates or gates[gate_mark[1]].health < 1:
            return
        owners, gate = gate_mark
        for name in owners:
            if name in factions and factions[name].mark != Mark(gate=gate):
                self.problem(value, f"in chapter {chapter} the {name} mark is {{gate: {gate}}}")

    def scenario_units(
        self, scenario: Scenario, value: _Value, units_value: _Value, units: dict[str, Unit], gates: dict[str, Gate]
    ) -> None:
        """A chapter's rules on the units a position may hold (adjudicator/data/scenarios.yaml, encoded here)."""
        player = scenario.book.player
        if scenario.chapter == 1:
            # "You may have up to 3 heroes in play at a time": on the board or waiting to deploy, since a
            # fourth could not deploy, which the solver does not know.
            heroes = sorted(u.id for u in units.values() if u.faction == player and u.kind is Kind.HERO)
            if len(heroes) > MAX_HEROES_CHAPTER_1:
                self.problem(value, f"chapter 1 allows up to {MAX_HEROES_CHAPTER_1} {player} heroes in play; "
                             f"found {len(heroes)}: {', '.join(heroes)}")
        if not isinstance(units_value.node, MappingNode):
            return
        for key, _ in units_value.node.value:
            unit = units.get(str(key.value))
            if unit is not None:
                self.scenario_unit(scenario, key, unit, units, gates)

    def scenario_unit(
        self, scenario: Scenario, key: Node, unit: Unit, units: dict[str, Unit], gates: dict[str, Gate]
    ) -> None:
        """A chapter's rules on one unit, reported at its key."""
        player = scenario.book.player
        if scenario.chapter == 2 and unit.faction == player and unit.kind is not Kind.HERO:
            # "All heir-controlled units are considered to be heroes."
            self.report(key, f"units.{unit.id}.kind", f"in chapter 2 every {player} unit is kind: hero")
        if scenario.chapter == 4 and chip_name(unit.chip) == ROTTEN_WORMS:
            self.report(key, f"units.{unit.id}.chip", "in chapter 4 rotten worms are inactive: write them "
                        "under chips ({id: {at: hex, name: Rotten Worms}}), which no rule moves or attacks")
        # Chapter 5: Bydra Graam's marks, by whether minions are placed under her (units.<id>.carrying).
        want = bydra_mark(unit, units, gates) if scenario.chapter == 5 else None
        if (scenario.chapter == 5 and want is None and unit.carrying and unit.faction == NARORA
                and chip_name(unit.chip) == BYDRA_GRAAM):
            # "when she has a minion placed under her: Hex adjacent to Nucleus". Nucleus starts on the map
            # and its defeat ends the scenario ("Defeat either the naroran fortress gate or Nucleus"), so
            # with no Nucleus on the map her mark names no hex: the answer would rest on a mark the text never gives.
            self.report(key, f"units.{unit.id}.carrying", "in chapter 5 Bydra Graam with minions placed under her "
                        "heads for a hex beside Nucleus: give one Graft unit with chip Nucleus on the map")
        if want is not None and unit.mark != want:
            under = "minions are placed under her" if unit.carrying else "no minion is placed under her"
            self.report(key, f"units.{unit.id}.mark",
                        f"in chapter 5 Bydra Graam's mark is {want.written} while {under} (carrying)")

    def check_markets(self, scenario: Scenario | None, factions: dict[str, Faction], units: dict[str, Unit]) -> None:
        """Chapter 8: "When triggering the talents Evoke or Summon, you may treat minions in the current market
        options as if they are available in your barracks": a market only there, only the solo player's
        ("you"), and only minions."""
        for name, value in self.markets.items():
            if scenario is None or scenario.chapter != MARKET_CHAPTER:
                self.problem(value, "only Harbinger chapter 8's rules read the market; expected scenario: {chapter: 8, …}")
            elif name != scenario.book.player:
                self.problem(value, f"in chapter 8 only the solo player ({scenario.book.player}) summons from the market")
            market = factions[name].market if name in factions else None
            for unit_id in market or ():
                if unit_id in units and units[unit_id].kind is not Kind.MINION:
                    self.problem(value, f"unit {shown(unit_id)} is no minion; the market's options that Evoke and "
                                 "Summon may take are minions")

    def scenario_spires(self, scenario: Scenario, spires_value: _Value, spires: dict[str, Spire]) -> None:
        """Chapter 8: "The dispatch platform, air clipper, pillar of fire, and creeping vines spires are
        opposing to all factions": so every spire says which chip it is."""
        if scenario.chapter != 8 or not isinstance(spires_value.node, MappingNode):
            return
        for key, _ in spires_value.node.value:
            spire = spires.get(str(key.value))
            if spire is not None and not spire.chip:
                self.report(key, f"spires.{spire.id}.chip", "in chapter 8 every spire gives its printed name "
                            "(chip:), since four spires oppose every faction")

    def scenario_chips(self, scenario: Scenario, chips_value: _Value, chips: dict[str, Chip],
                       hexes: dict[str, Hex]) -> None:
        """The chips with health, which each must give: chapter 4's Source vein ("place 3 health chips on
        the Source vein", set-up: 1 to 3) and chapter 6's waygates ("placed with 4 health": 0 to 4, 0 its
        destroyed side), each on a Source well (Build Waygate: "place a waygate ... onto an adjacent
        Source well"). No other chip, and no chip of another chapter, has any."""
        if not isinstance(chips_value.node, MappingNode):
            return
        for key, _ in chips_value.node.value:
            chip = chips.get(str(key.value))
            if chip is None:
                continue
            vein = scenario.chapter == 4 and chip_name(chip.name) == SOURCE_VEIN
            waygate = scenario.chapter == 6 and chip_name(chip.name) == WAYGATE
            field = f"chips.{chip.id}.health"
            if vein and (chip.health is None or not 1 <= chip.health <= VEIN_HEALTH):
                self.report(key, field, f"in chapter 4 the Source vein gives its health chips (health: 1 to {VEIN_HEALTH})")
            elif waygate and chip.health is None:
                self.report(key, field, f"in chapter 6 a waygate gives its health (health: 0 to {WAYGATE_HEALTH}, "
                            "0 for a destroyed waygate)")
            elif not vein and not waygate and chip.health is not None:
                self.report(key, field, "only chapter 4's Source vein (name: Source Vein) and chapter 6's waygates "
                            "(name: Waygate) have health")
            if chip.earthscapes is not None and not vein:
                self.report(key, f"chips.{chip.id}.earthscapes", "only chapter 4's Source vein (name: Source Vein) "
                            "holds earthscapes")
            if chip.infest is not None and not (scenario.chapter == 4 and chip_name(chip.name) == ROTTEN_WORMS):
                self.report(key, f"chips.{chip.id}.infest", "only chapter 4's rotten worms (name: Rotten Worms) give "
                            "an Infest #")
            if waygate and chip.at in hexes and not hexes[chip.at].well:
                self.report(key, f"chips.{chip.id}.at", "a waygate stands on a Source well (Build Waygate: "
                            '"onto an adjacent Source well"): mark its hex with * in the map')

    def bounded(self, value: _Value, low: int, high: int, what: str) -> int | None:
        node = value.node
        if node is None:
            return None
        number = self.construct(node) if node.tag == _INT else None
        if isinstance(number, int) and low <= number <= high:
            return number
        self.expected(value, f"{what}, an integer from {low} to {high}")
        return None

    def event(self, value: _Value, chapter: int) -> tuple[int, ...] | None:
        """The event die results rolled this wave: one face, or a list of them."""
        if value.node is None:
            return None
        if not chapters()[chapter].event_die:
            self.problem(value, f"chapter {chapter} has no event die; leave out event")
            return None
        what = f"a die result from 1 to 6, or a list of at most {MAX_EVENT_ROLLS} of them"
        items = [value] if isinstance(value.node, ScalarNode) else self.items(value, what)
        if not items or len(items) > MAX_EVENT_ROLLS:
            if items is not None:
                self.expected(value, what)
            return None
        faces = [self.bounded(item, 1, len(DIE_FACES), "a die result") for item in items]
        return None if None in faces else tuple(f for f in faces if f is not None)

    def reading(self, name: str, key: Node, value: _Value) -> str | None:
        """An interpretation switched by the file (docs/readings.md): a known name and one of its values."""
        reading = READINGS.get(name)
        if reading is None:
            self.report(key, value.path, f"unknown reading; expected one of {', '.join(sorted(READINGS))}")
            return None
        return self.choice(value, reading.values, f"a value of reading {name}")

    def faq(self, value: _Value) -> tuple[str, ...]:
        items = self.items(value, "FAQ ids") or []
        ids = [self.text(item, "an FAQ id such as FAQ-17") for item in items]
        for faq_id, item in zip(ids, items, strict=True):
            if faq_id is not None and not _FAQ_ID.fullmatch(faq_id):
                self.expected(item, "an FAQ id such as FAQ-17")
        return tuple(i for i in ids if i is not None)


def _not_a_hex(name: str, hexes: dict[str, Hex]) -> str:
    """Why ``name`` is no hex, naming the columns and rows the map has."""
    last_column = max(h.column for h in hexes.values())
    rows = [h.row for h in hexes.values()]
    cell = _HEX_NAME.fullmatch(name)
    row = int(cell[2]) if cell and len(cell[2]) <= len(str(MAX_ROW)) else None  # no int() of 5000 digits
    if cell and row is not None and COLUMNS.index(cell[1]) <= last_column and min(rows) <= row <= max(rows):
        return f"{shown(name)} is a gap (.) in the map, not a hex"
    extent = f"columns a–{COLUMNS[last_column]}, rows {min(rows)}–{max(rows)}"
    return f"{shown(name)} is not a hex on the map ({extent})"
