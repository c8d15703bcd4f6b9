"""SQL for persisted games (``games``) and their action logs (``game_actions``).

A game row holds what is needed to rebuild the table after a restart: rules, seats and deal as
JSON text (encoded by the tables service, which knows the engine types; storage does not) and the
ordered log of actions in engine notation. ``version`` goes up by one with every persisted change
and every update names the version it was based on (optimistic locking), so a stale or doubled
click is detected here even if a service forgot its own check.

Unlike the chips repository, each method here is its own short transaction: persisting a game
step is one self-contained write.
"""

from __future__ import annotations

import enum
import json
import math
import secrets
from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from bot.storage.db import Database, Row, Tx
from bot.storage.errors import (
    ChannelBusyError,
    GameNotFoundError,
    IntegrityError,
    StaleVersionError,
)
from bot.storage.timestamps import from_db_time, to_db_time

__all__ = [
    "UNSET",
    "GameAction",
    "GameEnd",
    "GameRecord",
    "GameStatus",
    "GamesRepo",
    "new_game_id",
]


class GameStatus(StrEnum):
    """Where a game is in its life. Only LOBBY and RUNNING games occupy their channel."""

    LOBBY = "lobby"
    RUNNING = "running"
    FINISHED = "finished"
    DRAWN = "drawn"
    ABORTED = "aborted"
    BROKEN = "broken"  # quarantined: its saved moves no longer replay (antes refunded)

    @property
    def is_open(self) -> bool:
        """Whether the game is unfinished (and so blocks its channel)."""
        return self in (GameStatus.LOBBY, GameStatus.RUNNING)


class _Unset(enum.Enum):
    UNSET = enum.auto()


#: "Leave this field as it is" for optional update arguments (``None`` is a real value there).
UNSET = _Unset.UNSET


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A persisted game, as stored."""

    id: str
    guild_id: int
    channel_id: int
    status: GameStatus
    game: str
    rules_json: str
    seats_json: str
    deal_json: str | None
    version: int
    message_id: int | None
    host_id: int
    ante: int
    turn_seconds: int
    deadline: float | None
    created_at: datetime
    finished_at: datetime | None
    winner_seat: int | None
    settled: bool = False
    broken_reason: str | None = None


@dataclass(frozen=True, slots=True)
class GameAction:
    """One entry of a game's action log."""

    game_id: str
    seq: int
    seat: int
    notation: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class GameEnd:
    """How a game ended, for :meth:`GamesRepo.finish` and :meth:`GamesRepo.append_action`."""

    status: GameStatus
    finished_at: datetime
    winner_seat: int | None = None

    def __post_init__(self) -> None:
        if self.status.is_open:
            raise ValueError(f"{self.status} is not an end status")


_INSERT_COLUMNS = (
    "id, guild_id, channel_id, status, game, rules_json, seats_json, deal_json, version, "
    "message_id, host_id, ante, turn_seconds, deadline, created_at, finished_at, winner_seat"
)
_GAME_COLUMNS = f"{_INSERT_COLUMNS}, settled, broken_reason"
_OPEN = "status IN ('lobby', 'running')"


def _game(row: Row) -> GameRecord:
    finished_at = row["finished_at"]
    return GameRecord(
        id=str(row["id"]),
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        status=GameStatus(row["status"]),
        game=str(row["game"]),
        rules_json=str(row["rules_json"]),
        seats_json=str(row["seats_json"]),
        deal_json=row["deal_json"],
        version=int(row["version"]),
        message_id=row["message_id"],
        host_id=int(row["host_id"]),
        ante=int(row["ante"]),
        turn_seconds=int(row["turn_seconds"]),
        deadline=row["deadline"],
        created_at=from_db_time(row["created_at"]),
        finished_at=None if finished_at is None else from_db_time(finished_at),
        winner_seat=row["winner_seat"],
        settled=bool(row["settled"]),
        broken_reason=row["broken_reason"],
    )


def _action(row: Row) -> GameAction:
    return GameAction(
        game_id=str(row["game_id"]),
        seq=int(row["seq"]),
        seat=int(row["seat"]),
        notation=str(row["notation"]),
        created_at=from_db_time(row["created_at"]),
    )


