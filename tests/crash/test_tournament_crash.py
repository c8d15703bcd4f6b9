"""A tournament killed after every commit point in turn carries on to the same end.

A forked child runs a small event on the services (four members with buy-ins, Swiss, two
rounds with a break between them; every game dealt so the first seat declares at once; before
the start a member waits on the full event's waitlist, is promoted when the organiser removes an
entrant and leaves; a fifth member joins late during round 1) and is killed by the storage hook
(``KAPSHAP_CRASH_AFTER_COMMIT=N``) right after its N-th commit. A second child then starts as
the bot does (``TableService.restore``, ``TournamentService.resume_all``) and drives the event to
its end. The parent checks the invariant and that the final balances are exactly those of a run
that was never killed: every buy-in taken once, the prizes paid once, nothing lost.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import random
import traceback
from collections import Counter
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.engine import Deal, deal_from_tiles, parse_tiles
from bot.engine.family import engine_of
from bot.engine.tiles import KINDS, PIECE_KINDS, PIECES_PER_SET
from bot.games.collecting.engine.actions import Declare
from bot.services.chips import ChipsDefaults, ChipsService
from bot.services.clock import ManualClock
from bot.services.tables import Outcome, Table, TableDefaults, TableService
from bot.services.tournaments import TournamentRecord, TournamentService, settings_from_options
from bot.storage.db import (
    CRASH_AFTER_COMMIT_ENV,
    CRASH_EXIT_CODE,
    Database,
    commit_count,
    reset_commit_count,
)
from bot.storage.games import GamesRepo
from bot.storage.integrity import find_problems
from bot.tournament import Event, How
from tests.crash.backends import Backend, Target

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")

GUILD = 1
ORGANISER = 99
USERS = (11, 12, 13, 14)
REMOVED = 15  # joins, and is removed by the organiser before the start
WAITING = 16  # waits for a seat, is promoted by that removal, then leaves (refunded)
LATE = 17  # joins during round 1 (late entry until round 2): plays round 2
START = 1000
WINNING = "6-6 6-6 4-4 1-1 3-1 3-3 6-5 5-4"


def quick_deal(rules: Any, rng: Any, thrower: int = 0) -> Deal:
    """The first seat holds a winning hand and acts first (two players)."""
    winning = parse_tiles(WINNING)
    left: Counter[int] = Counter(PIECE_KINDS[p % PIECES_PER_SET] for p in range(rules.tile_count))
    for tile in winning:
        left[tile.index] -= 1
    rest = [KINDS[k] for k in sorted(left) for _ in range(left[k])]
    hands = [winning, rest[: rules.hand_size - 1]]
    deal = deal_from_tiles(rules, hands, rest[rules.hand_size - 1 : rules.hand_size + 9])
    return dataclasses.replace(deal, thrower=0, dice=(1, 1, 2, 2))


class Host:
    """The Discord side, reduced to what the service needs: fresh thread ids, no posts, and the
    live standings board drawn as the cog draws it (its drawings are commits too)."""

    def __init__(self, service: TournamentService) -> None:
        self.service = service
        self._ids = random.SystemRandom()
        self.due: set[int] = set()  # the boards due a drawing (the cog's coalescing)
        service.standings_changed = self.due.add

    async def draw(self, tournament_id: int, *, redraw: bool = False) -> None:
        """Draw the board as the cog does (no Discord: the message stays the sign-up one)."""
        async with self.service.board_turn(tournament_id, redraw=redraw) as turn:
            if turn is not None:
                await self.service.board_drawn(turn, turn.message_id)

    async def draw_due(self) -> None:
        """The cog's ``boards`` pass: every due board, once."""
        due, self.due = self.due, set()
        for tournament_id in sorted(due):
            await self.draw(tournament_id)

    async def open_thread(self, record: TournamentRecord, match_id: str, title: str) -> int:
        return self._ids.getrandbits(48) + 1

    async def show_table(self, outcome: Outcome) -> None:
        if outcome.finished:
            await self.service.game_ended(outcome)

    async def post(self, record: TournamentRecord, text: str, *, pictures: bool = False) -> None:
        return None

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
        await self.draw(record.id, redraw=True)

    async def tell(self, record: TournamentRecord, user_id: int, text: str) -> None:
        return None


