"""The table service on a real SQLite file: lobby, start, play, settle, time out, restore."""

from __future__ import annotations

import random

import pytest

from bot.engine import legal_actions
from bot.games.collecting.engine.actions import Declare
from bot.games.collecting.engine.machine import Phase
from bot.services.chips import ChipsDefaults, ChipsService
from bot.services.clock import ManualClock
from bot.services.errors import InsufficientChips, UserError
from bot.services.tables import TableDefaults, TableService
from bot.storage.db import Database
from bot.storage.games import GamesRepo, GameStatus

GUILD, CHANNEL = 1, 100
ALICE, BOB, CAROL = 11, 12, 13


def make_service(db: Database, clock: ManualClock, seed: int = 7) -> TableService:
    chips = ChipsService(db, clock, ChipsDefaults(starting_chips=1000, daily_amount=100))
    return TableService(
        GamesRepo(db),
        chips,
        clock,
        TableDefaults(ante=10, turn_seconds=60, timeout_ai_level="random"),
        random.Random(seed),
    )


async def play_out(service: TableService, rng: random.Random) -> None:
    """Humans play random legal actions (declaring when they can) until the game ends."""
    table = service.require(CHANNEL)
    while table.running:
        state = table.state
        assert state is not None
        seat = table.seats[state.current]
        assert seat.user_id is not None, "only human seats are left to the test"
        legal = legal_actions(state)
        action = Declare() if Declare() in legal else rng.choice(legal)
        await service.act(CHANNEL, seat.user_id, action, version=table.version)


async def total_chips(service: TableService) -> int:
    chips = service._chips
    return sum([await chips.balance(GUILD, u) for u in (ALICE, BOB, CAROL)])


async def test_two_members_play_a_whole_game_and_the_pot_is_settled(db: Database) -> None:
    clock = ManualClock()
    service = make_service(db, clock)
    await service.open_table(guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, host_name="Alice")
    await service.join(CHANNEL, BOB, "Bob")
    outcome = await service.start(CHANNEL, ALICE)
    table = outcome.table
    assert table.running and table.state is not None
    assert outcome.lines[0].startswith("🎲")
    assert await service._chips.balance(GUILD, ALICE) == 990
    assert await service._chips.balance(GUILD, BOB) == 990
    await play_out(service, random.Random(3))
    assert table.status in (GameStatus.FINISHED, GameStatus.DRAWN)
    balances = {u: await service._chips.balance(GUILD, u) for u in (ALICE, BOB)}
    result = table.state.result
    assert result is not None
    if result.winner is None:
        assert balances == {ALICE: 1000, BOB: 1000}
    else:
        winner = table.seats[result.winner].user_id
        loser = BOB if winner == ALICE else ALICE
        assert balances == {winner: 1010, loser: 990}
    assert (await service._chips.total_supply_check(GUILD)).ok
    # The log in the database replays to the same final state.
    log = await GamesRepo(db).actions(table.id)
    assert len(log) == table.state.version


async def test_wrong_player_stale_version_and_illegal_action_change_nothing(db: Database) -> None:
    clock = ManualClock()
    service = make_service(db, clock)
    await service.open_table(guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, host_name="Alice")
    await service.join(CHANNEL, BOB, "Bob")
    table = (await service.start(CHANNEL, ALICE)).table
    assert table.state is not None
    current = table.seats[table.state.current].user_id
    other = BOB if current == ALICE else ALICE
    assert current is not None
    version = table.version
    with pytest.raises(UserError, match="turn, not yours"):
        await service.act(CHANNEL, other, "draw")
    with pytest.raises(UserError, match="out of date"):
        await service.act(CHANNEL, current, "draw", version=version - 1)
    with pytest.raises(UserError, match="full hand"):
        await service.act(CHANNEL, current, "draw")  # the first player holds 8: discard first
    with pytest.raises(UserError, match="Not a tile"):
        await service.act(CHANNEL, current, "discard 9-9")
    with pytest.raises(UserError, match="not playing"):
        await service.act(CHANNEL, CAROL, "draw")
    assert table.version == version
    assert len(await GamesRepo(db).actions(table.id)) == 0


async def test_start_refuses_and_takes_nothing_when_a_member_cannot_pay(db: Database) -> None:
    clock = ManualClock()
    service = make_service(db, clock)
    await service.open_table(
        guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, host_name="Alice", ante=500
    )
    await service.join(CHANNEL, BOB, "Bob")
    await service._chips.give(GUILD, BOB, ALICE, 700, "test-gift")
    with pytest.raises(InsufficientChips):
        await service.start(CHANNEL, ALICE)
    assert await service._chips.balance(GUILD, ALICE) == 1700
    assert await service._chips.balance(GUILD, BOB) == 300
    assert service.require(CHANNEL).status is GameStatus.LOBBY


