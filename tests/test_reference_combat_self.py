"""Hand-checked answers of the combat reference on tiny boards.

Every expected answer is worked out by hand from the rule text named in the test; the comment says
how.  Most boards are the line a1 … f1 (each hex touches the next), the heirs' gate beside a1 and
narora's beside f1, so that a gate is 2 steps from e1 and out of reach of range-1 units elsewhere.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

from hypothesis import given, settings

from adjudicator.answers.attacks import (
    ATTACK,
    GATE_RETALIATION,
    RETALIATION,
    AttackOptions,
    AttackOutcome,
    ChipEnd,
    Damage,
    Defeat,
    EndState,
    Gain,
    LevelUp,
    Reveal,
)
from adjudicator.position.load import load_position, load_position_text
from adjudicator.position.model import (
    Faction,
    Gate,
    Mark,
    AiPriority,
    Controller,
    Done,
    GroupedChip,
    Kind,
    Position,
    Reward,
    Spire,
    Stats,
    Unit,
    gate_node,
)
from adjudicator.position.priorities import presets

from tests.combat_strategies import combat_positions, describe_combat
from tests.profiles import examples
from tests.reference.combat import (
    FALLBACK,
    attack_options,
    attack_step,
    end_of_wave,
    exploration,
    spires_fire,
    turn_edge,
    valid_targets,
)
from tests.strategies import MOVER, OPPONENT, build

LINE = "1 p p p p p p"
GATES = {MOVER: ("a1",), OPPONENT: ("f1",)}
AI, PLAYER = Controller.AI, Controller.PLAYER


def fighter(
    uid: str,
    faction: str,
    at: str | None,
    health: int = 2,
    attack: int = 1,
    *,
    reach: int = 1,
    stat: int | None = None,
    kind: Kind = Kind.MINION,
    talents: tuple[str, ...] = (),
    upgrades: tuple[str, ...] = (),
    group: tuple[GroupedChip, ...] = (),
    reward: Reward = Reward(),
    capacity: int | None = None,
    promoted_stats: Stats | None = None,
    done: Done = Done(),
    campfire: bool = False,
    merc: bool = False,
) -> Unit:
    """A unit with what combat reads; its health stat is ``stat`` (default: its health)."""
    stats = Stats(health=stat or health, attack=attack, movement=2, range=reach)
    return Unit(
        uid, uid.capitalize(), faction, kind, health, stats, at, talents=talents, upgrades=upgrades,
        group=group, campfire=campfire, done=done, reward=reward, merc=merc, capacity=capacity,
        promoted_stats=promoted_stats,
    )


def board(
    units: list[Unit],
    *,
    map_text: str = LINE,
    gates: dict[str, tuple[str, ...]] = GATES,
    stacks: dict[str, tuple[str, ...]] | None = None,
    controllers: dict[str, Controller] | None = None,
    spires: tuple[Spire, ...] = (),
    gate_health: dict[str, int] | None = None,
    sources: dict[str, tuple[int, int]] | None = None,
    readings: dict[str, str] | None = None,
    priorities: AiPriority | None = None,
) -> Position:
    p = build(map_text, units, gates=gates, stacks=stacks, controllers=controllers, readings=readings)
    health = gate_health or {}
    own = sources or {}
    return replace(
        p,
        gates={f: replace(g, health=health.get(f, g.health)) for f, g in p.gates.items()},
        factions={
            n: replace(f, source=own.get(n, (0, 20))[0], source_capacity=own.get(n, (0, 20))[1])
            for n, f in p.factions.items()
        },
        spires=spires,
        ai_priority=priorities,
    )


def with_third_gate(position: Position) -> Position:
    """A third faction's gate, out of everyone's reach, so that defeating narora's does not end the game."""
    third = Faction("shada", Controller.PLAYER, Mark(gate=MOVER))
    return replace(
        position,
        factions={**position.factions, "shada": third},
        gates={**position.gates, "shada": Gate("shada", ())},
    )


def outcome(options: AttackOptions, target: str, redirect: str | None = None) -> AttackOutcome:
    (found,) = [o for o in options.outcomes if o.target == target and o.redirected_to == redirect]
    return found


def ends(position: Position, ai: bool = False) -> set[EndState]:
    result = attack_step(position, ai)
    assert result.count == len(result.outcomes)
    return {o.end for o in result.outcomes}


def chips(*entries: ChipEnd, **fields: object) -> EndState:
    return EndState(tuple(sorted(entries)), **fields)  # type: ignore[arg-type]


# ------------------------------------------------------------------------- the rulebook's examples


def test_example_1_the_harrier_retaliates() -> None:
    # Campfire Mode, Example 1: the battleborn attacks the harrier, dealing 1; the harrier retaliates
    # with 1.  Both have 2 health; the narora gate is 3 steps from c1, out of range.
    units = [fighter("battleborn", MOVER, "c1"), fighter("harrier", OPPONENT, "d1")]
    options = attack_options(board(units), "battleborn", ai=False)
    assert options.must_attack  # Minion Attacks: a minion must attack a valid target
    assert [t.chip for t in options.targets] == ["harrier"]
    assert outcome(options, "harrier").damage == (
        Damage("harrier", 1, "battleborn", ATTACK, 2, 1),
        Damage("battleborn", 1, "harrier", RETALIATION, 2, 1),
    )


def test_heroes_only_still_attack_and_the_wave_goes_on() -> None:
    # N167: with no faction minion in play as the step begins, the wave does not end in it (as N107,
    # N137): the heirs hero (c1, 3 health) may attack the narora hero (d1, 3 health) or not, 1 each way
    # with the retaliation; neither end reports the wave over. Campfire Mode: both factions have units.
    units = [fighter("jael", MOVER, "c1", 3, kind=Kind.HERO), fighter("kram", OPPONENT, "d1", 3, kind=Kind.HERO)]
    found = ends(board(units))
    assert chips() in found and chips(ChipEnd("jael", health=2), ChipEnd("kram", health=2)) in found
    assert len(found) == 2 and not any(e.wave_over for e in found)


def test_example_2_out_of_range_then_defeated() -> None:
    # Example 2: the dispatch (2 Range, b1) hits the harrier (d1) from 2 hexes: no retaliation.  The
    # battleborn (c1) then defeats it: no retaliation from a defeated unit.  The other order has
    # the harrier retaliate against the battleborn first.  Two ends, the harrier defeated in both.
    units = [
        fighter("dispatch", MOVER, "b1", reach=2),
        fighter("battleborn", MOVER, "c1"),
        fighter("harrier", OPPONENT, "d1"),
        fighter("far", OPPONENT, "f1"),  # out of everyone's reach: narora keeps a unit in play
    ]
    position = board(units)
    dispatch = attack_options(position, "dispatch", ai=False)
    assert outcome(dispatch, "harrier").damage == (Damage("harrier", 1, "dispatch", ATTACK, 2, 1),)
    harrier_down = ChipEnd("harrier", defeated=True)
    assert ends(position) == {
        chips(harrier_down),
        chips(harrier_down, ChipEnd("battleborn", health=1)),
    }


def test_faq_16_retaliation_after_being_hit_at_range() -> None:
    # FAQ-16: retaliation is not optional, and a unit that could not retaliate (hit at range) still
    # retaliates against a later adjacent attacker.  The harrier has 3 health: in either order it
    # ends on 1 and the battleborn on 1; an order in which the battleborn escapes does not exist.
    units = [
        fighter("dispatch", MOVER, "b1", reach=2),
        fighter("battleborn", MOVER, "c1"),
        fighter("harrier", OPPONENT, "d1", 3),
    ]
    assert ends(board(units)) == {chips(ChipEnd("battleborn", health=1), ChipEnd("harrier", health=1))}


# ------------------------------------------------------------------------------------ targeting


def test_faq_14_no_friendly_target_but_landmark_minions_oppose_everyone() -> None:
    # FAQ-14 and Landmarks.  On two rows b1 touches a1 c1 a2 b2: a friendly minion (a1), a friendly
    # spire (c1), its own gate (beside b1) are no targets; the enemy on b2, narora's gate (beside
    # b1) and a landmark minion no faction controls on a2 are.
    units = [
        fighter("a", MOVER, "b1"),
        fighter("f", MOVER, "a1"),
        fighter("e", OPPONENT, "b2"),
        fighter("lm", "", "a2", kind=Kind.LANDMARK_MINION),
    ]
    position = board(
        units,
        map_text="1 p p p\n2 p p p",
        gates={MOVER: ("b1",), OPPONENT: ("b1", "c2")},
        spires=(Spire("s", MOVER, "c1", ("attack",)),),
    )
    assert valid_targets(position, "a") == ["e", "gate:narora", "lm"]


