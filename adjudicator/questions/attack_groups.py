"""The whole attack step as a product over groups of attacks that never meet (asp/combat/split.lp).

Where the step splits, each group is solved alone on one grounding (the external active/1 says whose
turn it is to attack): its summary from consequences, then its end states with a projected solve; the exact count is the product of the groups' counts,
and a board is shown by playing its groups' lines one after another in a single solve, so that what it
shows (Source after capped gains, campfire mode) comes from the solver, not from adding groups up here.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import product
from math import prod

from clingo import Control, Function, String

from adjudicator.answers.attacks import StepEnd, StepSummary
from adjudicator.answers.decode import (
    Split,
    decode_attack_step,
    decode_sideless,
    decode_split,
    decode_step_summary,
    line_of,
)
from adjudicator.facts.combat import SPLIT, STEP, CombatQuery, Line, combat_facts
from adjudicator.position.dice import shipped_die
from adjudicator.position.model import Position
from adjudicator.solving.solve import COMBAT, Deadline, consequences, ground, models, project, solve_all


@dataclass(frozen=True)
class GroupEnds:
    """One group's distinct end states, each with the line of attacks that makes it."""

    attackers: tuple[str, ...]
    ends: tuple[tuple[StepEnd, Line], ...]
    sideless: tuple[tuple[str, str], ...]  # (unit, talent): flipped, and could be read again (decode_sideless)


def split(position: Position, query: CombatQuery, deadline: Deadline | None) -> Split:
    """How the step of ``query`` splits, from the board as it begins."""
    asked = replace(query, mode=SPLIT, horizon=0)
    return decode_split(solve_all(combat_facts(position, asked), deadline=deadline)[0])


def solved(position: Position, query: CombatQuery, groups: Sequence[tuple[str, ...]],
           deadline: Deadline | None) -> tuple[list[StepSummary], list[GroupEnds] | None]:
    """Every group's summary and end states, from one grounding of the step as long as its largest
    group's (each unit of a group able to attack only while its external active/1 is true). The
    summaries first: clasp takes brave and cautious consequences over the projected atoms only, so
    the projection onto end states is added after them. What may happen in a group is what may happen
    in the step, since no other group touches its chips. The ends are None where a group's Source is
    not a function of its chips (two ends alike but for Source): they would then not tell the step's
    apart, and the step is solved whole; so too where a retaliation rolled the spire die (Relentless),
    since a line played again (``replayed``) would lead to each end its rolls may."""
    asked = replace(query, split=True, horizon=max(len(g) for g in groups))
    control = ground(combat_facts(position, asked), COMBAT, ["0", "--project"], projected=False)
    summaries = [decode_step_summary(consequences(control, "brave", deadline), consequences(control, "cautious", deadline))
                 for _ in _each(control, groups)]
    project(control, "fin", 1)
    found = []
    for group in _each(control, groups):
        answer = list(models(control, deadline, None))
        ends = decode_attack_step(answer, position, query.ai_factions, shipped_die(query.readings["spire-die"]))
        # A line played again gives every end its rolls may lead to (Relentless): not one board.
        if len({e.end.chips for e in ends}) < len(ends) or any(e.rolled for e in ends):
            return summaries, None
        found.append(GroupEnds(group, tuple(zip(ends, map(line_of, answer))), decode_sideless(answer)))
    return summaries, found


def _each(control: Control, groups: Sequence[tuple[str, ...]]) -> Iterator[tuple[str, ...]]:
    """Each group in turn, with only its units active."""
    everyone = [a for g in groups for a in g]
    for group in groups:
        for unit in everyone:
            control.assign_external(Function("active", [String(unit)]), unit in group)
        yield group


def count(groups: Sequence[GroupEnds]) -> int:
    return prod(len(g.ends) for g in groups)


def combinations(groups: Sequence[GroupEnds]) -> Iterator[Line]:
    """Each combination of one end per group, as the line that plays the groups' lines in turn."""
    for chosen in product(*(g.ends for g in groups)):
        line = Line()
        for _, part in chosen:
            line = line.then(part)
        yield line


def replayed(position: Position, query: CombatQuery, line: Line, deadline: Deadline | None) -> StepEnd:
    """The end state ``line`` leads to and the attacks that make it, played whole by the solver."""
    asked = replace(query, horizon=len(line.attacks), line=line, mode=STEP)
    answer = solve_all(combat_facts(position, asked), project=True, deadline=deadline)
    ends = decode_attack_step(answer, position, query.ai_factions, shipped_die(query.readings["spire-die"]))
    if len(ends) != 1:
        raise RuntimeError(f"a line of {len(line.attacks)} attacks played again gave {len(ends)} end states")
    return ends[0]

