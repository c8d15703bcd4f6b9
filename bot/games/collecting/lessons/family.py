"""The collecting games' lessons facet (:class:`bot.lessons.family.GameLessons`)."""

from __future__ import annotations

from bot.lessons.model import Lesson

__all__ = ["FACET", "CollectingLessons"]


class CollectingLessons:
    """Kap Shap's and Kap Tai Shap's lessons."""

    def lessons(self, game: str) -> tuple[Lesson, ...]:
        """The game's lessons, in the order a beginner takes them."""
        from bot.games.collecting.lessons import kap_shap, kap_tai_shap

        by_game: dict[str, tuple[Lesson, ...]] = {
            kap_shap.GAME: kap_shap.LESSONS,
            kap_tai_shap.GAME: kap_tai_shap.LESSONS,
        }
        return by_game.get(game, ())


FACET = CollectingLessons()
