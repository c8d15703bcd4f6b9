"""The database connection, its transactions and the schema migrations.

One process owns one :class:`Database`, which wraps **one** aiosqlite connection. Every statement
of the process goes through it, inside either :meth:`Database.transaction` (writes, ``BEGIN
IMMEDIATE``) or :meth:`Database.read` (consistent reads). An :class:`asyncio.Lock` serialises
those blocks: on a single connection a transaction is connection-wide state, so two coroutines
interleaving their statements would silently share (and commit or roll back) each other's work.

Migrations are numbered SQL files, ``bot/storage/migrations/NNNN_name.sql``, loaded with
:mod:`importlib.resources` so they are found in an installed wheel too. The number of the last one
applied is kept in ``PRAGMA user_version``, and each file is applied in its own transaction
together with the version bump, so a crash leaves the database at a well-defined version.
"""

from __future__ import annotations

import asyncio
import importlib.resources
import os
import re
import sqlite3
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage.errors import (
    DatabaseUnavailable,
    MigrationError,
    NestedTransactionError,
    StorageError,
)

__all__ = [
    "Database",
    "Migration",
    "Params",
    "Tx",
    "commit_count",
    "load_migrations",
]

#: Parameters of one statement: positional (``?``) or named (``:name``).
Params = Sequence[object] | Mapping[str, object]

BUSY_TIMEOUT_MS = 5000

CRASH_AFTER_COMMIT_ENV = "KAPSHAP_CRASH_AFTER_COMMIT"
"""Test-only: when set to N, the process exits abruptly (``os._exit``) right after its N-th
committed transaction, as a crash would leave the file. The crash tests kill after every commit
point in turn with it."""

CRASH_EXIT_CODE = 86
"""The exit status of such a simulated crash."""

_commits = 0


def commit_count() -> int:
    """How many transactions this process has committed (for the crash tests)."""
    return _commits


def _after_commit() -> None:
    global _commits
    _commits += 1
    limit = os.environ.get(CRASH_AFTER_COMMIT_ENV)
    if limit and _commits >= int(limit):
        os._exit(CRASH_EXIT_CODE)


_MIGRATION_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    """One numbered schema migration."""

    version: int
    name: str
    sql: str


def load_migrations(
    package: str = "bot.storage", folder: str = "migrations"
) -> tuple[Migration, ...]:
    """Load ``NNNN_name.sql`` files from a package folder, sorted and checked for gaps.

    Numbering must run 1, 2, 3 … without gaps or duplicates: ``user_version`` records only the
    last number applied, so a gap or a duplicate would make "what has been applied" ambiguous.
    """
    root = importlib.resources.files(package).joinpath(folder)
    found: list[Migration] = []
    for entry in root.iterdir():
        if not entry.name.endswith(".sql"):
            continue
        match = _MIGRATION_NAME.match(entry.name)
        if match is None:
            raise MigrationError(f"migration file {entry.name!r} is not named NNNN_name.sql")
        found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise MigrationError(
                f"migrations must be numbered 1..N without gaps: expected {expected:04d}, "
                f"found {migration.version:04d}_{migration.name}"
            )
    return tuple(found)


