"""Every AI and engine memo is bounded (the memory budget of docs/benchmarks.md)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.engine import Game, make_rules
from bot.games.collecting.ai import core
from bot.games.collecting.engine.hands import is_winning_counts


@pytest.fixture
def bot_limits() -> Iterator[None]:
    before = core.memo_limits()
    core.set_memo_limits(core.BOT_MEMO)
    yield
    core.set_memo_limits(before)


def test_the_bot_keeps_at_most_its_number_of_evaluators(bot_limits: None) -> None:
    limit = core.BOT_MEMO.evaluators
    for sets in range(2, limit + 4):
        core.evaluator_for(make_rules(Game.KAP_TAI_SHAP, 4, sets=sets))
    assert core.evaluator_count() == limit
    evaluator = core.evaluator_for(make_rules(Game.KAP_SHAP, 2))
    assert evaluator.signature_limit == core.BOT_MEMO.signatures
    assert evaluator.full_hand_limit == core.BOT_MEMO.full_hands


def test_the_simulator_keeps_large_memos() -> None:
    assert core.SIMULATOR_MEMO.signatures > core.BOT_MEMO.signatures


def test_the_engine_win_check_memo_is_bounded() -> None:
    assert is_winning_counts.cache_info().maxsize == 1 << 15
