"""The arena (issue 23): a fixed time in which every player who finishes a game is paired again
at once, scored the lichess way.

* **Scoring**: a win 2 points, a draw 1, a loss 0. **Streak**: after two wins in a row a player
  is *on fire*: his games count double (a win 4, a draw 2) until a game he does not win (a draw
  or a loss ends the streak; the draw itself still counts double). A forfeit counts as the win
  or loss it gives; a double forfeit is a loss for both.
* **Standings**: points, then points per game (fewer games for the same points ranks higher),
  then games won, then seed.
* **Pairing** (:func:`pair_arena`): the free players (not in a game, not away), longest waiting
  first, each with the free player of the nearest score, avoiding the opponent of his last
  game whenever anyone else is free; ties go to the longer waiting. "Waiting" is told by the
  pairing order of his last game (earliest first; a player who has not played yet, or came
  back, first of all), then by seed. With an odd number one player waits for the next
  finisher. Two computer players are never paired together: their games would end at once,
  again and again, and fill the standings (a computer waits for a member).

Pure like the rest of :mod:`bot.tournament`: the service decides when to pair and when the
arena's time is up (:attr:`Event.closing`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from bot.tournament.model import How, Match, PlayerId

__all__ = ["ArenaStanding", "arena_points", "arena_scores", "arena_standings", "pair_arena"]

WIN, DRAW = 2, 1
FIRE = 2  # wins in a row that set a player on fire


@dataclass(frozen=True)
class ArenaStanding:
    """One line of an arena's standings."""

    rank: int
    player: PlayerId
    seed: int
    points: int
    games: int
    wins: int
    draws: int
    losses: int
    streak: int  # wins in a row at the end of his last game (on fire from 2)

    @property
    def on_fire(self) -> bool:
        """Whether his next game counts double."""
        return self.streak >= FIRE

    @property
    def per_game(self) -> Fraction:
        """Points per game played (the first tie-break)."""
        return Fraction(self.points, self.games) if self.games else Fraction(0)


def arena_points(outcomes: Iterable[str]) -> tuple[int, int]:
    """The points and the final streak of a player's results in order (``win``, ``draw``,
    ``loss``): see the module docstring."""
    points = streak = 0
    for outcome in outcomes:
        factor = 2 if streak >= FIRE else 1
        if outcome == "win":
            points += WIN * factor
            streak += 1
        else:
            points += DRAW * factor if outcome == "draw" else 0
            streak = 0
    return points, streak


def _outcomes(seeds: Sequence[PlayerId], matches: Iterable[Match]) -> dict[PlayerId, list[str]]:
    """Each player's finished results in the order the matches were paired."""
    outcomes: dict[PlayerId, list[str]] = {p: [] for p in seeds}
    for m in matches:
        r = m.result
        if r is None or len(m.players) != 2:
            continue
        for p in m.players:
            if r.winner == p:
                outcomes[p].append("win")
            elif r.winner is None and r.how is not How.FORFEIT:
                outcomes[p].append("draw")
            else:
                outcomes[p].append("loss")
    return outcomes


def arena_scores(seeds: Sequence[PlayerId], matches: Iterable[Match]) -> dict[PlayerId, int]:
    """Each player's points (what pairing needs: no sorting, no tie-breaks)."""
    return {p: arena_points(got)[0] for p, got in _outcomes(seeds, matches).items()}


def arena_standings(seeds: Sequence[PlayerId], matches: Iterable[Match]) -> list[ArenaStanding]:
    """Standings of ``seeds`` (every player, seed order) from the arena's ``matches`` in the
    order they were paired (a player's games are in that order too; unfinished ones are
    ignored)."""
    outcomes = _outcomes(seeds, matches)
    keyed = []
    for seed, p in enumerate(seeds, start=1):
        got = outcomes[p]
        points, streak = arena_points(got)
        wins = got.count("win")
        per_game = Fraction(points, len(got)) if got else Fraction(0)
        keyed.append(((-points, -per_game, -wins, seed), p, seed, points, got, wins, streak))
    keyed.sort(key=lambda k: k[0])
    return [
        ArenaStanding(
            rank,
            p,
            seed,
            points,
            len(got),
            wins,
            got.count("draw"),
            got.count("loss"),
            streak,
        )
        for rank, (_, p, seed, points, got, wins, streak) in enumerate(keyed, start=1)
    ]


def pair_arena(
    free: Sequence[PlayerId],
    points: Mapping[PlayerId, int],
    last_opponent: Mapping[PlayerId, PlayerId],
    computers: Collection[PlayerId] = (),
) -> list[tuple[PlayerId, PlayerId]]:
    """Pair the ``free`` players (longest waiting first): see the module docstring. Each pair
    is (the longer waiting, his opponent); at most one member is left waiting (and the
    computers no member is free for)."""
    order = list(dict.fromkeys(free))
    waiting_rank = {p: i for i, p in enumerate(order)}
    left = set(order)
    pairs = []
    for p in order:
        if p not in left:
            continue
        left.discard(p)
        candidates = [q for q in left if p not in computers or q not in computers]
        if not candidates:
            continue
        mine = points.get(p, 0)
        q = min(
            candidates,
            key=lambda q: (
                last_opponent.get(p) == q or last_opponent.get(q) == p,
                abs(points.get(q, 0) - mine),
                waiting_rank[q],
            ),
        )
        left.discard(q)
        pairs.append((p, q))
    return pairs
