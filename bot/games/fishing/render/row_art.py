"""The picture of Tsung Shap's row: wrapped into lines of at most nine tiles, "L" and "R" at
its two ends, and the tile just turned over framed beside it; the row alone is a replay's.

Drawn like every picture with the colours, sizes and helpers of :mod:`bot.render.layout`:
pure, synchronous, thread-safe, memoised, at most :data:`~bot.render.layout.MAX_WIDTH` px wide.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.engine.tiles import Tile
from bot.locale import N_, t
from bot.render.layout import (
    CAPTION_H,
    FELT,
    GAP,
    GOLD,
    LABEL_FONT,
    LABEL_H,
    MARGIN,
    TEXT_DIM,
    caption,
    caption_width,
    empty,
    highlight,
    paste_tile,
    png,
    text_centered,
    tile_label,
)
from bot.render.tile_art import tile_size
from bot.render.typeface import SEMIBOLD

__all__ = ["END_MARK_CONTEXT", "render_fishing_row", "render_row"]

_ROW_SCALE = 0.8
_ROW_PER_LINE = 9
_END_W = 30  # room for an end marker (L or R)
_LINE_GAP = 10


def render_fishing_row(
    row: Sequence[Tile],
    turned: Tile | None = None,
    *,
    title: str | None = None,
    turned_label: str = N_("turned"),
    locale: str = "en",
) -> bytes:
    """PNG of the Tsung Shap row left to right, "L" and "R" at its ends, wrapped into lines of
    at most nine tiles (balanced: twelve tiles make two lines of six); ``turned``, the tile just
    turned over, is framed beside it and tagged ``turned_label``."""
    return _render_fishing_row(tuple(row), turned, title, t(locale, turned_label), locale)


def _end_marker(
    draw: ImageDraw.ImageDraw, x_tip: float, mid: float, side: str, locale: str = "en"
) -> None:
    """A gold arrowhead pointing out of the row at ``x_tip``, its letter below ("L" or "R", in
    ``locale``: 左, 右)."""
    direction = -1 if side == "L" else 1
    base = x_tip - direction * 16
    draw.polygon([(x_tip, mid), (base, mid - 11), (base, mid + 11)], fill=GOLD)
    letter = t(locale, side, context=END_MARK_CONTEXT)
    text_centered(draw, (x_tip + base) / 2, mid + 18, letter, LABEL_FONT, GOLD, SEMIBOLD)


#: The catalogue context of the row's end letters ("L", "R": too short to stand alone).
END_MARK_CONTEXT = "row end"


@lru_cache(maxsize=256)
def _render_fishing_row(
    row: tuple[Tile, ...],
    turned: Tile | None,
    title: str | None,
    turned_label: str,
    locale: str = "en",
) -> bytes:
    if not row and turned is None:
        return empty(t(locale, "the row is empty"), title)
    tw, th = tile_size(_ROW_SCALE)
    gap = GAP
    lines = max(1, (len(row) + _ROW_PER_LINE - 1) // _ROW_PER_LINE)
    per_line = max(1, (len(row) + lines - 1) // lines)  # balanced lines
    line_h = th + LABEL_H + 4
    row_w = 2 * _END_W + max(per_line * (tw + gap) - gap, 150 if not row else 0)
    row_h = lines * line_h + (lines - 1) * _LINE_GAP
    big_w, big_h = tile_size()
    panel_w = 0 if turned is None else 2 * 18 + big_w + 24
    panel_h = 0 if turned is None else 26 + big_h + LABEL_H + 4
    width = max(2 * MARGIN + row_w + panel_w, caption_width(title))
    top = MARGIN + (CAPTION_H if title else 0)
    body_h = max(row_h, panel_h)
    canvas = Image.new("RGB", (width, top + body_h + MARGIN), FELT)
    draw = ImageDraw.Draw(canvas)
    if title:
        caption(draw, MARGIN, MARGIN + 2, title, width - 2 * MARGIN)
    row_top = top + (body_h - row_h) // 2
    if not row:
        mid = row_top + th / 2 - 8
        text_centered(draw, MARGIN + row_w / 2, mid, t(locale, "empty row"), LABEL_FONT, TEXT_DIM)
    for i, tile in enumerate(row):
        x = MARGIN + _END_W + (i % per_line) * (tw + gap)
        y = row_top + (i // per_line) * (line_h + _LINE_GAP)
        paste_tile(canvas, tile, x, y, _ROW_SCALE)
        tile_label(draw, x + tw / 2, y + th + 8, tile)
    if row:
        _end_marker(draw, MARGIN + 4, row_top + th / 2, "L", locale)
        last = len(row) - 1
        x_end = MARGIN + _END_W + (last % per_line) * (tw + gap) + tw + _END_W - 4
        end_mid = row_top + (last // per_line) * (line_h + _LINE_GAP) + th / 2
        _end_marker(draw, x_end, end_mid, "R", locale)
    if turned is not None:
        px = MARGIN + row_w + 18
        draw.line([(px, top + 4), (px, top + body_h - 4)], fill=TEXT_DIM, width=1)
        x = px + 18 + 12
        y = top + (body_h - panel_h) // 2 + 26
        highlight(draw, x, y, big_w, big_h, turned_label)
        paste_tile(canvas, turned, x, y)
        tile_label(draw, x + big_w / 2, y + big_h + 8, turned, GOLD)
    return png(canvas)


def render_row(tiles: Sequence[Tile]) -> bytes:
    """PNG of the Tsung Shap row, laid left to right, with "L" and "R" marking its two ends.

    Long rows wrap onto several lines; see :func:`render_fishing_row`, which also draws the tile
    just turned over beside the row.
    """
    return render_fishing_row(tuple(tiles))
