"""The Prometheus metrics of one bot (docs/metrics.md lists them, with the alerts worth setting).

Everything lives in the bot's own :class:`~prometheus_client.CollectorRegistry`, never the global
one: tests start several bots in one process, and a bot restarted in the same process starts from
zero like a new process would. Three kinds of values:

* counted as they happen: interactions (:meth:`BotMetrics.interaction`, called by the cogs'
  shared handler wrapper), incidents, database blocks (a :class:`~bot.storage.stats.DatabaseStats`
  subscriber) and the event loop's lag (a timer of the loop itself);
* read from memory when scraped: shards, the pool, the reviews;
* read from the database when scraped (:class:`GaugeCache`): open tables, escrow, timers. Those
  are a few bounded counts, read at most once every ``max_age`` seconds and given up after
  ``timeout`` (the previous values are served then), so a scrape never holds up play.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import discord
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from bot.storage.db import Database
from bot.storage.errors import StorageError
from bot.storage.gauges import Gauges, read_gauges

__all__ = ["BotMetrics", "GaugeCache", "LoopLag", "Sources"]

log = logging.getLogger("kapshap.ops")

INTERACTION_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
DB_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0)

LATE_AFTER_SECONDS = 10.0
"""A turn deadline passed longer ago than this is *late*: the scheduler (every process's, on a
shared database) looks every 2 s, so a late timer means nobody is firing them."""


@dataclass(frozen=True, slots=True)
class Sources:
    """Where the metrics read what they do not count themselves."""

    client: discord.AutoShardedClient
    """The bot: its shards and their latency."""
    db: Database
    """The database: the gauges, the pool, the block timings."""
    now: Callable[[], float]
    """The bot's clock as a POSIX timestamp (the unit of turn deadlines)."""
    reviews: Callable[[], tuple[int, int]]
    """Reviews (running, queued) right now."""


