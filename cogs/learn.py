"""``/learn``: short interactive lessons on fixed deals, each step answered with buttons, the
member's progress stored; a finished lesson offers a practice game against the gentlest
computer.

The lessons are their games' (``bot.lessons``, ``bot/games/<family>/lessons/``); the service
(:class:`bot.services.lessons.LessonService`) checks answers with the engine and keeps the
progress. Every message here is private to the member. The buttons and the select carry all they
need in their custom ids (``learn:…``), so they keep working after a restart.
"""

from __future__ import annotations

import io
import re
from typing import Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import KapBot
from bot.engine.family import engine_of
from bot.games import find
from bot.lessons import Lesson, choices_of, position_of, practice_level
from bot.locale import t
from bot.locale.levels import level_name
from bot.render.family import render_of
from bot.services.errors import UserError
from bot.services.lessons import Answer, LessonLine
from cogs.common import guarded, locale_of, public_locale_of
from cogs.desk import desk_for
from cogs.desk_lobby import AI_NAME
from cogs.presenter import COLOUR

__all__ = ["Learn", "LessonAnswerButton", "LessonPick", "LessonsButton", "PracticeButton", "setup"]

EVERYWHERE = app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
STAR, NO_STAR = "★", "☆"


def _bot(interaction: discord.Interaction[Any]) -> KapBot:
    return cast(KapBot, interaction.client)


def _stars(stars: int) -> str:
    return STAR * stars + NO_STAR * (3 - stars)


def _status(line: LessonLine, locale: str) -> str:
    if line.done:
        return t(locale, "done {stars}", stars=_stars(line.stars))
    if line.step > 0:
        return t(locale, "step {step} of {steps}", step=line.step + 1, steps=len(line.lesson.steps))
    return t(locale, "not started")


def _bracketed(text: str, locale: str) -> str:
    """`` (text)``, in full-width brackets in Chinese (no space before them)."""
    return f" ({text})" if locale == "en" else f"（{text}）"


def _title(lesson: Lesson, locale: str) -> str:
    return t(
        locale,
        "{game}: {title}",
        game=t(locale, find(lesson.game).short),
        title=t(locale, lesson.title),
    )


def overview_message(lines: list[LessonLine], locale: str) -> dict[str, Any]:
    """The list of lessons with the member's progress, and a select to open one."""
    embed = discord.Embed(title=t(locale, "Lessons"), colour=COLOUR)
    embed.description = "\n".join(
        f"{'✅' if line.done else '▶️' if line.step else '▫️'} **{_title(line.lesson, locale)}**"
        f"{_bracketed(_status(line, locale), locale)}\n{t(locale, line.lesson.summary)}"
        for line in lines
    )
    embed.set_footer(text=t(locale, "Choose a lesson: you go on where you stopped."))
    options = [
        discord.SelectOption(label=_title(line.lesson, locale)[:100], value=line.lesson.key)
        for line in lines
    ]
    view = discord.ui.View(timeout=None)
    view.add_item(LessonPick(options, t(locale, "Choose a lesson")))
    return {"embed": embed, "view": view}


def step_message(lesson: Lesson, step: int, locale: str, note: str = "") -> dict[str, Any]:
    """A step: its position's picture (with its description), the question and the answers as
    buttons; ``note`` (already worded) says how the last answer went."""
    current = lesson.steps[step]
    position = position_of(current)
    engine = engine_of(lesson.game)
    render = render_of(lesson.game)
    embed = discord.Embed(title=_title(lesson, locale), colour=COLOUR)
    embed.description = (note + "\n\n" if note else "") + t(locale, current.prompt)
    embed.set_footer(
        text=t(locale, "Step {step} of {steps}", step=step + 1, steps=len(lesson.steps))
    )
    view = discord.ui.View(timeout=None)
    for index, choice in enumerate(choices_of(current)):
        label = (
            render.action_label(engine.parse_action(choice.key), locale)
            if choice.move
            else choice.label
        )
        view.add_item(LessonAnswerButton(lesson.key, step, index, label=label[:80]))
    out: dict[str, Any] = {"embed": embed, "view": view, "attachments": []}
    legal = engine.legal_actions(position.state)
    picture = render.position(engine.view(position.state, position.seat), legal, locale)
    if picture is not None:
        out["attachments"] = [
            discord.File(
                io.BytesIO(picture.png), filename=picture.filename, description=picture.alt
            )
        ]
        embed.set_image(url=f"attachment://{picture.filename}")
    return out


def finish_message(answer: Answer, locale: str) -> dict[str, Any]:
    """The end of a lesson: the last answer's words, the stars, and the practice game."""
    lesson = answer.lesson
    level = practice_level(lesson.game)
    embed = discord.Embed(title=_title(lesson, locale), colour=COLOUR)
    embed.description = (
        "✅ "
        + t(locale, answer.text)
        + "\n\n"
        + t(locale, "Lesson finished: {stars}", stars=_stars(answer.stars))
        + "\n"
        + t(
            locale,
            "Now play a short game against the gentlest computer ({level}): "
            "press 「Practice game」 in a server channel.",
            level=level_name(locale, level),
        )
    )
    view = discord.ui.View(timeout=None)
    view.add_item(PracticeButton(lesson.game, label=t(locale, "Practice game")))
    view.add_item(LessonsButton(label=t(locale, "Lessons")))
    return {"embed": embed, "view": view, "attachments": []}


async def _edit(interaction: discord.Interaction[Any], message: dict[str, Any]) -> None:
    await interaction.response.edit_message(**message)


