"""High Pair through the services on a real SQLite file: a lobby, antes in escrow, moves in
notation, computer seats, a timeout played passively, the pot paid, the game rated and
recorded, a restart rebuilding the table from its log, ``kapshap db repair`` settling an end a
crash cut short — with the chip invariant after each. No service names the toy."""

from __future__ import annotations

import asyncio
import io
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.records_cli import main_record
from bot.services import dbtool
from bot.services.chips import ChipsDefaults, ChipsService
from bot.services.clock import ManualClock
from bot.services.errors import UserError
from bot.services.ratings import RatingService
from bot.services.tables import TableDefaults, TableService
from bot.storage.db import Database
from bot.storage.games import GamesRepo, GameStatus
from tests.games.toy import TOY
from tests.games.toy.engine import ToyState
from tests.services.test_repair import _unsettle

GUILD, CHANNEL = 1, 100
ALICE, BOB = 11, 12
GAME = "high-pair"


@pytest.fixture(autouse=True)
def toy() -> Iterator[None]:
    from bot.games import registered

    with registered(TOY):
        yield


def services(db: Database, clock: ManualClock, seed: int = 7) -> tuple[TableService, RatingService]:
    chips = ChipsService(db, clock, ChipsDefaults(starting_chips=1000, daily_amount=100))
    ratings = RatingService(db, clock, provisional_games=3)
    tables = TableService(
        GamesRepo(db),
        chips,
        clock,
        TableDefaults(ante=10, turn_seconds=60, timeout_ai_level="random"),
        random.Random(seed),
        ratings=ratings,
    )
    return tables, ratings


async def open_two(tables: TableService, *, ai: str | None = None, **options: object) -> None:
    await tables.open_table(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=ALICE,
        host_name="Alice",
        game=GAME,
        **options,  # type: ignore[arg-type]
    )
    if ai is None:
        await tables.join(CHANNEL, BOB, "Bob")
    else:
        await tables.add_ai(CHANNEL, ALICE, ai)


async def play_out(tables: TableService, rng: random.Random, *, show: bool = True) -> None:
    """The members play in notation (showing when they can, if ``show``) until the end."""
    table = tables.require(CHANNEL)
    while table.running:
        seat = table.current_seat
        assert seat is not None and seat.user_id is not None
        legal = [str(a) for a in table.legal()]
        others = [n for n in legal if n != "show"]
        notation = "show" if show and "show" in legal else rng.choice(others)
        await tables.act(CHANNEL, seat.user_id, notation, version=table.version)


async def balances(tables: TableService) -> dict[int, int]:
    return {user: await tables._chips.balance(GUILD, user) for user in (ALICE, BOB)}


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_two_members_play_for_the_pot_and_the_game_is_rated_and_recorded(
    db: Database, tmp_path: Path, seed: int
) -> None:
    tables, ratings = services(db, ManualClock(), seed)
    await open_two(tables)
    outcome = await tables.start(CHANNEL, ALICE)
    table = outcome.table
    assert isinstance(table.state, ToyState) and table.running
    assert await balances(tables) == {ALICE: 990, BOB: 990}
    pot = await tables._chips.pot(table.id)
    assert pot is not None and pot.total == 20
    await play_out(tables, random.Random(seed))
    result = table.state.result
    assert result is not None and result.reason == "show"
    winner = table.seats[result.winner].user_id if result.winner is not None else None
    if winner is None:
        assert table.status is GameStatus.DRAWN
        assert await balances(tables) == {ALICE: 1000, BOB: 1000}
    else:
        assert table.status is GameStatus.FINISHED
        loser = BOB if winner == ALICE else ALICE
        assert await balances(tables) == {winner: 1010, loser: 990}
        won, lost = (
            await ratings.rating(GUILD, winner, GAME),
            await ratings.rating(GUILD, loser, GAME),
        )
        assert won is not None and lost is not None and won.mu > lost.mu
    assert (await tables._chips.total_supply_check(GUILD)).ok
    log = await GamesRepo(db).actions(table.id)
    assert [entry.notation.split()[0] for entry in log][:1] == ["draw"]
    assert {entry.notation.split()[0] for entry in log} <= {"draw", "discard", "show"}
    # The stored game exports as a record of the toy, which replays to the same end.
    out, err = io.StringIO(), io.StringIO()
    # The command runs its own event loop: off this one, as from a shell.
    argv = ["export", table.id, "--db", str(db.path)]
    assert await asyncio.to_thread(main_record, argv, out, err) == 0, err.getvalue()
    record = out.getvalue()
    assert "Game: high-pair" in record.splitlines()
    assert f"Result: seat {result.winner} wins (show)" in record or "Result: drawn" in record


