"""``kapshap db backup``: a consistent copy while another connection writes."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.storage.backup import BackupError, backup_database
from bot.storage.cli import main
from bot.storage.db import load_migrations

INSERT = (
    "INSERT INTO accounts (guild_id, user_id, balance, created_at) "
    "VALUES (1, ?, 0, '2026-01-01T00:00:00+00:00')"
)


def accounts(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM accounts").fetchone()[0])


def test_backup_while_a_writer_holds_an_open_transaction(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "kap.sqlite3"
    assert main(["migrate", "--path", str(path)]) == 0
    writer = sqlite3.connect(path, isolation_level=None)
    try:
        writer.execute(INSERT, (1,))  # committed
        writer.execute("BEGIN IMMEDIATE")
        writer.execute(INSERT, (2,))  # not committed while the backup runs
        target = tmp_path / "copy.sqlite3"
        assert main(["backup", str(target), "--path", str(path)]) == 0
        out = capsys.readouterr().out
        assert f"schema version {len(load_migrations())}" in out and str(target) in out
        writer.execute("COMMIT")
    finally:
        writer.close()
    assert accounts(target) == 1  # the committed state at one moment
    assert accounts(path) == 2
    assert not list(tmp_path.glob("*.partial"))


def test_backup_into_a_folder_refuses_to_overwrite_and_reports_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "kap.sqlite3"
    assert main(["migrate", "--path", str(path)]) == 0
    folder = tmp_path / "backups"
    folder.mkdir()
    when = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)
    made = backup_database(path, folder, now=when)
    assert made.target == folder / "kapshap-20261124-120000.sqlite3"
    # The same second again: a new name, never the old backup overwritten.
    again = backup_database(path, folder, now=when)
    assert again.target == folder / "kapshap-20261124-120000-01.sqlite3"
    with pytest.raises(BackupError, match="already exists"):
        backup_database(path, made.target, now=when)
    with pytest.raises(BackupError, match="is not a directory"):
        backup_database(path, tmp_path / "missing" / "x.sqlite3")
    (tmp_path / "junk.sqlite3").write_text("not a database")
    assert (
        main(["backup", str(tmp_path / "b.sqlite3"), "--path", str(tmp_path / "junk.sqlite3")]) == 1
    )
    err = capsys.readouterr().err
    assert err.startswith("kapshap db backup: cannot back up") and err.count("\n") == 1
    assert main(["backup", "--path", str(path)]) == 2


def test_the_help_that_promises_backups_is_true(capsys: pytest.CaptureFixture[str]) -> None:
    from bot.cli import COMMANDS

    [db] = [c for c in COMMANDS if c.name == "db"]
    assert "backups" in db.summary
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "backup PATH" in capsys.readouterr().out
