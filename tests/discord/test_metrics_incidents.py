"""Failures in the metrics (docs/metrics.md): a bug is an ``error`` interaction and a ``bug``
incident, a database that cannot be reached an ``unavailable`` one and a
``database_unavailable`` incident; a failure in background work is counted too.

(Apart from tests/discord/test_metrics.py, whose autouse check fails any test that logs an
ERROR: here the bug's ERROR line is the point.)"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

import pytest

from bot.config import Settings
from bot.services.errors import DatabaseUnavailable
from cogs.desk import desk_for
from tests.discord.conftest import World
from tests.discord.test_metrics import scrape, value


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """Metrics on a free port."""
    return dataclasses.replace(settings, metrics_port=0)


async def test_bugs_and_an_unreachable_database_are_counted(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    bot = world.bot
    alice = world.members[0]
    chips = bot.services.chips
    assert (await alice.slash(world.channel, "chips daily")).ephemeral is not None

    async def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    async def unreachable(*_args: Any, **_kwargs: Any) -> Any:
        raise DatabaseUnavailable("cannot reach the database: connection refused")

    with caplog.at_level(logging.WARNING):
        monkeypatch.setattr(chips, "daily", broken)
        reply = await alice.slash(world.channel, "chips daily")
        assert "incident" in reply.response.content
        monkeypatch.setattr(chips, "daily", unreachable)
        reply = await alice.slash(world.channel, "chips daily")
        assert "try again" in reply.response.content
    samples = await scrape(bot)
    assert value(samples, "kapshap_interactions_total", command="/chips daily", outcome="ok") == 1
    assert (
        value(samples, "kapshap_interactions_total", command="/chips daily", outcome="error") == 1
    )
    assert (
        value(samples, "kapshap_interactions_total", command="/chips daily", outcome="unavailable")
        == 1
    )
    assert value(samples, "kapshap_incidents_total", kind="bug") == 1
    assert value(samples, "kapshap_incidents_total", kind="database_unavailable") == 1


async def test_a_failure_of_background_work_is_an_incident(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The turn timers' pass fails: no interaction, but the incident is counted for this bot."""
    bot = world.bot
    tables = bot.services.tables

    async def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("a bug in the timers")

    monkeypatch.setattr(tables, "expire_due", broken)
    with caplog.at_level(logging.ERROR):
        await desk_for(bot).tick()  # the scheduler's pass
    assert any("turn timers failed" in m for m in caplog.messages), caplog.messages
    samples = await scrape(bot)
    assert value(samples, "kapshap_incidents_total", kind="bug") >= 1
