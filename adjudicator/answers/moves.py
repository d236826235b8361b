"""Typed answers: what the decoder builds from answer sets and what the CLI prints.

The JSON shape of each class is its ``as_json``; docs/output-format.md documents it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from adjudicator.answers.notices import Notice, notices_json

if TYPE_CHECKING:  # a move's gains are built by the decoder: `moves` need not build the attack classes
    from adjudicator.answers.attacks import Gain

# How a move relates to the unit's mark (game-elements: Making Progress; Hero Movement).
PROGRESS = "progress"  # ends closer to the mark than it started
LATERAL = "lateral"  # ends at the same distance, on another hex
STAY = "stay"  # does not move
ESCAPE = "escape"  # leaves invalid terrain without reaching a hex that counts to the mark
FREE = "free"  # a hero's move: no progress needed
RETURN = "return"  # a hero moves onto its own fortress gate and leaves the board


@dataclass(frozen=True, order=True)
class Displacement:
    """A unit pushed out of a hex by a move: it ends on ``to`` (a hex, or ``gate:<faction>``)."""

    unit: str
    source: str
    to: str
    damage: int = 0  # what it takes landing there (Toxic Secretion, Lahar: FAQ-07)
    defeated: bool = False  # that damage defeats it there

    def as_json(self) -> dict[str, Any]:
        shape: dict[str, Any] = {"unit": self.unit, "from": self.source, "to": self.to}
        return {**shape, "damage": self.damage, "defeated": self.defeated} if self.damage else shape


@dataclass(frozen=True, order=True)
class Strike:
    """Damage a unit deals a chip beside it once its move ends (Impale, Source Aura, Immolate, Eruption),
    or beside where it then places itself (Disperse: itself too), or on its way (Blaze)."""

    chip: str  # a unit, a spire, or a gate node
    damage: int
    defeated: bool = False  # a unit's: that damage is all its life; a spire's: it falls (reading spire-defeat)
    removed: str = ""  # a spire's bottom upgrade that damage removed, by its kind (game-elements, Attacking)

    def as_json(self) -> dict[str, Any]:
        shape: dict[str, Any] = {"chip": self.chip, "damage": self.damage, "defeated": self.defeated}
        return {**shape, "removed": self.removed} if self.removed else shape


# How a unit's act places it on top of, underneath an opposing minion (Stasis, Possess).
GRASPS = ("stasis", "possess")


@dataclass(frozen=True, order=True)
class Act:
    """What a unit's talent does before its move or once it ends (Consume, Yrtel's Way, Yrtel's Will:
    asp/movement/after.lp): it acts on ``chip`` (``how``: 'defeat'; 'barracks', returned undefeated, a spire too: Rigging;
    'strip', a spire's attack upgrades removed; 'recover', up to 4 health back: Save; 'scatter', ``chip``
    a hex the unit leaves its group for, the group's next chip revealed where it stood: Scatter;
    'teleport', ``chip`` a hex the unit is teleported to instead of moving: Tracker; 'health_chip', ``chip`` the
    gate whose health chip the deploying unit takes, 1 health past its stat: Harbinger chapter 2; 'dig', ``chip`` a hex
    a Tunnel Access chip is placed on: Dig; 'shift', ``chip`` a landmark placed on the hex ``to``: Twister;
    'radiate', ``chip`` a unit given 1 of what ``to`` names, 'health' or an upgrade's kind: Radiate;
    'hurt', ``chip`` a unit dealt the damage ``to`` names, 0 where it cannot take it: Magic-Like Missile;
    'call', ``chip`` a minion of its faction teleported to the hex ``to`` beside it: Call Minion;
    'improve' / 'improve_under', ``chip`` a spire given a ``to`` upgrade on top / at the bottom: Improve;
    'stasis' / 'possess', ``chip`` an opposing minion the unit is placed on top of / underneath, out of its
    group, its faction controlling it once possessed: Stasis, Possess; 'evoke', ``chip`` a unit of its
    faction's barracks placed on the hex ``to``, the Source spent, instead of moving: Evoke; 'summon', ``chip``
    such a unit placed on the unit's hex, promoted, the unit flipped and grouped under it: Summon; 'burrow',
    ``chip`` a hex the unit, its health removed and out of its group, is placed on, inactive: Burrow;
    'place', ``chip`` a hex the unit is placed on, out of its group: the shada's minion placement, a rule
    whose ``talent`` is its name on the sheet, Minion Promotion; 'fuse', ``chip`` the shada minion on a Source well
    the unit fuses with, both returned to the barracks, ``to`` the chip of the pairing deployed there promoted;
    'discard', ``chip`` the unit itself, discarded by a die rolled before its move, which it then does not make: Anarchy;
    'cash', ``chip`` a landmark minion discarded (not defeated) for 3 Source: Yrtel's Will;
    'control', ``chip`` a landmark minion its faction gains control of: Recruiter; 'distort', ``chip`` the hex
    the unit stands on, the market's top earthscape placed over its isle (where: not modelled), Matter Distortion;
    'replace', ``chip`` an opposing spire replaced by a spire of the unit's faction's barracks, its upgrades
    kept, instead of moving where it comes before the move: Quantum Dark; 'pickup' / 'drop', ``chip`` the item's
    chip the hero picks up / the hex it drops the item on: Portable Gateport, Explosion; 'explode', ``chip`` an
    Explosion chip the unit moved beside, its D6 rolled (in ``damage``, ``chance``), discarded once the move ends; 'build', ``chip`` a Source well's
    hex a dispatch platform of the unit's faction is built on, 'tower', ``chip`` a dispatch platform promoted to
    a siege tower, its upgrades kept: Builder; 'clear', ``chip`` an unrevealed landmark discarded, 'waygate',
    ``chip`` a Source well's hex a waygate is placed on, 'clear_waygate', both, the well ``to``: Build Waygate;
    'perch', ``chip`` and ``to`` how many elfinkaze of its barracks are placed riding it as it deploys, Glidebomb
    up and Save up: Elfin),
    then the unit changes (``then``: 'flip' or 'promote', its upgrades removed; 'defeated'; 'barracks', returned
    undefeated, instead of moving where it comes before the move; 'demote', its basic side shown, its upgrades
    kept: Builder; '' none)."""

    when: str  # 'before' or 'after'
    talent: str
    chip: str
    how: str
    then: str = ""
    to: str = ""  # the hex a landmark is placed on ('shift'), a minion called to ('call') or a unit summoned to ('evoke'), what a unit or spire is given ('radiate', 'improve'), the damage ('hurt')
    cost: int = 0  # the Source its faction spends for it first (hook pays/3: Call Minion, Improve)
    earns: bool = False  # a defeat it deals rewards its faction (asp/movement/source.lp, earns/2)
    # What the unit it teleports ('call') takes where it lands (FAQ-07: asp/movement/harm.lp, called_hurt/5),
    # negative where it recovers; its life or more: defeated there.
    taken: int = 0
    fells: bool = False

    @property
    def defeats(self) -> bool:
        return self.how == "defeat" or self.then == "defeated"

    @property
    def stated(self) -> bool:
        """A claim states it: every act but a chip the move set off, which its D6 follows (Explosion: chance)."""
        return self.how != "explode"

    @property
    def places(self) -> bool:
        """The act puts the unit itself on the hex ``chip`` (Scatter, Tracker, the shada's placement)."""
        return self.how in ("scatter", "teleport", "place")

    @property
    def grasps(self) -> bool:
        """The act puts the unit on top of or underneath the minion ``chip`` (Stasis, Possess): before the
        move, it is made instead of moving."""
        return self.how in GRASPS

    @property
    def instead(self) -> bool:
        """The act, before the move, is made instead of it (Tracker, Evoke; the AI's Stasis, Possess; Anarchy's
        discard; Quantum Dark; Builder's basic unit, returned to its barracks)."""
        return self.when == "before" and (self.grasps or self.how in ("teleport", "evoke", "summon", "discard", "replace")
                                          or self.then == "barracks")


    def as_json(self) -> dict[str, Any]:
        shape: dict[str, Any] = {"when": self.when, "talent": self.talent, "chip": self.chip, "how": self.how}
        if self.to:
            shape["to"] = self.to
        if self.cost:
            shape["cost"] = self.cost
        return {**shape, "then": self.then} if self.then else shape


@dataclass(frozen=True, order=True)
class MoveOutcome:
    """One legal outcome of one unit's move.

    Two outcomes are the same when they end on the same hex with the same displacements and the same
    damage taken; ``path`` is one route that produces it (the first in hex-name order) and ``paths``
    counts them all. A unit that damage taken as it moves defeats (Toxic Secretion, Lahar) ends its
    move there: ``end`` is that hex and ``defeated`` is set.
    """

    unit: str
    end: str
    kind: str
    displaced: tuple[Displacement, ...] = ()
    path: tuple[str, ...] = ()  # start hex first
    paths: int = 1
    damage: int = 0  # damage taken as it moves
    defeated: bool = False
    rolls: int = 0  # spire attack dice rolled on the way (chapter 1's floating rocks): chance, not choice
    odds: tuple[tuple[int, Fraction], ...] = ()  # (health those dice cost, probability); its life: defeated
    struck: tuple[Strike, ...] = ()  # what it deals on its way and the chips beside it once its move ends, by chip
    exit: str = ""  # then leaves the board: 'defeated' (Immolate), 'barracks' (Eruption), 'fortress' (Rigging); '' stays
    placed: str = ""  # the hex it then places itself on (Disperse); '' where it stays on its end
    held: str = ""  # what kept an AI unit still this turn (hook holds/2: 'survival', 'rooted', a chapter rule)
    acts: tuple[Act, ...] = ()  # what its talents do before its move or once it ends (Consume)
    # The units on a chip a teleport landed it on, defeated there, each whole (Riftwalk, Naroran Rift).
    felled: tuple[str, ...] = ()
    # Where ``path`` shows a teleport: the index of each hex landed on, the chip stepped onto just before.
    landed: tuple[int, ...] = ()
    # The riders its move carried that took damage on the way (Roost, FAQ-07): (unit, damage, defeated).
    carried: tuple[tuple[str, int, bool], ...] = ()
    # The items that left it as it took damage on its way, placed on its hex (Cumbersome: hook mdrops/2).
    lost: tuple[str, ...] = ()
    # Its move ends on a hex group where it turns (the keel's minion promotion, asp/movement/keel.lp):
    # 'promote', 'demote', 'fortress' (it returns to its fortress instead of demoting: Colony); '' none.
    turns: str = ""
    # The probability of the result of the die its talent rolled before its move that leads to this outcome
    # (Anarchy: discarded, or free to move): chance, not choice; None where no die was rolled before it.
    chance: Fraction | None = None
    # Of ``damage``, what the D6s its end set off dealt (Explosion: asp/movement/rolls.lp, e6_band/8): chance, not
    # choice; where they defeat it, ``defeated`` is theirs.
    diced: int = 0
    # A faction's Source as it moves (asp/movement/source.lp): what its faction spends for its talents once
    # its move ends (Eruption; an act's own is Act.cost), the units whose defeat in it (felled, struck)
    # rewards its faction, the Source each faction loses to its talent as it passes their units (Incorporeal),
    # sorted by faction, and whether its faction gains that (the AI's does not).
    spent: int = 0
    earned: tuple[str, ...] = ()
    robbed: tuple[tuple[str, int], ...] = ()
    pocket: bool = False
    # The units damage taken as units move defeats in it (Toxic Secretion, Lahar, Crush), each with the faction
    # its reward goes to (the first by name of the chips that hurt it there: asp/movement/source.lp), sorted.
    credited: tuple[tuple[str, str], ...] = ()
    # Each faction whose Source the move changed, with its Source after it (board_after.apply_move), sorted;
    # set once the outcome is known on its board (adjudicate.sourced), as the combat steps' ends show it; and
    # what each defeat it deals rewards, as an attack's outcome lists it (board_after.move_gains).
    source: tuple[tuple[str, int], ...] = ()
    gains: tuple[Gain, ...] = ()
    # The units its acts' damage defeats (Magic-Like Missile), known on its board (adjudicate.sourced).
    downed: tuple[str, ...] = ()
    # An elfinkaze's movement stat once its walk moved on from a roost (Roost Roam: "the Roost value of the
    # chip with which it most recently shared a hex"; FAQ-02), where that changed it; 0 where unchanged.
    stat: int = 0

    @property
    def ones(self) -> frozenset[str]:
        """The units whose health may be reduced to exactly 1 in it, as far as the outcome tells
        (coverage.notices_in, ``ones``): the mover where its health may fall other than on its way (a floating
        rock's dice, a turn to a side of less health: its hex group's, its act's; its way's damage the solver
        reads, UnitOptions.at_one); each unit it displaces into damage, lands on, strikes, carries into damage;
        each its acts hurt or defeat (their health not read: any hit counts)."""
        own = self.rolls > 0 or bool(self.turns) or any(a.then for a in self.acts)
        return frozenset({self.unit} if own else ()) | {d.unit for d in self.displaced if d.damage > 0 or d.defeated} \
            | set(self.felled) | {s.chip for s in self.struck if s.damage > 0} \
            | {u for u, damage, fell in self.carried if damage > 0 or fell} \
            | {a.chip for a in self.acts if a.how == "hurt" or a.defeats} | set(self.downed)

    @property
    def discarded(self) -> bool:
        """A die rolled before its move discarded the unit (Anarchy): it made no move."""
        return any(a.how == "discard" for a in self.acts)

    @property
    def gone_before(self) -> bool:
        """The unit left play before its move, making none: discarded by its die (Anarchy), or defeated by
        its own act instead of moving (Quantum Dark), or returned to its barracks by it (Builder)."""
        return self.discarded or any(a.instead and a.then in ("defeated", "barracks") for a in self.acts)

    @property
    def acts_after(self) -> bool:
        """It deals something (on its way too: scorch.lp), places itself or leaves the board once its move
        ends (after.lp)."""
        return bool(self.struck or self.exit or self.placed)

    @property
    def fells(self) -> bool:
        """Some unit is defeated in this move: the mover on its way or by its own talent (Immolate), a
        unit it displaced, one on a chip it was teleported onto, one its damage struck once the move
        ended, or one an act defeated or dealt damage to (``downed``)."""
        return (self.defeated or self.exit == "defeated" or any(d.defeated for d in self.displaced)
                or bool(self.felled) or any(s.defeated for s in self.struck) or any(a.defeats for a in self.acts)
                or bool(self.downed)
                or any(fell for _, _, fell in self.carried))

    @property
    def chosen(self) -> MoveOutcome:
        """The outcome as its player chooses it, before the D6s its end sets off (Explosion): their damage and acts
        are chance."""
        if not any(a.how == "explode" for a in self.acts):
            return self
        return replace(self, damage=self.damage - self.diced, defeated=False, diced=0, chance=None,
                       acts=tuple(a for a in self.acts if a.stated))

    @property
    def fallen(self) -> frozenset[str]:
        """The chips other than the mover that this move defeats (``fells``, the mover's own defeat aside): a
        unit it displaced (Crush's damage, damage on the way), one on a chip it was teleported onto, a chip its
        damage struck (Impale, Blaze; a spire too), one an act defeated or its damage defeated, a rider it carried."""
        return frozenset({d.unit for d in self.displaced if d.defeated} | set(self.felled)
                         | {s.chip for s in self.struck if s.defeated}
                         | {a.chip for a in self.acts if a.how == "defeat"} | set(self.downed)
                         | {u for u, _, fell in self.carried if fell}) - {self.unit}

    @property
    def key(self) -> tuple[str, str, tuple[Displacement, ...], int, bool, int, tuple[Strike, ...], str, str,
                           tuple[str, ...], tuple[Act, ...], tuple[tuple[str, int, bool], ...], str, int,
                           tuple[tuple[str, int], ...], tuple[tuple[str, str], ...], int]:
        return (self.unit, self.end, self.displaced, self.damage, self.defeated, self.rolls, self.struck, self.exit,
                self.placed, self.felled, self.acts, self.carried, self.turns, self.spent, self.robbed, self.credited,
                self.stat)

    def as_json(self) -> dict[str, Any]:
        shape = {
            "unit": self.unit,
            "path": list(self.path),
            "end": self.end,
            "kind": self.kind,
            "displaced": [d.as_json() for d in self.displaced],
            "paths": self.paths,
        }
        if self.rolls:  # the odds where the answer computed them (cloudspire moves)
            shape["rolls"] = self.rolls
        if self.odds:
            shape["odds"] = [{"lost": j, "probability": str(p)} for j, p in self.odds]
        if self.struck:
            shape["struck"] = [s.as_json() for s in self.struck]
        if self.exit:
            shape["exit"] = self.exit
        if self.placed:
            shape["placed"] = self.placed
        if self.held:
            shape["held"] = self.held
        if self.acts:
            shape["acts"] = [a.as_json() for a in self.acts]
        if self.landed:
            shape["landed"] = list(self.landed)
        if self.felled:
            shape["felled"] = list(self.felled)
        if self.carried:
            shape["carried"] = [{"unit": u, "damage": n, "defeated": fell} for u, n, fell in self.carried]
        if self.lost:
            shape["lost"] = list(self.lost)
        if self.turns:
            shape["turns"] = self.turns
        if self.stat:
            shape["stat"] = self.stat
        if self.chance is not None:
            shape["chance"] = str(self.chance)
        if self.spent:
            shape["spent"] = self.spent
        if self.robbed:
            shape["robbed"] = dict(self.robbed)
        if self.source:
            shape["source"] = dict(self.source)
        if self.gains:
            shape["gains"] = [g.as_json() for g in self.gains]
        return {**shape, "damage": self.damage, "defeated": self.defeated} if self.damage or self.defeated else shape


@dataclass(frozen=True)
class UnitOptions:
    """Every legal outcome of one unit's move on the current board; for the AI, its obligations."""

    unit: str
    outcomes: tuple[MoveOutcome, ...]
    start_distance: int | None = None  # None: the unit's hex does not lead to its mark
    must_wait: str = ""  # why the unit may not move now (empty when it may)
    leading: bool = False  # a minion closest to its mark; the others move after it, on a changed board
    notices: tuple[Notice, ...] = ()  # talents the answer may depend on that are not modelled
    # What its talents may do before it moves (before_act/4), each made then on the board it leaves:
    # adjudicate.py asks the move again there; its outcomes carry the act (MoveOutcome.acts).
    before: tuple[Act, ...] = ()
    must_act: tuple[str, ...] = ()  # talents it must use, before its move where it can (act_may/2 absent)
    # Talents whose add to its movement stat its player may leave unused (mv_may/3: Gust): these outcomes
    # take it; adjudicate.py asks the move again without each, and lists both.
    declinable: tuple[str, ...] = ()
    # The dice its talents roll before it moves (gamble/4: Anarchy), each (talent, the chance it is
    # discarded): adjudicate.gambled adds the discard as an outcome and gives each move the chance left.
    gambles: tuple[tuple[str, Fraction], ...] = ()
    # Its talents acting where its health is reduced to exactly 1 (hook at_one/2: Entropy) that a move offered
    # may set off on its own way (asp/movement/harm.lp, one_way/2): their parts left out count only then.
    at_one: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {
            "unit": self.unit,
            "start_distance": self.start_distance,
            "must_wait": self.must_wait or None,
            "leading": self.leading,
            "outcomes": [o.as_json() for o in self.outcomes],
            "notices": notices_json(self.notices),
        }


@dataclass(frozen=True)
class StepOutcome:
    """One distinct final board of a whole movement step, with a sequence of moves that makes it."""

    final: tuple[tuple[str, str], ...]  # (unit, node) for every unit of the moving faction, sorted
    sequence: tuple[MoveOutcome, ...]
    # (unit, health) for each unit whose health the step changed (damage taken while moving: Toxic
    # Secretion, Lahar; a floating rock's die), sorted; its node is "defeated" where that defeated it; then each
    # gate or other chip whose health a move struck, and 0 for each spire gone from the board (Glidebomb).
    health: tuple[tuple[str, int], ...] = ()
    # (unit, fortification upgrades left) for each unit that lost one so (FAQ-29), sorted.
    fortifications: tuple[tuple[str, int], ...] = ()
    # (unit, 'promoted' or 'basic') for each unit a talent's act flipped or promoted (Consume, Yrtel's
    # Way), sorted: a board of its own though every chip stands where it stood.
    sides: tuple[tuple[str, str], ...] = ()
    # (spire, its upgrades bottom first) for each spire whose upgrades the step changed (Yrtel's Will), then
    # (unit, its upgrades other than fortifications) for each unit whose such upgrades it changed (Radiate).
    upgrades: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # (landmark minion, the faction now controlling it) for each an act put under control (Recruiter), and
    # (spire, the faction of the spire that replaced it) for each an act replaced (Quantum Dark), sorted.
    control: tuple[tuple[str, str], ...] = ()
    # (faction, its Source after the step) for each faction whose Source the step changed, sorted: what its
    # moves spent, stole and earned (asp/movement/source.lp), as the combat steps' ends show it.
    source: tuple[tuple[str, int], ...] = ()
    # (chip or landmark, its hex or "removed") for each an act placed, moved or took off the map (Dig's Tunnel
    # Access chip, Portable Gateport's item, Twister's landmark, Build Waygate's waygate), sorted.
    chips: tuple[tuple[str, str], ...] = ()
    # (unit, its talents now) for each unit an act gave or took an item on the side it shows (Portable
    # Gateport; Cumbersome's item lost on the way), sorted.
    talents: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @property
    def chance(self) -> Fraction:
        """The probability of the results of the dice its moves roll (chapter 1's floating rocks),
        given those moves: each rolling move holds its one result as its odds; and of the dice rolled
        before a move (Anarchy), each such move holding its result's chance. 1 with no dice."""
        return (math.prod((m.odds[0][1] for m in self.sequence if m.rolls), start=Fraction(1))
                * math.prod((m.chance for m in self.sequence if m.chance is not None), start=Fraction(1)))

    @property
    def rolled(self) -> bool:
        """Some move of it rolled dice, on its way or before it: the board is chance, not only choice."""
        return any(m.rolls or m.chance is not None for m in self.sequence)

    def as_json(self) -> dict[str, Any]:
        shape: dict[str, Any] = {
            "final": dict(self.final),
            "sequence": [m.as_json() for m in self.sequence],
        }
        if self.health:
            shape["health"] = dict(self.health)
        if self.fortifications:
            shape["fortifications"] = dict(self.fortifications)
        if self.sides:
            shape["sides"] = dict(self.sides)
        if self.upgrades:
            shape["upgrades"] = {s: list(u) for s, u in self.upgrades}
        if self.control:
            shape["control"] = dict(self.control)
        if self.source:
            shape["source"] = dict(self.source)
        if self.chips:
            shape["chips"] = dict(self.chips)
        if self.talents:
            shape["talents"] = {u: list(t) for u, t in self.talents}
        if self.rolled:
            shape["chance"] = str(self.chance)
        return shape


@dataclass(frozen=True)
class UnitSummary:
    """Where one unit can end the whole movement step, over every final board."""

    unit: str
    ends: tuple[str, ...]  # every node it ends on in some final board, in name order
    forced: bool  # one end, the same in every final board: the unit must end there
    # Units whose end narrows where this one can end; None: not known, its boards were not all listed.
    depends_on: tuple[str, ...] | None = ()

    def as_json(self) -> dict[str, Any]:
        return {"unit": self.unit, "ends": list(self.ends), "forced": self.forced,
                "depends_on": None if self.depends_on is None else list(self.depends_on)}


@dataclass(frozen=True)
class StepResult:
    """A faction's whole movement step: the boards it may end in, counted and listed."""

    faction: str
    ai: bool
    count: int  # exact when complete; else how many were found before the deadline
    outcomes: tuple[StepOutcome, ...] = field(default=())
    complete: bool = True
    notices: tuple[Notice, ...] = ()
    # Every unit of the faction, and every other unit some outcome displaces; empty when incomplete,
    # unless every group was solved (whole_step.py).
    summary: tuple[UnitSummary, ...] = ()
    answered_by: str = "search"  # "solve": every group in one projected solve; "search": some searched
    searched_because: tuple[str, ...] = ()  # why each searched group could not be solved in one

    def as_json(self) -> dict[str, Any]:
        return {
            "faction": self.faction,
            "ai": self.ai,
            "complete": self.complete,
            "count": self.count,
            "answered_by": self.answered_by,
            "searched_because": list(self.searched_because),
            "summary": [s.as_json() for s in self.summary],
            "shown": len(self.outcomes),
            "outcomes": [o.as_json() for o in self.outcomes],
            "notices": notices_json(self.notices),
        }
