"""Combat pre-questions for the rules that hold an AI unit still: the talents Rooted and Survival
(asp/talents/rooted.lp, survival.lp) and the Nucleus of Harbinger chapters 3 and 5 (asp/scenarios/).

Whether such a unit moves depends on its attacks: Rooted (AI) "can make an attack that deals damage
without moving", Survival (AI) "would not be able to attack after moving this turn", Nucleus moves
when "it cannot defeat an opposing unit or spire from its current hex, but moving would allow it to
do so". Each is asked of the combat encoding itself, on the board as it stands when the unit moves
(each state of a whole step asks afresh), and handed to the movement encoding as facts: harms_here/1,
wounded/1, no_target_after/1, defeats_here/1, no_defeat_after/1 (asp/doc.lp).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

from clingo import Function, Number, String, Symbol

from adjudicator.answers.decode import decode_start_attacks
from adjudicator.answers.moves import MoveOutcome
from adjudicator.facts import fields
from adjudicator.facts.board import Query, fact
from adjudicator.position.chapter_rules import GRAFT, NUCLEUS, chip_name
from adjudicator.position.model import Position, Terrain
from adjudicator.position.movement_stat import movement_bound
from adjudicator.solving.solve import COMBAT, Deadline, solve

ROOTED = "Rooted"
SURVIVAL = "Survival"
HOLDING = (ROOTED, SURVIVAL)
MOTILITY = "Motility"
# Motility's effects: "1: Nucleus has a forest terrain allowance ... If promoted, ... a mountain terrain
# allowance instead", "2: Nucleus moves one additional hex", "up to 2 ..., including the same effect
# twice". As (allowance bought, hexes added, cost), cheapest first: every pair of different use has a
# cost of its own (the allowance twice does no more than once), so "the needed amount" is one choice;
# it is 0 where a hex to attack from is within the plain move's reach (docs/movement.md, Motility).
MOTILITY_USES = ((False, 0, 0), (True, 0, 1), (False, 1, 2), (True, 1, 3), (False, 2, 4))
# The chapters whose AI rules hold Nucleus, The Graft's hero, still unless moving lets it defeat
# something (chapter 3: "moves on its turn only if ...", chapter 5: "does not move on its turn, unless").
NUCLEUS_CHAPTERS = (3, 5)
# Of them, the one whose hold does not yet factor in Motility's effects: chapter 3's Nucleus also
# flees the spires' ranges "factoring in any Motility effects", which the talent's wording spends
# only to reach a hex to attack from (docs/movement.md, Motility).
UNMOTILE_CHAPTERS = (3,)

# The AI outcomes of one unit's move on a board, given the facts found so far (not Survival's own).
Outcomes = Callable[[Position, str, list[Symbol]], tuple[MoveOutcome, ...]]


def depends_on_combat(position: Position, units: tuple[str, ...], ai_factions: frozenset[str]) -> bool:
    """Some AI unit of ``units``, on the map or still in its gate, may be held still by what it can
    attack, now or later in the step."""
    return any(_holding(position, uid, ai_factions) for uid in units)


def _holding(position: Position, uid: str, ai_factions: frozenset[str]) -> bool:
    unit = position.units[uid]
    return unit.faction in ai_factions and (
        bool(set(HOLDING) & set(unit.talents)) or chapter_nucleus(position, uid) or motile(position, uid))


def motile(position: Position, uid: str) -> bool:
    """A unit with Motility whose faction's Motility Reservoir is known: its move may spend it."""
    unit = position.units[uid]
    return MOTILITY in unit.talents and reservoir_known(position, unit.faction)


def reservoir_known(position: Position, faction: str | None = None) -> bool:
    """The position gives the Motility Reservoir (of ``faction``; None: of any), outside Harbinger
    chapter 3, whose Nucleus flees "factoring in any Motility effects", which it does not ask: there,
    as without the reservoir, Motility is not adjudicated (its notice)."""
    chapter = position.scenario.chapter if position.scenario is not None else None
    given = [f for f in position.factions.values() if faction in (None, f.name) and f.motility is not None]
    return bool(given) and chapter not in UNMOTILE_CHAPTERS


