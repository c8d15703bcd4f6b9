"""Computer players. Importing this package registers every level in ``AI_LEVELS``."""

from bot.ai.base import AI_LEVELS, Player, RandomPlayer, get_player
from bot.ai.expert import ExpertPlayer
from bot.ai.greedy import GreedyPlayer
from bot.ai.master import MasterPlayer

__all__ = [
    "AI_LEVELS",
    "ExpertPlayer",
    "GreedyPlayer",
    "MasterPlayer",
    "Player",
    "RandomPlayer",
    "get_player",
]
