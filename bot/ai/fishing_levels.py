"""The computer levels of Tsung Shap: which player each level name makes.

Apart from :mod:`bot.ai.fishing` because the ``master`` (:mod:`bot.ai.fishing_master`) builds
on that module's players: the table imports both, and neither imports the table.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.ai.fishing import (
    ExpertFishingPlayer,
    FishingPlayer,
    GreedyFishingPlayer,
    RandomFishingPlayer,
)
from bot.ai.fishing_master import MasterFishingPlayer

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
