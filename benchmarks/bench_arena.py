"""Arena pairing speed (issue 23): how long a finisher waits for his next pairing, 200 members.

Two measurements, each over many simulated finishes (a random game in play ends):

* **pure**: :meth:`bot.tournament.Event.arena_pair` on the event as a service stores it (read
  back from its dict first, as every step of the service does): the standings with streaks
  over every game so far plus the pairing of the free players.
* **service**: the whole step on real SQLite: a game ends at its table (a member declares a
  winning hand), and :meth:`TournamentService.game_ended` counts it, records the match, pairs
  the two finishers (one commit), and opens the new pairing's table (the Discord side is a stub
  that answers at once). Timed from the end of the game to the new table being open.

The target is < 200 ms for a finisher to be paired again (p99).

    .venv/bin/python benchmarks/bench_arena.py                 # 200 members
    .venv/bin/python benchmarks/bench_arena.py --members 200 --finishes 1500 --service-finishes 300
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import Deal, deal_from_tiles, parse_tiles
from bot.engine.family import engine_of
from bot.engine.tiles import KINDS, PIECE_KINDS, PIECES_PER_SET
from bot.games.collecting.engine.actions import Declare
from bot.services.chips import ChipsDefaults, ChipsService
from bot.services.clock import ManualClock
from bot.services.tables import Outcome, Table, TableDefaults, TableService
from bot.services.tournaments import TournamentRecord, TournamentService, settings_from_options
from bot.storage.db import Database
from bot.storage.games import GamesRepo
from bot.tournament import Event, EventSettings, Format, GameRecord, Player, match_result

WINNING = "6-6 6-6 4-4 1-1 3-1 3-3 6-5 5-4"


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(label: str, seconds: Sequence[float]) -> None:
    ms = [s * 1000 for s in seconds]
    print(
        f"{label}: {len(ms)} finishes, p50 {statistics.median(ms):.2f} ms, "
        f"p99 {percentile(ms, 0.99):.2f} ms, max {max(ms):.2f} ms"
    )


def bench_pure(members: int, finishes: int, seed: int) -> None:
    rng = random.Random(seed)
    settings = EventSettings(format=Format.ARENA, seats_limit=max(members, 2))
    event = Event.start(settings, [Player(i, f"P{i}") for i in range(1, members + 1)], rng)
    event.next_round()
    timed, pairing = [], []
    for _ in range(finishes):
        match = rng.choice(event.open_matches())
        a, b = match.players
        result = match_result(settings, (a, b), [GameRecord(rng.choice((a, b, a, b, None)))])
        assert result is not None
        event.record(match.id, result)
        stored = event.to_dict()
        t0 = time.perf_counter()
        event = Event.from_dict(stored)
        t1 = time.perf_counter()
        new = event.arena_pair()
        t2 = time.perf_counter()
        timed.append(t2 - t0)
        pairing.append(t2 - t1)
        assert new, "the two finishers are paired again"
    games = len(event.rounds[0].matches)
    report(f"pure, arena_pair alone ({members} members, up to {games} games)", pairing)
    report(f"pure, read back from its dict + arena_pair (up to {games} games)", timed)


def quick_deal(rules: Any, rng: Any, thrower: int = 0) -> Deal:
    """The first seat holds a winning hand and acts first (two players)."""
    winning = parse_tiles(WINNING)
    left: Counter[int] = Counter(PIECE_KINDS[p % PIECES_PER_SET] for p in range(rules.tile_count))
    for tile in winning:
        left[tile.index] -= 1
    rest = [KINDS[k] for k in sorted(left) for _ in range(left[k])]
    hands = [winning, rest[: rules.hand_size - 1]]
    deal = deal_from_tiles(rules, hands, rest[rules.hand_size - 1 : rules.hand_size + 9])
    return dataclasses.replace(deal, thrower=0, dice=(1, 1, 2, 2))


class Host:
    """The Discord side, reduced to what the service needs: fresh thread ids, no posts."""

    def __init__(self) -> None:
        self._ids = iter(range(10**9, 10**10))

    async def open_thread(self, record: TournamentRecord, match_id: str, title: str) -> int:
        return next(self._ids)

    async def show_table(self, outcome: Outcome) -> None:
        return None

    async def post(self, record: TournamentRecord, text: str, *, pictures: bool = False) -> None:
        return None

    async def say(
        self,
        channel_id: int,
        guild_id: int,
        text: str,
        mentions: Sequence[int],
        *,
        ready: int | None = None,
    ) -> None:
        return None

    async def table_stopped(self, table: Table) -> None:
        return None

    async def refresh(self, record: TournamentRecord) -> None:
        return None


async def bench_service(members: int, finishes: int, seed: int) -> None:
    engine_of("kap-shap").deal = quick_deal  # type: ignore[method-assign]
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        db = await Database.open(Path(folder) / "kap.db")
        try:
            clock = ManualClock()
            chips = ChipsService(db, clock, ChipsDefaults(starting_chips=1000, daily_amount=100))
            tables = TableService(
                GamesRepo(db), chips, clock, TableDefaults(ante=0, turn_seconds=60), rng
            )
            service = TournamentService(db, chips, tables, clock, rng=random.Random(seed))
            service.host = Host()
            settings = settings_from_options(
                game="kap-shap",
                format="arena",
                best_of=1,
                rounds=None,
                buy_in=10,
                prize_split="50/30/20",
                seats_limit=max(members, 2),
                no_show_minutes=0,
                arena_minutes=60,
            )
            view = await service.create(
                guild_id=1, channel_id=5, organiser_id=99, name="Arena", settings=settings
            )
            for user in range(1, members + 1):
                await service.join(view.id, user, f"member{user}")
            t0 = time.perf_counter()
            await service.start(view.id, 99)
            print(
                f"service: start (pairs and opens {members // 2} tables): "
                f"{time.perf_counter() - t0:.2f} s"
            )
            timed = []
            for _ in range(finishes):
                table = rng.choice([t for t in tables.tables() if t.running])
                assert table.state is not None
                user = table.seats[table.state.current].user_id
                assert user is not None
                outcome = await tables.act(table.channel_id, user, Declare())
                assert outcome.finished
                t0 = time.perf_counter()
                await service.game_ended(outcome)
                timed.append(time.perf_counter() - t0)
                assert sum(1 for t in tables.tables() if t.running) == members // 2
            view = await service.view(view.id)
            assert view.event is not None
            games = len(view.event.rounds[0].matches)
            report(f"service on SQLite ({members} members, up to {games} games stored)", timed)
        finally:
            await db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=200)
    # 200 members for an hour, a game every 8 minutes or so: about 1,500 games.
    parser.add_argument("--finishes", type=int, default=1500)
    parser.add_argument("--service-finishes", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        f"Python {platform.python_version()}, {platform.machine()}, "
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}"
    )
    bench_pure(args.members, args.finishes, args.seed)
    asyncio.run(bench_service(args.members, args.service_finishes, args.seed))
    print(f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
