"""``/metrics`` and ``/health`` of the bot (docs/metrics.md), scraped over HTTP while it plays on
simcord, on SQLite and on PostgreSQL: the series move with what the members do, and the health
turns 503 with its reason when the database or a shard goes away."""

from __future__ import annotations

import dataclasses
import math

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.app import KapBot
from bot.config import Settings
from tests.discord.conftest import World
from tests.discord.tables_kit import no_incidents  # noqa: F401  (autouse: no error logged)

pytestmark = pytest.mark.both_backends


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """The bot of these tests serves its metrics on a free port of the loopback interface."""
    return dataclasses.replace(settings, metrics_port=0)


def url_of(bot: KapBot, path: str) -> str:
    """The address of one of the bot's pages."""
    assert bot.ops is not None, "the bot serves no metrics"
    return f"http://127.0.0.1:{bot.ops.port}{path}"


async def get(bot: KapBot, path: str) -> tuple[int, str, str]:
    """(status, content type, text) of one of the bot's pages."""
    async with aiohttp.ClientSession() as http, http.get(url_of(bot, path)) as response:
        return response.status, response.headers["Content-Type"], await response.text()


async def scrape(bot: KapBot) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """Every sample of ``/metrics``, by name and labels."""
    status, content_type, text = await get(bot, "/metrics")
    assert status == 200 and content_type.startswith("text/plain; version=0.0.4"), content_type
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(
    samples: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str, **labels: str
) -> float:
    """One sample's value; 0 for a series not (yet) exported."""
    return samples.get((name, frozenset(labels.items())), 0.0)


async def test_the_series_move_as_members_play(world: World) -> None:
    bot = world.bot
    ch = world.channel
    alice, bob, carol = world.members[:3]
    bot.ops.metrics.cache.max_age = 0  # type: ignore[union-attr]  # every scrape reads again
    before = await scrape(bot)
    assert value(before, "kapshap_interactions_total", command="/table new", outcome="ok") == 0
    assert value(before, "kapshap_chips_in_escrow") == 0

    await alice.slash(ch, "table new", game="kap-shap")
    await bob.slash(ch, "table join")
    refused = await carol.slash(ch, "table start")  # only the host starts the table
    assert refused.ephemeral
    await alice.slash(ch, "table start")
    after = await scrape(bot)

    for command in ("/table new", "/table join", "/table start"):
        assert value(after, "kapshap_interactions_total", command=command, outcome="ok") == 1
        count = value(after, "kapshap_interaction_seconds_count", command=command)
        assert count == value(before, "kapshap_interaction_seconds_count", command=command) + (
            2 if command == "/table start" else 1
        )
    assert (
        value(after, "kapshap_interactions_total", command="/table start", outcome="refused") == 1
    )
    # The game is running with both antes (10 each) in escrow; its turn timer is set, not due.
    assert value(after, "kapshap_open_tables", game="kap-shap", status="running") == 1
    assert value(after, "kapshap_chips_in_escrow") == 2 * bot.settings.default_ante
    assert value(after, "kapshap_timers") == 1
    assert value(after, "kapshap_timers_due") == 0 and value(after, "kapshap_timers_late") == 0
    # The database answered reads and write transactions, and its pool is described.
    assert value(after, "kapshap_db_query_seconds_count", kind="write") > value(
        before, "kapshap_db_query_seconds_count", kind="write"
    )
    assert value(after, "kapshap_db_query_seconds_count", kind="read") > 0
    assert value(after, "kapshap_db_pool_connections") >= 1
    assert value(after, "kapshap_db_pool_max") == (1 if bot.services.db.backend == "sqlite" else 10)
    # One shard, connected; its latency is a number; the loop's lag too; no review, no incident.
    assert value(after, "kapshap_shard_connected", shard="0") == 1
    assert math.isfinite(value(after, "kapshap_gateway_latency_seconds", shard="0"))
    assert value(after, "kapshap_event_loop_lag_seconds") >= 0
    assert value(after, "kapshap_reviews_queued") == 0
    assert value(after, "kapshap_incidents_total", kind="bug") == 0


async def test_a_passed_deadline_is_due_then_late(world: World) -> None:
    bot = world.bot
    ch = world.channel
    alice, bob = world.members[:2]
    bot.ops.metrics.cache.max_age = 0  # type: ignore[union-attr]
    await alice.slash(ch, "table new", game="kap-shap")
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    now = bot.clock.now().timestamp()
    # The deadline passed 5 s ago, before the scheduler's next pass: due, not late yet.
    async with bot.services.db.transaction() as tx:
        await tx.execute("UPDATE games SET deadline = ?", (now - 5,))
    samples = await scrape(bot)
    assert value(samples, "kapshap_timers_due") == 1
    assert value(samples, "kapshap_timers_late") == 0
    # 20 s ago: nobody fired it for longer than the scheduler's passes allow, it is late.
    async with bot.services.db.transaction() as tx:
        await tx.execute("UPDATE games SET deadline = ?", (now - 20,))
    samples = await scrape(bot)
    assert value(samples, "kapshap_timers_due") == 1
    assert value(samples, "kapshap_timers_late") == 1


async def test_health_is_200_when_connected_and_503_with_the_reason_otherwise(
    world: World,
) -> None:
    bot = world.bot
    assert await get(bot, "/health") == (200, "text/plain; charset=utf-8", "ok\n")

    shard = bot.get_shard(0)
    assert shard is not None
    await shard.disconnect()
    status, _type, text = await get(bot, "/health")
    assert (status, text) == (503, "unhealthy: shard 0 disconnected from Discord\n")
    await shard.reconnect()
    await world.env.settle()
    assert (await get(bot, "/health"))[0] == 200

    await bot.services.db.close()  # the database is gone
    status, _type, text = await get(bot, "/health")
    assert status == 503
    assert text == "unhealthy: the database does not answer: the database is closed\n"


async def test_health_is_503_while_the_postgresql_server_refuses_the_database(
    world: World, request: pytest.FixtureRequest, caplog: pytest.LogCaptureFixture
) -> None:
    """The server itself refuses (connections cut, new ones refused): 503 naming the database
    without its password; 200 again once the server accepts, the pool reconnecting by itself."""
    bot = world.bot
    if bot.services.db.backend != "postgresql":
        pytest.skip("a PostgreSQL server's refusal")
    server = request.getfixturevalue("pg_server")
    assert bot.settings.database_url is not None
    name = bot.settings.database_url.rsplit("/", 1)[1]
    server.psql(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
    server.psql(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'")
    status, _type, text = await get(bot, "/health")
    assert status == 503 and text.startswith("unhealthy: the database does not answer: "), text
    assert len(text.splitlines()) == 1  # what the driver says depends on where it was cut off
    server.psql(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
    for _attempt in range(10):  # a dead pooled connection may answer first; it is replaced
        status, _type, text = await get(bot, "/health")
        if status == 200:
            break
    assert (status, text) == (200, "ok\n")
