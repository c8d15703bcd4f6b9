"""SQL for chips: accounts, the ledger, escrowed antes, pots and carried pots.

Every function takes the :class:`~bot.storage.db.Tx` of a transaction opened by the caller, so
the chips service can make one atomic unit out of several steps (check the idempotency key, debit,
credit, write the ledger rows). Nothing here decides policy; it reads and writes rows.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from bot.storage.db import Row, Tx
from bot.storage.timestamps import from_db_time, to_db_time

__all__ = [
    "LEADERBOARD_SQL",
    "RANK_SQL",
    "TOURNAMENT_POT",
    "Account",
    "ChipsRepo",
    "LedgerEntry",
    "LedgerKind",
    "PotRecord",
    "PotStatus",
    "SupplyTotals",
]

TOURNAMENT_POT = "tournament:"
"""Pot ids of tournaments' buy-ins (``tournament:{id}``): open while the event is; a member who
leaves before the start is refunded from the open pot."""

#: Ledger kinds that settle a pot (a tournament's refund may also be one member leaving).
SETTLING_KINDS = ("payout", "refund", "house_win", "carry_out")


class LedgerKind(StrEnum):
    """What a ledger row records. The sign of ``delta`` is fixed per kind (see the schema)."""

    START = "start"  # starting balance of a new account (mint, +)
    DAILY = "daily"  # daily claim (mint, +)
    GRANT = "grant"  # admin grant (mint when +, burn when -)
    GIVE_OUT = "give_out"  # gift, sender's side (-)
    GIVE_IN = "give_in"  # gift, receiver's side (+)
    ANTE = "ante"  # balance -> escrow (-)
    PAYOUT = "payout"  # escrow -> winner (+)
    REFUND = "refund"  # escrow -> the member who anted (+)
    RAKE = "rake"  # house cut taken from the winner after a payout (burn, -)
    HOUSE_WIN = "house_win"  # an AI seat won: the pot leaves circulation (burn, -, no member)
    CARRY_OUT = "carry_out"  # pot -> the channel's carried pot (-, no member)
    CARRY_IN = "carry_in"  # the channel's carried pot -> this game's pot (+, no member)
    SETTLE_OUT = "settle_out"  # point-difference settlement, loser's side (-)
    SETTLE_IN = "settle_in"  # point-difference settlement, winner's side (+)


#: Kinds that create chips.
MINT_KINDS = (LedgerKind.START, LedgerKind.DAILY)  # plus positive grants
#: Kinds that destroy chips.
BURN_KINDS = (LedgerKind.RAKE, LedgerKind.HOUSE_WIN)  # plus negative grants


class PotStatus(StrEnum):
    """Life of a game's pot: open while the game runs, then settled exactly once."""

    OPEN = "open"
    PAID = "paid"
    HOUSE = "house"
    REFUNDED = "refunded"
    CARRIED = "carried"


@dataclass(frozen=True, slots=True)
class Account:
    """A member's chip account in one guild."""

    guild_id: int
    user_id: int
    balance: int
    created_at: datetime


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One ledger row. ``user_id`` is ``None`` for pot movements involving no member."""

    id: int
    guild_id: int
    user_id: int | None
    delta: int
    balance_after: int | None
    kind: LedgerKind
    idem_key: str
    game_id: str | None
    actor_id: int | None
    note: str | None
    created_at: datetime


@dataclass(frozen=True, slots=True)
class PotRecord:
    """A game's pot row (the antes themselves are in :meth:`ChipsRepo.escrow_of`)."""

    game_id: str
    guild_id: int
    channel_id: int | None
    status: PotStatus
    carried_in: int
    settled_amount: int | None
    winner_id: int | None
    rake: int
    created_at: datetime
    settled_at: datetime | None


@dataclass(frozen=True, slots=True)
class SupplyTotals:
    """Totals for the conservation check (one guild, or every guild).

    The invariant is ``balances + held == minted - burned``; in addition each member's balance must
    equal the sum of the member's ledger deltas (``mismatched_accounts`` counts those that don't).
    """

    balances: int
    held: int
    minted: int
    burned: int
    negative_balances: int
    mismatched_accounts: int

    @property
    def ok(self) -> bool:
        """Whether every invariant holds."""
        return (
            self.balances + self.held == self.minted - self.burned
            and self.negative_balances == 0
            and self.mismatched_accounts == 0
        )


