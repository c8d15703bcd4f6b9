"""The built-in families' facets (issue 19 step 5): every member of each layer's Protocol is
there, and what the adapters already do is exactly what today's code does for the same game.
"""

from __future__ import annotations

import inspect
import random
from typing import Any

import pytest

from bot.ai.family import GameAI, ai_of
from bot.ai.levels import levels_for, player_for
from bot.ai.review import (
    ACTION_PHRASES,
    Words,
    action_phrase,
    compiled,
    default_estimator,
    default_playout,
    default_rollouts,
)
from bot.engine import (
    EngineError,
    apply,
    describe_event,
    legal_actions,
    make_deal,
    make_rules,
    new_game,
    parse_action,
    view,
)
from bot.engine.family import GameEngine, engine_of, rules_from_flags
from bot.engine.hidden import arrangement_count, determinize, unseen_pieces
from bot.engine.position import write_position
from bot.engine.record import result_line
from bot.engine.rules import RuleSet
from bot.engine.tiles import _NAMES, kind_of_piece
from bot.games import games
from bot.locale import t
from bot.render import text
from bot.render.family import GameRender, render_of
from bot.render.text import SeatLabel
from bot.services.absence import passive_action
from bot.services.ratings import ranks_of
from bot.services.review_text import position_lines
from bot.services.tables.play import _applied_notation, _parse_for
from bot.sim.family import GameSim, sim_of
from bot.sim.runner import SimConfig
from bot.terminal.family import GameTerminal, terminal_of

GAMES = [game.name for game in games()]
SHARED_NAMES = sorted(name for name, tiles in _NAMES.items() if len(tiles) > 1)


def _members(protocol: type) -> set[str]:
    return {name for name in dir(protocol) if not name.startswith("_")}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    ("protocol", "accessor"),
    [
        (GameEngine, engine_of),
        (GameAI, ai_of),
        (GameRender, render_of),
        (GameSim, sim_of),
        (GameTerminal, terminal_of),
    ],
)
def test_every_member_of_the_protocol_is_there(game: str, protocol: type, accessor: Any) -> None:
    facet = accessor(game)
    members = _members(protocol)
    assert members  # the Protocol has members to check
    missing = {name for name in members if not hasattr(type(facet), name)}
    assert not missing, f"{game}: {type(facet).__name__} lacks {sorted(missing)}"
    for name in members:
        attribute = inspect.getattr_static(type(facet), name)
        assert getattr(attribute, "__doc__", None), f"{type(facet).__name__}.{name}: no docstring"


def _outcome(function: Any, *args: Any) -> tuple[str, Any]:
    """What a call returns, or the type and words of what it raises."""
    try:
        return "returned", function(*args)
    except Exception as exc:
        return type(exc).__name__, str(exc)


def _rules(game: str, settlement: str = "pot") -> RuleSet:
    players = 4 if game == "kap-tai-shap" else 2
    return make_rules(game, players, **({"settlement": settlement} if settlement != "pot" else {}))


def _games(rules: RuleSet, seeds: range) -> list[list[tuple[Any, Any, Any, list[Any]]]]:
    """Random games through today's API: per game, (state, action, next state, events)."""
    played = []
    for seed in seeds:
        rng = random.Random(seed)
        state: Any = new_game(
            rules, [f"seat {i}" for i in range(rules.players)], make_deal(rules, rng)
        )
        steps = []
        while state.result is None:
            action = rng.choice(legal_actions(state))
            after, events = apply(state, action)
            steps.append((state, action, after, list(events)))
            state = after
        played.append(steps)
    return played


