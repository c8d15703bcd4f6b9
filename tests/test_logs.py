"""The bot's log lines (bot.logs, issue 21): text or JSON, one line per event, the ids of what
a line is about, and never the token or a database password, in either format, in a message,
its arguments or a traceback."""

from __future__ import annotations

import asyncio
import io
import json
import logging

import pytest

from bot.app import configure_logging
from bot.config import Settings
from bot.logs import bound, current_ids

TOKEN = "MTAxNTE2.GhQx7v.s3cr3t-t0ken_VALUE-abcdefghij"
PASSWORD = "pa:ss@w/rd%+!"
URL = "postgresql://kapshap:pa%3Ass%40w%2Frd%25%2B%21@db.example.org:5432/kapshap"


@pytest.fixture
def captured() -> io.StringIO:
    """Where the lines go (the root logger is restored after the test by tests/conftest.py)."""
    return io.StringIO()


def _configure(stream: io.StringIO, log_format: str) -> None:
    settings = Settings(discord_token=TOKEN, database_url=URL, log_format=log_format)
    configure_logging(settings, stream=stream)


def _log_the_secrets() -> None:
    log = logging.getLogger("kapshap.test")
    log.info("connecting with token %s to %s", TOKEN, URL)
    log.warning(f"the password is {PASSWORD} (decoded), in the URL {URL}")
    try:
        raise ConnectionError(f"could not log in to {URL} with {TOKEN}: password={PASSWORD}")
    except ConnectionError:
        log.exception("the database refused us")
    other = "postgres://someone:hunter22@elsewhere/db?password=hunter22&sslmode=require"
    log.error("another server: %s", other)


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_no_token_or_password_in_any_line(captured: io.StringIO, log_format: str) -> None:
    _configure(captured, log_format)
    _log_the_secrets()
    out = captured.getvalue()
    assert "the database refused us" in out and "ConnectionError" in out  # it was logged
    assert "Traceback" in out
    for secret in (TOKEN, PASSWORD, "pa%3Ass%40w%2Frd%25%2B%21", "hunter22"):
        assert secret not in out, secret
    # Still readable: who, where, and that something was masked.
    assert "postgresql://kapshap:***@db.example.org:5432/kapshap" in out
    assert "postgres://someone:***@elsewhere/db?password=***&sslmode=require" in out


def test_json_lines_are_one_object_per_event(captured: io.StringIO) -> None:
    _configure(captured, "json")
    log = logging.getLogger("kapshap.tables")
    with bound(server=1, channel=2):
        log.info("table %s opened", "t1")
        with bound(table="t1", game="kap-shap"):
            try:
                raise ValueError("boom\nsecond line")
            except ValueError:
                log.exception("incident 0a1b: table step failed")
        log.warning("after the step")
    log.info("outside")
    lines = captured.getvalue().splitlines()
    assert len(lines) == 4  # a traceback too stays on its line
    opened, failed, after, outside = (json.loads(line) for line in lines)
    assert opened["message"] == "table t1 opened" and opened["level"] == "INFO"
    assert opened["logger"] == "kapshap.tables" and opened["time"].endswith("+00:00")
    assert (opened["server"], opened["channel"]) == (1, 2) and "table" not in opened
    assert (failed["table"], failed["game"], failed["server"]) == ("t1", "kap-shap", 1)
    assert "ValueError: boom\nsecond line" in failed["exception"]
    assert "table" not in after and after["channel"] == 2  # the inner ids end with their block
    assert set(outside) == {"time", "level", "logger", "message"}


def test_text_lines_keep_their_format_and_add_the_ids(captured: io.StringIO) -> None:
    _configure(captured, "text")
    log = logging.getLogger("kapshap")
    log.info("plain")
    with bound(tournament=7, incident="0a1b", shard=None):
        log.error("event step failed")
    plain, step = captured.getvalue().splitlines()
    assert plain.endswith(" INFO kapshap: plain")
    assert step.endswith(" ERROR kapshap: event step failed [tournament=7 incident=0a1b]")


async def test_each_task_carries_the_ids_where_it_began() -> None:
    async def step(table: str) -> dict[str, object]:
        with bound(table=table):
            await asyncio.sleep(0)  # the other task runs meanwhile
            return current_ids()

    with bound(server=5):
        first, second = await asyncio.gather(step("a"), step("b"))
    assert first == {"server": 5, "table": "a"} and second == {"server": 5, "table": "b"}
    assert current_ids() == {}


def test_an_unknown_id_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="unknown log context ids: player"):
        bound(player=1)
