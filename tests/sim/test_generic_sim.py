"""``kapshap sim`` for a game whose family gives no sim facet (bot.sim.generic): played through
the family's engine and AI facets alone, the same figures for the same seed whatever the
workers, and a report in text, JSON, CSV and a chart.

The family here is a tiny game of the tests, *Take Away*: a pile of stones, each player in turn
takes one or two, and whoever takes the last stone wins (with ``scored``, the stones each player
took are his points). It gives an engine and an AI facet (and no sim or terminal role).
"""

from __future__ import annotations

import csv
import json
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from bot.engine.deal import Deal
from bot.engine.errors import RulesError
from bot.engine.family import Standing
from bot.games import FamilyInfo, GameInfo, registered
from bot.sim import cli, generic
from bot.sim.family import sim_of
from bot.sim.runner import SimConfig, facet_for, run

GAME = "test-take-away"


@dataclass(frozen=True)
class Rules:
    game: str = GAME
    players: int = 2
    stones: int = 9
    scored: bool = False
    rake_percent: int = 0
    pot_carries_over: bool = False
    settlement: str = "pot"
    settle_rate: int = 1

    def flags(self) -> dict[str, Any]:
        return {"game": self.game, "players": self.players, "stones": self.stones}

    def describe(self) -> str:
        return f"Take Away, {self.stones} stones"


@dataclass(frozen=True)
class Result:
    winner: int | None


@dataclass(frozen=True)
class State:
    rules: Rules
    seats: tuple[str, ...]
    current: int
    turn: int
    left: int
    taken: tuple[int, ...]
    result: Result | None = None


class _TakeAway:
    """The engine and AI facets of Take Away (render is named, never called here)."""

    # -- engine
    def rule_sets(self, game: str) -> tuple[str, ...]:
        return ("short", "long")

    def make_rules(
        self,
        game: str,
        players: int | None = None,
        rule_set: str | None = None,
        sets: int | None = None,
        **flags: Any,
    ) -> Rules:
        if rule_set not in (None, "short", "long"):
            raise RulesError(f"unknown rule set '{rule_set}': choose one of short, long")
        if sets is not None:
            raise RulesError("Take Away has no sets")
        return Rules(players=players or 2, stones=15 if rule_set == "long" else 9)

    def with_flag(self, rules: Rules, name: str, value: str) -> Rules:
        if name == "stones":
            return replace(rules, stones=int(value))
        if name == "scored":
            return replace(rules, scored=value == "true")
        raise RulesError(f"unknown rule flag '{name}'")

    def deal(self, rules: Rules, rng: random.Random, thrower: int = 0) -> Deal:
        return Deal(order=(), first_seat=rng.randrange(rules.players))

    def new_game(self, rules: Rules, seats: Sequence[str], deal: Deal) -> State:
        return State(rules, tuple(seats), deal.first_seat, 1, rules.stones, (0,) * rules.players)

    def legal_actions(self, state: State) -> list[int]:
        return [] if state.result is not None else [n for n in (1, 2) if n <= state.left]

    def apply(self, state: State, action: int) -> tuple[State, list[Any]]:
        taken = list(state.taken)
        taken[state.current] += action
        left = state.left - action
        result = Result(state.current) if left == 0 else None
        after = replace(
            state,
            left=left,
            taken=tuple(taken),
            result=result,
            current=state.current if result else (state.current + 1) % state.rules.players,
            turn=state.turn if result else state.turn + 1,
        )
        return after, [(state.current, action)]

    def view(self, state: State, seat: int | None) -> State:
        return state

    def standing(self, state: State) -> Standing:
        assert state.result is not None
        scores = state.taken if state.rules.scored else None
        return Standing(winner=state.result.winner, scores=scores, ranks=None)

    # -- AI
    def levels(self, game: str) -> tuple[str, ...]:
        return ("random", "greedy")

    def player(self, game: str, level: str) -> Any:
        return _Greedy() if level == "greedy" else _Random()


class _Random:
    def choose(self, view: State, legal: Sequence[int], rng: random.Random) -> int:
        return rng.choice(list(legal))


class _Greedy:
    def choose(self, view: State, legal: Sequence[int], rng: random.Random) -> int:
        # Leave the other a multiple of three when it can.
        good = [n for n in legal if (view.left - n) % 3 == 0]
        return good[0] if good else rng.choice(list(legal))


