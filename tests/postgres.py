"""A throwaway PostgreSQL server for the tests: a real server, started once per test session.

The tests of the PostgreSQL backend need a real server, never a mock. This module starts one from
the binaries already on the machine (Debian's ``postgresql`` package, found through ``pg_config``
or ``/usr/lib/postgresql/*/bin``) in a temporary folder: ``initdb`` with trust authentication,
then ``pg_ctl start`` listening on 127.0.0.1 at a free port and on a Unix socket in the same
folder. ``initdb`` refuses to run as root, so as root the cluster is created and run by the
``postgres`` user (``runuser``), as CI runs as root. The server is stopped (``pg_ctl stop -m
immediate``) and the folder removed when the session ends.

Where no server can be started, :func:`start` returns the reason and the tests that need one skip
saying it; under ``CI=true`` they fail instead, so CI can never pass with the PostgreSQL half
silently skipped.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

__all__ = ["PostgresServer", "find_bindir", "start"]

#: The role every test connects as (a superuser of the throwaway cluster).
SUPERUSER = "postgres"


@dataclass
class PostgresServer:
    """A running throwaway cluster."""

    bindir: Path
    root: Path
    port: int
    run_as: str | None

    @property
    def url(self) -> str:
        """The URL of the ``postgres`` maintenance database (TCP on loopback)."""
        return self.url_of("postgres")

    def url_of(self, database: str) -> str:
        """The URL of one database of this server."""
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def psql(self, sql: str, database: str = "postgres") -> str:
        """Run one statement with ``psql`` and return its unaligned output."""
        done = subprocess.run(
            [
                str(self.bindir / "psql"),
                "-X",
                "-q",
                "-At",
                "-v",
                "ON_ERROR_STOP=1",
                "-h",
                "127.0.0.1",
                "-p",
                str(self.port),
                "-U",
                SUPERUSER,
                "-d",
                database,
                "-c",
                sql,
            ],
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        )
        return done.stdout.strip()

    def stop(self) -> None:
        """Stop the server at once and remove its folder."""
        subprocess.run(
            self._as_owner(
                [
                    str(self.bindir / "pg_ctl"),
                    "-D",
                    str(self.root / "data"),
                    "stop",
                    "-m",
                    "immediate",
                ]
            ),
            capture_output=True,
            timeout=60,
            check=False,
        )
        shutil.rmtree(self.root, ignore_errors=True)

    def _as_owner(self, argv: list[str]) -> list[str]:
        return _as_user(self.run_as, argv)


def _as_user(user: str | None, argv: list[str]) -> list[str]:
    if user is None:
        return argv
    return ["runuser", "-u", user, "--", *argv]


def find_bindir() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl``, or ``None`` when there is no PostgreSQL."""
    candidates: list[Path] = []
    pg_config = shutil.which("pg_config")
    if pg_config:
        try:
            out = subprocess.run(
                [pg_config, "--bindir"], capture_output=True, text=True, check=True, timeout=30
            ).stdout.strip()
            candidates.append(Path(out))
        except (OSError, subprocess.SubprocessError):
            pass
    # Debian keeps the server binaries out of PATH, one folder per major version: newest first.
    debian = Path("/usr/lib/postgresql")
    if debian.is_dir():
        versions = sorted(
            (p for p in debian.iterdir() if p.name.isdigit()), key=lambda p: -int(p.name)
        )
        candidates.extend(p / "bin" for p in versions)
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start() -> PostgresServer | str:
    """Start a throwaway cluster; return it, or one line saying why none could be started."""
    bindir = find_bindir()
    if bindir is None:
        return "no PostgreSQL server binaries (initdb, pg_ctl) on this machine"
    run_as: str | None = None
    if os.geteuid() == 0:
        # initdb refuses root: the cluster belongs to the postgres user instead.
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no 'postgres' user to own the cluster"
        if shutil.which("runuser") is None:
            return "running as root and there is no runuser to start the cluster as postgres"
        run_as = "postgres"
    root = Path(tempfile.mkdtemp(prefix="kapshap-pg-"))
    if run_as is not None:
        os.chown(root, owner.pw_uid, owner.pw_gid)
    data = root / "data"
    init = _as_user(
        run_as,
        [
            str(bindir / "initdb"),
            "-D",
            str(data),
            "-U",
            SUPERUSER,
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
        ],
    )
    try:
        subprocess.run(init, capture_output=True, text=True, check=True, timeout=120)
    except (OSError, subprocess.SubprocessError) as exc:
        shutil.rmtree(root, ignore_errors=True)
        return f"initdb failed: {_why(exc)}"
    # A free port can be taken between the probe and the start: try a few.
    last = ""
    for _ in range(5):
        port = _free_port()
        options = (
            f"-p {port} -k {root} -c listen_addresses=127.0.0.1 "
            # A test server: durability is not what is tested, speed is welcome.
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
            "-c max_connections=200"
        )
        ctl = _as_user(
            run_as,
            [
                str(bindir / "pg_ctl"),
                "-D",
                str(data),
                "-o",
                options,
                "-l",
                str(root / "server.log"),
                "-w",
                "-t",
                "60",
                "start",
            ],
        )
        try:
            subprocess.run(ctl, capture_output=True, text=True, check=True, timeout=120)
        except (OSError, subprocess.SubprocessError) as exc:
            last = _why(exc)
            continue
        return PostgresServer(bindir=bindir, root=root, port=port, run_as=run_as)
    shutil.rmtree(root, ignore_errors=True)
    return f"pg_ctl start failed: {last}"


def _why(exc: BaseException) -> str:
    if isinstance(exc, subprocess.CalledProcessError):
        text = (exc.stderr or exc.stdout or "").strip().splitlines()
        return text[-1] if text else f"exit status {exc.returncode}"
    return str(exc)
