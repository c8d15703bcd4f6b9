"""Turn timers and absent players: expired turns played passively, failing timers retried and
quarantined, the scheduler's next deadline, resignations, and seats that fold or forfeit."""

from __future__ import annotations

import asyncio
import logging
import math

from bot.locale import Message
from bot.services.absence import passive_action
from bot.services.errors import UserError
from bot.services.tables.core import StaleTable, _reason
from bot.services.tables.model import (
    EXPIRY_CONCURRENCY,
    FAILURE_LIMIT,
    MAX_RECENT,
    QUARANTINE_NOTICE,
    RETRY_SECONDS,
    Outcome,
    Table,
)
from bot.services.tables.recovery import TableRecovery
from bot.services.tables.store import bound_table
from bot.storage.errors import StaleVersionError
from bot.storage.games import GameStatus

__all__ = ["HEARTBEAT_SECONDS", "INTERACTION_DAYS", "PRUNE_SECONDS", "TableTimers"]

HEARTBEAT_SECONDS = 5.0
"""With several processes, how often a live one records that it is alive (a restart of another
then gives back no time: the turn timers never stopped)."""

PRUNE_SECONDS = 600.0
"""How often the processed interactions older than :data:`INTERACTION_DAYS` are forgotten."""

INTERACTION_DAYS = 1
"""How long an applied interaction's id is kept (Discord never redelivers one that old)."""

log = logging.getLogger(__name__)


