"""The decision core's missing-tiles count and improving kinds, against a brute-force search.

The brute force knows nothing of residues: it lists every winning hand the sets can hold (an eye
kind plus ten-pairs of kinds, each checked by the engine's own ``is_winning_counts``) and takes
the largest overlap with the hand.
"""

from __future__ import annotations

import itertools
import random
from functools import cache

import pytest

from bot.engine import KINDS, FourTwo, parse_tiles
from bot.games.collecting.ai.core import REVERSED_UNIT, UNIT, HandEvaluator, pack, weight
from bot.games.collecting.engine.hands import counts_of, is_ten_pair, is_winning_counts

# (hand size, sets, 4-2 value, military eyes): Kap Shap and small Kap Tai Shap signatures.
SIGNATURES = [
    (8, 1, FourTwo.THREE, False),
    (8, 1, FourTwo.SIX, False),
    (8, 1, FourTwo.WILD, False),
    (10, 1, FourTwo.THREE, False),
    (8, 2, FourTwo.WILD, True),
    (8, 2, FourTwo.SIX, False),
]


def caps_of(sets: int) -> list[int]:
    return [(2 if t.civil else 1) * sets for t in KINDS]


@cache
def winning_hands(
    hand_size: int, sets: int, four_two: FourTwo, military_eyes: bool
) -> list[tuple[tuple[int, int], ...]]:
    """Every winning count vector the sets can hold, as sparse ``(kind, count)`` tuples."""
    caps = caps_of(sets)
    pairs = [
        (a.index, b.index)
        for a, b in itertools.combinations_with_replacement(KINDS, 2)
        if is_ten_pair(a, b, four_two)
    ]
    eyes = [t.index for t in KINDS if (t.civil or military_eyes) and caps[t.index] >= 2]
    found: set[tuple[int, ...]] = set()
    for chosen in itertools.combinations_with_replacement(pairs, (hand_size - 2) // 2):
        base = [0] * 21
        for a, b in chosen:
            base[a] += 1
            base[b] += 1
        for eye in eyes:
            counts = list(base)
            counts[eye] += 2
            if all(c <= cap for c, cap in zip(counts, caps, strict=True)):
                found.add(tuple(counts))
    for counts in found:
        assert is_winning_counts(counts, hand_size, four_two, military_eyes)
    return [tuple((k, c) for k, c in enumerate(counts) if c) for counts in found]


def brute_overlap(counts: list[int], wins: list[tuple[tuple[int, int], ...]]) -> int:
    return max(sum(min(c, counts[k]) for k, c in w) for w in wins)


def sample_hands(
    rng: random.Random, signature: tuple[int, int, FourTwo, bool], n: int
) -> list[list[int]]:
    """Random hands of H-1 and H tiles, half of them a few tiles away from a winning hand."""
    hand_size, sets = signature[0], signature[1]
    caps = caps_of(sets)
    pieces = [k for k in range(21) for _ in range(caps[k])]
    wins = winning_hands(*signature)
    out = []
    for i in range(n):
        size = hand_size - 1 if i % 2 else hand_size
        if i % 4 < 2:
            counts = [0] * 21
            for k in rng.sample(pieces, size):
                counts[k] += 1
        else:
            counts = [0] * 21
            for k, c in wins[rng.randrange(len(wins))]:
                counts[k] = c
            for _ in range(rng.randint(1, 3)):
                held = [k for k in range(21) if counts[k]]
                counts[rng.choice(held)] -= 1
            while sum(counts) > size:
                counts[rng.choice([k for k in range(21) if counts[k]])] -= 1
            while sum(counts) < size:
                k = rng.randrange(21)
                if counts[k] < caps[k]:
                    counts[k] += 1
        out.append(counts)
    return out


def brute_improvers(counts: list[int], wins: list[tuple[tuple[int, int], ...]]) -> tuple[int, ...]:
    """Kinds one more copy of which raises the best overlap: those some best winning hand holds
    more of than the hand does (such a hand fits the sets, so a further copy exists)."""
    overlaps = [sum(min(c, counts[k]) for k, c in w) for w in wins]
    best = max(overlaps)
    kinds: set[int] = set()
    for w, overlap in zip(wins, overlaps, strict=True):
        if overlap == best:
            kinds.update(k for k, c in w if c > counts[k])
    return tuple(sorted(kinds))


@pytest.mark.parametrize("signature", SIGNATURES, ids=str)
def test_missing_and_improvers_match_brute_force(signature: tuple[int, int, FourTwo, bool]) -> None:
    hand_size, sets, four_two, military_eyes = signature
    ev = HandEvaluator(hand_size, sets, four_two, military_eyes)
    wins = winning_hands(*signature)
    rng = random.Random(hand_size * 100 + sets * 10 + len(four_two.value))
    for counts in sample_hands(rng, signature, 40):
        overlap = brute_overlap(counts, wins)
        assert ev.missing_counts(counts) == hand_size - overlap, counts
        if sum(counts) == hand_size:
            assert (overlap == hand_size) == is_winning_counts(
                tuple(counts), hand_size, four_two, military_eyes
            )
            assert ev.table(pack(counts))[0] == (overlap == hand_size)
        else:
            assert ev.improvers(pack(counts)) == brute_improvers(counts, wins), counts


@pytest.mark.parametrize("signature", SIGNATURES[:4], ids=str)
def test_discard_rows_match_brute_force(signature: tuple[int, int, FourTwo, bool]) -> None:
    hand_size, sets, four_two, military_eyes = signature
    ev = HandEvaluator(hand_size, sets, four_two, military_eyes)
    wins = winning_hands(*signature)
    rng = random.Random(7)
    for counts in sample_hands(rng, signature, 12)[::2]:  # full hands only
        _, rows = ev.table(pack(counts))
        after = {
            k: hand_size - brute_overlap([c - (i == k) for i, c in enumerate(counts)], wins)
            for k in range(21)
            if counts[k]
        }
        least = min(after.values())
        best = sorted((k for k in after if after[k] == least), reverse=True)
        assert [k for m, k, _ in rows if m == least] == best
        for missing, kind, _ in rows:
            assert after[kind] == missing


def test_known_hands() -> None:
    ev = HandEvaluator(8, 1, FourTwo.THREE, False)
    # Eye 6-6, pairs 5-5+6-4, 6-5+6-3, 4-4+1-1: a winning Kap Shap hand.
    assert ev.missing_counts(counts_of(parse_tiles("66 66 55 64 65 63 44 11"))) == 0
    assert ev.table(pack(counts_of(parse_tiles("66 66 55 64 65 63 44 11"))))[0]
    # One tile short: 4-4 (8) needs a 2-pip tile, and with both 6-6 held only 1-1 is left.
    seven = pack(counts_of(parse_tiles("66 66 55 64 65 63 44")))
    assert ev.missing(seven) == 1
    assert ev.improvers(seven) == (KINDS.index(parse_tiles("11")[0]),)
    # 3-1 (4) and 4-2 make ten only when the 4-2 may count 6 (gee_joon_wild).
    wild = HandEvaluator(8, 1, FourTwo.WILD, False)
    hand = counts_of(parse_tiles("66 66 55 64 65 63 31 42"))
    assert wild.missing_counts(hand) == 0
    assert ev.missing_counts(hand) == 1


def test_weight_is_the_dot_product() -> None:
    rng = random.Random(3)
    for _ in range(200):
        kinds = [k for k in range(21) if rng.random() < 0.4]
        counts = [rng.randint(0, 16) for _ in range(21)]
        mask = sum(REVERSED_UNIT[k] for k in kinds)
        assert weight(mask, pack(counts)) == sum(counts[k] for k in kinds)
        assert pack(counts) == sum(c * UNIT[k] for k, c in enumerate(counts))
