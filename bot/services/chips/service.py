"""The chips service: one class, :class:`ChipsService`, built in layers.

Each layer is a module you can read whole and stands on the one before it, so that a method
calls only what is defined below it (no module imports a later one):

* :mod:`~bot.services.chips.core`: the state (database, clock, repositories, the
  :class:`~bot.services.chips.ledger.Ledger` every chip moves through) and the transaction a
  method works in;
* :mod:`~bot.services.chips.accounts`: ``balance``, ``daily``, ``give``, ``grant``, the house,
  ``history``, the leaderboard and ranks;
* :mod:`~bot.services.chips.pots`: antes and buy-ins into escrow, ``refund_member``, carried
  pots collected, pots read, pot rows rebuilt;
* :mod:`~bot.services.chips.settlement`: ``payout`` (with rake), ``refund``, ``carry_over``,
  ``pay_split`` and ``settle_difference``.
"""

from __future__ import annotations

from bot.services.chips.settlement import ChipsSettlement
from bot.storage.chips import SupplyTotals

__all__ = ["ChipsService"]


class ChipsService(ChipsSettlement):
    """Use cases on chips. Every public method is one transaction (or one consistent read)."""

    async def total_supply_check(self, guild_id: int | None = None) -> SupplyTotals:
        """The conservation totals (one guild or all); ``.ok`` tells whether they balance."""
        async with self._db.read() as tx:
            return await self._repo.supply_totals(tx, guild_id)
