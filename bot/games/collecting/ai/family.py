"""The AI facet of the collecting games: their players (:mod:`.levels`; :mod:`.greedy`,
:mod:`.expert`, :mod:`.master` on :mod:`.core`, :mod:`.knowledge` and :mod:`.kernel`), the
passive move of an absent seat (:mod:`.absence`) and their part of reviews (:mod:`.review`)
behind :class:`bot.ai.family.GameAI`; the levels' calibrated ratings are here
(:data:`_CALIBRATED`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from bot.ai.base import AnyPlayer
from bot.ai.estimates import Estimator, PlayOut, expert_playout, python_estimator
from bot.ai.family import GameAI
from bot.ai.review_words import Words, action_phrase
from bot.games.collecting.ai import absence, hint, puzzles, review
from bot.games.collecting.ai.core import BOT_MEMO, set_memo_limits
from bot.games.collecting.ai.levels import ai_ladder, get_player
from bot.games.collecting.ai.master import MasterPlayer
from bot.games.collecting.ai.review import kernel_estimator
from bot.games.dominoes.engine.actions import Draw

__all__ = ["FACET", "CollectingAI"]


_CALIBRATED: Mapping[str, Mapping[str, tuple[float, float]]] = MappingProxyType(
    {
        # (mu, sigma) per level under the ratings' default model: where the bot's own rating
        # update balances over simulated games between the levels per game (docs/ratings.md).
        # sigma is the fit's standard error. random and greedy are no longer offered but rate
        # old games. Kap Shap: the mean of three runs of 24,000 games with every level, the
        # novice included (benchmarks/calibrate_ratings.py --only kap-shap --games 24000
        # --also kap-shap=novice --seed 1, 2 and 3), sigma the larger of the runs' spread and
        # their own errors; Kap Tai Shap: one run of 8,000 games (--games 8000 --seed 1).
        "kap-shap": MappingProxyType(
            {
                "novice": (9.74, 0.24),
                "random": (15.21, 0.18),
                "greedy": (35.57, 0.15),
                "beginner": (17.49, 0.12),
                "casual": (22.89, 0.22),
                "club": (27.86, 0.09),
                "strong": (33.03, 0.12),
                "expert": (38.20, 0.20),
            }
        ),
        "kap-tai-shap": MappingProxyType(
            {
                "random": (19.50, 0.04),
                "greedy": (29.38, 0.19),
                "beginner": (19.59, 0.07),
                "club": (25.33, 0.12),
                "expert": (31.20, 0.09),
            }
        ),
    }
)


class CollectingAI:
    """Kap Shap and Kap Tai Shap for the AI layer."""

    def levels(self, game: str) -> tuple[str, ...]:
        """The game's ladder, ``beginner`` to ``master``
        (:func:`bot.games.collecting.ai.levels.ai_ladder`)."""
        return ai_ladder(game)

    def player(self, game: str, level: str) -> AnyPlayer:
        """A fresh player of the level (:func:`bot.ai.levels.get_player`)."""
        return get_player(level)

    def searching(self, level: str) -> bool:
        """Only the master searches."""
        return level == "master"

    def passive_action(self, state: Any, seat: int, rng: random.Random) -> Any:
        """Draw, else the greedy player's discard; never a take or a declaration
        (:func:`bot.games.collecting.ai.absence.passive_action`)."""
        return absence.passive_action(state, seat, rng)

    def playout(self, game: str) -> PlayOut:
        """The expert on every seat (:data:`bot.ai.estimates.expert_playout`)."""
        return expert_playout

    def estimator(self, game: str) -> Estimator:
        """The master's compiled play-outs (:func:`~bot.games.collecting.ai.review.
        kernel_estimator`), or the expert's through the engine."""
        return kernel_estimator if review.compiled() else python_estimator(game)

    def action_words(self, notation: str) -> Words:
        """``drawing``, ``taking 6-4``, ``discarding 3-1`` (:func:`bot.ai.review.action_phrase`)."""
        return action_phrase(notation)

    def calibrated(self, game: str) -> Mapping[str, tuple[float, float]]:
        """Every level each game offers but the master, and ``random`` and ``greedy`` (the
        master is not calibrated: the ratings let the strongest level stand in for it)."""
        return _CALIBRATED[game]

    def bound_memos(self) -> None:
        """The evaluators' memos at the bot's limits
        (:data:`~bot.games.collecting.ai.core.BOT_MEMO`)."""
        set_memo_limits(BOT_MEMO)

    def warm_player(self, game: str, budget: int) -> AnyPlayer | None:
        """The master with ``budget`` play-outs (Kap Tai Shap runs Kap Shap's kernel)."""
        return MasterPlayer(budget)

    def compiled(self, game: str) -> bool:
        """Whether the master's kernel runs here."""
        return review.compiled()

    def rollouts(self, rules: Any) -> int:
        """12,000, less beyond six seats (:func:`bot.games.collecting.ai.review.rollouts`)."""
        return review.rollouts(rules)

    def choices(self, state: Any, seat: int, legal: Sequence[Any]) -> list[list[Any]]:
        """Every legal action is a choice of its own."""
        return [[action] for action in legal]

    def draws_unseen(self, action: Any) -> bool:
        """A draw from the wall."""
        return isinstance(action, Draw)

    def reason(
        self,
        state: Any,
        seat: int,
        played: Any,
        best: Any,
        after: Sequence[tuple[int, str]],
    ) -> Words:
        """The hand's distance from a win, its outs, the discards, the risk
        (:func:`bot.games.collecting.ai.review.reason`)."""
        return review.reason(state, seat, played, best, after)

    def hint(self, view: Any, legal: Sequence[Any]) -> tuple[Any, Words]:
        """The expert's move and why: the eye and ten-pairs the hand keeps, the tiles it
        waits on (:func:`bot.games.collecting.ai.hint.hint`)."""
        return hint.hint(view, legal)

    def words_context(self, game: str) -> str | None:
        """None: the collecting games' words are the common ones."""
        return None

    def position_words(self, view: Any) -> list[Words]:
        """Its hand, the discards and the wall
        (:func:`bot.games.collecting.ai.review.position_words`)."""
        return review.position_words(view)

    def puzzle_kinds(self, game: str) -> Mapping[str, str]:
        """The game's puzzles and their questions
        (:data:`bot.games.collecting.ai.puzzles.KINDS`)."""
        return puzzles.KINDS

    def puzzle_kind(self, state: Any, seat: int, legal: Sequence[Any]) -> str | None:
        """The kind of puzzle the decision is (:func:`bot.games.collecting.ai.puzzles.kind`)."""
        return puzzles.kind(state, seat, legal)


FACET: GameAI = CollectingAI()
"""The collecting games' AI facet (``ai_of("kap-shap")``)."""
