"""Hidden information: states a seat cannot tell from the true one (determinization).

A review or an analysis must never use what the player could not see. :func:`determinize`
deals the tiles *unseen by one seat* at random into the places he cannot see, and keeps
everything else as it is:

* **Kap Shap, Kap Tai Shap.** The seat's own hand, the face-up discards and the public record
  stay. Every other seat keeps the tiles it is *known* to hold (taken from the discards and not
  discarded again since, read from the public record as :mod:`bot.ai.knowledge` does); the rest
  of its hand and the undrawn wall are dealt again from the unseen tiles, hand sizes and wall
  size unchanged.
* **Tsung Shap.** Nobody knows the order of either pile: the tiles still face down in both piles
  are dealt again into piles of the same sizes.

The unseen tiles are sorted by kind before they are shuffled, so two true states that look the
same to the seat give the same determinized states for the same random stream: the result
depends on what the seat saw and on ``rng``, never on the true arrangement (a test checks it).
Uniform dealing respects every hard constraint (counts, sizes, known tiles); it does not weigh
the unseen tiles by what the opponents' past choices suggest.

:func:`arrangements` lists every arrangement of the unseen tiles instead, each as likely as the
others under that uniform dealing, for exact answers on small end positions.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

from bot.engine.collecting import GameState
from bot.engine.errors import RulesError
from bot.engine.fishing import FishingState
from bot.engine.tiles import PIECE_KINDS, PIECES_PER_SET

__all__ = ["arrangement_count", "arrangements", "determinize", "known_kinds", "unseen_pieces"]

AnyState = GameState | FishingState


def _kind(piece: int) -> int:
    return PIECE_KINDS[piece % PIECES_PER_SET]


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
            if want[_kind(piece)]:
                want[_kind(piece)] -= 1
                mine.append(piece)
            else:
                hidden.append(piece)
        kept.append(mine)
    return kept, hidden


def unseen_pieces(state: AnyState, seat: int) -> list[int]:
    """The pieces ``seat`` has not seen, sorted by kind (then piece)."""
    if isinstance(state, FishingState):
        pieces = [p for pile in state.piles for p in pile]
    else:
        _, hidden = _split_hands(state, seat)
        pieces = hidden + list(state.wall[state.wall_pos :])
    return sorted(pieces, key=lambda p: (_kind(p), p))


def _check_seat(state: AnyState, seat: int) -> None:
    if not 0 <= seat < state.rules.players:
        raise RulesError(f"seat {seat} is not at this table")


def _rebuild(state: AnyState, seat: int, order: list[int]) -> AnyState:
    """The state with the unseen places filled, in order, from ``order``."""
    if isinstance(state, FishingState):
        piles: list[tuple[int, ...]] = []
        pos = 0
        for pile in state.piles:
            piles.append(tuple(order[pos : pos + len(pile)]))
            pos += len(pile)
        return replace(state, piles=tuple(piles))
    kept, _ = _split_hands(state, seat)
    hands: list[tuple[int, ...]] = []
    pos = 0
    for s, hand in enumerate(state.hands):
        missing = len(hand) - len(kept[s])
        hands.append((*kept[s], *order[pos : pos + missing]))
        pos += missing
    wall = state.wall[: state.wall_pos] + tuple(order[pos:])
    return replace(state, hands=tuple(hands), wall=wall)


def determinize(state: AnyState, seat: int, rng: random.Random) -> AnyState:
    """A state ``seat`` cannot tell from ``state``: the tiles he has not seen dealt at random
    into the places he cannot see (see the module's docstring)."""
    _check_seat(state, seat)
    order = unseen_pieces(state, seat)
    rng.shuffle(order)
    return _rebuild(state, seat, order)


def arrangement_count(state: AnyState, seat: int) -> int:
    """How many states :func:`arrangements` yields."""
    _check_seat(state, seat)
    n = len(unseen_pieces(state, seat))
    if isinstance(state, FishingState):
        return math.perm(n, n)
    wall = state.wall_size
    count = math.perm(n, wall)
    rest = n - wall
    kept, _ = _split_hands(state, seat)
    for s, hand in enumerate(state.hands):
        missing = len(hand) - len(kept[s])
        count *= math.comb(rest, missing)
        rest -= missing
    return count


def arrangements(state: AnyState, seat: int) -> Iterator[AnyState]:
    """Every arrangement of the unseen pieces, equally likely under :func:`determinize`.

    Order matters in the wall (and the piles), not within a hand. Use only when
    :func:`arrangement_count` is small.
    """
    _check_seat(state, seat)
    pieces = unseen_pieces(state, seat)
    if isinstance(state, FishingState):
        for order in itertools.permutations(pieces):
            yield _rebuild(state, seat, list(order))
        return
    kept, _ = _split_hands(state, seat)
    sizes = [len(hand) - len(kept[s]) for s, hand in enumerate(state.hands)]
    for wall in itertools.permutations(pieces, state.wall_size):
        rest = list(pieces)
        for piece in wall:
            rest.remove(piece)
        for hands in _partitions(rest, [n for n in sizes if n]):
            yield _rebuild(state, seat, [*hands, *wall])


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
