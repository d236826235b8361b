"""Which talents an answer depends on but the adjudicator does not model (the "notices").

Worked out cautiously, never more narrowly than the rules allow: every chip on the board or waiting
in a gate takes part (a blocker's, a target's or a bystander's talent can change a unit's options),
and a talent counts for every step the catalogue says it acts in. A talent that does not trigger for
AI units is left out on AI chips; one acting only in prep, build or market never counts. A position
naming a Harbinger chapter adds that chapter's rules that are not modelled and act in a step of the
question (adjudicator/data/scenarios.yaml), those of an event die face other than the one in force left out.
A faction's own rules, from its reference sheet, count likewise (adjudicator/data/faction-rules.yaml).
A landmark's talents, which no encoding reads, count in every board step they act in; face down, only
where a unit explores (docs/position-format.md, Landmarks).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any
from functools import cache

from adjudicator.answers.notices import Notice
from adjudicator.facts import fields
from adjudicator.facts.fields import range_counts
from adjudicator.position.chapter_rules import (
    EARTHSCAPES_CHAPTER, HEALTH_CHIPS_CHAPTER, HORIZONS_WRATH, MARKET_CHAPTER, NARORA, ROTTEN_WORMS, SOURCE_VEIN, UPRISING, WAYGATE,
    GRAFT, PURCHASE_CHAPTER, SNARE_CHAPTER, chip_name,
    rock_rollers, snare_reach, tunnels,
)
from adjudicator.position.faction_rules import FactionRule, faction_rules
from adjudicator.position.model import FUSIONS, KEEL, SHADA, Controller, Kind, Position, Unit
from adjudicator.position.scenarios import LANDMARK_MINIONS, UNMODELLED, ScenarioRule, When
from adjudicator.position.talents import (
    BOARD_STEPS, MODELLED, NO_EFFECT, NOT_MODELLED, PARTLY, WAVE_END, catalogue, harmed, on_map, tracked,
)
from adjudicator.questions import still
from adjudicator.questions.whole_solve import DISPLACEABLE
from adjudicator.questions.steps import EVENTS, STEPS
from adjudicator.solving.solve import encoding_dir

# The steps of a turn each question's answer depends on, by the question's mode (questions/steps.py).
QUESTION_STEPS = {s.mode: s.acts for s in STEPS if s.place}
# Commands whose answers count some chapter rules themselves, or cannot depend on them (scenarios.yaml,
# counted_by, as in faction-rules.yaml): `moves` gives each outcome's dice with their odds; `check`
# judges a claimed move, which chance never overturns; `movement-step` and `turn` play each result of
# the dice out, with its probability. Neither `moves` nor `check` depends on what follows a move
# (the keel's promotion).
MOVES, CHECK, STEP, TURN, ATTACKS = "moves", "check", "movement-step", "turn", "attacks"
ATTACK_STEP = "attack-step"  # the whole attack (or quick strike) step: chapter 3's earthscape bought is played there
# The steps in which a hero in campfire mode, "inactive" (game-elements, Campfire Mode), uses no talent: the
# combat encoding reads none of its talents there. As units move, and at the end of the wave, which ends
# campfire mode, its talents' notices stand.
INACTIVE_STEPS = ("start-of-turn", "quick-strike", "spires-fire", "exploration", "attack", "end-of-turn", "defeat")


def _carriers(position: Position, ai: bool | None) -> list[tuple[str, bool, tuple[str, ...]]]:
    """(chip label, on an AI chip, its talents) for every chip of the position."""
    def is_ai(faction: str | None) -> bool:
        if faction is None:  # a landmark minion: no side; the player wording is the cautious one
            return False
        if ai is not None and faction == position.turn.faction:
            return ai
        return position.factions[faction].controller is Controller.AI

    chips = []
    for uid, unit in sorted(position.units.items()):
        faction = unit.faction if unit.faction in position.factions else None
        chips.append((uid, is_ai(faction), unit.talents))
        for grouped in unit.group:
            chips.append((f"{uid}/{grouped.chip}", is_ai(faction), grouped.talents))
    for spire in position.spires:
        chips.append((spire.id, is_ai(spire.faction), spire.talents))
    for chip in position.chips:  # an other chip has no side: the player wording, the cautious one
        if chip.talents:
            chips.append((chip.id, False, chip.talents))
    return chips


def _at_one(label: str, position: Position, ones: frozenset[str] | None) -> bool:
    """Whether the health of the chip ``label`` (a unit, a chip of its group: ``unit/chip``, a spire, another
    chip) may be reduced to exactly 1 as units move in the answer (notices_in, ``ones``)."""
    uid = label.split("/")[0]
    return ones is None or uid not in position.units or uid in ones


def _asks_combat(position: Position, ai: bool | None) -> bool:
    faction = position.turn.faction
    wanted = position.factions[faction].controller is Controller.AI if ai is None else ai
    units = tuple(uid for uid, u in position.units.items() if u.faction == faction)
    return wanted and still.depends_on_combat(position, units, frozenset({faction}))


def notices(
    position: Position, question: str, ai: bool | None = None, answer: str = "", defeats: bool = False,
    ones: frozenset[str] | None = None,
) -> tuple[Notice, ...]:
    """The unmodelled talents the answer to ``question`` (a key of QUESTION_STEPS) may depend on;
    ``ai`` as the questions take it (True: the faction whose turn it is plays as the AI); ``answer``,
    the command answering it, which may count a chapter's rule itself (scenarios.yaml, counted_by);
    ``defeats``: some outcome of a movement answer defeats a chip (damage taken or dealt as units
    move), so what acts on a defeat, or at the end of the wave it may bring, counts too; ``ones``: as
    for ``notices_in``."""
    # A move that an attack may hold still (Rooted, Survival, AI) asks the combat encoding: what that
    # leaves out counts too, but not those talents' own unmodelled attack halves.
    combat = question == "movement" and _asks_combat(position, ai)
    asked = QUESTION_STEPS[question]
    return notices_in(position, asked + tuple(s for s in EVENTS if defeats and s not in asked), ai, combat, answer,
                      moved_defeat=defeats and question == "movement", ones=ones)


# Chapter rules that act on the defeat of a spire of one faction only, by their notice's rule: chapter 3's
# "After defeating a Graft spire, you may immediately spend 3 Source to purchase the top earthscape".
EARTHSCAPE_RULE = "chapter 3: earthscape-after-defeat"
SPIRE_DEFEAT_RULES = {EARTHSCAPE_RULE: "graft"}


def as_happened(
    found: tuple[Notice, ...], defeats: bool, wave_ends: bool, fallen: frozenset[str] | None = None
) -> tuple[Notice, ...]:
    """``found`` once every outcome of a combat answer is known: a talent or chapter rule that acts
    only when a chip is defeated, or only when the wave ends (EVENTS), changes nothing where no outcome
    has that happen. Sound: whatever else could bring a defeat or the wave's end about acts in the
    step itself, so it is either modelled, and in the outcomes, or keeps its own notice. ``fallen``: the
    factions a spire of which some outcome defeats, where the outcomes show every spire's defeat (None:
    not known); a rule acting on the defeat of a spire of one faction (SPIRE_DEFEAT_RULES) then counts
    only where one of that faction's fell."""
    happened = {"defeat": defeats, "end-of-wave": wave_ends}

    def acts(n: Notice) -> bool:
        if n.rule in SPIRE_DEFEAT_RULES and fallen is not None:
            return SPIRE_DEFEAT_RULES[n.rule] in fallen
        return any(happened[s] for s in n.steps)

    return tuple(n for n in found if not set(n.steps) <= set(EVENTS) or acts(n))


# Chapter 3's earthscape-after-defeat: "you may immediately spend 3 Source to purchase the top earthscape": the keel,
# the solo player, can buy one only with 3 Source once the defeat's rewards are in.
EARTHSCAPE_CHAPTER, EARTHSCAPE_PRICE = 3, 3


