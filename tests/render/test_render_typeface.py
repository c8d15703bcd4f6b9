"""The picture fonts cover the names players have: CJK and accented Latin, no missing-glyph boxes.

Coverage is checked against the fonts' own character maps, read with fontTools (independently of
the renderer's .notdef comparison), and every picture kind is rendered with a CJK + accented name
while every text Pillow is asked to draw is recorded, so a text drawn in a font that lacks one of
its characters (a box) fails the test.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

import pytest
from fontTools.ttLib import TTCollection, TTFont
from PIL import Image, ImageDraw, ImageFont

from bot.engine.tiles import KINDS, Tile, parse_tiles
from bot.games.collecting.engine.hands import Witness
from bot.games.collecting.engine.machine import PoolTile
from bot.games.collecting.render import table_art, witness_art
from bot.games.collecting.render.table_art import (
    discard_groups,
    render_discards,
    render_hand_view,
    render_pool,
)
from bot.games.collecting.render.witness_art import render_witness
from bot.games.fishing.render import row_art
from bot.games.fishing.render.row_art import render_fishing_row, render_row
from bot.render import layout
from bot.render.charts import rating_chart
from bot.render.images import render_hand
from bot.render.layout import render_tiles
from bot.render.typeface import Face, draw_text, fit_text, font_files, runs, text_width

NAME = "小明 Zoë"
NAMES = [
    NAME,
    "Łukasz Żółć",
    "Şükrü Çağlar",
    "Đặng Thị Hồng",
    "Ἀθηνᾶ",
    "Дмитрий",
    "김민준",
    "さくら",
    "François Ærøskøbing",
]
# Game words the bot writes, in Traditional and Simplified Chinese.
TERMS = [
    "夾十 夾大十 釣魚 打天九",
    "夹十 夹大十 钓鱼 长三 杂九 红头十 斧头 至尊 板凳 高脚七 红槌六 铜锤六",
    *(t.chinese for t in KINDS),
]
WITNESS = Witness(
    eye=(Tile(6, 6), Tile(6, 6)),
    pairs=(
        (Tile(3, 1), Tile(3, 3)),
        (Tile(4, 2), Tile(6, 1)),
        (Tile(5, 5), Tile(5, 5)),
        (Tile(6, 5), Tile(5, 4)),
    ),
)
POOL = [PoolTile(t, i % 2, i, dead=i < 4) for i, t in enumerate(KINDS[:12])]


@cache
def cmap(path: str, index: int) -> frozenset[int]:
    """The code points a font file (or a face of a collection) maps to a glyph."""
    if path.endswith(".ttc"):
        font = TTCollection(path, lazy=True).fonts[index]
    else:
        font = TTFont(path, lazy=True)
    return frozenset(font.getBestCmap())


def face_cmap(face: Face) -> frozenset[int]:
    files = font_files()
    assert files is not None
    return cmap(files[face], 4 if face is Face.CJK else 0)


def test_the_font_packages_are_installed() -> None:
    files = font_files()
    assert files is not None, "pip install -e . installs fontpkg-noto-sans and noto-cjk-sans-otc"
    assert files[Face.LATIN].endswith(".ttf") and files[Face.CJK].endswith(".ttc")


@pytest.mark.parametrize("text", NAMES + TERMS)
def test_every_character_is_drawn_by_a_font_that_has_it(text: str) -> None:
    drawn = ""
    for face, run in runs(text):
        missing = [c for c in run if c != " " and ord(c) not in face_cmap(face)]
        assert not missing, f"{face.value} has no {missing}"
        drawn += run
    assert drawn == text  # nothing left out


def test_latin_is_drawn_in_noto_sans_and_chinese_in_noto_sans_cjk() -> None:
    assert list(runs(NAME)) == [(Face.CJK, "小明 "), (Face.LATIN, "Zoë")]


def test_a_character_no_font_has_is_left_out_not_boxed() -> None:
    assert "".join(run for _, run in runs("Bob 🎲\u0007!")) == "Bob !"


def test_combining_accents_are_composed() -> None:
    assert "".join(run for _, run in runs("Zoe\u0308")) == "Zoë"


def test_long_names_are_cut_to_fit() -> None:
    name = "小明 Zoë " * 20
    cut = fit_text(name, 24, 200)
    assert cut.endswith("…") and text_width(cut, 24) <= 200 < text_width(name, 24)
    assert fit_text("Zoë", 24, 200) == "Zoë"


def test_draw_text_returns_its_width_and_draws_in_the_box() -> None:
    canvas = Image.new("RGB", (300, 60), (0, 0, 0))
    width = draw_text(ImageDraw.Draw(canvas), 10, 20, NAME, 24, (255, 255, 255))
    assert width == text_width(NAME, 24)
    bbox = canvas.getbbox()
    assert bbox is not None and bbox[0] >= 8 and bbox[2] <= 10 + width + 2


Recorded = list[tuple[str, int, str]]


@pytest.fixture
def drawn_texts(monkeypatch: pytest.MonkeyPatch) -> Iterator[Recorded]:
    """Every text Pillow draws, with the font file and face it is drawn in."""
    seen: Recorded = []
    original = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> Any:
        font = kwargs.get("font")
        path = getattr(font, "path", None)
        assert isinstance(font, ImageFont.FreeTypeFont) and isinstance(path, str), font
        seen.append((path, font.index, str(text)))
        return original(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    for cached in (
        layout._render_tiles,
        witness_art._render_witness,
        table_art._render_discards,
        row_art._render_fishing_row,
        table_art._render_hand_view,
    ):
        cached.cache_clear()
    yield seen


PICTURES: dict[str, Callable[[], bytes]] = {
    "hand": lambda: render_hand(KINDS[:10], title=f"{NAME} — your hand"),
    "tiles": lambda: render_tiles(KINDS[:10], caption=NAME, highlight={3}),
    "witness": lambda: render_witness(WITNESS, title=f"{NAME} wins"),
    "pool": lambda: render_pool([(t, 2, False) for t in KINDS[:5]]),
    "discards": lambda: render_discards(
        discard_groups(POOL), title=f"Discards · latest 5-3 from {NAME}"
    ),
    "hand view": lambda: render_hand_view(
        parse_tiles("6-6 6-6 3-1 6-5 4-2 5-5 2-1 1-1 6-1"),
        new=[Tile(2, 1)],
        discards=discard_groups(POOL, {Tile(5, 3)}),
        title=NAME,
        discards_title=f"Discards: take one framed in gold, {NAME}",
    ),
    "row": lambda: render_row(list(KINDS[:12])),
    "fishing row": lambda: render_fishing_row(KINDS[:12], Tile(2, 2), title=f"{NAME} turned 2-2"),
    "empty": lambda: render_fishing_row([], None, title=NAME),
    "rating chart": lambda: rating_chart(
        {"Kap Shap": [1000, 1040], "Tsung Shap": [1000, 980]}, title=f"Rating of {NAME}"
    ),
}


@pytest.mark.parametrize("kind", PICTURES)
def test_every_picture_draws_its_texts_without_boxes(kind: str, drawn_texts: Recorded) -> None:
    PICTURES[kind]()
    assert drawn_texts, "no text drawn"
    for path, index, text in drawn_texts:
        missing = [c for c in text if c != " " and ord(c) not in cmap(path, index)]
        assert not missing, f"{kind}: {text!r} drawn with {path} lacking {missing}"
    if kind not in ("pool", "row"):  # these two have no caption
        assert any("明" in t for _, _, t in drawn_texts)
        assert any("Zoë" in t for _, _, t in drawn_texts)
    typeface_names = {p for p, _, _ in drawn_texts}
    assert typeface_names <= set(font_files().values())  # type: ignore[union-attr]
