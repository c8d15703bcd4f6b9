"""SQL for ratings, recorded game results and the rating/wins leaderboards (migration 0003).

Every method takes the caller's :class:`~bot.storage.db.Tx`, so the ratings service can record a
finished game inside the very transaction that settles it (one commit: result, pot, rating).
Storage knows nothing of the rating model: it stores the numbers the service computed.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.storage.db import Row, Tx
from bot.storage.timestamps import from_db_time, to_db_time

__all__ = [
    "ALL_GAMES",
    "COUNT_SQL",
    "LEADERBOARD_SQL",
    "RANK_SQL",
    "FinishedGameRow",
    "MemberRating",
    "RatingsRepo",
    "RecordedGame",
    "ResultRow",
]

ALL_GAMES = "all"
"""The ``member_ratings.game`` of a member's totals over every game (counts only, no rating)."""

#: Columns a leaderboard may be ordered by, each walking its own index. The names are fixed here
#: and never come from a caller's text.
_ORDER_COLUMN = {"rating": "rating", "wins": "wins"}

LEADERBOARD_SQL = {
    "rating": (
        "SELECT user_id, rating, rated_games FROM member_ratings "
        "WHERE guild_id = :guild AND game = :game AND rating IS NOT NULL "
        "ORDER BY rating DESC, user_id ASC LIMIT :limit OFFSET :offset"
    ),
    "wins": (
        "SELECT user_id, wins, rated_games FROM member_ratings "
        "WHERE guild_id = :guild AND game = :game "
        "ORDER BY wins DESC, user_id ASC LIMIT :limit OFFSET :offset"
    ),
}
"""One page: a walk down the covering ``member_ratings_by_rating`` / ``_by_wins`` (no sort, no
table access); each row is ``(user_id, value, rated_games)``."""

#: A member's rank: 1 + members ahead (a higher value, or the same value and a smaller id). Two
#: COUNTs over index ranges, as for the chips leaderboard (an OR could scan the whole range).
RANK_SQL = {
    key: (
        "SELECT 1"
        f" + (SELECT COUNT(*) FROM member_ratings WHERE guild_id = :guild AND game = :game"
        f"    AND {column} > :value)"
        f" + (SELECT COUNT(*) FROM member_ratings WHERE guild_id = :guild AND game = :game"
        f"    AND {column} = :value AND user_id < :user)"
    )
    for key, column in _ORDER_COLUMN.items()
}

#: How many members a leaderboard has: a counter kept by triggers, not a COUNT.
COUNT_SQL = {
    "rating": "SELECT rated FROM member_rating_counts WHERE guild_id = :guild AND game = :game",
    "wins": "SELECT members FROM member_rating_counts WHERE guild_id = :guild AND game = :game",
}


@dataclass(frozen=True, slots=True)
class MemberRating:
    """A member's row for one game (or :data:`ALL_GAMES`) in one server."""

    guild_id: int
    game: str
    user_id: int
    games: int = 0
    wins: int = 0
    draws: int = 0
    rated_games: int = 0
    mu: float | None = None
    sigma: float | None = None
    rating: int | None = None


@dataclass(frozen=True, slots=True)
class ResultRow:
    """One seat of a recorded game."""

    game_id: str
    seat: int
    guild_id: int
    game: str
    seq: int
    user_id: int | None
    ai_level: str | None
    name: str
    position: int
    result: str  # win | loss | draw
    arrangement: str | None = None
    eye: str | None = None
    score: int | None = None
    captures: int | None = None
    sweeps: int | None = None
    claims: int | None = None
    mu: float | None = None
    sigma: float | None = None
    rating: int | None = None


@dataclass(frozen=True, slots=True)
class RecordedGame:
    """A recorded game (the idempotency row)."""

    seq: int
    game_id: str
    guild_id: int
    game: str
    outcome: str  # won | drawn
    rated: bool
    finished_at: datetime


