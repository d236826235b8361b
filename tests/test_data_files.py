"""The data files shipped in adjudicator/data/: a key written twice in one mapping would be read as
the last one silently (PyYAML keeps it), so none may be."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

DATA = Path(__file__).resolve().parents[1] / "adjudicator" / "data"


def _repeated(node: yaml.Node) -> list[str]:
    found = []
    if isinstance(node, yaml.MappingNode):
        keys = [k.value for k, _ in node.value]
        found += [f"{k} (line {node.start_mark.line + 1})" for k in sorted(set(keys)) if keys.count(k) > 1]
        for _, value in node.value:
            found += _repeated(value)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            found += _repeated(item)
    return found


@pytest.mark.parametrize("path", sorted(DATA.glob("*.yaml")), ids=lambda p: p.name)
def test_no_key_is_written_twice(path: Path) -> None:
    assert _repeated(yaml.compose(path.read_text(encoding="utf-8"))) == []
