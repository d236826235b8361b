"""The methods dataclasses writes for each class, compiled once and kept on disk between processes.

The decorator writes a class's __init__, __repr__, __eq__, __hash__ and, frozen, __setattr__ and
__delattr__ as source text and compiles each as the class is made, at import: a command imports some
sixty such classes, and compiling their methods was a quarter of its imports' time. The code compiled
from a text is kept beside the derived data (position/data.py, cache_dir), keyed by the text itself and
the interpreter's version, so a process compiles only a text it has not met; what runs is the code
Python would have compiled, so nothing else changes. Where the cache cannot be read or written, each
text is simply compiled.
"""

from __future__ import annotations

import atexit
import builtins
import dataclasses
import marshal
import os
import sys
from pathlib import Path
from types import CodeType
from typing import Any

from adjudicator.position.data import cache_dir

# Past this many texts kept (a class changed leaves its old methods' behind), only those this process
# used are written back.
LIMIT = 4000

_codes: dict[str, CodeType] = {}
_used: set[str] = set()
_new = False


def _path() -> Path | None:
    where = cache_dir()
    return None if where is None else where / f"dataclass-code-{sys.implementation.cache_tag}-{sys.hexversion:x}.marshal"


def _exec(source: Any, globals: dict[str, Any] | None = None, locals: dict[str, Any] | None = None, /) -> None:
    """exec, as dataclasses calls it on a method's text, with the text's code compiled once."""
    global _new
    if isinstance(source, str):
        code = _codes.get(source)
        if code is None:
            code = _codes[source] = compile(source, "<string>", "exec")
            _new = True
        _used.add(source)
        source = code
    builtins.exec(source, globals, locals)


def _save() -> None:
    path = _path()
    if not _new or path is None:
        return
    kept = _codes if len(_codes) <= LIMIT else {text: _codes[text] for text in _used}
    try:  # written whole or not at all: another process may be reading it
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_name(f".{path.name}.{os.getpid()}")
        part.write_bytes(marshal.dumps(kept))
        os.replace(part, path)
    except (OSError, ValueError):
        pass


def install() -> None:
    """From now on, dataclasses compiles each method's text once (its module's own name ``exec``,
    which only its code generation calls, shadows the builtin)."""
    path = _path()
    if path is not None:
        try:
            kept = marshal.loads(path.read_bytes())
        except (OSError, EOFError, ValueError, TypeError):
            kept = None
        if isinstance(kept, dict):
            _codes.update(kept)
    dataclasses.exec = _exec  # type: ignore[attr-defined]
    atexit.register(_save)
