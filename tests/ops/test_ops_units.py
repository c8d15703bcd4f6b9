"""The parts of bot.ops that need no bot: the event loop's lag, the listening socket's errors,
the gauges read from a real database (both backends), and the pool's use."""

from __future__ import annotations

import asyncio
import socket
import time
from pathlib import Path

import pytest

from bot.ops.metrics import LoopLag
from bot.ops.server import MetricsPortError, listen_socket
from bot.storage.db import Database
from bot.storage.gauges import read_gauges


async def test_a_blocked_loop_shows_as_lag() -> None:
    lag = LoopLag(interval=0.05)
    lag.start()
    try:
        await asyncio.sleep(0.2)  # samples of an idle loop
        time.sleep(0.6)  # the loop is blocked: a callback handed meanwhile waits until the end
        for _ in range(3):
            await asyncio.sleep(0.06)
        assert lag.worst >= 0.3, lag.worst
    finally:
        lag.stop()


def test_a_taken_port_is_one_line() -> None:
    taken = listen_socket("127.0.0.1", 0)
    port = taken.getsockname()[1]
    try:
        with pytest.raises(MetricsPortError) as caught:
            listen_socket("127.0.0.1", port)
        assert str(caught.value) == (
            f"cannot serve the metrics on 127.0.0.1:{port} (KAPSHAP_METRICS_PORT): the port is "
            "already in use (another program, or another bot process, listens on it)"
        )
    finally:
        taken.close()
    listen_socket("127.0.0.1", port).close()  # free again once the other one closed


@pytest.mark.parametrize(
    ("host", "port", "why"),
    [
        ("127.0.0.1", 70000, "KAPSHAP_METRICS_PORT must be a port from 0 to 65535, got 70000"),
        ("no-such-host.invalid", 0, "unknown address"),
        ("192.0.2.1", 0, "this machine has no such address"),
    ],
)
def test_an_unusable_address_is_one_line(host: str, port: int, why: str) -> None:
    with pytest.raises(MetricsPortError) as caught:
        listen_socket(host, port)
    assert why in str(caught.value) and "\n" not in str(caught.value)


def test_the_socket_listens_where_asked() -> None:
    sock = listen_socket("127.0.0.1", 0)
    try:
        assert sock.getsockname()[0] == "127.0.0.1" and sock.getsockname()[1] > 0
        with socket.create_connection(sock.getsockname()[:2], timeout=5):
            pass
    finally:
        sock.close()


async def test_the_gauges_count_what_is_open(db_target: str | Path) -> None:
    db = await Database.open(db_target)
    try:
        assert (await read_gauges(db, 1000.0, 10.0)).open_tables == {}
        async with db.transaction() as tx:
            for channel, (game, status, deadline) in enumerate(
                [
                    ("kap-shap", "running", 995.0),  # due, not late
                    ("kap-shap", "running", 985.0),  # late
                    ("kap-shap", "lobby", None),
                    ("tsung-shap", "running", 2000.0),  # not due
                    ("tsung-shap", "finished", None),  # closed: not counted
                ]
            ):
                await tx.execute(
                    "INSERT INTO games (id, guild_id, channel_id, status, game, rules_json, "
                    "seats_json, host_id, turn_seconds, deadline, created_at, finished_at) "
                    "VALUES (?, 1, ?, ?, ?, '{}', '[]', 1, 60, ?, '2026-11-27', ?)",
                    (
                        f"g{channel}",
                        channel,
                        status,
                        game,
                        deadline,
                        None if status in ("lobby", "running") else "2026-11-27",
                    ),
                )
        gauges = await read_gauges(db, 1000.0, 10.0)
        assert gauges.open_tables == {
            ("kap-shap", "running"): 2,
            ("kap-shap", "lobby"): 1,
            ("tsung-shap", "running"): 1,
        }
        assert (gauges.timers_set, gauges.timers_due, gauges.timers_late) == (3, 2, 1)
        assert gauges.escrow == 0
        use = db.pool_use()
        assert use.in_use == 0 and 1 <= use.size <= use.max_size
        async with db.read():
            assert db.pool_use().in_use == 1
    finally:
        await db.close()
