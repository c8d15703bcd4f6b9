"""Typed positions of Tsung Shap (bot.engine.position, docs/record-format.md "Positions"):
the scores, the row, the tile turned over, the piles' sizes and the captured tiles."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.engine.deal import Deal
from bot.engine.errors import RulesError
from bot.engine.position import PositionError
from bot.engine.rules import RuleSet, make_rules
from bot.engine.tiles import kind_of_piece
from bot.games.dominoes.engine.position import (
    Fields,
    Pieces,
    flag_lines,
    read_fields,
    read_tiles,
    rules_words,
    seats,
    tiles_text,
    with_flags,
)
from bot.games.fishing.engine import FishingPhase, FishingState

__all__ = ["parse_position", "write_position"]

KEYS = frozenset({
    "game", "flag", "seat", "scores", "row", "turned", "piles", "captured", "turn", "first",
})  # fmt: skip
REPEATABLE = frozenset({"flag", "captured"})


def parse_position(game: str, given: Mapping[str, Sequence[str]]) -> tuple[FishingState, int]:
    """The state a Tsung Shap position describes, and the seat to play."""
    fields = read_fields(game, given, KEYS, REPEATABLE)
    try:
        rules = make_rules(game)
    except RulesError as exc:
        raise PositionError(rules_words(exc)) from None
    rules = with_flags(rules, fields)
    seat, first = seats(fields, rules)
    return _state(fields, rules, seat, first), seat


def _state(fields: Fields, rules: RuleSet, seat: int, first: int) -> FishingState:
    pieces = Pieces(rules)
    row = [pieces.take(t, "row") for t in read_tiles("row", fields.values.get("row", ""))]
    turned: int | None = None
    if fields.values.get("turned"):
        tiles = read_tiles("turned", fields.values["turned"])
        if len(tiles) != 1:
            raise PositionError("'turned' is the one tile you have turned over")
        turned = pieces.take(tiles[0], "turned")
        if not row:
            raise PositionError("A tile turned onto an empty row starts it: write it in 'row'")
    captured_tiles = fields.seat_tiles("captured", 2)
    captured = [
        tuple(pieces.take(t, f"captured {s}") for t in captured_tiles.get(s, [])) for s in (0, 1)
    ]
    scores_text = fields.values.get("scores", "0 0").split()
    if len(scores_text) != 2 or not all(s.isdigit() for s in scores_text):
        raise PositionError("Write 'scores <seat 0> <seat 1>', two whole numbers")
    piles_text = fields.values.get("piles", "").split()
    if len(piles_text) != 2 or not all(s.isdigit() for s in piles_text):
        raise PositionError("Write 'piles <seat 0> <seat 1>': the tiles left in each pile")
    counts = [int(n) for n in piles_text]
    rest = pieces.rest()
    if max(counts) > rules.pile_size:
        raise PositionError(f"A pile holds at most {rules.pile_size} tiles")
    if sum(counts) != len(rest):
        raise PositionError(
            f"The piles hold {len(rest)} tiles, not {sum(counts)}: the {rules.tile_count} tiles "
            "are the row, the turned tile, the captured tiles and the piles (list every "
            "captured tile)"
        )
    if turned is None and counts[seat] == 0:
        raise PositionError(f"Seat {seat}'s pile is empty: it has no tile to turn over")
    piles = (tuple(rest[: counts[0]]), tuple(rest[counts[0] :]))
    turned_so_far = 2 * rules.pile_size - sum(counts)
    return FishingState(
        rules=rules,
        seats=("seat 0", "seat 1"),
        deal=Deal(order=tuple(range(rules.tile_count)), first_seat=first),
        piles=piles,
        row=tuple(row),
        captured=(captured[0], captured[1]),
        scores=(int(scores_text[0]), int(scores_text[1])),
        current=seat,
        phase=FishingPhase.PLAY if turned is not None else FishingPhase.TURN_OVER,
        turn=fields.number("turn", max(turned_so_far, 1), low=1),
        turned=turned,
    )


def write_position(state: FishingState) -> str:
    """What the seat to play sees of ``state`` (PositionError while missed captures wait to be
    claimed)."""
    rules, seat = state.rules, state.current
    if state.pending:
        raise PositionError("Missed captures waiting to be claimed cannot be written")
    lines = [rules.game.value, *flag_lines(rules, make_rules(rules.game))]
    lines += [f"seat {seat}", f"first {state.deal.first_seat}", f"turn {state.turn}"]
    lines.append(f"scores {state.scores[0]} {state.scores[1]}")
    lines.append(f"row {tiles_text(state.row)}")
    if state.turned is not None:
        lines.append(f"turned {kind_of_piece(state.turned)}")
    lines.append(f"piles {len(state.piles[0])} {len(state.piles[1])}")
    lines += [f"captured {s}: {tiles_text(c)}" for s, c in enumerate(state.captured) if c]
    return "\n".join(lines) + "\n"
