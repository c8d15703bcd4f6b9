"""Tsung Shap computer players: legal play at every level, the greedy rules, and the fast capture
tables checked against the engine."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from bot.engine import (
    RuleSet,
    apply,
    legal_actions,
    make_deal,
    make_rules,
    new_game,
    parse_tiles,
    view,
)
from bot.engine.tiles import KINDS, kind_of_piece
from bot.games.dominoes.engine.actions import Draw
from bot.games.fishing.ai.levels import FISHING_LEVELS, fishing_player
from bot.games.fishing.ai.players import (
    ExpertFishingPlayer,
    GreedyFishingPlayer,
    _drop,
    _Endgame,
    _how,
    _placed,
    _tables,
)
from bot.games.fishing.engine import (
    FishingState,
    FishingView,
    capture_options,
    deal_from_piles,
    row_captures,
)
from bot.games.fishing.engine.actions import Capture, Claim, End, FishingAction, Place

VARIANTS = [
    make_rules("tsung-shap"),
    make_rules("tsung-shap", four_two_value="3", sweep_adds_pips=True),
    make_rules("tsung-shap", four_two_value="wild", triplet_both_ends_only=True),
    make_rules("tsung-shap", second_may_capture_opening=True, play_until_both_piles_empty=True),
    make_rules("tsung-shap", auto_capture=True),
]


def play_game(
    rules: RuleSet, levels: tuple[str, str], seed: int
) -> tuple[FishingState, list[FishingAction]]:
    rng = random.Random(seed)
    players = [fishing_player(level) for level in levels]
    state = new_game(rules, ["A", "B"], make_deal(rules, rng))
    actions: list[FishingAction] = []
    while state.result is None:
        seat = state.current
        legal = legal_actions(state)
        action = players[seat].choose(view(state, seat), legal, rng)
        assert action in legal, f"{levels[seat]} chose {action}, not in {legal}"
        state, _ = apply(state, action)
        actions.append(action)
    return state, actions


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.describe())
@pytest.mark.parametrize(
    "levels", [("random", "greedy"), ("greedy", "expert"), ("expert", "random")]
)
def test_every_level_plays_legal_actions_to_the_end(
    rules: RuleSet, levels: tuple[str, str]
) -> None:
    for seed in range(3):
        state, _ = play_game(rules, levels, seed)
        assert state.result is not None


def test_levels_and_unknown_level() -> None:
    assert set(FISHING_LEVELS) == {
        "random", "greedy", "novice", "beginner", "casual", "club", "strong", "expert", "master"
    }  # fmt: skip
    for level in FISHING_LEVELS:
        assert fishing_player(level).level == level
    with pytest.raises(ValueError, match="random, greedy, novice, beginner, casual, club, strong"):
        fishing_player("genius")


def test_greedy_and_expert_beat_random() -> None:
    rules = make_rules("tsung-shap")
    for level in ("greedy", "expert"):
        wins = 0
        for seed in range(30):
            seat = seed % 2
            levels = (level, "random") if seat == 0 else ("random", level)
            state, _ = play_game(rules, levels, seed)
            assert state.result is not None
            wins += state.result.winner == seat
        assert wins >= 22, f"{level} won only {wins} of 30 against random"


# ---------------------------------------------------------------------------------------------
# The fast tables agree with the engine


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.describe())
def test_fast_capture_tables_match_the_engine(rules: RuleSet) -> None:
    tables = _tables(rules)
    rng = random.Random(5)
    pieces = [k for k in range(len(KINDS)) for _ in range(KINDS[k].copies_per_set)]
    for _ in range(3000):
        sample = rng.sample(pieces, rng.randint(1, 8))
        kind, row = sample[0], tuple(sample[1:])
        engine = row_captures(rules, row, kind)
        fast = tables.moves(row, kind)
        assert tables.best(row, kind) == max((o.score for o in engine), default=0)
        expected = Counter(
            (o.score, tuple(k for i, k in enumerate(row) if i not in o.indices), o.sweep)
            for o in engine
        )
        assert Counter((score, _drop(row, how), sweep) for score, how, sweep in fast) == expected


# ---------------------------------------------------------------------------------------------
# Greedy, checked with the engine's own capture list


def exposure(rules: RuleSet, seen: FishingView, row: list) -> float:
    """The opponent's expected best capture next turn, by brute force over the unseen tiles."""
    unseen = seen.unseen
    total = 0.0
    for tile in unseen:
        total += max((c.score for c in capture_options(rules, row, tile)), default=0)
    return total / len(unseen)


def test_greedy_places_where_the_opponent_expects_least_and_captures_the_most() -> None:
    rules = make_rules("tsung-shap")
    player = GreedyFishingPlayer()
    checked_places = checked_captures = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = new_game(rules, ["A", "B"], make_deal(rules, rng))
        while state.result is None:
            seat = state.current
            seen = view(state, seat)
            legal = legal_actions(state)
            action = player.choose(seen, legal, rng)
            if seen.turned is not None and seen.phase.value == "play":
                if seen.options:
                    assert isinstance(action, Capture)
                    best = max(c.score for c in seen.options)
                    assert {c.capture: c.score for c in seen.options}[action] == best
                    checked_captures += 1
                else:
                    assert isinstance(action, Place)
                    costs = {
                        end: exposure(
                            rules,
                            seen,
                            [seen.turned, *seen.row]
                            if end is End.LEFT
                            else [*seen.row, seen.turned],
                        )
                        for end in (End.LEFT, End.RIGHT)
                    }
                    assert costs[action.end] <= min(costs.values()) + 1e-9
                    checked_places += 1
            state, _ = apply(state, action)
    assert checked_places > 200 and checked_captures > 50


