"""The cost of one table action in the table service (no Discord): what the version check and
the interaction's idempotency key add to every action (issue 20).

    .venv/bin/python benchmarks/bench_table_actions.py [--tables 50] [--actions 2000] [--runs 5]
        [--shared]

Opens ``--tables`` Kap Shap tables (two members each, a real SQLite file in a temporary
directory, real migrations), then plays ``--actions`` legal actions round-robin across them
through ``TableService.act``, each with a fresh interaction id when the service takes one (the
bot passes every interaction's id); a finished game is replaced by a new one (not timed).
``--shared`` runs the service as one of several processes on the database (``poll_seconds``
set): every action then first reads its game's version (a process alone skips that read).
Reported, median of ``--runs`` runs: microseconds of wall time and of process CPU time per
action, and the p50 / p99 of one action's wall time.

Run it on two trees to compare (the same interpreter, the tree first on ``PYTHONPATH``)::

    PYTHONPATH=/path/to/old/tree .venv/bin/python benchmarks/bench_table_actions.py
    .venv/bin/python benchmarks/bench_table_actions.py
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import random
import statistics
import tempfile
import time
from pathlib import Path

from bot.services.chips import ChipsDefaults, ChipsService
from bot.services.clock import ManualClock
from bot.services.server import ServerService
from bot.services.tables import TableDefaults, TableService
from bot.storage.db import Database
from bot.storage.games import GamesRepo

GUILD = 1


async def run(
    tables: int, actions: int, seed: int, shared: bool = False, keys: bool = True
) -> tuple[float, float, list[float]]:
    """One run: (wall seconds, CPU seconds, each action's wall seconds)."""
    with tempfile.TemporaryDirectory() as tmp:
        db = await Database.open(Path(tmp) / "bench.db")
        try:
            clock = ManualClock()
            chips = ChipsService(db, clock, ChipsDefaults(starting_chips=10**6, daily_amount=1))
            service = TableService(
                GamesRepo(db),
                chips,
                clock,
                TableDefaults(ante=1, turn_seconds=600),
                random.Random(seed),
                ServerService(db),
            )
            if shared:
                service.poll_seconds = 2.0
            keyed = keys and "interaction" in inspect.signature(service.act).parameters
            rng = random.Random(seed)

            async def fresh(channel: int) -> None:
                host, guest = 2 * channel + 1, 2 * channel + 2
                await service.open_table(
                    guild_id=GUILD, channel_id=channel, host_id=host, host_name=f"p{host}"
                )
                await service.join(channel, guest, f"p{guest}")
                await service.start(channel, host)

            for channel in range(tables):
                await fresh(channel)
            each: list[float] = []
            wall = cpu = 0.0
            interaction = 10**15
            for n in range(actions):
                channel = n % tables
                table = service.get(channel)
                assert table is not None
                if not table.running:
                    await fresh(channel)
                    table = service.get(channel)
                    assert table is not None
                seat = table.current_seat
                assert seat is not None and seat.user_id is not None
                action = rng.choice(table.legal())
                interaction += 1
                extra = {"interaction": interaction} if keyed else {}
                started, started_cpu = time.perf_counter(), time.process_time()
                await service.act(channel, seat.user_id, action, **extra)
                took = time.perf_counter() - started
                cpu += time.process_time() - started_cpu
                wall += took
                each.append(took)
                clock.advance(1)
            return wall, cpu, each
        finally:
            await db.close()


def main() -> None:
    """Parse the options, run, print a Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--shared", action="store_true", help="as one of several processes")
    parser.add_argument("--no-keys", action="store_true", help="no interaction ids")
    args = parser.parse_args()
    walls, cpus, p50s, p99s = [], [], [], []
    for r in range(args.runs):
        wall, cpu, each = asyncio.run(
            run(args.tables, args.actions, r, args.shared, not args.no_keys)
        )
        each.sort()
        walls.append(wall / args.actions * 1e6)
        cpus.append(cpu / args.actions * 1e6)
        p50s.append(each[len(each) // 2] * 1e3)
        p99s.append(each[int(len(each) * 0.99)] * 1e3)
    figure = f"{args.tables} tables, {args.actions} actions, median of {args.runs}"
    print(f"| figure ({figure}) | value |")
    print("|---|---:|")
    print(f"| wall time per action | {statistics.median(walls):.0f} µs |")
    print(f"| CPU time per action | {statistics.median(cpus):.0f} µs |")
    print(
        f"| one action, p50 / p99 | {statistics.median(p50s):.2f} / "
        f"{statistics.median(p99s):.2f} ms |"
    )


if __name__ == "__main__":
    main()
