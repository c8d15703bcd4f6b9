"""The statistics of bot.sim.stats on hand-made records, and the χ² survival function."""

from __future__ import annotations

import math

import pytest

from bot.sim.record import GameRecord
from bot.sim.stats import (
    chi2_equal_shares,
    chi2_sf,
    quantile,
    regularized_gamma_q,
    relative_seat,
    seat_wins,
    summarize,
    turn_histogram,
    win_by_counts,
    winning_turns,
)


def rec(
    first: int,
    winner: int | None,
    reason: str,
    win_by: str | None,
    turns: int,
    takes: int = 0,
    pool: int = 0,
) -> GameRecord:
    return GameRecord(first, winner, reason, win_by, turns, takes, pool)


# Two players. Relative winners: game 0 -> seat 0, game 1 -> seat 1 (first seat 1, winner 0),
# game 3 -> seat 1. Games 2 and 4 are drawn (wall, cap).
RECORDS = [
    rec(0, 0, "declared", "dealt", 1),
    rec(1, 0, "declared", "take", 4, takes=2, pool=7),
    rec(1, None, "wall", None, 30, takes=3, pool=9),
    rec(0, 1, "declared", "draw", 2),
    rec(1, None, "cap", None, 100, takes=5, pool=4),
]


def test_summary_of_hand_made_records() -> None:
    s = summarize(RECORDS, players=2)
    assert s.games == 5
    assert s.wins == 3
    assert s.win_rate == pytest.approx(3 / 5)
    assert s.draw_rate == pytest.approx(1 / 5)
    assert s.cap_rate == pytest.approx(1 / 5)
    # Winning turns 1, 4, 2 -> sorted 1, 2, 4.
    assert s.mean_turn == pytest.approx(7 / 3)
    assert s.median_turn == 2
    assert s.p10_turn == pytest.approx(1.2)
    assert s.p25_turn == pytest.approx(1.5)
    assert s.p75_turn == pytest.approx(3.0)
    assert s.p90_turn == pytest.approx(3.6)
    assert s.histogram == {1: 1, 2: 1, 4: 1}
    # Rounds ceil(T/2): 1, 2, 1.
    assert s.mean_round == pytest.approx(4 / 3)
    assert s.round1_win_rate == pytest.approx(2 / 5)
    assert s.seat_wins == [1, 2]
    assert s.seat_win_share == [pytest.approx(1 / 3), pytest.approx(2 / 3)]
    assert s.chi2.df == 1
    assert s.chi2.statistic == pytest.approx(1 / 3)
    assert s.chi2.p_value == pytest.approx(math.erfc(math.sqrt(1 / 6)))
    assert s.win_by_count == {"dealt": 1, "take": 1, "draw": 1}
    assert s.win_by == {k: pytest.approx(1 / 3) for k in ("dealt", "take", "draw")}
    assert s.takes_per_game == pytest.approx(2.0)
    assert s.mean_pool_at_take == pytest.approx(20 / 10)
    assert s.dealt_wins_first_player == 1


def test_summary_json_has_string_histogram_keys() -> None:
    data = summarize(RECORDS, players=2).to_json()
    assert data["histogram"] == {"1": 1, "2": 1, "4": 1}
    assert data["chi2"] == {
        "statistic": pytest.approx(1 / 3),
        "df": 1,
        "p_value": pytest.approx(math.erfc(math.sqrt(1 / 6))),
    }


def test_summary_without_wins_or_takes() -> None:
    records = [rec(0, None, "wall", None, 20), rec(1, None, "cap", None, 100)]
    s = summarize(records, players=3)
    assert s.wins == 0
    assert s.mean_turn is None
    assert s.median_turn is None
    assert s.p90_turn is None
    assert s.mean_round is None
    assert s.round1_win_rate == 0
    assert s.histogram == {}
    assert s.seat_wins == [0, 0, 0]
    assert s.seat_win_share == [None, None, None]
    assert s.chi2.statistic is None
    assert s.chi2.p_value is None
    assert s.chi2.df == 2
    assert s.win_by == {"dealt": None, "take": None, "draw": None}
    assert s.mean_pool_at_take is None
    assert s.takes_per_game == 0


def test_summary_needs_games() -> None:
    with pytest.raises(ValueError, match="no games"):
        summarize([], players=2)


def test_seats_count_from_the_first_player() -> None:
    # Four players, first player in seat 3: seat 3 is relative 0, seat 0 relative 1, ...
    records = [rec(3, winner, "declared", "draw", 5) for winner in (3, 0, 1, 2, 2)]
    assert [relative_seat(r, 4) for r in records] == [0, 1, 2, 3, 3]
    assert seat_wins(records, 4) == [1, 1, 1, 2]
    assert relative_seat(rec(3, None, "wall", None, 9), 4) is None


