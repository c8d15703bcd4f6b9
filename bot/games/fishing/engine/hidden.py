"""Where the tiles a seat has not seen may lie in Tsung Shap (bot.engine.hidden): nobody knows
the order of either pile, so the tiles still face down in both piles are dealt again into
piles of the same sizes."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import replace

from bot.games.dominoes.engine.hidden import by_kind
from bot.games.fishing.engine import FishingState

__all__ = ["arrangement_count", "arrangements", "rebuild", "unseen"]


def unseen(state: FishingState, seat: int) -> list[int]:
    """Both piles' tiles, sorted by kind (then piece)."""
    return by_kind(p for pile in state.piles for p in pile)


def rebuild(state: FishingState, seat: int, order: Sequence[int]) -> FishingState:
    """The piles refilled in order from ``order``, each of its size."""
    piles: list[tuple[int, ...]] = []
    pos = 0
    for pile in state.piles:
        piles.append(tuple(order[pos : pos + len(pile)]))
        pos += len(pile)
    return replace(state, piles=tuple(piles))


def arrangement_count(state: FishingState, seat: int) -> int:
    """Every order of the face-down tiles."""
    n = len(unseen(state, seat))
    return math.perm(n, n)


def arrangements(state: FishingState, seat: int) -> Iterator[FishingState]:
    """Every order of the face-down tiles."""
    for order in itertools.permutations(unseen(state, seat)):
        yield rebuild(state, seat, list(order))
