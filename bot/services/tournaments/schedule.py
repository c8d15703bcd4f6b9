"""The schedule (issue 23): reminders before an event's start, the members who asked for them
by DM, the organiser's reminder role and the rounds' schedule (a start time each, or a break).

Everything is kept in the event's options (``options_json``), written with the event's version
check: ``reminder_role``, ``remind_me`` (the members who asked for DMs), ``reminded`` (the
reminders already sent: ``open``, ``hour``, ``ten``), ``round_starts`` (ISO times by round,
first round first), ``round_break`` (minutes) and ``next_round_at`` (a wait under way, set by
:mod:`~bot.services.tournaments.rounds`). A reminder is marked sent in the commit that decides
it, under the event's lock, before it is posted: it goes out at most once whatever restarts or
second process there are (a crash between the commit and the post loses it rather than sending
it twice)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta

from bot.locale import Message
from bot.services.errors import UserError
from bot.services.tournaments.board import TournamentBoard
from bot.services.tournaments.host import OPEN_STATUSES, TournamentView
from bot.services.tournaments.rounds import stored_moment
from bot.services.tournaments.signup import REMINDERS
from bot.services.tournaments.words import TEXT, refusal
from bot.storage.errors import StaleVersionError
from bot.storage.tournaments import TournamentRecord
from bot.tournament.schedule import ScheduleError, parse_round_times, parse_when

__all__ = ["TournamentSchedule"]

log = logging.getLogger(__name__)

MAX_BREAK = 1440


def _stamps(moment: datetime) -> dict[str, str]:
    """A moment as Discord timestamps: each member reads it in his own time zone."""
    at = int(moment.timestamp())
    return {"when": f"<t:{at}:F>", "left": f"<t:{at}:R>"}


class TournamentSchedule(TournamentBoard):
    """Reminders and the rounds' schedule."""

    def read_time(self, text: str, zone: str) -> datetime:
        """The moment a member typed (``starts:``), read in the server's time zone ``zone``
        (:func:`bot.tournament.schedule.parse_when`); refused in his language."""
        try:
            return parse_when(text, self._clock.now(), zone)
        except ScheduleError as exc:
            raise refusal(exc) from None

    def read_round_times(self, text: str, zone: str) -> list[datetime]:
        """The rounds' start times a member typed, in order (``19:30, 20:30``)."""
        try:
            return parse_round_times(text, self._clock.now(), zone)
        except ScheduleError as exc:
            raise refusal(exc) from None

    async def set_schedule(
        self,
        tournament_id: int,
        actor_id: int,
        *,
        role_id: int | None = None,
        clear_role: bool = False,
        break_minutes: int | None = None,
        round_times: Sequence[datetime] | None = None,
        manager: bool = False,
    ) -> TournamentView:
        """The organiser sets the reminder role, the break between rounds (minutes, 0: none)
        or a start time for each round (empty: none), before or during the event. A break
        and round times exclude each other: setting one clears the other. A role set while
        sign-up is open is pinged at once with the sign-up reminder (once per event)."""
        if break_minutes is not None and not 0 <= break_minutes <= MAX_BREAK:
            raise UserError(TEXT["break_range"])
        if break_minutes and round_times:
            raise UserError(TEXT["break_or_times"])
        if role_id is None and not clear_role and break_minutes is None and round_times is None:
            view = await self.view(tournament_id)  # only shown: nothing to write
            self._need_organiser(view.record, actor_id, manager)
            return view
        async with self._lock(tournament_id), self._db.transaction() as tx:
            record = await self._require(tx, tournament_id)
            self._need_organiser(record, actor_id, manager)
            if record.status not in OPEN_STATUSES:
                raise UserError(TEXT["over"])
            options = dict(record.options)
            if clear_role:
                options.pop("reminder_role", None)
            if role_id is not None:
                options["reminder_role"] = role_id
            if break_minutes is not None:
                options["round_break"] = break_minutes
                if break_minutes:
                    options["round_starts"] = []
            if round_times is not None:
                options["round_starts"] = [m.isoformat() for m in round_times]
                if round_times:
                    options["round_break"] = 0
            reminded = list(options.get("reminded", []))
            announce = (
                role_id is not None and record.status == "registration" and "open" not in reminded
            )
            if announce:
                options["reminded"] = [*reminded, "open"]
            record.options = options
            await self._repo.update(tx, record)
        log.info("tournament %s: schedule set by %s", tournament_id, actor_id)
        if announce:
            starts = stored_moment(record.options.get("starts_at"))
            said = (
                Message(TEXT["remind_open"], name=record.name)
                if starts is None
                else Message(TEXT["remind_open_at"], name=record.name, **_stamps(starts))
            )
            await self._announce(record, said, dm=False)
        return await self.view(tournament_id)

    async def toggle_reminders(self, tournament_id: int, user_id: int) -> tuple[str, bool]:
        """An entrant turns his DM reminders on or off (the sign-up message's "Remind me"):
        the event's name and whether they are on now."""
        async with self._lock(tournament_id), self._db.transaction() as tx:
            record = await self._require(tx, tournament_id)
            if record.status not in ("registration", "check-in"):
                raise UserError(TEXT["not_registration"])
            entry = await self._repo.entry(tx, tournament_id, user_id)
            if entry is None or not entry.active:
                raise UserError(TEXT["not_in"])
            opted = [int(u) for u in record.options.get("remind_me", [])]
            on = user_id not in opted
            opted = [*opted, user_id] if on else [u for u in opted if u != user_id]
            record.options = {**record.options, "remind_me": opted}
            await self._repo.update(tx, record)
        return record.name, on

    # ----------------------------------------------------------------------------- the clock

    async def expire_due(self) -> None:
        """The event clock and no-show windows, then the reminders that are due and the
        rounds whose scheduled time came."""
        await super().expire_due()
        now = self._clock.now()
        async with self._db.read() as tx:
            records = await self._repo.list_open(tx)
        for record in records:
            try:
                if record.status in ("registration", "check-in") and self._reminder_due(
                    record, now
                ):
                    await self._remind(record.id)
                elif record.status == "running":
                    waiting = stored_moment(record.options.get("next_round_at"))
                    if waiting is not None and waiting <= now:
                        await self.advance(record.id)
            except StaleVersionError:
                log.info("tournament %s: its reminder was sent by another process", record.id)
            except Exception:
                log.exception("tournament %s: its schedule failed", record.id)

    @staticmethod
    def _reminder_due(record: TournamentRecord, now: datetime) -> str | None:
        """The reminder to send now, if any: the latest of those whose moment has come and
        that were not sent, while the start is still ahead. One whose moment passed while the
        bot was down is sent late only while it is the latest due (an hour's reminder found
        10 minutes before the start is dropped for the 10 minutes' one)."""
        starts = stored_moment(record.options.get("starts_at"))
        if starts is None or now >= starts:
            return None
        reminded = set(record.options.get("reminded", []))
        due = [name for name, before in REMINDERS if now >= starts - timedelta(minutes=before)]
        if not due or due[-1] in reminded:
            return None
        return due[-1]

    async def _remind(self, tournament_id: int) -> None:
        """Send the event's due reminder: marked sent (with every earlier one) in one commit
        under the event's lock, then posted and sent by DM."""
        async with self._lock(tournament_id), self._across_processes(tournament_id):
            async with self._db.transaction() as tx:
                record = await self._require(tx, tournament_id)
                if record.status not in ("registration", "check-in"):
                    return
                name = self._reminder_due(record, self._clock.now())
                if name is None:
                    return  # sent by another process meanwhile
                names = [n for n, _ in REMINDERS]
                sent = set(record.options.get("reminded", []))
                sent.update(names[: names.index(name) + 1])
                record.options = {**record.options, "reminded": sorted(sent)}
                await self._repo.update(tx, record)
            starts = stored_moment(record.options.get("starts_at"))
            assert starts is not None
            log.info("tournament %s: reminder %s", tournament_id, name)
            said = Message(TEXT["remind_soon"], name=record.name, **_stamps(starts))
            await self._announce(record, said)
