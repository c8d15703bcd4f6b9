"""The Chinese domino set: 32 tiles of 21 kinds (RULES.md §1).

A :class:`Tile` is a *kind* (``6-5``); several sets hold several physical copies of a kind. The
engine deals *pieces*: integers ``0 .. 32 * sets - 1``, where piece ``p`` is a copy of kind
``PIECE_KINDS[p % 32]``. Identity ("identical tiles") always compares kinds.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.engine.errors import NotationError
from bot.limits import quote_input

__all__ = [
    "KINDS",
    "PIECES_PER_SET",
    "PIECE_KINDS",
    "AmbiguousTile",
    "Tile",
    "format_tiles",
    "kind_of_piece",
    "parse_tile",
    "parse_tiles",
    "plain_notation",
    "sort_tiles",
    "tiles_named",
]


@dataclass(frozen=True, slots=True)
class _KindInfo:
    high: int
    low: int
    civil: bool
    english: str
    chinese: str


# Order is the traditional rank: civil tiles from Heaven down, then the military tiles.
_KIND_TABLE: tuple[_KindInfo, ...] = (
    _KindInfo(6, 6, True, "Heaven", "天"),
    _KindInfo(1, 1, True, "Earth", "地"),
    _KindInfo(4, 4, True, "Man", "人"),
    _KindInfo(3, 1, True, "Harmony", "和"),
    _KindInfo(5, 5, True, "Plum flower", "梅"),
    _KindInfo(3, 3, True, "Long three", "長三"),
    _KindInfo(2, 2, True, "Bench", "板凳"),
    _KindInfo(6, 5, True, "Axe", "斧頭"),
    _KindInfo(6, 4, True, "Red-head ten", "紅頭十"),
    _KindInfo(6, 1, True, "Long-leg seven", "高腳七"),
    _KindInfo(5, 1, True, "Red-mallet six", "紅槌六"),
    _KindInfo(6, 3, False, "Nine", "雜九"),
    _KindInfo(5, 4, False, "Nine", "雜九"),
    _KindInfo(6, 2, False, "Eight", "雜八"),
    _KindInfo(5, 3, False, "Eight", "雜八"),
    _KindInfo(5, 2, False, "Seven", "雜七"),
    _KindInfo(4, 3, False, "Seven", "雜七"),
    _KindInfo(4, 1, False, "Five", "雜五"),
    _KindInfo(3, 2, False, "Five", "雜五"),
    _KindInfo(4, 2, False, "Gee Joon", "至尊"),
    _KindInfo(2, 1, False, "Gee Joon", "至尊"),
)

_INDEX_BY_PIPS: dict[tuple[int, int], int] = {
    (info.high, info.low): i for i, info in enumerate(_KIND_TABLE)
}


@dataclass(frozen=True, slots=True, order=False)
class Tile:
    """One kind of tile, written high-low (``6-5``)."""

    high: int
    low: int

    def __post_init__(self) -> None:
        if (self.high, self.low) not in _INDEX_BY_PIPS:
            raise NotationError(f"There is no {self.high}-{self.low} tile in the set")

    @property
    def index(self) -> int:
        """Position of this kind in the traditional order (0 = Heaven ... 20 = 2-1)."""
        return _INDEX_BY_PIPS[(self.high, self.low)]

    @property
    def civil(self) -> bool:
        """True for the 11 civil kinds (two copies per set)."""
        return _KIND_TABLE[self.index].civil

    @property
    def military(self) -> bool:
        """True for the 10 military kinds (one copy per set)."""
        return not self.civil

    @property
    def copies_per_set(self) -> int:
        """How many physical copies of this kind one set holds."""
        return 2 if self.civil else 1

    @property
    def pips(self) -> int:
        """Total number of pips (natural value; 4-2 has 6)."""
        return self.high + self.low

    @property
    def english(self) -> str:
        """English name (military kinds share their name with their partner)."""
        return _KIND_TABLE[self.index].english

    @property
    def chinese(self) -> str:
        """Chinese name."""
        return _KIND_TABLE[self.index].chinese

    @property
    def label(self) -> str:
        """Notation with names, e.g. ``6-5 Axe 斧頭``."""
        return f"{self} {self.english} {self.chinese}"

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"

    def __repr__(self) -> str:
        return f"Tile({self})"

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Read a tile in any accepted notation (see :func:`parse_tile`)."""
        return parse_tile(text)


KINDS: tuple[Tile, ...] = tuple(Tile(info.high, info.low) for info in _KIND_TABLE)
"""The 21 kinds in traditional order; ``KINDS[i].index == i``."""

PIECE_KINDS: tuple[int, ...] = tuple(
    i for i, info in enumerate(_KIND_TABLE) for _ in range(2 if info.civil else 1)
)
"""Kind index of each of the 32 pieces of one set."""

PIECES_PER_SET = len(PIECE_KINDS)
assert PIECES_PER_SET == 32


