"""Round robin, table seating, match decisions and payouts."""

from __future__ import annotations

import itertools
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament import (
    DecideBy,
    EventSettings,
    Format,
    GameRecord,
    How,
    TournamentError,
    match_result,
    payouts,
    round_robin_schedule,
    seat_by_seed,
    seat_by_standings,
    split_pool,
    table_result,
    table_sizes,
)
from bot.tournament.seating import REPEAT_WEIGHT, repeat_pairs

# ------------------------------------------------------------------------------ round robin


@pytest.mark.parametrize("n", range(2, 25))
def test_round_robin_everyone_meets_everyone_once(n: int) -> None:
    players = list(range(100, 100 + n))
    schedule = round_robin_schedule(players)
    assert len(schedule) == (n - 1 if n % 2 == 0 else n)
    met = [frozenset(pair) for pairs, _ in schedule for pair in pairs]
    assert len(met) == len(set(met)) == n * (n - 1) // 2
    rests = [rest for _, rest in schedule]
    if n % 2:
        assert sorted(r for r in rests if r is not None) == players, "each rests exactly once"
    else:
        assert rests == [None] * len(schedule)
    for pairs, rest in schedule:
        in_round = [p for pair in pairs for p in pair] + ([rest] if rest is not None else [])
        assert sorted(in_round) == players, "everyone once per round"
    firsts = [pairs[0][0] for pairs, _ in schedule]
    assert len(set(firsts)) > 1 or n == 2, "sides alternate"


# ------------------------------------------------------------------------------ seating


@given(st.integers(2, 600), st.integers(2, 20), st.integers(2, 20))
def test_table_sizes_within_one_and_never_below_the_minimum(
    players: int, size: int, minimum: int
) -> None:
    minimum = min(minimum, size)
    sizes = table_sizes(players, size, minimum)
    assert sum(sizes) == players
    assert max(sizes) - min(sizes) <= 1
    assert sizes == sorted(sizes, reverse=True)
    if players >= minimum:
        assert min(sizes) >= minimum
        if players // -(-players // size) >= minimum:
            assert max(sizes) <= size, "no table above the preferred size unless needed"
    else:
        assert sizes == [players]


def test_table_sizes_examples() -> None:
    assert table_sizes(13, 6, 3) == [5, 4, 4]
    assert table_sizes(12, 6, 3) == [6, 6]
    assert table_sizes(7, 6, 4) == [7], "the minimum wins over the preferred size"
    assert table_sizes(2, 6, 3) == [2]
    with pytest.raises(TournamentError):
        table_sizes(1, 6, 3)


def test_first_round_is_seated_in_snake_order() -> None:
    tables = seat_by_seed(list(range(1, 11)), [4, 3, 3])
    assert tables == [[1, 6, 7, 10], [2, 5, 8], [3, 4, 9]]


def cost(tables: list[list[int]], home: dict[int, int], met: dict[int, dict[int, int]]) -> int:
    moved = sum(abs(i - home[p]) for i, t in enumerate(tables) for p in t)
    return REPEAT_WEIGHT * repeat_pairs(tables, met) + moved


@settings(max_examples=60, deadline=None)
@given(st.integers(4, 80), st.integers(3, 8), st.integers(0, 10_000))
def test_seating_by_standings_never_worse_than_plain_standings(
    n: int, size: int, seed: int
) -> None:
    rng = Random(seed)
    players = list(range(n))
    met: dict[int, dict[int, int]] = {p: {} for p in players}
    for a, b in itertools.combinations(players, 2):
        if rng.random() < 0.2:
            met[a][b] = met[b][a] = rng.randint(1, 2)
    ranked = players[:]
    rng.shuffle(ranked)
    sizes = table_sizes(n, size, 2)
    tables = seat_by_standings(ranked, sizes, met)
    assert [len(t) for t in tables] == sizes
    assert sorted(p for t in tables for p in t) == players
    plain, start = [], 0
    for s in sizes:
        plain.append(ranked[start : start + s])
        start += s
    home = {p: i for i, t in enumerate(plain) for p in t}
    assert cost(tables, home, met) <= cost(plain, home, met)
    assert repeat_pairs(tables, met) <= repeat_pairs(plain, met)


def test_seating_separates_players_who_met_when_it_is_free() -> None:
    # 1..4 sat together last round and lead the standings: they are spread out now.
    met = {p: {q: 1 for q in (1, 2, 3, 4) if q != p} for p in (1, 2, 3, 4)}
    tables = seat_by_standings(list(range(1, 9)), [4, 4], met)
    assert repeat_pairs(tables, met) < repeat_pairs([[1, 2, 3, 4], [5, 6, 7, 8]], met)


# ------------------------------------------------------------------------------ match decisions

BO3 = EventSettings(best_of=3)
POINTS = EventSettings(game="tsung-shap", best_of=3, decide_by=DecideBy.POINTS)


