"""Skill ratings (openskill, Plackett-Luce), game results, statistics and history.

A finished game is **recorded once**: :meth:`RatingService.rate_finished_game` reads the stored
game (rules, seats, deal, action log) inside the caller's open transaction, replays it through
the engine, writes one ``game_results`` row per seat and, for a game with a winner, updates the
members' ratings. Its ``recorded_games`` row (keyed by the game id) makes it idempotent: a
replayed settlement finds the row and changes nothing. Because a record is computed from the
stored history alone, :meth:`RatingService.rebuild` replays the same function over every game in
the same order and reproduces the live ratings exactly (or recomputes them with new parameters).

Ranking is the game's own (:meth:`~bot.engine.family.Results.standing`): a collecting game
ranks the winner first and every other seat tied second; Tsung Shap ranks by score (equal scores
tied). Drawn games are recorded for the statistics but not rated; aborted games are neither.
Computer seats play at a fixed strength per level and game (their family's
:meth:`~bot.ai.family.GameAI.calibrated`, fitted by ``benchmarks/calibrate_ratings.py``, see
docs/ratings.md): they take part in the update, so beating them raises a member's rating, but
theirs never moves.

The columns a game fills per seat (Tsung Shap's captures, sweeps and claims, a collecting
winner's arrangement and eye: :meth:`~bot.engine.family.Results.seat_stats`) are counted while
replaying the log at settlement and stored with the result (rather than replayed on every
``/stats``): a member's statistics then come from one indexed query, however many games he has
played.
"""

from __future__ import annotations

import json
import logging
import math
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime
from typing import Any

from openskill.models import PlackettLuce

from bot.ai.family import ai_of
from bot.engine import Deal, EngineError
from bot.engine.family import engine_of
from bot.games import UnknownGame, default_game, find, games
from bot.services.clock import Clock
from bot.services.errors import UserError
from bot.storage.db import Database, Tx
from bot.storage.ratings import (
    ALL_GAMES,
    FinishedGameRow,
    MemberRating,
    RatingsRepo,
    RecordedGame,
    ResultRow,
)

__all__ = [
    "AI_RATINGS",
    "BOARDS",
    "STANDS_IN",
    "GameSummary",
    "HistoryEntry",
    "LeaderboardPage",
    "LevelSuggestion",
    "MemberStats",
    "ModelParams",
    "RatingService",
    "SeatSummary",
    "ai_rating",
    "display_rating",
    "level_ratings",
    "nearest_level",
    "ranks_of",
    "rate",
    "summarise",
]

log = logging.getLogger(__name__)

BOARDS: tuple[str, ...] = ("chips", "rating", "wins")
"""What ``/leaderboard`` may rank by (chips are the chips service's own leaderboard)."""


@dataclass(frozen=True, slots=True)
class ModelParams:
    """The rating model: openskill's Plackett-Luce parameters and the displayed scale.

    The displayed rating is ``base + scale * (ordinal - centre)`` with openskill's conservative
    ``ordinal = mu - 3 sigma``: a newcomer (mu 25, sigma 8.33, ordinal 0) shows 1000, and an
    average player whose rating has settled (sigma about 1.7, ordinal about 20) shows about 1500.
    """

    mu: float = 25.0
    sigma: float = 25.0 / 3.0
    beta: float = 25.0 / 6.0
    tau: float = 25.0 / 300.0
    base: float = 1500.0
    scale: float = 25.0
    centre: float = 20.0

    def to_json(self) -> str:
        """The stored form (``rating_model.params_json``)."""
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str | None) -> ModelParams:
        """Inverse of :meth:`to_json`; None (nothing stored) gives the defaults."""
        if text is None:
            return cls()
        data = json.loads(text)
        return cls(**{k: float(v) for k, v in data.items() if k in cls.__dataclass_fields__})

    def model(self) -> PlackettLuce:
        """The openskill model with these parameters."""
        return PlackettLuce(mu=self.mu, sigma=self.sigma, beta=self.beta, tau=self.tau)


