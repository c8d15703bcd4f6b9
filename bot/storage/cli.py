"""``kapshap db``: look after the database file without starting the bot."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

from bot.storage.backup import BackupError, backup_database
from bot.storage.chips import ChipsRepo
from bot.storage.db import Database

__all__ = ["main"]

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
        print(f"{path}: schema version {db.schema_version}")
        print(f"  accounts: {accounts} in {guilds} server(s); ledger rows: {ledger}")
        print(f"  games: {games} ({open_games} unfinished)")
    finally:
        await db.close()
    return 0


async def _check(path: Path) -> int:
    db = await Database.open(path)
    try:
        async with db.read() as tx:
            totals = await ChipsRepo().supply_totals(tx)
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
    return 0 if totals.ok else 1


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


def main(argv: list[str] | None = None) -> int:
    """``kapshap db migrate|info|check [--path FILE]``, ``kapshap db backup PATH``."""
    parser = argparse.ArgumentParser(prog="kapshap db", description="Database maintenance.")
    parser.add_argument(
        "command",
        choices=("migrate", "info", "check", "backup"),
        help="migrate: apply pending migrations; info: counts; check: verify chip conservation; "
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
    args = parser.parse_args(argv)
    path: Path = args.path
    if args.command != "migrate" and not path.exists():
        print(
            f"kapshap db: {path} does not exist (run `kapshap db migrate` first)", file=sys.stderr
        )
        return 2
    if args.command == "backup":
        return _backup(path, args.target)
    runner = {"migrate": _migrate, "info": _info, "check": _check}[args.command]
    return asyncio.run(runner(path))
