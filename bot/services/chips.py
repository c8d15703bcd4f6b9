"""Chips: balances, daily claims, gifts, admin grants, antes held in escrow and their settlement.

Rules this service keeps:

* **Chips move only inside one transaction**, and a balance check is part of the ``UPDATE`` that
  spends (``… WHERE balance >= amount``), never a separate read.
* **Every change writes a ledger row with a unique idempotency key.** Repeating an operation with
  the same key (a double click, a retried interaction) does not move chips again: gifts and
  grants return the original result, antes already taken are skipped, a settled pot reports its
  settlement again. Reusing a key for a *different* operation raises
  :class:`~bot.storage.errors.IdempotencyConflict`.

  Ledger kinds (sign of delta) and their idempotency keys:

  - ``start`` (+, mint): ``start:{guild}:{user}``
  - ``daily`` (+, mint): ``daily:{guild}:{user}:{YYYY-MM-DD}`` (the UTC date)
  - ``grant`` (+ mint or - burn): ``grant:{caller key}``
  - ``give_out`` (-) and ``give_in`` (+): ``give:{caller key}`` and ``give:{caller key}:in``
  - ``ante`` (-): ``ante:{game}:{user}``
  - ``payout`` (+): ``payout:{game}``
  - ``rake`` (-, burn): ``rake:{game}``
  - ``refund`` (+): ``refund:{game}:{user}``
  - ``house_win`` (-, burn, no member): ``house_win:{game}``
  - ``carry_out`` (-) and ``carry_in`` (+), no member: ``carry_out:{game}``, ``carry_in:{game}``
  - ``settle_out`` (-) and ``settle_in`` (+): ``settle:{game}:out`` and ``settle:{game}:in``
    (Tsung Shap's "rate × point difference": the loser pays the winner directly, a transfer)

  Caller keys (``interaction:{id}`` …) are prefixed with the operation so one interaction id can
  never collide with another operation's key or with the system keys above.
* **Conservation.** ``sum(balances) + held == minted - burned``, where *held* is the antes in
  escrow, the carried-in chips of open pots and the carried pots; *minted* the ``start``,
  ``daily`` and positive ``grant`` rows; *burned* the negative ``grant``, ``rake`` and
  ``house_win`` rows. Also, each balance equals the sum of its member's ledger deltas.
  :meth:`ChipsService.total_supply_check` computes both.

**The house.** Each server has a house account: the account of the reserved member id
:data:`HOUSE_ID` (0, never a Discord user). Tables stake every computer seat's ante from it
(an ordinary ``ante`` row on the house account, key ``ante:{game}:0``) and, when a computer seat
wins, pay the pot to it (an ordinary ``payout``), so beating the computer wins its antes and
losing to it costs what losing to a member costs. Because the house is an account, conservation
holds with nothing special: its balance is counted with the members'. The house opens with
:data:`HOUSE_START_FACTOR` times the server's starting chips (a ``start`` mint) and a server
manager funds it with :meth:`ChipsService.fund_house` (a ``grant`` mint). It never appears on the
leaderboard. ``payout(game, None)`` (the pot leaves circulation as a ``house_win`` burn) remains
for pots without a winning member and no house stake.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, time, timedelta
from enum import StrEnum

from bot import limits
from bot.services.clock import Clock
from bot.services.errors import (
    AlreadyClaimed,
    BalanceLimit,
    DailyDisabled,
    InsufficientChips,
    InvalidAmount,
    InvalidTarget,
    PotClosed,
    Shortfall,
    UnpaidAntes,
    mention,
)
from bot.storage.chips import (
    Account,
    ChipsRepo,
    LedgerEntry,
    LedgerKind,
    PotRecord,
    PotStatus,
    SupplyTotals,
)
from bot.storage.db import Database, Tx
from bot.storage.errors import IdempotencyConflict
from bot.storage.guild_config import GuildConfigRepo

__all__ = [
    "HOUSE_ID",
    "HOUSE_START_FACTOR",
    "MAX_AMOUNT",
    "MAX_BALANCE",
    "ChipsDefaults",
    "ChipsService",
    "DailyClaim",
    "DifferenceSettlement",
    "Gift",
    "Grant",
    "LeaderboardEntry",
    "Outcome",
    "Pot",
    "RankInfo",
    "Settlement",
    "check_amount",
]

log = logging.getLogger(__name__)

#: Largest amount of one operation (gift, grant, ante): shared with the settings (bot.limits).
MAX_AMOUNT = limits.MAX_AMOUNT
#: Largest balance a gift, grant or daily claim may produce. Keeps balances far from the 64-bit
#: limit; winnings (payouts, refunds) are not capped, since they only return chips that exist.
MAX_BALANCE = limits.MAX_BALANCE
#: Longest idempotency key accepted from callers.
MAX_KEY_LENGTH = 200
#: Largest page of leaderboard or history.
MAX_PAGE = 100
#: The member id of each server's house account (Discord ids are never 0).
HOUSE_ID = 0
#: The house opens with this many times the server's starting chips.
HOUSE_START_FACTOR = 10


@dataclass(frozen=True, slots=True)
class ChipsDefaults:
    """Application defaults, overridden per guild by ``guild_config``."""

    starting_chips: int = 1000
    daily_amount: int = 100


@dataclass(frozen=True, slots=True)
class DailyClaim:
    """Result of a daily claim."""

    user_id: int
    amount: int
    balance: int
    next_claim_at: datetime


@dataclass(frozen=True, slots=True)
class Gift:
    """Result of a gift (the same value again when the key is replayed)."""

    from_id: int
    to_id: int
    amount: int
    from_balance: int
    to_balance: int


@dataclass(frozen=True, slots=True)
class Grant:
    """Result of an admin grant; ``amount`` is negative for a removal."""

    admin_id: int
    member_id: int
    amount: int
    balance: int


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    """One leaderboard line."""

    rank: int
    user_id: int
    balance: int


@dataclass(frozen=True, slots=True)
class RankInfo:
    """A member's place on the leaderboard."""

    rank: int
    balance: int
    total: int