class _Calibrated(Mapping[str, Mapping[str, tuple[float, float]]]):
    """Every registered game -> its family's calibrated (mu, sigma) per level."""

    def __getitem__(self, game: str) -> Mapping[str, tuple[float, float]]:
        try:
            return ai_of(game).calibrated(game)
        except UnknownGame:
            raise KeyError(game) from None

    def __iter__(self) -> Iterator[str]:
        return iter([game.name for game in games()])

    def __len__(self) -> int:
        return len(games())


AI_RATINGS: Mapping[str, Mapping[str, tuple[float, float]]] = _Calibrated()
"""The fixed strength of each computer level in each game, (mu, sigma) under the default model:
what the game's family calibrated (:meth:`bot.ai.family.GameAI.calibrated`)."""

STANDS_IN = frozenset({"master"})
"""Levels not calibrated on purpose (a calibration needs thousands of games between the levels,
and the master takes seconds a move): they count at their game's strongest calibrated level,
which is what they are meant to beat, and that is no news worth a warning."""

_warned: set[tuple[str, str | None]] = set()


def ai_rating(game: str, level: str | None, params: ModelParams) -> tuple[float, float]:
    """The fixed (mu, sigma) of a computer level in a game, in the units of ``params``.

    A level without a calibrated rating (``master``, see :data:`STANDS_IN`, or one added after
    the calibration) counts at the strongest calibrated level's rating, and a game whose family
    calibrated none (or no family plays now) at the default game's: it never fails a
    settlement. The calibration was made under the default model, so another model's mu and
    sigma are mapped linearly (same number of prior sigmas from the prior mean).
    """
    table = AI_RATINGS.get(game) or AI_RATINGS[default_game()]
    if level is not None and level in table:
        mu, sigma = table[level]
    else:
        # The strongest calibrated level: a new level is added to be stronger, and a member who
        # beats it should not lose by it. A level nobody listed is worth one warning a process.
        if level not in STANDS_IN and (game, level) not in _warned:
            _warned.add((game, level))
            log.warning(
                "no calibrated rating for AI level %r in %s: the strongest stands in", level, game
            )
        mu, sigma = max(table.values())
    default = ModelParams()
    ratio = params.sigma / default.sigma
    return params.mu + (mu - default.mu) * ratio, sigma * ratio


@dataclass(frozen=True, slots=True)
class LevelSuggestion:
    """The computer level suggested to a member for one game, and why: the level whose fixed
    strength is nearest his shown ``rating`` (a ``newcomer``, with no rated game of it yet,
    shows the prior's number, 1,000 by default)."""

    level: str
    rating: int
    newcomer: bool


def level_ratings(game: str, params: ModelParams) -> dict[str, int]:
    """The fixed strength of each level ``game`` offers that has a calibrated rating, on the
    members' scale but without the conservative three sigmas (``base + scale × (mu −
    centre)``: a computer seat's strength is fixed, not uncertain), weakest first. Levels
    that stand in for another (:data:`STANDS_IN`) are left out."""
    table = AI_RATINGS.get(game) or {}
    out: dict[str, int] = {}
    for level in ai_of(game).levels(game):
        if level in table and level not in STANDS_IN:
            mu, _ = ai_rating(game, level, params)
            out[level] = round(params.base + params.scale * (mu - params.centre))
    return out


def nearest_level(game: str, rating: int, params: ModelParams) -> str:
    """The offered level of ``game`` whose fixed strength is nearest ``rating`` (the weaker of
    two equally near); the game's weakest level when none is calibrated."""
    strengths = level_ratings(game, params)
    if not strengths:
        return ai_of(game).levels(game)[0]
    return min(strengths, key=lambda level: abs(strengths[level] - rating))


def display_rating(mu: float, sigma: float, params: ModelParams) -> int:
    """The conservative number members see (see :class:`ModelParams`)."""
    ordinal = mu - 3.0 * sigma
    return round(params.base + params.scale * (ordinal - params.centre))


