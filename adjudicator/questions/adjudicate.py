"""The questions the tool answers, each one or more solver calls: facts → clingo → decoded outcomes."""

from __future__ import annotations

import math
from functools import partial
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from fractions import Fraction
from itertools import islice
from typing import TYPE_CHECKING, TypeVar, cast

from clingo import Symbol

from adjudicator.facts import fields
from adjudicator.answers.decode import (
    Answer,
    decode,
    decode_attack_step,
    decode_attacks,
    decode_fire,
    decode_sideless,
    decode_sideless_by_attacker,
    decode_step_summary,
    decode_unbounded,
    merged_summary,
)
from adjudicator.position.chapter_rules import round_worms
from adjudicator.position.dice import Die, shipped_die
from adjudicator.questions import kept
from adjudicator.questions.board_after import apply_act, made
from adjudicator.questions.coverage import (ATTACK_STEP, ATTACKS, LEVEL_UP_TEXT, LEVELING_UP, MOVES, as_happened, flipped,
                                           notices, unbounded, purchase_step_notices, fallen_spires, turned_notices,
                                           unknown_landmarks)
from adjudicator.facts.board import Query, position_facts, query_facts, unit_facts
from adjudicator.position.model import Controller, Kind, Position, Unit
from adjudicator.answers.moves import STAY, Act, MoveOutcome, StepResult, UnitOptions
from adjudicator.answers.rolls import roll_odds
from adjudicator.position.priorities import in_force
from adjudicator.position.readings import resolve
from adjudicator.position.talents import NOT_MODELLED, PARTLY, catalogue
from adjudicator.answers.notices import Notice
from adjudicator.questions.still import still_facts
from adjudicator.solving.solve import (
    COMBAT, Deadline, TimedOut, consequences, decodable, ground, solve, solve_all, solve_each
)

if TYPE_CHECKING:  # the attack classes are imported by the questions that build them: `moves` builds none
    from adjudicator.answers.attacks import (AttackOptions, AttackOutcome, AttackStepResult, EndState, FireResult,
                                             FireStepResult, StepEnd, StepSummary)
    from adjudicator.facts.combat import CombatQuery

T = TypeVar("T")
# Called with how many results (final boards, end states) a long question has found so far.
Progress = Callable[[int], None]


def check_limit(limit: int | None) -> None:
    if limit is not None and limit < 0:
        raise ValueError(f"limit must be 0 or more (None: no limit), not {limit}")


def first_shown(results: Sequence[T], limit: int | None) -> tuple[T, ...]:
    """The first ``limit`` results, all of them when ``limit`` is None."""
    return tuple(results) if limit is None else tuple(results[:limit])


R = TypeVar("R", StepResult, "AttackStepResult", "FireStepResult")


def whole(result: R, deadline: Deadline | None) -> R:
    """``result`` if complete, else TimedOut: for a caller that can use no part of an answer."""
    if deadline is not None and not result.complete:
        raise TimedOut(deadline.seconds)
    return result


def is_ai(position: Position, faction: str) -> bool:
    return position.factions[faction].controller is Controller.AI


def _ai_factions(position: Position, faction: str, ai: bool | None) -> frozenset[str]:
    wanted = is_ai(position, faction) if ai is None else ai
    return frozenset({faction}) if wanted else frozenset()


def present_units(position: Position, faction: str) -> tuple[str, ...]:
    """The faction's units on the board or waiting in its gate, in id order."""
    return tuple(
        sorted(uid for uid, u in position.units.items() if u.faction == faction and position.placed(uid))
    )


def ask(
    position: Position, query: Query, fixed: str | None = None, deadline: Deadline | None = None,
    wanted: Sequence[str] | None = None,
) -> Answer:
    """Solve ``query``; ``fixed``, when given, is the rendered board and field facts of this position.
    The options of ``wanted`` only are decoded (default: every unit of the query)."""
    return _ask(position, query, fixed, deadline, holding_facts(position, query, deadline), wanted)


def holding_facts(position: Position, query: Query, deadline: Deadline | None = None) -> list[Symbol]:
    """The combat pre-questions' facts for the units of ``query`` that attacks may hold still."""
    def outcomes(pos: Position, uid: str, known: list[Symbol]) -> tuple[MoveOutcome, ...]:
        alone = Query((uid,), query.ai_factions, readings=query.readings)
        return _ask(pos, alone, None, deadline, known).options[uid].outcomes

    return list(still_facts(position, query, outcomes, deadline))


def _ask(position: Position, query: Query, fixed: str | None, deadline: Deadline | None,
         extra: list[Symbol], wanted: Sequence[str] | None = None) -> Answer:
    """``ask`` with ``extra`` facts (the pre-questions' answers, adjudicator/questions/still.py)."""
    starts = {uid: position.node_of(uid) for uid in query.units}
    # A unit's question solves for its whole faction (moves_query): decoding the others' options
    # would cost ten times what decoding its own does.
    units = query.units if wanted is None else tuple(wanted)
    if fixed is not None:
        symbols = solve([*unit_facts(position), *query_facts(query), *extra], fixed=fixed, deadline=deadline)
        return decode(symbols, starts, units)
    if deadline is not None:
        deadline.check()

    def fresh() -> list[Symbol]:
        # One unit's question is sent only the nodes its move can read or change. A whole faction's
        # moves reach most of the board, and measuring that reach costs more than it saves.
        nodes = fields.reach(position, fields.move_radii(position, query.units)) if len(query.units) == 1 else None
        return solve([*position_facts(position, query, nodes), *extra], deadline=deadline)

    # Asked again of this position (the page, a sweep): the answer kept from the first time.
    return kept.answer(position, query, extra, fresh).options(units, query.units, starts)


