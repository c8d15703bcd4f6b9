"""The tile set and its notation (RULES.md §1)."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.engine import (
    KINDS,
    NotationError,
    Tile,
    format_tiles,
    parse_tile,
    parse_tiles,
    plain_notation,
    sort_tiles,
)
from bot.engine.tiles import PIECE_KINDS, PIECES_PER_SET, kind_of_piece, tiles_named

# RULES.md §1, row by row: (kind, civil, copies, pips, English names, Chinese names).
TABLE = [
    ("6-6", True, 2, 12, ["Heaven"], ["天"]),
    ("1-1", True, 2, 2, ["Earth"], ["地"]),
    ("4-4", True, 2, 8, ["Man"], ["人"]),
    ("3-1", True, 2, 4, ["Harmony", "Goose"], ["和", "鵝"]),
    ("5-5", True, 2, 10, ["Plum flower"], ["梅"]),
    ("3-3", True, 2, 6, ["Long three"], ["長三"]),
    ("2-2", True, 2, 4, ["Bench"], ["板凳"]),
    ("6-5", True, 2, 11, ["Axe"], ["斧頭"]),
    ("6-4", True, 2, 10, ["Red-head ten"], ["紅頭十"]),
    ("6-1", True, 2, 7, ["Long-leg seven"], ["高腳七"]),
    ("5-1", True, 2, 6, ["Red-mallet six"], ["紅槌六"]),
    ("6-3", False, 1, 9, [], []),
    ("5-4", False, 1, 9, [], []),
    ("6-2", False, 1, 8, [], []),
    ("5-3", False, 1, 8, [], []),
    ("5-2", False, 1, 7, [], []),
    ("4-3", False, 1, 7, [], []),
    ("4-1", False, 1, 5, [], []),
    ("3-2", False, 1, 5, [], []),
    ("4-2", False, 1, 6, [], []),
    ("2-1", False, 1, 3, [], []),
]

# Names shared by two military kinds: RULES.md writes them in the plural.
AMBIGUOUS = {
    "Nines": ("6-3", "5-4"),
    "雜九": ("6-3", "5-4"),
    "Eights": ("6-2", "5-3"),
    "雜八": ("6-2", "5-3"),
    "Sevens": ("5-2", "4-3"),
    "雜七": ("5-2", "4-3"),
    "Fives": ("4-1", "3-2"),
    "雜五": ("4-1", "3-2"),
    "Gee Joon": ("4-2", "2-1"),
    "至尊": ("4-2", "2-1"),
}


def test_one_set_is_32_pieces_of_21_kinds() -> None:
    assert len(KINDS) == 21
    assert len(set(KINDS)) == 21
    assert PIECES_PER_SET == 32
    assert len(PIECE_KINDS) == 32
    per_kind = Counter(str(kind_of_piece(p)) for p in range(32))
    assert len(per_kind) == 21
    assert sum(1 for k in KINDS if k.civil) == 11
    assert sum(1 for k in KINDS if k.military) == 10
    for kind, civil, copies, pips, _, _ in TABLE:
        tile = parse_tile(kind)
        assert per_kind[kind] == copies, kind
        assert tile.civil is civil and tile.military is not civil, kind
        assert tile.copies_per_set == copies, kind
        assert tile.pips == pips, kind


def test_pieces_of_several_sets_repeat_the_kinds() -> None:
    three_sets = Counter(str(kind_of_piece(p)) for p in range(3 * 32))
    for kind, _, copies, _, _, _ in TABLE:
        assert three_sets[kind] == 3 * copies


@pytest.mark.parametrize("kind", [row[0] for row in TABLE])
def test_every_pip_notation(kind: str) -> None:
    high, low = kind.split("-")
    expected = Tile(int(high), int(low))
    for text in (
        f"{high}-{low}",
        f"{low}-{high}",
        f"{high}{low}",
        f"{low}{high}",
        f"[{high}:{low}]",
        f"[{low}:{high}]",
        f"{high}/{low}",
        f"{low}/{high}",
        f"  {high}-{low} ",
    ):
        assert parse_tile(text) == expected, text
    assert str(expected) == kind
    assert Tile.parse(str(expected)) == expected


@pytest.mark.parametrize("row", [row for row in TABLE if row[4]], ids=lambda row: row[0])
def test_every_name_in_any_case(row: tuple[str, bool, int, int, list[str], list[str]]) -> None:
    kind, _, _, _, english, chinese = row
    expected = parse_tile(kind)
    for name in english:
        for text in (name, name.lower(), name.upper(), name.title(), name.swapcase()):
            assert parse_tile(text) == expected, text
    for name in chinese:
        assert parse_tile(name) == expected, name
    assert expected.english == english[0]
    assert expected.chinese == chinese[0]
    assert expected.label == f"{kind} {english[0]} {chinese[0]}"


@pytest.mark.parametrize("name", sorted(AMBIGUOUS))
def test_a_name_of_two_tiles_is_refused_with_both_options(name: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_tile(name)
    message = str(info.value)
    assert name in message
    for kind in AMBIGUOUS[name]:
        assert kind in message
    with pytest.raises(NotationError):
        parse_tile(name.upper())


@pytest.mark.parametrize(
    ("token", "words"),
    [
        ("7-7", ["7-7", "1 to 6"]),
        ("0-3", ["0-3", "1 to 6"]),
        ("[6:9]", ["[6:9]"]),
        ("6--5", ["6--5"]),
        ("6.5", ["6.5"]),
        ("Axes", ["Axes"]),
        ("Hevean", ["Hevean"]),
        ("天地", ["天地"]),
        ("665", ["665"]),
    ],
)
def test_a_bad_token_is_named_in_the_error(token: str, words: list[str]) -> None:
    with pytest.raises(NotationError) as info:
        parse_tile(token)
    for word in words:
        assert word in str(info.value)


def test_an_empty_tile_is_refused() -> None:
    with pytest.raises(NotationError, match="Empty tile"):
        parse_tile("   ")


def test_a_tile_of_pips_not_in_the_set_cannot_be_built() -> None:
    with pytest.raises(NotationError):
        Tile(7, 1)
    with pytest.raises(NotationError):
        Tile(5, 6)  # kinds are written high-low


def test_parse_tiles_reads_a_mixed_list_and_names_the_bad_token() -> None:
    assert parse_tiles("6-6, 56 [3:1] 4/2 axe 斧頭 Heaven") == [
        Tile(6, 6),
        Tile(6, 5),
        Tile(3, 1),
        Tile(4, 2),
        Tile(6, 5),
        Tile(6, 5),
        Tile(6, 6),
    ]
    assert parse_tiles("") == []
    with pytest.raises(NotationError) as info:
        parse_tiles("6-6 6-5 6-7 3-1")
    assert "6-7" in str(info.value)
    with pytest.raises(NotationError) as info:
        parse_tiles("6-6 gooze")
    assert "gooze" in str(info.value)


def test_identity_compares_kinds() -> None:
    assert parse_tile("5-6") == parse_tile("Axe") == Tile(6, 5)
    assert hash(parse_tile("65")) == hash(Tile(6, 5))
    assert Tile(6, 3) != Tile(5, 4)  # both "Nines", different kinds


def test_sorting_for_display_follows_the_traditional_rank() -> None:
    shuffled = parse_tiles("2-1 3-2 6-6 4-2 1-1 6-3 5-4 5-1 3-1 4-4 6-6")
    assert format_tiles(shuffled) == "6-6 6-6 1-1 4-4 3-1 5-1 6-3 5-4 3-2 4-2 2-1"
    assert [str(t) for t in sort_tiles(reversed(KINDS))] == [row[0] for row in TABLE]
    assert format_tiles(shuffled[:3], sort=False) == "2-1 3-2 6-6"
    assert [t.index for t in KINDS] == list(range(21))


def test_a_shared_name_names_both_tiles_and_tiles_named_lists_them() -> None:
    with pytest.raises(NotationError, match="Two tiles are called 'Nine': write 6-3 or 5-4"):
        parse_tile("Nine")
    assert tiles_named("nine") == (Tile(6, 3), Tile(5, 4))
    assert tiles_named("axe") == (Tile(6, 5),)
    assert tiles_named("nothing") == ()


@pytest.mark.parametrize(
    "copied",
    [
        "4\u2060-\u20604",  # the bot's messages join the hyphen with word joiners
        "`4-4`",  # Discord's "Copy Text" keeps inline code's backticks
        "4\u20114",  # a non-breaking hyphen
        "4\u20134",  # an en dash
        "\uff14\uff0d\uff14",  # full-width digits and hyphen (a Chinese keyboard)
        "\u200b4-4\ufeff",  # zero-width space, byte order mark
    ],
)
def test_a_tile_copied_from_a_message_reads_as_typed(copied: str) -> None:
    assert parse_tile(copied) == Tile(4, 4)
    assert plain_notation(copied).strip() == "4-4"
    assert parse_tiles(f"{copied} 6\u2060-\u20605") == [Tile(4, 4), Tile(6, 5)]
