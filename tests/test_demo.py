"""``kapshap demo`` in process, without a browser: the scene, the page's own routes, the
forwarding to the preview session and the change of view (tests/test_demo_browser.py plays it
in a real browser)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import multiprocessing
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
from aiohttp import ClientSession

from bot.config import Settings
from bot.demo import (
    CHANNELS,
    MEMBERS,
    PREFIX,
    WELCOME,
    Demo,
    DemoView,
    allowed_hosts,
    demo_settings,
    running_demo,
    typed_command,
)

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
async def served(
    tmp_path: Path, locale: str = "en"
) -> AsyncIterator[tuple[Demo, str, ClientSession]]:
    """The demo with its page on a free loopback port, and an HTTP client. (Not a fixture:
    simcord's clock scope must be left in the task that entered it.)"""
    settings = demo_settings(Settings(), tmp_path)
    async with running_demo(settings, seed=1, locale=locale) as demo:
        runner, port = await demo.listen("127.0.0.1", 0)
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
    async with http.get(f"{base}/") as response:
        assert response.status == 200
        page = await response.text()
    # The session's capability is in the page (only the demo's own address can read it), and
    # boot.js puts it in the address; the script itself holds no secret.
    assert f'<meta name="kapshap-demo-session" content="{demo.capability}">' in page
    assert f'<script src="{PREFIX}/boot.js"></script>' in page
    assert f'src="{PREFIX}/nav.js"' in page
    async with http.get(f"{base}{PREFIX}/boot.js") as response:
        assert response.status == 200
        assert demo.capability not in await response.text()
    # The session's API answers through the demo with the capability, and only with it.
    async with http.post(
        f"{base}/api/pages", json={}, headers={"X-Simcord-Capability": demo.capability}
    ) as response:
        assert response.status == 200
        assert (await response.json())["channel"]["name"] == CHANNELS[0]
    async with http.post(f"{base}/api/pages", json={}) as response:
        assert response.status == 401


async def test_the_demo_answers_only_at_its_own_address(tmp_path: Path) -> None:
    """DNS rebinding: a page of another site that points its own name at this machine sends
    that name as Host; a page of another site sends its Origin. Neither gets the page, the
    session's key, an action or a change of view; each refusal is one plain line."""
    async with served(tmp_path) as (demo, base, http):
        port = base.rsplit(":", 1)[1]
        foreign = {"Host": f"attacker.example:{port}"}
        for method, path in (
            ("GET", f"{PREFIX}/boot.js"),
            ("GET", "/"),
            ("GET", f"{PREFIX}/state"),
            ("POST", f"{PREFIX}/view"),
            ("POST", "/api/pages"),
        ):
            async with http.request(
                method,
                f"{base}{path}",
                headers={**foreign, "X-Simcord-Capability": demo.capability},
                json={"member": "bob", "place": "dm"},
            ) as response:
                assert response.status == 421, path
                reason = await response.text()
            assert demo.capability not in reason
            assert reason.count("\n") == 1 and "Traceback" not in reason
        # The right Host, but a request made by a page of another site.
        for headers in (
            {"Origin": "http://attacker.example"},
            {"Origin": "null"},
            {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors"},
        ):
            async with http.get(f"{base}{PREFIX}/boot.js", headers=headers) as response:
                assert response.status == 403, headers
            async with http.post(
                f"{base}{PREFIX}/view", json={"member": "bob", "place": "dm"}, headers=headers
            ) as response:
                assert response.status == 403, headers
            async with http.post(
                f"{base}/api/pages",
                json={},
                headers={**headers, "X-Simcord-Capability": demo.capability},
            ) as response:
                assert response.status == 403, headers
        # A GET never changes the view.
        async with http.get(f"{base}{PREFIX}/view/bob/dm", allow_redirects=False) as response:
            assert response.status == 404
        assert demo.view == DemoView("alice", CHANNELS[0])
        # A link followed from another site still opens the page (a navigation).
        navigation = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"}
        async with http.get(f"{base}/", headers=navigation) as response:
            assert response.status == 200
        # localhost names the same address; the page's own Origin passes.
        async with http.post(
            f"{base}{PREFIX}/view",
            json={"member": "bob", "place": "dm"},
            headers={"Host": f"localhost:{port}", "Origin": f"http://localhost:{port}"},
        ) as response:
            assert response.status == 200
        assert demo.view == DemoView("bob", None)


def test_on_every_interface_the_demo_answers_for_the_machine_and_the_names_given() -> None:
    hosts = allowed_hosts("0.0.0.0", 8080, ["Demo.Example"])
    assert {"127.0.0.1:8080", "localhost:8080", "[::1]:8080", "demo.example:8080"} <= hosts
    assert f"{socket.gethostname().lower()}:8080" in hosts
    assert "attacker.example:8080" not in hosts and "0.0.0.0:8080" not in hosts
    assert allowed_hosts("127.0.0.1", 80) >= {"127.0.0.1", "localhost:80", "localhost"}
    assert allowed_hosts("192.0.2.7", 9000) == {"192.0.2.7:9000"}
    assert allowed_hosts("::1", 9000) == {"[::1]:9000", "localhost:9000"}


async def test_changing_the_view_opens_another_session(tmp_path: Path) -> None:
    async with served(tmp_path) as (demo, base, http):
        await check_a_change_of_view(demo, base, http)


async def check_a_change_of_view(demo: Demo, base: str, http: ClientSession) -> None:
    async with http.get(f"{base}{PREFIX}/state") as response:
        state = await response.json()
    assert (state["member"], state["channel"]) == ("alice", CHANNELS[0])
    assert state["members"] == list(MEMBERS) and state["channels"] == list(CHANNELS)
    first = demo.capability
    async with http.post(f"{base}{PREFIX}/view", json={"member": "bob", "place": "dm"}) as response:
        assert response.status == 200
        assert (await response.json())["view"] == "bob/dm"
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
    async with http.post(f"{base}{PREFIX}/view", json={"member": "zed", "place": "dm"}) as response:
        assert response.status == 404
        assert "No such member" in await response.text()
    async with http.post(f"{base}{PREFIX}/view", data="bob/dm") as response:
        assert response.status == 400


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


@pytest.mark.parametrize(
    ("stop_with", "ctrl_c_ignored"),
    [(signal.SIGINT, False), (signal.SIGTERM, False), (signal.SIGTERM, True)],
    ids=["ctrl-c", "sigterm", "sigterm-under-nohup"],
)
def test_the_demo_stops_cleanly(
    tmp_path: Path, stop_with: signal.Signals, ctrl_c_ignored: bool
) -> None:
    """Ctrl+C and SIGTERM (what a service manager, or ``kill``, sends) both end the demo cleanly,
    with no traceback, also when it runs where Ctrl+C is ignored (a background job): exit 130
    after Ctrl+C, as a shell expects of every kapshap command, and 0 after SIGTERM."""
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bot",
            "demo",
            "--data-dir",
            str(tmp_path / "data"),
            "--env-file",
            str(tmp_path / "none.env"),
        ],
        cwd=Path(__file__).resolve().parent.parent,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # A shell starts a background job with SIGINT ignored, and the child inherits that.
        preexec_fn=(lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
        if ctrl_c_ignored
        else None,
    )
    try:
        assert process.stdout is not None
        assert "open http://127.0.0.1:" in process.stdout.readline()
        process.send_signal(stop_with)
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == (130 if stop_with == signal.SIGINT else 0), err
    assert "Traceback" not in err, err
    assert "kapshap demo: stopped" in err


async def test_long_work_of_the_bot_does_not_break_the_clock(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """While the bot works longer than simcord waits for it to settle (a review's play-outs in
    a worker), the clock driver logs no error, and it catches up with the wall clock after."""
    async with served(tmp_path) as (demo, base, http):
        release = threading.Event()
        lounge = demo.channels[CHANNELS[-1]]

        async def on_message(message: discord.Message) -> None:
            if message.channel.id == lounge.id:  # a reply, then long work in a worker thread
                await demo.env.bot.get_channel(demo.channels[CHANNELS[0]].id).send("working")
                await asyncio.to_thread(release.wait, 120)

        demo.env.bot.add_listener(on_message)
        # The page's action ends when simcord gives up waiting for the bot (its budget made
        # short here); the work goes on.
        demo.env.settle_timeout = 0.5
        _, context = await page_of(demo, base, http)  # the visitor's page, open before
        with contextlib.suppress(TimeoutError):
            async with demo.lock:
                await demo.members["alice"].send(lounge, "long work")
        try:
            ticks = demo.ticks
            while demo.ticks < ticks + 3:  # the driver ticks while the bot is busy
                await asyncio.sleep(0.1)
            # What the bot sent before its long work is on the page already.
            headers = {"X-Simcord-Capability": demo.capability, "X-Simcord-Context": context}
            async with http.get(f"{base}/api/state", headers=headers) as response:
                page = await response.json()
            assert "working" in [m.get("content") for m in page["messages"].values()]
        finally:
            release.set()
        while_busy = demo.env.now()
        ticks = demo.ticks
        while demo.ticks < ticks + 2:
            await asyncio.sleep(0.1)
        assert demo.env.now() > while_busy
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]


async def page_of(demo: Demo, base: str, http: ClientSession) -> tuple[dict[str, Any], str]:
    """The current session's page as the browser gets it through the demo, and its context."""
    capability = {"X-Simcord-Capability": demo.capability}
    async with http.post(f"{base}/api/pages", json={}, headers=capability) as response:
        assert response.status == 200
        page = await response.json()
    return page, str(page["context"]["id"])


async def catalog_of(demo: Demo, base: str, http: ClientSession) -> dict[str, Any]:
    """The command list the page's composer shows, through the demo."""
    _, context = await page_of(demo, base, http)
    headers = {"X-Simcord-Capability": demo.capability, "X-Simcord-Context": context}
    async with http.get(f"{base}/api/commands", headers=headers) as response:
        assert response.status == 200
        catalog: dict[str, Any] = await response.json()
    return catalog


async def test_the_composer_speaks_the_members_language(tmp_path: Path) -> None:
    """A zh-TW client lists the commands, options and choices by their zh-TW names, as
    Discord does with the names the bot publishes; what it sends back is turned into the
    English names the bot and simcord know."""
    async with served(tmp_path, "zh-TW") as (demo, base, http):
        catalog = await catalog_of(demo, base, http)
        entries = {e["invocation"]: e for e in catalog["entries"]}
        assert "table new" not in entries
        new = entries["牌桌 開桌"]
        assert new["path"] == ["table", "new"]  # what the page sends stays English
        game = next(o for o in new["options"] if o["name"] == "遊戲")
        assert "夾大十（2–20 人）" in [c["name"] for c in game["choices"]]
        assert [c["value"] for c in game["choices"]] == ["kap-shap", "kap-tai-shap", "tsung-shap"]
        names = demo.command_names
        assert names is not None
        sent = {"command_id": new["commandId"], "path": new["path"], "options": {"遊戲": "x"}}
        assert names.action(sent)["options"] == {"game": "x"}
        key = f"command:{new['commandId']}:table.new:option:遊戲"
        assert names.action({"control_key": key})["control_key"].endswith(":option:game")
        assert names.answer({key.replace("遊戲", "game"): 1}) == {key: 1}
        # A command typed as a message, in Chinese or English, runs as that command.
        assert demo.catalog["entries"]  # the English list, kept for this
        for typed in ("/牌桌 開桌 遊戲:夾大十", "/table new game:Kap Tai Shap"):
            command = typed_command(typed, demo.catalog, names)
            assert command is not None
            assert (command["path"], command["options"]) == (
                ["table", "new"],
                {"game": "kap-tai-shap"},
            )


async def test_a_command_typed_as_a_message_runs(tmp_path: Path) -> None:
    """``/table new game:Kap Tai Shap`` typed in the composer and sent as a message (as the
    welcome shows it) opens that table instead of being a chat line the bot never reads."""
    async with served(tmp_path) as (demo, base, http):
        catalog = await catalog_of(demo, base, http)
        assert typed_command("/table new game:Kap Tai Shap", catalog, None) is not None
        for not_a_command in ("hello", "/table new game:Chess", "/nothing", "/table new x"):
            assert typed_command(not_a_command, catalog, None) is None
        page, context = await page_of(demo, base, http)
        headers = {"X-Simcord-Capability": demo.capability, "X-Simcord-Context": context}
        action = {
            "kind": "send_message",
            "content": "/table new game:Kap Tai Shap",
            "target_id": None,
            "protocol_version": 3,
            "sequence": 1,
            "request_id": "typed-1",
            "generation": page["context"]["generation"],
            "bot_generation": page["botGeneration"],
            "published_revision": page["publishedRevision"],
        }
        async with http.post(f"{base}/api/action", json=action, headers=headers) as response:
            assert response.status == 200
            receipt = await response.json()
        assert not receipt["rejected"], receipt
        last = demo.channels[CHANNELS[0]].last_message
        assert last is not None and last.embeds
        assert "Kap Tai Shap" in str(last.embeds[0].title)


async def test_mentions_show_as_names(tmp_path: Path) -> None:
    """In an embed's description, Discord shows ``<@id>`` as the member's name: so does the
    page (simcord's preview resolves mentions only in a message's content)."""
    async with served(tmp_path) as (demo, base, http):
        async with demo.lock:
            await demo.members["alice"].slash(demo.channels[CHANNELS[0]], "table new")
            await demo.preview.refresh()
        page, _ = await page_of(demo, base, http)
        lobby = [m for m in page["messages"].values() if m.get("embeds")][-1]
        tokens = json.dumps(lobby["embeds"][0]["description_tokens"], ensure_ascii=False)
        assert "<@" not in tokens
        assert '"type": "mention"' in tokens and '"label": "@alice"' in tokens


async def test_the_bots_worker_processes_end_with_the_demo(tmp_path: Path) -> None:
    """A review runs in worker processes; one still at work when the demo stops would hold
    the exit (the pool waits for it): the demo ends its own workers."""
    context = multiprocessing.get_context("spawn")
    async with served(tmp_path) as _:
        worker = context.Process(target=time.sleep, args=(600,))
        worker.start()
    worker.join(timeout=60)
    assert not worker.is_alive()


async def test_one_deadline_per_turn_and_lobby(tmp_path: Path) -> None:
    """The countdowns that disagreed on the page ("3 minutes" on the table, "2 minutes" in the
    DM; a 15-minute lobby "closing in 16 minutes") were simcord's wording of one deadline at
    different moments: the bot writes one ``<t:…:R>`` per lobby and per turn everywhere."""
    async with served(tmp_path) as (demo, _, _):
        channel, alice = demo.channels[CHANNELS[0]], demo.members["alice"]
        async with demo.lock:
            opened = demo.env.now().timestamp()
            await alice.slash(channel, "table new")
            lobby = channel.last_message
            assert lobby is not None
            assert deadlines(lobby) == {int(opened) + 15 * 60}
            await alice.slash(channel, "table addbot")
            await alice.slash(channel, "table start")
            await demo.env.advance_time(5)  # the coalesced table edit
        table = demo.env.bot.services.tables.get(channel.id)
        assert table is not None and table.deadline is not None
        [table_message] = [m for m in channel.history() if m.id == table.message_id]
        hand = alice.user.dm_channel.last_message
        assert hand is not None
        # The table, and the hand's DM of the player whose turn it is, name the same instant.
        assert deadlines(table_message) == deadlines(hand) == {int(table.deadline)}


def deadlines(message: discord.Message) -> set[int]:
    """The instants of the ``<t:…:R>`` timestamps of a message (content and embeds)."""
    texts = [message.content] + [str(e.to_dict()) for e in message.embeds]
    return {int(n) for text in texts for n in re.findall(r"<t:(\d+):R>", text)}


def test_the_demo_serves_metrics_and_health_with_metrics_port(tmp_path: Path) -> None:
    """``kapshap demo --metrics-port 0`` serves the bot's /metrics and /health on a free port of
    the loopback interface, named on its second line, like ``KAPSHAP_METRICS_PORT`` for ``kapshap
    run``; the scene's table is counted."""
    import urllib.request

    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bot",
            "demo",
            "--metrics-port",
            "0",
            "--data-dir",
            str(tmp_path / "data"),
            "--env-file",
            str(tmp_path / "none.env"),
        ],
        cwd=Path(__file__).resolve().parent.parent,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        assert "open http://127.0.0.1:" in process.stdout.readline()
        line = process.stdout.readline()
        found = re.search(r"metrics at (http://127\.0\.0\.1:\d+)/metrics, health at /health", line)
        assert found, line
        with urllib.request.urlopen(found[1] + "/health", timeout=30) as response:
            assert (response.status, response.read()) == (200, b"ok\n")
        with urllib.request.urlopen(found[1] + "/metrics", timeout=30) as response:
            text = response.read().decode()
        assert re.search(r'^kapshap_shard_connected\{shard="0"\} 1\.0$', text, re.M), text
        assert "kapshap_interactions_total" in text and "kapshap_db_query_seconds_bucket" in text
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 0 and "Traceback" not in err, err


@pytest.mark.parametrize("taken", [True, False], ids=["port taken", "port out of range"])
def test_a_metrics_port_that_cannot_be_used_is_one_line(
    taken: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.demo.cli import main
    from bot.ops.server import listen_socket

    holder = listen_socket("127.0.0.1", 0) if taken else None
    port = holder.getsockname()[1] if holder is not None else 70000
    try:
        argv = ["--metrics-port", str(port), "--data-dir", str(tmp_path / "data")]
        assert main([*argv, "--env-file", str(tmp_path / "none.env")]) == 2
    finally:
        if holder is not None:
            holder.close()
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    if taken:
        assert err == (
            f"kapshap demo: cannot serve the metrics on 127.0.0.1:{port} (--metrics-port): the "
            "port is already in use (another program, or another bot process, listens on it)\n"
        )
    else:
        assert err == "kapshap demo: --metrics-port must be a port from 0 to 65535, got 70000\n"
