"""What is derived from shipped files is kept on disk between processes (adjudicator/position/data.py,
derived): read back as made, made anew when its source changes, and never needed."""

from __future__ import annotations

from pathlib import Path

import pytest
from clingo import ast

from adjudicator.position import data
from adjudicator.solving import solve


def _counting(value: object) -> tuple[list[int], object]:
    made: list[int] = []

    def make() -> object:
        made.append(1)
        return value

    return made, make


def test_what_is_made_once_is_read_back_until_its_source_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLOUDSPIRE_CACHE", str(tmp_path))
    value = {"talents": [("Speed", 1), {3: None, "x": [1.5, True]}]}
    made, make = _counting(value)
    assert data.derived("thing", b"one", make) == value
    assert data.derived("thing", b"one", make) == value and len(made) == 1
    assert data.derived("thing", b"two", make) == value and len(made) == 2
    assert data.derived("thing", b"one", make) == value and len(made) == 2  # another checkout's, still kept
    for n in range(data.KEPT + 2):
        data.derived("thing", str(n).encode(), make)
    assert len(list(tmp_path.iterdir())) == data.KEPT  # the oldest are gone


def test_without_a_place_to_keep_it_is_made_each_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    made, make = _counting([1])
    monkeypatch.setenv("CLOUDSPIRE_CACHE", "")
    assert data.derived("thing", b"one", make) == data.derived("thing", b"one", make) == [1] and len(made) == 2
    blocked = tmp_path / "a-file"
    blocked.write_text("not a directory")
    monkeypatch.setenv("CLOUDSPIRE_CACHE", str(blocked / "cache"))
    assert data.derived("thing", b"one", make) == [1] and len(made) == 3


def test_a_damaged_file_is_made_anew(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLOUDSPIRE_CACHE", str(tmp_path))
    made, make = _counting("value")
    data.derived("thing", b"one", make)
    (kept,) = tmp_path.iterdir()
    kept.write_bytes(b"\x00garbage")
    assert data.derived("thing", b"one", make) == "value" and len(made) == 2


def test_the_encodings_outlines_read_back_are_those_of_the_statements() -> None:
    for file in solve._files("main.lp"):
        for part, statements in solve._parsed(file).items():
            assert solve._outlines("main.lp")[file][part] == tuple(map(solve._outline, statements))


def test_the_entry_file_is_its_includes_parsed_one_by_one() -> None:
    # Each included file is parsed by itself (solve._files): main.lp must hold no statement of its own.
    whole: list[ast.AST] = []
    ast.parse_files([str(solve.encoding_dir() / "main.lp")], whole.append)
    one_by_one = [s for file in solve._files("main.lp") for part in solve._parsed(file).values() for s in part]

    def rules(statements: list[ast.AST]) -> list[str]:
        return sorted(str(s) for s in statements if s.ast_type not in (ast.ASTType.Comment, ast.ASTType.Program))

    assert rules(whole) == rules(one_by_one) and len(solve._files("main.lp")) > 30
