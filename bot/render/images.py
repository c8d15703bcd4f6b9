"""PNG pictures of hands, winning arrangements, discard pools and the Tsung Shap row.

Every function here is pure and synchronous: it takes engine values and returns PNG bytes. The
Discord layer calls them through ``asyncio.to_thread``; they are thread-safe because each call
builds its own images and drawing contexts, tile pictures come from a read-only cache
(:func:`bot.render.tile_art.tile_image`) and fonts are kept per thread. Results are memoised
(bytes are immutable), so showing the same hand twice costs nothing.

Pictures are drawn on an opaque green "table felt" so they read well in Discord's light and dark
themes alike. Text uses Pillow's built-in font (``ImageFont.load_default``), never system fonts,
and is plain ASCII: that font has no ``×`` and no Chinese, so Chinese names belong in the message
text, and counts are written ``x2``.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.engine.collecting import PoolTile
from bot.engine.hands import Witness, ten_pair_values
from bot.engine.rules import FourTwo
from bot.engine.tiles import Tile, sort_tiles
from bot.render.tile_art import CIVIL_MARK, MILITARY_MARK, tile_image, tile_size

__all__ = [
    "pair_total",
    "pool_groups",
    "render_hand",
    "render_pool",
    "render_row",
    "render_tiles",
    "render_witness",
]

RGB = tuple[int, int, int]
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

FELT: RGB = (28, 88, 60)
_TEXT: RGB = (240, 238, 228)
_TEXT_DIM: RGB = (160, 184, 168)
_GOLD: RGB = (244, 192, 64)
_BRACKET: RGB = (206, 222, 210)
_BADGE: RGB = (24, 30, 36)

_MARGIN = 12
_GAP = 8  # between tiles of a plain row
_GROUP_INNER_GAP = 5  # between the two tiles of an eye or a pair
_GROUP_GAP = 26  # between the groups of a witness
_LABEL_FONT = 13
_CAPTION_FONT = 16
_LABEL_H = 18  # room under a tile for its notation
_CAPTION_H = 26  # room above the row for a caption
_POOL_PER_LINE = 11
_BADGE_ROOM = 10  # headroom above a pool tile, so its badge clears the pips
_ROW_SCALES = ((12, 1.0), (18, 0.75), (10**9, 0.6))  # (tiles up to, scale) for the Tsung Shap row

_fonts = threading.local()


def _font(size: int) -> Font:
    """Pillow's built-in font at ``size`` px, one instance per thread (FreeType faces are not
    safe to share between threads)."""
    cache: dict[int, Font] | None = getattr(_fonts, "cache", None)
    if cache is None:
        cache = {}
        _fonts.cache = cache
    font = cache.get(size)
    if font is None:
        font = ImageFont.load_default(size=size)
        cache[size] = font
    return font


def _text_width(draw: ImageDraw.ImageDraw, text: str, font: Font) -> int:
    left, _, right, _ = draw.textbbox((0, 0), text, font=font)
    return int(right - left)


def _text_centered(
    draw: ImageDraw.ImageDraw, cx: float, top: float, text: str, size: int, fill: RGB
) -> None:
    """Draw ``text`` horizontally centred on ``cx`` with its ink starting at ``top``."""
    font = _font(size)
    left, upper, right, _ = draw.textbbox((0, 0), text, font=font)
    draw.text((cx - (right - left) / 2 - left, top - upper), text, font=font, fill=fill)


def _text_left(
    draw: ImageDraw.ImageDraw, x: float, top: float, text: str, size: int, fill: RGB
) -> None:
    font = _font(size)
    left, upper, _, _ = draw.textbbox((0, 0), text, font=font)
    draw.text((x - left, top - upper), text, font=font, fill=fill)


def _caption_width(caption: str | None) -> int:
    """Width a row needs for its caption to fit."""
    if not caption:
        return 0
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    return _text_width(probe, caption, _font(_CAPTION_FONT)) + 2 * _MARGIN


def _png(image: Image.Image) -> bytes:
    """Encode as an optimised PNG with an adaptive palette (a 10-tile hand is about 7 KB)."""
    quantised = image.convert("RGB").quantize(
        colors=160, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
    )
    out = io.BytesIO()
    quantised.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _paste_tile(canvas: Image.Image, tile: Tile, x: int, y: int, scale: float = 1.0) -> None:
    art = tile_image(tile, scale)
    canvas.paste(art, (x, y), art)


def _label(tile: Tile) -> str:
    return str(tile)


def _suit_tick(draw: ImageDraw.ImageDraw, cx: float, y: float, tile: Tile) -> None:
    """A short coloured bar under a label, in the tile's suit colour."""
    colour = CIVIL_MARK if tile.civil else MILITARY_MARK
    draw.rectangle((cx - 9, y, cx + 9, y + 2), fill=colour)


