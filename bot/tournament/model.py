"""The values of an event: its settings, its players, games, match results, matches and rounds.

Everything here is a plain value with ``to_dict``/``from_dict`` (JSON-compatible: strings, ints,
lists, dicts with string keys), so a service can store every step of an event and rebuild it
after a restart. Player ids are ints (Discord user ids; computer fillers get ids chosen by the
service, e.g. negative ones).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from random import Random
from typing import Any

from bot.games import EVENT_FORMATS, UnknownGame, default_game, find, games

__all__ = [
    "GROUP_ADVANCE",
    "LATE_ENTRY_FORMATS",
    "DecideBy",
    "EventSettings",
    "Format",
    "GameRecord",
    "How",
    "Match",
    "Player",
    "PlayerId",
    "Result",
    "Round",
    "TournamentError",
    "seed_players",
]

PlayerId = int

MAX_TABLE_SEATS = 20
# A group stage (issue 23): groups of MIN_GROUP to MAX_GROUP players (a round robin of eight
# takes seven rounds); the top GROUP_ADVANCE of each go into the bracket.
MIN_GROUP = 3  # the refusal in problems() says these two numbers
MAX_GROUP = 8
GROUP_ADVANCE = 2


def _event_games() -> tuple[str, ...]:
    """The games that have events, by format (two-player formats first), then as registered."""
    offered = [game for game in games() if game.event_choice is not None]
    offered.sort(key=lambda game: EVENT_FORMATS.index(game.event_format))
    return tuple(game.name for game in offered)


class TournamentError(ValueError):
    """A request the event cannot honour (bad settings, unknown match, wrong phase…).

    The message is a short English sentence meant for the user, starting with a capital."""


class Format(StrEnum):
    """The format of an event."""

    SWISS = "swiss"
    SINGLE_ELIMINATION = "single-elimination"
    DOUBLE_ELIMINATION = "double-elimination"
    ROUND_ROBIN = "round-robin"
    TABLE_ROUNDS = "table-rounds"
    ARENA = "arena"  # issue 23: paired as they finish for a fixed time (bot.tournament.arena)


LATE_ENTRY_FORMATS = frozenset({Format.SWISS})
"""The formats a member may join after the start (``EventSettings.late_until``): those where
a newcomer can simply be paired from the next round on. Never an elimination bracket or a round
robin (their schedule is fixed by the entrants at the start)."""


class DecideBy(StrEnum):
    """How a two-player match of N games is won."""

    GAMES = "games"  # best of N: first to win more than half of N games
    POINTS = "points"  # Tsung Shap only: all N games are played, most total points wins


@dataclass(frozen=True)
class EventSettings:
    """Everything that decides how an event is run, fixed when it is created.

    ``rounds`` is the number of Swiss rounds (None: ⌈log₂ N⌉) or of table rounds (None: 3);
    elimination and round robin ignore it. ``prize_split`` is in percent of the pool, best place
    first, and sums to 100 (empty: a free event without prizes is still allowed with
    ``buy_in == 0``).
    """

    game: str = field(default_factory=default_game)
    format: Format = Format.SWISS
    best_of: int = 1
    decide_by: DecideBy = DecideBy.GAMES
    rounds: int | None = None
    top_cut: int = 0  # Swiss: the top K play a single-elimination playoff; 0 = none
    grand_final_reset: bool = True  # double elimination
    buy_in: int = 0
    prize_split: tuple[int, ...] = (100,)
    seats_limit: int = 64
    # Table rounds (Kap Tai Shap).
    table_size: int = 6  # the most seats at a table (tables are as large as this allows)
    table_min: int = 3  # never fewer seats at a table
    games_per_table: int = 3
    final_table: int = 6  # the top players by standings who play the final table; 0 = none
    final_table_games: int = 3
    # No-shows (issue 23): minutes a two-player match's players have to act or press Ready
    # when it starts (0: no window), and the no-shows in a row that withdraw a player.
    no_show_minutes: int = 5
    no_show_limit: int = 1
    # Formats (issue 23): a match for third place between the semi-finals' losers (single
    # elimination and the Swiss playoff), and a group stage before an elimination bracket:
    # round-robin groups of at most ``groups`` players (0 = none), whose top GROUP_ADVANCE go on.
    third_place: bool = False
    groups: int = 0
    # Late registration (issue 23, i23-entries): the last round a member may still join in
    # after the start (0: no late entry), for the formats in LATE_ENTRY_FORMATS only.
    late_until: int = 0
    # Arena (issue 23): how long the arena pairs finishers, in minutes from its start.
    arena_minutes: int = 60

    def __post_init__(self) -> None:
        problems = list(self.problems())
        if problems:
            raise TournamentError(problems[0])

    def problems(self) -> list[str]:
        """Every reason these settings are invalid (empty when they are fine)."""
        out: list[str] = []
        try:
            info = find(self.game)
        except UnknownGame:
            info = None
        if info is None or info.event_choice is None:
            out.append(f"Unknown game {self.game!r}; choose one of {', '.join(_event_games())}.")
        # Swiss and the other two-player formats, or rounds of tables (GameInfo.event_format).
        two_player = info is not None and info.event_format == "swiss"
        if self.format is Format.TABLE_ROUNDS and two_player:
            out.append("Table rounds are for Kap Tai Shap; two-player games use Swiss.")
        if self.format is not Format.TABLE_ROUNDS and not two_player:
            out.append("Kap Tai Shap events use table rounds.")
        if self.best_of < 1 or self.best_of > 15 or self.best_of % 2 == 0:
            out.append("A match is best of an odd number of games from 1 to 15.")
        if self.decide_by is DecideBy.POINTS and (info is None or not info.scored):
            out.append("Only Tsung Shap matches can be decided by total points.")
        if self.rounds is not None and not 1 <= self.rounds <= 30:
            out.append("The number of rounds is from 1 to 30.")
        if self.top_cut and (self.format is not Format.SWISS or not 2 <= self.top_cut <= 64):
            out.append("A top cut (2 to 64 players) is only for Swiss events.")
        if self.buy_in < 0:
            out.append("The buy-in cannot be negative.")
        if self.prize_split and (
            sum(self.prize_split) != 100 or any(p <= 0 for p in self.prize_split)
        ):
            out.append("The prize split is positive percentages adding up to 100, e.g. 60/30/10.")
        if not self.prize_split and self.buy_in:
            out.append("An event with a buy-in needs a prize split.")
        if len(self.prize_split) > 32:
            out.append("At most 32 prize places.")
        if not 2 <= self.seats_limit <= 1024:
            out.append("The seats limit is from 2 to 1024 players.")
        if not 2 <= self.table_min <= self.table_size <= MAX_TABLE_SEATS:
            out.append(f"Tables have between 2 and {MAX_TABLE_SEATS} seats, the minimum first.")
        if not 1 <= self.games_per_table <= 20 or not 1 <= self.final_table_games <= 20:
            out.append("A table plays 1 to 20 games.")
        if self.final_table and not 2 <= self.final_table <= MAX_TABLE_SEATS:
            out.append(f"The final table has 2 to {MAX_TABLE_SEATS} seats (0 for none).")
        if not 0 <= self.no_show_minutes <= 60:
            out.append("The no-show window is from 0 (none) to 60 minutes.")
        if not 1 <= self.no_show_limit <= 10:
            out.append("A player is withdrawn after 1 to 10 no-shows in a row.")
        elimination = self.format in (Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION)
        playoff = self.format is Format.SWISS and bool(self.top_cut)
        if self.third_place and not (self.format is Format.SINGLE_ELIMINATION or playoff):
            out.append("A third-place match is for single elimination or a Swiss top cut.")
        if self.groups and (not elimination or not MIN_GROUP <= self.groups <= MAX_GROUP):
            out.append("Groups of 3 to 8 players (0 for none) are for elimination events.")
        if self.late_until and self.format not in LATE_ENTRY_FORMATS:
            out.append("Late entry is only for Swiss events.")
        elif self.late_until and not 2 <= self.late_until <= (self.rounds or 30):
            out.append("Late entry ends at a round from 2 to the last round (0 for none).")
        # Arena (issue 23).
        if not 5 <= self.arena_minutes <= 720:
            out.append("An arena lasts 5 to 720 minutes.")
        if self.format is Format.ARENA and self.best_of != 1:
            out.append("An arena's matches are one game each (best of 1).")
        return out

    @property
    def two_player(self) -> bool:
        """Whether the matches are between two players (everything but table rounds)."""
        return self.format is not Format.TABLE_ROUNDS

    @property
    def wins_needed(self) -> int:
        """Games a player must win to take a best-of-N match."""
        return self.best_of // 2 + 1

    def swiss_rounds(self, entrants: int) -> int:
        """The number of Swiss rounds for ``entrants`` players: the setting, else ⌈log₂ N⌉."""
        if self.rounds is not None:
            return self.rounds
        return max(1, math.ceil(math.log2(max(2, entrants))))

    def table_rounds(self) -> int:
        """The number of table rounds before the final table."""
        return self.rounds if self.rounds is not None else 3

    def to_dict(self) -> dict[str, Any]:
        """A JSON-compatible dict; :meth:`from_dict` reads it back."""
        return {
            "game": self.game,
            "format": self.format.value,
            "best_of": self.best_of,
            "decide_by": self.decide_by.value,
            "rounds": self.rounds,
            "top_cut": self.top_cut,
            "grand_final_reset": self.grand_final_reset,
            "buy_in": self.buy_in,
            "prize_split": list(self.prize_split),
            "seats_limit": self.seats_limit,
            "table_size": self.table_size,
            "table_min": self.table_min,
            "games_per_table": self.games_per_table,
            "final_table": self.final_table,
            "final_table_games": self.final_table_games,
            "no_show_minutes": self.no_show_minutes,
            "no_show_limit": self.no_show_limit,
            "third_place": self.third_place,
            "groups": self.groups,
            "late_until": self.late_until,
            "arena_minutes": self.arena_minutes,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EventSettings:
        """Settings from :meth:`to_dict` output; missing keys take their defaults."""
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        if "format" in known:
            known["format"] = Format(known["format"])
        if "decide_by" in known:
            known["decide_by"] = DecideBy(known["decide_by"])
        if "prize_split" in known:
            known["prize_split"] = tuple(int(p) for p in known["prize_split"])
        return cls(**known)

    def with_(self, **changes: Any) -> EventSettings:
        """A copy with some fields changed (validated again)."""
        return replace(self, **changes)


@dataclass(frozen=True)
class Player:
    """An entrant. ``rating`` (higher is stronger) is optional; ``ai`` marks a computer filler,
    which plays like anyone else but never wins prize money."""

    id: PlayerId
    name: str
    rating: float | None = None
    ai: bool = False

    def to_dict(self) -> dict[str, Any]:
        """A JSON-compatible dict."""
        return {"id": self.id, "name": self.name, "rating": self.rating, "ai": self.ai}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Player:
        """A player from :meth:`to_dict` output."""
        rating = data.get("rating")
        return cls(
            int(data["id"]),
            str(data["name"]),
            None if rating is None else float(rating),
            bool(data.get("ai", False)),
        )


def seed_players(players: Sequence[Player], rng: Random) -> list[Player]:
    """The players in seed order (seed 1 first).

    Rated players come first, strongest first; players without a rating follow in random order.
    Equal ratings are ordered at random too, so the order never depends on sign-up order."""
    ids = [p.id for p in players]
    if len(set(ids)) != len(ids):
        raise TournamentError("A player is entered twice.")
    keyed = [(p, rng.random()) for p in players]
    rated = sorted(
        ((p.rating, r, p) for p, r in keyed if p.rating is not None), key=lambda k: (-k[0], k[1])
    )
    unrated = sorted(((r, p) for p, r in keyed if p.rating is None), key=lambda k: k[0])
    return [p for *_, p in rated] + [p for _, p in unrated]


@dataclass(frozen=True)
class GameRecord:
    """One finished game of a match or table: its winner (None for a drawn game) and, for Tsung
    Shap, the points each player scored."""

    winner: PlayerId | None
    points: Mapping[PlayerId, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-compatible dict."""
        return {"winner": self.winner, "points": [[p, n] for p, n in self.points.items()]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameRecord:
        """A game from :meth:`to_dict` output."""
        return cls(data.get("winner"), {int(p): int(n) for p, n in data.get("points", [])})


class How(StrEnum):
    """How a result came about."""

    PLAYED = "played"
    TIME = "time"  # decided by the event's rule when the round's time ran out
    FORFEIT = "forfeit"  # a no-show, a drop or a disqualification
    BYE = "bye"
    ORGANISER = "organiser"  # entered or corrected by the organiser, with a reason


@dataclass(frozen=True)
class Result:
    """The result of a match (two players) or a table (2–20), as plain values.

    ``winner`` is the match winner (None: a drawn match; tables have no match winner, only game
    wins). ``games_won`` counts the games each player won, ``points`` their Tsung Shap points."""

    winner: PlayerId | None
    games_won: Mapping[PlayerId, int]
    games_played: int
    points: Mapping[PlayerId, int] = field(default_factory=dict)
    how: How = How.PLAYED

    def to_dict(self) -> dict[str, Any]:
        """A JSON-compatible dict."""
        return {
            "winner": self.winner,
            "games_won": [[p, n] for p, n in self.games_won.items()],
            "games_played": self.games_played,
            "points": [[p, n] for p, n in self.points.items()],
            "how": self.how.value,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Result:
        """A result from :meth:`to_dict` output."""
        return cls(
            data.get("winner"),
            {int(p): int(n) for p, n in data["games_won"]},
            int(data["games_played"]),
            {int(p): int(n) for p, n in data.get("points", [])},
            How(data.get("how", "played")),
        )


@dataclass
class Match:
    """A match or a table of a round. One player and a result means a bye."""

    id: str
    players: tuple[PlayerId, ...]
    result: Result | None = None

    @property
    def is_bye(self) -> bool:
        """A bye (one player, no opponent)."""
        return len(self.players) == 1

    @property
    def done(self) -> bool:
        """Whether the result is in."""
        return self.result is not None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-compatible dict."""
        return {
            "id": self.id,
            "players": list(self.players),
            "result": None if self.result is None else self.result.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Match:
        """A match from :meth:`to_dict` output."""
        result = data.get("result")
        return cls(
            str(data["id"]),
            tuple(int(p) for p in data["players"]),
            None if result is None else Result.from_dict(result),
        )


@dataclass
class Round:
    """One round: its number (1, 2, …), its phase (``swiss``, ``playoff``, ``bracket``,
    ``round-robin``, ``tables``, ``final``) and its matches."""

    number: int
    phase: str
    matches: list[Match]

    @property
    def done(self) -> bool:
        """Whether every match of the round has its result."""
        return all(m.done for m in self.matches)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-compatible dict."""
        return {
            "number": self.number,
            "phase": self.phase,
            "matches": [m.to_dict() for m in self.matches],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Round:
        """A round from :meth:`to_dict` output."""
        return cls(
            int(data["number"]), str(data["phase"]), [Match.from_dict(m) for m in data["matches"]]
        )
