"""The page's JSON API: each call reads a position, asks the same question function as the CLI, and
answers with that function's JSON (docs/output-format.md) and the board drawn by render_svg.

Every call takes a JSON object and returns one. A position comes as ``{"yaml": text}`` (a file as
written) or ``{"document": {...}}`` (the file's content as JSON, which the page edits); both are read
by the loader, so the page sees the loader's own located messages. Bad input raises `ApiError`,
which the server sends as ``{"error": {kind, message, problems}}``, the shape of the CLI's errors.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from functools import cache, lru_cache
from importlib.resources import files
from pathlib import Path
from typing import Any

import yaml

from adjudicator.answers.notation import NotationError, parse, quote
from adjudicator.position.claims import AttackClaim, Claim, MoveClaim
from adjudicator.position.load import (
    FORMAT,
    STEPS,
    UPGRADES,
    PositionFileError,
    load_document_text,
)
from adjudicator.position.hexmap import ROCK, TERRAIN_LETTERS
from adjudicator.position.model import Kind, Position, Terrain
from adjudicator.position.readings import READINGS, resolve
from adjudicator.position.talents import catalogue
from adjudicator.questions import adjudicate, dispute, reading_effects
from adjudicator.questions import steps
from adjudicator.questions.coverage import notices, notices_in
from adjudicator.show import render_svg, render_text
from adjudicator.show.overlay import outcome_overlay, overlay_of
from adjudicator.solving.solve import Deadline, TimedOut

FILENAME = "position.yaml"  # the name the loader's messages give the page's position
QUESTIONS = tuple(steps.BY_NAME)  # the long questions, asked as jobs
MAX_SHOWN = 200  # outcomes a whole-step answer sends at most; the count stays exact


class ApiError(Exception):
    """Why a call cannot be answered: an HTTP status, and ``kind``/``message``/``problems`` as the
    CLI's JSON errors."""

    def __init__(self, kind: str, message: str, problems: list[dict[str, Any]] | None = None,
                 status: int = 400) -> None:
        super().__init__(message)
        self.kind, self.message, self.problems, self.status = kind, message, problems or [], status

    def as_json(self) -> dict[str, Any]:
        return {"error": {"kind": self.kind, "message": self.message, "problems": self.problems}}


@dataclass(frozen=True)
class Limits:
    """How much one call may ask of the server."""

    seconds: float = 20.0  # solve time of one question
    body: int = 256 * 1024  # bytes of a request


class _Dumper(yaml.SafeDumper):
    """Writes the map picture as a literal block, so that a saved file reads as one written by hand."""


_Dumper.add_representer(
    str,
    lambda dumper, text: dumper.represent_scalar(
        "tag:yaml.org,2002:str", text, style="|" if "\n" in text else None
    ),
)


class _Reader(yaml.SafeLoader):
    """Reads a file into the content the page edits: a date stays the text it was, since the page
    holds JSON, which has no dates."""


