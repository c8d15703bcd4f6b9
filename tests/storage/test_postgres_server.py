"""The throwaway PostgreSQL server of the tests really runs (tests/postgres.py)."""

from __future__ import annotations

from tests.postgres import PostgresServer


def test_the_throwaway_server_answers_and_gives_each_test_its_own_database(
    pg_server: PostgresServer, pg_url: str
) -> None:
    name = pg_url.rsplit("/", 1)[1]
    assert pg_server.psql("SELECT current_database()", database=name) == name
    assert int(pg_server.psql("SHOW server_version_num")) >= 120000
    pg_server.psql("CREATE TABLE probe (n integer)", database=name)
    pg_server.psql("INSERT INTO probe VALUES (41), (1)", database=name)
    assert pg_server.psql("SELECT sum(n) FROM probe", database=name) == "42"