def moves_query(position: Position, unit_id: str | None = None, ai: bool | None = None) -> Query:
    """The question `moves` asks: every unit of the faction whose turn it is, or of ``unit_id``'s
    faction, ``unit_id`` among them. A minion leads only among all its faction's minions (step.lp,
    leading/1): asked alone, every minion would seem to lead."""
    if unit_id is None:
        return faction_query(position, position.turn.faction, ai)
    faction = position.units[unit_id].faction
    units = tuple(sorted({*present_units(position, faction), unit_id}))
    return Query(units, _ai_factions(position, faction, ai), readings=resolve(position.readings))


def faction_query(position: Position, faction: str, ai: bool | None = None) -> Query:
    """Every unit of ``faction``: its moves, and which minions lead."""
    return Query(present_units(position, faction), _ai_factions(position, faction, ai),
                 readings=resolve(position.readings))


def unit_options(
    position: Position, unit_id: str, ai: bool | None = None, deadline: Deadline | None = None
) -> UnitOptions:
    """Every legal outcome of ``unit_id``'s move now; with the AI in control, the mandated ones."""
    options = sourced(position, gambled(position, acting(
        position, _asked(position, unit_id, ai, deadline), lambda board: _asked(board, unit_id, ai, deadline))))
    return _with_odds(position, _noticed(position, options, ai))


# What a move made after a flip (act_then/3) leaves out where the position gives one side only.
OTHER_SIDE = ("its promoted side's stats, which the position does not give: the move after the flip or promotion uses its "
              "basic stats, and a promotion gains no health")


def _asked(position: Position, unit_id: str, ai: bool | None, deadline: Deadline | None) -> UnitOptions:
    return ask(position, moves_query(position, unit_id, ai), deadline=deadline, wanted=(unit_id,)).options[unit_id]


def acting(position: Position, options: UnitOptions, again: Callable[[Position], UnitOptions]) -> UnitOptions:
    """``options`` with the moves made after each act the unit's talents may take before it
    (before_act/4, Consume, Yrtel's Way): the move asked ``again`` on the board that act leaves, the talent used up
    (one act per move, before or after), its other talents' acts before the move taken in turn; a teleport instead of moving (Tracker) is the move itself, a stay
    on the hex it reached. A talent it must use (the AI's) that can act before the move
    does so: then only those outcomes stand (docs/movement.md, An action before or after a move)."""
    if options.declinable:
        return _declining(position, options, again)
    if not options.before and not any(m.acts for m in options.outcomes):
        return options
    made: list[MoveOutcome] = []
    found = list(options.notices)
    for act in options.before:
        if act.instead:  # instead of moving: it stands on the hex it was teleported to (Tracker), on the
            # minion's hex (Stasis, Possess) or where it stood (Evoke), its move made
            end = act.chip if act.how == "teleport" else position.units[act.chip if act.grasps else options.unit].at or ""
            made.append(MoveOutcome(options.unit, end, STAY, (), (end,), 1, 0, False, 0, acts=(act,)))
            continue
        board = acted(position, options.unit, act)
        if act.how == "radiate":
            # "It may repeat this once for each other adjacent unit": the talent kept, for the units after
            # this one in id order (one order per set of transfers), each given once.
            then = again(board)
            then = acting(board, replace(then, before=tuple(
                b for b in then.before if b.how == "radiate" and b.chip > act.chip), declinable=()), again)
            made += [replace(m, acts=(act, *m.acts)) for m in then.outcomes]
            found += then.notices
            continue
        found += turned_notices(position, board, "movement", MOVES)  # the side a flip shows, its move reads it
        # Its other talents may still act before the move (each talent used up once it has acted).
        then = acting(board, replace(again(board), declinable=()), again)
        made += [replace(m, acts=(act, *m.acts)) for m in then.outcomes]
        found += then.notices
    first = {a.talent for a in options.before} & set(options.must_act)
    # Staying, then acting, leaves the board acting, then staying leaves: the one before is kept.
    stays = {(m.end, a.talent, a.chip) for m in made if m.kind == "stay" for a in m.acts[:1]}
    after = (m for m in options.outcomes
             if not (m.kind == "stay" and any((m.end, a.talent, a.chip) in stays for a in m.acts)))
    outcomes = {m.key: m for m in (*(() if first else after), *made)}
    # A basic unit turned to a promoted side the position does not give: the move after it (an act
    # before), or the health a promotion gains, is not known.
    unit = position.units[options.unit]
    if not unit.promoted and unit.promoted_stats is None:
        found += [Notice(a.talent, PARTLY, ("movement",), (options.unit,), left_out=OTHER_SIDE)
                  for m in outcomes.values() for a in m.acts
                  if a.then == "promote" or (a.then == "flip" and a.when == "before")]
    listed = tuple(outcomes[k] for k in sorted(outcomes)) if made else tuple(outcomes.values())
    return replace(options, outcomes=listed, notices=tuple(dict.fromkeys(found)))


