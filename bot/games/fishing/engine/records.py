"""Tsung Shap's part of records (docs/record-format.md): the two piles dealt, the ``Result``
tag with the scores, and the scores and row when ``kapshap replay`` steps through a game."""

from __future__ import annotations

from bot.engine.deal import Deal
from bot.engine.rules import RuleSet
from bot.engine.tiles import format_tiles
from bot.games.dominoes.engine.records import dealt_tiles
from bot.games.fishing.engine import FishingState, view

__all__ = ["deal_comment", "position_lines", "result_line"]


def result_line(state: FishingState) -> str:
    """``seat 0 wins 120-90 (pile)``, ``drawn 100-100 (pile)`` or ``unfinished``."""
    result = state.result
    if result is None:
        return "unfinished"
    scores = "-".join(str(s) for s in result.scores)
    if result.winner is None:
        return f"drawn {scores} ({result.reason})"
    return f"seat {result.winner} wins {scores} ({result.reason})"


def deal_comment(rules: RuleSet, deal: Deal) -> list[str]:
    """Each seat's pile, in play order from the first player."""
    tiles = dealt_tiles(deal)
    out: list[str] = []
    pos = 0
    for offset in range(rules.players):
        seat = (deal.first_seat + offset) % rules.players
        out.append(f"; pile of seat {seat}: {' '.join(tiles[pos : pos + rules.pile_size])}")
        pos += rules.pile_size
    return out


def position_lines(state: FishingState, seat: int | None) -> list[str]:
    """Every seat's points (None), or one seat's, marking the seat to play; then the row."""
    lines: list[str] = []
    names = state.seats
    for shown in range(state.rules.players) if seat is None else (seat,):
        seen = view(state, shown)
        marker = "▶" if state.result is None and state.current == shown else " "
        lines.append(f" {marker} {names[shown]}: {seen.scores[shown]} points")
    table = view(state, None)
    lines.append(f"   row: {format_tiles(table.row, sort=False)}")
    return lines
