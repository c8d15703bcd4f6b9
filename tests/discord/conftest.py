"""The whole bot (every cog, a temporary database file, a seeded deal shuffle) against simcord.

simcord runs discord.py's real parsers, command tree, views and HTTP responses against an
in-memory Discord. Its virtual clock drives ``discord.utils.utcnow()``, which is the bot's
production clock (:class:`bot.app.DiscordClock`), so ``await env.advance_time(s)`` moves turn
deadlines and daily claims without any test-only clock in the bot.

Fixtures:
    ``settings``   the bot's settings (temporary database, development guild = the test guild)
    ``env``        the running simcord environment (the bot is ``env.bot``)
    ``world``      a guild with a game channel, an admin (Manage Server) and five members
    ``restart``    ``await restart()`` closes the bot and starts a fresh one on the same database
"""

from __future__ import annotations

import functools
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
import simcord.interactions

from bot.app import KapBot, create_bot
from bot.config import Settings

GUILD_ID = 1_000_000_000_000_000_001
DEAL_SEED = 20261122


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test module marked ``both_backends`` runs each of its tests on SQLite and again on a
    real PostgreSQL database (the bot then runs as one of several processes would: version
    checks, deadlines polled from the database, shard claims as advisory locks)."""
    if "backend" in metafunc.fixturenames and metafunc.definition.get_closest_marker(
        "both_backends"
    ):
        metafunc.parametrize("backend", ["sqlite", "postgresql"])


@pytest.fixture
def settings(tmp_path: Path, backend: str, request: pytest.FixtureRequest) -> Settings:
    """One database per test (a SQLite file, or a fresh PostgreSQL database), shared by every
    bot generation of that test."""
    url = request.getfixturevalue("pg_url") if backend == "postgresql" else None
    return Settings(
        discord_token=None,
        database_url=url,
        db_path=tmp_path / "kapshap.sqlite3",
        default_ante=10,
        starting_chips=1000,
        daily_amount=100,
        turn_seconds=120,
        dev_guild_id=GUILD_ID,
        # One shard: simcord needs the count that discord.py would otherwise ask Discord for.
        shard_count=1,
    )


@pytest.fixture
async def simcord_bot(settings: Settings) -> AsyncIterator[KapBot]:
    """simcord's ``simcord_env`` fixture starts this bot."""
    bot = create_bot(settings, rng=random.Random(DEAL_SEED))
    yield bot
    # simcord's teardown does not close the bot: close it so cogs unload and the database closes.
    if not bot.is_closed():
        await bot.close()


@pytest.fixture
def env(simcord_env: simcord.Env) -> simcord.Env:
    """The running in-memory Discord, with a shorter settle interval (simcord is pinned) and a
    longer real-time bound on settling: on PostgreSQL the bot waits for a real server, which on
    a loaded machine can take longer than simcord's default 5 s without anything being stuck."""
    simcord_env._settle_internal = functools.partial(  # type: ignore[method-assign]
        simcord_env._settle_internal, idle=0.001
    )
    simcord_env.settle_timeout = 30.0
    return simcord_env


@dataclass
class World:
    """A guild with one game channel, an admin and five members."""

    env: simcord.Env
    guild: simcord.GuildHandle
    channel: simcord.ChannelHandle
    admin: simcord.MemberActor
    members: list[simcord.MemberActor]

    @property
    def bot(self) -> KapBot:
        """The running bot."""
        bot = self.env.bot
        assert isinstance(bot, KapBot)
        return bot


@pytest.fixture
async def world(env: simcord.Env) -> World:
    """Builders need the running loop, hence an async fixture."""
    guild = env.create_guild("Kap Shap Club", id=GUILD_ID)
    channel = guild.create_text_channel("kap-shap")
    managers = guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(env.create_user("admin"), roles=[managers])
    members = [
        guild.add_member(env.create_user(name)) for name in ("alice", "bob", "carol", "dave", "eve")
    ]
    await env.settle()
    return World(env, guild, channel, admin, members)


@pytest.fixture
async def restart(
    env: simcord.Env, settings: Settings
) -> AsyncIterator[Callable[[], Awaitable[KapBot]]]:
    """``await restart()``: close the running bot (like a process exit) and start a fresh one."""
    made: list[KapBot] = []

    async def _restart() -> KapBot:
        await env.bot.close()
        bot = create_bot(settings, rng=random.Random(DEAL_SEED + len(made) + 1))
        made.append(bot)
        await env.restart_bot(bot)
        return bot

    yield _restart
    for bot in made:
        if not bot.is_closed():
            await bot.close()


@pytest.fixture
def locales(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[int, str]]:
    """``locales[user_id] = "zh-TW"``: that member's interactions come from a zh-TW client.

    simcord sends every interaction with ``locale: en-US``; this puts the chosen member's
    locale where Discord puts it in the payload, so discord.py's real ``Interaction.locale``
    reads it (and, in a DM, which has no server, ``guild_locale`` too)."""
    chosen: dict[int, str] = {}
    original = simcord.interactions.base_payload

    def base_payload(backend: Any, **kwargs: Any) -> Any:
        record, payload = original(backend, **kwargs)
        locale = chosen.get(kwargs["user_id"])
        if locale is not None:
            payload["locale"] = locale
            payload["guild_locale"] = payload.get("guild_locale") or locale
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", base_payload)
    yield chosen
