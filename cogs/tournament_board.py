"""The live standings board (issue 23): the event's sign-up message, kept as the one message
that shows where the event stands (docs/tournaments.md, "Live standings").

The sign-up message is the board: it shows the rules and the entrants while sign-up is open,
the standings (a short text and the picture) from the first result on, and the places, prizes
and a pointer to ``/tournament export`` at the end. One message a member already knows (he
joined on it), whose link stays good through the whole event, rather than a second long
message posted at the start; on a phone its embed is a dozen short lines over the picture.

**Coalesced edits.** A result only marks its event's board due :data:`BOARD_DELAY` seconds
later; one pass of the cog's ``boards`` loop (which sleeps until the next due board) then
draws whatever the event is by then, so the results of a burst (a round's time limit deciding
its matches, several games ending together) make one edit, and a board is edited at most
about once a second (Discord limits a channel's edits). A change of the event's status, a
sign-up or a click is drawn at once (:meth:`TournamentBoardMixin.refresh`).

**Restarts and processes.** What was drawn is stored (the service's
:meth:`~bot.services.tournaments.TournamentService.board_turn`): each drawing holds the
board's lock across processes and reads the event under it, and a version some process drew
already is not drawn again, so whichever process saw a result, the board is edited once and
the last edit is of the latest state. After a restart the carrying on of every running event
marks its board due, and a result the bot stopped before drawing is drawn then. A board
deleted in Discord is posted again (its id is stored), never an error.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any

import discord
from discord.ext import tasks

from bot.render.alt_text import standings_description
from bot.render.tournament_art import render_event_standings
from bot.services.tournaments import BoardTurn, TournamentRecord, board_shows_standings
from cogs.common import report_incident, wake_in
from cogs.tournament_host import MESSAGE_LIMIT, TournamentHostMixin
from cogs.tournament_signup import signup_content, signup_embed, signup_view

__all__ = ["BOARD_DELAY", "BOARD_PICTURE", "TournamentBoardMixin"]

log = logging.getLogger("cogs.tournaments")

BOARD_DELAY = 1.0
"""Seconds from a result to its board's edit: the results that come meanwhile share it."""

IDLE_SECONDS = 3600.0
"""How long the ``boards`` loop sleeps with no board due (it is woken when one falls due)."""

BOARD_PICTURE = "standings.png"


class TournamentBoardMixin(TournamentHostMixin):
    """The event's board: drawn at once on a change of status or entrants, and coalesced after
    results by the ``boards`` loop."""

    _boards_due: dict[int, float]
    """Event id -> when its board falls due (epoch seconds of the bot's clock)."""

    def start_boards(self) -> None:
        """Start the ``boards`` loop and take the service's calls after each result (from the
        cog's ``cog_load``)."""
        self._boards_due = {}
        self.service.standings_changed = self.standings_changed
        self.boards.start()

    async def stop_boards(self) -> None:
        """Stop the loop and draw the boards still due now (a stopped process has no next
        pass; from the cog's ``cog_unload``)."""
        self.boards.cancel()
        if self.service.standings_changed == self.standings_changed:
            self.service.standings_changed = None
        for tournament_id in sorted(self._boards_due):
            try:
                await self.draw_board(tournament_id)
            except Exception:
                log.exception("tournament %s: could not draw its board", tournament_id)
        self._boards_due.clear()

    def standings_changed(self, tournament_id: int) -> None:
        """The service carried the event on (a result, a round, the end): its board falls due
        :data:`BOARD_DELAY` from the first such call, unless it is due already."""
        if tournament_id in self._boards_due:
            return
        self._boards_due[tournament_id] = self._board_now() + BOARD_DELAY
        self._plan_boards()

    async def refresh(self, record: TournamentRecord) -> None:
        """Draw the event's board now (a change of status, entrants or settings)."""
        await self.draw_board(record.id, redraw=True)

    @tasks.loop(seconds=IDLE_SECONDS)
    async def boards(self) -> None:
        """Draw the boards that are due; then sleep until the next one is."""
        try:
            if not self.bot.is_ready():
                return
            now = self._board_now()
            for tournament_id, due in sorted(self._boards_due.items()):
                if due > now:
                    continue
                del self._boards_due[tournament_id]
                try:
                    await self.draw_board(tournament_id)
                except Exception as exc:
                    await report_incident(
                        None, exc, f"the board of tournament {tournament_id}", bot=self.bot
                    )
        finally:
            self._plan_boards()

    def _plan_boards(self) -> None:
        if not self.bot.is_ready():
            wait = BOARD_DELAY
        elif self._boards_due:
            wait = max(0.0, min(self._boards_due.values()) - self._board_now())
        else:
            wait = IDLE_SECONDS
        wake_in(self.boards, wait)

    def _board_now(self) -> float:
        return self.bot.services.clock.now().timestamp()

    async def draw_board(self, tournament_id: int, *, redraw: bool = False) -> None:
        """Edit the event's board to the event as it is (``redraw``: even if some process drew
        this version of it already); post it again if it was deleted."""
        async with self.service.board_turn(tournament_id, redraw=redraw) as turn:
            if turn is None or turn.message_id is None:
                return  # drawn already; or no sign-up message stored yet
            record = turn.view.record
            channel = self.bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
            locale = await self.public_locale(record.guild_id)
            picture = await self._board_picture(turn, locale)
            drawn = turn.message_id
            try:
                await channel.get_partial_message(drawn).edit(
                    **self._board_message(turn, locale, picture),
                    attachments=self._board_files(picture),
                )
            except discord.NotFound:
                log.info("tournament %s: its board is gone; posting it again", record.id)
                try:
                    message = await channel.send(
                        **self._board_message(turn, locale, picture),
                        files=self._board_files(picture),
                    )
                except discord.HTTPException as exc:
                    log.warning("tournament %s: could not post its board: %s", record.id, exc)
                    return
                drawn = message.id
            except discord.HTTPException as exc:
                log.info("tournament %s: could not edit its board: %s", record.id, exc)
                return
            await self.service.board_drawn(turn, drawn)

    def _board_message(
        self, turn: BoardTurn, locale: str, picture: tuple[bytes, str] | None
    ) -> dict[str, Any]:
        """The board's content, embed (with the picture when there is one) and buttons."""
        view = turn.view
        embed = signup_embed(view, locale, self._organiser_name(view.record))
        if picture is not None:
            embed.set_image(url=f"attachment://{BOARD_PICTURE}")
        return {
            "content": signup_content(view, locale)[:MESSAGE_LIMIT],
            "embed": embed,
            "view": signup_view(view, locale),
        }

    @staticmethod
    def _board_files(picture: tuple[bytes, str] | None) -> list[discord.File]:
        """The picture as an attachment, its description the alt text screen readers read (a
        fresh file for each request: a sent one is consumed)."""
        if picture is None:
            return []
        png, alt = picture
        return [discord.File(io.BytesIO(png), filename=BOARD_PICTURE, description=alt)]

    @staticmethod
    async def _board_picture(turn: BoardTurn, locale: str) -> tuple[bytes, str] | None:
        """The standings picture and its alt text, once the board shows the standings."""
        view = turn.view
        if view.event is None or not board_shows_standings(view):
            return None
        name = view.record.name
        png = await asyncio.to_thread(render_event_standings, view.event, name, locale=locale)
        return png, standings_description(view.event, name, locale)
