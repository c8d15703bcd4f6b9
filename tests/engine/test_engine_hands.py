"""The winning hand (RULES.md §2.1): the engine's win check against an independent brute force,
the exact probability of a dealt winning Kap Shap hand, and the witness arrangement."""

from __future__ import annotations

import random
from collections.abc import Iterator
from fractions import Fraction
from itertools import product
from math import comb, prod

import pytest

from bot.engine import KINDS, FourTwo, Tile, make_rules
from bot.engine.tiles import kind_of_piece
from bot.games.collecting.engine.hands import (
    find_witness,
    is_ten_pair,
    is_winning,
    is_winning_counts,
)
from tests.engine.helpers import (
    brute_force_rules_wins,
    brute_force_wins,
    is_ten_pair_by_values,
    tiles,
    witness_problems,
)

FOUR_TWOS = [FourTwo.THREE, FourTwo.SIX, FourTwo.WILD]


def test_tile_values_and_ten_pairs() -> None:
    three, six, wild = FOUR_TWOS
    # 4-2 counts 3 by default: it pairs with the sevens, not with the fours.
    assert is_ten_pair(Tile(4, 2), Tile(6, 1), three)
    assert not is_ten_pair(Tile(4, 2), Tile(3, 1), three)
    assert is_ten_pair(Tile(4, 2), Tile(3, 1), six)
    assert not is_ten_pair(Tile(4, 2), Tile(6, 1), six)
    assert is_ten_pair(Tile(4, 2), Tile(6, 1), wild) and is_ten_pair(Tile(4, 2), Tile(3, 1), wild)
    # 2-1 is 3 unless wild.
    assert not is_ten_pair(Tile(2, 1), Tile(2, 2), three)
    assert not is_ten_pair(Tile(2, 1), Tile(2, 2), six)
    assert is_ten_pair(Tile(2, 1), Tile(2, 2), wild)
    # Totals of 20 count as much as totals of 10.
    assert is_ten_pair(Tile(6, 6), Tile(4, 4), three)  # 12 + 8
    assert is_ten_pair(Tile(6, 5), Tile(5, 4), three)  # 11 + 9
    assert is_ten_pair(Tile(5, 5), Tile(6, 4), three)  # 10 + 10
    assert not is_ten_pair(Tile(6, 6), Tile(6, 5), three)  # 23
    assert not is_ten_pair(Tile(5, 5), Tile(4, 1), three)  # 15
    for a, b in product(KINDS, KINDS):
        for four_two in FOUR_TWOS:
            assert is_ten_pair(a, b, four_two) == is_ten_pair_by_values(a, b, four_two), (a, b)


def test_brute_force_reference_on_known_hands() -> None:
    # The reference itself must be able to say yes and no.
    assert brute_force_wins(tiles("6-6 6-6 4-4 1-1 3-1 3-3 6-5 6-3"), 8, FourTwo.THREE, False)
    assert not brute_force_wins(tiles("6-6 6-6 4-4 1-1 3-1 3-3 6-5 6-2"), 8, FourTwo.THREE, False)
    assert not brute_force_wins(tiles("6-6 6-6 4-4 1-1 3-1 3-3 6-5"), 8, FourTwo.THREE, False)


# ---------------------------------------------------------------------------------------------
# Random hands against the brute force


PARTNERS = {
    four_two: {
        a.index: frozenset(b.index for b in KINDS if is_ten_pair_by_values(a, b, four_two))
        for a in KINDS
    }
    for four_two in FOUR_TWOS
}


def _random_hand(rng: random.Random, sets: int, size: int, military_eyes: bool) -> list[Tile]:
    """A random hand; half of them are built as a winning hand and then maybe spoiled, so that
    winners and near misses are common."""
    pieces = list(range(32 * sets))
    rng.shuffle(pieces)
    if rng.random() < 0.5:
        return [kind_of_piece(p) for p in pieces[:size]]
    pool = [kind_of_piece(p).index for p in pieces]  # kind indices of the remaining pieces
    partners = PARTNERS[rng.choice(FOUR_TWOS)]
    eyes = [t.index for t in KINDS if (t.civil or military_eyes) and pool.count(t.index) >= 2]
    eye = rng.choice(eyes)
    pool.remove(eye)
    pool.remove(eye)
    hand = [eye, eye]
    while len(hand) < size:
        a = pool.pop(rng.randrange(len(pool)))
        choices = [i for i, b in enumerate(pool) if b in partners[a]]
        if not choices:
            pool.append(a)
            continue
        hand += [a, pool.pop(rng.choice(choices))]
    if rng.random() < 0.5:
        hand[rng.randrange(size)] = pool[rng.randrange(len(pool))]
    rng.shuffle(hand)
    return [KINDS[k] for k in hand]


