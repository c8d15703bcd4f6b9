"""``/chips balance|daily|give|history`` through real slash commands on simcord."""

from __future__ import annotations

import logging
import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest
import simcord

from bot.app import KapBot
from bot.config import Settings
from bot.services.chips import ChipsService
from bot.storage.chips import LedgerKind
from tests.discord.conftest import GUILD_ID, World

pytestmark = pytest.mark.both_backends

G = GUILD_ID


def chips_of(world: World) -> ChipsService:
    return world.bot.services.chips


async def balances(world: World, *actors: simcord.MemberActor) -> list[int | None]:
    """Balances without opening accounts (``None``: no account)."""
    out = []
    for actor in actors:
        info = await chips_of(world).rank(G, actor.id)
        out.append(None if info is None else info.balance)
    return out


def interaction_id(result: simcord.InteractionResult) -> int:
    """The id of the interaction a response answered (Discord puts it in the message)."""
    assert result.response is not None
    metadata = result.response.message.interaction_metadata
    assert metadata is not None
    return metadata.id


# --- balance ---------------------------------------------------------------------------------


async def test_balance_opens_the_account_with_the_starting_chips_and_a_start_row(
    world: World,
) -> None:
    alice = world.members[0]
    assert await balances(world, alice) == [None]

    r = await alice.slash(world.channel, "chips balance")

    assert r.ephemeral
    assert r.response is not None
    assert r.response.content == "You have **1,000 chips** (rank #1 of 1)."
    [row] = await chips_of(world).history(G, alice.id)
    assert (row.kind, row.delta, row.balance_after) == (LedgerKind.START, 1000, 1000)
    assert row.idem_key == f"start:{G}:{alice.id}"
    # Asking again opens nothing more.
    await alice.slash(world.channel, "chips balance")
    assert len(await chips_of(world).history(G, alice.id)) == 1


async def test_balance_of_another_member_only_looks(world: World) -> None:
    alice, bob = world.members[:2]
    r = await alice.slash(world.channel, "chips balance", member=bob)
    assert r.response is not None and r.ephemeral
    assert r.response.content == (
        "bob has no chips account yet; it will open with 1,000 chips the first time they play."
    )
    assert await balances(world, bob) == [None]

    await bob.slash(world.channel, "chips daily")
    r = await alice.slash(world.channel, "chips balance", member=bob)
    assert r.response is not None
    assert r.response.content.startswith("bob has **1,100 chips** (rank #1 of ")


async def test_balance_of_a_bot_is_refused(world: World) -> None:
    robot = world.guild.add_member(world.env.create_user("robot", bot=True))
    await world.env.settle()
    r = await world.members[0].slash(world.channel, "chips balance", member=robot)
    assert r.ephemeral and r.response is not None
    assert r.response.content == "Bots don't hold chips."


# --- daily -----------------------------------------------------------------------------------


class TestDaily:
    """Crossing a UTC day means advancing the virtual clock by ~24 hours.

    The game cogs run a 1-second ``tasks.loop`` scheduler; simcord settles the bot after every
    tick, and ``advance_time`` has a real-time budget (``settle_timeout``, 5 s), so a day of ticks
    cannot be advanced through the full bot. The daily claim involves no table, so these tests run
    a bot with only the chips and admin cogs, still through real slash commands.
    """

    @pytest.fixture
    async def simcord_bot(self, settings: Settings) -> AsyncIterator[KapBot]:
        bot = KapBot(settings, extensions=("cogs.chips", "cogs.admin"))
        yield bot
        if not bot.is_closed():
            await bot.close()

    async def test_daily_once_per_utc_day(self, world: World) -> None:
        alice = world.members[0]
        assert world.env.now() == datetime(2026, 1, 1, tzinfo=UTC)
        tomorrow = int(datetime(2026, 1, 2, tzinfo=UTC).timestamp())

        r = await alice.slash(world.channel, "chips daily")
        assert r.ephemeral and r.response is not None
        assert r.response.content == (
            f"🎁 You claimed **100 chips**. Balance: 1,100 chips. Next claim <t:{tomorrow}:R>."
        )

        await world.env.advance_time(23 * 3600)  # 23:00 the same UTC day
        r = await alice.slash(world.channel, "chips daily")
        assert r.ephemeral and r.response is not None
        assert r.response.content == (
            "You already claimed your daily chips today. "
            f"Next claim <t:{tomorrow}:R> (<t:{tomorrow}:f>)."
        )
        assert await balances(world, alice) == [1100]

        await world.env.advance_time(3600)  # midnight UTC: a new day
        r = await alice.slash(world.channel, "chips daily")
        assert r.response is not None and r.response.content.startswith(
            "🎁 You claimed **100 chips**"
        )
        assert await balances(world, alice) == [1200]
        kinds = [e.kind for e in await chips_of(world).history(G, alice.id)]
        assert kinds == [LedgerKind.DAILY, LedgerKind.DAILY, LedgerKind.START]


