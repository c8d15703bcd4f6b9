"""The lobby: ``/table …`` commands and the lobby message's buttons."""

from __future__ import annotations

import pytest

from bot.services.ratings import ModelParams, display_rating, level_ratings
from bot.services.tables import TableStatus
from bot.storage.ratings import MemberRating, RatingsRepo
from tests.discord.conftest import GUILD_ID, World
from tests.discord.tables_kit import (
    custom_ids,
    message_text,
    no_incidents,  # noqa: F401  (autouse: no error logged)
    table_of,
)


async def test_lobby_buttons_join_leave_add_ai_and_start(world: World) -> None:
    ch = world.channel
    alice, bob, carol = world.members[:3]
    r = await alice.slash(ch, "table new", game="kap-tai-shap", seats=4, ante=25, timer=60)
    lobby = r.response.message
    table = table_of(world)
    assert custom_ids(lobby) == [
        f"kap:{table.id}:-:{verb}" for verb in ("join", "leave", "addai", "start", "cancel")
    ]
    text = message_text(lobby)
    assert "ante **25** chips" in text and "turn timer 1 min" in text
    assert "Seats (1/4)" in text and "1. alice (host)" in text
    assert "Culin rules · 2 players" in text  # the rules in force with the seats taken

    r = await bob.click(lobby, label="Join")
    assert r.response.id == lobby.id  # the lobby message itself is edited: one API call
    assert "2. bob" in message_text(ch.history()[0])
    r = await carol.click(lobby, label="Leave")
    assert r.ephemeral and r.response.content == "You are not seated at this table."
    r = await bob.click(lobby, label="Add AI")
    assert r.ephemeral and r.response.content == "Only the host can add a computer player."
    r = await bob.click(lobby, label="Start")
    assert r.ephemeral and r.response.content == "Only the host can do that."

    r = await alice.click(lobby, label="Add AI")
    assert r.ephemeral and r.response.content == (
        "Which level should the computer play?\n"
        "Suggested for a first game (rating 1,000): Beginner."
    )
    r2 = await alice.select(r.response, ["club"], custom_id=f"kap:{table.id}:-:choose-ai")
    assert r2.response.content == "Added a computer player (Club)."
    assert "3. AI 1 (Club) 🤖" in message_text(ch.history()[0])
    await carol.click(lobby, label="Join")  # the last seat: Join is greyed out now
    r = await carol.slash(ch, "table join")
    assert r.response.content == "You are already seated at this table."
    r = await bob.click(lobby, label="Leave")
    assert [s.name for s in table.seats] == ["alice", "AI 1 (Club)", "carol"]
    assert "Culin rules · 3 players · 2 sets" in message_text(ch.history()[0])

    r = await alice.click(lobby, label="Start")
    assert table.running and r.response.id == lobby.id
    text = message_text(ch.history()[0])
    assert "🎲 alice threw" in text and "Seats" in text
    assert custom_ids(ch.history()[0]) == [f"kap:{table.id}:-:hand", f"kap:{table.id}:-:rules"]
    # Members pay their antes, the house stakes the computer's: three antes of 25.
    assert await world.bot.services.chips.balance(GUILD_ID, carol.id) == 975
    assert await world.bot.services.chips.house_balance(GUILD_ID) == 10 * 1000 - 25
    assert "pot 75" in text


async def test_a_full_table_and_a_second_table_in_the_channel(world: World) -> None:
    ch = world.channel
    alice, bob, carol = world.members[:3]
    await alice.slash(ch, "table new")
    await bob.slash(ch, "table join")
    r = await carol.slash(ch, "table join")
    assert r.ephemeral and r.response.content == "The table is full (2 seats)."
    r = await carol.slash(ch, "table new")
    table = table_of(world)
    assert r.ephemeral and str(table.message_id) in r.response.content
    assert [s.name for s in table.seats] == ["alice", "bob"]


