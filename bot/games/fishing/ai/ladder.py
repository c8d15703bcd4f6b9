"""Tsung Shap's ladder levels below the expert: the expert, who now and then sees only pairs.

A first-game beginner sees a pair at once (the same tile at an end of the row) but seldom a
triplet (three tiles making a multiple of ten), and seldom the capture his opponent missed (a
claim). Where he sees nothing he lays his tile at either end. Each level of the ladder
(:data:`FISHING_BLUNDERS`, its chance per game) makes each real decision, with a fixed chance,
as the beginner would, and otherwise plays the expert's move
(:class:`~bot.games.fishing.ai.players.ExpertFishingPlayer`). A capture the beginner misses
may be claimed by his opponent, which is most of what it costs him. The chance is drawn from
the game's random stream (the ``rng`` of ``choose``), so a game replays exactly from its seed.
The ratings each rate buys are measured by ``benchmarks/calibrate_ratings.py``
(docs/ratings.md).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.games.dominoes.engine.actions import Draw
from bot.games.fishing.ai.players import ExpertFishingPlayer
from bot.games.fishing.engine import FishingPhase, FishingView
from bot.games.fishing.engine.actions import Capture, ComboKind, FishingAction, Place

__all__ = ["FISHING_BLUNDERS", "FISHING_OFFERED", "LadderFishingPlayer"]

FISHING_BLUNDERS: dict[str, float] = {
    "novice": 1.0,
    "beginner": 1.0,
    "casual": 0.64,
    "club": 0.3,
    "strong": 0.15,
}
"""Each ladder level's chance of playing a decision as a beginner, weakest first (the expert
is the rung above, with none)."""

FISHING_OFFERED: tuple[str, ...] = ("beginner", "casual")
"""The ladder's levels Tsung Shap offers below the expert. The whole ladder spans under 400
rating points here (most of a game is the luck of the tiles turned over): ``club`` measured 139
points above ``casual`` but only 83 below the expert, so it is not offered, nor ``strong``;
both still play (a stored game may name them). Nor is the ``novice`` (who misses half the pairs
he could capture): about 100 points below the beginner, but only measured against the beginner
and the random player so far (docs/ratings.md)."""


NOVICE_SEES_PAIR = 0.5
"""The chance that the novice (his first game) sees a pair he could capture."""


class LadderFishingPlayer:
    """The expert, who plays each decision as a beginner with the level's chance."""

    def __init__(self, level: str) -> None:
        self.level = level
        self.blunder = FISHING_BLUNDERS[level]
        self._expert = ExpertFishingPlayer()

    def choose(
        self, view: FishingView, legal: Sequence[FishingAction], rng: random.Random
    ) -> FishingAction:
        """The expert's action, or with the level's chance the beginner's."""
        if len(legal) == 1:
            return legal[0]
        if self.blunder < 1.0 and not rng.random() < self.blunder:
            return self._expert.choose(view, legal, rng)
        if view.phase is FishingPhase.TURN_OVER or view.turned is None:
            # The opponent's miss goes unnoticed: he turns his tile over.
            draws = [a for a in legal if isinstance(a, Draw)]
            return draws[0] if draws else legal[0]
        pairs = [a for a in legal if isinstance(a, Capture) and a.kind is ComboKind.PAIR]
        if self.level == "novice" and rng.random() >= NOVICE_SEES_PAIR:
            pairs = []  # he misses the pair: the tile goes to an end of the row
        places = [a for a in legal if isinstance(a, Place)]
        options = pairs or places or list(legal)
        return options[rng.randrange(len(options))]