def spire_factions(
    position: Position, chips: Iterable[str], source: Iterable[tuple[str, int]] | None = None
) -> frozenset[str]:
    """The factions of the spires of ``position`` among ``chips`` (as_happened's ``fallen``). With ``source``, the
    chips are one outcome's and ``source`` its factions whose Source it changed, with their new amounts: in chapter
    3 a Graft spire fallen where the keel is left with less than 3 Source counts for no faction, as no earthscape
    can be bought there (SPIRE_DEFEAT_RULES: chapter 3's earthscape-after-defeat, the one rule reading it)."""
    owners = {s.id: s.faction for s in position.spires}
    fallen = frozenset(owners[c] for c in chips if c in owners)
    scenario = position.scenario
    if source is None or scenario is None or scenario.chapter != EARTHSCAPE_CHAPTER or _purse_may_shrink(position):
        return fallen
    buyer = scenario.book.player
    left = dict(source).get(buyer, position.factions[buyer].source if buyer in position.factions else 0)
    return fallen - {SPIRE_DEFEAT_RULES[EARTHSCAPE_RULE]} if left < EARTHSCAPE_PRICE else fallen


# The hooks by which a faction may lose Source during a step or turn (asp/core/hooks.lp): where a chip in play holds one,
# an outcome's Source at its end may be less than it was as a spire fell.
SOURCE_LOSSES = frozenset({"pays/3", "steals/3", "may_cancel/3", "charge/4", "spends/4", "robs/5", "swindles/4"})


def _purse_may_shrink(position: Position) -> bool:
    names = {t for _, _, talents in _carriers(position, None) for t in talents}
    names |= {t for lm in position.landmarks if lm.revealed for t in lm.talents}
    return any(set(t.hooks) & SOURCE_LOSSES for t in catalogue().known(names))


def fallen_spires(position: Position, outcomes: Iterable[tuple[Iterable[str], Iterable[tuple[str, int]]]]) -> frozenset[str]:
    """spire_factions over outcomes, each its defeated chips and its Source changes."""
    return frozenset().union(*(spire_factions(position, chips, source) for chips, source in outcomes))


def notices_in(
    position: Position, asked: tuple[str, ...], ai: bool | None = None, combat: bool = False, answer: str = "",
    moved_defeat: bool = False, ones: frozenset[str] | None = None,
) -> tuple[Notice, ...]:
    """The unmodelled talents an answer covering the steps ``asked`` may depend on; ``combat``: the
    answer asked the combat encoding too; ``answer``: as for ``notices``; ``moved_defeat``: a chip is
    defeated as units move, where no talent acting on a defeat is played (they are encoded in the
    combat steps only: asp/combat/), so each such talent on the board counts, modelled or not;
    ``ones``: the units whose health some outcome of the answer may reduce to exactly 1 as units move
    (adjudicate.ones_in; None: not known, so every one's may), the only ones whose talents' ``harmed`` parts
    count; a spire's, a landmark's and another chip's always count."""
    found: dict[tuple[str, str, tuple[str, ...], str], list[str]] = defaultdict(list)
    carriers = _carriers(position, ai)
    # A part left out that needs another talent to act (its `when`) counts only where one is in play;
    # one that needs a counter the position does not give (its `untracked`), only where it does not.
    present = frozenset(name for _, _, talents in carriers for name in talents) | _counters(position) \
        | frozenset(name for lm in position.landmarks if lm.revealed for name in lm.talents) \
        | frozenset(on_map(name) for u in position.units.values() if u.at is not None for name in u.talents) \
        | frozenset(harmed(name) for label, _, talents in carriers if _at_one(label, position, ones) for name in talents) \
        | frozenset(harmed(name) for lm in position.landmarks if lm.revealed for name in lm.talents)
    with_combat = asked + QUESTION_STEPS["attack"] if combat else asked
    campfired = {uid for uid, u in position.units.items() if u.campfire}
    for label, on_ai, talents in carriers:
        for name in talents:
            talent = catalogue().get(name)
            steps = with_combat if name not in still.HOLDING else asked
            if label.split("/")[0] in campfired:  # no talent of its acts in those steps (combat/state.lp, tal/3)
                steps = tuple(s for s in steps if s not in INACTIVE_STEPS)
            left = tuple(s for s in talent.unmodelled_steps(on_ai, present, answer) if s in steps)
            parts = "; ".join(p.text for p in talent.parts_left(on_ai, present, answer) if set(p.steps) & set(left))
            parts = parts or talent.cannot  # what no encoding can take into account, as no text gives it
            status = talent.status(on_ai)
            if moved_defeat and "defeat" in talent.steps and "defeat" not in left and status != NO_EFFECT \
                    and "defeat" in steps:
                left, status = (*left, "defeat"), PARTLY if status == MODELLED else status
                parts = "; ".join(filter(None, (parts, DEFEAT_WHILE_MOVING)))
            if left:
                found[(name, status, left, parts)].append(label)
    explores = _explores(position, ai)
    for landmark, name, left in _landmark_talents(position, with_combat, present, answer, explores):
        talent = catalogue().get(name)
        if talent.on_landmarks:  # its encoding reads it there: what it leaves out, as on the turn's side's chip
            parts = "; ".join(p.text for p in talent.parts_left(not explores, present, answer) if set(p.steps) & set(left))
            found[(name, talent.status(not explores), left, parts)].append(landmark)
            continue
        why = ON_A_LANDMARK if talent.encoding else ""
        found[(name, NOT_MODELLED, left, why)].append(landmark)
    talents = sorted(
        Notice(name, status, steps, tuple(chips), out) for (name, status, steps, out), chips in found.items()
    )
    return (*talents, *_scenario_notices(position, asked, answer), *rock_event_notices(position, asked, answer),
            *waygate_notices(position, asked), *earthscape_notices(position, asked), *market_notices(position, asked),
            *vein_notices(position, asked, answer), *worms_notices(position, asked), *health_chip_notices(position, asked), *snare_notices(position, asked, answer), *plank_notices(position, asked), *maneuver_notices(position, asked), *purchase_notices(position, asked, answer), *tunnel_notices(position, asked),
            *_faction_notices(position, asked, answer), *hold_notices(position, asked),
            *unseen_sides(position, asked))


# A unit a step flipped this turn whose new side the position does not give (board_after.turn, Unit.unseen).
TWO_SIDES = "game-elements: Leveling Up"
TWO_SIDES_TEXT = ("Leveling up improves your units stats and/or talents. There are two types of level ups. The first "
                  "is promotion. A unit is promoted by flipping it from its basic side to its promoted side")
_UNSEEN = {"talents": "its talents (other-talents)", "stats": "its stats (promoted-stats)"}


def turned_notices(start: Position, now: Position, question: str, answer: str = "") -> tuple[Notice, ...]:
    """What ``question`` asked of ``now`` leaves out on the units whose talents a flip since ``start`` changed
    (board_after.turn: the side `other-talents` gives), and the flips whose side is not given (unseen_sides):
    a question answered from ``start``'s notices would miss them."""
    # A talent an act used up leaves the talents for the used ones: no flip.
    changed = {uid for uid, u in now.units.items() if uid in start.units
               and {*u.talents, *u.used} != {*start.units[uid].talents, *start.units[uid].used}}
    gained = tuple(n for n in notices(now, question, None, answer) if set(n.chips) & changed) if changed else ()
    return (*gained, *unseen_sides(now, QUESTION_STEPS[question]))


def unseen_sides(position: Position, asked: tuple[str, ...]) -> tuple[Notice, ...]:
    """The units in play that an earlier step of the turn (or an act before the move) flipped to a side the
    position does not give (Unit.unseen: Consume, Yrtel's Way, the keel's promotion, a level-up, Rally,
    Dodge, Dispirit, Pistoleer, Summon's summoned chip), or whose group holds a chip so flipped as it was
    grouped (GroupedChip.unseen: Summon's taproot), which shows once the chips above it fall: the steps
    asked read the side each showed before, and say so. One notice per unit, naming it and what is not
    given, in the steps asked that are turn steps."""
    steps = tuple(s for s in asked if s not in EVENTS) or asked

    def unseen(uid: str, unit: Unit) -> str:
        own = f"the side {uid} was flipped to this turn, {_given(unit.unseen)}" if unit.unseen else ""
        grouped = "; ".join(f"the side {g.chip} beneath {uid} was flipped to as it was grouped this turn, "
                            f"{_given(g.unseen)}" for g in unit.group if g.unseen)
        return "; ".join(t for t in (own, grouped) if t) + ": what follows reads the side it showed before"

    return tuple(
        Notice("", PARTLY, steps, (uid,), unseen(uid, unit), TWO_SIDES, TWO_SIDES_TEXT)
        for uid, unit in sorted(position.units.items())
        if (unit.unseen or any(g.unseen for g in unit.group)) and position.placed(uid) is not None)


