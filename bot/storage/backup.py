"""``kapshap db backup``: a consistent copy of the database, safe while the bot runs.

SQLite's online backup API copies the pages under a read transaction of its own, so the bot can
keep writing (WAL mode: readers never block the writer); the copy is the database as of one
moment, committed transactions only. It is written to a temporary file next to the target,
checked (``PRAGMA integrity_check``) and only then renamed into place, so an interrupted backup
never leaves a half-written file under the target's name.

SQLite only: a PostgreSQL database (``DATABASE_URL``) is backed up with the server's own tools
(``pg_dump``, or the server's continuous archiving).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

__all__ = ["BackupError", "BackupResult", "backup_database"]


class BackupError(Exception):
    """The backup could not be made; the message is one line for the operator."""


@dataclass(frozen=True, slots=True)
class BackupResult:
    """What was written."""

    target: Path
    size: int
    schema_version: int


def _target_file(target: Path, now: datetime) -> Path:
    if target.is_dir():
        return target / f"kapshap-{now:%Y%m%d-%H%M%S}.sqlite3"
    return target


def backup_database(source: Path, target: Path, *, now: datetime | None = None) -> BackupResult:
    """Copy ``source`` to ``target`` (a file, or a directory to put a dated file in).

    Refuses to overwrite an existing file. Raises :class:`BackupError` with a one-line reason.
    """
    if not source.is_file():
        raise BackupError(f"{source} is not a database file")
    final = _target_file(target, now or datetime.now(UTC))
    if final.exists():
        raise BackupError(f"{final} already exists: choose a new name")
    if not final.parent.is_dir():
        raise BackupError(f"{final.parent} is not a directory")
    if final.resolve() == source.resolve():
        raise BackupError("the backup cannot replace the database itself")
    partial = final.with_name(final.name + ".partial")
    try:
        # Read-only: a backup must never change (or create) the source.
        src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        try:
            dst = sqlite3.connect(partial)
            try:
                src.backup(dst)
                check = dst.execute("PRAGMA integrity_check").fetchone()
                version = int(dst.execute("PRAGMA user_version").fetchone()[0])
            finally:
                dst.close()
        finally:
            src.close()
        if check is None or check[0] != "ok":
            raise BackupError(f"the copy failed its integrity check: {check}")
        os.replace(partial, final)
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"cannot back up {source}: {exc}") from None
    except OSError as exc:
        raise BackupError(f"cannot write {final}: {exc.strerror or exc}") from None
    finally:
        with contextlib.suppress(OSError):
            partial.unlink()
    return BackupResult(final, final.stat().st_size, version)
