"""The PostgreSQL backend: its migrations, its schema against SQLite's, its concurrency, its faults.

Every test here runs on a real throwaway server (``pg_url``); the repositories' own tests run on
both backends through the ``db`` fixture.
"""

from __future__ import annotations

import asyncio
import logging
import random
from pathlib import Path

import asyncpg
import pytest

from bot.storage.db import Database, Migration, Tx, load_migrations, mask_url
from bot.storage.dialect import bind, to_numbered, to_postgresql_ddl
from bot.storage.errors import (
    DatabaseUnavailable,
    MigrationError,
    NestedTransactionError,
    StorageError,
)
from bot.storage.postgres import load_postgresql_migrations
from tests.postgres import PostgresServer

CREATE_T = Migration(1, "t", "CREATE TABLE t (id BIGINT PRIMARY KEY, v BIGINT NOT NULL);")
ADD_U = Migration(2, "u", "CREATE TABLE u (id BIGINT PRIMARY KEY);\nINSERT INTO u VALUES (7);")


# ---- the dialect ---------------------------------------------------------------------------


def test_placeholders_become_numbered_outside_strings_and_casts() -> None:
    assert to_numbered("SELECT ? + ?") == ("SELECT $1 + $2", None)
    text, names = to_numbered(
        "SELECT ':skip', \"a:b\", x::bigint, :guild, :user -- :comment\n, :guild"
    )
    assert text == "SELECT ':skip', \"a:b\", x::bigint, $1, $2 -- :comment\n, $1"
    assert names == ("guild", "user")
    assert to_numbered("SELECT 'it''s ?', ?") == ("SELECT 'it''s ?', $1", None)
    assert bind("SELECT :b, :a, :b", {"a": 1, "b": 2}) == ("SELECT $1, $2, $1", [2, 1])
    with pytest.raises(StorageError, match="mixes"):
        to_numbered("SELECT ?, :a")
    with pytest.raises(StorageError, match=":missing"):
        bind("SELECT :missing", {})


def test_a_shared_migration_is_translated_word_for_word() -> None:
    sql = (
        "-- a REAL comment on INTEGER\n"
        "CREATE TABLE x (a INTEGER NOT NULL, b REAL, c TEXT) STRICT, WITHOUT ROWID;\n"
        "CREATE TABLE y (a INTEGER PRIMARY KEY) STRICT;\n"
    )
    assert to_postgresql_ddl(sql) == (
        "\nCREATE TABLE x (a BIGINT NOT NULL, b DOUBLE PRECISION, c TEXT);\n"
        "CREATE TABLE y (a BIGINT PRIMARY KEY);"
    )


def test_the_postgresql_history_starts_at_the_baseline_and_follows_the_shared_one() -> None:
    history = load_postgresql_migrations()
    assert history[0].version == 8 and history[0].name == "baseline"
    assert [m.version for m in history] == list(range(8, load_migrations()[-1].version + 1))


def test_a_url_is_printed_without_its_password() -> None:
    assert mask_url("postgresql://bot:s3cret@db.example:5432/kap") == (
        "postgresql://bot:***@db.example:5432/kap"
    )
    assert mask_url("postgres://db/kap?password=s3cret&x=1") == (
        "postgres://db/kap?password=***&x=1"
    )
    assert mask_url("postgresql://bot@db/kap") == "postgresql://bot@db/kap"
    assert mask_url("data/kapshap.sqlite3") == "data/kapshap.sqlite3"
    assert "s3cret" not in mask_url("postgresql://bot:s3cret@[::1/kap")


def _package(root: Path, files: dict[str, str]) -> str:
    """A throwaway package holding migration files (``migrations/…``)."""
    name = f"migrations_{abs(hash(root)) % 10**8}"
    for relative, text in {"__init__.py": "", **files}.items():
        path = root / name / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return name


