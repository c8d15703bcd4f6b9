"""``kapshap demo``: the demo run until Ctrl+C or SIGTERM, and its command line."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import logging
import multiprocessing
import random
import socket
import sys
import tempfile
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from aiohttp import ClientSession

from bot.app import KapBot, Stop, configure_logging, create_bot, exit_status, stop_signals
from bot.config import ConfigError, Settings, load_settings
from bot.demo.scene import demo_settings
from bot.demo.server import Demo
from bot.demo.web import EVERYWHERE
from bot.locale import LOCALES
from bot.ops.server import MetricsPortError, listen_socket

METRICS_HOST = "127.0.0.1"
"""The demo serves its metrics on the loopback interface only."""


@contextlib.asynccontextmanager
async def running_demo(
    settings: Settings,
    seed: int | None = None,
    locale: str = "en",
    metrics_socket: socket.socket | None = None,
) -> AsyncIterator[Demo]:
    """The bot on simcord with the scene built and the first view open; ``seed`` fixes the
    deals (and so the computer players' choices); ``locale`` is the language of the server and
    of every member's client (``zh-TW``: the whole demo in Traditional Chinese).
    ``metrics_socket``: serve the bot's ``/metrics`` and ``/health`` there (settings with a
    ``metrics_port``)."""
    import simcord

    bot: KapBot = create_bot(settings, rng=None if seed is None else random.Random(seed))
    if metrics_socket is not None:
        bot.serve_metrics_on(metrics_socket)
    # check_errors=False: a bot error is logged (and shown on the page) instead of stopping
    # the demo at exit.
    async with simcord.run(bot, check_errors=False) as env, _clients_speak(locale):
        demo = Demo(env, locale)
        await demo.build_scene()
        async with ClientSession() as http:
            demo.http = http
            await demo.open_view(demo.view)
            driver = asyncio.create_task(demo.drive_clock())
            # The review's worker processes are started by the bot as it needs them.
            children = set(multiprocessing.active_children())
            try:
                yield demo
            finally:
                driver.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await driver
                if demo.preview is not None:
                    await demo.preview.close()
                # Before simcord's shutdown, which does not close the bot: the bot stops as
                # `kapshap run` does on SIGTERM (actions in flight finish, pending edits are
                # drawn), the cogs unload and the database closes (its worker thread would keep
                # the process alive).
                demo.left = await bot.shutdown()
                # A review still running in a worker process would hold the exit until it
                # ends (the pool waits for its workers): the demo's own workers stop now.
                for child in set(multiprocessing.active_children()) - children:
                    child.terminate()


@contextlib.asynccontextmanager
async def _clients_speak(locale: str) -> AsyncIterator[None]:
    """Every member's interactions carry ``locale``, as his Discord client would send it.

    simcord sends ``en-US``; its payload builder (pinned, like the profile call above) is
    wrapped for the demo's lifetime so the bot's private replies follow the chosen language."""
    if locale == "en":
        yield
        return
    import simcord.interactions

    original = simcord.interactions.base_payload

    def base_payload(backend: Any, **kwargs: Any) -> Any:
        record, payload = original(backend, **kwargs)
        payload["locale"] = locale
        return record, payload

    simcord.interactions.base_payload = base_payload
    try:
        yield
    finally:
        simcord.interactions.base_payload = original


async def serve(
    settings: Settings,
    host: str,
    port: int,
    seed: int | None = None,
    locale: str = "en",
    names: Sequence[str] = (),
    metrics_socket: socket.socket | None = None,
) -> Stop:
    """Run the demo at ``http://host:port/`` until Ctrl+C or SIGTERM; ``names`` are further
    host names it answers to (with ``host`` 0.0.0.0); ``metrics_socket`` serves the bot's
    metrics and health. Returns how it was stopped."""
    stop = asyncio.Event()
    stopped = Stop()

    def stopping(number: int) -> None:
        if stopped.signal is None:
            stopped.signal = number
        stop.set()

    # Both end the demo the way SIGTERM ends `kapshap run` (bot.app.KapBot.shutdown). A SIGINT
    # the shell ignores (a background job, nohup) stays ignored: SIGTERM still works.
    with stop_signals(stopping):
        async with running_demo(settings, seed, locale, metrics_socket) as demo:
            runner, port = await demo.listen(host, port, names)
            everywhere = host in EVERYWHERE
            shown = "127.0.0.1" if everywhere else f"[{host}]" if ":" in host else host
            print(
                f"Kap Shap demo: open http://{shown}:{port}/ in your browser (Ctrl+C to stop)"
                + (
                    " - it listens on every network interface and answers for "
                    + ", ".join(sorted(demo.allowed_hosts))
                    if everywhere
                    else ""
                )
            )
            bot = demo.env.bot
            if isinstance(bot, KapBot) and bot.ops is not None:
                print(
                    f"Kap Shap demo: metrics at http://{METRICS_HOST}:{bot.ops.port}/metrics, "
                    "health at /health"
                )
            sys.stdout.flush()
            try:
                await stop.wait()
            finally:
                await runner.cleanup()
        stopped.left = demo.left
    return stopped


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kapshap demo",
        description=(
            "Play with the bot in your browser: the whole bot on a simulated Discord server "
            "(no token, no network)."
        ),
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to serve the page on (default: 127.0.0.1)"
    )
    parser.add_argument(
        "--port", type=int, default=0, help="port to serve the page on (default: a free port)"
    )
    parser.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="also answer requests for this host name or address (repeatable): with --host "
        "0.0.0.0, a name others use to reach this machine; the demo refuses any other Host",
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        help="keep the demo's database in this folder (default: a temporary folder, deleted "
        "at exit)",
    )
    parser.add_argument(
        "--seed", type=int, default=None, help="shuffle the deals from this seed (repeatable demos)"
    )
    parser.add_argument(
        "--env-file", type=Path, default=Path(".env"), help="settings file (default: .env)"
    )
    parser.add_argument(
        "--metrics-port",
        type=int,
        default=None,
        metavar="PORT",
        help="also serve the bot's /metrics and /health on 127.0.0.1:PORT, as KAPSHAP_METRICS_PORT "
        "does for `kapshap run` (0: a free port; default: not served)",
    )
    parser.add_argument(
        "--lang",
        choices=LOCALES,
        default="en",
        help="the server's and the members' language: en, zh-TW or zh-CN (default: en)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """``kapshap demo``: serve the demo until Ctrl+C."""
    args = build_parser().parse_args(argv)
    try:
        base = load_settings(dotenv_path=args.env_file)
    except ConfigError as exc:
        print(f"kapshap demo: {exc}", file=sys.stderr)
        return 2
    if not 0 <= args.port <= 65535:
        print("kapshap demo: --port must be between 0 and 65535", file=sys.stderr)
        return 2
    metrics_socket = None
    if args.metrics_port is not None:
        try:
            metrics_socket = listen_socket(METRICS_HOST, args.metrics_port, "--metrics-port")
        except MetricsPortError as exc:
            print(f"kapshap demo: {exc}", file=sys.stderr)
            return 2
    configure_logging(base, logging.WARNING)
    # discord.py's start-up warnings (voice support, intents) say nothing about the demo.
    logging.getLogger("discord").setLevel(logging.ERROR)
    with contextlib.ExitStack() as stack:
        if args.data_dir is None:
            data_dir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="kapshap-")))
        else:
            data_dir = args.data_dir
            data_dir.mkdir(parents=True, exist_ok=True)
        port = args.port
        try:
            stopped = asyncio.run(
                serve(
                    dataclasses.replace(
                        demo_settings(base, data_dir),
                        metrics_port=args.metrics_port,
                        metrics_host=METRICS_HOST,
                    ),
                    args.host,
                    port,
                    args.seed,
                    args.lang,
                    args.allow_host,
                    metrics_socket,
                )
            )
        except KeyboardInterrupt:
            print("kapshap demo: stopped", file=sys.stderr)
            return 130  # what a shell expects after Ctrl+C (bot.cli adds no line of its own)
        except OSError as exc:
            print(f"kapshap demo: cannot listen on {args.host}:{port}: {exc}", file=sys.stderr)
            return 2
        # Ctrl+C ends every kapshap command with 130, as a shell expects; SIGTERM is a normal
        # stop (0), unless the stop ran out of time (1).
        return exit_status("kapshap demo", stopped, base.shutdown_seconds)