def acted(position: Position, uid: str, act: Act) -> Position:
    """The board unit ``uid``'s act before its move leaves (board_after.apply_act), its talent used up (one
    act per move), but Radiate's, which "may repeat this once for each other adjacent unit"."""
    board = apply_act(position, uid, act)
    if act.how == "radiate":
        return board
    unit = board.units[uid]
    # A landmark's talent it used (Summon Hero) is not its own: written among those it has used.
    return replace(board, units={**board.units, uid: replace(
        unit, talents=tuple(t for t in unit.talents if t != act.talent), used=(*unit.used, act.talent))})


def gambled(position: Position, options: UnitOptions) -> UnitOptions:
    """``options`` after the dice its talents roll before it moves (gamble/4: Anarchy): the discard as an
    outcome of its own, with its chance (the unit stays where it stood until it leaves play, making no
    move), and each move with the chance that no die discarded it (docs/movement.md, Anarchy)."""
    if not options.gambles:
        return options
    start = position.node_of(options.unit)
    left = Fraction(1)
    discards: list[MoveOutcome] = []
    for talent, p in options.gambles:  # rolled in turn: a later die only where no earlier one discarded it
        act = Act("before", talent, options.unit, "discard")
        discards.append(MoveOutcome(options.unit, start, STAY, (), (start,), acts=(act,), chance=left * p))
        left *= 1 - p
    moves = tuple(replace(m, chance=left * (m.chance if m.chance is not None else 1)) for m in options.outcomes)
    return replace(options, outcomes=(*discards, *moves), gambles=())


def sourced(position: Position, options: UnitOptions) -> UnitOptions:
    """Each outcome that spends, steals or earns Source (asp/movement/source.lp), or acts (Evoke), with the
    Source of each faction it changes once made, what each defeat it deals rewards, and the units its acts'
    damage defeats (board_after). A hero whose own doing defeats a unit as it moves may level up (game-elements,
    Defeat): not played, a notice."""
    def known(move: MoveOutcome) -> MoveOutcome:
        if not (move.acts or move.spent or move.earned or move.robbed or move.credited):
            return move
        after, gains = made(position, move)
        source = tuple((f, x.source) for f, x in sorted(after.factions.items()) if x.source != position.factions[f].source)
        downed = tuple(sorted({a.chip for a in move.acts if a.how == "hurt" and _down(position, after, a.chip)}))
        return replace(move, source=source, gains=gains, downed=downed)

    outcomes = tuple(known(m) for m in options.outcomes)
    unit = position.units[options.unit]
    levels = unit.kind is Kind.HERO and any(
        m.felled or m.downed or any(s.defeated and s.chip != unit.id for s in m.struck)
        or any(a.how == "defeat" for a in m.acts) for m in outcomes)
    found = (Notice("", NOT_MODELLED, ("movement",), (unit.id,), HERO_LEVELS, LEVELING_UP, LEVEL_UP_TEXT),) if levels else ()
    return replace(options, outcomes=outcomes, notices=(*options.notices, *found))


# What a hero's defeat of a chip as units move would bring and is not played (game-elements, Defeat: "If a hero
# defeats a unit, spire, or fortress gate it may immediately level up").
HERO_LEVELS = "the level-up of a hero whose own doing defeats a unit as units move (what it deals, an act, a teleport)"


def _down(before: Position, after: Position, uid: str) -> bool:
    """Unit ``uid`` stood on the board before and was defeated by ``after``: off it, or its group's next chip shown."""
    was, now = before.units.get(uid), after.units.get(uid)
    return was is not None and was.at is not None and now is not None and (
        now.at is None and not now.discarded or now.chip != was.chip)


def _declining(position: Position, options: UnitOptions, again: Callable[[Position], UnitOptions]) -> UnitOptions:
    """``options``, each add to the stat taken, with the moves made leaving unused an add its player may
    leave (mv_may/3: a player's Gust): the move asked ``again`` on the board where the unit lacks that
    talent. An outcome both stats give is one: the first path in hex-name order of either, its kind,
    and the routes of both (docs/movement.md, The movement stat)."""
    unit = position.units[options.unit]
    found = [acting(position, replace(options, declinable=()), again)]
    for talent in options.declinable:
        plain = replace(unit, talents=tuple(t for t in unit.talents if t != talent))
        board = replace(position, units={**position.units, options.unit: plain})
        found.append(acting(board, again(board), again))
    merged: dict[object, MoveOutcome] = {}
    for move in (m for o in found for m in o.outcomes):
        was = merged.get(move.key)
        merged[move.key] = move if was is None else replace(min(was, move, key=lambda m: m.path),
                                                            paths=was.paths + move.paths)
    return replace(found[0], outcomes=tuple(merged.values()),
                   notices=tuple(dict.fromkeys(n for o in found for n in o.notices)))


def declined(position: Position, units: Sequence[str], ai_factions: frozenset[str]) -> list[Position]:
    """``position``, then the boards where players leave unused the adds to a movement stat they may
    (hook mv_may/3: a player's Gust), one per way: each such unit of ``units`` with its talent or
    without it (the solver takes the add wherever the talent stands). Asked on each, a question that
    cannot ask again move by move (the whole step in one solve, a claim) has all its answers."""
    known = catalogue()
    boards = [position]
    for uid in units:
        unit = position.units[uid]
        if unit.faction in ai_factions:
            continue
        for name in unit.talents:
            talent = known.resolve(name)
            if talent is not None and "mv_may/3" in talent.hooks:
                boards += [replace(b, units={**b.units, uid: replace(b.units[uid], talents=tuple(
                    t for t in b.units[uid].talents if t != name))}) for b in boards]
    return boards


