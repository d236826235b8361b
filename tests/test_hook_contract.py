"""The contract a talent or chapter file is written against (asp/core/hooks.lp, asp/doc.lp), checked:
such a file defines only hooks or predicates of its own, each talent file belongs to the catalogue,
the catalogue says which hooks each file uses, and asp/doc.lp names exactly what exists."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from clingo import Function, Number, String, Symbol, ast
from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.facts.board import Query, position_facts
from adjudicator.facts.combat import ATTACK, FIRE, STEP, CombatQuery, combat_facts
from adjudicator.position.dice import shipped_die
from adjudicator.position.load import load_position
from adjudicator.questions.adjudicate import present_units
from adjudicator.questions.whole_solve import WHOLE, movement_hooks
from adjudicator.solving.solve import COMBAT, EXPLAIN, MOVE, ground
from adjudicator.position.readings import READINGS, resolve
from adjudicator.position.model import Position
from adjudicator.position.talents import Talent, catalogue
from tests.asp_predicates import ASP, Predicate, core_files, extension_files, hooks, uses


@cache
def _core() -> tuple[frozenset[Predicate], frozenset[Predicate]]:
    defined: set[Predicate] = set()
    read: set[Predicate] = set()
    for path in core_files():
        found = uses(path)
        defined |= found.heads
        read |= found.reads | found.declared
    return frozenset(defined), frozenset(read)


def _doc_names() -> set[Predicate]:
    """Every name/arity of asp/doc.lp, and every name(Args) written out, with its arity."""
    doc = (ASP / "doc.lp").read_text()
    names = {(m[1], int(m[2])) for m in re.finditer(r"\b([a-z_]\w*)/(\d+)\b", doc)}
    for m in re.finditer(r"\b([a-z_]\w*)\(", doc):
        depth, arity, i = 1, 1, m.end()
        while i < len(doc) and depth:
            depth += {"(": 1, ")": -1}.get(doc[i], 0)
            arity += doc[i] == "," and depth == 1
            i += 1
        names.add((m[1], arity))
    return names


@pytest.mark.parametrize("path", extension_files(), ids=lambda p: p.name)
def test_a_talent_or_chapter_file_defines_only_hooks_and_predicates_of_its_own(path) -> None:
    defined, read = _core()
    wrong = sorted(p for p in uses(path).heads - hooks() if p in defined or p in read)
    assert not wrong, f"{path.name} defines core predicates {wrong}: a talent may define only hooks"


# Hooks the core adds to as well, by design (asp/core/hooks.lp says what the core's rule does): the
# attack stat's strikes, the hits every attack deals, the chips an attack touches; a faction sheet's act
# once a move ends (movement/shada.lp: the shada's placement on a Source well).
CORE_ADDS_TO = {("strikes", 2), ("take", 5), ("touch", 2), ("aftermove_act", 5), ("act_may", 2)}


def test_a_hook_is_no_core_predicate_unless_the_core_adds_to_it() -> None:
    """A hook's name taken by a core predicate of another meaning would join the two: a talent's
    facts would reach rules written for the other (a Queen's Blood 'barred' once met the escape's)."""
    defined, _ = _core()
    assert sorted(hooks() & defined) == sorted(CORE_ADDS_TO)


def _naming(path: Path, unit: str) -> Symbol:
    """The fact that makes a question ground ``path``: its chapter, or a talent of its on ``unit``."""
    if path.parent.name == "scenarios":
        return Function("scenario", [Number(int(path.stem.removeprefix("chapter_")))])
    name = next(t.name for t in catalogue().talents.values() if t.encoding == path.name)
    return Function("talent", [String(unit), String(name)])


@pytest.mark.parametrize("path", extension_files(), ids=lambda p: p.name)
def test_a_talent_or_chapter_file_grounds_without_a_warning_in_every_part(path: Path) -> None:
    # Grounded alone beside the core, every part a question grounds: a predicate misspelt, or read from
    # another talent's file, draws a warning (solve.STRICT, set for the tests, raises it). Which
    # predicates the program defines decides the warnings, not the board: one small board serves.
    position = load_position(ASP.parent / "positions/rulebook/joust-harrier-jaelana.yaml")
    side = position.turn.faction
    units = present_units(position, side)
    naming = _naming(path, units[0])
    movement = position_facts(position, Query(units, frozenset({side}), stepping=True, whole=True))
    for parts in (MOVE, EXPLAIN, WHOLE):
        ground([*movement, naming], parts)
    # One unit's moves leave the solver no rule: a rule left means an unstratified part, which costs the
    # grounder most of its speed (tests/position_checks.py grounds_to_facts, on boards of a fixed sample).
    control = ground([*position_facts(position, Query(units)), naming], MOVE)
    control.solve()
    assert control.statistics["problem"]["lp"]["bodies"] == 0, f"{path.name} leaves a rule to the solver"
    readings = resolve(position.readings)
    spires = tuple(s.id for s in position.spires if s.faction != side)
    for combat in (CombatQuery(ATTACK, STEP, side, frozenset({side}), 2, readings=readings),
                   CombatQuery(FIRE, STEP, side, frozenset(), len(spires), fire_order=spires, readings=readings,
                               die=shipped_die(readings["spire-die"]))):
        ground([*combat_facts(position, combat), naming], COMBAT)


def test_each_talent_file_belongs_to_the_catalogue_and_each_entry_has_its_file() -> None:
    named = {t.encoding for t in catalogue().talents.values() if t.encoding not in (None, "core")}
    files = {p.name for p in (ASP / "talents").glob("*.lp")}
    assert files - named == set(), "talent files no catalogue entry names"
    assert named - files == set(), "catalogue encodings with no file"


@pytest.mark.parametrize("talent", [t for t in catalogue().talents.values() if t.encoding not in (None, "core")],
                         ids=lambda t: t.name)
def test_the_catalogue_names_the_hooks_each_file_defines(talent) -> None:
    defined = uses(ASP / "talents" / talent.encoding).heads & hooks()
    assert sorted(talent.hooks) == sorted(f"{n}/{a}" for n, a in defined)


def test_a_combat_question_grounds_no_rule_of_the_movement_files() -> None:
    # asp/main.lp: a combat question grounds the base and combat parts only, so every rule of the
    # movement files is in the move part (or the whole step's parts), none left in base by a file that
    # forgot its #program move.
    for path in [*sorted((ASP / "movement").glob("*.lp")), ASP / "core/reach.lp"]:
        parts: set[str] = set()
        current = ["base"]

        def take(statement: ast.AST) -> None:
            if statement.ast_type is ast.ASTType.Program:
                current[0] = statement.name
            elif statement.ast_type is ast.ASTType.Rule:
                parts.add(current[0])

        ast.parse_files([str(path)], take)
        assert parts and parts <= {"move", "whole", "witness"}, f"{path.name} has rules in {sorted(parts)}"


def test_doc_names_every_hook_and_every_predicate_the_core_defines() -> None:
    defined, _ = _core()
    missing = sorted((defined | hooks()) - _doc_names())
    assert not missing, f"asp/doc.lp does not name {missing}"


def test_every_name_doc_gives_as_name_arity_exists() -> None:
    doc = (ASP / "doc.lp").read_text()
    everything: set[Predicate] = set()
    for path in ASP.rglob("*.lp"):
        if path.name not in ("doc.lp", "main.lp"):
            found = uses(path)
            everything |= found.heads | found.reads | found.declared
    stale = sorted({(m[1], int(m[2])) for m in re.finditer(r"\b([a-z_]\w*)/(\d+)\b", doc)} - everything)
    assert not stale, f"asp/doc.lp names predicates no encoding has: {stale}"


def test_talents_lists_those_of_one_hook() -> None:
    result = CliRunner().invoke(app, ["talents", "--hook", "mv_add", "--json"])
    names = {t["name"] for t in json.loads(result.stdout)["talents"]}
    assert {"Speed", "Gust"} <= names
    assert "Snare" not in names


def test_the_catalogue_gives_python_what_each_movement_stat_hook_changes() -> None:
    # Python bounds a question by the catalogue's `movement` entry (position/movement_stat.py), never
    # by a talent's name: a talent whose file adds to the stat or sets the allowance must say how much.
    for talent in catalogue().talents.values():
        effect, hooks_used = talent.movement, set(talent.hooks)
        assert ("mv_add/3" in hooks_used) == (effect.adds > 0), talent.name
        assert ("allow_set/3" in hooks_used) == (effect.gains is not None or effect.only is not None), talent.name
        assert effect.sets is None or "mv_set/3" in hooks_used, talent.name


def _reading_parts() -> dict[str, set[str]]:
    """Which part of the encodings reads each reading: a line's `#program combat` or its file under
    asp/combat/ makes it combat; every other line is the movement step's (base, explain, reach)."""
    parts: dict[str, set[str]] = {}
    for path in ASP.rglob("*.lp"):
        if path.name == "doc.lp":
            continue
        program = "base"
        for line in path.read_text().splitlines():
            if started := re.match(r"#program (\w+)", line):
                program = started[1]
            for name in re.findall(r"reading\((\w+),", line.split("%")[0]):
                combat = program == "combat" or path.parent.name == "combat"
                parts.setdefault(name.replace("_", "-"), set()).add("combat" if combat else "movement")
    return parts


