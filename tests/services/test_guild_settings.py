"""Per-server defaults on a real, migrated SQLite file, and their effect on the chips service."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from bot.services.chips import MAX_AMOUNT, ChipsDefaults, ChipsService
from bot.services.clock import ManualClock
from bot.services.errors import DailyDisabled, UserError
from bot.services.guild_settings import (
    LIMITS,
    GuildDefaults,
    GuildSettingsService,
    InvalidSetting,
)
from bot.services.tables import TableDefaults
from bot.storage.db import Database

G, OTHER = 1, 2
ANN, BOB = 11, 12
DEFAULTS = GuildDefaults(ante=10, starting_chips=1000, daily_amount=100, turn_seconds=120)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(datetime(2024, 3, 10, 18, 30, tzinfo=UTC))


@pytest.fixture
def settings(db: Database, clock: ManualClock) -> GuildSettingsService:
    return GuildSettingsService(db, clock, DEFAULTS)


@pytest.fixture
def chips(db: Database, clock: ManualClock) -> ChipsService:
    # Built from the same application defaults, as bot.app does.
    return ChipsService(
        db,
        clock,
        ChipsDefaults(starting_chips=DEFAULTS.starting_chips, daily_amount=DEFAULTS.daily_amount),
    )


async def test_a_new_server_has_the_application_defaults(settings: GuildSettingsService) -> None:
    current = await settings.get(G)
    assert (current.ante, current.starting_chips, current.daily_amount, current.turn_seconds) == (
        10,
        1000,
        100,
        120,
    )
    assert current.overridden == frozenset()
    assert all(current.is_default(name) for name in LIMITS)


async def test_update_changes_only_the_values_given(settings: GuildSettingsService) -> None:
    current = await settings.update(G, ante=25)
    assert current.ante == 25 and current.overridden == {"ante"}
    current = await settings.update(G, turn_seconds=60, daily_amount=0)
    assert (current.ante, current.turn_seconds, current.daily_amount) == (25, 60, 0)
    assert current.starting_chips == 1000 and current.is_default("starting_chips")
    assert await settings.get(G) == current
    # Other servers are untouched.
    assert (await settings.get(OTHER)).overridden == frozenset()


async def test_update_with_nothing_given_only_reads(
    settings: GuildSettingsService, db: Database
) -> None:
    assert await settings.update(G) == await settings.get(G)
    async with db.read() as tx:
        assert await tx.scalar("SELECT COUNT(*) FROM guild_config") == 0


async def test_reset_drops_every_override_then_applies_the_values_given(
    settings: GuildSettingsService,
) -> None:
    await settings.update(G, ante=25, starting_chips=5, turn_seconds=30)
    current = await settings.update(G, reset=True)
    assert current.overridden == frozenset() and current.ante == 10
    current = await settings.update(G, ante=99, reset=True)
    assert current.overridden == {"ante"} and current.ante == 99


@pytest.mark.parametrize(
    ("name", "bad", "message"),
    [
        ("ante", -1, "ante must be a whole number from 0 to 1,000,000,000 chips"),
        ("ante", 1_000_000_001, "ante"),
        ("starting_chips", MAX_AMOUNT + 1, "starting chips must be a whole number from 0"),
        ("daily_amount", -5, "daily amount"),
        ("turn_seconds", 9, "turn timer must be a whole number from 10 to 86,400 seconds"),
        ("turn_seconds", 86_401, "turn timer"),
        ("turn_seconds", True, "turn timer"),  # a bool is not a number of seconds
    ],
)
async def test_out_of_range_values_are_refused_and_change_nothing(
    settings: GuildSettingsService, name: str, bad: int, message: str
) -> None:
    await settings.update(G, ante=20)
    before = await settings.get(G)
    # A valid value given next to the bad one must not be written either.
    valid = "daily_amount" if name == "ante" else "ante"
    values: dict[str, Any] = {valid: 30, name: bad}
    with pytest.raises(InvalidSetting, match=message) as caught:
        await settings.update(G, **values)
    assert isinstance(caught.value, UserError)
    assert await settings.get(G) == before


async def test_limits_are_the_ones_open_table_enforces() -> None:
    # TableService.open_table refuses an ante outside 0..1e9 and a timer outside 10..86,400 s;
    # a configured default must never make /table new fail.
    assert (LIMITS["ante"].minimum, LIMITS["ante"].maximum) == (0, 1_000_000_000)
    assert (LIMITS["turn_seconds"].minimum, LIMITS["turn_seconds"].maximum) == (10, 86_400)


async def test_table_defaults_follow_the_server(settings: GuildSettingsService) -> None:
    assert await settings.table_defaults(G) == TableDefaults(ante=10, turn_seconds=120)
    await settings.update(G, ante=50, turn_seconds=45)
    base = TableDefaults(ante=1, turn_seconds=999, timeout_ai_level="random")
    assert await settings.table_defaults(G, base) == TableDefaults(
        ante=50, turn_seconds=45, timeout_ai_level="random"
    )


async def test_chips_service_applies_the_configured_starting_chips_and_daily_amount(
    settings: GuildSettingsService, chips: ChipsService
) -> None:
    assert await chips.balance(G, ANN) == 1000
    await settings.update(G, starting_chips=250, daily_amount=40)
    assert await chips.balance(G, BOB) == 250  # new account: the new default
    assert await chips.balance(G, ANN) == 1000  # existing account keeps its balance
    assert (await chips.daily(G, BOB)).amount == 40
    await settings.update(G, daily_amount=0)
    with pytest.raises(DailyDisabled):
        await chips.daily(G, ANN)
    assert (await chips.total_supply_check()).ok
