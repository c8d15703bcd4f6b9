"""The desk's common ground: the lookups of a table from an interaction, the answer to a lobby
change, showing what a service call changed, and answering within Discord's three seconds.

:class:`DeskBase` is the base of the desk's parts (:mod:`cogs.desk_lobby`, :mod:`cogs.desk_play`)
and of :class:`cogs.desk.Desk`, which puts them together; see :mod:`cogs.desk`.

Answering within Discord's three seconds: a service call that takes longer than
:data:`ACK_AFTER` is acknowledged while it runs (:func:`acknowledged_if_slow`; a quick one is
answered directly, which saves an API call).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord

from bot.app import KapBot
from bot.locale import t
from bot.render.text import localize, private_event_text
from bot.services.errors import UserError
from bot.services.tables import Outcome, Table, TableService
from cogs.common import locale_of
from cogs.presenter import Presenter, jump_url

__all__ = ["ACK_AFTER", "DeskBase", "acknowledged_if_slow", "is_click"]

T = TypeVar("T")

ACK_AFTER = 1.0
"""Seconds a handler may work before it acknowledges the interaction (Discord allows 3)."""


def is_click(interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction is a click (a button or a select), not a slash command."""
    return interaction.type is discord.InteractionType.component


async def acknowledged_if_slow(
    interaction: discord.Interaction[Any], work: Awaitable[T], *, ephemeral: bool
) -> T:
    """Await ``work`` (a service call); if it takes longer than :data:`ACK_AFTER`, acknowledge
    the interaction meanwhile, so a slow turn (many computer seats) never misses Discord's
    three seconds. A quick call is answered directly, which saves an API call."""
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=ACK_AFTER)
    if not done and not interaction.response.is_done():
        if is_click(interaction):
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    return await task


class DeskBase:
    """What every part of the desk uses: the bot, its presenter, the table lookups."""

    bot: KapBot
    presenter: Presenter

    @property
    def tables(self) -> TableService:
        """The table service."""
        return self.bot.services.tables

    async def find(self, table_id: str) -> Table | None:
        """A table by id (a button names it), whichever process opened or last moved it."""
        return await self.tables.by_id(table_id)

    async def here(self, interaction: discord.Interaction[Any]) -> Table:
        """The table of the channel an interaction came from; in the bot's DM, the one running
        table the member is seated at (whichever process holds it)."""
        if interaction.guild_id is None:
            return await self.table_of_player(interaction.user.id)
        if interaction.channel_id is None:
            raise UserError("There is no table here.")
        table = await self.tables.lookup(interaction.channel_id)
        if table is None:
            return self.tables.require(interaction.channel_id)  # its refusal, in words
        return table

    async def table_of_player(self, user_id: int) -> Table:
        """The running table a member plays at (from his DM: where his hand is)."""
        mine = await self.tables.of_player(user_id)
        if not mine:
            raise UserError(
                "You are not playing at any table. Open or join one in a server with `/table new`."
            )
        if len(mine) > 1:
            links = ", ".join(jump_url(t) for t in mine)
            raise UserError(
                "You are playing at {count} tables ({links}): use the command in the "
                "table's channel.",
                count=len(mine),
                links=links,
            )
        return mine[0]

    async def find_here(self, interaction: discord.Interaction[Any]) -> Table | None:
        """Like :meth:`here`, or None (for autocomplete, which cannot explain)."""
        try:
            return await self.here(interaction)
        except UserError:
            return None

    def _shows_table(self, interaction: discord.Interaction[Any], table: Table) -> bool:
        message = interaction.message
        return is_click(interaction) and message is not None and message.id == table.message_id

    async def _table_changed(
        self, interaction: discord.Interaction[Any], table: Table, text: str
    ) -> None:
        """Answer a lobby change: edit the clicked table message, or reply and edit it."""
        if self._shows_table(interaction, table):
            await interaction.response.edit_message(
                embed=self.presenter.table_embed(table), view=self.presenter.table_view(table)
            )
            await self.presenter.mark_edited(table)
        else:
            await interaction.response.send_message(
                localize(text, locale_of(interaction)), ephemeral=True
            )
            await self.presenter.touch(table, now=True)

    async def present(
        self,
        outcome: Outcome,
        *,
        skip_dm: int | None = None,
        table_shown: bool = False,
        active: int | None = None,
        noted: bool = False,
    ) -> None:
        """Show what a service call changed: the table message, the DMs, the end.
        ``active``: the member who acted (not notified of his own next turn); ``noted``: its
        steps are already kept for the players' "since your last turn" (:meth:`act`)."""
        table = outcome.table
        if not noted:
            self.presenter.note_steps(table, outcome.steps)
        names = [s.name for s in table.seats]
        for step in outcome.steps:
            info = table.seats[step.seat]
            if step.by_timeout and info.user_id is not None:
                loc = self.presenter.private_locale(table, info.user_id)
                notes = [
                    t(loc, "⏰ (played for you) {text}", text=text)
                    for event in step.events
                    if (text := private_event_text(event, step.seat, names, loc)) is not None
                ]
                self.presenter.add_notes(table, info.user_id, notes)
        if not table_shown:
            await self.presenter.touch(table, now=outcome.finished)
        await self.presenter.update_dms(table, skip=skip_dm, active=active)
        if outcome.finished:
            await self.presenter.announce_end(table, outcome.settlement)
            await self.tables.notify_ended(outcome)
