"""``/tournament …``: events run by the bot (docs/tournaments.md).

Translation only: every decision is :class:`bot.services.tournaments.TournamentService`'s.
This cog is its :class:`~bot.services.tournaments.TournamentHost` (threads, table messages,
posts), owns the sign-up message's Join / Leave buttons (``DynamicItem``s that carry the event
id, so they work after a restart) and runs the event clock (sign-up close, round time limits).

Its parts: the service's Discord side (:mod:`cogs.tournament_host`), the sign-up message and
its buttons (:mod:`cogs.tournament_signup`); here the commands and the clock.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import random
import zipfile
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.app import KapBot
from bot.limits import MAX_ANTE
from bot.locale import date_text, t
from bot.services.errors import UserError
from bot.services.tables import Table
from bot.services.tournaments import TEXT as SERVICE_TEXT
from bot.services.tournaments import (
    EventExport,
    TournamentService,
    explain_rules,
    say_in,
    settings_from_options,
    standings_text,
)
from bot.tournament.describe import match_label
from cogs.common import guarded, locale_of, public_locale_of, report_incident
from cogs.desk import Desk, desk_for
from cogs.tournament_board import TournamentBoardMixin
from cogs.tournament_common import (
    DECIDE_CHOICES,
    DEFAULT_GAME,
    EVENT_HELP,
    FORMAT_CHOICES,
    GAME_CHOICES,
    GROUPS_HELP,
    MAX_GROUP,
    OPTION_HELP,
    PLAYING,
    READABLE,
    SIGN_UP,
    THIRD_PLACE_HELP,
    any_events,
    guild_of,
    manager_of,
    open_events,
)
from cogs.tournament_host import MESSAGE_LIMIT, TournamentHostMixin
from cogs.tournament_organiser import TournamentOrganiserMixin
from cogs.tournament_schedule import TournamentScheduleMixin
from cogs.tournament_signup import (
    TEXT,
    TournamentButton,
    signup_content,
    signup_embed,
    signup_view,
)

__all__ = ["TournamentButton", "Tournaments", "setup"]

log = logging.getLogger(__name__)

_ZIP_TIME = (2000, 1, 1, 0, 0, 0)  # fixed, so the same event always packs the same bytes
CLOCK_SECONDS = 30.0  # how often the event clock looks for a closed sign-up or a round's end


def _upload_limit(interaction: discord.Interaction[Any]) -> int:
    guild = interaction.guild
    return guild.filesize_limit if guild else discord.utils.DEFAULT_FILE_SIZE_LIMIT_BYTES


def export_files(found: EventExport, locale: str, limit: int) -> tuple[list[discord.File], str]:
    """The attachments of ``/tournament export`` and what its answer says.

    ``event-N.json`` (everything), ``standings.csv``, ``matches.csv`` and ``records.zip`` (one
    record file a game, named by its id). Discord refuses a message whose files add up to more
    than the server's upload ``limit``: the zip is then left out and the answer says how to get
    each record instead (``/replay``), so the data itself always comes."""
    number = found.data["id"]
    data = json.dumps(found.data, ensure_ascii=False, indent=1).encode()
    sheets = [
        (f"event-{number}.json", data),
        (f"event-{number}-standings.csv", found.standings_csv.encode()),
        (f"event-{number}-matches.csv", found.matches_csv.encode()),
    ]
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as archive:
        for game_id, text in found.records.items():
            archive.writestr(zipfile.ZipInfo(f"{game_id}.txt", _ZIP_TIME), text)
    archive_bytes = packed.getvalue()
    size = sum(len(b) for _, b in sheets)
    if size + len(archive_bytes) <= limit:
        sheets.append((f"event-{number}-records.zip", archive_bytes))
        text = t(locale, TEXT["exported"], name=found.name, n=len(found.records))
    else:
        text = t(
            locale,
            TEXT["exported_no_records"],
            name=found.name,
            size=f"{len(archive_bytes) / 1e6:.1f}",
            limit=f"{limit / 1e6:.0f}",
        )
    # Not pictures, but a screen reader still reads an attachment's description: its name says
    # what it holds (event-N.json, event-N-standings.csv, event-N-matches.csv, the records zip).
    files = [discord.File(io.BytesIO(b), filename=name, description=name) for name, b in sheets]
    return files, text


@app_commands.guild_only()
class Tournaments(
    TournamentScheduleMixin,
    TournamentOrganiserMixin,
    TournamentBoardMixin,  # the live standings board (issue 23)
    TournamentHostMixin,
    commands.GroupCog,
    group_name="tournament",
    group_description="Tournaments run by the bot",
):
    """The ``/tournament`` group, the event clock and the service's Discord side."""

    def __init__(self, bot: KapBot) -> None:
        """Build the service on the bot's database, chips and tables."""
        self.bot = bot
        self.desk: Desk = desk_for(bot)
        services = bot.services
        # Seeding draws from a copy of the bot's generator (tests seed it), leaving the deals'
        # own sequence untouched.
        seeded = getattr(bot, "_rng", None)
        rng = None
        if isinstance(seeded, random.Random):
            rng = random.Random()
            rng.setstate(seeded.getstate())
        self.service = TournamentService(
            services.db, services.chips, services.tables, services.clock, rng=rng
        )
        self.service.host = self
        ratings = services.ratings

        async def rating_of(guild_id: int, user_id: int, game: str) -> float | None:
            # Seeding by the member's shown (conservative) rating; unrated members are seeded
            # at random after the rated ones.
            found = await ratings.rating(guild_id, user_id, game)
            return None if found is None or found.rating is None else float(found.rating)

        self.service.rating_of = rating_of
        self._resumed = False
        self._ticking = asyncio.Lock()
        """Held by the clock's pass: a stop lets the pass finish before it stops the clock."""
        super().__init__()

    async def cog_load(self) -> None:
        """Listen for ended games and start the event clock."""
        self.bot.services.tables.end_listeners.append(self.service.game_ended)
        self.bot.services.tables.act_listeners.append(self.service.acted)
        self.desk.presenter.event_table = self.service.is_event_table
        self.clock.start()
        self.start_boards()

    async def cog_unload(self) -> None:
        """Stop the clock (once its pass is done) and the listener."""
        async with self._ticking:
            self.clock.cancel()
        await self.stop_boards()
        if self.desk.presenter.event_table == self.service.is_event_table:
            self.desk.presenter.event_table = None
        listeners = self.bot.services.tables.end_listeners
        if self.service.game_ended in listeners:
            listeners.remove(self.service.game_ended)
        acting = self.bot.services.tables.act_listeners
        if self.service.acted in acting:
            acting.remove(self.service.acted)

    @commands.Cog.listener()
    async def on_kap_table_ended(self, table: Table, admin_id: int) -> None:
        """``/kapadmin endtable`` aborted a table: if it played a match, the event replays the
        game at once (see :meth:`TournamentService.table_aborted`)."""
        try:
            await self.service.table_aborted(table.channel_id)
        except Exception as exc:
            await report_incident(
                None, exc, f"replaying the game of table {table.id}", bot=self.bot
            )

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Carry every running event on after a start (once)."""
        if self._resumed:
            return
        self._resumed = True
        try:
            await self.service.resume_all()
            for tournament_id in await self.service.boards_behind():
                self.standings_changed(tournament_id)  # stopped before drawing it
        except Exception as exc:
            await report_incident(None, exc, "resuming tournaments", bot=self.bot)

    @tasks.loop(seconds=CLOCK_SECONDS)
    async def clock(self) -> None:
        """Sign-ups that close, rounds whose time ran out."""
        if not self.bot.is_ready():
            return
        try:
            async with self._ticking:
                await self.service.expire_due()
        except Exception as exc:
            await report_incident(None, exc, "tournament clock", bot=self.bot)

    # ------------------------------------------------------------------------- buttons

    async def join_or_leave(
        self, interaction: discord.Interaction[Any], tournament_id: int, verb: str
    ) -> None:
        """The Join / Leave buttons and commands."""
        user = interaction.user
        if verb == "join":
            view = await self.service.join(tournament_id, user.id, user.display_name)
            waiting = [p for p, _ in view.waitlist]
            if user.id in waiting and view.record.status == "registration":
                said, n = TEXT["waitlisted"], waiting.index(user.id) + 1
            else:
                said, n = TEXT["joined"], 0
            text = t(locale_of(interaction), said, name=view.record.name, n=n)
        elif verb == "checkin":
            view = await self.service.check_in(tournament_id, user.id)
            text = t(locale_of(interaction), SERVICE_TEXT["checked_in"], name=view.record.name)
        elif verb == "remind":
            await self.toggle_reminders(interaction, tournament_id)
            return
        elif verb == "ready":
            match_id = await self.service.ready(tournament_id, user.id)
            view = await self.service.view(tournament_id)
            locale = locale_of(interaction)
            label = match_label(match_id, say_in(locale))
            said = SERVICE_TEXT["ready"]
            text = t(locale, said, match=label, name=view.record.name)
        else:
            view = await self.service.leave(tournament_id, user.id)
            text = t(locale_of(interaction), TEXT["left"], name=view.record.name)
        await interaction.response.send_message(text, ephemeral=True)
        await self.refresh(view.record)

    # ------------------------------------------------------------------------- commands

    @app_commands.command(name="new", description="Create a tournament in this channel")
    @app_commands.describe(
        **OPTION_HELP,
        name="The event's name",
        closes_in="Minutes until sign-up closes and the event starts by itself",
        checkin="Minutes of check-in when it starts (who does not check in is dropped)",
        no_show="Minutes a match's players have to show up (default 5, 0 for none)",
        no_shows="No-shows in a row that withdraw a player (default 1)",
        third_place=THIRD_PLACE_HELP,
        groups=GROUPS_HELP,
        starts="When it starts, in the server's time zone: 2026-12-05 19:30, 19:30, in 2h…",
    )
    @app_commands.choices(game=GAME_CHOICES, format=FORMAT_CHOICES, decide_by=DECIDE_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction[Any],
        name: app_commands.Range[str, 1, 80],
        game: str = DEFAULT_GAME,
        format: str | None = None,
        best_of: app_commands.Range[int, 1, 15] = 1,
        rounds: app_commands.Range[int, 1, 30] | None = None,
        buy_in: app_commands.Range[int, 0, MAX_ANTE] = 0,
        prize_split: str | None = None,
        seats: app_commands.Range[int, 2, 1024] = 64,
        round_minutes: app_commands.Range[int, 5, 1440] = 60,
        timer: app_commands.Range[int, 10, 3600] = 120,
        closes_in: app_commands.Range[int, 1, 10080] | None = None,
        checkin: app_commands.Range[int, 1, 1440] | None = None,
        top_cut: app_commands.Range[int, 0, 64] = 0,
        table_size: app_commands.Range[int, 2, 20] = 6,
        games_per_table: app_commands.Range[int, 1, 20] = 3,
        final_table: app_commands.Range[int, 0, 20] = 6,
        decide_by: str | None = None,
        no_show: app_commands.Range[int, 0, 60] = 5,
        no_shows: app_commands.Range[int, 1, 10] = 1,
        # Formats (issue 23).
        third_place: bool = False,
        groups: app_commands.Range[int, 0, MAX_GROUP] = 0,
        # Schedule (issue 23): when the event starts by itself.
        starts: app_commands.Range[str, 1, 60] | None = None,
        late_until: app_commands.Range[int, 0, 30] = 0,
        arena_minutes: app_commands.Range[int, 5, 720] = 60,
    ) -> None:
        """Create an event and post its sign-up message."""
        async with guarded(interaction, "/tournament new"):
            guild_id = guild_of(interaction)
            if not isinstance(interaction.channel, discord.TextChannel):
                raise UserError(TEXT["text_channel"])
            member = interaction.user
            roles = [r.id for r in getattr(member, "roles", [])]
            if not await self.service.may_organise(
                guild_id, roles, manager=manager_of(interaction)
            ):
                raise UserError(SERVICE_TEXT["may_not_create"])
            settings = settings_from_options(
                game=game,
                format=format,
                best_of=best_of,
                rounds=rounds,
                buy_in=buy_in,
                prize_split=prize_split,
                seats_limit=seats,
                top_cut=top_cut,
                table_size=table_size,
                games_per_table=games_per_table,
                final_table=final_table,
                decide_by=decide_by,
                no_show_minutes=no_show,
                no_show_limit=no_shows,
                third_place=third_place,
                groups=groups,
                late_until=late_until,
                arena_minutes=arena_minutes,
            )
            starts_at = None if starts is None else await self.starts_at(interaction, starts)
            view = await self.service.create(
                guild_id=guild_id,
                channel_id=interaction.channel.id,
                organiser_id=member.id,
                name=name,
                settings=settings,
                round_minutes=round_minutes,
                turn_seconds=timer,
                closes_in_minutes=closes_in,
                checkin_minutes=checkin,
                organiser_name=member.display_name,
                starts_at=starts_at,
            )
            public = await public_locale_of(interaction)
            response = await interaction.response.send_message(
                signup_content(view, public),
                embed=signup_embed(view, public),
                view=signup_view(view, public),
            )
            message_id = response.message_id
            if message_id is None:  # pragma: no cover - Discord always returns it
                message_id = (await interaction.original_response()).id
            await self.service.set_message(view.id, message_id)

    @app_commands.command(name="join", description="Enter the tournament (pays the buy-in)")
    @app_commands.describe(event=EVENT_HELP)
    @app_commands.autocomplete(event=open_events)
    async def join(self, interaction: discord.Interaction[Any], event: int | None = None) -> None:
        """Enter an event."""
        async with guarded(interaction, "/tournament join"):
            view = await self._meant(interaction, event, SIGN_UP, entered=False)
            await self.join_or_leave(interaction, view.id, "join")

    @app_commands.command(name="leave", description="Leave before the start (buy-in refunded)")
    @app_commands.describe(event=EVENT_HELP)
    @app_commands.autocomplete(event=open_events)
    async def leave(self, interaction: discord.Interaction[Any], event: int | None = None) -> None:
        """Leave an event in sign-up."""
        async with guarded(interaction, "/tournament leave"):
            view = await self._meant(interaction, event, ("registration", "check-in"), entered=True)
            await self.join_or_leave(interaction, view.id, "leave")

    @app_commands.command(name="show", description="Post the standings (and bracket) pictures")
    @app_commands.describe(event=EVENT_HELP)
    @app_commands.autocomplete(event=any_events)
    async def show(self, interaction: discord.Interaction[Any], event: int | None = None) -> None:
        """Standings of an event, as text and pictures."""
        async with guarded(interaction, "/tournament show"):
            view = await self._meant(interaction, event)
            if view.event is None:
                await interaction.response.send_message(
                    embed=signup_embed(view, locale_of(interaction)), ephemeral=True
                )
                return
            public = await public_locale_of(interaction)
            await interaction.response.defer(thinking=True)
            files = await self._pictures(view.record, public)
            text = f"**{view.record.name}**\n{standings_text(view.event, say=say_in(public))}"
            await interaction.followup.send(text[:MESSAGE_LIMIT], files=files)

    @app_commands.command(name="rules", description="The rules of a tournament")
    @app_commands.describe(event=EVENT_HELP)
    @app_commands.autocomplete(event=any_events)
    async def rules(self, interaction: discord.Interaction[Any], event: int | None = None) -> None:
        """Explain an event's format, tie-breaks, time rule and prizes."""
        async with guarded(interaction, "/tournament rules"):
            view = await self._meant(interaction, event)
            entrants = len(view.event.players) if view.event else len(view.entries) or None
            starters = view.event.starters if view.event else None
            say = say_in(locale_of(interaction))
            text = explain_rules(view.settings, entrants, say, starters=starters)
            await interaction.response.send_message(text[:MESSAGE_LIMIT], ephemeral=True)

    @app_commands.command(name="history", description="Past tournaments of this server")
    async def history(self, interaction: discord.Interaction[Any]) -> None:
        """Finished events with their winners."""
        async with guarded(interaction, "/tournament history"):
            records = await self.service.history(guild_of(interaction))
            if not records:
                await interaction.response.send_message(
                    t(locale_of(interaction), TEXT["no_history"]), ephemeral=True
                )
                return
            public = await public_locale_of(interaction)
            lines = []
            for record in records:
                results = record.results or {}
                top = t(public, ", ").join(
                    f"{i}. {name}" for i, (_, name) in enumerate(results.get("ranking", [])[:3], 1)
                )
                when = date_text(public, record.finished_at) if record.finished_at else ""
                lines.append(
                    t(public, TEXT["history"], id=record.id, name=record.name, when=when, top=top)
                )
            await interaction.response.send_message("\n".join(lines)[:MESSAGE_LIMIT])

    @app_commands.command(
        name="export", description="The whole event as JSON, CSV and game records"
    )
    @app_commands.describe(event=EVENT_HELP)
    @app_commands.autocomplete(event=any_events)
    async def export(self, interaction: discord.Interaction[Any], event: int | None = None) -> None:
        """Hand anyone in the server the event's data once it has results (while it runs too:
        the standings are public anyway), privately."""
        async with guarded(interaction, "/tournament export"):
            view = await self._meant(interaction, event, READABLE)
            await interaction.response.defer(ephemeral=True, thinking=True)
            found = await self.service.export(view.id, guild_of(interaction))
            files, text = export_files(found, locale_of(interaction), _upload_limit(interaction))
            await interaction.followup.send(text, files=files, ephemeral=True)

    @app_commands.command(name="drop", description="Leave a running tournament")
    @app_commands.describe(event=EVENT_HELP)
    @app_commands.autocomplete(event=open_events)
    async def drop(self, interaction: discord.Interaction[Any], event: int | None = None) -> None:
        """Drop out; results so far stand."""
        async with guarded(interaction, "/tournament drop"):
            view = await self._meant(interaction, event, PLAYING, entered=True)
            await self._act(
                interaction,
                lambda: self.service.drop(view.id, interaction.user.id),
                TEXT["dropped"],
            )

    # ------------------------------------------------------------------------- helpers

    async def cog_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """Anything the handlers did not catch: log it with an incident id, apologise."""
        await report_incident(interaction, getattr(error, "original", error), "/tournament")


async def setup(bot: commands.Bot) -> None:
    """Load the cog and register the sign-up buttons."""
    if not isinstance(bot, KapBot):
        raise TypeError("cogs.tournaments needs a KapBot")
    bot.add_dynamic_items(TournamentButton)
    await bot.add_cog(Tournaments(bot))
