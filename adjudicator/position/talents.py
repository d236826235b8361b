"""The talent catalogue (adjudicator/data/talents.yaml): every talent the rule texts name, how a
position may write it, the steps of a turn it acts in, and how far the adjudicator models it."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from adjudicator.position.data import shipped

# The steps of a turn, in order (reference/ai-rules.md, Turn structure; Quick Strike "before the
# spires fire"); then the events that can happen inside them; then the three phases outside the board.
TURN_STEPS = ("start-of-turn", "quick-strike", "spires-fire", "movement", "exploration", "attack", "end-of-turn")
WAVE_END = "end-of-wave"  # an event, and a moment a position may stand at (the wave has just ended)
BOARD_STEPS = TURN_STEPS + ("defeat", WAVE_END)
# The position files of a checkout (absent from an installed package: a talent's own are then not listed).
POSITIONS = Path(__file__).resolve().parents[2] / "positions"
OUTSIDE_STEPS = ("prep", "build", "market")
STEPS = BOARD_STEPS + OUTSIDE_STEPS

# A side's status for a talent.
MODELLED = "modelled"
PARTLY = "partly modelled"
NO_EFFECT = "no effect for the AI"
OUTSIDE = "outside the board"
NOT_MODELLED = "not modelled"
STATUSES = (MODELLED, PARTLY, NO_EFFECT, OUTSIDE, NOT_MODELLED)


@dataclass(frozen=True)
class Movement:
    """A talent's effect on a unit's movement stat and terrain allowance, as far as Python must know it
    to hand a question enough of the board (the encoding decides the values: asp/talents/)."""

    adds: int = 0  # the most it adds to the stat (mv_add/3)
    sets: int | None = None  # a stat it may set, above the chip's own (mv_set/3)
    gains: str | None = None  # an allowance it raises the unit's to, if harder (allow_set/3)
    promoted_gains: str | None = None  # the one it raises it to instead on a promoted unit (Motility)
    only: str | None = None  # an allowance it lowers the unit's to (allow_set/3)


@dataclass(frozen=True)
class Part:
    """A part of a talent's wording that its encoding leaves out (the catalogue's `left_out`): it keeps
    a notice in ``steps`` even where the encoding covers them, wherever ``when`` is empty or one of
    its talents is on a chip of the position (a part that needs another talent to act at all: the
    swap of Eager moving a unit beside Toxic Secretion). An answer named in ``counted_by`` takes the
    part into account itself (the attacks question gives a rolled retaliation's odds), so it gives no
    notice for it. A part of one side's wording only (``sides``) counts on that side's chips alone."""

    text: str
    steps: tuple[str, ...]
    when: tuple[str, ...] = ()
    counted_by: tuple[str, ...] = ()
    # A counter the part needs the position to give (Motility's reservoir): it counts only where the
    # position does not, ``present`` then lacking ``tracked(untracked)``.
    untracked: str = ""
    sides: tuple[str, ...] = ("player", "ai")
    # A part only a unit on the map can set off (a return to the fortress): it counts only where a unit
    # with the talent stands on the map, ``present`` then holding ``on_map(talent)``.
    on_map: bool = False
    # A part only a unit's health reduced to exactly 1 as units move can set off (Entropy; hook at_one/2): it
    # counts only where a chip with the talent may be left so, ``present`` then holding ``harmed(talent)``.
    harmed: bool = False

    def acts(self, present: frozenset[str], talent: str) -> bool:
        return (not self.when or bool(set(self.when) & present)) and (
            not self.untracked or tracked(self.untracked) not in present) and (
            not self.on_map or on_map(talent) in present) and (
            not self.harmed or harmed(talent) in present)


def on_map(talent: str) -> str:
    """How a talent on a unit standing on the map shows among the names ``Part.acts`` is handed."""
    return f"on-map:{talent}"


def harmed(talent: str) -> str:
    """How a talent on a unit whose health may be reduced to exactly 1 as units move shows among the names
    ``Part.acts`` is handed."""
    return f"harmed:{talent}"


def tracked(counter: str) -> str:
    """How a counter the position gives shows among the names ``Part.acts`` is handed (no talent's name)."""
    return f"counter:{counter}"


@dataclass(frozen=True)
class Talent:
    """A talent of the catalogue (adjudicator/data/talents.yaml): its wordings and how far each side's is modelled."""

    name: str
    was: tuple[str, ...]
    number: str  # none | before ("2 Range") | after ("Roost 3")
    lists: tuple[str, ...]
    player: str | None  # the player wording
    ai: str | None  # the AI wording, where it differs from the player's
    steps: tuple[str, ...]
    # none | units | spires: "Talent does not trigger for AI units" (or spires); equipment: found only on
    # equipment ("this equipment"), which "the AI will never interact with" (harbinger-rulebook, AI Talents)
    ai_no_effect: str
    outside: bool  # acts only in prep, build or market
    encoding: str | None  # the file under asp/talents/ that encodes it; "core": the core rules carry it
    modelled_steps: tuple[str, ...]  # the steps that encoding covers
    sides: tuple[str, ...]  # the sides that encoding covers
    linked: tuple[str, ...]  # positions elsewhere than its own folder that test it (FAQ cases, …)
    hooks: tuple[str, ...] = ()  # the hooks (asp/core/hooks.lp) its encoding defines, as name/arity
    note: str = ""
    left_out: tuple[Part, ...] = ()  # the parts of its wording the encoding leaves out: each keeps its notice
    movement: Movement = field(default_factory=Movement)  # what Python must know of its movement hooks
    reach: int = 0  # the farthest count of hexes its wording measures from its chip (fields.range_bound)
    reach_number: bool = False  # its wording measures the chip's own # from it (Absorb #: fields.range_bound)
    in_range: bool = False  # its wording acts on chips within its unit's range while units move (uwithin/3)
    reads_health: bool = False  # its encoding compares units' health while they move (health/2)
    shots: int = 1  # the most shots its spire may fire in Spires Fire, each a time point (Repeater: 2)
    edge_acts: int = 0  # the time points each chip with it takes at the start or end of a turn (Self Destruct: 1)
    strides: int = 0  # the hexes its talent moves its unit in a straight line (ray/4: Prowl, 2)
    teleports: int = 0  # the farthest count of hexes from its spire it teleports a unit to (hnear/3: Wallop, 3)
    places: int = 0  # the farthest count of hexes from its move's end it places its unit (Disperse: 2)
    teleports_self: bool = False  # its unit may teleport itself up to its # hexes (tnear/2: Tracker)
    aims: int = 0  # the farthest count of hexes from its unit it deals damage to a unit (anear/2: Magic-Like Missile, 3)
    # "self": it acts only in attacks that touch its own chip (by it, on it, or on the chips those reach),
    # so attacks that touch no common chip still commute and split (asp/combat/attack_step.lp, plain/1);
    # "beyond": it may act on attacks that do not touch its chip (Cover, Hail), or on Source (Swindle)
    acts_on: str = "beyond"
    grants: tuple[str, ...] = ()  # talents its chip gives other units (hook granted/4: Lift, Flying)
    on_landmarks: bool = False  # its encoding reads it on a revealed landmark (input mtalent/2: Fountain)
    # its movement hooks act only in its own unit's move, that unit first in each: a unit that makes no
    # move in a step leaves the step as it would be without it (questions/whole_solve.py, idle)
    own_move: bool = False
    # its unit teleports a friendly minion from anywhere on the board to beside it (Call Minion): its move
    # reads the whole board, and those minions' distance fields (fields.called)
    calls: bool = False
    # its unit summons a unit of its faction's barracks onto the closest path hex (Evoke): its move reads
    # the whole board, the facts then give summonable/3 and udist/3
    summons: bool = False
    # its encoding reads the whole board's terrain (Build Waygate: "path that connects to all possible marks"):
    # its unit's move reads the whole board
    whole_board: bool = False
    # its unit may put a landmark minion beside it under its faction's control as units move, which then moves
    # this turn (Recruiter): the step's search plays that minion's move too (questions/whole_step.py, recruits)
    recruits: bool = False
    # its unit, defeated, acts on the nearest spire of the faction so named to where it fell (Pollinate:
    # keel): the facts then give every such spire's count of hexes to each node (sdist/3)
    nearest: str = ""
    # why no encoding can take it into account: what it needs that no text gives (Unruly: the forsaken die's
    # faces); its notice says so where it is not modelled
    cannot: str = ""

    def _covered(self, ai: bool) -> tuple[str, ...]:
        if self.encoding is None or ("ai" if ai else "player") not in self.sides:
            return ()
        return self.modelled_steps

    @property
    def folder(self) -> str:
        """Its positions' folder, under positions/: talents/<name in kebab case>."""
        return "talents/" + re.sub(r"[^a-z0-9]+", "-", self.name.lower().replace("'", "")).strip("-")

    @property
    def positions(self) -> tuple[str, ...]:
        """The position files that test it: those of its own folder, where this is a checkout with
        positions/ beside the package, then the linked ones."""
        own = sorted(p.relative_to(POSITIONS.parent).as_posix() for p in (POSITIONS / self.folder).glob("*.yaml"))
        return (*own, *self.linked)

    @property
    def numbered(self) -> bool:
        return self.number != "none"

    def unmodelled_steps(self, ai: bool, present: frozenset[str] | None = None, answer: str = "") -> tuple[str, ...]:
        """The board steps this talent acts in that the adjudicator does not take it into account in,
        or not wholly, on a chip of that side; ``present``: the talents on the position's chips, which
        leave out a part whose `when` names none of them (None: every part counts); ``answer``: the
        command answering, which leaves out the parts it counts itself."""
        if self.outside or (ai and self.ai_no_effect != "none"):
            return ()
        covered = self._covered(ai)
        parts = {s for p in self.parts_left(ai, present, answer) for s in p.steps}
        return tuple(s for s in self.steps if s in BOARD_STEPS and (s not in covered or s in parts))

    def parts_left(self, ai: bool, present: frozenset[str] | None = None, answer: str = "") -> tuple[Part, ...]:
        """The parts left out of the steps its encoding covers on a chip of that side, as they may act
        with the talents ``present`` (None: all of them), and as ``answer`` does not count them."""
        if not self._covered(ai):
            return ()
        side = "ai" if ai else "player"
        return tuple(p for p in self.left_out
                     if side in p.sides and (present is None or p.acts(present, self.name)) and answer not in p.counted_by)

    def status(self, ai: bool) -> str:
        """How far the adjudicator takes this talent into account on a chip of that side."""
        if ai and self.ai_no_effect != "none":
            return NO_EFFECT
        if self.outside:
            return OUTSIDE
        left = self.unmodelled_steps(ai)
        if not left:
            return MODELLED
        if self.left_out and self._covered(ai):
            return PARTLY
        return PARTLY if len(left) < len([s for s in self.steps if s in BOARD_STEPS]) else NOT_MODELLED

    def written(self, number: int | None) -> str:
        """The talent as a position writes it: ``2 Range``, ``Roost 3``, ``Flying``."""
        if number is None:
            return self.name
        return f"{number} {self.name}" if self.number == "before" else f"{self.name} {number}"


@dataclass(frozen=True)
class Catalogue:
    """Every talent of the catalogue, by name and by each spelling a position may use."""

    talents: dict[str, Talent]  # by name
    by_lower: dict[str, str]  # every accepted spelling, lower case → current name

    def get(self, name: str) -> Talent:
        return self.talents[name]

    def resolve(self, name: str) -> Talent | None:
        """The talent a name (current or earlier, any case) stands for."""
        current = self.by_lower.get(_squash(name))
        return None if current is None else self.talents[current]

    def known(self, names: Iterable[str]) -> list[Talent]:
        """The talents these names stand for, leaving out names the catalogue does not know (the
        notices speak of those)."""
        return [t for name in names if (t := self.resolve(name)) is not None]

    def suggestions(self, name: str, n: int = 3) -> list[str]:
        """The closest known names, for "did you mean …?"."""
        close = difflib.get_close_matches(_squash(name), list(self.by_lower), n=n, cutoff=0.6)
        return list(dict.fromkeys(self.by_lower[c] for c in close))

    def encoding_files(self, names: set[str]) -> list[str]:
        """The talent files to ground for a position holding these talents, each once, sorted."""
        given = {g for n in names if (t := self.talents.get(n)) for g in t.grants}  # Lift's Flying: its file too
        return sorted({t.encoding for n in names | given if (t := self.talents.get(n)) and t.encoding not in (None, "core")})


def _part(entry: dict) -> Part:
    return Part(entry["part"], tuple(entry["steps"]), tuple(entry.get("when") or ()), tuple(entry.get("counted_by") or ()),
                entry.get("untracked", ""), tuple(entry.get("sides") or ("player", "ai")), bool(entry.get("on_map")),
                bool(entry.get("harmed")))


def _squash(name: str) -> str:
    return re.sub(r"\s+", " ", name.strip()).casefold()


@cache
def catalogue() -> Catalogue:
    raw = shipped("talents.yaml")
    talents: dict[str, Talent] = {}
    by_lower: dict[str, str] = {}
    for entry in raw["talents"]:
        talent = Talent(
            name=entry["name"],
            was=tuple(entry.get("was") or ()),
            number=entry.get("number", "none"),
            lists=tuple(entry.get("lists") or ()),
            player=entry.get("player"),
            ai=entry.get("ai"),
            steps=tuple(entry.get("steps") or ()),
            ai_no_effect=entry.get("ai_no_effect", "none"),
            outside=bool(entry.get("outside", False)),
            encoding=entry.get("encoding"),
            modelled_steps=tuple(entry.get("modelled_steps") or entry.get("steps") or ()),
            sides=tuple(entry.get("sides") or ("player", "ai")),
            linked=tuple(entry.get("positions") or ()),
            hooks=tuple(entry.get("hooks") or ()),
            note=entry.get("note") or "",
            left_out=tuple(_part(talent_part) for talent_part in entry.get("left_out") or ()),
            movement=Movement(**(entry.get("movement") or {})),
            reach=0 if entry.get("reach") == "#" else int(entry.get("reach", 0)),
            reach_number=entry.get("reach") == "#",
            in_range=bool(entry.get("in_range", False)),
            reads_health=bool(entry.get("reads_health", False)),
            shots=int(entry.get("shots", 1)),
            edge_acts=int(entry.get("edge_acts", 0)),
            strides=int(entry.get("strides", 0)),
            teleports=int(entry.get("teleports", 0)),
            places=int(entry.get("places", 0)),
            teleports_self=bool(entry.get("teleports_self", False)),
            aims=int(entry.get("aims", 0)),
            acts_on=entry.get("acts_on", "beyond"),
            grants=tuple(entry.get("grants") or ()),
            on_landmarks=bool(entry.get("on_landmarks", False)),
            own_move=bool(entry.get("own_move", False)),
            calls=bool(entry.get("calls", False)),
            summons=bool(entry.get("summons", False)),
            whole_board=bool(entry.get("whole_board", False)),
            recruits=bool(entry.get("recruits", False)),
            nearest=entry.get("nearest", ""),
            cannot=entry.get("cannot", ""),
        )
        if talent.acts_on not in ("self", "beyond"):
            raise ValueError(f"adjudicator/data/talents.yaml: {talent.name}: acts_on is self or beyond")
        unknown = set(talent.steps) - set(STEPS)
        if unknown or (talent.outside and not set(talent.steps) <= set(OUTSIDE_STEPS)):
            raise ValueError(f"adjudicator/data/talents.yaml: {talent.name}: bad steps {sorted(talent.steps)}")
        # A part left out acts in steps the talent acts in and its encoding covers (else no notice is due).
        for part in talent.left_out:
            if not part.steps or not set(part.steps) <= set(talent.modelled_steps) & set(talent.steps):
                raise ValueError(f"adjudicator/data/talents.yaml: {talent.name}: bad left_out steps {part.steps}")
        talents[talent.name] = talent
        for spelling in (talent.name, *talent.was):
            by_lower[_squash(spelling)] = talent.name
    for talent in talents.values():
        if not {n for p in talent.left_out for n in p.when} <= set(talents):
            raise ValueError(f"adjudicator/data/talents.yaml: {talent.name}: left_out names an unknown talent")
    return Catalogue(talents, by_lower)