def test_each_reading_names_the_parts_of_the_encodings_that_read_it() -> None:
    # `cloudspire readings` re-asks only the questions of a reading's parts: a part it leaves out would
    # hide an effect. Readings only Python reads (spire-die, ai-spire-odds) are declared by hand.
    read = _reading_parts()
    assert set(read) <= set(READINGS)
    for name, parts in read.items():
        assert parts <= set(READINGS[name].parts), name


def _hook_atoms(position: Position, talent: Talent, ai: bool) -> list[Symbol]:
    """The movement hooks' atoms of ``talent`` a question on the turn's faction grounds, in every movement
    part, its units holding no other talent."""
    position = replace(position, units={u: replace(x, talents=tuple(n for n in x.talents if n == talent.name))
                                        for u, x in position.units.items()})
    side = position.turn.faction
    query = Query(present_units(position, side), frozenset({side}) if ai else frozenset(), stepping=True, whole=True)
    control = ground(position_facts(position, query), WHOLE)
    return [a.symbol for a in control.symbolic_atoms
            if f"{a.symbol.name}/{len(a.symbol.arguments)}" in movement_hooks() & set(talent.hooks)]


@pytest.mark.parametrize("talent", [t for t in catalogue().talents.values() if t.own_move], ids=lambda t: t.name)
def test_a_talent_of_its_own_units_move_names_that_unit_first_in_each_hook(talent) -> None:
    # The whole step in one solve leaves such a talent out on a unit that makes no move (whole_solve.idle):
    # sound only if each of its hook atoms is about its own unit's move, that unit first, as the core
    # reads these hooks (hooks.lp: "unit U's move", "before unit U moves", "U's player").
    assert set(talent.hooks) & movement_hooks() <= OF_THE_MOVER, talent.name
    found = 0
    for path in talent.positions:
        position = load_position(ASP.parent / path)
        holders = {String(u) for u, x in position.units.items() if talent.name in x.talents}
        for ai in (False, True):
            atoms = _hook_atoms(position, talent, ai)
            assert all(a.arguments[0] in holders for a in atoms), (path, [str(a) for a in atoms if a.arguments[0] not in holders])
            found += len(atoms)
    assert found, f"{talent.name}: no position of its own grounds one of its hooks"


