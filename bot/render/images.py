"""PNG pictures of a hand and of a winning arrangement (the witness).

Every function here is pure and synchronous: it takes engine values and returns PNG bytes. The
Discord layer calls them through ``asyncio.to_thread``; they are thread-safe and memoised like
everything drawn with :mod:`bot.render.layout`, whose colours, sizes and helpers they share (and
which explains how every picture stays readable at embed width). The pictures of a table in play
(the discards, the Tsung Shap row) are :mod:`bot.render.table_art`'s.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.engine.rules import FourTwo, ten_pair_values
from bot.engine.tiles import Tile, sort_tiles
from bot.locale import t
from bot.render.layout import (
    CAPTION_H,
    FELT,
    GOLD,
    LABEL_FONT,
    LABEL_H,
    MARGIN,
    RGB,
    caption,
    caption_width,
    paste_tile,
    png,
    render_tiles,
    text_centered,
    tile_label,
)
from bot.render.shapes import Arrangement
from bot.render.tile_art import tile_size
from bot.render.typeface import SEMIBOLD

__all__ = [
    "pair_total",
    "render_hand",
    "render_witness",
]

_BRACKET: RGB = (206, 222, 210)
_GROUP_INNER_GAP = 5  # between the two tiles of an eye or a pair
_GROUP_GAP = 24  # between the groups of a witness


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


def render_witness(witness: Arrangement, *, title: str | None = None, locale: str = "en") -> bytes:
    """PNG of a winning hand arranged as the eye and its ten-pairs.

    Each group is set apart by a gap and underlined by a bracket: the eye in gold, labelled
    "eye" (in ``locale``), each pair labelled with its total ("= 10" or "= 20").
    """
    return _render_witness(witness, title, locale)


@lru_cache(maxsize=128)
def _render_witness(witness: Arrangement, title: str | None, locale: str = "en") -> bytes:
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
