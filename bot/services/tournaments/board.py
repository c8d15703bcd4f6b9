"""The live standings board (issue 23): one message per event in its channel, the sign-up
message itself, drawn again after every result and ending as the final results board.

The Discord side (what the board shows, the picture, the coalescing of edits) is the cog's;
here is what keeps the board right across restarts and processes: whose turn it is to draw it
(the board's lock, in this process and across processes), whether the version of the event to
draw was drawn already (by any process: then nothing is edited), and which message is the board
(the sign-up message, or the one posted again after it was deleted), all stored in
``tournament_boards`` (migration ``*_boards.sql``) apart from the event's own row.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta

from bot.services.tournaments.host import OPEN_STATUSES, TournamentView
from bot.services.tournaments.presence import TournamentPresence
from bot.storage.timestamps import to_db_time
from bot.storage.tournament_boards import BoardsRepo

__all__ = ["BOARD_CATCH_UP", "BOARD_LOCK_WAIT", "BoardTurn", "TournamentBoard"]

BOARD_LOCK_WAIT = 10.0
"""How long (seconds) a process waits for another drawing the same board (one edit, at most a
picture's rendering and an upload)."""

BOARD_CATCH_UP = timedelta(days=1)
"""How long after its end an event's board is still brought up to date at a start."""


@dataclass(slots=True)
class BoardTurn:
    """A turn to draw an event's board: the event as it stands, and the message to edit."""

    view: TournamentView
    message_id: int | None
    """The board's message (None: the event has none to edit)."""


class TournamentBoard(TournamentPresence):
    """Turns to draw an event's live standings board."""

    @asynccontextmanager
    async def board_turn(
        self, tournament_id: int, *, redraw: bool = False
    ) -> AsyncIterator[BoardTurn | None]:
        """Hold the board's lock (other drawings of it, here and in other processes, wait)
        and yield the event to draw, read under the lock, so that the last edit to land is
        always of the latest state; None when there is nothing to draw: this version of the
        event was drawn already (by any process). ``redraw``: draw even so (a change the
        event's version does not tell: an entrant joined, a member clicked)."""
        lock = self._board_locks.setdefault(tournament_id, asyncio.Lock())
        async with lock, self._held(f"tournament-board:{tournament_id}", BOARD_LOCK_WAIT):
            view = await self.view(tournament_id)
            async with self._db.read() as tx:
                row = await BoardsRepo().get(tx, tournament_id)
            if not redraw and row is not None and row.version >= view.record.version:
                yield None
                return
            moved = None if row is None else row.message_id
            yield BoardTurn(view, moved if moved is not None else view.record.message_id)

    async def boards_behind(self) -> list[int]:
        """The events whose board is behind the event (the bot stopped between a commit and
        the board's drawing: after a result, or after the end, which no later pass redraws):
        the open ones and those that ended within :data:`BOARD_CATCH_UP`. Called at a start;
        events older than this feature are left as they are."""
        since = to_db_time(self._clock.now() - BOARD_CATCH_UP)
        async with self._db.read() as tx:
            return await BoardsRepo().behind(tx, OPEN_STATUSES, since)

    async def board_drawn(self, turn: BoardTurn, message_id: int | None) -> None:
        """The board was drawn from ``turn`` in ``message_id`` (a message posted again when
        the board was deleted; the one it edited otherwise): no process draws that version
        again, and later drawings edit that message."""
        record = turn.view.record
        moved = None if message_id == record.message_id else message_id
        async with self._db.transaction() as tx:
            await BoardsRepo().drawn(
                tx, record.id, moved, record.version, self._clock.now().timestamp()
            )
