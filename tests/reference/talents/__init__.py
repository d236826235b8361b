"""The reference's talents: one small function per talent and moment, registered by the talent's name.

The reference's core (``combat.py``, ``movement.py``) does not name a talent it has handed over here: at
each moment of ``MOMENTS`` it asks what the talents on a chip change (``total``, ``least``, ``says``,
``first``, ``results``), and this package answers from the functions registered for that moment with
``@talent(name, moment, note)``. The note is the reference's numbered note (the notes stay at the top of
``combat.py`` and ``movement.py``), so that a function and the reading it follows are found together.

A talent on an existing moment is one function in a module of this package, of its own or of its
family's; every module here is loaded, so nothing else is edited. A talent that needs a moment no core
function asks yet adds the moment to ``MOMENTS`` and the one question to the core, as a talent file
adds a hook to ``asp/core/hooks.lp``. The moments are named after those hooks where one fits.

The reference stays independent of ``asp/`` and the solver path: nothing here reads an encoding.
``drawable`` reads the catalogue's modelled talents, for the generators only.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol


class Chip(Protocol):
    """A unit or a spire as the reference's core holds it: whether a talent is in use on it now."""

    holder: ClassVar[str]  # "unit" or "spire"

    def has(self, talent: str) -> bool: ...


@dataclass(frozen=True)
class Moment:
    holders: tuple[str, ...]  # whose talents the core asks at it: "unit", "spire"
    step: str  # the catalogue's step it acts in (what ``drawable`` filters by)
    asks: str  # what the function is given and returns, and how the core combines the answers


