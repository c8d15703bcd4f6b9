"""What a table stores besides its action log: its seats and lobby settings (the game row's
JSON), each seat's timeouts and whether it is out, and the server's play settings it reads."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.services.errors import UserError
from bot.services.tables.core import TableCore
from bot.services.tables.model import SeatInfo, Table
from bot.storage.errors import StaleVersionError

__all__ = ["TableStore"]


def _seats_json(seats: Sequence[SeatInfo]) -> str:
    return json.dumps([s.to_json() for s in seats])


class TableStore(TableCore):
    """Saving and loading a table's seats and settings."""

    async def _save_seats(self, table: Table, seats: Sequence[SeatInfo]) -> None:
        settings: dict[str, Any] = {
            "rule_set": table.rule_set,
            "sets": table.sets,
            "max_seats": table.max_seats,
            "thrower": table.thrower,
        }
        if table.variants:
            settings["variants"] = table.variants
        if table.by_difference:
            settings.update(settlement=table.settlement, settle_rate=table.settle_rate)
        try:
            record = await self._games.update(
                table.id,
                expected_version=table.version,
                seats_json=_seats_json(seats),
                rules_json=json.dumps(settings),
            )
        except StaleVersionError:
            raise UserError("That action is out of date: the table has moved on.") from None
        table.seats = list(seats)
        table.version = record.version

    async def _save_seat(self, table: Table, seat: int) -> None:
        if self._server is not None:
            await self._server.save_seat(
                table.id, seat, table.timeouts.get(seat, 0), table.out.get(seat)
            )

    async def _load_seats(self, table: Table) -> None:
        if self._server is None:
            return
        for record in await self._server.seat_states(table.id):
            table.timeouts[record.seat] = record.timeouts
            if record.out is not None:
                table.out[record.seat] = record.out

    async def _timeout_limit(self, guild_id: int) -> int:
        if self._server is None:
            return 3
        return (await self._server.play_settings(guild_id)).timeout_limit

    async def _lobby_close_time(self, guild_id: int, opened: float) -> float:
        minutes = (
            15
            if self._server is None
            else (await self._server.play_settings(guild_id)).lobby_minutes
        )
        return opened + minutes * 60
