"""Kill the process after every commit point in turn; a fresh start must reach the invariant
and keep every acknowledged operation (see ``tests/crash/scenario.py``).

The scenario runs in a forked child process against a real SQLite file, or a real PostgreSQL
database (one per kill point); the storage layer's test hook (``KAPSHAP_CRASH_AFTER_COMMIT=N``)
makes the child ``os._exit`` right after its N-th commit, which leaves the database exactly as a
crash would (on PostgreSQL the server sees the connection drop). Forking (rather than starting a
new interpreter) skips the imports, so the few hundred kill points take seconds.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
import traceback
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.storage.db import CRASH_AFTER_COMMIT_ENV, CRASH_EXIT_CODE, reset_commit_count
from tests.crash.backends import Backend, Target
from tests.crash.scenario import OP_VERBS, Op, read_journal, run, run_ops, verify

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")


def _fork(db: Target, journal: Path, crash_after: int | None, seed: int) -> int:
    """Start the scenario in a forked process; its pid (the child never returns)."""
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 0
        try:
            reset_commit_count()  # count this child's commits, not the parent's too
            if crash_after is None:
                os.environ.pop(CRASH_AFTER_COMMIT_ENV, None)
            else:
                os.environ[CRASH_AFTER_COMMIT_ENV] = str(crash_after)
            commits = asyncio.run(run(db, journal, seed))
            (journal.parent / "commits").write_text(str(commits))
        except BaseException:
            traceback.print_exc()
            code = 1
        finally:
            os._exit(code)
    return pid


def _child(db: Target, journal: Path, crash_after: int | None, seed: int) -> int:
    """Run the scenario in a forked process; its exit status (CRASH_EXIT_CODE when killed)."""
    _, status = os.waitpid(_fork(db, journal, crash_after, seed), 0)
    return os.waitstatus_to_exitcode(status)


def _count_commits(backend: Backend, seed: int) -> int:
    db, journal = backend.fresh("full")
    assert _child(db, journal, None, seed) == 0
    commits = int((journal.parent / "commits").read_text())
    assert asyncio.run(verify(db, journal)) == []
    assert {e["op"] for e in read_journal(journal)} >= {"ledger", "act", "end", "leave"}
    return commits


@pytest.mark.parametrize("seed", [1])
def test_every_commit_point_is_survived(backend: Backend, seed: int) -> None:
    total = _count_commits(backend, seed)
    assert total > 150  # the scenario is long enough to mean something
    failures: list[str] = []
    # A few children run at once (each is its own process); the parent verifies each as it
    # ends. Kill point N is the child started with KAPSHAP_CRASH_AFTER_COMMIT=N.
    workers = max(1, min(4, os.cpu_count() or 1))
    points = iter(range(1, total + 1))
    running: dict[int, int] = {}

    def launch() -> None:
        point = next(points, None)
        if point is not None:
            db, journal = backend.fresh(f"kill{point}")
            running[_fork(db, journal, point, seed)] = point

    for _ in range(workers):
        launch()
    while running:
        pid, status = os.waitpid(-1, 0)
        point = running.pop(pid, None)
        if point is None:  # not one of ours
            continue
        launch()
        db, journal = backend.of(f"kill{point}")
        code = os.waitstatus_to_exitcode(status)
        if code != CRASH_EXIT_CODE:
            failures.append(f"kill point {point}: the child exited with {code}")
            backend.drop(f"kill{point}")
            continue
        wrong = asyncio.run(verify(db, journal))
        failures.extend(f"kill point {point}: {w}" for w in wrong)
        if point % 10 == 0:
            # A second start finds everything still right (the repairs are idempotent).
            again = asyncio.run(verify(db, journal))
            failures.extend(f"kill point {point}, second start: {w}" for w in again)
        backend.drop(f"kill{point}")
    assert failures == []


def test_random_time_kills(backend: Backend) -> None:
    """SIGKILL a real interpreter running the scenario at random moments."""
    import random

    rng = random.Random(2024)
    env = {k: v for k, v in os.environ.items() if k != CRASH_AFTER_COMMIT_ENV}
    for attempt in range(3):
        db, journal = backend.fresh(f"random{attempt}")
        child = subprocess.Popen(
            [sys.executable, "-m", "tests.crash.scenario", str(db), str(journal), "3"],
            env=env,
            stdout=subprocess.DEVNULL,
        )
        # Wait until the scenario has started writing, then kill it a random moment later.
        deadline = time.monotonic() + 30
        while not journal.exists() and child.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        time.sleep(rng.uniform(0.0, 0.15))
        child.send_signal(signal.SIGKILL)
        child.wait()
        assert asyncio.run(verify(db, journal)) == []


def _ops_child(db: Path, journal: Path, ops: list[Op], crash_after: int) -> int:
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            reset_commit_count()  # count this child's commits, not the parent's too
            os.environ[CRASH_AFTER_COMMIT_ENV] = str(crash_after)
            asyncio.run(run_ops(db, journal, ops))
        except BaseException:
            traceback.print_exc()
            code = 1
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


_OPS = st.lists(st.tuples(st.sampled_from(OP_VERBS), st.integers(0, 5)), max_size=40)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(ops=_OPS, crash_after=st.integers(1, 80))
def test_random_operations_with_a_random_kill_point_keep_the_invariant(
    tmp_path_factory: pytest.TempPathFactory, ops: list[Op], crash_after: int
) -> None:
    folder = tmp_path_factory.mktemp("ops")
    db, journal = folder / "kap.db", folder / "journal"
    status = _ops_child(db, journal, ops, crash_after)
    assert status in (0, CRASH_EXIT_CODE)
    assert asyncio.run(verify(db, journal)) == []