async def test_refusals_change_nothing(db: Database) -> None:
    tables, _ = services(db, ManualClock())
    with pytest.raises(UserError):
        await tables.open_table(
            guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, host_name="A", game=GAME, seats=3
        )
    with pytest.raises(UserError):
        await tables.open_table(
            guild_id=GUILD,
            channel_id=CHANNEL,
            host_id=ALICE,
            host_name="A",
            game=GAME,
            variants={"hand": "7"},
        )
    await open_two(tables, variants={"hand": "4"})
    with pytest.raises(UserError, match="greedy"):
        await tables.add_ai(CHANNEL, ALICE, "master")
    table = (await tables.start(CHANNEL, ALICE)).table
    assert isinstance(table.state, ToyState) and table.state.rules.hand == 4
    current = table.current_seat
    assert current is not None and current.user_id is not None
    version = table.version
    with pytest.raises(UserError, match="Draw a card first") as refused:
        await tables.act(CHANNEL, current.user_id, "discard 1")
    # Recognized among the toy's own refusals (its engine facet's), so worded as a template.
    assert refused.value.msgid == "{reason}"
    assert refused.value.values["reason"].msgid == "Draw a card first."
    with pytest.raises(UserError, match="write draw, discard N or show"):
        await tables.act(CHANNEL, current.user_id, "take 6-6")
    assert table.version == version
    assert await GamesRepo(db).actions(table.id) == []


async def test_a_computer_seat_plays_and_a_timeout_is_played_passively(db: Database) -> None:
    clock = ManualClock()
    tables, _ = services(db, clock, seed=4)
    await open_two(tables, ai="greedy")
    table = (await tables.start(CHANNEL, ALICE)).table
    timeouts = 0
    while table.running:
        clock.advance(61)
        for done in await tables.expire_due():
            assert "ran out of time" in done.lines[0] or "timed out" in done.lines[0]
            for step in done.steps:
                if step.by_timeout:
                    timeouts += 1
                    # Passive: a draw, then the highest single thrown; never a show.
                    assert str(step.action) == "draw" or str(step.action).startswith("discard")
    assert timeouts >= 1
    assert table.status in (GameStatus.FINISHED, GameStatus.DRAWN)
    log = await GamesRepo(db).actions(table.id)
    assert any(entry.seat == 1 for entry in log)  # the computer played its turns
    assert (await tables._chips.total_supply_check(GUILD)).ok


async def test_a_restart_rebuilds_the_table_from_its_log(db: Database) -> None:
    clock = ManualClock()
    tables, _ = services(db, clock)
    await open_two(tables)
    table = (await tables.start(CHANNEL, ALICE)).table
    rng = random.Random(5)
    for _ in range(7):
        seat = table.current_seat
        assert seat is not None and seat.user_id is not None
        legal = [str(a) for a in table.legal() if str(a) != "show"]
        await tables.act(CHANNEL, seat.user_id, rng.choice(legal), version=table.version)
    before = table.state
    assert isinstance(before, ToyState)
    again, _ = services(db, clock, seed=99)
    [restored] = await again.restore()
    state = restored.state
    assert isinstance(state, ToyState)
    assert (state.hands, state.stock, state.discards, state.phase, state.current) == (
        before.hands,
        before.stock,
        before.discards,
        before.phase,
        before.current,
    )
    assert restored.version == table.version
    assert await again._chips.balance(GUILD, ALICE) == 990
    await play_out(again, random.Random(6))
    assert restored.state is not None and restored.state.result is not None


def test_db_repair_settles_an_end_a_crash_cut_short(tmp_path: Path) -> None:
    path = tmp_path / "kap.db"

    async def play() -> tuple[str, dict[int, int]]:
        db = await Database.open(path)
        try:
            tables, _ = services(db, ManualClock(), 2)
            await open_two(tables)
            table = (await tables.start(CHANNEL, ALICE)).table
            await play_out(tables, random.Random(2))
            assert table.status is GameStatus.FINISHED
            return table.id, await balances(tables)
        finally:
            await db.close()

    async def after() -> dict[int, int]:
        db = await Database.open(path)
        try:
            return await balances(services(db, ManualClock())[0])
        finally:
            await db.close()

    game_id, paid = asyncio.run(play())
    _unsettle(path, game_id)
    assert asyncio.run(after()) != paid
    assert dbtool.main(["check", "--path", str(path)]) == 1
    assert dbtool.main(["repair", "--path", str(path)]) == 0
    assert dbtool.main(["check", "--path", str(path)]) == 0
    assert asyncio.run(after()) == paid
