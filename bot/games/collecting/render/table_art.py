"""The pictures of a Kap Shap or Kap Tai Shap table in play: the discards, and a player's hand
with what is new and what he may take.

Like :mod:`bot.render.images`, these draw with the colours, sizes and helpers of
:mod:`bot.render.layout`: every function is pure, synchronous and thread-safe, returns PNG bytes,
is memoised in a bounded LRU cache, and keeps its pictures at most
:data:`~bot.render.layout.MAX_WIDTH` px wide so that they stay legible at the width Discord
shows an embed.

* :func:`render_discards`: the face-up discards grouped by kind (one tile per kind with a ×count
  badge), dead discards greyed out, the latest discard marked with a gold ▼, and, for the player
  to move, the discards he may take framed in gold (the others faded);
* :func:`render_hand_view`: a player's hand with the tiles that just came in framed and tagged
  "new", and below it, on his turn to take or draw, the discards as above;
* :func:`render_pool`: the discards (grouped by :func:`pool_groups`) without the latest discard
  marked (the replay's picture).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.engine.tiles import Tile, sort_tiles
from bot.games.collecting.render.shapes import FaceUp
from bot.locale import t
from bot.render.layout import (
    BADGE,
    CAPTION_H,
    FELT,
    GOLD,
    LABEL_H,
    MARGIN,
    MAX_WIDTH,
    TEXT,
    TEXT_DIM,
    caption,
    caption_width,
    draw_tiles_block,
    empty,
    highlight,
    png,
    render_tiles,
    tile_label,
    tiles_block_size,
)
from bot.render.tile_art import tile_image, tile_size
from bot.render.typeface import SEMIBOLD, draw_text, fit_text, text_width

__all__ = [
    "PoolGroup",
    "discard_groups",
    "pool_groups",
    "render_discards",
    "render_hand_view",
    "render_pool",
]

_POOL_SCALE = 0.8  # discards: 48 × 106 px tiles, eleven to a line
_POOL_PER_LINE = 11
_POOL_CELL_GAP = 14
_POOL_HEADROOM = 22  # above each line: the ▼ of the latest discard and the ×count badges
_LEGEND_FONT = 18
_LEGEND_H = 30


@dataclass(frozen=True, slots=True)
class PoolGroup:
    """One kind of discard as drawn: how many copies, and how it is marked.

    ``dead``: never takeable (greyed out); ``takeable``: the player looking may take it now
    (framed in gold); ``latest``: the most recent discard is one of these (marked ▼).
    """

    tile: Tile
    count: int = 1
    dead: bool = False
    takeable: bool = False
    latest: bool = False


def discard_groups(
    pool: Sequence[FaceUp], takeable: Collection[Tile] | None = None
) -> tuple[PoolGroup, ...]:
    """Group the face-up discards by kind, in rank order: a kind's takeable (or live) copies
    first, then its dead ones.

    ``takeable`` is the set of kinds the viewer may take now (from his legal ``Take`` actions);
    its live copies are marked takeable. The group holding the last discard is marked latest.
    """
    mine = frozenset(takeable or ())
    counts: dict[tuple[int, bool], int] = {}
    kinds: dict[int, Tile] = {}
    for item in pool:
        key = (item.tile.index, item.dead)
        counts[key] = counts.get(key, 0) + 1
        kinds[item.tile.index] = item.tile
    latest = (pool[-1].tile.index, pool[-1].dead) if pool else None
    return tuple(
        PoolGroup(
            kinds[k],
            counts[(k, dead)],
            dead=dead,
            takeable=not dead and kinds[k] in mine,
            latest=(k, dead) == latest,
        )
        for k, dead in sorted(counts)
    )


@lru_cache(maxsize=64)
def _greyed(tile: Tile, scale: float) -> Image.Image:
    """A colourless, darker picture of a tile (for dead discards); shared: read-only."""
    art = tile_image(tile, scale)
    # Luminance squeezed into a narrow mid-grey band: the pips stay legible, nothing is red.
    luminance = art.convert("L").point(lambda v: 96 + v * 60 // 255)
    return Image.merge("RGBA", (luminance, luminance, luminance, art.getchannel("A")))


@lru_cache(maxsize=64)
def _faded(tile: Tile, scale: float) -> Image.Image:
    """A half-transparent picture of a tile (a live discard the player may not take now);
    shared: read-only."""
    art = tile_image(tile, scale)
    alpha = art.getchannel("A").point(lambda v: v * 45 // 100)
    faded = art.copy()
    faded.putalpha(alpha)
    return faded


def _badge(draw: ImageDraw.ImageDraw, cx: float, cy: float, text: str) -> None:
    """A dark pill with light text centred on ``(cx, cy)``."""
    size = 17
    w = text_width(text, size, SEMIBOLD) + 12
    draw.rounded_rectangle((cx - w / 2, cy - 11, cx + w / 2, cy + 11), 11, fill=BADGE)
    draw.rounded_rectangle((cx - w / 2, cy - 11, cx + w / 2, cy + 11), 11, outline=GOLD, width=1)
    draw_text(draw, cx, cy - 6, text, size, TEXT, weight=SEMIBOLD, align="center")


def _pool_geometry(n: int) -> tuple[int, int, int, int]:
    """Cell width, line height, tiles per line and lines of a discards block of ``n`` groups."""
    tw, th = tile_size(_POOL_SCALE)
    per_line = min(n, _POOL_PER_LINE)
    lines = (n + per_line - 1) // per_line
    return tw + _POOL_CELL_GAP, _POOL_HEADROOM + th + LABEL_H + 6, per_line, lines


def _pool_block_size(n: int) -> tuple[int, int]:
    cell_w, line_h, per_line, lines = _pool_geometry(n)
    return per_line * cell_w - _POOL_CELL_GAP, lines * line_h


def _draw_pool_block(
    canvas: Image.Image, x0: int, y0: int, groups: Sequence[PoolGroup], choosing: bool
) -> None:
    """The discard groups from ``(x0, y0)``; ``choosing``: fade the live groups not takeable."""
    draw = ImageDraw.Draw(canvas)
    tw, th = tile_size(_POOL_SCALE)
    cell_w, line_h, per_line, _ = _pool_geometry(len(groups))
    for i, group in enumerate(groups):
        x = x0 + (i % per_line) * cell_w
        y = y0 + (i // per_line) * line_h + _POOL_HEADROOM
        art = tile_image(group.tile, _POOL_SCALE)
        colour = TEXT
        if group.dead:
            art, colour = _greyed(group.tile, _POOL_SCALE), TEXT_DIM
        elif choosing and not group.takeable:
            art, colour = _faded(group.tile, _POOL_SCALE), TEXT_DIM
        if group.takeable:
            highlight(draw, x, y, tw, th)
            colour = GOLD
        canvas.paste(art, (x, y), art)
        tile_label(draw, x + tw / 2, y + th + 8, group.tile, colour)
        if group.latest:
            cx = x + tw / 2 - (6 if group.count > 1 else 0)
            draw.polygon([(cx - 8, y - 19), (cx + 8, y - 19), (cx, y - 7)], fill=GOLD)
        if group.count > 1:
            _badge(draw, x + tw - 2, y - 6, f"×{group.count}")


def _legend(groups: Sequence[PoolGroup], choosing: bool, locale: str = "en") -> str:
    """What the marks of a discards picture mean, in one line."""
    parts = []
    if choosing:
        takeable = any(g.takeable for g in groups)
        parts.append(
            t(locale, "gold: you may take it") if takeable else t(locale, "none may be taken now")
        )
    parts.append(t(locale, "▼ latest"))
    if any(g.dead for g in groups):
        parts.append(t(locale, "grey: dead"))
    return " · ".join(parts)


def render_discards(
    groups: Sequence[PoolGroup],
    *,
    title: str | None = None,
    legend: bool = True,
    choosing: bool = False,
    locale: str = "en",
) -> bytes:
    """PNG of the face-up discards (see :func:`discard_groups`), eleven groups to a line.

    ``title`` is written above; ``legend`` adds a line saying what the marks mean; ``choosing``
    (the player to move) fades the live discards he may not take.
    """
    return _render_discards(tuple(groups), title, legend, choosing, locale)


@lru_cache(maxsize=256)
def _render_discards(
    groups: tuple[PoolGroup, ...],
    title: str | None,
    legend: bool,
    choosing: bool,
    locale: str = "en",
) -> bytes:
    if not groups:
        return empty(t(locale, "no discards yet"), title)
    block_w, block_h = _pool_block_size(len(groups))
    legend_text = _legend(groups, choosing, locale) if legend else ""
    width = max(
        2 * MARGIN + block_w,
        caption_width(title),
        min(MAX_WIDTH, text_width(legend_text, _LEGEND_FONT) + 2 * MARGIN),
    )
    top = MARGIN + (CAPTION_H if title else 0)
    height = top + block_h + (_LEGEND_H if legend else 0) + MARGIN - 4
    canvas = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(canvas)
    if title:
        caption(draw, MARGIN, MARGIN + 2, title, width - 2 * MARGIN)
    _draw_pool_block(canvas, MARGIN, top - 6, groups, choosing)
    if legend:
        text = fit_text(legend_text, _LEGEND_FONT, width - 2 * MARGIN)
        draw_text(draw, MARGIN, top + block_h + 4, text, _LEGEND_FONT, TEXT_DIM)
    return png(canvas)


def pool_groups(pool: Iterable[FaceUp]) -> list[tuple[Tile, int, bool]]:
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
    the table's picture with the latest discard marked, :func:`render_discards`.
    """
    return render_discards(
        tuple(PoolGroup(t, int(c), dead=bool(d)) for t, c, d in groups), legend=False
    )


