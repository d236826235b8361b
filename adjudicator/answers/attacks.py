"""Typed answers about combat: one attack, a whole attack step, the Spires Fire step.

Chips are named as in the position file: unit ids, spire ids, and ``gate:<faction>`` for a fortress
gate. docs/output-format.md documents the JSON shape of each class (its ``as_json``).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from adjudicator.answers.notices import Notice, notices_json

if TYPE_CHECKING:  # answers/moves.py and answers/turns.py import this module
    from adjudicator.answers.moves import StepOutcome
    from adjudicator.answers.turns import TurnEnd

# How a chip took damage.
ATTACK = "attack"
RETALIATION = "retaliation"
GATE_RETALIATION = "gate-retaliation"
SPIKE = "spike"  # Spike's 1 damage to the unit that attacked it, after any retaliation
SPLASH = "splash"  # Splash's 1 damage to each unit beside the target, with the attack's
RECOVERY = "recovery"  # health a unit recovers in the moment of an attack (chapter 7's Nucleus): no damage
SPIRE_FIRE = "spire-fire"
MOVING = "moving"  # what a unit an attack's swap (Eager) moves takes where it lands (Toxic Secretion, FAQ-07)
BLAST = "blast"  # Detonate's damage once the exchange's other hits are dealt: 2 to each chip beside, 1 more to a spire
REMOVED = "removed"  # health a talent removes, no damage (Quake's from a landmark minion)
LOST = "lost"  # health a unit loses by its own talent once the exchange is dealt, credited to a faction (Infested)
# The talents whose use a chip's owner chooses in Spires Fire: a result's choices name them as (chip,
# talent), after the shot they go with (a spire's Splash; Sourcefield, Hidden Armor, Press Gang and
# Invigorate, Absorb, by the unit's owner, on its roll).
TALENT_CHOICES = frozenset({"Splash", "Sourcefield", "Hidden Armor", "Press Gang", "Invigorate", "Absorb"})

# Level-up options (game-elements: Leveling Up).
LEVEL_UPS = ("attack", "fortification", "range", "promote", "recover", "none", "not-adjudicated")


@dataclass(frozen=True, order=True)
class Damage:
    """Damage one chip took: from whom, how, and what it cost the chip."""

    chip: str
    amount: int
    by: str  # the chip that dealt it
    how: str  # ATTACK, RETALIATION, GATE_RETALIATION, SPIKE, SPLASH, SPIRE_FIRE, MOVING, BLAST, LOST, REMOVED or RECOVERY (a gain, no damage)
    health_before: int | None = None  # units and gates; None for a spire
    health_after: int | None = None
    fortifications_lost: int = 0  # a unit's fortification upgrades lost first (FAQ-29)
    upgrade_removed: str | None = None  # a spire's bottom upgrade, when one went

    @property
    def gained(self) -> bool:
        """The unit's health went up: a heal instead of damage, or a recovery."""
        before, after = self.health_before, self.health_after
        return before is not None and after is not None and after > before

    @property
    def healed(self) -> bool:
        """The unit gained the amount instead of losing it (Harbinger chapter 8: narora on the Graft)."""
        return self.gained and self.how != RECOVERY

    def as_json(self) -> dict[str, Any]:
        shape = {
            "chip": self.chip,
            "amount": self.amount,
            "by": self.by,
            "how": self.how,
            "health_before": self.health_before,
            "health_after": self.health_after,
            "fortifications_lost": self.fortifications_lost,
            "upgrade_removed": self.upgrade_removed,
        }
        return {**shape, "healed": True} if self.healed else shape


@dataclass(frozen=True, order=True)
class Defeat:
    """A chip defeated: which, by which faction, and where it goes (game-elements: Defeat)."""

    chip: str  # unit id, spire id, gate node or a waygate's chip id (Harbinger chapter 6)
    name: str  # the printed chip name ("" for a gate or a waygate)
    by: str  # the faction responsible
    # barracks, discard, removed-from-game, under:<spire> (Absorb), stays (chapter 8's Nucleus); a gate:
    # pillaged, or fallen when the game ends or a chapter denies the pillage; a waygate: destroyed (flipped,
    # it stays)
    goes_to: str

    def as_json(self) -> dict[str, Any]:
        return {"chip": self.chip, "name": self.name, "by": self.by, "goes_to": self.goes_to}


