"""The Discord side of the tournament service (its
:class:`~bot.services.tournaments.TournamentHost`): match threads, table messages, posts and
mentions in the event's channel, the standings and bracket pictures (the sign-up message, which
is the event's board, is :mod:`cogs.tournament_board`'s).

:class:`TournamentHostMixin` is a part of the ``/tournament`` cog
(:class:`cogs.tournaments.Tournaments`).
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Sequence

import discord

from bot.app import KapBot
from bot.locale import Message, normalize
from bot.render.alt_text import bracket_description, standings_description
from bot.render.tournament_art import render_event_bracket, render_event_standings
from bot.services.errors import UserError
from bot.services.tables import Outcome, Table
from bot.services.tournaments import TournamentRecord, TournamentService
from cogs.common import pinging
from cogs.desk import Desk
from cogs.tournament_signup import TEXT, TournamentButton

__all__ = ["MESSAGE_LIMIT", "TournamentHostMixin"]

log = logging.getLogger("cogs.tournaments")

MESSAGE_LIMIT = 2000


class TournamentHostMixin:
    """Threads, table messages and posts for the tournament service."""

    bot: KapBot
    desk: Desk
    service: TournamentService

    async def open_thread(self, record: TournamentRecord, match_id: str, title: str) -> int:
        """A public thread of the event's channel for one match."""
        channel = self.bot.get_channel(record.channel_id)
        if channel is None:
            channel = await self.bot.fetch_channel(record.channel_id)
        if not isinstance(channel, discord.TextChannel):
            raise UserError(TEXT["text_channel"])
        if isinstance(title, Message):
            title = title.localized(await self.public_locale(record.guild_id))
        thread = await channel.create_thread(
            name=title[:100], type=discord.ChannelType.public_thread, auto_archive_duration=1440
        )
        return thread.id

    async def show_table(self, outcome: Outcome) -> None:
        """Post the table message of a game just started and present what happened."""
        await self.desk.presenter.touch(outcome.table, now=True)
        await self.desk.present(outcome, table_shown=True)

    async def public_locale(self, guild_id: int) -> str:
        """The language of the event's public messages: the server's setting
        (``/kapadmin config language``), else the server's own Discord locale."""
        settings = await self.bot.services.server.play_settings(guild_id)
        if settings.language:
            return settings.language
        guild = self.bot.get_guild(guild_id)
        return normalize(None if guild is None else guild.preferred_locale)

    async def table_stopped(self, table: Table) -> None:
        """Close the message and DMs of a game the event ended."""
        table.recent.append(Message(TEXT["stopped"]))
        await self.desk.presenter.touch(table, now=True)
        await self.desk.presenter.update_dms(table)
        self.desk.presenter.forget(table.id)

    async def post(self, record: TournamentRecord, text: str, *, pictures: bool = False) -> None:
        """Post in the event's channel, with the standings (and bracket) pictures."""
        channel = self.bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
        locale = await self.public_locale(record.guild_id)
        if isinstance(text, Message):
            text = text.localized(locale)
        files = await self._pictures(record, locale) if pictures else []
        try:
            await channel.send(
                text[:MESSAGE_LIMIT], files=files, allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.HTTPException as exc:
            log.warning("tournament %s: could not post: %s", record.id, exc)

    async def say(
        self,
        channel_id: int,
        guild_id: int,
        text: str,
        mentions: Sequence[int],
        *,
        ready: int | None = None,
    ) -> None:
        """Post in a match thread, pinging its players (which adds them to the thread);
        ``ready``: the event whose Ready button goes under the post (the no-show window)."""
        channel = self.bot.get_partial_messageable(channel_id, guild_id=guild_id)
        locale = await self.public_locale(guild_id)
        if isinstance(text, Message):
            text = text.localized(locale)
        if ready is None:
            await channel.send(text[:MESSAGE_LIMIT], allowed_mentions=pinging(mentions))
            return
        buttons = discord.ui.View(timeout=None)
        buttons.add_item(TournamentButton(ready, "ready", locale))
        await channel.send(text[:MESSAGE_LIMIT], allowed_mentions=pinging(mentions), view=buttons)

    async def tell(self, record: TournamentRecord, user_id: int, text: str) -> None:
        """DM a member about the event, in the server's language (his own is unknown outside
        an interaction); closed DMs are logged and otherwise fine."""
        if isinstance(text, Message):
            text = text.localized(await self.public_locale(record.guild_id))
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(text[:MESSAGE_LIMIT])
        except discord.HTTPException as exc:
            log.info("tournament %s: could not DM %s: %s", record.id, user_id, exc)

    def _organiser_name(self, record: TournamentRecord) -> str | None:
        """The organiser's name: stored at the event's creation, else his member's (cached)."""
        stored = record.options.get("organiser_name")
        if stored:
            return str(stored)
        guild = self.bot.get_guild(record.guild_id)
        member = None if guild is None else guild.get_member(record.organiser_id)
        return None if member is None else member.display_name

    async def _pictures(self, record: TournamentRecord, locale: str = "en") -> list[discord.File]:
        view = await self.service.view(record.id)
        if view.event is None:
            return []
        files = []
        standings = await asyncio.to_thread(
            render_event_standings, view.event, record.name, locale=locale
        )
        alt = standings_description(view.event, record.name, locale)
        files.append(discord.File(io.BytesIO(standings), filename="standings.png", description=alt))
        bracket = await asyncio.to_thread(
            render_event_bracket, view.event, record.name, locale=locale
        )
        if bracket is not None:
            words = bracket_description(view.event, record.name, locale)
            files.append(
                discord.File(io.BytesIO(bracket), filename="bracket.png", description=words)
            )
        return files
