"""One bot process of the multi-process tests (issue 20): the services built as the bot builds
them on a shared PostgreSQL database, driven for a bounded number of operations.

Run as ``python -m tests.multiprocess.worker MODE URL INDEX SEED OPS JOURNAL [OFFSET]``:

``play``
    acts on SHARED tables and accounts, as several bot processes answering the same members do:
    opens, joins, fills (computer seats) and starts tables in a few shared channels, plays the
    move of whoever is to act, and gives chips between shared accounts. A refusal (the channel
    is busy, he is already seated, another process moved first) is what a member would be told
    and is skipped. A move's interaction id and the move itself are derived from the table and
    version it was chosen for, so two processes that see the same state deliver *the same*
    interaction (a doubled delivery); a gift's key is shared by every process in the same way.
    A move acknowledged here is sometimes delivered again at once: it must be refused.
``hold``
    opens and starts :data:`TIMED_TABLES` two-player tables, journals them, then runs its
    scheduler (``expire_due``) until it is killed: the process holding their turn timers. Its
    clock then moves ``OPS`` seconds on (0: nothing falls due before the kill; past the turn
    length: it is killed while it fires them).
``tourney``
    enters the members in the one tournament (created by the test; every process enters
    them all, a refusal is another's entry), moves its clock past the sign-up's close, then
    fires the event's clock and plays every running table's move until the event is over.
``fire``
    runs ``expire_due`` until no deadline is due (or ``OPS`` rounds), journaling every fired
    turn: the survivor of a ``kill -9`` of the ``hold`` process.
``serve`` (``serve-timed``: first opens the ``hold`` process's timed tables)
    a whole bot process for the rolling restart (issue 21): two streams of ``play`` operations
    at once (``OPS`` each) and its scheduler, until SIGTERM. Then it stops as the bot does
    (:class:`bot.services.lifecycle.InFlight`): no new operation, those in flight finished, the
    scheduler's pass finished before it stops, the stop recorded, the database closed; exit 0.
    Its clock moves two turn lengths on when the file ``JOURNAL.later`` appears.

``OFFSET`` (seconds, default 0) is added to the real clock: the processes agree on it, so a
deadline set by one falls due at another at once, without a test waiting for it.

Before its first operation a ``play`` or ``fire`` worker writes ``JOURNAL.ready`` and waits
for ``JOURNAL.go`` (the test creates it when every worker is ready), so the workers really run
at the same time. Every acknowledged operation is one JSON line of the journal
(:class:`tests.crash.scenario.Journal`, written straight to the file, so a ``kill -9`` loses at
most the operation in flight).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import random
import signal
import sys
import time
from collections.abc import Sequence
from datetime import datetime, timedelta
from pathlib import Path

from bot.app import SHARED_POLL_SECONDS
from bot.services.chips import ChipsDefaults, ChipsService
from bot.services.clock import SystemClock
from bot.services.errors import UserError
from bot.services.lifecycle import InFlight
from bot.services.ratings import RatingService
from bot.services.server import ServerService
from bot.services.tables import Outcome, Table, TableDefaults, TableService
from bot.services.tables.play import _applied_notation
from bot.services.tables.store import _apply
from bot.services.tournaments import TournamentService
from bot.storage.db import Database
from bot.storage.games import GamesRepo
from bot.storage.tournaments import TournamentRecord
from tests.crash.scenario import Journal

GUILD = 1
USERS = (11, 12, 13, 14, 15, 16)
"""The members every process acts for (their accounts are shared too)."""
CHANNELS = (700, 701, 702)
"""The channels every ``play`` process opens tables in."""
TIMED_CHANNELS = 800
"""The first channel of the ``hold`` process's tables."""
TIMED_TABLES = 6
PLAYERS = USERS
"""The members of the ``tourney`` processes' event."""
SIGN_UP_MINUTES = 10
"""The event's sign-up closes this long after it is created."""
TURN_SECONDS = 60
READY_WAIT_SECONDS = 120.0


class OffsetClock(SystemClock):
    """The real clock moved on by an offset every process of a test agrees on."""

    def __init__(self, offset: float) -> None:
        """``offset`` seconds ahead of the machine's clock."""
        self.offset = timedelta(seconds=offset)

    def now(self) -> datetime:
        """The real time plus the offset."""
        return super().now() + self.offset