class Tx:
    """The connection, lent to one block of :meth:`Database.transaction` or :meth:`~Database.read`.

    Repositories receive a ``Tx`` so that a service can compose several repository calls into one
    atomic transaction. It refuses to be used once its block has ended, because a statement run
    then would land outside the transaction, or inside somebody else's.
    """

    __slots__ = ("_conn", "_open")

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn
        self._open = True

    def _check(self) -> aiosqlite.Connection:
        if not self._open:
            raise StorageError("this transaction has already ended")
        return self._conn

    def _close(self) -> None:
        self._open = False

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement and return the number of rows it changed."""
        async with self._check().execute(sql, params) as cursor:
            return cursor.rowcount

    async def insert(self, sql: str, params: Params = ()) -> int:
        """Run one ``INSERT`` and return the new row's rowid."""
        async with self._check().execute(sql, params) as cursor:
            rowid = cursor.lastrowid
        if rowid is None:  # pragma: no cover - sqlite3 always sets it after an INSERT
            raise StorageError("INSERT returned no rowid")
        return rowid

    async def executemany(self, sql: str, rows: Iterable[Params]) -> int:
        """Run one statement for each parameter row; return the total rows changed."""
        async with self._check().executemany(sql, rows) as cursor:
            return cursor.rowcount

    async def fetchone(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        """Return the first row of a query, or ``None``."""
        async with self._check().execute(sql, params) as cursor:
            row: sqlite3.Row | None = await cursor.fetchone()
            return row

    async def fetchall(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        """Return every row of a query."""
        rows = await self._check().execute_fetchall(sql, params)
        return list(rows)

    async def scalar(self, sql: str, params: Params = ()) -> Any:
        """Return the first column of the first row, or ``None`` when there is no row."""
        row = await self.fetchone(sql, params)
        return None if row is None else row[0]


class Database:
    """The process's single SQLite connection: pragmas, migrations and serialised transactions.

    Create it with :meth:`open`; close it with :meth:`close`.
    """

    def __init__(self, conn: aiosqlite.Connection, path: str, schema_version: int) -> None:
        """Wrap an open, migrated connection. Use :meth:`open` rather than calling this."""
        self._conn = conn
        self._path = path
        self._schema_version = schema_version
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[Any] | None = None
        self._closed = False

    @classmethod
    async def open(
        cls, path: str | Path, *, migrations: Sequence[Migration] | None = None
    ) -> Database:
        """Open (creating if needed) the database file and bring its schema up to date.

        ``migrations`` defaults to the package's own files; tests pass their own lists.
        ``":memory:"`` opens a private in-memory database.
        """
        location = str(path)
        conn = await _connect(location)
        try:
            # NORMAL is durable in WAL mode except for the last transactions before a power cut,
            # and much faster than FULL (no fsync per commit).
            await conn.execute("PRAGMA synchronous=NORMAL")
            await conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            to_apply = load_migrations() if migrations is None else tuple(migrations)
            version = await _migrate(conn, to_apply)
            await conn.execute("PRAGMA foreign_keys=ON")
        except BaseException:
            await conn.close()
            raise
        return cls(conn, location, version)

    @property
    def path(self) -> str:
        """The database file's path (or ``":memory:"``)."""
        return self._path

    @property
    def schema_version(self) -> int:
        """The ``user_version`` reached after migrating."""
        return self._schema_version

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """A write transaction: ``BEGIN IMMEDIATE`` … ``COMMIT``, or ``ROLLBACK`` on any exception.

        IMMEDIATE takes the write lock at the start, so a transaction never fails half-way with
        SQLITE_BUSY when it first writes. Transactions of this process run one at a time; keep
        them short (no network calls inside).
        """
        async with self._exclusive(), self._begun("BEGIN IMMEDIATE") as tx:
            yield tx

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Tx]:
        """A read-only block seeing one consistent snapshot (a deferred transaction).

        It waits for any running write transaction of this process to finish, so it never sees
        half of one. Do not write inside it.
        """
        async with self._exclusive(), self._begun("BEGIN") as tx:
            yield tx

    async def explain_query_plan(self, sql: str, params: Params = ()) -> list[str]:
        """The ``EXPLAIN QUERY PLAN`` lines of a statement (used by benchmarks and tests)."""
        async with self.read() as tx:
            rows = await tx.fetchall(f"EXPLAIN QUERY PLAN {sql}", params)
        return [str(row[3]) for row in rows]

    async def close(self) -> None:
        """Wait for the running transaction, then close the connection. Safe to call twice."""
        if self._closed:
            return
        async with self._lock:
            self._closed = True
            await self._conn.close()

    @asynccontextmanager
    async def _exclusive(self) -> AsyncIterator[None]:
        task = asyncio.current_task()
        if task is not None and self._owner is task:
            raise NestedTransactionError(
                "already inside a transaction on this database; pass its Tx down instead"
            )
        async with self._lock:
            if self._closed:
                raise StorageError("the database is closed")
            self._owner = task
            try:
                yield
            finally:
                self._owner = None

    @asynccontextmanager
    async def _begun(self, begin: str) -> AsyncIterator[Tx]:
        tx = Tx(self._conn)
        try:
            await self._conn.execute(begin)
            yield tx
        except BaseException:
            tx._close()
            await _rollback_quietly(self._conn)
            raise
        tx._close()
        try:
            await self._conn.execute("COMMIT")
        except BaseException:
            await _rollback_quietly(self._conn)
            raise
        if begin != "BEGIN":  # a write transaction: a commit point
            _after_commit()


async def _connect(location: str) -> aiosqlite.Connection:
    """Open the file and switch it to WAL; a path that cannot be a database raises
    :class:`DatabaseUnavailable` with one line saying why (a directory, unreadable, not SQLite)."""
    conn: aiosqlite.Connection | None = None
    try:
        if location != ":memory:":
            if Path(location).is_dir():
                raise IsADirectoryError(location)
            Path(location).parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: the sqlite3 module must not open transactions behind our back;
        # every transaction is an explicit BEGIN issued by this class.
        conn = await aiosqlite.connect(location, isolation_level=None)
        conn.row_factory = sqlite3.Row
        # The first statement reads the file: a file that is not a database fails here.
        await conn.execute_fetchall("PRAGMA journal_mode=WAL")
    except (sqlite3.DatabaseError, OSError) as exc:
        if conn is not None:
            await conn.close()
        raise DatabaseUnavailable(_unavailable(location, exc)) from exc
    return conn


def _unavailable(location: str, exc: BaseException) -> str:
    """One line saying why ``location`` cannot be used as the database."""
    if isinstance(exc, IsADirectoryError):
        why = "it is a directory, not a database file"
    elif isinstance(exc, PermissionError):
        why = "permission denied"
    elif isinstance(exc, OSError):
        why = exc.strerror or str(exc)
    elif "not a database" in str(exc) or "malformed" in str(exc):
        why = "it is not a SQLite database (or it is damaged)"
    elif "unable to open" in str(exc):
        why = "it cannot be opened (a missing or unreadable directory, or no permission)"
    else:
        why = str(exc)
    return f"cannot use the database {location}: {why}"


async def _rollback_quietly(conn: aiosqlite.Connection) -> None:
    """Roll back whatever transaction is open, if any.

    The ROLLBACK is issued unconditionally rather than after checking ``in_transaction``: aiosqlite
    runs statements in order on its worker thread, so a BEGIN whose caller was cancelled may still
    be queued and not yet visible in ``in_transaction``. Queued after it, the ROLLBACK always
    undoes it; "no transaction is active" is then the harmless case.
    """
    try:
        await conn.execute("ROLLBACK")
    except sqlite3.OperationalError as exc:
        if "no transaction is active" not in str(exc):
            raise


async def _user_version(conn: aiosqlite.Connection) -> int:
    rows = list(await conn.execute_fetchall("PRAGMA user_version"))
    return int(rows[0][0])


async def _migrate(conn: aiosqlite.Connection, migrations: Sequence[Migration]) -> int:
    """Apply the migrations newer than ``user_version``; return the version reached."""
    current = await _user_version(conn)
    latest = migrations[-1].version if migrations else 0
    if current > latest:
        raise MigrationError(
            f"the database is at schema version {current}, newer than this code ({latest}); "
            "refusing to run an older version of the bot against it"
        )
    pending = [m for m in migrations if m.version > current]
    if not pending:
        return current
    # Foreign keys are off while migrating so that a migration may rebuild a table (create the
    # new one, copy, drop, rename) as SQLite recommends; foreign_key_check verifies the result
    # before each commit instead. The pragma is a no-op inside a transaction, so set it here.
    await conn.execute("PRAGMA foreign_keys=OFF")
    for migration in pending:
        # executescript() would COMMIT an open transaction first, so BEGIN goes inside the script
        # and the script ends without COMMIT, leaving the check and the COMMIT to us.
        script = (
            f"BEGIN IMMEDIATE;\n{migration.sql}\n;\nPRAGMA user_version = {migration.version};\n"
        )
        try:
            await conn.executescript(script)
            violations = list(await conn.execute_fetchall("PRAGMA foreign_key_check"))
            if violations:
                raise MigrationError(
                    f"migration {migration.version:04d}_{migration.name} leaves "
                    f"{len(violations)} foreign key violation(s)"
                )
            await conn.execute("COMMIT")
        except BaseException:
            await _rollback_quietly(conn)
            raise
    return pending[-1].version