def faction_options(
    position: Position, ai: bool | None = None, deadline: Deadline | None = None
) -> list[UnitOptions]:
    """``unit_options`` for each unit of the faction whose turn it is, from one solve."""
    query = moves_query(position, None, ai)
    units = query.units
    answer = ask(position, query, deadline=deadline)
    return [_with_odds(position, _noticed(position, sourced(position, gambled(position, acting(
                position, answer.options[uid], lambda board, uid=uid: _asked(board, uid, ai, deadline)))), ai))
            for uid in units]


def _noticed(position: Position, options: UnitOptions, ai: bool | None) -> UnitOptions:
    """``options`` with the unmodelled talents its answer may depend on: what acts on a defeat only
    where one of its outcomes defeats a unit; what acts where a unit's health is reduced to exactly 1 as
    units move only where one of its outcomes may do that to a unit with it."""
    unmodelled = notices(position, "movement", ai, MOVES, defeats=any(m.fells for m in options.outcomes),
                         ones=ones_in(options))
    return replace(options, notices=(*unmodelled, *options.notices))



def ones_in(options: UnitOptions) -> frozenset[str]:
    """The units some outcome of ``options`` may leave at exactly 1 health, from more (MoveOutcome.ones; the
    unit itself where the solver found its way may: UnitOptions.at_one), or an act before its move offered
    there: the chip it hurts or defeats, the unit it turns over."""
    return frozenset(u for m in options.outcomes for u in m.ones) | ({options.unit} if options.at_one else set()) \
        | {a.chip for a in options.before if a.how == "hurt" or a.defeats} \
        | ({options.unit} if any(a.then for a in options.before) else set())


def _with_odds(position: Position, options: UnitOptions) -> UnitOptions:
    """Each outcome that rolls dice on the way, with the exact odds of what they cost the unit
    (adjudicator/answers/rolls.py), by the reading spire-die."""
    if not any(o.rolls for o in options.outcomes):
        return options
    life = position.units[options.unit].life
    die = shipped_die(resolve(position.readings)["spire-die"])
    outcomes = tuple(replace(o, odds=roll_odds(o.rolls, life, die)) if o.rolls else o for o in options.outcomes)
    return replace(options, outcomes=outcomes)


# ----------------------------------------------------------------------------------------- combat


def combat_ai(position: Position, side: str, ai: bool | None) -> frozenset[str]:
    """The AI-controlled factions; ``ai`` True puts the side under AI control, False under a player's."""
    factions = {name for name, f in position.factions.items() if f.controller is Controller.AI}
    if ai is True:
        factions.add(side)
    elif ai is False:
        factions.discard(side)
    return frozenset(factions)


def _may_attack(position: Position, side: str) -> int:
    """How many of the side's units could attack this step: the whole step's horizon. Only a
    displacement moves units in the attack step (hook displace/4: an attacker and the unit it attacks
    trade hexes), so an opposing chip can only ever stand where one stands now or where a displacing
    attacker stands (that attacker itself only moves onto a foe's hex): a unit with none of those
    hexes within its range, nor as far as a talent lets it attack (hook afar/4, the catalogue's reach:
    Pistoleer's 2), never attacks."""
    foes = set(position.foe_nodes(side))
    attackers = [
        u for u in position.units.values()
        if u.faction == side and u.at is not None and (u.kind is not Kind.LANDMARK_MINION or position.controlled(u))
        and not u.campfire and not u.done.attacked and not u.done.silenced
    ]
    for u in attackers:
        carried = (*u.talents, *(n for g in u.group for n in g.talents))
        if u.at and any("displace/4" in t.hooks for t in catalogue().known(carried)):
            foes.add(u.at)
    counts = fields.range_counts(position, [u.at for u in attackers if u.at], fields.range_bound(position))
    return sum(
        1 for u in attackers
        if u.at and any(counts[u.at].get(n, 1 << 30) <= _attack_reach(u) for n in foes)
    )


def _attack_reach(unit: Unit) -> int:
    """The farthest a unit may attack: its range, or the hexes a talent of its lets it attack (afar/4)."""
    far = [t.reach for t in catalogue().known(unit.talents) if "afar/4" in t.hooks]
    return max([unit.side.range + unit.upgrades.count("range"), *far])


