"""No-shows (issue 23): the window at a two-player match's start in which both players must act
or press Ready. It is a row of ``tournament_windows`` (opened in the commit that stores the
match's first game), fired by whichever process's clock finds it due, under the event's lock,
and closed in the commit that records the forfeit, so it fires once; a restart gives the
window back the bot's down time, as the turn timers get theirs."""

from __future__ import annotations

import logging

from bot.locale import Message
from bot.services.errors import UserError
from bot.services.tables import Table
from bot.services.tournaments.lifecycle import TournamentLifecycle
from bot.services.tournaments.words import TEXT, Worded, say_in
from bot.storage.errors import StaleVersionError
from bot.storage.server import ServerRepo
from bot.storage.tournaments import MatchRow, TournamentRecord
from bot.tournament import Event, Match
from bot.tournament.describe import match_label

__all__ = ["TournamentPresence"]

log = logging.getLogger(__name__)

OPEN_WINDOWS = 1e15
"""A time past every deadline: :meth:`TournamentsRepo.due_windows` at it lists every open one."""


class TournamentPresence(TournamentLifecycle):
    """The no-show window: Ready, its clock and its restart."""

    async def ready(self, tournament_id: int, user_id: int) -> str:
        """A player shows he is here (the Ready button in his match's thread); returns the
        match's label for the answer. Refused when no window of his is open."""
        async with self._db.transaction() as tx:
            record = await self._require(tx, tournament_id)
            if record.status not in ("running", "paused") or record.state is None:
                raise UserError(TEXT["no_window"])
            event = Event.from_dict(record.state)
            rnd = event.current_round
            mine = [m for m in event.open_matches() if user_id in m.players]
            if rnd is None or not mine:
                raise UserError(TEXT["no_window"])
            if await self._repo.window(tx, tournament_id, rnd.number, mine[0].id) is None:
                raise UserError(TEXT["no_window"])
            await self._repo.mark_ready(tx, tournament_id, rnd.number, mine[0].id, user_id)
        return mine[0].id

    async def expire_due(self) -> None:
        """The event clock (sign-up, round limits), then the no-show windows that are due."""
        await super().expire_due()
        now = self._clock.now().timestamp()
        async with self._db.read() as tx:
            due = await self._repo.due_windows(tx, now)
        for tournament_id in sorted({d[0] for d in due}):
            try:
                await self._no_shows(tournament_id)
            except StaleVersionError:
                log.info("tournament %s: its no-show window was fired elsewhere", tournament_id)
            except Exception:
                log.exception("tournament %s: its no-show window failed", tournament_id)

    async def _no_shows(self, tournament_id: int) -> None:
        """Decide the event's due windows: absent players forfeit, and are withdrawn after
        the event's number of no-shows in a row; every window decided is closed in the same
        commit as the event's new state."""
        async with self._lock(tournament_id), self._across_processes(tournament_id):
            now = self._clock.now().timestamp()
            async with self._db.read() as tx:
                record = await self._require(tx, tournament_id)
                due = [w for w in await self._repo.due_windows(tx, now) if w[0] == tournament_id]
            if not due or record.status == "paused":
                return  # fired elsewhere, or waits for the event to resume
            event = None if record.state is None else Event.from_dict(record.state)
            notices: list[Message] = []
            if event is not None and record.status == "running":
                notices = await self._decide(record, event, [(r, m) for _, r, m in due])
                record.state = event.to_dict()
            async with self._db.transaction() as tx:
                for _, number, match_id in due:
                    await self._repo.close_window(tx, tournament_id, number, match_id)
                if notices:  # a window that decided nothing leaves the event as it was
                    await self._repo.update(tx, record)
            for notice in notices:
                await self._post(record, notice)
        await self.advance(tournament_id)

    async def _decide(
        self, record: TournamentRecord, event: Event, due: list[tuple[int, str]]
    ) -> list[Message]:
        """Apply the due windows of the current round to ``event``; the notices to post."""
        rnd = event.current_round
        notices: list[Message] = []
        if rnd is None:
            return notices
        rows = {r.match_id: r for r in await self._match_rows(record.id, rnd.number)}
        for number, match_id in due:
            match = next((m for m in rnd.matches if m.id == match_id), None)
            if number != rnd.number or match is None or match.done:
                continue
            row = rows.get(match_id) or MatchRow(match_id, number, None)
            absent = await self._absent(record.id, number, match, row)
            if not absent:
                continue
            withdrawn = event.no_show(match_id, absent)
            await self._stop_table(row, record)
            label = _label(match_id)
            if len(absent) == len(match.players):
                notices.append(Message(TEXT["no_show_both"], match=label, name=record.name))
            else:
                who = event.player(next(iter(absent))).name
                notices.append(Message(TEXT["no_show"], who=who, match=label, name=record.name))
            for pid in withdrawn:
                notices.append(
                    Message(
                        TEXT["no_show_out"],
                        who=event.player(pid).name,
                        name=record.name,
                        n=event.settings.no_show_limit,
                    )
                )
        return notices

    async def _absent(
        self, tournament_id: int, number: int, match: Match, row: MatchRow
    ) -> set[int]:
        """The match's members who neither pressed Ready nor played a turn themselves (a
        turn the timer played passively is not his). Computer players are always here.

        An action he plays himself marks him present at once (:meth:`acted`, as Ready does).
        Without that mark (the action came before this process knew the thread, e.g. just
        after a restart) the stored game says it: the action log does not tell the player's
        actions from his timer's, but his seat's count of timeouts in a row grows by one for
        each turn the timer plays and goes back to 0 whenever he acts himself, so it equals his
        number of turns only when he never played one. A turn is a run of his seat's actions
        in the log (a passive turn may be several actions, like his own; two turns in a row
        may make one run, so this can only miss a turn, never invent one). Before, a seat
        with any timeout on record counted as absent: a player who played, then timed out
        once, lost by forfeit."""
        seats = ServerRepo()
        acted: set[int] = set()
        async with self._db.read() as tx:
            ready = await self._repo.ready(tx, tournament_id, number, match.id)
            timed_out: dict[str, dict[int, int]] = {}
            for game_id in row.game_ids:
                timed_out[game_id] = {s.seat: s.timeouts for s in await seats.seats(tx, game_id)}
        for game_id in row.game_ids:
            seated = row.seatings.get(game_id, list(match.players))
            turns: dict[int, int] = {}
            last = None
            for action in await self._games.actions(game_id):
                if action.seat != last:
                    turns[action.seat] = turns.get(action.seat, 0) + 1
                last = action.seat
            for seat, count in turns.items():
                if count > timed_out[game_id].get(seat, 0) and seat < len(seated):
                    acted.add(seated[seat])
        return {p for p in match.players if p >= 0 and p not in ready and p not in acted}

    async def acted(self, table: Table, user_id: int) -> None:
        """A member played an action himself (the table service's listener): if the table
        plays a match of an event whose no-show window is open, he has shown up, exactly as if
        he had pressed Ready. Only threads this process knows as an event's are looked up, so
        any other table costs nothing."""
        tid = self._threads.get(table.channel_id)
        if tid is None:
            return
        async with self._db.read() as tx:
            found = await self._repo.match_by_thread(tx, table.channel_id)
            if found is None:
                return
            _, row = found
            if await self._repo.window(tx, tid, row.round, row.match_id) is None:
                return  # decided, or none: a read only, no commit on every later action
        async with self._db.transaction() as tx:
            await self._repo.mark_ready(tx, tid, row.round, row.match_id, user_id)

    async def resume_all(self) -> None:
        """After a start: give the open no-show windows back the bot's down time (measured
        as the table service measured it for the turn timers), learn their threads (so an
        action there marks its player present, :meth:`acted`), then carry every event on."""
        seen = self._tables.last_seen
        if seen is not None:
            down = self._clock.now().timestamp() - seen
            if down > 0:
                async with self._db.transaction() as tx:
                    await self._repo.shift_windows(tx, seen, down)
        async with self._db.read() as tx:
            for tid, number, _ in await self._repo.due_windows(tx, OPEN_WINDOWS):
                for row in await self._repo.matches(tx, tid, number):
                    if row.thread_id is not None:
                        self._threads[row.thread_id] = tid
        await super().resume_all()


def _label(match_id: str) -> Worded:
    """A match's label, worded in the language of the post."""
    return Worded(lambda locale: match_label(match_id, say_in(locale)))
