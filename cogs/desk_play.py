"""The desk's play: a move (slash verb or button), the hand shown on request, resigning, and a
table a server manager ended.

A slash verb means what the table's game says (its render facet's
:meth:`~bot.render.family.Surface.verb`); a click on a move is decoded by one generic rule
(:func:`cogs.ui.notation_of`). A click that must show a new hand picture is deferred first (the
picture is drawn in a worker thread) and the clicked message is then edited in place.

:class:`PlayDesk` is one part of :class:`cogs.desk.Desk` (see :mod:`cogs.desk`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.ai.family import ai_of
from bot.engine.family import Action
from bot.locale import Message, t
from bot.render.family import VerbRefusal, render_of
from bot.render.text import legal_text, private_event_text, result_text, unbroken
from bot.services.errors import UserError
from bot.services.review_text import hint_text
from bot.services.tables import Table, TableStatus
from cogs.common import locale_of
from cogs.desk_base import DeskBase, acknowledged_if_slow, is_click
from cogs.presenter import jump_url, seat_labels
from cogs.ui import resign_view

__all__ = ["RESIGN_SECONDS", "PlayDesk"]

RESIGN_SECONDS = 60
"""How long the question of ``/table resign`` may be answered: long enough to read it on a
phone, short enough that an old one forgotten in the channel cannot be clicked by a slip."""


class PlayDesk(DeskBase):
    """The play handlers (slash verbs, the moves' buttons, ``/hand``, ``/table resign``)."""

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
        action: Action | str,
        *,
        version: int | None = None,
    ) -> None:
        """A play verb (slash command, DM button, ephemeral hand button, or a Tsung Shap
        button on the table message)."""
        user = interaction.user
        outcome = await acknowledged_if_slow(
            interaction,
            self.tables.act(
                table.channel_id, user.id, action, version=version, interaction=interaction.id
            ),
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
        if is_click(interaction) and render_of(table.game).where == "table":
            # The moves are buttons of the table message (Tsung Shap): show the new table in it.
            if not interaction.response.is_done():
                await interaction.response.defer()
            if self._shows_table(interaction, table):
                edit = await self.presenter.table_message(table, edit=True)
                await interaction.edit_original_response(**edit)
                await self.presenter.mark_edited(table)
            else:
                await self.presenter.touch(table, now=True)
            await self.present(
                outcome, table_shown=not outcome.finished, active=user.id, noted=True
            )
            return
        if is_click(interaction):
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

    async def hint(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """``/hint`` or "Hint": the expert's move and why, privately (an unrated table against
        the computer only; the service refuses anywhere else and notes every hint)."""
        words = await self.tables.hint(table.channel_id, interaction.user.id)
        loc = locale_of(interaction)
        context = ai_of(table.game).words_context(table.game)
        text = t(loc, "💡 Hint: {hint}", hint=hint_text(words, loc, context=context))
        await interaction.response.send_message(text, ephemeral=True)

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

    async def table_ended(self, table: Table, admin_id: int) -> None:
        """A server manager ended the table (``/kapadmin endtable``): close its message, take
        the buttons off every player's DM."""
        table.recent.append(
            Message("🛑 Ended by {admin}: every ante was refunded.", admin=f"<@{admin_id}>")
        )
        await self.presenter.touch(table, now=True)
        await self.presenter.update_dms(table)
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
