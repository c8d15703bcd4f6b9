"""The ledger primitive every chip moves through (:class:`bot.services.chips.Ledger`).

* It is the only way chips move: a source check finds every call of the repository's methods
  that change a balance or write a ledger row, and every SQL text that does, outside it.
* It does what it promises: a credit or debit and its row together or not at all, the balance
  check inside the update, rows of no account, accounts opened with their ``start`` row.
* The chips service moves chips as it always did: the rows of a long sequence of money
  operations (tests/services/chips_sequence.py) match, row for row, those the service wrote
  before the ledger primitive, and so do the results and refusals of every call.
"""

from __future__ import annotations

import ast
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.services.chips import HOUSE_ID, ChipsDefaults, Ledger
from bot.services.clock import ManualClock
from bot.storage.chips import ChipsRepo, LedgerKind
from bot.storage.db import Database, Tx
from bot.storage.errors import IntegrityError
from bot.storage.guild_config import GuildConfigRecord, GuildConfigRepo
from tests.services.chips_sequence import GOLDEN, TABLES, current_service, run_sequence

ROOT = Path(__file__).resolve().parents[2]
LEDGER_MODULE = ROOT / "bot" / "services" / "chips" / "ledger.py"
STORAGE_MODULE = ROOT / "bot" / "storage" / "chips.py"
#: The repository's methods that change a balance or write a ledger row.
MONEY_METHODS = frozenset({"credit", "debit", "add_ledger", "create_account", "import_balances"})
#: SQL that does the same (it lives in the repository, which only the ledger calls for it).
MONEY_SQL = ("INSERT INTO ledger", "UPDATE accounts", "INSERT INTO accounts")
G, ANN, BOB = 1, 11, 12
NOW = datetime(2024, 1, 1, tzinfo=UTC)


# --- the only way chips move ------------------------------------------------------------------


def _receiver(node: ast.expr) -> str:
    """The last name of what a method is called on: ``self._ledger`` -> ``_ledger``."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Call):
        return _receiver(node.func)
    return ast.unparse(node)


def money_calls(source: str, *, sql: bool = True) -> list[str]:
    """Calls in ``source`` that move chips without the ledger: a money method called on
    anything but a ledger, or (with ``sql``) money SQL written out; ``line: text`` each."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in MONEY_METHODS
            and _receiver(node.func.value).lstrip("_") != "ledger"
        ):
            found.append(f"{node.lineno}: {ast.unparse(node.func)}(…)")
        if sql and isinstance(node, ast.Constant) and isinstance(node.value, str):
            words = " ".join(node.value.split())
            found += [f"{node.lineno}: {text!r}" for text in MONEY_SQL if text in words]
    return found


def _project_modules() -> list[Path]:
    return sorted(
        path
        for package in ("bot", "cogs")
        for path in (ROOT / package).rglob("*.py")
        if "__pycache__" not in path.parts
    )


def test_only_the_ledger_moves_chips() -> None:
    modules = _project_modules()
    assert LEDGER_MODULE in modules and STORAGE_MODULE in modules
    bypasses = {
        str(path.relative_to(ROOT)): calls
        for path in modules
        if path != LEDGER_MODULE
        # The repository holds the SQL the ledger runs; its calls are checked like any.
        for calls in [money_calls(path.read_text(encoding="utf-8"), sql=path != STORAGE_MODULE)]
        if calls
    }
    assert not bypasses, f"chips moved outside bot/services/chips/ledger.py: {bypasses}"
    assert money_calls(LEDGER_MODULE.read_text(encoding="utf-8")), (
        "the check finds nothing in the ledger itself"
    )


@pytest.mark.parametrize(
    "source",
    [
        "async def f(self, tx):\n    await self._repo.credit(tx, 1, 2, 3)",
        "async def f(tx):\n    await ChipsRepo().add_ledger(tx, guild_id=1)",
        "async def f(repo, tx):\n    return await repo.debit(tx, 1, 2, 3)",
        "async def f(self, tx):\n    await self.repo.create_account(tx, 1, 2, 0, now)",
        "async def f(tx):\n    await tx.execute('INSERT INTO ledger (guild_id) VALUES (?)', (1,))",
        "SQL = (\n    'UPDATE accounts SET balance = 0 '\n    'WHERE user_id = ?'\n)",
    ],
)
def test_the_check_finds_a_money_path_around_the_ledger(source: str) -> None:
    assert money_calls(source)


def test_the_check_lets_the_ledger_be_called() -> None:
    source = (
        "async def f(self, tx, ledger):\n"
        "    await self._ledger.credit(tx, guild_id=1, user_id=2, amount=3)\n"
        "    await ledger.debit(tx, guild_id=1, user_id=2, amount=3)\n"
        "    await self._repo.get_account(tx, 1, 2)\n"
        "    await tx.fetchone('SELECT balance FROM accounts')"
    )
    assert money_calls(source) == []


# --- what the ledger promises -----------------------------------------------------------------


def _ledger(starting: int = 1000) -> Ledger:
    return Ledger(ManualClock(NOW), ChipsDefaults(starting, 100), ChipsRepo(), GuildConfigRepo())


async def _rows(tx: Tx) -> list[tuple[Any, ...]]:
    rows = await tx.fetchall(
        "SELECT user_id, delta, balance_after, kind, idem_key, game_id, actor_id, note "
        "FROM ledger ORDER BY id"
    )
    return [tuple(r) for r in rows]


async def _balance(tx: Tx, user_id: int) -> int | None:
    value = await tx.scalar(
        "SELECT balance FROM accounts WHERE guild_id = ? AND user_id = ?", (G, user_id)
    )
    return None if value is None else int(value)


