"""Move notation: one unit's move or one attack, as a player writes it and as the tool prints it.

    harrier a3-b3-c3-c4 jaelana>c3     the harrier's route, start first; Jaelana is displaced to c3
    harrier c4                         only the end hex: any route the rules allow there
    harrier stay                       it does not move
    kram e2-e3-gate:heirs              a hero returning to its gate
    battleborn x harrier               an attack
    kram x gate:narora>scout           an attack on a gate whose damage the top unit (scout) takes
    kram x harrier +fortification      ... and the level-up taken after it
    kram pass                          a unit that does not attack
    echri consume:jaelana b1-a1        an act before the move: Consume on jaelana, then the route
    echri b1-c1 consume:jaelana        an act once the move ends
    mage call-minion:scout>c3 stay     an act with what it gives or where it puts the chip (to)
    scout tracker:f4                   an act instead of moving (Tracker, Evoke): no route follows it

A name that is not a plain word (letters, digits, ``_ . : ' -``) is written as a JSON string:
``"x). #false." a1-b1``. docs/notation.md is the reference; every outcome the tool prints parses
back to the same claim (``format_move(parse(...))`` round-trips).
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import TYPE_CHECKING

from adjudicator.position.model import Position
from adjudicator.answers.moves import Act, MoveOutcome
from adjudicator.position.talents import catalogue

if TYPE_CHECKING:  # `moves` formats its outcomes here, and builds neither claims nor attacks
    from adjudicator.answers.attacks import AttackOutcome
    from adjudicator.position.claims import ActClaim, AttackClaim, Claim, MoveClaim

_PLAIN = re.compile(r"[A-Za-z0-9_.:'][A-Za-z0-9_.:'-]*")
_WORDS = {"x", "pass", "stay"}
LEVEL_UPS = ("attack", "fortification", "range", "promote", "recover", "none")
# Acts of a rule rather than a talent, by the name the encodings give them (asp/movement/shada.lp: the
# shada's minion placement; asp/scenarios/chapter_2.lp: a fortress's health chip taken on deploying).
RULE_ACTS = ("Minion Promotion", "deploy-health-chips")


class NotationError(ValueError):
    """The text is not a move or an attack in the notation, or names what the position lacks."""


def quote(name: str) -> str:
    return name if _PLAIN.fullmatch(name) and name not in _WORDS else json.dumps(name, ensure_ascii=False)


def format_move(move: MoveOutcome) -> str:
    """The notation of a listed move outcome: its acts before the route, the route (none after an act
    made instead of moving: Tracker), its displacements and its acts once it ends."""
    before = "".join(f" {format_act(a)}" for a in move.acts if a.when == "before")
    after = "".join(f" {format_act(a)}" for a in move.acts if a.when == "after" and a.stated)
    if any(a.instead for a in move.acts):
        return f"{quote(move.unit)}{before}"
    route = joined(move.path, move.landed) if len(move.path) > 1 else "stay"
    return f"{quote(move.unit)}{before} {route}{_pushes(move)}{after}"


def act_name(talent: str) -> str:
    """A talent's name as a claim writes it: lower case, words joined by '-' ("Yrtel's Way": yrtels-way)."""
    return re.sub(r"[^a-z0-9]+", "-", talent.casefold().replace("'", "").replace("’", "")).strip("-")


def format_act(act: Act | ActClaim) -> str:
    """An act as a claim states it: ``talent:chip>to``, the chip left out where it is the unit itself,
    discarded by its die (Anarchy), ``>to`` where the act names none."""
    text = act_name(act.talent)
    if act.chip and not (isinstance(act, Act) and act.how == "discard"):
        text += f":{quote(act.chip)}"
    return text + (f">{quote(act.to)}" if act.to else "")


def joined(path: tuple[str, ...], landed: tuple[int, ...]) -> str:
    """A route's nodes joined by '-', and by '~' before each hex a teleport landed on (docs/notation.md)."""
    return quote(path[0]) + "".join(("~" if i in landed else "-") + quote(n) for i, n in enumerate(path) if i)


