"""``kapshap play`` (bot.terminal) driven by scripted stdin, with captured stdout."""

from __future__ import annotations

import io
import random
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence

import pytest

from bot.engine import Deal, RuleSet, Tile, deal_from_tiles, make_rules, parse_tile, parse_tiles
from bot.games.collecting.ai.base import Player
from bot.games.collecting.engine.actions import Action, Declare, Discard
from bot.games.collecting.engine.hands import is_winning
from bot.games.collecting.engine.machine import View
from bot.games.dominoes.engine.actions import Draw
from bot.terminal import LEGAL_PREFIX, PROMPT, main, run_game

# ---------------------------------------------------------------------------------------------
# Helpers

Strategy = Callable[[list[str], random.Random], str]


class ScriptedStdin(io.StringIO):
    """Answers every prompt with ``strategy(legal actions, rng)``.

    The legal actions are read from the last ``Legal:`` line printed so far, as a player would.
    After ``limit`` answers it reports end of input, so a runaway game cannot hang the test.
    """

    def __init__(
        self, out: io.StringIO, strategy: Strategy, seed: int = 0, limit: int = 2000
    ) -> None:
        super().__init__()
        self.out = out
        self.strategy = strategy
        self.rng = random.Random(seed)
        self.limit = limit
        self.calls = 0

    def readline(self, size: int = -1, /) -> str:  # type: ignore[override]
        self.calls += 1
        if self.calls > self.limit:
            return ""
        return self.strategy(legal_moves(self.out.getvalue()), self.rng) + "\n"


def legal_moves(transcript: str) -> list[str]:
    lines = [line for line in transcript.splitlines() if line.startswith(LEGAL_PREFIX)]
    assert lines, "no legal actions were printed before the prompt"
    return lines[-1][len(LEGAL_PREFIX) :].split(", ")


def random_player(legal: list[str], rng: random.Random) -> str:
    """Declares when it can; otherwise a random legal move, often in a shortcut notation."""
    if "declare" in legal:
        return "declare"
    move = rng.choice(legal)
    verb, _, tile = move.partition(" ")
    if tile and rng.random() < 0.5:
        pips = tile.replace("-", "")
        return pips if verb == "discard" else f"t {pips}"
    return move


def never_takes(legal: list[str], rng: random.Random) -> str:
    """Draws whenever it may, otherwise discards at random: takes a discard only when it must
    (the wall is empty)."""
    if "declare" in legal:
        return "declare"
    if "draw" in legal:
        return "draw"
    return rng.choice(legal)


class DrawingBot:
    """A predictable computer player: declares, else draws, else discards its last tile."""

    level = "drawing"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        for wanted in (Declare(), Draw()):
            if wanted in legal:
                return wanted
        return [a for a in legal if isinstance(a, Discard)][-1]


