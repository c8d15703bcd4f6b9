"""The compiled simulation kernel: whole collecting games in machine code (numba).

This module is optional. It needs ``numba`` (and so ``numpy``), which come with the simulator's
extra (``pip install .[sim]``); without them :func:`available` is False and every caller uses
the pure-Python fast path (:mod:`bot.sim.fast`), which stays the oracle: the kernel plays
exactly the games :func:`bot.sim.fast.play_fast` plays for the same rules, deal and levels
(``tests/sim/test_kernel.py``). ``KAPSHAP_KERNEL=0`` in the environment switches it off.

What it keeps, and why it is faster than the fast path (which it mirrors line by line):

* A hand is an array of 21 small counts, not a 336-bit int; the unseen, face-up and known
  tiles of every seat are arrays too, updated in place.
* Hands are evaluated in closed form on every call instead of through memo tables: the pair
  steps of :class:`bot.ai.core.HandEvaluator` (precomputed per rule signature, copied into
  arrays once) make one evaluation a few hundred machine instructions, cheaper than a
  dictionary look-up in the interpreter.
* Games are dealt inside the kernel from a splitmix64 stream keyed by (seed, game index)
  (:func:`bot.sim.seeding.deal_key`), so a batch of games crosses the Python boundary once.

The first call compiles the kernel (about a minute of one core, see ``docs/benchmarks.md``);
the machine code is cached on disk next to this file (numba's ``cache=True``) and reused by
later processes, including the simulator's worker processes.

Levels: ``greedy`` and ``expert`` (codes 1 and 2). ``random`` draws from Python's Mersenne
Twister and stays in Python; a table with it plays on the fast path.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, TypeVar, cast

from bot.ai.core import KIND_COUNT, evaluator_for
from bot.ai.expert import DANGER, POOL_OUTS
from bot.engine import Deal, FirstPlayer, Offer, RuleSet
from bot.engine.errors import RulesError
from bot.engine.tiles import PIECE_KINDS, PIECES_PER_SET
from bot.sim.record import GameRecord

__all__ = [
    "KERNEL_LEVELS",
    "available",
    "compile_kernel",
    "play_batch",
    "play_deal",
]

try:  # pragma: no cover - exercised by whichever environment runs the tests
    import numba
    import numpy as np

    _IMPORTED = True
except ImportError:  # pragma: no cover
    _IMPORTED = False

_F = TypeVar("_F", bound=Callable[..., Any])


def _jit(fn: _F) -> _F:
    # Without numba the functions stay plain Python (never called: available() is False).
    if not _IMPORTED:  # pragma: no cover
        return fn
    return cast(_F, numba.njit(cache=True, nogil=True)(fn))


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

_REASON = ("declared", "wall", "cap")
_WIN_BY = (None, "dealt", "take", "draw")

_MASK64 = (1 << 64) - 1


def available() -> bool:
    """Whether the kernel can run here (numba importable and not switched off)."""
    return _IMPORTED and os.environ.get("KAPSHAP_KERNEL", "1") != "0"


# -- hand evaluation ---------------------------------------------------------------------------
#
# ``ev`` is one int64 array describing one rule signature (see _ev_arrays); one array rather than
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


@_jit
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


@_jit
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


@_jit
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


@_jit
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


@_jit
def _weight(bits: int, vec: Any) -> int:
    total = 0
    for k in range(21):
        if bits >> k & 1:
            total += vec[k]
    return total


# -- greedy ------------------------------------------------------------------------------------


@_jit
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


@_jit
def _greedy_discard(ev: Any, hand: Any, unseen: Any, just_taken: int) -> int:
    if _solve(ev, hand)[0] == 0:
        return _DRAW
    return _best_discard(ev, hand, unseen, just_taken)[2]


@_jit
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


@_jit
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


@_jit
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


@_jit
def _hand_score(ev: Any, hand: Any, unseen: Any, pool: Any) -> tuple[int, int]:
    missing, bits = _info(ev, hand)
    return missing, _weight(bits, unseen) + _POOL_OUTS * _weight(bits, pool)


@_jit
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


@_jit
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


@_jit
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


@_jit
def _play(ev: Any, flags: Any, kinds: Any, first: int, codes: Any, total: Any, out: Any) -> None:
    """One game on the dealt kinds (bot.sim.fast.play_fast step for step); record into out."""
    players = flags[0]
    hand_size = flags[1]
    any_offer = flags[2] != 0
    exclude_own = flags[3] != 0
    draw_after_take = flags[4] != 0
    stall_guard = flags[5] != 0
    max_turns = flags[6]
    first_extra = flags[7] != 0
    n = kinds.shape[0]

    hands = np.zeros((players, 21), np.int64)
    pos = 0
    for offset in range(players):
        size = hand_size if offset == 0 else hand_size - 1
        s = (first + offset) % players
        for i in range(pos, pos + size):
            hands[s, kinds[i]] += 1
        pos += size
    wall_pos = pos
    depth = 2 * flags[8] + 1
    stacks = np.zeros((21, depth), np.int64)
    stack_len = np.zeros(21, np.int64)
    pool = np.zeros(21, np.int64)
    pool_size = 0
    own = np.zeros((players, 21), np.int64)
    last_kind = -1

    faceup = np.zeros(21, np.int64)
    public = np.zeros(21, np.int64)
    known = np.zeros((players, 21), np.int64)
    discarded = np.zeros((players, 21), np.int64)
    passed = np.zeros((players, 21), np.int64)
    recent = np.zeros((players, 21), np.int64)
    takeable = np.zeros(21, np.int64)
    unseen = np.zeros(21, np.int64)

    current = first
    turn = 1
    turns_without_draw = 0
    drew = False
    then_draw = first_extra
    just_taken = -1
    last_in = 1  # dealt
    phase = 2
    takes = 0
    take_pool_total = 0
    experts = False
    for s in range(players):
        if codes[s] == _EXPERT:
            experts = True

    while True:
        seat = current
        code = codes[seat]
        hand = hands[seat]
        if phase == 0:
            if stall_guard and turns_without_draw >= players:
                for k in range(21):
                    takeable[k] = 0
            elif any_offer:
                for k in range(21):
                    takeable[k] = pool[k] - own[seat, k] if exclude_own else pool[k]
            else:
                for k in range(21):
                    takeable[k] = 0
                if last_kind >= 0:
                    takeable[last_kind] = 1
            can_draw = wall_pos < n
            for k in range(21):
                unseen[k] = total[k] - hand[k] - public[k] + known[seat, k]
            if code == _GREEDY:
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
                    for k in range(21):
                        passed[seat, k] = pool[k] if any_offer else 0
                    if not any_offer and last_kind >= 0:
                        passed[seat, last_kind] = 1
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
                    pool_size -= 1
                else:
                    take_pool_total += 1
                    last_kind = -1
                faceup[tile] -= 1
                known[seat, tile] += 1
                for k in range(21):
                    passed[seat, k] = 0
                hand[tile] += 1
                just_taken = tile
                then_draw = draw_after_take
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
        if code == _GREEDY:
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
            stacks[tile, stack_len[tile]] = seat
            stack_len[tile] += 1
            pool[tile] += 1
            pool_size += 1
            if exclude_own:
                own[seat, tile] += 1
        else:
            last_kind = tile
        faceup[tile] += 1
        discarded[seat, tile] += 1
        recent[seat, tile] += 1
        if known[seat, tile]:
            known[seat, tile] -= 1
        else:
            public[tile] += 1
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
        turns_without_draw = 0 if drew else turns_without_draw + 1
        drew = False
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
            if stall_guard and turns_without_draw >= players:
                can_take = False
            elif any_offer:
                can_take = False
                for k in range(21):
                    if (pool[k] - own[current, k] if exclude_own else pool[k]) != 0:
                        can_take = True
            else:
                can_take = last_kind >= 0
            if not can_take:
                out[0] = first
                out[1] = -1
                out[2] = 1
                out[3] = 0
                out[4] = turn
                out[5] = takes
                out[6] = take_pool_total
                return


# -- dealing -----------------------------------------------------------------------------------


@_jit
def _next(state: Any) -> Any:
    # splitmix64 (bot.sim.seeding.SplitMix64 is the same generator in Python).
    state[0] += np.uint64(0x9E3779B97F4A7C15)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@_jit
def _below(state: Any, bound: int) -> int:
    r = _next(state) >> np.uint64(32)
    return int(np.int64((r * np.uint64(bound)) >> np.uint64(32)))


@_jit
def _deal(key: Any, players: int, four_dice: bool, piece_kinds: Any, kinds: Any) -> int:
    """Shuffle into ``kinds`` (as kinds) and return the first seat; see bot.sim.seeding."""
    state = np.empty(1, np.uint64)
    state[0] = key
    if four_dice:
        total = 0
        for _ in range(4):
            total += 1 + _below(state, 6)
        first = total % players
    else:
        first = _below(state, players)
    n = kinds.shape[0]
    order = np.arange(n)
    for i in range(n - 1, 0, -1):
        j = _below(state, i + 1)
        t = order[i]
        order[i] = order[j]
        order[j] = t
    for i in range(n):
        kinds[i] = piece_kinds[order[i]]
    return first


@_jit
def _batch(
    ev: Any, flags: Any, codes: Any, total: Any, piece_kinds: Any, keys: Any, four_dice: bool
) -> Any:
    games = keys.shape[0]
    out = np.zeros((games, 7), np.int64)
    kinds = np.empty(piece_kinds.shape[0], np.int64)
    for g in range(games):
        first = _deal(keys[g], flags[0], four_dice, piece_kinds, kinds)
        _play(ev, flags, kinds, first, codes, total, out[g])
    return out


# -- the Python side ---------------------------------------------------------------------------


@lru_cache(maxsize=32)
def _ev_arrays(rules: RuleSet) -> Any:
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
def _flags(rules: RuleSet) -> Any:
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
def _tables(rules: RuleSet) -> tuple[Any, Any]:
    ev = evaluator_for(rules)
    total = np.array([ev.caps[k] for k in range(KIND_COUNT)], dtype=np.int64)
    piece_kinds = np.array(
        [PIECE_KINDS[p % PIECES_PER_SET] for p in range(rules.tile_count)], dtype=np.int64
    )
    return total, piece_kinds


def _codes(rules: RuleSet, levels: Sequence[str]) -> Any:
    if len(levels) != rules.players:
        raise RulesError(f"{len(levels)} levels given for a {rules.players}-player rule set")
    try:
        return np.array([KERNEL_LEVELS[level] for level in levels], dtype=np.int64)
    except KeyError as err:
        raise ValueError(f"the kernel cannot play AI level {err.args[0]!r}") from None


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
    codes = _codes(rules, levels)
    if len(deal.order) != rules.tile_count or not 0 <= deal.first_seat < rules.players:
        raise RulesError("the deal does not fit this rule set")
    total, _ = _tables(rules)
    kinds = np.array([PIECE_KINDS[p % PIECES_PER_SET] for p in deal.order], dtype=np.int64)
    out = np.zeros(7, np.int64)
    _play(_ev_arrays(rules), _flags(rules), kinds, deal.first_seat, codes, total, out)
    return _record(out)


def play_batch(rules: RuleSet, levels: Sequence[str], keys: Sequence[int]) -> list[GameRecord]:
    """Deal (:func:`bot.sim.seeding.deal_from_key`) and play one game per key, in order."""
    codes = _codes(rules, levels)
    total, piece_kinds = _tables(rules)
    key_array = np.array([k & _MASK64 for k in keys], dtype=np.uint64)
    four_dice = rules.first_player is FirstPlayer.FOUR_DICE
    rows = _batch(_ev_arrays(rules), _flags(rules), codes, total, piece_kinds, key_array, four_dice)
    return [_record(row) for row in rows]


def compile_kernel() -> None:
    """Compile (or load from the disk cache) every kernel function, by playing one game."""
    from bot.engine import make_rules

    play_batch(make_rules("kap-shap"), ("greedy", "expert"), [1])
