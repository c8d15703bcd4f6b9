"""What a family of games gives the AI layer (its *AI facet*), and the one accessor that fetches
it: :func:`ai_of`.

A family's facet is the ``FACET`` of the module its descriptor names for the role ``ai``
(``bot/games/<family>/ai/family.py``); that module belongs to this layer (standard library,
``bot.engine``, ``bot.ai``, numba and numpy for compiled code). Generic code (the table
service's computer seats, reviews, the simulator's options, ratings of computer seats) asks the
facet instead of telling the games apart (docs/architecture.md, "Games: one place per game").
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol, cast

from bot.games import load

if TYPE_CHECKING:
    from bot.ai.base import AnyPlayer
    from bot.ai.review import Estimator, PlayOut, Words

__all__ = ["GameAI", "ai_of"]


class GameAI(Protocol):
    """Everything a family gives the AI layer."""

    def levels(self, game: str) -> tuple[str, ...]:
        """The levels the game offers, weakest first (``bot.ai.base.LEVEL_WORDS`` words each
        for players, ``bot.locale.levels`` names it)."""
        ...

    def player(self, game: str, level: str) -> AnyPlayer:
        """A fresh computer player of ``level``; ValueError naming the levels if unknown."""
        ...

    def searching(self, level: str) -> bool:
        """Whether the level decides by search (play-outs), so that its decisions run off the
        event loop (``master``)."""
        ...

    def passive_action(self, state: Any, seat: int, rng: random.Random) -> Any:
        """The move of a seat whose time ran out: never a win, a take, a capture or a claim
        (draw, then the least useful discard or placement)."""
        ...

    def playout(self, game: str) -> PlayOut:
        """The play-out reviews use through the engine: every seat at one level."""
        ...

    def estimator(self, game: str) -> Estimator:
        """The estimator reviews and analyses use: the compiled one where numba is here."""
        ...

    def action_words(self, notation: str) -> Words:
        """An action in the game's notation as a gerund phrase for a review's sentences
        (``taking 6-4``, ``capturing a pair on the left``)."""
        ...

    def calibrated(self, game: str) -> Mapping[str, tuple[float, float]]:
        """The (mu, sigma) of each level's fixed rating in the game (ratings of computer
        seats, fitted by benchmarks/calibrate_ratings.py)."""
        ...


def ai_of(game: str) -> GameAI:
    """The AI facet of a game's family (UnknownGame for a name no family registered)."""
    facet = load(game, "ai")
    if facet is None:  # pragma: no cover - the registry refuses a family without an AI
        raise LookupError(f"the game '{game}' has no computer players")
    return cast(GameAI, facet)
