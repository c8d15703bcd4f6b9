"""Sign-up: creating an event, members joining and leaving with their buy-ins, computer
fillers, check-in, and the start that seeds the players and opens the first round."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from bot.locale import Message
from bot.services.errors import UserError
from bot.services.tournaments.host import AI_LEVELS, TournamentView, pot_id
from bot.services.tournaments.rounds import TournamentRounds
from bot.services.tournaments.words import TEXT, computer_name, refusal
from bot.storage.tournaments import EntryRecord, TournamentRecord
from bot.tournament import Event, EventSettings, Format, Player, TournamentError

__all__ = ["TournamentSignUp"]

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

    async def edit(
        self,
        tournament_id: int,
        actor_id: int,
        settings: EventSettings,
        *,
        round_minutes: int | None = None,
        turn_seconds: int | None = None,
        manager: bool = False,
    ) -> TournamentView:
        """The organiser changes an event's settings before the start (``settings`` built
        from ``/tournament new``'s options and validated the same way). The buy-in may change
        only while no member is entered (nobody is charged or refunded behind his back); the
        seats never below the entrants already in. One commit, or nothing."""
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
            record.options = options
            await self._repo.update(tx, record)
        log.info("tournament %s: settings edited by %s", tournament_id, actor_id)
        return await self.view(tournament_id)

    async def set_message(self, tournament_id: int, message_id: int) -> None:
        """Remember the sign-up message (its buttons find the event after a restart)."""
        async with self._lock(tournament_id), self._db.transaction() as tx:
            record = await self._require(tx, tournament_id)
            record.message_id = message_id
            await self._repo.update(tx, record)

    async def join(self, tournament_id: int, user_id: int, name: str) -> TournamentView:
        """Enter a member; his buy-in goes into the event's pot in the same commit. A running
        arena takes him in at once (:meth:`_join_arena`)."""
        said: str | None = None
        async with self._lock(tournament_id), self._db.transaction() as tx:
            record = await self._require(tx, tournament_id)
            arena = EventSettings.from_dict(record.settings).format is Format.ARENA
            if arena and record.status in ("running", "paused") and record.state is not None:
                said = await self._join_arena(tx, record, user_id, name)
            elif record.status != "registration":
                raise UserError(TEXT["not_registration"])
            else:
                await self._enter(tx, record, user_id, name)
        if said is not None:
            await self._post(record, Message(said, who=name, name=record.name))
            await self.advance(tournament_id)  # paired at once if someone is free
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
            await self._pay_in(tx, record, user_id, name)
        record.state = event.to_dict()
        await self._repo.update(tx, record)
        return TEXT["arena_back"] if back else TEXT["arena_joined"]

    async def _enter(self, tx: Any, record: TournamentRecord, user_id: int, name: str) -> None:
        """Enter a member before the start, in the caller's commit."""
        entry = await self._repo.entry(tx, record.id, user_id)
        if entry is not None and entry.active:
            raise UserError(TEXT["already_in"])
        settings = EventSettings.from_dict(record.settings)
        if len(await self._repo.entries(tx, record.id)) >= settings.seats_limit:
            raise UserError(TEXT["full"])
        await self._pay_in(tx, record, user_id, name)
        await self._repo.update(tx, record)

    async def _pay_in(self, tx: Any, record: TournamentRecord, user_id: int, name: str) -> None:
        """Store a member's entry and take his buy-in into the event's pot (the caller's
        commit)."""
        settings = EventSettings.from_dict(record.settings)
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
            await self._repo.update(tx, record)
        log.info("tournament %s: %s removed %s before the start", tournament_id, actor_id, user_id)
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
