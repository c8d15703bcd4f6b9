"""The registry of games (bot.games): finding games, registering a family for the length of a
block, and refusing what would make two games one or a game no layer could play."""

from __future__ import annotations

import dataclasses

import pytest

import bot.games
from bot.ai.family import ai_of
from bot.engine.family import engine_of
from bot.games import (
    FamilyInfo,
    GameInfo,
    UnknownGame,
    default_game,
    family_of,
    find,
    games,
    load,
    register,
    registered,
    unregister,
)
from bot.render.family import render_of
from bot.sim.family import sim_of
from bot.terminal.family import terminal_of

BUILT_IN = ("kap-shap", "kap-tai-shap", "tsung-shap")


class _Facet:
    """What the test family gives every layer it has a part in: nothing but itself."""

    def __init__(self, role: str) -> None:
        self.role = role


FACET = _Facet("any")
"""The test family's facet for every role it names (this module)."""

PAIRS = GameInfo(
    name="test-pairs",
    family="test-family",
    title="Test Pairs",
    short="Pairs",
    table_choice="Test Pairs (2 players)",
    event_choice=None,
    players=(2, 3),
    default_seats=2,
    aliases=("tp",),
)
FAMILY = FamilyInfo(
    name="test-family",
    games=(PAIRS,),
    roles={"engine": __name__, "ai": __name__, "render": __name__},
)


def test_the_built_in_games_in_their_order() -> None:
    assert tuple(game.name for game in games()) == BUILT_IN
    assert default_game() == "kap-shap"
    assert find("kap-tai-shap").players == (2, 28)
    assert find("kap-tai-shap").event_format == "table-rounds"
    assert find("tsung-shap").scored and not find("kap-shap").scored
    assert family_of("kap-tai-shap") is family_of("kap-shap")
    assert family_of("tsung-shap").name == "fishing"


def test_the_built_in_descriptors_keep_todays_words() -> None:
    # The words are message ids the catalogues already hold (tests/locale/test_catalogue.py
    # checks every N_ of bot/), so the descriptors needed no new translation.
    assert [game.title for game in games()] == [
        "Kap Shap 夾十",
        "Kap Tai Shap 夾大十",
        "Tsung Shap 爭十",
    ]
    assert [game.table_choice for game in games()] == [
        "Kap Shap (2 players)",
        "Kap Tai Shap (2-20 players)",
        "Tsung Shap, the fishing game (2 players)",
    ]
    assert find("tsung-shap").aliases == ("ts", "爭十", "争十")


def test_an_unknown_game_names_the_games() -> None:
    with pytest.raises(UnknownGame) as caught:
        find("chess")
    assert str(caught.value) == (
        "unknown game 'chess': choose one of kap-shap, kap-tai-shap, tsung-shap"
    )
    assert isinstance(caught.value, ValueError) and caught.value.name == "chess"
    with pytest.raises(UnknownGame):
        family_of("chess")
    with pytest.raises(UnknownGame):
        engine_of("chess")
    with pytest.raises(UnknownGame):
        find("tp")  # an alias is for the terminal's set-up, not a stored name


def test_a_family_registered_for_a_block() -> None:
    with registered(FAMILY) as family:
        assert family is FAMILY
        assert find("test-pairs") is PAIRS
        assert tuple(game.name for game in games()) == (*BUILT_IN, "test-pairs")
        assert default_game() == "kap-shap"
        assert family_of("test-pairs") is FAMILY
        assert load("test-pairs", "engine") is FACET
        assert load("test-pairs", "sim") is None  # an optional role left out
        # The accessors hand out the facet; sim and terminal say there is none.
        assert engine_of("test-pairs") is FACET
        assert ai_of("test-pairs") is FACET
        assert render_of("test-pairs") is FACET
        assert sim_of("test-pairs") is None
        assert terminal_of("test-pairs") is None
        assert "test-pairs" in str(UnknownGame("x"))
    assert tuple(game.name for game in games()) == BUILT_IN
    with pytest.raises(UnknownGame, match=r"choose one of kap-shap, kap-tai-shap, tsung-shap$"):
        find("test-pairs")


def test_a_block_that_fails_still_unregisters() -> None:
    with pytest.raises(RuntimeError, match="inside"), registered(FAMILY):
        raise RuntimeError("inside")
    with pytest.raises(UnknownGame):
        find("test-pairs")
    register(FAMILY)
    unregister("test-family")
    with pytest.raises(UnknownGame):
        find("test-pairs")


def _family(game: GameInfo | None = None, **changes: object) -> FamilyInfo:
    family = dataclasses.replace(FAMILY, games=(game or PAIRS,))
    return dataclasses.replace(family, **changes) if changes else family


@pytest.mark.parametrize(
    ("family", "words"),
    [
        (_family(name="Test Family"), "family name 'Test Family' is not lower-case"),
        (_family(name="fishing"), "a family named 'fishing' is registered already"),
        (_family(games=()), "has no game"),
        (_family(roles={"ai": __name__, "render": __name__}), "gives no module for engine"),
        (_family(roles={**FAMILY.roles, "sound": __name__}), "'sound' is not a role"),
        (_family(roles={**FAMILY.roles, "sim": "not a module"}), "is not a module name"),
        (_family(dataclasses.replace(PAIRS, name="all")), "'all' is a reserved name"),
        (_family(dataclasses.replace(PAIRS, name="Pairs!")), "is not lower-case words"),
        (_family(dataclasses.replace(PAIRS, name="kap-shap")), "'kap-shap' is taken"),
        (_family(dataclasses.replace(PAIRS, aliases=("ks",))), "'ks' is taken"),
        (_family(dataclasses.replace(PAIRS, family="fishing")), "names the family 'fishing'"),
        (_family(dataclasses.replace(PAIRS, players=(3, 2))), "seats 3 to 2 players"),
        (_family(dataclasses.replace(PAIRS, players=(1, 2))), "seats 1 to 2 players"),
        (_family(dataclasses.replace(PAIRS, default_seats=4)), "seats 4 by default"),
        (_family(dataclasses.replace(PAIRS, event_format="league")), "event format 'league'"),
    ],
)
def test_a_family_that_cannot_be_registered(family: FamilyInfo, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        register(family)
    assert tuple(game.name for game in games()) == BUILT_IN  # nothing half-registered


def test_two_games_of_one_family_may_not_share_a_name() -> None:
    twin = dataclasses.replace(PAIRS, name="test-twin", aliases=("tp",))
    with pytest.raises(ValueError, match="'tp' is taken"):
        register(dataclasses.replace(FAMILY, games=(PAIRS, twin)))
    assert tuple(game.name for game in games()) == BUILT_IN


def test_what_cannot_be_unregistered_or_loaded() -> None:
    with pytest.raises(ValueError, match="built-in family 'collecting' stays registered"):
        unregister("collecting")
    with pytest.raises(ValueError, match="no family named 'test-family'"):
        unregister("test-family")
    with pytest.raises(ValueError, match="'sound' is not a role"):
        load("kap-shap", "sound")
    assert tuple(game.name for game in games()) == BUILT_IN


def test_a_descriptor_cannot_be_changed_through_the_registry() -> None:
    with pytest.raises(TypeError):
        family_of("kap-shap").roles["engine"] = "elsewhere"  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        find("kap-shap").players = (2, 9)  # type: ignore[misc]


def test_the_registry_is_the_package() -> None:
    # `import bot.games` is all a layer needs (its __all__ is the registry's interface).
    assert bot.games.find is find and bot.games.registered is registered
    assert set(bot.games.ROLES) == {"engine", "ai", "render", "sim", "terminal", "lessons"}
