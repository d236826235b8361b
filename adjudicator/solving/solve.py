"""Run clingo on the encodings in asp/ with a list of fact Symbols; return the shown atoms."""

from __future__ import annotations

import re
import time
from hashlib import sha256
from itertools import islice
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cache, lru_cache
from pathlib import Path
from typing import NamedTuple

import clingo
from clingo import Symbol, ast

from adjudicator.position.data import PACKAGE, derived
from adjudicator.position.talents import catalogue


@cache
def encoding_dir() -> Path:
    """asp/ beside the package in a checkout, adjudicator/asp inside an installed wheel."""
    packaged = PACKAGE / "asp"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "asp"


# The entry file's includes, in order: it holds nothing else (tests/test_derived.py checks it), so each
# included file is parsed by itself, once a question needs a part it holds.
_INCLUDE = re.compile(r'^#include "([^"]+)"\.', re.MULTILINE)


@cache
def _files(entry: str) -> tuple[str, ...]:
    """The encoding files ``entry`` stands for: main.lp's includes, or a talent's or chapter's file."""
    if entry != "main.lp":
        return (entry,)
    return tuple(_INCLUDE.findall((encoding_dir() / entry).read_text(encoding="utf-8")))


@cache
def _parsed(file: str) -> dict[str, tuple[ast.AST, ...]]:
    """One encoding file parsed once per process, by program part: ``base`` (the board, inputs and
    hooks), ``move``, ``explain``, ``combat``, ``whole`` and ``witness``; each part's statements begin
    with the #program that opens them (a file begins in base), and a part the file leaves empty is
    absent. Parsed only to make the outlines (_outlines), which keep each statement's text."""
    parts: dict[str, list[ast.AST]] = {}
    current = parts.setdefault("base", [])

    def take(statement: ast.AST) -> None:
        nonlocal current
        kind = statement.ast_type  # each read is a call into clingo
        if kind is ast.ASTType.Comment:  # adding one costs as much as a rule's
            return
        if kind is ast.ASTType.Program:
            current = parts.setdefault(statement.name, [])
        current.append(statement)

    ast.parse_files([str(encoding_dir() / file)], take)
    # A part of nothing but its #program (the base a file begins in) is none.
    return {name: tuple(statements) for name, statements in parts.items()
            if any(s.ast_type is not ast.ASTType.Program for s in statements)}


# The facts that name a chip's talent, and the argument that holds the name (asp/doc.lp).
_TALENT_FACTS = {("talent", 2): 1, ("ltalent", 3): 2, ("stalent", 2): 1, ("otalent", 2): 1, ("mtalent", 2): 1, ("ftalent", 2): 1}
_TALENT_NAMES = frozenset(name for name, _ in _TALENT_FACTS)
# How the facts that choose encoding files (talent_files, scenario_files) begin, rendered.
_CHOOSING = tuple(f"{name}(" for name in (*_TALENT_NAMES, "scenario"))


def talent_files(facts: Iterable[Symbol]) -> list[str]:
    """The talent encodings (asp/talents/) this question needs: those of the talents its facts name.
    A talent no chip holds is never grounded, so the catalogue's size costs a question nothing."""
    names: set[str] = set()
    for fact in facts:
        if fact.name not in _TALENT_NAMES:  # the name first: reading a Symbol's arguments is dearer
            continue
        arguments = fact.arguments
        where = _TALENT_FACTS.get((fact.name, len(arguments)))
        if where is not None:
            names.add(arguments[where].string)
    if not names:
        return []
    return [f"talents/{name}" for name in catalogue().encoding_files(names)]


def scenario_files(facts: Iterable[Symbol]) -> list[str]:
    """The chapter encoding (asp/scenarios/chapter_N.lp) of the Harbinger chapter the facts name, if
    that chapter has one: grounded only then (adjudicator/data/scenarios.yaml says what each encodes)."""
    for fact in facts:
        if fact.name == "scenario" and len(fact.arguments) == 1:
            name = f"scenarios/chapter_{fact.arguments[0].number}.lp"
            return [name] if (encoding_dir() / name).is_file() else []
    return []


