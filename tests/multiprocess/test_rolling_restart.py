"""A rolling restart (issue 21): two bot processes on one PostgreSQL database, members acting
through both; one is stopped by SIGTERM while games are in play and actions arrive, the other
serves its tables and fires its turn timers meanwhile, and it starts again. Every action is
applied exactly once, chips are conserved, no table is stuck.

Each process is ``tests/multiprocess/worker.py serve`` (the services as the bot builds them,
stopped as the bot stops: ``bot.services.lifecycle.InFlight``); the checks are made on the
database against what the processes acknowledged (``_check_shared``)."""

from __future__ import annotations

import asyncio
import signal
import subprocess
from pathlib import Path

from tests.crash.scenario import read_journal
from tests.multiprocess.test_processes import (
    WAIT_SECONDS,
    _check_shared,
    _go,
    _migrated,
    _start,
    _wait_for,
)
from tests.multiprocess.worker import TIMED_TABLES, TURN_SECONDS


def _ops(journal: Path, op: str) -> list[dict[str, object]]:
    return [e for e in read_journal(journal) if e["op"] == op]


def _stop(process: subprocess.Popen[bytes]) -> str:
    """SIGTERM, then its stderr once it has exited (bounded)."""
    process.send_signal(signal.SIGTERM)
    try:
        _, err = process.communicate(timeout=WAIT_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        _, err = process.communicate()
    return err.decode()


def test_a_rolling_restart_of_one_process_of_two_loses_nothing(pg_url: str, tmp_path: Path) -> None:
    asyncio.run(_migrated(pg_url))
    first, other, again = (tmp_path / f"{name}.journal" for name in ("first", "other", "again"))
    # The first process also holds turn timers (tables at their first turn, due in a turn).
    stopping = _start("serve-timed", pg_url, 0, 31, 400, first)
    serving = _start("serve", pg_url, 1, 32, 60, other)
    restarted: subprocess.Popen[bytes] | None = None
    try:
        _go([first, other], [stopping, serving])
        # Stopped while games are in play and both its streams of actions are arriving.
        _wait_for(
            "games in play at the first process",
            lambda: len(_ops(first, "act")) >= 10,
            [stopping, serving],
        )
        err = _stop(stopping)
        assert stopping.returncode == 0, err
        assert "Traceback" not in err, err
        # It finished what was in flight (its stop ran out of nothing), and refused the rest.
        (stopped,) = _ops(first, "stopped")
        assert stopped["left"] == []
        assert _ops(first, "exit") and _ops(first, "restarting")
        assert not _ops(first, "played")  # it was stopped with actions still to come
        # Meanwhile the other process, its clock past their deadlines, fires the stopped
        # process's timers from the database.
        timed = {str(e["game"]) for e in _ops(first, "timed")}
        assert len(timed) == TIMED_TABLES
        other.with_suffix(".later").touch()
        _wait_for(
            "the other process to fire the stopped one's timers",
            lambda: timed <= {str(e["game"]) for e in _ops(other, "fired")},
            [serving],
        )
        # The first process starts again (on the same clock as the other) and serves too.
        restarted = _start("serve", pg_url, 0, 33, 60, again, 2 * TURN_SECONDS)
        _go([again], [restarted, serving])
        _wait_for(
            "both processes to play their actions",
            lambda: bool(_ops(again, "played")) and bool(_ops(other, "played")),
            [restarted, serving],
        )
    finally:
        errors = [_stop(p) for p in (stopping, serving, restarted) if p is not None]
    for process, err in zip((serving, restarted), errors[1:], strict=True):
        assert process is not None and process.returncode == 0, err
        assert "Traceback" not in err, err
    entries = [e for journal in (first, other, again) for e in read_journal(journal)]
    assert sum(1 for e in entries if e["op"] == "exit") == 3
    assert all(e["left"] == [] for e in entries if e["op"] == "stopped")
    # A timed-out turn is a member's move nobody acknowledged: allowed on the games fired.
    fired = {str(e["game"]) for e in entries if e["op"] == "fired"}
    assert asyncio.run(_check_shared(pg_url, entries, timed_out=fired)) == []