def play(argv: list[str], lines: Sequence[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    stdin = io.StringIO("".join(line + "\n" for line in lines))
    status = main(argv, stdin=stdin, stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def play_deal(
    rules: RuleSet,
    deal: Deal,
    stdin: io.StringIO,
    out: io.StringIO | None = None,
    human: int = 0,
    bots: Mapping[int, Player] | None = None,
) -> tuple[int, str]:
    out = out if out is not None else io.StringIO()
    names = ["You" if seat == human else f"Bot {seat}" for seat in range(rules.players)]
    status = run_game(
        rules,
        deal,
        names=names,
        human=human,
        ai_level="random" if bots is None else bots,
        rng=random.Random(1),
        stdin=stdin,
        stdout=out,
    )
    return status, out.getvalue()


def script(*lines: str) -> io.StringIO:
    return io.StringIO("".join(line + "\n" for line in lines))


def errors_after(transcript: str, command: str) -> list[str]:
    """The lines printed between ``> command`` and the next prompt."""
    lines = transcript.splitlines()
    start = lines.index(PROMPT + command)
    reply: list[str] = []
    for line in lines[start + 1 :]:
        if line.startswith(PROMPT):
            break
        reply.append(line)
    return reply


HAND_HEADER = re.compile(r"Your hand \((\d+) tiles\):")
HAND_LINE = re.compile(r"  (\d-\d) .*?(?: ×(\d+))?(?: \(counts [^)]*\))?")


def hand_blocks(transcript: str) -> list[Counter[Tile]]:
    """Every hand the terminal showed, as tile counts (checked against the announced size)."""
    lines = transcript.splitlines()
    blocks: list[Counter[Tile]] = []
    for i, line in enumerate(lines):
        header = HAND_HEADER.fullmatch(line)
        if header is None:
            continue
        hand: Counter[Tile] = Counter()
        for row in lines[i + 1 :]:
            match = HAND_LINE.fullmatch(row)
            if match is None:
                break
            hand[parse_tile(match.group(1))] += int(match.group(2) or 1)
        assert sum(hand.values()) == int(header.group(1)), line
        blocks.append(hand)
    return blocks


def shown_foreign_tiles(transcript: str, foreign: set[Tile]) -> set[Tile]:
    """Tiles of ``foreign`` that appear in any "Your hand" block."""
    return {tile for hand in hand_blocks(transcript) for tile in hand if tile in foreign}


MY_MOVE = re.compile(r"You (drew|took|discarded) (\d-\d) ")


def check_hands_follow_my_moves(transcript: str, dealt: Sequence[Tile]) -> int:
    """Replays the human's own draws, takes and discards over the transcript and checks that
    every hand shown is exactly the hand they lead to. Returns how many hands were checked."""
    hand = Counter(dealt)
    checked = 0
    lines = transcript.splitlines()
    for i, line in enumerate(lines):
        move = MY_MOVE.match(line)
        if move:
            tile = parse_tile(move.group(2))
            if move.group(1) == "discarded":
                hand[tile] -= 1
                assert hand[tile] >= 0, line
            else:
                hand[tile] += 1
        elif HAND_HEADER.fullmatch(line):
            shown = hand_blocks("\n".join(lines[i:]))[0]
            assert shown == +hand, f"hand shown at line {i} differs from the real hand"
            checked += 1
    return checked


def assert_clean(transcript: str) -> None:
    assert "Traceback" not in transcript
    assert "Error" not in transcript


# Kap Shap deals used below (one set, 2 players, culin rules).
KS = make_rules("kap-shap")
WINNING = parse_tiles("6-6 6-6 6-4 5-5 4-4 1-1 6-5 6-3")  # eye 6-6 + 20 + 10 + 20
LOSING = parse_tiles("1-1 4-4 3-1 5-5 3-3 2-2 6-5 5-2")
BOT_MILITARY = parse_tiles("5-4 6-2 5-3 4-3 4-1 3-2 2-1 6-3")  # singletons: nobody else has them


def human_first(hand: Sequence[Tile], other: str = "6-1 6-1 5-1 5-1 6-2 5-3 4-3") -> Deal:
    return deal_from_tiles(KS, [list(hand), parse_tiles(other)], first_seat=0)


# ---------------------------------------------------------------------------------------------
# Options


def test_help_option() -> None:
    status, out, err = play(["--help"], [])
    assert status == 0
    assert out.startswith("usage: kapshap play")
    for option in ("--game", "--rules", "--opponents", "--ai", "--rule", "--seed", "--seat"):
        assert option in out
    assert err == ""


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "chess"], "argument --game: invalid choice: 'chess'"),
        (["--opponents", "2"], "Kap Shap is for exactly 2 players, not 3"),
        (["--game", "kap-tai-shap", "--opponents", "0"], "--opponents must be at least 1"),
        (["--opponents", "many"], "invalid int value: 'many'"),
        (["--rules", "house"], "argument --rules: invalid choice: 'house'"),
        (["--ai", "genius"], "unknown AI level 'genius'"),
        (["--rule", "colour=red"], "unknown rule flag 'colour'"),
        (["--rule", "max_turns"], "--rule expects NAME=VALUE, not 'max_turns'"),
        (["--rule", "max-turns=often"], "max_turns must be a whole number, not 'often'"),
        (["--game", "kap-tai-shap", "--rule", "sets=9"], "sets must be between 1 and 8"),
        (["--seat", "2"], "--seat must be between 0 and 1, not 2"),
        (["--name", "Bot 1"], "is the name of a computer player"),
        (["--bogus"], "unrecognized arguments: --bogus"),
    ],
)
def test_invalid_options_are_one_line_errors(argv: list[str], message: str) -> None:
    status, out, err = play(argv, ["quit"])
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("kapshap play: error: ")
    assert message in err
    assert "Traceback" not in err


