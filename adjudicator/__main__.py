"""`python -m adjudicator` is the `cloudspire` command."""

from adjudicator.cli import app

app(prog_name="cloudspire")
