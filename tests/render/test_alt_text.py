"""The pictures' descriptions (alt text): what they say, in every language, within Discord's
limit."""

from __future__ import annotations

from bot.engine import Tile, parse_tiles
from bot.games.collecting.render.alt_text import hand_description
from bot.games.collecting.render.table_art import PoolGroup
from bot.games.fishing.render.alt_text import row_description
from bot.render.alt_text import DESCRIPTION_LIMIT, fit_description


def test_a_long_description_is_cut_at_a_separator_within_the_limit() -> None:
    text = "; ".join(f"{n}. player number {n} 3 points" for n in range(200))
    cut = fit_description(text)
    assert len(cut) <= DESCRIPTION_LIMIT and cut.endswith("points…")
    assert fit_description("short\n  text") == "short text"


def test_the_hand_in_words_in_each_language() -> None:
    hand = parse_tiles("6-6 6-6 3-1 4-2")
    groups = [PoolGroup(Tile(5, 2), 2, takeable=True), PoolGroup(Tile(2, 2), 1, dead=True)]
    assert hand_description(hand, [Tile(4, 2)], groups) == (
        "Your hand, 4 tiles: 6-6 Heaven ×2, 3-1 Harmony, 4-2 Gee Joon. New: 4-2 Gee Joon. "
        "Discards you may take: 5-2 Seven ×2. Other discards: 2-2 Bench."
    )
    assert hand_description(hand, [Tile(4, 2)], groups, "zh-TW") == (
        "你的手牌，4 張牌：6-6 天 ×2、3-1 和、4-2 至尊。新牌：4-2 至尊。"
        "可以吃的棄牌：5-2 雜七 ×2。其他棄牌：2-2 板凳。"
    )
    assert hand_description([], locale="zh-CN") == "你的手牌，0 张牌：没有牌。"
    assert row_description([], Tile(6, 6), "bob", "zh-CN") == "牌列是空的。bob 翻开了 6-6 天。"
