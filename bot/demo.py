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
import json
import logging
import random
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
from aiohttp import ClientConnectionError, ClientConnectorError, ClientSession, web

from bot.app import KapBot, create_bot
from bot.config import ConfigError, Settings, load_settings
from bot.locale import LOCALES, t

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


@dataclass(frozen=True, slots=True)
class DemoView:
    """What the page shows: a channel (``dm`` False) or the DMs of ``member`` with the bot."""

    member: str
    channel: str | None  # None: the member's direct messages with the bot

    @property
    def key(self) -> str:
        """``alice/kap-shap`` or ``alice/dm``: the view in a URL."""
        return f"{self.member}/{self.channel or 'dm'}"

    @classmethod
    def parse(cls, key: str) -> DemoView | None:
        """The view named by ``key``, or None when it names no member or channel."""
        member, _, place = key.partition("/")
        if member not in MEMBERS:
            return None
        if place == "dm":
            return cls(member, None)
        return cls(member, place) if place in CHANNELS else None


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
        self._seen_requests = 0
        self._watchers: set[asyncio.Task[None]] = set()

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
            channel, viewer = self.channels[view.channel], member
        # One viewer: the demo's bar, not the session's own list, says who the visitor is.
        preview = await self.env.preview(channel, viewers=[viewer], layout="channel").__aenter__()
        self.preview, self.view = preview, view
        self.origin = preview.url.partition("/#")[0]
        self.capability = preview.url.partition("/#")[2]
        # "End preview session" on the page closes it: the next request opens it again.
        watcher = asyncio.create_task(self._forget_when_closed(preview))
        self._watchers.add(watcher)
        watcher.add_done_callback(self._watchers.discard)

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
        last = time.monotonic()
        while True:
            await asyncio.sleep(TICK_SECONDS)
            now = time.monotonic()
            async with self.lock:
                try:
                    await self.env.advance_time(now - last)
                    # Only when the bot did something on its own (a timer, a coalesced edit):
                    # each publication makes the page's controls one revision older.
                    if len(self.env.http_requests) != self._seen_requests:
                        self.mark_seen()
                        if self.preview is not None:
                            await self.preview.refresh()
                except Exception:
                    log.exception("the demo's clock driver")
            last = now

    # ----------------------------------------------------------------------------------------
    # The page

    def app(self) -> web.Application:
        """The demo's web application: its own routes, then everything forwarded."""
        app = web.Application()
        app.router.add_get(f"{PREFIX}/boot.js", self.boot_js)
        app.router.add_get(f"{PREFIX}/nav.js", self.static)
        app.router.add_get(f"{PREFIX}/nav.css", self.static)
        app.router.add_get(f"{PREFIX}/state", self.state)
        app.router.add_get(f"{PREFIX}/view/{{member}}/{{place}}", self.switch)
        app.router.add_route("*", "/{tail:.*}", self.forward)
        return app

    async def boot_js(self, request: web.Request) -> web.Response:
        """Put the current session's capability in the address before the preview reads it."""
        await self.current()
        script = (
            f"if (location.hash !== {json.dumps('#' + self.capability)}) "
            f"history.replaceState(null, '', {json.dumps('/#' + self.capability)});\n"
        )
        return web.Response(
            text=script,
            content_type="application/javascript",
            headers={"Cache-Control": "no-store"},
        )

    async def static(self, request: web.Request) -> web.Response:
        """The bar: ``nav.js`` and ``nav.css``."""
        if request.path.endswith(".js"):
            return web.Response(text=NAV_JS, content_type="application/javascript")
        return web.Response(text=NAV_CSS, content_type="text/css")

    async def state(self, request: web.Request) -> web.Response:
        """What the bar shows: the members, the channels and the current view."""
        return web.json_response(
            {
                "server": GUILD_NAME,
                "members": list(MEMBERS),
                "channels": list(CHANNELS),
                "member": self.view.member,
                "channel": self.view.channel,
                # The bar's own words, in the demo's language.
                "labels": {
                    "title": t(self.locale, "Kap Shap demo"),
                    "you": t(self.locale, "You are"),
                    "dms": t(self.locale, "DMs with Kap Shap"),
                },
            },
            headers={"Cache-Control": "no-store"},
        )

    async def switch(self, request: web.Request) -> web.StreamResponse:
        """Open another view, then reload the page on it."""
        view = DemoView.parse(f"{request.match_info['member']}/{request.match_info['place']}")
        if view is None:
            raise web.HTTPNotFound(text="No such member or channel in the demo.")
        async with self.lock:
            await self.open_view(view)
        raise web.HTTPSeeOther("/")

    async def forward(self, request: web.Request) -> web.StreamResponse:
        """Forward a request to the preview session as if it came from its own address."""
        body = await request.read()
        # A page's GET may reach the session a view switch is closing (GETs do not wait for
        # the lock): its port then refuses. Ask the session that replaced it; the page, which
        # polls, only sees a 503 if that fails too.
        for attempt in range(2):
            try:
                status, out_headers, payload = await self._forward_once(request, body)
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
            payload = inject(payload.decode("utf-8")).encode("utf-8")
        return web.Response(body=payload, status=status, headers=out_headers)

    async def _forward_once(
        self, request: web.Request, body: bytes
    ) -> tuple[int, dict[str, str], bytes]:
        """One forwarding of ``request`` to the current session: status, headers, body."""
        await self.current()
        origin = self.origin  # http://127.0.0.1:PORT, the only origin the session accepts
        headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP_BY_HOP}
        if "Origin" in headers:
            headers["Origin"] = origin
        headers.pop("Referer", None)
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
            if request.method != "GET":
                self.mark_seen()  # the action's own publication shows what it changed
        return status, out_headers, payload


