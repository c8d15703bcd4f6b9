"""``kapshap learn``: the lessons of ``/learn`` in the terminal.

The list of lessons, then each step of the one chosen: its position as the game's terminal
table shows it (for a move), the question and the numbered answers; the member types a number
(or the move itself). A wrong answer is explained in one sentence and asked again; a right one
goes on. A finished lesson offers a short game against the game's gentlest computer (the
terminal client's own game). Progress is kept **in memory** for the run (the list shows what is
done, with its stars, and a lesson left half-way resumes where it stopped); nothing is written
to disk.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from dataclasses import dataclass, field
from typing import Any, TextIO

from bot.engine.family import engine_of
from bot.games import find
from bot.lessons import Lesson, all_lessons, choices_of, is_right, position_of, practice_level
from bot.lessons import stars_for as _stars_for
from bot.locale import LOCALES, lang_of_args
from bot.locale import t as tr
from bot.locale.levels import level_name
from bot.terminal.console import Console, isatty
from bot.terminal.family import terminal_of
from bot.terminal.table import play

__all__ = ["PROG", "build_parser", "main"]

PROG = "kapshap learn"
STAR, NO_STAR = "★", "☆"


class _Back(Exception):
    """The member typed ``q`` during a lesson: back to the list."""


@dataclass
class _Progress:
    """One lesson's progress in this run."""

    step: int = 0
    mistakes: int = 0
    done: bool = False
    stars: int = 0


@dataclass
class _Learner:
    """The streams, the language and the progress of one run."""

    inp: TextIO
    out: TextIO
    locale: str
    rng: random.Random
    progress: dict[str, _Progress] = field(default_factory=dict)

    def lt(self, msgid: str, **values: Any) -> str:
        return tr(self.locale, msgid, **values)

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")

    def read(self, prompt: str) -> str | None:
        """A line typed after ``prompt`` (echoed when input is not a terminal); None at the end
        of input."""
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.say()
            return None
        text = " ".join(line.split())
        if not isatty(self.inp):
            self.say(text)
        return text

    def title(self, lesson: Lesson) -> str:
        return self.lt(
            "{game}: {title}", game=self.lt(find(lesson.game).short), title=self.lt(lesson.title)
        )

    def status(self, lesson: Lesson) -> str:
        progress = self.progress.get(lesson.key, _Progress())
        if progress.done:
            return self.lt("done {stars}", stars=_stars(progress.stars))
        if progress.step:
            return self.lt(
                "step {step} of {steps}", step=progress.step + 1, steps=len(lesson.steps)
            )
        return self.lt("not started")

    def run(self, only: str | None) -> int:
        lessons = all_lessons()
        if only is not None:
            chosen = [lesson for lesson in lessons if lesson.key == only]
            if chosen:
                self.take(chosen[0])  # its end, end of input or leaving the game: all stop here
            return 0
        while True:
            self.say(self.lt("Lessons"))
            for number, lesson in enumerate(lessons, start=1):
                status = self.status(lesson)
                # Full-width brackets in Chinese.
                shown = f" ({status})" if self.locale == "en" else f"（{status}）"
                self.say(f"{number}. {self.title(lesson)}{shown}")
                self.say("   " + self.lt(lesson.summary))
            answer = self.read(self.lt("Lesson number (q to quit): "))
            if answer is None or answer.lower() in ("q", "quit"):
                return 0
            if not answer.isdigit() or not 1 <= int(answer) <= len(lessons):
                self.say("! " + self.lt("Type a number from 1 to {n}.", n=len(lessons)))
                continue
            if self.take(lessons[int(answer) - 1]) != 0:
                return 0

    def take(self, lesson: Lesson) -> int:
        """Take a lesson from where it stopped; 1 when input ended."""
        progress = self.progress.setdefault(lesson.key, _Progress())
        if progress.step >= len(lesson.steps):
            progress.step, progress.mistakes = 0, 0
        self.say()
        self.say("== " + self.title(lesson) + " ==")
        while progress.step < len(lesson.steps):
            try:
                if not self.ask(lesson, progress):
                    return 1
            except _Back:
                self.say()
                return 0  # back to the list: the lesson resumes at this step
        stars = _stars_for(progress.mistakes)
        progress.done, progress.stars = True, max(progress.stars, stars)
        self.say(self.lt("Lesson finished: {stars}", stars=_stars(stars)))
        return self.practice(lesson.game)

    def ask(self, lesson: Lesson, progress: _Progress) -> bool:
        """One step, asked until it is answered right; False when input ends."""
        step = lesson.steps[progress.step]
        self.say()
        self.say(self.lt("Step {step} of {steps}", step=progress.step + 1, steps=len(lesson.steps)))
        choices = choices_of(step)
        if any(choice.move for choice in choices):
            self.show(lesson.game, progress.step, step)
        self.say(self.lt(step.prompt))
        # In Chinese a move is quoted: it is notation the player could type.
        quote = "'" if self.locale != "en" else ""
        numbered = "  ".join(
            f"{i}) {quote + c.label + quote if c.move else c.label}"
            for i, c in enumerate(choices, start=1)
        )
        numbered += "  " + self.lt("(q: back to the lessons)")
        while True:
            self.say(numbered)
            answer = self.read("> ")
            if answer is None:
                return False
            if answer.lower() in ("q", "quit"):
                raise _Back
            keys = {c.key.lower(): c.key for c in choices}
            if answer.isdigit() and 1 <= int(answer) <= len(choices):
                key = choices[int(answer) - 1].key
            elif answer.lower() in keys:
                key = keys[answer.lower()]
            else:
                self.say("! " + self.lt("Type the number of an answer (1 to {n}).", n=len(choices)))
                continue
            if is_right(step, key):
                self.say("✓ " + self.lt(step.right))
                progress.step += 1
                return True
            progress.mistakes += 1
            # A Chinese sentence follows the full stop without a space.
            space = " " if self.locale == "en" else ""
            self.say("✗ " + self.lt(step.wrong) + space + self.lt("Try again."))

    def show(self, game: str, index: int, step: object) -> None:
        """The step's position as the game's terminal table shows it."""
        from bot.lessons.model import Step

        assert isinstance(step, Step)
        position = position_of(step)
        engine = engine_of(game)
        terminal = terminal_of(game)
        if terminal is None:
            return
        state = position.state
        names = [
            self.lt("You") if seat == position.seat else self.lt("Bot {n}", n=1)
            for seat in range(state.rules.players)
        ]
        console = Console(
            state.rules, state.deal, names, position.seat, self.rng, self.inp, self.out
        )
        console.locale = self.locale
        hooks = terminal.hooks(console, state, position.seat)
        hooks.status(engine.view(state, position.seat), engine.legal_actions(state))

    def practice(self, game: str) -> int:
        """Offer the short game against the gentlest computer; 1 when input ended."""
        level = practice_level(game)
        answer = self.read(
            self.lt(
                "Play a short game against the gentlest computer ({level})? [y/N] ",
                level=level_name(self.locale, level),
            )
        )
        if answer is None:
            return 1
        if answer.lower() not in ("y", "yes", "是", "好"):
            return 0
        engine = engine_of(game)
        rules = engine.make_rules(game, 2, None)
        deal = engine.deal(rules, self.rng, thrower=0)
        names = [self.lt("You"), self.lt("Bot {n}", n=1)]
        finished = play(
            rules,
            deal,
            names=names,
            human=0,
            ai_level=level,
            rng=self.rng,
            stdin=self.inp,
            stdout=self.out,
            locale=self.locale,
        )
        return 0 if finished else 1


