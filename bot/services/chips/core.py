"""The chips service's state and what every part of it uses: the database, the clock, the
ledger, and the transaction a method works in (the caller's, or one of its own)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.services.chips.ledger import Ledger
from bot.services.chips.model import ChipsDefaults
from bot.services.clock import Clock
from bot.storage.chips import ChipsRepo
from bot.storage.db import Database, Tx
from bot.storage.guild_config import GuildConfigRepo

__all__ = ["ChipsCore"]


class ChipsCore:
    """The state of the chips service and the helpers every part uses.

    The first of the layers :class:`~bot.services.chips.service.ChipsService` is made of (see
    there)."""

    def __init__(self, db: Database, clock: Clock, defaults: ChipsDefaults) -> None:
        """Work on ``db``, take the time from ``clock``, fall back to ``defaults``."""
        self._db = db
        self._clock = clock
        self._defaults = defaults
        self._repo = ChipsRepo()
        self._config = GuildConfigRepo()
        self._ledger = Ledger(clock, defaults, self._repo, self._config)

    @asynccontextmanager
    async def _write(self, tx: Tx | None) -> AsyncIterator[Tx]:
        # The caller's transaction (one atomic unit with a game step, see TableService), or a
        # transaction of our own.
        if tx is not None:
            yield tx
            return
        async with self._db.transaction() as own:
            yield own

    @asynccontextmanager
    async def _reading(self, tx: Tx | None) -> AsyncIterator[Tx]:
        if tx is not None:
            yield tx
            return
        async with self._db.read() as own:
            yield own

    async def _balance_in(self, tx: Tx, guild_id: int, user_id: int) -> int:
        account = await self._repo.get_account(tx, guild_id, user_id)
        return 0 if account is None else account.balance
