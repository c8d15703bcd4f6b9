"""``kapshap play --game tsung-shap`` (bot.terminal) driven by scripted stdin."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Callable, Sequence

import pytest

from bot.ai.base import AnyPlayer
from bot.engine import Tile, make_rules
from bot.games.dominoes.engine.actions import Draw
from bot.games.fishing.engine import FishingView, deal_from_piles
from bot.games.fishing.engine.actions import End, FishingAction, Place
from bot.terminal import LEGAL_PREFIX, PROMPT, main, run_game

Strategy = Callable[[list[str], random.Random], str]


def legal_moves(text: str) -> list[str]:
    """The actions of the last ``Legal:`` line printed."""
    lines = [line for line in text.splitlines() if line.startswith(LEGAL_PREFIX)]
    return lines[-1][len(LEGAL_PREFIX) :].split(", ") if lines else []


class ScriptedStdin(io.StringIO):
    """Answers every prompt with ``strategy(legal actions, rng)``, reading the legal list from
    the output as a player would; reports end of input after ``limit`` answers."""

    def __init__(self, out: io.StringIO, strategy: Strategy, seed: int = 0) -> None:
        super().__init__()
        self.out = out
        self.strategy = strategy
        self.rng = random.Random(seed)
        self.calls = 0

    def readline(self, size: int = -1, /) -> str:  # type: ignore[override]
        self.calls += 1
        if self.calls > 500:
            return ""
        return self.strategy(legal_moves(self.out.getvalue()), self.rng) + "\n"


def pick_random(legal: list[str], rng: random.Random) -> str:
    return rng.choice(legal)


def play(argv: list[str], answers: Sequence[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    stdin = io.StringIO("".join(a + "\n" for a in answers))
    status = main(argv, stdin=stdin, stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def play_scripted(argv: list[str], strategy: Strategy, seed: int = 0) -> tuple[int, str]:
    out = io.StringIO()
    status = main(argv, stdin=ScriptedStdin(out, strategy, seed), stdout=out)
    return status, out.getvalue()


class Fixed:
    """A computer player that plays the first legal action (or a given one if legal)."""

    level = "fixed"

    def __init__(self, prefer: Sequence[FishingAction] = ()) -> None:
        self.prefer = list(prefer)

    def choose(
        self, view: FishingView, legal: Sequence[FishingAction], rng: random.Random
    ) -> FishingAction:
        for action in self.prefer:
            if action in legal:
                return action
        return legal[0]


# ---------------------------------------------------------------------------------------------
# Whole games


@pytest.mark.parametrize(
    ("argv", "seed"),
    [
        (["--seed", "1"], 0),
        (["--seed", "2", "--ai", "random"], 1),
        (["--seed", "3", "--ai", "expert", "--seat", "1"], 2),
        (["--seed", "4", "--rule", "auto_capture=true"], 3),
        (["--seed", "5", "--rule", "play_until_both_piles_empty=true", "--ai", "random"], 4),
    ],
)
def test_whole_game_played_from_the_printed_legal_moves(argv: list[str], seed: int) -> None:
    status, out = play_scripted(["--game", "tsung-shap", *argv], pick_random, seed)
    assert status == 0
    assert "Tsung Shap 爭十: tsung-shap, 2 players, 1 set" in out
    assert "=== Game over ===" in out
    final = re.search(r"Final scores: You (\d+), Bot 1 (\d+)\.", out)
    assert final is not None
    you, bot = int(final.group(1)), int(final.group(2))
    if you == bot:
        assert "Equal scores: the game is drawn." in out
    elif you > bot:
        assert f"You win by {you - bot} points." in out
    else:
        assert f"Bot 1 wins by {bot - you} points." in out
    assert "!" not in "".join(line[:1] for line in out.splitlines())  # no rejected move
    assert "Traceback" not in out


def test_every_turn_shows_the_table_and_the_legal_moves() -> None:
    status, out = play_scripted(["--game", "tsung-shap", "--seed", "8"], pick_random)
    assert status == 0
    turns = out.split("=== Turn ")[1:]
    assert turns
    for block in turns:
        assert "Scores: You " in block
        assert "Tiles left in the piles: You " in block
        assert LEGAL_PREFIX in block
    assert re.search(r"Row \(\d+ tiles?, left to right\):  L \| .* \| R", out)
    assert "Your tile: " in out


def test_same_seed_same_game() -> None:
    first = play_scripted(["--game", "tsung-shap", "--seed", "42"], pick_random, 7)
    again = play_scripted(["--game", "tsung-shap", "--seed", "42"], pick_random, 7)
    other = play_scripted(["--game", "tsung-shap", "--seed", "43"], pick_random, 7)
    assert first == again
    assert first[1] != other[1]


# ---------------------------------------------------------------------------------------------
# A known deal


def known_game(answers: Sequence[str], bot: AnyPlayer | None = None) -> str:
    """You play first: your pile 6-6, 6-6, 5-5 ...; the bot's 3-3, 4-4 ..."""
    rules = make_rules("tsung-shap")
    deal = deal_from_piles(
        rules, [Tile(6, 6), Tile(6, 6), Tile(5, 5)], [Tile(3, 3), Tile(4, 4)], first_seat=0
    )
    out = io.StringIO()
    stdin = io.StringIO("".join(a + "\n" for a in answers))
    run_game(
        rules,
        deal,
        names=["You", "Bot 1"],
        human=0,
        ai_level={1: bot or Fixed([Place(End.RIGHT)])},
        rng=random.Random(0),
        stdin=stdin,
        stdout=out,
    )
    return out.getvalue()


