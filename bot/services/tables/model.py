"""What a table is: its seats, its state and what a call changed (:class:`Outcome`), and the
limits the table service keeps to."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot import limits
from bot.engine.family import Action as AnyAction
from bot.engine.family import Event as AnyEvent
from bot.engine.family import Rules, engine_of
from bot.engine.family import State as AnyState
from bot.engine.family import View as AnyView
from bot.locale import N_
from bot.storage.games import GameStatus

__all__ = [
    "DIFFERENCE",
    "EXPIRY_CONCURRENCY",
    "FAILURE_LIMIT",
    "MAX_RECENT",
    "MAX_SETTLE_RATE",
    "POT",
    "QUARANTINE_NOTICE",
    "RESTORE_FLOOR_SECONDS",
    "RETRY_SECONDS",
    "ActListener",
    "Listener",
    "Outcome",
    "Quarantined",
    "SeatInfo",
    "Step",
    "Table",
    "TableDefaults",
    "TableStatus",
]

MAX_RECENT = 10
"""How many recent public events a table keeps for its message."""

MAX_SETTLE_RATE = limits.MAX_SETTLE_RATE
"""Largest ``settle_rate`` (chips per point) a table may use."""

EXPIRY_CONCURRENCY = 16
"""How many tables' expired turns are played at once (the rest wait their turn)."""

FAILURE_LIMIT = 3
"""A table whose turn timer fails this many times in a row is quarantined."""

RETRY_SECONDS = 5.0
"""How long a table whose timer failed waits before the next attempt."""

QUARANTINE_NOTICE = N_(
    "⚠️ This table ran into an error it could not recover from and was closed. "
    "Every ante was refunded; open a new table with `/table new`."
)
"""What the cogs post in the channel of a quarantined table."""

RESTORE_FLOOR_SECONDS = 30
"""After a restart a human to play gets back at least this long (down time does not count)."""

POT = "pot"
DIFFERENCE = "difference"

