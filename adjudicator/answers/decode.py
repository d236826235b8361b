"""Answer-set atoms → typed outcomes. The only module that reads clingo Symbols."""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cmp_to_key
from itertools import chain, combinations, product
from typing import TYPE_CHECKING

from clingo import Symbol, SymbolType

from adjudicator.position.chapter_rules import earthscape_id
from adjudicator.position.dice import Die
from adjudicator.position.model import Controller, Position, gate_node
from adjudicator.position.scenarios import chapters
from adjudicator.position.talents import PARTLY
from adjudicator.answers.moves import Act, Displacement, MoveOutcome, Strike, UnitOptions
from adjudicator.answers.notices import Notice
from adjudicator.answers.rolls import escape_rock_notice, rolls_uncounted
from adjudicator.answers.verdicts import ILLEGAL, LEGAL, MANDATORY, Judgement, Reason, known_reasons

if TYPE_CHECKING:  # the attack classes are imported where they are built: `moves` builds none
    from adjudicator.answers.attacks import (AttackOptions, AttackOutcome, Cannonball, ChipEnd, Damage, EndState, Razed,
                                             Roll6, Rolled, Shot, SpireTargets, StepEnd, StepSummary, Target)
    from adjudicator.facts.combat import Line

WAIT_TEXT = {
    "moved": "has already moved this turn",
    "campfire": "is in campfire mode",
    "landmark": "is a landmark minion; landmark minions do not move",
    "nucleus_moves_last": "moves after The Graft minions (chapter 5), and some have yet to move",
    "queens_blood": "has Queen's Blood and its fortress gate has fewer than 6 health: it cannot be deployed",
}
# What a talent that hurts moving units leaves out (asp/movement/harm.lp, hurt_unknown/3).
ESCAPE_DAMAGE = "the damage it deals the rider of a unit escaping invalid terrain, along the escape"
# What a talent acting once a unit's move ends leaves out (asp/movement/after.lp, after_unknown/1).
# What a talent defeating its minion at exactly 1 on its way leaves out where that route displaced a unit
# (asp/movement/harm.lp, one_open/2: Entropy).
ONE_DISPLACED = "what it deals as it defeats itself at exactly 1 health on a route that displaced a unit, to that unit"
DISPLACED_STRUCK = "the damage it deals, once its move ends, to a unit that move displaced, where that unit lands"
# What a talent striking a fortress gate once its unit's move ends leaves out where it brings the gate to 0.
GATE_FALLS = ("a fortress gate it brings to 0 health as units move: the game's end, or the gate's pillaging and "
              "the marks declared anew")
# What a talent dealing damage as its unit moves leaves out (asp/movement/scorch.lp, scorch_unknown/3),
# and where the unit is defeated on the hex where it deals it.
SCORCH_UNKNOWN = {
    "walk": "the damage it deals as a hero walks: a walk is no route, its first such hex is not counted",
    "escape": "the damage it deals as it escapes invalid terrain, along the escape",
    "displaced": "the damage it deals on a route that displaces an opposing unit: where that unit then stands",
    "fell": "whether a unit defeated as it moves onto a hex deals its damage there first",
    "pusher": ("its damage, where a minion's move displaces its unit, to that minion (beside it then) where the "
               "minion may be healed as it moves, takes other damage or dice on its way, or falls to it"),
    "landed": "the reward for a defeat it deals where another unit's move displaces its unit",
}
# Those of a unit a move displaces: their notices name the units that hold them.
DISPLACED_SCORCH = frozenset({SCORCH_UNKNOWN["pusher"], SCORCH_UNKNOWN["landed"]})
# What a die rolled before the move (Anarchy) leaves out for a unit with chips grouped beneath it.
GROUP_DISCARDED = ("what becomes of the chips grouped beneath a discarded unit (game-elements, Groups: they "
                   "\"remain grouped until the top unit is reduced to 0 health\"): the discard takes the group with it")
# What a talent reading the mover's health once its move ends leaves out where dice rolled on the way.
ROLLED_HEALTH = "what it does once its move ends, by its health then, after dice rolled on its way"
# A teleport onto a chip a unit stands on that the answer does not follow (core/reach.lp, rift_held/1).
RIFT_HELD = ("a hero's walk through or onto a chip another unit stands on, or a lone chip a unit stands on: "
             "the units it defeats or meets there are not counted")
# A hero's walk through hexes its talent opens that the answer does not follow (movement/hero.lp, pass_open/2).
PASS_OPEN = ("a hero's walk through the hexes its talent lets it move through, and Breakneck's closest ends, where "
             "moving hurts it or rolls it dice, where it may teleport, or for an elfinkaze moving as a hero: its "
             "walks are counted as without the talent")
# What a rider takes on its roost's way that the answer does not count (movement/harm.lp, rider_open/2).
RIDER_OPEN = ("what the way does to an elfinkaze its roost carries as the roost walks as a hero (FAQ-07: Toxic "
              "Secretion and Toxic Fumes hit both chips; a recovery, Refresh)")
# An item a hero drops as it takes damage on its way (hook mdrops/2: Cumbersome), "placed on the hero's hex".
ITEM_HEX = ("the item placed on the hex where the hero takes damage as it moves, a chip there (\"Units cannot move on "
            "or through a hex that contains any other ... chips\"): the rest of its walk, the later moves of the step and "
            "the later steps of the turn do not meet it, the boards after holding none")
# A hero's return that gives its gate its health (Queen's Blood), where its way home may cost it (after.lp, home_open/2).
HOME_OPEN = ("the health a return to the fortress gives its gate where moving may hurt the hero or roll it dice on its "
             "way home (its health as it arrives)")
# Two teleporting chips that land a unit on one hex and cost it differently (movement/harm.lp, rift_hurt_open/2).
RIFT_HURT = ("a unit that moving hurts, beside two chips that land it on the same hex: which one it enters, "
             "and so its damage, is not counted")
# A unit an act teleports, where the mover's own chip, moved, may hurt it, or its defeat there rewards a
# faction (movement/harm.lp, call_open/2).
CALL_OPEN = ("what the teleported unit takes where it lands from the acting unit's own chip once its move has "
             "ended elsewhere, and the reward for its defeat there")
# An item a unit keeps in the answer though it takes damage where a move displaces it (harm.lp, item_open/3).
ITEM_OPEN = "the item placed on a displaced hero's hex as it takes damage where it lands: the answer shows it kept"
# A unit's D6 once its move ends (asp/movement/rolls.lp, e6_open/3: Explosion) where it is not counted.
D6_OPEN = ("the D6 of a unit that moves beside the chip where its move also rolls other dice, heals it, teleports it, "
           "carries a rider, ends with a talent's act or damage, or where it holds Hidden Armor, Bio-Indefinite or "
           "Cumbersome; a unit its move displaces beside the chip (FAQ-07); a hero beginning beside the chip that "
           "walks off and back onto its hex: not counted, and the chip not discarded")
# Chapter 8's heal while moving, where another chip's talent may hurt the same unit (mend_unknown/1).
MEND_RULE = "narora-heal-graft-moving"
MEND_LEFT_OUT = "a unit both healed and hurt while moving: their order on one hex, and its fortifications"
# A recovery while moving (hook mends/4: Refresh) that the answer does not count (mend_open/4).
MEND_OPEN = {
    "harmed": "a unit that recovers and is hurt while moving: their order, and whether it has room below its health stat",
    "again": "a second recovery in one turn, of a unit displaced earlier in the turn",
}


def _mend_notice() -> Notice:
    """Chapter 8's heal while moving where the unit healed may be hurt too (asp/movement/harm.lp,
    mend_unknown/1): which comes first on one hex, and what its fortifications keep, is not counted."""
    rule = chapters()[8].rule(MEND_RULE)
    return Notice("", PARTLY, ("movement",), (), left_out=MEND_LEFT_OUT,
                  rule=f"chapter 8: {MEND_RULE}", text=rule.text)


_NAMES: dict[Symbol, str] = {}  # hex and unit names recur thousands of times per answer


def _act_chip(symbol: Symbol) -> tuple[str, str]:
    """An act's chip, and its ``to``: a pair (chip, hex or kind) where the act names two (shifts/5: Twister's
    landmark and hex; Radiate's unit and what it is given), else the chip alone."""
    if symbol.type is SymbolType.Function and not symbol.name and len(symbol.arguments) == 2:
        return _name(symbol.arguments[0]), _name(symbol.arguments[1])
    return _name(symbol), ""


def _name(symbol: Symbol) -> str:
    name = _NAMES.get(symbol)
    if name is None:
        name = _NAMES[symbol] = symbol.string if symbol.type is SymbolType.String else str(symbol)
        if len(_NAMES) > 100_000:
            _NAMES.clear()
    return name


# Each nested route read, by its Symbol: a unit's routes share their beginnings, the inner pairs, so
# each pair is read through clingo's C API once (a hero's hundreds of routes were most of its decoding).
_ROUTES: dict[Symbol, tuple[str, ...]] = {}


def _route(symbol: Symbol) -> tuple[str, ...]:
    """A nested route (Hk,(...,(O,start))) as its nodes in order, origin first."""
    outer: list[tuple[Symbol, str]] = []  # the pairs not read before, outermost first, with their last node
    found = _ROUTES.get(symbol)
    while found is None:
        if symbol.type is not SymbolType.Function or symbol.name != "":
            found = ()
            break
        pair = symbol.arguments  # read once: each read builds the list anew through clingo's C API
        if len(pair) != 2:
            found = ()
            break
        outer.append((symbol, _name(pair[0])))
        symbol = pair[1]
        found = _ROUTES.get(symbol)
    if len(_ROUTES) > 100_000:
        _ROUTES.clear()
    for pair, node in reversed(outer):
        found = _ROUTES[pair] = (*found, node)
    return found


@dataclass
class _UnitAtoms:
    """One unit's atoms of a movement answer set, gathered for decoding."""

    offers: list[tuple[str, str, Symbol]] = field(default_factory=list)  # kind, end, route
    d0: int | None = None
    waits: list[Symbol] = field(default_factory=list)
    disp: dict[Symbol, list[tuple[str, str, str]]] = field(default_factory=lambda: defaultdict(list))
    landing: dict[tuple[Symbol, str, str], list[str]] = field(default_factory=lambda: defaultdict(list))
    pred: dict[str, dict[str, list[str]]] = field(default_factory=lambda: defaultdict(lambda: defaultdict(list)))
    origin: dict[str, int] = field(default_factory=dict)
    via: dict[str, list[tuple[int, str]]] = field(default_factory=lambda: defaultdict(list))
    # A teleport (asp/core/reach.lp, jump/4): (node left, hex landed on) → the chips it may enter between them.
    rifts: dict[tuple[str, str], set[str]] = field(default_factory=lambda: defaultdict(set))
    felling: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # chip landed on → units there
    rift_held: set[str] = field(default_factory=set)  # teleporting talents whose defeats are not followed
    rift_hurt: set[str] = field(default_factory=set)  # teleporting talents whose chip entered is not counted
    home_open: set[str] = field(default_factory=set)  # talents whose gain on a return is not counted (home_open/2)
    rider_open: set[str] = field(default_factory=set)  # riders whose damage on the way is not counted
    # A unit an act teleports (call): (unit, hex) → what it takes there, and whether that defeats it.
    called: dict[tuple[str, str], tuple[int, bool]] = field(default_factory=dict)
    call_open: set[str] = field(default_factory=set)  # teleporting acts whose landing is not wholly counted
    items: set[str] = field(default_factory=set)  # items that leave the unit as it takes damage (mdrops/2)
    item_open: set[tuple[str, str]] = field(default_factory=set)  # (item, displaced unit) kept though hurt: not counted
    # Damage while moving (asp/movement/harm.lp): a route's damage and where it fell, for each damage
    # the escape before it takes (acc/5); a landing's damage and whether it defeats; a hurt hero's
    # damage at each end, and its walk's state graph.
    hurt: dict[Symbol, list[tuple[int, int, str | None]]] = field(default_factory=lambda: defaultdict(list))
    # An escape from invalid terrain that moving hurts: its damage (and where it fell) at each escape
    # end (eacc/4), and its state graph by (hex, damage taken) (estep/5).
    escape_hurt: dict[str, list[tuple[int, str | None]]] = field(default_factory=lambda: defaultdict(list))
    estep: dict[tuple[str, int], list[tuple[str, int]]] = field(default_factory=lambda: defaultdict(list))
    lhurt: dict[tuple[Symbol, str, str], tuple[int, bool]] = field(default_factory=dict)
    # (route, displaced unit, landing) → what each rider it carries takes there (lrider/7: Roost, FAQ-07), and
    # each such rider's roost.
    lrider: dict[tuple[Symbol, str, str], list[tuple[str, int, bool]]] = field(default_factory=lambda: defaultdict(list))
    roost_of: dict[str, str] = field(default_factory=dict)
    # A route's riders (Roost): the damage each takes as the route carries it, and whether it falls.
    carried: dict[Symbol, list[tuple[str, int, bool]]] = field(default_factory=lambda: defaultdict(list))
    hurt_ends: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    hpred: dict[tuple[str, int], list[tuple[str, int]]] = field(default_factory=lambda: defaultdict(list))
    unknown: set[tuple[str, str]] = field(default_factory=set)  # (talent, chip): damage not counted
    mend_unknown: bool = False  # a unit both healed and hurt while moving: not counted (heals/3)
    at_one: set[str] = field(default_factory=set)  # its talents a move may set off, leaving it at 1 health (one_way/2)
    # A minion whose talent defeats it at exactly 1 health on its way (harm.lp, one_falls/2: Entropy): the damage
    # K that does it (a fall with K taken is that talent's), and what it deals beside each hex it may so fall on.
    one_k: int | None = None
    one_hits: dict[str, dict[str, int]] = field(default_factory=lambda: defaultdict(dict))
    one_open: set[str] = field(default_factory=set)  # such talents whose route displaced a unit (one_open/2)
    mend_open: set[tuple[str, str, str]] = field(default_factory=set)  # (talent, chip, why): a recovery not counted
    # Dice rolled while moving (asp/movement/rolls.lp): a route's dice; a rolling hero's dice at each
    # end and on the way home, and its walk's state graph; dice not counted.
    rolls: dict[Symbol, int] = field(default_factory=dict)
    roll_ends: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    roll_home: dict[str, list[tuple[str, int]]] = field(default_factory=lambda: defaultdict(list))
    rpred: dict[tuple[str, int], list[tuple[str, int]]] = field(default_factory=lambda: defaultdict(list))
    # A walk on from a roost (asp/movement/hero.lp, roam_pred/5): its state graph by (hex, movement stat).
    roam_pred: dict[tuple[str, int], list[tuple[str, int]]] = field(default_factory=lambda: defaultdict(list))
    # An Incorporeal hero's walks (asp/movement/hero.lp, ipred/5, pass_home/4): its state graph by (hex, hexes
    # passed as a bit set), and the hexes it returns home from, by the set; the talents whose walks are not followed.
    ipred: dict[tuple[str, int], list[tuple[str, int]]] = field(default_factory=lambda: defaultdict(list))
    pass_home: dict[int, list[str]] = field(default_factory=lambda: defaultdict(list))
    pass_open: set[str] = field(default_factory=set)
    rolls_unknown: bool = False
    escape_rock: bool = False  # an escape crosses a floating rock that a route after it may re-enter
    # Dice rolled before its move (gamble/4: Anarchy): (talent, faces that discard it, faces); and whether
    # it has chips grouped beneath it, whose fate a discard leaves open (gamble_grouped/1).
    gambles: list[tuple[str, int, int]] = field(default_factory=list)
    gamble_grouped: bool = False
    held: str = ""  # what keeps an AI unit still (holds/2)
    # Once its move ends (asp/movement/after.lp): the damage each talent deals each chip beside each end,
    # the talents its player may leave unused, the life of each unit struck, whether a stay strikes,
    # and whether a displaced unit's damage is left uncounted. Immolate, Eruption: the chips each talent
    # deals the unit's health at each end, the most health it acts with there, and how the unit leaves.
    struck: dict[str, dict[str, dict[str, int]]] = field(default_factory=lambda: defaultdict(lambda: defaultdict(dict)))
    struck_life: dict[str, dict[str, set[str]]] = field(default_factory=lambda: defaultdict(lambda: defaultdict(set)))
    low: dict[str, dict[str, int]] = field(default_factory=lambda: defaultdict(dict))
    exits: dict[str, dict[str, str]] = field(default_factory=lambda: defaultdict(dict))
    # Disperse: the hexes each talent places the unit on at each end, and the chips it picks among there.
    places: dict[str, dict[str, dict[str, dict[str, int]]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(dict)))
    optional: set[str] = field(default_factory=set)
    stay_strikes: bool = False
    after_unknown: bool = False
    # An action before or after the move (after.lp): the chips each talent may act on before it, and at
    # each end after it, with how; what the unit then becomes; the talents its player may leave unused.
    before: list[tuple[str, str, str, str]] = field(default_factory=list)  # (talent, chip, to, how)
    acts: dict[str, dict[str, list[tuple[str, str, str]]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(list)))  # end → talent → (chip, how, to)
    then: dict[str, str] = field(default_factory=dict)
    turns: dict[str, str] = field(default_factory=dict)  # end → how a keel minion turns there (keel_turn/3)
    act_optional: set[str] = field(default_factory=set)
    bound: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # end → talents it must use there (must_use/3)
    stat_optional: set[str] = field(default_factory=set)  # mv_may/3: a stat add its player may leave
    # Damage dealt as it moves (asp/movement/scorch.lp): each offered route's hexes where each talent may
    # deal (its first; any, where its player chooses), and the chips it picks among on each; the talents
    # whose player may deal nothing; what is not counted, (talent, why).
    scorch: dict[Symbol, dict[str, dict[str, dict[str, int]]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(dict)))
    scorch_optional: set[str] = field(default_factory=set)
    scorch_unknown: set[tuple[str, str]] = field(default_factory=set)
    # What a unit an offered route displaces deals where it lands (scorch.lp, lscorched/7): (route, unit, hex)
    # → talent → chip → N, a chip the mover itself; the (unit, talent) pairs whose player may deal nothing.
    lscorch: dict[tuple[Symbol, str, str], dict[str, dict[str, int]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(dict)))
    lscorch_optional: set[tuple[str, str]] = field(default_factory=set)
    # A faction's Source as it moves (asp/movement/source.lp): each talent's price, what its faction holds as
    # the move begins, the units whose defeat by its doing rewards its faction, the units on each hex it may
    # pass through that lose Source to its talent (unit, faction, N, what the faction holds), and whether its
    # faction keeps it.
    prices: dict[str, int] = field(default_factory=dict)
    purse: int | None = None
    earns: set[str] = field(default_factory=set)
    passing: dict[str, list[tuple[str, str, int, int]]] = field(default_factory=lambda: defaultdict(list))
    pocket: bool = False
    rider_fell: dict[tuple[Symbol, str], str] = field(default_factory=dict)  # (route, rider) → the hex it falls on
    # Dice rolled once its move ends (asp/movement/rolls.lp: Explosion): end → the (chip, talent) it sets off;
    # (end, damage taken on its way) → its bands (dice, low, high, damage they deal, defeated); the (chip, talent)
    # whose roll is not counted.
    e6: dict[str, set[tuple[str, str]]] = field(default_factory=lambda: defaultdict(set))
    e6_bands: dict[tuple[str, int], list[tuple[int, int, int, int, bool]]] = field(default_factory=lambda: defaultdict(list))
    e6_open: set[tuple[str, str]] = field(default_factory=set)