def test_a_controlled_landmark_minion_is_its_factions_unit() -> None:
    # N1: the landmark minion the file gives the heirs (a2) is theirs: no target of the heirs' unit on
    # b1, and one of the narora's on b2; it attacks as an heir minion must, the narora's unit (b2).
    units = [
        fighter("a", MOVER, "b1"),
        fighter("e", OPPONENT, "b2"),
        fighter("lm", MOVER, "a2", kind=Kind.LANDMARK_MINION),
    ]
    position = board(units, map_text="1 p p p\n2 p p p", gates={MOVER: ("a1",), OPPONENT: ("c2",)})
    assert valid_targets(position, "a") == ["e"]
    assert valid_targets(position, "lm") == ["e"]


def test_faq_15_units_in_a_gate_are_no_targets_and_may_take_the_damage() -> None:
    # FAQ-15: w waits in narora's gate, beside f1; h on f1 attacks the gate with 2.  Two outcomes:
    # the gate takes 2 (10 → 8) and retaliates 1; or w takes 2 instead and, surviving, retaliates
    # (gate to f1 is 1 step), and the gate retaliates too (gate-redirect=both, N3 order).
    units = [fighter("h", MOVER, "f1", 3, 2), fighter("w", OPPONENT, None, 3)]
    position = board(units, stacks={OPPONENT: ("w",)})
    assert valid_targets(position, "h") == ["gate:narora"]
    options = attack_options(position, "h", ai=False)
    assert outcome(options, "gate:narora").damage == (
        Damage("gate:narora", 2, "h", ATTACK, 10, 8),
        Damage("h", 1, "gate:narora", GATE_RETALIATION, 3, 2),
    )
    assert outcome(options, "gate:narora", "w").damage == (
        Damage("w", 2, "h", ATTACK, 3, 1),
        Damage("h", 1, "w", RETALIATION, 3, 2),
        Damage("h", 1, "gate:narora", GATE_RETALIATION, 2, 1),
    )
    only_unit = board(units, stacks={OPPONENT: ("w",)}, readings={"gate-redirect": "unit"})
    assert [d.how for d in outcome(attack_options(only_unit, "h", False), "gate:narora", "w").damage] == [
        ATTACK,
        RETALIATION,
    ]
    # ai-rules, Combat: damage to an AI gate is never redirected.
    ai_gate = board(units, stacks={OPPONENT: ("w",)}, controllers={OPPONENT: AI})
    assert [o.redirected_to for o in attack_options(ai_gate, "h", False).outcomes] == [None]


def test_faq_21_units_in_their_gate_do_not_attack() -> None:
    # FAQ-21: m waits in the heirs' gate (beside a1) with an enemy on a1: it has no attack.
    units = [fighter("m", MOVER, None), fighter("e", OPPONENT, "a1")]
    options = attack_options(board(units, stacks={MOVER: ("m",)}), "m", ai=False)
    assert options.cannot and not options.outcomes and not options.must_attack


def test_faq_18_campfired_heroes_neither_attack_nor_are_attacked() -> None:
    units = [
        fighter("m", MOVER, "c1"),
        fighter("camper", OPPONENT, "d1", kind=Kind.HERO, campfire=True),
        fighter("hero", MOVER, "b1", kind=Kind.HERO, campfire=True),
        fighter("e", OPPONENT, "a1"),
    ]
    position = board(units)
    assert valid_targets(position, "m") == []
    assert attack_options(position, "hero", ai=False).cannot


def test_faq_27_engage_binds_only_within_range() -> None:
    # FAQ-27 / Engage: a hero in range of an Engage landmark minion may attack only it, and must.
    # Out of range (a1, the landmark on d1) the enemy on b1 is a free choice.
    landmark = fighter("lm", "", "d1", 3, 0, kind=Kind.LANDMARK_MINION, talents=("Engage",))
    near = board([fighter("h", MOVER, "c1", kind=Kind.HERO), fighter("e", OPPONENT, "b1"), landmark])
    bound = attack_options(near, "h", ai=False)
    assert [t.chip for t in bound.targets] == ["lm"] and bound.must_attack
    far = board([fighter("h", MOVER, "a1", kind=Kind.HERO), fighter("e", OPPONENT, "b1"), landmark])
    free = attack_options(far, "h", ai=False)
    assert [t.chip for t in free.targets] == ["e"] and not free.must_attack


def test_faq_28_flying_targets_and_retaliation() -> None:
    # FAQ-28: a Flying unit is a target only for Flying or Air Defense; FAQ-13: retaliation is not
    # an attack, so a Flying attacker is hit back by a unit without either.
    flier = fighter("bird", OPPONENT, "d1", talents=("Flying",))
    assert valid_targets(board([fighter("m", MOVER, "c1"), flier]), "m") == []
    for talent in ("Air Defense", "Flying"):
        assert valid_targets(board([fighter("m", MOVER, "c1", talents=(talent,)), flier]), "m") == ["bird"]
    position = board([fighter("m", MOVER, "c1", talents=("Flying",)), fighter("e", OPPONENT, "d1")])
    hit_back = outcome(attack_options(position, "m", False), "e").damage[1]
    assert hit_back == Damage("m", 1, "e", RETALIATION, 2, 1)


def test_range_counts_through_gate_nodes_never_through_gaps() -> None:
    # Hero Attacks, last paragraph: a1 and c1 are cut apart by a gap; only narora's gate, beside
    # both, joins them (a1 → gate → c1 = 2).  A range-2 attacker on a1 reaches c1 only then.
    units = [fighter("m", MOVER, "a1", reach=5), fighter("e", OPPONENT, "c1")]
    cut = board(units, map_text="1 p . p", gates={MOVER: ("a1",), OPPONENT: ("c1",)})
    assert valid_targets(cut, "m") == []
    units[0] = fighter("m", MOVER, "a1", reach=2)
    joined = board(units, map_text="1 p . p", gates={MOVER: ("a1",), OPPONENT: ("a1", "c1")})
    assert valid_targets(joined, "m") == ["e", "gate:narora"]


# ------------------------------------------------------------------------------------ damage


def test_faq_13_armored_and_retaliation() -> None:
    # Armored: "when this unit is attacked, reduce damage by 1"; FAQ-13: not when it is retaliated
    # against.  a (Armored, 3 health) deals 2 to e (Armored, 3): e takes 1, a takes e's full 2.
    armored = ("Armored",)
    units = [
        fighter("a", MOVER, "c1", 3, 2, talents=armored),
        fighter("e", OPPONENT, "d1", 3, 2, talents=armored),
    ]
    assert outcome(attack_options(board(units), "a", False), "e").damage == (
        Damage("e", 1, "a", ATTACK, 3, 2),
        Damage("a", 2, "e", RETALIATION, 3, 1),
    )


def test_slap_attacks_and_retaliates_with_attack_zero() -> None:
    # Slap: "attacks and retaliates even if its attack stat is 0"; without it a 0-attack unit does
    # neither.  The 0-damage hit is still listed.
    plain = board([fighter("m", MOVER, "c1", attack=0), fighter("e", OPPONENT, "d1")])
    assert attack_options(plain, "m", False).cannot
    slap = board([
        fighter("m", MOVER, "c1", attack=0, talents=("Slap",)),
        fighter("e", OPPONENT, "d1", attack=0, talents=("Slap",)),
    ])
    assert outcome(attack_options(slap, "m", False), "e").damage == (
        Damage("e", 0, "m", ATTACK, 2, 2),
        Damage("m", 0, "e", RETALIATION, 2, 2),
    )
    silent = board([fighter("m", MOVER, "c1"), fighter("e", OPPONENT, "d1", attack=0)])
    assert len(outcome(attack_options(silent, "m", False), "e").damage) == 1


def test_faq_29_fortification_is_lost_first_with_one_damage() -> None:
    # FAQ-29: a hero's fortification is an extra health lost first, to 1 damage (not 2 as on a
    # spire), and losing it counts as taking damage.
    hero = fighter("kram", OPPONENT, "d1", 2, 0, kind=Kind.HERO, upgrades=("fortification",), capacity=2)
    position = board([fighter("m", MOVER, "c1"), hero])
    assert outcome(attack_options(position, "m", False), "kram").damage == (
        Damage("kram", 1, "m", ATTACK, 2, 2, fortifications_lost=1),
    )
    assert ends(position) == {chips(ChipEnd("kram", health=2, upgrades=()))}


