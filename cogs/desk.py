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
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import Awaitable, Mapping, Sequence
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.ai import AI_LEVELS
from bot.ai.base import LEVEL_WORDS
from bot.ai.family import ai_of
from bot.app import KapBot
from bot.engine import AnyAction, EngineError
from bot.engine.family import engine_of
from bot.games import default_game, find
from bot.limits import quote_input
from bot.locale import N_, Message, t
from bot.locale.levels import LEVEL_NAMES, LevelName, level_name
from bot.render.family import VerbRefusal, render_of
from bot.render.text import (
    legal_text,
    localize,
    private_event_text,
    result_text,
    unbroken,
)
from bot.services.errors import UserError
from bot.services.tables import (
    QUARANTINE_NOTICE,
    Outcome,
    Table,
    TableService,
    TableStatus,
)
from cogs.common import guarded, locale_of, public_locale_of, report_incident
from cogs.presenter import COLOUR, Presenter, jump_url, seat_labels
from cogs.ui import CustomId, ai_level_view, notation_of, register_handler, resign_view

__all__ = [
    "ACK_AFTER",
    "RESIGN_SECONDS",
    "Desk",
    "acknowledged_if_slow",
    "ai_levels",
    "default_ai_level",
    "desk_for",
    "level_choices",
]

log = logging.getLogger(__name__)

T = TypeVar("T")

PRESENT_CONCURRENCY = 16
"""How many tables' timeouts the scheduler presents at once."""

ACK_AFTER = 1.0
"""Seconds a handler may work before it acknowledges the interaction (Discord allows 3)."""

RESIGN_SECONDS = 60
"""How long the question of ``/table resign`` may be answered: long enough to read it on a
phone, short enough that an old one forgotten in the channel cannot be clicked by a slip."""

_desks: weakref.WeakKeyDictionary[KapBot, Desk] = weakref.WeakKeyDictionary()


def desk_for(bot: KapBot) -> Desk:
    """The desk of a bot (one per bot instance: a restarted bot gets a fresh one)."""
    desk = _desks.get(bot)
    if desk is None:
        desk = Desk(bot)
        _desks[bot] = desk
    return desk


def ai_levels() -> list[str]:
    """The computer levels that exist now."""
    return sorted(AI_LEVELS)


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


def default_ai_level(game: str | None = None) -> str:
    """``greedy`` once it exists (for ``game``, when given), else ``random``."""
    levels = ai_levels() if game is None else ai_of(game).levels(game)
    return "greedy" if "greedy" in levels else "random"


def _is_click(interaction: discord.Interaction[Any]) -> bool:
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
        if _is_click(interaction):
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    return await task


