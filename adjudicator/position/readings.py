"""Named interpretations where the rule texts leave a real question open (docs/readings.md)."""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.position.dice import die_names


@dataclass(frozen=True)
class Reading:
    """An interpretation a position may switch (docs/readings.md): its values and what it changes."""

    name: str
    default: str
    values: tuple[str, ...]
    summary: str
    # The questions it can change: the movement encodings read it, the combat ones, or both (a test
    # checks this against where asp/ reads it); `cloudspire readings` re-asks only those.
    parts: tuple[str, ...] = ("movement",)


READINGS = {
    r.name: r
    for r in (
        Reading(
            "displacement",
            "needed",
            ("needed", "optional"),
            "may a minion displace a unit, or pass through one by a talent, when a plain route uses as "
            "much movement? "
            "(game-elements: Blocking Movement; FAQ-24 'not required to')",
        ),
        Reading(
            "displaced-landing",
            "adjacent",
            ("adjacent", "swap", "blocked"),
            "where does a displaced unit go when it may not stand on the hex the minion left: an "
            "adjacent hex, that hex anyway, or is the displacement not possible? (game-elements: "
            "Blocking Movement 'swap positions'; ai-rules.md Displacement details, secondary)",
        ),
        Reading(
            "escape-route",
            "any",
            ("any", "allowance"),
            "may a minion on invalid terrain cross terrain its allowance does not admit on its shortest "
            "route to valid terrain? (game-elements: Making Progress, last paragraph)",
        ),
        Reading(
            "stop-counts",
            "walked",
            ("walked", "full"),
            "does a move a talent ends early (Mire) count the movement it walked, or all of it, when a "
            "minion must use as much movement as possible? (harbinger-rulebook: Mire 'its movement "
            "immediately ends'; game-elements: Minion Movement)",
        ),
        Reading(
            "ai-hero-approach",
            "range",
            ("range", "closest"),
            "an AI hero with Range stops as soon as its mark is within range, or goes as close as it can "
            "(ai-rules.md, secondary)",
        ),
        Reading(
            "spire-defeat",
            "bare",
            ("bare", "last-upgrade"),
            "is a spire defeated by damage once it has no upgrades left, or as soon as its last upgrade "
            "is removed? (game-elements: Attacking; the texts do not say; docs/combat.md; as units move, "
            "a spire struck once a move ends: docs/movement.md)",
            ("combat", "movement"),
        ),
        Reading(
            "reveal-retaliation",
            "fresh",
            ("fresh", "inherited"),
            "may a chip revealed in a group retaliate when the defeated chip already had? "
            "(game-elements: Deployment, 'still retaliate as normal' vs 'continues from the same point')",
            ("combat",),
        ),
        Reading(
            "eager-landmark",
            "stays",
            ("stays", "swap"),
            "does Eager displace a landmark minion it attacks? (game-elements: Landmarks, 'Landmark "
            "minions do not move'; Eager: 'When this unit attacks a minion, displace the minion')",
            ("combat",),
        ),
        Reading(
            "gate-redirect",
            "both",
            ("both", "unit"),
            "when a gate's damage goes to the top unit in it, does the gate still retaliate? "
            "(game-elements: Fortress Gate; FAQ-15)",
            ("combat",),
        ),
        Reading(
            "campfire",
            "end-of-turn",
            ("end-of-turn", "start-of-turn"),
            "do heroes go into campfire mode at the end of a turn in which only their faction has units, "
            "or at the start of their turn with no opposing units? (game-elements: Campfire Mode vs the "
            "CTG support article, ai-rules.md)",
            ("movement", "combat"),
        ),
        Reading(
            "maneuver-price",
            "free",
            ("free", "paid"),
            "does the Strategic Maneuver Horizon's Wrath performs as each wave of Harbinger chapter 2 ends cost the "
            "heirs' Source tracker ('reduce your Source tracker to 0 in order to reposition the airship')? "
            "(harbinger-rulebook, chapter 2; horizons-wrath.txt, Fortress Rules)",
            ("combat",),
        ),
        Reading(
            "spire-die",
            "standard",
            die_names(),
            "the spire attack die's faces, which no text prints: miss, blank, 1, 1, 1, 2 or miss, "
            "blank, 1, 1, 2, 2 (docs/dice.md; replace both with cloudspire spires-fire --die FILE)",
            ("movement", "combat"),  # chapter 1's floating rocks roll it as units move
        ),
        Reading(
            "inferno-upgrade",
            "attack",
            ("attack", "fortification", "range"),
            "which upgrade does an Inferno spire gain: its 'green-and-grey upgrade icon', which no text "
            "names (harbinger-rulebook: Inferno; the shada sheet lost the icon; docs/combat.md, Inferno)",
            ("combat",),
        ),
        Reading(
            "orange-cross-shield",
            "attack",
            ("attack", "fortification", "range"),
            "which upgrade is the 'orange cross-shield upgrade icon' an AI's Pollinate adds to a keel spire, "
            "which no text names (harbinger-rulebook: Pollinate; docs/combat.md, Pollinate)",
            ("combat",),
        ),
        Reading(
            "grey-cross-shield",
            "fortification",
            ("attack", "fortification", "range"),
            "which upgrade is the 'grey cross-shield upgrade icon' Bulwark gives a promoted keel minion, "
            "which no text names (harbinger-rulebook: Bulwark; docs/combat.md, Keel promotion)",
            ("combat",),
        ),
        Reading(
            "ai-shada-promotion",
            "fuse",
            ("fuse", "never"),
            "the shada sheet's Minion Promotion ('you may place it', 'the two may trigger a fusion') gives "
            "an AI's shada no rule for its choice: does it fuse wherever it can, placing none, or neither? "
            "(reference/factions/shada.txt; docs/movement.md, Shada fusion)",
        ),
        Reading(
            "defeated-mark",
            "none",
            ("none", "declare-again"),
            "once a marked unit is defeated during the movement step, do the units whose mark it was have "
            "no mark for the rest of the step, or does their faction declare a new one at once (its "
            "next-mark)? (harbinger-rulebook: chapter 2 Marks 'remains the mark until it is defeated'; "
            "game-elements: Fortress Gate 'must declare a new mark immediately')",
        ),
        Reading(
            "assist-minion",
            "promote",
            ("promote", "upgrade"),
            "a player's minion that Assist has level up: is it promoted (a minion's way of levelling up; no "
            "capacity, so the hero's procedure promotes it), or may it take an upgrade chip? (game-elements: "
            "Leveling Up Minions 'generally do not receive upgrades', Units 'Upgrade Capacity (Heroes Only)')",
            ("combat",),
        ),
        Reading(
            "bio-indefinite-discard",
            "discarded",
            ("discarded", "returned"),
            "is a landmark minion with Bio-Indefinite that Pacify discards defeated by 'a non-damage effect', "
            "so that it loses 1 health and goes back to its set-up hex instead? (harbinger-rulebook: "
            "Bio-Indefinite; game-elements: Landmarks 'defeated or discarded'; docs/combat.md, Pacify)",
            ("combat",),
        ),
        Reading(
            "ai-spire-odds",
            "possible",
            ("possible", "likely"),
            "for an AI spire, is a target one it 'can defeat' (or damage) when some roll would do it, or "
            "when at least half the rolls would? (ai-rules.md, AI spire attack priority, secondary; so "
            "too an AI Riposte's 'would not defeat' of a Relentless retaliation, before its roll)",
            ("combat",),
        ),
    )
}


def resolve(chosen: dict[str, str]) -> dict[str, str]:
    """Every reading's value, defaults filled in; raises ValueError naming a bad name or value."""
    values = {name: r.default for name, r in READINGS.items()}
    for name, value in chosen.items():
        reading = READINGS.get(name)
        if reading is None:
            raise ValueError(f"unknown reading {name!r}; known: {', '.join(sorted(READINGS))}")
        if value not in reading.values:
            raise ValueError(f"reading {name} takes {' or '.join(reading.values)}, not {value!r}")
        values[name] = value
    return values
