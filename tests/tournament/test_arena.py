"""The arena (issue 23): lichess scoring with streaks, pairing finishers, its end."""

from __future__ import annotations

from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament import (
    Event,
    EventSettings,
    Format,
    GameRecord,
    How,
    TournamentError,
    match_result,
)
from bot.tournament.arena import arena_points, arena_standings, pair_arena
from bot.tournament.matches import forfeit_result
from bot.tournament.model import Match, Player, Result

from .helpers import make_players

ARENA = EventSettings(format=Format.ARENA, arena_minutes=30)


def won(winner: int | None, a: int, b: int) -> Result:
    return Result(winner, {a: int(winner == a), b: int(winner == b)}, 1)


def finish(event: Event, match_id: str, winner: int | None) -> None:
    _, match = event.find(match_id)
    a, b = match.players
    result = match_result(event.settings, (a, b), [GameRecord(winner)])
    assert result is not None
    event.record(match_id, result)


def test_points_win_draw_loss_and_the_streak() -> None:
    # 2 a win; after two wins in a row wins count 4 and a draw 2, until a non-win.
    assert arena_points([]) == (0, 0)
    assert arena_points(["win"]) == (2, 1)
    assert arena_points(["win", "win"]) == (4, 2)
    assert arena_points(["win", "win", "win"]) == (8, 3)
    assert arena_points(["win", "win", "win", "win"]) == (12, 4)
    assert arena_points(["win", "win", "draw"]) == (6, 0)  # on fire: the draw counts 2
    assert arena_points(["win", "win", "draw", "win"]) == (8, 1)  # the streak is gone
    assert arena_points(["win", "win", "loss", "win", "win", "win"]) == (12, 3)
    assert arena_points(["draw", "draw", "win", "loss"]) == (4, 0)
    assert arena_points(["win", "draw", "win"]) == (5, 1)


def test_standings_rank_by_points_then_points_per_game() -> None:
    matches = [
        Match("A1", (1, 2), won(1, 1, 2)),
        Match("A2", (3, 4), won(3, 3, 4)),
        Match("A3", (1, 3), won(None, 1, 3)),
        Match("A4", (2, 4), won(2, 2, 4)),
        Match("A5", (4, 2), won(4, 4, 2)),
        Match("A6", (1, 3), None),  # in play: not counted
    ]
    rows = arena_standings([1, 2, 3, 4], matches)
    # 1: W D = 3 in 2; 3: W D = 3 in 2; 2: L W L = 2 in 3; 4: L L W = 2 in 3.
    assert [(r.player, r.points, r.games) for r in rows] == [
        (1, 3, 2),
        (3, 3, 2),
        (2, 2, 3),
        (4, 2, 3),
    ]
    # Same points, fewer games ranks higher.
    rows = arena_standings(
        [1, 2, 3],
        [
            Match("A1", (1, 2), won(1, 1, 2)),
            Match("A2", (3, 2), won(None, 3, 2)),
            Match("A3", (3, 2), won(None, 3, 2)),
        ],
    )
    assert [(r.player, r.points, r.games) for r in rows] == [(1, 2, 1), (3, 2, 2), (2, 2, 3)]


def test_a_double_forfeit_is_a_loss_for_both() -> None:
    rows = arena_standings([1, 2], [Match("A1", (1, 2), forfeit_result(None, (1, 2)))])
    assert [(r.points, r.losses) for r in rows] == [(0, 1), (0, 1)]


def test_pairing_by_nearest_score_longest_waiting_first() -> None:
    points = {1: 10, 2: 0, 3: 9, 4: 1}
    assert pair_arena([1, 2, 3, 4], points, {}) == [(1, 3), (2, 4)]
    # The longest waiting picks first: 2 takes 4 (nearest), then 1 and 3.
    assert pair_arena([2, 1, 3, 4], points, {}) == [(2, 4), (1, 3)]
    # Odd: the last one waits.
    assert pair_arena([1, 2, 3], points, {}) == [(1, 3)]
    assert pair_arena([1], points, {}) == []


def test_pairing_avoids_an_immediate_rematch_while_another_is_free() -> None:
    points = {1: 4, 2: 4, 3: 0}
    assert pair_arena([1, 2, 3], points, {1: 2, 2: 1}) == [(1, 3)]
    # Only the last opponent is free: they play again rather than wait for ever.
    assert pair_arena([1, 2], points, {1: 2, 2: 1}) == [(1, 2)]


def test_computers_never_play_each_other() -> None:
    points = {1: 0, -1: 0, -2: 0, 2: 8}
    # -1 and -2 are nearest to each other and to 1, but a computer waits for a member.
    assert pair_arena([-1, -2, 1, 2], points, {}, {-1, -2}) == [(-1, 1), (-2, 2)]
    assert pair_arena([-1, -2], points, {}, {-1, -2}) == []