def test_spire_upgrades_come_off_the_bottom() -> None:
    # Attacking: 1 damage removes a bottom attack or range upgrade; a bottom fortification needs 2.
    def hit(upgrades: tuple[str, ...], attack: int, reading: str = "bare") -> tuple[str | None, bool]:
        spire = Spire("tower", OPPONENT, "d1", upgrades)
        units = [fighter("m", MOVER, "c1", attack=attack), fighter("keep", MOVER, "a1")]
        position = board(units, spires=(spire,), readings={"spire-defeat": reading})
        o = outcome(attack_options(position, "m", False), "tower")
        return o.damage[0].upgrade_removed, bool(o.defeated)

    assert hit(("fortification", "attack"), 1) == (None, False)
    assert hit(("fortification", "attack"), 2) == ("fortification", False)
    assert hit(("range", "fortification"), 1) == ("range", False)
    assert hit((), 1) == (None, True)  # spire-defeat: a bare spire falls to 1 damage
    assert hit(("attack",), 1) == ("attack", False)
    assert hit(("attack",), 1, "last-upgrade") == ("attack", True)


def test_the_gate_retaliates_at_any_range_even_when_defeated_and_is_pillaged() -> None:
    # Fortress Gate: retaliation 1, unlimited range, dealt even if the gate is defeated.  Pillaging,
    # since a third gate keeps the game going: heirs (18 of 20) gain narora's 5 up to capacity: 2;
    # narora drops to 0.  The hero (range 3) attacks from d1, three steps from the gate (d1 → e1 →
    # f1 → gate).
    hero = fighter("h", MOVER, "d1", attack=1, reach=3, kind=Kind.HERO, capacity=None)
    position = board(
        [hero, fighter("m", MOVER, None)],
        stacks={MOVER: ("m",)},
        gate_health={OPPONENT: 1},
        sources={MOVER: (18, 20), OPPONENT: (5, 20)},
    )
    position = with_third_gate(position)
    o = outcome(attack_options(position, "h", False), "gate:narora")
    assert o.damage == (
        Damage("gate:narora", 1, "h", ATTACK, 1, 0),
        Damage("h", 1, "gate:narora", GATE_RETALIATION, 2, 1),
    )
    assert o.defeated == (Defeat("gate:narora", "", MOVER, "pillaged"),)
    assert o.gains == (Gain(MOVER, source=2, pillaged=OPPONENT),)
    assert o.level_ups == (LevelUp("h", ("not-adjudicated",)),)
    assert {e.source for e in ends(position)} == {(), ((MOVER, 20), (OPPONENT, 0))}


def test_defeating_the_last_gate_but_one_ends_the_game_without_pillage() -> None:
    # Fortress Gate Pillaging: only "when ... the game does not end (because more than one fortress
    # gate still has health)". With two gates, the first to fall ends the game and the step.
    hero = fighter("h", MOVER, "d1", attack=1, reach=3, kind=Kind.HERO, capacity=None)
    position = board(
        [hero, fighter("m", MOVER, "f1")],
        gate_health={OPPONENT: 1},
        sources={MOVER: (18, 20), OPPONENT: (5, 20)},
    )
    o = outcome(attack_options(position, "h", False), "gate:narora")
    assert o.defeated == (Defeat("gate:narora", "", MOVER, "fallen"),)
    assert o.gains == () and o.game_over and not o.wave_over
    step = attack_step(position, False)
    # The hero's attack ends the game, so the minion never attacks after it; the minion's own
    # attack (first) also ends it. Either way one attack happens.
    assert all(len(e.sequence) == 1 and e.end.game_over for e in step.outcomes if e.sequence)


def test_gates_retaliate_against_every_attacker() -> None:
    # Retaliation: a gate "can retaliate multiple times per turn": two minions beside it each take 1.
    units = [fighter("m1", MOVER, "f1"), fighter("m2", MOVER, "e1", reach=2), fighter("w", OPPONENT, None)]
    assert ends(board(units, stacks={OPPONENT: ("w",)}, controllers={OPPONENT: AI})) == {
        chips(ChipEnd("gate:narora", health=8), ChipEnd("m1", health=1), ChipEnd("m2", health=1))
    }


# ------------------------------------------------------------------------------ defeat and groups


def test_a_group_reveals_its_next_chip_which_does_not_retaliate() -> None:
    # Deployment and Defeat: the top (1 health) falls to 2 damage, the excess is lost, the Brute
    # becomes active with its health stat 3, and does not retaliate for the defeated chip.
    brute = GroupedChip("Brute", Stats(health=3, attack=2))
    top = fighter("g", OPPONENT, "d1", 1, group=(brute,), reward=Reward(1))
    units = [fighter("m", MOVER, "c1", 2, 2), top]
    position = board(units)
    o = outcome(attack_options(position, "m", False), "g")
    assert o.damage == (Damage("g", 2, "m", ATTACK, 1, 0),)
    assert o.defeated == (Defeat("g", "G", MOVER, "barracks"),)
    assert o.revealed == (Reveal("g", "Brute", 3),)
    assert o.gains == (Gain(MOVER, source=1),)
    assert ends(position) == {chips(ChipEnd("g", name="Brute", health=3), source=((MOVER, 1),))}


def test_reveal_retaliation_reading() -> None:
    # reveal-retaliation: the top chip has already retaliated this turn; a (c1) or b (e1) defeats it
    # and the other then hits the revealed Brute (3 → 2).  fresh: the Brute retaliates against the
    # second attacker (2 → 1), so there are two ends; inherited: it cannot, one end.
    brute = GroupedChip("Brute", Stats(health=3, attack=1))
    top = fighter("g", OPPONENT, "d1", 1, group=(brute,), done=Done(retaliated=True))
    units = [fighter("a", MOVER, "c1"), fighter("b", MOVER, "e1"), top]
    brute_end = ChipEnd("g", name="Brute", health=2)
    assert ends(board(units)) == {
        chips(brute_end, ChipEnd("a", health=1)),
        chips(brute_end, ChipEnd("b", health=1)),
    }
    assert ends(board(units, readings={"reveal-retaliation": "inherited"})) == {chips(brute_end)}


def test_where_defeated_chips_go_and_rewards_up_to_capacity() -> None:
    # Defeat: heroes are removed from the game, merc minions and landmarks discarded, others to
    # the barracks.  Source: 19 of 20 plus a reward of 3 gains 1 (game-elements: Source).
    cases = [
        (fighter("x", OPPONENT, "d1", 1, kind=Kind.HERO, reward=Reward(3)), "removed-from-game"),
        (fighter("x", OPPONENT, "d1", 1, merc=True, reward=Reward(3)), "discard"),
        (fighter("x", "", "d1", 1, kind=Kind.LANDMARK_MINION, reward=Reward(3)), "discard"),
        (fighter("x", OPPONENT, "d1", 1, reward=Reward(3)), "barracks"),
    ]
    for victim, goes in cases:
        position = board([fighter("m", MOVER, "c1"), victim], sources={MOVER: (19, 20)})
        o = outcome(attack_options(position, "m", False), "x")
        assert o.defeated == (Defeat("x", "X", MOVER, goes),)
        assert o.gains == (Gain(MOVER, source=1),)
        # Economy (ai-rules): an AI faction gains no rewards.
        ai = outcome(attack_options(position, "m", True), "x")
        assert ai.gains == (Gain(MOVER, forfeited=True),)


def test_retaliation_that_defeats_rewards_the_retaliator_and_levels_up_its_hero() -> None:
    # Retaliation and Defeat: k (a narora hero, capacity 2) survives 1 damage and deals 2 back to m
    # (1 health): m is defeated, narora gains its reward, and k may level up.
    k = fighter("k", OPPONENT, "d1", 3, 2, kind=Kind.HERO, capacity=2)
    position = board([fighter("m", MOVER, "c1", 1, reward=Reward(2)), k, fighter("n", MOVER, "a1")])
    o = outcome(attack_options(position, "m", False), "k")
    assert o.defeated == (Defeat("m", "M", OPPONENT, "barracks"),)
    assert o.gains == (Gain(OPPONENT, source=2),)
    assert o.level_ups == (LevelUp("k", ("attack", "fortification", "none")),)


# --------------------------------------------------------------------------------- leveling up


