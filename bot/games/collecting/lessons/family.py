"""The collecting games' lessons facet (:class:`bot.lessons.family.GameLessons`)."""

from __future__ import annotations

from bot.lessons.model import Lesson

__all__ = ["FACET", "CollectingLessons"]


class CollectingLessons:
    """Kap Shap's lessons (Kap Tai Shap has none yet)."""

    def lessons(self, game: str) -> tuple[Lesson, ...]:
        """The game's lessons, in the order a beginner takes them."""
        from bot.games.collecting.lessons.kap_shap import GAME, LESSONS

        return LESSONS if game == GAME else ()


FACET = CollectingLessons()
