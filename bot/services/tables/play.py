"""Play: the start (antes, the deal), a member's action, the computer seats' turns, and applying
and committing one action through the engine."""

from __future__ import annotations

import asyncio
import json
import logging
import random
from dataclasses import dataclass
from typing import Any

from bot.ai.base import AnyPlayer
from bot.ai.family import ai_of
from bot.ai.review_words import Words
from bot.engine import EngineError, IllegalAction
from bot.engine.events import TurnStarted
from bot.engine.family import Action as AnyAction
from bot.engine.family import State as AnyState
from bot.engine.family import engine_of
from bot.locale import N_, EventLine, Message
from bot.services.absence import passive_action
from bot.services.chips import HOUSE_ID
from bot.services.errors import UserError
from bot.services.tables.core import StaleTable
from bot.services.tables.model import MAX_RECENT, Outcome, Step, Table
from bot.services.tables.settlement import TableSettlement, _settle_flags
from bot.services.tables.store import _apply, _seats_json, bound_table
from bot.services.tables.words import _opening_line, _record_settlement, _refusal, _rules_refusal
from bot.storage.db import Tx
from bot.storage.errors import StaleVersionError
from bot.storage.games import GameEnd, GameRecord, GameStatus

__all__ = ["NO_HINTS", "TablePlay"]

NO_HINTS = N_(
    "Hints are only for unrated tables where you play the computer alone "
    "(`/table new rated: False`); rated and tournament games never have them."
)

log = logging.getLogger(__name__)


