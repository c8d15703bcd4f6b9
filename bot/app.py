"""Composition root: settings -> database -> services -> the Discord bot.

``kapshap run`` (and ``python -m bot run``) end up in :func:`main`. Tests build the same bot with
:func:`create_bot` and run it against simcord's in-memory Discord.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import logging
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, cast

import discord
from discord.ext import commands

from bot.ai import warm
from bot.ai.family import bound_memos
from bot.config import ConfigError, Settings, load_settings
from bot.locale import normalize, t
from bot.logs import Redactor, configure, secrets_of
from bot.ops.observer import NullObserver, Observer
from bot.services.chips import ChipsDefaults, ChipsService
from bot.services.clock import Clock
from bot.services.cluster import (
    HeldLock,
    LocalLocks,
    NamedLocks,
    ShardClaimed,
    claim_shards,
    repair_once,
    shard_ranges,
)
from bot.services.guild_settings import GuildDefaults, GuildSettingsService
from bot.services.lessons import LessonService
from bot.services.lifecycle import RESTARTING, InFlight
from bot.services.puzzles import PuzzleService
from bot.services.ratings import RatingService
from bot.services.replays import ReviewService
from bot.services.server import ServerService
from bot.services.tables import TableDefaults, TableService
from bot.storage.base import mask_url
from bot.storage.db import Database
from bot.storage.errors import StorageError
from bot.storage.games import GamesRepo
from bot.storage.lock import ProcessLock

if TYPE_CHECKING:
    from bot.ops.server import OpsServer

__all__ = [
    "EXTENSIONS",
    "DiscordClock",
    "KapBot",
    "Services",
    "command_tree_hash",
    "create_bot",
    "main",
]

log = logging.getLogger("kapshap")

EXTENSIONS: tuple[str, ...] = (
    "cogs.tables",
    "cogs.play",
    "cogs.chips",
    "cogs.admin",
    "cogs.help",
    "cogs.stats",
    "cogs.replay",
    "cogs.tournaments",
    "cogs.puzzles",
    "cogs.learn",
)
"""Every cog module the bot loads, in order."""

NO_TOKEN_HELP = """\
kapshap run: no bot token (DISCORD_TOKEN is not set).

To run the bot on Discord:
  1. Create an application at https://discord.com/developers/applications and add a Bot to it;
     copy its token (Bot -> Reset Token).
  2. Invite it to your server with the scopes `bot` and `applications.commands` and the
     permissions: View Channels, Send Messages, Send Messages in Threads, Create Public Threads,
     Embed Links, Attach Files, Read Message History (no privileged intents are needed).
  3. Put the token in the environment or in a `.env` file in this folder:
        DISCORD_TOKEN=your-token-here
     (copy .env.example to .env; it documents every other setting).
  4. Start it: the slash commands are published to Discord on the first start (and again
     whenever they change); Discord may take up to an hour to show them everywhere. Set
     KAPSHAP_DEV_GUILD_ID to your test server's id to have them there at once.

No token at hand? `kapshap demo` runs this bot on a built-in Discord in your browser, and
`kapshap play` plays Kap Shap against the computer in the terminal.
"""


class DiscordClock:
    """The production clock: discord.py's ``utcnow`` (virtual under simcord in tests)."""

    def now(self) -> datetime:
        """The current UTC time."""
        return discord.utils.utcnow()

    def monotonic(self) -> float:
        """Monotonic seconds, for measuring durations."""
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        """Sleep on the event loop."""
        await asyncio.sleep(seconds)


class SeenInteractions:
    """The ids of the latest interactions received, to drop a second delivery of one.

    Discord may deliver the same INTERACTION_CREATE twice (a gateway resume replays it). Chip
    moves are idempotent by interaction id anyway, but a second run of a handler would answer an
    interaction already answered (an error from Discord) or act twice on a table. Duplicates
    arrive within seconds, so a bounded window of recent ids is enough: memory stays constant.
    """

    def __init__(self, size: int = 4096) -> None:
        """Remember the last ``size`` interaction ids."""
        self._size = size
        self._ids: OrderedDict[str, None] = OrderedDict()

    def first_time(self, interaction_id: str) -> bool:
        """True the first time an id is seen (and remember it), False for a repeat."""
        if interaction_id in self._ids:
            return False
        self._ids[interaction_id] = None
        if len(self._ids) > self._size:
            self._ids.popitem(last=False)
        return True


