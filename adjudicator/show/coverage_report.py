"""The `coverage` report: the traceability matrix as tables, one per kind of row, with its counts;
and its JSON shape."""

from __future__ import annotations

from collections import Counter
from typing import Any

from adjudicator.questions.traceability import KINDS, STATUSES, Row

TITLES = {"section": "Core rule sections (game-elements.txt)", "talent": "Talents", "faq": "FAQ rulings",
          "chapter": "Harbinger chapter rules"}


def counts(rows: list[Row]) -> dict[str, dict[str, int]]:
    found = Counter((r.kind, r.status) for r in rows)
    return {k: {s: found[k, s] for s in STATUSES} for k in KINDS}


def as_json(rows: list[Row]) -> dict[str, Any]:
    return {"rows": [r.as_json() for r in rows], "count": len(rows), "counts": counts(rows)}


def _names(paths: tuple[str, ...], most: int = 3) -> str:
    shown = [p.rsplit("/", 1)[-1] for p in paths[:most]]
    return ", ".join(shown) + (f" (+{len(paths) - most})" if len(paths) > most else "") or "-"


def table(rows: list[Row]) -> str:
    header = ("row", "status", "encodings", "positions and tests", "why")
    lines: list[str] = []
    total = counts(rows)
    for kind in KINDS:
        chosen = [(r.id, r.status, _names(r.encodings), _names((*r.positions, *r.tests)), r.why)
                  for r in rows if r.kind == kind]
        if not chosen:
            continue
        summary = ", ".join(f"{n} {s}" for s, n in total[kind].items() if n)
        lines += ["", f"{TITLES[kind]}: {summary}"]
        widths = [max(len(r[i]) for r in [header, *chosen]) for i in range(len(header) - 1)]
        lines += ["  " + "  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[-1] for r in [header, *chosen]]
    return "\n".join(line.rstrip() for line in lines[1:])
