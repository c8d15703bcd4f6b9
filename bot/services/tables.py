"""Tables: one lobby or game per channel, driven through the engine, persisted after every action.

The Discord cogs call this service and nothing else for play. Every change is committed to the
database before the call returns, so what a player is shown has always been saved. A restart
rebuilds each unfinished table by replaying its action log (:meth:`TableService.restore`).

Concurrency: every table has one :class:`asyncio.Lock`; every mutating call takes it, and a call
that names the version it was drawn for (a button) is refused as out of date if the table moved
on, so a doubled click never acts twice.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import random
import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot import limits
from bot.ai.base import AnyPlayer, levels_for, player_for
from bot.engine import (
    AmbiguousTile,
    AnyAction,
    AnyEvent,
    AnyState,
    AnyView,
    Deal,
    Declared,
    Discard,
    EngineError,
    FishingAction,
    FishingState,
    Game,
    GameDrawn,
    GameOver,
    GameState,
    IllegalAction,
    RuleSet,
    Take,
    TurnStarted,
    apply,
    describe_event,
    difference_payment,
    legal_actions,
    make_deal,
    make_rules,
    new_game,
    parse_action,
    view,
)
from bot.engine.actions import Action
from bot.engine.rules import MAX_PLAYERS
from bot.engine.variants import chosen_variants
from bot.limits import format_duration, quote_input
from bot.locale import N_, EventLine, Message, recognize
from bot.locale.refusals import ENGINE_REFUSALS, RULES_REFUSALS
from bot.services.absence import passive_action
from bot.services.chips import HOUSE_ID, ChipsService, DifferenceSettlement, Settlement
from bot.services.chips import Outcome as ChipsOutcome
from bot.services.clock import Clock
from bot.services.errors import UserError
from bot.services.ratings import RatingService
from bot.services.server import ServerService
from bot.storage.db import Tx
from bot.storage.errors import ChannelBusyError, StaleVersionError
from bot.storage.games import GameEnd, GameRecord, GamesRepo, GameStatus, new_game_id

__all__ = [
    "MAX_RECENT",
    "MAX_SETTLE_RATE",
    "Outcome",
    "Quarantined",
    "SeatInfo",
    "Table",
    "TableDefaults",
    "TableService",
    "TableStatus",
]

log = logging.getLogger(__name__)

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
    game: Game
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
    def rules(self) -> RuleSet | None:
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

    @property
    def fishing(self) -> bool:
        """True for a Tsung Shap table (no hands: everything is public)."""
        return self.game.fishing

    def view_for(self, user_id: int | None) -> AnyView | None:
        """The engine view for a member (his seat's view, or a spectator's): a ``View`` for
        the collecting games, a ``FishingView`` for Tsung Shap."""
        if self.state is None:
            return None
        seat = None if user_id is None else self.seat_of(user_id)
        return view(self.state, seat)

    def legal(self) -> list[AnyAction]:
        """The current player's legal actions (empty unless a game is being played)."""
        state = self.state
        if state is None or state.result is not None:
            return []
        if isinstance(state, FishingState):
            return list(legal_actions(state))
        return list(legal_actions(state))

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
        return self.forfeit or any(
            isinstance(e, Declared | GameDrawn | GameOver)
            for step in self.steps
            for e in step.events
        )

    def hands_changed(self) -> set[int]:
        """Seats whose hands changed."""
        return {step.seat for step in self.steps}


