"""What every part of the tournament service shares: the Discord host it talks to, an event as
the commands show it, the organiser role, the pot of an event's buy-ins and the open statuses.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.services.tables import Outcome, Table
from bot.storage.db import Database
from bot.storage.tournaments import EntryRecord, TournamentRecord, TournamentsRepo
from bot.tournament import Event, EventSettings, Format

__all__ = [
    "AI_LEVELS",
    "FORMATS",
    "MAX_OPEN",
    "MAX_STEPS",
    "OPEN_STATUSES",
    "EventExport",
    "OrganiserRoles",
    "RatingLookup",
    "TournamentHost",
    "TournamentView",
    "pot_id",
    "waitlist_of",
]

FORMATS = tuple(f.value for f in Format)

OPEN_STATUSES = ("registration", "check-in", "running", "paused")
AI_LEVELS = ("random", "greedy", "expert")
MAX_STEPS = 10_000  # a bound on one advance pass (every step stores progress)
MAX_OPEN = 100  # the events a command without ``event:`` looks through (newest first)


def pot_id(tournament_id: int) -> str:
    """The pot that holds an event's buy-ins."""
    return f"tournament:{tournament_id}"


RatingLookup = Callable[[int, int, str], Awaitable[float | None]]
"""``(guild_id, user_id, game) -> rating or None``: the single hook for seeding by rating."""


class TournamentHost(Protocol):
    """What the service needs from Discord (the cog implements it)."""

    async def open_thread(self, record: TournamentRecord, match_id: str, title: str) -> int:
        """Create the thread a match is played in; its id."""

    async def show_table(self, outcome: Outcome) -> None:
        """Post a freshly started table in its thread (message, hands, and its end if the
        computer players finished it at once)."""

    async def post(self, record: TournamentRecord, text: str, *, pictures: bool = False) -> None:
        """Post in the event's channel (``pictures``: with the standings / bracket)."""

    async def say(
        self,
        channel_id: int,
        guild_id: int,
        text: str,
        mentions: Sequence[int],
        *,
        ready: int | None = None,
    ) -> None:
        """Post in a match's thread, pinging ``mentions``; ``ready``: an event's id, to put
        its Ready button (the no-show window) under the post."""

    async def table_stopped(self, table: Table) -> None:
        """A match's game was ended by the event (time limit, drop, re-pair, cancel)."""

    async def refresh(self, record: TournamentRecord) -> None:
        """Update the sign-up / status message of the event."""

    async def announce(
        self, record: TournamentRecord, text: str, role_id: int | None, members: Sequence[int]
    ) -> None:
        """A reminder (issue 23, "Schedule"): post ``text`` in the event's channel pinging the
        role ``role_id`` (and nobody else), and send it by DM to ``members`` (a member whose
        DMs are closed is skipped)."""

    async def tell(self, record: TournamentRecord, user_id: int, text: str) -> None:
        """DM a member about the event (in the server's language); closed DMs are only
        logged (a waitlisted member promoted to a seat, issue 23)."""


@dataclass(slots=True)
class TournamentView:
    """An event as the commands show it."""

    record: TournamentRecord
    entries: list[EntryRecord]
    settings: EventSettings
    event: Event | None
    pool: int

    @property
    def id(self) -> int:
        """The event's number."""
        return self.record.id

    @property
    def waitlist(self) -> list[tuple[int, str]]:
        """The members waiting for a seat, first first: (id, name)."""
        return waitlist_of(self.record)


def waitlist_of(record: TournamentRecord) -> list[tuple[int, str]]:
    """An event's waitlist (issue 23), kept in its options in the order members joined it."""
    return [(int(p), str(n)) for p, n in record.options.get("waitlist", [])]


@dataclass(slots=True)
class EventExport:
    """An event as ``/tournament export`` hands it out (see
    :meth:`~bot.services.tournaments.core.TournamentCore.export`)."""

    name: str
    data: dict[str, Any]
    """Everything, as JSON values (:func:`bot.tournament.export.event_data`)."""
    standings_csv: str
    matches_csv: str
    records: dict[str, str]
    """Game id -> its record (``docs/record-format.md``), for every finished game."""


class OrganiserRoles:
    """The server's tournament organiser role, set by ``/kapadmin config organiser_role``.

    Apart from :class:`TournamentService` so the server settings command can read and write it
    without the tables and chips an event needs."""

    def __init__(self, db: Database) -> None:
        """Read and write ``tournament_config`` in ``db``."""
        self._db = db
        self._repo = TournamentsRepo()

    async def get(self, guild_id: int) -> int | None:
        """The role id, or None (only server managers may create events)."""
        async with self._db.read() as tx:
            return await self._repo.organiser_role(tx, guild_id)

    async def set(self, guild_id: int, role_id: int | None) -> None:
        """Set (or clear, with None) the role."""
        async with self._db.transaction() as tx:
            await self._repo.set_organiser_role(tx, guild_id, role_id)