def test_rule_flags_and_options_reach_the_game() -> None:
    argv = [
        "--game",
        "kap-tai-shap",
        "--opponents",
        "4",
        "--rules",
        "last-draw",
        "--rule",
        "four_two_value=wild",
        "--ai",
        "random",
        "--seed",
        "5",
        "--name",
        "Ann",
        "--seat",
        "2",
    ]
    status, out, _ = play(argv, ["help", "quit"])
    assert status == 0
    assert "Kap Tai Shap 夾大十: kap-tai-shap, 5 players, 2 sets, last-draw rules." in out
    assert "Seats in play order: 0: Bot 1 (Random AI), 1: Bot 2 (Random AI), 2: Ann," in out
    assert "Ann throws the four dice" in out
    assert "4-2 and 2-1 each count 3 or 6" in out
    assert "You leave the table" in out


def test_same_seed_same_game() -> None:
    first = play(["--seed", "12", "--ai", "random"], ["quit"])
    again = play(["--seed", "12", "--ai", "random"], ["quit"])
    other = play(["--seed", "13", "--ai", "random"], ["quit"])
    assert first == again
    assert first[1] != other[1]


# ---------------------------------------------------------------------------------------------
# Whole games


@pytest.mark.parametrize(
    "argv",
    [
        ["--ai", "random"],
        ["--rules", "classic", "--ai", "random"],
        ["--rules", "last-draw", "--seat", "1", "--ai", "random"],
        ["--game", "kap-tai-shap", "--ai", "random"],
        ["--game", "kap-tai-shap", "--opponents", "5", "--ai", "random"],
        ["--game", "kap-tai-shap", "--opponents", "2", "--rule", "exclude_own_discards=1"],
    ],
)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_whole_game_played_from_the_printed_legal_moves(argv: list[str], seed: int) -> None:
    out = io.StringIO()
    stdin = ScriptedStdin(out, random_player, seed=seed)
    status = main([*argv, "--seed", str(seed)], stdin=stdin, stdout=out, stderr=out)
    transcript = out.getvalue()
    assert status == 0
    assert stdin.calls < stdin.limit, "the game did not end"
    assert_clean(transcript)
    assert "=== Game over ===" in transcript
    tail = transcript.split("=== Game over ===")[1]
    assert re.search(r"win(s)? on turn \d+|The game is drawn on turn \d+", tail)
    # Every answer the strategy gave was accepted: no error line at all.
    assert not [line for line in transcript.splitlines() if line.startswith("! ")]
    # The human played: at least one of his own moves was narrated.
    assert re.search(r"^You (drew|took|discarded) ", transcript, re.MULTILINE)
    # Other seats' draws are never named.
    assert not re.search(r"^Bot \d+ drew \d-\d", transcript, re.MULTILINE)


def test_many_kap_shap_games_end_cleanly() -> None:
    outcomes: Counter[str] = Counter()
    for seed in range(30):
        out = io.StringIO()
        stdin = ScriptedStdin(out, random_player, seed=seed)
        assert main(["--seed", str(seed), "--ai", "random"], stdin=stdin, stdout=out) == 0
        transcript = out.getvalue()
        assert_clean(transcript)
        tail = transcript.split("=== Game over ===")[1]
        if "The game is drawn" in tail:
            outcomes["drawn"] += 1
        else:
            assert re.search(r"wins? on turn \d+", tail)
            assert "Winning arrangement:\n  eye   " in tail
            outcomes["won"] += 1
    assert outcomes["won"] > 0
    assert outcomes["drawn"] > 0


