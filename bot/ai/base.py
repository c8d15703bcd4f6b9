"""The computer-player protocol and the registry of levels."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from bot.engine import Action, Declare, View

__all__ = ["AI_LEVELS", "Player", "RandomPlayer", "get_player", "register"]


class Player(Protocol):
    """A computer player: picks one of the legal actions from what its seat may see."""

    level: str

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """Return one element of ``legal``."""
        ...


AI_LEVELS: dict[str, Callable[[], Player]] = {}
"""Level name -> factory. Filled by the modules of this package when imported."""


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
