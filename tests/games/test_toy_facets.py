"""High Pair, the toy family of tests/games/toy: its facets fill every layer's Protocol, and
they play the game's rules (exact deals, every refusal, records, hidden information, words,
buttons, verbs, terminal hooks), with a property test over random games."""

from __future__ import annotations

import inspect
import io
import random
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ai.family import GameAI, ai_of
from bot.engine.errors import IllegalAction, NotationError, RulesError
from bot.engine.family import GameEngine, engine_of
from bot.engine.position import PositionError
from bot.games import registered
from bot.locale import recognize, t
from bot.render.family import ButtonSpec, GameRender, VerbRefusal, render_of
from bot.render.text import SeatLabel
from bot.sim.family import sim_of
from bot.terminal.family import GameTerminal, terminal_of
from tests.games.toy import TOY
from tests.games.toy.engine import (
    CARDS,
    Discard,
    Discarded,
    Draw,
    Drew,
    GameOver,
    Phase,
    Show,
    Shown,
    ToyResult,
    ToyRules,
    ToyState,
    card,
    deal_from_cards,
)

GAME = "high-pair"


@pytest.fixture(autouse=True)
def toy() -> Iterator[None]:
    with registered(TOY):
        yield


def _state(
    hands: Sequence[Sequence[int]], stock: Sequence[int] = (), first: int = 0, **flags: Any
) -> ToyState:
    engine = engine_of(GAME)
    rules = engine.make_rules(GAME, 2, **flags)
    state: ToyState = engine.new_game(
        rules, ["Ann", "Bo"], deal_from_cards(rules, hands, stock, first)
    )
    return state


def _play(state: ToyState, *notations: str) -> tuple[ToyState, list[Any]]:
    engine = engine_of(GAME)
    events: list[Any] = []
    for notation in notations:
        state, new = engine.apply(state, engine.parse_action(notation))
        events += new
    return state, events


# -- the facets fill the Protocols ------------------------------------------------------------


@pytest.mark.parametrize(
    ("protocol", "accessor"),
    [
        (GameEngine, engine_of),
        (GameAI, ai_of),
        (GameRender, render_of),
        (GameTerminal, terminal_of),
    ],
)
def test_every_member_of_the_protocol_is_there(protocol: type, accessor: Any) -> None:
    facet = accessor(GAME)
    members = {name for name in dir(protocol) if not name.startswith("_")}
    assert members
    missing = {name for name in members if not hasattr(type(facet), name)}
    assert not missing, f"{type(facet).__name__} lacks {sorted(missing)}"
    for name in members:
        attribute = inspect.getattr_static(type(facet), name)
        assert getattr(attribute, "__doc__", None), f"{type(facet).__name__}.{name}: no docstring"


def test_the_toy_has_no_sim_role() -> None:
    assert sim_of(GAME) is None


# -- rules --------------------------------------------------------------------------------------


def test_a_show_with_the_higher_pair_wins() -> None:
    state = _state([[7, 7, 2], [9, 3, 1]], stock=[5, 4])
    assert state.current == 0 and state.phase is Phase.DRAW and len(state.stock) == CARDS - 6
    engine = engine_of(GAME)
    assert engine.legal_actions(state) == [Draw()]
    state, events = _play(state, "draw")
    assert events == [Drew(0, state.hands[0][-1])] and card(state.hands[0][-1]) == 5
    assert engine.legal_actions(state) == [Discard(2), Discard(5), Discard(7), Show()]
    state, events = _play(state, "show")
    assert state.result == ToyResult(winner=0, reason="show", pairs=(7, None))
    assert events == [Shown(0, (2, 5, 7, 7)), GameOver(state.result, ((2, 5, 7, 7), (1, 3, 9)))]
    assert engine.legal_actions(state) == []
    assert engine.result_line(state) == "seat 0 wins (show)"


def test_the_shower_loses_to_a_higher_pair_and_equal_pairs_draw() -> None:
    lost, _ = _play(_state([[2, 2, 5], [9, 9, 1]], stock=[4]), "draw", "show")
    assert lost.result == ToyResult(winner=1, reason="show", pairs=(2, 9))
    drawn, _ = _play(_state([[7, 7, 2], [7, 7, 1]], stock=[4]), "draw", "show")
    assert drawn.result == ToyResult(winner=None, reason="show", pairs=(7, 7))
    assert engine_of(GAME).result_line(drawn) == "drawn (show)"


