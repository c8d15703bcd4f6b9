"""``kapshap sim --game tsung-shap``: the record, the runner, the summary and the CLI."""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path
from typing import Any

import pytest

from bot.ai.levels import player_for
from bot.engine import Tile, apply, legal_actions, make_deal, make_rules, new_game, view
from bot.games.fishing.engine import Captured, Claimed, deal_from_piles
from bot.games.fishing.sim.family import run_fishing
from bot.games.fishing.sim.play import FishingRecord, play_fishing
from bot.games.fishing.sim.stats import summarize_fishing
from bot.sim import cli
from bot.sim.runner import SimConfig, SimError

FISHING_KEYS = {
    "game",
    "variant",
    "flags",
    "games",
    "seed",
    "ai",
    "mean_score",
    "median_score",
    "p90_score",
    "max_score",
    "win_share",
    "draw_rate",
    "first_player_advantage",
    "captures_per_game",
    "missed_per_game",
    "claimed_per_game",
    "sweeps_per_game",
    "games_per_second",
}


def sim(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = cli.main([*argv, "--no-progress"])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def json_lines(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines() if line.strip()]


# ---------------------------------------------------------------------------------------------
# One game


@pytest.mark.parametrize("level", ["random", "greedy", "expert"])
def test_scores_are_the_sum_of_the_captured_points(level: str) -> None:
    rules = make_rules("tsung-shap")
    for index in range(8):
        record = play_fishing(
            rules, make_deal(rules, random.Random(index)), [level, level], random.Random(index)
        )
        assert record.scores == record.points
        assert (record.winner is None) == (record.scores[0] == record.scores[1])
        assert record.relative_scores[0] == record.scores[record.first_seat]
        assert record.sweeps >= 0 and record.turns >= 16


def test_record_matches_an_independent_replay() -> None:
    """Replaying the same deal and AI seed by hand gives the same scores and counts."""
    rules = make_rules("tsung-shap")
    deal = make_deal(rules, random.Random(11))
    record = play_fishing(rules, deal, ["random", "random"], random.Random(5))
    players = [player_for("tsung-shap", "random") for _ in range(2)]
    rng = random.Random(5)
    state = new_game(rules, ["a", "b"], deal)
    points = [0, 0]
    claims = 0
    while state.result is None:
        action = players[state.current].choose(
            view(state, state.current), legal_actions(state), rng
        )
        state, events = apply(state, action)
        for event in events:
            if isinstance(event, Captured):
                points[event.seat] += event.score
            elif isinstance(event, Claimed):
                points[event.seat] += event.combination.score
                claims += 1
    assert record.scores == state.result.scores == tuple(points)
    assert record.claimed == claims
    assert record.turns == state.result.turn


def test_a_known_deal_counts_a_pair() -> None:
    rules = make_rules("tsung-shap")
    # First player: 6-6; second player: 5-5 (laid right); first: 6-6 pairs the left end.
    deal = deal_from_piles(rules, [Tile(6, 6), Tile(6, 6)], [Tile(5, 5)])
    record = play_fishing(rules, deal, ["greedy", "greedy"], random.Random(0))
    assert record.pairs >= 1
    assert record.scores == record.points


def test_play_fishing_rejects_other_games() -> None:
    rules = make_rules("kap-shap")
    with pytest.raises(ValueError):
        play_fishing(rules, make_deal(rules, random.Random(0)), ["random"] * 2, random.Random(0))


# ---------------------------------------------------------------------------------------------
# Runner and summary


def configs(*flags: str) -> list[tuple[str, SimConfig]]:
    out = []
    for flag in flags:
        rules = make_rules("tsung-shap", **({flag: True} if flag != "base" else {}))
        out.append((flag, SimConfig(rules, ("random", "greedy"))))
    return out


def test_figures_do_not_depend_on_the_workers() -> None:
    one = run_fishing(configs("base", "auto_capture"), 60, 7, workers=1)
    two = run_fishing(configs("base", "auto_capture"), 60, 7, workers=2)
    assert [r.records for r in one] == [r.records for r in two]
    assert [r.variant for r in one] == ["base", "auto_capture"]


def test_variants_play_the_same_deals() -> None:
    base, auto = run_fishing(configs("base", "auto_capture"), 30, 3, workers=1)
    assert [r.first_seat for r in base.records] == [r.first_seat for r in auto.records]
    # Under auto_capture nothing can be missed.
    assert sum(r.missed for r in auto.records) == 0


def test_run_fishing_checks_levels_and_games() -> None:
    bad = [("base", SimConfig(make_rules("tsung-shap"), ("random", "nonsense")))]
    with pytest.raises(SimError, match="unknown AI level"):
        run_fishing(bad, 5, 1)
    with pytest.raises(SimError, match="at least 1"):
        run_fishing(configs("base"), 0, 1)


def record(first: int, scores: tuple[int, int], **counts: int) -> FishingRecord:
    winner = None if scores[0] == scores[1] else (0 if scores[0] > scores[1] else 1)
    values = dict(pairs=0, triplets=0, sweeps=0, missed=0, claimed=0, claimed_sweeps=0)
    values.update(counts)
    return FishingRecord(
        first_seat=first, scores=scores, winner=winner, turns=31, points=scores, **values
    )


def test_summary_counts_from_the_first_player() -> None:
    records = [
        record(0, (100, 40), pairs=2, missed=1),
        record(1, (100, 40), triplets=3, sweeps=1, claimed=1, claimed_sweeps=1),
        record(0, (60, 60)),
        record(1, (0, 30)),
    ]
    s = summarize_fishing(records)
    # First-player scores: 100, 40, 60, 30; second: 40, 100, 60, 0.
    assert s.mean_score == [57.5, 50.0]
    assert s.median_score == [50.0, 50.0]
    assert s.max_score == [100, 100]
    assert s.seat_wins == [2, 1]
    assert s.win_share == [0.5, 0.25]
    assert s.draw_rate == 0.25
    assert s.win_share_advantage == 0.25
    assert s.mean_score_difference == 7.5
    assert s.captures_per_game == {"pair": 0.5, "triplet": 0.75, "sweep": 0.25}
    assert s.missed_per_game == 0.25
    assert s.claimed_per_game == 0.25
    assert s.sweeps_per_game == 0.5
    assert s.difference_histogram == {-60: 1, 0: 1, 30: 1, 60: 1}


# ---------------------------------------------------------------------------------------------
# The CLI


def test_json_has_the_documented_keys(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = sim(["--game", "tsung-shap", "--games", "20", "--json"], capsys)
    assert status == 0, err
    (data,) = json_lines(out)
    assert set(data) >= FISHING_KEYS
    assert data["game"] == "tsung-shap" and data["variant"] == "base"
    assert len(data["mean_score"]) == len(data["win_share"]) == 2
    assert set(data["captures_per_game"]) == {"pair", "triplet", "sweep"}
    assert set(data["first_player_advantage"]) >= {"win_share", "mean_score_difference"}
    assert data["flags"]["game"] == "tsung-shap"
    assert abs(sum(data["win_share"]) + data["draw_rate"] - 1) < 1e-9


def test_json_identical_for_one_and_two_workers(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["--game", "tsung-shap", "--games", "40", "--json", "--ai", "random", "--seed", "9"]
    _, one, _ = sim([*base, "--workers", "1"], capsys)
    _, two, _ = sim([*base, "--workers", "2"], capsys)
    strip = [{k: v for k, v in d.items() if k != "games_per_second"} for d in json_lines(one)]
    also = [{k: v for k, v in d.items() if k != "games_per_second"} for d in json_lines(two)]
    assert strip == also


def test_compare_gives_one_result_per_variant(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--game", "tsung-shap", "--games", "20", "--ai", "random"]
    variants = "base,auto_capture,sweep_adds_pips+triplet_both_ends_only"
    status, out, err = sim([*argv, "--compare", variants, "--json"], capsys)
    assert status == 0, err
    data = json_lines(out)
    assert [d["variant"] for d in data] == variants.split(",")
    assert data[1]["flags"]["auto_capture"] is True
    assert data[2]["flags"]["sweep_adds_pips"] and data[2]["flags"]["triplet_both_ends_only"]
    assert data[1]["missed_per_game"] == 0
    status, out, err = sim([*argv, "--compare", "base,auto_capture"], capsys)
    assert status == 0, err
    header = next(line for line in out.splitlines() if "auto_capture" in line and "base" in line)
    assert header.split() == ["base", "auto_capture"]
    assert "first-player advantage: win share" in out
    assert "claimed captures per game" in out


def test_rule_flags_reach_every_variant(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--game", "tsung-shap", "--games", "5", "--json", "--rule", "four_two_value=3"]
    status, out, err = sim([*argv, "--compare", "base,auto_capture"], capsys)
    assert status == 0, err
    assert all(d["flags"]["four_two_value"] == "3" for d in json_lines(out))


def test_plot_and_csv_are_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")  # skipped only when the sim extra is truly absent
    png = tmp_path / "diff.png"
    table = tmp_path / "games.csv"
    argv = ["--game", "tsung-shap", "--games", "15", "--compare", "base,auto_capture"]
    status, _, err = sim([*argv, "--plot", str(png), "--csv", str(table)], capsys)
    assert status == 0, err
    assert png.read_bytes().startswith(b"\x89PNG")
    rows = list(csv.DictReader(table.open(encoding="utf-8")))
    assert len(rows) == 30
    assert {r["variant"] for r in rows} == {"base", "auto_capture"}
    for row in rows:
        assert int(row["score_first"]) - int(row["score_second"]) == int(row["difference"])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "3"], "exactly 2 players"),
        (["--sets", "2"], "exactly one set"),
        (["--rules", "culin"], "--rules does not apply to tsung-shap"),
        (["--compare", "base,culin"], "'culin' is not a Tsung Shap variant"),
        (["--compare", "base,base"], "twice"),
        (["--compare", "auto_capture+auto_capture"], "twice"),
        (["--ai", "godlike"], "unknown AI level 'godlike'"),
        (["--rule", "auto_capture=maybe"], "auto_capture"),
        (["--plot", "out.jpg"], ".png"),
    ],
)
def test_bad_options_are_one_line_errors(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = sim(["--game", "tsung-shap", "--games", "3", *argv], capsys)
    assert status == 2
    assert out == ""
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_collecting_compare_is_unchanged(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = sim(["--games", "5", "--compare", "base,auto_capture"], capsys)
    assert status == 2
    assert "unknown rule set 'base'" in err
