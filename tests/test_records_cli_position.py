"""``kapshap analyse`` with a position in notation (``bot.engine.position``)."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from bot.engine import Tile, legal_actions, view
from bot.engine.hidden import determinize, unseen_pieces
from bot.engine.position import PositionError, parse_position, write_position
from bot.engine.record import replay
from bot.games.collecting.engine.hidden import known_kinds
from bot.games.collecting.engine.machine import GameState
from bot.games.fishing.engine import FishingState
from bot.records_cli import main_analyse
from tests.engine.test_record import PRESETS, random_game

WINNING = "6-6 6-6 3-3 5-5 3-2 4-1 6-4 3-1"  # an eye (3-2 4-1) and ten-pairs
CAPTURED_12 = "6-6 6-6 1-1 1-1 4-4 4-4 3-1 3-3 3-3 2-2 2-2 6-5"


def analyse(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main_analyse(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def rows(text: str) -> dict[str, str]:
    """``action -> chance, loss and verdict`` from the analysis lines."""
    out: dict[str, str] = {}
    for line in text.splitlines():
        if line.startswith("  ") and " %" in line:
            action, _, estimate = line.strip().partition("  ")
            out[action.strip()] = " ".join(estimate.split())
    return out


def test_a_declared_win_is_certain() -> None:
    code, out, err = analyse("-p", f"kap-shap; hand {WINNING}; last draw", "--rollouts", "100")
    assert code == 0, err
    assert "Seat 0 to play" in out and "Hand: " in out and "wall: 17 tiles" in out
    # Declaring wins for sure: an exact chance, no "± 0 %".
    assert rows(out)["declare"] == "100 % best move (the expert's choice)"
    assert len(rows(out)) == len(set(WINNING.split())) + 1  # every legal action listed
    assert "± 0 %" not in out


def test_tsung_shap_last_turn_is_known_exactly() -> None:
    """Seat 0 plays the last tile of his pile: the game ends after it. Capturing the pair puts
    him ahead (won for sure); placing leaves him behind (lost for sure)."""
    position = (
        "tsung-shap\n# the last turn\nrow 6-4 5-5 3-1\nturned 6-4\nscores 0 5\npiles 0 16\n"
        f"captured 1: {CAPTURED_12}"
    )
    code, out, err = analyse("--position", position, "--rollouts", "10")
    assert code == 0, err
    found = rows(out)
    assert found["capture pair left"] == "100 % best move (the expert's choice)"
    assert found["place left"] == "0 % −100 blunder"
    assert found["place right"] == "0 % −100 blunder"
    assert "scores 0 – 5" in out and "Turned over: 6-4" in out


def test_a_position_file_and_kap_tai_shap(tmp_path: Path) -> None:
    path = tmp_path / "position.txt"
    path.write_text(
        "kap-tai-shap; players 3; seat 1\nhand 6-6 6-6 1-1 1-1 4-4 4-4 3-1 3-1 2-2\n"
        "discards 6-5@0 5-5; known 2: 6-1 6-1\n",
        encoding="utf-8",
    )
    code, out, err = analyse(str(path), "--rollouts", "30")
    assert code == 0, err
    assert "Seat 1 to play" in out
    assert {"take 6-5", "take 5-5", "draw"} <= set(rows(out))


def test_what_the_seat_cannot_see_is_dealt_again_and_known_tiles_stay() -> None:
    state, seat = parse_position(
        "kap-shap; hand 6-6 6-6 1-1 4-4 3-3 6-5 5-5; discards 5-2 2-2 6-4; known 1: 6-1; wall 15"
    )
    assert isinstance(state, GameState) and seat == 0
    assert known_kinds(state)[1][Tile(6, 1).index] == 1
    seen = view(state, 0)
    assert [str(p.tile) for p in seen.pool] == ["5-2", "2-2", "6-4"]
    assert {str(a) for a in legal_actions(state)} == {"take 5-2", "take 2-2", "take 6-4", "draw"}
    rng = random.Random(3)
    hands = set()
    for _ in range(20):
        world = determinize(state, 0, rng)
        assert isinstance(world, GameState)
        assert Tile(6, 1).index in {piece_kind(p) for p in world.hands[1]}
        assert world.hands[0] == state.hands[0] and world.wall_size == 15
        hands.add(tuple(sorted(world.hands[1])))
    assert len(hands) > 1  # the unseen tiles really are dealt at random


def piece_kind(piece: int) -> int:
    from bot.engine.tiles import PIECE_KINDS, PIECES_PER_SET

    return PIECE_KINDS[piece % PIECES_PER_SET]


def test_a_take_just_made_and_dead_discards() -> None:
    state, _ = parse_position(
        "kap-shap; rules classic; hand 6-6 6-6 1-1 4-4 3-3 6-5 5-5 5-5; last take 5-5;"
        " discards 5-2 | 2-2"
    )
    assert isinstance(state, GameState)
    actions = {str(a) for a in legal_actions(state)}
    assert "discard 5-5" not in actions and "discard 6-6" in actions  # just taken
    pool = view(state, 0).pool
    assert [p.dead for p in pool] == [True, False]


def test_the_opening_discard() -> None:
    state, _ = parse_position(f"kap-shap; hand {WINNING}; last deal")
    assert isinstance(state, GameState) and state.turn == 1 and not state.history
    assert "declare" in {str(a) for a in legal_actions(state)}


def test_tsung_shap_position() -> None:
    state, seat = parse_position(
        "tsung-shap; seat 1; row 6-4 5-5 3-1; piles 13 14; scores 20 0; captured 0: 1-1 1-1"
    )
    assert isinstance(state, FishingState) and seat == 1
    assert [str(a) for a in legal_actions(state)] == ["draw"]


@pytest.mark.parametrize(
    ("position", "message"),
    [
        ("hand 6-6", "needs its game"),
        ("chess; hand 6-6", "Unknown game 'chess'"),
        ("kap-shap", "needs 'hand'"),
        ("kap-shap; hand 6-6 6-6", "The hand holds 2 tiles"),
        ("kap-shap; hand 6-6 6-6 6-6 1-1 4-4 3-3 6-5", "Too many 6-6 (at 'hand')"),
        ("kap-shap; hand 6-6 6-6 1-1 4-4 3-3 6-5 5-5; wall 3", "The wall holds 18 tiles, not 3"),
        ("kap-shap; hand 6-6 6-6 1-1 4-4 3-3 6-5 5-5; known 0: 6-1", "your own seat"),
        ("kap-shap; hand 6-6 6-6 1-1 4-4 3-3 6-5 5-5; known 3: 6-1", "no seat 3"),
        ("kap-shap; hand 6-6 6-6 1-1 4-4 3-3 6-5 5-5; discards 9-9", "In 'discards'"),
        ("kap-shap; hand 6-6 6-6 1-1 4-4 3-3 6-5 5-5; colour red", "Unknown field 'colour'"),
        ("kap-shap; players 3; hand 6-6", "exactly 2 players"),
        ("kap-shap; hand 6-6 6-6 1-1 4-4 3-3 6-5 5-5 2-2; last take 1-2", "not in your hand"),
        ("kap-shap; hand 6-6 6-6 1-1 4-4 3-3 6-5 5-5; turn x", "'turn' must be a whole number"),
        ("kap-shap; hand 6-6 6-6 1-1 4-4 3-3 6-5 5-5; discards 5-2 | 2-2", "only when just"),
        ("kap-shap; hand 6-6 6-6 1-1 4-4 3-3 6-5 5-5 5-5; discards 5-2; last deal", "first turn"),
        ("tsung-shap; row 6-4; piles 10 10", "The piles hold 31 tiles, not 20"),
        ("tsung-shap; row 6-4; piles 16", "Write 'piles <seat 0> <seat 1>'"),
        ("tsung-shap; turned 6-4; piles 16 15", "starts it"),
    ],
)
def test_clear_errors(position: str, message: str) -> None:
    with pytest.raises(PositionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_position(position)


def test_the_command_names_what_is_wrong() -> None:
    code, out, err = analyse("-p", "kap-shap; hand 6-6 6-6")
    assert code == 1 and not out
    assert err.startswith("Position: The hand holds 2 tiles")
    code, _, err = analyse()
    assert code == 1 and "Give a record FILE or --position TEXT" in err


def seen_by(state: GameState | FishingState, seat: int) -> object:
    """What ``seat`` sees, without the parts a typed position does not keep (the turn numbers
    of old discards, the public record itself)."""
    if isinstance(state, FishingState):
        v = view(state, seat)
        return (v.row, v.scores, v.pile_sizes, v.captured, v.turned, v.options, v.phase, v.turn)
    c = view(state, seat)
    pool = tuple((p.tile, p.seat, p.dead, p.takeable) for p in c.pool)
    return (c.hand, c.hand_sizes, pool, c.wall_size, c.phase, c.turn, c.just_taken, c.drawn)


def unseen_kinds(state: GameState | FishingState, seat: int) -> list[int]:
    return sorted(piece_kind(p) for p in unseen_pieces(state, seat))


@pytest.mark.parametrize("preset", range(len(PRESETS)))
def test_a_written_position_reads_back_as_the_same_position(preset: int) -> None:
    """Every position of random games, written in notation and read back: the seat to play
    sees the same, has the same choices, and the same tiles are hidden from it."""
    checked = 0
    for seed in range(3):
        record = random_game(preset, seed)
        for step in replay(record):
            state = step.before
            try:
                text = write_position(state)
            except PositionError:
                continue  # a compulsory draw, or claims pending
            typed, seat = parse_position(text)
            assert seat == state.current and typed.rules == state.rules, text
            assert seen_by(typed, seat) == seen_by(state, seat), text
            assert legal_actions(typed) == legal_actions(state), text
            assert unseen_kinds(typed, seat) == unseen_kinds(state, seat), text
            if isinstance(state, GameState):
                assert isinstance(typed, GameState)
                others = [s for s in range(state.rules.players) if s != seat]
                assert [known_kinds(typed)[s] for s in others] == [
                    known_kinds(state)[s] for s in others
                ], text
                assert typed.then_draw == state.then_draw, text
            checked += 1
    assert checked > 20, checked
