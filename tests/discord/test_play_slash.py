"""A whole Kap Shap game between two members, played through slash commands.

The deal is exact (see ``DEAL``): alice starts with Heaven's eye and two ten-pairs, gives up 5-2,
draws and discards 2-2; bob takes her 5-2, discards 6-3, draws 6-4 and discards it; alice takes
bob's 6-3 and wins (eye 6-6 6-6, 1-1+4-4, 3-1+3-3, 6-5+6-3). Bob's Gee Joon 4-2 never leaves his
hand, so it must never be seen in public.
"""

from __future__ import annotations

import pytest
import simcord

from bot.engine import Game, format_tiles
from bot.games.collecting.render.words import hand_text
from bot.render import render_hand
from bot.services.tables import TableStatus
from tests.discord.conftest import GUILD_ID, World
from tests.discord.tables_kit import (
    assert_hands_hidden,
    exact_deal,
    hand_of,
    last_dm,
    leaks,
    message_text,
    no_incidents,  # noqa: F401  (autouse: no error logged)
    shown,
    table_of,
    tiles,
    without_guide,
)

pytestmark = pytest.mark.both_backends

ALICE = "6-6 6-6 1-1 4-4 3-1 3-3 6-5 5-2"
BOB = "5-5 6-1 4-1 3-2 6-2 6-3 4-2"
WALL = "2-2 6-4"


