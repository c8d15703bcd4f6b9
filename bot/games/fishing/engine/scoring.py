"""Tsung Shap's scoring: what a tile counts, the captures a turned tile can make on the row,
and what the loser pays under ``difference`` settlement (RULES.md §3)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from bot.engine.rules import FourTwo, RuleSet, Settlement
from bot.engine.tiles import KINDS, Tile
from bot.games.fishing.engine.actions import ComboKind, End
from bot.games.fishing.engine.model import (
    _FOUR_TWO,
    _TWO_ONE,
    SWEEP_SCORE,
    Combination,
    FishingResult,
)

# ---------------------------------------------------------------------------------------------
# Values and captures


def _kind_values(kind: int, four_two: FourTwo) -> tuple[int, ...]:
    if four_two is FourTwo.WILD and kind in (_FOUR_TWO, _TWO_ONE):
        return (3, 6)
    if kind == _FOUR_TWO:
        return (3,) if four_two is FourTwo.THREE else (6,)
    return (KINDS[kind].pips,)


def tile_values(tile: Tile, four_two: FourTwo) -> tuple[int, ...]:
    """The values ``tile`` may count in Tsung Shap: its pips, 4-2 per ``four_two`` (under
    ``wild`` 4-2 and 2-1 each count 3 or 6)."""
    return _kind_values(tile.index, four_two)


@cache
def _triplet_total(a: int, b: int, c: int, four_two: FourTwo) -> int:
    """The highest multiple of ten three kinds can total (0 if none can)."""
    best = 0
    for x, y, z in itertools.product(
        _kind_values(a, four_two), _kind_values(b, four_two), _kind_values(c, four_two)
    ):
        total = x + y + z
        if total % 10 == 0 and total > best:
            best = total
    return best


def _pair_score(kind: int, four_two: FourTwo) -> int:
    return 10 * 2 * max(_kind_values(kind, four_two))


@dataclass(frozen=True, slots=True)
class RowCapture:
    """A capture as positions on the row: ``indices`` are the row tiles it takes (the turned
    tile comes on top). The fast form of :class:`Combination`, for computer players."""

    kind: ComboKind
    end: End
    indices: tuple[int, ...]
    score: int
    sweep: bool


def row_captures(rules: RuleSet, row_kinds: Sequence[int], tile_kind: int) -> list[RowCapture]:
    """Every capture a tile of kind index ``tile_kind`` can make on a row of these kind indices
    (left to right), in a fixed order: pairs left, right, then triplets left, right, ends.

    ``auto_capture`` is not applied here (it only restricts the choice to the best of these).
    """
    n = len(row_kinds)
    out: list[RowCapture] = []
    if n == 0:
        return out
    four_two = rules.four_two_value
    if row_kinds[0] == tile_kind:
        out.append(
            RowCapture(ComboKind.PAIR, End.LEFT, (0,), _pair_score(tile_kind, four_two), False)
        )
    if n >= 2 and row_kinds[-1] == tile_kind:
        out.append(
            RowCapture(ComboKind.PAIR, End.RIGHT, (n - 1,), _pair_score(tile_kind, four_two), False)
        )
    forms: list[tuple[End, tuple[int, int]]]
    if n == 2:
        forms = [(End.ENDS, (0, 1))]
    elif n >= 3 and rules.triplet_both_ends_only:
        forms = [(End.ENDS, (0, n - 1))]
    elif n >= 3:
        forms = [(End.LEFT, (0, 1)), (End.RIGHT, (n - 2, n - 1)), (End.ENDS, (0, n - 1))]
    else:
        forms = []
    for end, (i, j) in forms:
        total = _triplet_total(*sorted((tile_kind, row_kinds[i], row_kinds[j])), four_two)
        if not total:
            continue
        if n == 2:
            score = SWEEP_SCORE + (total if rules.sweep_adds_pips else 0)
            out.append(RowCapture(ComboKind.TRIPLET, end, (i, j), score, True))
        else:
            out.append(RowCapture(ComboKind.TRIPLET, end, (i, j), total, False))
    return out


def _combination(option: RowCapture, tile_kind: int, row_kinds: Sequence[int]) -> Combination:
    tiles = (KINDS[tile_kind], *(KINDS[row_kinds[i]] for i in option.indices))
    return Combination(option.kind, option.end, tiles, option.score, option.sweep)


def capture_options(rules: RuleSet, row: Sequence[Tile], tile: Tile) -> list[Combination]:
    """Every capture ``tile`` can make on ``row`` (left to right) under ``rules``, ignoring
    ``auto_capture`` (which only restricts the choice to the best of these)."""
    kinds = [t.index for t in row]
    return [_combination(o, tile.index, kinds) for o in row_captures(rules, kinds, tile.index)]


def _canonical(kind: ComboKind, end: End, row_len: int) -> tuple[ComboKind, End]:
    """The name ``legal_actions`` uses for a capture on a row of ``row_len`` tiles."""
    if kind is ComboKind.PAIR and row_len == 1:
        return kind, End.LEFT
    if kind is ComboKind.TRIPLET and row_len == 2:
        return kind, End.ENDS
    return kind, end


def difference_payment(rules: RuleSet, result: FishingResult) -> int:
    """Chips the loser pays the winner when ``settlement`` is ``difference``
    (``settle_rate`` × the point difference); 0 for a draw or under ``pot`` settlement (there
    the winner takes the pot, which the services handle)."""
    if rules.settlement is not Settlement.DIFFERENCE or result.winner is None:
        return 0
    return rules.settle_rate * result.difference
