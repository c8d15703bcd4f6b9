"""A tournament's clock fired by two processes at once (issue 20): sign-up closing and a
round's time limit are decided once, by whichever process commits first."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest

from bot.services.chips import ChipsDefaults, ChipsService
from bot.services.clock import ManualClock
from bot.services.tables import Outcome, Table, TableDefaults, TableService
from bot.services.tournaments import TournamentRecord, TournamentService, settings_from_options
from bot.storage.games import GamesRepo
from bot.storage.integrity import find_problems
from tests.services.test_two_services import open_database, shared_target

GUILD = 1
ORGANISER = 99
USERS = (11, 12, 13, 14)


class Host:
    """The Discord side, reduced to what the service needs: fresh thread ids, posts counted."""

    def __init__(self, service: TournamentService, posts: list[str]) -> None:
        self.service = service
        self.posts = posts
        self._ids = random.Random(id(self))

    async def open_thread(self, record: TournamentRecord, match_id: str, title: str) -> int:
        return self._ids.getrandbits(48) + 1

    async def show_table(self, outcome: Outcome) -> None:
        if outcome.finished:
            await self.service.game_ended(outcome)

    async def post(self, record: TournamentRecord, text: str, *, pictures: bool = False) -> None:
        self.posts.append(str(text))

    async def say(
        self,
        channel_id: int,
        guild_id: int,
        text: str,
        mentions: Sequence[int],
        *,
        ready: int | None = None,
    ) -> None:
        return None

    async def table_stopped(self, table: Table) -> None:
        return None

    async def refresh(self, record: TournamentRecord) -> None:
        return None

    async def announce(
        self, record: TournamentRecord, text: str, role_id: int | None, members: Sequence[int]
    ) -> None:
        self.posts.append(f"{role_id} {list(members)} {text}")


@dataclass
class Process:
    """One process's tournament and table services."""

    events: TournamentService
    tables: TableService


