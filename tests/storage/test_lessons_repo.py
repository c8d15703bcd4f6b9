"""The lessons' progress repository (migration 0011) on both backends."""

from __future__ import annotations

from bot.storage.db import Database
from bot.storage.lessons import LessonProgressRecord, LessonsRepo

BIG = 1_234_567_890_123_456_789  # a Discord snowflake: needs 64 bits on PostgreSQL


async def test_progress_is_stored_replaced_and_listed_per_member(db: Database) -> None:
    repo = LessonsRepo()
    async with db.transaction() as tx:
        assert await repo.get(tx, BIG, "kap-shap-tiles") is None
        await repo.put(tx, LessonProgressRecord(BIG, "kap-shap-tiles", 2, 1), 100.0)
        await repo.put(tx, LessonProgressRecord(BIG, "tsung-shap-captures", 4, 0, True, 3), 101.0)
        await repo.put(tx, LessonProgressRecord(7, "kap-shap-tiles", 1), 102.0)
    async with db.read() as tx:
        assert await repo.get(tx, BIG, "kap-shap-tiles") == LessonProgressRecord(
            BIG, "kap-shap-tiles", 2, 1, False, 0
        )
        assert [r.lesson for r in await repo.of_member(tx, BIG)] == [
            "kap-shap-tiles",
            "tsung-shap-captures",
        ]
    async with db.transaction() as tx:
        await repo.put(tx, LessonProgressRecord(BIG, "kap-shap-tiles", 5, 1, True, 2), 103.0)
    async with db.read() as tx:
        assert await repo.get(tx, BIG, "kap-shap-tiles") == LessonProgressRecord(
            BIG, "kap-shap-tiles", 5, 1, True, 2
        )
        assert await repo.of_member(tx, 7) == [LessonProgressRecord(7, "kap-shap-tiles", 1)]
        assert await repo.of_member(tx, 8) == []
