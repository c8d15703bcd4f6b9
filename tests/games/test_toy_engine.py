"""High Pair through the engine's generic code: the four functions, notation, records written,
read back and replayed, determinization and ``kapshap replay`` — none of which names the toy."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.engine import apply, describe_event, legal_actions, new_game, parse_action, view
from bot.engine.family import engine_of
from bot.engine.hidden import determinize
from bot.engine.record import (
    GameRecord,
    RecordError,
    RecordSeat,
    parse_record,
    replay,
    write_record,
)
from bot.games import register, registered, unregister
from bot.records_cli import main_replay
from tests.games.toy import TOY
from tests.games.toy.engine import ToyState, card, deal_from_cards

GAME = "high-pair"


@pytest.fixture(autouse=True)
def toy() -> Iterator[None]:
    with registered(TOY):
        yield


def _game(seed: int, hand: int = 3) -> tuple[Any, list[tuple[Any, Any, Any, list[Any]]]]:
    """A random game played through the generic functions: its rules and its steps."""
    engine = engine_of(GAME)
    rules = engine.make_rules(GAME, hand=hand)
    rng = random.Random(seed)
    state = new_game(rules, ["Ann", "Bot"], engine.deal(rules, rng))
    steps = []
    while state.result is None:
        legal = legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        after, events = apply(state, action)
        steps.append((state, action, after, list(events)))
        state = after
    return rules, steps


@pytest.mark.parametrize("seed", range(4))
def test_the_four_functions_play_the_toy_as_its_family(seed: int) -> None:
    engine = engine_of(GAME)
    _, steps = _game(seed, hand=3 + seed % 2)
    names = ["Ann", "Bot"]
    for state, action, after, events in steps:
        assert legal_actions(state) == engine.legal_actions(state)
        assert apply(state, action) == engine.apply(state, action) == (after, events)
        for seat in (None, 0, 1):
            assert view(state, seat) == engine.view(state, seat)
            for event in events:
                assert describe_event(event, seat, names) == engine.describe_event(
                    event, seat, names
                )
        assert parse_action(str(action), GAME) == action
    assert steps[-1][2].result is not None
    assert legal_actions(steps[-1][2]) == []


def _record(rules: Any, steps: list[tuple[Any, Any, Any, list[Any]]]) -> GameRecord:
    first = steps[0][0]
    return GameRecord(
        rules=rules,
        seats=(RecordSeat("Ann", "member", "42"), RecordSeat("Bot", "ai", "greedy")),
        deal=first.deal,
        actions=tuple(str(action) for _, action, _, _ in steps),
        tags={"Id": "7"},
    )


def test_a_record_is_written_read_back_and_replayed() -> None:
    engine = engine_of(GAME)
    rules, steps = _game(5, hand=4)
    final: ToyState = steps[-1][2]
    record = _record(rules, steps)
    text = write_record(record)
    lines = text.splitlines()
    assert lines[:3] == ["Kapshap record 1", "Game: high-pair", "Id: 7"]
    assert f"Result: {engine.result_line(final)}" in lines
    assert "Rule hand: 4" in lines
    assert f"Deal: {engine.deal_text(rules, record.deal)}" in lines
    assert all(line in lines for line in engine.deal_comment(rules, record.deal))
    assert f"1. seat {record.deal.first_seat}: draw  ; {record.names[record.deal.first_seat]}" in (
        lines
    )
    read = parse_record(text)
    assert read.rules == rules and read.actions == record.actions and read.seats == record.seats
    assert [card(p) for p in read.deal.order] == [card(p) for p in record.deal.order]
    replayed = list(replay(read))
    assert [str(step.action) for step in replayed] == list(record.actions)
    end = replayed[-1].state
    assert end.result == final.result
    for seat in (0, 1):
        assert view(end, seat).hand == view(final, seat).hand
    assert write_record(read) == text


def test_a_record_of_a_game_no_family_plays_is_refused_by_name() -> None:
    rules, steps = _game(1)
    text = write_record(_record(rules, steps))
    unregister("toy")  # the fixture's registration, given back below
    try:
        with pytest.raises(RecordError, match="high-pair"):
            parse_record(text)
    finally:
        register(TOY)


def test_determinize_keeps_what_the_seat_saw() -> None:
    engine = engine_of(GAME)
    rules = engine.make_rules(GAME)
    deal = deal_from_cards(rules, [[9, 9, 1], [2, 3, 4]], stock=[5, 6, 7])
    state = new_game(rules, ["Ann", "Bot"], deal)
    for notation in ("draw", "discard 5", "draw"):
        state, _ = apply(state, parse_action(notation, GAME))
    rng = random.Random(4)
    others = set()
    for _ in range(30):
        world = determinize(state, 0, rng)
        assert view(world, 0) == view(state, 0)
        others.add(world.hands[1])
    assert len(others) > 1  # the other hand is dealt again, not kept


def test_kapshap_replay_prints_the_whole_game(tmp_path: Path) -> None:
    rules = engine_of(GAME).make_rules(GAME)
    # Ann draws 5 and throws it, Bot draws 4 and throws it, Ann draws 8 and shows her sevens.
    deal = deal_from_cards(rules, [[7, 7, 2], [9, 3, 1]], stock=[5, 4, 8])
    record = GameRecord(
        rules=rules,
        seats=(RecordSeat("Ann"), RecordSeat("Bot", "ai", "greedy")),
        deal=deal,
        actions=("draw", "discard 5", "draw", "discard 4", "draw", "show"),
    )
    path = tmp_path / "game.txt"
    path.write_text(write_record(record), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert main_replay([str(path), "--all"], out=out, err=err) == 0, err.getvalue()
    text = out.getvalue()
    assert text.startswith("High Pair, 2 players, hand of 3; Ann plays first.")
    movers = ["Ann", "Ann", "Bot", "Bot", "Ann", "Ann"]
    for number, (name, action) in enumerate(zip(movers, record.actions, strict=True), 1):
        assert f"{number}. {name}: {action}" in text
    assert "Ann drew 5" in text and "Ann discarded 5" in text and "Bot discarded 4" in text
    assert "Ann shows 2 7 7 8" in text
    assert text.rstrip().endswith("Result: seat 0 wins (show)")
