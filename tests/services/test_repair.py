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
from bot.storage.tournaments import TournamentsRepo
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


async def _running(path: Path) -> str:
    """A two-member game started (antes of 10 held) and one move played; its id."""
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
        return table.id
    finally:
        await db.close()


def _delete_pot(path: Path, pot_id: str) -> None:
    """What an operator's stray ``DELETE`` does (the sqlite3 shell enforces no foreign key)."""
    with sqlite3.connect(path) as conn:
        assert conn.execute("DELETE FROM pots WHERE game_id = ?", (pot_id,)).rowcount == 1


async def _running_pot_deleted(path: Path) -> tuple[str, tuple[int, int] | None]:
    _delete_pot(path, await _running(path))
    return "holds 20 chips in escrow (2 member(s)) but its pot row is gone", (990, 990)


async def _tournament_pot_deleted(path: Path) -> tuple[str, tuple[int, int] | None]:
    db = await Database.open(path)
    try:
        clock = ManualClock()
        chips = make_services(db, clock, 1)._chips
        async with db.transaction() as tx:
            tid = await TournamentsRepo().create(
                tx,
                guild_id=GUILD,
                channel_id=CHANNEL,
                name="Cup",
                organiser_id=ALICE,
                settings={},
                options={},
                closes_at=None,
                created_at=clock.now(),
            )
        pot = f"tournament:{tid}"
        for user in (ALICE, BOB):
            await chips.buy_in(pot, GUILD, user, 40, f"ante:{pot}:{user}:1")
        # Bob leaves and comes back: his escrow is his antes minus his refund.
        await chips.refund_member(pot, BOB, f"refund:{pot}:{BOB}:1")
        await chips.buy_in(pot, GUILD, BOB, 40, f"ante:{pot}:{BOB}:2")
    finally:
        await db.close()
    _delete_pot(path, pot)
    return "holds 80 chips in escrow (2 member(s)) but its pot row is gone", (960, 960)