def test_capture_a_pair_and_see_the_score() -> None:
    out = known_game(["draw", "draw", "capture pair left", "quit"])
    assert "You laid 6-6 out to start a new row." in out
    assert "Row (2 tiles, left to right):  L | 6-6 Heaven | 3-3 Long three | R" in out
    assert "Your tile: 6-6 Heaven 天 (counts 12)." in out
    assert (
        "It can capture: 'capture pair left' (6-6 + 6-6: 240); "
        "'capture triplet ends' (6-6 + 6-6 + 3-3: 40 - a sweep)." in out
    )
    assert "Legal: capture pair left, capture triplet ends, place left, place right" in out
    assert "You captured a pair at the left end, 6-6 + 6-6: 240 points." in out
    assert "Scores: You 240, Bot 1 0." in out
    assert "You leave the table; the game is abandoned." in out


def test_a_missed_capture_can_be_claimed() -> None:
    # You place the second 6-6 instead of pairing it; the bot (claiming first) takes it.
    from bot.games.fishing.engine.actions import Claim, ComboKind

    bot = Fixed([Claim(ComboKind.PAIR, End.LEFT), Draw(), Place(End.RIGHT)])
    out = known_game(["draw", "draw", "place right", "quit"], bot)
    assert "You could have captured and did not." in out
    assert "Bot 1 claimed the pair You missed (left), 6-6 + 6-6: 240 points." in out


def test_the_human_sees_a_claimable_miss() -> None:
    # Row 6-6 3-3; you place 4-1 (it captures nothing); the bot places its 6-6 although it
    # could pair the left end or make 6-6 + 6-6 + 3-3 = 30 there: you may claim either.
    rules = make_rules("tsung-shap")
    deal = deal_from_piles(rules, [Tile(6, 6), Tile(4, 1)], [Tile(3, 3), Tile(6, 6)])
    out = io.StringIO()
    run_game(
        rules,
        deal,
        names=["You", "Bot 1"],
        human=0,
        ai_level={1: Fixed([Draw(), Place(End.RIGHT)])},
        rng=random.Random(0),
        stdin=io.StringIO("draw\ndraw\nplace right\n?\nclaim pair left\nquit\n"),
        stdout=out,
    )
    text = out.getvalue()
    assert "Bot 1 missed a capture: you may claim one before turning over: " in text
    assert "Legal: claim pair left, claim triplet left, draw" in text
    assert "You claimed the pair Bot 1 missed" in text


# ---------------------------------------------------------------------------------------------
# Bad input, commands, leaving


def test_bad_input_gets_one_line_and_the_prompt_again() -> None:
    out = known_game(
        ["", "capture pair left", "take", "capture pair up", "claim pair left", "draw", "quit"]
    )
    lines = out.splitlines()
    errors = [line for line in lines if line.startswith("! ")]
    assert len(errors) == 4
    assert "! Turn over your next tile first ('draw')" in out
    assert "! Unknown action 'take'" in out
    assert "! There is no missed capture to claim" in out
    assert "Traceback" not in out
    # The empty line with the single legal action plays it (the first draw).
    assert out.count("You turned over 6-6") == 2


def test_illegal_capture_explains_why() -> None:
    out = known_game(["draw", "draw", "capture pair right", "place right", "quit"])
    assert "! 6-6 is not identical to the right end tile 3-3" in out
    assert "You placed 6-6 at the right end of the row." in out


def test_commands_and_shortcuts() -> None:
    out = known_game(["help", "?", "look", "d", "d", "c", "capture pair left", "quit"])
    assert "! Say which capture: 'capture pair left', 'capture triplet ends'" in out
    assert "Rules in force: tsung-shap, 2 players, 1 set." in out
    assert "Pair: your tile is identical to an end tile" in out
    assert "You captured a pair at the left end" in out


def test_end_of_input_leaves_cleanly() -> None:
    status, out, err = play(["--game", "tsung-shap", "--seed", "1"], ["draw"])
    assert status == 0 and err == ""
    assert out.endswith("End of input: you leave the table and the game is abandoned.\n")
    assert PROMPT in out


def test_quit() -> None:
    status, out, _ = play(["--game", "tsung-shap", "--seed", "1"], ["q"])
    assert status == 0
    assert "You leave the table; the game is abandoned." in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--opponents", "2"], "Tsung Shap is for exactly 2 players, not 3"),
        (["--rules", "culin"], "Tsung Shap has no rule set 'culin'"),
        (["--ai", "godlike"], "unknown AI level 'godlike' for tsung-shap"),
        (["--rule", "auto_capture=perhaps"], "auto_capture"),
        (["--seat", "2"], "--seat must be between 0 and 1"),
    ],
)
def test_invalid_options_are_one_line_errors(argv: list[str], message: str) -> None:
    status, out, err = play(["--game", "tsung-shap", *argv], [])
    assert status == 2
    assert out == ""
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_setup_offers_tsung_shap() -> None:
    status, out, err = play(["--setup", "--seed", "3"], ["ts", "expert", "quit"])
    assert status == 0, err
    assert "Rule set" not in out
    levels = "Beginner ('beginner'), Casual ('casual'), Expert ('expert'), Master ('master')"
    assert f"Computer level: {levels} [beginner]: expert" in out
    assert "(Expert AI)" in out
    assert "Tsung Shap 爭十" in out
