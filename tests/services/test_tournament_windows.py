"""The no-show window's rows (migration 0013) on both backends: due once decided never again,
Ready presses kept once, and a restart's down time given back only to the windows still open
when the bot was last seen."""

from __future__ import annotations

from bot.services.clock import ManualClock
from bot.storage.db import Database
from bot.storage.tournaments import TournamentsRepo
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