@dataclass(frozen=True)
class Answer:
    """Decoded answer of one solve: options per queried unit, and who may move next."""

    options: dict[str, UnitOptions]
    next_units: frozenset[str]


@dataclass(frozen=True)
class Atoms:
    """A movement answer's shown atoms gathered by unit: read once, then each unit's options built
    from its own (a question asked again of a kept answer, adjudicator/questions/kept.py)."""

    units: dict[str, _UnitAtoms]
    next_units: frozenset[str]
    leading: frozenset[str]
    lives: dict[str, int]
    # (unit, hex) → the faction a defeat of it there by damage taken as units move rewards (source.lp, credit_to/3).
    credits: dict[tuple[str, str], str] = field(default_factory=dict)
    # spire → {what: the least damage that does it}: its bottom upgrade's kind removed, or 'defeated' (after.lp, sbreak/3).
    breaks: dict[str, dict[str, int]] = field(default_factory=dict)


def decode(symbols: Iterable[Symbol], starts: dict[str, str], queried: Iterable[str]) -> Answer:
    """The options of the ``queried`` units in a movement answer's shown atoms."""
    return unit_answer(gather(symbols), starts, queried)


def unit_answer(gathered: Atoms, starts: dict[str, str], queried: Iterable[str]) -> Answer:
    """The options of the ``queried`` units, from their atoms."""
    options = {uid: _unit_options(uid, gathered.units[uid], starts[uid], uid in gathered.leading, gathered.lives,
                                  gathered.credits, gathered.breaks)
               for uid in queried}
    return Answer(options, gathered.next_units)


def gather(symbols: Iterable[Symbol]) -> Atoms:
    """Each unit's atoms of a movement answer, and who may move next, who leads and struck lives."""
    atoms: dict[str, _UnitAtoms] = defaultdict(_UnitAtoms)
    next_units: set[str] = set()
    leading: set[str] = set()
    lives: dict[str, int] = {}
    credits: dict[tuple[str, str], str] = {}
    breaks: dict[str, dict[str, int]] = defaultdict(dict)
    for s in symbols:
        args = s.arguments
        unit = _name(args[0]) if args else ""
        a = atoms[unit]
        name = s.name  # read once: each read goes through clingo's C API
        if name == "offer":
            a.offers.append((args[1].name, _name(args[2]), args[3]))
        elif name == "d0":
            a.d0 = args[1].number
        elif name == "holds":
            a.held = args[1].name
        elif name == "wait":
            a.waits.append(args[1])
        elif name == "rdisp":
            a.disp[args[1]].append((_name(args[2]), _name(args[3]), _name(args[4])))
        elif name == "landing":
            a.landing[(args[1], _name(args[2]), _name(args[3]))].append(_name(args[4]))
        elif name == "pred":
            atoms[_name(args[1])].pred[args[0].name][_name(args[2])].append(_name(args[3]))
        elif name == "origin":
            a.origin[_name(args[1])] = args[2].number
        elif name == "via":
            a.via[_name(args[1])].append((args[3].number, _name(args[2])))
        elif name == "jump":
            a.rifts[(_name(args[1]), _name(args[2]))].add(_name(args[3]))
        elif name == "felling":
            a.felling[_name(args[1])].add(_name(args[2]))
        elif name == "rift_held":
            a.rift_held.add(args[1].string)
        elif name == "called_hurt":
            a.called[(_name(args[1]), _name(args[2]))] = (args[3].number, args[4].name == "fell")
        elif name == "loses_item":
            a.items.add(args[1].string)
        elif name == "item_open":
            a.item_open.add((args[1].string, _name(args[2])))
        elif name == "call_open":
            a.call_open.add(args[1].string)
        elif name == "rift_hurt_open":
            a.rift_hurt.add(args[1].string)
        elif name == "home_open":
            a.home_open.add(args[1].string)
        elif name == "rider_open":
            a.rider_open.add(_name(args[1]))
        elif name == "hurt_by":
            fell = args[4]
            a.hurt[args[1]].append((args[2].number, args[3].number,
                                    _name(fell.arguments[0]) if fell.name == "fell" else None))
        elif name == "escape_hurt":
            fell = args[3]
            a.escape_hurt[_name(args[1])].append((args[2].number, _name(fell.arguments[0]) if fell.name == "fell" else None))
        elif name == "estep":
            a.estep[(_name(args[3]), args[4].number)].append((_name(args[1]), args[2].number))
        elif name == "lhurt":
            a.lhurt[(args[1], _name(args[2]), _name(args[3]))] = (args[4].number, args[5].name == "fell")
        elif name == "lrider":
            a.lrider[(args[1], _name(args[2]), _name(args[4]))].append((_name(args[3]), args[5].number, args[6].name == "fell"))
            a.roost_of[_name(args[3])] = _name(args[2])
        elif name == "carried":
            a.carried[args[1]].append((_name(args[2]), args[3].number, args[4].name == "fell"))
            if args[4].name == "fell":
                a.rider_fell[(args[1], _name(args[2]))] = _name(args[4].arguments[0])
        elif name == "hurt_end":
            a.hurt_ends[_name(args[1])].append(args[2].number)
        elif name == "hpred":
            a.hpred[(_name(args[1]), args[2].number)].append((_name(args[3]), args[4].number))
        elif name == "hurt_unknown":
            a.unknown.add((_name(args[1]), _name(args[2])))
        elif name == "rolls":
            a.rolls[args[1]] = args[2].number
        elif name == "roll_end":
            a.roll_ends[_name(args[1])].append(args[2].number)
        elif name == "roll_home":
            a.roll_home[_name(args[1])].append((_name(args[2]), args[3].number))
        elif name == "ipred":
            a.ipred[(_name(args[1]), args[2].number)].append((_name(args[3]), args[4].number))
        elif name == "pass_home":
            a.pass_home[args[3].number].append(_name(args[2]))
        elif name == "pass_open":
            a.pass_open.add(args[1].string)
        elif name == "roam_pred":
            a.roam_pred[(_name(args[1]), args[2].number)].append((_name(args[3]), args[4].number))
        elif name == "rpred":
            a.rpred[(_name(args[1]), args[2].number)].append((_name(args[3]), args[4].number))
        elif name == "roll_unknown":
            a.rolls_unknown = True
        elif name == "mend_unknown":
            a.mend_unknown = True
        elif name == "one_k":
            a.one_k = args[1].number
        elif name == "one_hit":
            a.one_hits[_name(args[1])][_name(args[2])] = args[3].number
        elif name == "one_open":
            a.one_open.add(args[1].string)
        elif name == "one_way":
            a.at_one.add(_name(args[1]))
        elif name == "mend_open":
            a.mend_open.add((_name(args[1]), _name(args[2]), args[3].name))
        elif name == "escape_rock":
            a.escape_rock = True
        elif name == "struck":
            a.struck[_name(args[1])][_name(args[4])][_name(args[2])] = args[3].number
        elif name == "struck_life":
            a.struck_life[_name(args[1])][_name(args[3])].add(_name(args[2]))
        elif name == "after_low":
            a.low[_name(args[1])][_name(args[2])] = args[3].number
        elif name == "after_exit":
            a.exits[_name(args[1])][_name(args[3])] = args[2].name
        elif name == "after_place":
            a.places[_name(args[1])][_name(args[3])].setdefault(_name(args[2]), {})
        elif name == "after_pick":
            picks = a.places[_name(args[1])][_name(args[5])].setdefault(_name(args[2]), {})
            picks[_name(args[3])] = args[4].number
        elif name == "scorched":
            a.scorch[args[1]][_name(args[5])].setdefault(_name(args[2]), {})[_name(args[3])] = args[4].number
        elif name == "scorch_may":
            a.scorch_optional.add(_name(args[1]))
        elif name == "lscorched":
            a.lscorch[(args[1], _name(args[2]), _name(args[3]))][_name(args[6])][_name(args[4])] = args[5].number
        elif name == "lscorch_may":
            a.lscorch_optional.add((_name(args[1]), _name(args[2])))
        elif name == "scorch_unknown":
            a.scorch_unknown.add((_name(args[1]), args[2].name))
        elif name == "slife":
            lives[unit] = args[1].number
        elif name == "sbreak":
            breaks[unit][args[2].name] = args[1].number
        elif name == "aftermove_may":
            a.optional.add(_name(args[1]))
        elif name == "after_stay":
            a.stay_strikes = True
        elif name == "after_unknown":
            a.after_unknown = True
        elif name == "gamble":
            a.gambles.append((args[3].string, args[1].number, args[2].number))
        elif name == "e6":
            a.e6[_name(args[1])].add((_name(args[2]), args[3].string))
        elif name == "e6_band":
            a.e6_bands[(_name(args[1]), args[2].number)].append(
                (args[3].number, args[4].number, args[5].number, args[6].number, args[7].name == "fell"))
        elif name == "e6_open":
            a.e6_open.add((_name(args[1]), args[2].string))
        elif name == "gamble_grouped":
            a.gamble_grouped = True
        elif name == "before_act":
            chip, to = _act_chip(args[1])
            a.before.append((args[3].string, chip, to, args[2].name))
        elif name == "after_act":
            chip, to = _act_chip(args[2])
            a.acts[_name(args[1])][args[4].string].append((chip, args[3].name, to))
        elif name == "act_then":
            a.then[args[2].string] = args[1].name
        elif name == "keel_turn":
            a.turns[_name(args[1])] = args[2].name
        elif name == "act_may":
            a.act_optional.add(args[1].string)
        elif name == "must_use":
            a.bound[_name(args[1])].add(args[2].string)
        elif name == "mv_may":
            a.stat_optional.add(args[1].string)
        elif name == "price":
            a.prices[args[2].string] = args[1].number
        elif name == "purse":
            a.purse = args[1].number
        elif name == "earns":
            a.earns.add(_name(args[1]))
        elif name == "passing":
            a.passing[_name(args[1])].append((_name(args[2]), _name(args[3]), args[4].number, args[5].number))
        elif name == "pocket":
            a.pocket = True
        elif name == "credit_to":
            credits[(unit, _name(args[1]))] = _name(args[2])
        elif name == "next":
            next_units.add(unit)
        elif name == "leading":
            leading.add(unit)
    return Atoms(atoms, frozenset(next_units), frozenset(leading), lives, credits, dict(breaks))


