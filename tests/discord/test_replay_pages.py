"""Replay pages of every game kind (no Discord round trip: the page builder itself)."""

from __future__ import annotations

import pytest

from bot.services.replays import LoadedGame, Progress
from cogs.replay import progress_text, replay_page
from tests.engine.test_record import PRESETS, random_game


@pytest.mark.parametrize("preset", [0, 2, 5])
def test_every_step_of_every_game_kind_renders(preset: int) -> None:
    record = random_game(preset, 3)
    game = LoadedGame("abc", 1, record, tuple(None for _ in record.seats))
    total = len(record.actions)
    for step in sorted({0, 1, total // 2, total, total + 5}):
        embed, files, view = replay_page(game, step, with_record=step == 0)
        assert embed.author.name == f"Step {min(step, total)} of {total}"
        assert files[0].filename == "step.png"
        assert len(files) == (2 if step == 0 else 1)
        labels = [getattr(getattr(item, "item", item), "label", None) for item in view.children]
        assert labels == ["◀", "▶"]
    assert PRESETS[preset][0] in record.rules.game


def test_progress_says_where_a_review_stands() -> None:
    assert progress_text("abc", Progress(0, 3, 9)) == (
        "🔍 Reviewing game `abc`: 3 of 9 decisions done…"
    )
    queued = progress_text("abc", Progress(2, 0, 9, waiting=True))
    assert queued.startswith("⏳ Your review of game `abc` is queued: 2 reviews ahead of it")
