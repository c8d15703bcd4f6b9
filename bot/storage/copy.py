"""``kapshap db copy SOURCE TARGET``: a server's whole history into an empty database.

Moving up from the SQLite file to PostgreSQL (or back, or to another file) copies every table,
whatever the schema holds at this version: balances, ledger, pots and escrow, games and their
actions, ratings, tournaments, settings. The tables, their columns and the order their foreign
keys impose are found by asking the database itself (SQLite's ``sqlite_master`` and pragmas,
PostgreSQL's ``information_schema`` and ``pg_catalog``), so a new migration needs no change here.

* Both databases are opened (and so migrated) with :meth:`Database.open`: they are at the same
  schema version before a row moves.
* The rows are read from one snapshot of the source (:meth:`Database.read`) and written in ONE
  transaction of the target: a copy that fails leaves the target as empty as it was.
* A target holding any row is refused: a copy never merges two histories.
* Ids are copied as they are (ledger ids, tournament ids, recorded-game numbers), so every
  reference between rows holds. The games are inserted in the order they were created (SQLite's
  hidden ``rowid``, PostgreSQL's explicit ``rowid`` column) and that column is left to the target
  to number. On PostgreSQL the identity sequences are then moved past the copied ids, so the
  bot's next insert does not collide.
* Tables kept by triggers (:data:`DERIVED_TABLES`, counts of accounts and ratings) are filled by
  the triggers while their sources are copied, then overwritten with the source's rows, so they
  end equal to the source's whatever the triggers did.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.storage.chips import SupplyTotals
from bot.storage.db import Database, Row, Tx
from bot.storage.errors import StorageError
from bot.storage.integrity import Problem, find_problems

__all__ = [
    "DERIVED_TABLES",
    "CopyError",
    "CopyResult",
    "Table",
    "copy_database",
    "copy_order",
    "list_tables",
]

#: Tables written by triggers (migrations 0001 and 0005): copied last, over the triggers' rows.
DERIVED_TABLES = ("account_counts", "member_rating_counts")

#: Bookkeeping that each backend keeps its own way (PostgreSQL's schema version), never copied.
_NOT_COPIED = frozenset({"schema_version"})

#: The most parameters one INSERT takes: SQLite's oldest limit (999; 32766 since 3.32), far
#: under PostgreSQL's (32767). Rows go in multi-row INSERTs, one statement (one round trip on
#: PostgreSQL) per batch rather than one per row.
_MAX_PARAMS = 999
#: The most rows one INSERT takes.
_MAX_ROWS = 500


class CopyError(StorageError):
    """The copy cannot be made; the message is one line for the operator."""


@dataclass(frozen=True, slots=True)
class Table:
    """One table as the copy sees it."""

    name: str
    #: The columns a copy writes, in the table's order (generated columns left out).
    columns: tuple[str, ...]
    #: Each written column's kind: ``"integer"``, ``"real"`` or ``"text"``.
    kinds: tuple[str, ...]
    #: The tables its foreign keys refer to (itself left out).
    parents: frozenset[str]
    #: How to read it in a stable order (``rowid`` where the creation order matters).
    order_by: str
    #: Columns numbered by an identity sequence (PostgreSQL), to move past the copied ids.
    identities: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class CopyResult:
    """What a copy did, and the invariant check of both sides."""

    rows: dict[str, int]
    source_totals: SupplyTotals
    target_totals: SupplyTotals
    source_problems: list[Problem]
    target_problems: list[Problem]

    @property
    def same(self) -> bool:
        """Whether the target's totals and problems are exactly the source's."""
        return self.source_totals == self.target_totals and sorted(
            str(p) for p in self.source_problems
        ) == sorted(str(p) for p in self.target_problems)


def _kind(declared: str) -> str:
    """The kind of a declared column type (SQLite's affinity rules, PostgreSQL's type names)."""
    word = declared.upper()
    if "INT" in word:
        return "integer"
    if any(name in word for name in ("REAL", "FLOA", "DOUB", "NUMERIC")):
        return "real"
    return "text"


async def list_tables(db: Database, tx: Tx) -> dict[str, Table]:
    """Every table of ``db`` that holds data (read through ``tx``)."""
    if db.backend == "sqlite":
        tables = await _sqlite_tables(tx)
    else:
        tables = await _postgresql_tables(tx)
    return {name: table for name, table in tables.items() if name not in _NOT_COPIED}


async def _sqlite_tables(tx: Tx) -> dict[str, Table]:
    found: dict[str, Table] = {}
    for master in await tx.fetchall(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table' "
        "AND name NOT LIKE 'sqlite_%' ORDER BY name"
    ):
        name, sql = str(master[0]), str(master[1])
        # PRAGMA table_xinfo lists generated columns too (hidden = 2 or 3): those are not copied.
        info = await tx.fetchall(f'PRAGMA table_xinfo("{name}")')
        columns = [row for row in info if int(row[6]) == 0]
        keys = sorted((int(row[5]), str(row[1])) for row in columns if int(row[5]) > 0)
        parents = {str(row[2]) for row in await tx.fetchall(f'PRAGMA foreign_key_list("{name}")')}
        without_rowid = "WITHOUT ROWID" in " ".join(sql.upper().split())
        order_by = ", ".join(c for _, c in keys) if without_rowid else "rowid"
        found[name] = Table(
            name,
            tuple(str(row[1]) for row in columns),
            tuple(_kind(str(row[2])) for row in columns),
            frozenset(parents - {name}),
            order_by,
        )
    return found


async def _postgresql_tables(tx: Tx) -> dict[str, Table]:
    columns: dict[str, list[Row]] = {}
    for row in await tx.fetchall(
        "SELECT c.table_name, c.column_name, c.data_type, c.is_identity, "
        "c.identity_generation, c.is_generated FROM information_schema.columns AS c "
        "JOIN information_schema.tables AS t "
        "ON t.table_schema = c.table_schema AND t.table_name = c.table_name "
        "WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' "
        "ORDER BY c.table_name, c.ordinal_position"
    ):
        columns.setdefault(str(row[0]), []).append(row)
    parents: dict[str, set[str]] = {}
    for row in await tx.fetchall(
        "SELECT child.relname, parent.relname FROM pg_catalog.pg_constraint AS k "
        "JOIN pg_catalog.pg_class AS child ON child.oid = k.conrelid "
        "JOIN pg_catalog.pg_class AS parent ON parent.oid = k.confrelid "
        "WHERE k.contype = 'f' AND k.connamespace = current_schema()::regnamespace"
    ):
        parents.setdefault(str(row[0]), set()).add(str(row[1]))
    keys: dict[str, list[str]] = {}
    for row in await tx.fetchall(
        "SELECT t.relname, a.attname FROM pg_catalog.pg_index AS i "
        "JOIN pg_catalog.pg_class AS t ON t.oid = i.indrelid "
        "JOIN pg_catalog.pg_attribute AS a ON a.attrelid = t.oid AND a.attnum = ANY(i.indkey) "
        "WHERE i.indisprimary AND t.relnamespace = current_schema()::regnamespace "
        "ORDER BY t.relname, array_position(i.indkey::int2[], a.attnum)"
    ):
        keys.setdefault(str(row[0]), []).append(str(row[1]))
    found: dict[str, Table] = {}
    for name, rows in sorted(columns.items()):
        # A column the server numbers itself (GENERATED ALWAYS: games.rowid) or computes is
        # left to the target; BY DEFAULT identities (ids) are copied, then their sequence moved.
        written = [row for row in rows if row[4] != "ALWAYS" and str(row[5] or "NEVER") == "NEVER"]
        names = [str(row[1]) for row in rows]
        order_by = "rowid" if "rowid" in names else ", ".join(keys.get(name, names[:1]))
        found[name] = Table(
            name,
            tuple(str(row[1]) for row in written),
            tuple(_kind(str(row[2])) for row in written),
            frozenset(parents.get(name, set()) - {name}),
            order_by,
            tuple(str(row[1]) for row in written if row[3] == "YES"),
        )
    return found


def copy_order(tables: dict[str, Table]) -> list[str]:
    """The tables, parents before children (foreign keys), the derived tables last."""
    order: list[str] = []
    visiting: set[str] = set()

    def visit(name: str) -> None:
        if name in order or name not in tables:
            return
        if name in visiting:
            raise CopyError(f"the foreign keys of {name} form a cycle: cannot order the copy")
        visiting.add(name)
        for parent in sorted(tables[name].parents):
            visit(parent)
        visiting.discard(name)
        order.append(name)

    for name in sorted(tables):
        if name not in DERIVED_TABLES:
            visit(name)
    return order + [name for name in DERIVED_TABLES if name in tables]


def _value(value: object, kind: str) -> object:
    """A source value as the target's column takes it (PostgreSQL's types are exact)."""
    if value is None:
        return None
    if kind == "real" and isinstance(value, int):
        return float(value)
    if kind == "integer" and isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _batches(rows: Sequence[Row], size: int) -> Iterable[Sequence[Row]]:
    for start in range(0, len(rows), size):
        yield rows[start : start + size]


async def _is_empty(tx: Tx, tables: Iterable[str]) -> str | None:
    """The first table holding a row, or ``None``."""
    for name in sorted(tables):
        if await tx.fetchone(f'SELECT 1 FROM "{name}" LIMIT 1') is not None:
            return name
    return None


async def _write(tx: Tx, table: Table, rows: Sequence[Row]) -> None:
    """Insert ``rows`` (the source's values, the target's columns) in multi-row INSERTs."""
    width = len(table.columns)
    per_insert = max(1, min(_MAX_ROWS, _MAX_PARAMS // max(width, 1)))
    columns = ", ".join(f'"{c}"' for c in table.columns)
    one = "(" + ", ".join("?" for _ in table.columns) + ")"
    for batch in _batches(rows, per_insert):
        params: list[object] = []
        for row in batch:
            params.extend(_value(row[i], table.kinds[i]) for i in range(width))
        await tx.execute(
            f'INSERT INTO "{table.name}" ({columns}) VALUES ' + ", ".join([one] * len(batch)),
            params,
        )


async def copy_database(source: Database, target: Database) -> CopyResult:
    """Copy every row of ``source`` into the empty ``target`` (see the module's docstring).

    Raises :class:`CopyError` (one line) when the target holds rows or the two schemas differ;
    the target is then unchanged.
    """
    if source.schema_version != target.schema_version:
        raise CopyError(
            f"the source is at schema version {source.schema_version}, the target at "
            f"{target.schema_version}: run `kapshap db migrate` on both"
        )
    counts: dict[str, int] = {}
    async with source.read() as src:
        theirs = await list_tables(source, src)
        source_problems, source_totals = await find_problems(src)
        async with target.transaction() as dst:
            ours = await list_tables(target, dst)
            if set(theirs) != set(ours):
                missing = sorted(set(theirs) ^ set(ours))
                raise CopyError(
                    f"the two databases do not have the same tables ({', '.join(missing)})"
                )
            busy = await _is_empty(dst, ours)
            if busy is not None:
                raise CopyError(
                    f"the target {target.path} is not empty (the table {busy} has rows): "
                    "copy only into a new, empty database"
                )
            for name in copy_order(ours):
                table = ours[name]
                lost = set(theirs[name].columns) - set(table.columns)
                absent = set(table.columns) - set(theirs[name].columns)
                if lost or absent:
                    raise CopyError(
                        f"the table {name} has other columns in the target "
                        f"({', '.join(sorted(lost | absent))}): both must be at one version"
                    )
                listed = ", ".join(f'"{c}"' for c in table.columns)
                rows = await src.fetchall(
                    f'SELECT {listed} FROM "{name}" ORDER BY {theirs[name].order_by}'
                )
                if name in DERIVED_TABLES:
                    # The triggers counted the copied rows already: the source's counts win.
                    await dst.execute(f'DELETE FROM "{name}"')
                await _write(dst, table, rows)
                counts[name] = len(rows)
            if target.backend == "postgresql":
                await _move_sequences(dst, ours.values())
    async with target.read() as tx:
        target_problems, target_totals = await find_problems(tx)
    return CopyResult(counts, source_totals, target_totals, source_problems, target_problems)


async def _move_sequences(tx: Tx, tables: Iterable[Table]) -> None:
    """Set each identity sequence past the largest copied id (its next value: max + 1)."""
    for table in tables:
        for column in table.identities:
            await tx.execute(
                f"SELECT setval(pg_get_serial_sequence('{table.name}', '{column}'), "
                f'COALESCE(MAX("{column}"), 0) + 1, false) FROM "{table.name}"'
            )
