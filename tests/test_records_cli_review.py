"""``kapshap review`` and ``kapshap analyse`` tell the same story (issue 24): the review numbers
a decision as the record numbers its action, ``analyse --at N`` opens that very position with
the same figures, an empty review says so in its own words, and both speak Chinese."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from bot.ai.review import review_decision
from bot.engine import make_rules
from bot.engine.deal import deal_from_tiles
from bot.engine.record import GameRecord, RecordSeat, parse_record, write_record
from bot.engine.tiles import parse_tiles
from bot.games.collecting.ai import kernel
from bot.records_cli import main_analyse, main_review
from bot.services.review_text import position_lines
from tests.engine.test_record import random_game
from tests.locale.english import latin_left

compiled = pytest.mark.skipif(not kernel.available(), reason="numba is not installed")
ROLLOUTS = "300"


def review(*argv: str) -> str:
    out = io.StringIO()
    assert main_review(list(argv), out=out, err=io.StringIO()) == 0
    return out.getvalue()


def analyse(*argv: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    assert main_analyse(list(argv), out=out, err=err) == 0, err.getvalue()
    return out.getvalue()


@compiled
@pytest.mark.parametrize("preset", [0, 5])  # Kap Shap, Tsung Shap
def test_the_reviews_numbers_open_the_same_position_in_analyse(tmp_path: Path, preset: int) -> None:
    record = random_game(preset, 3)
    path = tmp_path / "game.txt"
    path.write_text(write_record(record), encoding="utf-8")
    text = review(str(path), "--rollouts", ROLLOUTS)
    numbers = [int(n) for n in re.findall(r"^  Action (\d+) \(turn", text, re.M)]
    assert numbers
    for number in numbers:
        decision = review_decision(record, number, int(ROLLOUTS), 0)
        shown = analyse(str(path), "--at", str(number), "--rollouts", ROLLOUTS)
        # The position the review shows is the one analyse opens...
        assert decision.position is not None
        for line in position_lines(decision.position):
            assert f"   {line}\n" in shown
        assert f"Before action {number} (turn {decision.turn}): " in shown
        # ...the move played there is the record's action, with the review's figures.
        [played] = [line for line in shown.splitlines() if "← played" in line]
        assert played.strip().startswith(f"{record.actions[number - 1]} ")
        assert str(decision.played_chance) in played
        assert re.search(rf"Action {number} \(turn {decision.turn}\): ", text)


def test_an_empty_review_says_so(tmp_path: Path) -> None:
    """Seat 0 declares a winning hand as dealt: seat 1 never had a choice."""
    rules = make_rules("kap-shap", 2)
    hands = ["6-6 6-6 3-3 5-5 3-2 4-1 6-4 3-1", "1-1 1-1 2-2 2-2 4-4 4-4 6-5"]
    deal = deal_from_tiles(rules, [parse_tiles(h) for h in hands], [], first_seat=0)
    record = GameRecord(rules, (RecordSeat("alice"), RecordSeat("bob")), deal, ("declare",))
    path = tmp_path / "game.txt"
    path.write_text(write_record(record), encoding="utf-8")
    assert parse_record(path.read_text(encoding="utf-8")).actions == ("declare",)
    text = review(str(path), "--seat", "1")
    assert text == (
        "bob (seat 1): No decision had a real choice (one legal move, or equivalent ones).\n"
    )
    assert "0 of 0" not in text


@compiled
@pytest.mark.parametrize("locale", ["zh-TW", "zh-CN"])
def test_review_and_analyse_speak_chinese(tmp_path: Path, locale: str) -> None:
    record = random_game(0, 3)
    path = tmp_path / "game.txt"
    path.write_text(write_record(record), encoding="utf-8")
    names = {w for seat in record.seats for w in re.findall(r"[A-Za-z]+", seat.name)}
    text = review(str(path), "--rollouts", ROLLOUTS, "--lang", locale)
    assert "第 " in text and "步" in text
    for line in text.splitlines():
        assert not latin_left(line, names), line
    shown = analyse(str(path), "--at", "3", "--rollouts", ROLLOUTS, "--lang", locale)
    for line in shown.splitlines():
        if line.startswith("  "):  # the moves themselves are notation, as typed
            line = re.sub(r"^\s+(take|draw|discard|declare)( \d-\d)?", "", line)
        if "--position" in line:
            continue  # the position in notation, to copy
        assert not latin_left(line, names), line
