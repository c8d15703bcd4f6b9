"""The play verbs (``/take``, ``/draw``, ``/discard``, ``/declare``, ``/hand``), the scheduler and
the restore after a restart.

Verbs act on the table of the channel they are used in, or, in the bot's DM (where the hand
is), on the one running table the member is seated at: these commands declare the guild and DM
contexts (``allowed_contexts``), so Discord offers them in both. Their tile options
autocomplete from the caller's legal actions (tiles he may discard, discards he may take) and
are checked again by the engine when used.

Tsung Shap uses the same verbs: ``/draw`` turns over the next tile, ``/take`` captures or
claims (its ``tile`` option then autocompletes notations such as ``capture pair left``) and
``/discard side:left|right`` places the turned tile at an end of the row.

**One scheduler.** A single ``discord.ext.tasks`` loop plays expired turns with the computer and
flushes the coalesced table-message edits. It does not tick: after each pass it sleeps until the
next turn deadline or due edit (:meth:`Play.replan`, at most :data:`MAX_SLEEP_SECONDS`), and any
table change wakes it to plan again, so long waits cost nothing and tests jump hours of virtual
time in a few passes. There is no per-table task, so nothing waits on a queue and time comes only
from the injected clock (virtual in tests).

**Restart.** ``cog_load`` rebuilds every unfinished table from the database (before any click can
arrive); on the first ``on_ready`` each table message is edited ("restored", fresh buttons), the
computer seats whose turn it was play on, and turn timers run from their stored deadlines.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.app import KapBot
from bot.engine import plain_notation
from bot.render.family import render_of
from bot.services.tables import Table
from cogs.common import guarded, locale_of, report_incident, wake_in
from cogs.desk import Desk, desk_for
from cogs.ui import KapButton, KapSelect

__all__ = ["Play", "setup"]

log = logging.getLogger(__name__)

MAX_SLEEP_SECONDS = 3600.0
"""The longest the scheduler sleeps with nothing due (a safety net: it is woken on changes)."""

IDLE_SECONDS = 1.0
"""How long the scheduler waits while the bot is not ready yet (nothing can be done then)."""


SIDE_CHOICES = [
    app_commands.Choice(name="left end of the row", value="left"),
    app_commands.Choice(name="right end of the row", value="right"),
]
"""``/discard side:`` (Tsung Shap's): fixed choices, part of the command tree."""


def _matching(
    choices: list[app_commands.Choice[str]], current: str
) -> list[app_commands.Choice[str]]:
    typed = plain_notation(current).strip().casefold()  # a tile copied from a message too
    # The value too: a member may type the notation (``capture``) whatever his language.
    return [c for c in choices if typed in c.name.casefold() or typed in c.value.casefold()][:25]


# Discord reads contexts per top-level command: a decorator on a plain Cog class does nothing.
IN_SERVERS_AND_DMS = app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)


