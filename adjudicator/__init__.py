"""The Cloudspire rules adjudicator."""

from adjudicator import compiled

compiled.install()  # before any module of ours makes its dataclasses
