"""``kapshap ratings``: rebuild on a database file, new model parameters, mistakes."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot import cli
from bot.services.clock import ManualClock
from bot.storage.db import Database
from tests.services.test_ratings import ALICE, BOB, play_game, services


async def _played(path: Path) -> None:
    db = await Database.open(path)
    try:
        tables, _ = services(db, ManualClock())
        for seed in range(3):
            await play_game(tables, 100 + seed, [(ALICE, "Alice"), (BOB, "Bob")], seed=seed)
    finally:
        await db.close()


async def test_rebuild_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "kapshap.db"
    await _played(path)
    # The command runs its own event loop: run it in a thread beside this test's loop.
    status = await asyncio.to_thread(cli.main, ["ratings", "rebuild", "--path", str(path)])
    out = capsys.readouterr().out
    assert status == 0
    assert "3 games recorded, 2 members rated" in out
    assert "every rating is identical to the live one" in out
    status = await asyncio.to_thread(
        cli.main, ["ratings", "rebuild", "--beta", "6", "--path", str(path)]
    )
    assert status == 0 and '"beta": 6.0' in capsys.readouterr().out
    assert await asyncio.to_thread(cli.main, ["ratings", "model", "--path", str(path)]) == 0
    assert '"beta": 6.0' in capsys.readouterr().out
    status = await asyncio.to_thread(
        cli.main, ["ratings", "rebuild", "--sigma", "0", "--path", str(path)]
    )
    assert status == 2 and "must be positive" in capsys.readouterr().err


def test_a_missing_database_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["ratings", "rebuild", "--path", str(tmp_path / "none.db")]) == 2
    assert "does not exist" in capsys.readouterr().err
