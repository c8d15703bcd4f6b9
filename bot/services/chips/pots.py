"""Pots: antes and buy-ins taken into escrow, a member's buy-in given back, a channel's carried
pot collected by the next game, what a pot holds, and a pot row rebuilt from the ledger when it
was deleted behind the bot."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import datetime

from bot.services.chips.accounts import ChipsAccounts
from bot.services.chips.model import Pot, check_amount
from bot.services.errors import InsufficientChips, PotClosed, Shortfall, UnpaidAntes
from bot.storage.chips import LedgerKind, PotRecord, PotStatus
from bot.storage.db import Tx
from bot.storage.errors import IdempotencyConflict

__all__ = ["ChipsPots"]

# The package's logger (what operators and `kapshap db check` read under that name).
log = logging.getLogger("bot.services.chips")


class ChipsPots(ChipsAccounts):
    """Escrow of antes and buy-ins, carried pots collected, pots read and rebuilt."""

    async def escrow_antes(
        self,
        game_id: str,
        guild_id: int,
        antes: Mapping[int, int],
        *,
        channel_id: int | None = None,
        tx: Tx | None = None,
    ) -> Pot:
        """Take each member's ante into the game's escrow: all of them, or none.

        If any member cannot pay, nothing is taken from anyone and :class:`UnpaidAntes` lists
        every member short of chips with his balance. Antes already taken for this game (key
        ``ante:{game}:{user}``) are skipped, so calling again is harmless; a different amount for
        a member who already paid raises :class:`IdempotencyConflict`. Members without an
        account get one (with the starting chips) first.
        """
        for amount in antes.values():
            check_amount(amount, what="The ante")
        now = self._clock.now()
        async with self._write(tx) as tx:
            pot = await self._repo.get_pot(tx, game_id)
            if pot is not None and pot.guild_id != guild_id:
                raise ValueError(f"game {game_id} belongs to guild {pot.guild_id}")
            to_take: dict[int, int] = {}
            for user_id, amount in sorted(antes.items()):
                key = f"ante:{game_id}:{user_id}"
                paid = await self._repo.find_ledger(tx, key)
                if paid is None:
                    to_take[user_id] = amount
                elif paid.delta != -amount or paid.user_id != user_id:
                    raise IdempotencyConflict(key, f"ante of {amount}, already paid {-paid.delta}")
            if to_take:
                if pot is None:
                    pot = await self._repo.create_pot(tx, game_id, guild_id, channel_id, now)
                elif pot.status is not PotStatus.OPEN:
                    raise PotClosed(game_id)
                if channel_id is not None and pot.channel_id is None:
                    await self._repo.set_pot_channel(tx, game_id, channel_id)
                await self._take_antes(tx, game_id, guild_id, to_take, now)
            if pot is None:  # nothing to take and no pot: an empty open pot, not stored
                return Pot(game_id, guild_id, channel_id, PotStatus.OPEN, {}, 0)
            return await self._pot_view(tx, game_id)

    async def buy_in(
        self,
        pot_id: str,
        guild_id: int,
        user_id: int,
        amount: int,
        idem_key: str,
        *,
        channel_id: int | None = None,
        tx: Tx | None = None,
    ) -> None:
        """Take one member's buy-in into an open pot that others may join later (a
        tournament's ``tournament:{id}``). ``idem_key`` (``ante:…``) makes a retry a no-op;
        a member short of chips is refused with the buy-in and his balance."""
        check_amount(amount, what="The buy-in")
        now = self._clock.now()
        async with self._write(tx) as tx:
            if await self._repo.find_ledger(tx, idem_key) is not None:
                return
            pot = await self._repo.get_pot(tx, pot_id)
            if pot is None:
                await self._repo.create_pot(tx, pot_id, guild_id, channel_id, now)
            elif pot.status is not PotStatus.OPEN:
                raise PotClosed(pot_id)
            await self._ledger.ensure_account(tx, guild_id, user_id)
            balance = await self._ledger.debit(
                tx,
                guild_id=guild_id,
                user_id=user_id,
                amount=amount,
                kind=LedgerKind.ANTE,
                key=idem_key,
                at=now,
                game_id=pot_id,
            )
            if balance is None:
                have = await self._balance_in(tx, guild_id, user_id)
                raise InsufficientChips(
                    "The buy-in is {buy_in} chips; you have {have}.",
                    buy_in=f"{amount:,}",
                    have=f"{have:,}",
                    user_id=user_id,
                    balance=have,
                    needed=amount,
                )
            await self._repo.add_escrow(tx, pot_id, guild_id, user_id, amount)

    async def refund_member(
        self, pot_id: str, user_id: int, idem_key: str, *, tx: Tx | None = None
    ) -> int:
        """Give one member his buy-in back from an open pot (he left before the start); the
        amount (0 when he holds nothing there, or the key was used already)."""
        now = self._clock.now()
        async with self._write(tx) as tx:
            if await self._repo.find_ledger(tx, idem_key) is not None:
                return 0
            pot = await self._settling_pot(tx, pot_id)
            if pot is None or pot.status is not PotStatus.OPEN:
                return 0
            amount = (await self._repo.escrow_of(tx, pot_id)).get(user_id, 0)
            if not amount:
                return 0
            await self._repo.remove_escrow(tx, pot_id, user_id)
            await self._ledger.credit(
                tx,
                guild_id=pot.guild_id,
                user_id=user_id,
                amount=amount,
                kind=LedgerKind.REFUND,
                key=idem_key,
                at=now,
                game_id=pot_id,
            )
            return amount

    async def collect_carried_pot(
        self, game_id: str, guild_id: int, channel_id: int, *, tx: Tx | None = None
    ) -> int:
        """Add the channel's carried pot to this game's pot; return the amount (0 if none).

        At most once per game (key ``carry_in:{game}``): a second call returns the first amount.
        """
        now = self._clock.now()
        key = f"carry_in:{game_id}"
        async with self._write(tx) as tx:
            done = await self._repo.find_ledger(tx, key)
            if done is not None:
                return done.delta
            pot = await self._repo.get_pot(tx, game_id)
            if pot is None:
                pot = await self._repo.create_pot(tx, game_id, guild_id, channel_id, now)
            elif pot.guild_id != guild_id:
                raise ValueError(f"game {game_id} belongs to guild {pot.guild_id}")
            elif pot.status is not PotStatus.OPEN:
                raise PotClosed(game_id)
            elif pot.channel_id is None:
                await self._repo.set_pot_channel(tx, game_id, channel_id)
            amount = await self._repo.take_carried(tx, guild_id, channel_id)
            if amount:
                await self._repo.add_carried_in(tx, game_id, amount)
                await self._ledger.book(
                    tx,
                    guild_id=guild_id,
                    delta=amount,
                    kind=LedgerKind.CARRY_IN,
                    key=key,
                    at=now,
                    game_id=game_id,
                    note=f"from channel {channel_id}",
                )
        return amount

    async def carried_pot(self, guild_id: int, channel_id: int, *, tx: Tx | None = None) -> int:
        """Chips waiting in a channel's carried pot."""
        async with self._reading(tx) as tx:
            return await self._repo.carried_amount(tx, guild_id, channel_id)

    async def pot(self, game_id: str, *, tx: Tx | None = None) -> Pot | None:
        """A game's pot, or ``None`` if it never took an ante."""
        async with self._reading(tx) as tx:
            if await self._repo.get_pot(tx, game_id) is None:
                return None
            return await self._pot_view(tx, game_id)

    async def open_pots(self, guild_id: int | None = None) -> list[Pot]:
        """Unsettled pots, oldest first: after a crash, pots of finished games to settle."""
        async with self._db.read() as tx:
            records = await self._repo.open_pots(tx, guild_id)
            return [await self._pot_view(tx, r.game_id) for r in records]

    async def rebuild_missing_pots(self) -> tuple[list[str], list[str]]:
        """Rebuild, from the ledger, the pot rows gone while their escrow is not: one sentence
        per pot rebuilt, and one per pot that cannot be (left as it is, for a person)."""
        rebuilt: list[str] = []
        refused: list[str] = []
        async with self._db.transaction() as tx:
            for game_id in await self._repo.pots_missing_for_escrow(tx):
                held = sum((await self._repo.escrow_of(tx, game_id)).values())
                pot = await self._repo.rebuild_pot(tx, game_id)
                if isinstance(pot, str):
                    refused.append(
                        f"Game {game_id} holds {held} chips in escrow but its pot row is gone, "
                        f"and it cannot be rebuilt: {pot}."
                    )
                else:
                    rebuilt.append(
                        f"Game {game_id}: its pot row was gone; rebuilt it from the ledger "
                        f"({held + pot.carried_in} chips held, open again)."
                    )
        return rebuilt, refused

    # --- helpers, inside a transaction --------------------------------------------------------

    async def _take_antes(
        self, tx: Tx, game_id: str, guild_id: int, antes: Mapping[int, int], now: datetime
    ) -> None:
        shortfalls: list[Shortfall] = []
        for user_id, amount in antes.items():
            await self._ledger.ensure_account(tx, guild_id, user_id)
            balance = await self._ledger.debit(
                tx,
                guild_id=guild_id,
                user_id=user_id,
                amount=amount,
                kind=LedgerKind.ANTE,
                key=f"ante:{game_id}:{user_id}",
                at=now,
                game_id=game_id,
            )
            if balance is None:
                have = await self._balance_in(tx, guild_id, user_id)
                shortfalls.append(Shortfall(user_id, have, amount))
                continue  # keep going: the error names every member who is short
            await self._repo.add_escrow(tx, game_id, guild_id, user_id, amount)
        if shortfalls:
            # Raising rolls the whole transaction back: the antes debited above are restored.
            raise UnpaidAntes(shortfalls)

    async def _settling_pot(self, tx: Tx, game_id: str) -> PotRecord | None:
        """The pot to settle, its row rebuilt from the ledger if it is gone while its escrow
        is not (so a deleted row never freezes the antes and pays the winner nothing)."""
        pot = await self._repo.get_pot(tx, game_id)
        if pot is not None or not await self._repo.escrow_of(tx, game_id):
            return pot
        rebuilt = await self._repo.rebuild_pot(tx, game_id)
        if isinstance(rebuilt, str):
            # Nothing safe to pay from: the escrow stays where it is, frozen but counted, and
            # `kapshap db check` names it until a person has looked.
            log.error("game %s: its pot row is gone and cannot be rebuilt: %s", game_id, rebuilt)
            return None
        log.error("game %s: its pot row was gone; rebuilt it from the ledger", game_id)
        return rebuilt

    async def _require_pot(self, tx: Tx, game_id: str) -> PotRecord:
        pot = await self._repo.get_pot(tx, game_id)
        if pot is None:  # pragma: no cover - callers checked
            raise LookupError(game_id)
        return pot

    async def _pot_view(self, tx: Tx, game_id: str) -> Pot:
        record = await self._require_pot(tx, game_id)
        escrow = await self._repo.escrow_of(tx, game_id)
        return Pot(
            game_id,
            record.guild_id,
            record.channel_id,
            record.status,
            escrow,
            record.carried_in if record.status is PotStatus.OPEN else 0,
        )
