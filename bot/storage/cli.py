"""``kapshap db``: look after the database file without starting the bot."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from bot.storage.backup import BackupError, backup_database
from bot.storage.db import Database
from bot.storage.errors import StorageError
from bot.storage.games import GamesRepo
from bot.storage.integrity import find_problems

__all__ = ["check", "main"]

_DEFAULT_PATH = "data/kapshap.sqlite3"


async def _migrate(path: Path) -> int:
    db = await Database.open(path)
    try:
        print(f"{path}: schema version {db.schema_version}")
    finally:
        await db.close()
    return 0


async def _info(path: Path) -> int:
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
        print(f"{path}: schema version {db.schema_version}")
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


async def check(path: Path, *, after_repair: bool = False) -> int:
    """``kapshap db check``: print the conservation totals and every violation of the
    invariant; 0 when it holds, else 1 (``after_repair``: the problems a repair left)."""
    db = await Database.open(path)
    try:
        async with db.read() as tx:
            problems, totals = await find_problems(tx)
    finally:
        await db.close()
    print(
        f"balances {totals.balances} + held {totals.held} = "
        f"{totals.balances + totals.held}; minted {totals.minted} - burned {totals.burned} = "
        f"{totals.minted - totals.burned}"
    )
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


def _backup(path: Path, target: Path | None) -> int:
    if target is None:
        print(
            "kapshap db backup: name the backup file or folder: kapshap db backup PATH",
            file=sys.stderr,
        )
        return 2
    try:
        made = backup_database(path, target)
    except BackupError as exc:
        print(f"kapshap db backup: {exc}", file=sys.stderr)
        return 1
    print(f"{made.target}: {made.size:,} bytes, schema version {made.schema_version}")
    return 0


COMMANDS: dict[str, Callable[[Path], Coroutine[Any, Any, int]]] = {
    "migrate": _migrate,
    "info": _info,
    "check": check,
}


def run_command(name: str, runner: Callable[[Path], Coroutine[Any, Any, int]], path: Path) -> int:
    """Run one ``kapshap db`` command: a path that cannot be used is one line on stderr."""
    if name != "migrate" and not path.exists():
        print(
            f"kapshap db: {path} does not exist (run `kapshap db migrate` first)", file=sys.stderr
        )
        return 2
    try:
        return asyncio.run(runner(path))
    except StorageError as exc:
        print(f"kapshap db: {exc}", file=sys.stderr)
        return 2


def parse_args(argv: list[str] | None, choices: tuple[str, ...]) -> argparse.Namespace:
    """The options of ``kapshap db`` (shared with the ``repair`` command's module)."""
    parser = argparse.ArgumentParser(prog="kapshap db", description="Database maintenance.")
    parser.add_argument(
        "command",
        choices=choices,
        help="migrate: apply pending migrations; info: counts and broken games; check: verify "
        "the whole invariant (exit 1 if broken); repair: do what the bot does at start-up; "
        "backup PATH: copy the database to PATH (a file, or a folder for a dated file), safely "
        "while the bot runs",
    )
    parser.add_argument("target", nargs="?", type=Path, help="backup: where to write the copy")
    parser.add_argument(
        "--path",
        type=Path,
        default=Path(os.environ.get("KAPSHAP_DB_PATH", _DEFAULT_PATH)),
        help="database file (default: $KAPSHAP_DB_PATH or data/kapshap.sqlite3)",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """``kapshap db migrate|info|check [--path FILE]``, ``kapshap db backup PATH``."""
    args = parse_args(argv, (*COMMANDS, "backup"))
    if args.command == "backup":
        if not args.path.exists():
            print(f"kapshap db: {args.path} does not exist", file=sys.stderr)
            return 2
        return _backup(args.path, args.target)
    return run_command(args.command, COMMANDS[args.command], args.path)
