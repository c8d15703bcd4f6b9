"""The simulator's side of the compiled kernel (:mod:`bot.games.collecting.ai.kernel`): dealing and
whole batches.

A batch of games crosses the Python boundary once: each game is dealt inside the kernel from the
splitmix64 stream of its key (exactly as :func:`bot.games.dominoes.sim.seeding.deal_from_key` deals
in Python)
and played by :mod:`bot.games.collecting.ai.kernel`'s game loop, which plays the games of
:func:`bot.games.collecting.sim.fast.play_fast` (``tests/sim/test_kernel.py``). Needs the
``.[sim]`` extra; check
:func:`available` first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

# Only imported once bot.games.collecting.ai.kernel.available() said numba (and numpy) exist.
import numpy as np

from bot.ai.jit import available, below, jit
from bot.engine import Deal, FirstPlayer, RuleSet
from bot.engine.errors import RulesError
from bot.engine.tiles import PIECE_KINDS, PIECES_PER_SET
from bot.games.collecting.ai.kernel import (
    KERNEL_LEVELS,
    codes_for,
    ev_array,
    kind_tables,
    play_kinds,
    rule_flags,
)
from bot.sim.record import GameRecord
from bot.sim.stats import GameTally

__all__ = [
    "KERNEL_LEVELS",
    "available",
    "compile_kernel",
    "play_batch",
    "play_deal",
    "play_games",
    "tally_rows",
]


_REASON = ("declared", "wall", "cap")
_WIN_BY = (None, "dealt", "take", "draw")
_MASK64 = (1 << 64) - 1
_RECORDS: dict[tuple[int, ...], GameRecord] = {}


@jit
def _deal(key: Any, players: int, four_dice: bool, piece_kinds: Any, kinds: Any) -> int:
    """Shuffle into ``kinds`` (as kinds) and return the first seat; see
    bot.games.dominoes.sim.seeding."""
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


@jit
def _mix(z: Any) -> Any:
    # bot.games.dominoes.sim.seeding._mix on machine integers (uint64 arithmetic wraps as the
    # Python masks do).
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@jit
def _batch_range(
    ev: Any,
    flags: Any,
    codes: Any,
    total: Any,
    piece_kinds: Any,
    seed: Any,
    start: int,
    stop: int,
    four_dice: bool,
) -> Any:
    # Games start .. stop-1 of a run: the key of each is
    # bot.games.dominoes.sim.seeding.deal_key(seed, index),
    # computed here rather than in Python (half a microsecond a game there).
    games = stop - start
    out = np.zeros((games, 7), np.int64)
    kinds = np.empty(piece_kinds.shape[0], np.int64)
    mixed_seed = _mix(seed)
    for g in range(games):
        key = _mix(mixed_seed ^ (np.uint64(start + g) * np.uint64(0x9E3779B97F4A7C15)))
        first = _deal(key, flags[0], four_dice, piece_kinds, kinds)
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
    """Deal (:func:`bot.games.dominoes.sim.seeding.deal_from_key`) and play one game per key, in
    order."""
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


def play_games(
    rules: RuleSet, levels: Sequence[str], seed: int, start: int, stop: int, records: bool
) -> tuple[GameTally, list[GameRecord] | None]:
    """Deal and play games ``start .. stop-1`` of a run with ``seed`` (the deals of
    :func:`bot.games.dominoes.sim.seeding.deal_key` and ``deal_from_key``): their tally, and their
    records
    too if ``records`` (a list that pickles as its raw rows)."""
    codes = codes_for(rules, levels)
    total, piece_kinds = kind_tables(rules)
    four_dice = rules.first_player is FirstPlayer.FOUR_DICE
    rows = _batch_range(
        ev_array(rules),
        rule_flags(rules),
        codes,
        total,
        piece_kinds,
        np.uint64(seed & _MASK64),
        start,
        stop,
        four_dice,
    )
    tally = tally_rows(rows, rules.players)
    if not records:
        return tally, None
    batch = _Batch(_records(rows))
    batch.rows = rows.tobytes()
    return tally, batch


def tally_rows(rows: Any, players: int) -> GameTally:
    """The :class:`~bot.sim.stats.GameTally` of a batch's rows, counted by numpy (the same as
    :func:`bot.sim.stats.tally_games` of their records, without building them)."""
    first, winner, reason, win_by, turns = (rows[:, i] for i in range(5))
    won = winner >= 0
    turn_counts = np.bincount(turns[won]) if won.any() else np.zeros(0, np.int64)
    seats = np.bincount((winner[won] - first[won]) % players, minlength=players)
    reasons = np.bincount(reason, minlength=len(_REASON))
    how = np.bincount(win_by[won], minlength=len(_WIN_BY))
    dealt_first = won & (win_by == _WIN_BY.index("dealt")) & (winner == first)
    return GameTally(
        players=players,
        games=int(rows.shape[0]),
        turns={t: n for t, n in enumerate(turn_counts.tolist()) if n},
        seat_wins=seats.tolist(),
        reasons={_REASON[i]: n for i, n in enumerate(reasons.tolist()) if n},
        win_by={
            name: n for name, n in zip(_WIN_BY, how.tolist(), strict=True) if name is not None and n
        },
        takes=int(rows[:, 5].sum()),
        take_pool_total=int(rows[:, 6].sum()),
        dealt_wins_first_player=int(np.count_nonzero(dealt_first)),
    )


def compile_kernel() -> None:
    """Compile (or load from the disk cache) the kernel's game functions by playing one game."""
    from bot.engine import make_rules

    play_games(make_rules("kap-shap"), ("greedy", "expert"), 1, 0, 1, records=True)
