"""``/stats`` and ``/review`` replies are worded in the server's language: no English left in
zh-TW / zh-CN."""

from __future__ import annotations

import re

import pytest

from bot.services.ratings import MemberStats
from bot.services.replays import Progress
from cogs.replay import progress_text
from cogs.stats import stats_embed


def _stats() -> MemberStats:
    return MemberStats(
        user_id=1,
        game=None,
        games=5,
        wins=3,
        draws=1,
        losses=1,
        rating=1520,
        rated_games=5,
        provisional=True,
        rating_history={},
        by_position={0: (3, 2), 1: (2, 1)},
        current_streak=1,
        best_streak=2,
        favourite_eye=("6-6", 2),
        ratings={"kap-shap": (1520, True), "tsung-shap": (1480, False)},
        tsung_games=2,
        average_score=12.5,
        captures=7,
        sweeps=1,
        claims=2,
    )


def _text(locale: str) -> str:
    embed = stats_embed(_stats(), "Ah Wing", locale)
    parts = [embed.title or "", embed.description or ""]
    for f in embed.fields:
        parts += [f.name or "", f.value or ""]
    return "\n".join(parts).replace("Ah Wing", "")


def test_stats_embed_in_english() -> None:
    """English stays as it was (the default locale)."""
    text = _text("en")
    assert "5 played · 3 won · 1 drawn · 1 lost" in text
    assert "1,520 (provisional)" in text
    assert "Best: 2 wins" in text
    assert "1st to play: 2/3 won" in text


@pytest.mark.parametrize("locale", ["zh-TW", "zh-CN"])
def test_stats_embed_in_chinese(locale: str) -> None:
    """Every heading and line of the embed is Chinese."""
    text = _text(locale)
    assert not re.findall(r"[A-Za-z]{2,}", text), text
    assert ("夾十" if locale == "zh-TW" else "夹十") in text


@pytest.mark.parametrize("locale", ["zh-TW", "zh-CN"])
def test_review_progress_in_chinese(locale: str) -> None:
    """The review reply's progress lines (queued, running) are Chinese too."""
    for progress in (Progress(0, 3, 9), Progress(2, 0, 9, waiting=True)):
        text = re.sub(r"`[^`]*`", "", progress_text("abc", progress, locale))
        assert not re.findall(r"[A-Za-z]{2,}", text), text
