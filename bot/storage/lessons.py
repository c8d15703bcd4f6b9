"""SQL for the lessons (migration 0011): each member's progress, lesson by lesson.

Stateless repository: every method works inside the caller's transaction (``Tx``).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.db import Tx

__all__ = ["LessonProgressRecord", "LessonsRepo"]


@dataclass(frozen=True, slots=True)
class LessonProgressRecord:
    """A member's progress in one lesson: ``step`` is the next step to answer, ``mistakes`` the
    wrong answers since the lesson was (re)started, ``stars`` the best of a finished lesson."""

    user_id: int
    lesson: str
    step: int = 0
    mistakes: int = 0
    done: bool = False
    stars: int = 0


class LessonsRepo:
    """The rows of ``lesson_progress``."""

    async def get(self, tx: Tx, user_id: int, lesson: str) -> LessonProgressRecord | None:
        """A member's progress in a lesson, or None before he starts it."""
        row = await tx.fetchone(
            "SELECT step, mistakes, done, stars FROM lesson_progress "
            "WHERE user_id = ? AND lesson = ?",
            (user_id, lesson),
        )
        if row is None:
            return None
        return LessonProgressRecord(
            user_id,
            lesson,
            int(row["step"]),
            int(row["mistakes"]),
            bool(row["done"]),
            int(row["stars"]),
        )

    async def of_member(self, tx: Tx, user_id: int) -> list[LessonProgressRecord]:
        """Every lesson a member has started, by key."""
        rows = await tx.fetchall(
            "SELECT lesson, step, mistakes, done, stars FROM lesson_progress "
            "WHERE user_id = ? ORDER BY lesson",
            (user_id,),
        )
        return [
            LessonProgressRecord(
                user_id,
                str(row["lesson"]),
                int(row["step"]),
                int(row["mistakes"]),
                bool(row["done"]),
                int(row["stars"]),
            )
            for row in rows
        ]

    async def put(self, tx: Tx, record: LessonProgressRecord, now: float) -> None:
        """Store a member's progress in a lesson (replacing what was there)."""
        await tx.execute(
            "INSERT INTO lesson_progress "
            "(user_id, lesson, step, mistakes, done, stars, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, lesson) DO UPDATE SET "
            "step = excluded.step, mistakes = excluded.mistakes, done = excluded.done, "
            "stars = excluded.stars, updated_at = excluded.updated_at",
            (
                record.user_id,
                record.lesson,
                record.step,
                record.mistakes,
                int(record.done),
                record.stars,
                now,
            ),
        )