class EncodingWarning(Exception):
    """clingo warned about the program itself (an undefined atom is usually a misspelt predicate)."""


# Set, every grounding raises EncodingWarning on any grounder warning: the tests set it
# (tests/conftest.py), so that each program any test grounds, with whichever talent and chapter files,
# is checked for misspelt predicates.
STRICT = False


def render(facts: Iterable[Symbol]) -> str:
    """Facts as clingo itself prints the Symbols: every string quoted and escaped by clingo."""
    return "".join(f"{fact}.\n" for fact in facts)


def _control(
    arguments: list[str], facts: Sequence[Symbol], fixed: str, parts: tuple[str, ...], projected: bool = True,
) -> clingo.Control:
    """The encodings' ``parts`` plus ``facts`` (in the base part), grounded; without their #project
    statements unless ``projected`` (clasp takes brave and cautious consequences over those atoms only)."""
    warnings: list[str] = []

    def log(code: clingo.MessageCode, message: str) -> None:
        warnings.append(message)

    control = clingo.Control(
        [*arguments, "--warn=all" if STRICT else "--warn=none"], logger=log if STRICT else None
    )
    lines = [_line(fact) for fact in facts]
    statements, undefined = _statements(facts, lines, fixed, parts, projected)
    control.add("base", [], statements)
    # Facts go in as program text rendered by clingo itself from the Symbols (str() quotes and escapes
    # every string), so the grounder knows they hold and simplifies; backend atoms would stay undecided.
    control.add("base", [], fixed + "".join(lines) + undefined)
    control.ground([(part, []) for part in parts])
    if STRICT and warnings:
        raise EncodingWarning("\n".join(warnings))
    return control


def _statements(
    facts: Sequence[Symbol], lines: list[str], fixed: str, parts: tuple[str, ...], projected: bool,
) -> tuple[str, str]:
    """The encoding statements a question with these facts grounds (its talents' and chapter's files,
    sliced), and the #defined declarations of what the slice left out."""
    choosing = _choosing(facts, lines)
    files = ("main.lp", *talent_files(choosing), *scenario_files(choosing))
    statements, undefined, unknown = _sliced(files, parts, projected, facts, lines, fixed)
    if STRICT and unknown:
        raise EncodingWarning(f"no rule defines {', '.join(unknown)}, which a rule reads")
    return statements, undefined


# Each fact's line, kept: the boards of a whole turn share most of their facts, and rendering a Symbol
# takes four of clingo's C calls, looking one up a tenth of the time.
@lru_cache(maxsize=1 << 18)
def _line(fact: Symbol) -> str:
    return f"{fact}.\n"


def _choosing(facts: Sequence[Symbol], lines: list[str]) -> list[Symbol]:
    """Those of the facts that choose encoding files: picked by their text, which is rendered anyway, for
    reading each Symbol's name through clingo's C API costs more."""
    return [fact for fact, line in zip(facts, lines) if line.startswith(_CHOOSING)]


# Slicing. A grounding costs by the rule, whatever the board: some 50 us a rule, most of a combat
# question's time where its board is small. A rule one of whose body atoms (outside aggregates and
# conditions) no fact and no other rule that may fire can make true never fires, and leaving it out
# changes no answer set; a question adds only the rules that may fire (an edge of the turn, with no
# talent that acts then, none of the attack rules). The test is by predicate, and by the constants an
# atom of a fact predicate names (combat(attack), mode(split)): coarse, so never wrong. The predicates
# such rules define are declared (#defined), so that the grounder warns of no atom a rule left reads.

Predicate = tuple[str, int]
# A positive body atom: its name, arity and the constant arguments it names (as clingo prints them), by position.
_Need = tuple[str, int, tuple[tuple[int, str], ...]]


class _Shape(NamedTuple):  # a tuple, not a frozen dataclass: a thousand are made from the outlines read back
    """A statement's text (as clingo prints it, which it parses back the same) and what slicing reads
    of it: the predicates it defines and its positive body atoms (None for a statement always kept),
    whether it is a #project, and the predicate it declares #defined."""

    statement: str
    heads: tuple[Predicate, ...] | None
    needs: tuple[_Need, ...]
    project: bool
    declares: Predicate | None


