"""Discord API calls of a tournament, per round and per match, through the whole bot on simcord.

    .venv/bin/python benchmarks/bench_tournament_discord.py [--players 32] [--rounds 5]
                                                         [--best-of 1]

A Swiss event of ``--players`` members (best of ``--best-of``, free) is created, joined with the
sign-up button by every member and started; every game is dealt so that the first seat holds a
winning hand, and the test declares it with ``/declare`` in the match thread (the shortest game
there is, so the figures are what the tournament itself costs around each game). For each round
the HTTP requests the bot made are counted from the round's pairing to the pairing of the next
one (the threads, pings and table messages of the round, the declarations' answers, the DMs and
end messages of the games, the standings post with its pictures), and divided by the round's
matches.

Uses simcord's private ``idle`` speed-up (as the tests do; simcord is pinned to 3.2.1).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import functools
import random
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import simcord

from bot.app import create_bot
from bot.config import Settings
from bot.engine import Deal, deal_from_tiles, parse_tiles
from bot.engine.tiles import KINDS, PIECE_KINDS, PIECES_PER_SET

GUILD_ID = 1_000_000_000_000_000_001
WINNING = "6-6 6-6 4-4 1-1 3-1 3-3 6-5 5-4"


def quick_deal(rules: Any, rng: Any, thrower: int = 0) -> Deal:
    """A deal in which the first seat holds a winning hand and acts first."""
    winning = parse_tiles(WINNING + (" 5-5 5-5" if rules.hand_size == 10 else ""))
    left: Counter[int] = Counter(PIECE_KINDS[p % PIECES_PER_SET] for p in range(rules.tile_count))
    for tile in winning:
        left[tile.index] -= 1
    rest = [KINDS[k] for k in sorted(left) for _ in range(left[k])]
    hands = [winning]
    for _ in range(1, rules.players):
        hands.append(rest[: rules.hand_size - 1])
        rest = rest[rules.hand_size - 1 :]
    deal = deal_from_tiles(rules, hands, rest[:10])
    total = next(t for t in range(4, 25) if t % rules.players == 0)
    dice = (1, 1, 1, total - 3) if total - 3 <= 6 else (6, 6, 6, total - 18)
    return dataclasses.replace(deal, thrower=0, dice=dice)


def kind_of(method: str, path: str) -> str:
    """A request's category for the break-down."""
    if path.startswith("/interactions/"):
        return "interaction answer"
    if path.startswith("/webhooks/"):
        return "interaction edit / follow-up"
    if path == "/users/@me/channels":
        return "open DM channel"
    if path.endswith("/threads"):
        return "create thread"
    return f"{method} message"


async def run(players: int, rounds: int, best_of: int) -> None:
    """Set up the world, play the event, print the figures."""
    import bot.services.tables.play as tables_module

    tables_module.make_deal = quick_deal  # type: ignore[assignment]
    with tempfile.TemporaryDirectory() as directory:
        settings = Settings(
            discord_token=None,
            db_path=Path(directory) / "bench.sqlite3",
            default_ante=10,
            starting_chips=1000,
            daily_amount=100,
            turn_seconds=600,
            dev_guild_id=GUILD_ID,
            shard_count=1,  # simcord needs the count discord.py would ask Discord for
        )
        bot = create_bot(settings, rng=random.Random(1))
        env = simcord.Env(bot)
        await env.start()
        env._settle_internal = functools.partial(env._settle_internal, idle=0.001)  # type: ignore[method-assign]
        try:
            await play(env, players, rounds, best_of)
            print(f"exceptions raised by the bot: {len(env.errors)}")
        finally:
            await env.shutdown()
            await bot.close()


async def play(env: simcord.Env, n: int, rounds: int, best_of: int) -> None:
    """Create, join, start; then each round: every first seat declares."""
    guild = env.create_guild("Bench", id=GUILD_ID)
    channel = guild.create_text_channel("events")
    import discord

    managers = guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(env.create_user("organiser"), roles=[managers])
    members = [guild.add_member(env.create_user(f"player{i}")) for i in range(n)]
    actors = {m.id: m for m in members}
    await env.settle()
    await admin.slash(
        channel,
        "tournament new",
        name="Bench",
        rounds=rounds,
        round_minutes=600,
        best_of=best_of,
    )
    signup = channel.history()[-1]
    for member in members:
        await member.click(signup, label="Join")
    bot = env.bot
    assert bot is not None
    start = len(env.http_requests)
    await admin.slash(channel, "tournament start")
    started = time.perf_counter()
    print(f"{n} members, Swiss, best of {best_of}, {rounds} rounds")
    print("round | matches | API calls | per match | break-down per match")
    total_calls = total_matches = 0
    for number in range(1, rounds + 1):
        threads = {t.id for t in channel.threads}
        playing = [
            t
            for t in bot.services.tables.tables()  # type: ignore[attr-defined]
            if t.running and t.channel_id in threads
        ]
        matches = len(playing)
        while playing:  # best of N: the next game of a match opens by itself in its thread
            for table in playing:
                seat = table.seats[table.state.current]
                thread = next(t for t in channel.threads if t.id == table.channel_id)
                await actors[seat.user_id].slash(thread, "declare")
            threads_now = {t.channel_id for t in playing}
            playing = [
                t
                for t in bot.services.tables.tables()  # type: ignore[attr-defined]
                if t.running and t.channel_id in threads_now
            ]
        calls = env.http_requests[start:]
        start = len(env.http_requests)
        kinds = Counter(kind_of(c.method, c.path) for c in calls)
        total_calls += len(calls)
        total_matches += matches
        breakdown = ", ".join(f"{k} {v / matches:.1f}" for k, v in kinds.most_common())
        print(f"{number} | {matches} | {len(calls)} | {len(calls) / matches:.1f} | {breakdown}")
    print(
        f"all rounds: {total_calls / total_matches:.1f} calls per match; "
        f"{time.perf_counter() - started:.1f} s wall time"
    )


def main() -> None:
    """Parse the options and run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--best-of", type=int, default=1)
    args = parser.parse_args()
    asyncio.run(run(args.players, args.rounds, args.best_of))


if __name__ == "__main__":
    main()
