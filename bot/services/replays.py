"""Replays, records and reviews of stored games (no discord).

* :class:`ReplayService` loads a game of this server from the database as an engine
  :class:`~bot.engine.record.GameRecord` (rules, seats, deal, action log), refuses games of
  other servers and games not finished yet (a spectator of a live game may not see its hands
  before it ends), and writes its record text.
* :class:`ReviewService` reviews one member's decisions off the event loop: each decision is one
  task for an executor (a process pool of :data:`DEFAULT_WORKERS` processes by default), at most
  ``max_running`` reviews run at once and the others wait in a queue, told their place. The
  estimates come from :mod:`bot.ai.review` (determinized play-outs, never the hidden tiles).

Who may review whom: a member may review his own seat in any finished game of the server; he may
review another member's seat only when that member allows it (``/settings reviews:True``) or the
server makes reviews public (``/kapadmin config reviews:public``; a server that never chose
follows the bot-wide ``KAPSHAP_REVIEW_PUBLIC``, passed in by ``cogs.replay`` as ``public``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import signal
import threading
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field

from bot.ai.family import bound_memos
from bot.ai.review import Decision, Verdict, decisions_of, review_decision
from bot.engine import Deal, EngineError
from bot.engine.events import TurnStarted
from bot.engine.family import View, engine_of
from bot.engine.record import GameRecord, RecordSeat, parse_record, replay, write_record
from bot.locale import N_, EventLine, Message
from bot.services.errors import UserError
from bot.services.review_text import decision_line, ordered, review_sentence
from bot.storage.games import GamesRepo, GameStatus

__all__ = [
    "DEFAULT_MAX_RUNNING",
    "DEFAULT_WORKERS",
    "Decision",
    "LoadedGame",
    "Name",
    "Progress",
    "ReplayFrame",
    "ReplayService",
    "ReviewResult",
    "ReviewService",
    "frame",
    "hints_tag",
    "hints_used",
    "init_worker",
    "mistakes",
    "review_sentence",
    "review_task",
    "summary_lines",
]

DEFAULT_WORKERS = 2
"""Processes of the review pool: the machine's two cores."""
DEFAULT_MAX_RUNNING = 2
"""Reviews running at once; more wait in a queue."""


@dataclass(frozen=True, slots=True)
class LoadedGame:
    """A finished game of this server, as a record, with who sat where."""

    id: str
    guild_id: int
    record: GameRecord
    user_ids: tuple[int | None, ...]

    def seat_of(self, user_id: int) -> int | None:
        """The seat of a member, or None if he did not play."""
        return next((i for i, u in enumerate(self.user_ids) if u == user_id), None)

    @property
    def text(self) -> str:
        """The record as text (``docs/record-format.md``)."""
        return write_record(self.record)


class ReplayService:
    """Loads stored games as records."""

    def __init__(self, games: GamesRepo) -> None:
        """``games``: the games repository of the bot's database."""
        self._games = games

    async def load(self, game_id: str, guild_id: int, *, finished: bool = True) -> LoadedGame:
        """Game ``game_id`` of this server; a :class:`UserError` if it is unknown here, never
        started, or (with ``finished``) still being played."""
        game_id = game_id.strip().lower()
        stored = await self._games.get(game_id) if game_id.isalnum() else None
        if stored is None or stored.guild_id != guild_id:
            raise UserError("There is no game `{game}` on this server.", game=game_id[:32])
        if stored.deal_json is None:
            raise UserError(
                "Game `{game}` never started: there is nothing to replay.", game=game_id
            )
        if finished and stored.status.is_open:
            raise UserError(
                "Game `{game}` is still being played: it can be replayed once it ends.",
                game=game_id,
            )
        settings = json.loads(stored.rules_json)
        rules = engine_of(stored.game).rules_from_flags(settings["flags"])
        seats_data = json.loads(stored.seats_json)
        seats: list[RecordSeat] = []
        user_ids: list[int | None] = []
        for seat in seats_data:
            user_id = seat.get("user_id")
            user_ids.append(None if user_id is None else int(user_id))
            if user_id is not None:
                seats.append(RecordSeat(str(seat["name"]), "member", str(user_id)))
            else:
                seats.append(RecordSeat(str(seat["name"]), "ai", str(seat.get("ai_level"))))
        actions = [a.notation for a in await self._games.actions(game_id)]
        tags = {
            "Id": stored.id,
            "Server": str(stored.guild_id),
            "Channel": str(stored.channel_id),
            "Date": stored.created_at.strftime("%Y-%m-%dT%H:%M:%SZ"),
        }
        if settings.get("rated", True) is False:
            tags["Rated"] = "false"  # the host's unrated table, where hints are allowed
        hints = await self._games.hints(game_id)
        if hints:
            tags["Hints"] = hints_tag(hints)
        record = GameRecord(
            rules=rules,
            seats=tuple(seats),
            deal=Deal.from_json(json.loads(stored.deal_json)),
            actions=tuple(actions),
            tags=tags,
        )
        if stored.status is GameStatus.ABORTED and not actions:
            raise UserError("Game `{game}` was cancelled before anyone played.", game=game_id)
        return LoadedGame(stored.id, stored.guild_id, record, tuple(user_ids))


