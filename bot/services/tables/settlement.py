"""Settling a game's chips when it ends: the pot paid, refunded or carried over, or the point
difference paid (a game whose rules settle by difference: Tsung Shap); a forfeit's end and its
settlement; rating the game in the same transaction. What a game's end is worth comes from its
family (:class:`bot.engine.family.Results`)."""

from __future__ import annotations

import logging
from typing import Any

from bot.engine.family import State as AnyState
from bot.engine.family import engine_of
from bot.limits import quote_input
from bot.locale import Message
from bot.services.chips import HOUSE_ID
from bot.services.errors import UserError
from bot.services.tables.model import DIFFERENCE, MAX_RECENT, MAX_SETTLE_RATE, POT, Outcome, Table
from bot.services.tables.store import TableStore
from bot.services.tables.words import _difference_line, _record_settlement, _settlement_line
from bot.storage.db import Tx
from bot.storage.games import GameEnd, GameStatus

__all__ = ["TableSettlement"]

log = logging.getLogger(__name__)


class TableSettlement(TableStore):
    """Ending and settling games (each settlement commits with the game's end)."""

    async def _settle(self, table: Table, outcome: Outcome) -> None:
        """Settle a game whose final action is saved (idempotent), in its own transaction."""
        state = table.state
        assert state is not None and state.result is not None
        async with self._games.transaction() as tx:
            line = await self._settle_chips(table, state, tx)
            await self._games.mark_settled(table.id, tx=tx)
            await self._rate(table, tx)
        table.status = GameStatus.FINISHED if state.result.winner is not None else GameStatus.DRAWN
        table.deadline = None
        _record_settlement(table, outcome, line)

    async def _settle_chips(self, table: Table, state: AnyState, tx: Tx) -> str | None:
        """Pay the pot to the winner, or refund (or carry) every ante on a draw, inside ``tx``;
        the line that says so, or None when there was nothing to settle (idempotent)."""
        assert state.result is not None
        if table.by_difference:
            return await self._settle_difference(table, state, tx)
        winner = state.result.winner
        if winner is None:
            if state.rules.pot_carries_over:
                settled = await self._chips.carry_over(table.id, table.channel_id, tx=tx)
            else:
                settled = await self._chips.refund(table.id, tx=tx)
        else:
            seat = table.seats[winner]
            payee = HOUSE_ID if seat.user_id is None else seat.user_id
            settled = await self._chips.payout(table.id, payee, state.rules.rake_percent, tx=tx)
        return _settlement_line(table, settled, winner)

    async def _settle_difference(self, table: Table, state: AnyState, tx: Tx) -> str:
        """The loser pays the winner ``rate × difference`` (capped at his balance); idempotent."""
        engine = engine_of(table.game)
        standing = engine.standing(state)
        if standing.winner is None:
            return Message("A draw: nobody pays.")
        won, lost = standing.winner, 1 - standing.winner  # two seats: start refuses more
        winner = table.seats[won]
        loser = table.seats[lost]
        if winner.user_id is None or loser.user_id is None:  # pragma: no cover - start refuses
            raise RuntimeError(f"table {table.id}: difference settlement with a computer seat")
        settled = await self._chips.settle_difference(
            table.id,
            table.guild_id,
            winner.user_id,
            loser.user_id,
            engine.points_owed(state),
            tx=tx,
        )
        scores = standing.scores
        difference = 0 if scores is None else scores[won] - scores[lost]
        return _difference_line(winner, loser, difference, settled)

    async def _end_by_forfeit(self, table: Table, winner: int, why: str, outcome: Outcome) -> None:
        """End the game with ``winner`` as the only seat left, and settle it."""
        state = table.state
        assert state is not None
        seat = table.seats[winner]
        text = Message("{why}: {name} wins.", why=why, name=seat.name)
        line: str | None = None
        # The end and its settlement commit together (the invariant: no ended game unsettled).
        async with self._games.transaction() as tx:
            record = await self._games.finish(
                table.id,
                GameEnd(GameStatus.FINISHED, self._clock.now(), winner),
                expected_version=None,
                settled=True,
                tx=tx,
            )
            if table.by_difference:
                line = await self._forfeit_difference(table, state, winner, tx)
            else:
                payee = HOUSE_ID if seat.user_id is None else seat.user_id
                settled = await self._chips.payout(table.id, payee, state.rules.rake_percent, tx=tx)
                line = _settlement_line(table, settled, winner)
            await self._rate(table, tx)
        table.version = record.version
        table.status = GameStatus.FINISHED
        table.deadline = None
        table.winner_seat = winner
        table.end_text = text
        outcome.forfeit = True
        outcome.lines.append(Message("🏳️ {text}", text=text))
        table.recent.append(Message("🏳️ {text}", text=text))
        if line is not None:
            outcome.settlement = line
            outcome.lines.append(line)
            table.recent.append(line)
        del table.recent[:-MAX_RECENT]
        log.info("table %s ended by forfeit: seat %s wins", table.id, winner)

    async def _forfeit_difference(self, table: Table, state: AnyState, winner: int, tx: Tx) -> str:
        """Settled by difference: the player who gave up pays for the points he is behind."""
        loser = 1 - winner
        difference = engine_of(table.game).forfeit_points(state, winner)
        win_info, lose_info = table.seats[winner], table.seats[loser]
        if win_info.user_id is None or lose_info.user_id is None:  # pragma: no cover
            raise RuntimeError(f"table {table.id}: difference settlement with a computer seat")
        settled = await self._chips.settle_difference(
            table.id,
            table.guild_id,
            win_info.user_id,
            lose_info.user_id,
            difference * table.settle_rate,
            tx=tx,
        )
        return _difference_line(win_info, lose_info, difference, settled)

    async def _rate(self, table: Table, tx: Tx) -> None:
        """Record and rate an ended game in the transaction that settles it (idempotent: a
        replayed settlement never rates twice; see bot/services/ratings.py)."""
        if self._ratings is not None:
            await self._ratings.rate_finished_game(tx, table.id)


def _check_settlement(
    game: str, settlement: str | None, settle_rate: int | None
) -> tuple[str, int]:
    """The table's settlement mode and rate: ``pot`` (any game) or ``difference`` (a game
    whose family settles by difference: Tsung Shap; ``settle_rate`` chips per point, default
    1)."""
    mode = POT if settlement is None else settlement
    if mode not in (POT, DIFFERENCE):
        raise UserError(
            "Unknown settlement {mode}: choose pot or difference.", mode=quote_input(mode)
        )
    if mode == DIFFERENCE and DIFFERENCE not in engine_of(game).settlements(game):
        raise UserError("Settlement by difference is a Tsung Shap option.")
    if settle_rate is not None and mode != DIFFERENCE:
        raise UserError("A settle rate only applies to settlement by difference.")
    rate = 1 if settle_rate is None else settle_rate
    if type(rate) is not int or not 1 <= rate <= MAX_SETTLE_RATE:
        raise UserError(
            "The settle rate must be from 1 to {max_settle_rate} chips per point.",
            max_settle_rate=f"{MAX_SETTLE_RATE:,}",
        )
    return mode, rate


def _settle_flags(mode: str, rate: int) -> dict[str, Any]:
    """Rule overrides for the settlement (none for the pot, every game's default)."""
    return {"settlement": mode, "settle_rate": rate} if mode == DIFFERENCE else {}
