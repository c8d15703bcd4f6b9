"""A long, fixed sequence of money operations and the rows it leaves, for comparing two versions
of the chips service row for row.

:func:`run_sequence` plays every money path of :class:`~bot.services.chips.ChipsService` on a
fresh SQLite file — daily claims, gifts, grants and house funding, antes of games with the
house staking computer seats, payouts with and without rake, a computer win, a burned pot,
refunds, a carried pot collected by the next game, a tournament's buy-ins, a refund to a member
who left and the split payout, difference settlements (paid in full, capped, nothing owed),
pots whose row was deleted and rebuilt, calls inside a caller's transaction, the refusals of
each, and retries of every key — and returns what each call returned (or raised) and the full
``accounts``, ``ledger``, ``escrow``, ``pots`` and ``carried_pots`` tables.

``tests/services/chips_sequence.json`` holds what the service gave before the ledger
primitive (issue 19 step 3) was written; ``python -m tests.services.chips_sequence`` writes it
again from the code checked out (do that only for an intended change of the rows, and say so in
the commit).
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import sys
import tempfile
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path
from typing import Any, Protocol

from bot.limits import MAX_BALANCE
from bot.services.clock import ManualClock
from bot.services.errors import UserError
from bot.storage.chips import ChipsRepo
from bot.storage.db import Database
from bot.storage.errors import StorageError
from bot.storage.guild_config import GuildConfigRecord, GuildConfigRepo
from bot.storage.tournaments import TournamentsRepo

GOLDEN = Path(__file__).with_suffix(".json")
TABLES = ("accounts", "ledger", "escrow", "pots", "carried_pots")

G, G_SMALL, G_ZERO = 1, 2, 3  # default guild; one starting with 500 and no daily; one with 0
ADMIN, ALICE, BOB, CAROL, DAVE, RICH, ERIN = 9, 11, 12, 13, 14, 15, 16
HOUSE = 0
CHANNEL, OTHER_CHANNEL = 100, 101


class Service(Protocol):
    """What the sequence calls: ChipsService, of whichever version."""

    def __getattr__(self, name: str) -> Any: ...


ServiceFactory = Callable[[Database, ManualClock], Service]


def outcome(value: object) -> str:
    """A call's result as text; an exception as its type, its message and its values."""
    if isinstance(value, BaseException):
        values = getattr(value, "values", None) if isinstance(value, UserError) else None
        extra = "" if not values else f" {sorted((k, repr(v)) for k, v in values.items())}"
        return f"raised {type(value).__name__}: {value}{extra}"
    return repr(value)


async def dump(db: Database) -> dict[str, list[list[Any]]]:
    """Every row of the chip tables, in key order."""
    async with db.read() as tx:
        return {
            table: [list(r) for r in await tx.fetchall(f"SELECT * FROM {table} ORDER BY 1, 2, 3")]
            for table in TABLES
        }


def _delete_pot(path: Path, game_id: str) -> None:
    """An operator's stray DELETE (the sqlite3 shell enforces no foreign key)."""
    with sqlite3.connect(path) as conn:
        assert conn.execute("DELETE FROM pots WHERE game_id = ?", (game_id,)).rowcount == 1


