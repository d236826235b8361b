"""The answers kept for the positions a process holds loaded (issue 24, section 3): the movement
encoding's, and each attack question's options.

The browser board and a sweep ask many questions of one position, and most of them are one solve: a
unit's options are solved for its whole faction (adjudicate.moves_query), so every unit of the
faction, and the faction itself, asks the same. Building the facts and grounding them is nearly all a
question's cost (on a 150-hex board some 7 and 50 ms of CPU; solving the grounded program again takes
0.2 ms), and the answer set is unique: its atoms, gathered by unit, are kept instead of a grounded
program, and the options built from them, so that a question asked again pays only for the units
not built before. An attack question's options are kept as built: the same question asked again (`check`
of each claimed attack asks its unit's options) costs nothing. A position is a frozen value, told apart by its identity; it is held weakly, and an
entry whose position is gone is never matched (a new position may reuse its id).
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar, cast

from clingo import Symbol

from adjudicator.answers.decode import Answer, Atoms, gather, unit_answer
from adjudicator.facts.board import Query, query_facts
from adjudicator.position.model import Position

# Answers kept, the least recently asked dropped first: a page's few positions, each with its legal,
# its AI and its pre-questions' answers, fit many times over; an entry is a few thousand atoms.
SIZE = 64


class Kept:
    """One question's answer: its atoms by unit, and the answers built from them so far, by the
    units asked about (an answer is a function of the atoms and the units' starts alone)."""

    def __init__(self, symbols: Sequence[Symbol]) -> None:
        self._atoms: Atoms = gather(symbols)
        self._built: dict[tuple[str, ...], Answer] = {}
        # Building reads the gathered atoms' default dicts, which add what they lack: one at a time.
        self._lock = threading.Lock()

    def options(self, units: tuple[str, ...], every: tuple[str, ...], starts: dict[str, str]) -> Answer:
        """The options of ``units``, of the question's ``every`` unit; an answer built for all of
        them serves any."""
        with self._lock:
            built = self._built.get(units) or self._built.get(every)
            if built is None:
                built = self._built[units] = unit_answer(self._atoms, starts, units)
            return built


_kept: OrderedDict[tuple[int, Hashable], tuple[weakref.ref[Position], object]] = OrderedDict()
_lock = threading.Lock()  # the page's server answers each request in a thread of its own

T = TypeVar("T")


def remembered(position: Position, key: Hashable, make: Callable[[], T]) -> T:
    """What ``make()`` gave for the question ``key`` on ``position`` earlier, or makes now and keeps.
    A ``make`` that raises (a deadline passed) keeps nothing."""
    full = (id(position), key)
    with _lock:
        found = _kept.get(full)
        if found is not None and found[0]() is position:
            _kept.move_to_end(full)
            return cast(T, found[1])
    made = make()
    with _lock:
        _kept[full] = (weakref.ref(position), made)
        _kept.move_to_end(full)
        while len(_kept) > SIZE:
            _kept.popitem(last=False)
    return made


def known(position: Position, key: Hashable) -> object | None:
    """What the question ``key`` on ``position`` gave earlier, if it is still kept; nothing is made."""
    with _lock:
        found = _kept.get((id(position), key))
        return found[1] if found is not None and found[0]() is position else None


def answer(position: Position, query: Query, extra: Sequence[Symbol], solve: Callable[[], list[Symbol]]) -> Kept:
    """The answer to ``query`` on ``position`` with the ``extra`` facts: kept from an earlier
    ``solve()`` of the same question, or solved now and kept."""
    # The query as the solver receives it: a field the query gains reaches the key with its facts.
    return remembered(position, (tuple(query_facts(query)), tuple(extra)), lambda: Kept(solve()))
