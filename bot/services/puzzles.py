"""Puzzles for members: the next puzzle for a member, his answer judged and rated, streaks,
the puzzle leaderboard, and the daily puzzle of a server (docs/commands.md, "Puzzles").

**Ratings.** Each member has one puzzle rating per server, starting at :data:`START_RATING`.
An answer moves it by Elo against the puzzle's own rating, which stays fixed (the build
estimates it, :func:`bot.ai.puzzles.rating_of`): ``K × (score − expected)``, ``K`` being
:data:`K_NEW` for a member's first :data:`NEW_ANSWERS` answers (so a rating finds its level
quickly, as Glicko's large early deviation does) and :data:`K_SETTLED` after. Only a member's
first answer to a puzzle is rated; answering it again shows the explanation and changes
nothing. A right answer adds one to the member's streak (and his best), a wrong one ends it.

**The daily puzzle** (:meth:`PuzzleService.due_posts`): a server manager chooses a channel
(:meth:`PuzzleService.set_daily`, Manage Server checked by the caller and passed in). Each day's
post is a row of ``puzzle_daily_posts`` (the server, the day in UTC, the puzzle, when it is
due): written once for the day by whichever process comes first (``ON CONFLICT DO NOTHING``),
and claimed by exactly one process (``UPDATE … WHERE posted_at IS NULL``) when due, so it is
posted once across processes and after a restart. The day's puzzle is the same for every
server: the game turns with the day, the puzzle is drawn from the day's name.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from bot.ai.puzzles import Puzzle, PuzzleSet, find_choice, question, shipped
from bot.engine import legal_actions, view
from bot.games import UnknownGame, find, games
from bot.services.clock import Clock
from bot.services.errors import UserError
from bot.services.puzzle_text import explanation
from bot.storage.db import Database, Tx
from bot.storage.errors import IntegrityError
from bot.storage.puzzles import (
    DailyPost,
    DailySetting,
    PuzzleAttempt,
    PuzzleSolver,
    PuzzlesRepo,
)

__all__ = [
    "K_NEW",
    "K_SETTLED",
    "NEW_ANSWERS",
    "START_RATING",
    "Answered",
    "PuzzleService",
    "daily_choice",
    "elo_expected",
    "explanation",
]

START_RATING = 1_500.0
"""A member's puzzle rating before his first answer."""

K_NEW = 40.0
"""Elo's K for a member's first :data:`NEW_ANSWERS` answers."""

K_SETTLED = 20.0
"""Elo's K after them."""

NEW_ANSWERS = 20
"""Answers rated with :data:`K_NEW`."""

BOARD_SIZE = 10
"""Members on the puzzle leaderboard."""


def elo_expected(rating: float, against: float) -> float:
    """The chance the Elo scale gives ``rating`` to beat ``against``."""
    return 1.0 / (1.0 + math.pow(10.0, (against - rating) / 400.0))


@dataclass(frozen=True, slots=True)
class Answered:
    """A member's answer judged: the puzzle, his answer (an offered move), whether it is the
    best, the rating before and after (equal when not rated: an answer given before), and the
    streaks after it."""

    puzzle: Puzzle
    answer: str
    solved: bool
    rated: bool
    rating_before: float
    rating_after: float
    streak: int
    best_streak: int


def daily_choice(day: date, sets: Callable[[str], PuzzleSet]) -> tuple[str, int] | None:
    """The puzzle of ``day`` (the same for every server): the game turns with the day, the
    puzzle is drawn from the day's name; None when no game ships puzzles."""
    offered = [info.name for info in games() if sets(info.name).puzzles]
    if not offered:
        return None
    game = offered[day.toordinal() % len(offered)]
    digest = hashlib.sha256(f"daily:{day.isoformat()}".encode()).digest()
    count = len(sets(game).puzzles)
    return game, sets(game).puzzles[int.from_bytes(digest[:8], "big") % count].number


