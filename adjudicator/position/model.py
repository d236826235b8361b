"""The validated position model: what a position file means, independent of YAML and of ASP.

Every name here is a name a player sees: hex names such as ``c2``, unit ids from the file,
faction names.  A fortress gate is a board node too; its name is ``gate:<faction>``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum

from adjudicator.position.scenarios import Scenario


class Terrain(str, Enum):
    """Terrain types, in order of difficulty (game-elements: Terrain Types)."""

    PATH = "path"
    PLAINS = "plains"
    FOREST = "forest"
    MOUNTAINS = "mountains"
    WATER = "water"

    @property
    def level(self) -> int:
        return _LEVELS[self]  # read for every hex of a unit's reach: listing the members each time cost a question 3 ms


_LEVELS = {terrain: level for level, terrain in enumerate(Terrain)}


class Kind(str, Enum):
    MINION = "minion"
    HERO = "hero"
    LANDMARK_MINION = "landmark-minion"


class Controller(str, Enum):
    PLAYER = "player"
    AI = "ai"


def gate_node(faction: str) -> str:
    """The board-node name of a faction's fortress gate."""
    return f"gate:{faction}"


@dataclass(frozen=True)
class Hex:
    """A map hex: its terrain, a Source Well or a floating rock, and its place in the map picture."""

    name: str
    terrain: Terrain
    well: bool = False
    rock: bool = False  # a floating rock (Harbinger chapter 1): path terrain no move may end on
    column: int = 0  # 0-based position in the map picture, for drawing
    row: int = 0


@dataclass(frozen=True)
class Stats:
    """A chip's stats: health, attack, movement and range."""

    health: int
    attack: int = 0
    movement: int = 0
    range: int = 1
    star: bool = False  # the attack stat is * (Poison: "its attacks and retaliations are always considered successful")


@dataclass(frozen=True)
class Reward:
    """What the faction that defeats a chip gains (game-elements: Defeat)."""

    source: int = 0
    relics: int = 0
    spire: bool = False  # may build a spire on the defeated chip's Source Well

    @property
    def empty(self) -> bool:
        return not (self.source or self.relics or self.spire)


@dataclass(frozen=True)
class GroupedChip:
    """A minion waiting beneath the active chip of a group, top first."""

    chip: str
    stats: Stats
    talents: tuple[str, ...] = ()  # current names (adjudicator/data/talents.yaml)
    reward: Reward = Reward()
    merc: bool = False
    talent_numbers: tuple[tuple[str, int], ...] = ()  # a numbered talent's # ("2 Range": ("Range", 2))
    # What of the side it shows the position does not give, where a step flipped it as it was grouped
    # (Summon's taproot, board_after.turn): Unit.unseen once it shows. Only the steps set it.
    unseen: tuple[str, ...] = ()


@dataclass(frozen=True)
class Done:
    """What a unit has already done this turn."""

    moved: bool = False
    attacked: bool = False
    retaliated: bool = False
    # Moved off its hex this turn by another's move or talent (FAQ-25: that counts as moving for
    # Survival, though not as the unit's own move for the turn).
    displaced: bool = False
    # Kept in place this turn by Survival's AI wording, "it will not move or attack": it does not attack.
    held: bool = False
    # Attacked this turn (a unit's attack or a spire's shot) by the faction whose turn it is, the one
    # faction that attacks in it (Recruitable: "if your faction attacked this unit this turn").
    targeted: bool = False
    # Silenced this turn by a Silencer spire: it "cannot attack for the remainder of the turn", which does
    # not make it have attacked (Survival: "if this unit did not move or attack").
    silenced: bool = False


