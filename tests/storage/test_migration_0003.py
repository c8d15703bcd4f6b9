"""Migration 0003 on a version-2 database: games keep every row, the ended ones whose pot is
still open are marked unsettled (the start-up repair's work list), the others settled."""

from __future__ import annotations

from pathlib import Path

from bot.storage.db import Database, load_migrations
from bot.storage.games import GamesRepo, GameStatus

WHEN = "2026-01-01T00:00:00+00:00"


async def test_version_2_games_upgrade_with_their_settled_mark(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    old = await Database.open(path, migrations=load_migrations()[:2])
    async with old.transaction() as tx:
        for game, status, channel in (
            ("open-pot", "finished", 1),
            ("paid", "finished", 2),
            ("running", "running", 3),
            ("lobby", "lobby", 4),
        ):
            ended = status in ("finished", "drawn", "aborted")
            await tx.execute(
                "INSERT INTO games (id, guild_id, channel_id, status, game, rules_json, "
                "seats_json, host_id, turn_seconds, created_at, finished_at, winner_seat) "
                "VALUES (?, 1, ?, ?, 'kap-shap', '{}', '[]', 5, 60, ?, ?, ?)",
                (game, channel, status, WHEN, WHEN if ended else None, 0 if ended else None),
            )
        await tx.execute(
            "INSERT INTO pots (game_id, guild_id, channel_id, created_at) "
            "VALUES ('open-pot', 1, 1, ?)",
            (WHEN,),
        )
        await tx.execute("INSERT INTO game_actions VALUES ('running', 1, 0, 'draw', ?)", (WHEN,))
    await old.close()

    db = await Database.open(path)
    try:
        assert db.schema_version == len(load_migrations())
        games = GamesRepo(db)
        assert [g.id for g in await games.list_unsettled()] == ["open-pot"]
        paid = await games.require("paid")
        assert paid.settled and paid.status is GameStatus.FINISHED and paid.broken_reason is None
        assert sorted(g.id for g in await games.list_unfinished()) == ["lobby", "running"]
        assert [a.notation for a in await games.actions("running")] == ["draw"]
        async with db.read() as tx:
            assert await tx.fetchall("PRAGMA foreign_key_check") == []
    finally:
        await db.close()
