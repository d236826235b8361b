"""The Harbinger chapters (adjudicator/data/scenarios.yaml), read once, and the rules of a chapter that
are checked on the position itself rather than by the solver (docs/position-format.md, scenario)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from adjudicator.position.data import shipped
from adjudicator.position.talents import BOARD_STEPS

KINDS = ("set-up", "scenario", "ai", "mark", "event", "loss")
OFF_BOARD_STEPS = ("set-up", "event-phase", "prep", "build", "market", "objectives")
ACTS = BOARD_STEPS + OFF_BOARD_STEPS
STATUSES = ("encoded", "core", "stated", "outside", "not-modelled")
# The statuses under which an answer does not take the rule into account.
UNMODELLED = ("not-modelled",)
DIE_FACES = (1, 2, 3, 4, 5, 6)
MAX_EVENT_ROLLS = 8  # chapter 2 rolls once per Graft unit returned
MAX_HEROES_CHAPTER_1 = 3  # chapter 1: "You may have up to 3 heroes in play at a time"


@dataclass(frozen=True)
class When:
    """What must be in play for a chapter rule to change an answer (scenarios.yaml, `when`). Every
    field given must hold; each holds when any of its names is found, except `units`,
    which needs a unit of each faction it lists. In play: on the board or waiting in a fortress gate. A rule with
    no `when` can act on any board of its chapter."""

    chips: tuple[str, ...] = ()  # a unit whose chip is one of these (as printed, any case)
    spires: tuple[str, ...] = ()  # a spire whose chip is one of these
    talents: tuple[str, ...] = ()  # a unit or spire holding one of these talents
    units: tuple[str, ...] = ()  # each of these factions has a unit in play
    heroes: tuple[str, ...] = ()  # a hero of one of these factions
    minions: tuple[str, ...] = ()  # a minion of one of these factions
    promoted: tuple[str, ...] = ()  # a minion of one of these factions on its promoted side (the keel's demotion)
    spires_of: tuple[str, ...] = ()  # a spire of one of these factions
    turn: tuple[str, ...] = ()  # it is one of these factions' turn
    waiting: tuple[str, ...] = ()  # a unit of one of these factions waits in its gate, to deploy
    talented: tuple[str, ...] = ()  # a unit of one of these factions (or landmark-minions) holds a talent
    # A basic minion of one of these could end its move beside a Source well: one lies within its
    # movement plus 1 hexes, counted as range is (faction-rules.yaml: the shada's fusions).
    beside_wells: tuple[str, ...] = ()
    pairs: tuple[str, ...] = ()  # two basic minions of one of these factions are in play (the shada's fusions)
    others: tuple[str, ...] = ()  # another chip (chips:) named so (chapter 4's rotten worms)
    # (a unit's chip, another chip's name): a unit so printed may stand beside another chip so named by the end of
    # the steps asked: beside it now, or, where they play its faction's movement, within the reach of its moves
    # over the step plus 1 (fields.step_radii); a unit others may displace, one hex further (chapter 4's Bydra Graam)
    near_other: tuple[str, ...] = ()


WHEN_FIELDS = tuple(When.__dataclass_fields__)
LANDMARK_MINIONS = "landmark-minions"  # in `talented`: any landmark minion, no faction's


@dataclass(frozen=True)
class MarkOptions:
    """A chapter's mark with alternatives ("Source vein OR griege fortress gate"), or one a chip names
    ("Keel: Nucleus"): what the position's mark of each of ``factions`` may be (scenarios.yaml, `marks`;
    the loader checks it while one of them is in play)."""

    factions: tuple[str, ...]
    gates: tuple[str, ...] = ()  # the fortress gate of one of these factions, standing
    units: tuple[str, ...] = ()  # a unit whose chip is printed so (chapter_rules.chip_name)
    chips: tuple[str, ...] = ()  # the hex of another chip printed so (chips:)


CLOSEST_TIERS = ("spires", "heroes", "units", "graft-heroes")  # or gate:<faction>


@dataclass(frozen=True)
class ClosestMark:
    """A chapter's mark of one's own that picks the closest of something ("Nucleus: Closest opposing unit"):
    the units holding it (``chip``, a chip printed so; or ``faction``'s units of ``kind``), and the tiers of
    chips it picks from, the first in play giving it (scenarios.yaml, `closest`; CLOSEST_TIERS: the opposing
    spires, heroes or units, the Graft's heroes, or gate:<faction>, that fortress gate)."""

    tiers: tuple[str, ...]
    chip: str | None = None
    faction: str | None = None
    kind: str | None = None


@dataclass(frozen=True)
class ScenarioRule:
    """One rule of a Harbinger chapter (adjudicator/data/scenarios.yaml), and whether it is modelled."""

    id: str
    kind: str
    text: str  # verbatim from the chapter
    acts: tuple[str, ...]
    status: str
    faces: tuple[int, ...] = ()  # an event rule's die results
    encoding: str | None = None
    positions: tuple[str, ...] = ()
    note: str = ""
    gate_mark: tuple[tuple[str, ...], str] | None = None  # (factions, the gate that is their mark)
    marks: MarkOptions | None = None  # what their mark may be, where the text gives alternatives or names a chip
    closest: ClosestMark | None = None  # the units whose own mark it is, and what it picks the closest of
    when: When | None = None  # what must be in play for it to change an answer
    counted_by: tuple[str, ...] = ()  # commands whose answers count the rule (moves: dice rolled), or cannot depend on it

    def in_force(self, event: tuple[int, ...] | None) -> bool:
        """Whether the rule can hold under the event rolled: unknown (None) means any face could."""
        return self.kind != "event" or event is None or bool(set(self.faces) & set(event))


@dataclass(frozen=True)
class Chapter:
    """A Harbinger chapter: its factions, waves and rules (adjudicator/data/scenarios.yaml)."""

    chapter: int
    title: str
    waves: int
    player: str  # the solo player's faction id
    opponents: tuple[str, ...]  # as printed
    factions: dict[str, str]  # faction id a position uses → the name printed
    event_die: bool
    rules: tuple[ScenarioRule, ...]
    # A faction's Prep Phase line by wave, as printed ("" where the wave's names none of its units): only
    # those an encoding reads (the grovetenders' in chapter 7: Evoke's and Summon's AI wording)
    prep: dict[str, dict[int, str]] = field(default_factory=dict)

    @property
    def marks(self) -> tuple[str, ...]:
        return tuple(r.text for r in self.rules if r.kind == "mark")

    def rule(self, rule_id: str) -> ScenarioRule:
        return next(r for r in self.rules if r.id == rule_id)


def read_when(entry: dict, where: str) -> When | None:
    """An entry's `when` (scenarios.yaml, faction-rules.yaml), its fields checked; ``where`` names the
    entry in the error."""
    when = entry.get("when") or {}
    if set(when) - set(WHEN_FIELDS):
        raise ValueError(f"{where}: when: expected fields of {WHEN_FIELDS}")
    return When(**{k: tuple(v) for k, v in when.items()}) if when else None


def _rule(entry: dict) -> ScenarioRule:
    rule = ScenarioRule(
        id=entry["id"], kind=entry["kind"], text=entry["text"], acts=tuple(entry["acts"]), status=entry["status"],
        faces=tuple(entry.get("faces") or ()), encoding=entry.get("encoding"),
        positions=tuple(entry.get("positions") or ()), note=entry.get("note") or "",
        gate_mark=(tuple(entry["gate_mark"]["factions"]), entry["gate_mark"]["gate"]) if "gate_mark" in entry else None,
        marks=MarkOptions(**{k: tuple(v) for k, v in entry["marks"].items()}) if "marks" in entry else None,
        closest=ClosestMark(**{k: tuple(v) if k == "tiers" else v for k, v in entry["closest"].items()})
        if "closest" in entry else None,
        when=read_when(entry, f"adjudicator/data/scenarios.yaml: rule {entry['id']}"),
        counted_by=tuple(entry.get("counted_by") or ()),
    )
    if rule.kind not in KINDS or rule.status not in STATUSES or not set(rule.acts) <= set(ACTS) or not rule.acts:
        raise ValueError(f"adjudicator/data/scenarios.yaml: rule {rule.id}: bad kind, status or acts")
    return rule


@cache
def chapters() -> dict[int, Chapter]:
    """Every chapter, by number."""
    found: dict[int, Chapter] = {}
    for entry in shipped("scenarios.yaml")["chapters"]:
        chapter = Chapter(
            chapter=entry["chapter"], title=entry["title"], waves=entry["waves"], player=entry["player"],
            opponents=tuple(entry["opponents"]), factions=dict(entry["factions"]),
            event_die=bool(entry["event_die"]), rules=tuple(_rule(r) for r in entry["rules"]),
            prep={f: {int(w): str(line) for w, line in waves.items()} for f, waves in (entry.get("prep") or {}).items()},
        )
        if any(set(waves) != set(range(1, chapter.waves + 1)) or f not in chapter.factions
               for f, waves in chapter.prep.items()):
            raise ValueError(f"adjudicator/data/scenarios.yaml: chapter {chapter.chapter}: prep needs each wave of a faction's")
        found[chapter.chapter] = chapter
    return found


@dataclass(frozen=True)
class Scenario:
    """The chapter a position is played in, its wave, and the event die result in force."""

    chapter: int
    wave: int | None = None  # None: not given
    event: tuple[int, ...] | None = None  # die results rolled this wave; None: not given

    @property
    def book(self) -> Chapter:
        return chapters()[self.chapter]

    def stated(self, faction: str) -> tuple[str, ...] | None:
        """The printed names, lower case, of the units this wave's Prep Phase line names for ``faction``,
        in its order (a bracketed group's chips top first), its marks ("[", "]", "*") dropped; None where
        the position gives no wave or the chapter's lines of that faction are not read (scenarios.yaml, prep)."""
        lines = self.book.prep.get(faction)
        if self.wave is None or lines is None:
            return None
        names = (n.strip(" []*").lower() for n in lines[self.wave].split(","))
        return tuple(n for n in names if n)