@dataclass(frozen=True)
class Unit:
    """A unit chip of the position, wherever it stands."""

    id: str
    chip: str
    faction: str
    kind: Kind
    health: int
    stats: Stats
    at: str | None  # hex name; None while the unit waits in its faction's gate stack
    terrain: Terrain = Terrain.PATH  # the terrain allowance: the hardest terrain it may enter
    talents: tuple[str, ...] = ()  # current names (adjudicator/data/talents.yaml)
    upgrades: tuple[str, ...] = ()
    promoted: bool = False
    group: tuple[GroupedChip, ...] = ()
    campfire: bool = False
    done: Done = Done()
    # It stayed in place by Rooted on an earlier turn: it must move on the next turn in which it can
    # make progress (master-talent-list, Rooted).
    must_move: bool = False
    reward: Reward = Reward()
    merc: bool = False
    capacity: int | None = None  # a hero's upgrade chip capacity; None: not given (level-ups not adjudicated)
    promoted_stats: Stats | None = None  # a hero's or minion's stats on its promoted side
    # The talents printed on the side facing down (``talents`` are the side showing's), with their numbers;
    # None: not given. A flip shows them (questions/board_after.py, turn).
    other_talents: tuple[str, ...] | None = None
    other_talent_numbers: tuple[tuple[str, int], ...] = ()
    talent_numbers: tuple[tuple[str, int], ...] = ()  # a numbered talent's # ("2 Range": ("Range", 2))
    mark: Mark | None = None  # its own mark, where a Harbinger chapter gives one; None: its faction's
    # Chips placed under it that are no group, by printed name: the naroran minions under Bydra Graam
    # (Harbinger chapter 5), inactive until the chapter's rules remove them.
    carrying: tuple[str, ...] = ()
    # The chip with Roost it rides (an elfinkaze perched on a unit or spire: master-talent-list, Roost,
    # "Any number of elfinkaze may share a hex with this unit or spire"); ``at`` is then that chip's hex.
    rides: str | None = None
    # The once-per-wave talents it has used this wave, by catalogue names (Call Minion): no longer offered.
    used: tuple[str, ...] = ()
    # The opposing minion it stands on top of (Stasis: "That minion becomes inactive"), or lies underneath
    # (Possess: its faction controls that minion); ``at`` is then that minion's hex.
    stasis_on: str | None = None
    possessing: str | None = None
    # Burrowed (Burrow: "remove all of its health and place it on any adjacent non-path hex ... It is now
    # inactive"): on its hex with no health, not defeated, until it flips at the start of its next turn.
    burrowed: bool = False
    # Left play to the discard pile during the turn (Anarchy's die, board_after.apply_act): off the board,
    # not defeated. Only the steps set it; a position file holds no discarded unit.
    discarded: bool = False
    # What of the side it shows the position did not give, once a step flipped it this turn ("talents",
    # "stats"): the steps after it read the side it showed before, and their answers say so (coverage,
    # unseen_sides). Only the steps set it.
    unseen: tuple[str, ...] = ()

    @property
    def side(self) -> Stats:
        """The stats of the side showing: ``stats`` are the basic side's (docs/position-format.md)."""
        return self.promoted_stats if self.promoted and self.promoted_stats is not None else self.stats

    @property
    def life(self) -> int:
        """What damage must take to defeat it: its health and fortification upgrades together (FAQ-29:
        a fortification upgrade is one more health, lost first)."""
        return self.health + self.fortifications

    @property
    def fortifications(self) -> int:
        return self.upgrades.count("fortification")


@dataclass(frozen=True)
class Spire:
    """A spire on a hex, with its upgrades bottom to top."""

    id: str
    faction: str
    at: str
    upgrades: tuple[str, ...] = ()  # bottom to top
    talents: tuple[str, ...] = ()
    reward: Reward = Reward()
    merc: bool = False
    talent_numbers: tuple[tuple[str, int], ...] = ()
    chip: str = ""  # its printed name, where a rule names the spire ("the wind shear spire")
    arrow: str = ""  # the hex beside it its arrow points at (Directional Attack)
    capacity: int | None = None  # its upgrade capacity (game-elements, Merc Spires: "3 Upgrade Capacity"); None: not given


