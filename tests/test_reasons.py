"""The reasons catalogue (adjudicator/data/reasons.yaml): every reason the encodings can derive has an
entry, and every entry's quote stands, word for word, in the text its rule names."""

import re
from pathlib import Path

import pytest

from adjudicator.solving.solve import encoding_dir
from adjudicator.answers.verdicts import known_reasons
from tests.rule_texts import ABSENT, SHARED, needs_shared

ROOT = Path(__file__).resolve().parent.parent


def _source(rule: str) -> Path:
    if rule.startswith("FAQ-"):
        return SHARED / "rules" / "faq.txt"
    if rule.startswith("game-elements:"):
        return SHARED / "rules" / "game-elements.txt"
    if rule.startswith("harbinger-rulebook:"):
        return SHARED / "rules" / "harbinger-rulebook.txt"
    if rule.startswith("ai-rules:"):
        return SHARED / "reference" / "ai-rules.md"
    if rule.startswith("master-talent-list:"):
        return SHARED / "reference" / "master-talent-list.txt"
    if rule.startswith("ai-master-talent-list:"):
        return SHARED / "reference" / "ai-master-talent-list.txt"
    if rule.startswith("docs/"):
        return ROOT / rule.split(":")[0]
    raise AssertionError(f"unknown rule source {rule!r}")


def _words(text: str) -> str:
    """Whitespace and typographic quotes evened out, markdown emphasis dropped."""
    text = text.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"').replace("**", "")
    return re.sub(r"\s+", " ", text)


@pytest.mark.parametrize("reason", sorted(known_reasons()))
def test_quote_is_in_the_cited_text(reason: str) -> None:
    entry = known_reasons()[reason]
    source = _source(entry["rule"])
    if not SHARED.is_dir() and source.is_relative_to(SHARED):
        pytest.skip(ABSENT)
    assert _words(entry["quote"]) in _words(source.read_text(encoding="utf-8")), (reason, entry["rule"])


def test_no_reason_is_catalogued_twice() -> None:
    keys = re.findall(r"^([a-z_.]+):", (ROOT / "adjudicator" / "data" / "reasons.yaml").read_text(), re.M)
    assert len(keys) == len(set(keys))


@needs_shared
def test_section_names_a_section_of_the_text() -> None:
    text = (SHARED / "rules" / "game-elements.txt").read_text(encoding="utf-8").splitlines()
    sections = {line.strip() for line in text}
    for reason, entry in known_reasons().items():
        if entry["rule"].startswith("game-elements:"):
            assert entry["rule"].split(": ", 1)[1] in sections, reason


def test_every_derivable_reason_is_catalogued() -> None:
    # The reason terms the explanation files derive: why/awhy(Subject, name(...)) and the
    # legal_by/mandated_by families, with the cases of cannot_*/not_target/... families.
    derived: set[str] = set()
    for name in ("explain/move.lp", "explain/attack.lp"):
        text = (encoding_dir() / name).read_text()
        for head, term in re.findall(r"\b(a?why|a?illegal|a?legal_by|a?mandated_by)\((?:\w+|chip\(X\)|S),([a-z]\w*)", text):
            derived.add(term)
    families = {"cannot_move", "cannot_attack", "not_target", "must_attack", "no_redirect"}
    catalogued = {key.split(".")[0] for key in known_reasons()}
    assert derived - families <= catalogued, derived - catalogued
    talent_files = sorted(p.relative_to(encoding_dir()) for p in (encoding_dir() / "talents").glob("*.lp"))
    for name in (Path("combat/targets.lp"), *talent_files):
        text = (encoding_dir() / name).read_text()
        for case in re.findall(r"(?:notarget\(A|shield\(T,A),[\w()]*?,([a-z]\w*)", text):
            assert f"not_target.{case}" in known_reasons(), case
