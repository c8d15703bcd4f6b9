"""Running an event's rounds: counting finished games, deciding matches, opening the next
games in their threads, pairing the next round and paying out at the end."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from bot.engine.family import engine_of
from bot.locale import Message
from bot.services.errors import UserError
from bot.services.tables import Outcome, SeatInfo
from bot.services.tournaments.core import TournamentCore
from bot.services.tournaments.host import MAX_STEPS, pot_id
from bot.services.tournaments.words import TEXT, Worded, say_in
from bot.storage.games import GameStatus
from bot.storage.tournaments import MatchRow, TournamentRecord
from bot.tournament import (
    Event,
    Format,
    GameRecord,
    Match,
    Result,
    Round,
    match_result,
    table_result,
)
from bot.tournament.describe import match_label, pairings_text, results_text, standings_text
from bot.tournament.rules_text import game_name

__all__ = ["TournamentRounds", "stored_moment"]

log = logging.getLogger(__name__)


class TournamentRounds(TournamentCore):
    """The rounds of an event, carried on from what is stored (:meth:`advance`)."""

    async def advance(self, tournament_id: int) -> None:
        """Carry the event on from what is stored: count finished games, decide matches, open
        the next games, post standings and pair the next round, pay out at the end."""
        lock = self._lock(tournament_id)
        if lock.locked():
            # Called from inside a step (a table the computer players finished at once, a
            # resignation): the step under way looks again before it lets go.
            self._again.add(tournament_id)
            return
        async with lock, self._across_processes(tournament_id):
            while True:
                self._again.discard(tournament_id)
                for _ in range(MAX_STEPS):
                    if not await self._step(tournament_id):
                        break
                if tournament_id not in self._again:
                    break
        if self.standings_changed is not None:
            # Every result comes through here (a game's end, the time limit, a no-show, a
            # drop, the organiser's result): the board's keeper draws what changed.
            self.standings_changed(tournament_id)

    async def _step(self, tournament_id: int) -> bool:
        """One step of :meth:`advance`; False when there is nothing more to do now."""
        async with self._db.read() as tx:
            record = await self._require(tx, tournament_id)
        if record.status != "running" or record.state is None:
            return False
        event = Event.from_dict(record.state)
        rnd = event.current_round
        if event.settings.format is Format.ARENA and rnd is not None:
            return await self._arena_step(record, event, rnd)
        if rnd is None or rnd.done:
            waiting = stored_moment(record.options.get("next_round_at"))
            if waiting is not None:
                # A scheduled wait (issue 23): the clock pairs the round once it is time.
                if waiting > self._clock.now():
                    return False
                return await self._next_round(record, event)
            if rnd is not None:
                await self._post(
                    record,
                    Message(
                        TEXT["standings"],
                        name=record.name,
                        number=rnd.number,
                        text=Worded(lambda loc: standings_text(event, say=say_in(loc))),
                    ),
                    pictures=True,
                )
            if await self._wait_for_round(record, event):
                return False
            return await self._next_round(record, event)
        return await self._play(record, event, rnd)

    async def _play(self, record: TournamentRecord, event: Event, rnd: Round) -> bool:
        """Count the games of the round's open matches and open their next games; True when
        something was stored."""
        waiting = event.open_matches()
        rows = {
            r.match_id: r
            for r in await self._match_rows(record.id, rnd.number, [m.id for m in waiting])
        }
        # The games still in play, read at once: most matches of a big round (an arena's
        # hundred) are mid-game, and nothing about them changes in this step.
        latest = [r.game_ids[-1] for r in rows.values() if len(r.game_ids) > len(r.games)]
        in_play = await self._games.open_among(latest) if latest else set()
        progressed = False
        for match in waiting:
            row = rows.get(match.id) or MatchRow(match.id, rnd.number, None)
            if len(row.game_ids) > len(row.games) and row.game_ids[-1] in in_play:
                continue
            if await self._count_games(record, event, rnd, match, row):
                progressed = True
                continue
            if await self._playing(row):
                continue
            await self._open_game(record, event, match, row)
            progressed = True
        return progressed

    async def _arena_step(self, record: TournamentRecord, event: Event, rnd: Round) -> bool:
        """One step of a running arena: finished games are counted, their players paired again
        at once (each new pairing stored, in one commit, before its table opens, so a restart
        opens it), and the games of new pairings opened. Once its time is up nobody is paired
        and the event finishes when its last game has ended."""
        if event.closing and rnd.done:
            return await self._next_round(record, event)  # None: it pays out and closes
        progressed = await self._play(record, event, rnd)
        new = event.arena_pair()
        if not new:
            return progressed
        record.state = event.to_dict()
        async with self._db.transaction() as tx:
            for match in new:
                await self._repo.put_match(tx, record.id, MatchRow(match.id, rnd.number, None))
            await self._repo.update(tx, record)
        return True

    async def _next_round(self, record: TournamentRecord, event: Event) -> bool:
        new: Round | None = event.next_round()
        while new is not None and new.done:  # only byes and forfeits: pair the next one
            new = event.next_round()
        if new is None:
            await self._finish(record, event)
            return False
        options = {k: v for k, v in record.options.items() if k != "next_round_at"}
        record.options = options
        record.state = event.to_dict()
        # An arena's one round lasts the arena's time: at its end nobody is paired again.
        minutes = (
            event.settings.arena_minutes
            if event.settings.format is Format.ARENA
            else int(options.get("round_minutes", 60))
        )
        record.round_deadline = self._clock.now() + timedelta(minutes=minutes)
        async with self._db.transaction() as tx:
            for match in new.matches:
                if not match.done:
                    await self._repo.put_match(tx, record.id, MatchRow(match.id, new.number, None))
            await self._repo.update(tx, record)
        said = self._next_round_said(record, new.number + 1)

        def then(locale: str) -> str:
            # When the next round starts, if the event has a schedule (issue 23).
            return "" if said is None else "\n" + said.localized(locale)

        await self._post(
            record,
            Message(
                TEXT["pairings"],
                name=record.name,
                number=new.number,
                text=Worded(lambda loc: pairings_text(event, new, say_in(loc)) + then(loc)),
            ),
        )
        if event.settings.late_until:  # its Join button goes once late entry has closed
            await self._refresh(record)
        return True

    # ----------------------------------------------------------------------------- schedule

    async def _wait_for_round(self, record: TournamentRecord, event: Event) -> bool:
        """Whether the next round waits for its scheduled time (issue 23, "Schedule"): a start
        time set for it, or the break after a round. The wait is stored (``next_round_at`` in
        the event's options) and posted once; :meth:`_step` pairs the round when it is due."""
        times = record.options.get("round_starts") or []
        pause = int(record.options.get("round_break") or 0)
        if not times and not pause:
            return False
        probe = Event.from_dict(event.to_dict())  # pairing is deterministic: a dry run
        upcoming = probe.next_round()
        if upcoming is None:
            return False  # the event is over: the results are not kept waiting
        number = upcoming.number
        now = self._clock.now()
        until: datetime | None = None
        if number <= len(times) and times[number - 1]:
            until = stored_moment(times[number - 1])
        elif pause and event.current_round is not None:
            until = now + timedelta(minutes=pause)
        if until is None or until <= now:
            return False
        record.options = {**record.options, "next_round_at": until.isoformat()}
        record.round_deadline = None
        async with self._db.transaction() as tx:
            await self._repo.update(tx, record)
        await self._post(
            record,
            Message(
                TEXT["round_waits"],
                number=number,
                name=record.name,
                when=f"<t:{int(until.timestamp())}:t>",
                left=f"<t:{int(until.timestamp())}:R>",
            ),
        )
        return True

    @staticmethod
    def _next_round_said(record: TournamentRecord, number: int) -> Message | None:
        """What the pairings post adds about when round ``number`` starts (None: no
        schedule)."""
        times = record.options.get("round_starts") or []
        if number <= len(times) and times[number - 1]:
            at = stored_moment(times[number - 1])
            if at is not None:
                return Message(TEXT["next_round_at"], when=f"<t:{int(at.timestamp())}:F>")
        pause = int(record.options.get("round_break") or 0)
        if pause:
            return Message(TEXT["next_round_break"], n=pause)
        return None

    async def _count_games(
        self, record: TournamentRecord, event: Event, rnd: Round, match: Match, row: MatchRow
    ) -> bool:
        """Take in the games of a match that ended since the last look; record the match
        when it is decided. True when something was stored."""
        changed = False
        kept: list[str] = row.game_ids[: len(row.games)]
        for game_id in row.game_ids[len(row.games) :]:
            game = await self._games.get(game_id)
            if game is None or game.status in (GameStatus.ABORTED, GameStatus.BROKEN):
                changed = True  # a game cut short (time, a drop): it does not count
                continue
            kept.append(game_id)
            if game.status in (GameStatus.FINISHED, GameStatus.DRAWN):
                seated = row.seatings.get(game_id, list(match.players))
                winner = None if game.winner_seat is None else seated[game.winner_seat]
                points = self._points(game.channel_id, game_id, seated)
                row.games.append(GameRecord(winner, points).to_dict())
                changed = True
        row.game_ids = kept
        result = self._result(event, rnd, match, row, timed_out=False)
        if result is not None:
            event.record(match.id, result)
            record.state = event.to_dict()
        if changed or result is not None:
            async with self._db.transaction() as tx:
                await self._repo.put_match(tx, record.id, row)
                if result is not None:
                    await self._repo.update(tx, record)
        return result is not None or (changed and not await self._playing(row))

    def _points(self, thread_id: int, game_id: str, seated: Sequence[int]) -> dict[int, int]:
        """The points of a finished game of a game with points (Tsung Shap: its family's
        standing), read from its table (still held after its end; a game counted only after a
        restart, or ended by a forfeit, has none, and counts by its winner)."""
        table = self._tables.get(thread_id)
        if table is None or table.id != game_id or table.state is None:
            return {}
        if table.state.result is None:
            return {}
        scores = engine_of(table.game).standing(table.state).scores
        if scores is None or len(scores) != len(seated):
            return {}
        return {pid: int(score) for pid, score in zip(seated, scores, strict=True)}

    @staticmethod
    def _result(
        event: Event, rnd: Round, match: Match, row: MatchRow, *, timed_out: bool
    ) -> Result | None:
        games = [GameRecord.from_dict(g) for g in row.games]
        if event.settings.two_player:
            a, b = match.players
            return match_result(
                event.settings,
                (a, b),
                games,
                knockout=event.is_knockout(match.id),
                timed_out=timed_out,
            )
        return table_result(
            event.settings, match.players, games, final=rnd.phase == "final", timed_out=timed_out
        )

    async def _playing(self, row: MatchRow) -> bool:
        """Whether the match's latest game is still being played."""
        if len(row.game_ids) <= len(row.games):
            return False
        game = await self._games.get(row.game_ids[-1])
        return game is not None and game.status.is_open

    async def _open_game(
        self, record: TournamentRecord, event: Event, match: Match, row: MatchRow
    ) -> None:
        """Open the match's next game at a table in its thread (the thread first, if new)."""
        settings = event.settings
        first = row.thread_id is None
        if row.thread_id is None:
            host = self._need_host()
            label = Worded(lambda loc: match_label(match.id, say_in(loc)))
            title = Message(TEXT["thread"], name=record.name, match=label)
            row.thread_id = await host.open_thread(record, match.id, title)
            async with self._db.transaction() as tx:
                await self._repo.put_match(tx, record.id, row)
        thread = row.thread_id
        self._threads[thread] = record.id
        entries = {e.user_id: e for e in await self._entries(record.id, active_only=False)}
        seated = list(match.players)
        if not settings.two_player:
            # A table plays on without players who left the event.
            seated = [p for p in match.players if p not in event.withdrawn]
        seats = []
        for pid in seated:
            entry = entries.get(pid)
            name = entry.name if entry is not None else event.player(pid).name
            if pid < 0:
                level = (entry.ai_level if entry is not None else None) or "greedy"
                seats.append(SeatInfo(name, ai_level=level))
            else:
                seats.append(SeatInfo(name, user_id=pid))
        existing = await self._tables.lookup(thread)  # any process may hold it
        if existing is not None and existing.status is GameStatus.LOBBY:
            # A rematch someone opened from the last game's message: the event seats the
            # next game itself.
            with contextlib.suppress(UserError):
                await self._tables.cancel(thread, existing.host_id, admin=True)
            existing = None
        window = self._has_window(event, match, row)
        if existing is not None and existing.status.is_open:
            # Opened just before a crash, before its id was stored: adopt it.
            row.game_ids.append(existing.id)
            row.seatings[existing.id] = seated[: len(existing.seats)]
            async with self._db.transaction() as tx:
                await self._repo.put_match(tx, record.id, row)
                if window:
                    await self._open_window(tx, record, event, match)
            return
        humans = [p for p in match.players if p >= 0]
        if first:
            games = settings.final_table_games if match.id == "F" else settings.games_per_table
            length = (
                Message(TEXT["best_of"], n=settings.best_of)
                if settings.two_player
                else Message(TEXT["games"], n=games)
            )
            mentions = ", ".join(f"<@{p}>" for p in humans)
            await self._need_host().say(
                thread,
                record.guild_id,
                Message(
                    TEXT["match_open"],
                    mentions=mentions or Message(TEXT["computer_players"]),
                    match=Worded(lambda loc: match_label(match.id, say_in(loc))),
                    name=record.name,
                    game=Worded(lambda loc: game_name(settings.game, say_in(loc))),
                    n=length,
                ),
                humans,
            )
            if window:
                await self._need_host().say(
                    thread,
                    record.guild_id,
                    Message(TEXT["no_show_window"], n=settings.no_show_minutes),
                    [],
                    ready=record.id,
                )
        if len(seated) < 2:  # everyone else left: the table is decided by its games so far
            rnd, _ = event.find(match.id)
            result = self._result(event, rnd, match, row, timed_out=True)
            assert result is not None
            event.record(match.id, result)
            record.state = event.to_dict()
            async with self._db.transaction() as tx:
                await self._repo.update(tx, record)
            return
        outcome = await self._tables.open_seated(
            guild_id=record.guild_id,
            channel_id=thread,
            host_id=record.organiser_id,
            game=settings.game,
            seats=seats,
            rule_set=record.options.get("rule_set"),
            turn_seconds=int(record.options.get("turn_seconds", 120)),
        )
        row.game_ids.append(outcome.table.id)
        row.seatings[outcome.table.id] = seated
        async with self._db.transaction() as tx:
            await self._repo.put_match(tx, record.id, row)
            if window:
                await self._open_window(tx, record, event, match)
        await self._need_host().show_table(outcome)

    @staticmethod
    def _has_window(event: Event, match: Match, row: MatchRow) -> bool:
        """Whether the match's first game opens a no-show window: a two-player match with a
        member in it, in an event with a window (it opens once: a later game of the match, or
        a game replayed after ``/kapadmin endtable``, finds it there already)."""
        return (
            event.settings.two_player
            and event.settings.no_show_minutes > 0
            and not row.games
            and any(p >= 0 for p in match.players)
        )

    async def _open_window(
        self, tx: Any, record: TournamentRecord, event: Event, match: Match
    ) -> None:
        """Store the match's no-show window (in the commit that stores its first game)."""
        rnd, _ = event.find(match.id)
        deadline = self._clock.now().timestamp() + 60 * event.settings.no_show_minutes
        await self._repo.open_window(tx, record.id, rnd.number, match.id, deadline)

    async def game_ended(self, outcome: Outcome) -> None:
        """A table's game ended (the table service's listener): carry its event on."""
        tid = await self._event_of_thread(outcome.table.channel_id)
        if tid is not None:
            # Not inside the caller's handling: the next game opens in the same thread.
            await self.advance(tid)

    async def table_aborted(self, channel_id: int) -> bool:
        """A server manager ended the table in ``channel_id`` (``/kapadmin endtable``).

        The aborted game does not count and the match plays it again at once, in the same
        thread (the round's time limit still runs): ending a stuck or broken game must not
        decide a match against players who did nothing wrong. True when it was an event's."""
        tid = await self._event_of_thread(channel_id)
        if tid is None:
            return False
        await self.advance(tid)
        return True

    async def is_event_table(self, channel_id: int) -> bool:
        """Whether the table in ``channel_id`` plays a tournament match (its next game opens by
        itself, so its end message offers no rematch)."""
        return await self._event_of_thread(channel_id) is not None

    async def _event_of_thread(self, channel_id: int) -> int | None:
        """The event whose match plays in the thread ``channel_id``, if any."""
        tid = self._threads.get(channel_id)
        if tid is None:
            async with self._db.read() as tx:
                found = await self._repo.match_by_thread(tx, channel_id)
            if found is None:
                return None
            tid = found[0]
            self._threads[channel_id] = tid
        return tid

    async def _finish(self, record: TournamentRecord, event: Event) -> None:
        """Pay the prizes by the split (or refund when nobody can be paid) and close."""
        pot = await self._chips.pot(pot_id(record.id))
        pool = 0 if pot is None else pot.total
        prizes = event.payouts(pool) if pool else {}
        prizes = {p: a for p, a in prizes.items() if a > 0}
        ranking = event.ranking()
        record.status = "finished"
        record.state = event.to_dict()
        record.finished_at = self._clock.now()
        record.round_deadline = None
        record.results = {
            "ranking": [[p, event.player(p).name] for p in ranking],
            "prizes": [[p, a] for p, a in prizes.items()],
            "pool": pool,
            "players": len(event.players),
        }
        async with self._db.transaction() as tx:
            if pool and prizes:
                await self._chips.pay_split(pot_id(record.id), prizes, tx=tx)
            elif pool:
                await self._chips.refund(pot_id(record.id), tx=tx)
            await self._repo.update(tx, record)

        def results(locale: str) -> str:
            # results_text says so when nobody could be paid and the buy-ins went back.
            return results_text(event, pool, say_in(locale))

        await self._post(
            record, Message(TEXT["results"], name=record.name, text=Worded(results)), pictures=True
        )
        await self._refresh(record)
        log.info("tournament %s finished: %s chips paid", record.id, sum(prizes.values()))


def stored_moment(value: object) -> datetime | None:
    """A moment stored in an event's options (ISO 8601 text), or None."""
    return datetime.fromisoformat(value) if isinstance(value, str) and value else None