def _unit_options(uid: str, a: _UnitAtoms, start: str, leading: bool, lives: dict[str, int],
                  credits: dict[tuple[str, str], str], breaks: dict[str, dict[str, int]]) -> UnitOptions:
    if a.waits:
        return UnitOptions(uid, (), a.d0, _wait_text(a.waits[0]))
    # outcome (and the units its teleports defeat) → {witness path: how many routes it stands for}
    grouped: dict[tuple[_Key, tuple[str, ...], _Robbed, _Robbed, int], dict[tuple[str, ...], int]] = defaultdict(dict)
    kinds: dict[tuple[_Key, tuple[str, ...], _Robbed, _Robbed, int], str] = {}
    for kind, end, route in a.offers:
        for key, path, routes in _paths(a, uid, start, kind, end, route):
            # A minion's route defeats the units on each chip it lands on (felling/3: never its start).
            felled = tuple(sorted({x for node in path[1:] for x in a.felling.get(node, ())})) if kind == "progress" else ()
            full = (key, felled, _robbing(a, path, key[1]), _crediting(a, uid, route, key, credits), _restat(route))
            grouped[full][path] = routes
            kinds[full] = kind
    outcomes = tuple(
        MoveOutcome(uid, end, kinds[full], displaced, path, sum(paths.values()), damage, defeated, rolls,
                    struck=struck, exit=exit, placed=placed, held=a.held if kinds[full] == "stay" else "",
                    felled=felled, landed=landed, acts=acts, carried=carried,
                    lost=tuple(sorted(a.items)) if damage > 0 else (),
                    turns="" if defeated else a.turns.get(end, ""), spent=spent,
                    earned=tuple(sorted(a.earns & {*felled, *(s.chip for s in struck if s.defeated)})),
                    robbed=robbed, pocket=a.pocket and bool(robbed), credited=credited, stat=stat)
        for full, paths in sorted(grouped.items())
        for (end, displaced, damage, defeated, rolls, scorch, carried), felled, robbed, credited, stat in [full]
        for path, landed in [_entering(a, min(paths), kinds[full] == "progress")]
        for struck, exit, placed, spent in _strikes(a, uid, end, kinds[full], defeated, lives.get(uid, 0) - damage,
                                                    lives, breaks, {d.to for d in displaced}, scorch)
        for acts in _acts_after(a, end, defeated)
        # The acts and talents of one outcome spend no more than its faction holds (source.lp, purse/2).
        if a.purse is None or spent + sum(act.cost for act in acts) <= a.purse
    )
    outcomes = tuple(rolled for m in outcomes for rolled in _ended_d6(a, m))
    before = tuple(sorted(Act("before", why, chip, how, a.then.get(why, ""), to, a.prices.get(why, 0), _earns(a, chip, how),
                              *a.called.get((chip, to), (0, False)))
                          for why, chip, to, how in a.before))
    acting = {why for why, _, _, _ in a.before} | {why for end in a.acts.values() for why in end}
    uncounted = tuple(
        Notice(talent, PARTLY, ("movement",), (chip,), left_out=ESCAPE_DAMAGE) for talent, chip in sorted(a.unknown)
    )
    if a.rolls_unknown:
        uncounted += (rolls_uncounted(),)
    if a.escape_rock:
        uncounted += (escape_rock_notice(),)
    if a.gamble_grouped:
        uncounted += tuple(Notice(why, PARTLY, ("movement",), (uid,), left_out=GROUP_DISCARDED)
                           for why in sorted({w for w, _, _ in a.gambles}))
    if a.mend_unknown:
        uncounted += (_mend_notice(),)
    scorch_open = a.scorch_unknown | {(why, "fell") for route, whys in a.scorch.items()
                                      for why, spots in whys.items() if any(f in spots for _, _, f in a.hurt.get(route, ()))}
    scorch_open |= {(why, "pusher") for why in _pushed_open(a, uid)}
    # A displaced unit's talent is named on the units that hold it (lscorched/7), its mover's on the mover.
    pushed = {why: tuple(sorted({x for (_, x, _), whys in a.lscorch.items() if why in whys})) for why, _ in scorch_open}
    uncounted += tuple(Notice(talent, PARTLY, ("movement",), pushed[talent] if SCORCH_UNKNOWN[why] in DISPLACED_SCORCH
                              else (uid,), left_out=SCORCH_UNKNOWN[why])
                       for talent, why in sorted(scorch_open))
    uncounted += tuple(Notice(talent, PARTLY, ("movement",), (chip,), left_out=D6_OPEN) for chip, talent in sorted(a.e6_open))
    uncounted += tuple(Notice(talent, PARTLY, ("movement",), (uid,), left_out=RIFT_HELD) for talent in sorted(a.rift_held))
    uncounted += tuple(Notice(talent, PARTLY, ("movement",), (uid,), left_out=PASS_OPEN) for talent in sorted(a.pass_open))
    uncounted += tuple(Notice(talent, PARTLY, ("movement",), (uid,), left_out=RIFT_HURT) for talent in sorted(a.rift_hurt))
    uncounted += tuple(Notice(talent, PARTLY, ("movement",), (uid,), left_out=HOME_OPEN) for talent in sorted(a.home_open))
    uncounted += tuple(Notice(item, PARTLY, ("movement",), (uid,), left_out=ITEM_HEX)
                       for item in sorted({i for m in outcomes for i in m.lost}))
    uncounted += tuple(Notice("Roost", PARTLY, ("movement",), (rider,), left_out=RIDER_OPEN) for rider in sorted(a.rider_open))
    uncounted += tuple(Notice(talent, PARTLY, ("movement",), (uid,), left_out=CALL_OPEN) for talent in sorted(a.call_open))
    uncounted += tuple(Notice(item, PARTLY, ("movement",), (chip,), left_out=ITEM_OPEN) for item, chip in sorted(a.item_open))
    uncounted += tuple(Notice(talent, PARTLY, ("movement",), (chip,), left_out=MEND_OPEN[why])
                       for talent, chip, why in sorted(a.mend_open))
    uncounted += tuple(Notice(talent, PARTLY, ("movement",), (uid,), left_out=ONE_DISPLACED) for talent in sorted(a.one_open))
    if a.after_unknown:
        uncounted += tuple(Notice(talent, PARTLY, ("movement",), (uid,), left_out=DISPLACED_STRUCK)
                           for talent in sorted({w for end in (*a.struck.values(), *a.struck_life.values(),
                                                               *a.places.values()) for w in end}))
    # A gate struck to 0 (game-elements, Fortress Gate Pillaging): what its defeat brings is not played.
    uncounted += tuple(Notice(talent, PARTLY, ("movement",), (uid,), left_out=GATE_FALLS) for talent in sorted(
        {w for m in outcomes for s in m.struck if _gate_fell(s)
         for w, chips in (*a.struck.get(m.end, {}).items(), *a.struck_life.get(m.end, {}).items()) if s.chip in chips}))
    # Dice rolled on the way (chapter 1's floating rocks) leave the unit's health then to chance.
    reading = {w for m in outcomes if m.rolls
               for w in (*a.struck_life.get(m.end, {}), *a.low.get(m.end, {}), *a.places.get(m.end, {}))}
    uncounted += tuple(Notice(talent, PARTLY, ("movement",), (uid,), left_out=ROLLED_HEALTH) for talent in sorted(reading))
    return UnitOptions(uid, outcomes, a.d0, leading=leading, notices=uncounted, before=before,
                       must_act=tuple(sorted(acting - a.act_optional)), declinable=tuple(sorted(a.stat_optional)),
                       gambles=tuple((why, Fraction(w, n)) for why, w, n in sorted(a.gambles)),
                       at_one=tuple(sorted(a.at_one)))


# What each part a unit's answer leaves out may change in a claim of its move (questions/dispute.py): the
# notices are per unit, a claim's verdict rests on its own move. On the way (damage, a heal, a teleport, a
# walk, the escape from invalid terrain): which moves are legal and where they end, so any claim. Once the
# move ends: what the outcomes it names do there, so a claim ending where such an outcome ends. The dice
# alone (rolls_uncounted) never overturn a claim: chance, not the player's choice.
ON_THE_WAY = frozenset({ESCAPE_DAMAGE, RIFT_HELD, PASS_OPEN, RIFT_HURT, RIDER_OPEN, MEND_LEFT_OUT, *MEND_OPEN.values(),
                        *SCORCH_UNKNOWN.values()})
ONCE_ENDED: dict[str, Callable[[MoveOutcome], bool]] = {
    GATE_FALLS: lambda m: any(_gate_fell(s) for s in m.struck),
    DISPLACED_STRUCK: lambda m: bool(m.displaced),
    ONE_DISPLACED: lambda m: m.defeated and bool(m.displaced),
    ITEM_OPEN: lambda m: bool(m.displaced),
    ROLLED_HEALTH: lambda m: m.rolls > 0,
    CALL_OPEN: lambda m: any(a.how == "call" for a in m.acts),
    GROUP_DISCARDED: lambda m: m.discarded,
    HOME_OPEN: lambda m: m.kind == "return",
    ITEM_HEX: lambda m: bool(m.lost),
}


def _gate_fell(strike: Strike) -> bool:
    """A strike that defeats a fortress gate (named by its node)."""
    return strike.defeated and strike.chip.startswith("gate:")


def claim_notices(options: UnitOptions, end: str) -> tuple[Notice, ...]:
    """The notices of ``options`` that may change the verdict on a claim of its unit's move ending on ``end``."""
    ending = [m for m in options.outcomes if m.end == end]
    return tuple(n for n in options.notices
                 if n.left_out in ON_THE_WAY or n == escape_rock_notice()
                 or (n.left_out in ONCE_ENDED and any(ONCE_ENDED[n.left_out](m) for m in ending)))


def _ended_d6(a: _UnitAtoms, m: MoveOutcome) -> tuple[MoveOutcome, ...]:
    """``m`` once the D6s its end sets off are rolled (e6/4, e6_band/8: Explosion): one outcome for each band of
    totals that leaves the unit alike, with its exact chance, the damage and defeat it deals after what it took on
    its way, and each chip discarded (Act 'explode'); ``m`` itself where its end rolls nothing, or it fell on its way."""
    from adjudicator.answers.attacks import Roll6  # the D6's chance (six equally likely faces: docs/dice.md)
    bands = a.e6_bands.get((m.end, m.damage), ()) if m.end in a.e6 and not m.defeated else ()
    if not bands:
        return (m,)
    acts = (*m.acts, *(Act("after", why, chip, "explode") for chip, why in sorted(a.e6[m.end])))
    return tuple(replace(m, damage=m.damage + dealt, defeated=fell, diced=dealt, chance=Roll6("", low, high, dice).chance, acts=acts)
                 for dice, low, high, dealt, fell in sorted(bands, key=lambda b: (b[3], b[1])))


def _earns(a: _UnitAtoms, chip: str, how: str) -> bool:
    """Whether a defeat the act deals ``chip`` rewards the unit's faction (source.lp, earns/2): an act that
    defeats (Consume) or deals damage (Magic-Like Missile)."""
    return how in ("defeat", "hurt") and chip in a.earns


def _acts_after(a: _UnitAtoms, end: str, defeated: bool) -> list[tuple[Act, ...]]:
    """What the unit's talents may do once its move ends on ``end`` (after_act/5): for each talent, one
    chip it acts on, each an outcome, or none where its player may leave it unused; nothing from a unit
    defeated on its way. A talent the unit must use acts wherever it can (before its move where it can
    then: adjudicate.py keeps only those outcomes)."""
    by_talent = a.acts.get(end, {})
    if defeated or not by_talent:
        return [()]
    choices: list[tuple[Act, ...]] = [()]
    for why, targets in sorted(by_talent.items()):
        acts = [Act("after", why, chip, how, a.then.get(why, ""), to, a.prices.get(why, 0), _earns(a, chip, how),
                    *a.called.get((chip, to), (0, False)))
                for chip, how, to in sorted(set(targets))]
        optional = why in a.act_optional and why not in a.bound.get(end, ())
        options: list[Act | None] = [None, *acts] if optional else list(acts)
        choices = [(*made, *((act,) if act else ())) for made in choices for act in options]
    return choices


# The Source each faction loses to a unit's talent as it passes their units (Incorporeal), by faction.
_Robbed = tuple[tuple[str, int], ...]


def _robbing(a: _UnitAtoms, path: tuple[str, ...], displaced: tuple[Displacement, ...]) -> _Robbed:
    """What the factions lose to the unit's talent along ``path`` (source.lp, passing/6): N for each unit on a
    hex it moves through, neither its start nor its end, that its move does not displace; no more than each
    holds, so that routes that take the same are one outcome."""
    pushed = {d.unit for d in displaced}
    lost: Counter[str] = Counter()
    held: dict[str, int] = {}
    # A hero's walk may pass a unit twice ("each active unit it passes through": once).
    for x, faction, n, purse in {p for node in path[1:-1] for p in a.passing.get(node, ())}:
        if x not in pushed:
            lost[faction] += n
            held[faction] = purse
    return tuple(sorted((f, min(n, held[f])) for f, n in lost.items()))


def _crediting(a: _UnitAtoms, uid: str, route: Symbol, key: _Key, credits: dict[tuple[str, str], str]) -> _Robbed:
    """The units damage taken as units move defeats in this outcome, each with the faction its reward goes to
    (source.lp, credit_to/3): the unit on the hex it falls on, a displaced unit where it lands, a rider where
    it falls on the route."""
    end, displaced, damage, defeated, _, _, carried = key
    # Defeated by its own talent at exactly 1 health (Entropy), it is credited to no one.
    falls = [(uid, end)] if defeated and not _self_felled(a, damage) else []
    falls += [(d.unit, d.to) for d in displaced if d.defeated]
    lands = {d.unit: d.to for d in displaced}  # a displaced roost's rider falls where it lands (lrider/7)
    falls += [(x, a.rider_fell.get((route, x)) or lands.get(a.roost_of.get(x, ""), "")) for x, _, fell in carried if fell]
    return tuple(sorted((x, credits[(x, h)]) for x, h in falls if (x, h) in credits))


def _entering(a: _UnitAtoms, path: tuple[str, ...], route: bool) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """``path`` with the chip each teleport entered shown before the hex it landed on, and the indices
    of those hexes: only a teleport enters a chip's hex, so a step onto one is always one. Where two
    chips would do, the first in name order; along a minion's route (``route``), the first sequence it
    may take (asp/movement/minion.lp): no chip entered twice or where the route stood, no landing on a
    chip it entered."""
    steps = list(zip(path, path[1:]))

    def chosen(i: int, entered: tuple[str, ...]) -> tuple[str, ...] | None:
        if i == len(steps):
            return ()
        left, landed = steps[i]
        if (left, landed) not in a.rifts:
            rest = chosen(i + 1, entered)
            return None if rest is None else ("", *rest)
        for chip in sorted(a.rifts[(left, landed)]):
            if route and (chip in entered or chip in path[: i + 1] or landed in entered):
                continue
            rest = chosen(i + 1, (*entered, chip))
            if rest is not None:
                return (chip, *rest)
        return None

    # A legal route was taken along some such sequence, and a hero's walk takes any chip: one is found.
    chips = chosen(0, ()) or ("",) * len(steps)
    shown, landings = list(path[:1]), []
    for chip, landed in zip(chips, path[1:]):
        if chip:
            landings.append(len(shown) + 1)
        shown.extend((chip, landed) if chip else (landed,))
    return tuple(shown), tuple(landings)


def _strikes(a: _UnitAtoms, uid: str, end: str, kind: str, defeated: bool, health: int, lives: dict[str, int],
             breaks: dict[str, dict[str, int]], landed: set[str], scorch: tuple[tuple[str, int], ...]
             ) -> list[tuple[tuple[Strike, ...], str, str, int]]:
    """What the move deals once it ends on ``end`` (asp/movement/after.lp), how the unit then leaves
    the board ('' where it stays on it) and the hex it places itself on ('' where none): one choice for
    each set of the talents its player may leave unused, and for each hex and chip a placing talent
    picks among (Disperse); nothing from a unit defeated on its way, or one that stayed without a walk
    away and back. ``health``: the unit's health once its move ends (its life less what it took on its
    way), which a talent may deal (Immolate), need to be low enough (Eruption) or take (Disperse).
    ``lives``, ``breaks``: what the chips struck can take (_tally).
    ``landed``: the hexes the units this move displaces land on, where it places itself on none.
    ``scorch``: what it dealt on its way (scorch.lp: Blaze), added to each choice. Each choice carries the
    Source its faction spends for the talents it uses (source.lp, price/3: a player's Eruption)."""
    fixed = a.struck.get(end, {})
    by_life = a.struck_life.get(end, {})
    exits = a.exits.get(end, {})
    low = a.low.get(end, {})
    # The solver offers the hexes free as the move began: one a unit this move displaced landed on is
    # not. A placing talent left no hex does not act at all (its other damage, Disperse's own, neither).
    places = {w: {spot: picks for spot, picks in spots.items() if spot not in landed}
              for w, spots in a.places.get(end, {}).items()}
    talents = {w for w in (*fixed, *by_life, *exits, *places)
               if (w not in low or health <= low[w]) and (w not in places or places[w])}
    burnt: Counter[str] = Counter()
    for chip, n in scorch:
        burnt[chip] += n
    if defeated or not talents or (kind == "stay" and not a.stay_strikes):
        return [(_tally(burnt, lives, breaks), "", "", 0)]
    # The unit's own life is its health once its move ends (Disperse's damage to itself).
    lives = {**lives, uid: health}
    loose = a.optional - a.bound.get(end, set())  # must_use/3: not to be left unused there
    optional = sorted(talents & loose)
    forced = sorted(talents - loose)
    choices = []
    for k in range(len(optional) + 1):
        for used in combinations(optional, k):
            dealt: Counter[str] = Counter()
            for why in (*forced, *used):
                dealt.update(fixed.get(why, {}))
                dealt.update(dict.fromkeys(by_life.get(why, ()), health))
            # A defeat goes before a return to the barracks where two talents would both act (none do yet).
            exit = min((exits[w] for w in (*forced, *used) if w in exits), default="", key=_EXITS.index)
            for placed, picked in _placings(places, (*forced, *used)):
                total = dealt.copy()
                total.update(picked)  # update, not +, which would drop a heal
                total.update(burnt)
                choices.append((_tally(total, lives, breaks), exit, placed, sum(a.prices.get(w, 0) for w in (*forced, *used))))
    return sorted(set(choices))


