"""The puzzle service on both backends: an answer rated against the puzzle (right: up, streak
+1; wrong: down, streak 0; a second answer changes nothing), the next puzzle near the member's
rating, the leaderboard, and the daily puzzle posted once across two processes and after a
restart."""

from __future__ import annotations

import random
from datetime import timedelta
from pathlib import Path

import pytest

from bot.ai.puzzles import PuzzleSet
from bot.services.clock import ManualClock
from bot.services.errors import UserError
from bot.services.puzzles import START_RATING, PuzzleService
from bot.storage.db import Database
from tests.puzzles_kit import tiny_set

GUILD = 5
ALICE, BOB = 11, 12
SETS = {"kap-shap": tiny_set("kap-shap", 4), "tsung-shap": tiny_set("tsung-shap", 2)}


def _sets(game: str) -> PuzzleSet:
    return SETS.get(game) or PuzzleSet(game, 0, 0.05, 3.0, 0, 0)


def _service(db: Database, clock: ManualClock) -> PuzzleService:
    return PuzzleService(db, clock, sets=_sets, rng=random.Random(3))


async def test_a_right_answer_raises_the_rating_and_the_streak(db: Database) -> None:
    service = _service(db, ManualClock())
    puzzle = SETS["kap-shap"].puzzles[0]
    got = await service.answer(GUILD, ALICE, "kap-shap", 0, puzzle.best)
    assert got.solved and got.rated
    assert got.rating_before == START_RATING
    assert got.rating_after == START_RATING + 20.0  # K 40, an even match
    assert (got.streak, got.best_streak) == (1, 1)
    again = await service.answer(GUILD, ALICE, "kap-shap", 1, SETS["kap-shap"].puzzles[1].best)
    assert again.streak == 2 and again.rating_after > got.rating_after
    wrong = SETS["kap-shap"].puzzles[2].choices[1]
    lost = await service.answer(GUILD, ALICE, "kap-shap", 2, wrong)
    assert not lost.solved and lost.rating_after < lost.rating_before
    assert (lost.streak, lost.best_streak) == (0, 2)
    solver = await service.solver(GUILD, ALICE)
    assert (solver.solved, solver.failed, solver.streak, solver.best_streak) == (2, 1, 0, 2)
    assert solver.rating == lost.rating_after


async def test_a_second_answer_to_a_puzzle_changes_nothing(db: Database) -> None:
    service = _service(db, ManualClock())
    puzzle = SETS["kap-shap"].puzzles[0]
    first = await service.answer(GUILD, BOB, "kap-shap", 0, puzzle.choices[1])
    second = await service.answer(GUILD, BOB, "kap-shap", 0, puzzle.best)
    assert second.solved and not second.rated
    assert second.rating_after == second.rating_before == first.rating_after
    assert (await service.solver(GUILD, BOB)).failed == 1


async def test_bad_answers_are_refused(db: Database) -> None:
    service = _service(db, ManualClock())
    with pytest.raises(UserError, match="not one of the answers"):
        await service.answer(GUILD, ALICE, "kap-shap", 0, "declare")
    with pytest.raises(UserError, match="does not exist"):
        await service.answer(GUILD, ALICE, "kap-shap", 99, "draw")
    with pytest.raises(UserError, match="no puzzles of that game"):
        await service.next_for(GUILD, ALICE, "kap-tai-shap")
    assert await service.leaderboard(GUILD) == []


async def test_the_next_puzzle_is_one_not_answered_yet(db: Database) -> None:
    service = _service(db, ManualClock())
    for puzzle in SETS["tsung-shap"].puzzles[:1]:
        await service.answer(GUILD, ALICE, "tsung-shap", puzzle.number, puzzle.best)
    for _ in range(5):
        got = await service.next_for(GUILD, ALICE, "tsung-shap")
        assert got.number == 1
    board = await service.leaderboard(GUILD)
    assert [s.user_id for s in board] == [ALICE]


async def test_only_a_manager_sets_the_daily_puzzle(db: Database) -> None:
    service = _service(db, ManualClock())
    with pytest.raises(UserError, match="manage the server"):
        await service.set_daily(GUILD, 77, ALICE, manages=False)
    assert await service.daily_setting(GUILD) is None


async def _second(target: str | Path) -> Database:
    return await Database.open(target)


async def test_the_daily_puzzle_is_posted_once_across_processes_and_restarts(
    db: Database, db_target: str | Path
) -> None:
    clock = ManualClock()
    one = _service(db, clock)
    other_db = await _second(db_target)
    try:
        two = _service(other_db, clock)
        await one.set_daily(GUILD, 77, ALICE, manages=True)
        first = await one.due_posts()
        assert [(p.guild_id, p.channel_id) for p in first] == [(GUILD, 77)]
        assert await two.due_posts() == []
        assert await one.due_posts() == []
        clock.advance(timedelta(hours=23).total_seconds())
        assert await two.due_posts() == []  # the same day
        clock.advance(timedelta(hours=2).total_seconds())
        posts = [*await two.due_posts(), *await one.due_posts()]
        assert len(posts) == 1 and posts[0].day != first[0].day
        # A restart: a fresh service on a fresh connection finds nothing left to post.
        restarted = _service(await _second(db_target), clock)
        try:
            assert await restarted.due_posts() == []
        finally:
            await restarted.db.close()
    finally:
        await other_db.close()
