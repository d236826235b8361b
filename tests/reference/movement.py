"""A brute-force reference of Cloudspire movement, to cross-check the ASP encodings.

Written from the rule texts and from docs/movement.md (the contract); it shares nothing with asp/ or
the solver.  It enumerates explicitly: every simple route of a minion, every landing of a displaced
hero, every order of moves in a movement step.  Section names in comments are those of
docs/movement.md unless another text is named.

Notes (numbered as the combat reference's, for the rules added since):

N347 Explosion's chip in the movement step (landmark-and-market-talents: "When a unit moves onto a hex adjacent
    to this chip, it must forego the rest of its movement and roll a D6. The unit suffers damage equal to the
    die result. Then, discard this chip."): the hexes beside a chip on the map end any unit's move (not its
    start, which it did not move onto), and a move ending on one rolls a D6 per chip beside it, the total taken
    after what it took on its way, totals that leave it alike one outcome with their chance (its life left or
    more: defeated; a Peaceful unit takes nothing, the chip no merc), each chip then discarded (act explode) and
    off the board for later moves (docs/movement.md, Explosion). Checked only where the solver names no part of
    Explosion left out (test_agreement.py).

N340 An Incorporeal hero waiting in its gate walks by what it steals (N269) from the gate as from a map hex:
    deploying, it may pass through the opposing units its walk reaches, as the solver's walk by state does.
N338 A hero that returns to its fortress "immediately recovers to full health" (game-elements, Returning to
    the Fortress): the board after holds it at its health stat, whatever the floating rocks' dice took on its
    way home (its fortifications lost stay lost), as the solver's board_after has it (bench.sweep,
    rocky-movement-step, seed 14).

N337 A landmark minion its faction controls that moves (Recruiter, Recruitable) leaves its own hex free: a unit
    it displaces may land there ("displaced-landing: adjacent"), as the solver has it; the reference kept a
    landmark minion's hex a chip hex for its own move (found by bench.sweep, rocky-unit-options, seed 14).

N336 An AI hero's end preference (Gust, Waterwalker) weighs a hex it may fall on by the ends its rules leave
    it that it falls there on the way to, as a minion's (N241) weighs a route by the end it was going to: a
    fall on plains on the way to a path hex is no plains end, a fall on the way to a plains end is one.

N144 A final board of the movement step tells apart what acts did beyond where units stand: the chips and
    landmarks an act placed, moved or took off the map (Dig, Twister, Build Waygate, Portable Gateport), the
    upgrades an act moved between units (Radiate), and the items a unit holds (Portable Gateport picked up or
    dropped, Cumbersome's lost on the way); a unit an act flipped shows its side instead.
N330 A carried rider's recovery (Refresh, FAQ-07: "if its chip physically moves it will set off any talents
    triggered by movement"): carried (N152) or landing with its displaced roost (N303) onto a hex beside a Refresh
    spire healing its faction, a wounded elfinkaze recovers 1, once per move (``floor``), as a unit moving there
    would: a negative `carried` damage.
N303 FAQ-07, a displaced roost's rider: each elfinkaze riding a unit a move displaces (its `rides`, on its hex) lands
    with it and takes, on a map hex, what moving onto that hex would cost it, but the roost's own damage (a
    recovery too, N330); defeated where that is all its life, credited as the roost's defeat there would be
    (N218). Listed with the mover's `carried`.
N302 A spire struck once a move ends (Source Aura, Glidebomb, Eruption) loses its bottom upgrade, an attack or
    range one to 1 damage or more, a fortification to 2 or more, one upgrade whatever the damage; with none
    left, or under the reading spire-defeat last-upgrade with its last one taken, it is defeated and leaves the
    board (an elfinkaze riding it then rides nothing), its reward to a player's faction where the spire opposes
    it (game-elements, Attacking and Defeat). A fortress gate a strike brings to 0 health is defeated (the
    strike says so: what that brings is a notice). The whole step's later moves see the spire so.
N298 A final board of the movement step that orders of moves reach with different dice (a hero that rolls for
    Anarchy as it moves before the minions, against the same hero defeated by their moves before it ever moves)
    keeps the likeliest of them: the order is a choice, the dice chance (docs/movement.md, The whole movement step).

N297 Damage while moving along an escape from invalid terrain (game-elements, Making Progress: "its next
    movement must take the shortest route to valid terrain"): the escape is moved, so each hex it enters costs
    what moving onto it does (Toxic Secretion: "If a non-griege unit moves onto a hex adjacent to this unit"),
    and a defeat on it ends the move there; two escapes to one hex that cost different damage are two outcomes.
    What it carries (Roost) keeps a notice.

N291 A marked unit defeated as units move (a Blaze move's damage) is no mark for the moves after it in the step
    (harbinger-rulebook, chapter 2 Marks: "remains the mark until it is defeated"): off the board, it marks no
    hex, so a unit whose mark it was counts no distance, makes no progress and stays, as asked on the board after.
N278 The AI's elfinkaze off a roost with no opposing hero to reach (Roost Roam, AI: "If it cannot, it will move
    adjacent to the closest opposing minion or spire"): the closest, counted as range is from its hex, of the
    units opposing it that are no hero (a landmark minion too) on map hexes and the spires opposing it, each
    closest one a goal; it ends where its walk comes nearest one, counted alike (beside one where it can),
    then beside the most opposing units. With none in play, the AI hero's choice (N249).

N277 A landmark minion a faction controls (its `faction`, not one Devoted befriends) moves on its faction's turn
    as that faction's minion (game-elements, Landmarks: its movement stat is "ignored unless a faction gains
    control over this unit"), in the minions' order. Its hex is a landmark's to every other unit; its own
    start counts one more than the nearest map hex (or the mark) beside it that the count reaches.

N242 Passing through a unit it may displace (Incorporeal, Breakneck): a minion whose talent lets it move
    through a unit it may also displace (a friendly hero, a Flying or Peaceful unit; an opposing one for
    Incorporeal) may do either, short of its route's end: each choice is a route of its own, weighed alike
    by FAQ-24; a passed unit stays, its hex held (no displaced unit lands there), and an Incorporeal
    minion takes Source for it (N217). The AI's Incorporeal "will pass through opposing units if able":
    of the routes along the same hexes, it takes none that displaces a unit another passes, that other
    passing every unit it passes, unless its Crush (AI) "will displace" that unit: then both ways.

N269 A hero's walk through the hexes its talents open: Breakneck's, any unit's, a spire's or a landmark's; Incorporeal's,
    an opposing unit's (not a landmark minion's); on terrain it admits, never ending there. It may come back
    through a hex, or onto its start. An Incorporeal hero's walks are told apart by what they steal (N217: once
    a unit, an active one, not a campfired hero): each end with each such amount is an outcome, with the first
    path in name order among the walks that steal it, each the first shortest to its state (end, units passed);
    a walk back onto its start only where it stole. A Cumbersome hero passes no one; one that moving may hurt or
    have roll dice, that may teleport, or an elfinkaze moving as a hero walks as without the talents (its
    answer names them). Sweep (branch hero11): python -m bench.sweep --checks passing-unit-options
    --positions 2000 --seed 11, crowded lanes whose passing-talent mover is a hero one time in three:
    2000 positions, 0 disagreements.
N270 Breakneck on a hero ("must make as much progress as possible when moving"), where its walk is followed
    (N269): its ends on the map only those closest to its mark, counted through spires and landmarks, none
    farther than its start; staying and returning stay. An AI hero chooses among those as AI heroes do. The
    AI's Incorporeal hero ("will pass through opposing units if able"): to the end its rules choose (among
    all its walks' ends), only the walks passing the most opposing units; never back onto its start.

N241 Gust's and Waterwalker's AI preference ("If this unit can end its movement on a grasslands hex while
    adhering to AI movement rules, it will do so") chooses among the ends of a minion's routes that the AI
    rules leave it (and its start, where it may stay), not among the hexes where damage on the way
    defeats it: a route that would end on a path hex is not dropped for one that would, but the unit
    falls on plains first (the solver's ai_end_pref/3 on route ends; found by bench.sweep, 2026-12-07).

N265 A minion that displaces a unit on its way and is then defeated further on (Lahar, Toxic Secretion, a
    toxic fumes chip): game-elements, Hero Displacement, "Your minion moves into the hero's hex, forcing the
    hero to swap positions", so the swap is made as it moves in, before any damage there. Each unit on a hex
    it walked up to where it fell (that hex too) stays displaced where it landed, taking what it takes there
    (Crush's 2 too); one further on is not displaced. A route is one whose displaced units can all land (as
    planned, the hexes beyond where it fell included); its outcome shows the landings of the units it
    reached. The step's later moves see them where they landed.

N266 Blaze displaced onto a forest hex (FAQ-07, FAQ-25: being displaced sets off movement talents): a unit
    with Blaze that a minion's route displaces (a friendly hero, a Flying or Peaceful unit, Crush's) onto a
    forest hex deals there what it would moving onto it, by its side's wording (the moving faction's as
    asked, another as its controller): the AI's 1 to one opposing unit beside that hex, each a choice; a
    player's 1 to any unit beside it, or none. Beside it: the other units where they stood as the move began,
    the displacing minion where it then stands, the hex the Blaze unit left. Campfired heroes, and Peaceful
    units from a unit that is no merc, take 0. What the minion takes of it is added to its damage only where
    it takes no other damage and rolls no dice on that route, and survives it (otherwise the encoding keeps a
    notice and the outcome shows no such damage to it).

N245 A teleport (Riftwalk, Naroran Rift, Secret Passage) moves a unit onto two hexes: the chip's as it steps
    onto it, then the one it lands on (FAQ-07), each costing what moving onto it does (Toxic Secretion,
    Lahar, Exposure), in that order; a step onto a chip that sends it nowhere (Spire Shot, Rigging, a lone
    chip) onto one. Damage that reaches its health on the chip's hex defeats it there, not teleported: a
    minion's route and a hero's walk end with the chip (no unit on the landing defeated). A hurt hero's
    walks teleport as its other walks do, Rigging's spire ending them (to its fortress, its damage kept);
    an AI hero falls only on the way to an end its rules leave it, a teleport one step of the way (from a
    chip it fell on, as from the hexes it would have landed on).

N246 Call Minion and Summon Hero (N127, N128): the unit the act teleports takes, where it lands, what moving
    onto that hex costs it (FAQ-07; Toxic Secretion, Lahar, Exposure, Refresh, chapter 8's heal), the chips
    where they stood as the move began; its life or more defeats it there (off the board, or its group's next
    chip on top).

N247 Cumbersome ("If the hero takes damage, this item is placed on the hero's hex"): a hero holding it whose
    walk takes damage (more than 0 in all) loses it (the outcome's lost); its walk keeps the stat 2 and the
    path allowance it began with; the hero holds no Cumbersome on the boards after.

N281 Harbinger chapter 2's Grafted Snare on every Graft unit while the Graft move ("On your turn, while
    Nucleus is not moving, the talents of all opposing units adjacent to Nucleus are ignored"): a Graft unit's
    move is made as if every opposing unit on a map hex (a landmark minion too) beside another Graft unit on a
    map hex (no landmark minion) held no talent, who stands where read as the move begins; the board after it
    keeps their talents. Each move of the whole step reads its own board.

N212 Harbinger chapter 2's heirs heroes never return to their fortress (no-return). A hero of a faction
    with no mark ("Heirs: None") must leave its gate where it can, hurt on its way or not (as _deployed).
N211 Harbinger chapter 2's health chips: a heirs unit about to leave its own gate, the gate holding a
    health chip and the unit not having taken one, may take one before its move (an act before it, its
    chip the gate): 1 health past its health stat, one chip fewer; each move that then leaves the gate
    is listed with it, the moves without it too. The chips left are carried from deploy to deploy.

N240 Harbinger chapter 4's griege tunnel deployment ("The griege minions always deploy from the tunnel access
    closest to the naroran fortress gate that's possible for them to deploy from. If they cannot deploy from a
    tunnel access, they deploy from the Griege fortress gate as normal"): on the griege's turn, with griege
    minions waiting in their gate, a Tunnel Access chip is possible where a map hex beside it holds no unit,
    spire, landmark or other chip and is path or terrain no harder than every waiting minion's allowance;
    closest, the fewest hexes from the naroran gate counted as range is (over map hexes and gate nodes,
    whatever stands there); every one equally close is kept. The griege gate is then beside every map hex
    beside those chips ("as if it were your fortress gate"); none possible, the gate's own hexes.
N210 Harbinger chapter 4's Source vein in the whole step: a strike removes that many of its health chips,
    down to 0, and later moves see what is left (a vein with none is struck no more); the unit that struck
    it is defeated ("Then, the naroran unit is defeated"), off the board for the moves after. "When the last
    health chip is removed from the Source vein, you gain its top earthscape ... Then, place 3 health on
    the Source vein (unless all earthscapes have been removed from it)": where the position gives the
    earthscapes left on it, one fewer, and 3 health again while any is left (damage past the last chip
    lost). A final board shows the vein's health where its health or its earthscapes changed.
N215 A faction's Source spent as units move: a player's Call Minion, Improve and Magic-Like Missile cost 2,
    Summon Hero and Eruption 3 (the AI's wordings spend none), paid before the act or before what the unit
    deals once its move ends; one outcome's acts after the move and its Eruption together never cost more
    than the faction holds (the acts before it are made on the board they leave, their price paid). The
    step's boards differ by each faction's Source after them.
N216 Rewards of a defeat dealt as units move (game-elements, Defeat): a player's unit's own doing (what it
    deals once its move ends or on its way, an act that defeats or deals damage, the units on a chip a
    teleport lands it on) grants its faction the defeated unit's reward, where that unit opposes it (a
    landmark minion of no faction does); Source up to the faction's capacity. The AI gains none.
N217 Incorporeal, a player's or the AI's: each opposing unit on a hex its route moves through (not its end,
    not displaced; an active one: not a campfired hero, since N269) takes 1 Source from its faction, no more
    than the faction holds; a player's faction gains it, up to its capacity.
N218 A unit that damage taken as units move defeats (itself moving, displaced, carried): its reward goes to
    the faction of the first by id of the chips that hurt it there (Toxic Secretion, Lahar, a toxic fumes
    chip: none; Crush: the displacing minion), where that faction opposes it and plays no AI (the moving
    faction as asked, another by its controller).

N225 Builder: before its move (from a map hex) or once it ends (a stay's too), each an outcome: a dispatch
    platform of the unit's faction built on a map hex beside it with a Source well that no unit (but itself),
    spire, landmark or other chip covers as the move began (a spire `dispatch-platform-<hex>`, no upgrades,
    chip Dispatch Platform); a player's also: a spire beside it named Dispatch Platform (any faction's) made
    a Siege Tower, its upgrades kept (no talents, no reward), or any spire beside it given an attack, range
    or fortification upgrade on top. Then a basic unit leaves the board to its barracks, undefeated, its
    movement made (before its move: instead of it, a stay on its hex), listed in its faction's barracks
    where the position gives them; a promoted one shows its basic side, its upgrades kept, its health at
    most that side's health stat (a move after it made so). A player's may, or not; the AI's must, before
    its move where a well is beside it then, else after its move. The step's boards name a spire built
    (control: its faction) and a siege tower (sides: promoted).
N195 Portable Gateport (an item): a player's hero (not the AI's), its faction holding 1 Source or more,
    once a move, before its move (then made on the board it leaves) or after it (a stay's too): holding
    the item (the talent), drops it on a map hex beside it, not path, free of units (but itself), spires,
    landmarks and other chips as the move began (a chip with the talent there, in the way from then on);
    not holding it, picks up an item chip (an other chip with the talent) on a map hex beside it (the chip
    gone, the talent held); each an outcome, or none.
N194 Quantum Dark: a spire beside the unit's map hex whose faction opposes the unit's, with 2 upgrades or
    fewer, is replaced by a spire of the unit's faction with the same upgrades (the same id), and the unit
    is defeated; instead of its move (a stay on its hex, the act before it, no move after) or once its
    move ends (a stay's too), each such spire an outcome. A player's may, or not; the AI's must, instead
    of moving where one is beside it as its move would begin, else after its move where one is beside it.
N193 Matter Distortion, a player's: before its move (then made on the board it leaves) or after it (a stay's
    too), from a map hex (a unit in its gate occupies no isle, FAQ-15), the act distort on the hex it
    stands on, or none; then the unit promotes (as Yrtel's Way's: a basic unit to its promoted side, no
    upgrades, the health between). Where the earthscape lies is not modelled: the board is otherwise as it
    was. Not for the AI ("Talent does not trigger for AI units").
N192 Burrow: once a move ends on a map hex (a stay's too), the unit placed on a map hex beside its end of
    any terrain but path, free of units (but itself), spires, landmarks and other chips as the move began,
    its health removed (its fortifications too, FAQ-29), not defeated; each such hex an outcome. A player's ungrouped unit may, or not; the
    AI's must where its health was below its health stat as its move began, leaving its group (the next
    chip shown where it stood).
N191 Stasis, Possess: a unit sharing its map hex with no other unit or spire places itself on top of
    (underneath) a minion beside it: a minion of a faction opposing its own on a map hex, no group
    beneath it, sharing its hex with no other unit or spire; each such minion an outcome. A player's after
    its move or a stay, or not; the AI's, beside one as its move would begin, instead of moving (a stay
    on that minion's hex, the act before it), else after its move where one is beside its end. The unit
    then stands on that minion's hex out of its group (the group's next chip shown where it stood).
N168 Rigging (a Horizon's Wrath spire): a player's hero of the faction named "horizons-wrath", not in its
    gate, not Cumbersome, its gate a fortress, steps onto its faction's spire with it as onto a path hex,
    one movement, and its move ends there; it then goes to its fortress and the spire to its barracks
    (an act after the move), both off the board for the moves after. Not for AI units: those of the
    faction the question plays as the AI (``ai``), whatever the position's controller, as the solver's
    ai/1 (a question may play an AI-controlled faction as a player's). So for Spire Shot and Secret
    Passage too, which took the controller's side before (the solver offered a spire to an AI-controlled
    faction's unit asked as a player's; the reference did not).
N171 Anarchy (master-talent-list: "Before this unit's movement each turn, roll the D6. On a 5 or 6, discard
    this unit."): a unit about to move from a map hex (not from its gate, FAQ-21) is discarded with chance
    1/3 (one outcome, a stay with the act discard: off the board, not defeated, no move; node "discarded"
    on the step's boards), and moves as without the talent with chance 2/3 (each outcome's chance).
    Sweep (branch elf7): of 100 boards drawn, 34 had a moving Anarchy unit on the map; their unit options
    agreed on both sides, and the whole step on the 4 with three faction units or fewer (the others' steps
    are the slow ones: the fixed sample of test_agreement checks some).
N170 A hero in campfire mode is inactive (game-elements, Campfire Mode): its Toxic Secretion, Lahar and Mire
    act on no unit that moves or is displaced beside it.
N169 Improve, once a move ends on a map hex (a stay's too, as every act after a move): beside it, a spire of
    the unit's own faction gains an upgrade: a player's, its faction holding 2 Source, may add an attack,
    range or fortification upgrade on top (each spire and kind an outcome, or none); the AI's must add an
    attack upgrade at the bottom of one, unless its `used` holds Improve.
N129 Eruption, once a minion's move ends on a map hex (not a stay, not defeated on its way): 3 to every
    unit beside its end, any faction's (not a campfired one; a Peaceful one only from a merc), every
    spire and every fortress gate beside it, then the minion goes to its barracks, undefeated (off the
    board, moving no more this step). The AI's only beside an opposing fortress gate, or with 2 health
    or less (its life less what it took on its way) beside an opposing unit (a landmark minion too) or
    spire; a player's may, with and without, where its faction holds 3 Source or more.
N130 A fortress gate a move's end strikes (Eruption, Glidebomb) loses that much health, down to 0; a
    final board of the step lists it with its health, as a unit whose health changed.
N126 Secret Passage (a landmark's), its health removed (health 0) and no unit on it: a player's hero,
    not Cumbersome, steps onto it as onto a path hex and lands on the hex of an unrevealed landmark on a
    hex group that touches the passage's own (each an outcome), walking on with the movement left; with
    none, it stays on the passage, a path hex. Not a minion, nor an AI unit. After the move the passage
    stands where that landmark stood, the landmark where the passage stood, and the passage has 1 health
    again unless the hero ended its move on it.
N131 Dig, a player's: before its move (then made on the board with the chip) or after it, a Tunnel
    Access chip on a map hex beside the unit, not path terrain, free of units (but itself), spires,
    landmarks and other chips as the move began; each such hex an outcome, or none. The chip is another
    chip from then on: it blocks, and the distances to a mark go round it.
N111 Radiate, a player's: before its move, each unit beside it (any faction's, a landmark minion too, not
    a campfired hero) given one of 1 health or 1 upgrade of a kind it holds, or nothing; every such set
    an outcome, listed in unit order, so long as the giver keeps 1 health and holds what it gives. The
    move is then made on the board so changed.
N133 Magic-Like Missile: 1 damage to a unit on a map hex 3 hexes or fewer from where the unit stands as it
    acts, counted through any node, units where they stood as the move began (not itself, not a
    campfired hero). A player's, with 2 Source or more: before its move (then made on the board so
    changed) or after it, any unit, each an outcome, or none; not a Peaceful one unless the unit is a
    merc. The AI's: after its move, it must hit the opposing unit (a landmark minion too) with the most
    health and fortifications, each tie an outcome; a Peaceful one takes 0 from a unit that is no merc.
N127 Call Minion, a player's, not used this wave (the unit's `used`), its faction holding 2 Source or more:
    before its move (then made on the board with the minion moved) or after it, another minion of its
    faction on a map hex, no group beneath it, sharing its hex with no other unit or spire, teleported to
    a map hex beside the unit that minion admits, with a distance to its mark, free of units (but the
    caller), spires, landmarks and other chips as the move began; each (minion, hex) an outcome, or none.
N355 Yrtel's Will, a player's other choice: "discard an adjacent landmark minion to gain 3 Source" (how cash):
    each landmark minion on a map hex beside the unit, whoever controls it; it leaves play, discarded, not
    defeated; the faction gains 3 up to its capacity; then the unit flips.
N354 Call Minion, Stasis, Possess (N127, N191): a minion that shares its map hex only with the chip it rides or
    the elfinkaze riding it (or the others riding its roost) is one to call or hold (FAQ-05, FAQ-08: both
    active, "not a group"); a roost called carries its riders to where it lands (Roost), a rider called
    leaves its roost, riding nothing.
N353 Summon Hero's "another hero" is any other hero, of any faction, an opposing one too (the wording names
    no side, where Call Minion's says "friendly minion"; docs/movement.md): N128 read it as one of the acting
    hero's faction.
N128 Summon Hero (a revealed landmark's), a player's hero beside it as its move begins or ends, not having
    used it in this move, its faction holding 3 Source or more: another hero, of any faction (N353: "another
    hero" names no side), on a map hex (not campfired, not Cumbersome) teleported to a map hex beside the landmark that hero admits, free of
    units (but the acting hero), spires, landmarks and other chips as the move began, and not the acting
    hero's hex then; each (hero, hex) an outcome, or none.
N110 Twister, a player's: after its move (a stay too), a landmark (no unit, face down or not) or a
    revealed landmark minion within 3 hexes of its end, counted as range is, placed on a map hex beside
    the end, not path terrain, free of units (but itself), spires, landmarks and other chips as the move
    began; each landmark and hex an outcome, or none. Later moves go round the landmark where it stands.
N152 FAQ-07, an elfinkaze carried: each rider on a minion's hex (its `rides`) takes, on every hex of the
    minion's route up to where the minion fell, what moving onto that hex would cost it, but the minion's
    own chip's damage (never beside it, FAQ-05; a recovery counts, N330); it falls where that reaches its health
    and fortifications (the minion goes on). Such damage tells the minion's routes apart as its own does.
N153 Moving onto a roost: a player's elfinkaze, walking as a hero where moving neither hurts it nor rolls
    it dice, may end its move on the hex of another chip of its faction with Roost, a step from a node
    its walk reached with a step to spare; it then rides that chip, its number its movement stat. The
    AI's too (N249).
N250 Save's defeat with no unit recovering ("an adjacent friendly unit may to recover"): after a player's
    move or stay, its act on its own end hex (how: alone), then defeated, beside a friendly unit or none.
    Roost Roam's obligation: a player's elfinkaze off a roost as its move begins whose move ends on no
    chip of its faction with Roost (a stay: on none) must use Glidebomb, or Save (one of its acts), there;
    ending on one, it may.
N249 Moving on from a roost (FAQ-02): an elfinkaze's walk may go on from a roost it moved onto (N153), its
    movement stat now that chip's number, the steps it took still spent, onto other roosts too; not where
    such a walk enters a hex that hurts it or has it roll. Its movement stat once its move ends is the
    last roost's number (``stat`` where it differs from its own): two walks to one end that leave it
    different stats are two outcomes; each shows the first shortest walk in name order among those
    that leave it that stat. The AI's elfinkaze walks so to the ends its wording names (N153's roosts
    among them); off a roost with no opposing hero to reach, the AI hero's choice among its plain ends.
"""