def test_the_first_seat_plays_first_and_turns_alternate() -> None:
    state = _state([[1, 2, 3], [4, 5, 6]], stock=[9, 8], first=1)
    assert state.current == 1 and state.hands[1] and card(state.deal.order[0]) == 4
    state, events = _play(state, "draw", "discard 9")
    assert events[-1] == Discarded(1, 9)
    assert (state.current, state.turn, state.phase) == (0, 2, Phase.DRAW)
    assert [card(p) for p in state.discards] == [9]


def test_an_empty_stock_at_the_start_of_a_turn_ends_the_game() -> None:
    engine = engine_of(GAME)
    state = _state([[1, 2, 3], [4, 5, 6]])
    turns = 0
    while state.result is None:
        state, events = _play(state, "draw")
        drawn = card(state.hands[state.current][-1])
        state, events = _play(state, f"discard {drawn}")
        turns += 1
    assert turns == CARDS - 6 and state.turn == turns + 1
    assert state.result is not None and state.result.reason == "stock"
    assert state.result == ToyResult(winner=None, reason="stock", pairs=(None, None))
    assert isinstance(events[-1], GameOver)
    assert engine.result_line(state) == "drawn (stock)"


@pytest.mark.parametrize(
    ("before", "notation", "refusal"),
    [
        ((), "discard 1", "Draw a card first."),
        ((), "show", "Draw a card first."),
        (("draw",), "draw", "You have drawn already: discard a card or show a pair."),
        (("draw",), "discard 8", "You hold no 8."),
        (("draw",), "show", "You hold no pair to show."),
    ],
)
def test_every_refusal(before: tuple[str, ...], notation: str, refusal: str) -> None:
    state, _ = _play(_state([[1, 2, 3], [4, 5, 6]], stock=[9]), *before)
    with pytest.raises(IllegalAction) as caught:
        _play(state, notation)
    assert str(caught.value) == refusal
    # The services recognise a refusal among the engine's templates to word it.
    assert recognize(refusal, engine_of(GAME).refusals) is not None


def test_other_games_actions_and_a_finished_game_are_refused() -> None:
    from bot.games.dominoes.engine.actions import Draw as DominoDraw

    engine = engine_of(GAME)
    state = _state([[7, 7, 2], [9, 3, 1]], stock=[5])
    with pytest.raises(IllegalAction, match="not a High Pair action"):
        engine.apply(state, DominoDraw())
    over, _ = _play(state, "draw", "show")
    with pytest.raises(IllegalAction, match="The game is over"):
        engine.apply(over, Draw())


def test_the_hand_variant_deals_four() -> None:
    engine = engine_of(GAME)
    rules = engine.make_rules(GAME, hand="4")
    assert rules.hand == 4 and engine.with_flag(rules, "hand", "3").hand == 3
    state = engine.new_game(rules, ["a", "b"], engine.deal(rules, random.Random(3)))
    assert [len(h) for h in state.hands] == [4, 4] and len(state.stock) == CARDS - 8
    assert engine.table_options(rules).variants == {"hand": "4"}
    assert engine.table_options(engine.make_rules(GAME)).variants == {}
    assert [v.flag for v in engine.variants(GAME)] == ["hand"]
    assert engine.variants(GAME)[0].values == ("3", "4")


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda e: e.make_rules(GAME, hand="5"), "3 or 4 cards"),
        (lambda e: e.make_rules(GAME, 3), "2 players"),
        (lambda e: e.make_rules(GAME, rule_set="culin"), "only 'standard'"),
        (lambda e: e.make_rules(GAME, colour="red"), "no rule 'colour'"),
        (lambda e: e.make_rules(GAME, settlement="difference"), "by the pot only"),
        (lambda e: e.make_rules("kap-shap"), "unknown game"),
        (lambda e: e.with_flag(e.make_rules(GAME), "hand", "many"), "is a number"),
    ],
)
def test_bad_rules_are_refused(call: Any, words: str) -> None:
    with pytest.raises(RulesError, match=words):
        call(engine_of(GAME))


