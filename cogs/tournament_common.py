"""What the parts of the ``/tournament`` cog share: the options' choices and help, the
``event:`` autocomplete, and how a command finds the event it means
(:class:`TournamentCommands`)."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from typing import Any

import discord
from discord import app_commands

from bot.app import KapBot
from bot.games import EVENT_FORMATS, default_game, games
from bot.locale import t
from bot.services.errors import UserError
from bot.services.tournaments import (
    AI_LEVELS,
    FORMATS,
    OPEN_STATUSES,
    TournamentService,
    TournamentView,
)
from bot.tournament.model import MAX_GROUP
from cogs.common import locale_of
from cogs.desk import level_choices
from cogs.tournament_signup import STATUSES, TEXT

__all__ = [
    "DECIDE_CHOICES",
    "DEFAULT_GAME",
    "EVENT_HELP",
    "FORMAT_CHOICES",
    "GAME_CHOICES",
    "GROUPS_HELP",
    "LEVEL_CHOICES",
    "MAX_GROUP",
    "MENTION",
    "OPTION_HELP",
    "PLAYING",
    "READABLE",
    "SIGN_UP",
    "THIRD_PLACE_HELP",
    "TournamentCommands",
    "any_events",
    "guild_of",
    "manager_of",
    "open_events",
]

MENTION = re.compile(r"<@!?(\d{1,20})>")
"""A member's mention in text (``seed``'s order)."""

GAME_CHOICES = [
    app_commands.Choice(name=choice, value=g.name)
    for g in sorted(games(), key=lambda g: EVENT_FORMATS.index(g.event_format))
    if (choice := g.event_choice) is not None
]
"""``game:`` of ``/tournament new``: every game with events, those played in Swiss and
brackets first, then those played in table rounds (each group in the registry's order)."""
FORMAT_CHOICES = [app_commands.Choice(name=f, value=f) for f in FORMATS]
DECIDE_CHOICES = [
    app_commands.Choice(name="Games won (best of N)", value="games"),
    app_commands.Choice(name="Total points over N games (Tsung Shap)", value="points"),
]
LEVEL_CHOICES = level_choices(AI_LEVELS)
DEFAULT_GAME = default_game()
OPTION_HELP: dict[str, str] = {
    "game": "Which game",
    "format": "Swiss (default for two players), elimination, round robin, table rounds",
    "best_of": "Games per match (odd; default 1)",
    "rounds": "Swiss or table rounds (default: log2 of the players, or 3 table rounds)",
    "buy_in": "Chips each member pays to enter (default 0: free)",
    "prize_split": "Percentages of the pool by place, e.g. 60/30/10 (default 100)",
    "seats": "Most players (default 64)",
    "round_minutes": "Time limit of a round in minutes (default 60)",
    "timer": "Seconds per turn (default 120)",
    "top_cut": "Swiss: the top K play a knockout playoff",
    "table_size": "Table rounds: most seats at a table (default 6)",
    "games_per_table": "Table rounds: games each table plays (default 3)",
    "final_table": "Table rounds: players at the final table (default 6, 0 for none)",
    "decide_by": "Tsung Shap: a match is won by games (default) or by total points",
    "late_until": "Swiss: members may still join after the start until this round (0: none)",
    "arena_minutes": "Arena: minutes it pairs finishers (default 60)",
}
"""The help of the event's options that ``/tournament new`` and ``edit`` share (one text each,
so that the two commands say the same)."""
#: The ``event:`` option of every command that takes one.
EVENT_HELP = "The event's number (default: the one you are in, or the only one it can be)"
# Formats (issue 23): the third-place match and the group stage, in ``new`` and ``edit``.
THIRD_PLACE_HELP = "Single elimination or a Swiss top cut: the semi-finals' losers play for third"
GROUPS_HELP = "Elimination: round-robin groups of this many first, the top 2 go on (0: none)"
SIGN_UP = ("registration",)
PLAYING = ("running", "paused")
#: Events a member may read about (``show``, ``rules``): open ones, and those that ended.
READABLE = (*OPEN_STATUSES, "finished", "cancelled")


def manager_of(interaction: discord.Interaction[Any]) -> bool:
    """Whether the member may manage the server (an organiser of every event there)."""
    return bool(interaction.permissions.manage_guild)


def guild_of(interaction: discord.Interaction[Any]) -> int:
    """The server of a command (refused in DMs)."""
    if interaction.guild_id is None:
        raise UserError(TEXT["guild_only"])
    return interaction.guild_id


async def _event_choices(
    interaction: discord.Interaction[Any], typed: str, statuses: Sequence[str]
) -> list[app_commands.Choice[int]]:
    cog = interaction.client.get_cog("Tournaments") if interaction.client else None
    service = getattr(cog, "service", None)
    if not isinstance(service, TournamentService) or interaction.guild_id is None:
        return []
    locale = locale_of(interaction)
    records = await service.choices(interaction.guild_id, typed, statuses=statuses)
    choices = []
    for record in records:
        status = STATUSES.get(record.status)
        said = t(locale, status) if status else record.status
        name = f"#{record.id} {record.name} · {said}"
        choices.append(app_commands.Choice(name=name[:100], value=record.id))
    return choices


async def open_events(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[int]]:
    """The ``event:`` choices of a command that acts on an event: the server's open events."""
    return await _event_choices(interaction, current, OPEN_STATUSES)


async def any_events(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[int]]:
    """The ``event:`` choices of ``show`` and ``rules``: open events and those that ended."""
    return await _event_choices(interaction, current, READABLE)


class TournamentCommands:
    """How a ``/tournament`` command finds the event it means and answers an action."""

    bot: KapBot
    service: TournamentService

    async def starts_at(self, interaction: discord.Interaction[Any], text: str) -> datetime:
        """The start a member typed (``starts:`` of ``new`` and ``edit``; issue 23), read in
        the server's time zone (``/kapadmin config time_zone``)."""
        play = await self.bot.services.server.play_settings(guild_of(interaction))
        return self.service.read_time(text, play.time_zone)

    async def _meant(
        self,
        interaction: discord.Interaction[Any],
        event: int | None,
        statuses: Sequence[str] = OPEN_STATUSES,
        *,
        entered: bool | None = None,
    ) -> TournamentView:
        """The event a member's command means: ``event:``, else the one he is in (see
        :meth:`TournamentService.current`)."""
        return await self.service.current(
            guild_of(interaction),
            event,
            statuses=statuses,
            player=interaction.user.id,
            entered=entered,
        )

    async def _for_organiser(
        self,
        interaction: discord.Interaction[Any],
        event: int | None,
        statuses: Sequence[str] = OPEN_STATUSES,
        *,
        player: int | None = None,
    ) -> TournamentView:
        """The event an organiser's command means: ``event:``, else the one of his events it
        can act on (refused when several could be meant)."""
        manager = manager_of(interaction)
        view = await self.service.current(
            guild_of(interaction),
            event,
            statuses=statuses,
            player=player,
            organiser=interaction.user.id,
            manager=manager,
        )
        self.service.need_organiser(view.record, interaction.user.id, manager)
        return view

    async def _act(
        self,
        interaction: discord.Interaction[Any],
        action: Callable[[], Awaitable[TournamentView]],
        done: str = TEXT["done"],
    ) -> None:
        """Do it, then answer once, privately: ``done`` (with the event's ``name``) or, from
        :func:`guarded`, the refusal. The answer waits while the event carries on (games are
        stopped or opened), so it is deferred first."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = await action()
        await interaction.followup.send(
            t(locale_of(interaction), done, name=view.record.name), ephemeral=True
        )
