"""What the services read of a game through its family (issue 19 step 10): the per-seat columns
of a finished game, the flags a host may set and the options recovered from a stored rule set.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.ai.family import ai_of
from bot.ai.levels import playable_levels
from bot.engine.family import TableOptions, engine_of
from bot.games import games
from bot.services.ratings import AI_RATINGS

GAMES = [game.name for game in games()]
PLAYERS = {"kap-tai-shap": 4}


def _finished(game: str, seed: int) -> tuple[Any, list[Any]]:
    """A whole game between random players, and every event it had."""
    engine = engine_of(game)
    rules = engine.make_rules(game, PLAYERS.get(game, 2))
    rng = random.Random(seed)
    state = engine.new_game(rules, ["a", "b", "c", "d"][: rules.players], engine.deal(rules, rng))
    events: list[Any] = []
    while state.result is None:
        state, happened = engine.apply(state, rng.choice(engine.legal_actions(state)))
        events += happened
    return state, events


@pytest.mark.parametrize("game", GAMES)
def test_every_seat_has_its_columns_and_only_a_winner_an_arrangement(game: str) -> None:
    engine = engine_of(game)
    for seed in range(6):
        final, events = _finished(game, seed)
        stats = engine.seat_stats(final, events)
        standing = engine.standing(final)
        assert len(stats) == final.rules.players
        for seat, columns in enumerate(stats):
            assert set(columns) <= {"arrangement", "eye", "score", "captures", "sweeps", "claims"}
            if columns.get("arrangement") is not None:
                assert seat == standing.winner and columns.get("eye") is not None
            if standing.scores is not None:
                assert columns.get("score") == standing.scores[seat]
        # Nothing happened yet: no capture, sweep, claim or arrangement counted.
        empty = engine.seat_stats(final, [])
        assert all(
            columns.get(name) in (None, 0)
            for columns in empty
            for name in ("arrangement", "eye", "captures", "sweeps", "claims")
        )


def test_a_collecting_winner_keeps_his_declared_arrangement() -> None:
    engine = engine_of("kap-shap")
    for seed in range(40):
        final, events = _finished("kap-shap", seed)
        winner = engine.standing(final).winner
        if winner is not None:
            columns = engine.seat_stats(final, events)[winner]
            assert columns["arrangement"] and str(columns["eye"]).count("-") == 2
            return
    pytest.fail("no game of 40 was won")  # pragma: no cover


@pytest.mark.parametrize("game", GAMES)
def test_the_options_of_a_stored_rule_set_are_the_hosts(game: str) -> None:
    engine = engine_of(game)
    players = PLAYERS.get(game, 2)
    rule_set = engine.rule_sets(game)[-1]
    plain = engine.make_rules(game, players, rule_set)
    assert engine.table_options(plain) == TableOptions(plain.rule_set_name, plain.sets, {})
    recovered = 0
    for variant in engine.variants(game):
        for value in variant.values:
            try:
                rules = engine.make_rules(game, players, rule_set, **{variant.flag: value})
            except ValueError:
                continue  # a value this rule set refuses
            chosen = engine.table_options(engine.rules_from_flags(rules.flags()))
            assert (chosen.rule_set, chosen.sets) == (plain.rule_set_name, plain.sets)
            # Nothing chosen when the value is the rule set's own.
            assert chosen.variants == ({} if rules == plain else {variant.flag: value})
            recovered += bool(chosen.variants)
    assert recovered >= len(engine.variants(game))


@pytest.mark.parametrize("game", GAMES)
def test_every_variant_is_a_flag_of_the_game(game: str) -> None:
    engine = engine_of(game)
    flags = engine.make_rules(game, PLAYERS.get(game, 2)).flags()
    offered = [variant.flag for variant in engine.variants(game)]
    assert offered and len(set(offered)) == len(offered) and set(offered) <= set(flags)


@pytest.mark.parametrize("game", GAMES)
def test_the_computer_levels_ratings_are_the_familys(game: str) -> None:
    calibrated = ai_of(game).calibrated(game)
    assert dict(AI_RATINGS[game]) == dict(calibrated)
    assert set(calibrated) <= set(playable_levels(game))
    assert list(AI_RATINGS) == GAMES
