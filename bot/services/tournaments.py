"""Tournaments run by the bot: sign-up, buy-ins, rounds of tables, results, prizes.

The formats themselves are the pure package :mod:`bot.tournament`; this service stores an event
(:mod:`bot.storage.tournaments`), moves its chips through :class:`ChipsService` and plays its
matches as ordinary tables of :class:`TableService`, one thread per match. Discord is reached
only through a :class:`TournamentHost` the cog provides (open a thread, show a table, post).

**Restarts.** Every step is stored before the next begins: the event's state (``Event.to_dict``)
and the match rows (which thread plays which match, the ids of the games it opened and the
games it finished) are written in one transaction. :meth:`TournamentService.advance` is the one
loop that carries an event on from whatever is stored — a game finished but not yet counted, a
match decided, a round done, the next game or round to open — so after a restart
:meth:`resume_all` calls it for every running event and the rounds carry on; the tables
themselves are rebuilt by the table service's own restore.

**Chips.** Buy-ins are held in the pot ``tournament:{id}`` (ordinary escrow rows, so the
conservation check counts them); a member who leaves before the start is refunded from it; the
end pays the split from it (``payout:tournament:{id}:{user}``), or refunds every buy-in when the
event is cancelled. Computer fillers pay no buy-in and never win money
(:meth:`bot.tournament.Event.payouts` passes them over).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

from bot.locale import N_, Message, recognize, t
from bot.locale.levels import level_name
from bot.services.chips import ChipsService
from bot.services.clock import Clock
from bot.services.errors import UserError
from bot.services.tables import Outcome, SeatInfo, Table, TableService
from bot.storage.db import Database
from bot.storage.games import GamesRepo, GameStatus
from bot.storage.tournaments import EntryRecord, MatchRow, TournamentRecord, TournamentsRepo
from bot.tournament import (
    DecideBy,
    Event,
    EventSettings,
    Format,
    GameRecord,
    Match,
    Player,
    Result,
    Round,
    TournamentError,
    explain_rules,
    match_result,
    table_result,
)
from bot.tournament.describe import match_label, pairings_text, results_text, standings_text
from bot.tournament.rules_text import game_name
from bot.tournament.text import Say

FORMATS = tuple(f.value for f in Format)

__all__ = [
    "AI_LEVELS",
    "FORMATS",
    "TEXT",
    "OrganiserRoles",
    "RatingLookup",
    "TournamentHost",
    "TournamentRecord",
    "TournamentService",
    "TournamentView",
    "Worded",
    "board_text",
    "computer_name",
    "explain_rules",
    "pot_id",
    "say_in",
    "settings_from_options",
    "standings_text",
]

log = logging.getLogger(__name__)

# Every user-facing sentence of this module, in one place (to be wrapped for translation).
TEXT = {
    "no_event": N_("There is no tournament with that number in this server."),
    "no_open": N_("There is no tournament open in this server. Start one with `/tournament new`."),
    "not_organiser": N_("Only the organiser of this tournament or a server manager can do that."),
    "may_not_create": N_(
        "Only a server manager or a member with the tournament organiser role can create a "
        "tournament."
    ),
    "not_registration": N_("Sign-up for this tournament is closed."),
    "not_registration_drop": N_(
        "Sign-up for this tournament is closed. Use `/tournament drop` to leave."
    ),
    "already_in": N_("You are already entered in this tournament."),
    "full": N_("This tournament is full."),
    "not_in": N_("You are not entered in this tournament."),
    "in_none": N_("You are not in any open tournament of this server."),
    "several": N_("More than one tournament could be meant ({events}): choose one with `event:`."),
    "not_running": N_("This tournament is not running."),
    "not_paused": N_("This tournament is not paused."),
    "over": N_("This tournament is already over."),
    "fill_range": N_("Add from 1 to 64 computer players."),
    "round_minutes": N_("The round time limit is from 5 to 1440 minutes."),
    "turn_seconds": N_("The turn timer is from 10 to 3600 seconds."),
    "pairings": N_("**{name}: round {number}**\n{text}"),
    "time_up": N_("⏰ Round {number} of **{name}** is over: its time ran out."),
    "standings": N_("**{name}: standings after round {number}**\n{text}"),
    "results": N_("🏆 **{name} is over.**\n{text}"),
    "cancelled": N_("**{name}** was cancelled; every buy-in was refunded."),
    "cancelled_free": N_("**{name}** was cancelled."),
    "paused": N_("**{name}** is paused: no new games start until it resumes."),
    "resumed": N_("**{name}** resumes."),
    "dropped": N_("{who} left **{name}**."),
    "disqualified": N_("{who} was disqualified from **{name}**."),
    "repaired": N_("Round {number} of **{name}** is paired again."),
    "checkin_open": N_(
        "✅ Check-in for **{name}** is open for {minutes} minutes: click **Check in** on the "
        "sign-up message. Players who do not check in are dropped and refunded."
    ),
    "checkin_closed": N_("Check-in for **{name}** is closed: {dropped} dropped and refunded."),
    "not_checkin": N_("Check-in for this tournament is not open."),
    "checked_in": N_("You are checked in for **{name}**."),
    "match_open": N_("{mentions}: your match **{match}** of **{name}** starts here ({game}, {n})."),
    "thread": N_("{name} · {match}"),
    "could_not_start": N_("{name} could not start: {reason}"),
    "computer_players": N_("Computer players"),
    "best_of": N_("best of {n}"),
    "games": N_("{n} games"),
    "level": N_("Choose the computer level from: {levels}."),
    "computer": N_("Computer {number} ({level})"),
}

# The refusals of the pure event package (English, like the engine's), recognized so that a
# member reads them in his language (bot.locale.recognize): every TournamentError it raises.
REFUSALS = (
    N_("An event needs at least two players."),
    N_("This event takes at most {n} players."),
    N_("Table rounds need at least {n} players."),
    N_("A round robin is for at most {n} players; use Swiss."),
    N_("An event needs at least one human player."),
    N_("That player is not in this event."),
    N_("That player has already left the event."),
    N_("No round has been paired yet."),
    N_("The round has results already; it cannot be re-paired."),
    N_("The event is over."),
    N_("Round {number} is not finished yet."),
    N_("Unknown game {game}; choose one of {games}."),
    N_("Table rounds are for Kap Tai Shap; two-player games use Swiss."),
    N_("Kap Tai Shap events use table rounds."),
    N_("A match is best of an odd number of games from 1 to 15."),
    N_("Only Tsung Shap matches can be decided by total points."),
    N_("The number of rounds is from 1 to 30."),
    N_("A top cut (2 to 64 players) is only for Swiss events."),
    N_("The buy-in cannot be negative."),
    N_("The prize split is positive percentages adding up to 100, e.g. 60/30/10."),
    N_("An event with a buy-in needs a prize split."),
    N_("At most 32 prize places."),
    N_("The seats limit is from 2 to 1024 players."),
    N_("Tables have between 2 and {n} seats, the minimum first."),
    N_("A table plays 1 to 20 games."),
    N_("The final table has 2 to {n} seats (0 for none)."),
    N_("A player is entered twice."),
    N_("An elimination bracket needs at least two players."),
)


def refusal(exc: Exception) -> UserError:
    """A :class:`TournamentError` as a refusal the member reads in his language."""
    found = recognize(str(exc), REFUSALS)
    if found is None:
        return UserError(str(exc))
    return UserError(found.msgid, **found.values)


def say_in(locale: str) -> Say:
    """The :data:`~bot.tournament.text.Say` of ``locale``: the catalogue's words, filled."""

    def say(msgid: str, /, **values: Any) -> str:
        return t(locale, msgid, **values)

    return say


