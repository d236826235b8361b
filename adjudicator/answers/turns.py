"""Typed answers about a whole turn: every step from where the position stands to the end of turn.

docs/output-format.md documents the JSON shape (``as_json``). Chips are named as in the position
file; a unit's ``node`` is a hex, ``gate:<faction>``, or None once it is off the board, and then
``left`` says how: DEFEATED, RETURNED to its fortress, BARRACKS (returned to its barracks as the wave
ended: Precious), DISCARDED (Anarchy's die), or "under <unit>" (UNDER), placed under that unit (Harbinger chapter 5's Bydra Graam).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from adjudicator.answers.attacks import FireResult, StepEnd
from adjudicator.answers.moves import StepOutcome
from adjudicator.answers.notices import Notice, notices_json

# What the whole-turn question did with each step (TurnStep.status).
PLAYED = "played"  # answered by that step's own question
PLAYED_IN_PART = "played in part"  # answered by its own question, but a core rule of it is left out (Gap)
NO_RULE = "no core rule"  # only talents act in it: their notices say which ones are left out
NOT_MODELLED = "not modelled"  # the core rule itself is left out: the answer names it (Gap)
DONE = "already done"  # the position stands after it
NOT_REACHED = "not reached"  # every line of play ended the wave or the game before it


@dataclass(frozen=True)
class TurnStep:
    step: str  # a name of adjudicator/position/talents.py BOARD_STEPS
    status: str

    def as_json(self) -> dict[str, Any]:
        return {"step": self.step, "status": self.status}


@dataclass(frozen=True, order=True)
class Gap:
    """A core rule of a step that the answer does not take into account, and why it may matter."""

    step: str
    what: str

    def as_json(self) -> dict[str, Any]:
        return {"step": self.step, "what": self.what}

    def __str__(self) -> str:
        return f"{self.step}: {self.what}"


DEFEATED, RETURNED, BARRACKS = "defeated", "returned", "barracks"  # how a unit left the board during the turn
DISCARDED = "discarded"  # to the discard pile, not defeated: a die rolled before its move (Anarchy), Pacify
UNDER = "under "  # and the unit it was placed under: "under bydra" (chapter 5's Call Minion)
IN_BARRACKS = "in-barracks"  # it waits in its barracks still, promoted there (Powerhouse)


@dataclass(frozen=True, order=True)
class UnitEnd:
    """How a unit ends the turn, where it differs from how it began."""

    unit: str
    node: str | None  # None: off the board
    health: int | None = None  # None: unchanged or off the board
    chip: str = ""  # the active chip when a group revealed another, else ""
    upgrades: tuple[str, ...] | None = None  # None: unchanged
    promoted: bool = False  # promoted this turn
    basic: bool = False  # flipped back to its basic side this turn (Dodge)
    left: str = ""  # off the board: DEFEATED, RETURNED, or UNDER and the unit it is placed under
    discarded_talents: tuple[str, ...] = ()  # talents it discarded (Hidden Armor) or items it lost (Cumbersome) this turn
    control: str | None = None  # the faction that gained control of it this turn (Recruitable); None: unchanged
    rides: str | None = None  # placed from its barracks on top of this chip this turn, riding it (Elfin)
    side: str = ""  # the side it was so placed with, by that side's talent (an elfinkaze's Glidebomb, Save)
    woke: bool = False  # its campfire mode ended with the wave

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"unit": self.unit, "node": self.node}
        if self.rides is not None:
            data["rides"] = self.rides
            data["side"] = self.side
        if self.woke:
            data["woke"] = True
        if self.left:
            data["left"] = self.left
        if self.health is not None:
            data["health"] = self.health
        if self.chip:
            data["chip"] = self.chip
        if self.upgrades is not None:
            data["upgrades"] = list(self.upgrades)
        if self.promoted:
            data["promoted"] = True
        if self.basic:
            data["basic"] = True
        if self.discarded_talents:
            data["discarded_talents"] = list(self.discarded_talents)
        if self.control is not None:
            data["control"] = self.control
        return data

    def describe(self) -> str:
        if self.node is None:
            if self.left.startswith(UNDER):
                return f"{self.unit} placed under {self.left.removeprefix(UNDER)}"
            if self.left == IN_BARRACKS:
                return f"{self.unit} promoted in its barracks"
            return f"{self.unit} " + {DEFEATED: "defeated", BARRACKS: "returned to its barracks",
                                      DISCARDED: "discarded"}.get(
                self.left, "returned to its fortress")
        bits = [self.node]
        bits += [f"riding {self.rides}, its {self.side} side up"] if self.rides is not None else []
        bits += [f"now {self.chip}"] if self.chip else []
        bits += [f"health {self.health}"] if self.health is not None else []
        bits += [f"upgrades [{', '.join(self.upgrades)}]"] if self.upgrades is not None else []
        bits += ["promoted"] if self.promoted else []
        bits += ["flipped to its basic side"] if self.basic else []
        bits += [f"without {', '.join(self.discarded_talents)}"] if self.discarded_talents else []  # discarded, dropped
        bits += [f"now controlled by {self.control}"] if self.control is not None else []
        bits += ["leaves campfire mode"] if self.woke else []
        return f"{self.unit} " + ", ".join(bits)


@dataclass(frozen=True, order=True)
class TurnEnd:
    """The board as the turn ends, as changes against how it began."""

    units: tuple[UnitEnd, ...] = ()
    spires: tuple[tuple[str, tuple[str, ...] | None], ...] = ()  # (spire, upgrades left; None: defeated)
    gates: tuple[tuple[str, int], ...] = ()  # (faction, health)
    source: tuple[tuple[str, int], ...] = ()  # (faction, Source)
    wave_over: bool = False
    game_over: bool = False
    campfire: tuple[str, ...] = ()  # factions whose heroes go into campfire mode
    chips: tuple[tuple[str, int], ...] = ()  # (other chip or landmark, health): the Source vein; Quake's landmark
    spires_at: tuple[tuple[str, str], ...] = ()  # (spire, the hex it moved to: Creep)
    landmarks: tuple[tuple[str, str], ...] = ()  # (landmark, "revealed" or "removed"): exploration
    landmarks_at: tuple[tuple[str, str], ...] = ()  # (landmark, the hex an act moved it to: Twister)
    morale: tuple[tuple[str, int], ...] = ()  # (faction, what its morale die shows: Morale)
    # spires returned to their barracks, not defeated: by an act as a unit moved (Rigging), as the wave
    # ended (Mining)
    spires_home: tuple[str, ...] = ()
    # (other chip, its hex, how many lie there now; 0: it left the board): the toxic fumes chips a defeat
    # placed, or that returned as the wave ended (Toxic Fumes)
    others: tuple[tuple[str, str, int], ...] = ()
    # (spire, the faction whose spire replaced it, its upgrades kept: Quantum Dark)
    replaced: tuple[tuple[str, str], ...] = ()
    # (landmark, the faction that now controls it: Source Link)
    linked: tuple[tuple[str, str], ...] = ()
    # (spire, its hex, its faction, its printed name, its upgrades): a spire an act built as units moved (Builder)
    built: tuple[tuple[str, str, str, str, tuple[str, ...]], ...] = ()
    # (spire, its printed name now): a spire an act promoted to another chip (Builder: a siege tower)
    renamed: tuple[tuple[str, str], ...] = ()
    # (other chip, the unit it was placed under): chapter 4's rotten worms infesting Bydra Graam
    tucked: tuple[tuple[str, str], ...] = ()
    # other chips discarded: an Explosion chip that went off
    discarded: tuple[str, ...] = ()
    # (faction, the plank hex its fortress docked beside as the wave ended): Harbinger chapter 2's maneuver
    docked: tuple[tuple[str, str], ...] = ()
    # (other chip, the unit that picked it up and holds it): Portable Gateport's item, off the map
    held: tuple[tuple[str, str], ...] = ()
    # (hex, its terrain as the map writes it): the hexes of the earthscapes placed at once (Harbinger chapter 3)
    laid: tuple[tuple[str, str], ...] = ()
    # (spire, the hex its arrow now points at): pointed anew as it was swapped (Translocate)
    arrows: tuple[tuple[str, str], ...] = ()

    @property
    def sort_key(self) -> str:
        return json.dumps(self.as_json(), sort_keys=True)

    def as_json(self) -> dict[str, Any]:
        return {
            "units": [u.as_json() for u in self.units],
            "spires": {s: (list(ups) if ups is not None else "defeated") for s, ups in self.spires},
            "gates": dict(self.gates),
            **({"docked": dict(self.docked)} if self.docked else {}),
            "chips": dict(self.chips),
            "spires_at": dict(self.spires_at),
            **({"landmarks": dict(self.landmarks)} if self.landmarks else {}),
            **({"landmarks_at": dict(self.landmarks_at)} if self.landmarks_at else {}),
            **({"spires_home": list(self.spires_home)} if self.spires_home else {}),
            **({"others": [{"chip": c, "at": h, "count": n} for c, h, n in self.others]} if self.others else {}),
            **({"replaced": dict(self.replaced)} if self.replaced else {}),
            **({"linked": dict(self.linked)} if self.linked else {}),
            **({"built": {b: {"at": h, "faction": f, "chip": c, "upgrades": list(u)} for b, h, f, c, u in self.built}}
               if self.built else {}),
            **({"renamed": dict(self.renamed)} if self.renamed else {}),
            **({"tucked": dict(self.tucked)} if self.tucked else {}),
            **({"discarded": list(self.discarded)} if self.discarded else {}),
            **({"held": dict(self.held)} if self.held else {}),
            **({"earthscape": dict(self.laid)} if self.laid else {}),
            **({"arrows": dict(self.arrows)} if self.arrows else {}),
            "source": dict(self.source),
            **({"morale": dict(self.morale)} if self.morale else {}),
            "wave_over": self.wave_over,
            "game_over": self.game_over,
            "campfire": list(self.campfire),
        }

    def describe(self) -> str:
        parts = [u.describe() for u in self.units]
        parts += [f"{s} defeated" if ups is None else f"{s} upgrades [{', '.join(ups)}]" for s, ups in self.spires]
        parts += [f"{s} on {h}" for s, h in self.spires_at]
        parts += [f"{s}'s arrow pointed at {h}" for s, h in self.arrows]
        parts += [f"{s} returned to its barracks" for s in self.spires_home]
        parts += [f"{s} replaced by a {f} spire" for s, f in self.replaced]
        parts += [f"{b} built on {h} ({f}: {c}{''.join(' ' + x for x in u)})" for b, h, f, c, u in self.built]
        parts += [f"{s} now a {c}" for s, c in self.renamed]
        parts += [f"{m} {what}" for m, what in self.landmarks]
        parts += [f"{m} on {h}" for m, h in self.landmarks_at]
        parts += [f"{m} now controlled by {f}" for m, f in self.linked]
        parts += [f"gate:{f} health {h}" for f, h in self.gates]
        parts += [f"gate:{f} docked beside {h}" for f, h in self.docked]
        parts += [f"{c} health {h}" for c, h in self.chips]
        parts += [f"{c} returned to its barracks" if n == 0 else f"{c}: {n} on {h}" for c, h, n in self.others]
        parts += [f"{c} placed under {u}" for c, u in self.tucked]
        parts += [f"{c} discarded" for c in self.discarded]
        parts += [f"{c} held by {u}" for c, u in self.held]
        parts += [f"an earthscape placed: {', '.join(f'{h} {t}' for h, t in self.laid)}"] if self.laid else []
        parts += [f"{f} Source {n}" for f, n in self.source]
        parts += [f"{f} morale die {n}" for f, n in self.morale]
        parts += ["the wave ends"] if self.wave_over else []
        parts += ["the game ends"] if self.game_over else []
        parts += [f"campfire mode for {', '.join(self.campfire)}"] if self.campfire else []
        return "; ".join(parts) or "nothing changes"


@dataclass(frozen=True)
class TurnOutcome:
    """One distinct end of the turn under one Spires Fire result (and one result of the dice its moves
    roll), with the steps that lead to it."""

    end: TurnEnd
    # of the chance results it follows: the Spires Fire result, the floating rocks' dice of its moves
    # (chapter 1), the die rolled before a move (Anarchy); 1 when no die is rolled
    probability: Fraction
    fire: FireResult | None  # None: the step was not played, or no spire fires
    movement: StepOutcome | None  # one final board of the movement step that leads to it
    attack: StepEnd | None  # one end state of the attack step that leads to it
    quick_strike: StepEnd | None = None  # one end state of the Quick Strike step that leads to it
    start: StepEnd | None = None  # one end state of the start of the turn that leads to it
    # one end state of the end of the turn that leads to it, with Back to the Future's lines (its `again`)
    close: StepEnd | None = None
    # one end state of the end of the wave that leads to it, where the turn ended the wave (its cannonballs)
    wave: StepEnd | None = None

    @property
    def again(self) -> tuple[tuple[str, StepOutcome, StepEnd], ...]:
        """Back to the Future at the end of the turn: each unit's extra move and attack, in order."""
        return self.close.again if self.close else ()

    def as_json(self) -> dict[str, Any]:
        return {
            "end": self.end.as_json(),
            "probability": str(self.probability),
            "fire": self.fire.as_json() if self.fire else None,
            "movement": self.movement.as_json() if self.movement else None,
            "attack": self.attack.as_json() if self.attack else None,
            "quick_strike": self.quick_strike.as_json() if self.quick_strike else None,
            "start": self.start.as_json() if self.start else None,
            "close": self.close.as_json() if self.close else None,
            "wave": self.wave.as_json() if self.wave else None,
        }


