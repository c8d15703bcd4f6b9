"""``kapshap run`` without a token explains what to do and exits non-zero."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import main


def test_run_without_a_token_explains_how_to_get_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(["--env-file", str(tmp_path / "missing.env")]) == 2
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN" in err
    assert "applications.commands" in err
    assert "kapshap demo" in err
    assert "kapshap play" in err


def test_run_with_a_bad_setting_names_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("KAPSHAP_DEFAULT_ANTE", "lots")
    assert main(["--env-file", str(tmp_path / "missing.env")]) == 2
    assert "KAPSHAP_DEFAULT_ANTE" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("postgresql://bot:s3cret@127.0.0.1:1/kap", "connection refused"),
        ("postgresql://bot:s3cret@127.0.0.1:notaport/kap", "port"),
        ("mysql://bot:s3cret@127.0.0.1/kap", "must be a postgresql:// URL"),
    ],
)
def test_run_with_an_unusable_database_url_is_one_line_without_the_password(
    url: str,
    why: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("DATABASE_URL", url)
    assert main(["--env-file", str(tmp_path / "none.env")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("kapshap run: ") and why in err, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert "s3cret" not in err


def test_run_with_a_database_the_server_refuses_is_one_line(
    pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("DATABASE_URL", pg_url.rsplit("/", 1)[0] + "/no_such_database")
    assert main(["--env-file", str(tmp_path / "none.env")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("kapshap run: cannot use the database postgresql://"), err
    assert "refused" in err and "no_such_database" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("taken", [True, False], ids=["port taken", "port out of range"])
def test_run_with_a_metrics_port_that_cannot_be_used_is_one_line(
    taken: bool,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Before connecting to Discord: one line naming the setting, exit 2, the database's lock
    given back."""
    from bot.ops.server import listen_socket
    from bot.storage.lock import ProcessLock

    holder = listen_socket("127.0.0.1", 0) if taken else None
    port = holder.getsockname()[1] if holder is not None else 70000
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("KAPSHAP_DB_PATH", str(tmp_path / "kapshap.sqlite3"))
    monkeypatch.setenv("KAPSHAP_METRICS_PORT", str(port))
    try:
        assert main(["--env-file", str(tmp_path / "none.env")]) == 2
    finally:
        if holder is not None:
            holder.close()
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    if taken:
        assert err == (
            f"kapshap run: cannot serve the metrics on 127.0.0.1:{port} (KAPSHAP_METRICS_PORT): "
            "the port is already in use (another program, or another bot process, listens on "
            "it)\n"
        )
        ProcessLock.acquire(tmp_path / "kapshap.sqlite3").release()  # not left held
    else:
        assert err.startswith("kapshap run: KAPSHAP_METRICS_PORT must be a whole number from 0"), (
            err
        )


@pytest.mark.parametrize(
    ("settings", "line"),
    [
        ({"KAPSHAP_LOG_FORMAT": "xml"}, "KAPSHAP_LOG_FORMAT must be one of text, json, got 'xml'"),
        ({"KAPSHAP_SHUTDOWN_SECONDS": "0"}, "KAPSHAP_SHUTDOWN_SECONDS must be a whole number"),
        (
            {"KAPSHAP_SHARD_COUNT": "4", "KAPSHAP_SHARD_IDS": "0,2"},
            "KAPSHAP_SHARD_IDS leaves shard 1 of 4 to another process, but without DATABASE_URL",
        ),
        ({"KAPSHAP_SHARD_COUNT": "2", "KAPSHAP_SHARD_IDS": "0,0"}, "names shard 0 twice"),
        ({"KAPSHAP_SHARD_IDS": "0"}, "KAPSHAP_SHARD_IDS needs KAPSHAP_SHARD_COUNT"),
    ],
)
def test_run_with_settings_that_cannot_work_together_is_one_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    settings: dict[str, str],
    line: str,
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "token")
    monkeypatch.setenv("KAPSHAP_DB_PATH", str(tmp_path / "kap.db"))
    for name, value in settings.items():
        monkeypatch.setenv(name, value)
    assert main(["--env-file", str(tmp_path / "missing.env")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("kapshap run: ") and line in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not (tmp_path / "kap.db").exists()  # stopped before anything was opened
