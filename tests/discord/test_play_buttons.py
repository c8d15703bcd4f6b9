"""Kap Tai Shap for five (three members, two computer seats) played with buttons; DM privacy,
the spectator, closed DMs and stale clicks.

The exact deal (Classic rules: take the last discard or draw): carol holds an eye and three
ten-pairs plus 6-4, and the first seven tiles of the wall are all 5-5s and 6-4s, so whatever the
computer seat before her does (take or draw), her draw completes 6-4's pair and she wins. No
computer hand can win with any one tile, so the computer cannot end the game first.
"""

from __future__ import annotations

import pytest
import simcord

from bot.engine import Game, format_tiles
from bot.games.collecting.render.words import hand_text
from bot.render import render_hand
from bot.services.tables import Table, TableStatus
from tests.discord.conftest import GUILD_ID, World
from tests.discord.tables_kit import (
    add_ai,
    api_calls,
    assert_hands_hidden,
    custom_ids,
    exact_deal,
    hand_of,
    last_dm,
    leaks,
    message_text,
    no_incidents,  # noqa: F401  (autouse: no error logged)
    runs_out,
    table_of,
    tiles,
    without_guide,
)

ALICE = "4-4 3-1 6-5 5-1 5-4 6-2 5-2 4-3 3-2 4-2"
BOB = "3-3 2-2 6-5 6-5 6-1 5-1 5-2 4-1 4-2"
AI_1 = "6-6 1-1 1-1 4-4 3-1 3-3 5-1 5-4 5-3"
CAROL = "3-3 3-3 1-1 4-4 5-1 3-1 6-1 2-1 6-4"
AI_2 = "6-6 1-1 4-4 2-2 6-1 6-1 6-3 5-3 2-1"
WALL = "5-5 5-5 5-5 5-5 6-4 6-4 6-4"