async def run_sequence(path: Path, make: ServiceFactory) -> dict[str, Any]:
    """Play the sequence on a new database at ``path``; what each call gave, and the tables."""
    db = await Database.open(path)
    clock = ManualClock()
    chips = make(db, clock)
    log: list[list[str]] = []

    async def step(label: str, call: Callable[[], Awaitable[object]]) -> None:
        clock.advance(timedelta(seconds=7))
        try:
            result: object = await call()
        except (UserError, StorageError, ValueError, LookupError) as exc:
            result = exc
        log.append([label, outcome(result)])

    try:
        async with db.transaction() as tx:
            config = GuildConfigRepo()
            await config.put(
                tx, GuildConfigRecord(G_SMALL, starting_chips=500, daily_amount=0), clock.now()
            )
            await config.put(tx, GuildConfigRecord(G_ZERO, starting_chips=0), clock.now())
            # A member a few chips under the maximum balance (imported, as a bulk set-up would).
            await ChipsRepo().import_balances(tx, G, [(RICH, MAX_BALANCE - 5)], clock.now())

        # --- accounts: balances, daily claims, gifts, grants, the house ---------------------------
        await step("balance alice (opens)", lambda: chips.balance(G, ALICE))
        await step("balance alice again", lambda: chips.balance(G, ALICE))
        await step("daily alice", lambda: chips.daily(G, ALICE))
        await step("daily alice again", lambda: chips.daily(G, ALICE))
        await step("daily bob (opens)", lambda: chips.daily(G, BOB))
        clock.advance(timedelta(days=1))
        await step("daily alice next day", lambda: chips.daily(G, ALICE))
        await step("daily rich over the limit", lambda: chips.daily(G, RICH))
        await step("daily small guild (off)", lambda: chips.daily(G_SMALL, ALICE))
        await step("balance small guild", lambda: chips.balance(G_SMALL, ALICE))
        await step("daily zero-start guild", lambda: chips.daily(G_ZERO, ALICE))
        await step("balance zero-start guild bob", lambda: chips.balance(G_ZERO, BOB))
        await step("give alice bob 50", lambda: chips.give(G, ALICE, BOB, 50, "interaction:1"))
        await step("give replayed", lambda: chips.give(G, ALICE, BOB, 50, "interaction:1"))
        await step(
            "give replayed other amount", lambda: chips.give(G, ALICE, BOB, 51, "interaction:1")
        )
        await step(
            "give key of the in row", lambda: chips.give(G, ALICE, BOB, 50, "interaction:1:in")
        )
        await step("give to carol (opens)", lambda: chips.give(G, BOB, CAROL, 75, "interaction:2"))
        await step("give to self", lambda: chips.give(G, ALICE, ALICE, 5, "interaction:3"))
        await step("give too much", lambda: chips.give(G, ALICE, BOB, 100_000, "interaction:4"))
        await step("give bad amount", lambda: chips.give(G, ALICE, BOB, 0, "interaction:5"))
        await step("give bad key", lambda: chips.give(G, ALICE, BOB, 5, ""))
        await step(
            "give to rich over the limit", lambda: chips.give(G, ALICE, RICH, 10, "interaction:6")
        )
        await step("grant carol 200", lambda: chips.grant(G, ADMIN, CAROL, 200, "interaction:7"))
        await step("grant replayed", lambda: chips.grant(G, ADMIN, CAROL, 200, "interaction:7"))
        await step(
            "grant replayed other", lambda: chips.grant(G, ADMIN, CAROL, 20, "interaction:7")
        )
        await step(
            "grant dave -995 (opens)", lambda: chips.grant(G, ADMIN, DAVE, -995, "interaction:8")
        )
        await step(
            "grant dave -100 short", lambda: chips.grant(G, ADMIN, DAVE, -100, "interaction:9")
        )
        await step(
            "grant rich over the limit", lambda: chips.grant(G, ADMIN, RICH, 10, "interaction:10")
        )
        await step("grant zero", lambda: chips.grant(G, ADMIN, CAROL, 0, "interaction:11"))
        await step("house balance (opens)", lambda: chips.house_balance(G))
        await step("fund house", lambda: chips.fund_house(G, ADMIN, 5000, "interaction:12"))
        await step(
            "fund house replayed", lambda: chips.fund_house(G, ADMIN, 5000, "interaction:12")
        )
        await step("fund house bad", lambda: chips.fund_house(G, ADMIN, -5, "interaction:13"))

        # --- games: antes (the house stakes computer seats), payouts, refunds, carried pots ------
        await step(
            "antes g1 alice + house",
            lambda: chips.escrow_antes("g1", G, {ALICE: 25, HOUSE: 25}, channel_id=CHANNEL),
        )
        await step("antes g1 again", lambda: chips.escrow_antes("g1", G, {ALICE: 25, HOUSE: 25}))
        await step("antes g1 other amount", lambda: chips.escrow_antes("g1", G, {ALICE: 30}))
        await step("antes g1 other guild", lambda: chips.escrow_antes("g1", G_SMALL, {ALICE: 25}))
        await step("antes g1 bad amount", lambda: chips.escrow_antes("g1", G, {ALICE: 0}))
        await step("pot g1", lambda: chips.pot("g1"))
        await step("payout g1 alice 5% rake", lambda: chips.payout("g1", ALICE, 5))
        await step("payout g1 replayed", lambda: chips.payout("g1", BOB, 0))
        await step("refund g1 after payout", lambda: chips.refund("g1"))
        await step("carry g1 after payout", lambda: chips.carry_over("g1", CHANNEL))
        await step("antes g1 after payout", lambda: chips.escrow_antes("g1", G, {BOB: 5}))
        await step("payout bad rake", lambda: chips.payout("g1", ALICE, 101))
        await step(
            "antes g2 bob + house", lambda: chips.escrow_antes("g2", G, {BOB: 30, HOUSE: 30})
        )
        await step("payout g2 to the house", lambda: chips.payout("g2", HOUSE, 0))
        await step("antes g3", lambda: chips.escrow_antes("g3", G, {ALICE: 10, BOB: 10}))
        await step("payout g3 to nobody (burned)", lambda: chips.payout("g3", None))
        await step("payout g3 replayed", lambda: chips.payout("g3", None))
        await step("payout of no pot", lambda: chips.payout("nothing", ALICE, 5))
        await step("refund of no pot", lambda: chips.refund("nothing"))
        await step("carry of no pot", lambda: chips.carry_over("nothing", CHANNEL))
        await step(
            "antes g4 with a shortfall",
            lambda: chips.escrow_antes("g4", G, {ALICE: 10, DAVE: 20, BOB: 10, HOUSE: 10}),
        )
        await step(
            "antes g4",
            lambda: chips.escrow_antes("g4", G, {ALICE: 20, BOB: 20}, channel_id=OTHER_CHANNEL),
        )
        await step("carry g4 over", lambda: chips.carry_over("g4"))
        await step("carry g4 replayed", lambda: chips.carry_over("g4"))
        await step("carried pot", lambda: chips.carried_pot(G, OTHER_CHANNEL))
        await step("collect into g5", lambda: chips.collect_carried_pot("g5", G, OTHER_CHANNEL))
        await step(
            "collect into g5 again", lambda: chips.collect_carried_pot("g5", G, OTHER_CHANNEL)
        )
        await step("antes g5", lambda: chips.escrow_antes("g5", G, {ALICE: 5, CAROL: 5, HOUSE: 5}))
        await step("pot g5", lambda: chips.pot("g5"))
        await step("refund g5 (carried back)", lambda: chips.refund("g5"))
        await step("refund g5 replayed", lambda: chips.refund("g5"))
        await step(
            "collect into a settled pot", lambda: chips.collect_carried_pot("g5", G, CHANNEL)
        )
        await step("collect into g6", lambda: chips.collect_carried_pot("g6", G, OTHER_CHANNEL))
        await step("antes g6", lambda: chips.escrow_antes("g6", G, {BOB: 15, CAROL: 15}))
        await step("payout g6 bob 10% rake", lambda: chips.payout("g6", BOB, 10))
        await step(
            "collect nothing into g7", lambda: chips.collect_carried_pot("g7", G, OTHER_CHANNEL)
        )
        await step("antes g7", lambda: chips.escrow_antes("g7", G, {ALICE: 1, BOB: 1}))
        await step("payout g7 alice 40% (rake rounds down)", lambda: chips.payout("g7", ALICE, 40))
        await step("antes g8 (no channel)", lambda: chips.escrow_antes("g8", G, {ALICE: 3}))
        await step("carry g8 without a channel", lambda: chips.carry_over("g8"))
        await step("carry g8 to a channel", lambda: chips.carry_over("g8", CHANNEL))
        await step("collect into g9 with rake", lambda: chips.collect_carried_pot("g9", G, CHANNEL))
        await step("payout g9 only the carried pot", lambda: chips.payout("g9", CAROL, 50))
        await step("open pots", lambda: chips.open_pots())

        # --- inside a caller's transaction (one unit with a game step) --------------------------
        async def in_one_transaction() -> object:
            async with db.transaction() as tx:
                pot = await chips.escrow_antes("g10", G, {ALICE: 12, HOUSE: 12}, tx=tx)
                paid = await chips.payout("g10", HOUSE, 5, tx=tx)
                return (pot, paid, await chips.pot("g10", tx=tx))

        await step("antes and payout in one transaction", in_one_transaction)

        async def rolled_back() -> object:
            async with db.transaction() as tx:
                await chips.escrow_antes("g11", G, {ALICE: 12, BOB: 12}, tx=tx)
                raise ValueError("the game step failed")

        await step("antes rolled back with the caller", rolled_back)
        await step("pot g11 (none)", lambda: chips.pot("g11"))

        # --- a tournament: buy-ins, a member leaves, a split payout -----------------------------
        async with db.transaction() as tx:
            tid = await TournamentsRepo().create(
                tx,
                guild_id=G,
                channel_id=CHANNEL,
                name="Cup",
                organiser_id=ALICE,
                settings={},
                options={},
                closes_at=None,
                created_at=clock.now(),
            )
        cup = f"tournament:{tid}"
        for user in (ALICE, BOB, CAROL):
            await step(
                f"buy-in {user}",
                lambda user=user: chips.buy_in(
                    cup, G, user, 40, f"ante:{cup}:{user}:1", channel_id=CHANNEL
                ),
            )
        await step(
            "buy-in replayed", lambda: chips.buy_in(cup, G, ALICE, 40, f"ante:{cup}:{ALICE}:1")
        )
        await step("buy-in short", lambda: chips.buy_in(cup, G, DAVE, 40, f"ante:{cup}:{DAVE}:1"))
        await step(
            "buy-in bad amount", lambda: chips.buy_in(cup, G, DAVE, 0, f"ante:{cup}:{DAVE}:2")
        )
        await step(
            "carol leaves", lambda: chips.refund_member(cup, CAROL, f"refund:{cup}:{CAROL}:1")
        )
        await step(
            "carol leaves replayed",
            lambda: chips.refund_member(cup, CAROL, f"refund:{cup}:{CAROL}:1"),
        )
        await step(
            "erin leaves holding nothing",
            lambda: chips.refund_member(cup, ERIN, f"refund:{cup}:{ERIN}:1"),
        )
        await step(
            "carol comes back", lambda: chips.buy_in(cup, G, CAROL, 40, f"ante:{cup}:{CAROL}:2")
        )
        await step("split that does not add up", lambda: chips.pay_split(cup, {ALICE: 60, BOB: 30}))
        await step("split", lambda: chips.pay_split(cup, {ALICE: 70, BOB: 50, CAROL: 0}))
        await step("split replayed", lambda: chips.pay_split(cup, {ALICE: 120}))
        await step(
            "buy-in after the end", lambda: chips.buy_in(cup, G, ERIN, 40, f"ante:{cup}:{ERIN}:1")
        )
        await step(
            "leave after the end",
            lambda: chips.refund_member(cup, ALICE, f"refund:{cup}:{ALICE}:1"),
        )
        await step("split of no pot", lambda: chips.pay_split("tournament:none", {ALICE: 0}))
        await step(
            "buy-in of a new pot",
            lambda: chips.buy_in("tournament:x", G, ERIN, 10, "ante:tournament:x:16:1"),
        )
        await step(
            "split to a new account", lambda: chips.pay_split("tournament:x", {ERIN: 4, 17: 6})
        )

        # --- difference settlement (Tsung Shap) -------------------------------------------------
        await step(
            "settle bob pays alice 30", lambda: chips.settle_difference("t1", G, ALICE, BOB, 30)
        )
        await step("settle replayed", lambda: chips.settle_difference("t1", G, ALICE, BOB, 30))
        await step(
            "settle replayed other loser",
            lambda: chips.settle_difference("t1", G, ALICE, CAROL, 30),
        )
        await step(
            "settle capped (dave is poor)",
            lambda: chips.settle_difference("t2", G, CAROL, DAVE, 900),
        )
        await step(
            "settle dave has nothing", lambda: chips.settle_difference("t3", G, CAROL, DAVE, 10)
        )
        await step("settle nothing owed", lambda: chips.settle_difference("t4", G, ALICE, BOB, 0))
        await step("settle new accounts", lambda: chips.settle_difference("t5", G, 18, 19, 40))
        await step("settle self", lambda: chips.settle_difference("t6", G, ALICE, ALICE, 4))
        await step("settle bad amount", lambda: chips.settle_difference("t7", G, ALICE, BOB, -4))

        async def settled_in_one_transaction() -> object:
            async with db.transaction() as tx:
                return await chips.settle_difference("t8", G, BOB, ALICE, 7, tx=tx)

        await step("settle in a caller's transaction", settled_in_one_transaction)

        # --- pots whose row was deleted: rebuilt from the ledger --------------------------------
        await step("antes g15", lambda: chips.escrow_antes("g15", G, {BOB: 4}, channel_id=CHANNEL))
        await step("carry g15 over", lambda: chips.carry_over("g15"))
        await step("antes g12", lambda: chips.escrow_antes("g12", G, {ALICE: 10, BOB: 10}))
        await step("collect into g13", lambda: chips.collect_carried_pot("g13", G, CHANNEL))
        await step("antes g13", lambda: chips.escrow_antes("g13", G, {ALICE: 6, CAROL: 6}))
        await step("antes g14", lambda: chips.escrow_antes("g14", G, {BOB: 8, HOUSE: 8}))
        await step("antes g17", lambda: chips.escrow_antes("g17", G, {ALICE: 2, BOB: 2}))
        async with db.transaction() as tx:
            tid = await TournamentsRepo().create(
                tx,
                guild_id=G,
                channel_id=OTHER_CHANNEL,
                name="Plate",
                organiser_id=BOB,
                settings={},
                options={},
                closes_at=None,
                created_at=clock.now(),
            )
        plate = f"tournament:{tid}"
        for user in (ALICE, BOB):
            await step(
                f"plate buy-in {user}",
                lambda user=user: chips.buy_in(plate, G, user, 9, f"ante:{plate}:{user}:1"),
            )
        await step(
            "bob leaves the plate",
            lambda: chips.refund_member(plate, BOB, f"refund:{plate}:{BOB}:1"),
        )
        await db.close()
        for game in ("g12", "g13", "g14", "g17", plate):
            _delete_pot(path, game)
        with sqlite3.connect(path) as conn:  # g17's escrow no longer agrees with its ledger
            conn.execute("UPDATE escrow SET amount = amount + 1 WHERE game_id = 'g17'")
        db = await Database.open(path)
        chips = make(db, clock)
        await step("open pots (missing rows)", lambda: chips.open_pots())
        await step("payout g12 rebuilds its pot", lambda: chips.payout("g12", ALICE, 10))
        await step("payout g13 rebuilds its pot (carried in)", lambda: chips.payout("g13", CAROL))
        await step(
            "alice leaves the plate (rebuilt)",
            lambda: chips.refund_member(plate, ALICE, f"refund:{plate}:{ALICE}:1"),
        )
        await step("payout g17 cannot rebuild", lambda: chips.payout("g17", ALICE))
        await step("rebuild the missing pots", lambda: chips.rebuild_missing_pots())
        await step("rebuild again", lambda: chips.rebuild_missing_pots())
        await step("carry g14 without a channel", lambda: chips.carry_over("g14"))
        await step("refund g14 (rebuilt)", lambda: chips.refund("g14"))
        await step("collect into g16", lambda: chips.collect_carried_pot("g16", G, OTHER_CHANNEL))
        await step("split g16 of nothing", lambda: chips.pay_split("g16", {HOUSE: 1}))
        await step("antes g16", lambda: chips.escrow_antes("g16", G, {ALICE: 8, HOUSE: 8}))
        await step("split g16", lambda: chips.pay_split("g16", {HOUSE: 10, ALICE: 6}))

        await step("antes g18", lambda: chips.escrow_antes("g18", G, {BOB: 5, HOUSE: 5}))
        await step("carry g18 over (left waiting)", lambda: chips.carry_over("g18", CHANNEL))
        await step("carried pot waiting", lambda: chips.carried_pot(G, CHANNEL))

        # --- reads --------------------------------------------------------------------------------
        for user in (ALICE, BOB, CAROL, DAVE, HOUSE):
            await step(f"history {user}", lambda user=user: chips.history(G, user, 100))
        await step("history page", lambda: chips.history(G, ALICE, 3, before_id=20))
        await step("history bad page", lambda: chips.history(G, ALICE, 0))
        await step("leaderboard", lambda: chips.leaderboard(G, 0, 100))
        await step("leaderboard bad page", lambda: chips.leaderboard(G, -1, 10))
        await step("rank alice", lambda: chips.rank(G, ALICE))
        await step("rank of no account", lambda: chips.rank(G, 777))
        await step("account count", lambda: chips.account_count(G))
        await step("supply check", lambda: chips.total_supply_check())
        await step("supply check small guild", lambda: chips.total_supply_check(G_SMALL))
        return {"calls": log, "tables": await dump(db)}
    finally:
        await db.close()