def test_a_shared_migration_is_translated_or_overridden_for_postgresql(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(tmp_path))
    sqlite_only = {f"migrations/{n:04d}_old.sql": "SELECT 1;" for n in range(1, 9)}
    package = _package(
        tmp_path,
        {
            **sqlite_only,
            "migrations/0009_shared.sql": "CREATE TABLE s (a INTEGER, b REAL) STRICT;",
            "migrations/0010_special.sql": "CREATE TABLE x (a INTEGER) WITHOUT ROWID;",
            "migrations/postgresql/0008_baseline.sql": "CREATE TABLE base (a BIGINT);",
            "migrations/postgresql/0010_special.sql": "CREATE TABLE x (a BIGSERIAL);",
        },
    )
    history = load_postgresql_migrations(package)
    assert [(m.version, m.name) for m in history] == [
        (8, "baseline"),
        (9, "shared"),
        (10, "special"),
    ]
    assert history[1].sql == "CREATE TABLE s (a BIGINT, b DOUBLE PRECISION);"
    assert history[2].sql == "CREATE TABLE x (a BIGSERIAL);"  # the override, as written


def test_a_postgresql_migration_without_a_shared_one_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(tmp_path))
    package = _package(
        tmp_path,
        {
            **{f"migrations/{n:04d}_old.sql": "SELECT 1;" for n in range(1, 9)},
            "migrations/postgresql/0008_baseline.sql": "SELECT 1;",
            "migrations/postgresql/0009_stray.sql": "SELECT 1;",
        },
    )
    with pytest.raises(MigrationError, match="0009_stray"):
        load_postgresql_migrations(package)


# ---- migrations ----------------------------------------------------------------------------


async def test_migrations_apply_once_and_a_failing_one_changes_nothing(pg_url: str) -> None:
    db = await Database.open(pg_url, migrations=[CREATE_T])
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO t (id, v) VALUES (1, 1)")
    await db.close()

    broken = Migration(
        2,
        "broken",
        "CREATE TABLE v (id BIGINT);\nALTER TABLE t ADD COLUMN w BIGINT;\n"
        "INSERT INTO nowhere VALUES (1);",
    )
    with pytest.raises(MigrationError, match=r"0002_broken failed.*nowhere"):
        await Database.open(pg_url, migrations=[CREATE_T, broken])

    db = await Database.open(pg_url, migrations=[CREATE_T, ADD_U])
    try:
        assert db.schema_version == 2
        async with db.read() as tx:
            assert await tx.scalar("SELECT COUNT(*) FROM t") == 1
            assert await tx.scalar("SELECT id FROM u") == 7
            # the broken migration's table and column were rolled back with it
            assert await tx.scalar("SELECT to_regclass('v') IS NULL") is True
            columns = await tx.fetchall(
                "SELECT column_name FROM information_schema.columns WHERE table_name = 't'"
            )
            assert sorted(row[0] for row in columns) == ["id", "v"]
    finally:
        await db.close()


async def test_a_database_newer_than_the_code_is_refused(pg_url: str) -> None:
    await (await Database.open(pg_url, migrations=[CREATE_T, ADD_U])).close()
    with pytest.raises(MigrationError, match="newer"):
        await Database.open(pg_url, migrations=[CREATE_T])


