"""The running demo: the simulated server, the current preview session and the page that
fronts it (:class:`Demo`), with the clock driver."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

import discord
from aiohttp import ClientConnectionError, ClientConnectorError, ClientSession, web

from bot.demo.commands import CommandNames, resolve_mentions, typed_command
from bot.demo.scene import (
    BOT_NAME,
    CHANNELS,
    GUILD_ID,
    GUILD_NAME,
    MANAGERS_ROLE,
    MEMBERS,
    DemoView,
    welcome,
)
from bot.demo.web import (
    BOOT_JS,
    NAV_CSS,
    NAV_JS,
    PREFIX,
    TIME_JS,
    allowed_hosts,
    inject,
    not_found,
    refuse,
    unavailable,
)
from bot.locale import t

try:  # the demo extra; without it ``kapshap demo`` says what to install (bot.cli)
    from simcord.backend.errors import SetupError
except ImportError:  # pragma: no cover - the demo cannot run without simcord
    SetupError = RuntimeError  # type: ignore[misc,assignment]

log = logging.getLogger("kapshap.demo")

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
        self.left: list[str] = []  # what was still running when the bot's stop ran out of time
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
        app.router.add_route("*", f"{PREFIX}/{{tail:.*}}", not_found)
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
            return refuse(421, "Refused: this demo answers only at its own address (Host).")
        origin = request.headers.get("Origin")
        if origin is not None and origin.lower() not in {f"http://{h}" for h in self.allowed_hosts}:
            return refuse(403, "Refused: a request from another site (Origin).")
        site = request.headers.get("Sec-Fetch-Site")
        navigation = request.headers.get("Sec-Fetch-Mode") == "navigate"
        if site in {"cross-site", "same-site"} and not (navigation and request.method == "GET"):
            return refuse(403, "Refused: a request from another site (Sec-Fetch-Site).")
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
            return refuse(400, 'Send {"member": NAME, "place": CHANNEL or "dm"} as JSON.')
        view = DemoView.parse(f"{asked.get('member')}/{asked.get('place')}")
        if view is None or (view.channel is not None and self.place(view.channel) is None):
            return refuse(404, "No such member or channel in the demo.")
        async with self.lock:
            try:
                await self.open_view(view)
            except SetupError:  # simcord: the member may not see that channel (a thread)
                await self.open_view(self.view)
                return refuse(403, f"{view.member} cannot see that channel.")
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
                    return unavailable()
                async with self.lock:
                    pass  # let a view switch in progress finish
            except ClientConnectionError:
                return unavailable()
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