def current_service(db: Database, clock: ManualClock) -> Service:
    """The chips service of the code checked out."""
    from bot.services.chips import ChipsDefaults, ChipsService

    return ChipsService(db, clock, ChipsDefaults(starting_chips=1000, daily_amount=100))


def to_json(result: dict[str, Any]) -> str:
    """``result`` as JSON with one call or one row a line (a change shows as a line's diff)."""

    def rows(items: list[Any], indent: str) -> str:
        return ",\n".join(indent + json.dumps(item, ensure_ascii=False) for item in items)

    tables = ",\n".join(
        f'  "{name}": [\n{rows(result["tables"][name], "   ")}\n  ]' for name in result["tables"]
    )
    return (
        f'{{\n "calls": [\n{rows(result["calls"], "  ")}\n ],\n "tables": {{\n{tables}\n }}\n}}\n'
    )


def main() -> None:
    """Write :data:`GOLDEN` from the code checked out."""
    with tempfile.TemporaryDirectory() as folder:
        result = asyncio.run(run_sequence(Path(folder) / "chips.db", current_service))
    GOLDEN.write_text(to_json(result), encoding="utf-8")
    sys.stdout.write(
        f"{GOLDEN}: {len(result['calls'])} calls, {len(result['tables']['ledger'])} ledger rows\n"
    )


if __name__ == "__main__":
    main()
