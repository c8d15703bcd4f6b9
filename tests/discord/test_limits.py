"""Limits: settings at their extremes work in every command, duplicate deliveries are answered
once, and no input can push a reply past Discord's 2,000 characters."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.config import Settings, load_settings
from bot.engine import Game
from bot.limits import MAX_AMOUNT, MAX_ANTE, MAX_TURN_SECONDS, MESSAGE_LIMIT
from tests.discord.conftest import GUILD_ID, World
from tests.discord.tables_kit import (
    exact_deal,
    no_incidents,  # noqa: F401  (autouse: no error logged)
    shown,
    table_of,
)

ALICE = "6-6 6-6 1-1 4-4 3-1 3-3 6-5 5-2"
BOB = "5-5 6-1 4-1 3-2 6-2 6-3 4-2"
WALL = "2-2 6-4"


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """The largest values the settings accept, loaded the way `kapshap run` loads them."""
    return load_settings(
        {
            "KAPSHAP_DB_PATH": str(tmp_path / "kapshap.sqlite3"),
            "KAPSHAP_DEFAULT_ANTE": str(MAX_ANTE),
            "KAPSHAP_STARTING_CHIPS": str(MAX_AMOUNT),
            "KAPSHAP_DAILY_AMOUNT": str(MAX_AMOUNT),
            "KAPSHAP_TURN_SECONDS": str(MAX_TURN_SECONDS),
            "KAPSHAP_DEV_GUILD_ID": str(GUILD_ID),
            "KAPSHAP_SHARD_COUNT": "1",  # simcord needs the count discord.py would ask for
        },
        dotenv_path=None,
    )


@pytest.fixture
def deal(monkeypatch: pytest.MonkeyPatch) -> None:
    exact_deal(monkeypatch, Game.KAP_SHAP, [ALICE, BOB], WALL, dice=(1, 1, 2, 2))


def content(result: simcord.InteractionResult) -> str:
    assert result.response is not None
    return shown(result.response.content)


async def test_the_largest_settings_work_in_every_command_that_uses_them(
    world: World, deal: None
) -> None:
    ch = world.channel
    alice, bob = world.members[:2]
    assert content(await alice.slash(ch, "chips balance")).startswith(
        "You have **1,000,000,000,000 chips**"
    )
    # The daily claim is refused only by the balance cap, never by an incident.
    assert "claimed" in content(await bob.slash(ch, "chips daily"))

    r = await alice.slash(ch, "table new")
    assert not r.ephemeral, content(r)
    table = table_of(world)
    assert (table.ante, table.turn_seconds) == (MAX_ANTE, MAX_TURN_SECONDS)
    await bob.slash(ch, "table join")
    r = await alice.slash(ch, "table start")
    assert table.running, content(r)
    chips = world.bot.services.chips
    assert await chips.balance(GUILD_ID, alice.id) == MAX_AMOUNT - MAX_ANTE
    assert (await chips.total_supply_check(GUILD_ID)).ok


async def test_a_second_delivery_of_one_interaction_is_answered_once_and_logged_as_info(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    ch = world.channel
    alice, bob = world.members[:2]
    await alice.slash(ch, "chips balance")
    backend = world.env.backend
    emit = backend.emit

    def twice(event: str, payload: Any, *args: Any, **kwargs: Any) -> Any:
        if event == "INTERACTION_CREATE":
            emit(event, payload, *args, **kwargs)
        return emit(event, payload, *args, **kwargs)

    caplog.set_level(logging.INFO)
    backend.emit = twice  # type: ignore[method-assign]
    try:
        r = await alice.slash(ch, "chips give", member=bob, amount=100)
    finally:
        backend.emit = emit  # type: ignore[method-assign]
    assert "gave **100 chips**" in content(r)
    gifts = [row for row in await world.bot.services.chips.history(GUILD_ID, alice.id)]
    assert sum(1 for row in gifts if row.delta == -100) == 1
    repeats = [r for r in caplog.records if "delivered again" in r.getMessage()]
    assert [r.levelno for r in repeats] == [logging.INFO]


async def test_a_huge_tile_option_gets_a_short_answer(
    world: World, deal: None, caplog: pytest.LogCaptureFixture
) -> None:
    ch = world.channel
    alice, bob = world.members[:2]
    await alice.slash(ch, "table new", ante=0)
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    for verb in ("discard", "take"):
        with caplog.at_level(logging.DEBUG):
            r = await alice.slash(ch, verb, tile="x" * 1900)
        text = content(r)
        assert r.ephemeral and len(text) < 300 and text[:1].isupper(), text
        assert "x" * 41 not in text
        # Nor does any log line hold the whole input.
        assert not [rec for rec in caplog.records if "x" * 41 in rec.getMessage()]
    # A blank tile gets the command's own words, not the engine's notation.
    r = await alice.slash(ch, "discard", tile=" ")
    assert content(r) == "Name the tile to discard, e.g. `/discard tile:6-5`."
    # A notation mistake is a sentence.
    r = await alice.slash(ch, "discard", tile="9-9")
    assert content(r).startswith("Not a tile: '9-9'")
    assert len(content(r)) <= MESSAGE_LIMIT


async def test_a_shared_name_means_the_tile_the_player_holds(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Bob holds 6-3 (a Nine) but no 5-4 (the other Nine); alice holds Gee Joon 2-1 only.
    exact_deal(
        monkeypatch,
        Game.KAP_SHAP,
        ["6-6 6-6 1-1 4-4 3-1 3-3 6-5 2-1", "5-5 6-1 4-1 3-2 6-2 6-3 4-2"],
        "2-2 6-4",
        dice=(1, 1, 2, 2),
    )
    ch = world.channel
    alice, bob = world.members[:2]
    await alice.slash(ch, "table new", ante=0)
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    r = await alice.slash(ch, "discard", tile="Gee Joon")
    assert "You discarded `2-1`" in content(r), content(r)
    await alice.slash(ch, "draw")
    await alice.slash(ch, "discard", tile="2-2")
    await bob.slash(ch, "draw")
    r = await bob.slash(ch, "discard", tile="nine")
    assert "You discarded `6-3`" in content(r), content(r)