def chapter_nucleus(position: Position, uid: str) -> bool:
    """The Graft's Nucleus (its chip so named, as asp/scenarios/ finds it) in a chapter that holds it."""
    unit = position.units[uid]
    chapter = position.scenario.chapter if position.scenario is not None else None
    return chapter in NUCLEUS_CHAPTERS and unit.faction == GRAFT and chip_name(unit.chip) == NUCLEUS


def _holder(position: Position, uid: str, ai_factions: frozenset[str]) -> bool:
    """A unit whose move now may be held: on the map (a unit in its gate is beside no spire, and
    Survival holds only a unit on the map)."""
    return _holding(position, uid, ai_factions) and position.units[uid].at is not None


def still_facts(
    position: Position, query: Query, outcomes: Outcomes, deadline: Deadline | None = None
) -> Iterator[Symbol]:
    """The pre-question facts for the AI units of ``query`` that carry Rooted or Survival, or are a
    chapter's Nucleus."""
    for uid in query.units:
        if not _holder(position, uid, query.ai_factions) or position.units[uid].done.moved:
            continue
        unit = position.units[uid]
        u = String(uid)
        found = []
        if ROOTED in unit.talents and _beside_spire(position, uid) and _damaging(position, uid, deadline):
            found.append(fact("harms_here", u))
        if SURVIVAL in unit.talents and unit.health < unit.side.health:
            found.append(fact("wounded", u))
            # No chip within its movement and range (and one more, for a chip its move may push)
            # can come within its range after the move: then no end need be asked about.
            near = _foe_in_range(position, uid, unit.side.movement + 1)
            ends = outcomes(position, uid, found) if near else ()
            if not any(_targets(_after(position, move), uid, deadline) for move in ends):
                found.append(fact("no_target_after", u))
        # Motility's effects, where it spends them: chapter 5's Nucleus hold factors them in.
        motility = _motility_facts(position, uid, outcomes, deadline) if motile(position, uid) else []
        if chapter_nucleus(position, uid):
            found.extend(_nucleus_facts(position, uid, outcomes, deadline, motility))
        yield from found + motility


def _motility_facts(position: Position, uid: str, outcomes: Outcomes, deadline: Deadline | None) -> list[Symbol]:
    """Motility's effects, where its AI ends (the plain move's) allow it no attack: the cheapest use
    the reservoir pays for whose ends are hexes it can attack from, closer to its mark (asp/talents/
    motility.lp chooses them among the ends the AI rules allow). Readings in docs/movement.md, Motility."""
    unit = position.units[uid]
    if any(_targets(_after(position, move), uid, deadline) for move in outcomes(position, uid, [])):
        return []
    u = String(uid)
    gain = Terrain.MOUNTAINS if unit.promoted else Terrain.FOREST
    raises = gain.level > unit.terrain.level
    reservoir = position.factions[unit.faction].motility or 0
    uses = [use for use in MOTILITY_USES if use[2] <= reservoir and (raises or not use[0])]
    # As far as any of its uses could take it (movement_bound counts Motility's two hexes, Speed's too).
    spots = _attack_spots(position, uid, movement_bound(unit), deadline)
    spotted = [fact("attacks_from", u, String(h)) for h in sorted(spots)]
    for allowance, more, _ in uses:
        bought = [fact("motility_use", u, Function(gain.value if allowance else "none"), Number(more)), *spotted]
        ends = {move.end for move in outcomes(position, uid, bought)}
        if ends and ends <= spots:
            return bought
    return []


def _attack_spots(position: Position, uid: str, steps: int, deadline: Deadline | None) -> set[str]:
    """The empty hexes within ``steps`` of ``uid`` from which it would have a valid target."""
    unit = position.units[uid]
    taken = {u.at for u in position.units.values()} | fields.obstacles(position)
    spots = set()
    for hex_ in sorted(fields.ball(position, unit.at or "", steps) & set(position.hexes) - taken):
        moved = replace(position, units={**position.units, uid: replace(unit, at=hex_)})
        if _targets(moved, uid, deadline):
            spots.add(hex_)
    return spots