from __future__ import annotations

import dataclasses
import math
from collections import deque
from fractions import Fraction
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import product
from typing import TypeVar

from adjudicator.position.model import Chip, Controller, Kind, Mark, Position, Spire, Terrain, Unit, gate_node
from tests.reference import combat, talents
from tests.reference.sides import opposing
from adjudicator.answers.moves import (
    ESCAPE,
    Act,
    FREE,
    LATERAL,
    PROGRESS,
    RETURN,
    STAY,
    Displacement,
    MoveOutcome,
    StepOutcome,
    StepResult,
    Strike,
    UnitOptions,
)

StepFilter = Callable[[int, str], bool]  # may the route's i-th step (1-based) enter this hex?
Final = tuple[tuple[str, str], ...]  # (unit, node) for the moving faction's units and displaced others, sorted
Health = tuple[tuple[str, int], ...]  # (unit, health) for each unit whose health the step changed
# each final board, with the health and fortification upgrades the step changed, the sides acts flipped and the
# spire upgrades acts stripped, the units and spires acts gave another faction (N194), and one sequence making it
Finals = dict[tuple[Final, Health, Health, tuple[tuple[str, str], ...], tuple[tuple[str, tuple[str, ...]], ...],
                    tuple[tuple[str, int], ...], tuple[tuple[str, str], ...], tuple[tuple[str, str], ...],
                    tuple[tuple[str, tuple[str, ...]], ...]], tuple[MoveOutcome, ...]]


# ---------------------------------------------------------------------------------------- board


def _is_gate(node: str) -> bool:
    return node.startswith("gate:")


def allowance_level(unit: Unit) -> int:
    """How hard a terrain the unit may enter: its own, or the hardest its talents give (allow_gain), which
    lowers no harder allowance (docs/movement.md, The movement stat)."""
    if _cumbersome(unit):
        return Terrain.PATH.level  # Cumbersome: "can move only on path hexes"
    return max((unit.terrain.level, *(t.level for t in talents.results("allow_gain", _written(unit)))))


def _written(chip: Unit | Spire) -> talents.Written:
    """The chip as the talent registry asks it (tests/reference/talents)."""
    return talents.Written("spire" if isinstance(chip, Spire) else "unit", chip.talents)


def _cumbersome(unit: Unit) -> bool:
    """A hero holding the Cumbersome item (a minion holds no item)."""
    return unit.kind is Kind.HERO and "Cumbersome" in unit.talents


def _admits(position: Position, unit: Unit, hex_name: str) -> bool:
    """The unit's terrain allowance admits the hex (game-elements: Terrain Types); a toxic fumes chip's
    hex is a path hex to every unit (Exposure)."""
    return position.hexes[hex_name].terrain.level <= allowance_level(unit) or hex_name in _fumes(position)


def _fumes(position: Position) -> dict[str, int]:
    """Exposure (the toxic fumes chip): "Units may move onto this chip as if it were a path hex": hex →
    the chips on it ("A hex can contain multiple toxic fumes"), each dealing its 1 (docs/movement.md,
    Exposure)."""
    return {chip.at: chip.count for chip in position.chips if "Exposure" in chip.talents}


def _returns(position: Position, hero: Unit) -> bool:
    """Its gate is a fortress it may return to: not a deployment point (Harbinger chapter 1's minaret).
    Only a hero returns: an elfinkaze moving like one (``_roams``) has no such rule (Heroes)."""
    gate = position.gates.get(hero.faction)
    return hero.kind is Kind.HERO and (gate is None or gate.fortress)


def _walks_home(position: Position, hero: Unit) -> bool:
    """The hero may return by its own move: N212, not a heirs hero in Harbinger chapter 2 ("Heroes may not
    be returned to the Horizon's Wrath fortress"; no heirs minion there could displace one into it)."""
    chapter = position.scenario.chapter if position.scenario is not None else None
    return _returns(position, hero) and not (chapter == 2 and hero.faction == "heirs")


def _roams(unit: Unit, ai: bool) -> bool:
    """An elfinkaze moves like a hero (Roost Roam; FAQ-11: the Hero Movement rules), asked alone; the
    AI's walk ends where its own wording says (_roost_roam_choice)."""
    return unit.kind is Kind.MINION and "Roost Roam" in unit.talents


def _on_roost(position: Position, unit: Unit) -> bool:
    """A unit or spire with Roost shares the elfinkaze's hex (Roost: "share a hex with this unit or spire")."""
    here = position.node_of(unit.id)
    return any(u.id != unit.id and u.at == here and "Roost" in u.talents for u in position.units.values()) or any(
        sp.at == here and "Roost" in sp.talents for sp in position.spires)


def _roost_roam_choice(position: Position, unit: Unit, outcomes: list[MoveOutcome]) -> list[MoveOutcome] | None:
    """Roost Roam (AI): "It will use any amount of its movement to get adjacent to an opposing hero.
    Otherwise, it does not move from its Roost. If this unit has multiple hexes it can move onto, it will
    move to the hex that is adjacent to as many opposing units as possible." Its own hex counts where an
    opposing hero is beside it (any amount: none); ties stay ties. Off a roost with no hero to reach, N278;
    None where no opposing minion or spire is in play: the AI hero's choice stands."""
    def foes(node: str, heroes: bool) -> int:
        beside = set(_beside_end(position, node))
        return sum(1 for u in position.units.values() if u.id != unit.id and u.at in beside
                   and opposing(position, u.faction, unit.faction) and (not heroes or u.kind is Kind.HERO))

    near = [o for o in outcomes if o.kind in (FREE, STAY) and foes(o.end, True)]
    if near:
        most = max(foes(o.end, False) for o in near)
        return [o for o in near if foes(o.end, False) == most]
    if _on_roost(position, unit):
        return [o for o in outcomes if o.kind == STAY]
    # N278: "If it cannot, it will move adjacent to the closest opposing minion or spire."
    prey = [u.at for u in position.units.values() if u.id != unit.id and u.at in position.hexes
            and u.kind is not Kind.HERO and opposing(position, u.faction, unit.faction)]
    prey += [sp.at for sp in position.spires if opposing(position, sp.faction, unit.faction)]
    anywhere = lambda _n: True  # noqa: E731 - counted as range is, through anything
    counts = _bfs(position, [position.node_of(unit.id)], anywhere)
    seen = [counts[q] for q in prey if q in counts]
    if not seen or not outcomes:
        return None
    fields = [_bfs(position, [q], anywhere) for q in prey if counts.get(q) == min(seen)]
    gap = {o: min(f.get(o.end, math.inf) for f in fields) for o in outcomes}
    closest = [o for o in outcomes if gap[o] == min(gap.values())]
    most = max(foes(o.end, False) for o in closest)
    return [o for o in closest if foes(o.end, False) == most]


def rock(position: Position, node: str) -> bool:
    """A floating rock (Harbinger chapter 1): "treated like path hexes, except units cannot end their
    movement on them"; read also as no hex a displaced unit may stay on."""
    return node in position.hexes and position.hexes[node].rock


def rolls_on(position: Position, unit: Unit, node: str, ai: bool) -> bool:
    """Chapter 1: "When a unit moves onto a floating rock, it must immediately roll a spire attack
    die ... Units with the talent Flying do not need to roll dice in this way"; event 1-2: "Horizon's
    Wrath units do not need to roll spire attack dice when traversing floating rocks"."""
    scenario = position.scenario
    if scenario is None or scenario.chapter != 1 or not rock(position, node) or _flies(position, unit, ai):
        return False
    return not (unit.faction == "horizons-wrath" and any(e <= 2 for e in scenario.event or ()))


def _rolls_counted(position: Position, unit: Unit, ai: bool) -> bool:
    """The unit may roll as it moves, and the answer counts its dice: not with damage while moving at
    once, nor for a minion leaving invalid terrain (a notice says so)."""
    within = _bfs(position, [position.node_of(unit.id)], lambda _n: True)
    movement = movement_stat(position, unit, ai)
    if not any(rolls_on(position, unit, n, ai) for n, steps in within.items() if steps <= movement):
        return False
    if _hurts_any(position, unit, ai):
        return False
    if unit.kind is not Kind.MINION or unit.at is None:
        return True
    return _admits(position, unit, unit.at) and unit.at in distances(position, unit)


def _chip_hexes(position: Position) -> set[str]:
    """Hexes holding a spire, a landmark (a landmark minion included) or another chip (Distance to
    the mark)."""
    hexes = {spire.at for spire in position.spires} | {landmark.at for landmark in position.landmarks}
    hexes.update(u.at for u in position.units.values() if u.kind is Kind.LANDMARK_MINION and u.at)
    return hexes | _other_chips(position)


def _other_chips(position: Position) -> set[str]:
    """Hexes of other chips: "Units cannot move on or through a hex that contains any other units,
    spires, landmarks, or other chips"; Breakneck passes "units, spires, and landmarks" only. Not a
    toxic fumes chip, a path hex (Exposure)."""
    return {chip.at for chip in position.chips} - set(_fumes(position))


def teleports(position: Position, unit: Unit, ai: bool) -> dict[str, tuple[str, ...]]:
    """The chips the unit may step onto as onto a path hex, each with the hexes it may land on (Riftwalk
    and Naroran Rift): a Riftwalk chip sends it to another Riftwalk chip, unless Stubborn ("cannot ...
    use Riftwalk"); a Naroran Rift spire sends its own faction's units to another chip with either
    talent, unless Cumbersome holds the hero (only Riftwalk is excepted). With nowhere to go, the chip
    is a path hex: it lands where it stepped. Spire Shot ("may move onto friendly non–fortress
    spires"; not for AI units): a player's unit steps onto a spire of its faction whose hex its
    allowance admits, and stays there (docs/movement.md, Spire Shot), unless Cumbersome holds it."""
    riftwalk = {s.at for s in position.spires if "Riftwalk" in s.talents}
    naroran = {s.at for s in position.spires if "Naroran Rift" in s.talents}
    chips: dict[str, set[str]] = {}
    if "Stubborn" not in unit.talents:
        for at in riftwalk:
            chips.setdefault(at, set()).update(riftwalk - {at} or {at})
    if not _cumbersome(unit):
        for spire in position.spires:
            if "Naroran Rift" in spire.talents and spire.faction == unit.faction:
                chips.setdefault(spire.at, set()).update((riftwalk | naroran) - {spire.at} or {spire.at})
    # N168: "AI units" are those of the faction the question plays as the AI, as the solver's ai/1.
    if "Spire Shot" in unit.talents and not ai and not _cumbersome(unit):
        for spire in position.spires:
            if spire.faction == unit.faction and _admits(position, unit, spire.at):
                chips.setdefault(spire.at, set()).add(spire.at)
    if unit.kind is Kind.HERO and not ai and not _cumbersome(unit):
        for at, to in secret_passages(position).items():
            chips.setdefault(at, set()).update(to)
    for at in rigging(position, unit, ai):
        chips.setdefault(at, set()).add(at)
    return {at: tuple(sorted(to)) for at, to in chips.items()}


def rigging(position: Position, unit: Unit, ai: bool) -> dict[str, str]:
    """N168 Rigging (master-talent-list): "Horizon’s Wrath heroes may move onto this spire as if it were a
    path hex. Doing so immediately returns that hero to your fortress and returns this spire to your
    barracks"; not for AI units. Each hex of such a spire the hero may step onto, with the spire."""
    if (unit.faction != "horizons-wrath" or ai or _cumbersome(unit) or not _returns(position, unit)
            or _is_gate(position.node_of(unit.id))):
        return {}
    return {s.at: s.id for s in position.spires if s.faction == unit.faction and "Rigging" in s.talents}


def secret_passages(position: Position) -> dict[str, set[str]]:
    """N126: each open Secret Passage's hex with the hexes a hero stepping onto it may land on."""
    group = position.hex_group()
    standing = {u.at for u in position.units.values()}
    found: dict[str, set[str]] = {}
    for passage in position.landmarks:
        if passage.health != 0 or passage.at in standing:
            continue
        own = group[passage.at]
        touching = {group[n] for h, g in group.items() if g == own for n in position.neighbours(h) if n in group} - {own}
        found[passage.at] = {lm.at for lm in position.landmarks if not lm.revealed and group[lm.at] in touching} \
            or {passage.at}
    return found


def _landings(position: Position, unit: Unit, ai: bool) -> set[str]:
    """The hexes a teleport may land the unit on, where it may then stand."""
    return {to for tos in teleports(position, unit, ai).values() for to in tos}


def _with_landings(position: Position, unit: Unit, d: dict[str, int], ai: bool) -> dict[str, int]:
    """``d`` and the distance of each chip the unit may land on, where it may stand: counted from it as
    from a start, one more than the nearest hex beside it the count reaches (or the mark node)."""
    landed = dict(d)
    for chip in _landings(position, unit, ai):
        # From the count alone: a chip beside another landed on is not reached through it.
        near = [d[n] for n in position.neighbours(chip) if n in d and (n in position.hexes or d[n] == 0)]
        if near:
            landed[chip] = 1 + min(near)
    return landed


def shown_path(position: Position, unit: Unit, nodes: tuple[str, ...], ai: bool) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """A hero's walk as the answers show it (docs/output-format.md): before each hex landed on by a
    teleport, the chip stepped onto (the first in name order where two would do); and the index of
    each such hex."""
    entered: dict[tuple[str, str], str] = {}
    for chip, tos in teleports(position, unit, ai).items():
        for to in tos:
            for left in position.neighbours(chip):
                if to != chip:
                    entered[(left, to)] = min(chip, entered.get((left, to), chip))
    shown, landings = list(nodes[:1]), []
    for left, landed in zip(nodes, nodes[1:]):
        if landed in _landings(position, unit, ai) and (left, landed) in entered:
            shown.append(entered[(left, landed)])
            landings.append(len(shown))
        shown.append(landed)
    return tuple(shown), tuple(landings)


def _route_shown(nodes: tuple[str, ...], rifts: tuple[tuple[int, str], ...]) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """A minion's route as the answers show it: the chip it entered before each hex a teleport landed
    it on (none where the chip, alone, is the hex stepped onto); and the index of each such hex."""
    chips = {i: chip for i, chip in rifts if i < len(nodes) and chip != nodes[i]}
    shown: list[str] = []
    landed: list[int] = []
    for i, node in enumerate(nodes):
        if i in chips:
            shown.append(chips[i])
            landed.append(len(shown))
        shown.append(node)
    return tuple(shown), tuple(landed)


def _units_by_hex(position: Position, mover: str) -> dict[str, Unit]:
    """Every unit on the map but the mover, by hex. N109: a hex an elfinkaze shares with its roost is
    the roost's (Roost: "share a hex with this unit"; game-elements, Movement: no move "on or through a
    hex that contains any other units"): a move enters it only by displacing the roost, which carries
    the elfinkaze along (``apply_move``), never by displacing the elfinkaze alone."""
    return {u.at: u for u in position.units.values() if u.at is not None and u.id != mover and not _riding(position, u)}


def _riding(position: Position, unit: Unit) -> bool:
    """The elfinkaze stands on its roost's hex (a unit's: a spire's hex is no hex to enter)."""
    roost = position.units.get(unit.rides) if unit.rides is not None else None
    return roost is not None and roost.at == unit.at


def _faction_units(position: Position, faction: str) -> list[Unit]:
    return sorted((u for u in position.units.values() if u.faction == faction), key=lambda u: u.id)


def _bfs(position: Position, sources: Iterable[str], passable: Callable[[str], bool]) -> dict[str, int]:
    """Steps from the nearest source to every node reached through passable nodes."""
    dist = dict.fromkeys(sources, 0)
    queue = deque(dist)
    while queue:
        node = queue.popleft()
        for near in sorted(position.neighbours(node)):
            if near not in dist and passable(near):
                dist[near] = dist[node] + 1
                queue.append(near)
    return dist


# ---------------------------------------------------------------------------- the movement stat


def movement_stat(position: Position, unit: Unit, ai: bool) -> int:
    """The stat the unit moves with this turn (docs/movement.md, The movement stat).

    Its printed stat, more by its talents (mv_add), then Cumbersome's "has a movement stat of 2", then
    the least a spire's talent sets it to (smv_set), after any increase. ``ai``: the unit's faction plays
    as the AI.
    """
    start = position.node_of(unit.id)
    stat = unit.side.movement + talents.total("mv_add", _written(unit), position, unit, start, ai)
    if _cumbersome(unit):
        return 2  # "has a movement stat of 2", whatever raised it
    set_to = [n for s in position.spires if (n := talents.least("smv_set", _written(s), position, s, unit, start)) is not None]
    return min((stat, *set_to))


def _ai_wants(position: Position, unit: Unit, node: str) -> bool:
    """The hex is of a terrain the unit's talents want it to end on (ai_end_pref: Gust, Waterwalker)."""
    wanted = set(talents.results("ai_end_pref", _written(unit)))
    return node in position.hexes and position.hexes[node].terrain in wanted


def _ai_end_choice(
    position: Position, unit: Unit, outcomes: list[MoveOutcome], fall_aims: dict[str, frozenset[str]] | None = None,
) -> list[MoveOutcome]:
    """Of the outcomes the AI may take, those ending on a hex its talent wants, when there are any; a hero's
    fall on the way, by the ends it walked to (``fall_aims``, N336)."""
    def aims(o: MoveOutcome) -> frozenset[str]:
        return (fall_aims or {}).get(o.end, frozenset({o.end})) if o.defeated else frozenset({o.end})
    return [o for o in outcomes if any(_ai_wants(position, unit, e) for e in aims(o))] or outcomes


def _ai_end_routes(position: Position, unit: Unit, routes: list[Route], start: str, stay: bool) -> tuple[list[Route], bool]:
    """N241: a minion's preferred ends (Gust, Waterwalker) are the ends of its routes the AI rules leave
    it, not the hex where damage on the way may defeat it: the ends its move chooses among. ``stay``:
    staying on ``start`` is among them. The routes kept, and whether staying is."""
    kept = [r for r in routes if _ai_wants(position, unit, r.end)]
    stays = stay and _ai_wants(position, unit, start)
    return (kept, stays) if kept or stays else (routes, stay)


def _blazes(unit: Unit, ai: bool) -> bool:
    """Blaze (AI), on an AI minion: its routes are what it moves onto (a hero walks)."""
    return ai and unit.kind is Kind.MINION and "Blaze" in unit.talents


def _scorching(unit: Unit) -> bool:
    """Blaze on a minion, the AI's or a player's: what each route moves onto decides what it deals."""
    return unit.kind is Kind.MINION and "Blaze" in unit.talents


def _forest(position: Position, node: str) -> bool:
    return node in position.hexes and position.hexes[node].terrain is Terrain.FOREST


def _onto_forest(position: Position, unit: Unit, routes: list[Route], skip: int, ai: bool) -> list[Route]:
    """Blaze (AI): "If this unit can move onto a forest hex while adhering to AI movement rules, it will
    do so": of the routes the AI rules leave, those that enter a forest hex, its end too, when any does
    (docs/movement.md, Damage dealt while moving). The first ``skip`` steps, an escape's, are not
    counted (a notice says so)."""
    if not _blazes(unit, ai):
        return routes
    return [r for r in routes if _enters_forest(position, r, skip)] or routes


def _enters_forest(position: Position, route: Route, skip: int) -> bool:
    return any(_forest(position, n) for n in route.nodes[1 + skip:])


def _blaze_picks(
    position: Position, unit: Unit, nodes: tuple[str, ...], skip: int, ai: bool
) -> list[tuple[tuple[str, int], ...]]:
    """Blaze (AI): "The first time it moves onto a forest hex that is adjacent to an opposing unit, it
    will deal 1 damage to that adjacent unit": on the first such hex of ``nodes`` (the hexes it walked,
    start first, the first ``skip`` an escape's), one of the opposing units beside it as the move
    began, each a choice; a campfired hero, or a Peaceful unit from a unit that is no merc, takes 0.
    A player's (the shada sheet, Fire): "Once during this unit's movement, after it moves onto a forest
    hex, it may deal 1 damage to an adjacent unit": any unit beside any forest hex of ``nodes``, or none."""
    if not ai and _scorching(unit):
        near = {n for node in nodes[1 + skip:] if _forest(position, node) for n in position.neighbours(node)}
        beside = sorted(u.id for u in position.units.values() if u.id != unit.id and u.at in near)
        return [(), *(((x, _blaze_damage(position.units[x], unit)),) for x in beside)]
    if not _blazes(unit, ai):
        return [()]
    foes = [u for u in position.units.values()
            if u.id != unit.id and u.at in position.hexes and opposing(position, u.faction, unit.faction)]
    for node in nodes[1 + skip:]:
        near = set(position.neighbours(node))
        beside = [u for u in foes if u.at in near]
        if _forest(position, node) and beside:
            return [((u.id, _blaze_damage(u, unit)),) for u in beside]
    return [()]


def _landed_blaze(position: Position, mover: Unit, displaced: tuple[Displacement, ...], ai: bool
                  ) -> list[tuple[tuple[str, int], ...]]:
    """N266: what each unit with Blaze that the route displaces onto a forest hex deals there, one choice
    each (by its side: the moving faction's as asked, another's as its controller): the AI's to one
    opposing unit beside that hex, each a choice; a player's to any unit beside it, or none. Beside it: the
    other units where they stood as the move began, the mover where it then stands (the hex the unit left)."""
    options: list[list[tuple[tuple[str, int], ...]]] = []
    for push in displaced:
        pushed = position.units[push.unit]
        if "Blaze" not in pushed.talents or not _forest(position, push.to):
            continue
        near = set(position.neighbours(push.to))
        plays_ai = _plays_ai(position, pushed.faction, mover, ai)
        beside = [u for u in position.units.values() if u.id not in (pushed.id, mover.id) and u.at in near]
        if push.source in near:
            beside.append(mover)
        if plays_ai:
            foes = [u for u in beside if opposing(position, u.faction, pushed.faction)]
            options.append([((u.id, _blaze_damage(u, pushed)),) for u in foes] or [()])
        else:
            options.append([(), *(((u.id, _blaze_damage(u, pushed)),) for u in beside)])
    return [tuple(p for choice in combo for p in choice) for combo in product(*options)]


def _blaze_damage(target: Unit, unit: Unit) -> int:
    """Blaze's 1, or 0 to a campfired hero, or to a Peaceful unit from a unit that is no merc."""
    return 0 if target.campfire or ("Peaceful" in target.talents and not unit.merc) else 1


# ------------------------------------------------------------------------------------ distances


def distances(position: Position, unit: Unit) -> dict[str, int]:
    """d(n) of every node with a finite distance to the unit's mark (Distance to the mark).

    Counted through map hexes the unit admits that hold no spire, landmark or other chip (a Breakneck
    minion, which may pass spires and landmarks, counts through them too); units do not matter; the step onto the mark
    always counts; the unit's own gate is 1 + the best hex beside it.
    """
    marks = _mark_nodes(position, unit)
    if not marks:
        return {}
    chips = _other_chips(position) if breakneck(unit) else _chip_hexes(position)
    d = _bfs(
        position,
        marks,
        lambda n: n in position.hexes and n not in chips and _admits(position, unit, n),
    )
    own = gate_node(unit.faction)
    gate = position.gates.get(unit.faction)
    beside = [d[h] for h in gate.beside if h in d] if gate is not None else []
    if own not in marks and beside:
        d[own] = 1 + min(beside)
    if _controlled(position, unit) and unit.at in position.hexes and unit.at not in d and _admits(position, unit, unit.at):  # N277
        near = [d[n] for n in position.neighbours(unit.at) if n in d and (n in position.hexes or d[n] == 0)]
        if near:
            d[unit.at] = 1 + min(near)
    return d


def _mark_nodes(position: Position, unit: Unit) -> list[str]:
    """Where the unit's mark is: its own (a Harbinger chapter gives some units one), else its faction's;
    a mark beside a gate or unit (chapter 5's Bydra Graam) is every map hex beside it."""
    mark = unit.mark or position.factions[unit.faction].mark
    if mark.beside is not None:
        near = mark.beside
        node = gate_node(near.gate) if near.gate is not None else position.units[near.unit or ""].at
        return sorted(n for n in position.neighbours(node or "") if n in position.hexes)
    if mark.unit is not None:  # N291: none once the marked unit is off the board
        node = position.units[mark.unit].at
    else:
        node = gate_node(mark.gate) if mark.gate is not None else mark.hex
    return [] if node is None else [node]


