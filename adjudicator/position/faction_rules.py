"""The rules of the factions' own reference sheets that change the board (adjudicator/data/faction-rules.yaml),
read once: each gives a notice wherever it could change an answer, but in the steps the encodings play it in
where the position gives what they need (`modelled`)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from adjudicator.position.data import shipped
from adjudicator.position.scenarios import ACTS, When, read_when

# not-modelled: no step plays it; partly: the steps of `modelled` do, where the position gives what they read
# (the keel's hex groups; the shada's player: questions/coverage.py).
STATUSES = ("not-modelled", "partly")


@dataclass(frozen=True)
class FactionRule:
    """A rule of a faction's sheet, and whether it is modelled."""

    faction: str
    id: str
    source: str  # the sheet, under ../shared/
    text: str  # verbatim from the sheet
    acts: tuple[str, ...]
    status: str
    when: When | None = None  # what must be in play for it to change an answer
    counted_by: tuple[str, ...] = ()  # commands whose answers cannot depend on it
    note: str = ""
    # The steps the encodings play it in where the position gives what they read: the keel's promotion
    # (asp/combat/keel.lp) a minion's hex group (`hex-groups`); the shada's placement a player's shada.
    modelled: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        """As a notice names it: "keel: minion-promotion"."""
        return f"{self.faction}: {self.id}"


def _rule(entry: dict) -> FactionRule:
    rule = FactionRule(
        faction=entry["faction"], id=entry["id"], source=entry["source"], text=entry["text"],
        acts=tuple(entry["acts"]), status=entry["status"],
        when=read_when(entry, f"adjudicator/data/faction-rules.yaml: {entry['id']}"),
        counted_by=tuple(entry.get("counted_by") or ()), note=entry.get("note") or "",
        modelled=tuple(entry.get("modelled") or ()),
    )
    if rule.status not in STATUSES or not rule.acts or not set(rule.acts) <= set(ACTS) \
            or (rule.status == "partly") != bool(rule.modelled) or not set(rule.modelled) <= set(ACTS):
        raise ValueError(f"adjudicator/data/faction-rules.yaml: {rule.name}: bad status or acts")
    return rule


@cache
def faction_rules() -> tuple[FactionRule, ...]:
    return tuple(_rule(entry) for entry in shipped("faction-rules.yaml")["rules"])
