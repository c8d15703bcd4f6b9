"""Tsung Shap settled by ``rate × point difference`` through the bot: the lobby shows the
rate, no ante is taken, the loser pays the winner at the end; a computer seat is refused."""

from __future__ import annotations

from bot.engine import Deal, Settlement
from bot.services.tables import TableStatus
from tests.discord.conftest import GUILD_ID, World
from tests.discord.tables_kit import (
    add_ai,
    message_text,
    no_incidents,  # noqa: F401  (autouse: no error logged)
    table_of,
)
from tests.discord.test_tsung_shap import deal, finish_by_placing  # noqa: F401  (fixture)


async def test_the_loser_pays_the_winner_per_point(world: World, deal: Deal) -> None:  # noqa: F811
    ch = world.channel
    alice, bob = world.members[:2]
    chips = world.bot.services.chips
    r = await alice.slash(ch, "table new", game="tsung-shap", settlement="difference", rate=2)
    assert not r.ephemeral
    lobby_text = message_text(r.response.message)
    assert "settled at **2** chips per point" in lobby_text and "ante" not in lobby_text
    await bob.slash(ch, "table join")
    r = await alice.slash(ch, "table rules")
    assert "the loser pays the winner 2 chips per point" in message_text(r.response.message)
    await alice.slash(ch, "table start")
    table = table_of(world)
    assert table.running and table.state is not None
    assert table.state.rules.settlement is Settlement.DIFFERENCE
    assert await chips.balance(GUILD_ID, alice.id) == 1000  # no ante
    assert await chips.balance(GUILD_ID, bob.id) == 1000

    # alice sweeps the first row (40 points), then everything is placed.
    await alice.slash(ch, "draw")
    await bob.slash(ch, "draw")
    await alice.slash(ch, "draw")
    r = await alice.slash(ch, "take", tile="capture triplet ends")
    assert "You swept the row" in r.response.content
    await finish_by_placing(world, table)
    result = table.state.result
    assert result is not None and result.winner is not None
    assert table.status is TableStatus.FINISHED
    winner, loser = (alice, bob) if result.winner == 0 else (bob, alice)
    owed = 2 * result.difference
    assert owed > 0
    reveal = ch.history()[-1]
    names = {seat.user_id: seat.name for seat in table.seats}
    assert f"{names[loser.id]} pays {names[winner.id]} {owed} chips" in reveal.content
    assert await chips.balance(GUILD_ID, winner.id) == 1000 + owed
    assert await chips.balance(GUILD_ID, loser.id) == 1000 - owed
    assert (await chips.total_supply_check(GUILD_ID)).ok


async def test_a_computer_seat_is_refused(world: World, deal: Deal) -> None:  # noqa: F811
    ch = world.channel
    alice = world.members[0]
    r = await alice.slash(ch, "table new", game="tsung-shap", settlement="difference")
    await add_ai(alice, r.response.message)
    r = await alice.slash(ch, "table start")
    assert r.ephemeral and "needs two members" in r.response.content
    assert table_of(world).status is TableStatus.LOBBY


async def test_a_draw_pays_nothing(world: World, deal: Deal) -> None:  # noqa: F811
    ch = world.channel
    alice, bob = world.members[:2]
    chips = world.bot.services.chips
    await alice.slash(ch, "table new", game="tsung-shap", settlement="difference", rate=5)
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    table = table_of(world)
    await finish_by_placing(world, table)  # nothing captured: 0 to 0
    assert table.status is TableStatus.DRAWN
    assert "A draw: nobody pays." in ch.history()[-1].content
    assert await chips.balance(GUILD_ID, alice.id) == 1000
    assert await chips.balance(GUILD_ID, bob.id) == 1000