_ACCOUNT_COLUMNS = "guild_id, user_id, balance, created_at"
_LEDGER_COLUMNS = (
    "id, guild_id, user_id, delta, balance_after, kind, idem_key, game_id, actor_id, note, "
    "created_at"
)
_POT_COLUMNS = (
    "game_id, guild_id, channel_id, status, carried_in, settled_amount, winner_id, rake, "
    "created_at, settled_at"
)

#: One leaderboard page: a walk down ``accounts_by_balance`` (no sort, no table access). The
#: house account (user 0) is not a member and never ranks.
LEADERBOARD_SQL = (
    "SELECT user_id, balance FROM accounts WHERE guild_id = :guild AND user_id <> 0 "
    "ORDER BY balance DESC, user_id ASC LIMIT :limit OFFSET :offset"
)

#: A member's rank: 1 + members ahead in leaderboard order (more chips, or as many chips and a
#: smaller user id). Two COUNTs over ranges of ``accounts_by_balance``; an OR of the two conditions
#: in one COUNT could make the planner fall back to scanning the guild's whole index range.
RANK_SQL = (
    "SELECT 1"
    " + (SELECT COUNT(*) FROM accounts"
    "    WHERE guild_id = :guild AND balance > :balance AND user_id <> 0)"
    " + (SELECT COUNT(*) FROM accounts"
    "    WHERE guild_id = :guild AND balance = :balance AND user_id < :user AND user_id <> 0)"
)


def _account(row: Row) -> Account:
    return Account(
        guild_id=int(row["guild_id"]),
        user_id=int(row["user_id"]),
        balance=int(row["balance"]),
        created_at=from_db_time(row["created_at"]),
    )


def _ledger(row: Row) -> LedgerEntry:
    return LedgerEntry(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        user_id=row["user_id"],
        delta=int(row["delta"]),
        balance_after=row["balance_after"],
        kind=LedgerKind(row["kind"]),
        idem_key=str(row["idem_key"]),
        game_id=row["game_id"],
        actor_id=row["actor_id"],
        note=row["note"],
        created_at=from_db_time(row["created_at"]),
    )


def _pot(row: Row) -> PotRecord:
    settled_at = row["settled_at"]
    return PotRecord(
        game_id=str(row["game_id"]),
        guild_id=int(row["guild_id"]),
        channel_id=row["channel_id"],
        status=PotStatus(row["status"]),
        carried_in=int(row["carried_in"]),
        settled_amount=row["settled_amount"],
        winner_id=row["winner_id"],
        rake=int(row["rake"]),
        created_at=from_db_time(row["created_at"]),
        settled_at=None if settled_at is None else from_db_time(settled_at),
    )