def _highlight(draw: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int) -> None:
    draw.rounded_rectangle((x - 4, y - 4, x + w + 3, y + h + 3), 10, outline=_GOLD, width=3)


def _empty(message: str, caption: str | None) -> bytes:
    """A small card saying there is nothing to show."""
    width = max(260, _caption_width(caption))
    height = _MARGIN * 2 + 20 + (_CAPTION_H if caption else 0)
    canvas = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(canvas)
    top = _MARGIN
    if caption:
        _text_left(draw, _MARGIN, top, caption, _CAPTION_FONT, _TEXT)
        top += _CAPTION_H
    _text_left(draw, _MARGIN, top + 2, message, _LABEL_FONT, _TEXT_DIM)
    return _png(canvas)


# ---------------------------------------------------------------------------------------------
# A row of tiles (a hand)


def render_tiles(
    tiles: Sequence[Tile],
    *,
    caption: str | None = None,
    labels: bool = True,
    highlight: set[int] | None = None,
) -> bytes:
    """PNG of ``tiles`` side by side, in the given order, each with its notation underneath.

    ``caption`` is written above the row; ``highlight`` holds positions (0-based) framed in gold,
    e.g. the tile just drawn. Sort first (:func:`bot.engine.tiles.sort_tiles`) for a hand.
    """
    marked = frozenset(highlight or ())
    return _render_tiles(tuple(tiles), caption, labels, marked)


@lru_cache(maxsize=512)
def _render_tiles(
    tiles: tuple[Tile, ...], caption: str | None, labels: bool, highlight: frozenset[int]
) -> bytes:
    if not tiles:
        return _empty("no tiles", caption)
    tw, th = tile_size()
    n = len(tiles)
    width = max(2 * _MARGIN + n * tw + (n - 1) * _GAP, _caption_width(caption))
    top = _MARGIN + (_CAPTION_H if caption else 0)
    height = top + th + (_LABEL_H + 4 if labels else 0) + _MARGIN
    canvas = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(canvas)
    if caption:
        _text_left(draw, _MARGIN, _MARGIN, caption, _CAPTION_FONT, _TEXT)
    for i, tile in enumerate(tiles):
        x = _MARGIN + i * (tw + _GAP)
        if i in highlight:
            _highlight(draw, x, top, tw, th)
        _paste_tile(canvas, tile, x, top)
        if labels:
            colour = _GOLD if i in highlight else _TEXT
            _text_centered(draw, x + tw / 2, top + th + 6, _label(tile), _LABEL_FONT, colour)
            _suit_tick(draw, x + tw / 2, top + th + 6 + _LABEL_H - 3, tile)
    return _png(canvas)


def render_hand(hand: Iterable[Tile], *, title: str | None = None) -> bytes:
    """PNG of a player's hand in display order (traditional rank, Heaven first)."""
    return render_tiles(sort_tiles(hand), caption=title)


# ---------------------------------------------------------------------------------------------
# The winning arrangement


