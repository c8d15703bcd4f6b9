"""The ladder's levels below the expert: the expert's judgement with a rate of beginner's moves.

A first-game beginner is not a random player: he takes a discard when it makes ten with a tile
he holds (an "obvious ten-pair"), and he declares most of his wins. What he cannot do yet is
judge: which tile to let go of, which to keep, what the others may be waiting on. So each level
of the ladder (:data:`BLUNDERS`, its chance per game) makes each real decision, with a fixed
chance, as the beginner would:

* **take or draw**: the beginner takes a discard that makes ten with a tile he holds, or wins
  (one at random if several), else draws; the expert's reasons (the pool's outs, sideways
  takes, the risk of the discard) are ignored;
* **discard**: the beginner lets go of a tile at random (never the one just taken), and with a
  complete hand he may not see the win (:data:`MISSED_WIN`): an eye and ten-pairs take practice
  to see;

and otherwise plays the expert's move (:mod:`bot.games.collecting.ai.expert`), which always
declares. The **novice**, below the beginner, is a player in his very first game: he plays every
decision as the beginner but sees only half the discards that make ten with a tile he holds
(:data:`NOVICE_SEES_TEN`) and misses more of his wins (:data:`NOVICE_MISSED_WIN`). The chance
is drawn from the game's random stream at every decision (the ``rng`` of ``choose``), so a game
replays exactly from its seed, and the fast simulator
(:mod:`bot.games.collecting.sim.fast`) plays these levels through the same two functions. The
ratings each rate buys are measured by ``benchmarks/calibrate_ratings.py`` (docs/ratings.md).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.engine import KINDS, RuleSet
from bot.games.collecting.ai.core import (
    DECLARE,
    DRAW,
    FIELD_BITS,
    FIELD_MASK,
    KIND_COUNT,
    WILD,
    evaluator_for,
)
from bot.games.collecting.ai.expert import expert_discard, expert_take
from bot.games.collecting.ai.greedy import forced_take
from bot.games.collecting.ai.knowledge import Seen, read_view
from bot.games.collecting.engine.actions import Action, Declare, Discard, Take
from bot.games.collecting.engine.machine import Phase, View
from bot.games.dominoes.engine.actions import Draw

__all__ = [
    "BLUNDERS",
    "LADDER",
    "OFFERED",
    "LadderPlayer",
    "blunder_rate",
    "ladder_discard",
    "ladder_take",
]

LADDER: tuple[str, ...] = ("novice", "beginner", "casual", "club", "strong")
"""The ladder's levels below the expert, weakest first."""
# The novice misses what a newcomer misses; in Kap Shap that puts him about 100 points below
# the random player (who always declares), in Kap Tai Shap he is no weaker than it.

BLUNDERS: dict[str, dict[str, float]] = {
    "kap-shap": {"novice": 1.0, "beginner": 1.0, "casual": 0.83, "club": 0.6, "strong": 0.35},
    "kap-tai-shap": {
        "novice": 1.0,
        "beginner": 1.0,
        "casual": 0.6,
        "club": 0.35,
        "strong": 0.15,
    },
}
"""Per game, each ladder level's chance of playing a decision as a beginner (the expert is the
rung above, with none), chosen so that the levels a game offers (:data:`OFFERED`) are at least
100 rating points apart (``benchmarks/calibrate_ratings.py``, docs/ratings.md)."""

OFFERED: dict[str, tuple[str, ...]] = {
    "kap-shap": LADDER,
    # Three seats or more, and only the winner counts (the others tie): luck weighs more and a
    # game tells the ratings less, so the whole ladder spans under 300 rating points, room for
    # two rungs 100 apart below the expert, not four; and the novice is no weaker than the
    # random player or the beginner there (docs/ratings.md).
    "kap-tai-shap": ("beginner", "club"),
}
"""The ladder's levels each game offers below the expert, weakest first; the others still play
(a stored game may name them) but are not offered."""


