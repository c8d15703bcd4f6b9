"""Partial statistics (bot.sim.stats.GameTally, FishingTally): merged in any chunk order they give
exactly the figures of the records, floats to the last bit; runs that keep only tallies print
the same report as runs that keep every record, for any number of workers."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import astuple
from pathlib import Path
from typing import TypeVar

import pytest

from bot.engine import make_rules
from bot.games.fishing.sim.family import run_fishing
from bot.games.fishing.sim.play import FishingRecord
from bot.games.fishing.sim.stats import (
    FishingTally,
    summarize_fishing,
    summarize_fishing_tally,
    tally_fishing,
)
from bot.sim import cli
from bot.sim.record import GameRecord
from bot.sim.runner import SimConfig, run
from bot.sim.stats import GameTally, summarize, summarize_tally, tally_games

_T = TypeVar("_T")


def _game_records(rng: random.Random, players: int, games: int, wins: float) -> list[GameRecord]:
    out = []
    for _ in range(games):
        first = rng.randrange(players)
        takes = rng.randrange(12)
        pool = rng.randrange(40) * (takes > 0)
        if rng.random() < wins:
            winner = rng.randrange(players)
            how = rng.choice(("dealt", "take", "draw"))
            turns = 1 if how == "dealt" else rng.randrange(1, 400)
            out.append(GameRecord(first, winner, "declared", how, turns, takes, pool))
        else:
            reason = rng.choice(("wall", "cap"))
            out.append(GameRecord(first, None, reason, None, rng.randrange(30, 500), takes, pool))
    return out


def _fishing_records(rng: random.Random, games: int) -> list[FishingRecord]:
    out = []
    for _ in range(games):
        scores = (rng.randrange(-20, 200), rng.randrange(-20, 200))
        winner = None if scores[0] == scores[1] else int(scores[1] > scores[0])
        counts = [rng.randrange(8) for _ in range(6)]
        out.append(
            FishingRecord(rng.randrange(2), scores, winner, *counts, rng.randrange(10, 40), scores)
        )
    return out


def _chunks(items: Sequence[_T], rng: random.Random) -> list[Sequence[_T]]:
    cuts = sorted(rng.sample(range(1, len(items)), min(len(items) - 1, rng.randrange(1, 30))))
    bounds = [0, *cuts, len(items)]
    return [items[a:b] for a, b in itertools.pairwise(bounds)]


@pytest.mark.parametrize("players", [2, 3, 6, 10])
def test_merged_tallies_give_exactly_the_summary_of_the_records(players: int) -> None:
    rng = random.Random(players)
    for games, wins in ((1, 1.0), (1, 0.0), (7, 0.5), (500, 0.9), (3_001, 0.6), (200, 0.0)):
        records = _game_records(rng, players, games, wins)
        expected = summarize(records, players)
        whole = tally_games(records, players)
        assert summarize_tally(whole) == expected
        # Chunks tallied apart and merged in a shuffled order: the same tally, the same floats.
        parts = [tally_games(chunk, players) for chunk in _chunks(records, rng)]
        rng.shuffle(parts)
        merged = GameTally(players)
        for part in parts:
            merged.merge(part)
        assert merged == whole
        got = summarize_tally(merged)
        assert got == expected
        assert repr(astuple(got)) == repr(astuple(expected))  # e.g. 0.0 and -0.0 alike


def test_fishing_tallies_give_exactly_the_summary_of_the_records() -> None:
    rng = random.Random(5)
    for games in (1, 2, 9, 400, 2_500):
        records = _fishing_records(rng, games)
        expected = summarize_fishing(records)
        parts = [tally_fishing(chunk) for chunk in _chunks(records, rng)]
        rng.shuffle(parts)
        merged = FishingTally()
        for part in parts:
            merged.merge(part)
        assert merged == tally_fishing(records)
        got = summarize_fishing_tally(merged)
        assert got == expected
        assert repr(astuple(got)) == repr(astuple(expected))


def test_an_empty_tally_has_no_summary() -> None:
    with pytest.raises(ValueError, match="no games"):
        summarize_tally(GameTally(2))
    with pytest.raises(ValueError, match="no games"):
        summarize_fishing_tally(FishingTally())
    with pytest.raises(ValueError, match="player counts"):
        GameTally(2).merge(GameTally(3))


def test_a_tally_is_small_whatever_the_games() -> None:
    # What a worker sends back for a chunk: its size does not grow with the games counted.
    import pickle

    rng = random.Random(1)
    small = tally_games(_game_records(rng, 4, 100, 0.7), 4)
    large = tally_games(_game_records(rng, 4, 20_000, 0.7), 4)
    assert len(pickle.dumps(large)) < 5_000
    assert pickle.loads(pickle.dumps(small)) == small


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_runs_without_records_tally_what_runs_with_them_play(workers: int) -> None:
    configs = [
        SimConfig(make_rules("kap-shap"), ("random", "greedy")),
        SimConfig(make_rules("kap-tai-shap", 3, "classic"), ("random",) * 3),
    ]
    kept = run(configs, 45, seed=8, workers=1)
    tallied = run(configs, 45, seed=8, workers=workers, keep_records=False)
    for a, b in zip(kept, tallied, strict=True):
        assert b.records == ()
        assert a.tally == b.tally == tally_games(a.records, a.config.rules.players)
        assert summarize_tally(b.tally) == summarize(a.records, a.config.rules.players)
        assert b.games_per_second > 0


@pytest.mark.parametrize("workers", [1, 2])
def test_fishing_runs_without_records(workers: int) -> None:
    configs = [("base", SimConfig(make_rules("tsung-shap"), ("random", "greedy")))]
    [kept] = run_fishing(configs, 30, 2, workers=1)
    [tallied] = run_fishing(configs, 30, 2, workers=workers, keep_records=False)
    assert tallied.records == ()
    assert tallied.tally == kept.tally == tally_fishing(kept.records)


def test_the_report_is_the_same_with_and_without_a_csv(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # --csv keeps every record; without it the run keeps only tallies: the same report.
    argv = ["--game", "kap-tai-shap", "--players", "4", "--compare", "culin,classic",
            "--games", "90", "--seed", "3", "--no-progress"]  # fmt: skip
    reports = []
    for extra in ([], ["--csv", str(tmp_path / "games.csv")], ["--workers", "2"]):
        assert cli.main([*argv, *extra]) == 0
        out = capsys.readouterr().out
        reports.append([line for line in out.splitlines() if "games per second" not in line])
    assert reports[0] == reports[1] == reports[2]
    rows = (tmp_path / "games.csv").read_text(encoding="utf-8").splitlines()
    assert len(rows) == 1 + 2 * 90
