"""Many concurrent tables driven through the whole bot on simcord (an in-memory Discord).

    .venv/bin/python benchmarks/bench_discord.py [--tables 100] [--actions 2000] [--step 0.05]

Opens ``--tables`` Kap Shap tables (each in its own channel, two members per table), starts them,
then plays ``--actions`` human actions round-robin across the tables: the player to act plays a
legal action (declare when he can, else take or draw, then a discard), half of the time with a
button in his DM and half of the time with a slash command (``/draw``, ``/take``, ``/discard``,
``/declare``). After each action the virtual clock moves ``--step`` seconds, so each table sees a
human action every ``tables x step`` virtual seconds (5 s by default: every action is far enough
from the last to edit the table message at once, the worst case for API calls). A finished game
is replaced by a rematch (not measured).

Reported:

* **actions per second**: human actions divided by the wall time of the play loop (clock
  advances included);
* **latency from interaction to response**: from the moment the simulated member sends the
  interaction to the bot's first answer to it (the interaction callback: a reply, an in-place
  edit or a deferral), p50 / p99 / max in milliseconds;
* **end-to-end time**: the whole action until the bot is idle again (the answer, the hand
  picture, the table message and DM edits), p50 / p99;
* **Discord API calls per human action**: every HTTP request the bot made during the play loop
  (answers, DM and table-message edits, reveals, including the edits the scheduler flushes while
  the clock advances), divided by the number of actions; and their break-down.

Uses simcord's private ``idle`` speed-up (as the tests do; simcord is pinned to 3.2.1).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import random
import statistics
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import simcord

from bot.app import KapBot, create_bot
from bot.config import Settings
from bot.engine import legal_actions
from bot.games.collecting.engine.actions import Declare, Discard, Take
from bot.games.dominoes.engine.actions import Draw
from bot.services.tables import Table

GUILD_ID = 1_000_000_000_000_000_001


class TimedLog(list[Any]):
    """simcord's HTTP log, with the real time of each request (for the latency figure)."""

    def __init__(self, entries: list[Any]) -> None:
        super().__init__(entries)
        self.times: list[float] = [0.0] * len(entries)

    def append(self, entry: Any) -> None:
        """Record an entry and when it was made."""
        super().append(entry)
        self.times.append(time.perf_counter())


@dataclass
class Figures:
    """What one run measured."""

    latencies: list[float] = field(default_factory=list)
    totals: list[float] = field(default_factory=list)
    calls: Counter[str] = field(default_factory=Counter)
    actions: int = 0
    by_surface: Counter[str] = field(default_factory=Counter)
    games_finished: int = 0
    errors: int = 0


def kind_of(method: str, path: str) -> str:
    """A request's category for the break-down."""
    if path.startswith("/interactions/"):
        return "interaction answer"
    if path.startswith("/webhooks/"):
        return "interaction edit / follow-up"
    if path == "/users/@me/channels":
        return "open DM channel"
    return f"{method} message"


def choose(table: Table, rng: random.Random) -> str:
    """The action the player to act takes (as notation)."""
    state = table.state
    assert state is not None
    legal = legal_actions(state)
    if Declare() in legal:
        return "declare"
    takes = [a for a in legal if isinstance(a, Take)]
    if takes and rng.random() < 0.3:
        return str(rng.choice(takes))
    if Draw() in legal:
        return "draw"
    if takes:
        return str(rng.choice(takes))
    return str(rng.choice([a for a in legal if isinstance(a, Discard)]))


def label_of(notation: str) -> str:
    """The DM button label for an action."""
    verb, _, tile = notation.partition(" ")
    return f"{verb.capitalize()} {tile}".strip()


