"""The review service: a real process pool off the event loop, the queue, permissions."""

from __future__ import annotations

import asyncio
import multiprocessing
import threading
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

import pytest

from bot.ai.review import Decision, Estimate, Verdict, decisions_of
from bot.engine.record import GameRecord
from bot.services import replays as replays_module
from bot.services.errors import UserError
from bot.services.replays import (
    LoadedGame,
    Progress,
    ReplayService,
    ReviewService,
    init_worker,
)
from tests.engine.test_record import random_game


def loaded(record: GameRecord) -> LoadedGame:
    return LoadedGame("abc123", 42, record, (1000, None))


def service(**kwargs: object) -> ReviewService:
    return ReviewService(ReplayService(None), **kwargs)  # type: ignore[arg-type]


async def test_a_review_runs_in_a_process_pool_and_the_loop_stays_free() -> None:
    record = random_game(0, 2)  # a Kap Shap game of random moves with several decisions
    pool = ProcessPoolExecutor(
        1, mp_context=multiprocessing.get_context("spawn"), initializer=init_worker
    )
    reviews = service(executor=pool, rollouts=5)
    ticks = 0
    stop = asyncio.Event()

    async def ticker() -> None:
        nonlocal ticks
        while not stop.is_set():
            ticks += 1
            await asyncio.sleep(0)

    reports: list[tuple[int, int]] = []

    async def report(progress: Progress) -> None:
        reports.append((progress.done, progress.total))

    task = asyncio.create_task(ticker())
    try:
        result = await reviews.review(loaded(record), 0, report)
    finally:
        stop.set()
        await task
        pool.shutdown()
    total = reports[-1][1]
    assert total > 0 and reports[0] == (0, total) and reports[-1] == (total, total)
    assert [done for done, _ in reports] == list(range(total + 1))
    assert len(result.decisions) == total
    numbers = [d.number for d in result.decisions]
    assert numbers == sorted(numbers)  # the game's order
    losses = [d.loss for d in result.mistakes]
    assert losses == sorted(losses, reverse=True)  # the named mistakes: largest first
    assert all(d.named for d in result.mistakes)
    assert ticks > total  # the event loop kept running while the pool worked


async def test_reviews_beyond_the_limit_wait_in_a_queue(monkeypatch: pytest.MonkeyPatch) -> None:
    gate = threading.Event()
    started = threading.Semaphore(0)

    def slow_task(text: str, number: int, rollouts: int | None, seed: int) -> Decision:
        started.release()
        gate.wait(10)
        e = Estimate(0.5, 0.01, 10)
        return Decision(
            number, 1, 0, "draw", "draw", "draw", e, e, e, 0.0, 0.0, Verdict.BEST, 2, 10
        )

    monkeypatch.setattr(replays_module, "review_task", slow_task)
    record = random_game(0, 2)
    with ThreadPoolExecutor(8) as pool:
        reviews = service(executor=pool, max_running=1, rollouts=3)
        first: list[Progress] = []
        second: list[Progress] = []

        async def keep(into: list[Progress], progress: Progress) -> None:
            into.append(Progress(progress.queued, progress.done, progress.total, progress.waiting))

        a = asyncio.create_task(reviews.review(loaded(record), 0, lambda p: keep(first, p)))
        await asyncio.to_thread(started.acquire)
        b = asyncio.create_task(reviews.review(loaded(record), 0, lambda p: keep(second, p)))
        for _ in range(5):
            await asyncio.sleep(0)
        assert reviews.running == 1 and reviews.queued == 1
        assert second and second[0].waiting and second[0].queued == 1
        gate.set()
        await asyncio.gather(a, b)
    assert reviews.running == 0 and reviews.queued == 0
    assert not second[-1].waiting and second[-1].done == second[-1].total


async def test_who_may_review_whom() -> None:
    game = loaded(random_game(0, 2))
    private = service()
    assert private.seat_to_review(game, 1000, None) == 0
    with pytest.raises(UserError, match="only review your own games"):
        private.seat_to_review(game, 2000, 1000)
    with pytest.raises(UserError, match="You did not play game"):
        private.seat_to_review(game, 2000, None)
    public = service(public=True)
    assert public.seat_to_review(game, 2000, 1000) == 0
    with pytest.raises(UserError, match="did not play"):
        public.seat_to_review(game, 1000, 3000)


def test_review_task_pickles(tmp_path: Path) -> None:
    """What crosses the process boundary: the record's text in, a Decision out."""
    import pickle

    from bot.engine.record import write_record
    from bot.services.replays import review_task

    record = random_game(0, 2)
    number = decisions_of(record, 0)[0]
    d = review_task(write_record(record), number, 50, 0)
    assert d.position is not None and d.legal and d.choices  # what the page shows
    assert pickle.loads(pickle.dumps(d)) == d


async def test_load_refuses_other_servers_and_live_games(tmp_path: Path) -> None:
    from bot.storage.db import Database
    from bot.storage.games import GamesRepo
    from tests.test_records_cli import store_game

    path = tmp_path / "k.sqlite3"
    record = random_game(5, 1)  # Tsung Shap
    done = await store_game(path, record, guild_id=42)
    live = await store_game(path, random_game(0, 1, limit=4), guild_id=42, finished=False)
    db = await Database.open(path)
    try:
        replays = ReplayService(GamesRepo(db))
        game = await replays.load(done, 42)
        assert game.record.actions == record.actions and game.user_ids[0] == 1000
        with pytest.raises(UserError, match="There is no game"):
            await replays.load(done, 43)
        with pytest.raises(UserError, match="still being played"):
            await replays.load(live, 42)
        assert (await replays.load(live, 42, finished=False)).record.actions
        with pytest.raises(UserError, match="There is no game"):
            await replays.load("../../etc", 42)
    finally:
        await db.close()
