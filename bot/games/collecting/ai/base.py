"""The collecting games' computer-player protocol and their random player."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from bot.games.collecting.engine.actions import Action, Declare
from bot.games.collecting.engine.machine import View

__all__ = ["Player", "RandomPlayer"]


class Player(Protocol):
    """A computer player: picks one of the legal actions from what its seat may see."""

    level: str

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """Return one element of ``legal``."""
        ...


class RandomPlayer:
    """Declares a win when it can, otherwise plays a uniformly random legal action."""

    level = "random"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """Declare if possible, else a random legal action."""
        if Declare() in legal:
            return Declare()
        return legal[rng.randrange(len(legal))]
