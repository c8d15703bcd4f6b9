"""The types both backends share: :class:`Tx`, :class:`Backend`, rows, migrations, URLs.

:mod:`bot.storage.db` is the public face (``Database``); the backends
(:mod:`bot.storage.sqlite`, :mod:`bot.storage.postgres`) implement :class:`Backend` and
:class:`Tx` from here, so neither imports the other nor ``db``.
"""

from __future__ import annotations

import importlib.resources
import os
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Protocol
from urllib.parse import urlsplit, urlunsplit

from bot.storage.errors import MigrationError
from bot.storage.stats import PoolUse

__all__ = [
    "CRASH_AFTER_COMMIT_ENV",
    "CRASH_EXIT_CODE",
    "Backend",
    "HeldLock",
    "Migration",
    "Params",
    "Row",
    "Tx",
    "commit_count",
    "is_database_url",
    "load_migrations",
    "mask_url",
    "reset_commit_count",
]

#: Parameters of one statement: positional (``?``) or named (``:name``).
Params = Sequence[object] | Mapping[str, object]


class Row(Protocol):
    """One result row: ``row[0]`` or ``row["column"]`` (sqlite3.Row and asyncpg.Record both)."""

    def __getitem__(self, key: Any, /) -> Any: ...

    def __len__(self) -> int: ...

    def __iter__(self) -> Iterator[Any]: ...


CRASH_AFTER_COMMIT_ENV = "KAPSHAP_CRASH_AFTER_COMMIT"
"""Test-only: when set to N, the process exits abruptly (``os._exit``) right after its N-th
committed transaction, as a crash would leave the database. The crash tests kill after every
commit point in turn with it."""

CRASH_EXIT_CODE = 86
"""The exit status of such a simulated crash."""

_commits = 0


def commit_count() -> int:
    """How many transactions this process has committed (for the crash tests)."""
    return _commits


def reset_commit_count() -> None:
    """Count commits from zero again: a crash test's forked child inherits its parent's count,
    and its kill point must count its own commits only."""
    global _commits
    _commits = 0


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


def read_migration_files(package: str, folder: str) -> list[Migration]:
    """Every ``NNNN_name.sql`` file of a package folder, sorted by number (not checked)."""
    root = importlib.resources.files(package).joinpath(*folder.split("/"))
    found: list[Migration] = []
    for entry in root.iterdir():
        if not entry.name.endswith(".sql"):
            continue
        match = _MIGRATION_NAME.match(entry.name)
        if match is None:
            raise MigrationError(f"migration file {entry.name!r} is not named NNNN_name.sql")
        found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    return found


def load_migrations(
    package: str = "bot.storage", folder: str = "migrations"
) -> tuple[Migration, ...]:
    """Load ``NNNN_name.sql`` files from a package folder, sorted and checked for gaps.

    Numbering must run 1, 2, 3 … without gaps or duplicates: the database records only the last
    number applied, so a gap or a duplicate would make "what has been applied" ambiguous.
    """
    found = read_migration_files(package, folder)
    check_numbering(found, first=1)
    return tuple(found)


def check_numbering(found: Sequence[Migration], first: int) -> None:
    """Refuse a gap or a duplicate in numbers that must run ``first``, ``first + 1`` …"""
    for expected, migration in enumerate(found, start=first):
        if migration.version != expected:
            raise MigrationError(
                f"migrations must be numbered {first}..N without gaps: expected {expected:04d}, "
                f"found {migration.version:04d}_{migration.name}"
            )


def is_database_url(target: str | Path) -> bool:
    """Whether ``target`` names a PostgreSQL server (a URL) rather than a SQLite file."""
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


def mask_url(target: str | Path) -> str:
    """``target`` fit to print or log: a URL's password becomes ``***`` (paths unchanged)."""
    text = str(target)
    if "://" not in text:
        return text
    try:
        parts = urlsplit(text)
        netloc = parts.netloc
    except ValueError:
        # Too malformed to parse: keep the scheme only, never risk printing a password.
        return text.split("://", 1)[0] + "://***"
    if "@" in netloc:
        credentials, _, host = netloc.rpartition("@")
        user, colon, _password = credentials.partition(":")
        netloc = f"{user}:***@{host}" if colon else f"{user}@{host}"
    query = re.sub(r"(?i)(password=)[^&]*", r"\1***", parts.query)
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