async def test_an_ante_too_large_takes_nothing_and_tells_the_host_who(world: World) -> None:
    ch = world.channel
    alice, bob = world.members[:2]
    chips = world.bot.services.chips
    await chips.give(GUILD_ID, bob.id, alice.id, 1, "test")  # bob now has 999
    await alice.slash(ch, "table new", ante=1000)
    await bob.click(ch.history()[0], label="Join")
    r = await alice.click(ch.history()[0], label="Start")
    assert r.ephemeral
    assert r.response.content == (
        f"Not everyone can pay the ante, so nobody was charged: <@{bob.id}> has 999 chips "
        "(needs 1,000)."
    )
    assert table_of(world).status is TableStatus.LOBBY
    assert await chips.balance(GUILD_ID, alice.id) == 1001
    assert await chips.balance(GUILD_ID, bob.id) == 999
    assert (await chips.total_supply_check(GUILD_ID)).ok


async def test_cancel_show_and_rules(world: World) -> None:
    ch = world.channel
    alice, bob = world.members[:2]
    await alice.slash(ch, "table new", game="kap-tai-shap", rules="classic", seats=3)
    first = ch.history()[0]
    r = await alice.slash(ch, "table rules")
    [embed] = r.response.embeds
    assert r.ephemeral and "**Goal:** a hand of 10 tiles" in embed.description
    assert "**either** take the most recent discard **or** draw" in embed.description
    assert "everyone pays 10 chips" in embed.description

    r = await bob.slash(ch, "table show")
    table = table_of(world)
    assert not r.ephemeral and table.message_id == r.response.id != first.id
    assert ch.history()[0].content.startswith("This table's message moved: https://")
    await bob.click(r.response.message, label="Join")  # the new copy works

    r = await bob.click(r.response.message, label="Cancel")
    assert r.response.content == "Only the host can do that."
    r = await alice.slash(ch, "table cancel")
    assert r.ephemeral and r.response.content == "The table is cancelled."
    closed = ch.history()[-1]
    assert closed.embeds[0].title == "Table cancelled" and custom_ids(closed) == []
    assert world.bot.services.tables.get(ch.id) is None
    r = await alice.slash(ch, "table rules", game="kap-shap")
    assert "a hand of 8 tiles" in r.response.embeds[0].description
    r = await bob.slash(ch, "table new")  # the channel is free again
    assert not r.ephemeral


async def test_a_table_in_a_new_thread(world: World) -> None:
    ch = world.channel
    alice, bob, carol = world.members[:3]
    await carol.slash(ch, "table new")  # the channel's own table does not stop a thread
    r = await alice.slash(ch, "table new", game="kap-shap", thread=True)
    [thread] = ch.threads
    expected = f"{alice.mention} opened a table in {thread.mention}: join it there."
    assert r.response.content == expected
    lobby = thread.last_message
    assert lobby is not None and "1. alice (host)" in message_text(lobby)
    await bob.click(lobby, label="Join")
    await alice.click(lobby, label="Start")
    table = world.bot.services.tables.get(thread.id)
    assert table is not None and table.running
    assert table_of(world).seats[0].name == "carol"  # the channel's table is another one
    r = await alice.slash(thread, "table new", thread=True)
    assert r.ephemeral and "A table thread can only be opened from a text channel" in (
        r.response.content
    )


