"""``/kapadmin grant|config|endtable|sync`` through real slash commands on simcord."""

from __future__ import annotations

import dataclasses
import re

import discord
import pytest
import simcord

from bot.services.tables import Table
from bot.storage.chips import LedgerKind
from bot.storage.games import GameStatus
from cogs.admin import TABLE_ENDED_EVENT
from tests.discord.conftest import GUILD_ID, World

G = GUILD_ID
ADMIN_COMMANDS = ("kapadmin grant", "kapadmin config", "kapadmin endtable", "kapadmin sync")


async def balance(world: World, actor: simcord.MemberActor) -> int | None:
    info = await world.bot.services.chips.rank(G, actor.id)
    return None if info is None else info.balance


def content(result: simcord.InteractionResult) -> str:
    assert result.response is not None
    return result.response.content


# --- who may use it --------------------------------------------------------------------------


async def test_members_without_manage_server_cannot_see_kapadmin(world: World) -> None:
    alice = world.members[0]
    assert set(ADMIN_COMMANDS) <= set(world.admin.available_commands(world.channel))
    assert not set(ADMIN_COMMANDS) & set(alice.available_commands(world.channel))
    for command in ADMIN_COMMANDS:
        with pytest.raises(simcord.SetupError, match="not visible to this user"):
            await alice.slash(world.channel, command)


async def test_kapadmin_still_needs_manage_server_when_shown_to_others(world: World) -> None:
    """A server may show the command to anyone in its integration settings; the bot still checks."""
    alice, bob = world.members[:2]
    commands = await world.bot.tree.fetch_commands(guild=discord.Object(G))
    [kapadmin] = [c for c in commands if c.name == "kapadmin"]
    world.guild.set_command_permissions(kapadmin.id, {alice: True})

    r = await alice.slash(world.channel, "kapadmin grant", member=bob, amount=500)

    assert r.ephemeral
    assert content(r) == "You need the Manage Server permission to use `/kapadmin`."
    assert await balance(world, bob) is None


# --- grant -----------------------------------------------------------------------------------


async def test_grant_adds_and_removes_chips_recorded_with_the_admin(world: World) -> None:
    bob = world.members[1]
    r = await world.admin.slash(world.channel, "kapadmin grant", member=bob, amount=500)

    assert not r.ephemeral  # public: minted chips are visible to the server
    assert content(r) == (
        f"🏦 admin granted **500 chips** to <@{bob.id}>. bob now has 1,500 chips."
    )
    r = await world.admin.slash(world.channel, "kapadmin grant", member=bob, amount=-1500)
    assert content(r) == (
        f"🏦 admin removed **1,500 chips** from <@{bob.id}>. bob now has 0 chips."
    )
    assert await balance(world, bob) == 0

    removal, grant, start = await world.bot.services.chips.history(G, bob.id)
    assert (start.kind, grant.kind, removal.kind) == (LedgerKind.START,) + (LedgerKind.GRANT,) * 2
    assert (grant.delta, grant.actor_id) == (500, world.admin.id)
    assert (removal.delta, removal.actor_id) == (-1500, world.admin.id)
    assert removal.idem_key.startswith("grant:interaction:")
    assert (await world.bot.services.chips.total_supply_check(G)).ok


async def test_grant_never_takes_a_balance_below_zero(world: World) -> None:
    bob = world.members[1]
    await bob.slash(world.channel, "chips balance")

    r = await world.admin.slash(world.channel, "kapadmin grant", member=bob, amount=-1001)

    assert r.ephemeral
    assert content(r) == f"<@{bob.id}> has only 1,000 chips; can't remove 1,001."
    assert await balance(world, bob) == 1000
    assert len(await world.bot.services.chips.history(G, bob.id)) == 1


