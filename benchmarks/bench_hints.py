"""How long a hint takes (issue 22): the expert's move and its reason for the seat to act.

    .venv/bin/python benchmarks/bench_hints.py [--positions 400] [--calls 200] [--seed 1]

1. **The AI facet alone** (``ai_of(game).hint(view, legal)``), on ``--positions`` positions per
   game reached by random legal moves from random deals (Kap Shap for two, Kap Tai Shap for
   three, Tsung Shap), each timed once: the decision and its words, no database.
2. **The whole service call** (``TableService.hint``: the table's lock, the member's view, the
   facet, the hint written to ``game_hints``), ``--calls`` times per game at unrated tables
   against the greedy computer, the member playing each move suggested (games follow one
   another until the count is reached), on a SQLite file in a temporary folder (the embedded
   bot's backend).

Prints the median, p90, p99 and the slowest, in milliseconds. A Discord click adds the
interaction's round trips, which do not depend on the hint.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from bot.ai.family import ai_of
from bot.engine.family import engine_of
from bot.services.chips import ChipsDefaults, ChipsService
from bot.services.clock import ManualClock
from bot.services.tables import TableDefaults, TableService
from bot.storage.db import Database
from bot.storage.games import GamesRepo

GAMES = {"kap-shap": 2, "kap-tai-shap": 3, "tsung-shap": 2}


def percentiles(times: list[float]) -> str:
    """Median, p90, p99 and max of ``times`` (seconds) in milliseconds."""
    ordered = sorted(times)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    median = statistics.median(ordered) * 1000
    return f"median {median:6.2f}  p90 {at(0.9):6.2f}  p99 {at(0.99):6.2f}  max {at(1):6.2f} ms"


def facet_times(game: str, players: int, positions: int, rng: random.Random) -> list[float]:
    """One hint per random position of ``game``."""
    engine, ai = engine_of(game), ai_of(game)
    rules = engine.make_rules(game, players, None, None)
    times: list[float] = []
    while len(times) < positions:
        state = engine.new_game(rules, [f"p{i}" for i in range(players)], engine.deal(rules, rng))
        for _ in range(rng.randrange(0, 40)):
            if state.result is not None:
                break
            state, _ = engine.apply(state, rng.choice(list(engine.legal_actions(state))))
        if state.result is not None:
            continue
        view, legal = engine.view(state, state.current), list(engine.legal_actions(state))
        start = time.perf_counter()
        ai.hint(view, legal)
        times.append(time.perf_counter() - start)
    return times


async def service_times(game: str, calls: int, seed: int) -> list[float]:
    """``calls`` hints through the table service on an unrated table against the computer."""
    with tempfile.TemporaryDirectory() as folder:
        db = await Database.open(Path(folder) / "bench.sqlite3")
        try:
            clock = ManualClock()
            chips = ChipsService(db, clock, ChipsDefaults(starting_chips=1000, daily_amount=100))
            tables = TableService(
                GamesRepo(db),
                chips,
                clock,
                TableDefaults(ante=0, turn_seconds=600, timeout_ai_level="random"),
                random.Random(seed),
            )
            times: list[float] = []
            channel = 0
            while len(times) < calls:
                channel += 1
                await tables.open_table(
                    guild_id=1,
                    channel_id=channel,
                    host_id=11,
                    host_name="alice",
                    game=game,
                    rated=False,
                )
                await tables.add_ai(channel, 11, "greedy")
                await tables.start(channel, 11)
                table = tables.require(channel)
                while table.running and len(times) < calls:
                    start = time.perf_counter()
                    await tables.hint(channel, 11)
                    times.append(time.perf_counter() - start)
                    # Play the move suggested: the next hint is for a new position.
                    move = (await tables.hints_of(table.id))[-1][2]
                    await tables.act(channel, 11, move, version=table.version)
            return times
        finally:
            await db.close()


def main() -> None:
    """Time hints per game and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    for game, players in GAMES.items():
        print(f"{game:13} facet   {percentiles(facet_times(game, players, args.positions, rng))}")
        times = asyncio.run(service_times(game, args.calls, args.seed))
        print(f"{game:13} service {percentiles(times)}")


if __name__ == "__main__":
    main()