async def test_an_account_opens_once_with_its_start_row(db: Database) -> None:
    ledger = _ledger()
    async with db.transaction() as tx:
        first = await ledger.ensure_account(tx, G, ANN)
        again = await ledger.ensure_account(tx, G, ANN)
        house = await ledger.ensure_account(tx, G, HOUSE_ID)
        assert (first.balance, again.balance, house.balance) == (1000, 1000, 10_000)
        assert await _rows(tx) == [
            (ANN, 1000, 1000, "start", f"start:{G}:{ANN}", None, None, None),
            (HOUSE_ID, 10_000, 10_000, "start", f"start:{G}:{HOUSE_ID}", None, None, None),
        ]


async def test_a_zero_start_opens_an_account_without_a_row(db: Database) -> None:
    ledger = _ledger()
    async with db.transaction() as tx:
        await GuildConfigRepo().put(tx, GuildConfigRecord(G, starting_chips=0), NOW)
        assert (await ledger.ensure_account(tx, G, ANN)).balance == 0
        assert await _balance(tx, ANN) == 0
        assert await _rows(tx) == []


async def test_a_credit_and_a_debit_write_their_rows_with_the_balance_after(
    db: Database,
) -> None:
    ledger = _ledger()
    async with db.transaction() as tx:
        await ledger.ensure_account(tx, G, ANN)
        paid = await ledger.credit(
            tx,
            guild_id=G,
            user_id=ANN,
            amount=40,
            kind=LedgerKind.PAYOUT,
            key="payout:g",
            at=NOW,
            game_id="g",
        )
        raked = await ledger.debit(
            tx,
            guild_id=G,
            user_id=ANN,
            amount=4,
            kind=LedgerKind.RAKE,
            key="rake:g",
            at=NOW,
            game_id="g",
            note="10% rake",
        )
        assert (paid, raked, await _balance(tx, ANN)) == (1040, 1036, 1036)
        assert (await _rows(tx))[1:] == [
            (ANN, 40, 1040, "payout", "payout:g", "g", None, None),
            (ANN, -4, 1036, "rake", "rake:g", "g", None, "10% rake"),
        ]


async def test_a_debit_short_of_chips_takes_and_writes_nothing(db: Database) -> None:
    ledger = _ledger(starting=30)
    async with db.transaction() as tx:
        await ledger.ensure_account(tx, G, ANN)
        short = await ledger.debit(
            tx, guild_id=G, user_id=ANN, amount=31, kind=LedgerKind.ANTE, key="ante:g:11", at=NOW
        )
        nobody = await ledger.debit(
            tx, guild_id=G, user_id=BOB, amount=1, kind=LedgerKind.ANTE, key="ante:g:12", at=NOW
        )
        exact = await ledger.debit(
            tx, guild_id=G, user_id=ANN, amount=30, kind=LedgerKind.ANTE, key="ante:h:11", at=NOW
        )
        assert (short, nobody, exact) == (None, None, 0)
        assert [r[4] for r in await _rows(tx)] == [f"start:{G}:{ANN}", "ante:h:11"]


async def test_a_capped_credit_stops_at_the_cap_and_writes_nothing(db: Database) -> None:
    ledger = _ledger(starting=90)
    async with db.transaction() as tx:
        await ledger.ensure_account(tx, G, ANN)
        over = await ledger.credit(
            tx,
            guild_id=G,
            user_id=ANN,
            amount=11,
            kind=LedgerKind.DAILY,
            key="d1",
            at=NOW,
            cap=100,
        )
        up_to = await ledger.credit(
            tx,
            guild_id=G,
            user_id=ANN,
            amount=10,
            kind=LedgerKind.DAILY,
            key="d2",
            at=NOW,
            cap=100,
        )
        assert (over, up_to, await _balance(tx, ANN)) == (None, 100, 100)
        assert [r[4] for r in await _rows(tx)] == [f"start:{G}:{ANN}", "d2"]


async def test_a_row_of_no_account_changes_no_balance(db: Database) -> None:
    ledger = _ledger()
    async with db.transaction() as tx:
        await ledger.ensure_account(tx, G, ANN)
        await ledger.book(
            tx,
            guild_id=G,
            delta=-25,
            kind=LedgerKind.HOUSE_WIN,
            key="house_win:g",
            at=NOW,
            game_id="g",
            note="an AI seat won",
        )
        assert await _balance(tx, ANN) == 1000
        assert (await _rows(tx))[1:] == [
            (None, -25, None, "house_win", "house_win:g", "g", None, "an AI seat won")
        ]


async def test_a_key_used_twice_undoes_the_whole_transaction(db: Database) -> None:
    ledger = _ledger()
    async with db.transaction() as tx:
        await ledger.ensure_account(tx, G, ANN)
    with pytest.raises(IntegrityError, match=r"ledger.idem_key"):
        async with db.transaction() as tx:
            for _ in range(2):
                await ledger.credit(
                    tx,
                    guild_id=G,
                    user_id=ANN,
                    amount=5,
                    kind=LedgerKind.GRANT,
                    key="grant:same",
                    at=NOW,
                )
    async with db.read() as tx:
        assert await _balance(tx, ANN) == 1000
        assert len(await _rows(tx)) == 1


# --- the service moves chips as it always did -------------------------------------------------


async def test_the_sequence_answers_and_leaves_the_rows_of_before(tmp_path: Path) -> None:
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    # As the recording stores it: tuples become lists, through JSON.
    played = json.loads(json.dumps(await run_sequence(tmp_path / "chips.db", current_service)))
    assert len(played["calls"]) == len(golden["calls"]) > 100
    for now, then in zip(played["calls"], golden["calls"], strict=True):
        assert now == then, f"call {then[0]!r}"
    for table in TABLES:
        assert golden["tables"][table], f"the recording of {table} is empty"
        assert played["tables"][table] == golden["tables"][table], f"table {table}"
