"""``kapshap db copy``: a real history moved from SQLite to PostgreSQL (and back), row for row."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main as kapshap
from bot.services.chips import ChipsDefaults, ChipsService
from bot.services.clock import ManualClock
from bot.services.ratings import RatingService
from bot.storage.copy import DERIVED_TABLES, CopyError, copy_database, list_tables
from bot.storage.db import Database
from bot.storage.errors import IntegrityError
from bot.storage.lock import ProcessLock
from bot.storage.tournament_boards import BoardsRepo
from bot.storage.tournaments import MatchRow, TournamentsRepo
from tests.crash import scenario

WHEN = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)


async def _fill(path: Path) -> None:
    """A server's history, in every table: the crash scenario's chips and games (every
    ending), their ratings, a drawn pot carried over, a tournament with entries and a match,
    settings of each kind, the bot's own rows."""
    await scenario.run(path, path.with_suffix(".journal"))
    db = await Database.open(path)
    try:
        clock = ManualClock()
        assert await RatingService(db, clock).record_missing() > 0
        chips = ChipsService(db, clock, ChipsDefaults())
        await chips.escrow_antes("drawn-1", scenario.GUILD, {scenario.ALICE: 5}, channel_id=140)
        await chips.carry_over("drawn-1")
        repo = TournamentsRepo()
        async with db.transaction() as tx:
            event = await repo.create(
                tx,
                guild_id=scenario.GUILD,
                channel_id=120,
                name="Friday cup",
                organiser_id=scenario.ALICE,
                settings={"format": "swiss", "rounds": 3},
                options={},
                closes_at=None,
                created_at=WHEN,
            )
            for user in (scenario.ALICE, scenario.BOB):
                await repo.add_entry(tx, event, user, f"player {user}", None, WHEN)
            await repo.put_match(tx, event, MatchRow("m1", 1, 555, ["g-1"], [], {"g-1": [1, 2]}))
            # Its no-show window, with a Ready press (migration 0013).
            await repo.open_window(tx, event, 1, "m1", 1764201900.5)
            await repo.mark_ready(tx, event, 1, "m1", scenario.BOB)
            # Its live standings board, posted again after a deletion (migration *_boards).
            await BoardsRepo().drawn(tx, event, 556, 4, 1764201901.25)
            await repo.set_organiser_role(tx, scenario.GUILD, 777)
            await tx.execute(
                "INSERT INTO guild_play_config (guild_id, language) VALUES (?, 'zh-TW')",
                (scenario.GUILD,),
            )
            await tx.execute(
                "INSERT INTO member_settings (user_id, notices, reviews, guide) "
                "VALUES (?, 1, 0, 1)",
                (scenario.BOB,),
            )
            await tx.execute(
                "INSERT INTO guild_config (guild_id, ante, updated_at) VALUES (?, 25, ?)",
                (scenario.GUILD, WHEN.isoformat()),
            )
            game = await tx.scalar("SELECT id FROM games ORDER BY rowid LIMIT 1")
            await tx.execute(
                "INSERT INTO game_messages (game_id, user_id, kind, channel_id, message_id) "
                "VALUES (?, ?, 'hand', 901, 902)",
                (game, scenario.BOB),
            )
            await tx.execute(
                "INSERT INTO game_hints (game_id, seq, seat, turn, move, created_at) "
                "VALUES (?, 1, 0, 1, 'draw', 1700000000.0)",
                (game,),
            )
            await tx.execute(
                "INSERT INTO heartbeat (id, seen_at) VALUES (1, ?)", (WHEN.isoformat(),)
            )
            await tx.execute("INSERT INTO bot_state (key, value) VALUES ('commands', 'abc')")
            # What the processes sharing a database keep (migration 0009).
            await tx.execute(
                "INSERT INTO processed_interactions (key, game_id, created_at) "
                "VALUES ('1234567890', ?, 1764201600.25)",
                (game,),
            )
            await tx.execute(
                "INSERT INTO table_edits (game_id, edited_at, version) VALUES (?, 1764201601.5, 3)",
                (game,),
            )
            # Puzzles: a solver, his answer, a server's daily channel and its post (0010).
            await tx.execute(
                "INSERT INTO puzzle_solvers (guild_id, user_id, rating, solved, failed, streak, "
                "best_streak, updated_at) VALUES (?, ?, 1520.5, 1, 0, 1, 1, ?)",
                (scenario.GUILD, scenario.BOB, WHEN.isoformat()),
            )
            await tx.execute(
                "INSERT INTO puzzle_attempts (guild_id, user_id, game, puzzle, answer, solved, "
                "rating_before, rating_after, answered_at) "
                "VALUES (?, ?, 'kap-shap', 7, 'discard 6-6', 1, 1500.0, 1520.5, ?)",
                (scenario.GUILD, scenario.BOB, WHEN.isoformat()),
            )
            await tx.execute(
                "INSERT INTO puzzle_daily (guild_id, channel_id, set_by, updated_at) "
                "VALUES (?, 905, ?, ?)",
                (scenario.GUILD, scenario.BOB, WHEN.isoformat()),
            )
            await tx.execute(
                "INSERT INTO puzzle_daily_posts (guild_id, day, channel_id, game, puzzle, due_at, "
                "posted_at, message_id) VALUES (?, '2024-01-01', 905, 'kap-shap', 7, ?, ?, 906)",
                (scenario.GUILD, WHEN.isoformat(), WHEN.isoformat()),
            )
            await tx.execute(
                "INSERT INTO rating_model (id, params_json, updated_at) VALUES (1, '{}', ?)",
                (WHEN.isoformat(),),
            )
            # A member's progress through the lessons (migration 0011).
            await tx.execute(
                "INSERT INTO lesson_progress (user_id, lesson, step, mistakes, done, stars, "
                "updated_at) VALUES (?, 'kap-shap-tiles', 2, 1, 0, 0, 1764201602.0)",
                (scenario.BOB,),
            )
    finally:
        await db.close()