_NESTED = re.compile(r'["(\[{)\]}]')


@cache
def _tokens(separator: str) -> re.Pattern[str]:
    return re.compile(r'"(?:[^"\\]|\\.)*"|' + re.escape(separator) + r"|[(\[{)\]}]")


def _split(text: str, separator: str) -> list[str]:
    """``text`` cut at each ``separator`` outside brackets and strings."""
    if separator not in text:
        return [text]
    if _NESTED.search(text) is None:
        return text.split(separator)
    pieces, depth, start = [], 0, 0
    for token in _tokens(separator).finditer(text):
        if token[0] == separator and depth == 0:
            pieces.append(text[start:token.start()])
            start = token.end()
        elif token[0][0] in "([{":
            depth += 1
        elif token[0][0] in ")]}":
            depth -= 1
    pieces.append(text[start:])
    return pieces


_NAME = re.compile(r"[a-z_][A-Za-z0-9_']*")
_CONSTANT = re.compile(r"""[a-z][A-Za-z0-9_']*|-?[0-9]+|"(?:[^"\\]|\\.)*\"""")


def _atom(text: str) -> _Need | None:
    """An atom as clingo prints it, as a need: None for anything else (a negation, a comparison, an
    aggregate, a conditional literal, a classical negation)."""
    text = text.strip()
    name = _NAME.match(text)
    if name is None or text.startswith("not "):
        return None
    rest = text[name.end():]
    if not rest:
        return name[0], 0, ()
    inner = rest[1:-1]
    # p(X) alone, not p(X) : q(X) nor p(X) < q(Y): its first bracket closes last.
    if rest[0] != "(" or rest[-1] != ")" or (")" in inner and len(_split(inner, ")")) > 1):
        return None
    arguments = _split(_split(inner, ";")[0], ",")  # a pool's first alternative: p(a;b)
    constants = tuple((i, a) for i, a in enumerate(arguments) if _CONSTANT.fullmatch(a))
    return name[0], len(arguments), constants


def _head(text: str) -> set[Predicate]:
    """The predicates a head defines: its atoms, not their conditions (a choice's, a disjunction's)."""
    inner = text[text.index("{") + 1:text.rindex("}")] if _split(text, "{")[1:] else text
    found = (_atom(_split(element, ":")[0]) for element in _split(inner, ";"))
    return {need[:2] for need in found if need is not None}


def _body(text: str) -> tuple[_Need, ...]:
    # Conditional literals and aggregates are not read: coarser, never wrong.
    return tuple(need for element in _split(text, ";") if (need := _atom(element)) is not None)


# A statement's text and what slicing reads of it: kept on disk (position/data.py, derived), so that a
# process parses no encoding: a question adds the texts of the statements it keeps, which clingo parses
# faster than it takes the parsed statements through Python.
_Outline = tuple[str, tuple[Predicate, ...] | None, tuple[_Need, ...], bool, Predicate | None]


def _outline(statement: ast.AST) -> _Outline:
    """A rule's, a conditional #show's or an #external's heads and needs, read from its text as clingo
    prints it (walking the AST through clingo's API costs 20 times more); any other statement is kept."""
    kind = statement.ast_type
    project = kind == ast.ASTType.ProjectSignature
    declares = (statement.name, statement.arity) if kind == ast.ASTType.Defined else None
    text = str(statement)
    if kind not in (ast.ASTType.Rule, ast.ASTType.ShowTerm, ast.ASTType.External):
        return text, None, (), project, declares
    if kind == ast.ASTType.Rule:
        head, *body = _split(text.removesuffix("."), " :- ")
        return text, tuple(sorted(_head(head))), _body(body[0]) if body else (), project, declares
    # #show T : Body.  #external A : Body. [V]
    shown, *body = _split(text.partition(" ")[2].rpartition(".")[0], ":")
    heads = tuple(sorted(_head(shown))) if kind == ast.ASTType.External else ()
    return text, heads, _body(body[0]) if body else (), project, declares