def format_end(move: MoveOutcome) -> str:
    """Where a move outcome leads, in the notation of a claim of its end alone: the unit, its end
    (stay where it does not move) and whom it displaces where, without the route shown."""
    end = quote(move.end) if len(move.path) > 1 else "stay"
    return f"{quote(move.unit)} {end}{_pushes(move)}"


def _pushes(move: MoveOutcome) -> str:
    return "".join(f" {quote(d.unit)}>{quote(d.to)}" for d in move.displaced)


def format_attack(attack: AttackOutcome, level_up: str | None = None) -> str:
    """The notation of a listed attack outcome (with the level-up taken, in a whole step). What a unit
    does instead of attacking is named by its talent ("grove pacify golem"), which no claim states yet."""
    if attack.instead:
        return f"{quote(attack.attacker)} {attack.instead.lower()} {quote(attack.target)}"
    text = f"{quote(attack.attacker)} x {quote(attack.target)}"
    if attack.redirected_to:
        text += f">{quote(attack.redirected_to)}"
    return text + (f" +{level_up}" if level_up else "")


def format_claim(claim: Claim) -> str:
    from adjudicator.position.claims import AttackClaim  # imported here: only `check` reads claims
    if isinstance(claim, AttackClaim):
        if claim.target is None:
            return f"{quote(claim.unit)} pass"
        text = f"{quote(claim.unit)} x {quote(claim.target)}"
        text += f">{quote(claim.redirected_to)}" if claim.redirected_to else ""
        return text + (f" +{claim.level_up}" if claim.level_up else "")
    if claim.path is None:
        route = quote(claim.end)
    else:
        route = joined(claim.path, claim.landed) if len(claim.path) > 1 else "stay"
    pushes = "".join(f" {quote(u)}>{quote(h)}" for u, h in claim.displaced or ())
    before = "".join(f" {format_act(a)}" for a in claim.before)
    after = "".join(f" {format_act(a)}" for a in claim.after)
    return f"{quote(claim.unit)}{before} {route}{pushes}{after}"


def _tokens(text: str) -> list[str]:
    """Split on whitespace outside JSON strings; a string stays one token with its quotes."""
    tokens, i = [], 0
    while i < len(text):
        if text[i].isspace():
            i += 1
            continue
        start = i
        while i < len(text) and not text[i].isspace():
            if text[i] == '"':
                i = _string_end(text, i)
            else:
                i += 1
        tokens.append(text[start:i])
    return tokens


def _string_end(text: str, i: int) -> int:
    """The index after the JSON string starting at ``text[i]``."""
    i += 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
        elif text[i] == '"':
            return i + 1
        else:
            i += 1
    raise NotationError(f"unterminated quoted name in {text!r}")


def _split(token: str, separator: str) -> list[str]:
    """Split a token on a separator that is not inside a JSON string; unquote the parts."""
    parts, current, i = [], "", 0
    while i < len(token):
        if token[i] == '"':
            end = _string_end(token, i)
            current += token[i:end]
            i = end
        elif token.startswith(separator, i):
            parts.append(current)
            current, i = "", i + len(separator)
        else:
            current += token[i]
            i += 1
    return [*parts, current]


def _name(part: str, what: str, text: str) -> str:
    if part.startswith('"'):
        try:
            value = json.loads(part)
        except json.JSONDecodeError:
            raise NotationError(f"{what}: {part} is not a well-formed quoted name") from None
        return str(value)
    if not part:
        raise NotationError(f"{what}: a name is missing in {text!r}")
    return part


def _route(token: str, position: Position, text: str) -> tuple[list[str], list[int]]:
    """A route's nodes, and the index of each a teleport landed on (written after '~'). Hex names have
    no '-'; a gate node's faction may, so rejoin greedily, but never more pieces than the longest gate
    name has (the work stays linear in the route)."""
    nodes: list[str] = []
    landed: list[int] = []
    for k, part in enumerate(_split(token, "~")):
        if k:
            landed.append(len(nodes))
        nodes += _nodes(part, position, text)
    # '~' stands between the chip stepped onto and the hex landed on: a chip is stepped onto from
    # somewhere, and is no hex landed on itself.
    if any(i < 2 or i - 1 in landed for i in landed):
        raise NotationError(f"route: '~' must follow a chip stepped onto from the hex before it, as in 'd4-e5~f1'; got {token!r}")
    return nodes, landed


