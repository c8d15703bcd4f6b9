"""The computer-player protocol and the registry of levels."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from bot.engine import Action, Declare, Game, View

__all__ = [
    "AI_LEVELS",
    "LEVEL_WORDS",
    "AnyPlayer",
    "Player",
    "RandomPlayer",
    "get_player",
    "levels_for",
    "player_for",
    "register",
]


class Player(Protocol):
    """A computer player: picks one of the legal actions from what its seat may see."""

    level: str

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """Return one element of ``legal``."""
        ...


AI_LEVELS: dict[str, Callable[[], Player]] = {}
"""Level name -> factory. Filled by the modules of this package when imported."""

LEVEL_WORDS: dict[str, str] = {
    "random": "easiest: plays any legal move",
    "greedy": "steady: always plays the move that brings its hand (or score) closest",
    "expert": "strong: also counts the discards and the tiles still unseen",
    "master": "strongest: plays each move out many times before choosing (slower)",
}
"""What each level means, for players choosing an opponent (≤ 80 characters each). A new level
adds its line here; one without a line is shown by its name alone. Members read a level by its
name (bot.locale.levels.LEVEL_NAMES: the AI layer may not import the catalogue), never by its
code."""


def register(level: str) -> Callable[[Callable[[], Player]], Callable[[], Player]]:
    """Class decorator adding a player factory to :data:`AI_LEVELS`."""

    def wrap(factory: Callable[[], Player]) -> Callable[[], Player]:
        AI_LEVELS[level] = factory
        return factory

    return wrap


def get_player(level: str) -> Player:
    """A fresh player of the given level; raises ValueError naming the known levels."""
    import bot.ai  # noqa: F401  (importing the package registers every level)

    try:
        return AI_LEVELS[level]()
    except KeyError:
        known = ", ".join(sorted(AI_LEVELS))
        raise ValueError(f"unknown AI level '{level}': choose one of {known}") from None


@register("random")
class RandomPlayer:
    """Declares a win when it can, otherwise plays a uniformly random legal action."""

    level = "random"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """Declare if possible, else a random legal action."""
        if Declare() in legal:
            return Declare()
        return legal[rng.randrange(len(legal))]


class AnyPlayer(Protocol):
    """A computer player of any game: ``choose`` takes that game's view and legal actions."""

    level: str

    def choose(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        """Return one element of ``legal``."""
        ...


def levels_for(game: Game | str) -> list[str]:
    """The AI levels a game offers, weakest first."""
    if Game(game) is Game.TSUNG_SHAP:
        from bot.ai.fishing import FISHING_LEVELS

        return list(FISHING_LEVELS)
    import bot.ai  # noqa: F401  (importing the package registers every level)

    order = {"random": 0, "greedy": 1, "expert": 2, "master": 3}
    return sorted(AI_LEVELS, key=lambda level: (order.get(level, 9), level))


def player_for(game: Game | str, level: str) -> AnyPlayer:
    """A fresh player of ``level`` for ``game``; ValueError naming the levels if unknown."""
    if Game(game) is Game.TSUNG_SHAP:
        from bot.ai.fishing import fishing_player

        return fishing_player(level)
    return get_player(level)
