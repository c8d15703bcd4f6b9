"""Calibrate the fixed rating of each computer level (``calibrated`` of each game's AI facet).

    .venv/bin/python benchmarks/calibrate_ratings.py [--games 6000] [--seed 1]

For each game the simulator plays ``--games`` games between the AI levels that game offers
(``levels_for``): in the two-player games (Kap Shap, Tsung Shap) every pair of distinct levels in
turn, seats in random order; in Kap Tai Shap one seat per level (three players), seats shuffled.
Each game is ranked as the bot ranks it (the winner first and the others tied; Tsung Shap by
score; drawn games skipped) and fed, in order, to openskill's Plackett-Luce model with the bot's
default parameters but ``tau = 0`` (the levels' strengths do not drift: the fit should settle).
Every level starts at the prior (mu 25, sigma 25/3), so the prior mean of a newcomer is about the
average of the computer levels. The printed mu and sigma per level are the values to paste into
the families' ``_CALIBRATED`` tables (bot/games/<family>/ai/family.py); docs/ratings.md records
the run. A level added later (e.g. ``master``) is calibrated by the same run once it is
registered.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import time
from collections.abc import Sequence
from typing import NamedTuple

from openskill.models import PlackettLuce

from bot.ai.levels import RETIRED, levels_for
from bot.engine import Game, make_deal, make_rules
from bot.games.collecting.sim.play import play_game
from bot.games.fishing.sim.play import play_fishing
from bot.services.ratings import ModelParams, ranks_of


class Fitted(NamedTuple):
    """A level's fitted strength and the rated games it took."""

    mu: float
    sigma: float
    games: int


def seatings(game: Game, levels: Sequence[str], rng: random.Random, games: int) -> list[list[str]]:
    """The level of each seat for every game to play."""
    out: list[list[str]] = []
    if game is Game.KAP_TAI_SHAP:
        for _ in range(games):
            out.append(rng.sample(list(levels), 3))
        return out
    pairs = list(itertools.combinations(levels, 2))
    for index in range(games):
        pair = list(pairs[index % len(pairs)])
        rng.shuffle(pair)
        out.append(pair)
    return out


ORDER = (
    "novice",
    "random",
    "greedy",
    "beginner",
    "casual",
    "club",
    "strong",
    "expert",
    "master",
)
"""The levels weakest first: the order of the pool (the pairs are played in this order)."""


def calibrated_levels(
    game: Game, master: bool, also: Sequence[str] = (), pool: Sequence[str] = ()
) -> list[str]:
    """The levels to calibrate: those no longer offered that stored games still name (so that
    a rebuild rates those games at their measured strength), the ladder the game offers (the
    master only if asked) and ``also``, levels the game plays but does not offer, in
    :data:`ORDER`; or, if ``pool`` names any, exactly those (a head-to-head of a few levels,
    e.g. the master against the expert, which measures their gap in fewer games)."""
    if pool:
        return [level for level in ORDER if level in pool]
    chosen = {*RETIRED, *levels_for(game), *also}
    if not master:
        chosen.discard("master")
    return [level for level in ORDER if level in chosen]


def play(game: Game, levels: Sequence[str], games: int, seed: int) -> list[tuple[list[str], int]]:
    """Play ``games`` simulated games between ``levels``: each rated game's seats and winner
    (the seat ranked first; drawn games, and Tsung Shap's equal scores, are left out)."""
    rng = random.Random(seed)
    out: list[tuple[list[str], int]] = []
    for seats in seatings(game, levels, rng, games):
        rules = make_rules(game, len(seats), None, None)
        deal = make_deal(rules, rng)
        if game is Game.TSUNG_SHAP:
            record = play_fishing(rules, deal, seats, rng)
            winner, scores = record.winner, record.scores
        else:
            result = play_game(rules, deal, seats, rng)
            winner, scores = result.winner, None
        if winner is None:
            continue  # a drawn game is not rated
        ranks = ranks_of(game.value, winner, scores, len(seats))
        if ranks.count(1) != 1:
            continue  # equal scores: no one seat won
        out.append((seats, ranks.index(1)))
    return out


MEMBER_SIGMA = 1.7
"""The sigma of a member whose rating has settled (docs/ratings.md): the seats' uncertainty in
the updates the fit balances."""

FOLDS = 5
"""Interleaved parts of the games fitted apart: the spread of their fits gives the error."""


