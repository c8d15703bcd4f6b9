"""Playing one Tsung Shap game for the simulator, through the public engine API.

Tsung Shap (RULES.md §3) is a fishing game with scores, so what the simulator keeps of a game
differs from the collecting games' :class:`~bot.sim.record.GameRecord`: a
:class:`FishingRecord` holds both scores, the winner, and counts of the captures, misses and
claims. The game is played only through :func:`bot.engine.new_game`,
:func:`~bot.engine.legal_actions`, :func:`~bot.engine.apply` and :func:`~bot.engine.view`, with
computer players from :func:`bot.ai.levels.player_for`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from bot.ai.levels import player_for
from bot.engine import Deal, Game, RulesError, RuleSet, apply, legal_actions, new_game, view
from bot.games.fishing.engine import Captured, Claimed, FishingState, MissedCapture
from bot.games.fishing.engine.actions import ComboKind

__all__ = ["CAPTURE_TYPES", "FishingRecord", "play_fishing"]

CAPTURE_TYPES = ("pair", "triplet", "sweep")
"""How captures are counted: a sweep is a triplet that empties a 2-tile row (not counted as a
triplet too)."""


@dataclass(frozen=True, slots=True)
class FishingRecord:
    """The outcome of one simulated Tsung Shap game.

    ``scores`` and ``points`` are by table seat (the seat list of the game); ``first_seat`` is
    the seat that turned over first, so ``scores[first_seat]`` is the first player's score.
    ``points`` adds up what each seat's captures and claims scored, event by event: it always
    equals ``scores`` (kept as a check of the engine). ``pairs``, ``triplets`` and ``sweeps``
    count captures made with a turned tile (both seats together); ``missed`` counts placements
    that let a capture go (one per placement, however many combinations it missed);
    ``claimed`` counts claims, and ``claimed_sweeps`` the claims of a missed sweep. ``turns``
    is the number of the last turn played (1-based).
    """

    first_seat: int
    scores: tuple[int, int]
    winner: int | None
    pairs: int
    triplets: int
    sweeps: int
    missed: int
    claimed: int
    claimed_sweeps: int
    turns: int
    points: tuple[int, int]

    @property
    def relative_scores(self) -> tuple[int, int]:
        """The scores counted from the first player: (first player, second player)."""
        first = self.first_seat
        return self.scores[first], self.scores[1 - first]

    @property
    def relative_winner(self) -> int | None:
        """0 if the first player won, 1 if the second did, None for a draw."""
        if self.winner is None:
            return None
        return 0 if self.winner == self.first_seat else 1

    @property
    def difference(self) -> int:
        """The first player's score minus the second player's."""
        first, second = self.relative_scores
        return first - second


def play_fishing(
    rules: RuleSet, deal: Deal, levels: Sequence[str], rng: random.Random
) -> FishingRecord:
    """Play a whole Tsung Shap game with one AI level per table seat; ``rng`` drives the AIs.

    Raises :class:`~bot.engine.RulesError` if ``rules`` is not Tsung Shap and ValueError for
    an unknown level.
    """
    if rules.game is not Game.TSUNG_SHAP:
        raise RulesError(f"play_fishing plays Tsung Shap, not {rules.game}")
    if len(levels) != rules.players:
        raise ValueError(f"{len(levels)} AI levels given for {rules.players} seats")
    players = [player_for(Game.TSUNG_SHAP, level) for level in levels]
    state: FishingState = new_game(rules, [f"seat {i}" for i in range(rules.players)], deal)
    counts = dict.fromkeys(CAPTURE_TYPES, 0)
    missed = claimed = claimed_sweeps = 0
    points = [0, 0]
    while state.result is None:
        seat = state.current
        action = players[seat].choose(view(state, seat), legal_actions(state), rng)
        state, events = apply(state, action)
        for event in events:
            if isinstance(event, Captured):
                what = "sweep" if event.sweep else str(event.kind)
                counts[what] += 1
                points[event.seat] += event.score
            elif isinstance(event, Claimed):
                claimed += 1
                claimed_sweeps += event.combination.sweep
                points[event.seat] += event.combination.score
            elif isinstance(event, MissedCapture):
                missed += 1
    result = state.result
    scores = (result.scores[0], result.scores[1])
    return FishingRecord(
        first_seat=deal.first_seat,
        scores=scores,
        winner=result.winner,
        pairs=counts[str(ComboKind.PAIR)],
        triplets=counts[str(ComboKind.TRIPLET)],
        sweeps=counts["sweep"],
        missed=missed,
        claimed=claimed,
        claimed_sweeps=claimed_sweeps,
        turns=result.turn,
        points=(points[0], points[1]),
    )