def _given(unseen: tuple[str, ...]) -> str:
    return f"{' and '.join(_UNSEEN[w] for w in unseen)} not given by the position"


# The rule an exploration leaves out where the position does not say what lies face down.
UNKNOWN_LANDMARK = ("what a face-down landmark a unit reveals is, and so what it does: the position does not "
                    "give its talents (game-elements, Landmarks: \"Ensure you read the landmark's talents when "
                    "exploring, as some will have talents triggered by exploration\")")


def unknown_landmarks(position: Position, revealed: set[str]) -> tuple[Notice, ...]:
    """A notice naming the landmarks among ``revealed`` (revealed in some outcome of the exploration
    step) whose talents the position does not give: what each does then is not taken into account."""
    hidden = tuple(sorted(m.id for m in position.landmarks if m.id in revealed and not m.known))
    if not hidden:
        return ()
    return (Notice("", NOT_MODELLED, ("exploration",), hidden, rule="exploration: " + ", ".join(hidden),
                   text=UNKNOWN_LANDMARK),)


# Why a landmark's talent keeps its notice where the catalogue calls the talent modelled (or partly).
ON_A_LANDMARK = ("on a landmark that is no unit: the encodings read the talents of units, spires and other chips "
                 "only (a revealed landmark minion is given as a unit of kind landmark-minion)")


def _explores(position: Position, ai: bool | None) -> bool:
    """Whether the faction whose turn it is explores: not as the AI ("AI units do not explore landmarks")."""
    if ai is not None:
        return not ai
    return position.factions[position.turn.faction].controller is not Controller.AI


def _landmark_talents(
    position: Position, asked: tuple[str, ...], present: frozenset[str], answer: str, explores: bool = True
) -> list[tuple[str, str, tuple[str, ...]]]:
    """(landmark id, talent, the steps asked it may act in) for each talent of a landmark in
    ``position``. An encoding reads a revealed landmark's talent only where the catalogue says so
    (on_landmarks: Fountain), which counts in the steps it leaves out (``present`` and ``answer`` as
    Talent.unmodelled_steps takes them); every other counts in every board step its catalogue entry
    names; a landmark has no side, so the player wording, the cautious one, save where its encoding
    reads it: there the side whose turn it is, whose units use it (Summon Hero's hero). Face down, only where a
    unit explores: game-elements, "Unrevealed landmarks are not considered units, and can only be
    interacted with by exploring"; and only where the faction explores (``explores``: ai-rules.md, "AI
    units do not explore landmarks")."""
    found = []
    for landmark in position.landmarks:
        for name in landmark.talents:
            talent = catalogue().get(name)
            acts = () if talent.outside else BOARD_STEPS if landmark.revealed else ("exploration",) * explores
            steps = talent.unmodelled_steps(not explores, present, answer) if talent.on_landmarks else talent.steps
            left = tuple(s for s in steps if s in acts and s in asked)
            if left:
                found.append((landmark.id, name, left))
    return found


# What a talent acting on a defeat leaves out where a chip falls as units move (notices_in, moved_defeat).
DEFEAT_WHILE_MOVING = "what it does on a defeat as units move (played in the attack steps, Quick Strike and Spires Fire only)"


def _counters(position: Position) -> frozenset[str]:
    """The counters the position gives that an encoding reads, as ``Part.acts`` takes them."""
    known = {tracked("motility")} if still.reservoir_known(position) else set()
    if all(s.capacity is not None for s in position.spires if "Inferno" in s.talents):  # "if able" (Inferno)
        known.add(tracked("spire-capacity"))
    if "grey-cross-shield" in position.readings:  # the icon's kind, set by a reader who knows it (Bulwark)
        known.add(tracked("grey-cross-shield"))
    if position.hex_groups:  # the hex groups (Voidsoul's count as a keel spire on its own)
        known.add(tracked("hex-groups"))
    if position.supply is not None:  # the upgrade chips left (Inferno's "if able")
        known.add(tracked("upgrade-supply"))
    if "inferno-upgrade" in position.readings:  # the icon's kind, set by a reader who knows it (Inferno)
        known.add(tracked("inferno-upgrade"))
    if position.readings.get("bio-indefinite-discard", "discarded") == "discarded":  # a discard is no defeat
        known.add(tracked("bio-indefinite-discard"))
    if position.scenario is not None and position.scenario.wave is not None:  # whether it is the last (Colony)
        known.add(tracked("last-wave"))
    if not any(h.rock for h in position.hexes.values()):  # no floating rock to roll dice over (Roost's rider)
        known.add(tracked("rockless"))
    if position.turn.first_of_round is not None:  # whether the turn starts its round (Fountain)
        known.add(tracked("round"))
    if position.turn.first_of_onslaught is not None:  # its faction's first of the Onslaught Phase (Spawn)
        known.add(tracked("onslaught"))
    if position.turn.onslaught_start is not None:  # whether it stands at the phase's start (Elfin)
        known.add(tracked("phase-start"))
    if position.factions[position.turn.faction].barracks is not None:  # what waits in them (Spawn's larva)
        known.add(tracked("barracks"))
    # The morale die of every faction whose unit holds a talent that reads it (Morale).
    readers = {u.faction for u in position.units.values()
               if any(p.untracked == "morale" for t in catalogue().known(u.talents) for p in t.left_out)}
    if all(position.factions[f].morale is not None for f in readers if f in position.factions):
        known.add(tracked("morale"))
    # The captives held by every faction whose unit holds Capture (its cap of 3 from each faction).
    takers = {u.faction for u in position.units.values() if any("Capture" in c for c in (u.talents, *(g.talents for g in u.group)))}
    if all(position.factions[f].captives is not None for f in takers if f in position.factions):
        known.add(tracked("captives"))
    # What waits in the barracks of every faction with a spire in play (Powerhouse's rotten worms).
    if all(position.factions[s.faction].barracks is not None for s in position.spires if s.faction in position.factions):
        known.add(tracked("spire-barracks"))
    if all(f.barracks is not None for f in position.factions.values()):  # every faction's (Elfin's elfinkaze)
        known.add(tracked("every-barracks"))
    # Harbinger chapter 6's waygates, none of whose faction's units waits to deploy (Unstable): the
    # position's gate holds those units on no waygate in particular.
    uprising = position.gates.get("uprising")
    if position.scenario is not None and position.scenario.chapter == 6 and not (uprising and uprising.stack):
        known.add(tracked("waygates"))
    return frozenset(known)


