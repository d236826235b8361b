"""Every position in positions/ against the outcome set it carries (docs/position-format.md), and
against what every position must show besides (tests/position_checks.py), on the one loaded position
whose kept answers serve all three."""

from pathlib import Path

import pytest

from adjudicator.position.load import load_document
from adjudicator.questions.expectations import check_document, position_files

from tests.position_checks import CHECKED, SOLVED_SHARE, grounds_to_facts, reads_back
from tests.profiles import in_fixed_share

ROOT = Path(__file__).resolve().parent.parent / "positions"
FILES = position_files(ROOT)


def test_there_are_positions() -> None:
    assert len(FILES) >= 8


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_position_holds_its_outcomes_reads_back_and_grounds_to_facts(path: Path) -> None:
    doc = load_document(path)
    result = check_document(doc, str(path))
    assert result.passed, "\n".join(result.failures)
    again = in_fixed_share(str(path.relative_to(ROOT)), SOLVED_SHARE)
    reads_back(doc, CHECKED if again else 0)
    if again:
        grounds_to_facts(doc.position)