@dataclass(frozen=True, order=True)
class Reveal:
    """The next chip of a group became active (game-elements: Deployment)."""

    unit: str
    chip: str
    health: int

    def as_json(self) -> dict[str, Any]:
        return {"unit": self.unit, "chip": self.chip, "health": self.health}


@dataclass(frozen=True, order=True)
class Gain:
    """What a faction gains from one defeat. ``forfeited``: an AI faction gains no rewards."""

    faction: str
    source: int = 0  # Source actually added (after the capacity)
    relics: int = 0
    spire: bool = False  # may build a spire on the defeated chip's Source Well
    pillaged: str = ""  # the faction whose fortress was pillaged
    forfeited: bool = False

    def as_json(self) -> dict[str, Any]:
        return {
            "faction": self.faction,
            "source": self.source,
            "relics": self.relics,
            "spire": self.spire,
            "pillaged": self.pillaged or None,
            "forfeited": self.forfeited,
        }


@dataclass(frozen=True, order=True)
class LevelUp:
    """A hero that defeated something may level up: its options, and the one taken in a sequence."""

    hero: str
    options: tuple[str, ...]  # from LEVEL_UPS; "none" is declining
    chosen: str | None = None  # set in a whole-step sequence; None when listing options

    def as_json(self) -> dict[str, Any]:
        return {"hero": self.hero, "options": list(self.options), "chosen": self.chosen}


