"""Tsung Shap tables settled by ``rate × point difference``: no antes, the loser pays the
winner directly (at most his balance), across restarts."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot.engine import Settlement
from bot.games.fishing.engine import FishingState, difference_payment
from bot.services.clock import ManualClock
from bot.services.errors import UserError
from bot.services.tables import Table, TableService, _apply
from bot.storage.chips import LedgerKind
from bot.storage.db import Database
from bot.storage.games import GamesRepo, GameStatus
from tests.services.test_tables import ALICE, BOB, CHANNEL, GUILD, make_service
from tests.services.test_tables_fishing import play_out


async def open_difference(service: TableService, rate: int | None = 3) -> Table:
    table = await service.open_table(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=ALICE,
        host_name="Alice",
        game="tsung-shap",
        settlement="difference",
        settle_rate=rate,
    )
    await service.join(CHANNEL, BOB, "Bob")
    return table


async def check_settled(service: TableService, table: Table, start: dict[int, int]) -> None:
    """Balances moved by exactly min(rate × difference, loser's balance); the ledger balances."""
    state = table.state
    assert isinstance(state, FishingState) and state.result is not None
    chips = service._chips
    balances = {u: await chips.balance(GUILD, u) for u in (ALICE, BOB)}
    result = state.result
    if result.winner is None:
        assert table.status is GameStatus.DRAWN
        assert balances == start
    else:
        assert table.status is GameStatus.FINISHED
        winner = table.seats[result.winner].user_id
        assert winner is not None
        loser = BOB if winner == ALICE else ALICE
        paid = min(state.rules.settle_rate * result.difference, start[loser])
        assert paid == min(difference_payment(state.rules, result), start[loser])
        assert balances == {winner: start[winner] + paid, loser: start[loser] - paid}
    assert await chips.pot(table.id) is None  # no antes, no pot
    assert (await chips.total_supply_check(GUILD)).ok


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
async def test_a_whole_game_settles_by_the_difference(db: Database, seed: int) -> None:
    service = make_service(db, ManualClock(), seed=seed)
    table = await open_difference(service, rate=3)
    assert table.by_difference and table.settle_rate == 3
    await service.start(CHANNEL, ALICE)
    assert isinstance(table.state, FishingState)
    assert table.state.rules.settlement is Settlement.DIFFERENCE
    assert table.state.rules.settle_rate == 3
    # No ante was taken.
    assert await service._chips.balance(GUILD, ALICE) == 1000
    assert await service._chips.balance(GUILD, BOB) == 1000
    await play_out(service, random.Random(seed))
    await check_settled(service, table, {ALICE: 1000, BOB: 1000})
    line = table.recent[-1]
    result = table.state.result
    assert result is not None
    if result.winner is None:
        assert line == "A draw: nobody pays."
    else:
        assert " pays " in line and "capped" not in line
    # A rematch keeps the stakes.
    rematch = await service.rematch(CHANNEL, BOB)
    assert rematch.by_difference and rematch.settle_rate == 3


async def test_a_poor_loser_pays_what_he_has(db: Database) -> None:
    service = make_service(db, ManualClock(), seed=2)
    table = await open_difference(service, rate=1000)
    chips = service._chips
    for user in (ALICE, BOB):
        await chips.grant(GUILD, 1, user, -990, f"poor:{user}")
    await service.start(CHANNEL, ALICE)
    await play_out(service, random.Random(2))
    await check_settled(service, table, {ALICE: 10, BOB: 10})
    assert table.state is not None and table.state.result is not None
    assert table.state.result.winner is not None  # this seed has a winner
    assert "capped" in table.recent[-1] and "had only 10" in table.recent[-1]


async def test_a_computer_seat_is_refused_at_start(db: Database) -> None:
    service = make_service(db, ManualClock())
    await service.open_table(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=ALICE,
        host_name="Alice",
        game="tsung-shap",
        settlement="difference",
    )
    await service.add_ai(CHANNEL, ALICE, "random")
    with pytest.raises(UserError, match="Settling by point difference needs two members"):
        await service.start(CHANNEL, ALICE)
    assert service.require(CHANNEL).status is GameStatus.LOBBY
    assert await service._chips.balance(GUILD, ALICE) == 1000


async def test_bad_settlement_options_are_refused(db: Database) -> None:
    service = make_service(db, ManualClock())
    options: dict[str, Any] = {
        "guild_id": GUILD,
        "channel_id": CHANNEL,
        "host_id": ALICE,
        "host_name": "A",
    }
    with pytest.raises(UserError, match="Tsung Shap option"):
        await service.open_table(**options, settlement="difference")
    with pytest.raises(UserError, match="Unknown settlement"):
        await service.open_table(**options, game="tsung-shap", settlement="half")
    with pytest.raises(UserError, match="only applies"):
        await service.open_table(**options, game="tsung-shap", settle_rate=2)
    with pytest.raises(UserError, match="settle rate must be"):
        await service.open_table(
            **options, game="tsung-shap", settlement="difference", settle_rate=0
        )


async def test_the_lobby_and_the_game_survive_a_restart(db: Database) -> None:
    clock = ManualClock()
    service = make_service(db, clock, seed=3)
    await open_difference(service, rate=2)
    # A restart in the lobby keeps the settlement.
    [lobby] = await make_service(db, clock, seed=3).restore()
    assert lobby.by_difference and lobby.settle_rate == 2
    await service.start(CHANNEL, ALICE)
    table = service.require(CHANNEL)
    rng = random.Random(3)
    for _ in range(10):
        seat = table.current_seat
        assert seat is not None and seat.user_id is not None
        await service.act(CHANNEL, seat.user_id, str(rng.choice(table.legal())))
    fresh = make_service(db, clock, seed=3)
    [restored] = await fresh.restore()
    assert restored.by_difference and restored.settle_rate == 2
    assert isinstance(restored.state, FishingState)
    assert restored.state.rules.settlement is Settlement.DIFFERENCE
    await play_out(fresh, rng)
    await check_settled(fresh, restored, {ALICE: 1000, BOB: 1000})


async def test_a_finished_but_unsettled_game_is_settled_on_restore(db: Database) -> None:
    clock = ManualClock()
    service = make_service(db, clock, seed=1)
    await open_difference(service, rate=5)
    await service.start(CHANNEL, ALICE)
    table = service.require(CHANNEL)
    rng = random.Random(1)
    games = GamesRepo(db)
    # Play until one action is left, then log the last one as a crash would leave it: the
    # action saved, the game neither marked finished nor settled.
    while True:
        state = table.state
        assert isinstance(state, FishingState)
        action = rng.choice(table.legal())
        after, _ = _apply(state, action)
        if after.result is not None:
            break
        seat = table.current_seat
        assert seat is not None and seat.user_id is not None
        await service.act(CHANNEL, seat.user_id, action)
    await games.append_action(
        table.id,
        expected_version=table.version,
        seat=state.current,
        notation=str(action),
        created_at=clock.now(),
    )
    fresh = make_service(db, clock, seed=1)
    [restored] = await fresh.restore()
    await check_settled(fresh, restored, {ALICE: 1000, BOB: 1000})
    # Restoring again (a second crash before the end was recorded) pays nothing more.
    again = make_service(db, clock, seed=1)
    [twice] = await again.restore()
    await check_settled(again, twice, {ALICE: 1000, BOB: 1000})
    kinds = [e.kind for e in await again._chips.history(GUILD, ALICE, limit=10)]
    assert kinds.count(LedgerKind.SETTLE_IN) + kinds.count(LedgerKind.SETTLE_OUT) <= 1
    stored = await games.get(table.id)
    assert stored is not None
    assert json.loads(stored.rules_json)["flags"]["settle_rate"] == 5


# Seeds 1 and 2 leave alice ahead (bob pays), seed 3 leaves bob ahead (nobody pays).
@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_resigning_pays_for_the_points_behind(db: Database, seed: int) -> None:
    service = make_service(db, ManualClock(), seed=seed)
    table = await open_difference(service, rate=5)
    await service.start(CHANNEL, ALICE)
    rng = random.Random(seed)
    for _ in range(14):  # some turns, so the scores may differ
        seat = table.current_seat
        assert seat is not None and seat.user_id is not None
        await service.act(CHANNEL, seat.user_id, rng.choice(table.legal()))
        if not table.running:
            return  # the game ended by itself (rare): nothing to resign
    state = table.state
    assert isinstance(state, FishingState)
    alice_score, bob_score = state.scores
    outcome = await service.resign(CHANNEL, BOB)
    assert outcome.finished and table.status is GameStatus.FINISHED and table.winner_seat == 0
    paid = 5 * max(0, alice_score - bob_score)
    chips = service._chips
    assert await chips.balance(GUILD, ALICE) == 1000 + paid
    assert await chips.balance(GUILD, BOB) == 1000 - paid
    assert outcome.settlement is not None
    assert (await chips.total_supply_check(GUILD)).ok
