"""The ``master`` computer player for Tsung Shap: determinized play-outs of its candidate moves.

Tsung Shap hides only the order of the piles, so a determinization is a random order of the
unseen tiles (every tile not on the row, not captured and not the turned one), cut into the two
piles at their known sizes. For every capture or placement the turned tile allows, the game is
played out to its end on the same orders (common random numbers), both seats playing the
``greedy`` Tsung Shap player, through the engine's own ``apply`` (the state of a play-out is
built from the view and the sampled piles; the real game's state is never read). A play-out
scores 1 for a win, 1/2 for a draw. As for the collecting games (:mod:`bot.ai.master`), the
expert's move is the default and another replaces it only when its play-outs beat it by
:data:`bot.ai.master.MARGIN` standard errors; claims, the draw and the exact endgame (six tiles
or fewer unseen, searched exactly by the expert) are the expert's.

Play-outs run in Python (the compiled kernel covers the collecting games only), so the default
``budget`` is :data:`DEFAULT_BUDGET` play-outs per decision (``KAPSHAP_MASTER_BUDGET`` sets it
too).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.ai.fishing import ExpertFishingPlayer, GreedyFishingPlayer
from bot.ai.master import _pick, default_budget
from bot.engine import (
    Capture,
    Deal,
    FishingAction,
    FishingPhase,
    FishingState,
    FishingView,
    Place,
    apply,
    legal_actions,
    view,
)
from bot.engine.tiles import KINDS, PIECE_KINDS, PIECES_PER_SET

__all__ = ["DEFAULT_BUDGET", "MasterFishingPlayer"]

DEFAULT_BUDGET = 60
"""Play-outs per decision by default: they run in Python, about 4 ms each here."""


def _pieces_by_kind(tile_count: int) -> list[list[int]]:
    out: list[list[int]] = [[] for _ in KINDS]
    for piece in range(tile_count):
        out[PIECE_KINDS[piece % PIECES_PER_SET]].append(piece)
    return out


def _sampled_state(v: FishingView, rng: random.Random) -> FishingState:
    """A state the view cannot tell from the real one: the unseen tiles in a random order."""
    rules = v.rules
    free = _pieces_by_kind(rules.tile_count)

    def piece(index: int) -> int:
        return free[index].pop()

    row = tuple(piece(t.index) for t in v.row)
    captured = tuple(tuple(piece(t.index) for t in tiles) for tiles in v.captured)
    turned = piece(v.turned.index) if v.turned is not None else None
    unseen = [p for pieces in free for p in pieces]
    rng.shuffle(unseen)
    piles: list[tuple[int, ...]] = []
    at = 0
    for size in v.pile_sizes:
        piles.append(tuple(unseen[at : at + size]))
        at += size
    return FishingState(
        rules=rules,
        seats=v.seat_names,
        deal=Deal(order=tuple(range(rules.tile_count)), first_seat=v.first_seat),
        piles=tuple(piles),
        row=row,
        captured=captured,
        scores=v.scores,
        current=v.current,
        phase=v.phase,
        turn=v.turn,
        turned=turned,
        history=v.history,
    )


def _play_out(state: FishingState, first: FishingAction, seat: int, rng: random.Random) -> float:
    greedy = GreedyFishingPlayer()
    state, _ = apply(state, first)
    while state.result is None:
        mover = state.current
        state, _ = apply(state, greedy.choose(view(state, mover), legal_actions(state), rng))
    winner = state.result.winner
    return 0.5 if winner is None else (1.0 if winner == seat else 0.0)


class MasterFishingPlayer:
    """Determinized play-outs of each capture or placement, greedy play to the end."""

    level = "master"

    def __init__(self, budget: int | None = None) -> None:
        self.budget = budget or default_budget() or DEFAULT_BUDGET
        self._expert = ExpertFishingPlayer()

    def choose(
        self, view: FishingView, legal: Sequence[FishingAction], rng: random.Random
    ) -> FishingAction:
        """The expert's move unless the play-outs find a clearly better one."""
        fallback = self._expert.choose(view, legal, rng)
        if (
            view.phase is not FishingPhase.PLAY
            or view.turned is None
            or view.seat is None
            or len(view.unseen) <= ExpertFishingPlayer.exact_endgame
        ):
            return fallback
        candidates = [a for a in legal if isinstance(a, Capture | Place)]
        if len(candidates) < 2 or fallback not in candidates:
            return fallback
        deals = max(2, self.budget // len(candidates))
        scores: list[list[float]] = []
        for _ in range(deals):
            seed = rng.getrandbits(64)
            state = _sampled_state(view, random.Random(seed))
            scores.append([_play_out(state, a, view.seat, random.Random(seed)) for a in candidates])
        index = list(range(len(candidates)))
        best = _pick(index, scores, candidates.index(fallback))
        return candidates[best]
