"""Puzzles on Discord: ``/puzzle [game]`` (private), ``/puzzles leaderboard``, ``/puzzles
daily [channel] [stop]`` (Manage Server) and the daily puzzle's post.

The cog only translates: :class:`~bot.services.puzzles.PuzzleService` chooses, judges, rates
and schedules; the game's render facet draws the position (the picture a review shows).

**Buttons** (persistent, :class:`discord.ui.DynamicItem`, so a daily post answers after a
restart): an answer ``pz:{game}:{number}:{choice}`` (the choice's index among the puzzle's
answers) and "Another puzzle" ``pzn:{game}``. Answering is always private: on the member's own
(ephemeral) puzzle the message is edited in place with the explanation; on a daily post he gets
his own private reply.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.app import KapBot, Services
from bot.games import find, games
from bot.locale import t
from bot.render.family import render_of
from bot.services.errors import UserError, mention
from bot.services.puzzle_text import explanation, margin_text
from bot.services.puzzles import Answered, PuzzleService
from bot.services.review_text import position_lines
from cogs.common import guarded, locale_of, report_incident, services_of

__all__ = ["ANSWER_ID", "AnotherPuzzleButton", "PuzzleAnswerButton", "PuzzlesCog", "setup"]

ANSWER_ID = "pz:{game}:{number}:{choice}"
"""Custom id of an answer button."""

ANOTHER_ID = "pzn:{game}"
"""Custom id of the "Another puzzle" button (``game`` empty: any game)."""

DAILY_SECONDS = 60.0
"""How often the daily puzzles due are looked for."""

MAX_ANSWERS = 20
"""Answer buttons at most (Discord allows 25 components; a row is left for "Another")."""

PICTURE_FILE = "puzzle.png"

NO_PINGS = discord.AllowedMentions.none()

GAME_CHOICES = [app_commands.Choice(name=game.name, value=game.name) for game in games()]
"""``/puzzle game:``: every game by its name (the registry's order)."""

log = logging.getLogger(__name__)


def _service(interaction: discord.Interaction[Any]) -> PuzzleService:
    return services_of(interaction).puzzles


def _guild(interaction: discord.Interaction[Any]) -> int:
    return interaction.guild_id if interaction.guild_id is not None else 0


def _rating(value: float) -> str:
    return f"{round(value):,}"


def puzzle_message(
    service: PuzzleService, game: str, number: int, locale: str, *, daily: bool = False
) -> tuple[discord.Embed, list[discord.File], discord.ui.View]:
    """A puzzle as a message: the question, the position in words and as a picture (its alt
    text the same words), and a button per answer."""
    loc = locale
    puzzle = service.puzzle(game, number)
    seen, legal = service.position(puzzle)
    title = t(loc, service.question(puzzle))
    heading = t(
        loc,
        "{game} puzzle #{number} · rating {rating}",
        game=t(loc, find(game).short),
        number=puzzle.number + 1,
        rating=_rating(puzzle.rating),
    )
    if daily:
        heading = t(loc, "Today's puzzle") + " · " + heading
    words = position_lines(seen, loc)
    embed = discord.Embed(
        title=f"🧩 {title}",
        description="\n".join([f"*{heading}*", *words]),
        colour=discord.Colour.teal(),
    )
    files: list[discord.File] = []
    picture = render_of(game).position(seen, legal, loc)
    if picture is not None:
        embed.set_image(url=f"attachment://{PICTURE_FILE}")
        files.append(
            discord.File(
                io.BytesIO(picture.png),
                filename=PICTURE_FILE,
                description=(picture.alt or "; ".join(words))[:1024] or None,
            )
        )
    embed.set_footer(text=t(loc, "Answer with a button: only you see your answer."))
    buttons = discord.ui.View(timeout=None)
    by_name = {str(a): a for a in legal}
    for index, choice in enumerate(puzzle.choices[:MAX_ANSWERS]):
        action = by_name.get(choice)
        label = render_of(game).action_label(action, loc) if action is not None else choice
        buttons.add_item(PuzzleAnswerButton(game, puzzle.number, index, label=label[:80]))
    return embed, files, buttons


def answer_embed(service: PuzzleService, answered: Answered, locale: str) -> discord.Embed:
    """The verdict, the best move and why, the margin in points, the rating and streak."""
    loc = locale
    puzzle = answered.puzzle
    _, legal = service.position(puzzle)
    by_name = {str(a): a for a in legal}
    render = render_of(puzzle.game)

    def label(notation: str) -> str:
        action = by_name.get(notation)
        return render.action_label(action, loc) if action is not None else notation

    if answered.solved:
        title = "✅ " + t(loc, "Right: {move} is the best move.", move=label(puzzle.best))
    else:
        title = "❌ " + t(
            loc,
            "Not quite: you chose {answer}; the best move is {move}.",
            answer=label(answered.answer),
            move=label(puzzle.best),
        )
    why = explanation(puzzle, None if answered.solved else answered.answer, loc)
    margin = margin_text(puzzle, label(puzzle.best), label(puzzle.second), loc)
    if answered.rated:
        change = answered.rating_after - answered.rating_before
        rating = t(
            loc,
            "Puzzle rating {rating} ({change}) · streak {streak} (best {best})",
            rating=_rating(answered.rating_after),
            change=f"{change:+.0f}",
            streak=answered.streak,
            best=answered.best_streak,
        )
    else:
        rating = t(
            loc,
            "You had answered this puzzle before: your rating stays {rating}.",
            rating=_rating(answered.rating_after),
        )
    embed = discord.Embed(
        title=title,
        description="\n".join(line for line in (why, margin) if line),
        colour=discord.Colour.green() if answered.solved else discord.Colour.red(),
    )
    embed.set_footer(text=rating)
    return embed


def _another(game: str, locale: str) -> discord.ui.View:
    buttons = discord.ui.View(timeout=None)
    buttons.add_item(AnotherPuzzleButton(game, label=t(locale, "Another puzzle")))
    return buttons


class PuzzleAnswerButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"pz:(?P<game>[a-z-]{1,16}):(?P<number>[0-9]{1,6}):(?P<choice>[0-9]{1,2})",
):
    """An answer to a puzzle: ``pz:{game}:{number}:{choice}``."""

    def __init__(self, game: str, number: int, choice: int, *, label: str) -> None:
        """The button of answer ``choice`` of puzzle ``number`` of ``game``."""
        super().__init__(
            discord.ui.Button(
                label=label or "…",
                style=discord.ButtonStyle.secondary,
                custom_id=ANSWER_ID.format(game=game, number=number, choice=choice),
            )
        )
        self.game, self.number, self.choice = game, number, choice

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> PuzzleAnswerButton:
        """Rebuild the button from its custom id (after a restart too)."""
        return cls(match["game"], int(match["number"]), int(match["choice"]), label="")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Judge the answer and show the explanation, privately."""
        async with guarded(interaction, "puzzle answer"):
            service = _service(interaction)
            puzzle = service.puzzle(self.game, self.number)
            if not 0 <= self.choice < len(puzzle.choices):
                raise UserError("That is not one of the answers.")
            answered = await service.answer(
                _guild(interaction),
                interaction.user.id,
                self.game,
                self.number,
                puzzle.choices[self.choice],
            )
            loc = locale_of(interaction)
            embed = answer_embed(service, answered, loc)
            message = interaction.message
            if message is not None and message.flags.ephemeral:
                await interaction.response.edit_message(
                    embeds=[*message.embeds[:1], embed],
                    view=_another(self.game, loc),
                )
            else:
                await interaction.response.send_message(
                    embed=embed, view=_another(self.game, loc), ephemeral=True
                )


class AnotherPuzzleButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"pzn:(?P<game>[a-z-]{0,16})",
):
    """Another puzzle of the same game: ``pzn:{game}``."""

    def __init__(self, game: str, *, label: str) -> None:
        """The button for another puzzle of ``game`` ("" for any game)."""
        super().__init__(
            discord.ui.Button(
                label=label or "…",
                style=discord.ButtonStyle.primary,
                custom_id=ANOTHER_ID.format(game=game),
            )
        )
        self.game = game

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> AnotherPuzzleButton:
        """Rebuild the button from its custom id."""
        return cls(match["game"], label="")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """A new private puzzle."""
        async with guarded(interaction, "another puzzle"):
            await _send_puzzle(interaction, self.game or None, edit=True)


async def _send_puzzle(
    interaction: discord.Interaction[Any], game: str | None, *, edit: bool = False
) -> None:
    service = _service(interaction)
    puzzle = await service.next_for(_guild(interaction), interaction.user.id, game)
    loc = locale_of(interaction)
    embed, files, buttons = await asyncio.to_thread(
        puzzle_message, service, puzzle.game, puzzle.number, loc
    )
    message = interaction.message
    if edit and message is not None and message.flags.ephemeral:
        await interaction.response.edit_message(embed=embed, attachments=files, view=buttons)
    else:
        await interaction.response.send_message(
            embed=embed, files=files, view=buttons, ephemeral=True
        )


class PuzzlesCog(commands.Cog, name="Puzzles"):
    """Puzzles, their leaderboard and the daily puzzle."""

    puzzles = app_commands.Group(
        name="puzzles", description="Puzzle leaderboard and the daily puzzle", guild_only=True
    )

    def __init__(self, bot: KapBot) -> None:
        """Commands for ``bot``; its services exist from setup_hook."""
        self.bot = bot

    @property
    def services(self) -> Services:
        """The bot's services."""
        return self.bot.services

    async def cog_load(self) -> None:
        """Start looking for daily puzzles due."""
        self.daily.start()

    async def cog_unload(self) -> None:
        """Stop the daily loop (a restart starts a new one)."""
        self.daily.cancel()

    @app_commands.command(name="puzzle", description="Solve a puzzle (only you see it)")
    @app_commands.describe(game="Which game (default: any)")
    @app_commands.choices(game=GAME_CHOICES)
    async def puzzle(self, interaction: discord.Interaction[Any], game: str | None = None) -> None:
        """A private puzzle near the member's puzzle rating."""
        async with guarded(interaction, "/puzzle"):
            await _send_puzzle(interaction, game)

    @puzzles.command(name="leaderboard", description="The best puzzle solvers of this server")
    async def leaderboard(self, interaction: discord.Interaction[Any]) -> None:
        """The server's puzzle ratings, and the member's own rating and streaks."""
        async with guarded(interaction, "/puzzles leaderboard"):
            loc = locale_of(interaction)
            service = self.services.puzzles
            guild_id = _guild(interaction)
            board = await service.leaderboard(guild_id)
            own = await service.solver(guild_id, interaction.user.id)
            lines = [
                t(
                    loc,
                    "**#{rank}** {member} — {rating} ({solved} solved, best streak {best})",
                    rank=rank,
                    member=mention(row.user_id),
                    rating=_rating(row.rating),
                    solved=row.solved,
                    best=row.best_streak,
                )
                for rank, row in enumerate(board, start=1)
            ]
            embed = discord.Embed(
                title=t(loc, "🧩 Puzzle leaderboard"),
                description="\n".join(lines) or t(loc, "Nobody has solved a puzzle here yet."),
                colour=discord.Colour.gold(),
            )
            embed.set_footer(
                text=t(
                    loc,
                    "Your puzzle rating: {rating} · streak {streak} (best {best})",
                    rating=_rating(own.rating),
                    streak=own.streak,
                    best=own.best_streak,
                )
            )
            await interaction.response.send_message(
                embed=embed, ephemeral=True, allowed_mentions=NO_PINGS
            )

    @puzzles.command(name="daily", description="Post a daily puzzle in a channel (Manage Server)")
    @app_commands.describe(
        channel="Where the daily puzzle goes", stop="Stop posting the daily puzzle"
    )
    async def daily_command(
        self,
        interaction: discord.Interaction[Any],
        channel: discord.TextChannel | None = None,
        stop: bool = False,
    ) -> None:
        """Choose the daily puzzle's channel, or stop it; Manage Server only."""
        async with guarded(interaction, "/puzzles daily"):
            loc = locale_of(interaction)
            perms = interaction.permissions
            manages = perms.manage_guild or perms.administrator
            service = self.services.puzzles
            if stop:
                stopped = await service.set_daily(
                    _guild(interaction), None, interaction.user.id, manages=manages
                )
                text = (
                    t(loc, "The daily puzzle is stopped.")
                    if stopped
                    else t(loc, "This server has no daily puzzle.")
                )
            elif channel is None:
                if not manages:
                    raise UserError(
                        "Only a member who can manage the server can set the daily puzzle."
                    )
                setting = await service.daily_setting(_guild(interaction))
                text = (
                    t(loc, "This server has no daily puzzle.")
                    if setting is None
                    else t(
                        loc,
                        "The daily puzzle is posted in <#{channel}> every day at 00:00 UTC.",
                        channel=setting.channel_id,
                    )
                )
            else:
                await service.set_daily(
                    _guild(interaction), channel.id, interaction.user.id, manages=manages
                )
                text = t(
                    loc,
                    "The daily puzzle will be posted in <#{channel}> every day at 00:00 UTC "
                    "(today's within a minute).",
                    channel=channel.id,
                )
            await interaction.response.send_message(text, ephemeral=True)

    @tasks.loop(seconds=DAILY_SECONDS)
    async def daily(self) -> None:
        """Post the daily puzzles that are due."""
        if not self.bot.is_ready():
            return
        try:
            await self.post_due()
        except Exception as exc:
            await report_incident(None, exc, "daily puzzle")

    async def post_due(self) -> int:
        """Post every daily puzzle this process claimed; how many it posted."""
        service = self.services.puzzles
        posted = 0
        for post in await service.due_posts():
            channel = self.bot.get_channel(post.channel_id)
            if not isinstance(channel, discord.abc.Messageable):
                log.info(
                    "daily puzzle of server %s: channel %s is gone", post.guild_id, post.channel_id
                )
                continue
            settings = await self.services.server.play_settings(post.guild_id)
            loc = settings.language or "en"
            embed, files, buttons = await asyncio.to_thread(
                puzzle_message, service, post.game, post.puzzle, loc, daily=True
            )
            try:
                message = await channel.send(
                    embed=embed, files=files, view=buttons, allowed_mentions=NO_PINGS
                )
            except discord.HTTPException as exc:
                log.warning("daily puzzle of server %s not posted: %s", post.guild_id, exc)
                continue
            await service.posted(post, message.id)
            posted += 1
        return posted


async def setup(bot: commands.Bot) -> None:
    """Register the persistent puzzle buttons and the cog."""
    if not isinstance(bot, KapBot):  # pragma: no cover - loaded by KapBot only
        raise TypeError("cogs.puzzles needs a KapBot")
    bot.add_dynamic_items(PuzzleAnswerButton, AnotherPuzzleButton)
    await bot.add_cog(PuzzlesCog(bot))


async def teardown(bot: commands.Bot) -> None:
    """Forget the puzzle buttons when the extension is unloaded."""
    bot.remove_dynamic_items(PuzzleAnswerButton, AnotherPuzzleButton)
