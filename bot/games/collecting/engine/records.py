"""The collecting games' part of records (docs/record-format.md): who was dealt what, the
``Result`` tag, and what each seat holds when ``kapshap replay`` steps through a game."""

from __future__ import annotations

from bot.engine.deal import Deal
from bot.engine.rules import RuleSet
from bot.engine.tiles import format_tiles
from bot.games.collecting.engine.machine import GameState, view
from bot.games.dominoes.engine.records import dealt_tiles

__all__ = ["deal_comment", "position_lines", "result_line"]


def result_line(state: GameState) -> str:
    """``seat 1 wins (declared, draw)``, ``drawn (wall)`` or ``unfinished``."""
    result = state.result
    if result is None:
        return "unfinished"
    if result.winner is None:
        return f"drawn ({result.reason})"
    how = f", {result.win_by}" if result.win_by is not None else ""
    return f"seat {result.winner} wins ({result.reason}{how})"


def deal_comment(rules: RuleSet, deal: Deal) -> list[str]:
    """Each seat's dealt hand, in play order from the first player, then the wall."""
    tiles = dealt_tiles(deal)
    out: list[str] = []
    pos = 0
    for offset in range(rules.players):
        seat = (deal.first_seat + offset) % rules.players
        size = rules.hand_size if offset == 0 else rules.hand_size - 1
        out.append(f"; hand of seat {seat}: {' '.join(tiles[pos : pos + size])}")
        pos += size
    out.append(f"; wall, in drawing order: {' '.join(tiles[pos:])}")
    return out


def position_lines(state: GameState, seat: int | None) -> list[str]:
    """Every seat's hand (None), or one seat's, marking the seat to play; then the discards and
    the wall."""
    lines: list[str] = []
    names = state.seats
    for shown in range(state.rules.players) if seat is None else (seat,):
        seen = view(state, shown)
        marker = "▶" if state.result is None and state.current == shown else " "
        lines.append(f" {marker} {names[shown]}: {format_tiles(seen.hand)}")
    table = view(state, None)
    pool = format_tiles(p.tile for p in table.pool)
    lines.append(f"   discards: {pool or '-'}; wall: {table.wall_size} tiles")
    return lines
