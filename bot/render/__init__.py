"""Pictures of tiles and hands for the Discord layer (Pillow; no discord, no asyncio).

* :mod:`bot.render.tile_art` draws one Chinese domino (colour convention and suit marks are
  documented there) and caches it per ``(kind, scale)``;
* :mod:`bot.render.layout` holds what every picture shares: the felt, the colours, the sizes
  that keep a picture readable at embed width, the drawing helpers and a plain row of tiles;
* :mod:`bot.render.images` draws a hand and a winning arrangement;
* :mod:`bot.render.table_art` draws a table in play: the discards with the latest marked, a hand
  with its new tiles and the discards its player may take, the Tsung Shap row with the tile just
  turned over, and the discard pool and the row alone for replays;
* :mod:`bot.render.typeface` draws every text in Noto Sans and Noto Sans CJK, so names in any
  script are drawn as written;
* :mod:`bot.render.alt_text` says in words what each picture shows: the description (alt text)
  every picture the bot sends carries, for screen readers and members with images off.

All functions are synchronous and thread-safe; call them through ``asyncio.to_thread``.
"""

from bot.render.images import pair_total, render_hand, render_witness
from bot.render.layout import render_tiles
from bot.render.table_art import (
    PoolGroup,
    discard_groups,
    pool_groups,
    render_discards,
    render_fishing_row,
    render_hand_view,
    render_pool,
    render_row,
)
from bot.render.tile_art import render_tile

__all__ = [
    "PoolGroup",
    "discard_groups",
    "pair_total",
    "pool_groups",
    "render_discards",
    "render_fishing_row",
    "render_hand",
    "render_hand_view",
    "render_pool",
    "render_row",
    "render_tile",
    "render_tiles",
    "render_witness",
]