# --- give ------------------------------------------------------------------------------------


async def test_give_moves_chips_and_says_both_balances(world: World) -> None:
    alice, bob = world.members[:2]
    r = await alice.slash(world.channel, "chips give", member=bob, amount=250)

    assert r.response is not None and not r.ephemeral  # public: the recipient should see it
    assert r.response.content == (
        f"💸 alice gave **250 chips** to <@{bob.id}>.\n"
        "alice now has 750 chips; bob now has 1,250 chips."
    )
    assert await balances(world, alice, bob) == [750, 1250]
    key = f"give:interaction:{interaction_id(r)}"
    [out, _start] = await chips_of(world).history(G, alice.id)
    [into, _start] = await chips_of(world).history(G, bob.id)
    assert (out.kind, out.delta, out.idem_key) == (LedgerKind.GIVE_OUT, -250, key)
    assert (into.kind, into.delta, into.idem_key) == (LedgerKind.GIVE_IN, 250, f"{key}:in")
    assert (await chips_of(world).total_supply_check(G)).ok


async def test_the_same_interaction_repeated_gives_only_once(world: World) -> None:
    alice, bob = world.members[:2]
    r = await alice.slash(world.channel, "chips give", member=bob, amount=100)
    assert await balances(world, alice, bob) == [900, 1100]

    # Discord redelivering the interaction (or a retry after a timeout) reaches the service with
    # the same key: the original gift comes back and no chip moves.
    again = await chips_of(world).give(G, alice.id, bob.id, 100, f"interaction:{interaction_id(r)}")
    assert (again.from_balance, again.to_balance) == (900, 1100)
    assert await balances(world, alice, bob) == [900, 1100]
    assert len(await chips_of(world).history(G, alice.id)) == 2

    # A new interaction is a new gift.
    await alice.slash(world.channel, "chips give", member=bob, amount=100)
    assert await balances(world, alice, bob) == [800, 1200]


async def test_refused_gifts_change_nothing(world: World) -> None:
    alice, bob = world.members[:2]
    robot = world.guild.add_member(world.env.create_user("robot", bot=True))
    await world.env.settle()
    await alice.slash(world.channel, "chips balance")
    await bob.slash(world.channel, "chips balance")

    async def ledger_sizes() -> tuple[int, int]:
        return (
            len(await chips_of(world).history(G, alice.id, limit=100)),
            len(await chips_of(world).history(G, bob.id, limit=100)),
        )

    before = await ledger_sizes()
    refusals = [
        (alice, "You can't give chips to yourself."),
        (robot, "Bots don't hold chips: give them to a member."),
    ]
    for target, message in refusals:
        r = await alice.slash(world.channel, "chips give", member=target, amount=10)
        assert r.ephemeral and r.response is not None
        assert r.response.content == message

    r = await alice.slash(world.channel, "chips give", member=bob, amount=1001)
    assert r.ephemeral and r.response is not None
    assert r.response.content == "You have 1,000 chips, not enough to give 1,001."

    # Zero, negative and huge amounts never reach the bot: the option's range refuses them.
    for amount in (0, -5, 10**12 + 1):
        with pytest.raises(simcord.OptionError):
            await alice.slash(world.channel, "chips give", member=bob, amount=amount)

    assert await balances(world, alice, bob, robot) == [1000, 1000, None]
    assert await ledger_sizes() == before


