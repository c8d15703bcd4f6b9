"""Property: random sequences of chip operations conserve chips and never overdraw.

Each example runs a generated list of operations (claims, gifts, grants, antes, payouts, refunds,
carry-overs, with reused keys and invalid amounts mixed in) in a fresh database file and a fresh
event loop, and checks after every step that

* ``sum(balances) + held == minted - burned`` and every balance equals its ledger sum,
* no balance is negative,
* an operation that was refused changed nothing at all.
"""

from __future__ import annotations

import asyncio
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bot.services.chips import ChipsDefaults, ChipsService
from bot.services.clock import ManualClock
from bot.services.errors import UserError
from bot.storage.db import Database
from bot.storage.errors import IdempotencyConflict

GUILD = 1
USERS = st.sampled_from([1, 2, 3, 4])
GAMES = st.sampled_from(["a", "b", "c"])
CHANNELS = st.sampled_from([7, 8])
KEYS = st.sampled_from([f"k{i}" for i in range(6)])  # few keys: replays and conflicts happen
AMOUNTS = st.one_of(st.integers(1, 400), st.integers(-5, 1500))  # sometimes invalid or too big

OPERATIONS = st.one_of(
    st.tuples(st.just("balance"), USERS),
    st.tuples(st.just("daily"), USERS),
    st.tuples(st.just("advance"), st.integers(0, 30)),
    st.tuples(st.just("give"), USERS, USERS, AMOUNTS, KEYS),
    st.tuples(st.just("grant"), USERS, st.integers(-1500, 1500), KEYS),
    st.tuples(
        st.just("ante"),
        GAMES,
        st.dictionaries(USERS, AMOUNTS, max_size=4),
        st.one_of(st.none(), CHANNELS),
    ),
    st.tuples(st.just("payout"), GAMES, st.one_of(st.none(), USERS), st.integers(0, 100)),
    st.tuples(st.just("refund"), GAMES),
    st.tuples(st.just("carry"), GAMES, st.one_of(st.none(), CHANNELS)),
    st.tuples(st.just("collect"), GAMES, CHANNELS),
)

EXPECTED_REFUSALS = (UserError, IdempotencyConflict, ValueError)


async def _snapshot(db: Database) -> dict[str, list[tuple[Any, ...]]]:
    tables = ("accounts", "ledger", "escrow", "pots", "carried_pots")
    async with db.read() as tx:
        return {
            t: [tuple(r) for r in await tx.fetchall(f"SELECT * FROM {t} ORDER BY 1, 2")]
            for t in tables
        }


async def _apply(chips: ChipsService, clock: ManualClock, op: tuple[Any, ...]) -> None:
    match op:
        case ("balance", user):
            await chips.balance(GUILD, user)
        case ("daily", user):
            await chips.daily(GUILD, user)
        case ("advance", hours):
            clock.advance(timedelta(hours=hours))
        case ("give", src, dst, amount, key):
            await chips.give(GUILD, src, dst, amount, key)
        case ("grant", user, amount, key):
            await chips.grant(GUILD, 99, user, amount, key)
        case ("ante", game, antes, channel):
            await chips.escrow_antes(game, GUILD, antes, channel_id=channel)
        case ("payout", game, winner, rake):
            await chips.payout(game, winner, rake)
        case ("refund", game):
            await chips.refund(game)
        case ("carry", game, channel):
            await chips.carry_over(game, channel)
        case ("collect", game, channel):
            await chips.collect_carried_pot(game, GUILD, channel)
        case _:  # pragma: no cover - the strategy only makes the cases above
            raise AssertionError(op)


async def _run(operations: list[tuple[Any, ...]], directory: Path) -> None:
    db = await Database.open(directory / "prop.db")
    clock = ManualClock(datetime(2024, 1, 1, 20, tzinfo=UTC))
    chips = ChipsService(db, clock, ChipsDefaults(starting_chips=500, daily_amount=100))
    try:
        for op in operations:
            before = await _snapshot(db)
            try:
                await _apply(chips, clock, op)
                event(f"{op[0]}: done")
            except EXPECTED_REFUSALS as refusal:
                event(f"{op[0]}: {type(refusal).__name__}")
                assert await _snapshot(db) == before, f"refused {op} changed the database"
            totals = await chips.total_supply_check()
            assert totals.ok, (op, totals)
            assert totals.negative_balances == 0
        # Settling every game at the end still balances, and leaves nothing held but carried pots.
        for game in ("a", "b", "c"):
            await chips.refund(game)
        totals = await chips.total_supply_check()
        assert totals.ok, totals
        async with db.read() as tx:
            counted = await tx.scalar("SELECT COUNT(*) FROM accounts WHERE guild_id = ?", (GUILD,))
        assert await chips.account_count(GUILD) == counted  # the trigger-kept counter
        assert totals.held == sum([await chips.carried_pot(GUILD, c) for c in (7, 8)])
    finally:
        await db.close()


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(OPERATIONS, min_size=1, max_size=40))
def test_random_operations_conserve_chips(operations: list[tuple[Any, ...]]) -> None:
    with tempfile.TemporaryDirectory() as directory:
        asyncio.run(_run(operations, Path(directory)))
