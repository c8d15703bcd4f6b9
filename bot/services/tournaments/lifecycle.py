"""An event's clock (sign-up closing, round time limits), the organiser's commands (drop,
disqualify, re-pair, pause, resume, cancel) and carrying every event on after a restart."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from bot.locale import Message
from bot.services.errors import UserError
from bot.services.tournaments.host import OPEN_STATUSES, TournamentView, pot_id
from bot.services.tournaments.signup import TournamentSignUp
from bot.services.tournaments.words import REFUSALS, TEXT, Worded, refusal
from bot.storage.errors import StaleVersionError
from bot.storage.tournaments import MatchRow, TournamentRecord
from bot.tournament import Event, EventSettings, Format, Round, TournamentError

__all__ = ["TournamentLifecycle"]

log = logging.getLogger(__name__)


class TournamentLifecycle(TournamentSignUp):
    """What happens to an event besides its rounds: time, the organiser, restarts."""

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
                        if not await self._still_signing_up(record.id):
                            continue  # another process started (or cancelled) it first
                        reason = Worded(exc.localized)
                        await self._post(
                            record,
                            Message(TEXT["could_not_start"], name=record.name, reason=reason),
                        )
                        await self.cancel(record.id, record.organiser_id, manager=True)
                elif record.status == "running" and _due(record.round_deadline, now):
                    await self._time_up(record.id)
            except StaleVersionError:
                # Another process fired the same timer and committed first: it carries on.
                log.info("tournament %s: its timer was fired by another process", record.id)
            except Exception:
                log.exception("tournament %s: its timer failed", record.id)

    async def _still_signing_up(self, tournament_id: int) -> bool:
        async with self._db.read() as tx:
            record = await self._repo.get(tx, tournament_id)
        return record is not None and record.status in ("registration", "check-in")

    async def _time_up(self, tournament_id: int) -> None:
        """The round's time is up: its unfinished matches are decided by the event's
        time-limit rule; an arena's time is up: it pairs nobody again."""
        async with self._lock(tournament_id), self._across_processes(tournament_id):
            async with self._db.read() as tx:
                record = await self._require(tx, tournament_id)
            if record.state is None or not _due(record.round_deadline, self._clock.now()):
                return
            event = Event.from_dict(record.state)
            rnd = event.current_round
            if rnd is None:
                return
            if event.settings.format is Format.ARENA:
                await self._close_arena(record, event)
            else:
                await self._decide_round(record, event, rnd)
        await self.advance(tournament_id)

    async def _close_arena(self, record: TournamentRecord, event: Event) -> None:
        """The arena's time is up: nobody is paired again; the games in play finish and count
        (the event pays out when the last one ends)."""
        event.close_arena()
        record.state = event.to_dict()
        record.round_deadline = None
        async with self._db.transaction() as tx:
            await self._repo.update(tx, record)
        playing = len(event.open_matches())
        await self._post(record, Message(TEXT["arena_closed"], name=record.name, n=playing))

    async def _decide_round(self, record: TournamentRecord, event: Event, rnd: Round) -> None:
        """Decide every unfinished match of the round by the event's time-limit rule."""
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

    async def _stop_table(self, row: MatchRow, record: TournamentRecord) -> None:
        """Abort the game a match is playing (its result is decided without it)."""
        if row.thread_id is None:
            return
        table = await self._tables.lookup(row.thread_id)  # any process may hold it
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

    async def set_result(
        self,
        tournament_id: int,
        actor_id: int,
        match_id: str,
        winner_id: int | None,
        reason: str,
        *,
        manager: bool = False,
    ) -> TournamentView:
        """The organiser enters or corrects the result of a two-player match of the current
        round (:meth:`Event.set_result`), with a reason kept in the event's history
        (``options["corrections"]``, in the export too) and posted in the event's channel. A
        game still being played for it is ended. Only while the event runs: once the round is
        done the next is paired on its results, and once the event is over the prizes are paid
        (no ledger correction is made after that: refused). Standings follow the results."""
        reason = " ".join(reason.split())
        if not 3 <= len(reason) <= 300:
            raise UserError(TEXT["reason"])
        async with self._lock(tournament_id):
            async with self._db.read() as tx:
                record = await self._require(tx, tournament_id)
            self._need_organiser(record, actor_id, manager)
            if record.status not in ("running", "paused") or record.state is None:
                raise UserError(TEXT["not_running"])
            event = Event.from_dict(record.state)
            match_id = match_id.strip().upper()
            try:
                _, match = event.find(match_id)
            except TournamentError:
                raise UserError(TEXT["no_match"], match=match_id[:20]) from None
            before = None if match.result is None else match.result.to_dict()
            try:
                result = event.set_result(match_id, winner_id)
            except TournamentError as exc:
                raise refusal(exc) from None
            rnd = event.current_round
            assert rnd is not None
            rows = {r.match_id: r for r in await self._match_rows(record.id, rnd.number)}
            row = rows.get(match_id)
            if row is not None and before is None:
                await self._stop_table(row, record)
            record.state = event.to_dict()
            corrections = list(record.options.get("corrections", []))
            corrections.append(
                {
                    "round": rnd.number,
                    "match": match_id,
                    "by": actor_id,
                    "reason": reason,
                    "before": before,
                    "after": result.to_dict(),
                    "at": self._clock.now().isoformat(),
                }
            )
            record.options = {**record.options, "corrections": corrections}
            async with self._db.transaction() as tx:
                await self._repo.update(tx, record)
            winner: str = (
                Message(TEXT["drawn"]) if winner_id is None else event.player(winner_id).name
            )
            await self._post(
                record,
                Message(
                    TEXT["result_set"],
                    match=match_id,
                    name=record.name,
                    winner=winner,
                    reason=reason,
                ),
            )
        await self.advance(tournament_id)
        return await self.view(tournament_id)

    async def _resign(self, thread_id: int, user_id: int) -> None:
        table = await self._tables.lookup(thread_id)  # any process may hold it
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
                await self._repo.delete_round_windows(tx, record.id, rnd.number)
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


def _due(moment: datetime | None, now: datetime) -> bool:
    return moment is not None and moment <= now
