"""Tsung Shap's point-difference settlement in the chips service, and migration 0002 that
allows its ledger kinds."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.services.chips import ChipsDefaults, ChipsService
from bot.services.clock import ManualClock
from bot.services.errors import InvalidAmount
from bot.storage.chips import LedgerKind
from bot.storage.db import Database, load_migrations
from bot.storage.errors import IntegrityError

G = 1
ANN, BOB = 11, 12


def make_chips(db: Database) -> ChipsService:
    clock = ManualClock(datetime(2024, 3, 10, 18, 30, tzinfo=UTC))
    return ChipsService(db, clock, ChipsDefaults(starting_chips=1000, daily_amount=100))


async def test_the_loser_pays_the_winner(db: Database) -> None:
    chips = make_chips(db)
    done = await chips.settle_difference("g1", G, ANN, BOB, 120)
    assert (done.paid, done.owed, done.capped) == (120, 120, False)
    assert (done.winner_balance, done.loser_balance) == (1120, 880)
    assert await chips.balance(G, ANN) == 1120 and await chips.balance(G, BOB) == 880
    [out_row] = await chips.history(G, BOB, limit=1)
    [in_row] = await chips.history(G, ANN, limit=1)
    assert (out_row.kind, out_row.delta, out_row.idem_key) == (
        LedgerKind.SETTLE_OUT,
        -120,
        "settle:g1:out",
    )
    assert (in_row.kind, in_row.delta, in_row.idem_key) == (
        LedgerKind.SETTLE_IN,
        120,
        "settle:g1:in",
    )
    assert out_row.game_id == in_row.game_id == "g1"
    totals = await chips.total_supply_check()
    assert totals.ok and totals.minted == 2000 and totals.burned == 0


async def test_the_payment_is_capped_at_the_losers_balance(db: Database) -> None:
    chips = make_chips(db)
    await chips.grant(G, 1, BOB, -950, "k")
    done = await chips.settle_difference("g1", G, ANN, BOB, 300)
    assert (done.paid, done.owed, done.capped) == (50, 300, True)
    assert await chips.balance(G, BOB) == 0 and await chips.balance(G, ANN) == 1050
    assert (await chips.total_supply_check(G)).ok


async def test_a_broke_loser_or_a_zero_amount_moves_nothing(db: Database) -> None:
    chips = make_chips(db)
    none = await chips.settle_difference("g0", G, ANN, BOB, 0)
    assert (none.paid, none.owed, none.capped) == (0, 0, False)
    await chips.grant(G, 1, BOB, -1000, "k")
    broke = await chips.settle_difference("g1", G, ANN, BOB, 40)
    assert (broke.paid, broke.capped) == (0, True)
    assert await chips.balance(G, ANN) == 1000
    assert [e.kind for e in await chips.history(G, ANN, limit=5)] == [LedgerKind.START]
    assert (await chips.total_supply_check()).ok


async def test_settling_twice_moves_chips_once(db: Database) -> None:
    chips = make_chips(db)
    first = await chips.settle_difference("g1", G, ANN, BOB, 70)
    again = await chips.settle_difference("g1", G, ANN, BOB, 70)
    assert again == first
    assert await chips.balance(G, ANN) == 1070 and await chips.balance(G, BOB) == 930
    assert (await chips.total_supply_check()).ok


async def test_bad_settlements_are_refused(db: Database) -> None:
    chips = make_chips(db)
    with pytest.raises(InvalidAmount):
        await chips.settle_difference("g1", G, ANN, BOB, -1)
    with pytest.raises(ValueError, match="differ"):
        await chips.settle_difference("g1", G, ANN, ANN, 5)


async def test_a_version_1_database_upgrades_with_its_ledger_intact(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    old = await Database.open(path, migrations=load_migrations()[:1])
    assert old.schema_version == 1
    chips = make_chips(old)
    await chips.give(G, ANN, BOB, 25, "i1")
    await chips.escrow_antes("g0", G, {ANN: 10, BOB: 10})
    await chips.payout("g0", ANN)
    async with old.read() as tx:
        before = [tuple(r) for r in await tx.fetchall("SELECT * FROM ledger ORDER BY id")]
    with pytest.raises(IntegrityError):  # version 1 refuses the new kinds
        await chips.settle_difference("g1", G, ANN, BOB, 5)
    await old.close()

    db = await Database.open(path)
    try:
        assert db.schema_version == len(load_migrations())  # every migration applied
        async with db.read() as tx:
            after = [tuple(r) for r in await tx.fetchall("SELECT * FROM ledger ORDER BY id")]
            indexes = {
                r[0]
                for r in await tx.fetchall(
                    "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'ledger'"
                )
            }
            assert await tx.fetchall("PRAGMA foreign_key_check") == []
        assert after == before
        assert {"ledger_by_member", "ledger_by_game"} <= indexes
        chips = make_chips(db)
        done = await chips.settle_difference("g1", G, ANN, BOB, 5)
        assert done.paid == 5
        assert (await chips.total_supply_check()).ok
        plan = " ".join(
            await db.explain_query_plan(
                "SELECT * FROM ledger WHERE guild_id = 1 AND user_id = 2 ORDER BY id DESC"
            )
        )
        assert "ledger_by_member" in plan
    finally:
        await db.close()


async def test_the_new_ledger_still_checks_signs_and_members(db: Database) -> None:
    async with db.transaction() as tx:
        await tx.execute(
            "INSERT INTO accounts (guild_id, user_id, balance, created_at) VALUES (1, 2, 0, 'x')"
        )
    bad_rows = [
        ("settle_out", 2, 5, 0),  # a payment out must be negative
        ("settle_in", 2, -5, 0),  # a payment in must be positive
        ("settle_in", None, 5, None),  # and belongs to a member
        ("nonsense", 2, 5, 0),
    ]
    for kind, user, delta, after in bad_rows:
        with pytest.raises(IntegrityError):
            async with db.transaction() as tx:
                await tx.execute(
                    "INSERT INTO ledger (guild_id, user_id, delta, balance_after, kind, idem_key,"
                    " created_at) VALUES (1, ?, ?, ?, ?, 'k', 'x')",
                    (user, delta, after, kind),
                )
