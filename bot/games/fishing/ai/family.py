"""The AI facet of Tsung Shap: its players (:mod:`.levels`, :mod:`.players`, :mod:`.master`,
:mod:`.kernel`), the passive move of an absent seat (:mod:`.absence`) and its part of reviews
(:mod:`.review`) behind :class:`bot.ai.family.GameAI`; the levels' calibrated ratings are here
(:data:`_CALIBRATED`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from bot.ai.base import AnyPlayer
from bot.ai.estimates import Estimator, PlayOut, greedy_playout, python_estimator
from bot.ai.family import GameAI
from bot.ai.review_words import Words
from bot.games.dominoes.engine.actions import Draw
from bot.games.fishing.ai import absence, hint, puzzles, review
from bot.games.fishing.ai.levels import FISHING_LADDER, fishing_player
from bot.games.fishing.ai.master import MasterFishingPlayer
from bot.games.fishing.ai.review import fishing_estimator

__all__ = ["FACET", "FishingAI"]

WORDS_CONTEXT = "tsung shap"
"""The catalogue context of Tsung Shap's own words (its draw turns a tile over: 翻牌)."""


_CALIBRATED: Mapping[str, tuple[float, float]] = MappingProxyType(
    # (mu, sigma) per level under the ratings' default model: where the bot's own rating update
    # balances over 3,000 simulated games between the levels (benchmarks/calibrate_ratings.py
    # --only tsung-shap --tsung-games 3000 --seed 1 --also tsung-shap=club; docs/ratings.md).
    # sigma is the fit's standard error. random and greedy are no longer offered but rate old
    # games; club played in the pool but is not offered (83 points below the expert).
    {
        "random": (17.63, 0.34),
        "greedy": (31.37, 0.40),
        "beginner": (17.28, 0.46),
        "casual": (23.09, 0.26),
        "expert": (31.97, 0.30),
    }
)


class FishingAI:
    """Tsung Shap for the AI layer."""

    def levels(self, game: str) -> tuple[str, ...]:
        """The ladder, ``beginner`` to ``master``
        (:data:`bot.games.fishing.ai.levels.FISHING_LADDER`)."""
        return FISHING_LADDER

    def player(self, game: str, level: str) -> AnyPlayer:
        """A fresh player of the level (:func:`bot.games.fishing.ai.levels.fishing_player`)."""
        return fishing_player(level)

    def searching(self, level: str) -> bool:
        """Only the master searches."""
        return level == "master"

    def passive_action(self, state: Any, seat: int, rng: random.Random) -> Any:
        """Turn over, then place at either end by lot; never a capture or a claim
        (:func:`bot.games.fishing.ai.absence.passive_action`)."""
        return absence.passive_action(state, seat, rng)

    def playout(self, game: str) -> PlayOut:
        """The greedy player on both seats (:data:`bot.ai.estimates.greedy_playout`): the
        Python expert searches the end of the game exactly and costs ten times more."""
        return greedy_playout

    def estimator(self, game: str) -> Estimator:
        """The compiled expert play-outs (:func:`~bot.games.fishing.ai.review.
        fishing_estimator`), or the greedy player's through the engine."""
        return fishing_estimator if review.compiled() else python_estimator(game)

    def action_words(self, notation: str) -> Words:
        """``turning over your tile``, ``placing on the left``, ``capturing a pair on the
        left`` (:func:`bot.games.fishing.ai.review.phrase`)."""
        return review.phrase(notation)

    def calibrated(self, game: str) -> Mapping[str, tuple[float, float]]:
        """Every level Tsung Shap offers but the master, and ``random`` and ``greedy`` (the
        master is not calibrated: the ratings let the strongest level stand in for it)."""
        return _CALIBRATED

    def bound_memos(self) -> None:
        """Nothing to bound: Tsung Shap's players keep no memo tables."""

    def warm_player(self, game: str, budget: int) -> AnyPlayer | None:
        """The master with ``budget`` play-outs (:mod:`bot.games.fishing.ai.kernel`)."""
        return MasterFishingPlayer(budget)

    def compiled(self, game: str) -> bool:
        """Whether the fishing kernel runs here."""
        return review.compiled()

    def rollouts(self, rules: Any) -> int:
        """4,000 (:data:`bot.games.fishing.ai.review.ROLLOUTS`)."""
        return review.ROLLOUTS

    def choices(self, state: Any, seat: int, legal: Sequence[Any]) -> list[list[Any]]:
        """Moves leaving mirror-image rows are one choice
        (:func:`bot.games.fishing.ai.review.choices`)."""
        return review.choices(state, seat, legal)

    def draws_unseen(self, action: Any) -> bool:
        """Turning over the next tile of one's pile."""
        return isinstance(action, Draw)

    def reason(
        self,
        state: Any,
        seat: int,
        played: Any,
        best: Any,
        after: Sequence[tuple[int, str]],
    ) -> Words:
        """Captures and claims missed or smaller, what the row leaves the opponent
        (:func:`bot.games.fishing.ai.review.reason`)."""
        return review.reason(state, seat, played, best)

    def hint(self, view: Any, legal: Sequence[Any]) -> tuple[Any, Words]:
        """The expert's move and why: the points it captures or claims, what a placed tile
        leaves the opponent (:func:`bot.games.fishing.ai.hint.hint`)."""
        return hint.hint(view, legal)

    def words_context(self, game: str) -> str | None:
        """``tsung shap``: its draw turns a tile over (翻牌)."""
        return WORDS_CONTEXT

    def position_words(self, view: Any) -> list[Words]:
        """The row, the tile turned over, the scores and the piles
        (:func:`bot.games.fishing.ai.review.position_words`)."""
        return review.position_words(view)

    def puzzle_kinds(self, game: str) -> Mapping[str, str]:
        """The game's puzzles and their questions (:data:`bot.games.fishing.ai.puzzles.KINDS`)."""
        return puzzles.KINDS

    def puzzle_kind(self, state: Any, seat: int, legal: Sequence[Any]) -> str | None:
        """The kind of puzzle the decision is (:func:`bot.games.fishing.ai.puzzles.kind`)."""
        return puzzles.kind(state, seat, legal)


FACET: GameAI = FishingAI()
"""Tsung Shap's AI facet (``ai_of("tsung-shap")``)."""
