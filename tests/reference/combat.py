"""A brute-force reference of Cloudspire combat, to cross-check the ASP encodings.

Written from docs/combat.md (the contract) and the rule texts it cites; it shares nothing with asp/
or the solver path.  It plays every attack out on a copy of the board: every order of attacks in an
attack step, every redirect and level-up choice, every roll of every spire.  Section names in
comments are those of docs/combat.md unless another text is named.

NOTES: readings this reference takes where docs/combat.md is silent or leaves room
---------------------------------------------------------------------------------
N1  A landmark minion the file gives a faction, not Devoted's (N36), is under that faction's control
    (Recruiter, Recruitable) and is its unit in every respect (game-elements, Game Setup: "any other
    units under your control ... are your faction units"): it opposes, is attacked, attacks (a minion
    that must, the AI's by its priority), retaliates and is credited as that faction's minions are;
    it keeps the wave going and counts for its faction in campfire checks; the talents that read a
    faction unit (Press Gang, Assimilate, Prophesy, Assist, Channel, Swindle, Sourcefield, Incinerate,
    Pacify's AI "opposing faction unit") read it (game-elements, Mercs: units a faction controls count
    for effects "referring to 'faction units'"). Only what the chip is still counts as a landmark
    minion: discarded when defeated, Hunter, Engage, Eager, the landmark minions Pacify discards, the
    AI's priority category; and chapter 2's "Graft units" and chapter 8's "naroran unit" do not count
    it (a wording naming a faction: game-elements, Mercs). Every other landmark minion
    belongs to no faction (``free``): a defeat by its retaliation credits no one (``Defeat.by`` is "",
    no Gain), it counts for no faction in campfire checks, and it never attacks.  Wherever a note
    below says "no landmark minion" for a faction's unit, it means one no faction controls.
N2  A spire has no printed name in the model: its ``Defeat.name`` is "", as a gate's.
N3  Redirect under gate-redirect=both: the unit in the gate retaliates first (step 4), then the gate
    (step 5).  Each hit is applied at once; once the attacking chip is defeated, a later
    retaliation of the same attack is not dealt (not to a revealed chip either: it did not attack,
    as "extra damage ... does not carry over").
N4  The wave ending does not cut an attack short: its level-ups and retaliations resolve, and the
    step ends after it.  A position with no faction minion in play has no attacks at all.
N5  ``attack_options`` lists a level-up with ``chosen=None`` and plays the rest of the attack (gate
    retaliation) as if a player's hero declined it; an AI hero's attack upgrade is applied.
N6  An AI hero whose priority targets would all take no damage skips: no outcomes, ``must_attack``
    False, ``cannot`` empty (it could attack; the AI declines).  Engage ("must do so") overrides the
    skip.  Of tied priority targets, an AI hero attacks only those that would take damage.
N7  Level-up options: an AI hero gets ("attack",) before the capacity is looked at (ai-rules: the
    AI "ignores ... upgrade capacities"), so even without a capacity in the file.
N8  A basic hero at capacity without ``promoted-stats`` cannot be promoted by the adjudicator: its
    options are ("not-adjudicated",) and nothing changes.  A promoted hero without them keeps its stats.
N9  Campfire is reported only while the wave goes on, for the one faction with units in play, and
    only when it has a hero in play (map or gate) not already in campfire mode.  Both readings name
    the same faction; ``campfire_when`` differs.  The Spires Fire step reports no campfire.  Under
    start-of-turn the position's own ``campfire`` flags are taken as given.
N10 ``ai=True`` makes the turn's faction act as the AI in every respect (targets, level-ups,
    forfeited rewards); every other faction follows its controller.
N11 An AI faction that pillages a gate gets ``Gain(pillaged=<gate's faction>, forfeited=True)``.  A
    forfeited Gain is listed only for a defeat whose reward is not empty, or for a gate.
N12 Flying on a player's unit works only while no chips wait beneath it (its "Ungrouped only"), for
    being attacked and for attacking Flying units alike; the AI wording has no "Ungrouped only", so
    an AI unit's Flying works grouped too (docs/combat.md).  A spire with Flying may fire at Flying
    units, and is attackable by anyone.
N13 The AI's fallback category, after its list ("any valid target"), is named ``any-target``.
N14 Armored is a unit's talent: spires take the full damage.  A unit waiting in its gate uses no
    talent: no Armored for redirected damage, no Slap to retaliate with attack 0.
N15 A gate retaliates when attacked even if the attack dealt 0 (Slap with attack 0).
N16 ``SpireTargets`` lists the spires that fire: opposing, with an attack upgrade and a target on
    the board as the step begins, in file order.
N17 Units waiting in a gate are in play: they keep the wave going and count for campfire.
N18 An attack on a gate damages it (for N6) when it deals 1 or more.
N19 A faction whose Source is already at or above its capacity gains 0 (it never drops).
N20 A Spires Fire step in which no spire fires has one result: nothing changes, probability 1.
N22 A hero levels up after the whole exchange, gate retaliation included, and only if it stands.
N23 Defeating a gate when at most one gate keeps its health ends the game: no pillage, the gate
    goes "fallen", the step ends.
N24 Camouflage: "adjacent" is a neighbour on the board (map hexes; a gate node is never a target's
    node).  It limits attacks and spire fire only; retaliation is no attack (FAQ-13).
N21 Defeating the top chip of a group, or the unit that took a redirected hit, is defeating a unit:
    a hero may level up, and the AI's ``defeat-K`` counts it.
N25 A unit's retaliation on the attacker: Prepared takes 1 off it, then Tough caps it at 2, then
    Dexterity makes it 0 if it would take the attacker's health and fortifications; a gate's 1 is
    left as it is.
N26 Evasive: an attack on the Evasive unit by a unit of range 2 or more (its Range, with range
    upgrades) deals at most 1, after Armored; spires are no units, and retaliation is no attack.
N27 Battle Hardened takes 2 off each spire's shot at the unit, beside Armored's 1.
N28 Hunter: the unit's attack on a landmark minion deals 1 more, before Armored; not its
    retaliation, and not on other chips.
N29 Fair Fight: attacking a unit, or retaliating against one, the unit's attack stat is that unit's;
    against a spire or a gate (a redirected hit included) its own. Whether it attacks or retaliates
    at all follows its own stat.
N30 Challenge: a hero with an opposing Challenge unit within 3 hexes (counted as range) may attack
    only such units; if none of them is a valid target, it attacks nothing.
N31 Waterwalker: no spire fires at the unit while it stands on a water hex.
N32 Hail: a unit with Flying within the range of an opposing unit with Hail (not in its gate, not
    campfired) has no Flying, for attacks and spire fire alike.
N34 Spike: after an attack on a unit (not waiting in its gate) or a spire with Spike, and after any
    retaliation, the attacker still standing takes 1 from it, even if the attack defeated it; nothing
    reduces it (no attack). An attack on a gate, redirect or not, sets off no Spike. A Spike hero
    still standing that defeats the attacker so levels up, as one whose retaliation does.
N33 Cover: a unit whose active chip is a taproot (its name, in any case), on a hex beside a spire in
    play with Cover, takes at most 1 from any attack, a unit's or a spire's shot, after everything
    else; retaliation is no attack.
N35 Harbinger chapter 7: the non-Graft factions are allied (tests/reference/sides.py): no attack, no
    spire firing, no opposing talent between them. A gate defeated in this chapter pillages nothing,
    neither way, and is reported "fallen".
N36 Devoted (FAQ-23): a landmark minion with Devoted is friendly to the faction the position gives it:
    no target of that faction's units (a Challenge of its binds none of them); every other's may.
N37 Harbinger chapter 8: what a naroran unit's attack or retaliation would cost a Graft unit, it gains
    instead, past its health stat; fortifications stay. So it is no damage in the AI's ranking.
N38 A "closest" category (Harbinger chapter 2's list) holds every opposing spire, or hero; of the
    targets at its level, the AI keeps those fewest hexes away, counted as range is.
N39 Bio-Indefinite: no hit takes from or heals the unit more than 1, whatever deals it, whoever holds
    it; a fortification upgrade counts as 1. In Harbinger chapter 7 an opposing hero's attack on
    Nucleus (its active chip's name, any case) is not held to it; its retaliation on the hero is.
N40 Harbinger chapter 2's Grafted Snare on every Graft unit: on the Graft's turn, every talent of an
    opposing unit (a landmark minion included) beside a Graft unit in play, neither in its gate, is
    ignored; a Graft unit defeated meanwhile mutes no more. Spires' talents stay.
N339 Grafted Snare (N40) is read as an attack's hits land: a splash's hits are dealt together, so a
    Graft unit the splash defeats still mutes its neighbours for the rest of that splash (a Dodge
    beside it is ignored); they are freed once every hit has landed. So too the Entropy units' defeats
    and their blasts (N177), and a Detonate blast's hits (N147).
N41 Harbinger chapter 2: an heirs hero that would level up below its health stat (after the
    exchange) recovers 1 health instead; a player's may decline, the AI's does it.
N42 Splash: with the attack's damage, before any retaliation, 1 to every unit on a map hex beside the
    target's node (not waiting in a gate, not campfired, not the attacker itself), whatever its side;
    no reduction of an attack's damage touches it. A player's unit may splash or not (two attacks);
    an AI unit does when one of them opposes it and would not be healed. A defeat it deals is
    credited to the attacker's faction, rewarded only when the unit opposes it; a hero levels up.
N44 Silencer: a spire's shot (or volley) whose dice show a miss or a 2 silences each unit it hit
    that stands; the Spires Fire end shows it (``ChipEnd.silenced``).
N45 Repeater: after its shot, where a unit it hit still stands undefeated (its top chip did not
    fall) and it has a valid target, the spire fires once more, choosing anew: a player's spire may
    (the repeat is a choice, in ``choices`` even with one target), an AI's does.
N43 Multi-Target: the spire rolls once and every unit it may fire at (its valid targets, shields
    included) takes the total less its own cut, within its own cap, as a shot at it alone would.
N46 Leech: after the whole exchange (level-ups included) the unit, if its chip still stands, recovers
    what its attack dealt (every chip it hit, splash included) or its retaliation dealt, as the
    damage lines show it; a heal is none; never above its health stat; at most 1 with Bio-Indefinite.
N47 Riposte: a player's unit, or a landmark minion, may recover instead of retaliating (both are
    outcomes); an AI unit does whenever its retaliation (N25, the attacker's Bio-Indefinite, a heal is
    none) would not defeat the attacker. It recovers what the attack dealt it (as Leech's N46
    recovery) and has not retaliated this turn.
N48 Train: a hero with it levels up as if its capacity were 1 more (its talents in use then).
N49 Incinerate: a unit of an opposing faction (no landmark minion) whose defeat is credited to a unit
    with Incinerate, by its attack, splash, retaliation or Spike, is removed from the game, unless
    that unit fell earlier in the same attack (a Spike unit defeated by the attack it answers).
N50 Degradation: after each shot or volley of the spire (Repeater's too), its two bottom upgrades
    are removed, no damage; a spire left without attack upgrades does not fire again.
N51 Press Gang, AI side only: a defeated AI unit (no landmark minion) with it goes to its barracks, a
    hero too, unless N49 removes it from the game. A player's Press Gang keeps the rules' destination
    (the answer is noticed).
N116 Press Gang, a player's: a defeated non-AI unit (no landmark minion) with it, unless N49 removes it,
    goes to its barracks if its owner spends 2 Source, else it is removed from the game (a minion too).
    Each such unit is a choice of its own (a listing's too), open while its faction has 2 Source as
    the attack, shot or act began, less what it paid then already (Sourcefield, another Press Gang):
    an attack's payments come before its gains (N65); a Spires Fire result lists the unit's choice
    after its Sourcefield ones.
N119 Absorb #: a minion of the faction "graft" (no merc: a merc is discarded) that its defeat would return to
    its barracks (not N49's removal, nor N51's or N116's Press Gang) goes underneath a spire with Absorb
    # that stands, whose hex is within # hexes (counted as range is) of where the minion stood as it
    fell: a player's minion to any one such spire or to its barracks, its owner's choice (each an
    outcome, a listing's too); an AI's to one of those with the fewest upgrades then, each tie an
    outcome. Its goes_to is "under:<spire>".
N52 Assimilate, AI side only: a non-AI faction gains no Source reward for a unit it defeats within
    2 hexes (counted as range is) of another AI unit (no landmark minion) with it, in play as the
    attack or shot began; relics and a spire build stay.
N117 Assimilate, a player's: when any other unit (a landmark minion too) is defeated within 2 hexes
    (counted as range is) of a non-AI faction's unit with it, in play as the attack, shot or act
    began, that faction gains its chip's Source reward, up to its capacity, unless that faction
    defeated it (then it gains the reward once, as N11 gives it); the faction that defeated it, if
    another, gains none of its Source (relics and a spire build stay). Two such units of one faction
    gain it once. A defeat credited to no one (N105) counts too.
N112 Source (the Harbinger upgrade chip, a talent of the chip): each defeat of an opposing faction's
    unit (no landmark minion) or spire credited to a unit or spire with it, unless that unit fell
    earlier in the same attack or act (as N49), robs the fallen chip's faction of 2 Source. Once the
    attack's (shot's, act's) other losses and gains are done, each faction robbed loses what its
    thieves claim, summed for each thief, no more than it has then, the thieves taking in the order of
    their names; a non-AI thief gains it, up to its capacity (its Gain counts it), an AI one nothing.
N113 Prophesy: no faction gains a Source reward for a unit with it (in use as it fell); when an
    opposing faction is credited with its defeat by a unit or spire of its (no gate), or by anything
    where the unit's faction plays as the AI, that faction is robbed of the unit's Source reward (1 or
    more) for the unit's faction, as N112 robs. A defeat credited to no one robs no one.
N147 Detonate: a unit with it (in use, not in a gate) whose chip is defeated in an attack, a shot, a
    Self Destruct (its own too) blasts once the rest of that exchange is dealt, before any level-up:
    every unit (not in a gate, not campfired, not one that fell earlier in it), every spire (not one
    the exchange hit or stripped) and every fortress gate or waygate beside the hex where it fell,
    whoever's, takes 2, no attack (how BLAST), then each spire still standing 1 more, credited to the
    unit's faction, rewarded only where the chip opposes it. A chip two blasts reach takes the first
    (by the fallen unit's id); a Detonate unit a blast defeats does not blast (one blast deep).
N156 Morale: each opposing unit (a landmark minion too, unless friendly to it) whose defeat is credited to
    a unit with Morale of a faction not playing as the AI, by its attack, splash or retaliation, and that
    had not fallen earlier in the attack, raises that faction's morale die by 1, where the position gives
    the die, to 6 at most; the outcome shows the rise, the end what the die shows.
N53 Channel: a unit's attack on a unit with it (not a redirect from its gate, no landmark minion)
    gains the unit's faction 2 Source, up to its capacity, unless the faction plays as the AI; so does
    a spire's shot at it, or a volley that includes it, whatever the dice roll.
N54 Swashbuckler: the attack may deal 1 more for each opposing unit beside the attacker (not waiting
    in a gate, not campfired), before Armored and every cap; a player's unit may or may not (two
    attacks), an AI unit does when that and only that defeats its target (ranked with it). With it,
    nothing the attack defeats gives a reward (a gate is still pillaged) and the hero does not level up.
N55 Quick Counter: a unit attacked (not through its gate) by a unit beside it, that would retaliate,
    does so before the attack's damage; an attacker it defeats deals nothing, splash included. It has
    retaliated, whatever the attack then deals it. A Riposte instead recovers after the attack.
N56 Directional Attack: a player's spire with it and an `arrow` fires only at units on the straight
    line from its hex through the arrow's, gaps included; an AI spire's arrow changes nothing.
N57 Eager: attacking a minion (a landmark minion only under eager-landmark=swap), the attacker and
    the minion trade nodes before anything is dealt; the splash falls beside the target's new node,
    but what the attack deals is fixed as it is declared (Swashbuckler counts beside the attacker's
    old node, Cover protects a taproot beside its spire before the swap); both stay there for the
    rest of the step, and an end names the node of each unit that moved (``ChipEnd.at``).
N58 Poison: a hit on a unit that would take 1 or more, once every boost, reduction and cap is
    applied, takes half the unit's health and fortifications, rounded down, when it comes from a
    Poison unit's attack (the unit in a gate that takes a redirected hit too) or retaliation, or a
    Poison spire's shot (each unit of a volley); Bio-Indefinite still holds what the unit takes, and
    Dexterity looks at the halved retaliation. A splash is never halved; spires and gates never are.
    The AI (units, spires) ranks its targets by the halved hit.
N60 Spire upgrades are removed by place, not only from the bottom: a Tower keeps the index, in the
    position's list, of each upgrade still on it (``held``), which an attack's ``stripped`` names.
N61 Assault: a unit's attack on a spire first removes the spire's bottom upgrade (none from a spire
    without any), no damage and no defeat; the damage then meets the spire as that left it. The AI
    ranks it so: a spire that loses an upgrade to it is damage-spire, whatever the damage then does.
N62 Ram: instead of the damage, on the spire as Assault left it: a player's unit may remove any one
    attack upgrade (one choice per run of attack upgrades one on another, named by the lowest), or
    deal its damage; an AI unit removes the topmost one whenever the spire has one, and ranks that as
    damage-spire, never defeat-spire. It is still an attack (Spike), no damage (no Leech, no defeat).
N63 Sourcefield: an attack by a unit on a non-AI faction's unit with it (no landmark minion, not
    redirected from its gate) that would take 1 or more (N58 included), when its attacker stands after any Quick
    Counter: the owner may pay that much Source, if it has it before anything is gained in the attack
    (Channel's 2 comes after), and the attack deals 0; the unit still retaliates.
N64 Weak Point, AI side only: an AI unit's attack on a spire beside it removes the spire's top two
    upgrades (as Assault left it; fewer when it has fewer, none when none) instead of the damage, with
    an AI Ram's removal too; ranked damage-spire when it removes one, never defeat-spire. A player's
    Weak Point is left out (the answer is noticed).
N65 Swindle: a unit's attack on a faction unit itself (no landmark minion, not redirected from its
    gate) or its retaliation against one deals 0; that unit's faction loses what the hit would have
    taken as the unit would take it (N58, N39 included), no more than it had as the attack began less
    any Sourcefield payment. A non-AI faction's unit's faction gains it (up to its capacity, after every
    loss of the attack, with the attack's other Source gains); an AI's or a landmark minion's gives it
    to no one. No damage: Sourcefield does not trigger, an AI Riposte with it recovers instead, and the
    AI ranks it as neither damage nor defeat.
N66 Pacify: a unit that may attack now (whatever its targets) and has it may, instead of attacking,
    discard a landmark minion on a map hex beside it (a Devoted one too): a player's unit may (each
    landmark minion an outcome besides its attacks, a minion's duty to attack so fulfilled), gaining
    3 Source up to capacity; an AI unit must, gaining nothing, when none of its valid targets but
    landmark minions would take damage as the AI ranks it (``must_attack`` True, each one an outcome,
    its attacks none). The landmark minion leaves play, not defeated: no reward, no level-up, no
    retaliation, no Leech; the end shows it ``discarded``.
N67 Dodge: a hit on a unit with it from the attacking unit (its attack, a redirected one, its
    splash) or from a retaliating unit that would take its health and fortifications deals 0
    instead (a 0 damage line); it loses every upgrade at once and shows its basic side from then
    on, its health kept; it does not retaliate that attack (a Quick Counter's came first). A gate's
    retaliation, Spike and a spire's shot still defeat it. The AI ranks such a hit as neither defeat
    nor damage; an AI Riposte counts a Dodge attacker as one its retaliation cannot defeat.
N69 Lift and Wind Turbine act on units within the range of their spire while it is in play, as the
    board stands at each moment (after a displacement, once the spire lost a range upgrade or fell).
    Lift, on a plains hex: a minion of the faction named "shada" (not in its gate, not muted) has
    Flying, with N12 and N32 as for its own. Wind Turbine: any unit there has no Flying and a range
    of 1, its range upgrades ignored with its Range (attacking, retaliating, Hail's and Evasive's
    range); a player's hero there once the exchange is over is offered no range upgrade.
N68 Inferno: after each shot or volley of a spire with it on a forest hex (Repeater's too, whatever
    it rolled), the spire gains one upgrade on top, of the kind the reading inferno-upgrade names
    (attack by default); "if able" is not looked at. Its next shot counts it (dice, range).
N167 The attack step, as N107 and N137: the wave ends in the step only where a faction minion was in play
    as it began; a board with none (heroes only) plays its attacks as any other, and its ends do not
    report the wave over. The reference was at fault: it ended such a step at once, reporting the wave
    over, where the solver attacks.
N166 Quake, the player's (the shada sheet): before each attack of a player's spire with it on a mountain
    hex, it may remove the bottom upgrade of any opposing spire within its range that has one (each an
    outcome, a choice (the Quake spire, that spire) where there are several), or none. N326 adds its
    health removed from a landmark.
N149 Spires Fire, N117: a single shot's Assimilate units are those in play as it began, as a volley's
    were: the reference read them once the shot's hits were dealt, so a unit the shot defeated did not
    assimilate a unit its splash defeated beside it (found by an explore run).
N148 Spires Fire: a talent a unit's owner chose to use against a shot (Sourcefield, Hidden Armor, Press
    Gang, Invigorate, Absorb) names the spire whose shot it answers, (unit, talent, spire), as the solver
    has since it told two spires' payments apart; the reference named no spire, unseen by the fixed
    sample, found by an explore run of a player's Quake.
N145 Quake, the player's, N166: it may instead remove a face-down landmark within its range from play,
    "not considered defeated": no reward; the end lists it ``removed``, and no later Quake of the step
    removes it again. An offer among N166's: a choice where there are several.
N165 Inferno's "if able": no gain while the spire holds as many upgrades as its ``capacity`` (counted as
    it attacked, before its Degradation), nor once the position's ``supply`` of the kind has gone to
    earlier gains of the step; where the position gives neither, none is looked at (N68).
N70 Quake, AI side only: before each attack (shot, volley, Repeater's too) of an AI spire with it on
    a mountain hex, the opposing spire within its range (not defeated) with the fewest upgrades, a bare
    one too, loses its bottom upgrade, no damage; each spire tied for the fewest is an outcome, a
    choice (the Quake spire, that spire) before the shot's. A spire with no target quakes nothing.
N74 Innovative: a unit with it (in use: not in its gate, not muted) ignores "Ungrouped only", so a
    player's grouped unit's Flying works as an ungrouped one's (N12), for Spyglass too.
N71 Weak Point, a player's (no AI faction's) unit: one that may attack now (whatever its targets) may
    instead remove the top two upgrades (fewer when it has fewer) of a spire in play on a node beside
    it, of a faction opposing its own, with at least one upgrade (each such spire an outcome besides
    its attacks, a minion's duty to attack so fulfilled). No attack: no damage, no defeat, no Spike,
    no Assault first; the outcome names the spire, ``instead`` "Weak Point" and what it removed.
N72 Hidden Armor, on a unit of a faction not played as the AI, not waiting in its gate: any hit about
    to take 1 or more from it (an attack's, a splash, a retaliation, a gate's retaliation, Spike; as
    the unit would take it, N39 and N58 included; no heal) may deal 0 instead, a 0 damage line, its
    owner's choice whoever's turn it is, once: the unit then lacks the talent for the rest of the
    step (``shed``; the end's ``discarded_talents``). No Dodge, Leech or Riposte recovery from it.
N75 Splash on a spire: each shot (Repeater's too, whatever its dice total, a miss too) also deals 1
    to every unit on a map hex beside its target (not the target, not waiting in a gate, not
    campfired), whatever its side; no Dodge (no unit's damage). A player's spire may or may not (the
    choice (spire, "Splash") after the shot's), an AI's does when one of them opposes its faction (a
    landmark minion unless friendly to it). Credited to the spire's faction, rewarded only for a unit
    that opposes it. A Multi-Target volley splashes as N135 says.
N79 Peaceful: a unit with it (in use: not in its gate, not muted) takes 0 from every hit (an attack,
    a splash, Fury Kick, a retaliation, a gate's, Spike, a shot) of a chip that is no merc: a unit
    whose chip in play is not marked merc (Spike's unit as it stands once the attack is dealt), a
    spire not marked merc, a gate; a heal still heals (chapter 8). It is still a valid target and
    still retaliates; the AI weighs such a hit as 0 (no damage, no defeat), no Sourcefield is paid.
N76 Sourcefield in Spires Fire: a shot, or a volley, that would deal a non-AI faction's unit with it
    (no landmark minion) 1 or more (N33, N39, N58 included) may be paid off by its faction, if it has
    that much Source (a volley's units together), before any gain (N53): the unit takes 0; the choice
    (unit, "Sourcefield") after the shot's. The damage dealt is what the dice deal, above the unit's
    health too.
N77 Wallop, in Spires Fire, at a spire's first turn to fire (not Repeater's second), with a die to roll:
    a player's spire may, instead of its shot, deal 1 to a unit of the turn's faction on a node beside
    it (on the map, not campfired, no landmark minion; valid target or not), a choice (spire, Wallop),
    (spire, unit), its shot then a choice too; an AI spire (not Multi-Target) does so to a hero its
    priority would shoot at, beside it, that no roll it counts on (ai-spire-odds) defeats, and then
    does not Quake. The 1 is no attack (no reduction, Channel, Silencer, Degradation, Inferno,
    Repeater). A unit left standing moves to a map hex up to 3 from the spire (counted as range),
    its printed terrain allowance admitting it, with a finite distance to its mark (the movement
    reference's d), no unit, spire, landmark or chip on it: the player's pick, the AI's among the
    farthest by d; a choice (spire, hex) where there are several; none, and it stays. The spire
    shows its other side (``flipped``), its upgrades kept.
N73 Pistoleer: a unit with it (in use) may also attack an opposing unit exactly 2 hexes away (counted
    as range is) that its range does not reach, a valid target by every other rule (Flying, Spyglass,
    Camouflage, Challenge, Engage); no spire, no gate. A player's unit may take it (a minion must
    attack something); an AI unit only when no target within its range would take damage as the AI
    ranks it, and then one of them it must, a hero too (its priority list among those alone). Once
    the exchange is dealt (retaliation, a gate's, Spike), before its level-up and Leech, the attacker,
    if its chip stands, flips to its other side, its health kept (a side whose stats the position does
    not give keeps the stats given), and loses one upgrade it still has: a player's choice (each an
    outcome, ``unloaded``), the AI's fortification, then range, then attack.
N81 Cumbersome, on a hero (in use: not in its gate, not muted): any hit that takes 1 or more from it
    (fortifications too; as it takes it, N39 and N79 included; no heal, no 0 from Dodge, Hidden Armor,
    Sourcefield or Swindle), whatever deals it, drops the item: the hero lacks the talent from then on
    (``lost``; the end's ``discarded_talents``), a defeated one too. While it holds it, its Eager
    swap does not happen (N57): no talent moves it.
N80 Survival, attack half: a unit written ``done: held`` (Survival's AI wording held it still in the
    movement step) does not attack while its faction plays as the AI; a player's held unit may.
N78 Relentless: a unit's retaliation deals the total of rolling the spire die until a blank or a 2
    shows, that face counted, in place of its stat; Prepared, Tough, Poison, Dexterity and the rest
    apply to it as to any retaliation (N25). ``attack_options`` plays each total from 0 to the
    attacker's health, fortifications and Prepared's 1 (and its faction's Source, under Swindle) and
    gives the outcome the summed odds of the totals that lead to it (a negative binomial: the die's
    goes-on faces deal 0 or 1), the last total standing for every total from it on. An AI Riposte
    weighs it before the roll (N86). The attack step is not played with it.
N82 An elfinkaze riding its roost (a unit's ``rides``) stands on the roost's node: two chips on one
    node, each attacked, shot at, splashed and counted as any other; a node is not beside itself, so
    neither is beside the other (FAQ-05), and both are beside the nodes around it.
N83 Roost Roam: a player's minion with it (in use) attacks as a hero, at will: ``must_attack`` False,
    and the step may end without its attack; an AI unit with it does not attack (``cannot``).
N84 Harbinger chapter 6: a chip named Waygate with health (0 to 4) stands as the Uprising's fortress gate
    in combat (docs/combat.md, Waygates): a valid target of the units opposing the Uprising within
    range while it has 1 or more; the damage comes off its own health, never the gate's; its last
    health gone, it is defeated ("destroyed"), no pillage, no game end, and stays; it strikes back as
    the gate (1, from ``gate:uprising``; Peaceful spares that hit as a gate's); the AI counts it in
    the gate category; a hero that destroys one levels up; the player may send its damage to the top
    unit waiting in the Uprising's gate. The Uprising's gate itself is no target in this chapter.
N86 Relentless with an AI Riposte: "if its retaliation would not defeat the attacking unit" is
    decided before the die is rolled, at the total the AI counts on (ai-spire-odds): under possible
    one that takes all the attacker has (some total would); under likely the largest total that at
    least half the rolls reach. Recovering instead, it rolls nothing (the outcome has no odds).
N87 Relentless in the attack step: each end is told apart by what the line's rolled retaliations
    totalled, each roll as the unit, its layer (the chips its group lost), every total from 0 to the
    top that deals the attacker what the one rolled does (Prepared, Tough, Poison, Dexterity: ``_retaliation``)
    and the top; the end's probability is the product of those totals' odds, given its attacks.
N88 Wallop (N77) with Cumbersome (N81): the damage is dealt first, then the teleport. A hero holding
    Cumbersome that takes the 1 (a fortification too) drops the item and is teleported as any unit;
    one that takes 0 (Peaceful: no merc spire) keeps it, and no talent may teleport it: it stays.
N89 Wallop's valid hexes and the AI's "as far from the hero's mark" are counted with the terrain
    allowance the unit has once the damage is dealt: the movement reference's (Sure-Footed gains
    mountains; Cumbersome's path, only while it holds the item, which then keeps it where it is).
N95 Rally: once an exchange and its level-ups are dealt, a unit with it (in use as the attack began,
    not a landmark minion) credited with a unit's or spire's defeat in it (the chip whose hit defeated
    it), unless its own chip fell earlier in the exchange, promotes every minion of the faction named
    "heirs" on a map hex within 2 hexes of it (counted as range is; itself as it stood after any Eager
    swap, they as they stand then) that shows its basic side: its upgrades go, its health grows by its
    promoted health stat less its basic one (none where no promoted side is given, a revealed chip's
    neither). An AI unit's does; a player's may, one choice for all (a listing takes none).
N96 Dispirit, AI units only: likewise, every minion of a faction opposing the unit's (no landmark
    minion) within 2 hexes that shows its promoted side, without Diurnal, shows its basic side: its
    upgrades kept, its health at most its basic health stat (kept where no promoted side is given). A
    minion both rallied and dispirited is promoted if basic, demoted if promoted.
N115 Dispirit, a player's (the Graft sheet: "you may demote all opposing promoted faction minions"):
    as N96, a choice of each such unit that defeats in the exchange, as a player's Rally is (N95).
N140 One attack's listing takes no player's Rally, Dispirit or Invigorate (N95, N115, N118) and names whom
    each would turn: the minions that such a unit alone would promote (basic once the exchange and the
    AI's turns are dealt: Invigorate's, any one of its picks) or demote (promoted then), each with how
    and the talent.
N97 Invigorate, AI units only: the chip revealed under a fallen chip that held it (in use as it fell)
    is promoted with the others of N95, once the exchange is dealt: no promoted side is given, so its
    health stays its health stat. So too in Spires Fire (a shot, a splash, a Wallop's 1) and at the
    turn's edges (a Self Destruct, N105).
N118 Invigorate, a player's ("you may promote 1 friendly active minion or the newly revealed unit
    grouped under this one"): for each non-AI unit that falls holding it (a hero too), its owner picks
    none or one minion of that unit's faction standing once the exchange is dealt, on the map or
    waiting in its gate, on its basic side then (before N95's promotions), the chip its group
    revealed among them; it is promoted with N95's. An attack's listing picks none; the step, Spires
    Fire and the turn's edges every pick. A Spires Fire result lists each pick after N116's as
    (unit, "Invigorate"), (unit, the minion), the unit itself for its revealed chip.
N105 Self Destruct, at the start or the end of a turn (the same then): a unit of the turn's faction on
    the map, not campfired, may be defeated (no hit, credited to no one: its own Incinerate acts no
    more), and each opposing unit (not in a gate, not campfired) and spire beside it takes 2, and 2
    per upgrade, no attack: Peaceful and Bio-Indefinite hold, Dodge, Armored and the like do not; a
    defeat rewards the unit's faction. Units destruct one after another, in any order; a chip a
    group reveals may too. Once the wave is over (there were minions), none does.
N106 The AI's Self Destruct: a unit destructs when that would defeat an opposing unit's top chip or a
    spire on the board as it stands (Peaceful, Bio-Indefinite counted, a heal none; a spire with no
    upgrade left, or its last under spire-defeat=last-upgrade); while any would, one does, any first.
N107 The end state of the start or the end of a turn reports no campfire; the wave is over only when
    minions were in play as it began.
N108 Creep: at the start of the turn (not its end), a player's spire with it may move, once, onto a
    map hex beside it whose terrain is not path and on which no unit, spire, landmark or other chip
    stands, in any order with the Self Destruct units (a hex one left may be taken); an AI's does not.
    The end shows it ``at`` its new hex.
N122 Recruitable: at the end of the turn (not its start), the turn's faction may gain control of each
    unit with it, under no faction's control, without Untamed, that the position says it attacked
    this turn (``done.targeted``) and that still stands once the Self Destruct units are done; each
    such unit taken or not, any of them, is an end, for the AI too. A unit taken shows ``control``
    with its health.
N120 Raze: at the start of the turn (not its end), each spire of the turn's faction with it and an attack
    upgrade may attack, once, an opposing spire, fortress gate (not the Uprising's in chapter 6) or
    waygate with health left within its range (a camouflaged spire only from beside it), before any spire
    creeps (N108), in any order with the other acts; the AI's must, once its Self Destruct units are
    done, at a gate or waygate if one is in range, else at a spire with the fewest upgrades. Its dice
    (the standard die) deal their total: a spire loses its bottom upgrade to 1 or more (a fortification
    to 2 or more), or falls (spire-defeat); a gate or waygate loses the total; every total is an end.
    Having attacked a gate or waygate, the spire loses its bottom upgrade.
N121 Translocate: at the start of the turn (not its end), a player's spire of the turn's faction with it
    may swap hexes, once, with another standing spire of its faction whose hex is in its own hex group
    or one touching it (``hex-groups``), two swaps at most, in any order with the other acts; the AI's
    does not. The end shows each swapped spire ``at`` its new hex.
N287 A spire with Roost that moves at the start of the turn (a Translocate swap, N121; a Creep, N108)
    carries each elfinkaze riding it (its ``rides``) still on its node to its new node, in the same act
    (Roost, the Harbinger wording: "When this unit or spire moves, elfinkaze on it are moved with it"):
    the end shows the rider ``at`` that node.
N123 Unstable (Harbinger chapter 6): at the start of the Uprising's turn (not its end), played by a
    player, a waygate with it and health left may flip to its destroyed side (health 0), once, while
    another waygate has health left and no Uprising unit waits in its gate, in any order with the other
    acts: each unit on a map hex beside it, not campfired, of any faction, is defeated as N105's bomber
    is (no hit, credited to no one), and the Uprising gains the Source rewards of those that oppose it,
    up to its capacity.
N124 Fountain: at the start of a turn the position says is its round's first (``first-of-round``),
    each unit some faction controls, on a map hex beside a revealed landmark with Fountain and not a
    campfired hero, recovers 2 for each such landmark, up to the health stat of its side showing (one
    already above it keeps its health), before any act of the moment (N333).
N125 Spawn: at the start of a turn the position says is its faction's first of the Onslaught Phase
    (``first-of-onslaught``), each unit (not campfired) or spire of that faction with it may place one
    larva (a unit in the faction's ``barracks`` printed Larva) on a map hex beside it, of path terrain,
    no floating rock, where no unit, spire, landmark or other chip stands: a player's in any order
    with the other acts, or not; the AI's must, once its Self Destruct units are done, on such a hex
    nearest the larva's mark (movement.distances), each nearest hex and larva an end. The end shows
    the larva ``at`` its hex with its health.
N136 Hidden Armor in Spires Fire (N72): a player's unit with it that a spire's shot, a volley, a spire's
    splash or Wallop's 1 would take 1 or more from (as it would take it: N39, N79; nothing once
    Sourcefield paid the shot off) may ignore that hit once the dice are rolled: it takes 0 and lacks
    the talent from then on; the choice (unit, "Hidden Armor") comes after the rest of that shot's.
N135 Splash on a Multi-Target spire (N43, N75): the volley is one attack and splashes once, where it
    does: 1 to each unit beside any unit it hits (one of them too), whatever its side, once however
    many it is beside; each splashed unit first, then the volley's hits, a target the splash defeated
    taking none (nor Sourcefield's payment for it). A player's spire may or may not (the choice (spire,
    "Splash") after the volley's), an AI's does when one of them opposes its faction. A player's unit
    with Hidden Armor both hit may ignore either, two ways of choosing (their odds add up where they
    leave one end, as two Sourcefield payments do).
N137 Spires Fire, as N107: the wave ends in the step only where a faction minion was in play as it
    began; a board with none fires as any other, and its end does not report the wave over.
N170 A hero in campfire mode is inactive (game-elements, Campfire Mode): its Toxic Secretion and Lahar deal
    nothing to a unit an attack's swap moves beside it.
N178 Assist, in an attack: once the exchange is dealt, every standing unit with it in use, of the faction of
    a unit credited with defeating an opposing unit (a landmark minion too, unless friendly) or an
    opposing spire in it (the unit of the hit that took its last health or upgrade, fallen or not), beside
    that unit where both stood as the hits landed (after an Eager swap), levels up as a hero that defeated
    one does (a minion too), once however many such defeats, and not again where it levels up otherwise.
N364 A player's unit other than a hero that levels up so (N178) has no upgrade capacity (reading
    assist-minion, docs/readings.md): with ``promote`` (default) as a hero at capacity 0, promoted from its
    basic side (("none", "promote"); without ``promoted-stats`` not adjudicated), nothing on its promoted
    side; with ``upgrade`` an attack or fortification upgrade (range as a hero's, N69), or none, unbounded.
N177 Entropy, in an attack (the attack options and the attack step): a unit with it in use that a hit of
    the attack (the attack's, a swap's, a retaliation, a gate's, Spike; no blast) leaves at exactly 1
    health from more does not retaliate to it, unless it retaliated first (Quick Counter); once the
    exchange's hits but the blasts are dealt, unless another hit of the attack came on it after that
    one, it is defeated, no hit, credited to no one (no reward), and every unit beside its hex (not in
    a gate, not campfired, not of the faction named narora, not one that fell in the attack, not one
    that so defeats itself) takes 2, how BLAST, credited to its faction, rewarded where it opposes it;
    a unit two such reach takes the first (by id). Before Detonate's blasts.
N341 A player's Press Gang unit an Entropy unit's blast may defeat (N177) is a choice of the attack, as one a
    Detonate blast may defeat (N147, N116): kept for 2 Source or removed (bench.sweep, seed 15).
N176 Neglected and Precious each end the wave only where their minions are "the only minion type in play":
    forsaken (Neglected) and elfinkaze (Precious) in play together are two types, and keep it going.
    The reference was at fault, as the encoding was: either talent's minions let the wave end beside
    the other's.
N138 A hero whose Toxic Secretion or Lahar defeats a unit Wallop teleported beside it (N134) may level
    up, as for N132's swap: each of its level options an end (the AI's, an attack upgrade).
N134 A unit Wallop teleports (N77) is moved too (FAQ-07): where it lands, after Wallop's 1, it takes what an
    Eager swap's unit takes (N132), counted from where the chips stood as the spire acted, one hit
    (``how`` moving) by its one source chip, or the sum of those that neither spare nor heal it by the
    first by id. A player's unit with Hidden Armor it still holds may discard it against that hit
    instead (N136: the same choice). A group whose top chip the 1 defeated lands without it.
N141 The start or end of a turn stops once the game is over (a Raze attack felled a gate, leaving at
    most one with health), as it stops once the wave is: nothing acts after it, and the end shows the
    game over, not the wave.
N142 A hero in campfire mode is inactive (game-elements, Campfire Mode: "cannot be interacted with in any
    way"): no talent of its acts in any step, its auras on other chips (Cover, Challenge, Assist) too
    (N170 read it so for Toxic Secretion and Lahar).
N333 Fountain's round starts before its first turn: its units recover before every act of the start of
    that turn (after Bydra Graam's call, N146, which reads the health as the turn starts), so a Self
    Destruct's blast meets the health they recovered, and the AI weighs its blast on it (N106).
N143 Fountain heals "all faction units" beside it: a landmark minion the file gives a faction is one
    (game-elements, Game Setup: "any other units under your control are your faction units"), as
    everywhere (N1); one that Devoted made is not ("friendly only to The Uprising").
N146 Harbinger chapter 5, Bydra Graam's Call Minion: at the start of the narora's turn (not its end),
    where a naroran unit whose chip reads Bydra Graam (any case, spacing, a leading "The") is on the
    map, every naroran minion on the map with no group and 1 health leaves the board, before anything
    else acts: the end shows it ``under`` her. It takes no other act then; the first act of the
    others is not held back by a wave its leaving alone ended (they read the board as the turn
    starts), the end's ``wave_over`` is (N107: minions were in play as it began).
N264 Refresh (a spire on water; an AI's heals shada units, a player's its own faction's) on a unit an Eager
    swap (N132) or Wallop's teleport (N134) moves beside it: a unit of that side, below its health stat
    and still to have it this turn, recovers 1, where no chip hurts it there (N132's sources: then
    neither, a notice) and only one such spire is beside it (else a notice): after a swap before the
    attack's damage (``how`` moving, healed), after a teleport once it landed (never past the stat).
    Still to have it: not moved nor displaced before the step (``done``: it may have had it then, a
    notice), and no recovery from it earlier in the step.
N273 Sourcefield (N63) and an Eager swap (N132): a target whose chip the swap's harm defeated takes nothing
    from the attack, so its owner has no damage to pay for (Sourcefield: "spend Source equal to the
    amount of damage dealt"), as where the attacker fell to it: no payment, whatever the group's next
    chip holds (it was not attacked).
N274 Explosion (the chip a position gives with the talent): a unit an Eager swap (N132) or Wallop's teleport
    (N134) moves onto a hex beside such a chip still on the board rolls the D6 (six equally likely faces)
    and takes the face, as one more source of N132's hit there (by the chip: credited to no one), and
    the chip is discarded (the end: ``discarded``; the attack's outcome lists it) for the rest of the
    step. Two units a swap moves beside one chip both roll. A Wallop'd group whose next chip shows
    (no landing damage) still sets it off. An outcome or end's probability counts the faces, told apart
    as far as they deal the unit differently (as N87's totals): up to the least that takes all it can
    lose (1 with Bio-Indefinite, or where Peaceful spares it), which stands for those above; all six as
    one where its owner discards Hidden Armor against the hit.
N292 Explosion (N274) where a move puts a unit beside several such chips at once: it rolls a D6 for each, and
    their total is one source of N132's hit (given on the first chip by id). Its dice are told apart by
    their total, not their faces (faces 1 and 2 or 2 and 1 deal it the same: one end, both chances), up to
    the least total that takes all it can lose (at least the least they total), which stands for those
    above; a chip Peaceful spares it from rolls alone, all six as one.
N132 An Eager swap (N57) is a move (FAQ-07): each unit it moves takes, where it lands and before
    anything the attack deals, 1 from each unit or spire with Toxic Secretion beside that node (the unit
    not griege, not the chip itself), 1 from each with Lahar beside it that it opposes (a landmark
    minion opposes all but a Devoted one's friends) while its Flying does not work (N12), and the
    count of each toxic fumes chip (Exposure) on it (not griege), all counted from where the chips
    stood as the attack began. One hit (``how`` moving), by its one source chip, credited to that
    chip's faction ("" for a landmark minion or a chip), rewarded only for an opposing unit; a hero
    source still standing levels up. Several source chips: one hit of the sum of those that neither
    spare it (N79) nor heal it, by the first of them by id. A unit so defeated is not hit by the
    attack and does not retaliate; an attacker so defeated deals nothing and is retaliated against
    by no one. Poison's half (N58) reads the target's health after that hit.
N164 Poison's attack stat of * (``Stats.star``, attack 0): a unit with it and Poison in use attacks and
    retaliates, and each of its hits on a unit (its attack, its retaliation) takes half the unit's health
    and fortifications, rounded down, whatever reductions and caps leave (N58 with no "would remove"
    test). Without Poison in use (in its gate, muted) it is a unit of attack 0; on a spire or a gate its
    hit is its attack upgrades' (the solver names Poison there). The reference was not at fault: it
    could not hold a * before. A Fair Fight unit with Poison in use attacking a unit whose stat is *,
    or retaliating against one, has the stat * too, so that hit is as sure; without Poison it deals 0
    (docs/combat.md, reading fair-fight-star).
N150 Exploration: in the exploration step a player's unit of the turn's faction, on a map hex (not in its
    gate, not campfired), may reveal a face-down landmark beside that hex, each landmark once, one after
    another; keeping one face down changes nothing. The AI's units explore nothing. An end lists each
    landmark revealed (``revealed``). A revealed landmark the position says holds Unstable Rift defeats
    every unit on a map hex beside it (not in a gate, not campfired, any faction's, its explorer too)
    with its whole group, no hit and credited to no one; the faction gains the health they had, up to
    its capacity, and the landmark leaves play (``removed``). Checked on units without talents (N150's
    scope: what acts on their defeat is N105's).
N151 Biosonar: in the exploration step (N150) a player's unit with it, on a map hex, not campfired, may
    also reveal one face-down landmark on its own hex group (``hex-groups``) that no minion of its
    faction (on a map hex) stands beside then; one such landmark a step for each such unit.
N160 The end of the wave, asked on a board it has just ended on: every minion on a map hex with
    Precious returns to its barracks (``returned``), of any faction; every hero in campfire mode leaves it
    (``woke``); a player's spire with Mining may return to its barracks (each choice an end), its faction
    gaining 6 Source; a player's spire with Refinery gains its faction 2; a faction's gains add up to its
    capacity at most; a revealed landmark with Fountain is discarded (``removed``). Nothing else changes:
    Neglected's forsaken stay, an AI's Mining and Refinery do nothing. The end's ``wave_over`` is false
    (the wave ended before it).
N161 Hero's Quest: in the exploration step (N150) only a hero may reveal a face-down landmark the
    position says holds it; the hero that does then either returns to its fortress (``returned``), the
    faction gaining 4 Source and the landmark face down again (listed in no end, explored no more this
    step), or is defeated, the faction gaining 6 Source and the landmark ``revealed`` and ``removed``;
    Source up to the capacity.
N186 Harbinger chapter 6, the end of the wave (N160) on a board whose earthscapes the position gives:
    an earthscape with no waygate with health left (a chip named Waygate, any case), no spire and no
    revealed landmark (a revealed landmark, or a landmark minion on the map) on any of its hexes is
    removed (``earthscape:N``, N its place in the position's list from 0, ``removed``): each unit on it
    leaves play (``discarded``, not defeated: no campfire to leave), each face-down landmark on it is
    ``removed``, and the Uprising's gate health (its casualties) goes up 4 for each.
N308 Harbinger chapter 6 (N186): "Any chips occupying that earthscape are removed from the game": another chip on
    an earthscape the end of the wave removes (a destroyed waygate) leaves the board too (``discarded``); a toxic
    fumes chip, which returns to its barracks as every wave ends, is not one of them (reading).
N205 Keel promotion, in an attack (not checked in Spires Fire nor the turn's edges), where the position gives hex-groups (the keel sheet:
    "if a promoted minion is no longer occupying a hex group with a keel spire, it demotes back to its
    basic side ... they lose all health in excess of their new max, but do not lose any upgrade chips"):
    once the exchange (a Detonate blast too) and its level-ups, Rally and Dispirit are dealt, a promoted minion of
    the faction named keel on a map hex whose hex group held a standing keel spire before it and holds
    none after it shows its basic side, its health at most its basic side's health stat (kept as it is
    where the position gives no promoted side); ``demoted`` lists it. Not one Rally promoted then, nor one
    with Diurnal, nor one a swap moved in it (Eager: not played). Colony (AI): such a minion of an AI
    faction, promoted as the exchange began and not dodged, whose health then is below its promoted
    side's health stat, leaves play instead, not defeated (``returned``; its end ``returned``).
N334 Colony, a player's (the keel sheet: "When this unit would flip to its basic side, you may instead
    place it beside your barracks"): such a minion of a faction not playing as the AI, promoted as the
    exchange began and not dodged, whatever its health and in any wave, may leave play instead, as
    N205's (``returned``), or demote: each choice an outcome, in a listing too (the choice is its
    owner's, whoever attacks, as a Sourcefield payment is).
N362 Colony (N205, N334) with Dodge (N67): a promoted unit with Colony that dodges would flip to its basic
    side, so it leaves play instead as N205's and N334's do (``returned``): the AI's where its health, kept
    by the dodge, is below its promoted side's health stat, the player's by the same choice (docs/combat.md,
    reading colony-flips). Pistoleer's flip and Dispirit's demotion, the same reading's other cases, are
    not drawn with Colony.
N363 Translocate (N121) onto a spire with Directional Attack (N56): its player points the swapped spire's
    arrow anew, at any map hex beside its new hex (the one the Translocate spire left), each an end (the
    end's ``arrow``); the Translocate spire's own arrow, where it has one, stays as written (the solver
    names it) (docs/combat.md, Translocate).
N206 Capture, the AI's ("After this unit defeats an opposing faction minion, place that minion beside this
    faction's fortress"): a minion of a faction opposing the unit's (no landmark minion, a merc minion
    too) whose defeat is credited to a unit with it, by its attack, splash, retaliation or Spike, goes to
    ``captured:<the unit's faction>``, unless the unit fell earlier in the exchange (as N49), Incinerate
    removes it (N49) or Press Gang sends it back (N51); a captured minion is not absorbed (N119). A
    player's Capture, a choice, is not drawn (the generators hand it to AI units only).
N335 Capture's cap ("a maximum of 3 minions captured from each faction at a time"): where the position gives
    the captives of the unit's faction (``captives``), a minion of faction G is captured only while those
    of G it holds, with those captured earlier in the exchange, are fewer than 3; else it goes where it
    would have gone. The generators give a faction none or 3 of each (its room never short in one attack).
N207 Pollinate, the AI's ("After this unit is defeated, add an orange cross-shield upgrade icon to the bottom of
    the nearest keel spire to where this unit was defeated, ignoring upgrade capacity"), in an attack (not
    checked in Spires Fire nor the turn's edges): once the exchange is dealt, each AI unit with it in use
    as the attack began whose chip was defeated in it (once a unit, its first chip's talent) adds one
    upgrade of the kind the reading orange-cross-shield names beneath every other of the keel spire still
    standing then (``upgraded``); the boards drawn hold one keel spire at most, so "nearest" picks no
    tie. A player's (a choice and 2 Source) is not drawn.
N235 Toxic Fumes, the AI's ("When this unit is defeated, place a toxic fumes chip on its hex"), in an attack (not
    checked in Spires Fire nor the turn's edges): each AI faction's unit with it in use as it fell, on a map
    hex (not in its gate), defeated in the attack however (its target's damage, a retaliation, a splash, a
    Spike, a blast), lays one chip on the hex it fell on, once the attack is dealt (the outcome's ``laid``:
    unit, hex, the chip's name), unless a unit stands on that hex then (its group's next chip, a rider, one
    a swap put there: nothing is laid). The step's end lists each such hex's chip (the one of that name the
    position has there, else ``toxic-fumes-<hex>``) with how many were laid. A player's (a choice) is not
    drawn; the laid chips hurt no later move in the step (N132 reads the position's).
N263 Powerhouse, a player's (the Graft sheet: "After this spire is defeated, you may promote one rotten worms
    minion in your barracks"; the AI's does not trigger), in an attack (not checked in Spires Fire nor the
    turn's edges): each player's spire with it that the attack defeats may promote one minion waiting in
    its faction's barracks (the position's), printed Rotten Worms, showing its basic side then (not one
    an earlier pick promoted), or none: each an end, the worm ``promoted`` in the attack and the end. Two
    such spires may pick the same worm. An attack's listing takes none and names each it may promote
    (``offered``: worm, promote, Powerhouse).
N257 Harbinger chapter 4's rotten worms ("if Bydra Graam is adjacent to a rotten worms at the end of a round of
    the Onslaught Phase, the rotten worms uses the talent Infest # on Bydra Graam as if she were a minion"),
    at the end of a turn the position says is the last of its round (turn last-of-round), once every other
    act of that end is done and the wave and game go on: a unit printed Bydra Graam on a map hex, with no
    chip beneath it, not Infested nor in campfire mode, beside another chip printed Rotten Worms whose
    Infest # the position gives, takes that # as a hit credited to no one, and the worms leave their hex,
    placed under her (the end lists them ``under`` her); beside two, one of them, either, each an end.
N315 Recruitable's taking (N122) is also an act of the moment in any order with the Self Destruct units: a
    unit taken before a blast is the turn's faction's from then on, no opposing unit, so the blast spares
    it (its end shows ``control`` with its health as it stands); the AI's only while none of its Self
    Destruct units would defeat something (N106 first).
N317 Spires Fire's results are told apart by the chips each spire fired at (or acted on), besides the choices
    and the end (docs/output-format.md, spires-fire): the same end reached by firing at another chip (a forced
    target that an earlier roll changed) is another result; not by how many shots (Repeater's again).
N316 The whole attack step's ends are told apart, besides the board, by what the rest of the turn reads of
    the step (docs/combat.md, End states): the units with Survival that attacked in it and stand (the end
    of the turn reads "if this unit did not move or attack"), and the units with Recruitable (not Untamed)
    that no faction owns that the turn's faction attacked in it (not instead, Pacify) and that stand, not attacked
    before ("if your faction attacked this unit"). The same board with other such attackers is another end.
N326 Quake, the player's, N166: it may instead "remove 1 health from a landmark in range": any landmark minion
    within its range (each an offer among N166's, a choice where there are several), in the exchange of the
    shot, before its hits. No damage (REMOVED): Peaceful and Hidden Armor do not stop it, Bio-Indefinite's cap
    holds, fortifications go first; brought to 0 it is defeated, the spire's faction credited as with a
    splash's defeat (N75: rewarded where it opposes it), its Detonate blasting with the shot's. A revealed
    Secret Passage's health (the solver's other such landmark) is not drawn.
N360 Wallop (N77) on an AI Multi-Target spire (N43): its volley would attack every unit it may fire at, so
    where one of them is a hero beside it that no roll it counts on defeats (weighed as a shot at her
    alone), it makes no volley and wallops her instead, each such hero an outcome, a choice (spire, hero)
    where there are several (docs/combat.md, reading volley Wallop).
N361 A Raze attack (N120) is an attack: a spire with Degradation (N50) then loses its bottom 2 upgrades,
    after the one Raze removes having attacked a gate or waygate (three in all) (docs/combat.md, Raze).
N314 A unit written ``done: silenced`` (a Silencer spire silenced it this turn: it "cannot attack for the
    remainder of the turn") does not attack, as one written ``attacked``; it still retaliates.
"""

