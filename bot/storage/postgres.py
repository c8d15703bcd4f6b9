"""The PostgreSQL backend: an asyncpg pool, serialised write transactions and the migrations.

Opened by :meth:`bot.storage.db.Database.open` with a ``postgresql://`` URL, for a bot that runs
as several processes on one database.

Concurrency (docs/architecture.md, "Storage"): every write transaction, of every process, runs at
READ COMMITTED and first takes one transaction-scoped advisory lock (:data:`WRITE_LOCK_KEY`), so
write transactions run one at a time, exactly as SQLite's ``BEGIN IMMEDIATE`` made them: a
repository's read-then-write can never race another one. Inside one process an
:class:`asyncio.Lock` queues them first, so one pooled connection at most waits on the lock. Reads
run concurrently, each on one REPEATABLE READ READ ONLY snapshot.

The server going away raises :class:`~bot.storage.errors.DatabaseUnavailable` (the callers show
"try again"); the pool opens new connections by itself. Both are logged once.

Caches across processes (:meth:`PostgresDatabase.watch`): a transaction that changes what other
processes cache says so with ``pg_notify`` (:meth:`PostgresTx.changed`), which the server
delivers only if, and once, it commits; each process that watches holds one more connection,
``LISTEN`` on :data:`CHANGES_CHANNEL`, reconnected by itself. A process does not hear its own
notifications (its caches already know what it wrote).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager, suppress
from typing import Any

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.storage import base as _base
from bot.storage.advisory import TRY_LOCK_SQL, UNLOCK_SQL, advisory_key
from bot.storage.base import (
    Backend,
    HeldLock,
    Migration,
    Params,
    Row,
    Tx,
    check_numbering,
    load_migrations,
    mask_url,
    read_migration_files,
)
from bot.storage.dialect import bind, to_postgresql_ddl
from bot.storage.errors import (
    DatabaseUnavailable,
    IntegrityError,
    MigrationError,
    NestedTransactionError,
    StorageError,
)
from bot.storage.stats import PoolUse

__all__ = [
    "BASELINE_VERSION",
    "CHANGES_CHANNEL",
    "MIGRATE_LOCK_KEY",
    "WRITE_LOCK_KEY",
    "PostgresDatabase",
    "PostgresTx",
    "load_postgresql_migrations",
]

log = logging.getLogger(__name__)

#: A pooled connection (the pool lends a proxy of it).
_Conn = asyncpg.Connection | PoolConnectionProxy

#: The advisory lock every write transaction takes first ("KapShap!" in ASCII). A named lock of
#: :meth:`PostgresDatabase.hold` has a SHA-256-derived key (bot.storage.advisory): a collision
#: with this one is a 1 in 2**64 chance.
WRITE_LOCK_KEY = 0x4B61705368617021
#: The advisory lock held while migrating, so two processes starting at once migrate once.
MIGRATE_LOCK_KEY = WRITE_LOCK_KEY + 1

_BEGIN_WRITE = (
    f"BEGIN ISOLATION LEVEL READ COMMITTED; SELECT pg_advisory_xact_lock({WRITE_LOCK_KEY})"
)
_BEGIN_READ = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"

#: The SQLite version the PostgreSQL history starts at (migrations/postgresql/0008_baseline.sql).
BASELINE_VERSION = 8

#: The channel of the caches' change notifications (:meth:`PostgresDatabase.watch`).
CHANGES_CHANNEL = "kapshap_changes"
#: How long the listening connection waits before connecting again, at first and at most.
LISTEN_RETRY_SECONDS = (0.2, 5.0)

POOL_MIN = 1
POOL_MAX = 10
CONNECT_TIMEOUT = 10.0
#: Prepared statements kept per connection: more than the repositories' distinct statements
#: (asyncpg's default of 100 is fewer), so each is parsed and planned once per connection.
STATEMENT_CACHE = 1000

# What the server going away looks like to asyncpg: the socket (OSError), a closed connection
# (InterfaceError's ConnectionDoesNotExistError), class 08 "connection exception" and class 57P
# "operator intervention" (shut down, cannot connect now).
_GONE: tuple[type[BaseException], ...] = (
    OSError,
    asyncio.TimeoutError,
    asyncpg.exceptions.ConnectionDoesNotExistError,
    asyncpg.exceptions.PostgresConnectionError,
    asyncpg.exceptions.OperatorInterventionError,
)

# The server answered but said no: a bad login, an unknown database.
_REFUSED: tuple[type[BaseException], ...] = (
    asyncpg.exceptions.InvalidAuthorizationSpecificationError,
    asyncpg.exceptions.InvalidCatalogNameError,
)
# Whatever asyncpg raises for a URL it cannot use at all.
_CANNOT_CONNECT: tuple[type[BaseException], ...] = (
    ValueError,
    asyncpg.exceptions.PostgresError,
    asyncpg.exceptions.InterfaceError,
    *_GONE,
)


def load_postgresql_migrations(package: str = "bot.storage") -> tuple[Migration, ...]:
    """The PostgreSQL history: the baseline (version 8), then every shared migration from 0009
    on, translated (:func:`~bot.storage.dialect.to_postgresql_ddl`) unless
    ``migrations/postgresql/`` has its own file of that number. ``package`` is for tests."""
    own = {m.version: m for m in read_migration_files(package, "migrations/postgresql")}
    shared = [m for m in load_migrations(package) if m.version > BASELINE_VERSION]
    if BASELINE_VERSION not in own:
        raise MigrationError("migrations/postgresql/0008_baseline.sql is missing")
    history = [own.pop(BASELINE_VERSION)]
    for migration in shared:
        override = own.pop(migration.version, None)
        history.append(
            override
            or Migration(migration.version, migration.name, to_postgresql_ddl(migration.sql))
        )
    if own:
        extra = ", ".join(f"{m.version:04d}_{m.name}" for m in own.values())
        raise MigrationError(f"PostgreSQL migrations without a shared one of that number: {extra}")
    check_numbering(history, first=BASELINE_VERSION)
    return tuple(history)


def _numeric(text: str) -> int | float:
    """``numeric`` values as SQLite gives them: SUM of integers is an int, AVG a float."""
    try:
        return int(text)
    except ValueError:
        return float(text)


async def _setup_connection(conn: asyncpg.Connection) -> None:
    # SUM()/AVG() of a BIGINT column is numeric: decode it as SQLite's int (or float), not Decimal.
    await conn.set_type_codec(
        "numeric", encoder=str, decoder=_numeric, schema="pg_catalog", format="text"
    )


def _rowcount(status: str) -> int:
    """The row count at the end of a command status ("UPDATE 3", "INSERT 0 1")."""
    last = status.rpartition(" ")[2]
    return int(last) if last.isdigit() else -1


def _translate(exc: BaseException, where: str, conn: _Conn | None = None) -> BaseException:
    """The storage error for a driver error (or ``exc`` itself when it is a bug to show)."""
    if isinstance(exc, asyncpg.exceptions.IntegrityConstraintViolationError):
        return IntegrityError(
            f"{exc.__class__.__name__}: {exc}", getattr(exc, "constraint_name", None)
        )
    # A connection the server closed under a running statement can fail with a client-side
    # error first; the closed connection says what really happened.
    if isinstance(exc, _GONE) or (conn is not None and _closed(conn)):
        return DatabaseUnavailable(f"the database {where} is unavailable: {_why(exc)}")
    return exc


def _closed(conn: _Conn) -> bool:
    """Whether a connection is closed. A pooled connection the pool has already taken back
    (it does so with a connection the server closed) can no longer be asked: closed too."""
    try:
        return conn.is_closed()
    except asyncpg.exceptions.InterfaceError:
        return True


def _why(exc: BaseException) -> str:
    """One line saying why a connection failed (never the URL: the caller names it masked)."""
    if isinstance(
        exc,
        asyncpg.exceptions.InvalidPasswordError
        | asyncpg.exceptions.InvalidAuthorizationSpecificationError,
    ):
        return f"refused: {exc}"
    if isinstance(exc, asyncpg.exceptions.InvalidCatalogNameError):
        return f"refused: {exc}"
    if isinstance(exc, ConnectionRefusedError):
        return "connection refused (is the server running, and on this host and port?)"
    if isinstance(exc, asyncio.TimeoutError):
        return "no answer (timed out)"
    if isinstance(exc, OSError):
        return exc.strerror or str(exc) or exc.__class__.__name__
    text = str(exc).strip().splitlines()
    return text[0] if text else exc.__class__.__name__


class PostgresTx(Tx):
    """A pooled connection, lent to one block (see :class:`bot.storage.db.Tx`)."""

    backend = "postgresql"
    __slots__ = ("_conn", "_open", "_origin", "_where")

    def __init__(self, conn: _Conn, where: str, origin: str = "") -> None:
        self._conn = conn
        self._open = True
        self._where = where
        self._origin = origin

    def _check(self) -> _Conn:
        if not self._open:
            raise StorageError("this transaction has already ended")
        return self._conn

    def _close(self) -> None:
        self._open = False

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement and return the number of rows it changed."""
        conn = self._check()
        text, args = bind(sql, params)
        try:
            status: str = await conn.execute(text, *args)
        except Exception as exc:
            raise _translate(exc, self._where, conn) from exc
        return _rowcount(status)

    async def insert(self, sql: str, params: Params = (), *, key: str = "id") -> int:
        """Run one ``INSERT`` and return the new row's ``key`` column (through RETURNING)."""
        conn = self._check()
        text, args = bind(f"{sql} RETURNING {key}", params)
        try:
            value = await conn.fetchval(text, *args)
        except Exception as exc:
            raise _translate(exc, self._where, conn) from exc
        if value is None:
            raise StorageError("INSERT returned no id")
        return int(value)

    async def executemany(self, sql: str, rows: Iterable[Params]) -> int:
        """Run one statement for each parameter row; return the total rows changed."""
        total = 0
        for params in rows:
            total += max(await self.execute(sql, params), 0)
        return total

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        """Return the first row of a query, or ``None``."""
        conn = self._check()
        text, args = bind(sql, params)
        try:
            row: Row | None = await conn.fetchrow(text, *args)
        except Exception as exc:
            raise _translate(exc, self._where, conn) from exc
        return row

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        """Return every row of a query."""
        conn = self._check()
        text, args = bind(sql, params)
        try:
            rows = await conn.fetch(text, *args)
        except Exception as exc:
            raise _translate(exc, self._where, conn) from exc
        return list(rows)

    async def changed(self, topic: str, key: str) -> None:
        """``pg_notify``: the other processes hear of it if, and when, the transaction commits."""
        conn = self._check()
        try:
            await conn.execute(
                "SELECT pg_notify($1, $2)", CHANGES_CHANNEL, f"{self._origin} {topic}:{key}"
            )
        except Exception as exc:
            raise _translate(exc, self._where, conn) from exc


