"""PNG pictures of hands, winning arrangements, discard pools and the Tsung Shap row.

Every function here is pure and synchronous: it takes engine values and returns PNG bytes. The
Discord layer calls them through ``asyncio.to_thread``; they are thread-safe because each call
builds its own images and drawing contexts, tile pictures come from a read-only cache
(:func:`bot.render.tile_art.tile_image`) and fonts are kept per thread
(:mod:`bot.render.typeface`). Results are memoised in bounded LRU caches (bytes are immutable),
so showing the same hand twice costs nothing.

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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.engine.collecting import PoolTile
from bot.engine.hands import Witness, ten_pair_values
from bot.engine.rules import FourTwo
from bot.engine.tiles import Tile, sort_tiles
from bot.locale import t
from bot.render.tile_art import CIVIL_MARK, MILITARY_MARK, tile_image, tile_size
from bot.render.typeface import REGULAR, SEMIBOLD, draw_text, fit_text, text_width

__all__ = [
    "EMBED_WIDTH",
    "MAX_WIDTH",
    "pair_total",
    "pool_groups",
    "render_hand",
    "render_pool",
    "render_row",
    "render_tiles",
    "render_witness",
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
_BRACKET: RGB = (206, 222, 210)
BADGE: RGB = (24, 30, 36)

MARGIN = 14
GAP = 8  # between tiles of a plain row
_GROUP_INNER_GAP = 5  # between the two tiles of an eye or a pair
_GROUP_GAP = 24  # between the groups of a witness
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


def render_hand(hand: Iterable[Tile], *, title: str | None = None, locale: str = "en") -> bytes:
    """PNG of a player's hand in display order (traditional rank, Heaven first)."""
    return render_tiles(sort_tiles(hand), caption=title, locale=locale)


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


def render_witness(witness: Witness, *, title: str | None = None, locale: str = "en") -> bytes:
    """PNG of a winning hand arranged as the eye and its ten-pairs.

    Each group is set apart by a gap and underlined by a bracket: the eye in gold, labelled
    "eye" (in ``locale``), each pair labelled with its total ("= 10" or "= 20").
    """
    return _render_witness(witness, title, locale)


@lru_cache(maxsize=128)
def _render_witness(witness: Witness, title: str | None, locale: str = "en") -> bytes:
    groups = [_Group(t(locale, "eye"), witness.eye, True)]
    groups += [_Group(f"= {pair_total(a, b)}", (a, b), False) for a, b in witness.pairs]
    tw, th = tile_size()
    group_widths = [len(g.tiles) * tw + (len(g.tiles) - 1) * _GROUP_INNER_GAP for g in groups]
    width = 2 * MARGIN + sum(group_widths) + (len(groups) - 1) * _GROUP_GAP
    width = max(width, caption_width(title))
    top = MARGIN + (CAPTION_H if title else 0)
    bracket_y = top + th + 8 + LABEL_H
    height = bracket_y + 12 + 24 + MARGIN
    canvas = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(canvas)
    if title:
        caption(draw, MARGIN, MARGIN + 2, title, width - 2 * MARGIN)
    x = MARGIN
    for group, gw in zip(groups, group_widths, strict=True):
        colour = GOLD if group.eye else _BRACKET
        for j, tile in enumerate(group.tiles):
            tx = x + j * (tw + _GROUP_INNER_GAP)
            paste_tile(canvas, tile, tx, top)
            tile_label(draw, tx + tw / 2, top + th + 8, tile)
        # Bracket: a line under the group with its ends turned up, the label centred below.
        left, right = x + 2, x + gw - 3
        draw.line([(left, bracket_y - 6), (left, bracket_y), (right, bracket_y)], colour, 2)
        draw.line([(right, bracket_y), (right, bracket_y - 6)], colour, 2)
        text_centered(draw, x + gw / 2, bracket_y + 9, group.label, LABEL_FONT, colour, SEMIBOLD)
        x += gw + _GROUP_GAP
    return png(canvas)


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


def render_pool(groups: Sequence[tuple[Tile, int, bool]]) -> bytes:
    """PNG of the discard pool: one tile per ``(kind, count, dead)`` group with a ×count badge
    (when more than one copy lies there); dead discards are greyed out.

    Groups are drawn in the order given, wrapping into lines; see :func:`pool_groups` and, for
    the table's picture with the latest discard marked,
    :func:`bot.render.table_art.render_discards`.
    """
    # Imported here because table_art imports this module.
    from bot.render.table_art import PoolGroup, render_discards

    return render_discards(
        tuple(PoolGroup(t, int(c), dead=bool(d)) for t, c, d in groups), legend=False
    )


# ---------------------------------------------------------------------------------------------
# The Tsung Shap row


def render_row(tiles: Sequence[Tile]) -> bytes:
    """PNG of the Tsung Shap row, laid left to right, with "L" and "R" marking its two ends.

    Long rows wrap onto several lines; see :func:`bot.render.table_art.render_fishing_row`,
    which also draws the tile just turned over beside the row.
    """
    # Imported here because table_art imports this module.
    from bot.render.table_art import render_fishing_row

    return render_fishing_row(tuple(tiles))