def attack_options(
    position: Position, unit: str | None = None, ai: bool | None = None, deadline: Deadline | None = None
) -> list[AttackOptions]:
    """What each unit of the faction whose turn it is (or ``unit``) may, or must, attack now, and what
    each attack leads to; under AI control only the mandated attacks, every tie included."""
    from adjudicator.facts.combat import ATTACK, SINGLE, CombatQuery, combat_facts  # imported here: combat only

    side = position.units[unit].faction if unit else position.turn.faction
    units = (unit,) if unit else present_units(position, side)
    ai_factions = combat_ai(position, side, ai)
    readings = resolve(position.readings)

    def fresh() -> tuple[AttackOptions, ...]:
        query = CombatQuery(ATTACK, SINGLE, side, ai_factions, 1, units=units, readings=readings)
        models = solve_all(combat_facts(position, query), deadline=deadline)
        fallback = len(in_force(position.ai_priority, "units")) + 1
        unmodelled = notices(position, "attack", ai, ATTACKS)
        # A unit that flips in an attack (the attacker levelling up, a target that dodges) and is read after
        # reads a side the position does not give: the attack's notice.
        turned = decode_sideless_by_attacker(models)
        # A rolled retaliation that heals its attacker: its totals past what the solver tells apart differ.
        healing = decode_unbounded(models)
        return tuple(
            replace(o, notices=(*as_happened(unmodelled, any(a.defeated for a in o.outcomes),
                                             any(a.wave_over for a in o.outcomes),
                                             _fallen(position, o.unit, o.outcomes)),
                                *flipped(turned.get(o.unit, ()), "attack"),
                                *unbounded(healing if any(a.probability is not None for a in o.outcomes) else ())))
            for o in decode_attacks(models, position, units, ai_factions, fallback,
                                    shipped_die(readings["spire-die"])))

    # Asked again of this position (`check` of each claimed attack asks its unit's): the options kept.
    # One unit's are also read off its whole faction's, kept: the same solve, with the other units' too.
    key = ("attack", units, ai_factions, ai, tuple(sorted(readings.items())))
    if unit is not None:
        every = kept.known(position, ("attack", present_units(position, side), *key[2:]))
        mine = [o for o in cast("tuple[AttackOptions, ...]", every or ()) if o.unit == unit]
        if len(mine) == 1:
            return mine
    return list(kept.remembered(position, key, fresh))


def quick_strike(
    position: Position,
    ai: bool | None = None,
    limit: int | None = None,
    deadline: Deadline | None = None,
    progress: Progress | None = None,
) -> AttackStepResult:
    """Every distinct end state of the Quick Strike step, before the spires fire: the attacks of the
    units a talent lets strike early (asp/talents/quick_strike.lp), with their exact count."""
    return attack_step(position, ai, limit, deadline, progress, quick=True)


def attack_step(
    position: Position,
    ai: bool | None = None,
    limit: int | None = None,
    deadline: Deadline | None = None,
    progress: Progress | None = None,
    quick: bool = False,
) -> AttackStepResult:
    """Every distinct end state of the current faction's whole attack step, each with one order of
    attacks that produces it, and their exact count. The solver tells the end states apart itself
    (projection onto fin/1), so orders that lead to the same board are never enumerated twice.
    When ``deadline`` passes, the end states found so far, marked incomplete."""
    from adjudicator.facts.combat import combat_facts  # imported here: combat only

    check_limit(limit)
    query = _attack_query(position, ai, quick)
    # Groups of attacks are not apart where the keel may buy an earthscape (chapter 3): its Source is every group's.
    bought = position.earthscape_places is not None
    summary, by_groups = (None, None) if limit is None or bought else _attack_step_by_groups(position, query, limit,
                                                                                              deadline, progress)
    if by_groups is not None:
        count, seen, shown, sideless = by_groups
        complete = True
    else:
        try:
            found, complete = solve_all(combat_facts(position, query), project=True, deadline=deadline,
                                        progress=progress), True
            if limit is not None and summary is None:
                summary = step_summary(position, query, deadline)
        except TimedOut as timeout:
            found, complete, summary = timeout.models, False, None
        count, seen, shown, sideless = _attack_ends(position, query, found, complete, limit, deadline)
    return _attack_answer(position, query, ai, count, seen, shown, sideless, complete, summary)


def attack_steps(
    positions: Sequence[Position],
    ai: bool | None = None,
    deadline: Deadline | None = None,
    progress: Progress | None = None,
    quick: bool = False,
) -> list[AttackStepResult]:
    """``attack_step`` of each of ``positions`` with no limit (every end state, no summary), the step
    grounded once for a batch of boards (solve_each: the order of attacks shown for an end state may be
    another than the board's own question shows). TimedOut when ``deadline`` passes."""
    from adjudicator.facts.combat import combat_facts  # imported here: combat only

    queries = [_attack_query(p, ai, quick) for p in positions]
    found = solve_each((combat_facts(p, q) for p, q in zip(positions, queries)), deadline=deadline, progress=progress)
    return [_attack_answer(p, q, ai, *_attack_ends(p, q, models, True, None, deadline), True, None)
            for p, q, models in zip(positions, queries, found)]


def _attack_query(position: Position, ai: bool | None, quick: bool) -> CombatQuery:
    from adjudicator.facts.combat import ATTACK, STEP, CombatQuery  # imported here: combat only

    side = position.turn.faction
    # Chapter 3's earthscape bought as a Graft spire falls is paid for at the next time point: one more than the attacks.
    bought = 1 if position.earthscape_places is not None else 0
    return CombatQuery(ATTACK, STEP, side, combat_ai(position, side, ai), _may_attack(position, side) + bought,
                       readings=resolve(position.readings), quick=quick)


def _attack_ends(
    position: Position, query: CombatQuery, found: list[list[Symbol]], complete: bool, limit: int | None,
    deadline: Deadline | None,
) -> tuple[int, list[StepEnd], tuple[StepEnd, ...], tuple[tuple[str, str], ...]]:
    """The step's answer sets decoded: their count, the end states sorted, the first ``limit`` of them,
    and the units that flipped sideless. Cut short, each end state found is counted (one answer set
    each: projected), and as many decoded as the margin allows."""
    seen = decode_attack_step(decodable(found, None if complete else deadline), position, query.ai_factions,
                              shipped_die(query.readings["spire-die"]))
    seen.sort(key=lambda e: e.end.sort_key)
    return len(found), seen, first_shown(seen, limit), decode_sideless(found)