@pytest.fixture(params=["sqlite", "postgresql"])
async def two(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[tuple[Process, Process, ManualClock, list[str]]]:
    """Two processes' services on one database (on each backend), one clock, one list of the
    posts they made."""
    target = shared_target(request, tmp_path)
    dbs = [await open_database(target), await open_database(target)]
    clock = ManualClock()
    posts: list[str] = []
    made = []
    for seed, db in enumerate(dbs):
        chips = ChipsService(db, clock, ChipsDefaults(starting_chips=1000, daily_amount=100))
        tables = TableService(
            GamesRepo(db),
            chips,
            clock,
            TableDefaults(ante=0, turn_seconds=60),
            random.Random(seed),
            poll_seconds=2.0,
        )
        events = TournamentService(db, chips, tables, clock, rng=random.Random(7 + seed))
        events.host = Host(events, posts)
        tables.end_listeners.append(events.game_ended)
        made.append(Process(events, tables))
    try:
        yield made[0], made[1], clock, posts
    finally:
        for db in dbs:
            await db.close()


async def test_sign_up_closing_and_the_round_limit_fire_once(
    two: tuple[Process, Process, ManualClock, list[str]],
) -> None:
    one, other, clock, posts = two
    settings = settings_from_options(
        game="kap-shap",
        format=None,
        best_of=1,
        rounds=2,
        buy_in=25,
        prize_split="70/30",
        seats_limit=8,
    )
    view = await one.events.create(
        guild_id=GUILD,
        channel_id=5,
        organiser_id=ORGANISER,
        name="Cup",
        settings=settings,
        closes_in_minutes=10,
        round_minutes=5,
    )
    for user in USERS:
        await other.events.join(view.id, user, f"member{user}")
    clock.advance(10 * 60 + 1)
    # Both processes' clocks find the sign-up closed at the same moment: one starts the event.
    await asyncio.gather(one.events.expire_due(), other.events.expire_due())
    started = await one.events.view(view.id)
    assert started.record.status == "running"
    tables = {
        t.id for p in (one, other) for t in p.tables.tables() if t.running or t.status.is_open
    }
    assert len(tables) == 2  # the first round's two matches, opened once
    async with one.events._db.read() as tx:
        games = await tx.scalar("SELECT COUNT(*) FROM games")
    assert games == 2
    # The round's time limit passes: decided once, its notice posted once, its tables stopped
    # whichever process holds them (the one that did not open them fires first).
    holder, elsewhere = (one, other) if one.tables.tables() else (other, one)
    posted = len(posts)
    clock.advance(timedelta(minutes=5, seconds=1).total_seconds())
    await elsewhere.events.expire_due()
    await asyncio.gather(elsewhere.events.expire_due(), holder.events.expire_due())
    after = await other.events.view(view.id)
    rounds_decided = [p for p in posts[posted:] if "time" in p.lower()]
    assert len(rounds_decided) == 1, posts[posted:]
    assert after.record.version == started.record.version + 2  # one decision, one next round
    async with one.events._db.read() as tx:
        open_games = await tx.scalar(
            "SELECT COUNT(*) FROM games WHERE status IN ('lobby', 'running')"
        )
        games = await tx.scalar("SELECT COUNT(*) FROM games")
    assert (open_games, games) == (2, 4)  # round 1's tables stopped, round 2's two opened
    async with one.events._db.read() as tx:
        problems, _ = await find_problems(tx)
    assert [str(p) for p in problems] == []


async def test_two_processes_ending_a_round_at_once_decide_it_once(
    request: pytest.FixtureRequest, two: tuple[Process, Process, ManualClock, list[str]]
) -> None:
    """Each process ends one of the round's two games and carries the event on at the same
    moment (each process's own lock cannot keep them apart): the round is decided, its standings
    posted and the next round paired once, and neither process's listener fails."""
    if "sqlite" in request.node.callspec.id:
        pytest.skip("SQLite has one process: its tournament lock is this process's own")
    one, other, clock, posts = two
    settings = settings_from_options(
        game="kap-shap",
        format=None,
        best_of=1,
        rounds=2,
        buy_in=25,
        prize_split="70/30",
        seats_limit=8,
    )
    view = await one.events.create(
        guild_id=GUILD,
        channel_id=5,
        organiser_id=ORGANISER,
        name="Cup",
        settings=settings,
        closes_in_minutes=10,
        round_minutes=30,
    )
    for user in USERS:
        await one.events.join(view.id, user, f"member{user}")
    clock.advance(10 * 60 + 1)
    await one.events.expire_due()
    async with one.events._db.read() as tx:
        channels = [
            int(r[0]) for r in await tx.fetchall("SELECT channel_id FROM games ORDER BY rowid")
        ]
    assert len(channels) == 2
    outcomes = []
    for process, channel in zip((one, other), channels, strict=True):
        table = await process.tables.lookup(channel)
        assert table is not None and table.current_seat is not None
        assert table.current_seat.user_id is not None
        outcome = await process.tables.resign(channel, table.current_seat.user_id)
        assert outcome.finished
        outcomes.append(outcome)
    posted = len(posts)
    await asyncio.gather(one.events.game_ended(outcomes[0]), other.events.game_ended(outcomes[1]))
    standings = [p for p in posts[posted:] if "standings" in p]
    pairings = [p for p in posts[posted:] if "round 2" in p]
    assert (len(standings), len(pairings)) == (1, 1), posts[posted:]
    async with one.events._db.read() as tx:
        games = await tx.scalar("SELECT COUNT(*) FROM games")
        problems, _ = await find_problems(tx)
    assert games == 4  # round 2's two games, opened once
    assert [str(p) for p in problems] == []


async def test_a_reminder_due_in_two_processes_at_once_is_sent_once(
    two: tuple[Process, Process, ManualClock, list[str]],
) -> None:
    """Issue 23, "Schedule": the reminder is marked sent in the commit that decides it, so two
    processes' clocks finding it due at the same moment send it once; the role and the member
    who asked for DMs get it."""
    one, other, clock, posts = two
    settings = settings_from_options(
        game="kap-shap",
        format=None,
        best_of=1,
        rounds=2,
        buy_in=0,
        prize_split=None,
        seats_limit=8,
    )
    view = await one.events.create(
        guild_id=GUILD,
        channel_id=5,
        organiser_id=ORGANISER,
        name="Cup",
        settings=settings,
        starts_at=clock.now() + timedelta(minutes=70),
    )
    for user in USERS:
        await other.events.join(view.id, user, f"member{user}")
    name, on = await one.events.toggle_reminders(view.id, USERS[0])
    assert (name, on) == ("Cup", True)
    await other.events.set_schedule(view.id, ORGANISER, role_id=777)
    assert [p for p in posts if "Sign-up" in p] == [posts[-1]]
    assert posts[-1].startswith("777 [] ")  # the sign-up reminder: the role, no DMs
    for _ in range(2):
        clock.advance(5 * 60)
        await asyncio.gather(one.events.expire_due(), other.events.expire_due())
    sent = [p for p in posts if "**Cup** starts" in p]
    at = int(clock.now().timestamp()) + 3600
    assert sent == [f"777 [{USERS[0]}] ⏰ **Cup** starts <t:{at}:R> (<t:{at}:F>)."]
    # Nothing more until ten minutes before; then once more; then the start, by itself.
    clock.advance(49 * 60)
    await asyncio.gather(one.events.expire_due(), other.events.expire_due())
    assert len([p for p in posts if "**Cup** starts" in p]) == 1
    clock.advance(61)
    await asyncio.gather(one.events.expire_due(), other.events.expire_due())
    assert len([p for p in posts if "**Cup** starts" in p]) == 2
    clock.advance(10 * 60)
    await asyncio.gather(one.events.expire_due(), other.events.expire_due())
    assert (await one.events.view(view.id)).record.status == "running"
    assert len([p for p in posts if "**Cup** starts" in p]) == 2


async def test_the_first_round_waits_for_its_start_time(
    two: tuple[Process, Process, ManualClock, list[str]],
) -> None:
    """Issue 23, "Schedule": with a start time for each round, round 1 is paired at its time
    (not at the event's start), by whichever process's clock finds it due, once; its pairings
    say when round 2 starts."""
    one, other, clock, posts = two
    settings = settings_from_options(
        game="kap-shap",
        format=None,
        best_of=1,
        rounds=2,
        buy_in=0,
        prize_split=None,
        seats_limit=8,
    )
    view = await one.events.create(
        guild_id=GUILD, channel_id=5, organiser_id=ORGANISER, name="Cup", settings=settings
    )
    for user in USERS:
        await one.events.join(view.id, user, f"member{user}")
    first, second = clock.now() + timedelta(minutes=30), clock.now() + timedelta(minutes=90)
    await other.events.set_schedule(view.id, ORGANISER, round_times=[first, second])
    await one.events.start(view.id, ORGANISER)
    waiting = await one.events.view(view.id)
    assert waiting.record.status == "running"
    assert waiting.event is not None and waiting.event.rounds == []
    at = int(first.timestamp())
    assert posts[-1] == f"⏳ Round 1 of **Cup** starts <t:{at}:t> (<t:{at}:R>)."
    clock.advance(29 * 60)
    await asyncio.gather(one.events.expire_due(), other.events.expire_due())
    assert (await one.events.view(view.id)).event.rounds == []  # type: ignore[union-attr]
    clock.advance(61)
    await asyncio.gather(one.events.expire_due(), other.events.expire_due())
    paired = await one.events.view(view.id)
    assert paired.event is not None and len(paired.event.rounds) == 1
    assert "next_round_at" not in paired.record.options
    [pairings] = [p for p in posts if p.startswith("**Cup: round 1**")]
    assert pairings.endswith(f"The next round starts <t:{int(second.timestamp())}:F>.")
