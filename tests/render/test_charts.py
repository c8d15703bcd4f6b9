"""The rating history chart: a PNG of the right size, one line per game, an empty state."""

from __future__ import annotations

import io

from PIL import Image

from bot.render.charts import TEXT_SIZE, rating_chart
from bot.render.layout import EMBED_WIDTH

GOLD = (244, 192, 64)
BLUE = (120, 200, 250)


def colours(png: bytes) -> set[tuple[int, int, int]]:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return {pixel for _, pixel in image.getcolors(maxcolors=1 << 16) or []}


def test_one_line_per_game_in_its_colour() -> None:
    png = rating_chart({"Kap Shap": [1000, 1040, 1010, 1100], "Tsung Shap": [1000, 980]})
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.size == (640, 320)
    assert {GOLD, BLUE} <= colours(png)


def test_a_single_game_and_no_game() -> None:
    single = rating_chart({"Kap Shap": [1234]}, width=300, height=200)
    assert Image.open(io.BytesIO(single)).size == (300, 200)
    assert GOLD in colours(single)
    empty = rating_chart({"Kap Shap": []})
    assert GOLD not in colours(empty) and BLUE not in colours(empty)


def test_the_text_is_legible_at_embed_width() -> None:
    # Discord shows the 640 px chart about 400 px wide: its text must stay at least 11 px.
    png = rating_chart({"Kap Shap": [1000, 1040]})
    width = Image.open(io.BytesIO(png)).width
    assert TEXT_SIZE * min(1.0, EMBED_WIDTH / width) >= 11
