"""Hypothesis profiles for the tests on generated boards, registered by tests/conftest.py.

- ``default``: derandomized, so every normal run (CI included) draws the same examples and a
  failure reproduces; each test keeps its own deadline and health checks, and draws ``DEFAULT_SHARE``
  of its ``max_examples`` (``examples``).
- ``explore``: random examples, ``EXPLORE_FACTOR`` times as many, for long sweeps outside CI:
  ``HYPOTHESIS_PROFILE=explore pytest tests/test_agreement.py tests/test_combat_agreement.py``.
  A failure prints the board and a ``@reproduce_failure`` blob.

``--hypothesis-profile NAME`` selects a profile as well.
"""

from __future__ import annotations

import os
import zlib

import pytest
from hypothesis import settings

EXPLORE = "explore"
EXPLORE_FACTOR = 10


def register() -> None:
    base = settings.get_profile("default")
    settings.register_profile(EXPLORE, base, derandomize=False, print_blob=True)
    settings.register_profile("default", base, derandomize=True)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


# The suite's budget (10 minutes on a 2-core machine, README): a normal run draws this share of each
# test's ``n``; the explore profile and ``python -m bench.sweep`` draw the full numbers and more.
DEFAULT_SHARE = 0.04  # 0.3 until 3,582 tests took 11 min 9 s on a quiet machine; 0.2 until 3,357 took 10 min 57 s;
# 0.15 until 3,543 took 9 min 22 s; 0.1 until 3,669 took 11 min 33 s (19 min 12 s of CPU at 0.06)


def examples(n: int) -> int:
    """A test's ``max_examples``: ``DEFAULT_SHARE`` of ``n`` normally (at least one), ``EXPLORE_FACTOR``
    times ``n`` under the explore profile. Read when the test module is imported, after the profile is
    loaded."""
    if settings.get_current_profile_name() == EXPLORE:
        return n * EXPLORE_FACTOR
    return max(1, round(n * DEFAULT_SHARE))


def in_fixed_share(name: str, share: int) -> bool:
    """Whether the case named ``name`` (a file's path under the repository) is among the one in ``share``
    that a normal run takes: a fixed sample by name, the same on every run and machine; under the
    explore profile, every case."""
    return settings.get_current_profile_name() == EXPLORE or zlib.crc32(name.encode("utf-8")) % share == 0


def explored_only(why: str) -> pytest.MarkDecorator:
    """A check too slow for the suite's budget even on one board: it runs under the explore profile
    only, and a normal run names it skipped with ``why``."""
    return pytest.mark.skipif(settings.get_current_profile_name() != EXPLORE,
                              reason=f"{why}: run it with HYPOTHESIS_PROFILE={EXPLORE}")
