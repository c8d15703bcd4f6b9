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
import random
import time
from collections.abc import Sequence

from openskill.models import PlackettLuce

from bot.ai.levels import levels_for
from bot.engine import Game, make_deal, make_rules
from bot.games.collecting.sim.play import play_game
from bot.games.fishing.sim.play import play_fishing
from bot.services.ratings import ModelParams, ranks_of


def seatings(game: Game, levels: Sequence[str], rng: random.Random, games: int) -> list[list[str]]:
    """The level of each seat for every game to play."""
    out: list[list[str]] = []
    if game is Game.KAP_TAI_SHAP:
        for _ in range(games):
            seats = list(levels)
            rng.shuffle(seats)
            out.append(seats)
        return out
    pairs = list(itertools.combinations(levels, 2))
    for index in range(games):
        pair = list(pairs[index % len(pairs)])
        rng.shuffle(pair)
        out.append(pair)
    return out


def calibrate(game: Game, games: int, seed: int) -> dict[str, tuple[float, float, int]]:
    """Fit each level's (mu, sigma) from ``games`` simulated games; also count rated games."""
    rng = random.Random(seed)
    levels = levels_for(game)
    params = ModelParams()
    model = PlackettLuce(mu=params.mu, sigma=params.sigma, beta=params.beta, tau=0.0)
    ratings = {level: model.rating() for level in levels}
    rated = dict.fromkeys(levels, 0)
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
        updated = model.rate([[ratings[level]] for level in seats], ranks=ranks)
        for level, [new] in zip(seats, updated, strict=True):
            ratings[level] = new
            rated[level] += 1
    return {level: (r.mu, r.sigma, rated[level]) for level, r in ratings.items()}


def main() -> None:
    """Print the fitted ratings of every level of every game."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6000, help="games per game kind")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print("AI_RATINGS = {")
    for game in Game:
        start = time.perf_counter()
        fitted = calibrate(game, args.games, args.seed)
        seconds = time.perf_counter() - start
        cells = ", ".join(
            f'"{level}": ({mu:.2f}, {sigma:.2f})' for level, (mu, sigma, _) in fitted.items()
        )
        counts = ", ".join(f"{level} {n}" for level, (_, _, n) in fitted.items())
        print(f'    "{game.value}": {{{cells}}},  # rated seats: {counts}; {seconds:.0f} s')
    print("}")


if __name__ == "__main__":
    main()