def range_distances(position: Position, unit: Unit) -> dict[str, int]:
    """Steps to the faction's mark over every board node, any terrain, through anything.

    The AI hero's measure (The AI's obligations, ai-hero-approach=range; game-elements: Range counts
    occupied hexes and the fortress gate hex).
    """
    mark = unit.mark or position.factions[unit.faction].mark
    if mark.beside is not None:  # hexes to stand on, not a chip to attack: the hero goes as close as it can
        return {}
    return _bfs(position, _mark_nodes(position, unit), lambda _n: True)


# --------------------------------------------------------------------------------------- routes


@dataclass(frozen=True)
class Route:
    nodes: tuple[str, ...]  # start first
    displaced: tuple[Displacement, ...]
    passed: tuple[str, ...] = ()  # hexes it moved through by a talent (Incorporeal)
    # Steps onto a teleporting chip (Riftwalk): (index in ``nodes`` of the hex landed on, chip entered).
    rifts: tuple[tuple[int, str], ...] = ()

    @property
    def plain(self) -> bool:
        """Uses no talent and displaces no one (FAQ-24 weighs both alike)."""
        return not self.displaced and not self.passed and not self.rifts

    def plain_for(self, ai: bool) -> bool:
        """Plain as FAQ-24 weighs it: an AI minion's teleport is weighed by the AI wording instead."""
        return not self.displaced and not self.passed and (ai or not self.rifts)

    @property
    def steps(self) -> int:
        return len(self.nodes) - 1

    @property
    def end(self) -> str:
        return self.nodes[-1]


def may_displace(position: Position, mover: Unit, occupant: Unit, ai: bool) -> bool:
    """May the minion move into the occupant's hex, pushing it out (A minion's move)?

    Its own faction's hero (game-elements: Blocking Movement); or a unit whose talent says "Other
    units may displace this unit": Peaceful, or Flying, of any faction, but not a landmark minion and
    not the mover's marked unit. A player's Flying works only while no chips wait beneath it
    ("Ungrouped only"); the AI's wording has no such limit. ``ai``: the mover's faction plays as the AI.
    """
    if occupant.kind is Kind.HERO and occupant.faction == mover.faction:
        return True
    marked = (mover.mark or position.factions[mover.faction].mark).unit
    if occupant.kind is Kind.LANDMARK_MINION or marked == occupant.id:
        return False
    if _cumbersome(occupant):
        return False  # Cumbersome: "No talent ... may be used to move or teleport this hero"
    # Crush: "may displace opposing faction units that have less health than it does".
    crush = "Crush" in mover.talents and mover.kind is Kind.MINION
    if crush and opposing(position, occupant.faction, mover.faction) and occupant.health < mover.health:
        return True
    on_ai = (ai and occupant.faction == mover.faction) or (
        occupant.faction in position.factions and position.factions[occupant.faction].controller is Controller.AI
    )
    flying = "Flying" in occupant.talents and (on_ai or not occupant.group) and not _hailed(position, occupant)
    return "Peaceful" in occupant.talents or flying


def _hailed(position: Position, flier: Unit) -> bool:
    """Hail: "While an opposing faction unit with the talent Flying is in this unit's range, the
    Flying talent is ignored": range counted as attacks count it, from a Hail unit on the map that is
    not in campfire mode."""
    for hail in position.units.values():
        hostile = opposing(position, hail.faction, flier.faction)
        if "Hail" in hail.talents and hail.at in position.hexes and not hail.campfire and hostile:
            reach = hail.side.range + hail.upgrades.count("range")
            if _bfs(position, [hail.at], lambda _n: True).get(position.node_of(flier.id), reach + 1) <= reach:
                return True
    return False


def stop_hexes(position: Position, unit: Unit) -> set[str]:
    """Mire (harbinger-rulebook, AI Talents): "When an opposing unit moves onto a hex adjacent to this
    unit, its movement immediately ends." The hexes beside an opposing Mire unit on the map, but not
    the unit's start, which it did not move onto (docs/movement.md, Mire); beside an Explosion chip too,
    whoever's unit it is (N347)."""
    start = position.node_of(unit.id)
    return {
        h
        for other in position.units.values()
        if "Mire" in other.talents and opposing(position, other.faction, unit.faction) and other.at in position.hexes
        and not other.campfire  # N170
        for h in position.neighbours(other.at)
        if h in position.hexes and h != start
    } | {h for at in _explosives(position) for h in position.neighbours(at) if h in position.hexes and h != start}


EXPLOSION = "Explosion"


def _explosives(position: Position) -> dict[str, str]:
    """N347: the hex of each Explosion chip on the map, by chip."""
    return {c.at: c.id for c in position.chips if EXPLOSION in c.talents and c.at in position.hexes}


def _exploded(position: Position, unit: Unit, outcomes: list[MoveOutcome]) -> list[MoveOutcome]:
    """N347: each outcome ending on a map hex beside Explosion chips it moved onto, once their D6s are rolled."""
    chips = _explosives(position)
    start = position.node_of(unit.id)
    found: list[MoveOutcome] = []
    for o in outcomes:
        beside = sorted(c for at, c in chips.items() if o.end in position.neighbours(at))
        if not beside or o.end == start or o.end not in position.hexes or o.defeated:
            found.append(o)
            continue
        left = life(unit) - o.damage
        dice = 0 if "Peaceful" in unit.talents else len(beside)
        lost: dict[int, Fraction] = {}
        for faces in product(range(1, 7), repeat=dice):
            n = min(sum(faces), left)
            lost[n] = lost.get(n, Fraction(0)) + Fraction(1, 6 ** dice)
        acts = (*o.acts, *(Act("after", EXPLOSION, c, "explode") for c in beside))
        found += [dataclasses.replace(o, damage=o.damage + n, defeated=n >= left, chance=p, acts=acts)
                  for n, p in sorted(lost.items())]
    return found


def _flies(position: Position, unit: Unit, ai: bool) -> bool:
    """Its Flying works in this movement: "Ungrouped only" for a player's unit, always for the AI's
    (``ai``: its faction plays as the AI), unless a Hail unit has it ignored."""
    on_ai = ai or position.factions[unit.faction].controller is Controller.AI if unit.faction in position.factions else ai
    return "Flying" in unit.talents and (on_ai or not unit.group) and not _hailed(position, unit)


def hurt(position: Position, unit: Unit, node: str, ai: bool) -> int:
    """What moving, or being displaced, onto ``node`` costs the unit (FAQ-07): 1 for each chip beside
    it, where the chips stood as the move began, with Toxic Secretion ("If a non-griege unit moves
    onto a hex adjacent to this unit, deal it 1 damage") or Lahar ("When an opposing unit without
    Flying moves onto a hex adjacent ..."); 1 for each toxic fumes chip on it ("When a non-griege unit
    moves onto this chip, deal 1 damage to it", Exposure: no merc, so none to a Peaceful unit);
    Peaceful takes damage from merc chips only. Negative: health gained instead (chapter 8, _heals)."""
    if node not in position.hexes:
        return 0
    fumes = _fumes(position).get(node, 0) if unit.faction != "griege" and "Peaceful" not in unit.talents else 0
    # N170: a hero in campfire mode is inactive, its talents acting on no one.
    chips = [(u, u.faction, u.at, u.talents, u.merc) for u in position.units.values()
             if u.id != unit.id and u.at in position.hexes and not u.campfire]
    chips += [(None, s.faction, s.at, s.talents, s.merc) for s in position.spires]
    total = 0
    for source, faction, at, talents, merc in chips:
        healing = source is not None and _heals(position, source, unit)
        if node not in position.neighbours(at) or ("Peaceful" in unit.talents and not merc and not healing):
            continue
        dealt = ("Toxic Secretion" in talents and unit.faction != "griege") + (
            "Lahar" in talents and opposing(position, faction, unit.faction) and not _flies(position, unit, ai))
        total += -dealt if healing else dealt
    return fumes + total - _refreshed(position, unit, node, ai)


def _refresh_spires(position: Position, ai: bool) -> list[tuple[str, str]]:
    """The hex of each spire whose Refresh acts, with the faction whose units it heals (harbinger-rulebook,
    AI Talents: "If this spire is on a water hex, shada units recover 1 health"; a player's, the shada
    sheet's Water Tower: "your units recover 1 health"): on water; played by the AI (AI-controlled, or
    the one moving when ``ai``), the shada's, else its own faction's."""
    def as_ai(faction: str) -> bool:
        controlled = faction in position.factions and position.factions[faction].controller is Controller.AI
        return controlled or (ai and faction == position.turn.faction)

    return [(s.at, "shada" if as_ai(s.faction) else s.faction) for s in position.spires if "Refresh" in s.talents
            and s.at in position.hexes and position.hexes[s.at].terrain is Terrain.WATER]


def _refreshed(position: Position, unit: Unit, node: str, ai: bool) -> int:
    """Refresh: "... recover 1 health when they move into a hex adjacent to this spire (once per unit per
    turn)": 1 where ``node`` is beside such a spire healing the unit's faction, for a unit below its
    health stat (a recovery never passes it). Once per move: ``floor``."""
    if unit.health >= unit.side.health:
        return 0
    return int(any(node in position.neighbours(at) for at, heals in _refresh_spires(position, ai)
                   if heals == unit.faction))


def floor(position: Position, unit: Unit, ai: bool) -> int | None:
    """The least a unit may have taken as it moves: -1 for one Refresh may heal (once per move),
    None (no bound) for any other."""
    healable = unit.health < unit.side.health
    return -1 if healable and any(heals == unit.faction for _, heals in _refresh_spires(position, ai)) else None


def _floored(taken: int, least: int | None) -> int:
    return taken if least is None else max(taken, least)


def _heals(position: Position, source: Unit, unit: Unit) -> bool:
    """Harbinger chapter 8: "When a naroran unit would cause a Graft unit to lose health, The Graft
    unit instead gains that amount of health. This may exceed its health stat." A unit's, not a
    spire's; landmark minions are no faction's."""
    chapter = position.scenario.chapter if position.scenario is not None else None
    return (chapter == 8 and source.faction == "narora" and unit.faction == "graft"
            and Kind.LANDMARK_MINION not in (source.kind, unit.kind))


def _hurts_any(position: Position, unit: Unit, ai: bool) -> bool:
    """Some hex within the unit's movement of where it stands, whatever stands between, would cost it
    something, or a rider it carries (N152): then its routes and walks are told apart by their damage."""
    start = position.node_of(unit.id)
    within = _bfs(position, [start], lambda _n: True)
    movement = movement_stat(position, unit, ai)
    return any(hurt(position, unit, n, ai) or any(_carried_hurt(position, unit, r, n, ai) for r in _riders(position, unit))
               for n, steps in within.items() if steps <= movement)


def _riders(position: Position, unit: Unit) -> list[Unit]:
    """N152: the elfinkaze riding a minion on its hex, which its move carries (Roost)."""
    if unit.kind is not Kind.MINION or unit.at is None:
        return []
    return [u for u in position.units.values() if u.rides == unit.id and u.at == unit.at]


def _carried_hurt(position: Position, roost: Unit, rider: Unit, node: str, ai: bool) -> int:
    """N152: what being carried onto ``node`` costs ``rider``: what moving there would, but the roost's
    own damage; a recovery counts (N330), once per move (``floor``, where it is summed)."""
    without = dataclasses.replace(position, units={k: v for k, v in position.units.items() if k != roost.id})
    return hurt(without, rider, node, ai)


def life(unit: Unit) -> int:
    """Health and fortification upgrades together: a fortification is lost first (FAQ-29)."""
    return unit.health + unit.upgrades.count("fortification")


def breakneck(unit: Unit) -> bool:
    """Breakneck: "may pass through units, spires, and landmarks but cannot end its movement on an
    occupied hex"; "must make as much progress as possible" (docs/movement.md, Breakneck). A minion's
    or a hero's (N269, N270; its distance counted through spires and landmarks too)."""
    return unit.kind in (Kind.MINION, Kind.HERO) and "Breakneck" in unit.talents


def may_pass(position: Position, mover: Unit, occupant: Unit) -> bool:
    """May the minion move through the occupant's hex without ending there? Incorporeal: "may move
    through opposing units but cannot end its movement on the same hex as another unit"; a landmark
    minion is a landmark, not passed. Breakneck: any unit."""
    if breakneck(mover):
        return True
    return (
        "Incorporeal" in mover.talents
        and mover.kind is Kind.MINION
        and occupant.kind is not Kind.LANDMARK_MINION
        and opposing(position, occupant.faction, mover.faction)
    )


def _crushable(position: Position, mover: Unit) -> set[str]:
    """The hexes of the units Crush lets the minion displace (N242: its AI wording "will displace" them)."""
    if "Crush" not in mover.talents or mover.kind is not Kind.MINION:
        return set()
    return {u.at for u in position.units.values() if u.at is not None and u.id != mover.id and not _cumbersome(u)
            and u.kind is not Kind.LANDMARK_MINION and opposing(position, u.faction, mover.faction)
            and u.health < mover.health and (mover.mark or position.factions[mover.faction].mark).unit != u.id}


def displaced_landings(
    position: Position, pushed: Unit, left: str, free: Callable[[str], bool], held: bool = False
) -> list[str]:
    """Where a unit displaced into the node the minion ``left`` may end up; none: it cannot be.

    A hero's own gate: it has returned.  Any other gate, terrain its allowance does not admit, or a
    hex ``held`` by what the minion passed through there, goes by the reading displaced-landing
    (Displaced units); a held hex is never a landing.
    """
    if _is_gate(left):
        if pushed.kind is Kind.HERO and left == gate_node(pushed.faction) and _returns(position, pushed):
            return [left]
    elif not held and not rock(position, left) and _admits(position, pushed, left):
        return [left]
    rule = position.readings.get("displaced-landing", "adjacent")
    itself = [] if _is_gate(left) or held or rock(position, left) else [left]
    if rule == "blocked":
        return []
    if rule == "swap":
        return itself
    spots = [h for h in sorted(position.neighbours(left)) if h in position.hexes and free(h) and not rock(position, h)]
    return [h for h in spots if _admits(position, pushed, h)] or spots or itself


def minion_routes(
    position: Position, unit: Unit, max_steps: int, may_enter: StepFilter, ai: bool, escaped: int = 0
) -> Iterator[Route]:
    """Every simple route of at most ``max_steps`` steps, with every landing of displaced units.

    A route enters free map hexes only, never a gate, never a hex it has been on (Blocking); it may
    enter the hex of a unit it may displace, which swaps into the hex just left (A minion's move).
    A unit that cannot stand there goes by ``displaced_landings``: beside it means on a hex free on
    the board before the move (or the minion's start), never one the minion enters later; two
    displaced units never land on one hex, and a route whose units cannot all land is no route.
    """
    start = position.node_of(unit.id)
    chips = _chip_hexes(position) - {start}  # N337: a landmark minion that moves leaves its hex free
    inert = _other_chips(position)
    others = _units_by_hex(position, unit.id)
    stops = stop_hexes(position, unit)
    chutes = teleports(position, unit, ai)
    counted = _with_landings(position, unit, distances(position, unit), ai)  # a chip landed on leads to the mark

    def landings(
        nodes: tuple[str, ...], pushes: list[tuple[Unit, int]], passed: tuple[str, ...]
    ) -> Iterator[tuple[Displacement, ...]]:
        options = []
        for pushed, step in pushes:
            taken = {nodes[step], *nodes[step + 1 :]} | chips | set(others)

            def free(h: str, taken: set[str] = taken) -> bool:
                return h not in taken

            left = nodes[step - 1]
            landed = displaced_landings(position, pushed, left, free, left in passed)
            options.append([Displacement(pushed.id, nodes[step], to) for to in landed])
        for combo in product(*options):
            ends = [d.to for d in combo if not _is_gate(d.to)]
            if len(ends) == len(set(ends)):
                yield tuple(sorted(combo))

    def extend(
        nodes: tuple[str, ...], pushes: list[tuple[Unit, int]], passed: tuple[str, ...] = (),
        rifts: tuple[tuple[int, str], ...] = (),
    ) -> Iterator[Route]:
        if nodes[-1] not in passed and not rock(position, nodes[-1]):
            for displaced in landings(nodes, pushes, passed):
                yield Route(nodes, displaced, passed, rifts)
        if len(nodes) - 1 == max_steps or nodes[-1] in stops:  # Mire: its move ends there
            return
        for near in sorted(position.neighbours(nodes[-1])):
            if near in nodes[escaped:] or near not in position.hexes or near in inert:
                continue
            if near in chutes:
                # Onto the chip as onto a path hex, landing on another, never where it has been nor on a
                # chip it entered (Making Progress: not "back onto a hex they have already moved out
                # of"); an escape from invalid terrain takes no teleport.
                entered = {chip for _, chip in rifts}
                if len(nodes) > escaped and near not in nodes and near not in entered:
                    for landed in chutes[near]:
                        if (landed == near or landed not in nodes) and landed not in entered and landed in counted:
                            yield from extend((*nodes, landed), pushes, passed, (*rifts, (len(nodes), near)))
                continue
            if near in chips and not breakneck(unit):
                continue
            if near in nodes and not rock(position, near):  # the encoding's gap: see escape_rock in minion.lp
                continue
            if not may_enter(len(nodes), near):
                continue
            occupant = others.get(near)
            if near in chips:
                yield from extend((*nodes, near), pushes, (*passed, near), rifts)
            elif occupant is None:
                yield from extend((*nodes, near), pushes, passed, rifts)
            else:
                # N242: a unit it may both displace and pass through, it may pass (never at its end).
                if may_displace(position, unit, occupant, ai):
                    yield from extend((*nodes, near), [*pushes, (occupant, len(nodes))], passed, rifts)
                if may_pass(position, unit, occupant):
                    yield from extend((*nodes, near), pushes, (*passed, near), rifts)

    yield from extend((start,), [])


def _group(position: Position, unit: Unit, routes: list[Route], kind: str, ai: bool, uncounted: int = 0) -> list[MoveOutcome]:
    """One outcome per (end, displaced, damage taken): its first route in name order, and how many
    routes. Damage while moving (docs/movement.md): each hex entered costs what ``hurt`` says, an
    escape's too (N297; its first ``uncounted`` steps keep their dice and Blaze uncounted); a unit
    the damage defeats stops there, and displaces no one it had not yet reached (N265). A teleport onto a chip
    a unit stands on defeats that unit (Riftwalk: "those units are defeated")."""
    # outcome -> {(nodes, the route as shown, where that shows a teleport's landing)}
    by_key: dict[tuple[str, tuple[Displacement, ...], int, bool, int, tuple[Strike, ...], tuple[str, ...]],
                 set[tuple[tuple[str, ...], tuple[str, ...], tuple[int, ...]]]] = {}
    counted = not uncounted and _rolls_counted(position, unit, ai)
    least = floor(position, unit, ai)
    for route in routes:
        taken, nodes, fell = 0, route.nodes, False
        rolls = sum(rolls_on(position, unit, n, ai) for n in route.nodes[1:]) if counted else 0
        chips = {i: chip for i, chip in route.rifts if chip != route.nodes[i]}
        for i, node in enumerate(route.nodes[1:], start=1):
            # N245: a teleport moves it onto the chip's hex, then onto the hex it lands on.
            for entered in (chips[i], node) if i in chips else (node,):
                taken = _floored(taken + hurt(position, unit, entered, ai), least)
                if taken >= life(unit):
                    taken, nodes, fell = life(unit), (*route.nodes[:i], entered), True
                    break
            if fell:
                break
        # N265: a unit displaced on a hex walked (the one it fell on too) stays displaced.
        displaced = tuple(sorted(_landed(position, unit, d, ai) for d in route.displaced if d.source in nodes))
        carried = tuple(sorted((*_carried(position, unit, _entered(nodes, chips)[uncounted:], ai),
                                *(r for d in displaced for r in _landed_riders(position, d, ai)))))
        landed = {nodes[i] for i, chip in route.rifts if i < len(nodes) and chip != nodes[i]}
        felled = tuple(sorted(u.id for u in position.units.values() if u.at in landed and u.id != unit.id))
        robbed = _robbed(position, unit, nodes, displaced)  # N217: routes that take different Source differ
        for picks, pushed in product(_blaze_picks(position, unit, nodes, uncounted, ai),
                                     _landed_blaze(position, unit, displaced, ai)):
            dealt: dict[str, int] = {}
            for x, n in (*picks, *pushed):
                dealt[x] = dealt.get(x, 0) + n
            # N266: what the mover takes of it, only where it takes nothing else and rolls no dice on its way.
            mine = dealt.pop(unit.id, 0)
            taken_too = mine if not taken and not rolls and 0 < mine < life(unit) else 0  # else a notice
            struck = tuple(sorted(Strike(x, n, n >= life(position.units[x])) for x, n in dealt.items() if n))
            by_key.setdefault((nodes[-1], displaced, taken + taken_too, fell, rolls, struck, felled, carried, robbed),
                              set()).add((nodes, *_route_shown(nodes, route.rifts)))
    return [
        MoveOutcome(unit.id, end, kind, displaced, min(paths)[1], len({nodes for nodes, *_ in paths}), taken, fell,
                    rolls, struck=struck, felled=felled, landed=min(paths)[2], carried=carried, robbed=robbed,
                    pocket=bool(robbed) and not ai)
        for (end, displaced, taken, fell, rolls, struck, felled, carried, robbed), paths in by_key.items()
    ]


def _landed_riders(position: Position, d: Displacement, ai: bool) -> list[tuple[str, int, bool]]:
    """N303: (rider, damage, defeated) for each elfinkaze riding the displaced unit ``d.unit`` on its hex, where that
    unit lands on a map hex: what moving onto it would cost the rider, but the roost's own damage (a recovery
    counts, N330)."""
    roost = position.units[d.unit]
    if d.to not in position.hexes:
        return []
    without = dataclasses.replace(position, units={k: v for k, v in position.units.items() if k != roost.id})
    found = []
    for rider in (u for u in position.units.values() if u.rides == roost.id and u.at == roost.at):
        taken = _floored(hurt(without, rider, d.to, ai), floor(position, rider, ai))
        if taken:
            fell = taken >= life(rider)
            found.append((rider.id, life(rider) if fell else taken, fell))
    return found


def _entered(nodes: tuple[str, ...], chips: dict[int, str]) -> tuple[str, ...]:
    """N245: the hexes a route moves onto, its start not: before each hex a teleport lands it on, the chip
    it steps onto (a route that fell on a chip ends with it)."""
    return tuple(h for i, node in enumerate(nodes[1:], start=1)
                 for h in ((chips[i], node) if i in chips and node != chips[i] else (node,)))


def _carried(position: Position, roost: Unit, entered: tuple[str, ...], ai: bool) -> tuple[tuple[str, int, bool], ...]:
    """N152: (rider, damage, defeated) for each rider the hexes ``entered`` cost something."""
    found = []
    for rider in _riders(position, roost):
        taken, fell, least = 0, False, floor(position, rider, ai)
        for node in entered:
            taken = _floored(taken + _carried_hurt(position, roost, rider, node, ai), least)
            if taken >= life(rider):
                taken, fell = life(rider), True
                break
        if taken:
            found.append((rider.id, taken, fell))
    return tuple(sorted(found))


def _landed(position: Position, mover: Unit, push: Displacement, ai: bool) -> Displacement:
    """A displaced unit takes what hurts it where it lands (FAQ-07), and Crush's "It deals 2 damage to
    each unit it displaces", to an opposing unit (docs/movement.md, Crush), not to a Peaceful one but
    from a merc."""
    pushed = position.units[push.unit]
    own = ai and pushed.faction == position.turn.faction
    taken = hurt(position, pushed, push.to, own)
    if _heals(position, mover, pushed) and "Crush" in mover.talents and opposing(position, pushed.faction, mover.faction):
        taken -= 2
    elif "Crush" in mover.talents and opposing(position, pushed.faction, mover.faction) and ("Peaceful" not in pushed.talents or mover.merc):
        taken += 2
    taken = _floored(taken, floor(position, pushed, own))
    return dataclasses.replace(push, damage=taken, defeated=taken >= life(pushed)) if taken else push


def _stay(unit: str, node: str) -> MoveOutcome:
    return MoveOutcome(unit, node, STAY, (), (node,), 1)


# ------------------------------------------------------------------------------------- minions


@dataclass(frozen=True)
class _Plan:
    """What a minion's routes are measured against and how they are restricted."""

    d: dict[str, int]
    d0: int | None  # None: no valid hex can be reached; the minion stays
    first_step: int  # the shortest route that may end the move: k* on invalid terrain, else 1
    may_enter: StepFilter
    escape: bool  # k* > M: it only moves M steps toward valid terrain
    escaping: int = 0  # k* on invalid terrain: steps along which damage is not counted (a notice says so)


