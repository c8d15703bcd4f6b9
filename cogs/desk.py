"""The table desk: every table and play handler, shared by slash commands and buttons.

A slash command and the button that does the same thing call the same method here, so they
behave the same. Each handler calls the table service (which commits the change before it
returns), answers the interaction, then lets the :class:`~cogs.presenter.Presenter` bring the
table message and the DMs up to date.

Answering within Discord's three seconds: a service call that takes longer than
:data:`ACK_AFTER` is acknowledged while it runs (:func:`acknowledged_if_slow`; a quick one is
answered directly, which saves an API call); a short text reply goes out before anything slow;
a click that must show a new hand picture is deferred first (the picture is drawn in a worker
thread) and the clicked message is then edited in place. Player mistakes raise
:class:`~bot.services.errors.UserError`, which :func:`cogs.common.guarded` turns into an
ephemeral explanation.

The desk is one object made of parts, each a module of its own: the common ground
(:mod:`cogs.desk_base`: lookups, showing what changed, the three seconds), the lobby
(:mod:`cogs.desk_lobby`), play (:mod:`cogs.desk_play`), and here the routing of clicks and the
scheduler's passes. This module keeps the names it always had.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Sequence
from typing import Any

import discord

from bot.app import KapBot
from bot.locale import Message
from bot.services.errors import UserError
from bot.services.tables import QUARANTINE_NOTICE, Outcome, Table, TableStatus
from cogs.common import guarded, report_incident
from cogs.desk_base import ACK_AFTER, acknowledged_if_slow
from cogs.desk_lobby import AI_NAME, LobbyDesk, ai_levels, level_choices
from cogs.desk_play import RESIGN_SECONDS, PlayDesk
from cogs.presenter import Presenter
from cogs.ui import CustomId, notation_of, register_handler

__all__ = [
    "ACK_AFTER",
    "AI_NAME",
    "RESIGN_SECONDS",
    "Desk",
    "acknowledged_if_slow",
    "ai_levels",
    "desk_for",
    "level_choices",
]

log = logging.getLogger(__name__)

PRESENT_CONCURRENCY = 16
"""How many tables' timeouts the scheduler presents at once."""

_desks: weakref.WeakKeyDictionary[KapBot, Desk] = weakref.WeakKeyDictionary()


def desk_for(bot: KapBot) -> Desk:
    """The desk of a bot (one per bot instance: a restarted bot gets a fresh one)."""
    desk = _desks.get(bot)
    if desk is None:
        desk = Desk(bot)
        _desks[bot] = desk
    return desk