@dataclass(frozen=True, order=True)
class AttackOutcome:
    """One attack and everything it leads to."""

    attacker: str
    target: str
    redirected_to: str | None = None  # the unit in the gate that took the damage (FAQ-15)
    damage: tuple[Damage, ...] = ()
    defeated: tuple[Defeat, ...] = ()
    revealed: tuple[Reveal, ...] = ()
    gains: tuple[Gain, ...] = ()
    level_ups: tuple[LevelUp, ...] = ()
    wave_over: bool = False
    game_over: bool = False  # the last fortress gate but one fell
    forgone: tuple[str, ...] = ()  # units that would have retaliated and did not, by a talent of theirs (Riposte, Entropy)
    pressed: tuple[str, ...] = ()  # talents whose extra damage the attacker took (Swashbuckler)
    moved: tuple[tuple[str, str], ...] = ()  # (unit, hex): where a displacement before the damage put it (Eager)
    cancelled: tuple[str, ...] = ()  # units whose owner paid Source to make the attack deal 0 (Sourcefield)
    # Spire upgrades the attack removed otherwise than by its damage (Assault, Ram, Weak Point): the
    # spire, the upgrade's index in the position's list (bottom first, 0 the bottom one), the upgrade
    stripped: tuple[tuple[str, int, str], ...] = ()
    dodged: tuple[str, ...] = ()  # units that took 0 instead of a defeat, lost their upgrades, flipped basic (Dodge)
    instead: str = ""  # the talent the unit used its attack for instead of attacking its target (Pacify)
    discarded: tuple[str, ...] = ()  # units that left play to the discard pile, not defeated (Pacify)
    flipped: tuple[str, ...] = ()  # units that flipped to their other side once the hits were dealt (Pistoleer)
    unloaded: tuple[tuple[str, str], ...] = ()  # (unit, upgrade): the upgrade a talent took from it (Pistoleer)
    # (unit, talent, how): a unit whose owner discarded that talent to have a hit, of that kind (ATTACK,
    # RETALIATION, …), deal it 0 (Hidden Armor)
    shed: tuple[tuple[str, str, str], ...] = ()
    # (unit, item): a unit that took damage and so lost that item, a talent, placed on its hex (Cumbersome)
    lost: tuple[tuple[str, str], ...] = ()
    promoted: tuple[str, ...] = ()  # minions a talent promoted once the defeat was dealt (Rally)
    demoted: tuple[str, ...] = ()  # minions a talent demoted once the defeat was dealt (Dispirit)
    # (unit, talent): a defeated unit whose owner spent Source for that talent of its (Press Gang)
    paid_for: tuple[tuple[str, str], ...] = ()
    # (unit, promote or demote, talent): what a player may choose, in the whole step only, to do to that
    # unit for that talent of a unit that defeats or falls (Rally, Dispirit: all or none; Invigorate: one);
    # one attack's listing plays no such choice
    offered: tuple[tuple[str, str, str], ...] = ()
    # (spire, upgrade): an upgrade a talent added to the bottom of that spire once the defeat was dealt (Pollinate)
    upgraded: tuple[tuple[str, str], ...] = ()
    morale: tuple[tuple[str, int], ...] = ()  # (faction, rise): its morale die rose by so much (Morale)
    returned: tuple[str, ...] = ()  # units that left play to their fortress instead of demoting, not defeated (Colony)
    # (unit, hex, chip): a defeated unit placed that chip on that hex (Toxic Fumes: a player's may, so it tells
    # outcomes apart)
    laid: tuple[tuple[str, str, str], ...] = ()
    # (unit, hex): a unit placed from its barracks onto that hex once the hits were dealt (Evoke's AI)
    summoned: tuple[tuple[str, str], ...] = ()
    # The exact probability of this outcome where a retaliation rolled the spire die (Relentless): the
    # sum over the totals that lead to it; None where chance plays no part
    probability: Fraction | None = None

    @property
    def splashed(self) -> bool:
        """The attacker splashed the units beside its target (Splash: a player's may or may not)."""
        return any(d.how == SPLASH for d in self.damage)

    @property
    def key(
        self,
    ) -> tuple[str, str, str | None, bool, tuple[str, ...], tuple[str, ...], tuple[str, ...],
               tuple[tuple[str, int, str], ...], str, tuple[tuple[str, str], ...], tuple[tuple[str, str, str], ...],
               tuple[tuple[str, str], ...], tuple[tuple[str, str], ...], tuple[tuple[str, str], ...], str,
               tuple[tuple[str, str, str], ...], tuple[tuple[str, str], ...], tuple[tuple[str, int], ...],
               tuple[str, ...]]:
        """Tells apart the outcomes of one attack: its target, the redirect, a player's Splash, Riposte,
        Swashbuckler, Sourcefield, what it removed from a spire instead of its damage (Ram), what
        the unit did instead of attacking (Pacify), the upgrade it gave up (Pistoleer), the talents
        discarded against a hit (Hidden Armor), the Source spent for a defeated unit (Press Gang), where
        each defeated chip went (Absorb: underneath which spire), the upgrades added to a spire's bottom
        (Pollinate: which spire, which upgrade), the chance of a rolled retaliation's result (Relentless),
        the chips a defeat left behind (Toxic Fumes), where a unit was summoned (Evoke's AI) and what a
        move dealt the units it moved, a D6 among it (Explosion), and the units that left play rather
        than demote (a player's Colony: its owner's choice)."""
        return (self.attacker, self.target, self.redirected_to, self.splashed, self.forgone, self.pressed,
                self.cancelled, self.stripped, self.instead, self.unloaded, self.shed, self.paid_for, self.upgraded,
                tuple(sorted((d.chip, d.goes_to) for d in self.defeated)),
                "" if self.probability is None else str(self.probability), self.laid, self.summoned,
                tuple(sorted((d.chip, d.amount) for d in self.damage if d.how == MOVING)), self.returned)

    def damage_by_chip(self) -> dict[str, int]:
        """What each chip took in this attack, every source added up; what healed it instead, or what
        it recovered, is none."""
        taken: dict[str, int] = {}
        for d in self.damage:
            if not d.gained:
                taken[d.chip] = taken.get(d.chip, 0) + d.amount
        return taken

    def as_json(self) -> dict[str, Any]:
        return {
            "attacker": self.attacker,
            "target": self.target,
            "redirected_to": self.redirected_to,
            "damage": [d.as_json() for d in self.damage],
            "defeated": [d.as_json() for d in self.defeated],
            "revealed": [r.as_json() for r in self.revealed],
            "gains": [g.as_json() for g in self.gains],
            "level_ups": [lv.as_json() for lv in self.level_ups],
            "wave_over": self.wave_over,
            "game_over": self.game_over,
            "forgone": list(self.forgone),
            "pressed": list(self.pressed),
            "moved": {unit: hex_ for unit, hex_ in self.moved},
            "cancelled": list(self.cancelled),
            "stripped": [{"chip": chip, "index": index, "upgrade": upgrade} for chip, index, upgrade in self.stripped],
            "dodged": list(self.dodged),
            "instead": self.instead or None,
            "discarded": list(self.discarded),
            "flipped": list(self.flipped),
            "unloaded": {unit: upgrade for unit, upgrade in self.unloaded},
            "shed": [{"unit": unit, "talent": talent, "how": how} for unit, talent, how in self.shed],
            "lost": [{"unit": unit, "item": item} for unit, item in self.lost],
            "promoted": list(self.promoted),
            "demoted": list(self.demoted),
            "paid_for": {unit: talent for unit, talent in self.paid_for},
            "offered": [{"unit": unit, "how": how, "talent": talent} for unit, how, talent in self.offered],
            "upgraded": [{"spire": spire, "upgrade": upgrade} for spire, upgrade in self.upgraded],
            "morale": dict(self.morale),
            "returned": list(self.returned),
            "laid": [{"unit": unit, "hex": hex_, "chip": chip} for unit, hex_, chip in self.laid],
            "summoned": {unit: hex_ for unit, hex_ in self.summoned},
            "probability": None if self.probability is None else str(self.probability),
        }