class TableTimers(TableRecovery):
    """What happens when a player does not play: his timer, his absence, his resignation."""

    # ----------------------------------------------------------------------------- timers

    async def expire_due(self) -> list[Outcome]:
        """Play, with the AI, every human turn whose deadline has passed (and any computer turn
        left waiting by a failure).

        The due turns are read from the database (``games.deadline``), not only from the tables
        this process holds: whichever process is alive fires them, loading a table it has not
        seen. Firing is an ordinary game step with the version check, so when two processes
        fire the same deadline exactly one commits; the other finds the table moved and leaves
        it (:class:`StaleTable` is not a failure).

        Each due table runs in its own task, at most :data:`EXPIRY_CONCURRENCY` at once, so a
        burst of expiries does not run one after another and one slow or failing table never
        delays another. A failure is logged with the table's id and retried
        :data:`RETRY_SECONDS` later; a table that fails :data:`FAILURE_LIMIT` times in a row is
        quarantined (its outcome has ``quarantined`` set, for the cogs to say so).
        """
        now = self._clock.now().timestamp()
        self._polled_at = now
        await self._keep_alive(now)
        channels = {t.channel_id for t in list(self._tables.values()) if self._due_at(t) <= now}
        if self.poll_seconds is not None:  # alone, this process holds every table
            channels.update(await self._games.due_channels(now))
        if not channels:
            return []
        limit = asyncio.Semaphore(EXPIRY_CONCURRENCY)

        async def one(channel_id: int) -> Outcome | None:
            async with limit:
                try:
                    outcome = await self._expire_in(channel_id, now)
                except StaleTable:
                    return None  # another process fired it (or moved the table) first
                except Exception as exc:
                    table = self._tables.get(channel_id)
                    if table is None:
                        log.exception("channel %s: a turn timer failed", channel_id)
                        return None
                    return await self._timer_failed(table, exc)
                if outcome is not None:
                    self._failures.pop(outcome.table.id, None)
                    self._retry_at.pop(outcome.table.id, None)
                return outcome

        results = await asyncio.gather(*(one(c) for c in sorted(channels)))
        return [o for o in results if o is not None]

    async def _expire_in(self, channel_id: int, now: float) -> Outcome | None:
        """The due table of a channel, brought up to date (or loaded) first."""
        table = self._tables.get(channel_id)
        if table is None or not table.status.is_open:
            record = await self._games.open_in_channel(channel_id)
            if record is None:
                return None
            table = await self._adopt(record)
        return await self._expire(table, now)

    async def _keep_alive(self, now: float) -> None:
        """With several processes: note that one is alive (its turn timers run, so there is
        no down time to give back at a restart) and forget interactions older than a day."""
        if self.poll_seconds is None:
            return
        if now - self._alive_at >= HEARTBEAT_SECONDS:
            self._alive_at = now
            await self._games.heartbeat(self._clock.now())
        if now - self._pruned_at >= PRUNE_SECONDS:
            self._pruned_at = now
            await self._games.prune_interactions(now - INTERACTION_DAYS * 86400)

    async def _expire(self, table: Table, now: float) -> Outcome | None:
        """One due table: the computer plays the expired human turn, then any computer seats."""
        async with table.lock, bound_table(table):
            if not await self._revalidate(table):
                return None
            state = table.state
            if state is None or state.result is not None or not table.running:
                return None
            if table.seats[state.current].is_ai:
                # A computer turn left waiting (a failure after the human's move committed).
                outcome = Outcome(table)
                await self._advance(table, outcome)
                return outcome
            if table.deadline is None or table.deadline > now:
                return None
            outcome = Outcome(table)
            try:
                await self._timed_out(table, state.current, outcome)
            except StaleTable:
                await self._revalidate(table, force=True)
                if not outcome.steps:
                    raise
            return outcome

    async def _timer_failed(self, table: Table, exc: Exception) -> Outcome | None:
        failures = self._failures.get(table.id, 0) + 1
        self._failures[table.id] = failures
        log.error(
            "table %s: turn timer failed (%d of %d): %s",
            table.id,
            failures,
            FAILURE_LIMIT,
            _reason(exc),
            exc_info=exc,
        )
        if failures < FAILURE_LIMIT:
            self._retry_at[table.id] = self._clock.now().timestamp() + RETRY_SECONDS
            return None
        self._failures.pop(table.id, None)
        self._retry_at.pop(table.id, None)
        try:
            await self.quarantine(table, f"turn timer failed {failures} times: {_reason(exc)}")
        except Exception:
            log.exception("table %s: could not be quarantined", table.id)
            self._retry_at[table.id] = self._clock.now().timestamp() + RETRY_SECONDS
            return None
        return Outcome(table, lines=[QUARANTINE_NOTICE], quarantined=True)

    def _due_at(self, table: Table) -> float:
        """When the scheduler must next look at a table (infinity: never)."""
        state = table.state
        if not table.running or state is None or state.result is not None:
            return math.inf
        retry = self._retry_at.get(table.id)
        if table.seats[state.current].is_ai:
            # Only a computer turn nobody is playing is due (an action in progress holds the
            # lock and plays the computer seats itself).
            return math.inf if table.lock.locked() else (retry or 0.0)
        if table.deadline is None:
            return math.inf
        return table.deadline if retry is None else max(table.deadline, retry)

    def next_deadline(self) -> float | None:
        """The earliest moment (epoch seconds) the scheduler must run :meth:`expire_due` or
        close a lobby nobody started: the tables this process holds, and, with several
        processes (:attr:`poll_seconds` set), at most that long after the last look at the
        database, for the deadlines of tables other processes hold."""
        due = min((self._due_at(t) for t in self._tables.values()), default=math.inf)
        if self.poll_seconds is not None:
            due = min(due, self._polled_at + self.poll_seconds)
        lobbies = [
            t.lobby_closes_at
            for t in self._tables.values()
            if t.lobby_closes_at is not None and t.status is GameStatus.LOBBY
        ]
        due = min([due, *lobbies])
        return None if due == math.inf else due

    # ----------------------------------------------------------------------------- absence

    async def resign(self, channel_id: int, user_id: int) -> Outcome:
        """A player gives up: at two seats his opponent wins; at a larger table his seat folds
        (his ante stays in the pot and his turns pass passively)."""
        async with self._locked(channel_id) as table:
            self._need_running(table)
            seat = table.seat_of(user_id)
            if seat is None:
                raise UserError("You are not playing at this table.")
            if seat in table.out:
                raise UserError("You are already out of this game.")
            outcome = Outcome(table)
            await self._seat_out(table, seat, "resigned", outcome)
        return outcome

    async def _timed_out(self, table: Table, seat: int, outcome: Outcome) -> None:
        """A human's turn timer ran out: count it; at the server's limit he is out, otherwise
        his turn is played passively (see :mod:`bot.services.absence`)."""
        state = table.state
        assert state is not None
        name = table.seats[seat].name
        count = table.timeouts.get(seat, 0) + 1
        limit = await self._timeout_limit(table.guild_id)
        if count >= limit:
            table.timeouts[seat] = count
            await self._seat_out(table, seat, "forfeited", outcome)
            return
        line = Message(
            "⏰ {name} ran out of time ({count}/{limit}): the turn was played passively.",
            name=name,
            count=count,
            limit=limit,
        )
        # The whole passive turn (a draw and a discard are two actions) and its count commit
        # in one transaction: a crash leaves the turn unplayed and uncounted, or both, so
        # whichever process fires it next plays and counts it exactly once.
        moves = []
        before = state
        while before.result is None and before.current == seat and before.turn == state.turn:
            move = self._move(table, before, seat, passive_action(before, seat, self._ai_rng))
            moves.append(move)
            before = move.after
        committed = []
        try:
            async with self._games.transaction() as tx:
                version = table.version
                for move in moves:
                    record, settled_line = await self._commit_move(tx, table, version, move)
                    version = record.version
                    committed.append((move, record, settled_line))
                await self._save_seat(table, seat, tx=tx, timeouts=count)
        except StaleVersionError:
            raise StaleTable from None
        outcome.lines.append(line)
        for move, record, settled_line in committed:
            self._moved(table, move, record, outcome, settled_line, by_timeout=True)
        table.timeouts[seat] = count
        table.recent.append(line)
        del table.recent[:-MAX_RECENT]
        await self._advance(table, outcome)

    async def _seat_out(self, table: Table, seat: int, how: str, outcome: Outcome) -> None:
        """Take a seat out of the game (``resigned`` or ``forfeited``): if one seat is left it
        wins; otherwise the seat folds and the game goes on without it."""
        out = "folded" if how != "resigned" else how
        name = table.seats[seat].name
        why = (
            Message("{name} resigned", name=name)
            if how == "resigned"
            else Message("{name} timed out too many turns in a row", name=name)
        )
        remaining = [i for i in range(len(table.seats)) if i not in table.out and i != seat]
        if len(remaining) == 1:
            # The end and its payout commit together first: a crash before them leaves the game
            # running with this seat still in it (nothing half-done), never a game nobody can end.
            await self._end_by_forfeit(table, remaining[0], why, outcome)
            table.out[seat] = out
            await self._save_seat(table, seat)
            return
        table.out[seat] = out
        await self._save_seat(table, seat)
        line = Message("🏳️ {why}: the seat folds (its ante stays in the pot).", why=why)
        outcome.lines.append(line)
        table.recent.append(line)
        del table.recent[:-MAX_RECENT]
        await self._advance(table, outcome)
