"""Time, injected: wall-clock time for dates and deadlines, monotonic time and sleeping for timers.

Services never call :func:`datetime.now`, :func:`time.monotonic` or :func:`asyncio.sleep`
themselves; they ask a :class:`Clock`. Production uses :class:`SystemClock`; tests use
:class:`ManualClock`, whose time only moves when the test says so, which makes daily claims and
turn timers deterministic to test.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from datetime import UTC, datetime, timedelta
from typing import Protocol, runtime_checkable

__all__ = ["Clock", "ManualClock", "SystemClock"]


@runtime_checkable
class Clock(Protocol):
    """Where services get the time from."""

    def now(self) -> datetime:
        """The current wall-clock time, timezone-aware, in UTC."""
        ...

    def monotonic(self) -> float:
        """Seconds on a clock that never goes backwards (for measuring intervals)."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Return after ``seconds`` of this clock's monotonic time (at once if <= 0)."""
        ...


class SystemClock:
    """The real clocks of the machine."""

    def now(self) -> datetime:
        """The current time in UTC."""
        return datetime.now(UTC)

    def monotonic(self) -> float:
        """:func:`time.monotonic`."""
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        """:func:`asyncio.sleep`."""
        await asyncio.sleep(max(0.0, seconds))


DEFAULT_START = datetime(2024, 1, 1, tzinfo=UTC)


class ManualClock:
    """A clock for tests: time stands still until :meth:`advance` or :meth:`set` moves it.

    :meth:`sleep` waits until :meth:`advance` has moved the monotonic time past its deadline.
    Woken sleepers run at the test's next ``await`` (e.g. ``await asyncio.sleep(0)``), as with any
    asyncio wake-up; :meth:`advance_and_settle` does both.
    """

    def __init__(self, start: datetime = DEFAULT_START) -> None:
        """Start at ``start`` (aware; default 2024-01-01 00:00 UTC), monotonic time 0."""
        self._now = _aware_utc(start)
        self._monotonic = 0.0
        self._order = itertools.count()  # tie-breaker so equal deadlines wake in sleep order
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []

    def now(self) -> datetime:
        """The clock's current wall time (UTC)."""
        return self._now

    def monotonic(self) -> float:
        """Seconds advanced since the clock was made."""
        return self._monotonic

    async def sleep(self, seconds: float) -> None:
        """Wait until the clock has been advanced by ``seconds``."""
        if seconds <= 0:
            await asyncio.sleep(0)  # still a yield point, like asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self._monotonic + seconds, next(self._order), future))
        await future

    @property
    def sleepers(self) -> int:
        """How many sleeps are pending (so a test can wait until a timer is armed)."""
        return sum(1 for _, _, future in self._sleepers if not future.done())

    def advance(self, delta: timedelta | float) -> None:
        """Move wall and monotonic time forward by ``delta`` (seconds or a timedelta)."""
        seconds = delta.total_seconds() if isinstance(delta, timedelta) else float(delta)
        if seconds < 0:
            raise ValueError("a clock cannot be advanced backwards; use set() for wall time")
        self._now += timedelta(seconds=seconds)
        self._monotonic += seconds
        while self._sleepers and self._sleepers[0][0] <= self._monotonic:
            _, _, future = heapq.heappop(self._sleepers)
            if not future.done():  # a cancelled sleep leaves a cancelled future behind
                future.set_result(None)

    async def advance_and_settle(self, delta: timedelta | float) -> None:
        """:meth:`advance`, then yield so that the woken sleepers run."""
        self.advance(delta)
        for _ in range(3):  # a woken task may need a few loop turns to reach its next await
            await asyncio.sleep(0)

    def set(self, moment: datetime) -> None:
        """Jump the wall time to ``moment`` (either way), like an NTP correction.

        Monotonic time, and so every pending sleep, is unaffected.
        """
        self._now = _aware_utc(moment)


def _aware_utc(moment: datetime) -> datetime:
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"naive datetime {moment!r}: pass an aware datetime")
    return moment.astimezone(UTC)
