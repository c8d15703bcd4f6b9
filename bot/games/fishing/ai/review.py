"""Tsung Shap's part of reviews (:mod:`bot.ai.review`): the compiled estimator on
:mod:`bot.games.fishing.ai.kernel`, the budget per decision, which moves are the same choice (rows
that are mirror images), its draw said as turning a tile over, and why a move was worse in the
game's terms (captures missed or smaller, claims, what the row leaves the opponent).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.ai.estimates import python_estimator
from bot.ai.review_words import ACTION_PHRASES, REASONS, Words, action_phrase
from bot.engine import apply, format_tiles, legal_actions, view
from bot.engine.family import Action, State
from bot.engine.hidden import determinize
from bot.games import N_
from bot.games.dominoes.engine.actions import Draw
from bot.games.fishing.ai.levels import fishing_player
from bot.games.fishing.engine import FishingPhase, FishingState, FishingView, Swept
from bot.games.fishing.engine.actions import Capture, Claim, Place

__all__ = [
    "ROLLOUTS",
    "choices",
    "compiled",
    "fishing_estimator",
    "phrase",
    "position_words",
    "reason",
]

ROLLOUTS = 4_000
"""Play-outs per decision by default with the compiled play-outs."""


def compiled() -> bool:
    """Whether the play-outs run compiled here (numba installed, the kernel on)."""
    try:
        from bot.games.fishing.ai import kernel as fishing_kernel
    except ImportError:  # pragma: no cover - the module imports without numpy
        return False
    return fishing_kernel.ready()


def phrase(notation: str) -> Words:
    """An action as a gerund phrase (:func:`bot.ai.review_words.action_phrase`), the draw said
    as turning one's tile over."""
    if notation == "draw":
        return Words(ACTION_PHRASES["turn-over"])
    return action_phrase(notation)


def fishing_estimator(
    state: State,
    seat: int,
    actions: Sequence[Action],
    rollouts: int,
    rng: random.Random,
) -> list[list[float]]:
    """An :data:`~bot.ai.family.Estimator` for Tsung Shap on the compiled kernel: each action
    is applied to the public position (a sweep's new row is laid from the pile in the
    play-out; a capture the move misses is claimed at once, as the expert claims, since claims
    are not in the kernel), then both seats play the expert from the next turn
    (:func:`bot.games.fishing.ai.kernel.review_rollouts`) on random orders of the piles, every
    action
    on the same orders."""
    from bot.games.fishing.ai import kernel as fishing_kernel

    if state.current != seat or state.result is not None:
        raise ValueError("the estimate needs a state where the seat is to play")
    if not isinstance(state, FishingState):
        return python_estimator(state.rules.game)(state, seat, actions, rollouts, rng)
    seat_view = view(state, seat)
    starts: list[tuple[tuple[int, ...], int, int, int, int, int]] = []
    fixed: dict[int, float] = {}
    for index, action in enumerate(actions):
        start = _fishing_start(state, seat, action)
        if isinstance(start, float):
            fixed[index] = start
        else:
            starts.append(start)
    seed = rng.getrandbits(64)
    rows = (
        fishing_kernel.review_rollouts(
            state.rules,
            starts,
            seat_view.pile_sizes,
            [t.index for t in seat_view.unseen],
            seat,
            rollouts,
            seed,
        )
        if starts
        else [[] for _ in range(rollouts)]
    )
    out: list[list[float]] = []
    column = 0
    for index in range(len(actions)):
        if index in fixed:
            out.append([fixed[index]] * rollouts)
        else:
            out.append([row[column] for row in rows])
            column += 1
    return out


def _fishing_start(
    state: FishingState, seat: int, action: Action
) -> float | tuple[tuple[int, ...], int, int, int, int, int]:
    """Where the kernel takes over after ``action``: ``(row, score 0, score 1, seat to turn
    over, turn, relay)`` for :func:`bot.games.fishing.ai.kernel.review_rollouts`, or the outcome
    (1.0
    or 0.0) when the action ends the game. Only public facts are used: the action is applied
    to a determinized state, and a tile turned over from its pile (a sweep's new row) is left
    to the play-out."""
    if isinstance(action, Draw):
        # Turning over lets any unclaimed miss lapse; the kernel turns the tile over.
        return _start(state, state.current, state.turn)
    world = determinize(state, seat, random.Random(0))
    after, events = apply(world, action)
    assert isinstance(after, FishingState)
    if after.result is not None:
        return 1.0 if after.result.winner == seat else 0.0
    if any(isinstance(e, Swept) for e in events):
        return ((), after.scores[0], after.scores[1], seat, state.turn, seat)
    after = _expert_claims(after)
    return _start(after, after.current, after.turn)


