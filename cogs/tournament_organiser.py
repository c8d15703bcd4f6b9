"""The organiser's ``/tournament`` commands: edit, fill, remove, seed, start, disqualify,
repair, result, pause, resume and cancel.

:class:`TournamentOrganiserMixin` is a part of the ``/tournament`` cog
(:class:`cogs.tournaments.Tournaments`); every decision is the service's.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.limits import MAX_ANTE
from bot.locale import nt, t
from bot.services.errors import UserError
from bot.services.tournaments import settings_from_options
from cogs.common import guarded, locale_of, public_locale_of
from cogs.tournament_board import TournamentBoardMixin
from cogs.tournament_common import (
    DECIDE_CHOICES,
    EVENT_HELP,
    FORMAT_CHOICES,
    GAME_CHOICES,
    GROUPS_HELP,
    LEVEL_CHOICES,
    MAX_GROUP,
    MENTION,
    OPTION_HELP,
    PLAYING,
    SIGN_UP,
    THIRD_PLACE_HELP,
    TournamentCommands,
    manager_of,
    open_events,
)
from cogs.tournament_signup import TEXT

__all__ = ["TournamentOrganiserMixin"]

log = logging.getLogger("cogs.tournaments")


class TournamentOrganiserMixin(TournamentCommands, TournamentBoardMixin, commands.Cog):
    """The commands only an event's organiser (or a server manager) may use. A cog only for
    its commands' sake: :class:`~cogs.tournaments.Tournaments` gathers them into its group."""

    @app_commands.command(name="edit", description="Change an event's settings before the start")
    @app_commands.describe(
        **OPTION_HELP,
        event=EVENT_HELP,
        third_place=THIRD_PLACE_HELP,
        groups=GROUPS_HELP,
        grand_final_reset="Double elimination: a second final if the losers' champion wins",
        starts="A new start, in the server's time zone: 2026-12-05 19:30, 19:30, in 2h…",
    )
    @app_commands.choices(game=GAME_CHOICES, format=FORMAT_CHOICES, decide_by=DECIDE_CHOICES)
    @app_commands.autocomplete(event=open_events)
    async def edit(
        self,
        interaction: discord.Interaction[Any],
        game: str | None = None,
        format: str | None = None,
        best_of: app_commands.Range[int, 1, 15] | None = None,
        rounds: app_commands.Range[int, 1, 30] | None = None,
        buy_in: app_commands.Range[int, 0, MAX_ANTE] | None = None,
        prize_split: str | None = None,
        seats: app_commands.Range[int, 2, 1024] | None = None,
        round_minutes: app_commands.Range[int, 5, 1440] | None = None,
        timer: app_commands.Range[int, 10, 3600] | None = None,
        top_cut: app_commands.Range[int, 0, 64] | None = None,
        table_size: app_commands.Range[int, 2, 20] | None = None,
        games_per_table: app_commands.Range[int, 1, 20] | None = None,
        final_table: app_commands.Range[int, 0, 20] | None = None,
        decide_by: str | None = None,
        event: int | None = None,
        # Formats (issue 23); the grand-final reset only here (new is at Discord's 25 options).
        third_place: bool | None = None,
        groups: app_commands.Range[int, 0, MAX_GROUP] | None = None,
        grand_final_reset: bool | None = None,
        # Schedule (issue 23): a new start time.
        starts: app_commands.Range[str, 1, 60] | None = None,
        late_until: app_commands.Range[int, 0, 30] | None = None,
        arena_minutes: app_commands.Range[int, 5, 720] | None = None,
    ) -> None:
        """Change the options given (the others stay), validated as ``new`` validates them;
        the sign-up message shows the new rules."""
        async with guarded(interaction, "/tournament edit"):
            view = await self._for_organiser(interaction, event, ("registration", "check-in"))
            now = view.settings
            # A new game without a format takes the game's own format, as in ``new``.
            keep_format = None if game is not None else now.format.value
            settings = settings_from_options(
                game=game if game is not None else now.game,
                format=format if format is not None else keep_format,
                best_of=best_of if best_of is not None else now.best_of,
                rounds=rounds if rounds is not None else now.rounds,
                buy_in=buy_in if buy_in is not None else now.buy_in,
                prize_split=prize_split or "/".join(str(p) for p in now.prize_split),
                seats_limit=seats if seats is not None else now.seats_limit,
                top_cut=top_cut if top_cut is not None else now.top_cut,
                table_size=table_size if table_size is not None else now.table_size,
                games_per_table=(
                    games_per_table if games_per_table is not None else now.games_per_table
                ),
                final_table=final_table if final_table is not None else now.final_table,
                decide_by=decide_by if decide_by is not None else now.decide_by.value,
                # Not options of edit: kept (they fell back to their defaults before).
                no_show_minutes=now.no_show_minutes,
                no_show_limit=now.no_show_limit,
                third_place=third_place if third_place is not None else now.third_place,
                groups=groups if groups is not None else now.groups,
                grand_final_reset=(
                    grand_final_reset if grand_final_reset is not None else now.grand_final_reset
                ),
                late_until=late_until if late_until is not None else now.late_until,
                arena_minutes=arena_minutes if arena_minutes is not None else now.arena_minutes,
            )
            view = await self.service.edit(
                view.id,
                interaction.user.id,
                settings,
                round_minutes=round_minutes,
                turn_seconds=timer,
                manager=manager_of(interaction),
                starts_at=None if starts is None else await self.starts_at(interaction, starts),
            )
            await interaction.response.send_message(
                t(locale_of(interaction), TEXT["edited"], name=view.record.name), ephemeral=True
            )
            await self.refresh(view.record)

    @app_commands.command(name="fill", description="Add computer players (organiser)")
    @app_commands.describe(count="How many", level="How well they play", event=EVENT_HELP)
    @app_commands.choices(level=LEVEL_CHOICES)
    @app_commands.autocomplete(event=open_events)
    async def fill(
        self,
        interaction: discord.Interaction[Any],
        count: app_commands.Range[int, 1, 64],
        level: str = "greedy",
        event: int | None = None,
    ) -> None:
        """Fill an event with computer players."""
        async with guarded(interaction, "/tournament fill"):
            view = await self._for_organiser(interaction, event, SIGN_UP)
            view = await self.service.fill(
                view.id,
                interaction.user.id,
                count,
                level,
                manager=manager_of(interaction),
                locale=await public_locale_of(interaction),
            )
            filled = nt(
                locale_of(interaction),
                "Added {n} computer player to **{name}**.",
                "Added {n} computer players to **{name}**.",
                count,
                name=view.record.name,
            )
            await interaction.response.send_message(filled, ephemeral=True)
            await self.refresh(view.record)

    @app_commands.command(
        name="remove", description="Take an entrant out before the start, refunded (organiser)"
    )
    @app_commands.describe(member="The entrant", event=EVENT_HELP)
    @app_commands.autocomplete(event=open_events)
    async def remove(
        self,
        interaction: discord.Interaction[Any],
        member: discord.Member,
        event: int | None = None,
    ) -> None:
        """Remove an entrant before the start; his buy-in comes back and he is told by DM."""
        async with guarded(interaction, "/tournament remove"):
            view = await self._for_organiser(interaction, event, ("registration", "check-in"))
            view, refunded = await self.service.remove(
                view.id, interaction.user.id, member.id, manager=manager_of(interaction)
            )
            name = view.record.name
            await interaction.response.send_message(
                t(locale_of(interaction), TEXT["removed"], who=member.display_name, name=name),
                ephemeral=True,
            )
            await self.refresh(view.record)
            # The member's own language is unknown outside an interaction: the server's.
            told = t(await public_locale_of(interaction), TEXT["removed_dm"], name=name, n=refunded)
            try:
                await member.send(told)
            except discord.HTTPException:
                log.info("could not DM %s about his removal from event %s", member.id, view.id)

    @app_commands.command(name="seed", description="Set the first seeds by hand (organiser)")
    @app_commands.describe(
        order="The entrants as mentions, seed 1 first (empty: by rating again)",
        event=EVENT_HELP,
    )
    @app_commands.autocomplete(event=open_events)
    async def seed(
        self,
        interaction: discord.Interaction[Any],
        order: app_commands.Range[str, 0, 2000] = "",
        event: int | None = None,
    ) -> None:
        """Seed entrants by hand before the start; the others follow by rating."""
        async with guarded(interaction, "/tournament seed"):
            view = await self._for_organiser(interaction, event, ("registration", "check-in"))
            ids = [int(m) for m in MENTION.findall(order)]
            if MENTION.sub("", order).strip() or len(ids) > len(view.entries):
                raise UserError(TEXT["seed_order"])
            view = await self.service.seed(
                view.id, interaction.user.id, ids, manager=manager_of(interaction)
            )
            names = {e.user_id: e.name for e in view.entries}
            shown = t(locale_of(interaction), ", ").join(
                f"{i}. {names.get(p, p)}" for i, p in enumerate(ids, 1)
            )
            said = TEXT["seeded"] if ids else TEXT["seeded_none"]
            await interaction.response.send_message(
                t(locale_of(interaction), said, name=view.record.name, order=shown),
                ephemeral=True,
            )

    @app_commands.command(name="start", description="Close sign-up and start (organiser)")
    @app_commands.describe(event=EVENT_HELP)
    @app_commands.autocomplete(event=open_events)
    async def start(self, interaction: discord.Interaction[Any], event: int | None = None) -> None:
        """Start an event."""
        async with guarded(interaction, "/tournament start"):
            view = await self._for_organiser(interaction, event, ("registration", "check-in"))
            manager = manager_of(interaction)
            self.service.need_organiser(view.record, interaction.user.id, manager)
            # Answered privately once the start is done: a refused start (too few players, say)
            # must not have been announced, and the service posts the public notices itself
            # (check-in open, or the first round's pairings).
            await interaction.response.defer(ephemeral=True, thinking=True)
            view = await self.service.start(view.id, interaction.user.id, manager=manager)
            done = TEXT["checkin_opened"] if view.record.status == "check-in" else TEXT["started"]
            await interaction.followup.send(
                t(locale_of(interaction), done, name=view.record.name), ephemeral=True
            )

    @app_commands.command(name="disqualify", description="Disqualify a player (organiser)")
    @app_commands.describe(member="The player", event=EVENT_HELP)
    @app_commands.autocomplete(event=open_events)
    async def disqualify(
        self,
        interaction: discord.Interaction[Any],
        member: discord.Member,
        event: int | None = None,
    ) -> None:
        """Disqualify a player: no prize, no more pairings."""
        async with guarded(interaction, "/tournament disqualify"):
            view = await self._for_organiser(interaction, event, PLAYING, player=member.id)
            await self._act(
                interaction,
                lambda: self.service.drop(
                    view.id,
                    member.id,
                    actor_id=interaction.user.id,
                    disqualify=True,
                    manager=manager_of(interaction),
                ),
            )

    @app_commands.command(name="repair", description="Pair the current round again (organiser)")
    @app_commands.describe(event=EVENT_HELP)
    @app_commands.autocomplete(event=open_events)
    async def repair(self, interaction: discord.Interaction[Any], event: int | None = None) -> None:
        """Re-pair a round before its games are in."""
        async with guarded(interaction, "/tournament repair"):
            view = await self._for_organiser(interaction, event, PLAYING)
            await self._act(
                interaction,
                lambda: self.service.repair(
                    view.id, interaction.user.id, manager=manager_of(interaction)
                ),
            )

    @app_commands.command(
        name="result", description="Enter or correct a match's result, with a reason (organiser)"
    )
    @app_commands.describe(
        match="The match, as the pairings name it (e.g. R2-3)",
        reason="Why (kept in the event's history and posted)",
        winner="Who won the match",
        drawn="The match is drawn (instead of a winner)",
        event=EVENT_HELP,
    )
    @app_commands.autocomplete(event=open_events)
    async def result(
        self,
        interaction: discord.Interaction[Any],
        match: app_commands.Range[str, 1, 20],
        reason: app_commands.Range[str, 1, 300],
        winner: discord.Member | None = None,
        drawn: bool = False,
        event: int | None = None,
    ) -> None:
        """Set a two-player match's result in the current round; the standings follow."""
        async with guarded(interaction, "/tournament result"):
            if (winner is None) == (not drawn):
                raise UserError(TEXT["winner_or_draw"])
            view = await self._for_organiser(interaction, event, PLAYING)
            await self._act(
                interaction,
                lambda: self.service.set_result(
                    view.id,
                    interaction.user.id,
                    match,
                    None if winner is None else winner.id,
                    reason,
                    manager=manager_of(interaction),
                ),
            )

    @app_commands.command(name="pause", description="Pause a tournament (organiser)")
    @app_commands.describe(event=EVENT_HELP)
    @app_commands.autocomplete(event=open_events)
    async def pause(self, interaction: discord.Interaction[Any], event: int | None = None) -> None:
        """Pause: no new games, the round clock stops."""
        async with guarded(interaction, "/tournament pause"):
            view = await self._for_organiser(interaction, event, ("running",))
            await self._act(
                interaction,
                lambda: self.service.pause(
                    view.id, interaction.user.id, manager=manager_of(interaction)
                ),
            )

    @app_commands.command(name="resume", description="Resume a paused tournament (organiser)")
    @app_commands.describe(event=EVENT_HELP)
    @app_commands.autocomplete(event=open_events)
    async def resume(self, interaction: discord.Interaction[Any], event: int | None = None) -> None:
        """Resume after a pause."""
        async with guarded(interaction, "/tournament resume"):
            view = await self._for_organiser(interaction, event, ("paused",))
            await self._act(
                interaction,
                lambda: self.service.resume(
                    view.id, interaction.user.id, manager=manager_of(interaction)
                ),
            )

    @app_commands.command(name="cancel", description="Cancel and refund every buy-in (organiser)")
    @app_commands.describe(event=EVENT_HELP)
    @app_commands.autocomplete(event=open_events)
    async def cancel(self, interaction: discord.Interaction[Any], event: int | None = None) -> None:
        """Cancel an event."""
        async with guarded(interaction, "/tournament cancel"):
            view = await self._for_organiser(interaction, event)
            await self._act(
                interaction,
                lambda: self.service.cancel(
                    view.id, interaction.user.id, manager=manager_of(interaction)
                ),
            )