@pytest.mark.parametrize(
    ("game", "players", "sets", "civil_eyes_only"),
    [
        ("kap-shap", 2, 1, False),
        ("kap-tai-shap", 2, 1, False),
        ("kap-tai-shap", 6, 3, False),
        ("kap-tai-shap", 6, 3, True),
        ("kap-tai-shap", 20, 8, False),
    ],
)
@pytest.mark.parametrize("four_two", FOUR_TWOS)
def test_win_check_matches_brute_force(
    game: str, players: int, sets: int, civil_eyes_only: bool, four_two: FourTwo
) -> None:
    rules = make_rules(
        game, players, sets=sets, four_two_value=four_two, civil_eyes_only=civil_eyes_only
    )
    military_eyes = sets > 1 and not civil_eyes_only
    rng = random.Random(f"{game}/{players}/{sets}/{civil_eyes_only}/{four_two}")
    outcomes = {True: 0, False: 0}
    military_wins = 0
    for _ in range(1500):
        hand = _random_hand(rng, sets, rules.hand_size, military_eyes)
        expected = brute_force_wins(hand, rules.hand_size, four_two, military_eyes)
        assert is_winning(hand, rules) is expected, (str(four_two), [str(t) for t in hand])
        outcomes[expected] += 1
        witness = find_witness(hand, rules)
        if expected:
            assert witness is not None
            assert witness_problems(witness, hand, four_two, military_eyes) == []
            if not any(t.civil and hand.count(t) >= 2 for t in hand):
                military_wins += 1
        else:
            assert witness is None
    # Both answers occur often, so the comparison is not vacuous.
    assert outcomes[True] > 200 and outcomes[False] > 200, outcomes
    if military_eyes:
        assert military_wins > 0


def test_military_eyes_need_several_sets_and_no_civil_eyes_only() -> None:
    hand = tiles("6-3 6-3 5-5 6-4 6-5 5-4 3-1 3-3 4-4 1-1")
    assert brute_force_wins(hand, 10, FourTwo.THREE, True)
    assert not brute_force_wins(hand, 10, FourTwo.THREE, False)
    assert is_winning(hand, make_rules("kap-tai-shap", 2, sets=2))
    assert not is_winning(hand, make_rules("kap-tai-shap", 2, sets=1))
    assert not is_winning(hand, make_rules("kap-tai-shap", 2, sets=2, civil_eyes_only=True))
    witness = find_witness(hand, make_rules("kap-tai-shap", 2, sets=2))
    assert witness is not None and witness.eye == (Tile(6, 3), Tile(6, 3))


def test_wrong_hand_sizes_never_win() -> None:
    rules = make_rules("kap-shap")
    winning = tiles("6-6 6-6 4-4 1-1 3-1 3-3 6-5 6-3")
    assert is_winning(winning, rules)
    assert not is_winning(winning[:-1], rules)
    assert not is_winning([*winning, Tile(5, 5), Tile(6, 4)], rules)  # a winning 10 is not 8
    assert is_winning([*winning, Tile(5, 5), Tile(6, 4)], make_rules("kap-tai-shap", 2))
    assert find_witness(winning[:-1], rules) is None


# ---------------------------------------------------------------------------------------------
# The exact probability of a dealt winning Kap Shap hand


def _value(tile: Tile) -> int:
    return 3 if tile == Tile(4, 2) else tile.pips


def _class_options(kinds: list[Tile]) -> list[tuple[int, bool, dict[int, int], int]]:
    """Every way to hold tiles of the given kinds: (how many, holds an eye, counts, ways)."""
    out = []
    for counts in product(*(range(k.copies_per_set + 1) for k in kinds)):
        ways = prod(comb(k.copies_per_set, c) for k, c in zip(kinds, counts, strict=True))
        eye = any(c >= 2 and k.civil for k, c in zip(kinds, counts, strict=True))
        held = {k.index: c for k, c in zip(kinds, counts, strict=True) if c}
        out.append((sum(counts), eye, held, ways))
    return out


def _candidate_hands() -> Iterator[tuple[tuple[int, ...], int, bool]]:
    """Every 8-tile count vector of one set that passes the residue parity test, with the
    number of physical hands it stands for and whether it wins by RULES.md's arithmetic.

    Values pair up by residue mod 10: 0 with 0, 5 with 5, r with 10-r. An eye takes two
    tiles of one residue, so a winning hand has r0 and r5 even (one set has no military eye)
    and every complementary class pair balanced except at most one, which is off by exactly
    two. Every other count vector has too many unbalanced classes and cannot win; every
    count vector listed here is passed to the engine.
    """
    residue: dict[int, list[Tile]] = {r: [] for r in range(10)}
    for kind in KINDS:
        residue[_value(kind) % 10].append(kind)
    groups: list[list[tuple[int, int, bool, dict[int, int], int]]] = []
    for single in (0, 5):
        groups.append(
            [
                (n, 0, eye, held, w)
                for n, eye, held, w in _class_options(residue[single])
                if n % 2 == 0
            ]
        )
    for low in (1, 2, 3, 4):
        options = []
        for a, b in product(_class_options(residue[low]), _class_options(residue[10 - low])):
            diff = a[0] - b[0]
            if diff in (-2, 0, 2):
                # The eye must sit in the larger class of an unbalanced pair.
                eye = (a[1] if diff > 0 else b[1]) if diff else False
                options.append((a[0] + b[0], int(diff != 0), eye, {**a[2], **b[2]}, a[3] * b[3]))
        groups.append(options)

    def walk(
        i: int, left: int, unbalanced: int, eye: bool, held: dict[int, int], ways: int
    ) -> Iterator[tuple[tuple[int, ...], int, bool]]:
        if i == len(groups):
            if left == 0:
                counts = [0] * len(KINDS)
                for kind, c in held.items():
                    counts[kind] = c
                yield tuple(counts), ways, eye
            return
        for n, off, has_eye, part, w in groups[i]:
            if n > left or unbalanced + off > 1:
                continue
            # The eye is in residue 0 (group 0: two of 5-5 / 6-4) while every pair is balanced,
            # and in the larger class of the one unbalanced pair otherwise.
            eye_here = has_eye if i == 0 or off else eye
            yield from walk(i + 1, left - n, unbalanced + off, eye_here, {**held, **part}, ways * w)

    yield from walk(0, 8, 0, False, {}, 1)


