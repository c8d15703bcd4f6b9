"""The bot after a crash-like restart and under the sleeping scheduler: a game that cannot be
rebuilt is quarantined with a notice, a second bot on the same database refuses to start, and
the scheduler sleeps until the next deadline instead of ticking."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Awaitable, Callable

import pytest

from bot.app import KapBot, create_bot
from bot.config import Settings
from bot.engine import Game
from bot.services.tables import QUARANTINE_NOTICE, RETRY_SECONDS, Table
from bot.storage.errors import DatabaseLocked
from tests.discord.conftest import GUILD_ID, World
from tests.discord.tables_kit import (
    exact_deal,
    no_incidents,  # noqa: F401  (autouse: no error logged)
    table_of,
)

ALICE = "6-6 6-6 1-1 4-4 3-1 3-3 6-5 5-2"
BOB = "5-5 6-1 4-1 3-2 6-2 6-3 4-2"
WALL = "2-2 6-4"


@pytest.fixture
def deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Alice starts."""
    exact_deal(monkeypatch, Game.KAP_SHAP, [ALICE, BOB], WALL, dice=(1, 1, 2, 2))


def _passes(world: World) -> int:
    # load_extension imports the cog module afresh, so the class is not cogs.play.Play here.
    cog = world.bot.get_cog("Play")
    assert cog is not None
    passes: int = cog.scheduler.current_loop  # type: ignore[attr-defined]
    return passes


async def test_the_scheduler_sleeps_until_the_next_deadline(world: World, deal: None) -> None:
    env, ch = world.env, world.channel
    alice, bob = world.members[:2]
    before = _passes(world)
    await env.advance_time(10 * 3600)  # ten idle hours: a handful of passes, not 36,000 ticks
    assert _passes(world) - before < 20

    await alice.slash(ch, "table new", timer=3600)
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    table = table_of(world)
    assert table.state is not None and table.state.current == 0
    before = _passes(world)
    await env.advance_time(3599)
    assert table.state.current == 0  # not yet
    await env.advance_time(2)
    assert table.state is not None and table.state.current == 1  # played at its deadline
    # Told in the table message's recent lines, not as a new channel message.
    assert any("alice ran out of time" in line for line in table.recent)
    assert _passes(world) - before < 20


async def test_a_game_that_cannot_be_rebuilt_is_quarantined_with_a_notice(
    world: World,
    deal: None,
    settings: Settings,
    restart: Callable[[], Awaitable[KapBot]],
    caplog: pytest.LogCaptureFixture,
) -> None:
    ch = world.channel
    alice, bob = world.members[:2]
    await alice.slash(ch, "table new")
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    await alice.slash(ch, "discard", tile="5-2")
    game_id = table_of(world).id
    with sqlite3.connect(settings.db_path) as conn:  # the saved move no longer replays
        conn.execute(
            "UPDATE game_actions SET notation = 'discard 1-2' WHERE game_id = ?", (game_id,)
        )

    with caplog.at_level("ERROR"):
        bot = await restart()
    # One operator line naming the game, its channel and the reason.
    [line] = [r.getMessage() for r in caplog.records if "quarantined" in r.getMessage()]
    assert f"game {game_id} in channel {ch.id} quarantined" in line
    assert "you do not hold 2-1" in line
    caplog.clear()  # the operator's log line was expected (the autouse check fails on errors)

    assert bot.services.tables.get(ch.id) is None
    assert ch.history()[-1].content == QUARANTINE_NOTICE
    chips = bot.services.chips
    assert await chips.balance(GUILD_ID, alice.id) == 1000  # the antes came back
    assert await chips.balance(GUILD_ID, bob.id) == 1000
    r = await alice.slash(ch, "table new")  # the channel is free again
    assert r.response is not None
    assert table_of(world).id != game_id


async def test_a_second_bot_on_the_same_database_refuses_to_start(
    world: World, settings: Settings
) -> None:
    second = create_bot(settings)
    async with second:  # discord.py's start-up of the client, which its close() needs
        with pytest.raises(DatabaseLocked, match=f"pid {os.getpid()}") as caught:
            await second.setup_hook()
    assert "in use by another bot process" in str(caught.value)


async def test_a_table_whose_timer_keeps_failing_is_quarantined_and_the_others_play_on(
    world: World, deal: None, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    env, ch = world.env, world.channel
    alice, bob, carol, dave = world.members[:4]
    other = world.guild.create_text_channel("second-table")
    await env.settle()
    await alice.slash(ch, "table new", timer=30)
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    await carol.slash(other, "table new", timer=30)
    await dave.slash(other, "table join")
    await carol.slash(other, "table start")
    bad, good = table_of(world), table_of(world, other)
    service = world.bot.services.tables
    real = service._expire

    async def expire(table: Table, now: float) -> object:
        if table is bad:
            raise RuntimeError("this table is cursed")
        return await real(table, now)

    monkeypatch.setattr(service, "_expire", expire)
    await env.advance_time(31)
    assert good.state is not None and good.state.turn == 2  # played although the other failed
    assert any("ran out of time" in line for line in good.recent)
    await env.advance_time(2 * RETRY_SECONDS + 1)
    assert service.get(ch.id) is None
    assert ch.history()[-1].content == QUARANTINE_NOTICE
    chips = world.bot.services.chips
    assert await chips.balance(GUILD_ID, alice.id) == 1000
    assert [r.levelname for r in caplog.records if "cursed" in r.getMessage()]
    caplog.clear()  # the operator's ERROR lines were expected