@dataclass(frozen=True, slots=True)
class FinishedGameRow:
    """What the ratings service needs of a stored game to record it (from ``games``)."""

    id: str
    guild_id: int
    game: str
    status: str
    rules_json: str
    seats_json: str
    deal_json: str | None
    finished_at: datetime | None
    actions: tuple[tuple[int, str], ...]  # (seat, notation) in order
    winner_seat: int | None = None  # a game ended by a resignation or forfeit names its winner


_RESULT_COLUMNS = (
    "game_id, seat, guild_id, game, seq, user_id, ai_level, name, position, result, arrangement, "
    "eye, score, captures, sweeps, claims, mu, sigma, rating"
)
_MEMBER_COLUMNS = "guild_id, game, user_id, games, wins, draws, rated_games, mu, sigma, rating"


def _member(row: Row) -> MemberRating:
    return MemberRating(
        guild_id=int(row["guild_id"]),
        game=str(row["game"]),
        user_id=int(row["user_id"]),
        games=int(row["games"]),
        wins=int(row["wins"]),
        draws=int(row["draws"]),
        rated_games=int(row["rated_games"]),
        mu=row["mu"],
        sigma=row["sigma"],
        rating=row["rating"],
    )


def _result(row: Row) -> ResultRow:
    # Positional: _RESULT_COLUMNS lists the columns in the order of ResultRow's fields (a
    # keyword dict per row costs 3x more on a member's thousands of games).
    return ResultRow(*row)