async def test_grant_refuses_zero_and_bots(world: World) -> None:
    bob = world.members[1]
    robot = world.guild.add_member(world.env.create_user("robot", bot=True))
    await world.env.settle()

    r = await world.admin.slash(world.channel, "kapadmin grant", member=bob, amount=0)
    assert r.ephemeral and "Grant a whole number of chips from 1" in content(r)
    r = await world.admin.slash(world.channel, "kapadmin grant", member=robot, amount=10)
    assert r.ephemeral and content(r) == "Bots don't hold chips."
    with pytest.raises(simcord.OptionError):
        await world.admin.slash(world.channel, "kapadmin grant", member=bob, amount=10**12 + 1)
    assert await balance(world, bob) is None and await balance(world, robot) is None


# --- config ----------------------------------------------------------------------------------


async def test_config_without_options_shows_the_current_values(world: World) -> None:
    r = await world.admin.slash(world.channel, "kapadmin config")
    assert r.ephemeral
    assert content(r).splitlines()[:5] == [
        "Server settings:",
        "• **Ante**: 10 chips (bot default)",
        "• **Starting chips**: 1,000 chips (bot default)",
        "• **Daily amount**: 100 chips (bot default)",
        "• **Turn timer**: 2 min (bot default)",
    ]


async def test_config_changes_the_defaults_of_later_accounts_and_tables(world: World) -> None:
    alice, bob, carol = world.members[:3]
    await alice.slash(world.channel, "chips balance")  # an account opened before the change

    r = await world.admin.slash(
        world.channel, "kapadmin config", starting_chips=250, ante=25, turn_seconds=60
    )

    assert r.ephemeral
    assert content(r).splitlines()[:5] == [
        "Server settings updated:",
        "• **Ante**: 25 chips",
        "• **Starting chips**: 250 chips",
        "• **Daily amount**: 100 chips (bot default)",
        "• **Turn timer**: 1 min",
    ]
    assert "250 chips" in content(await bob.slash(world.channel, "chips balance"))
    assert await balance(world, alice) == 1000  # existing balances are untouched
    r = await alice.slash(world.channel, "chips balance", member=carol)
    assert "it will open with 250 chips" in content(r)

    # What /table new does for the server's defaults (see GuildSettingsService.table_defaults).
    services = world.bot.services
    defaults = await services.guild_settings.table_defaults(G, services.tables.defaults)
    assert (defaults.ante, defaults.turn_seconds) == (25, 60)
    table = await services.tables.open_table(
        guild_id=G,
        channel_id=world.channel.id,
        host_id=alice.id,
        host_name="alice",
        ante=defaults.ante,
        turn_seconds=defaults.turn_seconds,
    )
    await services.tables.join(world.channel.id, bob.id, "bob")
    await services.tables.start(world.channel.id, alice.id)
    pot = await services.chips.pot(table.id)
    assert pot is not None and dict(pot.antes) == {alice.id: 25, bob.id: 25}


async def test_config_daily_amount_zero_turns_daily_off_and_reset_restores(world: World) -> None:
    alice = world.members[0]
    r = await world.admin.slash(world.channel, "kapadmin config", daily_amount=0)
    assert "• **Daily amount**: off" in content(r)
    r = await alice.slash(world.channel, "chips daily")
    assert r.ephemeral and content(r) == "Daily chips are turned off in this server."

    r = await world.admin.slash(world.channel, "kapadmin config", reset=True)
    assert "• **Daily amount**: 100 chips (bot default)" in content(r)
    assert "You claimed **100 chips**" in content(await alice.slash(world.channel, "chips daily"))


async def test_config_refuses_out_of_range_values(world: World) -> None:
    for option, bad in (
        ("turn_seconds", 9),
        ("turn_seconds", 86_401),
        ("ante", -1),
        ("ante", 1_000_000_001),
        ("starting_chips", -1),
        ("daily_amount", 10**12 + 1),
    ):
        with pytest.raises(simcord.OptionError):
            await world.admin.slash(world.channel, "kapadmin config", **{option: bad})
    settings = await world.bot.services.guild_settings.get(G)
    assert settings.overridden == frozenset()


# --- endtable --------------------------------------------------------------------------------


