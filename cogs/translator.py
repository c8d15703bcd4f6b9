"""Slash-command metadata in each member's language, through discord.py's ``Translator``.

discord.py asks the translator for every command, group, option and choice name and description
when it builds the payload it syncs; Discord then shows each member the text of his client's
language (``zh-TW``, ``zh-CN``) and the English one to everyone else. The texts come from the
catalogues of :mod:`bot.locale`: names under the ``command name`` context (they obey Discord's
name rules: lowercase, no spaces, 1-32 characters), everything else without a context. A name
is looked up by its qualified path first (``msgctxt "command name"``, ``msgid "tournament new"``),
then by itself, so one English word can have different Chinese names under different groups.

The tool that adds the command tree's texts to the message template is :mod:`cogs.catalogue`
(it builds the whole bot, which imports this module).
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.locale import COMMAND_CONTEXT, command_word, name_commands, translate

__all__ = [
    "DISCORD_LOCALES",
    "NAME_CONTEXT",
    "NAME_LOCATIONS",
    "CatalogueTranslator",
    "name_path",
]

#: The catalogue context of command, group and option names.
NAME_CONTEXT = COMMAND_CONTEXT
#: The Discord locales the bot translates into, and the catalogue each one reads.
DISCORD_LOCALES: dict[discord.Locale, str] = {
    discord.Locale.taiwan_chinese: "zh-TW",
    discord.Locale.chinese: "zh-CN",
}
#: Where discord.py asks for a name (under :data:`NAME_CONTEXT`) rather than a description.
NAME_LOCATIONS = frozenset(
    {
        app_commands.TranslationContextLocation.command_name,
        app_commands.TranslationContextLocation.group_name,
        app_commands.TranslationContextLocation.parameter_name,
    }
)


class CatalogueTranslator(app_commands.Translator):
    """Translates the command tree's texts from the bot's message catalogues."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The text of ``string`` in ``locale``, or None (Discord then shows the English)."""
        language = DISCORD_LOCALES.get(locale)
        if language is None:
            return None
        if context.location not in NAME_LOCATIONS:
            # A description that names a command names it as this client shows it.
            text = translate(language, string.message, None)
            return None if text is None else name_commands(language, text)
        # A name is looked up by its path first (``tournament new``), then alone (``new``):
        # the same English word may need different Chinese under different groups (a
        # tournament is not "opened" like a table), and Discord wants siblings' names unique.
        # bot.locale.command_word is the one lookup, so texts name commands the same way.
        return command_word(language, name_path(context.data, string.message))


def name_path(data: object, name: str) -> str:
    """The qualified path of a command, group or option name: ``tournament new``,
    ``table new game`` (an option under its command), or ``name`` for a top-level command."""
    command = getattr(data, "command", None)  # an option: its command's path, then its name
    if command is not None and getattr(command, "qualified_name", None):
        return f"{command.qualified_name} {name}"
    parent = getattr(data, "parent", None)
    if parent is not None and getattr(parent, "qualified_name", None):
        return f"{parent.qualified_name} {name}"
    return name
