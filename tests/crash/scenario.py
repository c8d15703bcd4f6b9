"""A scripted sequence of operations for the crash tests, and the check made after a crash.

:func:`run` drives the services directly (``TableService``/``ChipsService`` on a real SQLite
file, a :class:`ManualClock`, seeded randomness): daily claims, gifts, games of all three games
played to their end (a win, a draw, a Tsung Shap game settled by point difference), a rematch, a
lobby that is joined, left and cancelled, a lobby holding antes (as older code left them) that is
cancelled, an ``endtable`` of a running game and a turn timer running out. After each
operation returns, it appends what was *acknowledged* to a journal (one JSON line, written with
``os.write`` so nothing sits in a buffer when the process dies).

The process is killed by the storage layer's test hook (``KAPSHAP_CRASH_AFTER_COMMIT=N``) right
after its N-th commit. :func:`verify` then opens the file as a fresh bot would (``restore``, which
repairs), and checks the invariant and that every acknowledged operation is still there.

Run as a program (``python -m tests.crash.scenario DB JOURNAL [SEED]``) for the random-time kills.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sys
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

from bot.ai.levels import player_for
from bot.games.collecting.engine.actions import Declare
from bot.services.chips import ChipsDefaults, ChipsService
from bot.services.clock import ManualClock
from bot.services.errors import UserError
from bot.services.server import ServerService
from bot.services.tables import Table, TableDefaults, TableService, _ai_choice
from bot.storage.db import Database, commit_count
from bot.storage.games import GamesRepo, GameStatus
from bot.storage.integrity import find_problems

GUILD = 1
ALICE, BOB, CAROL = 11, 12, 13
ADMIN = 99


def make_services(db: Database, clock: ManualClock, seed: int) -> TableService:
    """The services as the bot builds them (small ante, a 60 s turn timer)."""
    chips = ChipsService(db, clock, ChipsDefaults(starting_chips=1000, daily_amount=100))
    return TableService(
        GamesRepo(db),
        chips,
        clock,
        TableDefaults(ante=10, turn_seconds=60, timeout_ai_level="random"),
        random.Random(seed),
        ServerService(db),
    )


class Journal:
    """Acknowledged operations, one JSON line each, written straight to the file."""

    def __init__(self, path: Path) -> None:
        """Append to ``path``."""
        self._fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)

    def ack(self, **entry: Any) -> None:
        """Record one acknowledged operation (before the next one starts)."""
        os.write(self._fd, (json.dumps(entry) + "\n").encode())

    def close(self) -> None:
        """Close the file."""
        os.close(self._fd)


def read_journal(path: Path) -> list[dict[str, Any]]:
    """Every complete line of a journal (a line cut by the kill is ignored)."""
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            continue
    return out


async def _play_to_end(
    service: TableService,
    table: Table,
    journal: Journal,
    rng: random.Random,
    *,
    avoid_declaring: bool = False,
    moves: int | None = None,
) -> None:
    """The humans play (greedy choices) until the game ends, or ``moves`` human moves."""
    played = 0
    while table.running and (moves is None or played < moves):
        state = table.state
        assert state is not None
        seat = table.seats[state.current]
        assert seat.user_id is not None
        legal = table.legal()
        if avoid_declaring and len(legal) > 1:
            action = rng.choice([a for a in legal if not isinstance(a, Declare)])
        else:
            action = _ai_choice(player_for(table.game, "greedy"), state, state.current, rng)
        await service.act(table.channel_id, seat.user_id, action, version=table.version)
        played += 1
        journal.ack(op="act", game=table.id, version=table.version, status=str(table.status))
    if not table.running:
        journal.ack(op="end", game=table.id, status=str(table.status))


async def _game(
    service: TableService,
    journal: Journal,
    rng: random.Random,
    channel: int,
    game: str,
    *,
    ai: int = 0,
    seats: int | None = None,
    settlement: str | None = None,
    avoid_declaring: bool = False,
) -> Table:
    table = await service.open_table(
        guild_id=GUILD,
        channel_id=channel,
        host_id=ALICE,
        host_name="Alice",
        game=game,
        seats=seats,
        settlement=settlement,
    )
    journal.ack(op="open", game=table.id)
    await service.join(channel, BOB, "Bob")
    journal.ack(op="join", game=table.id, version=table.version)
    for _ in range(ai):
        await service.add_ai(channel, ALICE, "greedy")
        journal.ack(op="join", game=table.id, version=table.version)
    await service.start(channel, ALICE)
    journal.ack(op="start", game=table.id, version=table.version)
    await _play_to_end(service, table, journal, rng, avoid_declaring=avoid_declaring)
    return table


async def run(db_path: Path | str, journal_path: Path, seed: int = 1) -> int:
    """The whole scripted sequence; returns the number of commits it made."""
    rng = random.Random(seed)
    clock = ManualClock()
    db = await Database.open(db_path)
    journal = Journal(journal_path)
    try:
        service = make_services(db, clock, seed)
        chips = service._chips
        await service.restore()
        for user in (ALICE, BOB, CAROL):
            await chips.daily(GUILD, user)
            journal.ack(op="ledger", key=f"daily:{GUILD}:{user}:{clock.now().date()}")
        gift = await chips.give(GUILD, ALICE, BOB, 7, "interaction:1")
        journal.ack(op="ledger", key="give:interaction:1", balance=gift.from_balance)
        # Kap Shap to its end, then a rematch in the same channel.
        await _game(service, journal, rng, 101, "kap-shap")
        rematch = await service.rematch(101, ALICE)
        journal.ack(op="open", game=rematch.id)
        await service.start(101, ALICE)
        journal.ack(op="start", game=rematch.id, version=rematch.version)
        await _play_to_end(service, rematch, journal, rng)
        # A draw: nobody declares, the wall runs out.
        await _game(service, journal, rng, 102, "kap-shap", avoid_declaring=True)
        # Kap Tai Shap with two computer seats.
        await _game(service, journal, rng, 103, "kap-tai-shap", ai=2, seats=4)
        # Tsung Shap settled by point difference (its pot settlement is the same code as the
        # other games'; a Tsung Shap game is long, so one is enough here).
        await _game(service, journal, rng, 105, "tsung-shap", settlement="difference")
        # A resignation: the game ends and its pot is paid in one transaction.
        table = await service.open_table(
            guild_id=GUILD, channel_id=110, host_id=ALICE, host_name="Alice"
        )
        journal.ack(op="open", game=table.id)
        await service.join(110, BOB, "Bob")
        await service.start(110, ALICE)
        journal.ack(op="start", game=table.id, version=table.version)
        await _play_to_end(service, table, journal, rng, moves=1)
        if table.running:
            await service.resign(110, BOB)
            journal.ack(op="end", game=table.id, status=str(table.status))
        # A lobby joined, left and cancelled.
        lobby = await service.open_table(
            guild_id=GUILD, channel_id=106, host_id=ALICE, host_name="Alice"
        )
        journal.ack(op="open", game=lobby.id)
        await service.join(106, CAROL, "Carol")
        journal.ack(op="join", game=lobby.id, version=lobby.version)
        await service.leave(106, CAROL)
        journal.ack(op="leave", game=lobby.id, version=lobby.version)
        await service.cancel(106, ALICE)
        journal.ack(op="end", game=lobby.id, status="aborted")
        # A lobby holding antes, as the code before 0003 could leave one (its start took the
        # antes in a commit of their own, and the process died there), then cancelled. Not
        # acknowledged before the cancel: a start-up in between refunds the antes and gives the
        # lobby a fresh id.
        held = await service.open_table(
            guild_id=GUILD, channel_id=109, host_id=ALICE, host_name="Alice"
        )
        await service.join(109, CAROL, "Carol")
        await chips.escrow_antes(held.id, GUILD, {ALICE: 10, CAROL: 10}, channel_id=109)
        await service.cancel(109, ALICE)
        journal.ack(op="end", game=held.id, status="aborted")
        # A running game ended by a server manager (`/kapadmin endtable`).
        table = await service.open_table(
            guild_id=GUILD, channel_id=107, host_id=ALICE, host_name="Alice"
        )
        journal.ack(op="open", game=table.id)
        await service.join(107, BOB, "Bob")
        await service.start(107, ALICE)
        journal.ack(op="start", game=table.id, version=table.version)
        await _play_to_end(service, table, journal, rng, moves=2)
        if table.running:
            await service.cancel(107, ADMIN, admin=True)
            journal.ack(op="end", game=table.id, status="aborted")
        # A turn timer runs out on a fresh game.
        table = await service.open_table(
            guild_id=GUILD, channel_id=108, host_id=ALICE, host_name="Alice"
        )
        await service.join(108, BOB, "Bob")
        await service.start(108, ALICE)
        journal.ack(op="start", game=table.id, version=table.version)
        clock.advance(timedelta(seconds=61))
        await service.expire_due()
        journal.ack(op="act", game=table.id, version=table.version, status=str(table.status))
        # A second gift and claim, later.
        clock.advance(timedelta(days=1))
        await chips.daily(GUILD, ALICE)
        journal.ack(op="ledger", key=f"daily:{GUILD}:{ALICE}:{clock.now().date()}")
        await chips.give(GUILD, BOB, CAROL, 3, "interaction:2")
        journal.ack(op="ledger", key="give:interaction:2")
    finally:
        journal.close()
        await db.close()
    return commit_count()


Op = tuple[str, int]
"""One random operation: a verb and its argument (a channel, a user or seconds)."""

OP_VERBS = (
    "open",
    "join",
    "addbot",
    "start",
    "move",
    "cancel",
    "endtable",
    "leave",
    "daily",
    "gift",
    "wait",
    "rematch",
)


async def run_ops(db_path: Path | str, journal_path: Path, ops: list[Op], seed: int = 1) -> None:
    """Random operations (the property test's); a refused one (a user mistake) is skipped."""
    rng = random.Random(seed)
    clock = ManualClock()
    db = await Database.open(db_path)
    journal = Journal(journal_path)
    users = (ALICE, BOB, CAROL)
    try:
        service = make_services(db, clock, seed)
        chips = service._chips
        await service.restore()
        for number, (verb, arg) in enumerate(ops):
            channel = 600 + arg % 3
            user = users[arg % 3]
            try:
                if verb == "open":
                    table = await service.open_table(
                        guild_id=GUILD,
                        channel_id=channel,
                        host_id=ALICE,
                        host_name="Alice",
                        game=("kap-shap", "kap-tai-shap", "tsung-shap")[arg % 3],
                    )
                    journal.ack(op="open", game=table.id)
                elif verb == "join":
                    table = await service.join(channel, users[1 + arg % 2], "Someone")
                    journal.ack(op="join", game=table.id, version=table.version)
                elif verb == "addbot":
                    table = await service.add_ai(channel, ALICE, "random")
                    journal.ack(op="join", game=table.id, version=table.version)
                elif verb == "leave":
                    table = await service.leave(channel, users[1 + arg % 2])
                    journal.ack(op="leave", game=table.id, version=table.version)
                elif verb == "start":
                    outcome = await service.start(channel, ALICE)
                    journal.ack(op="start", game=outcome.table.id, version=outcome.table.version)
                    if not outcome.table.status.is_open:
                        journal.ack(
                            op="end", game=outcome.table.id, status=str(outcome.table.status)
                        )
                elif verb == "move":
                    table = service.require(channel)
                    for _ in range(1 + arg % 4):
                        if not table.running or table.current_seat is None:
                            break
                        mover = table.current_seat.user_id
                        assert mover is not None
                        await service.act(
                            channel, mover, rng.choice(table.legal()), version=table.version
                        )
                        journal.ack(
                            op="act", game=table.id, version=table.version, status=str(table.status)
                        )
                    if not table.status.is_open:
                        journal.ack(op="end", game=table.id, status=str(table.status))
                elif verb in ("cancel", "endtable"):
                    table = await service.cancel(
                        channel, ALICE if verb == "cancel" else 99, admin=verb == "endtable"
                    )
                    journal.ack(op="end", game=table.id, status="aborted")
                elif verb == "rematch":
                    table = await service.rematch(channel, ALICE)
                    journal.ack(op="open", game=table.id)
                elif verb == "daily":
                    await chips.daily(GUILD, user)
                    journal.ack(op="ledger", key=f"daily:{GUILD}:{user}:{clock.now().date()}")
                elif verb == "gift":
                    await chips.give(GUILD, user, users[(arg + 1) % 3], 1 + arg, f"op:{number}")
                    journal.ack(op="ledger", key=f"give:op:{number}")
                elif verb == "wait":
                    clock.advance(timedelta(seconds=30 * (1 + arg)))
                    for outcome in await service.expire_due():
                        journal.ack(
                            op="act",
                            game=outcome.table.id,
                            version=outcome.table.version,
                            status=str(outcome.table.status),
                        )
                        if not outcome.table.running:
                            journal.ack(
                                op="end", game=outcome.table.id, status=str(outcome.table.status)
                            )
            except UserError:
                continue
    finally:
        journal.close()
        await db.close()


async def verify(db_path: Path | str, journal_path: Path) -> list[str]:
    """Start afresh on the file (restore, with its repairs); what is wrong, in words."""
    db = await Database.open(db_path)
    wrong: list[str] = []
    try:
        service = make_services(db, ManualClock(), 0)
        await service.restore()
        for table in service.tables():
            await service.resume_ai(table)
        async with db.read() as tx:
            problems, _ = await find_problems(tx)
            wrong.extend(str(p) for p in problems)
            for entry in read_journal(journal_path):
                wrong.extend(await _check_ack(tx, entry))
    finally:
        await db.close()
    return wrong


async def _check_ack(tx: Any, entry: dict[str, Any]) -> list[str]:
    op = entry["op"]
    if op == "ledger":
        found = await tx.scalar("SELECT COUNT(*) FROM ledger WHERE idem_key = ?", (entry["key"],))
        return [] if found else [f"acknowledged ledger entry {entry['key']} is missing"]
    row = await tx.fetchone(
        "SELECT status, version, settled FROM games WHERE id = ?", (entry["game"],)
    )
    if row is None:
        return [f"acknowledged game {entry['game']} ({op}) is missing"]
    status, version, settled = str(row[0]), int(row[1]), row[2]
    checks: dict[str, Callable[[], bool]] = {
        "open": lambda: True,
        # Seats come and go (a later join or leave may have committed unacknowledged); the
        # version only grows, so an acknowledged change is in it.
        "join": lambda: version >= entry["version"] or status not in ("lobby", "running"),
        "leave": lambda: version >= entry["version"] or status not in ("lobby", "running"),
        "start": lambda: status != "lobby" and version >= entry["version"],
        "act": lambda: (
            version >= entry["version"]
            and (entry["status"] == "running" or status == entry["status"])
        ),
        "end": lambda: status == entry["status"] and bool(settled),
    }
    if not checks[op]():
        return [f"acknowledged {entry} is not in the database (game is {status} v{version})"]
    if status not in (s.value for s in GameStatus):  # pragma: no cover - the CHECK forbids it
        return [f"game {entry['game']} has an unknown status {status}"]
    return []


if __name__ == "__main__":
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    target = sys.argv[1]
    asyncio.run(run(target if "://" in target else Path(target), Path(sys.argv[2]), seed))