@cache
def _outlines(entry: str) -> dict[str, dict[str, tuple[_Outline, ...]]]:
    """Each file's outlines by part, read from the disk where an earlier process kept them, keyed by
    the files' text and clingo's version, which decides how a statement prints: printing them costs
    half as much again as parsing, and which parts a file holds is known before parsing it."""
    root = encoding_dir()
    source = b"".join(file.encode() + b"\0" + (root / file).read_bytes() for file in _files(entry))
    return derived(f"outlines-{entry.replace('/', '-')}", source + clingo.__version__.encode(),
                   lambda: {file: {part: tuple(map(_outline, statements)) for part, statements in _parsed(file).items()}
                            for file in _files(entry)})


@cache
def _shapes(entry: str, part: str) -> tuple[_Shape, ...]:
    """The statements of ``part`` in the files ``entry`` stands for, in order."""
    outlines = _outlines(entry)
    return tuple(map(_Shape._make, (outline for file in _files(entry) for outline in outlines[file].get(part, ()))))


@cache
def _constant_names(files: tuple[str, ...], parts: tuple[str, ...]) -> frozenset[str]:
    """The predicates some body atom of these statements names a constant of (combat(attack)): their
    facts are read whole, the others' only by name."""
    return frozenset(need[0] for entry in files for part in parts for shape in _shapes(entry, part)
                     for need in shape.needs if need[2])


# The statements a question adds (their text), the #defined declarations it adds, and what nothing defines.
_Slice = tuple[str, str, tuple[str, ...]]
_SLICES: dict[tuple[object, ...], _Slice] = {}


def _sliced(
    files: tuple[str, ...], parts: tuple[str, ...], projected: bool, facts: Sequence[Symbol], lines: list[str],
    fixed: str,
) -> _Slice:
    """The statements of ``files``' ``parts`` a question with these facts needs (above), the #defined
    declarations of the predicates the others define, and what those read that nothing defines."""
    names = [_predicate(line) for line in lines]
    fixed_lines, fixed_names = _fixed_names(fixed)
    named = {*names, *fixed_names}
    constants = _constant_names(files, parts)
    valued = frozenset(line.strip() for line, name in (*zip(lines, names), *zip(fixed_lines, fixed_names))
                       if name in constants)
    key = (files, parts, projected, frozenset(named), valued)
    found = _SLICES.get(key)
    if found is None:
        if len(_SLICES) > 256:
            _SLICES.clear()
        found = _SLICES[key] = _slice(files, parts, projected, named, valued)
    return found


# Each fact line's predicate name, kept: the boards of a whole turn, and the nodes of a searched step, share
# most of their lines, and a step asks thousands of them.
@lru_cache(maxsize=1 << 18)
def _predicate(line: str) -> str:
    """The name of the predicate of a fact's line as _line renders it."""
    return line.partition("(")[0].removesuffix(".\n")


@lru_cache(maxsize=64)
def _fixed_names(fixed: str) -> tuple[list[str], list[str]]:
    """The lines of a rendered board (``fixed``: one per searched step's standing board) and their predicates' names."""
    lines = fixed.splitlines()
    return lines, [line.partition("(")[0].removesuffix(".") for line in lines]


