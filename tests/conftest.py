"""Hypothesis profiles: derandomized by default, HYPOTHESIS_PROFILE=explore for random sweeps
(tests/profiles.py). Every grounding any test makes raises on a grounder warning (solve.STRICT): a
warning usually means a misspelt predicate, which then silently derives nothing.

The suite's tiers (README, "Tests"): every test on generated boards is marked ``generated`` and
every test that drives Chromium ``browser``, so that ``pytest -m "not generated and not browser"``
is the quick tier a developer runs between edits."""

from __future__ import annotations

import pytest

from adjudicator.solving import solve
from tests.profiles import register

register()
solve.STRICT = True


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        function = getattr(item, "function", None)
        if getattr(function, "is_hypothesis_test", False):
            item.add_marker(pytest.mark.generated)
        if item.module is not None and item.module.__name__.endswith("test_web_browser"):
            item.add_marker(pytest.mark.browser)
    # The long tests first, so that the workers share them and the many short ones fill in after:
    # collected in file order, a long test met last runs alone while the other workers wait.
    items.sort(key=lambda item: not (item.get_closest_marker("generated") or item.get_closest_marker("browser")))