@pytest.fixture
async def history(tmp_path: Path) -> Path:
    """A SQLite file holding a real history."""
    path = tmp_path / "source.sqlite3"
    await _fill(path)
    return path


async def dump(target: str | Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every table's rows as sorted tuples (the columns a copy writes, in one order), and the
    games' ids in the order they were created (``games!order``)."""
    db = await Database.open(target)
    try:
        async with db.read() as tx:
            tables = await list_tables(db, tx)
            out: dict[str, list[tuple[Any, ...]]] = {}
            for name, table in tables.items():
                columns = ", ".join(sorted(table.columns))
                rows = await tx.fetchall(f"SELECT {columns} FROM {name}")
                out[name] = sorted((tuple(row) for row in rows), key=repr)
            out["games!order"] = [
                (row[0],) for row in await tx.fetchall("SELECT id FROM games ORDER BY rowid")
            ]
    finally:
        await db.close()
    return out


async def _copy(source: str | Path, target: str | Path) -> Any:
    src = await Database.open(source)
    dst = await Database.open(target)
    try:
        return await copy_database(src, dst)
    finally:
        await dst.close()
        await src.close()


async def test_every_table_of_a_real_history_reaches_postgresql(history: Path, pg_url: str) -> None:
    before = await dump(history)
    assert all(before.values())  # the history reaches every table
    result = await _copy(history, pg_url)
    assert result.same and result.source_totals.ok and not result.target_problems
    assert result.source_totals.minted > 0
    assert sum(result.rows.values()) == sum(
        len(rows) for name, rows in before.items() if name != "games!order"
    )
    assert await dump(pg_url) == before


async def test_back_from_postgresql_and_between_files(
    history: Path, pg_url: str, tmp_path: Path
) -> None:
    before = await dump(history)
    await _copy(history, pg_url)
    back = tmp_path / "back.sqlite3"
    result = await _copy(pg_url, back)
    assert result.same
    assert await dump(back) == before
    again = tmp_path / "again.sqlite3"
    assert (await _copy(back, again)).same
    assert await dump(again) == before


async def test_the_bot_inserts_after_a_copy_without_colliding(history: Path, pg_url: str) -> None:
    await _copy(history, pg_url)
    db = await Database.open(pg_url)
    try:
        clock = ManualClock()
        chips = ChipsService(db, clock, ChipsDefaults(starting_chips=1000, daily_amount=100))
        service = scenario.make_services(db, clock, 7)
        async with db.read() as tx:
            last_ledger = await tx.scalar("SELECT MAX(id) FROM ledger")
            last_event = await tx.scalar("SELECT MAX(id) FROM tournaments")
            last_game = await tx.scalar("SELECT MAX(rowid) FROM games")
        await chips.daily(scenario.GUILD, 4242)  # a new member: an account and ledger rows
        table = await service.open_table(
            guild_id=scenario.GUILD, channel_id=130, host_id=4242, host_name="Newcomer"
        )
        async with db.transaction() as tx:
            event = await TournamentsRepo().create(
                tx,
                guild_id=scenario.GUILD,
                channel_id=131,
                name="after the move",
                organiser_id=4242,
                settings={},
                options={},
                closes_at=None,
                created_at=WHEN,
            )
        async with db.read() as tx:
            assert await tx.scalar("SELECT MIN(id) FROM ledger WHERE user_id = 4242") > last_ledger
            assert event == last_event + 1
            assert await tx.scalar("SELECT rowid FROM games WHERE id = ?", (table.id,)) > last_game
            newest = await tx.scalar("SELECT id FROM games ORDER BY rowid DESC LIMIT 1")
            assert newest == table.id
    finally:
        await db.close()


async def test_derived_counts_end_as_the_source_has_them(history: Path, pg_url: str) -> None:
    with sqlite3.connect(history) as conn:
        # Not what the triggers would count: the copy must keep the source's rows as they are.
        conn.execute("UPDATE account_counts SET accounts = accounts + 5")
        conn.execute("UPDATE member_rating_counts SET members = members + 2")
    before = await dump(history)
    await _copy(history, pg_url)
    after = await dump(pg_url)
    for name in DERIVED_TABLES:
        assert after[name] == before[name] and before[name]


async def test_a_target_holding_any_row_is_refused_and_left_as_it_was(
    history: Path, pg_url: str, tmp_path: Path
) -> None:
    db = await Database.open(pg_url)
    try:
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO bot_state (key, value) VALUES ('x', 'y')")
    finally:
        await db.close()
    with pytest.raises(CopyError, match=r"not empty .*bot_state"):
        await _copy(history, pg_url)
    assert {name: rows for name, rows in (await dump(pg_url)).items() if rows} == {
        "bot_state": [("x", "y")]
    }


async def test_a_failing_copy_leaves_the_target_empty(history: Path, pg_url: str) -> None:
    with sqlite3.connect(history) as conn:
        # A move of a game that does not exist: SQLite kept it (its foreign keys were off for
        # this connection), PostgreSQL refuses it when game_actions is copied, after the games.
        conn.execute(
            "INSERT INTO game_actions (game_id, seq, seat, notation, created_at) "
            "VALUES ('no-such-game', 1, 0, 'x', '2026-01-01T00:00:00+00:00')"
        )
    with pytest.raises(IntegrityError):
        await _copy(history, pg_url)
    assert not any(rows for rows in (await dump(pg_url)).values())


def test_the_command_says_in_one_line_that_nothing_was_copied(
    history: Path, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with sqlite3.connect(history) as conn:
        conn.execute(
            "INSERT INTO game_actions (game_id, seq, seat, notation, created_at) "
            "VALUES ('no-such-game', 1, 0, 'x', '2026-01-01T00:00:00+00:00')"
        )
    assert kapshap(["db", "copy", str(history), pg_url]) == 1
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "nothing was copied" in err
    assert kapshap(["db", "info", "--url", pg_url]) == 0
    assert "accounts: 0" in capsys.readouterr().out


def test_the_command_copies_and_prints_the_same_totals_as_db_check(
    history: Path, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert kapshap(["db", "check", "--path", str(history)]) == 0
    checked = capsys.readouterr().out.splitlines()[0]
    assert checked.startswith("balances ")
    assert kapshap(["db", "copy", str(history), pg_url]) == 0
    out = capsys.readouterr().out
    assert f"source: {checked}; 0 problem(s)" in out
    assert f"target: {checked}; 0 problem(s)" in out
    assert kapshap(["db", "check", "--url", pg_url]) == 0
    assert capsys.readouterr().out.splitlines()[0] == checked
    # Again into the same database: refused in one line, status 2.
    assert kapshap(["db", "copy", str(history), pg_url]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "not empty" in err


def test_bad_sources_and_targets_are_one_line_without_the_password(
    history: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    unreachable = "postgresql://kap:s3cret-pw@127.0.0.1:1/kapshap"
    assert kapshap(["db", "copy", str(history), unreachable]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "s3cret-pw" not in err
    assert "kap:***@127.0.0.1:1" in err
    assert kapshap(["db", "copy", str(tmp_path / "missing.sqlite3"), str(tmp_path / "t")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert not (tmp_path / "t").exists()
    assert kapshap(["db", "copy", str(history), str(history)]) == 2
    assert "same file" in capsys.readouterr().err
    assert kapshap(["db", "copy", str(history), "mysql://x@y/z"]) == 2
    assert "neither a file path nor a postgresql:// URL" in capsys.readouterr().err
    assert kapshap(["db", "copy", str(history)]) == 2
    assert "SOURCE TARGET" in capsys.readouterr().err


async def test_both_backends_list_the_same_tables_and_columns(tmp_path: Path, pg_url: str) -> None:
    """What the copy finds by introspection agrees on the two backends (games.rowid, numbered
    by each database itself, is not copied), and the derived tables are among them."""
    found = []
    for target in (tmp_path / "t.sqlite3", pg_url):
        db = await Database.open(target)
        try:
            async with db.read() as tx:
                tables = await list_tables(db, tx)
        finally:
            await db.close()
        found.append({name: (t.columns, t.kinds, t.parents) for name, t in tables.items()})
    assert found[0] == found[1]
    assert set(DERIVED_TABLES) <= set(found[0])
    assert "games" in found[0]["game_actions"][2]


def test_a_bot_still_running_on_the_file_is_named_and_nothing_copied(
    history: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lock = ProcessLock.acquire(history)  # as a running bot holds it
    try:
        target = tmp_path / "target.sqlite3"
        assert kapshap(["db", "copy", str(history), str(target)]) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and "in use by another bot process" in err
        assert not target.exists()
    finally:
        lock.release()
