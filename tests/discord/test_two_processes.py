"""The bot as one of several processes on one database (issue 20): an action another process
applied is served here on the table's latest state, and its message is edited by stored id."""

from __future__ import annotations

import pytest

from bot.app import DiscordClock
from bot.config import Settings
from bot.engine import Game
from bot.services.chips import ChipsDefaults, ChipsService
from bot.services.server import ServerService
from bot.services.tables import TableService
from bot.storage.db import Database
from bot.storage.games import GamesRepo
from cogs.desk import desk_for
from tests.discord.conftest import World
from tests.discord.tables_kit import (
    exact_deal,
    last_dm,
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


async def test_a_move_made_by_another_process_is_served_here(
    world: World, deal: None, settings: Settings
) -> None:
    env, ch = world.env, world.channel
    alice, bob = world.members[:2]
    world.bot.services.tables.poll_seconds = 2.0  # several processes share the database
    await alice.slash(ch, "table new")
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    table = table_of(world)
    assert table.message_id is not None
    # Another process (its own connection, services and tables) plays alice's discard, as if
    # her click had reached it.
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
        theirs = await other.lookup(ch.id)
        assert theirs is not None and theirs.state is not None
        discard = next(a for a in theirs.legal() if "5-2" in str(a))
        await other.act(ch.id, alice.id, discard)
    finally:
        await db.close()
    # This process still holds the table as it was (alice to discard); she goes on here: her
    # draw is refused on the stale copy, played on the table's latest state.
    assert table.state is not None and len(table.legal()) > 1
    reply = await alice.slash(ch, "draw")
    assert reply.ephemeral and "You drew" in reply.response.content
    logged = await world.bot.services.tables._games.actions(table.id)
    assert [entry.seat for entry in logged] == [0, 0]  # her discard (elsewhere), her draw (here)
    await env.advance_time(2)
    assert table.message_id is not None
    shown = message_text(next(m for m in ch.history() if m.id == table.message_id))
    assert "5-2" in shown  # the other process's move, in the recent lines rebuilt from the log
    assert "drew" in shown


async def test_a_process_takes_over_the_dms_another_process_sent(world: World, deal: None) -> None:
    env, ch = world.env, world.channel
    alice, bob = world.members[:2]
    world.bot.services.tables.poll_seconds = 2.0  # several processes share the database
    await alice.slash(ch, "table new")
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    hands = [m.id for m in bob.user.dm_channel.history()]
    assert hands
    # This process never sent those DMs (another one did): it knows them only from the database.
    desk_for(world.bot).presenter._dms.clear()
    await alice.slash(ch, "discard", tile="5-2")
    await env.advance_time(2)
    # Bob's hand DM shows alice's discard: edited in place, not sent a second time.
    assert [m.id for m in bob.user.dm_channel.history()] == hands
    assert "5-2" in message_text(last_dm(bob))
