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


def test_a_big_table_fits_in_one_embed() -> None:
    from bot.engine import apply, legal_actions, make_deal, make_rules, new_game
    from bot.engine.record import GameRecord, RecordSeat

    rules = make_rules("kap-tai-shap", 28)
    import random

    rng = random.Random(1)
    deal = make_deal(rules, rng)
    seats = tuple(RecordSeat(f"Player with a long name {i}") for i in range(28))
    state = new_game(rules, [s.name for s in seats], deal)
    actions = []
    for _ in range(30):
        if state.result is not None:  # a random game may end early (the empty-wall take)
            break
        legal = legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        state, _ = apply(state, action)
        actions.append(str(action))
    game = LoadedGame("abc", 1, GameRecord(rules, seats, deal, tuple(actions)), (None,) * 28)
    embed, _, _ = replay_page(game, len(actions), with_record=False)
    assert len(embed) <= 6000 and len(embed.fields) <= 25
    assert all(len(f.value or "") <= 1024 for f in embed.fields)
    assert sum((f.value or "").count("**Player") for f in embed.fields) == 28
