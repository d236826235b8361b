"""`cloudspire coverage`: the traceability matrix, built from the project's own citations.

A row for each section of game-elements.txt (shipped as adjudicator/data/rule-sections.yaml), each
talent of the catalogue, each FAQ ruling and each Harbinger chapter rule: the encodings that cite it,
the positions and tests that exercise it, and its status. Nothing is solved: a ruling's cases are
run by `cloudspire faq`; here a row says only whether anything traces it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from adjudicator.position.data import shipped
from adjudicator.position.load import PositionFileError, load_document
from adjudicator.position.scenarios import chapters
from adjudicator.position.talents import MODELLED, NO_EFFECT, NOT_MODELLED, OUTSIDE, PARTLY, Talent, catalogue
from adjudicator.questions.faq import FAQ_IDS, OUTSIDE_RULINGS

TRACED, PARTIAL, OUTSIDE_BOARD, MISSING = "traced", "partly", "outside the board", "missing"
STATUSES = (TRACED, PARTIAL, OUTSIDE_BOARD, MISSING)
KINDS = ("section", "talent", "faq", "chapter")

# A citation of the core rules: "game-elements: Blocking Movement", "game-elements.txt, Defeat",
# "game-elements: Terrain Types; Movement (...)". Comment markers at line starts are dropped first, so
# that a citation may wrap.
_CITES = re.compile(r"game-elements(?:\.txt)?\s*[:,]\s*")
_FAQ = re.compile(r"FAQ-\d\d")
_WRAP = re.compile(r"\s*\n\s*(?:%+|#+)?\s*")


@dataclass(frozen=True)
class Row:
    kind: str
    id: str
    status: str
    why: str  # what is missing, or why the row is outside the board; "" when traced
    encodings: tuple[str, ...]
    positions: tuple[str, ...]
    tests: tuple[str, ...] = ()

    def as_json(self) -> dict[str, object]:
        return {"kind": self.kind, "id": self.id, "status": self.status, "why": self.why or None,
                "encodings": list(self.encodings), "positions": list(self.positions), "tests": list(self.tests)}


@dataclass(frozen=True)
class Section:
    name: str
    outside: str  # why it touches no board question; "" when it does
    gap: str  # what a board section lacks, where it is known


def sections() -> tuple[Section, ...]:
    return tuple(Section(s["name"], s.get("outside", ""), s.get("gap", ""))
                 for s in shipped("rule-sections.yaml")["sections"])


def _pieces(rest: str) -> list[str]:
    """The pieces of a citation, separated by `;` or `,`, up to the first full stop outside brackets and quotes."""
    pieces, depth, quoted, start = [], 0, False, 0
    for i, char in enumerate(rest):
        if char == '"':
            quoted = not quoted
        elif quoted:
            continue
        elif char == "(":
            depth += 1
        elif char == ")":
            depth = max(depth - 1, 0)
        elif depth == 0 and char in ";,.":
            pieces.append(rest[start:i].strip())
            if char == ".":
                return pieces
            start = i + 1
    return [*pieces, rest[start:].strip()]


def _cited(text: str, names: tuple[str, ...]) -> set[str]:
    """The section names a text cites, the longest name that starts each piece (so "Fortress Gate
    Pillaging" is not also "Fortress Gate")."""
    flat = _WRAP.sub(" ", text)
    found: set[str] = set()
    for match in _CITES.finditer(flat):
        for piece in _pieces(flat[match.end():match.end() + 1500]):
            named = next((n for n in sorted(names, key=len, reverse=True) if piece.startswith(n)), None)
            if named:
                found.add(named)
    return found


def _citations(paths: list[Path], root: Path, names: tuple[str, ...]) -> dict[str, list[str]]:
    by_name: dict[str, list[str]] = {n: [] for n in names}
    for path in paths:
        for name in _cited(path.read_text(encoding="utf-8"), names):
            by_name[name].append(_shown(path, root))
    return by_name


def _shown(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def section_rows(encodings: Path, root: Path) -> list[Row]:
    listed = sections()
    names = tuple(s.name for s in listed)
    cite_enc = _citations(sorted(encodings.rglob("*.lp")), encodings.parent, names)
    cite_pos = _citations(sorted((root / "positions").rglob("*.yaml")), root, names)
    cite_test = _citations(sorted((root / "tests").rglob("*.py")), root, names)
    rows = []
    for s in listed:
        enc, pos, tst = (tuple(c[s.name]) for c in (cite_enc, cite_pos, cite_test))
        if s.outside:
            status, why = OUTSIDE_BOARD, s.outside
        else:
            gaps = [g for g, have in (("no encoding cites it", enc), ("no position or test cites it", pos or tst))
                    if not have] + ([s.gap] if s.gap else [])
            status, why = (MISSING, "; ".join(gaps)) if gaps else (TRACED, "")
        rows.append(Row("section", s.name, status, why, enc, pos, tst))
    return rows


def _talent_status(talent: Talent) -> tuple[str, str]:
    sides = (talent.status(ai=False), talent.status(ai=True))
    if NOT_MODELLED in sides:
        return MISSING, "not modelled on " + " and ".join(
            side for side, s in zip(("player chips", "AI chips"), sides) if s == NOT_MODELLED)
    if PARTLY in sides:
        return PARTIAL, f"{len(talent.left_out)} part(s) left out, each with its notice"
    if MODELLED not in sides:  # outside the board, or no effect for the AI, on both sides
        return OUTSIDE_BOARD, talent.note or ", ".join(sorted(set(sides)))
    if not talent.positions:
        return MISSING, "modelled, but no position exercises it"
    return TRACED, ""


def talent_rows() -> list[Row]:
    rows = []
    for talent in sorted(catalogue().talents.values(), key=lambda t: t.name.casefold()):
        status, why = _talent_status(talent)
        encoding = (f"asp/talents/{talent.encoding}",) if talent.encoding else ()
        rows.append(Row("talent", talent.name, status, why, encoding, talent.positions))
    return rows


def faq_rows(root: Path, encodings: Path) -> list[Row]:
    cited: dict[str, list[str]] = {i: [] for i in FAQ_IDS}
    for path in sorted(encodings.rglob("*.lp")):
        for faq_id in sorted(set(_FAQ.findall(path.read_text(encoding="utf-8"))) & set(cited)):
            cited[faq_id].append(_shown(path, encodings.parent))
    cases: dict[str, list[str]] = {i: [] for i in FAQ_IDS}
    for path in sorted((root / "positions").rglob("*.yaml")):
        try:
            ruled = load_document(path).faq
        except PositionFileError:  # `cloudspire validate` reports it; here it traces nothing
            continue
        for faq_id in ruled:
            cases.setdefault(faq_id, []).append(_shown(path, root))
    rows = []
    for faq_id, found in cases.items():
        if faq_id in OUTSIDE_RULINGS and not found:
            status, why = OUTSIDE_BOARD, OUTSIDE_RULINGS[faq_id]
        else:
            status, why = (TRACED, "") if found else (MISSING, "no position carries it")
        rows.append(Row("faq", faq_id, status, why, tuple(cited[faq_id]), tuple(found)))
    return rows


def chapter_rows() -> list[Row]:
    rows = []
    for chapter in chapters().values():
        for rule in chapter.rules:
            where = (rule.encoding,) if rule.encoding else ()
            if rule.status == "outside":
                status, why = OUTSIDE_BOARD, rule.note or "acts off the board"
            elif rule.status == "not-modelled":
                status, why = MISSING, "not modelled: a position it could change gets its notice"
            elif not rule.positions:
                status, why = MISSING, f"{rule.status}, but no position exercises it"
            else:
                status, why = TRACED, ""
            rows.append(Row("chapter", f"{chapter.chapter}/{rule.id}", status, why, where, rule.positions))
    return rows


def matrix(root: Path, encodings: Path) -> list[Row]:
    """Every row, sections first; ``root`` holds positions/ and tests/, ``encodings`` is asp/."""
    return [*section_rows(encodings, root), *talent_rows(), *faq_rows(root, encodings), *chapter_rows()]