def test_rules_round_trip_through_their_flags_as_json_and_as_text() -> None:
    engine = engine_of(GAME)
    rules = engine.make_rules(GAME, hand=4, rake_percent=5, pot_carries_over=True)
    assert engine.rules_from_flags(rules.flags()) == rules
    text = {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in rules.flags().items()}
    assert engine.rules_from_flags(text) == rules
    assert rules.describe() == "High Pair, 2 players, hand of 4"
    assert engine.rule_sets(GAME) == ("standard",) and engine.settlements(GAME) == ("pot",)


def test_notation() -> None:
    engine = engine_of(GAME)
    for action in (Draw(), Show(), *(Discard(c) for c in range(1, 10))):
        assert engine.parse_action(str(action)) == action
        assert engine.parse_action(f"  {str(action).upper()} ") == action
    for bad in ("take", "discard 0", "discard 12", "discard", "draw 2", ""):
        with pytest.raises(NotationError, match="write draw, discard N or show"):
            engine.parse_action(bad)
    state = _state([[1, 2, 3], [4, 5, 6]], stock=[9])
    after, _ = _play(state, "draw")
    assert engine.resolve(state, "draw") == Draw()
    assert engine.logged(state, after, Draw()) == "draw"


def test_events_are_described_hiding_a_drawn_card_from_others() -> None:
    engine = engine_of(GAME)
    _, events = _play(_state([[7, 7, 2], [9, 3, 1]], stock=[5]), "draw", "discard 5")
    names = ["Ann", "Bo"]
    assert engine.describe_event(events[0], 0, names) == "Ann drew 5"
    assert engine.describe_event(events[0], 1, names) == "Ann drew a card"
    assert engine.describe_event(events[0], None, names) == "Ann drew a card"
    assert engine.describe_event(events[1], None, names) == "Ann discarded 5"
    assert all(engine.owns_event(event) for event in events)
    assert not engine.owns_event(Draw())


# -- records and positions ----------------------------------------------------------------------


def test_a_deal_is_written_as_cards_and_read_back() -> None:
    engine = engine_of(GAME)
    rules = engine.make_rules(GAME)
    deal = engine.deal(rules, random.Random(11), 1)
    text = engine.deal_text(rules, deal)
    assert text.split() == [str(card(p)) for p in deal.order]
    read = engine.read_deal(rules, text, deal.first_seat, deal.thrower, deal.dice)
    assert [card(p) for p in read.order] == [card(p) for p in deal.order]
    assert (read.first_seat, read.thrower) == (deal.first_seat, 1)
    assert engine.deal_text(rules, read) == text
    with pytest.raises(NotationError, match="'x' is not a card"):
        engine.read_deal(rules, text.replace("1", "x", 1), 0, 0, ())
    engine.check_deal_text(text)
    with pytest.raises(NotationError, match="'6-6' is not a card"):
        engine.check_deal_text("1 2 6-6 3")
    with pytest.raises(RulesError, match="four times"):
        engine.read_deal(rules, text[:-2], 0, 0, ())
    first = deal.first_seat
    hands = [[card(p) for p in deal.order[0:3]], [card(p) for p in deal.order[3:6]]]
    assert engine.deal_comment(rules, deal) == [
        f"; hand of seat {first}: {' '.join(map(str, hands[0]))}",
        f"; hand of seat {1 - first}: {' '.join(map(str, hands[1]))}",
    ]


def _fields(text: str) -> dict[str, str]:
    """A typed position's fields (``game; key value; …``), as the generic reader splits them."""
    parts = [part.strip() for part in text.replace("\n", ";").split(";")]
    fields = {"game": parts[0]}
    for part in parts[1:]:
        key, _, value = part.partition(" ")
        fields[key] = value
    return fields


