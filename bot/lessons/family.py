"""What a family of games gives the lessons (its *lessons facet*), and the one accessor that
fetches it: :func:`lessons_of`.

A family's facet is the ``FACET`` of the module its descriptor names for the role ``lessons``
(``bot/games/<family>/lessons/family.py``); that module belongs to this layer (standard library,
``bot.engine``, ``bot.ai``, ``bot.locale``). A family may leave the role out: it then has no
lessons. See docs/architecture.md, "Games: one place per game".
"""

from __future__ import annotations

from typing import Protocol, cast

from bot.games import load
from bot.lessons.model import Lesson

__all__ = ["GameLessons", "lessons_of"]


class GameLessons(Protocol):
    """Everything a family gives the lessons."""

    def lessons(self, game: str) -> tuple[Lesson, ...]:
        """The game's lessons, in the order a beginner takes them."""
        ...


def lessons_of(game: str) -> GameLessons | None:
    """The lessons facet of a game's family; None when the family gives none (UnknownGame for
    a name no family registered)."""
    return cast("GameLessons | None", load(game, "lessons"))
