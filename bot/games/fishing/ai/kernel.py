"""Compiled Tsung Shap play-outs for the ``master`` level: the game and the expert policy on
small integer arrays, in machine code (numba).

The :class:`~bot.games.fishing.ai.master.MasterFishingPlayer` plays each candidate move out many
times
on random orders of the unseen tiles; through the engine and the Python expert one play-out
costs milliseconds, here it costs tens of microseconds, so a decision can afford thousands.

What is mirrored, line by line:

* the game (RULES.md §3, :mod:`bot.games.fishing.engine`): turning over, the opening tiles laid out,
  captures (pairs, triplets, sweeps and the relay tile after a sweep), placements, the end of a
  turn and of the game, for every rule flag (``four_two_value``, ``triplet_both_ends_only``,
  ``sweep_adds_pips``, ``second_may_capture_opening``, ``play_until_both_piles_empty``,
  ``auto_capture``). Claims never happen: the expert never declines a capture, and the master's
  candidates are the expert's (captures when there are any, else the two placements);
* :class:`bot.games.fishing.ai.players.ExpertFishingPlayer` without its exact endgame
(``exact_endgame``
  below 0): the same floating-point sums in the same order, so the same scores and the same
  set of best moves; ties are broken by the kernel's own random numbers (splitmix64).

``tests/ai/test_fishing_kernel.py`` plays thousands of deals both ways (every rule variant)
and checks that every move the kernel makes is one of the Python expert's best moves, legal in
the engine, and that the engine's final scores are the kernel's.

A row lives in an int64 buffer between ``lo`` and ``hi`` (it moves left and right as tiles
are placed and taken); hypothetical rows of the expert's look-ahead write one tile just
outside the ends and restore it afterwards, so nothing is allocated while a game is played.

Without numba (or with ``KAPSHAP_KERNEL=0``) :func:`available` is False and the master plays
out through the engine instead, with a far smaller budget.

Why one long file: the game and the policy above are mirrored from two Python modules into one
set of compiled functions that call each other on the same buffers; it is read, and tested,
as one mirror of the engine's rules and the expert's scores, which splitting would scatter.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

# Random numbers: splitmix64, the generator of bot.games.dominoes.sim.seeding and
# bot.games.collecting.ai.kernel.
from bot.ai.jit import available, below, jit, numpy_here, splitmix_next
from bot.engine import RuleSet
from bot.engine.tiles import KINDS
from bot.games.fishing.ai.players import _tables
from bot.games.fishing.engine import SWEEP_SCORE

with contextlib.suppress(ImportError):  # numpy comes with numba (the sim extra)
    import numpy as np

__all__ = [
    "PLACE_LEFT",
    "PLACE_RIGHT",
    "available",
    "continue_game",
    "flags_array",
    "play_game",
    "review_rollouts",
    "rollouts",
    "tables_array",
]

_N = len(KINDS)
_T0 = _N  # the triplet table follows the 21 pair scores in the tables array
_M0 = _T0 + _N**3  # then, per two kinds, the bits of the kinds that make a triplet with them

# Rule flags, in the flags array.
_F_BOTH_ENDS, _F_SWEEP_ADDS, _F_UNTIL_BOTH, _F_SECOND_CAPTURES, _F_AUTO = range(5)

# Actions: a capture is named by how it leaves the row (bot.games.fishing.ai.players's _DROP_*
# codes: the
# first tile, the last, the first two, the last two, the first and the last), then placements.
_DROP_L, _DROP_R, _DROP_LL, _DROP_RR, _DROP_LR = range(5)
PLACE_LEFT = 5
PLACE_RIGHT = 6

# The decision's context, in the int64 array ``ci``: ..., the bits of the unseen kinds.
_C_MINE, _C_THEIRS, _C_OPP, _C_AGAIN, _C_UNTIL, _C_END, _C_MARGIN, _C_NODDS, _C_BITS = range(9)
# In the float64 array ``work``: the chance of each unseen kind (0 for the others), from _W_P.
_W_P = 32

# Single-tile rows of the look-ahead, in the scratch array (each with a free slot either side).
_S_SWEPT = 4  # the new row after my sweep (after_capture)
_S_EMPTY = 12  # a tile laid on an empty row (reply)
_S_LEAF = 20  # the new row after the opponent's sweep (sweep_leaf, win_chance)
_SCRATCH = 32

_BUF = 256
_MID = 128
_LOG = 64
_SEED_MIX = 0x9E3779B97F4A7C15


@lru_cache(maxsize=16)
def tables_array(rules: RuleSet) -> Any:
    """Pair scores (per kind) and triplet totals (per ordered three kinds) of ``rules``."""
    # The Python expert's tables, laid out as the kernel reads them (the same numbers).
    tables = _tables(rules)
    tb = np.zeros(_M0 + _N**2, dtype=np.int64)
    for k in range(_N):
        tb[k] = tables.pair[k]
        for a in range(_N):
            for b in range(_N):
                best = tables.triplet[(k * _N + a) * _N + b]
                tb[_T0 + (k * _N + a) * _N + b] = best
                if best:
                    tb[_M0 + a * _N + b] |= 1 << k
    return tb


def flags_array(rules: RuleSet) -> Any:
    """The rule flags the play-outs need, as an int64 array."""
    return np.array(
        [
            rules.triplet_both_ends_only,
            rules.sweep_adds_pips,
            rules.play_until_both_piles_empty,
            rules.second_may_capture_opening,
            rules.auto_capture,
        ],
        dtype=np.int64,
    )


# -- captures ----------------------------------------------------------------------------------


@jit
def _t3(tb: Any, k: int, a: int, b: int) -> int:
    return int(tb[_T0 + (k * _N + a) * _N + b])


@jit
def _sweep_score(fl: Any, total: int) -> int:
    return SWEEP_SCORE + (total if fl[_F_SWEEP_ADDS] else 0)


@jit
def _best(tb: Any, fl: Any, buf: Any, lo: int, hi: int, k: int) -> int:
    # bot.games.fishing.ai.players._Tables.best
    size = hi - lo
    if size == 0:
        return 0
    first = buf[lo]
    last = buf[hi - 1]
    best = 0
    if first == k or (size >= 2 and last == k):
        best = int(tb[k])
    if size == 2:
        total = _t3(tb, k, first, last)
        if total:
            s = _sweep_score(fl, total)
            if s > best:
                best = s
    elif size >= 3:
        total = _t3(tb, k, first, last)
        if not fl[_F_BOTH_ENDS]:
            x = _t3(tb, k, first, buf[lo + 1])
            if x > total:
                total = x
            x = _t3(tb, k, buf[hi - 2], last)
            if x > total:
                total = x
        if total > best:
            best = total
    return best


@jit
def _moves(tb: Any, fl: Any, buf: Any, lo: int, hi: int, k: int, mv: Any, at: int) -> int:
    # bot.games.fishing.ai.players._Tables.moves, in the same order; a move is score * 16 + how * 2
    # + sweep,
    # written from mv[at]. Returns how many.
    size = hi - lo
    if size == 0:
        return 0
    n = 0
    first = buf[lo]
    last = buf[hi - 1]
    if first == k:
        mv[at + n] = tb[k] * 16 + _DROP_L * 2
        n += 1
    if size >= 2 and last == k:
        mv[at + n] = tb[k] * 16 + _DROP_R * 2
        n += 1
    if size == 2:
        total = _t3(tb, k, first, last)
        if total:
            mv[at + n] = _sweep_score(fl, total) * 16 + _DROP_LR * 2 + 1
            n += 1
    elif size >= 3:
        if not fl[_F_BOTH_ENDS]:
            total = _t3(tb, k, first, buf[lo + 1])
            if total:
                mv[at + n] = total * 16 + _DROP_LL * 2
                n += 1
            total = _t3(tb, k, buf[hi - 2], last)
            if total:
                mv[at + n] = total * 16 + _DROP_RR * 2
                n += 1
        total = _t3(tb, k, first, last)
        if total:
            mv[at + n] = total * 16 + _DROP_LR * 2
            n += 1
    return n


@jit
def _drop_lo(lo: int, how: int) -> int:
    if how in (_DROP_L, _DROP_LR):
        return lo + 1
    if how == _DROP_LL:
        return lo + 2
    return lo


@jit
def _drop_hi(hi: int, how: int) -> int:
    if how in (_DROP_R, _DROP_LR):
        return hi - 1
    if how == _DROP_RR:
        return hi - 2
    return hi


# -- the expert (bot.games.fishing.ai.players._Search)
# ---------------------------------------------------------


@jit
def _leaf(tb: Any, fl: Any, ci: Any, work: Any, buf: Any, lo: int, hi: int) -> float:
    # _Search.leaf: the sum over the unseen kinds in ascending order, skipping the kinds that
    # capture nothing on the row (their terms are 0.0 and leave the sum unchanged); the best
    # capture of each kind as _best computes it, inline.
    if not ci[_C_AGAIN]:
        return 0.0
    size = hi - lo
    if size == 0:
        return 0.0
    a = buf[lo]
    d = buf[hi - 1]
    bits = (1 << a) | (1 << d)
    if size == 1:
        bits &= ci[_C_BITS]
        return float(work[_W_P + a] * tb[a]) if bits else 0.0
    ad = _M0 + a * _N + d
    bits |= tb[ad]
    both = size >= 3 and not fl[_F_BOTH_ENDS]
    ab = cd = 0
    if both:
        ab = _M0 + a * _N + buf[lo + 1]
        cd = _M0 + buf[hi - 2] * _N + d
        bits |= tb[ab] | tb[cd]
    bits &= ci[_C_BITS]
    sweep = size == 2
    s = 0.0
    k = 0
    while bits:
        if bits & 1:
            best = tb[k] if (k in (a, d)) else 0
            t = tb[_T0 + (k * _N + a) * _N + d]
            if t:
                if sweep:
                    t = _sweep_score(fl, t)
                if t > best:
                    best = t
            if both:
                t = tb[_T0 + (k * _N + a) * _N + buf[lo + 1]]
                if t > best:
                    best = t
                t = tb[_T0 + (k * _N + buf[hi - 2]) * _N + d]
                if t > best:
                    best = t
            s += work[_W_P + k] * best
        bits >>= 1
        k += 1
    return s


@jit
def _sweep_leaf(
    tb: Any, fl: Any, ci: Any, ok: Any, op: Any, work: Any, sb: Any, memo: Any
) -> float:
    if memo[0] == 0.0:
        s = 0.0
        for j in range(ci[_C_NODDS]):
            sb[_S_LEAF] = ok[j]
            s += op[j] * _leaf(tb, fl, ci, work, sb, _S_LEAF, _S_LEAF + 1)
        memo[0] = 1.0
        memo[1] = s
    return float(memo[1])


@jit
def _reply(
    tb: Any,
    fl: Any,
    ci: Any,
    ok: Any,
    op: Any,
    work: Any,
    buf: Any,
    lo: int,
    hi: int,
    sb: Any,
    mv: Any,
    memo: Any,
) -> float:
    if not ci[_C_OPP]:
        return -_leaf(tb, fl, ci, work, buf, lo, hi)
    total = 0.0
    for j in range(ci[_C_NODDS]):
        kind = ok[j]
        n = _moves(tb, fl, buf, lo, hi, kind, mv, 8)
        if n:
            value = 0.0
            for m in range(n):
                code = mv[8 + m]
                score = code >> 4
                how = (code >> 1) & 7
                if code & 1:
                    v = score - _sweep_leaf(tb, fl, ci, ok, op, work, sb, memo)
                else:
                    v = score - _leaf(tb, fl, ci, work, buf, _drop_lo(lo, how), _drop_hi(hi, how))
                if m == 0 or v > value:
                    value = v
        elif hi == lo:
            sb[_S_EMPTY] = kind
            value = -_leaf(tb, fl, ci, work, sb, _S_EMPTY, _S_EMPTY + 1)
        else:
            keep = buf[lo - 1]
            buf[lo - 1] = kind
            a = _leaf(tb, fl, ci, work, buf, lo - 1, hi)
            buf[lo - 1] = keep
            if hi - lo == 1:
                b = a  # (kind, t) and (t, kind) capture alike: the same terms, the same sum
            else:
                keep = buf[hi]
                buf[hi] = kind
                b = _leaf(tb, fl, ci, work, buf, lo, hi + 1)
                buf[hi] = keep
            value = -(a if a <= b else b)
        total += op[j] * value
    return total


@jit
def _after_capture(
    tb: Any,
    fl: Any,
    ci: Any,
    ok: Any,
    op: Any,
    work: Any,
    buf: Any,
    lo: int,
    hi: int,
    score: int,
    sweep: int,
    sb: Any,
    mv: Any,
    memo: Any,
) -> float:
    if not sweep:
        return score - _reply(tb, fl, ci, ok, op, work, buf, lo, hi, sb, mv, memo)
    mine = ci[_C_MINE]
    if not ci[_C_UNTIL] and mine <= 1:
        return float(score)
    if mine == 0:
        return score - _reply(tb, fl, ci, ok, op, work, buf, lo, lo, sb, mv, memo)
    s = 0.0
    for j in range(ci[_C_NODDS]):
        sb[_S_SWEPT] = ok[j]
        s += op[j] * _reply(tb, fl, ci, ok, op, work, sb, _S_SWEPT, _S_SWEPT + 1, sb, mv, memo)
    return score - s


@jit
def _outcome(lead: int) -> float:
    if lead > 0:
        return 1.0
    if lead == 0:
        return 0.5
    return 0.0


@jit
def _win_chance(
    tb: Any,
    fl: Any,
    ci: Any,
    ok: Any,
    op: Any,
    work: Any,
    buf: Any,
    lo: int,
    hi: int,
    score: int,
    sweep: int,
    sb: Any,
) -> float:
    if not ci[_C_END]:
        return 0.0
    lead = ci[_C_MARGIN] + score
    if not ci[_C_OPP] or (sweep and not ci[_C_UNTIL] and ci[_C_MINE] <= 1):
        return _outcome(lead)
    s = 0.0
    nodds = ci[_C_NODDS]
    if sweep and ci[_C_MINE]:
        for r in range(nodds):
            sb[_S_LEAF] = ok[r]
            q = op[r]
            for j in range(nodds):
                b = _best(tb, fl, sb, _S_LEAF, _S_LEAF + 1, ok[j])
                s += q * op[j] * _outcome(lead - b)
    else:
        for j in range(nodds):
            b = _best(tb, fl, buf, lo, hi, ok[j])
            s += 1.0 * op[j] * _outcome(lead - b)
    return s


@jit
def _context(
    fl: Any, counts: Any, mine: int, theirs: int, margin: int, ci: Any, ok: Any, op: Any, work: Any
) -> None:
    # _Search.__init__ and _odds: the unseen kinds and their chances, who plays after this turn.
    total = 0
    for k in range(_N):
        total += counts[k]
    n = 0
    bits = 0
    for k in range(_N):
        work[_W_P + k] = 0.0
        if counts[k]:
            ok[n] = k
            op[n] = counts[k] / total
            work[_W_P + k] = op[n]
            bits |= 1 << k
            n += 1
    ci[_C_NODDS] = n
    ci[_C_BITS] = bits
    until = fl[_F_UNTIL_BOTH]
    if until:
        opp = theirs > 0
        again = mine > 0
    else:
        opp = mine > 0 and theirs > 0
        again = opp and theirs > 1
    ci[_C_MINE] = mine
    ci[_C_THEIRS] = theirs
    ci[_C_OPP] = 1 if opp else 0
    ci[_C_AGAIN] = 1 if again else 0
    ci[_C_UNTIL] = until
    ci[_C_END] = 1 if (not again and (not until or theirs <= 1)) else 0
    ci[_C_MARGIN] = margin


@jit
def _candidates(tb: Any, fl: Any, buf: Any, lo: int, hi: int, k: int, mv: Any) -> int:
    # The expert's candidates (the legal captures, else both placements) into mv[0:]:
    # captures as move codes, placements as PLACE_LEFT / PLACE_RIGHT (negative: -5, -6).
    n = _moves(tb, fl, buf, lo, hi, k, mv, 0)
    if n and fl[_F_AUTO]:
        top = 0
        for m in range(n):
            if mv[m] >> 4 > top:
                top = mv[m] >> 4
        kept = 0
        for m in range(n):
            if mv[m] >> 4 == top:
                mv[kept] = mv[m]
                kept += 1
        n = kept
    if n == 0:
        mv[0] = -PLACE_LEFT
        mv[1] = -PLACE_RIGHT
        n = 2
    return n


@jit
def _expert(
    tb: Any,
    fl: Any,
    buf: Any,
    lo: int,
    hi: int,
    k: int,
    counts: Any,
    mine: int,
    theirs: int,
    margin: int,
    work: Any,
    ci: Any,
    ok: Any,
    op: Any,
    sb: Any,
    mv: Any,
    memo: Any,
    rng: Any,
) -> int:
    """ExpertFishingPlayer.choose in the play phase (no exact endgame): a move code."""
    n = _candidates(tb, fl, buf, lo, hi, k, mv)
    if n == 1:
        return int(mv[0])  # one capture: nothing to weigh
    if n == 2 and hi - lo == 1 and mv[0] == -PLACE_LEFT:
        # (k, t) and (t, k) are mirror images, worth exactly the same: a tie.
        return int(mv[below(rng, 2)])
    _context(fl, counts, mine, theirs, margin, ci, ok, op, work)
    memo[0] = 0.0
    codes = work[0:8]
    chance = work[8:16]
    value = work[16:24]
    for m in range(n):
        codes[m] = mv[m]
    for m in range(n):
        code = int(codes[m])
        if code >= 0:
            score = code >> 4
            how = (code >> 1) & 7
            sweep = code & 1
            lo2 = _drop_lo(lo, how)
            hi2 = _drop_hi(hi, how)
            value[m] = _after_capture(
                tb, fl, ci, ok, op, work, buf, lo2, hi2, score, sweep, sb, mv, memo
            )
            chance[m] = _win_chance(tb, fl, ci, ok, op, work, buf, lo2, hi2, score, sweep, sb)
        elif code == -PLACE_LEFT:
            keep = buf[lo - 1]
            buf[lo - 1] = k
            value[m] = -_reply(tb, fl, ci, ok, op, work, buf, lo - 1, hi, sb, mv, memo)
            chance[m] = _win_chance(tb, fl, ci, ok, op, work, buf, lo - 1, hi, 0, 0, sb)
            buf[lo - 1] = keep
        else:
            keep = buf[hi]
            buf[hi] = k
            value[m] = -_reply(tb, fl, ci, ok, op, work, buf, lo, hi + 1, sb, mv, memo)
            chance[m] = _win_chance(tb, fl, ci, ok, op, work, buf, lo, hi + 1, 0, 0, sb)
            buf[hi] = keep
    top_c = chance[0]
    for m in range(1, n):
        if chance[m] > top_c:
            top_c = chance[m]
    top_v = -1e300
    for m in range(n):
        if chance[m] == top_c and value[m] > top_v:
            top_v = value[m]
    ties = 0
    for m in range(n):
        if chance[m] == top_c and value[m] >= top_v - 1e-9:
            mv[ties] = int(codes[m])
            ties += 1
    pick = mv[below(rng, ties)] if ties > 1 else mv[0]
    return int(pick)


# -- the game ----------------------------------------------------------------------------------


@jit
def _action(code: int) -> int:
    # A move code as an action number: the how of a capture (0-4) or PLACE_LEFT / PLACE_RIGHT.
    return -code if code < 0 else (code >> 1) & 7


@jit
def _play(
    tb: Any,
    fl: Any,
    piles: Any,
    plen: Any,
    pos: Any,
    counts: Any,
    buf: Any,
    lohi: Any,
    scores: Any,
    current: int,
    turn: int,
    log: Any,
    rng: Any,
    work: Any,
    ci: Any,
    ok: Any,
    op: Any,
    sb: Any,
    mv: Any,
    memo: Any,
) -> int:
    """Play from the start of ``current``'s turn to the end, the expert in both seats.

    ``log`` (if longer than 0) receives turn * 8 + action for every choice. Returns the winner,
    -1 for a draw."""
    n_log = 0
    until = fl[_F_UNTIL_BOTH]
    while True:
        seat = current
        lo = lohi[0]
        hi = lohi[1]
        k = piles[seat, pos[seat]]
        pos[seat] += 1
        counts[k] -= 1
        if hi == lo:
            buf[lo] = k
            hi = lo + 1
        elif turn == 2 and not fl[_F_SECOND_CAPTURES]:
            buf[hi] = k
            hi += 1
        else:
            mine = plen[seat] - pos[seat]
            theirs = plen[1 - seat] - pos[1 - seat]
            margin = scores[seat] - scores[1 - seat]
            code = _expert(
                tb, fl, buf, lo, hi, k, counts, mine, theirs, margin, work, ci, ok, op, sb, mv,
                memo, rng,
            )  # fmt: skip
            if n_log < log.shape[0]:
                log[n_log] = turn * 8 + _action(code)
                n_log += 1
            if code == -PLACE_LEFT:
                lo -= 1
                buf[lo] = k
            elif code == -PLACE_RIGHT:
                buf[hi] = k
                hi += 1
            else:
                how = (code >> 1) & 7
                scores[seat] += code >> 4
                lo = _drop_lo(lo, how)
                hi = _drop_hi(hi, how)
                if code & 1 and pos[seat] < plen[seat]:
                    k2 = piles[seat, pos[seat]]
                    pos[seat] += 1
                    counts[k2] -= 1
                    buf[lo] = k2
                    hi = lo + 1
        lohi[0] = lo
        lohi[1] = hi
        # _end_turn
        empty0 = pos[0] >= plen[0]
        empty1 = pos[1] >= plen[1]
        over = (empty0 and empty1) if until else (empty0 or empty1)
        if over:
            if n_log < log.shape[0]:
                log[n_log] = -1
            if scores[0] > scores[1]:
                return 0
            if scores[1] > scores[0]:
                return 1
            return -1
        following = 1 - seat
        if empty1 if following == 1 else empty0:
            following = seat
        current = following
        turn += 1


@jit
def _workspace() -> Any:
    return (
        np.zeros(64, np.float64),
        np.zeros(16, np.int64),
        np.zeros(_N, np.int64),
        np.zeros(_N, np.float64),
        np.zeros(_SCRATCH, np.int64),
        np.zeros(16, np.int64),
        np.zeros(2, np.float64),
    )


@jit
def _game(tb: Any, fl: Any, piles: Any, plen: Any, first: int, seed: Any, log: Any) -> Any:
    work, ci, ok, op, sb, mv, memo = _workspace()
    counts = np.zeros(_N, np.int64)
    for s in range(2):
        for i in range(plen[s]):
            counts[piles[s, i]] += 1
    buf = np.zeros(_BUF, np.int64)
    lohi = np.array([_MID, _MID], np.int64)
    scores = np.zeros(2, np.int64)
    pos = np.zeros(2, np.int64)
    rng = np.array([np.uint64(seed)], np.uint64)
    winner = _play(
        tb, fl, piles, plen, pos, counts, buf, lohi, scores, first, 1, log, rng, work, ci, ok,
        op, sb, mv, memo,
    )  # fmt: skip
    return scores, winner


def play_game(
    rules: RuleSet, piles: Sequence[Sequence[int]], first_seat: int, seed: int
) -> tuple[tuple[int, int], int | None, list[tuple[int, int]]]:
    """A whole game played by the kernel's experts (for tests): ``piles`` are the kinds each
    seat turns over, in order. Returns the scores, the winner (None: a draw) and the choices
    as (turn, action): the how of a capture (``_DROP_*``) or :data:`PLACE_LEFT` /
    :data:`PLACE_RIGHT`."""
    size = max(len(p) for p in piles)
    arr = np.zeros((2, max(1, size)), np.int64)
    for s in range(2):
        for i, kind in enumerate(piles[s]):
            arr[s, i] = kind
    plen = np.array([len(piles[0]), len(piles[1])], np.int64)
    log = np.full(_LOG, -1, np.int64)
    scores, winner = _game(
        tables_array(rules),
        flags_array(rules),
        arr,
        plen,
        first_seat,
        np.uint64(seed & (2**64 - 1)),
        log,
    )
    choices = [(int(x) // 8, int(x) % 8) for x in log if x >= 0]
    return (int(scores[0]), int(scores[1])), None if winner < 0 else int(winner), choices


# -- play-outs (the master) ----------------------------------------------------------------------


@jit
def _from_play(
    tb: Any,
    fl: Any,
    piles: Any,
    plen: Any,
    pos: Any,
    counts: Any,
    buf: Any,
    lohi: Any,
    scores: Any,
    row: Any,
    score0: int,
    score1: int,
    me: int,
    turn: int,
    turned: int,
    action: int,
    log: Any,
    rng: Any,
    work: Any,
    ci: Any,
    ok: Any,
    op: Any,
    sb: Any,
    mv: Any,
    memo: Any,
) -> int:
    """Play ``action`` for ``me`` (``turned`` in hand, ``row`` on the table, the rest of the
    piles in ``piles``), then the experts to the end. Returns the winner, -1 for a draw."""
    pos[0] = 0
    pos[1] = 0
    counts[:] = 0
    for s in range(2):
        for i in range(plen[s]):
            counts[piles[s, i]] += 1
    nrow = row.shape[0]
    for i in range(nrow):
        buf[_MID + i] = row[i]
    lo = _MID
    hi = _MID + nrow
    scores[0] = score0
    scores[1] = score1
    if action == PLACE_LEFT:
        lo -= 1
        buf[lo] = turned
    elif action == PLACE_RIGHT:
        buf[hi] = turned
        hi += 1
    else:
        n = _moves(tb, fl, buf, lo, hi, turned, mv, 0)
        code = 0
        for m in range(n):
            if (mv[m] >> 1) & 7 == action:
                code = mv[m]
        scores[me] += code >> 4
        lo = _drop_lo(lo, action)
        hi = _drop_hi(hi, action)
        if code & 1 and pos[me] < plen[me]:
            k2 = piles[me, 0]
            pos[me] = 1
            counts[k2] -= 1
            buf[lo] = k2
            hi = lo + 1
    lohi[0] = lo
    lohi[1] = hi
    empty0 = pos[0] >= plen[0]
    empty1 = pos[1] >= plen[1]
    over = (empty0 and empty1) if fl[_F_UNTIL_BOTH] else (empty0 or empty1)
    if over:
        if log.shape[0]:
            log[0] = -1
        return 0 if scores[0] > scores[1] else 1 if scores[1] > scores[0] else -1
    following = 1 - me
    if empty1 if following == 1 else empty0:
        following = me
    return _play(
        tb, fl, piles, plen, pos, counts, buf, lohi, scores, following, turn + 1, log, rng,
        work, ci, ok, op, sb, mv, memo,
    )  # fmt: skip


@jit
def _continue(
    tb: Any,
    fl: Any,
    row: Any,
    score0: int,
    score1: int,
    me: int,
    turn: int,
    turned: int,
    piles: Any,
    plen: Any,
    action: int,
    seed: Any,
    log: Any,
) -> Any:
    work, ci, ok, op, sb, mv, memo = _workspace()
    pos = np.zeros(2, np.int64)
    counts = np.zeros(_N, np.int64)
    buf = np.zeros(_BUF, np.int64)
    lohi = np.zeros(2, np.int64)
    scores = np.zeros(2, np.int64)
    rng = np.array([seed], np.uint64)
    winner = _from_play(
        tb, fl, piles, plen, pos, counts, buf, lohi, scores, row, score0, score1, me, turn,
        turned, action, log, rng, work, ci, ok, op, sb, mv, memo,
    )  # fmt: skip
    return scores, winner


def continue_game(
    rules: RuleSet,
    row: Sequence[int],
    scores: Sequence[int],
    me: int,
    turn: int,
    turned: int,
    piles: Sequence[Sequence[int]],
    action: int,
    seed: int,
) -> tuple[tuple[int, int], int | None, list[tuple[int, int]]]:
    """One play-out as :func:`rollouts` plays it, on the given ``piles`` (for tests): ``me``
    plays ``action`` with ``turned`` in hand, then the experts play to the end. Returns the
    scores, the winner (None: a draw) and the experts' choices as (turn, action)."""
    arr = np.zeros((2, max(1, *(len(p) for p in piles))), np.int64)
    for s in range(2):
        for i, kind in enumerate(piles[s]):
            arr[s, i] = kind
    log = np.full(_LOG, -1, np.int64)
    out, winner = _continue(
        tables_array(rules), flags_array(rules), np.array(row, np.int64), scores[0], scores[1],
        me, turn, turned, arr, np.array([len(piles[0]), len(piles[1])], np.int64), action,
        np.uint64(seed & (2**64 - 1)), log,
    )  # fmt: skip
    choices = [(int(x) // 8, int(x) % 8) for x in log if x >= 0]
    return (int(out[0]), int(out[1])), None if winner < 0 else int(winner), choices


@jit
def _rollouts(
    tb: Any,
    fl: Any,
    row: Any,
    score0: int,
    score1: int,
    me: int,
    turn: int,
    turned: int,
    sizes: Any,
    unseen: Any,
    cands: Any,
    deals: int,
    seed: Any,
    known: Any,
    points: float,
) -> Any:
    """Every candidate (an action number) played out on ``deals`` orders of the unseen tiles
    (or on the orders ``known``, when it has rows): 1 when ``me`` wins, 1/2 for a draw, plus
    ``points`` times ``me``'s final lead in points."""
    work, ci, ok, op, sb, mv, memo = _workspace()
    nc = cands.shape[0]
    out = np.zeros((deals, nc), np.float64)
    total = unseen.shape[0]
    shuffled = unseen.copy()
    width = max(1, max(sizes[0], sizes[1]))
    piles = np.zeros((2, width), np.int64)
    plen = np.zeros(2, np.int64)
    plen[0] = sizes[0]
    plen[1] = sizes[1]
    pos = np.zeros(2, np.int64)
    counts = np.zeros(_N, np.int64)
    buf = np.zeros(_BUF, np.int64)
    lohi = np.zeros(2, np.int64)
    scores = np.zeros(2, np.int64)
    log = np.zeros(0, np.int64)
    rng = np.zeros(1, np.uint64)
    master = np.array([np.uint64(seed)], np.uint64)
    for d in range(deals):
        if known.shape[0]:
            for s in range(2):
                for i in range(sizes[s]):
                    piles[s, i] = known[d % known.shape[0], s, i]
        else:
            for i in range(total - 1, 0, -1):
                j = below(master, i + 1)
                t = shuffled[i]
                shuffled[i] = shuffled[j]
                shuffled[j] = t
            at = 0
            for s in (me, 1 - me):
                for i in range(sizes[s]):
                    piles[s, i] = shuffled[at]
                    at += 1
        tie_seed = splitmix_next(master)
        for c in range(nc):
            rng[0] = tie_seed
            winner = _from_play(
                tb, fl, piles, plen, pos, counts, buf, lohi, scores, row, score0, score1, me,
                turn, turned, cands[c], log, rng, work, ci, ok, op, sb, mv, memo,
            )  # fmt: skip
            out[d, c] = 0.5 if winner < 0 else (1.0 if winner == me else 0.0)
            if points:
                out[d, c] += points * (scores[me] - scores[1 - me])
    return out


def rollouts(
    rules: RuleSet,
    row: Sequence[int],
    scores: Sequence[int],
    me: int,
    turn: int,
    turned: int,
    pile_sizes: Sequence[int],
    unseen: Sequence[int],
    candidates: Sequence[int],
    deals: int,
    seed: int,
    known: Sequence[Sequence[Sequence[int]]] = (),
    points: float = 0.0,
) -> list[list[float]]:
    """Play-out scores of ``me``'s candidates (action numbers: the how of a capture, or
    :data:`PLACE_LEFT` / :data:`PLACE_RIGHT`) in the play phase, ``turned`` in hand: a row per
    deal, a column per candidate, 1 for a win, 1/2 for a draw. The deals are random orders of
    the ``unseen`` kinds cut into the piles at ``pile_sizes`` (after the turned tile), both
    seats played by the expert; every candidate is played on the same orders with the same
    tie-breaks.

    ``known`` (benchmarks only, never at a table): the true remaining piles, ``known[0][s]``
    the kinds seat ``s`` will turn over, used instead of random orders (perfect information).
    ``points``: each score also counts this much per point of ``me``'s final lead.
    """
    width = max(1, *pile_sizes)
    if known:
        arr = np.zeros((len(known), 2, width), np.int64)
        for d, piles in enumerate(known):
            for s in range(2):
                for i, kind in enumerate(piles[s]):
                    arr[d, s, i] = kind
    else:
        arr = np.zeros((0, 2, width), np.int64)
    out = _rollouts(
        tables_array(rules), flags_array(rules), np.array(row, np.int64), scores[0], scores[1],
        me, turn, turned, np.array(pile_sizes, np.int64), np.array(unseen, np.int64),
        np.array(candidates, np.int64), deals, np.uint64(seed & (2**64 - 1)), arr, float(points),
    )  # fmt: skip
    return [[float(x) for x in line] for line in out]


# -- play-outs from the start of a turn (the review) ---------------------------------------------


@jit
def _from_turn(
    tb: Any,
    fl: Any,
    piles: Any,
    plen: Any,
    pos: Any,
    counts: Any,
    buf: Any,
    lohi: Any,
    scores: Any,
    row: Any,
    nrow: int,
    score0: int,
    score1: int,
    current: int,
    turn: int,
    relay: int,
    log: Any,
    rng: Any,
    work: Any,
    ci: Any,
    ok: Any,
    op: Any,
    sb: Any,
    mv: Any,
    memo: Any,
) -> int:
    """Play from the start of ``current``'s turn ``turn`` (the first ``nrow`` tiles of ``row``
    on the table, the rest of the piles in ``piles``), the experts to the end. With ``relay``
    a seat, that seat has just swept in turn ``turn``: he first lays his next tile as the new
    row and his turn ends (``_from_play``'s sweep). Returns the winner, -1 for a draw."""
    pos[0] = 0
    pos[1] = 0
    counts[:] = 0
    for s in range(2):
        for i in range(plen[s]):
            counts[piles[s, i]] += 1
    for i in range(nrow):
        buf[_MID + i] = row[i]
    lo = _MID
    hi = _MID + nrow
    scores[0] = score0
    scores[1] = score1
    if relay >= 0:
        if pos[relay] < plen[relay]:
            k2 = piles[relay, 0]
            pos[relay] = 1
            counts[k2] -= 1
            buf[lo] = k2
            hi = lo + 1
        empty0 = pos[0] >= plen[0]
        empty1 = pos[1] >= plen[1]
        over = (empty0 and empty1) if fl[_F_UNTIL_BOTH] else (empty0 or empty1)
        if over:
            return 0 if scores[0] > scores[1] else 1 if scores[1] > scores[0] else -1
        current = 1 - relay
        if empty1 if current == 1 else empty0:
            current = relay
        turn += 1
    lohi[0] = lo
    lohi[1] = hi
    return _play(
        tb, fl, piles, plen, pos, counts, buf, lohi, scores, current, turn, log, rng, work, ci,
        ok, op, sb, mv, memo,
    )  # fmt: skip


@jit
def _review_rollouts(
    tb: Any,
    fl: Any,
    rows: Any,
    nrows: Any,
    starts: Any,
    sizes: Any,
    unseen: Any,
    me: int,
    deals: int,
    seed: Any,
) -> Any:
    """Each start (a row of ``starts``: score 0, score 1, seat to turn over, turn, relay seat
    or -1; its row the first ``nrows[c]`` tiles of ``rows[c]``) played to the end on ``deals``
    orders of the ``unseen`` kinds cut into piles of ``sizes``: 1 when ``me`` wins, else 0.
    Every start is played on the same orders with the same tie-breaks."""
    work, ci, ok, op, sb, mv, memo = _workspace()
    nc = starts.shape[0]
    out = np.zeros((deals, nc), np.float64)
    total = unseen.shape[0]
    shuffled = unseen.copy()
    width = max(1, max(sizes[0], sizes[1]))
    piles = np.zeros((2, width), np.int64)
    plen = np.zeros(2, np.int64)
    plen[0] = sizes[0]
    plen[1] = sizes[1]
    pos = np.zeros(2, np.int64)
    counts = np.zeros(_N, np.int64)
    buf = np.zeros(_BUF, np.int64)
    lohi = np.zeros(2, np.int64)
    scores = np.zeros(2, np.int64)
    log = np.zeros(0, np.int64)
    rng = np.zeros(1, np.uint64)
    master = np.array([np.uint64(seed)], np.uint64)
    for d in range(deals):
        for i in range(total - 1, 0, -1):
            j = below(master, i + 1)
            t = shuffled[i]
            shuffled[i] = shuffled[j]
            shuffled[j] = t
        at = 0
        for s in (me, 1 - me):
            for i in range(sizes[s]):
                piles[s, i] = shuffled[at]
                at += 1
        tie_seed = splitmix_next(master)
        for c in range(nc):
            rng[0] = tie_seed
            winner = _from_turn(
                tb, fl, piles, plen, pos, counts, buf, lohi, scores, rows[c], nrows[c],
                starts[c, 0], starts[c, 1], starts[c, 2], starts[c, 3], starts[c, 4], log, rng,
                work, ci, ok, op, sb, mv, memo,
            )  # fmt: skip
            out[d, c] = 1.0 if winner == me else 0.0
    return out


def review_rollouts(
    rules: RuleSet,
    starts: Sequence[tuple[Sequence[int], int, int, int, int, int]],
    pile_sizes: Sequence[int],
    unseen: Sequence[int],
    me: int,
    deals: int,
    seed: int,
) -> list[list[float]]:
    """Play-outs from the start of a turn, for the review's estimates: a row per deal, a
    column per start, 1 when ``me`` wins and 0 otherwise (a drawn game is not a win).

    A start is ``(row, score 0, score 1, seat to turn over, turn, relay)``: the row's kinds
    left to right, and ``relay`` the seat that has just swept (he lays his next tile as the
    new row first; -1: nobody). The deals are random orders of the ``unseen`` kinds cut into
    the piles at ``pile_sizes``, both seats played by the expert (without its exact endgame,
    as :func:`rollouts`); every start is played on the same orders with the same tie-breaks.
    """
    width = max([1, *(len(start[0]) for start in starts)])
    rows = np.zeros((len(starts), width), np.int64)
    nrows = np.zeros(len(starts), np.int64)
    table = np.zeros((len(starts), 5), np.int64)
    for c, (row, score0, score1, current, turn, relay) in enumerate(starts):
        rows[c, : len(row)] = row
        nrows[c] = len(row)
        table[c] = (score0, score1, current, turn, relay)
    out = _review_rollouts(
        tables_array(rules), flags_array(rules), rows, nrows, table,
        np.array(pile_sizes, np.int64), np.array(unseen, np.int64), me, deals,
        np.uint64(seed & (2**64 - 1)),
    )  # fmt: skip
    return [[float(x) for x in line] for line in out]


def ready() -> bool:
    """Whether the compiled play-outs can run here."""
    return available() and numpy_here()
