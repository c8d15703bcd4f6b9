"""The decision core shared by the computer players and the fast simulator.

Everything here works on *packed count vectors*: a multiset of tiles is one ``int`` holding, for
each of the 21 kinds, a 16-bit field with the number of copies (``UNIT[k]`` is one tile of kind
``k``). Adding or removing a tile is one addition, a hand is a dictionary key, and the number of
unseen tiles that would improve a hand is one multiplication (:func:`weight`): the improving
kinds are kept as a mask packed in *reverse* field order, so the product's middle field is the
dot product of the mask with the unseen counts (every partial sum of that product, at most
21 x 16 = 336, stays inside its field). Sixteen bits rather than the nine that suffice make a
hand's counts one ``int.to_bytes`` away.

:class:`HandEvaluator` answers, for one rule signature (hand size, sets, 4-2 value, eyes), how
many tiles a hand is missing from a winning hand and which kinds would bring it one tile closer.
Answers are memoised per hand, so a long simulation mostly does dictionary look-ups.

The players (:mod:`bot.games.collecting.ai.greedy`, :mod:`bot.games.collecting.ai.expert`) adapt a
:class:`~bot.engine.View` to
these values; :mod:`bot.games.collecting.sim.fast` maintains the same values incrementally and
calls the very same
decision functions, which is why both paths play identical games.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import getitem

from bot.engine.rules import FourTwo, RuleSet
from bot.engine.tiles import KINDS

__all__ = [
    "BOT_MEMO",
    "DECLARE",
    "DOT_SHIFT",
    "DRAW",
    "FIELD_BITS",
    "FIELD_MASK",
    "KEY_BYTES",
    "KIND_COUNT",
    "REVERSED_UNIT",
    "SIMULATOR_MEMO",
    "UNIT",
    "WILD",
    "HandEvaluator",
    "MemoLimits",
    "count_of",
    "evaluator_count",
    "evaluator_for",
    "forget_evaluators",
    "memo_limits",
    "pack",
    "pack_tiles",
    "set_memo_limits",
    "total_counts",
    "unpack",
    "weight",
]

KIND_COUNT = len(KINDS)
FIELD_BITS = 16
KEY_BYTES = KIND_COUNT * FIELD_BITS // 8
FIELD_MASK = (1 << FIELD_BITS) - 1
UNIT: tuple[int, ...] = tuple(1 << (FIELD_BITS * k) for k in range(KIND_COUNT))
"""``UNIT[k]``: one tile of kind ``k`` as a packed count vector."""
REVERSED_UNIT: tuple[int, ...] = tuple(
    1 << (FIELD_BITS * (KIND_COUNT - 1 - k)) for k in range(KIND_COUNT)
)
"""``REVERSED_UNIT[k]``: kind ``k`` in a reversed mask (see :func:`weight`)."""
DOT_SHIFT = FIELD_BITS * (KIND_COUNT - 1)

DRAW = -1
"""Decision value: draw from the wall instead of taking a discard."""
DECLARE = -1
"""Decision value: declare the winning hand instead of discarding."""

WILD = _WILD = 10  # residue class of 4-2 and 2-1 under gee_joon_wild (value 3 or 6)
_FOUR_TWO = 19
_TWO_ONE = 20
_PAIR_CLASSES = ((1, 9), (2, 8), (3, 7), (4, 6))
# Pair class of each residue: 0-3 the classes above, 4 the 0+0 pairs, 5 the 5+5 pairs.
_CLASS_OF = (4, 0, 1, 2, 3, 5, 3, 2, 1, 0)

# Signature layout: held residue counts in 4-bit fields (bits 0-39), wild tiles held (40-43),
# then per eye class q (a residue, or _WILD) two 3-bit fields at _EYE_POS + 6 q: the eye kinds
# of that class held once, and those held twice or more.
_R_MASK = (1 << 40) - 1
_WILD_POS = 40
_EYE_POS = 44

# A solved signature: (missing, improving residue bits, improving eye groups).
_Solved = tuple[int, int, tuple[tuple[int, int], ...]]
# Discard rows of a full hand: (missing after, kind, reversed improver mask after).
_Rows = tuple[tuple[int, int, int], ...]


def _n1_pos(eye_class: int) -> int:
    return _EYE_POS + 6 * eye_class


def _n2_pos(eye_class: int) -> int:
    return _EYE_POS + 3 + 6 * eye_class


# Kind bits -> reversed mask / kinds, seven kinds at a time.
_REVERSED: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sum(REVERSED_UNIT[7 * j + i] for i in range(7) if v >> i & 1 and 7 * j + i < KIND_COUNT)
        for v in range(128)
    )
    for j in range(3)
)
_KINDS_OF_BITS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(7 * j + i for i in range(7) if v >> i & 1) for v in range(128)) for j in range(3)
)


def pack(counts: Sequence[int]) -> int:
    """A count vector (indexed by kind) as a packed int."""
    return sum(c << (FIELD_BITS * k) for k, c in enumerate(counts))


def unpack(key: int) -> list[int]:
    """The count vector (length 21) of a packed int."""
    return [(key >> (FIELD_BITS * k)) & FIELD_MASK for k in range(KIND_COUNT)]


def count_of(key: int, kind: int) -> int:
    """How many tiles of ``kind`` a packed vector holds."""
    return (key >> (FIELD_BITS * kind)) & FIELD_MASK


def weight(reversed_mask: int, key: int) -> int:
    """Sum of ``key``'s counts over the kinds of a reversed mask, by one multiplication."""
    return ((reversed_mask * key) >> DOT_SHIFT) & FIELD_MASK


