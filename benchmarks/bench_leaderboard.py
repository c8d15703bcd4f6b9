"""Leaderboard page and rank queries on a guild with 100,000 accounts (chips) and 100,000 rated
members (``/leaderboard by:rating`` and ``by:wins``).

    .venv/bin/python benchmarks/bench_leaderboard.py [--accounts 100000] [--runs 15]

Creates a temporary database (real file, real migrations), fills one guild with ``--accounts``
accounts (balances 0..5000, so many ties) plus a second, smaller guild as noise, then prints the
median time of each query through :class:`~bot.services.chips.ChipsService` (so the figures
include aiosqlite's thread hop), the ``EXPLAIN QUERY PLAN`` of both statements, and the same
timings after dropping the ``accounts_by_balance`` index, to show what the index buys. Then the
same for the rating and wins boards through :class:`~bot.services.ratings.RatingService`
(``--accounts`` members with a Kap Shap rating and an all-games wins count), with and without
``member_ratings_by_rating`` / ``member_ratings_by_wins``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path

from bot.services.chips import ChipsDefaults, ChipsService
from bot.services.clock import SystemClock
from bot.services.ratings import RatingService
from bot.storage.chips import LEADERBOARD_SQL, RANK_SQL, ChipsRepo
from bot.storage.db import Database
from bot.storage.ratings import ALL_GAMES, MemberRating, RatingsRepo
from bot.storage.ratings import LEADERBOARD_SQL as RATING_BOARD_SQL
from bot.storage.ratings import RANK_SQL as RATING_RANK_SQL

GUILD, OTHER_GUILD = 1, 2


async def median_ms(action: Callable[[], Awaitable[object]], runs: int) -> float:
    """Median wall time of ``runs`` calls, in milliseconds (after one warm-up call)."""
    await action()
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        await action()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


async def seed(db: Database, accounts: int) -> list[int]:
    """Create the accounts; return the user ids in leaderboard order."""
    rng = random.Random(2024)
    users = rng.sample(range(10**17, 10**18), accounts)  # snowflake-sized ids
    balances = [(user, rng.randint(0, 5000)) for user in users]
    noise = [(user, rng.randint(0, 5000)) for user in rng.sample(range(1, 10**9), accounts // 5)]
    now = datetime.now(UTC)
    repo = ChipsRepo()
    async with db.transaction() as tx:
        await repo.import_balances(tx, GUILD, balances, now)
        await repo.import_balances(tx, OTHER_GUILD, noise, now)
    return [user for user, _ in sorted(balances, key=lambda ub: (-ub[1], ub[0]))]


async def measure(chips: ChipsService, order: list[int], runs: int) -> dict[str, float]:
    """Median milliseconds of each query."""
    n = len(order)
    return {
        "leaderboard page 1 (offset 0, 10 rows)": await median_ms(
            lambda: chips.leaderboard(GUILD, 0, 10), runs
        ),
        f"leaderboard deep page (offset {n // 2:,}, 10 rows)": await median_ms(
            lambda: chips.leaderboard(GUILD, n // 2, 10), runs
        ),
        "rank of the leader": await median_ms(lambda: chips.rank(GUILD, order[0]), runs),
        "rank of the median member": await median_ms(
            lambda: chips.rank(GUILD, order[n // 2]), runs
        ),
        "rank of the last member": await median_ms(lambda: chips.rank(GUILD, order[-1]), runs),
    }


async def seed_ratings(db: Database, members: int) -> dict[str, list[int]]:
    """Rated members (Kap Shap ratings 600..2400 and all-games wins 0..500, so many ties) in one
    guild plus noise in another; return the user ids in each board's order."""
    rng = random.Random(2025)
    users = rng.sample(range(10**17, 10**18), members)
    rows, totals = [], []
    for user in users:
        wins = rng.randint(0, 500)
        games = wins + rng.randint(0, 500)
        rating = rng.randint(600, 2400)
        rows.append(MemberRating(GUILD, "kap-shap", user, games, wins, 0, games, 25.0, 2.0, rating))
        totals.append(MemberRating(GUILD, ALL_GAMES, user, games, wins, 0, games))
    noise = [
        MemberRating(OTHER_GUILD, "kap-shap", u, 5, 2, 0, 5, 25.0, 3.0, rng.randint(600, 2400))
        for u in rng.sample(range(1, 10**9), members // 5)
    ]
    async with db.transaction() as tx:
        await RatingsRepo().import_members(tx, rows + totals + noise)
    return {
        "rating": [m.user_id for m in sorted(rows, key=lambda m: (-(m.rating or 0), m.user_id))],
        "wins": [m.user_id for m in sorted(totals, key=lambda m: (-m.wins, m.user_id))],
    }


async def measure_ratings(
    ratings: RatingService, orders: dict[str, list[int]], runs: int
) -> dict[str, float]:
    """Median milliseconds of a page + the caller's rank (what one /leaderboard by:... reads)."""
    figures = {}
    for by, game in (("rating", "kap-shap"), ("wins", None)):
        order = orders[by]
        n = len(order)
        for label, offset, user in (
            ("page 1, caller the leader", 0, order[0]),
            ("page 1, caller the median member", 0, order[n // 2]),
            ("page 1, caller the last member", 0, order[-1]),
            (f"deep page (offset {n // 2:,}), caller the median", n // 2, order[n // 2]),
        ):
            figures[f"by {by}: {label}"] = await median_ms(
                lambda by=by, game=game, offset=offset, user=user: ratings.leaderboard(
                    GUILD, by=by, game=game, user_id=user, offset=offset
                ),
                runs,
            )
    return figures


async def main_ratings(members: int, runs: int) -> None:
    """The rating and wins boards at ``members`` rated members."""
    with tempfile.TemporaryDirectory() as directory:
        db = await Database.open(Path(directory) / "bench.db")
        try:
            started = time.perf_counter()
            orders = await seed_ratings(db, members)
            print(f"\nseeded {members:,} rated members in {time.perf_counter() - started:.2f}s")
            ratings = RatingService(db, SystemClock())
            for by, game in (("rating", "kap-shap"), ("wins", None)):
                order = orders[by]
                for position in (0, members // 3, members - 1):
                    page = await ratings.leaderboard(
                        GUILD, by=by, game=game, user_id=order[position], offset=position
                    )
                    assert page.own is not None and page.own[0] == position + 1, (by, position)
                    assert page.rows[position - page.offset][1] == order[position]
                params = {"guild": GUILD, "game": game or ALL_GAMES, "limit": 10, "offset": 0}
                print(f"EXPLAIN QUERY PLAN, {by} page:")
                for line in await db.explain_query_plan(RATING_BOARD_SQL[by], params):
                    print(f"  {line}")
                print(f"EXPLAIN QUERY PLAN, {by} rank:")
                for line in await db.explain_query_plan(
                    RATING_RANK_SQL[by],
                    {"guild": GUILD, "game": game or ALL_GAMES, "value": 1500, "user": order[0]},
                ):
                    print(f"  {line}")
            with_index = await measure_ratings(ratings, orders, runs)
            async with db.transaction() as tx:
                await tx.execute("DROP INDEX member_ratings_by_rating")
                await tx.execute("DROP INDEX member_ratings_by_wins")
            without_index = await measure_ratings(ratings, orders, runs)
        finally:
            await db.close()
    width = max(len(name) for name in with_index)
    print(f"\nmedian of {runs} runs, milliseconds, through RatingService.leaderboard:")
    print(f"  {'query':<{width}}  {'indexed':>9}  {'no index':>9}")
    for name, indexed in with_index.items():
        print(f"  {name:<{width}}  {indexed:9.3f}  {without_index[name]:9.3f}")


async def main(accounts: int, runs: int) -> None:
    """Run the benchmark and print its figures."""
    with tempfile.TemporaryDirectory() as directory:
        db = await Database.open(Path(directory) / "bench.db")
        try:
            started = time.perf_counter()
            order = await seed(db, accounts)
            print(
                f"seeded {accounts:,} accounts (+{accounts // 5:,} in another guild) "
                f"in {time.perf_counter() - started:.2f}s"
            )
            chips = ChipsService(db, SystemClock(), ChipsDefaults())

            # Sanity: the rank query and the board agree at a few positions.
            for position in (0, accounts // 3, accounts - 1):
                info = await chips.rank(GUILD, order[position])
                assert info is not None and info.rank == position + 1, (position, info)
                page = await chips.leaderboard(GUILD, position, 1)
                assert page[0].user_id == order[position]

            print("\nEXPLAIN QUERY PLAN, leaderboard page:")
            for line in await db.explain_query_plan(
                LEADERBOARD_SQL, {"guild": GUILD, "limit": 10, "offset": 0}
            ):
                print(f"  {line}")
            print("EXPLAIN QUERY PLAN, rank:")
            for line in await db.explain_query_plan(
                RANK_SQL, {"guild": GUILD, "balance": 2500, "user": order[0]}
            ):
                print(f"  {line}")

            with_index = await measure(chips, order, runs)
            async with db.transaction() as tx:
                await tx.execute("DROP INDEX accounts_by_balance")
            without_index = await measure(chips, order, runs)
        finally:
            await db.close()

    width = max(len(name) for name in with_index)
    print(f"\nmedian of {runs} runs, milliseconds, through ChipsService:")
    print(f"  {'query':<{width}}  {'indexed':>9}  {'no index':>9}")
    for name, indexed in with_index.items():
        print(f"  {name:<{width}}  {indexed:9.3f}  {without_index[name]:9.3f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--accounts", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=15)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.accounts, arguments.runs))
    asyncio.run(main_ratings(arguments.accounts, arguments.runs))
