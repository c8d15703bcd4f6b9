"""The games repository: lobbies, one table per channel, versions and the action log."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.storage.db import Database
from bot.storage.errors import (
    ChannelBusyError,
    GameNotFoundError,
    IntegrityError,
    StaleVersionError,
)
from bot.storage.games import GameEnd, GameRecord, GamesRepo, GameStatus

T0 = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
GUILD = 100
SEATS = json.dumps([{"user": 1, "name": "Ann"}, {"ai": "greedy"}])
RULES = json.dumps({"preset": "kap-shap", "rules": "culin"})
DEAL = json.dumps({"seed": 42})


async def _lobby(
    repo: GamesRepo, channel: int = 10, *, at: datetime = T0, game_id: str | None = None
) -> GameRecord:
    return await repo.create_lobby(
        guild_id=GUILD,
        channel_id=channel,
        host_id=1,
        game="kap-shap",
        rules_json=RULES,
        seats_json=SEATS,
        ante=50,
        turn_seconds=60,
        created_at=at,
        game_id=game_id,
    )


async def test_create_lobby_and_read_it_back(db: Database) -> None:
    repo = GamesRepo(db)
    created = await _lobby(repo)
    assert created.status is GameStatus.LOBBY
    assert created.version == 0
    assert len(created.id) == 12
    assert await repo.get(created.id) == created
    assert await repo.require(created.id) == created
    assert await repo.open_in_channel(10) == created
    assert await repo.get("nope") is None
    with pytest.raises(GameNotFoundError):
        await repo.require("nope")


async def test_only_one_unfinished_game_per_channel(db: Database) -> None:
    repo = GamesRepo(db)
    first = await _lobby(repo, channel=10)
    with pytest.raises(ChannelBusyError) as caught:
        await _lobby(repo, channel=10)
    assert caught.value.game_id == first.id
    assert caught.value.channel_id == 10

    await _lobby(repo, channel=11)  # another channel is free

    started = await repo.start(first.id, expected_version=0, deal_json=DEAL)
    with pytest.raises(ChannelBusyError):  # a running game blocks the channel too
        await _lobby(repo, channel=10)

    await repo.finish(first.id, GameEnd(GameStatus.ABORTED, T0), expected_version=started.version)
    replacement = await _lobby(repo, channel=10)  # a finished game frees it
    assert await repo.open_in_channel(10) == replacement


async def test_the_unique_index_itself_rejects_a_second_open_game(db: Database) -> None:
    # Bypass the repository's pre-check: the partial unique index is the real guarantee.
    await _lobby(GamesRepo(db), channel=10)
    with pytest.raises(IntegrityError, match=r"(?i)unique"):
        async with db.transaction() as tx:
            await tx.execute(
                "INSERT INTO games (id, guild_id, channel_id, status, game, rules_json, "
                "seats_json, host_id, turn_seconds, created_at) "
                "VALUES ('x', 1, 10, 'running', 'kap-shap', '{}', '[]', 1, 60, 'now')"
            )


async def test_updates_bump_the_version_and_reject_stale_ones(db: Database) -> None:
    repo = GamesRepo(db)
    game = await _lobby(repo)
    seats = json.dumps([{"user": 1}, {"user": 2}])
    updated = await repo.update(game.id, expected_version=0, seats_json=seats, ante=75)
    assert (updated.version, updated.seats_json, updated.ante) == (1, seats, 75)
    assert updated.rules_json == RULES  # untouched fields stay

    with pytest.raises(StaleVersionError) as caught:
        await repo.update(game.id, expected_version=0, ante=1)
    assert (caught.value.expected, caught.value.actual) == (0, 1)
    assert await repo.get(game.id) == updated

    with pytest.raises(GameNotFoundError):
        await repo.update("missing", expected_version=0, ante=1)
    with pytest.raises(ValueError, match="JSON"):
        await repo.update(game.id, expected_version=1, seats_json="{not json")


async def test_start_then_append_actions_in_sequence(db: Database) -> None:
    repo = GamesRepo(db)
    game = await _lobby(repo)
    with pytest.raises(ValueError, match="not running"):
        await repo.append_action(
            game.id, expected_version=0, seat=0, notation="draw", created_at=T0
        )
    running = await repo.start(game.id, expected_version=0, deal_json=DEAL, deadline=1000.5)
    assert running.status is GameStatus.RUNNING
    assert (running.deal_json, running.deadline, running.version) == (DEAL, 1000.5, 1)

    version = running.version
    for i, notation in enumerate(["take 6-5", "draw", "discard 3-1"]):
        record, action = await repo.append_action(
            game.id,
            expected_version=version,
            seat=i % 2,
            notation=notation,
            created_at=T0 + timedelta(seconds=i),
            deadline=2000.0 + i,
        )
        assert action.seq == i + 1
        assert record.version == version + 1
        assert record.deadline == 2000.0 + i
        version = record.version

    # A doubled click carries the old version: refused, and nothing is appended.
    with pytest.raises(StaleVersionError):
        await repo.append_action(
            game.id, expected_version=version - 1, seat=0, notation="draw", created_at=T0
        )
    actions = await repo.actions(game.id)
    assert [(a.seq, a.seat, a.notation) for a in actions] == [
        (1, 0, "take 6-5"),
        (2, 1, "draw"),
        (3, 0, "discard 3-1"),
    ]
    assert actions[2].created_at == T0 + timedelta(seconds=2)


async def test_the_final_action_finishes_the_game_atomically(db: Database) -> None:
    repo = GamesRepo(db)
    game = await _lobby(repo)
    running = await repo.start(game.id, expected_version=0, deal_json=DEAL, deadline=5.0)
    end = GameEnd(GameStatus.FINISHED, T0 + timedelta(minutes=5), winner_seat=1)
    record, action = await repo.append_action(
        game.id,
        expected_version=running.version,
        seat=1,
        notation="declare",
        created_at=T0,
        end=end,
    )
    assert action.seq == 1
    assert record.status is GameStatus.FINISHED
    assert (record.winner_seat, record.finished_at, record.deadline) == (1, end.finished_at, None)
    assert await repo.open_in_channel(10) is None
    assert await repo.list_unfinished() == []
    with pytest.raises(ValueError, match="already"):
        await repo.finish(game.id, GameEnd(GameStatus.ABORTED, T0))


def test_a_game_end_must_be_an_end_status() -> None:
    with pytest.raises(ValueError):
        GameEnd(GameStatus.RUNNING, T0)


async def test_start_only_from_the_lobby(db: Database) -> None:
    repo = GamesRepo(db)
    game = await _lobby(repo)
    await repo.start(game.id, expected_version=0, deal_json=DEAL)
    with pytest.raises(ValueError, match="lobby"):
        await repo.start(game.id, expected_version=1, deal_json=DEAL)


async def test_finish_without_a_version_wins_over_clicks(db: Database) -> None:
    repo = GamesRepo(db)
    game = await _lobby(repo)
    await repo.update(game.id, expected_version=0, ante=10)
    aborted = await repo.finish(game.id, GameEnd(GameStatus.ABORTED, T0))
    assert aborted.status is GameStatus.ABORTED
    assert aborted.version == 2


async def test_message_and_deadline_do_not_change_the_version(db: Database) -> None:
    repo = GamesRepo(db)
    game = await _lobby(repo)
    await repo.set_message_id(game.id, 987654321)
    await repo.set_deadline(game.id, 123.25)
    record = await repo.require(game.id)
    assert (record.message_id, record.deadline, record.version) == (987654321, 123.25, 0)
    with pytest.raises(GameNotFoundError):
        await repo.set_message_id("missing", 1)
    with pytest.raises(GameNotFoundError):
        await repo.set_deadline("missing", 1.0)


async def test_list_unfinished_survives_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    db = await Database.open(path)
    repo = GamesRepo(db)
    lobby = await _lobby(repo, channel=1, at=T0 + timedelta(minutes=2), game_id="lobbygame")
    running = await _lobby(repo, channel=2, at=T0, game_id="runninggame")
    running = await repo.start(running.id, expected_version=0, deal_json=DEAL, deadline=99.0)
    running, _ = await repo.append_action(
        running.id, expected_version=running.version, seat=0, notation="take 6-5", created_at=T0
    )
    done = await _lobby(repo, channel=3, at=T0 - timedelta(hours=1))
    await repo.finish(done.id, GameEnd(GameStatus.ABORTED, T0))
    drawn = await _lobby(repo, channel=4)
    await repo.start(drawn.id, expected_version=0, deal_json=DEAL)
    await repo.finish(drawn.id, GameEnd(GameStatus.DRAWN, T0))
    await db.close()

    db = await Database.open(path)
    try:
        repo = GamesRepo(db)
        unfinished = await repo.list_unfinished()
        assert [g.id for g in unfinished] == ["runninggame", "lobbygame"]  # oldest first
        assert unfinished == [running, lobby]
        assert [a.notation for a in await repo.actions("runninggame")] == ["take 6-5"]
    finally:
        await db.close()


async def test_naive_timestamps_are_refused(db: Database) -> None:
    with pytest.raises(ValueError, match="naive"):
        await _lobby(GamesRepo(db), at=datetime(2024, 1, 1))


async def test_edit_turns_coalesce_across_processes_unless_forced(db: Database) -> None:
    repo = GamesRepo(db)
    game = await _lobby(repo)
    assert await repo.claim_edit(game.id, 1, 100.0, 1.0) is None  # drawn at version 1
    assert await repo.claim_edit(game.id, 1, 100.5, 1.0) == float("inf")  # drawn already
    # Version 2 less than a second later waits for the interval ...
    assert await repo.claim_edit(game.id, 2, 100.5, 1.0) == 101.0
    # ... unless it must show at once (a start, an end): then it is drawn and recorded.
    assert await repo.claim_edit(game.id, 2, 100.5, 1.0, force=True) is None
    assert await repo.claim_edit(game.id, 2, 100.6, 1.0, force=True) == float("inf")
    assert await repo.claim_edit(game.id, 3, 101.6, 1.0) is None


async def test_open_among_names_the_games_still_open(db: Database) -> None:
    """Issue 23 (the arena): one read tells which of a tournament's games are in play."""
    repo = GamesRepo(db)
    lobby = await _lobby(repo, 10)
    running = await _lobby(repo, 11)
    await repo.start(running.id, expected_version=0, deal_json=DEAL)
    ended = await _lobby(repo, 12)
    await repo.finish(ended.id, GameEnd(GameStatus.ABORTED, T0))
    ids = [lobby.id, running.id, ended.id, "nosuchgame"]
    assert await repo.open_among(ids) == {lobby.id, running.id}
    assert await repo.open_among([]) == set()
    # More ids than one read takes (500 a read): the open ones are still all found.
    many = [f"x{i}" for i in range(1200)] + [running.id]
    assert await repo.open_among(many) == {running.id}