async def test_endtable_aborts_a_running_game_and_refunds_every_ante(world: World) -> None:
    alice, bob = world.members[:2]
    services = world.bot.services
    ended: list[tuple[Table, int]] = []

    async def on_table_ended(table: Table, admin_id: int) -> None:
        ended.append((table, admin_id))

    world.bot.add_listener(on_table_ended, f"on_{TABLE_ENDED_EVENT}")
    table = await services.tables.open_table(
        guild_id=G, channel_id=world.channel.id, host_id=alice.id, host_name="alice"
    )
    await services.tables.join(world.channel.id, bob.id, "bob")
    await services.tables.start(world.channel.id, alice.id)
    assert services.tables.get(world.channel.id) is table and table.running
    assert (await balance(world, alice), await balance(world, bob)) == (990, 990)

    r = await world.admin.slash(world.channel, "kapadmin endtable")

    assert not r.ephemeral  # the players see why their game stopped
    assert content(r) == (
        f"🛑 admin ended the table `{table.id}`. Every ante was refunded: "
        f"<@{alice.id}> 10 chips, <@{bob.id}> 10 chips."
    )
    assert (await balance(world, alice), await balance(world, bob)) == (1000, 1000)
    assert services.tables.get(world.channel.id) is None
    assert table.status is GameStatus.ABORTED
    totals = await services.chips.total_supply_check()
    assert totals.ok and totals.held == 0, totals
    refunds = [e for e in await services.chips.history(G, alice.id) if e.game_id == table.id]
    assert [(e.kind, e.delta) for e in refunds] == [(LedgerKind.REFUND, 10), (LedgerKind.ANTE, -10)]
    assert ended == [(table, world.admin.id)]

    r = await world.admin.slash(world.channel, "kapadmin endtable")
    assert r.ephemeral and content(r) == "There is no table in this channel."


async def test_endtable_closes_a_lobby_without_antes(world: World) -> None:
    alice = world.members[0]
    services = world.bot.services
    table = await services.tables.open_table(
        guild_id=G, channel_id=world.channel.id, host_id=alice.id, host_name="alice"
    )
    r = await world.admin.slash(world.channel, "kapadmin endtable")
    assert content(r) == f"🛑 admin ended the table `{table.id}`. No ante had been taken."
    assert services.tables.get(world.channel.id) is None


# --- sync ------------------------------------------------------------------------------------


def command_puts(world: World, start: int) -> list[str]:
    return [
        e.path
        for e in world.env.http_requests[start:]
        if e.method == "PUT" and e.path.endswith("/commands")
    ]


async def test_a_manager_syncs_this_server_but_not_globally(world: World) -> None:
    app_id = world.bot.application_id
    start = len(world.env.http_requests)

    r = await world.admin.slash(world.channel, "kapadmin sync")
    # The count grows with the other cogs' commands: only its shape is checked.
    assert r.ephemeral and re.fullmatch(r"Synced \d+ commands to this server\.", content(r))
    assert command_puts(world, start) == [f"/applications/{app_id}/guilds/{G}/commands"]

    start = len(world.env.http_requests)
    r = await world.admin.slash(world.channel, "kapadmin sync", scope="global")
    assert r.ephemeral and content(r).startswith("Only the bot's owners can sync commands globally")
    assert command_puts(world, start) == []


async def test_an_owner_syncs_globally(world: World) -> None:
    bot = world.bot
    # Owners come from KAPSHAP_OWNER_IDS (or Discord's application owner, here the bot itself).
    bot.settings = dataclasses.replace(bot.settings, owner_ids=frozenset({world.admin.id}))
    start = len(world.env.http_requests)

    r = await world.admin.slash(world.channel, "kapadmin sync", scope="global")

    assert r.ephemeral and re.match(r"Synced \d+ global commands for every server\.", content(r))
    assert command_puts(world, start) == [f"/applications/{bot.application_id}/commands"]


async def test_clear_removes_this_servers_copies(world: World) -> None:
    r = await world.admin.slash(world.channel, "kapadmin sync", scope="clear")
    assert content(r) == "Removed this server's copies of the commands; the global ones remain."
    # Nothing was ever synced globally in this test, so nothing is left to use here.
    assert world.admin.available_commands(world.channel) == ()
