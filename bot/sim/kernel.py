"""The simulator's side of the compiled kernel (:mod:`bot.ai.kernel`): dealing and whole batches.

A batch of games crosses the Python boundary once: each game is dealt inside the kernel from the
splitmix64 stream of its key (exactly as :func:`bot.sim.seeding.deal_from_key` deals in Python)
and played by :mod:`bot.ai.kernel`'s game loop, which plays the games of
:func:`bot.sim.fast.play_fast` (``tests/sim/test_kernel.py``). Needs the ``.[sim]`` extra; check
:func:`available` first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np  # only imported once bot.ai.kernel.available() said numba (and numpy) exist

from bot.ai.kernel import (
    KERNEL_LEVELS,
    available,
    below,
    codes_for,
    ev_array,
    jit,
    kind_tables,
    play_kinds,
    rule_flags,
)
from bot.engine import Deal, FirstPlayer, RuleSet
from bot.engine.errors import RulesError
from bot.engine.tiles import PIECE_KINDS, PIECES_PER_SET
from bot.sim.record import GameRecord

__all__ = ["KERNEL_LEVELS", "available", "compile_kernel", "play_batch", "play_deal"]


_REASON = ("declared", "wall", "cap")
_WIN_BY = (None, "dealt", "take", "draw")
_MASK64 = (1 << 64) - 1
_RECORDS: dict[tuple[int, ...], GameRecord] = {}


@jit
def _deal(key: Any, players: int, four_dice: bool, piece_kinds: Any, kinds: Any) -> int:
    """Shuffle into ``kinds`` (as kinds) and return the first seat; see bot.sim.seeding."""
    state = np.empty(1, np.uint64)
    state[0] = key
    if four_dice:
        total = 0
        for _ in range(4):
            total += 1 + below(state, 6)
        first = total % players
    else:
        first = below(state, players)
    n = kinds.shape[0]
    order = np.arange(n)
    for i in range(n - 1, 0, -1):
        j = below(state, i + 1)
        t = order[i]
        order[i] = order[j]
        order[j] = t
    for i in range(n):
        kinds[i] = piece_kinds[order[i]]
    return first


@jit
def _batch(
    ev: Any, flags: Any, codes: Any, total: Any, piece_kinds: Any, keys: Any, four_dice: bool
) -> Any:
    games = keys.shape[0]
    out = np.zeros((games, 7), np.int64)
    kinds = np.empty(piece_kinds.shape[0], np.int64)
    for g in range(games):
        first = _deal(keys[g], flags[0], four_dice, piece_kinds, kinds)
        play_kinds(ev, flags, kinds, first, codes, total, out[g])
    return out


def _record(row: Any) -> GameRecord:
    winner = int(row[1])
    return GameRecord(
        first_seat=int(row[0]),
        winner=None if winner < 0 else winner,
        reason=_REASON[int(row[2])],
        win_by=_WIN_BY[int(row[3])],
        turns=int(row[4]),
        takes=int(row[5]),
        take_pool_total=int(row[6]),
    )


def play_deal(rules: RuleSet, deal: Deal, levels: Sequence[str]) -> GameRecord:
    """Play one game of a given deal in the kernel (same record as ``play_fast``)."""
    codes = codes_for(rules, levels)
    if len(deal.order) != rules.tile_count or not 0 <= deal.first_seat < rules.players:
        raise RulesError("the deal does not fit this rule set")
    total, _ = kind_tables(rules)
    kinds = np.array([PIECE_KINDS[p % PIECES_PER_SET] for p in deal.order], dtype=np.int64)
    out = np.zeros(7, np.int64)
    play_kinds(ev_array(rules), rule_flags(rules), kinds, deal.first_seat, codes, total, out)
    return _record(out)


def play_batch(rules: RuleSet, levels: Sequence[str], keys: Sequence[int]) -> list[GameRecord]:
    """Deal (:func:`bot.sim.seeding.deal_from_key`) and play one game per key, in order."""
    codes = codes_for(rules, levels)
    total, piece_kinds = kind_tables(rules)
    key_array = np.array([k & _MASK64 for k in keys], dtype=np.uint64)
    four_dice = rules.first_player is FirstPlayer.FOUR_DICE
    rows = _batch(
        ev_array(rules), rule_flags(rules), codes, total, piece_kinds, key_array, four_dice
    )
    out = _Batch(_records(rows))
    out.rows = rows.tobytes()
    return out


def _records(rows: Any) -> list[GameRecord]:
    # Records repeat (a few thousand distinct ones): sharing them saves building each one.
    out = []
    for row in rows.tolist():
        key = tuple(row)
        record = _RECORDS.get(key)
        if record is None:
            if len(_RECORDS) >= 100_000:
                _RECORDS.clear()
            record = _RECORDS[key] = _record(row)
        out.append(record)
    return out


def _rebuild(rows: bytes) -> list[GameRecord]:
    return _records(np.frombuffer(rows, dtype=np.int64).reshape(-1, 7))


class _Batch(list[GameRecord]):
    """The records of a batch, which pickle as their raw rows (one buffer of 56 bytes a game)
    and are rebuilt on arrival: a worker process's chunk then costs the parent about a
    microsecond a game instead of unpickling every record (7 µs), which had made the parent
    the bottleneck of a two-worker run."""

    rows: bytes = b""

    def __reduce__(self) -> tuple[Any, tuple[bytes]]:
        return _rebuild, (self.rows,)


def compile_kernel() -> None:
    """Compile (or load from the disk cache) the kernel's game functions by playing one game."""
    from bot.engine import make_rules

    play_batch(make_rules("kap-shap"), ("greedy", "expert"), [1])