class Play(commands.Cog):
    """Play verbs, the one scheduler loop, and the restore of tables after a restart."""

    def __init__(self, bot: KapBot) -> None:
        """Commands of ``bot``; they share its desk with the buttons."""
        self.bot = bot
        self.desk: Desk = desk_for(bot)
        self._ticking = asyncio.Lock()
        """Held by the scheduler's pass: a stop lets the pass finish before it stops the loop."""

    async def cog_load(self) -> None:
        """Rebuild unfinished tables from the database, then start the scheduler."""
        # Without the start-up repair: the bot ran it before loading the cogs, once for all
        # its processes (bot.app, KapBot.setup_hook).
        self.desk.restored = await self.desk.tables.restore(repair=False)
        self.desk.presenter.wake = self.replan
        self.scheduler.start()

    async def cog_unload(self) -> None:
        """Stop the scheduler once its pass (timers firing, edits) is done (a restart starts a
        new one), draw the table messages whose coalesced edit is still due, and note the time
        of the stop."""
        async with self._ticking:
            self.scheduler.cancel()
        self.desk.presenter.wake = lambda: None
        try:
            await self.desk.presenter.flush_pending(self.desk.tables.tables())
        except Exception:
            log.exception("could not draw the table messages still due")
        try:
            await self.desk.tables.stopping()
        except Exception:
            log.exception("could not record the stop time")

    @tasks.loop(seconds=MAX_SLEEP_SECONDS)
    async def scheduler(self) -> None:
        """Expired turns, then coalesced table edits; then sleep until the next one is due."""
        try:
            async with self._ticking:
                await self.desk.tick()
        except Exception as exc:
            # An escaping exception would stop the loop, and with it every turn timer.
            await report_incident(None, exc, "scheduler tick", bot=self.bot)
        finally:
            self.replan()

    def replan(self) -> None:
        """Set the scheduler's next wake to the earliest turn deadline or due table edit
        (:func:`cogs.common.wake_in`)."""
        now = discord.utils.utcnow()
        if not self.bot.is_ready():
            wait = IDLE_SECONDS
        else:
            dues = [
                due
                for due in (
                    self.desk.tables.next_deadline(),
                    self.desk.presenter.next_flush_at(),
                )
                if due is not None
            ]
            wait = min(dues) - now.timestamp() if dues else MAX_SLEEP_SECONDS
            wait = min(max(wait, 0.0), MAX_SLEEP_SECONDS)
        wake_in(self.scheduler, wait)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Announce the tables restored at start-up (once)."""
        await self.desk.announce_restored()
        self.replan()

    @commands.Cog.listener()
    async def on_kap_table_ended(self, table: Table, admin_id: int) -> None:
        """``/kapadmin endtable`` ended a table: redraw its message and the players' DMs."""
        try:
            await self.desk.table_ended(table, admin_id)
        except Exception as exc:
            await report_incident(None, exc, f"closing table {table.id}", bot=self.bot)

    # ------------------------------------------------------------------------- verbs

    @IN_SERVERS_AND_DMS
    @app_commands.command(name="take", description="Take a face-up discard (Tsung Shap: capture)")
    @app_commands.describe(
        tile="Which discard (default: the most recent one you may take); Tsung Shap: "
        "which capture or claim"
    )
    async def take(self, interaction: discord.Interaction[Any], tile: str | None = None) -> None:
        """Take a discard; at a Tsung Shap table, capture or claim a missed capture."""
        async with guarded(interaction, "/take"):
            await self._verb(interaction, "take", tile=tile)

    @IN_SERVERS_AND_DMS
    @app_commands.command(name="draw", description="Draw a tile from the wall")
    async def draw(self, interaction: discord.Interaction[Any]) -> None:
        """Draw from the wall."""
        async with guarded(interaction, "/draw"):
            await self._verb(interaction, "draw")

    @IN_SERVERS_AND_DMS
    @app_commands.command(
        name="discard", description="Lay a tile from your hand face up (Tsung Shap: place it)"
    )
    @app_commands.describe(
        tile="The tile to discard, e.g. 6-5 or Axe",
        side="Tsung Shap: the end of the row to place your turned tile at",
    )
    @app_commands.choices(side=SIDE_CHOICES)
    async def discard(
        self,
        interaction: discord.Interaction[Any],
        tile: str | None = None,
        side: str | None = None,
    ) -> None:
        """Discard a tile; at a Tsung Shap table, place the turned tile at ``side``."""
        async with guarded(interaction, "/discard"):
            await self._verb(interaction, "discard", tile=tile, side=side)

    @IN_SERVERS_AND_DMS
    @app_commands.command(name="declare", description="Declare your winning hand")
    async def declare(self, interaction: discord.Interaction[Any]) -> None:
        """Declare a win (the engine checks it)."""
        async with guarded(interaction, "/declare"):
            await self._verb(interaction, "declare")

    @IN_SERVERS_AND_DMS
    @app_commands.command(
        name="hint", description="The expert's move and why (unrated tables vs the computer)"
    )
    async def hint(self, interaction: discord.Interaction[Any]) -> None:
        """A hint, privately; refused at a rated or tournament table."""
        async with guarded(interaction, "/hint"):
            await self.desk.hint(interaction, await self.desk.here(interaction))

    @IN_SERVERS_AND_DMS
    @app_commands.command(name="hand", description="See your hand and play (only you see it)")
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        """The hand view, ephemerally."""
        async with guarded(interaction, "/hand"):
            await self.desk.show_hand(interaction, await self.desk.here(interaction))

    async def _verb(
        self, interaction: discord.Interaction[Any], verb: str, **options: str | None
    ) -> None:
        """Play what a verb means at the table here (its game says: the render facet's
        :meth:`~bot.render.family.Surface.verb`)."""
        table = await self.desk.here(interaction)
        await self.desk.act(
            interaction, table, self.desk.notation(interaction, table, verb, options)
        )

    # ------------------------------------------------------------------------- autocomplete

    @discard.autocomplete("tile")
    async def discard_tiles(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """Tiles the caller may discard (on his turn), else the tiles in his hand (Tsung Shap:
        the two ends of the row)."""
        return await self._choices(interaction, "discard", "tile", current)

    @take.autocomplete("tile")
    async def take_tiles(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """Discards the caller may take now (on his turn), else the live discards (Tsung Shap:
        the captures and claims he may make now)."""
        return await self._choices(interaction, "take", "tile", current)

    async def _choices(
        self, interaction: discord.Interaction[Any], verb: str, option: str, current: str
    ) -> list[app_commands.Choice[str]]:
        """A seated player's choices for a verb's option, as his game offers them, matching
        what he typed; none for anybody else (autocomplete cannot explain)."""
        table = await self.desk.find_here(interaction)
        seat_view = None if table is None else table.view_for(interaction.user.id)
        if table is None or table.state is None or seat_view is None or seat_view.seat is None:
            return []
        offered = render_of(table.game).choices(
            verb, option, seat_view, table.legal(), locale_of(interaction)
        )
        return _matching(
            [app_commands.Choice(name=c.label, value=c.value) for c in offered], current
        )

    async def cog_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """Anything the handlers did not catch: log it with an incident id, apologise."""
        await report_incident(interaction, getattr(error, "original", error), "play command")


async def setup(bot: commands.Bot) -> None:
    """Load the cog and register the game's persistent buttons."""
    if not isinstance(bot, KapBot):
        raise TypeError("cogs.play needs a KapBot")
    bot.add_dynamic_items(KapButton, KapSelect)
    await bot.add_cog(Play(bot))
