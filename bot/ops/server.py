"""``/metrics`` and ``/health`` over HTTP, served by aiohttp in the bot's own event loop.

The listening socket is bound by :func:`listen_socket` before the bot connects anywhere, so a
port that is taken (or an address this machine does not have) stops ``kapshap run`` and
``kapshap demo`` with one line (:class:`MetricsPortError`) instead of a traceback half-way
through the start. The default address is the loopback interface: metrics name servers'
activity and nothing here asks for a password, so only this machine reads them unless the
operator chooses otherwise (``KAPSHAP_METRICS_HOST``).
"""

from __future__ import annotations

import asyncio
import errno
import logging
import socket

from aiohttp import web
from prometheus_client import generate_latest

from bot.ops.metrics import BotMetrics, Sources
from bot.storage.errors import StorageError
from bot.storage.gauges import ping

__all__ = ["HEALTH_TIMEOUT", "MetricsPortError", "OpsServer", "health_problem", "listen_socket"]

log = logging.getLogger("kapshap.ops")

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
"""Prometheus's text format 0.0.4, which every Prometheus reads (the names here are plain ASCII,
so the output is the same as the newer 1.0.0's)."""

HEALTH_TIMEOUT = 2.0
"""Seconds the database has to answer ``/health``'s query."""


class MetricsPortError(Exception):
    """The metrics cannot be served on the address asked for; the message is one line."""


def _why(exc: OSError) -> str:
    if exc.errno == errno.EADDRINUSE:
        return "the port is already in use (another program, or another bot process, listens on it)"
    if exc.errno == errno.EACCES:
        return "permission denied (ports below 1024 need privileges)"
    if exc.errno == errno.EADDRNOTAVAIL:
        return "this machine has no such address"
    return exc.strerror or str(exc)


def listen_socket(host: str, port: int, setting: str = "KAPSHAP_METRICS_PORT") -> socket.socket:
    """A socket listening on ``host:port`` (``port`` 0: a free one), or :class:`MetricsPortError`
    naming ``setting`` and the reason."""
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    if not 0 <= port <= 65535:
        raise MetricsPortError(f"{setting} must be a port from 0 to 65535, got {port}")
    try:
        infos = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE | socket.AI_NUMERICSERV
        )
    except (socket.gaierror, UnicodeError) as exc:
        reason = exc.strerror if isinstance(exc, socket.gaierror) else str(exc)
        raise MetricsPortError(
            f"cannot serve the metrics on {where} ({setting}): unknown address ({reason})"
        ) from None
    family, kind, proto, _name, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        # A restart finds the port free though the last process's connections linger.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(64)
        sock.setblocking(False)
    except OSError as exc:
        sock.close()
        raise MetricsPortError(
            f"cannot serve the metrics on {where} ({setting}): {_why(exc)}"
        ) from None
    return sock


async def health_problem(sources: Sources, timeout: float = HEALTH_TIMEOUT) -> str | None:
    """Why the bot is not healthy, in one line, or None when its shards are connected and its
    database answers."""
    client = sources.client
    if client.is_closed():
        return "the bot is closing"
    shards = client.shards
    if not shards or not client.is_ready():
        return "not connected to Discord yet"
    down = sorted(shard_id for shard_id, shard in shards.items() if shard.is_closed())
    if down:
        names = ", ".join(map(str, down))
        return f"shard{'s' if len(down) > 1 else ''} {names} disconnected from Discord"
    try:
        await asyncio.wait_for(ping(sources.db), timeout)
    except TimeoutError:
        return f"the database did not answer within {timeout:g} s"
    except StorageError as exc:
        return f"the database does not answer: {exc}"
    except Exception as exc:  # whatever the driver raised: /health still answers, in one line
        log.warning("health: the database's query failed: %r", exc)
        why = " ".join(str(exc).split()) or type(exc).__name__
        return f"the database does not answer: {why}"
    return None


class OpsServer:
    """The HTTP server of one bot's metrics and health."""

    def __init__(self, metrics: BotMetrics) -> None:
        """Serve ``metrics`` (and the health of its sources) once :meth:`start` is called."""
        self.metrics = metrics
        self._runner: web.AppRunner | None = None
        self._sock: socket.socket | None = None

    @property
    def port(self) -> int:
        """The port it listens on (the free one chosen for port 0)."""
        if self._sock is None:
            raise RuntimeError("the metrics server is not started")
        return int(self._sock.getsockname()[1])

    async def start(self, sock: socket.socket) -> None:
        """Serve on ``sock`` (from :func:`listen_socket`) and start counting."""
        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/health", self._health)
        runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await runner.setup()
        await web.SockSite(runner, sock).start()
        self._runner, self._sock = runner, sock
        self.metrics.start()
        host, port = sock.getsockname()[:2]
        shown = f"[{host}]" if ":" in host else host
        log.info("metrics and health: http://%s:%d/metrics and /health", shown, port)

    async def stop(self) -> None:
        """Stop serving and counting (safe to call twice)."""
        self.metrics.stop()
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()
        if self._sock is not None:
            self._sock.close()

    async def _metrics(self, _request: web.Request) -> web.Response:
        await self.metrics.cache.refresh()
        return web.Response(
            body=generate_latest(self.metrics.registry),
            headers={"Content-Type": CONTENT_TYPE},
        )

    async def _health(self, _request: web.Request) -> web.Response:
        problem = await health_problem(self.metrics.sources)
        if problem is None:
            return web.Response(text="ok\n")
        return web.Response(status=503, text=f"unhealthy: {problem}\n")