def _tally(total: Counter[str], lives: dict[str, int], breaks: dict[str, dict[str, int]]) -> tuple[Strike, ...]:
    """The strikes of what each chip takes in all, defeated where that is all its life; a negative n
    is a heal (chapter 8). A spire (``breaks``: after.lp, sbreak/3) is defeated, or loses its bottom
    upgrade, where n reaches the least damage that does it."""
    strikes = []
    for x, n in total.items():
        if n == 0:
            continue
        if x in breaks:
            fell = n >= breaks[x].get("defeated", n + 1)
            removed = "" if fell else next((k for k, d in breaks[x].items() if k != "defeated" and n >= d), "")
            strikes.append(Strike(x, n, fell, removed))
        else:
            strikes.append(Strike(x, n, x in lives and n >= lives[x]))
    return tuple(sorted(strikes))


def _placings(places: dict[str, dict[str, dict[str, int]]], used: tuple[str, ...]) -> list[tuple[str, dict[str, int]]]:
    """Where the talents used place the unit once its move ends, and what the chip each picks there
    takes: one choice for each hex and each chip (Disperse); ('', nothing) where none places it."""
    found = [(spot, {x: n} if x else {}) for why in used for spot, picks in places.get(why, {}).items()
             for x, n in (sorted(picks.items()) or [("", 0)])]
    return found or [("", {})]


# How a unit leaves the board once its move ends (after_exit/4), the first that applies.
_EXITS = ("defeated", "barracks", "fortress")


def _wait_text(reason: Symbol) -> str:
    if reason.name == "below":
        return f"waits in the gate below {_name(reason.arguments[0])}, which has not left it"
    return WAIT_TEXT.get(reason.name, reason.name)


# An outcome: its end, displacements, damage taken and whether that defeats it, dice rolled on the way,
# the chips it deals damage to on its way (scorch.lp), with that damage, and what its riders take (Roost).
_Key = tuple[str, tuple[Displacement, ...], int, bool, int, tuple[tuple[str, int], ...],
             tuple[tuple[str, int, bool], ...]]


def _paths(a: _UnitAtoms, uid: str, start: str, kind: str, end: str, route: Symbol) -> Iterable[tuple[_Key, tuple[str, ...], int]]:
    """Each outcome an offer stands for (each way its displaced units may land, each damage a hurt
    unit may take), with a route that makes it and how many routes of the required length it stands
    for (moves of any length count once)."""
    if route.type is SymbolType.Function and route.name == "walk":
        walk = route.arguments[0].name
        if walk == "pass":  # an Incorporeal hero's walk passing the hexes of a bit set: its first shortest
            passed = route.arguments[0].arguments[0].number
            if kind == "return":
                way = min((_state_path(a.ipred, h, passed, start) for h in a.pass_home[passed]),
                          key=lambda w: (len(w), w)) + (end,)
            else:
                way = _state_path(a.ipred, end, passed, start)
            yield (end, (), 0, False, 0, (), ()), way, 1
        elif kind == "return" and end in a.roll_home:
            for rolls in sorted({k for _, k in a.roll_home[end]}):
                ways = [_state_path(a.rpred, h, k, start) for h, k in a.roll_home[end] if k == rolls]
                yield (end, (), 0, False, rolls, (), ()), min(ways, key=lambda w: (len(w), w)) + (end,), 1
        elif kind == "return":
            steps = min(steps for steps, _ in a.via[end])
            way = min(_first(a, walk, p, start) for n, p in a.via[end] if n == steps)
            yield (end, (), 0, False, 0, (), ()), way + (end,), 1
        elif walk == "fell":
            damage = max(d for h, d in a.hpred if h == end)
            yield (end, (), damage, True, 0, (), ()), _state_path(a.hpred, end, damage, start), 1
        elif walk == "hero" and end in a.hurt_ends:
            for damage in sorted(set(a.hurt_ends[end])):
                yield (end, (), damage, False, 0, (), ()), _state_path(a.hpred, end, damage, start), 1
        elif walk == "roam":  # on from a roost: the first shortest walk to the end in that state
            state = route.arguments[0].arguments[0].number
            yield (end, (), 0, False, 0, (), ()), _state_path(a.roam_pred, end, state, start), 1
        elif walk == "hero" and end in a.roll_ends:
            for rolls in sorted(set(a.roll_ends[end])):
                yield (end, (), 0, False, rolls, (), ()), _state_path(a.rpred, end, rolls, start), 1
        elif kind == "escape" and end in a.escape_hurt:  # each damage its escape may take (eacc/4)
            for damage, fell in sorted(set(a.escape_hurt[end]), key=lambda h: (h[0], h[1] or "")):
                at = fell or end  # where it fell: its escape ends there
                yield ((at, (), damage, fell is not None, 0, _blast(a, fell, damage), ()), _state_path(a.estep, at, damage, start),
                       _state_count(a.estep, at, damage, start))
        else:
            routes = _count(a, walk, end, start) if kind == "escape" else 1
            yield (end, (), 0, False, 0, (), ()), _first(a, walk, end, start), routes
        return
    nodes = _route(route)
    escaped = a.origin.get(nodes[0], 0) > 0
    for escaping, damage, fell in a.hurt.get(route) or [(0, 0, None)]:
        yield from _route_paths(a, uid, start, end, route, nodes, escaped, escaping, damage, fell)


def _route_paths(a: _UnitAtoms, uid: str, start: str, end: str, route: Symbol, nodes: tuple[str, ...], escaped: bool,
                 escaping: int, damage: int, fell: str | None) -> Iterable[tuple[_Key, tuple[str, ...], int]]:
    """The outcomes of a route (as ``_paths``) that takes ``damage`` in all, ``escaping`` of it along the
    escape from invalid terrain before it, if any, and falls on ``fell``."""
    if escaped and a.estep:  # moving hurts it on its escape: the escapes taking that damage (estep/5)
        if fell is not None and escaping == damage:  # the escape defeats it (acc/5): no route is walked
            yield ((fell, (), damage, True, 0, _blast(a, fell, damage), ()), _state_path(a.estep, fell, damage, start),
                   _state_count(a.estep, fell, damage, start))
            return
        prefix = _state_path(a.estep, nodes[0], escaping, start)[:-1]
        routes = _state_count(a.estep, nodes[0], escaping, start)
    else:
        prefix = _first(a, "escape", nodes[0], start)[:-1] if escaped else ()
        routes = _count(a, "escape", nodes[0], start) if escaped else 1
    rolls = a.rolls.get(route, 0)
    carried = tuple(sorted(a.carried.get(route, ())))  # its riders' damage (Roost, FAQ-07)
    combos = _landings([[_displaced(a, route, x, source, to) for to in a.landing[(route, x, left)]]
                        for x, source, left in a.disp.get(route, [])])
    if fell is not None and fell != end:  # defeated on the way: the rest is not walked
        walked = _walked(a, nodes, fell)
        # game-elements, Hero Displacement: "forcing the hero to swap positions" as the minion moves in, so
        # a unit on a hex it walked, the one it fell on too, stays displaced (reading, docs/movement.md).
        for displaced in sorted({tuple(d for d in combo if d.source in walked) for combo in combos}):
            for scorch in _scorchings(a, route, walked):
                for dealt, _ in _landed_scorch(a, uid, route, displaced, False):
                    yield ((fell, displaced, damage, True, 0, tuple(sorted(scorch + dealt + _blast(a, fell, damage))),
                            _riding(a, route, carried, displaced)), prefix + walked, routes)
        return
    for combo in combos:
        for scorch in _scorchings(a, route, nodes):
            for dealt, taken in _landed_scorch(a, uid, route, combo, damage == 0 and rolls == 0):
                yield ((end, combo, damage + taken, fell is not None, rolls, tuple(sorted(scorch + dealt)),
                        _riding(a, route, carried, combo)), prefix + nodes, routes)


def _self_felled(a: _UnitAtoms, damage: int) -> bool:
    """A fall with ``damage`` taken is its own talent's, at exactly 1 health (harm.lp, one_k/2: Entropy)."""
    return a.one_k is not None and damage == a.one_k


def _blast(a: _UnitAtoms, fell: str | None, damage: int) -> tuple[tuple[str, int], ...]:
    """What a minion defeating itself at exactly 1 health on ``fell`` deals beside it (harm.lp, one_hit/4:
    Entropy's 2), added to what it deals on its way; nothing for any other fall."""
    if fell is None or not _self_felled(a, damage):
        return ()
    return tuple(sorted(a.one_hits.get(fell, {}).items()))


def _landed_scorch(a: _UnitAtoms, uid: str, route: Symbol, displaced: tuple[Displacement, ...],
                   counted: bool) -> set[tuple[tuple[tuple[str, int], ...], int]]:
    """What the units ``displaced`` deal where they land (asp/movement/scorch.lp, lscorched/7): one chip of
    each one's talent's picks, each an outcome, or none where its player may deal none; each choice as what
    the other chips take and what the mover ``uid`` takes, counted only where ``counted`` (it takes no other
    damage and rolls no dice on its way) and no notice holds it open (scorch_unknown/3, pusher)."""
    picks: list[list[tuple[str, str, int] | None]] = []
    for d in displaced:
        for why, chips in sorted(a.lscorch.get((route, d.unit, d.to), {}).items()):
            found: list[tuple[str, str, int] | None] = [(why, x, n) for x, n in sorted(chips.items())]
            if (d.unit, why) in a.lscorch_optional:
                picks.append([None, *found])
            elif found:
                picks.append(found)
    open_ = {why for why, what in a.scorch_unknown if what == "pusher"}
    return {(tuple(sorted((x, n) for _, x, n in made if x != uid)),
             sum(n for why, x, n in made if x == uid and counted and why not in open_))
            for choice in product(*picks) for made in [[p for p in choice if p is not None]]}


def _pushed_open(a: _UnitAtoms, uid: str) -> set[str]:
    """The talents of units the offered routes displace that may deal the mover ``uid`` damage on a route
    where it takes other damage or rolls dice (the answer does not count it there: a notice)."""
    return {why for (route, _, _), whys in a.lscorch.items()
            if any(n for _, n, _ in a.hurt.get(route, ())) or a.rolls.get(route, 0)
            for why, chips in whys.items() if chips.get(uid, 0)}


def _landings(choices: list[list[Displacement]]) -> list[tuple[Displacement, ...]]:
    """Each way the route's displaced units may land (one of each unit's landings), in name order: two
    displaced heroes never share a hex (a gate takes any number: they have returned)."""
    found = []
    for combo in product(*choices):
        ends = [d.to for d in combo if not d.to.startswith("gate:")]
        if len(ends) == len(set(ends)):
            found.append(tuple(sorted(combo)))
    return found


def _walked(a: _UnitAtoms, nodes: tuple[str, ...], fell: str) -> tuple[str, ...]:
    """The route's hexes up to the one it fell on: a hex it stood on, or the chip of a teleport, entered
    before the hex it would have landed on (asp/movement/harm.lp, ent/4: the first chip by name)."""
    if fell in nodes:
        return nodes[: nodes.index(fell) + 1]
    landing = next(i for i in range(1, len(nodes))
                   if min(a.rifts.get((nodes[i - 1], nodes[i]), {""})) == fell)
    return (*nodes[:landing], fell)


def _scorchings(a: _UnitAtoms, route: Symbol, walked: tuple[str, ...]) -> list[tuple[tuple[str, int], ...]]:
    """What the route deals on its way (asp/movement/scorch.lp): one chip of each talent's picks, on any of
    its hexes, each an outcome (the same chip on two hexes one outcome); nothing too where its player may
    deal none; none from a hex beyond ``walked`` (the unit fell before it)."""
    picks: list[list[tuple[str, int] | None]] = []
    for why, spots in sorted(a.scorch.get(route, {}).items()):
        found: list[tuple[str, int] | None] = sorted(
            {pick for spot, chips in spots.items() if spot in walked[1:] for pick in chips.items()})
        if why in a.scorch_optional:
            picks.append([None, *found])
        elif found:
            picks.append(found)
    return [tuple(sorted(p for p in choice if p is not None)) for choice in product(*picks)]


def _riding(a: _UnitAtoms, route: Symbol, carried: tuple[tuple[str, int, bool], ...],
            displaced: tuple[Displacement, ...]) -> tuple[tuple[str, int, bool], ...]:
    """What the riders take: those the mover carries (``carried``), and those of each unit it displaces where that
    unit lands (lrider/7: Roost, FAQ-07)."""
    return tuple(sorted((*carried, *(r for d in displaced for r in a.lrider.get((route, d.unit, d.to), ())))))


def _displaced(a: _UnitAtoms, route: Symbol, unit: str, source: str, to: str) -> Displacement:
    damage, defeated = a.lhurt.get((route, unit, to), (0, False))
    return Displacement(unit, source, to, damage, defeated)


def _restat(route: Symbol) -> int:
    """The movement stat a walk on from a roost leaves its elfinkaze with, walk(roam(M,New)): New, the
    number of the roost it last moved onto where that differs from the stat it began with; else 0."""
    if route.type is SymbolType.Function and route.name == "walk" and route.arguments[0].name == "roam":
        return route.arguments[0].arguments[1].number
    return 0


def _state_path(
    graph: dict[tuple[str, int], list[tuple[str, int]]], end: str, count: int, start: str
) -> tuple[str, ...]:
    """The first walk in hex-name order that ends on ``end`` having taken ``count`` damage, or rolled
    ``count`` dice, from a hero's state graph (asp/movement/harm.lp, hpred/5; rolls.lp, rpred/5)."""
    memo: dict[tuple[str, int], tuple[str, ...]] = {(start, 0): (start,)}

    def best(state: tuple[str, int]) -> tuple[str, ...]:
        if state not in memo:
            memo[state] = min(best(q) for q in graph[state]) + (state[0],)
        return memo[state]

    return best((end, count))


def _state_count(graph: dict[tuple[str, int], list[tuple[str, int]]], end: str, count: int, start: str) -> int:
    """How many walks of a state graph (as ``_state_path``) end on ``end`` having taken ``count``."""
    memo: dict[tuple[str, int], int] = {(start, 0): 1}

    def total(state: tuple[str, int]) -> int:
        if state not in memo:
            memo[state] = sum(total(q) for q in graph[state])
        return memo[state]

    return total((end, count))


def _count(a: _UnitAtoms, walk: str, end: str, start: str) -> int:
    memo: dict[str, int] = {start: 1}

    def count(node: str) -> int:
        if node not in memo:
            memo[node] = sum(count(q) for q in a.pred[walk][node])
        return memo[node]

    return count(end)


def _first(a: _UnitAtoms, walk: str, end: str, start: str) -> tuple[str, ...]:
    """The first shortest route to ``end`` in hex-name order, from the shortest-route graph."""
    memo: dict[str, tuple[str, ...]] = {start: (start,)}

    def best(node: str) -> tuple[str, ...]:
        if node not in memo:
            memo[node] = min(best(q) for q in a.pred[walk][node]) + (node,)
        return memo[node]

    return best(end)