class _PostgresHeld(HeldLock):
    def __init__(self, owner: PostgresDatabase, name: str, conn: asyncpg.Connection) -> None:
        self._owner = owner
        self._name = name
        self._conn: asyncpg.Connection | None = conn

    @property
    def name(self) -> str:
        return self._name

    async def release(self) -> None:
        conn, self._conn = self._conn, None
        if conn is None:
            return
        self._owner._held.pop(self._name, None)
        try:
            await conn.execute(UNLOCK_SQL, advisory_key(self._name))
        except Exception:  # the connection is gone: the server has freed the lock with it
            pass
        finally:
            await conn.close()


class PostgresDatabase(Backend):
    """A pool of connections to one PostgreSQL database (see the module's docstring)."""

    def __init__(self, pool: asyncpg.Pool, dsn: str, schema_version: int) -> None:
        """Wrap an open pool on a migrated database. Use :meth:`connect` rather than this."""
        self._pool = pool
        self._dsn = dsn
        self._where = mask_url(dsn)
        self._schema_version = schema_version
        self._write_lock = asyncio.Lock()
        self._owners: set[asyncio.Task[Any]] = set()
        self._closed = False
        self._down = False
        self._held: dict[str, _PostgresHeld] = {}
        # Caches across processes: who watches which topic, and the listening connection.
        self._origin = secrets.token_hex(8)  # this process's notifications carry it
        self._watchers: dict[str, list[Callable[[str | None], None]]] = {}
        self._listening: asyncio.Task[None] | None = None  # connecting it
        self._listener: asyncpg.Connection | None = None
        self._retry = LISTEN_RETRY_SECONDS[0]
        self._retry_handle: asyncio.TimerHandle | None = None
        self._heard_all = False  # LISTEN is in force on a live connection

    @classmethod
    async def connect(
        cls, dsn: str, *, migrations: Sequence[Migration] | None = None
    ) -> PostgresDatabase:
        """Connect, migrate and return the database; one-line :class:`DatabaseUnavailable` if the
        URL is malformed, the server unreachable, or the login or database refused."""
        where = mask_url(dsn)
        try:
            pool = await asyncpg.create_pool(
                dsn,
                min_size=POOL_MIN,
                max_size=POOL_MAX,
                timeout=CONNECT_TIMEOUT,
                init=_setup_connection,
                reset=_keep_session,
                statement_cache_size=STATEMENT_CACHE,
            )
        except _CANNOT_CONNECT as exc:
            raise DatabaseUnavailable(f"cannot use the database {where}: {_why(exc)}") from None
        try:
            to_apply = load_postgresql_migrations() if migrations is None else tuple(migrations)
            version = await _migrate(pool, to_apply, where)
        except BaseException:
            pool.terminate()
            raise
        return cls(pool, dsn, version)

    @property
    def backend(self) -> str:
        """``"postgresql"``."""
        return "postgresql"

    @property
    def path(self) -> str:
        """The URL, its password masked."""
        return self._where

    @property
    def schema_version(self) -> int:
        """The ``schema_version`` reached after migrating."""
        return self._schema_version

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """A write transaction: READ COMMITTED, the write lock first, COMMIT or ROLLBACK.

        The lock makes every write transaction of every process run one at a time.
        """
        async with self._owned(), self._write_lock, self._begun(_BEGIN_WRITE, False) as tx:
            yield tx

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Tx]:
        """A read-only block on one snapshot (REPEATABLE READ READ ONLY), concurrent with others."""
        async with self._owned(), self._begun(_BEGIN_READ, True) as tx:
            yield tx

    async def explain_query_plan(self, sql: str, params: Params = ()) -> list[str]:
        """The ``EXPLAIN`` lines of a statement."""
        async with self.read() as tx:
            rows = await tx.fetchall(f"EXPLAIN {sql}", params)
        return [str(row[0]) for row in rows]

    def pool_use(self) -> PoolUse:
        """The pool's connections: open, lent to a block, and its maximum."""
        size = self._pool.get_size()
        return PoolUse(size=size, in_use=size - self._pool.get_idle_size(), max_size=POOL_MAX)

    async def hold(self, name: str) -> HeldLock | None:
        """``pg_try_advisory_lock`` of the name's key (:func:`bot.storage.advisory.advisory_key`)
        on a connection of its own, kept until the lock is released; ``None`` when another
        session (or this process) holds it."""
        if name in self._held:
            return None
        try:
            conn = await asyncpg.connect(self._dsn, timeout=CONNECT_TIMEOUT)
        except Exception as exc:
            raise _translate(exc, self._where) from exc
        try:
            granted = await conn.fetchval(TRY_LOCK_SQL, advisory_key(name))
        except BaseException as exc:
            await conn.close()
            if isinstance(exc, Exception):
                raise _translate(exc, self._where, conn) from exc
            raise
        if not granted:
            await conn.close()
            return None
        held = _PostgresHeld(self, name, conn)
        self._held[name] = held
        return held

    # ----------------------------------------------------------------- caches across processes

    @property
    def shared(self) -> bool:
        """Yes: other processes may write."""
        return True

    @property
    def watching(self) -> bool:
        """Whether ``LISTEN`` is in force on a live connection now."""
        return self._heard_all

    def watch(self, topic: str, changed: Callable[[str | None], None]) -> None:
        """Call ``changed`` for the other processes' changes under ``topic`` (see
        :meth:`bot.storage.db.Database.watch`); the listening connection starts now, or at the
        next block when no event loop runs yet."""
        self._watchers.setdefault(topic, []).append(changed)
        self._start_listening()

    def _start_listening(self) -> None:
        """Connect the listening connection (in a short task) unless it is up or coming.

        No task stays waiting while it listens: asyncpg calls :meth:`_heard` and, when the
        connection dies, :meth:`_lost`, which starts this again (so an in-memory Discord's
        "settle" never finds a task parked on an unknown wait)."""
        if (
            self._listener is not None
            or self._listening is not None
            or not self._watchers
            or self._closed
        ):
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # constructed outside a loop: the first block starts it
        self._listening = loop.create_task(self._connect_listener(), name="kapshap-listen")

    async def _connect_listener(self) -> None:
        conn: asyncpg.Connection | None = None
        try:
            conn = await asyncpg.connect(self._dsn, timeout=CONNECT_TIMEOUT)
            await conn.add_listener(CHANGES_CHANNEL, self._heard)
            conn.add_termination_listener(self._lost)
        except Exception as exc:
            if conn is not None:
                conn.terminate()
            if self._retry == LISTEN_RETRY_SECONDS[0]:  # once, not at every retry
                log.warning(
                    "the database %s: cannot listen for changes (%s); caches read afresh "
                    "until it can",
                    self._where,
                    _why(exc),
                )
            self._listening = None
            self._retry_later()
            return
        finally:
            if self._closed and conn is not None and not conn.is_closed():
                conn.terminate()
        self._listening = None
        if self._closed:
            return
        self._listener = conn
        self._retry = LISTEN_RETRY_SECONDS[0]
        self._heard_all = True
        # Whatever changed before LISTEN took effect went unheard.
        self._everything_changed()

    def _lost(self, _conn: object) -> None:
        """The listening connection died: changes may go unheard until it is back."""
        self._listener = None
        if self._heard_all:
            self._heard_all = False
            self._everything_changed()
        if not self._closed:
            log.warning(
                "the database %s: the connection listening for changes was lost; caches read "
                "afresh until it is back",
                self._where,
            )
            self._retry_later()

    def _retry_later(self) -> None:
        if self._closed:
            return
        wait, self._retry = self._retry, min(self._retry * 2, LISTEN_RETRY_SECONDS[1])
        self._retry_handle = asyncio.get_running_loop().call_later(wait, self._start_listening)

    def _heard(self, _conn: object, _pid: int, _channel: str, payload: object) -> None:
        origin, _, change = str(payload).partition(" ")
        if origin == self._origin:
            return  # this process's own change: its caches know already
        topic, _, key = change.partition(":")
        for changed in self._watchers.get(topic, ()):
            changed(key)

    def _everything_changed(self) -> None:
        for watchers in self._watchers.values():
            for changed in watchers:
                changed(None)

    async def close(self) -> None:
        """Release the held locks, wait for running blocks, close the pool. Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        if self._retry_handle is not None:
            self._retry_handle.cancel()
        if self._listening is not None:
            self._listening.cancel()
            if self._listening.get_loop() is asyncio.get_running_loop():
                with suppress(asyncio.CancelledError):
                    await self._listening
        listener, self._listener = self._listener, None
        if listener is not None:
            listener.remove_termination_listener(self._lost)
            self._heard_all = False
            with suppress(Exception):
                await listener.close(timeout=CONNECT_TIMEOUT)
        for held in list(self._held.values()):
            await held.release()
        async with self._write_lock:
            await self._pool.close()

    @asynccontextmanager
    async def _owned(self) -> AsyncIterator[None]:
        """Refuse a block opened inside another block of the same task (it could deadlock)."""
        task = asyncio.current_task()
        if task is not None and task in self._owners:
            raise NestedTransactionError(
                "already inside a transaction on this database; pass its Tx down instead"
            )
        if self._closed:
            raise StorageError("the database is closed")
        if task is not None:
            self._owners.add(task)
        try:
            yield
        finally:
            if task is not None:
                self._owners.discard(task)

    @asynccontextmanager
    async def _begun(self, begin: str, readonly: bool) -> AsyncIterator[Tx]:
        if self._closed:
            raise StorageError("the database is closed")
        if self._listener is None and self._listening is None and self._watchers:
            self._start_listening()
        try:
            conn = await self._pool.acquire()
        except _CANNOT_CONNECT as exc:
            # Connecting failed, whatever the server said (a database refusing connections is
            # SQLSTATE 55000): the database is unavailable, not a bug.
            raise self._unavailable(exc, connecting=True) from exc
        try:
            try:
                # One round trip: BEGIN and, for a write, the write lock (simple query protocol).
                await conn.execute(begin)
            except Exception as exc:
                await _rollback_quietly(conn)
                raise self._unavailable(exc, conn) from exc
            tx = PostgresTx(conn, self._where, self._origin)
            try:
                yield tx
            except BaseException as exc:
                tx._close()
                await _rollback_quietly(conn)
                if isinstance(exc, DatabaseUnavailable):
                    self._note_down(exc)
                raise
            tx._close()
            try:
                await conn.execute("COMMIT")
            except Exception as exc:
                await _rollback_quietly(conn)
                raise self._unavailable(exc, conn) from exc
        finally:
            await self._release(conn)
        if self._down:
            self._down = False
            log.warning("the database %s is reachable again", self._where)
        if not readonly:
            _base._after_commit()

    async def _release(self, conn: PoolConnectionProxy) -> None:
        try:
            await self._pool.release(conn)
        except Exception:  # a broken connection: the pool replaces it on the next acquire
            conn.terminate()

    def _unavailable(
        self, exc: BaseException, conn: _Conn | None = None, *, connecting: bool = False
    ) -> BaseException:
        translated = (
            DatabaseUnavailable(f"the database {self._where} is unavailable: {_why(exc)}")
            if connecting
            else _translate(exc, self._where, conn)
        )
        if isinstance(translated, DatabaseUnavailable):
            self._note_down(translated)
        return translated

    def _note_down(self, exc: DatabaseUnavailable) -> None:
        """Log the server's going away once, until it is back."""
        if not self._down:
            self._down = True
            log.warning("%s; the pool reconnects by itself", exc)


