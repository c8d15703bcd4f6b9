"""SQL for tournaments (migration ``*_tournaments.sql``; docs/tournaments.md §3).

Stateless like the other repositories: every method works inside the caller's transaction, so
the service writes an event's state, its match rows and any chip movement in one commit.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot.storage.db import Row, Tx
from bot.storage.errors import StaleVersionError
from bot.storage.timestamps import from_db_time, to_db_time

__all__ = ["EntryRecord", "MatchRow", "TournamentRecord", "TournamentsRepo"]

OPEN_STATUSES = ("registration", "check-in", "running", "paused")


@dataclass(slots=True)
class TournamentRecord:
    """One stored event."""

    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    name: str
    organiser_id: int
    status: str
    settings: dict[str, Any]
    options: dict[str, Any]
    state: dict[str, Any] | None
    version: int
    closes_at: datetime | None
    round_deadline: datetime | None
    paused_left: float | None
    created_at: datetime
    finished_at: datetime | None
    results: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class EntryRecord:
    """A member (or computer filler, negative id) entered in an event."""

    user_id: int
    name: str
    ai_level: str | None
    joins: int
    active: bool
    checked_in: bool


@dataclass(slots=True)
class MatchRow:
    """Which thread plays a match and the games it has played so far."""

    match_id: str
    round: int
    thread_id: int | None
    game_ids: list[str] = field(default_factory=list)
    games: list[dict[str, Any]] = field(default_factory=list)
    seatings: dict[str, list[int]] = field(default_factory=dict)
    """Game id -> the players seated at it, in seat order (a table plays on without a player
    who dropped, so its seats may be fewer than the match's players)."""


def _time(value: str | None) -> datetime | None:
    return None if value is None else from_db_time(value)


def _record(row: Row) -> TournamentRecord:
    return TournamentRecord(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        message_id=row["message_id"],
        name=str(row["name"]),
        organiser_id=int(row["organiser_id"]),
        status=str(row["status"]),
        settings=json.loads(row["settings_json"]),
        options=json.loads(row["options_json"]),
        state=None if row["state_json"] is None else json.loads(row["state_json"]),
        version=int(row["version"]),
        closes_at=_time(row["closes_at"]),
        round_deadline=_time(row["round_deadline"]),
        paused_left=row["paused_left"],
        created_at=from_db_time(row["created_at"]),
        finished_at=_time(row["finished_at"]),
        results=None if row["results_json"] is None else json.loads(row["results_json"]),
    )


def _match_row(r: Any) -> MatchRow:
    """(match_id, round, thread_id, game_ids, games_json, seatings_json) -> MatchRow."""
    return MatchRow(
        str(r[0]),
        int(r[1]),
        r[2],
        json.loads(r[3]),
        json.loads(r[4]),
        {str(k): [int(p) for p in v] for k, v in json.loads(r[5]).items()},
    )


class TournamentsRepo:
    """Events, their entries and their match rows."""

    async def create(
        self,
        tx: Tx,
        *,
        guild_id: int,
        channel_id: int,
        name: str,
        organiser_id: int,
        settings: dict[str, Any],
        options: dict[str, Any],
        closes_at: datetime | None,
        created_at: datetime,
    ) -> int:
        """A new event in registration; its id."""
        return await tx.insert(
            "INSERT INTO tournaments (guild_id, channel_id, name, organiser_id, status, "
            "settings_json, options_json, closes_at, created_at) "
            "VALUES (?, ?, ?, ?, 'registration', ?, ?, ?, ?)",
            (
                guild_id,
                channel_id,
                name,
                organiser_id,
                json.dumps(settings),
                json.dumps(options),
                None if closes_at is None else to_db_time(closes_at),
                to_db_time(created_at),
            ),
        )

    async def get(self, tx: Tx, tournament_id: int) -> TournamentRecord | None:
        """One event."""
        row = await tx.fetchone("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
        return None if row is None else _record(row)

    async def list_open(self, tx: Tx) -> list[TournamentRecord]:
        """Every event in registration, check-in, running or paused (oldest first)."""
        rows = await tx.fetchall(
            "SELECT * FROM tournaments WHERE status IN (?, ?, ?, ?) ORDER BY id", OPEN_STATUSES
        )
        return [_record(r) for r in rows]

    async def list_guild(
        self, tx: Tx, guild_id: int, statuses: tuple[str, ...], limit: int = 10
    ) -> list[TournamentRecord]:
        """A server's events of these statuses, newest first."""
        marks = ", ".join("?" for _ in statuses)
        rows = await tx.fetchall(
            f"SELECT * FROM tournaments WHERE guild_id = ? AND status IN ({marks}) "
            "ORDER BY id DESC LIMIT ?",
            (guild_id, *statuses, limit),
        )
        return [_record(r) for r in rows]

    async def update(self, tx: Tx, record: TournamentRecord) -> None:
        """Write every mutable field of ``record``; its version goes up by one.

        Raises :class:`StaleVersionError` when the row is no longer at the version ``record``
        was read at (another process changed the event meanwhile): nothing is written."""
        read_at = record.version
        changed = await tx.execute(
            "UPDATE tournaments SET message_id = ?, status = ?, state_json = ?, version = ?, "
            "closes_at = ?, round_deadline = ?, paused_left = ?, finished_at = ?, "
            "results_json = ?, settings_json = ?, options_json = ? WHERE id = ? AND version = ?",
            (
                record.message_id,
                record.status,
                None if record.state is None else json.dumps(record.state),
                read_at + 1,
                None if record.closes_at is None else to_db_time(record.closes_at),
                None if record.round_deadline is None else to_db_time(record.round_deadline),
                record.paused_left,
                None if record.finished_at is None else to_db_time(record.finished_at),
                None if record.results is None else json.dumps(record.results),
                json.dumps(record.settings),
                json.dumps(record.options),
                record.id,
                read_at,
            ),
        )
        if not changed:
            actual = await tx.scalar("SELECT version FROM tournaments WHERE id = ?", (record.id,))
            raise StaleVersionError(f"tournament {record.id}", read_at, int(actual or 0))
        record.version = read_at + 1

    # --- entries ---------------------------------------------------------------------------

    async def entries(
        self, tx: Tx, tournament_id: int, *, active_only: bool = True
    ) -> list[EntryRecord]:
        """The entries of an event, in the order they joined."""
        rows = await tx.fetchall(
            "SELECT user_id, name, ai_level, joins, active, checked_in FROM tournament_entries "
            "WHERE tournament_id = ?"
            + (" AND active = 1" if active_only else "")
            + " ORDER BY joined_at, user_id",
            (tournament_id,),
        )
        return [
            EntryRecord(int(r[0]), str(r[1]), r[2], int(r[3]), bool(r[4]), bool(r[5])) for r in rows
        ]

    async def entry(self, tx: Tx, tournament_id: int, user_id: int) -> EntryRecord | None:
        """One entry (active or not)."""
        row = await tx.fetchone(
            "SELECT user_id, name, ai_level, joins, active, checked_in FROM tournament_entries "
            "WHERE tournament_id = ? AND user_id = ?",
            (tournament_id, user_id),
        )
        if row is None:
            return None
        return EntryRecord(
            int(row[0]), str(row[1]), row[2], int(row[3]), bool(row[4]), bool(row[5])
        )

    async def add_entry(
        self,
        tx: Tx,
        tournament_id: int,
        user_id: int,
        name: str,
        ai_level: str | None,
        joined_at: datetime,
    ) -> int:
        """Enter a member (again): the number of times he has joined, this one included."""
        await tx.execute(
            "INSERT INTO tournament_entries (tournament_id, user_id, name, ai_level, joined_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (tournament_id, user_id) DO UPDATE SET "
            "joins = tournament_entries.joins + 1, active = 1, checked_in = 0, "
            "name = excluded.name, joined_at = excluded.joined_at",
            (tournament_id, user_id, name, ai_level, to_db_time(joined_at)),
        )
        return int(
            await tx.scalar(
                "SELECT joins FROM tournament_entries WHERE tournament_id = ? AND user_id = ?",
                (tournament_id, user_id),
            )
        )

    async def remove_entry(self, tx: Tx, tournament_id: int, user_id: int) -> None:
        """Mark an entry as left (kept: its join count names the next buy-in's key)."""
        await tx.execute(
            "UPDATE tournament_entries SET active = 0 WHERE tournament_id = ? AND user_id = ?",
            (tournament_id, user_id),
        )

    async def check_in(self, tx: Tx, tournament_id: int, user_id: int) -> None:
        """Mark an entry as checked in."""
        await tx.execute(
            "UPDATE tournament_entries SET checked_in = 1 WHERE tournament_id = ? AND user_id = ?",
            (tournament_id, user_id),
        )

    # --- matches ---------------------------------------------------------------------------

    async def matches(
        self, tx: Tx, tournament_id: int, round_number: int, only: Sequence[str] | None = None
    ) -> list[MatchRow]:
        """The match rows of one round; with ``only``, of those matches alone (an arena's one
        round holds every game of the event, and a step needs the few in play)."""
        sql = (
            "SELECT match_id, round, thread_id, game_ids, games_json, seatings_json "
            "FROM tournament_matches WHERE tournament_id = ? AND round = ?"
        )
        args: tuple[object, ...] = (tournament_id, round_number)
        if only is not None:
            if not only:
                return []
            sql += f" AND match_id IN ({', '.join('?' for _ in only)})"
            args += tuple(only)
        rows = await tx.fetchall(sql + " ORDER BY match_id", args)
        return [_match_row(r) for r in rows]

    async def all_matches(self, tx: Tx, tournament_id: int) -> list[MatchRow]:
        """The match rows of every round, in round order (an export's games)."""
        rows = await tx.fetchall(
            "SELECT match_id, round, thread_id, game_ids, games_json, seatings_json "
            "FROM tournament_matches WHERE tournament_id = ? ORDER BY round, match_id",
            (tournament_id,),
        )
        return [_match_row(r) for r in rows]

    async def put_match(self, tx: Tx, tournament_id: int, row: MatchRow) -> None:
        """Insert or replace a match row."""
        await tx.execute(
            "INSERT INTO tournament_matches (tournament_id, match_id, round, thread_id, "
            "game_ids, games_json, seatings_json) VALUES (?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (tournament_id, round, match_id) DO UPDATE SET "
            "thread_id = excluded.thread_id, game_ids = excluded.game_ids, "
            "games_json = excluded.games_json, seatings_json = excluded.seatings_json",
            (
                tournament_id,
                row.match_id,
                row.round,
                row.thread_id,
                json.dumps(row.game_ids),
                json.dumps(row.games),
                json.dumps(row.seatings),
            ),
        )

    async def delete_round_matches(self, tx: Tx, tournament_id: int, round_number: int) -> None:
        """Forget the match rows of a round taken back before it was played."""
        await tx.execute(
            "DELETE FROM tournament_matches WHERE tournament_id = ? AND round = ?",
            (tournament_id, round_number),
        )

    async def match_by_thread(self, tx: Tx, thread_id: int) -> tuple[int, MatchRow] | None:
        """The latest match played in a thread, with its event id."""
        row = await tx.fetchone(
            "SELECT tournament_id, match_id, round, thread_id, game_ids, games_json, "
            "seatings_json FROM tournament_matches WHERE thread_id = ? "
            "ORDER BY round DESC LIMIT 1",
            (thread_id,),
        )
        if row is None:
            return None
        return int(row[0]), _match_row(tuple(row)[1:])

    # --- no-show windows (migration 0013) ---------------------------------------------------

    async def open_window(
        self, tx: Tx, tournament_id: int, round_number: int, match_id: str, deadline: float
    ) -> None:
        """Open a match's no-show window, unless it has one (open or decided) already."""
        await tx.execute(
            "INSERT INTO tournament_windows (tournament_id, round, match_id, deadline) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (tournament_id, round, match_id) DO NOTHING",
            (tournament_id, round_number, match_id, deadline),
        )

    async def window(
        self, tx: Tx, tournament_id: int, round_number: int, match_id: str
    ) -> float | None:
        """The deadline of a match's open window (None: none, or decided already)."""
        value = await tx.scalar(
            "SELECT deadline FROM tournament_windows "
            "WHERE tournament_id = ? AND round = ? AND match_id = ?",
            (tournament_id, round_number, match_id),
        )
        return None if value is None else float(value)

    async def due_windows(self, tx: Tx, now: float) -> list[tuple[int, int, str]]:
        """The open windows whose deadline has passed: (event, round, match)."""
        rows = await tx.fetchall(
            "SELECT tournament_id, round, match_id FROM tournament_windows "
            "WHERE deadline IS NOT NULL AND deadline <= ? ORDER BY deadline",
            (now,),
        )
        return [(int(r[0]), int(r[1]), str(r[2])) for r in rows]

    async def close_window(
        self, tx: Tx, tournament_id: int, round_number: int, match_id: str
    ) -> None:
        """Mark a window decided (it never fires or opens again)."""
        await tx.execute(
            "UPDATE tournament_windows SET deadline = NULL "
            "WHERE tournament_id = ? AND round = ? AND match_id = ?",
            (tournament_id, round_number, match_id),
        )

    async def shift_windows(self, tx: Tx, seen: float, seconds: float) -> None:
        """Give the open windows still running at ``seen`` (when the bot was last alive) back
        ``seconds`` (its down time)."""
        await tx.execute(
            "UPDATE tournament_windows SET deadline = deadline + ? "
            "WHERE deadline IS NOT NULL AND deadline > ?",
            (seconds, seen),
        )

    async def delete_round_windows(self, tx: Tx, tournament_id: int, round_number: int) -> None:
        """Forget the windows (and Ready presses) of a round taken back before it was played."""
        for table in ("tournament_windows", "tournament_ready"):
            await tx.execute(
                f"DELETE FROM {table} WHERE tournament_id = ? AND round = ?",
                (tournament_id, round_number),
            )

    async def mark_ready(
        self, tx: Tx, tournament_id: int, round_number: int, match_id: str, user_id: int
    ) -> None:
        """A player pressed Ready in his match's window."""
        await tx.execute(
            "INSERT INTO tournament_ready (tournament_id, round, match_id, user_id) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (tournament_id, round, match_id, user_id) DO NOTHING",
            (tournament_id, round_number, match_id, user_id),
        )

    async def ready(self, tx: Tx, tournament_id: int, round_number: int, match_id: str) -> set[int]:
        """Who pressed Ready in a match's window."""
        rows = await tx.fetchall(
            "SELECT user_id FROM tournament_ready "
            "WHERE tournament_id = ? AND round = ? AND match_id = ?",
            (tournament_id, round_number, match_id),
        )
        return {int(r[0]) for r in rows}

    # --- configuration ---------------------------------------------------------------------

    async def organiser_role(self, tx: Tx, guild_id: int) -> int | None:
        """The server's organiser role, if one is set."""
        value = await tx.scalar(
            "SELECT organiser_role_id FROM tournament_config WHERE guild_id = ?", (guild_id,)
        )
        return None if value is None else int(value)

    async def set_organiser_role(self, tx: Tx, guild_id: int, role_id: int | None) -> None:
        """Set (or clear) the server's organiser role."""
        await tx.execute(
            "INSERT INTO tournament_config (guild_id, organiser_role_id) VALUES (?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET organiser_role_id = excluded.organiser_role_id",
            (guild_id, role_id),
        )