# What a flip shows that the position cannot give, by the talent that flips the unit (sideless/2's Why).
_UNSEEN_SIDE = {
    "dodge": ("Dodge", "the talents of the basic side a promoted unit flips to (the position gives its promoted "
                       "side's): later attacks in the step that could reach it read those"),
    "pistoleer": ("Pistoleer", "the talents of the side the unit flips to, and the stats of a promoted side the "
                               "position does not give (a minion's, a hero's without promoted-stats): its "
                               "level-up and later attacks in the step read the side given"),
    "rally": ("Rally", "the stats of the promoted side of a minion the position gives no promoted-stats for, or of a "
                       "group's revealed chip: its health once promoted, and what follows in the step, read the side given"),
    "invigorate": ("Invigorate", "the stats of the promoted side of the chip a group revealed, which the position "
                                 "does not give, or of a minion it gives no promoted-stats for: its health once "
                                 "promoted, and what follows in the step, read the side given"),
    "detonate-many": ("Detonate", "two or more blasts reaching one chip at once: only the first (by the name of the "
                                  "unit that fell) is dealt"),
    "detonate-revealed": ("Detonate", "the blast on the chip a group shows once its top chip fell earlier in the "
                                      "exchange: not dealt"),
    "detonate-spire": ("Detonate", "the blast on a spire another chip hit or changed in the same exchange: not dealt"),
    "detonate-chain": ("Detonate", "the blast of a unit with it that another blast defeats: not dealt (one blast "
                                   "deep)"),
    "embolden": ("Embolden", "the move and attack that the chip a group reveals makes at once when the chip above it "
                             "with Embolden is defeated (\"This does not count as the newly revealed unit's movement "
                             "or attack for the turn\"): not played; what follows in the step reads the board without "
                             "them"),
    "dispirit": ("Dispirit", "the stats of the basic side of a promoted minion the position gives no promoted-stats for: "
                             "its health once demoted, and what follows in the step, read the side given"),
    "dodge-stats": ("Dodge", "the stats of the basic side a unit promoted in the position without promoted-stats "
                             "flips to: what follows reads its stats, which are its promoted side's"),
    "moving": ("Eager", "the damage of two or more chips that hurt a unit its swap moves: dealt as one hit, by the "
                        "first of them (whom a defeat is credited to, and what holds or spares each hit, read that one)"),
    "source": ("Source", "two or more factions stealing from one that has too little for all of them at once: "
                         "the answer has them take in the order of their names"),
    "prophesy": ("Prophesy", "two or more factions stealing from one that has too little for all of them at once: "
                             "the answer has them take in the order of their names"),
    "poison-star": ("Poison", "an attack of a unit whose attack stat is * on a spire or a fortress gate: its wording "
                              "halves a unit's health only, and the answer deals that chip its attack upgrades"),
    "poison-dull": ("Poison", "a unit whose attack stat is * while its Poison is not in use (waiting in its gate, its "
                              "talents ignored): the answer has it neither attack nor retaliate"),
    "translocate-arrow": ("Translocate", "the arrow of a spire with Translocate and Directional Attack both (no chip "
                                         "prints them together) as it swaps: only the other spire's is pointed anew; "
                                         "the end keeps the hex its own arrow named"),
    "wallop": ("Wallop", "the talents of the side the spire flips to: what follows (the spires that fire after "
                         "it, the rest of the turn) reads the side given"),
    "refresh-turn": ("Refresh", "the recovery of a unit an attack's swap or a teleport moves beside it that moved or was "
                                "displaced earlier this turn, which may have had it then (once per unit per turn): not dealt"),
    "refresh-many": ("Refresh", "the recovery of a unit an attack's swap or a teleport moves beside two spires with it "
                                "(once per unit per turn: once each, or once in all?): not dealt"),
    "wallop-moving": ("Wallop", "the damage of two or more chips that hurt a unit its teleport moves: dealt as one "
                                "hit, by the first of them (whom a defeat is credited to, and what holds or spares "
                                "each hit, read that one)"),
    "awaken-others": ("Awaken", "the other landmarks it reveals (\"all non-anomaly landmarks\"): no text says which "
                                "landmarks are anomalies, so none is revealed in the answer"),
    "infest-grouped": ("Infest", "a unit with it that has chips beneath it (\"Leaves group if grouped\"): its "
                                 "leaving the group, the chip it reveals and its infesting are not played"),
    "infested-host-gone": ("Infested", "a minion Infest placed a unit under that leaves play in the same step (\"After "
                                       "this unit is removed from this stack, The Graft unit under it is returned to The "
                                       "Graft barracks on its basic side\"): not played"),
    "entropy-order": ("Entropy", "a hit of the same moment on the unit after one left it at 1 (Spike, a gate's "
                                 "retaliation), or late harm that leaves it at 1 (Detonate's blast): what \"defeats "
                                 "itself immediately\" then does is not played"),
    "entropy-many": ("Entropy", "a unit its 2 damage reaches that another late harm of the same moment reaches too "
                                "(Detonate, a second Entropy): only one is dealt"),
    "cumbersome-hex": ("Cumbersome", "the item placed on the hero's hex as it takes damage, a chip there: the "
                                     "boards after hold none, so a later teleport of the step and the later steps "
                                     "of the turn (moves through that hex, a Source Well it covers) do not meet it"),
    "explosion-both": ("Explosion", "two units an Eager swap moves beside the chip at once: which of them sets it "
                                    "off before it is discarded is not read; each rolls"),
    "explosion-hex": ("Explosion", "the hex of a chip that went off, free again, where a later Wallop of the step "
                                   "could teleport a unit: it is still counted held"),
    "prowl-stuck": ("Prowl", "a prowler that has no open line of 2 hexes to move along at the start of the round (it "
                             "\"must move\"), standing beside a fortress gate: whether it attacks the gate, not ending a "
                             "movement there; the answer has it stay and not attack"),
    "prowl-gate-falls": ("Prowl", "a fortress gate its attack defeats: pillaging by a unit of no faction; the answer "
                                  "has nobody pillage"),
    "toxic-fumes": ("Toxic Fumes", "the toxic fumes chip of a unit defeated where a chip still stands on its hex once "
                                   "the defeat is dealt (the chip its group reveals, one a rule keeps in play, a rider), "
                                   "or of a grouped chip an Unstable Rift defeats with its group: not placed"),
    "evoke-order": ("Evoke", "the AI's summon where a later hit of the same moment reaches the unit it left at 1 "
                             "(Spike, a gate's retaliation): not played"),
    "evoke-step": ("Evoke", "the AI's summon as a face-down landmark is explored or the wave ends: not played"),
    "evoke-many": ("Evoke", "the AI's summons of two or more units reduced to 1 at one moment: not played"),
    "evoke-moved": ("Evoke", "the AI's summon by a unit a displacement or a teleport moved earlier in the step: "
                             "not played"),
    "evoke-wave": ("Evoke", "the AI's summon where the position gives no Harbinger chapter and wave whose Prep Phase "
                            "line for the unit's faction is read (\"the unit stated in the Prep Phase section for this "
                            "wave\": only chapter 7's grovetenders' lines are read; outside a chapter no such section "
                            "exists): not played"),
    "evoke-barracks": ("Evoke", "the AI's summon where the position does not give the faction's barracks "
                                "(`barracks`): what is available is not known, so nothing is placed"),
    "evoke-own-step": ("Evoke", "the AI's summon in its own faction's attack step (or Quick Strike), where the "
                                "unit summoned could then attack: not played"),
    "evoke-side": ("Evoke", "the AI's summoned chip given promoted in its barracks: it is placed as given, not "
                            "on its basic side"),
    "summon-ai": ("Summon", "the AI's wording, set off by a hit that leaves the taproot at exactly 1 health: the "
                            "unit summoned, promoted, with the taproot flipped and grouped under it, is not played"),
    "wallop-revealed": ("Wallop", "what the chip a group shows, once Wallop's damage defeated its top chip, takes "
                                  "where the teleport puts it (Toxic Secretion, Lahar): not dealt"),
}


_KEEL_SIDE = ("the stats of the other side of a keel minion that promoted or demoted as its hex group gained or lost "
              "a keel spire, which the position does not give (promoted-stats): its health then, and what follows "
              "in the step, read the side given")
_KEEL_MOVED = ("the promotion or demotion of a keel minion that a displacement or a teleport put on a hex group with "
               "a keel spire, or off one: not played, its side kept")


_STEP_SIDES = ("the talents of the side {} was promoted or demoted to in the step (a level-up, Rally, Invigorate, "
               "Dispirit, the keel's rule): the moments after it in the step read those of the side it showed as the "
               "step began, unless `other-talents` gives the same as `talents`")