def _slice(
    files: tuple[str, ...], parts: tuple[str, ...], projected: bool, named: set[str], valued: frozenset[str]
) -> _Slice:
    given: dict[Predicate, list[list[str]]] = {}
    for line in valued:
        # Cut as clingo printed it (its arguments as it prints them), not parsed back: a tenth of the time.
        name, _, rest = line.removesuffix(".").partition("(")
        arguments = _split(rest[:-1], ",") if rest else []
        given.setdefault((name, len(arguments)), []).append(arguments)

    def holds(need: _Need) -> bool:
        """Whether a fact may make the atom true."""
        name, arity, constants = need
        if not constants or name not in named:
            return name in named
        return any(all(fact[i] == c for i, c in constants) for fact in given.get((name, arity), ()))

    listed = [shape for entry in files for part in parts for shape in _shapes(entry, part)
              if projected or not shape.project]
    # Each statement's needs no fact meets, counted; a predicate becomes possible when a statement
    # defining it has none left.
    waiting: dict[Predicate, list[int]] = {}
    left: list[int] = []
    possible: set[Predicate] = set()
    ready: list[int] = []
    for index, shape in enumerate(listed):
        open_ = {need[:2] for need in shape.needs if not holds(need)}
        left.append(len(open_))
        for predicate in open_:
            waiting.setdefault(predicate, []).append(index)
        if not open_ and shape.heads:
            ready.append(index)
    while ready:
        for predicate in listed[ready.pop()].heads or ():
            if predicate not in possible:
                possible.add(predicate)
                for other in waiting.get(predicate, ()):
                    left[other] -= 1
                    if left[other] == 0:
                        ready.append(other)
    kept = "\n".join(shape.statement for shape, open_ in zip(listed, left) if open_ == 0)
    gone = [shape for shape, open_ in zip(listed, left) if open_]
    # Every predicate such a statement defines, possible or not: the grounder also warns of an atom no
    # head left may unify with.
    dropped = sorted({p for shape in gone for p in shape.heads or ()})
    # What one reads that nothing defines (a misspelt name): the grounder would have warned of it.
    defined = {p for shape in listed for p in (*(shape.heads or ()), *([shape.declares] if shape.declares else []))}
    unknown = sorted({n[:2] for shape in gone for n in shape.needs if n[:2] not in defined and n[0] not in named})
    return (kept + "\n", "".join(f"#defined {name}/{arity}.\n" for name, arity in dropped),
            tuple(f"{name}/{arity}" for name, arity in unknown))


def ground(
    facts: Sequence[Symbol], parts: tuple[str, ...], arguments: Sequence[str] = (), projected: bool = True,
) -> clingo.Control:
    """The encodings' ``parts`` plus ``facts``, grounded, for a question that solves more than once;
    ``projected`` False for one that asks for consequences beyond the projected atoms."""
    return _control(list(arguments), facts, "", parts, projected)


def project(control: clingo.Control, name: str, arity: int) -> None:
    """From now on, enumerate ``control``'s answer sets projected onto the atoms ``name/arity`` (as a
    #project statement would, added after solves that needed consequences beyond them). The control
    must have been made with --project."""
    with control.backend() as backend:
        backend.add_project([a.literal for a in control.symbolic_atoms.by_signature(name, arity)])


def extend(control: clingo.Control, part: str) -> None:
    """Ground one more part of the encodings onto a control that has already solved (multi-shot): its
    rules read what the earlier parts derived, and what it shows is read only from then on."""
    control.add(part, [], "\n".join(shape.statement for shape in _shapes("main.lp", part)))
    control.ground([(part, [])])


class TimedOut(Exception):
    """The deadline passed before the answer was complete; ``models`` holds the answer sets found."""

    def __init__(self, seconds: float, models: Sequence[list[Symbol]] = ()) -> None:
        super().__init__(f"timed out after {seconds:g} s")
        self.seconds = seconds
        self.models = list(models)


# How long past its deadline a question may take (README, Timeouts). Half of it is for making an
# incomplete answer of what was found (decoding stops at ``Deadline.late``); a grounding, which
# clingo cannot interrupt, is cut off at the whole margin by the caller's own stop (the CLI's
# watchdog, the page's job), which then answers "timed out" with nothing found.
MARGIN = 0.5