def total_counts(rules: RuleSet) -> int:
    """Every tile of the rule set's sets, packed."""
    return _total_counts(rules.sets)


@lru_cache(maxsize=16)
def _total_counts(sets: int) -> int:
    return pack([(2 if t.civil else 1) * sets for t in KINDS])


def _residue_classes(four_two: FourTwo) -> list[int]:
    """Residue mod 10 of each kind's value; ``_WILD`` for 4-2 and 2-1 under wild."""
    out = []
    for t in KINDS:
        if four_two is FourTwo.WILD and t.index in (_FOUR_TWO, _TWO_ONE):
            out.append(_WILD)
        elif t.index == _FOUR_TWO and four_two is FourTwo.THREE:
            out.append(3)
        else:
            out.append(t.pips % 10)
    return out


class HandEvaluator:
    """How far hands are from winning under one rule signature, memoised.

    *Missing* is the least number of tiles to add or replace to reach a winning hand that the
    sets can hold: ``H - max |hand ∩ W|`` over winning hands ``W`` (an eye plus ten-pairs, no
    kind used more often than the sets hold it). A full hand wins exactly when it misses 0.

    Method (why it is exact): give the eye to a kind ``e`` first (it takes ``min(c_e, 2)`` held
    copies; an eye slot accepts only ``e``, a pair slot any tile of the right residue, so filling
    the eye first never loses a match). The ten-pairs then depend only on residue counts. Each
    pair class (``1+9``, ``2+8``, ``3+7``, ``4+6``, ``0+0``, ``5+5``) gains 2, then 1, then 0
    matched tiles per extra pair, capped by the copies the sets hold of its residues; the gains
    are concave, so the best ``P`` pairs are the ``P`` largest steps: ``2 min(P, T) + min(P - T,
    O)`` with ``T`` twos and ``O`` ones. Under wild each held 4-2 / 2-1 tries both values.

    So the answer depends only on a hand's *signature*: its residue counts, its wild tiles and,
    per residue class, how many eye kinds it holds once and how many twice or more. Signatures
    are far fewer than hands, so they are memoised first (a hand's own answers are memoised on
    top, within a bounded number of entries).
    """

    def __init__(self, hand_size: int, sets: int, four_two: FourTwo, military_eyes: bool) -> None:
        self.hand_size = hand_size
        self.pairs = (hand_size - 2) // 2
        self.sets = sets
        self.four_two = four_two
        self.military_eyes = military_eyes
        self.caps: tuple[int, ...] = tuple((2 if t.civil else 1) * sets for t in KINDS)
        self.residue: tuple[int, ...] = tuple(_residue_classes(four_two))
        self.wild = four_two is FourTwo.WILD
        supply = [0] * 11
        for k, r in enumerate(self.residue):
            supply[r] += self.caps[k]
        self._supply = supply
        # Kinds that may form the eye: civil always, military when the rules allow it.
        self.eye_kinds: tuple[int, ...] = tuple(
            t.index for t in KINDS if (t.civil or military_eyes) and self.caps[t.index] >= 2
        )
        eyes_by_class: list[list[int]] = [[] for _ in range(11)]
        for e in self.eye_kinds:
            eyes_by_class[self.residue[e]].append(e)
        self._eyes_by_class = tuple(tuple(kinds) for kinds in eyes_by_class)
        self._eye_classes = tuple(q for q in range(11) if eyes_by_class[q])
        self._residue_bits = [0] * 11  # bit mask of kinds per residue class
        for k, r in enumerate(self.residue):
            self._residue_bits[r] |= 1 << k
        self._residues_present = tuple(r for r in range(10) if self._residue_bits[r])
        self._bits_of_residues = tuple(
            sum(self._residue_bits[r] for r in range(11) if bits >> r & 1)
            for bits in range(1 << 11)
        )
        self._mask_of_residues = tuple(
            sum(REVERSED_UNIT[k] for k in range(KIND_COUNT) if b >> k & 1)
            for b in self._bits_of_residues
        )
        # Signature deltas: adding one tile of kind k to a hand holding c copies (c capped at 2).
        add: list[tuple[int, int, int]] = []
        for k in range(KIND_COUNT):
            r = self.residue[k]
            base = 1 << (_WILD_POS if r == _WILD else 4 * r)
            if k in self.eye_kinds:
                n1, n2 = 1 << _n1_pos(r), 1 << _n2_pos(r)
                add.append((base + n1, base - n1 + n2, base))
            else:
                add.append((base, base, base))
        self._sig_add = tuple(add)
        # _sig_rows[k][c]: the signature part of c copies of kind k.
        rows = []
        for k in range(KIND_COUNT):
            row = [0, add[k][0], add[k][0] + add[k][1]]
            while len(row) < 256:
                row.append(row[-1] + add[k][2])
            rows.append(tuple(row))
        self._sig_rows = tuple(rows)
        self._step_tables()
        self._po: dict[int, int] = {}
        self._sig_info: dict[int, _Solved] = {}
        self._info: dict[int, tuple[int, int, tuple[int, ...]]] = {}
        self._table: dict[int, tuple[bool, _Rows]] = {}
        # Memo sizes (entries take a few hundred bytes). A memo that fills up is emptied and
        # starts over (answers never change, so this only costs time), which bounds memory: a
        # simulator worker's (SIMULATOR_MEMO) or the bot's (BOT_MEMO, see set_memo_limits).
        # Kap Shap's 8-tile hands recur across games, so they get more room.
        limits = _memo_limits
        self.signature_limit = limits.signatures
        self.hand_limit = limits.hands
        self.full_hand_limit = limits.full_hands if hand_size <= 8 else limits.full_hands_large

    # -- pairs -------------------------------------------------------------------------------

    def _pair_overlap(self, rkey: int, wild_held: int, eye_class: int) -> int:
        """Most held tiles the P ten-pairs can use, or -1 if no winning hand has this eye.

        ``rkey`` packs the held non-eye residue counts in 4-bit fields; ``wild_held`` counts
        held 4-2 / 2-1 tiles under wild; ``eye_class`` is the residue class of the eye kind.
        """
        memo_key = (rkey << 9) | (wild_held << 4) | eye_class
        found = self._po.get(memo_key)
        if found is not None:
            return found
        supply = list(self._supply)
        supply[eye_class] -= 2
        if self.wild:
            # A 4-2 or 2-1 counts 3 or 6: the 3s come only from them, the 6s from 3-3, 5-1 or
            # them. Counting the wild copies in both supplies is exact because with P <= 4
            # pairs the shared supply never binds: at least 4 copies of 3-3, 5-1 and the wild
            # tiles remain beside any eye (the brute-force tests cover wild signatures).
            wild_supply = supply[_WILD]
            supply[3] += wild_supply
            supply[6] += wild_supply
        held = [(rkey >> (4 * r)) & 15 for r in range(10)]
        p = self.pairs
        best = -1
        for sixes in range(wild_held + 1):
            r = held
            if wild_held:
                r = list(held)
                r[3] += wild_held - sixes
                r[6] += sixes
            twos = ones = room = 0
            for a_res, b_res in _PAIR_CLASSES:
                a, b = r[a_res], r[b_res]
                cap = min(supply[a_res], supply[b_res])
                room += cap
                lo, hi = (a, b) if a < b else (b, a)
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
        if len(self._po) >= self.signature_limit:
            self._po.clear()
        self._po[memo_key] = best
        return best

    # -- signatures --------------------------------------------------------------------------

    def signature(self, counts: Sequence[int]) -> int:
        """The signature of a count vector (all that missing and improvers depend on)."""
        return sum(map(getitem, self._sig_rows, counts))

    def _solve(self, sig: int) -> _Solved:
        """``(missing, improving residue bits, improving eye groups)`` of a signature.

        Bit ``r`` of the residue bits (10 = the wild tiles) says one more tile of residue ``r``
        helps; an eye group ``(class, m)`` says one more copy of an eye kind of that class held
        ``m`` times helps.
        """
        found = self._sig_info.get(sig)
        if found is not None:
            return found
        answer = self._solve_general(sig) if self.wild else self._solve_plain(sig)
        if len(self._sig_info) >= self.signature_limit:
            self._sig_info.clear()
        self._sig_info[sig] = answer
        return answer

    def _solve_general(self, sig: int) -> _Solved:
        """:meth:`_solve` by memoised pair overlaps (any 4-2 value, including wild)."""
        rkey = sig & _R_MASK
        wild_held = (sig >> _WILD_POS) & 15
        po = self._pair_overlap
        best = -1
        options: list[tuple[int, int, int, int, int]] = []
        for q in self._eye_classes:
            n1 = (sig >> _n1_pos(q)) & 7
            n2 = (sig >> _n2_pos(q)) & 7
            n0 = len(self._eyes_by_class[q]) - n1 - n2
            for m, n in ((0, n0), (1, n1), (2, n2)):
                if not n:
                    continue
                if q == _WILD:
                    rk, wh = rkey, wild_held - m
                else:
                    rk, wh = rkey - (m << (4 * q)), wild_held
                pairs = po(rk, wh, q)
                if pairs < 0:
                    continue
                value = m + pairs
                options.append((value, q, m, rk, wh))
                if value > best:
                    best = value
        residue_bits = 0
        groups: list[tuple[int, int]] = []
        for value, q, m, rk, wh in options:
            if value != best:
                continue
            if m < 2:
                groups.append((q, m))
            base = value - m
            for r in self._residues_present:
                if not residue_bits >> r & 1 and po(rk + (1 << (4 * r)), wh, q) > base:
                    residue_bits |= 1 << r
            if self.wild and not residue_bits >> _WILD & 1 and po(rk, wh + 1, q) > base:
                residue_bits |= 1 << _WILD
        return self.hand_size - best, residue_bits, tuple(groups)

    def _class_steps(
        self, ci: int, held: list[int], supply: list[int]
    ) -> tuple[int, int, int, int, int]:
        """``(twos, ones, cap, short, long)`` of pair class ``ci`` (see the class docstring).

        ``short`` and ``long`` are residue bits: one more tile of a *short* residue completes a
        half pair (one more two, one fewer one); one more of a *long* residue adds a half pair
        (one more one). A residue already at the class's cap is neither.
        """
        if ci < 4:
            x, y = _PAIR_CLASSES[ci]
            a, b = held[x], held[y]
            cap = supply[x] if supply[x] < supply[y] else supply[y]
            if a < b:
                t = a if a < cap else cap
                return (
                    t,
                    (b if b < cap else cap) - t,
                    cap,
                    (1 << x) if a < cap else 0,
                    (1 << y) if b < cap else 0,
                )
            t = b if b < cap else cap
            if a > b:
                return (
                    t,
                    (a if a < cap else cap) - t,
                    cap,
                    (1 << y) if b < cap else 0,
                    (1 << x) if a < cap else 0,
                )
            return t, 0, cap, 0, ((1 << x) | (1 << y)) if a < cap else 0
        r = 0 if ci == 4 else 5
        a = held[r]
        cap = supply[r] // 2
        half = a >> 1
        if a & 1:
            if half < cap:
                return half, 1, cap, 1 << r, 0
            return cap, 0, cap, 0, 0
        if half < cap:
            return half, 0, cap, 0, 1 << r
        return cap, 0, cap, 0, 0

    def _step_tables(self) -> None:
        """Precompute :meth:`_class_steps` for every pair class, held counts and eye place.

        ``_steps[ci][side][a * 16 + b]`` is the class ``ci`` with ``a`` and ``b`` tiles held on
        its two residues (``b`` unused for the 0+0 and 5+5 classes) and the eye taking two
        copies of supply from no residue (side 0), the first (1) or the second (2).
        """
        steps: list[list[tuple[tuple[int, int, int, int, int], ...]]] = []
        for ci in range(6):
            x, y = _PAIR_CLASSES[ci] if ci < 4 else ((0, 0) if ci == 4 else (5, 5))
            per_side = []
            for side in range(3):
                supply = self._supply[:10]
                if side:
                    supply[x if side == 1 else y] -= 2
                table = []
                for a in range(16):
                    for b in range(16):
                        held = [0] * 10
                        held[x] = a
                        if ci < 4:
                            held[y] = b
                        table.append(self._class_steps(ci, held, supply))
                per_side.append(tuple(table))
            steps.append(per_side)
        self._steps = steps
        # Where each residue sits in its class: (class, side), and the other residue.
        place = []
        for r in range(10):
            ci = _CLASS_OF[r]
            side = 1 if ci >= 4 or _PAIR_CLASSES[ci][0] == r else 2
            place.append((ci, side))
        self._place = tuple(place)

    def _solve_plain(self, sig: int) -> _Solved:
        """:meth:`_solve` in closed form when no tile is wild.

        The eye changes one pair class only (its residue loses the held eye copies and two
        copies of supply). With ``T < P`` twos, one more tile helps exactly when it completes
        a half pair (a *short* residue) or, while ``O < P - T``, when it starts one (*long*).
        """
        p = self.pairs
        h = [(sig >> (4 * r)) & 15 for r in range(10)]
        steps = self._steps
        # Held counts per class as a table index: a * 16 + b.
        index = (h[1] * 16 + h[9], h[2] * 16 + h[8], h[3] * 16 + h[7], h[4] * 16 + h[6],
                 h[0] * 16, h[5] * 16)  # fmt: skip
        base = [steps[ci][0][index[ci]] for ci in range(6)]
        twos = ones = room = short_all = long_all = 0
        for t, o, c, sb, lb in base:
            twos += t
            ones += o
            room += c
            short_all |= sb
            long_all |= lb
        # No eye option beats m + the pair overlap without an eye (taking held tiles or supply
        # away never adds matches), so options go by m, highest first, and stop early.
        pairs_alone = 2 * twos + min(p - twos, ones) if twos < p else 2 * p
        eyes_by_class = self._eyes_by_class
        place = self._place
        by_m: tuple[list[int], list[int], list[int]] = ([], [], [])
        for q in self._eye_classes:
            n1 = (sig >> (_EYE_POS + 6 * q)) & 7
            n2 = (sig >> (_EYE_POS + 3 + 6 * q)) & 7
            if n2:
                by_m[2].append(q)
            if n1:
                by_m[1].append(q)
            if n1 + n2 < len(eyes_by_class[q]):
                by_m[0].append(q)
        best = -1
        residue_bits = 0
        groups: list[tuple[int, int]] = []
        for m in (2, 1, 0):
            if m + pairs_alone < best:
                break
            for q in by_m[m]:
                ci, side = place[q]
                bt, bo, bc, bsb, blb = base[ci]
                t, o, c, sb, lb = steps[ci][side][index[ci] - m * (16 if side == 1 else 1)]
                if room - bc + c < p:
                    continue
                t += twos - bt
                if t >= p:
                    value = m + 2 * p
                    helps = 0
                else:
                    o += ones - bo
                    rest = p - t
                    value = m + 2 * t + (rest if rest < o else o)
                    if value < best:
                        continue
                    # Residues of other classes keep their base bits; this class's are new.
                    helps = (short_all & ~(bsb | blb)) | sb
                    if o < rest:
                        helps |= (long_all & ~(bsb | blb)) | lb
                if value > best:
                    best = value
                    residue_bits = helps
                    groups = [(q, m)] if m < 2 else []
                elif value == best:
                    residue_bits |= helps
                    if m < 2:
                        groups.append((q, m))
        return self.hand_size - best, residue_bits, tuple(groups)

    def _improving_kinds(
        self, counts: Sequence[int], residue_bits: int, groups: tuple[tuple[int, int], ...]
    ) -> tuple[int, int]:
        """``(reversed mask, kind bits)`` of the improving kinds of a concrete hand.

        Kinds whose every copy is already held are included (no unseen copy can weigh them).
        """
        bits = self._bits_of_residues[residue_bits]
        for q, m in groups:
            for e in self._eyes_by_class[q]:
                if counts[e] == m:
                    bits |= 1 << e
        return _REVERSED[0][bits & 127] | _REVERSED[1][bits >> 7 & 127] | _REVERSED[2][
            bits >> 14
        ], bits

    def _decode(self, key: int) -> tuple[list[int], int]:
        """Counts (a list, by kind) and signature of a packed hand, mostly in C (a hand's
        counts are below 256, so each field's low byte is the count)."""
        counts = list(key.to_bytes(KEY_BYTES, "little")[::2])
        return counts, sum(map(getitem, self._sig_rows, counts))

    # -- answers -----------------------------------------------------------------------------

    def overlap(self, counts: Sequence[int]) -> int:
        """Most tiles of ``counts`` that one winning hand can keep."""
        return self.hand_size - self._solve(self.signature(counts))[0]

    def missing_counts(self, counts: Sequence[int]) -> int:
        """Tiles missing from a winning hand (a full hand wins when this is 0)."""
        return self._solve(self.signature(counts))[0]

    def missing(self, key: int) -> int:
        """Tiles missing from a winning hand for a packed hand of H-1 or H tiles."""
        return self._solve(self._decode(key)[1])[0]

    def wins(self, key: int) -> bool:
        """Whether a packed hand of H tiles wins (by its signature, memoised)."""
        sig = sum(map(getitem, self._sig_rows, key.to_bytes(KEY_BYTES, "little")[::2]))
        return (self._sig_info.get(sig) or self._solve(sig))[0] == 0

    def info(self, key: int) -> tuple[int, int, tuple[int, ...]]:
        """For a hand between turns (H-1 tiles): ``(missing, reversed improver mask, improvers)``.

        The improvers are the kinds one more copy of which leaves one tile fewer missing. Kinds
        whose every copy is in the hand are included: no unseen or face-up copy exists, so they
        weigh nothing and can never be taken (:meth:`improvers` leaves them out).
        """
        found = self._info.get(key)
        if found is not None:
            return found
        counts, sig = self._decode(key)
        missing, residue_bits, groups = self._solve(sig)
        mask, bits = self._improving_kinds(counts, residue_bits, groups)
        answer = (
            missing,
            mask,
            _KINDS_OF_BITS[0][bits & 127]
            + _KINDS_OF_BITS[1][bits >> 7 & 127]
            + _KINDS_OF_BITS[2][bits >> 14],
        )
        if len(self._info) >= self.hand_limit:
            self._info.clear()
        self._info[key] = answer
        return answer

    def table(self, key: int) -> tuple[bool, _Rows]:
        """For a full hand (H tiles): ``(wins, discards)``.

        ``discards`` holds ``(missing after, kind, reversed improver mask after)`` for the kinds
        a discard decision can reach: those leaving the fewest tiles missing, and when that is a
        single kind (which may be banned as just taken) also those leaving one more (a discard
        lowers the overlap by at most one, so no others exist). Fewest missing first, then
        highest kind first: the order ties are broken in. For other kinds, see :meth:`info`.
        """
        found = self._table.get(key)
        if found is not None:
            return found
        counts, sig = self._decode(key)
        add = self._sig_add
        known = self._sig_info
        solve = self._solve
        # A discard lowers the overlap by 0 or 1, so the rows fall in two groups: the fewest
        # missing (``low``) and one more (``high``). Kinds are visited highest first.
        low: list[tuple[int, int, tuple[int, int, tuple[tuple[int, int], ...]]]] = []
        high: list[tuple[int, int, tuple[int, int, tuple[tuple[int, int], ...]]]] = []
        least = 99
        for k in range(KIND_COUNT - 1, -1, -1):
            c = counts[k]
            if c:
                child_sig = sig - add[k][c - 1 if c < 3 else 2]
                solved = known.get(child_sig) or solve(child_sig)
                missing = solved[0]
                if missing < least:
                    high = low
                    low = []
                    least = missing
                (low if missing == least else high).append((missing, k, solved))
        wins = False
        rows = []
        mask_of = self._mask_of_residues
        eyes_by_class = self._eyes_by_class
        for missing, k, (_, residue_bits, groups) in low if len(low) > 1 else low + high:
            mask = mask_of[residue_bits]
            if groups:
                counts[k] -= 1
                for q, m in groups:
                    for e in eyes_by_class[q]:
                        if counts[e] == m:
                            mask |= REVERSED_UNIT[e]
                counts[k] += 1
            # The full hand wins iff removing some tile leaves a hand one tile short that this
            # very tile completes.
            if missing == 1 and mask & REVERSED_UNIT[k]:
                wins = True
            rows.append((missing, k, mask))
        answer = (wins, tuple(rows))
        if len(self._table) >= self.full_hand_limit:
            self._table.clear()
        self._table[key] = answer
        return answer

    def outs_after_takes(
        self, hand: int, kinds: Sequence[int], unseen: int
    ) -> list[tuple[int, _Rows]]:
        """For each improving kind ``k``: the most outs after taking ``k`` and the best discard,
        and the discard rows of ``hand + UNIT[k]`` (as :meth:`table` gives them).

        The same answer as the best row of ``table(hand + UNIT[k])`` with ``k`` banned, found
        without decoding each hand again: a take of an improving kind leaves exactly one tile
        fewer missing after the best discard (see
        :func:`bot.games.collecting.ai.greedy.greedy_take`).
        """
        counts, sig = self._decode(hand)
        target = self._solve(sig)[0] - 1
        add = self._sig_add
        known = self._sig_info
        solve = self._solve
        mask_of = self._mask_of_residues
        eyes_by_class = self._eyes_by_class
        out = []
        for k in kinds:
            ck = counts[k]
            counts[k] = ck + 1
            with_k = sig + add[k][ck if ck < 2 else 2]
            low: list[tuple[int, _Solved]] = []
            high: list[tuple[int, _Solved]] = []
            for d in range(KIND_COUNT - 1, -1, -1):
                c = counts[d]
                if c:
                    child = with_k - add[d][c - 1 if c < 3 else 2]
                    solved = known.get(child) or solve(child)
                    (low if solved[0] == target else high).append((d, solved))
            best = -1
            rows = []
            for d, (missing, residue_bits, groups) in low if len(low) > 1 else low + high:
                mask = mask_of[residue_bits]
                if groups:
                    c = counts[d]
                    counts[d] = c - 1
                    for q, m in groups:
                        for e in eyes_by_class[q]:
                            if counts[e] == m:
                                mask |= REVERSED_UNIT[e]
                    counts[d] = c
                rows.append((missing, d, mask))
                if missing == target and d != k:
                    outs = ((mask * unseen) >> DOT_SHIFT) & FIELD_MASK
                    if outs > best:
                        best = outs
            counts[k] = ck
            out.append((best, tuple(rows)))
        return out

    def remember_table(self, key: int, rows: _Rows) -> None:
        """Memoise the rows of a full hand that does not win (see :meth:`outs_after_takes`)."""
        if len(self._table) < self.full_hand_limit:
            self._table[key] = (False, rows)

    def improvers(self, key: int) -> tuple[int, ...]:
        """Kinds one more copy of which would leave an (H-1)-tile hand one tile fewer missing
        (only kinds the sets hold a further copy of)."""
        caps = self.caps
        return tuple(k for k in self.info(key)[2] if count_of(key, k) < caps[k])

    def cache_sizes(self) -> dict[str, int]:
        """Entries memoised per table, for benchmarks."""
        return {
            "pairs": len(self._po),
            "signatures": len(self._sig_info),
            "hands": len(self._info),
            "full hands": len(self._table),
        }


