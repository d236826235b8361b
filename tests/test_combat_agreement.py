"""The solver agrees with the brute-force combat reference (tests/reference/combat.py).

Compared by keys: per unit its targets and outcomes, per step the set of end states (and each
solver sequence is replayed through the reference), per Spires Fire the probability of every
(choices, end).  A disagreement prints the position as a position file, and what differs.  The
solver gets a copy, so the position printed is the one generated.  The turn's faction acts as its
controller says (``ai=None`` to the solver); the strategies draw both controllers.

The boards are drawn derandomized, so a normal run is the same every time (tests/profiles.py).
For a random sweep outside CI, with ten times the examples:
``HYPOTHESIS_PROFILE=explore pytest tests/test_agreement.py tests/test_combat_agreement.py``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from fractions import Fraction
from typing import TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.answers.attacks import AttackOptions, AttackOutcome, EndState, FireStepResult, Target
from adjudicator.position.model import Controller, Position

from tests.combat_strategies import combat_positions, describe_combat
from tests.profiles import examples
from tests.reference import combat as ref
from tests.strategies import MOVER

solver = pytest.importorskip("adjudicator.questions.adjudicate")
if not all(hasattr(solver, name) for name in ("attack_options", "attack_step", "spires_fire")):
    pytest.skip("the solver has no combat questions yet", allow_module_level=True)


K = TypeVar("K")
V = TypeVar("V")
Ends = dict[EndState, tuple[AttackOutcome, ...]]  # each end with one sequence reaching it


def _ai(position: Position) -> bool:
    return position.factions[MOVER].controller is Controller.AI


def _report(position: Position, what: str, lines: Iterable[str]) -> str:
    return f"{what} disagree on this position:\n{describe_combat(position)}\n" + "\n".join(lines)


def _sorted(keys: Iterable[K]) -> list[K]:
    return sorted(keys, key=repr)


def _diff(label: str, want: Mapping[K, V], have: Mapping[K, V], show: Callable[[K], str] = repr) -> list[str]:
    """Missing, extra and differing entries of two keyed collections, one line each."""
    lines = [f"  {label} missing from solver: {show(k)} -> {want[k]}" for k in _sorted(want.keys() - have)]
    lines += [f"  {label} extra in solver: {show(k)} -> {have[k]}" for k in _sorted(have.keys() - want)]
    for k in _sorted(want.keys() & have.keys()):
        if want[k] != have[k]:
            lines.append(f"  {label} {show(k)}:\n    reference {want[k]}\n    solver    {have[k]}")
    return lines


# ------------------------------------------------------------------------------- attack options


def _outcomes(options: AttackOptions) -> dict[tuple[str, str, str | None], AttackOutcome]:
    return {o.key: ref.comparable(o) for o in options.outcomes}


def _options_difference(expected: AttackOptions, got: AttackOptions) -> list[str]:
    unit = expected.unit
    lines = []
    if expected.must_attack != got.must_attack:
        lines.append(f"  {unit} must_attack: reference {expected.must_attack}, solver {got.must_attack}")
    if bool(expected.cannot) != bool(got.cannot):
        lines.append(f"  {unit} cannot: reference {expected.cannot!r}, solver {got.cannot!r}")
    want = {t.chip: (t.priority, t.category) for t in expected.targets}
    have = {t.chip: (t.priority, t.category) for t in got.targets}
    lines += _diff(f"{unit} target", want, have)
    return lines + _diff(f"{unit} outcome", _outcomes(expected), _outcomes(got))


def _turn_units(position: Position) -> list[str]:
    return sorted(uid for uid, u in position.units.items() if u.faction == MOVER and position.placed(uid))


@settings(max_examples=examples(300), deadline=None, report_multiple_bugs=False)
@given(combat_positions())
def test_attack_options_agree(position: Position) -> None:
    ai = _ai(position)
    got = {o.unit: o for o in solver.attack_options(copy.deepcopy(position))}
    listed = [f"  solver lists {sorted(got)}"]
    assert sorted(got) == _turn_units(position), _report(position, "attack_options units", listed)
    lines = [line for u in got for line in _options_difference(ref.attack_options(position, u, ai), got[u])]
    assert not lines, _report(position, f"attack_options(ai={ai})", lines)


@settings(max_examples=examples(100), deadline=None, report_multiple_bugs=False)
@given(combat_positions(), st.data())
def test_one_unit_attack_options_agree(position: Position, data: st.DataObject) -> None:
    units = _turn_units(position)
    uid = data.draw(st.sampled_from(units))
    got = solver.attack_options(copy.deepcopy(position), unit=uid)
    listed = [f"  solver lists {[o.unit for o in got]}"]
    assert [o.unit for o in got] == [uid], _report(position, "attack_options(unit=)", listed)
    lines = _options_difference(ref.attack_options(position, uid, _ai(position)), got[0])
    assert not lines, _report(position, f"attack_options(unit={uid!r})", lines)


# ------------------------------------------------------------------------------------ the step


def _count(expected: int, got: int) -> list[str]:
    return [] if expected == got else [f"  count: reference {expected}, solver {got}"]


def _show_end(end: EndState) -> str:
    parts = [ch.as_json() for ch in end.chips] or "no change"
    extra = f" source {dict(end.source)}" if end.source else ""
    extra += " wave over" if end.wave_over else ""
    extra += f" campfire {list(end.campfire)} ({end.campfire_when})" if end.campfire else ""
    return f"{parts}{extra}"


def _show_sequence(sequence: tuple[AttackOutcome, ...]) -> str:
    def one(o: AttackOutcome) -> str:
        chosen = "".join(f" {lv.hero}:{lv.chosen}" for lv in o.level_ups)
        return f"{o.attacker}->{o.target}" + (f"({o.redirected_to})" if o.redirected_to else "") + chosen

    return "; ".join(one(o) for o in sequence) or "no attack"


def _only_in(label: str, ends: Ends, other: Ends) -> list[str]:
    return [f"  {label}: {_show_end(e)} by {_show_sequence(s)}" for e, s in ends.items() if e not in other]


@settings(max_examples=examples(60), deadline=None, report_multiple_bugs=False)
@given(combat_positions())
def test_attack_step_agrees(position: Position) -> None:
    ai = _ai(position)
    expected = ref.attack_step(position, ai)
    got = solver.attack_step(copy.deepcopy(position))
    want: Ends = {o.end: o.sequence for o in expected.outcomes}
    have: Ends = {o.end: o.sequence for o in got.outcomes}
    lines = _count(expected.count, got.count)
    lines += _only_in("missing from solver", want, have) + _only_in("extra in solver", have, want)
    for end, sequence in have.items():  # each solver sequence must be legal and reach its end
        replayed, problems = ref.replay(position, ai, sequence)
        if replayed is not None and replayed != end:
            problems = [f"reaches {_show_end(replayed)}"]
        if problems:
            shown = f"{_show_sequence(sequence)} for {_show_end(end)}"
            lines.append(f"  solver sequence {shown}: {'; '.join(problems)}")
    assert not lines, _report(position, f"attack_step(ai={ai})", lines)


# ---------------------------------------------------------------------------------- Spires Fire


def _target(t: Target) -> tuple[str, int, str]:
    return (t.chip, t.priority or 0, t.category)


def _fire(result: FireStepResult) -> dict[tuple[tuple[tuple[str, str], ...], EndState], Fraction]:
    return {(r.choices, r.end): r.probability for r in result.results}


def _spires(result: FireStepResult) -> dict[str, object]:
    return {
        s.spire: (s.faction, s.dice, s.range, s.ai, sorted(_target(t) for t in s.targets))
        for s in result.spires
    }


@settings(max_examples=examples(60), deadline=None, report_multiple_bugs=False)
@given(combat_positions(firing=True))
def test_spires_fire_agrees(position: Position) -> None:
    turn = replace(position.turn, step="spires-fire")
    position = replace(position, turn=turn)
    expected = ref.spires_fire(position)
    got = solver.spires_fire(copy.deepcopy(position))
    lines = _count(expected.count, got.count)

    def show(key: tuple[tuple[tuple[str, str], ...], EndState]) -> str:
        return f"choices {list(key[0])} end {_show_end(key[1])}"

    lines += _diff("result", _fire(expected), _fire(got), show)
    lines += _diff("spire", _spires(expected), _spires(got))
    assert not lines, _report(position, "spires_fire", lines)