#: The interactions a member sends by a command, a button or a form (answerable with a message);
#: the others (autocomplete, ping) are only dropped while the bot stops.
_ANSWERABLE = frozenset(
    {
        discord.InteractionType.application_command.value,
        discord.InteractionType.component.value,
        discord.InteractionType.modal_submit.value,
    }
)


def drop_duplicate_interactions(
    bot: discord.Client, seen: SeenInteractions, in_flight: InFlight | None = None
) -> None:
    """Wrap discord.py's INTERACTION_CREATE parser so a repeated delivery is logged (INFO) and
    ignored before any handler runs: it is answered once, by the first delivery. While the bot
    stops (``in_flight`` stopping) every new interaction is answered "the bot is restarting"
    here, before any handler could act on it."""
    # discord.py looks the parser up by event name on every event (the gateway and simcord alike).
    parsers = bot._connection.parsers
    parse = parsers["INTERACTION_CREATE"]
    replies: set[asyncio.Task[None]] = set()

    def parse_once(data: Any) -> None:
        interaction_id = str(data.get("id"))
        if not seen.first_time(interaction_id):
            log.info("interaction %s delivered again: ignored (answered once)", interaction_id)
            return
        if in_flight is not None and in_flight.stopping:
            if data.get("type") in _ANSWERABLE:
                reply = asyncio.create_task(_say_restarting(bot, data, in_flight))
                replies.add(reply)  # kept until done: the loop holds tasks weakly
                reply.add_done_callback(replies.discard)
            return
        parse(data)

    parsers["INTERACTION_CREATE"] = parse_once


async def _say_restarting(bot: discord.Client, data: Any, in_flight: InFlight) -> None:
    """Answer an interaction that arrived while the bot stops: privately, in the member's
    language, nothing applied (counted in flight, so the stop waits for the answer)."""
    with in_flight.action("answering an interaction: the bot is restarting"):
        interaction: discord.Interaction[Any] = discord.Interaction(
            data=data, state=bot._connection
        )
        text = t(normalize(data.get("locale")), RESTARTING)
        try:
            await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException as exc:
            log.info("interaction %s: could not say the bot is restarting: %s", data["id"], exc)


@dataclass(slots=True)
class Services:
    """Everything the cogs use, built once per bot in ``setup_hook``."""

    settings: Settings
    clock: Clock
    db: Database
    chips: ChipsService
    games: GamesRepo
    tables: TableService
    guild_settings: GuildSettingsService
    server: ServerService
    ratings: RatingService
    puzzles: PuzzleService
    lessons: LessonService  # /learn (issue 22)