# ---------------------------------------------------------------------------------------------
# The end of a game


def test_winning_dealt_hand_shows_the_arrangement() -> None:
    assert is_winning(WINNING, KS)
    status, out = play_deal(KS, human_first(WINNING), script("declare"))
    assert status == 0
    assert "Your hand wins: type 'declare'!" in out
    assert legal_moves(out)[0] == "declare"
    # "(dealt)" / "(draw)" read like a drawn game: the line says how the hand was made.
    declared = "You declared a winning hand as dealt: eye 6-6 6-6 | 5-5 6-4 | 6-3 6-5 | 4-4 1-1."
    assert declared in out
    assert "You win on turn 1, with the hand as dealt." in out
    end = out.split("Winning arrangement:\n")[1].splitlines()
    assert end[0] == "  eye   6-6 Heaven 天 + 6-6 Heaven 天"
    # The pairs in the order the declaration listed them.
    assert end[1:4] == [
        "  pair  5-5 Plum flower 梅 + 6-4 Red-head ten 紅頭十  (10 + 10 = 20)",
        "  pair  6-3 Nine 雜九 + 6-5 Axe 斧頭  (9 + 11 = 20)",
        "  pair  4-4 Man 人 + 1-1 Earth 地  (8 + 2 = 10)",
    ]


def test_four_two_counts_three_in_the_arrangement() -> None:
    hand = parse_tiles("3-1 3-1 4-2 6-1 6-4 5-5 4-4 1-1")
    assert is_winning(hand, KS)
    deal = human_first(hand, other="6-6 6-6 5-1 5-1 6-2 5-3 4-3")
    status, out = play_deal(KS, deal, script("declare"))
    assert status == 0
    assert "  4-2 Gee Joon 至尊 (counts 3)" in out
    assert "  pair  6-1 Long-leg seven 高腳七 + 4-2 Gee Joon 至尊  (7 + 3 = 10)" in out


def test_computer_win_is_announced_with_its_arrangement() -> None:
    # The bot is dealt a winning hand and always declares.
    deal = deal_from_tiles(KS, [LOSING[:7], WINNING], first_seat=1)
    status, out = play_deal(KS, deal, script())
    assert status == 0
    assert "Bot 1 wins on turn 1, with the hand as dealt." in out
    assert "  eye   6-6 Heaven 天 + 6-6 Heaven 天" in out
    assert PROMPT not in out  # the human was never asked anything


def test_drawn_game_gives_the_reason() -> None:
    rules = make_rules("kap-shap", max_turns=3)
    deal = deal_from_tiles(rules, [LOSING, BOT_MILITARY[:7]], first_seat=0)
    out = io.StringIO()
    status, text = play_deal(rules, deal, ScriptedStdin(out, never_takes), out)
    assert status == 0
    assert "The game is drawn on turn 3: the turn limit of 3 turns was reached" in text


# ---------------------------------------------------------------------------------------------
# Input


def test_bad_input_gets_one_line_and_the_prompt_again() -> None:
    assert not is_winning(LOSING, KS)
    commands = ["discard 9-9", "discard 6-6", "foo", "declare", "take 3-1", "99", "draw 6-6"]
    status, out = play_deal(KS, human_first(LOSING), script(*commands, "quit"))
    assert status == 0
    assert_clean(out)
    expected = {
        "discard 9-9": "Not a tile: '9-9', pips run from 1 to 6",
        "discard 6-6": "You do not hold 6-6",
        "foo": "Unknown action 'foo'",
        "declare": "Your hand is not a winning hand",
        "take 3-1": "You hold a full hand: discard a tile (or declare)",
        "99": "Not a tile: '99'",
        "draw 6-6": "Draw takes no tile",
    }
    for command, message in expected.items():
        reply = errors_after(out, command)
        assert len(reply) == 1, (command, reply)
        assert reply[0].startswith("! ") and reply[0][2].isupper()
        assert message in reply[0]
    # Nothing was played: the state did not move.
    assert "You discarded" not in out
    assert out.rstrip().endswith("You leave the table; the game is abandoned.")


