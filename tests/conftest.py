"""Fixtures shared by the whole test suite."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage.db import Database

# The bot's background compile of the kernel (bot.ai.warm) stays off in the tests, which must
# stay fast, and in the processes they start; a test that wants it turns it on.
os.environ["KAPSHAP_WARM_KERNEL"] = "0"


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    """A real SQLite database file in a temporary directory, fully migrated."""
    database = await Database.open(tmp_path / "data" / "kapshap.db")
    try:
        yield database
    finally:
        await database.close()
