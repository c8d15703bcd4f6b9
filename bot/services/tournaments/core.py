"""The tournament service's state and what every part of it uses: reading events, the locks
that keep one event's steps in order, the organiser check, posting through the host."""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any

from bot.logs import bound
from bot.services.chips import ChipsService
from bot.services.clock import Clock
from bot.services.errors import UserError
from bot.services.replays import ReplayService
from bot.services.tables import TableService
from bot.services.tournaments.host import (
    MAX_OPEN,
    OPEN_STATUSES,
    EventExport,
    OrganiserRoles,
    RatingLookup,
    TournamentHost,
    TournamentView,
    pot_id,
    waitlist_of,
)
from bot.services.tournaments.words import TEXT
from bot.storage.db import Database
from bot.storage.games import GamesRepo
from bot.storage.timestamps import to_db_time
from bot.storage.tournaments import EntryRecord, MatchRow, TournamentRecord, TournamentsRepo
from bot.tournament import Event, EventSettings
from bot.tournament.export import event_data, matches_csv, standings_csv

__all__ = ["EVENT_LOCK_POLL", "EVENT_LOCK_WAIT", "TournamentCore"]

log = logging.getLogger(__name__)

EVENT_LOCK_WAIT = 30.0
"""How long (seconds) a process waits for another carrying the same event on."""

EVENT_LOCK_POLL = 0.02
"""How often (seconds) it asks for the event's lock meanwhile."""