def test_a_position_is_what_the_seat_to_play_sees() -> None:
    engine = engine_of(GAME)
    state, _ = _play(_state([[7, 2, 2], [9, 3, 1]], stock=[5, 8, 6]), "draw", "discard 5", "draw")
    text = engine.write_position(state)
    assert text.splitlines() == [
        "high-pair", "seat 1", "size 3", "hand 1 3 8 9", "discards 5", "stock 28",
        "phase discard", "turn 2",
    ]  # fmt: skip
    read, seat = engine.parse_position(GAME, _fields(text))
    assert seat == 1
    # The same view, but for the seats' names (a position has none).
    assert engine.view(read, 1) == replace(engine.view(state, 1), seats=read.seats)
    assert engine.position_lines(state, 1) == [" ▶ Bo: 1 3 8 9", "   discards: 5; stock: 28 cards"]
    assert engine.position_lines(state, None) == [
        "   Ann: 2 2 7",
        " ▶ Bo: 1 3 8 9",
        "   discards: 5; stock: 28 cards",
    ]
    # The generic reader hands every field's values as a list.
    listed = {key: [value] for key, value in _fields(text).items()}
    assert engine.parse_position(GAME, listed)[0] == read
    with pytest.raises(PositionError, match="holds 4 cards"):
        engine.parse_position(GAME, {**_fields(text), "hand": "1 3 8"})
    with pytest.raises(PositionError, match="no field 'wall'"):
        engine.parse_position(GAME, {**_fields(text), "wall": "3"})
    with pytest.raises(PositionError, match="'seat' is given twice"):
        engine.parse_position(GAME, {**listed, "seat": ["0", "1"]})
    ended, _ = _play(_state([[7, 7, 2], [9, 3, 1]], stock=[5]), "draw", "show")
    with pytest.raises(PositionError, match="over"):
        engine.write_position(ended)
    assert engine.position_lines(ended, None) == [
        "   Ann: 2 5 7 7", "   Bo: 1 3 9", "   discards: none; stock: 29 cards",
    ]  # fmt: skip


# -- hidden information and results ---------------------------------------------------------------


def test_what_a_seat_has_not_seen_is_the_other_hand_and_the_stock() -> None:
    engine = engine_of(GAME)
    state, _ = _play(_state([[7, 2, 2], [9, 3, 1]], stock=[5, 8, 6]), "draw", "discard 5")
    unseen = engine.unseen(state, 0)
    assert unseen == sorted([*state.hands[1], *state.stock])
    order = list(reversed(unseen))
    rebuilt = engine.rebuild(state, 0, order)
    assert rebuilt.hands[0] == state.hands[0] and rebuilt.discards == state.discards
    assert list(rebuilt.hands[1]) + list(rebuilt.stock) == order
    assert engine.view(rebuilt, 0) == engine.view(state, 0)
    with pytest.raises(ValueError, match="not the pieces"):
        engine.rebuild(state, 0, order[1:])


def test_arrangements_near_the_end_are_counted_and_listed() -> None:
    engine = engine_of(GAME)
    state = _state([[1, 2, 3], [4, 5, 6]])
    while len(state.stock) > 2:
        state, _ = _play(state, "draw")
        state, _ = _play(state, f"discard {card(state.hands[state.current][-1])}")
    worlds = list(engine.arrangements(state, state.current))
    assert len(worlds) == engine.arrangement_count(state, state.current) > 1
    seen = {engine.view(world, state.current) for world in worlds}
    assert seen == {engine.view(state, state.current)}
    assert len({(w.hands, w.stock) for w in worlds}) == len(worlds)


def test_standing_and_chips() -> None:
    engine = engine_of(GAME)
    won, events = _play(_state([[7, 7, 2], [9, 3, 1]], stock=[5]), "draw", "show")
    standing = engine.standing(won)
    assert (standing.winner, standing.scores, standing.ranks) == (0, None, (1, 2))
    drawn, _ = _play(_state([[7, 7, 2], [7, 7, 1]], stock=[5]), "draw", "show")
    assert engine.standing(drawn).ranks is None
    assert engine.seat_stats(won, events) == ({}, {})
    assert engine.points_owed(won) == engine.forfeit_points(won, 0) == 0
    with pytest.raises(ValueError, match="not over"):
        engine.standing(_state([[7, 7, 2], [9, 3, 1]]))


# -- the AI --------------------------------------------------------------------------------------


