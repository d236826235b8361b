"""The `talents` report: the catalogue as a table with its counts, and its JSON shape."""

from __future__ import annotations

from collections import Counter
from typing import Any

from adjudicator.position.talents import STATUSES, Talent


def row(talent: Talent) -> dict[str, Any]:
    return {
        "name": talent.name,
        "was": list(talent.was),
        "number": talent.number,
        "written": talent.written(2 if talent.numbered else None).replace("2", "#"),
        "lists": list(talent.lists),
        "steps": list(talent.steps),
        "player_status": talent.status(ai=False),
        "ai_status": talent.status(ai=True),
        "modelled_steps": [s for s in talent.modelled_steps if talent.encoding],
        "left_out": [{"part": p.text, "steps": list(p.steps), "when": list(p.when), "counted_by": list(p.counted_by),
                      "untracked": p.untracked, "sides": list(p.sides), "on_map": p.on_map, "harmed": p.harmed}
                     for p in talent.left_out],
        "encoding": talent.encoding,
        "hooks": list(talent.hooks),
        "positions": list(talent.positions),
        "player_wording": talent.player,
        "ai_wording": talent.ai,
        "note": talent.note or None,
    }


def counts(talents: list[Talent]) -> dict[str, dict[str, int]]:
    player = Counter(t.status(ai=False) for t in talents)
    ai = Counter(t.status(ai=True) for t in talents)
    return {"player": {s: player[s] for s in STATUSES}, "ai": {s: ai[s] for s in STATUSES}}


def as_json(talents: list[Talent]) -> dict[str, Any]:
    return {"talents": [row(t) for t in talents], "count": len(talents), "counts": counts(talents)}


def table(talents: list[Talent]) -> str:
    header = ("talent", "steps", "player", "AI", "encoding", "positions")
    rows = [
        (t.written(2 if t.numbered else None).replace("2", "#"), ", ".join(t.steps) or "-", t.status(ai=False),
         t.status(ai=True), (f"asp/talents/{t.encoding}" if t.encoding not in (None, "core") else t.encoding or "-"),
         ", ".join(p.rsplit("/", 1)[-1] for p in t.positions) or "-")
        for t in talents
    ]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header) - 1)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[-1] for r in [header, *rows]]
    total = counts(talents)
    lines.append("")
    lines.append(f"{len(talents)} talents")
    for side in ("player", "ai"):
        parts = ", ".join(f"{n} {s}" for s, n in total[side].items() if n)
        lines.append(f"  on {'player' if side == 'player' else 'AI'} chips: {parts}")
    return "\n".join(line.rstrip() for line in lines)