class RatingsRepo:
    """Queries on ``rating_model``, ``recorded_games``, ``game_results`` and ``member_ratings``."""

    # --- the model ---------------------------------------------------------------------------

    async def model_params(self, tx: Tx) -> str | None:
        """The stored model parameters (JSON), or None for the defaults."""
        value = await tx.scalar("SELECT params_json FROM rating_model WHERE id = 1")
        return None if value is None else str(value)

    async def set_model_params(self, tx: Tx, params_json: str, now: datetime) -> None:
        """Store the model parameters in force."""
        await tx.execute(
            "INSERT INTO rating_model (id, params_json, updated_at) VALUES (1, ?, ?) "
            "ON CONFLICT (id) DO UPDATE SET params_json = excluded.params_json, "
            "updated_at = excluded.updated_at",
            (params_json, to_db_time(now)),
        )

    # --- finished games (read from the games tables) -----------------------------------------

    async def finished_game(self, tx: Tx, game_id: str) -> FinishedGameRow | None:
        """A stored game with its action log, or None if there is no such game."""
        row = await tx.fetchone(
            "SELECT id, guild_id, game, status, rules_json, seats_json, deal_json, finished_at, "
            "winner_seat FROM games WHERE id = ?",
            (game_id,),
        )
        if row is None:
            return None
        actions = await tx.fetchall(
            "SELECT seat, notation FROM game_actions WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        finished_at = row["finished_at"]
        return FinishedGameRow(
            id=str(row["id"]),
            guild_id=int(row["guild_id"]),
            game=str(row["game"]),
            status=str(row["status"]),
            rules_json=str(row["rules_json"]),
            seats_json=str(row["seats_json"]),
            deal_json=row["deal_json"],
            finished_at=None if finished_at is None else from_db_time(finished_at),
            actions=tuple((int(a[0]), str(a[1])) for a in actions),
            winner_seat=None if row["winner_seat"] is None else int(row["winner_seat"]),
        )

    async def ended_game_ids(self, tx: Tx) -> list[tuple[str, datetime]]:
        """Every finished, drawn or recorded game with the time it ended, in the order a rebuild
        records them: the games already recorded in their recorded order, then the others by
        the time they ended."""
        rows = await tx.fetchall(
            "SELECT g.id, COALESCE(r.finished_at, g.finished_at) "
            "FROM games AS g LEFT JOIN recorded_games AS r ON r.game_id = g.id "
            "WHERE g.status IN ('finished', 'drawn') OR r.seq IS NOT NULL "
            "ORDER BY r.seq IS NULL, r.seq, g.finished_at, g.rowid"
        )
        return [(str(r[0]), from_db_time(r[1])) for r in rows]

    async def unrecorded_game_ids(self, tx: Tx, limit: int) -> list[str]:
        """Finished or drawn games not recorded yet, oldest end first (at most ``limit``); games
        that ended at the same moment in the order they were created."""
        rows = await tx.fetchall(
            "SELECT g.id FROM games AS g WHERE g.status IN ('finished', 'drawn') "
            "AND NOT EXISTS (SELECT 1 FROM recorded_games AS r WHERE r.game_id = g.id) "
            "ORDER BY g.finished_at, g.rowid LIMIT ?",
            (limit,),
        )
        return [str(r[0]) for r in rows]

    # --- recording ---------------------------------------------------------------------------

    async def is_recorded(self, tx: Tx, game_id: str) -> bool:
        """Whether a game has been recorded (and so rated, if it was rated at all)."""
        value = await tx.scalar("SELECT 1 FROM recorded_games WHERE game_id = ?", (game_id,))
        return value is not None

    async def add_recorded(
        self,
        tx: Tx,
        *,
        game_id: str,
        guild_id: int,
        game: str,
        outcome: str,
        rated: bool,
        finished_at: datetime,
    ) -> int:
        """Insert the idempotency row of a game; return its ``seq``. A second insert of the
        same game raises :class:`~bot.storage.errors.IntegrityError`."""
        return await tx.insert(
            "INSERT INTO recorded_games (game_id, guild_id, game, outcome, rated, finished_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, guild_id, game, outcome, int(rated), to_db_time(finished_at)),
            key="seq",
        )

    async def add_results(self, tx: Tx, rows: list[ResultRow]) -> None:
        """Insert the seats of a recorded game."""
        await tx.executemany(
            f"INSERT INTO game_results ({_RESULT_COLUMNS}) VALUES "
            "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    r.game_id,
                    r.seat,
                    r.guild_id,
                    r.game,
                    r.seq,
                    r.user_id,
                    r.ai_level,
                    r.name,
                    r.position,
                    r.result,
                    r.arrangement,
                    r.eye,
                    r.score,
                    r.captures,
                    r.sweeps,
                    r.claims,
                    r.mu,
                    r.sigma,
                    r.rating,
                )
                for r in rows
            ],
        )

    async def member(self, tx: Tx, guild_id: int, game: str, user_id: int) -> MemberRating | None:
        """A member's row for one game (or :data:`ALL_GAMES`)."""
        row = await tx.fetchone(
            f"SELECT {_MEMBER_COLUMNS} FROM member_ratings "
            "WHERE guild_id = ? AND game = ? AND user_id = ?",
            (guild_id, game, user_id),
        )
        return None if row is None else _member(row)

    async def put_member(self, tx: Tx, member: MemberRating) -> None:
        """Insert or replace a member's row."""
        # An upsert, not INSERT OR REPLACE: the board counters' triggers see an update.
        await tx.execute(
            f"INSERT INTO member_ratings ({_MEMBER_COLUMNS}) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (guild_id, game, user_id) DO UPDATE SET games = excluded.games, "
            "wins = excluded.wins, draws = excluded.draws, rated_games = excluded.rated_games, "
            "mu = excluded.mu, sigma = excluded.sigma, rating = excluded.rating",
            (
                member.guild_id,
                member.game,
                member.user_id,
                member.games,
                member.wins,
                member.draws,
                member.rated_games,
                member.mu,
                member.sigma,
                member.rating,
            ),
        )

    async def import_members(self, tx: Tx, members: list[MemberRating]) -> None:
        """Insert many member rows at once (benchmarks and tests of large servers)."""
        await tx.executemany(
            f"INSERT INTO member_ratings ({_MEMBER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    m.guild_id,
                    m.game,
                    m.user_id,
                    m.games,
                    m.wins,
                    m.draws,
                    m.rated_games,
                    m.mu,
                    m.sigma,
                    m.rating,
                )
                for m in members
            ],
        )

    async def clear_all(self, tx: Tx) -> None:
        """Forget every recorded game and rating (the start of a rebuild)."""
        await tx.execute("DELETE FROM game_results")
        await tx.execute("DELETE FROM recorded_games")
        await tx.execute("DELETE FROM member_ratings")

    # --- reading -----------------------------------------------------------------------------

    async def members_of(self, tx: Tx, guild_id: int, user_id: int) -> list[MemberRating]:
        """Every row of a member in a server (each game and the totals)."""
        rows = await tx.fetchall(
            f"SELECT {_MEMBER_COLUMNS} FROM member_ratings WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        return [_member(r) for r in rows]

    async def all_members(self, tx: Tx) -> list[MemberRating]:
        """Every member row (to compare a rebuild with the live ratings)."""
        rows = await tx.fetchall(
            f"SELECT {_MEMBER_COLUMNS} FROM member_ratings ORDER BY guild_id, game, user_id"
        )
        return [_member(r) for r in rows]

    async def member_results(
        self, tx: Tx, guild_id: int, user_id: int, game: str | None = None
    ) -> list[ResultRow]:
        """A member's seats in recorded games, oldest first (optionally of one game)."""
        sql = (
            f"SELECT {_RESULT_COLUMNS} FROM game_results WHERE guild_id = ? AND user_id = ?"
            + ("" if game is None else " AND game = ?")
            + " ORDER BY seq"
        )
        params: tuple[object, ...] = (guild_id, user_id)
        if game is not None:
            params = (*params, game)
        return [_result(r) for r in await tx.fetchall(sql, params)]

    async def recent_games(
        self, tx: Tx, guild_id: int, user_id: int, limit: int
    ) -> list[tuple[RecordedGame, list[ResultRow]]]:
        """A member's latest recorded games, newest first, each with all of its seats."""
        rows = await tx.fetchall(
            "SELECT r.seq, r.game_id, r.guild_id, r.game, r.outcome, r.rated, r.finished_at "
            "FROM game_results AS m JOIN recorded_games AS r ON r.game_id = m.game_id "
            "WHERE m.guild_id = ? AND m.user_id = ? ORDER BY m.seq DESC LIMIT ?",
            (guild_id, user_id, limit),
        )
        out = []
        for row in rows:
            game = RecordedGame(
                seq=int(row["seq"]),
                game_id=str(row["game_id"]),
                guild_id=int(row["guild_id"]),
                game=str(row["game"]),
                outcome=str(row["outcome"]),
                rated=bool(row["rated"]),
                finished_at=from_db_time(row["finished_at"]),
            )
            seats = await tx.fetchall(
                f"SELECT {_RESULT_COLUMNS} FROM game_results WHERE game_id = ? ORDER BY seat",
                (game.game_id,),
            )
            out.append((game, [_result(s) for s in seats]))
        return out

    # --- leaderboards ------------------------------------------------------------------------

    async def leaderboard(
        self, tx: Tx, guild_id: int, game: str, by: str, offset: int, limit: int
    ) -> list[tuple[int, int, int]]:
        """One page of the ``by`` (rating | wins) leaderboard of one game (or ALL_GAMES):
        ``(user_id, value, rated_games)`` rows in order."""
        rows = await tx.fetchall(
            LEADERBOARD_SQL[by],
            {"guild": guild_id, "game": game, "limit": limit, "offset": offset},
        )
        return [(int(r[0]), int(r[1]), int(r[2])) for r in rows]

    async def rank_of(
        self, tx: Tx, guild_id: int, game: str, by: str, user_id: int, value: int
    ) -> int:
        """1-based position of a member whose ``by`` value is ``value``."""
        result = await tx.scalar(
            RANK_SQL[by], {"guild": guild_id, "game": game, "value": value, "user": user_id}
        )
        return int(result)

    async def count(self, tx: Tx, guild_id: int, game: str, by: str) -> int:
        """How many members the ``by`` leaderboard of a game has."""
        value = await tx.scalar(COUNT_SQL[by], {"guild": guild_id, "game": game})
        return 0 if value is None else int(value)
