"""The per-process caches of database rows stay right when another process changes the rows
(issue 20: several bot processes on one PostgreSQL database).

Two services on two :class:`Database` objects (two pools, two listening connections: what two
processes have) share one real PostgreSQL database. A manager's change served by one reaches the
other by notification; a notification lost with its connection, or never sent, is made good by
the loss itself and by the entries' expiry (:mod:`bot.services.shared_cache`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from bot.services.server import PlaySettings, ServerService
from bot.services.shared_cache import CACHE_SECONDS, SharedCache
from bot.storage.db import Database
from bot.storage.postgres import CHANGES_CHANNEL

GUILD = 42
MEMBER = 7
#: How long a test waits for what another process changed to show (a bound, not a measure).
WAIT_SECONDS = 20.0


@asynccontextmanager
async def two_processes(url: str) -> AsyncIterator[tuple[Database, Database]]:
    first, second = await Database.open(url), await Database.open(url)
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


async def eventually(check: Callable[[], Awaitable[bool]]) -> bool:
    """Whether ``check`` becomes true within :data:`WAIT_SECONDS` (asked every 10 ms)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while not await check():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.01)
    return True


async def listening(*dbs: Database) -> None:
    assert await eventually(lambda: _true(all(db.watching for db in dbs)))


async def _true(value: bool) -> bool:
    return value


async def test_a_change_served_by_one_process_is_served_by_the_other(pg_url: str) -> None:
    async with two_processes(pg_url) as (db_a, db_b):
        a, b = ServerService(db_a), ServerService(db_b)
        await listening(db_a, db_b)
        # Process B serves the defaults, and caches them.
        assert await b.play_settings(GUILD) == PlaySettings(GUILD)
        assert await b.notices_on(MEMBER)
        await a.update_play_settings(
            GUILD, language="zh-TW", review_mode="public", timeout_limit=5, notice_mode="both"
        )
        await a.set_notices(MEMBER, False)
        wanted = PlaySettings(GUILD, "both", 5, 15, "public", "zh-TW")

        async def b_follows() -> bool:
            return await b.play_settings(GUILD) == wanted and not await b.notices_on(MEMBER)

        assert await eventually(b_follows)
        # And back again, through B this time: A follows.
        assert await a.play_settings(GUILD) == wanted
        await b.update_play_settings(GUILD, reset=True)

        async def a_follows() -> bool:
            return await a.play_settings(GUILD) == PlaySettings(GUILD)

        assert await eventually(a_follows)


async def test_a_change_made_while_the_listening_connection_was_down_is_not_missed(
    pg_url: str,
) -> None:
    async with two_processes(pg_url) as (db_a, db_b):
        a, b = ServerService(db_a), ServerService(db_b)
        await listening(db_a, db_b)
        assert (await b.play_settings(GUILD)).language is None  # cached by B
        # Every listening connection dies (a network cut, a server restart); A changes the
        # language at once, before B could listen again: its notification is lost.
        async with db_a.transaction() as tx:
            killed = await tx.scalar(
                "SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND query LIKE ?",
                (f"LISTEN %{CHANGES_CHANNEL}%",),
            )
        assert killed == 2
        await a.update_play_settings(GUILD, language="zh-CN")

        async def b_follows() -> bool:
            return (await b.play_settings(GUILD)).language == "zh-CN"

        assert await eventually(b_follows)
        await listening(db_a, db_b)  # and both listen again by themselves
        await a.update_play_settings(GUILD, language="en")

        async def b_follows_again() -> bool:
            return (await b.play_settings(GUILD)).language == "en"

        assert await eventually(b_follows_again)


async def test_a_change_nobody_reported_shows_once_the_entry_expires(pg_url: str) -> None:
    """The last resort: a change that was never notified (a hand edit of the table) shows when
    the entry expires (the clock is the test's)."""
    clock = [0.0]
    async with two_processes(pg_url) as (_, db_b):
        b = ServerService(db_b, now=lambda: clock[0])
        await listening(db_b)
        assert (await b.play_settings(GUILD)).timeout_limit == 3
        async with db_b.transaction() as tx:
            await tx.execute(
                "INSERT INTO guild_play_config (guild_id, timeout_limit) VALUES (?, 9)", (GUILD,)
            )
        clock[0] += CACHE_SECONDS / 2
        assert (await b.play_settings(GUILD)).timeout_limit == 3  # still trusted
        clock[0] += CACHE_SECONDS
        assert (await b.play_settings(GUILD)).timeout_limit == 9


async def test_a_read_that_raced_a_change_is_not_kept(db: Database) -> None:
    """On either backend: a value read before a change was heard (or written by this process)
    is served once but not cached, so the change is never hidden by it."""
    cache: SharedCache[str] = SharedCache(db, "test")
    await listening(db)
    token = cache.token()
    cache.wrote(1, "new", cache.token())  # another task of this process wrote meanwhile
    cache.keep(1, "old", token)  # the read that began before it ends now
    assert cache.get(1) == "new"
    token = cache.token()
    cache._changed("1")  # another process changed it meanwhile
    cache.keep(1, "old", token)
    assert cache.get(1) is None
