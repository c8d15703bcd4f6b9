"""Backups that rotate and restore: ``kapshap db backup FOLDER --keep N`` on both backends, and
a restored backup that passes ``kapshap db check`` with the source's totals and rows
(docs/operations.md, "Back up and restore", runs exactly these steps)."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.services.chips import ChipsDefaults, ChipsService
from bot.services.clock import ManualClock
from bot.storage.backup import BackupError, backup_database, dump_database, rotate
from bot.storage.cli import main
from bot.storage.db import Database
from tests.crash import scenario
from tests.postgres import PostgresServer
from tests.storage.test_db_copy import dump

DAY = datetime(2026, 11, 20, 3, 0, tzinfo=UTC)


def _totals(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """``kapshap db check ARGS``'s totals line, after checking that it passed."""
    capsys.readouterr()
    assert main(["check", *args]) == 0
    out = capsys.readouterr().out
    assert "the invariant holds" in out
    line = out.splitlines()[0]
    assert line.startswith("balances ") and "= 0;" not in line  # a real history, chips held
    return line


@pytest.fixture
def pg_path(pg_server: PostgresServer, monkeypatch: pytest.MonkeyPatch) -> PostgresServer:
    """The session's server, its client programs (pg_dump, pg_restore) first on ``PATH``."""
    monkeypatch.setenv("PATH", f"{pg_server.bindir}{os.pathsep}{os.environ.get('PATH', '')}")
    return pg_server


# --------------------------------------------------------------------------------------------
# Rotation


def test_keep_removes_only_the_oldest_dated_backups_of_the_kind_just_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "kap.sqlite3"
    assert main(["migrate", "--path", str(path)]) == 0
    folder = tmp_path / "backups"
    folder.mkdir()
    old = [backup_database(path, folder, now=DAY + timedelta(days=d)).target for d in range(3)]
    # Not ours to remove: another kind, a file named otherwise, a folder.
    others = [
        folder / "kapshap-20261101-030000.dump",
        folder / "notes.txt",
        folder / "keep.sqlite3",
    ]
    for other in others:
        other.write_text("not a backup of this kind")
    (folder / "kapshap-20261102-030000.sqlite3").mkdir()
    capsys.readouterr()
    assert main(["backup", str(folder), "--keep", "2", "--path", str(path)]) == 0
    out = capsys.readouterr().out
    newest = sorted(folder.glob("kapshap-2026*.sqlite3"))
    assert [p for p in newest if p.is_file()] == [old[2], newest[-1]]
    assert newest[-1] not in old and newest[-1].stat().st_size > 0
    assert f"removed 2 older: {old[0].name}, {old[1].name}" in out
    assert all(other.exists() for other in others)
    assert (folder / "kapshap-20261102-030000.sqlite3").is_dir()
    # Nothing older left: said so, nothing removed.
    assert rotate(newest[-1], 2) == []


def test_two_backups_in_one_second_both_land_and_rotate_in_the_order_made(
    tmp_path: Path,
) -> None:
    """A retry or a manual backup in the same second as the scheduled one is not refused: it
    gets a number after the moment, and rotation keeps the newest by moment, then number."""
    path = tmp_path / "kap.sqlite3"
    assert main(["migrate", "--path", str(path)]) == 0
    folder = tmp_path / "backups"
    folder.mkdir()
    made = [backup_database(path, folder, now=DAY).target for _ in range(3)]
    assert [p.name for p in made] == [
        "kapshap-20261120-030000.sqlite3",
        "kapshap-20261120-030000-01.sqlite3",
        "kapshap-20261120-030000-02.sqlite3",
    ]
    later = backup_database(path, folder, now=DAY + timedelta(seconds=1)).target
    assert rotate(later, 2) == made[:2]
    assert sorted(folder.iterdir()) == sorted([made[2], later])


