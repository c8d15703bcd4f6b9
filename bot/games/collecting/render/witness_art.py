"""The picture of a winning Kap Shap or Kap Tai Shap hand: the eye and its ten-pairs, each
group bracketed and labelled (the eye in gold, each pair with its total).

Drawn like every picture with the colours, sizes and helpers of :mod:`bot.render.layout`:
pure, synchronous, thread-safe and memoised.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.engine.rules import FourTwo, ten_pair_values
from bot.engine.tiles import Tile
from bot.games.collecting.render.shapes import Arrangement
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
    text_centered,
    tile_label,
)
from bot.render.tile_art import tile_size
from bot.render.typeface import SEMIBOLD

__all__ = ["pair_total", "render_witness"]

_BRACKET: RGB = (206, 222, 210)
_GROUP_INNER_GAP = 5  # between the two tiles of an eye or a pair
_GROUP_GAP = 24  # between the groups of a witness


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
