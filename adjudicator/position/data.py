"""The data files shipped in adjudicator/data/, read once each per process with libyaml's C loader
where the installed PyYAML has it (ten times faster on the talent catalogue than the pure-Python one).

Even so the catalogue takes some 25 ms to parse, a tenth of a command's start-up, so each file's parse
is also kept as JSON in the user's cache folder (``CACHE_ENV``), named by the SHA-256 of the file's
text: an edited file has another name there and is parsed anew. JSON, not pickle: reading it runs no
code, and a file that cannot be read, or is not what was written, is parsed anew instead. A parse that
JSON would not give back equal (a date, a key that is no string) is never kept."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

import yaml

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# Where the parses are kept: this folder, or none at all where it is set empty; by default
# cloudspire-adjudicator/ in $XDG_CACHE_HOME, else in ~/.cache.
CACHE_ENV = "CLOUDSPIRE_CACHE_DIR"


def parse_yaml(text: str) -> Any:
    """A YAML document of trusted shape: plain data, no tags."""
    return yaml.load(text, Loader=_LOADER)  # noqa: S506 - a safe loader


def cache_dir() -> Path | None:
    """The folder of kept parses, None where there is none."""
    given = os.environ.get(CACHE_ENV)
    if given is not None:
        return Path(given) if given else None
    base = os.environ.get("XDG_CACHE_HOME")
    try:
        return Path(base or Path.home() / ".cache") / "cloudspire-adjudicator"
    except RuntimeError:  # no home folder to be found
        return None


@cache
def shipped(name: str) -> Any:
    """adjudicator/data/``name``, parsed."""
    text = (files("adjudicator") / "data" / name).read_text(encoding="utf-8")
    folder = cache_dir()
    if folder is None:
        return parse_yaml(text)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    kept = folder / f"{name}.{digest}.json"
    try:
        found = json.loads(kept.read_text(encoding="utf-8"))
        if isinstance(found, dict) and found.get("sha256") == digest and "data" in found:
            return found["data"]
    except (OSError, ValueError):
        pass
    data = parse_yaml(text)
    _keep(kept, {"sha256": digest, "data": data})
    return data


def _keep(path: Path, content: dict[str, Any]) -> None:
    """Writes ``content`` to ``path`` whole or not at all (a reader never sees half of it), then
    removes the parses kept of the file's other versions; a folder that cannot be written is left be."""
    try:
        text = json.dumps(content, ensure_ascii=False)
    except (TypeError, ValueError):  # a value JSON cannot write at all (a date)
        return
    if json.loads(text) != content:  # one it writes as another (an int key as a string)
        return
    source = path.name.rsplit(".", 2)[0]  # talents.yaml of talents.yaml.<digest>.json
    written = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, suffix=".tmp", delete=False) as out:
            written = out.name
            out.write(text)
        os.replace(written, path)
        written = None
        for other in path.parent.glob(f"{source}.*.json"):
            if other != path:
                other.unlink(missing_ok=True)
    except OSError:
        if written is not None:
            Path(written).unlink(missing_ok=True)