from __future__ import annotations

import math
from collections import deque
from itertools import product
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import ClassVar, TypeVar

from adjudicator.answers.attacks import (
    ATTACK,
    GATE_RETALIATION,
    RECOVERY,
    SPIKE,
    SPLASH,
    BLAST,
    RETALIATION,
    SPIRE_FIRE,
    MOVING,
    REMOVED,
    AttackOptions,
    AttackOutcome,
    AttackStepResult,
    ChipEnd,
    Damage,
    Defeat,
    EndState,
    FireResult,
    FireStepResult,
    Gain,
    LevelUp,
    Reveal,
    Rolled,
    Shot,
    SpireTargets,
    StepEnd,
    Target,
)
from adjudicator.position.dice import Die, standard_die
from adjudicator.position.model import Controller, GroupedChip, Kind, Position, Reward, Stats, Terrain, Unit, gate_node
from adjudicator.position.priorities import presets
from adjudicator.position.readings import resolve
from tests.reference import movement  # a module: movement imports this one too
from tests.reference import talents
from tests.reference.sides import opposing

FALLBACK = "any-target"  # N13
HIDDEN_ARMOR = "Hidden Armor"  # N72
CUMBERSOME = "Cumbersome"  # N81
TOXIC_FUMES = "Toxic Fumes"  # N235
POWERHOUSE, ROTTEN_WORMS = "Powerhouse", "rotten worms"  # N263
GRAFT, HEIRS = "graft", "heirs"  # Harbinger chapter 2's factions (N40, N41)
READING_DEFAULTS = {
    "spire-defeat": "bare",
    "reveal-retaliation": "fresh",
    "eager-landmark": "stays",
    "gate-redirect": "both",
    "campfire": "end-of-turn",
    "ai-spire-odds": "possible",
    "inferno-upgrade": "attack",
    "orange-cross-shield": "attack",  # N207
    "assist-minion": "promote",  # N364
}

T = TypeVar("T")

# ---------------------------------------------------------------------------------- the board


@dataclass(frozen=True)
class Fighter:
    """A unit in play as a step changes it: its active chip and what it has done."""

    holder: ClassVar[str] = "unit"  # whose talents the registry asks (tests/reference/talents)
    id: str
    chip: str
    faction: str  # "" for a landmark minion (N1)
    kind: Kind
    health: int
    stats: Stats  # the basic side, or the active group chip's
    promoted_stats: Stats | None
    promoted: bool
    talents: tuple[str, ...]
    upgrades: tuple[str, ...]
    group: tuple[GroupedChip, ...]
    reward: Reward
    merc: bool
    node: str  # a hex, or its gate node while it waits there
    in_gate: bool
    campfire: bool
    attacked: bool
    retaliated: bool
    capacity: int | None
    friend: str = ""  # the faction a landmark minion with Devoted is friendly to (N36)
    revealed: bool = False  # a group revealed a new chip this step
    promoted_now: bool = False
    muted: bool = False  # every talent ignored for now (N40: Harbinger chapter 2's Grafted Snare)
    silenced: bool = False  # N44: it cannot attack for the rest of the turn
    held: bool = False  # N80: Survival's AI wording held it still this turn
    refreshed: bool = False  # N264: it may not recover by Refresh now (had it, or moved before the step)

    @property
    def free(self) -> bool:
        """N1: a landmark minion no faction controls (a Devoted one included: its ``faction`` is "")."""
        return self.kind is Kind.LANDMARK_MINION and not self.faction

    @property
    def side(self) -> Stats:
        """Chips and their stats: a promoted hero uses its promoted stats (N8 when it has none)."""
        return self.promoted_stats if self.promoted and self.promoted_stats is not None else self.stats

    @property
    def attack(self) -> int:
        return self.side.attack + self.upgrades.count("attack")

    @property
    def range(self) -> int:
        return self.side.range + self.upgrades.count("range")

    @property
    def starred(self) -> bool:
        """N164: an attack stat of * with Poison in use: it attacks and retaliates, every hit successful."""
        return self.side.star and talents.says("halves", self)

    @property
    def forts(self) -> int:
        return self.upgrades.count("fortification")

    def has(self, talent: str) -> bool:
        """A unit waiting in its gate uses no talent (Chips and their stats), nor a muted one (N40), nor a
        hero in campfire mode (N142)."""
        return talent in self.talents and not self.in_gate and not self.muted and not self.campfire


@dataclass(frozen=True)
class Tower:
    """A spire as a step changes it."""

    holder: ClassVar[str] = "spire"
    id: str
    faction: str
    at: str
    upgrades: tuple[str, ...]  # bottom first
    talents: tuple[str, ...]
    reward: Reward
    merc: bool
    defeated: bool = False
    arrow: str = ""  # Directional Attack's (N56)
    held: tuple[int, ...] = ()  # N60: the index in the position's list of each upgrade still on it
    flipped: bool = False  # N77: it shows its other side
    gained: int = 0  # N165: the upgrades Inferno gave it this step, each a chip out of the supply

    def without(self, places: set[int]) -> Tower:
        """N60: the spire without its upgrades at these places (0 the bottom one it still has)."""
        return replace(self, upgrades=tuple(u for i, u in enumerate(self.upgrades) if i not in places),
                       held=tuple(h for i, h in enumerate(self.held) if i not in places))

    @property
    def dice(self) -> int:
        return self.upgrades.count("attack")

    @property
    def range(self) -> int:
        """Chips and their stats, reading: 1 plus one per range upgrade it still has."""
        return 1 + self.upgrades.count("range")

    def has(self, talent: str) -> bool:
        return talent in self.talents


@dataclass(frozen=True)
class GateState:
    health: int
    stack: tuple[str, ...]  # top first


