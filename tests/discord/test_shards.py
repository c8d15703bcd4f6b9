"""Processes and shards (docs/processes.md): the bot runs the shards of its settings, claims each
one (a second process claiming it is refused in one line), publishes the slash commands only
from the process of shard 0, and runs the start-up repair once for all processes."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest
import simcord
from discord.ext import commands

from bot import app
from bot.app import KapBot, create_bot
from bot.config import Settings
from bot.services import dbtool
from bot.services.cluster import REPAIR_LOCK, HeldLock, LocalLocks, ShardClaimed, shard_lock_name
from tests.services.test_repair import BROKEN


def sharded(settings: Settings, count: int, *ids: int, guild: bool = False) -> Settings:
    """``settings`` for a process of ``count`` shards running ``ids`` (all when none);
    commands published globally unless ``guild`` (then to the development guild)."""
    return dataclasses.replace(
        settings,
        shard_count=count,
        shard_ids=ids or None,
        dev_guild_id=settings.dev_guild_id if guild else None,
    )


@contextlib.asynccontextmanager
async def running(bot: KapBot) -> AsyncIterator[simcord.Env]:
    """The bot on simcord, closed afterwards (as a process stops), however its start ended."""
    try:
        async with simcord.run(bot) as env:
            yield env
    finally:
        await bot.close()


def command_syncs(env: simcord.Env) -> list[str]:
    """The paths of the command-sync requests the bot made (PUT …/commands)."""
    return [c.path for c in env.http_requests if c.method == "PUT" and c.path.endswith("/commands")]


def test_the_bot_is_built_for_the_shards_of_its_settings(settings: Settings) -> None:
    process = KapBot(sharded(settings, 4, 1, 3))
    assert isinstance(process, commands.AutoShardedBot)
    assert (process.shard_count, process.shard_ids) == (4, [1, 3])
    assert not process.runs_shard_zero
    assert process.intents == discord.Intents.default()  # no privileged intent, as before
    assert KapBot(sharded(settings, 4, 0, 2)).runs_shard_zero
    # The default: discord.py asks Discord for the count at start, and runs every shard.
    alone = KapBot(Settings(db_path=settings.db_path))
    assert (alone.shard_count, alone.shard_ids) == (None, None)
    assert alone.runs_shard_zero


@pytest.mark.parametrize("guild", [False, True], ids=["global", "development guild"])
async def test_only_the_process_of_shard_0_publishes_the_commands(
    settings: Settings, guild: bool, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="kapshap")
    other = create_bot(sharded(settings, 2, 1, guild=guild))
    async with running(other) as env:
        assert command_syncs(env) == []
        assert await other.services.server.command_hash() is None
    assert "shards: this process runs shard 1 of 2; it does not publish the slash commands" in (
        caplog.messages
    )
    caplog.clear()
    first = create_bot(sharded(settings, 2, 0, guild=guild))
    async with running(first) as env:
        [path] = command_syncs(env)
        assert ("/guilds/" in path) is guild
    assert "shards: this process runs shard 0 of 2; it publishes the slash commands" in (
        caplog.messages
    )


async def test_one_process_runs_every_shard_and_publishes(
    settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="kapshap")
    bot = create_bot(sharded(settings, 3))
    async with running(bot) as env:
        assert sorted(bot.shards) == [0, 1, 2]
        assert len(command_syncs(env)) == 1
    assert "shards: this process runs shards 0-2 of 3; it publishes the slash commands" in (
        caplog.messages
    )
    assert "start-up repair: done by this process" in caplog.messages


async def test_a_second_process_claiming_a_shard_is_refused_at_start(
    settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="kapshap")
    own = sharded(settings, 4, 0, 2)
    # The other process (the locks of the same database) runs shards 1 and 3.
    locks = LocalLocks(str(settings.db_path))
    claims = [await locks.hold(shard_lock_name(shard)) for shard in (1, 3)]
    bot = create_bot(dataclasses.replace(own, shard_ids=(0, 1)))
    with pytest.raises(ShardClaimed, match=r"^shard 1 is run by another bot process"):
        async with running(bot):
            pass
    # Refused before anything else: no repair, no commands published, no cog loaded.
    assert not [m for m in caplog.messages if "repair" in m or "slash commands" in m]
    assert not bot.cogs
    # Its claim of shard 0 was given back; the process with its own shards starts.
    bot = create_bot(own)
    async with running(bot) as env:
        assert sorted(bot.shards) == [0, 2]
        assert len(command_syncs(env)) == 1
    for claim in claims:
        assert claim is not None
        await claim.release()


def test_kapshap_run_refuses_a_claimed_shard_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "kap.db"
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("KAPSHAP_DB_PATH", str(path))
    monkeypatch.setenv("KAPSHAP_SHARD_COUNT", "2")
    monkeypatch.setenv("KAPSHAP_SHARD_IDS", "0-1")

    async def serve_on_simcord(bot: KapBot, token: str) -> app.Stop:
        # Discord is simcord here; everything else is `kapshap run`'s own path.
        async with bot, simcord.run(bot):
            return app.Stop()  # connected, then ended by itself

    monkeypatch.setattr(app, "_serve", serve_on_simcord)

    async def claim() -> HeldLock | None:
        return await LocalLocks(str(path)).hold(shard_lock_name(1))

    held = asyncio.run(claim())
    assert held is not None
    assert app.main(["--env-file", str(tmp_path / "none.env")]) == 2
    err = capsys.readouterr().err
    # One line of its own (after the log's lines, such as discord.py's "logging in").
    (line,) = [line for line in err.splitlines() if line.startswith("kapshap run:")]
    assert line.startswith("kapshap run: shard 1 is run by another bot process on this database")
    assert err.endswith(line + "\n") and "Traceback" not in err
    asyncio.run(held.release())
    assert app.main(["--env-file", str(tmp_path / "none.env")]) == 0  # shard 1 is free now


class RepairingElsewhere:
    """The locks of a database on which another process is running the start-up repair right
    now; it finishes (gives the lock back, having repaired nothing here) once this process has
    found it busy."""

    def __init__(self, scope: str) -> None:
        self.locks = LocalLocks(scope)
        self.refused = 0
        self.other: HeldLock | None = None

    async def hold(self, name: str) -> HeldLock | None:
        lock = await self.locks.hold(name)
        if name == REPAIR_LOCK and lock is None:
            self.refused += 1
            assert self.other is not None
            await self.other.release()
        return lock


async def test_the_start_up_repair_runs_once_for_all_processes(
    settings: Settings, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    caplog.set_level(logging.INFO, logger="kapshap")
    path = settings.db_path
    await BROKEN["unpaid win"](path)  # a crash left a game's chips unsettled
    locks = RepairingElsewhere(str(path))
    locks.other = await locks.locks.hold(REPAIR_LOCK)
    # A process starting while another repairs waits for it, and does not repair again.
    waiting = create_bot(sharded(settings, 2, 1), locks=locks)
    async with running(waiting):
        pass
    assert locks.refused == 1
    assert "start-up repair: another process was running it; waited and skipped it" in (
        caplog.messages
    )
    assert await asyncio.to_thread(dbtool.main, ["check", "--path", str(path)]) == 1
    # A process starting with nobody repairing repairs.
    caplog.clear()
    alone = create_bot(sharded(settings, 2, 0))
    async with running(alone):
        pass
    assert "start-up repair: done by this process" in caplog.messages
    assert any(m.startswith("start-up repair: Game") for m in caplog.messages)
    assert await asyncio.to_thread(dbtool.main, ["check", "--path", str(path)]) == 0
    capsys.readouterr()
