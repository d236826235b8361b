"""Holding a position file to its `expected` section (docs/position-format.md).

Used by the parametrised position test and by `cloudspire faq`: both run the same checks.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from collections.abc import Iterable
from typing import Any

from adjudicator.questions.adjudicate import attack_options, faction_options, unit_options, whole
from adjudicator.questions.steps import expectation_keys
from adjudicator.questions.coverage import MOVES, QUESTION_STEPS, notices
from adjudicator.questions.dispute import check, explain
from adjudicator.questions.whole_step import DEFEATED
from adjudicator.answers.notation import NotationError, parse
from adjudicator.answers.verdicts import Judgement
from adjudicator.answers.attacks import AttackOutcome, EndState
from adjudicator.position.load import PositionDocument, load_document
from adjudicator.answers.moves import MoveOutcome
from adjudicator.answers.turns import IN_BARRACKS, UNDER, TurnEnd, TurnOutcome
from adjudicator.solving.solve import Deadline, TimedOut

MOVE_KEYS = {"moves": False, "ai-moves": True}
ATTACK_KEYS = {"attacks": None, "ai-attacks": True}
STEP_KEYS = expectation_keys()


def _answer(doc: PositionDocument, key: str, deadline: Deadline | None) -> Any:
    """The whole answer of the step question ``key`` names, for the position as it stands."""
    step, ai = STEP_KEYS[key]
    return whole(step.ask(doc.position, ai, deadline=deadline), deadline)


@dataclass(frozen=True)
class CaseResult:
    file: str
    faq: tuple[str, ...]
    failures: tuple[str, ...]
    complete: bool = True  # False: the deadline passed before every expectation was checked

    @property
    def passed(self) -> bool:
        return self.complete and not self.failures


# An outcome: its end, each displaced unit's landing with the damage it takes there (negative: health
# gained instead, chapter 8; None: that defeats it), the damage the unit takes as it moves, whether
# that defeats it, the dice it rolls, what it deals each chip beside it once its move ends (negative: a
# heal; None: that defeats it), and how it then leaves the board ('' where it stays on it: Immolate's
# defeat, Eruption's barracks).
# The hex it then places itself on ('' where none: Disperse), then what its talents do before or after
# the move (when, talent, chip, how, then: Consume), then what each rider it carried takes on the way
# (None: that defeats it; Roost, FAQ-07); then each faction's Source once it is made, where it changed; then
# the items it lost on its way (Cumbersome); last, an elfinkaze's movement stat where its walk on from a roost
# changed it (0: unchanged; Roost Roam).
_Act = tuple[str, str, str, str, str, str, int | None]  # its last: what a teleported unit takes (None: defeated)
_Key = tuple[str, tuple[tuple[str, str, int | None], ...], int, bool, int, tuple[tuple[str, int | None], ...], str, str,
             tuple[_Act, ...], tuple[tuple[str, int | None], ...], tuple[tuple[str, int], ...], tuple[str, ...], int]


def _outcome_key(entry: dict[str, Any]) -> _Key:
    hurt = dict(entry.get("displaced-damage") or {})
    fell = set(entry.get("displaced-defeated") or ())
    displaced = tuple(sorted((str(u), str(h), None if u in fell else int(hurt.get(u, 0)))
                             for u, h in (entry.get("displaced") or {}).items()))
    downed = set(entry.get("struck-defeated") or ())
    struck = tuple(sorted((str(x), None if x in downed else int(n)) for x, n in (entry.get("struck") or {}).items()))
    fallen = set(entry.get("carried-defeated") or ())
    carried = tuple(sorted({**{str(u): int(n) for u, n in (entry.get("carried-damage") or {}).items()},
                            **{str(u): None for u in fallen}}.items()))
    return (str(entry["end"]), displaced, int(entry.get("damage", 0)), bool(entry.get("defeated", False)),
            int(entry.get("rolls", 0)), struck, str(entry.get("exit", "")), str(entry.get("placed", "")),
            tuple((str(a["when"]), str(a["talent"]), str(a["chip"]), str(a["how"]), str(a.get("then", "")),
                   str(a.get("to", "")), None if a.get("fells") else int(a.get("taken", 0)))
                  for a in entry.get("acts") or ()), carried,
            tuple(sorted((str(f), int(n)) for f, n in (entry.get("source") or {}).items())),
            tuple(sorted(str(x) for x in entry.get("lost") or ())), int(entry.get("stat", 0)))


def _actual_key(move: MoveOutcome) -> _Key:
    displaced = tuple(sorted((d.unit, d.to, None if d.defeated else d.damage) for d in move.displaced))
    struck = tuple(sorted((s.chip, None if s.defeated else s.damage) for s in move.struck))
    carried = tuple(sorted((u, None if fell else n) for u, n, fell in move.carried))
    return (move.end, displaced, move.damage, move.defeated, move.rolls, struck, move.exit, move.placed,
            tuple((a.when, a.talent, a.chip, a.how, a.then, a.to, None if a.fells else a.taken) for a in move.acts),
            carried, move.source, move.lost, move.stat)


def check_moves(
    doc: PositionDocument, key: str, expected: dict[str, list[dict[str, Any]]], deadline: Deadline | None = None
) -> list[str]:
    failures = []
    for uid, wanted in expected.items():
        if uid not in doc.position.units:
            failures.append(f"{key}.{uid}: no such unit")
            continue
        # `moves` follows the controller; `ai-moves` forces the AI's obligations.
        ai = True if MOVE_KEYS[key] else None
        actual = {_actual_key(m): m for m in unit_options(doc.position, uid, ai, deadline).outcomes}
        wanted_keys = {}
        for entry in wanted or []:
            wanted_keys[_outcome_key(entry)] = entry
        for missing in sorted(set(wanted_keys) - set(actual)):
            failures.append(f"{key}.{uid}: expected outcome {_show(missing)} is not listed")
        for extra in sorted(set(actual) - set(wanted_keys)):
            failures.append(f"{key}.{uid}: unexpected outcome {_show(extra)} (path {'-'.join(actual[extra].path)})")
        for k in sorted(set(actual) & set(wanted_keys)):
            entry, move = wanted_keys[k], actual[k]
            if "kind" in entry and entry["kind"] != move.kind:
                failures.append(f"{key}.{uid}: {_show(k)} is {move.kind}, expected {entry['kind']}")
            if "path" in entry and tuple(entry["path"]) != move.path:
                failures.append(
                    f"{key}.{uid}: {_show(k)} path {'-'.join(move.path)}, expected {'-'.join(entry['path'])}"
                )
            odds = {int(j): str(p) for j, p in (entry.get("odds") or {}).items()}
            if "odds" in entry and odds != {j: str(p) for j, p in move.odds}:
                failures.append(f"{key}.{uid}: {_show(k)} odds {dict(move.odds)}, expected {odds}")
            if "chance" in entry and str(entry["chance"]) != str(move.chance):  # a die before the move (Anarchy)
                failures.append(f"{key}.{uid}: {_show(k)} chance {move.chance}, expected {entry['chance']}")
    return failures


def check_turn(
    doc: PositionDocument, key: str, expected: dict[str, Any], deadline: Deadline | None = None
) -> list[str]:
    result = _answer(doc, key, deadline)
    failures = []
    if "count" in expected and expected["count"] != result.count:
        failures.append(f"{key}: {result.count} distinct final boards, expected {expected['count']}")
    if "finals" in expected:
        actual = {_final(o.final, ((u, h) for u, h in o.health if (u, DEFEATED) not in o.final), o.fortifications,
                         o.sides, o.upgrades, o.control, o.source, o.chips, o.talents): o
                  for o in result.outcomes}
        wanted: dict[_Final, str | None] = {}
        for entry in expected["finals"]:
            entry = dict(entry)
            health = entry.pop("health", None) or {}
            forts = entry.pop("fortifications", None) or {}
            sides = entry.pop("sides", None) or {}
            upgrades = entry.pop("upgrades", None) or {}
            control = entry.pop("control", None) or {}
            source = entry.pop("source", None) or {}
            chips = entry.pop("chips", None) or {}
            talents = entry.pop("talents", None) or {}
            chance = entry.pop("chance", None)
            wanted[_final(entry.items(), health.items(), forts.items(), sides.items(), upgrades.items(),
                          control.items(), source.items(), chips.items(), talents.items())] = (
                None if chance is None else str(chance))
        for missing in sorted(wanted.keys() - actual.keys()):
            failures.append(f"{key}: expected final board {_show_final(missing)} is not produced")
        for extra in sorted(actual.keys() - wanted.keys()):
            failures.append(f"{key}: unexpected final board {_show_final(extra)}")
        for final, chance in wanted.items():
            if chance is not None and final in actual and str(actual[final].chance) != chance:
                failures.append(f"{key}: final board {_show_final(final)} has chance {actual[final].chance}, "
                                f"expected {chance}")
    if "notices" in expected:  # the step's own answer: what acts on a defeat only where a board has one
        have, want = sorted({n.name for n in result.notices}), sorted(str(w) for w in expected["notices"] or [])
        if have != want:
            failures.append(f"{key}: notices name {have}, expected {want}")
    return failures


# A final board as an expectation spells it: where units stand (a defeated unit "defeated", its health
# unsaid), then the health and the fortification upgrades of those whose the step changed (floating
# rocks' dice, damage while moving), the side of each unit an act flipped or promoted, and the upgrades
# (bottom first) of each spire an act stripped or unit an act changed, and the faction now controlling each
# landmark minion an act put under control (Recruiter), each faction's Source where the step changed it, the
# hex (or "removed") of each chip or landmark an act placed, moved or took off, and the talents of each unit
# an act gave or took an item.
_Final = tuple[tuple[tuple[str, str], ...], tuple[tuple[str, int], ...], tuple[tuple[str, int], ...],
               tuple[tuple[str, str], ...], tuple[tuple[str, tuple[str, ...]], ...], tuple[tuple[str, str], ...],
               tuple[tuple[str, int], ...], tuple[tuple[str, str], ...], tuple[tuple[str, tuple[str, ...]], ...]]


def _final(
    board: Iterable[tuple[Any, Any]], health: Iterable[tuple[Any, Any]], forts: Iterable[tuple[Any, Any]],
    sides: Iterable[tuple[Any, Any]] = (), upgrades: Iterable[tuple[Any, Any]] = (),
    control: Iterable[tuple[Any, Any]] = (), source: Iterable[tuple[Any, Any]] = (),
    chips: Iterable[tuple[Any, Any]] = (), talents: Iterable[tuple[Any, Any]] = (),
) -> _Final:
    return (tuple(sorted((str(u), str(n)) for u, n in board)), tuple(sorted((str(u), int(h)) for u, h in health)),
            tuple(sorted((str(u), int(n)) for u, n in forts)), tuple(sorted((str(u), str(s)) for u, s in sides)),
            tuple(sorted((str(s), tuple(map(str, u or ()))) for s, u in upgrades)),
            tuple(sorted((str(u), str(f)) for u, f in control)), tuple(sorted((str(f), int(n)) for f, n in source)),
            tuple(sorted((str(c), str(at)) for c, at in chips)),
            tuple(sorted((str(u), tuple(sorted(map(str, ts or ())))) for u, ts in talents)))


def _show_final(final: _Final) -> str:
    board, health, forts, sides, upgrades, control, source, chips, talents = final
    shown: dict[str, Any] = dict(board)
    if health:
        shown["health"] = dict(health)
    if forts:
        shown["fortifications"] = dict(forts)
    if sides:
        shown["sides"] = dict(sides)
    if upgrades:
        shown["upgrades"] = {s: list(u) for s, u in upgrades}
    if control:
        shown["control"] = dict(control)
    if source:
        shown["source"] = dict(source)
    if chips:
        shown["chips"] = dict(chips)
    if talents:
        shown["talents"] = {u: list(ts) for u, ts in talents}
    return str(shown)


def _taken(n: int | None) -> str:
    """What an act's teleported unit takes where it lands (Act.taken), as _show says it."""
    return " (defeated there)" if n is None else f" ({n} damage there)" if n else ""