def build(db: Database, clock: SystemClock, seed: int) -> TableService:
    """The services as :meth:`bot.app.KapShapBot.setup_hook` builds them on a database other
    processes share (``poll_seconds`` set: versions checked, due rows polled)."""
    chips = ChipsService(db, clock, ChipsDefaults(starting_chips=1000, daily_amount=100))
    return TableService(
        GamesRepo(db),
        chips,
        clock,
        TableDefaults(ante=10, turn_seconds=TURN_SECONDS, timeout_ai_level="random"),
        random.Random(seed),
        ServerService(db),
        RatingService(db, clock),
        poll_seconds=SHARED_POLL_SECONDS,
    )


def move_key(table_id: str, version: int) -> int:
    """The interaction id of the move chosen for a table at a version: the same in every
    process, so two processes seeing one state deliver one interaction twice."""
    digest = hashlib.sha256(f"{table_id}:{version}".encode()).digest()
    return 2**50 + int.from_bytes(digest[:6], "big")


def gift_of(number: int) -> tuple[int, int, int, str]:
    """The ``number``-th gift every process delivers: giver, receiver, amount, key."""
    rng = random.Random(number)
    giver, receiver = rng.sample(USERS, 2)
    return giver, receiver, rng.randint(1, 5), f"mp:{number}"


async def _barrier(journal: Path) -> None:
    """Say this worker is ready; wait for the test's go."""
    journal.with_suffix(".ready").touch()
    go = journal.with_suffix(".go")
    deadline = time.monotonic() + READY_WAIT_SECONDS
    while not go.exists():
        if time.monotonic() > deadline:
            raise SystemExit("no go from the test")
        await asyncio.sleep(0.01)


async def _move(
    service: TableService, db: Database, journal: Journal, channel: int, rng: random.Random
) -> None:
    """The move of whoever is to act at a channel's table, as his interaction carries it."""
    table = await service.lookup(channel)
    if table is None or not table.running or table.state is None:
        return
    seat = table.current_seat
    if seat is None or seat.user_id is None:
        return  # a computer seat's turn: the process that moved before it plays it
    version = table.version
    async with db.read() as tx:
        row = await tx.fetchone(
            "SELECT version, (SELECT COUNT(*) FROM game_actions WHERE game_id = ?) "
            "FROM games WHERE id = ?",
            (table.id, table.id),
        )
    if row is None or int(row[0]) != version:
        return  # moved since (the click below would be refused as out of date anyway)
    logged = int(row[1])  # the log's length at this version: the move's seq is one more
    before = table.state
    action = random.Random(f"{table.id}:{version}").choice(table.legal())
    notation = _applied_notation(before, _apply(before, action)[0], action)
    key = move_key(table.id, version)
    try:
        outcome = await service.act(channel, seat.user_id, action, version=version, interaction=key)
    except UserError:
        # Another process moved first (or delivered this interaction first).
        journal.ack(op="refused", game=table.id, key=str(key))
        return
    journal.ack(
        op="act",
        game=table.id,
        seq=logged + 1,
        seat=before.current,
        notation=notation,
        key=str(key),
    )
    if outcome.finished:
        await service.notify_ended(outcome)  # as the cogs do once the end is shown
    if rng.random() < 0.3:
        # Discord delivers the interaction again (no version: only its id can refuse it).
        try:
            await service.act(channel, seat.user_id, action, interaction=key)
        except UserError:
            return
        journal.ack(op="double", game=table.id, key=str(key))


async def play(
    service: TableService,
    db: Database,
    journal: Journal,
    ops: int,
    seed: int,
    in_flight: InFlight | None = None,
) -> None:
    """``ops`` random operations on the shared tables and accounts (each an action in flight of
    ``in_flight``, which refuses the next once the process stops)."""
    rng = random.Random(seed)
    index = seed * 1_000_000
    gifts = 0
    for number in range(ops):
        verb = rng.choices(
            ("open", "join", "addbot", "start", "move", "give"), (2, 3, 1, 2, 10, 2)
        )[0]
        channel = rng.choice(CHANNELS)
        user = rng.choice(USERS)
        key = index + number
        if in_flight is not None and in_flight.stopping:
            journal.ack(op="restarting", verb=verb)  # what the member would be told
            return
        gift = gifts
        if verb == "give":
            gifts += 1  # the same numbers in every process, whether or not this one succeeds
        try:
            with in_flight.action(verb) if in_flight is not None else contextlib.nullcontext():
                await _operation(service, db, journal, rng, verb, channel, user, key, gift)
        except UserError:
            continue  # what the member would be told: busy, already seated, out of date...