async def drive(path: Target) -> int:
    """Run (or carry on) the event to its end, as a fresh start of the bot would; commits."""
    # Every game of the event deals a winning hand to its first seat (the facet the table
    # service asks to deal).
    engine_of("kap-shap").deal = quick_deal  # type: ignore[method-assign]
    db = await Database.open(path)
    try:
        clock = ManualClock()
        chips = ChipsService(db, clock, ChipsDefaults(starting_chips=START, daily_amount=100))
        tables = TableService(
            GamesRepo(db), chips, clock, TableDefaults(ante=0, turn_seconds=60), random.Random(1)
        )
        service = TournamentService(db, chips, tables, clock, rng=random.Random(7))
        host = Host(service)
        service.host = host
        tables.end_listeners.append(service.game_ended)
        tables.act_listeners.append(service.acted)
        await tables.restore()
        async with db.read() as tx:
            found = await tx.scalar("SELECT id FROM tournaments ORDER BY id LIMIT 1")
        if found is None:
            settings = settings_from_options(
                game="kap-shap",
                format=None,
                best_of=1,
                rounds=2,
                buy_in=25,
                prize_split="70/30",
                seats_limit=5,
                no_show_limit=2,  # the forfeit commit, but every player stays for round 2
                late_until=2,
            )
            view = await service.create(
                guild_id=GUILD, channel_id=5, organiser_id=ORGANISER, name="Cup", settings=settings
            )
            tid = view.id
            await service.set_message(tid, 500)  # the sign-up message: the board
        else:
            tid = int(found)
        view = await service.view(tid)
        if view.record.status == "registration":
            entered = {e.user_id for e in view.entries}
            for user in USERS:
                if user not in entered:
                    await service.join(tid, user, f"member{user}")
            # One more member joins (the event is full) and another waits; the organiser
            # removes the first before the start (refunded in the removal's commit), which
            # promotes the one waiting (his buy-in taken in that commit), who then leaves
            # (refunded): each step done again after a kill in between, from what is stored.
            if REMOVED not in entered and WAITING not in entered:
                await service.join(tid, REMOVED, f"member{REMOVED}")
            view = await service.view(tid)
            if WAITING not in {e.user_id for e in view.entries} | {p for p, _ in view.waitlist}:
                view = await service.join(tid, WAITING, f"member{WAITING}")
                assert [p for p, _ in view.waitlist] == [WAITING]
            if REMOVED in {e.user_id for e in (await service.view(tid)).entries}:
                await service.remove(tid, ORGANISER, REMOVED)
            if WAITING in {e.user_id for e in (await service.view(tid)).entries}:
                await service.leave(tid, WAITING)
            # A break of five minutes between the rounds (issue 23, "Schedule"): round 2
            # waits for it (the wait is a commit of its own).
            await service.set_schedule(tid, ORGANISER, break_minutes=5)
            await service.start(tid, ORGANISER)
        await service.resume_all()
        host.due.update(await service.boards_behind())  # as the cog does at a start
        await host.draw_due()
        view = await service.view(tid)
        if view.event is not None and LATE not in view.event.seeds:
            assert view.event.late_entry_round() == 2
            await service.join(tid, LATE, f"member{LATE}")
        await no_show(service, clock, tid)
        await host.draw_due()
        # The organiser enters the result of round 1's second match while it is played (its
        # table ended, the correction kept), once: a restart finds it among the corrections.
        # (The first match is the no-show's forfeit.)
        view = await service.view(tid)
        if view.event is not None and not view.record.options.get("corrections"):
            rnd = view.event.current_round
            assert rnd is not None and rnd.number == 1
            second = rnd.matches[1]
            await service.set_result(
                tid, ORGANISER, second.id, second.players[1], "entered by hand"
            )
        for _ in range(50):
            if (await service.view(tid)).record.status == "finished":
                break
            playing = [t for t in tables.tables() if t.running]
            if not playing:
                # The break before round 2: its time passes, the clock pairs the round.
                clock.advance(5 * 60 + 1)
                await service.expire_due()
                await service.advance(tid)
                continue
            for table in playing:
                assert table.state is not None
                user = table.seats[table.state.current].user_id
                assert user is not None
                outcome = await tables.act(table.channel_id, user, Declare())
                if outcome.finished:
                    await tables.notify_ended(outcome)
            await host.draw_due()
        await host.draw_due()
        assert (await service.view(tid)).record.status == "finished"
        exported = await service.export(tid, GUILD)  # reads only: no commit
        assert [row["id"] for row in exported.data["standings"]] == [
            p
            for p, _ in (await service.view(tid)).record.results["ranking"]  # type: ignore[index]
        ]
        # Round 1's matches were decided by the no-show's forfeit and by hand: only round 2's
        # two games were played out.
        assert len(exported.records) == 2
        assert [c["reason"] for c in exported.data["corrections"]] == ["entered by hand"]
        return commit_count()
    finally:
        await db.close()


