"""The schedule of an event (issue 23): ``/tournament schedule`` (the reminder role, a break
between rounds or a start time for each round), the "Remind me" button's toggle, ``starts:``
read in the server's time zone, and the reminders' posts and DMs.

:class:`TournamentScheduleMixin` is a part of the ``/tournament`` cog
(:class:`cogs.tournaments.Tournaments`); every decision is the service's.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.locale import Message, t
from bot.services.tournaments import TournamentRecord
from cogs.common import guarded, locale_of
from cogs.tournament_common import (
    EVENT_HELP,
    TournamentCommands,
    guild_of,
    manager_of,
    open_events,
)
from cogs.tournament_host import MESSAGE_LIMIT, TournamentHostMixin
from cogs.tournament_signup import TEXT

__all__ = ["TournamentScheduleMixin"]

log = logging.getLogger("cogs.tournaments")

NO_ROUND_TIMES = ("none", "-", "0")
"""What ``round_times:`` takes to clear the rounds' start times."""


class TournamentScheduleMixin(TournamentCommands, TournamentHostMixin, commands.Cog):
    """``/tournament schedule`` and the reminders. A cog only for its commands' sake:
    :class:`~cogs.tournaments.Tournaments` gathers them into its group."""

    @app_commands.command(
        name="schedule", description="Reminder role and the rounds' schedule (organiser)"
    )
    @app_commands.describe(
        role="Role pinged by the reminders (sign-up, 1 hour and 10 minutes before, check-in)",
        no_role="Ping no role any more",
        break_minutes="Minutes of break between rounds (0 for none)",
        round_times="A start time for each round, e.g. 19:30, 20:30, 21:30 (none to clear)",
        event=EVENT_HELP,
    )
    @app_commands.autocomplete(event=open_events)
    async def schedule(
        self,
        interaction: discord.Interaction[Any],
        role: discord.Role | None = None,
        no_role: bool = False,
        break_minutes: app_commands.Range[int, 0, 1440] | None = None,
        round_times: app_commands.Range[str, 1, 400] | None = None,
        event: int | None = None,
    ) -> None:
        """Set the event's reminder role and its rounds' schedule; with no option, show it."""
        async with guarded(interaction, "/tournament schedule"):
            view = await self._for_organiser(interaction, event)
            times: list[datetime] | None = None
            if round_times is not None:
                if round_times.strip().lower() in NO_ROUND_TIMES:
                    times = []
                else:
                    play = await self.bot.services.server.play_settings(guild_of(interaction))
                    times = self.service.read_round_times(round_times, play.time_zone)
            view = await self.service.set_schedule(
                view.id,
                interaction.user.id,
                role_id=None if role is None else role.id,
                clear_role=no_role,
                break_minutes=break_minutes,
                round_times=times,
                manager=manager_of(interaction),
            )
            locale = locale_of(interaction)
            await interaction.response.send_message(
                schedule_text(view.record, locale)[:MESSAGE_LIMIT], ephemeral=True
            )

    async def toggle_reminders(
        self, interaction: discord.Interaction[Any], tournament_id: int
    ) -> None:
        """The sign-up message's "Remind me": DM reminders on or off for this member."""
        name, on = await self.service.toggle_reminders(tournament_id, interaction.user.id)
        said = TEXT["remind_on"] if on else TEXT["remind_off"]
        await interaction.response.send_message(
            t(locale_of(interaction), said, name=name), ephemeral=True
        )

    async def announce(
        self, record: TournamentRecord, text: str, role_id: int | None, members: Sequence[int]
    ) -> None:
        """Post a reminder in the event's channel pinging ``role_id`` only (never anyone an
        event's name or a member's nickname mentions), and DM it to ``members``; a member
        whose DMs are closed is skipped (logged)."""
        locale = await self.public_locale(record.guild_id)
        said = text.localized(locale) if isinstance(text, Message) else text
        channel = self.bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
        if role_id is None:
            content, allowed = said, discord.AllowedMentions.none()
        else:
            content = f"<@&{role_id}> {said}"
            allowed = discord.AllowedMentions(
                everyone=False, users=False, roles=[discord.Object(role_id)], replied_user=False
            )
        try:
            await channel.send(content[:MESSAGE_LIMIT], allowed_mentions=allowed)
        except discord.HTTPException as exc:
            log.warning("tournament %s: could not post a reminder: %s", record.id, exc)
        for user_id in members:
            try:
                user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
                await user.send(
                    said[:MESSAGE_LIMIT], allowed_mentions=discord.AllowedMentions.none()
                )
            except discord.HTTPException as exc:  # DMs closed (Forbidden), or gone
                log.info("tournament %s: no reminder DM to %s: %s", record.id, user_id, exc)


def schedule_text(record: TournamentRecord, locale: str) -> str:
    """What ``/tournament schedule`` answers: the event's reminder role and rounds' schedule."""
    options = record.options
    role = options.get("reminder_role")
    lines = [
        t(locale, TEXT["schedule_head"], name=record.name),
        t(
            locale,
            TEXT["schedule_role"],
            role=f"<@&{role}>" if role else t(locale, TEXT["schedule_none"]),
        ),
    ]
    starts = options.get("starts_at")
    if starts:
        at = int(datetime.fromisoformat(starts).timestamp())
        lines.append(t(locale, TEXT["schedule_start"], when=f"<t:{at}:F>"))
    times = options.get("round_starts") or []
    if times:
        stamps = ", ".join(
            f"{n}: <t:{int(datetime.fromisoformat(at).timestamp())}:t>"
            for n, at in enumerate(times, 1)
        )
        lines.append(t(locale, TEXT["schedule_times"], times=stamps))
    elif options.get("round_break"):
        lines.append(t(locale, TEXT["schedule_break"], n=int(options["round_break"])))
    else:
        lines.append(t(locale, TEXT["schedule_asap"]))
    return "\n".join(lines)