class TablePlay(TableSettlement):
    """Starting games and playing their actions."""

    async def start(
        self, channel_id: int, user_id: int, *, interaction: int | None = None
    ) -> Outcome:
        """The host starts the game: antes into escrow, the deal, AI turns until a human's.

        ``interaction``: the id of the Discord interaction that asked (it applies once)."""
        async with self._locked(channel_id) as table:
            self._need_lobby(table)
            self._need_host(table, user_id)
            players = len(table.seats)
            if players < 2:
                raise UserError(
                    "At least two players are needed: ask someone to join, or add an AI."
                )
            if table.by_difference and any(s.is_ai for s in table.seats):
                raise UserError(
                    "Settling by point difference needs two members: a computer player can't "
                    "pay or be paid. Remove the AI or open a table settled by the pot."
                )
            engine = engine_of(table.game)
            try:
                rules = engine.make_rules(
                    table.game,
                    players,
                    table.rule_set,
                    table.sets,
                    **table.variants,
                    **_settle_flags(table.settlement, table.settle_rate),
                )
            except EngineError as exc:
                raise UserError("Can't start: {exc}.", exc=_rules_refusal(exc)) from None
            antes = {s.user_id: table.ante for s in table.seats if s.user_id is not None}
            # The house stakes every computer seat's ante (one escrow row for all of them).
            ai_seats = sum(1 for s in table.seats if s.is_ai)
            if ai_seats and table.ante > 0 and not table.by_difference:
                stake = table.ante * ai_seats
                house = await self._chips.house_balance(table.guild_id)
                if house < stake:
                    # Two messages, not "ante(s)": a catalogue entry each (Chinese has one).
                    refusal = (
                        "The house can't stake the computer players: {ai_seats} ante needs "
                        "{stake} chips and the house has {house}. A server manager can fund "
                        "it with `/kapadmin house`, or play with fewer computer players or a "
                        "smaller ante."
                        if ai_seats == 1
                        else "The house can't stake the computer players: {ai_seats} antes need "
                        "{stake} chips and the house has {house}. A server manager can fund "
                        "it with `/kapadmin house`, or play with fewer computer players or a "
                        "smaller ante."
                    )
                    raise UserError(
                        refusal, ai_seats=ai_seats, stake=f"{stake:,}", house=f"{house:,}"
                    )
                antes[HOUSE_ID] = stake
            deal = engine.deal(rules, self._rng, thrower=table.thrower)
            state = engine.new_game(rules, [s.name for s in table.seats], deal)
            deadline = self._deadline_for(table, state)
            carried = 0
            # The antes, the carried pot and the start commit together: a crash can never leave
            # a lobby holding antes (nor a running game without them).
            try:
                async with self._games.transaction() as tx:
                    await self._claim(tx, table, interaction)
                    # Settled by difference: no antes and no pot; the loser pays at the end.
                    if table.ante > 0 and antes and not table.by_difference:
                        await self._chips.escrow_antes(
                            table.id, table.guild_id, antes, channel_id=table.channel_id, tx=tx
                        )
                    if not table.by_difference and await self._chips.carried_pot(
                        table.guild_id, table.channel_id, tx=tx
                    ):
                        carried = await self._chips.collect_carried_pot(
                            table.id, table.guild_id, table.channel_id, tx=tx
                        )
                    record = await self._games.start(
                        table.id,
                        expected_version=table.version,
                        deal_json=json.dumps(deal.to_json()),
                        rules_json=json.dumps(_started_settings(table, rules.flags())),
                        seats_json=_seats_json(table.seats),
                        deadline=deadline,
                        tx=tx,
                    )
            except StaleVersionError:
                raise StaleTable from None
            table.version = record.version
            table.state = state
            table.status = GameStatus.RUNNING
            table.deadline = deadline
            table.lobby_closes_at = None
            table.recent = [_opening_line(table, deal)]
            table.carried = carried
            if carried:
                table.recent.append(
                    Message(
                        "💰 {chips} chips carried over from a drawn game join the pot.",
                        chips=f"{carried:,}",
                    )
                )
            outcome = Outcome(table, lines=list(table.recent))
            await self._advance(table, outcome)
            log.info("table %s started: %s", table.id, rules.describe())
        return outcome

    async def hint(self, channel_id: int, user_id: int) -> Words:
        """The expert's move for the member to act and why (one line of
        :class:`~bot.ai.review_words.Words`), decided from his own view only, and noted in the
        game's record. Refused in words anywhere a hint is not allowed: a rated game, a
        tournament's, a table with another member (:meth:`Table.hints_allowed`), or not his
        turn."""
        async with self._locked(channel_id) as table:
            seat = table.seat_of(user_id)
            if seat is None:
                raise UserError("You are not playing at this table.")
            if not table.hints_allowed():
                raise UserError(NO_HINTS)
            view = table.view_for(user_id)
            if not table.running or view is None or view.result is not None:
                raise UserError("The game is not under way: there is nothing to hint.")
            if not view.my_turn or seat in table.out:
                raise UserError("A hint is for your own turn: wait for it.")
            action, words = ai_of(table.game).hint(view, table.legal())
            await self._games.add_hint(
                table.id,
                seat=seat,
                turn=view.turn,
                move=str(action),
                created_at=self._clock.now().timestamp(),
            )
            log.info("table %s: hint for seat %s on turn %s", table.id, seat, view.turn)
            return words

    async def hints_of(self, game_id: str) -> list[tuple[int, int, str]]:
        """The hints a game's players asked for, in order: (seat, turn, move suggested)."""
        return await self._games.hints(game_id)

    async def act(
        self,
        channel_id: int,
        user_id: int,
        action: AnyAction | str,
        *,
        version: int | None = None,
        interaction: int | None = None,
    ) -> Outcome:
        """Play an action for a member; then the computer seats play until a human's turn.

        ``version`` (from a button) must match the table's, or the click is out of date.
        ``interaction``: the id of the Discord interaction that carried the action: a second
        delivery of it (to this process or another) is refused, so it applies once.
        """
        async with self._locked(channel_id) as table:
            state = self._need_running(table)
            seat = table.seat_of(user_id)
            if seat is None:
                raise UserError("You are not playing at this table.")
            if version is not None and version != table.version:
                raise StaleTable
            if state.current != seat:
                raise UserError(
                    "It is {player}'s turn, not yours.", player=table.seats[state.current].name
                )
            if isinstance(action, str):
                action = _parse_for(state, action, table.game)
            outcome = Outcome(table)
            # He is back: only timeouts in a row count toward being out (reset with his move,
            # in its transaction).
            await self._play(
                table,
                seat,
                action,
                outcome,
                interaction=interaction,
                back=bool(table.timeouts.get(seat)),
            )
            for listener in list(self.act_listeners):
                try:
                    await listener(table, user_id)
                except Exception:
                    log.exception("table %s: an action listener failed", table.id)
            await self._advance(table, outcome)
        return outcome

    async def resume_ai(self, table: Table) -> Outcome:
        """After a restore: let computer seats play if it is their turn."""
        async with table.lock, bound_table(table):
            outcome = Outcome(table)
            if await self._revalidate(table) and table.running:
                await self._advance(table, outcome)
        return outcome

    async def _play(
        self,
        table: Table,
        seat: int,
        action: AnyAction,
        outcome: Outcome,
        *,
        by_timeout: bool = False,
        interaction: int | None = None,
        back: bool = False,
    ) -> None:
        """Apply one action and commit it (with the result, if it ends the game), together
        with the interaction that carried it (see :meth:`_claim`) and, when the player is
        ``back`` after timeouts, his count set back to 0."""
        state = table.state
        assert state is not None
        move = self._move(table, state, seat, action)
        try:
            async with self._games.transaction() as tx:
                await self._claim(tx, table, interaction)
                record, settled_line = await self._commit_move(tx, table, table.version, move)
                if back:
                    await self._save_seat(table, seat, tx=tx, timeouts=0)
        except StaleVersionError:
            raise StaleTable from None
        if back:
            table.timeouts[seat] = 0
        self._moved(table, move, record, outcome, settled_line, by_timeout=by_timeout)

    def _move(self, table: Table, before: AnyState, seat: int, action: AnyAction) -> _Move:
        """Work out one action of ``seat`` from ``before`` (nothing is written or changed): a
        refusal in words when it is illegal."""
        try:
            after, events = _apply(before, action)
        except IllegalAction as exc:
            raise _refusal(exc, table.game) from None
        end = None
        if after.result is not None:
            winner = after.result.winner
            status = GameStatus.FINISHED if winner is not None else GameStatus.DRAWN
            end = GameEnd(status, self._clock.now(), winner)
        deadline = None if end is not None else self._deadline_after(table, before, after)
        # The engine normalises `take` to a tile; log the action as it was applied.
        logged = _applied_notation(before, after, action)
        return _Move(seat, action, after, tuple(events), end, deadline, logged)

    async def _commit_move(
        self, tx: Tx, table: Table, version: int, move: _Move
    ) -> tuple[GameRecord, str | None]:
        """Write one worked-out action in ``tx`` over the row at ``version``; the final action
        and its settlement go together (a crash or a busy database leaves both or neither, and
        the move is then simply played again)."""
        record, _ = await self._games.append_action(
            table.id,
            expected_version=version,
            seat=move.seat,
            notation=move.logged,
            created_at=self._clock.now(),
            deadline=move.deadline,
            end=move.end,
            tx=tx,
        )
        if move.end is None:
            return record, None
        settled_line = await self._settle_chips(table, move.after, tx)
        await self._games.mark_settled(table.id, tx=tx)
        await self._rate(table, tx)
        return record, settled_line

    def _moved(
        self,
        table: Table,
        move: _Move,
        record: GameRecord,
        outcome: Outcome,
        settled_line: str | None,
        *,
        by_timeout: bool = False,
    ) -> None:
        """A committed action: the table's copy and the outcome follow it."""
        engine = engine_of(table.game)
        table.version = record.version
        table.state = move.after
        table.deadline = move.deadline
        outcome.steps.append(
            Step(move.seat, move.action, move.events, by_timeout, move.end is not None)
        )
        for event in move.events:
            names = [s.name for s in table.seats]
            line = EventLine(engine.describe_event(event, None, names), event, names)
            outcome.lines.append(line)
            if not isinstance(event, TurnStarted):
                # The message says whose turn it is: "Turn N: X to play" lines would fill a
                # third of "Recent" and leave barely one turn of play in it.
                table.recent.append(line)
        del table.recent[:-MAX_RECENT]
        if move.end is not None:
            table.status = move.end.status
            table.deadline = None
            _record_settlement(table, outcome, settled_line)

    async def _advance(self, table: Table, outcome: Outcome) -> None:
        """Computer seats play until a human must act or the game ends.

        Another process that found the computer's turn waiting may play it at the same moment:
        whichever commits first plays it, and the other stops here with its copy rebuilt."""
        try:
            await self._advance_seats(table, outcome)
        except StaleTable:
            await self._revalidate(table, force=True)

    async def _advance_seats(self, table: Table, outcome: Outcome) -> None:
        while table.state is not None and table.state.result is None:
            seat = table.state.current
            info = table.seats[seat]
            if seat in table.out:
                # A folded seat plays no more: its turns pass passively (it can never win).
                await self._play(
                    table, seat, passive_action(table.state, seat, self._ai_rng), outcome
                )
                continue
            if not info.is_ai:
                return
            level = info.ai_level or self.defaults.timeout_ai_level
            player = _ai_player(table.game, level)
            if ai_of(table.game).searching(level):
                # A searching player thinks for up to a second (longer on a fresh machine while
                # its kernel compiles): off the event loop, so other tables and commands go on.
                # The table's lock is held, so nothing else touches this state meanwhile.
                rng = random.Random(self._ai_rng.getrandbits(64))
                choice = await asyncio.to_thread(_ai_choice, player, table.state, seat, rng)
            else:
                choice = _ai_choice(player, table.state, seat, self._ai_rng)
            await self._play(table, seat, choice, outcome)


