"""``/leaderboard``: pages, ◀ ▶ buttons, the caller's rank off-page, clicks by other members."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord
import simcord

from bot.app import KapBot
from bot.storage.chips import ChipsRepo
from cogs.chips import LeaderboardButton
from tests.discord.conftest import GUILD_ID, World

G = GUILD_ID
RICH = 25  # accounts richer than every member of the world
FAKE_BASE = 10**17  # ids of those accounts (they need no Discord member to be on the board)


async def seed_rich_accounts(world: World) -> None:
    """25 accounts with 1,025 .. 1,001 chips, straight through the chips service (cheap)."""
    chips = world.bot.services.chips
    for i in range(RICH):
        user = FAKE_BASE + i
        await chips.balance(G, user)
        await chips.grant(G, 1, user, RICH - i, f"seed:{user}")


def buttons(message: simcord.ResponseMessage | discord.Message) -> dict[str, dict[str, Any]]:
    """The message's buttons by label, as raw component dicts."""
    rows: list[dict[str, Any]] = (
        message.components
        if isinstance(message, simcord.ResponseMessage)
        else [dict(row.to_dict()) for row in message.components]
    )
    return {str(c["label"]): c for row in rows for c in row["components"]}


def board(embed: discord.Embed) -> list[str]:
    return (embed.description or "").splitlines()


async def test_pages_buttons_and_the_callers_rank_off_page(world: World) -> None:
    alice = world.members[0]
    await seed_rich_accounts(world)

    r = await alice.slash(world.channel, "leaderboard")

    assert r.response is not None and not r.ephemeral  # a public board
    [embed] = r.response.embeds
    lines = board(embed)
    assert len(lines) == 10
    assert lines[0] == f"**#1** <@{FAKE_BASE}> — 1,025 chips"
    assert lines[9] == f"**#10** <@{FAKE_BASE + 9}> — 1,016 chips"
    assert embed.author.name == "Page 1 of 3"
    # alice (1,000 chips, account opened by this command) is 26th of 26: not on the page.
    assert embed.footer.text == "alice · Your rank: #26 of 26 (1,000 chips)"
    assert f"<@{alice.id}>" not in (embed.description or "")
    assert buttons(r.response)["◀"].get("disabled") is True
    assert not buttons(r.response)["▶"].get("disabled")
    assert buttons(r.response)["▶"]["custom_id"] == f"lb:{G}:10:{alice.id}"

    page2 = await alice.click(r.response, label="▶")
    assert page2.response is not None and page2.response.id == r.response.id  # edited in place
    [embed] = page2.response.embeds
    assert board(embed)[0] == f"**#11** <@{FAKE_BASE + 10}> — 1,015 chips"
    assert embed.author.name == "Page 2 of 3"
    assert not buttons(page2.response)["◀"].get("disabled")

    page3 = await alice.click(page2.response, label="▶")
    assert page3.response is not None
    [embed] = page3.response.embeds
    lines = board(embed)
    assert embed.author.name == "Page 3 of 3"
    assert lines[-1] == f"**#26** <@{alice.id}> — 1,000 chips ← you"
    assert len(lines) == 6
    assert buttons(page3.response)["▶"].get("disabled") is True

    back = await alice.click(page3.response, label="◀")
    assert back.response is not None
    assert back.response.embeds[0].author.name == "Page 2 of 3"
    assert world.channel.last_message is not None
    assert world.channel.last_message.id == r.response.id  # still one board message


async def test_a_click_by_another_member_shows_his_own_rank_privately(world: World) -> None:
    alice, bob = world.members[:2]
    await seed_rich_accounts(world)
    await bob.slash(world.channel, "chips daily")  # bob: 1,100 chips, rank 1
    r = await alice.slash(world.channel, "leaderboard")
    assert r.response is not None
    shared = r.response.id

    mine = await bob.click(r.response, label="▶")

    # bob gets his own ephemeral copy of page 2, with his rank and his own buttons...
    assert mine.ephemeral and mine.response is not None and mine.response.id != shared
    [embed] = mine.response.embeds
    assert embed.author.name == "Page 2 of 3"
    assert embed.footer.text == "Your rank: #1 of 27 (1,100 chips)"
    assert buttons(mine.response)["▶"]["custom_id"] == f"lb:{G}:20:{bob.id}"
    # ...and alice's public board is untouched.
    public = world.channel.history()[-1]
    assert public.id == shared
    assert public.embeds[0].author.name == "Page 1 of 3"
    assert public.embeds[0].footer.text == "alice · Your rank: #27 of 27 (1,000 chips)"

    # bob pages his copy in place.
    more = await bob.click(mine.response, label="▶")
    assert more.response is not None and more.response.id == mine.response.id
    assert more.response.embeds[0].author.name == "Page 3 of 3"
    assert more.response.embeds[0].footer.text == "Your rank: #1 of 27 (1,100 chips)"