Listener = Callable[[Outcome], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Quarantined:
    """A game closed because it could not go on: where it was and why."""

    game_id: str
    guild_id: int
    channel_id: int
    reason: str


def _reason(exc: BaseException) -> str:
    """A short, one-line reason for an operator log and the database."""
    text = " ".join(f"{type(exc).__name__}: {exc}".split())
    return text[:300]


class TableService:
    """Open, fill, start and play tables; settle their pots; rebuild them after a restart."""

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

    # ----------------------------------------------------------------------------- lobby

    async def open_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        game: str = "kap-shap",
        rule_set: str | None = None,
        ante: int | None = None,
        seats: int | None = None,
        sets: int | None = None,
        turn_seconds: int | None = None,
        settlement: str | None = None,
        settle_rate: int | None = None,
        variants: Mapping[str, str] | None = None,
    ) -> Table:
        """Open a lobby in a channel with the host seated.

        Options are checked now (a bad combination is refused before anyone joins).
        ``settlement`` is a Tsung Shap option: ``pot`` (the default: antes, the winner takes
        the pot) or ``difference`` (no antes; the loser pays the winner ``settle_rate`` chips,
        default 1, per point of difference, at most his balance; two members only).
        ``variants`` sets rule flags (``{"pot_carries_over": "true"}``, see
        :mod:`bot.services.variants`); the engine refuses a combination that does not work.
        """
        existing = self._tables.get(channel_id)
        if existing is not None and existing.status.is_open:
            raise UserError("There is already a table in this channel: finish or cancel it first.")
        chosen = dict(variants or {})
        game_enum, mode, rate, max_seats, ante, turn_seconds = self.check_options(
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
        if mode == DIFFERENCE:
            settings.update(settlement=mode, settle_rate=rate)
        try:
            record = await self._games.create_lobby(
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                game=game_enum.value,
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
            game=game_enum,
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
        game: str = "kap-shap",
        rule_set: str | None = None,
        ante: int | None = None,
        seats: int | None = None,
        sets: int | None = None,
        turn_seconds: int | None = None,
        settlement: str | None = None,
        settle_rate: int | None = None,
        variants: Mapping[str, str] | None = None,
    ) -> tuple[Game, str, int, int, int, int]:
        """Check a new table's options without opening anything (a :class:`UserError` says
        what is wrong); returns the game, settlement mode and rate, seats, ante and timer."""
        game_enum = _parse_game(game)
        mode, rate = _check_settlement(game_enum, settlement, settle_rate)
        two_player = game_enum in (Game.KAP_SHAP, Game.TSUNG_SHAP)
        max_seats = seats if seats is not None else (2 if two_player else 4)
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
            make_rules(
                game_enum,
                max_seats,
                rule_set,
                sets,
                **dict(variants or {}),
                **_settle_flags(mode, rate),
            )
        except EngineError as exc:
            raise UserError("Those settings don't work: {exc}.", exc=_rules_refusal(exc)) from None
        return game_enum, mode, rate, max_seats, ante, turn_seconds

    async def join(self, channel_id: int, user_id: int, name: str) -> Table:
        """Seat a member in the lobby."""
        table = self.require(channel_id)
        async with table.lock:
            self._need_lobby(table)
            if table.seat_of(user_id) is not None:
                raise UserError("You are already seated at this table.")
            if len(table.seats) >= table.max_seats:
                raise UserError("The table is full ({max_seats} seats).", max_seats=table.max_seats)
            await self._save_seats(table, [*table.seats, SeatInfo(name, user_id=user_id)])
        return table

    async def leave(self, channel_id: int, user_id: int) -> Table:
        """Leave the lobby (the host cancels instead)."""
        table = self.require(channel_id)
        async with table.lock:
            self._need_lobby(table)
            seat = table.seat_of(user_id)
            if seat is None:
                raise UserError("You are not seated at this table.")
            if user_id == table.host_id:
                raise UserError("You are the host: use Cancel to close the table.")
            seats = [s for i, s in enumerate(table.seats) if i != seat]
            await self._save_seats(table, seats)
        return table

    async def add_ai(
        self,
        channel_id: int,
        user_id: int,
        level: str = "greedy",
        *,
        name: str = "AI {number} ({level})",
        level_name: str | None = None,
    ) -> Table:
        """The host adds a computer player, named after ``name`` (``{number}`` and ``{level}``
        filled in: ``level_name``, the level's name for members, else its code; the Discord
        layer gives both in the server's language)."""
        table = self.require(channel_id)
        async with table.lock:
            self._need_lobby(table)
            self._need_host(table, user_id)
            levels = levels_for(table.game)
            if level not in levels:
                raise UserError(
                    "Unknown AI level {level}: choose {choices}.",
                    level=quote_input(level),
                    choices=", ".join(levels),
                )
            if len(table.seats) >= table.max_seats:
                raise UserError("The table is full ({max_seats} seats).", max_seats=table.max_seats)
            number = 1 + sum(1 for s in table.seats if s.is_ai)
            seat = SeatInfo(name.format(number=number, level=level_name or level), ai_level=level)
            await self._save_seats(table, [*table.seats, seat])
        return table

    async def cancel(self, channel_id: int, user_id: int, *, admin: bool = False) -> Table:
        """Close the lobby or abort the game; every ante held is refunded."""
        table = self.require(channel_id)
        async with table.lock:
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
            async with self._games.transaction() as tx:
                await self._chips.refund(table.id, tx=tx)
                await self._games.finish(
                    table.id,
                    GameEnd(GameStatus.ABORTED, self._clock.now()),
                    expected_version=None,
                    settled=True,
                    tx=tx,
                )
            table.status = GameStatus.ABORTED
            table.deadline = None
            self._tables.pop(channel_id, None)
            log.info("table %s aborted by %s (admin=%s)", table.id, user_id, admin)
        return table

    async def set_message(self, table: Table, message_id: int) -> None:
        """Remember the public table message (to edit it, and after a restart)."""
        table.message_id = message_id
        await self._games.set_message_id(table.id, message_id)

    # ----------------------------------------------------------------------------- start

    async def start(self, channel_id: int, user_id: int) -> Outcome:
        """The host starts the game: antes into escrow, the deal, AI turns until a human's."""
        table = self.require(channel_id)
        async with table.lock:
            self._need_lobby(table)
            self._need_host(table, user_id)
            players = len(table.seats)
            if players < 2:
                raise UserError(
                    "At least two players are needed: ask someone to join, or add an AI."
                )
            if table.by_difference and any(s.is_ai for s in table.seats):
                raise UserError(
                    "Settling by point difference needs two members: a computer player can't "
                    "pay or be paid. Remove the AI or open a table settled by the pot."
                )
            try:
                rules = make_rules(
                    table.game,
                    players,
                    table.rule_set,
                    table.sets,
                    **table.variants,
                    **_settle_flags(table.settlement, table.settle_rate),
                )
            except EngineError as exc:
                raise UserError("Can't start: {exc}.", exc=_rules_refusal(exc)) from None
            antes = {s.user_id: table.ante for s in table.seats if s.user_id is not None}
            # The house stakes every computer seat's ante (one escrow row for all of them).
            ai_seats = sum(1 for s in table.seats if s.is_ai)
            if ai_seats and table.ante > 0 and not table.by_difference:
                stake = table.ante * ai_seats
                house = await self._chips.house_balance(table.guild_id)
                if house < stake:
                    # Two messages, not "ante(s)": a catalogue entry each (Chinese has one).
                    refusal = (
                        "The house can't stake the computer players: {ai_seats} ante needs "
                        "{stake} chips and the house has {house}. A server manager can fund "
                        "it with `/kapadmin house`, or play with fewer computer players or a "
                        "smaller ante."
                        if ai_seats == 1
                        else "The house can't stake the computer players: {ai_seats} antes need "
                        "{stake} chips and the house has {house}. A server manager can fund "
                        "it with `/kapadmin house`, or play with fewer computer players or a "
                        "smaller ante."
                    )
                    raise UserError(
                        refusal, ai_seats=ai_seats, stake=f"{stake:,}", house=f"{house:,}"
                    )
                antes[HOUSE_ID] = stake
            deal = make_deal(rules, self._rng, thrower=table.thrower)
            state = new_game(rules, [s.name for s in table.seats], deal)
            deadline = self._deadline_for(table, state)
            carried = 0
            # The antes, the carried pot and the start commit together: a crash can never leave
            # a lobby holding antes (nor a running game without them).
            try:
                async with self._games.transaction() as tx:
                    # Settled by difference: no antes and no pot; the loser pays at the end.
                    if table.ante > 0 and antes and not table.by_difference:
                        await self._chips.escrow_antes(
                            table.id, table.guild_id, antes, channel_id=table.channel_id, tx=tx
                        )
                    if not table.by_difference and await self._chips.carried_pot(
                        table.guild_id, table.channel_id, tx=tx
                    ):
                        carried = await self._chips.collect_carried_pot(
                            table.id, table.guild_id, table.channel_id, tx=tx
                        )
                    record = await self._games.start(
                        table.id,
                        expected_version=table.version,
                        deal_json=json.dumps(deal.to_json()),
                        rules_json=json.dumps({"flags": rules.flags(), "thrower": table.thrower}),
                        seats_json=_seats_json(table.seats),
                        deadline=deadline,
                        tx=tx,
                    )
            except StaleVersionError:
                raise UserError("That action is out of date: the table has moved on.") from None
            table.version = record.version
            table.state = state
            table.status = GameStatus.RUNNING
            table.deadline = deadline
            table.lobby_closes_at = None
            table.recent = [_opening_line(table, deal)]
            table.carried = carried
            if carried:
                table.recent.append(
                    Message(
                        "💰 {chips} chips carried over from a drawn game join the pot.",
                        chips=f"{carried:,}",
                    )
                )
            outcome = Outcome(table, lines=list(table.recent))
            await self._advance(table, outcome)
            log.info("table %s started: %s", table.id, rules.describe())
        return outcome

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

    async def notify_ended(self, outcome: Outcome) -> None:
        """Tell the listeners (a tournament) that a game ended; called once the end is shown.

        A failing listener is logged and never undoes or blocks the game's own end."""
        for listener in list(self.end_listeners):
            try:
                await listener(outcome)
            except Exception:
                log.exception("table %s: a game-end listener failed", outcome.table.id)

    # ----------------------------------------------------------------------------- play

    async def act(
        self,
        channel_id: int,
        user_id: int,
        action: AnyAction | str,
        *,
        version: int | None = None,
    ) -> Outcome:
        """Play an action for a member; then the computer seats play until a human's turn.

        ``version`` (from a button) must match the table's, or the click is out of date.
        """
        table = self.require(channel_id)
        async with table.lock:
            state = self._need_running(table)
            seat = table.seat_of(user_id)
            if seat is None:
                raise UserError("You are not playing at this table.")
            if version is not None and version != table.version:
                raise UserError("That action is out of date: the table has moved on.")
            if state.current != seat:
                raise UserError(
                    "It is {player}'s turn, not yours.", player=table.seats[state.current].name
                )
            if isinstance(action, str):
                action = _parse_for(state, action, table.game)
            outcome = Outcome(table)
            await self._play(table, seat, action, outcome)
            if table.timeouts.get(seat):
                # He is back: only timeouts in a row count toward being out.
                table.timeouts[seat] = 0
                await self._save_seat(table, seat)
            await self._advance(table, outcome)
        return outcome

    async def expire_due(self) -> list[Outcome]:
        """Play, with the AI, every human turn whose deadline has passed (and any computer turn
        left waiting by a failure).

        Each due table runs in its own task, at most :data:`EXPIRY_CONCURRENCY` at once, so a
        burst of expiries does not run one after another and one slow or failing table never
        delays another. A failure is logged with the table's id and retried
        :data:`RETRY_SECONDS` later; a table that fails :data:`FAILURE_LIMIT` times in a row is
        quarantined (its outcome has ``quarantined`` set, for the cogs to say so).
        """
        now = self._clock.now().timestamp()
        due = [t for t in list(self._tables.values()) if self._due_at(t) <= now]
        if not due:
            return []
        limit = asyncio.Semaphore(EXPIRY_CONCURRENCY)

        async def one(table: Table) -> Outcome | None:
            async with limit:
                try:
                    outcome = await self._expire(table, now)
                except Exception as exc:
                    return await self._timer_failed(table, exc)
                self._failures.pop(table.id, None)
                self._retry_at.pop(table.id, None)
                return outcome

        results = await asyncio.gather(*(one(t) for t in due))
        return [o for o in results if o is not None]

    async def _expire(self, table: Table, now: float) -> Outcome | None:
        """One due table: the computer plays the expired human turn, then any computer seats."""
        async with table.lock:
            state = table.state
            if state is None or state.result is not None or not table.running:
                return None
            if table.seats[state.current].is_ai:
                # A computer turn left waiting (a failure after the human's move committed).
                outcome = Outcome(table)
                await self._advance(table, outcome)
                return outcome
            if table.deadline is None or table.deadline > now:
                return None
            outcome = Outcome(table)
            await self._timed_out(table, state.current, outcome)
            return outcome

    async def _timer_failed(self, table: Table, exc: Exception) -> Outcome | None:
        failures = self._failures.get(table.id, 0) + 1
        self._failures[table.id] = failures
        log.error(
            "table %s: turn timer failed (%d of %d): %s",
            table.id,
            failures,
            FAILURE_LIMIT,
            _reason(exc),
            exc_info=exc,
        )
        if failures < FAILURE_LIMIT:
            self._retry_at[table.id] = self._clock.now().timestamp() + RETRY_SECONDS
            return None
        self._failures.pop(table.id, None)
        self._retry_at.pop(table.id, None)
        try:
            await self.quarantine(table, f"turn timer failed {failures} times: {_reason(exc)}")
        except Exception:
            log.exception("table %s: could not be quarantined", table.id)
            self._retry_at[table.id] = self._clock.now().timestamp() + RETRY_SECONDS
            return None
        return Outcome(table, lines=[QUARANTINE_NOTICE], quarantined=True)

    def _due_at(self, table: Table) -> float:
        """When the scheduler must next look at a table (infinity: never)."""
        state = table.state
        if not table.running or state is None or state.result is not None:
            return math.inf
        retry = self._retry_at.get(table.id)
        if table.seats[state.current].is_ai:
            # Only a computer turn nobody is playing is due (an action in progress holds the
            # lock and plays the computer seats itself).
            return math.inf if table.lock.locked() else (retry or 0.0)
        if table.deadline is None:
            return math.inf
        return table.deadline if retry is None else max(table.deadline, retry)

    def next_deadline(self) -> float | None:
        """The earliest moment (epoch seconds) the scheduler must run :meth:`expire_due` or
        close a lobby nobody started."""
        due = min((self._due_at(t) for t in self._tables.values()), default=math.inf)
        lobbies = [
            t.lobby_closes_at
            for t in self._tables.values()
            if t.lobby_closes_at is not None and t.status is GameStatus.LOBBY
        ]
        due = min([due, *lobbies])
        return None if due == math.inf else due

    async def rematch(self, channel_id: int, user_id: int, table_id: str | None = None) -> Table:
        """A new lobby with the same seats; the previous winner throws the dice.

        ``table_id`` (the game the Rematch button belongs to) finds a game that ended before a
        restart, which this process does not hold.
        """
        old = self._tables.get(channel_id)
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
            game=old.game.value,
            rule_set=old.rule_set,
            ante=old.ante,
            seats=old.max_seats,
            sets=old.sets,
            turn_seconds=old.turn_seconds,
            settlement=old.settlement,
            settle_rate=old.settle_rate if old.by_difference else None,
            variants=old.variants,
        )
        async with table.lock:
            table.thrower = winner if winner is not None else 0
            await self._save_seats(table, list(old.seats))
        return table

    # ----------------------------------------------------------------------------- absence

    async def resign(self, channel_id: int, user_id: int) -> Outcome:
        """A player gives up: at two seats his opponent wins; at a larger table his seat folds
        (his ante stays in the pot and his turns pass passively)."""
        table = self.require(channel_id)
        async with table.lock:
            self._need_running(table)
            seat = table.seat_of(user_id)
            if seat is None:
                raise UserError("You are not playing at this table.")
            if seat in table.out:
                raise UserError("You are already out of this game.")
            outcome = Outcome(table)
            await self._seat_out(table, seat, "resigned", outcome)
        return outcome

    async def _timed_out(self, table: Table, seat: int, outcome: Outcome) -> None:
        """A human's turn timer ran out: count it; at the server's limit he is out, otherwise
        his turn is played passively (see :mod:`bot.services.absence`)."""
        state = table.state
        assert state is not None
        name = table.seats[seat].name
        count = table.timeouts.get(seat, 0) + 1
        limit = await self._timeout_limit(table.guild_id)
        if count >= limit:
            table.timeouts[seat] = count
            await self._seat_out(table, seat, "forfeited", outcome)
            return
        line = Message(
            "⏰ {name} ran out of time ({count}/{limit}): the turn was played passively.",
            name=name,
            count=count,
            limit=limit,
        )
        outcome.lines.append(line)
        turn = state.turn
        while (
            table.state is not None
            and table.state.result is None
            and table.state.current == seat
            and table.state.turn == turn
        ):
            action = passive_action(table.state, seat, self._ai_rng)
            await self._play(table, seat, action, outcome, by_timeout=True)
        # Counted once the turn is played, so a failure cannot count a timeout twice.
        table.timeouts[seat] = count
        await self._save_seat(table, seat)
        table.recent.append(line)
        del table.recent[:-MAX_RECENT]
        await self._advance(table, outcome)

    async def _seat_out(self, table: Table, seat: int, how: str, outcome: Outcome) -> None:
        """Take a seat out of the game (``resigned`` or ``forfeited``): if one seat is left it
        wins; otherwise the seat folds and the game goes on without it."""
        out = "folded" if how != "resigned" else how
        name = table.seats[seat].name
        why = (
            Message("{name} resigned", name=name)
            if how == "resigned"
            else Message("{name} timed out too many turns in a row", name=name)
        )
        remaining = [i for i in range(len(table.seats)) if i not in table.out and i != seat]
        if len(remaining) == 1:
            # The end and its payout commit together first: a crash before them leaves the game
            # running with this seat still in it (nothing half-done), never a game nobody can end.
            await self._end_by_forfeit(table, remaining[0], why, outcome)
            table.out[seat] = out
            await self._save_seat(table, seat)
            return
        table.out[seat] = out
        await self._save_seat(table, seat)
        line = Message("🏳️ {why}: the seat folds (its ante stays in the pot).", why=why)
        outcome.lines.append(line)
        table.recent.append(line)
        del table.recent[:-MAX_RECENT]
        await self._advance(table, outcome)

    async def _end_by_forfeit(self, table: Table, winner: int, why: str, outcome: Outcome) -> None:
        """End the game with ``winner`` as the only seat left, and settle it."""
        state = table.state
        assert state is not None
        seat = table.seats[winner]
        text = Message("{why}: {name} wins.", why=why, name=seat.name)
        line: str | None = None
        # The end and its settlement commit together (the invariant: no ended game unsettled).
        async with self._games.transaction() as tx:
            record = await self._games.finish(
                table.id,
                GameEnd(GameStatus.FINISHED, self._clock.now(), winner),
                expected_version=None,
                settled=True,
                tx=tx,
            )
            if table.by_difference and isinstance(state, FishingState):
                line = await self._forfeit_difference(table, state, winner, tx)
            else:
                payee = HOUSE_ID if seat.user_id is None else seat.user_id
                settled = await self._chips.payout(table.id, payee, state.rules.rake_percent, tx=tx)
                line = _settlement_line(table, settled, winner)
            await self._rate(table, tx)
        table.version = record.version
        table.status = GameStatus.FINISHED
        table.deadline = None
        table.winner_seat = winner
        table.end_text = text
        outcome.forfeit = True
        outcome.lines.append(Message("🏳️ {text}", text=text))
        table.recent.append(Message("🏳️ {text}", text=text))
        if line is not None:
            outcome.settlement = line
            outcome.lines.append(line)
            table.recent.append(line)
        del table.recent[:-MAX_RECENT]
        log.info("table %s ended by forfeit: seat %s wins", table.id, winner)

    async def _forfeit_difference(
        self, table: Table, state: FishingState, winner: int, tx: Tx
    ) -> str:
        """Settled by difference: the player who gave up pays for the points he is behind."""
        loser = 1 - winner
        scores = view(state, None).scores
        difference = max(0, scores[winner] - scores[loser])
        win_info, lose_info = table.seats[winner], table.seats[loser]
        if win_info.user_id is None or lose_info.user_id is None:  # pragma: no cover
            raise RuntimeError(f"table {table.id}: difference settlement with a computer seat")
        settled = await self._chips.settle_difference(
            table.id,
            table.guild_id,
            win_info.user_id,
            lose_info.user_id,
            difference * table.settle_rate,
            tx=tx,
        )
        return _difference_line(win_info, lose_info, difference, settled)

    async def expire_lobbies(self) -> list[Table]:
        """Close every lobby nobody started in time (refunding any ante held)."""
        now = self._clock.now().timestamp()
        closed = []
        for table in list(self._tables.values()):
            due = table.lobby_closes_at
            if table.status is not GameStatus.LOBBY or due is None or due > now:
                continue
            async with table.lock:
                if table.status is not GameStatus.LOBBY:
                    continue
                if await self._chips.pot(table.id) is not None:
                    await self._chips.refund(table.id)
                await self._games.finish(
                    table.id, GameEnd(GameStatus.ABORTED, self._clock.now()), expected_version=None
                )
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
        rules = RuleSet.from_flags(settings["flags"])
        seats = [SeatInfo.from_json(s) for s in json.loads(record.seats_json)]
        return Table(
            id=record.id,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            host_id=record.host_id,
            game=Game(record.game),
            rule_set=rules.rule_set_name,
            sets=rules.sets,
            ante=record.ante,
            max_seats=len(seats),
            turn_seconds=record.turn_seconds,
            seats=seats,
            status=record.status,
            version=record.version,
            settlement=str(rules.settlement),
            settle_rate=rules.settle_rate,
            winner_seat=record.winner_seat,
        )

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

    async def _save_seat(self, table: Table, seat: int) -> None:
        if self._server is not None:
            await self._server.save_seat(
                table.id, seat, table.timeouts.get(seat, 0), table.out.get(seat)
            )

    async def _load_seats(self, table: Table) -> None:
        if self._server is None:
            return
        for record in await self._server.seat_states(table.id):
            table.timeouts[record.seat] = record.timeouts
            if record.out is not None:
                table.out[record.seat] = record.out

    # ----------------------------------------------------------------------------- restore

    async def restore(self) -> list[Table]:
        """Rebuild every unfinished table from the database (after a start or a crash).

        First :meth:`repair` finishes whatever a crash left half-done, so the database holds the
        invariant (docs/architecture.md, "Crash points"); then every lobby and running game is
        rebuilt by replaying its log. A game that cannot be rebuilt is quarantined
        (:meth:`quarantine_record`) instead of blocking its channel; :attr:`quarantined` lists
        them for the cogs to announce.
        """
        await self._settle_forfeits()
        self.repairs = await self.repair()
        for line in self.repairs:
            log.warning("start-up repair: %s", line)
        for line in self.unrepaired:
            log.error("start-up repair cannot fix this (see `kapshap db check`): %s", line)
        last = await self._games.last_activity()
        last_seen = None if last is None else last.timestamp()
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
            rules = RuleSet.from_flags(settings["flags"])
            payee = HOUSE_ID if winner.user_id is None else winner.user_id
            async with self._games.transaction() as tx:
                await self._chips.payout(record.id, payee, rules.rake_percent, tx=tx)
                await self._games.mark_settled(record.id, tx=tx)
            log.info("game %s: its pot was paid at start-up (seat %s)", record.id, winner.name)

    async def stopping(self) -> None:
        """The bot is stopping cleanly: record the moment (turn timers resume from it)."""
        await self._games.heartbeat(self._clock.now())

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

    async def unreplayable(self) -> list[tuple[GameRecord, str]]:
        """Unfinished games whose saved log no longer replays, with the reason (no writes)."""
        found = []
        for record in await self._games.list_unfinished():
            try:
                await self._replay(record)
            except Exception as exc:
                found.append((record, _reason(exc)))
        return found

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

    async def _replay(self, record: GameRecord) -> Table:
        """The table of a stored game, its state rebuilt by replaying its log (no writes)."""
        settings = json.loads(record.rules_json)
        seats = [SeatInfo.from_json(s) for s in json.loads(record.seats_json)]
        table = Table(
            id=record.id,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            host_id=record.host_id,
            game=Game(record.game),
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
        )
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
        rules = RuleSet.from_flags(settings["flags"])
        table.rule_set = rules.rule_set_name
        table.sets = rules.sets
        table.settlement = str(rules.settlement)
        table.settle_rate = rules.settle_rate
        table.variants = chosen_variants(rules)
        table.thrower = int(settings.get("thrower", 0))
        assert record.deal_json is not None
        state: AnyState = new_game(
            rules, [s.name for s in seats], Deal.from_json(json.loads(record.deal_json))
        )
        for entry in await self._games.actions(record.id):
            if entry.seat != state.current:
                raise EngineError(f"action {entry.seq} was logged for seat {entry.seat}")
            state, _ = _apply(state, parse_action(entry.notation, table.game))
        table.state = state
        pot = await self._chips.pot(record.id)
        table.carried = 0 if pot is None else pot.carried_in
        await self._load_seats(table)
        table.recent = [Message("♻️ Restored after a restart.")]
        return table

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

    async def resume_ai(self, table: Table) -> Outcome:
        """After a restore: let computer seats play if it is their turn."""
        async with table.lock:
            outcome = Outcome(table)
            if table.running:
                await self._advance(table, outcome)
        return outcome

    # ----------------------------------------------------------------------------- internals

    async def _play(
        self,
        table: Table,
        seat: int,
        action: AnyAction,
        outcome: Outcome,
        *,
        by_timeout: bool = False,
    ) -> None:
        """Apply one action and commit it (with the result, if it ends the game)."""
        state = table.state
        assert state is not None
        try:
            new_state, events = _apply(state, action)
        except IllegalAction as exc:
            raise _refusal(exc) from None
        end = None
        if new_state.result is not None:
            winner = new_state.result.winner
            status = GameStatus.FINISHED if winner is not None else GameStatus.DRAWN
            end = GameEnd(status, self._clock.now(), winner)
        deadline = None if end is not None else self._deadline_after(table, state, new_state)
        # The engine normalises `take` to a tile; log the action as it was applied.
        logged = _applied_notation(state, new_state, action)
        settled_line: str | None = None
        try:
            if end is None:
                record, _ = await self._games.append_action(
                    table.id,
                    expected_version=table.version,
                    seat=seat,
                    notation=logged,
                    created_at=self._clock.now(),
                    deadline=deadline,
                )
            else:
                # The final action and its settlement commit together: a crash or a busy
                # database leaves both or neither (the move is then simply played again).
                async with self._games.transaction() as tx:
                    record, _ = await self._games.append_action(
                        table.id,
                        expected_version=table.version,
                        seat=seat,
                        notation=logged,
                        created_at=self._clock.now(),
                        deadline=deadline,
                        end=end,
                        tx=tx,
                    )
                    settled_line = await self._settle_chips(table, new_state, tx)
                    await self._games.mark_settled(table.id, tx=tx)
                    await self._rate(table, tx)
        except StaleVersionError:
            raise UserError("That action is out of date: the table has moved on.") from None
        table.version = record.version
        table.state = new_state
        table.deadline = deadline
        outcome.steps.append(Step(seat, action, tuple(events), by_timeout))
        for event in events:
            names = [s.name for s in table.seats]
            line = EventLine(describe_event(event, None, names), event, names)
            outcome.lines.append(line)
            if not isinstance(event, TurnStarted):
                # The message says whose turn it is: "Turn N: X to play" lines would fill a
                # third of "Recent" and leave barely one turn of play in it.
                table.recent.append(line)
        del table.recent[:-MAX_RECENT]
        if end is not None:
            table.status = end.status
            table.deadline = None
            _record_settlement(table, outcome, settled_line)

    async def _advance(self, table: Table, outcome: Outcome) -> None:
        """Computer seats play until a human must act or the game ends."""
        while table.state is not None and table.state.result is None:
            seat = table.state.current
            info = table.seats[seat]
            if seat in table.out:
                # A folded seat plays no more: its turns pass passively (it can never win).
                await self._play(
                    table, seat, passive_action(table.state, seat, self._ai_rng), outcome
                )
                continue
            if not info.is_ai:
                return
            level = info.ai_level or self.defaults.timeout_ai_level
            player = _ai_player(table.game, level)
            if level in SEARCHING_LEVELS:
                # A searching player thinks for up to a second (longer on a fresh machine while
                # its kernel compiles): off the event loop, so other tables and commands go on.
                # The table's lock is held, so nothing else touches this state meanwhile.
                rng = random.Random(self._ai_rng.getrandbits(64))
                choice = await asyncio.to_thread(_ai_choice, player, table.state, seat, rng)
            else:
                choice = _ai_choice(player, table.state, seat, self._ai_rng)
            await self._play(table, seat, choice, outcome)

    async def _settle(self, table: Table, outcome: Outcome) -> None:
        """Settle a game whose final action is saved (idempotent), in its own transaction."""
        state = table.state
        assert state is not None and state.result is not None
        async with self._games.transaction() as tx:
            line = await self._settle_chips(table, state, tx)
            await self._games.mark_settled(table.id, tx=tx)
            await self._rate(table, tx)
        table.status = GameStatus.FINISHED if state.result.winner is not None else GameStatus.DRAWN
        table.deadline = None
        _record_settlement(table, outcome, line)

    async def _rate(self, table: Table, tx: Tx) -> None:
        """Record and rate an ended game in the transaction that settles it (idempotent: a
        replayed settlement never rates twice; see bot/services/ratings.py)."""
        if self._ratings is not None:
            await self._ratings.rate_finished_game(tx, table.id)

    async def _settle_chips(self, table: Table, state: AnyState, tx: Tx) -> str | None:
        """Pay the pot to the winner, or refund (or carry) every ante on a draw, inside ``tx``;
        the line that says so, or None when there was nothing to settle (idempotent)."""
        assert state.result is not None
        if table.by_difference and isinstance(state, FishingState):
            return await self._settle_difference(table, state, tx)
        winner = state.result.winner
        if winner is None:
            if state.rules.pot_carries_over:
                settled = await self._chips.carry_over(table.id, table.channel_id, tx=tx)
            else:
                settled = await self._chips.refund(table.id, tx=tx)
        else:
            seat = table.seats[winner]
            payee = HOUSE_ID if seat.user_id is None else seat.user_id
            settled = await self._chips.payout(table.id, payee, state.rules.rake_percent, tx=tx)
        return _settlement_line(table, settled, winner)

    async def _settle_difference(self, table: Table, state: FishingState, tx: Tx) -> str:
        """The loser pays the winner ``rate × difference`` (capped at his balance); idempotent."""
        result = state.result
        assert result is not None
        if result.winner is None:
            return Message("A draw: nobody pays.")
        winner = table.seats[result.winner]
        loser = table.seats[1 - result.winner]
        if winner.user_id is None or loser.user_id is None:  # pragma: no cover - start refuses
            raise RuntimeError(f"table {table.id}: difference settlement with a computer seat")
        settled = await self._chips.settle_difference(
            table.id,
            table.guild_id,
            winner.user_id,
            loser.user_id,
            difference_payment(state.rules, result),
            tx=tx,
        )
        return _difference_line(winner, loser, result.difference, settled)

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

    async def _save_seats(self, table: Table, seats: Sequence[SeatInfo]) -> None:
        settings: dict[str, Any] = {
            "rule_set": table.rule_set,
            "sets": table.sets,
            "max_seats": table.max_seats,
            "thrower": table.thrower,
        }
        if table.variants:
            settings["variants"] = table.variants
        if table.by_difference:
            settings.update(settlement=table.settlement, settle_rate=table.settle_rate)
        try:
            record = await self._games.update(
                table.id,
                expected_version=table.version,
                seats_json=_seats_json(seats),
                rules_json=json.dumps(settings),
            )
        except StaleVersionError:
            raise UserError("That action is out of date: the table has moved on.") from None
        table.seats = list(seats)
        table.version = record.version

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


