"""Make the compatibility pins of ``tests/compat/pins/`` from the code as it is now.

    python -m tests.compat.make_pins            # every pin
    python -m tests.compat.make_pins sim db     # only these groups (sim, records, db, discord)

**Run it only on purpose.** The pins record the behaviour of the code before the refactor of
issue 19 (one place per game: a game registry, game-blind layers), which must not change what
the bot does; ``tests/compat/test_pins.py`` and ``test_discord_pins.py`` recompute every pin
and fail on any difference. Making the pins again is right only when a change of behaviour is
intended (a rule fix, a new figure), and the commit that does it must say which change, and
why the pins moved. Never make them again to quieten a failing pin test during the refactor:
that failure is the refactor changing behaviour.

What is pinned (every group is made by today's code through its public entry points):

* ``sim/``: ``kapshap sim`` (:mod:`tests.compat.sims`): Kap Shap, Kap Tai Shap for five
  comparing two rule sets, random players under a turn cap, Tsung Shap comparing two variants;
  the text report (English and Chinese), ``--json`` and ``--csv``, without the games-per-second
  figure. The tests run each with the compiled kernel on and off, one and two workers.
* ``records/``: game records written by :func:`bot.engine.record.write_record` for games of
  every kind played from fixed seeds (:mod:`tests.compat.records`), and ``facts.json``, what
  each one's replay ends with.
* ``db/``: ``fixture.sqlite3``, a database written by today's services
  (:mod:`tests.compat.fixture_db`: finished, drawn, difference-settled, resigned and running
  games, a lobby, chips, ratings, a tournament) with ``fixture.json`` (its clock); ``export/``,
  the record of every stored game; ``restored.json``, what a starting bot rebuilds from it;
  ``final/`` and ``final.json``, the records and rows once its running games are played on.
* ``discord/``: ``flows.json``, the custom ids of three short games played through the whole
  bot on simcord (:mod:`tests.compat.discord_flows`), and ``command_tree.json``, the slash
  command tree the bot publishes (its translated payload and the bot's hash of it).

The database is made afresh (a new file) each time; its game ids are numbered, so that making
it again with unchanged code gives the same pins.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
import tempfile
from pathlib import Path

from tests.compat import discord_flows, fixture_db, records, sims
from tests.compat.pinning import PINS, json_text, write_pin

GROUPS = ("sim", "records", "db", "discord")


def make_sim() -> None:
    """``kapshap sim``: every format of every case, from the first of the tests' runs."""
    first = sims.RUNS[0]
    everything = sims.SimRun(first.kernel, first.workers, sims.FORMATS)
    for case in sims.CASES:
        for fmt, text in sims.run(case, everything).items():
            write_pin(sims.pin_name(case, fmt), text)


def make_records() -> None:
    """Records of the record cases and the facts of their replays."""
    from bot.engine.record import parse_record

    facts = {}
    for case in records.CASES:
        _, text = records.play(case)
        result = records.facts(parse_record(text))
        if case.outcome not in result["result"]:
            raise SystemExit(f"{case.name}: expected {case.outcome!r}, got {result['result']!r}")
        write_pin(records.pin_name(case), text)
        facts[case.name] = result
    write_pin("records/facts.json", json_text(facts))


def make_db() -> None:
    """The fixture database, and what the tests see of it."""
    for old in ("db/export", "db/final"):
        shutil.rmtree(PINS / old, ignore_errors=True)
    path = PINS / "db" / "fixture.sqlite3"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    end = asyncio.run(fixture_db.build(path))
    write_pin("db/fixture.json", json_text({"clock": end.isoformat()}))
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "fixture.sqlite3"
        shutil.copyfile(path, copy)
        seen = asyncio.run(fixture_db.examine(copy, end))
    for name in ("problems", "problems_after"):
        if seen[name]:
            raise SystemExit(f"the fixture breaks the invariant ({name}): {seen[name]}")
    write_pin("db/restored.json", json_text(seen["restored"]))
    for game_id, text in seen["exports"].items():
        write_pin(f"db/export/{game_id}.txt", text)
    for game_id, text in seen["final"].items():
        write_pin(f"db/final/{game_id}.txt", text)
    write_pin("db/final.json", json_text({"played": seen["played"], "rows": seen["dump"]}))


def make_discord() -> None:
    """Custom ids of the scripted games, and the command tree."""
    write_pin("discord/flows.json", json_text(asyncio.run(discord_flows.run_flows())))
    write_pin("discord/command_tree.json", json_text(asyncio.run(discord_flows.command_tree())))


def main(argv: list[str]) -> int:
    """Make the pins of the groups named in ``argv`` (all without any)."""
    chosen = argv or list(GROUPS)
    unknown = [g for g in chosen if g not in GROUPS]
    if unknown:
        print(f"make_pins: unknown group {unknown[0]!r}: choose from {', '.join(GROUPS)}",
              file=sys.stderr)  # fmt: skip
        return 2
    makers = {"sim": make_sim, "records": make_records, "db": make_db, "discord": make_discord}
    for group in chosen:
        print(f"making the {group} pins", file=sys.stderr)
        makers[group]()
    print(f"done: {PINS}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
