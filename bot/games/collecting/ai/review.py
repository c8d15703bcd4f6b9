"""The collecting games' part of reviews (:mod:`bot.ai.review`): the compiled estimator on the
``master`` level's kernel, the budget per decision and why a move was worse in the game's
terms (the hand's distance from a win, its outs, the discards to take, the risk of a discard).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.ai.estimates import python_estimator
from bot.ai.review_words import REASONS, Words, nt
from bot.engine import KINDS, Offer, Tile, format_tiles, legal_actions, view
from bot.engine.family import Action, State
from bot.engine.rules import RuleSet, tile_values
from bot.games import N_
from bot.games.collecting.engine.actions import Declare, Discard, Take
from bot.games.collecting.engine.machine import GameState, Phase, View
from bot.games.dominoes.engine.actions import Draw

__all__ = ["ROLLOUTS", "compiled", "kernel_estimator", "position_words", "reason", "rollouts"]

ROLLOUTS = 12_000
"""Play-outs per decision by default with the compiled play-outs (Kap Tai Shap: up to six seats;
bigger tables get less, see :func:`rollouts`)."""


def compiled() -> bool:
    """Whether the play-outs run compiled here (numba installed, the kernel on)."""
    try:
        from bot.games.collecting.ai import kernel
    except ImportError:  # pragma: no cover - the module imports without numpy
        return False
    return kernel.available() and kernel.numpy_here()


def rollouts(rules: RuleSet) -> int:
    """The compiled play-outs a review may spend on one decision (:data:`ROLLOUTS`)."""
    if rules.players > 6:  # Kap Tai Shap's bigger tables (Kap Shap has two seats)
        # Beyond six seats a play-out lasts about N/6 times longer than at six.
        return max(1_000, ROLLOUTS * 6 // rules.players)
    return ROLLOUTS


def kernel_estimator(
    state: State,
    seat: int,
    actions: Sequence[Action],
    rollouts: int,
    rng: random.Random,
) -> list[list[float]]:
    """An :data:`~bot.ai.family.Estimator` for Kap Shap and Kap Tai Shap on the compiled
    kernel: the deals are uniform over what ``seat``'s view hides (as
    :func:`~bot.engine.hidden.determinize`), and every seat plays the expert (as
    :data:`bot.ai.estimates.expert_playout`), in the kernel of the ``master`` level. Falls back
    to :func:`bot.ai.estimates.python_estimator` for anything it cannot map (another game's
    state, a compulsory draw)."""
    from bot.games.collecting.ai.knowledge import read_view
    from bot.games.collecting.ai.master import play_outs

    fallback = python_estimator(state.rules.game)
    if state.current != seat or state.result is not None:
        raise ValueError("the estimate needs a state where the seat is to play")
    if not isinstance(state, GameState) or state.phase not in (
        Phase.TAKE_OR_DRAW,
        Phase.DISCARD,
    ):
        return fallback(state, seat, actions, rollouts, rng)
    columns: list[int] = []
    for action in actions:
        if isinstance(action, Take | Discard) and action.tile is not None:
            columns.append(action.tile.index)
        elif isinstance(action, Draw | Declare):
            columns.append(-1)
        else:
            return fallback(state, seat, actions, rollouts, rng)
    seat_view = view(state, seat)
    seen = read_view(seat_view, legal_actions(state))
    candidates = sorted(set(columns))
    keys = [rng.getrandbits(64) for _ in range(rollouts)]
    rows = play_outs(seat_view, seen, candidates, keys)
    # The kernel scores another seat's win below zero and a drawn game 0: only a win counts.
    return [[1.0 if row[candidates.index(c)] >= 1.0 else 0.0 for row in rows] for c in columns]


def reason(
    state: GameState,
    seat: int,
    played: Action,
    best: Action,
    after: Sequence[tuple[int, str]],
) -> Words:
    """Why ``played`` was worse than ``best`` (:func:`bot.ai.review.reason_words`)."""
    from bot.games.collecting.ai.core import UNIT, count_of, evaluator_for, weight
    from bot.games.collecting.ai.expert import completion_risk
    from bot.games.collecting.ai.knowledge import read_view

    if isinstance(best, Declare):
        return Words(REASONS["declare"])
    seen_view = view(state, seat)
    seen = read_view(seen_view, legal_actions(state))
    ev = evaluator_for(state.rules)
    unseen = seen.unseen()
    hand = seen.hand
    # Under Culin's offer every face-up discard may be taken later: it helps like an unseen one.
    pool = seen.faceup if state.rules.offer is Offer.ANY else 0

    def standing(held: int) -> tuple[int, int]:
        """(tiles missing from a winning hand, unseen or face-up tiles that bring it closer)."""
        missing, mask, _ = ev.info(held)
        return missing, weight(mask, unseen) + weight(mask, pool)

    def pool_wins(held: int) -> list[int]:
        """The kinds face up in the discards that would complete ``held`` (H-1 tiles)."""
        missing, _, improvers = ev.info(held)
        return [k for k in improvers if count_of(pool, k)] if missing == 1 else []

    def after_take(kind: int) -> tuple[int, int]:
        full = hand + UNIT[kind]
        if ev.table(full)[0]:
            return 0, 0
        return min(
            (standing(full - UNIT[k]) for k in range(len(UNIT)) if k != kind and _holds(full, k)),
            key=lambda s: (s[0], -s[1]),
        )

    def outcome(action: Action) -> tuple[int, int]:
        if isinstance(action, Discard) and action.tile is not None:
            return standing(hand - UNIT[action.tile.index])
        if isinstance(action, Take) and action.tile is not None:
            return after_take(action.tile.index)
        return standing(hand)  # a draw: the hand as it is, before the tile drawn

    if isinstance(best, Take) and best.tile is not None and after_take(best.tile.index)[0] == 0:
        return Words(REASONS["winning-take"], (("tile", str(best.tile)),))
    mine, better = outcome(played), outcome(best)
    if mine[0] > better[0]:
        if isinstance(best, Take) and best.tile is not None:
            return Words(REASONS["take-closer"], (("tile", str(best.tile)),))
        if isinstance(played, Discard) and played.tile is not None:
            tile = played.tile
            if seen_view.hand.count(tile) >= 2:
                return Words(REASONS["broke-eye"], (("tile", str(tile)),))
            partner = _ten_pair_partner(tile, seen_view.hand, state.rules)
            if partner is not None:
                return Words(REASONS["broke-pair"], (("tile", str(tile)), ("other", str(partner))))
        return Words(REASONS["further"])
    if (
        isinstance(played, Discard)
        and isinstance(best, Discard)
        and played.tile is not None
        and best.tile is not None
    ):
        waiting = pool_wins(hand - UNIT[best.tile.index])
        if waiting and not pool_wins(hand - UNIT[played.tile.index]):
            return Words(
                REASONS["winning-pool"],
                (("tile", str(played.tile)), ("other", str(KINDS[waiting[0]]))),
            )
    if mine[0] == better[0] and mine[1] < better[1]:
        return Words(REASONS["fewer-outs"], (("after", str(mine[1])), ("before", str(better[1]))))
    if isinstance(played, Discard) and played.tile is not None:
        taker = _taken_to_win(played.tile, seat, after)
        if taker is not None:
            return Words(REASONS["gave-winner"], (("name", state.seats[taker]),))
        if isinstance(best, Discard) and best.tile is not None:
            risk = completion_risk(seen, ev)
            if risk[played.tile.index] > risk[best.tile.index] + 0.01:
                return Words(REASONS["riskier"])
    return Words(REASONS["play-outs"])


def _holds(key: int, kind: int) -> bool:
    from bot.games.collecting.ai.core import count_of

    return count_of(key, kind) > 0


def _ten_pair_partner(tile: Tile, hand: Sequence[Tile], rules: RuleSet) -> Tile | None:
    """Another tile of ``hand`` that makes a ten-pair with ``tile`` (values totalling 10 or
    20), if any."""
    four_two = rules.four_two_value
    for other in hand:
        if other == tile:
            continue
        if any(
            a + b in (10, 20)
            for a in tile_values(tile, four_two)
            for b in tile_values(other, four_two)
        ):
            return other
    return None


def _taken_to_win(tile: Tile, seat: int, after: Sequence[tuple[int, str]]) -> int | None:
    """The seat that took ``tile`` right after ``seat``'s turn and declared a win with it."""
    for index, (mover, action) in enumerate(after):
        if mover == seat:
            continue
        if action == f"take {tile}":
            follow = next((a for s, a in after[index + 1 :] if s == mover), None)
            return mover if follow == "declare" else None
        return None  # the next player did something else
    return None


def position_words(position: View) -> list[Words]:
    """What the seat saw when it decided: its hand, the discards (``†`` dead) and the wall."""
    pool = " ".join(f"{p.tile}{'†' if p.dead else ''}" for p in position.pool) or "-"
    return [
        Words(N_("Hand: {tiles}"), (("tiles", format_tiles(position.hand)),)),
        nt(
            None,
            "Discards: {pool}; wall: {n} tile",
            "Discards: {pool}; wall: {n} tiles",
            position.wall_size,
            pool=pool,
        ),
    ]