def test_faq_26_promotion_gains_the_stat_difference() -> None:
    # FAQ-26 / Leveling Up Heroes: Kram (basic 5, promoted 6, now 2 health) at capacity 1 defeats e:
    # "none" or "promote"; promoting drops his upgrade and gains 6 - 5 = 1 health (3, not 6).  A
    # minion waits in the heirs' gate so the wave goes on; Kram may also not attack.
    kram = fighter("kram", MOVER, "c1", 2, 3, stat=5, kind=Kind.HERO, upgrades=("attack",), capacity=1,
                   promoted_stats=Stats(health=6, attack=4, movement=2))
    units = [kram, fighter("e", OPPONENT, "d1", 1), fighter("m", MOVER, None), fighter("far", OPPONENT, "f1")]
    position = board(units, stacks={MOVER: ("m",)})
    options = attack_options(position, "kram", False)
    assert outcome(options, "e").level_ups == (LevelUp("kram", ("none", "promote")),)
    down = ChipEnd("e", defeated=True)
    assert ends(position) == {
        chips(),
        chips(down),
        chips(down, ChipEnd("kram", health=3, upgrades=(), promoted=True)),
    }


def test_level_up_comes_after_the_gate_retaliates() -> None:
    # docs/combat.md, Level-up: after the whole exchange ("Retaliation is considered to be part of
    # the Attack"), so the gate's 1 hits the hero first and a fortification taken then stays.  Range
    # stat 3 ≥ 2 offers a range upgrade.  w waits in narora's (AI) gate: narora keeps a unit in play,
    # and no redirect; a third gate keeps the game going.
    hero = fighter("h", MOVER, "d1", reach=3, kind=Kind.HERO, capacity=1)
    units = [hero, fighter("m", MOVER, None), fighter("w", OPPONENT, None)]
    position = with_third_gate(board(
        units, stacks={MOVER: ("m",), OPPONENT: ("w",)}, gate_health={OPPONENT: 1}, controllers={OPPONENT: AI}
    ))
    o = outcome(attack_options(position, "h", False), "gate:narora")
    assert o.level_ups == (LevelUp("h", ("attack", "fortification", "none", "range")),)
    gate = ChipEnd("gate:narora", health=0)
    assert ends(position) == {
        chips(),
        chips(gate, ChipEnd("h", health=1, upgrades=("fortification",))),
        chips(gate, ChipEnd("h", health=1)),  # none
        chips(gate, ChipEnd("h", health=1, upgrades=("attack",))),
        chips(gate, ChipEnd("h", health=1, upgrades=("range",))),
    }


def test_a_hero_the_gate_defeats_does_not_level_up() -> None:
    # The gate's retaliation is dealt even when it is defeated; a hero it defeats levels up no more.
    hero = fighter("h", MOVER, "d1", health=1, reach=3, kind=Kind.HERO, capacity=1)
    units = [hero, fighter("m", MOVER, None), fighter("w", OPPONENT, None)]
    position = with_third_gate(board(
        units, stacks={MOVER: ("m",), OPPONENT: ("w",)}, gate_health={OPPONENT: 1}, controllers={OPPONENT: AI}
    ))
    o = outcome(attack_options(position, "h", False), "gate:narora")
    assert o.level_ups == () and Defeat("h", "H", OPPONENT, "removed-from-game") in o.defeated


def test_a_promoted_hero_fights_with_its_promoted_stats() -> None:
    # Leveling Up: a promoted unit is flipped to its promoted side; docs/combat.md: "A promoted hero
    # uses its promoted stats".  Basic attack 0, promoted 2: it may attack, and deals 2.
    hero = fighter("h", MOVER, "c1", attack=0, kind=Kind.HERO, capacity=1,
                   promoted_stats=Stats(health=3, attack=2, movement=2))
    position = board([replace(hero, promoted=True), fighter("e", OPPONENT, "d1", 3)])
    assert outcome(attack_options(position, "h", False), "e").damage[0] == Damage("e", 2, "h", ATTACK, 3, 1)


def test_ai_heroes_take_an_attack_upgrade() -> None:
    # ai-rules, Combat: AI heroes level up by an attack upgrade only, never promote.
    hero = fighter("h", MOVER, "c1", kind=Kind.HERO, capacity=0, promoted_stats=Stats(health=4, attack=2))
    units = [hero, fighter("e", OPPONENT, "d1", 1), fighter("m", MOVER, None), fighter("far", OPPONENT, "f1")]
    position = board(units, stacks={MOVER: ("m",)})
    assert outcome(attack_options(position, "h", True), "e").level_ups == (LevelUp("h", ("attack",)),)
    upgraded = ChipEnd("h", health=2, upgrades=("attack",))
    assert ends(position, ai=True) == {chips(ChipEnd("e", defeated=True), upgraded)}


# ------------------------------------------------------------------------------ the wave, campfire


def test_the_last_minion_ends_the_wave() -> None:
    # Defeat: "the current wave ends immediately when all minions in play have been defeated".
    position = board([fighter("h", MOVER, "c1", kind=Kind.HERO), fighter("e", OPPONENT, "d1", 1)])
    assert outcome(attack_options(position, "h", False), "e").wave_over
    assert chips(ChipEnd("e", defeated=True), wave_over=True) in ends(position)


def test_campfire_when_only_one_faction_has_units() -> None:
    # Campfire Mode: at the end of a turn in which only the heirs have units, their heroes go into
    # campfire mode.  start-of-turn names the same faction, for the start of its turn.
    hero = fighter("h", MOVER, "a1", kind=Kind.HERO)
    units = [fighter("m", MOVER, "c1"), hero, fighter("e", OPPONENT, "d1", 1)]
    down = ChipEnd("e", defeated=True)
    assert ends(board(units)) == {chips(down, campfire=(MOVER,), campfire_when="end-of-turn")}
    later = board(units, readings={"campfire": "start-of-turn"})
    assert ends(later) == {chips(down, campfire=(MOVER,), campfire_when="start-of-turn")}


# ---------------------------------------------------------------------------------------- the AI


def test_ai_unit_priority_gate_first_then_defeats() -> None:
    # AI unit attack priority (standard): an opposing gate first; else a minion it can defeat (4)
    # before a hero it can only damage (6); ties are all listed.
    hero = fighter("k", OPPONENT, "f1", 3, kind=Kind.HERO)
    units = [fighter("m", MOVER, "e1", reach=2), fighter("x", OPPONENT, "d1", 1), hero]
    options = attack_options(board(units), "m", ai=True)
    assert {(t.chip, t.priority, t.category) for t in options.targets} == {
        ("gate:narora", 1, "gate"),
        ("x", 4, "defeat-minion"),
        ("k", 6, "damage-hero"),
    }
    assert [o.target for o in options.outcomes] == ["gate:narora"] and options.must_attack
    tie = board([fighter("m", MOVER, "c1"), fighter("x", OPPONENT, "d1", 1), fighter("y", OPPONENT, "b1", 1)])
    assert [o.target for o in attack_options(tie, "m", ai=True).outcomes] == ["x", "y"]


def test_ai_priority_reads_fortifications_and_spire_damage() -> None:
    # FAQ-29 in the AI list: a hero with 1 health and a fortification is not one 1 damage defeats
    # (damage-hero, 6), so the defeatable minion (4) wins.  A spire with a bottom fortification is
    # not damaged by 1: after the list it is just a valid target (11).
    hero = fighter("k", OPPONENT, "d1", 1, kind=Kind.HERO, upgrades=("fortification",))
    units = [fighter("m", MOVER, "c1"), hero, fighter("x", OPPONENT, "b1", 1)]
    spire = Spire("tower", OPPONENT, "b2", ("fortification",))
    position = board(units, map_text="1 p p p p p p\n2 p p p p p p", spires=(spire,))
    options = attack_options(position, "m", ai=True)
    assert {t.chip: (t.priority, t.category) for t in options.targets} == {
        "k": (6, "damage-hero"),
        "x": (4, "defeat-minion"),
        "tower": (11, FALLBACK),
    }
    assert [o.target for o in options.outcomes] == ["x"]


def test_harbinger_6_puts_spires_first() -> None:
    # Harbinger chapter 6: "1. Opposing spire it can defeat", ahead of the gate.
    spire = Spire("tower", OPPONENT, "e1", ())
    units = [fighter("m", MOVER, "f1"), fighter("keep", MOVER, "a1")]
    harbinger = AiPriority(presets("units")["harbinger-6"], presets("spires")["standard"])
    options = attack_options(board(units, spires=(spire,), priorities=harbinger), "m", ai=True)
    assert [o.target for o in options.outcomes] == ["tower"]