@dataclass(frozen=True, slots=True)
class MemoLimits:
    """How many entries the AI's memo tables may hold: the evaluators kept (one per hand
    signature: hand size, sets, 4-2 value, eyes) and each evaluator's memos."""

    evaluators: int
    signatures: int
    hands: int
    full_hands: int  # 8-tile hands (Kap Shap)
    full_hands_large: int  # longer hands (Kap Tai Shap)


#: The simulator's limits: large memos, since a long run meets the same hands again and again
#: (a full evaluator holds a few hundred MB; one simulator worker uses one or two).
SIMULATOR_MEMO = MemoLimits(64, 400_000, 200_000, 400_000, 100_000)

#: The bot's limits, set by ``bot.app``: a few decisions per turn need little memo, and a
#: server may host tables of many rule signatures at once. About 15 MB per evaluator at most,
#: 60 MB in all (the budget in docs/benchmarks.md).
BOT_MEMO = MemoLimits(4, 20_000, 10_000, 20_000, 10_000)

_memo_limits = SIMULATOR_MEMO
_evaluators: OrderedDict[tuple[int, int, FourTwo, bool], HandEvaluator] = OrderedDict()


def set_memo_limits(limits: MemoLimits) -> None:
    """Bound the AI's memo tables from now on (drops the evaluators built so far)."""
    global _memo_limits
    _memo_limits = limits
    forget_evaluators()