def _show(key: _Key) -> str:
    end, displaced, damage, defeated, rolls, struck, exit, placed, acts, carried, source, lost, stat = key
    pushed = ", ".join(f"{u}→{h}" + (" (defeated)" if n is None else f" ({n} damage)" if n else "") for u, h, n in displaced)
    taken = " defeated there" if defeated else f" taking {damage} damage" if damage else ""
    dice = f" rolling {rolls} dice" if rolls else ""
    dealt = ", ".join(f"{x} " + ("defeated" if n is None else f"{n} damage") for x, n in struck)
    first = "".join(f"{talent} {how} {chip}{' to ' + to if to else ''}{_taken(n)}{' and ' + then if then else ''}, then "
                    for when, talent, chip, how, then, to, n in acts if when == "before")
    later = "".join(f" then {talent} {how} {chip}{' to ' + to if to else ''}{_taken(n)}{' and ' + then if then else ''}"
                    for when, talent, chip, how, then, to, n in acts if when == "after")
    return (first + f"end {end}{taken}{dice}" + (f" displacing {pushed}" if pushed else "")
            + (f" then placed on {placed}" if placed else "")
            + (f" then dealing {dealt}" if dealt else "") + (f" then leaving ({exit})" if exit else "") + later
            + "".join(f", {u} carried " + ("defeated" if n is None else f"taking {n} damage") for u, n in carried)
            + "".join(f", {f} at {n} Source" for f, n in source) + "".join(f", losing {x}" for x in lost)
            + (f", its movement stat now {stat}" if stat else ""))


