"""A fresh clone has no ../shared/ beside it: every check that reads the rule texts skips, and says
why, rather than fails (tests/rule_texts.py)."""

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.rule_texts import ABSENT

TESTS = Path(__file__).resolve().parent


def _readers() -> list[Path]:
    """The test modules with checks that read the rule texts (marked needs_shared); not this one, which
    would run itself again, nor one that takes only the checkout's ROOT from tests/rule_texts.py."""
    return sorted(
        p for p in TESTS.glob("test_*.py")
        if p.name != Path(__file__).name and "needs_shared" in p.read_text(encoding="utf-8")
    )


def test_only_rule_texts_names_the_shared_folder() -> None:
    # A path to ../shared built anywhere else would fail, not skip, on a fresh clone.
    for path in TESTS.rglob("*.py"):
        if path.name != "rule_texts.py":
            assert not re.search(r"""["']shared["']|["']\.\./shared""", path.read_text(encoding="utf-8")), path.name


def test_the_rule_text_checks_skip_without_the_texts(tmp_path: Path) -> None:
    readers = _readers()
    assert {p.name for p in readers} >= {"test_reasons.py", "test_catalogue_sources.py"}
    env = {**os.environ, "CLOUDSPIRE_SHARED": str(tmp_path / "absent")}
    # The checks on generated boards read no rule text, and are most of these modules' time.
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "-n", "0", "-m", "not generated",
         *map(str, readers)],
        cwd=TESTS.parent, env=env, capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stdout[-3000:]
    assert re.search(r"\d+ passed, \d+ skipped", done.stdout), done.stdout[-3000:]
    assert ABSENT in done.stdout
