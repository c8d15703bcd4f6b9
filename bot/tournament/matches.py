"""When a match or a table is over, and who won it — including when the round's time runs out.

The service reports each finished game as a :class:`GameRecord` and asks :func:`match_result`
(two players) or :func:`table_result` (a Kap Tai Shap table) whether the match is decided; None
means "start the next game". When the round's time limit passes it asks again with
``timed_out=True`` and always gets a result.

The rule, stated in ``/tournament rules``:

* **Best of N** (``decide_by = games``): the first to win more than half of N games wins. A drawn
  game does not count, but the match never lasts more than N games unless it is a knockout
  match still level, which plays on until someone wins a game. After N games the leader in
  games wins; level is a drawn match (Swiss, round robin).
* **Total points** (Tsung Shap, ``decide_by = points``): all N games are played; most points
  wins, then most games won, else a drawn match (a knockout match plays on while level).
* **Time limit**: the leader (in games, or in points then games) wins; level is a draw, and in a
  knockout match the higher seed goes through.
* A table (Kap Tai Shap) plays its G games; at the time limit the games played so far count.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.tournament.model import (
    DecideBy,
    EventSettings,
    GameRecord,
    How,
    PlayerId,
    Result,
    TournamentError,
)

__all__ = ["bye_result", "forfeit_result", "match_result", "table_result"]


def _tally(
    players: Sequence[PlayerId], games: Sequence[GameRecord]
) -> tuple[dict[PlayerId, int], dict[PlayerId, int]]:
    wins = dict.fromkeys(players, 0)
    points = dict.fromkeys(players, 0)
    for g in games:
        if g.winner is not None:
            if g.winner not in wins:
                raise TournamentError(f"{g.winner} does not play in this match.")
            wins[g.winner] += 1
        for p, n in g.points.items():
            if p not in points:
                raise TournamentError(f"{p} does not play in this match.")
            points[p] += n
    return wins, points


def match_result(
    settings: EventSettings,
    players: tuple[PlayerId, PlayerId],
    games: Sequence[GameRecord],
    *,
    knockout: bool = False,
    timed_out: bool = False,
) -> Result | None:
    """The result of a two-player match after ``games``, or None while it goes on.

    ``players`` is (higher seed, lower seed): the higher seed goes through a knockout match that
    is level when time runs out."""
    a, b = players
    wins, points = _tally(players, games)
    played = len(games)

    def done(winner: PlayerId | None, how: How = How.PLAYED) -> Result:
        kept_points = points if settings.decide_by is DecideBy.POINTS else {}
        return Result(winner, wins, played, kept_points, how)

    def leader() -> PlayerId | None:
        if settings.decide_by is DecideBy.POINTS and points[a] != points[b]:
            return a if points[a] > points[b] else b
        if wins[a] != wins[b]:
            return a if wins[a] > wins[b] else b
        return None

    if settings.decide_by is DecideBy.GAMES:
        for p in players:
            if wins[p] >= settings.wins_needed:
                return done(p)
    if played >= settings.best_of:
        first = leader()
        if first is not None:
            return done(first)
        if not knockout:
            return done(None)
    if timed_out:
        first = leader()
        if first is None and knockout:
            first = a
        return done(first, How.TIME)
    return None


def table_result(
    settings: EventSettings,
    players: Sequence[PlayerId],
    games: Sequence[GameRecord],
    *,
    final: bool = False,
    timed_out: bool = False,
) -> Result | None:
    """The result of a table after ``games`` (its G games, or fewer when time ran out), or
    None while it goes on."""
    wins, _ = _tally(players, games)
    needed = settings.final_table_games if final else settings.games_per_table
    if len(games) >= needed:
        return Result(None, wins, len(games))
    if timed_out:
        return Result(None, wins, len(games), how=How.TIME)
    return None


def forfeit_result(winner: PlayerId | None, players: Sequence[PlayerId]) -> Result:
    """A match given by forfeit (no-show, drop, disqualification): ``winner`` takes it without
    games; None when both sides forfeit (a double loss, scored as a drawn match of no games)."""
    return Result(winner, dict.fromkeys(players, 0), 0, how=How.FORFEIT)


def bye_result(player: PlayerId) -> Result:
    """A bye: a match win without games in Swiss, a rest (no score) in round robin."""
    return Result(player, {player: 0}, 0, how=How.BYE)