def memo_limits() -> MemoLimits:
    """The limits in force."""
    return _memo_limits


def evaluator_count() -> int:
    """How many shared evaluators are alive (at most ``memo_limits().evaluators``)."""
    return len(_evaluators)


def _evaluator(hand_size: int, sets: int, four_two: FourTwo, military_eyes: bool) -> HandEvaluator:
    key = (hand_size, sets, four_two, military_eyes)
    found = _evaluators.get(key)
    if found is not None:
        _evaluators.move_to_end(key)
        return found
    made = _evaluators[key] = HandEvaluator(hand_size, sets, four_two, military_eyes)
    while len(_evaluators) > _memo_limits.evaluators:
        _evaluators.popitem(last=False)  # the least recently used signature
    return made


def evaluator_for(rules: RuleSet) -> HandEvaluator:
    """The shared, memoising evaluator for a rule set's hand signature."""
    return _evaluator(rules.hand_size, rules.sets, rules.four_two_value, rules.military_eyes)


def forget_evaluators() -> None:
    """Drop every shared evaluator and its memo tables (for benchmarks from a cold start)."""
    _evaluators.clear()


def pack_tiles(kinds: Iterable[int]) -> int:
    """Pack a sequence of kind indices."""
    key = 0
    for k in kinds:
        key += UNIT[k]
    return key