@dataclass(frozen=True, slots=True)
class ReplayFrame:
    """One step of a replay: after ``step`` of ``total`` actions (0: as dealt). The game is
    over, so every hand is public: ``views`` holds every seat's view."""

    step: int
    total: int
    lines: tuple[str, ...]
    views: tuple[View, ...]
    table: View


def frame(game: LoadedGame, step: int) -> ReplayFrame:
    """The position after ``step`` actions (clamped to the game), described for everyone."""
    record = game.record
    total = len(record.actions)
    step = max(0, min(step, total))
    names = record.names
    engine = engine_of(record.rules.game)
    state = engine.new_game(record.rules, names, record.deal)
    # Lines that can say themselves in a member's language (bot.locale; worded by the cog).
    lines: tuple[str, ...] = (
        Message(N_("The deal: {name} plays first."), name=Name(names[record.deal.first_seat])),
    )
    for item in replay(record):
        if item.number > step:
            break
        state = item.state
        lines = tuple(
            EventLine(engine.describe_event(e, item.seat, names), e, names)
            for e in item.events
            if not isinstance(e, TurnStarted)
        )
    views = tuple(engine.view(state, seat) for seat in range(record.rules.players))
    return ReplayFrame(step, total, lines, views, engine.view(state, None))


# ---------------------------------------------------------------------------------------------
# Reviews


def init_worker() -> None:
    """Start-up of a review process: the bot's small AI memo budget (docs/benchmarks.md), not
    the simulator's, so that a worker stays small beside the bot; and deaf to Ctrl+C, which
    reaches the whole process group: the bot alone handles it (and stops the pool)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    bound_memos()


@contextlib.contextmanager
def _spawning_deaf_to_ctrl_c() -> Iterator[None]:
    """The pool starts its processes as tasks are submitted: while SIGINT is ignored here, a
    process started now is born ignoring it (Python keeps an ignored SIGINT ignored), before
    :func:`init_worker` runs, so Ctrl+C in its first second prints no traceback either."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def review_task(text: str, number: int, rollouts: int | None, seed: int) -> Decision:
    """One decision of a record (given as text, which pickles cheaply): run in a worker.
    ``rollouts``: the play-outs the decision may spend (None: the game's default)."""
    return review_decision(parse_record(text), number, rollouts, seed)


@dataclass(frozen=True, slots=True)
class ReviewResult:
    """A finished review: the seat reviewed and its decisions in the game's order."""

    game_id: str
    seat: int
    name: str
    rollouts: int | None
    decisions: tuple[Decision, ...]
    hints: int = 0
    """How many hints the seat asked for during the game (an unrated game's record notes them)."""

    @property
    def mistakes(self) -> list[Decision]:
        """The named mistakes (inaccuracies, mistakes, blunders), largest loss first."""
        return ordered(self.decisions)

    def count(self, verdict: Verdict) -> int:
        """How many decisions got ``verdict``."""
        return sum(d.verdict is verdict for d in self.decisions)


@dataclass(slots=True)
class Progress:
    """Where a review stands, for the caller to show: ``queued`` ahead (0 once running),
    ``done`` of ``total`` decisions."""

    queued: int = 0
    done: int = 0
    total: int = 0
    waiting: bool = field(default=False)


ProgressCallback = Callable[[Progress], Awaitable[None]]