class Worded(Message):
    """A text the event package words per language (pairings, standings, results): its
    English, and a function that words it in any locale. A value of a :class:`Message` that
    the Discord layer localizes with the server's language."""

    word: Callable[[str], str]

    def __new__(cls, word: Callable[[str], str]) -> Worded:
        """``Worded(lambda locale: pairings_text(event, rnd, say_in(locale)))``."""
        english = word("en")
        text = str.__new__(cls, english)
        text.msgid = english
        text.values = {}
        text.word = word
        return text

    def localized(self, locale: str) -> str:
        """The text in ``locale``."""
        return self.word(locale)


OPEN_STATUSES = ("registration", "check-in", "running", "paused")
AI_LEVELS = ("random", "greedy", "expert")
MAX_STEPS = 10_000  # a bound on one advance pass (every step stores progress)
MAX_OPEN = 100  # the events a command without ``event:`` looks through (newest first)


def computer_name(number: int, level: str, locale: str) -> str:
    """A computer filler's name: its one label wherever it shows (pairings, standings, results,
    pictures, its table). It says once that it is a computer and names its level in the
    reader's words: ``Computer 1 (greedy)``, 「電腦 1（普通）」."""
    return t(locale, TEXT["computer"], number=number, level=level_name(locale, level))


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

    async def say(self, channel_id: int, guild_id: int, text: str, mentions: Sequence[int]) -> None:
        """Post in a match's thread, pinging ``mentions``."""

    async def table_stopped(self, table: Table) -> None:
        """A match's game was ended by the event (time limit, drop, re-pair, cancel)."""

    async def refresh(self, record: TournamentRecord) -> None:
        """Update the sign-up / status message of the event."""


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