def flipped(units: tuple[tuple[str, str], ...], question: str) -> tuple[Notice, ...]:
    """What the solver shows it left out (sideless/2): the part of a flipping talent the position cannot
    give (the side a unit flips to, whose talents and stats only that side's chip would print; what
    follows in the step reads the side given), or the level-up of a player's hero whose options the
    position does not give (Why = capacity: a rule's notice), or a keel minion's promotion whose side the
    position does not give or that a movement in combat brings (keel, keel-moved: the keel's rule), or a unit
    promoted or demoted in the step whose new side's talents a later moment reads (talents: Leveling Up)."""
    steps = {"quick": ("quick-strike",), "fire": ("spires-fire",), "turn": ("movement", "attack"),
             "start": ("start-of-turn",), "end": ("end-of-turn",)}.get(question, ("attack",))
    by_talent: dict[str, list[str]] = defaultdict(list)
    for unit, why in units:
        by_talent[why].append(unit)
    # A player's hero the position gives no capacity levels up (asp/combat/levelup.lp, not_adjudicated):
    # what it may take is not known, so the answer cannot be complete.
    uncapped = tuple(sorted(by_talent.pop("capacity", ())))
    found = [Notice("", NOT_MODELLED, steps, uncapped, _LEVEL_UP_LEFT, LEVELING_UP, LEVEL_UP_TEXT)] if uncapped else []
    # A unit promoted or demoted in the step (a level-up, Rally, Dispirit, the keel's rule) that a later moment
    # of the line could read (asp/combat/levelup.lp, Why talents): the talents of its new side are not read.
    sided = tuple(sorted(by_talent.pop("talents", ())))
    if sided:
        found.append(Notice("", PARTLY, steps, sided, _STEP_SIDES.format(", ".join(sided)), TWO_SIDES, TWO_SIDES_TEXT))
    # A keel minion that promoted or demoted (asp/combat/keel.lp) without promoted-stats: its other side;
    # or that a displacement or a teleport put on a hex group where it would: not played.
    rule = next(r for r in faction_rules() if r.faction == KEEL and r.id == "minion-promotion")
    for why, left_out in (("keel", _KEEL_SIDE), ("keel-moved", _KEEL_MOVED)):
        turned = tuple(sorted(by_talent.pop(why, ())))
        if turned:
            found.append(Notice("", PARTLY, steps, turned, left_out, rule.name, rule.text))
    return (*found, *(Notice(_UNSEEN_SIDE[why][0], PARTLY, steps, tuple(sorted(chips)), _UNSEEN_SIDE[why][1])
                      for why, chips in sorted(by_talent.items())))


def unbounded(units: tuple[str, ...]) -> tuple[Notice, ...]:
    """Relentless's retaliation that heals the attacker instead (a chapter's heals/3): each total heals
    it more, and the totals from the highest the answer tells apart on are shown as that one."""
    if not units:
        return ()
    return (Notice("Relentless", PARTLY, ("attack",), units,
                   "a rolled retaliation that heals the attacker: totals past the highest shown are counted as it"),)


def _scenario_notices(position: Position, asked: tuple[str, ...], answer: str = "") -> tuple[Notice, ...]:
    """The rules of the position's chapter that the answer leaves out, in the chapter's order."""
    scenario = position.scenario
    if scenario is None:
        return ()
    return tuple(
        notice for rule in scenario.book.rules if rule.status in UNMODELLED and rule.in_force(scenario.event)
        for notice in _left_out(rule, f"chapter {scenario.chapter}: {rule.id}", position, asked, answer)
    )


# Chapter 1's event 1-2 spares the Horizon's Wrath the floating rocks' dice (asp/scenarios/chapter_1.lp,
# rock_spared): where the position does not say which result is in force, the answers have them roll.
_EVENT_UNKNOWN = ("the event die result in force, which the position does not give (scenario.event): the answer has "
                  "the Horizon's Wrath units roll for the floating rocks, which under 1-2 they need not")


def rock_event_notices(position: Position, asked: tuple[str, ...], answer: str = "") -> tuple[Notice, ...]:
    """Chapter 1's event-no-rock-rolls where the event is not given, on the Horizon's Wrath's turn, and one
    of their units may have to roll as it moves; not for a claimed move's verdict, which no die changes."""
    scenario = position.scenario
    if scenario is None or scenario.chapter != 1 or scenario.event is not None or answer == CHECK:
        return ()
    if "movement" not in asked or position.turn.faction != HORIZONS_WRATH or not rock_rollers(position):
        return ()
    rule = scenario.book.rule("event-no-rock-rolls")
    return (Notice("", PARTLY, ("movement",), (), _EVENT_UNKNOWN, f"chapter 1: {rule.id}", rule.text),)


# Chapter 2's health chips in the fortress whose gate the heirs use (asp/scenarios/chapter_2.lp).
_NO_HEALTH_CHIPS = ("the health chips in the Horizon's Wrath fortress, which the position does not give (gates.<heirs>."
                    "health-chips): the answer has the heirs deploy with none")


def health_chip_notices(position: Position, asked: tuple[str, ...]) -> tuple[Notice, ...]:
    """Chapter 2's deploy-health-chips where the position does not give the chips, as the heirs move with a
    unit of theirs waiting in their gate."""
    scenario = position.scenario
    if scenario is None or scenario.chapter != HEALTH_CHIPS_CHAPTER or "movement" not in asked:
        return ()
    player, gate = scenario.book.player, position.gates.get(scenario.book.player)
    if position.turn.faction != player or gate is None or gate.health_chips is not None or not gate.stack:
        return ()
    rule = scenario.book.rule("deploy-health-chips")
    return (Notice("", PARTLY, ("movement",), (), _NO_HEALTH_CHIPS, f"chapter 2: {rule.id}", rule.text),)


# Chapter 2's Grafted Snare while the Graft's units move (asp/scenarios/chapter_2.lp, hushed/2): the talents whose
# encodings read it, and what the answers leave out.
_SNARE_UNREAD = ("Grafted Snare ignoring {talents} of {units}, where a Graft unit may stand beside it as another moves: "
                 "{these} not read as ignored")
_SNARE_MOVERS = ("Grafted Snare for {units}, beside a Graft unit that may move: each unit's moves are answered as one solve "
                 "of the faction, where it is not ignored for another Graft unit's move, as it would be (the movement step "
                 "plays each move on its own)")


@cache
def _hushes(name: str) -> bool:
    """The talent's encoding reads hushed/2 (chapter 2's Grafted Snare ignores it while a Graft unit moves)."""
    talent = catalogue().resolve(name)
    encoding = talent.encoding if talent is not None else None
    path = encoding_dir() / "talents" / encoding if encoding and encoding.endswith(".lp") else None
    return path is not None and "hushed(" in path.read_text(encoding="utf-8")


def snare_notices(position: Position, asked: tuple[str, ...], answer: str = "") -> tuple[Notice, ...]:
    """Chapter 2's grafted-snare-all-moving on the Graft's turn, where an opposing unit a Graft unit may come beside
    holds a talent acting in movement: one acting only in its own unit's move changes no Graft move; one whose
    encoding does not read the snare is named; and an answer solving all the Graft's moves at once (moves, check)
    names one beside a Graft unit that may move, whose snare hangs on which unit moves."""
    if "movement" not in asked:
        return ()
    near = snare_reach(position)
    if not near:
        return ()
    unread = {uid: [t for t in names if not catalogue().get(t).own_move and not _hushes(t)] for uid, names in near.items()}
    unread = {uid: names for uid, names in unread.items() if names}
    rule = position.scenario.book.rule("grafted-snare-all-moving") if position.scenario is not None else None
    if rule is None:
        return ()
    found = []
    if unread:
        talents = sorted({t for names in unread.values() for t in names})
        found.append(_SNARE_UNREAD.format(talents=", ".join(talents), units=", ".join(sorted(unread)),
                                          these="its encoding does" if len(talents) == 1 else "their encodings do"))
    movers = {uid for uid in position.units if position.units[uid].faction == GRAFT and position.placed(uid) is not None
              and not position.units[uid].done.moved and position.units[uid].kind is not Kind.LANDMARK_MINION}
    beside = sorted(uid for uid in near if any(_hushes(t) for t in near[uid]) and any(
        position.units[g].at is not None and g in movers and position.units[g].at in position.adjacency.get(position.node_of(uid), ())
        for g in movers))
    if beside and len(movers) > 1 and answer not in (STEP, TURN):
        found.append(_SNARE_MOVERS.format(units=", ".join(beside)))
    return tuple(Notice("", PARTLY, ("movement",), (), why, f"chapter {SNARE_CHAPTER}: {rule.id}", rule.text) for why in found)


# Chapter 2's plank pulled as the wave ends (asp/scenarios/chapter_2.lp): where the position does not give it.
_NO_PLANK = ("the plank hex of the Horizon's Wrath fortress, which the position does not give (gates.<heirs>.plank): "
             "the answer defeats no unit on it as the wave ends")


def plank_notices(position: Position, asked: tuple[str, ...]) -> tuple[Notice, ...]:
    """Chapter 2's end-of-wave-plank where the position does not give the plank hex."""
    return _ungiven_at_wave_end(position, asked, "plank", "end-of-wave-plank", _NO_PLANK)