def _nodes(token: str, position: Position, text: str) -> list[str]:
    """The nodes of a route written with '-' alone."""
    pieces = _split(token, "-")
    widest = 1 + max((faction.count("-") for faction in position.gates), default=0)
    nodes: list[str] = []
    i = 0
    while i < len(pieces):
        if pieces[i].startswith('"'):  # a quoted name is one piece
            name, i = _name(pieces[i], "route", text), i + 1
            if not _is_node(position, name):
                raise NotationError(f"route: {name!r} is not a hex or gate on this board")
            nodes.append(name)
            continue
        for j in range(min(len(pieces), i + widest), i, -1):
            candidate = "-".join(pieces[i:j])
            if _is_node(position, candidate):
                nodes.append(candidate)
                i = j
                break
        else:
            raise NotationError(f"route: {pieces[i] or '(empty)'!r} is not a hex or gate on this board")
    return nodes


def _is_node(position: Position, name: str) -> bool:
    return name in position.hexes or (name.startswith("gate:") and name[5:] in position.gates)


def parse(text: str, position: Position) -> Claim:
    """Read a move or an attack; names are checked against ``position``."""
    from adjudicator.position.claims import AttackClaim  # imported here: only `check` reads claims
    tokens = _tokens(text.strip())
    if len(tokens) < 2:
        raise NotationError(f"expected a unit and its move, as in 'harrier b2-c2' or 'harrier x drift'; got {text!r}")
    unit = _name(tokens[0], "unit", text)
    if unit not in position.units:
        raise NotationError(f"no unit {unit!r} in the position; units: {', '.join(sorted(position.units))}")
    if tokens[1] == "pass":
        if len(tokens) > 2:
            raise NotationError(f"nothing may follow 'pass' in {text!r}")
        return AttackClaim(unit, None)
    if tokens[1] == "x":
        return _attack(unit, tokens[2:], position, text)
    return _move(unit, tokens[1:], position, text)


def _attack(unit: str, rest: list[str], position: Position, text: str) -> AttackClaim:
    from adjudicator.position.claims import AttackClaim  # imported here: only `check` reads claims
    if not rest or len(rest) > 2:
        raise NotationError(f"expected 'UNIT x TARGET[>UNIT] [+LEVEL-UP]'; got {text!r}")
    parts = _split(rest[0], ">")
    if len(parts) > 2:
        raise NotationError(f"at most one '>' after the target in {text!r}")
    target = _name(parts[0], "target", text)
    chips = {*position.units, *(s.id for s in position.spires), *(f"gate:{f}" for f in position.gates)}
    chips |= {c.id for c in position.chips if c.health is not None}  # a waygate (Harbinger chapter 6)
    if target not in chips:
        raise NotationError(f"target: no unit, spire, gate or waygate {target!r}")
    redirected = _name(parts[1], "redirected to", text) if len(parts) == 2 else None
    if redirected is not None and redirected not in position.units:
        raise NotationError(f"redirected to: no unit {redirected!r}")
    level_up = None
    if len(rest) == 2:
        if not rest[1].startswith("+") or rest[1][1:] not in LEVEL_UPS:
            raise NotationError(f"level-up: expected +{' or +'.join(LEVEL_UPS)}; got {rest[1]!r}")
        level_up = rest[1][1:]
    return AttackClaim(unit, target, redirected, level_up)


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.casefold())


@cache
def _act_names() -> dict[str, str]:
    """Every name an act may be written by (its letters and digits, any case) → the talent's or rule's name."""
    return {_key(name): name for name in (*catalogue().talents, *RULE_ACTS)}


def _act_talent(token: str) -> str | None:
    """The talent or rule an act token names (``consume:jaelana``, ``anarchy``); None: no act."""
    head = _split(token, ":")[0]
    return None if head.startswith('"') else _act_names().get(_key(head))


