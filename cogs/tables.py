"""``/table …``: open a lobby, fill it, start, cancel, resign, show the table, explain its rules.

The lobby message's buttons (Join, Leave, Add AI, Start, Cancel) do the same as these commands:
both call :class:`cogs.desk.Desk`.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import KapBot
from bot.games import UnknownGame, default_game, find, games
from bot.limits import MAX_ANTE, MAX_SETTLE_RATE, MAX_TURN_SECONDS, MIN_TURN_SECONDS
from bot.services.errors import UserError
from bot.services.variants import parse_variants, variant_suggestions
from cogs.common import guarded, locale_of, report_incident
from cogs.desk import Desk, ai_levels, desk_for, level_choices
from cogs.ui import KapButton, KapSelect

__all__ = ["Tables", "setup"]

GAME_CHOICES = [app_commands.Choice(name=g.table_choice, value=g.name) for g in games()]
"""``game:`` of ``/table new`` and ``/table rules``: every registered game (built when the
extension loads, so a game registered before, a test's, is offered too)."""
DEFAULT_GAME = default_game()
SETTLEMENT_CHOICES = [
    app_commands.Choice(name="Pot: the winner takes the pot", value="pot"),
    app_commands.Choice(
        name="Difference: the loser pays per point (Tsung Shap)", value="difference"
    ),
]
RULE_CHOICES = [
    app_commands.Choice(name="Culin: take any discard, then draw", value="culin"),
    app_commands.Choice(name="Classic: take the last discard or draw", value="classic"),
    app_commands.Choice(name="Last + draw: take the last discard, then draw", value="last-draw"),
]
LEVEL_CHOICES = level_choices(ai_levels())


def game_of(value: str) -> str:
    """The game an option names (refused in words if no family registered it)."""
    try:
        return find(value).name
    except UnknownGame:
        raise UserError("Choose the game from the list.") from None


@app_commands.guild_only()
class Tables(
    commands.GroupCog,
    group_name="table",
    group_description="Tables of Kap Shap, Kap Tai Shap and Tsung Shap",
):
    """The ``/table`` command group."""

    def __init__(self, bot: KapBot) -> None:
        """Commands of ``bot``; they share its desk with the buttons."""
        self.bot = bot
        self.desk: Desk = desk_for(bot)
        super().__init__()

    @app_commands.command(name="new", description="Open a table in this channel (or a thread)")
    @app_commands.describe(
        game="Which game (default Kap Shap)",
        rules="Rule set (default: Culin; Classic for Kap Tai Shap with 5 or more)",
        ante="Chips every player pays into the pot (default: the server's)",
        seats="Most players who can sit (Kap Shap: 2)",
        sets="Domino sets in play (Kap Tai Shap; default about 2 per 5 players)",
        timer="Seconds per turn before the computer plays for an absent player",
        thread="Open the table in a new thread of this channel",
        settlement="Tsung Shap: how the game is paid (default: the pot)",
        rate="Tsung Shap, settlement by difference: chips per point (default 1)",
        variant="Rule variants as flag=value, e.g. pot_carries_over=true four_two_value=wild",
        rated="False: the game moves no rating, and hints are allowed against the computer",
    )
    @app_commands.choices(game=GAME_CHOICES, rules=RULE_CHOICES, settlement=SETTLEMENT_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction[Any],
        game: str = DEFAULT_GAME,
        rules: str | None = None,
        ante: app_commands.Range[int, 0, MAX_ANTE] | None = None,
        seats: app_commands.Range[int, 2, 28] | None = None,
        sets: app_commands.Range[int, 1, 8] | None = None,
        timer: app_commands.Range[int, MIN_TURN_SECONDS, MAX_TURN_SECONDS] | None = None,
        thread: bool = False,
        settlement: str | None = None,
        rate: app_commands.Range[int, 1, MAX_SETTLE_RATE] | None = None,
        variant: str | None = None,
        rated: bool = True,
    ) -> None:
        """Open a lobby."""
        async with guarded(interaction, "/table new"):
            await self.desk.new_table(
                interaction,
                game=game,
                rule_set=rules,
                ante=ante,
                seats=seats,
                sets=sets,
                timer=timer,
                thread=thread,
                settlement=settlement,
                settle_rate=rate,
                variants=parse_variants(game_of(game), variant),
                rated=rated,
            )

    @new.autocomplete("variant")
    async def variant_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """The variants of the game chosen so far (the default game until one is)."""
        chosen = getattr(interaction.namespace, "game", None) or DEFAULT_GAME
        return [
            app_commands.Choice(name=label, value=value)
            for label, value in variant_suggestions(
                game_of(chosen), current, locale_of(interaction)
            )
        ]

    @app_commands.command(name="join", description="Sit down at the table in this channel")
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        """Join the lobby."""
        async with guarded(interaction, "/table join"):
            await self.desk.join(interaction, await self.desk.here(interaction))

    @app_commands.command(name="leave", description="Leave the table in this channel")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """Leave the lobby."""
        async with guarded(interaction, "/table leave"):
            await self.desk.leave(interaction, await self.desk.here(interaction))

    @app_commands.command(name="addbot", description="Add a computer player (host only)")
    @app_commands.describe(level="How well it plays (default: the level nearest your rating)")
    @app_commands.choices(level=LEVEL_CHOICES)
    async def addbot(self, interaction: discord.Interaction[Any], level: str | None = None) -> None:
        """Add an AI seat."""
        async with guarded(interaction, "/table addbot"):
            await self.desk.add_ai(interaction, await self.desk.here(interaction), level)

    @app_commands.command(name="start", description="Start the game (host only)")
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        """Escrow the antes, deal, post the table."""
        async with guarded(interaction, "/table start"):
            await self.desk.start(interaction, await self.desk.here(interaction))

    @app_commands.command(name="cancel", description="Close the lobby (host only)")
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        """Cancel the lobby."""
        async with guarded(interaction, "/table cancel"):
            await self.desk.cancel(interaction, await self.desk.here(interaction))

    @app_commands.command(name="resign", description="Give up the game you are playing here")
    async def resign(self, interaction: discord.Interaction[Any]) -> None:
        """Resign, once confirmed: at two seats the opponent wins; at a larger table the seat
        folds."""
        async with guarded(interaction, "/table resign"):
            await self.desk.ask_resign(interaction, await self.desk.here(interaction))

    @app_commands.command(name="show", description="Post the table message again")
    async def show(self, interaction: discord.Interaction[Any]) -> None:
        """Repost the table message."""
        async with guarded(interaction, "/table show"):
            await self.desk.show(interaction)

    @app_commands.command(name="rules", description="Explain the rules in force at this table")
    @app_commands.describe(game="Explain a game's default rules instead")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction[Any], game: str | None = None) -> None:
        """Explain the rules."""
        async with guarded(interaction, "/table rules"):
            channel_id = interaction.channel_id
            table = None if channel_id is None else await self.desk.tables.lookup(channel_id)
            await self.desk.rules(interaction, table, game)

    async def cog_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """Anything the handlers did not catch: log it with an incident id, apologise."""
        await report_incident(interaction, getattr(error, "original", error), "/table")


async def setup(bot: commands.Bot) -> None:
    """Load the cog and register the game's persistent buttons."""
    if not isinstance(bot, KapBot):
        raise TypeError("cogs.tables needs a KapBot")
    bot.add_dynamic_items(KapButton, KapSelect)
    await bot.add_cog(Tables(bot))
