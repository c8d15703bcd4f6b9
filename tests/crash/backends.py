"""Fresh databases for the crash tests' runs, on SQLite or on PostgreSQL."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

from bot.storage.db import Database
from tests.postgres import PostgresServer

__all__ = ["Backend", "Target"]

#: Where one run keeps its database: a SQLite file path or a PostgreSQL URL.
Target = Path | str


class Backend:
    """Fresh databases for the runs of one test: SQLite files, or PostgreSQL databases."""

    def __init__(self, tmp: Path, server: PostgresServer | None) -> None:
        self.tmp = tmp
        self.server = server
        self.targets: dict[str, Target] = {}
        self.template: str | None = None

    def fresh(self, name: str) -> tuple[Target, Path]:
        """A new empty database and a journal next to it."""
        folder = self.tmp / name
        folder.mkdir()
        target: Target = folder / "kap.db"
        if self.server is not None:
            if self.template is None:
                # Migrated once, then copied: a kill point's start need not migrate again.
                self.template = f"c_{uuid.uuid4().hex[:16]}"
                self.server.psql(f"CREATE DATABASE {self.template}")
                url = self.server.url_of(self.template)
                asyncio.run(_migrated(url))
            database = f"c_{uuid.uuid4().hex[:16]}"
            self.server.psql(f"CREATE DATABASE {database} TEMPLATE {self.template}")
            target = self.server.url_of(database)
        self.targets[name] = target
        return target, folder / "journal"

    def of(self, name: str) -> tuple[Target, Path]:
        """The database and journal made by :meth:`fresh` under ``name``."""
        return self.targets[name], self.tmp / name / "journal"

    def drop(self, name: str) -> None:
        """Remove a run's database and folder (a few hundred would fill the disk)."""
        target = self.targets.pop(name)
        if self.server is not None:
            self.server.psql(f"DROP DATABASE {str(target).rsplit('/', 1)[1]} WITH (FORCE)")
        folder = self.tmp / name
        for leftover in folder.iterdir():
            leftover.unlink()
        folder.rmdir()


async def _migrated(url: str) -> None:
    await (await Database.open(url)).close()
