"""Readable tables and a text picture of the board, for people at the table."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

from adjudicator.position.hexmap import TERRAIN_LETTERS
from adjudicator.position.model import Hex, Kind, Position, Terrain
from adjudicator.answers.moves import Act, MoveOutcome, StepOutcome, StepResult, Strike, UnitOptions
from adjudicator.answers.notation import format_attack, joined
from adjudicator.answers.notices import Notice
from adjudicator.answers.verdicts import ILLEGAL, LEGAL, MANDATORY, UNDETERMINED, CheckResult, Explanation, Reason

if TYPE_CHECKING:  # a whole turn's and the attack steps' answers are only read here: `moves` does not build their classes
    from adjudicator.answers.attacks import (AttackOptions, AttackOutcome, AttackStepResult, Damage, FireResult, FireStepResult,
                                             Gain, Roll6, Rolled, StepEnd)
    from adjudicator.answers.turns import TurnOutcome, TurnResult


TERRAIN_LETTER = {terrain: letter for letter, terrain in TERRAIN_LETTERS.items()}


def board(position: Position) -> str:
    """The map picture with hex names, and what stands on each hex."""
    chips: dict[str, str] = {}
    for unit in position.units.values():
        if unit.at and unit.rides is None:
            chips[unit.at] = unit.id
    for spire in position.spires:
        chips[spire.at] = f"spire {spire.id}"
    for unit in position.units.values():  # an elfinkaze on its roost's hex (FAQ-05: two chips, one hex)
        if unit.at and unit.rides is not None:
            chips[unit.at] += f", {unit.id} riding it"
    for landmark in position.landmarks:
        chips[landmark.at] = f"landmark {landmark.id}"
    for chip in position.chips:
        chips[chip.at] = f"chip {chip.id}"
    rows = sorted({h.row for h in position.hexes.values()})
    width = max(len(_cell(h)) for h in position.hexes.values()) + 1
    lines = []
    for row in rows:
        cells = {h.column: h for h in position.hexes.values() if h.row == row}
        last = max(cells)
        text = " " * (width // 2 if row % 2 == 0 else 0)
        for column in range(last + 1):
            h = cells.get(column)
            text += _cell(h).ljust(width) if h else ".".ljust(width)
        lines.append(f"{row:>3}  {text.rstrip()}")
    rock = ", r floating rock" if any(h.rock for h in position.hexes.values()) else ""
    lines.append(f"     terrain after the name: l plains, f forest, m mountains, w water{rock} (none: path); "
                 "* Source Well")
    for gate in position.gates.values():
        stack = f", stack {', '.join(gate.stack)}" if gate.stack else ""
        point = "" if gate.fortress else " (a deployment point, no fortress)"
        if gate.tunnels:  # Harbinger chapter 4: its minions deploy from these this turn
            point += f" (its minions deploying from {', '.join(gate.tunnels)})"
        lines.append(f"     {gate.node}{point} beside {', '.join(gate.beside) or 'nothing'}{stack}")
    for name, faction in sorted(position.factions.items()):
        if faction.barracks:  # off the board, where a talent may place them from (Spawn)
            lines.append(f"     barracks of {name}: {', '.join(faction.barracks)}")
    for hex_name in sorted(chips):
        lines.append(f"     {hex_name}: {chips[hex_name]}")
    return "\n".join(lines)


def notices(found: Iterable[Notice]) -> str:
    """The warning printed above an answer that may depend on talents the adjudicator does not model;
    empty when there are none."""
    found = list(found)
    if not found:
        return ""
    lines = ["NOT TAKEN INTO ACCOUNT: this answer may be wrong, since it leaves out these talents or rules:"]
    lines += [f"  ! {n}" for n in found]
    lines.append("  (cloudspire talents and cloudspire scenarios list what is modelled)")
    return "\n".join(lines) + "\n\n"


def _cell(h: Hex) -> str:
    """A hex as the picture shows it: name, terrain letter unless path, * for a Source Well."""
    letter = "r" if h.rock else "" if h.terrain is Terrain.PATH else TERRAIN_LETTER[h.terrain]
    return h.name + letter + ("*" if h.well else "")


def _table(header: tuple[str, ...], rows: Iterable[tuple[str, ...]]) -> str:
    rows = list(rows)
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    out = ["  " + "  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip()]
    out += ["  " + "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    return "\n".join(out)


def _displaced(move: MoveOutcome) -> str:
    """The units the move displaced, the riders it carried that took damage on the way (Roost), and the
    movement stat a walk on from a roost left it with (Roost Roam)."""
    pushed = [f"{d.unit} {d.source}→{d.to}{_hurt(d.damage, d.defeated)}" for d in move.displaced]
    stat = [f"its movement stat now {move.stat}"] if move.stat else []
    return ", ".join([*pushed, *(f"{u} carried{_hurt(n, fell)}" for u, n, fell in move.carried), *stat]) or "-"


def _struck(move: MoveOutcome) -> str:
    """What a unit deals on its way (Blaze) and the chips beside it once its move ends (Impale, Source
    Aura), where it then places itself first (Disperse), and whether it then leaves the board
    (Immolate, Eruption)."""
    def one(s: Strike) -> str:
        if s.damage < 0:  # healed instead (chapter 8)
            return f"{s.chip} healed {-s.damage}"
        return f"{s.chip} {s.damage}" + (" (defeated)" if s.defeated else f" ({s.removed} upgrade off)" if s.removed else "")

    dealt = ", ".join(one(s) for s in move.struck)
    gone = {"defeated": "itself defeated", "barracks": "itself to its barracks",
            "fortress": "itself to its fortress"}.get(move.exit, "")
    placed = f"placed on {move.placed}" if move.placed else ""
    return ", ".join(x for x in (placed, dealt, gone) if x) or "-"


def acts_text(move: MoveOutcome, position: Position | None) -> str:
    """What its talents do before or after the move, in order: "Consume defeats jaelana at b3 (flips),
    then moves a3-b3"; "-" where none. Without the position the move began on, no hex is named."""
    def one(act: Act) -> str:
        chip = position.units.get(act.chip) if position is not None else None
        spire = next((s for s in position.spires if s.id == act.chip), None) if position is not None else None
        landmark = next((lm for lm in position.landmarks if lm.id == act.chip), None) if position is not None else None
        at = chip.at if chip is not None else spire.at if spire is not None else landmark.at if landmark is not None else None
        where = f" at {at}" if at else ""
        then = f" ({_THEN.get(act.then, act.then + 's')})" if act.then else ""
        # What the unit it teleports takes where it lands (Act.taken; negative: it recovers).
        taken = (" (defeated there)" if act.fells else f" ({act.taken} damage there)" if act.taken > 0
                 else f" (healed {-act.taken} there)" if act.taken else "")
        return f"{act.talent} " + _ACTS[act.how].format(chip=f"{act.chip}{where}", to=act.to) + taken + then

    if not move.acts:
        return "-"
    first = [one(a) for a in move.acts if a.when == "before"]
    later = [one(a) for a in move.acts if a.when == "after"]
    if any(a.instead for a in move.acts):  # instead of moving (Tracker, Stasis, Evoke): no move after it
        return ", then ".join((*first, *later))
    moved = f"stays on {move.end}" if move.kind == "stay" else f"moves {'-'.join(move.path)}"
    return ", then ".join((*first, moved, *later))


