"""The house account stakes the computer seats; turn notices by DM, by channel mention, or off;
a rematch after a restart; ``/table new thread:True`` checks its settings first."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from bot.app import KapBot
from bot.engine import Game
from bot.services.chips import HOUSE_ID
from bot.services.tables import TableStatus
from tests.discord.conftest import GUILD_ID, World
from tests.discord.tables_kit import (
    api_calls,
    custom_ids,
    exact_deal,
    last_dm,
    message_text,
    no_incidents,  # noqa: F401  (autouse: no error logged)
    resign,
    runs_out,
    table_of,
)

ALICE = "6-6 6-6 1-1 4-4 3-1 3-3 6-5 5-2"
BOB = "5-5 6-1 4-1 3-2 6-2 6-3 4-2"
WALL = "2-2 6-4 5-1 5-1"


@pytest.fixture
def deal(monkeypatch: pytest.MonkeyPatch) -> None:
    exact_deal(monkeypatch, Game.KAP_SHAP, [ALICE, BOB], WALL, dice=(1, 1, 2, 2))


async def alice_ends_her_turn(world: World) -> None:
    """alice's first turn: discard, the first player's extra draw, discard."""
    ch, alice = world.channel, world.members[0]
    await alice.slash(ch, "discard", tile="5-2")
    await alice.slash(ch, "draw")
    await alice.slash(ch, "discard", tile="2-2")


async def test_the_house_stakes_computer_seats_and_collects_their_wins(world: World) -> None:
    ch, admin = world.channel, world.admin
    alice = world.members[0]
    chips = world.bot.services.chips
    r = await admin.slash(ch, "kapadmin house")
    assert r.ephemeral and "The house has **10,000 chips**" in r.response.content
    await admin.slash(ch, "kapadmin grant", member=alice, amount=50_000)

    # An ante the house cannot cover for the computer: refused, clearly, nothing charged.
    await alice.slash(ch, "table new", ante=20_000)
    await alice.slash(ch, "table addbot", level="beginner")
    r = await alice.slash(ch, "table start")
    assert r.ephemeral and r.response.content.startswith(
        "The house can't stake the computer players: 1 ante needs 20,000 chips and the "
        "house has 10,000."
    )
    assert "`/kapadmin house`" in r.response.content
    assert await chips.balance(GUILD_ID, alice.id) == 51_000
    assert "kapadmin house" not in alice.available_commands(ch)  # managers only

    # A manager funds it (a public, recorded mint); now the game starts.
    r = await admin.slash(ch, "kapadmin house", fund=15_000)
    assert not r.ephemeral
    assert r.response.content == (
        "🏦 admin funded the house with **15,000 chips**. The house now has 25,000 chips."
    )
    await alice.slash(ch, "table start")
    table = table_of(world)
    assert table.running and await chips.house_balance(GUILD_ID) == 5_000
    pot = await chips.pot(table.id)
    assert pot is not None and dict(pot.antes) == {alice.id: 20_000, HOUSE_ID: 20_000}

    # alice resigns: the computer wins, the house collects the whole pot.
    r = await resign(alice, ch)
    assert r.response.content == "🏳️ You resigned: AI 1 (Beginner) wins."
    assert "the pot of 40,000 chips goes to the house" in ch.history()[-1].content
    assert await chips.house_balance(GUILD_ID) == 45_000
    assert await chips.balance(GUILD_ID, alice.id) == 31_000
    assert (await chips.total_supply_check(GUILD_ID)).ok
    # The house is no member: not on the leaderboard, not counted.
    board = await chips.leaderboard(GUILD_ID)
    assert HOUSE_ID not in [e.user_id for e in board]
    assert await chips.account_count(GUILD_ID) == len(board)


async def test_notices_off_and_channel_notices(world: World, deal: None) -> None:
    env, ch, admin = world.env, world.channel, world.admin
    alice, bob = world.members[:2]
    r = await bob.slash(ch, "settings", notices=False)
    assert r.ephemeral and "Turn notices are **off" in r.response.content
    await alice.slash(ch, "table new")
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    [bob_dm] = bob.user.dm_channel.history()

    # Bob's turn: notices off, so his DM is edited in place (no new message, no mention).
    with api_calls(env) as calls:
        await alice_ends_her_turn(world)
    dm_path = f"/channels/{bob.user.dm_channel.id}/messages"
    assert not [c for c in calls if c.method in ("POST", "DELETE") and c.path.startswith(dm_path)]
    [edited] = bob.user.dm_channel.history()
    assert edited.id == bob_dm.id and custom_ids(edited)
    assert not [m for m in ch.history() if bob.mention in m.content]

    # The server chooses channel notices; bob turns his back on.
    r = await admin.slash(ch, "kapadmin config", notices="channel")
    assert "Turn notices**: by a mention in the channel" in r.response.content
    await bob.slash(ch, "settings", notices=True)
    await bob.slash(ch, "draw")
    await bob.slash(ch, "discard", tile="4-2")
    # alice's turn: a mention line in the channel, her DM edited in place.
    [mention] = [m for m in ch.history() if alice.mention in m.content]
    [alice_dm] = alice.user.dm_channel.history()
    hand_link = f"https://discord.com/channels/@me/{alice.user.dm_channel.id}/{alice_dm.id}"
    assert (
        mention.content
        == f"{alice.mention}, it's your turn — {runs_out(world)}. Your hand: {hand_link}"
    )
    assert len(alice.user.dm_channel.history()) == 1
    await alice.slash(ch, "draw")
    assert [m.id for m in ch.history() if alice.mention in m.content] == [mention.id]
    await alice.slash(ch, "discard", tile="5-1")
    # Her turn is over: the line is gone; bob is mentioned now.
    assert not [m for m in ch.history() if alice.mention in m.content]
    assert [m for m in ch.history() if bob.mention in m.content]


async def test_a_dm_turn_notice_is_a_new_message_and_the_old_one_goes(
    world: World, deal: None
) -> None:
    ch = world.channel
    alice, bob = world.members[:2]
    await alice.slash(ch, "table new")
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    [first] = alice.user.dm_channel.history()
    assert first.content == f"🀄 Your turn at <#{ch.id}> — {runs_out(world)}."
    [waiting] = bob.user.dm_channel.history()
    assert waiting.content == ""
    await alice_ends_her_turn(world)
    # alice's DM lost its notice line; bob got a new DM (notified), the old one is deleted.
    [mine] = alice.user.dm_channel.history()
    assert mine.id == first.id and mine.content == "" and custom_ids(mine) == []
    [notice] = bob.user.dm_channel.history()
    assert notice.id != waiting.id
    assert notice.content == f"🀄 Your turn at <#{ch.id}> — {runs_out(world)}."
    assert custom_ids(notice)
    # Bob plays from the new DM.
    r = await bob.user.click(notice, label="Draw")
    assert r.response.id == notice.id
    assert "You drew" in message_text(last_dm(bob))


async def test_rematch_after_a_restart_from_the_end_message(
    world: World, deal: None, restart: Callable[[], Awaitable[KapBot]]
) -> None:
    ch = world.channel
    alice, bob = world.members[:2]
    await alice.slash(ch, "table new", ante=25)
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    await resign(bob, ch)
    end = ch.history()[-1]
    assert "bob resigned: alice wins." in end.content
    await restart()
    r = await bob.click(end, label="Rematch")
    assert not r.ephemeral and "calls a rematch" in r.response.content
    lobby = table_of(world)
    assert lobby.status is TableStatus.LOBBY and lobby.ante == 25
    assert [s.name for s in lobby.seats] == ["alice", "bob"]
    assert lobby.thrower == 0  # the winner throws the dice


async def test_a_thread_table_with_impossible_settings_is_refused_privately(
    world: World,
) -> None:
    ch = world.channel
    alice = world.members[0]
    before = len(ch.history())
    r = await alice.slash(ch, "table new", game="tsung-shap", seats=3, thread=True)
    assert r.ephemeral and "exactly 2 players" in r.response.content
    assert ch.threads == [] and len(ch.history()) == before
    assert world.bot.services.tables.get(ch.id) is None
