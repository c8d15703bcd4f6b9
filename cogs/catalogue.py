"""``python -m cogs.catalogue messages.pot``: the texts ``pybabel extract`` cannot find.

The command tree's names and descriptions are read from the tree itself, the way discord.py asks
:class:`cogs.translator.CatalogueTranslator` for them; the AI layer's words and the catalogue's
per-path command names, tile names and terms come from where they are kept
(docs/architecture.md, "Updating"). A tool, not a cog: the bot never loads it.
"""

from __future__ import annotations

import discord
from discord import app_commands

from cogs.translator import NAME_CONTEXT, NAME_LOCATIONS

__all__ = ["main"]


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
                msgctxt = NAME_CONTEXT if context.location in NAME_LOCATIONS else None
                collected.append((string.message, msgctxt))
            return None

    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(discord_token=None, db_path=Path(folder) / "db.sqlite3")
        bot = KapBot(settings, auto_sync=False)
        # "async with": discord.py's start-up of the client, which its close() needs
        async with bot:
            await bot.setup_hook()
            for command in bot.tree.get_commands():
                await command.get_translated_payload(bot.tree, _Collect())
    return list(dict.fromkeys(collected))


def main(argv: list[str] | None = None) -> int:
    """``python -m cogs.catalogue messages.pot``: add to a template made by ``pybabel extract``
    what it cannot find in the source: the command tree's texts (read from the tree itself, the
    way discord.py asks the translator), the tile names and the words of the ``term`` context
    (read from the zh-TW catalogue), so that ``pybabel update`` keeps them."""
    import asyncio
    import sys

    from babel.messages.pofile import read_po, write_po

    from bot.locale import catalogue

    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m cogs.catalogue PATH.pot", file=sys.stderr)
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