class TournamentCore:
    """The state of the tournament service, reading events, and the helpers every part uses.

    The first of the layers :class:`~bot.services.tournaments.service.TournamentService` is
    made of (see there)."""

    def __init__(
        self,
        db: Database,
        chips: ChipsService,
        tables: TableService,
        clock: Clock,
        rng: random.Random | None = None,
    ) -> None:
        """``rng`` seeds unrated players (tests pass a seeded one)."""
        self._db = db
        self._chips = chips
        self._tables = tables
        self._clock = clock
        self._repo = TournamentsRepo()
        self._games = GamesRepo(db)
        self._rng = rng or random.Random(secrets.randbits(64))
        self._locks: dict[int, asyncio.Lock] = {}
        self._threads: dict[int, int] = {}  # thread id -> event id (filled as matches open)
        self._again: set[int] = set()  # events to look at again once their step is done
        self._board_locks: dict[int, asyncio.Lock] = {}  # one drawing of a board at a time
        self.host: TournamentHost | None = None
        self.rating_of: RatingLookup | None = None
        """Seeding by rating: set by whoever provides ratings; None seeds at random."""
        # The live standings board (issue 23).
        self.standings_changed: Callable[[int], None] | None = None
        """Called with an event's id after each pass that carried it on (a result, a new
        round, the end): set by the cog that keeps the event's board, which coalesces the
        calls into one edit (:mod:`~bot.services.tournaments.board`)."""

    # ----------------------------------------------------------------------------- reading

    async def view(self, tournament_id: int, guild_id: int | None = None) -> TournamentView:
        """One event with its entries and state."""
        async with self._db.read() as tx:
            record = await self._repo.get(tx, tournament_id)
            if record is None or (guild_id is not None and record.guild_id != guild_id):
                raise UserError(TEXT["no_event"])
            entries = await self._repo.entries(tx, tournament_id)
        pot = await self._chips.pot(pot_id(tournament_id))
        pool = 0 if pot is None else pot.total
        event = None if record.state is None else Event.from_dict(record.state)
        return TournamentView(
            record, entries, EventSettings.from_dict(record.settings), event, pool
        )

    async def current(
        self,
        guild_id: int,
        tournament_id: int | None = None,
        *,
        statuses: Sequence[str] = OPEN_STATUSES,
        player: int | None = None,
        entered: bool | None = None,
        organiser: int | None = None,
        manager: bool = False,
    ) -> TournamentView:
        """The event a command means: ``tournament_id`` when given (its ``event:``), else the
        one open event of the server it can mean.

        The open events are narrowed, in this order: for a ``player``, to the events he is in
        (``entered=True``: only those, else refused; None: those if any) or is not in
        (``entered=False``, joining: those if any); for an ``organiser`` who is not a server
        manager, to his own events (none: refused); then to those in ``statuses`` (where the
        command can act), if any. One event left is the one meant; with more, the command is
        refused with their names, so that it never acts on an event nobody meant."""
        if tournament_id is not None:
            return await self.view(tournament_id, guild_id)
        async with self._db.read() as tx:
            found = await self._repo.list_guild(tx, guild_id, OPEN_STATUSES, limit=MAX_OPEN)
            if not found:
                raise UserError(TEXT["no_open"])
            if player is not None:
                mine = [r for r in found if await self._entered(tx, r, player)]
                if entered is True and not mine:
                    raise UserError(TEXT["in_none"])
                others = [r for r in found if r not in mine]
                found = (others if entered is False else mine) or found
        if organiser is not None and not manager:
            found = [r for r in found if r.organiser_id == organiser]
            if not found:
                raise UserError(TEXT["not_organiser"])
        found = [r for r in found if r.status in statuses] or found
        if len(found) > 1:
            events = ", ".join(f"#{r.id} {r.name}" for r in found)
            raise UserError(TEXT["several"], events=events)
        return await self.view(found[0].id, guild_id)

    async def _entered(self, tx: Any, record: TournamentRecord, user_id: int) -> bool:
        """Whether a member is in an event: entered (or on its waitlist) before the start, not
        withdrawn after."""
        if record.state is not None:
            event = Event.from_dict(record.state)
            return user_id in event.seeds and user_id not in event.withdrawn
        if any(p == user_id for p, _ in waitlist_of(record)):
            return True
        entry = await self._repo.entry(tx, record.id, user_id)
        return entry is not None and entry.active

    async def choices(
        self, guild_id: int, typed: str, *, statuses: Sequence[str] = OPEN_STATUSES
    ) -> list[TournamentRecord]:
        """The server's events of these statuses whose number or name holds ``typed``, newest
        first: the choices of a command's ``event:`` option (at most Discord's 25)."""
        async with self._db.read() as tx:
            found = await self._repo.list_guild(tx, guild_id, tuple(statuses), limit=MAX_OPEN)
        typed = typed.strip().lstrip("#").casefold()
        return [r for r in found if typed in f"{r.id} {r.name}".casefold()][:25]

    async def history(self, guild_id: int, limit: int = 10) -> list[TournamentRecord]:
        """The server's finished events, newest first (``results`` holds the final order of
        every player: events stored when only the top 16 were kept get theirs back from the
        stored event state, which always held every result)."""
        async with self._db.read() as tx:
            records = await self._repo.list_guild(tx, guild_id, ("finished",), limit=limit)
        for record in records:
            results = record.results
            if results is None or record.state is None:
                continue
            if len(results.get("ranking", [])) < int(results.get("players", 0)):
                event = Event.from_dict(record.state)
                results["ranking"] = [[p, event.player(p).name] for p in event.ranking()]
        return records

    async def export(self, tournament_id: int, guild_id: int) -> EventExport:
        """The whole event for ``/tournament export``: its data (:func:`event_data`), the two
        spreadsheets and the record of every finished game, by game id. Refused while no
        match has a result yet (there is nothing to export but the sign-up list)."""
        view = await self.view(tournament_id, guild_id)
        record, event = view.record, view.event
        if event is None or not any(m.result for r in event.rounds for m in r.matches):
            raise UserError(TEXT["no_results"], name=record.name)
        async with self._db.read() as tx:
            rows = await self._repo.all_matches(tx, tournament_id)
        games: dict[str, list[str]] = {}
        for row in rows:
            games.setdefault(row.match_id, []).extend(row.game_ids)
        results = record.results or {}
        prizes = {int(p): int(a) for p, a in results.get("prizes", [])}
        meta = {
            "id": record.id,
            "name": record.name,
            "status": record.status,
            "organiser_id": record.organiser_id,
            "created_at": to_db_time(record.created_at),
            "finished_at": None if record.finished_at is None else to_db_time(record.finished_at),
            "pool": int(results.get("pool", view.pool)),
            "corrections": list(record.options.get("corrections", [])),
        }
        data = event_data(event, meta=meta, prizes=prizes, games=games)
        replays = ReplayService(self._games)
        records: dict[str, str] = {}
        for game_id in (g for ids in games.values() for g in ids):
            try:
                records[game_id] = (await replays.load(game_id, guild_id)).text
            except UserError:
                continue  # still being played, or never started: no record yet
        return EventExport(record.name, data, standings_csv(data), matches_csv(data), records)

    async def may_organise(self, guild_id: int, role_ids: Sequence[int], *, manager: bool) -> bool:
        """Server managers, and members with the organiser role, may create events."""
        if manager:
            return True
        role = await OrganiserRoles(self._db).get(guild_id)
        return role is not None and role in role_ids

    async def set_organiser_role(self, guild_id: int, role_id: int | None) -> None:
        """Set (or clear) the server's tournament organiser role (a manager's command)."""
        await OrganiserRoles(self._db).set(guild_id, role_id)

    # ----------------------------------------------------------------------------- helpers

    def _lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    @asynccontextmanager
    async def _across_processes(self, tournament_id: int) -> AsyncIterator[None]:
        """The event's lock across processes (the database's named lock ``tournament:<id>``),
        for the work that reads the event, acts (posts, opens tables) and then commits: two
        processes that each ended a game of the same round would otherwise both decide it,
        both post, and one commit would fail after its side effects. Another process carrying
        the event on is waited for (it holds the lock only for its own step), then this one reads
        what it stored. On SQLite (one process) it is granted at once. After
        :data:`EVENT_LOCK_WAIT` seconds it goes on without: the version checks still keep the
        event's state right."""
        async with self._held(f"tournament:{tournament_id}"):
            with bound(tournament=tournament_id):
                yield

    @asynccontextmanager
    async def _held(self, name: str, wait: float = EVENT_LOCK_WAIT) -> AsyncIterator[None]:
        """The database's named lock ``name`` across processes, waited for up to ``wait``
        seconds, then gone on without (see :meth:`_across_processes`)."""
        waited_until = time.monotonic() + wait
        held = await self._db.hold(name)
        while held is None and time.monotonic() < waited_until:
            # Real time, not the service's clock: another process is at work meanwhile.
            await asyncio.sleep(EVENT_LOCK_POLL)
            held = await self._db.hold(name)
        if held is None:
            log.warning("%s: its lock stayed taken; going on without", name)
        try:
            yield
        finally:
            if held is not None:
                await held.release()

    async def _require(self, tx: Any, tournament_id: int) -> TournamentRecord:
        record = await self._repo.get(tx, tournament_id)
        if record is None:
            raise UserError(TEXT["no_event"])
        return record

    async def _entries(self, tournament_id: int, *, active_only: bool = True) -> list[EntryRecord]:
        async with self._db.read() as tx:
            return await self._repo.entries(tx, tournament_id, active_only=active_only)

    async def _match_rows(
        self, tournament_id: int, number: int, only: Sequence[str] | None = None
    ) -> list[MatchRow]:
        async with self._db.read() as tx:
            return await self._repo.matches(tx, tournament_id, number, only)

    @staticmethod
    def need_organiser(record: TournamentRecord, actor_id: int, manager: bool) -> None:
        """Refuse anyone but the event's organiser and server managers."""
        TournamentCore._need_organiser(record, actor_id, manager)

    @staticmethod
    def _need_organiser(record: TournamentRecord, actor_id: int, manager: bool) -> None:
        if not manager and actor_id != record.organiser_id:
            raise UserError(TEXT["not_organiser"])

    def _need_host(self) -> TournamentHost:
        if self.host is None:  # pragma: no cover - the cog sets it when it loads
            raise RuntimeError("no tournament host: the tournaments cog is not loaded")
        return self.host

    async def _post(self, record: TournamentRecord, text: str, *, pictures: bool = False) -> None:
        if self.host is not None:
            await self.host.post(record, text, pictures=pictures)

    async def _refresh(self, record: TournamentRecord) -> None:
        if self.host is not None:
            await self.host.refresh(record)

    async def _announce(self, record: TournamentRecord, text: str, *, dm: bool = True) -> None:
        """Post a reminder (issue 23, "Schedule") pinging the event's reminder role, if it has
        one, and (``dm``) send it to the entrants who asked for reminders by DM."""
        if self.host is None:
            return
        role = record.options.get("reminder_role")
        members: list[int] = []
        if dm and record.options.get("remind_me"):
            opted = {int(u) for u in record.options.get("remind_me", [])}
            members = [e.user_id for e in await self._entries(record.id) if e.user_id in opted]
        if role is None and not members:
            await self.host.post(record, text)
            return
        await self.host.announce(record, text, None if role is None else int(role), members)