class ReviewService:
    """Runs reviews in an executor, at most ``max_running`` at once (the rest queue)."""

    def __init__(
        self,
        replays: ReplayService,
        *,
        executor: Executor | None = None,
        workers: int = DEFAULT_WORKERS,
        max_running: int = DEFAULT_MAX_RUNNING,
        rollouts: int | None = None,
        public: bool = False,
    ) -> None:
        """``executor`` defaults to a process pool of ``workers`` processes, made on first use;
        ``rollouts`` is the play-outs a decision may spend (None: each game's default)."""
        self.replays = replays
        self._executor = executor
        self._own_executor = executor is None
        self._workers = workers
        self.max_running = max_running
        self.rollouts = rollouts
        self.public = public
        self._running = 0
        self._queue: list[asyncio.Future[None]] = []

    @property
    def running(self) -> int:
        """Reviews running now."""
        return self._running

    @property
    def queued(self) -> int:
        """Reviews waiting for a free slot."""
        return len(self._queue)

    def _pool(self) -> Executor:
        if self._executor is None:
            # Spawned workers: a forked copy of the bot (its event loop, its database
            # connection) must never run in a worker.
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(
                self._workers, mp_context=context, initializer=init_worker
            )
        return self._executor

    def close(self) -> None:
        """Stop the pool (if this service made it)."""
        if self._own_executor and self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    def seat_to_review(
        self,
        game: LoadedGame,
        requester: int,
        member: int | None,
        *,
        public: bool | None = None,
        owner_allows: bool = False,
    ) -> int:
        """The seat ``requester`` may review: his own, or ``member``'s when the server's reviews
        are ``public`` (None: the bot-wide default) or ``owner_allows`` (``member`` lets others
        review his games)."""
        target = requester if member is None else member
        seat = game.seat_of(target)
        if target != requester:
            if not (self.public if public is None else public) and not owner_allows:
                raise UserError(
                    "You can only review your own games here. <@{target}> can let others "
                    "review his games with `/settings reviews:True`, or a server manager can "
                    "make reviews public with `/kapadmin config reviews:public`.",
                    target=target,
                )
            if seat is None:
                raise UserError(
                    "<@{target}> did not play game `{game}`.", target=target, game=game.id
                )
            return seat
        if seat is None:
            raise UserError(
                "You did not play game `{game}`: you can only review your own games.",
                game=game.id,
            )
        return seat

    async def _acquire(self, progress: Progress, report: ProgressCallback) -> None:
        if self._running < self.max_running and not self._queue:
            self._running += 1
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.append(waiter)
        try:
            while not waiter.done():
                progress.queued = self._queue.index(waiter) + 1
                progress.waiting = True
                await report(progress)
                await asyncio.shield(waiter)
        except BaseException:
            if waiter in self._queue:
                self._queue.remove(waiter)
            elif waiter.done() and not waiter.cancelled():
                self._release()  # the slot was handed over to us: pass it on
            raise
        progress.queued = 0
        progress.waiting = False

    def _release(self) -> None:
        if self._queue:
            # Hand the slot straight to the next in line (the running count stays the same).
            self._queue.pop(0).set_result(None)
        else:
            self._running -= 1

    async def review(
        self, game: LoadedGame, seat: int, report: ProgressCallback, *, seed: int = 0
    ) -> ReviewResult:
        """Review ``seat``'s decisions in ``game``; ``report`` is awaited as it progresses."""
        try:
            numbers = decisions_of(game.record, seat)
        except EngineError as exc:
            raise UserError(
                "Game `{game}` cannot be replayed: {error}", game=game.id, error=Name(str(exc))
            ) from None
        progress = Progress(total=len(numbers))
        await self._acquire(progress, report)
        try:
            await report(progress)
            loop = asyncio.get_running_loop()
            text = game.text
            pool = self._pool()
            with _spawning_deaf_to_ctrl_c():
                futures = [
                    loop.run_in_executor(pool, review_task, text, n, self.rollouts, seed)
                    for n in numbers
                ]
            for future in asyncio.as_completed(futures):
                await future
                progress.done += 1
                await report(progress)
            decisions = [f.result() for f in futures]
        finally:
            self._release()
        return ReviewResult(
            game_id=game.id,
            seat=seat,
            name=game.record.seats[seat].name,
            rollouts=self.rollouts,
            decisions=tuple(decisions),
            hints=hints_used(game.record.tags, seat),
        )


def summary_lines(result: ReviewResult, limit: int = 10, locale: str = "en") -> list[str]:
    """The review's named mistakes in lines, in ``locale``, largest first (at most
    ``limit``), each with its action's number, its verdict, its loss and the chances."""
    return [decision_line(decision, locale) for decision in result.mistakes[:limit]]


class Name(Message):
    """A value shown as it is in every language (a member's name, an engine's text): a plain
    string value of a :class:`~bot.locale.Message` would be looked up among the catalogue's
    game words (a member named "left")."""

    def localized(self, locale: str) -> str:
        """The text itself, whatever the language."""
        return str(self)


def mistakes(decisions: Sequence[Decision]) -> list[Decision]:
    """The named mistakes among ``decisions``, largest loss first."""
    return ordered(decisions)


def hints_tag(hints: Sequence[tuple[int, int, str]]) -> str:
    """The record's ``Hints`` tag: how many hints the game's players asked for, and each one
    (``2: seat 0 turn 1 discard 2-1; seat 0 turn 3 draw``)."""
    each = "; ".join(f"seat {seat} turn {turn} {move}" for seat, turn, move in hints)
    return f"{len(hints)}: {each}"


def hints_used(tags: Mapping[str, str], seat: int | None = None) -> int:
    """How many hints a record's ``Hints`` tag counts (:func:`hints_tag`), of one ``seat`` or
    of every seat; 0 without the tag (or with one this bot did not write)."""
    count, _, each = tags.get("Hints", "").partition(":")
    if not count.strip().isdigit():
        return 0
    if seat is None:
        return int(count)
    return sum(1 for hint in each.split(";") if hint.split()[:2] == ["seat", str(seat)])