class HeldLock(ABC):
    """A named lock held for a session (see :meth:`Database.hold`); release it once."""

    @property
    @abstractmethod
    def name(self) -> str:
        """The lock's name."""

    @abstractmethod
    async def release(self) -> None:
        """Give the lock up (safe to call twice)."""


class Tx(ABC):
    """The connection, lent to one block of :meth:`Database.transaction` or :meth:`~Database.read`.

    Repositories receive a ``Tx`` so that a service can compose several repository calls into one
    atomic transaction. It refuses to be used once its block has ended, because a statement run
    then would land outside the transaction, or inside somebody else's. A constraint violation
    raises :class:`~bot.storage.errors.IntegrityError` on both backends.
    """

    __slots__ = ()

    #: ``"sqlite"`` or ``"postgresql"``, for the rare statement that differs (see the callers).
    backend: ClassVar[str] = ""

    @abstractmethod
    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement and return the number of rows it changed."""

    @abstractmethod
    async def insert(self, sql: str, params: Params = (), *, key: str = "id") -> int:
        """Run one ``INSERT`` and return the new row's ``key`` column (its generated id)."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Iterable[Params]) -> int:
        """Run one statement for each parameter row; return the total rows changed."""

    @abstractmethod
    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        """Return the first row of a query, or ``None``."""

    @abstractmethod
    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        """Return every row of a query."""

    async def scalar(self, sql: str, params: Params = ()) -> Any:
        """Return the first column of the first row, or ``None`` when there is no row."""
        row = await self.fetchone(sql, params)
        return None if row is None else row[0]

    async def changed(self, topic: str, key: str) -> None:
        """Tell the other processes, once this transaction commits, that what their caches hold
        of ``key`` under ``topic`` is out of date (see :meth:`Database.watch`). On SQLite there
        is no other process: nothing to tell."""
        return None


class Backend(ABC):
    """One backend's database: migrations and transactions (see :class:`bot.storage.db.Database`
    for what each method promises)."""

    @property
    @abstractmethod
    def backend(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""

    @property
    @abstractmethod
    def path(self) -> str:
        """The SQLite file's path (or ``":memory:"``), or the URL with its password masked."""

    @property
    @abstractmethod
    def schema_version(self) -> int:
        """The schema version reached after migrating."""

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Tx]:
        """A write transaction: committed at the end of the block, rolled back on any exception.

        Write transactions run one at a time (on PostgreSQL across every process too); keep them
        short (no network calls inside).
        """

    @abstractmethod
    def read(self) -> AbstractAsyncContextManager[Tx]:
        """A read-only block seeing one consistent snapshot. Do not write inside it."""

    @abstractmethod
    async def hold(self, name: str) -> HeldLock | None:
        """Take the session-wide lock ``name`` without waiting; ``None`` if someone holds it.

        On PostgreSQL this is an advisory lock held by a dedicated connection until released (or
        until the process dies: the server frees it with the connection), so two processes never
        both hold one name. On SQLite the file lock already makes the process the only one, so
        it is granted unless this process holds it already.
        """

    @abstractmethod
    async def explain_query_plan(self, sql: str, params: Params = ()) -> list[str]:
        """The query plan lines of a statement (used by benchmarks and tests)."""

    @abstractmethod
    def pool_use(self) -> PoolUse:
        """The connections open and lent right now."""

    @abstractmethod
    async def close(self) -> None:
        """Wait for running transactions, then close. Safe to call twice."""

    # Caches across processes (issue 20, i20-cross). SQLite: one process, so what it caches
    # only it changes; nothing to hear and always up to date.

    @property
    def shared(self) -> bool:
        """Whether other processes may change the database behind this one's back."""
        return False

    @property
    def watching(self) -> bool:
        """Whether this process hears every change other processes report now."""
        return True

    def watch(self, topic: str, changed: Callable[[str | None], None]) -> None:
        """Call ``changed(key)`` whenever another process commits a change of ``key`` under
        ``topic`` (:meth:`Tx.changed`), and ``changed(None)`` when a change may have gone
        unheard (everything under ``topic`` is then out of date). SQLite: nothing to hear."""
        return None