def test_dealt_winning_hand_probability_is_exact() -> None:
    engine_ways = 0
    arithmetic_ways = 0
    vectors = 0
    for counts, ways, wins_by_arithmetic in _candidate_hands():
        vectors += 1
        by_engine = is_winning_counts(counts, 8, FourTwo.THREE, False)
        assert by_engine is wins_by_arithmetic, counts
        engine_ways += ways if by_engine else 0
        arithmetic_ways += ways if wins_by_arithmetic else 0
    assert vectors > 10_000  # the near misses are checked too, not only the winners
    total = comb(32, 8)
    assert total == 10_518_300
    assert engine_ways == arithmetic_ways == 81_745
    assert Fraction(engine_ways, total) == Fraction(81_745, 10_518_300)


def test_candidate_listing_covers_every_winning_hand() -> None:
    # Cross-check of the listing above on random hands: a hand the brute force calls winning
    # must appear among the candidates, with the same verdict.
    candidates = {counts: wins for counts, _, wins in _candidate_hands()}
    rng = random.Random(81745)
    seen_wins = 0
    for _ in range(3000):
        hand = _random_hand(rng, 1, 8, False)
        counts = tuple(hand.count(k) for k in KINDS)
        if brute_force_wins(hand, 8, FourTwo.THREE, False):
            seen_wins += 1
            assert candidates.get(counts) is True, [str(t) for t in hand]
        else:
            assert candidates.get(counts, False) is False, [str(t) for t in hand]
    assert seen_wins > 100


# ---------------------------------------------------------------------------------------------
# Concrete hands and the witness


@pytest.mark.parametrize(
    ("hand", "wins"),
    [
        ("6-6 6-6 4-2 6-1 3-1 3-3 6-5 6-3", {"3": True, "6": False, "wild": True}),
        ("6-6 6-6 4-2 2-2 3-1 3-3 6-5 6-3", {"3": False, "6": True, "wild": True}),
        ("6-6 6-6 2-1 3-1 4-2 2-2 6-5 6-3", {"3": False, "6": False, "wild": True}),
        ("6-6 6-6 2-1 6-1 4-2 4-3 6-5 6-3", {"3": True, "6": False, "wild": True}),
    ],
)
def test_four_two_value_decides_concrete_hands(hand: str, wins: dict[str, bool]) -> None:
    for value, expected in wins.items():
        rules = make_rules("kap-shap", four_two_value=value)
        held = tiles(hand)
        assert is_winning(held, rules) is expected, value
        assert brute_force_rules_wins(held, rules) is expected, value
        witness = find_witness(held, rules)
        assert (witness is not None) is expected
        if witness is not None:
            assert witness_problems(witness, held, rules.four_two_value, False) == []


def test_witness_shows_the_eye_and_each_pair() -> None:
    rules = make_rules("kap-shap")
    hand = tiles("6-3 3-3 1-1 6-6 3-1 6-5 6-6 4-4")
    witness = find_witness(hand, rules)
    assert witness is not None
    assert witness.eye == (Tile(6, 6), Tile(6, 6))
    assert sorted(map(str, witness.tiles())) == sorted(map(str, hand))
    pairs = {frozenset(map(str, pair)) for pair in witness.pairs}
    assert pairs == {
        frozenset({"1-1", "4-4"}),
        frozenset({"3-1", "3-3"}),
        frozenset({"6-5", "6-3"}),
    }
    text = str(witness)
    assert text.startswith("eye 6-6 6-6")
    assert text.count("|") == 3


def test_five_five_eye_can_sit_among_residue_zero_pairs() -> None:
    rules = make_rules("kap-shap")
    hand = tiles("5-5 5-5 6-4 6-4 4-1 3-2 6-5 5-4")
    assert is_winning(hand, rules)
    witness = find_witness(hand, rules)
    assert witness is not None
    assert witness_problems(witness, hand, FourTwo.THREE, False) == []