@dataclass
class Board:
    units: dict[str, Fighter]  # only units in play
    spires: dict[str, Tower]
    gates: dict[str, GateState]
    source: dict[str, int]
    ended: bool = False  # a gate fell and at most one still has health: the game is over
    discarded: frozenset[str] = frozenset()  # units that left play, not defeated (N66)
    waygates: dict[str, tuple[str, int]] = field(default_factory=dict)  # N84: chip id -> (hex, health)
    under: dict[str, str] = field(default_factory=dict)  # N146: unit -> the unit it was placed under
    morale: dict[str, int] = field(default_factory=dict)  # N156: faction -> what its morale die shows, where given
    lifted: frozenset[str] = frozenset()  # N145: face-down landmarks removed from play
    returned: frozenset[str] = frozenset()  # N205: units that left play to their fortress, not defeated (Colony)
    fumes: dict[str, int] = field(default_factory=dict)  # N235: hex -> the toxic fumes chips defeats laid there
    raised: frozenset[str] = frozenset()  # N263: minions promoted where they wait in their barracks (Powerhouse)
    exploded: frozenset[str] = frozenset()  # N274: Explosion chips that went off
    held: bool = False  # N339: while a splash's hits land, a defeat frees no one from Grafted Snare

    def copy(self) -> Board:
        return Board(dict(self.units), dict(self.spires), dict(self.gates), dict(self.source), self.ended,
                     self.discarded, dict(self.waygates), dict(self.under), dict(self.morale), self.lifted,
                     self.returned, dict(self.fumes), self.raised, self.exploded)

    def key(self) -> tuple[object, ...]:
        return (
            tuple(sorted(self.units.items())),
            tuple(sorted(self.spires.items())),
            tuple(sorted(self.gates.items())),
            tuple(sorted(self.source.items())),
            self.ended,
            tuple(sorted(self.discarded)),
            tuple(sorted(self.waygates.items())),
            tuple(sorted(self.under.items())),
            tuple(sorted(self.morale.items())),
            tuple(sorted(self.lifted)),
            tuple(sorted(self.returned)),
            tuple(sorted(self.fumes.items())),
            tuple(sorted(self.raised)),
            tuple(sorted(self.exploded)),
        )


def start_board(position: Position) -> Board:
    units: dict[str, Fighter] = {}
    for u in position.units.values():
        node = position.placed(u.id)
        if node is None:
            continue  # returned to its fortress, or waiting in its barracks: not in play
        units[u.id] = _fighter(u, node)
    spires = {
        s.id: Tower(s.id, s.faction, s.at, s.upgrades, s.talents, s.reward, s.merc, arrow=s.arrow,
                    held=tuple(range(len(s.upgrades))))
        for s in position.spires
    }
    gates = {  # a deployment point (no fortress) stands for no gate: no health, never a target
        f: GateState(g.health if g.fortress else 0, tuple(uid for uid in g.stack if uid in units))
        for f, g in position.gates.items()
    }
    board = Board(units, spires, gates, {f.name: f.source for f in position.factions.values()})
    board.morale = {f.name: f.morale for f in position.factions.values() if f.morale is not None}  # N156
    if position.scenario is not None and position.scenario.chapter == 6:  # N84
        board.waygates = {c.id: (c.at, c.health) for c in position.chips
                          if c.name.strip().casefold() == "waygate" and c.health is not None}
    _snare(position, board)
    return board


def _fighter(u: Unit, node: str) -> Fighter:
    """Unit ``u`` in play on ``node`` (a hex, or its gate node while it waits there)."""
    return Fighter(
        id=u.id,
        chip=u.chip,
        faction="" if u.kind is Kind.LANDMARK_MINION and "Devoted" in u.talents else u.faction,  # N1
        friend=u.faction if u.kind is Kind.LANDMARK_MINION and "Devoted" in u.talents else "",
        kind=u.kind,
        health=u.health,
        stats=u.stats,
        promoted_stats=u.promoted_stats,
        promoted=u.promoted,
        talents=u.talents,
        upgrades=u.upgrades,
        group=u.group,
        reward=u.reward,
        merc=u.merc,
        node=node,
        in_gate=u.at is None,
        campfire=u.campfire,
        attacked=u.done.attacked or u.done.silenced,  # Silencer: it cannot attack (N314)
        retaliated=u.done.retaliated,
        capacity=u.capacity,
        held=u.done.held,
        refreshed=u.done.moved or u.done.displaced,
    )


def _snare(position: Position, board: Board) -> None:
    """N40: Harbinger chapter 2, "All Graft units benefit from ... Grafted Snare": on the Graft's turn
    every talent of an opposing unit beside a Graft unit in play is ignored, a landmark minion's too;
    again as units fall."""
    scenario = position.scenario
    snaring = scenario is not None and scenario.chapter == 2 and position.turn.faction == GRAFT
    grafts = {f.node for f in board.units.values()  # N1: one the Graft control is no "Graft unit"
              if f.faction == GRAFT and f.kind is not Kind.LANDMARK_MINION and not f.in_gate} if snaring else set()
    for uid, f in board.units.items():
        opposed = f.faction != GRAFT and f.friend != GRAFT  # N36: a Devoted landmark minion of the Graft's is no foe
        muted = opposed and not f.in_gate and bool(grafts & set(position.neighbours(f.node)))
        if muted != f.muted:
            board.units[uid] = replace(f, muted=muted)


@dataclass
class Rules:
    """What stays fixed during a step: the position, readings, whose turn, who acts as the AI."""

    position: Position
    faction: str
    ai_turn: bool
    readings: dict[str, str]
    _distances: dict[str, dict[str, int]] = field(default_factory=dict)
    minions: bool = True  # N137: a faction minion was in play as the step began, so the wave may end in it

    @classmethod
    def of(cls, position: Position, ai: bool) -> Rules:
        try:
            values = resolve(position.readings)
        except ValueError:  # a combat reading not yet known to adjudicator.position.readings
            values = dict(position.readings)
        readings = {name: values.get(name, default) for name, default in READING_DEFAULTS.items()}
        return cls(position, position.turn.faction, ai, readings)

    def ai(self, faction: str) -> bool:
        """N10: the ``ai`` flag for the turn's faction, the controller for the others."""
        if faction == self.faction:
            return self.ai_turn
        known = self.position.factions.get(faction)
        return known is not None and known.controller is Controller.AI

    def distance(self, a: str, b: str) -> int | None:
        """Range: fewest steps through map hexes of any terrain and gate nodes, occupied or not."""
        if a not in self._distances:
            found = {a: 0}
            queue = deque([a])
            while queue:
                node = queue.popleft()
                for near in self.position.neighbours(node):
                    if near not in found:
                        found[near] = found[node] + 1
                        queue.append(near)
            self._distances[a] = found
        return self._distances[a].get(b)

    def within(self, a: str, b: str, reach: int) -> bool:
        d = self.distance(a, b)
        return d is not None and d <= reach


def _wave_over(board: Board) -> bool:
    """The wave and campfire mode: no faction minion in play (landmark minions do not count) but those
    of one minion type whose talent says it alone ends the wave (lone_type: Neglected, Precious)."""
    minions = [f for f in board.units.values() if f.kind is Kind.MINION or (f.kind is Kind.LANDMARK_MINION and not f.free)]
    types = [set(talents.results("lone_type", f)) for f in minions]
    if not all(types):
        return False
    # N176: forsaken and elfinkaze together are two minion types: neither wording ends the wave.
    return len(set().union(*types)) <= 1


def _is_gate(chip: str) -> bool:
    return chip.startswith("gate:")


UPRISING = "uprising"  # N84


def _chip_node(board: Board, chip: str) -> str:
    if _is_gate(chip):
        return chip
    if chip in board.waygates:
        return board.waygates[chip][0]
    if chip in board.spires:
        return board.spires[chip].at
    return board.units[chip].node


# ------------------------------------------------------------------------------- valid targets


def cannot_attack(rules: Rules, board: Board, uid: str) -> str:
    """Why the unit may not attack now, whatever its targets; "" when it may (Valid targets)."""
    a = board.units.get(uid)
    if a is None:
        return "not in play"
    if a.faction != rules.faction:
        return "not its faction's turn"
    if a.free:
        return "landmark minions do not attack"
    if a.in_gate:
        return "waits in its fortress gate (FAQ-21)"
    if a.campfire:
        return "in campfire mode (FAQ-18)"
    if a.attacked:
        return "has already attacked this turn"
    if a.held and rules.ai(a.faction):  # N80
        return "held still by Survival"
    rests = talents.first("rests", a, rules, a)
    if rests:
        return rests
    if a.attack < 1 and not talents.says("strikes", a) and not a.starred:  # N164
        return "attack 0 and no Slap"
    return ""


def _flies(rules: Rules, board: Board, f: Fighter) -> bool:
    """Flying, N12: its own (flies) or given by a spire (grants_flying, N69); a player's unit only while
    no chips wait beneath it, unless a talent lifts its "Ungrouped only" (loose, N74); an AI's unit
    always; never while a unit's or a spire's talent ignores it (unflown: N32, N69)."""
    flying = talents.says("flies", f) or (not f.in_gate and not f.muted and any(
        talents.says("grants_flying", s, rules, s, f) for s in board.spires.values()))
    loose = not f.group or rules.ai(f.faction) or talents.says("loose", f)
    return flying and loose and not _unflown(rules, board, f)


def _unflown(rules: Rules, board: Board, f: Fighter) -> bool:
    return any(talents.says("unflown", c, rules, board, c, f) for c in (*board.units.values(), *board.spires.values()))


def _range(rules: Rules, board: Board, f: Fighter) -> int:
    """A unit's range, its range upgrades included; 1 while a spire's talent ignores its Range (N69)."""
    return 1 if _unranged(rules, f, board) else f.range


def _unranged(rules: Rules, f: Fighter, board: Board) -> bool:
    return any(talents.says("unranged", s, rules, s, f) for s in board.spires.values())


def _flying_ok(rules: Rules, board: Board, attacker: Fighter | Tower, target: Fighter) -> bool:
    """FAQ-28: a Flying unit is attacked only by chips whose talents let them (anti_air), or a unit
    that flies itself."""
    flier = not isinstance(attacker, Tower) and _flies(rules, board, attacker)
    return flier or talents.says("anti_air", attacker, attacker) or not _flies(rules, board, target)


def _shielded(rules: Rules, board: Board, by: Fighter | Tower, chip: Fighter | Tower, at: str) -> bool:
    """The chip on ``at`` is no valid target of ``by`` by a talent of its own (shield)."""
    return talents.says("shield", chip, rules, board, by, at)


def _open_targets(rules: Rules, board: Board, a: Fighter) -> list[str]:
    """Every opposing chip within range, before Engage; for a challenged hero, the challengers (N30)."""
    chips = []
    for t in board.units.values():
        hostile = t.friend != a.faction if t.free else opposing(rules.position, t.faction, a.faction)
        if (
            hostile
            and not t.in_gate
            and not t.campfire
            and _flying_ok(rules, board, a, t)
            and not _shielded(rules, board, a, t, t.node)
            and (rules.within(a.node, t.node, _range(rules, board, a)) or _far(rules, board, a, t.id))
        ):
            chips.append(t.id)
    chips += [
        s.id
        for s in board.spires.values()
        if opposing(rules.position, s.faction, a.faction)
        and not s.defeated
        and not _shielded(rules, board, a, s, s.at)
        and rules.within(a.node, s.at, _range(rules, board, a))
    ]
    chapter_6 = rules.position.scenario is not None and rules.position.scenario.chapter == 6
    chips += [
        gate_node(f)
        for f, g in board.gates.items()
        if opposing(rules.position, f, a.faction) and g.health >= 1 and rules.within(a.node, gate_node(f), _range(rules, board, a))
        and not (chapter_6 and f == UPRISING)  # N84: its tracker counts casualties
    ]
    chips += [  # N84
        w for w, (at, health) in board.waygates.items()
        if opposing(rules.position, UPRISING, a.faction) and health >= 1 and rules.within(a.node, at, _range(rules, board, a))
    ]
    if a.kind is Kind.HERO:
        challengers = {
            t.id for t in board.units.values()
            if (t.friend != a.faction if t.free else opposing(rules.position, t.faction, a.faction))
            and talents.says("challenges", t, rules, a, t)
        }
        if challengers:
            chips = [c for c in chips if c in challengers]  # N30
    return sorted(chips)


def _far(rules: Rules, board: Board, a: Fighter, chip: str) -> bool:
    """``chip`` is a unit as many hexes from ``a`` as a talent of its lets it attack (afar: N73 Pistoleer)
    that its range does not reach."""
    away = set(talents.results("afar", a))
    if not away or chip not in board.units:
        return False
    node = board.units[chip].node
    return rules.distance(a.node, node) in away and not rules.within(a.node, node, _range(rules, board, a))


def _engaging(board: Board, chips: list[str]) -> list[str]:
    """The targets whose talents bind their attacker to them (binds: Engage, "must do so")."""
    return [c for c in chips if c in board.units and talents.says("binds", board.units[c], board.units[c])]


def targets_now(rules: Rules, board: Board, uid: str) -> tuple[list[str], bool]:
    """The unit's valid targets now and whether Engage binds it (FAQ-27)."""
    if cannot_attack(rules, board, uid):
        return [], False
    chips = _open_targets(rules, board, board.units[uid])
    engage = _engaging(board, chips)
    return (engage, True) if engage else (chips, False)


def valid_targets(position: Position, unit_id: str) -> list[str]:
    """The chips the unit may attack now (unit ids, spire ids, gate nodes), sorted."""
    chips, _ = targets_now(Rules.of(position, False), start_board(position), unit_id)
    return chips


def damage_now(position: Position, unit_id: str) -> dict[str, int]:
    """What the unit's attack, its faction playing as the AI, would deal each valid target now."""
    board = start_board(position)
    rules = Rules.of(position, True)
    chips, _ = targets_now(rules, board, unit_id)
    return {chip: _hit(rules, board, board.units[unit_id], chip) for chip in chips}


# ---------------------------------------------------------------------------------------- the AI


def _kind(board: Board, chip: str) -> str:
    if _is_gate(chip) or chip in board.waygates:  # N84
        return "gate"
    if chip in board.spires:
        return "spire"
    return board.units[chip].kind.value


def _armored(board: Board, chip: str) -> int:
    """What the unit's talents take off an attack on it (reduce): spires and gates take the full damage."""
    return talents.total("reduce", board.units[chip], board.units[chip]) if chip in board.units else 0


def heals(rules: Rules, by: str, chip: str) -> bool:
    """Chapter 8: "When a naroran unit would cause a Graft unit to lose health, The Graft unit
    instead gains that amount of health. This may exceed its health stat." An attack's or a
    retaliation's damage alike."""
    scenario, units = rules.position.scenario, rules.position.units
    if scenario is None or scenario.chapter != 8 or by not in units or chip not in units:
        return False  # a chip that already fell still deals its Spike: the position says whose it was
    mover, hit = units[by], units[chip]
    landmark = Kind.LANDMARK_MINION in (mover.kind, hit.kind)  # no faction's unit
    return not landmark and mover.faction == "narora" and hit.faction == "graft"


def _effect(rules: Rules, board: Board, chip: str, amount: int, by: Fighter) -> tuple[bool, bool]:
    """Would ``by``'s attack dealing ``amount`` (after Armored) defeat the chip, and would it damage it?
    A spire is damaged when it loses an upgrade, whatever removes it (N61, N62)."""
    if _is_gate(chip):
        return amount >= board.gates[chip[5:]].health, amount >= 1
    if chip in board.waygates:  # N84
        return amount >= board.waygates[chip][1], amount >= 1
    if chip in board.spires:
        ups = board.spires[chip].upgrades
        lost = bool(ups[:_prestrip(by)])
        ups = ups[_prestrip(by):]
        if _unstacks(rules, board, by, chip, ups) is not None:
            return False, bool(ups) or lost
        if not ups:
            return amount >= 1, amount >= 1 or lost
        removes = amount >= (2 if ups[0] == "fortification" else 1)
        last = removes and len(ups) == 1 and rules.readings["spire-defeat"] == "last-upgrade"
        return last, removes or lost
    t = board.units[chip]
    if _dodges(t) and amount >= t.health + t.forts:  # N67: it would take 0
        return False, False
    return amount >= t.health + t.forts, amount >= 1


def _fits(category: str, kind: str, defeat: bool, damage: bool) -> bool:
    if category == "gate":
        return kind == "gate"
    if category == "any-unit":
        return kind in ("hero", "minion", "landmark-minion")
    verb, _, wanted = category.partition("-")
    if verb == "closest":
        return kind == wanted
    return kind == wanted and (defeat if verb == "defeat" else damage)


def _rank(categories: tuple[str, ...], kind: str, defeat: bool, damage: bool) -> tuple[int, str]:
    """1-based index of the first category that fits; after the list, any valid target."""
    for i, category in enumerate(categories, start=1):
        if _fits(category, kind, defeat, damage):
            return i, category
    return len(categories) + 1, FALLBACK


def _unit_priorities(rules: Rules) -> tuple[str, ...]:
    chosen = rules.position.ai_priority
    return chosen.units if chosen is not None else presets("units")["standard"]


def _spire_priorities(rules: Rules) -> tuple[str, ...]:
    chosen = rules.position.ai_priority
    return chosen.spires if chosen is not None else presets("spires")["standard"]


def _stat(board: Board, a: Fighter, chip: str) -> int:
    """The unit's attack stat against the chip it attacks or retaliates against (N29)."""
    given = talents.first("atk_as", a, a, board.units.get(chip))
    return a.attack if given is None else given


def _hit(rules: Rules, board: Board, a: Fighter, chip: str, target: str | None = None, extra: int = 0) -> int:
    """A unit's attack on the chip (``target``: the gate whose hit the chip took): its stat against
    the target (N29), Hunter's +1 on a landmark minion (N28), ``extra`` (N54), less Armored, then
    Evasive's cap against a unit with Range (N26) and Cover's (N33); last, Poison's half (N58)."""
    if _peaceful(rules, board, a.id, chip):  # N79
        return 0
    t = board.units.get(chip)
    boost = talents.total("boost", a, a, t)
    amount = max(0, _stat(board, a, target or chip) + boost + extra - _armored(board, chip))
    cap = talents.least("cap", t, rules, board, a, t) if t is not None else None
    if cap is not None:
        amount = min(amount, cap)
    if _held(rules, board, a.id, chip, ATTACK):  # N39
        amount = min(amount, 1)
    if _covered(rules, board, chip):
        amount = min(amount, 1)
    return _poisoned(board, talents.says("halves", a), chip, amount, _sure(board, a, target or chip))


def _peaceful(rules: Rules, board: Board, by: str, chip: str) -> bool:
    """``by``'s hit takes nothing from the unit ``chip`` by a talent of its (spared: N79 Peaceful), unless
    it heals."""
    t = board.units.get(chip)
    return t is not None and not heals(rules, by, chip) and talents.says("spared", t, rules, board, by)


def _sure(board: Board, a: Fighter, chip: str) -> bool:
    """N164: a's hit on (or retaliation against) unit ``chip`` is successful whatever it deals: a's own *,
    or Fair Fight's * taken from a unit whose stat is *, with Poison in use."""
    t = board.units.get(chip)
    return a.starred or (t is not None and t.side.star and a.has("Fair Fight") and a.has("Poison"))


def _poisoned(board: Board, poison: bool, chip: str, amount: int, starred: bool = False) -> int:
    """N58 Poison: "the attack instead removes half of the unit's existing health, rounded down" when
    it would remove any; a fortification is one more health (FAQ-29). Never on a spire or a gate.
    N164: a ``starred`` hitter's hit is successful whatever it deals."""
    t = board.units.get(chip)
    if not poison or t is None or (amount < 1 and not starred):
        return amount
    return (t.health + t.forts) // 2


def _held(rules: Rules, board: Board, by: str, chip: str, how: str) -> bool:
    """The unit ``chip`` loses at most 1 health from ``by``'s hit of kind ``how``, by a talent of its (held:
    N39 Bio-Indefinite)."""
    t = board.units.get(chip)
    return t is not None and talents.says("held", t, rules, board, by, t, how)


def _covered(rules: Rules, board: Board, chip: str) -> bool:
    """An attack on the unit ``chip`` deals at most 1 by a spire's talent (covers: N33 Cover)."""
    t = board.units.get(chip)
    return t is not None and any(talents.says("covers", s, rules, s, t) for s in board.spires.values())


def _spire_cut(board: Board, chip: str) -> int:
    """What a spire's shot loses on the chip, by its talents (sreduce)."""
    return talents.total("sreduce", board.units[chip], board.units[chip])


def _shot(rules: Rules, board: Board, s: Tower, chip: str, total: int) -> int:
    """What spire ``s``'s dice totalling ``total`` deal the unit: less its cut, then Cover's cap (N33),
    then Poison's half (N58); nothing to a Peaceful unit unless the spire is a merc (N79)."""
    if _peaceful(rules, board, s.id, chip):
        return 0
    amount = max(0, total - _spire_cut(board, chip))
    if _covered(rules, board, chip) or _held(rules, board, "", chip, SPIRE_FIRE):
        amount = min(amount, 1)
    return _poisoned(board, talents.says("halves", s), chip, amount)


@dataclass(frozen=True)
class Choice:
    """What one unit may or must attack now."""

    targets: tuple[Target, ...]
    allowed: tuple[str, ...]  # the targets it may attack (for the AI, the mandated ones)
    must: bool
    cannot: str
    calm: tuple[str, ...] = ()  # N66: the landmark minions it may (the AI: must) discard instead
    weak: tuple[str, ...] = ()  # N71: the spires a player's Weak Point unit may strip instead


def _beside_landmarks(rules: Rules, board: Board, uid: str) -> tuple[str, ...]:
    """N66: the landmark minions on the hexes beside a unit with Pacify."""
    a = board.units[uid]
    if not talents.says("may_instead_landmark", a):
        return ()
    near = set(rules.position.neighbours(a.node))
    return tuple(sorted(lid for lid, f in board.units.items()
                        if f.kind is Kind.LANDMARK_MINION and not f.in_gate and f.node in near))


def _weak_spires(rules: Rules, board: Board, uid: str) -> tuple[str, ...]:
    """N71: the opposing spires with an upgrade beside a player's unit whose talent may strip one instead
    of attacking (may_instead_spire: Weak Point)."""
    a = board.units[uid]
    if not talents.says("may_instead_spire", a, rules, a):
        return ()
    near = set(rules.position.neighbours(a.node))
    return tuple(sorted(s.id for s in board.spires.values()
                        if not s.defeated and s.upgrades and s.at in near
                        and opposing(rules.position, s.faction, a.faction)))


def choice(rules: Rules, board: Board, uid: str) -> Choice:
    reason = cannot_attack(rules, board, uid)
    if reason:
        return Choice((), (), False, reason)
    chips, engaged = targets_now(rules, board, uid)
    a = board.units[uid]
    calm = _beside_landmarks(rules, board, uid)
    ai = rules.ai(a.faction)
    weak = _weak_spires(rules, board, uid)
    if not chips:  # a unit that may use its attack otherwise (N66, N71) has something to do with it
        return Choice((), (), ai and bool(calm), "" if calm or weak else "no valid target", calm, weak)
    minion = a.kind is not Kind.HERO
    if not ai:  # N83: a player's Roost Roam minion attacks as a hero, at will
        minion = minion and not talents.says("at_will", a, rules, a)
        return Choice(tuple(Target(c) for c in chips), tuple(chips), minion or engaged, "", calm, weak)
    order = _unit_priorities(rules)
    def effect(c: str) -> tuple[bool, bool]:  # a heal is neither defeat nor damage, nor a swindle (N65)
        if heals(rules, uid, c) or _swindles(a, board.units.get(c)):
            return (False, False)
        extra = swash(rules, board, uid) if press_choices(rules, board, uid, c) == [True] else 0
        return _effect(rules, board, c, _hit(rules, board, a, c, extra=extra), a)

    ranked = {c: _rank(order, _kind(board, c), *effect(c)) for c in chips}
    targets = tuple(Target(c, p, cat) for c, (p, cat) in ranked.items())
    if calm and not any(effect(c)[1] for c in chips if not (c in board.units and board.units[c].free)):  # N1
        return Choice(targets, (), True, "", calm)  # N66: it cannot damage a faction's chip
    # N73: a Pistoleer unit's targets 2 hexes away only when none within its range would take damage.
    far = {c for c in chips if _far(rules, board, a, c)}
    near_harm = any(effect(c)[1] for c in chips if c not in far)
    pool = sorted(far) if far and not near_harm else [c for c in chips if c not in far]
    best = min(ranked[c][0] for c in pool)
    allowed = [c for c in pool if ranked[c][0] == best]
    if best <= len(order) and order[best - 1].startswith("closest-"):  # N38
        away = {c: rules.distance(a.node, _chip_node(board, c)) for c in allowed}
        allowed = [c for c in allowed if away[c] == min(away.values())]
    if not minion and not engaged and not (far and not near_harm):  # N6; N73: "it will attack"
        allowed = [c for c in allowed if effect(c)[1]]
        if not allowed:
            return Choice(targets, (), False, "")
    return Choice(targets, tuple(allowed), True, "")


# ---------------------------------------------------------------------------------- one attack


class Chooser:
    """Picks level-ups.  Listing (``script is None``): none taken, the LevelUp keeps chosen=None (N5)."""

    def __init__(self, script: tuple[int, ...] | None) -> None:
        self.script = script
        self.taken: list[int] = []
        self.widths: list[int] = []

    def pick(self, options: tuple[str, ...]) -> str | None:
        if self.script is None:
            return "attack" if options == ("attack",) else None
        k = len(self.taken)
        i = self.script[k] if k < len(self.script) else 0
        self.taken.append(i)
        self.widths.append(len(options))
        return options[i]


def every_choice(run: Callable[[Chooser], T]) -> list[T]:
    """Run ``run`` once per combination of choices it meets (each run extends one prefix)."""
    results: list[T] = []
    pending: list[tuple[int, ...]] = [()]
    while pending:
        script = pending.pop()
        chooser = Chooser(script)
        results.append(run(chooser))
        for k in range(len(script), len(chooser.taken)):
            pending += [tuple(chooser.taken[:k]) + (alt,) for alt in range(1, chooser.widths[k])]
    return results


@dataclass
class Log:
    damage: list[Damage] = field(default_factory=list)
    defeated: list[Defeat] = field(default_factory=list)
    revealed: list[Reveal] = field(default_factory=list)
    gains: list[Gain] = field(default_factory=list)
    level_ups: list[LevelUp] = field(default_factory=list)
    before: dict[str, Fighter] | None = None  # the units as the attack or shot began (N52)
    dodged: list[str] = field(default_factory=list)  # N67
    offered: dict[str, int] = field(default_factory=dict)  # Source rewards offered a faction, before its cap (N65)
    stolen: list[tuple[str, str, int]] = field(default_factory=list)  # N65: victim, thief ("" none), amount
    armour: frozenset[tuple[str, str]] = frozenset()  # N72: (unit, kind of hit) its owner discards Hidden Armor against
    shed: list[tuple[str, str, str]] = field(default_factory=list)  # N72: unit, talent, the hit's kind
    lost: list[tuple[str, str]] = field(default_factory=list)  # N81: unit, the item its damage made it drop
    roll: int | None = None  # N78: the total a Relentless retaliation rolls
    rolled: bool = False  # N78: one did
    invigorated: list[str] = field(default_factory=list)  # N97: groups whose fallen AI chip had Invigorate
    invigorators: list[tuple[str, str]] = field(default_factory=list)  # N118: a fallen player's unit with it, its faction
    gang: frozenset[str] = frozenset()  # N116: the units whose owner spends 2 Source for Press Gang if defeated
    absorb: frozenset[tuple[str, str]] = frozenset()  # N119: (minion, spire) its owner picks if it is absorbed
    absorbed: list[tuple[str, str, bool]] = field(default_factory=list)  # N119: minion, spire, a choice shown
    purse: dict[str, int] | None = None  # N116: the Source as the attack (N65: its purse), shot or act began
    spent: dict[str, int] = field(default_factory=dict)  # N116: what each faction spent out of ``purse``
    paid_for: list[tuple[str, str]] = field(default_factory=list)  # N116: unit, the talent Source was spent for
    levies: list[tuple[str, str, int]] = field(default_factory=list)  # N112, N113: victim, thief, amount
    blasts: list[Fighter] = field(default_factory=list)  # N147: the Detonate chips that fell, as they fell
    levelling: list[str] = field(default_factory=list)  # N147: heroes whose defeat of the attacker levels them up
    morale: dict[str, int] = field(default_factory=dict)  # N156: faction -> how far its morale die rose
    entropic: dict[str, bool] = field(default_factory=dict)  # N177: unit left at 1 -> another hit came after
    fumes: list[tuple[str, str]] = field(default_factory=list)  # N235: an AI unit with Toxic Fumes that fell, its hex


def _gain(rules: Rules, board: Board, log: Log, faction: str, reward: Reward) -> None:
    """Defeat and rewards: Source up to capacity, relics, a spire build; the AI forfeits (N11)."""
    if not faction or reward.empty:
        return
    if rules.ai(faction):
        log.gains.append(Gain(faction, forfeited=True))
        return
    capacity = rules.position.factions[faction].source_capacity
    added = max(0, min(reward.source, capacity - board.source[faction]))
    board.source[faction] += added
    log.offered[faction] = log.offered.get(faction, 0) + reward.source
    gain = Gain(faction, added, reward.relics, reward.spire)
    if gain != Gain(faction):
        log.gains.append(gain)


def _pillage(rules: Rules, board: Board, log: Log, faction: str, fallen: str) -> None:
    """Fortress Gate Pillaging: the defeated faction's Source moves over, up to capacity."""
    if rules.ai(faction):
        log.gains.append(Gain(faction, pillaged=fallen, forfeited=True))
    else:
        capacity = rules.position.factions[faction].source_capacity
        added = max(0, min(board.source[fallen], capacity - board.source[faction]))
        board.source[faction] += added
        log.gains.append(Gain(faction, source=added, pillaged=fallen))
    board.source[fallen] = 0


def _merged(gains: list[Gain]) -> tuple[Gain, ...]:
    """One Gain per faction for one attack, as the answer gives it: a splash (N42) may defeat several
    chips for the attacker's faction."""
    by: dict[str, Gain] = {}
    for g in gains:
        was = by.get(g.faction)
        by[g.faction] = g if was is None else Gain(
            g.faction, was.source + g.source, was.relics + g.relics, was.spire or g.spire,
            was.pillaged or g.pillaged, was.forfeited or g.forfeited)
    return tuple(by.values())


def _capture_room(rules: Rules, log: Log, taker: str, of: str) -> bool:
    """N335: whether ``taker`` may hold one more minion captured from faction ``of``."""
    captives = rules.position.factions[taker].captives
    if captives is None:
        return True
    before = log.before or {}
    held = dict(captives).get(of, 0) + sum(1 for d in log.defeated if d.goes_to == f"captured:{taker}"
                                            and d.chip in before and before[d.chip].faction == of)
    return held < 3