TableStatus = GameStatus


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Who sits in a seat: a member (``user_id``) or a computer player (``ai_level``)."""

    name: str
    user_id: int | None = None
    ai_level: str | None = None

    @property
    def is_ai(self) -> bool:
        """True for a computer seat."""
        return self.user_id is None

    def to_json(self) -> dict[str, Any]:
        """JSON-friendly form for storage."""
        return {"name": self.name, "user_id": self.user_id, "ai_level": self.ai_level}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SeatInfo:
        """Inverse of :meth:`to_json`."""
        user_id = data.get("user_id")
        return cls(
            name=str(data["name"]),
            user_id=None if user_id is None else int(user_id),
            ai_level=data.get("ai_level"),
        )


@dataclass(frozen=True, slots=True)
class TableDefaults:
    """Server-wide defaults for new tables."""

    ante: int = 10
    turn_seconds: int = 120
    timeout_ai_level: str = "greedy"


@dataclass(slots=True)
class Table:
    """One table (lobby or game) in one channel."""

    id: str
    guild_id: int
    channel_id: int
    host_id: int
    game: str
    """The game's registered name (``kap-shap``)."""
    rule_set: str | None
    sets: int | None
    ante: int
    max_seats: int
    turn_seconds: int
    seats: list[SeatInfo]
    status: GameStatus = GameStatus.LOBBY
    version: int = 0
    state: AnyState | None = None
    deadline: float | None = None
    message_id: int | None = None
    thrower: int = 0
    recent: list[str] = field(default_factory=list)
    settlement: str = POT
    settle_rate: int = 1
    carried: int = 0  # chips carried over from a drawn game into this game's pot
    variants: dict[str, str] = field(default_factory=dict)  # flag -> value, as the host chose
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    timeouts: dict[int, int] = field(default_factory=dict)
    """Consecutive timed-out turns per seat (reset when the player acts himself)."""
    out: dict[int, str] = field(default_factory=dict)
    """Seats out of the game (``folded`` or ``resigned``): their turns pass passively."""
    end_text: str | None = None
    """How a game ended that the engine did not end (a resignation or forfeit), for its DMs."""
    lobby_closes_at: float | None = None
    """When a lobby nobody starts closes itself (epoch seconds)."""
    winner_seat: int | None = None
    """The winning seat of a game that ended by a resignation or forfeit (or before a restart)."""
    rated: bool = True
    """Whether the game counts for the ratings (the host's choice; a tournament's always does).
    An unrated table is where hints are allowed (:meth:`hints_allowed`)."""

    def hints_allowed(self) -> bool:
        """Whether a member may ask for a hint here: an unrated game where every other seat is
        a computer, so a hint never helps anyone against a human."""
        return not self.rated and sum(1 for s in self.seats if not s.is_ai) == 1

    def log_ids(self) -> dict[str, object]:
        """What a log line about this table says it is about (:func:`bot.logs.bound`)."""
        return {
            "server": self.guild_id,
            "channel": self.channel_id,
            "table": self.id,
            "game": self.game,
        }

    @property
    def by_difference(self) -> bool:
        """True when the loser pays ``settle_rate`` chips per point instead of a pot."""
        return self.settlement == DIFFERENCE

    @property
    def pot(self) -> int:
        """The chips played for: every seat's ante (a computer seat's is staked by the house)
        plus a pot carried over from a drawn game (0 when settled by point difference)."""
        if self.by_difference:
            return 0
        return self.ante * len(self.seats) + self.carried

    @property
    def rules(self) -> Rules | None:
        """The rules in force once the game started."""
        return None if self.state is None else self.state.rules

    @property
    def running(self) -> bool:
        """True while a game is being played."""
        return self.status is GameStatus.RUNNING

    def seat_of(self, user_id: int) -> int | None:
        """The seat of a member, or None if he is not seated."""
        for i, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return i
        return None

    def view_for(self, user_id: int | None) -> AnyView | None:
        """The engine view for a member (his seat's view, or a spectator's): a ``View`` for
        the collecting games, a ``FishingView`` for Tsung Shap."""
        if self.state is None:
            return None
        seat = None if user_id is None else self.seat_of(user_id)
        found: AnyView = engine_of(self.game).view(self.state, seat)
        return found

    def legal(self) -> list[AnyAction]:
        """The current player's legal actions (empty unless a game is being played)."""
        state = self.state
        if state is None or state.result is not None:
            return []
        return list(engine_of(self.game).legal_actions(state))

    @property
    def current_seat(self) -> SeatInfo | None:
        """Who is to act, while running."""
        if self.state is None or self.state.result is not None:
            return None
        return self.seats[self.state.current]

    def human_ids(self) -> list[int]:
        """Members seated at this table."""
        return [s.user_id for s in self.seats if s.user_id is not None]


@dataclass(frozen=True, slots=True)
class Step:
    """One applied action and its events, for whoever shows them."""

    seat: int
    action: AnyAction
    events: tuple[AnyEvent, ...]
    by_timeout: bool = False
    ended: bool = False
    """Whether this action ended the game (its new state has a result)."""


@dataclass(slots=True)
class Outcome:
    """What a call changed: the applied steps and, at the end, the settlement."""

    table: Table
    steps: list[Step] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    settlement: str | None = None
    forfeit: bool = False
    quarantined: bool = False

    @property
    def finished(self) -> bool:
        """Whether the game ended during this call (by its rules, or a resignation/forfeit)."""
        return self.forfeit or any(step.ended for step in self.steps)

    def hands_changed(self) -> set[int]:
        """Seats whose hands changed."""
        return {step.seat for step in self.steps}


Listener = Callable[[Outcome], Awaitable[None]]

ActListener = Callable[[Table, int], Awaitable[None]]
"""``(table, user_id)``: a member played an action himself (not his turn timer)."""


@dataclass(frozen=True, slots=True)
class Quarantined:
    """A game closed because it could not go on: where it was and why."""

    game_id: str
    guild_id: int
    channel_id: int
    reason: str