# ----------------------------------------------------------------------------------------- combat


def chip_name(symbol: Symbol) -> str:
    """u("x") → x, s("t") → t, w("wg") → wg (a waygate, Harbinger chapter 6), g("heirs") → gate:heirs."""
    inner = _name(symbol.arguments[0])
    return gate_node(inner) if symbol.name == "g" else inner


def _const_name(symbol: Symbol) -> str:
    return symbol.name.replace("_", "-")


def _category(symbol: Symbol) -> str:
    """defeat(hero) → defeat-hero, the spelling of adjudicator/data/ai-priority.yaml."""
    if symbol.arguments:
        return f"{symbol.name}-{_const_name(symbol.arguments[0])}"
    return _const_name(symbol)


@dataclass
class _Moment:
    """The atoms of one time point T of a combat answer set."""

    act: tuple[str, str] | None = None
    shot: tuple[str, str] | None = None
    deal: int = 0  # a shot's damage after Armored, capped at what the target could lose
    cut: int = 0
    cap: int = 0
    dice: int = 0
    chosen: bool = False
    picks: list[tuple[str, str]] = field(default_factory=list)  # a spire's talent's choice of chip (schoice/3)
    volley: list[tuple[str, str, int]] = field(default_factory=list)  # a volley's spire, each target, its damage
    total: int = 0  # a volley's dice total (asp/combat/fire.lp vtotal/2)
    silencing: bool | None = None  # whether the dice showed a miss or a 2, where a talent reads it (sil/1)
    victim: str | None = None
    damage: list[Damage] = field(default_factory=list)
    defeats: list[tuple[str, int, str, str]] = field(default_factory=list)  # chip, layer, by, goes to
    reveals: list[tuple[str, int, int]] = field(default_factory=list)  # unit, layer, health
    gains: dict[str, list[int]] = field(default_factory=dict)  # faction → [source, relics]
    builds: set[str] = field(default_factory=set)
    pillages: dict[str, str] = field(default_factory=dict)
    options: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    chosen_level: dict[str, str] = field(default_factory=dict)
    forgone: list[str] = field(default_factory=list)
    pressed: list[str] = field(default_factory=list)  # talents whose boost the attacker took
    moved: list[tuple[str, str]] = field(default_factory=list)  # unit, the hex a displacement moved it to
    cancelled: list[str] = field(default_factory=list)  # units whose owner paid Source to cancel the damage
    paid_for: list[tuple[str, str]] = field(default_factory=list)  # unit, the talent its owner spent Source on
    picked: list[tuple[str, str, str]] = field(default_factory=list)  # unit, a talent, the chip its owner took for it
    dodged: list[str] = field(default_factory=list)  # units that took 0 instead of a defeat (Dodge)
    stripped: list[tuple[str, int, str]] = field(default_factory=list)  # spire upgrades removed, no damage
    instead: str = ""  # the talent a unit used its attack for instead of attacking (deed/4)
    sdeed: tuple[str, str, str] | None = None  # a spire acted instead of attacking: spire, chip, talent (sdeed/4)
    landing: str = ""  # the hex a unit was teleported to, where there were several (tchoice/3)
    discarded: list[str] = field(default_factory=list)  # units discarded, not defeated
    returned: list[str] = field(default_factory=list)  # units gone to their fortress, not defeated (homeward/3: Colony)
    flipped: list[str] = field(default_factory=list)  # units flipped to their other side (hook flips/3)
    promoted: list[str] = field(default_factory=list)  # units a talent promoted at a defeat (hook promotes/3)
    demoted: list[str] = field(default_factory=list)  # units a talent demoted at a defeat (hook demotes/3)
    # unit, promote or demote, the talent: what a player's choice of the whole step would do to it (offers/4)
    offered: list[tuple[str, str, str]] = field(default_factory=list)
    unloaded: list[tuple[str, str]] = field(default_factory=list)  # unit, the upgrade a talent took (hook unload/4)
    shed: list[tuple[str, str, str]] = field(default_factory=list)  # unit, the talent it discarded, the hit's how
    lost: list[tuple[str, str]] = field(default_factory=list)  # unit, the item its damage made it lose (hook drops/3)
    upgraded: list[tuple[str, str]] = field(default_factory=list)  # spire, an upgrade added at its bottom (sbottom/4)
    morale: list[tuple[str, int]] = field(default_factory=list)  # faction, how far its morale die rose (cheers/4)
    laid: list[tuple[str, str, str]] = field(default_factory=list)  # unit, hex, the chip its defeat placed there (lays/4)
    summoned: list[tuple[str, str]] = field(default_factory=list)  # unit, hex: placed from its barracks (arrives/4)
    over: bool = False
    game_over: bool = False


@dataclass
class _CombatAtoms:
    """A combat answer set's atoms, gathered for decoding: by moment, the end state and the start."""

    moments: dict[int, _Moment] = field(default_factory=lambda: defaultdict(_Moment))
    fin: list[Symbol] = field(default_factory=list)
    start: list[Symbol] = field(default_factory=list)  # atoms about the board as the step begins


_START = {"allowed", "cand", "level", "category", "must", "noattack", "notarget", "starget", "spick",
          "slevel", "scategory", "sdice", "srange", "sord", "damaging", "defeating"}


def _combat_atoms(symbols: Iterable[Symbol]) -> _CombatAtoms:
    from adjudicator.answers.attacks import ATTACK, BLAST, Damage, LOST  # imported here: combat only
    atoms = _CombatAtoms()
    for s in symbols:
        name, args = s.name, s.arguments
        if name in ("struck", "sideless", "sflipped"):  # read by decode_step_summary and decode_sideless only
            continue
        if name in _START:
            atoms.start.append(s)
            continue
        if name == "fin":
            atoms.fin.append(args[0])
            continue
        if name == "campfire_due":
            atoms.fin.append(s)
            continue
        m = atoms.moments[args[0].number]
        if name == "act":
            m.act = (_name(args[1]), chip_name(args[2]))
        elif name == "deed":  # instead of attacking: an outcome of the unit's attack all the same
            m.act = (_name(args[1]), chip_name(args[2]))
            m.instead = _name(args[3])
        elif name == "discarded":
            m.discarded.append(_name(args[1]))
        elif name == "returned":
            m.returned.append(_name(args[1]))
        elif name == "shot":
            m.shot = (_name(args[1]), chip_name(args[2]))
        elif name == "sdeed":
            m.sdeed = (_name(args[1]), chip_name(args[2]), _name(args[3]))
        elif name == "tchoice":
            m.landing = _name(args[2])
        elif name == "deal":
            m.deal = args[1].number
        elif name == "shotcut":
            m.cut = args[1].number
        elif name == "shotcap":
            m.cap = args[1].number
        elif name == "shotdice":
            m.dice = args[1].number
        elif name == "chosen":
            m.chosen = True
        elif name == "schoice":
            m.picks.append((_name(args[1]), chip_name(args[2])))
        elif name == "vshot":
            m.volley.append((_name(args[1]), chip_name(args[2]), args[3].number))
        elif name == "vtotal":
            m.total = args[1].number
        elif name == "vdice":
            m.dice = args[1].number
        elif name in ("sil", "nosil"):
            m.silencing = name == "sil"
        elif name == "victim":
            m.victim = chip_name(args[1])
        elif name == "dmg":
            _, chip, amount, by, how, before, after, lost = args
            kind = _const_name(how)
            if kind == BLAST and by.name == "g":  # no gate blasts: late harm credited to a faction by its gate
                kind = LOST  # is the unit's own loss (Infested: "loses 1 health after attacking")
            m.damage.append(Damage(chip_name(chip), amount.number, chip_name(by), kind,
                                   before.number, after.number, lost.number))
        elif name == "sdmg":
            _, spire, amount, by, removed = args
            upgrade = None if removed.name == "none" else removed.name
            m.damage.append(Damage(_name(spire), amount.number, chip_name(by), ATTACK, upgrade_removed=upgrade))
        elif name == "gdmg":
            _, faction, amount, by, before, after = args
            m.damage.append(Damage(gate_node(_name(faction)), amount.number, chip_name(by), ATTACK,
                                   before.number, after.number))
        elif name == "wdmg":  # a waygate (Harbinger chapter 6): its own health
            _, waygate, amount, by, before, after = args
            m.damage.append(Damage(_name(waygate), amount.number, chip_name(by), ATTACK, before.number, after.number))
        elif name == "ldmg":  # late harm on a gate or waygate (lharm/5: Detonate)
            _, chip, amount, by, before, after = args
            m.damage.append(Damage(chip_name(chip), amount.number, chip_name(by), BLAST, before.number, after.number))
        elif name == "lsdmg":  # a spire's late hits (lharm/5: Detonate), the I-th in order
            _, spire, _, amount, by, removed = args
            upgrade = None if removed.name == "none" else removed.name
            m.damage.append(Damage(_name(spire), amount.number, chip_name(by), BLAST, upgrade_removed=upgrade))
        elif name == "defeat":
            _, chip, layer, by, goes = args
            by_name = "" if by.type is SymbolType.Function else _name(by)
            # under(S): placed underneath spire S (Absorb), "under:<spire>"
            where = f"{goes.name}:{_name(goes.arguments[0])}" if goes.arguments else _const_name(goes)
            m.defeats.append((chip_name(chip), layer.number, by_name, where))
        elif name == "reveal":
            m.reveals.append((_name(args[1]), args[2].number, args[3].number))
        elif name == "gain":
            m.gains[_name(args[1])] = [args[2].number, args[3].number]
        elif name == "spire_build":
            m.builds.add(_name(args[1]))
        elif name == "pillage":
            m.pillages[_name(args[1])] = _name(args[2])
        elif name == "lvlopt":
            m.options[_name(args[1])].append(_const_name(args[2]))
        elif name == "lv":
            m.chosen_level[_name(args[1])] = _const_name(args[2])
        elif name == "forgone":
            m.forgone.append(_name(args[1]))
        elif name == "pressed":
            m.pressed.append(_name(args[2]))
        elif name == "shift":
            m.moved.append((_name(args[1]), _name(args[2])))
        elif name == "cancelled":
            m.cancelled.append(_name(args[1]))
        elif name == "paidfor":
            m.paid_for.append((_name(args[1]), _name(args[2])))
        elif name == "picked":
            m.picked.append((_name(args[1]), _name(args[3]), _name(args[2])))
        elif name == "dodged":
            m.dodged.append(_name(args[1]))
        elif name == "flip":
            m.flipped.append(_name(args[1]))
        elif name == "promoted":
            m.promoted.append(_name(args[1]))
        elif name == "demoted":
            m.demoted.append(_name(args[1]))
        elif name == "offered":
            m.offered.append((_name(args[1]), args[2].name, args[3].string))
        elif name == "unloaded":
            m.unloaded.append((_name(args[1]), args[2].name))
        elif name == "shed":
            m.shed.append((_name(args[1]), _name(args[2]), _const_name(args[3])))
        elif name == "lost_item":
            m.lost.append((_name(args[1]), _name(args[2])))
        elif name == "laid":
            m.laid.append((_name(args[1]), _name(args[2]), _name(args[3])))
        elif name == "summoned":
            m.summoned.append((_name(args[1]), _name(args[2])))
        elif name == "sstrip":
            m.stripped.append((_name(args[1]), args[2].number, args[3].name))
        elif name == "mgain":
            m.morale.append((_name(args[1]), args[2].number))
        elif name == "sbottomed":
            m.upgraded.append((_name(args[1]), args[2].name))
        elif name == "over":
            m.over = True
        elif name == "game_over":
            m.game_over = True
    return atoms


def _layer_chip(position: Position, unit_id: str, layer: int) -> str:
    unit = position.units[unit_id]
    return unit.chip if layer == 0 else unit.group[layer - 1].chip


def _outcome(position: Position, m: _Moment, attacker: str, target: str, ai: frozenset[str],
             choose: bool) -> AttackOutcome:
    from adjudicator.answers.attacks import AttackOutcome, Defeat, Gain, LevelUp, Reveal  # imported here: combat only
    defeated = tuple(sorted(
        Defeat(chip, _layer_chip(position, chip, layer) if chip in position.units else "", by, goes)
        for chip, layer, by, goes in m.defeats
    ))
    revealed = tuple(sorted(Reveal(u, _layer_chip(position, u, layer), health) for u, layer, health in m.reveals))
    gains = tuple(sorted(
        Gain(f, pillaged=m.pillages.get(f, ""), forfeited=True) if f in ai
        else Gain(f, source, relics, f in m.builds, m.pillages.get(f, ""))
        for f, (source, relics) in m.gains.items()
        if source or relics or f in m.builds or f in m.pillages or f in ai
    ))
    level_ups = tuple(sorted(
        LevelUp(hero, tuple(sorted(options)), m.chosen_level.get(hero) if choose else None)
        for hero, options in m.options.items()
    ))
    redirected = m.victim if m.victim != target else None
    return AttackOutcome(attacker, target, redirected, tuple(sorted(m.damage)), defeated, revealed, gains,
                         level_ups, m.over and not m.game_over, m.game_over, tuple(sorted(m.forgone)),
                         tuple(sorted(m.pressed)), tuple(sorted(m.moved)), tuple(sorted(m.cancelled)),
                         tuple(sorted(m.stripped)), tuple(sorted(m.dodged)), m.instead, tuple(sorted(m.discarded)),
                         tuple(sorted(m.flipped)), tuple(sorted(m.unloaded)), tuple(sorted(m.shed)),
                         lost=tuple(sorted(m.lost)), promoted=tuple(sorted(m.promoted)),
                         demoted=tuple(sorted(m.demoted)), paid_for=tuple(sorted(m.paid_for)),
                         offered=tuple(sorted(m.offered)), upgraded=tuple(sorted(m.upgraded)),
                         morale=tuple(sorted(m.morale)), returned=tuple(sorted(m.returned)),
                         laid=tuple(sorted(m.laid)), summoned=tuple(sorted(m.summoned)))