def test_greedy_and_expert_claim_the_best_missed_capture() -> None:
    rules = make_rules("tsung-shap")
    # Row 6-6 1-1 5-5; B turns over 4-4 (triplet right 20, ends 30) and places it.
    deal = deal_from_piles(rules, parse_tiles("6-6 5-5 2-2"), parse_tiles("1-1 4-4"))
    state = new_game(rules, ["A", "B"], deal)
    for action in (Draw(), Draw(), Draw(), Place(End.RIGHT), Draw(), Place(End.LEFT)):
        state, _ = apply(state, action)
    legal = legal_actions(state)
    assert any(isinstance(a, Claim) for a in legal)
    for player in (GreedyFishingPlayer(), ExpertFishingPlayer()):
        choice = player.choose(view(state, 0), legal, random.Random(1))
        assert str(choice) == "claim triplet ends"


def test_expert_takes_the_bigger_capture_when_nothing_follows() -> None:
    # On its last tile (the game ends after this turn) the expert simply scores the most.
    rules = make_rules("tsung-shap")
    player = ExpertFishingPlayer()
    for seed in range(40):
        rng = random.Random(seed)
        state = new_game(rules, ["A", "B"], make_deal(rules, rng))
        while state.result is None:
            seat = state.current
            seen = view(state, seat)
            legal = legal_actions(state)
            action = player.choose(seen, legal, rng)
            if seen.pile_sizes[seat] == 0 and seen.options:
                assert isinstance(action, Capture)
                scores = {c.capture: c.score for c in seen.options}
                assert scores[action] == max(scores.values())
            state, _ = apply(state, action)


# ---------------------------------------------------------------------------------------------
# The expert's exact endgame search, checked against the engine


def _outcome(state: FishingState, me: int) -> float:
    assert state.result is not None
    winner = state.result.winner
    return 0.5 if winner is None else float(winner == me)


def _with_next(state: FishingState, seat: int, kind: int) -> FishingState:
    """The same position with the unseen tiles dealt again so that ``seat`` turns over a tile
    of ``kind`` next (every unseen tile is equally likely to be next, so this is fair)."""
    unseen = [*state.piles[0], *state.piles[1]]
    first = next(p for p in unseen if kind_of_piece(p).index == kind)
    rest = [p for p in unseen if p != first]
    size = len(state.piles[seat])
    piles = [(), ()]
    piles[seat] = (first, *rest[: size - 1])
    piles[1 - seat] = tuple(rest[size - 1 :])
    return replace(state, piles=(piles[0], piles[1]))


def _oracle(state: FishingState, me: int) -> float:
    """My chance of winning with best play on both sides, through the engine itself."""
    if state.result is not None:
        return _outcome(state, me)
    seat = state.current
    if state.turned is None:
        kinds = Counter(kind_of(p) for p in (*state.piles[0], *state.piles[1]))
        total = sum(kinds.values())
        value = 0.0
        for kind, count in kinds.items():
            after, _ = apply(_with_next(state, seat, kind), Draw())
            value += count / total * _oracle(after, me)
        return value
    values = [_after_action(state, action, me) for action in _choices(state)]
    return max(values) if seat == me else min(values)


def kind_of(piece: int) -> int:
    return kind_of_piece(piece).index


def _choices(state: FishingState) -> list[FishingAction]:
    legal = legal_actions(state)
    captures = [a for a in legal if isinstance(a, Capture)]
    return captures or [a for a in legal if isinstance(a, Place)]


def _after_action(state: FishingState, action: FishingAction, me: int) -> float:
    seat = state.current
    seen = view(state, seat)
    sweep = isinstance(action, Capture) and any(
        c.sweep for c in seen.options if c.capture == action
    )
    if sweep and state.piles[seat]:
        pile = Counter(kind_of(p) for p in (*state.piles[0], *state.piles[1]))
        total = sum(pile.values())
        return sum(
            count / total * _oracle(apply(_with_next(state, seat, kind), action)[0], me)
            for kind, count in pile.items()
        )
    return _oracle(apply(state, action)[0], me)


@pytest.mark.parametrize(
    "rules",
    [
        make_rules("tsung-shap"),
        make_rules("tsung-shap", play_until_both_piles_empty=True, sweep_adds_pips=True),
        make_rules("tsung-shap", auto_capture=True, four_two_value="wild"),
    ],
    ids=lambda r: r.describe(),
)
def test_exact_endgame_matches_an_engine_search(rules: RuleSet) -> None:
    checked = 0
    for seed in range(12):
        rng = random.Random(seed)
        player = ExpertFishingPlayer()
        state = new_game(rules, ["A", "B"], make_deal(rules, rng))
        while state.result is None:
            seat = state.current
            seen = view(state, seat)
            if seen.turned is not None and len(seen.unseen) <= 4:
                exact = _Endgame(seen)
                row = tuple(t.index for t in seen.row)
                combos = {c.capture: c for c in seen.options}
                for action in _choices(state):
                    if isinstance(action, Capture):
                        combo = combos[action]
                        after = _drop(row, _how(action.kind, action.end))
                        mine = exact.after_capture(after, combo.score, combo.sweep)
                    else:
                        assert isinstance(action, Place)
                        mine = exact.after_place(_placed(row, seen.turned.index, action.end))
                    assert mine == pytest.approx(_after_action(state, action, seat))
                    checked += 1
            state, _ = apply(state, player.choose(seen, legal_actions(state), rng))
    assert checked >= 20
