"""Lessons (``/learn``, ``kapshap learn``): short interactive lessons on fixed deals.

A lesson is data: steps, each a position of a fixed deal, a question or a move to make, the
right answer and a sentence that explains a wrong one. The game's family writes its lessons
(``bot/games/<family>/lessons/``, the facet :func:`bot.lessons.family.lessons_of`); the runner
here is game-blind: it builds a step's position, lists its choices (a question's answers, or the
position's legal moves from the engine) and asks the step's judge, which asks the engine, whether
a choice is right.
"""

from __future__ import annotations

from bot.lessons.model import Choice, Lesson, Position, Step, UnknownLesson
from bot.lessons.runner import (
    all_lessons,
    choices_of,
    find_lesson,
    is_right,
    position_of,
    practice_level,
    stars_for,
)

__all__ = [
    "Choice",
    "Lesson",
    "Position",
    "Step",
    "UnknownLesson",
    "all_lessons",
    "choices_of",
    "find_lesson",
    "is_right",
    "position_of",
    "practice_level",
    "stars_for",
]
