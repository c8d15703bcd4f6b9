"""What the domino games' typed positions share (bot.engine.position): fields of whole numbers
and tiles, the physical pieces handed out by kind, the rule set from its flags, and the seat to
play."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from bot.engine.errors import NotationError, RulesError
from bot.engine.position import PositionError
from bot.engine.rules import RuleSet, with_flag
from bot.engine.tiles import PIECE_KINDS, PIECES_PER_SET, Tile, kind_of_piece, parse_tiles

__all__ = [
    "Fields",
    "Pieces",
    "flag_lines",
    "read_fields",
    "read_tiles",
    "rules_words",
    "seats",
    "tiles_text",
    "with_flags",
]


@dataclass
class Fields:
    """A position's fields (the game left out): one value each, or several for the fields
    that may repeat."""

    values: dict[str, str] = field(default_factory=dict)
    repeated: dict[str, list[str]] = field(default_factory=dict)

    def number(self, key: str, default: int | None = None, low: int = 0) -> int:
        """A whole number of at least ``low`` (``default`` when the field is not given)."""
        text = self.values.get(key)
        if text is None:
            if default is None:
                raise PositionError(f"The position needs '{key}'")
            return default
        try:
            value = int(text)
        except ValueError:
            raise PositionError(f"'{key}' must be a whole number, not '{text[:20]}'") from None
        if value < low:
            raise PositionError(f"'{key}' must be at least {low}, not {value}")
        return value

    def seat_tiles(self, key: str, players: int) -> dict[int, list[Tile]]:
        """``known 1: 6-3 5-2`` (repeatable) as {seat: tiles}."""
        out: dict[int, list[Tile]] = {}
        for value in self.repeated.get(key, []):
            match = re.match(r"(\d+)\s*:?\s*(.*)$", value)
            if match is None:
                raise PositionError(f"Write '{key} <seat>: <tiles>', not '{key} {value[:30]}'")
            seat = int(match[1])
            if not 0 <= seat < players:
                raise PositionError(f"'{key} {seat}': there is no seat {seat} at this table")
            out.setdefault(seat, []).extend(read_tiles(f"{key} {seat}", match[2]))
        return out


def read_fields(
    game: str,
    fields: Mapping[str, Sequence[str]],
    allowed: frozenset[str],
    repeatable: frozenset[str],
) -> Fields:
    """The fields of a game whose notation knows ``allowed`` (``game`` among them), of which
    ``repeatable`` may be given more than once."""
    out = Fields()
    for key, values in fields.items():
        if key in repeatable:
            out.repeated[key] = list(values)
        elif len(values) > 1:
            raise PositionError(f"'{key}' is given twice")
        else:
            out.values[key] = values[0]
    for key in fields:
        if key not in allowed:
            raise PositionError(
                f"Unknown field '{key}' for {game}: use {', '.join(sorted(allowed))}"
            )
    return out


def read_tiles(what: str, text: str) -> list[Tile]:
    """The tiles of a field (``what`` names it in the error)."""
    try:
        return parse_tiles(text)
    except NotationError as exc:
        raise PositionError(f"In '{what}': {exc}") from None


def with_flags(rules: RuleSet, fields: Fields) -> RuleSet:
    """``rules`` with the position's ``flag name=value`` fields set."""
    try:
        for flag in fields.repeated.get("flag", []):
            name, sep, value = flag.partition("=")
            if not sep:
                raise PositionError(f"Write 'flag name=value', not 'flag {flag[:30]}'")
            rules = with_flag(rules, name.strip(), value.strip())
    except RulesError as exc:
        raise PositionError(rules_words(exc)) from None
    return rules


def rules_words(exc: RulesError) -> str:
    """A refusal of the rules as a sentence."""
    return str(exc)[:1].upper() + str(exc)[1:]


def seats(fields: Fields, rules: RuleSet) -> tuple[int, int]:
    """The seat to play and the first player, both at this table."""
    seat = fields.number("seat", 0)
    if seat >= rules.players:
        raise PositionError(f"'seat {seat}': there is no seat {seat} at this table")
    first = fields.number("first", 0)
    if first >= rules.players:
        raise PositionError(f"'first {first}': there is no seat {first} at this table")
    return seat, first


class Pieces:
    """The physical pieces of the rule set, handed out by kind."""

    def __init__(self, rules: RuleSet) -> None:
        self.sets = rules.sets
        self.free: dict[int, list[int]] = {}
        for piece in range(rules.tile_count):
            self.free.setdefault(PIECE_KINDS[piece % PIECES_PER_SET], []).append(piece)

    def take(self, tile: Tile, where: str) -> int:
        """A piece of the tile's kind (PositionError when the sets hold no more)."""
        pool = self.free.get(tile.index)
        if not pool:
            copies = tile.copies_per_set * self.sets
            sets = "1 set holds" if self.sets == 1 else f"{self.sets} sets hold"
            raise PositionError(f"Too many {tile} (at '{where}'): {sets} only {copies}")
        return pool.pop(0)

    def rest(self) -> list[int]:
        """The pieces not handed out, in piece order."""
        return sorted(p for pieces in self.free.values() for p in pieces)


def flag_lines(rules: RuleSet, base: RuleSet) -> list[str]:
    """``flag name=value`` for every flag of ``rules`` that differs from ``base``."""
    lines: list[str] = []
    ours, theirs = rules.flags(), base.flags()
    for name, value in ours.items():
        if value != theirs[name]:
            text = ("true" if value else "false") if isinstance(value, bool) else str(value)
            lines.append(f"flag {name}={text}")
    return lines


def tiles_text(pieces: Sequence[int]) -> str:
    """Pieces as their tiles' notation."""
    return " ".join(str(kind_of_piece(p)) for p in pieces)
