"""Domain errors of the services: refusals a user can cause and should be told about.

Every :class:`UserError` carries a short message written for the member who caused it; the
Discord layer shows ``str(error)`` ephemerally, as is. Anything else that escapes a service is a
bug: it is logged with an incident id instead of being shown.

Members are named with Discord's mention syntax (``<@id>``): it is plain text here (no Discord
import), and the Discord client renders it as the member's name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.locale import N_, Message, Moment, t

# Re-exported for the Discord layer, which never imports bot.storage: the database cannot be
# reached right now (a PostgreSQL server gone); the member is told to try again, nothing applied.
from bot.storage.errors import DatabaseUnavailable

__all__ = [
    "AlreadyClaimed",
    "BalanceLimit",
    "DailyDisabled",
    "DatabaseUnavailable",
    "InsufficientChips",
    "InvalidAmount",
    "InvalidTarget",
    "PotClosed",
    "Shortfall",
    "UnpaidAntes",
    "UserError",
    "format_chips",
    "mention",
]


def format_chips(amount: int) -> str:
    """``1234`` -> ``"1,234 chips"`` (``"1 chip"``)."""
    return f"{amount:,} chip" + ("" if abs(amount) == 1 else "s")


def mention(user_id: int) -> str:
    """Discord mention text for a member."""
    return f"<@{user_id}>"


class UserError(Exception):
    """A refusal with a short, user-facing message.

    ``message`` is the English text and the catalogue's message id (bot/locale); ``{fields}`` in
    it are filled from ``values``. ``message`` is the English text; :meth:`localized` the text in
    a member's language.
    """

    def __init__(self, message: str, /, **values: Any) -> None:
        self.msgid = message
        self.values = values
        self.message = message.format(**values) if values else message
        super().__init__(self.message)

    def localized(self, locale: str) -> str:
        """The message in ``locale`` (``en``, ``zh-TW``, ``zh-CN``)."""
        # Values that are words of the bot's own (a setting's name, "the house") are translated
        # too: the catalogue lists them under the ``term`` context; names and numbers are not.
        values = {
            k: v.localized(locale)
            if isinstance(v, Message)
            else t(locale, v, context="term")
            if isinstance(v, str)
            else v
            for k, v in self.values.items()
        }
        return t(locale, self.msgid, **values)


class InvalidAmount(UserError):
    """An amount that is not a whole number in the allowed range."""


class InvalidTarget(UserError):
    """An operation aimed at the wrong member (e.g. giving chips to oneself)."""


class DailyDisabled(UserError):
    """The guild set its daily amount to zero."""

    def __init__(self) -> None:
        super().__init__(N_("Daily chips are turned off in this server."))


class AlreadyClaimed(UserError):
    """The daily chips of this UTC day were already claimed."""

    def __init__(self, next_claim_at: datetime, now: datetime) -> None:
        self.next_claim_at = next_claim_at
        wait = max(0, int((next_claim_at - now).total_seconds()))
        hours, rest = divmod(wait, 3600)
        minutes = -(-rest // 60)  # round up: "in 0m" would be a lie
        if minutes == 60:
            hours, minutes = hours + 1, 0
        super().__init__(
            N_(
                "You already claimed your daily chips today. "
                "Next claim in {hours}h {minutes}m ({when} UTC)."
            ),
            hours=hours,
            minutes=f"{minutes:02d}",
            when=Moment(next_claim_at, time=True),
        )


class BalanceLimit(UserError):
    """A credit would push a balance past the maximum."""

    def __init__(self, user_id: int, limit: int) -> None:
        self.user_id = user_id
        self.limit = limit
        super().__init__(
            N_("That would take {member} over the maximum balance of {limit} chips."),
            member=mention(user_id),
            limit=f"{limit:,}",
        )


class InsufficientChips(UserError):
    """A member does not have enough chips for an operation."""

    def __init__(
        self, message: str, /, *, user_id: int, balance: int, needed: int, **values: Any
    ) -> None:
        super().__init__(message, **values)
        self.user_id = user_id
        self.balance = balance
        self.needed = needed


@dataclass(frozen=True, slots=True)
class Shortfall:
    """One member who cannot pay an ante."""

    user_id: int
    balance: int
    needed: int


class UnpaidAntes(InsufficientChips):
    """Some members cannot pay their ante, so no ante was taken from anyone."""

    def __init__(self, shortfalls: Sequence[Shortfall]) -> None:
        self.shortfalls = tuple(shortfalls)
        names = self._names("en")
        first = self.shortfalls[0]
        super().__init__(
            N_("Not everyone can pay the ante, so nobody was charged: {names}."),
            names=names,
            user_id=first.user_id,
            balance=first.balance,
            needed=first.needed,
        )

    def _names(self, locale: str) -> str:
        return ", ".join(
            t(
                locale,
                "{member} has {have} chips (needs {needed})",
                # user 0 is the server's house account, which stakes the computer seats' antes
                member=t(locale, "the house", context="term")
                if s.user_id == 0
                else mention(s.user_id),
                have=f"{s.balance:,}",
                needed=f"{s.needed:,}",
            )
            for s in self.shortfalls
        )

    def localized(self, locale: str) -> str:
        """The message in ``locale``, each shortfall told in it too."""
        return t(locale, self.msgid, names=self._names(locale))


class PotClosed(UserError):
    """Antes were offered for a game whose pot has already been settled."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        super().__init__(N_("This game's pot has already been settled."))
