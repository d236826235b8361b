"""The data files shipped in adjudicator/data/, read once each with libyaml's C loader where the
installed PyYAML has it (ten times faster on the talent catalogue than the pure-Python one), and what
is derived from shipped files kept on disk between processes, so that a command's start pays for it once."""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

import yaml

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
T = TypeVar("T")
KEPT = 4  # versions of one derived thing kept on disk
# The package's folder, whether a checkout's or an installed wheel's: read as files (importlib.resources
# would add its import to every command's start for the same paths).
PACKAGE = Path(__file__).resolve().parents[1]


def parse_yaml(text: str) -> Any:
    """A YAML document of trusted shape: plain data, no tags."""
    return yaml.load(text, Loader=_LOADER)  # noqa: S506 - a safe loader


@cache
def shipped(name: str) -> Any:
    """adjudicator/data/``name``, parsed."""
    text = (PACKAGE / "data" / name).read_text(encoding="utf-8")
    return derived(f"data-{name}", text.encode("utf-8"), lambda: parse_yaml(text))


def cache_dir() -> Path | None:
    """Where derived data is kept: $CLOUDSPIRE_CACHE (empty: nowhere), else the user's cache directory."""
    chosen = os.environ.get("CLOUDSPIRE_CACHE")
    if chosen is not None:
        return Path(chosen) if chosen else None
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cloudspire"


@cache
def _code(filename: str) -> bytes:
    """The digest of a module that derives data, and of the Python that runs it (marshal's format)."""
    return hashlib.sha256(Path(filename).read_bytes() + sys.version.encode()).digest()


def derived(name: str, source: bytes, make: Callable[[], T]) -> T:
    """``make()``, which derives plain data (dicts, lists, tuples, strings, numbers) from ``source``
    alone, kept on disk under the digest of ``source``, the code of ``make``'s module and the Python
    version: a change to any of them makes it anew. Where the cache cannot be read or written, it is
    simply made."""
    where = cache_dir()
    if where is None:
        return make()
    digest = hashlib.sha256(source)
    digest.update(_code(make.__code__.co_filename))
    path = where / f"{name}-{digest.hexdigest()[:32]}.marshal"
    try:
        return marshal.loads(path.read_bytes())  # type: ignore[no-any-return]
    except (OSError, EOFError, ValueError, TypeError):
        pass
    value = make()
    import tempfile  # imported here: only making it writes (random, its import, is a start's cost)

    try:  # written whole or not at all: another process may be reading it
        where.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=where, prefix=f".{name}-", delete=False) as out:
            out.write(marshal.dumps(value))
        os.replace(out.name, path)
        # What earlier versions of the source made: a few are kept, for checkouts that share the cache.
        made = sorted(where.glob(f"{name}-*.marshal"), key=lambda p: p.stat().st_mtime, reverse=True)
        for stale in made[KEPT:]:
            stale.unlink(missing_ok=True)
    except (OSError, ValueError):
        pass
    return value