class Outcome(StrEnum):
    """How a pot was settled (``NO_POT``: the game never took an ante)."""

    PAID = "paid"
    HOUSE = "house"
    REFUNDED = "refunded"
    CARRIED = "carried"
    NO_POT = "none"


@dataclass(frozen=True, slots=True)
class Pot:
    """A game's pot: the antes held (empty once settled) and chips carried in."""

    game_id: str
    guild_id: int
    channel_id: int | None
    status: PotStatus
    antes: Mapping[int, int]
    carried_in: int

    @property
    def total(self) -> int:
        """Chips currently in the pot."""
        return sum(self.antes.values()) + self.carried_in


@dataclass(frozen=True, slots=True)
class Settlement:
    """What settling a pot did.

    ``pot`` is the whole pot; ``paid`` what the winner kept after ``rake``; ``refunds`` what each
    member got back; ``carried`` what went to (or, on a refund, back to) the channel's carried pot.
    """

    game_id: str
    outcome: Outcome
    pot: int = 0
    winner_id: int | None = None
    paid: int = 0
    rake: int = 0
    refunds: Mapping[int, int] = field(default_factory=dict)
    carried: int = 0


@dataclass(frozen=True, slots=True)
class DifferenceSettlement:
    """What a point-difference settlement did: ``paid`` chips moved from loser to winner.

    ``owed`` is what the rules asked for; ``paid`` is less (``capped``) when the loser's
    balance could not cover it. ``paid == 0`` moved nothing and wrote no ledger row.
    """

    game_id: str
    winner_id: int
    loser_id: int
    owed: int
    paid: int
    loser_balance: int
    winner_balance: int

    @property
    def capped(self) -> bool:
        """Whether the loser paid less than he owed (his balance ran out)."""
        return self.paid < self.owed


def check_amount(amount: int, *, what: str = "Amount") -> int:
    """Validate a positive amount of one operation (1 .. MAX_AMOUNT)."""
    # bool is an int subclass; True chips is a bug, not an amount.
    if type(amount) is not int or not 1 <= amount <= MAX_AMOUNT:
        raise InvalidAmount(
            "{what} must be a whole number from 1 to {max_amount}.",
            what=what,
            max_amount=f"{MAX_AMOUNT:,}",
        )
    return amount


def _check_key(idem_key: str) -> str:
    if not isinstance(idem_key, str) or not 1 <= len(idem_key) <= MAX_KEY_LENGTH:
        raise ValueError(f"idempotency key must be 1..{MAX_KEY_LENGTH} characters")
    return idem_key


def _check_page(offset: int, limit: int) -> None:
    if offset < 0:
        raise ValueError("offset must be >= 0")
    if not 1 <= limit <= MAX_PAGE:
        raise ValueError(f"limit must be 1..{MAX_PAGE}")


