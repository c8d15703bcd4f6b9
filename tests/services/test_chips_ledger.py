"""The chips service moves chips as it always did: the rows of a long sequence of money
operations (tests/services/chips_sequence.py) match, row for row, those the service wrote before
its ledger primitive, and so do the results and refusals of every call."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.services.chips_sequence import GOLDEN, TABLES, current_service, run_sequence


@pytest.fixture(scope="module")
def golden() -> dict[str, Any]:
    """The calls and rows recorded from the service before the ledger primitive."""
    data: dict[str, Any] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return data


@pytest.fixture
async def played(tmp_path: Path) -> dict[str, Any]:
    """The same sequence played by the code checked out, as the recording stores it."""
    result = await run_sequence(tmp_path / "chips.db", current_service)
    played: dict[str, Any] = json.loads(json.dumps(result))
    return played


async def test_every_call_returns_or_refuses_as_before(
    played: dict[str, Any], golden: dict[str, Any]
) -> None:
    assert len(played["calls"]) == len(golden["calls"]) > 100
    for now, then in zip(played["calls"], golden["calls"], strict=True):
        assert now == then


@pytest.mark.parametrize("table", TABLES)
async def test_the_tables_hold_the_rows_of_before(
    played: dict[str, Any], golden: dict[str, Any], table: str
) -> None:
    assert golden["tables"][table], f"the recording of {table} is empty"
    assert played["tables"][table] == golden["tables"][table]