# How a talent acts on a chip before or after a move (asp/movement/after.lp, beforemove_act/4).
# How a keel minion turns as its move ends (asp/movement/keel.lp keel_turn/3), Colony's return included.
TURNS = {"promote": "promotes", "demote": "demotes", "fortress": "returns to its fortress"}
_ACTS = {"defeat": "defeats {chip}", "barracks": "returns {chip} to its barracks",
         "strip": "removes the attack upgrades of {chip}", "recover": "lets {chip} recover up to 4 health",
         "scatter": "leaves its group for {chip}", "teleport": "teleports it to {chip}",
         "dig": "places a Tunnel Access chip on {chip}", "shift": "places {chip} on {to}",
         "radiate": "gives {chip} 1 {to}", "improve": "adds an upgrade ({to}) on top of {chip}",
         "improve_under": "adds an upgrade ({to}) at the bottom of {chip}", "hurt": "deals {chip} {to} damage",
         "call": "teleports {chip} to {to}", "stasis": "places it on top of {chip}",
         "possess": "places it underneath {chip}, its faction now controlling it",
         "evoke": "summons {chip} onto {to}", "summon": "summons {chip}, promoted, grouped above it (flipped)",
         "burrow": "burrows it onto {chip}, inactive", "health_chip": "adds a health chip of {chip} to it",
         "discard": "rolls its die: {chip} is discarded", "cash": "discards {chip} for 3 Source",
         "control": "gains control of {chip}", "place": "places it on the Source well {chip}",
         "fuse": "fuses with {chip}: both to the barracks, {to} deployed promoted on its Source well",
         "distort": "places the market's top earthscape over its isle at {chip}",
         "replace": "replaces {chip} with a spire of its faction's barracks, its upgrades kept",
         "pickup": "picks up {chip}", "drop": "drops the item on {chip}",
         "explode": "moved beside {chip}: rolls its D6, {chip} discarded",
         "build": "builds a dispatch platform on the Source well {chip}",
         "tower": "promotes the dispatch platform {chip} to a siege tower, its upgrades kept",
         "clear": "discards the unrevealed landmark {chip}", "waygate": "places a waygate on the Source well {chip}",
         "clear_waygate": "discards the unrevealed landmark {chip} and places a waygate on the Source well {to}",
         "perch": "places elfinkaze of its barracks on top of it as it deploys, {chip} Glidebomb up and {to} Save up",
         "alone": "lets no unit recover"}