async def _sqlite_schema(tx: Tx) -> dict[str, object]:
    tables = [
        str(row[0])
        for row in await tx.fetchall(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    ]
    mapped = {"INTEGER": "bigint", "REAL": "double precision", "TEXT": "text"}
    schema: dict[str, object] = {}
    for table in tables:
        columns = await tx.fetchall(f"PRAGMA table_info({table})")
        keys = await tx.fetchall(f"PRAGMA foreign_key_list({table})")
        schema[table] = {
            "columns": {
                str(c["name"]): (mapped[str(c["type"])], bool(c["notnull"]) or c["pk"] > 0)
                for c in columns
            },
            "primary key": [
                str(c["name"]) for c in sorted(columns, key=lambda c: c["pk"]) if c["pk"]
            ],
            "foreign keys": sorted((str(k["from"]), str(k["table"]), str(k["to"])) for k in keys),
        }
    return schema


async def _postgresql_schema(tx: Tx) -> dict[str, object]:
    schema: dict[str, object] = {}
    tables = await tx.fetchall(
        "SELECT table_name FROM information_schema.tables "
        "WHERE table_schema = 'public' AND table_name <> 'schema_version'"
    )
    for (table,) in tables:
        columns = await tx.fetchall(
            "SELECT column_name, data_type, is_nullable FROM information_schema.columns "
            "WHERE table_schema = 'public' AND table_name = ? AND column_name <> 'rowid'",
            (table,),
        )
        primary = await tx.fetchall(
            "SELECT a.attname FROM pg_index AS i "
            "CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, n) "
            "JOIN pg_attribute AS a ON a.attrelid = i.indrelid AND a.attnum = k.attnum "
            "WHERE i.indrelid = CAST(? AS regclass) AND i.indisprimary ORDER BY k.n",
            (table,),
        )
        keys = await tx.fetchall(
            "SELECT a.attname, CAST(c.confrelid AS regclass)::text, b.attname "
            "FROM pg_constraint AS c "
            "CROSS JOIN LATERAL unnest(c.conkey, c.confkey) AS k(mine, theirs) "
            "JOIN pg_attribute AS a ON a.attrelid = c.conrelid AND a.attnum = k.mine "
            "JOIN pg_attribute AS b ON b.attrelid = c.confrelid AND b.attnum = k.theirs "
            "WHERE c.contype = 'f' AND c.conrelid = CAST(? AS regclass)",
            (table,),
        )
        schema[str(table)] = {
            "columns": {str(c[0]): (str(c[1]), c[2] == "NO") for c in columns},
            "primary key": [str(p[0]) for p in primary],
            "foreign keys": sorted((str(k[0]), str(k[1]), str(k[2])) for k in keys),
        }
    return schema


async def test_both_backends_have_the_same_schema_after_migrating(
    tmp_path: Path, pg_url: str
) -> None:
    sqlite = await Database.open(tmp_path / "schema.db")
    postgresql = await Database.open(pg_url)
    try:
        assert sqlite.schema_version == postgresql.schema_version == load_migrations()[-1].version
        async with sqlite.read() as tx:
            expected = await _sqlite_schema(tx)
        async with postgresql.read() as tx:
            found = await _postgresql_schema(tx)
        assert found == expected
        # PostgreSQL's explicit rowid stands where SQL orders by SQLite's hidden one.
        async with postgresql.read() as tx:
            assert (
                await tx.scalar(
                    "SELECT is_identity FROM information_schema.columns "
                    "WHERE table_name = 'games' AND column_name = 'rowid'"
                )
                == "YES"
            )
    finally:
        await sqlite.close()
        await postgresql.close()


async def test_the_counting_triggers_count_the_same(db: Database) -> None:
    async with db.transaction() as tx:
        for user in (1, 2, 3):
            await tx.execute(
                "INSERT INTO accounts (guild_id, user_id, balance, created_at) "
                "VALUES (5, ?, 0, 'x')",
                (user,),
            )
        await tx.execute("DELETE FROM accounts WHERE user_id = 2")
        for user, rating in ((1, None), (2, 10), (3, 20)):
            await tx.execute(
                "INSERT INTO member_ratings (guild_id, game, user_id, rating) "
                "VALUES (5, 'g', ?, ?)",
                (user, rating),
            )
        await tx.execute("UPDATE member_ratings SET rating = 7 WHERE user_id = 1")
        await tx.execute("UPDATE member_ratings SET rating = NULL WHERE user_id = 2")
        await tx.execute("UPDATE member_ratings SET rating = 9 WHERE user_id = 3")  # no change
        await tx.execute("DELETE FROM member_ratings WHERE user_id = 3")
    async with db.read() as tx:
        assert await tx.scalar("SELECT accounts FROM account_counts WHERE guild_id = 5") == 2
        row = await tx.fetchone(
            "SELECT members, rated FROM member_rating_counts WHERE guild_id = 5 AND game = 'g'"
        )
    assert row is not None and (row[0], row[1]) == (2, 1)


async def test_sums_are_integers_on_both_backends(db: Database) -> None:
    async with db.transaction() as tx:
        for user in (1, 2):
            await tx.execute(
                "INSERT INTO accounts (guild_id, user_id, balance, created_at) "
                "VALUES (5, ?, 3, 'x')",
                (user,),
            )
    async with db.read() as tx:
        total = await tx.scalar("SELECT SUM(balance) FROM accounts")
        nothing = await tx.scalar(
            "SELECT COALESCE(SUM(balance), 0) FROM accounts WHERE guild_id = 9"
        )
    assert (total, nothing) == (6, 0)
    assert type(total) is int and type(nothing) is int


# ---- concurrency ---------------------------------------------------------------------------


async def test_two_processes_worth_of_transfers_lose_no_update(pg_url: str) -> None:
    """Two Database objects (two pools, as two processes have) run read-modify-write transfers
    at once; the write lock makes them one at a time, so no update is lost."""
    first = await Database.open(pg_url)
    second = await Database.open(pg_url)
    members = range(1, 6)
    async with first.transaction() as tx:
        for user in members:
            await tx.execute(
                "INSERT INTO accounts (guild_id, user_id, balance, created_at) "
                "VALUES (1, ?, 100, 'x')",
                (user,),
            )
        await tx.execute("INSERT INTO bot_state (key, value) VALUES ('moves', '0')")
    rng = random.Random(20)

    async def transfer(database: Database, giver: int, taker: int) -> None:
        async with database.transaction() as tx:
            # Read, then write computed values: the race the serialisation must prevent.
            have = await tx.scalar(
                "SELECT balance FROM accounts WHERE guild_id = 1 AND user_id = ?", (giver,)
            )
            gets = await tx.scalar(
                "SELECT balance FROM accounts WHERE guild_id = 1 AND user_id = ?", (taker,)
            )
            moves = int(await tx.scalar("SELECT value FROM bot_state WHERE key = 'moves'"))
            await asyncio.sleep(0)  # let the other tasks run in between
            amount = min(have, 7)
            await tx.execute(
                "UPDATE accounts SET balance = ? WHERE guild_id = 1 AND user_id = ?",
                (have - amount, giver),
            )
            await tx.execute(
                "UPDATE accounts SET balance = ? WHERE guild_id = 1 AND user_id = ?",
                (gets + amount, taker),
            )
            await tx.execute(
                "UPDATE bot_state SET value = ? WHERE key = 'moves'", (str(moves + 1),)
            )

    try:
        jobs = []
        for n in range(120):
            giver, taker = rng.sample(list(members), 2)
            jobs.append(transfer(first if n % 2 else second, giver, taker))
        await asyncio.gather(*jobs)
        async with second.read() as tx:
            assert await tx.scalar("SELECT SUM(balance) FROM accounts") == 500
            assert await tx.scalar("SELECT value FROM bot_state WHERE key = 'moves'") == "120"
    finally:
        await first.close()
        await second.close()


async def test_reads_run_together_and_see_one_snapshot(pg_url: str) -> None:
    db = await Database.open(pg_url)
    other = await Database.open(pg_url)
    both_in = asyncio.Barrier(2)

    async def reader() -> tuple[int, int]:
        async with db.read() as tx:
            before = int(await tx.scalar("SELECT COUNT(*) FROM accounts"))
            await both_in.wait()  # two read blocks open at once, or this never returns
            async with other.transaction() as write:
                await write.execute(
                    "INSERT INTO accounts (guild_id, user_id, balance, created_at) "
                    "VALUES (1, ?, 0, 'x')",
                    (random.randrange(1, 2**40),),
                )
            after = int(await tx.scalar("SELECT COUNT(*) FROM accounts"))
        return before, after

    try:
        results = await asyncio.wait_for(asyncio.gather(reader(), reader()), timeout=60)
        assert all(before == after for before, after in results)  # one snapshot per block
        async with db.read() as tx:
            assert await tx.scalar("SELECT COUNT(*) FROM accounts") == 2
        with pytest.raises(NestedTransactionError):
            async with db.read(), db.transaction():
                pass
    finally:
        await db.close()
        await other.close()


# ---- named session locks (for shards and the start-up repair) --------------------------------


async def test_a_named_lock_is_held_by_one_database_until_released(pg_url: str) -> None:
    first = await Database.open(pg_url)
    second = await Database.open(pg_url)
    try:
        held = await first.hold("shard:0")
        assert held is not None and held.name == "shard:0"
        assert await second.hold("shard:0") is None
        assert await first.hold("shard:0") is None  # not twice in one process either
        other = await second.hold("shard:1")
        assert other is not None
        await held.release()
        await held.release()  # twice is harmless
        again = await second.hold("shard:0")
        assert again is not None
    finally:
        await first.close()
        await second.close()
    third = await Database.open(pg_url)
    try:  # closing released every lock
        assert await third.hold("shard:0") is not None
    finally:
        await third.close()


async def test_a_named_lock_on_sqlite_is_granted_once_per_process(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "h.db")
    try:
        held = await db.hold("repair")
        assert held is not None
        assert await db.hold("repair") is None
        await held.release()
        assert await db.hold("repair") is not None
    finally:
        await db.close()


# ---- faults --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("postgresql://bot:s3cret@127.0.0.1:1/kap", "refused"),
        ("postgresql://bot:s3cret@127.0.0.1:notaport/kap", "port"),
    ],
)
async def test_an_unusable_url_is_one_line_without_the_password(url: str, why: str) -> None:
    with pytest.raises(DatabaseUnavailable) as caught:
        await Database.open(url)
    message = str(caught.value)
    assert "s3cret" not in message and "\n" not in message
    assert message.startswith("cannot use the database postgresql://bot:***@127.0.0.1")
    assert why in message


