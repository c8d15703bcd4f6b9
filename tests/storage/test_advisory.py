"""The PostgreSQL advisory locks the shard claims and the start-up repair use
(bot.storage.advisory), proved on a real server with two connections as two processes."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys

import asyncpg
import pytest

from bot.services.cluster import REPAIR_LOCK, shard_lock_name
from bot.storage.advisory import TRY_LOCK_SQL, UNLOCK_SQL, advisory_key


def test_keys_are_stable_distinct_64_bit_numbers() -> None:
    names = [shard_lock_name(shard) for shard in range(1000)] + [REPAIR_LOCK]
    keys = [advisory_key(name) for name in names]
    assert len(set(keys)) == len(keys)
    assert all(-(2**63) <= key < 2**63 for key in keys)
    # Pinned: every process of a fleet, old and new versions during a rolling upgrade, must
    # compute the same key for a name (hash() differs per process, hashtext() per server).
    assert advisory_key("shard:0") == -2146487248410934119
    assert advisory_key(REPAIR_LOCK) == -494179762799281124


async def test_a_second_connection_is_refused_until_the_first_lets_go(pg_url: str) -> None:
    first = await asyncpg.connect(pg_url)
    second = await asyncpg.connect(pg_url)
    try:
        shard = advisory_key(shard_lock_name(3))
        assert await first.fetchval(TRY_LOCK_SQL, shard) is True
        assert await second.fetchval(TRY_LOCK_SQL, shard) is False  # the second claimant
        # Another name is another lock.
        assert await second.fetchval(TRY_LOCK_SQL, advisory_key(shard_lock_name(4))) is True
        # A session lock outlives transactions: it is held until unlocked or disconnected.
        async with first.transaction():
            await first.execute("SELECT 1")
        assert await second.fetchval(TRY_LOCK_SQL, shard) is False
        assert await first.fetchval(UNLOCK_SQL, shard) is True
        assert await second.fetchval(TRY_LOCK_SQL, shard) is True
    finally:
        await first.close()
        await second.close()


HOLDER = """
import asyncio, sys, asyncpg
from bot.storage.advisory import TRY_LOCK_SQL, advisory_key

async def main() -> None:
    connection = await asyncpg.connect(sys.argv[1])
    held = await connection.fetchval(TRY_LOCK_SQL, advisory_key(sys.argv[2]))
    print("held" if held else "refused", flush=True)
    await asyncio.sleep(120)

asyncio.run(main())
"""


async def test_a_killed_process_leaves_no_claim_behind(pg_url: str) -> None:
    """Two OS processes: the first claims shard 1 and is killed (SIGKILL, no clean-up); the
    server frees its claim with its connection, and the second process gets the shard."""
    holder = await asyncio.create_subprocess_exec(
        sys.executable, "-c", HOLDER, pg_url, shard_lock_name(1), stdout=subprocess.PIPE
    )
    other = await asyncpg.connect(pg_url)
    try:
        assert holder.stdout is not None
        assert (await holder.stdout.readline()).strip() == b"held"
        key = advisory_key(shard_lock_name(1))
        assert await other.fetchval(TRY_LOCK_SQL, key) is False  # refused while it lives
        holder.send_signal(signal.SIGKILL)
        await holder.wait()
        # The server notices the closed connection at once; ask until it has.
        for _attempt in range(200):
            if await other.fetchval(TRY_LOCK_SQL, key):
                break
            await other.execute("SELECT pg_sleep(0.05)")
        else:
            pytest.fail("the killed process's claim was never released")
    finally:
        if holder.returncode is None:
            holder.kill()
            await holder.wait()
        await other.close()
