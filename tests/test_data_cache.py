"""The shipped data files' parses kept as JSON (adjudicator/position/data.py): read back only for the
same text, and never instead of a parse when they cannot be trusted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adjudicator.position import data


def _fresh(name: str) -> object:
    """The file parsed or read back, past this process's own cache."""
    return data.shipped.__wrapped__(name)


def _parsed(name: str) -> object:
    return data.parse_yaml((Path(data.__file__).parents[1] / "data" / name).read_text(encoding="utf-8"))


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(data.CACHE_ENV, str(tmp_path))
    return tmp_path


@pytest.mark.parametrize("name", ["talents.yaml", "scenarios.yaml", "reasons.yaml", "spire-die.yaml"])
def test_kept_parse_is_the_parse(folder: Path, name: str) -> None:
    assert _fresh(name) == _parsed(name)
    kept = list(folder.glob(f"{name}.*.json"))
    assert len(kept) == 1
    assert _fresh(name) == _parsed(name)  # read back from there


def test_kept_parse_is_read_back(folder: Path) -> None:
    _fresh("spire-die.yaml")
    [kept] = folder.glob("spire-die.yaml.*.json")
    content = json.loads(kept.read_text(encoding="utf-8"))
    content["data"] = {"marked": True}
    kept.write_text(json.dumps(content), encoding="utf-8")
    assert _fresh("spire-die.yaml") == {"marked": True}


@pytest.mark.parametrize("spoilt", ["", "{", "[]", '{"data": {"marked": true}}', '{"sha256": "0", "data": {}}'])
def test_spoilt_parse_is_parsed_anew(folder: Path, spoilt: str) -> None:
    _fresh("spire-die.yaml")
    [kept] = folder.glob("spire-die.yaml.*.json")
    kept.write_text(spoilt, encoding="utf-8")
    assert _fresh("spire-die.yaml") == _parsed("spire-die.yaml")


def test_other_versions_are_not_read_and_are_removed(folder: Path) -> None:
    stale = folder / "spire-die.yaml.0000.json"
    stale.write_text(json.dumps({"sha256": "0000", "data": {"stale": True}}), encoding="utf-8")
    assert _fresh("spire-die.yaml") == _parsed("spire-die.yaml")
    assert not stale.exists()
    assert len(list(folder.glob("spire-die.yaml.*.json"))) == 1


def test_nothing_kept_where_the_folder_is_set_empty(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(data.CACHE_ENV, "")
    monkeypatch.chdir(tmp_path)
    assert _fresh("spire-die.yaml") == _parsed("spire-die.yaml")
    assert list(tmp_path.iterdir()) == []


def test_unwritable_folder_still_parses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv(data.CACHE_ENV, str(blocked / "cache"))
    assert _fresh("talents.yaml") == _parsed("talents.yaml")


@pytest.mark.parametrize("value", [{1: "a key that is no string"}, data.parse_yaml("when: 2024-01-01"),
                                   float("nan")])
def test_what_json_cannot_hold_is_not_kept(tmp_path: Path, value: object) -> None:
    path = tmp_path / "x.yaml.0.json"
    data._keep(path, {"sha256": "0", "data": value})
    assert not path.exists()
    assert list(tmp_path.iterdir()) == []
