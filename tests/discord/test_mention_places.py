"""Mentions only where Discord shows them as names.

Discord turns ``<@id>``, ``<@&id>`` and ``<#id>`` into a name in a message's content, an embed's
description and its field values; in an embed's title, field names, footer and author, and in
buttons and selects, a reader sees the raw ``<@1456…>``. Across a whole game (the table, the
DMs, chips, the leaderboard, the study commands) the bot never puts a mention in those places.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from tests.discord.conftest import World
from tests.discord.tables_kit import no_incidents, table_of  # noqa: F401  (autouse)

MENTION = re.compile(r"<(?:@[!&]?|#)[0-9]+>")


def raw_places(payload: Any) -> Iterator[tuple[str, str]]:
    """Every (place, text) of a message payload where Discord shows a mention raw."""
    if isinstance(payload, list):
        for item in payload:
            yield from raw_places(item)
        return
    if not isinstance(payload, dict):
        return
    for embed in payload.get("embeds") or []:
        yield "embed title", str(embed.get("title") or "")
        yield "embed footer", str((embed.get("footer") or {}).get("text") or "")
        yield "embed author", str((embed.get("author") or {}).get("name") or "")
        for field in embed.get("fields") or []:
            yield "embed field name", str(field.get("name") or "")
    for key in ("label", "placeholder"):
        if isinstance(payload.get(key), str):
            yield f"component {key}", payload[key]
    for key in ("components", "options", "data"):
        yield from raw_places(payload.get(key))


async def test_no_mention_where_discord_shows_it_raw(world: World) -> None:
    env, ch = world.env, world.channel
    alice, bob = world.members[:2]
    await alice.slash(ch, "chips daily")
    await alice.slash(ch, "chips give", member=bob, amount=5)
    await alice.slash(ch, "table new", timer=30)
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    await alice.slash(ch, "hand")
    await alice.slash(ch, "table rules")
    table = table_of(world)
    while table.running:  # both away: the computer plays their turns until one is out
        await env.advance_time(31)
    for member in (alice, bob):
        await member.slash(ch, "chips balance")
        await member.slash(ch, "chips history")
        await member.slash(ch, "leaderboard")
        await member.slash(ch, "stats")
        await member.slash(ch, "history")
    await alice.slash(ch, "replay", game=table.id)
    found = [
        (entry.method, entry.path, place, text)
        for entry in env.http_requests
        for place, text in raw_places(entry.json)
        if MENTION.search(text)
    ]
    assert not found