def _nucleus_facts(position: Position, uid: str, outcomes: Outcomes, deadline: Deadline | None,
                   motility: list[Symbol]) -> list[Symbol]:
    """Whether Nucleus would defeat an opposing unit or spire from where it stands (defeats_here), and
    from none of the ends of its AI outcomes (no_defeat_after; reading: the ends the AI rules would
    move it to, as Survival's, docs/movement.md), with the Motility effects it would spend on the move
    (``motility``: chapter 5's "factoring in any Motility effects it can utilize to do so"). The second
    is asked only where it decides something: where it defeats nothing from here, and in chapter 3
    always, whose Nucleus moves anyway when a spire has it in range, and flees when it cannot move to
    defeat."""
    u = String(uid)
    here = _defeats(position, uid, deadline)
    found = [fact("defeats_here", u)] if here else []
    if here and position.scenario is not None and position.scenario.chapter != 3:
        return found
    # No chip within its movement and range (and one more, for a chip a move may push): no end need
    # be asked about. Its outcomes are asked without these facts: as the AI rules alone would move it,
    # with the Motility effects it would buy (movement_bound counts their hexes).
    near = _foe_in_range(position, uid, movement_bound(position.units[uid]) + 1)
    ends = outcomes(position, uid, motility) if near else ()
    if not any(_defeats(_after(position, move), uid, deadline) for move in ends):
        found.append(fact("no_defeat_after", u))
    return found


def _beside_spire(position: Position, uid: str) -> bool:
    spires = {s.at for s in position.spires}
    return any(n in spires for n in position.neighbours(position.units[uid].at or ""))


def _after(position: Position, move: MoveOutcome) -> Position:
    from adjudicator.questions.whole_step import apply_move  # imported here: whole_step asks through us

    return apply_move(position, move)


def _start_atoms(position: Position, uid: str, deadline: Deadline | None) -> list[Symbol]:
    """The combat encoding's view of ``uid``'s attack on this board, its faction playing as the AI
    (the wordings that hold the unit still are the AI's)."""
    from adjudicator.facts.combat import ATTACK, SINGLE, CombatQuery, combat_facts  # combat only
    from adjudicator.position.readings import resolve
    from adjudicator.questions.adjudicate import combat_ai

    side = position.units[uid].faction
    query = CombatQuery(ATTACK, SINGLE, side, combat_ai(position, side, True), 1, units=(uid,),
                        readings=resolve(position.readings))
    return solve(combat_facts(position, query), parts=COMBAT, deadline=deadline)


def _damaging(position: Position, uid: str, deadline: Deadline | None) -> bool:
    """An attack from where it stands would deal damage (asp/combat/ai_attack.lp, would/4)."""
    return _foe_in_range(position, uid) and bool(decode_start_attacks(_start_atoms(position, uid, deadline), uid)[1])


def _defeats(position: Position, uid: str, deadline: Deadline | None) -> bool:
    """Its attack from where it stands would defeat an opposing unit or spire, as the AI weighs it
    (asp/combat/ai_attack.lp, fits/4 defeat(_)): a gate is neither."""
    return _foe_in_range(position, uid) and bool(decode_start_attacks(_start_atoms(position, uid, deadline), uid)[2])


def _targets(position: Position, uid: str, deadline: Deadline | None) -> bool:
    """It has a valid target where it stands (asp/combat/targets.lp, allowed/3)."""
    return _foe_in_range(position, uid) and bool(decode_start_attacks(_start_atoms(position, uid, deadline), uid)[0])


def _foe_in_range(position: Position, uid: str, beyond: int = 0) -> bool:
    """Some chip it could attack stands within its range (plus ``beyond``): without one the combat
    encoding need not be asked (a valid target is within range, docs/combat.md)."""
    unit = position.units[uid]
    at, side = unit.at, unit.faction
    if at is None:
        return False
    foes = position.foe_nodes(side)
    reach = unit.side.range + unit.upgrades.count("range") + beyond
    counts = fields.range_counts(position, [at], reach)[at]
    return any(counts.get(node, reach + 1) <= reach for node in foes)