class TournamentService:
    """Create, fill, run and pay out tournaments."""

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
        self.host: TournamentHost | None = None
        self.rating_of: RatingLookup | None = None
        """Seeding by rating: set by whoever provides ratings; None seeds at random."""

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
        """Whether a member is in an event: entered before the start, not withdrawn after."""
        if record.state is not None:
            event = Event.from_dict(record.state)
            return user_id in event.seeds and user_id not in event.withdrawn
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
        """The server's finished events, newest first (``results`` holds the final order)."""
        async with self._db.read() as tx:
            return await self._repo.list_guild(tx, guild_id, ("finished",), limit=limit)

    async def may_organise(self, guild_id: int, role_ids: Sequence[int], *, manager: bool) -> bool:
        """Server managers, and members with the organiser role, may create events."""
        if manager:
            return True
        role = await OrganiserRoles(self._db).get(guild_id)
        return role is not None and role in role_ids

    async def set_organiser_role(self, guild_id: int, role_id: int | None) -> None:
        """Set (or clear) the server's tournament organiser role (a manager's command)."""
        await OrganiserRoles(self._db).set(guild_id, role_id)

    # ----------------------------------------------------------------------------- sign-up

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organiser_id: int,
        name: str,
        settings: EventSettings,
        round_minutes: int = 60,
        turn_seconds: int = 120,
        rule_set: str | None = None,
        closes_in_minutes: int | None = None,
        checkin_minutes: int | None = None,
        organiser_name: str | None = None,
    ) -> TournamentView:
        """A new event in registration (the caller checked :meth:`may_organise`).

        ``checkin_minutes``: when the event starts, a check-in window of that length opens
        first; members who do not check in are dropped and refunded when it closes.
        ``organiser_name`` is shown where a mention would stay an id (the message's footer)."""
        if not 5 <= round_minutes <= 1440:
            raise UserError(TEXT["round_minutes"])
        if not 10 <= turn_seconds <= 3600:
            raise UserError(TEXT["turn_seconds"])
        now = self._clock.now()
        closes = None if closes_in_minutes is None else now + timedelta(minutes=closes_in_minutes)
        options = {
            "round_minutes": round_minutes,
            "turn_seconds": turn_seconds,
            "rule_set": rule_set,
            "checkin_minutes": checkin_minutes,
            "organiser_name": organiser_name,
        }
        async with self._db.transaction() as tx:
            tid = await self._repo.create(
                tx,
                guild_id=guild_id,
                channel_id=channel_id,
                name=name,
                organiser_id=organiser_id,
                settings=settings.to_dict(),
                options=options,
                closes_at=closes,
                created_at=now,
            )
        log.info("tournament %s created in guild %s by %s", tid, guild_id, organiser_id)
        return await self.view(tid)

    async def set_message(self, tournament_id: int, message_id: int) -> None:
        """Remember the sign-up message (its buttons find the event after a restart)."""
        async with self._lock(tournament_id), self._db.transaction() as tx:
            record = await self._require(tx, tournament_id)
            record.message_id = message_id
            await self._repo.update(tx, record)

    async def join(self, tournament_id: int, user_id: int, name: str) -> TournamentView:
        """Enter a member; his buy-in goes into the event's pot in the same commit."""
        async with self._lock(tournament_id), self._db.transaction() as tx:
            record = await self._require(tx, tournament_id)
            if record.status != "registration":
                raise UserError(TEXT["not_registration"])
            entry = await self._repo.entry(tx, tournament_id, user_id)
            if entry is not None and entry.active:
                raise UserError(TEXT["already_in"])
            settings = EventSettings.from_dict(record.settings)
            if len(await self._repo.entries(tx, tournament_id)) >= settings.seats_limit:
                raise UserError(TEXT["full"])
            joins = await self._repo.add_entry(
                tx, tournament_id, user_id, name, None, self._clock.now()
            )
            if settings.buy_in:
                await self._chips.buy_in(
                    pot_id(tournament_id),
                    record.guild_id,
                    user_id,
                    settings.buy_in,
                    f"ante:{pot_id(tournament_id)}:{user_id}:{joins}",
                    channel_id=record.channel_id,
                    tx=tx,
                )
            await self._repo.update(tx, record)
        return await self.view(tournament_id)

    async def leave(self, tournament_id: int, user_id: int) -> TournamentView:
        """Leave before the start: the buy-in comes back in the same commit."""
        async with self._lock(tournament_id), self._db.transaction() as tx:
            record = await self._require(tx, tournament_id)
            if record.status not in ("registration", "check-in"):
                raise UserError(TEXT["not_registration_drop"])
            entry = await self._repo.entry(tx, tournament_id, user_id)
            if entry is None or not entry.active:
                raise UserError(TEXT["not_in"])
            await self._chips.refund_member(
                pot_id(tournament_id),
                user_id,
                f"refund:{pot_id(tournament_id)}:{user_id}:{entry.joins}",
                tx=tx,
            )
            await self._repo.remove_entry(tx, tournament_id, user_id)
            await self._repo.update(tx, record)
        return await self.view(tournament_id)

    async def fill(
        self,
        tournament_id: int,
        actor_id: int,
        count: int,
        level: str,
        *,
        manager: bool = False,
        locale: str = "en",
    ) -> TournamentView:
        """Add computer fillers (no buy-in; they never win money), named in ``locale`` (the
        server's language: their names are stored and shown to everyone)."""
        if not 1 <= count <= 64:
            raise UserError(TEXT["fill_range"])
        if level not in AI_LEVELS:
            raise UserError(TEXT["level"], levels=", ".join(AI_LEVELS))
        async with self._lock(tournament_id), self._db.transaction() as tx:
            record = await self._require(tx, tournament_id)
            self._need_organiser(record, actor_id, manager)
            if record.status != "registration":
                raise UserError(TEXT["not_registration"])
            entries = await self._repo.entries(tx, tournament_id, active_only=False)
            settings = EventSettings.from_dict(record.settings)
            active = sum(1 for e in entries if e.active)
            if active + count > settings.seats_limit:
                raise UserError(TEXT["full"])
            taken = [e.user_id for e in entries if e.user_id < 0]
            next_id = min(taken, default=0) - 1
            for i in range(count):
                number = -(next_id - i)
                await self._repo.add_entry(
                    tx,
                    tournament_id,
                    next_id - i,
                    computer_name(number, level, locale),
                    level,
                    self._clock.now(),
                )
            await self._repo.update(tx, record)
        return await self.view(tournament_id)

    # ----------------------------------------------------------------------------- running

    async def start(
        self, tournament_id: int, actor_id: int | None, *, manager: bool = False
    ) -> TournamentView:
        """Seed the entrants and open the first round (``actor_id`` None: the close time)."""
        async with self._lock(tournament_id):
            async with self._db.transaction() as tx:
                record = await self._require(tx, tournament_id)
                if actor_id is not None:
                    self._need_organiser(record, actor_id, manager)
                if record.status not in ("registration", "check-in"):
                    raise UserError(TEXT["not_registration"])
                minutes = record.options.get("checkin_minutes")
                if record.status == "registration" and minutes:
                    record.status = "check-in"
                    record.closes_at = self._clock.now() + timedelta(minutes=int(minutes))
                    await self._repo.update(tx, record)
                    opened = True
                else:
                    opened = False
            if opened:
                await self._post(
                    record, Message(TEXT["checkin_open"], name=record.name, minutes=minutes)
                )
                await self._refresh(record)
                return await self.view(tournament_id)
            if record.status == "check-in":
                await self._close_checkin(record)
            async with self._db.read() as tx:
                entries = await self._repo.entries(tx, tournament_id)
            settings = EventSettings.from_dict(record.settings)
            players = [await self._player(record, e, settings) for e in entries]
            try:
                event = Event.start(settings, players, self._rng)
            except TournamentError as exc:
                raise refusal(exc) from None
            async with self._db.transaction() as tx:
                record = await self._require(tx, tournament_id)
                record.status = "running"
                record.state = event.to_dict()
                record.closes_at = None
                await self._repo.update(tx, record)
            log.info("tournament %s started with %s players", tournament_id, len(players))
        await self._refresh(record)
        await self.advance(tournament_id)
        return await self.view(tournament_id)

    async def check_in(self, tournament_id: int, user_id: int) -> TournamentView:
        """A member confirms he will play (during the check-in window)."""
        async with self._lock(tournament_id), self._db.transaction() as tx:
            record = await self._require(tx, tournament_id)
            if record.status != "check-in":
                raise UserError(TEXT["not_checkin"])
            entry = await self._repo.entry(tx, tournament_id, user_id)
            if entry is None or not entry.active:
                raise UserError(TEXT["not_in"])
            await self._repo.check_in(tx, tournament_id, user_id)
            await self._repo.update(tx, record)
        return await self.view(tournament_id)

    async def _close_checkin(self, record: TournamentRecord) -> None:
        """Drop and refund every member who did not check in (one commit)."""
        async with self._db.transaction() as tx:
            dropped = 0
            for entry in await self._repo.entries(tx, record.id):
                if entry.ai_level is not None or entry.checked_in:
                    continue
                await self._chips.refund_member(
                    pot_id(record.id),
                    entry.user_id,
                    f"refund:{pot_id(record.id)}:{entry.user_id}:{entry.joins}",
                    tx=tx,
                )
                await self._repo.remove_entry(tx, record.id, entry.user_id)
                dropped += 1
            await self._repo.update(tx, record)
        await self._post(record, Message(TEXT["checkin_closed"], name=record.name, dropped=dropped))

    async def _player(
        self, record: TournamentRecord, entry: EntryRecord, settings: EventSettings
    ) -> Player:
        rating = None
        if self.rating_of is not None and entry.ai_level is None:
            rating = await self.rating_of(record.guild_id, entry.user_id, settings.game)
        return Player(entry.user_id, entry.name, rating, ai=entry.ai_level is not None)

    async def advance(self, tournament_id: int) -> None:
        """Carry the event on from what is stored: count finished games, decide matches, open
        the next games, post standings and pair the next round, pay out at the end."""
        lock = self._lock(tournament_id)
        if lock.locked():
            # Called from inside a step (a table the computer players finished at once, a
            # resignation): the step under way looks again before it lets go.
            self._again.add(tournament_id)
            return
        async with lock:
            while True:
                self._again.discard(tournament_id)
                for _ in range(MAX_STEPS):
                    if not await self._step(tournament_id):
                        break
                if tournament_id not in self._again:
                    return

    async def _step(self, tournament_id: int) -> bool:
        """One step of :meth:`advance`; False when there is nothing more to do now."""
        async with self._db.read() as tx:
            record = await self._require(tx, tournament_id)
        if record.status != "running" or record.state is None:
            return False
        event = Event.from_dict(record.state)
        rnd = event.current_round
        if rnd is None or rnd.done:
            if rnd is not None:
                await self._post(
                    record,
                    Message(
                        TEXT["standings"],
                        name=record.name,
                        number=rnd.number,
                        text=Worded(lambda loc: standings_text(event, say=say_in(loc))),
                    ),
                    pictures=True,
                )
            return await self._next_round(record, event)
        rows = {r.match_id: r for r in await self._match_rows(record.id, rnd.number)}
        progressed = False
        for match in event.open_matches():
            row = rows.get(match.id) or MatchRow(match.id, rnd.number, None)
            if await self._count_games(record, event, rnd, match, row):
                progressed = True
                continue
            if await self._playing(row):
                continue
            await self._open_game(record, event, match, row)
            progressed = True
        return progressed

    async def _next_round(self, record: TournamentRecord, event: Event) -> bool:
        new: Round | None = event.next_round()
        while new is not None and new.done:  # only byes and forfeits: pair the next one
            new = event.next_round()
        if new is None:
            await self._finish(record, event)
            return False
        options = record.options
        record.state = event.to_dict()
        record.round_deadline = self._clock.now() + timedelta(
            minutes=int(options.get("round_minutes", 60))
        )
        async with self._db.transaction() as tx:
            for match in new.matches:
                if not match.done:
                    await self._repo.put_match(tx, record.id, MatchRow(match.id, new.number, None))
            await self._repo.update(tx, record)
        await self._post(
            record,
            Message(
                TEXT["pairings"],
                name=record.name,
                number=new.number,
                text=Worded(lambda loc: pairings_text(event, new, say_in(loc))),
            ),
        )
        return True

    async def _count_games(
        self, record: TournamentRecord, event: Event, rnd: Round, match: Match, row: MatchRow
    ) -> bool:
        """Take in the games of a match that ended since the last look; record the match
        when it is decided. True when something was stored."""
        changed = False
        kept: list[str] = row.game_ids[: len(row.games)]
        for game_id in row.game_ids[len(row.games) :]:
            game = await self._games.get(game_id)
            if game is None or game.status in (GameStatus.ABORTED, GameStatus.BROKEN):
                changed = True  # a game cut short (time, a drop): it does not count
                continue
            kept.append(game_id)
            if game.status in (GameStatus.FINISHED, GameStatus.DRAWN):
                seated = row.seatings.get(game_id, list(match.players))
                winner = None if game.winner_seat is None else seated[game.winner_seat]
                points = self._points(game.channel_id, game_id, seated)
                row.games.append(GameRecord(winner, points).to_dict())
                changed = True
        row.game_ids = kept
        result = self._result(event, rnd, match, row, timed_out=False)
        if result is not None:
            event.record(match.id, result)
            record.state = event.to_dict()
        if changed or result is not None:
            async with self._db.transaction() as tx:
                await self._repo.put_match(tx, record.id, row)
                if result is not None:
                    await self._repo.update(tx, record)
        return result is not None or (changed and not await self._playing(row))

    def _points(self, thread_id: int, game_id: str, seated: Sequence[int]) -> dict[int, int]:
        """The Tsung Shap points of a finished game, read from its table (still held after
        its end; a game counted only after a restart has none, and counts by its winner)."""
        table = self._tables.get(thread_id)
        if table is None or table.id != game_id or table.state is None:
            return {}
        scores = getattr(table.state.result, "scores", None)
        if not isinstance(scores, tuple) or len(scores) != len(seated):
            return {}
        return {pid: int(score) for pid, score in zip(seated, scores, strict=True)}

    @staticmethod
    def _result(
        event: Event, rnd: Round, match: Match, row: MatchRow, *, timed_out: bool
    ) -> Result | None:
        games = [GameRecord.from_dict(g) for g in row.games]
        if event.settings.two_player:
            a, b = match.players
            return match_result(
                event.settings,
                (a, b),
                games,
                knockout=event.is_knockout(match.id),
                timed_out=timed_out,
            )
        return table_result(
            event.settings, match.players, games, final=rnd.phase == "final", timed_out=timed_out
        )

    async def _playing(self, row: MatchRow) -> bool:
        """Whether the match's latest game is still being played."""
        if len(row.game_ids) <= len(row.games):
            return False
        game = await self._games.get(row.game_ids[-1])
        return game is not None and game.status.is_open

    async def _open_game(
        self, record: TournamentRecord, event: Event, match: Match, row: MatchRow
    ) -> None:
        """Open the match's next game at a table in its thread (the thread first, if new)."""
        settings = event.settings
        first = row.thread_id is None
        if row.thread_id is None:
            host = self._need_host()
            label = Worded(lambda loc: match_label(match.id, say_in(loc)))
            title = Message(TEXT["thread"], name=record.name, match=label)
            row.thread_id = await host.open_thread(record, match.id, title)
            async with self._db.transaction() as tx:
                await self._repo.put_match(tx, record.id, row)
        thread = row.thread_id
        self._threads[thread] = record.id
        entries = {e.user_id: e for e in await self._entries(record.id, active_only=False)}
        seated = list(match.players)
        if not settings.two_player:
            # A table plays on without players who left the event.
            seated = [p for p in match.players if p not in event.withdrawn]
        seats = []
        for pid in seated:
            entry = entries.get(pid)
            name = entry.name if entry is not None else event.player(pid).name
            if pid < 0:
                level = (entry.ai_level if entry is not None else None) or "greedy"
                seats.append(SeatInfo(name, ai_level=level))
            else:
                seats.append(SeatInfo(name, user_id=pid))
        existing = self._tables.get(thread)
        if existing is not None and existing.status is GameStatus.LOBBY:
            # A rematch someone opened from the last game's message: the event seats the
            # next game itself.
            with contextlib.suppress(UserError):
                await self._tables.cancel(thread, existing.host_id, admin=True)
            existing = None
        if existing is not None and existing.status.is_open:
            # Opened just before a crash, before its id was stored: adopt it.
            row.game_ids.append(existing.id)
            row.seatings[existing.id] = seated[: len(existing.seats)]
            async with self._db.transaction() as tx:
                await self._repo.put_match(tx, record.id, row)
            return
        humans = [p for p in match.players if p >= 0]
        if first:
            games = settings.final_table_games if match.id == "F" else settings.games_per_table
            length = (
                Message(TEXT["best_of"], n=settings.best_of)
                if settings.two_player
                else Message(TEXT["games"], n=games)
            )
            mentions = ", ".join(f"<@{p}>" for p in humans)
            await self._need_host().say(
                thread,
                record.guild_id,
                Message(
                    TEXT["match_open"],
                    mentions=mentions or Message(TEXT["computer_players"]),
                    match=Worded(lambda loc: match_label(match.id, say_in(loc))),
                    name=record.name,
                    game=Worded(lambda loc: game_name(settings.game, say_in(loc))),
                    n=length,
                ),
                humans,
            )
        if len(seated) < 2:  # everyone else left: the table is decided by its games so far
            rnd, _ = event.find(match.id)
            result = self._result(event, rnd, match, row, timed_out=True)
            assert result is not None
            event.record(match.id, result)
            record.state = event.to_dict()
            async with self._db.transaction() as tx:
                await self._repo.update(tx, record)
            return
        outcome = await self._tables.open_seated(
            guild_id=record.guild_id,
            channel_id=thread,
            host_id=record.organiser_id,
            game=settings.game,
            seats=seats,
            rule_set=record.options.get("rule_set"),
            turn_seconds=int(record.options.get("turn_seconds", 120)),
        )
        row.game_ids.append(outcome.table.id)
        row.seatings[outcome.table.id] = seated
        async with self._db.transaction() as tx:
            await self._repo.put_match(tx, record.id, row)
        await self._need_host().show_table(outcome)

    async def game_ended(self, outcome: Outcome) -> None:
        """A table's game ended (the table service's listener): carry its event on."""
        tid = await self._event_of_thread(outcome.table.channel_id)
        if tid is not None:
            # Not inside the caller's handling: the next game opens in the same thread.
            await self.advance(tid)

    async def table_aborted(self, channel_id: int) -> bool:
        """A server manager ended the table in ``channel_id`` (``/kapadmin endtable``).

        The aborted game does not count and the match plays it again at once, in the same
        thread (the round's time limit still runs): ending a stuck or broken game must not
        decide a match against players who did nothing wrong. True when it was an event's."""
        tid = await self._event_of_thread(channel_id)
        if tid is None:
            return False
        await self.advance(tid)
        return True

    async def is_event_table(self, channel_id: int) -> bool:
        """Whether the table in ``channel_id`` plays a tournament match (its next game opens by
        itself, so its end message offers no rematch)."""
        return await self._event_of_thread(channel_id) is not None

    async def _event_of_thread(self, channel_id: int) -> int | None:
        """The event whose match plays in the thread ``channel_id``, if any."""
        tid = self._threads.get(channel_id)
        if tid is None:
            async with self._db.read() as tx:
                found = await self._repo.match_by_thread(tx, channel_id)
            if found is None:
                return None
            tid = found[0]
            self._threads[channel_id] = tid
        return tid

    async def _finish(self, record: TournamentRecord, event: Event) -> None:
        """Pay the prizes by the split (or refund when nobody can be paid) and close."""
        pot = await self._chips.pot(pot_id(record.id))
        pool = 0 if pot is None else pot.total
        prizes = event.payouts(pool) if pool else {}
        prizes = {p: a for p, a in prizes.items() if a > 0}
        ranking = event.ranking()
        record.status = "finished"
        record.state = event.to_dict()
        record.finished_at = self._clock.now()
        record.round_deadline = None
        record.results = {
            "ranking": [[p, event.player(p).name] for p in ranking[:16]],
            "prizes": [[p, a] for p, a in prizes.items()],
            "pool": pool,
            "players": len(event.players),
        }
        async with self._db.transaction() as tx:
            if pool and prizes:
                await self._chips.pay_split(pot_id(record.id), prizes, tx=tx)
            elif pool:
                await self._chips.refund(pot_id(record.id), tx=tx)
            await self._repo.update(tx, record)

        def results(locale: str) -> str:
            # results_text says so when nobody could be paid and the buy-ins went back.
            return results_text(event, pool, say_in(locale))

        await self._post(
            record, Message(TEXT["results"], name=record.name, text=Worded(results)), pictures=True
        )
        await self._refresh(record)
        log.info("tournament %s finished: %s chips paid", record.id, sum(prizes.values()))

    # ----------------------------------------------------------------------------- the clock

    async def expire_due(self) -> None:
        """Start events whose sign-up closed; decide rounds whose time limit passed."""
        now = self._clock.now()
        async with self._db.read() as tx:
            records = await self._repo.list_open(tx)
        for record in records:
            try:
                if record.status in ("registration", "check-in") and _due(record.closes_at, now):
                    try:
                        await self.start(record.id, None)
                    except UserError as exc:
                        reason = Worded(exc.localized)
                        await self._post(
                            record,
                            Message(TEXT["could_not_start"], name=record.name, reason=reason),
                        )
                        await self.cancel(record.id, record.organiser_id, manager=True)
                elif record.status == "running" and _due(record.round_deadline, now):
                    await self._time_up(record.id)
            except Exception:
                log.exception("tournament %s: its timer failed", record.id)

    async def _time_up(self, tournament_id: int) -> None:
        """Decide every unfinished match of the round by the event's time-limit rule."""
        async with self._lock(tournament_id):
            async with self._db.read() as tx:
                record = await self._require(tx, tournament_id)
            if record.state is None or not _due(record.round_deadline, self._clock.now()):
                return
            event = Event.from_dict(record.state)
            rnd = event.current_round
            if rnd is None:
                return
            rows = {r.match_id: r for r in await self._match_rows(record.id, rnd.number)}
            for match in event.open_matches():
                row = rows.get(match.id) or MatchRow(match.id, rnd.number, None)
                await self._stop_table(row, record)
                result = self._result(event, rnd, match, row, timed_out=True)
                assert result is not None  # timed_out always decides
                event.record(match.id, result)
            record.state = event.to_dict()
            record.round_deadline = None
            async with self._db.transaction() as tx:
                await self._repo.update(tx, record)
            await self._post(record, Message(TEXT["time_up"], number=rnd.number, name=record.name))
        await self.advance(tournament_id)

    async def _stop_table(self, row: MatchRow, record: TournamentRecord) -> None:
        """Abort the game a match is playing (its result is decided without it)."""
        if row.thread_id is None:
            return
        table = self._tables.get(row.thread_id)
        if table is not None and table.status.is_open:
            try:
                await self._tables.cancel(row.thread_id, record.organiser_id, admin=True)
            except UserError:
                return  # it ended meanwhile
            if self.host is not None:
                await self.host.table_stopped(table)

    # ----------------------------------------------------------------------------- organiser

    async def drop(
        self,
        tournament_id: int,
        user_id: int,
        *,
        actor_id: int | None = None,
        disqualify: bool = False,
        manager: bool = False,
    ) -> TournamentView:
        """A player leaves a started event (or is disqualified by the organiser)."""
        async with self._lock(tournament_id):
            async with self._db.read() as tx:
                record = await self._require(tx, tournament_id)
            if actor_id is not None:
                self._need_organiser(record, actor_id, manager)
            if record.status not in ("running", "paused") or record.state is None:
                raise UserError(TEXT["not_running"])
            event = Event.from_dict(record.state)
            if actor_id is None and user_id not in event.seeds:
                raise UserError(TEXT["not_in"])
            try:
                decided = event.withdraw(user_id, disqualify=disqualify)
            except TournamentError as exc:
                raise refusal(exc) from None
            rnd = event.current_round
            if rnd is not None:
                rows = {r.match_id: r for r in await self._match_rows(record.id, rnd.number)}
                for match in rnd.matches:
                    row = rows.get(match.id)
                    if row is None or row.thread_id is None:
                        continue
                    if match.id in decided:
                        await self._stop_table(row, record)
                    elif user_id in match.players and not match.done:
                        await self._resign(row.thread_id, user_id)
            record.state = event.to_dict()
            async with self._db.transaction() as tx:
                await self._repo.update(tx, record)
            who = event.player(user_id).name
            key = "disqualified" if disqualify else "dropped"
            await self._post(record, Message(TEXT[key], who=who, name=record.name))
        await self.advance(tournament_id)
        return await self.view(tournament_id)

    async def _resign(self, thread_id: int, user_id: int) -> None:
        table = self._tables.get(thread_id)
        if table is None or not table.running:
            return
        try:
            outcome = await self._tables.resign(thread_id, user_id)
        except UserError:
            return
        if outcome.finished and self.host is not None:
            await self.host.show_table(outcome)

    async def repair(
        self, tournament_id: int, actor_id: int, *, manager: bool = False
    ) -> TournamentView:
        """Pair the current round again (before any game result is in)."""
        async with self._lock(tournament_id):
            async with self._db.read() as tx:
                record = await self._require(tx, tournament_id)
            self._need_organiser(record, actor_id, manager)
            if record.state is None or record.status not in ("running", "paused"):
                raise UserError(TEXT["not_running"])
            event = Event.from_dict(record.state)
            rnd = event.current_round
            if rnd is None:
                raise UserError(TEXT["not_running"])
            rows = await self._match_rows(record.id, rnd.number)
            if any(r.games for r in rows):
                raise UserError(REFUSALS[8])
            try:
                event.unpair()
            except TournamentError as exc:
                raise refusal(exc) from None
            for row in rows:
                await self._stop_table(row, record)
            record.state = event.to_dict()
            async with self._db.transaction() as tx:
                await self._repo.delete_round_matches(tx, record.id, rnd.number)
                await self._repo.update(tx, record)
            await self._post(record, Message(TEXT["repaired"], number=rnd.number, name=record.name))
        await self.advance(tournament_id)
        return await self.view(tournament_id)

    async def pause(
        self, tournament_id: int, actor_id: int, *, manager: bool = False
    ) -> TournamentView:
        """No new games or rounds start; the round's clock stops (games in play go on)."""
        async with self._lock(tournament_id), self._db.transaction() as tx:
            record = await self._require(tx, tournament_id)
            self._need_organiser(record, actor_id, manager)
            if record.status != "running":
                raise UserError(TEXT["not_running"])
            record.status = "paused"
            if record.round_deadline is not None:
                left = (record.round_deadline - self._clock.now()).total_seconds()
                record.paused_left = max(0.0, left)
            record.round_deadline = None
            await self._repo.update(tx, record)
        await self._post(record, Message(TEXT["paused"], name=record.name))
        await self._refresh(record)
        return await self.view(tournament_id)

    async def resume(
        self, tournament_id: int, actor_id: int, *, manager: bool = False
    ) -> TournamentView:
        """Carry on after a pause: the round gets back the time it had left."""
        async with self._lock(tournament_id), self._db.transaction() as tx:
            record = await self._require(tx, tournament_id)
            self._need_organiser(record, actor_id, manager)
            if record.status != "paused":
                raise UserError(TEXT["not_paused"])
            record.status = "running"
            if record.paused_left is not None:
                record.round_deadline = self._clock.now() + timedelta(seconds=record.paused_left)
            record.paused_left = None
            await self._repo.update(tx, record)
        await self._post(record, Message(TEXT["resumed"], name=record.name))
        await self._refresh(record)
        await self.advance(tournament_id)
        return await self.view(tournament_id)

    async def cancel(
        self, tournament_id: int, actor_id: int, *, manager: bool = False
    ) -> TournamentView:
        """Stop the event and refund every buy-in (one commit); games in play are ended."""
        async with self._lock(tournament_id):
            async with self._db.read() as tx:
                record = await self._require(tx, tournament_id)
            self._need_organiser(record, actor_id, manager)
            if record.status not in OPEN_STATUSES:
                raise UserError(TEXT["over"])
            if record.state is not None:
                rnd = Event.from_dict(record.state).current_round
                if rnd is not None:
                    for row in await self._match_rows(record.id, rnd.number):
                        await self._stop_table(row, record)
            async with self._db.transaction() as tx:
                record = await self._require(tx, tournament_id)
                await self._chips.refund(pot_id(tournament_id), tx=tx)
                record.status = "cancelled"
                record.finished_at = self._clock.now()
                record.round_deadline = None
                await self._repo.update(tx, record)
        settings = EventSettings.from_dict(record.settings)
        said = TEXT["cancelled"] if settings.buy_in else TEXT["cancelled_free"]
        await self._post(record, Message(said, name=record.name))
        await self._refresh(record)
        return await self.view(tournament_id)

    # ----------------------------------------------------------------------------- restarts

    async def resume_all(self) -> None:
        """After a start: carry every running event on from its stored state."""
        async with self._db.read() as tx:
            records = await self._repo.list_open(tx)
        for record in records:
            if record.status != "running":
                continue
            try:
                await self.advance(record.id)
            except Exception:
                log.exception("tournament %s could not resume", record.id)

    # ----------------------------------------------------------------------------- helpers

    def _lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    async def _require(self, tx: Any, tournament_id: int) -> TournamentRecord:
        record = await self._repo.get(tx, tournament_id)
        if record is None:
            raise UserError(TEXT["no_event"])
        return record

    async def _entries(self, tournament_id: int, *, active_only: bool = True) -> list[EntryRecord]:
        async with self._db.read() as tx:
            return await self._repo.entries(tx, tournament_id, active_only=active_only)

    async def _match_rows(self, tournament_id: int, number: int) -> list[MatchRow]:
        async with self._db.read() as tx:
            return await self._repo.matches(tx, tournament_id, number)

    @staticmethod
    def need_organiser(record: TournamentRecord, actor_id: int, manager: bool) -> None:
        """Refuse anyone but the event's organiser and server managers."""
        TournamentService._need_organiser(record, actor_id, manager)

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