class Desk:
    """Handlers for tables and play; it owns the bot's :class:`Presenter`."""

    def __init__(self, bot: KapBot) -> None:
        """Serve ``bot``; clicks arriving at it are routed here."""
        self.bot = bot
        self.presenter = Presenter(bot)
        self.restored: list[Table] = []
        self._announced = False
        register_handler(bot, self)

    @property
    def tables(self) -> TableService:
        """The table service."""
        return self.bot.services.tables

    def find(self, table_id: str) -> Table | None:
        """A table this process holds, by id."""
        return next((t for t in self.tables.tables() if t.id == table_id), None)

    def here(self, interaction: discord.Interaction[Any]) -> Table:
        """The table of the channel an interaction came from; in the bot's DM, the one running
        table the member is seated at."""
        if interaction.guild_id is None:
            return self.table_of_player(interaction.user.id)
        if interaction.channel_id is None:
            raise UserError("There is no table here.")
        return self.tables.require(interaction.channel_id)

    def table_of_player(self, user_id: int) -> Table:
        """The running table a member plays at (from his DM: where his hand is)."""
        mine = [t for t in self.tables.tables() if t.running and t.seat_of(user_id) is not None]
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

    def find_here(self, interaction: discord.Interaction[Any]) -> Table | None:
        """Like :meth:`here`, or None (for autocomplete, which cannot explain)."""
        try:
            return self.here(interaction)
        except UserError:
            return None

    def _shows_table(self, interaction: discord.Interaction[Any], table: Table) -> bool:
        message = interaction.message
        return _is_click(interaction) and message is not None and message.id == table.message_id

    async def _table_changed(
        self, interaction: discord.Interaction[Any], table: Table, text: str
    ) -> None:
        """Answer a lobby change: edit the clicked table message, or reply and edit it."""
        if self._shows_table(interaction, table):
            await interaction.response.edit_message(
                embed=self.presenter.table_embed(table), view=self.presenter.table_view(table)
            )
            self.presenter.mark_edited(table)
        else:
            await interaction.response.send_message(
                localize(text, locale_of(interaction)), ephemeral=True
            )
            await self.presenter.touch(table, now=True)

    # ------------------------------------------------------------------------- lobby

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
    ) -> None:
        """``/table new``: open a lobby here, or in a new thread of this channel."""
        channel = interaction.channel
        if interaction.guild_id is None or channel is None or interaction.channel_id is None:
            raise UserError("Tables are opened in a server channel.")
        existing = self.tables.get(interaction.channel_id)
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
            self.presenter.mark_edited(table)
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
        self.presenter.mark_edited(table)
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
        await self.tables.join(table.channel_id, user.id, user.display_name)
        await self._table_changed(interaction, table, Message("You joined the table."))

    async def leave(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """Leave or the "Leave" button."""
        await self.tables.leave(table.channel_id, interaction.user.id)
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
            await self.add_ai(interaction, table, default_ai_level(table.game))
            return
        loc = locale_of(interaction)
        await interaction.response.send_message(
            t(loc, "Which level should the computer play?"),
            view=ai_level_view(table.id, levels, default_ai_level(table.game), loc),
            ephemeral=True,
        )

    async def add_ai(
        self, interaction: discord.Interaction[Any], table: Table, level: str | None
    ) -> None:
        """``/table addbot`` or the level chosen after "Add AI"."""
        level = level or default_ai_level(table.game)
        levels = list(ai_of(table.game).levels(table.game))
        if level not in levels:
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
        )
        text = Message("Added a computer player ({level}).", level=LevelName(level))
        message = interaction.message
        if _is_click(interaction) and message is not None and message.flags.ephemeral:
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
            self.tables.start(table.channel_id, interaction.user.id),
            ephemeral=False,
        )
        answered = interaction.response.is_done()
        if self._shows_table(interaction, table):
            edit = await self.presenter.table_message(table, edit=True)
            if answered:
                await interaction.edit_original_response(**edit)
            else:
                await interaction.response.edit_message(**edit)
            self.presenter.mark_edited(table)
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
        current = self.tables.get(interaction.channel_id)
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
        self.presenter.mark_edited(table)

    async def show(self, interaction: discord.Interaction[Any]) -> None:
        """``/table show``: post the table message again, at the bottom of the channel."""
        table = self.here(interaction)
        old = table.message_id
        response = await interaction.response.send_message(
            **await self.presenter.table_message(table, edit=False)
        )
        if response.message_id is None:  # pragma: no cover - Discord always returns it
            return
        await self.tables.set_message(table, response.message_id)
        self.presenter.mark_edited(table)
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

    # ------------------------------------------------------------------------- play

    def notation(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        verb: str,
        options: Mapping[str, str | None],
    ) -> str:
        """What a slash verb with its options means at ``table``, in its game's notation (the
        game's :meth:`~bot.render.family.Surface.verb`); its refusal as a :class:`UserError`."""
        user_id = interaction.user.id
        try:
            return render_of(table.game).verb(verb, options, table.view_for(user_id), table.legal())
        except VerbRefusal as refusal:
            if refusal.no_such_move:
                self._may_move(table, user_id)
            raise UserError(refusal.message.msgid, **refusal.message.values) from None

    @staticmethod
    def _may_move(table: Table, user_id: int) -> None:
        """The table's own refusals of a move, in the order the table service makes them."""
        if not table.running or table.state is None:
            if table.status is TableStatus.LOBBY:
                raise UserError("The game has not started yet.")
            raise UserError("This game is over.")
        if table.seat_of(user_id) is None:
            raise UserError("You are not playing at this table.")
        if table.state.current != table.seat_of(user_id):
            raise UserError(
                "It is {player}'s turn, not yours.", player=table.seats[table.state.current].name
            )

    async def act(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        action: AnyAction | str,
        *,
        version: int | None = None,
    ) -> None:
        """A play verb (slash command, DM button, ephemeral hand button, or a Tsung Shap
        button on the table message)."""
        user = interaction.user
        outcome = await acknowledged_if_slow(
            interaction,
            self.tables.act(table.channel_id, user.id, action, version=version),
            ephemeral=True,
        )
        self.presenter.note_steps(table, outcome.steps)
        seat = table.seat_of(user.id)
        names = [s.name for s in table.seats]
        loc = locale_of(interaction)
        notes = [
            text
            for step in outcome.steps
            if step.seat == seat and seat is not None
            for event in step.events
            if (text := private_event_text(event, seat, names, loc)) is not None
        ]
        self.presenter.add_notes(table, user.id, notes)
        skip: int | None = None
        if _is_click(interaction) and render_of(table.game).where == "table":
            # The moves are buttons of the table message (Tsung Shap): show the new table in it.
            if not interaction.response.is_done():
                await interaction.response.defer()
            if self._shows_table(interaction, table):
                edit = await self.presenter.table_message(table, edit=True)
                await interaction.edit_original_response(**edit)
                self.presenter.mark_edited(table)
            else:
                await self.presenter.touch(table, now=True)
            await self.present(
                outcome, table_shown=not outcome.finished, active=user.id, noted=True
            )
            return
        if _is_click(interaction):
            # A new hand picture is drawn below: acknowledge the click first.
            if not interaction.response.is_done():
                await interaction.response.defer()
            message = interaction.message
            in_dm = interaction.guild_id is None and message is not None
            previous = None
            if in_dm and message is not None:
                known = self.presenter.dm_signature(table, user.id)
                if known is not None and message.id == self.presenter.dm_message_id(table, user.id):
                    previous = known
            payload = await self.presenter.hand_payload(table, user.id, previous=previous)
            if payload is not None:
                kwargs: dict[str, Any] = {"embed": payload.embed, "view": payload.view}
                if in_dm:
                    kwargs["content"] = payload.content
                file = payload.file()
                if file is not None:
                    kwargs["attachments"] = [file]
                await interaction.edit_original_response(**kwargs)
                if in_dm and message is not None and interaction.channel_id is not None:
                    self.presenter.record_dm(
                        table, user.id, interaction.channel_id, message.id, payload.signature
                    )
                    skip = user.id
                elif message is not None and payload.view is not None:
                    # An ephemeral hand view: its new token edits it at the game's end.
                    self.presenter.keep_hand_reply(
                        table, user.id, message.id, interaction, original=True
                    )
        elif interaction.response.is_done():
            await interaction.followup.send(
                self._after_text(table, user.id, notes, loc), ephemeral=True
            )
        else:
            await interaction.response.send_message(
                self._after_text(table, user.id, notes, loc), ephemeral=True
            )
        await self.present(outcome, skip_dm=skip, active=user.id, noted=True)

    def _after_text(
        self, table: Table, user_id: int, notes: Sequence[str], locale: str = "en"
    ) -> str:
        """The private answer to a play command: what happened, and what comes next."""
        lines = list(notes) or [t(locale, "Done.")]
        seat_view = table.view_for(user_id)
        if seat_view is not None and seat_view.result is not None:
            lines.append(result_text(seat_view.result, seat_labels(table), locale))
        elif seat_view is not None and seat_view.my_turn and table.state is not None:
            # After his own move (told just above) it is still his turn: what he may do now,
            # without "It is your turn" or the tile he has just turned over again.
            moved = bool(notes)
            lines.append(
                legal_text(seat_view, table.legal(), locale, opener=not moved, turned=not moved)
            )
        elif table.current_seat is not None:
            lines.append(t(locale, "{name} plays next.", name=table.current_seat.name))
        return unbroken("\n".join(lines))

    async def show_hand(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """``/hand`` or "My hand": the caller's hand view, ephemerally (the DM fallback)."""
        if table.seat_of(interaction.user.id) is None:
            raise UserError("You are not playing at this table: only the players see a hand.")
        if table.state is None:
            raise UserError("The game has not started yet.")
        if render_of(table.game).where == "table":
            # No hand (Tsung Shap): say what the player may do (the table has the buttons).
            loc = locale_of(interaction)
            text = self._after_text(table, interaction.user.id, [], loc)
            link = t(loc, "The table, with its buttons: {link}", link=jump_url(table))
            await interaction.response.send_message(f"{text}\n{link}", ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        payload = await self.presenter.hand_payload(table, interaction.user.id)
        if payload is None:  # pragma: no cover - checked above
            raise UserError("You are not playing at this table.")
        kwargs: dict[str, Any] = {"embed": payload.embed, "ephemeral": True, "wait": True}
        file = payload.file()
        if file is not None:
            kwargs["file"] = file
        if payload.view is not None:
            kwargs["view"] = payload.view
        reply = await interaction.followup.send(**kwargs)
        if payload.view is not None:
            self.presenter.keep_hand_reply(
                table, interaction.user.id, reply.id, interaction, original=False
            )

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

    # ------------------------------------------------------------------------- clicks

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
                await self.resign(interaction, self.find(cid.table_id), cid.arg)
                return
            table = self.find(cid.table_id)
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
        else:
            await self.act(interaction, table, self._action_of(cid, values), version=cid.version)

    @staticmethod
    def _action_of(cid: CustomId, values: Sequence[str]) -> str:
        """The move a click means, in the notation of its table's game (:func:`notation_of`)."""
        notation = None if cid.version is None else notation_of(cid.verb, cid.arg, values)
        if notation is None:
            raise UserError("That button is not valid any more.")
        return notation

    async def table_ended(self, table: Table, admin_id: int) -> None:
        """A server manager ended the table (``/kapadmin endtable``): close its message, take
        the buttons off every player's DM."""
        table.recent.append(
            Message("🛑 Ended by {admin}: every ante was refunded.", admin=f"<@{admin_id}>")
        )
        await self.presenter.touch(table, now=True)
        await self.presenter.update_dms(table)
        self.presenter.forget(table.id)

    # ------------------------------------------------------------------------- background

    async def tick(self) -> None:
        """The scheduler: expired turn timers (the computer plays), then due table edits."""
        if not self.bot.is_ready():
            return
        try:
            outcomes = await self.tables.expire_due()
        except Exception as exc:
            await report_incident(None, exc, "turn timers")
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
                    await report_incident(None, exc, f"timeout at table {outcome.table.id}")

        await asyncio.gather(*(show(o) for o in outcomes))
        await self.close_expired_lobbies()
        tables = self.tables.tables()
        await self.presenter.flush_due(tables)
        self.presenter.prune({t.id for t in tables})

    async def close_expired_lobbies(self) -> None:
        """Lobbies nobody started in the server's time close themselves."""
        try:
            closed = await self.tables.expire_lobbies()
        except Exception as exc:
            await report_incident(None, exc, "closing lobbies")
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

    async def ask_resign(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """``/table resign``: ask first, privately, what resigning would do (one slip must not
        lose the pot). The answer's buttons expire after :data:`RESIGN_SECONDS`."""
        seat = self._resigning_seat(interaction, table)
        loc = locale_of(interaction)
        left = [i for i in range(len(table.seats)) if i not in table.out and i != seat]
        if len(left) == 1 and table.by_difference:
            what = t(
                loc,
                "**Resign?** {name} would win this game, and you would pay for the points you "
                "are behind.",
                name=table.seats[left[0]].name,
            )
        elif len(left) == 1:
            what = t(
                loc,
                "**Resign?** {name} would win this game and the pot.",
                name=table.seats[left[0]].name,
            )
        else:
            what = t(
                loc,
                "**Resign?** Your seat would fold: your ante stays in the pot and you can no "
                "longer win.",
            )
        expires = int(self.bot.clock.now().timestamp() + RESIGN_SECONDS)
        when = t(loc, "This question expires {when}.", when=f"<t:{expires}:R>")
        await interaction.response.send_message(
            f"{what}\n{when}",
            view=resign_view(table.id, f"{expires}.{len(table.out)}", loc),
            ephemeral=True,
        )

    def _resigning_seat(self, interaction: discord.Interaction[Any], table: Table) -> int:
        """The seat of a member who may resign now (refused in words otherwise)."""
        if table.status is TableStatus.LOBBY:
            raise UserError("The game has not started yet.")
        if not table.running:
            raise UserError("This game is over.")
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise UserError("You are not playing at this table.")
        if seat in table.out:
            raise UserError("You are already out of this game.")
        return seat

    async def resign(
        self, interaction: discord.Interaction[Any], table: Table | None, arg: str | None
    ) -> None:
        """The question's "Resign": give up the game, unless the question is stale (its game
        ended or was replaced, it expired, or a seat folded since, which changes what resigning
        does): then nothing is done, and the answer says so. The answer replaces the question
        and says once what happened (the channel is told by the table and end messages)."""
        loc = locale_of(interaction)
        expires, _, out = (arg or "").partition(".")
        now = self.bot.clock.now().timestamp()
        try:
            if table is None or (table.state is not None and not table.running):
                raise UserError("This game is over: nothing was done.")
            self._resigning_seat(interaction, table)
            if not expires.isdigit() or now > int(expires):
                raise UserError(
                    "This question has expired: nothing was done. Use `/table resign` again if "
                    "you still want to give up."
                )
            if out != str(len(table.out)):
                raise UserError(
                    "The game changed since you were asked: nothing was done. Use "
                    "`/table resign` again if you still want to give up."
                )
            outcome = await self.tables.resign(table.channel_id, interaction.user.id)
        except UserError as exc:
            await interaction.response.edit_message(content=exc.localized(loc), view=None)
            return
        if table.winner_seat is not None and not table.running:
            text = t(loc, "🏳️ You resigned: {name} wins.", name=table.seats[table.winner_seat].name)
        else:
            text = t(loc, "🏳️ You resigned: your seat folds (your ante stays in the pot).")
        await interaction.response.edit_message(
            content=text, view=None, allowed_mentions=discord.AllowedMentions.none()
        )
        await self.present(outcome)

    async def keep_playing(self, interaction: discord.Interaction[Any]) -> None:
        """The question's "Keep playing": nothing happens; the question goes."""
        await interaction.response.edit_message(
            content=t(locale_of(interaction), "You keep playing."), view=None
        )

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
                await report_incident(None, exc, f"restoring table {table.id}")

    async def _announce_one(self, table: Table) -> None:
        if table.status is TableStatus.LOBBY:
            await self.presenter.touch(table, now=True)
            return
        await self.presenter.restore_dms(table)
        outcome = await self.tables.resume_ai(table)
        await self.presenter.touch(table, now=True)
        await self.presenter.update_dms(table)
        if outcome.finished or (table.state is not None and table.state.result is not None):
            await self.presenter.announce_end(table, outcome.settlement)
            await self.tables.notify_ended(outcome)
