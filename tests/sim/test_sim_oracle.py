"""The exact dealt-hand oracle, and the simulator against it."""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction

import pytest

from bot.engine import make_rules
from bot.engine.rules import FourTwo
from bot.engine.tiles import KINDS, PIECE_KINDS
from bot.games.collecting.engine.hands import is_winning_counts
from bot.games.collecting.sim.oracle import check_dealt_wins, dealt_win_count, dealt_win_probability
from bot.sim import cli


def test_kap_shap_matches_rules_md() -> None:
    # RULES.md §2.1: 81 745 / 10 518 300 with 4-2 = 3, judged by the engine's is_winning_counts.
    assert dealt_win_count(8, 1, FourTwo.THREE, False) == (81_745, 10_518_300)
    assert dealt_win_probability(8, 1, "3", False) == Fraction(81_745, 10_518_300)


def _brute_force_counts(hand_size: int, sets: int, four_two: str, military_eyes: bool) -> int:
    """Every kind-count vector, weighted by the number of piece sets it stands for."""
    copies = [(2 if t.civil else 1) * sets for t in KINDS]
    wins = 0

    def walk(kind: int, left: int, counts: list[int], ways: int) -> None:
        nonlocal wins
        if kind == len(KINDS):
            if left == 0 and is_winning_counts(
                tuple(counts), hand_size, FourTwo(four_two), military_eyes
            ):
                wins += ways
            return
        for c in range(min(copies[kind], left) + 1):
            counts.append(c)
            walk(kind + 1, left - c, counts, ways * math.comb(copies[kind], c))
            counts.pop()

    walk(0, hand_size, [], 1)
    return wins


@pytest.mark.parametrize(
    ("hand_size", "sets", "four_two", "military_eyes"),
    [
        (4, 1, "3", False),
        (4, 1, "wild", False),
        (4, 1, "6", True),
        (6, 1, "wild", False),
        (4, 2, "3", True),
        (4, 2, "wild", True),
        (4, 3, "6", False),
    ],
)
def test_oracle_equals_brute_force(
    hand_size: int, sets: int, four_two: str, military_eyes: bool
) -> None:
    wins, total = dealt_win_count(hand_size, sets, four_two, military_eyes)
    assert total == math.comb(32 * sets, hand_size)
    assert wins == _brute_force_counts(hand_size, sets, four_two, military_eyes)


def test_count_vectors_weigh_piece_sets_correctly() -> None:
    # Hands of 4 physical pieces of one set, one by one.
    wins = sum(
        is_winning_counts(
            tuple(sum(1 for p in hand if PIECE_KINDS[p] == k) for k in range(len(KINDS))),
            4,
            FourTwo.THREE,
            False,
        )
        for hand in itertools.combinations(range(32), 4)
    )
    assert dealt_win_count(4, 1, "3", False) == (wins, math.comb(32, 4))


@pytest.mark.parametrize(
    ("hand_size", "sets", "four_two", "military_eyes"),
    [
        (8, 1, "wild", True),
        (6, 2, "wild", True),
        (8, 2, "6", True),
    ],
)
def test_pruning_skips_only_losing_hands(
    hand_size: int, sets: int, four_two: str, military_eyes: bool
) -> None:
    pruned = dealt_win_count(hand_size, sets, four_two, military_eyes)
    assert pruned == dealt_win_count(hand_size, sets, four_two, military_eyes, prune=False)


def test_kap_tai_shap_is_a_probability() -> None:
    for sets in (1, 2, 8):
        p = dealt_win_probability(10, sets, "3", sets > 1)
        assert 0 < p < Fraction(1, 50)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="even"):
        dealt_win_count(7, 1, "3", False)
    with pytest.raises(ValueError, match="sets"):
        dealt_win_count(8, 0, "3", False)


def test_check_dealt_wins_z_score() -> None:
    rules = make_rules("kap-shap")
    p = 81_745 / 10_518_300
    check = check_dealt_wins(rules, 10_000, 90)
    assert check.exact == pytest.approx(p)
    assert check.exact_fraction == "16349/2103660"
    assert check.observed == pytest.approx(0.009)
    se = math.sqrt(p * (1 - p) / 10_000)
    assert check.standard_error == pytest.approx(se)
    assert check.z == pytest.approx((0.009 - p) / se)


def test_simulated_dealt_wins_match_the_exact_rate(capsys: pytest.CaptureFixture[str]) -> None:
    # 20 000 games; max_turns=1 ends each game after the opening turn, which is all the oracle
    # looks at (a dealt win is declared at once: every AI level declares), and keeps this fast.
    status = cli.main(
        [
            "--ai", "random", "--games", "20000", "--seed", "7", "--workers", "2",
            "--rule", "max_turns=1", "--json", "--no-progress",
        ]
    )  # fmt: skip
    assert status == 0
    data = json.loads(capsys.readouterr().out)
    oracle = data["oracle"]
    assert oracle["exact_fraction"] == "16349/2103660"
    assert oracle["exact"] == pytest.approx(81_745 / 10_518_300)
    assert oracle["observed"] == oracle["dealt_wins"] / 20_000
    assert data["win_by_count"]["dealt"] == oracle["dealt_wins"]
    assert abs(oracle["z"]) < 4, oracle
