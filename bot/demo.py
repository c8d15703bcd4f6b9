"""``kapshap demo``: the whole bot on a simulated Discord server, played in the browser.

A second composition root beside :mod:`bot.app`: the same bot (:func:`bot.app.create_bot`, every
cog, the real services, a SQLite file of its own in a temporary directory) runs against simcord's
in-memory Discord instead of discord.com, and simcord's preview draws that Discord in a browser:
messages, embeds, pictures, buttons, selects and a composer for the slash commands, each as the
chosen member sees them. No token and no network: everything stays in this process.

**The scene.** A server ("Kap Shap Club") with a few channels and members; a short welcome message
in the first channel says what to try.

**Views.** A simcord preview session shows one channel, as one of the members it lists, and only
one session may be open at a time. So the demo serves its own page at ``--host``/``--port``: it
forwards every request to the current preview session (simcord binds it to 127.0.0.1 on a port of
its own and checks the Host header, hence the rewriting), and adds a bar at the top to act as
another member or to go to another channel or to the member's direct messages with the bot (where
his hand arrives). Changing the view closes the session and opens the one asked for; the page
reloads on it.

**Who may ask.** The page holds the session's capability (simcord's key to act as the members),
so the demo answers only requests addressed to it: the Host header must name the address it
serves (a page elsewhere that points a name of its own at this machine, DNS rebinding, gets a 421)
and a request a page of another site makes (its Origin, or the browser's Sec-Fetch-Site) gets a
403. The capability is in the page itself, which another site cannot read, never in a script
another page could include; a change of view is a POST. simcord's own checks stay: the demo
forwards a request as if from the session's address only once it passed these.

**Time.** simcord's clock is virtual: it moves only when told. A driver advances it with the
wall clock (turn timers and the bot's coalesced table edits run as on Discord) and republishes
the pages when the bot changed something on its own, e.g. a computer player moved after a timer.
Browser actions and the driver take turns through one lock, because simcord runs one operation at
a time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import html
import json
import logging
import multiprocessing
import random
import re
import signal
import socket
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import discord
from aiohttp import ClientConnectionError, ClientConnectorError, ClientSession, web

from bot.app import KapBot, create_bot
from bot.config import ConfigError, Settings, load_settings
from bot.locale import LOCALES, t

try:  # the demo extra; without it ``kapshap demo`` says what to install (bot.cli)
    from simcord.backend.errors import SetupError
except ImportError:  # pragma: no cover - the demo cannot run without simcord
    SetupError = RuntimeError  # type: ignore[misc,assignment]

__all__ = ["CHANNELS", "GUILD_ID", "MEMBERS", "WELCOME", "Demo", "DemoView", "main", "welcome"]

log = logging.getLogger("kapshap.demo")

GUILD_ID = 1_300_000_000_000_000_001
GUILD_NAME = "Kap Shap Club"
BOT_NAME = "Kap Shap"
CHANNELS: tuple[str, ...] = ("kap-shap", "kap-tai-shap", "lounge")
"""The server's text channels; the first one holds the welcome message."""
MEMBERS: tuple[str, ...] = ("alice", "bob", "carol", "dave")
"""The server's members; the first one is the visitor at start and may manage the server."""
MANAGERS_ROLE = "Managers"

WELCOME = """\
**Welcome to the Kap Shap demo!** This is the real bot on a simulated Discord server, in your \
browser: nothing leaves this computer.

You are **alice** (the bar at the top switches member, channel, or opens your DMs with the bot).
1. Type `/table new` below (or pick it from the `/` menu) to open a table here.
2. Press **Add AI** to seat a computer player, then **Start**.
3. Your hand arrives by DM: open **DMs with Kap Shap** in the top bar and play with its buttons, \
or stay here and use `/draw`, `/take`, `/discard` and `/declare`.

Also try `/chips balance`, `/chips daily`, `/leaderboard`, `/hand`, `/table rules`, and \
`/kapadmin config` (alice manages the server). #kap-tai-shap is free for `/table new \
game:Kap Tai Shap` with up to 20 players: switch to bob or carol to join alice's table."""


def welcome(locale: str = "en") -> str:
    """The welcome message in ``locale`` (the demo server's language)."""
    return t(locale, WELCOME)


# Where the demo's own files are served; everything else goes to the preview session.
PREFIX = "/kapshap-demo"
HOP_BY_HOP = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-authenticate",
        "proxy-authorization",
        "te",
        "trailers",
        "transfer-encoding",
        "upgrade",
        "content-length",
        "content-encoding",
        "host",
    }
)
TICK_SECONDS = 1.0
"""How often the driver advances the virtual clock (it then follows the wall clock)."""
TICK_SETTLE_SECONDS = 0.25
"""How long a tick waits for the bot to settle (simcord's budget for an operation is 5 s)."""


@dataclass(frozen=True, slots=True)
class DemoView:
    """What the page shows: a channel, a thread or the DMs of ``member`` with the bot."""

    member: str
    channel: str | None  # a channel's name, a thread's id, or None: the member's DMs

    @property
    def key(self) -> str:
        """``alice/kap-shap`` or ``alice/dm``: the view in a URL."""
        return f"{self.member}/{self.channel or 'dm'}"

    @classmethod
    def parse(cls, key: str) -> DemoView | None:
        """The view named by ``key``, or None when it names no member or channel (a thread's
        id is checked when the view opens: threads come and go)."""
        member, _, place = key.partition("/")
        if member not in MEMBERS:
            return None
        if place == "dm":
            return cls(member, None)
        thread = place.isascii() and place.isdecimal() and len(place) <= 20
        return cls(member, place) if place in CHANNELS or thread else None


def demo_settings(base: Settings, data_dir: Path) -> Settings:
    """``base`` (the ``.env`` settings) for the demo: no token, its own database, its server."""
    return dataclasses.replace(
        base,
        discord_token=None,
        db_path=data_dir / "kapshap-demo.sqlite3",
        # No development server: the demo publishes the commands globally (build_scene), so
        # they show in the server and, for those that work there, in DMs, each listed once.
        dev_guild_id=None,
    )


