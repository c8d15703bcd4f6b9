"""Computer players. Importing this package registers every level in ``AI_LEVELS``."""

from bot.ai.base import AI_LEVELS, Player, RandomPlayer, get_player

__all__ = ["AI_LEVELS", "Player", "RandomPlayer", "get_player"]