def _attack_facts(o: AttackOutcome) -> dict[str, Any]:
    """An attack outcome in the terms of an `attacks` expectation (docs/position-format.md)."""
    health: dict[str, int] = {}
    for d in o.damage:
        if d.health_after is not None:  # several hits: the last leaves the least
            health[d.chip] = min(d.health_after, health.get(d.chip, d.health_after))
    return {
        "damage": o.damage_by_chip(),
        "health": health,
        "defeated": sorted(d.chip for d in o.defeated),
        "goes-to": {d.chip: d.goes_to for d in o.defeated},
        "revealed": {r.unit: r.chip for r in o.revealed},
        "removed": {d.chip: d.upgrade_removed for d in o.damage if d.upgrade_removed},
        "fortifications-lost": {d.chip: d.fortifications_lost for d in o.damage if d.fortifications_lost},
        "gains": {
            g.faction: {"source": g.source, "relics": g.relics, "spire": g.spire} for g in o.gains if not g.forfeited
        },
        "level-up": {lv.hero: sorted(lv.options) for lv in o.level_ups},
        "moved": dict(o.moved),
        "discarded": sorted(o.discarded),
        "wave-over": o.wave_over,
        "dodged": sorted(o.dodged),
        "flipped": sorted(o.flipped),
        "lost": sorted([u, x] for u, x in o.lost),
        "promoted": sorted(o.promoted),
        "demoted": sorted(o.demoted),
        "offered": {u: how for u, how, _ in o.offered},
        "morale": dict(o.morale),
        "returned": sorted(o.returned),
        "laid": {u: h for u, h, _ in o.laid},
        "summoned": dict(o.summoned),
    }