def _goes_to(rules: Rules, board: Board, log: Log, f: Fighter, by: str) -> str:
    """Where unit ``f``, defeated by chip ``by``, goes: where a talent of its standing defeater sends it
    (sends), else its own (goes), else its defeater's that takes it (takes), else by the rules."""
    burner = board.units.get(by)
    if any(d.chip == by for d in log.defeated):
        burner = None
    sent = talents.first("sends", burner, rules, board, f, burner) if burner is not None else None
    sent = sent or talents.first("goes", f, rules, board, log, f)
    sent = sent or (talents.first("takes", burner, rules, board, log, f, burner) if burner is not None else None)
    if sent:
        return sent
    if f.kind is Kind.HERO:
        return "removed-from-game"
    if f.kind is Kind.LANDMARK_MINION or f.merc:
        return "discard"
    under = _absorber(rules, board, log, f)
    return f"under:{under}" if under else "barracks"


def _absorber(rules: Rules, board: Board, log: Log, f: Fighter) -> str | None:
    """N119: the spire a graft minion bound for its barracks goes underneath, if any: the pick in
    ``log.absorb`` where it is one of the spires open (a player's: else none; the AI's: else the first
    tied)."""
    if f.faction != GRAFT:
        return None
    near = [t for t in board.spires.values() if t.has("Absorb") and not t.defeated
            and rules.within(t.at, f.node, _absorb_reach(rules, t.id))]
    if not near:
        return None
    chosen = {m: sid for m, sid in log.absorb}.get(f.id)
    if rules.ai(f.faction):
        least = min(len(t.upgrades) for t in near)
        tied = sorted(t.id for t in near if len(t.upgrades) == least)
        under: str | None = chosen if chosen in tied else tied[0]
        shown = len(tied) > 1
    else:
        under, shown = chosen if chosen in {t.id for t in near} else None, True
    if under:
        log.absorbed.append((f.id, under, shown))
    return under


def _absorbed_as_chosen(log: Log) -> bool:
    """N119: every pick was taken as given, and none made up: one line for each outcome (Spires Fire adds
    up the odds of equal lines)."""
    return {(m, t) for m, t, _ in log.absorbed} == set(log.absorb)


def _absorb_reach(rules: Rules, sid: str) -> int:
    """N119: the # of the spire's Absorb, as the position gives it."""
    return dict(next(s for s in rules.position.spires if s.id == sid).talent_numbers).get("Absorb", 0)


def absorb_choices(rules: Rules, board: Board, chips: Iterable[str]) -> list[frozenset[tuple[str, str]]]:
    """N119: every set of picks (minion, spire) for the graft minions among ``chips`` (those a hit may
    defeat), each none or one of the Absorb spires; a pick that is no option when it falls is
    ``_absorber``'s fallback."""
    spires = sorted(t.id for t in board.spires.values() if t.has("Absorb"))
    minions = sorted({c for c in chips if c in board.units and board.units[c].faction == GRAFT} if spires else set())
    return [frozenset((m, t) for m, t in zip(minions, picks) if t)
            for picks in product(*([None, *spires] for _ in minions))]


def _gang_pays(rules: Rules, board: Board, log: Log, f: Fighter) -> bool:
    """N116: whether the owner of ``f``, a player's defeated Press Gang unit, spends 2 Source for it, out
    of what it had as the attack, shot or act began (``log.purse``), before what it gained since."""
    if log.purse is None:
        log.purse = dict(board.source)
    spent = log.spent.get(f.faction, 0) + 2
    if f.id not in log.gang or log.purse[f.faction] < spent:
        return False
    log.spent[f.faction] = spent
    capacity = rules.position.factions[f.faction].source_capacity
    board.source[f.faction] = min(capacity, log.purse[f.faction] - spent + log.offered.get(f.faction, 0))
    log.paid_for.append((f.id, "Press Gang"))
    return True


def _fallible(rules: Rules, board: Board, uid: str, target: str, redirect: str | None) -> list[str]:
    """N116: the units an attack's exchange may defeat: the attacker, its target (or the unit taking the
    hit), those its splash would hit."""
    return _blastable(rules, board, [uid, target, redirect or target, *splash_area(rules, board, uid, target)])


def _blastable(rules: Rules, board: Board, chips: list[str]) -> list[str]:
    """N147: ``chips`` and the units beside each Detonate unit among them, which its blast may defeat; an
    Entropy unit's blast at exactly 1 too (N341)."""
    near = {n for c in chips if c in board.units
            and (board.units[c].has("Detonate") or talents.says("at_one", board.units[c]))
            for n in rules.position.neighbours(board.units[c].node)}
    return [*chips, *(t.id for t in board.units.values() if t.node in near and not t.in_gate and not t.campfire)]


def gang_choices(rules: Rules, board: Board, chips: Iterable[str]) -> list[frozenset[str]]:
    """N116: every set of the player's Press Gang units among ``chips`` (those a hit may defeat) whose
    owner would spend the Source."""
    open_ = sorted({c for c in chips if c in board.units and board.units[c].has("Press Gang")
                    and board.units[c].faction
                    and not rules.ai(board.units[c].faction)})
    return [frozenset(c for i, c in enumerate(open_) if k >> i & 1) for k in range(2 ** len(open_))]


def _assimilators(rules: Rules, board: Board, log: Log, f: Fighter, ai: bool) -> set[str]:
    """The factions, AI ones or not, of the units whose talent takes ``f``'s reward (assimilates: N52,
    N117 Assimilate)."""
    present = board.units if log.before is None else log.before
    return {a.faction for a in present.values()
            if a.id != f.id and a.faction and rules.ai(a.faction) == ai and talents.says("assimilates", a, rules, a, f)}


def _assimilated(rules: Rules, board: Board, log: Log, f: Fighter, credit: str) -> Reward:
    """N52: the reward ``credit`` gains for defeating ``f``, its Source withheld by an AI Assimilate, or
    by a player's of another faction (N117)."""
    if credit and not rules.ai(credit) and _assimilators(rules, board, log, f, True):
        return replace(f.reward, source=0)
    if credit and _assimilators(rules, board, log, f, False) - {credit}:
        return replace(f.reward, source=0)
    return f.reward


def _assimilate(rules: Rules, board: Board, log: Log, f: Fighter, credit: str) -> None:
    """N117: each other faction with a player's Assimilate unit near ``f`` gains its Source reward."""
    for faction in sorted(_assimilators(rules, board, log, f, False) - {credit}):
        if f.reward.source:
            _gain(rules, board, log, faction, Reward(source=f.reward.source))


def hurt(
    rules: Rules, board: Board, log: Log, uid: str, amount: int, by: str, how: str, credit: str, rewarded: bool = True
) -> bool:
    """Damage a unit: fortifications first (FAQ-29), then health; at 0 the chip is defeated.

    ``credit`` is the faction credited with the defeat, which gains the chip's reward when ``rewarded``
    (N42: not for a unit that does not oppose it).  Returns whether the chip was defeated.
    """
    u = board.units[uid]
    if uid in log.entropic:  # N177: a later hit on a unit at 1 since an earlier one
        log.entropic[uid] = True
    if _held(rules, board, by, uid, how):  # N39
        amount = min(amount, 1)
    if how != REMOVED and _peaceful(rules, board, by, uid):  # N79; N326: no damage
        amount = 0
    if heals(rules, by, uid):  # gained instead, fortifications untouched
        log.damage.append(Damage(uid, amount, by, how, u.health, u.health + amount, 0))
        board.units[uid] = replace(u, health=u.health + amount)
        return False
    if ((uid, how) in log.armour and amount >= 1 and u.has(HIDDEN_ARMOR) and u.faction
            and not rules.ai(u.faction)):  # N72: ignored, and the equipment is gone
        log.damage.append(Damage(uid, 0, by, how, u.health, u.health, 0))
        log.shed.append((uid, HIDDEN_ARMOR, how))
        board.units[uid] = replace(u, talents=tuple(t for t in u.talents if t != HIDDEN_ARMOR))
        return False
    if (how in (ATTACK, SPLASH, RETALIATION) and by not in board.spires and _dodges(u)
            and amount >= u.health + u.forts):  # N67; N75: a spire's splash is no unit's damage
        log.damage.append(Damage(uid, 0, by, how, u.health, u.health, 0))
        log.dodged.append(uid)
        board.units[uid] = replace(u, upgrades=(), promoted=False, promoted_now=False)
        return False
    if amount >= 1 and u.has(CUMBERSOME) and u.kind is Kind.HERO:  # N81: the item is placed on its hex
        log.lost.append((uid, CUMBERSOME))
        u = replace(u, talents=tuple(t for t in u.talents if t != CUMBERSOME))
    lost = min(amount, u.forts)
    after = max(0, u.health - (amount - lost))
    log.damage.append(Damage(uid, amount, by, how, u.health, after, lost))
    if after == 1 and u.health > 1 and how != BLAST and talents.says("at_one", u):  # N177
        log.entropic[uid] = False
    upgrades = list(u.upgrades)
    for _ in range(lost):
        upgrades.remove("fortification")
    u = replace(u, health=after, upgrades=tuple(upgrades))
    board.units[uid] = u
    if after > 0:
        return False
    _cheer(rules, board, log, u, by, credit)
    log.defeated.append(Defeat(uid, u.chip, credit, _goes_to(rules, board, log, u, by)))
    if u.has("Detonate"):  # N147
        log.blasts.append(u)
    if u.has(TOXIC_FUMES) and u.faction and rules.ai(u.faction) and u.node in rules.position.hexes:  # N235
        log.fumes.append((uid, u.node))
    if rewarded:
        reward = _assimilated(rules, board, log, u, credit)
        _gain(rules, board, log, credit, replace(reward, source=0) if talents.says("withholds", u) else reward)  # N113
    _assimilate(rules, board, log, u, credit)
    _levy(rules, board, log, u.faction, by, credit)  # N112
    levy = talents.total("levied", u, rules, u, credit, by)
    if levy:  # N113
        log.levies.append((credit, u.faction, levy))
    _give_way(rules, board, log, u)
    return True


def _cheer(rules: Rules, board: Board, log: Log, u: Fighter, by: str, credit: str) -> None:
    """A unit credited with defeating ``u`` whose talent cheers (N156 Morale) raises its faction's morale
    die, to 6 at most (before ``u`` is logged as defeated, so that a unit that fell earlier is told apart)."""
    cheerer = board.units.get(by)
    fallen = any(d.chip == by for d in log.defeated)
    if (cheerer is None or fallen or credit != cheerer.faction or not credit or credit not in board.morale
            or not talents.says("cheers", cheerer, rules, cheerer, u)):
        return
    if board.morale[credit] < 6:
        board.morale[credit] += 1
        log.morale[credit] = log.morale.get(credit, 0) + 1


def _levy(rules: Rules, board: Board, log: Log, victim: str, by: str, credit: str) -> None:
    """A unit or spire whose talent levies (N112 Source) that defeated a chip of ``victim``, an opposing
    faction, and had not fallen earlier in the attack, robs it of that much."""
    thief = board.units.get(by) or board.spires.get(by)
    fallen = any(d.chip == by for d in log.defeated)
    levy = talents.total("levies", thief) if thief is not None else 0
    if levy and not fallen and victim and credit and opposing(rules.position, credit, victim):
        log.levies.append((victim, credit, levy))


def _rob(rules: Rules, board: Board, log: Log) -> None:
    """N112, N113: once the other losses and gains are done, each robbed faction loses what its
    thieves claim (in the order of their names), no more than it has; a non-AI thief gains it."""
    owed: dict[tuple[str, str], int] = {}
    for victim, thief, amount in log.levies:
        owed[(victim, thief)] = owed.get((victim, thief), 0) + amount
    kept = dict(board.source)
    haul: dict[str, int] = {}
    for victim in sorted({v for v, _ in owed}):
        left = kept[victim]
        for thief in sorted(t for v, t in owed if v == victim):
            took = min(owed[(victim, thief)], left)
            left -= took
            board.source[victim] -= took
            if not rules.ai(thief):
                haul[thief] = haul.get(thief, 0) + took
    for thief, took in sorted(haul.items()):
        capacity = rules.position.factions[thief].source_capacity
        board.source[thief] = min(capacity, board.source[thief] + took)
        gained = min(capacity, kept[thief] + took) - kept[thief]
        if gained:
            log.gains.append(Gain(thief, source=gained))
    log.levies.clear()


def _give_way(rules: Rules, board: Board, log: Log, u: Fighter) -> None:
    """A defeated unit's chip leaves: the next of its group becomes active, or the unit leaves play."""
    uid = u.id
    if u.has("Invigorate") and u.faction and not rules.ai(u.faction):  # N118
        log.invigorators.append((uid, u.faction))
    if u.group:  # Deployment: the next chip becomes active; upgrades went with the defeated chip
        nxt = u.group[0]
        fresh = rules.readings["reveal-retaliation"] == "fresh"
        board.units[uid] = replace(
            u, chip=nxt.chip, stats=nxt.stats, promoted_stats=None, promoted=False, promoted_now=False,
            talents=nxt.talents,
            upgrades=(), group=u.group[1:], reward=nxt.reward, merc=nxt.merc, health=nxt.stats.health,
            retaliated=u.retaliated and not fresh, revealed=True,
        )
        log.revealed.append(Reveal(uid, nxt.chip, nxt.stats.health))
        if u.has("Invigorate") and u.faction and rules.ai(u.faction):  # N97
            log.invigorated.append(uid)
    else:
        del board.units[uid]
        if u.in_gate:
            g = board.gates[u.faction]
            board.gates[u.faction] = replace(g, stack=tuple(s for s in g.stack if s != uid))
        if not board.held:
            _snare(rules.position, board)


def _hurt_spire(
    rules: Rules, board: Board, log: Log, sid: str, amount: int, by: str, credit: str, rewarded: bool = True,
    how: str = ATTACK,
) -> bool:
    """Attacking: one upgrade from the bottom (a fortification needs 2); spire-defeat reading."""
    s = board.spires[sid]
    removed: str | None = None
    defeated = False
    if amount >= 1:
        if not s.upgrades:
            defeated = True
        elif s.upgrades[0] != "fortification" or amount >= 2:
            removed = s.upgrades[0]
            defeated = len(s.upgrades) == 1 and rules.readings["spire-defeat"] == "last-upgrade"
    log.damage.append(Damage(sid, amount, by, how, upgrade_removed=removed))
    board.spires[sid] = replace(s.without({0} if removed else set()), defeated=defeated)
    if defeated:
        log.defeated.append(Defeat(sid, "", credit, "discard" if s.merc else "barracks"))  # N2
        if rewarded:
            _gain(rules, board, log, credit, s.reward)
        _levy(rules, board, log, s.faction, by, credit)  # N112
    return defeated


def _hurt_gate(rules: Rules, board: Board, log: Log, faction: str, amount: int, by: str, credit: str,
               how: str = ATTACK) -> bool:
    g = board.gates[faction]
    after = max(0, g.health - amount)
    log.damage.append(Damage(gate_node(faction), amount, by, how, g.health, after))
    board.gates[faction] = replace(g, health=after)
    if after > 0:
        return False
    if _last_gate_standing(board):  # Fortress Gate Pillaging: only "when ... the game does not end"
        board.ended = True
        log.defeated.append(Defeat(gate_node(faction), "", credit, "fallen"))
    elif _no_spoils(rules):
        log.defeated.append(Defeat(gate_node(faction), "", credit, "fallen"))
    else:
        log.defeated.append(Defeat(gate_node(faction), "", credit, "pillaged"))
        _pillage(rules, board, log, credit, faction)
    return True


def _hurt_waygate(board: Board, log: Log, chip: str, amount: int, by: str, credit: str, how: str = ATTACK) -> bool:
    """N84: its own health, down to 0; its last gone, it is destroyed, and stays."""
    at, health = board.waygates[chip]
    after = max(0, health - amount)
    log.damage.append(Damage(chip, amount, by, how, health, after))
    board.waygates[chip] = (at, after)
    if after > 0:
        return False
    log.defeated.append(Defeat(chip, "", credit, "destroyed"))
    return True


def _assistants(rules: Rules, start: Board, b: Board, log: Log, moved: dict[str, str]) -> list[str]:
    """N178: the units Assist levels up once the exchange is dealt, by id."""
    found: set[str] = set()
    for d in log.defeated:
        if d.chip in start.units:
            hits = [e for e in log.damage if e.chip == d.chip and e.health_after == 0 and not e.gained]
        elif d.chip in start.spires:
            hits = [e for e in log.damage if e.chip == d.chip]
        else:
            continue  # a gate or a waygate
        if not hits or hits[-1].by not in start.units:
            continue  # defeated with no hit (Entropy), or by no unit
        a = start.units[hits[-1].by]
        if d.chip in start.units:
            if not _hostile(rules, a, start.units[d.chip]):
                continue
        elif not opposing(rules.position, start.spires[d.chip].faction, a.faction):
            continue
        if not a.faction:
            continue
        near = set(rules.position.neighbours(moved.get(a.id, a.node)))
        for h in start.units.values():
            if (h.id != a.id and h.has("Assist") and h.faction == a.faction
                    and moved.get(h.id, h.node) in near and h.id in b.units
                    and not any(e.chip == h.id for e in log.defeated)):
                found.add(h.id)
    return sorted(found)


def _entropy(rules: Rules, board: Board, log: Log) -> None:
    """N177: each unit an attack's hit left at exactly 1, no later hit on it, defeats itself, credited to no
    one, then deals 2 to every unit beside it but the narora's."""
    firing = sorted(uid for uid, later in log.entropic.items() if not later and uid in board.units)
    fallen = {d.chip for d in log.defeated}
    reached: dict[str, Fighter] = {}
    for uid in firing:
        f = board.units[uid]
        near = set(rules.position.neighbours(f.node))
        for t in board.units.values():
            if (t.node in near and not t.in_gate and not t.campfire and t.faction != "narora"
                    and t.id not in fallen and t.id not in firing):
                reached.setdefault(t.id, f)
    board.held = True  # N339: the self-defeats and their blasts land together
    for uid in firing:
        f = board.units[uid]
        log.defeated.append(Defeat(uid, f.chip, "", _goes_to(rules, board, log, f, "")))
        _assimilate(rules, board, log, f, "")  # as a Self Destruct unit's defeat (N105)
        _give_way(rules, board, log, f)
    for c, f in sorted(reached.items()):
        if c in board.units:
            hurt(rules, board, log, c, 2, f.id, BLAST, f.faction, _hostile(rules, f, board.units[c]))
    board.held = False
    _snare(rules.position, board)
    log.entropic.clear()


def _detonate(rules: Rules, board: Board, log: Log, busy: Iterable[str] = ()) -> None:
    """N147: the blasts of the Detonate chips that fell in the exchange, once the rest of it is dealt;
    ``busy``: spires the exchange acted on otherwise (its target), besides those it damaged."""
    blasts, log.blasts = sorted(log.blasts, key=lambda f: f.id), []
    fallen = {d.chip for d in log.defeated}
    busy = {*busy, *(d.chip for d in log.damage)}
    reached: dict[str, Fighter] = {}
    for f in blasts:
        near = set(rules.position.neighbours(f.node))
        chips = [t.id for t in board.units.values() if t.node in near and not t.in_gate and not t.campfire
                 and t.id != f.id and t.id not in fallen]
        chips += [s.id for s in board.spires.values() if s.at in near and not s.defeated and s.id not in busy]
        chips += [gate_node(g) for g in board.gates if gate_node(g) in near]
        chips += [w for w, (at, _) in board.waygates.items() if at in near]
        for c in chips:
            reached.setdefault(c, f)
    board.held = True  # N339: a blast's hits land together
    for c, f in sorted(reached.items()):
        if c in board.units:
            hurt(rules, board, log, c, 2, f.id, BLAST, f.faction, _hostile(rules, f, board.units[c]))
        elif c in board.spires:
            rewarded = bool(f.faction) and opposing(rules.position, board.spires[c].faction, f.faction)
            if not _hurt_spire(rules, board, log, c, 2, f.id, f.faction, rewarded, BLAST):
                _hurt_spire(rules, board, log, c, 1, f.id, f.faction, rewarded, BLAST)
        elif c in board.waygates:
            if board.waygates[c][1] > 0:
                _hurt_waygate(board, log, c, 2, f.id, f.faction, BLAST)
            else:
                log.damage.append(Damage(c, 2, f.id, BLAST, 0, 0))
        elif board.gates[c[5:]].health > 0:
            _hurt_gate(rules, board, log, c[5:], 2, f.id, f.faction, BLAST)
        else:
            log.damage.append(Damage(c, 2, f.id, BLAST, 0, 0))
    board.held = False
    _snare(rules.position, board)
    log.blasts.clear()  # N147: one blast deep


def _no_spoils(rules: Rules) -> bool:
    """Harbinger chapter 7: "No Source is gained from defeating opposing fortress gates" (N35: nor
    taken)."""
    scenario = rules.position.scenario
    return scenario is not None and scenario.chapter == 7


def _last_gate_standing(board: Board) -> bool:
    """At most one fortress gate still has health."""
    return sum(1 for g in board.gates.values() if g.health >= 1) <= 1


def _game_over(board: Board) -> bool:
    """The game ended during the step: a gate fell, leaving at most one with health."""
    return board.ended


def level_options(rules: Rules, board: Board, hero: Fighter) -> tuple[str, ...]:
    """Leveling Up Heroes; the AI always takes an attack upgrade (N7). N41: Harbinger chapter 2, an
    heirs hero below its health stat recovers 1 health instead, or (a player's) declines."""
    scenario = rules.position.scenario
    if scenario is not None and scenario.chapter == 2 and hero.faction == HEIRS and hero.health < hero.side.health:
        return ("recover",) if rules.ai(hero.faction) else ("none", "recover")
    if rules.ai(hero.faction):
        return ("attack",)
    if hero.kind is not Kind.HERO:  # N364: no capacity, unbounded or 0 by the reading
        room = rules.readings["assist-minion"] == "upgrade"
    elif hero.capacity is None:
        return ("not-adjudicated",)
    else:
        room = len(hero.upgrades) < hero.capacity + talents.total("capacity", hero)  # N48
    if room:
        extra = ("range",) if hero.side.range >= 2 and not _unranged(rules, hero, board) else ()  # N69
        return tuple(sorted(("attack", "fortification", "none", *extra)))
    if hero.promoted:
        return ("none",)
    return ("none", "promote") if hero.promoted_stats is not None else ("not-adjudicated",)  # N8


def _level_up(rules: Rules, board: Board, log: Log, uid: str, chooser: Chooser) -> None:
    hero = board.units[uid]
    options = level_options(rules, board, hero)
    picked = None if options == ("not-adjudicated",) else chooser.pick(options)
    log.level_ups.append(LevelUp(uid, options, None if chooser.script is None else picked))
    if picked in ("attack", "fortification", "range"):
        board.units[uid] = replace(hero, upgrades=hero.upgrades + (picked,))
    elif picked == "recover":
        board.units[uid] = replace(hero, health=hero.health + 1)
    elif picked == "promote":  # FAQ-26: gains the difference of the health stats, not full health
        gain = max(0, hero.promoted_stats.health - hero.stats.health) if hero.promoted_stats else 0
        board.units[uid] = replace(
            hero, upgrades=(), promoted=True, promoted_now=True, health=hero.health + gain
        )


def rally_choices(rules: Rules, board: Board, uid: str, target: str) -> list[frozenset[tuple[str, str]]]:
    """N95, N115: whether a player's Rally promotes, or a player's Dispirit demotes, is a choice of each such
    unit among the attacker and its target (the units whose hits may defeat in the exchange): every set of
    (unit, talent) taken."""
    units = [board.units[c] for c in (uid, target) if c in board.units]
    open_ = [(u.id, t) for u in units for t in ("Rally", "Dispirit") if u.has(t) and u.faction and not rules.ai(u.faction)]
    return [frozenset(c for i, c in enumerate(open_) if k >> i & 1) for k in range(2 ** len(open_))]


def invigorate_choices(rules: Rules, board: Board, chips: Iterable[str]) -> list[frozenset[tuple[str, str]]]:
    """N118: every set of picks (unit, minion) of the player's Invigorate units among ``chips`` (those a hit
    may defeat), each none or one of its faction's minions on ``board`` (itself too: its revealed chip);
    a pick that is no option once the exchange is dealt is none (``_invigorated``)."""
    units = sorted({c for c in chips if c in board.units and board.units[c].has("Invigorate")
                    and board.units[c].faction and not rules.ai(board.units[c].faction)})
    options = [[None, *sorted(m.id for m in board.units.values() if m.kind is Kind.MINION
                              and m.faction == board.units[u].faction)] for u in units]
    return [frozenset((u, m) for u, m in zip(units, picks) if m) for picks in product(*options)]


def _invigorated(b: Board, log: Log, invig: frozenset[tuple[str, str]]) -> set[str]:
    """N97, N118: the chips Invigorate promotes once the exchange is dealt: the revealed ones of the AI's,
    and the minions the player's picks name that are options on ``b``, before N95's promotions."""
    fell = dict(log.invigorators)
    picked = {m for u, m in invig if u in fell and m in b.units and b.units[m].kind is Kind.MINION
              and b.units[m].faction == fell[u] and not b.units[m].promoted}
    return {uid for uid in log.invigorated if uid in b.units} | picked


def _promote(rules: Rules, b: Board, m: str) -> None:
    """Leveling Up: its upgrades go, its health grows by its promoted health stat less its basic one
    (none where no promoted side is given)."""
    u = b.units[m]
    gain = max(0, u.promoted_stats.health - u.stats.health) if u.promoted_stats else 0
    b.units[m] = replace(u, upgrades=(), promoted=True, health=u.health + gain,
                         promoted_now=not rules.position.units[m].promoted or u.revealed)  # N118: a revealed chip was basic


def _invigorations(rules: Rules, b: Board, log: Log, shot: str = "") -> list[tuple[Choices, Board]]:
    """N97, N118 where no attack's exchange is (Spires Fire, the turn's edges): each set of picks the
    fallen player's Invigorate units may make, with its choices and the board it leaves; the choices list
    N119's absorptions with them, by unit: (unit, talent), (unit, what it took); a ``shot``'s (N148):
    (unit, talent, the spire), (unit, what it took)."""
    found = []
    for invig in _fallen_picks(b, log):
        after = b.copy()
        for m in sorted(_invigorated(after, log, invig)):
            if not after.units[m].promoted:
                _promote(rules, after, m)
        picks = sorted([(u, "Invigorate", m) for u, m in invig]
                       + [(m, "Absorb", t) for m, t, shown in log.absorbed if shown])
        found.append((tuple(c for u, w, x in picks for c in (*_against(shot, ((u, w),)), (u, x))), after))
    return found


def _against(shot: str, used: Choices) -> Choices:
    """N148: the talents used by their owners' choice against a spire's ``shot`` (none: elsewhere), each
    naming it: (unit, talent, spire)."""
    return tuple((*c, shot) for c in used) if shot else used


def _fallen_picks(b: Board, log: Log) -> list[frozenset[tuple[str, str]]]:
    """N118: every set of exact picks of the fallen player's Invigorate units on ``b``."""
    fell = dict(log.invigorators)
    units = sorted(fell)
    options = [[None, *sorted(m.id for m in b.units.values() if m.kind is Kind.MINION and m.faction == fell[u]
                              and not m.promoted)] for u in units]
    return [frozenset((u, m) for u, m in zip(units, picks) if m) for picks in product(*options)]


def _victors(board: Board, log: Log) -> list[str]:
    """N95: the units credited with a unit's or spire's defeat in this exchange (the chip of the hit
    that defeated it), each once, leaving out a unit whose own chip fell before that defeat."""
    victors: list[str] = []
    for i, d in enumerate(log.defeated):
        if d.chip in board.units:  # the n-th defeat of a unit's chips is its n-th hit to 0
            zeroes = [e for e in log.damage if e.chip == d.chip and e.health_after == 0 and not e.gained]
            n = sum(1 for e in log.defeated[:i] if e.chip == d.chip)
            if n >= len(zeroes):  # N177: a chip that defeated itself, no hit
                continue
            hit = zeroes[n]
        elif d.chip in board.spires:
            hit = [e for e in log.damage if e.chip == d.chip][-1]
        else:
            continue  # a gate or a waygate: no unit or spire
        fell_first = any(e.chip == hit.by for e in log.defeated[:i])
        if hit.by in board.units and not fell_first and hit.by not in victors:
            victors.append(hit.by)
    return victors


def _rally_and_dispirit(
    rules: Rules, start: Board, b: Board, log: Log, moved: dict[str, str], rally: frozenset[tuple[str, str]] | None,
    invig: frozenset[tuple[str, str]] = frozenset(),
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[tuple[str, str, str], ...]]:
    """N95 Rally, N96 Dispirit: once the exchange and its level-ups are dealt, the minions within 2 hexes
    of a unit that defeated a unit or spire are promoted (heirs: Rally) or demoted (opposing: Dispirit), a
    player's unit's where ``rally`` takes it (N115; None: a listing, N140); N97, N118, the chips Invigorate
    promotes (``invig``: the player's picks); those that turned, each way, and what a listing's untaken
    choices would turn, each with how and the talent (N140)."""
    promote = _invigorated(b, log, invig)
    offer: set[tuple[str, str, str]] = set()
    if rally is None:  # N140: a listing takes no pick of a fallen player's Invigorate unit
        offer |= {(m, "promote", "Invigorate") for picks in _fallen_picks(b, log) for _, m in picks}
    demote: set[str] = set()
    for v in _victors(start, log):
        a = start.units[v]
        node = moved.get(v, a.node)
        near = [m for m in b.units.values() if m.kind is Kind.MINION and not m.in_gate
                and rules.within(node, m.node, 2)]
        if a.has("Rally") and a.faction:
            heirs = {m.id for m in near if m.faction == "heirs"}
            if rules.ai(a.faction) or (v, "Rally") in (rally or ()):
                promote |= heirs
            elif rally is None:
                offer |= {(m, "promote", "Rally") for m in heirs}
        if a.has("Dispirit") and a.faction:  # N96, N115
            foes = {m.id for m in near if _hostile(rules, a, m) and not m.has("Diurnal")}
            if rules.ai(a.faction) or (v, "Dispirit") in (rally or ()):
                demote |= foes
            elif rally is None:
                offer |= {(m, "demote", "Dispirit") for m in foes}
    raised: list[str] = []
    lowered: list[str] = []
    for m in sorted(promote | demote):
        u = b.units[m]
        if m in promote and not u.promoted:
            _promote(rules, b, m)
            raised.append(m)
        elif m in demote and u.promoted:
            top = u.stats.health if u.promoted_stats else u.health
            b.units[m] = replace(u, promoted=False, promoted_now=False, health=min(u.health, top))
            lowered.append(m)
    offered = {(m, how, talent) for m, how, talent in offer if m not in raised and m not in lowered
               and b.units[m].promoted == (how == "demote")}  # N140
    return tuple(raised), tuple(lowered), tuple(sorted(offered))