def _check_json(field: str, text: str | None) -> None:
    # Catch a service bug at the write, not at the restart that cannot decode the row.
    if text is None:
        return
    try:
        json.loads(text)
    except ValueError as exc:
        raise ValueError(f"{field} is not valid JSON: {exc}") from None


def new_game_id() -> str:
    """A fresh game id: 12 hex characters, short enough for button custom ids."""
    return secrets.token_hex(6)


class GamesRepo:
    """Persisted games. Every method is one short transaction on ``db``."""

    def __init__(self, db: Database) -> None:
        """Use ``db`` for every read and write."""
        self._db = db

    def transaction(self) -> AbstractAsyncContextManager[Tx]:
        """A write transaction on the games' database, for a service that must make one atomic
        unit of a game step and its chips (the final move and its settlement, a start and its
        antes, an abort and its refunds): pass the ``Tx`` to the methods' ``tx`` argument."""
        return self._db.transaction()

    @asynccontextmanager
    async def _write(self, tx: Tx | None) -> AsyncIterator[Tx]:
        # Inside the caller's transaction when given one, else a short one of our own.
        if tx is not None:
            yield tx
            return
        async with self._db.transaction() as own:
            yield own

    async def create_lobby(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        game: str,
        rules_json: str,
        seats_json: str,
        ante: int,
        turn_seconds: int,
        created_at: datetime,
        game_id: str | None = None,
        message_id: int | None = None,
    ) -> GameRecord:
        """Create a game in the LOBBY status, at version 0.

        Raises :class:`ChannelBusyError` (naming the existing game) when the channel already has
        an unfinished game.
        """
        _check_json("rules_json", rules_json)
        _check_json("seats_json", seats_json)
        record = GameRecord(
            id=game_id or new_game_id(),
            guild_id=guild_id,
            channel_id=channel_id,
            status=GameStatus.LOBBY,
            game=game,
            rules_json=rules_json,
            seats_json=seats_json,
            deal_json=None,
            version=0,
            message_id=message_id,
            host_id=host_id,
            ante=ante,
            turn_seconds=turn_seconds,
            deadline=None,
            created_at=created_at,
            finished_at=None,
            winner_seat=None,
        )
        async with self._db.transaction() as tx:
            existing = await self._open_in_channel(tx, channel_id)
            if existing is not None:
                raise ChannelBusyError(channel_id, existing.id)
            try:
                await tx.execute(
                    f"INSERT INTO games ({_INSERT_COLUMNS}) VALUES "
                    "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        record.id,
                        guild_id,
                        channel_id,
                        str(record.status),
                        game,
                        rules_json,
                        seats_json,
                        None,
                        0,
                        message_id,
                        host_id,
                        ante,
                        turn_seconds,
                        None,
                        to_db_time(created_at),
                        None,
                        None,
                    ),
                )
            except IntegrityError as exc:
                # The pre-check above covers this process; the unique index is the last word if
                # another process wrote in between (SQLite names the column, PostgreSQL the index).
                if exc.constraint in ("games.channel_id", "games_one_open_per_channel"):
                    raise ChannelBusyError(channel_id, None) from exc
                raise
        return record

    async def get(self, game_id: str) -> GameRecord | None:
        """The game with this id, or ``None``."""
        async with self._db.read() as tx:
            return await self._get(tx, game_id)

    async def require(self, game_id: str) -> GameRecord:
        """The game with this id; :class:`GameNotFoundError` if there is none."""
        record = await self.get(game_id)
        if record is None:
            raise GameNotFoundError(game_id)
        return record

    async def open_in_channel(self, channel_id: int) -> GameRecord | None:
        """The channel's unfinished (lobby or running) game, if any."""
        async with self._db.read() as tx:
            return await self._open_in_channel(tx, channel_id)

    async def list_unfinished(self) -> list[GameRecord]:
        """Every lobby or running game, oldest first: what a restart must rebuild."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE {_OPEN} ORDER BY created_at, id"
            )
        return [_game(r) for r in rows]

    async def update(
        self,
        game_id: str,
        *,
        expected_version: int,
        seats_json: str | _Unset = UNSET,
        rules_json: str | _Unset = UNSET,
        ante: int | _Unset = UNSET,
        turn_seconds: int | _Unset = UNSET,
        deadline: float | _Unset | None = UNSET,
        tx: Tx | None = None,
    ) -> GameRecord:
        """Change settings or seats (e.g. in the lobby); bumps the version.

        Raises :class:`StaleVersionError` if the game is no longer at ``expected_version``.
        """
        fields: dict[str, object] = {}
        if not isinstance(seats_json, _Unset):
            _check_json("seats_json", seats_json)
            fields["seats_json"] = seats_json
        if not isinstance(rules_json, _Unset):
            _check_json("rules_json", rules_json)
            fields["rules_json"] = rules_json
        if not isinstance(ante, _Unset):
            fields["ante"] = ante
        if not isinstance(turn_seconds, _Unset):
            fields["turn_seconds"] = turn_seconds
        if not isinstance(deadline, _Unset):
            fields["deadline"] = deadline
        async with self._write(tx) as tx:
            return await self._update(tx, game_id, expected_version, fields)

    async def start(
        self,
        game_id: str,
        *,
        expected_version: int,
        deal_json: str,
        seats_json: str | _Unset = UNSET,
        rules_json: str | _Unset = UNSET,
        deadline: float | None = None,
        tx: Tx | None = None,
    ) -> GameRecord:
        """Move a LOBBY game to RUNNING with its deal (and final seats/rules); bumps the version."""
        _check_json("deal_json", deal_json)
        fields: dict[str, object] = {
            "status": str(GameStatus.RUNNING),
            "deal_json": deal_json,
            "deadline": deadline,
        }
        if not isinstance(seats_json, _Unset):
            _check_json("seats_json", seats_json)
            fields["seats_json"] = seats_json
        if not isinstance(rules_json, _Unset):
            _check_json("rules_json", rules_json)
            fields["rules_json"] = rules_json
        async with self._write(tx) as tx:
            current = await self._require_at(tx, game_id, expected_version)
            if current.status is not GameStatus.LOBBY:
                raise ValueError(f"game {game_id} is {current.status}, not in the lobby")
            return await self._update(tx, game_id, expected_version, fields)

    async def append_action(
        self,
        game_id: str,
        *,
        expected_version: int,
        seat: int,
        notation: str,
        created_at: datetime,
        deadline: float | _Unset | None = UNSET,
        end: GameEnd | None = None,
        tx: Tx | None = None,
    ) -> tuple[GameRecord, GameAction]:
        """Append one action to a RUNNING game's log and bump the version, atomically.

        ``end`` finishes the game in the same transaction (the action that ended it), so a crash
        can never persist a final action without the result, or the reverse. The action's
        ``seq`` is one more than the last one (the first is 1).
        """
        async with self._write(tx) as tx:
            current = await self._require_at(tx, game_id, expected_version)
            if current.status is not GameStatus.RUNNING:
                raise ValueError(f"game {game_id} is {current.status}, not running")
            seq = 1 + int(
                await tx.scalar(
                    "SELECT COALESCE(MAX(seq), 0) FROM game_actions WHERE game_id = ?", (game_id,)
                )
            )
            fields: dict[str, object] = {}
            if not isinstance(deadline, _Unset):
                fields["deadline"] = deadline
            if end is not None:
                fields.update(_end_fields(end))
            record = await self._update(tx, game_id, expected_version, fields)
            action = GameAction(game_id, seq, seat, notation, created_at)
            await tx.execute(
                "INSERT INTO game_actions (game_id, seq, seat, notation, created_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (game_id, seq, seat, notation, to_db_time(created_at)),
            )
        return record, action

    async def finish(
        self,
        game_id: str,
        end: GameEnd,
        *,
        expected_version: int | None = None,
        settled: bool = False,
        tx: Tx | None = None,
    ) -> GameRecord:
        """End an unfinished game (finished, drawn or aborted), freeing its channel.

        ``expected_version=None`` skips the version check, for aborts that must win over any
        concurrent click (an admin cancel, a crash clean-up). ``settled`` records that the
        game's chips are done with (an abort refunds in the same transaction).
        """
        async with self._write(tx) as tx:
            current = await self._require_at(tx, game_id, expected_version)
            if not current.status.is_open:
                raise ValueError(f"game {game_id} is already {current.status}")
            version = current.version if expected_version is None else expected_version
            fields = _end_fields(end)
            if settled:
                fields["settled"] = 1
            return await self._update(tx, game_id, version, fields)

    async def mark_settled(self, game_id: str, *, tx: Tx | None = None) -> None:
        """Record that an ended game's chips are done with (no version change)."""
        async with self._write(tx) as tx:
            await tx.execute("UPDATE games SET settled = 1 WHERE id = ?", (game_id,))

    async def quarantine(
        self, game_id: str, reason: str, finished_at: datetime, *, tx: Tx | None = None
    ) -> None:
        """Mark a game that cannot be rebuilt as ``broken`` (freeing its channel), with why.

        The caller refunds its antes in the same transaction and so marks it settled.
        """
        async with self._write(tx) as tx:
            await tx.execute(
                "UPDATE games SET status = 'broken', broken_reason = ?, finished_at = "
                "COALESCE(finished_at, ?), deadline = NULL, settled = 1, version = version + 1 "
                "WHERE id = ?",
                (reason[:500] or "unknown", to_db_time(finished_at), game_id),
            )

    async def rekey_lobby(self, game_id: str, new_id: str, *, tx: Tx | None = None) -> None:
        """Give a lobby a fresh id (its old id's antes were refunded after a start that a crash
        interrupted; the ante keys ``ante:{game}:{user}`` of the old id are used up)."""
        async with self._write(tx) as tx:
            changed = await tx.execute(
                "UPDATE games SET id = ?, version = version + 1 WHERE id = ? AND status = 'lobby'",
                (new_id, game_id),
            )
        if not changed:
            raise GameNotFoundError(game_id)

    async def list_unsettled(self) -> list[GameRecord]:
        """Ended games whose chips are not yet done with (what the start-up repair finishes)."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE settled = 0 AND NOT {_OPEN} "
                "ORDER BY created_at, id"
            )
        return [_game(r) for r in rows]

    async def heartbeat(self, seen_at: datetime) -> None:
        """Record that the process is alive now (written when the bot stops)."""
        async with self._db.transaction() as tx:
            await tx.execute(
                "INSERT INTO heartbeat (id, seen_at) VALUES (1, ?) "
                "ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at",
                (to_db_time(seen_at),),
            )

    async def list_ended_pots(self) -> list[GameRecord]:
        """Unfinished games whose pot is already settled (an end a crash interrupted)."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                f"SELECT {', '.join('g.' + c for c in _GAME_COLUMNS.split(', '))} FROM games AS g "
                "JOIN pots AS p ON p.game_id = g.id "
                f"WHERE g.{_OPEN} AND p.status <> 'open' ORDER BY g.created_at, g.id"
            )
        return [_game(r) for r in rows]

    async def list_broken(self) -> list[GameRecord]:
        """Quarantined games, oldest first."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'broken' ORDER BY created_at, id"
            )
        return [_game(r) for r in rows]

    async def last_activity(self) -> datetime | None:
        """The time of the last game action or ledger entry: the process was alive then."""
        async with self._db.read() as tx:
            value = await tx.scalar(
                "SELECT MAX(t) FROM (SELECT MAX(created_at) AS t FROM game_actions "
                "UNION ALL SELECT (SELECT created_at FROM ledger ORDER BY id DESC LIMIT 1) "
                "UNION ALL SELECT MAX(created_at) FROM games "
                "UNION ALL SELECT MAX(seen_at) FROM heartbeat) AS latest"
            )
        return None if value is None else from_db_time(str(value))

    async def add_hint(
        self, game_id: str, *, seat: int, turn: int, move: str, created_at: float
    ) -> int:
        """Note a hint in the game's record (not a game change: the version stays); returns
        its number in the game (1, 2 …)."""
        async with self._db.transaction() as tx:
            last = await tx.scalar("SELECT MAX(seq) FROM game_hints WHERE game_id = ?", (game_id,))
            seq = 1 + (0 if last is None else int(last))
            await tx.execute(
                "INSERT INTO game_hints (game_id, seq, seat, turn, move, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seq, seat, turn, move, created_at),
            )
        return seq

    async def hints(self, game_id: str) -> list[tuple[int, int, str]]:
        """The hints of a game, in order: (seat, turn, move suggested)."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                "SELECT seat, turn, move FROM game_hints WHERE game_id = ? ORDER BY seq",
                (game_id,),
            )
        return [(int(r["seat"]), int(r["turn"]), str(r["move"])) for r in rows]

    async def set_message_id(self, game_id: str, message_id: int | None) -> None:
        """Remember the public table message. Not a game change: the version stays."""
        async with self._db.transaction() as tx:
            changed = await tx.execute(
                "UPDATE games SET message_id = ? WHERE id = ?", (message_id, game_id)
            )
        if not changed:
            raise GameNotFoundError(game_id)

    async def set_deadline(
        self, game_id: str, deadline: float | None, *, tx: Tx | None = None
    ) -> None:
        """Re-arm (or clear) the turn deadline without a version change (e.g. after a restart)."""
        async with self._write(tx) as tx:
            changed = await tx.execute(
                "UPDATE games SET deadline = ? WHERE id = ?", (deadline, game_id)
            )
        if not changed:
            raise GameNotFoundError(game_id)

    async def actions(self, game_id: str) -> list[GameAction]:
        """A game's action log in order."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                "SELECT game_id, seq, seat, notation, created_at FROM game_actions "
                "WHERE game_id = ? ORDER BY seq",
                (game_id,),
            )
        return [_action(r) for r in rows]

    # --- several processes (issue 20) -------------------------------------------------------

    async def version_of(self, game_id: str) -> tuple[GameStatus, int] | None:
        """The game's status and version (one indexed read: how a process checks that its cached
        copy of a table is still the latest before acting on it), or ``None``."""
        async with self._db.read() as tx:
            row = await tx.fetchone("SELECT status, version FROM games WHERE id = ?", (game_id,))
        return None if row is None else (GameStatus(row[0]), int(row[1]))

    async def open_among(self, game_ids: Sequence[str]) -> set[str]:
        """Which of ``game_ids`` are still open (lobby or running): one read per 500 ids, so a
        tournament with a hundred games in play (an arena) checks them all at once."""
        found: set[str] = set()
        ids = list(dict.fromkeys(game_ids))
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            marks = ", ".join("?" for _ in chunk)
            async with self._db.read() as tx:
                rows = await tx.fetchall(
                    "SELECT id FROM games WHERE status IN ('lobby', 'running') "
                    f"AND id IN ({marks})",
                    tuple(chunk),
                )
            found.update(str(r[0]) for r in rows)
        return found

    async def due_channels(self, now: float) -> list[int]:
        """The channels of running games whose turn deadline has passed, earliest first."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                "SELECT channel_id FROM games WHERE status = 'running' AND deadline IS NOT NULL "
                "AND deadline <= ? ORDER BY deadline",
                (now,),
            )
        return [int(r[0]) for r in rows]

    async def lobbies(self) -> list[GameRecord]:
        """Every game still in its lobby, oldest first (their closing time is the server's)."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'lobby' ORDER BY created_at, id"
            )
        return [_game(r) for r in rows]

    async def running_with_player(self, user_id: int) -> list[GameRecord]:
        """Running games where a seat's ``user_id`` may be ``user_id`` (the caller decodes the
        seats to be sure: this only narrows by the text of the seats' JSON)."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'running' "
                "AND seats_json LIKE ? ORDER BY created_at, id",
                (f'%"user_id": {int(user_id)},%',),
            )
        return [_game(r) for r in rows]

    async def claim_interaction(self, tx: Tx, key: str, game_id: str, at: float) -> bool:
        """Record, inside the step's transaction, that interaction ``key`` was applied to
        ``game_id``; False when it already was (the step must then not be applied again)."""
        changed = await tx.execute(
            "INSERT INTO processed_interactions (key, game_id, created_at) VALUES (?, ?, ?) "
            "ON CONFLICT (key) DO NOTHING",
            (key, game_id, at),
        )
        return changed == 1

    async def prune_interactions(self, before: float) -> int:
        """Forget the interactions recorded, and the table edits made, before ``before`` (epoch
        seconds); how many interactions."""
        async with self._db.transaction() as tx:
            await tx.execute("DELETE FROM table_edits WHERE edited_at < ?", (before,))
            return await tx.execute(
                "DELETE FROM processed_interactions WHERE created_at < ?", (before,)
            )

    async def claim_edit(
        self,
        game_id: str,
        version: int,
        now: float,
        interval: float,
        *,
        force: bool = False,
        redraw: bool = False,
    ) -> float | None:
        """Take the turn to draw a table's message at ``version``, for processes that share
        the table: None when taken (``now`` and ``version`` recorded); infinity when some
        process already drew this version or a later one (nothing to draw); else the moment
        another process's edit less than ``interval`` seconds ago allows the next one
        (``force``: a change that must show at once takes the turn regardless; ``redraw``: a
        change the version does not tell, such as a restart's mark, is drawn even at a version
        already drawn)."""
        async with self._db.transaction() as tx:
            row = await tx.fetchone(
                "SELECT edited_at, version FROM table_edits WHERE game_id = ?", (game_id,)
            )
            if row is not None:
                if int(row[1]) >= version and not redraw:
                    return math.inf
                if not force and float(row[0]) > now - interval:
                    return float(row[0]) + interval
            await self._record_edit(tx, game_id, version, now)
        return None

    async def record_edit(self, game_id: str, version: int, now: float) -> None:
        """Record that a table's message was just drawn at ``version`` (an interaction's
        answer edits it in place, whatever other processes did)."""
        async with self._db.transaction() as tx:
            await self._record_edit(tx, game_id, version, now)

    async def _record_edit(self, tx: Tx, game_id: str, version: int, now: float) -> None:
        await tx.execute(
            "INSERT INTO table_edits (game_id, edited_at, version) VALUES (?, ?, ?) "
            "ON CONFLICT (game_id) DO UPDATE SET edited_at = excluded.edited_at, "
            "version = excluded.version",
            (game_id, now, version),
        )

    # --- inside a transaction ---------------------------------------------------------------

    async def _get(self, tx: Tx, game_id: str) -> GameRecord | None:
        row = await tx.fetchone(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return None if row is None else _game(row)

    async def _require(self, tx: Tx, game_id: str) -> GameRecord:
        record = await self._get(tx, game_id)
        if record is None:
            raise GameNotFoundError(game_id)
        return record

    async def _require_at(self, tx: Tx, game_id: str, expected_version: int | None) -> GameRecord:
        # A step based on an older version is stale whatever became of the game since (another
        # process may have ended it): say so before judging the status it was based on.
        record = await self._require(tx, game_id)
        if expected_version is not None and record.version != expected_version:
            raise StaleVersionError(game_id, expected_version, record.version)
        return record

    async def _open_in_channel(self, tx: Tx, channel_id: int) -> GameRecord | None:
        row = await tx.fetchone(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? AND {_OPEN}", (channel_id,)
        )
        return None if row is None else _game(row)

    async def _update(
        self, tx: Tx, game_id: str, expected_version: int, fields: dict[str, object]
    ) -> GameRecord:
        # Column names come from this module's own keyword arguments, never from callers' text.
        assignments = "".join(f", {column} = :{column}" for column in fields)
        row = await tx.fetchone(
            f"UPDATE games SET version = version + 1{assignments} "
            f"WHERE id = :game_id AND version = :expected RETURNING {_GAME_COLUMNS}",
            {**fields, "game_id": game_id, "expected": expected_version},
        )
        if row is None:
            current = await self._require(tx, game_id)
            raise StaleVersionError(game_id, expected_version, current.version)
        return _game(row)


def _end_fields(end: GameEnd) -> dict[str, object]:
    return {
        "status": str(end.status),
        "finished_at": to_db_time(end.finished_at),
        "winner_seat": end.winner_seat,
        "deadline": None,
    }
