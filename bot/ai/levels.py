"""The computer levels: which player each level name makes, per game.

The tables are written out here rather than filled by the players' modules as they are
imported, so that no player's module imports this one (no import circle) and a table holds
every level whatever was imported first. A new level is a class in its own module and a line
here (and in :data:`bot.ai.base.LEVEL_WORDS`).
"""

from __future__ import annotations

from collections.abc import Callable

from bot.ai.base import AnyPlayer, Player, RandomPlayer
from bot.ai.expert import ExpertPlayer
from bot.ai.greedy import GreedyPlayer
from bot.ai.master import MasterPlayer
from bot.engine import Game

__all__ = ["AI_LEVELS", "get_player", "levels_for", "player_for"]

AI_LEVELS: dict[str, Callable[[], Player]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "expert": ExpertPlayer,
    "master": MasterPlayer,
}
"""Level name -> factory, for the collecting games (Kap Shap, Kap Tai Shap), weakest first.
Tsung Shap's is :data:`bot.ai.fishing_levels.FISHING_LEVELS`."""

_ORDER = {"random": 0, "greedy": 1, "expert": 2, "master": 3}


def get_player(level: str) -> Player:
    """A fresh collecting-game player of the given level; raises ValueError naming the known
    levels."""
    try:
        return AI_LEVELS[level]()
    except KeyError:
        known = ", ".join(sorted(AI_LEVELS))
        raise ValueError(f"unknown AI level '{level}': choose one of {known}") from None


def levels_for(game: Game | str) -> list[str]:
    """The AI levels a game offers, weakest first."""
    if Game(game) is Game.TSUNG_SHAP:
        # Imported on first use: the collecting games' callers never load Tsung Shap's players.
        from bot.ai.fishing_levels import FISHING_LEVELS

        return list(FISHING_LEVELS)
    return sorted(AI_LEVELS, key=lambda level: (_ORDER.get(level, 9), level))


def player_for(game: Game | str, level: str) -> AnyPlayer:
    """A fresh player of ``level`` for ``game``; ValueError naming the levels if unknown."""
    if Game(game) is Game.TSUNG_SHAP:
        from bot.ai.fishing_levels import fishing_player

        return fishing_player(level)
    return get_player(level)