class ChipsService:
    """Use cases on chips. Every public method is one transaction (or one consistent read)."""

    def __init__(self, db: Database, clock: Clock, defaults: ChipsDefaults) -> None:
        """Work on ``db``, take the time from ``clock``, fall back to ``defaults``."""
        self._db = db
        self._clock = clock
        self._defaults = defaults
        self._repo = ChipsRepo()
        self._config = GuildConfigRepo()

    # --- balances -----------------------------------------------------------------------------

    async def balance(self, guild_id: int, user_id: int) -> int:
        """The member's balance, opening the account with the starting chips on first use."""
        async with self._db.read() as tx:
            account = await self._repo.get_account(tx, guild_id, user_id)
        if account is not None:
            return account.balance
        async with self._db.transaction() as tx:
            return (await self._ensure_account(tx, guild_id, user_id)).balance

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
            await self._ensure_account(tx, guild_id, user_id)
            balance = await self._credit_capped(tx, guild_id, user_id, amount)
            await self._repo.add_ledger(
                tx,
                guild_id=guild_id,
                user_id=user_id,
                delta=amount,
                balance_after=balance,
                kind=LedgerKind.DAILY,
                idem_key=key,
                created_at=now,
            )
        return DailyClaim(user_id, amount, balance, next_claim_at)

    async def give(
        self, guild_id: int, from_id: int, to_id: int, amount: int, idem_key: str
    ) -> Gift:
        """Move ``amount`` chips from one member to another, atomically.

        Replaying ``idem_key`` returns the original :class:`Gift` without moving chips again.
        """
        check_amount(amount)
        key = f"give:{_check_key(idem_key)}"
        if from_id == to_id:
            raise InvalidTarget("You can't give chips to yourself.")
        now = self._clock.now()
        async with self._db.transaction() as tx:
            out_row = await self._repo.find_ledger(tx, key)
            if out_row is not None:
                return await self._replayed_gift(tx, key, out_row, guild_id, from_id, to_id, amount)
            await self._ensure_account(tx, guild_id, from_id)
            await self._ensure_account(tx, guild_id, to_id)
            from_balance = await self._repo.debit(tx, guild_id, from_id, amount)
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
            to_balance = await self._credit_capped(tx, guild_id, to_id, amount)
            await self._repo.add_ledger(
                tx,
                guild_id=guild_id,
                user_id=from_id,
                delta=-amount,
                balance_after=from_balance,
                kind=LedgerKind.GIVE_OUT,
                idem_key=key,
                actor_id=from_id,
                note=f"to {to_id}",
                created_at=now,
            )
            await self._repo.add_ledger(
                tx,
                guild_id=guild_id,
                user_id=to_id,
                delta=amount,
                balance_after=to_balance,
                kind=LedgerKind.GIVE_IN,
                idem_key=f"{key}:in",
                actor_id=from_id,
                note=f"from {from_id}",
                created_at=now,
            )
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
        key = f"grant:{_check_key(idem_key)}"
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
            await self._ensure_account(tx, guild_id, member_id)
            if amount > 0:
                balance = await self._credit_capped(tx, guild_id, member_id, amount)
            else:
                debited = await self._repo.debit(tx, guild_id, member_id, -amount)
                if debited is None:
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
                balance = debited
            await self._repo.add_ledger(
                tx,
                guild_id=guild_id,
                user_id=member_id,
                delta=amount,
                balance_after=balance,
                kind=LedgerKind.GRANT,
                idem_key=key,
                actor_id=admin_id,
                created_at=now,
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
        _check_page(0, limit)
        async with self._db.read() as tx:
            return await self._repo.history(tx, guild_id, user_id, limit, before_id)

    # --- leaderboard --------------------------------------------------------------------------

    async def leaderboard(
        self, guild_id: int, offset: int = 0, limit: int = 10
    ) -> list[LeaderboardEntry]:
        """One page of the guild's leaderboard: most chips first, ties by lower user id."""
        _check_page(offset, limit)
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

    # --- antes, escrow and settlement ---------------------------------------------------------

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
            await self._ensure_account(tx, guild_id, user_id)
            balance = await self._repo.debit(tx, guild_id, user_id, amount)
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
            await self._repo.add_ledger(
                tx,
                guild_id=guild_id,
                user_id=user_id,
                delta=-amount,
                balance_after=balance,
                kind=LedgerKind.ANTE,
                idem_key=idem_key,
                game_id=pot_id,
                created_at=now,
            )

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
            balance = await self._repo.credit(tx, pot.guild_id, user_id, amount)
            if balance is None:  # pragma: no cover - escrow rows reference accounts
                raise RuntimeError(f"escrow of {user_id} has no account")
            await self._repo.add_ledger(
                tx,
                guild_id=pot.guild_id,
                user_id=user_id,
                delta=amount,
                balance_after=balance,
                kind=LedgerKind.REFUND,
                idem_key=idem_key,
                game_id=pot_id,
                created_at=now,
            )
            return amount

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
                await self._ensure_account(tx, pot.guild_id, user_id)
                balance = await self._repo.credit(tx, pot.guild_id, user_id, amount)
                if balance is None:  # pragma: no cover - the account was just ensured
                    raise RuntimeError(f"winner {user_id} has no account")
                await self._repo.add_ledger(
                    tx,
                    guild_id=pot.guild_id,
                    user_id=user_id,
                    delta=amount,
                    balance_after=balance,
                    kind=LedgerKind.PAYOUT,
                    idem_key=f"payout:{pot_id}:{user_id}",
                    game_id=pot_id,
                    created_at=now,
                )
            best = max(amounts, key=lambda u: amounts[u]) if amounts else None
            await self._settle(tx, pot, PotStatus.PAID, total, best, 0, now)
        return Settlement(pot_id, Outcome.PAID, pot=total, winner_id=best, paid=total)

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
        module docstring for why). Once a pot is settled, further calls to :meth:`payout`,
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
                    await self._repo.add_ledger(
                        tx,
                        guild_id=pot.guild_id,
                        user_id=None,
                        delta=-total,
                        balance_after=None,
                        kind=LedgerKind.HOUSE_WIN,
                        idem_key=f"house_win:{game_id}",
                        game_id=game_id,
                        note="an AI seat won",
                        created_at=now,
                    )
                await self._settle(tx, pot, PotStatus.HOUSE, total, None, 0, now)
                return Settlement(game_id, Outcome.HOUSE, pot=total)
            rake = total * rake_percent // 100
            await self._ensure_account(tx, pot.guild_id, winner_id)
            if total:
                balance = await self._repo.credit(tx, pot.guild_id, winner_id, total)
                if balance is None:  # pragma: no cover - the account was just ensured
                    raise RuntimeError(f"winner {winner_id} has no account")
                await self._repo.add_ledger(
                    tx,
                    guild_id=pot.guild_id,
                    user_id=winner_id,
                    delta=total,
                    balance_after=balance,
                    kind=LedgerKind.PAYOUT,
                    idem_key=f"payout:{game_id}",
                    game_id=game_id,
                    created_at=now,
                )
            if rake:
                # The winner receives the whole pot, then pays the rake: both rows are on his
                # account, so his history reads "+pot, -rake" and balances match the ledger.
                balance = await self._repo.debit(tx, pot.guild_id, winner_id, rake)
                if balance is None:  # pragma: no cover - he was just paid more than the rake
                    raise RuntimeError("rake exceeds the winner's balance")
                await self._repo.add_ledger(
                    tx,
                    guild_id=pot.guild_id,
                    user_id=winner_id,
                    delta=-rake,
                    balance_after=balance,
                    kind=LedgerKind.RAKE,
                    idem_key=f"rake:{game_id}",
                    game_id=game_id,
                    note=f"{rake_percent}% rake",
                    created_at=now,
                )
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
                balance = await self._repo.credit(tx, pot.guild_id, user_id, amount)
                if balance is None:  # pragma: no cover - escrow rows reference accounts
                    raise RuntimeError(f"escrow of {user_id} has no account")
                await self._repo.add_ledger(
                    tx,
                    guild_id=pot.guild_id,
                    user_id=user_id,
                    delta=amount,
                    balance_after=balance,
                    kind=LedgerKind.REFUND,
                    idem_key=f"refund:{game_id}:{user_id}",
                    game_id=game_id,
                    created_at=now,
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
                await self._repo.add_ledger(
                    tx,
                    guild_id=guild_id,
                    user_id=None,
                    delta=amount,
                    balance_after=None,
                    kind=LedgerKind.CARRY_IN,
                    idem_key=key,
                    game_id=game_id,
                    note=f"from channel {channel_id}",
                    created_at=now,
                )
        return amount

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
            loser = await self._ensure_account(tx, guild_id, loser_id)
            winner = await self._ensure_account(tx, guild_id, winner_id)
            paid = min(amount, loser.balance)
            if paid == 0:
                return DifferenceSettlement(
                    game_id, winner_id, loser_id, amount, 0, loser.balance, winner.balance
                )
            loser_balance = await self._repo.debit(tx, guild_id, loser_id, paid)
            if loser_balance is None:  # pragma: no cover - paid <= the balance just read
                raise RuntimeError(f"loser {loser_id} cannot pay {paid}")
            # Uncapped like a payout: the chips already exist, they only change hands.
            winner_balance = await self._repo.credit(tx, guild_id, winner_id, paid)
            if winner_balance is None:  # pragma: no cover - the account was just ensured
                raise RuntimeError(f"winner {winner_id} has no account")
            note = f"{amount} owed" if paid < amount else None
            await self._repo.add_ledger(
                tx,
                guild_id=guild_id,
                user_id=loser_id,
                delta=-paid,
                balance_after=loser_balance,
                kind=LedgerKind.SETTLE_OUT,
                idem_key=out_key,
                game_id=game_id,
                note=f"to {winner_id}" + ("" if note is None else f"; {note}"),
                created_at=now,
            )
            await self._repo.add_ledger(
                tx,
                guild_id=guild_id,
                user_id=winner_id,
                delta=paid,
                balance_after=winner_balance,
                kind=LedgerKind.SETTLE_IN,
                idem_key=in_key,
                game_id=game_id,
                note=f"from {loser_id}",
                created_at=now,
            )
        return DifferenceSettlement(
            game_id, winner_id, loser_id, amount, paid, loser_balance, winner_balance
        )

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

    async def total_supply_check(self, guild_id: int | None = None) -> SupplyTotals:
        """The conservation totals (one guild or all); ``.ok`` tells whether they balance."""
        async with self._db.read() as tx:
            return await self._repo.supply_totals(tx, guild_id)

    # --- helpers, inside a transaction --------------------------------------------------------

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

    async def _ensure_account(self, tx: Tx, guild_id: int, user_id: int) -> Account:
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
            await self._repo.add_ledger(
                tx,
                guild_id=guild_id,
                user_id=user_id,
                delta=starting,
                balance_after=starting,
                kind=LedgerKind.START,
                idem_key=f"start:{guild_id}:{user_id}",
                created_at=now,
            )
        return account

    async def _daily_amount(self, tx: Tx, guild_id: int) -> int:
        config = await self._config.get(tx, guild_id)
        return self._defaults.daily_amount if config.daily_amount is None else config.daily_amount

    async def _balance_in(self, tx: Tx, guild_id: int, user_id: int) -> int:
        account = await self._repo.get_account(tx, guild_id, user_id)
        return 0 if account is None else account.balance

    async def _credit_capped(self, tx: Tx, guild_id: int, user_id: int, amount: int) -> int:
        balance = await self._repo.credit(tx, guild_id, user_id, amount, max_balance=MAX_BALANCE)
        if balance is None:
            raise BalanceLimit(user_id, MAX_BALANCE)
        return balance

    async def _take_antes(
        self, tx: Tx, game_id: str, guild_id: int, antes: Mapping[int, int], now: datetime
    ) -> None:
        shortfalls: list[Shortfall] = []
        for user_id, amount in antes.items():
            await self._ensure_account(tx, guild_id, user_id)
            balance = await self._repo.debit(tx, guild_id, user_id, amount)
            if balance is None:
                have = await self._balance_in(tx, guild_id, user_id)
                shortfalls.append(Shortfall(user_id, have, amount))
                continue  # keep going: the error names every member who is short
            await self._repo.add_escrow(tx, game_id, guild_id, user_id, amount)
            await self._repo.add_ledger(
                tx,
                guild_id=guild_id,
                user_id=user_id,
                delta=-amount,
                balance_after=balance,
                kind=LedgerKind.ANTE,
                idem_key=f"ante:{game_id}:{user_id}",
                game_id=game_id,
                created_at=now,
            )
        if shortfalls:
            # Raising rolls the whole transaction back: the antes debited above are restored.
            raise UnpaidAntes(shortfalls)

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
        await self._repo.add_ledger(
            tx,
            guild_id=pot.guild_id,
            user_id=None,
            delta=-amount,
            balance_after=None,
            kind=LedgerKind.CARRY_OUT,
            idem_key=f"carry_out:{pot.game_id}",
            game_id=pot.game_id,
            note=f"to channel {channel}",
            created_at=now,
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