def _end_state(position: Position, fin: Iterable[Symbol]) -> EndState:
    """The chips the step changed, from the fin/1 atoms (asp/combat/output.lp)."""
    from adjudicator.answers.attacks import ChipEnd, EndState  # imported here: combat only
    hp: dict[str, int] = {}
    layer: dict[str, int] = defaultdict(int)
    ups: dict[str, list[str]] = defaultdict(list)
    promoted, gone, spires_gone, silenced, discarded, turned = set(), set(), set(), set(), set(), set()
    spires_left: set[str] = set()  # defeated spires whose chips stay on their hexes
    dropped: dict[str, list[str]] = defaultdict(list)  # unit → the talents it discarded or items it lost
    moved: dict[str, str] = {}
    perched: dict[str, tuple[str, str]] = {}  # unit → the chip it was placed on, riding it, and its side up (Elfin)
    unmoved: set[str] = set()  # placed from its barracks, they do not move this turn (Evoke's AI)
    spire_left: dict[str, dict[int, str]] = defaultdict(dict)  # spire → its upgrades left by rank, 1 the bottom
    spire_at: dict[str, str] = {}  # spire → the hex it moved to (Creep)
    spire_arrow: dict[str, str] = {}  # spire → the hex its arrow was pointed at anew (Translocate)
    control: dict[str, str] = {}  # unit → the faction that gained control of it (Recruitable)
    used: dict[str, list[str]] = defaultdict(list)  # unit → the once-per-wave talents it used (Reap)
    under: dict[str, str] = {}  # unit or other chip → the unit it was placed under (chapter 5's Bydra Graam)
    unveiled: set[str] = set()  # face-down landmarks revealed (exploration)
    removed: set[str] = set()  # landmarks that left play (Unstable Rift)
    landmark_health: dict[str, int] = {}  # landmark → the health under it now (Quake)
    exploded: set[str] = set()  # other chips discarded (Explosion)
    linked: dict[str, str] = {}  # landmark → the faction that gained control of it (Source Link)
    lifted: list[int] = []  # chapter 6's earthscapes that left the board
    spires_dropped: set[str] = set()  # spires removed from the game with their earthscape (chapter 6)
    homed: set[str] = set()  # units and spires returned to their barracks as the wave ends (Precious, Mining)
    woke: set[str] = set()  # heroes whose campfire mode ended with the wave
    laid: dict[tuple[str, str], int] = {}  # (hex, chip name) → how many a defeat placed there (Toxic Fumes)
    gates: dict[str, int] = {}
    bought: dict[int, str] = {}  # chapter 3's earthscapes, by their place in the stack: kept, or placed:N
    docked: dict[str, str] = {}  # a fortress's gate → the plank hex it docked beside (chapter 2's Strategic Maneuver)
    waygates: dict[str, int] = {}  # a waygate's health (Harbinger chapter 6), 0 its destroyed side
    source: dict[str, int] = {}
    morale: dict[str, int] = {}
    over = game_over = False
    campfire: list[str] = []
    when = ""
    for s in fin:
        a = s.arguments
        name = s.name  # read once: each read goes through clingo's C API
        if name == "hp":
            hp[_name(a[0])] = a[1].number
        elif name == "lay":
            layer[_name(a[0])] = a[1].number
        elif name == "ups":
            ups[_name(a[0])] += [a[1].name] * a[2].number
        elif name == "prom":
            promoted.add(_name(a[0]))
        elif name == "gone":
            gone.add(_name(a[0]))
        elif name == "discarded":
            discarded.add(_name(a[0]))
        elif name == "under":
            under[_name(a[0])] = _name(a[1])
        elif name == "silenced":
            silenced.add(_name(a[0]))
        elif name == "dropped":
            dropped[_name(a[0])].append(_name(a[1]))
        elif name == "at":
            moved[_name(a[0])] = _name(a[1])
        elif name == "perch":
            perched[_name(a[0])] = (_name(a[1].arguments[0]), _name(a[2]))
        elif name == "no_move":
            unmoved.add(_name(a[0]))
        elif name == "sup":
            spire_left[_name(a[0])][a[1].number] = a[2].name
        elif name == "sgone":
            spires_gone.add(_name(a[0]))
        elif name == "sdropped":  # removed from the game, not defeated (hook sdrop/3: chapter 6)
            spires_dropped.add(_name(a[0]))
        elif name == "sleft":
            spires_left.add(_name(a[0]))
        elif name == "sflip":
            turned.add(_name(a[0]))
        elif name == "sat":
            spire_at[_name(a[0])] = _name(a[1])
        elif name == "arrow":
            spire_arrow[_name(a[0])] = _name(a[1])
        elif name == "ctrl":
            control[_name(a[0])] = _name(a[1])
        elif name == "unveiled":
            unveiled.add(_name(a[0]))
        elif name == "lout":
            removed.add(_name(a[0]))
        elif name == "ogone":
            exploded.add(_name(a[0]))
        elif name == "lhp":  # the health left under a landmark (hook hloss/4: Quake)
            landmark_health[_name(a[0])] = a[1].number
        elif name == "used":
            used[_name(a[0])].append(_name(a[1]))
        elif name == "lctrl":
            linked[_name(a[0])] = _name(a[1])
        elif name == "lifted":  # chapter 6's earthscape left the board (hook lifted/3)
            lifted.append(a[0].number)
        elif name == "home":
            homed.add(_name(a[0]))
        elif name == "woke":
            woke.add(_name(a[0]))
        elif name == "laid":
            laid[(_name(a[0]), _name(a[1]))] = a[2].number
        elif name == "gh":
            gates[_name(a[0])] = a[1].number
        elif name == "scaped":  # chapter 3's earthscape K of the stack bought (hook scaped/3)
            bought[a[0].number] = "kept" if a[1].type == SymbolType.Function else f"placed:{a[1].number}"
        elif name == "docked":  # chapter 2's fortress docked elsewhere as the wave ended (hook redock/3)
            docked[_name(a[0])] = _name(a[1])
        elif name == "wh":
            waygates[_name(a[0])] = a[1].number
        elif name == "src":
            source[_name(a[0])] = a[1].number
        elif name == "morale":
            morale[_name(a[0])] = a[1].number
        elif name == "over":
            over = True
        elif name == "game_over":
            game_over = True
        elif name == "campfire_due":
            campfire.append(_name(a[0]))
            when = _const_name(a[1])
    chips: list[ChipEnd] = []
    chips += [ChipEnd(uid, woke=True) for uid in sorted(woke)]
    for uid in sorted(set(hp) | gone):
        unit = position.units[uid]
        if uid in under:
            chips.append(ChipEnd(uid, under=under[uid]))
            continue
        if uid in gone:
            chips.append(ChipEnd(uid, returned=True) if uid in homed else ChipEnd(uid, discarded=True)
                         if uid in discarded else ChipEnd(uid, defeated=True))
            continue
        name = _layer_chip(position, uid, layer[uid]) if layer[uid] else ""
        final_ups = tuple(sorted(ups[uid]))
        changed_ups = final_ups != tuple(sorted(unit.upgrades))
        newly_promoted = uid in promoted and (not unit.promoted or bool(name))  # a revealed chip came up basic
        basic = unit.promoted and uid not in promoted and not name  # flipped back (Dodge)
        shed = tuple(sorted(dropped[uid]))
        if (name or hp[uid] != unit.health or changed_ups or newly_promoted or basic or uid in silenced
                or uid in moved or shed or uid in control or uid in used):
            rides, side = perched.get(uid, (None, ""))
            chips.append(ChipEnd(uid, False, name, hp[uid], final_ups if changed_ups else None, newly_promoted,
                                 uid in silenced, moved.get(uid), basic, discarded_talents=shed,
                                 control=control.get(uid), rides=rides, side=side, unmoved=uid in unmoved,
                                 used=tuple(sorted(used[uid]))))
    # A chip waiting in its barracks that a talent promoted (Powerhouse): in no hp/2, on no hex.
    chips += [ChipEnd(uid, promoted=True) for uid in sorted(promoted - set(hp) - gone)
              if position.in_barracks(uid) and not position.units[uid].promoted]
    for spire in position.spires:
        if spire.id in spires_gone and spire.id in homed:
            chips.append(ChipEnd(spire.id, returned=True))
        elif spire.id in spires_gone and spire.id in spires_dropped:
            chips.append(ChipEnd(spire.id, discarded=True))
        elif spire.id in spires_gone:
            chips.append(ChipEnd(spire.id, defeated=True, stays=spire.id in spires_left))
        else:
            left = tuple(y for _, y in sorted(spire_left[spire.id].items()))
            if left != spire.upgrades or spire.id in turned or spire.id in spire_at or spire.id in spire_arrow:
                chips.append(ChipEnd(spire.id, upgrades=left if left != spire.upgrades else None,
                                     flipped=spire.id in turned, at=spire_at.get(spire.id),
                                     arrow=spire_arrow.get(spire.id)))
    for faction in sorted(set(gates) | set(docked)):
        health = gates.get(faction, position.gates[faction].health)
        if health != position.gates[faction].health or faction in docked:
            chips.append(ChipEnd(gate_node(faction), health=health if health != position.gates[faction].health else None,
                                 at=docked.get(faction)))
    was = {c.id: c.health or 0 for c in position.chips}
    chips += [ChipEnd(c, health=health) for c, health in sorted(waygates.items()) if health != was[c]]
    # Another chip placed under a unit (hook tuck/4: chapter 4's rotten worms infesting Bydra Graam).
    chips += [ChipEnd(c.id, under=under[c.id]) for c in position.chips if c.id in under]
    chips += [ChipEnd(m, revealed=m in unveiled, removed=m in removed, control=linked.get(m))
              for m in sorted(unveiled | removed | set(linked))]
    chips += [ChipEnd(m, health=k) for m, k in sorted(landmark_health.items())]
    chips += [ChipEnd(earthscape_id(e), removed=True) for e in sorted(lifted)]
    chips += [ChipEnd(c.id, returned=True) for c in position.chips if c.id in homed]  # the toxic fumes chips
    chips += [ChipEnd(c.id, discarded=True) for c in position.chips if c.id in exploded]  # Explosion's chip
    chips += [ChipEnd(laid_id(position, name, hex_), name=name, at=hex_, laid=count)
              for (hex_, name), count in sorted(laid.items())]
    changed_source = tuple(sorted((f, n) for f, n in source.items() if n != position.factions[f].source))
    changed_morale = tuple(sorted((f, n) for f, n in morale.items() if n != position.factions[f].morale))
    return EndState(tuple(sorted(chips)), changed_source, over, tuple(sorted(campfire)), when, game_over,
                    changed_morale, tuple(bought[k] for k in sorted(bought)))


def laid_id(position: Position, name: str, hex_: str) -> str:
    """The id of the chip named ``name`` a defeat placed on ``hex_`` (Toxic Fumes): the chip of that name
    on that hex already, if any (its count grows), else ``<name>-<hex>``."""
    return next((c.id for c in position.chips if c.at == hex_ and c.name == name),
                f"{'-'.join(name.lower().split())}-{hex_}")


def _start_targets(atoms: _CombatAtoms) -> tuple[dict[str, list[Target]], dict[str, set[str]]]:
    """Per attacker: its targets with the AI's ranking; and which of them the AI would take."""
    from adjudicator.answers.attacks import Target  # imported here: combat only
    levels: dict[tuple[str, str], int] = {}
    categories: dict[tuple[str, str], str] = {}
    targets: dict[str, list[str]] = defaultdict(list)
    picks: dict[str, set[str]] = defaultdict(set)
    for s in atoms.start:
        a = s.arguments
        if s.name == "allowed":
            targets[_name(a[0])].append(chip_name(a[1]))
        elif s.name == "cand":
            picks[_name(a[0])].add(chip_name(a[1]))
        elif s.name == "level":
            levels[(_name(a[0]), chip_name(a[1]))] = a[2].number
        elif s.name == "category":
            categories[(_name(a[0]), chip_name(a[1]))] = _category(a[2])
    ranked = {
        unit: [Target(x, levels.get((unit, x)), categories.get((unit, x), "")) for x in sorted(xs)]
        for unit, xs in targets.items()
    }
    return ranked, picks


def decode_attacks(models: list[list[Symbol]], position: Position, units: Iterable[str],
                   ai: frozenset[str], fallback: int, die: Die) -> list[AttackOptions]:
    """Every attack each of ``units`` may (or, for the AI, must) make, from the answer sets of one
    attack (asp/combat/attack_step.lp, mode single). ``fallback`` is the rank of "any valid target";
    ``die`` gives the odds of a retaliation rolled with it (Relentless)."""
    from adjudicator.answers.attacks import AttackOptions  # imported here: combat only
    first = _combat_atoms(models[0]) if models else _CombatAtoms()
    ranked, _ = _start_targets(first)
    must = {_name(s.arguments[0]) for s in first.start if s.name == "must"}
    why: dict[str, list[str]] = defaultdict(list)
    for s in first.start:
        if s.name == "noattack":
            why[_name(s.arguments[0])].append(s.arguments[1].name)
    # Each outcome with the rolls that lead to it (time, unit, the totals that deal the same, the top
    # total; a D6's faces), each set of rolls once: answer sets that differ in what the outcome does not
    # show repeat them.
    outcomes: dict[str, dict[AttackOutcome, dict[tuple[tuple[tuple[int, str, tuple[int, ...], int], ...],
                                                        tuple[Roll6, ...]], Fraction]]] = defaultdict(dict)
    for model in models:
        atoms = _combat_atoms(model)
        m = atoms.moments.get(1)
        if m is not None and m.act is not None:
            rolls = _rolls(model)
            d6 = _d6(atoms.fin)  # a unit's D6 where the attack's swap moved it (Explosion)
            odds = math.prod((*(_odds(die, totals, top) for _, _, totals, top in rolls), *(r.chance for r in d6)),
                             start=Fraction(1))
            found = outcomes[m.act[0]].setdefault(_outcome(position, m, *m.act, ai=ai, choose=False), {})
            found[(rolls, d6)] = odds
    result = []
    for uid in units:
        targets = tuple(_ranked(t.chip, t.priority, t.category, fallback) for t in ranked.get(uid, []))
        reason = min(why[uid], key=NOATTACK_ORDER.index) if why[uid] else ""
        chanced = (replace(o, probability=sum(lines.values(), Fraction(0))) if any(r or d for r, d in lines) else o
                   for o, lines in outcomes[uid].items())
        ordered = tuple(sorted(chanced, key=lambda o: (o.target, o.redirected_to or "")))
        result.append(AttackOptions(uid, uid in must, targets, ordered, reason))
    return result


def _rolls(model: Iterable[Symbol]) -> tuple[tuple[int, str, tuple[int, ...], int], ...]:
    """The retaliations rolled with the spire die (Relentless) in one answer set: (time, unit, every
    total that deals what the one rolled does, the top total) (asp/combat/output.lp rroll/4, rtwin/3)."""
    model = list(model)
    twins: dict[tuple[int, str], list[int]] = defaultdict(list)
    for s in model:
        if s.name == "rtwin":
            twins[(s.arguments[0].number, _name(s.arguments[1]))].append(s.arguments[2].number)
    return tuple(sorted((s.arguments[0].number, _name(s.arguments[1]),
                         tuple(sorted(twins[(s.arguments[0].number, _name(s.arguments[1]))])), s.arguments[3].number)
                        for s in model if s.name == "rroll"))


def _odds(die: Die, totals: Iterable[int], top: int) -> Fraction:
    """The chance that rolling until a blank or a 2 totals one of ``totals`` (``top``: that or more)."""
    odds = die.rolled_until(top)
    return sum((odds[t] for t in totals), Fraction(0))


def decode_start_attacks(
    symbols: Iterable[Symbol], unit: str
) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """The chips ``unit`` may attack as the step begins, those its attack would damage and the units
    and spires it would defeat (the AI's weighing, asp/combat/ai_attack.lp): for the pre-questions of
    adjudicator/questions/still.py."""
    found: dict[str, set[str]] = {"allowed": set(), "damaging": set(), "defeating": set()}
    for s in symbols:
        if s.name in found and _name(s.arguments[0]) == unit:
            found[s.name].add(chip_name(s.arguments[1]))
    return frozenset(found["allowed"]), frozenset(found["damaging"]), frozenset(found["defeating"])


# The order a unit's reasons for not attacking are named in; "survival", "roost_roam": hook rests/2's Why
# (Survival's AI, Roost Roam's AI).
NOATTACK_ORDER = ["in_gate", "campfire", "landmark", "attacked", "survival", "roost_roam", "no_attack_stat",
                  "no_target"]
FALLBACK = 1000  # the rank asp/combat/ai_attack.lp and asp/combat/fire.lp give "any valid target"


def _ranked(chip: str, level: int | None, category: str, fallback: int) -> Target:
    """A target with its AI rank; "any valid target" comes right after the list."""
    from adjudicator.answers.attacks import Target  # imported here: combat only
    if level == FALLBACK:
        return Target(chip, fallback, "any-target")
    return Target(chip, level, category)


def decode_attack_step(models: Iterable[list[Symbol]], position: Position, ai: frozenset[str],
                       die: Die) -> list[StepEnd]:
    """One StepEnd per projected answer set of the whole attack step (asp/combat/attack_step.lp, mode step);
    ``die`` gives the chance of the totals its retaliations rolled with it (Relentless)."""
    from adjudicator.answers.attacks import StepEnd  # imported here: combat only
    ends = []
    for model in models:
        atoms = _combat_atoms(model)
        sequence = tuple(
            _outcome(position, m, *m.act, ai=ai, choose=True)
            for _, m in sorted(atoms.moments.items())
            if m.act is not None
        )
        dice = [s for s in atoms.fin if s.name in _DICE]  # each name read once: a call into clingo each time
        rolled = _rolled(dice)
        razed = _razed(dice)
        d6 = _d6(dice)
        balls = _cannonballs(dice)
        odds = [*(_odds(die, r.totals, r.top) for r in rolled), *(_band_odds(die, r) for r in razed),
                *(r.chance for r in d6), *(_ball_odds(die, b) for b in balls)]
        chance = math.prod(odds, start=Fraction(1)) if odds else None
        ends.append(StepEnd(_end_state(position, atoms.fin), sequence, rolled, chance, razed, d6, balls))
    return ends


