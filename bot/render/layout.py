"""The shared layout of the pictures: colours, sizes, the drawing helpers and a row of tiles.

:mod:`bot.render.images` (a hand) and the games' own pictures (``bot/games/<family>/render/``:
the discards, a winning arrangement, the Tsung Shap row) draw with these, so every picture looks
alike. Every function is pure,
synchronous and thread-safe: each call builds its own images and drawing contexts, tile pictures
come from a read-only cache (:func:`bot.render.tile_art.tile_image`) and fonts are kept per
thread (:mod:`bot.render.typeface`). Results are memoised in bounded LRU caches (bytes are
immutable).

Pictures are drawn on an opaque green "table felt" so they read well in Discord's light and dark
themes alike. Text is drawn with the fonts of :mod:`bot.render.typeface` (Noto Sans and Noto Sans
CJK), so names in any script and the "×" of a count are drawn as written.

**Readable at embed width.** Discord shows an embed's picture about 400 px wide on a desktop.
Every picture is laid out to at most :data:`MAX_WIDTH` px (long rows wrap), so it is shown at
no less than :data:`EMBED_WIDTH` / :data:`MAX_WIDTH` of its size: a tile then stays at least
60 px tall and a label's text at least 11 px (``tests/render/test_render_legibility.py``).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.engine.tiles import Tile
from bot.locale import t
from bot.render.tile_art import CIVIL_MARK, MILITARY_MARK, tile_image, tile_size
from bot.render.typeface import REGULAR, SEMIBOLD, draw_text, fit_text, text_width

__all__ = [
    "BADGE",
    "CAPTION_FONT",
    "CAPTION_H",
    "EMBED_WIDTH",
    "FELT",
    "GAP",
    "GOLD",
    "HIGHLIGHT_ROOM",
    "LABEL_FONT",
    "LABEL_H",
    "MARGIN",
    "MAX_WIDTH",
    "RGB",
    "TEXT",
    "TEXT_DIM",
    "caption",
    "caption_width",
    "draw_tiles_block",
    "empty",
    "highlight",
    "label",
    "paste_tile",
    "png",
    "render_tiles",
    "suit_tick",
    "text_centered",
    "tile_label",
    "tiles_block_size",
]

RGB = tuple[int, int, int]

EMBED_WIDTH = 400
"""The width, in px, at which Discord shows an embed's picture on a desktop."""
MAX_WIDTH = 760
"""No picture is wider than this, so at embed width it is shown at 400/760 = 53 % or more."""

FELT: RGB = (28, 88, 60)
TEXT: RGB = (240, 238, 228)
TEXT_DIM: RGB = (160, 184, 168)
GOLD: RGB = (244, 192, 64)
BADGE: RGB = (24, 30, 36)

MARGIN = 14
GAP = 8  # between tiles of a plain row
LABEL_FONT = 22  # a tile's notation: 11.6 px at embed width
CAPTION_FONT = 24
LABEL_H = 34  # room under a tile for its notation and suit tick
CAPTION_H = 40  # room above the row for a caption
HIGHLIGHT_ROOM = 26  # headroom above a highlighted tile for its "new" tag


def text_centered(
    draw: ImageDraw.ImageDraw,
    cx: float,
    top: float,
    text: str,
    size: int,
    fill: RGB,
    weight: int = REGULAR,
) -> None:
    """Draw ``text`` horizontally centred on ``cx`` with the top of its capitals at ``top``."""
    draw_text(draw, cx, top, text, size, fill, weight=weight, align="center")


def caption(draw: ImageDraw.ImageDraw, x: float, top: float, text: str, width: int) -> None:
    """A picture's caption (semibold, light), cut with "…" to fit ``width`` px."""
    text = fit_text(text, CAPTION_FONT, width, SEMIBOLD)
    draw_text(draw, x, top, text, CAPTION_FONT, TEXT, weight=SEMIBOLD)


def caption_width(text: str | None) -> int:
    """Width a picture needs for its caption to fit (at most :data:`MAX_WIDTH`)."""
    if not text:
        return 0
    return min(MAX_WIDTH, text_width(text, CAPTION_FONT, SEMIBOLD) + 2 * MARGIN)