# The landmark talent whose chip holds health (landmark-and-market-talents: Secret Passage).
SECRET_PASSAGE = "Secret Passage"
# The landmark talent that discards its chip for its reward (landmark-and-market-talents: Overload).
OVERLOAD = "Overload"
# The unit talent that explores a landmark on its hex group (the keel sheet: Biosonar).
BIOSONAR = "Biosonar"
# The unit talent that promotes a dispatch platform, a spire known by its printed name (master-talent-list).
BUILDER = "Builder"
# The talent that places elfinkaze from the barracks on its chip, those chips' printed name (lower case) and the
# sides an elfinkaze may show (master-talent-list: Elfin; the heirs sheet: Elfinkaze, Glidebomb, Save).
ELFIN, ELFINKAZE, ELFINKAZE_SIDES = "Elfin", "elfinkaze", ("Glidebomb", "Save")
# The unit talent that discards an unrevealed landmark and places a waygate (master-talent-list).
BUILD_WAYGATE = "Build Waygate"
# The faction whose minions promote on a hex group holding one of its spires (reference/factions/keel.txt,
# Minion Promotion): the encodings name it so (owner/2), as Imbue: Flying's "keel minion" does.
KEEL = "keel"
# The faction whose player may place a basic minion on a Source well once its move ends
# (reference/factions/shada.txt, Minion Promotion: asp/movement/shada.lp names it so).
SHADA = "shada"
# The shada's fusions (reference/factions/shada.txt, Fusions): the two basic minions' printed names, in lower
# case, and the promoted minion the pairing deploys.
FUSIONS = {frozenset({"fire", "wind"}): "ash", frozenset({"stone", "wind"}): "dust",
           frozenset({"water", "wind"}): "hurricane", frozenset({"fire", "stone"}): "lava",
           frozenset({"water", "stone"}): "mud", frozenset({"fire", "water"}): "steam"}
# The landmark talent by which a hero beside the chip teleports another hero (landmark-and-market-talents).
SUMMON_HERO = "Summon Hero"
# What a summoned chip costs, by its printed name in lower case (Evoke, Summon: "you may spend 3 Source to
# summon a war briar, 4 to summon a vineherald, or 5 to summon a treed"); the facts give it the solver.
SUMMON_COSTS = {"war briar": 3, "vineherald": 4, "treed": 5}


@dataclass(frozen=True)
class Landmark:
    """A landmark that is no unit: face down, or revealed without a bronze border (a revealed landmark
    minion is a unit of kind landmark-minion). ``talents``, those printed on its chip, by catalogue
    names: the encodings read none of them, so each gives its notice wherever it may act (face down,
    only where a unit explores: game-elements, "Unrevealed landmarks ... can only be interacted with by
    exploring"; docs/position-format.md, Landmarks)."""

    id: str
    at: str
    name: str = ""
    revealed: bool = False
    talents: tuple[str, ...] = ()
    # The health under a revealed Secret Passage (its wording places 1 there once revealed, an attack
    # removes it); None for every other landmark.
    health: int | None = None
    # Face down: whether the position says what lies face down, its `talents` given (`[]`: none), which
    # exploring it reveals (docs/position-format.md, Landmarks). A revealed landmark always says them.
    known: bool = False
    # The faction that controls it (Source Link: "you may gain control of this landmark"); "" for none.
    faction: str = ""
    # What discarding it gains (Overload: "discard this landmark and gain its reward"); None: not given.
    reward: Reward | None = None


@dataclass(frozen=True)
class Chip:
    """Any other chip on a hex, one no rule moves: a defeated Graft spire left in place (Harbinger
    chapter 3), a revealed merc spire not yet constructed (chapter 2). game-elements: "Units cannot
    move on or through a hex that contains any other units, spires, landmarks, or other chips".
    Harbinger chapter 4's Source vein has health chips, and chapter 6's waygates, which are attacked,
    their health (``health``, 0 a destroyed waygate; None: no health, every other chip). A chip may
    hold talents: the griege toxic fumes chip's Exposure makes it a path hex to move onto, and
    ``count`` of them may lie on its hex ("A hex can contain multiple toxic fumes")."""

    id: str
    at: str
    name: str = ""
    health: int | None = None
    talents: tuple[str, ...] = ()
    count: int = 1
    # Chapter 4's Source vein: the earthscapes left in the stack on it, whose top one a strike that removes its
    # last health chip gains, its 3 health then placed again while any is left; None: not given (a notice).
    earthscapes: int | None = None
    # Chapter 4's rotten worms: its Infest #, which it deals Bydra Graam at the end of a round; None: not given.
    infest: int | None = None


