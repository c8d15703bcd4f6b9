"""What running on a real server needs besides the games: per-server play settings, members'
own preferences, the messages the bot keeps per game, seat states, and the hash of the slash
commands last synced.

* **Play settings** (``/kapadmin config``): how turn notices reach players (``dm``, ``channel``
  mention, or ``both``; a player whose DMs are closed is mentioned in the channel whatever the
  mode), how many turns in a row a player may time out before he is out (default 3), and after
  how many minutes a lobby nobody starts closes itself (default 15), and who may review a
  member's games (``own`` or ``public``; unset: the bot-wide ``KAPSHAP_REVIEW_PUBLIC``).
* **Member preferences** (``/settings``): a member may turn his turn notices off, and let others
  review his games.
* **Kept messages**: the live hand DM, the current turn notice and the channel mention of each
  member in each game, by id, so that after a restart the bot edits or deletes the very messages
  it sent before instead of sending copies.
* **Seat states**: consecutive timed-out turns and whether a seat is out (folded, resigned or
  forfeited), so a restart keeps counting.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from bot.locale import LOCALES
from bot.services.errors import UserError
from bot.services.shared_cache import SharedCache
from bot.storage.db import Database, Tx
from bot.storage.server import GameMessage, PlayConfigRecord, SeatStateRecord, ServerRepo
from bot.tournament.schedule import UNKNOWN_ZONE, ZONE_EXAMPLES, ScheduleError
from bot.tournament.schedule import time_zone as zone_named

__all__ = [
    "COMMAND_HASH_KEY",
    "GUIDE_GAMES",
    "NOTICE_MODES",
    "REVIEW_MODES",
    "GameMessage",
    "PlaySettings",
    "SeatStateRecord",
    "ServerService",
]

COMMAND_HASH_KEY = "command_tree_hash"
NOTICE_MODES = ("dm", "channel", "both")
REVIEW_MODES = ("own", "public")
#: ``/kapadmin config language:auto``: public messages follow the server's Discord locale.
AUTO_LANGUAGE = "auto"
DEFAULT_TIMEOUT_LIMIT = 3
DEFAULT_LOBBY_MINUTES = 15
#: The topics of the caches' change notifications (a server's play settings, a member's notices).
PLAY_TOPIC = "play_settings"
NOTICES_TOPIC = "notices"
GUIDE_GAMES = 10
"""The hand guide is on by default for a member's first this many games of a game."""
TIMEOUT_LIMIT_RANGE = (1, 20)
LOBBY_MINUTES_RANGE = (1, 1440)


@dataclass(frozen=True, slots=True)
class PlaySettings:
    """A server's effective play settings."""

    guild_id: int
    notice_mode: str = "dm"
    timeout_limit: int = DEFAULT_TIMEOUT_LIMIT
    lobby_minutes: int = DEFAULT_LOBBY_MINUTES
    review_mode: str | None = None  # None: the bot-wide default (KAPSHAP_REVIEW_PUBLIC)
    #: The language of public messages (``en``, ``zh-TW``, ``zh-CN``); None: the server's own.
    language: str | None = None
    # Schedule (issue 23): the IANA time zone members type times in (`/tournament new starts:`).
    time_zone: str = "UTC"

    @property
    def dm_notices(self) -> bool:
        """Whether turn notices go by DM."""
        return self.notice_mode in ("dm", "both")

    @property
    def channel_notices(self) -> bool:
        """Whether turn notices mention the player in the table's channel."""
        return self.notice_mode in ("channel", "both")


def _check_range(name: str, value: int, bounds: tuple[int, int]) -> int:
    low, high = bounds
    if type(value) is not int or not low <= value <= high:
        raise UserError(
            "The {name} must be a whole number from {low} to {high}.",
            name=name,
            low=f"{low:,}",
            high=f"{high:,}",
        )
    return value


