"""Pictures of tiles and hands for the Discord layer (Pillow; no discord, no asyncio).

* :mod:`bot.render.tile_art` draws one Chinese domino (colour convention and suit marks are
  documented there) and caches it per ``(kind, scale)``;
* :mod:`bot.render.layout` holds what every picture shares: the felt, the colours, the sizes
  that keep a picture readable at embed width, the drawing helpers and a plain row of tiles;
* :mod:`bot.render.images` draws a hand;
* a game's own pictures (the discards, a hand with the discards its player may take, a winning
  arrangement, the Tsung Shap row) and their descriptions are its family's, in
  ``bot/games/<family>/render/`` (reached through :func:`bot.render.family.render_of`);
* :mod:`bot.render.typeface` draws every text in Noto Sans and Noto Sans CJK, so names in any
  script are drawn as written;
* :mod:`bot.render.alt_text` says in words what a picture shows: the description (alt text)
  every picture the bot sends carries, for screen readers and members with images off (the
  shared helpers, and the descriptions of the ratings' and tournaments' pictures).

All functions are synchronous and thread-safe; call them through ``asyncio.to_thread``.
"""

from bot.render.images import render_hand
from bot.render.layout import render_tiles
from bot.render.tile_art import render_tile

__all__ = ["render_hand", "render_tile", "render_tiles"]
