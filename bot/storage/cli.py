"""``kapshap db``: look after the database without starting the bot, on either backend.

The database is chosen as the bot chooses it: ``--url URL`` first, then ``--path FILE``, then the
settings' database (``DATABASE_URL``, then ``KAPSHAP_DB_PATH``, then ``data/kapshap.sqlite3``, from
the environment and ``.env`` as ``kapshap run`` reads them: the entry point,
:mod:`bot.services.dbtool`, passes that reader in, since storage does not load settings). A URL is
printed with its password masked. ``kapshap db copy SOURCE TARGET`` moves a whole history from
one database to another (:mod:`bot.storage.copy`).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Callable, Coroutine, Mapping
from pathlib import Path
from typing import Any

from bot.storage.backup import BackupError, backup_database, dump_database, rotate
from bot.storage.chips import SupplyTotals
from bot.storage.copy import copy_database
from bot.storage.db import Database, is_database_url, mask_url
from bot.storage.errors import IntegrityError, StorageError
from bot.storage.games import GamesRepo
from bot.storage.integrity import find_problems
from bot.storage.lock import ProcessLock

__all__ = [
    "SettingsTarget",
    "Target",
    "check",
    "environment_target",
    "main",
    "resolve_target",
    "totals_line",
]

_DEFAULT_PATH = "data/kapshap.sqlite3"

#: A database: a SQLite file's path or a ``postgresql://`` URL.
Target = str | Path


#: What chooses the database when neither ``--url`` nor ``--path`` is given: called with the
#: ``--env-file`` (``bot.config.database_target`` in ``kapshap db``).
SettingsTarget = Callable[[Path], Target]


def environment_target(env: Mapping[str, str] | None = None) -> Target:
    """The database named by the process environment alone (``DATABASE_URL``, then
    ``KAPSHAP_DB_PATH``, then the default file), for callers without a settings reader."""
    environ = os.environ if env is None else env
    if environ.get("DATABASE_URL", "").strip():
        return environ["DATABASE_URL"].strip()
    return Path(environ.get("KAPSHAP_DB_PATH", "").strip() or _DEFAULT_PATH)


def resolve_target(url: str | None, path: Path | None, settings: Callable[[], Target]) -> Target:
    """The database a ``kapshap db`` command works on: ``--url``, ``--path``, else the
    settings' (``settings()``, read only then)."""
    if url:
        return url
    if path is not None:
        return path
    return settings()


def shown(target: Target) -> str:
    """``target`` fit to print (a URL's password masked)."""
    return mask_url(target)


def as_target(text: str) -> Target:
    """A command-line operand: a URL as it is, anything else a file path."""
    return text if "://" in text else Path(text)


async def _migrate(path: Target) -> int:
    db = await Database.open(path)
    try:
        print(f"{shown(path)}: schema version {db.schema_version}")
    finally:
        await db.close()
    return 0


async def _info(path: Target) -> int:
    db = await Database.open(path)
    try:
        async with db.read() as tx:
            accounts = await tx.scalar("SELECT COUNT(*) FROM accounts")
            guilds = await tx.scalar("SELECT COUNT(DISTINCT guild_id) FROM accounts")
            ledger = await tx.scalar("SELECT COUNT(*) FROM ledger")
            open_games = await tx.scalar(
                "SELECT COUNT(*) FROM games WHERE status IN ('lobby', 'running')"
            )
            games = await tx.scalar("SELECT COUNT(*) FROM games")
        broken = await GamesRepo(db).list_broken()
        print(f"{shown(path)}: schema version {db.schema_version}")
        print(f"  accounts: {accounts} in {guilds} server(s); ledger rows: {ledger}")
        print(f"  games: {games} ({open_games} unfinished, {len(broken)} broken)")
        for record in broken:
            print(
                f"  broken game {record.id} in channel {record.channel_id} "
                f"(server {record.guild_id}): {record.broken_reason}"
            )
    finally:
        await db.close()
    return 0


def totals_line(totals: SupplyTotals) -> str:
    """The conservation totals in one line (``db check`` and ``db copy`` print it)."""
    return (
        f"balances {totals.balances} + held {totals.held} = "
        f"{totals.balances + totals.held}; minted {totals.minted} - burned {totals.burned} = "
        f"{totals.minted - totals.burned}"
    )


