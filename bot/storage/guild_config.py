"""SQL for per-guild settings (``guild_config``). ``None`` means "use the application default"."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.storage.db import Tx
from bot.storage.timestamps import to_db_time

__all__ = ["GuildConfigRecord", "GuildConfigRepo"]


@dataclass(frozen=True, slots=True)
class GuildConfigRecord:
    """A guild's overrides; each ``None`` falls back to the application default."""

    guild_id: int
    ante: int | None = None
    starting_chips: int | None = None
    daily_amount: int | None = None
    turn_seconds: int | None = None


class GuildConfigRepo:
    """Guild settings. Stateless: every method works inside the caller's transaction."""

    async def get(self, tx: Tx, guild_id: int) -> GuildConfigRecord:
        """The guild's overrides (all ``None`` when the guild never changed a setting)."""
        row = await tx.fetchone(
            "SELECT ante, starting_chips, daily_amount, turn_seconds FROM guild_config "
            "WHERE guild_id = ?",
            (guild_id,),
        )
        if row is None:
            return GuildConfigRecord(guild_id)
        return GuildConfigRecord(
            guild_id=guild_id,
            ante=row["ante"],
            starting_chips=row["starting_chips"],
            daily_amount=row["daily_amount"],
            turn_seconds=row["turn_seconds"],
        )

    async def put(self, tx: Tx, record: GuildConfigRecord, updated_at: datetime) -> None:
        """Replace the guild's overrides with ``record`` (``None`` fields reset to default)."""
        await tx.execute(
            "INSERT INTO guild_config (guild_id, ante, starting_chips, daily_amount, turn_seconds,"
            " updated_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
            "ante = excluded.ante, starting_chips = excluded.starting_chips, "
            "daily_amount = excluded.daily_amount, turn_seconds = excluded.turn_seconds, "
            "updated_at = excluded.updated_at",
            (
                record.guild_id,
                record.ante,
                record.starting_chips,
                record.daily_amount,
                record.turn_seconds,
                to_db_time(updated_at),
            ),
        )