def pair_total(a: Tile, b: Tile) -> int:
    """The total, 10 or 20, that makes ``a`` and ``b`` a ten-pair under some rule set.

    4-2 may count 3 (Culin), 6 (natural) or either; 2-1 may count 6 under Gee Joon wild. No pair
    reaches both 10 and 20, so the total is unique. A pair that makes neither returns its pips.
    """
    values = ten_pair_values(a, b, FourTwo.WILD)
    return sum(values) if values is not None else a.pips + b.pips


@dataclass(frozen=True, slots=True)
class _Group:
    label: str
    tiles: tuple[Tile, ...]
    eye: bool


def render_witness(witness: Witness, *, title: str | None = None) -> bytes:
    """PNG of a winning hand arranged as the eye and its ten-pairs.

    Each group is set apart by a gap and underlined by a bracket: the eye in gold, labelled
    "eye", each pair labelled with its total ("= 10" or "= 20").
    """
    return _render_witness(witness, title)


@lru_cache(maxsize=128)
def _render_witness(witness: Witness, title: str | None) -> bytes:
    groups = [_Group("eye", witness.eye, True)]
    groups += [_Group(f"= {pair_total(a, b)}", (a, b), False) for a, b in witness.pairs]
    tw, th = tile_size()
    group_widths = [len(g.tiles) * tw + (len(g.tiles) - 1) * _GROUP_INNER_GAP for g in groups]
    width = 2 * _MARGIN + sum(group_widths) + (len(groups) - 1) * _GROUP_GAP
    width = max(width, _caption_width(title))
    top = _MARGIN + (_CAPTION_H if title else 0)
    bracket_y = top + th + 6 + _LABEL_H + 4
    height = bracket_y + 8 + 18 + _MARGIN
    canvas = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(canvas)
    if title:
        _text_left(draw, _MARGIN, _MARGIN, title, _CAPTION_FONT, _TEXT)
    x = _MARGIN
    for group, gw in zip(groups, group_widths, strict=True):
        colour = _GOLD if group.eye else _BRACKET
        for j, tile in enumerate(group.tiles):
            tx = x + j * (tw + _GROUP_INNER_GAP)
            _paste_tile(canvas, tile, tx, top)
            _text_centered(draw, tx + tw / 2, top + th + 6, _label(tile), _LABEL_FONT, _TEXT)
        # Bracket: a line under the group with its ends turned up, the label centred below.
        left, right = x + 2, x + gw - 3
        draw.line([(left, bracket_y - 6), (left, bracket_y), (right, bracket_y)], colour, 2)
        draw.line([(right, bracket_y), (right, bracket_y - 6)], colour, 2)
        _text_centered(draw, x + gw / 2, bracket_y + 7, group.label, _CAPTION_FONT, colour)
        x += gw + _GROUP_GAP
    return _png(canvas)


# ---------------------------------------------------------------------------------------------
# The discard pool


def pool_groups(pool: Iterable[PoolTile]) -> list[tuple[Tile, int, bool]]:
    """Group face-up discards for :func:`render_pool`: ``(kind, count, dead)`` in rank order,
    the takeable copies of a kind before its dead ones."""
    counts: dict[tuple[int, bool], int] = {}
    kinds: dict[int, Tile] = {}
    for item in pool:
        key = (item.tile.index, item.dead)
        counts[key] = counts.get(key, 0) + 1
        kinds[item.tile.index] = item.tile
    return [(kinds[k], counts[(k, dead)], dead) for k, dead in sorted(counts)]