# What the unit then does, where "(flips)" does not read.
_THEN = {"defeated": "itself defeated", "barracks": "itself to its barracks", "demote": "itself demoted"}


def _unnamed(chip: str, goes_to: str) -> str:
    """What a defeated chip with no printed name is: a gate, a waygate (chapter 6: it is destroyed) or
    a spire."""
    return "gate" if chip.startswith("gate:") else "waygate" if goes_to == "destroyed" else "spire"


def _hurt(damage: int, defeated: bool) -> str:
    """Damage taken as a unit moves or is displaced (Toxic Secretion, Lahar); negative, health gained
    instead (chapter 8)."""
    if defeated:
        return " (defeated there)"
    if damage < 0:
        return f" (healed {-damage})"
    return f" ({damage} damage)" if damage else ""


def _taken(move: MoveOutcome) -> str:
    if move.defeated:
        return "defeated"
    # An item that left it as it took damage (Cumbersome), placed on its hex.
    lost = "".join(f", drops {x}" for x in move.lost)
    return f"{move.damage}{lost}" if move.damage else "-"


def _dice(move: MoveOutcome, life: int) -> str:
    """The spire attack dice a move rolls on the way, and the odds of what they cost: "2: -0 25/36,
    -1 10/36, defeated 1/36"."""
    if not move.rolls:
        return "-"
    odds = ", ".join(f"{'defeated' if lost >= life else f'-{lost}'} {p}" for lost, p in move.odds)
    return f"{move.rolls}: {odds}"


def leading_note(options: UnitOptions, position: Position) -> str:
    """Why a minion's outcomes are not yet what it will do: another leads (else "")."""
    if position.units[options.unit].kind is Kind.MINION and not options.leading and not options.must_wait:
        return "not the leading minion: it moves after closer ones, on the board they leave; `movement-step` plays it out"
    return ""


def unit_options(options: UnitOptions, position: Position, ai: bool) -> str:
    unit = position.units[options.unit]
    start = unit.at or f"gate:{unit.faction}"
    distance = "no route to its mark" if options.start_distance is None else f"{options.start_distance} from its mark"
    title = f"{unit.id} ({unit.chip}, {unit.kind.value}, at {start}, {distance})"
    if options.must_wait:
        return f"{title}\n  cannot move: {options.must_wait}"
    label = "outcomes the AI must take" if ai else "legal outcomes"
    # The damage column only where a move costs some (Toxic Secretion, Lahar); the dice column where a
    # move rolls some (chapter 1's floating rocks).
    hurt = any(m.damage or m.defeated for m in options.outcomes)
    rolled = any(m.rolls for m in options.outcomes)
    # The chance of the die rolled before the move (Anarchy) or once it ends (Explosion), where some outcome has one.
    gambled = any(m.chance is not None for m in options.outcomes)
    # What it deals on its way (Blaze) or once its move ends (Impale, Source Aura), where some outcome
    # deals something.
    struck = any(m.acts_after for m in options.outcomes)
    # What its talents do before or after the move, where some outcome has one act (Consume).
    acting = any(m.acts for m in options.outcomes)
    # The units a teleport defeats on the chip it lands on (Riftwalk), where some outcome does.
    felled = any(m.felled for m in options.outcomes)
    # A keel minion that promotes or demotes where its move ends, where some outcome does.
    turning = any(m.turns for m in options.outcomes)
    # Each faction's Source after the move, where some outcome changes one (docs/movement.md, A faction's Source).
    sourcing = any(m.source for m in options.outcomes)
    header = ("end", "kind", "path", "routes", *(("damage",) if hurt else ()), *(("dice",) if rolled else ()),
              "displaced", *(("defeated on a chip",) if felled else ()), *(("deals",) if struck else ()),
              *(("acts",) if acting else ()), *(("then",) if turning else ()), *(("chance",) if gambled else ()),
              *(("Source after",) if sourcing else ()))
    rows = ((m.end, _kind(m), joined(m.path, m.landed), str(m.paths), *((_taken(m),) if hurt else ()),
             *((_dice(m, unit.life),) if rolled else ()), _displaced(m),
             *((", ".join(m.felled) or "-",) if felled else ()), *((_struck(m),) if struck else ()),
             *((acts_text(m, position),) if acting else ()), *((TURNS.get(m.turns, "-"),) if turning else ()),
             *((str(m.chance) if m.chance is not None else "-",) if gambled else ()), *((_source(m.source),) if sourcing else ()))
            for m in options.outcomes)
    table = _table(header, rows)
    text = f"{title}: {len(options.outcomes)} {label}\n{table}"
    note = leading_note(options, position)
    if note:
        text += f"\n  ({note})"
    return text


