"""Fixtures shared by the whole test suite."""

from __future__ import annotations

import logging
import os
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.storage.db import Database
from tests.postgres import PostgresServer, start

# The bot's background compile of the kernel (bot.ai.warm) stays off in the tests, which must
# stay fast, and in the processes they start; a test that wants it turns it on.
os.environ["KAPSHAP_WARM_KERNEL"] = "0"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_target(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """Where a test's database lives, once per backend: a SQLite file in a temporary directory,
    or a fresh database on the session's PostgreSQL server (``pg_url``, asked for only by the
    PostgreSQL half, so a machine without PostgreSQL still runs the SQLite half)."""
    if request.param == "postgresql":
        url: str = request.getfixturevalue("pg_url")
        return url
    return tmp_path / "data" / "kapshap.db"


@pytest.fixture
async def db(db_target: str | Path) -> AsyncIterator[Database]:
    """A real database, fully migrated: every test using it runs on SQLite and on PostgreSQL."""
    database = await Database.open(db_target)
    try:
        yield database
    finally:
        await database.close()


@pytest.fixture
def backend() -> str:
    """The database a simcord bot runs on (tests/discord's ``settings``): SQLite, unless the
    module is marked ``both_backends`` (tests/discord/conftest.py runs it on both then)."""
    return "sqlite"


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PostgresServer]:
    """A real PostgreSQL server for the whole session (tests/postgres.py).

    Without one the test skips saying why; under ``CI=true`` it fails instead, so the
    PostgreSQL half of the suite can never be skipped silently in CI.
    """
    server = start()
    if isinstance(server, str):
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL tests cannot run under CI: {server}")
        pytest.skip(f"no PostgreSQL server: {server}")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_url(pg_server: PostgresServer) -> str:
    """The URL of a new, empty database on the session's PostgreSQL server."""
    name = f"t_{uuid.uuid4().hex[:16]}"
    pg_server.psql(f"CREATE DATABASE {name}")
    return pg_server.url_of(name)


@pytest.fixture(autouse=True)
def root_logger_restored() -> Iterator[None]:
    """A test that runs a command's ``main`` (which sets the log lines up, bot.logs.configure)
    leaves the root logger as it found it: no handler on that test's captured stderr."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    for handler in list(root.handlers):
        if handler not in handlers:
            root.removeHandler(handler)
    root.setLevel(level)