async def check(path: Target, *, after_repair: bool = False) -> int:
    """``kapshap db check``: print the conservation totals and every violation of the
    invariant; 0 when it holds, else 1 (``after_repair``: the problems a repair left)."""
    db = await Database.open(path)
    try:
        async with db.read() as tx:
            problems, totals = await find_problems(tx)
    finally:
        await db.close()
    print(totals_line(totals))
    print(
        f"negative balances: {totals.negative_balances}; "
        f"balances that differ from their ledger: {totals.mismatched_accounts}"
    )
    print("chips are conserved" if totals.ok else "CHIPS ARE NOT CONSERVED")
    if not problems:
        print("the invariant holds: every open pot belongs to a running game, every ended game is")
        print("settled, every balance equals its ledger, escrow equals the antes of open pots and")
        print("has its pot, settled pots agree with their ledger, foreign keys hold")
        return 0
    if after_repair:
        print(
            f"{len(problems)} problem(s) that `kapshap db repair` cannot fix (restore a backup, "
            "or correct the rows by hand):"
        )
    else:
        print(
            f"{len(problems)} problem(s) (`kapshap db repair` fixes what a crash left half-done):"
        )
    for problem in problems:
        print(f"  - {problem}")
    return 1


def _backup(path: Target, operands: list[str], keep: int | None = None) -> int:
    if len(operands) != 1:
        print(
            "kapshap db backup: name the backup file or folder: kapshap db backup PATH",
            file=sys.stderr,
        )
        return 2
    target = Path(operands[0])
    if keep is not None and not target.is_dir():
        print(
            f"kapshap db backup: --keep rotates the dated backups of a folder, and {target} is "
            "not one: kapshap db backup FOLDER --keep N",
            file=sys.stderr,
        )
        return 2
    try:
        if is_database_url(path):
            made = dump_database(str(path), target, where=shown(path))
        else:
            made = backup_database(Path(path), target)
    except BackupError as exc:
        print(f"kapshap db backup: {exc}", file=sys.stderr)
        return 1
    if made.schema_version is None:
        print(
            f"{made.target}: {made.size:,} bytes (pg_dump, custom format: restore with pg_restore)"
        )
    else:
        print(f"{made.target}: {made.size:,} bytes, schema version {made.schema_version}")
    if keep is not None:
        try:
            removed = rotate(made.target, keep)
        except BackupError as exc:
            print(f"kapshap db backup: {exc}", file=sys.stderr)
            return 1
        if removed:
            names = ", ".join(old.name for old in removed)
            print(f"kept the newest {keep} backup(s); removed {len(removed)} older: {names}")
        else:
            print(f"kept the newest {keep} backup(s); none older to remove")
    return 0


async def _copy(source: Target, target: Target) -> int:
    """Copy ``source`` into the empty ``target``; print both totals; 0 when they agree.

    A SQLite file is locked as the bot locks it, so a bot still running on the source (whose
    later moves the copy would miss) or on the target is refused, naming it."""
    locks: list[ProcessLock] = []
    try:
        for given in (source, target):
            if isinstance(given, Path):
                locks.append(ProcessLock.acquire(given))
        src = await Database.open(source)
        try:
            dst = await Database.open(target)
            try:
                result = await copy_database(src, dst)
            finally:
                await dst.close()
        finally:
            await src.close()
    finally:
        for lock in locks:
            lock.release()
    rows = sum(result.rows.values())
    print(
        f"copied {rows} row(s) of {len(result.rows)} table(s) "
        f"from {shown(source)} to {shown(target)}"
    )
    for name, count in result.rows.items():
        if count:
            print(f"  {name}: {count}")
    print(f"source: {totals_line(result.source_totals)}; {len(result.source_problems)} problem(s)")
    print(f"target: {totals_line(result.target_totals)}; {len(result.target_problems)} problem(s)")
    if result.same:
        print("the copy's totals and invariant check are the source's")
        return 0
    print("THE COPY DIFFERS FROM THE SOURCE: do not use it (check both with `kapshap db check`)")
    for problem in result.target_problems:
        print(f"  - target: {problem}")
    return 1


def copy_command(operands: list[str]) -> int:
    """``kapshap db copy SOURCE TARGET``: one line on stderr for anything that cannot be used."""
    if len(operands) != 2:
        print(
            "kapshap db copy: name the source and the target: kapshap db copy SOURCE TARGET "
            "(a SQLite file or a postgresql:// URL each)",
            file=sys.stderr,
        )
        return 2
    source, target = as_target(operands[0]), as_target(operands[1])
    for given, what in ((source, "source"), (target, "target")):
        if isinstance(given, str) and not is_database_url(given):
            print(
                f"kapshap db copy: the {what} {shown(given)} is neither a file path nor a "
                "postgresql:// URL",
                file=sys.stderr,
            )
            return 2
    if isinstance(source, Path) and not source.is_file():
        print(f"kapshap db copy: {source} does not exist", file=sys.stderr)
        return 2
    if (
        isinstance(source, Path)
        and isinstance(target, Path)
        and source.resolve() == target.resolve()
    ):
        print("kapshap db copy: the source and the target are the same file", file=sys.stderr)
        return 2
    try:
        return asyncio.run(_copy(source, target))
    except IntegrityError as exc:
        # A row the target's constraints refuse (a damaged source): the transaction rolled back.
        first = str(exc).strip().splitlines()[0]
        print(
            f"kapshap db copy: nothing was copied: the target refused a row: {first}",
            file=sys.stderr,
        )
        return 1
    except StorageError as exc:
        print(f"kapshap db copy: {exc}", file=sys.stderr)
        return 2


