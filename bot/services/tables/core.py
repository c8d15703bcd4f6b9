"""The table service's state and what every part of it uses: finding a table, the checks of
where a table is (lobby, running, host), and turn deadlines.

The tables held here are a cache of the database (issue 20: any process serves any table):
the store layer (:meth:`~bot.services.tables.store.TableStore._locked`) checks a copy against
its game row before every action."""

from __future__ import annotations

import random
import secrets

from bot.engine.family import State as AnyState
from bot.locale import N_
from bot.services.chips import ChipsService
from bot.services.clock import Clock
from bot.services.errors import UserError
from bot.services.ratings import RatingService
from bot.services.server import ServerService
from bot.services.tables.model import (
    RESTORE_FLOOR_SECONDS,
    ActListener,
    Listener,
    Quarantined,
    Table,
    TableDefaults,
)
from bot.storage.games import GamesRepo, GameStatus

__all__ = ["NO_TABLE", "OUT_OF_DATE", "StaleTable", "TableCore"]

OUT_OF_DATE = N_("That action is out of date: the table has moved on.")
"""The refusal of an action drawn for a state the table has left (a doubled click, a retried
interaction, or another process that moved the table first)."""

LIVE_SECONDS = 15.0
"""With several processes, a heartbeat (or any write) this recent means the fleet was alive."""

NO_TABLE = N_("There is no table in this channel. Open one with `/table new`.")


class StaleTable(UserError):
    """A commit found the game row at a newer version than the cached table: another process
    (or a doubled interaction) moved it first. The action is refused with the ordinary "out of
    date" message; the table is rebuilt from the database before anything else acts on it."""

    def __init__(self) -> None:
        super().__init__(OUT_OF_DATE)


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
        *,
        poll_seconds: float | None = None,
    ) -> None:
        """``rng`` shuffles deals (tests pass a seeded one; production uses system entropy);
        ``server`` holds the per-server play settings and seat states (defaults without it);
        ``ratings`` records and rates every finished game (none: games are not rated);
        ``poll_seconds``: set when other processes share the database (see
        :attr:`poll_seconds`)."""
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
        self.act_listeners: list[ActListener] = []
        """Called after a member played an action himself, not his timer (a tournament's
        no-show window counts it as showing up); a failing one is logged, never blocks play."""
        self.poll_seconds = poll_seconds
        """None when this process is the database's only one (SQLite's file lock): every
        deadline is one of its own tables'. Set (at most 2 s) when several processes share the
        database: the scheduler looks for due rows at least that often, and a live process
        records a heartbeat, so a restart of another gives back no time."""
        self._polled_at = float("-inf")
        self._alive_at = float("-inf")
        self.last_seen: float | None = None
        """When the bot was last seen alive before this start (set by ``restore_all``)."""
        self._pruned_at = float("-inf")

    # ----------------------------------------------------------------------------- lookups

    def get(self, channel_id: int) -> Table | None:
        """The table this process holds in a channel, if any (lobby, running, or just finished):
        its cached copy, which another process may have moved on (see :meth:`lookup`)."""
        return self._tables.get(channel_id)

    def require(self, channel_id: int) -> Table:
        """The cached table in a channel; a clear error when there is none."""
        table = self._tables.get(channel_id)
        if table is None:
            raise UserError(NO_TABLE)
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
        if self.poll_seconds is not None and now - seen <= LIVE_SECONDS:
            # Another process was alive moments ago: its turn timers ran, no down time.
            return table.deadline
        left = max(float(RESTORE_FLOOR_SECONDS), table.deadline - seen)
        return max(table.deadline, now + left)
