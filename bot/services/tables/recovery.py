"""After a restart or a crash: repairing what was left half-done, rebuilding every unfinished
table by replaying its log, and quarantining a game that cannot go on."""

from __future__ import annotations

import json
import logging

from bot.engine.family import engine_of
from bot.services.chips import HOUSE_ID
from bot.services.tables.core import _reason
from bot.services.tables.lobby import TableLobby
from bot.services.tables.model import Outcome, Quarantined, SeatInfo, Table
from bot.storage.games import GameEnd, GameRecord, GameStatus, new_game_id

__all__ = ["TableRecovery"]

log = logging.getLogger(__name__)


class TableRecovery(TableLobby):
    """Restore, repair and quarantine."""

    async def restore(self, *, repair: bool = True) -> list[Table]:
        """Rebuild every unfinished table from the database (after a start or a crash).

        First (unless ``repair=False``: the bot runs it once for all its processes,
        :func:`bot.services.cluster.repair_once`) :meth:`repair_at_start` finishes whatever a
        crash left half-done, so the database holds the invariant (docs/architecture.md, "Crash
        points"); then every lobby and running game is rebuilt by replaying its log. A game
        that cannot be rebuilt is quarantined (:meth:`quarantine_record`) instead of blocking
        its channel; :attr:`quarantined` lists them for the cogs to announce.
        """
        if repair:
            await self.repair_at_start()
        last = await self._games.last_activity()
        last_seen = None if last is None else last.timestamp()
        # Other timers of the bot give back the same down time (a tournament's no-show window).
        self.last_seen = last_seen
        restored = []
        for record in await self._games.list_unfinished():
            try:
                table = await self._rebuild(record, last_seen)
            except Exception as exc:
                log.debug("table %s failed to rebuild", record.id, exc_info=True)
                self.quarantined.append(await self.quarantine_record(record, _reason(exc)))
                continue
            self._tables[table.channel_id] = table
            restored.append(table)
        return restored

    async def repair_at_start(self) -> None:
        """The start-up repair: pay the pots of games ended by a forfeit, then :meth:`repair`;
        each repair logged (WARNING), each problem it cannot fix too (ERROR)."""
        await self._settle_forfeits()
        self.repairs = await self.repair()
        for line in self.repairs:
            log.warning("start-up repair: %s", line)
        for line in self.unrepaired:
            log.error("start-up repair cannot fix this (see `kapshap db check`): %s", line)

    async def _settle_forfeits(self) -> None:
        """Pay the pot of a game that ended with a winner but whose pot is still open.

        A resignation or forfeit finishes the game and pays its pot in one transaction; a
        database written before that (end, then pay) may hold such a game with its pot open:
        the game record (``winner_seat``) says who won, so the pot is paid now (``payout`` is
        idempotent). Games the engine ended are left to :meth:`repair`.
        """
        for pot in await self._chips.open_pots():
            record = await self._games.get(pot.game_id)
            if record is None or record.status is not GameStatus.FINISHED:
                continue
            settings = json.loads(record.rules_json)
            if record.winner_seat is None or "flags" not in settings:
                continue
            seats = [SeatInfo.from_json(s) for s in json.loads(record.seats_json)]
            winner = seats[record.winner_seat]
            rules = engine_of(record.game).rules_from_flags(settings["flags"])
            payee = HOUSE_ID if winner.user_id is None else winner.user_id
            async with self._games.transaction() as tx:
                await self._chips.payout(record.id, payee, rules.rake_percent, tx=tx)
                await self._games.mark_settled(record.id, tx=tx)
            log.info("game %s: its pot was paid at start-up (seat %s)", record.id, winner.name)

    async def repair(self) -> list[str]:
        """Finish whatever a crash left half-done; say what was done, one sentence per repair.

        * an ended game whose chips were never settled: its pot is paid, refunded or carried
          (or its point difference paid) exactly as at the end of play, replaying its log;
        * an open pot of a lobby (a start interrupted, before the start became one
          transaction): the antes are refunded and the lobby gets a fresh id, so it can start
          again with fresh ante keys;
        * an open pot of no game at all: refunded;
        * an unfinished game whose pot is already refunded (``/kapadmin endtable`` cut short by
          a crash, before the end became one transaction): closed as aborted, so it never comes
          back to announce a pot of 0 chips.

        Every repair is the ordinary settlement with its ordinary idempotency keys
        (``payout:{game}``, ``refund:{game}:{user}`` …), so running it twice changes nothing.
        ``kapshap db repair`` runs the same code.

        First of all, a pot row gone while its escrow is not (deleted behind the bot) is
        rebuilt from the ledger, so the game settles as it should; one that cannot be rebuilt
        is left alone and named in :attr:`unrepaired`.
        """
        done, self.unrepaired = await self._chips.rebuild_missing_pots()
        for ended in await self._games.list_unsettled():
            done.append(await self._repair_ended(ended))
        for interrupted in await self._games.list_ended_pots():
            async with self._games.transaction() as tx:
                await self._games.finish(
                    interrupted.id,
                    GameEnd(GameStatus.ABORTED, self._clock.now()),
                    settled=True,
                    tx=tx,
                )
            done.append(
                f"Game {interrupted.id} in channel {interrupted.channel_id}: its antes were "
                "refunded but "
                "it was never closed (an interrupted end); closed it as aborted."
            )
        for pot in await self._chips.open_pots():
            if pot.game_id.startswith("tournament:"):
                continue  # a tournament's buy-ins: its own service settles them
            record = await self._games.get(pot.game_id)
            if record is not None and record.status is GameStatus.RUNNING:
                continue
            if record is None:
                settled = await self._chips.refund(pot.game_id)
                done.append(
                    f"Game {pot.game_id}: its pot belonged to no game; "
                    f"refunded {settled.pot} chips."
                )
            elif record.status is GameStatus.LOBBY:
                new_id = new_game_id()
                async with self._games.transaction() as tx:
                    settled = await self._chips.refund(record.id, tx=tx)
                    await self._games.rekey_lobby(record.id, new_id, tx=tx)
                done.append(
                    f"Lobby {record.id} in channel {record.channel_id}: its start was interrupted "
                    f"with {settled.pot} chips of antes held; refunded them (the lobby is now "
                    f"{new_id})."
                )
            else:
                done.append(await self._repair_ended(record))
        return done

    async def _repair_ended(self, record: GameRecord) -> str:
        """Settle one ended game's chips (idempotent); the sentence saying what was done."""
        what = f"Game {record.id} ({record.status})"
        if record.status in (GameStatus.FINISHED, GameStatus.DRAWN):
            try:
                table = await self._replay(record)
            except Exception as exc:
                log.error("game %s: cannot replay to settle it (%s); refunding", record.id, exc)
            else:
                if table.state is not None and table.state.result is not None:
                    outcome = Outcome(table)
                    await self._settle(table, outcome)
                    return f"{what}: settled after a crash: {outcome.settlement or 'no chips'}"
        async with self._games.transaction() as tx:
            settled = await self._chips.refund(record.id, tx=tx)
            await self._games.mark_settled(record.id, tx=tx)
        return f"{what}: refunded {settled.pot} chips of antes after a crash."

    async def unreplayable(self) -> list[tuple[GameRecord, str]]:
        """Unfinished games whose saved log no longer replays, with the reason (no writes)."""
        found = []
        for record in await self._games.list_unfinished():
            try:
                await self._replay(record)
            except Exception as exc:
                found.append((record, _reason(exc)))
        return found

    async def quarantine_record(self, record: GameRecord, reason: str) -> Quarantined:
        """Close a game that cannot go on (its log no longer replays, or it keeps failing):
        status ``broken``, every ante refunded, its channel freed, and an operator log line."""
        async with self._games.transaction() as tx:
            settled = await self._chips.refund(record.id, tx=tx)
            await self._games.quarantine(record.id, reason, self._clock.now(), tx=tx)
        table = self._tables.get(record.channel_id)
        if table is not None and table.id == record.id:
            del self._tables[record.channel_id]
            table.status = GameStatus.BROKEN
            table.deadline = None
        log.error(
            "game %s in channel %s quarantined (marked broken, %s chips of antes refunded): %s",
            record.id,
            record.channel_id,
            settled.pot,
            reason,
        )
        return Quarantined(record.id, record.guild_id, record.channel_id, reason)

    async def quarantine(self, table: Table, reason: str) -> Quarantined:
        """:meth:`quarantine_record` for a table this process holds."""
        async with table.lock:
            record = await self._games.require(table.id)
            if not record.status.is_open:
                return Quarantined(table.id, table.guild_id, table.channel_id, reason)
            return await self.quarantine_record(record, reason)

    async def _rebuild(self, record: GameRecord, last_seen: float | None) -> Table:
        """Replay a stored unfinished table and re-arm its timer (down time does not count)."""
        table = await self._replay(record)
        state = table.state
        if state is None:
            return table
        if state.result is not None:
            # The final action was saved but the settlement may not have been: finish now.
            await self._settle(table, Outcome(table))
        elif not table.seats[state.current].is_ai:
            deadline = self._restored_deadline(table, state, last_seen)
            if deadline != table.deadline:
                table.deadline = deadline
                await self._games.set_deadline(table.id, deadline)
        return table

    async def stopping(self) -> None:
        """The bot is stopping cleanly: record the moment (turn timers resume from it)."""
        await self._games.heartbeat(self._clock.now())