def _ungiven_at_wave_end(position: Position, asked: tuple[str, ...], field: str, rule_id: str,
                         why: str) -> tuple[Notice, ...]:
    """Chapter 2's rule ``rule_id`` where the heirs' gate does not give ``field``, in an answer that may reach the
    wave's end (as_happened keeps it only where a line of play ends the wave)."""
    scenario = position.scenario
    if scenario is None or scenario.chapter != HEALTH_CHIPS_CHAPTER or "end-of-wave" not in asked:
        return ()
    gate = position.gates.get(scenario.book.player)
    if gate is None or getattr(gate, field) is not None:
        return ()
    rule = scenario.book.rule(rule_id)
    return (Notice("", PARTLY, ("end-of-wave",), (), why, f"chapter 2: {rule.id}", rule.text),)


# Chapter 3's earthscape bought as a Graft spire falls (asp/scenarios/chapter_3.lp): played in the whole attack step
# (and so in the turn's) where the position gives where it may go; elsewhere, named where a Graft spire may fall.
_NO_PLACES = ("where the top earthscape may be placed, which the position does not give (earthscape-places): the "
              "answer does not offer the purchase")
_NOT_PLAYED = ("the purchase after a Graft spire's defeat, which only the whole attack step plays: this answer does "
               "not offer it")
_RUN_OUT = ("a Graft spire's defeat in a line that has bought every earthscape of the stack the position gives "
            "(earthscape-places, earthscape-stack): the next one, which the answer does not offer")
_AT_ONCE = ("two Graft spires falling to one attack, each a purchase: the answer offers one")
_PLACED_MIDWAY = ("the earthscape placed before a later attack of the line: the answer counts ranges on the board it "
                  "leaves, but the talents in play read the board (its hexes, terrain, what is adjacent) as it was")


def purchase_notices(position: Position, asked: tuple[str, ...], answer: str) -> tuple[Notice, ...]:
    """Chapter 3's earthscape-after-defeat where an answer may defeat a Graft spire and does not play the purchase
    (as_happened keeps it only where one falls, with the keel left 3 Source)."""
    scenario = position.scenario
    if scenario is None or scenario.chapter != PURCHASE_CHAPTER or "defeat" not in asked:
        return ()
    if not any(s.faction == GRAFT for s in position.spires):  # no Graft spire to defeat
        return ()
    if position.earthscape_places is not None and answer in (ATTACK_STEP, TURN):
        return ()
    rule = scenario.book.rule("earthscape-after-defeat")
    why = _NO_PLACES if position.earthscape_places is None else _NOT_PLAYED
    return (Notice("", PARTLY, ("defeat",), (), why, EARTHSCAPE_RULE, rule.text),)


# The inputs by which a talent's encoding reads the board: its hexes, terrain, wells, hex groups, adjacency and counts.
_BOARD_INPUTS = ("rmin(", "adj(", "terrain(", "hex(", "well(", "isle(", "ray(", "sdist(", "hnear(", "near(")


@cache
def _reads_board(name: str) -> bool:
    """The combat part of the talent's encoding reads the board (_BOARD_INPUTS), which an earthscape placed during
    a step changes for the attacks after it."""
    talent = catalogue().resolve(name)
    encoding = talent.encoding if talent is not None else None
    path = encoding_dir() / "talents" / encoding if encoding and encoding.endswith(".lp") else None
    if path is None:
        return False
    parts = path.read_text(encoding="utf-8").split("#program ")
    combat = [p for p in parts[1:] if p.startswith("combat.")]
    return any(b in p for p in combat for b in _BOARD_INPUTS)


def purchase_step_notices(position: Position, ends: Iterable[Any]) -> tuple[Notice, ...]:
    """Chapter 3's earthscape-after-defeat where the whole attack step played it but not all of it: a line in which
    two Graft spires fall, or which places the earthscape before a later attack (``ends``: the step's StepEnds)."""
    scenario = position.scenario
    if scenario is None or scenario.chapter != PURCHASE_CHAPTER or position.earthscape_places is None:
        return ()
    graft = {s.id for s in position.spires if s.faction == GRAFT}
    cards = 1 + len(position.earthscape_stack)
    boarded = any(_reads_board(t.name) for t in fields.active_talents(position))
    found = []
    for end in ends:
        falls = [i for i, a in enumerate(end.sequence) for d in a.defeated if d.chip in graft and d.by == scenario.book.player]
        # the end's purchases are the same in every line to it, and so are its Graft spires fallen: an attack that
        # felled one and bought none where all the stack's were bought may have found the keel with 3 Source (sound,
        # if cautious; two felled by one attack are named below)
        if len(set(falls)) > len(end.end.earthscape) == cards:
            found.append(_RUN_OUT)
        if len(falls) > len(set(falls)):
            found.append(_AT_ONCE)
        if boarded and falls and any(b.startswith("placed:") for b in end.end.earthscape) and falls[0] < len(end.sequence) - 1:
            found.append(_PLACED_MIDWAY)
    rule = scenario.book.rule("earthscape-after-defeat")
    return tuple(Notice("", PARTLY, ("defeat",), (), why, EARTHSCAPE_RULE, rule.text) for why in dict.fromkeys(found))


# Chapter 2's Strategic Maneuver after the plank's pull (asp/scenarios/chapter_2.lp): where the position does not give
# where the fortress docks next and its cannons' lines from there.
_NO_MANEUVER = ("where the Horizon's Wrath fortress docks next and its 4 cannons' lines from there, which the position "
                "does not give (gates.<heirs>.maneuver; the map does not show the isles' clockwise order): the answer "
                "leaves the fortress where it is and fires no cannonball")


def maneuver_notices(position: Position, asked: tuple[str, ...]) -> tuple[Notice, ...]:
    """Chapter 2's end-of-wave-maneuver where the position does not give the maneuver."""
    return _ungiven_at_wave_end(position, asked, "maneuver", "end-of-wave-maneuver", _NO_MANEUVER)


def tunnel_notices(position: Position, asked: tuple[str, ...]) -> tuple[Notice, ...]:
    """Chapter 4's griege-tunnel-deployment where the answer cannot tell which tunnel access the griege minions
    deploy from (chapter_rules.tunnels): what it then leaves out."""
    scenario, found = position.scenario, tunnels(position)
    if scenario is None or found is None or not found.undecided or "movement" not in asked:
        return ()
    rule = scenario.book.rule("griege-tunnel-deployment")
    return (Notice("", PARTLY, ("movement",), (), found.undecided, f"chapter 4: {rule.id}", rule.text),)


# Chapter 4's Source vein and the earthscapes on it (questions/board_after.py, _vein_struck): what a step's
# boards cannot show where the position does not give them, or where the last one may go.
_NO_VEIN_EARTHSCAPES = ("the earthscapes left on the Source vein, which the position does not give (chips.<id>.earthscapes): "
                        "once a strike removes its last health chip the answer leaves it at 0, though 3 health are placed "
                        "again while an earthscape is left")
_LAST_EARTHSCAPE = ("the scenario's end once its last earthscape is gained (objective \"Remove all earthscapes from the "
                    "Source vein\": \"Scenario ends immediately\"): the answer plays the rest of the step out")


def vein_notices(position: Position, asked: tuple[str, ...], answer: str = "") -> tuple[Notice, ...]:
    """Chapter 4's source-vein-earthscape as the narora move, where the vein is on the board and the position
    does not give its earthscapes, or gives one only; not for one move's outcomes (moves, check), which end
    with the strike: what follows it is the step's."""
    scenario = position.scenario
    if scenario is None or scenario.chapter != 4 or "movement" not in asked or answer in (MOVES, CHECK):
        return ()
    if position.turn.faction != NARORA:
        return ()
    veins = [c for c in position.chips if c.health and chip_name(c.name) == SOURCE_VEIN]
    rule = scenario.book.rule("source-vein-earthscape")
    left = [why for why, found in ((_NO_VEIN_EARTHSCAPES, any(c.earthscapes is None for c in veins)),
                                   (_LAST_EARTHSCAPE, any(c.earthscapes == 1 for c in veins))) if found]
    return tuple(Notice("", PARTLY, ("movement",), (), why, f"chapter 4: {rule.id}", rule.text) for why in left)


# Chapter 4's rotten worms infesting Bydra Graam at the end of a round (asp/scenarios/chapter_4.lp): what the end
# of the turn cannot play where the position does not say it.
_ROUND_UNKNOWN = ("whether this turn is the last of its round, which the position does not say (turn: last-of-round): "
                  "the answer ends no round here")
