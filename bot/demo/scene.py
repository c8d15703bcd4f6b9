"""The demo's scene: the server, its channels and members, the welcome message, the views a
page may ask for, and the demo's settings."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from bot.config import Settings
from bot.locale import t

GUILD_ID = 1_300_000_000_000_000_001
GUILD_NAME = "Kap Shap Club"
BOT_NAME = "Kap Shap"
CHANNELS: tuple[str, ...] = ("kap-shap", "kap-tai-shap", "lounge")
"""The server's text channels; the first one holds the welcome message."""
MEMBERS: tuple[str, ...] = ("alice", "bob", "carol", "dave")
"""The server's members; the first one is the visitor at start and may manage the server."""
MANAGERS_ROLE = "Managers"

WELCOME = """\
**Welcome to the Kap Shap demo!** This is the real bot on a simulated Discord server, in your \
browser: nothing leaves this computer.

You are **alice** (the bar at the top switches member, channel, or opens your DMs with the bot).
1. Type `/table new` below (or pick it from the `/` menu) to open a table here.
2. Press **Add AI** to seat a computer player, then **Start**.
3. Your hand arrives by DM: open **DMs with Kap Shap** in the top bar and play with its buttons, \
or stay here and use `/draw`, `/take`, `/discard` and `/declare`.

Also try `/chips balance`, `/chips daily`, `/leaderboard`, `/hand`, `/table rules`, and \
`/kapadmin config` (alice manages the server). #kap-tai-shap is free for `/table new \
game:Kap Tai Shap` with up to 20 players: switch to bob or carol to join alice's table."""


def welcome(locale: str = "en") -> str:
    """The welcome message in ``locale`` (the demo server's language)."""
    return t(locale, WELCOME)


@dataclass(frozen=True, slots=True)
class DemoView:
    """What the page shows: a channel, a thread or the DMs of ``member`` with the bot."""

    member: str
    channel: str | None  # a channel's name, a thread's id, or None: the member's DMs

    @property
    def key(self) -> str:
        """``alice/kap-shap`` or ``alice/dm``: the view in a URL."""
        return f"{self.member}/{self.channel or 'dm'}"

    @classmethod
    def parse(cls, key: str) -> DemoView | None:
        """The view named by ``key``, or None when it names no member or channel (a thread's
        id is checked when the view opens: threads come and go)."""
        member, _, place = key.partition("/")
        if member not in MEMBERS:
            return None
        if place == "dm":
            return cls(member, None)
        thread = place.isascii() and place.isdecimal() and len(place) <= 20
        return cls(member, place) if place in CHANNELS or thread else None


def demo_settings(base: Settings, data_dir: Path) -> Settings:
    """``base`` (the ``.env`` settings) for the demo: no token, its own database, its server."""
    return dataclasses.replace(
        base,
        discord_token=None,
        db_path=data_dir / "kapshap-demo.sqlite3",
        # No development server: the demo publishes the commands globally (build_scene), so
        # they show in the server and, for those that work there, in DMs, each listed once.
        dev_guild_id=None,
        # One process with one shard on the built-in Discord, whatever .env says for a fleet
        # (simcord needs the count that discord.py would otherwise ask Discord for).
        shard_count=1,
        shard_ids=None,
    )