class LoopLag:
    """How long the event loop takes to run a callback handed to it: a thread of its own hands
    one every ``interval`` seconds and the callback measures its wait. A loop blocked by a long
    computation or a blocking call shows here before players complain.

    A thread rather than a timer of the loop: it adds no timer to the loop (nothing for
    simcord's settling to wait for in tests) and it keeps measuring while the loop is stuck;
    the sample is recorded as soon as the loop runs again.
    """

    def __init__(self, interval: float = 0.5, window: float = 60.0) -> None:
        """Sample every ``interval`` seconds; remember the samples of the last ``window``."""
        self.interval = interval
        self.latest = 0.0
        self._samples: deque[float] = deque(maxlen=max(1, int(window / interval)))
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start sampling the running loop."""
        loop = asyncio.get_running_loop()
        self._stop.clear()
        self._thread = threading.Thread(
            target=self._run, args=(loop,), name="kapshap-loop-lag", daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        """Stop sampling (the thread ends within ``interval``)."""
        self._stop.set()
        self._thread = None

    def _run(self, loop: asyncio.AbstractEventLoop) -> None:
        while not self._stop.wait(self.interval):
            try:
                loop.call_soon_threadsafe(self._record, time.monotonic())
            except RuntimeError:  # the loop is closed
                return

    def _record(self, handed: float) -> None:
        self.latest = time.monotonic() - handed
        self._samples.append(self.latest)

    @property
    def worst(self) -> float:
        """The largest lag of the window."""
        return max(self._samples, default=0.0)


class GaugeCache:
    """The database's gauges (:func:`bot.storage.gauges.read_gauges`), read at most once every
    ``max_age`` seconds by :meth:`refresh`; a read that fails or takes longer than ``timeout``
    keeps the previous values (and counts a failure)."""

    def __init__(
        self, sources: Sources, failures: Counter, max_age: float = 5.0, timeout: float = 1.0
    ) -> None:
        """Read through ``sources``; count failures in ``failures``."""
        self.sources = sources
        self.max_age = max_age
        self.timeout = timeout
        self.gauges = Gauges()
        self._failures = failures
        self._read_at: float | None = None
        self._reading = asyncio.Lock()

    async def refresh(self) -> None:
        """Read the gauges again if the last read is older than ``max_age`` (and no other scrape
        is reading them now: that one's values will do)."""
        if self._reading.locked():
            return
        fresh = self._read_at is not None and time.monotonic() - self._read_at < self.max_age
        if fresh:
            return
        async with self._reading:
            try:
                self.gauges = await asyncio.wait_for(
                    read_gauges(self.sources.db, self.sources.now(), LATE_AFTER_SECONDS),
                    self.timeout,
                )
            except (StorageError, TimeoutError) as exc:
                self._failures.inc()
                log.warning("metrics: could not read the database's gauges: %s", exc or "timeout")
            except Exception as exc:  # whatever the driver raised: the scrape still answers
                self._failures.inc()
                log.warning("metrics: could not read the database's gauges: %r", exc)
            self._read_at = time.monotonic()


class _ReadCollector(Collector):
    """The values read when scraped: shards, pool, reviews, event loop, and the cached gauges."""

    def __init__(self, metrics: BotMetrics) -> None:
        self._metrics = metrics

    def collect(self) -> Iterator[Metric]:
        metrics = self._metrics
        sources = metrics.sources
        latency = GaugeMetricFamily(
            "kapshap_gateway_latency_seconds",
            "Time between a heartbeat sent to Discord's gateway and its acknowledgement, per shard",
            labels=["shard"],
        )
        connected = GaugeMetricFamily(
            "kapshap_shard_connected",
            "1 when the shard's gateway connection is open, 0 when it is not",
            labels=["shard"],
        )
        for shard_id, shard in sorted(sources.client.shards.items()):
            seconds = shard.latency
            latency.add_metric([str(shard_id)], seconds if math.isfinite(seconds) else math.nan)
            connected.add_metric([str(shard_id)], 0.0 if shard.is_closed() else 1.0)
        yield latency
        yield connected
        lag = metrics.loop_lag
        yield GaugeMetricFamily(
            "kapshap_event_loop_lag_seconds",
            "How late the event loop ran a timer, at the latest sample (every 0.5 s)",
            value=lag.latest,
        )
        yield GaugeMetricFamily(
            "kapshap_event_loop_lag_max_seconds",
            "The largest event-loop lag of the last minute",
            value=lag.worst,
        )
        pool = sources.db.pool_use()
        yield GaugeMetricFamily(
            "kapshap_db_pool_connections",
            "Database connections open (SQLite: its one connection)",
            value=pool.size,
        )
        yield GaugeMetricFamily(
            "kapshap_db_pool_in_use", "Database connections lent to a block now", value=pool.in_use
        )
        yield GaugeMetricFamily(
            "kapshap_db_pool_max", "The most connections the pool may open", value=pool.max_size
        )
        running, queued = sources.reviews()
        yield GaugeMetricFamily("kapshap_reviews_running", "Reviews running now", value=running)
        yield GaugeMetricFamily(
            "kapshap_reviews_queued", "Reviews waiting for a free slot", value=queued
        )
        gauges = metrics.cache.gauges
        tables = GaugeMetricFamily(
            "kapshap_open_tables",
            "Open tables of every process on the database, by game and status (lobby, running)",
            labels=["game", "status"],
        )
        for (game, status), count in sorted(gauges.open_tables.items()):
            tables.add_metric([game, status], count)
        yield tables
        yield GaugeMetricFamily(
            "kapshap_chips_in_escrow",
            "Chips held in escrow: antes and buy-ins of pots not settled yet",
            value=gauges.escrow,
        )
        yield GaugeMetricFamily(
            "kapshap_timers", "Running games with a turn deadline", value=gauges.timers_set
        )
        yield GaugeMetricFamily(
            "kapshap_timers_due",
            "Turn deadlines already passed (their timeout is due)",
            value=gauges.timers_due,
        )
        yield GaugeMetricFamily(
            "kapshap_timers_late",
            f"Turn deadlines passed more than {LATE_AFTER_SECONDS:g} s ago, not fired yet",
            value=gauges.timers_late,
        )


class BotMetrics:
    """Every metric of one bot, in :attr:`registry`; also the bot's interaction observer."""

    def __init__(self, sources: Sources) -> None:
        """Make the metrics (not yet counting: :meth:`start`)."""
        self.sources = sources
        self.registry = CollectorRegistry()
        registry = self.registry
        self.interactions = Counter(
            "kapshap_interactions",
            "Interactions handled, by command (or button) and outcome",
            ["command", "outcome"],
            registry=registry,
        )
        self.interaction_seconds = Histogram(
            "kapshap_interaction_seconds",
            "Time from an interaction's arrival at its handler to the end of its handling "
            "(the action latency), by command (or button)",
            ["command"],
            buckets=INTERACTION_BUCKETS,
            registry=registry,
        )
        self.incidents = Counter(
            "kapshap_incidents",
            "Failures: bug (an incident id was logged) or database_unavailable",
            ["kind"],
            registry=registry,
        )
        self.db_seconds = Histogram(
            "kapshap_db_query_seconds",
            "Database blocks (a read or a write transaction), from asking for the connection "
            "to the end of the block",
            ["kind"],
            buckets=DB_BUCKETS,
            registry=registry,
        )
        self.gauge_failures = Counter(
            "kapshap_metrics_db_read_failures",
            "Scrapes that could not read the database's gauges (the previous values were served)",
            registry=registry,
        )
        self.started = Gauge(
            "kapshap_start_time_seconds", "When this bot process started", registry=registry
        )
        self.loop_lag = LoopLag()
        self.cache = GaugeCache(sources, self.gauge_failures)
        registry.register(_ReadCollector(self))

    def start(self) -> None:
        """Start counting: database timings and the event loop's lag."""
        self.started.set_to_current_time()
        self.sources.db.stats.subscribe(self._db_block)
        self.loop_lag.start()

    def stop(self) -> None:
        """Stop counting (the bot is closing)."""
        self.loop_lag.stop()
        with contextlib.suppress(ValueError):
            self.sources.db.stats.unsubscribe(self._db_block)

    def _db_block(self, kind: str, seconds: float) -> None:
        self.db_seconds.labels(kind).observe(seconds)

    def interaction(self, command: str, outcome: str, seconds: float) -> None:
        """Count one interaction handled (:class:`bot.ops.observer.Observer`)."""
        self.interactions.labels(command, outcome).inc()
        self.interaction_seconds.labels(command).observe(seconds)

    def incident(self, kind: str) -> None:
        """Count one failure (:class:`bot.ops.observer.Observer`)."""
        self.incidents.labels(kind).inc()
