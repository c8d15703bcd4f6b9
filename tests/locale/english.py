"""What English a member would still read in a Chinese message: the shared check of
tests/locale (catalogue entries) and of the end-to-end tests that play a whole flow in zh-TW or
zh-CN through simcord and read every message, embed and component the bot showed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import discord

#: Latin words a Chinese message may keep: names, notation, option values a member types.
ALLOWED = {
    "Discord",
    "UTC",
    "DM",
    "AI",
    "guild",
    "global",
    "clear",
    "auto",
    "flag",
    "value",
    "true",
    "wild",
    "min",
    "chi",
    "df",
    "ceil",
    "log",
    "JSON",  # file formats an export hands out (/tournament export)
    "CSV",
    "MB",
}


def latin_left(text: str, allowed: Iterable[str] = ()) -> set[str]:
    """The Latin words of ``text`` that are neither code, placeholders, mentions, commands,
    flags nor :data:`ALLOWED` (or ``allowed``: the members' names of a test, say)."""
    keep = ALLOWED | set(allowed)
    text = re.sub(r"`[^`]*`", "", text)  # code: commands, notation
    text = re.sub(r"\{[^}]*\}", "", text)  # placeholders
    text = re.sub(r"<[^>]*>", "", text)  # mentions, timestamps
    text = re.sub(r"https?://\S+", "", text)  # links
    text = re.sub(r"\b(?=[0-9a-f]*[0-9])[0-9a-f]{8,}\b", "", text)  # ids of tables and games
    text = re.sub(r"/[a-z_]+(?: [a-z_]+)*", "", text)  # /commands named in text
    text = re.sub(r"\b\w+=[\w-]+\b", "", text)  # variant flags (first_player=four-dice)
    text = re.sub(r"--[a-z-]+|'[^']*'", "", text)  # terminal options and what a player types
    text = re.sub(r"\b[a-z0-9]+(?:_[a-z0-9]+)+\b", "", text)  # rule flags (auto_capture)
    return {w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in keep}


def visible_text(message: discord.Message) -> list[str]:
    """Everything a member reads in ``message``: content, embeds, button labels, select
    placeholders and option labels and descriptions (not custom ids or file names)."""
    parts = [message.content]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or "", embed.footer.text or ""]
        parts += [embed.author.name or ""]
        for embed_field in embed.fields:
            parts += [embed_field.name or "", embed_field.value or ""]
    for row in message.components:
        for child in getattr(row, "children", []):
            parts += [
                getattr(child, "label", None) or "",
                getattr(child, "placeholder", None) or "",
            ]
            for option in getattr(child, "options", []):
                parts += [option.label or "", option.description or ""]
    return [p for p in parts if p]


def english_in(messages: Iterable[discord.Message | str], allowed: Iterable[str] = ()) -> list[str]:
    """``"word(s): text"`` for every text of ``messages`` that leaves English words (empty when
    a Chinese member reads no English). Strings are checked as they are (e.g. ephemeral
    replies' content)."""
    found = []
    for message in messages:
        texts = [message] if isinstance(message, str) else visible_text(message)
        for text in texts:
            left = latin_left(text, allowed)
            if left:
                found.append(f"{sorted(left)}: {text[:200]!r}")
    return found
