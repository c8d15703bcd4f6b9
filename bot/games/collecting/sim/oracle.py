"""Exact probability that a dealt hand is already a winning hand (the simulator's sanity oracle).

The first player is dealt H tiles. The chance that they already form an eye plus ten-pairs is a
pure counting question, so the simulator can compare the share of games it sees won "dealt" by
the first player with the exact value (RULES.md §2.1: 81 745 / 10 518 300 for Kap Shap).

Method. Enumerating the C(32·sets, H) hands is out of the question, and even the ~870 000 kind-count
vectors of Kap Shap are slow in Python. But
:func:`bot.games.collecting.engine.hands.is_winning_counts` only looks
at a hand through

* the number of tiles of each residue (tile value mod 10), and
* for each residue, whether some kind that may form the eye is held at least twice,

(plus the exact counts of 4-2 and 2-1 when they are wild). So kinds are grouped into *buckets*
(one per residue, and one per wild kind); a small dynamic programme gives, for every bucket, the
number of ways to hold ``n`` of its tiles with or without an eye candidate, together with one
representative count vector. The buckets are then combined with a budget of H tiles, and every
combination is judged by the engine's own :func:`is_winning_counts` on its representative hand,
weighted by the number of hands it stands for. Combinations whose residue counts no eye can
balance are skipped early. Kap Shap takes a few hundredths of a second, Kap Tai Shap with 8 sets
about a tenth (about 1.5 s with wild Gee Joon); results are cached per process.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from bot.engine.rules import FourTwo, RuleSet
from bot.engine.tiles import KINDS, Tile
from bot.games.collecting.engine.hands import is_winning_counts

__all__ = ["OracleCheck", "check_dealt_wins", "dealt_win_count", "dealt_win_probability"]

_WILD_KINDS = frozenset({Tile(4, 2).index, Tile(2, 1).index})
_FOUR_TWO = Tile(4, 2).index

# (tiles held in the bucket, whether an eye candidate is held twice) -> (ways, representative)
_Options = dict[tuple[int, bool], tuple[int, tuple[tuple[int, int], ...]]]


def _residue(kind: int, four_two: FourTwo) -> int:
    if kind == _FOUR_TWO and four_two is FourTwo.THREE:
        return 3
    return KINDS[kind].pips % 10


# Residues in the order the walk visits them: the self-pairing residues, then each complementary
# pair side by side, so that a pair can be checked as soon as both sides are known.
_RESIDUE_ORDER = (0, 5, 1, 9, 2, 8, 3, 7, 4, 6)
_EVEN = "even"
_PAIR = "pair"


@dataclass(frozen=True, slots=True)
class _Bucket:
    kinds: tuple[int, ...]
    check: str | None  # _EVEN, _PAIR (with the bucket before it) or None


def _buckets(four_two: FourTwo) -> list[_Bucket]:
    """Kinds grouped so that the winning test cannot tell kinds of one bucket apart."""
    wild = four_two is FourTwo.WILD
    by_residue: dict[int, list[int]] = {r: [] for r in _RESIDUE_ORDER}
    alone: list[int] = []
    for tile in KINDS:
        if wild and tile.index in _WILD_KINDS:
            alone.append(tile.index)  # a wild kind's own count matters: keep it alone
        else:
            by_residue[_residue(tile.index, four_two)].append(tile.index)
    buckets: list[_Bucket] = []
    for position, residue in enumerate(_RESIDUE_ORDER):
        check: str | None = None
        if residue in (0, 5):
            check = _EVEN
        elif position % 2 == 1 and not (wild and residue in (7, 6)):
            # Wild tiles move between residues 3 and 6: those two groups are left to the engine.
            check = _PAIR
        buckets.append(_Bucket(tuple(by_residue[residue]), check))
    buckets += [_Bucket((kind,), None) for kind in alone]
    # Empty buckets stay (one option: none held) so that pairs stay side by side.
    return buckets


def _bucket_options(
    kinds: tuple[int, ...], sets: int, hand_size: int, military_eyes: bool
) -> _Options:
    """Ways to hold n tiles of a bucket, split by whether an eye candidate is held twice."""
    options: _Options = {(0, False): (1, ())}
    for kind in kinds:
        copies = (2 if KINDS[kind].civil else 1) * sets
        eligible = KINDS[kind].civil or military_eyes
        grown: _Options = {}
        for (held, eye), (ways, rep) in options.items():
            for count in range(min(copies, hand_size - held) + 1):
                key = (held + count, eye or (eligible and count >= 2))
                more = ways * math.comb(copies, count)
                if key in grown:
                    old_ways, old_rep = grown[key]
                    grown[key] = (old_ways + more, old_rep)
                else:
                    grown[key] = (more, (*rep, (kind, count)))
        options = grown
    return options


def dealt_win_count(
    hand_size: int,
    sets: int,
    four_two: FourTwo | str,
    military_eyes: bool,
    *,
    prune: bool = True,
) -> tuple[int, int]:
    """``(winning hands, all hands)``: hands of ``hand_size`` pieces out of ``32 * sets``.

    Hands are sets of physical pieces, all equally likely, as in a shuffled deal. Every hand
    class is judged by the engine's :func:`is_winning_counts`; ``prune`` only skips classes
    that cannot win because their residue counts are too unbalanced for any eye to mend
    (RULES.md §2.1: after the eye, r0 and r5 are even and r1=r9, r2=r8, r3=r7, r4=r6, so before
    it r0 and r5 are even and at most one complementary pair differs, by exactly 2). Tests run
    small cases both ways.
    """
    four_two = FourTwo(four_two)
    if hand_size < 2 or hand_size % 2:
        raise ValueError(
            f"a winning hand has an even number of tiles (at least 2), not {hand_size}"
        )
    if sets < 1:
        raise ValueError(f"sets must be at least 1, not {sets}")
    total = math.comb(32 * sets, hand_size)
    buckets = _buckets(four_two)
    checks = [b.check if prune else None for b in buckets]
    # By tile count: [(held, [(ways, representative), ...]), ...]
    tables: list[list[tuple[int, list[tuple[int, tuple[tuple[int, int], ...]]]]]] = []
    for bucket in buckets:
        by_count: dict[int, list[tuple[int, tuple[tuple[int, int], ...]]]] = {}
        options = _bucket_options(bucket.kinds, sets, hand_size, military_eyes)
        for (held, _eye), entry in options.items():
            by_count.setdefault(held, []).append(entry)
        tables.append(sorted(by_count.items()))
    # The most that the buckets from position i on can still hold: prunes hopeless branches.
    room = [0] * (len(tables) + 1)
    for i in range(len(tables) - 1, -1, -1):
        room[i] = room[i + 1] + tables[i][-1][0]
    # Bypass the engine's lru_cache: every representative is new, caching would only cost memory.
    wins_test: Callable[..., bool] = getattr(is_winning_counts, "__wrapped__", is_winning_counts)
    counts = [0] * len(KINDS)
    end = len(tables)
    wins = 0

    def judge(ways: int, rep: tuple[tuple[int, int], ...]) -> None:
        nonlocal wins
        for kind, count in rep:
            counts[kind] = count
        if wins_test(tuple(counts), hand_size, four_two, military_eyes):
            wins += ways
        for kind, _count in rep:
            counts[kind] = 0

    def walk(
        i: int, left: int, ways: int, reps: tuple[tuple[int, int], ...], prev: int, off: int
    ) -> None:
        if i == end:
            if left == 0:
                judge(ways, reps)
            return
        check = checks[i]
        for held, entries in tables[i]:
            if held > left:
                break
            if left - held > room[i + 1]:
                continue
            now_off = off
            if check == _EVEN and held % 2:
                continue
            if check == _PAIR and held != prev:
                # Only the eye's own pair may differ, and an eye takes exactly two tiles.
                if abs(held - prev) != 2 or off:
                    continue
                now_off = 1
            for more, rep in entries:
                walk(i + 1, left - held, ways * more, reps + rep, held, now_off)

    walk(0, hand_size, 1, (), 0, 0)
    return wins, total


@lru_cache(maxsize=64)
def dealt_win_probability(
    hand_size: int, sets: int, four_two: FourTwo | str, military_eyes: bool
) -> Fraction:
    """Exact probability that a dealt hand of ``hand_size`` tiles already wins (cached)."""
    wins, total = dealt_win_count(hand_size, sets, four_two, military_eyes)
    return Fraction(wins, total)


@dataclass(frozen=True, slots=True)
class OracleCheck:
    """The first player's observed dealt-hand win rate against the exact probability."""

    games: int
    dealt_wins: int
    observed: float
    exact: float
    exact_fraction: str  # e.g. "16349/2103660" (reduced)
    standard_error: float
    z: float | None  # None when the standard error is 0 (exact probability 0 or 1)


def check_dealt_wins(rules: RuleSet, games: int, dealt_wins: int) -> OracleCheck:
    """Compare ``dealt_wins`` first-player dealt wins in ``games`` games with the exact rate.

    z = (observed - exact) / sqrt(exact (1 - exact) / games); |z| beyond 4 means the simulator
    (or the engine, or the oracle) is wrong, not bad luck.
    """
    if games <= 0:
        raise ValueError("the oracle needs at least one game")
    exact = dealt_win_probability(
        rules.hand_size, rules.sets, rules.four_two_value, rules.military_eyes
    )
    p = float(exact)
    observed = dealt_wins / games
    se = math.sqrt(p * (1.0 - p) / games)
    return OracleCheck(
        games=games,
        dealt_wins=dealt_wins,
        observed=observed,
        exact=p,
        exact_fraction=f"{exact.numerator}/{exact.denominator}",
        standard_error=se,
        z=(observed - p) / se if se > 0 else None,
    )