async def no_show(service: TournamentService, clock: ManualClock, tid: int) -> None:
    """Round 1's first match: its higher seed (the first to act) never shows, the other presses
    Ready, and the no-show window fires (the forfeit and the withdrawal are commits too)."""
    event = (await service.view(tid)).event
    rnd = None if event is None else event.current_round
    if event is None or rnd is None or rnd.number != 1 or rnd.matches[0].done:
        return
    await service.ready(tid, rnd.matches[0].players[1])
    for player in rnd.matches[1].players:  # both here: that match plays on
        await service.ready(tid, player)
    # The clock starts afresh with every process; the window is five minutes from the match's
    # first game, as stored.
    clock.advance(5 * 60 + 1)
    await service.expire_due()


Driver = Callable[[Target], Coroutine[Any, Any, int]]


def _fork(path: Target, folder: Path, crash_after: int | None, driver: Driver = drive) -> int:
    """Run ``driver`` (:func:`drive`) in a forked child (killed after commit ``crash_after``);
    its pid."""
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            reset_commit_count()  # count this child's commits, not the parent's too
            if crash_after is None:
                os.environ.pop(CRASH_AFTER_COMMIT_ENV, None)
            else:
                os.environ[CRASH_AFTER_COMMIT_ENV] = str(crash_after)
            commits = asyncio.run(driver(path))
            (folder / "commits").write_text(str(commits))
        except BaseException:
            traceback.print_exc()
            code = 1
        finally:
            os._exit(code)
    return pid


def _child(path: Target, folder: Path, crash_after: int | None, driver: Driver = drive) -> int:
    """Run ``driver`` in a forked child; its exit status."""
    _, status = os.waitpid(_fork(path, folder, crash_after, driver), 0)
    return os.waitstatus_to_exitcode(status)


async def outcome_of(path: Target) -> dict[str, Any]:
    """The balances, the invariant's problems and the event's status."""
    db = await Database.open(path)
    try:
        async with db.read() as tx:
            problems, _ = await find_problems(tx)
            rows = await tx.fetchall(
                "SELECT user_id, balance FROM accounts WHERE guild_id = ? ORDER BY user_id",
                (GUILD,),
            )
            status = await tx.scalar("SELECT status FROM tournaments")
            # The board shows the event's last version (its final results), whatever the kill.
            board = await tx.scalar(
                "SELECT b.version = t.version FROM tournaments t "
                "JOIN tournament_boards b ON b.tournament_id = t.id"
            )
            results = await tx.scalar("SELECT results_json FROM tournaments")
            state = await tx.scalar("SELECT state_json FROM tournaments")
        return {
            "problems": [str(p) for p in problems],
            "balances": {int(r[0]): int(r[1]) for r in rows},
            "status": status,
            "board_current": bool(board),
            "ranking": None if results is None else json.loads(results)["ranking"],
            "forfeits": None if state is None else _forfeits(json.loads(state)),
        }
    finally:
        await db.close()


