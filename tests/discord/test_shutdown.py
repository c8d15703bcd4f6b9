"""A clean stop (issue 21): what ``kapshap run`` does on SIGTERM (``KapBot.shutdown``). New
actions are answered "the bot is restarting" (in the member's language) and change nothing,
actions in flight finish before anything closes, table message edits still due are drawn, the
bot's log lines carry the ids of what they are about, and a stop that runs out of time says
what was still running."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import signal
from pathlib import Path

import pytest
import simcord

from bot import app
from bot.app import DiscordClock, KapBot, create_bot
from bot.config import Settings
from bot.engine import Game
from bot.logs import ContextFilter, JsonFormatter
from bot.services.chips import ChipsDefaults, ChipsService
from bot.services.cluster import shard_lock_name
from bot.services.server import ServerService
from bot.services.tables import TableService
from bot.storage.db import Database
from bot.storage.games import GamesRepo
from bot.storage.lock import ProcessLock
from cogs.desk import desk_for
from tests.discord.conftest import GUILD_ID, World
from tests.discord.tables_kit import (
    exact_deal,
    message_text,
    no_incidents,  # noqa: F401  (autouse: no error logged)
    table_of,
)

ALICE = "6-6 6-6 1-1 4-4 3-1 3-3 6-5 5-2"
BOB = "5-5 6-1 4-1 3-2 6-2 6-3 4-2"
WALL = "2-2 6-4"


@pytest.fixture
def deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Alice starts (she discards first)."""
    exact_deal(monkeypatch, Game.KAP_SHAP, [ALICE, BOB], WALL, dice=(1, 1, 2, 2))


async def _game(world: World) -> None:
    alice, bob = world.members[:2]
    await alice.slash(world.channel, "table new")
    await bob.slash(world.channel, "table join")
    await alice.slash(world.channel, "table start")


@pytest.mark.parametrize(
    ("locale", "reply"),
    [
        ("en-US", "The bot is restarting; try again in a moment."),
        ("zh-TW", "機器人正在重新啟動，請稍後再試。"),
        ("zh-CN", "机器人正在重新启动，请稍后再试。"),
    ],
)
async def test_an_action_arriving_while_the_bot_stops_is_answered_and_not_applied(
    world: World, deal: None, locales: dict[int, str], locale: str, reply: str
) -> None:
    await _game(world)
    alice = world.members[0]
    locales[alice.id] = locale
    table = table_of(world)
    version = table.version
    world.bot.in_flight.stop()  # the first thing a stop does
    answer = await alice.slash(world.channel, "draw")
    assert answer.ephemeral and answer.response.content == reply
    assert table.version == version
    assert await world.bot.services.tables._games.actions(table.id) == []


async def test_the_stop_waits_for_the_actions_in_flight_then_closes(
    world: World, deal: None
) -> None:
    await _game(world)
    bot = world.bot
    seen: list[list[str]] = []
    act = bot.services.tables.act

    async def act_and_look(*args: object, **kwargs: object) -> object:
        seen.append(bot.in_flight.running())  # a handler's body counts as in flight
        return await act(*args, **kwargs)  # type: ignore[arg-type]

    bot.services.tables.act = act_and_look  # type: ignore[method-assign]
    await world.members[0].slash(world.channel, "discard", tile="5-2")
    assert seen == [["/discard"]] and bot.in_flight.running() == []
    # An action in flight (held until released): the stop waits for it before closing.
    release = asyncio.Event()
    finished: list[bool] = []

    async def in_flight() -> None:
        with bot.in_flight.action("/draw"):
            await release.wait()
            # The database is still open while it runs.
            finished.append(await bot.services.tables._games.actions(table_of(world).id) != [])

    running = asyncio.create_task(in_flight())
    await asyncio.sleep(0)
    stopping = bot.begin_shutdown()
    for _ in range(20):
        await asyncio.sleep(0)
    assert not stopping.done() and not bot.is_closed()
    release.set()
    assert await stopping == []
    await running
    assert finished == [True] and bot.is_closed()
    assert await bot.shutdown() == []  # a second stop (a second SIGTERM) waits for the first


