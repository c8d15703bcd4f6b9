"""Members' accounts: balances, daily claims, gifts, admin grants, the house, history and the
leaderboard."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

from bot.services.chips.core import ChipsCore
from bot.services.chips.model import (
    HOUSE_ID,
    MAX_AMOUNT,
    MAX_BALANCE,
    DailyClaim,
    Gift,
    Grant,
    LeaderboardEntry,
    RankInfo,
    check_amount,
    check_key,
    check_page,
)
from bot.services.errors import (
    AlreadyClaimed,
    BalanceLimit,
    DailyDisabled,
    InsufficientChips,
    InvalidAmount,
    InvalidTarget,
    mention,
)
from bot.storage.chips import LedgerEntry, LedgerKind
from bot.storage.db import Tx
from bot.storage.errors import IdempotencyConflict

__all__ = ["ChipsAccounts"]


class ChipsAccounts(ChipsCore):
    """Balances, daily claims, gifts, grants, the house, history and the leaderboard."""

    # --- balances -----------------------------------------------------------------------------

    async def balance(self, guild_id: int, user_id: int) -> int:
        """The member's balance, opening the account with the starting chips on first use."""
        async with self._db.read() as tx:
            account = await self._repo.get_account(tx, guild_id, user_id)
        if account is not None:
            return account.balance
        async with self._db.transaction() as tx:
            return (await self._ledger.ensure_account(tx, guild_id, user_id)).balance

    async def daily(self, guild_id: int, user_id: int) -> DailyClaim:
        """Claim the daily chips, once per UTC calendar day.

        Raises :class:`AlreadyClaimed` (with the next claim time) on a second claim the same day.
        """
        now = self._clock.now().astimezone(UTC)
        today = now.date()
        next_claim_at = datetime.combine(today + timedelta(days=1), time(0), tzinfo=UTC)
        key = f"daily:{guild_id}:{user_id}:{today.isoformat()}"
        async with self._db.transaction() as tx:
            amount = await self._daily_amount(tx, guild_id)
            if amount == 0:
                raise DailyDisabled()
            if await self._repo.find_ledger(tx, key) is not None:
                raise AlreadyClaimed(next_claim_at, now)
            await self._ledger.ensure_account(tx, guild_id, user_id)
            balance = await self._ledger.credit(
                tx,
                guild_id=guild_id,
                user_id=user_id,
                amount=amount,
                kind=LedgerKind.DAILY,
                key=key,
                at=now,
                cap=MAX_BALANCE,
            )
            if balance is None:
                raise BalanceLimit(user_id, MAX_BALANCE)
        return DailyClaim(user_id, amount, balance, next_claim_at)

    async def give(
        self, guild_id: int, from_id: int, to_id: int, amount: int, idem_key: str
    ) -> Gift:
        """Move ``amount`` chips from one member to another, atomically.

        Replaying ``idem_key`` returns the original :class:`Gift` without moving chips again.
        """
        check_amount(amount)
        key = f"give:{check_key(idem_key)}"
        if from_id == to_id:
            raise InvalidTarget("You can't give chips to yourself.")
        now = self._clock.now()
        async with self._db.transaction() as tx:
            out_row = await self._repo.find_ledger(tx, key)
            if out_row is not None:
                return await self._replayed_gift(tx, key, out_row, guild_id, from_id, to_id, amount)
            await self._ledger.ensure_account(tx, guild_id, from_id)
            await self._ledger.ensure_account(tx, guild_id, to_id)
            from_balance = await self._ledger.debit(
                tx,
                guild_id=guild_id,
                user_id=from_id,
                amount=amount,
                kind=LedgerKind.GIVE_OUT,
                key=key,
                at=now,
                actor_id=from_id,
                note=f"to {to_id}",
            )
            if from_balance is None:
                have = await self._balance_in(tx, guild_id, from_id)
                raise InsufficientChips(
                    "You have {have} chips, not enough to give {amount}.",
                    have=f"{have:,}",
                    amount=f"{amount:,}",
                    user_id=from_id,
                    balance=have,
                    needed=amount,
                )
            to_balance = await self._ledger.credit(
                tx,
                guild_id=guild_id,
                user_id=to_id,
                amount=amount,
                kind=LedgerKind.GIVE_IN,
                key=f"{key}:in",
                at=now,
                actor_id=from_id,
                note=f"from {from_id}",
                cap=MAX_BALANCE,
            )
            if to_balance is None:  # raising rolls the gift back, its first row with it
                raise BalanceLimit(to_id, MAX_BALANCE)
        return Gift(from_id, to_id, amount, from_balance, to_balance)

    async def grant(
        self, guild_id: int, admin_id: int, member_id: int, amount: int, idem_key: str
    ) -> Grant:
        """Add (``amount > 0``, a mint) or remove (``amount < 0``, a burn) a member's chips.

        A removal never takes a balance below zero: it is refused whole instead. Replaying
        ``idem_key`` returns the original :class:`Grant`.
        """
        if type(amount) is not int or amount == 0 or abs(amount) > MAX_AMOUNT:
            raise InvalidAmount(
                "Grant a whole number of chips from 1 to {max_amount}, or a negative one to "
                "remove chips.",
                max_amount=f"{MAX_AMOUNT:,}",
            )
        key = f"grant:{check_key(idem_key)}"
        now = self._clock.now()
        async with self._db.transaction() as tx:
            existing = await self._repo.find_ledger(tx, key)
            if existing is not None:
                if (
                    existing.kind is not LedgerKind.GRANT
                    or existing.guild_id != guild_id
                    or existing.user_id != member_id
                    or existing.delta != amount
                    or existing.balance_after is None
                ):
                    raise IdempotencyConflict(key, f"grant of {amount} to {member_id}")
                return Grant(admin_id, member_id, amount, existing.balance_after)
            await self._ledger.ensure_account(tx, guild_id, member_id)
            if amount > 0:
                balance = await self._ledger.credit(
                    tx,
                    guild_id=guild_id,
                    user_id=member_id,
                    amount=amount,
                    kind=LedgerKind.GRANT,
                    key=key,
                    at=now,
                    actor_id=admin_id,
                    cap=MAX_BALANCE,
                )
                if balance is None:
                    raise BalanceLimit(member_id, MAX_BALANCE)
            else:
                balance = await self._ledger.debit(
                    tx,
                    guild_id=guild_id,
                    user_id=member_id,
                    amount=-amount,
                    kind=LedgerKind.GRANT,
                    key=key,
                    at=now,
                    actor_id=admin_id,
                )
                if balance is None:
                    have = await self._balance_in(tx, guild_id, member_id)
                    raise InsufficientChips(
                        "{member} has only {have} chips; can't remove {amount}.",
                        member=mention(member_id),
                        have=f"{have:,}",
                        amount=f"{-amount:,}",
                        user_id=member_id,
                        balance=have,
                        needed=-amount,
                    )
        return Grant(admin_id, member_id, amount, balance)

    async def house_balance(self, guild_id: int) -> int:
        """The server's house account balance (opened on first use)."""
        return await self.balance(guild_id, HOUSE_ID)

    async def fund_house(self, guild_id: int, admin_id: int, amount: int, idem_key: str) -> Grant:
        """A server manager adds chips to the house (a recorded mint, like a grant)."""
        check_amount(amount)
        return await self.grant(guild_id, admin_id, HOUSE_ID, amount, f"house:{idem_key}")

    async def history(
        self, guild_id: int, user_id: int, limit: int = 20, before_id: int | None = None
    ) -> list[LedgerEntry]:
        """The member's ledger rows, newest first; pass the last id as ``before_id`` to page."""
        check_page(0, limit)
        async with self._db.read() as tx:
            return await self._repo.history(tx, guild_id, user_id, limit, before_id)

    # --- leaderboard --------------------------------------------------------------------------

    async def leaderboard(
        self, guild_id: int, offset: int = 0, limit: int = 10
    ) -> list[LeaderboardEntry]:
        """One page of the guild's leaderboard: most chips first, ties by lower user id."""
        check_page(offset, limit)
        async with self._db.read() as tx:
            rows = await self._repo.leaderboard(tx, guild_id, offset, limit)
        return [
            LeaderboardEntry(offset + i + 1, user_id, balance)
            for i, (user_id, balance) in enumerate(rows)
        ]

    async def rank(self, guild_id: int, user_id: int) -> RankInfo | None:
        """The member's leaderboard position, or ``None`` without an account (none is created).

        Rank = 1 + members with more chips, or as many chips and a lower user id: the same order
        as :meth:`leaderboard`, so rank *n* is the *n*-th line of the board.
        """
        async with self._db.read() as tx:
            account = await self._repo.get_account(tx, guild_id, user_id)
            if account is None:
                return None
            rank = await self._repo.rank_of(tx, guild_id, user_id, account.balance)
            total = await self._repo.count_accounts(tx, guild_id)
        return RankInfo(rank, account.balance, total)

    async def account_count(self, guild_id: int) -> int:
        """Number of accounts in the guild (for leaderboard paging)."""
        async with self._db.read() as tx:
            return await self._repo.count_accounts(tx, guild_id)

    # --- helpers, inside a transaction --------------------------------------------------------

    async def _daily_amount(self, tx: Tx, guild_id: int) -> int:
        config = await self._config.get(tx, guild_id)
        return self._defaults.daily_amount if config.daily_amount is None else config.daily_amount

    async def _replayed_gift(
        self,
        tx: Tx,
        key: str,
        out_row: LedgerEntry,
        guild_id: int,
        from_id: int,
        to_id: int,
        amount: int,
    ) -> Gift:
        in_row = await self._repo.find_ledger(tx, f"{key}:in")
        if (
            out_row.kind is not LedgerKind.GIVE_OUT
            or out_row.guild_id != guild_id
            or out_row.user_id != from_id
            or out_row.delta != -amount
            or out_row.balance_after is None
            or in_row is None
            or in_row.user_id != to_id
            or in_row.balance_after is None
        ):
            raise IdempotencyConflict(key, f"gift of {amount} from {from_id} to {to_id}")
        return Gift(from_id, to_id, amount, out_row.balance_after, in_row.balance_after)
