"""The public table message: one per table, edited as the game moves, with edits coalesced.

A change marks the table *dirty*; the message is edited at once if its last edit is at least
:data:`EDIT_INTERVAL` old, otherwise by the bot's one scheduler tick, so a burst of changes makes
one edit. The game's part of the message (its fields, its picture, how to play) comes from the
game's family (:func:`bot.render.family.render_of`); the lobby, the title, the rules line, whose
turn and the recent lines are the same for every game. Also the end-of-game message and short
lines in the table's channel.
"""

from __future__ import annotations

import asyncio
import io
import logging
import math
from collections.abc import Sequence
from typing import Any

import discord

from bot.locale import t
from bot.render.family import Picture, render_of
from bot.render.text import duration_text, game_title, localize, recent_text, unbroken
from bot.services.tables import Table, TableStatus
from cogs.common import pinging
from cogs.presenter_base import MessageState, PresenterBase
from cogs.sheets import (
    COLOUR,
    aborted_text,
    add_fields,
    field_text,
    lobby_rules,
    seat_labels,
    stakes_text,
    unbroken_embed,
)
from cogs.ui import lobby_view, moves_view, table_view

__all__ = ["EDIT_INTERVAL", "FLUSH_CONCURRENCY", "TableMessages"]

log = logging.getLogger("cogs.presenter")

EDIT_INTERVAL = 1.0
"""Seconds between two edits of one table message."""

FLUSH_CONCURRENCY = 16
"""How many table messages the scheduler edits at once."""


def _file(picture: Picture) -> discord.File:
    """A picture to attach, its alt text as its description."""
    return discord.File(io.BytesIO(picture.png), filename=picture.filename, description=picture.alt)