def test_help_legal_hand_pool_and_quit() -> None:
    status, out = play_deal(KS, human_first(LOSING), script("help", "legal", "hand", "pool", "q"))
    assert status == 0
    helped = "\n".join(errors_after(out, "help"))
    assert "Rules in force: kap-shap, 2 players, 1 set, culin rules." in helped
    assert "8 tiles = one eye (two identical civil tiles) + 3 ten-pairs" in helped
    assert "take 6-5 | t 65" in helped
    assert "then draws and discards again" in helped
    assert errors_after(out, "legal") == [
        "Legal: discard 1-1, discard 4-4, discard 3-1, discard 5-5, discard 3-3, discard 2-2, "
        "discard 6-5, discard 5-2"
    ]
    hand = errors_after(out, "hand")
    assert hand[0] == "Your hand (8 tiles):"
    assert hand[1:3] == ["  1-1 Earth 地", "  4-4 Man 人"]
    assert errors_after(out, "pool") == ["Discards: none yet."]
    assert "=== Game over ===" not in out


def test_end_of_input_leaves_cleanly() -> None:
    status, out = play_deal(KS, human_first(LOSING), script())
    assert status == 0
    assert out.rstrip().endswith("End of input: you leave the table and the game is abandoned.")
    status, out, _ = play(["--seed", "1"], [])
    assert status == 0
    assert "End of input" in out


def test_shortcuts() -> None:
    # Kap Shap culin, human first: discard by a bare tile, then 'd' draws, then 'd <tile>'.
    deal = deal_from_tiles(
        KS,
        [LOSING, parse_tiles("6-1 6-1 5-1 5-1 6-2 5-3 4-3")],
        wall=parse_tiles("6-6 6-4"),
        first_seat=0,
    )
    status, out = play_deal(KS, deal, script("31", "d", "dr", "d 5-5", "quit"))
    assert status == 0
    assert "You discarded 3-1 Harmony 和." in out
    assert "You drew 6-6 Heaven 天 (" in out
    assert "You discarded 5-5 Plum flower 梅." in out
    # 'd' alone never draws: it is discard, and the reply says how to draw.
    assert errors_after(out, "d") == [
        "! 'd' is short for discard: name the tile ('d 31'); to draw, type 'dr' or 'draw'"
    ]


def test_take_shortcuts_and_pool_marks() -> None:
    # Classic rules: only the latest discard may be taken; older ones are dead. (With the
    # first-turn draw chosen on purpose: two discards before the bot's turn.)
    rules = make_rules("kap-shap", rule_set="classic", first_turn_extra_draw=True)
    bot = parse_tiles("6-1 6-1 5-1 5-1 6-2 5-3 4-3")
    deal = deal_from_tiles(rules, [LOSING, bot], wall=parse_tiles("6-6 6-4 4-1"), first_seat=0)
    # Turn 1: discard 3-1 (Kap Shap first turn: then draw 6-6 and discard 5-5).
    # The bot plays turn 2; on turn 3 'take 9-9' is bad, 't' takes the latest discard.
    stdin = script("discard 3-1", "", "5-5", "take 9-9", "t", "quit")
    status, out = play_deal(rules, deal, stdin, bots={1: DrawingBot()})
    assert status == 0
    assert_clean(out)
    turn3 = out.split("=== Turn 3: your turn ===")[1]
    pool = turn3.split("Discards (")[1].split("Wall:")[0]
    assert "3-1 Harmony 和 - dead" in pool
    assert "5-5 Plum flower 梅 - dead" in pool
    assert "- you may take it" in pool
    assert re.search(r"^You took \d-\d .* discarded by Bot 1\.$", turn3, re.MULTILINE)


