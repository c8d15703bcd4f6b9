"""Tsung Shap's lessons facet (:class:`bot.lessons.family.GameLessons`)."""

from __future__ import annotations

from bot.lessons.model import Lesson

__all__ = ["FACET", "FishingLessons"]


class FishingLessons:
    """Tsung Shap's lessons."""

    def lessons(self, game: str) -> tuple[Lesson, ...]:
        """The game's lessons, in the order a beginner takes them."""
        from bot.games.fishing.lessons.tsung_shap import GAME, LESSONS

        return LESSONS if game == GAME else ()


FACET = FishingLessons()
