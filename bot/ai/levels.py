"""The computer levels: which player each level name makes, per game.

Each family holds its own table and says it through its AI facet (:func:`bot.ai.family.ai_of`:
``levels``, ``player``); :func:`levels_for` and :func:`player_for` ask it. The collecting
games' table is written out here (:data:`AI_LEVELS`) rather than filled by the players'
modules as they are imported, so that no player's module imports this one (no import circle)
and the table holds every level whatever was imported first. A new level is a class in its own
module and a line in its game's table (and in :data:`bot.ai.base.LEVEL_WORDS`).
"""

from __future__ import annotations

from collections.abc import Callable

from bot.ai.base import AnyPlayer, Player, RandomPlayer
from bot.ai.expert import ExpertPlayer
from bot.ai.family import ai_of
from bot.ai.greedy import GreedyPlayer
from bot.ai.master import MasterPlayer

__all__ = ["AI_LEVELS", "get_player", "levels_for", "player_for"]

AI_LEVELS: dict[str, Callable[[], Player]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "expert": ExpertPlayer,
    "master": MasterPlayer,
}
"""Level name -> factory, for the collecting games (Kap Shap, Kap Tai Shap), weakest first.
Tsung Shap's is :data:`bot.ai.fishing_levels.FISHING_LEVELS`."""


def get_player(level: str) -> Player:
    """A fresh collecting-game player of the given level; raises ValueError naming the known
    levels."""
    try:
        return AI_LEVELS[level]()
    except KeyError:
        known = ", ".join(sorted(AI_LEVELS))
        raise ValueError(f"unknown AI level '{level}': choose one of {known}") from None


def levels_for(game: str) -> list[str]:
    """The AI levels a game offers, weakest first (its family's table)."""
    return list(ai_of(game).levels(game))


def player_for(game: str, level: str) -> AnyPlayer:
    """A fresh player of ``level`` for ``game``; ValueError naming the levels if unknown."""
    return ai_of(game).player(game, level)