def inject(index_html: str) -> str:
    """The preview's page with the demo's address fix-up, styles and bar."""
    tags = (
        f'<script src="{PREFIX}/boot.js"></script>\n'
        f'    <link rel="stylesheet" href="{PREFIX}/nav.css">\n'
        f'    <script src="{PREFIX}/nav.js" defer></script>\n'
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
    settings: Settings, host: str, port: int, seed: int | None = None, locale: str = "en"
) -> None:
    """Run the demo at ``http://host:port/`` until interrupted."""
    async with running_demo(settings, seed, locale) as demo:
        runner = web.AppRunner(demo.app(), access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, host, port)
        await site.start()
        server = site._server
        if port == 0 and isinstance(server, asyncio.Server) and server.sockets:
            port = int(server.sockets[0].getsockname()[1])  # the one the OS picked
        everywhere = host in {"0.0.0.0", "::", ""}
        shown = "127.0.0.1" if everywhere else f"[{host}]" if ":" in host else host
        print(
            f"Kap Shap demo: open http://{shown}:{port}/ in your browser (Ctrl+C to stop)"
            + (" - it listens on every network interface" if everywhere else "")
        )
        sys.stdout.flush()
        try:
            await asyncio.Event().wait()
        finally:
            await runner.cleanup()


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
            asyncio.run(serve(demo_settings(base, data_dir), args.host, port, args.seed, args.lang))
        except KeyboardInterrupt:
            print("kapshap demo: stopped", file=sys.stderr)
            return 130  # what a shell expects after Ctrl+C (bot.cli adds no line of its own)
        except OSError as exc:
            print(f"kapshap demo: cannot listen on {args.host}:{port}: {exc}", file=sys.stderr)
            return 2
    return 0


def _unavailable() -> web.Response:
    """The answer when the preview session cannot be reached (the page polls, then recovers)."""
    return web.Response(status=503, text="The demo is changing its view: reload the page.")


# The bar above the preview. Plain DOM, no inline script or style: the preview's page allows
# only scripts and styles from its own address (Content-Security-Policy).
NAV_JS = """\
"use strict";
(async () => {
  const state = await (await fetch("@PREFIX@/state", { cache: "no-store" })).json();
  const bar = document.createElement("nav");
  bar.id = "kapshap-demo-bar";
  bar.setAttribute("aria-label", "Kap Shap demo");
  const go = (member, place) => { location.href = `@PREFIX@/view/${member}/${place}`; };
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
    const a = document.createElement("a");
    a.textContent = text;
    a.href = `@PREFIX@/view/${state.member}/${place}`;
    a.dataset.place = place;
    if (current) a.setAttribute("aria-current", "page");
    places.append(a);
  };
  for (const channel of state.channels) link(`#${channel}`, channel, channel === state.channel);
  link(state.labels.dms, "dm", state.channel === null);
  bar.append(places);
  document.body.prepend(bar);
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
#kapshap-demo-bar a {
  color: #b5bac1; text-decoration: none; padding: 2px 8px; border-radius: 4px;
}
#kapshap-demo-bar a:hover { background: #35373c; color: #f2f3f5; }
#kapshap-demo-bar a[aria-current="page"] { background: #404249; color: #ffffff; }
/* The session lists one viewer: the bar above is where the visitor changes member. */
.viewer-control { display: none !important; }
"""