async def run(tables: int, actions: int, step: float, seed: int) -> Figures:
    """Set up the world, play, measure."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as directory:
        settings = Settings(
            discord_token=None,
            db_path=Path(directory) / "bench.sqlite3",
            default_ante=10,
            starting_chips=10**9,
            daily_amount=100,
            turn_seconds=600,
            dev_guild_id=GUILD_ID,
            shard_count=1,  # simcord needs the count discord.py would ask Discord for
        )
        bot = create_bot(settings, rng=random.Random(seed))
        env = simcord.Env(bot)
        await env.start()
        env._settle_internal = functools.partial(env._settle_internal, idle=0.001)  # type: ignore[method-assign]
        try:
            figures = await play(env, bot, tables, actions, step, rng)
            figures.errors = len(env.errors)  # exceptions the bot raised (should be none)
            return figures
        finally:
            await env.shutdown()
            await bot.close()


async def play(
    env: simcord.Env, bot: KapBot, n_tables: int, n_actions: int, step: float, rng: random.Random
) -> Figures:
    """Open the tables, then the measured loop."""
    guild = env.create_guild("Bench", id=GUILD_ID)
    channels = [guild.create_text_channel(f"table-{i}") for i in range(n_tables)]
    members = [guild.add_member(env.create_user(f"player{i}")) for i in range(2 * n_tables)]
    await env.settle()
    seats: dict[int, list[simcord.MemberActor]] = {}
    started = time.perf_counter()
    for i, channel in enumerate(channels):
        host, guest = members[2 * i], members[2 * i + 1]
        await host.slash(channel, "table new")
        await guest.slash(channel, "table join")
        await host.slash(channel, "table start")
        seats[channel.id] = [host, guest]
    print(f"set-up: {n_tables} tables opened and started in {time.perf_counter() - started:.1f} s")
    await env.advance_time(2)

    log = TimedLog(list(env.backend.http_requests))
    env.backend.http_requests = log
    figures = Figures()
    loop_start = time.perf_counter()
    turn = 0
    while figures.actions < n_actions:
        channel = channels[turn % n_tables]
        turn += 1
        table = bot.services.tables.get(channel.id)
        assert table is not None
        if not table.running:
            # A new game (its set-up calls fall outside the measured windows).
            figures.games_finished += 1
            host = seats[channel.id][0]
            await host.click(channel.history()[-1], label="Rematch")
            await host.slash(channel, "table start")
            continue
        state = table.state
        assert state is not None
        member = next(m for m in seats[channel.id] if m.id == table.seats[state.current].user_id)
        notation = choose(table, rng)
        by_button = rng.random() < 0.5
        before = len(log)
        t0 = time.perf_counter()
        if by_button:
            dm = member.user.dm_channel.history()[-1]
            labels = {getattr(c, "label", None) for row in dm.components for c in row.children}
            if label_of(notation) in labels:
                await member.user.click(dm, label=label_of(notation))
            else:  # many takeable discards: the take is a select
                choice = f"kap:{table.id}:{table.version}:choose-take"
                await member.user.select(dm, [notation.split()[1]], custom_id=choice)
            figures.by_surface["DM button"] += 1
        else:
            verb, _, tile = notation.partition(" ")
            if tile:
                await member.slash(channel, verb, tile=tile)
            else:
                await member.slash(channel, verb)
            figures.by_surface["slash command"] += 1
        t1 = time.perf_counter()
        answered = next(
            (log.times[i] for i in range(before, len(log)) if log[i].path.startswith("/inter")),
            t1,
        )
        figures.latencies.append((answered - t0) * 1000)
        figures.totals.append((t1 - t0) * 1000)
        figures.actions += 1
        await env.advance_time(step)
        for entry in log[before:]:
            figures.calls[kind_of(entry.method, entry.path)] += 1
    elapsed = time.perf_counter() - loop_start
    print(f"play loop: {figures.actions} actions in {elapsed:.1f} s")
    figures.by_surface["wall seconds"] = round(elapsed)
    return figures


def pct(samples: list[float], q: float) -> float:
    """The q-th percentile (0..100) of samples."""
    ordered = sorted(samples)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def report(figures: Figures, tables: int, step: float) -> None:
    """Print the figures as a Markdown table."""
    n = figures.actions
    elapsed = figures.by_surface.pop("wall seconds")
    total_calls = sum(figures.calls.values())
    print()
    print(f"| figure ({tables} concurrent tables, clock step {step} s) | value |")
    print("|---|---:|")
    print(f"| human actions | {n} ({dict(figures.by_surface)}) |")
    print(f"| games finished (replaced by rematches) | {figures.games_finished} |")
    print(f"| errors raised in the bot | {figures.errors} |")
    print(f"| actions per second (wall) | {n / max(elapsed, 1e-9):.0f} |")
    lat, tot = figures.latencies, figures.totals
    print(
        f"| interaction -> response, p50 / p99 / max | {pct(lat, 50):.1f} / {pct(lat, 99):.1f}"
        f" / {max(lat):.1f} ms |"
    )
    print(
        f"| whole action until idle, p50 / p99 | {pct(tot, 50):.1f} / {pct(tot, 99):.1f} ms"
        f" (mean {statistics.fmean(tot):.1f}) |"
    )
    print(f"| Discord API calls per human action | {total_calls / n:.2f} |")
    for kind, count in figures.calls.most_common():
        print(f"| … {kind} | {count / n:.2f} |")


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--step", type=float, default=0.05, help="virtual seconds per action")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    discord.utils.setup_logging(level=30)
    figures = asyncio.run(run(args.tables, args.actions, args.step, args.seed))
    report(figures, args.tables, args.step)
    return 1 if figures.errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
