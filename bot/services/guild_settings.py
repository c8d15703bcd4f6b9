"""Per-server defaults: the ante and turn timer of new tables, starting chips, the daily amount.

Each server may override the application's defaults (``Settings``: ``KAPSHAP_DEFAULT_ANTE`` …).
An override is stored in ``guild_config``; a missing one (``NULL``) means "use the application
default", so changing ``.env`` still moves every server that never chose its own value.

Who reads what:

* :class:`~bot.services.chips.ChipsService` reads ``starting_chips`` and ``daily_amount`` from the
  same rows itself, falling back to the same application defaults (``ChipsDefaults`` is built from
  the same ``Settings`` in ``bot.app``). This service only *writes* them and shows the effective
  values, which therefore always match what the chips service applies.
* :class:`~bot.services.tables.TableService` does not read ``guild_config``: its caller (the
  ``/table new`` command) asks :meth:`GuildSettingsService.table_defaults` and passes the ante and
  turn timer to ``open_table``, unless the host chose his own.

Changing a default affects only what is created afterwards: accounts that exist keep their
balance, tables already open keep their ante.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot import limits
from bot.services.chips import MAX_AMOUNT
from bot.services.clock import Clock
from bot.services.errors import UserError
from bot.services.tables import TableDefaults
from bot.storage.db import Database
from bot.storage.guild_config import GuildConfigRecord, GuildConfigRepo

__all__ = [
    "LIMITS",
    "GuildDefaults",
    "GuildSettings",
    "GuildSettingsService",
    "InvalidSetting",
    "Limit",
]


class InvalidSetting(UserError):
    """A server setting outside its allowed range."""


@dataclass(frozen=True, slots=True)
class Limit:
    """The allowed range of one setting and how to name it to a server manager."""

    label: str
    minimum: int
    maximum: int
    unit: str

    def check(self, value: int) -> int:
        """``value`` if it is a whole number in range, else :class:`InvalidSetting`."""
        # bool is an int subclass: ``True`` seconds is a bug in the caller, not a setting.
        if type(value) is not int or not self.minimum <= value <= self.maximum:
            raise InvalidSetting(
                "The {label} must be a whole number from {minimum} to {maximum} {unit}.",
                label=self.label,
                minimum=f"{self.minimum:,}",
                maximum=f"{self.maximum:,}",
                unit=self.unit,
            )
        return value


#: Allowed ranges. The ante and turn timer ranges are the ones ``TableService.open_table``
#: enforces, so a configured default can never make ``/table new`` fail. Starting chips and the
#: daily amount are minted by one ledger row each, so they share the bound of one chip operation;
#: 0 is allowed (no starting chips; daily claims turned off).
LIMITS: dict[str, Limit] = {
    "ante": Limit("ante", 0, limits.MAX_ANTE, "chips"),
    "starting_chips": Limit("starting chips", 0, MAX_AMOUNT, "chips"),
    "daily_amount": Limit("daily amount", 0, MAX_AMOUNT, "chips"),
    "turn_seconds": Limit(
        "turn timer", limits.MIN_TURN_SECONDS, limits.MAX_TURN_SECONDS, "seconds"
    ),
}


@dataclass(frozen=True, slots=True)
class GuildDefaults:
    """The application-wide defaults (from ``Settings``), used where a server chose nothing."""

    ante: int = 10
    starting_chips: int = 1000
    daily_amount: int = 100
    turn_seconds: int = 120


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A server's effective settings; ``overridden`` names those the server chose itself."""

    guild_id: int
    ante: int
    starting_chips: int
    daily_amount: int
    turn_seconds: int
    overridden: frozenset[str]

    def is_default(self, name: str) -> bool:
        """Whether ``name`` (a key of :data:`LIMITS`) follows the application default."""
        return name not in self.overridden


class GuildSettingsService:
    """Read and change a server's defaults. Every method is one transaction or one read."""

    def __init__(self, db: Database, clock: Clock, defaults: GuildDefaults) -> None:
        """Store overrides in ``db``; ``defaults`` are the application's (``Settings``)."""
        self._db = db
        self._clock = clock
        self._defaults = defaults
        self._repo = GuildConfigRepo()

    @property
    def defaults(self) -> GuildDefaults:
        """The application defaults."""
        return self._defaults

    async def get(self, guild_id: int) -> GuildSettings:
        """The server's effective settings."""
        async with self._db.read() as tx:
            record = await self._repo.get(tx, guild_id)
        return self._effective(record)

    async def update(
        self,
        guild_id: int,
        *,
        ante: int | None = None,
        starting_chips: int | None = None,
        daily_amount: int | None = None,
        turn_seconds: int | None = None,
        reset: bool = False,
    ) -> GuildSettings:
        """Change some settings (``None``: unchanged) and return the effective settings.

        ``reset=True`` first drops every override, so the values given (if any) are the only ones
        the server keeps. Every value is validated before anything is written: one bad value
        changes nothing.
        """
        changes = {
            "ante": ante,
            "starting_chips": starting_chips,
            "daily_amount": daily_amount,
            "turn_seconds": turn_seconds,
        }
        given = {name: LIMITS[name].check(v) for name, v in changes.items() if v is not None}
        if not given and not reset:
            return await self.get(guild_id)
        async with self._db.transaction() as tx:
            record = GuildConfigRecord(guild_id) if reset else await self._repo.get(tx, guild_id)
            record = replace(record, **given)
            await self._repo.put(tx, record, self._clock.now())
        return self._effective(record)

    async def table_defaults(
        self, guild_id: int, base: TableDefaults | None = None
    ) -> TableDefaults:
        """The ante and turn timer a new table in this server gets unless its host chooses.

        ``base`` (normally ``TableService.defaults``) supplies the fields servers cannot set,
        such as the AI level that plays a timed-out turn.
        """
        current = await self.get(guild_id)
        return replace(
            base or TableDefaults(), ante=current.ante, turn_seconds=current.turn_seconds
        )

    def _effective(self, record: GuildConfigRecord) -> GuildSettings:
        d = self._defaults
        overridden = frozenset(name for name in LIMITS if getattr(record, name) is not None)
        return GuildSettings(
            guild_id=record.guild_id,
            ante=d.ante if record.ante is None else record.ante,
            starting_chips=d.starting_chips
            if record.starting_chips is None
            else record.starting_chips,
            daily_amount=d.daily_amount if record.daily_amount is None else record.daily_amount,
            turn_seconds=d.turn_seconds if record.turn_seconds is None else record.turn_seconds,
            overridden=overridden,
        )
