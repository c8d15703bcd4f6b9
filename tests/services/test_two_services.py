"""Two table services over one database, as two bot processes would run (issue 20).

Each service has its own :class:`Database` connection, its own chips, games and server services
and its own cache of tables, exactly as a second process would; they share the database file
and the clock. Any service must serve any table: a table the other one opened or moved is loaded
or rebuilt before an action, a stale copy is never acted on, a doubled interaction applies once
and a due timer fires once, whichever process fires it.

:func:`open_database` is the one place that opens a process's connection, so that these tests
can run on every backend the storage layer offers (a PostgreSQL URL once it lands).
"""

from __future__ import annotations

import asyncio
import math
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.games.dominoes.engine.actions import Draw
from bot.services.chips import ChipsDefaults, ChipsService
from bot.services.clock import ManualClock
from bot.services.errors import UserError
from bot.services.server import ServerService
from bot.services.tables import Table, TableDefaults, TableService
from bot.storage.db import Database
from bot.storage.games import GamesRepo
from bot.storage.integrity import find_problems

GUILD = 1
ALICE, BOB, CAROL = 11, 12, 13
OUT_OF_DATE = "That action is out of date: the table has moved on."


async def open_database(target: str | Path) -> Database:
    """One process's own connection to the shared database at ``target`` (a SQLite path or a
    PostgreSQL URL)."""
    return await Database.open(target)


@dataclass
class Pair:
    """Two processes' services on one database."""

    one: TableService
    two: TableService
    dbs: tuple[Database, Database]
    clock: ManualClock


def _service(db: Database, clock: ManualClock, seed: int) -> TableService:
    chips = ChipsService(db, clock, ChipsDefaults(starting_chips=1000, daily_amount=100))
    return TableService(
        GamesRepo(db),
        chips,
        clock,
        TableDefaults(ante=10, turn_seconds=60, timeout_ai_level="random"),
        random.Random(seed),
        ServerService(db),
        poll_seconds=2.0,
    )