def _wanted_attack(entry: dict[str, Any], key: str, actual: Any) -> Any:
    """The expected value in the shape of the actual one: names as text, lists sorted, gains filled."""
    value = entry[key]
    if key in ("defeated", "dodged", "discarded", "flipped", "promoted", "demoted", "returned"):
        return sorted(str(v) for v in value or [])
    if key == "lost":
        return sorted([str(u), str(x)] for u, x in value or [])
    if key == "level-up":
        return {str(h): sorted(str(o) for o in opts) for h, opts in (value or {}).items()}
    if key == "gains":
        return {str(f): {"source": 0, "relics": 0, "spire": False, **(g or {})} for f, g in (value or {}).items()}
    if isinstance(value, dict):
        return {str(k): v if isinstance(v, (int, bool)) else str(v) for k, v in value.items()}
    return value


def check_attacks(
    doc: PositionDocument, key: str, expected: dict[str, Any], deadline: Deadline | None = None
) -> list[str]:
    failures = []
    for uid, spec in expected.items():
        if uid not in doc.position.units:
            failures.append(f"{key}.{uid}: no such unit")
            continue
        spec = spec or {}
        [options] = attack_options(doc.position, str(uid), ATTACK_KEYS[key], deadline)
        where = f"{key}.{uid}"
        if "must" in spec and spec["must"] != options.must_attack:
            failures.append(f"{where}: must attack is {options.must_attack}, expected {spec['must']}")
        if "cannot" in spec and spec["cannot"] != bool(options.cannot):
            failures.append(f"{where}: cannot attack is {bool(options.cannot)} ({options.cannot}), expected {spec['cannot']}")
        if "targets" in spec:
            have, want = sorted(t.chip for t in options.targets), sorted(str(t) for t in spec["targets"] or [])
            if have != want:
                failures.append(f"{where}: targets {have}, expected {want}")
        if "notices" in spec:  # the talents this unit's attacks name as not taken into account
            have, want = sorted({n.name for n in options.notices}), sorted(str(n) for n in spec["notices"] or [])
            if have != want:
                failures.append(f"{where}: notices name {have}, expected {want}")
        if "outcomes" not in spec:
            continue
        # Where every outcome says where its defeated chips go, that tells them apart too (Absorb, Capture).
        routed = all("goes-to" in (e or {}) for e in spec["outcomes"] or [])
        actual = {(o.target, o.redirected_to, o.splashed, o.forgone, o.pressed, o.cancelled,
                   tuple((c, i) for c, i, _ in o.stripped), o.instead, o.unloaded, o.shed, o.paid_for, o.upgraded,
                   "" if o.probability is None else str(o.probability),
                   tuple(sorted((d.chip, d.goes_to) for d in o.defeated)) if routed else (),
                   tuple(sorted((u, h) for u, h, _ in o.laid))): o
                  for o in options.outcomes}
        wanted = {(str(e["target"]), e.get("redirected-to"), bool(e.get("splash")),
                   tuple(sorted(str(f) for f in e.get("forgone") or [])),
                   tuple(sorted(str(t) for t in e.get("pressed") or [])),
                   tuple(sorted(str(u) for u in e.get("cancelled") or [])),
                   tuple(sorted((str(s), int(i)) for s, ix in (e.get("stripped") or {}).items() for i in ix or [])),
                   str(e.get("instead") or ""),
                   tuple(sorted((str(u), str(y)) for u, y in (e.get("unloaded") or {}).items())),
                   tuple(sorted((str(u), str(t), str(h)) for u, t, h in e.get("shed") or [])),
                   tuple(sorted((str(u), str(t)) for u, t in (e.get("paid-for") or {}).items())),
                   tuple(sorted((str(s), str(y)) for s, ys in (e.get("upgraded") or {}).items() for y in ys or [])),
                   str(e.get("probability") or ""),
                   tuple(sorted((str(c), str(w)) for c, w in (e.get("goes-to") or {}).items())) if routed else (),
                   tuple(sorted((str(u), str(h)) for u, h in (e.get("laid") or {}).items()))): e
                  for e in spec["outcomes"] or []}
        for missing in sorted(set(wanted) - set(actual), key=str):
            failures.append(f"{where}: expected attack on {_target(missing)} is not listed")
        for extra in sorted(set(actual) - set(wanted), key=str):
            failures.append(f"{where}: unexpected attack on {_target(extra)}")
        for k in sorted(set(actual) & set(wanted), key=str):
            facts = _attack_facts(actual[k])
            # `health` names the chips to check: an undamaged one keeps the health it has.
            listed = (wanted[k].get("health") or {}) if "health" in wanted[k] else {}
            facts["health"] = {
                str(chip): facts["health"].get(str(chip), _health_now(doc, str(chip))) for chip in listed
            }
            for field_name in facts:
                if field_name in wanted[k]:
                    want = _wanted_attack(wanted[k], field_name, facts[field_name])
                    if want != facts[field_name]:
                        failures.append(
                            f"{where}: attack on {_target(k)}: {field_name} {facts[field_name]}, expected {want}"
                        )
    return failures


