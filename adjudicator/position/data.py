"""The data files shipped in adjudicator/data/, read once each with libyaml's C loader where the
installed PyYAML has it (ten times faster on the talent catalogue than the pure-Python one)."""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from typing import Any

import yaml

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse_yaml(text: str) -> Any:
    """A YAML document of trusted shape: plain data, no tags."""
    return yaml.load(text, Loader=_LOADER)  # noqa: S506 - a safe loader


@cache
def shipped(name: str) -> Any:
    """adjudicator/data/``name``, parsed."""
    return parse_yaml((files("adjudicator") / "data" / name).read_text(encoding="utf-8"))
