"""The state every part of the :class:`~cogs.presenter.Presenter` shares: the bot and its
clock, what is kept per table message and per player's DM, and the languages messages are
written in."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.app import KapBot
from bot.locale import normalize
from bot.services.tables import Table
from cogs.common import member_locale

__all__ = ["HAND_REPLY_SECONDS", "DmState", "HandReply", "MessageState", "PresenterBase"]


HAND_REPLY_SECONDS = 14 * 60
"""How long an ephemeral hand view is kept to be edited at the end of its game: Discord lets
an interaction's replies be edited for 15 minutes."""


@dataclass(slots=True)
class HandReply:
    """An ephemeral hand view with buttons (``/hand``, "My hand", or a click on one): its
    message, the interaction whose token may edit it, and when."""

    message_id: int
    interaction: discord.Interaction[Any]
    at: float
    original: bool
    """Whether the message is the interaction's own (a clicked one), not a followup of it."""


@dataclass(slots=True)
class MessageState:
    """A table message's coalesced edits: whether it is due one, and when it was last edited."""

    dirty: bool = False
    last_edit: float = float("-inf")
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


@dataclass(slots=True)
class DmState:
    """One player's DM of one game: the message, what it shows, his turn notices."""

    channel_id: int | None = None
    message_id: int | None = None
    signature: tuple[Any, ...] | None = None
    closed: bool = False
    notes: tuple[str, ...] = ()
    others: list[tuple[int, Any]] = field(default_factory=list)
    """The other seats' events since this player's last move (his "since your last turn")."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    notified: tuple[Any, ...] | None = None  # the turn the player was last told about
    mention_id: int | None = None  # his turn's mention line in the channel
    mention_key: tuple[Any, ...] | None = None


class PresenterBase:
    """The presenter's state, clock and languages (the parts of the presenter share them)."""

    def __init__(self, bot: KapBot) -> None:
        """Present for ``bot`` (its clock times the edits)."""
        self.bot = bot
        self._messages: dict[str, MessageState] = {}
        self._dms: dict[tuple[str, int], DmState] = {}
        self._hand_replies: dict[tuple[str, int], list[HandReply]] = {}
        # Each server's chosen language (None: its Discord locale), read at each table edit.
        self._languages: dict[int, str | None] = {}
        self.wake: Callable[[], None] = lambda: None
        """Called when a table changed; the play cog's scheduler re-plans its sleep."""
        self.event_table: Callable[[int], Awaitable[bool]] | None = None
        """Set by the tournaments cog: whether a channel's table plays a tournament match (its
        next game opens by itself, so its end message offers no Rematch)."""

    def _now(self) -> float:
        return self.bot.clock.now().timestamp()

    # ------------------------------------------------------------------------- languages

    def public_locale(self, table: Table) -> str:
        """The language of a table's public messages: the server's setting
        (``/kapadmin config language``), else the server's own Discord locale."""
        chosen = self._languages.get(table.guild_id)
        if chosen:
            return chosen
        guild = self.bot.get_guild(table.guild_id)
        return normalize(None if guild is None else guild.preferred_locale)

    async def refresh_locale(self, guild_id: int) -> None:
        """Read the server's language setting (cached by the server service)."""
        settings = await self.bot.services.server.play_settings(guild_id)
        self._languages[guild_id] = settings.language

    def private_locale(self, table: Table, user_id: int) -> str:
        """The language of a member's DM: his client's, as last seen in an interaction, else
        the table's public language."""
        return member_locale(self.bot, user_id) or self.public_locale(table)