BROKEN: dict[str, Builder] = {
    "running game's pot row deleted": _running_pot_deleted,
    "tournament's pot row deleted": _tournament_pot_deleted,
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


async def _finish(service: TableService) -> tuple[int, int]:
    """Play the channel's game to its end (random moves); Alice's and Bob's balances."""
    table = service.get(CHANNEL)
    assert table is not None and table.running
    rng = random.Random(7)
    while table.running:
        state = table.state
        assert state is not None
        user = table.seats[state.current].user_id
        assert user is not None
        await service.act(CHANNEL, user, rng.choice(table.legal()), version=table.version)
    chips = service._chips
    return await chips.balance(GUILD, ALICE), await chips.balance(GUILD, BOB)


def _paid_in_full(balances: tuple[int, int]) -> bool:
    """The game's 20 chips of antes went back to the members: won (1010/990) or drawn."""
    return sum(balances) == 2000 and sorted(balances) in ([990, 1010], [1000, 1000])


def test_a_game_whose_pot_row_was_deleted_pays_its_winner_after_a_restart(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "kap.db"
    asyncio.run(_running_pot_deleted(path))

    async def go() -> tuple[int, int]:
        db = await Database.open(path)
        try:
            service = make_services(db, ManualClock(), 1)
            await service.restore()
            assert any("pot row was gone; rebuilt it" in line for line in service.repairs)
            return await _finish(service)
        finally:
            await db.close()

    assert _paid_in_full(asyncio.run(go()))
    assert "start-up repair: Game" in caplog.text
    assert dbtool.main(["check", "--path", str(path)]) == 0


def test_a_pot_row_deleted_under_a_running_bot_is_rebuilt_at_settlement(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "kap.db"

    async def go() -> tuple[int, int]:
        db = await Database.open(path)
        try:
            service = make_services(db, ManualClock(), 1)
            table = await service.open_table(
                guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, host_name="Alice"
            )
            await service.join(CHANNEL, BOB, "Bob")
            await service.start(CHANNEL, ALICE)
            _delete_pot(path, table.id)
            return await _finish(service)
        finally:
            await db.close()

    assert _paid_in_full(asyncio.run(go()))
    assert "its pot row was gone; rebuilt it from the ledger" in caplog.text
    assert dbtool.main(["check", "--path", str(path)]) == 0


def _tamper(path: Path, *statements: str) -> None:
    with sqlite3.connect(path) as conn:
        for statement in statements:
            conn.execute(statement)


async def _pot_and_escrow_tampered(path: Path) -> str:
    game = await _running(path)
    _tamper(
        path,
        f"DELETE FROM pots WHERE game_id = '{game}'",
        f"UPDATE escrow SET amount = 5 WHERE game_id = '{game}' AND user_id = {BOB}",
        f"UPDATE accounts SET balance = balance + 5 WHERE user_id = {BOB}",
    )
    return "holds 15 chips in escrow (2 member(s)) but its pot row is gone"


async def _won(path: Path) -> str:
    """A two-member game won by Alice (Bob resigns); its id."""
    db = await Database.open(path)
    try:
        service = make_services(db, ManualClock(), 1)
        table = await service.open_table(
            guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, host_name="Alice"
        )
        await service.join(CHANNEL, BOB, "Bob")
        await service.start(CHANNEL, ALICE)
        await service.resign(CHANNEL, BOB)
        assert table.status is GameStatus.FINISHED
        return table.id
    finally:
        await db.close()


async def _paid_pot_amount_edited(path: Path) -> str:
    game = await _won(path)
    _tamper(path, f"UPDATE pots SET settled_amount = 2, winner_id = 5 WHERE game_id = '{game}'")
    return "is paid with 2 chips but its payouts add up to 20"


async def _paid_pot_deleted(path: Path) -> str:
    game = await _won(path)
    _delete_pot(path, game)
    return "ledger moved chips through its pot (3 row(s)) but its pot row is gone"


async def _ledger_of_no_account(path: Path) -> str:
    await (await Database.open(path)).close()
    # A gift between two members whose accounts were deleted: every sum still balances.
    _tamper(
        path,
        "INSERT INTO ledger (guild_id, user_id, delta, balance_after, kind, idem_key, created_at) "
        "VALUES (1, 5, -5, 0, 'give_out', 'g', '2026-01-01T00:00:00+00:00'), "
        "(1, 6, 5, 5, 'give_in', 'g:in', '2026-01-01T00:00:00+00:00')",
    )
    return "2 row(s) of ledger refer to accounts rows that do not exist"


UNREPAIRABLE: dict[str, Callable[[Path], Awaitable[str]]] = {
    "pot deleted and escrow edited": _pot_and_escrow_tampered,
    "paid pot's amount and winner edited": _paid_pot_amount_edited,
    "paid pot deleted": _paid_pot_deleted,
    "ledger rows of no account": _ledger_of_no_account,
}


@pytest.mark.parametrize("name", list(UNREPAIRABLE))
def test_db_repair_says_what_it_cannot_repair_and_fails(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "kap.db"
    words = asyncio.run(UNREPAIRABLE[name](path))
    capsys.readouterr()
    assert dbtool.main(["check", "--path", str(path)]) == 1
    out = capsys.readouterr().out
    assert words in out and "the invariant holds" not in out, out
    assert dbtool.main(["repair", "--path", str(path)]) == 1
    out = capsys.readouterr().out
    assert "that `kapshap db repair` cannot fix" in out and words in out, out
    if name == "pot deleted and escrow edited":
        assert "cannot rebuild 1 pot(s)" in out
        assert "its escrow (15 chips) differs from the antes its ledger took (20 chips)" in out


def test_the_paid_pot_check_names_a_wrong_winner(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "kap.db"
    asyncio.run(_paid_pot_amount_edited(path))
    capsys.readouterr()
    assert dbtool.main(["check", "--path", str(path)]) == 1
    assert "names winner 5, who is not the one its ledger paid most" in capsys.readouterr().out


def test_the_bot_start_up_reports_a_pot_it_cannot_rebuild(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "kap.db"
    asyncio.run(_pot_and_escrow_tampered(path))

    async def go() -> tuple[int, int]:
        db = await Database.open(path)
        try:
            service = make_services(db, ManualClock(), 1)
            await service.restore()
            assert len(service.unrepaired) == 1
            return await _finish(service)
        finally:
            await db.close()

    # The game plays on; its escrow is left as it is (frozen, counted, named by the check).
    asyncio.run(go())
    assert "start-up repair cannot fix this" in caplog.text
    assert "its pot row is gone and cannot be rebuilt" in caplog.text
    assert dbtool.main(["check", "--path", str(path)]) == 1