def test_keep_is_refused_where_it_cannot_rotate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "kap.sqlite3"
    assert main(["migrate", "--path", str(path)]) == 0
    capsys.readouterr()
    # A file target: nothing to rotate; refused before anything is written.
    assert main(["backup", str(tmp_path / "one.sqlite3"), "--keep", "3", "--path", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not one: kapshap db backup FOLDER --keep N" in err
    assert not (tmp_path / "one.sqlite3").exists()
    for argv in (["backup", str(tmp_path), "--keep", "0"], ["check", "--keep", "2"]):
        with pytest.raises(SystemExit) as exit_:
            main([*argv, "--path", str(path)])
        assert exit_.value.code == 2
    assert "--keep" in capsys.readouterr().err
    with pytest.raises(BackupError, match="not a dated backup"):
        rotate(path, 1)


def test_keep_rotates_pg_dumps(
    pg_path: PostgresServer, pg_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["migrate", "--url", pg_url]) == 0
    folder = tmp_path / "backups"
    folder.mkdir()
    old = [dump_database(pg_url, folder, now=DAY + timedelta(days=d)).target for d in range(2)]
    sqlite_kind = folder / "kapshap-20261101-030000.sqlite3"
    sqlite_kind.write_text("a backup of the other kind")
    capsys.readouterr()
    assert main(["backup", str(folder), "--keep", "1", "--url", pg_url]) == 0
    assert f"removed 2 older: {old[0].name}, {old[1].name}" in capsys.readouterr().out
    [kept] = folder.glob("*.dump")
    assert kept not in old and kept.read_bytes().startswith(b"PGDMP")
    assert sqlite_kind.exists()


def test_a_failed_backup_removes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "backups"
    folder.mkdir()
    old = folder / "kapshap-20261120-030000.dump"
    old.write_bytes(b"PGDMP an old dump")
    monkeypatch.setenv("PATH", str(tmp_path))  # no pg_dump: the backup fails
    url = "postgresql://kapshap@127.0.0.1:1/kapshap"
    assert main(["backup", str(folder), "--keep", "1", "--url", url]) == 1
    assert "pg_dump is not installed" in capsys.readouterr().err
    assert list(folder.iterdir()) == [old]


# --------------------------------------------------------------------------------------------
# Restore: the backup is the database


def test_a_restored_sqlite_backup_checks_with_the_same_totals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    live = tmp_path / "data" / "kapshap.sqlite3"
    live.parent.mkdir()
    asyncio.run(scenario.run(live, tmp_path / "journal"))
    before = _totals(capsys, "--path", str(live))
    rows = asyncio.run(dump(live))
    backups = tmp_path / "backups"
    backups.mkdir()
    assert main(["backup", str(backups), "--keep", "7", "--path", str(live)]) == 0
    [made] = backups.glob("kapshap-*.sqlite3")
    # The documented restore: stop the bot, put the backup in the database's place.
    restored = tmp_path / "restored" / "kapshap.sqlite3"
    restored.parent.mkdir()
    shutil.copyfile(made, restored)
    assert _totals(capsys, "--path", str(restored)) == before
    assert asyncio.run(dump(restored)) == rows


def test_a_restored_pg_dump_checks_with_the_same_totals(
    pg_path: PostgresServer, pg_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    asyncio.run(scenario.run(pg_url, tmp_path / "journal"))
    before = _totals(capsys, "--url", pg_url)
    rows = asyncio.run(dump(pg_url))
    backups = tmp_path / "backups"
    backups.mkdir()
    assert main(["backup", str(backups), "--keep", "7", "--url", pg_url]) == 0
    [made] = backups.glob("kapshap-*.dump")
    # The documented restore: a new, empty database, then pg_restore into it.
    name = f"restored_{uuid.uuid4().hex[:12]}"
    pg_path.psql(f"CREATE DATABASE {name}")
    fresh = pg_path.url_of(name)
    subprocess.run(
        ["pg_restore", "--exit-on-error", "--no-owner", f"--dbname={fresh}", str(made)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    assert _totals(capsys, "--url", fresh) == before
    assert asyncio.run(dump(fresh)) == rows
    # The restored database takes the bot's next ledger rows (pg_dump restores the sequences).
    asyncio.run(_daily_for_a_newcomer(fresh))
    assert main(["check", "--url", fresh]) == 0


async def _daily_for_a_newcomer(target: str) -> None:
    db = await Database.open(target)
    try:
        await ChipsService(db, ManualClock(), ChipsDefaults()).daily(scenario.GUILD, 424242)
    finally:
        await db.close()