def _attack_answer(
    position: Position, query: CombatQuery, ai: bool | None, count: int, seen: list[StepEnd],
    shown: tuple[StepEnd, ...], sideless: tuple[tuple[str, str], ...], complete: bool, summary: StepSummary | None,
) -> AttackStepResult:
    """The step's answer, with the notices of what it leaves out as they apply to its ends."""
    from adjudicator.answers.attacks import AttackStepResult  # imported here: combat only
    unmodelled = (*notices(position, "quick" if query.quick else "attack", ai, answer=ATTACK_STEP),
                  *flipped(sideless, "quick" if query.quick else "attack"), *purchase_step_notices(position, seen))
    if complete:
        defeats = any(a.defeated for e in seen for a in e.sequence) or any(c.defeated for e in seen for c in e.end.chips)
        fallen = fallen_spires(position, (([c.chip for c in e.end.chips if c.defeated], e.end.source) for e in seen))
        unmodelled = as_happened(unmodelled, defeats, any(e.end.wave_over for e in seen), fallen)
    return AttackStepResult(query.side, query.side in query.ai_factions, count, shown, complete, unmodelled, summary)


def _attack_step_by_groups(
    position: Position, query: CombatQuery, limit: int, deadline: Deadline | None, progress: Progress | None
) -> tuple[StepSummary | None, tuple[int, list[StepEnd], tuple[StepEnd, ...], tuple[tuple[str, str], ...]] | None]:
    """The step as a product over groups of attacks that never meet (attack_groups.py), where it splits
    into more than one: the summary, merged from the groups' (None where it does not split), and, where
    it also has more end states than ``limit``, the exact count, every group's own end states (what may
    happen anywhere), the first ``limit`` boards, each played whole, and the units that flipped
    sideless (None where the step's boards are better solved whole)."""
    from adjudicator.questions import attack_groups  # imported here: combat only

    try:
        how = attack_groups.split(position, query, deadline)
        if how.joined or len(how.groups) < 2:
            return None, None
        summaries, groups = attack_groups.solved(position, query, how.groups, deadline)
        summary = merged_summary(summaries)
        if groups is None:
            return summary, None
        count = attack_groups.count(groups)
        if progress is not None:
            progress(count)
        if count <= limit:  # every board is listed: one solve of the whole step finds them all
            return summary, None
        shown = [attack_groups.replayed(position, query, line, deadline)
                 for line in islice(attack_groups.combinations(groups), limit)]
    except TimedOut:
        return None, None
    shown.sort(key=lambda e: e.end.sort_key)
    return summary, (count, [e for g in groups for e, _ in g.ends], tuple(shown),
                     tuple(sorted(u for g in groups for u in g.sideless)))


def step_summary(position: Position, query: CombatQuery, deadline: Deadline | None) -> StepSummary:
    """What each unit may or must attack, and which chips may or must fall, over the whole step's lines:
    the brave and cautious consequences of one solve without the projection onto end states."""
    from adjudicator.facts.combat import combat_facts  # imported here: combat only

    control = ground(combat_facts(position, query), COMBAT, ["0"], projected=False)
    return decode_step_summary(consequences(control, "brave", deadline), consequences(control, "cautious", deadline))


def start_of_turn(
    position: Position,
    ai: bool | None = None,
    limit: int | None = None,
    deadline: Deadline | None = None,
    progress: Progress | None = None,
    die: Die | None = None,
) -> AttackStepResult:
    """Every distinct end state of the start of the current faction's turn (talents such as Healing
    act in it; asp/combat/state.lp, recover/4), with their exact count. ``die``: the spire die a spire's
    attack then rolls (Raze; default: the reading's), each end with the chance of its totals."""
    return _turn_edge("start", position, ai, limit, deadline, progress, die)


def end_of_turn(
    position: Position,
    ai: bool | None = None,
    limit: int | None = None,
    deadline: Deadline | None = None,
    progress: Progress | None = None,
) -> AttackStepResult:
    """Every distinct end state of the acts of the end of the current faction's turn, each unit's ``done``
    saying what it did this turn (asp/combat/state.lp, recover/4), with their exact count; the question
    plays Back to the Future after them (questions/closing.py)."""
    return _turn_edge("end", position, ai, limit, deadline, progress)


def exploration(
    position: Position,
    ai: bool | None = None,
    limit: int | None = None,
    deadline: Deadline | None = None,
    progress: Progress | None = None,
) -> AttackStepResult:
    """Every distinct end state of the current faction's exploration step: which face-down landmarks
    beside its units it reveals (asp/combat/explore.lp), and what each the position says what lies face
    down of then does (Unstable Rift), with their exact count. The AI explores none (ai-rules.md)."""
    return _turn_edge("explore", position, ai, limit, deadline, progress)


def _fallen(position: Position, uid: str, outcomes: Iterable[AttackOutcome]) -> frozenset[str]:
    """The factions a spire of which one of a unit's attack outcomes defeats (as_happened's ``fallen``), each outcome
    with the Source its faction is left with (coverage.spire_factions)."""
    faction = position.units[uid].faction
    base = position.factions[faction].source if faction in position.factions else 0
    return fallen_spires(position, (([d.chip for d in a.defeated],
                                     ((faction, base + sum(g.source for g in a.gains if g.faction == faction)),))
                                    for a in outcomes))