class Demo:
    """The simulated server, the current preview session and the page that fronts it."""

    def __init__(self, env: Any, locale: str = "en") -> None:
        """``env`` is a started ``simcord.Env`` running the bot; ``locale`` the language of
        the server (and of its members' Discord clients)."""
        self.env = env
        self.locale = locale
        self.guild: Any = None
        self.channels: dict[str, Any] = {}
        self.members: dict[str, Any] = {}
        self.view = DemoView(MEMBERS[0], CHANNELS[0])
        self.preview: Any = None
        self.origin = ""  # the session's own address, http://127.0.0.1:PORT
        self.capability = ""  # the secret the session's page sends with each request
        # One simcord operation at a time: browser actions, view changes and the clock driver.
        self.lock = asyncio.Lock()
        self.http: ClientSession | None = None
        # The Host headers of the demo's own address (set by listen): nothing else is served.
        self.allowed_hosts: frozenset[str] = frozenset()
        # The commands in the members' language (None in English: the names as they are).
        self.command_names: CommandNames | None = None
        # simcord's list of the commands the page shows (English), the last one it fetched.
        self.catalog: dict[str, Any] = {}
        self._seen_requests = 0
        self.ticks = 0  # the clock driver's ticks so far
        self._watchers: set[asyncio.Task[None]] = set()

    @property
    def client_locale(self) -> str:
        """The members' Discord client language (``en-US``, ``zh-TW``, ``zh-CN``)."""
        return "en-US" if self.locale == "en" else self.locale

    async def build_scene(self) -> None:
        """The server, its channels and members, and the welcome message."""
        env = self.env
        # simcord names its bot "TestBot"; the backend call is internal to simcord (pinned).
        env.backend.edit_bot_profile(BOT_NAME)
        self.guild = env.create_guild(
            GUILD_NAME, id=GUILD_ID, preferred_locale=None if self.locale == "en" else self.locale
        )
        self.channels = {name: self.guild.create_text_channel(name) for name in CHANNELS}
        managers = self.guild.create_role(
            MANAGERS_ROLE, permissions=discord.Permissions(manage_guild=True)
        )
        for index, name in enumerate(MEMBERS):
            roles = [managers] if index == 0 else []
            self.members[name] = self.guild.add_member(env.create_user(name), roles=roles)
        host = self.guild.create_webhook(self.channels[CHANNELS[0]], name="Kap Shap demo")
        await host.send(welcome(self.locale), username="Kap Shap demo")
        await env.bot.tree.sync()
        await env.settle()
        if self.locale != "en":
            # The commands as synced (simcord's backend keeps the payloads, pinned like above).
            synced = [c for scope in env.backend.commands.values() for c in scope.values()]
            self.command_names = CommandNames(synced, self.client_locale)
        self._seen_requests = len(env.http_requests)

    # ----------------------------------------------------------------------------------------
    # Preview sessions

    async def open_view(self, view: DemoView) -> None:
        """Close the current session (if any) and open one on ``view``. Hold :attr:`lock`."""
        if self.preview is not None:
            await self.preview.close()
            self.preview = None
        member = self.members[view.member]
        if view.channel is None:
            channel, viewer = member.user.dm_channel, member.user
        else:
            channel, viewer = self.place(view.channel), member
            if channel is None:
                raise LookupError(view.channel)
        # One viewer: the demo's bar, not the session's own list, says who the visitor is.
        preview = await self.env.preview(
            channel, viewers=[viewer], layout="channel", locale=self.client_locale
        ).__aenter__()
        self.preview, self.view = preview, view
        self.origin = preview.url.partition("/#")[0]
        self.capability = preview.url.partition("/#")[2]
        # "End preview session" on the page closes it: the next request opens it again.
        watcher = asyncio.create_task(self._forget_when_closed(preview))
        self._watchers.add(watcher)
        watcher.add_done_callback(self._watchers.discard)

    def threads(self) -> list[Any]:
        """The threads of the server's channels (a tournament's match threads), oldest first."""
        return sorted(
            (thread for name in CHANNELS for thread in self.channels[name].threads),
            key=lambda thread: int(thread.id),
        )

    def place(self, name: str) -> Any:
        """The channel named ``name`` or the thread whose id it is (simcord handles), or None."""
        if name in self.channels:
            return self.channels[name]
        return next((t for t in self.threads() if str(t.id) == name), None)

    async def _forget_when_closed(self, preview: Any) -> None:
        await preview.wait_closed()
        if self.preview is preview:
            self.preview = None

    async def current(self) -> None:
        """Make sure a session is open (on the last view if the page ended it)."""
        if self.preview is None:
            async with self.lock:
                if self.preview is None:
                    await self.open_view(self.view)

    def mark_seen(self) -> None:
        """Remember the bot's requests so far: the pages already show their effect."""
        self._seen_requests = len(self.env.http_requests)

    async def drive_clock(self) -> None:
        """Advance the virtual clock with the wall clock; republish after the bot's own work."""
        # The virtual time the wall clock says it is: each tick catches up to it, so a tick
        # the bot held back (long work) loses no time.
        start_wall, start_virtual = time.monotonic(), self.env.now()
        while True:
            await asyncio.sleep(TICK_SECONDS)
            due = start_virtual + timedelta(seconds=time.monotonic() - start_wall)
            async with self.lock:
                try:
                    await self.tick(due)
                except Exception:
                    log.exception("the demo's clock driver")
            self.ticks += 1

    async def tick(self, due: datetime) -> None:
        """Move the virtual clock to ``due`` and republish the page if the bot did something on
        its own (a timer, a coalesced edit). Hold :attr:`lock`.

        When the bot is at long work (a review's play-outs in a worker) it does not settle:
        simcord then moves the clock only as far as the bot lets it, and this tick ends there
        after a short wait instead of holding the page's actions up (the next tick goes on)."""
        budget = self.env.settle_timeout
        self.env.settle_timeout = TICK_SETTLE_SECONDS
        try:
            behind = (due - self.env.now()).total_seconds()
            if behind > 0:
                await self.env.advance_time(behind)
            # Only when the bot did something on its own: each publication makes the page's
            # controls one revision older.
            if len(self.env.http_requests) != self._seen_requests:
                if self.preview is not None:
                    await self.preview.refresh()
                self.mark_seen()
        except TimeoutError:
            log.debug("the bot is busy; the clock waits for it")
            if len(self.env.http_requests) != self._seen_requests:
                self._publish_unsettled()
        finally:
            self.env.settle_timeout = budget

    def _publish_unsettled(self) -> None:
        """Republish the page while the bot is still at work: what it sent so far (a review's
        "Reviewing…" and its progress) shows at once, not when the work is done. simcord
        publishes only once the bot settles; its publication step is internal (pinned)."""
        preview = self.preview
        if preview is None:
            return
        self.env._begin_operation("kapshap demo: publish")
        try:
            preview._advance_presentation_time()
            for page in tuple(preview._pages.values()):
                if page.id in preview._pages:
                    preview._publish(page, reason="refresh")
            self.mark_seen()
        except Exception:  # a page closing under it: the next tick publishes again
            log.debug("could not publish the page while the bot works", exc_info=True)
        finally:
            self.env._end_operation()

    # ----------------------------------------------------------------------------------------
    # The page

    def app(self) -> web.Application:
        """The demo's web application: its own routes, then everything forwarded; every
        request first passes :meth:`refusal`."""
        app = web.Application(middlewares=[self._guard])
        app.router.add_get(f"{PREFIX}/boot.js", self.static)
        app.router.add_get(f"{PREFIX}/nav.js", self.static)
        app.router.add_get(f"{PREFIX}/nav.css", self.static)
        app.router.add_get(f"{PREFIX}/time.js", self.static)
        app.router.add_get(f"{PREFIX}/state", self.state)
        app.router.add_post(f"{PREFIX}/view", self.switch)
        app.router.add_route("*", f"{PREFIX}/{{tail:.*}}", _not_found)
        app.router.add_route("*", "/{tail:.*}", self.forward)
        return app

    async def listen(
        self, host: str, port: int, names: Sequence[str] = ()
    ) -> tuple[web.AppRunner, int]:
        """Serve :meth:`app` at ``host:port`` (``port`` 0: a free one); the runner and the port.
        The demo then answers requests for ``host`` (or, on every interface, for this
        machine's names and addresses and ``names``)."""
        runner = web.AppRunner(self.app(), access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, host, port)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        server = site._server
        if port == 0 and isinstance(server, asyncio.Server) and server.sockets:
            port = int(server.sockets[0].getsockname()[1])  # the one the OS picked
        self.allowed_hosts = allowed_hosts(host, port, names)
        return runner, port

    @web.middleware
    async def _guard(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        refused = self.refusal(request)
        return refused if refused is not None else await handler(request)

    def refusal(self, request: web.Request) -> web.Response | None:
        """The answer to a request the demo must not serve, or None to serve it.

        Host: a page of another site can point a name of its own at this machine (DNS
        rebinding); its requests then name that host. Origin and Sec-Fetch-Site: a page of
        another site can send requests here, or include a script, without reading the answer."""
        host = request.headers.get("Host", "").lower()
        if host not in self.allowed_hosts:
            return _refuse(421, "Refused: this demo answers only at its own address (Host).")
        origin = request.headers.get("Origin")
        if origin is not None and origin.lower() not in {f"http://{h}" for h in self.allowed_hosts}:
            return _refuse(403, "Refused: a request from another site (Origin).")
        site = request.headers.get("Sec-Fetch-Site")
        navigation = request.headers.get("Sec-Fetch-Mode") == "navigate"
        if site in {"cross-site", "same-site"} and not (navigation and request.method == "GET"):
            return _refuse(403, "Refused: a request from another site (Sec-Fetch-Site).")
        return None

    async def static(self, request: web.Request) -> web.Response:
        """The demo's scripts and styles: ``boot.js``, ``nav.js``, ``time.js`` and ``nav.css``."""
        name = request.path.removeprefix(f"{PREFIX}/")
        text = {"boot.js": BOOT_JS, "nav.js": NAV_JS, "time.js": TIME_JS}.get(name)
        if text is not None:
            return web.Response(
                text=text,
                content_type="application/javascript",
                headers={"Cache-Control": "no-store"},
            )
        return web.Response(text=NAV_CSS, content_type="text/css")

    async def state(self, request: web.Request) -> web.Response:
        """What the bar shows: the members, the channels and the current view."""
        return web.json_response(
            {
                "server": GUILD_NAME,
                "members": list(MEMBERS),
                "channels": list(CHANNELS),
                "threads": [{"id": str(t.id), "name": t.name} for t in self.threads()],
                "member": self.view.member,
                "channel": self.view.channel,
                # For time.js: the members' client language and the virtual clock (ms).
                "locale": self.client_locale,
                "now": self.env.now().timestamp() * 1000,
                # The bar's own words, in the demo's language.
                "labels": {
                    "title": t(self.locale, "Kap Shap demo"),
                    "you": t(self.locale, "You are"),
                    "dms": t(self.locale, "DMs with Kap Shap"),
                },
            },
            headers={"Cache-Control": "no-store"},
        )

    async def switch(self, request: web.Request) -> web.Response:
        """``POST {"member": …, "place": …}``: open that view (the page then reloads on it)."""
        try:
            asked = await request.json()
        except ValueError:
            asked = None
        if not isinstance(asked, dict):
            return _refuse(400, 'Send {"member": NAME, "place": CHANNEL or "dm"} as JSON.')
        view = DemoView.parse(f"{asked.get('member')}/{asked.get('place')}")
        if view is None or (view.channel is not None and self.place(view.channel) is None):
            return _refuse(404, "No such member or channel in the demo.")
        async with self.lock:
            try:
                await self.open_view(view)
            except SetupError:  # simcord: the member may not see that channel (a thread)
                await self.open_view(self.view)
                return _refuse(403, f"{view.member} cannot see that channel.")
        return web.json_response({"view": view.key}, headers={"Cache-Control": "no-store"})

    async def forward(self, request: web.Request) -> web.StreamResponse:
        """Forward a request to the preview session as if it came from its own address."""
        body = await request.read()
        # A page's GET may reach the session a view switch is closing (GETs do not wait for
        # the lock): its port then refuses. Ask the session that replaced it; the page, which
        # polls, only sees a 503 if that fails too.
        for attempt in range(2):
            try:
                status, out_headers, payload, capability = await self._forward_once(request, body)
                break
            except ClientConnectorError:
                # Nothing reached the session: asking again cannot play an action twice.
                if attempt:
                    return _unavailable()
                async with self.lock:
                    pass  # let a view switch in progress finish
            except ClientConnectionError:
                return _unavailable()
        if request.path == "/" and status == 200:
            payload = inject(payload.decode("utf-8"), capability).encode("utf-8")
        return web.Response(body=payload, status=status, headers=out_headers)

    def _action_body(self, body: bytes) -> bytes:
        """A page action as simcord and the bot expect it: a command typed as a message
        (``/table new game:Kap Tai Shap``) becomes that command, as Discord's composer does;
        option names the member's client showed in his language are English again."""
        try:
            action = json.loads(body)
        except ValueError:
            return body  # not JSON (an upload): simcord answers it
        if not isinstance(action, dict):
            return body
        if action.get("kind") == "send_message" and isinstance(action.get("content"), str):
            command = typed_command(action["content"], self.catalog, self.command_names)
            if command is not None:
                kept = {k: v for k, v in action.items() if k not in {"content", "reply_to_id"}}
                action = {**kept, "kind": "run_command", **command}
        if self.command_names is not None:
            action = self.command_names.action(action)
        return json.dumps(action).encode()

    def _answer(self, path: str, payload: bytes) -> bytes:
        """An answer of the preview's API as the members' Discord client would show it: the
        commands in its language, the mentions as names."""
        if not path.startswith("/api/") or path.startswith("/api/assets/"):
            return payload
        try:
            value = json.loads(payload)
        except ValueError:
            return payload
        names = self.command_names
        if path == "/api/commands":
            self.catalog = value if isinstance(value, dict) else {}
            if names is not None and isinstance(value, dict):
                value = names.catalog(json.loads(payload))  # a copy: the catalog stays English
        else:
            value = resolve_mentions(value, self.mentioned)
        if names is not None:
            value = names.answer(value)
        return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()

    def mentioned(self, kind: str, ident: int) -> str | None:
        """How a member's client shows a mention: ``@name`` (a member, a user or a role) or
        ``#name`` (a channel or thread), or None for one the server does not know."""
        bot = self.env.bot
        guild = bot.get_guild(GUILD_ID)
        if guild is None:
            return None
        if kind == "user":
            # The bot caches only the members it met (no members intent): the demo knows all.
            people = {handle.id: name for name, handle in self.members.items()}
            if bot.user is not None:
                people[bot.user.id] = BOT_NAME
            name = people.get(ident)
            return None if name is None else f"@{name}"
        if kind == "role":
            role = guild.get_role(ident)
            return None if role is None else f"@{role.name}"
        place = guild.get_channel_or_thread(ident)
        return None if place is None else f"#{place.name}"

    async def _forward_once(
        self, request: web.Request, body: bytes
    ) -> tuple[int, dict[str, str], bytes, str]:
        """One forwarding of ``request`` to the current session: status, headers, body and
        the capability of the session that answered."""
        await self.current()
        origin = self.origin  # http://127.0.0.1:PORT, the only origin the session accepts
        capability = self.capability
        headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP_BY_HOP}
        if "Origin" in headers:
            headers["Origin"] = origin
        headers.pop("Referer", None)
        if request.path == "/api/action" and body:
            body = self._action_body(body)
        assert self.http is not None
        # An action runs the bot: it must not overlap the clock driver (one simcord operation).
        guard = self.lock if request.method != "GET" else contextlib.nullcontext()
        async with guard:
            async with self.http.request(
                request.method,
                origin + request.path_qs,
                headers={**headers, "Host": origin.removeprefix("http://")},
                data=body or None,
                allow_redirects=False,
            ) as upstream:
                payload = await upstream.read()
                out_headers = {
                    k: v for k, v in upstream.headers.items() if k.lower() not in HOP_BY_HOP
                }
                status = upstream.status
            if status == 200:
                payload = self._answer(request.path, payload)
            if request.method != "GET":
                self.mark_seen()  # the action's own publication shows what it changed
        return status, out_headers, payload, capability