def test_an_arena_pairs_finishers_at_once_and_ends_on_close() -> None:
    event = Event.start(ARENA, make_players(5), Random(1))
    rnd = event.next_round()
    assert rnd is not None and rnd.phase == "arena"
    assert [m.players for m in rnd.matches] == [(1, 2), (3, 4)]
    assert event.free_players() == [5]
    finish(event, "A1", 1)
    # 5 waited longest; 1 (2 points) is nearest to 5 (0)... both 1 and 2 are free.
    new = event.arena_pair()
    assert [(m.id, m.players) for m in new] == [("A3", (5, 2))]
    assert event.free_players() == [1]
    finish(event, "A2", 4)
    assert [m.players for m in event.arena_pair()] == [(1, 4)]  # 3 lost to 4: not again
    assert event.free_players() == [3]
    with pytest.raises(TournamentError):
        event.next_round()  # the round is not done
    event.close_arena()
    assert event.arena_pair() == []
    finish(event, "A3", None)
    finish(event, "A4", 1)
    assert event.next_round() is None and event.finished
    again = Event.from_dict(event.to_dict())
    assert again.closing and [r.player for r in again.standings()] == event.ranking()
    assert event.ranking()[0] == 1  # two wins, 4 points


def test_leaving_and_coming_back_and_joining_late() -> None:
    event = Event.start(ARENA, make_players(4), Random(1))
    event.next_round()
    decided = event.withdraw(2)  # leaves: his game goes to 1, and he is not paired again
    assert decided == ["A1"]
    assert 2 not in event.free_players()
    event.join(Player(2, "P2"))  # comes back: results stand
    event.join(Player(9, "Late"))
    assert event.seeds[-1] == 9
    # 9 has not played: he picks first, the nearest score (0: 2, not 1 with his forfeit win).
    assert event.free_players() == [9, 1, 2]
    assert [m.players for m in event.arena_pair()] == [(9, 2)]
    assert event.free_players() == [1]
    assert event.arena_standings()[0].player == 1
    event.withdraw(3, disqualify=True)
    with pytest.raises(TournamentError):
        event.join(Player(3, "P3"))
    swiss = Event.start(EventSettings(), make_players(4), Random(1))
    with pytest.raises(TournamentError):
        swiss.join(Player(9, "Late"))


def test_arena_settings() -> None:
    with pytest.raises(TournamentError):
        EventSettings(format=Format.ARENA, best_of=3)
    with pytest.raises(TournamentError):
        EventSettings(format=Format.ARENA, arena_minutes=2)
    assert EventSettings.from_dict(ARENA.to_dict()) == ARENA


def outcome_of(event: Event, match_id: str, pid: int) -> str:
    _, match = event.find(match_id)
    assert match.result is not None
    if match.result.winner == pid:
        return "win"
    return "draw" if match.result.winner is None and match.result.how is How.PLAYED else "loss"


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 12), st.integers(0, 2**32 - 1), st.integers(0, 60))
def test_arena_property(n: int, seed: int, finishes: int) -> None:
    """Never paired with oneself, a busy player or an absent one; points are the sum of the
    results in the order they came, with streaks doubled."""
    rng = Random(seed)
    event = Event.start(ARENA, make_players(n, ai=n // 3), rng)
    event.next_round()
    history: dict[int, list[str]] = {p: [] for p in event.seeds}
    for _ in range(finishes):
        open_ = event.open_matches()
        if open_:
            match = rng.choice(open_)
            finish(event, match.id, rng.choice([*match.players, None]))
            for p in match.players:
                history[p].append(outcome_of(event, match.id, p))
        if rng.random() < 0.15 and event.active:
            for decided in event.withdraw(rng.choice(event.active)):
                for p in event.find(decided)[1].players:
                    history[p].append(outcome_of(event, decided, p))
        if rng.random() < 0.15 and event.withdrawn:
            event.join(event.player(rng.choice(sorted(event.withdrawn))))
        busy = {p for m in event.open_matches() for p in m.players}
        new = event.arena_pair()
        event = Event.from_dict(event.to_dict())
        for m in new:
            x, y = m.players
            assert x != y
            assert x not in busy and y not in busy
            assert x not in event.withdrawn and y not in event.withdrawn
            assert not (event.player(x).ai and event.player(y).ai)
            busy |= {x, y}
        # Nobody free is left waiting while another free player could play him.
        waiting = event.free_players()
        members = [p for p in waiting if not event.player(p).ai]
        assert len(members) <= 1 and (not members or len(waiting) == 1)
    for row in event.arena_standings():
        assert (row.points, row.streak) == arena_points(history[row.player])
        assert row.games == len(history[row.player])
    # The end: games in play finish and count, nobody is paired, the pool is paid in full.
    event.close_arena()
    assert event.arena_pair() == []
    for match in event.open_matches():
        finish(event, match.id, match.players[0])
    assert event.next_round() is None and event.finished
    assert sum(event.payouts(1000).values()) == 1000
