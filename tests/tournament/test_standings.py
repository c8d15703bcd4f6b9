"""Standings and tie-breaks, computed by hand for small events."""

from __future__ import annotations

from fractions import Fraction
from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament import (
    EventSettings,
    Match,
    Result,
    format_score,
    pair_standings,
    table_standings,
)
from bot.tournament.matches import bye_result, forfeit_result

from .helpers import new_event, play_open_matches


def won(mid: str, winner: int, loser: int, games: tuple[int, int] = (1, 0)) -> Match:
    return Match(mid, (winner, loser), Result(winner, {winner: games[0], loser: games[1]}, 1))


def drawn(mid: str, a: int, b: int) -> Match:
    return Match(mid, (a, b), Result(None, {a: 0, b: 0}, 1))


def test_format_score() -> None:
    assert [format_score(n) for n in (0, 1, 2, 3, 7)] == ["0", "½", "1", "1½", "3½"]


def test_buchholz_median_buchholz_and_head_to_head() -> None:
    matches = [
        won("a", 1, 3),
        won("b", 2, 4),
        won("c", 1, 2),
        won("d", 3, 4),
        won("e", 2, 3),
        won("f", 4, 1),
    ]
    rows = pair_standings([1, 2, 3, 4], matches)
    by = {r.player: r for r in rows}
    assert [r.player for r in rows] == [1, 2, 3, 4]
    assert (by[1].score, by[1].buchholz, by[1].median_buchholz) == (4, 8, 2)
    assert (by[2].score, by[2].buchholz, by[2].median_buchholz) == (4, 8, 2)
    assert by[1].head_to_head == 2 and by[2].head_to_head == 0, "1 beat 2"
    assert (by[3].buchholz, by[3].median_buchholz, by[3].head_to_head) == (10, 4, 2)
    assert [r.rank for r in rows] == [1, 2, 3, 4]
    assert (by[1].wins, by[1].losses, by[1].opponents) == (2, 1, (3, 2, 4))


@settings(max_examples=30, deadline=None)
@given(st.integers(3, 30), st.integers(0, 10_000))
def test_standings_follow_the_tie_break_order(n: int, seed: int) -> None:
    event = new_event(EventSettings(best_of=3), n, seed=seed)
    rng = Random(seed)
    for _ in range(event.settings.swiss_rounds(n)):
        event.next_round()
        play_open_matches(event, rng)
    rows = event.pair_standings()
    score = {r.player: r.score for r in rows}
    for r in rows:
        opp = sorted(score[q] for q in r.opponents)
        assert r.buchholz == sum(opp)
        assert r.median_buchholz == (sum(opp[1:-1]) if len(opp) >= 3 else sum(opp))
    keys = [
        (r.score, r.median_buchholz, r.buchholz, r.head_to_head, r.games_won, -r.seed) for r in rows
    ]
    assert keys == sorted(keys, reverse=True)
    assert [r.rank for r in rows] == list(range(1, n + 1))


def test_games_won_then_seed() -> None:
    matches = [won("a", 1, 3, (2, 1)), won("b", 2, 4, (2, 0)), drawn("c", 1, 2)]
    rows = pair_standings([1, 2, 3, 4], matches)
    # 1 and 2: same score and the same opponents' scores, drew each other; 2 won as many games
    # → seed decides; with more games won 2 would be first.
    assert [r.player for r in rows][:2] == [1, 2]
    matches[1] = won("b", 2, 4, (3, 0))
    rows = pair_standings([1, 2, 3, 4], matches)
    assert [r.player for r in rows][:2] == [2, 1]


def test_byes_score_a_win_in_swiss_and_nothing_in_round_robin() -> None:
    matches = [Match("R1-bye", (3,), bye_result(3)), won("R1-1", 1, 2)]
    swiss = {r.player: r for r in pair_standings([1, 2, 3], matches)}
    assert swiss[3].score == 2 and swiss[3].byes == 1 and swiss[3].opponents == ()
    rr = {r.player: r for r in pair_standings([1, 2, 3], matches, bye_scores=False)}
    assert rr[3].score == 0 and rr[3].byes == 1


def test_forfeits_count_as_results() -> None:
    matches = [Match("m", (1, 2), forfeit_result(2, (1, 2)))]
    rows = {r.player: r for r in pair_standings([1, 2], matches)}
    assert rows[2].score == 2 and rows[1].score == 0 and rows[2].games_won == 0


def test_unfinished_matches_are_ignored() -> None:
    rows = pair_standings([1, 2], [Match("m", (1, 2))])
    assert all(r.score == 0 and r.opponents == () for r in rows)


def test_table_standings() -> None:
    tables = [
        Match("R1-T1", (1, 2, 3), Result(None, {1: 2, 2: 1, 3: 0}, 3)),
        Match("R1-T2", (4, 5), Result(None, {4: 1, 5: 1}, 3)),
        Match("R2-T1", (1, 4), Result(None, {1: 0, 4: 2}, 2)),
        Match("R2-T2", (2, 3, 5), Result(None, {2: 0, 3: 1, 5: 0}, 2)),
        Match("R3-T1", (1, 2), None),  # not finished: ignored
    ]
    rows = table_standings([1, 2, 3, 4, 5], tables)
    by = {r.player: r for r in rows}
    # Points: a game won at a table of s players is worth s − 1.
    assert {p: r.points for p, r in by.items()} == {1: 4, 2: 2, 3: 2, 4: 3, 5: 1}
    assert [r.player for r in rows] == [1, 4, 2, 3, 5]
    assert by[1].opponents_average == Fraction(2 + 2 + 3, 3)
    assert by[2].wins == 1 and by[3].wins == 1
    # 2 and 3: 2 points and 1 win each; 2's table-mates average (4+2+2+1)/4, 3's (4+2+2+1)/4
    # too → seed.
    assert rows[2].player == 2 and rows[3].player == 3
    assert by[4].tables == 2
