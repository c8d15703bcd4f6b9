"""``kapshap db`` on a real database file."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.storage.cli import main
from bot.storage.db import load_migrations


def test_migrate_info_and_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "kap.sqlite3"
    assert main(["info", "--path", str(path)]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["migrate", "--path", str(path)]) == 0
    assert f"schema version {len(load_migrations())}" in capsys.readouterr().out
    assert main(["info", "--path", str(path)]) == 0
    assert "accounts: 0" in capsys.readouterr().out
    assert main(["check", "--path", str(path)]) == 0
    assert "chips are conserved" in capsys.readouterr().out


def test_check_fails_when_a_balance_was_edited_behind_the_ledger(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import sqlite3

    path = tmp_path / "kap.sqlite3"
    assert main(["migrate", "--path", str(path)]) == 0
    with sqlite3.connect(path) as conn:
        conn.execute(
            "INSERT INTO accounts (guild_id, user_id, balance, created_at) "
            "VALUES (1, 2, 50, '2026-01-01T00:00:00+00:00')"
        )
    assert main(["check", "--path", str(path)]) == 1
    assert "NOT CONSERVED" in capsys.readouterr().out
