"""Words drawn inside the table's pictures are in the reader's language.

The renderers are called with a Chinese locale and every text they hand to the drawing
function is recorded: captions, legends, tags ("new", "turned"), the eye's label, the row's end
letters and the empty cards. Nothing but notation may stay Latin.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import bot.games.collecting.render.table_art as table_art
import bot.games.collecting.render.witness_art as witness_art
import bot.games.fishing.render.row_art as row_art
import bot.render.layout as layout
from bot.engine import Tile
from bot.games.collecting.engine.hands import Witness
from bot.games.collecting.render.table_art import PoolGroup, render_discards, render_hand_view
from bot.games.collecting.render.witness_art import render_witness
from bot.games.fishing.render.row_art import render_fishing_row
from bot.render.images import render_hand
from tests.locale.english import latin_left


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The texts the renderers draw (the cached pictures are forgotten first)."""
    texts: list[str] = []
    real = layout.draw_text

    def record(draw: Any, x: float, y: float, text: str, *args: Any, **kwargs: Any) -> None:
        texts.append(text)
        real(draw, x, y, text, *args, **kwargs)

    for module in (layout, table_art):
        monkeypatch.setattr(module, "draw_text", record)
    for cached in (
        layout._render_tiles,
        witness_art._render_witness,
        table_art._render_discards,
        table_art._render_hand_view,
        row_art._render_fishing_row,
    ):
        cached.cache_clear()
    yield texts


def _draw_everything(locale: str) -> None:
    six_five, three_one = Tile(6, 5), Tile(3, 1)
    witness = Witness(eye=(Tile(6, 6), Tile(6, 6)), pairs=((Tile(6, 4), Tile(5, 5)),))
    pool = [PoolGroup(six_five, 2, dead=False, takeable=True), PoolGroup(three_one, 1, dead=True)]
    render_witness(witness, title="alice", locale=locale)
    render_hand([], locale=locale)
    render_hand_view([six_five, three_one], new=[six_five], locale=locale)
    render_hand_view([six_five], new=[six_five], discards=pool, locale=locale)
    render_hand_view([six_five], discards=[], locale=locale)
    render_discards(pool, locale=locale)
    render_discards([], locale=locale)
    render_fishing_row([six_five, three_one], three_one, locale=locale)
    render_fishing_row([], Tile(4, 4), locale=locale)
    render_fishing_row([], locale=locale)


@pytest.mark.parametrize("locale", ["zh-TW", "zh-CN"])
def test_pictures_are_captioned_in_chinese(drawn: list[str], locale: str) -> None:
    _draw_everything(locale)
    words = [text for text in drawn if not text.replace("-", "").replace("×", "").isdigit()]
    assert len(words) > 10, drawn
    left = {text: latin_left(text, {"alice"}) for text in words if latin_left(text, {"alice"})}
    assert left == {}
    assert "眼" in drawn and "左" in drawn and "右" in drawn


def test_the_check_can_fail_in_english(drawn: list[str]) -> None:
    _draw_everything("en")
    assert {"eye", "L", "R", "new", "no tiles"} <= set(drawn)
    assert any(latin_left(text) for text in drawn)