@pytest.mark.parametrize("game", GAMES)
def test_the_engine_facet_plays_as_the_engine(game: str) -> None:
    engine = engine_of(game)
    rules = _rules(game)
    assert engine.make_rules(game, rules.players) == rules
    assert engine.rules_from_flags(rules.flags()) == rules == rules_from_flags(rules.flags())
    assert engine.with_flag(rules, "rake_percent", "5").rake_percent == 5
    rng_a, rng_b = random.Random(7), random.Random(7)
    assert engine.deal(rules, rng_a, 1) == make_deal(rules, rng_b, 1)
    for steps in _games(rules, range(3)):
        first = steps[0][0]
        names = first.seats
        assert engine.new_game(rules, names, first.deal) == first
        deal = first.deal
        text_line = engine.deal_text(rules, deal)
        read = engine.read_deal(rules, text_line, deal.first_seat, deal.thrower, deal.dice)
        # A record keeps kinds, not pieces: each kind's copies come back in piece order.
        assert [kind_of_piece(p) for p in read.order] == [kind_of_piece(p) for p in deal.order]
        assert (read.first_seat, read.thrower, read.dice) == (
            deal.first_seat,
            deal.thrower,
            deal.dice,
        )
        assert engine.deal_text(rules, read) == text_line
        for state, action, after, events in steps:
            assert engine.legal_actions(state) == legal_actions(state)
            assert engine.apply(state, action) == (after, events)
            for seat in (None, *range(rules.players)):
                assert engine.view(state, seat) == view(state, seat)
                for event in events:
                    assert engine.describe_event(event, seat, names) == describe_event(
                        event, seat, names
                    )
            assert engine.parse_action(str(action)) == parse_action(str(action), game)
            assert engine.logged(state, after, action) == _applied_notation(state, after, action)
            for seat in range(rules.players):
                assert engine.unseen(state, seat) == unseen_pieces(state, seat)
                order = engine.unseen(state, seat)
                random.Random(seat).shuffle(order)
                rebuilt = engine.rebuild(state, seat, order)
                assert rebuilt == determinize(state, seat, random.Random(seat))
            assert engine.result_line(state) == result_line(state) == "unfinished"
            assert _outcome(engine.write_position, state) == _outcome(write_position, state)
        final = steps[-1][2]
        assert engine.result_line(final) == result_line(final)
        standing = engine.standing(final)
        assert standing.winner == final.result.winner
        if standing.ranks is not None:
            assert list(standing.ranks) == ranks_of(
                game, standing.winner, standing.scores, rules.players
            )
        else:
            assert final.result.winner is None and standing.scores is None
        assert engine.points_owed(final) == 0  # settled by the pot
    with pytest.raises(ValueError, match="not over"):
        engine.standing(first)


@pytest.mark.parametrize("game", GAMES)
def test_the_engine_facet_reads_what_the_table_service_reads(game: str) -> None:
    engine = engine_of(game)
    for steps in _games(_rules(game), range(2)):
        for state, *_ in steps[::3]:
            texts = [str(a) for a in legal_actions(state)]
            texts += [f"{verb} {name}" for verb in ("take", "discard") for name in SHARED_NAMES]
            texts += ["take nine please", "capture pair", "place middle"]
            for typed in texts:
                try:
                    expected = _parse_for(state, typed, state.rules.game)
                except Exception:  # the service words the engine's refusal
                    with pytest.raises(EngineError):
                        engine.resolve(state, typed)
                else:
                    assert engine.resolve(state, typed) == expected


