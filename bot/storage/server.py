"""SQL for what running on a real server needs (migration 0004): the bot's own small facts, the
per-server play settings, members' preferences, the messages kept per game, and seat states.

Stateless repositories: every method works inside the caller's transaction (``Tx``).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.db import Tx

__all__ = ["GameMessage", "PlayConfigRecord", "SeatStateRecord", "ServerRepo"]


@dataclass(frozen=True, slots=True)
class PlayConfigRecord:
    """A server's play settings; ``None`` means the bot's default."""

    guild_id: int
    notice_mode: str | None = None
    timeout_limit: int | None = None
    lobby_minutes: int | None = None
    review_mode: str | None = None
    language: str | None = None  # None follows the server's Discord locale
    # Schedule (issue 23): the IANA time zone members type times in; None is UTC.
    time_zone: str | None = None


@dataclass(frozen=True, slots=True)
class GameMessage:
    """A message the bot keeps for one member in one game (``kind``: hand, notice, mention)."""

    game_id: str
    user_id: int
    kind: str
    channel_id: int
    message_id: int


@dataclass(frozen=True, slots=True)
class SeatStateRecord:
    """A seat's consecutive timed-out turns and whether it is out of the game."""

    game_id: str
    seat: int
    timeouts: int
    out: str | None


class ServerRepo:
    """Key/value state, play settings, member settings, game messages and seat states."""

    # --- bot_state ----------------------------------------------------------------------------

    async def get_state(self, tx: Tx, key: str) -> str | None:
        """A stored fact about the bot, or None."""
        value = await tx.scalar("SELECT value FROM bot_state WHERE key = ?", (key,))
        return None if value is None else str(value)

    async def set_state(self, tx: Tx, key: str, value: str) -> None:
        """Store a fact about the bot (replacing the old value)."""
        await tx.execute(
            "INSERT INTO bot_state (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    async def delete_state(self, tx: Tx, key: str) -> None:
        """Forget a fact about the bot."""
        await tx.execute("DELETE FROM bot_state WHERE key = ?", (key,))

    # --- guild_play_config --------------------------------------------------------------------

    async def get_play_config(self, tx: Tx, guild_id: int) -> PlayConfigRecord:
        """The server's play settings (all None when it never chose any)."""
        row = await tx.fetchone(
            "SELECT notice_mode, timeout_limit, lobby_minutes, review_mode, language, time_zone "
            "FROM guild_play_config WHERE guild_id = ?",
            (guild_id,),
        )
        if row is None:
            return PlayConfigRecord(guild_id)
        return PlayConfigRecord(
            guild_id,
            row["notice_mode"],
            row["timeout_limit"],
            row["lobby_minutes"],
            row["review_mode"],
            row["language"],
            row["time_zone"],
        )

    async def put_play_config(self, tx: Tx, record: PlayConfigRecord) -> None:
        """Replace the server's play settings."""
        await tx.execute(
            "INSERT INTO guild_play_config "
            "(guild_id, notice_mode, timeout_limit, lobby_minutes, review_mode, language, "
            "time_zone) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
            "notice_mode = excluded.notice_mode, timeout_limit = excluded.timeout_limit, "
            "lobby_minutes = excluded.lobby_minutes, review_mode = excluded.review_mode, "
            "language = excluded.language, time_zone = excluded.time_zone",
            (
                record.guild_id,
                record.notice_mode,
                record.timeout_limit,
                record.lobby_minutes,
                record.review_mode,
                record.language,
                record.time_zone,
            ),
        )

    # --- member_settings ----------------------------------------------------------------------

    async def get_notices(self, tx: Tx, user_id: int) -> bool | None:
        """Whether a member wants turn notices (None: he never said)."""
        value = await tx.scalar("SELECT notices FROM member_settings WHERE user_id = ?", (user_id,))
        return None if value is None else bool(value)

    async def set_notices(self, tx: Tx, user_id: int, on: bool) -> None:
        """Record a member's choice about turn notices."""
        await tx.execute(
            "INSERT INTO member_settings (user_id, notices) VALUES (?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET notices = excluded.notices",
            (user_id, int(on)),
        )

    async def get_reviews(self, tx: Tx, user_id: int) -> bool:
        """Whether a member lets others review his games (no unless he said so)."""
        value = await tx.scalar("SELECT reviews FROM member_settings WHERE user_id = ?", (user_id,))
        return bool(value)

    async def set_reviews(self, tx: Tx, user_id: int, on: bool) -> None:
        """Record whether a member lets others review his games. A new row gets turn notices
        on: the default a member who never chose has anyway."""
        await tx.execute(
            "INSERT INTO member_settings (user_id, notices, reviews) VALUES (?, 1, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET reviews = excluded.reviews",
            (user_id, int(on)),
        )

    async def get_guide(self, tx: Tx, user_id: int) -> bool | None:
        """Whether a member turned the hand guide on or off (None: he never said)."""
        value = await tx.scalar("SELECT guide FROM member_settings WHERE user_id = ?", (user_id,))
        return None if value is None else bool(value)

    async def set_guide(self, tx: Tx, user_id: int, on: bool) -> None:
        """Record a member's choice about the hand guide. A new row gets turn notices on: the
        default a member who never chose has anyway."""
        await tx.execute(
            "INSERT INTO member_settings (user_id, notices, guide) VALUES (?, 1, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET guide = excluded.guide",
            (user_id, int(on)),
        )

    async def games_played(self, tx: Tx, guild_id: int, game: str, user_id: int) -> int:
        """How many recorded games of ``game`` a member has played on a server."""
        value = await tx.scalar(
            "SELECT games FROM member_ratings WHERE guild_id = ? AND game = ? AND user_id = ?",
            (guild_id, game, user_id),
        )
        return 0 if value is None else int(value)

    # --- game_messages ------------------------------------------------------------------------

    async def put_message(self, tx: Tx, message: GameMessage) -> None:
        """Remember (or replace) the message of one kind for a member in a game."""
        await tx.execute(
            "INSERT INTO game_messages (game_id, user_id, kind, channel_id, message_id) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, user_id, kind) DO UPDATE SET "
            "channel_id = excluded.channel_id, message_id = excluded.message_id",
            (
                message.game_id,
                message.user_id,
                message.kind,
                message.channel_id,
                message.message_id,
            ),
        )

    async def delete_message(self, tx: Tx, game_id: str, user_id: int, kind: str) -> None:
        """Forget one kept message."""
        await tx.execute(
            "DELETE FROM game_messages WHERE game_id = ? AND user_id = ? AND kind = ?",
            (game_id, user_id, kind),
        )

    async def messages(self, tx: Tx, game_id: str) -> list[GameMessage]:
        """Every message kept for a game."""
        rows = await tx.fetchall(
            "SELECT game_id, user_id, kind, channel_id, message_id FROM game_messages "
            "WHERE game_id = ? ORDER BY user_id, kind",
            (game_id,),
        )
        return [
            GameMessage(
                str(r["game_id"]),
                int(r["user_id"]),
                str(r["kind"]),
                int(r["channel_id"]),
                int(r["message_id"]),
            )
            for r in rows
        ]

    # --- seat_state ---------------------------------------------------------------------------

    async def put_seat(self, tx: Tx, record: SeatStateRecord) -> None:
        """Store a seat's timeouts and status."""
        await tx.execute(
            "INSERT INTO seat_state (game_id, seat, timeouts, out) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (game_id, seat) DO UPDATE SET timeouts = excluded.timeouts, "
            "out = excluded.out",
            (record.game_id, record.seat, record.timeouts, record.out),
        )

    async def seats(self, tx: Tx, game_id: str) -> list[SeatStateRecord]:
        """The stored seat states of a game."""
        rows = await tx.fetchall(
            "SELECT game_id, seat, timeouts, out FROM seat_state WHERE game_id = ? ORDER BY seat",
            (game_id,),
        )
        return [
            SeatStateRecord(str(r["game_id"]), int(r["seat"]), int(r["timeouts"]), r["out"])
            for r in rows
        ]
