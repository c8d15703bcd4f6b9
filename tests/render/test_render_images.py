"""Composite pictures: valid PNGs, sizes, groups, the pool's badges and greying, the row's ends."""

from __future__ import annotations

import io
from concurrent.futures import ThreadPoolExecutor

import pytest
from PIL import Image

from bot.engine.tiles import KINDS, Tile, parse_tiles, sort_tiles
from bot.games.collecting.engine.hands import Witness
from bot.games.collecting.engine.machine import PoolTile
from bot.games.collecting.render import table_art, witness_art
from bot.games.collecting.render.table_art import pool_groups, render_pool
from bot.games.collecting.render.witness_art import pair_total, render_witness
from bot.games.fishing.render import row_art
from bot.games.fishing.render.row_art import render_row
from bot.render import layout
from bot.render.images import render_hand
from bot.render.layout import render_tiles
from bot.render.tile_art import tile_image

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
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


def decode(data: bytes) -> Image.Image:
    assert data.startswith(PNG_SIGNATURE)
    Image.open(io.BytesIO(data)).verify()  # structure and checksums
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB")


def red_pixels(image: Image.Image) -> int:
    data = image.tobytes()
    return sum(
        1
        for i in range(0, len(data), 3)
        if data[i] >= 120 and data[i] - data[i + 1] >= 60 and data[i] - data[i + 2] >= 60
    )


@pytest.fixture(autouse=True)
def _fresh_caches() -> None:
    for cached in (
        layout._render_tiles,
        witness_art._render_witness,
        table_art._render_discards,
        row_art._render_fishing_row,
        table_art._render_hand_view,
    ):
        cached.cache_clear()


def test_render_tiles_is_a_png_whose_width_grows_with_the_tiles() -> None:
    widths = [decode(render_tiles(KINDS[:n])).width for n in range(1, 8)]
    assert widths == sorted(set(widths))
    one_line = decode(render_tiles(KINDS[:10]))
    assert one_line.height < 240
    wrapped = decode(render_tiles(list(KINDS)))  # 21 tiles: three lines of at most ten
    assert wrapped.width == one_line.width and wrapped.height > 2 * one_line.height


def test_hand_png_is_small() -> None:
    data = render_hand(HAND, title="Your hand")
    assert len(data) < 60_000
    assert decode(data).width <= 800


def test_hand_is_drawn_sorted() -> None:
    assert render_hand(HAND) == render_tiles(sort_tiles(HAND))
    assert render_hand(HAND) != render_tiles(HAND)


def test_caption_labels_and_highlight_change_the_picture() -> None:
    plain = decode(render_tiles(HAND[:4], labels=False))
    labelled = decode(render_tiles(HAND[:4]))
    captioned = decode(render_tiles(HAND[:4], caption="Your hand"))
    assert labelled.height > plain.height
    assert captioned.height > labelled.height
    assert render_tiles(HAND[:4], highlight={2}) != render_tiles(HAND[:4])


def test_long_caption_widens_the_picture() -> None:
    caption = "A rather long caption that must not be cut off at the picture's edge"
    assert decode(render_tiles(HAND[:1], caption=caption)).width > 400


def test_results_are_cached_bytes() -> None:
    first = render_tiles(HAND, caption="x", highlight={1})
    assert render_tiles(HAND, caption="x", highlight={1}) is first
    assert layout._render_tiles.cache_info().hits == 1


def test_witness_is_wider_than_the_plain_hand() -> None:
    plain = decode(render_tiles(WITNESS.tiles()))
    grouped = decode(render_witness(WITNESS, title="Alice wins"))
    assert grouped.width > plain.width + 40  # four group gaps
    assert grouped.height > plain.height  # brackets and their labels


@pytest.mark.parametrize(
    ("a", "b", "total"),
    [
        ("4-2", "6-1", 10),  # 4-2 counts 3 (Culin)
        ("4-2", "2-2", 10),  # 4-2 counts 6 (natural or wild)
        ("2-1", "2-2", 10),  # 2-1 counts 6 (Gee Joon wild)
        ("2-1", "6-1", 10),
        ("5-5", "5-5", 20),
        ("6-4", "6-4", 20),
        ("6-5", "5-4", 20),
        ("3-1", "3-3", 10),
        ("6-6", "6-6", 24),  # not a ten-pair: its pips
    ],
)
def test_pair_total(a: str, b: str, total: int) -> None:
    assert pair_total(Tile.parse(a), Tile.parse(b)) == total


def test_pool_groups_by_kind_and_deadness() -> None:
    pool = [
        PoolTile(Tile(2, 1), 0, 1, True),
        PoolTile(Tile(6, 5), 0, 2, False),
        PoolTile(Tile(6, 5), 1, 3, False),
        PoolTile(Tile(6, 5), 1, 4, True),
        PoolTile(Tile(6, 6), 0, 5, False),
    ]
    assert pool_groups(pool) == [
        (Tile(6, 6), 1, False),
        (Tile(6, 5), 2, False),
        (Tile(6, 5), 1, True),
        (Tile(2, 1), 1, True),
    ]


def test_pool_badge_and_greying() -> None:
    one = decode(render_pool([(Tile(1, 1), 1, False)]))
    two = decode(render_pool([(Tile(1, 1), 2, False)]))
    dead = decode(render_pool([(Tile(1, 1), 1, True)]))
    assert one.size == two.size == dead.size
    assert one.tobytes() != two.tobytes()  # the x2 badge
    assert red_pixels(one) > 100  # the red ones of Earth
    assert red_pixels(dead) == 0  # a dead discard is greyed out


def test_pool_wraps_into_lines() -> None:
    short = decode(render_pool([(t, 1, False) for t in KINDS[:5]]))
    long = decode(render_pool([(t, 1, False) for t in KINDS]))
    assert long.height > short.height
    assert long.width < 1000


def test_row_has_end_markers_and_wraps_when_long() -> None:
    row = decode(render_row(parse_tiles("6-6 3-1 5-4")))
    gold = (244, 192, 64)
    for x_range in (range(0, 40), range(row.width - 40, row.width)):
        assert any(
            all(abs(a - b) < 20 for a, b in zip(row.getpixel((x, y)), gold, strict=True))  # type: ignore[arg-type]
            for x in x_range
            for y in range(row.height)
        )
    long = decode(render_row([*KINDS, *KINDS]))
    assert long.width < 760  # 42 tiles in lines of at most nine
    assert long.height > 4 * (row.height - 30)


@pytest.mark.parametrize(
    "data",
    [
        lambda: render_tiles([]),
        lambda: render_hand([], title="Empty"),
        lambda: render_pool([]),
        lambda: render_row([]),
    ],
)
def test_empty_inputs_give_a_small_valid_png(data: object) -> None:
    assert callable(data)
    image = decode(data())
    assert image.width < 400 and image.height < 100


def test_renders_are_identical_across_threads() -> None:
    hands = [list(KINDS[i : i + 8]) for i in range(14)]
    expected = [render_hand(h, title=str(i)) for i, h in enumerate(hands)]
    layout._render_tiles.cache_clear()
    tile_image.cache_clear()
    with ThreadPoolExecutor(max_workers=8) as pool:
        got = list(pool.map(lambda i: render_hand(hands[i], title=str(i)), range(len(hands))))
    assert got == expected
