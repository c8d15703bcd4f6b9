"""Absent players: a timed-out turn is played passively, never a win; after the server's number
of timeouts in a row the player is out (two seats: his opponent wins the pot; more: his seat
folds); ``/table resign`` does the same at once; a lobby nobody starts closes by itself."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.app import KapBot
from bot.engine import Game
from bot.services.chips import ChipsService
from bot.services.tables import TableStatus
from tests.discord.conftest import GUILD_ID, World
from tests.discord.tables_kit import (
    custom_ids,
    exact_deal,
    hand_of,
    last_dm,
    message_text,
    no_incidents,  # noqa: F401  (autouse: no error logged)
    resign,
    table_of,
)

# alice is dealt a winning hand: eye 6-6 6-6, 4-4+1-1, 3-1+3-3, 6-5+5-4.
WINNING = "6-6 6-6 4-4 1-1 3-1 3-3 6-5 5-4"
BOB = "5-5 6-1 4-1 3-2 6-2 6-3 4-2"
WALL = "2-2 6-4 5-1 5-1 6-1 2-1 5-3 5-2 4-3 3-3 2-2 1-1 4-4 5-5 6-4"


@pytest.fixture
def winning_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    exact_deal(monkeypatch, Game.KAP_SHAP, [WINNING, BOB], WALL, dice=(1, 1, 2, 2))


async def start_two(world: World, timer: int = 30) -> None:
    ch = world.channel
    alice, bob = world.members[:2]
    await alice.slash(ch, "table new", timer=timer)
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")


async def test_an_absent_player_never_declares_and_forfeits_after_three_timeouts(
    world: World, winning_deal: None
) -> None:
    env, ch = world.env, world.channel
    alice, bob = world.members[:2]
    chips = world.bot.services.chips
    await start_two(world)
    table = table_of(world)
    assert table.state is not None and "Declare" in message_text(last_dm(alice))
    lines = len(ch.history())

    # alice is away: her turn is played passively, she does not declare her winning hand.
    await env.advance_time(31)
    assert table.running and table.state is not None and table.state.current == 1
    assert len(hand_of(world, alice)) == 7 and table.state.result is None
    log = await world.bot.services.games.actions(table.id)
    # Discard, the first player's extra draw, discard: never the declaration she could make.
    assert [(e.seat, e.notation.split()[0]) for e in log] == [
        (0, "discard"),
        (0, "draw"),
        (0, "discard"),
    ]
    await env.advance_time(1)
    assert "alice ran out of time (1/3)" in message_text(ch.history()[0])
    assert len(ch.history()) == lines  # not a new channel line

    # bob is away too for a turn; then alice again (2/3), bob (2/3), alice (3/3): she is out.
    for _ in range(3):
        await env.advance_time(31)
    assert table.running and table.timeouts == {0: 2, 1: 2}
    await env.advance_time(31)
    assert table.status is TableStatus.FINISHED and table.winner_seat == 1
    end = ch.history()[-1]
    assert "🏳️ alice timed out too many turns in a row: bob wins." in end.content
    assert "💰 bob takes the pot: 20 chips." in end.content
    assert [label for label in (c.split(":")[-1] for c in custom_ids(end))] == ["rematch", "rules"]
    assert await chips.balance(GUILD_ID, bob.id) == 1010
    assert await chips.balance(GUILD_ID, alice.id) == 990
    assert (await chips.total_supply_check(GUILD_ID)).ok
    log = await world.bot.services.games.actions(table.id)
    assert "declare" not in [e.notation for e in log]
    # Every DM tells the truth: the game is over and how; no button is left.
    for member in (alice, bob):
        [dm] = member.user.dm_channel.history()
        assert "🏳️ alice timed out too many turns in a row: bob wins." in (message_text(dm))
        assert custom_ids(dm) == [] and dm.content == ""
    # The table message: over, one Rematch button only on the end message.
    await env.advance_time(1)
    assert custom_ids(ch.history()[0]) == [f"kap:{table.id}:-:rules"]


async def test_playing_again_resets_the_count(world: World, winning_deal: None) -> None:
    env, ch = world.env, world.channel
    alice, bob = world.members[:2]
    await start_two(world)
    table = table_of(world)
    await env.advance_time(31)  # alice 1/3
    await bob.slash(ch, "draw")
    legal = [a for a in table.legal() if str(a).startswith("discard")]
    await bob.slash(ch, "discard", tile=str(legal[0]).split()[1])
    assert table.timeouts.get(1, 0) == 0
    r = await alice.slash(ch, "draw")
    assert r.ephemeral and table.timeouts[0] == 0  # she is back: her count starts again


async def test_resign_at_two_seats_gives_the_pot_to_the_opponent(
    world: World, winning_deal: None
) -> None:
    ch = world.channel
    alice, bob, carol = world.members[:3]
    chips = world.bot.services.chips
    await start_two(world)
    table = table_of(world)
    r = await carol.slash(ch, "table resign")
    assert r.ephemeral and r.response.content == "You are not playing at this table."
    r = await resign(bob, ch)
    assert r.response.content == "🏳️ You resigned: alice wins."
    assert table.status is TableStatus.FINISHED
    assert "alice takes the pot: 20 chips" in ch.history()[-1].content
    assert await chips.balance(GUILD_ID, alice.id) == 1010
    r = await bob.slash(ch, "table resign")
    assert r.ephemeral and r.response.content == "This game is over."


async def test_at_a_larger_table_a_seat_folds_and_its_ante_stays(world: World) -> None:
    env, ch = world.env, world.channel
    alice, bob, carol = world.members[:3]
    chips = world.bot.services.chips
    r = await world.admin.slash(ch, "kapadmin config", timeouts=1)
    assert "Timeouts in a row before a player is out**: 1" in r.response.content
    await alice.slash(ch, "table new", game="kap-tai-shap", seats=3, timer=30)
    await bob.slash(ch, "table join")
    await carol.slash(ch, "table join")
    await alice.slash(ch, "table start")
    table = table_of(world)
    assert table.state is not None
    first = table.seats[table.state.current].name
    await env.advance_time(31)
    # The first player timed out once (the server's limit): his seat folds, the game goes on.
    assert table.running and list(table.out.values()) == ["folded"]
    folded = next(iter(table.out))
    assert table.seats[folded].name == first
    await env.advance_time(1)
    assert f"{first} timed out too many turns in a row: the seat folds" in message_text(
        ch.history()[0]
    )
    members = {m.name: m for m in (alice, bob, carol)}
    assert "You are out of this game" in message_text(last_dm(members[first]))
    assert custom_ids(last_dm(members[first])) == []
    # Of the two left, one resigns: the last one wins the whole pot, the folded ante included.
    left = [m for name, m in members.items() if name != first]
    r = await resign(left[0], ch)
    assert r.response.content == f"🏳️ You resigned: {left[1].name} wins."
    assert table.status is TableStatus.FINISHED
    assert f"💰 {left[1].name} takes the pot: 30 chips." in ch.history()[-1].content
    assert await chips.balance(GUILD_ID, left[1].id) == 1020
    assert (await chips.total_supply_check(GUILD_ID)).ok


async def test_a_lobby_nobody_starts_closes_by_itself(world: World) -> None:
    env, ch = world.env, world.channel
    alice, bob = world.members[:2]
    await alice.slash(ch, "table new")
    lobby = ch.history()[0]
    closes = int(env.now().timestamp()) + 15 * 60
    assert f"Closes <t:{closes}:R> unless started." in message_text(lobby)
    await env.advance_time(14 * 60)
    assert table_of(world).status is TableStatus.LOBBY
    await env.advance_time(61)
    assert world.bot.services.tables.get(ch.id) is None
    closed = ch.history()[0]
    assert closed.id == lobby.id and closed.embeds[0].title == "Table closed"
    assert custom_ids(closed) == []  # the buttons are gone
    # The channel is free again; a server may choose a shorter time.
    await world.admin.slash(ch, "kapadmin config", lobby_minutes=2)
    await bob.slash(ch, "table new")
    await env.advance_time(121)
    assert world.bot.services.tables.get(ch.id) is None


async def test_a_crash_inside_a_forfeit_loses_nothing_the_end_and_payout_commit_together(
    world: World, winning_deal: None, restart: Callable[[], Awaitable[KapBot]]
) -> None:
    ch = world.channel
    alice, bob = world.members[:2]
    await start_two(world)
    table = table_of(world)

    async def crash(self: ChipsService, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the process dies while the forfeited game's pot is paid")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ChipsService, "payout", crash)
        with pytest.raises(RuntimeError):
            await world.bot.services.tables.resign(ch.id, bob.id)
    chips = world.bot.services.chips
    pot = await chips.pot(table.id)
    assert pot is not None and pot.total == 20 and await chips.open_pots() != []

    # The end rolled back with the payout: after a restart the game is still running, its pot
    # held, and resigning again ends and pays it at once.
    bot = await restart()
    restored = bot.services.tables.get(ch.id)
    assert restored is not None and restored.id == table.id and restored.running
    await bot.services.tables.resign(ch.id, bob.id)
    assert await bot.services.chips.open_pots() == []
    assert await bot.services.chips.balance(GUILD_ID, alice.id) == 1010
    assert (await bot.services.chips.total_supply_check(GUILD_ID)).ok