def _minion_plan(position: Position, unit: Unit, ai: bool) -> _Plan:
    """Start distance and route restrictions (A minion's move; Invalid terrain)."""
    d = _with_landings(position, unit, distances(position, unit), ai)
    start = position.node_of(unit.id)

    def valid(n: str) -> bool:
        return n in position.hexes and n in d and _admits(position, unit, n)

    if start in d and (_is_gate(start) or _admits(position, unit, start)):
        # A hex that does not lead to its mark is invalid terrain, which no route enters (Invalid terrain):
        # once a teleport may land a minion apart from the hexes the distance counts, not every hex its
        # terrain admits leads there.
        return _Plan(d, d[start], 1, lambda _i, n: valid(n), escape=False)
    if _is_gate(start):
        # Not on terrain, so the invalid-terrain rule does not apply: a gate that does not lead to
        # the mark is never left.
        return _Plan(d, None, 1, lambda _i, _n: False, escape=False)

    # Invalid terrain: k* counts free hexes it could enter (by the reading escape-route, only those
    # its allowance admits, or any terrain); the escape displaces no one (docs/movement.md).
    chips = _chip_hexes(position)
    others = _units_by_hex(position, unit.id)
    any_terrain = position.readings.get("escape-route", "any") == "any"

    def enterable(n: str) -> bool:
        free = n in position.hexes and n not in chips and n not in others
        return free and (any_terrain or _admits(position, unit, n))

    targets = [n for n in position.hexes if enterable(n) and valid(n) and not rock(position, n)]
    to_valid = _bfs(position, targets, enterable)
    from_start = _bfs(position, [start], enterable)
    reached = [t for t in targets if t in from_start]
    if not reached:
        return _Plan(d, None, 1, lambda _i, _n: False, escape=False)
    k_star = min(from_start[t] for t in reached)
    d0 = k_star + min(d[t] for t in reached if from_start[t] == k_star)

    def may_enter(i: int, n: str) -> bool:
        # The first k* steps follow a shortest route to valid terrain; later steps use valid hexes.
        return to_valid.get(n) == k_star - i if i <= k_star else valid(n)

    return _Plan(d, d0, k_star, may_enter, escape=k_star > movement_stat(position, unit, ai), escaping=k_star)


def _needed(position: Position, routes: list[Route], ai: bool) -> list[Route]:
    """Displacing routes only when no plain one does as well (displacement=needed; FAQ-24)."""
    plain = [r for r in routes if r.plain_for(ai)]
    return plain if plain and position.readings.get("displacement", "needed") == "needed" else routes


def _minion_outcomes(position: Position, unit: Unit, plan: _Plan, ai: bool) -> list[MoveOutcome]:
    """The outcomes the rules give, then Rooted's: staying beside a spire (docs/movement.md, Holding
    still)."""
    outcomes = _moving_outcomes(position, unit, plan, ai)
    progress = any(o.kind == PROGRESS for o in outcomes)
    if not _rooted_stays(position, unit, ai, progress):
        return outcomes
    stay = _stay(unit.id, position.node_of(unit.id))
    return [stay] if ai else [o for o in outcomes if o.kind != STAY] + [stay]


def _rooted_stays(position: Position, unit: Unit, ai: bool, progress: bool) -> bool:
    """Rooted, on a map hex next to a spire, unless it owes a move (must-move) and can make progress
    now; the AI only when some valid target would take damage from its attack from there."""
    spires = {s.at for s in position.spires}
    if "Rooted" not in unit.talents or unit.at is None or not spires & set(position.neighbours(unit.at)):
        return False
    if unit.must_move and progress:
        return False
    if not ai:
        return True
    return any(amount >= 1 for amount in combat.damage_now(position, unit.id).values())


def _moving_outcomes(position: Position, unit: Unit, plan: _Plan, ai: bool) -> list[MoveOutcome]:
    start = position.node_of(unit.id)
    movement = movement_stat(position, unit, ai)
    if plan.d0 is None or movement == 0:
        return [_stay(unit.id, start)]
    routes = list(minion_routes(position, unit, movement, plan.may_enter, ai, plan.escaping))
    stops = stop_hexes(position, unit)
    # An escape ends early where Mire stops it (docs/movement.md, Mire).
    stopped = [r for r in routes if 0 < r.steps < plan.first_step and r.end in stops]
    if plan.escape:
        # Invalid terrain, k* > M: M steps along a shortest route, displacing no one; any such end
        # is the AI's too. Fewer where the M-th hex is a floating rock: as many as end elsewhere.
        longest = max((r.steps for r in routes if r.steps > 0), default=0)
        if not longest:
            return [_stay(unit.id, start)]
        chosen = [r for r in routes if r.steps == longest or r in stopped]
        escapes = _group(position, unit, chosen, ESCAPE, ai, movement)
        return _ai_end_choice(position, unit, escapes) if ai else escapes
    routes = [r for r in routes if r.steps >= plan.first_step]
    progressing = [r for r in routes if r.end in plan.d and plan.d[r.end] < plan.d0]
    if ai:  # "if they have enough movement to move off of the chip they teleport to"
        progressing = [r for r in progressing if r.end not in _landings(position, unit, ai)]
    if not progressing and stopped:
        # Every shortest route to valid terrain is stopped before it: a stopped escape.
        escapes = _group(position, unit, stopped, ESCAPE, ai, movement)
        return _ai_end_choice(position, unit, escapes) if ai else escapes
    if progressing:
        # Full movement with progress, else as much as possible (Kd); FAQ-17, FAQ-20, FAQ-30. By the
        # reading stop-counts=full, a route Mire ends counts as using all the movement it had.
        full = position.readings.get("stop-counts", "walked") == "full"

        def used(r: Route) -> int:
            return movement if full and r.end in stops else r.steps

        longest = max(used(r) for r in progressing)
        longest_routes = [r for r in progressing if used(r) == longest]
        # Breakneck's own "must" outweighs FAQ-24's "not required": any route of the longest.
        chosen = longest_routes if breakneck(unit) else _needed(position, longest_routes, ai)
        if ai or breakneck(unit):  # the AI (FAQ-30), and Breakneck, take the ends closest to the mark
            best = min(plan.d[r.end] for r in chosen)
            chosen = [r for r in chosen if plan.d[r.end] == best]
        if ai and "Incorporeal" in unit.talents:  # N242: "will pass through opposing units if able"
            chosen = [r for r in chosen if not any(o.nodes == r.nodes and set(o.passed) > set(r.passed)
                                                   and set(o.passed) - set(r.passed) - _crushable(position, unit)
                                                   for o in chosen)]
        if ai and any(not r.rifts for r in chosen):  # Riftwalk (AI): only for greater progress
            chosen = [r for r in chosen if not r.rifts]
        chosen = _onto_forest(position, unit, chosen, plan.escaping, ai)
        if ai:
            chosen, _ = _ai_end_routes(position, unit, chosen, start, stay=False)
        return _group(position, unit, chosen, PROGRESS, ai, plan.escaping)
    # No progress: a lateral move that displaces no one, by a shortest route, or stay (FAQ-17, 30).
    if _hurts_any(position, unit, ai) or _rolls_counted(position, unit, ai) or _scorching(unit):
        # Where moving may hurt it, roll dice or deal damage, each route's damage or dice are part of
        # its outcome: every simple route. Blaze takes one onto a forest hex where one is (no stay then).
        sideways = [r for r in routes if r.plain and r.end != start and plan.d.get(r.end) == plan.d0]
        blazing = _onto_forest(position, unit, sideways, 0, ai)
        onto = _blazes(unit, ai) and any(_enters_forest(position, r, 0) for r in blazing)
        stays = not onto
        if ai:
            blazing, stays = _ai_end_routes(position, unit, blazing, start, stays)
        return _group(position, unit, blazing, LATERAL, ai) + ([_stay(unit.id, start)] if stays else [])
    lateral: dict[str, tuple[int, tuple[str, ...]]] = {}
    for r in routes:
        if r.plain and r.end != start and plan.d.get(r.end) == plan.d0:
            lateral[r.end] = min(lateral.get(r.end, (r.steps, r.nodes)), (r.steps, r.nodes))
    sideways = [MoveOutcome(unit.id, end, LATERAL, (), nodes, 1) for end, (_, nodes) in lateral.items()]
    ends = sideways + [_stay(unit.id, start)]
    return _ai_end_choice(position, unit, ends) if ai else ends


# -------------------------------------------------------------------------------------- heroes


def _first_shortest_routes(position: Position, hero: Unit, movement: int, ai: bool,
                           through: frozenset[str] = frozenset()) -> dict[str, tuple[str, ...]]:
    """Every node the hero reaches within its movement, with its first shortest route in name order.

    Through free map hexes it admits, and those its talents let it move through (``through``, N269: the
    caller ends on none); its own gate ends the move (Heroes: Returning).  Layer by layer, the first
    route to a node extends the first route to one of its predecessors.
    """
    start = position.node_of(hero.id)
    own = gate_node(hero.faction)
    chips = _chip_hexes(position)
    others = _units_by_hex(position, hero.id)
    stops = stop_hexes(position, hero) | set(rigging(position, hero, ai))  # Rigging: "immediately"
    chutes = teleports(position, hero, ai)

    def enterable(n: str) -> bool:
        if n in position.hexes:
            return n in through or (n not in chips and n not in others and _admits(position, hero, n))
        return n == own and _walks_home(position, hero)

    best = {start: (start,)}
    layer = [start]
    for _ in range(movement):
        reached: dict[str, tuple[str, ...]] = {}
        for node in layer:
            for near in position.neighbours(node):
                # A teleporting chip: one step onto it lands the hero on the hex it sends it to.
                for landed in chutes.get(near, ()):
                    if landed not in best:
                        route = (*best[node], landed)
                        reached[landed] = min(reached.get(landed, route), route)
                if near not in best and enterable(near):
                    route = (*best[node], near)
                    reached[near] = min(reached.get(near, route), route)
        best.update(reached)
        layer = [n for n in reached if not _is_gate(n) and n not in stops]  # Mire ends the walk
    return best


def _state_walks(
    position: Position, hero: Unit, movement: int, enter: Callable[[int, str], int], spent: Callable[[int], bool],
    chutes: dict[str, tuple[str, ...]] | None = None, halts: frozenset[str] = frozenset(),
    ways: dict[tuple[tuple[str, int], bool], int] | None = None,
) -> dict[tuple[str, int], tuple[str, ...]]:
    """Every (node, count) a hero's walks reach, each hex entered changing the count (``enter``), with
    the first walk in name order among the shortest. It "may move in any direction", so a walk may
    enter a hex again, its start included; none goes on from a ``spent`` count or a hex that stops it
    (or one of ``halts``: Rigging's). N245: a step onto a teleporting chip of ``chutes`` enters the
    chip's hex, then the hex it lands on; a count spent on the chip's hex ends the walk there. ``ways``
    gets the fewest steps to each state, by whether it ends on a chip it stepped onto (True) or not."""
    start = position.node_of(hero.id)
    chips = _chip_hexes(position)
    others = _units_by_hex(position, hero.id)
    stops = stop_hexes(position, hero) | halts
    chutes = chutes or {}
    best = {(start, 0): (start,)}
    layer = [(start, 0)]
    for _ in range(movement):
        reached: dict[tuple[str, int], tuple[str, ...]] = {}
        for node, count in layer:
            if spent(count) or node in stops:
                continue
            for near in position.neighbours(node):
                for landed in chutes.get(near, ()):
                    on_chip = enter(count, near)
                    state = (near, on_chip) if landed == near or spent(on_chip) else (landed, enter(on_chip, landed))
                    if ways is not None:
                        way = (state, landed != near and spent(on_chip))
                        ways[way] = min(ways.get(way, len(best[(node, count)])), len(best[(node, count)]))
                    if state not in best:
                        route = (*best[(node, count)], state[0])
                        reached[state] = min(reached.get(state, route), route)
                free = near in position.hexes and near not in chips and near not in others
                # An elfinkaze may move back onto its own roost (Roost: "share a hex with this unit or
                # spire by moving onto it"), whose number it keeps (FAQ-02).
                home = near == start and hero.rides is not None
                if (free or home) and _admits(position, hero, near):
                    state = (near, enter(count, near))
                    if ways is not None:
                        ways[(state, False)] = min(ways.get((state, False), len(best[(node, count)])), len(best[(node, count)]))
                    if state not in best:
                        route = (*best[(node, count)], near)
                        reached[state] = min(reached.get(state, route), route)
        best.update(reached)
        layer = list(reached)
    return best


def _hurt_walks(position: Position, hero: Unit, movement: int, ai: bool,
                ways: dict[tuple[tuple[str, int], bool], int] | None = None) -> dict[tuple[str, int], tuple[str, ...]]:
    """A hero that moving may hurt: the damage taken, capped at its life, where it is defeated and
    walks no further."""
    full, least = life(hero), floor(position, hero, ai)
    return _state_walks(position, hero, movement,
                        lambda taken, near: min(_floored(taken + hurt(position, hero, near, ai), least), full),
                        lambda taken: taken >= full, teleports(position, hero, ai), frozenset(rigging(position, hero, ai)),
                        ways)


def _hurt_hero_outcomes(
    position: Position, hero: Unit, ai: bool, fall_aims: dict[str, frozenset[str]] | None = None,
) -> list[MoveOutcome]:
    """Every end with every damage some walk there costs, and every hex a walk may end with its
    defeat; returning to the fortress through hexes it reaches undefeated (docs/movement.md, Damage
    while moving). An AI hero's: ``fall_aims`` gets, for each hex it may fall on, the ends its rules
    leave it that it falls there on the way to (N336)."""
    start = position.node_of(hero.id)
    movement = movement_stat(position, hero, ai)
    full = life(hero)
    ways: dict[tuple[tuple[str, int], bool], int] = {}
    walks = _hurt_walks(position, hero, movement, ai, ways)
    outcomes = [_stay(hero.id, start)]
    rigged = rigging(position, hero, ai)
    for (end, taken), route in walks.items():
        if len(route) > 1 and (end != start or taken != 0) and (taken >= full or not rock(position, end)):
            path, landed = shown_path(position, hero, route, ai)
            outcome = MoveOutcome(hero.id, end, FREE, (), path, 1, taken, taken >= full, landed=landed,
                                  lost=("Cumbersome",) if taken > 0 and _cumbersome(hero) else ())  # N247
            if end in rigged and taken < full:  # Rigging: to its fortress, the spire to its barracks
                outcome = dataclasses.replace(outcome, exit="fortress",
                                              acts=(Act("after", "Rigging", rigged[end], "barracks"),))
            outcomes.append(outcome)
    # The hexes it reaches undefeated, each at its fewest steps, and the first route in name order
    # through them: the way home shown (Heroes: Returning).
    steps: dict[str, int] = {}
    for (node, taken), route in walks.items():
        if taken < full:
            steps[node] = min(steps.get(node, len(route) - 1), len(route) - 1)
    stops = stop_hexes(position, hero) | set(rigged)
    # N245: a hex a teleport lands it on is reached from each hex beside the chip that sends it there.
    chutes = teleports(position, hero, ai)
    sent = {(left, to) for chip, tos in chutes.items() for to in tos for left in position.neighbours(chip)}
    first: dict[str, tuple[str, ...]] = {start: (start,)}
    for node in sorted(steps, key=steps.__getitem__):
        before = [q for q in {*position.neighbours(node), *(q for q, to in sent if to == node)}
                  if steps.get(q) == steps[node] - 1 and q not in stops and q in first
                  and (node in position.neighbours(q) and node not in _chip_hexes(position) or (q, node) in sent)]
        if steps[node] > 0 and before:
            first[node] = min(first[q] for q in before) + (node,)
    own = gate_node(hero.faction)
    beside = position.neighbours(own) if hero.faction in position.gates else frozenset()  # none: no return
    home = [first[n] for n in beside if n in first and n not in stops and steps[n] < movement]
    if own != start and home and _walks_home(position, hero):
        shortest = min(len(r) for r in home)
        path, landed = shown_path(position, hero, min(r for r in home if len(r) == shortest) + (own,), ai)
        outcomes.append(MoveOutcome(hero.id, own, RETURN, (), path, 1, landed=landed))
    if _is_gate(start):  # as _deployed: with no mark at all, it must leave if it can (N212)
        d = distances(position, hero)
        unmarked = (hero.mark or position.factions[hero.faction].mark) == Mark()
        if any(o.end in d or unmarked for o in outcomes if o.kind == FREE and not o.defeated):
            outcomes = [o for o in outcomes if o.kind != STAY]
    if not ai:
        return outcomes
    # An AI hero whose end is its start stays: it walks nowhere.
    chosen = [o for o in _ai_hero_choice(position, hero, [o for o in outcomes if not o.defeated])
              if o.kind == STAY or o.end != start]
    # It falls only on the way to an end its rules leave it: that end within the steps it has left.
    ends = {o.end for o in chosen if o.end != start}

    def walkable(n: str) -> bool:  # its own start too, once it has left it, if its allowance admits it
        return (n in position.hexes and n not in _chip_hexes(position)
                and n not in _units_by_hex(position, hero.id) and _admits(position, hero, n))

    landings = {to for tos in chutes.values() for to in tos}
    back = {e: _back_steps(position, e, lambda n: walkable(n) or n in landings, sent) for e in ends}
    aimed = {o.end: frozenset(
        e for e, b in back.items() for on_chip in (False, True)
        if (steps := ways.get(((o.end, full), on_chip))) is not None
        and steps + _still_to_go(o.end, b, chutes if on_chip else {}) <= movement) for o in outcomes if o.defeated}
    if fall_aims is not None:
        fall_aims.update({end: aims for end, aims in aimed.items() if aims})
    return chosen + [o for o in outcomes if o.defeated and aimed[o.end]]


def _back_steps(position: Position, end: str, standable: Callable[[str], bool], sent: set[tuple[str, str]]) -> dict[str, int]:
    """The steps from each node it may stand on to ``end``: a step onto a hex beside it that is no chip,
    or (N245) a teleport, one step."""
    chips = _chip_hexes(position)
    steps = {end: 0}
    queue = deque([end])
    while queue:
        node = queue.popleft()
        for q in {*position.neighbours(node), *(q for q, to in sent if to == node)}:
            step = (q, node) in sent or (node in position.neighbours(q) and node not in chips)
            if q not in steps and standable(q) and step:
                steps[q] = steps[node] + 1
                queue.append(q)
    return steps


def _still_to_go(fell: str, back: dict[str, int], chutes: dict[str, tuple[str, ...]]) -> float:
    """The steps left to an end from the hex a walk fell on, where it stands; on a teleport's chip it stepped
    onto (``chutes``: those), from a hex it would have landed on with that step (N245)."""
    if chutes:
        return min([math.inf, *(back[to] for to in chutes.get(fell, ()) if to != fell and to in back)])
    return back.get(fell, math.inf)


def _rolling_walks(position: Position, hero: Unit, movement: int, ai: bool) -> dict[tuple[str, int], tuple[str, ...]]:
    """A hero that rolls dice as it moves: the dice rolled (chance decides what they cost)."""
    return _state_walks(position, hero, movement, lambda rolled, near: rolled + rolls_on(position, hero, near, ai),
                        lambda _rolled: False)


def _rolling_hero_outcomes(position: Position, hero: Unit, ai: bool) -> list[MoveOutcome]:
    """Every end with every number of dice some walk there rolls (on its start only after a walk that
    rolled, and not for the AI, whose hero whose end is its start walks nowhere); the way home likewise."""
    start = position.node_of(hero.id)
    movement = movement_stat(position, hero, ai)
    walks = _rolling_walks(position, hero, movement, ai)
    outcomes = [_stay(hero.id, start)]
    for (end, rolled), route in walks.items():
        if len(route) > 1 and not rock(position, end) and (end != start or (rolled and not ai)):
            outcomes.append(MoveOutcome(hero.id, end, FREE, (), route, 1, rolls=rolled))
    own = gate_node(hero.faction)
    stops = stop_hexes(position, hero)
    if own != start and _walks_home(position, hero):
        home: dict[int, list[tuple[str, ...]]] = {}
        for (node, rolled), route in walks.items():
            if own in position.neighbours(node) and len(route) - 1 < movement and node not in stops:
                home.setdefault(rolled, []).append(route)
        for rolled, ways in home.items():
            outcomes.append(MoveOutcome(hero.id, own, RETURN, (), min(ways, key=lambda w: (len(w), w)) + (own,), 1,
                                        rolls=rolled))
    return _deployed(position, hero, outcomes, ai)


def _deployed(position: Position, hero: Unit, outcomes: list[MoveOutcome], ai: bool) -> list[MoveOutcome]:
    """A hero in its gate must leave if it can reach a hex leading to its mark (erratum); with no mark
    at all, if it can leave (game-elements: "A hero that is able to deploy ... must do so"). Then, for
    the AI, its choice."""
    if _is_gate(position.node_of(hero.id)):
        d = distances(position, hero)
        unmarked = (hero.mark or position.factions[hero.faction].mark) == Mark()
        if any(o.end in d or unmarked for o in outcomes if o.kind == FREE):
            outcomes = [o for o in outcomes if o.kind != STAY]
    return _ai_hero_choice(position, hero, outcomes) if ai else outcomes


def _shut(position: Position, hero: Unit, ai: bool) -> bool:
    """N269: a hero whose walk through the hexes its talents open is not followed (its answer names the
    talent): one that moving may hurt or have roll dice, that may teleport, an elfinkaze moving as a hero."""
    within = _bfs(position, [position.node_of(hero.id)], lambda _n: True)
    movement = movement_stat(position, hero, ai)
    rolls = any(rolls_on(position, hero, n, ai) for n, steps in within.items() if steps <= movement)
    return hero.kind is not Kind.HERO or _hurts_any(position, hero, ai) or rolls or bool(teleports(position, hero, ai))


def _hero_passes(position: Position, hero: Unit, ai: bool) -> tuple[frozenset[str], frozenset[str]]:
    """N269: the map hexes a hero's walk may move through but never end on, on terrain it admits: Breakneck's
    ("may pass through units, spires, and landmarks"), and Incorporeal's, where it steals ("may move through
    opposing units", not a landmark minion); none for a Cumbersome hero ("No talent ... may be used to move
    ... this hero") or one whose walk is not followed (_shut)."""
    if _cumbersome(hero) or _shut(position, hero, ai):
        return frozenset(), frozenset()
    others = [u for u in position.units.values() if u.id != hero.id and u.at in position.hexes]
    through: set[str] = set()
    if "Breakneck" in hero.talents:
        through = {u.at for u in others if u.at} | {s.at for s in position.spires} | {m.at for m in position.landmarks}
    steals = set()
    if "Incorporeal" in hero.talents:
        steals = {u.at for u in others if u.at and u.kind is not Kind.LANDMARK_MINION
                  and opposing(position, u.faction, hero.faction)}
    def admitted(hexes: set[str]) -> frozenset[str]:
        return frozenset(h for h in hexes if h in position.hexes and _admits(position, hero, h))
    return admitted(through - steals), admitted(steals)


def _stealing_walks(position: Position, hero: Unit, movement: int, through: frozenset[str], steals: frozenset[str]
                    ) -> dict[tuple[str, frozenset[str]], tuple[str, ...]]:
    """N269: every (node, hexes passed where it steals) an Incorporeal hero's walks reach, with the first walk
    in name order among the shortest. It "may move in any direction": back onto a hex, its start too."""
    start = position.node_of(hero.id)
    chips = _chip_hexes(position)
    others = _units_by_hex(position, hero.id)
    stops = stop_hexes(position, hero)

    def moves(state: tuple[str, frozenset[str]], steps: int) -> Iterator[tuple[str, frozenset[str]]]:
        node, passed = state
        if steps >= movement or (_is_gate(node) and node != start) or node in stops:  # N340: from its gate too
            return
        for near in position.neighbours(node):
            if near not in position.hexes or not _admits(position, hero, near):
                continue
            if near in steals:
                yield near, passed | {near}
            elif near in through or near == start or (near not in chips and near not in others):
                yield near, passed

    return _first_walks((start, frozenset()), moves)


_State = TypeVar("_State", bound=tuple)


def _first_walks(start: _State, moves: Callable[[_State, int], Iterable[_State]]) -> dict[_State, tuple[str, ...]]:
    """Every state (its hex first) a walk reaches, step by step, with the first of its shortest walks in
    name order; ``moves(state, steps taken)`` gives the states one step on."""
    best = {start: (start[0],)}
    layer = [start]
    steps = 0
    while layer:
        reached: dict[_State, tuple[str, ...]] = {}
        for state in layer:
            for after in moves(state, steps):
                if after not in best:
                    route = (*best[state], after[0])
                    reached[after] = min(reached.get(after, route), route)
        best.update(reached)
        layer = list(reached)
        steps += 1
    return best


