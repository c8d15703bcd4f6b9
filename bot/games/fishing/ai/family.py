"""The AI facet of Tsung Shap: today's players (:mod:`bot.ai.fishing_levels`) and reviews
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
from bot.ai.fishing_levels import FISHING_LEVELS, fishing_player

if TYPE_CHECKING:
    from bot.ai.review import Estimator, PlayOut, Words

__all__ = ["FACET", "FishingAI"]

_CALIBRATED: Mapping[str, tuple[float, float]] = MappingProxyType(
    # (mu, sigma) per level under the ratings' default model, fitted with openskill from 6,000
    # simulated games between the levels (benchmarks/calibrate_ratings.py --games 6000 --seed 1;
    # docs/ratings.md). sigma is the fit's own uncertainty.
    {"random": (14.29, 0.89), "greedy": (31.34, 0.64), "expert": (30.93, 0.64)}
)


class FishingAI:
    """Tsung Shap for the AI layer."""

    def levels(self, game: str) -> tuple[str, ...]:
        """``random``, ``greedy``, ``expert``, ``master``."""
        return tuple(FISHING_LEVELS)

    def player(self, game: str, level: str) -> AnyPlayer:
        """A fresh player of the level (:func:`bot.ai.fishing_levels.fishing_player`)."""
        return fishing_player(level)

    def searching(self, level: str) -> bool:
        """Only the master searches."""
        return level == "master"

    def passive_action(self, state: Any, seat: int, rng: random.Random) -> Any:
        """Not here yet: bot/services/absence.py plays it (moves in step 8)."""
        raise NotImplementedError("moves in step 8 (today bot/services/absence.py)")

    def playout(self, game: str) -> PlayOut:
        """The greedy player on both seats (:func:`bot.ai.review.default_playout`)."""
        from bot.ai.review import default_playout

        return default_playout(game)

    def estimator(self, game: str) -> Estimator:
        """The compiled expert play-outs, or the greedy player's through the engine
        (:func:`bot.ai.review.default_estimator`)."""
        from bot.ai.review import default_estimator

        return default_estimator(game)

    def action_words(self, notation: str) -> Words:
        """``placing on the left``, ``capturing a pair on the left``
        (:func:`bot.ai.review.action_phrase`)."""
        from bot.ai.review import action_phrase

        return action_phrase(notation)

    def calibrated(self, game: str) -> Mapping[str, tuple[float, float]]:
        """``random``, ``greedy`` and ``expert`` (the master is not calibrated: the ratings
        let the strongest level stand in for it)."""
        return _CALIBRATED


FACET: GameAI = FishingAI()
"""Tsung Shap's AI facet (``ai_of("tsung-shap")``)."""