SEARCHING_LEVELS = frozenset({"master"})
"""AI levels that search (play-outs) and so decide in a worker thread, not on the event loop."""


def _ai_player(game: Game, level: str) -> AnyPlayer:
    """A computer player of ``game`` at ``level``; the random player if that level does not
    exist (yet)."""
    # A level can vanish between releases; a turn must still be played, so a stored or
    # configured level never stalls a game.
    try:
        return player_for(game, level)
    except ValueError:
        log.warning("AI level %r does not exist for %s: the random player stands in", level, game)
        return player_for(game, "random")


def _ai_choice(player: AnyPlayer, state: AnyState, seat: int, rng: random.Random) -> AnyAction:
    """What a computer player picks for ``seat`` from its view and the legal actions."""
    if isinstance(state, FishingState):
        fishing_legal: list[FishingAction] = legal_actions(state)
        choice: AnyAction = player.choose(view(state, seat), fishing_legal, rng)
        return choice
    legal: list[Action] = legal_actions(state)
    picked: AnyAction = player.choose(view(state, seat), legal, rng)
    return picked


def _apply(state: AnyState, action: AnyAction) -> tuple[AnyState, list[AnyEvent]]:
    """:func:`bot.engine.apply` with its events as one list type (either game's state)."""
    new_state, events = apply(state, action)
    return new_state, list[AnyEvent](events)