FACET = _TakeAway()
FAMILY = FamilyInfo(
    name="test-take-away",
    games=(
        GameInfo(
            name=GAME,
            family="test-take-away",
            title="Take Away",
            short="Take Away",
            table_choice="Take Away (2-4 players)",
            event_choice=None,
            players=(2, 4),
            default_seats=2,
        ),
    ),
    roles={"engine": __name__, "ai": __name__, "render": __name__},
)


@pytest.fixture(autouse=True)
def take_away() -> Iterator[None]:
    with registered(FAMILY):
        yield


def sim(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = cli.main(["--game", GAME, "--no-progress", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def figures(entries: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in e.items() if k != "games_per_second"} for e in entries]


def test_a_family_without_a_sim_role_is_played_by_the_fallback() -> None:
    assert sim_of(GAME) is None
    assert facet_for(GAME) is generic.FACET
    assert facet_for("kap-shap") is sim_of("kap-shap")


def test_the_same_seed_gives_the_same_figures_whatever_the_workers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["--games", "300", "--seed", "4", "--json", "--compare", "short,long"]
    status, out, err = sim(capsys, *argv, "--workers", "1")
    assert status == 0, err
    one = [json.loads(line) for line in out.splitlines()]
    assert [e["rules"] for e in one] == ["short", "long"]
    assert [e["games"] for e in one] == [300, 300]
    for entry in one:
        assert entry["game"] == GAME and entry["ai"] == ["greedy", "greedy"]
        assert sum(entry["seat_wins"]) == entry["wins"] == 300  # someone takes the last stone
        assert sum(entry["turn_histogram"].values()) == 300
        assert entry["mean_score"] is None  # no points kept
    # Greedy players: the first player wins 9 stones (a multiple of three) only by luck, and
    # 15 too; the second wins both whenever the first cannot leave a multiple of three.
    assert one[0]["seat_wins"][1] > one[0]["seat_wins"][0]
    status, out, _ = sim(capsys, *argv, "--workers", "2")
    assert status == 0
    assert figures([json.loads(line) for line in out.splitlines()]) == figures(one)
    status, out, _ = sim(capsys, "--games", "300", "--seed", "5", "--json", "--compare", "short")
    assert figures([json.loads(out)]) != figures(one[:1])


def test_the_runner_keeps_the_records_in_game_order() -> None:
    config = SimConfig(FACET.make_rules(GAME), ("random", "greedy"))
    [kept] = run([config], 40, seed=3, workers=1, labels=["short"])
    [again] = run([config], 40, seed=3, workers=2, keep_records=False)
    assert kept.label == "short" and len(kept.records) == 40
    assert again.records == () and again.tally == kept.tally
    assert [r.first_seat for r in kept.records] == [
        generic.play_one(config, 3, index).first_seat for index in range(40)
    ]


def test_the_text_report_and_the_points(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = sim(capsys, "--games", "50", "--ai", "random", "--rule", "scored=true")
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0] == (
        f"{GAME}, 2 players; 50 games per rule set, seed 1; AI by seat: random (every seat)"
    )
    assert "win share: seat 0 (first player)" in out
    assert "win share: seat 1 (1 after the first)" in out
    assert "mean score: seat 1 (1 after the first)" in out
    status, out, _ = sim(capsys, "--games", "50", "--ai", "random", "--lang", "zh-TW")
    assert status == 0
    assert "每局手數" in out and "和局" in out and "turns per game" not in out
    assert "平均分數" not in out  # no points kept: no score rows


def test_csv_and_plot(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    rows_path, chart = tmp_path / "games.csv", tmp_path / "turns.png"
    argv = ["--games", "20", "--players", "3", "--rule", "scored=true"]
    status, _, err = sim(capsys, *argv, "--csv", str(rows_path), "--plot", str(chart))
    assert status == 0, err
    with rows_path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert tuple(rows[0]) == generic.CSV_COLUMNS
    assert [r["index"] for r in rows] == [str(i) for i in range(20)]
    assert all(r["players"] == "3" and len(r["scores"].split("/")) == 3 for r in rows)
    assert all(sum(map(int, r["scores"].split("/"))) == 9 for r in rows)
    assert chart.read_bytes().startswith(b"\x89PNG")


def test_bad_options_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = sim(capsys, "--ai", "master")
    assert status == 2
    assert err == "kapshap sim: error: unknown AI level 'master': choose one of greedy, random\n"
    status, _, err = sim(capsys, "--compare", "short,culin")
    assert status == 2
    assert err == (
        "kapshap sim: error: --compare: unknown rule set 'culin': choose from short, long\n"
    )
    status, _, err = sim(capsys, "--sets", "2")
    assert (status, err) == (2, "kapshap sim: error: Take Away has no sets\n")
