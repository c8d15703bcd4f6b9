"""The no-show window's rows (migration 0013) on both backends: due once decided never again,
Ready presses kept once, and a restart's down time given back only to the windows still open
when the bot was last seen."""

from __future__ import annotations

from bot.services.clock import ManualClock
from bot.storage.db import Database
from bot.storage.tournaments import MatchRow, TournamentsRepo
from tests.services.test_tournament_chips import event


async def test_windows_fire_once_keep_ready_presses_and_get_back_down_time(db: Database) -> None:
    repo = TournamentsRepo()
    tid = await event(db, ManualClock())
    async with db.transaction() as tx:
        await repo.open_window(tx, tid, 1, "R1-1", 100.0)
        await repo.open_window(tx, tid, 1, "R1-2", 400.0)
        await repo.open_window(tx, tid, 1, "R1-1", 900.0)  # opened already: kept as it was
        await repo.mark_ready(tx, tid, 1, "R1-2", 42)
        await repo.mark_ready(tx, tid, 1, "R1-2", 42)
    async with db.read() as tx:
        assert await repo.window(tx, tid, 1, "R1-1") == 100.0
        assert await repo.due_windows(tx, 150.0) == [(tid, 1, "R1-1")]
        assert await repo.ready(tx, tid, 1, "R1-2") == {42}
    async with db.transaction() as tx:
        await repo.close_window(tx, tid, 1, "R1-1")
        await repo.open_window(tx, tid, 1, "R1-1", 50.0)  # a replayed game: no new window
        # The bot was last seen at 200 and is back 300 seconds later: the open window (due
        # at 400) gets them back; the one decided before stays decided.
        await repo.shift_windows(tx, 200.0, 300.0)
    async with db.read() as tx:
        assert await repo.due_windows(tx, 10_000.0) == [(tid, 1, "R1-2")]
        assert await repo.window(tx, tid, 1, "R1-2") == 700.0
        assert await repo.window(tx, tid, 1, "R1-1") is None
    async with db.transaction() as tx:
        await repo.delete_round_windows(tx, tid, 1)
    async with db.read() as tx:
        assert await repo.due_windows(tx, 10_000.0) == []
        assert await repo.ready(tx, tid, 1, "R1-2") == set()


async def test_match_rows_of_some_matches_only(db: Database) -> None:
    """Issue 23 (the arena): a step reads the rows of the matches in play, not every game of
    the event's one round."""
    repo = TournamentsRepo()
    tid = await event(db, ManualClock())
    async with db.transaction() as tx:
        for n in range(1, 6):
            await repo.put_match(tx, tid, MatchRow(f"A{n}", 1, 100 + n))
    async with db.read() as tx:
        assert [r.match_id for r in await repo.matches(tx, tid, 1)] == [
            "A1",
            "A2",
            "A3",
            "A4",
            "A5",
        ]
        some = await repo.matches(tx, tid, 1, ["A4", "A2", "A9"])
        assert [(r.match_id, r.thread_id) for r in some] == [("A2", 102), ("A4", 104)]
        assert await repo.matches(tx, tid, 1, []) == []
