"""Ratings on a real SQLite file: updates, fixed computer strength, idempotency, rebuild."""

from __future__ import annotations

import logging
import random

import pytest

from bot.engine import legal_actions
from bot.games.collecting.engine.actions import Declare
from bot.services.chips import ChipsDefaults, ChipsService
from bot.services.clock import ManualClock
from bot.services.ratings import (
    AI_RATINGS,
    ModelParams,
    RatingService,
    ai_rating,
    display_rating,
    ranks_of,
    rate,
)
from bot.services.tables import Outcome, TableDefaults, TableService
from bot.storage.db import Database
from bot.storage.games import GamesRepo
from bot.storage.ratings import ALL_GAMES, MemberRating

GUILD = 1
ALICE, BOB, CAROL = 11, 12, 13
PARAMS = ModelParams()
NEW = (PARAMS.mu, PARAMS.sigma)


def services(db: Database, clock: ManualClock, seed: int = 7) -> tuple[TableService, RatingService]:
    chips = ChipsService(db, clock, ChipsDefaults(starting_chips=1000, daily_amount=100))
    ratings = RatingService(db, clock, provisional_games=3)
    tables = TableService(
        GamesRepo(db),
        chips,
        clock,
        TableDefaults(ante=10, turn_seconds=60, timeout_ai_level="random"),
        random.Random(seed),
        ratings=ratings,
    )
    return tables, ratings


async def play_game(
    tables: TableService,
    channel: int,
    members: list[tuple[int, str]],
    *,
    game: str = "kap-shap",
    ai: str | None = None,
    seed: int = 0,
) -> str:
    """Open, fill, start and play out one game; humans play random legal actions (declaring
    when they can). Returns the game id."""
    host, host_name = members[0]
    seats = len(members) + (ai is not None)
    await tables.open_table(
        guild_id=GUILD,
        channel_id=channel,
        host_id=host,
        host_name=host_name,
        game=game,
        seats=seats,
    )
    for user_id, name in members[1:]:
        await tables.join(channel, user_id, name)
    if ai is not None:
        await tables.add_ai(channel, host, ai)
    await tables.start(channel, host)
    table = tables.require(channel)
    rng = random.Random(seed)
    while table.running:
        state = table.state
        assert state is not None
        seat = table.seats[state.current]
        assert seat.user_id is not None
        legal = legal_actions(state)
        action = Declare() if Declare() in legal else rng.choice(legal)
        await tables.act(channel, seat.user_id, action, version=table.version)
    return table.id


def test_a_win_raises_a_loss_lowers_and_a_fixed_seat_never_moves() -> None:
    winner, loser = rate(PARAMS, [NEW, NEW], [1, 2], [False, False])
    assert winner[0] > PARAMS.mu > loser[0]
    assert winner[1] < PARAMS.sigma and loser[1] < PARAMS.sigma
    ai = ai_rating("kap-shap", "expert", PARAMS)
    beaten = rate(PARAMS, [NEW, ai], [1, 2], [False, True])
    assert beaten[0][0] > PARAMS.mu and beaten[1] == ai
    lost = rate(PARAMS, [NEW, ai], [2, 1], [False, True])
    assert lost[0][0] < PARAMS.mu and lost[1] == ai
    # Beating a stronger computer is worth more than beating a weaker one.
    weak = rate(PARAMS, [NEW, ai_rating("kap-shap", "random", PARAMS)], [1, 2], [False, True])
    assert beaten[0][0] > weak[0][0]


def test_ranks_and_the_displayed_number() -> None:
    assert ranks_of("kap-tai-shap", 2, None, 4) == [2, 2, 1, 2]
    assert ranks_of("tsung-shap", 1, (12, 30), 2) == [2, 1]
    assert ranks_of("tsung-shap", None, (5, 9, 9), 3) == [3, 1, 1]
    assert display_rating(PARAMS.mu, PARAMS.sigma, PARAMS) == 1000  # a newcomer
    assert display_rating(25.0, 5.0 / 3.0, PARAMS) == 1500
    # A level nobody calibrated yet (e.g. a new "master") plays at the strongest known level.
    assert ai_rating("kap-shap", "master", PARAMS) == ai_rating("kap-shap", "expert", PARAMS)
    assert ai_rating("tsung-shap", "master", PARAMS) == ai_rating("tsung-shap", "expert", PARAMS)
    # Another model maps the calibrated strengths onto its own scale.
    double = ModelParams(mu=50.0, sigma=50.0 / 3.0)
    mu, sigma = AI_RATINGS["kap-shap"]["greedy"]
    assert ai_rating("kap-shap", "greedy", double) == (50.0 + (mu - 25.0) * 2, sigma * 2)


