"""The puzzle repository (migration 0010) on both backends: members' records and the board,
first answers only, the daily puzzle's channel and its posts claimed once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.storage.db import Database
from bot.storage.errors import IntegrityError
from bot.storage.puzzles import DailyPost, DailySetting, PuzzleAttempt, PuzzleSolver, PuzzlesRepo

NOW = datetime(2026, 11, 27, 8, 0, tzinfo=UTC)
GUILD, OTHER = 7, 8


async def test_records_are_written_and_ranked(db: Database) -> None:
    repo = PuzzlesRepo()
    async with db.transaction() as tx:
        assert await repo.solver(tx, GUILD, 1) is None
        await repo.put_solver(tx, PuzzleSolver(GUILD, 1, 1510.5, 1, 0, 1, 1), NOW)
        await repo.put_solver(tx, PuzzleSolver(GUILD, 2, 1620.0, 3, 1, 0, 2), NOW)
        await repo.put_solver(tx, PuzzleSolver(OTHER, 3, 1900.0, 9, 0, 9, 9), NOW)
        await repo.put_solver(tx, PuzzleSolver(GUILD, 1, 1530.25, 2, 0, 2, 2), NOW)
    async with db.read() as tx:
        assert await repo.solver(tx, GUILD, 1) == PuzzleSolver(GUILD, 1, 1530.25, 2, 0, 2, 2)
        board = await repo.board(tx, GUILD, 10)
    assert [(s.user_id, s.rating) for s in board] == [(2, 1620.0), (1, 1530.25)]


async def test_a_puzzle_is_answered_once(db: Database) -> None:
    repo = PuzzlesRepo()
    first = PuzzleAttempt(GUILD, 1, "kap-shap", 4, "discard 6-5", True, 1500.0, 1520.0)
    async with db.transaction() as tx:
        await repo.add_attempt(tx, first, NOW)
    with pytest.raises(IntegrityError):
        async with db.transaction() as tx:
            await repo.add_attempt(tx, first, NOW)
    async with db.read() as tx:
        assert await repo.attempt(tx, GUILD, 1, "kap-shap", 4) == first
        assert await repo.attempt(tx, GUILD, 1, "tsung-shap", 4) is None
        assert await repo.attempted(tx, GUILD, 1, "kap-shap") == {4}


async def test_a_daily_post_is_scheduled_once_and_claimed_once(db: Database) -> None:
    repo = PuzzlesRepo()
    post = DailyPost(GUILD, "2026-11-27", 55, "kap-shap", 3, NOW)
    async with db.transaction() as tx:
        await repo.set_daily(tx, DailySetting(GUILD, 55, 1), NOW)
        assert await repo.add_post(tx, post)
        assert not await repo.add_post(tx, post)
    async with db.read() as tx:
        assert await repo.daily_settings(tx) == [DailySetting(GUILD, 55, 1)]
        assert await repo.due_posts(tx, NOW - timedelta(seconds=1)) == []
        assert await repo.due_posts(tx, NOW) == [post]
    async with db.transaction() as tx:
        assert await repo.claim_post(tx, GUILD, post.day, NOW)
        assert not await repo.claim_post(tx, GUILD, post.day, NOW)
        await repo.posted(tx, GUILD, post.day, 999)
    async with db.read() as tx:
        assert await repo.due_posts(tx, NOW) == []
        stored = await repo.post(tx, GUILD, post.day)
    assert stored is not None and stored.posted_at == NOW and stored.message_id == 999


async def test_stopping_the_daily_puzzle_drops_its_unposted_rows(db: Database) -> None:
    repo = PuzzlesRepo()
    async with db.transaction() as tx:
        await repo.set_daily(tx, DailySetting(GUILD, 55, 1), NOW)
        await repo.set_daily(tx, DailySetting(GUILD, 56, 2), NOW)
        await repo.add_post(tx, DailyPost(GUILD, "2026-11-27", 56, "kap-shap", 3, NOW))
    async with db.read() as tx:
        assert await repo.daily_setting(tx, GUILD) == DailySetting(GUILD, 56, 2)
    async with db.transaction() as tx:
        assert await repo.clear_daily(tx, GUILD)
        assert not await repo.clear_daily(tx, GUILD)
    async with db.read() as tx:
        assert await repo.daily_setting(tx, GUILD) is None
        assert await repo.due_posts(tx, NOW) == []
