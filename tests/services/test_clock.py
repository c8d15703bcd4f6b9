"""The injected clocks."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta, timezone

import pytest

from bot.services.clock import Clock, ManualClock, SystemClock


def test_both_clocks_satisfy_the_protocol() -> None:
    assert isinstance(SystemClock(), Clock)
    assert isinstance(ManualClock(), Clock)


async def test_system_clock_is_utc_aware() -> None:
    clock = SystemClock()
    now = clock.now()
    assert now.tzinfo is not None and now.utcoffset() == timedelta(0)
    before = clock.monotonic()
    await clock.sleep(0)
    await clock.sleep(-1)  # never an error
    assert clock.monotonic() >= before


def test_manual_clock_moves_only_when_told() -> None:
    start = datetime(2024, 2, 29, 23, 59, tzinfo=UTC)
    clock = ManualClock(start)
    assert clock.now() == start and clock.monotonic() == 0
    clock.advance(timedelta(minutes=2))
    assert clock.now() == datetime(2024, 3, 1, 0, 1, tzinfo=UTC)
    assert clock.monotonic() == 120
    clock.advance(0.5)
    assert clock.monotonic() == 120.5
    with pytest.raises(ValueError):
        clock.advance(-1)


def test_set_jumps_wall_time_only_and_normalises_to_utc() -> None:
    clock = ManualClock()
    clock.advance(10)
    plus_two = timezone(timedelta(hours=2))
    clock.set(datetime(2023, 6, 1, 12, tzinfo=plus_two))
    assert clock.now() == datetime(2023, 6, 1, 10, tzinfo=UTC)
    assert clock.now().tzinfo is UTC
    assert clock.monotonic() == 10
    with pytest.raises(ValueError, match="naive"):
        clock.set(datetime(2023, 6, 1))
    with pytest.raises(ValueError, match="naive"):
        ManualClock(datetime(2023, 6, 1))


async def test_manual_sleep_wakes_when_advanced_past_its_deadline() -> None:
    clock = ManualClock()
    woken: list[str] = []

    async def sleeper(name: str, seconds: float) -> None:
        await clock.sleep(seconds)
        woken.append(name)

    tasks = [
        asyncio.create_task(sleeper("late", 60)),
        asyncio.create_task(sleeper("early", 30)),
        asyncio.create_task(sleeper("also-early", 30)),
    ]
    await asyncio.sleep(0)
    assert clock.sleepers == 3
    await clock.advance_and_settle(29)
    assert woken == []
    await clock.advance_and_settle(1)
    assert woken == ["early", "also-early"]
    await clock.advance_and_settle(timedelta(minutes=5))
    assert woken == ["early", "also-early", "late"]
    await asyncio.gather(*tasks)
    assert clock.sleepers == 0


async def test_a_cancelled_manual_sleep_is_harmless() -> None:
    clock = ManualClock()
    task = asyncio.create_task(clock.sleep(10))
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert clock.sleepers == 0
    clock.advance(20)  # resolving the cancelled future must not raise
    await clock.sleep(0)
