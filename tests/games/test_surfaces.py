"""The families' surfaces (issue 19 step 9b): the buttons a game draws, what its slash verbs
mean, and the one generic rule that turns a click back into a move.

Played over whole games: every button of the seat to act plays a legal move once decoded by
:func:`cogs.ui.notation_of` and read by the table's notation, and every legal move a game
offers as a button is there.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from discord import ButtonStyle

from bot.engine import (
    apply,
    legal_actions,
    make_deal,
    make_rules,
    new_game,
    parse_action,
    view,
)
from bot.games import games
from bot.games.fishing.render.surface import combination_label
from bot.locale import t
from bot.render.family import ButtonSpec, SelectSpec, VerbRefusal, render_of
from cogs.ui import CustomId, moves_view, notation_of, parse_custom_id

GAMES = [game.name for game in games()]


def _states(game: str, seed: int) -> list[Any]:
    """Every state of one random game of ``game``, dealt from ``seed``."""
    rng = random.Random(seed)
    rules = make_rules(game)
    state: Any = new_game(rules, ["a"] * rules.players, make_deal(rules, rng))
    out = [state]
    while state.result is None:
        state, _ = apply(state, rng.choice(legal_actions(state)))
        out.append(state)
    return out


def _clicks(spec: ButtonSpec | SelectSpec) -> list[tuple[str, str | None, list[str]]]:
    """(verb, arg, values) of every click a component can send."""
    if isinstance(spec, ButtonSpec):
        return [(spec.verb, spec.arg or None, [])]
    return [(spec.verb, None, [choice.value]) for choice in spec.options]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_button_plays_a_legal_move(game: str, seed: int) -> None:
    surface = render_of(game)
    for state in _states(game, seed):
        legal = legal_actions(state)
        seat_view = view(state, state.current)
        specs = surface.buttons(seat_view, legal, "en")
        played = set()
        for spec in specs:
            for verb, arg, values in _clicks(spec):
                notation = notation_of(verb, arg, values)
                assert notation is not None
                action = parse_action(notation, game)
                assert action in legal, f"{spec} plays {action}, not legal in {legal}"
                played.add(action)
        if state.result is None:
            # Every kind of move has its button (discards beyond ten are typed with /discard).
            assert {type(a) for a in legal} == {type(a) for a in played}


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("locale", ["en", "zh-TW"])
def test_the_table_buttons_of_tsung_shap(seed: int, locale: str) -> None:
    """Claims on the first row, captures (with their tiles and points) on the second, Draw and
    Place on the third, every move a ``play`` of its notation; Rules under them."""
    surface = render_of("tsung-shap")
    assert surface.where == "table"
    for state in _states("tsung-shap", seed):
        if state.result is not None:
            continue
        public = view(state, None)
        legal = legal_actions(state)
        combos = {str(c.capture): c for c in public.options}
        combos |= {str(c.claim): c for c in public.pending}
        specs = surface.buttons(public, legal, locale)
        rows = {"claim": 0, "capture": 1, "draw": 2, "place": 2}
        assert [s.row for s in specs] == sorted(s.row for s in specs)
        for spec in specs:
            assert isinstance(spec, ButtonSpec) and spec.verb == "play"
            notation = spec.arg.replace("-", " ")
            assert spec.row == rows[notation.split()[0]]
            if notation in combos:
                assert (
                    spec.label
                    == combination_label(
                        parse_action(notation, "tsung-shap"), combos[notation], locale
                    )[:80]
                )
        assert sorted(s.arg for s in specs) == sorted(str(a).replace(" ", "-") for a in legal)
        drawn = moves_view("abc", 7, specs, rules_locale=locale)
        assert _components(drawn)[-1] == (
            "kap:abc:-:rules",
            t(locale, "Rules"),
            ButtonStyle.secondary,
            3,
        )


def _components(view_: Any) -> list[tuple[Any, ...]]:
    items = [getattr(child, "item", child) for child in view_.children]
    return [(i.custom_id, i.label, i.style, i.row) for i in items]


def test_the_hand_buttons_of_kap_shap() -> None:
    """Declare and Draw, the discards to take, the tiles to discard; a select for many takes."""
    surface = render_of("kap-shap")
    assert surface.where == "hand"
    seen_select = seen_takes = False
    for seed in range(1, 30):
        for state in _states("kap-shap", seed):
            legal = legal_actions(state)
            seat_view = view(state, state.current)
            specs = surface.buttons(seat_view, legal, "en")
            if state.result is not None:
                assert specs == []
                continue
            assert surface.buttons(view(state, 1 - state.current), legal, "en") == []
            verbs = [s.verb for s in specs]
            takes = [a for a in legal if type(a).__name__ == "Take" and a.tile is not None]
            if len(takes) > 3:
                seen_select = True
                [select] = [s for s in specs if isinstance(s, SelectSpec)]
                assert select.verb == "choose-take" and select.row == 3
                assert [c.value for c in select.options] == [str(a.tile) for a in takes]
            elif takes:
                seen_takes = True
                assert verbs.count("take") == len(takes)
            discards = [s for s in specs if isinstance(s, ButtonSpec) and s.verb == "discard"]
            assert [s.row for s in discards] == [1 + i // 5 for i in range(len(discards))]
    assert seen_select and seen_takes


def test_a_click_is_decoded_by_one_rule() -> None:
    assert notation_of("play", "capture-pair-left", []) == "capture pair left"
    assert notation_of("play", None, []) is None
    assert notation_of("choose-take", None, ["6-5"]) == "take 6-5"
    assert notation_of("choose-take", None, []) is None
    assert notation_of("discard", "6-5", []) == "discard 6-5"
    assert notation_of("draw", None, []) == "draw"
    assert notation_of("take", None, []) == "take"
    # The custom ids are the ones buttons always had.
    spec = ButtonSpec("discard", "6-5", "Discard 6-5")
    [button] = moves_view("abc", 3, [spec]).children
    assert parse_custom_id(str(getattr(button, "custom_id", ""))) == CustomId(
        "abc", 3, "discard", "6-5"
    )


@pytest.mark.parametrize("game", ["kap-shap", "kap-tai-shap"])
def test_the_verbs_of_a_collecting_game(game: str) -> None:
    surface = render_of(game)
    [state] = _states(game, 1)[:1]
    seat_view, legal = view(state, 0), legal_actions(state)
    assert surface.verb("take", {"tile": None}, seat_view, legal) == "take"
    assert surface.verb("take", {"tile": " "}, seat_view, legal) == "take"
    assert surface.verb("take", {"tile": "Axe"}, seat_view, legal) == "take Axe"
    assert surface.verb("draw", {}, seat_view, legal) == "draw"
    assert surface.verb("declare", {}, seat_view, legal) == "declare"
    assert surface.verb("discard", {"tile": "6-5", "side": None}, seat_view, legal) == "discard 6-5"
    for options in ({"tile": "6-5", "side": "left"}, {"tile": None, "side": None}):
        with pytest.raises(VerbRefusal) as refused:
            surface.verb("discard", options, seat_view, legal)
        assert not refused.value.no_such_move
    with pytest.raises(ValueError, match="unknown verb"):
        surface.verb("pass", {}, seat_view, legal)


def test_the_verbs_of_tsung_shap() -> None:
    surface = render_of("tsung-shap")
    states = _states("tsung-shap", 1)
    state = states[0]
    seat_view, legal = view(state, 0), legal_actions(state)
    assert surface.verb("draw", {}, seat_view, legal) == "draw"
    assert surface.verb("discard", {"tile": None, "side": "left"}, seat_view, legal) == "place left"
    assert surface.verb("discard", {"tile": " Right ", "side": None}, seat_view, legal) == (
        "place right"
    )
    assert surface.verb("take", {"tile": "Capture  Pair left"}, seat_view, legal) == (
        "capture pair left"
    )
    assert surface.verb("take", {"tile": "sweep ends"}, seat_view, legal) == (
        "capture triplet ends"
    )
    with pytest.raises(VerbRefusal) as refused:
        surface.verb("declare", {}, seat_view, legal)
    assert refused.value.no_such_move
    assert refused.value.message == "'declare' is not a Tsung Shap action."
    # With one capture on offer, a bare /take makes it.
    for later in states:
        moves = [a for a in legal_actions(later) if str(a).startswith(("capture", "claim"))]
        if len(moves) == 1:
            only = surface.verb("take", {"tile": None}, view(later, later.current), moves)
            assert only == str(moves[0])
            break
    else:  # pragma: no cover - the seed has one
        pytest.fail("no state with a single capture")
