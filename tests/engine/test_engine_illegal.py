"""Every kind of illegal action is refused with its own reason, in a player's words."""

from __future__ import annotations

import pickle
from collections.abc import Callable
from typing import Any

import pytest

from bot.engine import IllegalAction, NotationError, apply, legal_actions, make_rules, parse_action
from bot.engine.tiles import Tile
from bot.games.collecting.engine.actions import Declare, Discard, Take
from bot.games.collecting.engine.machine import Drew, GameState
from bot.games.dominoes.engine.actions import Draw
from tests.engine.helpers import play, start

P0 = "6-6 1-1 4-4 3-1 5-5 3-3 2-2 6-5"
P1 = "6-6 1-1 4-4 3-1 5-5 3-3 2-2"
WALL = "6-4 6-1 5-1 6-3 5-4 6-2 5-3"


def reason(state: GameState, move: str) -> str:
    before = pickle.dumps(state)
    with pytest.raises(IllegalAction) as info:
        apply(state, parse_action(move))
    assert pickle.dumps(state) == before
    return str(info.value)


def culin(**flags: Any) -> GameState:
    return start(make_rules("kap-shap", rule_set="culin", **flags), [P0, P1], WALL)


def classic(**flags: Any) -> GameState:
    return start(make_rules("kap-shap", rule_set="classic", **flags), [P0, P1], WALL)


def after_first_turn(state: GameState) -> GameState:
    state, _ = play(state, "discard 6-5", "draw", "discard 2-2")
    return state


# (name, state builder, move, words that must appear in the reason)
CASES: list[tuple[str, Callable[[], GameState], str, list[str]]] = [
    ("take while holding a full hand", lambda: culin(), "take 6-5", ["full hand", "discard"]),
    (
        "take during the mandatory draw",
        lambda: play(culin(), "discard 6-5")[0],
        "take 6-5",
        ["must draw"],
    ),
    (
        "take a tile nobody discarded",
        lambda: after_first_turn(culin()),
        "take 4-2",
        ["4-2", "not among the face-up discards"],
    ),
    (
        "take an older discard under Classic",
        lambda: after_first_turn(classic()),
        "take 6-5",
        ["only the most recent discard", "2-2", "6-5"],
    ),
    (
        "take back one's own discard",
        lambda: play(
            after_first_turn(culin(exclude_own_discards=True)),
            "take 6-5",
            "discard 1-1",
            "draw",
            "discard 6-6",
        )[0],
        "take 2-2",
        ["own discard", "2-2"],
    ),
    (
        "take under the stall guard",
        lambda: play(
            after_first_turn(classic()), "take 2-2", "discard 1-1", "take 1-1", "discard 6-6"
        )[0],
        "take 6-6",
        ["without a draw", "must draw"],
    ),
    ("draw while holding a full hand", lambda: culin(), "draw", ["full hand", "discard"]),
    (
        "draw twice",
        lambda: play(after_first_turn(culin()), "draw")[0],
        "draw",
        ["full hand", "discard"],
    ),
    (
        "discard before taking or drawing",
        lambda: after_first_turn(culin()),
        "discard 6-6",
        ["take a discard or draw"],
    ),
    (
        "discard during the mandatory draw",
        lambda: play(culin(), "discard 6-5")[0],
        "discard 6-6",
        ["draw"],
    ),
    ("discard a tile not held", lambda: culin(), "discard 4-2", ["do not hold", "4-2"]),
    (
        "discard the tile just taken",
        lambda: play(after_first_turn(culin()), "take 2-2")[0],
        "discard 2-2",
        ["just took", "2-2"],
    ),
    (
        "declare with too few tiles",
        lambda: after_first_turn(culin()),
        "declare",
        ["only declare", "full hand"],
    ),
    ("declare a hand that does not win", lambda: culin(), "declare", ["not a winning hand"]),
    (
        "anything after the end",
        lambda: play(
            start(make_rules("kap-shap", max_turns=1), [P0, P1], WALL),
            "discard 6-5",
            "draw",
            "discard 2-2",
        )[0],
        "draw",
        ["game is over"],
    ),
]


@pytest.mark.parametrize(("name", "build", "move", "words"), CASES, ids=[c[0] for c in CASES])
def test_each_illegal_action_has_its_own_reason(
    name: str, build: Callable[[], GameState], move: str, words: list[str]
) -> None:
    state = build()
    text = reason(state, move)
    for word in words:
        assert word in text, (name, text)


def test_reasons_differ_between_cases() -> None:
    texts = {reason(build(), move) for _, build, move, _ in CASES}
    assert len(texts) >= len(CASES) - 2  # nearly every case has its own wording


def test_draw_from_an_empty_wall() -> None:
    # Seat 0 wins only with 6-5, the last tile of the wall, which seat 1 draws and throws: with
    # the wall empty, seat 0 may still take it (a winning take), but not draw.
    state = start(
        make_rules("kap-shap", rule_set="classic"),
        ["6-6 6-6 4-4 1-1 3-1 3-3 6-3 6-4", "6-5 5-4 6-1 5-1 5-2 4-3 4-1"],
        "1-1 4-4 3-1 5-5 5-5 3-3 2-2 2-2 6-4 6-1 5-1 6-2 5-3 3-2 4-2 2-1 6-5",
    )
    state = play(state, "discard 6-4")[0]
    while state.wall_size:
        state, events = apply(state, Draw())
        drew = events[0]
        assert isinstance(drew, Drew)
        state, _ = apply(state, Discard(drew.tile))
    assert legal_actions(state) == [Take(Tile(6, 5))]
    assert "wall is empty" in reason(state, "draw")


def test_illegal_action_objects_are_refused_too() -> None:
    state = culin()
    with pytest.raises(IllegalAction, match="do not hold"):
        apply(state, Discard(Tile(2, 1)))
    state = after_first_turn(classic())
    with pytest.raises(IllegalAction, match="most recent"):
        apply(state, Take(Tile(6, 5)))
    with pytest.raises(IllegalAction, match="full hand"):
        apply(state, Declare())
    assert Take(Tile(2, 2)) in legal_actions(state)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", ["Empty action"]),
        ("pass", ["Unknown action", "pass", "draw"]),
        ("discard", ["Discard needs a tile"]),
        ("draw 6-6", ["Draw takes no tile"]),
        ("declare now", ["Declare takes no tile"]),
        ("take 7-7", ["7-7"]),
        ("discard foo", ["foo"]),
    ],
)
def test_action_notation_errors_say_what_was_wrong(text: str, words: list[str]) -> None:
    with pytest.raises(NotationError) as info:
        parse_action(text)
    for word in words:
        assert word in str(info.value)
    assert str(info.value)[:1].isupper()


def test_notation_errors_quote_only_a_short_prefix_of_the_input() -> None:
    for text in ("discard " + "x" * 1900, "y" * 1900, "take " + "9" * 1900):
        with pytest.raises(NotationError) as info:
            parse_action(text)
        message = str(info.value)
        assert len(message) < 200 and message[:1].isupper(), message
        assert "…'" in message


def test_action_notation_round_trips() -> None:
    for text in ("take", "take 6-5", "draw", "discard 3-1", "declare"):
        assert str(parse_action(text)) == text
    assert parse_action("TAKE axe") == Take(Tile(6, 5))
    assert parse_action("  discard  [1:3] ") == Discard(Tile(3, 1))
