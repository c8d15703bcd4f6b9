"""Sign-up: creating an event, members joining and leaving with their buy-ins, computer
fillers, check-in, and the start that seeds the players and opens the first round."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from bot.locale import Message
from bot.services.errors import InsufficientChips, UserError
from bot.services.tournaments.host import AI_LEVELS, TournamentView, pot_id, waitlist_of
from bot.services.tournaments.rounds import TournamentRounds
from bot.services.tournaments.words import TEXT, Worded, computer_name, refusal
from bot.storage.db import Tx
from bot.storage.tournaments import EntryRecord, TournamentRecord
from bot.tournament import Event, EventSettings, Format, Player, TournamentError

__all__ = ["REMINDERS", "TournamentSignUp"]

log = logging.getLogger(__name__)


class TournamentSignUp(TournamentRounds):
    """From a new event to its first round (:meth:`start` carries it on with :meth:`advance`)."""

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
        starts_at: datetime | None = None,
    ) -> TournamentView:
        """A new event in registration (the caller checked :meth:`may_organise`).

        ``checkin_minutes``: when the event starts, a check-in window of that length opens
        first; members who do not check in are dropped and refunded when it closes.
        ``organiser_name`` is shown where a mention would stay an id (the message's footer).
        ``starts_at`` (issue 23, "Schedule"): when the event starts by itself, check-in (if
        any) opening that many minutes before; ``closes_in_minutes`` is the other way to say
        it (sign-up closes then, and the event starts after any check-in), not both."""
        if not 5 <= round_minutes <= 1440:
            raise UserError(TEXT["round_minutes"])
        if not 10 <= turn_seconds <= 3600:
            raise UserError(TEXT["turn_seconds"])
        now = self._clock.now()
        closes = None if closes_in_minutes is None else now + timedelta(minutes=closes_in_minutes)
        options: dict[str, Any] = {
            "round_minutes": round_minutes,
            "turn_seconds": turn_seconds,
            "rule_set": rule_set,
            "checkin_minutes": checkin_minutes,
            "organiser_name": organiser_name,
        }
        if starts_at is not None and closes is not None:
            raise UserError(TEXT["starts_or_closes"])
        if starts_at is not None:
            closes = self._closes_for(starts_at, checkin_minutes, now)
        if closes is not None:
            options.update(_start_options(closes, checkin_minutes, now))
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

    async def edit(
        self,
        tournament_id: int,
        actor_id: int,
        settings: EventSettings,
        *,
        round_minutes: int | None = None,
        turn_seconds: int | None = None,
        manager: bool = False,
        starts_at: datetime | None = None,
    ) -> TournamentView:
        """The organiser changes an event's settings before the start (``settings`` built
        from ``/tournament new``'s options and validated the same way). The buy-in may change
        only while no member is entered (nobody is charged or refunded behind his back); the
        seats never below the entrants already in. One commit, or nothing. ``starts_at``: a
        new start time (during sign-up only), its reminders due again."""
        if round_minutes is not None and not 5 <= round_minutes <= 1440:
            raise UserError(TEXT["round_minutes"])
        if turn_seconds is not None and not 10 <= turn_seconds <= 3600:
            raise UserError(TEXT["turn_seconds"])
        async with self._lock(tournament_id), self._db.transaction() as tx:
            record = await self._require(tx, tournament_id)
            self._need_organiser(record, actor_id, manager)
            if record.status not in ("registration", "check-in"):
                raise UserError(TEXT["not_registration"])
            before = EventSettings.from_dict(record.settings)
            entries = await self._repo.entries(tx, tournament_id)
            members = [e for e in entries if e.ai_level is None]
            if settings.buy_in != before.buy_in and members:
                raise UserError(TEXT["buy_in_fixed"], n=len(members))
            if settings.seats_limit < len(entries):
                raise UserError(TEXT["seats_below"], n=len(entries))
            record.settings = settings.to_dict()
            options = dict(record.options)
            if round_minutes is not None:
                options["round_minutes"] = round_minutes
            if turn_seconds is not None:
                options["turn_seconds"] = turn_seconds
            if starts_at is not None:
                if record.status != "registration":
                    raise UserError(TEXT["not_registration"])
                now = self._clock.now()
                checkin = options.get("checkin_minutes")
                record.closes_at = self._closes_for(starts_at, checkin, now)
                opened = [k for k in options.get("reminded", []) if k == "open"]
                options.update(_start_options(record.closes_at, checkin, now))
                options["reminded"] = opened + options["reminded"]
            record.options = options
            told = await self._promote(tx, record)  # more seats: the waitlist moves up
            await self._repo.update(tx, record)
        log.info("tournament %s: settings edited by %s", tournament_id, actor_id)
        await self._tell(record, told)
        return await self.view(tournament_id)

    async def set_message(self, tournament_id: int, message_id: int) -> None:
        """Remember the sign-up message (its buttons find the event after a restart)."""
        async with self._lock(tournament_id), self._db.transaction() as tx:
            record = await self._require(tx, tournament_id)
            record.message_id = message_id
            await self._repo.update(tx, record)

    async def join(self, tournament_id: int, user_id: int, name: str) -> TournamentView:
        """Enter a member; his buy-in goes into the event's pot in the same commit. A full
        event puts him on its waitlist instead (he pays only when a seat frees for him:
        :meth:`_promote`); a started event with late entry open enters him for its next round
        (:meth:`_join_late`); a running arena takes him in at once (:meth:`_join_arena`)."""
        said: str | None = None
        async with self._lock(tournament_id):
            async with self._db.read() as tx:
                found = await self._require(tx, tournament_id)
            started = found.status in ("running", "paused")
            arena = EventSettings.from_dict(found.settings).format is Format.ARENA
            if started and arena:
                async with self._db.transaction() as tx:
                    record = await self._require(tx, tournament_id)
                    if record.status not in ("running", "paused") or record.state is None:
                        raise UserError(TEXT["not_registration"])
                    said = await self._join_arena(tx, record, user_id, name)
            elif started:
                await self._join_late(tournament_id, user_id, name)
                return await self.view(tournament_id)
        if said is not None:
            await self._post(record, Message(said, who=name, name=record.name))
            await self.advance(tournament_id)  # paired at once if someone is free
            return await self.view(tournament_id)
        async with self._lock(tournament_id), self._db.transaction() as tx:
            record = await self._require(tx, tournament_id)
            if record.status != "registration":
                raise UserError(TEXT["not_registration"])
            entry = await self._repo.entry(tx, tournament_id, user_id)
            if entry is not None and entry.active:
                raise UserError(TEXT["already_in"])
            waiting = waitlist_of(record)
            if any(p == user_id for p, _ in waiting):
                raise UserError(TEXT["already_waiting"])
            settings = EventSettings.from_dict(record.settings)
            if len(await self._repo.entries(tx, tournament_id)) >= settings.seats_limit:
                record.options = {
                    **record.options,
                    "waitlist": [[p, n] for p, n in waiting] + [[user_id, name]],
                }
            else:
                await self._enter(tx, record, settings, user_id, name)
            await self._repo.update(tx, record)
        return await self.view(tournament_id)

    async def _join_arena(self, tx: Any, record: TournamentRecord, user_id: int, name: str) -> str:
        """A member enters a running arena (he pays the buy-in, seeded last) or comes back to
        it after he left (nothing more to pay; his results stand), in the caller's commit.
        What to post once it is committed."""
        event = Event.from_dict(record.state or {})
        back = user_id in event.seeds
        if back and user_id not in event.withdrawn:
            raise UserError(TEXT["already_in"])
        try:
            event.join(Player(user_id, name))
        except TournamentError as exc:
            raise refusal(exc) from None
        if not back:
            await self._enter(tx, record, EventSettings.from_dict(record.settings), user_id, name)
        record.state = event.to_dict()
        await self._repo.update(tx, record)
        return TEXT["arena_back"] if back else TEXT["arena_joined"]

    async def _enter(
        self, tx: Tx, record: TournamentRecord, settings: EventSettings, user_id: int, name: str
    ) -> None:
        """Add a member's entry and take his buy-in, in the caller's commit (a member short
        of chips is refused by :class:`InsufficientChips` before anything is written)."""
        joins = await self._repo.add_entry(tx, record.id, user_id, name, None, self._clock.now())
        if settings.buy_in:
            await self._chips.buy_in(
                pot_id(record.id),
                record.guild_id,
                user_id,
                settings.buy_in,
                f"ante:{pot_id(record.id)}:{user_id}:{joins}",
                channel_id=record.channel_id,
                tx=tx,
            )

    async def _join_late(self, tournament_id: int, user_id: int, name: str) -> None:
        """Late registration (``late_until``): enter a member after the start, paid into the
        pot like any buy-in, in the commit that adds him to the event's state
        (:meth:`Event.join_late`: paired from the next round, the rounds before scored 0).
        Under the event's lock across processes, so no round is paired meanwhile."""
        async with self._across_processes(tournament_id):
            async with self._db.read() as tx:
                record = await self._require(tx, tournament_id)
            settings = EventSettings.from_dict(record.settings)
            rating = None
            if self.rating_of is not None:
                rating = await self.rating_of(record.guild_id, user_id, settings.game)
            async with self._db.transaction() as tx:
                record = await self._require(tx, tournament_id)
                if record.status not in ("running", "paused") or record.state is None:
                    raise UserError(TEXT["not_registration"])
                event = Event.from_dict(record.state)
                if user_id in event.seeds:
                    raise UserError(TEXT["already_in"])
                try:
                    first = event.join_late(Player(user_id, name, rating))
                except TournamentError as exc:
                    raise refusal(exc) from None
                await self._enter(tx, record, settings, user_id, name)
                record.state = event.to_dict()
                await self._repo.update(tx, record)
        log.info("tournament %s: %s joined late, from round %s", tournament_id, user_id, first)
        await self._post(
            record, Message(TEXT["late_joined"], who=name, name=record.name, number=first)
        )
        await self._refresh(record)

    async def _promote(self, tx: Tx, record: TournamentRecord) -> list[tuple[int, Message]]:
        """Give the seats free before the start to the waitlist, first first, in the caller's
        commit (the one that freed them). A member is charged his buy-in only now; one short
        of chips is passed over and taken off the list. The DMs to send once it commits
        (:meth:`_tell`)."""
        waiting = waitlist_of(record)
        if not waiting or record.status not in ("registration", "check-in"):
            return []
        settings = EventSettings.from_dict(record.settings)
        seats = settings.seats_limit - len(await self._repo.entries(tx, record.id))
        told: list[tuple[int, Message]] = []
        while seats > 0 and waiting:
            user_id, name = waiting.pop(0)
            try:
                await self._enter(tx, record, settings, user_id, name)
            except InsufficientChips as exc:
                await self._repo.remove_entry(tx, record.id, user_id)  # added before the debit
                told.append(
                    (
                        user_id,
                        Message(
                            TEXT["waitlist_short"], name=record.name, reason=Worded(exc.localized)
                        ),
                    )
                )
                continue
            if record.status == "check-in":  # he asked to play by joining: no second ask
                await self._repo.check_in(tx, record.id, user_id)
            seats -= 1
            key = "promoted" if settings.buy_in else "promoted_free"
            told.append((user_id, Message(TEXT[key], name=record.name, buy_in=settings.buy_in)))
        record.options = {**record.options, "waitlist": [[p, n] for p, n in waiting]}
        return told

    async def _tell(self, record: TournamentRecord, told: list[tuple[int, Message]]) -> None:
        """Send the DMs of :meth:`_promote`, once its commit is in."""
        for user_id, message in told:
            log.info("tournament %s: waitlist: %s told %s", record.id, user_id, message.msgid)
            if self.host is not None:
                await self.host.tell(record, user_id, message)

    async def leave(self, tournament_id: int, user_id: int) -> TournamentView:
        """Leave before the start: the buy-in comes back in the same commit, and the seat
        goes to the first member waiting (:meth:`_promote`, same commit). A member on the
        waitlist just leaves it (he paid nothing)."""
        async with self._lock(tournament_id):
            async with self._db.transaction() as tx:
                record = await self._require(tx, tournament_id)
                if record.status not in ("registration", "check-in"):
                    raise UserError(TEXT["not_registration_drop"])
                entry = await self._repo.entry(tx, tournament_id, user_id)
                waiting = waitlist_of(record)
                told: list[tuple[int, Message]] = []
                if (entry is None or not entry.active) and any(p == user_id for p, _ in waiting):
                    kept = [[p, n] for p, n in waiting if p != user_id]
                    record.options = {**record.options, "waitlist": kept}
                elif entry is None or not entry.active:
                    raise UserError(TEXT["not_in"])
                else:
                    await self._chips.refund_member(
                        pot_id(tournament_id),
                        user_id,
                        f"refund:{pot_id(tournament_id)}:{user_id}:{entry.joins}",
                        tx=tx,
                    )
                    await self._repo.remove_entry(tx, tournament_id, user_id)
                    told = await self._promote(tx, record)
                await self._repo.update(tx, record)
            await self._tell(record, told)
        return await self.view(tournament_id)

    async def remove(
        self, tournament_id: int, actor_id: int, user_id: int, *, manager: bool = False
    ) -> tuple[TournamentView, int]:
        """The organiser takes an entrant (a member or a computer filler) out before the start;
        a member's buy-in comes back in the same commit, exactly as if he had left. The view
        and the chips refunded (the cog tells the member by DM)."""
        async with self._lock(tournament_id), self._db.transaction() as tx:
            record = await self._require(tx, tournament_id)
            self._need_organiser(record, actor_id, manager)
            if record.status not in ("registration", "check-in"):
                raise UserError(TEXT["not_registration"])
            entry = await self._repo.entry(tx, tournament_id, user_id)
            if entry is None or not entry.active:
                raise UserError(TEXT["not_entrant"])
            refunded = await self._chips.refund_member(
                pot_id(tournament_id),
                user_id,
                f"refund:{pot_id(tournament_id)}:{user_id}:{entry.joins}",
                tx=tx,
            )
            await self._repo.remove_entry(tx, tournament_id, user_id)
            told = await self._promote(tx, record)
            await self._repo.update(tx, record)
        log.info("tournament %s: %s removed %s before the start", tournament_id, actor_id, user_id)
        await self._tell(record, told)
        return await self.view(tournament_id), refunded

    async def seed(
        self,
        tournament_id: int,
        actor_id: int,
        order: Sequence[int],
        *,
        manager: bool = False,
    ) -> TournamentView:
        """The organiser sets the first seeds by hand before the start: ``order`` (entrants,
        seed 1 first) replaces any order set before; the entrants it leaves out follow by
        rating as usual. Empty: back to seeding by rating alone."""
        if len(set(order)) != len(order):
            raise UserError(TEXT["seed_twice"])
        async with self._lock(tournament_id), self._db.transaction() as tx:
            record = await self._require(tx, tournament_id)
            self._need_organiser(record, actor_id, manager)
            if record.status not in ("registration", "check-in"):
                raise UserError(TEXT["not_registration"])
            entered = {e.user_id for e in await self._repo.entries(tx, tournament_id)}
            if any(p not in entered for p in order):
                raise UserError(TEXT["not_entrant"])
            record.options = {**record.options, "seeds": list(order)}
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
                    # Started early by the organiser: the start is when check-in closes.
                    record.options = {**record.options, "starts_at": record.closes_at.isoformat()}
                    await self._repo.update(tx, record)
                    opened = True
                else:
                    opened = False
            if opened:
                # The check-in reminder (issue 23): the role pinged, the opted-in told by DM.
                await self._announce(
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
                fixed = [int(p) for p in record.options.get("seeds", [])]
                event = Event.start(settings, players, self._rng, fixed=fixed)
            except TournamentError as exc:
                raise refusal(exc) from None
            async with self._db.transaction() as tx:
                record = await self._require(tx, tournament_id)
                if record.status not in ("registration", "check-in"):
                    raise UserError(TEXT["not_registration"])  # started by another process
                record.status = "running"
                record.state = event.to_dict()
                record.closes_at = None
                # Nobody waiting paid anything; after the start late entry is the way in.
                record.options = {**record.options, "waitlist": []}
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
            told = await self._promote(tx, record)
            await self._repo.update(tx, record)
        await self._tell(record, told)
        await self._post(record, Message(TEXT["checkin_closed"], name=record.name, dropped=dropped))

    @staticmethod
    def _closes_for(starts_at: datetime, checkin_minutes: object, now: datetime) -> datetime:
        """When sign-up closes for an event starting at ``starts_at``: that many minutes of
        check-in earlier (refused when that is already past)."""
        minutes = int(checkin_minutes) if isinstance(checkin_minutes, int) else 0
        closes = starts_at - timedelta(minutes=minutes)
        if closes <= now:
            raise UserError(TEXT["checkin_before_now"], minutes=minutes)
        return closes

    async def _player(
        self, record: TournamentRecord, entry: EntryRecord, settings: EventSettings
    ) -> Player:
        rating = None
        if self.rating_of is not None and entry.ai_level is None:
            rating = await self.rating_of(record.guild_id, entry.user_id, settings.game)
        return Player(entry.user_id, entry.name, rating, ai=entry.ai_level is not None)


REMINDERS = (("hour", 60), ("ten", 10))
"""The reminders before an event's start (issue 23): their names and minutes before it."""


def _start_options(closes: datetime, checkin_minutes: object, now: datetime) -> dict[str, Any]:
    """The options that schedule an event whose sign-up closes at ``closes``: its start (after
    any check-in) and the reminders already past (a start set 30 minutes ahead has no "one
    hour before" to send: it is marked sent)."""
    minutes = int(checkin_minutes) if isinstance(checkin_minutes, int) else 0
    starts = closes + timedelta(minutes=minutes)
    past = [name for name, before in REMINDERS if starts - timedelta(minutes=before) <= now]
    return {"starts_at": starts.isoformat(), "reminded": past}