def fixed_point(levels: Sequence[str], played: Sequence[tuple[list[str], int]]) -> dict[str, float]:
    """The strength of each level at which the bot's own rating update (openskill's
    Plackett-Luce model, the ratings' parameters, the bot's ranks: the winner first and the
    others tied) moves it by nothing on average over its games, the other seats at theirs.

    That is where a member who plays like the level settles against the fixed levels, which
    is the number to give the level. The mean of the levels is anchored at the prior mu (25).
    A fixed-point iteration on the average update; identical tables are counted once.
    """
    params = ModelParams()
    model = PlackettLuce(mu=params.mu, sigma=params.sigma, beta=params.beta, tau=0.0)
    counts: dict[tuple[tuple[str, ...], int], int] = {}
    for seats, winner in played:
        key = (tuple(seats), winner)
        counts[key] = counts.get(key, 0) + 1
    games = dict.fromkeys(levels, 0)
    for (seats, _), k in counts.items():
        for level in seats:
            games[level] += k
    mu = dict.fromkeys(levels, params.mu)
    for _ in range(2000):
        moved = dict.fromkeys(levels, 0.0)
        for (seats, winner), k in counts.items():
            teams = [[model.create_rating([mu[level], MEMBER_SIGMA])] for level in seats]
            ranks = [1 if seat == winner else 2 for seat in range(len(seats))]
            for level, [old], [new] in zip(
                seats, teams, model.rate(teams, ranks=ranks), strict=True
            ):
                moved[level] += k * (new.mu - old.mu)
        step = {level: moved[level] / games[level] for level in levels if games[level]}
        for level, delta in step.items():
            # An update is about sigma² / c times the surprise: undo most of that factor.
            mu[level] += delta * 8.0 / MEMBER_SIGMA**2
        shift = params.mu - sum(mu.values()) / len(mu)
        for level in levels:
            mu[level] += shift
        if max(abs(delta) for delta in step.values()) < 1e-4:
            break
    return mu


def fit(levels: Sequence[str], played: Sequence[tuple[list[str], int]]) -> dict[str, Fitted]:
    """Each level's strength (:func:`fixed_point` of every game), its standard error (the
    spread of the fits of :data:`FOLDS` interleaved parts, over the square root of their
    number) and its rated games."""
    mu = fixed_point(levels, played)
    parts = [fixed_point(levels, played[fold::FOLDS]) for fold in range(FOLDS)]
    rated = dict.fromkeys(levels, 0)
    for seats, _ in played:
        for level in seats:
            rated[level] += 1
    out = {}
    for level in levels:
        values = [part[level] for part in parts]
        mean = sum(values) / FOLDS
        spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (FOLDS - 1))
        out[level] = Fitted(mu[level], spread / math.sqrt(FOLDS), rated[level])
    return out


def calibrate(
    game: Game,
    games: int,
    seed: int,
    master: bool = False,
    also: Sequence[str] = (),
    pool: Sequence[str] = (),
) -> dict[str, Fitted]:
    """Fit each level's (mu, sigma) from ``games`` simulated games; also count rated games."""
    levels = calibrated_levels(game, master, also, pool)
    return fit(levels, play(game, levels, games, seed))


def shown(mu: float) -> int:
    """A fixed-strength level's number on the members' scale, without the three sigmas."""
    params = ModelParams()
    return round(params.base + params.scale * (mu - params.centre))


def main() -> None:
    """Print the fitted ratings of every level of every game, and the gaps between the rungs."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8000, help="games per collecting game")
    parser.add_argument(
        "--tsung-games", type=int, default=3000, help="Tsung Shap games (its expert is slower)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=[game.value for game in Game], help="one game only")
    parser.add_argument(
        "--also",
        action="append",
        default=[],
        metavar="GAME=LEVEL",
        help="a level the game plays but does not offer, in the pool too (repeatable)",
    )
    parser.add_argument("--master", action="store_true", help="the master in the pool too")
    parser.add_argument(
        "--pool",
        action="append",
        default=[],
        metavar="LEVEL",
        help="only these levels (repeatable): a head-to-head, e.g. --pool expert --pool master",
    )
    args = parser.parse_args()
    also: dict[str, list[str]] = {}
    for item in args.also:
        name, _, level = str(item).partition("=")
        also.setdefault(name, []).append(level)
    for game in Game:
        if args.only and game.value != args.only:
            continue
        games = args.tsung_games if game is Game.TSUNG_SHAP else args.games
        start = time.perf_counter()
        fitted = calibrate(game, games, args.seed, args.master, also.get(game.value, ()), args.pool)
        seconds = time.perf_counter() - start
        print(f"{game.value}: {games} games, {seconds:.0f} s")
        print("  level      mu     sigma  shown  gap   rated seats")
        offered = set(levels_for(game))
        previous: int | None = None
        for level, (mu, sigma, rated) in sorted(fitted.items(), key=lambda item: item[1].mu):
            number = shown(mu)
            gap = "" if previous is None or level not in offered else f"+{number - previous}"
            mark = "" if level in offered else "  (not offered)"
            print(f"  {level:9s} {mu:6.2f}  {sigma:5.2f}  {number:5d} {gap:>5s}  {rated:6d}{mark}")
            if level in offered:
                previous = number
        cells = ", ".join(f'"{level}": ({f.mu:.2f}, {f.sigma:.2f})' for level, f in fitted.items())
        print(f"  _CALIBRATED: {{{cells}}}")


if __name__ == "__main__":
    main()