@dataclass(frozen=True)
class Gate:
    """A faction's fortress gate: the hexes it touches, its health and the units stacked in it."""

    faction: str
    beside: tuple[str, ...]  # the map hexes the gate hex touches
    health: int = 10
    stack: tuple[str, ...] = ()  # unit ids, top to bottom
    # False: a deployment point, not a fortress (Harbinger chapter 1: the heirs "deploy from the
    # minaret spire"): units leave it as from a gate, but it has no health, is never attacked, and no
    # hero returns to it.
    fortress: bool = True
    # Harbinger chapter 2: the health chips in the Horizon's Wrath fortress, whose gate the heirs use, one of
    # which each unit they deploy may take ("This may exceed the unit's health stat"); None: not given.
    health_chips: int | None = None
    # Harbinger chapter 4: the Tunnel Access chips the faction's minions deploy from this turn "as if it were
    # your fortress gate", ``beside`` then the hexes beside them (chapter_rules.deploy_from_tunnels); () none.
    tunnels: tuple[str, ...] = ()
    # Harbinger chapter 2: the plank hex of the Horizon's Wrath fortress, whose gate the heirs use ("adjacent to only
    # the plank hex"), one of ``beside``: the units on it are defeated as the wave ends (the plank pulled); None: not given.
    plank: str | None = None
    # Harbinger chapter 2: where the Horizon's Wrath fortress docks as the wave ends ("reattaching to the next isle
    # clockwise") and what its 4 cannons fire along from there; None: not given.
    maneuver: Maneuver | None = None

    @property
    def node(self) -> str:
        return gate_node(self.faction)


@dataclass(frozen=True)
class Maneuver:
    """Harbinger chapter 2's Strategic Maneuver at the end of each wave: ``plank``, the plank hex of the fortress
    docked at the next isle clockwise (a cell the map does not hold yet: sky until it docks); ``cannons``, each
    of its 4 cannons' direct line from there, nearest first: the map hexes it crosses (sky left out, as
    "Sky and any other chips in this line are ignored"), a fortress gate last where the line reaches one."""

    plank: str
    cannons: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Mark:
    """A mark (a faction's, or one unit's own): exactly one of an opposing gate, a unit, or a hex; a
    faction's may be none of them (no mark: Harbinger chapter 2, "Heirs: None")."""

    gate: str | None = None  # faction whose gate is the mark
    unit: str | None = None
    hex: str | None = None
    # Any hex beside this gate or unit (a Mark with one of them): Harbinger chapter 5's Bydra Graam,
    # "Hex adjacent to the naroran fortress gate", "Hex adjacent to Nucleus".
    beside: Mark | None = None

    @property
    def written(self) -> str:
        """The mark as a position file writes it (docs/position-format.md)."""
        if self.beside is not None:
            return f"{{beside: {self.beside.written}}}"
        named = [f"{{{key}: {value}}}" for key, value in (("gate", self.gate), ("unit", self.unit), ("hex", self.hex))
                 if value is not None]
        return named[0] if named else "none"