async def _rollback_quietly(conn: _Conn) -> None:
    """Roll back, ignoring a connection that is gone (the server rolled it back already)."""
    with suppress(Exception):
        await conn.execute("ROLLBACK")


async def _keep_session(conn: asyncpg.Connection) -> None:
    """The pool's reset of a returned connection: nothing beyond asyncpg's own ROLLBACK of an
    open transaction. Pooled connections never change session state (no SET, LISTEN or session
    lock), so the default reset query would be one more round trip per transaction for nothing."""


async def _migrate(pool: asyncpg.Pool, migrations: Sequence[Migration], where: str) -> int:
    """Apply the migrations newer than ``schema_version``, each in its own transaction; return
    the version reached. A migration that fails leaves the schema as it was before it."""
    try:
        conn = await pool.acquire()
    except Exception as exc:
        raise DatabaseUnavailable(f"cannot use the database {where}: {_why(exc)}") from None
    try:
        # Two processes starting at once: the second waits here, then finds nothing to do.
        await conn.execute("SELECT pg_advisory_lock($1)", MIGRATE_LOCK_KEY)
        try:
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version ("
                " id BIGINT PRIMARY KEY CHECK (id = 1), version BIGINT NOT NULL)"
            )
            current = int(await conn.fetchval("SELECT version FROM schema_version") or 0)
            latest = migrations[-1].version if migrations else 0
            if current > latest:
                raise MigrationError(
                    f"the database is at schema version {current}, newer than this code "
                    f"({latest}); refusing to run an older version of the bot against it"
                )
            for migration in (m for m in migrations if m.version > current):
                try:
                    async with conn.transaction():
                        await conn.execute(migration.sql)
                        await conn.execute(
                            "INSERT INTO schema_version (id, version) VALUES (1, $1) "
                            "ON CONFLICT (id) DO UPDATE SET version = excluded.version",
                            migration.version,
                        )
                except asyncpg.exceptions.PostgresError as exc:
                    raise MigrationError(
                        f"migration {migration.version:04d}_{migration.name} failed and was "
                        f"rolled back: {exc}"
                    ) from exc
                current = migration.version
            return current
        finally:
            await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATE_LOCK_KEY)
    except _GONE as exc:
        raise DatabaseUnavailable(f"cannot use the database {where}: {_why(exc)}") from None
    finally:
        await pool.release(conn)