class ServerService:
    """Play settings, member preferences, kept messages, seat states and the command hash."""

    def __init__(self, db: Database, *, now: Callable[[], float] = time.monotonic) -> None:
        """Keep everything in ``db``; ``now`` times the caches' expiry (tests move it)."""
        self._db = db
        self._repo = ServerRepo()
        # Read on every turn change: cached, written through, and kept right when another
        # process changes them (bot.services.shared_cache).
        self._settings: SharedCache[PlaySettings] = SharedCache(db, PLAY_TOPIC, now=now)
        self._notices: SharedCache[bool] = SharedCache(db, NOTICES_TOPIC, now=now)

    # --- command tree hash --------------------------------------------------------------------

    async def command_hash(self) -> str | None:
        """The hash of the command tree last synced globally (None: never)."""
        async with self._db.read() as tx:
            return await self._repo.get_state(tx, COMMAND_HASH_KEY)

    async def set_command_hash(self, value: str | None) -> None:
        """Record the hash just synced (None: forget it, so the next start syncs)."""
        async with self._db.transaction() as tx:
            if value is None:
                await self._repo.delete_state(tx, COMMAND_HASH_KEY)
            else:
                await self._repo.set_state(tx, COMMAND_HASH_KEY, value)

    # --- play settings ------------------------------------------------------------------------

    async def play_settings(self, guild_id: int) -> PlaySettings:
        """The server's effective play settings."""
        cached = self._settings.get(guild_id)
        if cached is not None:
            return cached
        token = self._settings.token()
        async with self._db.read() as tx:
            record = await self._repo.get_play_config(tx, guild_id)
        settings = _effective(record)
        self._settings.keep(guild_id, settings, token)
        return settings

    async def update_play_settings(
        self,
        guild_id: int,
        *,
        notice_mode: str | None = None,
        timeout_limit: int | None = None,
        lobby_minutes: int | None = None,
        review_mode: str | None = None,
        language: str | None = None,
        reset: bool = False,
        time_zone: str | None = None,
    ) -> PlaySettings:
        """Change some play settings (``None``: unchanged; ``reset``: back to the defaults
        first). Every value is checked before anything is written."""
        if notice_mode is not None and notice_mode not in NOTICE_MODES:
            raise UserError("Turn notices go by {choices}.", choices=", ".join(NOTICE_MODES))
        if timeout_limit is not None:
            _check_range("timeout limit", timeout_limit, TIMEOUT_LIMIT_RANGE)
        if lobby_minutes is not None:
            _check_range("lobby time", lobby_minutes, LOBBY_MINUTES_RANGE)
        if review_mode is not None and review_mode not in REVIEW_MODES:
            raise UserError(f"Reviews are {' or '.join(REVIEW_MODES)}.")
        if language is not None and language not in (*LOCALES, AUTO_LANGUAGE):
            raise UserError(
                "Choose the language from the list: {choices}.",
                choices=", ".join((*LOCALES, AUTO_LANGUAGE)),
            )
        if time_zone is not None:
            try:
                time_zone = zone_named(time_zone).key
            except ScheduleError:
                raise UserError(
                    UNKNOWN_ZONE, zone=repr(time_zone.strip()[:64]), examples=ZONE_EXAMPLES
                ) from None
        given = [
            v
            for v in (notice_mode, timeout_limit, lobby_minutes, review_mode, language, time_zone)
            if v is not None
        ]
        if not given and not reset:
            return await self.play_settings(guild_id)
        token = self._settings.token()
        async with self._db.transaction() as tx:
            record = (
                PlayConfigRecord(guild_id)
                if reset
                else await self._repo.get_play_config(tx, guild_id)
            )
            record = replace(
                record,
                notice_mode=record.notice_mode if notice_mode is None else notice_mode,
                timeout_limit=record.timeout_limit if timeout_limit is None else timeout_limit,
                lobby_minutes=record.lobby_minutes if lobby_minutes is None else lobby_minutes,
                review_mode=record.review_mode if review_mode is None else review_mode,
                language=record.language
                if language is None
                else (None if language == AUTO_LANGUAGE else language),
                time_zone=record.time_zone if time_zone is None else time_zone,
            )
            await self._repo.put_play_config(tx, record)
            await tx.changed(PLAY_TOPIC, str(guild_id))
        settings = _effective(record)
        self._settings.wrote(guild_id, settings, token)
        return settings

    # --- member preferences -------------------------------------------------------------------

    async def notices_on(self, user_id: int) -> bool:
        """Whether a member wants turn notices (yes unless he turned them off)."""
        cached = self._notices.get(user_id)
        if cached is not None:
            return cached
        token = self._notices.token()
        async with self._db.read() as tx:
            value = await self._repo.get_notices(tx, user_id)
        on = True if value is None else value
        self._notices.keep(user_id, on, token)
        return on

    async def set_notices(self, user_id: int, on: bool) -> None:
        """A member turns his turn notices on or off."""
        token = self._notices.token()
        async with self._db.transaction() as tx:
            await self._repo.set_notices(tx, user_id, on)
            await tx.changed(NOTICES_TOPIC, str(user_id))
        self._notices.wrote(user_id, on, token)

    async def guide_on(self, user_id: int, guild_id: int, game: str) -> bool:
        """Whether a member's hand shows the hand guide in ``game``: as he chose, else for his
        first :data:`GUIDE_GAMES` games of that game on this server."""
        async with self._db.read() as tx:
            chosen = await self._repo.get_guide(tx, user_id)
            if chosen is not None:
                return chosen
            return await self._repo.games_played(tx, guild_id, game, user_id) < GUIDE_GAMES

    async def guide_choice(self, user_id: int) -> bool | None:
        """A member's own choice about the hand guide (None: the default)."""
        async with self._db.read() as tx:
            return await self._repo.get_guide(tx, user_id)

    async def set_guide(self, user_id: int, on: bool) -> None:
        """A member turns the hand guide on or off (every game, every server)."""
        async with self._db.transaction() as tx:
            await self._repo.set_guide(tx, user_id, on)

    async def reviews_allowed(self, user_id: int) -> bool:
        """Whether a member lets others review his games (no unless he said so)."""
        async with self._db.read() as tx:
            return await self._repo.get_reviews(tx, user_id)

    async def set_reviews_allowed(self, user_id: int, on: bool) -> None:
        """A member lets others review his games, or stops letting them."""
        async with self._db.transaction() as tx:
            await self._repo.set_reviews(tx, user_id, on)

    # --- kept messages ------------------------------------------------------------------------

    async def messages(self, game_id: str) -> list[GameMessage]:
        """The messages kept for a game."""
        async with self._db.read() as tx:
            return await self._repo.messages(tx, game_id)

    async def keep_message(
        self, game_id: str, user_id: int, kind: str, channel_id: int, message_id: int
    ) -> None:
        """Remember the message of one kind for a member in a game."""
        async with self._db.transaction() as tx:
            await self._repo.put_message(
                tx, GameMessage(game_id, user_id, kind, channel_id, message_id)
            )

    async def forget_message(self, game_id: str, user_id: int, kind: str) -> None:
        """Forget a kept message (it was deleted)."""
        async with self._db.transaction() as tx:
            await self._repo.delete_message(tx, game_id, user_id, kind)

    # --- seat states --------------------------------------------------------------------------

    async def seat_states(self, game_id: str) -> list[SeatStateRecord]:
        """The stored seat states of a game."""
        async with self._db.read() as tx:
            return await self._repo.seats(tx, game_id)

    async def save_seat(
        self, game_id: str, seat: int, timeouts: int, out: str | None, *, tx: Tx | None = None
    ) -> None:
        """Store a seat's consecutive timeouts and status: in ``tx`` when given (so it commits
        with the step that counted them), else in a transaction of its own."""
        record = SeatStateRecord(game_id, seat, timeouts, out)
        if tx is not None:
            await self._repo.put_seat(tx, record)
            return
        async with self._db.transaction() as tx:
            await self._repo.put_seat(tx, record)


def _effective(record: PlayConfigRecord) -> PlaySettings:
    return PlaySettings(
        guild_id=record.guild_id,
        notice_mode=record.notice_mode or "dm",
        timeout_limit=record.timeout_limit or DEFAULT_TIMEOUT_LIMIT,
        lobby_minutes=record.lobby_minutes or DEFAULT_LOBBY_MINUTES,
        review_mode=record.review_mode,
        language=record.language,
        time_zone=record.time_zone or "UTC",
    )