async def test_an_unknown_database_is_refused_in_one_line(pg_url: str) -> None:
    url = pg_url.rsplit("/", 1)[0] + "/no_such_database"
    with pytest.raises(DatabaseUnavailable, match=r"refused.*no_such_database"):
        await Database.open(url)


async def test_the_server_going_away_is_unavailable_then_reconnected(
    pg_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    db = await Database.open(pg_url)
    try:
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO bot_state (key, value) VALUES ('k', 'before')")
        caplog.set_level(logging.WARNING, logger="bot.storage.postgres")
        killer = await asyncpg.connect(pg_url)
        try:
            with pytest.raises(DatabaseUnavailable, match="unavailable"):
                async with db.transaction() as tx:
                    await tx.execute("UPDATE bot_state SET value = 'half' WHERE key = 'k'")
                    # The server cuts this connection in the middle of the transaction, as a
                    # restart or a failover does.
                    pid = await tx.scalar("SELECT pg_backend_pid()")
                    await killer.execute("SELECT pg_terminate_backend($1)", pid)
                    await tx.execute("UPDATE bot_state SET value = 'half' WHERE key = 'k'")
        finally:
            await killer.close()
        async with db.transaction() as tx:  # the pool opened a new connection by itself
            assert await tx.scalar("SELECT value FROM bot_state WHERE key = 'k'") == "before"
        messages = [r.getMessage() for r in caplog.records]
        assert sum("unavailable" in m for m in messages) == 1
        assert sum("reachable again" in m for m in messages) == 1
    finally:
        await db.close()


async def test_a_database_refusing_connections_is_unavailable_then_back(
    pg_server: PostgresServer, pg_url: str
) -> None:
    """The server cuts every connection and refuses new ones (a database being moved or
    restored): each block raises DatabaseUnavailable, whatever asyncpg raised on the way (a
    refusal while connecting, a client-side state error on a cut connection), never a bug."""
    db = await Database.open(pg_url)
    name = pg_url.rsplit("/", 1)[1]
    try:
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO bot_state (key, value) VALUES ('k', 'before')")
        pg_server.psql(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
        pg_server.psql(
            f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'"
        )
        for _attempt in range(3):  # a cut pooled connection first, then a refused new one
            with pytest.raises(DatabaseUnavailable):
                async with db.transaction() as tx:
                    await tx.execute("UPDATE bot_state SET value = 'half' WHERE key = 'k'")
            with pytest.raises(DatabaseUnavailable):
                async with db.read() as tx:
                    await tx.scalar("SELECT value FROM bot_state WHERE key = 'k'")
        pg_server.psql(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
        for _attempt in range(12):  # the pool replaces what it still holds that was cut
            try:
                async with db.read() as tx:
                    value = await tx.scalar("SELECT value FROM bot_state WHERE key = 'k'")
                break
            except DatabaseUnavailable:
                continue
        assert value == "before"
    finally:
        await db.close()
