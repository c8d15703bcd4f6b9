"""Slash-command metadata in each member's language, through discord.py's ``Translator``.

discord.py asks the translator for every command, group, option and choice name and description
when it builds the payload it syncs; Discord then shows each member the text of his client's
language (``zh-TW``, ``zh-CN``) and the English one to everyone else. The texts come from the
catalogues of :mod:`bot.locale`: names under the ``command name`` context (they obey Discord's
name rules: lowercase, no spaces, 1-32 characters), everything else without a context.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.locale import translate

__all__ = ["DISCORD_LOCALES", "NAME_CONTEXT", "CatalogueTranslator"]

#: The catalogue context of command, group and option names.
NAME_CONTEXT = "command name"
#: The Discord locales the bot translates into, and the catalogue each one reads.
DISCORD_LOCALES: dict[discord.Locale, str] = {
    discord.Locale.taiwan_chinese: "zh-TW",
    discord.Locale.chinese: "zh-CN",
}
_NAMES = frozenset(
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
        msgctxt = NAME_CONTEXT if context.location in _NAMES else None
        return translate(language, string.message, msgctxt)