async def test_lobby_rules(db: Database) -> None:
    clock = ManualClock()
    service = make_service(db, clock)
    await service.open_table(guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, host_name="Alice")
    with pytest.raises(UserError, match="already a table"):
        await service.open_table(guild_id=GUILD, channel_id=CHANNEL, host_id=BOB, host_name="B")
    with pytest.raises(UserError, match="already seated"):
        await service.join(CHANNEL, ALICE, "Alice")
    with pytest.raises(UserError, match="two players"):
        await service.start(CHANNEL, ALICE)
    await service.join(CHANNEL, BOB, "Bob")
    with pytest.raises(UserError, match="full"):
        await service.join(CHANNEL, CAROL, "Carol")
    with pytest.raises(UserError, match="Only the host"):
        await service.start(CHANNEL, BOB)
    with pytest.raises(UserError, match="2 players"):
        await service.open_table(
            guild_id=GUILD, channel_id=CHANNEL + 1, host_id=CAROL, host_name="C", seats=3
        )


async def test_ai_seats_play_and_a_timeout_lets_the_ai_play_for_the_member(db: Database) -> None:
    clock = ManualClock()
    service = make_service(db, clock, seed=11)
    await service.open_table(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=ALICE,
        host_name="Alice",
        game="kap-tai-shap",
        seats=4,
    )
    for _ in range(3):
        await service.add_ai(CHANNEL, ALICE, "random")
    table = (await service.start(CHANNEL, ALICE)).table
    assert table.state is not None
    if not table.running:
        return  # an AI won before Alice's first turn: nothing to time out
    assert table.seats[table.state.current].user_id == ALICE
    assert table.deadline is not None
    turn = table.state.turn
    clock.advance(30)
    assert await service.expire_due() == []
    clock.advance(31)
    outcomes = await service.expire_due()
    assert len(outcomes) == 1
    assert "ran out of time" in outcomes[0].lines[0]
    assert all(step.seat == 0 for step in outcomes[0].steps if step.by_timeout)
    assert table.state.turn > turn or not table.running


async def test_restart_restores_every_tile_and_chip(db: Database) -> None:
    clock = ManualClock()
    service = make_service(db, clock)
    await service.open_table(guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, host_name="Alice")
    await service.join(CHANNEL, BOB, "Bob")
    table = (await service.start(CHANNEL, ALICE)).table
    rng = random.Random(5)
    for _ in range(5):
        state = table.state
        assert state is not None and table.running
        user = table.seats[state.current].user_id
        assert user is not None
        legal = [a for a in legal_actions(state) if a != Declare()]
        await service.act(CHANNEL, user, rng.choice(legal))
    before = table.state
    restarted = make_service(db, clock, seed=99)
    restored = await restarted.restore()
    assert [t.id for t in restored] == [table.id]
    again = restarted.require(CHANNEL)
    assert again.state is not None and before is not None
    assert again.state.hands == before.hands
    assert again.state.pool == before.pool
    assert again.state.wall_pos == before.wall_pos
    assert again.state.phase is before.phase or again.state.phase in Phase
    assert again.version == table.version
    assert again.deadline == table.deadline
    assert await restarted._chips.balance(GUILD, ALICE) == 990


async def test_a_master_seat_decides_in_a_worker_thread_and_plays_legally(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    from bot.services.tables import play as tables_module

    clock = ManualClock()
    service = make_service(db, clock, seed=3)
    await service.open_table(guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, host_name="Alice")
    await service.add_ai(CHANNEL, ALICE, "master")
    threads: list[str] = []
    choose = tables_module._ai_choice

    def spy(*args: object) -> object:
        threads.append(threading.current_thread().name)
        return choose(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(tables_module, "_ai_choice", spy)
    table = (await service.start(CHANNEL, ALICE)).table
    rng = random.Random(2)
    while table.running and len(threads) < 2:
        state = table.state
        assert state is not None and table.seats[state.current].user_id == ALICE
        await service.act(CHANNEL, ALICE, rng.choice(table.legal()), version=table.version)
    # Every master decision ran off the event loop's thread, and the game moved on legally.
    assert threads and all(name != threading.main_thread().name for name in threads)
    assert table.state is not None and (table.state.turn > 1 or not table.running)
