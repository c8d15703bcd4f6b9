"""The computer levels of Tsung Shap: which player each level name makes.

Apart from :mod:`bot.games.fishing.ai.players` because the ``master``
(:mod:`bot.games.fishing.ai.master`) and the ladder's levels (:mod:`bot.games.fishing.ai.ladder`)
build on that module's players: the table imports them, and none imports the table.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from bot.games.fishing.ai.ladder import FISHING_BLUNDERS, FISHING_OFFERED, LadderFishingPlayer
from bot.games.fishing.ai.master import MasterFishingPlayer
from bot.games.fishing.ai.players import (
    ExpertFishingPlayer,
    FishingPlayer,
    GreedyFishingPlayer,
    RandomFishingPlayer,
)

__all__ = ["FISHING_LADDER", "FISHING_LEVELS", "fishing_player"]

FISHING_LEVELS: dict[str, Callable[[], FishingPlayer]] = {
    "random": RandomFishingPlayer,
    "greedy": GreedyFishingPlayer,
    **{level: partial(LadderFishingPlayer, level) for level in FISHING_BLUNDERS},
    "expert": ExpertFishingPlayer,
    "master": MasterFishingPlayer,
}
"""Level name -> factory, for Tsung Shap: every level a stored game or table may name."""

FISHING_LADDER: tuple[str, ...] = (*FISHING_OFFERED, "expert", "master")
"""The levels Tsung Shap offers, weakest first. ``random`` and ``greedy`` are no longer offered
(the first is no beginner, the second no stronger than the expert here) but still play the
games and tables that name them."""


def fishing_player(level: str) -> FishingPlayer:
    """A fresh Tsung Shap player of the given level; raises ValueError naming the levels."""
    try:
        return FISHING_LEVELS[level]()
    except KeyError:
        known = ", ".join(FISHING_LEVELS)
        raise ValueError(f"unknown Tsung Shap AI level '{level}': choose one of {known}") from None
