"""Every picture the bot sends is legible at the width Discord shows an embed (about 400 px).

Each picture kind, at its largest (a full hand, 30 discard groups, a 30-tile Tsung Shap row …),
is scaled to 400 px wide as Discord would, and the tiles are measured in the scaled pixels: a tile
is a vertical run of non-felt pixels (face, pips and edge), and the median run must be at least
:data:`MIN_TILE_PX` tall. The labels' type size at that scale is checked too, and the PNG
files must stay small.
"""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from PIL import Image

from bot.engine.tiles import KINDS, Tile, parse_tiles
from bot.games.collecting.engine.hands import Witness
from bot.games.collecting.engine.machine import PoolTile
from bot.games.collecting.render.table_art import discard_groups, render_discards, render_hand_view
from bot.games.collecting.render.witness_art import render_witness
from bot.games.fishing.render.row_art import render_fishing_row
from bot.render.images import render_hand
from bot.render.layout import EMBED_WIDTH, FELT, LABEL_FONT, MAX_WIDTH, render_tiles

MIN_TILE_PX = 48  # a tile's height at embed width
MIN_LABEL_PX = 11  # the labels' type size at embed width
MAX_BYTES = 60_000

NAME = "小明 Zoë"
HAND = parse_tiles("6-6 6-6 3-1 6-5 4-2 5-5 2-1 1-1 6-1 5-3")
WITNESS = Witness(
    eye=(Tile(6, 6), Tile(6, 6)),
    pairs=(
        (Tile(3, 1), Tile(3, 3)),
        (Tile(4, 2), Tile(6, 1)),
        (Tile(5, 5), Tile(5, 5)),
        (Tile(6, 5), Tile(5, 4)),
    ),
)
# 32 discards: every kind live and dead, so 30+ groups.
POOL = [PoolTile(t, 0, i, dead=i < 16) for i, t in enumerate([*KINDS, *KINDS[:11]])]

PICTURES: dict[str, Callable[[], bytes]] = {
    "hand": lambda: render_hand(HAND, title=f"{NAME} — your hand"),
    "hand with a new tile": lambda: render_hand_view(HAND, new=[Tile(2, 1)], title=NAME),
    "hand and discards": lambda: render_hand_view(
        HAND[:9],
        discards=discard_groups(POOL, {Tile(6, 5)}),
        discards_title="Discards: you may take one framed in gold",
    ),
    "21 tiles": lambda: render_tiles(list(KINDS)),
    "winning hand": lambda: render_witness(WITNESS, title=f"{NAME} wins"),
    "discards": lambda: render_discards(discard_groups(POOL), title=f"Discards · {NAME}"),
    "row of 3": lambda: render_fishing_row(parse_tiles("6-6 3-1 5-4"), Tile(2, 2), title=NAME),
    "row of 12": lambda: render_fishing_row(KINDS[:12], Tile(2, 2), title=NAME),
    "row of 30": lambda: render_fishing_row([*KINDS, *KINDS[:9]], Tile(2, 2), title=NAME),
}


def at_embed_width(data: bytes) -> tuple[Image.Image, float]:
    """The picture as Discord shows it in an embed, and the scale it is shown at."""
    image = Image.open(io.BytesIO(data)).convert("RGB")
    scale = min(1.0, EMBED_WIDTH / image.width)
    size = (round(image.width * scale), round(image.height * scale))
    return image.resize(size, Image.Resampling.LANCZOS), scale


def tile_runs(image: Image.Image) -> list[int]:
    """Lengths of the vertical runs of non-felt pixels at least 20 px long (text strokes at
    this size are shorter): in a picture of tiles, the tiles' heights."""
    width, height = image.size
    px = image.load()
    assert px is not None
    runs = []
    for x in range(width):
        run = 0
        for y in range(height + 1):
            value = px[x, y] if y < height else FELT
            assert isinstance(value, tuple)
            if sum(abs(a - b) for a, b in zip(value, FELT, strict=True)) > 30:
                run += 1
            else:
                if run >= 20:
                    runs.append(run)
                run = 0
    return runs


@pytest.mark.parametrize("kind", PICTURES)
def test_legible_at_embed_width(kind: str) -> None:
    data = PICTURES[kind]()
    assert len(data) < MAX_BYTES, f"{kind}: {len(data)} bytes"
    shown, scale = at_embed_width(data)
    assert shown.width <= EMBED_WIDTH
    assert scale >= EMBED_WIDTH / MAX_WIDTH
    assert LABEL_FONT * scale >= MIN_LABEL_PX
    runs = sorted(tile_runs(shown))
    assert runs, f"{kind}: no tiles found"
    # Most columns that cross a picture element cross a tile; a few cross an end marker, a
    # badge or a rule: the median is a tile's height.
    median = runs[len(runs) // 2]
    assert median >= MIN_TILE_PX, f"{kind}: tiles {median} px tall at embed width"


def test_the_check_can_fail() -> None:
    """The old layout (42 tiles on one strip, 1900 px wide) is not legible at embed width."""
    strip = Image.new("RGB", (1900, 180), FELT)
    for i in range(42):
        strip.paste((247, 241, 226), (12 + i * 44, 12, 12 + i * 44 + 36, 12 + 79))
    out = io.BytesIO()
    strip.save(out, format="PNG")
    shown, _ = at_embed_width(out.getvalue())
    assert max(tile_runs(shown), default=0) < MIN_TILE_PX
