"""Errors raised by the storage layer.

They describe what the database refused, in storage terms. Services translate the ones a user can
cause (a second table in a channel, a stale click) into user-facing errors; the storage layer never
imports the services, so it cannot raise their types itself.
"""

from __future__ import annotations


class StorageError(Exception):
    """Base class of every error raised by ``bot.storage``."""


class MigrationError(StorageError):
    """The migrations on disk are malformed, or the database is newer than this code."""


class NestedTransactionError(StorageError, RuntimeError):
    """A task tried to open a transaction while already inside one on the same database.

    Waiting on the lock would deadlock forever, so this is raised instead.
    """


class IdempotencyConflict(StorageError):
    """An idempotency key was reused for a *different* operation.

    Repeating an operation with the same key and the same arguments is a no-op; reusing the key
    with other arguments is a programming error (two operations sharing one key), never a retry.
    """

    def __init__(self, idem_key: str, detail: str = "") -> None:
        self.idem_key = idem_key
        message = f"idempotency key {idem_key!r} was already used for a different operation"
        super().__init__(f"{message}: {detail}" if detail else message)


class ChannelBusyError(StorageError):
    """A channel already has an unfinished (lobby or running) game."""

    def __init__(self, channel_id: int, game_id: str | None) -> None:
        self.channel_id = channel_id
        self.game_id = game_id
        super().__init__(f"channel {channel_id} already has an unfinished game ({game_id})")


class GameNotFoundError(StorageError, LookupError):
    """No game has this id."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        super().__init__(f"no game with id {game_id!r}")


class StaleVersionError(StorageError):
    """A game update was based on a version that is no longer current (optimistic locking)."""

    def __init__(self, game_id: str, expected: int, actual: int) -> None:
        self.game_id = game_id
        self.expected = expected
        self.actual = actual
        super().__init__(f"game {game_id}: expected version {expected}, found {actual}")


class DatabaseUnavailable(StorageError):
    """The database cannot be used: a path that is a directory, unreadable or not a SQLite
    database; a URL that is malformed, unreachable or refused; a server gone while running.

    The message is one line naming the path or the URL (its password masked), for the operator
    (no traceback); a user sees a short "try again".
    """


class IntegrityError(StorageError):
    """The database refused a row: a UNIQUE, CHECK, NOT NULL or foreign key constraint.

    Raised by both backends in place of the driver's own error. ``constraint`` names what was
    violated as the backend names it: ``table.column`` on SQLite (``ledger.idem_key``), the
    constraint's or index's name on PostgreSQL (``ledger_idem_key_key``), or ``None``.
    """

    def __init__(self, message: str, constraint: str | None = None) -> None:
        self.constraint = constraint
        super().__init__(message)


class DatabaseLocked(StorageError):
    """Another process holds the database (only one bot may run on one database file)."""

    def __init__(self, path: str, owner: str) -> None:
        self.path = path
        self.owner = owner
        super().__init__(
            f"the database {path} is in use by another bot process ({owner}); "
            "stop that one first (only one process may run on a database)"
        )