def _health_now(doc: PositionDocument, chip: str) -> int | None:
    position = doc.position
    if chip in position.units:
        return position.units[chip].health
    gate = position.gates.get(chip.removeprefix("gate:"))
    if gate is not None and chip.startswith("gate:"):
        return gate.health
    return next((c.health for c in position.chips if c.id == chip), None)  # a waygate (chapter 6)


def _target(
    key: tuple[str, str | None, bool, tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[tuple[str, int], ...],
               str, tuple[tuple[str, str], ...], tuple[tuple[str, str, str], ...], tuple[tuple[str, str], ...],
               tuple[tuple[str, str], ...], str, tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]],
) -> str:
    target, redirected, splashed, forgone, pressed, cancelled, stripped, deed, unloaded, shed, paid, upgraded, chance, \
        routes, laid = key
    if deed:
        return f"{target} ({deed} instead of attacking)"
    instead = f" ({', '.join(forgone)} not retaliating)" if forgone else ""
    instead += f" ({', '.join(cancelled)} paying Source to take no damage)" if cancelled else ""
    instead += "".join(f" ({u} discarding {t} against the {h})" for u, t, h in shed)
    instead += "".join(f" ({u}'s owner spending Source for its {t})" for u, t in paid)
    removing = "".join(f" removing {s}'s upgrade {i}" for s, i in stripped)
    removing += "".join(f" taking {u}'s {y} upgrade" for u, y in unloaded)
    removing += "".join(f" adding a {y} upgrade at {s}'s bottom" for s, y in upgraded)
    removing += "".join(f" sending {c} to {w}" for c, w in routes)
    removing += "".join(f" with {u}'s toxic fumes on {h}" for u, h in laid)
    return (target + (f" (taken by {redirected})" if redirected else "") + (" with its splash" if splashed else "")
            + "".join(f" with {t}" for t in pressed) + instead + removing + (f" (probability {chance})" if chance else ""))


def end_dict(end: EndState) -> dict[str, Any]:
    """An end state as an expectation writes it (docs/position-format.md, `expected`)."""
    data: dict[str, Any] = {}
    for c in end.chips:
        fields = (
            ("name", c.name or None),
            ("health", c.health),
            ("upgrades", list(c.upgrades) if c.upgrades is not None else None),
            ("promoted", True if c.promoted else None),
            ("silenced", True if c.silenced else None),
            ("at", c.at),
            ("rides", c.rides),
            ("side", c.side or None),
            ("basic", True if c.basic else None),
            ("discarded-talents", list(c.discarded_talents) if c.discarded_talents else None),
            ("flipped", True if c.flipped else None),
            ("control", c.control),
            ("under", c.under),
            ("laid", c.laid or None),
            ("unmoved", True if c.unmoved else None),
            ("used", list(c.used) if c.used else None),
            ("arrow", c.arrow),
        )
        data[c.chip] = "defeated" if c.defeated else "discarded" if c.discarded else "removed" if c.removed \
            else "revealed" if c.revealed else "returned" if c.returned else "woke" if c.woke else {
            k: v for k, v in fields if v is not None}
    if end.source:
        data["source"] = dict(end.source)
    if end.morale:
        data["morale"] = dict(end.morale)
    if end.wave_over:
        data["wave-over"] = True
    if end.game_over:
        data["game-over"] = True
    if end.campfire:
        data["campfire"] = list(end.campfire)
    if end.earthscape:
        data["earthscape"] = list(end.earthscape)
    return data