def _count_line(result: StepResult | AttackStepResult, what: str, step: str) -> str:
    who = "AI's obligatory" if result.ai else "legal"
    found = f"{result.count}" if result.complete else f"at least {result.count}"
    line = f"{result.faction}: {found} distinct {what} of the {who} {step} step"
    shown = len(result.outcomes)
    return line + (f" (showing {shown})" if shown < result.count else "")


def step(result: StepResult) -> str:
    lines = [notices(result.notices) + _count_line(result, "final boards", "movement")]
    if any(o.rolled for o in result.outcomes):
        lines.append("(boards that differ in what the dice rolled (floating rocks, Anarchy, Explosion) do are chance, not choice; "
                     "each board's chance is that of its dice, given its moves)")
    if result.summary:
        rows = [
            (s.unit, ", ".join(s.ends), "forced" if s.forced else f"{len(s.ends)} possible",
             "not known" if s.depends_on is None else ", ".join(s.depends_on) or "-")
            for s in result.summary
        ]
        lines.append("\nwhere each unit ends, over every final board:\n"
                     + _table(("unit", "ends", "", "depends on"), rows))
    for number, outcome in enumerate(result.outcomes, 1):
        lines += _numbered(number, step_outcome(outcome))
    return "\n".join(lines)


def step_outcome(outcome: StepOutcome) -> list[str]:
    """One final board of the movement step, then the moves that make it, a line each."""
    health, forts = dict(outcome.health), dict(outcome.fortifications)

    def after(u: str) -> str:
        said = ([f"health {health[u]}"] if health.get(u) else []) + (
            [f"fortifications {forts[u]}"] if u in forts else [])
        return f" ({', '.join(said)})" if said else ""

    board_text = ", ".join(f"{u} {n}{after(u)}" for u, n in outcome.final)
    # A gate or chapter 4's Source vein a move struck: the health it is left with.
    board_text += "".join(f", {x} health {h}" for x, h in outcome.health if x not in dict(outcome.final))
    # A unit an act flipped or promoted, a spire an act stripped (Consume, Yrtel's Way, Yrtel's Will).
    board_text += "".join(f", {x} {side}" for x, side in outcome.sides)
    board_text += "".join(f", {x} upgrades {' '.join(u) or 'none'}" for x, u in outcome.upgrades)
    board_text += "".join(f", {x} controlled by {f}" for x, f in outcome.control)
    board_text += f", Source {_source(outcome.source)}" if outcome.source else ""
    # A chip or landmark an act placed, moved or took off the map; a unit an act gave or took an item.
    board_text += "".join(f", {x} {'off the map' if at == 'removed' else 'on ' + at}" for x, at in outcome.chips)
    board_text += "".join(f", {u} talents {', '.join(ts) or 'none'}" for u, ts in outcome.talents)
    lines = [board_text + (f"  [chance {outcome.chance}]" if outcome.rolled else "")]
    for move in outcome.sequence:
        extra = f"  displacing {_displaced(move)}" if move.displaced else ""
        extra += f"  defeating {', '.join(move.felled)} on the chip it lands on" if move.felled else ""
        hurt = _rolled(move) if move.rolls else _hurt(move.damage, move.defeated)
        extra += f"  dealing {_struck(move)}" if move.acts_after else ""
        extra += f"  ({acts_text(move, None)})" if move.acts else ""
        lines.append(f"  {move.unit:<12} {joined(move.path, move.landed):<28} {_kind(move)}{hurt}{extra}")
    return lines


def _source(source: tuple[tuple[str, int], ...]) -> str:
    """Each faction's Source after a move or a step, where it changed: "heirs 20"; "-" where none did."""
    return ", ".join(f"{f} {n}" for f, n in source) or "-"


def _kind(move: MoveOutcome) -> str:
    """A move's kind, with what held an AI unit still: "stay (held: survival)"."""
    return f"{move.kind} (held: {move.held.replace('_', ' ')})" if move.held else move.kind


def _numbered(number: int, lines: list[str]) -> list[str]:
    """An outcome's lines under its number, as the step answers list them."""
    return [f"\n{number}. {lines[0]}", *(f"   {line}" for line in lines[1:])]


def _rolled(move: MoveOutcome) -> str:
    """A move's dice in a line of play, with the result that line follows: "(2 dice: -1, 5/18)"."""
    lost, p = move.odds[0]
    dice = "1 die" if move.rolls == 1 else f"{move.rolls} dice"
    return f" ({dice}: {'defeated' if move.defeated else f'-{lost}'}, {p})"


