"""The computer-player protocol, the random player and the words of the levels.

Which player a level name makes is :mod:`bot.ai.levels`'s (a table that imports the players; no
player imports it)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from bot.engine import Action, Declare, View

__all__ = ["LEVEL_WORDS", "AnyPlayer", "Player", "RandomPlayer"]


class Player(Protocol):
    """A computer player: picks one of the legal actions from what its seat may see."""

    level: str

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """Return one element of ``legal``."""
        ...


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