async def _operation(
    service: TableService,
    db: Database,
    journal: Journal,
    rng: random.Random,
    verb: str,
    channel: int,
    user: int,
    key: int,
    gift: int,
) -> None:
    """One operation of :func:`play` (``gift``: the number of the gift it gives)."""
    if verb == "open":
        table = await service.open_table(
            guild_id=GUILD,
            channel_id=channel,
            host_id=user,
            host_name=f"m{user}",
            game=rng.choice(("kap-shap", "kap-tai-shap")),
        )
        journal.ack(op="open", game=table.id)
    elif verb == "join":
        table = await service.join(channel, user, f"m{user}", interaction=key)
        journal.ack(op="join", game=table.id, key=str(key))
    elif verb == "addbot":
        lobby = await service.lookup(channel)
        if lobby is not None:
            table = await service.add_ai(channel, lobby.host_id, "random", interaction=key)
            journal.ack(op="join", game=table.id, key=str(key))
    elif verb == "start":
        lobby = await service.lookup(channel)
        if lobby is not None:
            outcome = await service.start(channel, lobby.host_id, interaction=key)
            journal.ack(op="start", game=outcome.table.id, key=str(key))
    elif verb == "move":
        for _ in range(rng.randint(1, 4)):
            await _move(service, db, journal, channel, rng)
    else:
        giver, receiver, amount, gift_key = gift_of(gift)
        await service._chips.give(GUILD, giver, receiver, amount, gift_key)
        journal.ack(op="give", key=gift_key, amount=amount)


async def hold(service: TableService, clock: OffsetClock, journal: Journal, later: float) -> None:
    """Open and start the timed tables, then keep their timers (until killed); its clock
    moves ``later`` seconds on once they are open (past their deadlines: it is killed while
    it fires them)."""
    await _open_timed(service, journal)
    journal.ack(op="holding")
    clock.offset += timedelta(seconds=later)
    while True:  # the scheduler of a bot process
        await _fire_once(service, journal)
        await asyncio.sleep(0.05)


async def _open_timed(service: TableService, journal: Journal) -> None:
    """Open and start the timed two-player tables, journaled with their deadlines."""
    for number in range(TIMED_TABLES):
        channel = TIMED_CHANNELS + number
        host, guest = USERS[number % 3], USERS[3 + number % 3]
        await service.open_table(
            guild_id=GUILD, channel_id=channel, host_id=host, host_name=f"m{host}"
        )
        await service.join(channel, guest, f"m{guest}")
        outcome = await service.start(channel, host)
        table = outcome.table
        assert table.deadline is not None and table.state is not None
        journal.ack(
            op="timed",
            game=table.id,
            channel=channel,
            deadline=table.deadline,
            turn=table.state.turn,
        )


STOP_SECONDS = 60.0
"""The ``serve`` worker's bound on its stop (the bot's KAPSHAP_SHUTDOWN_SECONDS)."""


async def serve(
    service: TableService,
    db: Database,
    clock: OffsetClock,
    journal: Journal,
    journal_path: Path,
    ops: int,
    seeds: Sequence[int],
) -> None:
    """A bot process until SIGTERM (see the module's docstring), stopped as the bot stops:
    a stream of ``ops`` :func:`play` operations per seed of ``seeds`` (at once) and the
    scheduler."""
    in_flight = InFlight()
    stopped = asyncio.Event()

    def on_sigterm() -> None:
        in_flight.stop()
        stopped.set()

    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, on_sigterm)
    ticking = asyncio.Lock()
    later = journal_path.with_suffix(".later")

    async def scheduler() -> None:
        moved = False
        while True:
            async with ticking:
                if not moved and later.exists():
                    moved = True
                    clock.offset += timedelta(seconds=2 * TURN_SECONDS)
                    journal.ack(op="later")
                await _fire_once(service, journal)
            await asyncio.sleep(0.05)

    ticks = asyncio.create_task(scheduler())
    streams = [
        asyncio.create_task(play(service, db, journal, ops, seed, in_flight)) for seed in seeds
    ]

    async def played() -> None:
        await asyncio.gather(*streams)
        if not in_flight.stopping:
            journal.ack(op="played")

    playing = asyncio.create_task(played())
    await stopped.wait()
    # The bot's stop (bot.app.KapBot.shutdown): no new action, those in flight finished, the
    # scheduler's pass finished before it stops, the stop recorded; the database closes after.
    left = await in_flight.finished(STOP_SECONDS)
    async with ticking:
        ticks.cancel()
    await playing
    await service.stopping()
    journal.ack(op="stopped", left=left)


async def _fire_once(service: TableService, journal: Journal) -> None:
    for outcome in await service.expire_due():
        if outcome.finished:
            await service.notify_ended(outcome)
        journal.ack(
            op="fired",
            game=outcome.table.id,
            timeouts=sum(1 for step in outcome.steps if step.by_timeout),
        )