# ----------------------------------------------------------------------------------------- combat


def _hit(d: Damage) -> str:
    from adjudicator.answers.attacks import ATTACK, LOST, RECOVERY  # imported here: combat only
    sign = f"+{d.amount} instead of -{d.amount}" if d.healed else f"+{d.amount}" if d.how == RECOVERY else f"-{d.amount}"
    text = f"{d.chip} {sign}" + ("" if d.how == ATTACK else f" (lost after attacking, credited to {d.by})" if d.how == LOST else f" ({d.how} by {d.by})")
    if d.health_before is not None:
        text += f" {d.health_before}→{d.health_after}"
    if d.fortifications_lost:
        text += f", {d.fortifications_lost} fortification lost"
    if d.upgrade_removed:
        text += f", loses its bottom {d.upgrade_removed} upgrade"
    elif d.health_before is None:
        text += ", no upgrade lost"
    return text


def _gain(g: Gain) -> str:
    if g.forfeited:
        return f"{g.faction} gains nothing (AI)"
    parts = [f"+{g.source} Source"] if g.source else []
    parts += [f"{g.relics} relic draw(s)"] if g.relics else []
    parts += ["a free spire on the Source Well"] if g.spire else []
    parts += [f"pillages {g.pillaged}"] if g.pillaged else []
    return f"{g.faction}: " + ", ".join(parts or ["nothing"])


def attack_lines(o: AttackOutcome, indent: str = "    ") -> list[str]:
    """What one attack leads to, a line per consequence."""
    target = o.target + (f", damage taken by {o.redirected_to} in the gate" if o.redirected_to else "")
    pressed = f" with {', '.join(o.pressed)}" if o.pressed else ""
    chance = "" if o.probability is None else f" (probability {o.probability}: a retaliation rolled the spire die)"
    lines = [f"{indent}{o.attacker} attacks {target}{pressed}{chance}" if not o.instead
             else f"{indent}{o.attacker} does not attack: {o.instead} instead, on {o.target}"]
    lines += [f"{indent}  discarded: {u} (not defeated: no reward)" for u in o.discarded]
    lines += [f"{indent}  returned to its fortress: {u} (not defeated: no reward)" for u in o.returned]
    if o.moved:  # Eager: the two trade hexes before the damage
        lines.append(f"{indent}  displaced first: " + ", ".join(f"{u} to {h}" for u, h in o.moved))
    lines += [f"{indent}  {chip} loses its {upgrade} upgrade (upgrade {index}, 0 the bottom one), no damage"
              for chip, index, upgrade in o.stripped]
    lines += [f"{indent}  {_hit(d)}" for d in o.damage]
    lines += [f"{indent}  defeated: {d.chip} ({d.name or _unnamed(d.chip, d.goes_to)}) → {d.goes_to}" for d in o.defeated]
    lines += [f"{indent}  revealed: {r.chip} on {r.unit}, health {r.health}" for r in o.revealed]
    lines += [f"{indent}  gains: {_gain(g)}" for g in o.gains]
    lines += [f"{indent}  {u} does not retaliate: a talent of its says so (Riposte, Entropy)" for u in o.forgone]
    lines += [f"{indent}  {u}'s faction pays Source equal to the damage, which becomes 0 (Sourcefield)"
              for u in o.cancelled]
    lines += [f"{indent}  {u} discards its {t}: the {how} deals it 0" for u, t, how in o.shed]
    lines += [f"{indent}  {u}'s faction spends Source for its {t}" for u, t in o.paid_for]
    lines += [f"{indent}  {s} gains an upgrade at its bottom: {y}" for s, y in o.upgraded]
    lines += [f"{indent}  {f}'s morale die +{n}" for f, n in o.morale]
    lines += [f"{indent}  {u} takes damage: its {x} is placed on its hex" for u, x in o.lost]
    lines += [f"{indent}  {u} defeated: a {x} chip is placed on {h}" for u, h, x in o.laid]
    lines += [f"{indent}  {u} summoned from its barracks onto {h} (Evoke): it does not move this turn"
              for u, h in o.summoned]
    lines += [f"{indent}  {u} dodges: 0 instead of its defeat, no retaliation, its upgrades gone, basic side up (Dodge)"
              for u in o.dodged]
    lines += [f"{indent}  {u} flips to its other side, its health kept" for u in o.flipped]
    lines += [f"{indent}  {u} gives up its {y} upgrade" for u, y in o.unloaded]
    lines += [f"{indent}  {u} is promoted: its upgrades gone, the health between its sides gained" for u in o.promoted]
    lines += [f"{indent}  {u} is demoted: its upgrades kept, no more health than its basic side's" for u in o.demoted]
    lines += [f"{indent}  {u} may be {how}d too, for {talent}: a player's choice, which the whole attack step plays"
              for u, how, talent in o.offered]
    for lv in o.level_ups:
        chosen = f" (chose {lv.chosen})" if lv.chosen else ""
        lines.append(f"{indent}  level-up for {lv.hero}: {' | '.join(lv.options)}{chosen}")
    if o.wave_over:
        lines.append(f"{indent}  the wave ends: no minion that keeps it going is left in play")
    return lines