async def test_beating_the_computer_moves_only_the_member(db: Database) -> None:
    clock = ManualClock()
    tables, ratings = services(db, clock)
    game_id = await play_game(tables, 100, [(ALICE, "Alice")], ai="greedy", seed=1)
    table = tables.require(100)
    assert table.state is not None and table.state.result is not None
    winner = table.state.result.winner
    alice = await ratings.rating(GUILD, ALICE, "kap-shap")
    assert alice is not None and alice.games == 1
    if winner is None:
        assert alice.rating is None and alice.draws == 1
        return
    ai = ai_rating("kap-shap", "greedy", PARAMS)
    ranks = [1, 2] if table.seats[winner].user_id == ALICE else [2, 1]
    expected = rate(PARAMS, [NEW, ai], ranks, [False, True])[0]
    assert (alice.mu, alice.sigma) == expected
    assert (alice.mu > PARAMS.mu) == (ranks[0] == 1)
    history = await ratings.history(GUILD, ALICE)
    assert [h.game_id for h in history] == [game_id]
    assert history[0].opponents == ("AI 1 (greedy)",)


async def test_a_replayed_settlement_rates_once(db: Database) -> None:
    clock = ManualClock()
    tables, ratings = services(db, clock)
    game_id = await play_game(tables, 100, [(ALICE, "Alice"), (BOB, "Bob")], seed=2)
    before = await ratings.all_ratings()
    assert {m.user_id for m in before} == {ALICE, BOB}
    # The settlement runs again (a restart settling a game whose end was saved, a retry).
    assert await ratings.record(game_id) is False
    table = tables.require(100)
    await tables._settle(table, Outcome(table))
    assert await ratings.all_ratings() == before
    totals = [m for m in before if m.game == ALL_GAMES]
    assert all(m.games == 1 for m in totals)


async def test_drawn_games_count_but_are_not_rated_and_aborted_games_are_not_recorded(
    db: Database,
) -> None:
    clock = ManualClock()
    tables, ratings = services(db, clock)
    await tables.open_table(guild_id=GUILD, channel_id=100, host_id=ALICE, host_name="Alice")
    await tables.join(100, BOB, "Bob")
    await tables.start(100, ALICE)
    aborted = tables.require(100).id
    await tables.cancel(100, ALICE, admin=True)
    assert await ratings.record(aborted) is False
    assert await ratings.all_ratings() == []
    # Play until one game is drawn (random play draws often enough in Kap Shap).
    for seed in range(40):
        await play_game(tables, 200 + seed, [(ALICE, "Alice"), (BOB, "Bob")], seed=seed)
        if tables.require(200 + seed).state.result.winner is None:  # type: ignore[union-attr]
            break
    else:  # pragma: no cover - depends on the seeds
        raise AssertionError("no drawn game in 40 seeds")
    stats = await ratings.stats(GUILD, ALICE, "kap-shap")
    assert stats.draws >= 1 and stats.games == stats.wins + stats.draws + stats.losses
    member = await ratings.rating(GUILD, ALICE, "kap-shap")
    assert member is not None and member.rated_games == member.games - member.draws


async def test_rebuild_reproduces_the_live_ratings_exactly(db: Database) -> None:
    clock = ManualClock()
    tables, ratings = services(db, clock)
    channel = 300
    plays = [
        ([(ALICE, "Alice"), (BOB, "Bob")], "kap-shap", None),
        ([(ALICE, "Alice")], "kap-shap", "expert"),
        ([(BOB, "Bob"), (CAROL, "Carol"), (ALICE, "Alice")], "kap-tai-shap", None),
        ([(CAROL, "Carol")], "tsung-shap", "random"),
        ([(ALICE, "Alice"), (CAROL, "Carol")], "tsung-shap", None),
        ([(BOB, "Bob"), (ALICE, "Alice")], "kap-shap", None),
    ]
    for round_ in range(2):
        for i, (members, game, ai) in enumerate(plays):
            channel += 1
            await play_game(tables, channel, members, game=game, ai=ai, seed=round_ * 10 + i)
    live = await ratings.all_ratings()
    assert any(m.rating is not None for m in live)
    await check_board_counters(ratings, live)
    stats_before = await ratings.stats(GUILD, ALICE)
    assert await ratings.rebuild() == 12
    assert await ratings.all_ratings() == live
    assert await ratings.stats(GUILD, ALICE) == stats_before
    # New model parameters: every rating is recomputed with them, and they stay in force.
    wider = ModelParams(beta=8.0)
    await ratings.rebuild(wider)
    assert await ratings.model_params() == wider
    changed = await ratings.all_ratings()
    assert [(m.user_id, m.game, m.games) for m in changed] == [
        (m.user_id, m.game, m.games) for m in live
    ]
    assert changed != live
    # A game played now is rated with the new model, and a rebuild still reproduces it.
    await play_game(tables, 999, [(ALICE, "Alice"), (BOB, "Bob")], seed=99)
    after = await ratings.all_ratings()
    await ratings.rebuild()
    assert await ratings.all_ratings() == after
    await check_board_counters(ratings, after)


