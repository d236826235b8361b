"""Hypothesis profiles: derandomized by default, HYPOTHESIS_PROFILE=explore for random sweeps
(tests/profiles.py)."""

from tests.profiles import register

register()