MOMENTS: dict[str, Moment] = {
    # Who attacks, and whom (docs/combat.md, Valid targets)
    "rests": Moment(("unit",), "attack", "f(rules, attacker) -> str | None: why its unit does not attack now "
                    "(hook rests/2); the first given"),
    "strikes": Moment(("unit",), "attack", "f() -> bool: its unit attacks and retaliates with attack 0 "
                      "(hook strikes/2)"),
    "at_will": Moment(("unit",), "attack", "f(rules, attacker) -> bool: a minion need not attack, as a hero "
                      "(hook at_will/2)"),
    "flies": Moment(("unit",), "attack", "f() -> bool: its unit flies, while grouped only on the AI's side "
                    "unless loose (FAQ-28)"),
    "grants_flying": Moment(("spire",), "attack", "f(rules, spire, unit) -> bool: the spire gives the unit "
                            "Flying (hook granted/4)"),
    "loose": Moment(("unit",), "attack", "f() -> bool: its unit's talents ignore their \"Ungrouped only\" "
                    "(hook loose/3)"),
    "unflown": Moment(("unit", "spire"), "attack", "f(rules, board, chip, unit) -> bool: the chip's talent "
                      "makes the unit's Flying ignored (hook ignored/4)"),
    "unranged": Moment(("spire",), "attack", "f(rules, spire, unit) -> bool: the spire's talent makes the "
                       "unit's Range ignored, its range 1 (hook ignored/4)"),
    "anti_air": Moment(("unit", "spire"), "attack", "f(chip) -> bool: the chip may attack Flying units "
                       "(hooks shield/4, sshield/4 left off)"),
    "shield": Moment(("unit", "spire"), "attack", "f(rules, board, by, at) -> bool: the chip, on node "
                     "``at``, is no valid target of unit or spire ``by`` (hooks shield/4, sshield/4)"),
    "sshield": Moment(("unit",), "spires-fire", "f(rules, spire, unit) -> bool: the unit is no valid "
                      "target of the spire's fire (hook sshield/4)"),
    "challenges": Moment(("unit",), "attack", "f(rules, attacker, unit) -> bool: an opposing attacker may "
                         "attack only the units whose talent so says, when any does (hook restrict/2)"),
    "binds": Moment(("unit",), "attack", "f(unit) -> bool: an attacker with it among its targets must "
                    "attack it, or one such (hook binds/3)"),
    "afar": Moment(("unit",), "attack", "f() -> int: its unit may also attack opposing units that many "
                   "hexes away, beyond its range (hook afar/4)"),
    "prefers_flying": Moment(("spire",), "spires-fire", "f() -> bool: an AI spire prefers Flying units "
                             "among its best targets (hook spire_prefers/3)"),
    "forgo": Moment(("unit",), "attack", "f(rules, board, unit, attacker id, chosen, roll) -> bool: the unit, "
                    "about to retaliate, does not (``chosen``: its player's choice; ``roll``: a die's total) "
                    "(hook forgo/3)"),
    "counter_first": Moment(("unit",), "attack", "f(rules, unit, attacker) -> bool: the attacked unit, if it "
                            "may retaliate, does so before the attack's damage (hook counter_first/3)"),
    # Defeat (docs/combat.md, Defeat and rewards): where a defeated unit goes (hook sent/4)
    "sends": Moment(("unit",), "defeat", "f(rules, board, unit, defeater) -> str | None: where the standing "
                    "defeater's talent sends the unit it defeated, before the unit's own; the first given"),
    "goes": Moment(("unit",), "defeat", "f(rules, board, log, unit) -> str | None: where the defeated unit's "
                   "own talent sends it; the first given"),
    "takes": Moment(("unit",), "defeat", "f(rules, board, log, unit, defeater) -> str | None: where the standing "
                    "defeater's talent takes the unit, after the unit's own; the first given"),
    "may_instead_landmark": Moment(("unit",), "attack", "f() -> bool: its unit may, instead of attacking, "
                                   "discard a landmark minion beside it (hook may_instead/4)"),
    "may_boost": Moment(("unit",), "attack", "f(rules, board, attacker) -> int: its attack may deal that much "
                        "more, before reduce (hook may_boost/4); summed"),
    "splashes": Moment(("unit", "spire"), "attack", "f() -> bool: its attack or shot may also hit the units "
                       "beside its target"),
    "leech": Moment(("unit",), "attack", "f() -> bool: once the exchange is over, it recovers what its attack "
                    "or its retaliation dealt"),
    "swindles": Moment(("unit",), "attack", "f() -> bool: its hit on a faction unit deals 0 and takes that "
                       "faction's Source instead"),
    "spared": Moment(("unit",), "attack", "f(rules, board, by: str) -> bool: chip ``by``'s hit takes nothing "
                     "from the unit (hooks spared/3, reduce/4)"),
    "held": Moment(("unit",), "attack", "f(rules, board, by: str, unit, how) -> bool: a hit of kind ``how`` "
                   "takes at most 1 from the unit (hooks rcap/4, cap/5, limit/4)"),
    "recover_cap": Moment(("unit",), "attack", "f() -> int | None: the unit recovers at most that at a time; "
                          "the least wins"),
    "covers": Moment(("spire",), "attack", "f(rules, spire, unit) -> bool: an attack on the unit deals at most "
                     "1 (hook limit/4)"),
    "attacked_gain": Moment(("unit",), "attack", "f(rules, unit) -> int: the unit's faction gains that much "
                            "Source when a unit or a spire attacks it; summed"),
    "may_cancel": Moment(("unit",), "attack", "f(rules, board, unit, amount) -> bool: its owner may pay that "
                         "much Source for the hit to deal 0 (hook may_cancel/3)"),
    "displace": Moment(("unit",), "attack", "f(rules, attacker, unit) -> bool: the attacker and the unit it "
                       "attacks trade hexes before the damage (hook displace/4)"),
    "assimilates": Moment(("unit",), "defeat", "f(rules, unit, fallen) -> bool: the unit's faction takes the "
                          "fallen unit's reward (the defeater's own rules: N52, N117)"),
    # Spires Fire (docs/combat.md, Spires Fire)
    "volley": Moment(("spire",), "spires-fire", "f() -> bool: the spire fires at all its valid targets at once, "
                     "rolling once (hook volley/2)"),
    "faces": Moment(("spire",), "spires-fire", "f() -> bool: the spire's outcome turns on whether its dice show "
                    "a miss or a 2 (hook faces/2)"),
    "again": Moment(("spire",), "spires-fire", "f() -> bool: the spire, standing with a target, fires once more "
                    "(hook again/2)"),
    "at_one": Moment(("unit",), "attack", "f() -> bool: the unit's talent acts where a hit leaves it at "
                     "exactly 1 health from more (hook at_one/2)"),
    "cheers": Moment(("unit",), "defeat", "f(rules, unit, fallen) -> bool: the unit, credited with the defeat, "
                     "raises its faction's morale die"),
    "levies": Moment(("unit", "spire"), "defeat", "f() -> int: the chip, defeating a chip of an opposing "
                     "faction, robs that faction of that much Source; summed"),
    "withholds": Moment(("unit",), "defeat", "f() -> bool: the defeated unit's Source reward goes to no "
                        "defeater"),
    "levied": Moment(("unit",), "defeat", "f(rules, unit, credit, by) -> int: the faction credited with the "
                     "unit's defeat takes that much Source from the unit's faction; summed"),
    "aims": Moment(("spire",), "spires-fire", "f(rules, spire, node) -> bool: the spire may fire at a unit on "
                   "``node``; all must allow it"),
    # Retaliation's kin, levelling up, the wave
    "spikes": Moment(("unit", "spire"), "attack", "f() -> int: a unit that attacks the chip takes that much "
                     "once the attack is dealt, if it stands (hook take/5); summed"),
    "capacity": Moment(("unit",), "attack", "f() -> int: the hero may hold that many upgrades more than its "
                       "capacity; summed"),
    "lone_type": Moment(("unit",), "end-of-wave", "f() -> str: the minion is of this minion type, which alone "
                        "in play ends the wave"),
    # The movement stat and the terrain allowance (docs/movement.md, The movement stat)
    "mv_add": Moment(("unit",), "movement", "f(position, unit, start, ai) -> int: the unit's movement stat "
                     "is that much more (hook mv_add/3); summed"),
    "mv_may": Moment(("unit",), "movement", "f(position, unit, start, ai) -> bool: the unit's player may make "
                     "its movement stat 1 more, or not: both are outcomes (hook mv_may/3)"),
    "smv_set": Moment(("spire",), "movement", "f(position, spire, unit, start) -> int | None: the spire makes "
                      "the unit's movement stat that, after every mv_add (hook mv_set/3); the least wins"),
    "allow_gain": Moment(("unit",), "movement", "f() -> Terrain: the unit may enter that terrain, an "
                         "easier allowance than its own kept (hook allow_set/3); the hardest wins"),
    "ai_end_pref": Moment(("unit",), "movement", "f() -> Terrain: among the ends the AI rules allow the "
                          "unit, it takes one on such a hex if it can (hook ai_end_pref/3); joined"),
    # A unit's attack and a spire's shot (docs/combat.md, One attack, in order)
    "atk_as": Moment(("unit",), "attack", "f(attacker, target: Fighter | None) -> int | None: the attacker's "
                     "attack stat against the chip (hook atk_as/5); the first given wins, else its own"),
    "boost": Moment(("unit",), "attack", "f(attacker, target: Fighter | None) -> int: its attack deals the "
                    "chip that much more, before reduce (hook boost/5); summed"),
    "reduce": Moment(("unit",), "attack", "f(target) -> int: a unit's attack on it deals that much less "
                     "(hook reduce/4); summed"),
    "cap": Moment(("unit",), "attack", "f(rules, board, attacker, target) -> int | None: a unit's attack "
                  "on it deals at most that, after reduce (hook cap/5); the least wins"),
    "sreduce": Moment(("unit",), "spires-fire", "f(target) -> int: a spire's shot at it deals that much "
                      "less; summed"),
    "halves": Moment(("unit", "spire"), "attack", "f() -> bool: its hit on a unit that would take 1 or more "
                     "takes half that unit's health instead, and an attack stat of * is in use (Poison)"),
    # A retaliation (docs/combat.md, Retaliation)
    "rdie": Moment(("unit",), "attack", "f() -> bool: its retaliation deals what the spire die rolls "
                   "until a blank or a 2, not its stat (hook rdie/3)"),
    "rreduce": Moment(("unit",), "attack", "f() -> int: a retaliation on it deals that much less "
                      "(hook rreduce/4); summed"),
    "rcap": Moment(("unit",), "attack", "f() -> int | None: a retaliation on it deals at most that, after "
                   "rreduce (hook rcap/4); the least wins"),
    "rspare": Moment(("unit",), "attack", "f() -> bool: a retaliation that would defeat it deals 0 "
                     "(hook rspare/3)"),
    "dodge": Moment(("unit",), "attack", "f() -> bool: a unit's attack or retaliation hit that would "
                    "defeat it deals 0, and it flips to its basic side (hook dodge/3)"),
    # An attack on a spire
    "prestrip": Moment(("unit",), "attack", "f() -> int: its attack on a spire first removes that many of "
                       "the spire's bottom upgrades, no damage (hook prestrip/4); summed"),
    "unstack": Moment(("unit",), "attack", "f(rules, board, attacker, spire id, upgrades) -> frozenset[int] "
                      "| None: the places among ``upgrades`` (the spire as prestrip left it) its attack "
                      "removes instead of its damage, or None when it deals its damage (hook unstack/5); "
                      "joined"),
    "may_unstack": Moment(("unit",), "attack", "f(rules, attacker, spire: Tower) -> list[int]: the "
                          "upgrades (indexes in the position's list) a player's unit may remove instead of "
                          "its damage, each a choice (hook may_unstack/5); joined"),
    "may_instead_spire": Moment(("unit",), "attack", "f(rules, attacker) -> bool: its unit may, instead of "
                                "attacking, strip an opposing spire with an upgrade beside it (hook may_instead/4)"),
}

