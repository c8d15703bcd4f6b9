"""Broken databases, one per state a crash (or older code) could leave: ``kapshap db check``
fails on each and says why, ``kapshap db repair`` (and the bot's start-up) repairs it, and the
check passes afterwards."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot.services import dbtool
from bot.services.clock import ManualClock
from bot.services.tables import TableService
from bot.storage.db import Database
from bot.storage.games import GameStatus
from bot.storage.lock import ProcessLock
from tests.crash.scenario import ALICE, BOB, GUILD, make_services

CHANNEL = 100


async def _play(service: TableService, game: str = "kap-shap", **options: object) -> str:
    """A two-member game played to its end; its id."""
    table = await service.open_table(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=ALICE,
        host_name="Alice",
        game=game,
        **options,  # type: ignore[arg-type]
    )
    await service.join(CHANNEL, BOB, "Bob")
    await service.start(CHANNEL, ALICE)
    rng = random.Random(5)
    while table.running:
        state = table.state
        assert state is not None
        user = table.seats[state.current].user_id
        assert user is not None
        await service.act(CHANNEL, user, rng.choice(table.legal()), version=table.version)
    return table.id


def _unsettle(path: Path, game_id: str) -> None:
    """Undo a game's settlement as if the process had died right after its final move (what
    the code before 0003 could leave): ledger rows gone, balances back, escrow back, pot open."""
    with sqlite3.connect(path) as conn:
        rows = conn.execute(
            "SELECT user_id, SUM(delta) FROM ledger WHERE game_id = ? AND kind NOT IN "
            "('ante', 'carry_in') AND user_id IS NOT NULL GROUP BY user_id",
            (game_id,),
        ).fetchall()
        for user, delta in rows:
            conn.execute(
                "UPDATE accounts SET balance = balance - ? WHERE user_id = ?", (delta, user)
            )
        conn.execute(
            "DELETE FROM ledger WHERE game_id = ? AND kind NOT IN ('ante', 'carry_in')",
            (game_id,),
        )
        for user, amount in conn.execute(
            "SELECT user_id, -delta FROM ledger WHERE game_id = ? AND kind = 'ante'", (game_id,)
        ).fetchall():
            conn.execute(
                "INSERT INTO escrow (game_id, guild_id, user_id, amount) VALUES (?, ?, ?, ?)",
                (game_id, GUILD, user, amount),
            )
        conn.execute(
            "UPDATE pots SET status = 'open', settled_amount = NULL, winner_id = NULL, rake = 0, "
            "settled_at = NULL WHERE game_id = ?",
            (game_id,),
        )
        conn.execute("UPDATE games SET settled = 0 WHERE id = ?", (game_id,))


async def _balances(path: Path) -> tuple[int, int]:
    db = await Database.open(path)
    try:
        service = make_services(db, ManualClock(), 1)
        chips = service._chips
        return await chips.balance(GUILD, ALICE), await chips.balance(GUILD, BOB)
    finally:
        await db.close()


Builder = Callable[[Path], Awaitable[tuple[str, tuple[int, int] | None]]]
"""Builds a broken state; returns words ``db check`` must print and the balances (Alice, Bob)
the repair must reach (None: not checked)."""


async def _unpaid_win(path: Path) -> tuple[str, tuple[int, int] | None]:
    db = await Database.open(path)
    try:
        game = await _play(make_services(db, ManualClock(), 1))
    finally:
        await db.close()
    expected = await _balances(path)
    _unsettle(path, game)
    return "its settlement never happened", expected


async def _unrefunded_draw(path: Path) -> tuple[str, tuple[int, int] | None]:
    db = await Database.open(path)
    try:
        service = make_services(db, ManualClock(), 1)
        table = await service.open_table(
            guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, host_name="Alice"
        )
        await service.join(CHANNEL, BOB, "Bob")
        await service.start(CHANNEL, ALICE)
        rng = random.Random(3)
        while table.running:
            state = table.state
            assert state is not None
            user = table.seats[state.current].user_id
            assert user is not None
            legal = [a for a in table.legal() if str(a) != "declare"] or table.legal()
            await service.act(CHANNEL, user, rng.choice(legal), version=table.version)
        assert table.status is GameStatus.DRAWN
    finally:
        await db.close()
    _unsettle(path, table.id)
    return "drawn game", (1000, 1000)


async def _unpaid_difference(path: Path) -> tuple[str, tuple[int, int] | None]:
    db = await Database.open(path)
    try:
        game = await _play(
            make_services(db, ManualClock(), 1), "tsung-shap", settlement="difference"
        )
    finally:
        await db.close()
    expected = await _balances(path)
    assert expected != (1000, 1000)
    _unsettle(path, game)
    return "never settled", expected


async def _lobby_holding_antes(path: Path) -> tuple[str, tuple[int, int] | None]:
    db = await Database.open(path)
    try:
        service = make_services(db, ManualClock(), 1)
        table = await service.open_table(
            guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, host_name="Alice"
        )
        await service.join(CHANNEL, BOB, "Bob")
        # The first commit of a start before 0003: the antes, without the start.
        await service._chips.escrow_antes(table.id, GUILD, {ALICE: 10, BOB: 10})
    finally:
        await db.close()
    return "belongs to a lobby", (1000, 1000)


async def _interrupted_endtable(path: Path) -> tuple[str, tuple[int, int] | None]:
    db = await Database.open(path)
    try:
        service = make_services(db, ManualClock(), 1)
        table = await service.open_table(
            guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, host_name="Alice"
        )
        await service.join(CHANNEL, BOB, "Bob")
        await service.start(CHANNEL, ALICE)
        # The first commit of `endtable` before 0003: the refund, without the end.
        await service._chips.refund(table.id)
    finally:
        await db.close()
    return "an end that a crash interrupted", (1000, 1000)


async def _unreplayable(path: Path) -> tuple[str, tuple[int, int] | None]:
    db = await Database.open(path)
    try:
        service = make_services(db, ManualClock(), 1)
        table = await service.open_table(
            guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, host_name="Alice"
        )
        await service.join(CHANNEL, BOB, "Bob")
        await service.start(CHANNEL, ALICE)
        state = table.state
        assert state is not None
        user = table.seats[state.current].user_id
        assert user is not None
        await service.act(CHANNEL, user, table.legal()[0], version=table.version)
    finally:
        await db.close()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE game_actions SET notation = 'discard 9-9' WHERE seq = 1")
    return "cannot be rebuilt", (1000, 1000)


BROKEN: dict[str, Builder] = {
    "unpaid win": _unpaid_win,
    "unrefunded draw": _unrefunded_draw,
    "unpaid difference": _unpaid_difference,
    "lobby holding antes": _lobby_holding_antes,
    "interrupted endtable": _interrupted_endtable,
    "unreplayable game": _unreplayable,
}


@pytest.mark.parametrize("name", list(BROKEN))
def test_db_check_fails_and_db_repair_fixes(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "kap.db"
    words, expected = asyncio.run(BROKEN[name](path))
    capsys.readouterr()
    assert dbtool.main(["check", "--path", str(path)]) == 1
    out = capsys.readouterr().out
    assert words in out, out
    assert dbtool.main(["repair", "--path", str(path)]) == 0
    out = capsys.readouterr().out
    assert "repair(s):" in out and "the invariant holds" in out, out
    assert dbtool.main(["check", "--path", str(path)]) == 0
    assert dbtool.main(["repair", "--path", str(path)]) == 0  # nothing left: a no-op
    assert "nothing to repair" in capsys.readouterr().out
    if expected is not None:
        assert asyncio.run(_balances(path)) == expected


@pytest.mark.parametrize("name", list(BROKEN))
def test_the_bot_start_up_repairs_by_itself(name: str, tmp_path: Path) -> None:
    path = tmp_path / "kap.db"
    _, expected = asyncio.run(BROKEN[name](path))

    async def start() -> TableService:
        db = await Database.open(path)
        try:
            service = make_services(db, ManualClock(), 1)
            await service.restore()
            # The channel is usable: a new table (or the repaired lobby) is there to play.
            table = service.get(CHANNEL)
            if table is None or not table.status.is_open:
                table = await service.open_table(
                    guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, host_name="Alice"
                )
            return service
        finally:
            await db.close()

    service = asyncio.run(start())
    assert dbtool.main(["check", "--path", str(path)]) == 0
    if name == "unreplayable game":
        assert [q.channel_id for q in service.quarantined] == [CHANNEL]
    if expected is not None:
        assert asyncio.run(_balances(path)) == expected


def test_a_repaired_lobby_starts_again_with_fresh_antes(tmp_path: Path) -> None:
    path = tmp_path / "kap.db"
    asyncio.run(_lobby_holding_antes(path))

    async def go() -> None:
        db = await Database.open(path)
        try:
            service = make_services(db, ManualClock(), 1)
            [table] = await service.restore()
            assert table.status is GameStatus.LOBBY and len(table.seats) == 2
            await service.start(CHANNEL, ALICE)
            assert await service._chips.balance(GUILD, ALICE) == 990
            pot = await service._chips.pot(table.id)
            assert pot is not None and pot.total == 20
        finally:
            await db.close()

    asyncio.run(go())


def test_db_info_lists_broken_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "kap.db"
    asyncio.run(_unreplayable(path))
    assert dbtool.main(["repair", "--path", str(path)]) == 0
    capsys.readouterr()
    assert dbtool.main(["info", "--path", str(path)]) == 0
    out = capsys.readouterr().out
    assert "1 broken" in out and f"channel {CHANNEL}" in out and "NotationError" in out


def test_repair_refuses_beside_a_running_bot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "kap.db"
    assert dbtool.main(["migrate", "--path", str(path)]) == 0
    lock = ProcessLock.acquire(path)
    try:
        capsys.readouterr()
        assert dbtool.main(["repair", "--path", str(path)]) == 2
        err = capsys.readouterr().err
        assert "in use by another bot process" in err and "pid" in err
        assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    finally:
        lock.release()
    assert dbtool.main(["repair", "--path", str(path)]) == 0


@pytest.mark.parametrize("kind", ["directory", "not sqlite", "missing"])
def test_unusable_paths_are_one_line(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "kap.db"
    if kind == "directory":
        path.mkdir()
    elif kind == "not sqlite":
        path.write_bytes(b"this is not a database, just some text " * 100)
    for command in ("check", "info", "repair"):
        assert dbtool.main([command, "--path", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("kapshap db: ") and len(err.strip().splitlines()) == 1, err
        assert "Traceback" not in err
