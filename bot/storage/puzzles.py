"""SQL for puzzles (migration 0010): members' puzzle ratings and streaks, their answers, the
daily puzzle's channel per server and its posts (a timer row per server per day)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.storage.db import Row, Tx
from bot.storage.timestamps import from_db_time, to_db_time

__all__ = [
    "DailyPost",
    "DailySetting",
    "PuzzleAttempt",
    "PuzzleSolver",
    "PuzzlesRepo",
]


@dataclass(frozen=True, slots=True)
class PuzzleSolver:
    """A member's puzzle record in a server."""

    guild_id: int
    user_id: int
    rating: float
    solved: int = 0
    failed: int = 0
    streak: int = 0
    best_streak: int = 0


@dataclass(frozen=True, slots=True)
class PuzzleAttempt:
    """A member's (first) answer to a puzzle."""

    guild_id: int
    user_id: int
    game: str
    puzzle: int
    answer: str
    solved: bool
    rating_before: float
    rating_after: float


@dataclass(frozen=True, slots=True)
class DailySetting:
    """Where a server's daily puzzle is posted."""

    guild_id: int
    channel_id: int
    set_by: int


@dataclass(frozen=True, slots=True)
class DailyPost:
    """A server's puzzle of one day (``day`` is ``YYYY-MM-DD`` in UTC), due at ``due_at``;
    ``posted_at`` once a process claimed it."""

    guild_id: int
    day: str
    channel_id: int
    game: str
    puzzle: int
    due_at: datetime
    posted_at: datetime | None = None
    message_id: int | None = None


def _solver(r: Row) -> PuzzleSolver:
    return PuzzleSolver(
        guild_id=r["guild_id"],
        user_id=r["user_id"],
        rating=float(r["rating"]),
        solved=r["solved"],
        failed=r["failed"],
        streak=r["streak"],
        best_streak=r["best_streak"],
    )


def _post(r: Row) -> DailyPost:
    posted = r["posted_at"]
    return DailyPost(
        guild_id=r["guild_id"],
        day=r["day"],
        channel_id=r["channel_id"],
        game=r["game"],
        puzzle=r["puzzle"],
        due_at=from_db_time(r["due_at"]),
        posted_at=None if posted is None else from_db_time(posted),
        message_id=r["message_id"],
    )


_SOLVER_COLUMNS = "guild_id, user_id, rating, solved, failed, streak, best_streak"
_POST_COLUMNS = "guild_id, day, channel_id, game, puzzle, due_at, posted_at, message_id"


