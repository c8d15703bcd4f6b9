"""A server that chooses turn notices "both by DM and mention": the player whose turn starts gets
a new DM (notified) and one mention line in the channel, and the line goes when his turn ends.
A member seated at two tables who plays from his DM is told to use the tables' channels. Amounts
of chips in settlement lines are written with thousands separators."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import Settings
from bot.engine import Game
from tests.discord.conftest import World
from tests.discord.tables_kit import (
    custom_ids,
    exact_deal,
    last_dm,
    message_text,
    no_incidents,  # noqa: F401  (autouse: no error logged)
    runs_out,
)

ALICE = "6-6 6-6 1-1 4-4 3-1 3-3 6-5 5-2"
BOB = "5-5 6-1 4-1 3-2 6-2 6-3 4-2"
WALL = "2-2 6-4 5-1 5-1"


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """A bot as a server owner runs it: no development guild, so the commands are global and
    the play verbs are offered in the bot's DM too."""
    return Settings(
        discord_token=None,
        db_path=tmp_path / "kapshap.sqlite3",
        default_ante=10,
        starting_chips=1000,
        daily_amount=100,
        turn_seconds=120,
        dev_guild_id=None,
        shard_count=1,  # simcord needs the count discord.py would ask Discord for
    )


@pytest.fixture
def deal(monkeypatch: pytest.MonkeyPatch) -> None:
    exact_deal(monkeypatch, Game.KAP_SHAP, [ALICE, BOB], WALL, dice=(1, 1, 2, 2))


async def test_both_notices_a_new_dm_and_a_mention_removed_when_the_turn_ends(
    world: World, deal: None
) -> None:
    ch, admin = world.channel, world.admin
    alice, bob = world.members[:2]
    r = await admin.slash(ch, "kapadmin config", notices="both")
    assert r.ephemeral and "Turn notices**: by DM and mention" in r.response.content
    await alice.slash(ch, "table new")
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    [waiting] = bob.user.dm_channel.history()

    # alice's first turn: discard, the first player's extra draw, discard.
    await alice.slash(ch, "discard", tile="5-2")
    assert "· wall 17 · 1 discard\n" in message_text(last_dm(alice))  # not "1 discards"
    await alice.slash(ch, "draw")
    await alice.slash(ch, "discard", tile="2-2")

    # Bob's turn: a new DM that Discord notifies (the old one deleted) ...
    [notice] = bob.user.dm_channel.history()
    assert notice.id != waiting.id and custom_ids(notice)
    assert notice.content == f"🀄 Your turn at <#{ch.id}> — {runs_out(world)}."
    # ... and one line in the channel that links his hand.
    hand_link = f"https://discord.com/channels/@me/{bob.user.dm_channel.id}/{notice.id}"
    [mention] = [m for m in ch.history() if bob.mention in m.content]
    assert (
        mention.content
        == f"{bob.mention}, it's your turn — {runs_out(world)}. Your hand: {hand_link}"
    )
    assert not [m for m in ch.history() if alice.mention in m.content]

    await bob.slash(ch, "draw")
    assert [m.id for m in ch.history() if bob.mention in m.content] == [mention.id]
    await bob.slash(ch, "discard", tile="4-2")
    # His turn is over: his line is gone; alice has her new DM and her line.
    assert not [m for m in ch.history() if bob.mention in m.content]
    assert len([m for m in ch.history() if alice.mention in m.content]) == 1
    [alice_notice] = alice.user.dm_channel.history()
    assert alice_notice.content.startswith("🀄 Your turn at")


async def test_a_member_seated_at_two_tables_is_sent_to_their_channels_from_the_dm(
    world: World,
) -> None:
    ch, guild = world.channel, world.guild
    alice, bob, carol = world.members[:3]
    other = guild.create_text_channel("kap-shap-2")
    await alice.slash(ch, "table new")
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    await carol.slash(other, "table new")
    await alice.slash(other, "table join")
    await carol.slash(other, "table start")
    # From her DM the verbs cannot know which table she means: she is told where to play.
    r = await alice.user.slash("draw")
    assert r.ephemeral
    assert r.response.content.startswith("You are playing at 2 tables (")
    assert r.response.content.endswith("use the command in the table's channel.")
    # In a table's channel the verbs mean that channel's table.
    for channel in (ch, other):
        r = await alice.slash(channel, "hand")
        assert r.ephemeral and f"<#{channel.id}> · turn 1" in message_text(r.response.message)


async def test_a_large_pot_is_written_with_thousands_separators(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    # alice is dealt a winning hand: eye 6-6 6-6, 4-4+1-1, 3-1+3-3, 6-5+5-4.
    winning = "6-6 6-6 4-4 1-1 3-1 3-3 6-5 5-4"
    wall = "2-2 6-4 5-1 5-1 6-1 2-1 5-3 5-2 4-3 3-3 2-2 1-1 4-4 5-5 6-4"
    exact_deal(monkeypatch, Game.KAP_SHAP, [winning, BOB], wall, dice=(1, 1, 2, 2))
    ch = world.channel
    alice, bob = world.members[:2]
    await alice.slash(ch, "table new", ante=600)
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    await alice.slash(ch, "declare")
    assert "💰 alice takes the pot: 1,200 chips." in ch.history()[-1].content
