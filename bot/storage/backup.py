"""``kapshap db backup``: a consistent copy of the database, safe while the bot runs.

SQLite's online backup API copies the pages under a read transaction of its own, so the bot can
keep writing (WAL mode: readers never block the writer); the copy is the database as of one
moment, committed transactions only. It is written to a temporary file next to the target,
checked (``PRAGMA integrity_check``) and only then renamed into place, so an interrupted backup
never leaves a half-written file under the target's name.

On PostgreSQL (:func:`dump_database`) the backup is ``pg_dump`` in its custom format (one
snapshot of the whole database, taken without blocking the bots; restore it with
``pg_restore``). ``pg_dump`` comes with PostgreSQL's client programs (Debian:
``postgresql-client``) and must be on ``PATH``, of the server's major version or newer. It is
given the URL without its password (the password goes through ``PGPASSWORD``, so it never shows
in the process list) and writes to a temporary file renamed into place when it succeeded.

A backup into a folder is named after the moment it was taken (``kapshap-YYYYMMDD-HHMMSS``,
UTC, then ``.sqlite3`` or ``.dump``), so the names sort by age: :func:`rotate` (``kapshap db
backup FOLDER --keep N``) keeps the newest ``N`` of one kind and removes the older ones, after
the new backup succeeded, and never touches a file named otherwise.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit

__all__ = ["BackupError", "BackupResult", "backup_database", "dump_database", "rotate"]


class BackupError(Exception):
    """The backup could not be made; the message is one line for the operator."""


@dataclass(frozen=True, slots=True)
class BackupResult:
    """What was written."""

    target: Path
    size: int
    #: The schema version copied (``None`` for a ``pg_dump``, which does not say).
    schema_version: int | None


#: The name of a backup made into a folder: its moment (UTC), a number when a backup of the same
#: second is already there, then the kind.
_DATED = re.compile(
    r"kapshap-(?P<moment>[0-9]{8}-[0-9]{6})(?:-(?P<n>[0-9]{2}))?(?P<kind>\.sqlite3|\.dump)"
)


def _target_file(target: Path, now: datetime, suffix: str = ".sqlite3") -> Path:
    if not target.is_dir():
        return target
    stem = f"kapshap-{now:%Y%m%d-%H%M%S}"
    # Two backups in one second (a retry, a manual one beside the scheduled one) both land.
    for name in (stem, *(f"{stem}-{n:02d}" for n in range(1, 100))):
        if not (target / f"{name}{suffix}").exists():
            return target / f"{name}{suffix}"
    return target / f"{stem}{suffix}"  # refused by _writable: 100 backups in one second


def rotate(made: Path, keep: int) -> list[Path]:
    """Remove the dated backups older than the ``keep`` newest in the folder of ``made`` (a
    backup just written there), of ``made``'s kind (``.sqlite3`` or ``.dump``); return them,
    oldest first. Files named otherwise, and backups of the other kind, are left alone.

    Raises :class:`BackupError` when ``keep`` is below 1, when ``made`` is not a dated backup
    (rotation is for a folder of them), or when an old backup cannot be removed.
    """
    if keep < 1:
        raise BackupError(f"--keep must be 1 or more, not {keep}")
    kind = _DATED.fullmatch(made.name)
    if kind is None:
        raise BackupError(
            f"{made.name} is not a dated backup: --keep rotates the backups of a folder "
            "(kapshap db backup FOLDER --keep N)"
        )
    dated = sorted(
        (
            (match["moment"], int(match["n"] or 0), path)
            for path in made.parent.iterdir()
            if path.is_file()
            and (match := _DATED.fullmatch(path.name)) is not None
            and match["kind"] == kind["kind"]
        ),
    )
    old = [path for _moment, _n, path in dated[: max(0, len(dated) - keep)]]
    for path in old:
        try:
            path.unlink()
        except OSError as exc:
            raise BackupError(
                f"cannot remove the old backup {path}: {exc.strerror or exc}"
            ) from None
    return old


def _writable(final: Path) -> None:
    if final.exists():
        raise BackupError(f"{final} already exists: choose a new name")
    if not final.parent.is_dir():
        raise BackupError(f"{final.parent} is not a directory")


def backup_database(source: Path, target: Path, *, now: datetime | None = None) -> BackupResult:
    """Copy ``source`` to ``target`` (a file, or a directory to put a dated file in).

    Refuses to overwrite an existing file. Raises :class:`BackupError` with a one-line reason.
    """
    if not source.is_file():
        raise BackupError(f"{source} is not a database file")
    final = _target_file(target, now or datetime.now(UTC))
    _writable(final)
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


#: How long a ``pg_dump`` may take before it is given up (a day: far beyond any real history).
DUMP_TIMEOUT = 24 * 3600.0


def _without_password(url: str) -> tuple[str, str | None]:
    """``url`` without its password, and the password (``None`` when it has none)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url, None
    credentials, _, host = parts.netloc.rpartition("@")
    user = credentials.partition(":")[0]
    netloc = f"{user}@{host}" if user else host
    return urlunsplit(parts._replace(netloc=netloc)), unquote(parts.password)


def dump_database(
    url: str, target: Path, *, now: datetime | None = None, where: str | None = None
) -> BackupResult:
    """Back up the PostgreSQL database ``url`` with ``pg_dump --format=custom`` into ``target``
    (a file, or a directory to put a dated ``.dump`` file in). ``where`` names the database in
    messages (the URL with its password masked). Raises :class:`BackupError` with one line."""
    name = where or "the database"
    final = _target_file(target, now or datetime.now(UTC), ".dump")
    _writable(final)
    program = shutil.which("pg_dump")
    if program is None:
        raise BackupError(
            "pg_dump is not installed (or not on PATH): a PostgreSQL backup needs PostgreSQL's "
            "client programs (Debian: apt install postgresql-client)"
        )
    try:
        bare, password = _without_password(url)
    except ValueError:
        raise BackupError(f"{name} is not a valid database URL") from None
    env = dict(os.environ)
    if password is not None:
        env["PGPASSWORD"] = password
    partial = final.with_name(final.name + ".partial")
    try:
        done = subprocess.run(
            [program, "--format=custom", "--no-password", f"--file={partial}", f"--dbname={bare}"],
            env=env,
            capture_output=True,
            text=True,
            timeout=DUMP_TIMEOUT,
            check=False,
        )
        if done.returncode != 0:
            lines = [line.strip() for line in done.stderr.splitlines() if line.strip()]
            why = lines[-1] if lines else f"exit status {done.returncode}"
            if password:
                why = why.replace(password, "***")
            raise BackupError(f"pg_dump could not back up {name}: {why}")
        os.replace(partial, final)
    except subprocess.TimeoutExpired:
        raise BackupError(f"pg_dump did not finish within {DUMP_TIMEOUT:.0f} s") from None
    except OSError as exc:
        raise BackupError(f"cannot write {final}: {exc.strerror or exc}") from None
    finally:
        with contextlib.suppress(OSError):
            partial.unlink()
    return BackupResult(final, final.stat().st_size, None)
