"""Soak: memory (RSS) and database growth per 1,000 finished games.

Drives the real :class:`~bot.services.tables.TableService` (real SQLite file in a temporary
directory, real migrations, real chip settlement) through many whole games without Discord:
in each of ``--channels`` channels a member opens a table, the host adds computer seats, starts,
and every turn of the member is played by the turn timer (the clock jumps past the deadline and
``expire_due`` lets the computer play it), the path an absent player takes in production. The
games rotate through Kap Shap (2 seats), Kap Tai Shap (4 seats) and Tsung Shap (2 seats).

After every ``--every`` games it prints the process's resident memory (``VmRSS`` from
``/proc/self/status``), its peak (``VmHWM``), the database size (main file + WAL) and the
sizes of the memo tables (the engine's win-check cache, the AI's evaluators), so growth per
1,000 games can be read off. The budget it checks against is stated in docs/benchmarks.md.

    .venv/bin/python benchmarks/bench_soak.py                       # 10,000 games
    .venv/bin/python benchmarks/bench_soak.py --games 2000 --every 500
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import random
import sqlite3
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games.collecting.ai import core
from bot.games.collecting.engine.hands import is_winning_counts
from bot.services.chips import ChipsDefaults, ChipsService
from bot.services.clock import ManualClock
from bot.services.ratings import RatingService
from bot.services.server import ServerService
from bot.services.tables import TableDefaults, TableService
from bot.storage.db import Database
from bot.storage.games import GamesRepo

GUILD = 1
HOST = 10
GAMES = (("kap-shap", 1), ("kap-tai-shap", 3), ("tsung-shap", 1))  # (game, computer seats)


def status_kib(field: str) -> int:
    """A ``/proc/self/status`` memory field (``VmRSS``, ``VmHWM``) in KiB (0 off Linux)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def db_bytes(path: Path) -> int:
    """The database file plus its WAL."""
    return sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.exists())


async def play_one(service: TableService, clock: ManualClock, channel: int, index: int) -> None:
    """Open, fill, start and finish one game in ``channel``."""
    game, computers = GAMES[index % len(GAMES)]
    await service.open_table(
        guild_id=GUILD, channel_id=channel, host_id=HOST, host_name="Host", game=game, ante=1
    )
    for _ in range(computers):
        await service.add_ai(channel, HOST, "expert")
    await service.start(channel, HOST)
    table = service.require(channel)
    while table.running:
        clock.advance(timedelta(seconds=table.turn_seconds + 1))
        await service.expire_due()


async def soak(games: int, every: int, channels: int, seed: int) -> None:
    core.set_memo_limits(core.BOT_MEMO)  # as bot.app does at start-up
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "soak.sqlite3"
        db = await Database.open(path)
        clock = ManualClock()
        chips = ChipsService(db, clock, ChipsDefaults(starting_chips=10**9, daily_amount=0))
        # The services the bot builds (bot.app): server settings and seat states, ratings.
        service = TableService(
            GamesRepo(db),
            chips,
            clock,
            TableDefaults(ante=1, turn_seconds=60, timeout_ai_level="expert"),
            random.Random(seed),
            ServerService(db),
            RatingService(db, clock),
        )
        print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}")
        print(f"SQLite {sqlite3.sqlite_version}; {channels} channels; seed {seed}")
        print()
        print("| games | RSS MiB | peak RSS MiB | database MiB | win-check memo | AI evaluators |")
        print("|---:|---:|---:|---:|---:|---:|")
        start_rss = status_kib("VmRSS")
        start = time.perf_counter()
        last_db = db_bytes(path)
        last_rss = start_rss
        rows = []
        for index in range(games):
            await play_one(service, clock, 1000 + index % channels, index)
            done = index + 1
            if done % every == 0 or done == games:
                rss, size = status_kib("VmRSS"), db_bytes(path)
                memo = is_winning_counts.cache_info().currsize
                evaluators = core.evaluator_count()
                print(
                    f"| {done:,} | {rss / 1024:.1f} | {status_kib('VmHWM') / 1024:.1f} | "
                    f"{size / 2**20:.2f} | {memo:,} | {evaluators} |",
                    flush=True,
                )
                rows.append((done, rss - last_rss, size - last_db))
                last_rss, last_db = rss, size
        elapsed = time.perf_counter() - start
        await db.close()
        print()
        print(f"{games:,} games in {elapsed:.0f} s ({games / elapsed:.1f} games/s)")
        print(f"RSS at start {start_rss / 1024:.1f} MiB")
        per = 1000 / every
        for done, rss_delta, db_delta in rows:
            print(
                f"  up to {done:>6,}: RSS {rss_delta * per / 1024:+.1f} MiB, "
                f"database {db_delta * per / 2**20:+.2f} MiB per 1,000 games"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--every", type=int, default=1_000)
    parser.add_argument("--channels", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    asyncio.run(soak(args.games, args.every, args.channels, args.seed))


if __name__ == "__main__":
    main()