def ranks_of(game: str, winner: int | None, scores: Sequence[int] | None, seats: int) -> list[int]:
    """openskill ranks (1 = first, equal = tied) of a game with a winner.

    Games without points (the collecting games), and any game won by a resignation or forfeit
    (no final scores): the winner first, everyone else tied second. A game with points (Tsung
    Shap, :attr:`bot.games.GameInfo.scored`): by score, equal scores tied.
    """
    if scores is not None and _scored(game):
        return [1 + sum(1 for other in scores if other > mine) for mine in scores]
    if winner is None:
        raise ValueError("a drawn game is not ranked")
    return [1 if seat == winner else 2 for seat in range(seats)]


def rate(
    params: ModelParams,
    ratings: Sequence[tuple[float, float]],
    ranks: Sequence[int],
    fixed: Sequence[bool],
) -> list[tuple[float, float]]:
    """The ratings after one game: openskill's update for every seat not ``fixed`` (computer
    seats keep theirs). Every seat is a one-player team."""
    model = params.model()
    teams = [[model.create_rating([mu, sigma])] for mu, sigma in ratings]
    updated = model.rate(teams, ranks=list(ranks))
    return [
        old if keep else (new[0].mu, new[0].sigma)
        for old, keep, new in zip(ratings, fixed, updated, strict=True)
    ]


# ----------------------------------------------------------------------------- game summary


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """One seat of a finished game, as the statistics need it."""

    name: str
    user_id: int | None
    ai_level: str | None
    position: int  # 0 = played first
    result: str  # win | loss | draw
    arrangement: str | None = None
    eye: str | None = None
    score: int | None = None
    captures: int | None = None
    sweeps: int | None = None
    claims: int | None = None


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A finished or drawn game, computed from its stored history."""

    game_id: str
    guild_id: int
    game: str
    winner: int | None
    scores: tuple[int, ...] | None
    seats: tuple[SeatSummary, ...]
    ranks: tuple[int, ...] | None = None
    """openskill ranks per seat of a game with a winner (None: the winner first, everyone else
    tied second, as :func:`ranks_of` ranks a game without scores)."""


def summarise(row: FinishedGameRow) -> GameSummary:
    """Replay a stored game through its family's engine and summarise its end (raises
    EngineError or ValueError, UnknownGame for a game no family plays, when the stored history
    does not replay to an end)."""
    if row.deal_json is None:
        raise ValueError(f"game {row.id} was never dealt")
    engine = engine_of(row.game)
    rules = engine.rules_from_flags(json.loads(row.rules_json)["flags"])
    seats = [dict(s) for s in json.loads(row.seats_json)]
    deal = Deal.from_json(json.loads(row.deal_json))
    state: Any = engine.new_game(rules, [str(s["name"]) for s in seats], deal)
    players = len(seats)
    events: list[Any] = []
    for seat, notation in row.actions:
        if seat != state.current:
            raise EngineError(f"game {row.id}: an action was logged for seat {seat}")
        state, applied = engine.apply(state, engine.parse_action(notation))
        events += applied
    columns = [dict(stats) for stats in engine.seat_stats(state, events)]
    ranks: tuple[int, ...] | None = None
    if state.result is not None:
        standing = engine.standing(state)
        winner, scores, ranks = standing.winner, standing.scores, standing.ranks
    elif row.status == "finished" and row.winner_seat is not None:
        # Ended by a resignation or a forfeit (the engine has no such end): the stored winner
        # ranks first and the others tie, whatever the scores were at that moment.
        winner = row.winner_seat
        scores = None
        for stats in columns:
            stats["score"] = None
    else:
        raise ValueError(f"game {row.id}: its action log does not reach the end of the game")
    out = []
    for seat, info in enumerate(seats):
        outcome = "draw" if winner is None else ("win" if seat == winner else "loss")
        user_id = info.get("user_id")
        stats = columns[seat]
        out.append(
            SeatSummary(
                name=str(info["name"]),
                user_id=None if user_id is None else int(user_id),
                ai_level=info.get("ai_level"),
                position=(seat - deal.first_seat) % players,
                result=outcome,
                arrangement=_text(stats.get("arrangement")),
                eye=_text(stats.get("eye")),
                score=_count(stats.get("score")),
                captures=_count(stats.get("captures")),
                sweeps=_count(stats.get("sweeps")),
                claims=_count(stats.get("claims")),
            )
        )
    return GameSummary(row.id, row.guild_id, row.game, winner, scores, tuple(out), ranks)


def _text(value: str | int | None) -> str | None:
    return None if value is None else str(value)


def _count(value: str | int | None) -> int | None:
    return None if value is None else int(value)


# ----------------------------------------------------------------------------- read models


@dataclass(frozen=True, slots=True)
class MemberStats:
    """What ``/stats`` shows for a member (one game, or every game)."""

    user_id: int
    game: str | None
    games: int
    wins: int
    draws: int
    losses: int
    rating: int | None
    rated_games: int
    provisional: bool
    rating_history: dict[str, list[int]]  # game -> the rating after each rated game
    by_position: dict[int, tuple[int, int]]  # position (0 = first) -> (games, wins)
    current_streak: int  # consecutive wins up to the latest game
    best_streak: int
    favourite_eye: tuple[str, int] | None  # the eye he won with most often, and how often
    ratings: dict[str, tuple[int, bool]] = field(default_factory=dict)  # game -> (rating, prov.)
    tsung_games: int = 0
    average_score: float | None = None
    captures: int = 0
    sweeps: int = 0
    claims: int = 0

    @property
    def win_rate(self) -> float | None:
        """Wins per game played (None before the first game)."""
        return None if self.games == 0 else self.wins / self.games


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One of a member's recent games."""

    game_id: str
    game: str
    finished_at: datetime
    result: str  # win | loss | draw
    opponents: tuple[str, ...]
    rating: int | None  # his rating after the game (rated games only)
    unrated: bool = False
    """A game the host opened unrated (hints allowed): it moved no rating."""


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    """One page of a rating or wins leaderboard."""

    by: str
    game: str
    rows: list[tuple[int, int, int, bool]]  # rank, user_id, value, provisional
    total: int
    own: tuple[int, int, bool] | None  # the caller's rank, value, provisional
    offset: int = 0  # of the first row (snapped to a page)