async def test_a_stop_past_its_bound_says_what_was_still_running(
    world: World, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    bot = world.bot
    bot.settings = dataclasses.replace(settings, shutdown_seconds=4)
    release = asyncio.Event()

    async def stuck() -> None:
        with bot.in_flight.action("/review"):
            await release.wait()

    running = asyncio.create_task(stuck())
    await asyncio.sleep(0)
    caplog.set_level(logging.INFO, logger="kapshap")
    left = await bot.shutdown()
    # The action is named; the closing that follows has its own part of the time (it may not
    # be done if the machine is very slow, and then says so).
    assert left[0] == "the action '/review'"
    assert all(what.startswith("closing") for what in left[1:])
    assert any("still running: the action '/review'" in m for m in caplog.messages)
    caplog.clear()  # the ERROR line is what a stop past its bound writes, not an incident
    release.set()
    await running


async def test_table_message_edits_still_due_are_drawn_before_the_stop(
    world: World, deal: None, settings: Settings
) -> None:
    await _game(world)
    alice = world.members[0]
    bot = world.bot
    bot.services.tables.poll_seconds = 2.0  # several processes share the database
    table = table_of(world)
    assert table.message_id is not None
    # Another process plays alice's discard; this one learns of it and marks the message due,
    # within a second of its last edit (so the edit waits for the scheduler's next pass).
    db = await Database.open(settings.db_path)
    try:
        clock = DiscordClock()
        other = TableService(
            GamesRepo(db),
            ChipsService(db, clock, ChipsDefaults(starting_chips=1000, daily_amount=100)),
            clock,
            rng=None,
            server=ServerService(db),
            poll_seconds=2.0,
        )
        theirs = await other.lookup(world.channel.id)
        assert theirs is not None
        await other.act(
            world.channel.id, alice.id, next(a for a in theirs.legal() if "5-2" in str(a))
        )
    finally:
        await db.close()
    presenter = desk_for(bot).presenter
    await presenter.touch(table)
    assert presenter.next_flush_at() is not None  # due, not drawn yet
    shown = message_text(next(m for m in world.channel.history() if m.id == table.message_id))
    assert "5-2" not in shown
    assert await bot.shutdown() == []
    shown = message_text(next(m for m in world.channel.history() if m.id == table.message_id))
    assert "5-2" in shown  # drawn by the stop, on the table's latest state


async def test_every_log_line_of_a_table_action_says_what_it_is_about(
    world: World, deal: None, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    ids = ContextFilter()
    caplog.handler.addFilter(ids)
    try:
        await _game(world)
    finally:
        caplog.handler.removeFilter(ids)
    table = table_of(world)
    (started,) = [r for r in caplog.records if r.getMessage().startswith(f"table {table.id} st")]
    assert started.kapshap_ids == {  # type: ignore[attr-defined]
        "server": GUILD_ID,
        "channel": world.channel.id,
        "table": table.id,
        "game": "kap-shap",
        "shard": 0,
    }
    line = JsonFormatter().format(started)
    assert f'"table": "{table.id}"' in line and f'"server": {GUILD_ID}' in line
    # Outside any interaction or table step, a line carries no ids.
    outside = [r for r in caplog.records if r.getMessage().startswith("slash commands")]
    assert all(r.kapshap_ids == {} for r in outside)  # type: ignore[attr-defined]


def test_kapshap_run_stops_on_sigterm_with_status_0(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``kapshap run`` on SIGTERM (a service manager's stop): the bot stops (KapBot.shutdown)
    and exits 0, its shard given back and its database closed."""
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("KAPSHAP_DB_PATH", str(tmp_path / "kap.db"))
    monkeypatch.setenv("KAPSHAP_SHARD_COUNT", "1")
    bots: list[KapBot] = []

    async def serve_on_simcord(bot: KapBot, token: str) -> app.Stop:
        # Discord is simcord here; everything else is `kapshap run`'s own path.
        bots.append(bot)
        async with bot, simcord.run(bot):

            async def connected() -> None:
                os.kill(os.getpid(), signal.SIGTERM)
                await asyncio.Event().wait()  # until the stop ends it

            return await app.serve_until_stopped(bot, connected)

    monkeypatch.setattr(app, "_serve", serve_on_simcord)
    previous = signal.getsignal(signal.SIGTERM)
    assert app.main(["--env-file", str(tmp_path / "none.env")]) == 0
    err = capsys.readouterr().err
    assert "INFO kapshap: stopping: SIGTERM received" in err
    assert err.endswith("INFO kapshap: stopped cleanly\nkapshap run: stopped\n"), err
    assert "Traceback" not in err
    assert signal.getsignal(signal.SIGTERM) is previous
    (bot,) = bots
    assert bot.is_closed() and bot.in_flight.stopping and bot._claims == []
    # The file lock is free: the next process starts on the same database.
    ProcessLock.acquire(tmp_path / "kap.db").release()


async def test_on_postgresql_the_stop_gives_the_shards_back(
    settings: Settings, pg_url: str
) -> None:
    """A process stopped on a shared database releases its shard claims (advisory locks) at
    once: the process that replaces it claims them."""
    shared = dataclasses.replace(settings, database_url=pg_url, shard_count=2, shard_ids=(0, 1))
    bot = create_bot(shared)
    async with simcord.run(bot):
        assert len(bot._claims) == 2
        db = await Database.open(pg_url)
        try:
            assert await db.hold(shard_lock_name(0)) is None  # claimed by the running bot
            assert await bot.shutdown() == []
            claims = [await db.hold(shard_lock_name(shard)) for shard in (0, 1)]
            assert all(claim is not None for claim in claims)
        finally:
            await db.close()