def end_of_wave(
    position: Position,
    ai: bool | None = None,
    limit: int | None = None,
    deadline: Deadline | None = None,
    progress: Progress | None = None,
) -> AttackStepResult:
    """Every distinct end state of the end of the wave on a board the wave has just ended on (in the
    current faction's turn): what the talents do then (Precious, Mining, Refinery), and the campfire
    mode it ends (asp/combat/wave.lp), with their exact count."""
    return _turn_edge("wave", position, ai, limit, deadline, progress)


def explorable(position: Position, side: str) -> tuple[str, ...]:
    """The face-down landmarks beside a map hex one of ``side``'s units stands on (docs/turn.md)."""
    stands = {u.at for u in position.units.values() if u.faction == side and u.at in position.hexes}
    return tuple(sorted(m.id for m in position.landmarks
                        if not m.revealed and position.neighbours(m.at) & stands))


def _explore_points(position: Position, side: str) -> int:
    """The time points of the exploration step: one for each face-down landmark beside the side's units,
    and one more for each unit of the side that may explore a landmark it does not stand beside (a
    talent with the catalogue's hook xfar/4: Biosonar), one at least."""
    far = sum(1 for u in position.units.values() if u.faction == side
              for t in catalogue().known(u.talents) if "xfar/4" in t.hooks)
    hidden = sum(1 for m in position.landmarks if not m.revealed)
    return max(1, min(hidden, len(explorable(position, side)) + far))


def _turn_edge(
    moment: str, position: Position, ai: bool | None, limit: int | None, deadline: Deadline | None,
    progress: Progress | None, die: Die | None = None,
) -> AttackStepResult:
    from adjudicator.facts.combat import combat_facts  # imported here: combat only

    check_limit(limit)
    query, die = _edge_query(moment, position, ai, die)
    try:
        models, complete = solve_all(combat_facts(position, query), project=True, deadline=deadline,
                                     progress=progress), True
    except TimedOut as timeout:
        models, complete = timeout.models, False
    return _edge_answer(moment, position, query, die, ai, models, complete, limit, deadline)


def turn_edges(
    moment: str, positions: Sequence[Position], ai: bool | None = None, deadline: Deadline | None = None,
    progress: Progress | None = None, die: Die | None = None,
) -> list[AttackStepResult]:
    """``_turn_edge`` of each of ``positions`` with no limit, the moment grounded once for a batch of
    boards (solve_each). TimedOut when ``deadline`` passes."""
    from adjudicator.facts.combat import combat_facts  # imported here: combat only

    queries = [_edge_query(moment, p, ai, die) for p in positions]
    found = solve_each((combat_facts(p, q) for p, (q, _) in zip(positions, queries)), deadline=deadline,
                       progress=progress)
    return [_edge_answer(moment, p, q, rolled, ai, models, True, None, deadline)
            for p, (q, rolled), models in zip(positions, queries, found)]


def _edge_query(moment: str, position: Position, ai: bool | None, die: Die | None) -> tuple[CombatQuery, Die]:
    """The moment's question, and the spire die its ends are read with (``die``, else the reading's)."""
    from adjudicator.facts.combat import STEP, CombatQuery  # imported here: combat only

    side = position.turn.faction
    readings = resolve(position.readings)
    die = die or shipped_die(readings["spire-die"])
    # A spire's attack then (hook sattacks/4: Raze) rolls the spire die: its totals are facts.
    rolls = any("sattacks/4" in t.hooks for s in position.spires if s.faction == side
                for t in catalogue().known(s.talents))
    # The end of the wave: what acts then acts at once (asp/combat/wave.lp), but for chapter 2's cannons, which
    # fire one after the other once the plank is pulled, each rolling the spire die (asp/scenarios/chapter_2.lp).
    cannons = len(next((g.maneuver.cannons for g in position.gates.values() if g.maneuver is not None), ())) \
        if moment == "wave" else 0
    rolls = rolls or cannons > 0
    points = _explore_points(position, side) if moment == "explore" else 1 + cannons if moment == "wave" \
        else _edge_points(position, side)
    if moment == "end" and round_worms(position):  # chapter 4's worms act after every other act of the end
        points += 1
    return CombatQuery(moment, STEP, side, combat_ai(position, side, ai), points, readings=readings,
                       die=die if rolls else None), die


def _edge_answer(
    moment: str, position: Position, query: CombatQuery, die: Die, ai: bool | None, models: list[list[Symbol]],
    complete: bool, limit: int | None, deadline: Deadline | None,
) -> AttackStepResult:
    from adjudicator.answers.attacks import AttackStepResult  # imported here: combat only
    ends = decode_attack_step(decodable(models, None if complete else deadline), position, query.ai_factions, die)
    ends.sort(key=lambda e: e.end.sort_key)
    # What acts only as the wave ends changes nothing where no end has it end (what acts on a defeat is
    # kept: a defeat may leave no trace in the end, as chapter 8's Nucleus's).
    unmodelled = notices(position, moment, ai)
    if moment == "explore":
        unmodelled = (*unmodelled, *unknown_landmarks(position, {c.chip for e in ends for c in e.end.chips if c.revealed}))
    if complete:
        unmodelled = as_happened(unmodelled, True, moment == "wave" or any(e.end.wave_over for e in ends),
                                 fallen_spires(position, (([c.chip for c in e.end.chips if c.defeated], e.end.source) for e in ends)))
    # A chip a talent promoted at a defeat, its other side not given (Invigorate's revealed chip).
    return AttackStepResult(query.side, query.side in query.ai_factions, len(models), first_shown(ends, limit), complete,
                            (*unmodelled, *flipped(decode_sideless(models), moment)))