def _passing_outcomes(position: Position, hero: Unit, movement: int, ai: bool, outcomes: list[MoveOutcome],
                      through: frozenset[str], steals: frozenset[str]) -> list[MoveOutcome]:
    """N269: an Incorporeal hero's outcomes: each end, and its fortress, with what its walks there steal (N217,
    once a unit); one walk to an end that passes nothing is a plain walk's outcome; a walk back onto its start
    only where it stole. Of the walks that steal alike, the first path in name order. The AI's (N270): only the
    walks to an end passing the most opposing units, never back onto its start."""
    start = position.node_of(hero.id)
    walks = _stealing_walks(position, hero, movement, through, steals)
    own = gate_node(hero.faction)
    homing = own != start and _walks_home(position, hero)
    stops = stop_hexes(position, hero)
    ways: dict[str, list[tuple[frozenset[str], tuple[str, ...]]]] = {}
    for (node, passed), route in walks.items():
        if passed and len(route) > 1 and node not in through | steals and not rock(position, node):
            ways.setdefault(node, []).append((passed, route))
    if homing:
        for passed in {p for _, p in walks if p}:
            home = [r for (n, p), r in walks.items() if p == passed and own in position.neighbours(n)
                    and len(r) - 1 < movement and n not in stops]
            if home:
                ways.setdefault(own, []).append((passed, min(home, key=lambda r: (len(r), r)) + (own,)))
    plain = {o.end: o for o in outcomes if o.kind in (FREE, RETURN)}
    found: dict[tuple[str, tuple[tuple[str, int], ...]], MoveOutcome] = {}
    for end, passes in ways.items():
        if ai:
            if end == start or _is_gate(end):
                continue
            most = max(len(p) for p, _ in passes)
            passes = [(p, r) for p, r in passes if len(p) == most]
            plain.pop(end, None)
        for passed, route in passes:
            robbed = _robbed(position, hero, route, ())
            if end == start and not robbed:
                continue
            kind = RETURN if _is_gate(end) else FREE
            key = (end, robbed)
            have = found.get(key)
            if have is None or route < have.path:
                found[key] = MoveOutcome(hero.id, end, kind, (), route, 1, robbed=robbed, pocket=bool(robbed) and not ai)
    for end, o in plain.items():  # a plain walk steals nothing: one outcome with those that steal nothing
        have = found.get((end, ()))
        if have is None or o.path < have.path:
            found[(end, ())] = o
    return [o for o in outcomes if o.kind not in (FREE, RETURN)] + list(found.values())


def _closest_ends(position: Position, hero: Unit, outcomes: list[MoveOutcome]) -> list[MoveOutcome]:
    """N270: Breakneck's "must make as much progress as possible when moving" on a hero: its ends on the map
    only those closest to its mark (counted through spires and landmarks), none farther than its start;
    staying and returning stay."""
    d = distances(position, hero)
    ends = [o for o in outcomes if o.kind == FREE]
    near = [d[o.end] for o in ends if o.end in d] + ([d[s]] if (s := position.node_of(hero.id)) in d else [])
    if not near:
        return outcomes
    best = min(near)
    return [o for o in outcomes if o.kind != FREE or d.get(o.end) == best]


def _hero_outcomes(
    position: Position, hero: Unit, ai: bool, fall_aims: dict[str, frozenset[str]] | None = None,
) -> list[MoveOutcome]:
    start = position.node_of(hero.id)
    if _hurts_any(position, hero, ai):
        return _hurt_hero_outcomes(position, hero, ai, fall_aims)
    if _rolls_counted(position, hero, ai):
        return _rolling_hero_outcomes(position, hero, ai)
    outcomes = []
    rigged = rigging(position, hero, ai)
    movement = movement_stat(position, hero, ai)
    through, steals = _hero_passes(position, hero, ai)
    reached = _first_shortest_routes(position, hero, movement, ai, through)
    for end, route in reached.items():
        if rock(position, end) or end in through:
            continue
        kind = STAY if end == start else RETURN if _is_gate(end) else FREE
        path, landed = shown_path(position, hero, route, ai)
        outcome = MoveOutcome(hero.id, end, kind, (), path, 1, landed=landed)
        if end in rigged and end != start:  # Rigging: to its fortress, the spire to its barracks
            outcome = dataclasses.replace(outcome, exit="fortress", acts=(Act("after", "Rigging", rigged[end], "barracks"),))
        outcomes.append(outcome)
    if _roams(hero, ai):
        extra = _roostings(position, hero, reached, movement) + _roam_outcomes(position, hero, reached, movement, ai)
        # N249: off a roost with no opposing hero to reach and no opposing minion or spire, the AI hero's choice
        # among its plain ends (N278).
        if ai and _roost_roam_choice(position, hero, outcomes + extra) is None:
            extra = []
        outcomes += extra
    if steals:
        outcomes = _passing_outcomes(position, hero, movement, ai, outcomes, through, steals)
    if "Breakneck" in hero.talents and not _shut(position, hero, ai):
        outcomes = _closest_ends(position, hero, outcomes)
    return _deployed(position, hero, outcomes, ai)


def _perch(position: Position, unit: Unit, node: str | None) -> tuple[str, int] | None:
    """N153: the chip of an elfinkaze's faction with Roost on ``node`` it rides, with its number."""
    if node is None or "Roost Roam" not in unit.talents:
        return None
    chips = [*(u for u in position.units.values() if u.at == node and u.id != unit.id and u.rides is None),
             *(s for s in position.spires if s.at == node)]
    return next(((c.id, dict(c.talent_numbers)["Roost"]) for c in chips
                 if c.faction == unit.faction and "Roost" in dict(c.talent_numbers)), None)


def _roostings(position: Position, unit: Unit, reached: dict[str, tuple[str, ...]], movement: int) -> list[MoveOutcome]:
    """N153: a player's elfinkaze may end its move on the hex of another chip of its faction with Roost
    ("by moving onto it"), by a step from a node its walk reached with a step to spare (not one that
    stops it); the first shortest route in name order. No walk goes on from there (left out, noticed)."""
    start = position.node_of(unit.id)
    stops = stop_hexes(position, unit)
    roosts = {u.at for u in position.units.values()
              if u.id != unit.id and u.at in position.hexes and u.faction == unit.faction and "Roost" in u.talents}
    roosts |= {s.at for s in position.spires if s.faction == unit.faction and "Roost" in s.talents}
    found = []
    for hex_ in sorted(roosts - {start}):
        ways = [route for node, route in reached.items() if len(route) - 1 < movement and not _is_gate(node)
                and (node not in stops or node == start) and hex_ in position.neighbours(node)]
        if ways:
            shortest = min(len(r) for r in ways)
            found.append(MoveOutcome(unit.id, hex_, FREE, (), min(r for r in ways if len(r) == shortest) + (hex_,), 1))
    return found


def _roam_outcomes(position: Position, unit: Unit, reached: dict[str, tuple[str, ...]], movement: int,
                   ai: bool) -> list[MoveOutcome]:
    """N249: an elfinkaze's walks on from a roost its faction's chip with Roost it moved onto, by state
    (node, movement stat), the steps taken kept; each state's first shortest walk in name order. An end
    no plain walk nor single roosting gives, or one with another stat than its own (``stat``); none at
    all where such a walk would enter a hex that hurts it or has it roll."""
    start = position.node_of(unit.id)
    chips = _chip_hexes(position)
    others = _units_by_hex(position, unit.id)
    stops = stop_hexes(position, unit)
    roosts: dict[str, int] = {}
    for chip in [*position.units.values(), *position.spires]:
        number = dict(chip.talent_numbers).get("Roost")
        if number is not None and chip.faction == unit.faction and chip.at in position.hexes and chip.at != start:
            roosts[chip.at] = number

    def moves(state: tuple[str, int], steps: int) -> Iterator[tuple[str, int]]:
        node, stat = state
        if steps >= stat or node in stops and node != start:
            return
        for near in position.neighbours(node):
            if near in roosts:
                yield near, roosts[near]
            elif near in position.hexes and near not in chips and near not in others and _admits(position, unit, near):
                yield near, stat

    best = _first_walks((start, movement), moves)
    walked = {node for node, _ in best} - {start}
    if any(hurt(position, unit, n, ai) or rolls_on(position, unit, n, ai) for n in walked):
        return []
    roosted = {o.end for o in _roostings(position, unit, reached, movement)}
    outcomes = []
    for (end, stat), route in best.items():
        if end == start or rock(position, end):
            continue
        if end not in reached and end not in roosted or end in reached and stat != movement:
            outcomes.append(MoveOutcome(unit.id, end, FREE, (), route, 1, stat=0 if stat == movement else stat))
    return outcomes


def _ai_hero_choice(position: Position, hero: Unit, outcomes: list[MoveOutcome]) -> list[MoveOutcome]:
    """An AI hero moves toward its mark (The AI's obligations; ai-rules.md AI movement, secondary).

    ai-hero-approach=range: the farthest ends within its range of the mark, range counted over
    every node; otherwise, and always for =closest, the ends closest by its own distance d.
    Returning to the fortress is no move toward the mark, so the AI never returns.
    """
    outcomes = [o for o in outcomes if o.kind != RETURN]
    # Riftwalk (AI): never ending on the chip it lands on ("enough movement to move off").
    outcomes = [o for o in outcomes if o.end not in _landings(position, hero, True)]
    chosen = _roost_roam_choice(position, hero, outcomes) if _roams(hero, True) else None
    if chosen is not None:
        return chosen
    if position.readings.get("ai-hero-approach", "range") == "range":
        r = range_distances(position, hero)
        reach = {o: r.get(o.end, math.inf) for o in outcomes}
        within = [o for o in outcomes if reach[o] <= hero.side.range]
        if within:
            farthest = max(reach[o] for o in within)
            return [o for o in within if reach[o] == farthest]
    d = distances(position, hero)
    closeness = {o: d.get(o.end, math.inf) for o in outcomes}
    closest = min(closeness.values())
    return [o for o in outcomes if closeness[o] == closest]


# ------------------------------------------------------------------------------------ one unit


def _controlled(position: Position, unit: Unit) -> bool:
    """N277: a landmark minion a faction controls, which moves as that faction's minion."""
    return unit.kind is Kind.LANDMARK_MINION and unit.faction in position.factions and "Devoted" not in unit.talents


def must_wait(position: Position, unit: Unit) -> str:
    """Why the unit may not move now, or "" (Heroes; The whole movement step)."""
    if unit.kind is Kind.LANDMARK_MINION and not _controlled(position, unit):
        return "a landmark minion is not moved by a faction"
    if unit.done.moved:
        return "it has already moved this turn"
    if unit.campfire:
        return "it is in campfire mode"
    if unit.at is None:
        stack = position.gates[unit.faction].stack
        if unit.id not in stack:
            return "it has returned to its fortress"
        above = stack[: stack.index(unit.id)]
        if above:
            return f"it waits in its gate below {above[-1]}"
    return ""


def _snared(position: Position, mover: Unit) -> Position:
    """N281: the board a Graft unit's move is made on in chapter 2, the talents of the opposing units beside
    another Graft unit ignored."""
    scenario = position.scenario
    if (scenario is None or scenario.chapter != 2 or mover.faction != "graft" or mover.kind is Kind.LANDMARK_MINION
            or position.turn.faction != "graft"):
        return position
    snarers = {u.at for u in position.units.values() if u.faction == "graft" and u.kind is not Kind.LANDMARK_MINION
               and u.id != mover.id and u.at in position.hexes}
    hushed = {u.id for u in position.units.values()
              if (u.kind is Kind.LANDMARK_MINION or u.faction != "graft") and u.at in position.hexes
              and u.talents and position.neighbours(u.at) & snarers}
    if not hushed:
        return position
    return dataclasses.replace(position, units={uid: dataclasses.replace(u, talents=()) if uid in hushed else u
                                                for uid, u in position.units.items()})


def unit_options(position: Position, unit_id: str, ai: bool) -> UnitOptions:
    """Every legal outcome of the unit's move, or for ``ai`` the AI-mandated ones, sorted.

    A unit that must wait has no outcome; ``must_wait`` says why.
    """
    position = _snared(position, position.units[unit_id])
    unit = position.units[unit_id]
    start = position.node_of(unit_id)
    if ANARCHY in unit.talents:
        return _anarchy(position, unit, ai)
    either = talents.names("mv_may", _written(unit), position, unit, start, ai)
    if either:
        return _either_stat(position, unit, ai, either)
    wait = must_wait(position, unit)
    fall_aims: dict[str, frozenset[str]] = {}  # an AI hero's falls on the way, by the ends it walked to (N336)
    if unit.kind is Kind.HERO or _roams(unit, ai):
        # An elfinkaze's start distance is still a minion's (Distance to the mark): it is one.
        d0 = _minion_plan(position, unit, ai).d0 if _roams(unit, ai) else distances(position, unit).get(start)
        outcomes = [] if wait else _hero_outcomes(position, unit, ai, fall_aims)
    else:
        plan = _minion_plan(position, unit, ai)
        d0 = plan.d0
        outcomes = [] if wait else _minion_outcomes(position, unit, plan, ai)
    if ai and outcomes and unit.kind is Kind.HERO:
        outcomes = _motility(position, unit, outcomes)
    if ai and (unit.kind is Kind.HERO or _roams(unit, ai)):  # a minion's: by its routes' ends (N241)
        outcomes = _ai_end_choice(position, unit, outcomes, fall_aims)
    # What a talent does once the move ends is part of it, Survival's "after moving" too (docs/movement.md).
    outcomes = [
        dataclasses.replace(o, struck=_merged(position, s, _added(d, o.struck), unit.id, life(unit) - o.damage),
                            placed=p)
        for o in outcomes
        for s in strike_choices(position, unit, o, ai)
        for p, d in disperse_choices(position, unit, o, ai)
    ]
    # N210: "Then, the naroran unit is defeated": a strike on the Source vein ends with its unit defeated.
    veins = {c.id for c in position.chips if " ".join(c.name.split()).casefold() == "source vein"}
    outcomes = [dataclasses.replace(o, exit="defeated") if any(s.chip in veins for s in o.struck) else o
                for o in outcomes]
    outcomes = [g for o in outcomes for g in glidebomb_choices(position, unit, o, ai)]
    outcomes = [e for o in outcomes for e in eruption_choices(position, unit, o, ai)]
    if ai and outcomes and (_survival_holds(position, unit, outcomes) or _bydra_holds(position, unit)):
        outcomes = [_stay(unit_id, start)]
    if not wait:
        outcomes = act_choices(position, unit, outcomes, ai)
        outcomes += radiated(position, unit, ai)
        outcomes += health_chipped(position, unit, ai)
    outcomes = _exploded(position, unit, outcomes)  # N347
    outcomes = _sourced(position, unit, outcomes, ai)
    ordered = tuple(sorted(outcomes, key=lambda o: (o.end, o.displaced, o.struck, o.placed, o.acts)))
    return UnitOptions(unit_id, ordered, d0, wait)


ANARCHY = "Anarchy"
DISCARDED_BY = Fraction(2, 6)  # N171: "On a 5 or 6", two faces of the D6


# ---------------------------------------------------------------------------- a faction's Source

# N215: what a player's talent costs each time it acts; Eruption's, paid once the move ends.
PRICES = {"Call Minion": 2, "Improve": 2, "Magic-Like Missile": 2, "Summon Hero": 3}
ERUPTION_PRICE = 3


def _plays_ai(position: Position, faction: str, mover: Unit, ai: bool) -> bool:
    """N218: the moving faction as the question has it, any other as its controller says."""
    if faction == mover.faction:
        return ai
    return faction in position.factions and position.factions[faction].controller is Controller.AI


def _priced(position: Position, unit: Unit, act: Act, ai: bool) -> Act:
    """N215, N216: the act with its price (a player's) and whether a defeat it deals rewards the unit's
    faction (a player's act that defeats or deals damage, on a unit opposing it)."""
    chip = position.units.get(act.chip)
    earns = (not ai and act.how in ("defeat", "hurt") and chip is not None
             and opposing(position, chip.faction, unit.faction))
    priced = dataclasses.replace(act, cost=0 if ai else PRICES.get(act.talent, 0), earns=earns)
    if act.how == "call" and chip is not None:  # N246: what the unit it teleports takes where it lands
        taken = _floored(hurt(position, chip, act.to, ai), floor(position, chip, ai))
        priced = dataclasses.replace(priced, taken=taken, fells=taken >= life(chip))
    return priced


def _source(position: Position, faction: str, delta: int) -> Position:
    """The faction's Source ``delta`` more (a gain up to its capacity, never below what it holds) or less
    (never below 0)."""
    info = position.factions[faction]
    now = max(0, info.source + delta) if delta < 0 else max(info.source, min(info.source_capacity, info.source + delta))
    return dataclasses.replace(position, factions={**position.factions, faction: dataclasses.replace(info, source=now)})


def _paid(position: Position, unit: Unit, act: Act) -> Position:
    """N215, N216: the act's price paid first, then the act, then the reward of the unit it defeated."""
    if act.cost:
        position = _source(position, unit.faction, -act.cost)
    hit = position.units.get(act.chip)
    after = _acted(position, position.units[unit.id], act)
    if act.earns and hit is not None and (act.how == "defeat" or (act.how == "hurt" and int(act.to) >= life(hit))):
        after = _source(after, unit.faction, hit.reward.source)
    return after


def _credit(position: Position, victim: Unit, node: str, mover: Unit, ai: bool, crusher: Unit | None = None) -> str | None:
    """N218: the faction a defeat of ``victim`` on ``node`` by damage taken as units move rewards, if any."""
    found: list[tuple[str, str]] = []  # (chip id, its faction: "" for none)
    peaceful = "Peaceful" in victim.talents
    chips = [(u.id, u, u.faction, u.at, u.talents, u.merc) for u in position.units.values()
             if u.id != victim.id and u.at in position.hexes and not u.campfire]
    chips += [(sp.id, None, sp.faction, sp.at, sp.talents, sp.merc) for sp in position.spires]
    for cid, source, faction, at, talents, merc in chips:
        if node not in position.neighbours(at) or (peaceful and not merc):
            continue
        if source is not None and _heals(position, source, victim):
            continue
        toxic = "Toxic Secretion" in talents and source is not None and victim.faction != "griege"
        lahar = "Lahar" in talents and opposing(position, faction, victim.faction) and not _flies(position, victim, ai)
        if toxic or lahar:
            found.append((cid, faction))
    if victim.faction != "griege" and not peaceful:
        found += [(c.id, "") for c in position.chips if "Exposure" in c.talents and c.at == node]
    if (crusher is not None and "Crush" in crusher.talents and opposing(position, victim.faction, crusher.faction)
            and (not peaceful or crusher.merc) and not _heals(position, crusher, victim)):
        found.append((crusher.id, crusher.faction))
    if not found:
        return None
    _, faction = min(found)
    if not faction or not opposing(position, faction, victim.faction) or _plays_ai(position, faction, mover, ai):
        return None
    return faction


def _sourced(position: Position, unit: Unit, outcomes: list[MoveOutcome], ai: bool) -> list[MoveOutcome]:
    """N215, N216, N218: each outcome with the units whose defeat by its own doing rewards the unit's faction,
    and whom a defeat by damage taken on the way rewards (what a route steals: _minion_outcomes); a player's
    outcomes whose acts after the move and Eruption cost more than the faction holds left out."""
    def foe(uid: str) -> bool:
        x = position.units.get(uid) or next((sp for sp in position.spires if sp.id == uid), None)  # N302: a spire too
        return x is not None and opposing(position, x.faction, unit.faction)

    made = []
    for o in outcomes:
        if any(a.when == "before" for a in o.acts):  # made on the board its act left, and so sourced there
            made.append(o)
            continue
        earned = () if ai else tuple(sorted({x for x in (*o.felled, *(t.chip for t in o.struck if t.defeated)) if foe(x)}))
        falls = [(unit, o.end, None)] if o.defeated else []
        falls += [(position.units[d.unit], d.to, unit) for d in o.displaced if d.defeated]
        # N303: a displaced roost's rider falls where its roost lands.
        lands = {r: d.to for d in o.displaced for r, _, _ in _landed_riders(position, d, ai)}
        falls += [(position.units[r], lands.get(r) or _rider_fell(position, unit, position.units[r], o.path, ai), None)
                  for r, _, fell in o.carried if fell]
        credited = tuple(sorted((x.id, f) for x, node, crusher in falls
                                if (f := _credit(position, x, node, unit, ai, crusher)) is not None))
        made.append(dataclasses.replace(o, earned=earned, credited=credited))
    purse = position.factions[unit.faction].source
    return [o for o in made if ai or any(a.when == "before" for a in o.acts)
            or o.spent + sum(a.cost for a in o.acts if a.when == "after") <= purse]


def _rider_fell(position: Position, roost: Unit, rider: Unit, path: tuple[str, ...], ai: bool) -> str:
    """N218: the hex a rider the roost carries falls on along ``path``."""
    taken, least = 0, floor(position, rider, ai)
    for node in path[1:]:
        taken = _floored(taken + _carried_hurt(position, roost, rider, node, ai), least)
        if taken >= life(rider):
            return node
    return path[-1]


def _robbed(position: Position, unit: Unit, nodes: tuple[str, ...], displaced: tuple[Displacement, ...]
            ) -> tuple[tuple[str, int], ...]:
    """N217: the Source each faction loses to an Incorporeal minion's route, or hero's walk (N269): 1 for each
    active opposing unit (not a campfired hero) on a hex it moves through (neither its start nor its end, not
    displaced; once a unit, however often a walk passes it), no more than the faction holds."""
    if "Incorporeal" not in unit.talents or unit.kind is Kind.LANDMARK_MINION:
        return ()
    pushed = {d.unit for d in displaced}
    lost: dict[str, int] = {}
    for x in position.units.values():
        if (x.at in nodes[1:-1] and x.id not in pushed and x.faction in position.factions and not x.campfire
                and opposing(position, x.faction, unit.faction) and x.kind is not Kind.LANDMARK_MINION):
            lost[x.faction] = lost.get(x.faction, 0) + 1
    held = {f: position.factions[f].source for f in lost}
    return tuple(sorted((f, min(n, held[f])) for f, n in lost.items() if held[f] > 0))


def _earned(position: Position, move: MoveOutcome) -> Position:
    """N215-N218: the faction's Source as the move goes, before the board changes: what it steals and the
    rewards of what falls on its way, then the price of what it deals once its move ends, then the rewards
    of what that defeats (each unit's reward as it stood before the move)."""
    mover = position.units[move.unit]
    taken = 0
    for faction, n in move.robbed:
        took = min(n, position.factions[faction].source)
        position = _source(position, faction, -took)
        taken += took
    if move.pocket:
        position = _source(position, mover.faction, taken)
    for uid in move.earned:
        if uid in move.felled:
            position = _source(position, mover.faction, position.units[uid].reward.source)
    for uid, faction in move.credited:
        position = _source(position, faction, position.units[uid].reward.source)
    if move.spent:
        position = _source(position, mover.faction, -move.spent)
    spires = {sp.id: sp for sp in position.spires}  # N302: a spire its strike defeated
    for uid in move.earned:
        if uid not in move.felled:
            position = _source(position, mover.faction, (position.units.get(uid) or spires[uid]).reward.source)
    return position


def _anarchy(position: Position, unit: Unit, ai: bool) -> UnitOptions:
    """N171 Anarchy: the unit's options without the talent, each with the chance 2/3 that the D6 let it
    move, and its discard first, with the chance 1/3; none for a unit that waits or stands in its gate."""
    plain = dataclasses.replace(unit, talents=tuple(t for t in unit.talents if t != ANARCHY))
    options = unit_options(dataclasses.replace(position, units={**position.units, unit.id: plain}), unit.id, ai)
    start = position.node_of(unit.id)
    if options.must_wait or start not in position.hexes:
        return options
    discard = MoveOutcome(unit.id, start, STAY, (), (start,), acts=(Act("before", ANARCHY, unit.id, "discard"),),
                          chance=DISCARDED_BY)
    moves = (dataclasses.replace(o, chance=(1 - DISCARDED_BY) * (1 if o.chance is None else o.chance))  # N347's dice
             for o in options.outcomes)
    return dataclasses.replace(options, outcomes=(discard, *moves))


def _either_stat(position: Position, unit: Unit, ai: bool, either: list[str]) -> UnitOptions:
    """A player's talent ``either`` that lets it make its movement stat 1 more or not (mv_may: Gust): the
    outcomes of its move, without those talents, with the printed stat and with one more, both. One end both give (the same outcome) is listed once, shown by the first of
    both paths in hex-name order, with that one's kind, and the routes of both."""
    plain = dataclasses.replace(unit, talents=tuple(t for t in unit.talents if t not in either))
    faster = dataclasses.replace(plain.side, movement=plain.side.movement + 1)
    more = (dataclasses.replace(plain, promoted_stats=faster) if plain.side is not plain.stats
            else dataclasses.replace(plain, stats=faster))
    asked = [unit_options(dataclasses.replace(position, units={**position.units, unit.id: u}), unit.id, ai)
             for u in (plain, more)]
    merged: dict[tuple[object, ...], MoveOutcome] = {}
    for o in (o for options in asked for o in options.outcomes):
        key = (o.end, tuple(sorted(o.displaced)), o.damage, o.defeated, o.rolls, tuple(sorted(o.struck)), o.placed, o.acts)
        if key in merged:
            first = min(merged[key], o, key=lambda m: m.path)
            o = dataclasses.replace(first, paths=merged[key].paths + o.paths)
        merged[key] = o
    ordered = tuple(sorted(merged.values(), key=lambda o: (o.end, o.displaced, o.struck, o.placed, o.acts)))
    return dataclasses.replace(asked[0], outcomes=ordered)


