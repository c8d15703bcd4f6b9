"""Tournament buy-ins in the ledger: escrow one member at a time, refund one, pay a split, and
the invariant (``kapshap db check``) accounting for a tournament's open pot."""

from __future__ import annotations

import pytest

from bot.services.chips import ChipsDefaults, ChipsService
from bot.services.clock import ManualClock
from bot.services.errors import InsufficientChips, UnpaidAntes
from bot.services.tables import TableService
from bot.storage.db import Database, load_migrations
from bot.storage.games import GamesRepo
from bot.storage.integrity import find_problems
from bot.storage.tournaments import TournamentsRepo

GUILD = 7
POT = "tournament:1"


async def problems(db: Database) -> list[str]:
    async with db.read() as tx:
        found, totals = await find_problems(tx)
    assert totals.ok or found
    return [str(p) for p in found]


async def event(db: Database, clock: ManualClock) -> int:
    async with db.transaction() as tx:
        return await TournamentsRepo().create(
            tx,
            guild_id=GUILD,
            channel_id=3,
            name="Cup",
            organiser_id=1,
            settings={},
            options={},
            closes_at=None,
            created_at=clock.now(),
        )


async def set_status(db: Database, tid: int, status: str) -> None:
    async with db.transaction() as tx:
        await tx.execute("UPDATE tournaments SET status = ? WHERE id = ?", (status, tid))


async def test_buy_ins_refunds_and_a_split_keep_the_invariant(db: Database) -> None:
    assert db.schema_version == len(load_migrations())
    clock = ManualClock()
    chips = ChipsService(db, clock, ChipsDefaults(starting_chips=100, daily_amount=10))
    tid = await event(db, clock)
    assert f"tournament:{tid}" == POT
    for user in (11, 12, 13):
        await chips.buy_in(POT, GUILD, user, 40, f"ante:{POT}:{user}:1")
    await chips.buy_in(POT, GUILD, 11, 40, f"ante:{POT}:11:1")  # a retry: nothing moves
    assert await chips.balance(GUILD, 11) == 60
    # A member short of the buy-in is told the buy-in, not a table's "ante" refusal.
    with pytest.raises(InsufficientChips) as caught:
        await chips.buy_in(POT, GUILD, 14, 500, f"ante:{POT}:14:1")
    assert not isinstance(caught.value, UnpaidAntes)
    assert caught.value.localized("en") == "The buy-in is 500 chips; you have 100."
    assert await chips.balance(GUILD, 14) == 100  # refused as a whole
    assert await problems(db) == []

    # One member leaves: his buy-in comes back and the pot stays open.
    assert await chips.refund_member(POT, 12, f"refund:{POT}:12:1") == 40
    assert await chips.refund_member(POT, 12, f"refund:{POT}:12:1") == 0
    assert await chips.balance(GUILD, 12) == 100
    assert await problems(db) == []
    # He joins again under a fresh key.
    await chips.buy_in(POT, GUILD, 12, 40, f"ante:{POT}:12:2")
    assert await problems(db) == []
    pot = await chips.pot(POT)
    assert pot is not None and pot.total == 120

    # A split must add up to the pot.
    with pytest.raises(ValueError):
        await chips.pay_split(POT, {11: 100})
    # An event that finished without paying its pot is a problem the check names.
    await set_status(db, tid, "finished")
    assert any("belongs to a finished event" in p for p in await problems(db))
    settled = await chips.pay_split(POT, {11: 72, 13: 48})
    assert settled.pot == 120
    assert await chips.pay_split(POT, {11: 72, 13: 48}) == settled  # idempotent
    assert [await chips.balance(GUILD, u) for u in (11, 12, 13)] == [132, 60, 108]
    assert await problems(db) == []


async def test_an_open_tournament_pot_is_not_refunded_by_the_table_repair(db: Database) -> None:
    clock = ManualClock()
    chips = ChipsService(db, clock, ChipsDefaults(starting_chips=100, daily_amount=10))
    tid = await event(db, clock)
    await chips.buy_in(POT, GUILD, 11, 40, f"ante:{POT}:11:1")
    tables = TableService(GamesRepo(db), chips, clock)
    assert await tables.repair() == []
    assert await chips.balance(GUILD, 11) == 60
    await set_status(db, tid, "cancelled")
    assert any("belongs to a cancelled event" in p for p in await problems(db))
    await chips.refund(POT)
    assert await problems(db) == []