_NO_INFEST = ("a rotten worms' Infest #, which the position does not give (chips.<id>.infest): the answer has that "
              "rotten worms infest no one")


def worms_notices(position: Position, asked: tuple[str, ...]) -> tuple[Notice, ...]:
    """Chapter 4's rotten-worms-infest as the turn ends, where Bydra Graam may then stand beside a rotten worms
    (its `when`) and the position does not say whether the turn ends its round, or, where it may, gives a
    rotten worms no Infest #."""
    scenario = position.scenario
    if scenario is None or scenario.chapter != 4 or "end-of-turn" not in asked or position.turn.last_of_round is False:
        return ()
    rule = scenario.book.rule("rotten-worms-infest")
    if rule.when is None or not may_act(rule.when, position) or not _near_other(position, rule.when.near_other, asked):
        return ()
    unnumbered = any(chip_name(c.name) == ROTTEN_WORMS and c.infest is None for c in position.chips)
    left = [why for why, found in ((_ROUND_UNKNOWN, position.turn.last_of_round is None), (_NO_INFEST, unnumbered)) if found]
    return tuple(Notice("", PARTLY, ("end-of-turn",), (), why, f"chapter 4: {rule.id}", rule.text) for why in left)


# Chapter 8's market options, which the solo player's Evoke and Summon treat as in its barracks (facts/board.py,
# summonable/3): where the position does not give them, the answer summons from the barracks alone.
_NO_MARKET = ("the minions of the current market options, which the position does not give (factions.<player>.market): "
              "the answer summons only what waits in the barracks")
SUMMONERS = ("Evoke", "Summon")


def market_notices(position: Position, asked: tuple[str, ...]) -> tuple[Notice, ...]:
    """Chapter 8's evoke-summon-market where the market is not given, as the solo player's units move and one
    of them on the map holds Evoke or Summon ("you": the player's; an AI's wording summons otherwise)."""
    scenario = position.scenario
    if scenario is None or scenario.chapter != MARKET_CHAPTER or "movement" not in asked:
        return ()
    player = scenario.book.player
    if position.turn.faction != player or player not in position.factions or position.factions[player].market is not None:
        return ()
    if not any(u.faction == player and u.at is not None and set(SUMMONERS) & set(u.talents) for u in position.units.values()):
        return ()
    rule = scenario.book.rule("evoke-summon-market")
    return (Notice("", PARTLY, ("movement",), (), _NO_MARKET, f"chapter 8: {rule.id}", rule.text),)


# Chapter 6's waygates stand as the Uprising's fortress gate (asp/scenarios/chapter_6.lp). One part is
# left out: which waygate the Uprising's waiting units stand on (the position's one gate holds them).
_WAITING_ON = ("which waygate the Uprising's waiting units stand on, which the position does not say: an "
               "attack on any waygate may send its damage to the top one")


def waygate_notices(position: Position, asked: tuple[str, ...]) -> tuple[Notice, ...]:
    """Chapter 6's waygate-health where the part it leaves out could act: on the keel's or the shada's
    turn, in Quick Strike or the attack step, with a waygate standing and the Uprising's units waiting."""
    scenario = position.scenario
    if scenario is None or scenario.chapter != 6 or position.turn.faction == UPRISING:
        return ()
    if not any(c.health and chip_name(c.name) == WAYGATE for c in position.chips):
        return ()
    rule = next(r for r in scenario.book.rules if r.id == "waygate-health")
    attacking = tuple(s for s in asked if s in rule.acts)
    gate = position.gates.get(UPRISING)
    if not attacking or gate is None or not gate.stack:
        return ()
    return (Notice("", PARTLY, attacking, (), _WAITING_ON, f"chapter 6: {rule.id}", rule.text),)


# Chapter 6's earthscapes removed at the end of the wave, or by an Uprising hero at the end of a turn
# (asp/scenarios/chapter_6.lp): what the answer cannot take into account.
_NO_EARTHSCAPES = ("which hexes are earthscapes, which the position does not give (earthscapes:): the answer "
                   "removes none")


def earthscape_notices(position: Position, asked: tuple[str, ...]) -> tuple[Notice, ...]:
    """Chapter 6's earthscapes-removed (the end of the wave) and hero-removes-earthscape (the end of a
    turn) where an answer reaching that moment cannot count them: the position gives no earthscapes."""
    scenario = position.scenario
    if scenario is None or scenario.chapter != EARTHSCAPES_CHAPTER:
        return ()
    scapes = position.earthscapes
    found: list[tuple[str, str, str]] = []
    if scapes is not None:
        return ()
    if WAVE_END in asked:
        found.append(("earthscapes-removed", WAVE_END, _NO_EARTHSCAPES))
    heroes = [uid for uid, u in position.units.items()
              if u.kind is Kind.HERO and u.faction == UPRISING and position.placed(uid) is not None]
    if "end-of-turn" in asked and heroes:
        found.append(("hero-removes-earthscape", "end-of-turn", _NO_EARTHSCAPES))
    return tuple(Notice("", PARTLY, (step,), (), left, f"chapter 6: {rid}", scenario.book.rule(rid).text)
                 for rid, step, left in found)


LEVELING_UP = "game-elements: Leveling Up Heroes"
LEVEL_UP_TEXT = ("In order to level up a hero, first check its upgrade capacity. If it is not at its capacity, you may "
                  "add an upgrade chip to the hero.")
_LEVEL_UP_LEFT = ("the level-up of a player's hero whose options the position does not give: no capacity, or at its "
                  "capacity on its basic side without promoted-stats (docs/combat.md, Leveling up)")


# What a unit holding a minion (the position's `stasis-on`, `possessing`) and that minion, or a burrowed unit
# (`burrowed`), do as units move:
# the catalogue's parts for the other steps name the rest wherever the talent is in play.
_HELD = {"Stasis": "the move of a unit on top of a minion (\"This unit must move off of the minion on the next turn in "
                   "which it can make progress\") and of the inactive minion under it: the answer reads both chips as "
                   "standing on their hex",
         "Possess": "the move of a minion a unit beneath it controls (by its controller, the unit beneath carried) and "
                    "of that unit: the answer reads both chips as standing on their hex, the minion its owner's",
         "Burrow": "a burrowed unit, inactive with no health until it flips at the start of its next turn: the "
                   "answer reads it as a unit standing on its hex"}


def hold_notices(position: Position, asked: tuple[str, ...]) -> tuple[Notice, ...]:
    """A unit on top of or underneath a minion (Stasis, Possess), or burrowed (Burrow), in a movement answer:
    not modelled there."""
    if "movement" not in asked:
        return ()
    found = []
    for talent, holders in (("Stasis", [u for u in position.units.values() if u.stasis_on]),
                            ("Possess", [u for u in position.units.values() if u.possessing]),
                            ("Burrow", [u for u in position.units.values() if u.burrowed])):
        chips = tuple(sorted(u.id for u in holders if u.at is not None))
        if chips:
            found.append(Notice(talent, PARTLY, ("movement",), chips, _HELD[talent]))
    return tuple(found)


def _faction_notices(position: Position, asked: tuple[str, ...], answer: str = "") -> tuple[Notice, ...]:
    """The rules of the factions' sheets that the answer leaves out."""
    # A rule the encodings play in some steps (`modelled`) counts only in the others where they can: the
    # keel's, where the position gives its hex groups (as units move, where the board after a move can show
    # it); the shada's placement, where the shada are a player's, and their fusion where it is fully played;
    # an AI's shada, both where the position sets the reading that says what it does (ai-shada-promotion).
    def played(rule: FactionRule, step: str) -> bool:
        if step not in rule.modelled:
            return False
        if rule.faction == SHADA:
            if SHADA not in position.factions:
                return True  # no shada: nothing for the rule to do
            player = position.factions[SHADA].controller is Controller.PLAYER
            if not player:
                return AI_SHADA in position.readings and (rule.id != FUSION or _fusion_played(position, ai=True))
            return rule.id != FUSION or _fusion_played(position)
        return bool(position.hex_groups) and (step != "movement" or _keel_moves(position))

    return tuple(notice for rule in faction_rules() for notice in _left_out(
        rule, rule.name, position, tuple(s for s in asked if not played(rule, s)), answer))


