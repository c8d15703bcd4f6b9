"""The ledger: the one way chips move, and the only code that changes a balance or writes a
ledger row.

Every money path of :class:`~bot.services.chips.ChipsService` (daily claims, gifts, grants,
antes and buy-ins, payouts and rake, refunds, split prizes, difference settlements, carried
pots) is made of these few steps, each inside the caller's transaction:

* :meth:`Ledger.credit` adds chips to an account and writes its row with the new balance;
* :meth:`Ledger.debit` takes chips from an account, the balance check being part of the
  ``UPDATE … WHERE balance >= ?`` that spends them (never a separate read); a member short of
  chips gets ``None`` and nothing is written, and the caller says why in his own words;
* :meth:`Ledger.book` writes a row of no account: chips entering or leaving a pot with no
  member's balance involved (a pot burned as ``house_win``, ``carry_out`` to a channel's
  carried pot, ``carry_in`` from it);
* :meth:`Ledger.ensure_account` opens a member's account with the server's starting chips
  and writes its ``start`` row (the house opens with :data:`HOUSE_START_FACTOR` times that).

Each row carries its idempotency key; the ``ledger`` table keeps the keys unique, so a row
written twice raises :class:`~bot.storage.errors.IntegrityError` and the whole transaction, the
balance change with it, rolls back. An operation that may be retried looks its key up first and
replays its first result (see the package's docstring for the keys of each operation).

A test (tests/services/test_chips_ledger.py) checks the source: the repository's methods that
change a balance or write a ledger row are called from this module only.
"""

from __future__ import annotations

from datetime import datetime
from typing import overload

from bot.services.chips.model import HOUSE_ID, HOUSE_START_FACTOR, ChipsDefaults
from bot.services.clock import Clock
from bot.storage.chips import Account, ChipsRepo, LedgerKind
from bot.storage.db import Tx
from bot.storage.guild_config import GuildConfigRepo

__all__ = ["Ledger"]


class Ledger:
    """Balances and their ledger rows, changed together. Stateless between calls: every method
    works inside the caller's transaction."""

    def __init__(
        self,
        clock: Clock,
        defaults: ChipsDefaults,
        repo: ChipsRepo,
        config: GuildConfigRepo,
    ) -> None:
        """Date new accounts by ``clock``; open them with the server's starting chips (read
        through ``config``), else those of ``defaults``; write through ``repo``."""
        self._clock = clock
        self._defaults = defaults
        self._repo = repo
        self._config = config

    async def ensure_account(self, tx: Tx, guild_id: int, user_id: int) -> Account:
        """The member's account, opened with the starting chips (and its ``start`` row, key
        ``start:{guild}:{user}``) if he has none; a zero start writes no row."""
        account = await self._repo.get_account(tx, guild_id, user_id)
        if account is not None:
            return account
        config = await self._config.get(tx, guild_id)
        starting = (
            self._defaults.starting_chips
            if config.starting_chips is None
            else config.starting_chips
        )
        if user_id == HOUSE_ID:
            starting *= HOUSE_START_FACTOR
        now = self._clock.now()
        account = await self._repo.create_account(tx, guild_id, user_id, starting, now)
        if starting:  # a zero start is no movement of chips, so no ledger row
            await self._write(
                tx,
                guild_id=guild_id,
                user_id=user_id,
                delta=starting,
                balance_after=starting,
                kind=LedgerKind.START,
                key=f"start:{guild_id}:{user_id}",
                at=now,
            )
        return account

    @overload
    async def credit(
        self,
        tx: Tx,
        *,
        guild_id: int,
        user_id: int,
        amount: int,
        kind: LedgerKind,
        key: str,
        at: datetime,
        game_id: str | None = None,
        actor_id: int | None = None,
        note: str | None = None,
        cap: None = None,
    ) -> int: ...

    @overload
    async def credit(
        self,
        tx: Tx,
        *,
        guild_id: int,
        user_id: int,
        amount: int,
        kind: LedgerKind,
        key: str,
        at: datetime,
        game_id: str | None = None,
        actor_id: int | None = None,
        note: str | None = None,
        cap: int,
    ) -> int | None: ...

    async def credit(
        self,
        tx: Tx,
        *,
        guild_id: int,
        user_id: int,
        amount: int,
        kind: LedgerKind,
        key: str,
        at: datetime,
        game_id: str | None = None,
        actor_id: int | None = None,
        note: str | None = None,
        cap: int | None = None,
    ) -> int | None:
        """Add ``amount`` to the member's account and write its row (``+amount``); the balance
        after.

        With ``cap``, a balance that would end above it is left alone, nothing is written and
        the answer is ``None`` (gifts, grants and daily claims stop at the maximum balance;
        winnings are not capped, since they only return chips that exist). The account must
        exist (:meth:`ensure_account`)."""
        balance = await self._repo.credit(tx, guild_id, user_id, amount, max_balance=cap)
        if balance is None:
            if cap is None:  # pragma: no cover - every caller opened or escrowed the account
                raise RuntimeError(f"member {user_id} of guild {guild_id} has no account")
            return None
        await self._write(
            tx,
            guild_id=guild_id,
            user_id=user_id,
            delta=amount,
            balance_after=balance,
            kind=kind,
            key=key,
            at=at,
            game_id=game_id,
            actor_id=actor_id,
            note=note,
        )
        return balance

    async def debit(
        self,
        tx: Tx,
        *,
        guild_id: int,
        user_id: int,
        amount: int,
        kind: LedgerKind,
        key: str,
        at: datetime,
        game_id: str | None = None,
        actor_id: int | None = None,
        note: str | None = None,
    ) -> int | None:
        """Take ``amount`` from the member's account if his balance covers it and write its
        row (``-amount``); the balance after, or ``None`` (nothing taken, nothing written) when
        he is short of chips or has no account."""
        balance = await self._repo.debit(tx, guild_id, user_id, amount)
        if balance is None:
            return None
        await self._write(
            tx,
            guild_id=guild_id,
            user_id=user_id,
            delta=-amount,
            balance_after=balance,
            kind=kind,
            key=key,
            at=at,
            game_id=game_id,
            actor_id=actor_id,
            note=note,
        )
        return balance

    async def book(
        self,
        tx: Tx,
        *,
        guild_id: int,
        delta: int,
        kind: LedgerKind,
        key: str,
        at: datetime,
        game_id: str,
        note: str,
    ) -> None:
        """Write a row of no account: ``delta`` chips seen by a game's pot with no member's
        balance involved (``house_win`` and ``carry_out`` negative, ``carry_in`` positive)."""
        await self._write(
            tx,
            guild_id=guild_id,
            user_id=None,
            delta=delta,
            balance_after=None,
            kind=kind,
            key=key,
            at=at,
            game_id=game_id,
            note=note,
        )

    async def _write(
        self,
        tx: Tx,
        *,
        guild_id: int,
        user_id: int | None,
        delta: int,
        balance_after: int | None,
        kind: LedgerKind,
        key: str,
        at: datetime,
        game_id: str | None = None,
        actor_id: int | None = None,
        note: str | None = None,
    ) -> None:
        await self._repo.add_ledger(
            tx,
            guild_id=guild_id,
            user_id=user_id,
            delta=delta,
            balance_after=balance_after,
            kind=kind,
            idem_key=key,
            game_id=game_id,
            actor_id=actor_id,
            note=note,
            created_at=at,
        )