@dataclass(frozen=True)
class Target:
    """A chip the unit may attack, and for the AI its priority (1 = first; None for a player)."""

    chip: str
    priority: int | None = None
    category: str = ""  # the AI priority category it falls in

    def as_json(self) -> dict[str, Any]:
        return {"chip": self.chip, "priority": self.priority, "category": self.category or None}


@dataclass(frozen=True)
class AttackOptions:
    """What one unit may, or must, attack now, and what each attack leads to."""

    unit: str
    must_attack: bool
    targets: tuple[Target, ...]
    outcomes: tuple[AttackOutcome, ...]
    cannot: str = ""  # why it cannot attack now (empty when it can)
    cited: str = ""  # the rule that decides "cannot" or "must"
    notices: tuple[Notice, ...] = ()  # talents the answer may depend on that are not modelled

    def as_json(self) -> dict[str, Any]:
        return {
            "unit": self.unit,
            "must_attack": self.must_attack,
            "cannot": self.cannot or None,
            "cited": self.cited or None,
            "targets": [t.as_json() for t in self.targets],
            "outcomes": [o.as_json() for o in self.outcomes],
            "notices": notices_json(self.notices),
        }


@dataclass(frozen=True, order=True)
class ChipEnd:
    """A chip whose state a step changed, as it ends. Gates carry only ``health``."""

    chip: str
    defeated: bool = False
    name: str = ""  # the active chip's name when a group revealed a new one, else ""
    health: int | None = None
    upgrades: tuple[str, ...] | None = None  # None: unchanged
    promoted: bool = False
    silenced: bool = False  # it cannot attack for the rest of the turn (Silencer)
    at: str | None = None  # the hex a displacement moved it to (Eager); None: where it stood
    basic: bool = False  # a promoted unit flipped back to its basic side (Dodge)
    discarded: bool = False  # it left play to the discard pile, not defeated (Pacify)
    # talents it discarded (Hidden Armor) or items it lost (Cumbersome), and lacks from now on
    discarded_talents: tuple[str, ...] = ()
    flipped: bool = False  # a spire flipped to its other side, its upgrades kept (Wallop)
    control: str | None = None  # the faction that gained control of it (Recruitable); None: unchanged
    under: str | None = None  # the unit it left the board for, placed under it (chapter 5's Bydra Graam)
    stays: bool = False  # defeated, its chip left on its hex as another chip (chapter 3's Graft spires)
    revealed: bool = False  # a face-down landmark a unit explored and revealed (asp/combat/explore.lp)
    removed: bool = False  # a landmark that left play once revealed (Unstable Rift)
    rides: str | None = None  # placed from its barracks on top of this chip, riding it (Elfin)
    side: str = ""  # the side it was placed with, by that side's talent (Elfin's elfinkaze: Glidebomb, Save)
    # a unit or spire returned to its barracks (a hero: its fortress), not defeated (Precious, Mining; Hero's Quest)
    returned: bool = False
    woke: bool = False  # a hero whose campfire mode ended with the wave (asp/combat/wave.lp)
    # another chip a defeat placed, ``laid`` of them, on hex ``at``, named ``name`` (Toxic Fumes); added to
    # those on that hex already, if any
    laid: int = 0
    unmoved: bool = False  # placed from its barracks during the step, it does not move this turn (Evoke's AI)
    used: tuple[str, ...] = ()  # once-per-wave talents it used at the start or end of the turn (Reap)
    arrow: str | None = None  # the hex a spire's arrow was pointed at anew (Translocate); None: unchanged

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"chip": self.chip}
        if self.under is not None:
            data["under"] = self.under
            return data
        if self.returned or self.woke:
            data["returned" if self.returned else "woke"] = True
            return data
        if self.laid:
            return {**data, "name": self.name, "at": self.at, "laid": self.laid}
        if self.revealed:
            data["revealed"] = True
        if self.removed:
            data["removed"] = True
            return data
        if self.defeated or self.discarded:
            data["discarded" if self.discarded else "defeated"] = True
            if self.stays:
                data["stays"] = True
            return data
        if self.name:
            data["name"] = self.name
        if self.health is not None:
            data["health"] = self.health
        if self.upgrades is not None:
            data["upgrades"] = list(self.upgrades)
        if self.promoted:
            data["promoted"] = True
        if self.silenced:
            data["silenced"] = True
        if self.at is not None:
            data["at"] = self.at
        if self.rides is not None:
            data["rides"] = self.rides
        if self.side:
            data["side"] = self.side
        if self.basic:
            data["basic"] = True
        if self.discarded_talents:
            data["discarded_talents"] = list(self.discarded_talents)
        if self.flipped:
            data["flipped"] = True
        if self.control is not None:
            data["control"] = self.control
        if self.unmoved:
            data["unmoved"] = True
        if self.used:
            data["used"] = list(self.used)
        if self.arrow is not None:
            data["arrow"] = self.arrow
        return data


