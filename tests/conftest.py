"""Fixtures shared by the whole test suite."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage.db import Database


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    """A real SQLite database file in a temporary directory, fully migrated."""
    database = await Database.open(tmp_path / "data" / "kapshap.db")
    try:
        yield database
    finally:
        await database.close()
