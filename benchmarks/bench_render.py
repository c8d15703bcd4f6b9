"""How long each picture the bot sends takes to draw and encode, and how large it is.

    .venv/bin/python benchmarks/bench_render.py [--repeat 20]

Every picture kind at its largest (as in ``tests/render/test_render_legibility.py``), drawn
with the renderer's caches cleared each time (the tile pictures and fonts stay loaded, as in a
running bot), single-threaded. Prints the median and best time and the PNG size per kind.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from bot.engine.tiles import KINDS, Tile, parse_tiles
from bot.games.collecting.engine.hands import Witness
from bot.games.collecting.engine.machine import PoolTile
from bot.games.collecting.render import table_art, witness_art
from bot.games.collecting.render.table_art import discard_groups, render_discards, render_hand_view
from bot.games.collecting.render.witness_art import render_witness
from bot.games.fishing.render import row_art
from bot.games.fishing.render.row_art import render_fishing_row
from bot.render import layout
from bot.render.images import render_hand

NAME = "小明 Zoë"
HAND = parse_tiles("6-6 6-6 3-1 6-5 4-2 5-5 2-1 1-1 6-1 5-3")
WITNESS = Witness(
    eye=(Tile(6, 6), Tile(6, 6)),
    pairs=tuple(
        (Tile.parse(a), Tile.parse(b))
        for a, b in (("3-1", "3-3"), ("4-2", "6-1"), ("5-5", "5-5"), ("6-5", "5-4"))
    ),
)
POOL = [PoolTile(t, 0, i, dead=i < 16) for i, t in enumerate([*KINDS, *KINDS[:11]])]
PICTURES: dict[str, Callable[[], bytes]] = {
    "hand (10 tiles)": lambda: render_hand(HAND, title=NAME),
    "hand, a new tile": lambda: render_hand_view(HAND, new=[Tile(2, 1)], title=NAME),
    "hand and 32 discards": lambda: render_hand_view(
        HAND[:9], discards=discard_groups(POOL, {Tile(6, 5)}), discards_title=NAME
    ),
    "winning hand": lambda: render_witness(WITNESS, title=f"{NAME} wins"),
    "table: 32 discards": lambda: render_discards(discard_groups(POOL), title=NAME),
    "Tsung Shap row of 12 + turned": lambda: render_fishing_row(KINDS[:12], Tile(2, 2)),
    "Tsung Shap row of 30 + turned": lambda: render_fishing_row([*KINDS, *KINDS[:9]], Tile(2, 2)),
}

CACHES = (
    layout._render_tiles,
    witness_art._render_witness,
    table_art._render_discards,
    row_art._render_fishing_row,
    table_art._render_hand_view,
)


def main() -> None:
    """Run the benchmark and print a Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    for draw in PICTURES.values():
        draw()  # load the fonts and tile pictures once
    print("| picture | median ms | best ms | bytes |")
    print("|---|---:|---:|---:|")
    for kind, draw in PICTURES.items():
        times = []
        for _ in range(args.repeat):
            for cache in CACHES:
                cache.cache_clear()
            start = time.perf_counter()
            data = draw()
            times.append((time.perf_counter() - start) * 1000)
        print(f"| {kind} | {statistics.median(times):.1f} | {min(times):.1f} | {len(data):,} |")


if __name__ == "__main__":
    main()