@dataclass(frozen=True, order=True)
class EndState:
    """How a step leaves the board: changed chips, Source, and the wave's state."""

    chips: tuple[ChipEnd, ...]
    source: tuple[tuple[str, int], ...] = ()  # factions whose Source changed, with the new amount
    wave_over: bool = False
    campfire: tuple[str, ...] = ()  # factions whose heroes go into campfire mode
    campfire_when: str = ""  # "end-of-turn" now, or "start-of-turn" of that faction's next turn
    game_over: bool = False  # only one fortress gate still has health
    morale: tuple[tuple[str, int], ...] = ()  # factions whose morale die changed, with what it shows (Morale)
    # Harbinger chapter 3: the earthscapes the keel bought as Graft spires fell, the stack's from the top in turn: each
    # "kept" for a Build Phase, or "placed:N", placed at once at its N-th placement (earthscape-places for the top one,
    # earthscape-stack's for those under it, from 0); (): none bought
    earthscape: tuple[str, ...] = ()

    @property
    def sort_key(self) -> str:
        """A total order for listing end states (their fields mix None and values)."""
        return json.dumps(self.as_json(), sort_keys=True)

    def describe(self) -> str:
        """One line for people: "harrier defeated; battleborn health 1"."""
        parts = []
        for c in self.chips:
            if c.under is not None:
                parts.append(f"{c.chip} placed under {c.under}")
                continue
            if c.returned or c.woke:
                parts.append(f"{c.chip} " + ("returned to its barracks (a hero: to its fortress)" if c.returned
                                             else "leaves campfire mode"))
                continue
            if c.laid:
                parts.append(f"{c.laid} {c.name} placed on {c.at}")
                continue
            if c.revealed or c.removed or (c.control is not None and c.health is None):  # a landmark
                parts.append(f"{c.chip} " + ", ".join(filter(None, (
                    "revealed" if c.revealed else "", "removed from play" if c.removed else "",
                    f"now controlled by {c.control}" if c.control is not None and not c.removed else ""))))
                continue
            if c.defeated or c.discarded:
                parts.append(f"{c.chip} {'discarded' if c.discarded else 'defeated'}"
                             + (", its chip left on its hex" if c.stays else ""))
                continue
            bits = [f"now {c.name}"] if c.name else []
            docked = c.chip.startswith("gate:") and c.at is not None  # its fortress docked elsewhere (chapter 2)
            bits += [f"docked beside {c.at}"] if docked else [f"on {c.at}"] if c.at is not None else []
            bits += [f"riding {c.rides}, its {c.side} side up"] if c.rides is not None else []
            bits += [f"health {c.health}"] if c.health is not None else []
            bits += [f"upgrades [{', '.join(c.upgrades)}]"] if c.upgrades is not None else []
            bits += ["promoted"] if c.promoted else []
            bits += ["flipped to its basic side"] if c.basic else []
            bits += ["silenced: cannot attack this turn"] if c.silenced else []
            bits += [f"discarded {', '.join(c.discarded_talents)}"] if c.discarded_talents else []
            bits += ["flipped to its other side"] if c.flipped else []
            bits += [f"now controlled by {c.control}"] if c.control is not None else []
            bits += ["does not move this turn"] if c.unmoved else []
            bits += [f"{', '.join(c.used)} used this wave"] if c.used else []
            bits += [f"its arrow pointed at {c.arrow}"] if c.arrow is not None else []
            parts.append(f"{c.chip} " + ", ".join(bits))
        parts += [f"{f} Source {n}" for f, n in self.source]
        parts += [f"{f} morale die {n}" for f, n in self.morale]
        for depth, bought in enumerate(self.earthscape):
            parts.append(("the keel buy the top earthscape, " if depth == 0 else "then the next one, ")
                         + ("kept for a Build Phase" if bought == "kept"
                            else f"placed at placement {bought.removeprefix('placed:')}"))
        if self.wave_over:
            parts.append("the wave ends")
        if self.game_over:
            parts.append("the game ends: one fortress gate is left standing")
        if self.campfire:
            parts.append(f"campfire mode ({self.campfire_when}) for {', '.join(self.campfire)}")
        return "; ".join(parts) or "nothing changes"

    def as_json(self) -> dict[str, Any]:
        return {
            "chips": [c.as_json() for c in self.chips],
            "source": dict(self.source),
            "morale": dict(self.morale),
            "wave_over": self.wave_over,
            "campfire": list(self.campfire),
            "campfire_when": self.campfire_when or None,
            "game_over": self.game_over,
            "earthscape": list(self.earthscape) or None,
        }


