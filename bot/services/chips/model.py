"""The chips service's value types, its limits and the checks of what callers pass in."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from bot import limits
from bot.services.errors import InvalidAmount
from bot.storage.chips import PotStatus

__all__ = [
    "HOUSE_ID",
    "HOUSE_START_FACTOR",
    "MAX_AMOUNT",
    "MAX_BALANCE",
    "MAX_KEY_LENGTH",
    "MAX_PAGE",
    "ChipsDefaults",
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
    "check_key",
    "check_page",
]

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


def check_key(idem_key: str) -> str:
    """Validate a caller's idempotency key (1 .. MAX_KEY_LENGTH characters)."""
    if not isinstance(idem_key, str) or not 1 <= len(idem_key) <= MAX_KEY_LENGTH:
        raise ValueError(f"idempotency key must be 1..{MAX_KEY_LENGTH} characters")
    return idem_key


def check_page(offset: int, limit: int) -> None:
    """Validate a page of leaderboard or history (offset >= 0, 1 .. MAX_PAGE lines)."""
    if offset < 0:
        raise ValueError("offset must be >= 0")
    if not 1 <= limit <= MAX_PAGE:
        raise ValueError(f"limit must be 1..{MAX_PAGE}")