@pytest.fixture
def deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Alice (seat 0) is first: the dice total 6 counts round to her."""
    exact_deal(monkeypatch, Game.KAP_SHAP, [ALICE, BOB], WALL, dice=(1, 1, 2, 2))


async def test_two_members_play_kap_shap_through_slash_commands(world: World, deal: None) -> None:
    env, ch = world.env, world.channel
    alice, bob, carol = world.members[:3]
    chips = world.bot.services.chips
    await without_guide(world)

    r = await alice.slash(ch, "table new", game="kap-shap")
    assert not r.ephemeral and r.response.embeds[0].title.startswith("Kap Shap")
    assert (await bob.slash(ch, "table join")).response.content == "You joined the table."
    r = await alice.slash(ch, "table start")
    assert r.response.content.startswith("🎲 alice threw 1 + 1 + 2 + 2 = 6")
    table = table_of(world)
    assert table.running and await chips.balance(GUILD_ID, alice.id) == 990

    # The table message: seats in order with hand sizes, whose turn, wall, deadline.
    [embed] = ch.history()[0].embeds
    text = message_text(ch.history()[0])
    assert "▶ **alice** — 8 tiles" in text and "bob — 7 tiles" in text
    assert "Turn 1: **alice** to discard a tile or declare" in text and "<t:" in text
    assert [f.name for f in embed.fields][:3] == ["Seats", "Wall", "Discards (0)"]
    assert [a.filename for a in ch.history()[0].attachments] == ["discards.png"]
    assert embed.image.url == "attachment://discards.png"

    # Each member's DM shows his own hand as a picture (not again in words) and one line saying
    # what to do; alice's says it's her turn.
    dm = last_dm(alice)
    assert hand_text(tiles(ALICE)) not in message_text(dm)
    assert "It is your turn" in message_text(dm)
    assert await dm.attachments[0].read() == render_hand(tiles(ALICE))
    assert await last_dm(bob).attachments[0].read() == render_hand(tiles(BOB))
    assert "not your turn" in message_text(last_dm(bob))
    # The check below can fail: it finds alice's hand in her own DM.
    assert await leaks([dm], tiles(ALICE))
    await assert_hands_hidden(world, [alice, bob], spectator=carol)

    # Autocomplete offers the caller's legal tiles.
    offered = await alice.autocomplete(ch, "discard", "tile", "")
    assert [c["value"] for c in offered] == ["6-6", "1-1", "4-4", "3-1", "3-3", "6-5", "5-2"]
    assert (await alice.autocomplete(ch, "discard", "tile", "axe")) == [
        {"name": "6-5 Axe 斧頭", "value": "6-5"}
    ]

    # Turn 1, alice: discard, draw, discard (Kap Shap's first turn has the extra draw).
    r = await alice.slash(ch, "discard", tile="5-2")
    assert r.ephemeral and "You discarded `5-2` Seven" in shown(r.response.content)
    r = await alice.slash(ch, "draw")
    assert r.ephemeral and "You drew `2-2` Bench 板凳" in shown(r.response.content)
    r = await alice.slash(ch, "discard", tile="bench")
    assert "You discarded `2-2`" in shown(r.response.content) and "bob plays next" in shown(
        r.response.content
    )

    # Turn 2, bob: take alice's 5-2 (autocompleted), discard, draw, discard.
    offered = await bob.autocomplete(ch, "take", "tile", "")
    assert [c["value"] for c in offered] == ["2-2", "5-2"]
    r = await bob.slash(ch, "take", tile="5-2")
    assert "You took `5-2` Seven 雜七 discarded by alice" in shown(r.response.content)
    await bob.slash(ch, "discard", tile="6-3")
    await bob.slash(ch, "draw")
    await bob.slash(ch, "discard", tile="6-4")
    await env.advance_time(1)  # let the coalesced table edit through
    await assert_hands_hidden(world, [alice, bob], spectator=carol)
    text = message_text(ch.history()[0])
    assert "▶ **alice** — 7 tiles" in text and "Latest: `6-4` Red-head ten from bob" in text
    # The discards are a picture, and listed in its alternative text.
    [picture] = ch.history()[0].attachments
    assert picture.filename == "discards.png"
    assert "6-3 Nine" in (picture.description or "") and "2-2 Bench" in (picture.description or "")

    # Turn 3, alice takes 6-3 and declares.
    await alice.slash(ch, "take", tile="6-3")
    assert format_tiles(hand_of(world, alice)) == "6-6 6-6 1-1 4-4 3-1 3-3 6-5 6-3"
    r = await alice.slash(ch, "declare")
    assert "You declared a winning hand" in r.response.content
    assert table.status is TableStatus.FINISHED

    # The win is revealed in the channel: arrangement in words and as a picture.
    reveal = ch.history()[-1]
    assert "🏆 **alice** won on turn 3 by taking a discard" in reveal.content
    assert "eye `6-6` `6-6` · `6-3`+`6-5` = 20 · `4-4`+`1-1` = 10 · `3-3`+`3-1` = 10" in (
        shown(reveal.content)
    )
    assert [a.filename for a in reveal.attachments] == ["winning-hand.png"]
    assert "alice takes the pot: 20 chips" in reveal.content
    assert "Rematch" in message_text(reveal)

    # Pot paid and ledger balanced.
    assert await chips.balance(GUILD_ID, alice.id) == 1010
    assert await chips.balance(GUILD_ID, bob.id) == 990
    assert (await chips.total_supply_check(GUILD_ID)).ok

    # Bob's hand stayed hidden to the end: his Gee Joon never appeared in public.
    for message in ch.history(viewer=carol):
        assert "4-2" not in message_text(message) and "Gee Joon" not in message_text(message)
    assert await leaks(ch.history(), hand_of(world, bob)) == []
    assert carol.user.dm_channel.history() == []

    # Rematch: a new lobby with the same seats.
    r = await bob.click(reveal, label="Rematch")
    lobby = table_of(world)
    assert lobby.status is TableStatus.LOBBY and [s.name for s in lobby.seats] == ["alice", "bob"]
    assert "Seats (2/2)" in message_text(r.response.message)


async def test_player_mistakes_get_a_message_and_change_nothing(world: World, deal: None) -> None:
    ch = world.channel
    alice, bob, carol = world.members[:3]
    await alice.slash(ch, "table new")
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    table = table_of(world)
    repo = world.bot.services.games
    version, log_size = table.version, len(await repo.actions(table.id))
    hands = format_tiles(hand_of(world, alice)), format_tiles(hand_of(world, bob))

    async def refused(member: simcord.MemberActor, command: str, **options: str) -> str:
        r = await member.slash(ch, command, **options)
        assert r.ephemeral
        return shown(r.response.content)

    assert await refused(bob, "draw") == "It is alice's turn, not yours."
    assert await refused(carol, "draw") == "You are not playing at this table."
    assert await refused(alice, "discard", tile="5-5") == "You do not hold 5-5."
    assert "Not a tile" in await refused(alice, "discard", tile="9-9")
    assert await refused(alice, "declare") == (
        "Your hand is not a winning hand (an eye and ten-pairs)."
    )
    assert "full hand" in await refused(alice, "draw")
    assert await refused(carol, "hand") == (
        "You are not playing at this table: only the players see a hand."
    )
    assert table.version == version and len(await repo.actions(table.id)) == log_size
    assert (format_tiles(hand_of(world, alice)), format_tiles(hand_of(world, bob))) == hands
    # Too late to join; a second table in the same channel points to the first.
    assert await refused(carol, "table join") == "The game has already started."
    text = await refused(carol, "table new")
    assert text.startswith("There is already a table in this channel: https://discord.com/")
    assert str(table.message_id) in text