def _check_settlement(
    game: Game, settlement: str | None, settle_rate: int | None
) -> tuple[str, int]:
    """The table's settlement mode and rate: ``pot`` (any game) or ``difference`` (Tsung
    Shap only, ``settle_rate`` chips per point, default 1)."""
    mode = POT if settlement is None else settlement
    if mode not in (POT, DIFFERENCE):
        raise UserError(
            "Unknown settlement {mode}: choose pot or difference.", mode=quote_input(mode)
        )
    if mode == DIFFERENCE and game is not Game.TSUNG_SHAP:
        raise UserError("Settlement by difference is a Tsung Shap option.")
    if settle_rate is not None and mode != DIFFERENCE:
        raise UserError("A settle rate only applies to settlement by difference.")
    rate = 1 if settle_rate is None else settle_rate
    if type(rate) is not int or not 1 <= rate <= MAX_SETTLE_RATE:
        raise UserError(
            "The settle rate must be from 1 to {max_settle_rate} chips per point.",
            max_settle_rate=f"{MAX_SETTLE_RATE:,}",
        )
    return mode, rate


def _settle_flags(mode: str, rate: int) -> dict[str, Any]:
    """Rule overrides for the settlement (none for the pot, every game's default)."""
    return {"settlement": mode, "settle_rate": rate} if mode == DIFFERENCE else {}