@dataclass(frozen=True)
class Faction:
    """A faction in play: who controls it, its mark and its Source."""

    name: str
    controller: Controller
    mark: Mark
    source: int = 0
    source_capacity: int = 20  # game-elements: Source ("a default maximum capacity of 20")
    # The Graft's Motility Reservoir (the-graft.txt, Nucleus), which Motility spends; None: not given,
    # and Motility keeps its notice.
    motility: int | None = None
    # The units waiting in its barracks, off the board, that a talent may place (Spawn's larva); None:
    # not given, and such a talent keeps its notice.
    barracks: tuple[str, ...] | None = None
    # Horizon's Wrath's morale die (Captain's Cabin 1 - Morale), a counter, once acquired; None: not given,
    # and Morale keeps its notice.
    morale: int | None = None
    # Harbinger chapter 8: the minions of the current market options, off the board, which the solo player's
    # Evoke and Summon treat "as if they are available in your barracks"; None: not given, and where those
    # talents could act, the chapter's rule keeps its notice.
    market: tuple[str, ...] | None = None
    # The mark it declares once the unit it marks is defeated in the movement step, where the reading
    # defeated-mark is declare-again (docs/readings.md); None: not given, and that step keeps a notice.
    next_mark: Mark | None = None
    # The minions captured from each other faction now beside its fortress (Capture: "a maximum of 3 minions
    # captured from each faction at a time"), faction → count, an absent faction 0; None: not given, and
    # Capture's cap keeps its notice.
    captives: tuple[tuple[str, int], ...] | None = None


@dataclass(frozen=True)
class AiPriority:
    """The AI's attack priority lists, first category first (docs/combat.md, AI attack priority)."""

    units: tuple[str, ...]
    spires: tuple[str, ...]


@dataclass(frozen=True)
class Turn:
    """Whose turn it is and at which step."""

    faction: str
    step: str = "movement"
    # Whether this turn is the first of its round (Fountain: "At the start of each round"); None: not
    # said, so what acts then keeps its notice.
    first_of_round: bool | None = None
    # Whether this is its faction's first turn of the wave's Onslaught Phase (Spawn); None: not said.
    first_of_onslaught: bool | None = None
    # Whether the position stands at the start of the wave's Onslaught Phase, which comes once a wave
    # before its first turn's start (Elfin; FAQ-09: "not the start of your turn"); None: not said.
    onslaught_start: bool | None = None
    # Whether this turn is the last of its round, whose end is the round's (Harbinger chapter 4's rotten worms:
    # "at the end of a round of the Onslaught Phase"); None: not said.
    last_of_round: bool | None = None


def controlled(unit: Unit, factions: Iterable[str]) -> bool:
    """A landmark minion a faction of ``factions`` controls (Recruiter, Recruitable): the position gives it that
    faction, and it is that faction's unit, one of its minions (asp/combat/targets.lp lheld/1); not one Devoted
    made, a landmark minion friendly only to its faction (FAQ-23)."""
    return unit.kind is Kind.LANDMARK_MINION and unit.faction in factions and "Devoted" not in unit.talents


