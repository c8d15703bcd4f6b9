"""The computer levels of Tsung Shap: which player each level name makes.

Apart from :mod:`bot.games.fishing.ai.players` because the ``master``
(:mod:`bot.games.fishing.ai.master`) builds
on that module's players: the table imports both, and neither imports the table.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.games.fishing.ai.master import MasterFishingPlayer
from bot.games.fishing.ai.players import (
    ExpertFishingPlayer,
    FishingPlayer,
    GreedyFishingPlayer,
    RandomFishingPlayer,
)

__all__ = ["FISHING_LEVELS", "fishing_player"]

FISHING_LEVELS: dict[str, Callable[[], FishingPlayer]] = {
    "random": RandomFishingPlayer,
    "greedy": GreedyFishingPlayer,
    "expert": ExpertFishingPlayer,
    "master": MasterFishingPlayer,
}
"""Level name -> factory, for Tsung Shap, weakest first."""


def fishing_player(level: str) -> FishingPlayer:
    """A fresh Tsung Shap player of the given level; raises ValueError naming the levels."""
    try:
        return FISHING_LEVELS[level]()
    except KeyError:
        known = ", ".join(FISHING_LEVELS)
        raise ValueError(f"unknown Tsung Shap AI level '{level}': choose one of {known}") from None