@dataclass(frozen=True)
class TurnSummary:
    """Where one unit of the faction can end the turn, over every outcome."""

    unit: str
    ends: tuple[str, ...]  # every node it ends on, DEFEATED and RETURNED included, in name order
    forced: bool  # the same end in every outcome

    def as_json(self) -> dict[str, Any]:
        return {"unit": self.unit, "ends": list(self.ends), "forced": self.forced}


@dataclass(frozen=True)
class TurnResult:
    faction: str
    ai: bool
    steps: tuple[TurnStep, ...]
    count: int  # distinct (Spires Fire result, end) pairs; when not complete, those found
    outcomes: tuple[TurnOutcome, ...] = ()
    complete: bool = True
    summary: tuple[TurnSummary, ...] = ()  # empty when not complete
    notices: tuple[Notice, ...] = ()
    gaps: tuple[Gap, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {
            "faction": self.faction,
            "ai": self.ai,
            "steps": [s.as_json() for s in self.steps],
            "complete": self.complete,
            "count": self.count,
            "summary": [s.as_json() for s in self.summary],
            "shown": len(self.outcomes),
            "outcomes": [o.as_json() for o in self.outcomes],
            "notices": notices_json(self.notices),
            "gaps": [g.as_json() for g in self.gaps],
        }
