"""The crash tests run on both backends (PostgreSQL only where a server can be had)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.crash.backends import Backend
from tests.postgres import PostgresServer


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    """The crash tests run on both backends (PostgreSQL only where a server can be had)."""
    if request.param == "postgresql":
        server: PostgresServer = request.getfixturevalue("pg_server")
        return Backend(tmp_path, server)
    return Backend(tmp_path, None)
