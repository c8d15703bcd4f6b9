"""``kapshap record export | replay | review | analyse``."""

from __future__ import annotations

import asyncio
import io
import json
from datetime import UTC, datetime
from pathlib import Path

from bot.cli import main as kapshap
from bot.engine.record import GameRecord, parse_record, write_record
from bot.records_cli import main_analyse, main_record, main_replay, main_review
from bot.storage.db import Database
from bot.storage.games import GameEnd, GamesRepo, GameStatus
from tests.engine.test_record import random_game


def record_file(tmp_path: Path, preset: int = 0, seed: int = 2) -> Path:
    path = tmp_path / "game.txt"
    path.write_text(write_record(random_game(preset, seed)), encoding="utf-8")
    return path


def test_replay_prints_every_step(tmp_path: Path) -> None:
    path = record_file(tmp_path)
    out, err = io.StringIO(), io.StringIO()
    assert main_replay([str(path), "--all"], out=out, err=err) == 0
    text = out.getvalue()
    assert "1. Player" in text or "1. Bot" in text
    assert "Result: " in text


def test_replay_waits_for_enter_and_stops_on_q(tmp_path: Path) -> None:
    path = record_file(tmp_path)
    out = io.StringIO()
    assert main_replay([str(path)], inp=io.StringIO("\nq\n"), out=out) == 0
    assert "\n1. " in out.getvalue() and "\n2. " not in out.getvalue()


def test_a_bad_record_names_the_line(tmp_path: Path) -> None:
    path = record_file(tmp_path)
    path.write_text(path.read_text().replace("Rule sets: 1", "Rule sets: lots"))
    err = io.StringIO()
    assert main_replay([str(path), "--all"], out=io.StringIO(), err=err) == 1
    assert "game.txt: line 7: " in err.getvalue() and "whole number" in err.getvalue()


def test_review_and_analyse(tmp_path: Path) -> None:
    path = record_file(tmp_path)
    out = io.StringIO()
    assert main_review([str(path), "--rollouts", "10"], out=out, err=io.StringIO()) == 0
    assert out.getvalue().startswith("Player 0 (seat 0): ")
    assert "Every decision, in the game's order:" in out.getvalue()
    out = io.StringIO()
    assert main_analyse([str(path), "--at", "1", "--rollouts", "10"], out=out) == 0
    assert "Before action 1 (turn 1): " in out.getvalue()
    assert "chance to win after each move, the best first" in out.getvalue()
    assert " %" in out.getvalue() and "← played" in out.getvalue()


def test_the_kapshap_command_dispatches(tmp_path: Path, capsys: object) -> None:
    path = record_file(tmp_path, preset=5)
    assert kapshap(["replay", str(path), "--all"]) == 0


async def store_game(
    db_path: Path, record: GameRecord, *, guild_id: int = 42, finished: bool = True
) -> str:
    """Store ``record`` as a game of ``guild_id`` through the games repository."""
    db = await Database.open(db_path)
    games = GamesRepo(db)
    now = datetime(2026, 11, 24, tzinfo=UTC)
    seats = [{"name": s.name, "user_id": 1000 + i if s.kind == "member" else None,
              "ai_level": s.ident if s.kind == "ai" else None}
             for i, s in enumerate(record.seats)]  # fmt: skip
    stored = await games.create_lobby(
        guild_id=guild_id, channel_id=7, host_id=1000, game=str(record.rules.game),
        rules_json="{}", seats_json=json.dumps(seats), ante=0, turn_seconds=60, created_at=now,
    )  # fmt: skip
    version = (
        await games.start(
            stored.id,
            expected_version=stored.version,
            deal_json=json.dumps(record.deal.to_json()),
            rules_json=json.dumps({"flags": record.rules.flags()}),
        )
    ).version
    for i, action in enumerate(record.actions):
        last = finished and i == len(record.actions) - 1
        version = (
            await games.append_action(
                stored.id,
                expected_version=version,
                seat=0,
                notation=action,
                created_at=now,
                end=GameEnd(GameStatus.DRAWN, now) if last else None,
            )
        )[0].version
    await db.close()
    return stored.id


def test_record_export_from_the_database(tmp_path: Path) -> None:
    record = random_game(0, 4)
    db_path = tmp_path / "kapshap.sqlite3"
    game_id = asyncio.run(store_game(db_path, record))
    target = tmp_path / "out.txt"
    assert main_record(["export", game_id, "--db", str(db_path), "-o", str(target)]) == 0
    back = parse_record(target.read_text())
    assert back.actions == record.actions
    assert back.tags["Id"] == game_id and back.tags["Server"] == "42"
    err = io.StringIO()
    assert main_record(["export", "ffff", "--db", str(db_path)], err=err) == 1
    assert "There is no game" in err.getvalue()
