"""A bot started on a real server: no development guild, so its commands come from the start-up
global sync; where the commands are offered (servers, the bot's DM); the play verbs from the DM;
``/help``; ``kapshap sync``."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
import simcord

from bot.app import KapBot, command_tree_hash, sync_main
from bot.config import Settings
from bot.engine import Game
from tests.discord.conftest import GUILD_ID, World
from tests.discord.tables_kit import (
    custom_ids,
    exact_deal,
    hand_of,
    last_dm,
    message_text,
    no_incidents,  # noqa: F401  (autouse: no error logged)
    shown,
    table_of,
)

ALICE = "6-6 6-6 1-1 4-4 3-1 3-3 6-5 5-2"
BOB = "5-5 6-1 4-1 3-2 6-2 6-3 4-2"
WALL = "2-2 6-4"


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """A bot as a server owner runs it: no development guild."""
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


def command_syncs(env: simcord.Env) -> list[str]:
    """The paths of the command-sync requests the bot made (PUT …/commands)."""
    return [c.path for c in env.http_requests if c.method == "PUT" and c.path.endswith("/commands")]


async def test_commands_appear_on_first_start_and_a_restart_syncs_nothing(
    world: World, restart: Callable[[], Awaitable[KapBot]]
) -> None:
    env, ch = world.env, world.channel
    alice = world.members[0]
    # The first start published the commands globally, once.
    [path] = command_syncs(env)
    assert path.endswith("/commands") and "/guilds/" not in path
    assert {"table new", "draw", "help", "settings"} <= set(alice.available_commands(ch))
    assert "kapadmin house" in world.admin.available_commands(ch)
    stored = await world.bot.services.server.command_hash()
    assert stored == command_tree_hash(world.bot.tree)

    # An ordinary restart: same commands, no sync request; they still work.
    before = len(env.http_requests)
    await restart()
    assert command_syncs(env) == [path]
    assert not [c for c in env.http_requests[before:] if c.path.endswith("/commands")]
    r = await alice.slash(ch, "help")
    assert r.ephemeral and r.response.embeds[0].title == "Kap Shap — how to play"


async def test_changed_commands_are_synced_again(
    world: World, restart: Callable[[], Awaitable[KapBot]]
) -> None:
    # The stored hash is of another command tree (the commands changed in an update).
    await world.bot.services.server.set_command_hash("an older tree")
    await restart()
    assert len(command_syncs(world.env)) == 2


async def test_sync_by_hand_to_one_server_and_clear(world: World) -> None:
    env, ch = world.env, world.channel
    bot, alice = world.bot, world.members[0]
    count = await bot.sync_by_hand(GUILD_ID)
    assert count > 5 and command_syncs(env)[-1].endswith(f"/guilds/{GUILD_ID}/commands")
    assert await bot.sync_by_hand(GUILD_ID, clear=True) == 0
    # Clearing the global commands forgets the hash, so the next start publishes them again.
    assert await bot.sync_by_hand(None, clear=True) == 0
    assert await bot.services.server.command_hash() is None
    assert alice.available_commands(ch) == ()


def test_kapshap_sync_needs_a_token(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)
    assert sync_main(["--guild", "123"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("kapshap sync: no bot token (DISCORD_TOKEN is not set).")
    assert "needs the bot's token" in err


async def test_commands_are_offered_where_they_work(world: World) -> None:
    alice = world.members[0]
    in_dm = set(alice.user.available_commands())
    # The play verbs, help and settings work in the bot's DM; the other groups are server-only.
    assert {"take", "draw", "discard", "declare", "hand", "help", "settings"} <= in_dm
    assert not {c for c in in_dm if c.split()[0] in ("table", "chips", "kapadmin")}
    assert "leaderboard" not in in_dm
    assert world.bot.help_command is None  # no text help: "@bot help" answers nothing


async def test_the_play_verbs_work_from_the_dm_of_a_seated_member(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    exact_deal(monkeypatch, Game.KAP_SHAP, [ALICE, BOB], WALL, dice=(1, 1, 2, 2))
    ch = world.channel
    alice, bob, carol = world.members[:3]
    r = await alice.user.slash("draw")
    assert r.ephemeral and r.response.content.startswith("You are not playing at any table")
    await alice.slash(ch, "table new")
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    table = table_of(world)

    # alice plays from her DM, where her hand is: autocomplete and the command itself.
    offered = await alice.user.autocomplete("discard", "tile", "5-2")
    assert [c["value"] for c in offered] == ["5-2"]
    r = await alice.user.slash("discard", tile="5-2")
    assert r.ephemeral and "You discarded `5-2`" in shown(r.response.content)
    assert "5-2" not in [str(t) for t in hand_of(world, alice)]
    await alice.user.slash("draw")  # the first player's extra draw, then a discard
    r = await alice.user.slash("discard", tile="2-2")
    assert r.ephemeral and "bob plays next" in r.response.content
    r = await bob.user.slash("hand")
    assert r.ephemeral and "It is your turn" in message_text(r.response.message)
    r = await bob.user.slash("draw")
    assert r.ephemeral and "You drew" in r.response.content
    assert table.state is not None and table.state.current == 1
    # A member at no table is told so, privately.
    r = await carol.user.slash("draw")
    assert r.ephemeral and "You are not playing at any table" in r.response.content
    assert custom_ids(last_dm(bob))


async def test_help_explains_games_commands_buttons_and_levels(world: World) -> None:
    r = await world.members[0].slash(world.channel, "help")
    assert r.ephemeral
    text = message_text(r.response.message)
    for words in (
        "one **eye**",
        "ten-pairs",
        "**captures**",
        "`/table resign`",
        "**My hand**",
        "**Rematch**",
        "**Beginner**",
        "**Club**",
        "**Expert**",
        "**Master**",
        "The house stakes",
        "after 3 timeouts in a row",
        # What a newcomer learns from besides /learn (issue 22).
        "`/puzzle`",
        "`/hint`",
        "**hand guide**",
        "first 10 games",
        "`/settings guide:`",
    ):
        assert words in text, words
    r = await world.members[0].user.slash("help")
    assert r.ephemeral and r.response.embeds


async def test_a_failed_start_up_sync_does_not_stop_the_bot(
    world: World, restart: Callable[[], Awaitable[KapBot]]
) -> None:
    env = world.env
    [path] = command_syncs(env)
    await world.bot.services.server.set_command_hash("an older tree")
    env.inject_error("PUT", path, status=500, code=0, message="Discord is down", times=1)
    bot = await restart()
    # It started and plays; the hash was not stored, so the next start tries again.
    assert await bot.services.server.command_hash() == "an older tree"
    r = await world.members[0].slash(world.channel, "table new")
    assert not r.ephemeral
