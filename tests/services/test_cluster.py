"""Several processes on one database: shard claims, the start-up repair run once, and the
form shard ids are written in (bot.services.cluster)."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from bot.config import load_settings
from bot.services.cluster import (
    REPAIR_LOCK,
    LocalLocks,
    ShardClaimed,
    claim_shards,
    repair_once,
    shard_lock_name,
    shard_ranges,
)
from tests.test_config import SHARED


def database() -> str:
    """A scope of its own per test: as two processes on one new database."""
    return f"test-{uuid.uuid4().hex}"


async def test_a_second_claim_of_a_shard_is_refused_naming_it() -> None:
    scope = database()
    first, second = LocalLocks(scope), LocalLocks(scope)  # two processes on one database
    held = await claim_shards(first, [0, 2])
    with pytest.raises(ShardClaimed) as caught:
        await claim_shards(second, [1, 2, 3])
    message = str(caught.value)
    assert caught.value.shard == 2
    assert message.startswith("shard 2 is run by another bot process on this database")
    assert "KAPSHAP_SHARD_IDS" in message and "\n" not in message
    # All or nothing: the refused process gave back shard 1, which it had claimed first.
    given_back = await LocalLocks(scope).hold(shard_lock_name(1))
    assert given_back is not None
    await given_back.release()
    # Another database is another set of names.
    assert len(await claim_shards(LocalLocks(database()), [0, 2])) == 2
    for claim in held:
        await claim.release()
        await claim.release()  # twice is harmless
    assert len(await claim_shards(second, [1, 2, 3])) == 3  # shard 2 is free again


async def test_the_repair_runs_once_while_a_second_process_waits_for_it() -> None:
    scope = database()
    first, second = LocalLocks(scope), LocalLocks(scope)
    repairs: list[str] = []
    started, finish = asyncio.Event(), asyncio.Event()
    polls = 0

    async def repair_of(name: str) -> None:
        repairs.append(name)
        started.set()
        await finish.wait()

    async def sleep(seconds: float) -> None:
        nonlocal polls
        assert seconds == 0.25
        polls += 1
        if polls == 3:  # the first process finishes while the second one waits
            finish.set()
        await asyncio.sleep(0)

    first_run = asyncio.create_task(repair_once(first, lambda: repair_of("first"), sleep))
    await started.wait()
    second_ran = await repair_once(second, lambda: repair_of("second"), sleep, poll_seconds=0.25)
    assert await first_run is True
    assert second_ran is False
    assert repairs == ["first"]  # never twice, never at once
    assert polls >= 3  # the second process waited until the repair was done
    assert await first.hold(REPAIR_LOCK) is not None  # both gave the lock back


async def test_a_failed_repair_gives_the_lock_back() -> None:
    locks = LocalLocks(database())

    async def failing() -> None:
        raise RuntimeError("the database went away")

    async def no_sleep(seconds: float) -> None:
        raise AssertionError("nobody else holds the lock")

    async def nothing_to_repair() -> None:
        pass

    with pytest.raises(RuntimeError):
        await repair_once(locks, failing, no_sleep)
    assert await repair_once(locks, nothing_to_repair, no_sleep) is True


@pytest.mark.parametrize(
    ("shards", "text"),
    [([0], "0"), ([0, 1, 2, 3, 6], "0-3,6"), ([6, 0, 2, 1], "0-2,6"), ([1, 3, 5], "1,3,5")],
)
def test_shard_ranges_write_what_the_setting_reads(shards: list[int], text: str) -> None:
    assert shard_ranges(shards) == text
    parsed = load_settings(
        {"KAPSHAP_SHARD_COUNT": "8", "KAPSHAP_SHARD_IDS": text, **SHARED}, dotenv_path=None
    ).shard_ids
    assert parsed == tuple(sorted(shards))


@pytest.mark.parametrize(("count", "processes"), [(4, 2), (8, 3), (1, 1), (16, 16)])
def test_the_cluster_recipe_gives_every_shard_to_exactly_one_process(
    count: int, processes: int
) -> None:
    """docs/processes.md: process i of N sets KAPSHAP_SHARD_IDS to range(i, count, N)."""
    runs: list[int] = []
    for index in range(processes):
        text = shard_ranges(range(index, count, processes))
        settings = load_settings(
            {"KAPSHAP_SHARD_COUNT": str(count), "KAPSHAP_SHARD_IDS": text, **SHARED},
            dotenv_path=None,
        )
        assert settings.shard_ids is not None
        runs.extend(settings.shard_ids)
    assert sorted(runs) == list(range(count))