def act_targets(position: Position, unit: Unit, talent: str, node: str, ai: bool) -> list[str]:
    """The chips the unit's ``talent`` may act on from ``node`` (docs/movement.md, An action before or
    after a move): units on map hexes beside the node (one in a gate is beside nothing, FAQ-15), not
    campfired (they cannot be interacted with); health counts fortifications ("effectively acts as an
    extra health chip").

    Consume (master-talent-list): "it may defeat an adjacent hero with 2 health or fewer"; the AI's: "if
    it is adjacent to an opposing hero with 2 health or fewer, it defeats that hero".
    Yrtel's Way: "you may return an adjacent faction minion with equal or less health to its barracks";
    the AI's: "if it is adjacent to an opposing faction minion with equal or less health than it" (the
    unit's health as its move began). Yrtel's Will: "remove all attack upgrades from an adjacent
    spire"; the AI's: "an opposing spire with at least 1 attack upgrade" (the player's too must hold
    one: else nothing is removed). Any for a player, an opposing one for the AI."""
    if talent == GATEPORT:  # N195: held or not, a hero may act
        return gateport_targets(position, unit, node, ai) if node in position.hexes else []
    if talent not in unit.talents or node not in position.hexes:
        return []
    if talent == "Scatter":
        return scatter_hexes(position, unit, node, ai)
    if talent == "Tracker":
        return tracker_hexes(position, unit, node, ai)
    if talent == "Dig":
        return dig_hexes(position, unit, node, ai)
    if talent == "Burrow":
        return burrow_hexes(position, unit, node, ai)
    if talent == "Matter Distortion":  # N193: the hex it stands on, the isle it occupies
        return [] if ai else [node]
    if talent == BUILDER:  # N225: the Source wells beside it (a player's spires: _after_targets)
        return [x for x, _ in builder_targets(position, unit, node, ai)]
    if talent == "Quantum Dark":  # N194: an opposing spire beside it with 2 upgrades or fewer
        return sorted(sp.id for sp in position.spires if sp.at in position.neighbours(node) and len(sp.upgrades) <= 2
                      and opposing(position, sp.faction, unit.faction))
    beside = set(position.neighbours(node))
    if talent in GRASPING:  # N191: ungrouped opposing faction minions sharing their hex with nothing (N354: but riders)
        crowded = {h for h in position.hexes if sum(u.at == h for u in position.units.values()) > 1} | {
            s.at for s in position.spires}
        if unit.at in crowded:
            return []
        return sorted(u.id for u in position.units.values() if u.kind is Kind.MINION and u.at in beside
                      and u.at in position.hexes and not u.group and _alone_but_riders(position, u)
                      and opposing(position, u.faction, unit.faction))
    if talent == "Save":  # "an adjacent friendly unit may to recover up to 4 health"; the AI's: no effect
        # N250: or none, the act on its own hex (how: alone)
        return [] if ai else [*sorted(u.id for u in position.units.values() if u.id != unit.id and u.at in beside
                                      and u.at in position.hexes and not u.campfire and u.faction == unit.faction), node]
    if talent == "Yrtel's Will":  # a spire opposes the faction that is not its own; N355: a player's landmark minions
        return sorted(sp.id for sp in position.spires if sp.at in beside and "attack" in sp.upgrades
                      and (not ai or opposing(position, sp.faction, unit.faction))) + ([] if ai else sorted(
            u.id for u in position.units.values() if u.kind is Kind.LANDMARK_MINION and u.id != unit.id and u.at in beside
            and u.at in position.hexes))

    def fits(u: Unit) -> bool:
        if talent == "Consume":
            return u.kind is Kind.HERO and life(u) <= 2
        return u.kind is Kind.MINION and life(u) <= life(unit)  # Yrtel's Way

    return sorted(u.id for u in position.units.values()
                  if u.id != unit.id and u.at in beside and u.at in position.hexes and not u.campfire and fits(u)
                  and (not ai or opposing(position, u.faction, unit.faction)))


def scatter_hexes(position: Position, unit: Unit, node: str, ai: bool) -> list[str]:
    """Scatter (master-talent-list): "Grouped only. Before or after this unit's movement, it may leave its
    group. If it does, place it on a valid adjacent hex and reveal the next unit in the group." The AI's
    (harbinger-rulebook): "After this unit's movement, if it is adjacent to an opposing unit or spire and a
    valid hex, it will leave its group." The hexes beside ``node`` it may be placed on: a map hex it
    admits, with a distance to its mark, no chip and no other unit on it (as the move began); for the AI
    only where an opposing unit (a landmark minion too) or spire is beside it (docs/movement.md, An
    action before or after a move). The AI's before-move act is ruled out by its caller (ai_before)."""
    if not unit.group or unit.kind is not Kind.MINION:
        return []
    beside = [h for h in position.neighbours(node) if h in position.hexes]
    if ai:
        foes = {u.at for u in position.units.values() if u.id != unit.id and u.at in beside
                and (u.kind is Kind.LANDMARK_MINION or opposing(position, u.faction, unit.faction))}
        foes |= {sp.at for sp in position.spires if sp.at in beside and opposing(position, sp.faction, unit.faction)}
        if not foes:
            return []
    held = _chip_hexes(position) | set(_units_by_hex(position, unit.id))
    reach = distances(position, unit)
    return sorted(h for h in beside if h not in held and h in reach and _admits(position, unit, h))


def dig_hexes(position: Position, unit: Unit, node: str, ai: bool) -> list[str]:
    """N131 Dig (master-talent-list): "Before or after this unit's movement, it may place a Tunnel Access
    chip on an adjacent non-path hex"; not for the AI ("Talent does not trigger for AI units"). The map
    hexes beside ``node`` whose terrain is not path, on which no unit (but the digger), spire, landmark or
    other chip stands as the move began; none from a gate (FAQ-15)."""
    if ai:
        return []
    held = _chip_hexes(position) | {c.at for c in position.chips} | set(_units_by_hex(position, unit.id))
    return sorted(h for h in position.neighbours(node) if h in position.hexes and h not in held
                  and position.hexes[h].terrain is not Terrain.PATH)


GATEPORT = "Portable Gateport"


def gateport_targets(position: Position, unit: Unit, node: str, ai: bool) -> list[str]:
    """N195 Portable Gateport: the hexes beside ``node`` a hero holding the item drops it on (as Dig's), or
    the item chips beside it one not holding it picks up; none for the AI, a minion, a faction without
    Source, or a hero that used it this move."""
    if (ai or unit.kind is not Kind.HERO or GATEPORT in unit.used
            or position.factions[unit.faction].source < 1):
        return []
    if GATEPORT in unit.talents:
        return dig_hexes(position, unit, node, ai)
    near = set(position.neighbours(node))
    return sorted(c.id for c in position.chips if GATEPORT in c.talents and c.at in near and c.at in position.hexes)


def burrow_hexes(position: Position, unit: Unit, node: str, ai: bool) -> list[str]:
    """N192 Burrow (master-talent-list): "Ungrouped only. After this unit's movement, you may remove all of its
    health and place it on any adjacent non-path hex, ignoring terrain type"; the AI's: "Leaves group if
    grouped. After this unit's movement, if it has less than its full health, ...". The hexes as Dig's."""
    if (not ai and unit.group) or (ai and unit.health >= unit.side.health):
        return []
    held = _chip_hexes(position) | {c.at for c in position.chips} | set(_units_by_hex(position, unit.id))
    return sorted(h for h in position.neighbours(node) if h in position.hexes and h not in held
                  and position.hexes[h].terrain is not Terrain.PATH)


def missile_hits(position: Position, unit: Unit, node: str, ai: bool) -> list[tuple[str, str]]:
    """N133 Magic-Like Missile (master-talent-list): "Before or after this unit's movement, you may spend 2
    Source to deal 1 damage to a unit up to 3 hexes away"; the AI's (harbinger-rulebook): "After this
    unit's movement, it will deal 1 damage to the opposing unit with the most health that is up to 3
    hexes away". Each (unit, damage it takes): FAQ-01, a Peaceful unit takes none from a unit that is
    no merc (a player's never aims at it); chapter 8's heal, -1."""
    if node not in position.hexes or (not ai and position.factions[unit.faction].source < 2):
        return []
    within = _bfs(position, [node], lambda _n: True)
    aims = [u for u in position.units.values() if u.id != unit.id and u.at in position.hexes
            and within.get(u.at, 4) <= 3 and not u.campfire
            and (not ai or u.kind is Kind.LANDMARK_MINION or opposing(position, u.faction, unit.faction))]

    def dealt(u: Unit) -> int:
        if _heals(position, unit, u):
            return -1
        return 0 if "Peaceful" in u.talents and not unit.merc else 1

    if ai:
        most = max((life(u) for u in aims), default=0)
        return sorted((u.id, str(dealt(u))) for u in aims if life(u) == most)
    return sorted((u.id, str(dealt(u))) for u in aims if dealt(u))


def twister_places(position: Position, unit: Unit, node: str, ai: bool) -> list[tuple[str, str]]:
    """N110 Twister (the shada sheet, Tempest): "After this unit's movement, you may select one revealed or
    unrevealed landmark chip within three hexes of this unit and place it on an unoccupied non-path hex
    adjacent to this unit"; not for the AI. Each (landmark, hex): a landmark, or a landmark minion on the
    map, 3 hexes or fewer from ``node`` through any node; a map hex beside ``node``, not path, on which
    no unit (but the mover), spire, landmark or other chip stands as the move began."""
    if ai or "Twister" not in unit.talents or node not in position.hexes:
        return []
    far = {node: 0}
    frontier = [node]
    while frontier:  # hexes and gate nodes counted as range is, whatever stands there
        here = frontier.pop(0)
        for near in position.neighbours(here):
            if near not in far and far[here] < 3:
                far[near] = far[here] + 1
                frontier.append(near)
    chips = [(lm.id, lm.at) for lm in position.landmarks]
    chips += [(u.id, u.at) for u in position.units.values() if u.kind is Kind.LANDMARK_MINION and u.at in position.hexes]
    held = _chip_hexes(position) | {c.at for c in position.chips} | set(_units_by_hex(position, unit.id))
    spots = [h for h in position.neighbours(node) if h in position.hexes and h not in held
             and position.hexes[h].terrain is not Terrain.PATH]
    return sorted((chip, h) for chip, at in chips if at in far for h in spots)


def _alone_but_riders(position: Position, minion: Unit) -> bool:
    """N354: ``minion`` shares its hex with no unit or spire but the chip it rides, the elfinkaze riding it, or
    the others riding its roost (a hex two units share otherwise: a group's next chip revealed where its top
    fell passing through another's hex)."""
    def mate(o: Unit) -> bool:
        return o.rides == minion.id or minion.rides == o.id or (minion.rides is not None and o.rides == minion.rides)

    return all(mate(o) for o in position.units.values() if o.id != minion.id and o.at == minion.at) and all(
        minion.rides == sp.id for sp in position.spires if sp.at == minion.at)


def call_spots(position: Position, unit: Unit, node: str, ai: bool) -> list[tuple[str, str]]:
    """N127 Call Minion (master-talent-list): "Once per wave. Before or after this unit's movement, you may
    spend 2 Source to teleport an active ungrouped friendly minion to a valid hex adjacent to this unit";
    not for the AI. Each (minion, hex beside ``node``): a valid hex as Invalid Terrain has it (game-elements:
    "terrain it would generally not be able to move onto, or a hex that does not lead to its mark")."""
    if (ai or "Call Minion" not in unit.talents or "Call Minion" in unit.used or node not in position.hexes
            or position.factions[unit.faction].source < 2):
        return []
    held = _chip_hexes(position) | set(_units_by_hex(position, unit.id))
    beside = [h for h in position.neighbours(node) if h in position.hexes and h not in held]
    spots = []
    for minion in sorted(position.units.values(), key=lambda u: u.id):
        if (minion.id == unit.id or minion.faction != unit.faction or minion.kind is not Kind.MINION
                or minion.at not in position.hexes or minion.group or not _alone_but_riders(position, minion)):
            continue
        reach = distances(position, minion)
        spots += [(minion.id, h) for h in beside if h in reach and _admits(position, minion, h)]
    return spots


def summon_spots(position: Position, unit: Unit, node: str, ai: bool) -> list[tuple[str, str]]:
    """N128 Summon Hero (landmark-and-market-talents): "Before or after its movement, a hero adjacent to this
    chip may spend 3 Source to teleport another hero to a valid hex adjacent to this chip"; the teleported
    hero any other hero, of any faction (N353; docs/movement.md). Each (hero, hex)."""
    if (ai or unit.kind is not Kind.HERO or "Summon Hero" in unit.used or node not in position.hexes
            or position.factions[unit.faction].source < 3):
        return []
    sites = {lm.at for lm in position.landmarks if lm.revealed and "Summon Hero" in lm.talents}
    held = _chip_hexes(position) | set(_units_by_hex(position, unit.id)) | {node}
    spots = set()
    for site in sites & set(position.neighbours(node)):
        for hero in position.units.values():
            if (hero.id != unit.id and hero.kind is Kind.HERO and not hero.campfire
                    and hero.at in position.hexes and "Cumbersome" not in hero.talents):
                spots |= {(hero.id, h) for h in position.neighbours(site)
                          if h in position.hexes and h not in held and _admits(position, hero, h)}
    return sorted(spots)


def tracker_hexes(position: Position, unit: Unit, node: str, ai: bool) -> list[str]:
    """Tracker (master-talent-list): "Instead of moving, you may teleport this unit up to # hexes. If you
    do, it must teleport to a valid hex adjacent to a revealed landmark minion." Not for the AI ("Talent
    does not trigger for AI units"). The # counted as range is, through any node; a valid hex a map hex
    it admits with no chip and no other unit on it, a minion's with a distance to its mark (docs/movement.md,
    An action before or after a move)."""
    count = dict(unit.talent_numbers).get("Tracker", 0)
    if ai or not count:
        return []
    beside = {h for u in position.units.values() if u.kind is Kind.LANDMARK_MINION and u.at in position.hexes
              for h in position.neighbours(u.at)}
    held = _chip_hexes(position) | set(_units_by_hex(position, unit.id))
    reach = distances(position, unit) if unit.kind is Kind.MINION else position.hexes
    within = _bfs(position, [node], lambda _n: True)
    return sorted(h for h, steps in within.items() if 0 < steps <= count and h in position.hexes and h in beside
                  and h not in held and h in reach and _admits(position, unit, h)
                  and not rock(position, h))  # chapter 1: no move ends on a floating rock


# Each talent that acts before or after a move: what it does to the chip, and what the unit then does.
ACTS = {"Consume": ("defeat", "flip"), "Yrtel's Way": ("barracks", "promote"), "Yrtel's Will": ("strip", "flip"),
        "Save": ("recover", "defeated"), "Scatter": ("scatter", ""), "Tracker": ("teleport", ""), "Dig": ("dig", ""),
        "Twister": ("shift", ""), "Magic-Like Missile": ("hurt", ""), "Call Minion": ("call", ""),
        "Summon Hero": ("call", ""), "Improve": ("improve", ""), "Stasis": ("stasis", ""), "Possess": ("possess", ""),
        "Burrow": ("burrow", ""), "Matter Distortion": ("distort", "promote"),
        "Quantum Dark": ("replace", "defeated"),
        "Portable Gateport": ("drop", ""), "Builder": ("build", "")}
# "after or instead of this unit's movement": after it, or after a stay (Save); "After this unit's movement"
# (Twister); "When this unit ends its movement" (Improve)
AFTER_ONLY = {"Save", "Twister", "Improve", "Burrow"}
# The talents whose AI wording acts after the move only; those that act instead of the move (the unit then
# stands on the hex it was teleported to, its move made).
AI_AFTER_ONLY = {"Scatter", "Magic-Like Missile"}
INSTEAD = {"Tracker"}
# N194: before the move, instead of it (a stay, no move after it); after it too.
INSTEAD_OR_AFTER = {"Quantum Dark"}
# N191: a player's after its move or a stay only; the AI's instead of moving where it can, else after.
GRASPING = {"Stasis", "Possess"}


def scatter_id(uid: str, chip: str) -> str:
    """The revealed chip's unit: "<unit>-<chip>", the chip's name in lower case, words joined by '-'."""
    return uid + "-" + "-".join(chip.lower().replace("'", "").split())


def _acted(position: Position, unit: Unit, act: Act) -> Position:
    """The board once the unit's talent acted: a hero defeated off the board (Consume), a minion back to
    its barracks undefeated, with its group (Yrtel's Way), a spire's attack upgrades removed (Yrtel's
    Will); the unit flipped with no upgrades, its health kept (Consume, Yrtel's Will), or promoted: a
    basic unit to its promoted side, no upgrades, the health between the sides' health stats where the
    position gives both (game-elements: Leveling Up); the talent used up for this move. A spire back to
    its barracks (N168 Rigging) leaves the board."""
    units = dict(position.units)
    if act.talent == BUILDER:
        return _built(position, unit, act)
    if act.how == "barracks" and act.chip not in units:  # N168 Rigging: the spire off the board
        return dataclasses.replace(position, spires=tuple(s for s in position.spires if s.id != act.chip))
    if act.how in ("improve", "improve_under"):  # N169: the upgrade on top, or at the bottom
        spires = tuple(dataclasses.replace(s, upgrades=(*s.upgrades, act.to) if act.how == "improve" else (act.to, *s.upgrades))
                       if s.id == act.chip else s for s in position.spires)
        return dataclasses.replace(position, spires=spires)
    if act.how == "radiate":  # N111: 1 health, or 1 upgrade of that kind, from the unit to the chip
        taker = units[act.chip]
        if act.to == "health":
            units[unit.id] = dataclasses.replace(unit, health=unit.health - 1)
            units[act.chip] = dataclasses.replace(taker, health=taker.health + 1)
        else:
            left = list(unit.upgrades)
            left.remove(act.to)
            units[unit.id] = dataclasses.replace(unit, upgrades=tuple(left))
            units[act.chip] = dataclasses.replace(taker, upgrades=(*taker.upgrades, act.to))
        return dataclasses.replace(position, units=units)
    if act.how == "health_chip":  # N211: 1 health past its stat, one chip fewer in its gate
        units[unit.id] = dataclasses.replace(unit, health=unit.health + 1, used=(*unit.used, act.talent))
        gate = position.gates[unit.faction]
        gates = {**position.gates, unit.faction: dataclasses.replace(gate, health_chips=(gate.health_chips or 1) - 1)}
        return dataclasses.replace(position, units=units, gates=gates)
    if act.how == "teleport":  # instead of moving: it stands there (its group with it)
        units[unit.id] = dataclasses.replace(unit, at=act.chip)
        return dataclasses.replace(position, units=units)
    if act.how == "shift":  # N110: the landmark stands on the hex act.to from then on
        units[unit.id] = dataclasses.replace(unit, talents=tuple(t for t in unit.talents if t != act.talent))
        if act.chip in units:
            units[act.chip] = dataclasses.replace(units[act.chip], at=act.to)
        landmarks = tuple(dataclasses.replace(lm, at=act.to) if lm.id == act.chip else lm for lm in position.landmarks)
        return dataclasses.replace(position, units=units, landmarks=landmarks)
    if act.how == "hurt":  # N133: the damage act.to, a fortification first
        hit, dealt = units[act.chip], int(act.to)
        units[act.chip] = _placed(hit, hit.at or "", False, dealt, dealt >= life(hit))
        units[unit.id] = dataclasses.replace(unit, talents=tuple(t for t in unit.talents if t != act.talent))
        return dataclasses.replace(position, units=units)
    if act.how == "call":  # N127: the minion stands on the hex act.to, moved by a talent (FAQ-25)
        called = units[act.chip]
        units[act.chip] = _placed(dataclasses.replace(called, rides=None, done=dataclasses.replace(called.done, displaced=True)),
                                  act.to, False, act.taken, act.fells)  # N246: what it takes there; N354: off its roost
        for rider in [u for u in units.values() if u.rides == called.id and u.at == called.at]:  # N354: carried
            units[rider.id] = dataclasses.replace(rider, at=act.to, rides=rider.rides if units[called.id].at else None,
                                                  done=dataclasses.replace(rider.done, displaced=True))
        units[unit.id] = dataclasses.replace(unit, talents=tuple(t for t in unit.talents if t != act.talent),
                                             used=(*unit.used, act.talent))  # N128: a landmark's, used for this move
        return dataclasses.replace(position, units=units)
    if act.how == "explode":  # N347: the Explosion chip set off, discarded
        return dataclasses.replace(position, chips=tuple(c for c in position.chips if c.id != act.chip))
    if act.how in ("drop", "pickup"):  # N195: the item on that hex, or off the map and held; used for this move
        if act.how == "drop":
            chips = (*position.chips, Chip(f"gateport-{act.chip}", act.chip, GATEPORT, talents=(GATEPORT,)))
            held = tuple(t for t in unit.talents if t != GATEPORT)
        else:
            chips = tuple(c for c in position.chips if c.id != act.chip)
            held = unit.talents
        units[unit.id] = dataclasses.replace(unit, talents=held, used=(*unit.used, GATEPORT))
        return dataclasses.replace(position, units=units, chips=chips)
    if act.how == "dig":  # N131: a Tunnel Access chip on that hex, another chip in the way from then on
        chip = Chip(f"tunnel-{act.chip}", act.chip, "Tunnel Access")
        units[unit.id] = dataclasses.replace(unit, talents=tuple(t for t in unit.talents if t != act.talent))
        return dataclasses.replace(position, units=units, chips=(*position.chips, chip))
    if act.how in ("scatter", "stasis", "possess", "burrow") and unit.group:  # it leaves; the next chip shows where the group stood
        below = unit.group[0]
        rest = dataclasses.replace(unit, id=scatter_id(unit.id, below.chip), chip=below.chip, stats=below.stats,
                                   talents=below.talents, reward=below.reward, merc=below.merc,
                                   talent_numbers=below.talent_numbers, group=unit.group[1:], upgrades=(),
                                   promoted=False, promoted_stats=None, capacity=None, health=below.stats.health,
                                   must_move=False)
        units[rest.id] = rest
    if act.how == "burrow":  # N192: on that hex, no health, not defeated
        units[unit.id] = dataclasses.replace(unit, at=act.chip, group=(), health=0, burrowed=True,
                                             upgrades=tuple(u for u in unit.upgrades if u != "fortification"),
                                             talents=tuple(t for t in unit.talents if t != act.talent))
        return dataclasses.replace(position, units=units)
    if act.how in ("scatter", "stasis", "possess"):  # N191: on the minion's hex
        at = act.chip if act.how == "scatter" else units[act.chip].at
        units[unit.id] = dataclasses.replace(unit, at=at, group=(),
                                             talents=tuple(t for t in unit.talents if t != act.talent))
        return dataclasses.replace(position, units=units)
    if act.how == "cash":  # N355: discarded, not defeated; 3 Source up to the capacity
        units[act.chip] = dataclasses.replace(units[act.chip], at=None, discarded=True)
        position = _source(position, unit.faction, 3)
    elif act.how == "strip":
        position = dataclasses.replace(position, spires=tuple(
            dataclasses.replace(sp, upgrades=tuple(x for x in sp.upgrades if x != "attack")) if sp.id == act.chip else sp
            for sp in position.spires))
    elif act.how == "replace":  # N194: a spire of the unit's faction, its upgrades kept
        position = dataclasses.replace(position, spires=tuple(
            Spire(sp.id, unit.faction, sp.at, sp.upgrades) if sp.id == act.chip else sp for sp in position.spires))
    elif act.how == "defeat":
        target = units[act.chip]
        units[act.chip] = _placed(target, target.at or "", False, 0, True)
    elif act.how == "recover":  # up to 4, never past its health stat
        target = units[act.chip]
        units[act.chip] = dataclasses.replace(target, health=max(target.health, min(target.side.health, target.health + 4)))
    elif act.how not in ("distort", "alone"):  # N193: the earthscape's place is not modelled, only the promotion
        units[act.chip] = dataclasses.replace(units[act.chip], at=None)
    talents = tuple(t for t in unit.talents if t != act.talent)
    if act.then == "flip":
        unit = dataclasses.replace(unit, promoted=not unit.promoted, upgrades=())
    elif act.then == "defeated":
        unit = _placed(unit, unit.at or "", False, 0, True)
    elif not unit.promoted:
        gain = unit.promoted_stats.health - unit.stats.health if unit.promoted_stats else 0
        unit = dataclasses.replace(unit, promoted=True, upgrades=(), health=unit.health + max(gain, 0))
    units[unit.id] = dataclasses.replace(unit, talents=talents)
    return dataclasses.replace(position, units=units)