def _unknown_act(token: str) -> None:
    """Refuse a token written as an act (``name:chip``) whose name is no talent or rule's."""
    head = _split(token, ":")[0]
    if ":" in token and head and not head.startswith('"') and ">" not in head and head != "gate":
        close = catalogue().suggestions(head.replace("-", " "))
        hint = f" (did you mean {', '.join(act_name(c) for c in close)}?)" if close else ""
        raise NotationError(f"act {token!r}: no talent or rule named {head!r}{hint}; an act is TALENT:CHIP, as in "
                            f"'consume:jaelana'")


def _is_route(token: str, position: Position, text: str) -> bool:
    try:
        _route(token, position, text)
    except NotationError:
        return False
    return True


def _act(token: str, talent: str, position: Position, text: str) -> ActClaim:
    """``talent[:chip[>to]]``: the chip any unit, hex or gate, spire, landmark or other chip of the
    position, or a count (Elfin's); ``to`` a hex, or what the act gives (an upgrade's kind, health)."""
    from adjudicator.position.claims import ActClaim  # imported here: only `check` reads claims
    body = ":".join(_split(token, ":")[1:])
    if ":" not in token:
        return ActClaim(talent)
    parts = _split(body, ">")
    if len(parts) > 2:
        raise NotationError(f"act {token!r}: expected TALENT:CHIP or TALENT:CHIP>TO, with at most one '>'")
    chip = _name(parts[0], f"act {act_name(talent)}: chip", text)
    chips = {*position.units, *(s.id for s in position.spires), *(m.id for m in position.landmarks),
             *(c.id for c in position.chips)}
    if chip not in chips and not _is_node(position, chip) and not chip.isdigit():  # a count: Elfin's
        raise NotationError(f"act {act_name(talent)}: {chip!r} is no unit, hex, gate, spire, landmark or chip of this "
                            f"position (expected TALENT:CHIP, as in 'consume:jaelana')")
    to = _name(parts[1], f"act {act_name(talent)}: to", text) if len(parts) == 2 else None
    return ActClaim(talent, chip, to)


def _move(unit: str, rest: list[str], position: Position, text: str) -> MoveClaim:
    from adjudicator.position.claims import MoveClaim  # imported here: only `check` reads claims
    start = position.node_of(unit)
    landed: list[int] = []
    before: list[ActClaim] = []
    # Acts before the move come first: a token naming a talent that is no route (docs/notation.md, Acts).
    while rest and (talent := _act_talent(rest[0])) is not None and not _is_route(rest[0], position, text):
        before.append(_act(rest[0], talent, position, text))
        rest = rest[1:]
    if not rest or (rest[0] != "stay" and _act_talent(rest[0]) is not None and not _is_route(rest[0], position, text)):
        if not before:
            raise NotationError(f"expected a route, an end hex or 'stay' after the unit in {text!r}")
        rest = ["stay", *rest]  # acts alone: it makes no move after them (or made them instead of moving)
    if rest[0] == "stay":
        path: list[str] | None = [start]
    else:
        if not _is_route(rest[0], position, text):
            _unknown_act(rest[0])
        path, landed = _route(rest[0], position, text)
    pushes = []
    after: list[ActClaim] = []
    for token in rest[1:]:
        talent = _act_talent(token)
        if talent is not None:
            after.append(_act(token, talent, position, text))
            continue
        _unknown_act(token)
        parts = _split(token, ">")
        if len(parts) != 2:
            raise NotationError(f"expected a displacement UNIT>HEX or an act TALENT:CHIP, got {token!r}")
        pushed, to = _name(parts[0], "displaced unit", text), _name(parts[1], "displaced to", text)
        if pushed not in position.units:
            raise NotationError(f"displaced unit: no unit {pushed!r}")
        if not _is_node(position, to):
            raise NotationError(f"displaced to: {to!r} is not a hex or gate on this board")
        pushes.append((pushed, to))
    end = path[-1]
    if len(path) == 1 and rest[0] != "stay" and path[0] != start:
        path = None  # only the end hex was given
    return MoveClaim(unit, end, tuple(path) if path else None, tuple(sorted(pushes)) if pushes else None,
                     tuple(landed) if path else (), tuple(before), tuple(after))