def test_the_levels_and_what_they_play() -> None:
    ai, engine = ai_of(GAME), engine_of(GAME)
    assert ai.levels(GAME) == ("random", "greedy")
    assert not any(ai.searching(level) for level in ai.levels(GAME))
    assert ai.calibrated(GAME) == {}
    assert ai.warm_player(GAME, 100) is None and not ai.compiled(GAME)
    assert ai.draws_unseen(Draw()) and not ai.draws_unseen(Discard(3))
    seen = engine.view(_state([[7, 7, 2], [9, 3, 1]], stock=[5]), 0)
    assert [w.text() for w in ai.position_words(seen)] == [
        "Hand: 2 7 7", "Discards: -", "Stock: 30 cards",
    ]  # fmt: skip
    with pytest.raises(ValueError, match="random, greedy"):
        ai.player(GAME, "master")
    greedy = ai.player(GAME, "greedy")
    state, _ = _play(_state([[7, 7, 2], [9, 3, 1]], stock=[5]), "draw")
    rng = random.Random(1)
    assert greedy.choose(engine.view(state, 0), engine.legal_actions(state), rng) == Show()
    state, _ = _play(_state([[8, 7, 2], [9, 3, 1]], stock=[6]), "draw")
    assert greedy.choose(engine.view(state, 0), engine.legal_actions(state), rng) == Discard(2)
    random_player = ai.player(GAME, "random")
    picks = {
        random_player.choose(engine.view(state, 0), engine.legal_actions(state), rng)
        for _ in range(60)
    }
    assert picks == set(engine.legal_actions(state))


def test_an_absent_seat_draws_then_throws_its_highest_single_and_never_shows() -> None:
    ai = ai_of(GAME)
    state = _state([[7, 7, 2], [9, 3, 1]], stock=[5])
    assert ai.passive_action(state, 0, random.Random(1)) == Draw()
    state, _ = _play(state, "draw")
    assert ai.passive_action(state, 0, random.Random(1)) == Discard(5)
    paired, _ = _play(_state([[7, 7, 2], [9, 3, 1]], stock=[2]), "draw")
    assert ai.passive_action(paired, 0, random.Random(1)) == Discard(2)


def test_the_review_words_and_play_out() -> None:
    ai = ai_of(GAME)
    assert ai.action_words("draw").text() == "drawing"
    assert ai.action_words("discard 7").text() == "discarding 7"
    assert ai.action_words("show").text() == "showing a pair"
    won, _ = _play(_state([[9, 9, 2], [8, 3, 1]], stock=[5]), "draw")
    # Seat 0 holds nines: greedy shows at once and wins.
    assert ai.playout(GAME)(won, 0, random.Random(1)) == 1.0


# -- render ------------------------------------------------------------------------------------


@pytest.mark.parametrize("locale", ["en", "zh-TW"])
def test_the_words_of_a_game(locale: str) -> None:
    render, engine = render_of(GAME), engine_of(GAME)
    state = _state([[7, 7, 2], [9, 3, 1]], stock=[5])
    seats = [SeatLabel("Ann"), SeatLabel("Bo", is_ai=True)]
    names = ["Ann", "Bo"]
    rules = state.rules
    assert render.rules_summary(rules, locale) == "High Pair · 2 players · hand of 3"
    assert "Ante: 10 chips" in render.rules_text(rules, locale, ante=10, turn_seconds=60)
    seen = engine.view(state, 0)
    assert render.turn(seen, seats, None, locale) == "Turn 1: **Ann** to draw."
    assert "<t:10000000000:R>" in render.turn(seen, seats, 1e10, locale)
    assert render.prompt(seen, engine.legal_actions(state), locale) == "Draw a card."
    state, events = _play(state, "draw")
    drew = events[0]
    assert render.public_event(drew, names, locale) == "Ann drew a card."
    assert render.private_event(drew, 0, names, locale) == "You drew 5."
    assert render.private_event(drew, 1, names, locale) is None
    assert render.replay_event(drew, names, rules, locale) == "Ann drew 5."
    legal = engine.legal_actions(state)
    assert [render.action_label(a, locale) for a in legal] == [
        "Discard 2", "Discard 5", "Discard 7", "Show",
    ]  # fmt: skip
    assert (
        render.prompt(engine.view(state, 0), legal, locale) == "Discard a card, or show your pair."
    )
    assert render.prompt(engine.view(state, 1), [], locale) == "Wait for your turn."
    sheet = render.table_sheet(engine.view(state, None), seats, locale)
    assert sheet.lines == ("▶ Ann: 4 cards", "Bo: 3 cards")
    if locale == "en":  # "You may", ", or " are the bot's words: its catalogue words them
        assert render.moves(engine.view(state, 0), legal, locale) == (
            "**It is your turn.** You may **discard** one of 2, 5, 7, or **show** your pair."
        )
    assert render.moves(engine.view(state, 0), legal, "en", opener=False).startswith("You may")
    assert render.their_move(drew, 1, names, locale) == "drew a card"
    assert all(render.claims(x) for x in (drew, *legal)) and not render.claims("draw")
    # "Stock", "Discards" and "none" are the bot's words too: its catalogue words them.
    assert [(f.name, f.value) for f in sheet.fields] == [
        (t(locale, "Stock"), "29 cards"),
        (t(locale, "Discards"), t(locale, "none")),
    ]
    over, events = _play(state, "show")
    assert render.public_event(events[0], names, locale) == "Ann shows 2 5 7 7."
    assert render.public_event(events[1], names, locale) is None
    assert render.result(over.result, seats, locale) == "🏆 Ann won with a pair of 7."
    assert render.replay_event(events[1], names, rules, locale) == "🏆 Ann won with a pair of 7."
    assert render.end_lines(over.result, rules, seats, locale) == [
        "Ann: best pair 7.", f"Bo: best pair {t(locale, 'none')}.",
    ]  # fmt: skip
    assert render.turn(engine.view(over, 0), seats, None, locale) == render.result(
        over.result, seats, locale
    )
    replay = render.replay_sheet(
        engine.view(over, None), [engine.view(over, s) for s in (0, 1)], names, locale
    )
    assert [(f.name, f.value) for f in replay.fields[:2]] == [("Ann", "2 5 7 7"), ("Bo", "1 3 9")]
    assert [f.value for f in render.hand_fields(seen, "https://link", locale)] == ["https://link"]


