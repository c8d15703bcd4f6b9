"""``kapshap db`` on a real database file."""

from __future__ import annotations

import asyncio
import os
import subprocess
from pathlib import Path

import pytest

from bot.services import dbtool
from bot.storage.cli import environment_target, main, resolve_target
from bot.storage.db import Database, load_migrations
from tests.postgres import PostgresServer


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


# --------------------------------------------------------------------------------------------
# Either backend: --url, DATABASE_URL, pg_dump


def with_password(url: str, password: str = "hunter2-secret") -> str:
    """``url`` with a password (the throwaway server trusts every login, so it is ignored)."""
    return url.replace("postgres@", f"postgres:{password}@", 1)


def test_the_database_is_chosen_as_the_bot_chooses_it() -> None:
    url, other = "postgresql://u@h/a", "postgresql://u@h/b"
    env = {"DATABASE_URL": url, "KAPSHAP_DB_PATH": "env.sqlite3"}

    def settings() -> Path | str:
        return environment_target(env)

    assert resolve_target(other, Path("p.sqlite3"), settings) == other
    assert resolve_target(None, Path("p.sqlite3"), settings) == Path("p.sqlite3")
    assert resolve_target(None, None, settings) == url
    assert environment_target({"KAPSHAP_DB_PATH": "env.sqlite3"}) == Path("env.sqlite3")
    assert environment_target({"DATABASE_URL": " "}) == Path("data/kapshap.sqlite3")


@pytest.fixture
def settings_only_in_dotenv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working directory whose settings are in .env only (none in the environment)."""
    monkeypatch.chdir(tmp_path)
    for name in ("DATABASE_URL", "KAPSHAP_DB_PATH", "KAPSHAP_TURN_SECONDS"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def test_every_command_opens_the_database_of_dotenv_as_kapshap_run_does(
    settings_only_in_dotenv: Path, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """DATABASE_URL in .env only: `kapshap db`, `kapshap ratings` and `kapshap record` open
    that database, the one `kapshap run` opens, never the SQLite default next to it."""
    from bot.config import load_settings
    from bot.records_cli import main_record
    from bot.services import ratings_cli

    here = settings_only_in_dotenv
    (here / ".env").write_text(f"DATABASE_URL={pg_url}\n")
    assert load_settings().database_target == pg_url  # what `kapshap run` opens
    assert dbtool.main(["migrate"]) == 0
    assert "postgres" in capsys.readouterr().out
    assert dbtool.main(["check"]) == 0
    assert "chips are conserved" in capsys.readouterr().out
    assert ratings_cli.main(["model"]) == 0
    assert "model:" in capsys.readouterr().out
    # A game that is not there, asked of the right database (not "No database at ...").
    assert main_record(["export", "nosuchgame"]) == 1
    assert "No database" not in capsys.readouterr().err
    assert not (here / "data").exists()


def test_another_settings_file_and_a_bad_setting_in_it(
    settings_only_in_dotenv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    here = settings_only_in_dotenv
    (here / "other.env").write_text("KAPSHAP_DB_PATH=other.sqlite3\n")
    assert dbtool.main(["migrate", "--env-file", "other.env"]) == 0
    assert (here / "other.sqlite3").exists() and not (here / "data").exists()
    capsys.readouterr()
    (here / ".env").write_text("KAPSHAP_TURN_SECONDS=soon\n")
    with pytest.raises(SystemExit) as exited:
        dbtool.main(["info"])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "KAPSHAP_TURN_SECONDS" in err and "Traceback" not in err


def test_every_command_on_postgresql_by_url_and_by_environment(
    pg_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    secret = with_password(pg_url)
    assert main(["migrate", "--url", secret]) == 0
    out = capsys.readouterr().out
    assert "schema version" in out and "hunter2" not in out and "postgres:***@" in out
    monkeypatch.setenv("DATABASE_URL", secret)
    monkeypatch.setenv("KAPSHAP_DB_PATH", "/nonexistent/kap.sqlite3")
    assert main(["info"]) == 0
    out = capsys.readouterr().out
    assert "accounts: 0" in out and "hunter2" not in out
    assert dbtool.main(["check"]) == 0
    assert "chips are conserved" in capsys.readouterr().out
    assert dbtool.main(["repair"]) == 0
    assert "nothing to repair" in capsys.readouterr().out
    # --path wins over DATABASE_URL: "does not exist" is said of files only.
    assert main(["info", "--path", "/nonexistent/kap.sqlite3"]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_a_repair_on_postgresql_refuses_while_another_one_runs(
    pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    async def holding() -> int:
        db = await Database.open(pg_url)
        try:
            held = await db.hold(dbtool.REPAIR_LOCK)
            assert held is not None
            try:
                return await asyncio.to_thread(dbtool.main, ["repair", "--url", pg_url])
            finally:
                await held.release()
        finally:
            await db.close()

    assert asyncio.run(holding()) == 2
    err = capsys.readouterr().err
    assert "another process is repairing" in err and len(err.strip().splitlines()) == 1


def test_a_database_url_of_another_kind_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", "mysql://kap:pw-secret@host/db")
    with pytest.raises(SystemExit) as exited:
        main(["info"])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "postgresql://" in err and "pw-secret" not in err


def test_an_unreachable_server_is_one_line_without_the_password(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check", "--url", "postgresql://kap:pw-secret@127.0.0.1:1/kapshap"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "pw-secret" not in err
    assert "kap:***@127.0.0.1:1" in err


def test_backup_on_postgresql_runs_pg_dump(
    pg_server: PostgresServer,
    pg_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("PATH", f"{pg_server.bindir}{os.pathsep}{os.environ.get('PATH', '')}")
    secret = with_password(pg_url)
    assert main(["migrate", "--url", secret]) == 0
    pg_server.psql(
        "INSERT INTO bot_state (key, value) VALUES ('marker', 'in the dump')",
        database=pg_url.rsplit("/", 1)[1],
    )
    capsys.readouterr()
    target = tmp_path / "kap.dump"
    assert main(["backup", str(target), "--url", secret]) == 0
    out = capsys.readouterr().out
    assert str(target) in out and "pg_restore" in out and "hunter2" not in out
    assert target.read_bytes().startswith(b"PGDMP")  # pg_dump's custom format
    listing = subprocess.run(
        [
            str(pg_server.bindir / "pg_restore"),
            "--data-only",
            "--table=bot_state",
            "--file=-",
            str(target),
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "in the dump" in listing
    assert main(["backup", str(target), "--url", secret]) == 1
    assert "already exists" in capsys.readouterr().err
    folder = tmp_path / "backups"
    folder.mkdir()
    assert main(["backup", str(folder), "--url", secret]) == 0
    made = list(folder.iterdir())
    assert len(made) == 1 and made[0].suffix == ".dump" and made[0].stat().st_size > 0
    assert not list(tmp_path.rglob("*.partial"))


def test_backup_on_postgresql_without_pg_dump_or_when_it_fails_is_one_line(
    pg_server: PostgresServer,
    pg_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    target = tmp_path / "kap.dump"
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    assert main(["backup", str(target), "--url", with_password(pg_url)]) == 1
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "pg_dump is not installed" in err
    monkeypatch.setenv("PATH", str(pg_server.bindir))
    missing = with_password(pg_url.rsplit("/", 1)[0] + "/no_such_database")
    assert main(["backup", str(target), "--url", missing]) == 1
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "hunter2" not in err
    assert "pg_dump could not back up" in err and "no_such_database" in err
    assert not target.exists() and not list(tmp_path.glob("*.partial"))