def _built(position: Position, unit: Unit, act: Act) -> Position:
    """N225 Builder: the platform built, the tower made or the upgrade given; then the unit off the board to its
    barracks (its movement made) or on its basic side, the talent used up."""
    spires = position.spires
    if act.how == "build":
        spires = (*spires, Spire(f"dispatch-platform-{act.chip}", unit.faction, act.chip, chip=DISPATCH_PLATFORM))
    elif act.how == "tower":
        spires = tuple(Spire(s.id, s.faction, s.at, s.upgrades, chip=SIEGE_TOWER, capacity=s.capacity)
                       if s.id == act.chip else s for s in spires)
    else:
        spires = tuple(dataclasses.replace(s, upgrades=(*s.upgrades, act.to)) if s.id == act.chip else s for s in spires)
    talents = tuple(t for t in unit.talents if t != BUILDER)
    factions = position.factions
    if act.then == "barracks":
        done = dataclasses.replace(unit, at=None, talents=talents, done=dataclasses.replace(unit.done, moved=True))
        info = factions[unit.faction]
        if info.barracks is not None:
            factions = {**factions, unit.faction: dataclasses.replace(info, barracks=(*info.barracks, unit.id))}
    else:
        done = dataclasses.replace(unit, promoted=False, health=min(unit.health, unit.stats.health), talents=talents)
    return dataclasses.replace(position, units={**position.units, unit.id: done}, spires=spires, factions=factions)


HEALTH_CHIP = "deploy-health-chips"


def health_chipped(position: Position, unit: Unit, ai: bool) -> list[MoveOutcome]:
    """N211 Harbinger chapter 2, Scenario Rules: "Each time the heirs deploy a unit, they may add one of the
    health chips in the Horizon's Wrath fortress to it. This may exceed the unit's health stat." A heirs
    unit in its own gate, the gate holding a chip, not having taken one: each move that leaves the gate,
    made on the board with the chip taken (1 more health, one chip fewer), the act before it; with the
    moves without it, which unit_options lists already."""
    gate = position.gates.get(unit.faction)
    chapter = position.scenario.chapter if position.scenario is not None else None
    if (chapter != 2 or unit.faction != "heirs" or gate is None or not gate.health_chips
            or position.node_of(unit.id) != gate.node or HEALTH_CHIP in unit.used):
        return []
    act = Act("before", HEALTH_CHIP, gate.node, "health_chip")
    return [dataclasses.replace(o, acts=(act, *o.acts))
            for o in unit_options(_acted(position, unit, act), unit.id, ai).outcomes if o.end != gate.node]


def radiate_sets(position: Position, unit: Unit, ai: bool) -> list[tuple[tuple[str, str], ...]]:
    """N111 Radiate (the shada sheet, Fission): "Before this unit's movement, it may transfer 1 health or 1
    upgrade from under its chip to an adjacent unit, ignoring health or upgrade restrictions. It may repeat
    this once for each other adjacent unit"; not for the AI. Every non-empty set of (unit, what it is
    given), by unit id: what it gives it holds, its last health chip kept."""
    if ai or "Radiate" not in unit.talents or unit.at not in position.hexes:
        return []
    near = set(position.neighbours(unit.at))
    beside = sorted(u.id for u in position.units.values() if u.id != unit.id and u.at in near and not u.campfire)
    kinds = (None, "health", *sorted(set(unit.upgrades)))
    sets = []
    for choice in product(kinds, repeat=len(beside)):
        given = tuple((b, c) for b, c in zip(beside, choice) if c)
        gifts = [c for _, c in given]
        if given and gifts.count("health") < unit.health and all(
                gifts.count(k) <= unit.upgrades.count(k) for k in set(gifts) - {"health"}):
            sets.append(given)
    return sets


def radiated(position: Position, unit: Unit, ai: bool) -> list[MoveOutcome]:
    """The moves made after each set of Radiate's transfers (N111), on the board they leave."""
    found = []
    for given in radiate_sets(position, unit, ai):
        acts = tuple(Act("before", "Radiate", uid, "radiate", "", what) for uid, what in given)
        board = position
        for act in acts:
            board = _acted(board, board.units[unit.id], act)
        spent = board.units[unit.id]
        board = dataclasses.replace(board, units={**board.units, unit.id: dataclasses.replace(
            spent, talents=tuple(t for t in spent.talents if t != "Radiate"))})
        found += [dataclasses.replace(o, acts=(*acts, *o.acts)) for o in unit_options(board, unit.id, ai).outcomes]
    return found


def _after_targets(position: Position, unit: Unit, talent: str, node: str, ai: bool) -> list[tuple[str, str]]:
    """What ``talent`` may act on once the move ends on ``node``: each chip, and the hex it is placed on
    where it moves one (Twister), else ""."""
    if talent == "Twister":
        return twister_places(position, unit, node, ai)
    if talent == "Magic-Like Missile":
        return missile_hits(position, unit, node, ai) if talent in unit.talents else []
    if talent == "Call Minion":
        return call_spots(position, unit, node, ai)
    if talent == "Summon Hero":
        return summon_spots(position, unit, node, ai)
    if talent == "Improve":
        return improvements(position, unit, node, ai)
    if talent == BUILDER:
        return builder_targets(position, unit, node, ai)
    return [(x, "") for x in act_targets(position, unit, talent, node, ai)]


BUILDER = "Builder"
DISPATCH_PLATFORM, SIEGE_TOWER = "Dispatch Platform", "Siege Tower"


def builder_targets(position: Position, unit: Unit, node: str, ai: bool) -> list[tuple[str, str]]:
    """N225 Builder: from ``node``, each uncovered Source well beside it (a dispatch platform built there);
    a player's also each dispatch platform beside it (made a siege tower: to "") and each spire beside it
    with each kind of upgrade it may gain (to: the kind)."""
    if BUILDER not in unit.talents or node not in position.hexes:
        return []
    held = _chip_hexes(position) | {c.at for c in position.chips} | set(_units_by_hex(position, unit.id))
    near = [h for h in position.neighbours(node) if h in position.hexes]
    found = [(h, "") for h in sorted(near) if position.hexes[h].well and h not in held]
    if not ai:
        spires = sorted((s for s in position.spires if s.at in near), key=lambda s: s.id)
        found += [(s.id, "") for s in spires if s.chip.casefold() == DISPATCH_PLATFORM.casefold()]
        found += [(s.id, k) for s in spires for k in ("attack", "fortification", "range")]
    return found


def _then(unit: Unit, talent: str, then: str) -> str:
    """N225: what Builder's unit then does, by the side it shows: a basic one to its barracks, a promoted one
    demoted; another talent's is fixed (ACTS)."""
    return ("demote" if unit.promoted else "barracks") if talent == BUILDER else then


def improvements(position: Position, unit: Unit, node: str, ai: bool) -> list[tuple[str, str]]:
    """N169 Improve: once the move ends on a map hex, each spire of the unit's own faction beside it with
    the kind of upgrade it gains: a player's, its faction holding 2 Source, any of attack, range and
    fortification (on top); the AI's, not used this wave (the unit's ``used``), an attack upgrade (at the
    bottom: ``_improved``)."""
    if "Improve" not in unit.talents or node not in position.hexes:
        return []
    if ai and "Improve" in unit.used or not ai and position.factions[unit.faction].source < 2:
        return []
    near = set(position.neighbours(node))
    kinds = ("attack",) if ai else ("attack", "fortification", "range")
    return [(s.id, k) for s in position.spires if s.faction == unit.faction and s.at in near for k in kinds]


def act_choices(position: Position, unit: Unit, outcomes: list[MoveOutcome], ai: bool) -> list[MoveOutcome]:
    """The moves with what the unit's acting talents (ACTS) do before or after them, once per move:
    before, the move made anew on the board the act leaves; after, beside its end (a stay's too), the
    chips where they stood as it began; nothing after a move that defeated the unit or ended in its
    gate. A player may also leave it unused; the AI must, before its move where it can, else after it
    where it can. A stay followed by the act is listed as the act followed by the stay (the same board)."""
    start = position.node_of(unit.id)
    for talent, (how, then) in ACTS.items():
        first = ([] if talent in AFTER_ONLY or (ai and talent in AI_AFTER_ONLY) or (not ai and talent in GRASPING)
                 else _after_targets(position, unit, talent, start, ai))
        if talent in GRASPING and first:  # N191: the AI's, instead of moving: it stands on the minion's hex
            outcomes = [dataclasses.replace(_stay(unit.id, position.units[x].at or ""),
                                            acts=(_priced(position, unit, Act("before", talent, x, how, then), ai),))
                        for x, _ in first]
            continue
        if talent in INSTEAD:
            outcomes = outcomes + [dataclasses.replace(_stay(unit.id, x), acts=(Act("before", talent, x, how, then),))
                                   for x, _ in first]
            continue
        then = _then(unit, talent, then)
        # N194, N225: defeated, or back to its barracks, instead of moving: a stay, no move after it.
        instead = talent in INSTEAD_OR_AFTER or then == "barracks"
        before = ([dataclasses.replace(_stay(unit.id, start), acts=(
                       Act("before", talent, x, _how(position, talent, how, x, to), then, to),))
                   for x, to in first] if instead else
                  [dataclasses.replace(o, acts=(act, *o.acts))
                   for x, to in first
                   for act in [_priced(position, unit, Act("before", talent, x, _how(position, talent, how, x, to), then, to), ai)]
                   for o in unit_options(_paid(position, unit, act), unit.id, ai).outcomes])
        if ai and first:
            outcomes = before
            continue
        done = {(o.end, o.acts[0].chip) for o in before if o.kind == STAY}
        later = []
        for o in outcomes:
            # A talent acts once per move: not again after a move it acted before (another talent's first).
            used = any(a.talent == talent for a in o.acts)
            targets = [] if o.defeated or used else _after_targets(position, unit, talent, o.end, ai)
            if (not ai or not targets) and not (targets and talent == "Save" and _bound(position, unit, o.end, ai)):
                later.append(o)
            kind = "improve_under" if talent == "Improve" and ai else how  # N169: the AI's at the bottom
            later += [dataclasses.replace(o, acts=_after_last(*o.acts, _priced(
                          position, unit, Act("after", talent, x, _how(position, talent, kind, x, to), then, to), ai)))
                      for x, to in targets if not (o.kind == STAY and (o.end, x) in done)]
        outcomes = later + before
    return outcomes


def _how(position: Position, talent: str, how: str, chip: str, to: str) -> str:
    """N195: Portable Gateport drops the item on a hex, or picks up the item chip. N225: Builder builds on a
    hex, gives a spire an upgrade of a kind, or makes a dispatch platform a siege tower."""
    if talent == GATEPORT:
        return "drop" if chip in position.hexes else "pickup"
    if talent == BUILDER:
        return "build" if chip in position.hexes else "improve" if to else "tower"
    if talent == "Save" and chip in position.hexes:  # N250: no unit recovering
        return "alone"
    if talent == "Yrtel's Will" and chip in position.units:  # N355: a landmark minion discarded for 3 Source
        return "cash"
    return how


def _after_last(*acts: Act) -> tuple[Act, ...]:
    """Acts before the move in the order taken, then those after it by talent name: two acts after one
    move act on the board as it ended, so their order leaves the same board (one listing)."""
    return (*(a for a in acts if a.when == "before"), *sorted((a for a in acts if a.when == "after"), key=lambda a: a.talent))


def _motility(position: Position, hero: Unit, outcomes: list[MoveOutcome]) -> list[MoveOutcome]:
    """Motility (AI): "if its destination hex would not allow it to make an attack, reduce the Motility
    Reservoir tracker by the needed amount to utilize up to 2 of the effects ... so long as doing so
    will let this unit reach a hex where it can attack ..., while still making progress towards its
    mark. - 1: ... a forest terrain allowance ... If promoted, ... a mountain terrain allowance
    instead. - 2: ... one additional hex" (docs/movement.md, Motility). Not where the position lacks
    the reservoir, nor in chapters 3 and 5 (their Nucleus holds leave it noticed). No effect, one or
    two tried, cheapest first: the first whose reachable hexes closer to the mark (by the distance of
    that allowance) include some with a valid target sends the hero to those, chosen as an AI hero
    chooses."""
    reservoir = position.factions[hero.faction].motility
    chapter = position.scenario.chapter if position.scenario is not None else None
    if "Motility" not in hero.talents or reservoir is None or chapter in (3, 5) or hero.at is None:
        return outcomes
    if any(combat.damage_now(apply_move(position, o), hero.id) for o in outcomes):
        return outcomes
    gained = Terrain.MOUNTAINS if hero.promoted else Terrain.FOREST
    allowance, extra = 1, 2  # the costs of the two effects
    tries = []
    for uses in ((), (allowance,), (extra,), (allowance, allowance), (allowance, extra), (extra, extra)):
        if sum(uses) <= reservoir:
            terrain = gained if allowance in uses and gained.level > hero.terrain.level else hero.terrain
            tries.append((sum(uses), terrain, uses.count(extra)))
    for _, terrain, more in sorted(tries, key=lambda t: t[0]):
        side = hero.side
        bought = dataclasses.replace(hero, terrain=terrain, stats=dataclasses.replace(side, movement=side.movement + more),
                                     promoted_stats=None)
        board = dataclasses.replace(position, units={**position.units, hero.id: bought})
        d = distances(board, bought)
        start = d.get(hero.at, math.inf)
        fits = [o for o in _hero_outcomes(board, bought, False)
                if o.kind == FREE and d.get(o.end, math.inf) < start and combat.damage_now(apply_move(board, o), hero.id)]
        if fits:
            return _ai_hero_choice(board, bought, fits)
    return outcomes


def _survival_holds(position: Position, unit: Unit, outcomes: list[MoveOutcome]) -> bool:
    """Survival (AI): on the map, below its health stat, and no valid target after any of its moves."""
    if "Survival" not in unit.talents or unit.at is None or unit.health >= unit.side.health:
        return False
    return not any(combat.damage_now(apply_move(position, o), unit.id) for o in outcomes)


def _bydra_holds(position: Position, unit: Unit) -> bool:
    """Harbinger chapter 5, AI Rules: Bydra Graam skips her movement where she starts beside the naroran
    fortress gate with no minion placed under her, or beside Nucleus with some."""
    chapter = position.scenario.chapter if position.scenario is not None else None
    if chapter != 5 or unit.chip.casefold() != "bydra graam" or unit.faction != "narora" or unit.at is None:
        return False
    near = position.neighbours(unit.at)
    if not unit.carrying:
        return gate_node("narora") in near
    return any(u.chip.casefold() == "nucleus" and u.faction == "graft" and u.at in near for u in position.units.values())


# ---------------------------------------------------------------- once a unit's move ends


def _beside_end(position: Position, node: str) -> list[str]:
    """The map hexes beside a node; a unit in a gate is beside nothing (FAQ-15: "Adjacent effects
    skip units in the gate"), so neither is one that ends its move there."""
    return [] if _is_gate(node) else [h for h in position.neighbours(node) if h in position.hexes]


def _struck_units(position: Position, mover: Unit, end: str) -> list[Unit]:
    """The opposing units on the map beside ``end`` as the move began (Once a unit's move ends): not a
    campfired hero (game-elements, Campfire Mode: they "cannot be interacted with in any way"; FAQ-18:
    displacement aside), not a Peaceful unit unless the mover is a merc (Peaceful: damage from mercs
    only); Flying ones too (FAQ-28)."""
    near = set(_beside_end(position, end))
    return [
        u for u in position.units.values()
        if u.id != mover.id and u.at in near and opposing(position, u.faction, mover.faction)
        and not u.campfire and ("Peaceful" not in u.talents or mover.merc)
    ]


def _vein_struck(position: Position, unit: Unit, outcome: MoveOutcome) -> dict[str, int]:
    """Harbinger chapter 4, Scenario Rules: "If a naroran unit is adjacent to the Source vein at the end
    of its movement, it may deal damage to the Source vein equal to the naroran unit's health. Then,
    the naroran unit is defeated." The vein: the other chip so named, while it has a health chip; the
    unit's health: its life less what it took on its way; "may", either way (docs/movement.md, The
    Source vein)."""
    chapter = position.scenario.chapter if position.scenario is not None else None
    if chapter != 4 or unit.faction != "narora" or unit.kind is Kind.LANDMARK_MINION:
        return {}
    near = set(_beside_end(position, outcome.end))
    return {c.id: life(unit) - outcome.damage for c in position.chips
            if c.at in near and c.health and " ".join(c.name.split()).casefold() == "source vein"}


def _walks_back(position: Position, hero: Unit, ai: bool) -> bool:
    """A player's hero's stay may be a walk away and back (Once a unit's move ends): from a map hex
    it may enter again, with movement 2 or more, to a free hex beside it that it may enter and leave
    (no Mire stop) and back, for no damage and no die, which ends a move on its start; a Breakneck
    hero's only where its start is as close to its mark as its ends (N270)."""
    start = position.node_of(hero.id)
    if ai or hero.kind is not Kind.HERO or _is_gate(start) or movement_stat(position, hero, ai) < 2:
        return False
    if not _admits(position, hero, start) or hurt(position, hero, start, ai):
        return False
    if "Breakneck" in hero.talents and not _shut(position, hero, ai):  # N270: a move back onto its start too
        ends = [o.end for o in _hero_outcomes(position, hero, ai) if o.kind == FREE]
        d = distances(position, hero)
        if ends and d.get(start) != d.get(ends[0]):
            return False
    taken = _chip_hexes(position) | set(_units_by_hex(position, hero.id)) | stop_hexes(position, hero)
    return any(
        h not in taken and _admits(position, hero, h) and not hurt(position, hero, h, ai)
        and not rolls_on(position, hero, h, ai)
        for h in _beside_end(position, start)
    )


def strike_choices(position: Position, unit: Unit, outcome: MoveOutcome, ai: bool) -> list[tuple[Strike, ...]]:
    """What the unit deals the chips beside its end once this move ends, one tuple per choice, by chip.

    Impale (both sides): "At the end of this unit's movement, deal 1 damage to all adjacent opposing
    units it was not adjacent to prior to moving." Source Aura: "After this unit's movement, it may
    deal 1 damage to all adjacent opposing spires and units" (a player's: with and without), the AI's
    "deals". Nothing where the unit fell on its way, returned to its gate, or stayed (no movement),
    unless a player's hero could walk away and back. Damage to a chip adds up over the talents; a unit
    whose health and fortifications it takes is defeated (FAQ-29); chapter 4's Source vein, its last
    health chip removed, is shown defeated."""
    if outcome.defeated or (outcome.kind == STAY and not _walks_back(position, unit, ai)):
        return [()]
    start = position.node_of(unit.id)
    before = {u.id for u in _struck_units(position, unit, start)} if not _is_gate(start) else set()
    beside = _struck_units(position, unit, outcome.end)
    dealt: list[tuple[dict[str, int], bool]] = []  # each talent's damage by chip, and whether it may be left
    if "Impale" in unit.talents:
        dealt.append(({u.id: 1 for u in beside if u.id not in before}, False))
    if "Source Aura" in unit.talents:
        near = set(_beside_end(position, outcome.end))
        spires = {s.id: 1 for s in position.spires if s.at in near and opposing(position, s.faction, unit.faction)}
        dealt.append(({**{u.id: 1 for u in beside}, **spires}, not ai))
    vein = _vein_struck(position, unit, outcome)
    if vein:
        dealt.append((vein, True))
    lives = {u.id: life(u) for u in position.units.values()} | {c.id: c.health or 0 for c in position.chips}
    choices: set[tuple[Strike, ...]] = set()
    for used in product(*[(True, False) if optional else (True,) for _, optional in dealt]):
        total: dict[str, int] = {}
        for (chips, _), on in zip(dealt, used):
            for chip, n in chips.items() if on else ():
                total[chip] = total.get(chip, 0) + n
        choices.add(tuple(sorted(_strike(position, c, n, lives) for c, n in total.items())))
    return sorted(choices)


def _strike(position: Position, chip: str, n: int, lives: dict[str, int]) -> Strike:
    """N302: what ``n`` damage once a move ends does to ``chip``: a spire loses its bottom upgrade (an attack or
    range one to 1 or more, a fortification to 2 or more), or falls with none left (reading spire-defeat
    last-upgrade: its last one taken too); a fortress gate falls at 0 health; a unit whose life it takes falls."""
    spire = next((sp for sp in position.spires if sp.id == chip), None)
    if spire is not None:
        if n < (2 if spire.upgrades[:1] == ("fortification",) else 1):
            return Strike(chip, n)
        last = position.readings.get("spire-defeat", "bare") == "last-upgrade"
        if not spire.upgrades or (last and len(spire.upgrades) == 1):
            return Strike(chip, n, True)
        return Strike(chip, n, False, spire.upgrades[0])
    if _is_gate(chip):
        return Strike(chip, n, n >= position.gates[chip.removeprefix("gate:")].health)
    return Strike(chip, n, chip in lives and n >= lives[chip])


def glidebomb_choices(position: Position, unit: Unit, outcome: MoveOutcome, ai: bool) -> list[MoveOutcome]:
    """Glidebomb: "After or instead of this unit's movement, you may defeat it. If you do, deal 2 damage
    to all adjacent units, fortress gates, and spires"; the AI's: "After this unit uses Roost Roam to
    move, it is defeated. It deals 2 damage ...". Every unit beside its end, any faction's, not a
    campfired one, not a Peaceful one unless it is a merc; every spire and fortress gate beside it
    (FAQ-15: from a gate, beside nothing). A player's with and without, a stay too ("instead of"); the
    AI's after a move off its hex only. Nothing from a unit defeated on its way."""
    if "Glidebomb" not in unit.talents or outcome.defeated or _is_gate(outcome.end) or (ai and outcome.kind == STAY):
        return [outcome]
    near = set(_beside_end(position, outcome.end))
    dealt = {u.id: 2 for u in position.units.values()
             if u.id != unit.id and u.at in near and not u.campfire and ("Peaceful" not in u.talents or unit.merc)}
    dealt |= {sp.id: 2 for sp in position.spires if sp.at in near}
    dealt |= {gate_node(f): 2 for f, g in position.gates.items()
              if g.fortress and gate_node(f) in position.neighbours(outcome.end)}
    glided = dataclasses.replace(outcome, exit="defeated", struck=_merged(
        position, outcome.struck, dealt, unit.id, life(unit) - outcome.damage))
    return [glided] if ai or _bound(position, unit, outcome.end, ai) else [outcome, glided]


def _bound(position: Position, unit: Unit, end: str, ai: bool) -> bool:
    """N250 Roost Roam: a player's elfinkaze "not on a chip with Roost at the start of your turn ... must end
    its movement on a chip with Roost or use Glidebomb or Save": off a roost as its move begins, its move
    ending on no chip of its faction with Roost it then rides (a stay: on none)."""
    return not ai and not _on_roost(position, unit) and _perch(position, unit, end) is None


def eruption_choices(position: Position, unit: Unit, outcome: MoveOutcome, ai: bool) -> list[MoveOutcome]:
    """N129 Eruption, once a minion's move ends on a map hex (not defeated on its way, not a stay): 3
    to every unit beside its end (any faction's; not a campfired one, not a Peaceful one unless it is
    a merc), every spire and every fortress gate beside it, then off the board to its barracks. The
    AI's (harbinger-rulebook): "if it is adjacent to an opposing fortress gate or if it has 2 health or
    less and is adjacent to an opposing unit or spire", its health its life less what it took on its
    way. A player's (the shada sheet, Lava): "you may spend 3 Source": with and without, where its
    faction holds 3 Source or more."""
    if ("Eruption" not in unit.talents or unit.kind is not Kind.MINION or outcome.defeated
            or outcome.kind == STAY or _is_gate(outcome.end)):
        return [outcome]
    near = set(_beside_end(position, outcome.end))
    gates = {gate_node(f): f for f, g in position.gates.items()
             if g.fortress and gate_node(f) in position.neighbours(outcome.end)}
    if ai:
        foes = [u for u in position.units.values() if u.id != unit.id and u.at in near
                and opposing(position, u.faction, unit.faction)]
        foes += [s for s in position.spires if s.at in near and opposing(position, s.faction, unit.faction)]
        low = life(unit) - outcome.damage <= 2
        if not any(opposing(position, f, unit.faction) for f in gates.values()) and not (low and foes):
            return [outcome]
    elif position.factions[unit.faction].source < 3:
        return [outcome]
    dealt = {u.id: 3 for u in position.units.values()
             if u.id != unit.id and u.at in near and not u.campfire and ("Peaceful" not in u.talents or unit.merc)}
    dealt |= {sp.id: 3 for sp in position.spires if sp.at in near}
    dealt |= dict.fromkeys(gates, 3)
    erupted = dataclasses.replace(outcome, exit="barracks", struck=_merged(
        position, outcome.struck, dealt, unit.id, life(unit) - outcome.damage), spent=0 if ai else ERUPTION_PRICE)
    return [erupted] if ai else [outcome, erupted]


