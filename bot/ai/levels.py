"""The computer levels of every game: each family holds its own table and says it through its
AI facet (:func:`bot.ai.family.ai_of`: ``levels``, ``player``); :func:`levels_for` and
:func:`player_for` ask it, and :func:`all_levels` gathers every game's.
"""

from __future__ import annotations

from bot.ai.base import AnyPlayer
from bot.ai.family import ai_of
from bot.games import games

__all__ = ["RETIRED", "all_levels", "levels_for", "playable_levels", "player_for"]

RETIRED = ("random", "greedy")
"""Levels no longer offered that still play wherever a family has them: stored games and
tables name them, the simulator and the tournaments' fillers use them."""


def levels_for(game: str) -> list[str]:
    """The AI levels a game offers, weakest first (its family's table)."""
    return list(ai_of(game).levels(game))


def player_for(game: str, level: str) -> AnyPlayer:
    """A fresh player of ``level`` for ``game``; ValueError naming the levels if unknown."""
    return ai_of(game).player(game, level)


def playable_levels(game: str) -> list[str]:
    """The levels ``game`` offers (weakest first), then the retired ones it still plays."""
    offered = levels_for(game)
    return offered + [level for level in RETIRED if level not in offered and _plays(game, level)]


def _plays(game: str, level: str) -> bool:
    try:
        player_for(game, level)
    except ValueError:
        return False
    return True


def all_levels() -> list[str]:
    """Every level some game offers, sorted by name (a game-blind list of choices)."""
    return sorted({level for info in games() for level in levels_for(info.name)})
