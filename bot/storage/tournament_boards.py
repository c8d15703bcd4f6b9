"""SQL for the live standings board of a tournament (migration ``*_boards.sql``;
docs/tournaments.md, "Live standings").

Apart from :mod:`bot.storage.tournaments` because the board is written apart from the event:
its row changes when the message is drawn, never with the event's state (whose writes are
version-checked), so drawing the board never makes an event's step fail.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.db import Tx

__all__ = ["BoardRow", "BoardsRepo"]


@dataclass(frozen=True, slots=True)
class BoardRow:
    """What was last drawn on an event's board."""

    message_id: int | None
    """The board's message when it is no longer the sign-up message (posted again)."""
    version: int
    """The event's version the board last showed."""
    drawn_at: float


class BoardsRepo:
    """The ``tournament_boards`` rows."""

    async def get(self, tx: Tx, tournament_id: int) -> BoardRow | None:
        """The board's row, if it was ever drawn."""
        row = await tx.fetchone(
            "SELECT message_id, version, drawn_at FROM tournament_boards WHERE tournament_id = ?",
            (tournament_id,),
        )
        if row is None:
            return None
        message = row[0]
        return BoardRow(None if message is None else int(message), int(row[1]), float(row[2]))

    async def behind(self, tx: Tx, statuses: tuple[str, ...], ended_since: str) -> list[int]:
        """The events with a sign-up message whose board shows an older version than the
        event's (or was never drawn): those in ``statuses``, and those that ended at or after
        ``ended_since`` (a stored time)."""
        marks = ", ".join("?" for _ in statuses)
        rows = await tx.fetchall(
            "SELECT t.id FROM tournaments t LEFT JOIN tournament_boards b "
            "ON b.tournament_id = t.id WHERE t.message_id IS NOT NULL "
            "AND (b.version IS NULL OR b.version < t.version) "
            f"AND (t.status IN ({marks}) OR t.finished_at >= ?) ORDER BY t.id",
            (*statuses, ended_since),
        )
        return [int(r[0]) for r in rows]

    async def drawn(
        self, tx: Tx, tournament_id: int, message_id: int | None, version: int, at: float
    ) -> None:
        """Record a drawing of the board: the event's ``version`` it showed, in ``message_id``
        (None: the sign-up message)."""
        await tx.execute(
            "INSERT INTO tournament_boards (tournament_id, message_id, version, drawn_at) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (tournament_id) DO UPDATE SET "
            "message_id = excluded.message_id, version = excluded.version, "
            "drawn_at = excluded.drawn_at",
            (tournament_id, message_id, version, at),
        )
