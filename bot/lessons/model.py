"""The values a lesson is made of (game-blind: a position holds the game's state opaquely)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["Choice", "Lesson", "Position", "Step", "UnknownLesson"]


class UnknownLesson(ValueError):
    """A lesson key no game's family has, or a step or choice the lesson does not hold."""


@dataclass(frozen=True, slots=True)
class Position:
    """What a step shows: a game's state (built from a fixed deal and the moves played on it)
    and the seat the member plays."""

    state: Any
    seat: int


@dataclass(frozen=True, slots=True)
class Choice:
    """One thing the member may choose: ``key`` is what is checked (a move in notation, or a
    question's answer), ``label`` what a button shows (notation or a number: the same in every
    language), ``move`` whether it is a move of the position (worded by the game's renderer)."""

    key: str
    label: str
    move: bool = False


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a lesson.

    ``prompt``, ``right`` and ``wrong`` are message ids (``bot.locale.N_``): the question, what is
    said once it is answered right, and the one sentence that explains a wrong choice.
    ``position`` builds the step's position (a fixed deal, exact tiles). ``choices`` are a
    question's answers; empty, the member chooses one of the position's legal moves. ``answer``
    is the right choice's key as the lesson's author wrote it; ``judge`` is the engine's verdict
    on a choice (tests check that the two agree and that exactly one choice is right).
    """

    prompt: str
    position: Callable[[], Position]
    answer: str
    judge: Callable[[Position, str], bool]
    right: str
    wrong: str
    choices: tuple[Choice, ...] = ()


@dataclass(frozen=True, slots=True)
class Lesson:
    """A lesson of one game: ``key`` is stored with a member's progress (never renamed);
    ``title`` and ``summary`` are message ids."""

    key: str
    game: str
    title: str
    summary: str
    steps: tuple[Step, ...]