def test_ai_heroes_skip_attacks_that_do_no_damage() -> None:
    # ai-rules (secondary): AI heroes skip an attack that would do no damage; a player's hero may
    # still make it (Armored takes its 1 to 0).
    units = [fighter("h", MOVER, "c1", kind=Kind.HERO), fighter("e", OPPONENT, "d1", talents=("Armored",))]
    position = board(units)
    ai = attack_options(position, "h", ai=True)
    assert not ai.outcomes and not ai.must_attack and [t.chip for t in ai.targets] == ["e"]
    player = attack_options(position, "h", ai=False)
    assert outcome(player, "e").damage[0] == Damage("e", 0, "h", ATTACK, 2, 2) and not player.must_attack


def test_tough_caps_retaliation_at_two_not_the_attack() -> None:
    # Tough (master-talent-list): "If retaliation damage dealt to this unit exceeds 2, reduce it to 2."
    # m attacks e for 1; e retaliates 3, cut to 2.  An attack of 3 on the Tough unit is not cut.
    tough = board([fighter("m", MOVER, "c1", 4, talents=("Tough",)), fighter("e", OPPONENT, "d1", 3, 3)])
    assert outcome(attack_options(tough, "m", ai=False), "e").damage == (
        Damage("e", 1, "m", ATTACK, 3, 2), Damage("m", 2, "e", RETALIATION, 4, 2))
    struck = board([fighter("m", MOVER, "c1", 3, 3), fighter("e", OPPONENT, "d1", 3, talents=("Tough",))])
    assert outcome(attack_options(struck, "m", ai=False), "e").damage == (Damage("e", 3, "m", ATTACK, 3, 0),)


def test_hunter_adds_one_on_a_landmark_minion_only() -> None:
    # Hunter: "When attacking a landmark, deal +1 damage".  1 + 1 on the landmark minion (which
    # retaliates 1); a faction minion takes the plain 1.
    hunter = fighter("m", MOVER, "c1", 3, talents=("Hunter",))
    beast = fighter("b", "", "d1", 3, kind=Kind.LANDMARK_MINION)
    assert outcome(attack_options(board([hunter, beast]), "m", ai=False), "b").damage == (
        Damage("b", 2, "m", ATTACK, 3, 1), Damage("m", 1, "b", RETALIATION, 3, 2))
    plain = board([hunter, fighter("e", OPPONENT, "d1", 3)])
    assert outcome(attack_options(plain, "m", ai=False), "e").damage[0] == Damage("e", 1, "m", ATTACK, 3, 2)


def test_prepared_takes_one_off_retaliation_before_tough_caps_it() -> None:
    # Prepared: retaliation "by another unit, reduce the damage by 1"; with Tough, 4 - 1 = 3 -> 2.
    # A gate's retaliation is no unit's: the full 1.
    both = fighter("m", MOVER, "c1", 4, talents=("Prepared", "Tough"))
    ready = board([both, fighter("e", OPPONENT, "d1", 3, 4)])
    assert outcome(attack_options(ready, "m", ai=False), "e").damage[1] == Damage("m", 2, "e", RETALIATION, 4, 2)
    at_gate = board([fighter("m", MOVER, "f1", 2, talents=("Prepared",))])
    assert outcome(attack_options(at_gate, "m", ai=False), "gate:narora").damage[1] == Damage(
        "m", 1, "gate:narora", GATE_RETALIATION, 2, 1)


def test_dexterity_turns_a_defeating_retaliation_into_none() -> None:
    # Dexterity: retaliation that "would defeat this unit" deals 0: 2 on 1 health and 1
    # fortification would; 2 on 3 health would not, and is dealt.
    nimble = fighter("m", MOVER, "c1", 1, talents=("Dexterity",), upgrades=("fortification",))
    spared = board([nimble, fighter("e", OPPONENT, "d1", 3, 2)])
    assert outcome(attack_options(spared, "m", ai=False), "e").damage[1] == Damage("m", 0, "e", RETALIATION, 1, 1)
    hardy = board([fighter("m", MOVER, "c1", 3, talents=("Dexterity",)), fighter("e", OPPONENT, "d1", 3, 2)])
    assert outcome(attack_options(hardy, "m", ai=False), "e").damage[1] == Damage("m", 2, "e", RETALIATION, 3, 1)


def test_evasive_caps_an_attack_by_a_unit_with_range() -> None:
    # Evasive (master-talent-list): attacked "by a unit with Range, reduce the damage dealt to 1";
    # range 2 is Range even when adjacent (reading); Armored comes first, the cap last: 3 - 1 = 2 -> 1.
    e = fighter("e", OPPONENT, "d1", 3, talents=("Armored", "Evasive"))
    ranged = board([fighter("m", MOVER, "c1", 3, 3, reach=2), e])
    assert outcome(attack_options(ranged, "m", ai=False), "e").damage[0] == Damage("e", 1, "m", ATTACK, 3, 2)
    melee = board([fighter("m", MOVER, "c1", 3, 3), e])
    assert outcome(attack_options(melee, "m", ai=False), "e").damage[0] == Damage("e", 2, "m", ATTACK, 3, 1)


# ----------------------------------------------------------------------------------- Spires Fire


def fire_odds(position: Position) -> dict[EndState, Fraction]:
    result = spires_fire(position)
    assert result.count == len(result.results)
    return {r.end: r.probability for r in result.results}


def test_pistoleer_shoots_two_hexes_away_then_flips_and_gives_up_an_upgrade() -> None:
    # Pistoleer: "may attack an opposing unit 2 hexes away. If it does, flip this unit to its other side
    # and remove an upgrade of your choice"; the AI's "if there are no adjacent units, spires, or
    # fortress gates that this unit would damage", upgrades "fortification, range, attack" (N73).
    # gun (b1, attack 1 + 1) shoots foe (d1, health 3): 3 -> 1; foe's range 1 does not reach b1.
    gun = fighter("gun", MOVER, "b1", talents=("Pistoleer",), upgrades=("attack", "fortification"))
    foe = fighter("foe", OPPONENT, "d1", health=3)
    player = attack_options(board([gun, foe]), "gun", False)
    assert player.must_attack and [t.chip for t in player.targets] == ["foe"]
    assert sorted(o.unloaded for o in player.outcomes) == [(("gun", "attack"),), (("gun", "fortification"),)]
    assert all(o.flipped == ("gun",) and o.damage_by_chip() == {"foe": 2} for o in player.outcomes)
    ai = attack_options(board([gun, foe], controllers={MOVER: AI, OPPONENT: PLAYER}), "gun", True)
    assert [o.unloaded for o in ai.outcomes] == [(("gun", "fortification"),)]
    # A unit beside it that its attack damages (c1): the AI attacks that one, no flip; a player either.
    near = fighter("near", OPPONENT, "c1", health=3, attack=0)
    ai = attack_options(board([gun, foe, near], controllers={MOVER: AI, OPPONENT: PLAYER}), "gun", True)
    assert [(o.target, o.flipped) for o in ai.outcomes] == [("near", ())]
    player = attack_options(board([gun, foe, near]), "gun", False)
    assert sorted({o.target for o in player.outcomes}) == ["foe", "near"]


def test_survival_held_ai_unit_does_not_attack() -> None:
    # Survival (AI): "it will not move or attack"; done: held says the movement step held it (N80). A
    # player's unit so written still attacks (the player's wording has no such rule).
    held = fighter("held", MOVER, "c1", talents=("Survival",), done=Done(held=True))
    foe = fighter("foe", OPPONENT, "d1")
    ai = attack_options(board([held, foe], controllers={MOVER: AI, OPPONENT: PLAYER}), "held", True)
    assert ai.cannot and not ai.must_attack and not ai.outcomes
    player = attack_options(board([held, foe]), "held", False)
    assert player.must_attack and [o.target for o in player.outcomes] == ["foe"]


def test_one_die_at_a_one_health_minion() -> None:
    # The default die: miss, blank, 1, 1, 1, 2.  1 health falls to any hit: 4/6.  Armored needs the
    # 2: 1/6.  A spire with no attack upgrade (tower2) does not fire; a heirs spire does not fire
    # on the heirs' turn.
    spires = (Spire("tower", OPPONENT, "d1", ("attack",)), Spire("tower2", OPPONENT, "b1", ("range",)),
              Spire("own", MOVER, "e1", ("attack",)))
    down = chips(ChipEnd("m", defeated=True))
    plain = board([fighter("m", MOVER, "c1", 1), fighter("x", OPPONENT, "a1")], spires=spires)
    assert fire_odds(plain) == {down: Fraction(2, 3), chips(): Fraction(1, 3)}
    assert [s.spire for s in spires_fire(plain).spires] == ["tower"]
    shielded = fighter("m", MOVER, "c1", 1, talents=("Armored",))
    armored = board([shielded, fighter("x", OPPONENT, "a1")], spires=spires)
    assert fire_odds(armored) == {down: Fraction(1, 6), chips(): Fraction(5, 6)}