# ---------------------------------------------------------------------------------------------
# A player's hand


def render_hand_view(
    hand: Iterable[Tile],
    *,
    new: Sequence[Tile] = (),
    discards: Sequence[PoolGroup] | None = None,
    title: str | None = None,
    discards_title: str | None = None,
    order: Sequence[Tile] | None = None,
    locale: str = "en",
) -> bytes:
    """PNG of a player's hand (rank order, or ``order``: the same tiles in the hand guide's
    groups), the tiles in ``new`` (just drawn or taken) framed and tagged "new"; with
    ``discards``, the discards below it (see :func:`render_discards`), those he may take framed
    in gold.

    With neither ``new``, ``discards``, ``title`` nor ``order`` it is exactly
    :func:`bot.render.images.render_hand`.
    """
    tiles = tuple(sort_tiles(hand)) if order is None else tuple(order)
    if order is not None and sort_tiles(tiles) != sort_tiles(hand):
        raise ValueError("order must hold exactly the hand's tiles")
    marked: set[int] = set()
    for tile in new:
        spare = [i for i, t in enumerate(tiles) if t == tile and i not in marked]
        if spare:
            marked.add(spare[0])
    if discards is None:
        return render_tiles(
            tiles, caption=title, highlight=marked, tag=t(locale, "new"), locale=locale
        )
    return _render_hand_view(
        tiles, frozenset(marked), tuple(discards), title, discards_title, locale
    )