def _plain(value: Any) -> Any:
    """Expected YAML data with every name as text, for comparing with end_dict."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value if isinstance(value, (int, bool)) or value is None else str(value)


def _compare_ends(where: str, actual: list[dict[str, Any]], wanted: list[dict[str, Any]]) -> list[str]:
    failures = [f"{where}: expected end {w} is not produced" for w in wanted if w not in actual]
    failures += [f"{where}: unexpected end {a}" for a in actual if a not in wanted]
    return failures


def check_end_states(
    doc: PositionDocument, key: str, expected: dict[str, Any], deadline: Deadline | None = None
) -> list[str]:
    """`attack-step`, `quick-strike`, `start-of-turn`, `end-of-turn`: the end states, exactly (with the
    probability of a Relentless retaliation's roll), their count, and the
    talents the answer itself names as not taken into account (`notices`, where given: those its lines
    bring about, as a Dodge flip, besides what the board's talents leave out)."""
    result = _answer(doc, key, deadline)
    failures = []
    if "count" in expected and expected["count"] != result.count:
        failures.append(f"{key}: {result.count} distinct end states, expected {expected['count']}")
    if "ends" in expected:
        # An end a Relentless retaliation's roll led to carries that roll's chance, given the attacks.
        # At the end of the turn, what Back to the Future's lines changed after it (`again`), as a turn's end.
        actual = [{**end_dict(o.end), **({} if o.probability is None else {"probability": str(o.probability)}),
                   **({"again": turn_end_dict(o.again_end)} if o.again_end is not None else {})}
                  for o in result.outcomes]
        failures += _compare_ends(key, actual, [_plain(e) for e in expected["ends"] or []])
    if "notices" in expected:
        have, want = sorted({n.name for n in result.notices}), sorted(str(w) for w in expected["notices"] or [])
        if have != want:
            failures.append(f"{key}: notices name {have}, expected {want}")
    return failures


def check_fire(
    doc: PositionDocument, key: str, expected: dict[str, Any], deadline: Deadline | None = None
) -> list[str]:
    """`spires-fire`: the results, exactly, their count, and (`notices`, where given) the talents the
    answer names as not taken into account."""
    result = _answer(doc, key, deadline)
    failures = []
    if "count" in expected and expected["count"] != result.count:
        failures.append(f"{key}: {result.count} distinct results, expected {expected['count']}")
    if "results" in expected:
        actual = [
            {"probability": str(r.probability), "choices": [list(c) for c in r.choices], "end": end_dict(r.end)}
            for r in result.results
        ]
        wanted = [
            {"probability": str(e.get("probability")), "choices": _plain(e.get("choices") or []),
             "end": _plain(e.get("end") or {})}
            for e in expected["results"] or []
        ]
        failures += _compare_ends(key, actual, wanted)
    if "notices" in expected:  # the answer's own, as a Wallop flip, besides what the board leaves out
        have, want = sorted({n.name for n in result.notices}), sorted(str(w) for w in expected["notices"] or [])
        if have != want:
            failures.append(f"{key}: notices name {have}, expected {want}")
    return failures


def turn_outcome_dict(outcome: TurnOutcome) -> dict[str, Any]:
    """A whole turn's outcome as an expectation writes it (docs/position-format.md, `expected`)."""
    data: dict[str, Any] = {"probability": str(outcome.probability)}
    if outcome.fire is not None and outcome.fire.choices:
        data["choices"] = [list(c) for c in outcome.fire.choices]
    return {**data, **turn_end_dict(outcome.end)}


def turn_end_dict(end: TurnEnd) -> dict[str, Any]:
    """A board's changes as a whole turn's expectation writes them (also Back to the Future's at the end of
    the turn: `again`)."""
    data: dict[str, Any] = {}
    for u in end.units:
        extra = (("health", u.health), ("chip", u.chip or None),
                 ("upgrades", list(u.upgrades) if u.upgrades is not None else None),
                 ("promoted", True if u.promoted else None), ("basic", True if u.basic else None),
                 ("discarded-talents", list(u.discarded_talents) if u.discarded_talents else None),
                 ("control", u.control), ("rides", u.rides), ("side", u.side or None),
                 ("woke", True if u.woke else None))
        extra_set = {k: v for k, v in extra if v is not None}
        data[u.unit] = {"promoted": True} if u.left == IN_BARRACKS else u.left if u.node is None \
            else {"at": u.node, **extra_set} if extra_set else u.node
    for spire, upgrades in end.spires:
        data[spire] = "defeated" if upgrades is None else {"upgrades": list(upgrades)}
    for spire in end.spires_home:  # returned to its barracks as the wave ended (Mining)
        data[spire] = "returned"
    for spire, hex_ in end.spires_at:  # moved (Creep): where, and its upgrades if they changed too
        data[spire] = {"at": hex_, **(data.get(spire) or {})}
    for spire, hex_ in end.arrows:  # its arrow pointed anew (Translocate)
        data[spire] = {**(data.get(spire) or {}), "arrow": hex_}
    for spire, faction in end.replaced:  # replaced by another faction's spire, its upgrades kept (Quantum Dark)
        data[spire] = {"faction": faction, **(data.get(spire) or {})}
    for spire, hex_, faction, chip, upgrades in end.built:  # built as units moved (Builder)
        data[spire] = {"at": hex_, "faction": faction, "chip": chip, **({"upgrades": list(upgrades)} if upgrades else {})}
    for spire, chip in end.renamed:  # promoted to another chip (Builder's siege tower)
        data[spire] = {"chip": chip, **(data.get(spire) or {})}
    for faction, health in end.gates:
        data[f"gate:{faction}"] = {"health": health}
    for faction, plank in end.docked:  # its fortress docked elsewhere as the wave ended (chapter 2)
        data[f"gate:{faction}"] = {"at": plank, **(data.get(f"gate:{faction}") or {})}  # as the end-of-wave step writes it
    for chip, health in end.chips:  # chapter 4's Source vein
        data[chip] = {"health": health}
    for landmark, what in end.landmarks:  # explored: revealed, or out of play
        data[landmark] = what
    for landmark, faction in end.linked:  # under a faction's control (Source Link)
        data[landmark] = {"control": faction}
    for landmark, hex_ in end.landmarks_at:  # moved by an act (Twister)
        data[landmark] = {"at": hex_}
    for chip, hex_, count in end.others:  # toxic fumes chips placed by a defeat, or returned as the wave ended
        data[chip] = "returned" if count == 0 else {"at": hex_, "count": count}
    for chip, unit in end.tucked:  # placed under a unit (chapter 4's rotten worms)
        data[chip] = UNDER + unit
    for chip in end.discarded:  # an Explosion chip that went off
        data[chip] = "discarded"
    for chip, unit in end.held:  # picked up by a hero, who holds it (Portable Gateport)
        data[chip] = {"held-by": unit}
    if end.laid:  # chapter 3: the hexes of the earthscapes placed, as earthscape-places writes them
        data["earthscape"] = dict(end.laid)
    if end.source:
        data["source"] = dict(end.source)
    if end.morale:
        data["morale"] = dict(end.morale)
    if end.wave_over:
        data["wave-over"] = True
    if end.game_over:
        data["game-over"] = True
    if end.campfire:
        data["campfire"] = list(end.campfire)
    return data


def check_whole_turn(
    doc: PositionDocument, key: str, expected: dict[str, Any], deadline: Deadline | None = None
) -> list[str]:
    unknown = sorted(set(expected) - {"count", "ends", "gaps", "notices"})
    if unknown:
        return [f"{key}: unknown fields {unknown}; a whole turn's expectation has count, ends, gaps and notices "
                "(a movement step's final boards go under movement-step)"]
    result = _answer(doc, key, deadline)
    failures = []
    if "count" in expected and expected["count"] != result.count:
        failures.append(f"{key}: {result.count} distinct outcomes, expected {expected['count']}")
    if "ends" in expected:
        actual = [turn_outcome_dict(o) for o in result.outcomes]
        wanted = [{**_plain(e), "probability": str(e.get("probability", 1))} for e in expected["ends"] or []]
        failures += _compare_ends(key, actual, wanted)
    if "gaps" in expected:
        have = sorted(g.step for g in result.gaps)
        want = sorted(str(g) for g in expected["gaps"] or [])
        if have != want:
            failures.append(f"{key}: gaps in the steps {have}, expected {want}")
    if "notices" in expected:  # the turn's: every talent or rule named, the steps' own included
        have, want = sorted({n.name for n in result.notices}), sorted(str(w) for w in expected["notices"] or [])
        if have != want:
            failures.append(f"{key}: notices name {have}, expected {want}")
    return failures


def _judgement_failures(where: str, judgement: Judgement, entry: dict[str, Any]) -> list[str]:
    failures = []
    if "verdict" in entry and entry["verdict"] != judgement.verdict:
        failures.append(f"{where}: {judgement.verdict}, expected {entry['verdict']}")
    if "core" in entry and entry["core"] != judgement.core_verdict:
        failures.append(f"{where}: the modelled rules alone say {judgement.core_verdict}, expected {entry['core']}")
    if "reasons" in entry:
        have = sorted({r.id for r in judgement.reasons})
        want = sorted(str(r) for r in entry["reasons"] or [])
        if have != want:
            failures.append(f"{where}: reasons {have}, expected {want}")
    return failures


def _claim(doc: PositionDocument, where: str, entry: dict[str, Any]) -> tuple[Any, list[str]]:
    try:
        return parse(str(entry.get("move", "")), doc.position), []
    except NotationError as error:
        return None, [f"{where}: {error}"]


def check_claims(
    doc: PositionDocument, key: str, expected: list[dict[str, Any]], deadline: Deadline | None = None
) -> list[str]:
    """`check`: each move's verdict and the ids of the reasons given for it."""
    failures = []
    for index, entry in enumerate(expected or []):
        where = f"{key}[{index}] {entry.get('move')!r}"
        claim, problems = _claim(doc, where, entry)
        if claim is None:
            failures += problems
            continue
        ai = True if entry.get("ai") else None
        failures += _judgement_failures(where, check(doc.position, claim, ai, deadline).judgement, entry)
    return failures


def check_explanations(
    doc: PositionDocument, key: str, expected: list[dict[str, Any]], deadline: Deadline | None = None
) -> list[str]:
    """`explain`: the claim as `check`, and for each other end hex or target listed, its verdict and
    reason ids."""
    failures = []
    for index, entry in enumerate(expected or []):
        where = f"{key}[{index}] {entry.get('move')!r}"
        claim, problems = _claim(doc, where, entry)
        if claim is None:
            failures += problems
            continue
        result = explain(doc.position, claim, True if entry.get("ai") else None, deadline)
        failures += _judgement_failures(where, result.check.judgement, entry)
        others = {j.subject: j for j in result.others}
        for subject, wanted in (entry.get("others") or {}).items():
            judgement = others.get(str(subject))
            if judgement is None:
                failures.append(f"{where}: no judgement on {subject}; judged: {sorted(others)}")
            else:
                failures += _judgement_failures(f"{where} on {subject}", judgement, wanted or {})
    return failures


def check_notices(
    doc: PositionDocument, key: str, expected: dict[str, Any], deadline: Deadline | None = None
) -> list[str]:
    """`notices`: for each question (movement, attack, fire), exactly the talents (and chapter rules,
    "chapter 2: grafted-snare-all") named as not taken into account, as the question asked in the
    position's own way of control would name them; `moves`, those the answers of `cloudspire moves`
    name, which count some rules themselves (the dice rolled for floating rocks)."""
    failures = []
    for question, wanted in expected.items():
        if question not in (*QUESTION_STEPS, MOVES):
            failures.append(f"{key}.{question}: expected one of {', '.join((*QUESTION_STEPS, MOVES))}")
            continue
        if question == MOVES:
            named = {n for o in faction_options(doc.position, deadline=deadline) for n in o.notices}
        else:
            named = set(notices(doc.position, question))
        if question == "movement":  # and what the moves' own answers left out (damage along an escape)
            named |= {n for o in faction_options(doc.position, deadline=deadline) for n in o.notices}
        have = sorted({n.name for n in named})
        want = sorted(str(w) for w in wanted or [])
        if have != want:
            failures.append(f"{key}.{question}: notices name {have}, expected {want}")
    return failures


CHECKS = {
    **{k: check_moves for k in MOVE_KEYS},
    **{k: check_attacks for k in ATTACK_KEYS},
    **{k: {"boards": check_turn, "ends": check_end_states, "fire": check_fire, "turn": check_whole_turn}[s.expect]
       for k, (s, _) in STEP_KEYS.items()},
    "check": check_claims,
    "explain": check_explanations,
    "notices": check_notices,
}


def check_document(doc: PositionDocument, file: str, deadline: Deadline | None = None) -> CaseResult:
    """The file's expectations held against the adjudicator; TimedOut when ``deadline`` passes."""
    failures: list[str] = []
    for key, value in doc.expected.items():
        check = CHECKS.get(key)
        if check is None:
            failures.append(f"expected.{key}: unknown expectation; known: {', '.join(CHECKS)}")
        else:
            failures += check(doc, key, value or {}, deadline)
    if not doc.expected:
        failures.append("the file has no expected outcomes")
    return CaseResult(file, doc.faq, tuple(failures))


def check_file(path: Path) -> CaseResult:
    return check_document(load_document(path), str(path))


def position_files(root: Path) -> list[Path]:
    return sorted(root.rglob("*.yaml"))