# --- history ---------------------------------------------------------------------------------


async def test_history_lists_recent_entries_privately(world: World) -> None:
    alice, bob = world.members[:2]
    await alice.slash(world.channel, "chips daily")
    await alice.slash(world.channel, "chips give", member=bob, amount=30)
    await bob.slash(world.channel, "chips give", member=alice, amount=5)
    # An ante and its refund carry the game id.
    chips = chips_of(world)
    await chips.escrow_antes("g-42", G, {alice.id: 20, bob.id: 20})
    await chips.refund("g-42")

    r = await alice.slash(world.channel, "chips history")

    assert r.ephemeral and r.response is not None
    [embed] = r.response.embeds
    assert embed.title == "Your chip history"
    lines = (embed.description or "").splitlines()
    day = int(datetime(2026, 1, 1, tzinfo=UTC).timestamp())
    assert lines == [
        f"<t:{day}:d> `+20` **Ante refunded** · game `g-42` → 1,075",
        f"<t:{day}:d> `-20` **Ante** · game `g-42` → 1,055",
        f"<t:{day}:d> `+5` **Gift from <@{bob.id}>** → 1,075",
        f"<t:{day}:d> `-30` **Gift to <@{bob.id}>** → 1,070",
        f"<t:{day}:d> `+100` **Daily claim** → 1,100",
        f"<t:{day}:d> `+1,000` **Starting chips** → 1,000",
    ]
    assert embed.footer.text == "Balance: 1,075 chips · last 6 entries, newest first"


async def test_history_shows_at_most_fifteen_entries(world: World) -> None:
    alice, bob = world.members[:2]
    for _ in range(20):
        await alice.slash(world.channel, "chips give", member=bob, amount=1)
    r = await alice.slash(world.channel, "chips history")
    assert r.response is not None
    [embed] = r.response.embeds
    lines = (embed.description or "").splitlines()
    assert len(lines) == 15
    assert all("**Gift to" in line for line in lines)
    assert lines[0].endswith("→ 980")


# --- errors ----------------------------------------------------------------------------------


async def test_an_unreachable_database_is_a_short_try_again_not_an_incident(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from bot.storage.errors import DatabaseUnavailable

    async def away(*_args: object) -> int:
        raise DatabaseUnavailable("the database postgresql://bot:***@db/kap is unavailable")

    monkeypatch.setattr(chips_of(world), "balance", away)
    with caplog.at_level(logging.WARNING):
        r = await world.members[0].slash(world.channel, "chips balance")

    assert r.ephemeral and r.response is not None
    assert r.response.content == "The game is not available right now; try again in a moment."
    assert not any(record.levelno >= logging.ERROR for record in caplog.records)
    assert any("unavailable" in record.getMessage() for record in caplog.records)


async def test_an_unexpected_error_is_logged_with_an_incident_id(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(*_args: object) -> int:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(chips_of(world), "balance", broken)
    with caplog.at_level(logging.ERROR):
        r = await world.members[0].slash(world.channel, "chips balance")

    assert r.ephemeral and r.response is not None
    # The wording belongs to cogs.common (shared by every cog); the id is 8 hex digits.
    match = re.search(r"incident\b\D*?`([0-9a-f]{8})`", r.response.content)
    assert match is not None, r.response.content
    assert "disk on fire" not in r.response.content  # no internals shown to the member
    [record] = [rec for rec in caplog.records if match[1] in rec.getMessage()]
    assert "/chips balance failed" in record.getMessage()
    assert record.exc_info is not None and "disk on fire" in str(record.exc_info[1])
    assert await balances(world, world.members[0]) == [None]  # nothing was done
