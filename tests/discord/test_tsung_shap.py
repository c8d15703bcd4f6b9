"""Tsung Shap through the bot: a whole game between two members, restart, closed DMs.

The deal is exact (see ``deal``): alice turns over 1-1, bob 3-1 (laid beside it), then alice's
2-2 sweeps the two-tile row (2 + 4 + 4 = 10: 40 points) and her relay tile 6-6 starts a new row.
Bob turns over the other 6-6 and places it instead of pairing it: a missed capture, which alice
claims at the start of her next turn (240 points). The rest is turned over and placed right.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import discord
import pytest
import simcord

from bot.engine import Deal, Game, make_rules, parse_tiles
from bot.games.fishing.engine import deal_from_piles
from bot.services.tables import Table, TableStatus
from tests.discord.conftest import GUILD_ID, World
from tests.discord.tables_kit import (
    custom_ids,
    deal_every_table,
    last_dm,
    message_text,
    no_incidents,  # noqa: F401  (autouse: no error logged)
    runs_out,
    shown,
    table_of,
)

pytestmark = pytest.mark.both_backends

ALICE = "1-1 2-2 6-6"
BOB = "3-1 6-6"


@pytest.fixture
def deal(monkeypatch: pytest.MonkeyPatch) -> Deal:
    """Alice (seat 0) is first: the dice total 6 counts round to her."""
    rules = make_rules(Game.TSUNG_SHAP)
    exact = deal_from_piles(rules, parse_tiles(ALICE), parse_tiles(BOB), first_seat=0)
    exact = dataclasses.replace(exact, thrower=0, dice=(1, 1, 2, 2))

    def fixed(rules_: Any, rng: Any, thrower: int = 0) -> Deal:
        return exact

    deal_every_table(monkeypatch, fixed)
    return exact


async def table_message(world: World, table: Table) -> discord.Message:
    """The table message, once the coalesced edits went through."""
    await world.env.advance_time(2)
    [message] = [m for m in world.channel.history() if m.id == table.message_id]
    return message


def field(message: discord.Message, name: str) -> str:
    """The value of one embed field of the table message."""
    [embed] = message.embeds
    values = [shown(f.value) for f in embed.fields if (f.name or "").startswith(name)]
    assert values, f"no field {name!r} in {[f.name for f in embed.fields]}"
    return values[0]


async def start_game(world: World) -> Table:
    """alice opens a Tsung Shap table, bob joins, alice starts."""
    alice, bob = world.members[:2]
    ch = world.channel
    r = await alice.slash(ch, "table new", game="tsung-shap")
    assert not r.ephemeral and r.response.embeds[0].title.startswith("Tsung Shap")
    assert "piles of 16" in message_text(r.response.message)
    assert (await bob.slash(ch, "table join")).response.content == "You joined the table."
    r = await alice.slash(ch, "table start")
    assert r.response.content.startswith("🎲 alice threw 1 + 1 + 2 + 2 = 6")
    table = table_of(world)
    assert table.running and table.game == Game.TSUNG_SHAP
    return table


async def finish_by_placing(world: World, table: Table) -> None:
    """Both players turn over and place right until the game ends."""
    by_id = {m.id: m for m in world.members}
    while table.running:
        current = table.current_seat
        assert current is not None and current.user_id is not None
        member = by_id[current.user_id]
        r = await member.slash(world.channel, "draw")
        assert r.ephemeral and "You turned over" in r.response.content, r.response.content
        if table.running and table.current_seat == current:
            r = await member.slash(world.channel, "discard", side="right")
            assert r.ephemeral, r.response.content


async def test_two_members_play_tsung_shap_with_a_sweep_and_a_claimed_miss(
    world: World, deal: Deal
) -> None:
    ch = world.channel
    alice, bob, carol = world.members[:3]
    chips = world.bot.services.chips
    table = await start_game(world)
    assert await chips.balance(GUILD_ID, alice.id) == 990

    # The table message: rules, whose turn, scores and piles, the row as a picture.
    message = await table_message(world, table)
    text = message_text(message)
    assert "Turn 1: **alice** to turn over a tile" in text and "<t:" in text
    assert "▶ **alice** — **0** points · 16 tiles left in the pile" in text
    assert "bob — **0** points · 16 tiles left in the pile" in text
    assert [a.filename for a in message.attachments] == ["row.png"]
    assert message.embeds[0].image.url == "attachment://row.png"
    assert any(cid.endswith(":play:draw") for cid in custom_ids(message))

    # Rules, from the table message's button and by name.
    r = await carol.click(message, label="Rules")
    assert r.ephemeral and "**Sweep:**" in message_text(r.response.message)
    r = await carol.slash(ch, "table rules", game="tsung-shap")
    assert "face-down pile of 16 tiles" in message_text(r.response.message)

    # Each player's DM is a short status: alice is told it is her turn (once), bob that it
    # is not his.
    [notice] = alice.user.dm_channel.history()
    assert notice.content == f"🀄 Your turn at <#{ch.id}> — {runs_out(world)}."
    assert message_text(notice).lower().count("your turn") == 1  # the notice says it, once
    assert "It is not your turn" not in message_text(notice)
    assert notice.attachments == [] and notice.components == []
    [waiting] = bob.user.dm_channel.history()
    assert "It is not your turn: **alice** is playing turn 1" in message_text(waiting)
    assert waiting.content == ""

    # Turns 1-2: the first two tiles are laid out.
    r = await alice.slash(ch, "draw")
    assert "You turned over `1-1` Earth" in shown(r.response.content)
    assert "bob plays next" in r.response.content
    assert "bob turned over `3-1`" not in shown(r.response.content)
    # The turn passed: alice's DM now says so; bob got a new DM (notified), the old one gone.
    assert "It is not your turn: **bob** is playing turn 2" in message_text(last_dm(alice))
    assert alice.user.dm_channel.history()[0].content == ""
    [notice] = bob.user.dm_channel.history()
    assert notice.id != waiting.id and notice.content.startswith("🀄 Your turn at")
    await bob.slash(ch, "draw")

    # Turn 3: alice turns over 2-2; /take offers the sweep and makes it.
    r = await alice.slash(ch, "draw")
    assert "You turned over `2-2`" in shown(r.response.content)
    assert "capture triplet ends" in r.response.content
    offered = await alice.autocomplete(ch, "take", "tile", "")
    assert [c["value"] for c in offered] == ["capture triplet ends"]
    assert offered[0]["name"] == "capture triplet ends — 2-2 + 1-1 + 3-1: 40"
    assert await bob.autocomplete(ch, "take", "tile", "") == []
    r = await alice.slash(ch, "take", tile="capture triplet ends")
    assert "You swept the row: `2-2` + `1-1` + `3-1`, 40 points." in shown(r.response.content)
    assert table.state is not None and table.state.scores == (40, 0)
    message = await table_message(world, table)
    recent = field(message, "Recent")
    assert "alice swept the row with 2-2 + 1-1 + 3-1: 40 points." in recent
    assert "alice at once turned over 6-6" in recent
    assert "▶ **bob**" in field(message, "Scores")

    # Turn 4: bob plays with the table message's buttons and misses the pair of 6-6.
    r = await bob.click(message, label="Draw")
    message = await table_message(world, table)
    assert "Turned over" in [f.name for f in message.embeds[0].fields]
    labels = [getattr(c, "label", "") for row in message.components for c in row.children]
    assert {"Capture pair left: 6-6 + 6-6 · 240 points", "Place left", "Place right"} <= set(labels)
    await bob.click(message, label="Place right")
    message = await table_message(world, table)
    assert "bob could have captured and did not" in field(message, "Recent")
    assert "`claim pair left`" in field(message, "Missed capture")

    # Turn 5: alice claims it.
    offered = await alice.autocomplete(ch, "take", "tile", "claim")
    assert [c["value"] for c in offered] == ["claim pair left"]
    r = await alice.slash(ch, "take", tile="claim pair left")
    assert "You claimed the missed pair: `6-6` + `6-6`, 240 points." in shown(r.response.content)
    assert table.state.scores == (280, 0)
    message = await table_message(world, table)
    assert "alice claimed the pair bob missed" in field(message, "Recent")

    # Mistakes are explained and change nothing.
    version = table.version
    assert (await bob.slash(ch, "draw")).response.content == "It is alice's turn, not yours."
    r = await alice.slash(ch, "discard", side="left")
    assert r.response.content == "Turn over your next tile first ('draw')."
    r = await alice.slash(ch, "discard", tile="6-5")
    assert "Place your tile at an end of the row" in r.response.content
    assert (await carol.slash(ch, "draw")).response.content == "You are not playing at this table."
    assert table.version == version

    await finish_by_placing(world, table)
    result = table.state.result
    assert result is not None and result.winner == 0 and result.scores == (280, 0)
    assert table.status is TableStatus.FINISHED

    # The end is announced; the pot goes to alice; the ledger balances.
    reveal = ch.history()[-1]
    assert "🏆 **alice** won on turn" in reveal.content and "alice 280, bob 0" in reveal.content
    assert "alice takes the pot: 20 chips" in reveal.content
    assert "Rematch" in message_text(reveal)
    assert await chips.balance(GUILD_ID, alice.id) == 1010
    assert await chips.balance(GUILD_ID, bob.id) == 990
    assert (await chips.total_supply_check(GUILD_ID)).ok

    # One DM each, saying the game is over and how: never a picture, never a button.
    for member in (alice, bob):
        [dm] = member.user.dm_channel.history()
        assert dm.attachments == [] and dm.components == [] and dm.content == ""
        assert "🏁 Game over. 🏆 **alice** won on turn" in message_text(dm)
        assert "your turn" not in message_text(dm).lower()
    assert carol.user.dm_channel.history() == []

    # Rematch: a new Tsung Shap lobby with the same seats.
    await bob.click(reveal, label="Rematch")
    lobby = table_of(world)
    assert lobby.status is TableStatus.LOBBY and lobby.game is Game.TSUNG_SHAP


async def test_tsung_shap_survives_a_restart(world: World, deal: Deal, restart: Any) -> None:
    ch = world.channel
    alice, bob = world.members[:2]
    table = await start_game(world)
    await alice.slash(ch, "draw")
    await bob.slash(ch, "draw")
    await alice.slash(ch, "draw")  # alice holds 2-2, in the middle of her turn
    await restart()
    table = table_of(world)
    assert table.running and table.state is not None and table.state.turned is not None
    offered = await alice.autocomplete(ch, "take", "tile", "")
    assert [c["value"] for c in offered] == ["capture triplet ends"]
    r = await alice.slash(ch, "take")  # the only capture on offer
    assert "You swept the row" in r.response.content
    assert table.state.scores == (40, 0)


async def test_tsung_shap_options_and_timeouts(world: World, deal: Deal) -> None:
    ch = world.channel
    alice = world.members[0]
    r = await alice.slash(ch, "table new", game="kap-shap", settlement="difference")
    assert r.ephemeral and "a Tsung Shap option" in r.response.content
    r = await alice.slash(ch, "table new", game="tsung-shap", seats=3)
    assert r.ephemeral and "exactly 2 players" in r.response.content
    table = await start_game(world)
    # alice lets her time run out: the computer turns her tile over for her.
    await world.env.advance_time(table.turn_seconds + 2)
    assert table.state is not None and table.state.current == 1
    assert "alice ran out of time (1/3)" in message_text(await table_message(world, table))
    assert not any("ran out of time" in m.content for m in ch.history())
    assert table.deadline is not None


async def test_tsung_shap_against_the_computer_and_closed_dms(
    world: World, deal: Deal, env: simcord.Env
) -> None:
    ch = world.channel
    alice = world.members[0]
    env.inject_error(
        "POST", f"/channels/{alice.user.dm_channel.id}/messages", status=403, code=50007, times=None
    )
    r = await alice.slash(ch, "table new", game="tsung-shap")
    r = await alice.click(r.response.message, label="Add AI")
    [custom_id] = [c["custom_id"] for row in r.response.components for c in row["components"]]
    levels = [
        o["value"] for row in r.response.components for c in row["components"] for o in c["options"]
    ]
    assert levels == ["beginner", "casual", "expert", "master"]
    await alice.select(r.response, ["casual"], custom_id=custom_id)
    await alice.slash(ch, "table start")
    table = table_of(world)
    [mention] = [m for m in ch.history() if "I can't DM you" in m.content]
    assert "the buttons on the table message play your turn" in mention.content
    by_id = {alice.id: alice}
    while table.running:
        current = table.current_seat
        assert current is not None and current.user_id in by_id
        await alice.slash(ch, "draw")
        if table.running and table.current_seat == current:
            legal = [str(a) for a in table.legal()]
            if any(a.startswith("capture") for a in legal):
                await alice.slash(
                    ch, "take", tile=next(a for a in legal if a.startswith("capture"))
                )
            else:
                await alice.slash(ch, "discard", side="left")
    assert table.status in (TableStatus.FINISHED, TableStatus.DRAWN)
    assert (await world.bot.services.chips.total_supply_check(GUILD_ID)).ok
