"""One process per database: an OS file lock on ``<database>.lock``.

Two bot processes on one database would each hold their own copy of every table and overwrite
each other's moves, so the bot takes an exclusive :func:`fcntl.flock` on ``<database>.lock`` at
start and keeps it until it stops. The operating system releases the lock when the process dies,
however it dies, so a crash never blocks the next start (there is no stale lock to remove). The
file holds the owner's host and pid, which a second process names in its refusal.

The lock file is never deleted: deleting it while another process waits on it would let two
processes each lock a different file of the same name. On a platform without ``fcntl``
(Windows) no lock is taken.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path
from typing import IO

from bot.storage.errors import DatabaseLocked, DatabaseUnavailable

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

__all__ = ["ProcessLock", "lock_path"]


def lock_path(db_path: str | Path) -> Path:
    """The lock file of a database."""
    return Path(f"{db_path}.lock")


class ProcessLock:
    """The held lock of one database; :meth:`release` (or process exit) frees it."""

    def __init__(self, path: Path, handle: IO[str] | None) -> None:
        """Use :meth:`acquire`."""
        self.path = path
        self._handle = handle

    @classmethod
    def acquire(cls, db_path: str | Path) -> ProcessLock:
        """Lock ``db_path`` for this process, or raise :class:`DatabaseLocked` naming the owner."""
        if str(db_path) == ":memory:" or fcntl is None:
            return cls(Path(os.devnull), None)
        path = lock_path(db_path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # "a+" neither truncates (the owner's line must survive our failed attempt) nor fails
            # when the file exists.
            handle = open(path, "a+", encoding="utf-8")  # noqa: SIM115 - held until release()
        except OSError as exc:
            raise DatabaseUnavailable(
                f"cannot create the lock file {path}: {exc.strerror or exc}"
            ) from exc
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            owner = handle.read().strip() or "an unknown process"
            handle.close()
            raise DatabaseLocked(str(db_path), owner) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"host {socket.gethostname()} pid {os.getpid()}\n")
        handle.flush()
        return cls(path, handle)

    @property
    def held(self) -> bool:
        """Whether this object still holds the lock."""
        return self._handle is not None

    def release(self) -> None:
        """Give the lock up (safe to call twice)."""
        handle, self._handle = self._handle, None
        if handle is None:
            return
        if fcntl is not None:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
        handle.close()