@pytest.fixture
def deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seats in join order: alice, bob, AI 1, carol, AI 2; dice total 5 -> alice starts."""
    exact_deal(
        monkeypatch, Game.KAP_TAI_SHAP, [ALICE, BOB, AI_1, CAROL, AI_2], WALL, dice=(1, 1, 1, 2)
    )


async def open_five(world: World) -> Table:
    """alice hosts; bob joins; a computer; carol joins; a computer; start — all by buttons."""
    ch = world.channel
    alice, bob, carol = world.members[:3]
    r = await alice.slash(ch, "table new", game="kap-tai-shap", seats=5)
    lobby = r.response.message
    await bob.click(lobby, label="Join")
    r = await add_ai(alice, lobby)
    assert r.response.content == "Added a computer player (Beginner)."
    await carol.click(lobby, label="Join")
    await add_ai(alice, lobby)
    await alice.click(lobby, label="Start")
    table = table_of(world)
    assert [s.name for s in table.seats] == [
        "alice",
        "bob",
        "AI 1 (Beginner)",
        "carol",
        "AI 2 (Beginner)",
    ]
    return table


async def test_five_players_with_buttons_to_a_win(world: World, deal: None) -> None:
    env, ch = world.env, world.channel
    alice, bob, carol, dave = world.members[:4]
    chips = world.bot.services.chips
    await without_guide(world)
    table = await open_five(world)
    players = [alice, bob, carol]
    assert table.rules is not None and table.rules.rule_set_name == "classic"

    # Every member's DM holds exactly his hand; only alice (to play) has buttons.
    for member, hand in ((alice, ALICE), (bob, BOB), (carol, CAROL)):
        [dm] = member.user.dm_channel.history()
        assert hand_text(tiles(hand)) not in message_text(dm)  # the picture shows it
        assert await dm.attachments[0].read() == render_hand(tiles(hand))
    assert len(custom_ids(last_dm(alice))) == 10 and custom_ids(last_dm(bob)) == []
    await assert_hands_hidden(world, players, spectator=dave)
    assert dave.user.dm_channel.history() == []

    # Turn 1: alice discards 6-5 from her DM. The click edits the DM in place.
    dm = last_dm(alice)
    with api_calls(env) as calls:
        r = await alice.user.click(dm, label="Discard 6-5")
    assert r.response.id == dm.id and custom_ids(last_dm(alice)) == []
    assert len(calls) <= 4, calls  # defer, DM edit, table message edit, bob's DM
    assert format_tiles(hand_of(world, alice)) == "4-4 3-1 5-1 5-4 6-2 5-2 4-3 3-2 4-2"

    # Turn 2: bob may take alice's 6-5 or draw. He keeps a stale copy of his hand first.
    stale = (await bob.slash(ch, "hand")).response
    assert stale.ephemeral and [a.filename for a in stale.message.attachments] == ["hand.png"]
    assert f"kap:{table.id}:{table.version}:take:6-5" in custom_ids(last_dm(bob))
    r = await bob.user.click(last_dm(bob), label="Draw")
    assert "You drew `5-5` Plum flower 梅" in message_text(last_dm(bob))
    version = table.version
    r = await bob.click(stale, label="Draw")  # the same click again, from the stale copy
    assert r.response.content == "That action is out of date: the table has moved on."
    assert table.version == version and len(hand_of(world, bob)) == 10

    # Bob discards; AI 1 plays at once; then it is carol's turn.
    await bob.user.click(last_dm(bob), label="Discard 6-5")
    assert table.state is not None and table.seats[table.state.current].name == "carol"
    await env.advance_time(1)
    text = message_text(ch.history()[0])
    assert "▶ **carol** — 9 tiles" in text and "AI 1 (Beginner) 🤖 — 9 tiles" in text
    await assert_hands_hidden(world, players, spectator=dave)

    # Turn 4: carol draws a 5-5 or a 6-4 and declares.
    await carol.user.click(last_dm(carol), label="Draw")
    assert "Declare" in message_text(last_dm(carol))
    await carol.user.click(last_dm(carol), label="Declare")
    assert table.status is TableStatus.FINISHED
    reveal = ch.history()[-1]
    assert "🏆 **carol** won on turn 4 by drawing" in reveal.content
    assert [a.filename for a in reveal.attachments] == ["winning-hand.png"]
    # Every seat anted 10: three members, and the house for the two computer players.
    assert "carol takes the pot: 50 chips" in reveal.content

    # Everyone's DM says it is over; nobody has buttons left.
    for member in players:
        assert "🏆 **carol** won on turn" in message_text(last_dm(member))
        assert "The game is over. The game" not in message_text(last_dm(member))
        assert custom_ids(last_dm(member)) == []
    assert await chips.balance(GUILD_ID, carol.id) == 1040
    assert await chips.balance(GUILD_ID, alice.id) == 990
    assert await chips.house_balance(GUILD_ID) == 10 * 1000 - 20
    assert (await chips.total_supply_check(GUILD_ID)).ok
    # Nobody else's hand was ever public; the spectator saw none.
    for member in (alice, bob):
        assert await leaks(ch.history(viewer=dave), hand_of(world, member)) == []
    for message in ch.history(viewer=dave):
        assert "2-2 Bench" not in message_text(message)  # only bob and AI 2 hold a 2-2


async def test_spectator_sees_no_hand(world: World, deal: None) -> None:
    dave = world.members[3]
    table = await open_five(world)
    r = await dave.click(world.channel.history()[0], label="My hand")
    assert r.ephemeral
    assert r.response.content == "You are not playing at this table: only the players see a hand."
    r = await dave.slash(world.channel, "hand")
    assert r.ephemeral and r.response.content.startswith("You are not playing at this table")
    assert await dave.autocomplete(world.channel, "discard", "tile", "") == []
    r = await dave.click(world.channel.history()[0], label="Rules")
    assert r.ephemeral and "Classic rules · 5 players · 2 sets" in message_text(r.response.message)
    await assert_hands_hidden(world, world.members[:3], spectator=dave)
    assert table.running and dave.user.dm_channel.history() == []


async def test_closed_dms_fall_back_to_the_hand_command(world: World, deal: None) -> None:
    env, ch = world.env, world.channel
    alice, bob = world.members[:2]
    env.inject_error(
        "POST",
        f"/channels/{bob.user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    await open_five(world)
    assert bob.user.dm_channel.history() == []
    assert not [m for m in ch.history() if "I can't DM you" in m.content]  # not his turn yet

    await alice.user.click(last_dm(alice), label="Discard 6-5")  # bob's turn: still no DM
    # He is mentioned in the channel instead: one line.
    notices = [m for m in ch.history() if "I can't DM you" in m.content]
    assert [m.content.split(",")[0] for m in notices] == [bob.mention]
    assert f"it's your turn — {runs_out(world)}" in notices[0].content
    r = await bob.click(ch.history()[0], label="My hand")
    assert r.ephemeral and [a.filename for a in r.response.message.attachments] == ["hand.png"]
    assert "It is your turn" in message_text(r.response.message)
    r = await bob.click(r.response, label="Draw")  # he plays from the ephemeral view
    assert "You drew `5-5`" in message_text(r.response.message)
    assert len([m for m in ch.history() if "I can't DM you" in m.content]) == 1
    await bob.click(r.response, label="Discard 6-5")
    r = await bob.slash(ch, "hand")
    assert "not your turn" in message_text(r.response.message)
    # His turn is over: the mention line is gone, and the game went on.
    assert [m for m in ch.history() if "I can't DM you" in m.content] == []
    assert bob.user.dm_channel.history() == []
    simcord.assert_no_errors(env)