class ChipsRepo:
    """Chip tables. Stateless: every method works inside the caller's transaction."""

    # --- accounts ---------------------------------------------------------------------------

    async def get_account(self, tx: Tx, guild_id: int, user_id: int) -> Account | None:
        """The member's account, or ``None`` if the member never had one."""
        row = await tx.fetchone(
            f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        return None if row is None else _account(row)

    async def create_account(
        self, tx: Tx, guild_id: int, user_id: int, balance: int, created_at: datetime
    ) -> Account:
        """Insert a new account (the caller writes the matching 'start' ledger row)."""
        await tx.execute(
            "INSERT INTO accounts (guild_id, user_id, balance, created_at) VALUES (?, ?, ?, ?)",
            (guild_id, user_id, balance, to_db_time(created_at)),
        )
        return Account(guild_id, user_id, balance, created_at)

    async def debit(self, tx: Tx, guild_id: int, user_id: int, amount: int) -> int | None:
        """Take ``amount`` if the balance covers it; return the new balance, else ``None``.

        The check is part of the UPDATE itself, so no read-then-write gap exists in which another
        writer could spend the same chips.
        """
        row = await tx.fetchone(
            "UPDATE accounts SET balance = balance - :amount "
            "WHERE guild_id = :guild AND user_id = :user AND balance >= :amount "
            "RETURNING balance",
            {"amount": amount, "guild": guild_id, "user": user_id},
        )
        return None if row is None else int(row[0])

    async def credit(
        self, tx: Tx, guild_id: int, user_id: int, amount: int, *, max_balance: int | None = None
    ) -> int | None:
        """Add ``amount``; return the new balance, or ``None`` if above ``max_balance``."""
        limit = "" if max_balance is None else " AND balance <= CAST(:max AS BIGINT) - :amount"
        row = await tx.fetchone(
            "UPDATE accounts SET balance = balance + :amount "
            f"WHERE guild_id = :guild AND user_id = :user{limit} RETURNING balance",
            {"amount": amount, "guild": guild_id, "user": user_id, "max": max_balance},
        )
        return None if row is None else int(row[0])

    async def import_balances(
        self,
        tx: Tx,
        guild_id: int,
        balances: Iterable[tuple[int, int]],
        created_at: datetime,
    ) -> int:
        """Create many accounts at once, each with a 'start' ledger row for its balance.

        For bulk set-up (benchmarks, importing from another bot). Keys are the usual
        ``start:{guild}:{user}``, so the accounts look exactly as if created one by one and the
        conservation invariant still holds. Returns the number of accounts created.
        """
        when = to_db_time(created_at)
        rows = [(guild_id, user, balance, when) for user, balance in balances]
        await tx.executemany(
            "INSERT INTO accounts (guild_id, user_id, balance, created_at) VALUES (?, ?, ?, ?)",
            rows,
        )
        await tx.executemany(
            "INSERT INTO ledger (guild_id, user_id, delta, balance_after, kind, idem_key, "
            "created_at) VALUES (?, ?, ?, ?, 'start', ?, ?)",
            (
                (guild_id, user, balance, balance, f"start:{guild_id}:{user}", when)
                for _, user, balance, _ in rows
                if balance > 0
            ),
        )
        return len(rows)

    # --- leaderboard ------------------------------------------------------------------------

    async def leaderboard(
        self, tx: Tx, guild_id: int, offset: int, limit: int
    ) -> list[tuple[int, int]]:
        """``(user_id, balance)`` pairs of one page, in leaderboard order."""
        rows = await tx.fetchall(
            LEADERBOARD_SQL, {"guild": guild_id, "limit": limit, "offset": offset}
        )
        return [(int(r[0]), int(r[1])) for r in rows]

    async def rank_of(self, tx: Tx, guild_id: int, user_id: int, balance: int) -> int:
        """1-based leaderboard position of a member holding ``balance``."""
        value = await tx.scalar(RANK_SQL, {"guild": guild_id, "balance": balance, "user": user_id})
        return int(value)

    async def count_accounts(self, tx: Tx, guild_id: int) -> int:
        """Number of accounts in a guild (a counter kept by triggers, not a COUNT)."""
        value = await tx.scalar(
            "SELECT accounts FROM account_counts WHERE guild_id = ?", (guild_id,)
        )
        # The house account (user 0, see bot.services.chips) is not a member: not counted.
        house = await tx.scalar(
            "SELECT 1 FROM accounts WHERE guild_id = ? AND user_id = 0", (guild_id,)
        )
        return 0 if value is None else int(value) - (1 if house else 0)

    # --- ledger -----------------------------------------------------------------------------

    async def add_ledger(
        self,
        tx: Tx,
        *,
        guild_id: int,
        user_id: int | None,
        delta: int,
        balance_after: int | None,
        kind: LedgerKind,
        idem_key: str,
        created_at: datetime,
        game_id: str | None = None,
        actor_id: int | None = None,
        note: str | None = None,
    ) -> int:
        """Append a ledger row; return its id. A reused ``idem_key`` raises IntegrityError."""
        return await tx.insert(
            "INSERT INTO ledger (guild_id, user_id, delta, balance_after, kind, idem_key, game_id,"
            " actor_id, note, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                guild_id,
                user_id,
                delta,
                balance_after,
                str(kind),
                idem_key,
                game_id,
                actor_id,
                note,
                to_db_time(created_at),
            ),
        )

    async def find_ledger(self, tx: Tx, idem_key: str) -> LedgerEntry | None:
        """The ledger row written under ``idem_key``, if any."""
        row = await tx.fetchone(
            f"SELECT {_LEDGER_COLUMNS} FROM ledger WHERE idem_key = ?", (idem_key,)
        )
        return None if row is None else _ledger(row)

    async def history(
        self, tx: Tx, guild_id: int, user_id: int, limit: int, before_id: int | None = None
    ) -> list[LedgerEntry]:
        """A member's ledger rows, newest first (``before_id`` pages further back)."""
        rows = await tx.fetchall(
            f"SELECT {_LEDGER_COLUMNS} FROM ledger "
            "WHERE guild_id = :guild AND user_id = :user AND id < :before "
            "ORDER BY id DESC LIMIT :limit",
            {
                "guild": guild_id,
                "user": user_id,
                "before": (1 << 63) - 1 if before_id is None else before_id,
                "limit": limit,
            },
        )
        return [_ledger(r) for r in rows]

    async def game_ledger(self, tx: Tx, game_id: str) -> list[LedgerEntry]:
        """Every ledger row of one game, oldest first."""
        rows = await tx.fetchall(
            f"SELECT {_LEDGER_COLUMNS} FROM ledger WHERE game_id = ? ORDER BY id", (game_id,)
        )
        return [_ledger(r) for r in rows]

    # --- pots and escrow --------------------------------------------------------------------

    async def get_pot(self, tx: Tx, game_id: str) -> PotRecord | None:
        """The pot of a game, or ``None`` if the game never took an ante."""
        row = await tx.fetchone(f"SELECT {_POT_COLUMNS} FROM pots WHERE game_id = ?", (game_id,))
        return None if row is None else _pot(row)

    async def create_pot(
        self, tx: Tx, game_id: str, guild_id: int, channel_id: int | None, created_at: datetime
    ) -> PotRecord:
        """Open an empty pot for a game."""
        await tx.execute(
            "INSERT INTO pots (game_id, guild_id, channel_id, created_at) VALUES (?, ?, ?, ?)",
            (game_id, guild_id, channel_id, to_db_time(created_at)),
        )
        return PotRecord(
            game_id, guild_id, channel_id, PotStatus.OPEN, 0, None, None, 0, created_at, None
        )

    async def set_pot_channel(self, tx: Tx, game_id: str, channel_id: int) -> None:
        """Record the channel of an open pot (needed to carry it over)."""
        await tx.execute("UPDATE pots SET channel_id = ? WHERE game_id = ?", (channel_id, game_id))

    async def add_carried_in(self, tx: Tx, game_id: str, amount: int) -> None:
        """Add chips from a carried pot to an open pot."""
        await tx.execute(
            "UPDATE pots SET carried_in = carried_in + ? WHERE game_id = ? AND status = 'open'",
            (amount, game_id),
        )

    async def open_pots(self, tx: Tx, guild_id: int | None = None) -> list[PotRecord]:
        """Pots not yet settled, oldest first (to reconcile after a crash)."""
        if guild_id is None:
            rows = await tx.fetchall(
                f"SELECT {_POT_COLUMNS} FROM pots WHERE status = 'open' ORDER BY created_at"
            )
        else:
            rows = await tx.fetchall(
                f"SELECT {_POT_COLUMNS} FROM pots WHERE status = 'open' AND guild_id = ? "
                "ORDER BY created_at",
                (guild_id,),
            )
        return [_pot(r) for r in rows]

    async def escrow_of(self, tx: Tx, game_id: str) -> dict[int, int]:
        """``{user_id: amount}`` held in escrow for a game."""
        rows = await tx.fetchall(
            "SELECT user_id, amount FROM escrow WHERE game_id = ? ORDER BY user_id", (game_id,)
        )
        return {int(r[0]): int(r[1]) for r in rows}

    async def add_escrow(
        self, tx: Tx, game_id: str, guild_id: int, user_id: int, amount: int
    ) -> None:
        """Hold a member's ante for a game."""
        await tx.execute(
            "INSERT INTO escrow (game_id, guild_id, user_id, amount) VALUES (?, ?, ?, ?)",
            (game_id, guild_id, user_id, amount),
        )

    async def remove_escrow(self, tx: Tx, game_id: str, user_id: int) -> None:
        """Release one member's escrow row (his buy-in refunded from a pot that stays open)."""
        await tx.execute("DELETE FROM escrow WHERE game_id = ? AND user_id = ?", (game_id, user_id))

    async def pots_missing_for_escrow(self, tx: Tx) -> list[str]:
        """Games holding escrow rows but no pot row (the row was deleted behind the bot)."""
        rows = await tx.fetchall(
            "SELECT DISTINCT e.game_id FROM escrow AS e LEFT JOIN pots AS p "
            "ON p.game_id = e.game_id WHERE p.game_id IS NULL ORDER BY e.game_id"
        )
        return [str(r[0]) for r in rows]

    async def rebuild_pot(self, tx: Tx, game_id: str) -> PotRecord | str:
        """Write the missing pot row of a game that still holds escrow, from its ledger; the new
        row, or why it cannot be rebuilt (in words).

        The ledger is the record: while a pot is open its escrow holds, per member, his antes
        minus his refunds (a tournament's leavers), and its ``carried_in`` is the sum of its
        ``carry_in`` rows. The pot is rebuilt open only when its escrow rows agree with that
        and the ledger shows no settlement; anything else is left for a person to look at.
        """
        escrow = await self.escrow_of(tx, game_id)
        guilds = await tx.fetchall(
            "SELECT DISTINCT guild_id FROM escrow WHERE game_id = ? "
            "UNION SELECT DISTINCT guild_id FROM ledger WHERE game_id = ?",
            (game_id, game_id),
        )
        if len(guilds) != 1:
            return f"its escrow and ledger rows name {len(guilds)} servers"
        tournament = game_id.startswith(TOURNAMENT_POT)
        settling = [k for k in SETTLING_KINDS if not (tournament and k == "refund")]
        marks = ", ".join("?" * len(settling))
        settled = await tx.scalar(
            f"SELECT COUNT(*) FROM ledger WHERE game_id = ? AND kind IN ({marks})",
            (game_id, *settling),
        )
        if settled:
            return f"its ledger already settled it ({settled} row(s)) yet escrow remains"
        expected = {
            int(r[0]): int(r[1])
            for r in await tx.fetchall(
                "SELECT user_id, -SUM(delta) FROM ledger WHERE game_id = ? "
                "AND kind IN ('ante', 'refund') GROUP BY user_id HAVING SUM(delta) <> 0",
                (game_id,),
            )
        }
        if escrow != expected:
            return (
                f"its escrow ({sum(escrow.values())} chips) differs from the antes its ledger "
                f"took ({sum(expected.values())} chips)"
            )
        row = await tx.fetchone(
            "SELECT (SELECT COALESCE(SUM(delta), 0) FROM ledger "
            "        WHERE game_id = :game AND kind = 'carry_in'),"
            " (SELECT MIN(created_at) FROM ledger WHERE game_id = :game),"
            " COALESCE((SELECT channel_id FROM games WHERE id = :game),"
            f"  (SELECT channel_id FROM tournaments WHERE '{TOURNAMENT_POT}' || id = :game))",
            {"game": game_id},
        )
        assert row is not None and row[1] is not None  # escrow == expected: antes exist
        await tx.execute(
            "INSERT INTO pots (game_id, guild_id, channel_id, carried_in, created_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (game_id, int(guilds[0][0]), row[2], int(row[0]), row[1]),
        )
        pot = await self.get_pot(tx, game_id)
        assert pot is not None
        return pot

    async def settle_pot(
        self,
        tx: Tx,
        game_id: str,
        *,
        status: PotStatus,
        amount: int,
        winner_id: int | None,
        rake: int,
        settled_at: datetime,
    ) -> bool:
        """Close an open pot and release its escrow rows; ``False`` if it was not open."""
        changed = await tx.execute(
            "UPDATE pots SET status = ?, settled_amount = ?, winner_id = ?, rake = ?, "
            "settled_at = ? WHERE game_id = ? AND status = 'open'",
            (str(status), amount, winner_id, rake, to_db_time(settled_at), game_id),
        )
        if changed:
            await tx.execute("DELETE FROM escrow WHERE game_id = ?", (game_id,))
        return changed == 1

    # --- carried pots -----------------------------------------------------------------------

    async def carried_amount(self, tx: Tx, guild_id: int, channel_id: int) -> int:
        """Chips waiting in a channel's carried pot."""
        value = await tx.scalar(
            "SELECT amount FROM carried_pots WHERE guild_id = ? AND channel_id = ?",
            (guild_id, channel_id),
        )
        return 0 if value is None else int(value)

    async def add_carried(
        self, tx: Tx, guild_id: int, channel_id: int, amount: int, updated_at: datetime
    ) -> None:
        """Add chips to a channel's carried pot."""
        await tx.execute(
            "INSERT INTO carried_pots (guild_id, channel_id, amount, updated_at) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id, channel_id) DO UPDATE SET "
            "amount = carried_pots.amount + excluded.amount, updated_at = excluded.updated_at",
            (guild_id, channel_id, amount, to_db_time(updated_at)),
        )

    async def take_carried(self, tx: Tx, guild_id: int, channel_id: int) -> int:
        """Empty a channel's carried pot; return what it held."""
        row = await tx.fetchone(
            "DELETE FROM carried_pots WHERE guild_id = ? AND channel_id = ? RETURNING amount",
            (guild_id, channel_id),
        )
        return 0 if row is None else int(row[0])

    # --- conservation -----------------------------------------------------------------------

    async def supply_totals(self, tx: Tx, guild_id: int | None = None) -> SupplyTotals:
        """Sums for the conservation invariant (see :class:`SupplyTotals`)."""
        # "guild_id = :guild OR :guild IS NULL" keeps one statement for both scopes; these are
        # audit queries (tests, an admin command), so a full scan is fine.
        scope: Mapping[str, object] = {"guild": guild_id}
        in_scope = "(CAST(:guild AS BIGINT) IS NULL OR guild_id = :guild)"
        balances = await tx.scalar(
            f"SELECT COALESCE(SUM(balance), 0) FROM accounts WHERE {in_scope}", scope
        )
        negative = await tx.scalar(
            f"SELECT COUNT(*) FROM accounts WHERE balance < 0 AND {in_scope}", scope
        )
        held = await tx.scalar(
            "SELECT"
            f" (SELECT COALESCE(SUM(amount), 0) FROM escrow WHERE {in_scope})"
            " + (SELECT COALESCE(SUM(carried_in), 0) FROM pots"
            f"    WHERE status = 'open' AND {in_scope})"
            f" + (SELECT COALESCE(SUM(amount), 0) FROM carried_pots WHERE {in_scope})",
            scope,
        )
        minted = await tx.scalar(
            "SELECT COALESCE(SUM(delta), 0) FROM ledger "
            "WHERE (kind IN ('start', 'daily') OR (kind = 'grant' AND delta > 0)) "
            f"AND {in_scope}",
            scope,
        )
        burned = await tx.scalar(
            "SELECT COALESCE(-SUM(delta), 0) FROM ledger "
            "WHERE (kind IN ('rake', 'house_win') OR (kind = 'grant' AND delta < 0)) "
            f"AND {in_scope}",
            scope,
        )
        mismatched = await tx.scalar(
            "SELECT COUNT(*) FROM accounts AS a WHERE "
            f"{in_scope.replace('guild_id', 'a.guild_id')} AND a.balance <> "
            "(SELECT COALESCE(SUM(l.delta), 0) FROM ledger AS l "
            " WHERE l.guild_id = a.guild_id AND l.user_id = a.user_id)",
            scope,
        )
        return SupplyTotals(
            balances=int(balances),
            held=int(held),
            minted=int(minted),
            burned=int(burned),
            negative_balances=int(negative),
            mismatched_accounts=int(mismatched),
        )
