"""Computer players. The levels of every game are the tables of :mod:`bot.ai.levels`."""

from bot.ai.base import Player, RandomPlayer
from bot.ai.expert import ExpertPlayer
from bot.ai.greedy import GreedyPlayer
from bot.ai.levels import AI_LEVELS, get_player
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