def g(winner: int | None, **points: int) -> GameRecord:
    return GameRecord(winner, {int(k[1:]): v for k, v in points.items()})


def test_best_of_three() -> None:
    assert match_result(BO3, (1, 2), [g(1)]) is None
    r = match_result(BO3, (1, 2), [g(1), g(2), g(2)])
    assert r is not None and r.winner == 2 and r.games_won == {1: 1, 2: 2} and r.how is How.PLAYED
    r = match_result(BO3, (1, 2), [g(1), g(1)])
    assert r is not None and r.winner == 1 and r.games_played == 2


def test_drawn_games_and_the_game_cap() -> None:
    r = match_result(BO3, (1, 2), [g(1), g(None), g(2)])
    assert r is not None and r.winner is None, "level after N games: a drawn match"
    r = match_result(BO3, (1, 2), [g(1), g(None), g(None)])
    assert r is not None and r.winner == 1, "the leader after N games"
    assert match_result(BO3, (1, 2), [g(1), g(None), g(2)], knockout=True) is None
    r = match_result(BO3, (1, 2), [g(1), g(None), g(2), g(2)], knockout=True)
    assert r is not None and r.winner == 2


def test_time_limit() -> None:
    r = match_result(BO3, (1, 2), [g(2)], timed_out=True)
    assert r is not None and r.winner == 2 and r.how is How.TIME
    r = match_result(BO3, (1, 2), [], timed_out=True)
    assert r is not None and r.winner is None
    r = match_result(BO3, (1, 2), [g(2), g(1)], timed_out=True, knockout=True)
    assert r is not None and r.winner == 1, "level knockout: the higher seed"


def test_total_points() -> None:
    assert match_result(POINTS, (1, 2), [g(1, p1=30, p2=5), g(1, p1=30)]) is None
    r = match_result(POINTS, (1, 2), [g(1, p1=10), g(1, p1=10), g(2, p2=40)])
    assert r is not None and r.winner == 2 and r.points == {1: 20, 2: 40}
    r = match_result(POINTS, (1, 2), [g(1, p1=10), g(1, p1=10), g(2, p2=20)])
    assert r is not None and r.winner == 1, "level on points: more games won"
    r = match_result(POINTS, (1, 2), [g(2, p1=30), g(1, p2=10)], timed_out=True)
    assert r is not None and r.winner == 1 and r.how is How.TIME


def test_table_result() -> None:
    s = EventSettings(game="kap-tai-shap", format=Format.TABLE_ROUNDS, games_per_table=2)
    assert table_result(s, (1, 2, 3), [g(1)]) is None
    r = table_result(s, (1, 2, 3), [g(1), g(None)])
    assert r is not None and r.winner is None and r.games_won == {1: 1, 2: 0, 3: 0}
    r = table_result(s, (1, 2, 3), [g(3)], timed_out=True)
    assert r is not None and r.how is How.TIME and r.games_won[3] == 1
    with pytest.raises(TournamentError):
        table_result(s, (1, 2, 3), [g(9)])


# ------------------------------------------------------------------------------ payouts


@given(st.integers(0, 10**7), st.lists(st.integers(1, 100), min_size=1, max_size=12))
def test_split_pool_conserves_chips(pool: int, weights: list[int]) -> None:
    amounts = split_pool(pool, weights)
    assert sum(amounts) == pool
    total = sum(weights)
    assert all(abs(a * total - pool * w) < total for a, w in zip(amounts, weights, strict=True))


@given(
    st.integers(0, 10**6),
    st.lists(st.integers(1, 50), min_size=1, max_size=6),
    st.integers(1, 20),
    st.sets(st.integers(1, 20)),
)
def test_payouts_conserve_chips_and_skip_the_ineligible(
    pool: int, split: list[int], n: int, ai: set[int]
) -> None:
    ranking = list(range(1, n + 1))
    paid = payouts(pool, split, ranking, lambda p: p not in ai)
    humans = [p for p in ranking if p not in ai]
    if pool and humans:
        assert sum(paid.values()) == pool, "the whole pool is paid"
    else:
        assert paid == {}
    assert not set(paid) & ai, "computer players never win prize money"
    assert set(paid) <= set(humans[: len(split)])


def test_payout_examples() -> None:
    assert split_pool(100, [60, 30, 10]) == [60, 30, 10]
    assert split_pool(101, [60, 30, 10]) == [61, 30, 10]
    assert split_pool(10, [1, 1, 1]) == [4, 3, 3]
    # An AI in 1st place: the prizes go to the humans in order.
    assert payouts(100, [60, 30, 10], [7, 1, 2, 3], lambda p: p != 7) == {1: 60, 2: 30, 3: 10}
    # Two humans for three places: the split is renormalised over the two.
    assert payouts(90, [60, 30, 10], [1, 2], lambda p: True) == {1: 60, 2: 30}
    with pytest.raises(TournamentError):
        split_pool(-1, [100])