KEEL = "keel"  # N205


def _keel(rules: Rules, start: Board, b: Board, log: Log, moved: Iterable[str], raised: Iterable[str],
          colony: frozenset[str] = frozenset()) -> tuple[list[str], list[str]]:
    """N205: the keel minions that demote once the exchange from ``start`` to ``b`` is dealt, and
    those that return to their fortress instead (Colony: the AI's below full health, the player's in
    ``colony``, N334), each list sorted; ``b`` changed so."""
    group = rules.position.hex_group()

    def spired(board: Board, g: int) -> bool:
        return any(t.faction == KEEL and not t.defeated and group.get(t.at) == g for t in board.spires.values())

    demoted, home = [], []
    for uid in sorted(set(log.dodged)):  # N362: a dodge would flip it to its basic side
        m, was = b.units.get(uid), start.units.get(uid)
        if m is None or was is None or not was.promoted or not m.has("Colony"):
            continue
        ai_home = rules.ai(m.faction) and m.promoted_stats is not None and m.health < m.promoted_stats.health
        if ai_home or (not rules.ai(m.faction) and uid in colony):
            del b.units[uid]
            b.returned = b.returned | {uid}
            home.append(uid)
    for m in sorted(b.units.values(), key=lambda f: f.id):
        g = group.get(m.node)
        was = start.units.get(m.id)
        if (m.kind is not Kind.MINION or m.faction != KEEL or m.in_gate or g is None or was is None
                or m.id in moved or m.id in raised or not m.promoted or m.has("Diurnal")
                or not spired(start, g) or spired(b, g)):
            continue
        ai_home = rules.ai(m.faction) and m.promoted_stats is not None and m.health < m.promoted_stats.health
        player_home = not rules.ai(m.faction) and m.id in colony  # N334
        if m.has("Colony") and was.promoted and m.id not in log.dodged and (ai_home or player_home):
            del b.units[m.id]
            b.returned = b.returned | {m.id}
            home.append(m.id)
            continue
        top = m.stats.health if m.promoted_stats else m.health
        b.units[m.id] = replace(m, promoted=False, promoted_now=False, health=min(m.health, top))
        demoted.append(m.id)
    return demoted, home


def _pollinate(rules: Rules, start: Board, b: Board, log: Log) -> tuple[tuple[str, str], ...]:
    """N207: the upgrades AI Pollinate units defeated in the exchange from ``start`` to ``b`` add to the
    bottom of the keel spire still standing (one at most on the boards drawn); ``b`` changed so."""
    fallen = sorted({d.chip for d in log.defeated if d.chip in start.units and start.units[d.chip].has("Pollinate")
                     and rules.ai(start.units[d.chip].faction)})
    spires = [t for t in b.spires.values() if t.faction == KEEL and not t.defeated]
    if not fallen or not spires:
        return ()
    assert len(spires) == 1, "N207: ties are not drawn"
    kind = rules.readings["orange-cross-shield"]
    (spire,) = spires
    b.spires[spire.id] = replace(spire, upgrades=(kind,) * len(fallen) + spire.upgrades,
                                 held=(-1,) * len(fallen) + spire.held)
    return tuple(sorted((spire.id, kind) for _ in fallen))


def _can_retaliate(rules: Rules, board: Board, uid: str, attacker: str) -> bool:
    """Retaliation (FAQ-13, FAQ-16): once a turn, when able and the attacker is within range."""
    r = board.units.get(uid)
    a = board.units.get(attacker)
    if r is None or a is None or r.retaliated or r.campfire:
        return False
    return (r.attack >= 1 or talents.says("strikes", r) or r.starred) and rules.within(r.node, a.node, _range(rules, board, r))


def _retaliation(board: Board, r: Fighter, attacker: str, roll: int | None = None) -> int:
    """What r's retaliation deals the attacker before the attacker's own hold (N25), Poison's half (N58)
    included; a Relentless one, the total ``roll`` (N78)."""
    a = board.units[attacker]
    base = roll if _rolls_die(r) and roll is not None else _stat(board, r, attacker)
    amount = max(0, base - talents.total("rreduce", a))
    cap = talents.least("rcap", a)
    amount = amount if cap is None else min(amount, cap)
    amount = _poisoned(board, talents.says("halves", r), attacker, amount, _sure(board, r, attacker))  # N58, N164; before rspare
    return 0 if talents.says("rspare", a) and amount >= a.health + a.forts else amount


def _ripostes(rules: Rules, board: Board, uid: str, attacker: str, chosen: bool, roll: int | None = None) -> bool:
    """Whether unit ``uid``, about to retaliate against ``attacker``, does not, by a talent (forgo: N47
    Riposte, ``chosen`` a player's choice)."""
    r = board.units[uid]
    return talents.says("forgo", r, rules, board, r, attacker, chosen, roll)


def _weighed(rules: Rules, a: Fighter) -> int:
    """N86: the total an AI Riposte weighs its Relentless retaliation at against attacker ``a``: under
    ai-spire-odds likely, the largest that at least half the rolls reach (P(total >= v) summed from the
    odds of each total below v), no more than what takes all ``a`` has; else that much."""
    top = a.health + a.forts + talents.total("rreduce", a)
    if rules.readings["ai-spire-odds"] != "likely":
        return top
    reached = 0
    while 1 - sum((_relentless_odds(v, reached + 2) for v in range(reached + 1)), Fraction(0)) >= Fraction(1, 2):
        reached += 1
    return min(reached, top)


def _recover(board: Board, log: Log, uid: str, amount: int) -> None:
    """A unit recovers ``amount``, never above its health stat, at most 1 with Bio-Indefinite."""
    u = board.units[uid]
    cap = talents.least("recover_cap", u)
    amount = amount if cap is None else min(amount, cap)
    after = max(u.health, min(u.health + amount, u.side.health))
    if after > u.health:
        log.damage.append(Damage(uid, after - u.health, uid, RECOVERY, u.health, after, 0))
        board.units[uid] = replace(u, health=after)


def _retaliate(rules: Rules, board: Board, log: Log, uid: str, attacker: str, chooser: Chooser) -> bool:
    """A retaliation, no Armored, at its stat against the attacker (N29); 1 less on a Prepared
    attacker, then at most 2 on a Tough one, and 0 on a Dexterity one it would defeat (N25); returns
    whether the attacker's chip fell (then a hero levels up, once the exchange is dealt: N147)."""
    r = replace(board.units[uid], retaliated=True)
    board.units[uid] = r
    amount = _retaliation(board, r, attacker, log.roll)
    log.rolled |= _rolls_die(r) and log.roll is not None  # N78
    a = board.units[attacker]
    if _swindles(r, a):  # N65
        _steal(rules, board, log, r, attacker, amount, RETALIATION)
        amount = 0
    fell = hurt(rules, board, log, attacker, amount, uid, RETALIATION, r.faction)
    if fell and r.kind is Kind.HERO:
        log.levelling.append(uid)
    return fell


def _counters_first(rules: Rules, board: Board, uid: str, target: str) -> bool:
    """N55: the attacked unit (not a redirect from its gate) with Quick Counter, beside its attacker,
    that would retaliate, does so before the attack's damage."""
    t = board.units.get(target)
    return (t is not None and talents.says("counter_first", t, rules, t, board.units[uid])
            and _can_retaliate(rules, board, target, uid))


def _hostile(rules: Rules, a: Fighter, t: Fighter) -> bool:
    """``t`` opposes ``a``: a landmark minion unless friendly to its faction (N36)."""
    if t.free:
        return t.friend != a.faction
    return opposing(rules.position, t.faction, a.faction)


def swash(rules: Rules, board: Board, uid: str) -> int:
    """What the unit's talents may add to its attack (may_boost: N54 Swashbuckler)."""
    a = board.units[uid]
    return talents.total("may_boost", a, rules, board, a)


def press_choices(rules: Rules, board: Board, uid: str, target: str) -> list[bool]:
    """N54: whether the attack takes Swashbuckler's extra damage."""
    extra = swash(rules, board, uid)
    if not extra:
        return [False]
    a = board.units[uid]
    if not rules.ai(a.faction):
        return [False, True]
    if heals(rules, uid, target) or _swindles(a, board.units.get(target)):
        return [False]
    plain = _effect(rules, board, target, _hit(rules, board, a, target), a)[0]
    return [not plain and _effect(rules, board, target, _hit(rules, board, a, target, extra=extra), a)[0]]


def _dodges(u: Fighter) -> bool:
    return talents.says("dodge", u)


def _rolls_die(r: Fighter) -> bool:
    return talents.says("rdie", r)


def _prestrip(a: Fighter) -> int:
    return talents.total("prestrip", a)


def _unstacks(rules: Rules, board: Board, a: Fighter, sid: str, ups: tuple[str, ...]) -> frozenset[int] | None:
    """The places among ``ups`` (spire ``sid`` as prestrip left it) that ``a``'s talents remove instead
    of its damage (an AI's Ram, N62; an AI's Weak Point, N64), or None when it deals its damage."""
    given = [p for p in talents.results("unstack", a, rules, board, a, sid, ups) if p is not None]
    return frozenset().union(*given) if given else None


def _assaulted(board: Board, a: Fighter, sid: str) -> Tower:
    """N61: the spire as prestrip (Assault) leaves it, before the damage."""
    s = board.spires[sid]
    return s.without(set(range(min(_prestrip(a), len(s.upgrades)))))


def ram_choices(rules: Rules, board: Board, uid: str, target: str) -> list[int | None]:
    """N62: a player's unit attacking a spire deals its damage (None) or removes an upgrade its talents
    offer instead (may_unstack), named by its index in the position's list."""
    a = board.units[uid]
    if target not in board.spires:
        return [None]
    left = _assaulted(board, a, target)
    return [None] + sorted({i for offered in talents.results("may_unstack", a, rules, a, left) for i in offered})


def _strip_spire(
    rules: Rules, board: Board, a: Fighter, sid: str, ram: int | None
) -> tuple[tuple[tuple[str, int, str], ...], bool]:
    """N61, N62, N64: Assault's removal, then Ram's (``ram``, a player's choice, or the AI's) and Weak
    Point's in place of the damage; what they removed (spire, index in the position's list, upgrade),
    and whether the damage is replaced."""
    s = board.spires[sid]
    gone = [(sid, s.held[i], s.upgrades[i]) for i in range(min(_prestrip(a), len(s.upgrades)))]
    left = _assaulted(board, a, sid)
    given = _unstacks(rules, board, a, sid, left.upgrades)
    places = set(given or ()) | (set() if ram is None else {left.held.index(ram)})
    gone += [(sid, left.held[i], left.upgrades[i]) for i in sorted(places)]
    board.spires[sid] = left.without(places)
    return tuple(gone), ram is not None or given is not None


def splash_area(rules: Rules, board: Board, uid: str, target: str) -> list[str]:
    """N42: the units a Splash attacker would splash, beside its target."""
    if not talents.says("splashes", board.units[uid]):
        return []
    # N57: after an Eager swap the target stands where the attacker stood, and the attacker where it stood.
    swapped = _swaps(rules, board, uid, target)
    near = rules.position.neighbours(board.units[uid].node if swapped else _chip_node(board, target))
    return sorted(t.id for t in board.units.values()
                  if t.node in near and t.id != uid and not (swapped and t.id == target) and not t.in_gate
                  and not t.campfire)


def splash_choices(rules: Rules, board: Board, uid: str, target: str) -> list[bool]:
    """N42: whether the attack splashes: a player's may or may not; the AI's does on a foe it damages."""
    area = splash_area(rules, board, uid, target)
    if not area:
        return [False]
    a = board.units[uid]
    if rules.ai(a.faction):
        return [any(_hostile(rules, a, board.units[c]) and not heals(rules, uid, c) for c in area)]
    return [False, True]


def _leech(board: Board, log: Log, uid: str) -> None:
    """N46 Leech: once the exchange is over, the unit (still standing, its chip unchanged) recovers
    what its attack or its retaliation dealt (a heal is none), never above its health stat, at most
    1 with Bio-Indefinite."""
    dealt = sum(d.amount for d in log.damage if d.by == uid and d.how in (ATTACK, RETALIATION) and not d.gained)
    if uid in board.units and dealt:
        _recover(board, log, uid, dealt)


def attack(
    rules: Rules, board: Board, uid: str, target: str, redirect: str | None, chooser: Chooser, splash: bool = False,
    riposte: bool = False, press: bool = False, cancel: bool = False, ram: int | None = None,
    armour: frozenset[tuple[str, str]] = frozenset(), roll: tuple[int, int] | None = None, unload: str = "",
    rally: frozenset[tuple[str, str]] | None = frozenset(), gang: frozenset[str] = frozenset(),
    invig: frozenset[tuple[str, str]] = frozenset(), absorb: frozenset[tuple[str, str]] = frozenset(),
    power: frozenset[tuple[str, str]] = frozenset(), faces: tuple[tuple[str, str, int], ...] = (),
    colony: frozenset[str] = frozenset(),
) -> tuple[AttackOutcome, Board]:
    """One attack, in order: damage (and a splash, N42), defeat, level-up, retaliation, gate retaliation;
    ``riposte``: a player's Riposte unit recovers instead of retaliating (N47); ``press``: Swashbuckler's
    extra damage is taken (N54); ``cancel``: a Sourcefield unit's owner pays, where it can (N63); ``ram``:
    a player's Ram removes that upgrade instead of the damage (N62); ``armour``: the units whose owner
    discards Hidden Armor against their hit of that kind (N72); ``roll``: the total a Relentless
    retaliation rolls and the top total, which stands for every total from it on (N78); ``unload``: the
    upgrade a player's Pistoleer unit gives up, where it has one (N73); ``rally``: the player's Rally and
    Dispirit units, with the talent, that act when they defeat (N95, N115; None: a listing, which takes
    none, N140); ``gang``: the player's Press Gang units whose owner spends 2 Source for it if they fall
    (N116); ``invig``: the player's Invigorate units' picks, (unit, minion), if they fall (N118: a listing
    takes none); ``absorb``: the spire each graft minion goes underneath if it falls (N119); ``power``: the
    player's Powerhouse spires' picks, (spire, worm), if they fall (N263: a listing takes none); ``faces``:
    what each unit the swap moves beside an Explosion chip rolls, (unit, chip, face) (N274); ``colony``:
    the player's Colony minions that leave play rather than demote, where they would demote (N334)."""
    b = board.copy()
    log = Log(before=dict(b.units), armour=armour, roll=roll[0] if roll else None, gang=gang, absorb=absorb)
    purse = dict(b.source)  # N65: what each faction has as the attack begins
    log.purse = purse
    a = replace(b.units[uid], attacked=True)
    b.units[uid] = a
    hit = redirect or target  # the chip that takes the damage
    attacked = b.units.get(target)
    # Spike (N34): the attacked unit's or spire's, as the attack comes, even if the attack defeats it.
    hit_back = b.units.get(target) or b.spires.get(target)
    spiked = talents.total("spikes", hit_back) if hit_back is not None else 0
    spiker = b.units[target].faction if target in b.units else b.spires[target].faction if target in b.spires else ""
    extra = swash(rules, board, uid) if press else 0
    # What the attack deals a unit is fixed as it is declared, before Eager's swap (N57: Cover).
    dealt = _hit(rules, b, a, hit, target, extra) if hit in b.units else 0
    pistol = _far(rules, b, a, target)  # N73: as declared, before any swap
    moved = _eager(rules, b, uid, target)
    swept = _swap_harm(rules, board, b, log, moved, faces)  # N132: who fell to it, by whom
    fell, gone = uid in swept, target in swept
    if moved and talents.says("halves", a) and not gone and hit in b.units:  # N132: the half of what it has now
        halving = talents.names("halves", a)
        dealt = _poisoned(b, True, hit, _hit(rules, board, replace(a, talents=tuple(
            t for t in a.talents if t not in halving)), hit, target, extra), _sure(b, a, target or hit))
    forgone: tuple[str, ...] = ()
    first = not (fell or gone) and _counters_first(rules, b, uid, target)
    if first and _ripostes(rules, b, hit, uid, riposte, log.roll):
        forgone = (hit,)
    elif first:
        fell = _retaliate(rules, b, log, hit, uid, chooser)
    conned = hit == target and not gone and _swindles(a, b.units.get(hit))  # N65
    # N273: nothing to pay for where the swap's harm felled either chip
    cancelled = (hit,) if cancel and not (fell or gone) and not conned and _sourcefield(rules, b, hit, target, dealt) else ()
    if cancelled:  # N63: paid before anything is gained in this attack
        b.source[b.units[hit].faction] -= dealt
        purse[b.units[hit].faction] -= dealt
    gain = talents.total("attacked_gain", attacked, rules, attacked) if attacked is not None else 0
    if gain:  # N53
        _gain(rules, b, log, attacked.faction, Reward(source=gain))
    defeated = splash_defeats = False
    stripped: tuple[tuple[str, int, str], ...] = ()
    if fell or gone:
        pass  # N55: the attacker fell to the retaliation that came first, and deals nothing (N132 too)
    elif _is_gate(hit):
        defeated = _hurt_gate(rules, b, log, hit[5:], a.attack + extra, uid, a.faction)
    elif hit in b.waygates:
        defeated = _hurt_waygate(b, log, hit, a.attack + extra, uid, a.faction)
    elif hit in b.spires:
        stripped, instead = _strip_spire(rules, b, a, hit, ram)
        if not instead:
            defeated = _hurt_spire(rules, b, log, hit, _hit(rules, b, a, hit, extra=extra), uid, a.faction, not press)
    else:
        if conned:
            _steal(rules, b, log, a, hit, dealt, ATTACK)
        defeated = hurt(rules, b, log, hit, 0 if cancelled or conned else dealt, uid, ATTACK, a.faction, not press)
    b.held = True  # N339
    for c in splash_area(rules, board, uid, target) if splash and not fell else []:
        t = board.units[c]  # as the attack comes
        splash_defeats |= hurt(rules, b, log, c, 1, uid, SPLASH, a.faction, _hostile(rules, a, t) and not press)
    b.held = False
    _snare(rules.position, b)
    if (not first and not fell and not gone and not _is_gate(hit) and hit in b.units and not defeated
            and hit not in log.dodged and _can_retaliate(rules, b, hit, uid)):
        if hit in log.entropic:  # N177: it does not retaliate
            forgone = (hit,)
        elif _ripostes(rules, b, hit, uid, riposte, log.roll):
            forgone = (hit,)
        else:
            fell = _retaliate(rules, b, log, hit, uid, chooser)
    if forgone and not defeated and hit not in log.entropic:  # N47: it recovers what the attack dealt it, after the attack (N55 too)
        took = [d.amount for d in log.damage if d.chip == hit and d.how == ATTACK and not d.gained]
        _recover(b, log, hit, sum(took))
    gated = _is_gate(target) or target in b.waygates  # N84: a waygate strikes back as its gate
    gate_hits = gated and (redirect is None or rules.readings["gate-redirect"] == "both")
    if gate_hits and not fell:  # N3: nothing is dealt once the attacking chip has fallen
        owner = target[5:] if _is_gate(target) else UPRISING
        fell = hurt(rules, b, log, uid, 1, gate_node(owner), GATE_RETALIATION, owner)
    if spiked and not fell:
        fell = hurt(rules, b, log, uid, spiked, target, SPIKE, spiker)
        # A hero that defeats levels up, unless its chip fell to the attack its Spike answers (as N49).
        if fell and target in b.units and b.units[target].kind is Kind.HERO and not (defeated and hit == target):
            log.levelling.append(target)
    _entropy(rules, b, log)  # N177
    _detonate(rules, b, log, (hit,) if hit in board.spires else ())  # N147: before any level-up
    fell = fell or any(d.chip == uid for d in log.defeated)
    levelled: set[str] = set()  # N178: those that level up otherwise
    for hero in log.levelling:  # N147: a hero the blast felled levels up no more
        if hero in b.units:
            _level_up(rules, b, log, hero, chooser)
            levelled.add(hero)
    flipped, unloaded = _pistol(rules, b, uid, unload) if pistol and not fell else ((), ())
    if (defeated or splash_defeats) and a.kind is Kind.HERO and not fell and not press:  # Level-up: after the whole exchange
        _level_up(rules, b, log, uid, chooser)
        levelled.add(uid)
    for src in sorted(set(swept.values())):  # N132: a hero whose talent defeated a unit the swap moved
        if src in b.units and b.units[src].kind is Kind.HERO:
            _level_up(rules, b, log, src, chooser)
            levelled.add(src)
    for helper in _assistants(rules, board, b, log, dict(moved)):  # N178
        if helper not in levelled:
            _level_up(rules, b, log, helper, chooser)
    promoted, demoted, offered = _rally_and_dispirit(rules, board, b, log, dict(moved), rally, invig)
    raised, powered = _powerhouse(rules, b, log, None if rally is None else power)  # N263
    promoted, offered = tuple(sorted({*promoted, *raised})), tuple(sorted({*offered, *powered}))
    lowered, returned = _keel(rules, board, b, log, dict(moved), promoted, colony)  # N205, N334
    upgraded = _pollinate(rules, board, b, log)  # N207
    demoted = tuple(sorted({*demoted, *lowered}))
    leeches = [uid] if talents.says("leech", a) and not fell else []
    if hit in board.units and talents.says("leech", board.units[hit]):
        leeches.append(hit)
    for leech in leeches:
        _leech(b, log, leech)
    _settle(rules, b, log, purse)
    _rob(rules, b, log)  # N112, N113: after the attack's other losses and gains
    laid = _lay_fumes(b, log)  # N235
    over = _game_over(b)
    outcome = AttackOutcome(
        attacker=uid,
        target=target,
        redirected_to=redirect,
        damage=tuple(log.damage),
        defeated=tuple(log.defeated),
        revealed=tuple(log.revealed),
        gains=_merged(log.gains),
        level_ups=tuple(log.level_ups),
        wave_over=_wave_over(b) and not over and rules.minions,  # N167
        game_over=over,
        forgone=forgone,
        pressed=tuple(talents.names("may_boost", a, rules, board, a)) if press else (),
        moved=moved,
        cancelled=cancelled,
        stripped=tuple(sorted(stripped)),
        dodged=tuple(sorted(set(log.dodged))),
        shed=tuple(sorted(log.shed)),
        flipped=flipped,
        unloaded=unloaded,
        lost=tuple(sorted(log.lost)),
        promoted=promoted,
        demoted=demoted,
        paid_for=tuple(sorted(log.paid_for)),
        offered=offered,
        morale=tuple(sorted(log.morale.items())),  # N156
        returned=tuple(returned),  # N205
        upgraded=upgraded,  # N207
        laid=laid,  # N235
        discarded=tuple(sorted(b.exploded - board.exploded)),  # N274
        probability=_relentless_odds(*roll) if roll and log.rolled else None,  # N274: the faces' odds by the caller
    )
    return outcome, b


def _barracks_worms(rules: Rules, b: Board, faction: str) -> list[str]:
    """N263: the basic rotten worms minions waiting in ``faction``'s barracks, as the position gives them."""
    position = rules.position
    waiting = position.factions[faction].barracks or () if faction in position.factions else ()
    return sorted(uid for uid in waiting if uid not in b.units and uid not in b.raised
                  and position.units[uid].kind is Kind.MINION and not position.units[uid].promoted
                  and position.units[uid].chip.strip().casefold() == ROTTEN_WORMS)


def _powered(rules: Rules, b: Board, log: Log) -> list[str]:
    """N263: the player's spires with Powerhouse the attack defeated."""
    return sorted({d.chip for d in log.defeated if d.chip in b.spires and POWERHOUSE in b.spires[d.chip].talents
                   and not rules.ai(b.spires[d.chip].faction)})


def power_choices(rules: Rules, board: Board, chips: Iterable[str]) -> list[frozenset[tuple[str, str]]]:
    """N263: every set of picks (spire, worm) of the player's Powerhouse spires among ``chips`` (those a hit
    may defeat), each none or one worm of its faction's barracks (a pick of a spire that does not fall is
    none)."""
    spires = sorted({c for c in chips if c in board.spires and POWERHOUSE in board.spires[c].talents
                     and not rules.ai(board.spires[c].faction) and not board.spires[c].defeated})
    options = [[None, *_barracks_worms(rules, board, board.spires[sid].faction)] for sid in spires]
    return [frozenset((sid, w) for sid, w in zip(spires, picks) if w) for picks in product(*options)]


def colony_choices(rules: Rules, board: Board) -> list[frozenset[str]]:
    """N334: every set of the player's promoted keel minions with Colony on the map that would leave play
    rather than demote (a pick of one that does not demote is none)."""
    able = sorted(uid for uid, m in board.units.items() if m.faction == KEEL and m.kind is Kind.MINION
                  and m.has("Colony") and m.promoted and not m.in_gate and not rules.ai(m.faction))
    return [frozenset(c for c, on in zip(able, picks) if on) for picks in product((False, True), repeat=len(able))]


def _powerhouse(rules: Rules, b: Board, log: Log, power: frozenset[tuple[str, str]] | None
                ) -> tuple[tuple[str, ...], tuple[tuple[str, str, str], ...]]:
    """N263: the worms promoted in their barracks by the picks ``power`` of the spires that fell, and, for a
    listing (``power`` None), each one a spire that fell may promote."""
    fell = _powered(rules, b, log)
    if power is None:
        return (), tuple(sorted({(w, "promote", POWERHOUSE) for sid in fell
                                 for w in _barracks_worms(rules, b, b.spires[sid].faction)}))
    open_ = {sid: _barracks_worms(rules, b, b.spires[sid].faction) for sid in fell}
    raised = tuple(sorted({w for sid, w in power if w in open_.get(sid, ())}))
    b.raised = b.raised | set(raised)
    return raised, ()


def _lay_fumes(b: Board, log: Log) -> tuple[tuple[str, str, str], ...]:
    """N235: each AI unit with Toxic Fumes that fell in the attack lays a chip on the map hex it fell on, once
    the attack is dealt, unless a unit stands on that hex then (its group's next chip, a rider, a swap)."""
    laid = tuple(sorted((uid, node, TOXIC_FUMES) for uid, node in log.fumes
                        if uid not in b.units and all(f.node != node for f in b.units.values())))
    for _, node, _ in laid:
        b.fumes[node] = b.fumes.get(node, 0) + 1
    return laid


UNLOAD_ORDER = ("fortification", "range", "attack")  # N73: the AI's preference


def _pistol(rules: Rules, b: Board, uid: str, unload: str) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    """N73: the attacker flips to its other side, its health kept, and gives up one upgrade it still has:
    ``unload`` where it has one (a player's choice; any other stands for the first it has, the same
    outcome as that choice), the AI's by its order. Who flipped, and what it gave up."""
    u = b.units[uid]
    promoted = not u.promoted
    u = replace(u, promoted=promoted, promoted_now=promoted and (not rules.position.units[uid].promoted or u.revealed))
    have = [y for y in UNLOAD_ORDER if y in u.upgrades]
    if not have:
        b.units[uid] = u
        return (uid,), ()
    if rules.ai(u.faction):
        gone = have[0]
    else:
        gone = unload if unload in have else sorted(have)[0]
    upgrades = list(u.upgrades)
    upgrades.remove(gone)
    b.units[uid] = replace(u, upgrades=tuple(upgrades))
    return (uid,), ((uid, gone),)


def unload_choices(rules: Rules, board: Board, uid: str, target: str) -> list[str]:
    """N73: the upgrade a player's Pistoleer unit attacking 2 hexes away may give up, each a branch
    (one it lacks plays as another's); none to choose otherwise."""
    a = board.units[uid]
    if rules.ai(a.faction) or not _far(rules, board, a, target):
        return [""]
    return sorted(UNLOAD_ORDER)


def _relentless_odds(total: int, top: int, die: Die | None = None) -> Fraction:
    """N78: the chance that rolling until a blank or a 2 totals ``total`` (``top``: that or more). Before
    the stopping face, k faces of 1 among any number of 0s: C(n+k, k) orders of n 0s, summed over n,
    give p1^k / (1 - p0)^(k+1); then the stopping face s, its damage d, with its chance: total k + d."""
    faces = (die or standard_die()).faces
    each = Fraction(1, len(faces))
    goes = [f.damage for f in faces if f.face not in ("blank", "2")]
    assert set(goes) <= {0, 1}, "the reference knows dice whose goes-on faces deal 0 or 1"
    p0, p1 = each * goes.count(0), each * goes.count(1)
    stops = [f.damage for f in faces if f.face in ("blank", "2")]

    def exactly(v: int) -> Fraction:
        return sum((each * p1 ** (v - d) / (1 - p0) ** (v - d + 1) for d in stops if d <= v), Fraction(0))

    return exactly(total) if total < top else 1 - sum((exactly(v) for v in range(top)), Fraction(0))


def _roll_choices(board: Board, uid: str, hit: str) -> list[tuple[int, int] | None]:
    """N78: each total a Relentless unit attacked may retaliate with, up to the least that takes all
    the attacker can lose after Prepared (and, under Swindle, all its faction's Source), which the
    answer shows for every total from it on (docs/output-format.md)."""
    if hit not in board.units or not _rolls_die(board.units[hit]):
        return [None]
    a, r = board.units[uid], board.units[hit]
    top = a.health + a.forts + talents.total("rreduce", a) + (board.source.get(a.faction, 0) if talents.says("swindles", r) else 0)
    return [(total, top) for total in range(top + 1)]


def armour_choices(rules: Rules, board: Board, uid: str, target: str, redirect: str | None,
                   splash: bool) -> list[frozenset[tuple[str, str]]]:
    """N72: for each unit with Hidden Armor the attack may hit, none or the one kind of hit its owner
    discards it against: the attacker's retaliation, gate retaliation or Spike, the target's attack,
    a splashed unit's splash (a choice a hit never meets plays out as none)."""
    kinds = {uid: (RETALIATION, GATE_RETALIATION, SPIKE), redirect or target: (ATTACK,)}
    if _swaps(rules, board, uid, target):  # N132: the swap's move may hurt either
        kinds = {u: (MOVING, *hows) for u, hows in kinds.items()}
    kinds |= {c: (SPLASH,) for c in (splash_area(rules, board, uid, target) if splash else [])}
    armoured = [(u, hows) for u, hows in kinds.items() if u in board.units and board.units[u].has(HIDDEN_ARMOR)
                and board.units[u].faction and not rules.ai(board.units[u].faction)]
    return [frozenset((u, how) for (u, _), how in zip(armoured, pick) if how)
            for pick in product(*[("", *hows) for _, hows in armoured])]


