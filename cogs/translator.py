"""Slash-command metadata in each member's language, through discord.py's ``Translator``.

discord.py asks the translator for every command, group, option and choice name and description
when it builds the payload it syncs; Discord then shows each member the text of his client's
language (``zh-TW``, ``zh-CN``) and the English one to everyone else. The texts come from the
catalogues of :mod:`bot.locale`: names under the ``command name`` context (they obey Discord's
name rules: lowercase, no spaces, 1-32 characters), everything else without a context. A name
is looked up by its qualified path first (``msgctxt "command name"``, ``msgid "tournament new"``),
then by itself, so one English word can have different Chinese names under different groups.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.locale import COMMAND_CONTEXT, command_word, name_commands, translate

__all__ = ["DISCORD_LOCALES", "NAME_CONTEXT", "CatalogueTranslator", "name_path"]

#: The catalogue context of command, group and option names.
NAME_CONTEXT = COMMAND_CONTEXT
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
        if context.location not in _NAMES:
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


async def _command_texts() -> list[tuple[str, str | None]]:
    """Every text of the command tree, with its catalogue context (names: ``command name``)."""
    import tempfile
    from pathlib import Path

    from bot.app import KapBot
    from bot.config import Settings

    collected: list[tuple[str, str | None]] = []

    class _Collect(app_commands.Translator):
        async def translate(
            self,
            string: app_commands.locale_str,
            locale: discord.Locale,
            context: app_commands.TranslationContextTypes,
        ) -> str | None:
            if locale is discord.Locale.taiwan_chinese:
                msgctxt = NAME_CONTEXT if context.location in _NAMES else None
                collected.append((string.message, msgctxt))
            return None

    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(discord_token=None, db_path=Path(folder) / "db.sqlite3")
        bot = KapBot(settings, auto_sync=False)
        await bot.setup_hook()
        try:
            for command in bot.tree.get_commands():
                await command.get_translated_payload(bot.tree, _Collect())
        finally:
            await bot.close()
    return list(dict.fromkeys(collected))


def main(argv: list[str] | None = None) -> int:
    """``python -m cogs.translator messages.pot``: add to a template made by ``pybabel extract``
    what it cannot find in the source: the command tree's texts (read from the tree itself, the
    way discord.py asks the translator), the tile names and the words of the ``term`` context
    (read from the zh-TW catalogue), so that ``pybabel update`` keeps them."""
    import asyncio
    import sys

    from babel.messages.pofile import read_po, write_po

    from bot.locale import catalogue

    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m cogs.translator PATH.pot", file=sys.stderr)
        return 2
    with open(args[0], "rb") as file:
        template = read_po(file)
    for text, context in asyncio.run(_command_texts()):
        template.add(text, context=context)
    from bot.ai.base import LEVEL_WORDS
    from bot.ai.review import REVIEW_TEMPLATES

    # The AI layer keeps these as data (no bot.locale there): the level words, the review's.
    for words in (*LEVEL_WORDS.values(), *REVIEW_TEMPLATES):
        template.add(words)
    known = catalogue("zh-TW")
    assert known is not None
    for message in known:
        # Also the per-path command names (``tournament new``) and the row's end letters: no
        # call in the source names them as such.
        if message.id and message.context in (
            "tile",
            "term",
            NAME_CONTEXT,
            "row end",
            "tsung shap",
        ):
            template.add(message.id, context=message.context)
    with open(args[0], "wb") as file:
        write_po(file, template, width=100)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
