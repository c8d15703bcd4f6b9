"""Turn timers isolated per table, quarantine of a table that keeps failing, a busy database on
the settlement path, and down time that does not count against a player."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from datetime import timedelta

import pytest

from bot.ai.levels import player_for
from bot.services.clock import ManualClock
from bot.services.tables import (
    EXPIRY_CONCURRENCY,
    FAILURE_LIMIT,
    RESTORE_FLOOR_SECONDS,
    RETRY_SECONDS,
    Table,
    TableService,
    _ai_choice,
)
from bot.storage.db import Database
from bot.storage.games import GameStatus
from bot.storage.integrity import find_problems
from tests.crash.scenario import ALICE, BOB, GUILD, make_services


async def _running(service: TableService, channel: int) -> Table:
    table = await service.open_table(
        guild_id=GUILD, channel_id=channel, host_id=ALICE, host_name="Alice"
    )
    await service.join(channel, BOB, "Bob")
    await service.start(channel, ALICE)
    return table


async def _problems(db: Database) -> list[str]:
    async with db.read() as tx:
        problems, _ = await find_problems(tx)
    return [str(p) for p in problems]


async def test_one_failing_table_never_stops_the_others(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = ManualClock()
    service = make_services(db, clock, 1)
    tables = [await _running(service, 200 + i) for i in range(5)]
    bad = tables[0]
    real = service._expire

    async def expire(table: Table, now: float) -> object:
        if table is bad:
            raise RuntimeError("boom")
        return await real(table, now)

    monkeypatch.setattr(service, "_expire", expire)
    clock.advance(61)
    outcomes = await service.expire_due()
    # Every other table's expired turn was played, although the first one failed.
    assert {o.table.id for o in outcomes} == {t.id for t in tables[1:]}
    assert all(t.state is not None and t.state.turn > 1 for t in tables[1:])
    # The failing table is retried later, not at every pass.
    assert service.next_deadline() == pytest.approx(clock.now().timestamp() + RETRY_SECONDS)
    for _ in range(FAILURE_LIMIT - 1):
        clock.advance(RETRY_SECONDS)
        outcomes = await service.expire_due()
    # Quarantined after FAILURE_LIMIT failures: closed, antes refunded, channel free.
    assert [o.quarantined for o in outcomes if o.table is bad] == [True]
    assert service.get(bad.channel_id) is None
    record = await service._games.require(bad.id)
    assert record.status is GameStatus.BROKEN and "boom" in (record.broken_reason or "")
    pot = await service._chips.pot(bad.id)
    assert pot is not None and pot.status == "refunded"
    assert await _problems(db) == []
    await _running(service, bad.channel_id)  # the channel can host a new table


async def test_many_expiries_run_concurrently_but_bounded(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = ManualClock()
    service = make_services(db, clock, 1)
    count = EXPIRY_CONCURRENCY * 2 + 3
    for i in range(count):
        await _running(service, 300 + i)
    real = service._expire
    running = 0
    most = 0

    async def expire(table: Table, now: float) -> object:
        nonlocal running, most
        running += 1
        most = max(most, running)
        try:
            await asyncio.sleep(0)  # let the others in, as a slow Discord call would
            return await real(table, now)
        finally:
            running -= 1

    monkeypatch.setattr(service, "_expire", expire)
    clock.advance(61)
    outcomes = await service.expire_due()
    assert len(outcomes) == count
    assert most == EXPIRY_CONCURRENCY  # overlapping, not one after another; and bounded


async def test_a_busy_database_on_the_settlement_path_loses_nothing(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = make_services(db, ManualClock(), 1)
    table = await _running(service, 400)
    chips = service._chips
    real_payout, real_refund = chips.payout, chips.refund
    busy = True

    async def locked(*args: object, **kwargs: object) -> object:
        if busy:
            raise sqlite3.OperationalError("database is locked")
        fn = real_payout if len(args) > 1 else real_refund
        return await fn(*args, **kwargs)  # type: ignore[operator]

    monkeypatch.setattr(chips, "payout", locked)
    monkeypatch.setattr(chips, "refund", locked)
    rng = random.Random(4)
    failed_once = False
    while table.running:
        state = table.state
        assert state is not None
        user = table.seats[state.current].user_id
        assert user is not None
        action = rng.choice(table.legal())
        version = table.version
        try:
            await service.act(400, user, action, version=version)
        except sqlite3.OperationalError:
            # The final move and its settlement were one transaction: neither was saved.
            failed_once = True
            assert table.running and table.version == version
            assert (await service._games.require(table.id)).status is GameStatus.RUNNING
            assert await _problems(db) == []
            busy = False
            await service.act(400, user, action, version=version)  # the player tries again
    assert failed_once
    assert table.status in (GameStatus.FINISHED, GameStatus.DRAWN)
    assert await _problems(db) == []
    assert (await service._games.require(table.id)).settled


async def test_down_time_does_not_count(db: Database) -> None:
    clock = ManualClock()
    service = make_services(db, clock, 1)
    table = await _running(service, 500)
    assert table.deadline is not None
    clock.advance(45)  # 15 of the 60 seconds left
    await service.stopping()
    clock.advance(timedelta(hours=3))  # the bot is down for three hours

    fresh = make_services(db, clock, 1)
    [restored] = await fresh.restore()
    assert restored.deadline is not None
    now = clock.now().timestamp()
    assert restored.deadline >= now + RESTORE_FLOOR_SECONDS
    assert await fresh.expire_due() == []  # nothing played for him at the restart
    clock.advance(RESTORE_FLOOR_SECONDS - 1)
    assert await fresh.expire_due() == []
    clock.advance(2)
    assert len(await fresh.expire_due()) == 1
    assert (await service._games.require(table.id)).deadline is not None


async def test_down_time_gives_back_what_was_left_when_it_was_more_than_the_floor(
    db: Database,
) -> None:
    clock = ManualClock()
    service = make_services(db, clock, 1)
    table = await _running(service, 501)
    assert table.deadline is not None
    clock.advance(5)  # 55 seconds left
    await service.stopping()
    clock.advance(600)
    [restored] = await make_services(db, clock, 1).restore()
    assert restored.deadline is not None
    assert restored.deadline - clock.now().timestamp() >= 55


async def test_a_pot_refunded_behind_a_game_is_never_announced_as_a_payout(db: Database) -> None:
    """What an interrupted `endtable` used to leave (the refund without the end): should such a
    game still reach its end, the line says what really happened, not "a pot of 0 chips"."""
    service = make_services(db, ManualClock(), 1)
    table = await _running(service, 700)
    await service._chips.refund(table.id)
    rng = random.Random(2)
    while table.running:
        state = table.state
        assert state is not None
        user = table.seats[state.current].user_id
        assert user is not None
        action = _ai_choice(player_for(table.game, "greedy"), state, state.current, rng)
        await service.act(700, user, action, version=table.version)
    assert table.status is GameStatus.FINISHED  # a win: the payout path
    assert table.recent[-1] == "Every ante was refunded."
    assert not any("0 chips" in line for line in table.recent)