def _parse_game(game: str) -> Game:
    try:
        return Game(game)
    except ValueError:
        names = ", ".join(g.value for g in Game)
        raise UserError(
            "Unknown game {game}: choose {names}.", game=quote_input(game), names=names
        ) from None


def _seats_json(seats: Sequence[SeatInfo]) -> str:
    return json.dumps([s.to_json() for s in seats])


def _parse_for(state: AnyState, text: str, game: Game) -> AnyAction:
    """Read a player's action; a tile name shared by two kinds (``Nine``: 6-3 and 5-4) means the
    one of them the player can use now, when only one of them is legal."""
    try:
        return parse_action(text, game)
    except AmbiguousTile as exc:
        verb = text.split(maxsplit=1)[0].lower()
        legal = legal_actions(state)
        usable: list[AnyAction] = []
        for tile in exc.options:
            candidate: AnyAction = Take(tile) if verb == "take" else Discard(tile)
            if verb in ("take", "discard") and candidate in legal:
                usable.append(candidate)
        if len(usable) == 1:
            return usable[0]
        raise _refusal(exc) from None
    except EngineError as exc:
        raise _refusal(exc) from None


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def _refusal(exc: BaseException) -> UserError:
    """A refusal of the engine as a :class:`UserError`, in the member's language when known."""
    text = _sentence(str(exc))
    known = recognize(text, ENGINE_REFUSALS)
    if known is not None and isinstance(exc, AmbiguousTile) and len(exc.options) == 2:
        # "6-3 or 5-4": the "or" is English; the tiles themselves are notation.
        first, second = exc.options
        known.values["options"] = Message("{a} or {b}", a=str(first), b=str(second))
    return UserError(text) if known is None else UserError("{reason}", reason=known)