_REGISTERED: dict[str, dict[tuple[str, str], Callable[..., Any]]] = {m: {} for m in MOMENTS}  # (talent, holder)
NOTES: dict[str, tuple[str, ...]] = {}  # talent -> the reference's notes its functions follow


def talent(name: str, moment: str, note: str = "", on: tuple[str, ...] = ()
           ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Registers the function as what talent ``name`` does at ``moment`` on a chip of the holders ``on``
    (default: every holder of the moment); ``note``: the reference's note."""
    if moment not in MOMENTS or not set(on) <= set(MOMENTS[moment].holders):
        raise ValueError(f"{name}: no moment {moment!r} for {on} (tests/reference/talents MOMENTS)")

    def register(f: Callable[..., Any]) -> Callable[..., Any]:
        for holder in on or MOMENTS[moment].holders:
            if (name, holder) in _REGISTERED[moment]:
                raise ValueError(f"{name} is registered twice at {moment} for a {holder}")
            _REGISTERED[moment][name, holder] = f
        if note:
            NOTES[name] = tuple(dict.fromkeys((*NOTES.get(name, ()), note)))
        return f

    return register


def _acting(moment: str, chip: Chip) -> Iterable[Callable[..., Any]]:
    return [f for (name, holder), f in _REGISTERED[moment].items() if holder == chip.holder and chip.has(name)]


@dataclass(frozen=True)
class Written:
    """A chip as the movement reference reads the position: every talent written on it in use."""

    holder: str
    talents: tuple[str, ...]

    def has(self, talent: str) -> bool:
        return talent in self.talents


def names(moment: str, chip: Chip, *args: Any) -> list[str]:
    """The talents in use on ``chip`` whose function at ``moment`` says so, given ``args``."""
    return [name for (name, holder), f in _REGISTERED[moment].items()
            if holder == chip.holder and chip.has(name) and f(*args)]


def results(moment: str, chip: Chip, *args: Any) -> list[Any]:
    """What each talent in use on ``chip`` says at ``moment``, given ``args``."""
    return [f(*args) for f in _acting(moment, chip)]


def total(moment: str, chip: Chip, *args: Any) -> int:
    return sum(results(moment, chip, *args))


def says(moment: str, chip: Chip, *args: Any) -> bool:
    return any(results(moment, chip, *args))


def least(moment: str, chip: Chip, *args: Any) -> int | None:
    given = [n for n in results(moment, chip, *args) if n is not None]
    return min(given) if given else None


def first(moment: str, chip: Chip, *args: Any) -> Any:
    return next((r for r in results(moment, chip, *args) if r is not None), None)


def registered(holder: str | None = None, moments: Iterable[str] | None = None) -> frozenset[str]:
    """The talents with a function for ``holder``'s chips (None: any) at one of ``moments`` (None: any)."""
    wanted = set(MOMENTS if moments is None else moments)
    return frozenset(name for moment, fs in _REGISTERED.items() if moment in wanted
                     for name, on in fs if holder is None or holder == on)


# The talents the reference's cores still name (combat.py's ``has("…")``, movement.py's ``in talents``)
# that the generators' general pools draw, by holder and core, to move here family by family: until then
# they are checked there, and ``drawable`` offers them as it offers the registered ones. The other
# talents the cores name are drawn by the strategies that build the boards they need (chapters, dice,
# edges of the turn); a draw of them all on every board found disagreements (/work/notes/ref15-*.yaml).
IN_CORE: dict[tuple[str, str], tuple[str, ...]] = {
    ("unit", "combat"): ("Press Gang",),
    ("unit", "movement"): ("Breakneck", "Crush", "Flying", "Incorporeal", "Peaceful"),
}


def drawable(holder: str, steps: Iterable[str], leaving: Iterable[str] = (), *, core: str = "combat",
             moments: Iterable[str] | None = None, hooks: Iterable[str] | None = None) -> tuple[str, ...]:
    """What a generator draws on a ``holder`` for a question of ``steps``: the talents the catalogue
    says its encodings model in one of them that the reference checks on such a chip, less ``leaving``,
    sorted. Checked: registered here at one of ``moments`` (default: every moment of those steps, and
    then also those ``core`` still names, IN_CORE); and, when ``hooks`` are named, encoded with one of
    them (asp/core/hooks.lp)."""
    from adjudicator.position.talents import catalogue  # the catalogue only, never an encoding

    wanted, left = set(steps), set(leaving)
    at = [m for m, moment in MOMENTS.items() if moment.step in wanted] if moments is None else moments
    checked = registered(holder, at) | (set(IN_CORE.get((holder, core), ())) if moments is None else set())
    return tuple(sorted(name for name, t in catalogue().talents.items()
                        if name in checked and t.encoding and wanted & set(t.modelled_steps) and name not in left
                        and (hooks is None or set(hooks) & set(t.hooks))))


for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")