def _greyed(art: Image.Image) -> Image.Image:
    """A faded, colourless copy of a tile picture (for dead discards)."""
    # Luminance squeezed into a narrow mid-grey band: the pips stay legible, nothing is red.
    luminance = art.convert("L").point(lambda v: 96 + v * 60 // 255)
    grey = Image.merge("RGBA", (luminance, luminance, luminance, art.getchannel("A")))
    return grey


def render_pool(groups: Sequence[tuple[Tile, int, bool]]) -> bytes:
    """PNG of the discard pool: one tile per ``(kind, count, dead)`` group with a ×count badge
    ("x2", when more than one copy lies there); dead discards are greyed out and labelled "dead".

    Groups are drawn in the order given, eleven to a line; see :func:`pool_groups`.
    """
    return _render_pool(tuple((t, int(c), bool(d)) for t, c, d in groups))


@lru_cache(maxsize=256)
def _render_pool(groups: tuple[tuple[Tile, int, bool], ...]) -> bytes:
    if not groups:
        return _empty("no discards", None)
    tw, th = tile_size()
    cell_w, cell_h = tw + _GAP + 6, _BADGE_ROOM + th + _LABEL_H + 8
    per_line = min(len(groups), _POOL_PER_LINE)
    lines = (len(groups) + per_line - 1) // per_line
    width = 2 * _MARGIN + per_line * cell_w - _GAP
    height = 2 * _MARGIN + lines * cell_h
    canvas = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(canvas)
    for i, (tile, count, dead) in enumerate(groups):
        x = _MARGIN + (i % per_line) * cell_w
        y = _MARGIN + _BADGE_ROOM + (i // per_line) * cell_h
        art = tile_image(tile, 1.0)
        if dead:
            art = _greyed(art)
        canvas.paste(art, (x, y), art)
        label = f"{tile} dead" if dead else _label(tile)
        _text_centered(
            draw, x + tw / 2, y + th + 6, label, _LABEL_FONT, _TEXT_DIM if dead else _TEXT
        )
        if count > 1:
            _badge(draw, x + tw + 4, y - _BADGE_ROOM - 1, f"x{count}")
    return _png(canvas)


def _badge(draw: ImageDraw.ImageDraw, right: float, top: float, text: str) -> None:
    """A dark pill with light text whose top-right corner is at ``(right, top)``."""
    font = _font(_LABEL_FONT)
    w = _text_width(draw, text, font) + 10
    box = (right - w, top, right, top + 18)
    draw.rounded_rectangle(box, 9, fill=_BADGE, outline=_GOLD, width=1)
    _text_centered(draw, right - w / 2, top + 4, text, _LABEL_FONT, _TEXT)


# ---------------------------------------------------------------------------------------------
# The Tsung Shap row


def _row_scale(n: int) -> float:
    return next(scale for limit, scale in _ROW_SCALES if n <= limit)


def render_row(tiles: Sequence[Tile]) -> bytes:
    """PNG of the Tsung Shap row, laid left to right, with "L" and "R" marking its two ends.

    Long rows are drawn smaller (down to 0.6 scale) so the picture stays a sensible width.
    """
    return _render_row(tuple(tiles))


@lru_cache(maxsize=256)
def _render_row(tiles: tuple[Tile, ...]) -> bytes:
    if not tiles:
        return _empty("the row is empty", None)
    scale = _row_scale(len(tiles))
    tw, th = tile_size(scale)
    gap = max(4, round(_GAP * scale))
    end_w = 28
    n = len(tiles)
    width = 2 * _MARGIN + 2 * end_w + n * tw + (n - 1) * gap
    top = _MARGIN
    height = top + th + _LABEL_H + 4 + _MARGIN
    canvas = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(canvas)
    mid = top + th / 2
    for side, x_tip in (("L", _MARGIN + 2), ("R", width - _MARGIN - 2)):
        direction = -1 if side == "L" else 1
        base = x_tip - direction * 16
        draw.polygon([(x_tip, mid), (base, mid - 11), (base, mid + 11)], fill=_GOLD)
        _text_centered(
            draw, (x_tip + base) / 2 - direction * 2, mid + 16, side, _CAPTION_FONT, _GOLD
        )
    for i, tile in enumerate(tiles):
        x = _MARGIN + end_w + i * (tw + gap)
        _paste_tile(canvas, tile, x, top, scale)
        _text_centered(draw, x + tw / 2, top + th + 6, _label(tile), _LABEL_FONT, _TEXT)
    return _png(canvas)