class Deadline:
    """A time limit for a question, counted from its creation; questions check it between solver
    calls and interrupt a running solve when it passes. A grounding cannot be interrupted: the
    caller stops a question still busy ``MARGIN`` seconds past it."""

    def __init__(self, seconds: float, started: float | None = None) -> None:
        """``started``: the time.monotonic() the count began, if before now (a command's start-up)."""
        if not seconds > 0:
            raise ValueError(f"a deadline needs a positive number of seconds, not {seconds!r}")
        self.seconds = seconds
        self._end = (time.monotonic() if started is None else started) + seconds

    def overdue(self) -> bool:
        """Past the deadline by the whole margin: a question still busy is abandoned."""
        return time.monotonic() > self._end + MARGIN

    def remaining(self) -> float:
        return max(0.0, self._end - time.monotonic())

    def check(self) -> None:
        if self.remaining() <= 0:
            raise TimedOut(self.seconds)

    def late(self) -> bool:
        """Past the deadline by half the margin: no more of what was found is decoded."""
        return time.monotonic() > self._end + MARGIN / 2


def decodable(found: Iterable[list[Symbol]], deadline: Deadline | None) -> Iterator[list[Symbol]]:
    """The answer sets found, to decode, until the deadline is late: a question cut short by its
    deadline answers with as many as can be decoded within the margin (decoding one may take 20 ms)."""
    for model in found:
        if deadline is not None and deadline.late():
            return
        yield model


# With a deadline or a progress report, how long a wait for the next answer set may block.
_TICK = 1.0


def models(
    control: clingo.Control,
    deadline: Deadline | None,
    progress: Callable[[int], None] | None,
    assumptions: Sequence[tuple[Symbol, bool]] = (),
) -> Iterator[list[Symbol]]:
    """The shown atoms of each answer set in turn (under ``assumptions``). With a deadline the search
    runs in the background and is cancelled when it passes (TimedOut); ``progress`` hears the count
    found, about each second."""
    if deadline is None and progress is None:
        with control.solve(yield_=True, assumptions=list(assumptions)) as handle:
            for model in handle:
                yield model.symbols(shown=True)
        return
    found = 0
    with control.solve(yield_=True, async_=True, assumptions=list(assumptions)) as handle:
        while True:
            handle.resume()
            while not handle.wait(min(_TICK, deadline.remaining()) if deadline else _TICK):
                if deadline is not None and deadline.remaining() <= 0:
                    handle.cancel()
                    raise TimedOut(deadline.seconds)
                if progress is not None:
                    progress(found)
            model = handle.model()
            if model is None:
                return
            yield model.symbols(shown=True)
            found += 1
            if progress is not None:
                progress(found)


def consequences(control: clingo.Control, kind: str, deadline: Deadline | None) -> list[Symbol]:
    """The shown atoms true in some (``kind`` brave) or in every (cautious) answer set of ``control``'s
    program, under its externals as they stand; none where it has no answer set."""
    control.configuration.solve.enum_mode = kind  # type: ignore[union-attr]  # clingo's configuration is untyped
    try:
        found: list[Symbol] = []
        for found in models(control, deadline, None):
            pass
        return found
    finally:
        control.configuration.solve.enum_mode = "auto"  # type: ignore[union-attr]


# The parts each kind of question grounds (asp/main.lp).
MOVE = ("base", "move")
EXPLAIN = ("base", "move", "explain")
COMBAT = ("base", "combat")


