"""Mutated position files for fuzzing the loader: tests/test_load.py and the sweep (bench/sweep.py).

Whatever the text, the loader must either load it or raise PositionFileError with at least one
problem; ``load_problem`` says what else happened, if anything.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

import yaml
from hypothesis import strategies as st

from adjudicator.position.load import PositionFileError, load_document_text

ROOT = Path(__file__).resolve().parents[1]


def doc_example() -> str:
    """The example position in docs/position-format.md."""
    doc = (ROOT / "docs" / "position-format.md").read_text(encoding="utf-8")
    match = re.search(r"```yaml\n(.*?)```", doc, re.S)
    assert match
    return match.group(1)


@functools.cache
def bundled_texts() -> tuple[str, ...]:
    """The docs example and every position file in positions/, as text."""
    files = sorted((ROOT / "positions").rglob("*.yaml"))
    return (doc_example(), *(p.read_text(encoding="utf-8") for p in files))


# What one line edit inserts.
EDITS = ["", "-", "9", " ", ":", "[", "}", "x", "\n", "#", "&a ", "*a", "!!int "]
# Odd text for the sweep's edits: control and format characters, a byte-order mark, a line separator,
# quotes, YAML indicators and tags, and numbers far out of every bound.
ODD = [
    "\x00", "\x1b[31m", "\t", "\r", "\ufeff", "\u2028", "\u200b", "\u202e", "\x85", "'", '"', "\\", "é", "🐉",
    "? ", "|", ">", "%", "@", "`", "!!python/object ", "!!binary ", "!!float ", "<<: ", ".inf", ".nan", "~",
    "0x1F", "0o17", "1e400", "-0", "2147483648", "-2147483649", "9" * 400, "1_000", "yes", "null",
]

SCALARS = st.none() | st.booleans() | st.integers(-3, 12) | st.sampled_from(["", "a1", "c2", "heirs", "hero"])
JSONISH = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["at", "x"]), inner),
    max_leaves=6,
)
# The sweep's replacement values: the above, huge and negative numbers, floats, odd strings.
WILD = (
    JSONISH
    | st.integers()
    | st.sampled_from([2**31, -(2**31) - 1, 10**40, -1, 31, 99, 100])
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from(ODD)
    | st.text(max_size=50)
)


@st.composite
def line_edited(draw: st.DrawFn, text: str, edits: st.SearchStrategy[str] = st.sampled_from(EDITS)) -> str:
    """``text`` with one edit in one line: up to three characters replaced by an inserted string."""
    lines = text.splitlines(keepends=True)
    index = draw(st.integers(0, len(lines) - 1))
    line = lines[index]
    cut = draw(st.integers(0, len(line)))
    insert = draw(edits)
    lines[index] = line[:cut] + insert + line[cut + draw(st.integers(0, 3)) :]
    return "".join(lines)


def _walk(draw: st.DrawFn, tree: Any) -> tuple[Any, Any]:
    """A random mapping entry or list item of ``tree``: (its container, its key or index)."""
    node = tree
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        key = draw(st.sampled_from(keys))
        child = node[key]
        if not isinstance(child, (dict, list)) or not child or draw(st.booleans()):
            return node, key
        node = child


@st.composite
def value_replaced(draw: st.DrawFn, text: str, values: st.SearchStrategy[Any] = JSONISH) -> str:
    """``text`` (a YAML mapping) with one value, at any depth, replaced."""
    tree = yaml.safe_load(text)
    node, key = _walk(draw, tree)
    node[key] = draw(values)
    return yaml.safe_dump(tree, allow_unicode=draw(st.booleans()))


@st.composite
def key_dropped(draw: st.DrawFn, text: str) -> str:
    """``text`` (a YAML mapping) with one mapping entry or list item, at any depth, removed."""
    tree = yaml.safe_load(text)
    node, key = _walk(draw, tree)
    del node[key]
    return yaml.safe_dump(tree)


def _mapping(text: str) -> bool:
    try:
        tree = yaml.safe_load(text)
    except Exception:  # noqa: BLE001 - PyYAML raises more than YAMLError (ValueError for `!!int x`)
        return False
    return isinstance(tree, dict) and bool(tree)


@st.composite
def fuzzed_files(draw: st.DrawFn) -> str:
    """A bundled position file (or the docs example), mutated once or twice: a line edit with an
    odd insertion, a key dropped, a value replaced by a wrong type, a huge number or odd text."""
    text = draw(st.sampled_from(bundled_texts()))
    for _ in range(draw(st.integers(1, 2))):
        mutation = draw(st.integers(0, 3)) if _mapping(text) else draw(st.sampled_from((0, 3)))
        if mutation == 0:
            text = draw(line_edited(text, st.sampled_from(EDITS + ODD)))
        elif mutation == 1:
            text = draw(key_dropped(text))
        elif mutation == 2:
            text = draw(value_replaced(text, WILD))
        else:
            text = draw(line_edited(text, st.text(max_size=8)))
    return text


def load_problem(text: str) -> str | None:
    """None when ``text`` loads or is refused with a PositionFileError listing problems; otherwise
    what went wrong."""
    try:
        load_document_text(text, "fuzzed.yaml")
    except PositionFileError as error:
        if not error.problems:
            return "PositionFileError with no problems"
    except Exception as error:  # noqa: BLE001 - anything else is what the fuzzing looks for
        return f"the loader raised {type(error).__name__}: {error}"
    return None
