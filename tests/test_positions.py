"""Every position in positions/ against the outcome set it carries (docs/position-format.md)."""

from pathlib import Path

import pytest

from adjudicator.questions.expectations import check_file, position_files

ROOT = Path(__file__).resolve().parent.parent / "positions"
FILES = position_files(ROOT)


def test_there_are_positions() -> None:
    assert len(FILES) >= 8


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_position_holds_its_expected_outcomes(path: Path) -> None:
    result = check_file(path)
    assert result.passed, "\n".join(result.failures)