def test_a_hand_picture_but_no_table_picture() -> None:
    from PIL import Image

    render, engine = render_of(GAME), engine_of(GAME)
    state, _ = _play(_state([[7, 7, 2], [9, 3, 1]], stock=[5]), "draw")
    seen, legal = engine.view(state, 0), engine.legal_actions(state)
    picture = render.hand(seen, legal, "en")
    assert picture is not None and picture.filename == "hand.png"
    assert picture.alt == "Your cards: 2 5 7 7"
    assert Image.open(io.BytesIO(picture.png)).size == (8 + 4 * 44, 68)
    assert render.hand(engine.view(state, None), [], "en") is None
    assert render.table(seen, [], "en") is None
    assert render.end(None, state.rules, [], "en") is None
    assert render.position(seen, legal, "en") == picture
    assert render.replay(seen, 1, "en") is None
    later, _ = _play(state, "discard 5")
    assert render.hand_key(seen, legal) != render.hand_key(engine.view(later, 0), [])
    assert render.hand_key(seen, legal) == render.hand_key(engine.view(state, 0), legal)


def test_buttons_verbs_and_choices() -> None:
    render, engine = render_of(GAME), engine_of(GAME)
    assert render.where == "hand"
    state = _state([[7, 7, 2], [9, 3, 1]], stock=[5])
    seen = engine.view(state, 0)
    assert render.buttons(seen, [Draw()], "en") == [ButtonSpec("draw", "", "Draw", "primary", 0)]
    state, _ = _play(state, "draw")
    seen, legal = engine.view(state, 0), engine.legal_actions(state)
    specs = render.buttons(seen, legal, "en")
    assert [(s.verb, s.arg) for s in specs if isinstance(s, ButtonSpec)] == [
        ("discard", "2"), ("discard", "5"), ("discard", "7"), ("play", "show"),
    ]  # fmt: skip
    assert render.verb("draw", {}, seen, legal) == "draw"
    assert render.verb("discard", {"tile": "7", "side": None}, seen, legal) == "discard 7"
    assert render.verb("declare", {}, seen, legal) == "show"
    for verb, options, words in (
        ("take", {"tile": None}, "nothing to take"),
        ("discard", {"tile": None}, "Name the card"),
        ("discard", {"tile": "6-6"}, "not a card"),
        ("discard", {"tile": "7", "side": "left"}, "no sides"),
    ):
        with pytest.raises(VerbRefusal, match=words) as refused:
            render.verb(verb, options, seen, legal)
        assert refused.value.message.localized("zh-TW")
    assert [(c.label, c.value) for c in render.choices("discard", "tile", seen, legal, "en")] == [
        ("Discard 2", "2"), ("Discard 5", "5"), ("Discard 7", "7"),
    ]  # fmt: skip
    assert render.choices("take", "tile", seen, legal, "en") == []