def engine_refusal(exc: BaseException) -> UserError:
    """A refusal of the engine (a tile or an action it cannot read or allow) as a
    :class:`UserError` told in a member's language when the services know its words."""
    return _refusal(exc)


def _rules_refusal(exc: BaseException) -> str:
    """The engine's refusal of a table's settings, as a :class:`Message` when it is known."""
    return recognize(str(exc), RULES_REFUSALS) or str(exc)


def _applied_notation(before: AnyState, after: AnyState, action: AnyAction) -> str:
    # A bare `take` takes the most recent takeable discard; record which tile it was.
    # (Tsung Shap's history holds moves, not notation: its actions are logged as given.)
    if not isinstance(before, GameState) or not isinstance(after, GameState):
        return str(action)
    if after.history and len(after.history) > len(before.history):
        return str(after.history[-1])
    return str(action)


def _opening_line(table: Table, deal: Deal) -> str:
    first = table.seats[deal.first_seat].name
    if deal.dice:
        dice = " + ".join(str(d) for d in deal.dice)
        thrower = table.seats[deal.thrower].name
        return Message(
            "🎲 {thrower} threw {dice} = {total}: counting from the right, {first} plays first.",
            thrower=thrower,
            dice=dice,
            total=sum(deal.dice),
            first=first,
        )
    return Message("🎲 Lots were drawn: {first} plays first.", first=first)