async def test_a_one_page_board_has_both_buttons_disabled(world: World) -> None:
    alice = world.members[0]
    r = await alice.slash(world.channel, "leaderboard")
    assert r.response is not None
    [embed] = r.response.embeds
    assert board(embed) == [f"**#1** <@{alice.id}> — 1,000 chips ← you"]
    assert embed.author.name == "Page 1 of 1"
    assert buttons(r.response)["◀"].get("disabled") is True
    assert buttons(r.response)["▶"].get("disabled") is True


async def test_buttons_keep_working_after_a_restart(
    world: World, restart: Callable[[], Awaitable[KapBot]]
) -> None:
    alice = world.members[0]
    await seed_rich_accounts(world)
    r = await alice.slash(world.channel, "leaderboard")
    assert r.response is not None
    await restart()

    old = world.channel.history()[-1]
    page2 = await alice.click(old, label="▶")

    assert page2.acknowledged and page2.response is not None
    assert page2.response.id == r.response.id
    assert page2.response.embeds[0].author.name == "Page 2 of 3"


async def post_button(world: World, guild_id: int, offset: int, owner_id: int) -> discord.Message:
    """A bot message carrying one leaderboard button with a chosen custom id."""
    view = discord.ui.View(timeout=None)
    view.add_item(LeaderboardButton(guild_id, offset, owner_id, label="◀", disabled=False))
    channel = world.bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    await channel.send("a leaderboard button", view=view)
    await world.env.settle()
    message = world.channel.history()[-1]
    assert message.content == "a leaderboard button"
    return message


async def test_a_page_past_the_end_snaps_to_the_last_page(world: World) -> None:
    """An old message may point past the end of the board, or between pages."""
    alice = world.members[0]
    await seed_rich_accounts(world)
    message = await post_button(world, G, 995, alice.id)

    r = await alice.click(message, label="◀")

    assert r.response is not None
    [embed] = r.response.embeds
    assert embed.author.name == "Page 3 of 3"
    assert board(embed)[0].startswith("**#21** ")


async def test_a_forged_button_for_another_server_is_refused(world: World) -> None:
    """The guild in the custom id must be the clicker's: chips never leak across servers."""
    alice = world.members[0]
    message = await post_button(world, 12345, 0, alice.id)

    r = await alice.click(message, label="◀")

    assert r.ephemeral and r.response is not None
    assert r.response.content == "This leaderboard belongs to another server."


async def test_a_large_board_pages_and_ranks_exactly(world: World) -> None:
    """10,000 accounts, bulk-imported: deep ranks and page counts come from indexed queries."""
    rows = [(FAKE_BASE + i, 2_000 + (i % 500)) for i in range(10_000)]  # many ties
    async with world.bot.services.db.transaction() as tx:
        await ChipsRepo().import_balances(tx, G, rows, world.env.now())
    alice = world.members[0]
    await alice.slash(world.channel, "chips balance")
    # alice is the only account under 2,000 chips: last of 10,001.
    expected = sorted(rows, key=lambda row: (-row[1], row[0]))

    r = await alice.slash(world.channel, "leaderboard")
    assert r.response is not None
    [embed] = r.response.embeds
    assert embed.author.name == "Page 1 of 1,001"
    assert embed.footer.text == "alice · Your rank: #10,001 of 10,001 (1,000 chips)"
    lines = board(embed)
    assert lines[0] == f"**#1** <@{expected[0][0]}> — 2,499 chips"
    assert lines[9] == f"**#10** <@{expected[9][0]}> — 2,499 chips"
    page2 = await alice.click(r.response, label="▶")
    assert page2.response is not None
    assert board(page2.response.embeds[0])[0] == f"**#11** <@{expected[10][0]}> — 2,499 chips"
