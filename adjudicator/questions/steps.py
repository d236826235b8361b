"""The questions that play a step of the turn, or the whole turn, in one table.

The CLI makes one command of each entry, the page offers each as a long question, the position
files' `expected` keys are their names, the notices read which steps each depends on, and the whole
turn plays the entries that have a place in it, in turn order. A new step is one entry here and its
encoding. Each question is imported only when asked, so that reading the table costs nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import Any, Callable

from adjudicator.position.talents import TURN_STEPS, WAVE_END

# A defeat or the end of a wave can happen inside any step that deals damage.
EVENTS = ("defeat", "end-of-wave")


@dataclass(frozen=True)
class Step:
    """A question the tool answers about a step of the turn (the CLI command and the page's button)."""

    name: str  # the CLI command, the page's question, the `expected` key (and `ai-` + name)
    title: str  # the page's button
    place: str | None  # the turn step it plays (position/talents.py, TURN_STEPS), or WAVE_END; None: the whole turn
    mode: str  # the notices' name for it (coverage.notices) and the encodings' combat mode
    acts: tuple[str, ...]  # the steps whose talents its answer depends on
    question: str  # "module:function" that answers it
    noun: str  # what it lists and counts, for progress reports ("final boards")
    limit: int  # how many it shows unless told
    renderer: str  # the function of adjudicator.show.render_text that prints its answer
    outcome: str  # the function of adjudicator.show.render_text that gives one outcome's lines (the page)
    expect: str  # how a position file's `expected` entry for it is checked (questions/expectations.py)
    summary: str  # the command's help
    sides: bool = True  # asked for a player or for the AI (`--ai`)
    progress: bool = True  # reports how many it has found so far
    options: tuple[str, ...] = ()  # further keyword options of the question (`die`)
    many: str = ""  # "module:function" that answers it for many positions at once, with no limit (the whole turn)

    def answer(self) -> Callable[..., Any]:
        module, function = self.question.split(":")
        return getattr(import_module(module), function)

    def ask(self, position: Any, ai: bool | None = None, limit: int | None = None, deadline: Any = None,
            progress: Callable[[int], None] | None = None, **options: Any) -> Any:
        """The typed answer: a result with `as_json`, `notices`, `complete`."""
        unknown = set(options) - set(self.options)
        if unknown:
            raise TypeError(f"{self.name} takes no option {sorted(unknown)}")
        kwargs: dict[str, Any] = {"limit": limit, "deadline": deadline, **options}
        if self.sides:
            kwargs["ai"] = ai
        if self.progress:
            kwargs["progress"] = progress
        return self.answer()(position, **kwargs)

    def ask_many(self, positions: list[Any], ai: bool | None = None, deadline: Any = None,
                 progress: Callable[[int], None] | None = None, **options: Any) -> list[Any]:
        """``ask`` of each of ``positions`` with no limit: all at once where the step has a question for
        many (``many``: one grounding for a batch of boards), else one by one. Cut short by
        ``deadline``: an incomplete answer, or TimedOut."""
        if not self.many:
            return [self.ask(p, ai, None, deadline, progress, **options) for p in positions]
        unknown = set(options) - set(self.options)
        if unknown:
            raise TypeError(f"{self.name} takes no option {sorted(unknown)}")
        module, function = self.many.split(":")
        return getattr(import_module(module), function)(positions, ai=ai, deadline=deadline, progress=progress, **options)


STEPS: tuple[Step, ...] = (
    Step("start-of-turn", "Start of turn", "start-of-turn", "start", ("start-of-turn", *EVENTS),
         "adjudicator.questions.adjudicate:start_of_turn", "end states", 20, "start_of_turn", "edge_outcome", "ends",
         "Every distinct end state of the start of the current faction's turn (Healing, …), with the exact count.",
         options=("die",), many="adjudicator.questions.adjudicate:start_of_turns"),
    Step("quick-strike", "Quick Strike", "quick-strike", "quick", ("quick-strike", *EVENTS),
         "adjudicator.questions.adjudicate:quick_strike", "end states", 20, "quick_strike", "attack_outcome", "ends",
         "Every distinct end state of the Quick Strike step, before the spires fire: what units with Quick "
         "Strike may, or must, attack then, with the exact count.",
         many="adjudicator.questions.adjudicate:quick_strikes"),
    Step("spires-fire", "Spires Fire", "spires-fire", "fire", ("spires-fire", *EVENTS),
         "adjudicator.questions.adjudicate:spires_fire", "results", 50, "fire_step", "fire_outcome", "fire",
         "The Spires Fire step: which spires fire, their targets, every result with its exact odds.",
         sides=False, progress=False, options=("die",)),
    Step("movement-step", "Movement step", "movement", "movement", ("movement",),
         "adjudicator.questions.whole_step:movement_step", "final boards", 20, "step", "step_outcome", "boards",
         "Every distinct final board of the current faction's whole movement step, with the exact count."),
    Step("exploration", "Exploration", "exploration", "explore", ("exploration", *EVENTS),
         "adjudicator.questions.adjudicate:exploration", "end states", 20, "exploration", "edge_outcome", "ends",
         "Every distinct end state of the current faction's exploration step: the face-down landmarks its units "
         "may reveal, and what each the position says lies face down does then, with the exact count.",
         many="adjudicator.questions.adjudicate:explorations"),
    Step("attack-step", "Attack step", "attack", "attack", ("attack", *EVENTS),
         "adjudicator.questions.adjudicate:attack_step", "end states", 20, "attack_step", "attack_outcome", "ends",
         "Every distinct end state of the current faction's whole attack step, with the exact count.",
         many="adjudicator.questions.adjudicate:attack_steps"),
    Step("end-of-turn", "End of turn", "end-of-turn", "end", ("end-of-turn", *EVENTS),
         "adjudicator.questions.closing:end_of_turn", "end states", 20, "end_of_turn", "edge_outcome", "ends",
         "Every distinct end state of the end of the current faction's turn (its talents' acts, then Back to the "
         "Future's move and attack), with the exact count.",
         # The acts alone, for many boards: the whole turn then plays Back to the Future on each (closing.close).
         many="adjudicator.questions.adjudicate:end_of_turns"),
    Step("end-of-wave", "End of the wave", WAVE_END, "wave", (WAVE_END,),
         "adjudicator.questions.adjudicate:end_of_wave", "end states", 20, "end_of_wave", "edge_outcome", "ends",
         "Every distinct end state of the end of the wave, on a board it has just ended on: what returns to "
         "its barracks, Source gained, campfire mode ended (Precious, Mining, Refinery), with the exact count.",
         many="adjudicator.questions.adjudicate:end_of_waves"),
    Step("turn", "Whole turn", None, "turn", TURN_STEPS + EVENTS,
         "adjudicator.questions.whole_turn:whole_turn", "outcomes", 20, "whole_turn", "turn_outcome", "turn",
         "The whole turn from the step the position stands at to the end of turn: every distinct way it "
         "can end, with the exact count and each Spires Fire result's exact probability.",
         options=("die",)),
)

BY_NAME = {s.name: s for s in STEPS}


def expectation_keys() -> dict[str, tuple[Step, bool | None]]:
    """Each `expected` key a position file may give a step: its name, and `ai-` + its name for the
    AI's obliged outcomes where the step has sides."""
    keys: dict[str, tuple[Step, bool | None]] = {}
    for s in STEPS:
        keys[s.name] = (s, None)
        if s.sides:
            keys[f"ai-{s.name}"] = (s, True)
    return keys

BY_MODE = {s.mode: s for s in STEPS}
# The steps of the turn the core plays with a question of its own, in turn order.
PLAYED_STEPS = tuple(sorted((s for s in STEPS if s.place in TURN_STEPS), key=lambda s: TURN_STEPS.index(s.place or "")))
# The end of the wave, which the whole turn plays where a step ends the wave, and then ends.
WAVE_STEP = BY_NAME["end-of-wave"]