def attack_options(options: AttackOptions, position: Position, ai: bool) -> str:
    unit = position.units[options.unit]
    where = unit.at or f"gate:{unit.faction}"
    title = f"{unit.id} ({unit.chip}, {unit.kind.value}, at {where})"
    if options.cannot:
        return f"{title}\n  cannot attack: {options.cannot}"
    duty = "must attack" if options.must_attack else "may attack"
    lines = [f"{title}: {duty}"]
    if ai:
        ranked = ", ".join(f"{t.chip} ({t.priority}: {t.category})" for t in options.targets)
        lines.append(f"  targets by AI priority: {ranked}")
        # Several outcomes of one attack differ by a player's choice (Colony, Sourcefield) or by dice.
        targets = list(dict.fromkeys(o.target for o in options.outcomes))
        split = f", {len(options.outcomes)} outcomes (a player's choices or dice split one attack)" \
            if len(options.outcomes) > len(targets) else ""
        lines.append(f"  the AI must attack {' or '.join(targets)}{split}:" if options.outcomes else "  it attacks nothing")
    else:
        lines.append(f"  valid targets: {', '.join(t.chip for t in options.targets)}")
    for outcome in options.outcomes:
        lines += attack_lines(outcome)
    return "\n".join(lines)


def attack_step(result: AttackStepResult) -> str:
    return _attacks(result, "attack")


def _attacks(result: AttackStepResult, step: str) -> str:
    lines = [notices(result.notices) + _count_line(result, "end states", step)]
    if result.summary is not None:
        rows = [(a.unit, ", ".join(a.targets), "must attack" if a.forced else "may attack")
                for a in result.summary.attackers]
        lines.append("\nwhat each unit attacks, over every end state:\n" + _table(("unit", "targets", ""), rows))
        falls = result.summary
        # Off the board, defeated or not (a discard: Pacify; a return: Colony), as the summary counts them.
        lines.append(f"leaves play in every end state: {', '.join(falls.must_fall) or 'none'}; "
                     f"in some: {', '.join(c for c in falls.may_fall if c not in falls.must_fall) or 'none'}")
    for number, outcome in enumerate(result.outcomes, 1):
        lines += _numbered(number, attack_outcome(outcome))
    return "\n".join(lines)


def attack_outcome(outcome: StepEnd) -> list[str]:
    """One end state of a combat step, then the attacks that lead to it."""
    attacks = [line for attack in outcome.sequence for line in attack_lines(attack, "  ")]
    chance = [] if outcome.probability is None else [
        f"  probability {outcome.probability}, given these attacks: "
        + "; ".join([*(f"{r.unit} rolled {_totals(r)}" for r in outcome.rolled), *map(_d6_text, outcome.d6)])]
    return [outcome.end.describe(), *chance, *(attacks or ["  no attack"])]


def _d6_text(roll: Roll6) -> str:
    """A talent's D6 (Reap, Explosion) and the faces leading to an end; several at once, their total."""
    if roll.dice == 1:
        return f"{roll.chip} rolled the D6: {roll.faces}"
    return f"{roll.chip} rolled {roll.dice} D6s, totalling {roll.faces}"


def _totals(rolled: Rolled) -> str:
    """The totals a Relentless retaliation may have rolled for an end: "0 or 1", "2 or more"."""
    named = [f"{t} or more" if t == rolled.top else str(t) for t in rolled.totals]
    return " or ".join(named)


def edge_outcome(outcome: StepEnd) -> list[str]:
    """One end state of the start or the end of a turn, with the chance of what a spire's attack then
    rolled (Raze), and at the end Back to the Future's lines played after it."""
    if outcome.again_end is None:
        return [outcome.end.describe(), *_razing(outcome)]
    return [outcome.end.describe(), *_razing(outcome), f"  then back to the future: {outcome.again_end.describe()}",
            *_again(outcome.again)]


