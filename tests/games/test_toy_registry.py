"""The toy family in the registry: registered only by the tests, found like any game while it
is, gone after; nothing in bot/ or cogs/ names it (issue 19: a game is one place)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from bot.ai.family import ai_of
from bot.engine.family import engine_of
from bot.games import (
    UnknownGame,
    default_game,
    family_of,
    find,
    games,
    register,
    registered,
    unregister,
)
from bot.render.family import render_of
from bot.sim.family import sim_of
from bot.terminal.family import terminal_of
from tests.games.toy import HIGH_PAIR, TOY

ROOT = Path(__file__).resolve().parents[2]
BUILT_IN = ("kap-shap", "kap-tai-shap", "tsung-shap")


def test_the_toy_is_a_game_while_registered_and_only_then() -> None:
    with pytest.raises(UnknownGame):
        find("high-pair")
    with registered(TOY):
        assert find("high-pair") is HIGH_PAIR
        assert family_of("high-pair") is TOY
        assert [game.name for game in games()] == [*BUILT_IN, "high-pair"]
        assert default_game() == "kap-shap"  # built-ins first: the toy is never the default
        assert type(engine_of("high-pair")).__module__ == "tests.games.toy.engine"
        assert type(ai_of("high-pair")).__module__ == "tests.games.toy.ai"
        assert type(render_of("high-pair")).__module__ == "tests.games.toy.render"
        assert type(terminal_of("high-pair")).__module__ == "tests.games.toy.terminal"
        assert sim_of("high-pair") is None
    with pytest.raises(UnknownGame) as unknown:
        find("high-pair")
    assert str(unknown.value) == (
        "unknown game 'high-pair': choose one of kap-shap, kap-tai-shap, tsung-shap"
    )
    with pytest.raises(UnknownGame):
        engine_of("high-pair")
    assert [game.name for game in games()] == list(BUILT_IN)


def test_unknown_names_are_refused_with_the_games_there_are() -> None:
    with registered(TOY):
        for name in ("high pair", "hp", "toy", ""):
            with pytest.raises(UnknownGame) as unknown:
                find(name)
            assert str(unknown.value).endswith(
                "choose one of kap-shap, kap-tai-shap, tsung-shap, high-pair"
            )
        with pytest.raises(UnknownGame, match="high-pair"):
            engine_of("higher-pair")


def test_a_taken_name_is_refused_and_registers_nothing() -> None:
    with registered(TOY):
        with pytest.raises(ValueError, match="a family named 'toy' is registered already"):
            register(TOY)
        twin = replace(TOY, name="toy-two", games=(replace(HIGH_PAIR, family="toy-two"),))
        with pytest.raises(ValueError, match="the name 'high-pair' is taken"):
            register(twin)
        alias = replace(HIGH_PAIR, name="low-pair", family="toy-two", aliases=("ks",))
        with pytest.raises(ValueError, match="the name 'ks' is taken"):
            register(replace(TOY, name="toy-two", games=(alias,)))
        assert [game.name for game in games()] == [*BUILT_IN, "high-pair"]
    with pytest.raises(ValueError, match="no family named 'toy'"):
        unregister("toy")
    with pytest.raises(ValueError, match="built-in family"):
        unregister("collecting")


def test_the_facets_are_loaded_again_after_the_family_comes_back() -> None:
    with registered(TOY):
        first = engine_of("high-pair")
    with registered(TOY):
        assert engine_of("high-pair") is first  # the module's FACET, one object


def test_nothing_outside_the_tests_names_the_toy() -> None:
    words = ("high-pair", "High Pair", "tests.games", "tests/games")
    found = []
    for package in ("bot", "cogs"):
        for path in sorted((ROOT / package).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            found += [f"{path.relative_to(ROOT)}: {w}" for w in words if w in text]
    assert not found
    # The blindness test lists the built-in games by name; the toy is not among them.
    blind = (ROOT / "tests" / "test_game_blind.py").read_text(encoding="utf-8")
    assert not any(word in blind for word in words)