@dataclass(frozen=True, order=True)
class Rolled:
    """A retaliation rolled with the spire die (Relentless) in a step's line: its unit, the layer of the
    group that retaliated (0: the top chip), the totals that lead to the end it is part of (each deals
    the same), and ``top``, the total that stands for every total from it on."""

    unit: str
    layer: int
    totals: tuple[int, ...]
    top: int

    def as_json(self) -> dict[str, Any]:
        return {"unit": self.unit, "layer": self.layer, "totals": list(self.totals), "top": self.top}


@dataclass(frozen=True, order=True)
class Cannonball:
    """One of Harbinger chapter 2's cannonballs as the wave ends in a line: its cannon (1 to 4), the chip it hit
    (the closest in the cannon's line), and the totals of its one spire attack die that lead to the end it is part
    of, from ``low`` to ``high`` (None: or more): it deals ``low``."""

    cannon: int
    target: str
    low: int
    high: int | None

    def as_json(self) -> dict[str, Any]:
        return {"cannon": self.cannon, "target": self.target, "low": self.low, "high": self.high}

    @property
    def totals(self) -> str:
        """The totals: "0", "0 to 1", "2 or more"."""
        if self.high is None:
            return f"{self.low} or more"
        return str(self.low) if self.high == self.low else f"{self.low} to {self.high}"


@dataclass(frozen=True)
class Razed:
    """A spire's attack at the start of the turn (Raze) in a line: the spire, its target, its dice, what
    reduces the attack (``cut``), and the totals less that which lead to the end it is part of, from
    ``low`` to ``high`` (None: or more)."""

    spire: str
    target: str
    dice: int
    cut: int
    low: int
    high: int | None

    def as_json(self) -> dict[str, Any]:
        return {"spire": self.spire, "target": self.target, "dice": self.dice, "cut": self.cut,
                "low": self.low, "high": self.high}

    @property
    def totals(self) -> str:
        """The totals less the cut: "0", "1 to 2", "3 or more"."""
        if self.high is None:
            return f"{self.low} or more"
        return str(self.low) if self.high == self.low else f"{self.low} to {self.high}"


@dataclass(frozen=True, order=True)
class Roll6:
    """A D6 a talent rolled in a line (Reap at the start or end of a turn; Explosion where a move sets it
    off): the chip that rolled it, and the faces, ``low`` to ``high``, that lead to the end it is part of
    (each does the same); ``dice`` D6s rolled at once, ``low`` to ``high`` their total (a unit moved beside
    several Explosion chips)."""

    chip: str
    low: int
    high: int
    dice: int = 1

    def as_json(self) -> dict[str, Any]:
        return {"chip": self.chip, "low": self.low, "high": self.high, **({"dice": self.dice} if self.dice > 1 else {})}

    @property
    def chance(self) -> Fraction:
        ways = _d6_totals(self.dice)  # six equally likely faces on each die (docs/dice.md)
        return Fraction(sum(ways.get(t, 0) for t in range(self.low, self.high + 1)), 6 ** self.dice)

    @property
    def faces(self) -> str:
        return str(self.low) if self.low == self.high else f"{self.low} to {self.high}"