def test_battle_hardened_takes_two_off_a_spire_shot() -> None:
    # Battle Hardened: "attacked by a spire, reduce the damage dealt by 2".  Two dice at 1 health:
    # only totals 3 (6/36) and 4 (1/36) get through.
    spire = Spire("tower", OPPONENT, "d1", ("attack", "attack"))
    units = [fighter("m", MOVER, "c1", 1, talents=("Battle Hardened",)), fighter("x", OPPONENT, "a1")]
    hardened = board(units, spires=(spire,))
    assert fire_odds(hardened) == {chips(ChipEnd("m", defeated=True)): Fraction(7, 36), chips(): Fraction(29, 36)}


def test_ai_spire_odds_reading() -> None:
    # AI spire priority with one die: a hero with 2 health "can" be defeated by the 2 (possible,
    # priority 1), though only 1/6 of the time; under likely (≥ 1/2) it is the minion (4/6).
    spire = Spire("tower", OPPONENT, "c1", ("attack",))
    units = [fighter("k", MOVER, "b1", kind=Kind.HERO), fighter("m", MOVER, "d1", 1)]
    possible = board(units, spires=(spire,), controllers={OPPONENT: AI})
    assert {s.target for r in spires_fire(possible).results for s in r.shots} == {"k"}
    likely = board(units, spires=(spire,), controllers={OPPONENT: AI}, readings={"ai-spire-odds": "likely"})
    assert {s.target for r in spires_fire(likely).results for s in r.shots} == {"m"}


def test_air_defense_prefers_flying_and_a_player_spire_chooses() -> None:
    # Air Defense (AI list): among targets of the same priority, Flying units first.  A player's
    # spire may pick either: two lines of choices, each adding up to 1.
    spire = Spire("tower", OPPONENT, "c1", ("attack",), talents=("Air Defense",))
    units = [fighter("bird", MOVER, "b1", 3, talents=("Flying",)), fighter("m", MOVER, "d1", 3)]
    ai = spires_fire(board(units, spires=(spire,), controllers={OPPONENT: AI}))
    assert {s.target for r in ai.results for s in r.shots} == {"bird"} and not ai.decisions
    player = spires_fire(board(units, spires=(spire,)))
    lines: dict[tuple[tuple[str, str], ...], Fraction] = {}
    for r in player.results:
        lines[r.choices] = lines.get(r.choices, Fraction(0)) + r.probability
    assert lines == {(("tower", "bird"),): Fraction(1), (("tower", "m"),): Fraction(1)}


# ------------------------------------------------------------------------ the strategies' printer


@settings(max_examples=examples(60), deadline=None)
@given(combat_positions())
def test_generated_positions_print_as_loadable_files(position: Position) -> None:
    assert load_position_text(describe_combat(position)) == position


def test_self_destruct_at_the_edge_of_a_turn() -> None:
    # N105, N106 on the hand-derived positions (their comments work the numbers out): the player's
    # bomber may destruct, 4 damage (one upgrade); the AI's destruct only where that defeats.
    folder = Path(__file__).resolve().parents[1] / "positions" / "talents" / "self-destruct"
    player = turn_edge(load_position(folder / "self-destruct-player-blast.yaml"), False)
    blast = (ChipEnd("bomber", defeated=True), ChipEnd("drift", defeated=True), ChipEnd("golem", health=2),
             ChipEnd("tower", upgrades=("attack",)))
    assert player == {EndState(()), EndState(tuple(sorted(blast)), source=(("heirs", 2),))}
    ai = turn_edge(load_position(folder / "self-destruct-ai-defeats.yaml"), True)
    fallen = (*(ChipEnd(u, defeated=True) for u in ("blaster", "boom", "joust", "post")), ChipEnd("knight", health=2))
    assert ai == {EndState(tuple(sorted(fallen)))}
    assert turn_edge(load_position(folder / "self-destruct-ai-no-defeat.yaml"), True) == {EndState(())}


def test_recruitable_at_the_end_of_a_turn() -> None:
    # N122 on the hand-derived positions: the wild the heirs attacked may be taken (its health given);
    # the one the narora control, and the Untamed one, may not; nothing at the start of the turn.
    folder = Path(__file__).resolve().parents[1] / "positions" / "talents" / "recruitable"
    may = load_position(folder / "recruitable-player-may.yaml")
    assert turn_edge(may, False, "end") == {EndState(()), EndState((ChipEnd("wild", health=1, control="heirs"),))}
    assert turn_edge(may, False, "start") == {EndState(())}
    assert turn_edge(load_position(folder / "recruitable-controlled-or-untamed-nothing.yaml"), False, "end") == {
        EndState(())}


def test_fountain_at_the_start_of_the_round() -> None:
    # N124 on the hand-derived positions: on the round's first turn the joust beside two Fountains
    # recovers 4 (to its stat, 5), the narora drift 2 but only to 2; on a later turn nothing from
    # Fountain (the drift's Healing is not the reference's: its boards hold none).
    folder = Path(__file__).resolve().parents[1] / "positions" / "talents" / "fountain"
    start = turn_edge(load_position(folder / "fountain-round-start-recovers.yaml"), False)
    assert start == {EndState((ChipEnd("drift", health=2), ChipEnd("joust", health=5)))}
    assert turn_edge(load_position(folder / "fountain-round-start-recovers.yaml"), False, "end") == {EndState(())}
    later = turn_edge(load_position(folder / "fountain-not-round-start-nothing.yaml"), True)
    assert later == {EndState(())}


def test_fountain_before_self_destruct() -> None:
    # N333 on the hand-derived positions: the drift recovers to 3 before the player's blast, which leaves
    # it on 1; the AI's boom, weighing its blast on the joust recovered to 3, keeps still, its bang
    # destructs on the harrier Fountain cannot raise; on a later turn the blast defeats the drift.
    folder = Path(__file__).resolve().parents[1] / "positions" / "talents" / "fountain"
    player = turn_edge(load_position(folder / "fountain-recovers-before-self-destruct.yaml"), False)
    assert player == {EndState((ChipEnd("drift", health=3),)),
                      EndState((ChipEnd("bomb", defeated=True), ChipEnd("drift", health=1)))}
    ai = turn_edge(load_position(folder / "fountain-before-ai-self-destruct.yaml"), True)
    assert ai == {EndState((ChipEnd("bang", defeated=True), ChipEnd("harrier", defeated=True), ChipEnd("joust", health=3)))}
    later = turn_edge(load_position(folder / "fountain-not-round-start-self-destruct.yaml"), False)
    assert {e.wave_over for e in later} == {False, True}
    assert {tuple(c.chip for c in e.chips if c.defeated) for e in later} == {(), ("bomb", "drift")}


def test_spawn_at_the_start_of_the_first_onslaught_turn() -> None:
    # N125 on the hand-derived positions: the player's Brood Nest may place the larva on b1 or c2, or
    # not; the AI's places it on d1, nearest its mark; on a later turn nothing is placed.
    folder = Path(__file__).resolve().parents[1] / "positions" / "talents" / "spawn"

    def larva(at: str) -> EndState:
        return EndState((ChipEnd("larva1", health=1, at=at),))

    assert turn_edge(load_position(folder / "spawn-player-may.yaml"), False) == {EndState(()), larva("b1"), larva("c2")}
    assert turn_edge(load_position(folder / "spawn-ai-nearest-mark.yaml"), True) == {larva("d1")}
    assert turn_edge(load_position(folder / "spawn-not-first-turn-nothing.yaml"), False) == {EndState(())}