# The steps asked of many boards at once (the whole turn's; steps.py, Step.many).
start_of_turns = partial(turn_edges, "start")
end_of_turns = partial(turn_edges, "end")
end_of_waves = partial(turn_edges, "wave")
explorations = partial(turn_edges, "explore")
quick_strikes = partial(attack_steps, quick=True)


def _edge_points(position: Position, side: str) -> int:
    """The time points of the start or end of a turn: one at least (Healing's), and one for each act a
    chip of the side may take then (a talent's catalogue `edge_acts`: Self Destruct, Creep), the chips
    waiting in a group too, which a defeat above them may reveal, every other chip (Unstable), every
    landmark minion (Prowl) and every revealed landmark (Source Link, Overload)."""
    chips = [c for u in position.units.values() if u.faction == side for c in (u.talents, *(g.talents for g in u.group))]
    chips += [s.talents for s in position.spires if s.faction == side]
    chips += [c.talents for c in position.chips]  # a waygate's (Unstable): other chips have no side
    # A landmark minion's, which no faction controls, acts on whoever's turn starts the round (Prowl).
    chips += [u.talents for u in position.units.values() if u.kind is Kind.LANDMARK_MINION and u.faction != side]
    chips += [m.talents for m in position.landmarks if m.revealed]  # a landmark's, used by a unit beside it (Overload)
    return max(1, sum(t.edge_acts for chip in chips for t in catalogue().known(chip)))


def spires_fire(
    position: Position, die: Die | None = None, limit: int | None = None, deadline: Deadline | None = None
) -> FireStepResult:
    """Every distinct result of the Spires Fire step at the current faction's units, each under the
    target choices that lead to it, with its exact probability. When ``deadline`` passes, the results
    found so far, marked incomplete: their probabilities are then lower bounds."""
    from adjudicator.answers.attacks import FireResult, FireStepResult  # imported here: combat only
    from adjudicator.facts.combat import FIRE, STEP, CombatQuery, combat_facts  # imported here: combat only

    check_limit(limit)
    readings = resolve(position.readings)
    die = die or shipped_die(readings["spire-die"])
    side = position.turn.faction
    # One time point per shot a spire may fire (a talent's catalogue `shots`: Repeater's additional attack).
    order = tuple(s.id for s in position.spires if position.may_oppose(s, side)
                  for _ in range(max((t.shots for t in catalogue().known(s.talents)), default=1)))
    query = CombatQuery(FIRE, STEP, side, combat_ai(position, side, None), len(order), fire_order=order,
                        readings=readings, die=die)
    fallback = len(in_force(position.ai_priority, "spires")) + 1
    try:
        models, complete = solve_all(combat_facts(position, query), deadline=deadline), True
    except TimedOut as timeout:
        models, complete = timeout.models, False
    spires, paths = decode_fire(decodable(models, None if complete else deadline), position, fallback)
    # A result is one line of choices, the chips each spire fired at (or acted on), and an end: the same end
    # reached by firing at other chips (a forced target that an earlier roll changed) is another result, so
    # that the chips its shots show are the ones fired at (their damage, their count may differ: Repeater).
    merged: dict[tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, str, str], ...], EndState], FireResult] = {}
    for path in paths:
        odds = math.prod((r.chance for r in path.d6), start=Fraction(1))  # a teleported unit's D6 (Explosion)
        for roll in path.rolls:  # a volley's total (Multi-Target), or a shot's damage
            dealt = (die.totals(roll.dice, roll.silencing) if roll.cap is None
                     else die.dealt(roll.dice, roll.cut, roll.cap, roll.silencing))
            odds *= dealt[roll.value]
        choices = path.choices
        key = (choices, tuple(sorted({(s.spire, s.target, s.instead) for s in path.shots})), path.end)
        seen = merged.get(key)
        if seen is None:
            merged[key] = FireResult(choices, path.end, odds, path.shots)
        else:
            merged[key] = replace(seen, probability=seen.probability + odds, shots=min(seen.shots, path.shots))
    results = sorted(merged.values(), key=lambda r: (r.choices, -r.probability, r.end.sort_key))
    unmodelled = notices(position, "fire")
    if complete:  # a shot that took all the target could lose may have defeated it
        defeats = any(s.at_least for p in paths for s in p.shots) or any(c.defeated for p in paths for c in p.end.chips)
        unmodelled = as_happened(unmodelled, defeats, any(p.end.wave_over for p in paths),
                                 fallen_spires(position, (([c.chip for c in p.end.chips if c.defeated], p.end.source) for p in paths)))
    unmodelled = (*unmodelled, *flipped(decode_sideless(models), "fire"))  # a spire flipped (Wallop)
    return FireStepResult(side, tuple(spires), len(results), first_shown(results, limit), die.name, complete,
                          unmodelled, decode_sideless(models, "sflipped"))