@dataclass(frozen=True, slots=True)
class _Move:
    """One action worked out from a state, not yet committed (:meth:`TablePlay._move`)."""

    seat: int
    action: AnyAction
    after: AnyState
    events: tuple[Any, ...]
    end: GameEnd | None
    deadline: float | None
    logged: str


def _ai_player(game: str, level: str) -> AnyPlayer:
    """A computer player of ``game`` at ``level``; the random player if that level does not
    exist (yet)."""
    # A level can vanish between releases; a turn must still be played, so a stored or
    # configured level never stalls a game.
    ai = ai_of(game)
    try:
        return ai.player(game, level)
    except ValueError:
        log.warning("AI level %r does not exist for %s: the random player stands in", level, game)
        return ai.player(game, "random")


def _ai_choice(player: AnyPlayer, state: AnyState, seat: int, rng: random.Random) -> AnyAction:
    """What a computer player picks for ``seat`` from its view and the legal actions."""
    engine = engine_of(state.rules.game)
    picked: AnyAction = player.choose(engine.view(state, seat), engine.legal_actions(state), rng)
    return picked


def _parse_for(state: AnyState, text: str, game: str) -> AnyAction:
    """Read a player's action in the game's notation (its family resolves a tile name shared by
    two kinds, ``Nine``: 6-3 and 5-4, to the one of them the player can use now); a refusal in
    words when it is not one."""
    try:
        action: AnyAction = engine_of(game).resolve(state, text)
    except EngineError as exc:
        raise _refusal(exc, game) from None
    return action


def _applied_notation(before: AnyState, after: AnyState, action: AnyAction) -> str:
    """What the action log keeps of an action just applied (the family's notation: a bare
    ``take`` names the tile it took)."""
    return engine_of(before.rules.game).logged(before, after, action)


def _started_settings(table: Table, flags: Any) -> dict[str, Any]:
    """What a started game's row keeps of its table: the rules' flags, who threw the dice and,
    for an unrated game only (older rows have no key: rated), that it is not rated."""
    settings: dict[str, Any] = {"flags": flags, "thrower": table.thrower}
    if not table.rated:
        settings["rated"] = False
    return settings