class TableMessages(PresenterBase):
    """The table message, the end-of-game message and the table's channel lines."""

    def table_embed(self, table: Table) -> discord.Embed:
        """The public embed of a table in any state (lobby, running, over)."""
        if table.status is TableStatus.LOBBY:
            return self.lobby_embed(table)
        return unbroken_embed(self._table_embed(table))

    def _table_embed(self, table: Table) -> discord.Embed:
        loc = self.public_locale(table)
        rules = table.rules
        title = t(loc, "{game} — table {id}", game=game_title(table.game, loc), id=table.id)
        embed = discord.Embed(title=title, colour=COLOUR)
        public = table.view_for(None)  # the spectator's view: no hand in it
        if public is None or rules is None:
            embed.description = t(loc, "This table was closed.")
            return embed
        seats = seat_labels(table)
        render = render_of(table.game)
        lines = [render.rules_summary(rules, loc) + stakes_text(table, loc)]
        if table.status is TableStatus.ABORTED:
            lines.append(aborted_text(table, loc))
        elif table.end_text is not None:
            lines.append(t(loc, "🏳️ {text}", text=localize(table.end_text, loc)))
        else:
            deadline = table.deadline if table.running else None
            lines.append(render.turn(public, seats, deadline, loc))
        embed.description = "\n".join(lines)
        # The game's part (seats and discards; scores and row …), then what every game has.
        sheet = render.table_sheet(public, seats, loc)
        add_fields(embed, sheet.fields)
        embed.add_field(
            name=t(loc, "Recent"), value=field_text(self._recent(table, loc)), inline=False
        )
        if sheet.image is not None:
            embed.set_image(url=f"attachment://{sheet.image}")
        if table.running and sheet.footer is not None:
            embed.set_footer(text=sheet.footer)
        return embed

    def _recent(self, table: Table, locale: str) -> str:
        return recent_text([localize(line, locale) for line in table.recent], locale=locale)

    async def table_files(self, table: Table) -> list[discord.File]:
        """The picture the table message carries, drawn by the game in a thread (the face-up
        discards of Kap Shap and Kap Tai Shap, Tsung Shap's row with the tile just turned
        over); none for a game without one."""
        public = table.view_for(None)
        loc = self.public_locale(table)
        if table.status is TableStatus.LOBBY or public is None:
            return []
        render = render_of(table.game)
        picture = await asyncio.to_thread(render.table, public, seat_labels(table), loc)
        if picture is None:
            return []
        return [_file(picture)]

    async def table_message(self, table: Table, *, edit: bool) -> dict[str, Any]:
        """Keyword arguments that send (``edit=False``) or edit the table message: embed,
        buttons and, for Tsung Shap, the row picture."""
        await self.refresh_locale(table.guild_id)
        kwargs: dict[str, Any] = {"embed": self.table_embed(table), "view": self.table_view(table)}
        files = await self.table_files(table)
        if files:
            kwargs["attachments" if edit else "files"] = files
        return kwargs

    def lobby_embed(self, table: Table) -> discord.Embed:
        """The lobby: seats, ante and the rules the game would start with."""
        loc = self.public_locale(table)
        embed = discord.Embed(
            title=t(loc, "{game} — new table", game=game_title(table.game, loc)), colour=COLOUR
        )
        rules = lobby_rules(table)
        host = t(loc, " (host)")
        seats = "\n".join(
            f"{i + 1}. {s.name}"
            + (" 🤖" if s.is_ai else "")
            + (host if s.user_id == table.host_id else "")
            for i, s in enumerate(table.seats)
        )
        stakes = (
            t(loc, "settled at **{rate}** chips per point", rate=f"{table.settle_rate:,}")
            if table.by_difference
            else t(loc, "ante **{ante}** chips", ante=f"{table.ante:,}")
        )
        embed.description = t(
            loc,
            "Host: {host} · {stakes} · turn timer {timer}",
            host=f"<@{table.host_id}>",
            stakes=stakes,
            timer=duration_text(table.turn_seconds, loc),
        )
        if not table.rated:
            embed.description += "\n" + t(loc, "Not rated: hints allowed.")
        if table.lobby_closes_at is not None:
            # A lobby nobody starts closes by itself (the server's lobby time).
            embed.description += "\n" + t(
                loc,
                "Closes {when} unless started.",
                when=f"<t:{int(table.lobby_closes_at)}:R>",
            )
        embed.add_field(
            name=t(loc, "Seats ({n}/{max})", n=len(table.seats), max=table.max_seats),
            value=field_text(seats),
            inline=False,
        )
        rules_line = (
            render_of(table.game).rules_summary(rules, loc)
            if rules is not None
            else t(loc, "(needs more players)")
        )
        embed.add_field(name=t(loc, "Rules"), value=rules_line, inline=False)
        embed.set_footer(text=t(loc, "Join, add a computer player, then the host starts the game."))
        return unbroken_embed(embed)

    def table_view(self, table: Table) -> discord.ui.View:
        """The buttons under the table message in its current state (none once aborted)."""
        loc = self.public_locale(table)
        if table.status is TableStatus.LOBBY:
            return lobby_view(table.id, loc, full=len(table.seats) >= table.max_seats)
        if table.status is TableStatus.ABORTED:
            return discord.ui.View(timeout=None)  # an empty view removes the buttons
        public = table.view_for(None)
        render = render_of(table.game)
        if table.running and public is not None and render.where == "table":
            # The moves are on the table message (Tsung Shap hides nothing), then Rules.
            specs = render.buttons(public, table.legal(), loc)
            return moves_view(table.id, table.version, specs, rules_locale=loc)
        # Once over, the Rematch button is on the end-of-game message (one is enough).
        return table_view(table.id, finished=not table.running, rematch=False, locale=loc)

    def rules_embed(self, table: Table, locale: str | None = None) -> discord.Embed:
        """The rules in force at a table, explained (in ``locale``, else the table's)."""
        loc = locale or self.public_locale(table)
        rules = lobby_rules(table)
        embed = discord.Embed(
            title=t(loc, "Rules — {game}", game=game_title(table.game, loc)), colour=COLOUR
        )
        if rules is None:
            embed.description = t(loc, "These settings need more players before they make a game.")
        else:
            embed.description = render_of(table.game).rules_text(
                rules, loc, ante=table.ante, turn_seconds=table.turn_seconds
            )[:4096]
        return unbroken_embed(embed)

    async def mark_edited(self, table: Table) -> None:
        """The table message was just edited by an interaction response."""
        state = self._messages.setdefault(table.id, MessageState())
        state.dirty = False
        state.last_edit = self._now()
        self.wake()  # the table changed: its turn timer may have too
        await self.bot.services.tables.drew(table)

    def next_flush_at(self) -> float | None:
        """When the earliest coalesced edit falls due (epoch seconds), if any is pending."""
        due = [s.last_edit + EDIT_INTERVAL for s in self._messages.values() if s.dirty]
        return min(due) if due else None

    async def touch(self, table: Table, *, now: bool = False, redraw: bool = False) -> None:
        """The table changed: edit its message now if allowed, else at the next tick
        (``redraw``, with ``now``: even if another process drew its version, for a change the
        version does not tell, such as the mark of a restart)."""
        state = self._messages.setdefault(table.id, MessageState())
        state.dirty = True
        if now or self._now() - state.last_edit >= EDIT_INTERVAL:
            await self.flush(table, force=now, redraw=redraw)
        self.wake()  # the scheduler sleeps until the next due edit or deadline

    async def flush(self, table: Table, *, force: bool = False, redraw: bool = False) -> None:
        """Edit the table message if it is dirty (the state is read at edit time).

        When other processes serve the table too, its latest state is drawn, and only when no
        process edited the message within :data:`EDIT_INTERVAL` (else it stays due until then;
        ``force``, a change that must show at once, does not wait) and none already drew that
        state."""
        state = self._messages.setdefault(table.id, MessageState())
        async with state.lock:
            if not state.dirty:
                return
            tables = self.bot.services.tables
            if tables.poll_seconds is not None:
                table = await tables.by_id(table.id) or table
                turn = await tables.edit_turn(table, EDIT_INTERVAL, force=force, redraw=redraw)
                if turn == math.inf:
                    state.dirty = False  # another process drew this state already
                    return
                if turn is not None:
                    state.last_edit = turn - EDIT_INTERVAL  # due again when it allows
                    return
            state.dirty = False
            state.last_edit = self._now()
            await self._edit_table_message(table)

    async def flush_due(self, tables: Sequence[Table]) -> None:
        """The scheduler's tick: edit every dirty table message whose interval has passed."""
        now = self._now()
        due = [
            table
            for table in tables
            if (state := self._messages.get(table.id)) is not None
            and state.dirty
            and now - state.last_edit >= EDIT_INTERVAL
        ]
        limit = asyncio.Semaphore(FLUSH_CONCURRENCY)

        async def one(table: Table) -> None:
            # Each table on its own: one slow or failing edit never holds up the others.
            async with limit:
                try:
                    await self.flush(table)
                except Exception:
                    log.exception("table %s: could not edit its message", table.id)

        await asyncio.gather(*(one(t) for t in due))

    async def flush_pending(self, tables: Sequence[Table]) -> None:
        """Before the bot stops: edit every table message whose coalesced edit is still due,
        now (a stopped process has no next tick to do it)."""
        pending = [
            table
            for table in tables
            if (state := self._messages.get(table.id)) is not None and state.dirty
        ]
        for table in pending:
            try:
                await self.flush(table, force=True)
            except Exception:
                log.exception("table %s: could not edit its message", table.id)

    async def _edit_table_message(self, table: Table) -> None:
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        if table.message_id is not None:
            try:
                edit = await self.table_message(table, edit=True)
                await channel.get_partial_message(table.message_id).edit(**edit)
                return
            except discord.NotFound:
                log.info("table %s: its message is gone; posting a new one", table.id)
            except discord.HTTPException as exc:
                log.warning("table %s: could not edit its message: %s", table.id, exc)
                return
        try:
            message = await channel.send(**await self.table_message(table, edit=False))
        except discord.HTTPException as exc:
            log.warning("table %s: could not post its message: %s", table.id, exc)
            return
        await self.bot.services.tables.set_message(table, message.id)

    async def say(self, table: Table, text: str, *, mention: int | None = None) -> None:
        """A short line in the table's channel (a timeout, a DM problem)."""
        mentions = pinging([] if mention is None else [mention])
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        try:
            await channel.send(localize(text, self.public_locale(table)), allowed_mentions=mentions)
        except discord.HTTPException as exc:
            log.warning("table %s: could not post %r: %s", table.id, text, exc)

    async def announce_end(self, table: Table, settlement: str | None) -> None:
        """Reveal the winning hand (picture and arrangement) or the draw, with a rematch button."""
        state = table.state
        if state is None:
            return
        loc = self.public_locale(table)
        if state.result is None:
            if table.end_text is None:
                return
            # Ended by a resignation or a forfeit: the white flag, as in the table's lines.
            lines = [t(loc, "🏳️ {text}", text=localize(table.end_text, loc))] + (
                [localize(settlement, loc)] if settlement else []
            )
            await self._send_end(table, lines, None)
            return
        result = state.result
        seats = seat_labels(table)
        render = render_of(table.game)
        # How it ended, then what the game reveals (the winning hand, in words and drawn).
        lines = [render.result(result, seats, loc)]
        lines += render.end_lines(result, state.rules, seats, loc)
        picture = await asyncio.to_thread(render.end, result, state.rules, seats, loc)
        file = None if picture is None else _file(picture)
        if settlement:
            lines.append(localize(settlement, loc))
        await self._send_end(table, lines, file)

    async def _send_end(self, table: Table, lines: list[str], file: discord.File | None) -> None:
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        event = self.event_table is not None and await self.event_table(table.channel_id)
        kwargs: dict[str, Any] = {
            "content": unbroken("\n".join(lines)),
            "view": table_view(
                table.id, finished=True, rematch=not event, locale=self.public_locale(table)
            ),
            "allowed_mentions": discord.AllowedMentions.none(),
        }
        if file is not None:
            kwargs["file"] = file
        try:
            await channel.send(**kwargs)
        except discord.HTTPException as exc:
            log.warning("table %s: could not announce the end: %s", table.id, exc)