class PuzzleService:
    """Puzzles for members (see the module's docstring)."""

    def __init__(
        self,
        db: Database,
        clock: Clock,
        *,
        sets: Callable[[str], PuzzleSet] = shipped,
        rng: random.Random | None = None,
    ) -> None:
        """``sets`` gives each game's puzzles (the shipped ones; tests pass their own)."""
        self.db = db
        self.clock = clock
        self.sets = sets
        self.repo = PuzzlesRepo()
        self.rng = rng if rng is not None else random.Random()

    # -- puzzles ---------------------------------------------------------------------------

    def games(self) -> list[str]:
        """The games with puzzles, in the registry's order."""
        return [info.name for info in games() if self.sets(info.name).puzzles]

    def _game(self, game: str | None) -> str:
        offered = self.games()
        if not offered:
            raise UserError("There are no puzzles yet.")
        if game is None:
            return self.rng.choice(offered)
        try:
            name = find(game).name
        except UnknownGame:
            raise UserError("There is no such game.") from None
        if name not in offered:
            raise UserError("There are no puzzles of that game yet.")
        return name

    def puzzle(self, game: str, number: int) -> Puzzle:
        """The puzzle ``number`` of ``game``; UserError when there is none."""
        try:
            got = self.sets(game).get(number)
        except UnknownGame:
            got = None
        if got is None:
            raise UserError("That puzzle does not exist (any more).")
        return got

    async def solver(self, guild_id: int, user_id: int) -> PuzzleSolver:
        """The member's puzzle record (the starting one before his first answer)."""
        async with self.db.read() as tx:
            got = await self.repo.solver(tx, guild_id, user_id)
        return got if got is not None else PuzzleSolver(guild_id, user_id, START_RATING)

    async def next_for(self, guild_id: int, user_id: int, game: str | None = None) -> Puzzle:
        """A puzzle for the member (of ``game``, or of a game drawn at random): one he has not
        answered, among the ten nearest his rating; any when he has answered them all."""
        name = self._game(game)
        async with self.db.read() as tx:
            solver = await self.repo.solver(tx, guild_id, user_id)
            done = await self.repo.attempted(tx, guild_id, user_id, name)
        rating = START_RATING if solver is None else solver.rating
        puzzles = self.sets(name).puzzles
        fresh = [p for p in puzzles if p.number not in done] or list(puzzles)
        fresh.sort(key=lambda p: (abs(p.rating - rating), p.number))
        return self.rng.choice(fresh[:10])

    async def answer(
        self, guild_id: int, user_id: int, game: str, number: int, answer: str
    ) -> Answered:
        """The member's answer to a puzzle judged, and rated if it is his first to it."""
        puzzle = self.puzzle(game, number)
        chosen = find_choice(puzzle, answer)
        if chosen is None:
            raise UserError("That is not one of the answers.")
        solved = chosen == puzzle.best
        now = self.clock.now()
        async with self.db.transaction() as tx:
            before = await self.repo.solver(tx, guild_id, user_id)
            solver = before if before is not None else PuzzleSolver(guild_id, user_id, START_RATING)
            if await self.repo.attempt(tx, guild_id, user_id, game, number) is not None:
                return Answered(
                    puzzle,
                    chosen,
                    solved,
                    False,
                    solver.rating,
                    solver.rating,
                    solver.streak,
                    solver.best_streak,
                )
            answers = solver.solved + solver.failed
            k = K_NEW if answers < NEW_ANSWERS else K_SETTLED
            score = 1.0 if solved else 0.0
            rating = solver.rating + k * (score - elo_expected(solver.rating, puzzle.rating))
            rating = round(rating, 1)
            streak = solver.streak + 1 if solved else 0
            after = PuzzleSolver(
                guild_id,
                user_id,
                rating,
                solver.solved + (1 if solved else 0),
                solver.failed + (0 if solved else 1),
                streak,
                max(solver.best_streak, streak),
            )
            try:
                await self.repo.add_attempt(
                    tx,
                    PuzzleAttempt(
                        guild_id, user_id, game, number, chosen, solved, solver.rating, rating
                    ),
                    now,
                )
            except IntegrityError:  # pragma: no cover - the attempt was read in this transaction
                raise UserError("You have answered this puzzle already.") from None
            await self.repo.put_solver(tx, after, now)
        return Answered(
            puzzle, chosen, solved, True, solver.rating, rating, streak, after.best_streak
        )

    async def leaderboard(self, guild_id: int, limit: int = BOARD_SIZE) -> list[PuzzleSolver]:
        """The server's best puzzle ratings, the highest first."""
        async with self.db.read() as tx:
            return await self.repo.board(tx, guild_id, limit)

    def position(self, puzzle: Puzzle) -> tuple[Any, list[Any]]:
        """What the seat to play sees of the puzzle's position (its view) and its legal
        moves, for the picture and the buttons."""
        state, seat = puzzle.state()
        return view(state, seat), list(legal_actions(state))

    @staticmethod
    def question(puzzle: Puzzle) -> str:
        """The puzzle's question (an English message id)."""
        return question(puzzle.game, puzzle.kind)

    # -- the daily puzzle ------------------------------------------------------------------

    async def set_daily(
        self, guild_id: int, channel_id: int | None, user_id: int, *, manages: bool
    ) -> bool:
        """Post the server's daily puzzle in ``channel_id`` from today on (None: stop it);
        ``manages`` says whether the member may manage the server. Returns whether a daily
        puzzle was stopped (for None) or set."""
        if not manages:
            raise UserError("Only a member who can manage the server can set the daily puzzle.")
        now = self.clock.now()
        async with self.db.transaction() as tx:
            if channel_id is None:
                return await self.repo.clear_daily(tx, guild_id)
            await self.repo.set_daily(tx, DailySetting(guild_id, channel_id, user_id), now)
            await self._schedule(tx, DailySetting(guild_id, channel_id, user_id), now, now)
        return True

    async def daily_setting(self, guild_id: int) -> DailySetting | None:
        """Where the server's daily puzzle is posted, or None."""
        async with self.db.read() as tx:
            return await self.repo.daily_setting(tx, guild_id)

    async def _schedule(
        self, tx: Tx, setting: DailySetting, day_start: datetime, due: datetime
    ) -> None:
        choice = daily_choice(day_start.date(), self.sets)
        if choice is None:
            return
        game, number = choice
        await self.repo.add_post(
            tx,
            DailyPost(
                setting.guild_id,
                day_start.date().isoformat(),
                setting.channel_id,
                game,
                number,
                due,
            ),
        )

    async def due_posts(self) -> list[DailyPost]:
        """The daily puzzles this process should post now: today's row is written for every
        server with a channel (once, whoever comes first; due at midnight UTC), then each due
        row is claimed in its own transaction, and only the rows this process claimed are
        returned."""
        now = self.clock.now()
        midnight = datetime.combine(now.astimezone(UTC).date(), time(0), tzinfo=UTC)
        async with self.db.read() as tx:
            settings = await self.repo.daily_settings(tx)
        if settings:
            async with self.db.transaction() as tx:
                for setting in settings:
                    await self._schedule(tx, setting, midnight, midnight)
        async with self.db.read() as tx:
            due = await self.repo.due_posts(tx, now)
        claimed: list[DailyPost] = []
        for post in due:
            if post.day != midnight.date().isoformat() and now - post.due_at > timedelta(days=1):
                # A day missed while no process ran: not posted late, only marked done.
                async with self.db.transaction() as tx:
                    await self.repo.claim_post(tx, post.guild_id, post.day, now)
                continue
            async with self.db.transaction() as tx:
                if await self.repo.claim_post(tx, post.guild_id, post.day, now):
                    claimed.append(post)
        return claimed

    async def posted(self, post: DailyPost, message_id: int) -> None:
        """Note the message that carried a daily puzzle."""
        async with self.db.transaction() as tx:
            await self.repo.posted(tx, post.guild_id, post.day, message_id)
