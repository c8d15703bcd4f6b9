"""The table service running Tsung Shap: the same lobby, antes, AI, timers, restore and ledger
as the collecting games, through the dispatching engine API."""

from __future__ import annotations

import random

import pytest

from bot.engine import Game
from bot.games.collecting.engine.actions import Declare
from bot.games.fishing.engine import FishingState
from bot.services.clock import ManualClock
from bot.services.errors import UserError
from bot.services.tables import TableService
from bot.storage.db import Database
from bot.storage.games import GamesRepo, GameStatus
from tests.services.test_tables import ALICE, BOB, CHANNEL, GUILD, make_service

VERBS = {"draw", "capture", "place", "claim"}


async def open_two(service: TableService, *, ai: str | None = None) -> None:
    await service.open_table(
        guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, host_name="Alice", game="tsung-shap"
    )
    if ai is None:
        await service.join(CHANNEL, BOB, "Bob")
    else:
        await service.add_ai(CHANNEL, ALICE, ai)


async def play_out(service: TableService, rng: random.Random) -> None:
    """The human seats play random legal actions, in notation, until the game ends."""
    table = service.require(CHANNEL)
    while table.running:
        seat = table.current_seat
        assert seat is not None and seat.user_id is not None
        action = rng.choice(table.legal())
        await service.act(CHANNEL, seat.user_id, str(action), version=table.version)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
async def test_a_whole_game_is_settled_by_the_scores(db: Database, seed: int) -> None:
    service = make_service(db, ManualClock(), seed=seed)
    await open_two(service)
    outcome = await service.start(CHANNEL, ALICE)
    table = outcome.table
    assert isinstance(table.state, FishingState) and table.game == Game.TSUNG_SHAP
    assert table.max_seats == 2
    await play_out(service, random.Random(seed))
    result = table.state.result
    assert result is not None
    balances = {u: await service._chips.balance(GUILD, u) for u in (ALICE, BOB)}
    if result.winner is None:
        assert table.status is GameStatus.DRAWN
        assert balances == {ALICE: 1000, BOB: 1000}
    else:
        assert table.status is GameStatus.FINISHED
        winner = table.seats[result.winner].user_id
        loser = BOB if winner == ALICE else ALICE
        assert balances == {winner: 1010, loser: 990}
    assert (await service._chips.total_supply_check(GUILD)).ok
    log = await GamesRepo(db).actions(table.id)
    assert log and all(entry.notation.split()[0] in VERBS for entry in log)


async def test_restore_replays_the_fishing_log(db: Database) -> None:
    clock = ManualClock()
    service = make_service(db, clock)
    await open_two(service)
    await service.start(CHANNEL, ALICE)
    table = service.require(CHANNEL)
    rng = random.Random(5)
    for _ in range(12):
        seat = table.current_seat
        assert seat is not None and seat.user_id is not None
        await service.act(CHANNEL, seat.user_id, rng.choice(table.legal()))
    before = table.state
    fresh = make_service(db, clock)
    [restored] = await fresh.restore()
    assert restored.game is Game.TSUNG_SHAP
    assert isinstance(restored.state, FishingState) and isinstance(before, FishingState)
    assert restored.state.scores == before.scores and restored.state.row == before.row
    assert restored.state.piles == before.piles and restored.state.phase == before.phase
    await play_out(fresh, random.Random(6))
    assert restored.state.result is not None


async def test_computer_seats_and_timeouts_play_tsung_shap(db: Database) -> None:
    clock = ManualClock()
    service = make_service(db, clock)
    await open_two(service, ai="expert")
    outcome = await service.start(CHANNEL, ALICE)
    table = outcome.table
    lines: list[str] = []
    while table.running:
        clock.advance(61)
        for done in await service.expire_due():
            lines.append(done.lines[0])
            # Played passively: turned over and placed, never a capture or a claim.
            for step in done.steps:
                if step.by_timeout:
                    assert str(step.action).split()[0] in ("draw", "place"), step.action
    # Two timeouts are played for her; the third in a row puts her out: the computer wins.
    assert lines[0].startswith("⏰ Alice ran out of time (1/3)")
    assert lines[1].startswith("⏰ Alice ran out of time (2/3)")
    assert lines[2] == "🏳️ Alice timed out too many turns in a row: AI 1 (expert) wins."
    assert table.status is GameStatus.FINISHED and table.winner_seat == 1
    # The house staked the computer's ante and collects the pot.
    assert await service._chips.house_balance(GUILD) == 10 * 1000 + 10
    assert await service._chips.balance(GUILD, ALICE) == 990
    assert (await service._chips.total_supply_check(GUILD)).ok


async def test_options_of_other_games_are_refused(db: Database) -> None:
    service = make_service(db, ManualClock())
    with pytest.raises(UserError, match="a Tsung Shap option"):
        await service.open_table(
            guild_id=GUILD,
            channel_id=CHANNEL,
            host_id=ALICE,
            host_name="Alice",
            game="kap-shap",
            settlement="difference",
        )
    with pytest.raises(UserError, match="exactly 2 players"):
        await service.open_table(
            guild_id=GUILD,
            channel_id=CHANNEL,
            host_id=ALICE,
            host_name="Alice",
            game="tsung-shap",
            seats=4,
        )
    with pytest.raises(UserError, match="no rule set"):
        await service.open_table(
            guild_id=GUILD,
            channel_id=CHANNEL,
            host_id=ALICE,
            host_name="Alice",
            game="tsung-shap",
            rule_set="culin",
        )
    await open_two(service)
    table = (await service.start(CHANNEL, ALICE)).table
    seat = table.current_seat
    assert seat is not None and seat.user_id is not None
    version = table.version
    with pytest.raises(UserError, match="not a Tsung Shap action"):
        await service.act(CHANNEL, seat.user_id, Declare())
    with pytest.raises(UserError):
        await service.act(CHANNEL, seat.user_id, "discard 6-6")
    assert table.version == version
