"""The smallest values the settings accept work in every command that uses them."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import Settings, load_settings
from bot.limits import MIN_TURN_SECONDS
from tests.discord.conftest import GUILD_ID, World
from tests.discord.tables_kit import (
    no_incidents,  # noqa: F401  (autouse: no error logged)
    table_of,
)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return load_settings(
        {
            "KAPSHAP_DB_PATH": str(tmp_path / "kapshap.sqlite3"),
            "KAPSHAP_DEFAULT_ANTE": "0",
            "KAPSHAP_STARTING_CHIPS": "0",
            "KAPSHAP_DAILY_AMOUNT": "0",
            "KAPSHAP_TURN_SECONDS": str(MIN_TURN_SECONDS),
            "KAPSHAP_DEV_GUILD_ID": str(GUILD_ID),
            "KAPSHAP_SHARD_COUNT": "1",  # simcord needs the count discord.py would ask for
        },
        dotenv_path=None,
    )


async def test_the_smallest_settings_work_in_every_command_that_uses_them(world: World) -> None:
    ch = world.channel
    alice, bob = world.members[:2]
    r = await alice.slash(ch, "chips balance")
    assert r.response is not None and r.response.content.startswith("You have **0 chips**")
    r = await alice.slash(ch, "chips daily")  # turned off: a sentence, not an incident
    assert r.ephemeral and r.response is not None and r.response.content[:1].isupper()
    await alice.slash(ch, "table new")
    table = table_of(world)
    assert (table.ante, table.turn_seconds) == (0, MIN_TURN_SECONDS)
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    assert table.running
    await world.env.advance_time(MIN_TURN_SECONDS + 1)  # the timer plays alice's turn
    assert table.state is not None and table.state.turn >= 2
