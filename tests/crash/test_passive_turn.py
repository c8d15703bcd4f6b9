"""Kill the process after every commit point of a timed-out turn: the turn is played passively
and counted exactly once, by the process that fired it or by the one that fires it after the
crash, and the table stays consistent (issue 20: a passive turn once took several commits, and
a kill between them counted the timeout twice or not at all).

As ``test_crash_points.py``: the scenario runs in a forked child killed right after its N-th
commit (``KAPSHAP_CRASH_AFTER_COMMIT=N``), on SQLite and on PostgreSQL. Then a second process,
its clock just past the turn's deadline, starts on the database and fires what is due, as a
surviving process does (``poll_seconds`` set: the time is not given back).
"""

from __future__ import annotations

import asyncio
import os
import random
import traceback
from datetime import timedelta
from pathlib import Path

import pytest

from bot.services.clock import ManualClock
from bot.services.tables import TableService
from bot.storage.db import (
    CRASH_AFTER_COMMIT_ENV,
    CRASH_EXIT_CODE,
    Database,
    commit_count,
    reset_commit_count,
)
from bot.storage.integrity import find_problems
from tests.crash.backends import Backend, Target
from tests.crash.scenario import ALICE, BOB, GUILD, Journal, make_services, read_journal

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")

CHANNEL = 130
TURN_SECONDS = 60  # make_services' turn timer


async def _fire(service: TableService, journal: Journal, seat: int) -> None:
    for outcome in await service.expire_due():
        timeouts = [step for step in outcome.steps if step.by_timeout]
        if timeouts:
            journal.ack(op="fired", game=outcome.table.id, seat=seat, steps=len(timeouts))


async def timed_out_turn(db_path: Target, journal_path: Path, seed: int) -> int:
    """Open and start a two-player table, play the first move, let the second player's timer
    run out and fire it; the number of commits made."""
    clock = ManualClock()
    db = await Database.open(db_path)
    journal = Journal(journal_path)
    try:
        service = make_services(db, clock, seed)
        await service.restore()
        table = await service.open_table(
            guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, host_name="Alice"
        )
        await service.join(CHANNEL, BOB, "Bob")
        await service.start(CHANNEL, ALICE)
        # The opener moves himself, so the turn that times out is a whole turn (a draw, then a
        # discard: several actions).
        rng = random.Random(seed)
        opener = table.state.current if table.state is not None else None
        while table.state is not None and table.state.current == opener:
            mover = table.current_seat
            assert mover is not None and mover.user_id is not None
            await service.act(CHANNEL, mover.user_id, rng.choice(table.legal()))
        state = table.state
        assert state is not None and state.result is None
        journal.ack(op="timed", game=table.id, seat=state.current, turn=state.turn)
        clock.advance(timedelta(seconds=TURN_SECONDS + 1))
        await _fire(service, journal, state.current)
    finally:
        journal.close()
        await db.close()
    return commit_count()


async def fire_after_the_crash(db_path: Target, journal_path: Path) -> list[str]:
    """A second process fires what is due; what is wrong with the timed-out turn, in words."""
    timed = [e for e in read_journal(journal_path) if e["op"] == "timed"]
    if not timed:
        return []  # killed before the table was running: nothing timed out
    [entry] = timed
    clock = ManualClock()
    clock.advance(timedelta(seconds=TURN_SECONDS + 1))
    db = await Database.open(db_path)
    journal = Journal(journal_path)
    wrong: list[str] = []
    try:
        service = make_services(db, clock, 0)
        service.poll_seconds = 2.0  # a surviving process: the turn timers never stopped
        await service.restore()
        await _fire(service, journal, entry["seat"])
        table = await service.lookup(CHANNEL)
        async with db.read() as tx:
            problems, _ = await find_problems(tx)
            wrong.extend(str(p) for p in problems)
            counts = await tx.fetchall(
                "SELECT seat, timeouts FROM seat_state WHERE game_id = ?", (entry["game"],)
            )
            seats = [
                int(row[0])
                for row in await tx.fetchall(
                    "SELECT seat FROM game_actions WHERE game_id = ? ORDER BY seq",
                    (entry["game"],),
                )
            ]
    finally:
        journal.close()
        await db.close()
    fired = [e for e in read_journal(journal_path) if e["op"] == "fired"]
    if len(fired) > 1:
        wrong.append(f"the turn was fired {len(fired)} times: {fired}")
    timeouts = {int(seat): int(n) for seat, n in counts}
    if timeouts.get(entry["seat"]) != 1:
        wrong.append(f"the timed-out seat's count is {timeouts.get(entry['seat'])}, not 1")
    # The log: the opener's move, then the timed-out seat's one passive turn, then nobody (the
    # opener's next turn is not due yet).
    turns = [seat for i, seat in enumerate(seats) if i == 0 or seats[i - 1] != seat]
    if turns != [1 - entry["seat"], entry["seat"]]:
        wrong.append(f"the log's turns are by seats {turns} ({seats})")
    if table is None or not table.running or table.state is None:
        wrong.append("the table is not running after the timed-out turn")
    elif table.state.current == entry["seat"]:
        wrong.append("the timed-out seat is still to play")
    return wrong


def _child(db: Target, journal: Path, crash_after: int | None, seed: int) -> int:
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 0
        try:
            reset_commit_count()
            if crash_after is None:
                os.environ.pop(CRASH_AFTER_COMMIT_ENV, None)
            else:
                os.environ[CRASH_AFTER_COMMIT_ENV] = str(crash_after)
            commits = asyncio.run(timed_out_turn(db, journal, seed))
            (journal.parent / "commits").write_text(str(commits))
        except BaseException:
            traceback.print_exc()
            code = 1
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_kill_at_every_commit_of_a_timed_out_turn_fires_it_once(
    backend: Backend, seed: int
) -> None:
    db, journal = backend.fresh("full")
    assert _child(db, journal, None, seed) == 0
    total = int((journal.parent / "commits").read_text())
    [fired] = [e for e in read_journal(journal) if e["op"] == "fired"]
    assert fired["steps"] >= 2  # a whole passive turn: several actions
    assert asyncio.run(fire_after_the_crash(db, journal)) == []
    backend.drop("full")
    failures: list[str] = []
    for point in range(1, total + 1):
        db, journal = backend.fresh(f"kill{point}")
        code = _child(db, journal, point, seed)
        if code != CRASH_EXIT_CODE:
            failures.append(f"kill point {point}: the child exited with {code}")
        else:
            wrong = asyncio.run(fire_after_the_crash(db, journal))
            failures.extend(f"kill point {point} of {total}: {w}" for w in wrong)
        backend.drop(f"kill{point}")
    assert failures == []