def shared_target(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """Where the processes' shared database lives for a test parametrized over the backends:
    a SQLite file, or a fresh database on the session's PostgreSQL server."""
    if request.param == "postgresql":
        url: str = request.getfixturevalue("pg_url")
        return url
    return tmp_path / "shared.db"


@pytest.fixture(params=["sqlite", "postgresql"])
async def db_pair(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[tuple[Database, Database]]:
    """Two connections to one database, as two processes hold (on each backend)."""
    target = shared_target(request, tmp_path)
    first = await open_database(target)
    second = await open_database(target)
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


@pytest.fixture
def pair(db_pair: tuple[Database, Database]) -> Pair:
    """A table service per connection, sharing one clock."""
    clock = ManualClock()
    return Pair(_service(db_pair[0], clock, 1), _service(db_pair[1], clock, 2), db_pair, clock)


async def _problems(db: Database) -> list[str]:
    async with db.read() as tx:
        problems, _ = await find_problems(tx)
    return [str(p) for p in problems]


async def _log_length(db: Database, table_id: str) -> int:
    async with db.read() as tx:
        return int(
            await tx.scalar("SELECT COUNT(*) FROM game_actions WHERE game_id = ?", (table_id,))
        )


async def _running(pair: Pair, channel: int, *, ai: bool = False) -> Table:
    """A game opened by the first service, joined through the second and started by the first."""
    table = await pair.one.open_table(
        guild_id=GUILD,
        channel_id=channel,
        host_id=ALICE,
        host_name="Alice",
        ante=0 if ai else 10,
    )
    if ai:
        await pair.two.add_ai(channel, ALICE, "random")
    else:
        await pair.two.join(channel, BOB, "Bob")
    await pair.one.start(channel, ALICE)
    return table


def _player_to_act(table: Table) -> int:
    seat = table.current_seat
    assert seat is not None and seat.user_id is not None
    return seat.user_id


async def test_a_table_opened_by_one_process_is_served_by_the_other(pair: Pair) -> None:
    table = await pair.one.open_table(
        guild_id=GUILD, channel_id=100, host_id=ALICE, host_name="Alice"
    )
    assert pair.two.get(100) is None  # never seen by the second process
    joined = await pair.two.join(100, BOB, "Bob")  # loaded on demand from the database
    assert joined.id == table.id and [s.user_id for s in joined.seats] == [ALICE, BOB]
    # The first process's copy is one version behind: it is rebuilt before the start.
    outcome = await pair.one.start(100, ALICE)
    assert [s.user_id for s in outcome.table.seats] == [ALICE, BOB]
    # Moves alternate between the processes, each acting on the other's latest state.
    for service in (pair.two, pair.one, pair.two, pair.one):
        current = await service.lookup(100)
        assert current is not None and current.state is not None
        mover = _player_to_act(current)
        await service.act(100, mover, random.Random(0).choice(current.legal()))
    one, two = await pair.one.lookup(100), await pair.two.lookup(100)
    assert one is not None and two is not None
    assert one.version == two.version
    assert one.state == two.state
    assert await _log_length(pair.dbs[0], table.id) == 4
    assert await _problems(pair.dbs[0]) == []


async def test_a_stale_copy_is_never_acted_on(pair: Pair) -> None:
    table = await _running(pair, 110)
    seen = await pair.two.lookup(110)
    assert seen is not None
    drawn_for = seen.version  # the version a button in the second process was drawn for
    mover = _player_to_act(table)
    await pair.one.act(110, mover, table.legal()[0])
    # A click drawn for the older state, at the process that has not seen the move: refused,
    # and its copy is now the latest.
    with pytest.raises(UserError, match="out of date"):
        await pair.two.act(110, mover, "draw", version=drawn_for)
    latest = await pair.one.lookup(110)
    assert latest is not None and seen.version == latest.version and seen.state == latest.state


async def test_a_commit_that_finds_the_row_moved_rebuilds_and_refuses(
    pair: Pair, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The other process commits between this one's version check and its commit."""
    table = await _running(pair, 120)
    await pair.two.lookup(120)
    mover = _player_to_act(table)
    action = table.legal()[0]
    real = pair.two._revalidate
    raced = False

    async def checked_just_before_the_other(target: Table, *, force: bool = False) -> bool:
        nonlocal raced
        fresh = await real(target, force=force)
        if not raced:
            raced = True
            await pair.one.act(120, mover, action)  # lands after the check, before the commit
        return fresh

    monkeypatch.setattr(pair.two, "_revalidate", checked_just_before_the_other)
    with pytest.raises(UserError) as refused:
        await pair.two.act(120, mover, action)
    assert str(refused.value) == OUT_OF_DATE
    assert await _log_length(pair.dbs[0], table.id) == 1  # applied once, by the first
    copy = pair.two.get(120)
    latest = await pair.one.lookup(120)
    assert copy is not None and latest is not None
    assert copy.version == latest.version and copy.state == latest.state
    assert await _problems(pair.dbs[0]) == []


async def test_a_doubled_interaction_applies_once_at_either_process(pair: Pair) -> None:
    """The same interaction delivered again, to the same process and to the other: the draw it
    carried would be legal again (the computer played in between), yet it is not replayed."""
    table = await _running(pair, 130, ai=True)
    assert _player_to_act(table) == ALICE  # the computer seat played after the start, if first
    interaction = 9_000_001
    draw = next(a for a in table.legal() if isinstance(a, Draw))
    await pair.one.act(130, ALICE, draw, interaction=interaction)
    await pair.one.act(130, ALICE, table.legal()[0], interaction=interaction + 1)
    # The computer played; Alice may draw again, so only the interaction's id can tell.
    latest = await pair.two.lookup(130)
    assert latest is not None and _player_to_act(latest) == ALICE
    assert any(isinstance(a, Draw) for a in latest.legal())
    length = await _log_length(pair.dbs[0], table.id)
    for service in (pair.one, pair.two):
        with pytest.raises(UserError, match="out of date"):
            await service.act(130, ALICE, draw, interaction=interaction)
    assert await _log_length(pair.dbs[0], table.id) == length
    # A lobby's computer player added by a doubled interaction: one seat, not two.
    await pair.one.open_table(
        guild_id=GUILD,
        channel_id=131,
        host_id=ALICE,
        host_name="Alice",
        game="kap-tai-shap",
        seats=4,
    )
    await pair.one.add_ai(131, ALICE, "random", interaction=9_000_010)
    with pytest.raises(UserError, match="out of date"):
        await pair.two.add_ai(131, ALICE, "random", interaction=9_000_010)
    lobby = await pair.one.lookup(131)
    assert lobby is not None and len(lobby.seats) == 2


async def test_both_processes_fire_the_same_deadline_and_one_commits(pair: Pair) -> None:
    tables = [await _running(pair, 140 + i) for i in range(4)]
    for table in tables:
        await pair.two.lookup(table.channel_id)  # both processes hold every table
    lengths = [await _log_length(pair.dbs[0], t.id) for t in tables]
    pair.clock.advance(61)
    first, second = await asyncio.gather(pair.one.expire_due(), pair.two.expire_due())
    fired = [o.table.id for o in first + second]
    assert sorted(fired) == sorted(t.id for t in tables)  # each table once, by one of them
    for table, before in zip(tables, lengths, strict=True):
        assert await _log_length(pair.dbs[0], table.id) > before
        states = await pair.one._server.seat_states(table.id)  # type: ignore[union-attr]
        assert [s.timeouts for s in states] == [1]  # one timeout counted, not two
    assert await pair.one.expire_due() == [] and await pair.two.expire_due() == []
    assert await _problems(pair.dbs[0]) == []


async def test_a_deadline_fires_at_a_process_that_never_saw_the_table(pair: Pair) -> None:
    table = await _running(pair, 150)
    pair.two._tables.clear()  # the second process holds nothing (it restarted, say)
    assert pair.two.next_deadline() is not None  # it still looks at the database soon
    pair.clock.advance(61)
    outcomes = await pair.two.expire_due()
    assert [o.table.id for o in outcomes] == [table.id]
    assert outcomes[0].steps and outcomes[0].steps[0].by_timeout
    # The first process's copy is behind; its own scheduler finds nothing left to fire.
    assert await pair.one.expire_due() == []
    assert await _problems(pair.dbs[0]) == []


async def test_a_lobby_nobody_started_is_closed_once(pair: Pair) -> None:
    await pair.one.open_table(guild_id=GUILD, channel_id=160, host_id=ALICE, host_name="Alice")
    await pair.two.open_table(guild_id=GUILD, channel_id=161, host_id=BOB, host_name="Bob")
    pair.clock.advance(16 * 60)
    first, second = await asyncio.gather(pair.one.expire_lobbies(), pair.two.expire_lobbies())
    assert sorted(t.channel_id for t in first + second) == [160, 161]
    for channel in (160, 161):
        assert await pair.one.lookup(channel) is None and await pair.two.lookup(channel) is None
    assert await _problems(pair.dbs[0]) == []


async def test_a_table_aborted_elsewhere_leaves_the_cache(pair: Pair) -> None:
    table = await _running(pair, 170)
    assert await pair.two.lookup(170) is not None
    await pair.one.cancel(170, ALICE, admin=True)
    assert await pair.two.lookup(170) is None
    assert pair.two.get(170) is None
    with pytest.raises(UserError, match="no table"):
        await pair.two.act(170, _player_to_act(table), "draw")
    # The channel is free for either process.
    await pair.two.open_table(guild_id=GUILD, channel_id=170, host_id=BOB, host_name="Bob")
    assert await _problems(pair.dbs[0]) == []


async def test_a_race_of_both_processes_on_many_tables(pair: Pair) -> None:
    """Every move is delivered to both processes at once (as a retried interaction, or two
    processes answering the same table): each applies exactly once, no table is left stuck
    and every chip is accounted for."""
    channels = list(range(200, 206))
    for channel in channels:
        await _running(pair, channel)
    rng = random.Random(7)
    applied = 0
    interaction = 10_000_000
    for _ in range(60):
        moves = []
        for channel in channels:
            table = await pair.one.lookup(channel)
            if table is None or not table.running:
                continue
            interaction += 1
            action = rng.choice(table.legal())
            moves.append((channel, _player_to_act(table), action, interaction))
        if not moves:
            break

        async def deliver(service: TableService, move: tuple[int, int, object, int]) -> bool:
            channel, user, action, key = move
            try:
                await service.act(channel, user, action, interaction=key)  # type: ignore[arg-type]
            except UserError:
                return False
            return True

        results = await asyncio.gather(
            *(deliver(s, m) for m in moves for s in (pair.one, pair.two))
        )
        for i in range(len(moves)):
            assert results[2 * i] + results[2 * i + 1] == 1  # exactly one of the two applied
        applied += len(moves)
    logged = 0
    for channel in channels:
        table = await pair.two.lookup(channel)
        assert table is not None
        if table.running:
            record = await pair.two._games.open_in_channel(channel)
            assert record is not None and record.version == table.version
            assert table.legal()  # someone can move: not stuck
        logged += await _log_length(pair.dbs[0], table.id)
    assert applied > 0 and logged == applied  # every move logged once
    assert await _problems(pair.dbs[0]) == []
    assert await _problems(pair.dbs[1]) == []


async def test_a_restart_while_another_process_is_alive_gives_back_no_time(
    pair: Pair,
) -> None:
    table = await _running(pair, 180)
    deadline = table.deadline
    assert deadline is not None
    pair.clock.advance(50)
    await pair.two.expire_due()  # the second process is alive: it notes so
    restarted = _service(pair.dbs[0], pair.clock, 3)
    restored = await restarted.restore()
    again = next(t for t in restored if t.id == table.id)
    assert again.deadline == deadline  # its timer ran all along: nothing to give back


async def test_table_message_edits_stay_one_a_second_across_processes(pair: Pair) -> None:
    """The edit coalescing of the table message holds across processes, and the last state
    is always drawn by someone."""
    table = await _running(pair, 190)
    theirs = await pair.two.lookup(190)
    assert theirs is not None
    assert await pair.one.edit_turn(table, 1.0) is None  # the first draws now
    assert await pair.two.edit_turn(theirs, 1.0) == math.inf  # that state is drawn already
    await pair.two.act(190, _player_to_act(theirs), theirs.legal()[0])
    # A newer state, but the message was edited less than a second ago: wait for it.
    wait = await pair.two.edit_turn(theirs, 1.0)
    assert wait == pytest.approx(pair.clock.now().timestamp() + 1.0)
    pair.clock.advance(1.0)
    assert await pair.two.edit_turn(theirs, 1.0) is None  # now it draws the newer state
    # The first process's copy is rebuilt before it draws; that state is drawn already.
    mine = await pair.one.by_id(table.id)
    assert mine is table and mine.version == theirs.version
    assert await pair.one.edit_turn(mine, 1.0) == math.inf
    # An interaction's answer that drew the table in place counts as an edit too.
    await pair.one.act(190, _player_to_act(mine), mine.legal()[0])
    pair.clock.advance(2.0)
    await pair.one.drew(mine)
    assert await pair.two.edit_turn(mine, 1.0) == math.inf