def test_the_fishing_facet_settles_by_difference() -> None:
    engine = engine_of("tsung-shap")
    rules = _rules("tsung-shap", "difference")
    assert engine.settlements("tsung-shap") == ("pot", "difference")
    assert engine_of("kap-shap").settlements("kap-shap") == ("pot",)
    from bot.games.fishing.engine import difference_payment

    owed = []
    for steps in _games(rules, range(6)):
        final = steps[-1][2]
        owed.append(engine.points_owed(final))
        assert owed[-1] == difference_payment(rules, final.result)
        middle = steps[len(steps) // 2][0]
        scores = view(middle, None).scores
        for winner in (0, 1):
            assert engine.forfeit_points(middle, winner) == max(
                0, scores[winner] - scores[1 - winner]
            )
    assert any(owed)
    assert (
        engine_of("kap-shap").forfeit_points(_games(_rules("kap-shap"), range(1))[0][5][0], 0) == 0
    )


@pytest.mark.parametrize("game", GAMES)
def test_the_engine_facet_writes_and_reads_its_part_of_records(game: str) -> None:
    from bot.engine.position import parse_position
    from bot.engine.record import GameRecord, RecordSeat, parse_record, write_record

    engine = engine_of(game)
    rules = _rules(game)
    steps = _games(rules, range(1))[0]
    first = steps[0][0]
    record = GameRecord(
        rules,
        tuple(RecordSeat(name) for name in first.seats),
        first.deal,
        tuple(str(action) for _, action, _, _ in steps),
    )
    text = write_record(record)
    comment = engine.deal_comment(rules, first.deal)
    assert comment and all(line.startswith("; ") for line in comment)
    assert "\n".join(comment) in text
    assert (
        parse_record(text).deal.order
        == engine.read_deal(
            rules, engine.deal_text(rules, first.deal), first.deal.first_seat, 0, first.deal.dice
        ).order
    )
    for state, *_ in steps[:: max(1, len(steps) // 5)]:
        every = engine.position_lines(state, None)
        assert len(every) == rules.players + 1
        assert engine.position_lines(state, state.current) == [
            every[state.current],
            every[-1],
        ]
        assert every[state.current].startswith(" ▶ ")
        try:
            typed = engine.write_position(state)
        except EngineError:
            continue
        fields: dict[str, list[str]] = {}
        for line in typed.splitlines()[1:]:
            key, _, value = line.partition(" ")
            fields.setdefault(key, []).append(value)
        again, seat = engine.parse_position(game, fields)
        assert (again, seat) == parse_position(typed)
        assert view(again, seat) == view(parse_position(typed)[0], seat)


def test_the_rule_sets_of_each_family() -> None:
    assert engine_of("kap-shap").rule_sets("kap-shap") == ("culin", "classic", "last-draw")
    assert engine_of("tsung-shap").rule_sets("tsung-shap") == ("standard",)


def test_arrangements_near_the_end() -> None:
    engine = engine_of("tsung-shap")
    steps = _games(_rules("tsung-shap"), range(1))[0]
    late = next(state for state, *_ in steps if arrangement_count(state, 0) <= 24)
    assert engine.arrangement_count(late, 0) == arrangement_count(late, 0)
    assert len(list(engine.arrangements(late, 0))) == arrangement_count(late, 0)


@pytest.mark.parametrize("game", GAMES)
def test_the_ai_facet_is_todays_players(game: str) -> None:
    ai = ai_of(game)
    assert list(ai.levels(game)) == levels_for(game)
    for level in ai.levels(game):
        assert type(ai.player(game, level)) is type(player_for(game, level))
        assert ai.searching(level) == (level == "master")
    assert ai.playout(game) is default_playout(game)
    # The compiled estimator is a function of bot.ai.review; the engine's is made per call.
    assert ai.estimator(game).__qualname__ == default_estimator(game).__qualname__
    for notation in ("take 6-4", "discard 3-1", "place left", "capture pair left"):
        assert ai.action_words(notation) == action_phrase(notation)
    # Tsung Shap's draw turns one's tile over (as its reviews said before the facet).
    turn_over = ACTION_PHRASES["turn-over" if game == "tsung-shap" else "draw"]
    assert ai.action_words("draw") == Words(turn_over)
    with pytest.raises(ValueError, match="unknown"):
        ai.player(game, "genius")


@pytest.mark.parametrize("game", GAMES)
def test_the_ai_facet_plays_an_absent_seat_passively(game: str) -> None:
    """Through the facet, as bot.services.absence plays it: always legal; never a capture,
    a claim or a declaration, nor a take while a draw is possible."""
    ai = ai_of(game)
    for steps in _games(_rules(game), range(3)):
        for state, *_ in steps:
            action = ai.passive_action(state, state.current, random.Random(state.turn))
            assert action == passive_action(state, state.current, random.Random(state.turn))
            legal = legal_actions(state)
            assert action in legal
            verb = str(action).split()[0]
            assert verb not in ("capture", "claim", "declare")
            assert verb != "take" or all(str(a) != "draw" for a in legal)


@pytest.mark.parametrize("game", GAMES)
def test_the_ai_facet_serves_reviews(game: str) -> None:
    ai = ai_of(game)
    rules = _rules(game)
    assert ai.compiled(game) == compiled(game)
    assert default_rollouts(rules) == (
        ai.rollouts(rules) if ai.compiled(game) else max(100, ai.rollouts(rules) // 20)
    )
    big = make_rules(game, 10) if game == "kap-tai-shap" else rules
    assert ai.rollouts(big) <= ai.rollouts(rules)
    assert ai.words_context(game) == ("tsung shap" if game == "tsung-shap" else None)
    assert ai.warm_player(game, 16) is not None
    for state, *_ in _games(rules, range(1))[0]:
        legal = legal_actions(state)
        groups = ai.choices(state, state.current, legal)
        assert [a for group in groups for a in group] == sorted(
            legal, key=[a for group in groups for a in group].index
        )
        assert sorted(map(str, (a for group in groups for a in group))) == sorted(map(str, legal))
        assert all(ai.draws_unseen(a) == (str(a) == "draw") for a in legal)
        seen = view(state, state.current)
        lines = position_lines(seen, "en")
        assert lines == [words.text() for words in ai.position_words(seen)]
        assert lines[0].startswith("Row: " if game == "tsung-shap" else "Hand: ")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("locale", ["en", "zh-TW"])
def test_the_render_facet_words_as_todays_text(game: str, locale: str) -> None:
    render = render_of(game)
    rules = _rules(game)
    assert render.rules_summary(rules, locale) == text.rules_summary(rules, locale)
    assert render.rules_text(rules, locale, ante=10, turn_seconds=60) == text.rules_text(
        rules, ante=10, turn_seconds=60, locale=locale
    )
    seats = [SeatLabel(f"seat {i}", is_ai=i > 0) for i in range(rules.players)]
    for steps in _games(rules, range(1)):
        names = steps[0][0].seats
        for state, action, _, events in steps:
            seen = view(state, state.current)
            assert render.turn(seen, seats, None, locale) == text.turn_text(
                seen, seats, None, locale
            )
            assert render.action_label(action, locale) == text.action_label(action, locale)
            for event in events:
                assert render.public_event(event, names, locale) == text.public_event_text(
                    event, names, locale
                )
                assert render.private_event(event, 0, names, locale) == text.private_event_text(
                    event, 0, names, locale
                )
        result = steps[-1][2].result
        assert render.result(result, seats, locale) == text.result_text(result, seats, locale)
    assert render.where == ("table" if game == "tsung-shap" else "hand")


@pytest.mark.parametrize("game", GAMES)
def test_the_sim_facet_counts_in_todays_tallies(game: str) -> None:
    facet = sim_of(game)
    assert facet is not None
    rules = _rules(game)
    tally = facet.new_tally(SimConfig(rules, ("greedy",) * rules.players))
    assert tally.games == 0
    tally.merge(facet.new_tally(SimConfig(rules, ("random",) * rules.players)))
    assert tally.games == 0


@pytest.mark.parametrize("game", GAMES)
def test_a_family_answers_its_own_refusals(game: str) -> None:
    """The engine facet lists its refusals of a play as sentences, every one in the
    catalogues; a family lists its own, not another's (the services ask the table's game)."""
    refusals = engine_of(game).refusals
    assert refusals and all(r.strip() and r.endswith((".", "?", "!")) for r in refusals)
    assert len(set(refusals)) == len(refusals)
    for template in refusals:
        assert t("zh-TW", template) != template, template
    fishing = "Turn over your next tile first ('draw')."
    collecting = "You do not hold {tile}."
    own, other = (fishing, collecting) if game == "tsung-shap" else (collecting, fishing)
    assert own in refusals and other not in refusals


def test_the_rule_sets_games_are_the_registered_domino_games() -> None:
    from bot.engine.rules import Game

    domino = [info.name for info in games() if info.family in ("collecting", "fishing")]
    assert [game.value for game in Game] == domino


@pytest.mark.parametrize("game", GAMES)
def test_the_engine_facet_answers_what_a_rule_set_asks(game: str) -> None:
    from bot.engine.rules import DominoRules

    facet = engine_of(game)
    for name in _members(DominoRules):
        attribute = inspect.getattr_static(type(facet), name)
        assert getattr(attribute, "__doc__", None), f"{type(facet).__name__}.{name}: no docstring"


@pytest.mark.parametrize("game", GAMES)
def test_the_engine_facet_knows_what_a_host_may_choose(game: str) -> None:
    from bot.engine.family import TableOptions
    from bot.engine.variants import chosen_variants
    from bot.services.variants import VARIANTS

    engine = engine_of(game)
    assert [(v.flag, v.values, v.words) for v in engine.variants(game)] == [
        (v.flag, v.values, v.words) for v in VARIANTS.values() if game in v.games
    ]
    plain = _rules(game)
    assert engine.table_options(plain) == TableOptions(plain.rule_set_name, plain.sets, {})
    chosen = engine.with_flag(plain, "rake_percent", "5")
    assert engine.table_options(chosen) == TableOptions(
        plain.rule_set_name, plain.sets, chosen_variants(chosen)
    )
    assert engine.table_options(chosen).variants == {"rake_percent": "5"}