# The movement hooks whose first argument is the unit whose move they change, read by the core only of a
# unit that moves (a minion's routes, a hero's walk, the acts before and after its move, its stat).
OF_THE_MOVER = frozenset({
    "scorches/5", "scorch_may/2", "ai_enter_pref/3", "act_may/2", "beforemove_act/4", "aftermove_act/5", "act_then/3",
    "aftermove/5", "aftermove_may/2", "aftermove_life/4", "aftermove_low/4", "aftermove_exit/4", "aftermove_place/4",
    "aftermove_pick/6", "aftermove_instead/2", "through/3", "counts_through/2", "crushes/3", "closest/2", "shoves/4",
    "may_stay/2", "holds/2", "discard_roll/4", "pays/3", "steals/3", "pass_first/2", "must_use/3", "at_one/2",
})


@pytest.mark.parametrize("talent", [t for t in catalogue().talents.values()
                                    if t.ai_no_effect == "units" and set(t.hooks) & movement_hooks()],
                         ids=lambda t: t.name)
def test_a_talent_that_does_not_trigger_for_ai_units_grounds_no_hook_of_a_moving_ai_unit(talent) -> None:
    # whole_solve.idle leaves such a talent out on a unit of a faction the question plays as the AI.
    for path in talent.positions:
        position = load_position(ASP.parent / path)
        movers = {String(u) for u in present_units(position, position.turn.faction)}
        named = [str(a) for a in _hook_atoms(position, talent, True) if a.arguments and a.arguments[0] in movers]
        assert not named, (path, named)
