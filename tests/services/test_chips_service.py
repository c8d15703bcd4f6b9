"""The chips service on a real, migrated SQLite file."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.services.chips import (
    MAX_AMOUNT,
    MAX_BALANCE,
    ChipsDefaults,
    ChipsService,
    Gift,
    Outcome,
    Settlement,
)
from bot.services.clock import ManualClock
from bot.services.errors import (
    AlreadyClaimed,
    BalanceLimit,
    DailyDisabled,
    InsufficientChips,
    InvalidAmount,
    InvalidTarget,
    PotClosed,
    UnpaidAntes,
    UserError,
)
from bot.storage.chips import LedgerKind, PotStatus
from bot.storage.db import Database
from bot.storage.errors import IdempotencyConflict, IntegrityError
from bot.storage.guild_config import GuildConfigRecord, GuildConfigRepo

G = 1  # guild
ANN, BOB, CAT, DAN = 11, 12, 13, 14
START, DAILY = 1000, 100


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(datetime(2024, 3, 10, 18, 30, tzinfo=UTC))


@pytest.fixture
def chips(db: Database, clock: ManualClock) -> ChipsService:
    return ChipsService(db, clock, ChipsDefaults(starting_chips=START, daily_amount=DAILY))


async def snapshot(db: Database) -> dict[str, list[tuple[Any, ...]]]:
    """Every chip-related row, to prove that a refused operation changed nothing."""
    tables = ("accounts", "ledger", "escrow", "pots", "carried_pots")
    async with db.read() as tx:
        return {
            t: [tuple(r) for r in await tx.fetchall(f"SELECT * FROM {t} ORDER BY 1, 2")]
            for t in tables
        }


async def assert_conserved(chips: ChipsService) -> None:
    totals = await chips.total_supply_check()
    assert totals.ok, totals


async def set_balance(chips: ChipsService, user: int, balance: int) -> None:
    """Bring a member to an exact balance through a recorded grant."""
    delta = balance - await chips.balance(G, user)
    if delta:
        await chips.grant(G, 1, user, delta, f"set:{user}:{balance}:{delta}")


# --- balances and the starting mint ------------------------------------------------------------


async def test_first_balance_opens_the_account_with_a_start_mint(chips: ChipsService) -> None:
    assert await chips.balance(G, ANN) == START
    assert await chips.balance(G, ANN) == START
    [entry] = await chips.history(G, ANN)
    assert (entry.kind, entry.delta, entry.balance_after) == (LedgerKind.START, START, START)
    assert entry.idem_key == f"start:{G}:{ANN}"
    assert await chips.balance(G + 1, ANN) == START  # accounts are per guild
    await assert_conserved(chips)


async def test_guild_config_overrides_the_starting_chips(db: Database, chips: ChipsService) -> None:
    async with db.transaction() as tx:
        await GuildConfigRepo().put(tx, GuildConfigRecord(G, starting_chips=0), datetime.now(UTC))
    assert await chips.balance(G, ANN) == 0
    assert await chips.history(G, ANN) == []  # a zero start moves no chips: no ledger row
    await assert_conserved(chips)


# --- daily -------------------------------------------------------------------------------------


async def test_daily_once_per_utc_day(
    chips: ChipsService, clock: ManualClock, db: Database
) -> None:
    claim = await chips.daily(G, ANN)
    assert (claim.amount, claim.balance) == (DAILY, START + DAILY)
    assert claim.next_claim_at == datetime(2024, 3, 11, tzinfo=UTC)

    before = await snapshot(db)
    clock.advance(timedelta(hours=5))  # 23:30, still the same UTC day
    with pytest.raises(AlreadyClaimed) as caught:
        await chips.daily(G, ANN)
    assert caught.value.next_claim_at == datetime(2024, 3, 11, tzinfo=UTC)
    assert "0h 30m" in str(caught.value)
    assert "2024-03-11 00:00 UTC" in str(caught.value)
    assert await snapshot(db) == before

    clock.advance(timedelta(minutes=30))  # midnight UTC: a new day
    again = await chips.daily(G, ANN)
    assert again.balance == START + 2 * DAILY
    keys = [e.idem_key for e in await chips.history(G, ANN) if e.kind is LedgerKind.DAILY]
    assert keys == [f"daily:{G}:{ANN}:2024-03-11", f"daily:{G}:{ANN}:2024-03-10"]
    await assert_conserved(chips)


async def test_daily_can_be_turned_off(db: Database, chips: ChipsService) -> None:
    async with db.transaction() as tx:
        await GuildConfigRepo().put(tx, GuildConfigRecord(G, daily_amount=0), datetime.now(UTC))
    with pytest.raises(DailyDisabled):
        await chips.daily(G, ANN)


# --- give --------------------------------------------------------------------------------------


async def test_give_moves_chips_atomically(chips: ChipsService) -> None:
    gift = await chips.give(G, ANN, BOB, 300, "interaction:1")
    assert gift == Gift(ANN, BOB, 300, START - 300, START + 300)
    assert await chips.balance(G, ANN) == START - 300
    assert await chips.balance(G, BOB) == START + 300
    out = (await chips.history(G, ANN, limit=1))[0]
    into = (await chips.history(G, BOB, limit=1))[0]
    assert (out.kind, out.delta, out.idem_key) == (LedgerKind.GIVE_OUT, -300, "give:interaction:1")
    assert (into.kind, into.delta, into.idem_key) == (
        LedgerKind.GIVE_IN,
        300,
        "give:interaction:1:in",
    )
    await assert_conserved(chips)


async def test_give_with_the_same_key_is_a_no_op(chips: ChipsService, db: Database) -> None:
    first = await chips.give(G, ANN, BOB, 300, "interaction:1")
    state = await snapshot(db)
    assert await chips.give(G, ANN, BOB, 300, "interaction:1") == first
    assert await snapshot(db) == state
    with pytest.raises(IdempotencyConflict):
        await chips.give(G, ANN, BOB, 301, "interaction:1")
    with pytest.raises(IdempotencyConflict):
        await chips.give(G, ANN, CAT, 300, "interaction:1")
    assert await snapshot(db) == state


async def test_double_clicks_racing_each_other_give_once(chips: ChipsService) -> None:
    results = await asyncio.gather(*(chips.give(G, ANN, BOB, 10, "click") for _ in range(10)))
    assert len(set(results)) == 1
    assert await chips.balance(G, ANN) == START - 10


async def test_concurrent_gifts_never_overdraw(chips: ChipsService) -> None:
    results = await asyncio.gather(
        *(chips.give(G, ANN, BOB, 300, f"k{i}") for i in range(5)), return_exceptions=True
    )
    assert sum(isinstance(r, Gift) for r in results) == 3
    assert all(isinstance(r, (Gift, InsufficientChips)) for r in results)
    assert await chips.balance(G, ANN) == 100
    await assert_conserved(chips)


@pytest.mark.parametrize("amount", [0, -5, MAX_AMOUNT + 1, 1.5, True, "10"])
async def test_give_rejects_bad_amounts(chips: ChipsService, db: Database, amount: Any) -> None:
    await chips.balance(G, ANN)
    state = await snapshot(db)
    with pytest.raises(InvalidAmount, match="whole number"):
        await chips.give(G, ANN, BOB, amount, "k")
    assert await snapshot(db) == state


async def test_give_refusals_change_nothing(chips: ChipsService, db: Database) -> None:
    await chips.balance(G, ANN)
    await chips.balance(G, BOB)
    state = await snapshot(db)
    with pytest.raises(InvalidTarget):
        await chips.give(G, ANN, ANN, 5, "self")
    with pytest.raises(InsufficientChips) as caught:
        await chips.give(G, ANN, BOB, START + 1, "too-much")
    assert (caught.value.balance, caught.value.needed) == (START, START + 1)
    assert "You have 1,000 chips" in str(caught.value)
    assert await snapshot(db) == state
    # A refused gift does not burn its key: the same key works once there are chips.
    await chips.grant(G, 1, ANN, 1, "top-up")
    assert (await chips.give(G, ANN, BOB, START + 1, "too-much")).from_balance == 0


async def test_a_gift_to_a_new_member_opens_his_account(chips: ChipsService) -> None:
    gift = await chips.give(G, ANN, CAT, 1, "k")
    assert gift.to_balance == START + 1
    kinds = [e.kind for e in await chips.history(G, CAT)]
    assert kinds == [LedgerKind.GIVE_IN, LedgerKind.START]


async def test_give_respects_the_maximum_balance(chips: ChipsService, db: Database) -> None:
    await chips.balance(G, ANN)
    async with db.transaction() as tx:  # a rich member, without a thousand grants
        await tx.execute(
            "INSERT INTO accounts (guild_id, user_id, balance, created_at) VALUES (?, ?, ?, ?)",
            (G, BOB, MAX_BALANCE, "2024-01-01T00:00:00+00:00"),
        )
    state = await snapshot(db)
    with pytest.raises(BalanceLimit):
        await chips.give(G, ANN, BOB, 1, "k")
    assert await snapshot(db) == state


# --- grant -------------------------------------------------------------------------------------


async def test_grant_adds_and_removes(chips: ChipsService) -> None:
    plus = await chips.grant(G, 1, ANN, 500, "interaction:7")
    assert plus.balance == START + 500
    minus = await chips.grant(G, 1, ANN, -1500, "interaction:8")
    assert minus.balance == 0
    entry = (await chips.history(G, ANN, limit=1))[0]
    assert (entry.kind, entry.delta, entry.actor_id) == (LedgerKind.GRANT, -1500, 1)
    totals = await chips.total_supply_check()
    assert (totals.minted, totals.burned, totals.balances) == (START + 500, 1500, 0)
    assert totals.ok


async def test_grant_never_goes_below_zero(chips: ChipsService, db: Database) -> None:
    await chips.balance(G, ANN)
    state = await snapshot(db)
    with pytest.raises(InsufficientChips, match="only 1,000 chips"):
        await chips.grant(G, 1, ANN, -START - 1, "k")
    for bad in (0, MAX_AMOUNT + 1, -MAX_AMOUNT - 1):
        with pytest.raises(InvalidAmount):
            await chips.grant(G, 1, ANN, bad, "k")
    assert await snapshot(db) == state


async def test_grant_is_idempotent(chips: ChipsService, db: Database) -> None:
    first = await chips.grant(G, 1, ANN, 50, "interaction:9")
    state = await snapshot(db)
    assert await chips.grant(G, 1, ANN, 50, "interaction:9") == first
    assert await snapshot(db) == state
    with pytest.raises(IdempotencyConflict):
        await chips.grant(G, 1, BOB, 50, "interaction:9")
    # Gift and grant keys live in separate namespaces: the same interaction id may serve both.
    await chips.give(G, ANN, BOB, 5, "interaction:9")


# --- history -----------------------------------------------------------------------------------


async def test_history_is_newest_first_and_pages(chips: ChipsService, clock: ManualClock) -> None:
    for i in range(5):
        await chips.grant(G, 1, ANN, i + 1, f"g{i}")
        clock.advance(1)
    entries = await chips.history(G, ANN, limit=3)
    assert [e.delta for e in entries] == [5, 4, 3]
    older = await chips.history(G, ANN, limit=10, before_id=entries[-1].id)
    assert [e.delta for e in older] == [2, 1, START]
    assert entries[0].created_at == clock.now() - timedelta(seconds=1)
    with pytest.raises(ValueError):
        await chips.history(G, ANN, limit=0)


# --- leaderboard and rank ----------------------------------------------------------------------


async def test_leaderboard_and_rank_agree_with_ties(chips: ChipsService) -> None:
    balances = {ANN: 500, BOB: 900, CAT: 500, DAN: 900, 15: 0, 16: 2000}
    for user, balance in balances.items():
        await set_balance(chips, user, balance)
    await chips.grant(G + 1, 1, 99, 10_000, "other-guild")  # invisible in guild G

    board = await chips.leaderboard(G, 0, 10)
    expected = [(16, 2000), (BOB, 900), (DAN, 900), (ANN, 500), (CAT, 500), (15, 0)]
    assert [(e.user_id, e.balance) for e in board] == expected
    assert [e.rank for e in board] == [1, 2, 3, 4, 5, 6]
    for entry in board:
        info = await chips.rank(G, entry.user_id)
        assert info is not None
        assert (info.rank, info.balance, info.total) == (entry.rank, entry.balance, 6)

    page = await chips.leaderboard(G, offset=2, limit=2)
    assert [(e.rank, e.user_id) for e in page] == [(3, DAN), (4, ANN)]
    assert await chips.leaderboard(G, offset=6, limit=5) == []
    assert await chips.account_count(G) == 6
    assert await chips.rank(G, 12345) is None
    assert await chips.account_count(G) == 6  # rank() did not open an account
    with pytest.raises(ValueError):
        await chips.leaderboard(G, offset=-1)
    with pytest.raises(ValueError):
        await chips.leaderboard(G, limit=101)


async def test_leaderboard_queries_use_the_index(tmp_path: Path) -> None:
    # SQLite's plans (PostgreSQL's planner picks by statistics, its plans are not fixed).
    from bot.storage.chips import LEADERBOARD_SQL, RANK_SQL

    db = await Database.open(tmp_path / "plan.db")
    board = await db.explain_query_plan(LEADERBOARD_SQL, {"guild": 1, "limit": 10, "offset": 0})
    assert any("USING COVERING INDEX accounts_by_balance" in line for line in board), board
    assert not any("TEMP B-TREE" in line for line in board), board  # no sort step
    rank = await db.explain_query_plan(RANK_SQL, {"guild": 1, "balance": 5, "user": 3})
    covering = [line for line in rank if "COVERING INDEX accounts_by_balance" in line]
    assert len(covering) == 2, rank
    assert not any(line.startswith("SCAN accounts") for line in rank), rank
    await db.close()


# --- antes, payout, refund ---------------------------------------------------------------------


async def test_escrow_is_all_or_nothing(chips: ChipsService, db: Database) -> None:
    await set_balance(chips, ANN, 1000)
    await set_balance(chips, BOB, 30)
    await set_balance(chips, CAT, 0)
    state = await snapshot(db)
    with pytest.raises(UnpaidAntes) as caught:
        await chips.escrow_antes("g1", G, {ANN: 50, BOB: 50, CAT: 50})
    assert [(s.user_id, s.balance, s.needed) for s in caught.value.shortfalls] == [
        (BOB, 30, 50),
        (CAT, 0, 50),
    ]
    assert isinstance(caught.value, UserError)
    message = str(caught.value)
    assert f"<@{BOB}> has 30 chips (needs 50)" in message
    assert f"<@{CAT}> has 0 chips" in message
    assert "nobody was charged" in message
    assert await snapshot(db) == state  # not even Ann's ante, not even a pot row
    assert await chips.pot("g1") is None


async def test_escrow_then_payout_with_rake(chips: ChipsService, db: Database) -> None:
    pot = await chips.escrow_antes("g1", G, {ANN: 50, BOB: 50, CAT: 50}, channel_id=7)
    assert (pot.status, dict(pot.antes), pot.total) == (
        PotStatus.OPEN,
        {ANN: 50, BOB: 50, CAT: 50},
        150,
    )
    assert await chips.balance(G, ANN) == START - 50
    await assert_conserved(chips)

    # Retried start (e.g. after a crash between the antes and the game row): nothing new.
    state = await snapshot(db)
    assert await chips.escrow_antes("g1", G, {ANN: 50, BOB: 50, CAT: 50}) == pot
    assert await snapshot(db) == state
    with pytest.raises(IdempotencyConflict):
        await chips.escrow_antes("g1", G, {ANN: 60})

    result = await chips.payout("g1", BOB, rake_percent=5)
    assert result == Settlement("g1", Outcome.PAID, pot=150, winner_id=BOB, paid=143, rake=7)
    assert await chips.balance(G, BOB) == START - 50 + 143
    assert await chips.balance(G, ANN) == START - 50
    rows = [(e.kind, e.delta) for e in await chips.history(G, BOB, limit=2)]
    assert rows == [(LedgerKind.RAKE, -7), (LedgerKind.PAYOUT, 150)]
    totals = await chips.total_supply_check()
    assert totals.ok and totals.burned == 7 and totals.held == 0

    # Idempotent: a second payout, a refund, a carry-over change nothing and report the payout.
    state = await snapshot(db)
    assert await chips.payout("g1", BOB, rake_percent=5) == result
    assert await chips.payout("g1", ANN) == result
    assert await chips.refund("g1") == result
    assert await chips.carry_over("g1") == result
    assert await snapshot(db) == state
    with pytest.raises(PotClosed):
        await chips.escrow_antes("g1", G, {DAN: 50})
    settled = await chips.pot("g1")
    assert settled is not None and settled.status is PotStatus.PAID and settled.total == 0


async def test_antes_can_be_added_while_the_pot_is_open(chips: ChipsService) -> None:
    await chips.escrow_antes("g1", G, {ANN: 10})
    pot = await chips.escrow_antes("g1", G, {ANN: 10, BOB: 20})
    assert dict(pot.antes) == {ANN: 10, BOB: 20}
    with pytest.raises(ValueError, match="guild"):
        await chips.escrow_antes("g1", G + 1, {CAT: 10})
    with pytest.raises(InvalidAmount):
        await chips.escrow_antes("g2", G, {ANN: 0})
    empty = await chips.escrow_antes("g3", G, {})
    assert empty.total == 0 and await chips.pot("g3") is None


async def test_refund_returns_each_ante_exactly(chips: ChipsService, db: Database) -> None:
    await set_balance(chips, ANN, 500)
    await chips.escrow_antes("g1", G, {ANN: 40, BOB: 70})
    result = await chips.refund("g1")
    assert result == Settlement("g1", Outcome.REFUNDED, pot=110, refunds={ANN: 40, BOB: 70})
    assert await chips.balance(G, ANN) == 500
    assert await chips.balance(G, BOB) == START
    state = await snapshot(db)
    assert await chips.refund("g1") == result
    assert await chips.payout("g1", ANN) == result
    assert await snapshot(db) == state
    await assert_conserved(chips)


async def test_an_ai_win_burns_the_pot_as_house_win(chips: ChipsService, db: Database) -> None:
    await chips.escrow_antes("g1", G, {ANN: 50, BOB: 50})
    result = await chips.payout("g1", None)
    assert result == Settlement("g1", Outcome.HOUSE, pot=100)
    assert await chips.balance(G, ANN) == START - 50
    async with db.read() as tx:
        row = await tx.fetchone(
            "SELECT user_id, delta, kind FROM ledger WHERE idem_key = ?", ("house_win:g1",)
        )
    assert row is not None and tuple(row) == (None, -100, "house_win")
    totals = await chips.total_supply_check()
    assert totals.ok and totals.burned == 100
    assert await chips.payout("g1", ANN) == result


async def test_settling_a_game_without_antes(chips: ChipsService) -> None:
    assert await chips.payout("free", ANN) == Settlement("free", Outcome.NO_POT, winner_id=ANN)
    assert await chips.refund("free") == Settlement("free", Outcome.NO_POT)
    assert await chips.carry_over("free", 7) == Settlement("free", Outcome.NO_POT)
    with pytest.raises(ValueError, match="rake"):
        await chips.payout("free", ANN, rake_percent=101)


async def test_a_drawn_pot_carries_over_to_the_next_game(chips: ChipsService) -> None:
    await chips.escrow_antes("g1", G, {ANN: 50, BOB: 50}, channel_id=7)
    carried = await chips.carry_over("g1")
    assert carried == Settlement("g1", Outcome.CARRIED, pot=100, carried=100)
    assert await chips.carried_pot(G, 7) == 100
    await assert_conserved(chips)

    await chips.escrow_antes("g2", G, {ANN: 50, CAT: 50}, channel_id=7)
    assert await chips.collect_carried_pot("g2", G, 7) == 100
    assert await chips.collect_carried_pot("g2", G, 7) == 100  # idempotent
    assert await chips.carried_pot(G, 7) == 0
    pot = await chips.pot("g2")
    assert pot is not None and (pot.carried_in, pot.total) == (100, 200)
    await assert_conserved(chips)

    # Cancelled: the antes go back, the carried chips go back to the channel.
    refund = await chips.refund("g2")
    assert (refund.refunds, refund.carried) == ({ANN: 50, CAT: 50}, 100)
    assert await chips.carried_pot(G, 7) == 100
    assert await chips.refund("g2") == refund
    await assert_conserved(chips)

    await chips.escrow_antes("g3", G, {BOB: 50})
    assert await chips.collect_carried_pot("g3", G, 7) == 100
    won = await chips.payout("g3", BOB)
    assert (won.pot, won.paid) == (150, 150)
    assert await chips.balance(G, BOB) == START - 50 + 100
    await assert_conserved(chips)


async def test_open_pots_lists_what_a_crash_left_unsettled(chips: ChipsService) -> None:
    await chips.escrow_antes("g1", G, {ANN: 5})
    await chips.escrow_antes("g2", G + 1, {ANN: 5})
    await chips.escrow_antes("g3", G, {BOB: 5})
    await chips.refund("g3")
    assert [p.game_id for p in await chips.open_pots()] == ["g1", "g2"]
    assert [p.game_id for p in await chips.open_pots(G)] == ["g1"]


async def test_the_ledger_refuses_a_reused_key_even_without_the_service(db: Database) -> None:
    from bot.storage.chips import ChipsRepo

    repo = ChipsRepo()
    now = datetime.now(UTC)
    async with db.transaction() as tx:
        await repo.create_account(tx, G, ANN, 0, now)
    with pytest.raises(IntegrityError, match=r"ledger.idem_key"):
        async with db.transaction() as tx:
            for _ in range(2):
                await repo.add_ledger(
                    tx,
                    guild_id=G,
                    user_id=ANN,
                    delta=1,
                    balance_after=1,
                    kind=LedgerKind.DAILY,
                    idem_key="same",
                    created_at=now,
                )