def test_bare_tile_takes_when_taking() -> None:
    bot = parse_tiles("6-1 6-1 5-1 5-1 6-2 5-3 4-3")
    deal = deal_from_tiles(KS, [LOSING, bot], wall=parse_tiles("6-6 6-4 4-1"), first_seat=0)
    # Turn 1: discard 3-1, draw, discard 5-5. Turn 3: 'Harmony' takes the 3-1 back (Culin).
    stdin = script("31", "draw", "55", "Harmony", "quit")
    status, out = play_deal(KS, deal, stdin, bots={1: DrawingBot()})
    assert status == 0
    assert_clean(out)
    turn3 = out.split("=== Turn 3: your turn ===")[1]
    assert "  3-1 Harmony 和 - you may take it" in turn3
    assert "You took back 3-1 Harmony 和." in turn3


def test_own_discards_are_marked_when_they_may_not_be_taken_back() -> None:
    rules = make_rules("kap-shap", exclude_own_discards=True)
    bot = parse_tiles("6-1 6-1 5-1 5-1 6-2 5-3 4-3")
    deal = deal_from_tiles(rules, [LOSING, bot], wall=parse_tiles("6-6 6-4 4-1"), first_seat=0)
    stdin = script("31", "draw", "55", "take 3-1", "quit")
    status, out = play_deal(rules, deal, stdin, bots={1: DrawingBot()})
    assert status == 0
    turn3 = out.split("=== Turn 3: your turn ===")[1]
    assert "  3-1 Harmony 和 - your own discard: you may not take it back" in turn3
    assert errors_after(out, "take 3-1") == [
        "! You may not take back your own discard 3-1 (type '?' for your legal moves)"
    ]


# ---------------------------------------------------------------------------------------------
# Hidden information


def test_the_checker_detects_a_shown_bot_hand() -> None:
    # The leak check below must be able to fail: a transcript showing a bot tile is caught.
    leaked = "Your hand (2 tiles):\n  6-6 Heaven 天\n  5-4 Nine 雜九\nDiscards: none yet.\n"
    assert shown_foreign_tiles(leaked, set(BOT_MILITARY)) == {Tile(5, 4)}
    with pytest.raises(AssertionError):
        check_hands_follow_my_moves(leaked, parse_tiles("6-6 6-6"))


@pytest.mark.parametrize("seed", range(4))
def test_the_human_never_sees_the_bot_hand(seed: int) -> None:
    # The bot holds eight military singletons: with one set nobody else can ever hold one,
    # and the human never takes a discard, so none may appear in a hand the human is shown.
    human_hand = parse_tiles("6-6 1-1 4-4 3-1 5-5 3-3 2-2")
    deal = deal_from_tiles(KS, [human_hand, BOT_MILITARY], first_seat=1)
    out = io.StringIO()
    status, text = play_deal(KS, deal, ScriptedStdin(out, never_takes, seed=seed), out)
    assert status == 0
    assert "=== Game over ===" in text
    assert len(hand_blocks(text)) >= 4
    # (Only when the wall is empty must the human take a discard: that tile is his.)
    taken = {parse_tile(t) for t in re.findall(r"^You took (\d-\d) ", text, re.MULTILINE)}
    assert shown_foreign_tiles(text, set(BOT_MILITARY) - taken) == set()
    # And every hand shown is exactly what the human's own moves lead to.
    assert check_hands_follow_my_moves(text, human_hand) == len(hand_blocks(text))
    # The bot's discards are public, its draws are not.
    assert re.search(r"^Bot 1 discarded (5-4|6-2|5-3|4-3|4-1|3-2|2-1|6-3) ", text, re.MULTILINE)
    assert "Bot 1 drew a tile" in text
    assert not re.search(r"^Bot 1 drew \d-\d", text, re.MULTILINE)


def test_hands_follow_the_moves_in_a_taking_game() -> None:
    human_hand = parse_tiles("6-6 6-6 1-1 4-4 3-1 5-5 3-3 2-2")
    deal = deal_from_tiles(KS, [human_hand, BOT_MILITARY[:7]], first_seat=0)
    out = io.StringIO()
    status, text = play_deal(KS, deal, ScriptedStdin(out, random_player, seed=3), out)
    assert status == 0
    assert check_hands_follow_my_moves(text, human_hand) == len(hand_blocks(text)) >= 4