class Desk(LobbyDesk, PlayDesk):
    """Handlers for tables and play; it owns the bot's :class:`Presenter`. Its parts: the
    lobby (:class:`~cogs.desk_lobby.LobbyDesk`), play (:class:`~cogs.desk_play.PlayDesk`), and
    here the routing of clicks and the scheduler's passes."""

    def __init__(self, bot: KapBot) -> None:
        """Serve ``bot``; clicks arriving at it are routed here."""
        self.bot = bot
        self.presenter = Presenter(bot)
        self.restored: list[Table] = []
        self._announced = False
        register_handler(bot, self)

    async def on_component(
        self, interaction: discord.Interaction[Any], cid: CustomId, values: Sequence[str]
    ) -> None:
        """Route a click (see :mod:`cogs.ui` for the custom id scheme)."""
        async with guarded(interaction, f"component {cid}"):
            if cid.verb == "rematch":
                await self.rematch(interaction, cid.table_id)
                return
            if cid.verb == "keep":
                await self.keep_playing(interaction)
                return
            if cid.verb == "resign":
                await self.resign(interaction, await self.find(cid.table_id), cid.arg)
                return
            table = await self.find(cid.table_id)
            message = interaction.message
            private = interaction.guild_id is None or (
                message is not None and message.flags.ephemeral
            )
            over = table is None or (table.state is not None and not table.running)
            if cid.version is not None and private and over:
                # A hand view's button after its game ended (a reply too old for the end to
                # edit, or a table since replaced): take its buttons off, and say why.
                await interaction.response.edit_message(view=None)
            if table is None:
                raise UserError("This table is closed.")
            await self._route(interaction, table, cid, values)

    async def _route(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        cid: CustomId,
        values: Sequence[str],
    ) -> None:
        verb = cid.verb
        if verb == "join":
            await self.join(interaction, table)
        elif verb == "leave":
            await self.leave(interaction, table)
        elif verb == "addai":
            await self.ask_ai_level(interaction, table)
        elif verb == "choose-ai":
            await self.add_ai(interaction, table, values[0] if values else None)
        elif verb == "start":
            await self.start(interaction, table)
        elif verb == "cancel":
            await self.cancel(interaction, table)
        elif verb == "hand":
            await self.show_hand(interaction, table)
        elif verb == "rules":
            await self.rules(interaction, table, None)
        elif verb == "hint":
            await self.hint(interaction, table)
        else:
            await self.act(interaction, table, self._action_of(cid, values), version=cid.version)

    @staticmethod
    def _action_of(cid: CustomId, values: Sequence[str]) -> str:
        """The move a click means, in the notation of its table's game (:func:`notation_of`)."""
        notation = None if cid.version is None else notation_of(cid.verb, cid.arg, values)
        if notation is None:
            raise UserError("That button is not valid any more.")
        return notation

    # ------------------------------------------------------------------------- background

    async def tick(self) -> None:
        """The scheduler: expired turn timers (the computer plays), then due table edits."""
        if not self.bot.is_ready():
            return
        try:
            outcomes = await self.tables.expire_due()
        except Exception as exc:
            await report_incident(None, exc, "turn timers", bot=self.bot)
            outcomes = []
        limit = asyncio.Semaphore(PRESENT_CONCURRENCY)

        async def show(outcome: Outcome) -> None:
            # Each table on its own task: one failing channel never delays another's turn.
            async with limit:
                try:
                    if outcome.quarantined:
                        await self.presenter.say(outcome.table, Message(QUARANTINE_NOTICE))
                        self.presenter.forget(outcome.table.id)
                        return
                    # A timeout is told in the table message's recent lines, not a new message.
                    await self.present(outcome)
                except Exception as exc:
                    await report_incident(
                        None, exc, f"timeout at table {outcome.table.id}", bot=self.bot
                    )

        await asyncio.gather(*(show(o) for o in outcomes))
        await self.close_expired_lobbies()
        tables = self.tables.tables()
        await self.presenter.flush_due(tables)
        self.presenter.prune({t.id for t in tables})

    async def announce_restored(self) -> None:
        """After a restart: mark each restored table message, let computer seats play, and send
        the player to act a fresh DM (the others get one when their view changes)."""
        if self._announced:
            return
        self._announced = True
        for quarantined in self.tables.quarantined:
            try:
                channel = self.bot.get_partial_messageable(
                    quarantined.channel_id, guild_id=quarantined.guild_id
                )
                await channel.send(QUARANTINE_NOTICE)
            except discord.HTTPException as exc:
                log.warning(
                    "game %s: could not post its quarantine notice: %s", quarantined.game_id, exc
                )
        for table in self.restored:
            try:
                await self._announce_one(table)
            except Exception as exc:
                await report_incident(None, exc, f"restoring table {table.id}", bot=self.bot)

    async def _announce_one(self, table: Table) -> None:
        if table.status is TableStatus.LOBBY:
            await self.presenter.touch(table, now=True)
            return
        await self.presenter.restore_dms(table)
        outcome = await self.tables.resume_ai(table)
        # Redrawn even at a version drawn before the stop (the stop draws what is due): the
        # message says the table was restored.
        await self.presenter.touch(table, now=True, redraw=True)
        await self.presenter.update_dms(table)
        if outcome.finished or (table.state is not None and table.state.result is not None):
            await self.presenter.announce_end(table, outcome.settlement)
            await self.tables.notify_ended(outcome)