# The fin/1 atoms of the dice an end's line rolled (_rolled, _razed, _d6, _cannonballs).
_DICE = frozenset({"rolled", "razed", "d6", "d6s", "cannonball"})


def _razed(fin: Iterable[Symbol]) -> tuple[Razed, ...]:
    """A spire's attacks at the start of the turn in an end's line, from fin(razed(S,X,K,C,L,M)) (output.lp)."""
    from adjudicator.answers.attacks import Razed  # imported here: combat only
    return tuple(sorted((
        Razed(_name(a[0]), chip_name(a[1]), a[2].number, a[3].number, a[4].number,
              None if a[5].type == SymbolType.Function else a[5].number)
        for s in fin if s.name == "razed" for a in [s.arguments]), key=lambda r: (r.spire, r.target)))


def _cannonballs(fin: Iterable[Symbol]) -> tuple[Cannonball, ...]:
    """Chapter 2's cannonballs as the wave ends in an end's line, from fin(cannonball(T,X,L,M)) (output.lp): cannon
    T-1 fires at T, once the plank is pulled at 1."""
    from adjudicator.answers.attacks import Cannonball  # imported here: combat only
    return tuple(sorted(Cannonball(a[0].number - 1, chip_name(a[1]), a[2].number,
                                   None if a[3].type == SymbolType.Function else a[3].number)
                        for s in fin if s.name == "cannonball" for a in [s.arguments]))


def _ball_odds(die: Die, ball: Cannonball) -> Fraction:
    """The chance that one spire attack die totals from ``ball``'s low to its high."""
    return sum((p for total, p in die.totals(1).items()
                if total >= ball.low and (ball.high is None or total <= ball.high)), Fraction(0))


def _d6(fin: Iterable[Symbol]) -> tuple[Roll6, ...]:
    """The D6s a talent rolled in an end's line, from fin(d6(X,Lo,Hi,Why)) and fin(d6s(X,K,Lo,Hi,Why)) (output.lp):
    at the start or end of the turn (Reap), or a unit a swap or a teleport moved beside another chip, K such
    chips at once by their total (Explosion); a unit that rolled twice alike, each roll (its own Why)."""
    from adjudicator.answers.attacks import Roll6  # imported here: combat only
    return tuple(sorted([*(Roll6(chip_name(a[0]), a[1].number, a[2].number) for s in fin if s.name == "d6"
                           for a in [s.arguments]),
                         *(Roll6(chip_name(a[0]), a[2].number, a[3].number, a[1].number) for s in fin
                           if s.name == "d6s" for a in [s.arguments])]))


def _band_odds(die: Die, razed: Razed) -> Fraction:
    """The chance that ``razed``'s dice, less its cut (never below 0), total from its low to its high."""
    return sum((p for total, p in die.totals(razed.dice).items()
                if max(total - razed.cut, 0) >= razed.low and (razed.high is None or max(total - razed.cut, 0) <= razed.high)),
               Fraction(0))


def _rolled(fin: Iterable[Symbol]) -> tuple[Rolled, ...]:
    """The retaliations an end's line rolled with the spire die, from fin(rolled(V,I,S,M)) (output.lp)."""
    from adjudicator.answers.attacks import Rolled  # imported here: combat only
    found: dict[tuple[str, int, int], list[int]] = defaultdict(list)
    for s in fin:
        if s.name == "rolled":
            a = s.arguments
            found[(_name(a[0]), a[1].number, a[3].number)].append(a[2].number)
    return tuple(sorted(Rolled(unit, layer, tuple(sorted(totals)), top) for (unit, layer, top), totals in found.items()))


def decode_sideless(models: Iterable[list[Symbol]], name: str = "sideless") -> tuple[tuple[str, str], ...]:
    """(chip, why): the units (spires: Wallop) that flipped to their other side, by the talent ``why``
    names (Dodge, Pistoleer), in some line where what follows could read that side's talents or stats,
    which the position does not give (combat/damage.lp, levelup.lp and fire.lp sideless/2); with
    ``name`` sflipped, every spire that flipped (output.lp), which the rest of a turn could read."""
    return tuple(sorted({(_name(s.arguments[0]), _const_name(s.arguments[1]))
                         for model in models for s in model if s.name == name}))


def decode_sideless_by_attacker(models: Iterable[list[Symbol]]) -> dict[str, tuple[tuple[str, str], ...]]:
    """decode_sideless over the answer sets of one attack (attack_step.lp, mode single), by the unit whose
    attack each answer set is: a target that flips (Dodge) is that attack's flip as much as its own."""
    found: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for model in models:
        attacker, pairs = None, set()
        for s in model:  # one pass: the attack (act or deed at time 1, as _combat_atoms reads it) and its flips
            if s.name in ("act", "deed") and s.arguments[0].number == 1:
                attacker = _name(s.arguments[1])
            elif s.name == "sideless":
                pairs.add((_name(s.arguments[0]), _const_name(s.arguments[1])))
        if attacker is not None:
            found[attacker] |= pairs
    return {unit: tuple(sorted(pairs)) for unit, pairs in found.items()}


def decode_unbounded(models: Iterable[list[Symbol]]) -> tuple[str, ...]:
    """The units whose retaliation, rolled with the spire die (Relentless), healed the attacker in some
    answer set, so that every total past the highest told apart would heal it more (retaliation.lp ropen/2)."""
    return tuple(sorted({_name(s.arguments[1]) for model in models for s in model if s.name == "ropen"}))


def decode_step_summary(brave: list[Symbol], cautious: list[Symbol]) -> StepSummary:
    """What each unit may or must attack and which chips may or must leave play, over every line of a
    whole attack step: from the brave and the cautious consequences of its solve (output.lp, struck/1)."""
    from adjudicator.answers.attacks import AttackerSummary, StepSummary  # imported here: combat only
    targets: dict[str, set[str]] = defaultdict(set)
    for s in brave:
        if s.name in ("act", "deed"):
            targets[_name(s.arguments[1])].add(chip_name(s.arguments[2]))
    forced = {_name(s.arguments[0]) for s in cautious if s.name == "struck"}

    def falls(atoms: list[Symbol]) -> tuple[str, ...]:
        return tuple(sorted({_name(s.arguments[0].arguments[0]) for s in atoms  # a discard is gone/1 too
                             if s.name == "fin" and s.arguments[0].name in ("gone", "sgone", "discarded")}))

    attackers = tuple(AttackerSummary(u, tuple(sorted(ts)), u in forced) for u, ts in sorted(targets.items()))
    return StepSummary(attackers, falls(brave), falls(cautious))


def merged_summary(parts: Iterable[StepSummary]) -> StepSummary:
    """The summary of a step made of groups that share no chip: the groups' side by side."""
    from adjudicator.answers.attacks import StepSummary  # imported here: combat only
    every = list(parts)
    return StepSummary(tuple(sorted((a for p in every for a in p.attackers), key=lambda a: a.unit)),
                       tuple(sorted({c for p in every for c in p.may_fall})),
                       tuple(sorted({c for p in every for c in p.must_fall})))


@dataclass(frozen=True)
class Split:
    """How the attack step splits (asp/combat/split.lp): its groups of attackers, whose attacks never
    touch a common chip, and why it stays whole where it must."""

    groups: tuple[tuple[str, ...], ...]
    joined: tuple[str, ...]


def decode_split(symbols: list[Symbol]) -> Split:
    """The groups: attackers linked, directly or through others, by a chip their attacks both touch."""
    attackers = sorted(_name(s.arguments[0]) for s in symbols if s.name == "attacker")
    leader = {a: a for a in attackers}

    def find(a: str) -> str:
        while leader[a] != a:
            a = leader[a]
        return a

    for s in symbols:
        if s.name == "link":
            leader[find(_name(s.arguments[0]))] = find(_name(s.arguments[1]))
    groups: dict[str, list[str]] = defaultdict(list)
    for a in attackers:
        groups[find(a)].append(a)
    joined = sorted(_name(s.arguments[0]) for s in symbols if s.name == "joined")
    return Split(tuple(sorted(tuple(g) for g in groups.values())), tuple(joined))


def line_of(model: list[Symbol]) -> Line:
    """The attacks and level-ups of one answer set of the attack step, to be played again."""
    from adjudicator.facts.combat import Line  # imported here: combat only
    attacks = sorted((s.arguments[0].number, s.arguments[1], s.arguments[2]) for s in model if s.name == "act")
    level_ups = sorted((s.arguments[0].number, s.arguments[1], s.arguments[2]) for s in model if s.name == "lv")
    return Line(tuple(attacks), tuple(level_ups))


@dataclass(frozen=True)
class Roll:
    """One spire's dice in a Spires Fire path: ``value``, the damage a shot dealt after the target's
    ``cut``, standing at ``cap`` for every total that deals that much or more; for a volley (``cap`` None:
    Multi-Target), the dice's total."""

    dice: int
    cut: int
    cap: int | None
    value: int
    silencing: bool | None = None  # the dice showed a miss or a 2 (or not), where a talent reads it


@dataclass(frozen=True)
class FirePath:
    """One answer set of the Spires Fire step: the shots in order (a volley's, one per target), the
    dice each spire rolled, and the end state."""

    shots: tuple[Shot, ...]
    rolls: tuple[Roll, ...]
    end: EndState
    choices: tuple[tuple[str, ...], ...] = ()  # in order: a talent's choice of chip (Quake's), then the shot's target
    d6: tuple[Roll6, ...] = ()  # the D6s units rolled where Wallop teleported them (Explosion)


def decode_fire(
    models: Iterable[list[Symbol]], position: Position, fallback: int
) -> tuple[list[SpireTargets], list[FirePath]]:
    """The spires that fire with their first targets, in the order they fire, and every path through the
    step. ``fallback`` is the rank of "any valid target", after the spire priority list."""
    from adjudicator.answers.attacks import Shot, SpireTargets  # imported here: combat only
    ai_factions = {f.name for f in position.factions.values() if f.controller is Controller.AI}
    models = iter(models)  # read once: a timed-out question stops handing them out (solve.decodable)
    head = next(models, None)
    first = _combat_atoms(head) if head is not None else _CombatAtoms()
    dice: dict[str, int] = {}
    ranges: dict[str, int] = {}
    targets: dict[str, list[str]] = defaultdict(list)
    picks: dict[str, set[str]] = defaultdict(set)
    levels: dict[tuple[str, str], int] = {}
    categories: dict[tuple[str, str], str] = {}
    order: dict[str, int] = {}
    for s in first.start:
        a = s.arguments
        if s.name == "sord":
            order[_name(a[0])] = a[1].number
        elif s.name == "sdice":
            dice[_name(a[0])] = a[1].number
        elif s.name == "srange":
            ranges[_name(a[0])] = a[1].number
        elif s.name == "starget":
            targets[_name(a[0])].append(chip_name(a[1]))
        elif s.name == "spick":
            picks[_name(a[0])].add(chip_name(a[1]))
        elif s.name == "slevel":
            levels[(_name(a[0]), chip_name(a[1]))] = a[2].number
        elif s.name == "scategory":
            categories[(_name(a[0]), chip_name(a[1]))] = _category(a[2])
    owners = {s.id: s.faction for s in position.spires}
    spires = [
        SpireTargets(
            sid, owners[sid], dice[sid], ranges[sid],
            tuple(_ranked(x, levels.get((sid, x)), categories.get((sid, x), ""), fallback) for x in sorted(targets[sid])),
            owners[sid] in ai_factions,
        )
        for sid in sorted(dice, key=order.__getitem__)  # in the order they fire
        if targets[sid]
    ]
    paths = []
    for atoms in chain([first] if head is not None else [], map(_combat_atoms, models)):
        moments = [m for _, m in sorted(atoms.moments.items()) if m.shot is not None or m.volley or m.sdeed]
        shots = tuple(
            shot
            for m in moments
            for shot in ([Shot(m.shot[0], m.shot[1], m.deal, m.deal == m.cap, m.chosen)] if m.shot else
                         [_deed(m, m.sdeed)] if m.sdeed else
                         [Shot(spire, target, damage, False, m.chosen) for spire, target, damage in sorted(m.volley)])
        )
        rolls = tuple(Roll(m.dice, m.cut, m.cap, m.deal, m.silencing) if m.shot
                      else Roll(m.dice, 0, None, m.total, m.silencing) for m in moments if not m.sdeed)
        choices = tuple(c for m in moments for c in (*sorted(m.picks), *(
            [m.shot] if m.shot and m.chosen
            else _deed_choices(m, m.sdeed, owners[m.sdeed[0]] in ai_factions) if m.sdeed
            else sorted((s, x) for s, x, _ in m.volley) if m.chosen else []),
            *_talent_choices(m, owners, ai_factions)))
        paths.append(FirePath(shots, rolls, _end_state(position, atoms.fin), choices, _d6(atoms.fin)))
    return spires, paths


def _talent_choices(m: _Moment, owners: dict[str, str], ai_factions: set[str]) -> list[tuple[str, ...]]:
    """A shot's talents its owners chose to use: a player's spire's Splash (an AI's must), then each
    unit whose owner paid Source for Sourcefield, then each that discarded a talent against a hit
    (Hidden Armor), then each owner that paid for another talent (spends/4: Press Gang), then each unit
    whose owner took a chip for a talent (picks/4), (unit, talent), (unit, the chip taken): a player's
    Invigorate, the minion it promotes, the unit itself for the chip its group revealed; Absorb, the spire
    a defeated minion goes underneath. A unit's talent names the shot it answers, (unit, talent, spire)
    (a volley's spires joined by "+"): the same use against another spire's shot is another way of
    choosing, whose odds are not to be added to these."""
    from adjudicator.answers.attacks import SPLASH  # imported here: combat only
    spires = sorted({m.shot[0]} if m.shot else {s for s, _, _ in m.volley})  # a shot's, or a volley's
    shot = "+".join(spires)
    chosen: list[tuple[str, ...]] = [(spire, "Splash") for spire in spires if owners[spire] not in ai_factions
                                     and any(d.how == SPLASH and d.by == spire for d in m.damage)]
    used = ([(u, "Sourcefield") for u in sorted(m.cancelled)] + sorted((u, w) for u, w, _ in m.shed)
            + sorted(m.paid_for))
    against = (shot,) if shot else ()  # a spire's deed instead of a shot (Wallop) answers no shot
    return (chosen + [(u, w, *against) for u, w in used]
            + [c for u, w, x in sorted(m.picked) for c in ((u, w, *against), (u, x))])


def _deed(m: _Moment, deed: tuple[str, str, str]) -> Shot:
    """What a spire did instead of attacking (sdeed/4): the damage it dealt its chip, where it teleported it."""
    from adjudicator.answers.attacks import Shot  # imported here: combat only
    spire, target, talent = deed
    dealt = sum(d.amount for d in m.damage if d.chip == target)
    return Shot(spire, target, dealt, False, m.chosen, talent, dict(m.moved).get(target))


def _deed_choices(m: _Moment, deed: tuple[str, str, str], ai: bool) -> list[tuple[str, str]]:
    """What a spire acting instead of attacking chose: a player's spire its talent and the chip, (spire,
    talent), (spire, chip); an AI spire the chip only where its priority left several; then the hex it
    teleported the chip to where there were several, (spire, hex)."""
    spire, target, talent = deed
    made = [(spire, target)] if m.chosen else []
    return ([(spire, talent)] if not ai else []) + made + ([(spire, m.landing)] if m.landing else [])