@cache
def _d6_totals(dice: int) -> dict[int, int]:
    """How many of the 6 ** ``dice`` equally likely rolls of ``dice`` D6s make each total."""
    ways = {0: 1}
    for _ in range(dice):
        ways = dict(Counter(t + f for t, n in ways.items() for f in range(1, 7) for _ in range(n)))
    return ways


@dataclass(frozen=True)
class StepEnd:
    """One distinct end state of a whole attack step, with one sequence of attacks that makes it. Where
    a retaliation of the line rolled the spire die (Relentless), ``rolled`` says what it totalled, which
    tells such ends apart, and ``probability`` is the chance of those totals, given the attacks. So do
    the totals a spire's attack at the start of the turn rolled (``razed``: Raze), with their chance, and
    the faces of a D6 a talent rolled then or at the end of the turn (``d6``: Reap), and the cannonballs a
    fortress fired as the wave ended (``cannonballs``: Harbinger chapter 2). At the end of the turn,
    ``again`` gives what Back to the Future played after ``end`` (questions/closing.py): each unit's move
    (one final board of a movement step only it moved in) and attack (one end of an attack step only it
    attacked in), in order, and ``again_end`` what they changed on the board ``end`` left, as the whole turn
    gives a board's changes; ``probability`` then has the chance of what they rolled too."""

    end: EndState
    sequence: tuple[AttackOutcome, ...]
    rolled: tuple[Rolled, ...] = ()
    probability: Fraction | None = None
    razed: tuple[Razed, ...] = ()
    d6: tuple[Roll6, ...] = ()
    cannonballs: tuple[Cannonball, ...] = ()
    again: tuple[tuple[str, StepOutcome, StepEnd], ...] = ()
    again_end: TurnEnd | None = None

    def as_json(self) -> dict[str, Any]:
        return {"end": self.end.as_json(), "sequence": [a.as_json() for a in self.sequence],
                "rolled": [r.as_json() for r in self.rolled], "razed": [r.as_json() for r in self.razed],
                "d6": [r.as_json() for r in self.d6], "cannonballs": [b.as_json() for b in self.cannonballs],
                "probability": None if self.probability is None else str(self.probability),
                **({"again": [{"unit": u, "movement": m.as_json(), "attack": a.as_json()} for u, m, a in self.again],
                    "again_end": self.again_end.as_json() if self.again_end else None} if self.again else {})}


@dataclass(frozen=True)
class AttackerSummary:
    """What one unit attacks over every line of a whole attack step."""

    unit: str
    targets: tuple[str, ...]  # every chip it attacks in some line, in name order
    forced: bool  # it attacks (or uses its attack otherwise) in every line

    def as_json(self) -> dict[str, Any]:
        return {"unit": self.unit, "targets": list(self.targets), "forced": self.forced}


@dataclass(frozen=True)
class StepSummary:
    """A whole attack step over all its lines, from the solver's brave and cautious consequences: what
    each unit may or must attack, and which chips may or must leave play."""

    attackers: tuple[AttackerSummary, ...]
    may_fall: tuple[str, ...]  # defeated or discarded in some end state
    must_fall: tuple[str, ...]  # ... in every end state

    def as_json(self) -> dict[str, Any]:
        return {"attackers": [a.as_json() for a in self.attackers], "may_fall": list(self.may_fall),
                "must_fall": list(self.must_fall)}


@dataclass(frozen=True)
class AttackStepResult:
    faction: str
    ai: bool
    count: int  # the exact number of distinct end states; when not complete, those found
    outcomes: tuple[StepEnd, ...] = field(default=())
    complete: bool = True
    notices: tuple[Notice, ...] = ()
    summary: StepSummary | None = None  # None when every end state is listed (no limit), or not complete

    def as_json(self) -> dict[str, Any]:
        return {
            "faction": self.faction,
            "ai": self.ai,
            "complete": self.complete,
            "count": self.count,
            "shown": len(self.outcomes),
            "summary": None if self.summary is None else self.summary.as_json(),
            "outcomes": [o.as_json() for o in self.outcomes],
            "notices": notices_json(self.notices),
        }


