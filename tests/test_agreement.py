"""The solver agrees with the brute-force reference (tests/reference) on generated boards.

On a disagreement the message prints the position as a position file, and what differs.  The
solver gets a copy, so the position printed is the one generated.

The boards are drawn derandomized, so a normal run is the same every time (tests/profiles.py).
For a random sweep outside CI, with ten times the examples:
``HYPOTHESIS_PROFILE=explore pytest tests/test_agreement.py tests/test_combat_agreement.py``.
"""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.position.model import Controller, Position
from adjudicator.answers.moves import ESCAPE, PROGRESS, Displacement, MoveOutcome, StepResult, UnitOptions

from tests.profiles import examples
from tests.reference import movement as ref
from tests.strategies import MOVER, describe, positions

solver = pytest.importorskip("adjudicator.questions.adjudicate")

Key = tuple[str, str, tuple[Displacement, ...]]
Compared = dict[Key, tuple[str, tuple[str, ...], int | None]]


def _compared(options: UnitOptions) -> Compared:
    """Outcomes by key (displacements in any order) → kind, path, and route count when it is defined."""
    return {
        (o.unit, o.end, tuple(sorted(o.displaced))): (
            o.kind,
            o.path,
            o.paths if o.kind in (PROGRESS, ESCAPE) else None,
        )
        for o in options.outcomes
    }


def _show(key: Key, seen: tuple[str, tuple[str, ...], int | None]) -> str:
    (unit, end, displaced), (kind, path, paths) = key, seen
    pushed = ", ".join(f"{d.unit} {d.source}->{d.to}" for d in displaced)
    return f"{unit} -> {end} [{kind}] path {'-'.join(path)} paths {paths} displaced {{{pushed}}}"


def _options_difference(expected: UnitOptions, got: UnitOptions) -> list[str]:
    want, have = _compared(expected), _compared(got)
    lines = [f"  missing from solver: {_show(k, want[k])}" for k in sorted(want.keys() - have.keys())]
    lines += [f"  extra in solver:     {_show(k, have[k])}" for k in sorted(have.keys() - want.keys())]
    for k in sorted(want.keys() & have.keys()):
        if want[k] != have[k]:
            lines.append(f"  reference: {_show(k, want[k])}\n  solver:    {_show(k, have[k])}")
    if bool(expected.must_wait) != bool(got.must_wait):
        lines.append(f"  must_wait: reference {expected.must_wait!r}, solver {got.must_wait!r}")
    minion = not any(o.kind in ("free", "return") for o in expected.outcomes)
    if minion and not expected.must_wait and expected.start_distance != got.start_distance:
        lines.append(f"  start_distance: reference {expected.start_distance}, solver {got.start_distance}")
    return lines


def _report(position: Position, what: str, lines: list[str]) -> str:
    return f"{what} disagree on this position:\n{describe(position)}\n" + "\n".join(lines)


def _check_unit(position: Position, unit: str, expected: UnitOptions, got: UnitOptions, ai: bool) -> None:
    lines = _options_difference(expected, got)
    assert not lines, _report(position, f"unit_options({unit!r}, ai={ai})", lines)


def _mover_units(position: Position) -> list[str]:
    return sorted(u.id for u in position.units.values() if u.faction == MOVER)


@settings(max_examples=examples(80), deadline=None)
@given(positions(), st.booleans())
def test_unit_options_agree(position: Position, ai: bool) -> None:
    for unit in _mover_units(position):
        got = solver.unit_options(copy.deepcopy(position), unit, ai=ai)
        _check_unit(position, unit, ref.unit_options(position, unit, ai), got, ai)


@settings(max_examples=examples(380), deadline=None)
@given(positions())
def test_faction_options_agree(position: Position) -> None:
    ai = position.factions[MOVER].controller is Controller.AI
    got = {o.unit: o for o in solver.faction_options(copy.deepcopy(position))}
    assert sorted(got) == _mover_units(position), _report(
        position, "faction_options units", [f"  solver lists {sorted(got)}"]
    )
    for unit, options in got.items():
        _check_unit(position, unit, ref.unit_options(position, unit, ai), options, ai)


def _finals(result: StepResult) -> dict[frozenset[tuple[str, str]], tuple[MoveOutcome, ...]]:
    return {frozenset(o.final): o.sequence for o in result.outcomes}


def _show_final(final: frozenset[tuple[str, str]], sequence: tuple[MoveOutcome, ...]) -> str:
    board = ", ".join(f"{u}:{n}" for u, n in sorted(final))
    moves = "; ".join(f"{m.unit} {'-'.join(m.path)}" for m in sequence)
    return f"{{{board}}} by {moves or 'no move'}"


@settings(max_examples=examples(40), deadline=None)
@given(positions(), st.booleans())
def test_movement_step_agrees(position: Position, ai: bool) -> None:
    expected = ref.movement_step(position, ai)
    got = solver.movement_step(copy.deepcopy(position), ai=ai)
    want, have = _finals(expected), _finals(got)
    lines = [f"  count: reference {expected.count}, solver {got.count}"]
    missing = sorted(want.keys() - have.keys(), key=sorted)
    extra = sorted(have.keys() - want.keys(), key=sorted)
    lines += [f"  missing from solver: {_show_final(f, want[f])}" for f in missing]
    lines += [f"  extra in solver:     {_show_final(f, have[f])}" for f in extra]
    agree = expected.count == got.count and want.keys() == have.keys()
    assert agree, _report(position, f"movement_step(ai={ai})", lines)
