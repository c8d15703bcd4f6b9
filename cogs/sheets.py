"""What every message of a table shares: its colour, a link to it, the seats as the games'
words write them, text cut to fit an embed, tiles kept on one line, and the few lines about the
stakes and the rules a lobby would start with (pure functions of a :class:`Table`)."""

from __future__ import annotations

from typing import Any

import discord

from bot.engine import EngineError, make_rules
from bot.engine.family import Rules
from bot.locale import t
from bot.render.family import Field, SeatLabel
from bot.render.text import count_text, unbroken
from bot.services.tables import Table

__all__ = [
    "COLOUR",
    "aborted_text",
    "add_fields",
    "field_text",
    "jump_url",
    "lobby_rules",
    "seat_labels",
    "stakes_text",
    "time_runs_out",
    "unbroken_embed",
]

COLOUR = discord.Colour.from_rgb(28, 88, 60)  # the felt of the tile pictures


def jump_url(table: Table) -> str:
    """A link to the table message (or to the channel while there is none)."""
    if table.message_id is None:
        return f"<#{table.channel_id}>"
    return f"https://discord.com/channels/{table.guild_id}/{table.channel_id}/{table.message_id}"


def unbroken_embed(embed: discord.Embed) -> discord.Embed:
    """``embed`` with every tile's notation kept on one line in its description and field
    values (:func:`bot.render.text.unbroken`; what members read, nothing that is parsed)."""
    if embed.description:
        embed.description = unbroken(embed.description)
    for i, shown in enumerate(embed.fields):
        embed.set_field_at(
            i, name=shown.name, value=unbroken(shown.value or ""), inline=bool(shown.inline)
        )
    return embed


def field_text(text: str, limit: int = 1024) -> str:
    """Text cut to fit an embed field (1024 characters), at a line end when it can be."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 2]
    if "\n" in cut:
        cut = cut[: cut.rindex("\n")]
    return cut + "\n…"


def seat_labels(table: Table) -> list[SeatLabel]:
    """The seats as the text renderer writes them."""
    return [SeatLabel(s.name, s.is_ai) for s in table.seats]


def add_fields(embed: discord.Embed, fields: list[Field] | tuple[Field, ...]) -> None:
    """Add a game's fields to an embed, each value cut to fit (:func:`field_text`)."""
    for shown in fields:
        embed.add_field(name=shown.name, value=field_text(shown.value), inline=shown.inline)


def lobby_rules(table: Table) -> Rules | None:
    """The rules the lobby would start with, given who sits now (None if it cannot start)."""
    if table.rules is not None:
        return table.rules
    try:
        extra: dict[str, Any] = (
            {"settlement": table.settlement, "settle_rate": table.settle_rate}
            if table.by_difference
            else {}
        )
        players = max(2, len(table.seats))
        return make_rules(
            table.game, players, table.rule_set, table.sets, **table.variants, **extra
        )
    except EngineError:
        return None


def stakes_text(table: Table, locale: str = "en") -> str:
    """What a game is played for, after the rules summary: the ante and pot, or the rate."""
    if table.by_difference:
        return t(
            locale,
            " · settled at {chips} per point",
            chips=count_text(locale, table.settle_rate, "chip"),
        )
    # Every seat antes (members from their balance, computer seats from the house); the pot
    # also holds chips carried over from a drawn game.
    return t(locale, " · ante {ante} · pot {pot}", ante=f"{table.ante:,}", pot=f"{table.pot:,}")


def aborted_text(table: Table, locale: str = "en") -> str:
    """What an aborted game's message says about the chips."""
    if table.by_difference:
        return t(locale, "This game was ended before it finished: nobody pays.")
    return t(locale, "This game was ended before it finished: every ante was refunded.")


def time_runs_out(deadline: float, locale: str = "en") -> str:
    """`` — time runs out in 2 minutes``: a Discord relative timestamp, which every member's
    client keeps current and words in his own language (a fixed "2 min left" would go stale
    while the notice sits in his DMs)."""
    return t(locale, " — time runs out {when}", when=f"<t:{int(deadline)}:R>")