@dataclass(frozen=True, slots=True)
class LocalizedOption:
    """An option of a command as a client in the demo's language shows it."""

    name: str
    description: str
    choices: dict[str, str]  # the English choice name -> the localized one


@dataclass(frozen=True, slots=True)
class LocalizedCommand:
    """A command (a leaf: ``table new``) as a client in the demo's language shows it."""

    invocation: str
    description: str
    options: dict[str, LocalizedOption]  # by English name

    def english(self, name: str) -> str:
        """The English name of the option a client names ``name`` (or ``name`` itself)."""
        return next((key for key, o in self.options.items() if o.name == name), name)


class CommandNames:
    """The slash commands in the language of the members' Discord client.

    The bot publishes every command with ``name_localizations`` and
    ``description_localizations`` (its app_commands Translator), and Discord shows a client the
    names of its language, then sends the English ones with the interaction. simcord's preview
    lists only the English ``name``: the demo puts the localized names in the list it forwards
    to the page and turns the option names the page sends back into English, where the bot and
    simcord expect them. Command ids, paths and choice values stay as they are."""

    def __init__(self, commands: Sequence[dict[str, Any]], locale: str) -> None:
        """``commands``: the command payloads as synced (simcord's backend keeps them)."""
        self.locale = locale
        self.leaves: dict[tuple[str, tuple[str, ...]], LocalizedCommand] = {}
        for command in commands:
            if command.get("type", 1) == 1 and "id" in command:
                self._walk(str(command["id"]), command, (), ())

    def _name(self, item: dict[str, Any]) -> str:
        return str((item.get("name_localizations") or {}).get(self.locale) or item["name"])

    def _walk(
        self, command_id: str, item: dict[str, Any], path: tuple[str, ...], shown: tuple[str, ...]
    ) -> None:
        path, shown = (*path, str(item["name"])), (*shown, self._name(item))
        options = item.get("options") or []
        groups = [o for o in options if o.get("type") in (1, 2)]  # subcommands and groups
        for group in groups:
            self._walk(command_id, group, path, shown)
        if groups:
            return
        localized: dict[str, LocalizedOption] = {}
        for option in options:
            localized[str(option["name"])] = LocalizedOption(
                self._name(option),
                str(
                    (option.get("description_localizations") or {}).get(self.locale)
                    or option.get("description", "")
                ),
                {str(c["name"]): self._name(c) for c in option.get("choices") or []},
            )
        # Two options a client would name alike keep their English names (never ambiguous).
        names = [o.name for o in localized.values()]
        for key, option in localized.items():
            if names.count(option.name) > 1:
                localized[key] = dataclasses.replace(option, name=key)
        self.leaves[(command_id, path)] = LocalizedCommand(
            " ".join(shown),
            str(
                (item.get("description_localizations") or {}).get(self.locale)
                or item.get("description", "")
            ),
            localized,
        )

    def _leaf(self, command_id: Any, path: Any) -> LocalizedCommand | None:
        if not isinstance(path, list):
            return None
        return self.leaves.get((str(command_id), tuple(str(part) for part in path)))

    def catalog(self, catalog: dict[str, Any]) -> dict[str, Any]:
        """simcord's command list for the page, in the client's language."""
        for entry in catalog.get("entries") or []:
            leaf = self._leaf(entry.get("commandId"), entry.get("path"))
            if leaf is None:
                continue
            entry["invocation"], entry["description"] = leaf.invocation, leaf.description
            for option in entry.get("options") or []:
                shown = leaf.options.get(option.get("name"))
                if shown is None:
                    continue
                option["name"], option["description"] = shown.name, shown.description
                for choice in option.get("choices") or []:
                    choice["name"] = shown.choices.get(choice.get("name"), choice.get("name"))
        return catalog

    def action(self, body: dict[str, Any]) -> dict[str, Any]:
        """A page action, with the option names the bot knows (English)."""
        leaf = self._leaf(body.get("command_id"), body.get("path"))
        if leaf is not None:
            if isinstance(body.get("options"), dict):
                body["options"] = {leaf.english(k): v for k, v in body["options"].items()}
            if isinstance(body.get("focused"), str):
                body["focused"] = leaf.english(body["focused"])
        if isinstance(body.get("control_key"), str):
            body["control_key"] = self._control_key(body["control_key"], english=True)
        return body

    def answer(self, value: Any) -> Any:
        """An answer for the page, its pickers' keys (``command:ID:PATH:option:NAME``) in the
        client's language."""
        if isinstance(value, dict):
            return {self.answer(k): self.answer(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.answer(v) for v in value]
        if isinstance(value, str) and value.startswith("command:"):
            return self._control_key(value, english=False)
        return value

    def _control_key(self, key: str, *, english: bool) -> str:
        head, marker, name = key.partition(":option:")
        _, command_id, path = [*head.split(":", 2), "", ""][:3]
        leaf = self._leaf(command_id, path.split("."))
        if not marker or leaf is None:
            return key
        if english:
            return f"{head}{marker}{leaf.english(name)}"
        shown = leaf.options.get(name)
        return f"{head}{marker}{shown.name if shown else name}"


def typed_command(
    content: str, catalog: dict[str, Any], names: CommandNames | None
) -> dict[str, Any] | None:
    """The command a message typed as ``/table new game:Kap Tai Shap`` names, as the page's
    composer would send it (``command_id``, ``path``, ``schema_fingerprint``, ``options``), or
    None when it names no command of ``catalog`` (simcord's list, English) with valid options.

    Discord's composer turns such a line into the command; simcord's sends it as a chat
    message, which the bot never sees. Names and choices may be English or, in a Chinese
    demo, those the member's client shows."""
    text = content.strip()
    if not text.startswith("/"):
        return None
    text = " ".join(text[1:].split())
    best: tuple[int, dict[str, Any], LocalizedCommand | None, str] | None = None
    for entry in catalog.get("entries") or []:
        leaf = (
            None
            if names is None
            else names.leaves.get((str(entry.get("commandId")), tuple(entry.get("path") or ())))
        )
        for said in {str(entry.get("invocation", "")), leaf.invocation if leaf else ""} - {""}:
            if (text == said or text.startswith(said + " ")) and (
                best is None or len(said) > best[0]
            ):
                best = (len(said), entry, leaf, text[len(said) :].strip())
    if best is None:
        return None
    _, entry, leaf, rest = best
    options = {str(o["name"]): o for o in entry.get("options") or []}
    spoken = {name: name for name in options}
    if leaf is not None:
        spoken |= {leaf.options[n].name: n for n in options if n in leaf.options}
    # name:value pairs; a value runs to the next known name followed by a colon.
    known = "|".join(re.escape(name) for name in sorted(spoken, key=len, reverse=True))
    parts = re.split(rf"(?:^|\s)({known}):", rest) if known else [rest]
    if parts[0].strip():
        return None  # words that are no option
    given: dict[str, Any] = {}
    for name, raw in zip(parts[1::2], parts[2::2], strict=True):
        english = spoken[name]
        value = _option_value(options[english], raw.strip(), leaf, english)
        if value is None or english in given:
            return None
        given[english] = value
    if any(o.get("required") and n not in given for n, o in options.items()):
        return None
    return {
        "command_id": entry["commandId"],
        "path": list(entry["path"]),
        "schema_fingerprint": entry["schemaFingerprint"],
        "options": given,
    }


def _option_value(
    option: dict[str, Any], raw: str, leaf: LocalizedCommand | None, english: str
) -> Any:
    """What the composer sends for ``raw`` typed as ``option``'s value, or None if invalid."""
    if not raw:
        return None
    choices = option.get("choices") or []
    if choices:
        # A choice by its value or name (as shown to the member, or English), or by the start
        # of one name: "Kap Tai Shap" for "Kap Tai Shap (2-20 players)".
        shown = leaf.options[english].choices if leaf and english in leaf.options else {}

        def words(choice: dict[str, Any]) -> set[str]:
            said = {str(choice["name"]), shown.get(str(choice["name"]), ""), str(choice["value"])}
            return {_plain(word) for word in said if word}

        exact = [c["value"] for c in choices if _plain(raw) in words(c)]
        begun = [c["value"] for c in choices if any(w.startswith(_plain(raw)) for w in words(c))]
        return exact[0] if exact else begun[0] if len(begun) == 1 else None
    kind = option.get("type")
    if kind in ("integer", "number"):
        return raw if re.fullmatch(r"-?[0-9]+(\.[0-9]+)?", raw) else None
    if kind == "boolean":
        return {"true": True, "false": False}.get(raw.casefold())
    if kind in ("user", "channel", "role", "mentionable"):
        found = re.fullmatch(r"<[@#]?[!&]?([0-9]+)>|([0-9]+)", raw)
        return (found[1] or found[2]) if found else None
    return raw if kind == "string" else None


def _plain(word: str) -> str:
    """``word`` for comparing what a member typed: case, dashes and spacing aside."""
    return " ".join(word.casefold().replace("-", " ").split())


def inject(index_html: str, capability: str) -> str:
    """The preview's page with its session's capability, the demo's address fix-up, styles
    and bar. The capability is in the page, which only the demo's own address can read."""
    tags = (
        f'<meta name="kapshap-demo-session" content="{html.escape(capability)}">\n'
        f'    <script src="{PREFIX}/boot.js"></script>\n'
        f'    <link rel="stylesheet" href="{PREFIX}/nav.css">\n'
        f'    <script src="{PREFIX}/nav.js" defer></script>\n'
        f'    <script src="{PREFIX}/time.js" defer></script>\n'
    )
    return index_html.replace("</head>", f"    {tags}  </head>", 1)


@contextlib.asynccontextmanager
async def running_demo(
    settings: Settings, seed: int | None = None, locale: str = "en"
) -> AsyncIterator[Demo]:
    """The bot on simcord with the scene built and the first view open; ``seed`` fixes the
    deals (and so the computer players' choices); ``locale`` is the language of the server and
    of every member's client (``zh-TW``: the whole demo in Traditional Chinese)."""
    import simcord

    bot: KapBot = create_bot(settings, rng=None if seed is None else random.Random(seed))
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
                # Before simcord's shutdown, which does not close the bot: the cogs unload and
                # the database closes (its worker thread would keep the process alive).
                await bot.close()
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
) -> int | None:
    """Run the demo at ``http://host:port/`` until Ctrl+C or SIGTERM; ``names`` are further
    host names it answers to (with ``host`` 0.0.0.0). Returns the signal that stopped it."""
    stop = asyncio.Event()
    stopped_by: list[int] = []
    loop = asyncio.get_running_loop()

    def stopping(number: int) -> None:
        stopped_by.append(number)
        stop.set()

    for number in (signal.SIGINT, signal.SIGTERM):
        # Both end the demo the same clean way (the bot and its database close). A SIGINT the
        # shell ignores (a background job, nohup) stays ignored: SIGTERM still works.
        if signal.getsignal(number) is not signal.SIG_IGN:
            loop.add_signal_handler(number, stopping, number)
    try:
        async with running_demo(settings, seed, locale) as demo:
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
            sys.stdout.flush()
            try:
                await stop.wait()
            finally:
                await runner.cleanup()
    finally:
        for number in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(number)
    return stopped_by[0] if stopped_by else None


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
    logging.basicConfig(
        level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
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
            stopped_by = asyncio.run(
                serve(
                    demo_settings(base, data_dir),
                    args.host,
                    port,
                    args.seed,
                    args.lang,
                    args.allow_host,
                )
            )
        except KeyboardInterrupt:
            print("kapshap demo: stopped", file=sys.stderr)
            return 130  # what a shell expects after Ctrl+C (bot.cli adds no line of its own)
        except OSError as exc:
            print(f"kapshap demo: cannot listen on {args.host}:{port}: {exc}", file=sys.stderr)
            return 2
        print("kapshap demo: stopped", file=sys.stderr)
    # Ctrl+C ends every kapshap command with 130, as a shell expects; SIGTERM is a normal stop.
    return 130 if stopped_by == signal.SIGINT else 0


MENTION = re.compile(r"<(@[!&]?|#)([0-9]{1,20})>")
"""A user (``<@id>``, ``<@!id>``), role (``<@&id>``) or channel (``<#id>``) mention."""
MENTIONING_TOKENS = frozenset(
    {"content_tokens", "description_tokens", "value_tokens", "markdown_tokens"}
)
"""The fields of simcord's page where Discord shows a mention as a name: a message's content,
an embed's description and field values, a text display. Not titles, field names, footers or
author names, where Discord shows the raw ``<@id>`` as simcord does."""


def resolve_mentions(value: Any, name_of: Callable[[str, int], str | None]) -> Any:
    """simcord's page (``value``, its JSON) with every mention a member's Discord client would
    show as a name made a mention token, as simcord does in a message's content for the users
    the message's own context knows (not in embeds, nor a server's members and channels in a
    DM). ``name_of(kind, id)``: ``@name`` or ``#name``, or None for one the demo does not
    know (it stays as written)."""
    if isinstance(value, list):
        return [resolve_mentions(item, name_of) for item in value]
    if not isinstance(value, dict):
        return value
    return {
        key: _mention_tokens(item, name_of)
        if key in MENTIONING_TOKENS
        else resolve_mentions(item, name_of)
        for key, item in value.items()
    }


def _mention_tokens(tokens: Any, name_of: Callable[[str, int], str | None]) -> Any:
    """A token list (a paragraph's, recursively) with its text's mentions as mention tokens."""
    if not isinstance(tokens, list):
        return tokens
    out: list[Any] = []
    for token in tokens:
        if not isinstance(token, dict):
            out.append(token)
        elif token.get("type") == "text" and isinstance(token.get("content"), str):
            text, at = token["content"], 0
            for found in MENTION.finditer(text):
                kind = {"#": "channel", "@&": "role"}.get(found[1], "user")
                label = name_of(kind, int(found[2]))
                if label is None:
                    continue
                if found.start() > at:
                    out.append({"type": "text", "content": text[at : found.start()]})
                out.append({"type": "mention", "kind": kind, "id": found[2], "label": label})
                at = found.end()
            if at < len(text):
                out.append({"type": "text", "content": text[at:]})
        else:
            out.append(
                {k: _mention_tokens(v, name_of) if k == "children" else v for k, v in token.items()}
            )
    return out


def _unavailable() -> web.Response:
    """The answer when the preview session cannot be reached (the page polls, then recovers)."""
    return web.Response(status=503, text="The demo is changing its view: reload the page.")


EVERYWHERE = frozenset({"0.0.0.0", "::", ""})
"""``--host`` values that listen on every network interface."""


def allowed_hosts(host: str, port: int, names: Sequence[str] = ()) -> frozenset[str]:
    """The Host headers a browser sends to the demo at ``host:port``, lower case.

    ``host`` itself (``localhost`` and ``127.0.0.1`` alike on the loopback address); on every
    interface (0.0.0.0, ::) the loopback names and this machine's name and addresses; and
    each of ``names``. Port 80 also without the port, which browsers leave out."""
    loopback = {"127.0.0.1", "localhost"}
    hosts = {host.lower()} | {name.lower() for name in names if name}
    if host in loopback:
        hosts |= loopback
    elif host == "::1":
        hosts |= {"localhost"}
    elif host in EVERYWHERE:
        hosts.discard(host)
        hosts |= loopback | {"::1"} | _machine_names()
    bracketed = {f"[{name}]" if ":" in name else name for name in hosts}
    with_port = {f"{name}:{port}" for name in bracketed}
    return frozenset(with_port | bracketed if port == 80 else with_port)


def _machine_names() -> set[str]:
    """This machine's name, its fully qualified name and the addresses they resolve to."""
    names = {socket.gethostname(), socket.getfqdn()}
    for name in tuple(names):
        with contextlib.suppress(OSError):
            for *_, address in socket.getaddrinfo(name, None):
                names.add(str(address[0]).split("%")[0])
    return {name.lower() for name in names if name}


def _refuse(status: int, reason: str) -> web.Response:
    """A plain refusal: the status and one line that says why."""
    return web.Response(status=status, text=reason + "\n", headers={"Cache-Control": "no-store"})


async def _not_found(request: web.Request) -> web.Response:
    """Anything else under the demo's own prefix (a GET never changes the view)."""
    return _refuse(404, "Not found.")


# Before the preview's own scripts (modules, which run later): put the session's capability,
# from the page's <meta>, in the address, where the preview reads it.
BOOT_JS = """\
"use strict";
(() => {
  const meta = document.querySelector('meta[name="kapshap-demo-session"]');
  const wanted = meta ? `#${meta.content}` : location.hash;
  if (location.hash !== wanted) history.replaceState(null, "", `/${wanted}`);
})();
"""


# The bar above the preview. Plain DOM, no inline script or style: the preview's page allows
# only scripts and styles from its own address (Content-Security-Policy).
NAV_JS = """\
"use strict";
(async () => {
  const state = await (await fetch("@PREFIX@/state", { cache: "no-store" })).json();
  const bar = document.createElement("nav");
  bar.id = "kapshap-demo-bar";
  bar.setAttribute("aria-label", "Kap Shap demo");
  // A change of view is a POST (the demo refuses one from another site); then the page
  // reloads on the new session.
  const go = async (member, place) => {
    const answer = await fetch("@PREFIX@/view", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ member, place }),
    });
    if (answer.ok) location.replace("/");
  };
  const title = document.createElement("strong");
  title.textContent = `${state.labels.title} \u00b7 ${state.server}`;
  bar.append(title);
  const who = document.createElement("label");
  who.textContent = `${state.labels.you} `;
  const picker = document.createElement("select");
  picker.id = "kapshap-demo-member";
  for (const name of state.members) {
    const option = document.createElement("option");
    option.value = option.textContent = name;
    option.selected = name === state.member;
    picker.append(option);
  }
  picker.addEventListener("change", () => go(picker.value, state.channel || "dm"));
  who.append(picker);
  bar.append(who);
  const places = document.createElement("span");
  places.className = "kapshap-demo-places";
  const link = (text, place, current) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = text;
    button.dataset.place = place;
    if (current) button.setAttribute("aria-current", "page");
    button.addEventListener("click", () => go(state.member, place));
    places.append(button);
  };
  const draw = (threads) => {
    places.replaceChildren();
    for (const channel of state.channels) link(`#${channel}`, channel, channel === state.channel);
    // A tournament's match threads, where its tables are.
    for (const thread of threads) {
      link(`🧵 ${thread.name}`, thread.id, thread.id === state.channel);
    }
    link(state.labels.dms, "dm", state.channel === null);
  };
  draw(state.threads);
  bar.append(places);
  document.body.prepend(bar);
  // Threads open as the bot plays (a tournament's rounds): look for new ones now and then.
  let known = JSON.stringify(state.threads);
  setInterval(async () => {
    const fresh = await (await fetch("@PREFIX@/state", { cache: "no-store" })).json();
    if (JSON.stringify(fresh.threads) !== known) {
      known = JSON.stringify(fresh.threads);
      draw(fresh.threads);
    }
  }, 3000);
})();
""".replace("@PREFIX@", PREFIX)

# Discord's timestamps as the member's client shows them. simcord's preview writes each
# <t:UNIX:STYLE> once, as a <time datetime=…>, in the page's locale and relative to the moment
# it published the page: a countdown then stands still, and two pages published at different
# moments disagree. This script finds each one's style (the text simcord wrote for it) and
# writes it again every second: relative ones (R) from the demo's virtual clock, absolute ones
# in the member's language (zh-CN dates as 2026-01-01).
TIME_JS = """\
"use strict";
(async () => {
  const state = await (await fetch("@PREFIX@/state", { cache: "no-store" })).json();
  const locale = state.locale;
  let offset = state.now - Date.now();  // the virtual clock, ahead of (or behind) this one
  // simcord's formats of the absolute styles (preview/static/text.js), in UTC as its page.
  const FORMATS = {
    t: { hour: "numeric", minute: "2-digit" },
    T: { hour: "numeric", minute: "2-digit", second: "2-digit" },
    d: { year: "numeric", month: "2-digit", day: "2-digit" },
    D: { year: "numeric", month: "long", day: "numeric" },
    f: { year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit" },
    F: {
      weekday: "long", year: "numeric", month: "long", day: "numeric",
      hour: "numeric", minute: "2-digit",
    },
  };
  const format = (date, style) =>
    new Intl.DateTimeFormat(locale, { timeZone: "UTC", ...FORMATS[style] }).format(date);
  const absolute = (date, style) => {
    if (style === "d" && locale === "zh-CN") {
      const part = Object.fromEntries(
        new Intl.DateTimeFormat(locale, { timeZone: "UTC", ...FORMATS.d })
          .formatToParts(date).map(({ type, value }) => [type, value]));
      return `${part.year}-${part.month}-${part.day}`;
    }
    return format(date, style);
  };
  const relative = (date, now) => {
    const seconds = (date.getTime() - now) / 1000;
    const size = Math.abs(seconds);
    const [unit, amount] = size < 60 ? ["second", seconds]
      : size < 3600 ? ["minute", seconds / 60]
        : size < 86400 ? ["hour", seconds / 3600]
          : size < 2592000 ? ["day", seconds / 86400]
            : size < 31536000 ? ["month", seconds / 2592000] : ["year", seconds / 31536000];
    const rounded = Math.round(amount);
    const text = new Intl.RelativeTimeFormat(locale, { numeric: rounded ? "always" : "auto" })
      .format(rounded, unit);
    // "2 分钟后" as "2 分鐘後": a space between the number and the unit in Chinese.
    return locale.startsWith("zh") ? text.replace(/([0-9])(?=[^0-9 ,.])/u, "$1 ") : text;
  };
  const styleOf = (time) => {
    if (!time.dataset.kapshapStyle) {
      const date = new Date(time.dateTime);
      time.dataset.kapshapStyle =
        Object.keys(FORMATS).find((style) => format(date, style) === time.textContent) || "R";
    }
    return time.dataset.kapshapStyle;
  };
  const render = (now = Date.now() + offset) => {
    for (const time of document.querySelectorAll("time.discord-timestamp[datetime]")) {
      const date = new Date(time.dateTime);
      if (!Number.isFinite(date.getTime())) continue;
      const style = styleOf(time);
      const text = style === "R" ? relative(date, now) : absolute(date, style);
      if (time.textContent !== text) time.textContent = text;
    }
  };
  window.kapshapDemoTime = { render, now: () => Date.now() + offset };
  render();
  // At once on each new publication (before it shows simcord's frozen text), then each second.
  new MutationObserver(() => render()).observe(document.body, { childList: true, subtree: true });
  setInterval(render, 1000);
  setInterval(async () => {
    const fresh = await (await fetch("@PREFIX@/state", { cache: "no-store" })).json();
    offset = fresh.now - Date.now();
  }, 30000);
})();
""".replace("@PREFIX@", PREFIX)

NAV_CSS = """\
#kapshap-demo-bar {
  flex: 0 0 auto; display: flex; flex-wrap: wrap; align-items: center; gap: 6px 16px;
  padding: 6px 12px; background: #1e1f22; color: #dbdee1; border-bottom: 1px solid #ffffff14;
  font-size: 14px; line-height: 20px;
}
#kapshap-demo-bar strong { color: #f2f3f5; }
#kapshap-demo-bar select {
  background: #383a40; color: #f2f3f5; border: 0; border-radius: 4px; padding: 2px 6px;
}
#kapshap-demo-bar .kapshap-demo-places { display: flex; flex-wrap: wrap; gap: 4px; }
#kapshap-demo-bar .kapshap-demo-places button {
  color: #b5bac1; background: none; border: 0; font: inherit; cursor: pointer;
  padding: 2px 8px; border-radius: 4px;
}
#kapshap-demo-bar .kapshap-demo-places button:hover { background: #35373c; color: #f2f3f5; }
#kapshap-demo-bar .kapshap-demo-places button[aria-current="page"] {
  background: #404249; color: #ffffff;
}
/* The session lists one viewer: the bar above is where the visitor changes member. */
.viewer-control { display: none !important; }
"""