def test_source_and_prophesy_rob_after_the_rewards() -> None:
    # N112, N113 on the hand-derived positions (their comments work the numbers out): the Source upgrade
    # steals 2, or what there is, after the reward; Prophesy's faction steals the reward the defeating
    # faction is not awarded, the AI's gains nothing; a unit fallen first steals nothing.
    root = Path(__file__).resolve().parents[1] / "positions" / "talents"
    source, prophesy = root / "source", root / "prophesy"
    briar = ChipEnd("briar", defeated=True)
    assert ends(load_position(source / "source-steals-two-after-the-reward.yaml")) == {
        chips(briar, source=(("graft", 3), ("heirs", 6)))}
    assert ends(load_position(source / "source-only-what-there-is-to-steal.yaml")) == {
        chips(briar, source=(("graft", 0), ("heirs", 4)))}
    assert ends(load_position(source / "source-spike-unit-fallen-first-steals-nothing.yaml")) == {
        chips(briar, ChipEnd("harrier", defeated=True), source=(("graft", 6), ("heirs", 4)))}
    seer = ChipEnd("seer", defeated=True)
    assert ends(load_position(prophesy / "prophesy-player-steals-the-reward.yaml")) == {
        chips(seer, source=(("graft", 5), ("heirs", 1)))}
    assert ends(load_position(prophesy / "prophesy-ai-defeater-loses-what-it-has.yaml")) == {
        chips(seer, source=(("heirs", 0),))}
    assert ends(load_position(prophesy / "prophesy-two-thieves-too-little-noticed.yaml")) == {
        chips(seer, source=(("graft", 2), ("heirs", 1))),
        chips(seer, ChipEnd("oracle", defeated=True), source=(("graft", 2), ("heirs", 0), ("narora", 1)))}


def test_raze_at_the_start_of_the_turn() -> None:
    # N120 on the hand-derived positions (their chances are the positions'): the player's tower may take
    # the post's fortification with 2 or more, or fail, or not attack; the AI's maw attacks the gate
    # (10, 9 or 8 left) and loses its range upgrade; with no gate in range, the spire with the fewest
    # upgrades; nothing in reach, nothing changes.
    folder = Path(__file__).resolve().parents[1] / "positions" / "talents" / "raze"
    player = turn_edge(load_position(folder / "raze-player-may.yaml"), False)
    assert player == {EndState(()), EndState((ChipEnd("post", upgrades=("attack",)),))}
    assert turn_edge(load_position(folder / "raze-player-may.yaml"), False, "end") == {EndState(())}
    maw = ChipEnd("maw", upgrades=("attack",))
    gate = turn_edge(load_position(folder / "raze-ai-gate-first.yaml"), True)
    assert gate == {EndState((maw,)), *(EndState(tuple(sorted((maw, ChipEnd(gate_node("heirs"), health=h)))))
                                        for h in (9, 8))}
    fewest = turn_edge(load_position(folder / "raze-ai-fewest-upgrades.yaml"), True)
    assert fewest == {EndState(()), EndState((ChipEnd("small", upgrades=()),))}
    assert turn_edge(load_position(folder / "raze-nothing-in-reach.yaml"), False) == {EndState(())}


def test_translocate_at_the_start_of_the_turn() -> None:
    # N121 on the hand-derived positions: the skiff may swap with the mast on its isle or the hull on the
    # touching one, not the spire on a far isle nor the heirs' post; the AI's does not swap.
    folder = Path(__file__).resolve().parents[1] / "positions" / "talents" / "translocate"

    def swap(other: str, to: str) -> EndState:
        return EndState(tuple(sorted((ChipEnd("skiff", at=to), ChipEnd(other, at="a1")))))

    player = turn_edge(load_position(folder / "translocate-player-swaps.yaml"), False)
    assert player == {EndState(()), swap("mast", "c1"), swap("hull", "e1")}
    assert turn_edge(load_position(folder / "translocate-player-swaps.yaml"), False, "end") == {EndState(())}
    assert turn_edge(load_position(folder / "translocate-ai-no-effect.yaml"), True) == {EndState(())}


def test_unstable_at_the_start_of_the_uprisings_turn() -> None:
    # N123 on the hand-derived positions: the waygate may flip, defeating the Peaceful fox and the
    # Uprising's own cutter beside it, for the fox's 2 Source (3 -> 5); with the other waygate
    # destroyed, or a unit waiting to deploy, it may not.
    folder = Path(__file__).resolve().parents[1] / "positions" / "talents" / "unstable"
    flipped = (ChipEnd("cutter", defeated=True), ChipEnd("fox", defeated=True), ChipEnd("wg", health=0))
    assert turn_edge(load_position(folder / "unstable-player-flips.yaml"), False) == {
        EndState(()), EndState(flipped, source=(("uprising", 5),))}
    assert turn_edge(load_position(folder / "unstable-only-waygate-nothing.yaml"), False) == {EndState(())}
    assert turn_edge(load_position(folder / "unstable-units-waiting-noticed.yaml"), False) == {EndState(())}


def test_exploration_reveals_beside_and_the_rift_defeats() -> None:
    # N150 on the hand-derived positions: the joust may reveal the rift beside it, which defeats it and
    # the kite's group beside it for 2 + 1 Source (3 -> 6) and leaves play, or keep it; an AI's drift,
    # or a unit two hexes off, reveals nothing; a landmark no one describes is only revealed.
    folder = Path(__file__).resolve().parents[1] / "positions" / "talents" / "unstable-rift"
    fallen = (ChipEnd("joust", defeated=True), ChipEnd("kite", defeated=True), ChipEnd("rift", revealed=True, removed=True))
    assert exploration(load_position(folder / "unstable-rift-revealed-defeats-beside.yaml"), False) == {
        EndState(()), EndState(fallen, source=(("heirs", 6),))}
    assert exploration(load_position(folder / "unstable-rift-ai-explores-nothing.yaml"), True) == {EndState(())}
    assert exploration(load_position(folder / "unstable-rift-not-beside-nothing.yaml"), False) == {EndState(())}
    turn = Path(__file__).resolve().parents[1] / "positions" / "turn" / "turn-player-explores-face-down-landmark.yaml"
    assert exploration(load_position(turn), False) == {EndState(()), EndState((ChipEnd("ruin", revealed=True),))}
    # N161: Jaelana may leave the quest, or reveal it and go home (5 + 4) or fall (5 + 6); a minion beside
    # it may not reveal it.
    quest = Path(__file__).resolve().parents[1] / "positions" / "talents" / "heros-quest"
    assert exploration(load_position(quest / "heros-quest-hero-returns-or-falls.yaml"), False) == {
        EndState(()), EndState((ChipEnd("jaelana", returned=True),), source=(("heirs", 9),)),
        EndState((ChipEnd("jaelana", defeated=True), ChipEnd("quest", revealed=True, removed=True)),
                 source=(("heirs", 11),))}
    assert exploration(load_position(quest / "heros-quest-only-a-hero-reveals.yaml"), False) == {EndState(())}


def test_the_end_of_the_wave_returns_gains_and_wakes() -> None:
    # N160 on the hand-derived positions: the Precious elfinkaze returns and the campfired Jaelana wakes;
    # the drill may return for 16 + 6 = 22, capped at 20, the AI's pit never; two player Refineries give
    # 5 + 4 = 9, the AI's none; the forsaken stay.
    talents = Path(__file__).resolve().parents[1] / "positions" / "talents"
    returned = EndState((ChipEnd("elfinkaze", returned=True), ChipEnd("jaelana", woke=True)))
    for ai in (False, True):
        assert end_of_wave(load_position(talents / "precious" / "precious-end-of-wave-returns-elfinkaze.yaml"), ai) == {
            returned}
        assert end_of_wave(load_position(talents / "neglected" / "neglected-end-of-wave-forsaken-stay.yaml"), ai) == {
            EndState(())}
    # The narora's turn, the AI's: its tank gives nothing (played as a player's, it would give 3 + 2).
    assert end_of_wave(load_position(talents / "refinery" / "refinery-end-of-wave-player-gains.yaml"), True) == {
        EndState((), (("heirs", 9),))}
    assert end_of_wave(load_position(talents / "fountain" / "fountain-discarded-at-end-of-wave.yaml"), False) == {
        EndState((ChipEnd("spring", removed=True),))}
    assert end_of_wave(load_position(talents / "mining" / "mining-end-of-wave-may-return.yaml"), False) == {
        EndState(()), EndState((ChipEnd("drill", returned=True),), (("heirs", 20),))}