@lru_cache(maxsize=256)
def _render_hand_view(
    tiles: tuple[Tile, ...],
    marked: frozenset[int],
    groups: tuple[PoolGroup, ...],
    title: str | None,
    discards_title: str | None,
    locale: str = "en",
) -> bytes:
    hand_w, hand_h = tiles_block_size(max(1, len(tiles)), True, bool(marked))
    pool_w, pool_h = _pool_block_size(max(1, len(groups)))
    legend_text = _legend(groups, True, locale) if groups else t(locale, "no discards yet")
    width = max(
        2 * MARGIN + hand_w,
        2 * MARGIN + pool_w,
        caption_width(title),
        caption_width(discards_title),
    )
    top = MARGIN + (CAPTION_H if title else 0)
    pool_top = top + hand_h + 14 + (CAPTION_H if discards_title else 0)
    height = pool_top + (pool_h if groups else 0) + _LEGEND_H + MARGIN - 4
    canvas = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(canvas)
    if title:
        caption(draw, MARGIN, MARGIN + 2, title, width - 2 * MARGIN)
    draw_tiles_block(canvas, MARGIN, top, tiles, True, marked, tag=t(locale, "new"))
    rule_y = top + hand_h + 6
    draw.line([(MARGIN, rule_y), (width - MARGIN, rule_y)], fill=TEXT_DIM, width=1)
    if discards_title:
        caption(draw, MARGIN, rule_y + 14, discards_title, width - 2 * MARGIN)
    if groups:
        _draw_pool_block(canvas, MARGIN, pool_top - 6, groups, True)
    text = fit_text(legend_text, _LEGEND_FONT, width - 2 * MARGIN)
    draw_text(draw, MARGIN, height - MARGIN - 18, text, _LEGEND_FONT, TEXT_DIM)
    return png(canvas)