# ----------------------------------------------------------------------------- the service


class RatingService:
    """Records finished games, rates them, and answers ``/stats``, ``/history`` and the rating
    and wins leaderboards."""

    def __init__(self, db: Database, clock: Clock, *, provisional_games: int = 10) -> None:
        """``provisional_games``: a rating is marked provisional until this many rated games."""
        self._db = db
        self._clock = clock
        self._repo = RatingsRepo()
        self.provisional_games = provisional_games

    def is_provisional(self, rated_games: int) -> bool:
        """Whether a rating after ``rated_games`` rated games is still provisional."""
        return rated_games < self.provisional_games

    # --- recording ---------------------------------------------------------------------------

    async def record(self, game_id: str) -> bool:
        """:meth:`rate_finished_game` in a transaction of its own."""
        async with self._db.transaction() as tx:
            return await self.rate_finished_game(tx, game_id)

    async def rate_finished_game(self, tx: Tx, game_id: str) -> bool:
        """Record (and, with a winner, rate) a finished or drawn game inside the caller's open
        transaction — the one that settles the game. Idempotent: a game already recorded, or one
        not finished or drawn (aborted, still running), changes nothing. Returns whether it
        recorded the game now. A stored history that does not replay is logged and skipped,
        never raised: a rating must not block a settlement (``kapshap ratings rebuild`` shows
        it)."""
        if await self._repo.is_recorded(tx, game_id):
            return False
        row = await self._repo.finished_game(tx, game_id)
        # A "running" game whose log reaches the end is one a restart is settling (its final
        # action was saved before its result): it is recorded as of now.
        if row is None or row.status not in ("finished", "drawn", "running"):
            return False
        if row.finished_at is None:
            row = replace(row, finished_at=self._clock.now())
        try:
            summary = summarise(row)
        except (EngineError, ValueError, KeyError):
            log.exception("game %s could not be replayed for its rating", game_id)
            return False
        params = ModelParams.from_json(await self._repo.model_params(tx))
        await self._record(tx, row, summary, params)
        return True

    async def _record(
        self, tx: Tx, row: FinishedGameRow, summary: GameSummary, params: ModelParams
    ) -> None:
        assert row.finished_at is not None
        # A drawn game has no ranks to rate; a game the host opened unrated (hints allowed)
        # is recorded for /stats and /history like any other, but moves no rating.
        unrated = json.loads(row.rules_json).get("rated", True) is False
        rated = summary.winner is not None and not unrated
        seq = await self._repo.add_recorded(
            tx,
            game_id=row.id,
            guild_id=row.guild_id,
            game=row.game,
            outcome="won" if summary.winner is not None else "drawn",
            rated=rated,
            finished_at=row.finished_at,
        )
        members: dict[int, MemberRating] = {}
        for seat in summary.seats:
            if seat.user_id is not None:
                found = await self._repo.member(tx, row.guild_id, row.game, seat.user_id)
                members[seat.user_id] = found or MemberRating(row.guild_id, row.game, seat.user_id)
        after: list[tuple[float, float] | None] = [None] * len(summary.seats)
        if rated:
            before = [
                ai_rating(row.game, s.ai_level, params)
                if s.user_id is None
                else _mu_sigma(members[s.user_id], params)
                for s in summary.seats
            ]
            ranks = (
                list(summary.ranks)
                if summary.ranks is not None
                else ranks_of(row.game, summary.winner, None, len(summary.seats))
            )
            fixed = [s.user_id is None for s in summary.seats]
            new = rate(params, before, ranks, fixed)
            after = [None if keep else value for value, keep in zip(new, fixed, strict=True)]
        results = []
        for index, seat in enumerate(summary.seats):
            value = after[index]
            shown = None if value is None else display_rating(value[0], value[1], params)
            results.append(
                ResultRow(
                    game_id=row.id,
                    seat=index,
                    guild_id=row.guild_id,
                    game=row.game,
                    seq=seq,
                    user_id=seat.user_id,
                    ai_level=seat.ai_level,
                    name=seat.name,
                    position=seat.position,
                    result=seat.result,
                    arrangement=seat.arrangement,
                    eye=seat.eye,
                    score=seat.score,
                    captures=seat.captures,
                    sweeps=seat.sweeps,
                    claims=seat.claims,
                    mu=None if value is None else value[0],
                    sigma=None if value is None else value[1],
                    rating=shown,
                )
            )
            if seat.user_id is None:
                continue
            member = _counted(members[seat.user_id], seat.result, rated)
            if value is not None:
                member = replace(member, mu=value[0], sigma=value[1], rating=shown)
            await self._repo.put_member(tx, member)
            total = await self._repo.member(tx, row.guild_id, ALL_GAMES, seat.user_id)
            total = total or MemberRating(row.guild_id, ALL_GAMES, seat.user_id)
            await self._repo.put_member(tx, _counted(total, seat.result, rated))
        await self._repo.add_results(tx, results)

    async def record_missing(self, batch: int = 100) -> int:
        """Record every finished or drawn game that was never recorded, oldest first, one short
        transaction per game: games played before ratings existed, and a game whose end was
        committed but whose settlement was cut short by a crash. Returns how many it recorded.

        The order is the one a rebuild uses for such games, and a rebuild follows the recorded
        order, so live ratings and a rebuild still agree exactly.
        """
        recorded = 0
        skipped: set[str] = set()
        while True:
            async with self._db.read() as tx:
                ids = await self._repo.unrecorded_game_ids(tx, batch + len(skipped))
            todo = [game_id for game_id in ids if game_id not in skipped]
            if not todo:
                return recorded
            for game_id in todo:
                if await self.record(game_id):
                    recorded += 1
                else:  # it does not replay (logged): do not try it again in this run
                    skipped.add(game_id)

    async def rebuild(self, params: ModelParams | None = None) -> int:
        """Recompute every record and rating from the stored games, in the order they were
        recorded (games never recorded follow, by the time they ended); with ``params``,
        switch to that model first. One transaction. Returns how many games were recorded."""
        async with self._db.transaction() as tx:
            if params is None:
                params = ModelParams.from_json(await self._repo.model_params(tx))
            else:
                await self._repo.set_model_params(tx, params.to_json(), self._clock.now())
            order = await self._repo.ended_game_ids(tx)
            await self._repo.clear_all(tx)
            recorded = 0
            for game_id, finished_at in order:
                row = await self._repo.finished_game(tx, game_id)
                if row is None:  # pragma: no cover - listed above
                    continue
                row = replace(row, finished_at=finished_at)
                try:
                    summary = summarise(row)
                except (EngineError, ValueError, KeyError) as exc:
                    log.warning("game %s skipped: %s", game_id, exc)
                    continue
                await self._record(tx, row, summary, params)
                recorded += 1
        return recorded

    async def model_params(self) -> ModelParams:
        """The model in force."""
        async with self._db.read() as tx:
            return ModelParams.from_json(await self._repo.model_params(tx))

    async def all_ratings(self) -> list[MemberRating]:
        """Every member row (a rebuild must reproduce these exactly)."""
        async with self._db.read() as tx:
            return await self._repo.all_members(tx)

    # --- reading -----------------------------------------------------------------------------

    async def rating(self, guild_id: int, user_id: int, game: str) -> MemberRating | None:
        """A member's row for one game."""
        _check_game(game)
        async with self._db.read() as tx:
            return await self._repo.member(tx, guild_id, game, user_id)

    async def suggest_level(self, guild_id: int, user_id: int, game: str) -> LevelSuggestion:
        """The computer level to offer a member first at a table of ``game`` in a server: the
        one nearest his shown rating there (:func:`nearest_level`)."""
        _check_game(game)
        async with self._db.read() as tx:
            params = ModelParams.from_json(await self._repo.model_params(tx))
            member = await self._repo.member(tx, guild_id, game, user_id)
        newcomer = member is None or member.mu is None or member.sigma is None
        mu, sigma = (params.mu, params.sigma) if member is None else _mu_sigma(member, params)
        rating = display_rating(mu, sigma, params)
        return LevelSuggestion(nearest_level(game, rating, params), rating, newcomer)

    async def stats(self, guild_id: int, user_id: int, game: str | None = None) -> MemberStats:
        """A member's statistics in a server, for one game or (None) for every game."""
        if game is not None:
            _check_game(game)
        async with self._db.read() as tx:
            results = await self._repo.member_results(tx, guild_id, user_id, game)
            rows = await self._repo.members_of(tx, guild_id, user_id)
        by_game = {r.game: r for r in rows}
        wins = sum(r.result == "win" for r in results)
        draws = sum(r.result == "draw" for r in results)
        history: dict[str, list[int]] = {}
        for r in results:
            if r.rating is not None:
                history.setdefault(r.game, []).append(r.rating)
        positions: dict[int, tuple[int, int]] = {}
        for r in results:
            played, won = positions.get(r.position, (0, 0))
            positions[r.position] = (played + 1, won + (r.result == "win"))
        best = current = 0
        for r in results:
            current = current + 1 if r.result == "win" else 0
            best = max(best, current)
        eyes = Counter(r.eye for r in results if r.result == "win" and r.eye)
        favourite = eyes.most_common(1)[0] if eyes else None
        tsung = [r for r in results if _scored(r.game) and r.score is not None]
        ratings = {
            g: (m.rating, self.is_provisional(m.rated_games))
            for g, m in sorted(by_game.items())
            if g != ALL_GAMES and m.rating is not None and (game is None or g == game)
        }
        own = by_game.get(game) if game is not None else None
        return MemberStats(
            user_id=user_id,
            game=game,
            games=len(results),
            wins=wins,
            draws=draws,
            losses=len(results) - wins - draws,
            rating=None if own is None else own.rating,
            rated_games=0 if own is None else own.rated_games,
            provisional=own is None or self.is_provisional(own.rated_games),
            rating_history=history,
            by_position=dict(sorted(positions.items())),
            current_streak=current,
            best_streak=best,
            favourite_eye=favourite,
            ratings=ratings,
            tsung_games=len(tsung),
            average_score=(sum(r.score or 0 for r in tsung) / len(tsung)) if tsung else None,
            captures=sum(r.captures or 0 for r in tsung),
            sweeps=sum(r.sweeps or 0 for r in tsung),
            claims=sum(r.claims or 0 for r in tsung),
        )

    async def history(self, guild_id: int, user_id: int, limit: int = 10) -> list[HistoryEntry]:
        """A member's latest recorded games in a server, newest first."""
        async with self._db.read() as tx:
            games = await self._repo.recent_games(tx, guild_id, user_id, limit)
        return [_history_entry(game, seats, user_id) for game, seats in games]

    async def leaderboard(
        self,
        guild_id: int,
        *,
        by: str,
        game: str | None,
        user_id: int | None = None,
        offset: int = 0,
        limit: int = 10,
    ) -> LeaderboardPage:
        """One page of the ``rating`` (of one game; the default game, Kap Shap, when none is
        named) or ``wins`` (of one game, or of every game) leaderboard, with the caller's own
        rank."""
        if by not in ("rating", "wins"):
            raise ValueError(f"unknown leaderboard {by!r}")
        if game is not None:
            _check_game(game)
        key = game if game is not None else (default_game() if by == "rating" else ALL_GAMES)
        async with self._db.read() as tx:
            total = await self._repo.count(tx, guild_id, key, by)
            # A page from an old message may point past the end or between pages: snap it.
            last = max(0, (total - 1) // limit * limit)
            offset = min(max(0, offset // limit * limit), last)
            rows = await self._repo.leaderboard(tx, guild_id, key, by, offset, limit)
            own = None
            if user_id is not None:
                mine = await self._repo.member(tx, guild_id, key, user_id)
                value = None if mine is None else (mine.rating if by == "rating" else mine.wins)
                if mine is not None and value is not None:
                    rank = await self._repo.rank_of(tx, guild_id, key, by, user_id, value)
                    own = (rank, value, self.is_provisional(mine.rated_games))
        page = [
            (offset + i + 1, user, value, self.is_provisional(rated_games))
            for i, (user, value, rated_games) in enumerate(rows)
        ]
        return LeaderboardPage(by, key, page, total, own, offset)


def _mu_sigma(member: MemberRating, params: ModelParams) -> tuple[float, float]:
    if member.mu is None or member.sigma is None:
        return params.mu, params.sigma
    return member.mu, member.sigma


def _counted(member: MemberRating, result: str, rated: bool) -> MemberRating:
    return replace(
        member,
        games=member.games + 1,
        wins=member.wins + (result == "win"),
        draws=member.draws + (result == "draw"),
        rated_games=member.rated_games + int(rated),
    )


def _history_entry(game: RecordedGame, seats: Sequence[ResultRow], user_id: int) -> HistoryEntry:
    mine = next(s for s in seats if s.user_id == user_id)
    return HistoryEntry(
        game_id=game.game_id,
        game=game.game,
        finished_at=game.finished_at,
        result=mine.result,
        opponents=tuple(s.name for s in seats if s.seat != mine.seat),
        rating=mine.rating,
        # Recorded with a winner and still not rated: the host's unrated table.
        unrated=not game.rated and mine.result != "draw",
    )


def _check_game(game: str) -> None:
    try:
        find(game)
    except UnknownGame:
        names = ", ".join(known.name for known in games())
        raise UserError("Unknown game: choose {games}.", games=names) from None


def _scored(game: str) -> bool:
    """Whether a game ends with points per seat (False for a game no family plays now)."""
    try:
        return find(game).scored
    except UnknownGame:
        return False


def params_with(params: ModelParams, overrides: Mapping[str, float]) -> ModelParams:
    """``params`` with some fields replaced (the CLI's ``--beta`` …); refuses a non-positive
    sigma, beta or scale and a non-finite value."""
    changed = replace(params, **overrides)
    for name, value in asdict(changed).items():
        if not math.isfinite(value):
            raise ValueError(f"{name} must be a finite number")
    if changed.sigma <= 0 or changed.beta <= 0 or changed.scale <= 0 or changed.tau < 0:
        raise ValueError("sigma, beta and scale must be positive and tau not negative")
    return changed
