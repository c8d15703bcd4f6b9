"""The AI facet of the collecting games: today's players (:mod:`bot.ai.levels`) and reviews
(:mod:`bot.ai.review`) behind :class:`bot.ai.family.GameAI`.

An adapter until the game's code moves into this package (issue 19 step 6); the methods that
raise NotImplementedError say in which step their code arrives. Nothing calls them before.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from bot.ai.base import AnyPlayer
from bot.ai.family import GameAI
from bot.ai.levels import get_player, levels_for

if TYPE_CHECKING:
    from bot.ai.review import Estimator, PlayOut, Words

__all__ = ["FACET", "CollectingAI"]

_CALIBRATED: Mapping[str, Mapping[str, tuple[float, float]]] = MappingProxyType(
    {
        # (mu, sigma) per level under the ratings' default model, fitted with openskill from
        # 6,000 simulated games between the levels per game (benchmarks/calibrate_ratings.py
        # --games 6000 --seed 1; docs/ratings.md). sigma is the fit's own uncertainty.
        "kap-shap": MappingProxyType(
            {"random": (13.60, 1.05), "greedy": (31.37, 0.65), "expert": (33.77, 0.65)}
        ),
        "kap-tai-shap": MappingProxyType(
            {"random": (21.00, 0.49), "greedy": (25.72, 0.50), "expert": (27.00, 0.50)}
        ),
    }
)


class CollectingAI:
    """Kap Shap and Kap Tai Shap for the AI layer."""

    def levels(self, game: str) -> tuple[str, ...]:
        """``random``, ``greedy``, ``expert``, ``master``."""
        return tuple(levels_for(game))

    def player(self, game: str, level: str) -> AnyPlayer:
        """A fresh player of the level (:func:`bot.ai.levels.get_player`)."""
        return get_player(level)

    def searching(self, level: str) -> bool:
        """Only the master searches."""
        return level == "master"

    def passive_action(self, state: Any, seat: int, rng: random.Random) -> Any:
        """Not here yet: bot/services/absence.py plays it (moves in step 8)."""
        raise NotImplementedError("moves in step 8 (today bot/services/absence.py)")

    def playout(self, game: str) -> PlayOut:
        """The expert on every seat (:func:`bot.ai.review.default_playout`)."""
        from bot.ai.review import default_playout

        return default_playout(game)

    def estimator(self, game: str) -> Estimator:
        """The master's compiled play-outs, or the expert's through the engine
        (:func:`bot.ai.review.default_estimator`)."""
        from bot.ai.review import default_estimator

        return default_estimator(game)

    def action_words(self, notation: str) -> Words:
        """``drawing``, ``taking 6-4``, ``discarding 3-1`` (:func:`bot.ai.review.action_phrase`)."""
        from bot.ai.review import action_phrase

        return action_phrase(notation)

    def calibrated(self, game: str) -> Mapping[str, tuple[float, float]]:
        """``random``, ``greedy`` and ``expert`` of Kap Shap and of Kap Tai Shap (the master
        is not calibrated: the ratings let the strongest level stand in for it)."""
        return _CALIBRATED[game]


FACET: GameAI = CollectingAI()
"""The collecting games' AI facet (``ai_of("kap-shap")``)."""