# ------------------------------------------------------------------------------------- verdicts


def _reason_arg(symbol: Symbol) -> str:
    if symbol.type is SymbolType.Function and symbol.name in ("u", "s", "g", "w", "l") and len(symbol.arguments) == 1:
        return chip_name(symbol) if symbol.name != "l" else _name(symbol.arguments[0])
    if symbol.type is SymbolType.Function and not symbol.arguments:
        return _const_name(symbol)
    if symbol.type is SymbolType.Function and symbol.arguments and symbol.name in ("defeat", "damage", "closest"):
        return _category(symbol)
    return _name(symbol)


def _reason(kind: str, term: Symbol) -> Reason:
    """A reason term: ``not_progress(6,"c4")``, or a family with its case first: ``cannot_move(below("j"))``
    is id cannot_move.below with the arguments of the case."""
    args = list(term.arguments)
    if len(args) == 1 and args[0].type is SymbolType.Function and f"{term.name}.{args[0].name}" in known_reasons():
        case = args[0]
        return Reason(kind, f"{term.name}.{case.name}", tuple(_reason_arg(a) for a in case.arguments))
    # A reason a talent gives, its name last (stopped(H,"Rigging")), cites that talent's words where the
    # catalogue has an entry of its own for it (stopped.rigging); otherwise the family's.
    if args and args[-1].type is SymbolType.String:
        own = f"{term.name}.{re.sub(r'[^a-z]+', '_', args[-1].string.lower()).strip('_')}"
        if own in known_reasons():
            return Reason(kind, own, tuple(_reason_arg(a) for a in args))
    return Reason(kind, term.name, tuple(_reason_arg(a) for a in args))


def _subject(symbol: Symbol) -> str:
    """claim → "", end(E) → E, chip(X) → the chip's name."""
    if symbol.name == "end":
        return _name(symbol.arguments[0])
    if symbol.name == "chip":
        return chip_name(symbol.arguments[0])
    return ""


def decode_verdicts(symbols: Iterable[Symbol]) -> dict[str, Judgement]:
    """Judgements by subject ("" for the claim) from verdict/2, illegal/2, legal_by/2, mandated_by/2."""
    verdicts: dict[str, str] = {}
    reasons: dict[str, list[Reason]] = defaultdict(list)
    kinds = {"illegal": ILLEGAL, "legal_by": LEGAL, "mandated_by": MANDATORY}
    for s in symbols:
        if s.name == "verdict":
            verdicts[_subject(s.arguments[0])] = s.arguments[1].name
        elif s.name in kinds:
            reasons[_subject(s.arguments[0])].append(_reason(kinds[s.name], s.arguments[1]))
    order = {ILLEGAL: 0, MANDATORY: 1, LEGAL: 2}
    return {
        subject: Judgement(subject, verdict, tuple(sorted(reasons[subject], key=lambda r: (order[r.kind], r))))
        for subject, verdict in verdicts.items()
    }


# ------------------------------------------------------------------------------ the whole step solved


_PAIRS: dict[Symbol, tuple[str, str]] = {}  # wfin(U,H) → (U, H): the same atoms recur in thousands of boards


def decode_whole_ends(symbols: Iterable[Symbol]) -> list[tuple[str, str]]:
    """The (unit, node) pairs of wfin/2 (asp/movement/whole.lp, shown with wdealt/2 while boards are
    listed): one per unit in a board, every end a unit can take in brave consequences."""
    pairs = []
    for s in symbols:
        pair = _PAIRS.get(s)
        if pair is None:
            if s.name != "wfin":  # wdealt/2, few: decode_whole_dealt
                continue
            if len(_PAIRS) > 100_000:
                _PAIRS.clear()
            pair = _PAIRS[s] = (_name(s.arguments[0]), _name(s.arguments[1]))
        pairs.append(pair)
    return pairs


def decode_whole_touch(symbols: Iterable[Symbol]) -> list[tuple[str, str]]:
    """The (unit, talent) pairs of wtouch/2 (asp/movement/whole.lp): a route of the unit may move onto a hex
    where the talent acts as it moves."""
    return sorted((_name(s.arguments[0]), _name(s.arguments[1])) for s in symbols)


def decode_whole_escapes(symbols: Iterable[Symbol]) -> list[str]:
    """The minions of wescape/1 (asp/movement/whole.lp): an escape from invalid terrain that may meet a unit
    of the group, or that the solve does not follow."""
    return sorted(_name(s.arguments[0]) for s in symbols)


def decode_whole_notices(symbols: Iterable[Symbol]) -> tuple[Notice, ...]:
    """What the group's moves leave out, from the grounded scorch_unknown/3 (asp/movement/scorch.lp): as
    each unit's own answer names it (decode_options)."""
    found = sorted({(_name(s.arguments[0]), _name(s.arguments[1]), s.arguments[2].name) for s in symbols})
    return tuple(Notice(talent, PARTLY, ("movement",), (uid,), left_out=SCORCH_UNKNOWN[why]) for uid, talent, why in found)


def decode_whole_board(symbols: Iterable[Symbol]) -> dict[str, str]:
    """Where each unit ends a whole step solved in one."""
    return dict(decode_whole_ends(symbols))


def decode_whole_dealt(symbols: Iterable[Symbol]) -> dict[str, int]:
    """What each chip took from the damage the group's minions dealt as they moved (whole.lp wdealt/2:
    Blaze), where it took some."""
    return {_name(s.arguments[0]): s.arguments[1].number for s in symbols
            if s.name == "wdealt" and s.arguments[1].number != 0}


@dataclass
class _Witness:
    """The atoms of one order of moves that makes a board of the whole step (decode_whole_witness), by unit."""

    go: dict[str, list[Symbol]] = field(default_factory=lambda: defaultdict(list))  # the routes of the class taken
    lat: dict[str, str] = field(default_factory=dict)
    flee: dict[str, str] = field(default_factory=dict)  # an escape that ends short of valid terrain
    # The shortest escapes from invalid terrain, by unit: hex → the hexes before it on one.
    esc: dict[str, dict[str, set[str]]] = field(default_factory=lambda: defaultdict(lambda: defaultdict(set)))
    still: dict[str, str] = field(default_factory=dict)
    held: dict[str, str] = field(default_factory=dict)  # what keeps an AI unit still (holds/2)
    bef: set[tuple[str, str]] = field(default_factory=set)  # minion pairs, the first moving first
    push: dict[str, list[tuple[str, str]]] = field(default_factory=lambda: defaultdict(list))
    late: set[str] = field(default_factory=set)
    hf: set[tuple[str, str]] = field(default_factory=set)
    hend: dict[str, str] = field(default_factory=dict)
    tele: dict[str, Act] = field(default_factory=dict)  # a teleport instead of moving (Tracker)
    hfrom: dict[str, str] = field(default_factory=dict)
    mv: dict[str, int] = field(default_factory=dict)
    walks: dict[str, dict[str, int]] = field(default_factory=lambda: defaultdict(dict))  # unit → hex → least layer
    stops: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # hexes no walk goes on from (never its start)
    d0: dict[str, int] = field(default_factory=dict)
    ok: dict[str, list[Symbol]] = field(default_factory=lambda: defaultdict(list))
    # By unit and route: two minions leaving one gate may take the same route at different moments.
    okp: dict[tuple[str, Symbol], set[tuple[str, str]]] = field(default_factory=lambda: defaultdict(set))
    burn: dict[str, tuple[str, int]] = field(default_factory=dict)  # the chip its damage on its way picked (Blaze)
    okb: dict[tuple[str, Symbol], set[tuple[str, int]]] = field(default_factory=lambda: defaultdict(set))  # what a route may deal


def decode_whole_witness(
    symbols: Iterable[Symbol], neighbours: Callable[[str], Iterable[str]]
) -> list[tuple[MoveOutcome, int | None, bool]]:
    """One order of moves that makes a board of the whole step (asp/movement/whole.lp, the atoms
    shown with ``witness``): each move with the mover's start distance (None: a hero) and whether it
    is a minion's. Heroes that moved before the minions first, then the minions in order, then the
    heroes that moved after them."""
    w = _Witness()
    for s in symbols:
        name, args = s.name, s.arguments
        if not args:
            continue
        unit = _name(args[0])
        if name == "go":
            w.go[unit].append(args[1])
        elif name == "lat":
            w.lat[unit] = _name(args[1])
        elif name == "flee":
            w.flee[unit] = _name(args[1])
        elif name == "wesc":
            w.esc[unit][_name(args[1])].add(_name(args[2]))
        elif name == "still":
            w.still[unit] = _name(args[1])
        elif name == "holds":
            w.held[unit] = args[1].name
        elif name == "bef":
            w.bef.add((unit, _name(args[1])))
        elif name == "push":
            w.push[unit].append((_name(args[1]), _name(args[2])))
        elif name == "late":
            w.late.add(unit)
        elif name == "hf":
            w.hf.add((unit, _name(args[1])))
        elif name == "hend":
            w.hend[unit] = _name(args[1])
        elif name == "tele":
            w.tele[unit] = Act("before", args[2].string, _name(args[1]), "teleport")
        elif name == "hfrom":
            w.hfrom[unit] = _name(args[1])
        elif name == "wmv":
            w.mv[unit] = args[1].number
        elif name in ("hr", "lr"):
            hex_, layer = _name(args[1]), args[2].number
            w.walks[unit][hex_] = min(layer, w.walks[unit].get(hex_, layer))
        elif name == "wstop":
            w.stops[unit].add(_name(args[1]))
        elif name == "wd0":
            w.d0[unit] = args[1].number
        elif name == "ok":
            w.ok[unit].append(args[1])
        elif name == "okp":
            w.okp[unit, args[1]].add((_name(args[2]), _name(args[3])))
        elif name == "burn":
            w.burn[unit] = (_name(args[1]), args[2].number)
        elif name == "okb":
            w.okb[unit, args[1]].add((_name(args[2]), args[3].number))

    def order(first: set[tuple[str, str]]) -> Callable[[str, str], int]:
        def compare(a: str, b: str) -> int:  # a tournament without 3-cycles: a total order
            if a == b:
                return 0
            before = (a, b) in first if a < b else (b, a) not in first
            return -1 if before else 1
        return compare

    # bef/2 is a total order over every minion of the group (a unit kept in its gate makes no move):
    # a minion's place is the number of minions before it.
    before = Counter(later for _, later in w.bef)
    minions = sorted([*w.go, *w.lat, *w.flee, *w.still, *(u for u in w.tele if u not in w.hend)], key=lambda u: before[u])
    heroes = sorted(w.hend, key=cmp_to_key(order(w.hf)))
    moves = [(_whole_hero(w, x, neighbours), None, False) for x in heroes if x not in w.late]
    moves += [(_whole_minion(w, u, neighbours), w.d0[u], True) for u in minions]
    moves += [(_whole_hero(w, x, neighbours), None, False) for x in heroes if x in w.late]
    return moves


def _walk_path(
    layers: dict[str, int], start: str, end: str, neighbours: Callable[[str], Iterable[str]], stops: set[str]
) -> tuple[str, ...]:
    """The first shortest walk in hex-name order (as ``_first``), from a walk's least layers; it goes
    on from no hex in ``stops``."""
    memo: dict[str, tuple[str, ...]] = {start: (start,)}

    def best(node: str) -> tuple[str, ...]:
        if node not in memo:
            memo[node] = min(best(q) for q in neighbours(node) if layers.get(q) == layers[node] - 1 and q not in stops)
            memo[node] += (node,)
        return memo[node]

    return best(end)


def _whole_minion(w: _Witness, uid: str, neighbours: Callable[[str], Iterable[str]]) -> MoveOutcome:
    if uid in w.tele:
        return _teleported(uid, w.tele[uid])
    if uid in w.lat:
        start = next(h for h, layer in w.walks[uid].items() if layer == 0)
        path = _walk_path(w.walks[uid], start, w.lat[uid], neighbours, w.stops[uid])
        return MoveOutcome(uid, w.lat[uid], "lateral", (), path)
    if uid in w.still:
        return MoveOutcome(uid, w.still[uid], "stay", (), (w.still[uid],), held=w.held.get(uid, ""))
    escapes = w.esc[uid]  # empty where the minion starts on valid terrain
    if uid in w.flee:
        return MoveOutcome(uid, w.flee[uid], "escape", (), _escape(escapes, w.flee[uid]), _escapes(escapes, w.flee[uid]))
    route = min(_route(t) for t in w.go[uid])
    entered = {left: route[i + 1] for i, left in enumerate(route[:-1])}
    displaced = tuple(sorted(Displacement(x, entered[left], left) for x, left in w.push[uid]))
    key = {(entered[left], left) for _, left in w.push[uid]}
    # What it dealt on its way (Blaze), as its move's answer gives it: nothing where the chip took 0. The
    # outcome's routes are those that may pick the same chip, as the answer groups them (_scorchings).
    burnt = w.burn.get(uid)
    struck = (Strike(*burnt),) if burnt is not None and burnt[1] else ()
    same = [r for t in w.ok[uid] if (r := _route(t))[-1] == route[-1] and w.okp[uid, t] == key
            and (burnt in w.okb[uid, t] if burnt is not None else not w.okb[uid, t])]
    if escapes:  # each route begins where an escape reached valid terrain, as many times as escapes reach it
        return MoveOutcome(uid, route[-1], "progress", displaced, min(_escape(escapes, r[0])[:-1] + r for r in same),
                           sum(_escapes(escapes, r[0]) for r in same), struck=struck)
    return MoveOutcome(uid, route[-1], "progress", displaced, min(same), len(same), struck=struck)


def _escape(escapes: dict[str, set[str]], end: str) -> tuple[str, ...]:
    """The first shortest escape to ``end`` in hex-name order (as ``_first``), from its start: the hex
    no step leads to."""
    memo: dict[str, tuple[str, ...]] = {}

    def best(node: str) -> tuple[str, ...]:
        if node not in memo:
            memo[node] = min((best(q) for q in escapes[node]), default=()) + (node,)
        return memo[node]

    return best(end)


def _escapes(escapes: dict[str, set[str]], end: str) -> int:
    """How many shortest escapes reach ``end`` (as ``_count``)."""
    memo: dict[str, int] = {}

    def count(node: str) -> int:
        if node not in memo:
            memo[node] = sum(count(q) for q in escapes[node]) if escapes[node] else 1
        return memo[node]

    return count(end)


def _teleported(uid: str, act: Act) -> MoveOutcome:
    """A teleport instead of moving (Tracker), as a move's answer gives it (adjudicate.acting): a stay on
    the hex it was teleported to."""
    return MoveOutcome(uid, act.chip, "stay", (), (act.chip,), acts=(act,))


def _whole_hero(w: _Witness, uid: str, neighbours: Callable[[str], Iterable[str]]) -> MoveOutcome:
    if uid in w.tele:
        return _teleported(uid, w.tele[uid])
    start, end, layers, stops = w.hfrom[uid], w.hend[uid], w.walks[uid], w.stops[uid]
    if end == start:
        return MoveOutcome(uid, end, "stay", (), (start,), held=w.held.get(uid, ""))
    if end in layers:
        return MoveOutcome(uid, end, "free", (), _walk_path(layers, start, end, neighbours, stops))
    # Its own gate: from where it began or a hex reached with a step to spare (hero.lp, via/4).
    near = set(neighbours(end))
    ways = [(n, h) for h, n in layers.items() if h in near and n < w.mv[uid] and h not in stops]
    steps = min(n for n, _ in ways)
    path = min(_walk_path(layers, start, h, neighbours, stops) for n, h in ways if n == steps)
    return MoveOutcome(uid, end, "return", (), path + (end,))
