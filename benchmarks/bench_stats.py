"""``/stats`` and ``/history`` reads for a member with many recorded games, and the cost of
recording (and rating) one finished game.

    .venv/bin/python benchmarks/bench_stats.py [--games 5000] [--runs 15]

Creates a temporary database (real file, real migrations). Part 1 plays ``--record`` real Kap
Shap and Tsung Shap games (a member against the greedy AI) through the table service with
ratings on, and times ``RatingService.record`` on each finished game again from scratch (replay
of the stored log + rating update + rows). Part 2 writes ``--games`` recorded games of one
member straight through the repository (plus as many of other members as noise) and times
``RatingService.stats`` (every game, one game) and ``history``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.engine import legal_actions
from bot.services.chips import ChipsDefaults, ChipsService
from bot.services.clock import ManualClock
from bot.services.ratings import RatingService
from bot.services.tables import TableDefaults, TableService
from bot.storage.db import Database
from bot.storage.games import GamesRepo
from bot.storage.ratings import RatingsRepo, ResultRow

GUILD, MEMBER = 1, 11


async def median_ms(action: Callable[[], Awaitable[object]], runs: int) -> float:
    """Median wall time of ``runs`` calls, in milliseconds (after one warm-up call)."""
    await action()
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        await action()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


async def time_recording(db: Database, games: int) -> dict[str, float]:
    """Median milliseconds of recording one finished game, per game kind."""
    clock = ManualClock()
    ratings = RatingService(db, clock)
    tables = TableService(
        GamesRepo(db),
        ChipsService(db, clock, ChipsDefaults()),
        clock,
        TableDefaults(ante=0),
        random.Random(1),
        ratings=ratings,
    )
    rng = random.Random(2)
    figures = {}
    for game in ("kap-shap", "tsung-shap"):
        ids = []
        for i in range(games):
            channel = (10_000 if game == "kap-shap" else 20_000) + i
            await tables.open_table(
                guild_id=GUILD, channel_id=channel, host_id=MEMBER, host_name="M", game=game
            )
            await tables.add_ai(channel, MEMBER, "greedy")
            await tables.start(channel, MEMBER)
            table = tables.require(channel)
            while table.running:
                assert table.state is not None
                await tables.act(channel, MEMBER, rng.choice(legal_actions(table.state)))
            ids.append(table.id)
        samples = []
        for game_id in ids:
            async with db.transaction() as tx:  # forget it, then record it again
                await tx.execute("DELETE FROM recorded_games WHERE game_id = ?", (game_id,))
            start = time.perf_counter()
            await ratings.record(game_id)
            samples.append((time.perf_counter() - start) * 1000)
        figures[f"record one finished {game} game (replay + rate)"] = statistics.median(samples)
    return figures


async def seed_results(db: Database, games: int) -> None:
    """``games`` recorded games of MEMBER (and as many of other members)."""
    repo = RatingsRepo()
    rng = random.Random(3)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    async with db.transaction() as tx:
        for i in range(2 * games):
            user = MEMBER if i % 2 == 0 else 1000 + i
            game = ("kap-shap", "kap-tai-shap", "tsung-shap")[i % 3]
            result = rng.choice(("win", "loss", "loss", "draw"))
            game_id = f"bench{i:08d}"
            seq = await repo.add_recorded(
                tx,
                game_id=game_id,
                guild_id=GUILD,
                game=game,
                outcome="drawn" if result == "draw" else "won",
                rated=result != "draw",
                finished_at=start + timedelta(minutes=i),
            )
            fishing = game == "tsung-shap"
            rows = [
                ResultRow(
                    game_id=game_id,
                    seat=seat,
                    guild_id=GUILD,
                    game=game,
                    seq=seq,
                    user_id=user if seat == 0 else None,
                    ai_level=None if seat == 0 else "greedy",
                    name="M" if seat == 0 else "AI",
                    position=seat,
                    result=result if seat == 0 else "loss",
                    eye="6-6 6-6" if result == "win" and not fishing else None,
                    score=rng.randint(0, 40) if fishing else None,
                    captures=rng.randint(0, 8) if fishing else None,
                    sweeps=rng.randint(0, 2) if fishing else None,
                    claims=rng.randint(0, 2) if fishing else None,
                    mu=25.0 if seat == 0 and result != "draw" else None,
                    sigma=2.0 if seat == 0 and result != "draw" else None,
                    rating=rng.randint(900, 2000) if seat == 0 and result != "draw" else None,
                )
                for seat in range(2)
            ]
            await repo.add_results(tx, rows)


async def main(games: int, record: int, runs: int) -> None:
    """Run both parts and print the figures."""
    with tempfile.TemporaryDirectory() as directory:
        db = await Database.open(Path(directory) / "bench.db")
        try:
            recording = await time_recording(db, record)
            started = time.perf_counter()
            await seed_results(db, games)
            print(f"seeded {games:,} games of the member in {time.perf_counter() - started:.1f}s")
            ratings = RatingService(db, ManualClock())
            reads = {
                f"stats, every game ({games:,} games)": await median_ms(
                    lambda: ratings.stats(GUILD, MEMBER), runs
                ),
                "stats, one game (a third of them)": await median_ms(
                    lambda: ratings.stats(GUILD, MEMBER, "tsung-shap"), runs
                ),
                "history, latest 10 games": await median_ms(
                    lambda: ratings.history(GUILD, MEMBER, 10), runs
                ),
            }
        finally:
            await db.close()
    print(f"\nmedian milliseconds ({record} games recorded per kind; reads: {runs} runs):")
    for name, value in {**recording, **reads}.items():
        print(f"  {name:<52} {value:8.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--record", type=int, default=30)
    parser.add_argument("--runs", type=int, default=15)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.games, arguments.record, arguments.runs))
