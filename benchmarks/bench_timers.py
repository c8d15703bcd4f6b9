"""A burst of turn-timer expiries, and what an unrelated table sees meanwhile.

    .venv/bin/python benchmarks/bench_timers.py [--tables 300] [--runs 3] [--latency 0.05]

Opens ``--tables`` Kap Shap tables (two members each) on a real SQLite file through the table
service, all with the same turn deadline, then moves the (manual) clock past it and runs one
``TableService.expire_due()``: every table's expired turn is played for the absent player
(passively: a draw and a discard) and committed. Meanwhile a member of an unrelated table,
whose turn has not expired, plays a move; its latency is measured from the moment the burst
starts.

Reported, median of ``--runs`` runs, for the bounded-concurrent expiry (the bot's
``EXPIRY_CONCURRENCY``) and, for comparison, one table after another (concurrency 1, as the old
scheduler did):

* **expiries**: wall time of the whole ``expire_due()`` for all the tables (database and AI);
* **burst**: the same plus presenting every timeout to Discord as the scheduler does since the
  turn notices (issue 8): per table the table message edit (the timeout is one of its recent
  lines, no new channel message), then the DMs: the timed-out player's DM edited while the next
  player's notice is posted and his old DM deleted. Four calls, three in a row, each emulated by
  a ``--latency`` sleep (50 ms by default), bounded by the desk's ``PRESENT_CONCURRENCY``: the
  time the scheduler pass is busy;
* **unrelated move**: latency of a move at an unrelated table started with the burst;
* **baseline move**: the same move with no burst.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

import bot.services.tables.timers as tables_module
from bot.services.chips import ChipsDefaults, ChipsService
from bot.services.clock import ManualClock
from bot.services.tables import TableDefaults, TableService
from bot.storage.db import Database
from bot.storage.games import GamesRepo

GUILD = 1
UNRELATED = 10_000


async def _service(path: Path, clock: ManualClock) -> tuple[Database, TableService]:
    db = await Database.open(path)
    chips = ChipsService(db, clock, ChipsDefaults(starting_chips=1000, daily_amount=100))
    service = TableService(
        GamesRepo(db),
        chips,
        clock,
        TableDefaults(ante=10, turn_seconds=60, timeout_ai_level="greedy"),
        random.Random(1),
    )
    return db, service


async def _table(service: TableService, channel: int) -> None:
    a, b = channel * 10 + 1, channel * 10 + 2
    await service.open_table(guild_id=GUILD, channel_id=channel, host_id=a, host_name="A")
    await service.join(channel, b, "B")
    await service.start(channel, a)


async def _unrelated_move(service: TableService) -> float:
    table = service.require(UNRELATED)
    assert table.state is not None and table.current_seat is not None
    user = table.current_seat.user_id
    assert user is not None
    action = table.legal()[0]
    started = time.perf_counter()
    await service.act(UNRELATED, user, action, version=table.version)
    return time.perf_counter() - started


async def _present(count: int, concurrency: int, latency: float) -> None:
    """The desk's presentation of ``count`` timeouts, each four Discord calls of ``latency``
    (three in a row)."""
    limit = asyncio.Semaphore(concurrency)

    async def notice() -> None:
        await asyncio.sleep(latency)  # the next player's DM, posted (Discord notifies it)
        await asyncio.sleep(latency)  # his previous DM, deleted

    async def one() -> None:
        async with limit:
            await asyncio.sleep(latency)  # the table message edit
            # The two players' DMs in parallel, as Presenter.update_dms does.
            await asyncio.gather(asyncio.sleep(latency), notice())

    await asyncio.gather(*(one() for _ in range(count)))


async def _run(tables: int, concurrency: int, latency: float) -> tuple[float, float, float, float]:
    tables_module.EXPIRY_CONCURRENCY = concurrency
    with tempfile.TemporaryDirectory() as folder:
        clock = ManualClock()
        db, service = await _service(Path(folder) / "kap.db", clock)
        try:
            for channel in range(1, tables + 1):
                await _table(service, channel)
            clock.advance(30)
            await _table(service, UNRELATED)  # its deadline is 30 s later than the others'
            baseline = await _unrelated_move(service)
            # Back to a human's turn at the unrelated table (the move may have ended it).
            clock.advance(31)  # past every other deadline, not the unrelated table's
            started = time.perf_counter()
            burst = asyncio.ensure_future(service.expire_due())
            await asyncio.sleep(0)  # the burst is under way
            unrelated = await _unrelated_move(service)
            outcomes = await burst
            expiries = time.perf_counter() - started
            assert len(outcomes) >= tables, len(outcomes)
            await _present(len(outcomes), concurrency, latency)
            elapsed = time.perf_counter() - started
        finally:
            await db.close()
    return expiries, elapsed, unrelated, baseline


async def main_async(tables: int, runs: int, latency: float) -> None:
    bounded = tables_module.EXPIRY_CONCURRENCY
    print(
        f"{tables} simultaneous expiries, Discord calls of {latency * 1000:.0f} ms, "
        f"median of {runs} runs"
    )
    print(
        f"{'concurrency':>12} {'expiries s':>11} {'burst s':>9} {'unrelated ms':>13} "
        f"{'baseline ms':>12}"
    )
    for concurrency in (bounded, 1):
        results = [await _run(tables, concurrency, latency) for _ in range(runs)]
        expiries = statistics.median(r[0] for r in results)
        burst = statistics.median(r[1] for r in results)
        unrelated = statistics.median(r[2] for r in results) * 1000
        baseline = statistics.median(r[3] for r in results) * 1000
        print(
            f"{concurrency:>12} {expiries:>11.2f} {burst:>9.2f} {unrelated:>13.1f} "
            f"{baseline:>12.1f}"
        )
    tables_module.EXPIRY_CONCURRENCY = bounded


def main() -> None:
    """Parse the options and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--latency", type=float, default=0.05)
    args = parser.parse_args()
    asyncio.run(main_async(args.tables, args.runs, args.latency))


if __name__ == "__main__":
    main()