def solve_all(
    facts: Sequence[Symbol],
    *,
    project: bool = False,
    deadline: Deadline | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[list[Symbol]]:
    """The shown atoms of every answer set of the combat encodings plus ``facts``; with ``project``,
    one answer set per distinct set of fin/1 atoms (the end states). When ``deadline`` passes,
    TimedOut carries the answer sets found so far."""
    if deadline is not None:
        deadline.check()
    control = _control(["0", "--project"] if project else ["0"], facts, "", COMBAT)
    found: list[list[Symbol]] = []
    try:
        for model in models(control, deadline, progress):
            found.append(model)
    except TimedOut as error:
        raise TimedOut(error.seconds, found) from None
    return found


# How many boards one grounding serves at most (solve_each): the union of their facts is grounded, and
# a step asked of thousands of boards is read and solved this many at a time, so memory stays bounded.
BATCH = 64


def solve_each(
    boards: Iterable[Sequence[Symbol]],
    *,
    deadline: Deadline | None = None,
    progress: Callable[[int], None] | None = None,
) -> Iterator[list[list[Symbol]]]:
    """``solve_all(facts, project=True)`` of each of ``boards`` (each a list of facts), in order, with
    one grounding for each batch of boards that need the same statements of the encodings (the same
    talents, chapter and slice): the facts all of them hold go in as facts, each fact only some hold is
    derived from an external atom of its own, switched on for the boards that hold it, and each board
    is solved in turn. (A fact is not made external itself: an atom a rule also derives would stop
    being one.) A board with the same facts as one before it is not solved again.

    One end state may be reached by many answer sets; the one kept (its witness: the order of attacks
    shown) is the first the solver finds, which here depends on the batch's ground program and on what
    the solver learned from the boards before it. Both follow from the boards alone, in their order
    (facts sorted by their text, batches in the order of their first board), so the answer is the same on
    every run and under any hash seed, though a board asked alone (solve_all) may show another witness
    of the same end state. TimedOut when ``deadline`` passes, with nothing kept."""
    solved: dict[bytes, list[list[Symbol]]] = {}  # a board's facts (a digest of their lines) → its answer sets
    read = iter(boards)
    while window := list(islice(read, BATCH)):
        keys: list[bytes] = []
        asked: set[bytes] = set()
        # By the statements: boards that name other predicates may slice alike.
        groups: dict[tuple[str, str], list[tuple[bytes, frozenset[str]]]] = {}
        for facts in window:
            lines = [_line(fact) for fact in facts]
            key = sha256("".join(sorted(lines)).encode()).digest()
            keys.append(key)
            if key in solved or key in asked:
                continue
            asked.add(key)
            group = _statements(facts, lines, "", COMBAT, True)
            groups.setdefault(group, []).append((key, frozenset(lines)))
        for (statements, undefined), members in groups.items():
            answers = _solve_batch(statements, undefined, [held for _, held in members], deadline, progress)
            solved.update(zip((key for key, _ in members), answers))
        yield from (solved[key] for key in keys)


def _solve_batch(
    statements: str, undefined: str, batch: list[frozenset[str]],
    deadline: Deadline | None, progress: Callable[[int], None] | None,
) -> list[list[list[Symbol]]]:
    """The projected answer sets of each board of ``batch`` (its facts' lines), one grounding."""
    if deadline is not None:
        deadline.check()
    common = frozenset.intersection(*batch)
    varying = sorted(frozenset[str]().union(*batch) - common)
    switches = [clingo.Function("batch_fact", [clingo.Number(i)]) for i in range(len(varying))]
    warnings: list[str] = []
    control = clingo.Control(["0", "--project", "--warn=all" if STRICT else "--warn=none"],
                             logger=(lambda _, message: warnings.append(message)) if STRICT else None)
    control.add("base", [], statements)
    guarded = "".join(f"#external {switch}.\n{line[:-2]} :- {switch}.\n" for switch, line in zip(switches, varying))
    control.add("base", [], "".join(sorted(common)) + guarded + undefined)
    control.ground([(part, []) for part in COMBAT])
    if STRICT and warnings:
        raise EncodingWarning("\n".join(warnings))
    answers = []
    on: set[int] = set()  # the switches on: only those that change are set
    for held in batch:
        wanted = {i for i, line in enumerate(varying) if line in held}
        for i in on ^ wanted:
            control.assign_external(switches[i], i in wanted)
        on = wanted
        answers.append(list(models(control, deadline, progress)))
    return answers


def solve(
    facts: Sequence[Symbol],
    *,
    fixed: str = "",
    parts: tuple[str, ...] = MOVE,
    deadline: Deadline | None = None,
) -> list[Symbol]:
    """The shown atoms of the (unique) answer set of the encodings' ``parts`` plus ``facts``.

    ``fixed`` is further facts already rendered by ``render``: a caller asking many questions about
    one board renders the parts that do not change only once. TimedOut when ``deadline`` passes.
    """
    if deadline is not None:
        deadline.check()
    control = _control([], facts, fixed, parts)
    answers = models(control, deadline, None)
    try:
        return next(answers, [])
    finally:
        answers.close()
