"""What a table stores besides its action log: its seats and lobby settings (the game row's
JSON), each seat's timeouts and whether it is out, and the server's play settings it reads;
and the table rebuilt from its row, which makes the tables this process holds a cache.

Issue 20 (any process serves any table): every action takes the table's lock through
:meth:`TableStore._locked`, which first compares the cached ``version`` with the game row's
(one indexed read). A table another process moved is rebuilt from its row and log (the replay
a restart does) before the action is looked at; a table this process has never seen is loaded
on demand; one that was aborted elsewhere leaves the cache, one that finished elsewhere stays
(finished, as this process keeps its own). A commit that still finds the row moved (another
process committed between the check and the commit) raises :class:`StaleTable`: the copy is
rebuilt and the action refused as out of date, never applied to the stale copy."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

from bot.engine import Deal, EngineError
from bot.engine.events import TurnStarted
from bot.engine.family import Action as AnyAction
from bot.engine.family import Event as AnyEvent
from bot.engine.family import State as AnyState
from bot.engine.family import engine_of
from bot.locale import EventLine, Message
from bot.logs import bound
from bot.services.errors import UserError
from bot.services.tables.core import NO_TABLE, OUT_OF_DATE, StaleTable, TableCore
from bot.services.tables.model import MAX_RECENT, POT, SeatInfo, Table
from bot.services.tables.words import _opening_line
from bot.storage.db import Tx
from bot.storage.errors import StaleVersionError
from bot.storage.games import GameRecord, GameStatus

__all__ = ["LOOKUP_ATTEMPTS", "TableStore", "bound_table"]

LOOKUP_ATTEMPTS = 4
"""How many times finding a channel's current table looks again when the table it found
ended or was replaced meanwhile (then the action is refused as out of date)."""


def bound_table(table: Table) -> bound:
    """Every log line within is about ``table`` (its server, channel, id and game)."""
    return bound(**table.log_ids())


def _seats_json(seats: Sequence[SeatInfo]) -> str:
    return json.dumps([s.to_json() for s in seats])


class TableStore(TableCore):
    """Saving and loading a table's seats and settings."""

    async def _save_seats(
        self, table: Table, seats: Sequence[SeatInfo], *, interaction: int | None = None
    ) -> None:
        settings: dict[str, Any] = {
            "rule_set": table.rule_set,
            "sets": table.sets,
            "max_seats": table.max_seats,
            "thrower": table.thrower,
        }
        if table.variants:
            settings["variants"] = table.variants
        if not table.rated:
            settings["rated"] = False
        if table.by_difference:
            settings.update(settlement=table.settlement, settle_rate=table.settle_rate)
        try:
            async with self._games.transaction() as tx:
                await self._claim(tx, table, interaction)
                record = await self._games.update(
                    table.id,
                    expected_version=table.version,
                    seats_json=_seats_json(seats),
                    rules_json=json.dumps(settings),
                    tx=tx,
                )
        except StaleVersionError:
            raise StaleTable from None
        table.seats = list(seats)
        table.version = record.version

    async def _claim(self, tx: Tx, table: Table, interaction: int | None) -> None:
        """Record, in the step's transaction, the interaction that carried the step: a second
        delivery of it (to this process or another) is refused as out of date, applying once."""
        if interaction is not None and not await self._games.claim_interaction(
            tx, str(interaction), table.id, self._clock.now().timestamp()
        ):
            raise StaleTable

    async def _save_seat(
        self, table: Table, seat: int, *, tx: Tx | None = None, timeouts: int | None = None
    ) -> None:
        """Store a seat's timeouts (``timeouts``, else the table's count) and status, in ``tx``
        when given (the step's own transaction)."""
        if self._server is not None:
            count = table.timeouts.get(seat, 0) if timeouts is None else timeouts
            await self._server.save_seat(table.id, seat, count, table.out.get(seat), tx=tx)

    async def _load_seats(self, table: Table) -> None:
        if self._server is None:
            return
        for record in await self._server.seat_states(table.id):
            table.timeouts[record.seat] = record.timeouts
            if record.out is not None:
                table.out[record.seat] = record.out

    async def _timeout_limit(self, guild_id: int) -> int:
        if self._server is None:
            return 3
        return (await self._server.play_settings(guild_id)).timeout_limit

    async def _lobby_close_time(self, guild_id: int, opened: float) -> float:
        minutes = (
            15
            if self._server is None
            else (await self._server.play_settings(guild_id)).lobby_minutes
        )
        return opened + minutes * 60

    # ----------------------------------------------------------------------------- finding tables

    async def lookup(self, channel_id: int) -> Table | None:
        """The table in a channel as the database has it now (loaded if this process has not
        seen it, rebuilt if another process moved it), or None when there is none."""
        try:
            async with self._locked(channel_id) as table:
                return table
        except UserError:
            return None

    async def by_id(self, table_id: str) -> Table | None:
        """A table by its id (a button names it), as the database has it now: an open one
        loaded or brought up to date, a finished one this process holds as it is; None when
        there is no such open table here."""
        cached = next((t for t in self._tables.values() if t.id == table_id), None)
        if cached is not None:
            async with cached.lock:
                await self._revalidate(cached)
            if self._tables.get(cached.channel_id) is cached:
                return cached
        record = await self._games.get(table_id)
        if record is None or not record.status.is_open:
            return None
        return await self.lookup(record.channel_id)

    async def of_player(self, user_id: int) -> list[Table]:
        """The running tables a member plays at (from his DM), whichever process opened them."""
        found: dict[str, Table] = {}
        for record in await self._games.running_with_player(user_id):
            seats = [SeatInfo.from_json(s) for s in json.loads(record.seats_json)]
            if any(seat.user_id == user_id for seat in seats):
                table = await self.lookup(record.channel_id)
                if table is not None and table.running and table.seat_of(user_id) is not None:
                    found[table.id] = table
        return list(found.values())

    # ----------------------------------------------------------------------------- the cache

    @asynccontextmanager
    async def _locked(self, channel_id: int) -> AsyncIterator[Table]:
        """The channel's current table, its lock held and its copy the database's latest.

        A cached open table costs one read of its version; a stale one is rebuilt; a table
        another process opened is loaded; one that ended elsewhere is dropped and the channel
        looked at again. With no open game in the channel, the table this process last held
        there (finished) is lent as it is, for "this game is over". A commit that finds the row
        moved meanwhile (:class:`StaleTable`) rebuilds the copy before the refusal goes on."""
        for _ in range(LOOKUP_ATTEMPTS):
            table = self._tables.get(channel_id)
            if table is not None and table.status.is_open:
                async with table.lock:
                    if await self._revalidate(table):
                        with bound_table(table):
                            try:
                                yield table
                            except StaleTable:
                                await self._revalidate(table, force=True)
                                raise
                        return
                continue
            record = await self._games.open_in_channel(channel_id)
            if record is None:
                if table is None:
                    raise UserError(NO_TABLE)
                # No open game here: the table this process last held (finished) says so.
                async with table.lock:
                    yield table
                return
            await self._adopt(record)
        raise UserError(OUT_OF_DATE)

    async def _revalidate(self, table: Table, *, force: bool = False) -> bool:
        """Bring a cached table (its lock held) up to its game row: True when it is still the
        channel's table; False when it ended or vanished elsewhere (then it left the cache).

        A process alone on its database (:attr:`poll_seconds` None: SQLite's file lock keeps any
        other out) holds every open table and is the only one to move them, so its copy is the
        row and the read is skipped; the commit's version check stays."""
        if self.poll_seconds is None and not force:
            return True
        found = await self._games.version_of(table.id)
        if found is not None and found[1] == table.version and not force:
            return True
        record = None if found is None else await self._games.get(table.id)
        if record is None or record.status in (GameStatus.ABORTED, GameStatus.BROKEN):
            self._forget(table, GameStatus.ABORTED if record is None else record.status)
            return False
        if not record.status.is_open:
            # Finished elsewhere: kept, finished, as this process keeps the games it ends.
            if record.deal_json is not None:
                await self._refresh(table, record)
            table.status = record.status
            table.deadline = None
            table.lobby_closes_at = None
            self._failures.pop(table.id, None)
            self._retry_at.pop(table.id, None)
            return False
        await self._refresh(table, record)
        return True

    def _forget(self, table: Table, status: GameStatus) -> None:
        """A table aborted (or lost) elsewhere: its copy says so and leaves the cache."""
        table.status = status
        table.deadline = None
        table.lobby_closes_at = None
        if self._tables.get(table.channel_id) is table:
            del self._tables[table.channel_id]
        self._failures.pop(table.id, None)
        self._retry_at.pop(table.id, None)

    async def _adopt(self, record: GameRecord) -> Table:
        """The cached table of an open game row, loaded (replayed) if this process holds none."""
        cached = self._tables.get(record.channel_id)
        if cached is not None and cached.id == record.id:
            return cached
        table = await self._load(record)
        cached = self._tables.get(record.channel_id)
        if cached is not None and cached.id == record.id:
            return cached  # another task of this process loaded it meanwhile
        self._tables[record.channel_id] = table
        return table

    async def _refresh(self, table: Table, record: GameRecord) -> None:
        """Rebuild a cached table in place from its row and log (its lock and every reference
        to it stay valid)."""
        fresh = await self._load(record)
        for name in _REBUILT:
            setattr(table, name, getattr(fresh, name))

    async def _load(self, record: GameRecord) -> Table:
        """A table another process opened or moved, rebuilt from its row; its recent lines are
        the last events of its log."""
        return await self._replay(record, recent=True)

    async def _replay(self, record: GameRecord, *, recent: bool = False) -> Table:
        """The table of a stored game, its state rebuilt by replaying its log (no writes).

        ``recent``: its recent lines are its last events (a table loaded from another
        process); otherwise one line says it was restored after a restart."""
        settings = json.loads(record.rules_json)
        seats = [SeatInfo.from_json(s) for s in json.loads(record.seats_json)]
        table = Table(
            id=record.id,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            host_id=record.host_id,
            game=record.game,
            rule_set=None,
            sets=None,
            ante=record.ante,
            max_seats=len(seats),
            turn_seconds=record.turn_seconds,
            seats=seats,
            status=record.status,
            version=record.version,
            deadline=record.deadline,
            message_id=record.message_id,
            winner_seat=record.winner_seat,
            rated=settings.get("rated", True) is not False,
        )
        if "flags" not in settings:
            # A lobby (or a lobby that ended before it started).
            if record.status is GameStatus.LOBBY:
                table.lobby_closes_at = await self._lobby_close_time(
                    record.guild_id, record.created_at.timestamp()
                )
            table.rule_set = settings.get("rule_set")
            table.sets = settings.get("sets")
            table.max_seats = int(settings.get("max_seats", len(seats)))
            table.thrower = int(settings.get("thrower", 0))
            table.settlement = str(settings.get("settlement", POT))
            table.settle_rate = int(settings.get("settle_rate", 1))
            table.variants = {str(k): str(v) for k, v in settings.get("variants", {}).items()}
            return table
        engine = engine_of(record.game)
        rules = engine.rules_from_flags(settings["flags"])
        chosen = engine.table_options(rules)
        table.game = rules.game  # the name as the game's family holds it
        table.rule_set = chosen.rule_set
        table.sets = chosen.sets
        table.settlement = str(rules.settlement)
        table.settle_rate = rules.settle_rate
        table.variants = dict(chosen.variants)
        table.thrower = int(settings.get("thrower", 0))
        assert record.deal_json is not None
        deal = Deal.from_json(json.loads(record.deal_json))
        state: AnyState = engine.new_game(rules, [s.name for s in seats], deal)
        names = [s.name for s in seats]
        lines: list[str] = [_opening_line(table, deal)]
        for entry in await self._games.actions(record.id):
            if entry.seat != state.current:
                raise EngineError(f"action {entry.seq} was logged for seat {entry.seat}")
            state, events = _apply(state, engine.parse_action(entry.notation))
            if recent:
                lines += [
                    EventLine(engine.describe_event(event, None, names), event, names)
                    for event in events
                    if not isinstance(event, TurnStarted)
                ]
                del lines[:-MAX_RECENT]
        table.state = state
        pot = await self._chips.pot(record.id)
        table.carried = 0 if pot is None else pot.carried_in
        await self._load_seats(table)
        table.recent = lines if recent else [Message("♻️ Restored after a restart.")]
        return table


_REBUILT = tuple(f.name for f in dataclasses.fields(Table) if f.name != "lock")
"""What a rebuild replaces in a cached table: everything but its lock (which callers hold)."""


def _apply(state: AnyState, action: AnyAction) -> tuple[AnyState, list[AnyEvent]]:
    """The game's ``apply`` (its family's engine), its events as one list."""
    new_state, events = engine_of(state.rules.game).apply(state, action)
    return new_state, list[AnyEvent](events)