# ---------------------------------------------------------------------------------------------
# Set-up questions


def test_setup_asks_with_defaults() -> None:
    answers = ["kts", "30", "2", "", "beginner", "quit"]
    status, out, err = play(["--setup", "--seed", "4"], answers)
    assert status == 0, err
    assert "Game: kap-shap, kap-tai-shap or tsung-shap [kap-shap]: kts" in out
    assert "! Answer a number from 1 to 27" in out
    assert "Rule set: culin, classic or last-draw [culin]: " in out
    assert "kap-tai-shap, 3 players, 2 sets, culin rules." in out
    assert "(Beginner AI)" in out


def test_setup_for_kap_shap_skips_the_opponents_and_stops_at_end_of_input() -> None:
    status, out, _ = play(["--setup"], ["", "classic"])
    assert status == 0
    assert "Opponents" not in out
    assert "End of input: no game started." in out


class TtyStdin(io.StringIO):
    """Scripted input that claims to be a terminal (so nothing is echoed)."""

    def isatty(self) -> bool:
        return True


def test_interactive_terminal_without_options_asks_the_setup_questions() -> None:
    out = io.StringIO()
    stdin = TtyStdin("\nlast-draw\nbeginner\nquit\n")
    assert main([], stdin=stdin, stdout=out) == 0
    text = out.getvalue()
    # No echo on a tty.
    assert "Game: kap-shap, kap-tai-shap or tsung-shap [kap-shap]: Rule set" in text
    assert "kap-shap, 2 players, 1 set, last-draw rules." in text


def test_scripted_input_without_options_plays_the_defaults() -> None:
    status, out, _ = play([], ["quit"])
    assert status == 0
    assert "Game:" not in out
    assert "kap-shap, 2 players, 1 set, culin rules." in out


def test_kapshap_play_goes_through_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    from bot import cli

    assert cli.main(["play", "--help"]) == 0
    assert capsys.readouterr().out.startswith("usage: kapshap play")
    assert cli.main(["play", "--opponents", "3"]) == 2
    assert "Kap Shap is for exactly 2 players" in capsys.readouterr().err


# ---------------------------------------------------------------------------------------------
# Words


def test_the_human_is_addressed_in_the_second_person() -> None:
    status, out, _ = play(["--seed", "2"], ["quit"])
    assert status == 0
    assert "you play first." in out and "You are dealt 8 tiles, everyone else 7" in out
    assert "You plays" not in out and "You is" not in out


def test_after_a_finished_game_another_is_offered() -> None:
    # Seed 1: the computer plays first and the one-turn limit ends the game before the human.
    status, out, _ = play(["--seed", "1", "--rule", "max_turns=1"], ["y", "n"])
    assert status == 0
    assert out.count("Play another game with the same options? [y/N]") >= 1
    assert out.count("Kap Shap 夾十:") == 2  # a second game was announced
    # Leaving mid-game is not a finished game: nothing is offered.
    status, out, _ = play(["--seed", "2"], ["quit"])
    assert "Play another game" not in out


def test_setup_offers_tsung_shap() -> None:
    status, out, err = play(["--setup", "--seed", "3"], ["ts", "", "quit"])
    assert status == 0, err
    assert "Game: kap-shap, kap-tai-shap or tsung-shap" in out
    assert "Tsung Shap 爭十" in out


def test_help_explains_the_stall_guard_only_under_classic() -> None:
    status, out = play_deal(KS, human_first(LOSING), script("help", "quit"))
    assert status == 0 and "without drawing" not in out  # Culin: a draw follows every take
    classic = make_rules("kap-shap", rule_set="classic")
    deal = deal_from_tiles(classic, [LOSING, parse_tiles("6-1 6-1 5-1 5-1 6-2 5-3 4-3")])
    status, out = play_deal(classic, deal, script("help", "quit"))
    assert "After 2 turns in a row of taking without drawing" in out