def board_text(view: TournamentView, say: Say) -> str:
    """The text of an event's sign-up message: its rules until it is over, then its results, so
    that the message becomes the event's result board."""
    record = view.record
    if record.status == "finished" and view.event is not None:
        return results_text(view.event, int((record.results or {}).get("pool", 0)), say)
    entrants = len(view.event.players) if view.event else len(view.entries) or None
    return explain_rules(view.settings, entrants, say)


def _due(moment: datetime | None, now: datetime) -> bool:
    return moment is not None and moment <= now


def settings_from_options(
    *,
    game: str,
    format: str | None,
    best_of: int,
    rounds: int | None,
    buy_in: int,
    prize_split: str | None,
    seats_limit: int,
    top_cut: int = 0,
    table_size: int = 6,
    games_per_table: int = 3,
    final_table: int = 6,
    decide_by: str | None = None,
) -> EventSettings:
    """Event settings from a command's options, refused in words when they do not fit."""
    try:
        split = (
            tuple(int(p) for p in prize_split.replace(",", "/").split("/") if p.strip())
            if prize_split
            else (100,)
        )
    except ValueError:
        raise UserError("Write the prize split as percentages, e.g. 60/30/10.") from None
    fmt = format or (Format.SWISS.value if game != "kap-tai-shap" else Format.TABLE_ROUNDS.value)
    try:
        return EventSettings(
            game=game,
            format=Format(fmt),
            best_of=best_of,
            rounds=rounds,
            top_cut=top_cut,
            buy_in=buy_in,
            prize_split=split,
            seats_limit=seats_limit,
            table_size=table_size,
            table_min=min(3, table_size),
            games_per_table=games_per_table,
            final_table=final_table,
            decide_by=DecideBy(decide_by or DecideBy.GAMES.value),
        )
    except (TournamentError, ValueError) as exc:
        raise refusal(exc) from None
