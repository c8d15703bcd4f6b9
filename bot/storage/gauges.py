"""The few values the operations layer reads from the database at scrape time.

Every query here is bounded by what is open right now, never by the history: open games use the
partial index ``games_unfinished``, due turns ``games_due``, and escrow holds rows only while a
pot is open. They run in one read block (one snapshot).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.storage.db import Database

__all__ = ["Gauges", "ping", "read_gauges"]


@dataclass(frozen=True, slots=True)
class Gauges:
    """What is open in the database at one moment (every process's tables together)."""

    open_tables: dict[tuple[str, str], int] = field(default_factory=dict)
    """Open tables by (game, status): status ``lobby`` (waiting to start) or ``running``."""
    escrow: int = 0
    """Chips held in escrow: the antes and buy-ins of pots not yet settled."""
    timers_set: int = 0
    """Running games with a turn deadline."""
    timers_due: int = 0
    """Of these, the deadlines already passed (their timeout is due now)."""
    timers_late: int = 0
    """Of these, the deadlines passed more than ``late_after`` seconds ago: nobody fired them."""


async def read_gauges(db: Database, now: float, late_after: float) -> Gauges:
    """The gauges at ``now`` (a POSIX timestamp, the unit of ``games.deadline``)."""
    async with db.read() as tx:
        rows = await tx.fetchall(
            "SELECT game, status, COUNT(*) FROM games WHERE status IN ('lobby', 'running') "
            "GROUP BY game, status"
        )
        escrow = await tx.scalar("SELECT COALESCE(SUM(amount), 0) FROM escrow")
        timers = await tx.fetchone(
            "SELECT COUNT(*), "
            "COALESCE(SUM(CASE WHEN deadline <= ? THEN 1 ELSE 0 END), 0), "
            "COALESCE(SUM(CASE WHEN deadline <= ? THEN 1 ELSE 0 END), 0) "
            "FROM games WHERE status = 'running' AND deadline IS NOT NULL",
            (now, now - late_after),
        )
    set_, due, late = (0, 0, 0) if timers is None else (int(v) for v in timers)
    return Gauges(
        open_tables={(str(r[0]), str(r[1])): int(r[2]) for r in rows},
        escrow=int(escrow or 0),
        timers_set=set_,
        timers_due=due,
        timers_late=late,
    )


async def ping(db: Database) -> None:
    """One round trip to the database; raises what a block would if it does not answer."""
    async with db.read() as tx:
        await tx.scalar("SELECT 1")
