"""The table service's state and what every part of it uses: finding a table, the checks of
where a table is (lobby, running, host), and turn deadlines."""

from __future__ import annotations

import random
import secrets

from bot.engine.family import State as AnyState
from bot.services.chips import ChipsService
from bot.services.clock import Clock
from bot.services.errors import UserError
from bot.services.ratings import RatingService
from bot.services.server import ServerService
from bot.services.tables.model import (
    RESTORE_FLOOR_SECONDS,
    Listener,
    Quarantined,
    Table,
    TableDefaults,
)
from bot.storage.games import GamesRepo, GameStatus

__all__ = ["TableCore"]


def _reason(exc: BaseException) -> str:
    """A short, one-line reason for an operator log and the database."""
    text = " ".join(f"{type(exc).__name__}: {exc}".split())
    return text[:300]


class TableCore:
    """The state of the table service, lookups, and the helpers every part uses.

    The first of the layers :class:`~bot.services.tables.service.TableService` is made of (see
    there)."""

    def __init__(
        self,
        games: GamesRepo,
        chips: ChipsService,
        clock: Clock,
        defaults: TableDefaults | None = None,
        rng: random.Random | None = None,
        server: ServerService | None = None,
        ratings: RatingService | None = None,
    ) -> None:
        """``rng`` shuffles deals (tests pass a seeded one; production uses system entropy);
        ``server`` holds the per-server play settings and seat states (defaults without it);
        ``ratings`` records and rates every finished game (none: games are not rated)."""
        self._ratings = ratings
        self._games = games
        self._chips = chips
        self._server = server
        self._clock = clock
        self.defaults = defaults or TableDefaults()
        self._rng = rng or random.Random(secrets.randbits(64))
        self._tables: dict[int, Table] = {}
        self._failures: dict[str, int] = {}
        self._retry_at: dict[str, float] = {}
        self.unrepaired: list[str] = []
        """What the last :meth:`repair` found and could not fix (logged at ERROR by restore)."""
        self.quarantined: list[Quarantined] = []
        """Games quarantined by :meth:`restore` (for the cogs to post a notice in each channel)."""
        self.repairs: list[str] = []
        """What :meth:`restore`'s repair pass did, in words."""
        self._ai_rng = random.Random(self._rng.getrandbits(64))
        self.end_listeners: list[Listener] = []
        """Called with the outcome of every game that ended (see :meth:`notify_ended`)."""

    # ----------------------------------------------------------------------------- lookups

    def get(self, channel_id: int) -> Table | None:
        """The table in a channel, if any (lobby, running, or just finished)."""
        return self._tables.get(channel_id)

    def require(self, channel_id: int) -> Table:
        """The table in a channel; a clear error when there is none."""
        table = self._tables.get(channel_id)
        if table is None:
            raise UserError("There is no table in this channel. Open one with `/table new`.")
        return table

    def tables(self) -> list[Table]:
        """Every table this process holds."""
        return list(self._tables.values())

    # ----------------------------------------------------------------------------- checks

    @staticmethod
    def _need_lobby(table: Table) -> None:
        if table.status is not GameStatus.LOBBY:
            raise UserError("The game has already started.")

    @staticmethod
    def _need_host(table: Table, user_id: int) -> None:
        if user_id != table.host_id:
            raise UserError("Only the host can do that.")

    @staticmethod
    def _need_running(table: Table) -> AnyState:
        if table.status is not GameStatus.RUNNING or table.state is None:
            if table.status is GameStatus.LOBBY:
                raise UserError("The game has not started yet.")
            raise UserError("This game is over.")
        return table.state

    # ----------------------------------------------------------------------------- deadlines

    def _deadline_for(self, table: Table, state: AnyState) -> float | None:
        if state.result is not None or table.seats[state.current].is_ai:
            return None
        return self._clock.now().timestamp() + table.turn_seconds

    def _deadline_after(self, table: Table, before: AnyState, after: AnyState) -> float | None:
        # The timer runs per turn: it is re-armed only when the turn passes to someone else.
        if after.result is not None or table.seats[after.current].is_ai:
            return None
        if after.current == before.current and after.turn == before.turn:
            return table.deadline
        return self._clock.now().timestamp() + table.turn_seconds

    def _restored_deadline(
        self, table: Table, state: AnyState, last_seen: float | None
    ) -> float | None:
        """A human's deadline after a restart: he gets back at least the time he had left when
        the bot was last seen alive (never less than :data:`RESTORE_FLOOR_SECONDS`)."""
        now = self._clock.now().timestamp()
        if table.deadline is None:
            return self._deadline_for(table, state)
        seen = now if last_seen is None else min(last_seen, now)
        left = max(float(RESTORE_FLOOR_SECONDS), table.deadline - seen)
        return max(table.deadline, now + left)
