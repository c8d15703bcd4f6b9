"""An event's settings from the options of ``/tournament new``."""

from __future__ import annotations

from bot.games import UnknownGame, find
from bot.services.errors import UserError
from bot.services.tournaments.words import refusal
from bot.tournament import DecideBy, EventSettings, Format, TournamentError

__all__ = ["settings_from_options"]


def settings_from_options(
    *,
    game: str,
    format: str | None,
    best_of: int,
    rounds: int | None,
    buy_in: int,
    prize_split: str | None,
    seats_limit: int,
    top_cut: int = 0,
    table_size: int = 6,
    games_per_table: int = 3,
    final_table: int = 6,
    decide_by: str | None = None,
    no_show_minutes: int = 5,
    no_show_limit: int = 1,
    # Formats (issue 23): the third-place match, the grand-final reset, the group stage.
    third_place: bool = False,
    grand_final_reset: bool = True,
    groups: int = 0,
    # Late registration (issue 23, i23-entries).
    late_until: int = 0,
    # Arena (issue 23).
    arena_minutes: int = 60,
) -> EventSettings:
    """Event settings from a command's options, refused in words when they do not fit."""
    try:
        split = (
            tuple(int(p) for p in prize_split.replace(",", "/").split("/") if p.strip())
            if prize_split
            else (100,)
        )
    except ValueError:
        raise UserError("Write the prize split as percentages, e.g. 60/30/10.") from None
    fmt = format or _event_format(game)
    try:
        return EventSettings(
            game=game,
            format=Format(fmt),
            best_of=best_of,
            rounds=rounds,
            top_cut=top_cut,
            buy_in=buy_in,
            prize_split=split,
            seats_limit=seats_limit,
            table_size=table_size,
            table_min=min(3, table_size),
            games_per_table=games_per_table,
            final_table=final_table,
            decide_by=DecideBy(decide_by or DecideBy.GAMES.value),
            no_show_minutes=no_show_minutes,
            no_show_limit=no_show_limit,
            third_place=third_place,
            grand_final_reset=grand_final_reset,
            groups=groups,
            late_until=late_until,
            arena_minutes=arena_minutes,
        )
    except (TournamentError, ValueError) as exc:
        raise refusal(exc) from None


def _event_format(game: str) -> str:
    """The game's own format (:attr:`bot.games.GameInfo.event_format`); Swiss for a name no
    family registered (the settings then refuse the game itself)."""
    try:
        return find(game).event_format
    except UnknownGame:
        return Format.SWISS.value