def kind_of_piece(piece: int) -> Tile:
    """The kind of a physical piece number."""
    return KINDS[PIECE_KINDS[piece % PIECES_PER_SET]]


class AmbiguousTile(NotationError):
    """A name shared by two kinds of tile (``Nine``: 6-3 and 5-4); ``options`` holds both."""

    def __init__(self, message: str, options: tuple[Tile, ...]) -> None:
        super().__init__(message)
        self.options = options


def _name_key(name: str) -> str:
    return re.sub(r"[\s\-_]+", "", name.casefold())


def _build_names() -> dict[str, tuple[Tile, ...]]:
    names: dict[str, list[Tile]] = {}
    aliases = [(t.english, t) for t in KINDS] + [(t.chinese, t) for t in KINDS]
    # Plural military names ("Nines") as RULES.md writes them, and common alternatives.
    aliases += [(t.english + "s", t) for t in KINDS if t.military]
    aliases += [("Goose", Tile(3, 1)), ("鵝", Tile(3, 1)), ("Plum", Tile(5, 5))]
    for name, tile in aliases:
        bucket = names.setdefault(_name_key(name), [])
        if tile not in bucket:
            bucket.append(tile)
    return {k: tuple(v) for k, v in names.items()}


_NAMES = _build_names()
_PIPS_RE = re.compile(r"^\[?\s*([0-9])\s*[-:/]?\s*([0-9])\s*\]?$")


# Dashes a copied tile may carry instead of "-": the non-breaking hyphen and its kin.
_DASHES = str.maketrans(dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2212\ufe63", "-"))


def plain_notation(text: str) -> str:
    """``text`` as the parsers read it, whatever a member copied from a message: the bot's
    messages join a tile's hyphen to its pips with invisible word joiners (so that a phone never
    wraps ``4-4`` after its hyphen), Discord's "Copy Text" keeps inline code's backticks, and
    other programs write full-width digits or a non-breaking hyphen. Those become plain ASCII
    notation (invisible format characters dropped, dashes made ``-``, backticks removed)."""
    text = unicodedata.normalize("NFKC", text).translate(_DASHES).replace("`", "")
    return "".join(c for c in text if unicodedata.category(c) != "Cf")


def parse_tile(text: str) -> Tile:
    """Read one tile: ``6-5``, ``5-6``, ``65``, ``[6:5]``, ``6/5`` or a name (``Axe``, ``斧頭``),
    as typed or copied from a message (:func:`plain_notation`).

    Raises :class:`NotationError` naming the bad token.
    """
    token = plain_notation(text).strip()
    if not token:
        raise NotationError("Empty tile: write a tile like 6-5, 65 or Axe")
    # Only a short prefix of the input is quoted back: a reply must fit Discord's limits.
    quoted = quote_input(token)
    match = _PIPS_RE.match(token)
    if match:
        a, b = int(match.group(1)), int(match.group(2))
        high, low = max(a, b), min(a, b)
        if low < 1 or high > 6:
            raise NotationError(f"Not a tile: {quoted}, pips run from 1 to 6")
        if (high, low) not in _INDEX_BY_PIPS:
            raise NotationError(f"Not a tile: {quoted}, there is no {high}-{low} in the set")
        return KINDS[_INDEX_BY_PIPS[(high, low)]]
    found = _NAMES.get(_name_key(token))
    if found is None:
        raise NotationError(
            f"Not a tile: {quoted}; write it as pips (6-5, 65, [6:5]) or by name (Axe, 斧頭)"
        )
    if len(found) > 1:
        options = " or ".join(str(t) for t in found)
        raise AmbiguousTile(f"Two tiles are called {quoted}: write {options}", found)
    return found[0]


def tiles_named(text: str) -> tuple[Tile, ...]:
    """Every tile ``text`` may mean: one for pips or a unique name, two for a name shared by two
    kinds (``Nine``: 6-3 and 5-4), none for anything else. Lets a caller resolve a shared name
    against the tiles a player can actually use."""
    try:
        return (parse_tile(text),)
    except AmbiguousTile as exc:
        return exc.options
    except NotationError:
        return ()


def parse_tiles(text: str) -> list[Tile]:
    """Read several tiles separated by spaces or commas (``"6-6 6-6 3-1 65"``).

    Multi-word names are not accepted here; use pips notation for lists.
    """
    tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    return [parse_tile(t) for t in tokens]


def sort_tiles(tiles: Iterable[Tile]) -> list[Tile]:
    """Tiles in display order (traditional rank: Heaven first, Gee Joon last)."""
    return sorted(tiles, key=lambda t: t.index)


def format_tiles(tiles: Sequence[Tile] | Iterable[Tile], *, sort: bool = True) -> str:
    """Tiles as space-separated notation, sorted for display unless ``sort`` is false."""
    items = sort_tiles(tiles) if sort else list(tiles)
    return " ".join(str(t) for t in items)
