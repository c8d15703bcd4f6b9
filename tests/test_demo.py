"""``kapshap demo`` in process, without a browser: the scene, the page's own routes, the
forwarding to the preview session and the change of view (tests/test_demo_browser.py plays it
in a real browser)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp import ClientSession, web

from bot.config import Settings
from bot.demo import CHANNELS, MEMBERS, PREFIX, WELCOME, Demo, DemoView, demo_settings, running_demo

pytest.importorskip(
    "markdown_it", reason="the demo needs the preview extra: pip install -e '.[demo]'"
)


def test_a_view_is_named_by_member_and_place() -> None:
    assert DemoView.parse("alice/kap-shap") == DemoView("alice", "kap-shap")
    assert DemoView.parse("bob/dm") == DemoView("bob", None)
    assert DemoView("bob", None).key == "bob/dm"
    for key in ("zed/kap-shap", "alice/general", "alice", "", "alice/kap-shap/x"):
        assert DemoView.parse(key) is None


def test_the_demo_has_its_own_database_and_no_token(tmp_path: Path) -> None:
    settings = demo_settings(Settings(discord_token="secret", dev_guild_id=5), tmp_path)
    assert settings.discord_token is None
    assert settings.db_path.parent == tmp_path
    assert settings.dev_guild_id is None  # the demo publishes its commands globally


@contextlib.asynccontextmanager
async def served(tmp_path: Path) -> AsyncIterator[tuple[Demo, str, ClientSession]]:
    """The demo with its page on a free loopback port, and an HTTP client. (Not a fixture:
    simcord's clock scope must be left in the task that entered it.)"""
    async with running_demo(demo_settings(Settings(), tmp_path), seed=1) as demo:
        runner = web.AppRunner(demo.app(), access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        try:
            async with ClientSession() as http:
                yield demo, f"http://127.0.0.1:{port}", http
        finally:
            await runner.cleanup()


async def test_the_scene(tmp_path: Path) -> None:
    async with served(tmp_path) as (demo, _, _):
        await check_the_scene(demo)


async def check_the_scene(demo: Demo) -> None:
    assert list(demo.channels) == list(CHANNELS)
    assert list(demo.members) == list(MEMBERS)
    welcome = demo.channels[CHANNELS[0]].last_message
    assert welcome is not None and welcome.content == WELCOME
    commands = demo.members["alice"].available_commands(demo.channels[CHANNELS[0]])
    assert {"table new", "draw", "chips balance", "leaderboard"} <= set(commands)


async def test_the_page_is_the_preview_with_the_demo_bar(tmp_path: Path) -> None:
    async with served(tmp_path) as (demo, base, http):
        await check_the_page(demo, base, http)


async def check_the_page(demo: Demo, base: str, http: ClientSession) -> None:
    # Any Host: the demo rewrites it to the one the preview session accepts.
    async with http.get(f"{base}/", headers={"Host": "demo.example:8080"}) as response:
        assert response.status == 200
        page = await response.text()
    assert f'<script src="{PREFIX}/boot.js"></script>' in page
    assert f'src="{PREFIX}/nav.js"' in page
    async with http.get(f"{base}{PREFIX}/boot.js") as response:
        assert demo.capability in await response.text()
    # The session's API answers through the demo with the capability, and only with it.
    async with http.post(
        f"{base}/api/pages", json={}, headers={"X-Simcord-Capability": demo.capability}
    ) as response:
        assert response.status == 200
        assert (await response.json())["channel"]["name"] == CHANNELS[0]
    async with http.post(f"{base}/api/pages", json={}) as response:
        assert response.status == 401


async def test_changing_the_view_opens_another_session(tmp_path: Path) -> None:
    async with served(tmp_path) as (demo, base, http):
        await check_a_change_of_view(demo, base, http)


async def check_a_change_of_view(demo: Demo, base: str, http: ClientSession) -> None:
    async with http.get(f"{base}{PREFIX}/state") as response:
        state = await response.json()
    assert (state["member"], state["channel"]) == ("alice", CHANNELS[0])
    assert state["members"] == list(MEMBERS) and state["channels"] == list(CHANNELS)
    first = demo.capability
    async with http.get(f"{base}{PREFIX}/view/bob/dm", allow_redirects=False) as response:
        assert response.status == 303
        assert response.headers["Location"] == "/"
    async with http.get(f"{base}{PREFIX}/state") as response:
        state = await response.json()
    assert (state["member"], state["channel"]) == ("bob", None)
    assert demo.capability != first
    async with http.post(
        f"{base}/api/pages", json={}, headers={"X-Simcord-Capability": demo.capability}
    ) as response:
        assert response.status == 200
        payload = await response.json()
    assert payload["viewerId"] == str(demo.members["bob"].id)
    assert payload["channel"]["recipient"]["name"] == "Kap Shap"  # bob's DMs with the bot
    async with http.get(f"{base}{PREFIX}/view/zed/dm", allow_redirects=False) as response:
        assert response.status == 404
        assert "No such member" in await response.text()


async def test_a_request_to_a_closing_session_is_retried_then_refused_cleanly(
    tmp_path: Path,
) -> None:
    """A page request that reaches a session a view switch just closed asks the new one; if
    no session answers at all it gets a 503, never a server error."""
    async with served(tmp_path) as (demo, base, http):
        live = demo.origin
        # The address of a session that is gone: nothing listens there any more.
        demo.origin = "http://127.0.0.1:9"

        async def switched() -> None:  # a view switch in progress puts the live one back
            async with demo.lock:
                demo.origin = live

        async with demo.lock:
            switch = asyncio.create_task(switched())
            fetch = asyncio.create_task(http.get(f"{base}/"))
            await asyncio.sleep(0.2)
        response = await fetch
        await switch
        assert response.status == 200
        response.release()

        demo.origin = "http://127.0.0.1:9"
        async with http.get(f"{base}/") as response:
            assert response.status == 503
            assert "changing its view" in await response.text()
        demo.origin = live
