"""``kapshap play`` knows no game of its own (issue 19 step 11): a family a test registers is
offered, set up, played and refused through its facets alone, and a family without a terminal
role is not offered.

The test family plays *Countdown*: a count starts at 7 (the flag ``start``), each turn a player
takes 1 or 2 from it, and whoever takes the last one wins. This module is every role's module
of the family (its ``FACET`` answers for the engine, the AI and the terminal).
"""

from __future__ import annotations

import io
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from types import SimpleNamespace
from typing import Any

import pytest

from bot.engine.errors import IllegalAction, NotationError, RulesError
from bot.games import FamilyInfo, GameInfo, registered
from bot.terminal import main
from bot.terminal.family import Asker, Console, TableHooks, terminal_of
from tests.games.test_registry import FAMILY as NO_TERMINAL

COUNTDOWN = GameInfo(
    name="countdown",
    family="test-countdown",
    title="Countdown",
    short="Countdown",
    table_choice="Countdown (2 or 3 players)",
    event_choice=None,
    players=(2, 3),
    default_seats=2,
    aliases=("cd",),
)
FAMILY = FamilyInfo(
    name="test-countdown",
    games=(COUNTDOWN,),
    roles={role: __name__ for role in ("engine", "ai", "render", "terminal")},
)


@dataclass(frozen=True)
class Rules:
    game: str
    players: int
    start: int = 7

    def describe(self) -> str:
        return f"count down from {self.start}"


@dataclass(frozen=True)
class Result:
    winner: int | None


@dataclass(frozen=True)
class State:
    rules: Rules
    seats: tuple[str, ...]
    left: int
    current: int
    turn: int
    result: Result | None = None
    seat: int | None = None  # a view's seat
    my_turn: bool = False


class Taker:
    """``random`` takes 1, ``greedy`` takes as many as it may."""

    def __init__(self, level: str) -> None:
        self.level = level

    def choose(self, seen: State, legal: Sequence[int], rng: random.Random) -> int:
        return max(legal) if self.level == "greedy" else min(legal)


class Hooks:
    """Countdown's table: the count, the takes, the winner."""

    def __init__(self, console: Console, state: State, human: int) -> None:
        self.console = console
        self.state = state

    def announce(self, level: str, seed: int | None) -> None:
        self.console.say(f"Countdown from {self.state.left} against {level}.")

    def status(self, seen: State, legal: Sequence[int]) -> None:
        self.console.say(f"{seen.left} left.")
        self.console.legal_line(legal)

    def interpret(self, text: str, seen: State, legal: Sequence[int]) -> int | str:
        if text == "left":
            self.console.say(f"Still {seen.left}.")
            return ""
        if not text.isdigit():
            raise NotationError(f"cannot read '{text}' as a number")
        return int(text)

    def narrate(self, events: Sequence[Any]) -> None:
        for event in events:
            if isinstance(event, tuple):
                self.console.turn_header(*event)
            else:
                self.console.say(event)

    def game_over(self, seen: State) -> None:
        assert seen.result is not None and seen.result.winner is not None
        self.console.say(f"{self.console.names[seen.result.winner]} took the last one.")

    def help(self) -> str:
        return "Take 1 or 2.\nWhoever takes the last one wins."


class Countdown:
    """The facet of every role the family has."""

    # -- engine
    def make_rules(
        self, game: str, players: int | None = None, rule_set: str | None = None, **flags: Any
    ) -> Rules:
        if rule_set is not None:
            raise RulesError(f"Countdown has no rule set '{rule_set}'")
        return Rules(game, players or 2)

    def with_flag(self, rules: Rules, name: str, value: str) -> Rules:
        if name != "start" or not value.isdigit():
            raise RulesError(f"unknown rule '{name}={value}'")
        return replace(rules, start=int(value))

    def deal(self, rules: Rules, rng: random.Random, thrower: int = 0) -> Any:
        return SimpleNamespace(first_seat=thrower)

    def new_game(self, rules: Rules, seats: Sequence[str], deal: Any) -> State:
        return State(rules, tuple(seats), rules.start, deal.first_seat, 1)

    def legal_actions(self, state: State) -> list[int]:
        return [] if state.result else [n for n in (1, 2) if n <= state.left]

    def apply(self, state: State, action: int) -> tuple[State, list[Any]]:
        if action not in self.legal_actions(state):
            raise IllegalAction(f"you may not take {action}")
        left = state.left - action
        events: list[Any] = [f"{state.seats[state.current]} took {action}."]
        if not left:
            return replace(state, left=0, result=Result(state.current)), events
        following = (state.current + 1) % state.rules.players
        events.append((following, state.turn + 1))
        return replace(state, left=left, current=following, turn=state.turn + 1), events

    def view(self, state: State, seat: int | None) -> State:
        return replace(state, seat=seat, my_turn=seat == state.current)

    # -- ai
    def player(self, game: str, level: str) -> Taker:
        return Taker(level)

    def searching(self, level: str) -> bool:
        return False

    # -- terminal
    def levels(self, game: str) -> tuple[str, ...]:
        return ("random", "greedy")

    def unknown_level(self, game: str) -> str:
        return "Countdown has no level '{level}': choose one of {known}"

    def rule_sets(self, game: str) -> tuple[str, ...]:
        return ()

    def setup(
        self, game: str, ask: Asker, locale: str, chosen: Mapping[str, Any]
    ) -> dict[str, Any] | None:
        def players(text: str) -> str:
            if text not in ("2", "3"):
                raise ValueError("answer 2 or 3")
            return text

        answer = ask("Players (2 or 3)", "2", players)
        return None if answer is None else {"opponents": int(answer) - 1, "rules": None}

    def hooks(self, console: Console, state: State, human: int) -> TableHooks:
        return Hooks(console, state, human)


