"""Tiles in displayed text are kept whole at any line width (``unbroken``), and only tiles."""

from __future__ import annotations

import pytest

from bot.engine import parse_tiles, plain_notation
from bot.render.text import WORD_JOINER, unbroken

WJ = WORD_JOINER


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("You discarded `6-5` Axe.", f"You discarded `6{WJ}-{WJ}5` Axe."),
        ("`6-3`+`6-5` = 20", f"`6{WJ}-{WJ}3`+`6{WJ}-{WJ}5` = 20"),
        ("4-2 counts 3", f"4{WJ}-{WJ}2 counts 3"),
        ("2-2 + 1-1 + 3-1", f"2{WJ}-{WJ}2 + 1{WJ}-{WJ}1 + 3{WJ}-{WJ}1"),
        ("打出 6-5。", f"打出 6{WJ}-{WJ}5。"),
        ("`/discard tile:6-5`", f"`/discard tile:6{WJ}-{WJ}5`"),
        # Not tiles: ranges, dates, numbers, ids, pips out of range.
        ("Kap Tai Shap (2-20 players)", "Kap Tai Shap (2-20 players)"),
        ("2026-11-26", "2026-11-26"),
        ("W1-1: alice v bob", "W1-1: alice v bob"),
        ("7-7 0-1 1-2-3", "7-7 0-1 1-2-3"),
    ],
)
def test_only_tiles_are_joined(text: str, expected: str) -> None:
    assert unbroken(text) == expected
    assert unbroken(expected) == expected  # once is enough
    assert plain_notation(unbroken(text)) == text.replace("`", "")


def test_a_hand_written_for_display_reads_back() -> None:
    hand = "6-6 6-6 1-1 4-4 3-1 3-3 6-5 5-2"
    assert parse_tiles(unbroken(hand)) == parse_tiles(hand)