def _start(
    state: FishingState, current: int, turn: int
) -> tuple[tuple[int, ...], int, int, int, int, int]:
    """A play-out's start at ``current``'s turn ``turn`` of ``state``'s row and scores."""
    return (_row_kinds(state), state.scores[0], state.scores[1], current, turn, -1)


def _expert_claims(state: FishingState) -> FishingState:
    """``state`` after the player to turn over claims the capture he may claim, as the expert
    does (the best-scoring one)."""
    while state.phase is FishingPhase.TURN_OVER and not state.claimed:
        claims = [a for a in legal_actions(state) if isinstance(a, Claim)]
        if not claims:
            break
        choice = fishing_player("expert").choose(
            view(state, state.current), legal_actions(state), random.Random(0)
        )
        if not isinstance(choice, Claim):
            break
        state, _ = apply(state, choice)
    return state


def _row_kinds(state: FishingState) -> tuple[int, ...]:
    return tuple(t.index for t in view(state, None).row)


def choices(state: FishingState, seat: int, legal: Sequence[Action]) -> list[list[Action]]:
    """The legal actions, equivalent ones together: two moves whose rows are mirror images of
    each other, everything else the same (the rules are the same both ways), as placing either
    side of a single tile."""
    if len(legal) < 2:
        return [[a] for a in legal]
    world = determinize(state, seat, random.Random(0))
    groups: dict[object, list[Action]] = {}
    for action in legal:
        if isinstance(action, Draw | Claim):
            key: object = action
        else:
            after, events = apply(world, action)
            assert isinstance(after, FishingState)
            row = _row_kinds(after)
            pending = sorted((str(p.combination.kind), p.combination.score) for p in after.pending)
            key = (
                min(row, row[::-1]),
                after.scores,
                after.current,
                after.turn,
                after.result is not None,
                any(isinstance(e, Swept) for e in events),
                tuple(pending),
            )
        groups.setdefault(key, []).append(action)
    return list(groups.values())


def reason(state: FishingState, seat: int, played: Action, best: Action) -> Words:
    """Why ``played`` was worse than ``best`` (:func:`bot.ai.review.reason_words`)."""
    seen = view(state, seat)
    captures = {str(c.capture): c.score for c in seen.options}
    claims = {str(c.claim): c.score for c in seen.pending}
    if isinstance(played, Place) and captures and not isinstance(best, Place):
        return Words(REASONS["missed-capture"], (("points", str(max(captures.values()))),))
    if isinstance(played, Capture) and isinstance(best, Capture):
        mine, better = captures.get(str(played), 0), captures.get(str(best), 0)
        if better > mine:
            return Words(
                REASONS["smaller-capture"], (("points", str(mine)), ("best_points", str(better)))
            )
    if isinstance(played, Draw) and isinstance(best, Claim):
        return Words(REASONS["no-claim"], (("points", str(claims.get(str(best), 0))),))
    if isinstance(played, Claim) and isinstance(best, Claim):
        mine, better = claims.get(str(played), 0), claims.get(str(best), 0)
        if better > mine:
            return Words(
                REASONS["smaller-claim"], (("points", str(mine)), ("best_points", str(better)))
            )
    if isinstance(played, Place) and isinstance(best, Place) and seen.turned is not None:
        open_mine = _exposure(state, seen, played)
        open_best = _exposure(state, seen, best)
        if open_mine > open_best:
            return Words(
                REASONS["exposed"], (("after", str(open_mine)), ("before", str(open_best)))
            )
    return Words(REASONS["play-outs-piles"])


def _exposure(state: FishingState, seen: FishingView, place: Place) -> int:
    """How many of the unseen tiles could capture at the ends of the row ``place`` leaves."""
    from bot.games.fishing.engine import row_captures

    assert seen.turned is not None
    row = [t.index for t in seen.row]
    row = [seen.turned.index, *row] if str(place.end) == "left" else [*row, seen.turned.index]
    return sum(1 for tile in seen.unseen if row_captures(state.rules, row, tile.index))


def position_words(position: FishingView) -> list[Words]:
    """What the seat saw when it decided: the row, the tile turned over, the scores and the
    piles."""
    words = [Words(N_("Row: {tiles}"), (("tiles", format_tiles(position.row, sort=False) or "-"),))]
    scores = " – ".join(str(s) for s in position.scores)
    piles = " / ".join(str(n) for n in position.pile_sizes)
    if position.turned is not None:
        words.append(
            Words(
                N_("Turned over: {tile}; scores {scores}; piles {piles}"),
                (("tile", str(position.turned)), ("scores", scores), ("piles", piles)),
            )
        )
    else:
        words.append(
            Words(N_("Scores {scores}; piles {piles}"), (("scores", scores), ("piles", piles)))
        )
    return words