def _again(lines: tuple[tuple[str, StepOutcome, StepEnd], ...]) -> list[str]:
    """Back to the Future at the end of the turn: each unit's extra move and attack, in order."""
    shown = []
    for unit, moved, attacked in lines:
        moves = ", ".join(f"{m.unit} {'-'.join(m.path) or m.end}" for m in moved.sequence) or "no move"
        attacks = ", ".join(format_attack(a) for a in attacked.sequence) or "no attack"
        attacks += "; the wave ends" if attacked.end.wave_over else ""
        attacks += "; the game ends" if attacked.end.game_over else ""
        shown.append(f"  back to the future ({unit}): {moves}; {attacks}")
    return shown


def _razing(outcome: StepEnd, indent: str = "  ") -> list[str]:
    """The chance of what the moment rolled: a spire's attack dice (Raze), a talent's D6 (Reap)."""
    if not outcome.razed and not outcome.d6 and not outcome.cannonballs:
        return []
    rolls = [f"{r.spire} attacked {r.target} with {r.dice} dice, totalling {r.totals}"
             + (f" less {r.cut}" if r.cut else "") for r in outcome.razed]
    rolls += map(_d6_text, outcome.d6)
    rolls += [f"cannon {b.cannon} hit {b.target}, its die totalling {b.totals}" for b in outcome.cannonballs]
    return [f"{indent}probability {outcome.probability}: {'; '.join(rolls)}"]


def edge_step(result: AttackStepResult, moment: str) -> str:
    """The start or the end of a turn (``moment``: start-of-turn, end-of-turn)."""
    lines = [notices(result.notices) + _count_line(result, "end states", moment)]
    for number, outcome in enumerate(result.outcomes, 1):
        lines += _numbered(number, edge_outcome(outcome))
    return "\n".join(lines)


def quick_strike(result: AttackStepResult) -> str:
    return _attacks(result, "quick-strike")


def start_of_turn(result: AttackStepResult) -> str:
    return edge_step(result, "start-of-turn")


def end_of_turn(result: AttackStepResult) -> str:
    return edge_step(result, "end-of-turn")


def exploration(result: AttackStepResult) -> str:
    return edge_step(result, "exploration")


def end_of_wave(result: AttackStepResult) -> str:
    return edge_step(result, "end-of-wave")


def fire_step(result: FireStepResult) -> str:
    lines = [notices(result.notices) + f"Spires Fire at {result.faction}'s units (die: {result.die})"]
    if not result.spires:
        lines.append("  no spire fires")
    for s in result.spires:
        owner = "AI" if s.ai else "player"
        targets = ", ".join(
            t.chip + (f" ({t.priority}: {t.category})" if t.priority is not None else "") for t in s.targets
        )
        lines.append(f"  {s.spire} ({s.faction}, {owner}, {s.dice} dice, range {s.range}): {targets}")
    found = f"{result.count}" if result.complete else f"at least {result.count}"
    lines.append(f"\n{found} distinct results" + (
        f" (showing {len(result.results)})" if len(result.results) < result.count else ""))
    if result.decisions:
        # A later spire's choice can depend on an earlier roll (its first pick defeated), so one line
        # of choices is not always one whole way of choosing: its results add up to at most 1.
        lines.append("  choices: the targets chosen (and talents used by choice) along each line of play; for\n"
                     "  any fixed way of choosing, the results it allows add up to 1")
    # Results alike but for the chips the spires fired at (a forced target an earlier roll changed) say whom.
    alike = Counter((r.choices, r.end) for r in result.results)
    rows = ((str(r.probability), _choices(r) or "-", r.end.describe() + (
        f" (fired at: {', '.join(f'{s.spire}→{s.target}' for s in r.shots)})" if alike[(r.choices, r.end)] > 1 else ""))
        for r in result.results)
    lines.append(_table(("probability", "choices", "result"), rows))
    return "\n".join(lines)


def _choices(result: FireResult) -> str:
    from adjudicator.answers.attacks import TALENT_CHOICES  # imported here: combat only
    def one(chip: str, what: str, *shot: str) -> str:
        if what not in TALENT_CHOICES:
            return f"{chip}→{what}"
        return f"{chip}: {what}" + (f" against {shot[0]}" if shot else "")

    return "; ".join(one(*c) for c in result.choices)


def fire_outcome(result: FireResult) -> list[str]:
    """One result of Spires Fire: its probability and what it leaves, the choices made, each shot."""
    lines = [f"probability {result.probability}: {result.end.describe()}"]
    lines += [f"  choosing {_choices(result)}"] if result.choices else []
    for shot in result.shots:
        dealt = f"at least {shot.damage}" if shot.at_least else str(shot.damage)
        lines.append(f"  {shot.spire} fires at {shot.target}: {dealt} damage")
    return lines


