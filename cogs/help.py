"""``/help`` (how each game is won, the commands, the buttons, the computer levels) and a
member's own ``/settings`` (turn notices on or off).

Both work in servers and in the bot's DM. discord.py's text help command is switched off in
:class:`bot.app.KapBot` (``help_command=None``): the bot answers slash commands only.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import KapBot
from bot.locale import N_, t
from bot.locale.levels import LEVEL_NAMES, level_name
from bot.services.server import DEFAULT_TIMEOUT_LIMIT, GUIDE_GAMES
from cogs.common import guarded, locale_of
from cogs.presenter import COLOUR

__all__ = ["HELP_SECTIONS", "Help", "help_embed", "setup"]

EVERYWHERE = app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)

HELP_SECTIONS: tuple[tuple[str, str], ...] = (
    (
        N_("Kap Shap 夾十 (2 players) and Kap Tai Shap 夾大十 (2-20)"),
        N_(
            "Collect a winning hand: one **eye** (two identical tiles) and the rest in "
            "**ten-pairs** (two tiles whose pips total 10 or 20; 4-2 counts 3). Kap Shap holds 8 "
            "tiles (eye + 3 pairs), Kap Tai Shap 10 (eye + 4 pairs). On your turn take a face-up "
            "discard or draw from the wall, then discard; declare when your hand wins. The winner "
            "takes the pot."
        ),
    ),
    (
        N_("Tsung Shap 爭十 (2 players)"),
        N_(
            "No hand: each player turns over the next tile of his pile and either **captures** "
            "(a pair with an end of the row, or three tiles totalling a multiple of ten) or places "
            "it at an end of the row. Captures score points; when a player has laid out all his "
            "tiles the higher score wins."
        ),
    ),
    (
        N_("Learn to play"),
        N_(
            "New to these games? `/learn` teaches each of them in short interactive lessons, "
            "then opens a practice game against the gentlest computer."
        ),
    ),
    (
        N_("Puzzles, hints and the hand guide"),
        N_(
            '`/puzzle` a position to solve, only you see it ("what do you discard?", "take or '
            'draw?", "which capture?"); `/puzzles leaderboard` the best solvers here · '
            "`/hint` (or **Hint** under your hand) the expert's move and why, at a table against "
            "the computer that is not rated · the **hand guide** groups your hand into the eye "
            "and the ten-pairs and names the tiles you wait on: on for your first {guide_games} "
            "games of each game, `/settings guide:` turns it on or off."
        ),
    ),
    (
        N_("Commands"),
        N_(
            "`/table new` open a table (here or in a thread) · `/table join`, `leave`, `addbot`, "
            "`start`, `cancel` · `/table resign` give up your game · `/table show` post the table "
            "again · `/table rules`\n"
            "`/draw`, `/take`, `/discard`, `/declare`, `/hand` play (in the table's channel, or in "
            "my DM when you play at one table)\n"
            "`/chips …` balance, daily chips, gifts · `/leaderboard` · `/settings` your turn "
            "notices, reviews · `/kapadmin …` server managers (settings, the house, ending a table)"
        ),
    ),
    (
        N_("Buttons"),
        N_(
            "Lobby: **Join**, **Leave**, **Add AI**, **Start**, **Cancel**. Table: **My hand** "
            "(your hand, only you see it), **Rules**; Tsung Shap's play buttons are on the table. "
            "Your DM: **Draw**, **Take …**, **Discard …**, **Declare** on your turn. At the end: "
            "**Rematch** (same seats, same stakes)."
        ),
    ),
    (
        N_("Computer players"),
        N_(
            "**{novice}** plays his very first game: misses his own wins and half of what he "
            "could take · **{beginner}** makes the obvious moves and misjudges most others · "
            "**{casual}**, "
            "**{club}** and **{strong}** play like the expert but misjudge less and less often · "
            "**{expert}** also reckons with the tiles nobody has seen yet · **{master}** plays "
            "each move out many times before choosing (slower). Not every game offers every "
            "level; Add AI offers first the one nearest your rating. The house stakes their "
            "antes and collects when they win, so beating them wins their antes."
        ),
    ),
    (
        N_("Your turn"),
        N_(
            "When your turn starts I send your hand again as a new DM, so Discord tells you. If "
            "you don't play in time your turn is played passively (draw and discard, never a win); "
            "after {timeouts} timeouts in a row you are out. Closed DMs? I mention you at the "
            "table."
        ),
    ),
)


def help_embed(locale: str = "en", timeouts: int = DEFAULT_TIMEOUT_LIMIT) -> discord.Embed:
    """The help screen in ``locale``; ``timeouts``: how many timeouts in a row put a player out
    (the server's setting). The computer levels are named as everywhere (their names, not
    their codes: bot.locale.levels)."""
    values = {level: level_name(locale, level) for level in LEVEL_NAMES}
    values["timeouts"] = str(timeouts)
    values["guide_games"] = str(GUIDE_GAMES)
    embed = discord.Embed(title=t(locale, "Kap Shap — how to play"), colour=COLOUR)
    for name, value in HELP_SECTIONS:
        embed.add_field(name=t(locale, name), value=t(locale, value, **values), inline=False)
    return embed


class Help(commands.Cog):
    """``/help`` and ``/settings``."""

    def __init__(self, bot: KapBot) -> None:
        """Commands of ``bot``."""
        self.bot = bot

    @EVERYWHERE
    @app_commands.command(name="help", description="How the games are won, the commands, buttons")
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        """The help screen, privately."""
        async with guarded(interaction, "/help"):
            timeouts = DEFAULT_TIMEOUT_LIMIT
            if interaction.guild_id is not None:
                play = await self.bot.services.server.play_settings(interaction.guild_id)
                timeouts = play.timeout_limit
            await interaction.response.send_message(
                embed=help_embed(locale_of(interaction), timeouts), ephemeral=True
            )

    @EVERYWHERE
    @app_commands.command(
        name="settings", description="Your own settings (turn notices, reviews, hand guide)"
    )
    @app_commands.describe(
        notices="Be told when your turn starts (a new DM or a mention)",
        reviews="Let other members /review your finished games",
        guide="Show the hand guide: your eye, ten-pairs and the tiles you wait on",
    )
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        notices: bool | None = None,
        reviews: bool | None = None,
        guide: bool | None = None,
    ) -> None:
        """Show or change the member's own settings."""
        async with guarded(interaction, "/settings"):
            server = self.bot.services.server
            user_id = interaction.user.id
            if notices is not None:
                await server.set_notices(user_id, notices)
            if reviews is not None:
                await server.set_reviews_allowed(user_id, reviews)
            if guide is not None:
                await server.set_guide(user_id, guide)
            guided = await server.guide_choice(user_id)
            on = await server.notices_on(user_id)
            others = await server.reviews_allowed(user_id)
            locale = locale_of(interaction)
            state = (
                t(locale, "on: when your turn starts you get a new DM (or a mention at the table)")
                if on
                else t(locale, "off: your hand DM is updated silently, nobody calls you")
            )
            changed = (notices, reviews, guide)
            head = t(locale, "Saved. ") if any(v is not None for v in changed) else ""
            guide_state = (
                t(locale, "for your first {n} games of each game", n=GUIDE_GAMES)
                if guided is None
                else t(locale, "on")
                if guided
                else t(locale, "off")
            )
            who = (
                t(locale, "anyone may review your games")
                if others
                else t(locale, "only you review your games")
            )
            await interaction.response.send_message(
                head
                + t(
                    locale,
                    "Turn notices are **{state}**. Change with `/settings notices:`.",
                    state=state,
                )
                + "\n"
                + t(
                    locale,
                    "Reviews: **{who}** (unless the server makes reviews public). "
                    "Change with `/settings reviews:`.",
                    who=who,
                )
                + "\n"
                + t(
                    locale,
                    "Hand guide: **{state}**. Change with `/settings guide:`.",
                    state=guide_state,
                ),
                ephemeral=True,
            )


async def setup(bot: commands.Bot) -> None:
    """Load the cog."""
    if not isinstance(bot, KapBot):  # pragma: no cover - loaded by KapBot only
        raise TypeError("cogs.help needs a KapBot")
    await bot.add_cog(Help(bot))