def blunder_rate(rules: RuleSet, level: str) -> float:
    """The chance that ``level`` plays a decision of a game under ``rules`` as a beginner."""
    rates = BLUNDERS.get(rules.game) or BLUNDERS["kap-shap"]
    return rates[level]


MISSED_WIN = 0.5
"""The chance that a beginner's decision does not see that his hand is complete: an eye and
ten-pairs are not obvious in a first game."""

NOVICE_MISSED_WIN = 0.8
"""The same chance for the novice (his first game, the rules just read)."""

NOVICE_SEES_TEN = 0.5
"""The chance that the novice sees that a discard makes ten with a tile he holds."""


def _blunders(rng: random.Random, blunder: float) -> bool:
    # A rate of 1 never asks the stream: the pure beginner consumes it only for his choices.
    return blunder >= 1.0 or rng.random() < blunder


def ladder_take(seen: Seen, rng: random.Random, level: str) -> int:
    """The kind a ladder level takes from the discards, or
    :data:`~bot.games.collecting.ai.core.DRAW`."""
    if not _blunders(rng, blunder_rate(seen.rules, level)):
        return expert_take(seen)
    ev = evaluator_for(seen.rules)
    takeable = seen.takeable
    hand = seen.hand
    if seen.can_draw:
        tens = _tens(ev.residue, hand)
        # Every discard that makes ten with a tile he holds looks good to him, whether or not
        # that tile is already part of a ten-pair; and a win he always sees.
        wanted = set(ev.info(hand)[2]) if ev.info(hand)[0] == 1 else set()
        if level == "novice":
            # He misses half the ten-pairs on the table and most of the wins.
            if rng.random() < NOVICE_MISSED_WIN:
                wanted = set()
            if rng.random() >= NOVICE_SEES_TEN:
                tens = set()
        options = [
            k
            for k in range(KIND_COUNT)
            if (takeable >> (FIELD_BITS * k)) & FIELD_MASK
            and (k in wanted or ev.residue[k] in tens)
        ]
        if not options:
            return DRAW
        return options[rng.randrange(len(options))]
    return forced_take(ev, hand, seen.unseen(), takeable)


def _tens(residue: Sequence[int], hand: int) -> set[int]:
    """The residues that make ten with a tile of ``hand`` (a wild tile with anything)."""
    held = {residue[k] for k in range(KIND_COUNT) if (hand >> (FIELD_BITS * k)) & FIELD_MASK}
    if WILD in held:
        return set(range(WILD + 1))
    out = {(10 - r) % 10 for r in held}
    return out | {WILD} if held else out


def ladder_discard(seen: Seen, rng: random.Random, level: str) -> int:
    """The kind a ladder level discards, or :data:`~bot.games.collecting.ai.core.DECLARE` when
    the hand wins."""
    hand = seen.hand
    wins = evaluator_for(seen.rules).table(hand)[0]
    if not _blunders(rng, blunder_rate(seen.rules, level)):
        return DECLARE if wins else expert_discard(seen)
    if wins and rng.random() >= (NOVICE_MISSED_WIN if level == "novice" else MISSED_WIN):
        return DECLARE
    held = [k for k in range(KIND_COUNT) if (hand >> (FIELD_BITS * k)) & FIELD_MASK]
    # The kind just taken may not go straight back out unless it is all he holds (the engine's
    # rule).
    held = [k for k in held if k != seen.just_taken] or held
    return held[rng.randrange(len(held))]


class LadderPlayer:
    """The expert, who plays each decision as a beginner with the level's chance."""

    def __init__(self, level: str) -> None:
        if level not in LADDER:
            raise ValueError(f"not a ladder level: {level!r}")
        self.level = level

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """The level's take, draw, declaration or discard."""
        if view.phase is Phase.DRAW:
            return Draw()
        seen = read_view(view, legal)
        if view.phase is Phase.TAKE_OR_DRAW:
            kind = ladder_take(seen, rng, self.level)
            return Draw() if kind == DRAW else Take(KINDS[kind])
        kind = ladder_discard(seen, rng, self.level)
        return Declare() if kind == DECLARE else Discard(KINDS[kind])