def weaken(rules: Rules, board: Board, uid: str, sid: str) -> tuple[AttackOutcome, Board]:
    """N71: instead of attacking, the unit removes the spire's top two upgrades: no damage, no defeat."""
    b = board.copy()
    b.units[uid] = replace(b.units[uid], attacked=True)
    s = b.spires[sid]
    places = set(range(max(0, len(s.upgrades) - 2), len(s.upgrades)))
    b.spires[sid] = s.without(places)
    over = _game_over(b)
    stripped = tuple(sorted((sid, s.held[i], s.upgrades[i]) for i in places))
    return AttackOutcome(attacker=uid, target=sid, wave_over=_wave_over(b) and not over and rules.minions, game_over=over,
                         stripped=stripped, instead="Weak Point"), b


def pacify(rules: Rules, board: Board, uid: str, landmark: str) -> tuple[AttackOutcome, Board]:
    """N66: instead of attacking, the unit discards the landmark minion: nothing dealt, no defeat; a
    player's faction gains 3 Source up to capacity."""
    b = board.copy()
    log = Log()
    a = replace(b.units[uid], attacked=True)
    b.units[uid] = a
    del b.units[landmark]
    b.discarded = b.discarded | {landmark}
    if not rules.ai(a.faction):
        _gain(rules, b, log, a.faction, Reward(source=3))
    over = _game_over(b)
    outcome = AttackOutcome(attacker=uid, target=landmark, gains=_merged(log.gains),
                            wave_over=_wave_over(b) and not over and rules.minions, game_over=over, instead="Pacify",
                            discarded=(landmark,))
    return outcome, b


def _sourcefield(rules: Rules, b: Board, hit: str, target: str, dealt: int) -> bool:
    """N63: the attacked unit itself (no redirect) has Sourcefield, it has a faction (no landmark
    minion no faction controls, N1) and no AI's, and that faction has
    the Source to pay for what the attack would deal, 1 or more."""
    t = b.units.get(hit)
    return hit == target and t is not None and talents.says("may_cancel", t, rules, b, t, dealt)


def _swindles(a: Fighter, t: Fighter | None) -> bool:
    """N65: ``a``'s hit on ``t`` is a swindle: ``t`` is a faction unit (a landmark minion no faction controls is none, N1)."""
    return t is not None and talents.says("swindles", a) and bool(t.faction)


def _steal(rules: Rules, board: Board, log: Log, a: Fighter, victim: str, amount: int, how: str) -> None:
    """N65: the hit ``a`` would have dealt ``victim``, as the unit would take it (Bio-Indefinite's 1),
    is owed by its faction; a non-AI faction's unit steals it, an AI's or a landmark minion's does not."""
    if _held(rules, board, a.id, victim, how):
        amount = min(amount, 1)
    thief = a.faction if a.faction and not rules.ai(a.faction) else ""
    log.stolen.append((board.units[victim].faction, thief, amount))


def _settle(rules: Rules, b: Board, log: Log, purse: dict[str, int]) -> None:
    """N65: every loss of the attack first, out of ``purse``, then each faction's gains up to its
    capacity; its Gain is what it has in the end less what it had after its losses."""
    if not log.stolen and not log.spent:
        return
    lost: dict[str, int] = dict(log.spent)  # N116: spent before anything is taken or gained
    took: dict[str, int] = {}
    for victim, thief, amount in log.stolen:
        taken = min(amount, purse[victim] - lost.get(victim, 0))
        lost[victim] = lost.get(victim, 0) + taken
        if thief:
            took[thief] = took.get(thief, 0) + taken
    settled = {f for f in set(lost) | set(took) if not rules.ai(f)}
    for f in set(lost) | set(took):
        before = purse[f] - lost.get(f, 0)
        offered = log.offered.get(f, 0) + took.get(f, 0)
        capacity = rules.position.factions[f].source_capacity
        b.source[f] = before if f not in settled or not offered else max(before, min(capacity, before + offered))
    gains = [replace(g, source=0) if g.faction in settled else g for g in log.gains]
    gains += [Gain(f, source=b.source[f] - purse[f] + lost.get(f, 0)) for f in sorted(settled)]
    log.gains = [g for g in gains if g != Gain(g.faction)]


def _moving_hurts(rules: Rules, board: Board, moved: tuple[tuple[str, str], ...],
                  faces: dict[tuple[str, str], int] | None = None) -> dict[str, dict[str, int]]:
    """N132: for each unit an Eager swap moved, what each chip deals it where it lands, counted from
    where the chips stand in ``board``, before the swap; N274: an Explosion chip the face ``faces`` gives
    (unit, chip), 1 where none is given (whether it hurts at all)."""
    found: dict[str, dict[str, int]] = {}
    for x, node in moved:
        u = board.units[x]
        near = rules.position.neighbours(node)
        clean = u.faction != "griege"
        flier = _flies(rules, board, u)
        by: dict[str, int] = {}
        for s in board.units.values():
            if s.id != x and s.node in near and not s.campfire:  # N170: a campfired hero is inactive
                lahar = s.has("Lahar") and bool(s.faction) and _hostile(rules, s, u) and not flier
                by[s.id] = int(s.has("Toxic Secretion") and clean) + int(lahar)
        for t in board.spires.values():
            if not t.defeated and t.at in near:
                foe = t.faction != u.friend if u.free else opposing(rules.position, t.faction, u.faction)
                by[t.id] = int(t.has("Toxic Secretion") and clean) + int(t.has("Lahar") and foe and not flier)
        for c in rules.position.chips:
            if "Exposure" in c.talents and c.at == node and clean:
                by[c.id] = c.count
        for c in _explosives(rules, board, node):  # N274
            by[c] = (faces or {}).get((x, c), 1)
        found[x] = {k: n for k, n in by.items() if n}
    return found


def _explosives(rules: Rules, board: Board, node: str) -> list[str]:
    """N274: the Explosion chips still on the board beside ``node``."""
    near = rules.position.neighbours(node)
    return [c.id for c in rules.position.chips if "Explosion" in c.talents and c.at in near and c.id not in board.exploded]


def _blast_top(rules: Rules, board: Board, x: str, rolled: list[str]) -> int:
    """N274, N292: the least total of the dice unit ``x`` rolls for the Explosion chips ``rolled`` (one die
    each) that takes all it can lose as the hit comes (at most 1 with Bio-Indefinite), which stands for
    every total from it on (as N78's totals); at least the least they total."""
    u = board.units[x]
    dice = len(rolled)
    top = min(6 * dice, u.health + u.forts, 1 if _held(rules, board, rolled[0], x, MOVING) else 6 * dice)
    return max(top, dice)


def _spared(rules: Rules, board: Board, x: str, chips: Iterable[str]) -> list[str]:
    """N274: the Explosion chips whose hit takes nothing from unit ``x`` (Peaceful): each rolls alone."""
    return [c for c in chips if _peaceful(rules, board, c, x)]


def _unit_blasts(rules: Rules, board: Board, x: str, chips: list[str],
                 armour: frozenset[tuple[str, str]] = frozenset()) -> list[tuple[tuple[str, str, int], ...]]:
    """N274, N292: every way the dice unit ``x`` rolls for the Explosion ``chips`` beside it may deal it, as
    (unit, chip, face) triples: a chip whose hit takes nothing from it 1 (all six); the others' dice by their
    total, given on the first of them by id (0 on the rest), from the least they total up to the top
    (``_blast_top``); only the least where its owner discards Hidden Armor against the hit (it takes 0)."""
    spared = _spared(rules, board, x, chips)
    rolled = sorted(c for c in chips if c not in spared)
    fixed = tuple((x, c, 1) for c in spared)
    if not rolled:
        return [fixed]
    low = len(rolled)
    top = low if (x, MOVING) in armour else _blast_top(rules, board, x, rolled)
    return [fixed + ((x, rolled[0], total),) + tuple((x, c, 0) for c in rolled[1:]) for total in range(low, top + 1)]


def _dice_totals(dice: int) -> dict[int, int]:
    """How many of the 6 ** ``dice`` equally likely rolls of ``dice`` D6s make each total."""
    ways = {0: 1}
    for _ in range(dice):
        nxt: dict[int, int] = {}
        for t, n in ways.items():
            for f in range(1, 7):
                nxt[t + f] = nxt.get(t + f, 0) + n
        ways = nxt
    return ways


def blast_odds(rules: Rules, board: Board, faces: tuple[tuple[str, str, int], ...],
               armour: frozenset[tuple[str, str]] = frozenset()) -> tuple[Blast, ...]:
    """N274, N292: for each unit that rolled, (unit, its dice's total, the chance of it): the top total
    standing for every total from it on; 1 where no die of its deals it anything or its owner discards
    Hidden Armor against the hit."""
    found = []
    for x in sorted({x for x, _, _ in faces}):
        mine = [(c, f) for u, c, f in faces if u == x]
        spared = _spared(rules, board, x, [c for c, _ in mine])
        rolled = sorted(c for c, _ in mine if c not in spared)
        total = sum(f for c, f in mine if c not in spared)
        if not rolled or (x, MOVING) in armour:
            found.append((x, total, Fraction(1)))
            continue
        top, ways = _blast_top(rules, board, x, rolled), _dice_totals(len(rolled))
        hits = ways.get(total, 0) if total < top else sum(n for t, n in ways.items() if t >= top)
        found.append((x, total, Fraction(hits, 6 ** len(rolled))))
    return tuple(found)


def face_odds(rules: Rules, board: Board, faces: tuple[tuple[str, str, int], ...],
              armour: frozenset[tuple[str, str]] = frozenset()) -> Fraction:
    """N274: the chance of ``faces`` (``blast_odds``)."""
    return math.prod((chance for _, _, chance in blast_odds(rules, board, faces, armour)), start=Fraction(1))


def blast_choices(rules: Rules, board: Board, uid: str, target: str,
                  armour: frozenset[tuple[str, str]] = frozenset()) -> list[tuple[tuple[str, str, int], ...]]:
    """N274: every way the dice each unit the attack's swap moves beside Explosion chips rolls may deal it
    (``_unit_blasts``), one tuple of (unit, chip, face) for each combination."""
    if not _swaps(rules, board, uid, target):
        return [()]
    a, t = board.units[uid], board.units[target]
    ways = [_unit_blasts(rules, board, x, _explosives(rules, board, node), armour)
            for x, node in ((uid, t.node), (target, a.node))]
    return [tuple(f for part in pick for f in part) for pick in product(*ways)]


def _swap_harm(rules: Rules, board: Board, b: Board, log: Log, moved: tuple[tuple[str, str], ...],
               faces: tuple[tuple[str, str, int], ...] = ()) -> dict[str, str]:
    """N132: each unit the swap moved takes its one hit where it lands, in ``b``; the units it
    defeats, each with the chip whose hit did. N274: the faces its Explosion chips rolled, which go off."""
    swept: dict[str, str] = {}
    for x, node in moved:
        _refresh(rules, board, b, log, x, node, MOVING)
    b.exploded = b.exploded | {c for x, node in moved for c in _explosives(rules, board, node)}
    for x, sources in sorted(_moving_hurts(rules, board, moved, {(u, c): f for u, c, f in faces}).items()):
        if len(sources) > 1:
            sources = {k: n for k, n in sources.items() if not _peaceful(rules, b, k, x) and not heals(rules, k, x)}
        if not sources:
            continue
        src = min(sources)
        credit = (b.units[src].faction if src in b.units else b.spires[src].faction if src in b.spires else "")
        u = b.units[x]
        kin = u.friend == credit if u.free else not opposing(rules.position, credit, u.faction)
        if hurt(rules, b, log, x, sum(sources.values()), src, MOVING, credit, bool(credit) and not kin):
            swept[x] = src
    return swept


def _refresh(rules: Rules, before: Board, b: Board, log: Log, x: str, node: str, how: str | None) -> None:
    """N264: unit ``x``, moved onto ``node``, recovers 1 in ``b`` from the one Refresh spire beside it of its
    side (counted in ``before``), where nothing hurts it there; ``how`` the hit's (a swap's), None once
    the moment's hits are dealt (a teleport's: no hit, its health only)."""
    u = b.units.get(x)
    if u is None or u.refreshed or _moving_hurts(rules, before, ((x, node),)).get(x):
        return
    hexes, near = rules.position.hexes, rules.position.neighbours(node)
    towers = [t for t in before.spires.values() if not t.defeated and "Refresh" in t.talents and t.at in near
              and t.at in hexes and hexes[t.at].terrain is Terrain.WATER
              and ("shada" if rules.ai(t.faction) else t.faction) == u.faction]
    if len(towers) != 1 or u.health >= u.side.health:
        return
    if how is not None:
        log.damage.append(Damage(x, 1, towers[0].id, how, u.health, u.health + 1, 0))
    b.units[x] = replace(u, health=u.health + 1, refreshed=True)


def _swaps(rules: Rules, board: Board, uid: str, target: str) -> bool:
    """The attacker and the unit it attacks trade nodes by the attacker's talent (displace: N57 Eager)."""
    t, a = board.units.get(target), board.units[uid]
    if t is None or (a.has(CUMBERSOME) and a.kind is Kind.HERO):  # N81: no talent moves it
        return False
    return talents.says("displace", a, rules, a, t)


def _eager(rules: Rules, b: Board, uid: str, target: str) -> tuple[tuple[str, str], ...]:
    """N57: an Eager attacker and the minion it attacks trade nodes in ``b``; who went where."""
    if not _swaps(rules, b, uid, target):
        return ()
    a, t = b.units[uid], b.units[target]
    b.units[uid], b.units[target] = replace(a, node=t.node), replace(t, node=a.node)
    return tuple(sorted(((uid, t.node), (target, a.node))))


def redirects(rules: Rules, board: Board, target: str) -> list[str | None]:
    """FAQ-15: a player's gate with a unit waiting may have the topmost unit take the damage."""
    if not _is_gate(target) and target not in board.waygates:
        return [None]
    owner = target[5:] if _is_gate(target) else UPRISING  # N84: the Uprising's gate holds its waiting units
    if owner not in board.gates:
        return [None]
    stack = board.gates[owner].stack
    return [None, stack[0]] if stack and not rules.ai(owner) else [None]


def _sort_key(o: AttackOutcome) -> tuple[str, str, str, bool, tuple[str, ...], tuple[tuple[str, int, str], ...], str]:
    return (o.attacker, o.target, o.redirected_to or "", o.splashed, o.pressed, o.stripped, o.instead)


Roll = tuple[str, int, tuple[int, ...], int]  # N87: unit, layer, the totals that deal the same, top


def attack_branches(
    rules: Rules, board: Board, uid: str, target: str, redirect: str | None, start: Board | None = None
) -> list[tuple[AttackOutcome, Board, Roll | None, tuple[Blast, ...]]]:
    """The attack under every combination of level-up, splash, Riposte and Rally choices, each with ``chosen`` set,
    and every total a Relentless retaliation may roll, with the roll (N87; None where none was rolled);
    every face an Explosion roll may show, with its chance (N274: the top one standing for those above);
    ``start``: the board the step began on, whose groups give a chip's layer."""
    hit = redirect or target
    return [
        (outcome, after, _roll_class(board, uid, hit, roll, start or board) if outcome.probability is not None else None,
         blasts)
        for splash in splash_choices(rules, board, uid, target)
        for riposte in (False, True)
        for press in press_choices(rules, board, uid, target)
        for cancel in (False, True)
        for ram in ram_choices(rules, board, uid, target)
        for armour in armour_choices(rules, board, uid, target, redirect, splash)
        for unload in unload_choices(rules, board, uid, target)
        for roll in _roll_choices(board, uid, hit)
        for rally in rally_choices(rules, board, uid, target)
        for gang in gang_choices(rules, board, _fallible(rules, board, uid, target, redirect))
        for invig in invigorate_choices(rules, board, _fallible(rules, board, uid, target, redirect))
        for absorb in absorb_choices(rules, board, _fallible(rules, board, uid, target, redirect))
        for power in power_choices(rules, board, _fallible(rules, board, uid, target, redirect))
        for faces in blast_choices(rules, board, uid, target, armour)
        for colony in colony_choices(rules, board)  # N334
        for outcome, after in every_choice(
            lambda chooser: attack(rules, board, uid, target, redirect, chooser, splash, riposte, press, cancel, ram,
                                   armour, roll, unload, rally, gang, invig, absorb, power, faces, colony))
        for blasts in [blast_odds(rules, board, faces, armour)]
    ]


Blast = tuple[str, int, Fraction]  # N274, N292: the unit that rolled, its dice's total (the least of its band), its chance


def _roll_class(board: Board, uid: str, hit: str, roll: tuple[int, int] | None, start: Board) -> Roll:
    """N87: the roll ``hit`` retaliated against ``uid`` with, as the step's end tells it."""
    assert roll is not None
    total, top = roll
    r = board.units[hit]

    def deals(t: int) -> int:
        return _retaliation(board, r, uid, t)

    layer = len(start.units[hit].group) - len(r.group) if hit in start.units else 0
    return hit, layer, tuple(t for t in range(top + 1) if deals(t) == deals(total)), top


def options_now(rules: Rules, board: Board, uid: str) -> AttackOptions:
    c = choice(rules, board, uid)
    played = {
        (roll and roll[0], faces, armour, attack(rules, board, uid, t, r, Chooser(None), splash, riposte, press, cancel,
                                                 ram, armour, roll, unload, None, gang, absorb=absorb, faces=faces,
                                                 colony=colony)[0])
        for t in c.allowed
        for r in redirects(rules, board, t)
        for splash in splash_choices(rules, board, uid, t)
        for riposte in (False, True)
        for press in press_choices(rules, board, uid, t)
        for cancel in (False, True)
        for ram in ram_choices(rules, board, uid, t)
        for armour in armour_choices(rules, board, uid, t, r, splash)
        for roll in _roll_choices(board, uid, r or t)
        for unload in unload_choices(rules, board, uid, t)
        for gang in gang_choices(rules, board, _fallible(rules, board, uid, t, r))
        for absorb in absorb_choices(rules, board, _fallible(rules, board, uid, t, r))  # N119
        for faces in blast_choices(rules, board, uid, t, armour)  # N274
        for colony in colony_choices(rules, board)  # N334
    }
    # N78: an outcome a rolled retaliation led to has the odds of every total that leads to it, once each;
    # N274: so too each face an Explosion roll showed.
    chance: dict[AttackOutcome, dict[tuple[int | None, tuple[tuple[str, str, int], ...]] | None, Fraction]] = {}
    for total, faces, armour, o in played:
        chance.setdefault(replace(o, probability=None), {})[
            None if o.probability is None and not faces else (total, faces, armour)] = (
            (o.probability or Fraction(1)) * face_odds(rules, board, faces, armour))
    outcomes = {
        replace(o, probability=sum(by.values(), Fraction(0))) if None not in by else o for o, by in chance.items()
    } | {pacify(rules, board, uid, landmark)[0] for landmark in c.calm} | {
        weaken(rules, board, uid, sid)[0] for sid in c.weak}
    return AttackOptions(uid, c.must, c.targets, tuple(sorted(outcomes, key=_sort_key)), cannot=c.cannot)


def attack_options(position: Position, unit_id: str, ai: bool) -> AttackOptions:
    rules, start = Rules.of(position, ai), start_board(position)
    rules.minions = not _wave_over(start)  # N167
    return options_now(rules, start, unit_id)


# ------------------------------------------------------------------------------ ends of a step


def _unit_end(start: Fighter, now: Fighter | None, discarded: bool, under: str = "", returned: bool = False
              ) -> ChipEnd | None:
    if under:
        return ChipEnd(start.id, under=under)  # N146
    if returned:
        return ChipEnd(start.id, returned=True)  # N205
    if now is None:
        return ChipEnd(start.id, discarded=True) if discarded else ChipEnd(start.id, defeated=True)
    ups = tuple(sorted(now.upgrades))
    changed_ups = ups != tuple(sorted(start.upgrades))
    basic = start.promoted and not now.promoted and not now.revealed  # N67: flipped back
    shed = () if now.revealed else tuple(sorted(set(start.talents) - set(now.talents)))  # N72, N81
    if (now.health == start.health and not changed_ups and not now.revealed and not now.promoted_now
            and not now.silenced and now.node == start.node and not basic and not shed):
        return None
    return ChipEnd(
        start.id,
        name=now.chip if now.revealed else "",
        health=now.health,
        upgrades=ups if changed_ups else None,
        promoted=now.promoted_now,
        silenced=now.silenced,
        at=now.node if now.node != start.node else None,
        basic=basic,
        discarded_talents=shed,
    )


def campfire(rules: Rules, board: Board) -> tuple[str, ...]:
    """N9: the one faction with units in play, when it has a hero that is not yet campfired."""
    if _finished(rules, board):
        return ()
    having = {f.faction for f in board.units.values() if not f.free}
    if len(having) != 1:
        return ()
    (faction,) = having
    heroes = [f for f in board.units.values() if f.faction == faction and f.kind is Kind.HERO]
    return (faction,) if any(not h.campfire for h in heroes) else ()


def _fumes_id(rules: Rules, node: str) -> str:
    """N235: the toxic fumes chip already on the hex, if any, else ``toxic-fumes-<hex>``."""
    return next((c.id for c in rules.position.chips if c.at == node and c.name == TOXIC_FUMES), f"toxic-fumes-{node}")


def end_state(rules: Rules, start: Board, board: Board, with_campfire: bool) -> EndState:
    chips = [e for uid, f in start.units.items()
             if (e := _unit_end(f, board.units.get(uid), uid in board.discarded, board.under.get(uid, ""),
                                uid in board.returned)) is not None]
    # N125: a larva placed from its barracks, where it stands and its health.
    chips += [ChipEnd(uid, health=f.health, at=f.node) for uid, f in board.units.items() if uid not in start.units]
    chips += [ChipEnd(c, under=u) for c, u in board.under.items() if c not in start.units]  # N257: another chip
    for sid, s in start.spires.items():
        now = board.spires[sid]
        if now.defeated:
            chips.append(ChipEnd(sid, defeated=True))
        elif now.upgrades != s.upgrades or now.flipped or now.at != s.at or now.arrow != s.arrow:  # N108: moved
            chips.append(ChipEnd(sid, upgrades=now.upgrades if now.upgrades != s.upgrades else None,
                                 flipped=now.flipped, at=now.at if now.at != s.at else None,
                                 arrow=now.arrow if now.arrow != s.arrow else None))  # N363
    chips += [
        ChipEnd(gate_node(f), health=board.gates[f].health)
        for f, g in start.gates.items()
        if board.gates[f].health != g.health
    ]
    chips += [ChipEnd(w, health=h) for w, (_, h) in board.waygates.items() if h != start.waygates[w][1]]  # N84
    chips += [ChipEnd(m, removed=True) for m in sorted(board.lifted - start.lifted)]  # N145
    chips += [ChipEnd(c, discarded=True) for c in sorted(board.exploded - start.exploded)]  # N274
    chips += [ChipEnd(_fumes_id(rules, node), name=TOXIC_FUMES, at=node, laid=count)
              for node, count in sorted(board.fumes.items())]  # N235
    chips += [ChipEnd(uid, promoted=True) for uid in sorted(board.raised - start.raised)]  # N263
    fire = campfire(rules, board) if with_campfire else ()
    over = _game_over(board)
    return EndState(
        chips=tuple(sorted(chips)),
        source=tuple(sorted((f, n) for f, n in board.source.items() if n != start.source[f])),
        morale=tuple(sorted((f, n) for f, n in board.morale.items() if n != start.morale.get(f))),  # N156
        wave_over=_wave_over(board) and not over and rules.minions,  # N137
        campfire=fire,
        campfire_when=rules.readings["campfire"] if fire else "",
        game_over=over,
    )


# ---------------------------------------------------------------------------- the attack step


def _step_units(rules: Rules, board: Board) -> list[str]:
    return sorted(uid for uid, f in board.units.items() if f.faction == rules.faction)


def _finished(rules: Rules, board: Board) -> bool:
    """The wave or the game is over: the step ends at once; the wave only where minions were in play as
    the step began (N167)."""
    return _game_over(board) or (rules.minions and _wave_over(board))


def _fire_over(rules: Rules, board: Board) -> bool:
    """N137: Spires Fire ends at once when the game is over, or the wave, where minions were in play as
    it began."""
    return _game_over(board) or (rules.minions and _wave_over(board))


def may_end(rules: Rules, board: Board) -> bool:
    """Obligation and order: the step ends only when no unit that must attack still can."""
    return _finished(rules, board) or not any(choice(rules, board, uid).must for uid in _step_units(rules, board))


def attack_step(position: Position, ai: bool) -> AttackStepResult:
    rules = Rules.of(position, ai)
    start = start_board(position)
    rules.minions = not _wave_over(start)  # N167
    found: dict[tuple[EndState, tuple[Roll, ...], tuple[Blast, ...], tuple[tuple[str, ...], tuple[str, ...]]],
                tuple[AttackOutcome, ...]] = {}
    seen: set[tuple[object, ...]] = set()

    def explore(board: Board, sequence: tuple[AttackOutcome, ...], rolls: tuple[Roll, ...],
                blasts: tuple[Blast, ...] = ()) -> None:
        read = _read_later(position, start, board, sequence)
        key = (board.key(), rolls, blasts, read)
        if key in seen:
            return  # the same board after the same rolls leads to the same ends
        seen.add(key)
        if may_end(rules, board):
            found.setdefault((end_state(rules, start, board, True), tuple(sorted(rolls)), tuple(sorted(blasts)), read),
                             sequence)
        if _finished(rules, board):
            return
        for uid in _step_units(rules, board):
            for landmark in choice(rules, board, uid).calm:  # N66
                calmed, after = pacify(rules, board, uid, landmark)
                explore(after, sequence + (calmed,), rolls, blasts)
            for sid in choice(rules, board, uid).weak:  # N71
                weakened, after = weaken(rules, board, uid, sid)
                explore(after, sequence + (weakened,), rolls, blasts)
            for target in choice(rules, board, uid).allowed:
                for redirect in redirects(rules, board, target):
                    for outcome, after, roll, blast in attack_branches(rules, board, uid, target, redirect, start):
                        explore(after, sequence + (replace(outcome, probability=None),),
                                rolls + ((roll,) if roll else ()), blasts + blast)

    explore(start, (), ())
    outcomes = tuple(StepEnd(end, seq, tuple(Rolled(*r) for r in rolls), _rolls_odds(rolls, blasts))
                     for (end, rolls, blasts, _), seq in found.items())
    return AttackStepResult(rules.faction, ai, len(found), outcomes)


