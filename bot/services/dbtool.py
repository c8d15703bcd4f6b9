"""``kapshap db``: the storage commands (``migrate``, ``info``, ``check``) plus ``repair``.

``repair`` needs the services (a settlement replays the game through the engine), so it lives
here and the other commands are handed to :mod:`bot.storage.cli`. It runs exactly the repair pass
the bot runs at start-up (:meth:`TableService.repair`), says what it did, then checks the
invariant. On a SQLite file it takes the database's process lock, so it refuses to run beside a
bot; on PostgreSQL it takes the session lock ``repair`` the bots' start-up repair takes, so two
repairs never run at once.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from bot.config import database_target
from bot.services.chips import ChipsDefaults, ChipsService
from bot.services.clock import SystemClock
from bot.services.tables import TableService
from bot.storage import cli as storage_cli
from bot.storage.cli import Target
from bot.storage.db import Database
from bot.storage.errors import StorageError
from bot.storage.games import GamesRepo
from bot.storage.lock import ProcessLock

__all__ = ["main"]


#: The session lock a repair holds on PostgreSQL (the bots' start-up repair takes it too).
REPAIR_LOCK = "repair"


@asynccontextmanager
async def _repairing(path: Target) -> AsyncIterator[Database]:
    """The database, opened for a repair and locked against another one (see the docstring)."""
    lock = ProcessLock.acquire(path) if isinstance(path, Path) else None
    try:
        db = await Database.open(path)
        try:
            held = await db.hold(REPAIR_LOCK)
            if held is None:
                raise StorageError(f"another process is repairing {db.path}: try again later")
            try:
                yield db
            finally:
                await held.release()
        finally:
            await db.close()
    finally:
        if lock is not None:
            lock.release()


async def _repair(path: Target) -> int:
    async with _repairing(path) as db:
        clock = SystemClock()
        # The defaults only matter for an account created by a repair (a winner who had
        # none), which cannot happen: every payee anted or was seated with an account.
        chips = ChipsService(db, clock, ChipsDefaults())
        tables = TableService(GamesRepo(db), chips, clock)
        done = await tables.repair()
        unrepaired = tables.unrepaired
        for record, reason in await tables.unreplayable():
            await tables.quarantine_record(record, reason)
            done.append(
                f"Game {record.id} in channel {record.channel_id} cannot be rebuilt "
                f"({reason}): marked broken, its antes refunded, its channel freed."
            )
    if done:
        print(f"{len(done)} repair(s):")
        for line in done:
            print(f"  - {line}")
    else:
        print("nothing to repair")
    if unrepaired:
        print(f"cannot rebuild {len(unrepaired)} pot(s):")
        for line in unrepaired:
            print(f"  - {line}")
    return await _check(path, after_repair=True)


async def _check(path: Target, *, after_repair: bool = False) -> int:
    """The storage check of the invariant, plus: every unfinished game must replay (exit 1 and
    the problems in words when it does not hold; after a repair, what it could not fix)."""
    status = await storage_cli.check(path, after_repair=after_repair)
    db = await Database.open(path)
    try:
        clock = SystemClock()
        tables = TableService(GamesRepo(db), ChipsService(db, clock, ChipsDefaults()), clock)
        broken = await tables.unreplayable()
    finally:
        await db.close()
    for record, reason in broken:
        print(
            f"  - Game {record.id} in channel {record.channel_id} cannot be rebuilt from its "
            f"saved moves ({reason}); `kapshap db repair` quarantines it."
        )
    return 1 if broken else status


def main(argv: list[str] | None = None) -> int:
    """``kapshap db migrate|info|check|repair [--path FILE | --url URL]``, ``kapshap db backup
    PATH``, ``kapshap db copy SOURCE TARGET``."""
    # The database the bot uses: the settings read as `kapshap run` reads them (.env too).
    args = storage_cli.parse_args(
        argv, (*storage_cli.COMMANDS, "backup", "copy", "repair"), database_target
    )
    if args.command == "repair":
        return storage_cli.run_command("repair", _repair, args.target)
    if args.command == "check":
        return storage_cli.run_command("check", _check, args.target)
    return storage_cli.main(argv, database_target)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
