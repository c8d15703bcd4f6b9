"""Lobbies and seats: opening a table (its options checked first), joining, leaving, computer
players, cancelling, rematches, a tournament's seated tables and lobbies nobody started."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from typing import Any

from bot import limits
from bot.ai.family import ai_of
from bot.ai.levels import playable_levels
from bot.engine import EngineError
from bot.engine.family import engine_of
from bot.engine.rules import MAX_PLAYERS
from bot.games import UnknownGame, default_game, find, games
from bot.limits import format_duration, quote_input
from bot.services.errors import UserError
from bot.services.tables.core import StaleTable
from bot.services.tables.model import DIFFERENCE, Outcome, SeatInfo, Table
from bot.services.tables.play import TablePlay
from bot.services.tables.settlement import _check_settlement, _settle_flags
from bot.services.tables.store import _seats_json
from bot.services.tables.words import _rules_refusal
from bot.storage.errors import ChannelBusyError, StaleVersionError
from bot.storage.games import GameEnd, GameStatus

__all__ = ["TableLobby"]

log = logging.getLogger(__name__)


class TableLobby(TablePlay):
    """From an empty channel to a lobby ready to start (and back)."""

    async def open_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        game: str | None = None,
        rule_set: str | None = None,
        ante: int | None = None,
        seats: int | None = None,
        sets: int | None = None,
        turn_seconds: int | None = None,
        settlement: str | None = None,
        settle_rate: int | None = None,
        variants: Mapping[str, str] | None = None,
        rated: bool = True,
    ) -> Table:
        """Open a lobby in a channel with the host seated (``game``: the default game when
        None). ``rated``: False for a game the ratings leave out, where hints are allowed.

        Options are checked now (a bad combination is refused before anyone joins).
        ``settlement`` is a Tsung Shap option: ``pot`` (the default: antes, the winner takes
        the pot) or ``difference`` (no antes; the loser pays the winner ``settle_rate`` chips,
        default 1, per point of difference, at most his balance; two members only).
        ``variants`` sets rule flags (``{"pot_carries_over": "true"}``, see
        :mod:`bot.services.variants`); the engine refuses a combination that does not work.
        """
        existing = self._tables.get(channel_id)
        if existing is not None and existing.status.is_open:
            async with existing.lock:
                if await self._revalidate(existing):  # it may have ended in another process
                    raise UserError(
                        "There is already a table in this channel: finish or cancel it first."
                    )
        chosen = dict(variants or {})
        name, mode, rate, max_seats, ante, turn_seconds = self.check_options(
            game=game,
            rule_set=rule_set,
            ante=ante,
            seats=seats,
            sets=sets,
            turn_seconds=turn_seconds,
            settlement=settlement,
            settle_rate=settle_rate,
            variants=chosen,
        )
        seats_list = [SeatInfo(host_name, user_id=host_id)]
        settings: dict[str, Any] = {
            "rule_set": rule_set,
            "sets": sets,
            "max_seats": max_seats,
            "thrower": 0,
        }
        if chosen:
            settings["variants"] = chosen
        if not rated:
            settings["rated"] = False
        if mode == DIFFERENCE:
            settings.update(settlement=mode, settle_rate=rate)
        try:
            record = await self._games.create_lobby(
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                game=name,
                rules_json=json.dumps(settings),
                seats_json=_seats_json(seats_list),
                ante=ante,
                turn_seconds=turn_seconds,
                created_at=self._clock.now(),
            )
        except ChannelBusyError:
            raise UserError("There is already a table in this channel.") from None
        table = Table(
            id=record.id,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            game=name,
            rule_set=rule_set,
            sets=sets,
            ante=ante,
            max_seats=max_seats,
            turn_seconds=turn_seconds,
            seats=seats_list,
            version=record.version,
            settlement=mode,
            settle_rate=rate,
            variants=chosen,
            rated=rated,
        )
        table.lobby_closes_at = await self._lobby_close_time(
            guild_id, self._clock.now().timestamp()
        )
        self._tables[channel_id] = table
        log.info("table %s opened in channel %s by %s", table.id, channel_id, host_id)
        return table

    def check_options(
        self,
        *,
        game: str | None = None,
        rule_set: str | None = None,
        ante: int | None = None,
        seats: int | None = None,
        sets: int | None = None,
        turn_seconds: int | None = None,
        settlement: str | None = None,
        settle_rate: int | None = None,
        variants: Mapping[str, str] | None = None,
    ) -> tuple[str, str, int, int, int, int]:
        """Check a new table's options without opening anything (a :class:`UserError` says
        what is wrong); returns the game's name, settlement mode and rate, seats, ante and
        timer. ``game``: the default game when None."""
        name = _parse_game(default_game() if game is None else game)
        mode, rate = _check_settlement(name, settlement, settle_rate)
        max_seats = seats if seats is not None else find(name).default_seats
        ante = self.defaults.ante if ante is None else ante
        turn_seconds = self.defaults.turn_seconds if turn_seconds is None else turn_seconds
        if not 0 <= ante <= limits.MAX_ANTE:
            raise UserError(
                "The ante must be between 0 and {max_ante} chips.", max_ante=f"{limits.MAX_ANTE:,}"
            )
        if not limits.MIN_TURN_SECONDS <= turn_seconds <= limits.MAX_TURN_SECONDS:
            raise UserError(
                "The turn timer must be between {low} seconds and {high}.",
                low=limits.MIN_TURN_SECONDS,
                high=format_duration(limits.MAX_TURN_SECONDS),
            )
        if not 2 <= max_seats <= MAX_PLAYERS:
            raise UserError("A table seats 2 to {max_players} players.", max_players=MAX_PLAYERS)
        try:
            rules = engine_of(name).make_rules(
                name,
                max_seats,
                rule_set,
                sets,
                **dict(variants or {}),
                **_settle_flags(mode, rate),
            )
        except EngineError as exc:
            raise UserError("Those settings don't work: {exc}.", exc=_rules_refusal(exc)) from None
        # The name as the game's family holds it in its rules (the domino games' Game members).
        return rules.game, mode, rate, max_seats, ante, turn_seconds

    async def join(
        self, channel_id: int, user_id: int, name: str, *, interaction: int | None = None
    ) -> Table:
        """Seat a member in the lobby (``interaction``: the asking interaction's id, applied
        once)."""
        async with self._locked(channel_id) as table:
            self._need_lobby(table)
            if table.seat_of(user_id) is not None:
                raise UserError("You are already seated at this table.")
            if len(table.seats) >= table.max_seats:
                raise UserError("The table is full ({max_seats} seats).", max_seats=table.max_seats)
            seat = SeatInfo(name, user_id=user_id)
            await self._save_seats(table, [*table.seats, seat], interaction=interaction)
        return table

    async def leave(
        self, channel_id: int, user_id: int, *, interaction: int | None = None
    ) -> Table:
        """Leave the lobby (the host cancels instead)."""
        async with self._locked(channel_id) as table:
            self._need_lobby(table)
            seat = table.seat_of(user_id)
            if seat is None:
                raise UserError("You are not seated at this table.")
            if user_id == table.host_id:
                raise UserError("You are the host: use Cancel to close the table.")
            seats = [s for i, s in enumerate(table.seats) if i != seat]
            await self._save_seats(table, seats, interaction=interaction)
        return table

    async def add_ai(
        self,
        channel_id: int,
        user_id: int,
        level: str = "greedy",
        *,
        name: str = "AI {number} ({level})",
        level_name: str | None = None,
        interaction: int | None = None,
    ) -> Table:
        """The host adds a computer player, named after ``name`` (``{number}`` and ``{level}``
        filled in: ``level_name``, the level's name for members, else its code; the Discord
        layer gives both in the server's language). ``interaction``: the asking interaction's
        id (a doubled delivery adds one player, not two)."""
        async with self._locked(channel_id) as table:
            self._need_lobby(table)
            self._need_host(table, user_id)
            levels = ai_of(table.game).levels(table.game)
            if level not in playable_levels(table.game):
                raise UserError(
                    "Unknown AI level {level}: choose {choices}.",
                    level=quote_input(level),
                    choices=", ".join(levels),
                )
            if len(table.seats) >= table.max_seats:
                raise UserError("The table is full ({max_seats} seats).", max_seats=table.max_seats)
            number = 1 + sum(1 for s in table.seats if s.is_ai)
            seat = SeatInfo(name.format(number=number, level=level_name or level), ai_level=level)
            await self._save_seats(table, [*table.seats, seat], interaction=interaction)
        return table

    async def cancel(self, channel_id: int, user_id: int, *, admin: bool = False) -> Table:
        """Close the lobby or abort the game; every ante held is refunded."""
        async with self._locked(channel_id) as table:
            if not table.status.is_open:
                raise UserError("This table has already ended.")
            if not admin:
                self._need_host(table, user_id)
                if table.running:
                    raise UserError(
                        "The game is under way: only a server manager can end it "
                        "(`/kapadmin endtable`)."
                    )
            # The refund and the end commit together, so an interrupted `endtable` can never
            # bring back a game whose pot is already refunded. A lobby normally holds no antes
            # (they are taken with the start); any it holds are refunded all the same.
            try:
                async with self._games.transaction() as tx:
                    await self._chips.refund(table.id, tx=tx)
                    await self._games.finish(
                        table.id,
                        GameEnd(GameStatus.ABORTED, self._clock.now()),
                        expected_version=table.version,
                        settled=True,
                        tx=tx,
                    )
            except StaleVersionError:
                raise StaleTable from None
            table.status = GameStatus.ABORTED
            table.deadline = None
            self._tables.pop(channel_id, None)
            log.info("table %s aborted by %s (admin=%s)", table.id, user_id, admin)
        return table

    async def set_message(self, table: Table, message_id: int) -> None:
        """Remember the public table message (to edit it, and after a restart)."""
        table.message_id = message_id
        await self._games.set_message_id(table.id, message_id)

    async def edit_turn(
        self, table: Table, interval: float, *, force: bool = False, redraw: bool = False
    ) -> float | None:
        """Whether this process may draw a table's message now, when several processes share
        the table (about one edit every ``interval`` seconds per table, across processes):
        None: draw it now (the turn is recorded); infinity: another process already drew this
        version or a later one; otherwise the moment to try again. A process alone
        (:attr:`poll_seconds` None) always draws: its presenter coalesces by itself. ``force``:
        a change that must show at once (a start, an end) does not wait for the interval;
        ``redraw``: a change its version does not tell (a restart's mark) is drawn even at a
        version some process drew already."""
        if self.poll_seconds is None:
            return None
        now = self._clock.now().timestamp()
        return await self._games.claim_edit(
            table.id, table.version, now, interval, force=force, redraw=redraw
        )

    async def drew(self, table: Table) -> None:
        """An interaction's answer just drew the table's message in place (shared tables:
        the other processes wait their interval after it)."""
        if self.poll_seconds is not None:
            now = self._clock.now().timestamp()
            await self._games.record_edit(table.id, table.version, now)

    async def rematch(self, channel_id: int, user_id: int, table_id: str | None = None) -> Table:
        """A new lobby with the same seats; the previous winner throws the dice.

        ``table_id`` (the game the Rematch button belongs to) finds a game that ended before a
        restart, which this process does not hold.
        """
        old = self._tables.get(channel_id)
        if old is not None and old.status.is_open:
            async with old.lock:
                await self._revalidate(old)  # it may have ended in another process
        if table_id is not None and (old is None or old.id != table_id):
            old = await self._finished_table(table_id, channel_id)
        if old is None or old.status.is_open:
            raise UserError("There is no finished game here to replay.")
        if old.seat_of(user_id) is None:
            raise UserError("Only a player of the last game can call a rematch.")
        winner = old.winner_seat
        if old.state is not None and old.state.result is not None:
            winner = old.state.result.winner
        host = old.seats[old.seat_of(old.host_id) or 0]
        table = await self.open_table(
            guild_id=old.guild_id,
            channel_id=channel_id,
            host_id=old.host_id,
            host_name=host.name,
            game=old.game,
            rule_set=old.rule_set,
            ante=old.ante,
            seats=old.max_seats,
            sets=old.sets,
            turn_seconds=old.turn_seconds,
            settlement=old.settlement,
            settle_rate=old.settle_rate if old.by_difference else None,
            variants=old.variants,
            rated=old.rated,
        )
        async with table.lock:
            table.thrower = winner if winner is not None else 0
            await self._save_seats(table, list(old.seats))
        return table

    async def open_seated(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        game: str,
        seats: Sequence[SeatInfo],
        rule_set: str | None = None,
        turn_seconds: int | None = None,
    ) -> Outcome:
        """Open a table with fixed seats (no ante) and start it at once: a tournament's game.

        ``host_id`` (the organiser) need not sit at it; seats are played in the order given."""
        table = await self.open_table(
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            host_name=seats[0].name,
            game=game,
            rule_set=rule_set,
            ante=0,
            seats=len(seats),
            turn_seconds=turn_seconds,
        )
        async with table.lock:
            await self._save_seats(table, list(seats))
        return await self.start(channel_id, host_id)

    async def expire_lobbies(self) -> list[Table]:
        """Close every lobby nobody started in time (refunding any ante held), whichever
        process opened it: the lobbies are read from the database, and the close is
        version-checked, so when two processes close the same lobby one of them does."""
        now = self._clock.now().timestamp()
        shared = self.poll_seconds is not None  # alone, this process holds every lobby
        for record in await self._games.lobbies() if shared else []:
            cached = self._tables.get(record.channel_id)
            if cached is None or cached.id != record.id:
                opened = record.created_at.timestamp()
                if await self._lobby_close_time(record.guild_id, opened) <= now:
                    await self._adopt(record)
        closed = []
        for table in list(self._tables.values()):
            due = table.lobby_closes_at
            if table.status is not GameStatus.LOBBY or due is None or due > now:
                continue
            async with table.lock:
                if not await self._revalidate(table) or table.status is not GameStatus.LOBBY:
                    continue
                try:
                    async with self._games.transaction() as tx:
                        if await self._chips.pot(table.id, tx=tx) is not None:
                            await self._chips.refund(table.id, tx=tx)
                        await self._games.finish(
                            table.id,
                            GameEnd(GameStatus.ABORTED, self._clock.now()),
                            expected_version=table.version,
                            settled=True,
                            tx=tx,
                        )
                except StaleVersionError:
                    await self._revalidate(table, force=True)
                    continue  # moved (started, joined, closed) by another process meanwhile
                table.status = GameStatus.ABORTED
                table.lobby_closes_at = None
                self._tables.pop(table.channel_id, None)
                closed.append(table)
                log.info("table %s: lobby closed after its time ran out", table.id)
        return closed

    async def _finished_table(self, table_id: str, channel_id: int) -> Table | None:
        """A game that ended before this process started (for a rematch), or None."""
        record = await self._games.get(table_id)
        if record is None or record.channel_id != channel_id or record.status.is_open:
            return None
        settings = json.loads(record.rules_json)
        if "flags" not in settings:
            return None  # a lobby that never started: nothing to replay
        engine = engine_of(record.game)
        rules = engine.rules_from_flags(settings["flags"])
        chosen = engine.table_options(rules)
        seats = [SeatInfo.from_json(s) for s in json.loads(record.seats_json)]
        return Table(
            id=record.id,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            host_id=record.host_id,
            game=rules.game,
            rule_set=chosen.rule_set,
            sets=chosen.sets,
            ante=record.ante,
            max_seats=len(seats),
            turn_seconds=record.turn_seconds,
            seats=seats,
            status=record.status,
            version=record.version,
            settlement=str(rules.settlement),
            settle_rate=rules.settle_rate,
            winner_seat=record.winner_seat,
            rated=settings.get("rated", True) is not False,
        )


def _parse_game(game: str) -> str:
    """The name of a registered game, or a refusal naming them all."""
    try:
        return find(game).name
    except UnknownGame:
        names = ", ".join(known.name for known in games())
        raise UserError(
            "Unknown game {game}: choose {names}.", game=quote_input(game), names=names
        ) from None