def _difference_line(
    winner: SeatInfo, loser: SeatInfo, difference: int, settled: DifferenceSettlement
) -> str:
    points = (
        Message("{n} point", n=difference)
        if difference == 1
        else Message("{n} points", n=difference)
    )
    if settled.paid == 0 and settled.owed == 0:
        return Message(
            "{winner} won by {points}: nothing to pay.", winner=winner.name, points=points
        )
    if settled.paid == 0:
        return Message(
            "{winner} won by {points}: {loser} owed {owed} chips but has none to pay.",
            winner=winner.name,
            points=points,
            loser=loser.name,
            owed=f"{settled.owed:,}",
        )
    capped = (
        Message(
            " (capped: {owed} owed, {loser} had only {paid})",
            owed=f"{settled.owed:,}",
            loser=loser.name,
            paid=f"{settled.paid:,}",
        )
        if settled.capped
        else ""
    )
    return Message(
        "💰 {loser} pays {winner} {paid} chips for {points}{capped}.",
        loser=loser.name,
        winner=winner.name,
        paid=f"{settled.paid:,}",
        points=points,
        capped=capped,
    )


def _record_settlement(table: Table, outcome: Outcome, line: str | None) -> None:
    """Show the settlement line (if any) in the outcome and the table's recent events."""
    if line is None:
        return
    outcome.settlement = line
    outcome.lines.append(line)
    table.recent.append(line)
    del table.recent[:-MAX_RECENT]


def _settlement_line(table: Table, settled: Settlement, winner: int | None) -> str | None:
    """What a settlement did, in words: from what was actually settled, so a pot that an
    earlier call (or a repair) had already refunded is never announced as a payout."""
    if settled.outcome is ChipsOutcome.NO_POT:
        return None
    if settled.outcome is ChipsOutcome.REFUNDED:
        return Message("Every ante was refunded.")
    if settled.outcome is ChipsOutcome.CARRIED:
        return Message(
            "The pot of {chips} chips stays on the table for the next game.",
            chips=f"{settled.carried:,}",
        )
    if winner is None:  # pragma: no cover - a payout always names its winner
        return None
    return _payout_line(table.seats[winner], settled)


def _payout_line(seat: SeatInfo, settled: Settlement) -> str:
    if seat.is_ai:
        return Message(
            "{name} won: the pot of {chips} chips goes to the house.",
            name=seat.name,
            chips=f"{settled.pot:,}",
        )
    rake = Message(" ({rake} to the house)", rake=f"{settled.rake:,}") if settled.rake else ""
    return Message(
        "💰 {name} takes the pot: {paid} chips{rake}.",
        name=seat.name,
        paid=f"{settled.paid:,}",
        rake=rake,
    )
