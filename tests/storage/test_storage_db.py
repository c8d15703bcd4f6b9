"""The connection: pragmas, migrations, transactions and their serialisation."""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from pathlib import Path

import pytest

from bot.storage.db import Database, Migration, load_migrations
from bot.storage.errors import IntegrityError, MigrationError, NestedTransactionError, StorageError

CREATE_T = Migration(1, "t", "CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER NOT NULL);")
ADD_U = Migration(2, "u", "CREATE TABLE u (id INTEGER PRIMARY KEY);\nINSERT INTO u VALUES (7);")


async def _tables(db: Database) -> set[str]:
    async with db.read() as tx:
        rows = await tx.fetchall("SELECT name FROM sqlite_schema WHERE type = 'table'")
    return {row[0] for row in rows}


async def test_open_creates_the_file_sets_pragmas_and_migrates(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "dir" / "bot.db"
    db = await Database.open(path)
    try:
        assert path.exists()
        latest = load_migrations()[-1].version
        assert db.schema_version == latest
        async with db.read() as tx:
            assert await tx.scalar("PRAGMA user_version") == latest
            assert await tx.scalar("PRAGMA journal_mode") == "wal"
            assert await tx.scalar("PRAGMA synchronous") == 1  # NORMAL
            assert await tx.scalar("PRAGMA busy_timeout") == 5000
            assert await tx.scalar("PRAGMA foreign_keys") == 1
        assert {"accounts", "ledger", "escrow", "pots", "carried_pots", "guild_config"} <= (
            await _tables(db)
        )
        assert {"games", "game_actions"} <= await _tables(db)
    finally:
        await db.close()


def test_the_packaged_migrations_are_found_and_numbered() -> None:
    migrations = load_migrations()
    assert migrations[0].version == 1
    assert migrations[0].name == "initial"
    assert [m.version for m in migrations] == list(range(1, len(migrations) + 1))
    assert "CREATE TABLE accounts" in migrations[0].sql


async def test_reopening_is_idempotent_and_keeps_the_data(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    db = await Database.open(path)
    async with db.transaction() as tx:
        await tx.execute(
            "INSERT INTO accounts (guild_id, user_id, balance, created_at) VALUES (1, 2, 3, 'x')"
        )
    version, tables = db.schema_version, await _tables(db)
    await db.close()

    again = await Database.open(path)
    try:
        assert again.schema_version == version
        assert await _tables(again) == tables
        async with again.read() as tx:
            assert await tx.scalar("SELECT balance FROM accounts") == 3
    finally:
        await again.close()


async def test_only_new_migrations_are_applied(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    db = await Database.open(path, migrations=[CREATE_T])
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO t (v) VALUES (1)")
    await db.close()

    # Were 0001 applied again, CREATE TABLE t would fail ("table t already exists").
    db = await Database.open(path, migrations=[CREATE_T, ADD_U])
    try:
        assert db.schema_version == 2
        async with db.read() as tx:
            assert await tx.scalar("SELECT COUNT(*) FROM t") == 1
            assert await tx.scalar("SELECT id FROM u") == 7
    finally:
        await db.close()


async def test_a_failing_migration_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    db = await Database.open(path, migrations=[CREATE_T])
    await db.close()
    broken = Migration(2, "broken", "CREATE TABLE v (id INTEGER);\nINSERT INTO nowhere VALUES (1);")
    with pytest.raises(sqlite3.OperationalError, match="nowhere"):
        await Database.open(path, migrations=[CREATE_T, broken])

    db = await Database.open(path, migrations=[CREATE_T])
    try:
        assert db.schema_version == 1
        assert "v" not in await _tables(db)  # the half-applied migration was rolled back
    finally:
        await db.close()


async def test_a_migration_breaking_a_foreign_key_is_refused(tmp_path: Path) -> None:
    parent = Migration(1, "p", "CREATE TABLE p (id INTEGER PRIMARY KEY);")
    child = Migration(
        2,
        "c",
        "CREATE TABLE c (p_id INTEGER REFERENCES p (id));\nINSERT INTO c VALUES (42);",
    )
    with pytest.raises(MigrationError, match="foreign key"):
        await Database.open(tmp_path / "fk.db", migrations=[parent, child])
    db = await Database.open(tmp_path / "fk.db", migrations=[parent])
    try:
        assert db.schema_version == 1
    finally:
        await db.close()


async def test_a_database_newer_than_the_code_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    await (await Database.open(path, migrations=[CREATE_T, ADD_U])).close()
    with pytest.raises(MigrationError, match="newer"):
        await Database.open(path, migrations=[CREATE_T])


def test_migration_files_must_be_numbered_without_gaps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "fake_migrations_pkg"
    (package / "migrations").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "migrations" / "0001_a.sql").write_text("SELECT 1;")
    (package / "migrations" / "0003_c.sql").write_text("SELECT 1;")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "fake_migrations_pkg", raising=False)
    with pytest.raises(MigrationError, match="expected 0002"):
        load_migrations("fake_migrations_pkg")

    (package / "migrations" / "0003_c.sql").unlink()
    (package / "migrations" / "2_bad-name.sql").write_text("SELECT 1;")
    with pytest.raises(MigrationError, match="NNNN_name"):
        load_migrations("fake_migrations_pkg")


async def test_a_transaction_commits_or_rolls_back_whole(db: Database) -> None:
    insert = "INSERT INTO accounts (guild_id, user_id, balance, created_at) VALUES (1, ?, 10, 'x')"
    async with db.transaction() as tx:
        await tx.execute(insert, (1,))
    with pytest.raises(RuntimeError):
        async with db.transaction() as tx:
            await tx.execute(insert, (2,))
            raise RuntimeError("boom")
    with pytest.raises(IntegrityError):
        async with db.transaction() as tx:
            await tx.execute(insert, (3,))
            await tx.execute(insert, (1,))  # duplicate primary key
    async with db.read() as tx:
        users = [r[0] for r in await tx.fetchall("SELECT user_id FROM accounts ORDER BY 1")]
    assert users == [1]


async def test_concurrent_transactions_never_interleave(db: Database) -> None:
    async with db.transaction() as tx:
        await tx.execute(
            "INSERT INTO accounts (guild_id, user_id, balance, created_at) VALUES (1, 1, 0, 'x')"
        )

    async def increment() -> None:
        # Read, yield to the other tasks, write back: a lost update would show if two of these
        # could run inside one transaction at the same time.
        async with db.transaction() as tx:
            value = await tx.scalar("SELECT balance FROM accounts")
            await asyncio.sleep(0)
            await tx.execute("UPDATE accounts SET balance = ?", (value + 1,))

    async def failing() -> None:
        async with db.transaction() as tx:
            await tx.execute("UPDATE accounts SET balance = balance + 1000")
            await asyncio.sleep(0)
            raise ValueError("rolled back")

    results = await asyncio.gather(
        *(increment() for _ in range(30)), *(failing() for _ in range(5)), return_exceptions=True
    )
    assert sum(isinstance(r, ValueError) for r in results) == 5
    async with db.read() as tx:
        assert await tx.scalar("SELECT balance FROM accounts") == 30


async def test_a_nested_transaction_is_an_error_not_a_deadlock(db: Database) -> None:
    async with db.transaction():
        with pytest.raises(NestedTransactionError):
            async with db.transaction():
                pass
        with pytest.raises(NestedTransactionError):
            async with db.read():
                pass
    # The outer transaction and the lock are still usable afterwards.
    async with db.transaction() as tx:
        assert await tx.scalar("SELECT 1") == 1


async def test_a_tx_cannot_be_used_after_its_block(db: Database) -> None:
    async with db.transaction() as tx:
        pass
    with pytest.raises(StorageError, match="ended"):
        await tx.scalar("SELECT 1")


async def test_a_cancelled_transaction_is_rolled_back(db: Database) -> None:
    started = asyncio.Event()

    async def slow() -> None:
        async with db.transaction() as tx:
            await tx.execute(
                "INSERT INTO accounts (guild_id, user_id, balance, created_at) "
                "VALUES (1, 1, 5, 'x')"
            )
            started.set()
            await asyncio.sleep(3600)

    task = asyncio.create_task(slow())
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    async with db.read() as tx:
        assert await tx.scalar("SELECT COUNT(*) FROM accounts") == 0
    async with db.transaction() as tx:  # and the connection is not stuck in a transaction
        assert await tx.scalar("SELECT 1") == 1


async def test_close_is_idempotent_and_final(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "c.db")
    await db.close()
    await db.close()
    with pytest.raises(StorageError, match="closed"):
        async with db.transaction():
            pass


async def test_explain_query_plan_returns_the_plan_lines(db: Database) -> None:
    plan = await db.explain_query_plan(
        "SELECT user_id FROM accounts WHERE guild_id = ? ORDER BY balance DESC, user_id", (1,)
    )
    assert any("accounts_by_balance" in line for line in plan)