class LessonPick(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"learn:open"):
    """The select of the list of lessons: opens the lesson chosen where the member stopped."""

    def __init__(self, options: list[discord.SelectOption], placeholder: str) -> None:
        """A select of ``options`` (the lessons' keys as values)."""
        super().__init__(
            discord.ui.Select(
                custom_id="learn:open",
                options=options,
                placeholder=placeholder,
                min_values=1,
                max_values=1,
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> LessonPick:
        """Rebuild the select from a choice."""
        if not isinstance(item, discord.ui.Select):
            raise TypeError(f"{match.string} is not a select")
        return cls(list(item.options), item.placeholder or "")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Open the lesson chosen at the member's step."""
        async with guarded(interaction, "/learn"):
            values = list(self.item.values)
            if not values:
                raise UserError("Choose a lesson.")
            lesson, step = await _bot(interaction).services.lessons.resume(
                interaction.user.id, values[0]
            )
            await _edit(interaction, step_message(lesson, step, locale_of(interaction)))


class LessonAnswerButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"learn:a:(?P<lesson>[-a-z0-9]+):(?P<step>[0-9]+):(?P<index>[0-9]+)",
):
    """An answer to a step: ``learn:a:{lesson}:{step}:{index}`` (the index of the choice)."""

    def __init__(self, lesson: str, step: int, index: int, *, label: str) -> None:
        """The answer ``index`` of ``step`` of ``lesson``."""
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"learn:a:{lesson}:{step}:{index}",
            )
        )
        self.lesson = lesson
        self.step = step
        self.index = index

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> LessonAnswerButton:
        """Rebuild the button from a click."""
        return cls(match["lesson"], int(match["step"]), int(match["index"]), label="")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Check the answer; a wrong one is explained and the step stays, a right one goes on."""
        async with guarded(interaction, "/learn"):
            service = _bot(interaction).services.lessons
            lesson = service.lesson(self.lesson)
            if self.step >= len(lesson.steps):
                raise UserError("That step is behind you: `/learn` shows where you are.")
            choices = choices_of(lesson.steps[self.step])
            if self.index >= len(choices):
                raise UserError("That is not one of this step's answers.")
            answer = await service.answer(
                interaction.user.id, self.lesson, self.step, choices[self.index].key
            )
            locale = locale_of(interaction)
            if answer.finished:
                await _edit(interaction, finish_message(answer, locale))
                return
            note = ("✅ " if answer.right else "❌ ") + t(locale, answer.text)
            if not answer.right:
                # A Chinese sentence follows the full stop without a space.
                note += (" " if locale == "en" else "") + t(locale, "Try again.")
            await _edit(interaction, step_message(lesson, answer.step, locale, note))


class LessonsButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"learn:list"):
    """Back to the list of lessons."""

    def __init__(self, *, label: str) -> None:
        """The button, labelled ``label``."""
        super().__init__(
            discord.ui.Button(
                label=label, style=discord.ButtonStyle.secondary, custom_id="learn:list"
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> LessonsButton:
        """Rebuild the button from a click."""
        return cls(label="")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Show the list of lessons in place."""
        async with guarded(interaction, "/learn"):
            lines = await _bot(interaction).services.lessons.overview(interaction.user.id)
            message = overview_message(lines, locale_of(interaction))
            await _edit(interaction, {**message, "attachments": []})


class PracticeButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"learn:practice:(?P<game>[-a-z0-9]+)"
):
    """Opens a table in this channel for the member and the game's gentlest computer (no ante):
    he presses 「Start」 on it to play."""

    def __init__(self, game: str, *, label: str) -> None:
        """The button for ``game``, labelled ``label``."""
        super().__init__(
            discord.ui.Button(
                label=label, style=discord.ButtonStyle.primary, custom_id=f"learn:practice:{game}"
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
    ) -> PracticeButton:
        """Rebuild the button from a click."""
        return cls(match["game"], label="")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Open the practice table: a lobby with the computer seated, ante 0."""
        async with guarded(interaction, "/learn"):
            if interaction.guild_id is None or interaction.channel_id is None:
                raise UserError(
                    "Practice games are opened in a server channel: use `/learn` there."
                )
            bot = _bot(interaction)
            desk = desk_for(bot)
            find(self.game)  # an unknown game in a forged id is refused here
            await desk.new_table(
                interaction,
                game=self.game,
                rule_set=None,
                ante=0,
                seats=None,
                sets=None,
                timer=None,
                thread=False,
            )
            table = await bot.services.tables.lookup(interaction.channel_id)
            if table is None:  # pragma: no cover - new_table just opened it
                return
            level = practice_level(self.game)
            public = await public_locale_of(interaction)
            table = await bot.services.tables.add_ai(
                table.channel_id,
                interaction.user.id,
                level,
                name=t(public, AI_NAME),
                level_name=level_name(public, level),
            )
            await desk.presenter.touch(table, now=True)


class Learn(commands.Cog):
    """``/learn``."""

    def __init__(self, bot: KapBot) -> None:
        """Commands of ``bot``."""
        self.bot = bot

    @EVERYWHERE
    @app_commands.command(name="learn", description="Short interactive lessons for each game")
    async def learn(self, interaction: discord.Interaction[Any]) -> None:
        """The lessons with the member's progress, privately."""
        async with guarded(interaction, "/learn"):
            lines = await self.bot.services.lessons.overview(interaction.user.id)
            await interaction.response.send_message(
                **overview_message(lines, locale_of(interaction)), ephemeral=True
            )


async def setup(bot: commands.Bot) -> None:
    """Load the cog."""
    if not isinstance(bot, KapBot):  # pragma: no cover - loaded by KapBot only
        raise TypeError("cogs.learn needs a KapBot")
    await bot.add_cog(Learn(bot))
    bot.add_dynamic_items(LessonPick, LessonAnswerButton, LessonsButton, PracticeButton)
