"""The `scenarios` report: the 8 Harbinger chapters, their opponents and marks, and every rule each changes
with its status, encoding and test positions (adjudicator/data/scenarios.yaml); and its JSON shape."""

from __future__ import annotations

from collections import Counter
from typing import Any

from adjudicator.position.scenarios import STATUSES, Chapter, ScenarioRule


def rule_row(rule: ScenarioRule) -> dict[str, Any]:
    return {
        "id": rule.id,
        "kind": rule.kind,
        "faces": list(rule.faces),
        "text": rule.text,
        "acts": list(rule.acts),
        "status": rule.status,
        "counted_by": list(rule.counted_by),
        "encoding": rule.encoding,
        "positions": list(rule.positions),
        "gate_mark": {"factions": list(rule.gate_mark[0]), "gate": rule.gate_mark[1]} if rule.gate_mark else None,
        "note": rule.note or None,
    }


def counts(chapter: Chapter) -> dict[str, int]:
    found = Counter(r.status for r in chapter.rules)
    return {s: found[s] for s in STATUSES}


def as_json(chapters: list[Chapter]) -> dict[str, Any]:
    return {
        "chapters": [
            {"chapter": c.chapter, "title": c.title, "waves": c.waves, "player": c.player,
             "opponents": list(c.opponents), "factions": dict(c.factions), "marks": list(c.marks),
             "event_die": c.event_die, "rules": [rule_row(r) for r in c.rules], "counts": counts(c)}
            for c in chapters
        ],
        "count": len(chapters),
    }


def _rule_line(rule: ScenarioRule) -> tuple[str, ...]:
    what = rule.kind
    if rule.faces:  # an event rule: its die results, as printed ("1–2")
        low, high = rule.faces[0], rule.faces[-1]
        what += f" {low}" if low == high else f" {low}–{high}"
    status = rule.status + (f" (counted by {', '.join(rule.counted_by)})" if rule.counted_by else "")
    return (rule.id, what, ", ".join(rule.acts), status, rule.encoding or "-",
            ", ".join(p.rsplit("/", 1)[-1] for p in rule.positions) or "-")


def table(chapters: list[Chapter]) -> str:
    header = ("rule", "kind", "acts in", "status", "encoding", "positions")
    lines: list[str] = []
    for chapter in chapters:
        lines.append(f"Chapter {chapter.chapter}: {chapter.title} ({chapter.waves} waves)")
        lines.append(f"  player: {chapter.factions[chapter.player]}; opponents: {', '.join(chapter.opponents)}")
        lines.append(f"  faction ids: {', '.join(chapter.factions)}")
        lines.append("  marks: " + "; ".join(chapter.marks))
        rows = [_rule_line(r) for r in chapter.rules]
        widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header) - 1)]
        lines += ["  " + "  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[-1] for r in [header, *rows]]
        total = ", ".join(f"{n} {s}" for s, n in counts(chapter).items() if n)
        lines.append(f"  {len(chapter.rules)} rules: {total}")
        lines.append("")
    lines.append(f"{len(chapters)} chapters; a rule's wording: cloudspire scenarios --json")
    return "\n".join(line.rstrip() for line in lines)