# -- the terminal hooks ------------------------------------------------------------------------


class _Console:
    """The terminal client's side of the hooks, printing into a buffer."""

    def __init__(self) -> None:
        self.locale = "en"
        self.names = ["You", "Bot"]
        self.human = 0
        self.out = io.StringIO()
        self.headers: list[tuple[int, int]] = []

    def lt(self, msgid: str, **values: Any) -> str:
        return msgid.format(**values)

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")

    def legal_line(self, legal: Sequence[Any]) -> None:
        self.say("Legal: " + ", ".join(str(a) for a in legal))

    def turn_header(self, seat: int, turn: int) -> None:
        self.headers.append((seat, turn))


def test_the_terminal_hooks() -> None:
    terminal, engine = terminal_of(GAME), engine_of(GAME)
    assert terminal is not None
    assert terminal.setup(GAME, lambda q, d, c: d) == {}
    state = _state([[7, 7, 2], [9, 3, 1]], stock=[5, 6])
    console = _Console()
    hooks = terminal.hooks(console, state, 0)  # type: ignore[arg-type]
    hooks.announce("greedy", 3)
    seen = engine.view(state, 0)
    assert hooks.interpret("d", seen, [Draw()]) == Draw()
    assert hooks.interpret("7", seen, []) == Discard(7)
    assert hooks.interpret("s", seen, []) == Show()
    assert hooks.interpret("discard 2", seen, []) == Discard(2)
    with pytest.raises(NotationError, match="type d, a card"):
        hooks.interpret("take 6-6", seen, [])
    after, events = _play(state, "draw", "discard 5")
    hooks.narrate(events)
    hooks.status(engine.view(after, 0), [])
    over, events = _play(after, "draw", "discard 9")
    hooks.narrate(events)
    assert console.headers == [(1, 2), (0, 3)]
    over, events = _play(over, "draw", "show")
    hooks.narrate(events)
    hooks.game_over(engine.view(over, 0))
    assert "d draws" in hooks.help()
    lines = console.out.getvalue().splitlines()
    assert lines[:4] == [
        "High Pair: hand of 3.",
        "Computer level: greedy.",
        "Seed: 3.",
        "You plays first.",
    ]
    assert "You drew 5." in lines and "Bot drew a card." in lines
    assert "Your hand: 2 7 7" in lines and "Discards: 5 · stock: 29 cards" in lines
    assert lines[-1] == "You won with a pair of 7."


# -- property: random games ----------------------------------------------------------------------


# The registry is the fixture's for the whole test: every example plays under it.
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 2**32 - 1), hand=st.sampled_from([3, 4]))
def test_random_games_end_conserve_the_cards_and_hide_the_other_hand(seed: int, hand: int) -> None:
    engine = engine_of(GAME)
    rules: ToyRules = engine.make_rules(GAME, hand=hand)
    rng = random.Random(seed)
    state = engine.new_game(rules, ["a", "b"], engine.deal(rules, rng))
    for _ in range(2 * CARDS):
        pieces = [p for h in state.hands for p in h] + [*state.stock, *state.discards]
        assert sorted(pieces) == list(range(CARDS))
        if state.result is not None:
            break
        for seat in (0, 1):
            seen = engine.view(state, seat)
            assert seen.hand == tuple(sorted(card(p) for p in state.hands[seat]))
            # Whatever the other hand and the stock hold, the seat sees the same.
            order = engine.unseen(state, seat)
            rng.shuffle(order)
            assert engine.view(engine.rebuild(state, seat, order), seat) == seen
        assert engine.view(state, None).hand == ()
        legal = engine.legal_actions(state)
        state, _ = engine.apply(state, legal[rng.randrange(len(legal))])
    assert state.result is not None, "the game did not end"
    assert state.turn <= CARDS - 2 * hand + 1
    assert engine.legal_actions(state) == []
