"""The computer-player protocol of any game and the words of the levels. Which player a level
name makes is the game's family's (:mod:`bot.ai.levels` asks it)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

__all__ = ["LEVEL_WORDS", "AnyPlayer"]


LEVEL_WORDS: dict[str, str] = {
    "random": "easiest: plays any legal move",
    "greedy": "steady: always plays the move that brings its hand (or score) closest",
    "novice": "a first game: often misses his own win and the tiles he could take",
    "beginner": "first games: sees the obvious moves, misjudges most others",
    "casual": "knows the game, still misjudges many choices",
    "club": "plays sensibly, misjudges now and then",
    "strong": "the expert's play with an occasional slip",
    "expert": "never slips: counts the tiles played and those still unseen",
    "master": "strongest: plays each move out many times before choosing (slower)",
}
"""What each level means, for players choosing an opponent (≤ 80 characters each). A new level
adds its line here; one without a line is shown by its name alone. Members read a level by its
name (bot.locale.levels.LEVEL_NAMES: the AI layer may not import the catalogue), never by its
code."""


class AnyPlayer(Protocol):
    """A computer player of any game: ``choose`` takes that game's view and legal actions."""

    level: str

    def choose(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        """Return one element of ``legal``."""
        ...
