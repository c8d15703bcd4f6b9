"""Command names in Chinese: looked up per command path, unique among siblings in every locale.

Discord refuses a command tree in which two siblings (subcommands of one group, options of one
command) share a name in some locale, and a name translated once per English word gave
``/tournament new`` the table's "open a table" (開桌).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.app import KapBot
from bot.config import Settings
from cogs.translator import DISCORD_LOCALES, CatalogueTranslator


@pytest.fixture
async def payloads(tmp_path: Path) -> list[dict[str, Any]]:
    """The translated payloads of every slash command the bot syncs."""
    bot = KapBot(
        Settings(discord_token=None, db_path=tmp_path / "db.sqlite3"),
        rng=random.Random(1),
        auto_sync=False,
    )
    # "async with": discord.py's start-up of the client, which its close() needs
    async with bot:
        await bot.setup_hook()
        translator = bot.tree.translator
        assert isinstance(translator, CatalogueTranslator)
        return [
            dict(await c.get_translated_payload(bot.tree, translator))
            for c in bot.tree.get_commands()
        ]


def _names(item: dict[str, Any], locale: str) -> str:
    return str((item.get("name_localizations") or {}).get(locale, item["name"]))


def _levels(items: list[dict[str, Any]], path: str = "") -> Iterator[tuple[str, list[Any]]]:
    """(path, siblings) for the top level and every command's options."""
    yield path or "/", items
    for item in items:
        children = item.get("options") or []
        if children:
            yield from _levels(children, f"{path} {item['name']}".strip())


def _find(payloads: list[dict[str, Any]], path: str) -> dict[str, Any]:
    items, found = payloads, None
    for word in path.split():
        found = next(i for i in items if i["name"] == word)
        items = found.get("options") or []
    assert found is not None
    return found


async def test_siblings_names_are_unique_in_every_locale(payloads: list[dict[str, Any]]) -> None:
    locales = ["en", *(locale.value for locale in DISCORD_LOCALES)]
    problems = []
    for path, siblings in _levels(payloads):
        for locale in locales:
            names = [_names(s, locale) for s in siblings]
            doubles = sorted({n for n in names if names.count(n) > 1})
            if doubles:
                problems.append(f"{path} ({locale}): {doubles}")
    assert problems == []


async def test_a_name_is_looked_up_by_its_path(payloads: list[dict[str, Any]]) -> None:
    """``new`` opens a table under /table, but starts a tournament under /tournament."""
    table_new = _find(payloads, "table new")["name_localizations"]
    tournament_new = _find(payloads, "tournament new")["name_localizations"]
    assert table_new == {"zh-TW": "開桌", "zh-CN": "开桌"}
    assert tournament_new == {"zh-TW": "開賽", "zh-CN": "开赛"}
    assert _find(payloads, "tournament join")["name_localizations"]["zh-TW"] == "報名"
    # A name with no path entry falls back to the word's own (/tournament cancel, /table cancel).
    assert _find(payloads, "tournament cancel")["name_localizations"]["zh-TW"] == "取消"
