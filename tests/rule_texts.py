"""Where the rule texts are: ../shared/ beside the checkout, as CI has it (CLOUDSPIRE_SHARED names
another folder). A check that reads them is marked `needs_shared` and skips when they are absent, so
a fresh clone's test run passes without them."""

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("CLOUDSPIRE_SHARED") or ROOT.parent / "shared")
ABSENT = "needs ../shared/ (the rule texts) beside the checkout; CI has it"

needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason=ABSENT)