def _read_later(position: Position, start: Board, board: Board,
                sequence: tuple[AttackOutcome, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """N316: the Survival units standing that attacked in the step, and the uncontrolled Recruitable units
    standing that the turn's faction attacked in it."""
    struck = tuple(sorted(u for u, f in board.units.items()
                          if f.attacked and not start.units[u].attacked and "Survival" in f.talents))
    hit = tuple(sorted({o.target for o in sequence if not o.instead and o.target in board.units
                        and "Recruitable" in board.units[o.target].talents and "Untamed" not in board.units[o.target].talents
                        and not position.units[o.target].faction and not position.units[o.target].done.targeted}))
    return struck, hit


def _rolls_odds(rolls: tuple[Roll, ...], blasts: tuple[Blast, ...] = ()) -> Fraction | None:
    """N87: the chance of an end's rolls, given its attacks, and of its Explosion faces (N274); None where
    nothing was rolled."""
    if not rolls and not blasts:
        return None
    odds = math.prod((chance for _, _, chance in blasts), start=Fraction(1))
    for _, _, totals, top in rolls:
        odds *= sum((_relentless_odds(t, top) for t in totals), Fraction(0))
    return odds


# ---------------------------------------------------------------- the start and the end of a turn

SELF_DESTRUCT = "Self Destruct"  # N105


def _destructs(rules: Rules, board: Board) -> list[str]:
    """N105: the turn's units that may destruct now (in play on the map, not campfired)."""
    return sorted(uid for uid, f in board.units.items()
                  if f.faction == rules.faction and f.has(SELF_DESTRUCT) and not f.campfire)


def _blast(rules: Rules, board: Board, uid: str) -> tuple[int, list[str], list[str]]:
    """N105: what a Self Destruct deals (2, and 2 per upgrade), the adjacent opposing units (none in a
    gate or campfired) and the adjacent opposing spires it deals it to."""
    f = board.units[uid]
    near = set(rules.position.neighbours(f.node))
    units = sorted(t.id for t in board.units.values()
                   if t.node in near and not t.in_gate and not t.campfire and _hostile(rules, f, t))
    spires = sorted(s.id for s in board.spires.values()
                    if s.at in near and not s.defeated and opposing(rules.position, s.faction, f.faction))
    return 2 + 2 * len(f.upgrades), units, spires


def _blast_fells(rules: Rules, board: Board, uid: str) -> bool:
    """N106: the AI's "if doing so would defeat at least 1 opposing unit or spire", on the board as it
    stands: Peaceful and Bio-Indefinite counted (a heal is none), a player's Hidden Armor not."""
    amount, units, spires = _blast(rules, board, uid)
    for t in units:
        u = board.units[t]
        dealt = min(amount, 1) if _held(rules, board, uid, t, SELF_DESTRUCT) else amount
        if _peaceful(rules, board, uid, t):
            dealt = 0
        if not heals(rules, uid, t) and dealt >= u.health + u.forts:
            return True
    last = rules.readings["spire-defeat"] == "last-upgrade"
    return any(not board.spires[s].upgrades or (last and len(board.spires[s].upgrades) == 1) for s in spires)


def self_destruct(rules: Rules, board: Board, uid: str, gang: frozenset[str] = frozenset(),
                  absorb: frozenset[tuple[str, str]] = frozenset()) -> list[Board]:
    """N105: the unit is defeated, no hit and credited to no one, first (its Incinerate acts no more);
    then each adjacent opposing unit and spire takes its damage, no attack, credited to its faction;
    ``gang``: the player's Press Gang units whose owner spends 2 Source for it if they fall (N116);
    ``absorb``, N119's picks. The boards each set of Invigorate's picks leaves (N97, N118)."""
    b = board.copy()
    log = Log(before=dict(b.units), gang=gang, purse=dict(b.source), absorb=absorb)  # N52: Assimilate reads the units as it began
    f = b.units[uid]
    amount, units, spires = _blast(rules, b, uid)
    log.defeated.append(Defeat(uid, f.chip, "", _goes_to(rules, b, log, f, "")))
    _assimilate(rules, b, log, f, "")
    for t in units:
        if t in b.units:
            hurt(rules, b, log, t, amount, uid, SELF_DESTRUCT, f.faction)
    for sid in spires:
        _hurt_spire(rules, b, log, sid, amount, uid, f.faction)
    if f.has("Detonate"):  # N147: its own defeat, first
        log.blasts.insert(0, f)
    _detonate(rules, b, log)
    _rob(rules, b, log)  # N112, N113
    _give_way(rules, b, log, b.units[uid])
    return [after for _, after in _invigorations(rules, b, log)]


def _creeps(rules: Rules, board: Board, crept: frozenset[str]) -> list[tuple[str, str]]:
    """N108: each move a player's Creep spire of the turn's faction may make now, once a turn: onto a
    map hex beside it, not path, where no unit, spire, landmark or other chip stands."""
    if rules.ai(rules.faction):
        return []
    position = rules.position
    taken = ({f.node for f in board.units.values()} | {s.at for s in board.spires.values() if not s.defeated}
             | {m.at for m in position.landmarks} | {c.at for c in position.chips})
    return [(s.id, h) for s in sorted(board.spires.values(), key=lambda s: s.id)
            if s.faction == rules.faction and s.has("Creep") and not s.defeated and s.id not in crept
            for h in sorted(position.adjacency.get(s.at, frozenset()))
            if position.hexes[h].terrain is not Terrain.PATH and h not in taken]


def turn_edge(position: Position, ai: bool, moment: str = "start", die: Die | None = None) -> set[EndState]:
    """N105-N108: every end state of the start (``moment`` "start") or the end ("end") of the turn's
    faction's turn: its Self Destruct units destruct one after another, a player's as it chooses, the
    AI's while one would defeat something (any of those first), until the wave is over; at the start,
    a player's Creep spires may move, each once, in any order with them; its Raze spires attack with
    ``die`` (N120: the standard die unless told)."""
    rules = Rules.of(position, ai)
    start = start_board(position)
    minions = not _wave_over(start)
    found: set[EndState] = set()
    seen: set[tuple[object, ...]] = set()
    called = _bydra_calls(rules, start) if moment == "start" else start
    opened = _fountains(rules, called, start) if moment == "start" else called  # N333: before any act

    def explore(board: Board, crept: frozenset[str]) -> None:
        if (board.key(), crept) in seen:
            return
        seen.add((board.key(), crept))
        over = (minions and _wave_over(board)) or board.ended  # N141: a fallen gate ends it too
        first = board is opened and called is not start  # N146: the call alone holds no act back
        ready = [] if over and not first else _destructs(rules, board)
        if ai:
            ready = [uid for uid in ready if _blast_fells(rules, board, uid)]
        # N125: the AI's larvae once its Self Destruct units are done, where it must place one.
        spawns = _spawns(rules, board, crept) if moment == "start" and not over and not (ai and ready) else []
        razes = _razes(rules, board, crept) if moment == "start" and not over and not (ai and ready) else []  # N120
        swaps = _translocations(rules, board, crept) if moment == "start" and not over else []  # N121
        flips = _flips(rules, board, crept) if moment == "start" and not over else []  # N123
        takes = _takeable(rules, board, crept) if moment == "end" and not over and not (ai and ready) else []  # N315
        if (not ai or not ready) and not (ai and spawns) and not (ai and razes):
            for last in _worms(rules, board) if moment == "end" and not over else [board]:  # N257
                end = _taken_shown(rules, end_state(rules, start, last, False), last, crept)  # N315
                found.add(replace(end, wave_over=minions and _wave_over(last) and not last.ended))  # her fall may end it
        for uid in ready:
            fallible = _blastable(rules, board, [uid, *_blast(rules, board, uid)[1]])
            for gang, absorb in product(gang_choices(rules, board, fallible), absorb_choices(rules, board, fallible)):
                for after in self_destruct(rules, board, uid, gang, absorb):  # N116, N119
                    explore(after, crept)
        for sid, hex_ in _creeps(rules, board, crept) if moment == "start" and not over else []:
            moved = board.copy()
            moved.spires[sid] = replace(board.spires[sid], at=hex_)
            _carry_riders(rules, board, moved, sid)  # N287
            explore(moved, crept | {sid})
        for chip, larva, hex_ in spawns:
            placed = board.copy()
            placed.units[larva] = _fighter(replace(position.units[larva], at=hex_), hex_)
            explore(placed, crept | {f"spawn:{chip}"})
        for sid, target in razes:
            for after in raze(rules, board, sid, target, die or standard_die()):
                explore(after, crept | {f"raze:{sid}"})
        for sid, other in swaps:
            swapped = board.copy()
            swapped.spires[sid] = replace(board.spires[sid], at=board.spires[other].at)
            swapped.spires[other] = replace(board.spires[other], at=board.spires[sid].at)
            for spire in (sid, other):  # N287
                _carry_riders(rules, board, swapped, spire)
            aims = ([n for n in rules.position.neighbours(board.spires[sid].at) if n in rules.position.hexes]
                    if board.spires[other].has("Directional Attack") else [])
            for aim in aims:  # N363: the swapped spire's arrow, pointed anew
                pointed = swapped.copy()
                pointed.spires[other] = replace(swapped.spires[other], arrow=aim)
                explore(pointed, crept | {f"swap:{sid}"})
            if not aims:
                explore(swapped, crept | {f"swap:{sid}"})
        for uid in takes:
            taken = board.copy()
            taken.units[uid] = replace(board.units[uid], faction=rules.faction)
            explore(taken, crept | {f"take:{uid}"})
        for chip in flips:
            fallible = _blastable(rules, board, _unstable_victims(rules, board, chip))
            for gang, absorb in product(gang_choices(rules, board, fallible), absorb_choices(rules, board, fallible)):
                for after in unstable(rules, board, chip, gang, absorb):  # N116, N119
                    explore(after, crept | {f"flip:{chip}"})

    explore(opened, frozenset())
    return found if moment == "start" else {e for end in found for e in _recruited(rules, end)}


def exploration(position: Position, ai: bool) -> set[EndState]:
    """N150: every end state of the exploration step of the turn's faction."""
    rules = Rules.of(position, ai)
    start = start_board(position)
    minions = not _wave_over(start)
    found: set[EndState] = set()
    hidden = {m.id: m for m in position.landmarks if not m.revealed}

    group = position.hex_group()

    def explore(board: Board, revealed: frozenset[str], removed: frozenset[str], sonar: frozenset[str],
                homed: frozenset[str] = frozenset(), relaid: frozenset[str] = frozenset()) -> None:
        over = minions and _wave_over(board)
        end = end_state(rules, start, board, False)
        # N161: a hero a Hero's Quest sent to its fortress left the board undefeated.
        chips = tuple(ChipEnd(c.chip, returned=True) if c.chip in homed else c for c in end.chips)
        marks = tuple(ChipEnd(m, revealed=True, removed=m in removed) for m in sorted(revealed))
        found.add(replace(end, chips=tuple(sorted((*chips, *marks))), wave_over=over))
        if over or rules.ai(rules.faction):
            return
        # The turn's faction's units: a landmark minion it controls too (the position's faction).
        active = [f for f in board.units.values()
                  if position.units[f.id].faction == rules.faction and not f.in_gate and not f.campfire]
        for lid, landmark in sorted(hidden.items()):
            if lid in revealed or lid in relaid:
                continue
            near = position.neighbours(landmark.at)
            beside = any(f.node in near for f in active)
            minion_beside = any(f.node in near and f.kind is Kind.MINION for f in active)
            sounders = {f.id for f in active if f.has("Biosonar") and f.id not in sonar and f.node not in near
                        and group.get(f.node) is not None and group.get(f.node) == group.get(landmark.at)}
            if "Hero's Quest" in landmark.talents:  # N161: a hero explores it, and the explorer matters
                quests = [(f.id, sonar) for f in active if f.node in near and f.kind is Kind.HERO]
                if not minion_beside:
                    quests += [(h, sonar | {h}) for h in sorted(sounders) if board.units[h].kind is Kind.HERO]
                for hero, used in quests:
                    explore(_quest(rules, board, hero, 4), revealed, removed, used, homed | {hero}, relaid | {lid})
                    explore(_quest(rules, board, hero, 6), revealed | {lid}, removed | {lid}, used, homed, relaid)
                continue
            ways = ([sonar] if beside else []) + ([sonar | {s} for s in sorted(sounders)] if not minion_beside else [])
            for used in ways:
                if "Unstable Rift" in landmark.talents:
                    explore(_rift(rules, board, near), revealed | {lid}, removed | {lid}, used, homed, relaid)
                else:
                    explore(board, revealed | {lid}, removed, used, homed, relaid)

    explore(start, frozenset(), frozenset(), frozenset())
    return found


def _quest(rules: Rules, board: Board, hero: str, gain: int) -> Board:
    """N161: the hero leaves the board (home or defeated); the faction gains ``gain``, up to its capacity."""
    b = board.copy()
    del b.units[hero]
    capacity = rules.position.factions[rules.faction].source_capacity
    b.source[rules.faction] = max(b.source[rules.faction], min(capacity, b.source[rules.faction] + gain))
    return b


def _scapes_gone(position: Position) -> list[int]:
    """N186: chapter 6's earthscapes the end of the wave removes, by their place in the position's list."""
    if position.scenario is None or position.scenario.chapter != 6 or not position.earthscapes:
        return []
    held = {c.at for c in position.chips if c.name.strip().casefold() == "waygate" and c.health}
    held |= {s.at for s in position.spires} | {m.at for m in position.landmarks if m.revealed}
    held |= {u.at for u in position.units.values() if u.kind is Kind.LANDMARK_MINION and u.at is not None}
    return [i for i, scape in enumerate(position.earthscapes) if scape and not set(scape) & held]


def end_of_wave(position: Position, ai: bool) -> set[EndState]:
    """N160: every end state of the end of the wave; N186, chapter 6's earthscapes."""
    rules = Rules.of(position, ai)
    gone = _scapes_gone(position)
    cut = {h for i in gone for h in position.earthscapes[i]}
    lost = [ChipEnd(uid, discarded=True) for uid, u in sorted(position.units.items()) if u.at in cut]
    lost += [ChipEnd(m.id, removed=True) for m in position.landmarks if m.at in cut]
    lost += [ChipEnd(c.id, discarded=True) for c in position.chips  # N308
             if c.at in cut and c.name.strip().casefold() != "toxic fumes"]
    lost += [ChipEnd(f"earthscape:{i}", removed=True) for i in gone]
    if gone:
        lost.append(ChipEnd(gate_node("uprising"), health=position.gates["uprising"].health + 4 * len(gone)))
    homed = [ChipEnd(uid, returned=True) for uid, u in sorted(position.units.items())
             if u.kind is Kind.MINION and u.at in position.hexes and "Precious" in u.talents and u.at not in cut]
    woke = [ChipEnd(uid, woke=True) for uid, u in sorted(position.units.items()) if u.campfire and u.at not in cut]
    player = [s for s in position.spires if s.faction in position.factions and not rules.ai(s.faction)]
    mines = [s for s in player if "Mining" in s.talents]
    found = set()
    for chosen in product((False, True), repeat=len(mines)):
        mined = [s for s, take in zip(mines, chosen) if take]
        gains: dict[str, int] = {}
        for s in player:
            gains[s.faction] = gains.get(s.faction, 0) + 2 * ("Refinery" in s.talents) + 6 * (s in mined)
        source = []
        for f, gain in sorted(gains.items()):
            faction = position.factions[f]
            after = min(faction.source_capacity, faction.source + gain)
            if after != faction.source:
                source.append((f, after))
        springs = (ChipEnd(m.id, removed=True) for m in position.landmarks if m.revealed and "Fountain" in m.talents)
        chips = (*homed, *woke, *(ChipEnd(s.id, returned=True) for s in mined), *springs, *lost)
        found.add(EndState(tuple(sorted(chips)), tuple(source)))
    return found


def _rift(rules: Rules, board: Board, near: frozenset[str]) -> Board:
    """N150: Unstable Rift revealed: every active unit beside it falls with its group; the revealing
    faction gains their health, up to its capacity."""
    b = board.copy()
    victims = sorted(uid for uid, f in b.units.items() if f.node in near and not f.in_gate and not f.campfire)
    gain = sum(b.units[uid].health for uid in victims)
    for uid in victims:
        del b.units[uid]
    capacity = rules.position.factions[rules.faction].source_capacity
    b.source[rules.faction] = max(b.source[rules.faction], min(capacity, b.source[rules.faction] + gain))
    return b


def _razes(rules: Rules, board: Board, done: frozenset[str]) -> list[tuple[str, str]]:
    """N120: each (spire, target) a Raze spire of the turn's faction may attack now, once each (``done``
    holds "raze:<spire>" for those that have), none once a spire crept (N108): an opposing spire, gate or
    waygate (N84; not the Uprising's gate in chapter 6; the griege gate only from beside it) with health left within its range, a camouflaged
    spire only from beside it; the AI's only a gate or waygate if any, else the spires with the fewest
    upgrades."""
    if any(not c.startswith(("spawn:", "raze:", "swap:", "flip:")) for c in done):
        return []
    position = rules.position
    chapter_6 = position.scenario is not None and position.scenario.chapter == 6
    found = []
    for s in sorted(board.spires.values(), key=lambda s: s.id):
        if s.faction != rules.faction or not s.has("Raze") or s.defeated or s.dice < 1 or f"raze:{s.id}" in done:
            continue
        spires = [t.id for t in sorted(board.spires.values(), key=lambda t: t.id)
                  if t.id != s.id and not t.defeated and opposing(position, t.faction, s.faction)
                  and rules.within(s.at, t.at, s.range) and not _shielded(rules, board, s, t, t.at)]
        gates = [gate_node(f) for f, g in sorted(board.gates.items())
                 if opposing(position, f, s.faction) and g.health >= 1 and rules.within(s.at, gate_node(f), s.range)
                 and not (chapter_6 and f == UPRISING) and (f != "griege" or rules.within(s.at, gate_node(f), 1))]
        gates += [w for w, (at, health) in sorted(board.waygates.items())
                  if opposing(position, UPRISING, s.faction) and health >= 1 and rules.within(s.at, at, s.range)]
        if rules.ai(rules.faction):
            fewest = min((len(board.spires[t].upgrades) for t in spires), default=0)
            spires = [] if gates else [t for t in spires if len(board.spires[t].upgrades) == fewest]
        found += [(s.id, t) for t in gates + spires]
    return found


def _carry_riders(rules: Rules, before: Board, after: Board, sid: str) -> None:
    """N287: the units riding spire ``sid`` still on its node in ``before`` stand on its node in ``after``."""
    was, now = before.spires[sid].at, after.spires[sid].at
    for uid, f in before.units.items():
        if rules.position.units[uid].rides == sid and f.node == was:
            after.units[uid] = replace(f, node=now)


def _translocations(rules: Rules, board: Board, done: frozenset[str]) -> list[tuple[str, str]]:
    """N121: each (spire, other) a player's Translocate spire of the turn's faction may swap hexes with
    now, once each (``done`` holds "swap:<spire>" for those that have), two swaps a turn at most: another
    standing spire of its faction whose hex is in the same hex group as its own or one touching it."""
    if rules.ai(rules.faction) or sum(1 for c in done if c.startswith("swap:")) >= 2:
        return []
    position = rules.position
    group = position.hex_group()

    def near(a: str, b: str) -> bool:
        ga, gb = group[a], group[b]
        return ga == gb or any(group.get(n) == gb for h, g in group.items() if g == ga for n in position.adjacency.get(h, ()))

    standing = sorted((s for s in board.spires.values() if not s.defeated), key=lambda s: s.id)
    return [(s.id, t.id) for s in standing if s.faction == rules.faction and s.has("Translocate")
            and f"swap:{s.id}" not in done
            for t in standing if t.id != s.id and t.faction == s.faction and near(s.at, t.at)]


def _flips(rules: Rules, board: Board, done: frozenset[str]) -> list[str]:
    """N123: each waygate with Unstable the Uprising, a player, may flip now, once each (``done`` holds
    "flip:<chip>"), in chapter 6 on its turn: with health left, another waygate with health left, and
    none of its units waiting in its gate."""
    position = rules.position
    if (position.scenario is None or position.scenario.chapter != 6 or rules.faction != UPRISING
            or rules.ai(UPRISING) or board.gates[UPRISING].stack):
        return []
    unstable_chips = {c.id for c in position.chips if "Unstable" in c.talents}
    standing = [w for w, (_, health) in board.waygates.items() if health >= 1]
    return sorted(w for w in standing if w in unstable_chips and f"flip:{w}" not in done and len(standing) >= 2)


def _unstable_victims(rules: Rules, board: Board, chip: str) -> list[str]:
    """N123: the active units beside the waygate (on the map, not campfired), any faction's."""
    near = rules.position.neighbours(board.waygates[chip][0])
    return sorted(f.id for f in board.units.values() if f.node in near and not f.in_gate and not f.campfire)


def unstable(rules: Rules, board: Board, chip: str, gang: frozenset[str] = frozenset(),
             absorb: frozenset[tuple[str, str]] = frozenset()) -> list[Board]:
    """N123: the waygate flips (health 0); each active unit beside it is defeated, no hit and credited to
    no one (so Peaceful does not save it, FAQ-01), as N105's bomber is; the Uprising gains the Source
    rewards of the opposing ones, up to its capacity. ``gang``, ``absorb``: N116's, N119's choices."""
    b = board.copy()
    log = Log(before=dict(b.units), gang=gang, purse=dict(b.source), absorb=absorb)
    at, _ = b.waygates[chip]
    b.waygates[chip] = (at, 0)
    victims = _unstable_victims(rules, b, chip)
    gain = sum(b.units[uid].reward.source for uid in victims if opposing(rules.position, b.units[uid].faction, UPRISING))
    for uid in victims:
        f = b.units[uid]
        log.defeated.append(Defeat(uid, f.chip, "", _goes_to(rules, b, log, f, "")))
        _assimilate(rules, b, log, f, "")
        if f.has("Detonate"):  # N147
            log.blasts.append(f)
        _give_way(rules, b, log, f)
    _gain(rules, b, log, UPRISING, Reward(source=gain))
    _detonate(rules, b, log)
    return [after for _, after in _invigorations(rules, b, log)]


def raze(rules: Rules, board: Board, sid: str, target: str, die: Die) -> list[Board]:
    """N120: the boards each total of the spire's dice leaves: the spire target loses an upgrade (N2's
    spire damage), the gate or waygate the total; having attacked a gate or waygate, the spire loses its
    bottom upgrade."""
    s = board.spires[sid]
    boards = []
    for total in sorted(die.totals(s.dice)):
        b = board.copy()
        log = Log(before=dict(b.units), purse=dict(b.source))
        if target in b.spires:
            _hurt_spire(rules, b, log, target, total, sid, s.faction)
        else:
            if _is_gate(target):
                _hurt_gate(rules, b, log, target[5:], total, sid, s.faction)
            else:
                _hurt_waygate(b, log, target, total, sid, s.faction)
            b.spires[sid] = b.spires[sid].without({0})
        _degrade(b, sid)  # N361
        boards.append(b)
    return boards


def _controlled(position: Position, uid: str) -> bool:
    """N143: a unit some faction controls: a faction's, or a landmark minion the file gives a faction
    (Recruiter, Recruitable), not one Devoted made (only friendly to it)."""
    u = position.units[uid]
    if u.kind is Kind.LANDMARK_MINION:
        return u.faction in position.factions and "Devoted" not in u.talents
    return bool(u.faction)


def _fountains(rules: Rules, board: Board, start: Board) -> Board:
    """N124: ``board`` once the units beside revealed Fountain landmarks recovered, on the round's first
    turn, before any act of its start (N333): those in play as the turn began."""
    position = rules.position
    if not position.turn.first_of_round:
        return board
    springs = [lm.at for lm in position.landmarks if lm.revealed and "Fountain" in lm.talents]
    after = board.copy()
    for uid, u in board.units.items():
        if not _controlled(position, uid) or u.in_gate or u.campfire or uid not in start.units:
            continue
        gain = 2 * sum(1 for at in springs if at in position.neighbours(u.node))
        if gain and u.health <= u.side.health:
            after.units[uid] = replace(u, health=min(u.health + gain, u.side.health))
    return after


def _spawns(rules: Rules, board: Board, done: frozenset[str]) -> list[tuple[str, str, str]]:
    """N125: each (chip, larva, hex) a Spawn unit or spire of the turn's faction may place now, once each
    (``done`` holds "spawn:<chip>" for those that have), on its first turn of the Onslaught Phase: a unit
    in its barracks printed Larva, onto a map hex beside the chip, path, no floating rock, where no unit,
    spire, landmark or other chip stands; the AI's only on those nearest the larva's mark."""
    position = rules.position
    if not position.turn.first_of_onslaught:
        return []
    barracks = position.factions[rules.faction].barracks or ()
    larvae = [uid for uid in barracks if uid not in board.units and position.units[uid].chip.strip().casefold() == "larva"]
    taken = ({f.node for f in board.units.values()} | {s.at for s in board.spires.values() if not s.defeated}
             | {m.at for m in position.landmarks} | {c.at for c in position.chips})
    chips = [(f.id, f.node) for f in board.units.values()
             if f.faction == rules.faction and f.has("Spawn") and not f.campfire]
    chips += [(s.id, s.at) for s in board.spires.values()
              if s.faction == rules.faction and s.has("Spawn") and not s.defeated]
    found = []
    for chip, at in sorted(chips):
        if f"spawn:{chip}" in done:
            continue
        options = [(uid, h) for uid in larvae for h in sorted(position.adjacency.get(at, frozenset()))
                   if h in position.hexes and position.hexes[h].terrain is Terrain.PATH
                   and not position.hexes[h].rock and h not in taken]
        if rules.ai(rules.faction) and options:
            far = {uid: movement.distances(position, position.units[uid]) for uid in larvae}
            near = min(far[uid].get(h, math.inf) for uid, h in options)
            options = [(uid, h) for uid, h in options if far[uid].get(h, math.inf) == near]
        found += [(chip, uid, h) for uid, h in options]
    return found



def _bydra_calls(rules: Rules, board: Board) -> Board:
    """N146: the board once Bydra Graam has called the narora's 1-health ungrouped minions under her
    (chapter 5, the narora's turn); ``board`` itself where she calls no one."""
    scenario = rules.position.scenario
    if scenario is None or scenario.chapter != 5 or rules.faction != "narora":
        return board

    def printed(chip: str) -> str:
        return " ".join(chip.split()).casefold().removeprefix("the ")

    bydra = next((f.id for f in sorted(board.units.values(), key=lambda f: f.id)
                  if f.faction == "narora" and printed(f.chip) == "bydra graam" and not f.in_gate), None)
    taken = [f.id for f in board.units.values() if bydra is not None and f.id != bydra and f.faction == "narora"
             and f.kind is Kind.MINION and not f.in_gate and not f.group and f.health == 1]
    if not taken:
        return board
    after = board.copy()
    for uid in taken:
        del after.units[uid]
        after.under[uid] = bydra
    return after


WORMS, INFEST = "rotten worms", "Infest"  # N257


def _worms(rules: Rules, board: Board) -> list[Board]:
    """N257: the boards once a rotten worms has infested Bydra Graam at the end of the round; ``[board]``
    where none may."""
    position = rules.position
    if position.scenario is None or position.scenario.chapter != 4 or not position.turn.last_of_round:
        return [board]

    def printed(chip: str) -> str:
        return " ".join(chip.split()).casefold().removeprefix("the ")

    hosts = [f for f in sorted(board.units.values(), key=lambda f: f.id)
             if printed(f.chip) == "bydra graam" and f.node in position.hexes and not f.group
             and not f.campfire and not f.has("Infested")]
    found = []
    for f in hosts:
        for worms in sorted(position.chips, key=lambda c: c.id):
            if printed(worms.name) != WORMS or worms.infest is None or worms.at not in position.adjacency.get(f.node, ()):
                continue
            fallible = _blastable(rules, board, [f.id])
            for gang, absorb in product(gang_choices(rules, board, fallible), absorb_choices(rules, board, fallible)):
                b = board.copy()
                log = Log(before=dict(b.units), gang=gang, purse=dict(b.source), absorb=absorb)
                hurt(rules, b, log, f.id, worms.infest, worms.id, INFEST, "")
                b.under[worms.id] = f.id
                _detonate(rules, b, log)
                _rob(rules, b, log)
                found += [after for _, after in _invigorations(rules, b, log)]  # N97, N116, N119 as at the edges
    return found or [board]


def _takeable(rules: Rules, board: Board, crept: frozenset[str]) -> list[str]:
    """N315: the units Recruitable lets the turn's faction take now (N122), standing on this board."""
    position = rules.position
    return sorted(uid for uid, f in board.units.items()
                  if uid in position.units and not position.units[uid].faction and "Recruitable" in f.talents
                  and "Untamed" not in f.talents and position.units[uid].done.targeted and f"take:{uid}" not in crept)


def _taken_shown(rules: Rules, end: EndState, board: Board, crept: frozenset[str]) -> EndState:
    """N315: ``end`` with each unit taken as an act of the moment shown under the turn's faction's control."""
    chips = {c.chip: c for c in end.chips}
    for mark in sorted(crept):
        uid = mark.removeprefix("take:")
        if mark.startswith("take:") and uid in board.units:
            chips[uid] = replace(chips.get(uid, ChipEnd(uid, health=board.units[uid].health)), control=rules.faction)
    return replace(end, chips=tuple(sorted(chips.values())))


def _recruited(rules: Rules, end: EndState) -> list[EndState]:
    """N122: ``end`` with every choice of the units Recruitable lets the turn's faction take."""
    position = rules.position
    fallen = {c.chip for c in end.chips if c.defeated or c.discarded}
    able = sorted(uid for uid, u in position.units.items()
                  if "Recruitable" in u.talents and "Untamed" not in u.talents and not u.faction
                  and u.done.targeted and position.placed(uid) and uid not in fallen)
    ends = []
    for taken in product((False, True), repeat=len(able)):
        chips = {c.chip: c for c in end.chips}
        for uid, take in zip(able, taken):
            if take:
                was = chips.get(uid, ChipEnd(uid, health=position.units[uid].health))
                chips[uid] = replace(was, control=rules.faction)
        ends.append(replace(end, chips=tuple(sorted(chips.values()))))
    return ends


# ------------------------------------------------------------------------------- Spires Fire


def _fire_targets(rules: Rules, board: Board, s: Tower) -> list[str]:
    """Spires Fire: the turn's units on map hexes within range; Flying only for AD or Flying;
    Camouflage only for an adjacent spire."""
    return sorted(
        u.id
        for u in board.units.values()
        if u.faction == rules.faction
        and not u.free
        and not u.in_gate
        and not u.campfire
        and _flying_ok(rules, board, s, u)
        and not _shielded(rules, board, s, u, u.node)
        and not talents.says("sshield", u, rules, s, u)
        and rules.within(s.at, u.node, s.range)
        and _along_arrow(rules, s, u.node)
    )


def _along_arrow(rules: Rules, s: Tower, node: str) -> bool:
    """The spire's talents let it fire at a unit on ``node`` (aims: N56 Directional Attack)."""
    return all(talents.results("aims", s, rules, s, node))


def _fire_ranked(
    rules: Rules, board: Board, s: Tower, die: Die, chips: list[str]
) -> dict[str, tuple[int, str]]:
    """AI spire priority, defeat/damage read by ai-spire-odds (possible or likely)."""
    ranked = {}
    for c in chips:
        defeat, damage = _spire_can(rules, board, s, die, c)
        ranked[c] = _rank(_spire_priorities(rules), board.units[c].kind.value, defeat, damage)
    return ranked


def _spire_can(rules: Rules, board: Board, s: Tower, die: Die, chip: str) -> tuple[bool, bool]:
    """Whether an AI spire counts on defeating, and on damaging, the unit (ai-spire-odds)."""
    odds = die.totals(s.dice)
    likely = rules.readings["ai-spire-odds"] == "likely"
    t = board.units[chip]

    def holds(test: Callable[[int], bool]) -> bool:
        p = sum((q for total, q in odds.items() if test(total)), Fraction(0))
        return p >= Fraction(1, 2) if likely else p > 0

    return (holds(lambda total: _shot(rules, board, s, chip, total) >= t.health + t.forts),
            holds(lambda total: _shot(rules, board, s, chip, total) >= 1))


def _fire_allowed(rules: Rules, board: Board, s: Tower, die: Die) -> tuple[list[str], tuple[Target, ...]]:
    chips = _fire_targets(rules, board, s)
    if not chips or not rules.ai(s.faction):
        return chips, tuple(Target(c) for c in chips)
    ranked = _fire_ranked(rules, board, s, die, chips)
    best = min(p for p, _ in ranked.values())
    allowed = [c for c in chips if ranked[c][0] == best]
    flying = [c for c in allowed if _flies(rules, board, board.units[c])]
    if talents.says("prefers_flying", s) and flying:  # spire_prefers: Air Defense's AI wording
        allowed = flying
    return allowed, tuple(Target(c, p, cat) for c, (p, cat) in ranked.items())


Choices = tuple[tuple[str, str], ...]


@dataclass
class _Line:
    """One line of play through the step so far: its board, its probability, one way to get it."""

    board: Board
    probability: Fraction
    shots: tuple[Shot, ...]


def _shoot(
    rules: Rules, line: _Line, sid: str, die: Die, choices: Choices, again: bool = False, quaked: bool = False,
    wallops: bool = False, removal: str | None = None,
) -> Iterator[tuple[Choices, _Line, bool]]:
    """One spire's shot: each allowed target, each total of its dice (no retaliation); with it, whether
    a unit it hit still stands undefeated (N45). ``again``: Repeater's additional attack, a player's
    spire's choice; ``quaked``: its Quake is done (N70); ``wallops``: it could have used Wallop instead,
    so its shot is a choice too (N77)."""
    s = line.board.spires[sid]
    allowed = [] if _fire_over(rules, line.board) else _fire_allowed(rules, line.board, s, die)[0]
    if not allowed:
        yield choices, line, False
        return
    walloped = _ai_wallops(rules, line.board, s, die, allowed)  # N77: instead of the shot, no Quake
    volley = s.has("Multi-Target")
    for target in [] if quaked else walloped:
        picked = choices + ((sid, target),) if len(walloped if volley else allowed) > 1 else choices  # N360
        for more, after in _wallop(rules, line, s, target):
            yield picked + more, after, False
    if walloped == allowed or (volley and walloped and not quaked):  # N360: no volley then
        return
    fewest = [] if quaked else _quakes(rules, line.board, s)
    for rid in fewest:  # N70: before the attack, each spire tied for the fewest an outcome
        b = line.board.copy()
        b.spires[rid] = b.spires[rid].without({0})
        picked = choices + ((sid, rid),) if len(fewest) > 1 else choices
        yield from _shoot(rules, _Line(b, line.probability, line.shots), sid, die, picked, again, True)
    if fewest:
        return
    chosen = [] if quaked else _player_quakes(rules, line.board, s)
    for rid in chosen:  # N166: or none, the shot below
        b = line.board.copy()
        picked = choices + ((sid, rid),) if len(chosen) > 1 else choices
        if rid in b.units:  # N326: in the shot's exchange
            yield from _shoot(rules, _Line(b, line.probability, line.shots), sid, die, picked, again, True, removal=rid)
            continue
        if rid in b.spires:
            b.spires[rid] = b.spires[rid].without({0})
        else:  # N145: a face-down landmark
            b.lifted = b.lifted | {rid}
        yield from _shoot(rules, _Line(b, line.probability, line.shots), sid, die, picked, again, True)
    if _volleys(s):  # N43: one roll for every target, no choice
        chips = _fire_targets(rules, line.board, s)
        area = _volley_splash_area(rules, line.board, s, chips)  # N135
        mine = (again or wallops) and not rules.ai(s.faction)  # a player's additional volley is a choice
        picked = choices + tuple((sid, c) for c in chips) if mine else choices
        for (total, hushed), p in _rolls(die, s.dice, talents.says("faces", s)).items():
            shots = tuple(Shot(sid, c, _shot(rules, line.board, s, c, total), False, mine) for c in chips)
            ways = [(splash, paid, gang, absorb, armour)
                    for splash, paid, gang, absorb in product(
                        _spire_splashes(rules, line.board, s, area), _volley_payments(rules, line.board, shots),
                        gang_choices(rules, line.board, _blastable(rules, line.board, [*chips, *area])),
                        absorb_choices(rules, line.board, _blastable(rules, line.board, [*chips, *area])))
                    for armour in _volley_armour(rules, line.board, chips, area if splash else [])]
            for splash, paid, gang, absorb, armour in ways:
                b = line.board.copy()
                _pay(b, shots, paid)
                before = dict(b.units)
                log = Log(before=before, gang=gang, purse=dict(b.source), absorb=absorb,  # N116: paid out of what is left
                          armour=armour)
                _remove_health(rules, b, log, s, removal)  # N326
                felled = {c for c in (area if splash else [])  # N135: the splash first, once a unit
                          if hurt(rules, b, log, c, 1, sid, SPLASH, s.faction, _spire_foe(rules, s, line.board.units[c]))}
                if felled & set(paid):  # N135: no Source for a hit that never lands
                    continue
                fell = [shot.target in felled or hurt(rules, b, log, shot.target, 0 if shot.target in paid else shot.damage,
                                                      sid, SPIRE_FIRE, s.faction) for shot in shots]
                _detonate(rules, b, log, _stripping(rules, s))  # N147
                if {u for u, _ in log.paid_for} != gang or {(u, how) for u, _, how in log.shed} != armour:  # N116, N136
                    continue
                if not _absorbed_as_chosen(log):  # N119
                    continue
                for shot in shots:
                    _channel(rules, b, line.board, shot.target)
                _rob(rules, b, log)  # N112, N113: after Channel's gains
                for shot in shots:
                    _silence(b, shot.target, hushed)
                _degrade(b, sid)
                _inferno(rules, b, sid, len(line.board.spires[sid].upgrades))
                volley = ((sid, "Splash"),) if splash and not rules.ai(s.faction) else ()
                for invig, after in _invigorations(rules, b, log, sid):  # N97, N118
                    yield (picked + volley + _against(sid, tuple((c, "Sourcefield") for c in sorted(paid))
                           + _armour_choices(frozenset(u for u, _ in armour)) + tuple(sorted(log.paid_for))) + invig,
                           _Line(after, line.probability * p, line.shots + shots), not all(fell))
        return
    chosen = len(allowed) > 1 or ((again or wallops) and not rules.ai(s.faction))
    for target in allowed:
        if target in walloped:
            continue
        picked = choices + ((sid, target),) if chosen else choices
        area = _spire_splash_area(rules, line.board, s, target)
        for (total, hushed), p in _rolls(die, s.dice, talents.says("faces", s)).items():
            amount = _shot(rules, line.board, s, target, total)
            shot = Shot(sid, target, amount, False, chosen)
            for splash, paid, gang, armour, absorb in product(_spire_splashes(rules, line.board, s, area),
                                                              _volley_payments(rules, line.board, (shot,)),
                                                              gang_choices(rules, line.board, _blastable(rules, line.board, [target, *area])),
                                                              _armour_sets(rules, line.board, [target, *area]),
                                                              absorb_choices(rules, line.board, _blastable(rules, line.board, [target, *area]))):
                b = line.board.copy()
                _pay(b, (shot,), paid)
                log = Log(before=dict(b.units), gang=gang, purse=dict(b.source), absorb=absorb,  # N116: paid out of what is left
                          armour=frozenset((c, SPIRE_FIRE if c == target else SPLASH) for c in armour))  # N149: N117 as it began
                _remove_health(rules, b, log, s, removal)  # N326
                fell = hurt(rules, b, log, target, 0 if paid else amount, sid, SPIRE_FIRE, s.faction)
                for c in area if splash else []:  # N75: distinct from the target, so in any order
                    hurt(rules, b, log, c, 1, sid, SPLASH, s.faction, _spire_foe(rules, s, line.board.units[c]))
                _detonate(rules, b, log, _stripping(rules, s))  # N147
                if {u for u, _ in log.paid_for} != gang or not _shed_as_chosen(log, armour):  # N116, N136
                    continue
                if not _absorbed_as_chosen(log):  # N119
                    continue
                _channel(rules, b, line.board, target)
                _rob(rules, b, log)  # N112, N113: after Channel's gains
                _silence(b, target, hushed)
                _degrade(b, sid)
                _inferno(rules, b, sid, len(line.board.spires[sid].upgrades))
                mine = ((sid, "Splash"),) if splash and not rules.ai(s.faction) else ()
                for invig, after in _invigorations(rules, b, log, sid):  # N97, N118
                    yield (picked + mine + _against(sid, tuple((c, "Sourcefield") for c in paid) + _armour_choices(armour)
                           + tuple(sorted(log.paid_for))) + invig,
                           _Line(after, line.probability * p, line.shots + (shot,)), not fell)


def _remove_health(rules: Rules, board: Board, log: Log, s: Tower, removal: str | None) -> None:
    """N326: a player's Quake removes 1 health from the landmark minion ``removal``, no damage, before the
    shot's hits."""
    if removal is not None:
        hurt(rules, board, log, removal, 1, s.id, REMOVED, s.faction, _spire_foe(rules, s, board.units[removal]))


def _stripping(rules: Rules, s: Tower) -> tuple[str, ...]:
    """N147: the spire, if its shot takes upgrades off it or gives it one (N50 Degradation, N68 Inferno):
    changed in the exchange, no blast reaches it."""
    forest = rules.position.hexes[s.at].terrain is Terrain.FOREST
    return (s.id,) if s.has("Degradation") or (s.has("Inferno") and forest) else ()


def _armour_sets(rules: Rules, board: Board, chips: list[str]) -> list[frozenset[str]]:
    """N136: each set of the units a shot hits whose owners discard Hidden Armor against that hit (a
    player's unit with it; a set naming one the hit leaves nothing to ignore is no branch of its own)."""
    armoured = sorted(c for c in set(chips) if c in board.units and board.units[c].has(HIDDEN_ARMOR)
                      and board.units[c].faction and not rules.ai(board.units[c].faction))
    return [frozenset(c for c, pick in zip(armoured, picks) if pick)
            for picks in product((False, True), repeat=len(armoured))]


def _shed_as_chosen(log: Log, armour: frozenset[str]) -> bool:
    """N136: every unit of the set did discard its Hidden Armor, against a hit of 1 or more."""
    return {u for u, _, _ in log.shed} == set(armour)


def _armour_choices(armour: frozenset[str]) -> Choices:
    """N136: the units that discarded Hidden Armor, as the result's choices name them, after the rest."""
    return tuple((u, HIDDEN_ARMOR) for u in sorted(armour))


def _volleys(s: Tower) -> bool:
    return talents.says("volley", s)


def _spire_splash_area(rules: Rules, board: Board, s: Tower, target: str) -> list[str]:
    """N75: the units beside the target of a spire with Splash."""
    if not talents.says("splashes", s):
        return []
    near = rules.position.neighbours(board.units[target].node)
    return sorted(u.id for u in board.units.values()
                  if u.node in near and u.id != target and not u.in_gate and not u.campfire)


def _volley_splash_area(rules: Rules, board: Board, s: Tower, chips: list[str]) -> list[str]:
    """N135: the units beside any unit a Multi-Target spire's volley hits, each once."""
    return sorted({c for chip in chips for c in _spire_splash_area(rules, board, s, chip)})


def _volley_armour(rules: Rules, board: Board, chips: list[str], splashed: list[str]) -> list[frozenset[tuple[str, str]]]:
    """N136, N135: each set of (unit, hit) a volley's player units with Hidden Armor ignore, at most one
    hit a unit: the volley's, or the splash's where it takes both."""
    armoured = sorted(c for c in {*chips, *splashed} if board.units[c].has(HIDDEN_ARMOR)
                      and board.units[c].faction and not rules.ai(board.units[c].faction))
    options = [[None, *([(c, SPIRE_FIRE)] if c in chips else []), *([(c, SPLASH)] if c in splashed else [])]
               for c in armoured]
    return [frozenset(pick for pick in picks if pick) for picks in product(*options)]


def _spire_foe(rules: Rules, s: Tower, t: Fighter) -> bool:
    """N75: ``t`` opposes the spire's faction: a landmark minion unless friendly to it."""
    if t.free:
        return t.friend != s.faction
    return opposing(rules.position, t.faction, s.faction)


def _spire_splashes(rules: Rules, board: Board, s: Tower, area: list[str]) -> list[bool]:
    """N75: a player's spire may splash or not; an AI's does where an opposing unit is beside."""
    if not area:
        return [False]
    if rules.ai(s.faction):
        return [any(_spire_foe(rules, s, board.units[c]) for c in area)]
    return [False, True]


def _volley_payments(rules: Rules, board: Board, shots: tuple[Shot, ...]) -> list[tuple[str, ...]]:
    """N76: each set of the units hit that their factions may pay off together (Sourcefield)."""
    payable = [shot for shot in shots if _pays_off(rules, board, shot.target, shot.damage)]
    found = []
    for picks in product((False, True), repeat=len(payable)):
        paid = [shot for shot, pick in zip(payable, picks) if pick]
        owed: dict[str, int] = {}
        for shot in paid:
            faction = board.units[shot.target].faction
            owed[faction] = owed.get(faction, 0) + shot.damage
        if all(n <= board.source[f] for f, n in owed.items()):
            found.append(tuple(sorted(shot.target for shot in paid)))
    return found


def _pays_off(rules: Rules, board: Board, chip: str, amount: int) -> bool:
    """N76: a non-AI faction's unit with Sourcefield, shot for 1 or more its faction has."""
    t = board.units[chip]
    return talents.says("may_cancel", t, rules, board, t, amount)


def _pay(board: Board, shots: tuple[Shot, ...], paid: tuple[str, ...]) -> None:
    """N76: the Source for the shots paid off, before any gain."""
    for shot in shots:
        if shot.target in paid:
            board.source[board.units[shot.target].faction] -= shot.damage


def _fire(rules: Rules, line: _Line, s: Tower, die: Die, choices: Choices) -> Iterator[tuple[Choices, _Line]]:
    """A spire's turn to fire: its shot, then Repeater's additional attack (N45) where a unit it hit
    still stands: a player's spire may make it, an AI's does. A player's Wallop spire may use that
    instead of its shot (N77)."""
    beside = _player_wallops(rules, line.board, line.board.spires[s.id])
    for uid in beside:
        for more, after in _wallop(rules, line, line.board.spires[s.id], uid):
            yield choices + ((s.id, "Wallop"), (s.id, uid)) + more, after
    for picked, shot, standing in _shoot(rules, line, s.id, die, choices, wallops=bool(beside)):
        now = shot.board.spires[s.id]  # N50: Degradation may have left it no die
        aim = not _fire_over(rules, shot.board) and now.dice >= 1 and _fire_allowed(rules, shot.board, now, die)[0]
        if not (standing and talents.says("again", s) and aim):
            yield picked, shot
            continue
        if not rules.ai(s.faction):
            yield picked, shot
        for picked_again, shot_again, _ in _shoot(rules, shot, s.id, die, picked, again=True):
            yield picked_again, shot_again


def _beside(rules: Rules, board: Board, s: Tower) -> list[str]:
    """N77: the units of the turn's faction on the map beside the spire, landmark minions and campfired
    units aside."""
    return sorted(u.id for u in board.units.values()
                  if u.faction == rules.faction and not u.free and not u.in_gate
                  and not u.campfire and rules.distance(s.at, u.node) == 1)


def _player_wallops(rules: Rules, board: Board, s: Tower) -> list[str]:
    """N77: the units a player's Wallop spire, about to fire, may wallop."""
    if not s.has("Wallop") or rules.ai(s.faction) or s.defeated or s.dice < 1 or _fire_over(rules, board):
        return []
    return _beside(rules, board, s)


def _ai_wallops(rules: Rules, board: Board, s: Tower, die: Die, allowed: list[str]) -> list[str]:
    """N77: the targets an AI Wallop spire would shoot at that it wallops instead: heroes beside it that
    it does not count on defeating; a volley's, among every unit it may fire at (N360)."""
    if not s.has("Wallop") or not rules.ai(s.faction):
        return []
    near = _beside(rules, board, s)
    aimed = _fire_targets(rules, board, s) if _volleys(s) else allowed
    return [c for c in aimed if c in near and board.units[c].kind is Kind.HERO
            and not _spire_can(rules, board, s, die, c)[0]]


def _wallop(rules: Rules, line: _Line, s: Tower, uid: str) -> Iterator[tuple[Choices, _Line]]:
    """N77: 1 damage to the unit, then, standing, a teleport to each hex allowed (a choice where
    several), and the spire flipped."""
    for armour, absorb, gang in product(_armour_sets(rules, line.board, [uid]),  # N136: the 1 is damage dealt, to ignore or not
                                        absorb_choices(rules, line.board, _blastable(rules, line.board, [uid])),  # N119, N147
                                        gang_choices(rules, line.board, _blastable(rules, line.board, [uid]))):  # N116: if the 1 or the landing fells it
        b = line.board.copy()
        log = Log(armour=frozenset((c, SPIRE_FIRE) for c in armour), absorb=absorb, gang=gang, purse=dict(b.source))
        hurt(rules, b, log, uid, 1, s.id, SPIRE_FIRE, s.faction)
        _detonate(rules, b, log)  # N147: the unit fell to the 1, where it stood
        _rob(rules, b, log)  # N112, N113
        if not _shed_as_chosen(log, armour) or not _absorbed_as_chosen(log):  # N136, N119
            continue
        for invig, promoted in _invigorations(rules, b, log):  # N97, N118: once the 1 is dealt
            for more, after in _walloped(rules, line, s, uid, promoted, uid in b.units and promoted.units[uid].chip
                                         == line.board.units[uid].chip, log):
                yield more + _armour_choices(armour) + invig, after


def _walloped(rules: Rules, line: _Line, s: Tower, uid: str, b: Board, whole: bool,
              log: Log) -> Iterator[tuple[Choices, _Line]]:
    """N77: once the 1 is dealt, the spire flipped and the unit, standing, teleported; N134: what it takes
    where it lands, unless a group showed its next chip (``whole`` false); N116: the Press Gang payment
    ``log.gang`` chose is made, by the 1 or the landing, and listed last."""
    paid = tuple(sorted(log.paid_for))
    b.spires[s.id] = replace(b.spires[s.id], flipped=True)
    shot = Shot(s.id, uid, 1, False, not rules.ai(s.faction), "Wallop")
    landings = _landings(rules, b, s, uid) if uid in b.units else []  # a group's next chip stands
    if uid in b.units and b.units[uid].has(CUMBERSOME) and b.units[uid].kind is Kind.HERO:
        landings = []  # N88: it took 0 and holds the item: no talent teleports it
    if not landings:
        if {u for u, _ in log.paid_for} == log.gang:
            yield paid, _Line(b, line.probability, line.shots + (shot,))
        return
    for node in landings:
        moved = b.copy()
        moved.units[uid] = replace(moved.units[uid], node=node)
        met = _explosives(rules, line.board, node)  # N274: they go off, a group's next chip shown too
        moved.exploded = moved.exploded | set(met)
        picked = ((s.id, node),) if len(landings) > 1 else ()
        for faces in _unit_blasts(rules, moved, uid, met) if whole else [()]:
            odds = line.probability * face_odds(rules, moved, faces)
            for shed, landed, fee in _landed(rules, line.board, moved, uid, node, log, faces) if whole else [((), moved, ())]:
                if {u for u, _ in (*log.paid_for, *fee)} == log.gang:
                    yield picked + shed + paid + fee, _Line(landed, odds, line.shots + (replace(shot, to=node),))


def _landed(rules: Rules, before: Board, moved: Board, uid: str, node: str,
            wallop: Log, faces: tuple[tuple[str, str, int], ...] = ()) -> list[tuple[Choices, Board, Choices]]:
    """N134: the board once the unit Wallop teleported onto ``node`` took what the chips beside it deal
    there (as N132's, counted in ``before``; an Explosion chip's the face ``faces`` gives, N274); with Hidden
    Armor still held, a player's may ignore it; the Press Gang payment its defeat made (N116, out of what
    Wallop's 1 left)."""
    sources = _moving_hurts(rules, before, ((uid, node),), {(u, c): f for u, c, f in faces}).get(uid, {})
    if len(sources) > 1:
        sources = {k: n for k, n in sources.items() if not _peaceful(rules, moved, k, uid) and not heals(rules, k, uid)}
    if not sources:
        _refresh(rules, before, moved, wallop, uid, node, None)  # N264
        return [((), moved, ())]
    src = min(sources)
    credit = (moved.units[src].faction if src in moved.units else moved.spires[src].faction if src in moved.spires else "")
    u = moved.units[uid]
    kin = u.friend == credit if u.free else not opposing(rules.position, credit, u.faction)
    found = []
    for armour in _armour_sets(rules, moved, [uid]):
        b = moved.copy()
        log = Log(armour=frozenset((c, MOVING) for c in armour), gang=wallop.gang, purse=dict(wallop.purse or {}),
                  spent=dict(wallop.spent))
        fell = hurt(rules, b, log, uid, sum(sources.values()), src, MOVING, credit, bool(credit) and not kin)
        _detonate(rules, b, log)  # N147: it fell where it landed
        if not _shed_as_chosen(log, armour):
            continue
        hero = b.units.get(src) if fell else None  # N138: a hero whose talent defeated it may level up
        options = level_options(rules, b, hero) if hero is not None and hero.kind is Kind.HERO else ()
        for i in range(len(options)) if options not in ((), ("not-adjudicated",)) else [None]:
            after = b.copy()
            if i is not None:
                _level_up(rules, after, log, src, Chooser((i,)))
            found.append((_armour_choices(armour), after, tuple(sorted(log.paid_for))))
    return found


def _landings(rules: Rules, board: Board, s: Tower, uid: str) -> list[str]:
    """N77: the free map hexes up to 3 from the spire that the unit's allowance admits and that lead to
    its mark; the AI's, the farthest from its mark. N89: the allowance it has now, by the talents it
    still holds."""
    position = rules.position
    now = board.units[uid]
    unit = replace(position.units[uid], talents=tuple(t for t in now.talents if now.has(t)))
    held = {u.node for u in board.units.values()} | {t.at for t in board.spires.values()}
    held |= {landmark.at for landmark in position.landmarks} | {chip.at for chip in position.chips}
    to_mark = movement.distances(position, unit)
    free = [h for h, hx in position.hexes.items()
            if h != s.at and h not in held and h in to_mark and hx.terrain.level <= movement.allowance_level(unit)
            and (rules.distance(s.at, h) or 4) <= 3]
    if rules.ai(s.faction) and free:
        far = max(to_mark[h] for h in free)
        free = [h for h in free if to_mark[h] == far]
    return sorted(free)


SILENCING = ("miss", "2")  # Silencer: "If this spire rolls a miss or a 2 on any of its attack dice"


def _rolls(die: Die, dice: int, silencer: bool) -> dict[tuple[int, bool], Fraction]:
    """Every roll of the dice, face by face: (total, whether a Silencer spire's dice show a miss or a 2)."""
    odds: dict[tuple[int, bool], Fraction] = {}
    for faces in product(die.faces, repeat=dice):
        key = (sum(f.damage for f in faces), silencer and any(f.face in SILENCING for f in faces))
        odds[key] = odds.get(key, Fraction(0)) + Fraction(1, len(die.faces) ** dice)
    return odds


def _channel(rules: Rules, board: Board, before: Board, chip: str) -> None:
    """N53: a spire's attack on a unit with Channel gains its faction 2 Source (not the AI's)."""
    t = before.units[chip]
    gain = talents.total("attacked_gain", t, rules, t)
    if gain:
        _gain(rules, board, Log(), t.faction, Reward(source=gain))


def _degrade(board: Board, sid: str) -> None:
    """N50: Degradation, "After this spire attacks, remove its bottom 2 upgrades"."""
    s = board.spires[sid]
    if s.has("Degradation"):
        board.spires[sid] = s.without({0, 1})


def _quakes(rules: Rules, board: Board, s: Tower) -> list[str]:
    """N70: an AI spire with Quake on a mountain hex: the opposing spires within its range with the
    fewest upgrades (a bare one too)."""
    hexes = rules.position.hexes
    if not (s.has("Quake") and rules.ai(s.faction) and hexes[s.at].terrain is Terrain.MOUNTAINS):
        return []
    near = [r for r in board.spires.values() if r.id != s.id and not r.defeated
            and opposing(rules.position, s.faction, r.faction) and rules.within(s.at, r.at, s.range)]
    least = min((len(r.upgrades) for r in near), default=0)
    return sorted(r.id for r in near if len(r.upgrades) == least)


def _player_quakes(rules: Rules, board: Board, s: Tower) -> list[str]:
    """N166: a player's spire with Quake on a mountain hex: the opposing spires within its range that have
    an upgrade to remove, and (N145) the face-down landmarks within it still in play, any one of them."""
    hexes = rules.position.hexes
    if not (s.has("Quake") and not rules.ai(s.faction) and hexes[s.at].terrain is Terrain.MOUNTAINS):
        return []
    spires = [r.id for r in board.spires.values() if r.id != s.id and not r.defeated and r.upgrades
              and opposing(rules.position, s.faction, r.faction) and rules.within(s.at, r.at, s.range)]
    hidden = [m.id for m in rules.position.landmarks if not m.revealed and m.id not in board.lifted
              and rules.within(s.at, m.at, s.range)]
    minions = [u.id for u in board.units.values() if u.kind is Kind.LANDMARK_MINION  # N326
               and rules.within(s.at, u.node, s.range)]
    return sorted(spires + hidden + minions)


def _inferno(rules: Rules, board: Board, sid: str, before: int) -> None:
    """N68: Inferno, "If this spire is on a forest hex, after it attacks, it gains a ... upgrade"; N165:
    "if able", ``before`` the upgrades it held as it attacked."""
    s = board.spires[sid]
    hexes = rules.position.hexes
    if s.has("Inferno") and hexes[s.at].terrain is Terrain.FOREST:
        gained = rules.readings["inferno-upgrade"]
        capacity = next(t.capacity for t in rules.position.spires if t.id == sid)
        supply = rules.position.supply
        if capacity is not None and before >= capacity:
            return
        if supply is not None and sum(t.gained for t in board.spires.values()) >= supply.get(gained, 0):
            return
        board.spires[sid] = replace(s, upgrades=(*s.upgrades, gained), held=(*s.held, max(s.held, default=-1) + 1),
                                    gained=s.gained + 1)


def _silence(board: Board, uid: str, hushed: bool) -> None:
    """N44: the unit hit, if it stands, cannot attack for the rest of the turn."""
    if hushed and uid in board.units:
        board.units[uid] = replace(board.units[uid], silenced=True)


def spires_fire(position: Position, die: Die | None = None) -> FireStepResult:
    """Spires Fire: the opposing spires fire one at a time, in file order."""
    die = die or standard_die()
    rules = Rules.of(position, position.factions[position.turn.faction].controller is Controller.AI)
    start = start_board(position)
    rules.minions = not _wave_over(start)  # N137
    firing = [start.spires[s.id] for s in position.spires if opposing(position, s.faction, rules.faction)]
    firing = [s for s in firing if s.dice >= 1]  # a spire with no attack upgrade does not fire
    first = {s.id: _fire_allowed(rules, start, s, die)[1] for s in firing}
    listing = tuple(
        SpireTargets(s.id, s.faction, s.dice, s.range, first[s.id], rules.ai(s.faction))
        for s in firing
        if first[s.id]
    )
    Lines = dict[tuple[Choices, tuple[tuple[str, str, str], ...], tuple[object, ...]], _Line]  # N317: by choices, targets, board
    lines: Lines = {((), (), start.key()): _Line(start, Fraction(1), ())}
    for s in firing:
        after: Lines = {}
        for (choices, _, _), line in lines.items():
            for picked, shot in _fire(rules, line, s, die, choices):
                key = (picked, _aimed(shot.shots), shot.board.key())
                if key in after:
                    after[key].probability += shot.probability
                else:
                    after[key] = shot
        lines = after
    results: dict[tuple[Choices, tuple[tuple[str, str, str], ...], EndState], FireResult] = {}
    for (choices, aimed, _), line in lines.items():
        end = end_state(rules, start, line.board, False)
        known = results.get((choices, aimed, end))
        if known is None:
            results[(choices, aimed, end)] = FireResult(choices, end, line.probability, line.shots)
        else:
            results[(choices, aimed, end)] = replace(known, probability=known.probability + line.probability)
    return FireStepResult(rules.faction, listing, len(results), tuple(results.values()), die.name)


def _aimed(shots: tuple[Shot, ...]) -> tuple[tuple[str, str, str], ...]:
    """N317: the chips each of a line's spires fired at (or acted on), which tell its results apart."""
    return tuple(sorted({(s.spire, s.target, s.instead) for s in shots}))


# ------------------------------------------------------------------------- checking a sequence


class _Named(Chooser):
    """Takes the level-up choices a given sequence names, in order."""

    def __init__(self, names: list[str | None]) -> None:
        super().__init__(())
        self.names = names

    def pick(self, options: tuple[str, ...]) -> str | None:
        name = self.names.pop(0) if self.names else None
        if name not in options:
            raise ValueError(f"level-up {name!r} is not among {options}")
        return name


def replay(
    position: Position, ai: bool, sequence: tuple[AttackOutcome, ...], rolled: tuple[Rolled, ...] = ()
) -> tuple[EndState | None, list[str]]:
    """Play a step's sequence of attacks: the end it reaches, and every step the rules refuse; a
    retaliation of ``rolled``'s units totals the least of its totals (N87)."""
    rules = Rules.of(position, ai)
    rolls = {r.unit: (r.totals[0], r.top) for r in rolled}
    start = start_board(position)
    rules.minions = not _wave_over(start)  # N167
    board = start
    for i, given in enumerate(sequence, start=1):
        if rules.minions and _wave_over(board):
            return None, [f"attack {i}: the wave is already over"]
        if given.instead:  # N66, N71
            now = choice(rules, board, given.attacker)
            ways = {"Pacify": (now.calm, pacify), "Weak Point": (now.weak, weaken)}
            chips, deed = ways.get(given.instead, ((), pacify))
            if given.target not in chips:
                return None, [f"attack {i}: {given.attacker} may not {given.instead} {given.target} now"]
            played, board = deed(rules, board, given.attacker, given.target)
            if comparable(played) != comparable(given):
                return None, [f"attack {i}: plays out as {played}, not {given}"]
            continue
        if given.target not in choice(rules, board, given.attacker).allowed:
            return None, [f"attack {i}: {given.attacker} may not attack {given.target} now"]
        if given.redirected_to not in redirects(rules, board, given.target):
            return None, [f"attack {i}: no redirect to {given.redirected_to}"]
        try:
            # A splash shows only in its damage, and an attacker that fell to a Quick Counter (N55) deals
            # none: play the claimed choice where it is one, else the rules' own, and compare the outcome.
            splashes = splash_choices(rules, board, given.attacker, given.target)
            splash = given.splashed if given.splashed in splashes else splashes[0]
            if bool(given.pressed) not in press_choices(rules, board, given.attacker, given.target):
                return None, [f"attack {i}: no such Swashbuckler choice"]
            # N62: a player's Ram shows in what the attack removed; the rest of it is played and compared.
            rams = [r for r in ram_choices(rules, board, given.attacker, given.target)
                    if r is not None and any(r == index for _, index, _ in given.stripped)]
            armour = frozenset((u, how) for u, _, how in given.shed)  # N72
            unload = given.unloaded[0][1] if given.unloaded else ""  # N73
            # N95: a player's Rally shows only in what the attack promoted: the choice whose outcome is it.
            tries = [attack(rules, board, given.attacker, given.target, given.redirected_to,
                            _Named([lv.chosen for lv in given.level_ups]), splash, bool(given.forgone),
                            bool(given.pressed), bool(given.cancelled), rams[0] if rams else None, armour,
                            rolls.get(given.redirected_to or given.target), unload, rally,
                            frozenset(u for u, _ in given.paid_for), invig, absorb, power, faces,
                            frozenset(given.returned))  # N116, N118, N263, N334
                     for rally in rally_choices(rules, board, given.attacker, given.target)
                     for faces in blast_choices(rules, board, given.attacker, given.target, armour)  # N274
                     for power in power_choices(rules, board, _fallible(rules, board, given.attacker,
                                                                       given.target, given.redirected_to))
                     for invig in invigorate_choices(rules, board, _fallible(rules, board, given.attacker,
                                                                             given.target, given.redirected_to))
                     for absorb in absorb_choices(rules, board, _fallible(rules, board, given.attacker,
                                                                         given.target, given.redirected_to))]
            played, board = next(((o, b) for o, b in tries if comparable(replace(o, probability=None))
                                  == comparable(given)), tries[0])
            played = replace(played, probability=None)  # N87: the step's end has the chance
        except ValueError as error:
            return None, [f"attack {i}: {error}"]
        if comparable(played) != comparable(given):
            return None, [f"attack {i}: plays out as {played}, not {given}"]
    if not may_end(rules, board):
        return None, ["the step may not end there: a unit must still attack"]
    return end_state(rules, start, board, True), []


def comparable(o: AttackOutcome) -> AttackOutcome:
    """An outcome with its lists sorted, so that listing order does not matter."""
    return replace(
        o,
        damage=tuple(sorted(o.damage)),
        defeated=tuple(sorted(o.defeated)),
        revealed=tuple(sorted(o.revealed)),
        gains=tuple(sorted(o.gains)),
        level_ups=tuple(sorted(o.level_ups)),
    )