def _forfeits(state: dict[str, Any]) -> list[str]:
    """The matches of the event decided by forfeit."""
    event = Event.from_dict(state)
    return [
        m.id for r in event.rounds for m in r.matches if m.result and m.result.how is How.FORFEIT
    ]


def test_every_commit_point_of_a_tournament_is_survived(backend: Backend) -> None:
    whole, _ = backend.fresh("whole")
    assert _child(whole, backend.tmp / "whole", None) == 0
    total = int((backend.tmp / "whole" / "commits").read_text())
    expected = asyncio.run(outcome_of(whole))
    assert expected["problems"] == [] and expected["status"] == "finished"
    assert expected["board_current"]
    assert expected["forfeits"] == ["R1-1"], "round 1's no-show window fired"
    pool = 25 * (len(USERS) + 1)  # the late entrant paid the same buy-in
    assert expected["balances"].pop(REMOVED) == START  # refunded, exactly once
    assert expected["balances"].pop(WAITING) == START  # charged when promoted, then refunded
    assert sum(expected["balances"].values()) == START * (len(USERS) + 1)
    paid = sorted(b - (START - 25) for b in expected["balances"].values())
    assert paid[:3] == [0, 0, 0] and sum(paid) == pool, "70/30 of the five buy-ins"
    assert abs(paid[-1] - 0.7 * pool) < 1
    expected["balances"][REMOVED] = START
    expected["balances"][WAITING] = START
    assert total > 30  # long enough to mean something

    assert kill_everywhere(backend, total, expected) == []


def kill_everywhere(
    backend: Backend, total: int, expected: dict[str, Any], driver: Driver = drive
) -> list[str]:
    """Kill ``driver`` after each of its ``total`` commits in turn, restart it, and compare
    each outcome with ``expected``: the failures."""
    # A few points at once: each point is a killed child, then a restarted one, then a check.
    failures: list[str] = []
    points = iter(range(1, total + 1))
    running: dict[int, tuple[int, bool]] = {}  # pid -> (kill point, is it the restart)

    def launch() -> None:
        point = next(points, None)
        if point is not None:
            target, _ = backend.fresh(f"kill{point}")
            running[_fork(target, backend.tmp / f"kill{point}", point, driver)] = (point, False)

    for _ in range(max(1, min(4, os.cpu_count() or 1))):
        launch()
    while running:
        pid, status = os.waitpid(-1, 0)
        if pid not in running:
            continue
        point, restarted = running.pop(pid)
        target, _ = backend.of(f"kill{point}")
        code = os.waitstatus_to_exitcode(status)
        if not restarted:
            if code != CRASH_EXIT_CODE:
                failures.append(f"kill point {point}: the child exited with {code}")
                backend.drop(f"kill{point}")
                launch()
            else:
                running[_fork(target, backend.tmp / f"kill{point}", None, driver)] = (point, True)
            continue
        launch()
        if code != 0:
            failures.append(f"kill point {point}: the restart did not finish the event")
            backend.drop(f"kill{point}")
            continue
        got = asyncio.run(outcome_of(target))
        if got != expected:
            failures.append(f"kill point {point}: {got} != {expected}")
        backend.drop(f"kill{point}")
    return failures


# ------------------------------------------------------------------------- the arena (issue 23)

ARENA_LATE = 16  # joins the arena once it runs (his buy-in in the join's commit)
ARENA_GAMES = 5  # matches paired before the arena's time is up


