"""The ladder of computer levels (issue 22): every level plays legal, complete games of every
game, deterministically from the game's seed; the fast simulator plays the ladder's levels
exactly as the engine does; the old codes still play; the calibrated rungs a game offers are at
least 100 rating points apart."""

from __future__ import annotations

import itertools
import random

import pytest

from bot.ai.levels import levels_for, player_for
from bot.engine import Game, apply, legal_actions, make_deal, make_rules, new_game, view
from bot.games.collecting.ai.ladder import LADDER
from bot.games.collecting.sim.fast import play_fast
from bot.games.collecting.sim.play import play_reference
from bot.games.fishing.ai.ladder import FISHING_BLUNDERS
from bot.services.ratings import AI_RATINGS, STANDS_IN, ModelParams, level_ratings

GAMES = [game.value for game in Game]


def _every_level(game: str) -> list[str]:
    """The offered levels but the (slow) master, and the ladder's levels not offered."""
    ladder = LADDER if game != Game.TSUNG_SHAP else tuple(FISHING_BLUNDERS)
    offered = [level for level in levels_for(game) if level != "master"]
    return offered + [level for level in ladder if level not in offered]


def _play(game: str, levels: list[str], seed: int) -> tuple[list[str], object]:
    """One whole game through the engine; every action checked legal. The actions played (as
    text) and the result."""
    rules = make_rules(game, len(levels))
    rng = random.Random(seed)
    state = new_game(rules, [f"s{i}" for i in range(len(levels))], make_deal(rules, rng))
    players = [player_for(game, level) for level in levels]
    played: list[str] = []
    while state.result is None:
        legal = legal_actions(state)
        action = players[state.current].choose(view(state, state.current), legal, rng)
        assert action in legal, (levels[state.current], action, legal)
        played.append(str(action))
        state, _ = apply(state, action)
    return played, state.result


@pytest.mark.parametrize("game", GAMES)
def test_every_level_plays_legal_complete_games(game: str) -> None:
    levels = _every_level(game)
    seats = 3 if game == Game.KAP_TAI_SHAP else 2
    for index, level in enumerate(levels):
        for seed in range(2):
            other = levels[(index + 1 + seed) % len(levels)]
            table = [level, other, *[level] * (seats - 2)]
            played, result = _play(game, table, seed)
            assert played and result is not None


@pytest.mark.parametrize("game", GAMES)
def test_a_level_plays_the_same_game_from_the_same_seed(game: str) -> None:
    seats = 3 if game == Game.KAP_TAI_SHAP else 2
    for level in ("beginner", "casual", "club"):
        table = [level] * seats
        first, _ = _play(game, table, 11)
        assert _play(game, table, 11)[0] == first
        # The rate of beginner's moves is drawn from the game's stream: another seed, another
        # game.
        assert any(_play(game, table, seed)[0] != first for seed in (12, 13))


@pytest.mark.parametrize("rules_name", ["kap-shap", "classic", "kap-tai-shap"])
def test_the_fast_path_plays_the_ladder_exactly_as_the_engine(rules_name: str) -> None:
    rules = (
        make_rules("kap-shap", rule_set="classic")
        if rules_name == "classic"
        else make_rules(rules_name, 2 if rules_name == "kap-shap" else 4)
    )
    for seed in range(6):
        levels = [LADDER[(seed + seat) % len(LADDER)] for seat in range(rules.players)]
        if seed % 3 == 0:
            levels[0] = "expert"
        deal = make_deal(rules, random.Random(f"ladder:{seed}"))
        reference = play_reference(rules, deal, levels, random.Random(seed))
        assert play_fast(rules, deal, levels, random.Random(seed)) == reference


@pytest.mark.parametrize("game", GAMES)
def test_the_old_levels_still_play_but_are_not_offered(game: str) -> None:
    offered = levels_for(game)
    assert offered[0] == ("novice" if game == "kap-shap" else "beginner")
    assert offered[-1] == "master"
    assert "random" not in offered and "greedy" not in offered
    for level in ("random", "greedy", *offered):
        assert player_for(game, level).level == level
    with pytest.raises(ValueError, match="beginner"):
        player_for(game, "genius")


def test_the_beginner_is_not_the_random_player() -> None:
    """Over the same deals, the beginner wins more games against the random player than it
    loses: he takes the tiles that make ten and always sees most of his wins."""
    beginner = 0
    random_wins = 0
    for seed in range(24):
        table = ["beginner", "random"] if seed % 2 else ["random", "beginner"]
        _, result = _play("kap-shap", table, seed)
        winner = getattr(result, "winner", None)
        if winner is not None:
            if table[winner] == "beginner":
                beginner += 1
            else:
                random_wins += 1
    assert beginner > 2 * random_wins


def test_the_novice_misses_what_the_beginner_sees() -> None:
    """Over the same deals the beginner wins more games against the novice than he loses: the
    novice sees only half the discards that make ten and misses more of his wins."""
    wins = {"novice": 0, "beginner": 0}
    for seed in range(24):
        table = ["beginner", "novice"] if seed % 2 else ["novice", "beginner"]
        _, result = _play("kap-shap", table, seed)
        winner = getattr(result, "winner", None)
        if winner is not None:
            wins[table[winner]] += 1
    assert wins["beginner"] > 2 * wins["novice"], wins


@pytest.mark.parametrize("game", GAMES)
def test_the_offered_rungs_are_calibrated_and_100_points_apart(game: str) -> None:
    """Every level a game offers has a calibrated strength (the master stands in for the
    strongest), and on the members' scale without the three sigmas (1500 + 25 (mu - 20)) each
    is at least 100 points above the one below it."""
    calibrated = AI_RATINGS[game]
    offered = levels_for(game)
    for level in offered:
        assert level in calibrated or level in STANDS_IN, level
    strengths = level_ratings(game, ModelParams())
    assert list(strengths) == [level for level in offered if level not in STANDS_IN]
    numbers = list(strengths.values())
    assert all(b - a >= 100 for a, b in itertools.pairwise(numbers)), strengths
    # The one documented exception (docs/ratings.md "The ladder"): the master, offered at the
    # top and counted at the expert's strength, measured less than 100 points above it.
    assert [level for level in offered if level not in strengths] == ["master"] == offered[-1:]
