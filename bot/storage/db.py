"""The database, its transactions and the schema migrations, on either backend.

One process owns one :class:`Database`. Every statement of the process goes through it, inside
either :meth:`Database.transaction` (a write transaction) or :meth:`Database.read` (consistent
reads), which lend a :class:`Tx` to the block. Two backends implement it:

* SQLite (:mod:`bot.storage.sqlite`), the embedded default: one aiosqlite connection, ``BEGIN
  IMMEDIATE`` write transactions, one block at a time.
* PostgreSQL (:mod:`bot.storage.postgres`), for several processes: an asyncpg pool; every write
  transaction of every process takes one advisory lock first, so write transactions run one at a
  time as on SQLite; reads run concurrently, each on one snapshot.

:meth:`Database.open` picks the backend from its target: a ``postgresql://`` (or ``postgres://``)
URL opens PostgreSQL, anything else is a SQLite file path. Repositories write one SQL text for
both, with ``?`` or ``:name`` placeholders (:mod:`bot.storage.dialect` translates them).

Migrations are numbered SQL files, ``bot/storage/migrations/NNNN_name.sql``, loaded with
:mod:`importlib.resources` so they are found in an installed wheel too; each is applied in its own
transaction together with the version bump, so a crash or a failure leaves the database at a
well-defined version. PostgreSQL starts from ``migrations/postgresql/0008_baseline.sql`` (see
:func:`bot.storage.postgres.load_postgresql_migrations`).
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path

from bot.storage.base import (
    CRASH_AFTER_COMMIT_ENV,
    CRASH_EXIT_CODE,
    Backend,
    HeldLock,
    Migration,
    Params,
    Row,
    Tx,
    commit_count,
    is_database_url,
    load_migrations,
    mask_url,
    reset_commit_count,
)
from bot.storage.stats import DatabaseStats, PoolUse

__all__ = [
    "CRASH_AFTER_COMMIT_ENV",
    "CRASH_EXIT_CODE",
    "Database",
    "HeldLock",
    "Migration",
    "Params",
    "PoolUse",
    "Row",
    "Tx",
    "commit_count",
    "is_database_url",
    "load_migrations",
    "mask_url",
    "reset_commit_count",
]


class Database:
    """The process's database on either backend. Create it with :meth:`open`; close it with
    :meth:`close`."""

    __slots__ = ("_backend", "stats")

    def __init__(self, backend: Backend) -> None:
        """Wrap an open, migrated backend. Use :meth:`open` rather than calling this."""
        self._backend = backend
        self.stats = DatabaseStats()
        """Block timings for whoever subscribes (the metrics of ``bot.ops``)."""

    @classmethod
    async def open(
        cls, target: str | Path, *, migrations: Sequence[Migration] | None = None
    ) -> Database:
        """Open the database and bring its schema up to date.

        ``target`` is a SQLite file path (created if needed; ``":memory:"`` opens a private
        in-memory database) or a ``postgresql://`` URL. ``migrations`` defaults to the package's
        own files for that backend; tests pass their own lists. A target that cannot be used
        raises :class:`~bot.storage.errors.DatabaseUnavailable` with one line saying why (a
        URL's password masked).
        """
        backend: Backend
        if is_database_url(target):
            # Imported here: a SQLite bot never loads asyncpg.
            from bot.storage.postgres import PostgresDatabase

            backend = await PostgresDatabase.connect(str(target), migrations=migrations)
        else:
            from bot.storage.sqlite import SqliteDatabase

            backend = await SqliteDatabase.connect(target, migrations=migrations)
        return cls(backend)

    @property
    def backend(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self._backend.backend

    @property
    def path(self) -> str:
        """The SQLite file's path (or ``":memory:"``), or the URL with its password masked."""
        return self._backend.path

    @property
    def schema_version(self) -> int:
        """The schema version reached after migrating."""
        return self._backend.schema_version

    def transaction(self) -> AbstractAsyncContextManager[Tx]:
        """A write transaction: committed at the end of the block, rolled back on any exception.

        Write transactions run one at a time (on PostgreSQL across every process too); keep them
        short (no network calls inside). Opening a block inside another of the same task raises
        :class:`~bot.storage.errors.NestedTransactionError` (pass the ``Tx`` down instead).
        """
        return self._timed("write", self._backend.transaction())

    def read(self) -> AbstractAsyncContextManager[Tx]:
        """A read-only block seeing one consistent snapshot. Do not write inside it.

        On SQLite it waits for a running write transaction of this process; on PostgreSQL reads
        run concurrently with each other and with writes (REPEATABLE READ).
        """
        return self._timed("read", self._backend.read())

    @asynccontextmanager
    async def _timed(self, kind: str, block: AbstractAsyncContextManager[Tx]) -> AsyncIterator[Tx]:
        # From asking to the end of the block: waiting for the connection or the write lock is
        # what a slow database makes players feel.
        start = time.perf_counter()
        try:
            async with block as tx:
                yield tx
        finally:
            self.stats.observe(kind, time.perf_counter() - start)

    def pool_use(self) -> PoolUse:
        """The connections open and lent right now (SQLite: its one connection)."""
        return self._backend.pool_use()

    async def hold(self, name: str) -> HeldLock | None:
        """Take the session-wide lock ``name`` without waiting; ``None`` if it is held already.

        For claims that must be unique across processes (a shard, "the start-up repair runs
        once"). On PostgreSQL it is ``pg_try_advisory_lock`` of the name's key
        (:mod:`bot.storage.advisory`) on a connection of its own, held until
        :meth:`HeldLock.release`, :meth:`close`, or the process's death (the server frees it
        with the connection). On SQLite the file lock already makes this process
        the only one, so it is granted unless this process holds ``name`` already.
        """
        return await self._backend.hold(name)

    @property
    def shared(self) -> bool:
        """Whether other processes may change the database behind this one's back (PostgreSQL):
        a cache of its rows must then :meth:`watch` them, and expire besides."""
        return self._backend.shared

    @property
    def watching(self) -> bool:
        """Whether this process hears every change other processes report right now (always on
        SQLite; on PostgreSQL while its listening connection is up)."""
        return self._backend.watching

    def watch(self, topic: str, changed: Callable[[str | None], None]) -> None:
        """Call ``changed(key)`` when another process commits a change of ``key`` under
        ``topic`` (reported by :meth:`Tx.changed` inside its transaction), and ``changed(None)``
        when changes may have gone unheard (the listening connection was lost, or is back).

        On PostgreSQL this is ``LISTEN`` on a connection of its own (started at the first
        watch, reconnected by itself); on SQLite no other process exists and nothing is called.
        """
        self._backend.watch(topic, changed)

    async def explain_query_plan(self, sql: str, params: Params = ()) -> list[str]:
        """The query plan lines of a statement (used by benchmarks and tests)."""
        return await self._backend.explain_query_plan(sql, params)

    async def close(self) -> None:
        """Wait for running blocks, release held locks, then close. Safe to call twice."""
        await self._backend.close()