FACET = Countdown()


@pytest.fixture(autouse=True)
def _countdown() -> Iterator[None]:
    with registered(FAMILY):
        yield


def _play(argv: list[str], typed: str) -> tuple[int, list[str], str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(argv, stdin=io.StringIO(typed), stdout=out, stderr=err)
    return status, out.getvalue().splitlines(), err.getvalue()


def test_a_registered_game_is_offered() -> None:
    status, lines, _ = _play(["--help"], "")
    text = " ".join(" ".join(lines).split())
    assert status == 0
    assert "{kap-shap,kap-tai-shap,tsung-shap,countdown}" in text
    assert "Play Kap Shap, Kap Tai Shap, Tsung Shap or Countdown in the terminal" in text
    assert "which are for 2 players; 3 for Kap Tai Shap; 1 for Countdown)" in text


def test_a_game_is_played_through_its_hooks() -> None:
    # Seat 0 starts; "random" takes 1: 7 -2-> 5 -1-> 4 -1-> 3 -1-> 2 -2-> 0.
    typed = "help\n?\nleft\nmany\n5\n2\n1\n\n2\nn\n"
    status, lines, _ = _play(["--game", "countdown", "--seed", "4", "--ai", "random"], typed)
    assert status == 0
    assert lines[:3] == [
        "Countdown from 7 against random.",
        "",
        "=== Turn 1: your turn ===",
    ]
    prompt = [line for line in lines if line.startswith("> ")]
    assert prompt[:5] == ["> help", "> ?", "> left", "> many", "> 5"]
    assert "Whoever takes the last one wins." in lines
    assert "Legal: 1, 2" in lines
    assert "Still 7." in lines
    assert "! Cannot read 'many' as a number (type 'help' for the notation)" in lines
    assert "! You may not take 5 (type '?' for your legal moves)" in lines
    assert "! Type a move, or '?' for the legal moves" in lines  # an empty line: two moves
    assert lines.count("Bot 1 took 1.") == 2
    assert "Turn 2: Bot 1 to play." in lines
    assert "You took the last one." in lines
    assert lines[-1].startswith("Play another game with the same options? [y/N]")


def test_the_family_words_its_refusals() -> None:
    status, _, err = _play(["--game", "countdown", "--ai", "master"], "")
    assert status == 2
    assert err == (
        "kapshap play: error: Countdown has no level 'master': choose one of 'random', 'greedy'\n"
    )
    status, _, err = _play(["--game", "countdown", "--rule", "start=x"], "")
    assert (status, err) == (2, "kapshap play: error: unknown rule 'start=x'\n")


def test_the_set_up_asks_the_familys_questions() -> None:
    typed = "cd\n4\n3\n\nquit\n"
    status, lines, _ = _play(["--setup", "--seed", "1"], typed)
    text = "\n".join(lines)
    assert status == 0
    assert "Game: kap-shap, kap-tai-shap, tsung-shap or countdown [kap-shap]: cd" in text
    assert "Players (2 or 3) [2]: 4\n! Answer 2 or 3\nPlayers (2 or 3) [2]: 3" in text
    # The weakest level is the default (the ladder's beginner where a game has one).
    assert "Computer level: Random ('random'), Normal ('greedy') [random]: " in text
    assert "Countdown from 7 against random." in text
    assert "You leave the table; the game is abandoned." in text


def test_a_family_without_a_terminal_is_not_offered() -> None:
    with registered(NO_TERMINAL):
        assert terminal_of("test-pairs") is None
        status, _, err = _play(["--game", "test-pairs"], "")
    assert status == 2
    assert "argument --game: invalid choice: 'test-pairs'" in err
