"""Where the tiles a seat has not seen may lie in a collecting game (bot.engine.hidden).

The seat's own hand, the face-up discards and the public record stay. Every other seat keeps
the tiles it is *known* to hold (taken from the discards and not discarded again since, read
from the public record as :mod:`bot.games.collecting.ai.knowledge` does); the rest of its hand and
the undrawn
wall are dealt again from the unseen tiles, hand sizes and wall size unchanged.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import replace

from bot.games.collecting.engine.machine import GameState
from bot.games.dominoes.engine.hidden import by_kind, kind

__all__ = ["arrangement_count", "arrangements", "known_kinds", "rebuild", "unseen"]


def known_kinds(state: GameState) -> list[Counter[int]]:
    """Per seat, the kinds everybody knows it holds: taken and not discarded since."""
    known: list[Counter[int]] = [Counter() for _ in range(state.rules.players)]
    for move in state.history:
        if move.tile is None:
            continue
        if move.verb == "take":
            known[move.seat][move.tile.index] += 1
        elif move.verb == "discard" and known[move.seat][move.tile.index]:
            known[move.seat][move.tile.index] -= 1
    return known


def _split_hands(state: GameState, seat: int) -> tuple[list[list[int]], list[int]]:
    """Per seat, the pieces kept in place (its own hand for ``seat``, the known tiles for the
    others) and, flattened, the hidden pieces of the other hands."""
    known = known_kinds(state)
    kept: list[list[int]] = []
    hidden: list[int] = []
    for s, hand in enumerate(state.hands):
        if s == seat:
            kept.append(list(hand))
            continue
        want = Counter(known[s])
        mine: list[int] = []
        for piece in hand:
            if want[kind(piece)]:
                want[kind(piece)] -= 1
                mine.append(piece)
            else:
                hidden.append(piece)
        kept.append(mine)
    return kept, hidden


def unseen(state: GameState, seat: int) -> list[int]:
    """The other hands' unknown tiles and the undrawn wall, sorted by kind (then piece)."""
    _, hidden = _split_hands(state, seat)
    return by_kind(hidden + list(state.wall[state.wall_pos :]))


def rebuild(state: GameState, seat: int, order: Sequence[int]) -> GameState:
    """The other hands' unknown places, then the undrawn wall, filled in order from ``order``."""
    kept, _ = _split_hands(state, seat)
    hands: list[tuple[int, ...]] = []
    pos = 0
    for s, hand in enumerate(state.hands):
        missing = len(hand) - len(kept[s])
        hands.append((*kept[s], *order[pos : pos + missing]))
        pos += missing
    wall = state.wall[: state.wall_pos] + tuple(order[pos:])
    return replace(state, hands=tuple(hands), wall=wall)


def arrangement_count(state: GameState, seat: int) -> int:
    """Orders of the wall times the ways to deal the rest into the hands."""
    n = len(unseen(state, seat))
    wall = state.wall_size
    count = math.perm(n, wall)
    rest = n - wall
    kept, _ = _split_hands(state, seat)
    for s, hand in enumerate(state.hands):
        missing = len(hand) - len(kept[s])
        count *= math.comb(rest, missing)
        rest -= missing
    return count


def arrangements(state: GameState, seat: int) -> Iterator[GameState]:
    """Every arrangement: order matters in the wall, not within a hand."""
    pieces = unseen(state, seat)
    kept, _ = _split_hands(state, seat)
    sizes = [len(hand) - len(kept[s]) for s, hand in enumerate(state.hands)]
    for wall in itertools.permutations(pieces, state.wall_size):
        rest = list(pieces)
        for piece in wall:
            rest.remove(piece)
        for hands in _partitions(rest, [n for n in sizes if n]):
            yield rebuild(state, seat, [*hands, *wall])


def _partitions(pieces: list[int], sizes: list[int]) -> Iterator[list[int]]:
    """Every way to deal ``pieces`` into unordered groups of ``sizes``, concatenated."""
    if not sizes:
        yield []
        return
    for chosen in itertools.combinations(range(len(pieces)), sizes[0]):
        picked = set(chosen)
        group = [pieces[i] for i in chosen]
        rest = [p for i, p in enumerate(pieces) if i not in picked]
        for tail in _partitions(rest, sizes[1:]):
            yield group + tail
