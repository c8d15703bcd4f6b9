"""The game-blind runner: every game's lessons, a step's position and choices, the engine's
verdict on a choice, the stars of a finished lesson and the gentle computer to practise with."""

from __future__ import annotations

from functools import cache

from bot.ai.levels import levels_for
from bot.engine.family import engine_of
from bot.games import games
from bot.lessons.family import lessons_of
from bot.lessons.model import Choice, Lesson, Position, Step, UnknownLesson

__all__ = [
    "all_lessons",
    "choices_of",
    "find_lesson",
    "is_right",
    "position_of",
    "practice_level",
    "stars_for",
]


def all_lessons() -> tuple[Lesson, ...]:
    """Every game's lessons, the games in the registry's order."""
    out: list[Lesson] = []
    for info in games():
        facet = lessons_of(info.name)
        if facet is not None:
            out += facet.lessons(info.name)
    return tuple(out)


def find_lesson(key: str) -> Lesson:
    """The lesson stored as ``key``; UnknownLesson if there is none."""
    for lesson in all_lessons():
        if lesson.key == key:
            return lesson
    raise UnknownLesson(f"no lesson '{key}'")


@cache
def _position(step: Step) -> Position:
    return step.position()


def position_of(step: Step) -> Position:
    """The step's position (built once: it is a fixed deal)."""
    return _position(step)


def choices_of(step: Step) -> tuple[Choice, ...]:
    """What the member may choose: the question's answers, or the position's legal moves in
    notation (the engine's)."""
    if step.choices:
        return step.choices
    position = position_of(step)
    legal = engine_of(position.state.rules.game).legal_actions(position.state)
    return tuple(Choice(str(action), str(action), move=True) for action in legal)


def is_right(step: Step, key: str) -> bool:
    """The engine's verdict on a choice; UnknownLesson if ``key`` is none of the choices."""
    if key not in {choice.key for choice in choices_of(step)}:
        raise UnknownLesson(f"'{key}' is not a choice of this step")
    return step.judge(position_of(step), key)


def stars_for(mistakes: int) -> int:
    """Stars for a lesson finished with ``mistakes`` wrong answers: 3 without any, 2 for one or
    two, 1 for more."""
    return 3 if mistakes == 0 else 2 if mistakes <= 2 else 1


def practice_level(game: str) -> str:
    """The gentle computer a lesson ends with: the game's weakest level."""
    return levels_for(game)[0]