@dataclass(frozen=True)
class Position:
    """A whole position: the map, the chips and the turn (docs/position-format.md)."""

    hexes: dict[str, Hex]
    adjacency: dict[str, frozenset[str]]  # between map hexes only; gates are added by `neighbours`
    gates: dict[str, Gate]
    factions: dict[str, Faction]
    units: dict[str, Unit]
    turn: Turn
    spires: tuple[Spire, ...] = ()
    landmarks: tuple[Landmark, ...] = ()
    chips: tuple[Chip, ...] = ()  # other chips (Chip)
    # The hex groups (isles, earthscapes) as the file lists them, each a tuple of hexes; () where it
    # lists none (the loader asks for them where a rule names a hex group: Imbue: Flying)
    hex_groups: tuple[tuple[str, ...], ...] = ()
    # Harbinger chapter 6's earthscapes, each a tuple of its hexes, which its rules remove at the end of
    # a wave; None: not given (docs/position-format.md, earthscapes)
    earthscapes: tuple[tuple[str, ...], ...] | None = None
    # Harbinger chapter 3: where the top earthscape of the stack may be placed once the keel buy it after defeating a
    # Graft spire, each placement its hexes with their terrain (docs/position-format.md, earthscape-places); None:
    # not given.
    earthscape_places: tuple[tuple[Hex, ...], ...] | None = None
    # The earthscapes under the top one, the next first, each its placements as earthscape_places' (the k-th
    # purchase of a line buys the stack's k-th earthscape, 0 the top); () where not given (earthscape-stack)
    earthscape_stack: tuple[tuple[tuple[Hex, ...], ...], ...] = ()
    readings: dict[str, str] = field(default_factory=dict)
    ai_priority: AiPriority | None = None  # None: the standard lists (adjudicator/data/ai-priority.yaml)
    scenario: Scenario | None = None  # the Harbinger chapter it is played in; None: the base rules
    # The upgrade chips left in the supply, by kind ("a limited resource", harbinger-rulebook); None: not given.
    supply: dict[str, int] | None = None
    title: str = ""
    source: str = ""

    def neighbours(self, node: str) -> frozenset[str]:
        """Adjacent board nodes, fortress gates included."""
        if node.startswith("gate:"):
            return frozenset(self.gates[node[5:]].beside)
        near = set(self.adjacency.get(node, ()))
        near.update(g.node for g in self.gates.values() if node in g.beside)
        return frozenset(near)

    def hex_group(self) -> dict[str, int]:
        """Each map hex's hex group, numbered from 0, as the file lists them (none: empty)."""
        return {h: i for i, group in enumerate(self.hex_groups) for h in group}

    def mark_of(self, unit_id: str) -> Mark:
        """The unit's mark: its own, or its faction's."""
        unit = self.units[unit_id]
        return unit.mark or self.factions[unit.faction].mark

    def mark_nodes(self, faction: str, unit_id: str | None = None) -> tuple[str, ...]:
        """The nodes a faction's units count their distance to, none where it has no mark (or marks a
        unit not on the map); with ``unit_id``, that unit's own mark's."""
        mark = self.mark_of(unit_id) if unit_id is not None else self.factions[faction].mark
        if mark.beside is not None:
            return tuple(sorted(n for n in self.neighbours(self._mark_node(mark.beside) or "") if n in self.hexes))
        node = self._mark_node(mark)
        return () if node is None else (node,)

    def _mark_node(self, mark: Mark) -> str | None:
        if mark.gate is not None:
            return gate_node(mark.gate)
        if mark.unit is not None:
            return self.units[mark.unit].at
        return mark.hex

    def controlled(self, unit: Unit) -> bool:
        """A landmark minion a faction controls (``controlled``)."""
        return controlled(unit, self.factions)

    def may_oppose(self, spire: Spire, side: str) -> bool:
        """Could the spire oppose the side? Another faction's may; in Harbinger chapter 8 its own too,
        where four spires are "opposing to all factions". A superset: the encodings decide
        (asp/core/sides.lp, asp/scenarios/chapter_8.lp)."""
        return spire.faction != side or (self.scenario is not None and self.scenario.chapter == 8)

    def foe_nodes(self, side: str) -> list[str]:
        """Where the chips stand that the side's units might attack (a superset, as ``may_oppose``)."""
        foes = [u.at for u in self.units.values() if u.at and (u.faction != side or u.kind is Kind.LANDMARK_MINION)]
        foes += [s.at for s in self.spires if self.may_oppose(s, side)]
        foes += [c.at for c in self.chips if c.health]  # a standing waygate (Harbinger chapter 6)
        return foes + [g.node for g in self.gates.values() if g.faction != side]

    def placed(self, unit_id: str) -> str | None:
        """The unit's hex, its gate node while it waits in the stack, None once it has returned."""
        unit = self.units[unit_id]
        if unit.at is not None:
            return unit.at
        gate = self.gates.get(unit.faction)
        return gate.node if gate is not None and unit_id in gate.stack else None

    def in_barracks(self, unit_id: str) -> bool:
        """The unit waits in its faction's barracks, off the board (Faction.barracks)."""
        unit = self.units[unit_id]
        faction = self.factions.get(unit.faction)
        return unit.at is None and faction is not None and unit_id in (faction.barracks or ())

    def node_of(self, unit_id: str) -> str:
        """Like ``placed``, but a unit off the board counts as at its gate."""
        return self.placed(unit_id) or gate_node(self.units[unit_id].faction)
