"""Today's behaviour, pinned for the refactor of issue 19: ``kapshap sim``'s figures, game
records, and a database written by today's code (see :mod:`tests.compat.make_pins`).

Each test recomputes a pinned output with the code as it is and compares it with the file in
``tests/compat/pins/``; a failure shows the difference and says that the pins are the
behaviour before the refactor. The Discord surface (custom ids, the command tree) is pinned in
``test_discord_pins.py``.
"""

from __future__ import annotations

import asyncio
import json
import shutil
from typing import Any

import pytest

from bot.engine.record import GameRecord, RecordError, parse_record, replay, write_record
from tests.compat import fixture_db, records, sims
from tests.compat.pinning import PINS, check_json, check_text, fail, read_json_pin, read_pin

# ---------------------------------------------------------------------------------------------
# kapshap sim


@pytest.mark.parametrize("how", sims.RUNS, ids=lambda r: r.label)
@pytest.mark.parametrize("case", sims.CASES, ids=lambda c: c.name)
def test_kapshap_sim_prints_the_pinned_figures(case: sims.SimCase, how: sims.SimRun) -> None:
    out = sims.run(case, how)
    assert set(out) == set(how.formats)
    for fmt, text in out.items():
        what = f"`kapshap sim {' '.join(case.argv)}` ({fmt}, {how.label})"
        name = sims.pin_name(case, fmt)
        if fmt == "json":  # compared as values: a readable difference, key by key
            pinned = [json.loads(line) for line in read_pin(name).splitlines()]
            check_json(name, [json.loads(line) for line in text.splitlines()], what, pinned)
        check_text(name, text, what)


# ---------------------------------------------------------------------------------------------
# Records


def _read(name: str) -> GameRecord:
    """A pinned record, read and replayed to its end (a failure says which line)."""
    problem = None
    try:
        record = parse_record(read_pin(name))
        replayed = [step.number for step in replay(record)]
    except RecordError as error:
        problem = str(error)
    if problem is not None:
        fail(f"the pinned record {name} no longer reads or replays: {problem}")
    assert replayed == list(range(1, len(record.actions) + 1))
    return record


@pytest.mark.parametrize("case", records.CASES, ids=lambda c: c.name)
def test_a_pinned_record_reads_replays_and_writes_back_the_same(case: records.RecordCase) -> None:
    name = records.pin_name(case)
    record = _read(name)
    check_text(name, write_record(record), "the pinned record, read and written again")
    facts = records.facts(record)
    assert case.outcome in facts["result"]
    pinned = read_json_pin("records/facts.json")[case.name]
    check_json("records/facts.json", facts, f"what the record {case.name} ends with", pinned)


@pytest.mark.parametrize("case", records.CASES, ids=lambda c: c.name)
def test_the_same_game_played_today_writes_the_pinned_record(case: records.RecordCase) -> None:
    # The deal from its seed (bot.engine.make_deal) and the computer players' choices too.
    _, text = records.play(case)
    check_text(records.pin_name(case), text, f"the record of {case.name} played again")


# ---------------------------------------------------------------------------------------------
# The fixture database


@pytest.fixture(scope="module")
def fixture_seen(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A copy of the fixture database opened by today's services: restored, exported, its
    running games played on (once for this module's tests)."""
    copy = tmp_path_factory.mktemp("compat") / "fixture.sqlite3"
    shutil.copyfile(PINS / "db" / "fixture.sqlite3", copy)
    return dict(asyncio.run(fixture_db.examine(copy, fixture_db.fixture_clock())))


def test_the_fixture_database_restores_as_pinned(fixture_seen: dict[str, Any]) -> None:
    assert fixture_seen["problems"] == [], "kapshap db check finds the fixture broken"
    check_json("db/restored.json", fixture_seen["restored"], "what a starting bot restores")


def test_every_stored_game_exports_its_pinned_record(fixture_seen: dict[str, Any]) -> None:
    exported: dict[str, str] = fixture_seen["exports"]
    pinned = sorted(p.stem for p in (PINS / "db" / "export").glob("*.txt"))
    assert sorted(exported) == pinned, "the stored games with a deal are not the pinned ones"
    for game_id, text in exported.items():
        check_text(f"db/export/{game_id}.txt", text, f"the record export of game {game_id}")


def test_the_running_games_play_on_to_the_pinned_end(fixture_seen: dict[str, Any]) -> None:
    final = read_json_pin("db/final.json")
    assert fixture_seen["played"] == final["played"], "not the pinned games were running"
    for game_id, text in fixture_seen["final"].items():
        check_text(f"db/final/{game_id}.txt", text, f"the record of game {game_id} played on")
    assert fixture_seen["problems_after"] == [], "kapshap db check fails after the games ended"
    rows = fixture_seen["dump"]
    for table, pinned in final["rows"].items():
        what = f"the {table} rows once the games ended (chips, ratings, results)"
        check_json("db/final.json", rows[table], what, pinned)