class PuzzlesRepo:
    """Puzzle ratings, answers and the daily puzzle. Stateless: every method works inside the
    caller's transaction."""

    async def solver(self, tx: Tx, guild_id: int, user_id: int) -> PuzzleSolver | None:
        """The member's puzzle record, or None before his first answer."""
        row = await tx.fetchone(
            f"SELECT {_SOLVER_COLUMNS} FROM puzzle_solvers WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        return None if row is None else _solver(row)

    async def put_solver(self, tx: Tx, solver: PuzzleSolver, at: datetime) -> None:
        """Write the member's puzzle record (created or replaced)."""
        await tx.execute(
            "INSERT INTO puzzle_solvers (guild_id, user_id, rating, solved, failed, streak, "
            "best_streak, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (guild_id, user_id) DO UPDATE SET rating = excluded.rating, "
            "solved = excluded.solved, failed = excluded.failed, streak = excluded.streak, "
            "best_streak = excluded.best_streak, updated_at = excluded.updated_at",
            (
                solver.guild_id,
                solver.user_id,
                solver.rating,
                solver.solved,
                solver.failed,
                solver.streak,
                solver.best_streak,
                to_db_time(at),
            ),
        )

    async def board(self, tx: Tx, guild_id: int, limit: int) -> list[PuzzleSolver]:
        """The server's members by puzzle rating, the highest first (ties: more solved)."""
        rows = await tx.fetchall(
            f"SELECT {_SOLVER_COLUMNS} FROM puzzle_solvers WHERE guild_id = ? "
            "ORDER BY rating DESC, solved DESC, user_id LIMIT ?",
            (guild_id, limit),
        )
        return [_solver(row) for row in rows]

    async def attempt(
        self, tx: Tx, guild_id: int, user_id: int, game: str, puzzle: int
    ) -> PuzzleAttempt | None:
        """The member's first answer to the puzzle, or None."""
        row = await tx.fetchone(
            "SELECT answer, solved, rating_before, rating_after FROM puzzle_attempts "
            "WHERE guild_id = ? AND user_id = ? AND game = ? AND puzzle = ?",
            (guild_id, user_id, game, puzzle),
        )
        if row is None:
            return None
        return PuzzleAttempt(
            guild_id,
            user_id,
            game,
            puzzle,
            row["answer"],
            bool(row["solved"]),
            float(row["rating_before"]),
            float(row["rating_after"]),
        )

    async def add_attempt(self, tx: Tx, attempt: PuzzleAttempt, at: datetime) -> None:
        """Record the member's first answer to a puzzle (IntegrityError for a second)."""
        await tx.execute(
            "INSERT INTO puzzle_attempts (guild_id, user_id, game, puzzle, answer, solved, "
            "rating_before, rating_after, answered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                attempt.guild_id,
                attempt.user_id,
                attempt.game,
                attempt.puzzle,
                attempt.answer,
                1 if attempt.solved else 0,
                attempt.rating_before,
                attempt.rating_after,
                to_db_time(at),
            ),
        )

    async def attempted(self, tx: Tx, guild_id: int, user_id: int, game: str) -> set[int]:
        """The puzzles of ``game`` the member has answered."""
        rows = await tx.fetchall(
            "SELECT puzzle FROM puzzle_attempts WHERE guild_id = ? AND user_id = ? AND game = ?",
            (guild_id, user_id, game),
        )
        return {int(row["puzzle"]) for row in rows}

    # -- the daily puzzle --------------------------------------------------------------------

    async def daily_setting(self, tx: Tx, guild_id: int) -> DailySetting | None:
        """Where the server's daily puzzle goes, or None when it has none."""
        row = await tx.fetchone(
            "SELECT channel_id, set_by FROM puzzle_daily WHERE guild_id = ?", (guild_id,)
        )
        return None if row is None else DailySetting(guild_id, row["channel_id"], row["set_by"])

    async def daily_settings(self, tx: Tx) -> list[DailySetting]:
        """Every server's daily puzzle channel."""
        rows = await tx.fetchall(
            "SELECT guild_id, channel_id, set_by FROM puzzle_daily ORDER BY guild_id"
        )
        return [DailySetting(r["guild_id"], r["channel_id"], r["set_by"]) for r in rows]

    async def set_daily(self, tx: Tx, setting: DailySetting, at: datetime) -> None:
        """Post the server's daily puzzle in ``setting.channel_id`` from now on."""
        await tx.execute(
            "INSERT INTO puzzle_daily (guild_id, channel_id, set_by, updated_at) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
            "channel_id = excluded.channel_id, set_by = excluded.set_by, "
            "updated_at = excluded.updated_at",
            (setting.guild_id, setting.channel_id, setting.set_by, to_db_time(at)),
        )

    async def clear_daily(self, tx: Tx, guild_id: int) -> bool:
        """Stop the server's daily puzzle (and drop its posts not made yet); whether it had
        one."""
        await tx.execute(
            "DELETE FROM puzzle_daily_posts WHERE guild_id = ? AND posted_at IS NULL",
            (guild_id,),
        )
        return await tx.execute("DELETE FROM puzzle_daily WHERE guild_id = ?", (guild_id,)) > 0

    async def add_post(self, tx: Tx, post: DailyPost) -> bool:
        """Schedule the server's puzzle of a day unless that day has one; whether it was
        added."""
        added = await tx.execute(
            f"INSERT INTO puzzle_daily_posts ({_POST_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (guild_id, day) DO NOTHING",
            (
                post.guild_id,
                post.day,
                post.channel_id,
                post.game,
                post.puzzle,
                to_db_time(post.due_at),
                None,
                None,
            ),
        )
        return added > 0

    async def post(self, tx: Tx, guild_id: int, day: str) -> DailyPost | None:
        """The server's puzzle of ``day``, or None."""
        row = await tx.fetchone(
            f"SELECT {_POST_COLUMNS} FROM puzzle_daily_posts WHERE guild_id = ? AND day = ?",
            (guild_id, day),
        )
        return None if row is None else _post(row)

    async def due_posts(self, tx: Tx, now: datetime) -> list[DailyPost]:
        """The posts due by ``now`` that no process has claimed."""
        rows = await tx.fetchall(
            f"SELECT {_POST_COLUMNS} FROM puzzle_daily_posts "
            "WHERE posted_at IS NULL AND due_at <= ? ORDER BY due_at, guild_id",
            (to_db_time(now),),
        )
        return [_post(row) for row in rows]

    async def claim_post(self, tx: Tx, guild_id: int, day: str, now: datetime) -> bool:
        """Claim a due post for this process: True for exactly one claimant."""
        claimed = await tx.execute(
            "UPDATE puzzle_daily_posts SET posted_at = ? "
            "WHERE guild_id = ? AND day = ? AND posted_at IS NULL",
            (to_db_time(now), guild_id, day),
        )
        return claimed > 0

    async def posted(self, tx: Tx, guild_id: int, day: str, message_id: int) -> None:
        """Note the message that carried the day's puzzle."""
        await tx.execute(
            "UPDATE puzzle_daily_posts SET message_id = ? WHERE guild_id = ? AND day = ?",
            (message_id, guild_id, day),
        )