COMMANDS: dict[str, Callable[[Target], Coroutine[Any, Any, int]]] = {
    "migrate": _migrate,
    "info": _info,
    "check": check,
}


def run_command(
    name: str, runner: Callable[[Target], Coroutine[Any, Any, int]], path: Target
) -> int:
    """Run one ``kapshap db`` command: a database that cannot be used is one line on stderr."""
    if name != "migrate" and isinstance(path, Path) and not path.exists():
        print(
            f"kapshap db: {path} does not exist (run `kapshap db migrate` first)", file=sys.stderr
        )
        return 2
    try:
        return asyncio.run(runner(path))
    except StorageError as exc:
        print(f"kapshap db: {exc}", file=sys.stderr)
        return 2


def parse_args(
    argv: list[str] | None, choices: tuple[str, ...], settings: SettingsTarget | None = None
) -> argparse.Namespace:
    """The options of ``kapshap db`` (shared with the ``repair`` command's module); ``target``
    is the database chosen (:func:`resolve_target`): ``settings`` reads it from the
    ``--env-file`` (None: from the process environment alone)."""
    parser = argparse.ArgumentParser(
        prog="kapshap db",
        description="Database maintenance, on the SQLite file or on PostgreSQL.",
        epilog="The database: --url, else --path, else DATABASE_URL, else KAPSHAP_DB_PATH, "
        "else data/kapshap.sqlite3, from the environment and the settings file (.env) as "
        "`kapshap run` reads them.",
    )
    parser.add_argument(
        "command",
        choices=choices,
        help="migrate: apply pending migrations; info: counts and broken games; check: verify "
        "the whole invariant (exit 1 if broken); repair: do what the bot does at start-up; "
        "backup PATH: copy the database to PATH (a file, or a folder for a dated file; --keep N "
        "then removes all but the newest N there), safely "
        "while the bot runs (SQLite's online backup; on PostgreSQL it runs pg_dump, custom "
        "format, which must be installed); copy SOURCE TARGET: copy a whole history (each a "
        "SQLite file or a postgresql:// URL) into an empty database, then check both",
    )
    parser.add_argument(
        "operands", nargs="*", metavar="ARG", help="backup: PATH; copy: SOURCE TARGET"
    )
    parser.add_argument(
        "--keep",
        type=int,
        metavar="N",
        help="backup into a folder only: then remove all but the newest N dated backups of "
        "that kind in it (N from 1)",
    )
    parser.add_argument(
        "--url",
        help="a PostgreSQL database, postgresql://USER:PASSWORD@HOST:PORT/NAME (default: "
        "$DATABASE_URL)",
    )
    parser.add_argument(
        "--path",
        type=Path,
        help="a SQLite database file (default: $KAPSHAP_DB_PATH or data/kapshap.sqlite3)",
    )
    parser.add_argument(
        "--env-file", type=Path, default=Path(".env"), help="settings file (default: .env)"
    )
    args = parser.parse_args(argv)
    if args.url is not None and not is_database_url(args.url):
        parser.error(f"--url must be a postgresql:// URL, not {mask_url(args.url)}")
    env_file: Path = args.env_file
    try:
        args.target = resolve_target(
            args.url,
            args.path,
            environment_target if settings is None else lambda: settings(env_file),
        )
    except ValueError as exc:  # bot.config.ConfigError: one line, as `kapshap run` says it
        parser.error(str(exc))
    if isinstance(args.target, str) and not is_database_url(args.target):
        parser.error(f"DATABASE_URL must be a postgresql:// URL, not {mask_url(args.target)}")
    if args.command not in ("backup", "copy") and args.operands:
        parser.error(f"{args.command} takes no argument")
    if args.keep is not None and args.command != "backup":
        parser.error("--keep belongs to backup (kapshap db backup FOLDER --keep N)")
    if args.keep is not None and args.keep < 1:
        parser.error(f"--keep must be 1 or more, not {args.keep}")
    return args


def main(argv: list[str] | None = None, settings: SettingsTarget | None = None) -> int:
    """``kapshap db migrate|info|check [--path FILE | --url URL]``, ``kapshap db backup PATH
    [--keep N]``, ``kapshap db copy SOURCE TARGET``; ``settings`` as for :func:`parse_args`."""
    args = parse_args(argv, (*COMMANDS, "backup", "copy"), settings)
    if args.command == "copy":
        return copy_command(args.operands)
    if args.command == "backup":
        if isinstance(args.target, Path) and not args.target.exists():
            print(f"kapshap db: {args.target} does not exist", file=sys.stderr)
            return 2
        return _backup(args.target, args.operands, args.keep)
    return run_command(args.command, COMMANDS[args.command], args.target)
