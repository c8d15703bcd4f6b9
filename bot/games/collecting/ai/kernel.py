"""The compiled kernel: hand evaluation, the greedy and expert decisions and whole collecting
games in machine code (numba), for the simulator and for the master level's rollouts.

This module is optional. It needs ``numba`` (and so ``numpy``), which come with the simulator's
extra (``pip install .[sim]``); the bot and the terminal client run without it. Without numba
:func:`available` is False: the simulator uses its pure-Python fast path
(:mod:`bot.games.collecting.sim.fast`),
which stays the oracle (the kernel plays exactly its games for the same rules, deal and levels:
``tests/sim/test_kernel.py``), and the master level searches with the same functions
uncompiled when numpy is there, or falls back to the expert's decision when it is not.
``KAPSHAP_KERNEL=0`` in the environment switches the kernel off. Those switches, the ``jit``
decorator and the random numbers (splitmix64) are :mod:`bot.ai.jit`'s, shared with the Tsung
Shap kernel.

Why it is fast, mirroring :mod:`bot.games.collecting.sim.fast` line by line:

* A hand is an array of 21 small counts, not a 336-bit int; the unseen, face-up and known
  tiles of every seat are arrays too, updated in place.
* Hands are evaluated in closed form on every call instead of through memo tables: the pair
  steps of :class:`bot.games.collecting.ai.core.HandEvaluator` (precomputed per rule signature,
  copied into one
  array) make one evaluation about a hundred nanoseconds, cheaper than one dictionary look-up
  in the interpreter.
* No allocation in the hot functions, and one array for all the tables of a rule signature
  (every call between compiled functions counts references to each array it passes).

The first call compiles the kernel (see ``docs/benchmarks.md`` for the time); the machine code
is cached on disk next to this file (numba's ``cache=True``, or ``NUMBA_CACHE_DIR``) and reused
by later processes, including the simulator's worker processes.

Levels: ``greedy`` and ``expert`` (codes 1 and 2). ``random`` draws from Python's Mersenne
Twister and stays in Python.

Why one long file: it is read beside :mod:`bot.games.collecting.sim.fast`, whose functions it
mirrors one for
one in the same order (a change to one is made to the other, and ``tests/sim/test_kernel.py``
compares them game by game); the compiled functions call each other by name and numba caches
them per module, so splitting the mirror would only scatter it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from bot.ai.jit import available, below, jit, numpy_here, splitmix_next
from bot.engine import Offer, RuleSet
from bot.engine.errors import RulesError
from bot.engine.tiles import PIECE_KINDS, PIECES_PER_SET
from bot.games.collecting.ai.core import KIND_COUNT, evaluator_for
from bot.games.collecting.ai.expert import DANGER, POOL_OUTS

with contextlib.suppress(ImportError):  # numpy comes with numba (the sim extra)
    import numpy as np

__all__ = [
    "KERNEL_LEVELS",
    "available",
    "codes_for",
    "ev_array",
    "kind_tables",
    "numpy_here",
    "play_kinds",
    "rollout_scores",
    "rollouts",
    "rule_flags",
]


KERNEL_LEVELS: dict[str, int] = {"greedy": 1, "expert": 2}
"""AI levels the kernel plays (the codes it knows them by)."""

_GREEDY, _EXPERT = 1, 2
_DRAW = -1  # decision: draw (take phase) / declare (discard phase)
_WILD = 10
_PAIR_A = (1, 2, 3, 4)
_PAIR_B = (9, 8, 7, 6)

# Chances of expert.completion_risk, repeated here as plain floats for the compiled code.
_P_KIND_PASSED = 0.005
_P_RESIDUE_PASSED = 0.05
_P_RESIDUE_DISCARDED = 0.03
_P_OTHER = 0.2
_DANGER = float(DANGER)
_POOL_OUTS = int(POOL_OUTS)


# -- hand evaluation ---------------------------------------------------------------------------
#
# ``ev`` is one int64 array describing one rule signature (see ev_array); one array rather than
# a tuple of arrays because every call between compiled functions counts references to each array
# it passes. Its parts, at the offsets below:
#   _O_STEPS    HandEvaluator._steps, flat: ((class * 3 + side) * 256 + a * 16 + b) * 5 + field,
#               fields (twos, ones, cap, short, long)
#   _O_RES      residue class of each kind (_WILD for a wild tile)
#   _O_ISEYE    1 if the kind may be the eye
#   _O_PLACE    (pair class, side) of each residue
#   _O_EYEN     eye kinds per residue class
#   _O_NCLASS   how many residue classes hold an eye kind; _O_CLASSES: those classes, ascending
#   _O_BITS     kind bits of a set of residue classes (2048 entries)
#   _O_SUPPLY   copies the sets hold per residue class
#   _O_SCAL     hand size, pairs, wild (0/1), residues present (bits)
#   _O_WORK     scratch space of _solve (64)
#   _O_NEYES    how many kinds may be the eye; _O_EYES: those kinds

_O_STEPS = 0
_O_RES = 6 * 3 * 256 * 5
_O_ISEYE = _O_RES + 21
_O_PLACE = _O_ISEYE + 21
_O_EYEN = _O_PLACE + 20
_O_NCLASS = _O_EYEN + 11
_O_CLASSES = _O_NCLASS + 1
_O_BITS = _O_CLASSES + 11
_O_SUPPLY = _O_BITS + 2048
_O_SCAL = _O_SUPPLY + 11
_O_WORK = _O_SCAL + 4
_O_NEYES = _O_WORK + 64
_O_EYES = _O_NEYES + 1
_EV_SIZE = _O_EYES + 21


@jit
def _pair_overlap(
    held: Any, wild_held: int, eye_class: int, supply0: Any, p: int, wild: int
) -> int:
    # HandEvaluator._pair_overlap without the memo (held: residue counts 0..9).
    supply = supply0.copy()
    supply[eye_class] -= 2
    if wild:
        ws = supply[_WILD]
        supply[3] += ws
        supply[6] += ws
    best = -1
    r = held.copy()
    for sixes in range(wild_held + 1):
        for i in range(10):
            r[i] = held[i]
        if wild_held:
            r[3] += wild_held - sixes
            r[6] += sixes
        twos = 0
        ones = 0
        room = 0
        for c in range(4):
            a_res = _PAIR_A[c]
            b_res = _PAIR_B[c]
            a = r[a_res]
            b = r[b_res]
            cap = min(supply[a_res], supply[b_res])
            room += cap
            lo = a if a < b else b
            hi = b if a < b else a
            t = lo if lo < cap else cap
            twos += t
            ones += (hi if hi < cap else cap) - t
        for res in (0, 5):
            a = r[res]
            cap = supply[res] // 2
            room += cap
            t = a // 2 if a // 2 < cap else cap
            twos += t
            if a & 1 and t < cap:
                ones += 1
        if room < p:
            continue
        value = 2 * min(p, twos) + min(max(p - twos, 0), ones)
        if value > best:
            best = value
    return best


@jit
def _solve(ev: Any, counts: Any) -> tuple[int, int, int]:
    """``(missing, residue bits, eye groups)``; groups: bit 2q+m for class q held m times."""
    hand_size = ev[_O_SCAL]
    p = ev[_O_SCAL + 1]
    wild = ev[_O_SCAL + 2]
    # Scratch space (no allocation per call: this runs millions of times): residue counts at
    # 0-10, eye kinds held once per class at 11-21, twice or more at 22-32.
    work = ev[_O_WORK : _O_WORK + 33]
    for i in range(33):
        work[i] = 0
    for k in range(21):
        c = counts[k]
        if c:
            q = ev[_O_RES + k]
            work[q] += c
            if ev[_O_ISEYE + k]:
                if c == 1:
                    work[11 + q] += 1
                else:
                    work[22 + q] += 1
    if wild:
        return _solve_general(ev, work[0:11], work[11:22], work[22:33])
    steps = ev
    # steps is flat: ((class * 3 + side) * 256 + a * 16 + b) * 5 + field.
    i0 = (work[1] * 16 + work[9]) * 5
    i1 = (768 + work[2] * 16 + work[8]) * 5
    i2 = (1536 + work[3] * 16 + work[7]) * 5
    i3 = (2304 + work[4] * 16 + work[6]) * 5
    i4 = (3072 + work[0] * 16) * 5
    i5 = (3840 + work[5] * 16) * 5
    twos = steps[i0] + steps[i1] + steps[i2] + steps[i3] + steps[i4] + steps[i5]
    ones = (
        steps[i0 + 1] + steps[i1 + 1] + steps[i2 + 1] + steps[i3 + 1] + steps[i4 + 1]
        + steps[i5 + 1]
    )  # fmt: skip
    room = (
        steps[i0 + 2] + steps[i1 + 2] + steps[i2 + 2] + steps[i3 + 2] + steps[i4 + 2]
        + steps[i5 + 2]
    )  # fmt: skip
    short_all = (
        steps[i0 + 3] | steps[i1 + 3] | steps[i2 + 3] | steps[i3 + 3] | steps[i4 + 3]
        | steps[i5 + 3]
    )  # fmt: skip
    long_all = (
        steps[i0 + 4] | steps[i1 + 4] | steps[i2 + 4] | steps[i3 + 4] | steps[i4 + 4]
        | steps[i5 + 4]
    )  # fmt: skip
    pairs_alone = 2 * twos + min(p - twos, ones) if twos < p else 2 * p
    best = -1
    residue_bits = 0
    groups = 0
    for m in range(2, -1, -1):
        if m + pairs_alone < best:
            break
        for qi in range(ev[_O_NCLASS]):
            q = ev[_O_CLASSES + qi]
            if m == 2:
                if not work[22 + q]:
                    continue
            elif m == 1:
                if not work[11 + q]:
                    continue
            elif work[11 + q] + work[22 + q] >= ev[_O_EYEN + q]:
                continue
            ci = ev[_O_PLACE + 2 * q]
            side = ev[_O_PLACE + 2 * q + 1]
            if ci == 0:
                b0 = i0
            elif ci == 1:
                b0 = i1
            elif ci == 2:
                b0 = i2
            elif ci == 3:
                b0 = i3
            elif ci == 4:
                b0 = i4
            else:
                b0 = i5
            # The same class and held counts with the eye on ``side``, m copies fewer held.
            b1 = b0 + (side * 256 - m * (16 if side == 1 else 1)) * 5
            bt = steps[b0]
            bo = steps[b0 + 1]
            bc = steps[b0 + 2]
            bmask = ~(steps[b0 + 3] | steps[b0 + 4])
            if room - bc + steps[b1 + 2] < p:
                continue
            t = steps[b1] + twos - bt
            if t >= p:
                value = m + 2 * p
                helps = 0
            else:
                o = steps[b1 + 1] + ones - bo
                rest = p - t
                value = m + 2 * t + (rest if rest < o else o)
                if value < best:
                    continue
                helps = (short_all & bmask) | steps[b1 + 3]
                if o < rest:
                    helps |= (long_all & bmask) | steps[b1 + 4]
            if value > best:
                best = value
                residue_bits = helps
                groups = (1 << (2 * q + m)) if m < 2 else 0
            elif value == best:
                residue_bits |= helps
                if m < 2:
                    groups |= 1 << (2 * q + m)
    return hand_size - best, residue_bits, groups


@jit
def _solve_general(ev: Any, h: Any, n1: Any, n2: Any) -> tuple[int, int, int]:
    # HandEvaluator._solve_general: any 4-2 value, including wild (h[10] = wild tiles held).
    hand_size = ev[_O_SCAL]
    p = ev[_O_SCAL + 1]
    wild = ev[_O_SCAL + 2]
    present = ev[_O_SCAL + 3]
    eye_n = ev[_O_EYEN : _O_EYEN + 11]
    supply = ev[_O_SUPPLY : _O_SUPPLY + 11]
    held = h[:10].copy()
    wild_held = h[_WILD]
    best = -1
    nopt = 0
    opt = np.empty((33, 4), np.int64)  # value, q, m, wild held
    for qi in range(ev[_O_NCLASS]):
        q = ev[_O_CLASSES + qi]
        for m in range(3):
            n = eye_n[q] - n1[q] - n2[q] if m == 0 else (n1[q] if m == 1 else n2[q])
            if not n:
                continue
            if q == _WILD:
                wh = wild_held - m
            else:
                wh = wild_held
                held[q] -= m
            pairs = _pair_overlap(held, wh, q, supply, p, wild)
            if q != _WILD:
                held[q] += m
            if pairs < 0:
                continue
            value = m + pairs
            opt[nopt, 0] = value
            opt[nopt, 1] = q
            opt[nopt, 2] = m
            opt[nopt, 3] = wh
            nopt += 1
            if value > best:
                best = value
    residue_bits = 0
    groups = 0
    for i in range(nopt):
        value = opt[i, 0]
        if value != best:
            continue
        q = opt[i, 1]
        m = opt[i, 2]
        wh = opt[i, 3]
        if m < 2:
            groups |= 1 << (2 * q + m)
        base = value - m
        if q != _WILD:
            held[q] -= m
        for r in range(10):
            if present >> r & 1 and not residue_bits >> r & 1:
                held[r] += 1
                if _pair_overlap(held, wh, q, supply, p, wild) > base:
                    residue_bits |= 1 << r
                held[r] -= 1
        if (
            wild
            and not residue_bits >> _WILD & 1
            and _pair_overlap(held, wh + 1, q, supply, p, wild) > base
        ):
            residue_bits |= 1 << _WILD
        if q != _WILD:
            held[q] += m
    return hand_size - best, residue_bits, groups


@jit
def _info(ev: Any, counts: Any) -> tuple[int, int]:
    """``(missing, kind bits of the improving kinds)`` (HandEvaluator.info)."""
    missing, residue_bits, groups = _solve(ev, counts)
    bits = ev[_O_BITS + residue_bits]
    if groups:
        for i in range(ev[_O_NEYES]):
            e = ev[_O_EYES + i]
            c = counts[e]
            if c < 2 and groups >> (2 * ev[_O_RES + e] + c) & 1:
                bits |= 1 << e
    return missing, bits


@jit
def _weight(bits: int, vec: Any) -> int:
    total = 0
    for k in range(21):
        if bits >> k & 1:
            total += vec[k]
    return total


# -- greedy ------------------------------------------------------------------------------------


@jit
def _best_discard(ev: Any, hand: Any, unseen: Any, banned: int) -> tuple[int, int, int]:
    # greedy.best_discard: fewest missing, most outs, highest kind.
    best_missing = 99
    best_outs = -1
    best_kind = -1
    for k in range(20, -1, -1):
        if k == banned or not hand[k]:
            continue
        hand[k] -= 1
        missing, bits = _info(ev, hand)
        hand[k] += 1
        outs = _weight(bits, unseen)
        if missing < best_missing or (missing == best_missing and outs > best_outs):
            best_missing = missing
            best_outs = outs
            best_kind = k
    return best_missing, best_outs, best_kind


@jit
def _greedy_discard(ev: Any, hand: Any, unseen: Any, just_taken: int) -> int:
    if _solve(ev, hand)[0] == 0:
        return _DRAW
    return _best_discard(ev, hand, unseen, just_taken)[2]


@jit
def _forced_take(ev: Any, hand: Any, unseen: Any, takeable: Any) -> int:
    best_set = False
    best_a = 0
    best_b = 0
    best_kind = _DRAW
    for k in range(21):
        if not takeable[k]:
            continue
        hand[k] += 1
        if _solve(ev, hand)[0] == 0:
            hand[k] -= 1
            return k
        missing, outs, _ = _best_discard(ev, hand, unseen, k)
        hand[k] -= 1
        a = -missing
        if not best_set or a > best_a or (a == best_a and outs > best_b):
            best_set = True
            best_a = a
            best_b = outs
            best_kind = k
    return best_kind


@jit
def _greedy_take(ev: Any, hand: Any, unseen: Any, takeable: Any, can_draw: bool) -> int:
    missing, bits = _info(ev, hand)
    first = -1
    n = 0
    for k in range(21):
        if bits >> k & 1 and takeable[k]:
            if first < 0:
                first = k
            n += 1
    if n == 0:
        return _DRAW if can_draw else _forced_take(ev, hand, unseen, takeable)
    if missing == 1 or n == 1:
        return first
    target = missing - 1
    best_kind = _DRAW
    best_outs = -1
    for k in range(21):
        if not (bits >> k & 1 and takeable[k]):
            continue
        hand[k] += 1
        best = -1
        for d in range(21):
            if d == k or not hand[d]:
                continue
            hand[d] -= 1
            m, b = _info(ev, hand)
            hand[d] += 1
            if m == target:
                outs = _weight(b, unseen)
                if outs > best:
                    best = outs
        hand[k] -= 1
        if best > best_outs:
            best_kind = k
            best_outs = best
    return best_kind


# -- expert ------------------------------------------------------------------------------------


@jit
def _risk(
    ev: Any, seat: int, players: int, any_offer: bool, passed: Any, recent: Any, discarded: Any
) -> Any:
    # expert.completion_risk, operation for operation (the floats come out bit-identical).
    safe = np.ones(21, np.float64)
    for s0 in range(players):
        if any_offer:
            if s0 == seat:
                continue
            s = s0
        else:
            if s0 > 0:
                break
            s = (seat + 1) % players
        passed_res = 0
        discarded_res = 0
        for k in range(21):
            if passed[s, k] or recent[s, k]:
                passed_res |= 1 << ev[_O_RES + k]
            if discarded[s, k]:
                discarded_res |= 1 << ev[_O_RES + k]
        for k in range(21):
            bit = 1 << ev[_O_RES + k]
            if passed[s, k] or recent[s, k]:
                pr = _P_KIND_PASSED
            elif passed_res & bit:
                pr = _P_RESIDUE_PASSED
            elif discarded_res & bit:
                pr = _P_RESIDUE_DISCARDED
            else:
                pr = _P_OTHER
            safe[k] *= 1.0 - pr
    out = np.empty(21, np.float64)
    for k in range(21):
        out[k] = 1.0 - safe[k]
    return out


@jit
def _hand_score(ev: Any, hand: Any, unseen: Any, pool: Any) -> tuple[int, int]:
    missing, bits = _info(ev, hand)
    return missing, _weight(bits, unseen) + _POOL_OUTS * _weight(bits, pool)


@jit
def _expert_best(
    ev: Any, hand: Any, banned: int, unseen: Any, pool: Any, risk: Any
) -> tuple[int, float, int]:
    # expert._best_discard: (missing, danger - outs) smallest, highest kind on ties.
    best_m = 99
    best_v = 0.0
    best_kind = -1
    for k in range(20, -1, -1):
        if k == banned or not hand[k]:
            continue
        hand[k] -= 1
        missing, outs = _hand_score(ev, hand, unseen, pool)
        hand[k] += 1
        v = _DANGER * risk[k] - outs
        if best_kind < 0 or missing < best_m or (missing == best_m and v < best_v):
            best_m = missing
            best_v = v
            best_kind = k
    return best_m, best_v, best_kind


@jit
def _expert_take(
    ev: Any,
    hand: Any,
    unseen: Any,
    takeable: Any,
    can_draw: bool,
    draw_after_take: bool,
    any_offer: bool,
    seat: int,
    players: int,
    faceup: Any,
    passed: Any,
    recent: Any,
    discarded: Any,
) -> int:
    missing, bits = _info(ev, hand)
    if missing == 1:
        for k in range(21):
            if bits >> k & 1 and takeable[k]:
                return k
    any_takeable = False
    for k in range(21):
        if takeable[k]:
            any_takeable = True
    if not draw_after_take or not any_takeable:
        return _greedy_take(ev, hand, unseen, takeable, can_draw)
    risk = _risk(ev, seat, players, any_offer, passed, recent, discarded)
    pool = faceup.copy() if any_offer else np.zeros(21, np.int64)
    missing, outs = _hand_score(ev, hand, unseen, pool)
    best_m = missing
    best_v = -float(outs)
    best_kind = _DRAW
    for k in range(21):
        if takeable[k]:
            hand[k] += 1
            if any_offer:
                pool[k] -= 1
            m, v, _ = _expert_best(ev, hand, k, unseen, pool, risk)
            if any_offer:
                pool[k] += 1
            hand[k] -= 1
            if m < best_m or (m == best_m and v < best_v):
                best_m = m
                best_v = v
                best_kind = k
    if best_kind == _DRAW and not can_draw:
        return _greedy_take(ev, hand, unseen, takeable, False)
    return best_kind


@jit
def _expert_discard(
    ev: Any,
    hand: Any,
    unseen: Any,
    just_taken: int,
    any_offer: bool,
    seat: int,
    players: int,
    faceup: Any,
    passed: Any,
    recent: Any,
    discarded: Any,
) -> int:
    if _solve(ev, hand)[0] == 0:
        return _DRAW
    risk = _risk(ev, seat, players, any_offer, passed, recent, discarded)
    pool = faceup if any_offer else np.zeros(21, np.int64)
    return _expert_best(ev, hand, just_taken, unseen, pool, risk)[2]


# -- the game ----------------------------------------------------------------------------------


@jit
def _offered(
    pool: Any, own: Any, seat: int, last_kind: int, any_offer: bool, exclude_own: bool, out: Any
) -> None:
    # The discards the rules offer ``seat`` before the stall guard and the empty wall.
    if any_offer:
        for k in range(21):
            out[k] = pool[k] - own[seat, k] if exclude_own else pool[k]
    else:
        for k in range(21):
            out[k] = 0
        if last_kind >= 0:
            out[last_kind] = 1


@jit
def _winning_takes(ev: Any, hand: Any, offered: Any) -> bool:
    # Keep only the offered kinds that complete ``hand``
    # (bot.games.collecting.sim.fast._winning_takes); True if
    # any is left.
    if _info(ev, hand)[0] != 1:
        for k in range(21):
            offered[k] = 0
        return False
    left = False
    for k in range(21):
        if offered[k]:
            hand[k] += 1
            wins = _solve(ev, hand)[0] == 0
            hand[k] -= 1
            if wins:
                left = True
            else:
                offered[k] = 0
    return left


@jit
def _pass_over(passed: Any, pool: Any, seat: int, last_kind: int, any_offer: bool) -> None:
    # What ``seat`` passed over when it drew instead of taking: every live discard, or the last.
    for k in range(21):
        passed[seat, k] = pool[k] if any_offer else 0
    if not any_offer and last_kind >= 0:
        passed[seat, last_kind] = 1


@jit
def _take_public(
    stacks: Any,
    stack_len: Any,
    pool: Any,
    own: Any,
    faceup: Any,
    known: Any,
    passed: Any,
    seat: int,
    tile: int,
    any_offer: bool,
    exclude_own: bool,
) -> None:
    # A take of ``tile`` by ``seat``, on the public state (the caller keeps the scalars: the
    # live discard under "last discard only", the pool's size).
    if any_offer:
        ln = stack_len[tile]
        if exclude_own:
            at = ln - 1
            while stacks[tile, at] == seat:
                at -= 1
            owner = stacks[tile, at]
            for i in range(at, ln - 1):
                stacks[tile, i] = stacks[tile, i + 1]
            own[owner, tile] -= 1
        stack_len[tile] = ln - 1
        pool[tile] -= 1
    faceup[tile] -= 1
    known[seat, tile] += 1
    for k in range(21):
        passed[seat, k] = 0


@jit
def _discard_public(
    stacks: Any,
    stack_len: Any,
    pool: Any,
    own: Any,
    faceup: Any,
    public: Any,
    known: Any,
    discarded: Any,
    recent: Any,
    seat: int,
    tile: int,
    any_offer: bool,
    exclude_own: bool,
) -> None:
    # A discard of ``tile`` by ``seat``, on the public state (the caller keeps the scalars). A
    # seat discarding a kind it took is taken to throw the taken copy.
    if any_offer:
        stacks[tile, stack_len[tile]] = seat
        stack_len[tile] += 1
        pool[tile] += 1
        if exclude_own:
            own[seat, tile] += 1
    faceup[tile] += 1
    discarded[seat, tile] += 1
    recent[seat, tile] += 1
    if known[seat, tile]:
        known[seat, tile] -= 1
    else:
        public[tile] += 1


# Scalars of a game in progress (the ``sc`` array of _run).
_S_CURRENT, _S_TURN, _S_IDLE, _S_DREW, _S_THEN_DRAW, _S_JUST_TAKEN, _S_LAST_IN = range(7)
_S_PHASE, _S_TAKES, _S_TAKE_POOL, _S_POOL_SIZE, _S_LAST_KIND, _S_FIRST, _S_WALL_POS = range(7, 14)
_S_TOOK = 14
_S_SIZE = 15
_NO_FORCE = -2


@jit
def play_kinds(
    ev: Any, flags: Any, kinds: Any, first: int, codes: Any, total: Any, out: Any
) -> None:
    """One game on the dealt kinds (bot.games.collecting.sim.fast.play_fast step for step); record
    into out."""
    players = flags[0]
    hand_size = flags[1]
    hands = np.zeros((players, 21), np.int64)
    pos = 0
    for offset in range(players):
        size = hand_size if offset == 0 else hand_size - 1
        s = (first + offset) % players
        for i in range(pos, pos + size):
            hands[s, kinds[i]] += 1
        pos += size
    depth = 2 * flags[8] + 1
    sc = np.zeros(_S_SIZE, np.int64)
    sc[_S_CURRENT] = first
    sc[_S_TURN] = 1
    sc[_S_THEN_DRAW] = flags[7]
    sc[_S_JUST_TAKEN] = -1
    sc[_S_LAST_IN] = 1  # dealt
    sc[_S_PHASE] = 2
    sc[_S_LAST_KIND] = -1
    sc[_S_FIRST] = first
    sc[_S_WALL_POS] = pos
    _run(
        ev, flags, codes, total, kinds, hands, np.zeros((21, depth), np.int64),
        np.zeros(21, np.int64), np.zeros(21, np.int64), np.zeros((players, 21), np.int64),
        np.zeros(21, np.int64), np.zeros(21, np.int64), np.zeros((players, 21), np.int64),
        np.zeros((players, 21), np.int64), np.zeros((players, 21), np.int64),
        np.zeros((players, 21), np.int64), sc, _NO_FORCE, out,
    )  # fmt: skip


@jit
def _run(
    ev: Any,
    flags: Any,
    codes: Any,
    total: Any,
    wall: Any,
    hands: Any,
    stacks: Any,
    stack_len: Any,
    pool: Any,
    own: Any,
    faceup: Any,
    public: Any,
    known: Any,
    discarded: Any,
    passed: Any,
    recent: Any,
    sc: Any,
    forced: int,
    out: Any,
) -> None:
    """Play a game from the state given (arrays are changed in place) to its end; the first
    decision is ``forced`` unless it is _NO_FORCE. Writes the record into ``out``.

    ``wall`` holds the kinds of the wall in drawing order from ``sc[_S_WALL_POS]`` on;
    ``stacks[k]`` the seats whose discards of kind k are live (oldest first, ANY only).
    """
    players = flags[0]
    any_offer = flags[2] != 0
    exclude_own = flags[3] != 0
    draw_after_take = flags[4] != 0
    stall_guard = flags[5] != 0
    max_turns = flags[6]
    n = wall.shape[0]
    wall_pos = sc[_S_WALL_POS]
    kinds = wall
    pool_size = sc[_S_POOL_SIZE]
    last_kind = sc[_S_LAST_KIND]
    takeable = np.zeros(21, np.int64)
    unseen = np.zeros(21, np.int64)
    current = sc[_S_CURRENT]
    turn = sc[_S_TURN]
    turns_without_draw = sc[_S_IDLE]
    drew = sc[_S_DREW] != 0
    took = sc[_S_TOOK] != 0
    then_draw = sc[_S_THEN_DRAW] != 0
    just_taken = sc[_S_JUST_TAKEN]
    last_in = sc[_S_LAST_IN]
    phase = sc[_S_PHASE]
    takes = sc[_S_TAKES]
    take_pool_total = sc[_S_TAKE_POOL]
    first = sc[_S_FIRST]
    experts = False
    for s in range(players):
        if codes[s] == _EXPERT:
            experts = True

    while True:
        seat = current
        code = codes[seat]
        hand = hands[seat]
        if phase == 0:
            _offered(pool, own, seat, last_kind, any_offer, exclude_own, takeable)
            can_draw = wall_pos < n
            if not can_draw or (stall_guard and turns_without_draw >= players):
                _winning_takes(ev, hand, takeable)
            for k in range(21):
                unseen[k] = total[k] - hand[k] - public[k] + known[seat, k]
            if forced != _NO_FORCE:
                choice = forced
                forced = _NO_FORCE
            elif code == _GREEDY:
                choice = _greedy_take(ev, hand, unseen, takeable, can_draw)
            else:
                choice = _expert_take(
                    ev, hand, unseen, takeable, can_draw, draw_after_take, any_offer, seat,
                    players, faceup, passed, recent, discarded,
                )  # fmt: skip
            for k in range(21):
                recent[seat, k] = 0
            if choice == _DRAW:
                if experts:
                    _pass_over(passed, pool, seat, last_kind, any_offer)
                hand[kinds[wall_pos]] += 1
                wall_pos += 1
                drew = True
                then_draw = False
                just_taken = -1
                last_in = 3
            else:
                tile = choice
                takes += 1
                if any_offer:
                    take_pool_total += pool_size
                    pool_size -= 1
                else:
                    take_pool_total += 1
                    last_kind = -1
                _take_public(
                    stacks, stack_len, pool, own, faceup, known, passed, seat, tile, any_offer,
                    exclude_own,
                )  # fmt: skip
                hand[tile] += 1
                just_taken = tile
                then_draw = draw_after_take
                took = True
                last_in = 2
        elif phase == 1:
            hand[kinds[wall_pos]] += 1
            wall_pos += 1
            drew = True
            then_draw = False
            just_taken = -1
            last_in = 3

        # The discard phase.
        for k in range(21):
            unseen[k] = total[k] - hand[k] - public[k] + known[seat, k]
        if forced != _NO_FORCE:
            choice = forced
            forced = _NO_FORCE
        elif code == _GREEDY:
            choice = _greedy_discard(ev, hand, unseen, just_taken)
        else:
            choice = _expert_discard(
                ev, hand, unseen, just_taken, any_offer, seat, players, faceup, passed, recent,
                discarded,
            )  # fmt: skip
        if choice == _DRAW:
            out[0] = first
            out[1] = seat
            out[2] = 0
            out[3] = last_in
            out[4] = turn
            out[5] = takes
            out[6] = take_pool_total
            return
        tile = choice
        hand[tile] -= 1
        if any_offer:
            pool_size += 1
        else:
            last_kind = tile
        _discard_public(
            stacks, stack_len, pool, own, faceup, public, known, discarded, recent, seat, tile,
            any_offer, exclude_own,
        )  # fmt: skip
        just_taken = -1
        if then_draw:
            then_draw = False
            if wall_pos == n:
                out[0] = first
                out[1] = -1
                out[2] = 1
                out[3] = 0
                out[4] = turn
                out[5] = takes
                out[6] = take_pool_total
                return
            phase = 1
            continue
        current = (seat + 1) % players
        turn += 1
        if drew:
            turns_without_draw = 0
        elif took:
            turns_without_draw += 1
        drew = False
        took = False
        phase = 0
        if turn > max_turns:
            out[0] = first
            out[1] = -1
            out[2] = 2
            out[3] = 0
            out[4] = turn - 1
            out[5] = takes
            out[6] = take_pool_total
            return
        if wall_pos == n:
            # An empty wall: the game is drawn unless a take wins (RULES.md §2.4).
            _offered(pool, own, current, last_kind, any_offer, exclude_own, takeable)
            if not _winning_takes(ev, hands[current], takeable):
                out[0] = first
                out[1] = -1
                out[2] = 1
                out[3] = 0
                out[4] = turn
                out[5] = takes
                out[6] = take_pool_total
                return


# -- rollouts (the master level) -----------------------------------------------------------------


@jit
def _popcount(bits: int) -> int:
    n = 0
    while bits:
        bits &= bits - 1
        n += 1
    return n


N_FEATURES = 11
"""Features of a hypothetical hidden hand: :func:`_hand_features`, then
:func:`_history_feature`."""
_EV_DISCARD, _EV_DRAW, _EV_TAKE = 0, 1, 2


@jit
def _remove_random(state: Any, counts: Any, size: int) -> int:
    # One of the ``size`` tiles the counts hold, at random, taken out: its kind (-1 if none).
    if size <= 0:
        return -1
    r = below(state, size)
    for k in range(21):
        if r < counts[k]:
            counts[k] -= 1
            return k
        r -= counts[k]
    return -1


@jit
def _history_feature(ev: Any, state: Any, base: Any, events: Any, n: int, work: Any) -> int:
    """How many of a seat's earlier discards (all but its latest) the expert would not have
    made, had it held ``base`` now: the seat's hands are rebuilt backwards through its public
    moves (``events[:n]``, oldest first, rows (code, kind): a discard gives its tile back, a
    take takes it away, a draw takes away a random tile of the hand), and a discard counts when
    another discard from that hand would have left fewer tiles missing. A particle filter over
    the whole history in one backward pass: a hand that explains every move scores 0."""
    for k in range(21):
        work[k] = base[k]
    wrong = 0
    for i in range(n - 1, -1, -1):
        code = events[i, 0]
        kind = events[i, 1]
        if code == _EV_DISCARD:
            work[kind] += 1
            if i == n - 1:
                continue  # the latest discard: _hand_features judges it
            work[kind] -= 1
            missing, _ = _info(ev, work)
            work[kind] += 1
            for k in range(21):
                if work[k] and k != kind:
                    work[k] -= 1
                    m, _ = _info(ev, work)
                    work[k] += 1
                    if m < missing:
                        wrong += 1
                        break
        elif code == _EV_TAKE:
            if work[kind]:
                work[kind] -= 1
        else:
            size = 0
            for k in range(21):
                size += work[k]
            _remove_random(state, work, size)
    return wrong


N_GAPS = 2
"""Features of a seat's whole public history (:func:`_history_gaps`), after :data:`N_FEATURES`
in the weights of ``infer`` 4."""
FORWARD_LOG_EPS = -5.0
"""``infer`` 5: the log of the factor by which a particle's weight falls at each decision its
expert would have made otherwise. Not minus infinity: a person (or a master) at the table is
no expert, and a filter that killed every particle on one surprise would know nothing."""


@jit
def _discard_fit(ev: Any, hand: Any, thrown: int, missing: int, kept: int) -> tuple[int, int]:
    """What the expert could have kept instead of throwing ``thrown``: of the discards from
    ``hand`` plus that tile (``missing`` and ``kept`` improving kinds: those of throwing it),
    the fewest tiles missing, and the most improving kinds among the discards keeping that
    few. ``hand`` is left as it was."""
    hand[thrown] += 1
    fewest = missing
    most = kept
    for k in range(21):
        if hand[k] and k != thrown:
            hand[k] -= 1
            m, b = _info(ev, hand)
            hand[k] += 1
            if m < fewest:
                fewest = m
                most = _popcount(b)
            elif m == fewest and _popcount(b) > most:
                most = _popcount(b)
    hand[thrown] -= 1
    return fewest, most


@jit
def _history_gaps(
    ev: Any, state: Any, base: Any, events: Any, n: int, work: Any, repeats: int, out: Any
) -> None:
    """How badly a seat's earlier discards (all but its latest) fit the expert policy, had it
    held ``base`` now, into ``out[:2]``, averaged over ``repeats`` trajectories: each
    trajectory rebuilds the seat's hands backwards through its public moves (``events[:n]``,
    oldest first, rows (code, kind): a discard gives its tile back, a take takes it away, a
    draw takes away a random tile of the hand, the unknown drawn tile), so every trajectory is
    consistent with every public move; then each discard is judged on the hand the seat held
    when it threw it. ``out[0]``: tiles missing beyond the expert's best discard (at most 2 a
    discard); ``out[1]``: when none, improving kinds kept fewer than the best such discard (at
    most 4 a discard). Both 0 for a hand that explains every move as the expert would."""
    out[0] = 0.0
    out[1] = 0.0
    for _ in range(repeats):
        for k in range(21):
            work[k] = base[k]
        for i in range(n - 1, -1, -1):
            code = events[i, 0]
            kind = events[i, 1]
            if code == _EV_DISCARD:
                if i == n - 1:
                    work[kind] += 1
                    continue  # the latest discard: _hand_features judges it
                missing, bits = _info(ev, work)
                kept = _popcount(bits)
                fewest, most = _discard_fit(ev, work, kind, missing, kept)
                work[kind] += 1
                if missing > fewest:
                    out[0] += min(2, missing - fewest)
                elif most > kept:
                    out[1] += min(4, most - kept)
            elif code == _EV_TAKE:
                if work[kind]:
                    work[kind] -= 1
            else:
                size = 0
                for k in range(21):
                    size += work[k]
                _remove_random(state, work, size)
    out[0] /= repeats
    out[1] /= repeats


@jit
def _hand_features(
    ev: Any, base: Any, thrown: int, passed: Any, discarded: Any, pool: Any, out: Any
) -> tuple[int, int]:
    """Features of one opponent hand ``base`` (known plus drawn hidden tiles) judged by that
    seat's public moves, into ``out`` (:data:`N_FEATURES`); returns ``(missing, bits)``:

    0-3. fewest tiles missing is 1 or less, 2, 3, 4 (5 or more: all zero): players keep hands
         close to winning;
    4.   with ``thrown`` (its latest discard, one tile), how many more tiles are missing than
         after the expert's best discard from the hand plus that tile (at most 2);
    5.   when none more, how many more improving kinds another such discard would have kept
         (at most 4): the expert keeps the most;
    6.   improving kinds it passed over (drew instead of taking);
    7.   improving kinds it discarded before (its other discards);
    8.   improving kinds (at most 8);
    9.   improving kinds face up in the pool (``pool``, zero under "last discard only"),
         which an expert takes when it may.

    Only public facts enter (the moves of that seat, the pool), never the real hand.
    """
    missing, bits = _info(ev, base)
    for i in range(N_FEATURES):
        out[i] = 0.0
    if missing <= 1:
        out[0] = 1.0
    elif missing <= 4:
        out[missing - 1] = 1.0
    if thrown >= 0:
        # The hand before the discard: what it holds now plus the tile it threw.
        kept = _popcount(bits)
        fewest, most = _discard_fit(ev, base, thrown, missing, kept)
        out[4] = min(2, missing - fewest)
        if missing == fewest:
            out[5] = min(4, most - kept)
    improving = 0
    for k in range(21):
        if bits >> k & 1:
            improving += 1
            if passed[k]:
                out[6] += 1.0
            if discarded[k] and k != thrown:
                out[7] += 1.0
            if pool[k]:
                out[9] += 1.0
    out[8] = min(8, improving)
    return missing, bits


@jit
def _likely_hand(
    ev: Any,
    state: Any,
    tiles: Any,
    at: int,
    need: int,
    tries: int,
    base: Any,
    best: Any,
    passed: Any,
    recent: Any,
    infer: int,
    discarded: Any,
    pool: Any,
    weights: Any,
    events: Any,
    n_events: int,
) -> None:
    """Move to ``tiles[at : at + need]`` the most likely of ``tries`` random draws of ``need``
    tiles from ``tiles[at:]`` for a seat holding ``base`` besides: the one leaving the fewest
    tiles missing, then the fewest of the kinds the seat passed over (``passed``) that would
    have brought it closer (the first on ties). Other players keep hands close to winning and
    do not pass over what they need; random hands do neither. With ``infer``, a draw is also
    judged by the seat's latest discard (``recent``, one tile): a hand from which the expert
    would have discarded something leaving fewer tiles missing is unlikely (64 per tile of
    difference), since the expert always keeps the fewest missing; with ``infer`` 2, also one
    from which another such discard keeps more improving kinds (4 per kind).

    With ``infer`` 3 the draws are weighed instead of ranked (importance resampling): each
    draw's weight is ``exp(weights . features)`` (:func:`_hand_features`, ``weights`` fitted
    as the log ratio of real expert hands to uniform draws by ``benchmarks/fit_inference.py``),
    and one draw is picked at random in proportion to its weight, so the hands follow the
    posterior given the seat's public moves instead of crowding on the single likeliest."""
    count = tiles.shape[0]
    best_score = 1 << 30
    thrown = -1
    if infer:
        n = 0
        for k in range(21):
            n += recent[k]
            if recent[k]:
                thrown = k
        if n != 1:
            thrown = -1
    features = np.zeros(N_FEATURES, np.float64)
    work = np.zeros(21, np.int64)
    total_weight = 0.0
    for _ in range(tries):
        for i in range(need):
            j = at + i + below(state, count - at - i)
            t = tiles[at + i]
            tiles[at + i] = tiles[j]
            tiles[j] = t
        for i in range(need):
            base[tiles[at + i]] += 1
        if infer >= 3:
            _hand_features(ev, base, thrown, passed, discarded, pool, features)
            if weights[N_FEATURES - 1] != 0.0:
                features[N_FEATURES - 1] = _history_feature(ev, state, base, events, n_events, work)
            for i in range(need):
                base[tiles[at + i]] -= 1
            logit = 0.0
            for i in range(N_FEATURES):
                logit += weights[i] * features[i]
            w = np.exp(min(50.0, max(-50.0, logit)))
            total_weight += w
            # Reservoir sampling in proportion to the weights: keep this draw with
            # probability w / (the weights so far).
            u = (splitmix_next(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
            if u * total_weight < w:
                for i in range(need):
                    best[i] = tiles[at + i]
            continue
        missing, bits = _info(ev, base)
        score = 32 * missing
        if thrown >= 0:
            # The hand before the discard: what it holds now plus the tile it threw.
            kept = _popcount(bits)
            fewest, most = _discard_fit(ev, base, thrown, missing, kept)
            score += 64 * (missing - fewest)
            if infer > 1 and missing == fewest:
                # Of the discards keeping the fewest missing, the expert prefers more outs.
                score += 4 * (most - kept)
        for i in range(need):
            base[tiles[at + i]] -= 1
        for k in range(21):
            if passed[k] and bits >> k & 1:
                score += 1
        if score < best_score:
            best_score = score
            for i in range(need):
                best[i] = tiles[at + i]
    _to_front(tiles, at, need, best)


@jit
def _particle_logit(
    ev: Any,
    state: Any,
    base: Any,
    thrown: int,
    passed: Any,
    discarded: Any,
    pool: Any,
    weights: Any,
    events: Any,
    n_events: int,
    work: Any,
    features: Any,
    gaps: Any,
) -> float:
    """The log weight of ``infer`` 4 for a seat holding ``base`` (known and hidden tiles):
    ``weights`` times :func:`_hand_features` (all but the last, :func:`_history_feature`,
    which the gaps replace) and :func:`_history_gaps` over two trajectories."""
    _hand_features(ev, base, thrown, passed, discarded, pool, features)
    _history_gaps(ev, state, base, events, n_events, work, 2, gaps)
    logit = 0.0
    for i in range(N_FEATURES - 1):
        logit += weights[i] * features[i]
    for i in range(N_GAPS):
        logit += weights[N_FEATURES + i] * gaps[i]
    return logit


@jit
def _particles(
    ev: Any,
    state: Any,
    tiles: Any,
    need: int,
    known: Any,
    passed: Any,
    recent: Any,
    discarded: Any,
    pool: Any,
    weights: Any,
    events: Any,
    n_events: int,
    out: Any,
    cumulative: Any,
) -> None:
    """``infer`` 4: a weighted particle set of one seat's ``need`` hidden tiles (a row of
    counts of ``out`` per particle; ``cumulative`` their running total weight). Each particle
    is a uniform draw from the hidden tiles (``tiles``, left shuffled), weighed by
    ``exp(weights . features)``: :func:`_hand_features` of the whole hand (its known tiles
    besides) and :func:`_history_gaps` of its whole public history, replayed on trajectories
    consistent with every move. Built once per decision, so there can be many more particles
    than ``infer`` 3 draws per play-out."""
    count = tiles.shape[0]
    n = out.shape[0]
    thrown = -1
    total = 0
    for k in range(21):
        total += recent[k]
        if recent[k]:
            thrown = k
    if total != 1:
        thrown = -1
    features = np.zeros(N_FEATURES + N_GAPS, np.float64)
    gaps = np.zeros(N_GAPS, np.float64)
    work = np.zeros(21, np.int64)
    base = np.zeros(21, np.int64)
    logits = np.zeros(n, np.float64)
    top = -1e300
    for p in range(n):
        for k in range(21):
            base[k] = known[k]
            out[p, k] = 0
        for i in range(need):
            j = i + below(state, count - i)
            t = tiles[i]
            tiles[i] = tiles[j]
            tiles[j] = t
            base[tiles[i]] += 1
            out[p, tiles[i]] += 1
        logit = _particle_logit(
            ev, state, base, thrown, passed, discarded, pool, weights, events, n_events, work,
            features, gaps,
        )  # fmt: skip
        logits[p] = logit
        if logit > top:
            top = logit
    running = 0.0
    for p in range(n):
        running += np.exp(logits[p] - top)
        cumulative[p] = running


@jit
def _draw_from(state: Any, rem: Any, left: int, exact: Any, at: int) -> int:
    # One tile at random from the counts ``rem`` (``left`` tiles in all), taken out; -1 if none.
    # With ``exact`` given, its tile ``at`` instead (-1 if ``rem`` has none of its kind).
    if exact.shape[0]:
        if at >= exact.shape[0]:
            return -1
        kind: int = exact[at]
        if rem[kind] <= 0:
            return -1
        rem[kind] -= 1
        return kind
    return _remove_random(state, rem, left)


@jit
def _forward_filter(
    ev: Any,
    flags: Any,
    total: Any,
    op: int,
    first: int,
    history: Any,
    unknown: Any,
    log_eps: float,
    state: Any,
    out: Any,
    cumulative: Any,
    exact: Any,
) -> bool:
    """``infer`` 5: particles of seat ``op``'s hidden tiles (a row of counts of ``out`` each;
    ``cumulative`` their running total weight) by a forward filter over the public history.

    Each particle is a trajectory of ``op``'s hidden tiles from the deal on: its dealt hand
    and each of its draws are drawn at random from the tiles it could have held (``unknown``,
    what the filtering seat cannot place now, plus ``op``'s discards of hidden tiles). The game
    is replayed move by move (``history``: rows of seat, verb, kind; verb 0 a discard, 1 a
    draw, 2 a take) with the public state ``_run`` keeps; at each of ``op``'s decisions a
    particle whose expert would have chosen otherwise has its weight multiplied by
    ``exp(log_eps)``, and one that discards a tile it does not hold dies. The particles are
    resampled (systematic) when their effective number falls below half. False when every
    particle died (the caller falls back to another inference).

    ``exact`` (for tests; empty otherwise) replaces the random tiles by the true ones: ``op``'s
    dealt hidden tiles, then its draws in order, for every particle.
    """
    n = out.shape[0]
    players = flags[0]
    hand_size = flags[1]
    any_offer = flags[2] != 0
    exclude_own = flags[3] != 0
    draw_after_take = flags[4] != 0
    stall_guard = flags[5] != 0
    m = history.shape[0]
    tile_count = 0
    for k in range(21):
        tile_count += total[k]
    # op's discards of hidden tiles (no taken copy of the kind in hand, as _run counts them)
    # were once among the tiles a particle may deal him.
    known_op = np.zeros(21, np.int64)
    reach = unknown.copy()
    for i in range(m):
        s = history[i, 0]
        verb = history[i, 1]
        kind = history[i, 2]
        if s != op:
            continue
        if verb == 2:
            known_op[kind] += 1
        elif verb == 0:
            if known_op[kind]:
                known_op[kind] -= 1
            else:
                reach[kind] += 1
    left0 = 0
    for k in range(21):
        left0 += reach[k]
    hidden = np.zeros((n, 21), np.int64)
    rem = np.zeros((n, 21), np.int64)
    left = np.zeros(n, np.int64)
    logw = np.zeros(n, np.float64)
    init = hand_size if op == first else hand_size - 1
    drawn = init  # tiles of ``exact`` used (the dealt ones, then one per draw)
    for p in range(n):
        for k in range(21):
            rem[p, k] = reach[k]
        left[p] = left0
        for i in range(init):
            t = _draw_from(state, rem[p], left[p], exact, i)
            if t < 0:
                logw[p] = -np.inf
                break
            left[p] -= 1
            hidden[p, t] += 1
    # The public state, as _run keeps it.
    pool = np.zeros(21, np.int64)
    own = np.zeros((players, 21), np.int64)
    stacks = np.zeros((21, 2 * flags[8] + 1), np.int64)
    stack_len = np.zeros(21, np.int64)
    faceup = np.zeros(21, np.int64)
    public = np.zeros(21, np.int64)
    known = np.zeros((players, 21), np.int64)
    discarded = np.zeros((players, 21), np.int64)
    passed = np.zeros((players, 21), np.int64)
    recent = np.zeros((players, 21), np.int64)
    takeable = np.zeros(21, np.int64)
    unseen = np.zeros(21, np.int64)
    hand = np.zeros(21, np.int64)
    dealt = hand_size + (players - 1) * (hand_size - 1)
    wall_left = tile_count - dealt
    last_kind = -1
    idle = 0
    turn_seat = first
    drew = False
    took = False
    just_taken = -1
    started = False  # whether the current seat has acted in this turn
    new_hidden = np.zeros((n, 21), np.int64)
    new_rem = np.zeros((n, 21), np.int64)
    new_left = np.zeros(n, np.int64)
    for i in range(m):
        s = history[i, 0]
        verb = history[i, 1]
        kind = history[i, 2]
        if s != turn_seat:
            # A new turn.
            if drew:
                idle = 0
            elif took:
                idle += 1
            drew = False
            took = False
            turn_seat = s
            started = False
            just_taken = -1
        phase0 = not started and verb != 0
        started = True
        if phase0:
            for k in range(21):
                recent[s, k] = 0
        if s == op and (phase0 or verb == 0):
            # A decision of op: each particle's expert must have made it.
            if phase0:
                _offered(pool, own, s, last_kind, any_offer, exclude_own, takeable)
                can_draw = wall_left > 0
            for p in range(n):
                if logw[p] == -np.inf:
                    continue
                for k in range(21):
                    hand[k] = known[s, k] + hidden[p, k]
                    unseen[k] = total[k] - hidden[p, k] - public[k]
                if phase0:
                    offered = takeable.copy()
                    if not can_draw or (stall_guard and idle >= players):
                        _winning_takes(ev, hand, offered)
                    choice = _expert_take(
                        ev, hand, unseen, offered, can_draw, draw_after_take, any_offer, s,
                        players, faceup, passed, recent, discarded,
                    )  # fmt: skip
                    observed = kind if verb == 2 else _DRAW
                else:
                    choice = _expert_discard(
                        ev, hand, unseen, just_taken, any_offer, s, players, faceup, passed,
                        recent, discarded,
                    )  # fmt: skip
                    observed = kind
                if choice != observed:
                    logw[p] += log_eps
        # The move, on the public state and on each particle.
        if verb == 1:  # draw
            if phase0:
                _pass_over(passed, pool, s, last_kind, any_offer)
            if s == op:
                for p in range(n):
                    if logw[p] == -np.inf:
                        continue
                    t = _draw_from(state, rem[p], left[p], exact, drawn)
                    if t < 0:
                        logw[p] = -np.inf
                    else:
                        left[p] -= 1
                        hidden[p, t] += 1
                drawn += 1
            wall_left -= 1
            drew = True
            just_taken = -1
        elif verb == 2:  # take
            if not any_offer:
                last_kind = -1
            _take_public(
                stacks, stack_len, pool, own, faceup, known, passed, s, kind, any_offer,
                exclude_own,
            )  # fmt: skip
            just_taken = kind
            took = True
        else:  # discard
            if s == op and known[s, kind] == 0:
                for p in range(n):
                    if hidden[p, kind] > 0:
                        hidden[p, kind] -= 1
                    else:
                        logw[p] = -np.inf
            if not any_offer:
                last_kind = kind
            _discard_public(
                stacks, stack_len, pool, own, faceup, public, known, discarded, recent, s, kind,
                any_offer, exclude_own,
            )  # fmt: skip
            just_taken = -1
        # Resample when the weights degenerate.
        if s == op:
            top = -np.inf
            for p in range(n):
                if logw[p] > top:
                    top = logw[p]
            if top == -np.inf:
                return False
            total_w = 0.0
            sq = 0.0
            for p in range(n):
                w = np.exp(logw[p] - top)
                cumulative[p] = total_w + w
                total_w += w
                sq += w * w
            if total_w * total_w < 0.5 * n * sq:
                u = (splitmix_next(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
                q = 0
                for p in range(n):
                    target = (p + u) / n * total_w
                    while q < n - 1 and cumulative[q] <= target:
                        q += 1
                    for k in range(21):
                        new_hidden[p, k] = hidden[q, k]
                        new_rem[p, k] = rem[q, k]
                    new_left[p] = left[q]
                hidden[:, :] = new_hidden
                rem[:, :] = new_rem
                left[:] = new_left
                for p in range(n):
                    logw[p] = 0.0
    top = -np.inf
    for p in range(n):
        if logw[p] > top:
            top = logw[p]
    if top == -np.inf:
        return False
    running = 0.0
    for p in range(n):
        running += np.exp(logw[p] - top)
        cumulative[p] = running
        for k in range(21):
            out[p, k] = hidden[p, k]
    return True


@jit
def _to_front(tiles: Any, at: int, need: int, chosen: Any) -> None:
    # Bring the chosen tiles (``chosen[:need]``) to the front of ``tiles[at:]``.
    count = tiles.shape[0]
    for i in range(need):
        for j in range(at + i, count):
            if tiles[j] == chosen[i]:
                t = tiles[at + i]
                tiles[at + i] = tiles[j]
                tiles[j] = t
                break


@jit
def rollouts(
    ev: Any,
    flags: Any,
    total: Any,
    seat: int,
    hand: Any,
    sizes: Any,
    known: Any,
    unknown: Any,
    wall_size: int,
    stacks: Any,
    stack_len: Any,
    pool: Any,
    own: Any,
    faceup: Any,
    public: Any,
    discarded: Any,
    passed: Any,
    recent: Any,
    sc: Any,
    candidates: Any,
    keys: Any,
    tiles: Any,
    tries: int,
    infer: int,
    fixed: Any,
    weights: Any,
    events: Any,
    n_events: Any,
    history: Any,
) -> Any:
    """Score each candidate first decision of ``seat`` over determinized play-outs.

    Per key, the hidden tiles (``unknown``: not in ``seat``'s hand, not face up, not known to
    be in another hand) are shuffled and dealt: each other seat gets its known tiles plus
    random ones up to its hand size, the rest becomes the wall. Then every candidate is played
    out on that same deal (common random numbers), every seat playing expert. Returns, per
    key and candidate, 1 if ``seat`` won, -1/(players - 1) if another seat did, 0 for a draw.

    ``fixed``, when not empty, gives each other seat's hidden tiles (a row of counts per seat):
    only the wall is then dealt at random. It is for benchmarks measuring what search gains with
    perfect knowledge of the hands (a peeking ceiling); the master never passes it at a table.

    ``history`` (``infer`` 5: rows of seat, verb, kind, see :func:`_forward_filter`) is the
    whole public record of the game, from which each other seat's particles are filtered.
    """
    players = flags[0]
    peek = fixed.shape[0] > 0
    codes = np.full(players, _EXPERT, np.int64)
    # ``tiles``, when not empty, is one exact deal of the hidden tiles (the other seats' unknown
    # tiles in seat order, then the wall in drawing order) played without shuffling: the tests
    # replay real games through it.
    shuffle = tiles.shape[0] == 0
    if shuffle:
        count = 0
        for k in range(21):
            count += unknown[k]
        tiles = np.empty(count, np.int64)
        at = 0
        for k in range(21):
            for _ in range(unknown[k]):
                tiles[at] = k
                at += 1
    count = tiles.shape[0]
    best = np.zeros(32, np.int64)
    scores = np.zeros((keys.shape[0], candidates.shape[0]), np.float64)
    out = np.zeros(7, np.int64)
    hands = np.zeros((players, 21), np.int64)
    state = np.empty(1, np.uint64)
    # infer 4 and 5: one weighted particle set per other seat, built once per decision, from
    # which every play-out deals that seat's hidden tiles (see _particles, _forward_filter).
    n_particles = tries if infer >= 4 and shuffle and not peek and keys.shape[0] > 0 else 0
    particles = np.zeros((players, n_particles, 21), np.int64)
    cumulative = np.zeros((players, n_particles), np.float64)
    if n_particles:
        state[0] = keys[0] ^ np.uint64(0x5DEECE66D)
        for s in range(players):
            if s == seat:
                continue
            held = 0
            for k in range(21):
                held += known[s, k]
            need = min(sizes[s] - held, count)
            if need > 0:
                filtered = infer >= 5 and _forward_filter(
                    ev, flags, total, s, sc[_S_FIRST], history, unknown, FORWARD_LOG_EPS, state,
                    particles[s], cumulative[s], np.zeros(0, np.int64),
                )  # fmt: skip
                if not filtered:
                    _particles(
                        ev, state, tiles, need, known[s], passed[s], recent[s], discarded[s],
                        pool, weights, events[s], n_events[s], particles[s], cumulative[s],
                    )  # fmt: skip
    for g in range(keys.shape[0]):
        state[0] = keys[g]
        for i in range(count - 1 if shuffle else 0, 0, -1):
            j = below(state, i + 1)
            t = tiles[i]
            tiles[i] = tiles[j]
            tiles[j] = t
        at = 0
        for s in range(players):
            for k in range(21):
                hands[s, k] = hand[k] if s == seat else known[s, k]
            if s == seat:
                continue
            held = 0
            for k in range(21):
                held += known[s, k]
            need = min(sizes[s] - held, count - at)
            if shuffle and peek:
                need = 0
                for k in range(21):
                    for _ in range(fixed[s, k]):
                        best[need] = k
                        need += 1
                _to_front(tiles, at, need, best)
            elif n_particles and need > 0:
                # A particle in proportion to its weight: its tiles to the front of the deal
                # (at bigger tables another seat's particle may have taken some of them: those
                # stay random).
                u = (splitmix_next(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
                target = u * cumulative[s, n_particles - 1]
                p = 0
                while p < n_particles - 1 and cumulative[s, p] <= target:
                    p += 1
                n_chosen = 0
                for k in range(21):
                    for _ in range(particles[s, p, k]):
                        if n_chosen < need:
                            best[n_chosen] = k
                            n_chosen += 1
                _to_front(tiles, at, n_chosen, best)
            elif shuffle and tries > 1 and need > 0:
                _likely_hand(
                    ev, state, tiles, at, need, tries, hands[s], best, passed[s], recent[s], infer,
                    discarded[s], pool, weights, events[s], n_events[s],
                )  # fmt: skip
            for i in range(at, at + need):
                hands[s, tiles[i]] += 1
            at += need
        if shuffle and (tries > 1 or peek):
            for i in range(count - 1, at, -1):
                j = at + below(state, i - at + 1)
                t = tiles[i]
                tiles[i] = tiles[j]
                tiles[j] = t
        wall = tiles[at : at + wall_size].copy()
        for c in range(candidates.shape[0]):
            state_sc = sc.copy()
            state_sc[_S_WALL_POS] = 0
            _run(
                ev, flags, codes, total, wall, hands.copy(), stacks.copy(), stack_len.copy(),
                pool.copy(), own.copy(), faceup.copy(), public.copy(), known.copy(),
                discarded.copy(), passed.copy(), recent.copy(), state_sc, candidates[c], out,
            )  # fmt: skip
            winner = out[1]
            if winner == seat:
                scores[g, c] = 1.0
            elif winner >= 0:
                scores[g, c] = -1.0 / (players - 1)
    return scores


# -- the Python side ---------------------------------------------------------------------------


@lru_cache(maxsize=32)
def ev_array(rules: RuleSet) -> Any:
    e = evaluator_for(rules)
    ev = np.zeros(_EV_SIZE, dtype=np.int64)
    steps = [x for per_class in e._steps for side in per_class for row in side for x in row]
    ev[_O_STEPS : _O_STEPS + len(steps)] = steps
    ev[_O_RES : _O_RES + 21] = e.residue
    ev[_O_ISEYE : _O_ISEYE + 21] = [1 if k in e.eye_kinds else 0 for k in range(KIND_COUNT)]
    ev[_O_PLACE : _O_PLACE + 20] = [x for pair in e._place for x in pair]
    ev[_O_EYEN : _O_EYEN + 11] = [len(kinds) for kinds in e._eyes_by_class]
    ev[_O_NCLASS] = len(e._eye_classes)
    ev[_O_CLASSES : _O_CLASSES + len(e._eye_classes)] = e._eye_classes
    ev[_O_BITS : _O_BITS + 2048] = e._bits_of_residues
    ev[_O_SUPPLY : _O_SUPPLY + 11] = e._supply
    ev[_O_SCAL : _O_SCAL + 4] = [
        e.hand_size,
        e.pairs,
        int(e.wild),
        sum(1 << r for r in e._residues_present),
    ]
    ev[_O_NEYES] = len(e.eye_kinds)
    ev[_O_EYES : _O_EYES + len(e.eye_kinds)] = e.eye_kinds
    return ev


@lru_cache(maxsize=32)
def rule_flags(rules: RuleSet) -> Any:
    return np.array(
        [
            rules.players,
            rules.hand_size,
            int(rules.offer is Offer.ANY),
            int(rules.exclude_own_discards),
            int(rules.draw_after_take),
            int(rules.stall_guard),
            rules.max_turns,
            int(rules.first_turn_extra_draw),
            rules.sets,
        ],
        dtype=np.int64,
    )


@lru_cache(maxsize=32)
def kind_tables(rules: RuleSet) -> tuple[Any, Any]:
    ev = evaluator_for(rules)
    total = np.array([ev.caps[k] for k in range(KIND_COUNT)], dtype=np.int64)
    piece_kinds = np.array(
        [PIECE_KINDS[p % PIECES_PER_SET] for p in range(rules.tile_count)], dtype=np.int64
    )
    return total, piece_kinds


def codes_for(rules: RuleSet, levels: Sequence[str]) -> Any:
    """The kernel's level codes of a seating; ValueError for a level it does not play."""
    if len(levels) != rules.players:
        raise RulesError(f"{len(levels)} levels given for a {rules.players}-player rule set")
    try:
        return np.array([KERNEL_LEVELS[level] for level in levels], dtype=np.int64)
    except KeyError as err:
        raise ValueError(f"the kernel cannot play AI level {err.args[0]!r}") from None


def rollout_scores(
    rules: RuleSet,
    seat: int,
    counts: dict[str, Sequence[int]],
    per_seat: dict[str, Sequence[Sequence[int]]],
    sizes: Sequence[int],
    live: Sequence[tuple[int, int]],
    scalars: dict[str, int],
    candidates: Sequence[int],
    keys: Sequence[int],
    exact: Sequence[int] = (),
    tries: int = 1,
    infer: int = 0,
    fixed: Sequence[Sequence[int]] = (),
    weights: Sequence[float] = (),
    events: Sequence[Sequence[tuple[int, int]]] = (),
    history: Sequence[tuple[int, int, int]] = (),
) -> list[list[float]]:
    """Scores of ``seat``'s candidate decisions over one determinized play-out per key (a row
    per key, a column per candidate: 1 for a win, -1/(players - 1) for another's, 0 for a draw).

    ``counts`` holds count vectors by kind: ``hand``, ``unknown`` (the hidden tiles),
    ``faceup``, ``public``; ``per_seat`` holds per seat ``known``, ``discarded``, ``passed``,
    ``recent``; ``sizes`` the hand sizes; ``live`` the live discards oldest first as
    (kind, discarding seat); ``scalars`` the state of the turn (see :data:`SCALARS`).
    Candidates are kinds, or -1 for the draw (take phase) or the declaration (discard phase).
    ``exact`` (for tests) replaces the random deals by one given deal of the hidden tiles: the
    other seats' unknown tiles in seat order, then the wall in drawing order. With ``tries``
    above 1, each other seat's hidden tiles are the best of that many random draws (fewest
    tiles missing), since players keep hands close to winning; ``infer`` (0 or more) also
    weighs each draw by whether the expert would have made that seat's latest discard from it.
    ``fixed`` (benchmarks only: a peeking ceiling) gives the other seats' true hidden tiles, a
    row of counts per seat; only the wall is then dealt at random. ``weights`` (with ``infer``
    3) weigh the features of :func:`_hand_features` in the draws' importance weights;
    ``events`` holds per seat its public moves, oldest first, as (code, kind): 0 a discard, 1 a
    draw (kind -1), 2 a take (for :func:`_history_feature`); ``history`` (``infer`` 5) every
    seat's public moves in the order played, as (seat, code, kind) with the same codes.
    """
    players = rules.players

    def vec(values: Sequence[int]) -> Any:
        return np.array(values, dtype=np.int64)

    depth = 2 * rules.sets + 1
    stacks = np.zeros((21, depth), np.int64)
    stack_len = np.zeros(21, np.int64)
    pool = np.zeros(21, np.int64)
    own = np.zeros((players, 21), np.int64)
    any_offer = rules.offer is Offer.ANY
    if any_offer:
        for kind, owner in live:
            stacks[kind, stack_len[kind]] = owner
            stack_len[kind] += 1
            pool[kind] += 1
            own[owner, kind] += 1
    sc = np.zeros(_S_SIZE, np.int64)
    for name, index in SCALARS.items():
        sc[index] = scalars[name]
    sc[_S_POOL_SIZE] = len(live) if any_offer else 0
    total, _ = kind_tables(rules)
    longest = max([len(e) for e in events] + [1])
    event_array = np.zeros((players, longest, 2), np.int64)
    n_events = np.zeros(players, np.int64)
    for s, moves in enumerate(events):
        n_events[s] = len(moves)
        for i, (code, kind) in enumerate(moves):
            event_array[s, i, 0] = code
            event_array[s, i, 1] = kind
    with np.errstate(over="ignore"):  # uncompiled (no numba), splitmix64 wraps around on purpose
        scores = rollouts(
            ev_array(rules), rule_flags(rules), total, seat, vec(counts["hand"]),
            vec(sizes), np.array(per_seat["known"], dtype=np.int64),
            vec(counts["unknown"]), scalars["wall_size"], stacks, stack_len, pool,
            own if rules.exclude_own_discards else np.zeros((players, 21), np.int64),
            vec(counts["faceup"]), vec(counts["public"]),
            np.array(per_seat["discarded"], dtype=np.int64),
            np.array(per_seat["passed"], dtype=np.int64),
            np.array(per_seat["recent"], dtype=np.int64), sc, vec(candidates),
            np.array([k & ((1 << 64) - 1) for k in keys], dtype=np.uint64),
            np.array(exact, dtype=np.int64), tries, infer,
            np.array(fixed, dtype=np.int64).reshape(len(fixed), 21),
            np.array([*weights] + [0.0] * (N_FEATURES + N_GAPS - len(weights)), np.float64),
            event_array, n_events, np.array(history, dtype=np.int64).reshape(len(history), 3),
        )  # fmt: skip
    return [[float(x) for x in row] for row in scores]


SCALARS: dict[str, int] = {
    "current": _S_CURRENT,
    "turn": _S_TURN,
    "turns_without_draw": _S_IDLE,
    "drew": _S_DREW,
    "took": _S_TOOK,
    "then_draw": _S_THEN_DRAW,
    "just_taken": _S_JUST_TAKEN,
    "phase": _S_PHASE,
    "last_kind": _S_LAST_KIND,
    "first": _S_FIRST,
}
"""The turn state :func:`rollout_scores` needs (besides ``wall_size``): phase 0 is the take or
draw, 2 the discard; ``last_kind`` the live discard under "last discard only" (-1: none)."""
