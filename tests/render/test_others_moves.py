"""The hand DM's "since your last turn": what the other seats did, in one or two lines, and
nothing a player could not see at the table.

The property: over whole random games of every collecting rule set and of Tsung Shap, for
every player and every stretch between two of his moves, the text is the same whatever tiles
the others drew from the wall (it is a function of public information only), and it names no
tile that is hidden in another player's hand at that moment unless that tile was face up.
"""

from __future__ import annotations

import dataclasses
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import Game, Tile, apply, legal_actions, make_deal, make_rules, new_game
from bot.engine.family import Event
from bot.games.collecting.engine.machine import Discarded, Drew, Took, hand_tiles
from bot.render.text import others_moves_text

NAMES = ("alice", "bob", "carol", "dave")
TILE = re.compile(r"`([1-6])-([1-6])`")


def _mentioned(text: str | None) -> set[Tile]:
    return {Tile(int(a), int(b)) for a, b in TILE.findall(text or "")}


def _disguised(moves: list[tuple[int, Event]]) -> list[tuple[int, Event]]:
    """The same moves with every tile drawn from the wall replaced by another one."""
    other = Tile(2, 1)
    return [
        (seat, dataclasses.replace(e, tile=other if e.tile != other else Tile(4, 2)))
        if isinstance(e, Drew)
        else (seat, e)
        for seat, e in moves
    ]


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    game=st.sampled_from(["kap-shap", "kap-tai-shap"]),
    rule_set=st.sampled_from(["culin", "classic", "last-draw"]),
    players=st.integers(2, 4),
)
def test_what_the_others_did_tells_nothing_hidden(
    seed: int, game: str, rule_set: str, players: int
) -> None:
    if game == "kap-shap":
        players = 2
    rng = random.Random(seed)
    rules = make_rules(game, players, rule_set)
    names = NAMES[:players]
    state = new_game(rules, names, make_deal(rules, rng))
    since: dict[int, list[tuple[int, Event]]] = {seat: [] for seat in range(players)}
    face_up: set[Tile] = set()
    checked = 0
    movers: set[int] = set()
    while state.result is None:
        seat = state.current
        # What the player to move reads now: nothing hidden, and the same whatever was drawn.
        text = others_moves_text(since[seat], names, seat)
        assert text == others_moves_text(_disguised(since[seat]), names, seat)
        hidden = {t for other in range(players) if other != seat for t in hand_tiles(state, other)}
        assert not (_mentioned(text) & (hidden - face_up)), text
        checked += text is not None
        action = rng.choice(legal_actions(state))
        state, events = apply(state, action)
        movers.add(seat)
        for event in events:
            if isinstance(event, Discarded | Took):
                face_up.add(event.tile)
        since[seat] = []
        for other in range(players):
            if other != seat:
                since[other] += [(seat, e) for e in events]
    # Only a game won before a second seat moved leaves nobody a line to read.
    assert checked or len(movers) == 1


def test_one_line_per_stretch_in_play_order() -> None:
    moves: list[tuple[int, Event]] = [
        (1, Took(1, Tile(6, 5), 0)),
        (1, Discarded(1, Tile(3, 1))),
        (2, Drew(2, Tile(6, 6), 10)),
        (2, Discarded(2, Tile(4, 4))),
        (2, Took(2, Tile(4, 4), 2)),
    ]
    text = others_moves_text(moves, NAMES, 0)
    assert text == (
        "**bob**: took your `6-5`, discarded `3-1`; "
        "**carol**: drew a tile, discarded `4-4`, took back `4-4`"
    )
    assert "6-6" not in (text or "")
    assert others_moves_text(moves[:2], NAMES, 1) is None  # his own moves are not told
    many = [(s % 3 + 1, Discarded(s % 3 + 1, Tile(5, 5))) for s in range(9)]
    cut = others_moves_text(many, NAMES, 0, limit=3)
    assert cut is not None and cut.startswith("… ") and cut.count("discarded") == 3


@pytest.mark.parametrize("seed", range(5))
def test_tsung_shap_moves_name_the_tiles_laid_and_captured(seed: int) -> None:
    rng = random.Random(seed)
    rules = make_rules(Game.TSUNG_SHAP)
    state = new_game(rules, NAMES[:2], make_deal(rules, rng))
    first = state.current
    since: list[tuple[int, Event]] = []
    while state.result is None and state.current == first:
        state, events = apply(state, rng.choice(legal_actions(state)))
        since += [(first, e) for e in events]
    text = others_moves_text(since, NAMES, 1 - first)
    assert text is not None and text.startswith(f"**{NAMES[first]}**: ")
    assert "placed" in text or "started a new row" in text or "captured" in text
