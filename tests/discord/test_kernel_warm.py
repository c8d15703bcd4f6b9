"""The bot compiles the master's kernel in the background once connected (bot.ai.warm): in a
process of its own, so the bot answers meanwhile, and ended when the bot closes. The test
suite switches it off (tests/conftest.py); here it is on, with a stand-in for the compile that
only records its pid and waits."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from bot.ai import warm
from tests.discord.conftest import World
from tests.discord.tables_kit import no_incidents  # noqa: F401  (autouse: no error logged)

pytest.importorskip("numba")

COMPILE = """
import os, sys, time
open(sys.argv[1], "w").write(str(os.getpid()))
time.sleep(120)
"""


@pytest.fixture(autouse=True)
def marker(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Switched on before the bot starts (autouse fixtures come first)."""
    path = tmp_path / "compiling.pid"
    monkeypatch.setenv("KAPSHAP_WARM_KERNEL", "1")
    monkeypatch.setattr(
        warm, "background_command", lambda: [sys.executable, "-c", COMPILE, str(path)]
    )
    return path


async def test_the_bot_compiles_in_the_background_and_answers_meanwhile(
    world: World, marker: Path
) -> None:
    for _ in range(1200):  # the compile starts once the bot is connected
        if marker.exists() and marker.read_text():
            break
        await asyncio.sleep(0.05)
    pid = int(marker.read_text())
    assert Path(f"/proc/{pid}").exists() or sys.platform != "linux"
    r = await world.members[0].slash(world.channel, "chips balance")
    assert r.response is not None and "1,000 chips" in r.response.content
    await world.bot.close()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # ended, and reaped, by close()
