"""``kapshap sim --lang`` and ``kapshap play --lang``: the offline programs in Chinese."""

from __future__ import annotations

import io

import pytest

from bot.sim import cli as sim_cli


def test_sim_report_in_simplified_chinese(capsys: pytest.CaptureFixture[str]) -> None:
    status = sim_cli.main(
        ["--games", "20", "--seed", "3", "--workers", "1", "--no-progress", "--lang", "zh-CN"]
    )
    out = capsys.readouterr().out
    assert status == 0
    assert "牌局数" in out and "每秒牌局数" in out and "胡牌：吃牌后" in out
    assert "games per second" not in out and "wins: after a take" not in out


def test_sim_report_stays_english_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert sim_cli.main(["--games", "20", "--seed", "3", "--workers", "1", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "games per second" in out and "牌局" not in out


def test_sim_refuses_an_unknown_language(capsys: pytest.CaptureFixture[str]) -> None:
    assert sim_cli.main(["--lang", "fr"]) == 2
    assert "--lang" in capsys.readouterr().err


def test_play_in_traditional_chinese() -> None:
    """``kapshap play --lang zh-TW``: the status of the table in Traditional Chinese."""
    from bot import terminal

    out, err = io.StringIO(), io.StringIO()
    status = terminal.main(
        ["--lang", "zh-TW", "--seed", "1"], stdin=io.StringIO("quit\n"), stdout=out, stderr=err
    )
    text = out.getvalue()
    assert status == 0, err.getvalue()
    assert "夾十" in text and "種子 1" in text and "你的手牌" in text and "牌牆" in text
    assert "座位" in text and "先手" in text


def test_play_narrates_in_simplified_chinese() -> None:
    """Another player's moves and the end of the game, in Simplified Chinese."""
    from bot import terminal

    out = io.StringIO()
    argv = ["--lang", "zh-CN", "--seed", "5", "--ai", "greedy"]
    assert terminal.main(argv, stdin=io.StringIO(""), stdout=out) == 0
    text = out.getvalue()
    assert "第 1 手：轮到电脑 1。" in text and "打出 6-4 红头十" in text
    assert "牌局结束" in text and "胡牌组合" in text and "紅頭十" not in text
