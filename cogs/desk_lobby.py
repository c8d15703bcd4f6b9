"""The desk's lobby: open a table, sit down and stand up, add computer players, start, cancel,
call a rematch, post the table again, explain the rules; lobbies nobody started close.

:class:`LobbyDesk` is one part of :class:`cogs.desk.Desk` (see :mod:`cogs.desk`).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Mapping, Sequence
from typing import Any

import discord
from discord import app_commands

from bot.ai.base import LEVEL_WORDS
from bot.ai.family import ai_of
from bot.ai.levels import all_levels, playable_levels
from bot.engine import EngineError
from bot.engine.family import engine_of
from bot.games import default_game, find
from bot.limits import quote_input
from bot.locale import N_, Message, t
from bot.locale.levels import LEVEL_NAMES, LevelName, level_name
from bot.render.family import render_of
from bot.render.text import localize, unbroken
from bot.services.errors import UserError
from bot.services.ratings import LevelSuggestion
from bot.services.tables import Table
from cogs.common import locale_of, public_locale_of, report_incident
from cogs.desk_base import DeskBase, acknowledged_if_slow, is_click
from cogs.presenter import COLOUR, jump_url
from cogs.ui import ai_level_view

__all__ = ["AI_NAME", "LobbyDesk", "ai_levels", "level_choices"]

log = logging.getLogger("cogs.desk")


def ai_levels() -> list[str]:
    """The computer levels that exist now (every game's, by name)."""
    return all_levels()


def level_choices(levels: Sequence[str]) -> list[app_commands.Choice[str]]:
    """The choices of a ``level`` option: each level's name and what it means (``Expert —
    strong: also counts …``, ≤ 100 characters, translated by the command translator); the
    value is the level's code."""
    return [
        app_commands.Choice(
            name=(
                f"{LEVEL_NAMES.get(level, level)} — {LEVEL_WORDS[level]}"
                if level in LEVEL_WORDS
                else LEVEL_NAMES.get(level, level)
            )[:100],
            value=level,
        )
        for level in levels
    ]


#: A computer seat's name (``{number}``: 1, 2 … at the table; ``{level}``: its level's name).
AI_NAME = N_("AI {number} ({level})")


def _suggested(suggestion: LevelSuggestion) -> Message:
    """Why a level was suggested: "Suggested for your rating 1,240: Club." """
    if suggestion.newcomer:
        return Message(
            "Suggested for a first game (rating {rating}): {level}.",
            rating=f"{suggestion.rating:,}",
            level=LevelName(suggestion.level),
        )
    return Message(
        "Suggested for your rating {rating}: {level}.",
        rating=f"{suggestion.rating:,}",
        level=LevelName(suggestion.level),
    )


class LobbyDesk(DeskBase):
    """The lobby's handlers (slash commands and the lobby message's buttons)."""

    async def new_table(
        self,
        interaction: discord.Interaction[Any],
        *,
        game: str,
        rule_set: str | None,
        ante: int | None,
        seats: int | None,
        sets: int | None,
        timer: int | None,
        thread: bool,
        settlement: str | None = None,
        settle_rate: int | None = None,
        variants: Mapping[str, str] | None = None,
        rated: bool = True,
    ) -> None:
        """``/table new``: open a lobby here, or in a new thread of this channel (``rated``
        False: an unrated table, where hints are allowed against the computer)."""
        channel = interaction.channel
        if interaction.guild_id is None or channel is None or interaction.channel_id is None:
            raise UserError("Tables are opened in a server channel.")
        existing = await self.tables.lookup(interaction.channel_id)
        if existing is not None and existing.status.is_open and not thread:
            raise UserError(
                "There is already a table in this channel: {link}. "
                "Finish or cancel it first, or open one in a thread (`thread: True`).",
                link=jump_url(existing),
            )
        user = interaction.user
        if ante is None or timer is None:
            # The server's own defaults (set with /kapadmin config) fill what the host left out.
            defaults = await self.bot.services.guild_settings.table_defaults(
                interaction.guild_id, self.tables.defaults
            )
            ante = defaults.ante if ante is None else ante
            timer = defaults.turn_seconds if timer is None else timer
        options: dict[str, Any] = {
            "guild_id": interaction.guild_id,
            "host_id": user.id,
            "host_name": user.display_name,
            "game": game,
            "rule_set": rule_set,
            "ante": ante,
            "seats": seats,
            "sets": sets,
            "turn_seconds": timer,
            "settlement": settlement,
            "settle_rate": settle_rate,
            "variants": variants,
            "rated": rated,
        }
        if interaction.guild_id is not None:
            await self.presenter.refresh_locale(interaction.guild_id)
        if not thread:
            table = await self.tables.open_table(channel_id=interaction.channel_id, **options)
            response = await interaction.response.send_message(
                embed=self.presenter.lobby_embed(table), view=self.presenter.table_view(table)
            )
            message_id = response.message_id
            if message_id is None:  # pragma: no cover - Discord always returns it
                message_id = (await interaction.original_response()).id
            await self.tables.set_message(table, message_id)
            await self.presenter.mark_edited(table)
            return
        if not isinstance(channel, discord.TextChannel):
            raise UserError("A table thread can only be opened from a text channel.")
        # Settings that cannot make a game are refused privately, before a thread exists.
        self.tables.check_options(
            game=game,
            rule_set=rule_set,
            ante=ante,
            seats=seats,
            sets=sets,
            turn_seconds=timer,
            settlement=settlement,
            settle_rate=settle_rate,
            variants=variants,
        )
        # Creating the thread and posting take a few calls: acknowledge first.
        await interaction.response.defer(thinking=True)
        loc = await public_locale_of(interaction)
        thread_name = (
            f"{game.replace('-', ' ').title()} table"
            if loc == "en"
            else t(loc, "{game} table", game=t(loc, find(game).title))
        )
        made = await channel.create_thread(
            name=thread_name,
            type=discord.ChannelType.public_thread,
            auto_archive_duration=1440,
        )
        try:
            table = await self.tables.open_table(channel_id=made.id, **options)
        except UserError:
            await made.delete()
            raise
        message = await made.send(
            embed=self.presenter.lobby_embed(table), view=self.presenter.table_view(table)
        )
        await self.tables.set_message(table, message.id)
        await self.presenter.mark_edited(table)
        await interaction.followup.send(
            t(
                self.presenter.public_locale(table),
                "{member} opened a table in {thread}: join it there.",
                member=user.mention,
                thread=made.mention,
            )
        )

    async def join(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """Join or the "Join" button."""
        user = interaction.user
        await self.tables.join(
            table.channel_id, user.id, user.display_name, interaction=interaction.id
        )
        await self._table_changed(interaction, table, Message("You joined the table."))

    async def leave(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """Leave or the "Leave" button."""
        await self.tables.leave(table.channel_id, interaction.user.id, interaction=interaction.id)
        await self._table_changed(interaction, table, Message("You left the table."))

    async def ask_ai_level(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """The "Add AI" button: the host picks a level (added at once if there is only one)."""
        if interaction.user.id != table.host_id:
            raise UserError("Only the host can add a computer player.")
        if len(table.seats) >= table.max_seats:
            # Say so before asking for a level (a lobby message drawn before it filled).
            raise UserError("The table is full ({max_seats} seats).", max_seats=table.max_seats)
        levels = list(ai_of(table.game).levels(table.game))
        if len(levels) <= 1:
            await self.add_ai(interaction, table, None)
            return
        loc = locale_of(interaction)
        suggestion = await self._suggestion(interaction, table)
        question = t(loc, "Which level should the computer play?")
        await interaction.response.send_message(
            f"{question}\n{localize(_suggested(suggestion), loc)}",
            view=ai_level_view(table.id, levels, suggestion.level, loc),
            ephemeral=True,
        )

    async def _suggestion(
        self, interaction: discord.Interaction[Any], table: Table
    ) -> LevelSuggestion:
        """The level nearest the host's rating for the table's game in this server."""
        guild_id = interaction.guild_id or 0
        ratings = self.bot.services.ratings
        return await ratings.suggest_level(guild_id, interaction.user.id, table.game)

    async def add_ai(
        self, interaction: discord.Interaction[Any], table: Table, level: str | None
    ) -> None:
        """``/table addbot`` or the level chosen after "Add AI"; without a level, the one
        suggested for the host's rating (and the answer says so)."""
        suggestion = None if level else await self._suggestion(interaction, table)
        if suggestion is not None:
            level = suggestion.level
        assert level is not None
        levels = list(ai_of(table.game).levels(table.game))
        # A level no longer offered still plays: a select drawn before the ladder names one.
        if level not in playable_levels(table.game):
            raise UserError(
                "Unknown computer level {level}: choose {choices}.",
                level=quote_input(level),
                choices=", ".join(levels),
            )
        # The seat's name is public (table message, events, records): the server's language.
        public = await public_locale_of(interaction)
        await self.tables.add_ai(
            table.channel_id,
            interaction.user.id,
            level,
            name=t(public, AI_NAME),
            level_name=level_name(public, level),
            interaction=interaction.id,
        )
        text: Message = Message("Added a computer player ({level}).", level=LevelName(level))
        if suggestion is not None:
            text = Message("{added} {why}", added=text, why=_suggested(suggestion))
        message = interaction.message
        if is_click(interaction) and message is not None and message.flags.ephemeral:
            # The level select sits on the host's private message: replace it by the answer.
            await interaction.response.edit_message(
                content=localize(text, locale_of(interaction)), view=None
            )
            await self.presenter.touch(table, now=True)
        else:
            await self._table_changed(interaction, table, text)

    async def start(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """``/table start`` or "Start": antes into escrow, the deal, the table message, DMs."""
        outcome = await acknowledged_if_slow(
            interaction,
            self.tables.start(table.channel_id, interaction.user.id, interaction=interaction.id),
            ephemeral=False,
        )
        answered = interaction.response.is_done()
        if self._shows_table(interaction, table):
            edit = await self.presenter.table_message(table, edit=True)
            if answered:
                await interaction.edit_original_response(**edit)
            else:
                await interaction.response.edit_message(**edit)
            await self.presenter.mark_edited(table)
        else:
            opening = localize(
                outcome.lines[0] if outcome.lines else Message("The game has started."),
                self.presenter.public_locale(table),
            )
            none = discord.AllowedMentions.none()
            if answered:
                await interaction.followup.send(opening, allowed_mentions=none)
            else:
                await interaction.response.send_message(opening, allowed_mentions=none)
            await self.presenter.touch(table, now=True)
        await self.present(outcome, table_shown=True)

    async def cancel(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """``/table cancel`` or "Cancel" (the host closes his lobby)."""
        await self.tables.cancel(table.channel_id, interaction.user.id)
        loc = self.presenter.public_locale(table)
        embed = discord.Embed(
            title=t(loc, "Table cancelled"),
            description=t(loc, "The host closed this table."),
            colour=COLOUR,
        )
        if self._shows_table(interaction, table):
            await interaction.response.edit_message(embed=embed, view=None)
        else:
            await interaction.response.send_message(
                t(locale_of(interaction), "The table is cancelled."), ephemeral=True
            )
            if table.message_id is not None:
                channel = self.bot.get_partial_messageable(table.channel_id)
                try:
                    await channel.get_partial_message(table.message_id).edit(embed=embed, view=None)
                except discord.HTTPException as exc:
                    log.warning("table %s: could not close its message: %s", table.id, exc)
        self.presenter.forget(table.id)

    async def rematch(self, interaction: discord.Interaction[Any], table_id: str | None) -> None:
        """The "Rematch" button: a new lobby with the same seats (also for a game that ended
        before a restart: the button names its game)."""
        if interaction.channel_id is None:
            raise UserError("There is no table here.")
        current = await self.tables.lookup(interaction.channel_id)
        if current is not None and current.status.is_open:
            raise UserError("A table is already open here: {current}.", current=jump_url(current))
        table = await self.tables.rematch(
            interaction.channel_id, interaction.user.id, table_id=table_id
        )
        response = await interaction.response.send_message(
            t(
                self.presenter.public_locale(table),
                "{member} calls a rematch: same seats, same stakes.",
                member=interaction.user.mention,
            ),
            embed=self.presenter.lobby_embed(table),
            view=self.presenter.table_view(table),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        if response.message_id is not None:
            await self.tables.set_message(table, response.message_id)
        await self.presenter.mark_edited(table)

    async def show(self, interaction: discord.Interaction[Any]) -> None:
        """``/table show``: post the table message again, at the bottom of the channel."""
        table = await self.here(interaction)
        old = table.message_id
        response = await interaction.response.send_message(
            **await self.presenter.table_message(table, edit=False)
        )
        if response.message_id is None:  # pragma: no cover - Discord always returns it
            return
        await self.tables.set_message(table, response.message_id)
        await self.presenter.mark_edited(table)
        if old is not None and old != response.message_id:
            # The old copy would go stale: point it at the new one instead.
            channel = self.bot.get_partial_messageable(table.channel_id)
            with contextlib.suppress(discord.HTTPException):  # deleted already: nothing to do
                await channel.get_partial_message(old).edit(
                    content=t(
                        self.presenter.public_locale(table),
                        "This table's message moved: {link}",
                        link=jump_url(table),
                    ),
                    embed=None,
                    view=None,
                )

    async def rules(
        self, interaction: discord.Interaction[Any], table: Table | None, game: str | None
    ) -> None:
        """``/table rules`` or "Rules": the rules in force here (or a game's defaults)."""
        loc = locale_of(interaction)
        if table is not None and game is None:
            embed = self.presenter.rules_embed(table, loc)
        else:
            try:
                chosen = game or default_game()
                rules = engine_of(chosen).make_rules(chosen)
            except (ValueError, EngineError) as exc:
                raise UserError("Unknown game: {exc}.", exc=exc) from None
            embed = discord.Embed(title=t(loc, "Rules (defaults)"), colour=COLOUR)
            embed.description = unbroken(render_of(chosen).rules_text(rules, loc)[:4096])
        await interaction.response.send_message(embed=embed, ephemeral=True)

    async def close_expired_lobbies(self) -> None:
        """Lobbies nobody started in the server's time close themselves."""
        try:
            closed = await self.tables.expire_lobbies()
        except Exception as exc:
            await report_incident(None, exc, "closing lobbies", bot=self.bot)
            return
        for table in closed:
            loc = self.presenter.public_locale(table)
            embed = discord.Embed(
                title=t(loc, "Table closed"),
                description=t(
                    loc,
                    "Nobody started this table in time, so it closed by itself. "
                    "Open a new one with `/table new`.",
                ),
                colour=COLOUR,
            )
            if table.message_id is not None:
                channel = self.bot.get_partial_messageable(table.channel_id)
                try:
                    await channel.get_partial_message(table.message_id).edit(embed=embed, view=None)
                except discord.HTTPException as exc:
                    log.warning("table %s: could not close its message: %s", table.id, exc)
            self.presenter.forget(table.id)