FUSION = "fusion"  # the shada's fusion rule (faction-rules.yaml)
AI_SHADA = "ai-shada-promotion"  # the reading that says what an AI's shada does with Minion Promotion
# Hooks by which a unit's health may change as units move (damage on its way, a heal, a die): a fusion's price
# reads the two minions' health, taken as the move begins (asp/movement/shada.lp).
_MOVING_HEALTH = {"hurts/4", "shoves/4", "mends/4", "scorches/5", "rolls_at/3", "aftermove/5", "aftermove_pick/6"}


def _fusion_played(position: Position, ai: bool = False) -> bool:
    """Whether the shada's fusion is played wholly as units move (asp/movement/shada.lp, board_after._fused): the
    position gives their barracks, every fusion pairing's chip there gives its promoted side (promoted-stats),
    no basic shada minion on the map is grouped (its fusion would reveal the chip beneath), and, for a player's
    (``ai`` False), no chip in play has a talent that may change a unit's health as units move, nor chapter 1's
    floating rocks (the price reads the health as the move begins; the AI pays none)."""
    info = position.factions[SHADA]
    if info.barracks is None:
        return False
    if not ai and position.scenario is not None and position.scenario.chapter == 1:
        return False
    products = set(FUSIONS.values())
    if any(position.units[b].chip.lower() in products and position.units[b].promoted_stats is None for b in info.barracks):
        return False
    if any(u.faction == SHADA and u.kind is Kind.MINION and not u.promoted and u.group and u.at is not None
           for u in position.units.values()):
        return False
    talents = {t for u in position.units.values() for chip in (u, *u.group) for t in chip.talents}
    talents |= {t for s in position.spires for t in s.talents} | {t for c in position.chips for t in c.talents}
    return ai or not any(_MOVING_HEALTH & set(t.hooks) for t in catalogue().known(talents))


def _keel_moves(position: Position) -> bool:
    """Whether the board after a keel minion's move shows its promotion or demotion (movement/keel.lp,
    board_after._turned): every keel minion in play gives both sides' stats (promoted-stats: its health
    once turned), and none may be displaced by a talent (Flying, Peaceful: a displacement across hex groups
    is not played)."""
    keel = [u for u in position.units.values() if u.faction == KEEL and u.kind is Kind.MINION]
    return all(u.promoted_stats is not None and not any(
        DISPLACEABLE in t.hooks for t in catalogue().known(u.talents)) for u in keel)


def _left_out(
    rule: ScenarioRule | FactionRule, label: str, position: Position, asked: tuple[str, ...], answer: str
) -> tuple[Notice, ...]:
    """The notice of a rule not modelled, where it acts in a step asked, ``answer`` may depend on it
    (counted_by), and what it needs is in play (when)."""
    steps = tuple(s for s in rule.acts if s in asked)
    if not steps or answer in rule.counted_by or not may_act(rule.when, position):
        return ()
    if rule.when is not None and rule.when.near_other and not _near_other(position, rule.when.near_other, asked):
        return ()
    return (Notice("", "not modelled", steps, (), rule=label, text=rule.text),)


def _near_other(position: Position, pair: tuple[str, ...], asked: tuple[str, ...]) -> bool:
    """A unit printed ``pair[0]`` may stand beside another chip named ``pair[1]`` (or unnamed) once the steps
    ``asked`` are played (When.near_other): beside it now, or within the reach of its moves over the step plus 1
    where they play its faction's movement. Cautious: anywhere where others' moves may displace it (Flying,
    Peaceful) in a movement step not its faction's, and 3 hexes further where a talent in play moves units in
    the combat steps asked (Wallop's teleport, Prowl, Eager's swap)."""
    unit_chip, other = pair
    spots = {c.at for c in position.chips if chip_name(c.name) == chip_name(other) or not c.name}
    landmarks = catalogue().known([name for lm in position.landmarks if lm.revealed for name in lm.talents])
    shifting = any(set(t.hooks) & SHIFTING for t in [*fields.active_talents(position), *landmarks])
    combat = bool(set(asked) & COMBAT_STEPS)
    for uid, unit in position.units.items():
        if chip_name(unit.chip) != chip_name(unit_chip) or position.placed(uid) is None:
            continue
        moving = "movement" in asked and unit.faction == position.turn.faction
        if "movement" in asked and not moving and any(DISPLACEABLE in t.hooks for t in catalogue().known(unit.talents)):
            return True
        radius = 1 + (fields.step_radii(position, [uid])[uid] if moving else 0) + (SHIFT_REACH if shifting and combat else 0)
        if spots & fields.ball(position, position.node_of(uid), radius):
            return True
    return False


# Talents that move a unit in the combat steps (hooks): Wallop's teleport (up to 3 hexes), Prowl (2), Eager's swap (1).
SHIFTING, SHIFT_REACH = frozenset({"teleport/4", "relocates/4", "displace/4"}), 3
COMBAT_STEPS = frozenset({"start-of-turn", "quick-strike", "spires-fire", "exploration", "attack"})


def _side(unit: Unit) -> str:
    """A unit's faction, as a `when` names it; landmark minions, no faction's, as LANDMARK_MINIONS."""
    return LANDMARK_MINIONS if unit.kind is Kind.LANDMARK_MINION else unit.faction


def may_act(when: When | None, position: Position) -> bool:
    """Whether what ``when`` needs is in play in ``position``, so that the rule could change an answer.
    A chip is matched by its printed name as the encodings match it (chapter_rules.chip_name: "The
    Nucleus" is Nucleus, a chip printed otherwise is not); a spire or other chip whose printed name
    the position does not give may be any."""
    if when is None:
        return True
    units = {uid: u for uid, u in position.units.items() if position.placed(uid) is not None}
    waiting = {u.faction for u in units.values() if u.at is None}
    chips = {chip_name(n) for u in units.values() for n in (u.chip, *(g.chip for g in u.group))}
    spires = {chip_name(s.chip) for s in position.spires}
    others = {chip_name(c.name) for c in position.chips}
    talents = {t for u in units.values() for t in (*u.talents, *(t for g in u.group for t in g.talents))}
    talents |= {t for s in position.spires for t in s.talents} | {t for c in position.chips for t in c.talents}
    talents |= {t for lm in position.landmarks if lm.revealed for t in lm.talents}
    basic = [u.faction for u in units.values() if u.kind is Kind.MINION and not u.promoted]

    def any_of(wanted: tuple[str, ...], found: set[str]) -> bool:
        return not wanted or bool(set(wanted) & found)

    def named(wanted: tuple[str, ...], names: set[str]) -> bool:
        return not wanted or any(chip_name(w) in names for w in wanted)

    return (
        named(when.chips, chips)
        and (named(when.others, others) or (bool(when.others) and any(not c.name for c in position.chips)))
        and (named(when.spires, spires) or (bool(when.spires) and any(not s.chip for s in position.spires)))
        and any_of(when.talents, talents)
        and set(when.units) <= {u.faction for u in units.values()}
        and any_of(when.heroes, {u.faction for u in units.values() if u.kind is Kind.HERO})
        and any_of(when.minions, {u.faction for u in units.values() if u.kind is Kind.MINION})
        and any_of(when.promoted, {u.faction for u in units.values() if u.kind is Kind.MINION and u.promoted})
        and any_of(when.spires_of, {s.faction for s in position.spires})
        and any_of(when.turn, {position.turn.faction})
        and any_of(when.waiting, waiting)
        and any_of(when.talented, {_side(u) for u in units.values() if u.talents or any(g.talents for g in u.group)})
        and any_of(when.beside_wells, _near_wells(position, units))
        and any_of(when.pairs, {f for f in basic if basic.count(f) >= 2})
    )


def _near_wells(position: Position, units: dict[str, Unit]) -> set[str]:
    """The factions with a basic minion that could end its move beside a Source well: one within its
    movement plus 1 hexes, counted as range is (When.beside_wells)."""
    wells = {name for name, h in position.hexes.items() if h.well}
    near = set()
    for uid, unit in units.items():
        node = position.placed(uid)
        if wells and node is not None and unit.kind is Kind.MINION and not unit.promoted:
            if wells & set(range_counts(position, [node], unit.side.movement + 1)[node]):
                near.add(unit.faction)
    return near