def test_round_one_is_everyone_first_turn() -> None:
    # Three players: turns 1-3 are round 1, turn 4 starts round 2.
    records = [rec(0, t % 3, "declared", "draw", t) for t in (1, 3, 4, 6, 7)]
    s = summarize(records, players=3)
    assert s.round1_win_rate == pytest.approx(2 / 5)
    assert s.mean_round == pytest.approx((1 + 1 + 2 + 2 + 3) / 5)


def test_helpers() -> None:
    assert winning_turns(RECORDS) == [1, 4, 2]
    assert turn_histogram(RECORDS) == {1: 1, 2: 1, 4: 1}
    assert list(turn_histogram(RECORDS)) == [1, 2, 4]
    assert win_by_counts(RECORDS[2:3]) == {"dealt": 0, "take": 0, "draw": 0}


@pytest.mark.parametrize(
    ("values", "q", "expected"),
    [
        ([1, 2, 3, 4], 0.5, 2.5),
        ([1, 2, 3, 4], 0.0, 1),
        ([1, 2, 3, 4], 1.0, 4),
        ([7], 0.9, 7),
        ([0, 10], 0.1, 1.0),
        ([1, 2, 3, 4, 5], 0.25, 2.0),
    ],
)
def test_quantile(values: list[int], q: float, expected: float) -> None:
    assert quantile(values, q) == pytest.approx(expected)


def test_quantile_edges() -> None:
    assert quantile([], 0.5) is None
    with pytest.raises(ValueError):
        quantile([1], 1.5)


# ---------------------------------------------------------------------------------------------
# χ²


def test_chi2_sf_known_values() -> None:
    assert chi2_sf(3.84, 1) == pytest.approx(0.0500435212, rel=1e-8)
    assert chi2_sf(10, 5) == pytest.approx(0.0752352461, rel=1e-8)
    assert chi2_sf(3.841458820694124, 1) == pytest.approx(0.05, rel=1e-10)
    assert chi2_sf(0, 3) == 1.0
    assert chi2_sf(-1, 3) == 1.0


def _sf_even(x: float, df: int) -> float:
    # Closed form for even df: exp(-x/2) * sum_{i < df/2} (x/2)^i / i!
    half = x / 2
    return math.exp(-half) * sum(half**i / math.factorial(i) for i in range(df // 2))


@pytest.mark.parametrize("df", [2, 4, 10, 30])
@pytest.mark.parametrize("x", [0.01, 0.5, 1.0, 3.0, 9.5, 20.0, 60.0, 150.0])
def test_chi2_sf_even_df_closed_form(x: float, df: int) -> None:
    # Covers both branches: the series (x < df/2 + 1) and the continued fraction.
    assert chi2_sf(x, df) == pytest.approx(_sf_even(x, df), rel=1e-9, abs=1e-300)


@pytest.mark.parametrize("x", [0.001, 0.3, 1.0, 2.5, 7.0, 25.0, 80.0])
def test_chi2_sf_odd_df_closed_form(x: float) -> None:
    one = math.erfc(math.sqrt(x / 2))
    assert chi2_sf(x, 1) == pytest.approx(one, rel=1e-9)
    three = one + math.sqrt(2 * x / math.pi) * math.exp(-x / 2)
    assert chi2_sf(x, 3) == pytest.approx(three, rel=1e-9)


def test_regularized_gamma_q_domain() -> None:
    assert regularized_gamma_q(1.0, 0.0) == 1.0
    assert regularized_gamma_q(1.0, 2.0) == pytest.approx(math.exp(-2.0))
    with pytest.raises(ValueError):
        regularized_gamma_q(0.0, 1.0)
    with pytest.raises(ValueError):
        regularized_gamma_q(1.0, -1.0)
    with pytest.raises(ValueError):
        chi2_sf(1.0, 0)


def test_chi2_equal_shares() -> None:
    test = chi2_equal_shares([10, 10, 10])
    assert test.statistic == 0
    assert test.df == 2
    assert test.p_value == pytest.approx(1.0)
    test = chi2_equal_shares([60, 40])
    assert test.statistic == pytest.approx(4.0)  # (10^2 + 10^2) / 50
    assert test.p_value == pytest.approx(math.erfc(math.sqrt(2.0)))
    assert chi2_equal_shares([0, 0]).p_value is None
    assert chi2_equal_shares([5]).statistic is None
