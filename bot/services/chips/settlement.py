"""Settling: a pot paid to its winner (minus the rake), burned for a computer win, refunded,
carried over to the channel's next game or split between several members; and Tsung Shap's
difference settlement, where the loser pays the winner directly.

A pot is settled once: afterwards :meth:`payout`, :meth:`refund`, :meth:`carry_over` and
:meth:`pay_split` change nothing and report the first settlement again, rebuilt from the
pot's row and its ledger rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from bot.services.chips.model import (
    MAX_AMOUNT,
    DifferenceSettlement,
    Outcome,
    Settlement,
)
from bot.services.chips.pots import ChipsPots
from bot.services.errors import InvalidAmount
from bot.storage.chips import LedgerKind, PotRecord, PotStatus
from bot.storage.db import Tx
from bot.storage.errors import IdempotencyConflict

__all__ = ["ChipsSettlement"]


class ChipsSettlement(ChipsPots):
    """Payouts with rake, refunds, carry-overs, split prizes and difference settlements."""

    async def payout(
        self,
        game_id: str,
        winner_id: int | None,
        rake_percent: int = 0,
        *,
        tx: Tx | None = None,
    ) -> Settlement:
        """Pay the whole pot to the winner, minus ``rake_percent`` (0..100, rounded down).

        ``winner_id=None`` means an AI seat won: the pot is burned as ``house_win`` (see the
        package docstring for why). Once a pot is settled, further calls to :meth:`payout`,
        :meth:`refund` or :meth:`carry_over` change nothing and return the first settlement.
        """
        if type(rake_percent) is not int or not 0 <= rake_percent <= 100:
            raise ValueError("rake_percent must be an integer from 0 to 100")
        now = self._clock.now()
        async with self._write(tx) as tx:
            pot = await self._settling_pot(tx, game_id)
            if pot is None:
                return Settlement(game_id, Outcome.NO_POT, winner_id=winner_id)
            if pot.status is not PotStatus.OPEN:
                return await self._replayed_settlement(tx, pot)
            escrow = await self._repo.escrow_of(tx, game_id)
            total = sum(escrow.values()) + pot.carried_in
            if winner_id is None:
                if total:
                    await self._ledger.book(
                        tx,
                        guild_id=pot.guild_id,
                        delta=-total,
                        kind=LedgerKind.HOUSE_WIN,
                        key=f"house_win:{game_id}",
                        at=now,
                        game_id=game_id,
                        note="an AI seat won",
                    )
                await self._settle(tx, pot, PotStatus.HOUSE, total, None, 0, now)
                return Settlement(game_id, Outcome.HOUSE, pot=total)
            rake = total * rake_percent // 100
            await self._ledger.ensure_account(tx, pot.guild_id, winner_id)
            if total:
                await self._ledger.credit(
                    tx,
                    guild_id=pot.guild_id,
                    user_id=winner_id,
                    amount=total,
                    kind=LedgerKind.PAYOUT,
                    key=f"payout:{game_id}",
                    at=now,
                    game_id=game_id,
                )
            if rake:
                # The winner receives the whole pot, then pays the rake: both rows are on his
                # account, so his history reads "+pot, -rake" and balances match the ledger.
                raked = await self._ledger.debit(
                    tx,
                    guild_id=pot.guild_id,
                    user_id=winner_id,
                    amount=rake,
                    kind=LedgerKind.RAKE,
                    key=f"rake:{game_id}",
                    at=now,
                    game_id=game_id,
                    note=f"{rake_percent}% rake",
                )
                if raked is None:  # pragma: no cover - he was just paid more than the rake
                    raise RuntimeError("rake exceeds the winner's balance")
            await self._settle(tx, pot, PotStatus.PAID, total, winner_id, rake, now)
        return Settlement(
            game_id, Outcome.PAID, pot=total, winner_id=winner_id, paid=total - rake, rake=rake
        )

    async def refund(self, game_id: str, *, tx: Tx | None = None) -> Settlement:
        """Return each member's ante exactly (a cancelled or drawn game).

        Chips the pot had collected from a carried pot go back to the channel's carried pot.
        Idempotent like :meth:`payout`.
        """
        now = self._clock.now()
        async with self._write(tx) as tx:
            pot = await self._settling_pot(tx, game_id)
            if pot is None:
                return Settlement(game_id, Outcome.NO_POT)
            if pot.status is not PotStatus.OPEN:
                return await self._replayed_settlement(tx, pot)
            escrow = await self._repo.escrow_of(tx, game_id)
            for user_id, amount in escrow.items():
                await self._ledger.credit(
                    tx,
                    guild_id=pot.guild_id,
                    user_id=user_id,
                    amount=amount,
                    kind=LedgerKind.REFUND,
                    key=f"refund:{game_id}:{user_id}",
                    at=now,
                    game_id=game_id,
                )
            if pot.carried_in:
                await self._to_carried(tx, pot, pot.carried_in, now)
            total = sum(escrow.values()) + pot.carried_in
            await self._settle(tx, pot, PotStatus.REFUNDED, total, None, 0, now)
        return Settlement(
            game_id, Outcome.REFUNDED, pot=total, refunds=escrow, carried=pot.carried_in
        )

    async def carry_over(
        self, game_id: str, channel_id: int | None = None, *, tx: Tx | None = None
    ) -> Settlement:
        """Move the whole pot of a drawn game to the channel's carried pot ("pot_carries_over").

        The next game in the channel takes it with :meth:`collect_carried_pot`. ``channel_id``
        defaults to the channel given when the antes were taken. Idempotent like :meth:`payout`.
        """
        now = self._clock.now()
        async with self._write(tx) as tx:
            pot = await self._settling_pot(tx, game_id)
            if pot is None:
                return Settlement(game_id, Outcome.NO_POT)
            if pot.status is not PotStatus.OPEN:
                return await self._replayed_settlement(tx, pot)
            channel = channel_id if channel_id is not None else pot.channel_id
            if channel is None:
                raise ValueError(f"game {game_id}: no channel to carry the pot over to")
            if pot.channel_id is None:
                await self._repo.set_pot_channel(tx, game_id, channel)
                pot = await self._require_pot(tx, game_id)
            escrow = await self._repo.escrow_of(tx, game_id)
            total = sum(escrow.values()) + pot.carried_in
            if total:
                await self._to_carried(tx, pot, total, now, channel_id=channel)
            await self._settle(tx, pot, PotStatus.CARRIED, total, None, 0, now)
        return Settlement(game_id, Outcome.CARRIED, pot=total, carried=total)

    async def pay_split(
        self, pot_id: str, amounts: Mapping[int, int], *, tx: Tx | None = None
    ) -> Settlement:
        """Pay a pot out to several members (a tournament's prizes, keys
        ``payout:{pot}:{user}``) and settle it; the amounts must add up to the pot exactly.
        Idempotent like :meth:`payout`."""
        now = self._clock.now()
        async with self._write(tx) as tx:
            pot = await self._settling_pot(tx, pot_id)
            if pot is None:
                return Settlement(pot_id, Outcome.NO_POT)
            if pot.status is not PotStatus.OPEN:
                return await self._replayed_settlement(tx, pot)
            total = sum((await self._repo.escrow_of(tx, pot_id)).values()) + pot.carried_in
            if sum(amounts.values()) != total or any(a < 0 for a in amounts.values()):
                raise ValueError(f"pot {pot_id}: a split of {total} chips must add up exactly")
            for user_id, amount in sorted(amounts.items()):
                if not amount:
                    continue
                await self._ledger.ensure_account(tx, pot.guild_id, user_id)
                await self._ledger.credit(
                    tx,
                    guild_id=pot.guild_id,
                    user_id=user_id,
                    amount=amount,
                    kind=LedgerKind.PAYOUT,
                    key=f"payout:{pot_id}:{user_id}",
                    at=now,
                    game_id=pot_id,
                )
            best = max(amounts, key=lambda u: amounts[u]) if amounts else None
            await self._settle(tx, pot, PotStatus.PAID, total, best, 0, now)
        return Settlement(pot_id, Outcome.PAID, pot=total, winner_id=best, paid=total)

    async def settle_difference(
        self,
        game_id: str,
        guild_id: int,
        winner_id: int,
        loser_id: int,
        amount: int,
        *,
        tx: Tx | None = None,
    ) -> DifferenceSettlement:
        """The loser pays the winner ``amount`` chips, or his whole balance if that is less.

        One transaction, two ledger rows (``settle_out`` on the loser, ``settle_in`` on the
        winner, keys ``settle:{game}:out`` / ``settle:{game}:in``): chips change hands, none are
        minted or burned. A second call for the same game moves nothing and returns the first
        result. ``amount == 0`` (or a loser with no chips) moves nothing and writes nothing.
        """
        if type(amount) is not int or not 0 <= amount <= MAX_AMOUNT:
            raise InvalidAmount(
                "A settlement must be a whole number from 0 to {max_amount}.",
                max_amount=f"{MAX_AMOUNT:,}",
            )
        if winner_id == loser_id:
            raise ValueError("the winner and the loser of a settlement must differ")
        out_key, in_key = f"settle:{game_id}:out", f"settle:{game_id}:in"
        now = self._clock.now()
        async with self._write(tx) as tx:
            out_row = await self._repo.find_ledger(tx, out_key)
            if out_row is not None:
                in_row = await self._repo.find_ledger(tx, in_key)
                if (
                    out_row.kind is not LedgerKind.SETTLE_OUT
                    or out_row.guild_id != guild_id
                    or out_row.user_id != loser_id
                    or out_row.balance_after is None
                    or in_row is None
                    or in_row.user_id != winner_id
                    or in_row.balance_after is None
                ):
                    raise IdempotencyConflict(
                        out_key, f"settlement of {amount} from {loser_id} to {winner_id}"
                    )
                return DifferenceSettlement(
                    game_id,
                    winner_id,
                    loser_id,
                    amount,
                    -out_row.delta,
                    out_row.balance_after,
                    in_row.balance_after,
                )
            loser = await self._ledger.ensure_account(tx, guild_id, loser_id)
            winner = await self._ledger.ensure_account(tx, guild_id, winner_id)
            paid = min(amount, loser.balance)
            if paid == 0:
                return DifferenceSettlement(
                    game_id, winner_id, loser_id, amount, 0, loser.balance, winner.balance
                )
            owed = f"; {amount} owed" if paid < amount else ""
            loser_balance = await self._ledger.debit(
                tx,
                guild_id=guild_id,
                user_id=loser_id,
                amount=paid,
                kind=LedgerKind.SETTLE_OUT,
                key=out_key,
                at=now,
                game_id=game_id,
                note=f"to {winner_id}{owed}",
            )
            if loser_balance is None:  # pragma: no cover - paid <= the balance just read
                raise RuntimeError(f"loser {loser_id} cannot pay {paid}")
            # Uncapped like a payout: the chips already exist, they only change hands.
            winner_balance = await self._ledger.credit(
                tx,
                guild_id=guild_id,
                user_id=winner_id,
                amount=paid,
                kind=LedgerKind.SETTLE_IN,
                key=in_key,
                at=now,
                game_id=game_id,
                note=f"from {loser_id}",
            )
        return DifferenceSettlement(
            game_id, winner_id, loser_id, amount, paid, loser_balance, winner_balance
        )

    # --- helpers, inside a transaction --------------------------------------------------------

    async def _to_carried(
        self,
        tx: Tx,
        pot: PotRecord,
        amount: int,
        now: datetime,
        *,
        channel_id: int | None = None,
    ) -> None:
        channel = channel_id if channel_id is not None else pot.channel_id
        if channel is None:  # pragma: no cover - collect_carried_pot always records the channel
            raise RuntimeError(f"game {pot.game_id}: carried chips but no channel")
        await self._repo.add_carried(tx, pot.guild_id, channel, amount, now)
        await self._ledger.book(
            tx,
            guild_id=pot.guild_id,
            delta=-amount,
            kind=LedgerKind.CARRY_OUT,
            key=f"carry_out:{pot.game_id}",
            at=now,
            game_id=pot.game_id,
            note=f"to channel {channel}",
        )

    async def _settle(
        self,
        tx: Tx,
        pot: PotRecord,
        status: PotStatus,
        amount: int,
        winner_id: int | None,
        rake: int,
        now: datetime,
    ) -> None:
        settled = await self._repo.settle_pot(
            tx,
            pot.game_id,
            status=status,
            amount=amount,
            winner_id=winner_id,
            rake=rake,
            settled_at=now,
        )
        if not settled:  # pragma: no cover - the pot was read as open in this transaction
            raise RuntimeError(f"pot of {pot.game_id} was settled concurrently")

    async def _replayed_settlement(self, tx: Tx, pot: PotRecord) -> Settlement:
        """Rebuild the :class:`Settlement` of an already settled pot from its rows."""
        amount = pot.settled_amount or 0
        outcome = Outcome(str(pot.status))
        if pot.status is PotStatus.PAID:
            return Settlement(
                pot.game_id,
                outcome,
                pot=amount,
                winner_id=pot.winner_id,
                paid=amount - pot.rake,
                rake=pot.rake,
            )
        if pot.status is PotStatus.REFUNDED:
            rows = await self._repo.game_ledger(tx, pot.game_id)
            refunds = {
                r.user_id: r.delta
                for r in rows
                if r.kind is LedgerKind.REFUND and r.user_id is not None
            }
            carried = sum(-r.delta for r in rows if r.kind is LedgerKind.CARRY_OUT)
            return Settlement(pot.game_id, outcome, pot=amount, refunds=refunds, carried=carried)
        if pot.status is PotStatus.CARRIED:
            return Settlement(pot.game_id, outcome, pot=amount, carried=amount)
        return Settlement(pot.game_id, outcome, pot=amount)