_Reader.yaml_implicit_resolvers = {
    first: [(tag, pattern) for tag, pattern in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def to_yaml(document: dict[str, Any]) -> str:
    return yaml.dump(document, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)


def _field(body: dict[str, Any], key: str, kind: type, default: Any = None) -> Any:
    value = body.get(key, default)
    if value is not None and (not isinstance(value, kind) or (kind is int and isinstance(value, bool))):
        raise ApiError("request", f"{key}: expected {kind.__name__}, found {type(value).__name__}")
    return value


def position_text(body: dict[str, Any]) -> str:
    """The position of a call as the text of a file."""
    given = _field(body, "position", dict)
    if given is None:
        raise ApiError("request", 'position: expected {"yaml": text} or {"document": {...}}')
    if "yaml" in given:
        return _field(given, "yaml", str)
    document = _field(given, "document", dict)
    if document is None:
        raise ApiError("request", 'position: expected {"yaml": text} or {"document": {...}}')
    return to_yaml(document)


def _read(text: str) -> Position:
    try:
        return load_document_text(text, FILENAME).position
    except PositionFileError as error:
        raise ApiError("position-file", str(error), [asdict(p) for p in error.problems], 422) from None


def load(body: dict[str, Any]) -> Position:
    """The call's position, with the readings it switches (``{"readings": {name: value}}``)."""
    text = position_text(body)
    switched = _field(body, "readings", dict) or {}
    for name, value in switched.items():
        if not isinstance(value, str):
            _read(text)  # a position the loader refuses is told first
            raise ApiError("request", f"readings.{name}: expected one of the reading's values as text")
    return _loaded(text, tuple(sorted(switched.items())))


@lru_cache(maxsize=8)
def _loaded(text: str, switched: tuple[tuple[str, str], ...]) -> Position:
    """``load``'s position, read once for the page's calls about the same text and readings: the
    same Position each time, so that the answers kept for it (adjudicator/questions/kept.py) serve
    the calls that follow (each tap of a unit asks its faction's moves). A refusal is not kept."""
    position = _read(text)
    chosen = {**position.readings, **dict(switched)}
    try:
        resolve(chosen)
    except ValueError as error:
        raise ApiError("readings", f"readings: {error}") from None
    return replace(position, readings=chosen)


def _ai(body: dict[str, Any]) -> bool | None:
    return True if _field(body, "ai", bool, False) else None


def _narrow(body: dict[str, Any]) -> bool:
    """The picture for a phone: its legend below the board (render_svg)."""
    return bool(_field(body, "narrow", bool, False))


def _unit(body: dict[str, Any], position: Position) -> str:
    unit = _field(body, "unit", str)
    if unit not in position.units:
        raise ApiError("unit", f"no unit {unit!r}; units: {', '.join(sorted(position.units))}")
    return unit


def _claim(body: dict[str, Any], position: Position) -> Claim:
    """``move``, a move or attack in notation; or ``unit`` and ``to``, a tapped hex or target: a move
    there at the movement step, an attack on it at the attack step."""
    text = _field(body, "move", str)
    if text is None:
        unit, to = _unit(body, position), _field(body, "to", str)
        if to is None:
            raise ApiError("request", "move: expected a move or attack in notation (docs/notation.md), "
                           "or unit and to")
        text = f"{quote(unit)} x {quote(to)}" if position.turn.step == "attack" else f"{quote(unit)} {quote(to)}"
    try:
        return parse(text, position)
    except NotationError as error:
        raise ApiError("notation", f"move: {error}") from None


def _notices(position: Position) -> str:
    """What no answer at the position's step can take into account, worded as the CLI prints it: the
    step's own question's notices, or the step's talents where no question plays it (exploration)."""
    mode = next((s.mode for s in steps.STEPS if s.place == position.turn.step), None)
    found = notices(position, mode, None) if mode else notices_in(position, (position.turn.step,), None)
    return render_text.notices(found)


# --- the calls


@cache
def position_schema() -> dict[str, Any]:
    """schema/position.schema.json: beside the package in a checkout, inside it once installed."""
    packaged = Path(str(files("adjudicator"))) / "schema"
    folder = packaged if packaged.is_dir() else Path(__file__).resolve().parents[2] / "schema"
    loaded: dict[str, Any] = json.loads((folder / "position.schema.json").read_text(encoding="utf-8"))
    return loaded


def catalogue_call(_: dict[str, Any], limits: Limits) -> dict[str, Any]:
    """What the page's editor offers: talents, readings and every choice the format allows."""
    talents = sorted(catalogue().talents.values(), key=lambda t: t.name.casefold())
    return {
        "format": FORMAT,
        "steps": list(STEPS),
        "kinds": [k.value for k in Kind],
        "terrains": [t.value for t in Terrain],
        # The map's letters as the picture colours them, so that building and asking look alike.
        "fills": {**{k: render_svg.TERRAIN_FILL[t] for k, t in TERRAIN_LETTERS.items()}, ROCK: render_svg.ROCK_FILL},
        "upgrades": list(UPGRADES),
        "talents": [{"name": t.name, "player": t.status(ai=False), "ai": t.status(ai=True),
                     "wording": t.player or t.ai or ""} for t in talents],
        "schema": position_schema(),  # the page's forms follow it (static/forms.js)
        "readings": [{"name": r.name, "default": r.default, "values": list(r.values), "summary": r.summary}
                     for r in READINGS.values()],
        "questions": [{"name": s.name, "title": s.title, "noun": s.noun} for s in steps.STEPS],
        "seconds": limits.seconds,
    }


def position_call(body: dict[str, Any], limits: Limits) -> dict[str, Any]:
    """Validate: the file the page would save, its problems, and the board when it is valid."""
    text = position_text(body)
    try:
        position = _read(text)
    except ApiError as error:
        if error.kind != "position-file":
            raise
        return {"valid": False, "problems": error.problems, "message": error.message, "yaml": text}
    # The page edits the file's content; a file it opened becomes that content (comments aside).
    document = yaml.load(text, Loader=_Reader)
    return {
        "valid": True, "problems": [], "yaml": text, "document": document,
        "svg": render_svg.render(position, narrow=_narrow(body)), "notices": _notices(position),
        "readings": resolve(position.readings),
    }


def options_call(body: dict[str, Any], limits: Limits) -> dict[str, Any]:
    """A tapped unit at the position's step: its legal and its AI-mandated outcomes, drawn, and the
    verdict on each end hex or target with its reasons, as `explain` gives them."""
    position = load(body)
    unit = _unit(body, position)
    deadline = Deadline(limits.seconds)
    attack = position.turn.step == "attack"
    if attack:
        [legal] = adjudicate.attack_options(position, unit, False, deadline)
        [mandated] = adjudicate.attack_options(position, unit, True, deadline)
        claim: Claim = AttackClaim(unit, None)
    else:
        legal = adjudicate.unit_options(position, unit, False, deadline)
        mandated = adjudicate.unit_options(position, unit, True, deadline)
        claim = MoveClaim(unit, position.node_of(unit))
    explanation = dispute.explain(position, claim, _ai(body), deadline)
    overlay = overlay_of(position, None, unit, _ai(body), deadline)
    return {
        "unit": unit, "step": "attack" if attack else "movement",
        "legal": legal.as_json(), "ai": mandated.as_json(), "explanation": explanation.as_json(),
        "notices_text": render_text.notices(explanation.check.notices),
        "note": "" if attack else render_text.leading_note(legal, position),
        "svg": render_svg.render(position, **overlay, narrow=_narrow(body)),
    }


def check_call(body: dict[str, Any], limits: Limits) -> dict[str, Any]:
    """A claimed move or attack: `explain`'s answer (the `check` verdict and the other ends), drawn."""
    position = load(body)
    claim = _claim(body, position)
    deadline = Deadline(limits.seconds)
    explanation = dispute.explain(position, claim, _ai(body), deadline)
    overlay = overlay_of(position, claim, None, _ai(body), deadline)
    return {"explanation": explanation.as_json(), "notices_text": render_text.notices(explanation.check.notices),
            "svg": render_svg.render(position, **overlay, narrow=_narrow(body))}


def readings_call(body: dict[str, Any], limits: Limits) -> dict[str, Any]:
    """Where switching a reading changes this position's outcomes, as `cloudspire readings`."""
    position = load(body)
    effects = reading_effects.reading_effects(position, Deadline(limits.seconds))
    return {"effects": [e.as_json() for e in effects], "readings": resolve(position.readings)}


def step_question(body: dict[str, Any], limits: Limits) -> tuple[Position, str, bool | None, int]:
    """A whole-step question checked before it is started as a job: position, question, ai, limit."""
    position = load(body)
    question = _field(body, "question", str)
    if question not in QUESTIONS:
        raise ApiError("request", f"question: expected one of {', '.join(QUESTIONS)}, not {question!r}")
    limit = _field(body, "limit", int, 20)
    if not 0 <= limit <= MAX_SHOWN:
        raise ApiError("request", f"limit: expected 0 to {MAX_SHOWN}, not {limit}")
    return position, question, _ai(body), limit


def answer_step(position: Position, question: str, ai: bool | None, limit: int, limits: Limits,
                progress: Any) -> tuple[dict[str, Any], Callable[[int | None, bool], str]]:
    """The JSON of the CLI command of the same name, incomplete when time ran out, and under `lines`
    each outcome as the CLI prints it, so that the page shows what the command says; and what draws
    outcome N (narrow or not; None: the per-unit summary, where the answer has one), asked only for
    what the page shows."""
    deadline = Deadline(limits.seconds)
    step = steps.BY_NAME[question]
    result = step.ask(position, ai, limit, deadline, progress)
    printed = getattr(render_text, step.outcome)

    def picture(index: int | None, narrow: bool) -> str:
        if index is None:  # the summary: where each unit can end
            return render_svg.render(position, ends=getattr(result, "summary", ()), narrow=narrow)
        if not 0 <= index < len(result.outcomes):
            raise ApiError("request", f"outcome: expected 0 to {len(result.outcomes) - 1}, not {index}", status=404)
        board, overlay = outcome_overlay(position, result.outcomes[index])
        return render_svg.render(board, **overlay, narrow=narrow)

    return {**result.as_json(), "lines": [printed(o) for o in result.outcomes]}, picture


def timed_out(error: TimedOut) -> ApiError:
    return ApiError("timeout", f"timed out after {error.seconds:g} s, before any answer", status=503)


CALLS = {
    "position": position_call,
    "options": options_call,
    "check": check_call,
    "readings": readings_call,
}
