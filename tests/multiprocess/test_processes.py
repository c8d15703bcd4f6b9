"""Several bot processes (separate OS processes, each with its own connections) on one
PostgreSQL database (issue 20): acting at once on the same tables and accounts, and a ``kill -9``
of the process holding due turn timers. Each process is ``tests/multiprocess/worker.py``; the
checks are made afterwards, on the database, against what the processes acknowledged."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.services.errors import UserError
from bot.services.tournaments import settings_from_options
from bot.storage.db import Database
from bot.storage.integrity import find_problems
from tests.crash.scenario import read_journal
from tests.multiprocess.worker import (
    GUILD,
    PLAYERS,
    SIGN_UP_MINUTES,
    TIMED_TABLES,
    TURN_SECONDS,
    OffsetClock,
    build,
    events_of,
)

ROOT = Path(__file__).resolve().parents[2]
WAIT_SECONDS = 120.0
"""How long a test waits for its processes (generous: the machine may be busy)."""


def _start(
    mode: str, url: str, index: int, seed: int, ops: int, journal: Path, offset: float = 0.0
) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.multiprocess.worker",
            mode,
            url,
            str(index),
            str(seed),
            str(ops),
            str(journal),
            str(offset),
        ],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def _wait_for(
    what: str, condition: Any, processes: list[subprocess.Popen[bytes]], poll: float = 0.02
) -> None:
    """Wait (bounded) until ``condition()``; fail saying why if a process died first."""
    deadline = time.monotonic() + WAIT_SECONDS
    while not condition():
        for process in processes:
            if process.poll() is not None:
                _, err = process.communicate()
                pytest.fail(f"a worker exited ({process.returncode}) before {what}: {err.decode()}")
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(poll)


def _go(journals: list[Path], processes: list[subprocess.Popen[bytes]]) -> None:
    """Every worker is ready: let them all start at once."""
    _wait_for(
        "the workers to be ready",
        lambda: all(j.with_suffix(".ready").exists() for j in journals),
        processes,
    )
    for journal in journals:
        journal.with_suffix(".go").touch()


def _finish(processes: list[subprocess.Popen[bytes]]) -> None:
    """Wait (bounded) for the workers: each exits cleanly, having logged no failure (one the
    services only log, such as a game-end listener's, is a failure here)."""
    for process in processes:
        try:
            _, err = process.communicate(timeout=WAIT_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            _, err = process.communicate()
        assert process.returncode == 0, err.decode()
        assert "Traceback" not in err.decode(), err.decode()


async def _migrated(url: str) -> None:
    # Migrated once here, so the workers start on the current schema together.
    await (await Database.open(url)).close()


async def _problems(db: Database) -> list[str]:
    async with db.read() as tx:
        problems, _ = await find_problems(tx)
    return [str(p) for p in problems]


def test_three_processes_share_tables_and_accounts(pg_url: str, tmp_path: Path) -> None:
    """Three processes at once on the same tables and accounts: every acknowledged move is in
    the log once (and nothing else a member played), every gift moved its chips once, chips
    are conserved, and every running game replays at a fresh process and takes a move."""
    asyncio.run(_migrated(pg_url))
    journals = [tmp_path / f"worker{i}.journal" for i in range(3)]
    workers = [_start("play", pg_url, i, 5, 120, journals[i]) for i in range(3)]
    _go(journals, workers)
    _finish(workers)
    entries = [e for j in journals for e in read_journal(j)]
    assert sum(1 for e in entries if e["op"] == "exit") == 3
    assert asyncio.run(_check_shared(pg_url, entries)) == []


async def _check_shared(
    url: str, entries: list[dict[str, Any]], timed_out: set[str] | frozenset[str] = frozenset()
) -> list[str]:
    """What is wrong with the database after the ``play`` workers, in words. ``timed_out``:
    games whose turn timers fired (a timed-out turn is a member's move nobody acknowledged)."""
    wrong: list[str] = []
    acts = [e for e in entries if e["op"] == "act"]
    wrong += [f"an interaction applied twice: {e}" for e in entries if e["op"] == "double"]
    db = await Database.open(url)
    try:
        wrong += await _problems(db)
        async with db.read() as tx:
            logged = {
                (str(r[0]), int(r[1])): (int(r[2]), str(r[3]))
                for r in await tx.fetchall("SELECT game_id, seq, seat, notation FROM game_actions")
            }
            seats = {
                str(r[0]): json.loads(str(r[1]))
                for r in await tx.fetchall("SELECT id, seats_json FROM games")
            }
            claimed = {
                str(r[0]): str(r[1])
                for r in await tx.fetchall("SELECT key, game_id FROM processed_interactions")
            }
            # Every acknowledged move is in the log, as played, once (one ack per log entry).
            acked = Counter((e["game"], e["seq"]) for e in acts)
            wrong += [f"one move acknowledged {n} times: {k}" for k, n in acked.items() if n > 1]
            for entry in acts:
                found = logged.get((entry["game"], entry["seq"]))
                if found != (entry["seat"], entry["notation"]):
                    wrong.append(f"acknowledged {entry} is logged as {found}")
                if claimed.get(entry["key"]) != entry["game"]:
                    wrong.append(f"the interaction of {entry} is not recorded")
            # Every member's move in the log was acknowledged (every worker exited cleanly, so
            # none was in flight); the computer seats' moves are nobody's interaction.
            for (game, seq), (seat, _) in logged.items():
                if (
                    seats[game][seat].get("user_id") is not None
                    and (game, seq) not in acked
                    and game not in timed_out
                ):
                    wrong.append(f"move {seq} of {game} was applied but never acknowledged")
            # Each gift's key moved its chips once, however many processes delivered it.
            for key in {e["key"] for e in entries if e["op"] == "give"}:
                rows = await tx.fetchall(
                    "SELECT idem_key, delta FROM ledger WHERE idem_key IN (?, ?)",
                    (f"give:{key}", f"give:{key}:in"),
                )
                if len(rows) != 2 or sum(int(r[1]) for r in rows) != 0:
                    wrong.append(f"gift {key} is in the ledger as {rows}")
            running = {
                str(r[0]): int(r[1])
                for r in await tx.fetchall(
                    "SELECT id, channel_id FROM games WHERE status = 'running'"
                )
            }
        # No table stuck: a fresh process replays every running game, someone is to act, with
        # a deadline, and his move is taken.
        fresh = build(db, OffsetClock(0.0), 99)
        restored = {t.id: t for t in await fresh.restore()}
        wrong += [f"quarantined at restore: {q}" for q in fresh.quarantined]
        for game, channel in running.items():
            table = restored.get(game)
            if table is None or not table.running or table.current_seat is None:
                wrong.append(f"running game {game} was not restored as running")
                continue
            mover = table.current_seat.user_id
            if mover is None or table.deadline is None:
                wrong.append(f"running game {game} waits for a computer or has no deadline")
                continue
            try:
                await fresh.act(channel, mover, table.legal()[0])
            except UserError as exc:
                wrong.append(f"running game {game} refused its player's move: {exc}")
        wrong += await _problems(db)
    finally:
        await db.close()
    if not acts or (not running and not any(e["op"] == "start" for e in entries)):
        wrong.append(f"the workers barely played: {Counter(e['op'] for e in entries)}")
    return wrong


@pytest.mark.parametrize("killed", ["before_due", "while_firing"])
def test_kill_9_of_the_timer_holder_and_two_survivors_fire_each_once(
    pg_url: str, tmp_path: Path, killed: str
) -> None:
    """The process holding the tables is killed (before their deadlines, or while its scheduler
    fires them); two survivors, whose clocks (agreed: two turn lengths on) find every deadline
    passed, fire each left exactly once between them."""
    asyncio.run(_migrated(pg_url))
    held = tmp_path / "holder.journal"
    later = 0 if killed == "before_due" else 2 * TURN_SECONDS
    holder = _start("hold", pg_url, 0, 1, later, held)
    try:
        # Killed as soon as its tables are open (before their deadlines), or once its scheduler
        # (its clock then jumps past them) has committed the first timed-out turn.
        _wait_for(
            "the timed tables",
            lambda: any(e["op"] == "holding" for e in read_journal(held)),
            [holder],
            poll=0.002,
        )
        if later:
            asyncio.run(_first_timeout(pg_url, holder))
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.communicate()
    assert holder.returncode == -signal.SIGKILL
    timed = {e["game"]: e for e in read_journal(held) if e["op"] == "timed"}
    assert len(timed) == TIMED_TABLES
    by_holder = [e["game"] for e in read_journal(held) if e["op"] == "fired"]
    if later == 0:
        assert by_holder == [] and sum(asyncio.run(_timeouts(pg_url)).values()) == 0
    journals = [tmp_path / f"survivor{i}.journal" for i in range(2)]
    survivors = [
        _start("fire", pg_url, i, 2 + i, 200, journals[i], 2 * TURN_SECONDS) for i in range(2)
    ]
    _go(journals, survivors)
    _finish(survivors)
    fired = [e for j in journals for e in read_journal(j) if e["op"] == "fired"]
    assert all(e["timeouts"] >= 1 for e in fired)
    # Each table fired once: by the holder (acknowledged, or in flight when it was killed) or by
    # one survivor, never twice.
    fired_games = [e["game"] for e in fired] + by_holder
    assert len(fired_games) == len(set(fired_games)) and set(fired_games) <= set(timed)
    if later == 0:
        assert sorted(fired_games) == sorted(timed)
    # One timeout counted per table, never two, never none: a passive turn and its count
    # commit in one transaction, so wherever the kill fell the turn was fired and counted once.
    after = asyncio.run(_timeouts(pg_url))
    assert after == {game: 1 for game in timed}, after
    assert asyncio.run(_after_timers(pg_url, timed)) == []


async def _first_timeout(url: str, holder: subprocess.Popen[bytes]) -> None:
    """Return (bounded) once the holder has committed its first timed-out turn."""
    db = await Database.open(url)
    try:
        deadline = time.monotonic() + WAIT_SECONDS
        while holder.poll() is None and time.monotonic() < deadline:
            async with db.read() as tx:
                if await tx.scalar("SELECT COUNT(*) FROM game_actions"):
                    return
    finally:
        await db.close()


async def _timeouts(url: str) -> dict[str, int]:
    """The timeouts counted per game."""
    db = await Database.open(url)
    try:
        async with db.read() as tx:
            rows = await tx.fetchall(
                "SELECT g.id, COALESCE(SUM(s.timeouts), 0) FROM games AS g "
                "LEFT JOIN seat_state AS s ON s.game_id = g.id GROUP BY g.id"
            )
    finally:
        await db.close()
    return {str(r[0]): int(r[1]) for r in rows}


async def _after_timers(url: str, timed: dict[str, dict[str, Any]]) -> list[str]:
    """What is wrong after the survivors, in words: chips, a deadline left due, or a table
    whose timed-out turn was not played exactly once (a turn the killed process half played is
    finished by a survivor, not played again)."""
    db = await Database.open(url)
    try:
        wrong = await _problems(db)
        clock = OffsetClock(2 * TURN_SECONDS)
        async with db.read() as tx:
            due = await tx.scalar(
                "SELECT COUNT(*) FROM games WHERE status = 'running' AND deadline <= ?",
                (clock.now().timestamp(),),
            )
        if due:
            wrong.append(f"{due} deadlines still due")
        fresh = build(db, clock, 99)
        restored = {t.id: t for t in await fresh.restore()}
        for game, entry in timed.items():
            state = restored[game].state if game in restored else None
            if state is None or state.turn != entry["turn"] + 1:
                wrong.append(f"game {game}: not one turn on from {entry}: {state}")
    finally:
        await db.close()
    return wrong


def test_three_processes_run_one_tournament(pg_url: str, tmp_path: Path) -> None:
    """Three processes enter the same members, close the sign-up together and play the event's
    tables, each game's end carried on by whichever process ended it: the event is decided
    once, every round's standings posted once, every chip accounted for."""
    tid = asyncio.run(_tournament(pg_url))
    journals = [tmp_path / f"tourney{i}.journal" for i in range(3)]
    workers = [_start("tourney", pg_url, i, 11, 400, journals[i]) for i in range(3)]
    _go(journals, workers)
    _finish(workers)
    entries = [e for j in journals for e in read_journal(j)]
    assert sorted(e["user"] for e in entries if e["op"] == "entered") == sorted(PLAYERS)
    posts = [e["text"] for e in entries if e["op"] == "post"]
    assert len(posts) == len(set(posts)), posts  # nothing announced twice
    assert [e for e in entries if e["op"] == "double"] == []
    assert asyncio.run(_check_tournament(pg_url, tid)) == []


async def _tournament(url: str) -> int:
    db = await Database.open(url)
    try:
        clock = OffsetClock(0.0)
        events = events_of(build(db, clock, 0), db, clock)
        view = await events.create(
            guild_id=GUILD,
            channel_id=5,
            organiser_id=99,
            name="Cup",
            settings=settings_from_options(
                game="kap-shap",
                format=None,
                best_of=1,
                rounds=2,
                buy_in=25,
                prize_split="70/30",
                seats_limit=8,
            ),
            closes_in_minutes=SIGN_UP_MINUTES,
            round_minutes=60,
        )
        return view.id
    finally:
        await db.close()


async def _check_tournament(url: str, tid: int) -> list[str]:
    db = await Database.open(url)
    try:
        wrong = await _problems(db)
        clock = OffsetClock(0.0)
        view = await events_of(build(db, clock, 0), db, clock).view(tid)
        if view.record.status != "finished":
            wrong.append(f"the event is {view.record.status}, not finished")
        async with db.read() as tx:
            open_games = await tx.scalar(
                "SELECT COUNT(*) FROM games WHERE status IN ('lobby', 'running')"
            )
        if open_games:
            wrong.append(f"{open_games} games still open after the event")
    finally:
        await db.close()
    return wrong