async def fire(service: TableService, journal: Journal, rounds: int) -> None:
    """The scheduler of a surviving process: fire every due turn, until none is left."""
    for _ in range(rounds):
        await _fire_once(service, journal)
        if not await service._games.due_channels(service._clock.now().timestamp()):
            break
        await asyncio.sleep(0.01)
    journal.ack(op="done")


class Host:
    """The Discord side of a tournament, reduced to what the service needs: a fresh thread id
    per match (unique across processes) and every post journaled."""

    def __init__(self, events: TournamentService, journal: Journal, seed: int) -> None:
        """Post through ``journal``; thread ids drawn from ``seed``."""
        self.events = events
        self.journal = journal
        self._ids = random.Random(seed)

    async def open_thread(self, record: TournamentRecord, match_id: str, title: str) -> int:
        """A new thread's id (never a shared table channel's)."""
        return 10**6 + self._ids.getrandbits(48)

    async def show_table(self, outcome: Outcome) -> None:
        """A table the service opened or moved: a game it ended carries the event on."""
        if outcome.finished:
            await self.events.game_ended(outcome)

    async def post(self, record: TournamentRecord, text: str, *, pictures: bool = False) -> None:
        """Journal what would be posted in the event's channel."""
        self.journal.ack(op="post", text=str(text))

    async def say(
        self,
        channel_id: int,
        guild_id: int,
        text: str,
        mentions: Sequence[int],
        *,
        ready: int | None = None,
    ) -> None:
        """Nothing: a notice in a match's thread."""

    async def table_stopped(self, table: Table) -> None:
        """Nothing: a table the event stopped."""

    async def refresh(self, record: TournamentRecord) -> None:
        """Nothing: the sign-up message."""


def events_of(service: TableService, db: Database, clock: SystemClock) -> TournamentService:
    """The tournament service as the bot builds it beside the table service."""
    events = TournamentService(db, service._chips, service, clock, rng=random.Random(7))
    service.end_listeners.append(events.game_ended)
    return events


async def tourney(
    service: TableService,
    db: Database,
    clock: OffsetClock,
    journal: Journal,
    ops: int,
    seed: int,
) -> None:
    """Sign the players up to the one event (with the other processes), move the clock past
    its sign-up, then play every running table's moves until the event is over."""
    events = events_of(service, db, clock)
    events.host = Host(events, journal, seed)
    async with db.read() as tx:
        tid = int(await tx.scalar("SELECT id FROM tournaments"))
    rng = random.Random(seed)
    for user in rng.sample(PLAYERS, len(PLAYERS)):
        try:
            await events.join(tid, user, f"m{user}")
            journal.ack(op="entered", user=user)
        except UserError:
            continue  # another process entered him first
    clock.offset += timedelta(minutes=SIGN_UP_MINUTES, seconds=1)
    for _ in range(ops):
        await events.expire_due()
        if (await events.view(tid)).record.status == "finished":
            break
        async with db.read() as tx:
            channels = [
                int(r[0])
                for r in await tx.fetchall(
                    "SELECT channel_id FROM games WHERE status = 'running' ORDER BY channel_id"
                )
            ]
        for channel in channels:
            await _move(service, db, journal, channel, rng)
        if not channels:
            await asyncio.sleep(0.01)


async def main(argv: list[str]) -> None:
    """Parse the command line (see the module's docstring) and run the worker."""
    mode, url, index, seed, ops, journal_path = argv[:6]
    offset = float(argv[6]) if len(argv) > 6 else 0.0
    clock = OffsetClock(offset)
    db = await Database.open(url)
    journal = Journal(Path(journal_path))
    try:
        service = build(db, clock, int(seed))
        if mode == "hold":
            await hold(service, clock, journal, float(ops))
        elif mode in ("serve", "serve-timed"):
            if mode == "serve-timed":
                await _open_timed(service, journal)
            await _barrier(Path(journal_path))
            seeds = [int(seed) * 10 + stream for stream in range(2)]
            await serve(service, db, clock, journal, Path(journal_path), int(ops), seeds)
        elif mode in ("play", "fire", "tourney"):
            await _barrier(Path(journal_path))
            if mode == "play":
                await play(service, db, journal, int(ops), int(seed) * 10 + int(index))
            elif mode == "tourney":
                await tourney(service, db, clock, journal, int(ops), int(seed) * 10 + int(index))
            else:
                await fire(service, journal, int(ops))
        else:
            raise SystemExit(f"unknown mode {mode!r}")
        journal.ack(op="exit")
    finally:
        journal.close()
        await db.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