async def test_unexpected_errors_get_an_incident_id(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(world.bot.services.tables, "join", broken)
    alice, bob = world.members[:2]
    await alice.slash(world.channel, "table new")
    for attempt in ("slash", "button"):
        caplog.clear()
        if attempt == "slash":
            r = await bob.slash(world.channel, "table join")
        else:
            r = await bob.click(world.channel.history()[0], label="Join")
        assert r.ephemeral and r.response.content.startswith("Sorry, something went wrong")
        [record] = [rec for rec in caplog.records if rec.name == "kapshap.incident"]
        incident = record.getMessage().split()[1].rstrip(":")
        assert f"(incident `{incident}`)" in r.response.content
        assert record.exc_info is not None and "disk on fire" in str(record.exc_info[1])
    caplog.clear()  # these incidents were expected


async def test_new_tables_use_the_servers_defaults(world: World) -> None:
    ch = world.channel
    alice = world.members[0]
    await world.admin.slash(ch, "kapadmin config", ante=50, turn_seconds=45)
    await alice.slash(ch, "table new")
    table = table_of(world)
    assert (table.ante, table.turn_seconds) == (50, 45)
    assert "ante **50** chips · turn timer 45 s" in message_text(ch.history()[-1])


async def test_a_manager_ends_a_game_under_way(world: World) -> None:
    ch = world.channel
    alice, bob = world.members[:2]
    await alice.slash(ch, "table new")
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    table = table_of(world)
    r = await alice.slash(ch, "table cancel")
    assert r.response.content.startswith("The game is under way: only a server manager")
    await world.admin.slash(ch, "kapadmin endtable")
    assert table.status is TableStatus.ABORTED
    table_message = next(m for m in ch.history() if m.id == table.message_id)
    text = message_text(table_message)
    assert "ended before it finished" in text and "🛑 Ended by" in text
    assert custom_ids(table_message) == []
    for member in (alice, bob):
        [dm] = member.user.dm_channel.history()
        assert custom_ids(dm) == [] and "ended before it finished" in message_text(dm)
    assert await world.bot.services.chips.balance(GUILD_ID, alice.id) == 1000


async def test_a_twenty_seat_table_fits_discords_limits(world: World) -> None:
    ch = world.channel
    alice = world.members[0]
    await alice.slash(ch, "table new", game="kap-tai-shap", seats=20)
    for _ in range(19):
        await alice.slash(ch, "table addbot", level="beginner")
    r = await alice.slash(ch, "table addbot", level="beginner")
    assert r.response.content == "The table is full (20 seats)."
    await alice.slash(ch, "table start")
    table = table_of(world)
    assert table.state is not None and table.running and table.state.current == 0
    [embed] = next(m for m in ch.history() if m.id == table.message_id).embeds
    assert len(embed) <= 6000 and all(len(f.value or "") <= 1024 for f in embed.fields)
    assert "AI 19 (Beginner) 🤖" in message_text(ch.history()[0])


async def test_add_ai_suggests_the_level_nearest_the_hosts_rating(world: World) -> None:
    """A member rated near the Strong level of Kap Shap: "Add AI" offers it first and says
    why; ``/table addbot`` without a level adds it, and says why too."""
    ch = world.channel
    alice = world.members[0]
    params = ModelParams()
    strong = level_ratings("kap-shap", params)["strong"]
    sigma = 1.2
    mu = params.centre + (strong - params.base) / params.scale + 3 * sigma
    shown = display_rating(mu, sigma, params)
    async with world.bot.services.db.transaction() as tx:
        member = MemberRating(GUILD_ID, "kap-shap", alice.id, 40, 22, 0, 40, mu, sigma, shown)
        await RatingsRepo().put_member(tx, member)
    await alice.slash(ch, "table new", game="kap-shap")
    table = table_of(world)
    lobby = ch.history()[0]
    r = await alice.click(lobby, label="Add AI")
    why = f"Suggested for your rating {shown:,}: Strong."
    assert r.response.content == f"Which level should the computer play?\n{why}"
    [select] = [c for row in r.response.components for c in row["components"]]
    described = {o["value"]: o.get("description") or "" for o in select["options"]}
    assert described["strong"].endswith("(default)")
    assert [v for v, words in described.items() if "(default)" in words] == ["strong"]

    r = await alice.slash(ch, "table addbot")
    assert r.response.content == f"Added a computer player (Strong). {why}"
    assert [s.ai_level for s in table.seats] == [None, "strong"]