def test_volley_splash_and_a_hero_levelling_up_where_a_walloped_unit_lands() -> None:
    # N135 and N138 on the hand-derived positions (their comments work the odds out). The AI stone's
    # volley hits the hob and the imp, and splashes once: its own gob beside both loses 1, not 2; the
    # far beside the imp 1. The magma's Lahar defeats the hob the muskeg walloped onto e1: the magma, a
    # player's hero below its capacity, may take an attack or a fortification upgrade, or none.
    root = Path(__file__).resolve().parents[1] / "positions" / "talents"
    volley = spires_fire(load_position(root / "splash" / "splash-volley-ai-once-beside-two.yaml"))
    splashed = (ChipEnd("far", health=1), ChipEnd("gob", health=1))
    assert {(r.probability, r.end) for r in volley.results} == {
        (Fraction(1, 3), chips(*splashed)),
        (Fraction(1, 2), chips(*splashed, ChipEnd("hob", health=2), ChipEnd("imp", health=2))),
        (Fraction(1, 6), chips(*splashed, ChipEnd("hob", health=1), ChipEnd("imp", health=1)))}
    landed = spires_fire(load_position(root / "lahar" / "lahar-wallop-teleport-hero-levels-up.yaml"))
    on_e1 = (("muskeg", "Wallop"), ("muskeg", "hob"), ("muskeg", "e1"))
    assert {next((c.upgrades for c in r.end.chips if c.chip == "magma"), None)
            for r in landed.results if r.choices == on_e1} == {None, ("attack",), ("fortification",)}


def test_morale_raises_the_die_for_each_opposing_unit_defeated() -> None:
    # N156: tinbeard (a player's hero, Morale) defeats the grunt, an opposing unit: the horizons' die, 2,
    # goes to 3; its attack on a grunt with 3 health defeats nothing, and the die stays. A die at 6 stays
    # at 6 (its highest face).
    folder = Path(__file__).resolve().parents[1] / "positions" / "talents" / "morale"
    rises = load_position(folder / "morale-player-die-rises.yaml")
    assert outcome(attack_options(rises, "tinbeard", False), "grunt").morale == (("horizons", 1),)
    assert {e.morale for e in ends(rises)} == {(), (("horizons", 3),)}
    still = load_position(folder / "morale-no-defeat-nothing.yaml")
    assert outcome(attack_options(still, "tinbeard", False), "grunt").morale == ()
    top = replace(rises, factions={**rises.factions, "horizons": replace(rises.factions["horizons"], morale=6)})
    assert outcome(attack_options(top, "tinbeard", False), "grunt").morale == ()


def test_powerhouse_promotes_a_worm_waiting_in_the_barracks() -> None:
    # N263 on the hand-derived positions (their comments work the numbers out): the joust defeats the
    # graft's mito (Powerhouse); a player's graft may promote its basic Rotten Worms in the barracks, or not
    # (the briar there is no worm); played by the AI, nothing is promoted. A listing names the worm.
    folder = Path(__file__).resolve().parents[1] / "positions" / "talents" / "powerhouse"
    may = load_position(folder / "powerhouse-player-may-promote-worms.yaml")
    fallen = ChipEnd("mito", defeated=True)
    assert {e for e in ends(may)} == {EndState((fallen,)), EndState(tuple(sorted((fallen, ChipEnd("worm", promoted=True)))))}
    assert outcome(attack_options(may, "joust", False), "mito").offered == (("worm", "promote", "Powerhouse"),)
    assert {e for e in ends(load_position(folder / "powerhouse-ai-nothing.yaml"))} == {EndState((fallen,))}


def test_sourcefield_pays_nothing_for_a_chip_an_eager_swap_felled() -> None:
    # N273 on the hand-derived position (its comment works it out): the swap moves the drift beside the
    # ooze's Toxic Secretion, its chip falls and the Drift Mate (Sourcefield too) shows; the attack deals
    # nothing, so narora pays nothing: one end, its 3 Source kept.
    folder = Path(__file__).resolve().parents[1] / "positions" / "talents" / "sourcefield"
    felled = load_position(folder / "sourcefield-eager-swap-felled-nothing-to-pay.yaml")
    assert ends(felled) == {chips(ChipEnd("drift", name="Drift Mate", health=2, at="b1"),
                                  ChipEnd("joust", health=2, at="c1"))}


def test_explosion_where_a_swap_or_a_teleport_moves_a_unit_beside_it() -> None:
    # N274 on the hand-derived positions (their comments work the odds out). The joust swapped onto c1
    # beside the bomb rolls: 1 leaves it 2 (then 1 after the retaliation), 2 leaves it 1 (the retaliation
    # fells it), 3 to 6 fell it before it deals anything; the bomb is discarded. The hob walloped onto d1
    # beside the bomb (3 health after the 1) keeps 2 or 1, or falls on 3 to 6.
    folder = Path(__file__).resolve().parents[1] / "positions" / "talents" / "explosion"
    swap = load_position(folder / "explosion-eager-swap-rolls-the-d6.yaml")
    assert sorted(o.probability for o in attack_options(swap, "joust", False).outcomes) == [
        Fraction(1, 6), Fraction(1, 6), Fraction(2, 3)]
    gone = ChipEnd("bomb", discarded=True)
    assert {(e.probability, e.end) for e in attack_step(swap, False).outcomes} == {
        (Fraction(1, 6), chips(gone, ChipEnd("hob", health=1, at="b1"), ChipEnd("joust", health=1, at="c1"))),
        (Fraction(1, 6), chips(gone, ChipEnd("hob", health=1, at="b1"), ChipEnd("joust", defeated=True))),
        (Fraction(2, 3), chips(gone, ChipEnd("hob", health=2, at="b1"), ChipEnd("joust", defeated=True)))}
    fire = spires_fire(load_position(folder / "explosion-wallop-teleport-rolls-the-d6.yaml"))
    on_d1 = (("muskeg", "Wallop"), ("muskeg", "hob"), ("muskeg", "d1"))
    assert {(r.probability, tuple(c for c in r.end.chips if c.chip != "muskeg")) for r in fire.results
            if r.choices == on_d1} == {
        (Fraction(1, 6), (gone, ChipEnd("hob", health=2, at="d1"))),
        (Fraction(1, 6), (gone, ChipEnd("hob", health=1, at="d1"))),
        (Fraction(2, 3), (gone, ChipEnd("hob", defeated=True)))}


def test_explosion_where_a_swap_moves_a_unit_beside_two_chips_at_once() -> None:
    # N292 on the hand-derived position (its comment works the odds out): the joust (health 4) swapped onto
    # c1 beside two bombs rolls two D6s and takes their total: 2 (1/36) leaves it 2, then 1 after the
    # retaliation; 3 (2 pairs, 1/18) leaves it 1, the retaliation fells it; 4 or more (11/12) fells it
    # before it deals anything. Both bombs are discarded.
    folder = Path(__file__).resolve().parents[1] / "positions" / "talents" / "explosion"
    swap = load_position(folder / "explosion-eager-swap-beside-two-chips-rolls-two-dice.yaml")
    gone = (ChipEnd("bomb0", discarded=True), ChipEnd("bomb1", discarded=True))
    assert {(e.probability, e.end) for e in attack_step(swap, False).outcomes} == {
        (Fraction(1, 36), chips(*gone, ChipEnd("hob", health=1, at="b1"), ChipEnd("joust", health=1, at="c1"))),
        (Fraction(1, 18), chips(*gone, ChipEnd("hob", health=1, at="b1"), ChipEnd("joust", defeated=True))),
        (Fraction(11, 12), chips(*gone, ChipEnd("hob", health=2, at="b1"), ChipEnd("joust", defeated=True)))}


def test_grafted_snare_holds_while_a_splash_lands() -> None:
    # N339 on the hand-derived positions (their comments work it out): the splash defeats the bramble,
    # the dodger's only Graft neighbour, and the dodger's own hit of that splash still ignores its Dodge;
    # beside no Graft unit it dodges.
    folder = Path(__file__).resolve().parents[1] / "positions" / "harbinger" / "2"
    held = attack_options(load_position(folder / "scenario-2-snare-holds-through-a-splash.yaml"), "lasher", ai=True)
    assert [(sorted(d.chip for d in o.defeated), o.dodged) for o in held.outcomes] == [(["bramble", "dodger"], ())]
    free = attack_options(load_position(folder / "scenario-2-snare-splash-dodged-unsnared.yaml"), "lasher", ai=True)
    assert [(o.defeated, o.dodged) for o in free.outcomes] == [((), ("dodger",))]


def test_grafted_snare_holds_while_an_entropy_blast_lands() -> None:
    # N339 on the hand-derived position (its comment works it out): the wisp's self-defeat and its blast land
    # together, so the monk, the wisp its only Graft neighbour, has no Peaceful and falls to the blast.
    folder = Path(__file__).resolve().parents[1] / "positions" / "harbinger" / "2"
    held = attack_options(load_position(folder / "scenario-2-snare-holds-through-an-entropy-blast.yaml"), "lasher", ai=True)
    assert [sorted(d.chip for d in o.defeated) for o in held.outcomes] == [["monk", "wisp"]]