def whole_turn(result: TurnResult) -> str:
    lines = [notices(result.notices)]
    if result.gaps:
        lines.append("NOT TAKEN INTO ACCOUNT: this answer may be wrong, since it leaves out these rules:\n"
                     + "\n".join(f"  ! {g}" for g in result.gaps) + "\n\n")
    who = "the AI" if result.ai else "a player"
    lines.append(f"{result.faction}'s turn, played by {who}:\n"
                 + _table(("step", ""), ((s.step, s.status) for s in result.steps)))
    found = f"{result.count}" if result.complete else f"at least {result.count}"
    lines.append(f"\n{found} distinct outcomes" + (
        f" (showing {len(result.outcomes)})" if len(result.outcomes) < result.count else ""))
    if result.summary:
        rows = ((s.unit, ", ".join(s.ends), "forced" if s.forced else f"{len(s.ends)} possible")
                for s in result.summary)
        lines.append("\nwhere each unit ends the turn, over every outcome:\n" + _table(("unit", "ends", ""), rows))
    for number, outcome in enumerate(result.outcomes, 1):
        lines += _numbered(number, turn_outcome(outcome))
    return "\n".join(lines)


def turn_outcome(outcome: TurnOutcome) -> list[str]:
    """One way the turn ends, then a line of play for each step that leads there."""
    lines = [outcome.end.describe()]
    if outcome.start is not None:  # what the start of the turn did on this line (Healing, Spawn, …)
        lines.append(f"  start of turn: {outcome.start.end.describe()}")
        lines += _razing(outcome.start, "    ")
    if outcome.quick_strike is not None and outcome.quick_strike.sequence:
        attacks = ", ".join(format_attack(a) for a in outcome.quick_strike.sequence)
        lines.append(f"  quick strike: {attacks}")
    if outcome.fire is not None:
        plan = _choices(outcome.fire)
        lines.append(f"  spires fire: {outcome.fire.end.describe()} (probability {outcome.fire.probability}"
                     + (f", choosing {plan})" if plan else ")"))
    if outcome.movement is not None:
        moves = ", ".join(f"{m.unit} {'-'.join(m.path) or m.end}{_rolled(m) if m.rolls else ''}"
                          + (f" ({acts_text(m, None)})" if m.acts else "") for m in outcome.movement.sequence)
        lines.append(f"  movement: {moves or 'no move'}")
        if outcome.movement.chance != 1:
            lines.append(f"  probability {outcome.probability}, with the dice its moves rolled (floating rocks, Anarchy, Explosion)")
    if outcome.attack is not None:
        attacks = ", ".join(format_attack(a) for a in outcome.attack.sequence)
        lines.append(f"  attack: {attacks or 'no attack'}")
    if outcome.close is not None and outcome.close.d6:  # what the end of the turn rolled (Reap)
        lines.append(f"  end of turn: {outcome.close.end.describe()}")
        lines += _razing(outcome.close, "    ")
    if outcome.wave is not None and outcome.wave.cannonballs:  # what the end of the wave rolled (chapter 2)
        lines.append(f"  end of the wave: {outcome.wave.end.describe()}")
        lines += _razing(outcome.wave, "    ")
    return lines + _again(outcome.again)


# ------------------------------------------------------------------------------------- disputes

MARKS = {ILLEGAL: "✗", LEGAL: "✓", MANDATORY: "!"}


def reason_line(reason: Reason, indent: str = "  ") -> str:
    return f"{indent}{MARKS[reason.kind]} {reason.text}\n{indent}    {reason.rule}: “{reason.quote}”"


def check(result: CheckResult) -> str:
    judgement = result.judgement
    if judgement.verdict == UNDETERMINED:
        lines = [notices(result.notices).rstrip("\n"),
                 f"{result.claim}: UNDETERMINED (the modelled rules alone say {str(judgement.core_verdict).upper()})"]
    else:
        lines = [f"{result.claim}: {judgement.verdict.upper()}"]
    lines += [reason_line(r) for r in result.judgement.reasons]
    if ILLEGAL in (judgement.verdict, judgement.core_verdict):
        label = "the legal outcomes" if result.alternatives else "no legal outcome"
        if judgement.verdict == UNDETERMINED:
            label = "the outcomes the modelled rules allow" if result.alternatives else "no outcome the modelled rules allow"
        lines.append(f"  {label}:" if result.alternatives else f"  {label}")
        lines += [f"    {a}" for a in result.alternatives]
    return "\n".join(lines)


def explanation(result: Explanation) -> str:
    lines = [check(result.check)]
    if result.others:
        lines.append("\nand the others:")
    for judgement in result.others:
        core = f" (alone: {judgement.core_verdict})" if judgement.core_verdict else ""
        lines.append(f"  {judgement.subject}: {judgement.verdict}{core}")
        lines += [f"    {MARKS[r.kind]} {r.text} ({r.rule})" for r in judgement.reasons]
    return "\n".join(lines)
