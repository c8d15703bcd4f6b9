"""The collecting games' computer levels: which player each level name makes.

The table is written out here (:data:`AI_LEVELS`) rather than filled by the players' modules as
they are imported, so that no player's module imports this one (no import circle) and the table
holds every level whatever was imported first. A new level is a class in its own module and a
line here (and in :data:`bot.ai.base.LEVEL_WORDS`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from bot.games.collecting.ai.base import Player, RandomPlayer
from bot.games.collecting.ai.expert import ExpertPlayer
from bot.games.collecting.ai.greedy import GreedyPlayer
from bot.games.collecting.ai.ladder import LADDER, OFFERED, LadderPlayer
from bot.games.collecting.ai.master import MasterPlayer

__all__ = ["AI_LEVELS", "ai_ladder", "get_player"]

AI_LEVELS: dict[str, Callable[[], Player]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    **{level: partial(LadderPlayer, level) for level in LADDER},
    "expert": ExpertPlayer,
    "master": MasterPlayer,
}
"""Level name -> factory, for the collecting games (Kap Shap, Kap Tai Shap): every level a
stored game or table may name. Tsung Shap's is
:data:`bot.games.fishing.ai.levels.FISHING_LEVELS`."""


def ai_ladder(game: str) -> tuple[str, ...]:
    """The levels ``game`` offers, weakest first: its rungs of the ladder
    (:data:`~bot.games.collecting.ai.ladder.OFFERED`), the expert and the master. ``random`` and
    ``greedy`` are no longer offered (the first is no beginner, the second too close to the
    expert) but still play the games and tables that name them."""
    return (*OFFERED.get(game, LADDER), "expert", "master")


def get_player(level: str) -> Player:
    """A fresh collecting-game player of the given level; raises ValueError naming the levels."""
    try:
        return AI_LEVELS[level]()
    except KeyError:
        known = ", ".join(AI_LEVELS)
        raise ValueError(f"unknown AI level '{level}': choose one of {known}") from None
