"""The ratings repository: column order, board counters kept by triggers."""

from __future__ import annotations

import dataclasses

from bot.storage import ratings
from bot.storage.db import Database
from bot.storage.ratings import MemberRating, RatingsRepo, ResultRow


def test_result_columns_follow_the_fields_of_result_row() -> None:
    # Rows are built positionally (ResultRow(*row)): the two orders must agree.
    assert ratings._RESULT_COLUMNS.split(", ") == [f.name for f in dataclasses.fields(ResultRow)]


async def test_board_counters_follow_inserts_updates_and_deletes(db: Database) -> None:
    repo = RatingsRepo()
    async with db.transaction() as tx:
        await repo.put_member(tx, MemberRating(1, "kap-shap", 10, games=1, draws=1))
        await repo.put_member(tx, MemberRating(1, "kap-shap", 11, 1, 1, 0, 1, 27.0, 7.0, 1100))
        await repo.put_member(tx, MemberRating(2, "kap-shap", 10, 1, 1, 0, 1, 27.0, 7.0, 1100))
        assert await repo.count(tx, 1, "kap-shap", "wins") == 2
        assert await repo.count(tx, 1, "kap-shap", "rating") == 1
        # Member 10's first rated game: an update that gives him a rating.
        await repo.put_member(tx, MemberRating(1, "kap-shap", 10, 2, 1, 1, 1, 27.0, 7.0, 1100))
        assert await repo.count(tx, 1, "kap-shap", "rating") == 2
        assert await repo.count(tx, 1, "kap-shap", "wins") == 2
        assert await repo.count(tx, 1, "tsung-shap", "wins") == 0
        await repo.clear_all(tx)
        assert await repo.count(tx, 1, "kap-shap", "wins") == 0
        assert await repo.count(tx, 1, "kap-shap", "rating") == 0