class KapBot(commands.AutoShardedBot):
    """The Kap Shap bot: slash commands only, default (non-privileged) intents, the shards of
    the settings (all of them by default, as many as Discord asks for)."""

    def __init__(
        self,
        settings: Settings,
        *,
        clock: Clock | None = None,
        rng: random.Random | None = None,
        extensions: tuple[str, ...] = EXTENSIONS,
        auto_sync: bool = True,
        locks: NamedLocks | None = None,
    ) -> None:
        """``clock`` and ``rng`` are injected by tests; production uses the defaults.
        ``auto_sync=False`` makes a tool that never connects to Discord's gateway (``kapshap
        sync``, the catalogue's extraction): it leaves publishing the commands to its caller and
        claims no shard. ``locks``: the named locks shared with the other processes (default:
        the database's, :func:`named_locks`)."""
        # Slash commands only: no text help (discord.py's default would answer "@bot help").
        # Nobody is pinged unless a message says whom (cogs.common.pinging): names of events,
        # tables and members are text chosen by members, and may read "@everyone" or "<@&id>".
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            shard_count=settings.shard_count,
            # None is discord.py's own default (every shard), though its annotation says list.
            shard_ids=cast(
                "list[int]", None if settings.shard_ids is None else list(settings.shard_ids)
            ),
        )
        self.settings = settings
        self.clock: Clock = clock or DiscordClock()
        self._rng = rng
        self._extensions = extensions
        self._auto_sync = auto_sync
        self._services: Services | None = None
        self.in_flight = InFlight()
        """The actions running now; stopped by :meth:`shutdown`."""
        self._stopping: asyncio.Task[list[str]] | None = None
        self._closed = False
        drop_duplicate_interactions(self, SeenInteractions(), self.in_flight)
        self._lock: ProcessLock | None = None
        self._locks = locks
        self._claims: list[HeldLock] = []
        self._warming: asyncio.Task[None] | None = None
        self._compiler: subprocess.Popen[bytes] | None = None
        self.observer: Observer = NullObserver()
        """Where the cogs report interactions and incidents: the metrics when they are served."""
        self.ops: OpsServer | None = None
        """The metrics and health server (``settings.metrics_port``), from ``setup_hook`` on."""
        self._metrics_socket: socket.socket | None = None

    def hold_lock(self, lock: ProcessLock) -> None:
        """Keep a process lock taken before the start (released when the bot closes)."""
        self._lock = lock

    def serve_metrics_on(self, sock: socket.socket) -> None:
        """Serve the metrics on a socket bound before the start (``kapshap run``, ``kapshap
        demo``), so a port that is taken is one line before anything else."""
        self._metrics_socket = sock

    @property
    def services(self) -> Services:
        """The services (available from ``setup_hook`` on)."""
        if self._services is None:
            raise RuntimeError("the bot's services are built in setup_hook")
        return self._services

    async def setup_hook(self) -> None:
        """Open the database (migrating it), build the services, load the cogs, sync commands."""
        settings = self.settings
        # The bot's memory budget (docs/benchmarks.md): small AI memos, not the simulator's.
        bound_memos()
        # One process per SQLite file: a second bot on the same file refuses to start here.
        # (PostgreSQL serves several processes; their shards are claimed with Database.hold.)
        if settings.database_url is None and (self._lock is None or not self._lock.held):
            self._lock = ProcessLock.acquire(settings.db_path)
        # Command names and descriptions in each member's language (bot/locale's catalogues).
        from cogs.translator import CatalogueTranslator

        await self.tree.set_translator(CatalogueTranslator())
        db = await Database.open(settings.database_target)
        locks = self._locks or named_locks(settings, db)
        if self._auto_sync:
            try:
                await self._claim_shards(locks)
            except BaseException:
                await db.close()  # close() closes the database only once the services exist
                raise
        chips = ChipsService(
            db,
            self.clock,
            ChipsDefaults(
                starting_chips=settings.starting_chips, daily_amount=settings.daily_amount
            ),
        )
        games = GamesRepo(db)
        server = ServerService(db)
        ratings = RatingService(db, self.clock, provisional_games=settings.provisional_games)
        tables = TableService(
            games,
            chips,
            self.clock,
            TableDefaults(ante=settings.default_ante, turn_seconds=settings.turn_seconds),
            self._rng,
            server,
            ratings,
            # Other processes share a PostgreSQL database: check each table's version before
            # acting, and look for due deadlines of tables this process does not hold.
            poll_seconds=SHARED_POLL_SECONDS if settings.database_url is not None else None,
        )
        # Per-server overrides of the same settings; ChipsService reads the chip ones itself.
        guild_settings = GuildSettingsService(
            db,
            self.clock,
            GuildDefaults(
                ante=settings.default_ante,
                starting_chips=settings.starting_chips,
                daily_amount=settings.daily_amount,
                turn_seconds=settings.turn_seconds,
            ),
        )
        self._services = Services(
            settings,
            self.clock,
            db,
            chips,
            games,
            tables,
            guild_settings,
            server,
            ratings,
            puzzles=PuzzleService(db, self.clock),
            lessons=LessonService(db, self.clock),
        )
        # Once for every process on the database, before the cogs rebuild the tables from it.
        if await repair_once(locks, tables.repair_at_start, self.clock.sleep):
            log.info("start-up repair: done by this process")
        else:
            log.info("start-up repair: another process was running it; waited and skipped it")
        for extension in self._extensions:
            await self.load_extension(extension)
        if settings.metrics_port is not None:
            await self._serve_metrics(settings, db)
        if warm.background_wanted():
            self._warming = asyncio.create_task(self._warm_kernel(), name="kapshap-warm-kernel")
        if not self._auto_sync:
            return
        if not self.runs_shard_zero:
            return  # the process of shard 0 publishes them (the shards line of the log says so)
        if settings.dev_guild_id is not None:
            guild = discord.Object(settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
            log.info("slash commands synced to the development guild %s", settings.dev_guild_id)
        else:
            await self.sync_if_changed()

    async def _serve_metrics(self, settings: Settings, db: Database) -> None:
        """Start ``/metrics`` and ``/health`` (docs/metrics.md) in this event loop."""
        from bot.ops.metrics import BotMetrics, Sources
        from bot.ops.server import OpsServer, listen_socket

        sock, self._metrics_socket = self._metrics_socket, None
        if sock is None:
            assert settings.metrics_port is not None
            sock = listen_socket(settings.metrics_host, settings.metrics_port)
        metrics = BotMetrics(
            Sources(
                client=self,
                db=db,
                now=lambda: self.clock.now().timestamp(),
                reviews=self._review_counts,
            )
        )
        self.ops = OpsServer(metrics)
        await self.ops.start(sock)
        self.observer = metrics

    def _review_counts(self) -> tuple[int, int]:
        """Reviews (running, queued) of the replay cog, if it is loaded."""
        reviews = getattr(self.get_cog("Replays"), "reviews", None)
        if not isinstance(reviews, ReviewService):
            return (0, 0)
        return (reviews.running, reviews.queued)

    @property
    def runs_shard_zero(self) -> bool:
        """Whether this process runs shard 0 (as the only process does): the one that publishes
        the slash commands, and the one Discord sends the DMs to."""
        return self.shard_ids is None or 0 in self.shard_ids

    async def _claim_shards(self, locks: NamedLocks) -> None:
        """Claim the shards this process runs (:class:`ShardClaimed` when another process runs
        one of them); held until :meth:`close`."""
        if self.shard_count is None:
            # discord.py asks Discord in launch_shards (after this hook), but the claims must
            # precede the repair and the commands: ask now, with the same request.
            self.shard_count, _gateway, _limits = await self.http.get_bot_gateway()
            automatic = " (the count Discord recommends)"
        else:
            automatic = ""
        shards = self.shard_ids if self.shard_ids is not None else range(self.shard_count)
        self._claims = await claim_shards(locks, shards)
        log.info(
            "shards: this process runs %s of %d%s; it %s the slash commands",
            f"shard {shards[0]}" if len(shards) == 1 else f"shards {shard_ranges(shards)}",
            self.shard_count,
            automatic,
            "publishes" if self.runs_shard_zero else "does not publish",
        )

    async def sync_if_changed(self) -> bool:
        """Publish the commands globally when they differ from the last global sync (a hash kept
        in the database), so a first start makes them appear and an ordinary restart costs no
        sync request. Returns whether it synced."""
        server = self.services.server
        current = command_tree_hash(self.tree)
        if await server.command_hash() == current:
            return False
        try:
            await self.tree.sync()
        except discord.HTTPException as exc:
            # The games still run; the next start tries again (the hash was not stored).
            log.warning("could not publish the slash commands: %s", exc)
            return False
        await server.set_command_hash(current)
        log.info("slash commands synced globally (Discord may take up to an hour to show them)")
        return True

    async def sync_by_hand(self, guild_id: int | None = None, *, clear: bool = False) -> int:
        """``kapshap sync``: publish the commands globally or to one server (at once there),
        or ``clear`` them; returns how many commands Discord now has in that scope."""
        server = self.services.server
        if guild_id is None:
            if clear:
                self.tree.clear_commands(guild=None)
            synced = await self.tree.sync()
            # Cleared: forget the hash, so the next start publishes the commands again.
            await server.set_command_hash(None if clear else command_tree_hash(self.tree))
            return len(synced)
        guild = discord.Object(guild_id)
        if clear:
            self.tree.clear_commands(guild=guild)
        else:
            self.tree.copy_global_to(guild=guild)
        return len(await self.tree.sync(guild=guild))

    async def _warm_kernel(self) -> None:
        """Once connected, compile the master's kernel in a process of its own (bot.ai.warm),
        so that no player waits for it at a master's first move. Started and left alone: the
        event loop never waits for it (close() ends it if it still runs)."""
        await self.wait_until_ready()
        try:
            self._compiler = subprocess.Popen(
                warm.background_command(),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,  # Ctrl+C on the bot is the bot's: close() ends this
            )
        except OSError as exc:  # the master then compiles at its first move, as it would
            log.warning("could not start compiling the kernel in the background: %s", exc)
            return
        log.info("compiling the kernel in the background (process %s)", self._compiler.pid)

    async def shutdown(self) -> list[str]:
        """Stop cleanly, within ``KAPSHAP_SHUTDOWN_SECONDS``: take no new action (each is
        answered "the bot is restarting"), let those in flight finish, then :meth:`close` (the
        scheduler finishes its pass and stops, the table messages still due are drawn, the
        stop is recorded, the shards are given back, the database closes). Returns what was
        still running when the time ran out: empty for a clean stop. A second call waits for
        the first."""
        return await asyncio.shield(self.begin_shutdown())

    def begin_shutdown(self) -> asyncio.Task[list[str]]:
        """Start :meth:`shutdown` (once) without waiting for it: what a signal handler calls."""
        if self._stopping is None:
            self._stopping = asyncio.create_task(self._shut_down(), name="kapshap-shutdown")
        return self._stopping

    async def _shut_down(self) -> list[str]:
        limit = float(self.settings.shutdown_seconds)
        started = time.monotonic()
        self.in_flight.stop()
        running = self.in_flight.running()
        log.info(
            "stopping: no new actions from now on; %d in flight to finish (at most %d s)",
            len(running),
            self.settings.shutdown_seconds,
        )
        # The closing keeps a part of the time for itself: actions that never end must not
        # leave the shards claimed and the database open when the process exits.
        reserve = min(CLOSE_RESERVE_SECONDS, limit / 4)
        in_flight = await self.in_flight.finished(limit - reserve)
        left = [f"the action {what!r}" for what in in_flight]
        remaining = limit - (time.monotonic() - started)
        try:
            await asyncio.wait_for(asyncio.shield(self.close()), max(remaining, reserve))
        except TimeoutError:
            left.append("closing (the scheduler's last pass, table message edits, the database)")
        if left:
            log.error("stopping: %d s were not enough; still running: %s", limit, "; ".join(left))
        else:
            log.info("stopped cleanly")
        return left

    async def close(self) -> None:
        """Close Discord first (cogs unload), then the database. Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        if self._warming is not None:
            self._warming.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._warming
        if self._compiler is not None and self._compiler.poll() is None:
            self._compiler.kill()
            self._compiler.wait()
        if self.ops is not None:
            await self.ops.stop()
            self.observer = NullObserver()
        if self._metrics_socket is not None:  # bound, but the start never got that far
            self._metrics_socket.close()
            self._metrics_socket = None
        await super().close()
        # Before the database closes: on PostgreSQL a claim lives on one of its connections.
        claims, self._claims = self._claims, []
        for claim in claims:
            await claim.release()
        if self._services is not None:
            await self._services.db.close()
        if self._lock is not None:
            self._lock.release()


SHARED_POLL_SECONDS = 2.0
"""How often a process sharing its database looks for due deadlines it does not hold."""

CLOSE_RESERVE_SECONDS = 5.0
"""The part of ``KAPSHAP_SHUTDOWN_SECONDS`` (at most a quarter of it) kept for closing after
the actions in flight: the scheduler's last pass, the edits still due, the database."""


def named_locks(settings: Settings, db: Database) -> NamedLocks:
    """The locks the bot's processes share (shard claims, the start-up repair).

    On PostgreSQL the database's own session locks (``Database.hold``: advisory locks, freed by
    the server when a process dies), shared by every process on it. On SQLite the file lock
    already makes the process the only one, so the locks of this process are enough.
    """
    if settings.database_url is not None:
        return db
    return LocalLocks(str(settings.db_path))


def command_tree_hash(tree: discord.app_commands.CommandTree[Any]) -> str:
    """A hash of the global command tree as Discord would receive it."""
    payload = [command.to_dict(tree) for command in tree.get_commands()]
    text = json.dumps(payload, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def create_bot(
    settings: Settings,
    *,
    clock: Clock | None = None,
    rng: random.Random | None = None,
    auto_sync: bool = True,
    locks: NamedLocks | None = None,
) -> KapBot:
    """An unstarted bot with every cog; ``setup_hook`` builds the services when it logs in."""
    return KapBot(settings, clock=clock, rng=rng, auto_sync=auto_sync, locks=locks)


NO_TOKEN_SYNC = """kapshap sync: no bot token (DISCORD_TOKEN is not set).

Publishing the slash commands goes through Discord's API as the bot, so it needs the bot's token
in the environment or in .env (see `kapshap run` for how to get one). `kapshap run` also publishes
them by itself on the first start and whenever they change.
"""


def sync_main(argv: list[str] | None = None) -> int:
    """``kapshap sync [--guild ID] [--clear]``: publish (or clear) the slash commands by hand."""
    parser = argparse.ArgumentParser(
        prog="kapshap sync",
        description=(
            "Publish the slash commands to Discord: globally (every server; Discord may take up "
            "to an hour to show them) or to one server with --guild (at once). Needs the bot's "
            "token (DISCORD_TOKEN)."
        ),
    )
    parser.add_argument("--guild", type=int, metavar="ID", help="only this server (at once)")
    parser.add_argument(
        "--clear", action="store_true", help="remove the commands from that scope instead"
    )
    parser.add_argument(
        "--env-file", type=Path, default=Path(".env"), help="settings file (default: .env)"
    )
    args = parser.parse_args(argv)
    try:
        settings = load_settings(dotenv_path=args.env_file)
    except ConfigError as exc:
        print(f"kapshap sync: {exc}", file=sys.stderr)
        return 2
    token = settings.discord_token
    if not token:
        print(NO_TOKEN_SYNC, file=sys.stderr, end="")
        return 2

    async def run() -> int:
        bot = create_bot(settings, auto_sync=False)
        async with bot:
            await bot.login(token)
            return await bot.sync_by_hand(args.guild, clear=args.clear)

    try:
        count = asyncio.run(run())
    except discord.LoginFailure:
        print("kapshap sync: Discord refused the token (check DISCORD_TOKEN).", file=sys.stderr)
        return 1
    scope = "globally" if args.guild is None else f"to server {args.guild}"
    print(f"kapshap sync: {count} command(s) now published {scope}.")
    return 0


async def _check_database(target: str | Path) -> None:
    """Open (and migrate) the database once, so a bad path or URL fails before the bot starts."""
    db = await Database.open(target)
    await db.close()


def main(argv: list[str] | None = None) -> int:
    """``kapshap run``: start the bot with the token from the environment or ``.env``."""
    parser = argparse.ArgumentParser(prog="kapshap run", description="Run the Discord bot.")
    parser.add_argument(
        "--env-file", type=Path, default=Path(".env"), help="settings file (default: .env)"
    )
    args = parser.parse_args(argv)
    try:
        settings = load_settings(dotenv_path=args.env_file)
    except ConfigError as exc:
        print(f"kapshap run: {exc}", file=sys.stderr)
        return 2
    if not settings.discord_token:
        print(NO_TOKEN_HELP, file=sys.stderr, end="")
        return 2
    configure_logging(settings)
    try:
        # Before connecting to Discord: a database path or URL that cannot be used, or a SQLite
        # file another bot process holds, is one line here rather than a traceback later.
        lock = None if settings.database_url is not None else ProcessLock.acquire(settings.db_path)
        try:
            asyncio.run(_check_database(settings.database_target))
        except BaseException:
            if lock is not None:
                lock.release()
            raise
    except StorageError as exc:
        print(f"kapshap run: {exc}", file=sys.stderr)
        return 2
    metrics_socket = None
    if settings.metrics_port is not None:
        from bot.ops.server import MetricsPortError, listen_socket

        try:
            metrics_socket = listen_socket(settings.metrics_host, settings.metrics_port)
        except MetricsPortError as exc:
            if lock is not None:
                lock.release()
            print(f"kapshap run: {exc}", file=sys.stderr)
            return 2
    bot = create_bot(settings)
    if lock is not None:
        bot.hold_lock(lock)
    if metrics_socket is not None:
        bot.serve_metrics_on(metrics_socket)
    try:
        stop = asyncio.run(_serve(bot, settings.discord_token))
    except ShardClaimed as exc:
        print(f"kapshap run: {exc}", file=sys.stderr)
        return 2
    except discord.LoginFailure:
        print("kapshap run: Discord refused the token (check DISCORD_TOKEN).", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # asyncio.run has closed the bot by now
        print("kapshap run: stopped", file=sys.stderr)
        return 130
    return exit_status("kapshap run", stop, settings.shutdown_seconds)


def configure_logging(
    settings: Settings, level: int | None = None, stream: TextIO | None = None
) -> None:
    """The log lines of ``settings`` (``KAPSHAP_LOG_LEVEL``, or ``level``, and
    ``KAPSHAP_LOG_FORMAT``) on ``stream`` (stderr), with the token and the database's password
    masked in every line (:mod:`bot.logs`)."""
    redact = Redactor(secrets_of(settings.discord_token, settings.database_url), mask_url)
    chosen = settings.log_level_number if level is None else level
    configure(chosen, settings.log_format, redact, stream)


@dataclass(slots=True)
class Stop:
    """How a process was stopped: the signal (None: it ended by itself) and what was still
    running when its time to stop ran out (empty: a clean stop)."""

    signal: int | None = None
    left: list[str] | None = None


def stopped_status(command: str, stop: Stop, limit: int) -> int:
    """The exit status of a stopped process, with its one line on stderr: 0 after SIGTERM (or
    an end of its own), 130 after Ctrl+C as a shell expects; 1 when the stop ran out of time,
    naming what was still running."""
    if stop.left:
        print(
            f"{command}: stopped after {limit} s (KAPSHAP_SHUTDOWN_SECONDS) with work still "
            f"running: {'; '.join(stop.left)}",
            file=sys.stderr,
        )
        return 1
    print(f"{command}: stopped", file=sys.stderr)
    return 130 if stop.signal == signal.SIGINT else 0


def exit_status(command: str, stop: Stop, limit: int) -> int:
    """:func:`stopped_status`; after a stop that ran out of time the process exits at once
    with it (work that outlived the bound may hold a thread, a database connection's, that
    would keep the interpreter from exiting: the bound is kept)."""
    status = stopped_status(command, stop, limit)
    if stop.left:
        logging.shutdown()
        sys.stderr.flush()
        os._exit(status)
    return status


@contextlib.contextmanager
def stop_signals(on_signal: Callable[[int], None]) -> Iterator[None]:
    """Within the block, SIGTERM and SIGINT call ``on_signal(number)`` on the running loop
    instead of killing the process (a SIGINT the shell ignores, a background job's, stays
    ignored)."""
    loop = asyncio.get_running_loop()
    installed = []
    for number in (signal.SIGTERM, signal.SIGINT):
        if signal.getsignal(number) is not signal.SIG_IGN:
            loop.add_signal_handler(number, on_signal, number)
            installed.append(number)
    try:
        yield
    finally:
        for number in installed:
            loop.remove_signal_handler(number)


async def serve_until_stopped(bot: KapBot, run: Callable[[], Awaitable[None]]) -> Stop:
    """Run ``run()`` (the bot's connection) until it ends; SIGTERM or SIGINT meanwhile stop the
    bot cleanly (:meth:`KapBot.shutdown`), which ends it."""
    stop = Stop()
    signalled = asyncio.Event()

    def on_signal(number: int) -> None:
        if stop.signal is None:
            stop.signal = number
            log.info("stopping: %s received", signal.Signals(number).name)
        bot.begin_shutdown()
        signalled.set()

    with stop_signals(on_signal):
        running = asyncio.ensure_future(run())
        waiting = asyncio.ensure_future(signalled.wait())
        try:
            await asyncio.wait({running, waiting}, return_when=asyncio.FIRST_COMPLETED)
            if stop.signal is not None:
                stop.left = await bot.shutdown()
            # Closed, the connection has ended (or ends now: one still logging in is cancelled).
            if not running.done():
                running.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await running
        finally:
            for task in (running, waiting):
                task.cancel()
    return stop


async def _serve(bot: KapBot, token: str) -> Stop:
    # discord.py's Client.run, without its silent return on Ctrl+C, stopping cleanly on SIGTERM.
    async with bot:
        return await serve_until_stopped(bot, lambda: bot.start(token))