@dataclass(frozen=True, order=True)
class Shot:
    """One spire's shot in a Spires Fire sequence: its target and the damage its dice dealt; or what it
    did instead of attacking (``instead``: the talent, Wallop), the damage that dealt and where it
    teleported the unit (``to``)."""

    spire: str
    target: str
    damage: int  # after Armored
    at_least: bool  # the target could lose no more (a Poison shot: it takes the same): the dice may have rolled more
    chosen: bool  # the target was a choice (several targets allowed), not forced
    instead: str = ""
    to: str | None = None

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"spire": self.spire, "target": self.target, "damage": self.damage,
                                "at_least": self.at_least, "chosen": self.chosen}
        if self.instead:
            data["instead"] = self.instead
            data["to"] = self.to
        return data


@dataclass(frozen=True)
class SpireTargets:
    """A spire that fires: its dice and the targets it may choose first (AI: with priority)."""

    spire: str
    faction: str
    dice: int
    range: int
    targets: tuple[Target, ...]
    ai: bool

    def as_json(self) -> dict[str, Any]:
        return {
            "spire": self.spire,
            "faction": self.faction,
            "dice": self.dice,
            "range": self.range,
            "ai": self.ai,
            "targets": [t.as_json() for t in self.targets],
        }


@dataclass(frozen=True)
class FireResult:
    """A distinct result of the Spires Fire step, under one line of target choices, with the chips each
    spire fired at (or acted on): an end reached by firing at other chips is another result.

    ``choices`` is the sequence of (spire, chip) choices made where a spire had several allowed
    targets, or its talent several chips to act on (Quake's ties, before its shot), or a player's spire
    acted instead of attacking, (spire, talent) and (spire, chip) (a player's Wallop; an AI spire's
    chip only where its priority left several), then (spire, hex) where it could teleport the unit to
    several; a player's spire that could have so acted chose its shot; and of (chip, talent) where an
    owner chose to use a talent of ``TALENT_CHOICES``, (unit, talent, spire) for a unit's against that
    spire's shot; for a fixed way of choosing, the probabilities of its results add up to 1.
    """

    choices: tuple[tuple[str, ...], ...]
    end: EndState
    probability: Fraction
    shots: tuple[Shot, ...]  # one sequence of shots that gives it: every one that does fires at these chips, if not as often

    def as_json(self) -> dict[str, Any]:
        return {"choices": [_choice_json(c) for c in self.choices],
            "probability": str(self.probability),
            "end": self.end.as_json(),
            "shots": [s.as_json() for s in self.shots],
        }


def _choice_json(choice: tuple[str, ...]) -> dict[str, str]:
    """(spire, target); (chip, talent); (unit, talent, the spire whose shot it answers)."""
    chip, what, *shot = choice
    if what not in TALENT_CHOICES:
        return {"spire": chip, "target": what}
    return {"chip": chip, "talent": what, **({"against": shot[0]} if shot else {})}


@dataclass(frozen=True)
class FireStepResult:
    faction: str  # whose units are fired at
    spires: tuple[SpireTargets, ...]  # in firing order, as the step begins
    count: int  # distinct (choices, end state) results
    results: tuple[FireResult, ...] = ()
    die: str = ""  # the die table used (name or file)
    complete: bool = True  # False: cut short, so the probabilities are lower bounds
    notices: tuple[Notice, ...] = ()
    # (spire, why): spires that flipped in some result, by the talent why names (Wallop), to a side the
    # position does not give, which the rest of the turn would read (the whole turn's notices)
    flips: tuple[tuple[str, str], ...] = ()

    @property
    def decisions(self) -> bool:
        return any(r.choices for r in self.results)

    @property
    def outcomes(self) -> tuple[FireResult, ...]:
        """The results, by the name the other steps give their outcomes."""
        return self.results

    def as_json(self) -> dict[str, Any]:
        return {
            "faction": self.faction,
            "die": self.die,
            "spires": [s.as_json() for s in self.spires],
            "decisions": self.decisions,
            "complete": self.complete,
            "count": self.count,
            "shown": len(self.results),
            "results": [r.as_json() for r in self.results],
            "notices": notices_json(self.notices),
        }