def _stars(stars: int) -> str:
    return STAR * stars + NO_STAR * (3 - stars)


def build_parser() -> argparse.ArgumentParser:
    """The options of ``kapshap learn``."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Short interactive lessons for each game, on fixed deals. Progress is kept "
        "in memory while the program runs.",
    )
    parser.add_argument(
        "--lesson",
        choices=[lesson.key for lesson in all_lessons()],
        default=None,
        help="take this lesson at once",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed for the practice games")
    parser.add_argument(
        "--lang",
        choices=LOCALES,
        default="en",
        help="language: en, zh-TW (Traditional Chinese), zh-CN (Simplified)",
    )
    return parser


def main(
    argv: list[str] | None = None, *, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    """Run ``kapshap learn`` with ``argv``; 0 when the member quits or input ends, 2 for bad
    options (argparse's message), 130 when interrupted."""
    args = sys.argv[1:] if argv is None else list(argv)
    out = stdout if stdout is not None else sys.stdout
    try:
        namespace = build_parser().parse_args(args)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    learner = _Learner(
        stdin if stdin is not None else sys.stdin,
        out,
        namespace.lang,
        random.Random(namespace.seed),
    )
    try:
        return learner.run(namespace.lesson)
    except KeyboardInterrupt:
        out.write("\n" + tr(lang_of_args(args), "Interrupted.") + "\n")
        return 130
    except BrokenPipeError:
        # The reader went away (`kapshap learn | head`): stop quietly, as `kapshap play` does.
        if out is sys.stdout:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return 0