def png(image: Image.Image) -> bytes:
    """Encode as a PNG with an adaptive palette (a 10-tile hand is about 8 KB).

    Fast octree quantisation and zlib level 6: a fifth of the time of median cut and level 9
    (``optimize``), for files no larger (the pictures have few colours)."""
    quantised = image.convert("RGB").quantize(
        colors=160, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    out = io.BytesIO()
    quantised.save(out, format="PNG", compress_level=6)
    return out.getvalue()


def paste_tile(canvas: Image.Image, tile: Tile, x: int, y: int, scale: float = 1.0) -> None:
    """Paste the cached picture of ``tile`` with its top-left corner at ``(x, y)``."""
    art = tile_image(tile, scale)
    canvas.paste(art, (x, y), art)


def label(tile: Tile) -> str:
    """The text under a tile: its notation."""
    return str(tile)


def suit_tick(draw: ImageDraw.ImageDraw, cx: float, y: float, tile: Tile) -> None:
    """A short coloured bar under a label, in the tile's suit colour."""
    colour = CIVIL_MARK if tile.civil else MILITARY_MARK
    draw.rectangle((cx - 11, y, cx + 11, y + 3), fill=colour)


def tile_label(
    draw: ImageDraw.ImageDraw, cx: float, top: float, tile: Tile, colour: RGB = TEXT
) -> None:
    """The notation under a tile, then its suit tick."""
    text_centered(draw, cx, top, label(tile), LABEL_FONT, colour)
    suit_tick(draw, cx, top + LABEL_H - 9, tile)


def highlight(draw: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int, tag: str = "") -> None:
    """A gold frame around a tile, with ``tag`` (e.g. "new") on a gold tab above it."""
    draw.rounded_rectangle((x - 4, y - 4, x + w + 3, y + h + 3), 10, outline=GOLD, width=3)
    if tag:
        size = 17
        tw = text_width(tag, size, SEMIBOLD) + 10
        cx = x + w / 2
        draw.rounded_rectangle((cx - tw / 2, y - 25, cx + tw / 2, y - 4), 6, fill=GOLD)
        draw_text(draw, cx, y - 20, tag, size, BADGE, weight=SEMIBOLD, align="center")


def empty(message: str, title: str | None) -> bytes:
    """A small card saying there is nothing to show."""
    width = max(300, caption_width(title), text_width(message, LABEL_FONT) + 2 * MARGIN)
    height = MARGIN * 2 + 24 + (CAPTION_H if title else 0)
    canvas = Image.new("RGB", (min(width, MAX_WIDTH), height), FELT)
    draw = ImageDraw.Draw(canvas)
    top = MARGIN
    if title:
        caption(draw, MARGIN, top + 2, title, canvas.width - 2 * MARGIN)
        top += CAPTION_H
    draw_text(draw, MARGIN, top + 4, message, LABEL_FONT, TEXT_DIM)
    return png(canvas)


# ---------------------------------------------------------------------------------------------
# A row of tiles (a hand)


def render_tiles(
    tiles: Sequence[Tile],
    *,
    caption: str | None = None,
    labels: bool = True,
    highlight: set[int] | None = None,
    tag: str = "new",
    locale: str = "en",
) -> bytes:
    """PNG of ``tiles`` side by side, in the given order, each with its notation underneath.

    ``caption`` is written above the row; ``highlight`` holds positions (0-based) framed in gold
    and tagged ``tag`` ("new", in the reader's language), e.g. the tile just drawn. Sort first
    (:func:`bot.engine.tiles.sort_tiles`) for a hand. More than ten tiles wrap onto a second line.
    No tiles make a card saying so in ``locale``.
    """
    marked = frozenset(highlight or ())
    return _render_tiles(tuple(tiles), caption, labels, marked, tag, locale)


_PER_LINE = 10  # a hand's tiles per line: 10 tiles make a 700 px row


def tiles_block_size(n: int, labels: bool, highlighted: bool) -> tuple[int, int]:
    """Width and height of :func:`draw_tiles_block` for ``n`` tiles (margins not included)."""
    tw, th = tile_size()
    per_line = min(n, _PER_LINE)
    lines = (n + _PER_LINE - 1) // _PER_LINE
    line_h = (HIGHLIGHT_ROOM if highlighted else 0) + th + (LABEL_H + 4 if labels else 0)
    return per_line * tw + (per_line - 1) * GAP, lines * line_h


def draw_tiles_block(
    canvas: Image.Image,
    x0: int,
    y0: int,
    tiles: Sequence[Tile],
    labels: bool,
    marked: frozenset[int],
    tag: str = "new",
) -> None:
    """Tiles in lines of ten from ``(x0, y0)``; positions in ``marked`` framed and tagged."""
    draw = ImageDraw.Draw(canvas)
    tw, th = tile_size()
    room = HIGHLIGHT_ROOM if marked else 0
    line_h = room + th + (LABEL_H + 4 if labels else 0)
    for i, tile in enumerate(tiles):
        x = x0 + (i % _PER_LINE) * (tw + GAP)
        y = y0 + (i // _PER_LINE) * line_h + room
        if i in marked:
            highlight(draw, x, y, tw, th, tag)
        paste_tile(canvas, tile, x, y)
        if labels:
            tile_label(draw, x + tw / 2, y + th + 8, tile, GOLD if i in marked else TEXT)


@lru_cache(maxsize=512)
def _render_tiles(
    tiles: tuple[Tile, ...],
    title: str | None,
    labels: bool,
    marked: frozenset[int],
    tag: str = "new",
    locale: str = "en",
) -> bytes:
    if not tiles:
        return empty(t(locale, "no tiles"), title)
    block_w, block_h = tiles_block_size(len(tiles), labels, bool(marked))
    width = max(2 * MARGIN + block_w, caption_width(title))
    top = MARGIN + (CAPTION_H if title else 0)
    canvas = Image.new("RGB", (width, top + block_h + MARGIN), FELT)
    if title:
        caption(ImageDraw.Draw(canvas), MARGIN, MARGIN + 2, title, width - 2 * MARGIN)
    draw_tiles_block(canvas, MARGIN, top, tiles, labels, marked, tag=tag)
    return png(canvas)