async def drive_arena(path: Target) -> int:
    """An arena of three members and a late fourth, run (or carried on) to its end: each
    finisher paired again at once (the pairing's commit), the late entry, the end of its time
    with a game in play (the closing commit), the payout. Games are played one at a time, the
    lowest open match first, so every run pairs the same way."""
    engine_of("kap-shap").deal = quick_deal  # type: ignore[method-assign]
    db = await Database.open(path)
    try:
        clock = ManualClock()
        chips = ChipsService(db, clock, ChipsDefaults(starting_chips=START, daily_amount=100))
        tables = TableService(
            GamesRepo(db), chips, clock, TableDefaults(ante=0, turn_seconds=60), random.Random(1)
        )
        service = TournamentService(db, chips, tables, clock, rng=random.Random(7))
        host = Host(service)
        service.host = host
        tables.end_listeners.append(service.game_ended)
        await tables.restore()
        async with db.read() as tx:
            found = await tx.scalar("SELECT id FROM tournaments ORDER BY id LIMIT 1")
        if found is None:
            settings = settings_from_options(
                game="kap-shap",
                format="arena",
                best_of=1,
                rounds=None,
                buy_in=25,
                prize_split="70/30",
                seats_limit=8,
                no_show_minutes=0,
                arena_minutes=5,
            )
            view = await service.create(
                guild_id=GUILD,
                channel_id=5,
                organiser_id=ORGANISER,
                name="Arena",
                settings=settings,
            )
            tid = view.id
            await service.set_message(tid, 500)  # the sign-up message: the board
        else:
            tid = int(found)
        view = await service.view(tid)
        if view.record.status == "registration":
            entered = {e.user_id for e in view.entries}
            for user in USERS[:3]:
                if user not in entered:
                    await service.join(tid, user, f"member{user}")
            await service.start(tid, ORGANISER)
        await service.resume_all()
        host.due.update(await service.boards_behind())  # as the cog does at a start
        await host.draw_due()
        view = await service.view(tid)
        assert view.event is not None
        if ARENA_LATE not in view.event.seeds:
            await service.join(tid, ARENA_LATE, f"member{ARENA_LATE}")
        for _ in range(60):
            view = await service.view(tid)
            if view.record.status == "finished":
                break
            event = view.event
            assert event is not None
            if not event.closing and len(event.rounds[0].matches) >= ARENA_GAMES:
                # The clock starts afresh with every process; the end is as stored.
                clock.advance(5 * 60 + 1)
                await service.expire_due()
                continue
            running = [t for t in tables.tables() if t.running]
            table = next(
                (
                    t
                    for m in sorted(event.open_matches(), key=lambda m: int(m.id[1:]))
                    for t in running
                    if {s.user_id for s in t.seats} == set(m.players)
                ),
                None,
            )
            if table is None:
                await service.advance(tid)
                continue
            assert table.state is not None
            user = table.seats[table.state.current].user_id
            assert user is not None
            outcome = await tables.act(table.channel_id, user, Declare())
            if outcome.finished:
                await tables.notify_ended(outcome)
            await host.draw_due()
        await host.draw_due()
        view = await service.view(tid)
        assert view.record.status == "finished" and view.event is not None
        assert len(view.event.rounds[0].matches) == ARENA_GAMES  # nobody paired after the end
        return commit_count()
    finally:
        await db.close()


def test_every_commit_point_of_an_arena_is_survived(backend: Backend) -> None:
    whole, _ = backend.fresh("whole")
    assert _child(whole, backend.tmp / "whole", None, drive_arena) == 0
    total = int((backend.tmp / "whole" / "commits").read_text())
    expected = asyncio.run(outcome_of(whole))
    assert expected["problems"] == [] and expected["status"] == "finished"
    assert expected["board_current"]
    members = (*USERS[:3], ARENA_LATE)
    assert sum(expected["balances"][u] for u in members) == START * len(members)
    assert sorted(expected["balances"][u] - (START - 25) for u in members)[-2:] == [30, 70]
    assert total > 20  # long enough to mean something
    assert kill_everywhere(backend, total, expected, drive_arena) == []
