"""Computer players. Each game's levels are its family's (``bot/games/<family>/ai/``), asked
through :func:`bot.ai.family.ai_of`; :mod:`bot.ai.levels` gathers them."""

from bot.ai.base import AnyPlayer
from bot.ai.levels import all_levels, levels_for, player_for

__all__ = ["AnyPlayer", "all_levels", "levels_for", "player_for"]