def disperse_choices(
    position: Position, unit: Unit, outcome: MoveOutcome, ai: bool
) -> list[tuple[str, dict[str, int]]]:
    """Where Disperse places the unit once this move ends, and what it deals then, one pair per choice
    ('', nothing: not placed).

    harbinger-rulebook, Disperse (AI): "At the end of this unit's movement, if it is not adjacent to an
    opposing faction minion, this unit will place itself on a valid hex up to 2 hexes away that is
    adjacent to an opposing faction minion. This unit will then deal 2 damage to the opposing unit and
    1 damage to itself." A player's (the shada sheet, Ash): "it may place itself onto a valid hex up to 2
    hexes away, so long as that hex is adjacent to an opposing faction minion": beside one or not, and not
    placed is a choice too. The minions are where
    they stood as the move began; 2 hexes are counted as range counts them, through any node; a valid
    hex is a map hex it admits, with a distance to its mark, no chip and no other unit on it, as the
    move began, nor a unit the move displaced where it landed (the answer notices that case). Each
    such hex and each minion beside it is a choice (docs/movement.md, Once a unit's move ends).
    Peaceful spares a minion, and the unit itself, unless the unit is a merc."""
    none: list[tuple[str, dict[str, int]]] = [("", {})]
    if unit.kind is not Kind.MINION or "Disperse" not in unit.talents:
        return none
    if outcome.defeated or outcome.kind == STAY or _is_gate(outcome.end):
        return none
    foes = {u.at: u for u in position.units.values()
            if u.kind is Kind.MINION and u.at is not None and opposing(position, u.faction, unit.faction)}
    if ai and any(h in foes for h in _beside_end(position, outcome.end)):
        return none
    within = _bfs(position, [outcome.end], lambda _n: True)
    held = _chip_hexes(position) | set(_units_by_hex(position, unit.id)) | {d.to for d in outcome.displaced}
    reach = distances(position, unit)
    spots = sorted(h for h, steps in within.items() if 0 < steps <= 2 and h in position.hexes and h not in held
                   and h in reach and _admits(position, unit, h))

    def hit(x: Unit) -> int:
        return 0 if "Peaceful" in x.talents and not unit.merc else 1

    placed = [(spot, {foes[h].id: 2 * hit(foes[h]), unit.id: hit(unit)})
              for spot in spots for h in position.neighbours(spot) if h in foes]
    return placed or none if ai else none + placed


def _added(dealt: dict[str, int], strikes: tuple[Strike, ...]) -> dict[str, int]:
    """What Disperse deals, and what the unit dealt on its way (Blaze), by chip."""
    total = dict(dealt)
    for s in strikes:
        total[s.chip] = total.get(s.chip, 0) + s.damage
    return total


def _merged(position: Position, strikes: tuple[Strike, ...], dealt: dict[str, int], mover: str,
            health: int) -> tuple[Strike, ...]:
    """What a move deals once it ends, Disperse's added by chip; a unit whose life it takes is defeated,
    the mover by its health once its move ends (its life less what it took on its way)."""
    if not dealt:
        return strikes
    total = {s.chip: s.damage for s in strikes}
    for chip, n in dealt.items():
        total[chip] = total.get(chip, 0) + n
    lives = {u.id: life(u) for u in position.units.values()} | {mover: health}
    return tuple(sorted(_strike(position, c, n, lives) for c, n in total.items() if n > 0))


# ---------------------------------------------------------------------------- the whole step


def _placed(unit: Unit, node: str, moved: bool, damage: int = 0, defeated: bool = False) -> Unit:
    """The unit on ``node`` with the damage it took on the way: a fortification goes first (FAQ-29).
    Defeated, it is off the board with no health, or its group's next chip is on top there, whole
    (game-elements: Groups)."""
    done = dataclasses.replace(unit.done, moved=True) if moved else unit.done
    placed = dataclasses.replace(unit, at=None if _is_gate(node) else node, done=done)
    if defeated and unit.group:
        below = unit.group[0]
        return dataclasses.replace(placed, chip=below.chip, stats=below.stats, talents=below.talents,
                                   reward=below.reward, merc=below.merc, talent_numbers=below.talent_numbers,
                                   group=unit.group[1:], upgrades=(), promoted=False, promoted_stats=None,
                                   capacity=None, health=below.stats.health)
    if defeated:
        return dataclasses.replace(placed, at=None, health=0)
    if damage < 0:  # healed instead (chapter 8): past its health stat, upgrades kept
        return dataclasses.replace(placed, health=unit.health - damage)
    shield = min(damage, unit.upgrades.count("fortification"))
    upgrades = list(unit.upgrades)
    for _ in range(shield):
        upgrades.remove("fortification")
    return dataclasses.replace(placed, upgrades=tuple(upgrades), health=unit.health - (damage - shield))


def apply_move(position: Position, move: MoveOutcome) -> Position:
    """The board after a move; a hero put on its gate has left the board and moves no more. An act
    before the move comes first, one after it last: a flip after the move takes the upgrades its damage
    on the way left, and a unit leaving its group after its move (Scatter) leaves it where the move ended."""
    if any(a.how == "discard" for a in move.acts):  # N171: off the board and out of play, no move made
        gone = position.units[move.unit]
        gone = dataclasses.replace(gone, at=None, discarded=True, done=dataclasses.replace(gone.done, moved=True))
        return dataclasses.replace(position, units={**position.units, move.unit: gone})
    left = [a for a in move.acts if a.when == "after"]
    for act in move.acts:  # before: the chip acted on, the unit flipped or promoted
        if act not in left:
            position = _paid(position, position.units[move.unit], act)
            if act.talent in INSTEAD_OR_AFTER or act.then == "barracks":  # N194, N225: no move after it
                gone = position.units[move.unit]
                gone = dataclasses.replace(gone, done=dataclasses.replace(gone.done, moved=True))
                return dataclasses.replace(position, units={**position.units, move.unit: gone})
    position = _earned(position, move)
    units = dict(position.units)
    units[move.unit] = _placed(units[move.unit], move.placed or move.end, True, move.damage, move.defeated)
    if move.kind == RETURN and not move.defeated:  # N338: "it immediately recovers to full health"
        home = units[move.unit]
        units[move.unit] = dataclasses.replace(home, health=max(home.health, home.stats.health))
    if move.lost:  # N247: the item left it as it took damage on its way
        units[move.unit] = dataclasses.replace(units[move.unit], talents=tuple(
            t for t in units[move.unit].talents if t not in move.lost))
    for push in move.displaced:
        units[push.unit] = _placed(units[push.unit], push.to, _is_gate(push.to), push.damage, push.defeated)
    # Roost: "When this unit moves, elfinkaze on it are moved with it" (FAQ-02: not their own move); an
    # elfinkaze off its roost's hex rides nothing. A roost fallen or gone: its riders stay, riding nothing.
    moves = {move.unit: move.placed or move.end} | {p.unit: p.to for p in move.displaced}
    for uid, u in list(units.items()):
        was = position.units.get(uid)  # None: a chip its group revealed after the move (Scatter)
        if was is None or was.rides is None:
            continue
        if uid in moves:
            units[uid] = dataclasses.replace(u, rides=None) if u.at != was.at else u
        elif was.rides in moves and was.at == position.units[was.rides].at:
            roost = units[was.rides]
            landed = moves[was.rides] if moves[was.rides] in position.hexes else was.at
            units[uid] = dataclasses.replace(u, at=roost.at) if roost.at else dataclasses.replace(u, at=landed, rides=None)
    for rider, damage, defeated in move.carried:  # N152: what its way cost the riders it carried
        carried = units[rider]
        if carried.at is not None:
            units[rider] = _placed(carried, carried.at, False, damage, defeated)
    mover = units[move.unit]
    perch = _perch(position, mover, mover.at) if mover.at != position.units[move.unit].at else None
    if perch is not None:  # N153: it rides the roost it moved onto, its number its movement stat
        units[move.unit] = dataclasses.replace(mover, rides=perch[0], stats=dataclasses.replace(mover.stats, movement=perch[1]))
    for felled in move.felled:  # on a chip a teleport landed it on: defeated, its group with it
        units[felled] = dataclasses.replace(units[felled], at=None, health=0)
    position = _swapped(position, move)
    # What it dealt once its move ended, to the units wherever they stand now (the mover where Disperse
    # placed it); N302: a spire loses its bottom upgrade, or falls (a rider on it then rides nothing).
    hit_gates = {}  # N130: a fortress gate struck loses that much health, down to 0
    veins = {c.id: c for c in position.chips if c.health}
    spires = {sp.id: sp for sp in position.spires}
    for strike in move.struck:
        struck = units.get(strike.chip)
        if strike.chip in veins:  # N210
            veins[strike.chip] = _vein_after(veins[strike.chip], strike.damage)
        elif strike.chip in spires and strike.defeated:
            del spires[strike.chip]
            units.update({uid: dataclasses.replace(u, rides=None) for uid, u in units.items() if u.rides == strike.chip})
        elif strike.chip in spires and strike.removed:
            spires[strike.chip] = dataclasses.replace(spires[strike.chip], upgrades=spires[strike.chip].upgrades[1:])
        elif struck is not None and struck.at is not None:
            units[strike.chip] = _placed(struck, struck.at, False, strike.damage, strike.defeated)
        elif _is_gate(strike.chip):
            gate = position.gates[strike.chip.removeprefix("gate:")]
            hit_gates[gate.faction] = dataclasses.replace(gate, health=max(0, gate.health - strike.damage))
    position = dataclasses.replace(position, spires=tuple(spires[sp.id] for sp in position.spires if sp.id in spires))
    if move.exit == "defeated":  # Glidebomb: "you may defeat it"
        units[move.unit] = _placed(units[move.unit], units[move.unit].at or "", False, 0, True)
    elif move.exit in ("barracks", "fortress"):  # N129 Eruption, undefeated; N168 Rigging, to its fortress
        units[move.unit] = dataclasses.replace(units[move.unit], at=None)
    for act in left:  # a spire it strips (Yrtel's Will) changes with the units
        position = _paid(dataclasses.replace(position, units=units), units[move.unit], act)
        units = dict(position.units)
    gates = {
        faction: dataclasses.replace(hit_gates.get(faction, gate),
                                     stack=tuple(u for u in gate.stack if units[u].at is None and units[u].health))
        for faction, gate in position.gates.items()
    }
    chips = tuple(veins.get(c.id, c) for c in position.chips)
    return dataclasses.replace(position, units=units, gates=gates, chips=chips)


def _vein_after(vein: Chip, damage: int) -> Chip:
    """N210: the Source vein once a strike deals it ``damage``."""
    if damage < vein.health or vein.earthscapes is None:
        return dataclasses.replace(vein, health=max(0, vein.health - damage))
    left = vein.earthscapes - 1
    return dataclasses.replace(vein, health=3 if left > 0 else 0, earthscapes=left)


def _swapped(position: Position, move: MoveOutcome) -> Position:
    """N126: the landmarks after a hero's move through an open Secret Passage."""
    passages = {lm.at: lm for lm in position.landmarks if lm.health == 0}
    route = move.path
    for i, node in enumerate(route):
        passage = passages.get(node)
        if passage is None or i == 0:
            continue
        landed = route[i + 1] if i + 1 in move.landed else node
        health = 0 if move.end == landed else 1
        landmarks = tuple(dataclasses.replace(lm, at=node) if lm.at == landed and not lm.revealed else
                          dataclasses.replace(lm, at=landed, health=health) if lm.id == passage.id else lm
                          for lm in position.landmarks)
        return dataclasses.replace(position, landmarks=landmarks)
    return position


def node_now(position: Position, uid: str) -> str:
    """Where the unit stands: "defeated" when damage taken while moving defeated it, "discarded" when its
    Anarchy die discarded it (N171)."""
    unit = position.units[uid]  # N192: a burrowed unit has no health, and stands on its hex
    return "defeated" if unit.health == 0 and not unit.burrowed else "discarded" if unit.discarded else position.node_of(uid)


def final_board(position: Position, faction: str, before: dict[str, str] | None = None) -> Final:
    """Where every unit of the faction stands, and every other unit that is not where it stood
    ``before`` the step (a displaced Flying or Peaceful unit)."""
    own = [(u.id, node_now(position, u.id)) for u in _faction_units(position, faction)]
    moved = [(uid, node_now(position, uid)) for uid, node in (before or {}).items() if node_now(position, uid) != node]
    return tuple(sorted(own + moved))


def healths(position: Position, start: Position) -> tuple[tuple[str, int], ...]:
    """The units whose health changed since ``start``, with their health now (a unit a group revealed,
    Scatter, has none to change from), then the fortress gates whose health changed (N130), then 0 for
    each spire gone (N302)."""
    units = tuple((uid, u.health) for uid, u in sorted(position.units.items())
                  if uid in start.units and u.health != start.units[uid].health)
    gates = tuple((g.node, g.health) for f, g in sorted(position.gates.items()) if g.health != start.gates[f].health)
    was = {c.id: (c.health, c.earthscapes) for c in start.chips}
    veins = tuple((c.id, c.health or 0) for c in position.chips if c.id in was and (c.health, c.earthscapes) != was[c.id])
    standing = {sp.id for sp in position.spires}
    fallen = tuple((sp.id, 0) for sp in start.spires if sp.id not in standing)
    return units + gates + veins + fallen  # N130, N210, N302: a spire gone, 0


def fortifications(position: Position, start: Position) -> Health:
    """The units that lost a fortification upgrade since ``start``, with how many they keep."""
    def count(unit: Unit) -> int:
        return unit.upgrades.count("fortification")

    return tuple((uid, count(u)) for uid, u in sorted(position.units.items())
                 if uid in start.units and count(u) != count(start.units[uid]))


def roll_results(unit: Unit, move: MoveOutcome) -> list[MoveOutcome]:
    """Chapter 1: "If the unit rolls a miss, it loses 1 health": the move once for each number of
    misses its dice may show (a miss and a hit both on the die), up to its life, which defeats it."""
    if not move.rolls:
        return [move]
    most = min(move.rolls, life(unit))
    return [dataclasses.replace(move, damage=j, defeated=j >= life(unit)) for j in range(most + 1)]


def sides(position: Position, start: Position) -> tuple[tuple[str, str], ...]:
    """The units an act flipped or promoted since ``start``, with the side they show now, and the spires an act
    made another chip (N225: a siege tower), promoted."""
    printed = {s.id: s.chip for s in start.spires}
    return tuple(sorted((*((uid, "promoted" if u.promoted else "basic") for uid, u in position.units.items()
                           if uid in start.units and u.promoted != start.units[uid].promoted),
                         *((s.id, "promoted") for s in position.spires if s.id in printed and s.chip != printed[s.id]))))


def spire_upgrades(position: Position, start: Position) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The spires an act stripped since ``start``, with the upgrades they keep (N225: one built since, those
    it holds); N144: then the units an act gave or took an upgrade other than a fortification (Radiate), with
    those they hold, but a unit an act flipped (its upgrades removed with the flip: ``sides``)."""
    was = {s.id: s.upgrades for s in start.spires}
    spires = tuple(sorted((s.id, s.upgrades) for s in position.spires if s.upgrades != was.get(s.id, ())))
    units = tuple(sorted((uid, _unfortified(u.upgrades)) for uid, u in position.units.items() if _kept_side(uid, u, start)
                         and _unfortified(u.upgrades) != _unfortified(start.units[uid].upgrades)))
    return spires + units


def _unfortified(upgrades: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(u for u in upgrades if u != "fortification")


def _kept_side(uid: str, unit: Unit, start: Position) -> bool:
    """The unit stood as the step began and shows the chip and side it showed then."""
    was = start.units.get(uid)
    return was is not None and (unit.chip, unit.promoted) == (was.chip, was.promoted)


def placed(position: Position, start: Position) -> tuple[tuple[str, str], ...]:
    """N144: the chips and landmarks an act placed or moved since ``start``, with their hex, and those it
    took off the map, "removed" (Dig's Tunnel Access chip, Twister's landmark, Portable Gateport's item)."""
    was = {c.id: c.at for c in (*start.chips, *start.landmarks)}
    now = {c.id: c.at for c in (*position.chips, *position.landmarks)}
    return tuple(sorted((*((c, at) for c, at in now.items() if was.get(c) != at),
                         *((c, "removed") for c in was if c not in now))))


# The talents that are items a unit holds (landmark-and-market-talents: "Item"): the only ones an act gives or takes.
ITEMS = (GATEPORT, "Cumbersome")


def held(position: Position, start: Position) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """N144: the units whose items an act changed since ``start`` (picked up, dropped or lost), with the items
    they hold, but a unit an act flipped. (This reference strips a talent once used for the move; only items
    tell boards apart.)"""
    def items(unit: Unit) -> tuple[str, ...]:
        return tuple(sorted(t for t in set(unit.talents) if t in ITEMS))
    return tuple(sorted((uid, items(u)) for uid, u in position.units.items()
                        if _kept_side(uid, u, start) and items(u) != items(start.units[uid])))


def sources(position: Position, start: Position) -> tuple[tuple[str, int], ...]:
    """N215: the factions whose Source changed since ``start``, with their Source now."""
    return tuple((f, x.source) for f, x in sorted(position.factions.items()) if x.source != start.factions[f].source)


def controlled(position: Position, start: Position) -> tuple[tuple[str, str], ...]:
    """The units and spires whose faction an act changed since ``start`` (N194: a spire replaced by the
    unit's faction's; N225: a spire built since), with that faction."""
    was = {**{u.id: u.faction for u in start.units.values()}, **{s.id: s.faction for s in start.spires}}
    built = {s.id for s in position.spires} - {s.id for s in start.spires}
    now = [*((u.id, u.faction) for u in position.units.values()), *((s.id, s.faction) for s in position.spires)]
    return tuple(sorted((x, f) for x, f in now if (x in was and f != was[x]) or x in built))


BEFORE, MINIONS, AFTER = "heroes before", "minions", "heroes after"


class _StepSearch:
    """Every order of moves of one movement step, memoised on the board (The whole movement step)."""

    def __init__(self, start: Position, ai: bool) -> None:
        self.faction = start.turn.faction
        self.ai = ai
        self.start = start
        # where the other factions' units stand as the step begins
        self.before = {u.id: u.at for u in start.units.values() if u.faction != self.faction and u.at is not None}
        self.memo: dict[tuple[object, ...], Finals] = {}
        self.options: dict[tuple[object, ...], UnitOptions] = {}

    def _key(self, position: Position) -> tuple[object, ...]:
        units = _faction_units(position, self.faction)
        moved = tuple(u.id for u in units if u.done.moved)
        gate = position.gates.get(self.faction)
        board = final_board(position, self.faction, self.before)
        forts = fortifications(position, self.start)
        changed = (sides(position, self.start), spire_upgrades(position, self.start), sources(position, self.start),
                   controlled(position, self.start), placed(position, self.start), held(position, self.start))
        chips = gate.health_chips if gate else None  # N211: what is left for the deploys after
        return board, healths(position, self.start), forts, *changed, moved, gate.stack if gate else (), chips

    def _options(self, position: Position, unit: str) -> UnitOptions:
        key = (*self._key(position), unit)
        if key not in self.options:
            self.options[key] = unit_options(position, unit, self.ai)
        return self.options[key]

    def _ready(self, position: Position, kind: Kind) -> list[str]:
        """The units free to move as ``kind`` moves: an elfinkaze as a hero, before or after the minions
        (FAQ-11: "may not interrupt the movement of minions")."""
        units = _faction_units(position, self.faction)
        return [u.id for u in units if moves_as(position, u, self.ai) is kind and not must_wait(position, u)]

    def _stacked_first(self, position: Position) -> bool:
        gate = position.gates.get(self.faction)
        stack = gate.stack if gate else ()
        ready = set(self._ready(position, Kind.HERO))
        return any(
            uid in ready and any(position.units[below].kind is Kind.MINION for below in stack[i + 1 :])
            for i, uid in enumerate(stack)
        )

    def finals(self, position: Position, phase: str) -> Finals:
        key = (phase, *self._key(position))
        if key not in self.memo:
            self.memo[key] = self._explore(position, phase)
        return self.memo[key]

    def _moves(self, position: Position, unit: str, phase: str, found: Finals) -> None:
        results = (r for o in self._options(position, unit).outcomes for r in roll_results(position.units[unit], o))
        for move in results:
            _likeliest(found, {final: (move, *sequence) for final, sequence in self.finals(apply_move(position, move), phase).items()})

    def _explore(self, position: Position, phase: str) -> Finals:
        found: Finals = {}
        if phase == BEFORE:
            # Any heroes may move before all minions, in any order; the rest after them.  A hero
            # stacked above minions in the gate was stacked "before your minions": it goes first.
            if not self._stacked_first(position):
                _likeliest(found, self.finals(position, MINIONS))
            for hero in self._ready(position, Kind.HERO):
                self._moves(position, hero, BEFORE, found)
        elif phase == MINIONS:
            # The leading minion first: closest to its mark among those free to move; ties any order.
            ready = self._ready(position, Kind.MINION)
            if not ready:
                return self.finals(position, AFTER)
            start = {m: self._options(position, m).start_distance for m in ready}
            distance = {m: math.inf if d is None else d for m, d in start.items()}
            lead = min(distance.values())
            for minion in ready:
                if distance[minion] == lead:
                    self._moves(position, minion, MINIONS, found)
        else:
            heroes = self._ready(position, Kind.HERO)
            if not heroes:
                return {(final_board(position, self.faction, self.before), healths(position, self.start),
                         fortifications(position, self.start), sides(position, self.start),
                         spire_upgrades(position, self.start), sources(position, self.start),
                         controlled(position, self.start), placed(position, self.start), held(position, self.start)): ()}
            for hero in heroes:
                self._moves(position, hero, AFTER, found)
        return found


def _chance(sequence: tuple[MoveOutcome, ...]) -> Fraction:
    return math.prod((m.chance for m in sequence if m.chance is not None), start=Fraction(1))


def _likeliest(found: Finals, more: Finals) -> None:
    """N298: each final board keeps its likeliest sequence, where orders of moves reach it with different dice
    (a hero that rolls for Anarchy before the minions, or is defeated by their moves before it moves)."""
    for final, sequence in more.items():
        if final not in found or _chance(sequence) > _chance(found[final]):
            found[final] = sequence


def moves_as(position: Position, unit: Unit, ai: bool) -> Kind:
    """A hero's or a minion's turn in the step's order: an elfinkaze a hero's, a controlled landmark minion a minion's
    (N277)."""
    return Kind.HERO if _roams(unit, ai) else Kind.MINION if _controlled(position, unit) else unit.kind


def movement_step(position: Position, ai: bool) -> StepResult:
    """Every distinct final board of the current faction's movement step, each with one sequence."""
    found = _StepSearch(position, ai).finals(position, BEFORE)
    outcomes = tuple(StepOutcome(final, sequence, health, forts, flipped, stripped, source=source, control=control,
                                 chips=chips, talents=talents)
                     for (final, health, forts, flipped, stripped, source, control, chips, talents), sequence
                     in sorted(found.items()))
    return StepResult(position.turn.faction, ai, len(outcomes), outcomes)


def tunnel_beside(position: Position) -> tuple[str, ...]:
    """N240: the hexes the griege gate is beside as the griege minions waiting in it deploy this turn."""
    gate = position.gates["griege"]
    waiting = [position.units[u] for u in gate.stack if position.units[u].kind is Kind.MINION]
    steps = {"gate:narora": 0}
    frontier = ["gate:narora"]
    while frontier:  # range counts: every node, through anything
        nxt = []
        for node in frontier:
            for near in position.neighbours(node):
                if near not in steps:
                    steps[near] = steps[node] + 1
                    nxt.append(near)
        frontier = nxt
    held = {u.at for u in position.units.values()} | {s.at for s in position.spires}
    held |= {lm.at for lm in position.landmarks} | {c.at for c in position.chips}

    def open_hex(h: str) -> bool:
        terrain = position.hexes[h].terrain
        return h not in held and all(terrain.level <= allowance_level(u) for u in waiting)

    possible = [c for c in position.chips if c.name == "Tunnel Access"
                and any(open_hex(h) for h in position.adjacency.get(c.at, ()) if h in position.hexes)]
    if not waiting or not possible:
        return gate.beside
    nearest = min(steps[c.at] for c in possible)
    return tuple(sorted({h for c in possible if steps[c.at] == nearest
                         for h in position.adjacency.get(c.at, ()) if h in position.hexes}))
