"""One process per database: the file lock, and what a second process is told."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.app import main
from bot.storage.errors import DatabaseLocked
from bot.storage.lock import ProcessLock, lock_path


def test_a_second_lock_names_the_owner(tmp_path: Path) -> None:
    path = tmp_path / "kap.db"
    first = ProcessLock.acquire(path)
    try:
        with pytest.raises(DatabaseLocked) as caught:
            ProcessLock.acquire(path)
        assert f"pid {os.getpid()}" in str(caught.value) and "host " in str(caught.value)
    finally:
        first.release()
    ProcessLock.acquire(path).release()  # released: free again


def test_a_killed_owner_never_blocks_the_next_start(tmp_path: Path) -> None:
    path = tmp_path / "kap.db"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from bot.storage.lock import ProcessLock; "
            "lock = ProcessLock.acquire(sys.argv[1]); print('locked', flush=True); time.sleep(60)",
            str(path),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        with pytest.raises(DatabaseLocked, match=f"pid {holder.pid}"):
            ProcessLock.acquire(path)
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    assert lock_path(path).exists()  # the file stays; the lock died with its process
    ProcessLock.acquire(path).release()


def test_kapshap_run_refuses_a_database_in_use_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "kap.db"
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("KAPSHAP_DB_PATH", str(path))
    lock = ProcessLock.acquire(path)
    try:
        assert main(["--env-file", str(tmp_path / "none.env")]) == 2
    finally:
        lock.release()
    err = capsys.readouterr().err
    assert err.startswith("kapshap run: the database") and f"pid {os.getpid()}" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("kind", ["directory", "not sqlite"])
def test_kapshap_run_with_an_unusable_database_path_is_one_line(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "kap.db"
    if kind == "directory":
        path.mkdir()
    else:
        path.write_bytes(b"plain text, not SQLite " * 200)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("KAPSHAP_DB_PATH", str(path))
    assert main(["--env-file", str(tmp_path / "none.env")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"kapshap run: cannot use the database {path}"), err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