async def check_board_counters(ratings: RatingService, rows: list[MemberRating]) -> None:
    """The trigger-kept board sizes equal a count of the rows."""
    for game in ("kap-shap", "kap-tai-shap", "tsung-shap"):
        rated = await ratings.leaderboard(GUILD, by="rating", game=game)
        assert rated.total == sum(1 for m in rows if m.game == game and m.rating is not None)
        played = await ratings.leaderboard(GUILD, by="wins", game=game)
        assert played.total == sum(1 for m in rows if m.game == game)
    every = await ratings.leaderboard(GUILD, by="wins", game=None)
    assert every.total == sum(1 for m in rows if m.game == ALL_GAMES) == 3


async def test_stats_history_and_leaderboards(db: Database) -> None:
    clock = ManualClock()
    tables, ratings = services(db, clock)
    for seed in range(6):
        await play_game(
            tables, 400 + seed, [(ALICE, "Alice"), (BOB, "Bob")], game="tsung-shap", seed=seed
        )
    stats = await ratings.stats(GUILD, ALICE, "tsung-shap")
    assert stats.games == 6
    assert stats.tsung_games == 6 and stats.average_score is not None
    assert stats.captures > 0
    assert sum(g for g, _ in stats.by_position.values()) == 6
    assert stats.best_streak >= stats.current_streak
    rated = stats.games - stats.draws
    assert len(stats.rating_history.get("tsung-shap", [])) == rated
    assert stats.provisional == (rated < 3)
    history = await ratings.history(GUILD, BOB, limit=4)
    assert len(history) == 4 and all(h.opponents == ("Alice",) for h in history)
    board = await ratings.leaderboard(GUILD, by="rating", game="tsung-shap", user_id=BOB)
    assert [r[0] for r in board.rows] == list(range(1, len(board.rows) + 1))
    values = [r[2] for r in board.rows]
    assert values == sorted(values, reverse=True)
    assert board.own is not None and board.own[0] in (1, 2)
    wins = await ratings.leaderboard(GUILD, by="wins", game=None, user_id=ALICE)
    assert wins.game == ALL_GAMES and wins.total == 2
    assert sum(r[2] for r in wins.rows) == 6 - stats.draws


async def test_games_never_recorded_are_caught_up_in_the_order_a_rebuild_uses(
    db: Database,
) -> None:
    clock = ManualClock()
    tables, ratings = services(db, clock)
    # Games played before ratings existed: a table service without one.
    unrated = TableService(
        GamesRepo(db),
        ChipsService(db, clock, ChipsDefaults(starting_chips=1000, daily_amount=100)),
        clock,
        TableDefaults(ante=10, turn_seconds=60, timeout_ai_level="random"),
        random.Random(5),
    )
    for seed in range(4):
        clock.advance(60)
        await play_game(unrated, 600 + seed, [(ALICE, "Alice")], ai="greedy", seed=seed)
    assert await ratings.all_ratings() == []
    clock.advance(60)
    await play_game(tables, 700, [(ALICE, "Alice"), (BOB, "Bob")], seed=1)
    assert await ratings.record_missing() == 4
    assert await ratings.record_missing() == 0  # once
    caught_up = await ratings.all_ratings()
    alice = next(m for m in caught_up if m.user_id == ALICE and m.game == "kap-shap")
    assert alice.games == 5
    await ratings.rebuild()
    assert await ratings.all_ratings() == caught_up


async def test_a_resigned_game_is_rated_in_the_transaction_that_ends_and_pays_it(
    db: Database,
) -> None:
    clock = ManualClock()
    tables, ratings = services(db, clock)
    await tables.open_table(guild_id=GUILD, channel_id=100, host_id=ALICE, host_name="Alice")
    await tables.join(100, BOB, "Bob")
    await tables.start(100, ALICE)
    table = tables.require(100)
    # Bob gives up at once: the engine never ended this game, the stored winner seat did.
    await tables.resign(100, BOB)
    assert table.winner_seat is not None and not table.running
    assert await ratings.record(table.id) is False  # already recorded by the forfeit itself
    alice = await ratings.rating(GUILD, ALICE, "kap-shap")
    bob = await ratings.rating(GUILD, BOB, "kap-shap")
    assert alice is not None and bob is not None
    assert (alice.wins, bob.wins) == (1, 0)
    assert alice.mu > PARAMS.mu > bob.mu
    # A rebuild from the stored history gives the same ratings (the forfeit replays as a win).
    before = await ratings.all_ratings()
    await ratings.rebuild()
    assert await ratings.all_ratings() == before


def test_the_uncalibrated_master_stands_in_without_a_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="bot.services.ratings"):
        for game in ("kap-shap", "kap-tai-shap", "tsung-shap"):
            ai_rating(game, "master", PARAMS)
        assert caplog.records == []
        # A level nobody listed is news, once per game and level.
        assert ai_rating("kap-tai-shap", "oracle", PARAMS) == ai_rating(
            "kap-tai-shap", "expert", PARAMS
        )
        ai_rating("kap-tai-shap", "oracle", PARAMS)
        assert [r.getMessage() for r in caplog.records] == [
            "no calibrated rating for AI level 'oracle' in kap-tai-shap: the strongest stands in"
        ]
