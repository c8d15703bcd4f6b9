"""The SQLite backend: one aiosqlite connection, its transactions and its migrations.

The embedded default (:meth:`bot.storage.db.Database.open` with a file path). One process owns
one connection: every statement goes through it, inside either :meth:`SqliteDatabase.transaction`
(``BEGIN IMMEDIATE``) or :meth:`SqliteDatabase.read` (a deferred transaction). An
:class:`asyncio.Lock` serialises those blocks: on a single connection a transaction is
connection-wide state, so two coroutines interleaving their statements would silently share (and
commit or roll back) each other's work.

The number of the last migration applied is kept in ``PRAGMA user_version``.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage import base as _base
from bot.storage.base import Backend, HeldLock, Migration, Params, Row, Tx, load_migrations
from bot.storage.errors import (
    DatabaseUnavailable,
    IntegrityError,
    MigrationError,
    NestedTransactionError,
    StorageError,
)
from bot.storage.stats import PoolUse

__all__ = ["SqliteDatabase", "SqliteTx"]

BUSY_TIMEOUT_MS = 5000


class SqliteTx(Tx):
    """The connection, lent to one block (see :class:`bot.storage.db.Tx`)."""

    backend = "sqlite"
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
        try:
            async with self._check().execute(sql, params) as cursor:
                return cursor.rowcount
        except sqlite3.IntegrityError as exc:
            raise _integrity(exc) from exc

    async def insert(self, sql: str, params: Params = (), *, key: str = "id") -> int:
        """Run one ``INSERT`` and return the new row's rowid (``key`` is its alias here)."""
        try:
            async with self._check().execute(sql, params) as cursor:
                rowid = cursor.lastrowid
        except sqlite3.IntegrityError as exc:
            raise _integrity(exc) from exc
        if rowid is None:  # pragma: no cover - sqlite3 always sets it after an INSERT
            raise StorageError("INSERT returned no rowid")
        return rowid

    async def executemany(self, sql: str, rows: Iterable[Params]) -> int:
        """Run one statement for each parameter row; return the total rows changed."""
        try:
            async with self._check().executemany(sql, rows) as cursor:
                return cursor.rowcount
        except sqlite3.IntegrityError as exc:
            raise _integrity(exc) from exc

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        """Return the first row of a query, or ``None``."""
        try:
            async with self._check().execute(sql, params) as cursor:
                row: sqlite3.Row | None = await cursor.fetchone()
                return row
        except sqlite3.IntegrityError as exc:  # an INSERT … RETURNING
            raise _integrity(exc) from exc

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        """Return every row of a query."""
        try:
            rows = await self._check().execute_fetchall(sql, params)
        except sqlite3.IntegrityError as exc:
            raise _integrity(exc) from exc
        return list(rows)


def _integrity(exc: sqlite3.IntegrityError) -> IntegrityError:
    """The backend-neutral error; ``constraint`` is what follows "constraint failed: "."""
    message = str(exc)
    _, found, what = message.partition("constraint failed: ")
    return IntegrityError(message, what if found else None)


class _SqliteHeld(HeldLock):
    def __init__(self, owner: SqliteDatabase, name: str) -> None:
        self._owner = owner
        self._name = name

    @property
    def name(self) -> str:
        return self._name

    async def release(self) -> None:
        self._owner._held.discard(self._name)


class SqliteDatabase(Backend):
    """The process's single SQLite connection: pragmas, migrations and serialised transactions.

    Opened by :meth:`bot.storage.db.Database.open`; close it with :meth:`close`.
    """

    def __init__(self, conn: aiosqlite.Connection, path: str, schema_version: int) -> None:
        """Wrap an open, migrated connection. Use :meth:`connect` rather than calling this."""
        self._conn = conn
        self._path = path
        self._schema_version = schema_version
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[Any] | None = None
        self._closed = False
        self._held: set[str] = set()

    @classmethod
    async def connect(
        cls, path: str | Path, *, migrations: Sequence[Migration] | None = None
    ) -> SqliteDatabase:
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
    def backend(self) -> str:
        """``"sqlite"``."""
        return "sqlite"

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

    def pool_use(self) -> PoolUse:
        """One connection, in use while a block holds it."""
        return PoolUse(size=0 if self._closed else 1, in_use=int(self._lock.locked()), max_size=1)

    async def hold(self, name: str) -> HeldLock | None:
        """Granted unless this process holds ``name`` already (the file lock makes the process
        the database's only one)."""
        if name in self._held:
            return None
        self._held.add(name)
        return _SqliteHeld(self, name)

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
        tx = SqliteTx(self._conn)
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
            _base._after_commit()


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
