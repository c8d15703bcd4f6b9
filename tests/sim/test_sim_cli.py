"""``kapshap sim`` (bot.sim.cli.main): options, errors, outputs."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.games.collecting.ai.base import RandomPlayer
from bot.games.collecting.ai.levels import AI_LEVELS
from bot.games.collecting.sim.report import CSV_COLUMNS
from bot.sim import cli, options

REQUIRED_KEYS = {
    "game",
    "rules",
    "players",
    "sets",
    "games",
    "seed",
    "mean_turn",
    "median_turn",
    "mean_round",
    "round1_win_rate",
    "draw_rate",
    "seat_win_share",
    "win_by",
    "games_per_second",
}
OTHER_KEYS = {
    "ai",
    "wins",
    "win_rate",
    "cap_rate",
    "p10_turn",
    "p25_turn",
    "p75_turn",
    "p90_turn",
    "histogram",
    "seat_wins",
    "chi2",
    "win_by_count",
    "takes_per_game",
    "mean_pool_at_take",
    "oracle",
    "flags",
}
QUICK = ["--ai", "random", "--no-progress"]


def sim(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = cli.main([*QUICK, *argv])
    out, err = capsys.readouterr()
    return status, out, err


def sim_json(capsys: pytest.CaptureFixture[str], *argv: str) -> list[dict[str, Any]]:
    status, out, err = sim(capsys, "--json", *argv)
    assert status == 0, err
    return [json.loads(line) for line in out.splitlines()]


def test_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: kapshap sim")
    for option in ("--game", "--players", "--sets", "--rules", "--rule", "--ai", "--games"):
        assert option in out
    for option in ("--seed", "--workers", "--json", "--csv", "--plot", "--compare"):
        assert option in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "mahjong"], "invalid choice: 'mahjong'"),
        (["--players", "3"], "Kap Shap is for exactly 2 players"),
        (["--sets", "2"], "exactly one set"),
        (["--game", "kap-tai-shap", "--players", "10", "--sets", "1"], "too few to deal"),
        (["--games", "0"], "must be at least 1"),
        (["--games", "many"], "expected a whole number"),
        (["--workers", "0"], "must be at least 1"),
        (["--seed", "x"], "expected a whole number"),
        (["--rules", "house"], "invalid choice: 'house'"),
        (["--rule", "max_turns"], "--rule expects NAME=VALUE"),
        (["--rule", "=3"], "--rule expects NAME=VALUE"),
        (["--rule", "colour=red"], "unknown rule flag 'colour'"),
        (["--rule", "max_turns=lots"], "max_turns must be a whole number"),
        (["--rule", "offer=sometimes"], "offer must be one of any, last"),
        (["--ai", "wizard"], "unknown AI level 'wizard'"),
        (["--ai", "2=random"], "there is no seat 2"),
        (["--ai", "left=random"], "--ai expects LEVEL or SEAT=LEVEL"),
        (["--compare", "culin,house"], "unknown rule set 'house'"),
        (["--compare", "culin,culin"], "twice"),
        (["--compare", ","], "needs rule set names"),
        (["--rules", "culin", "--compare", "classic"], "either --rules or --compare"),
        (["--plot", "turns.jpg"], "give a .png name"),
        (["--plot", "no/such/dir/turns.png"], "does not exist"),
        (["--csv", "no/such/dir/games.csv"], "does not exist"),
        (["--bogus"], "unrecognized arguments: --bogus"),
    ],
)
def test_bad_options_are_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = sim(capsys, "--games", "1", *argv)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1, err
    assert err.startswith("kapshap sim: error: ")
    assert message in err
    assert "Traceback" not in err


def test_default_level_must_exist(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(options, "DEFAULT_AI", "grandmaster")
    assert cli.main(["--games", "1", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "the default AI level 'grandmaster' is not available" in err
    assert "--ai" in err
    # Naming every seat's level means the default is not needed.
    assert cli.main(["--games", "1", "--no-progress", "--ai", "0=random", "--ai", "1=random"]) == 0


def test_default_level_is_greedy(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    if "greedy" not in AI_LEVELS:  # until bot.ai registers it, stand in for it
        monkeypatch.setitem(AI_LEVELS, "greedy", RandomPlayer)
    assert cli.main(["--games", "2", "--workers", "1", "--json", "--no-progress"]) == 0
    assert json.loads(capsys.readouterr().out)["ai"] == ["greedy", "greedy"]


def test_json_keys_and_values(capsys: pytest.CaptureFixture[str]) -> None:
    [data] = sim_json(capsys, "--games", "60", "--seed", "3", "--workers", "1")
    assert set(data) >= REQUIRED_KEYS | OTHER_KEYS
    assert data["game"] == "kap-shap"
    assert data["rules"] == "culin"
    assert (data["players"], data["sets"], data["games"], data["seed"]) == (2, 1, 60, 3)
    assert data["ai"] == ["random", "random"]
    assert len(data["seat_win_share"]) == 2
    assert set(data["win_by"]) == {"dealt", "take", "draw"}
    assert sum(data["win_by_count"].values()) == data["wins"] == sum(data["seat_wins"])
    assert sum(data["histogram"].values()) == data["wins"]
    assert data["win_rate"] + data["draw_rate"] + data["cap_rate"] == pytest.approx(1)
    assert data["flags"]["offer"] == "any"
    assert data["flags"]["max_turns"] == 100
    assert set(data["chi2"]) == {"statistic", "df", "p_value"}
    assert set(data["oracle"]) >= {"observed", "exact", "z", "dealt_wins"}
    assert data["games_per_second"] > 0


def test_rule_flags_and_seat_levels(capsys: pytest.CaptureFixture[str]) -> None:
    [data] = sim_json(
        capsys,
        "--games", "10", "--workers", "1", "--rules", "classic",
        "--rule", "max-turns=7", "--rule", "four_two_value=6", "--ai", "1=random",
    )  # fmt: skip
    assert data["rules"] == "classic"
    assert data["flags"]["max_turns"] == 7
    assert data["flags"]["four_two_value"] == "6"
    assert data["oracle"]["exact_fraction"] == "287/40455"  # 74 620 / 10 518 300 with 4-2 = 6


def test_kap_tai_shap(capsys: pytest.CaptureFixture[str]) -> None:
    [data] = sim_json(
        capsys, "--game", "kap-tai-shap", "--players", "5", "--games", "6", "--workers", "1"
    )
    assert (data["game"], data["players"], data["sets"], data["rules"]) == (
        "kap-tai-shap",
        5,
        2,
        "classic",
    )
    assert len(data["seat_win_share"]) == 5
    assert data["chi2"]["df"] == 4


def test_figures_do_not_depend_on_workers(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--games", "80", "--seed", "9", "--compare", "culin,classic"]
    one = sim_json(capsys, *argv, "--workers", "1")
    two = sim_json(capsys, *argv, "--workers", "2")
    for a, b in zip(one, two, strict=True):
        a.pop("games_per_second")
        b.pop("games_per_second")
        assert a == b
    # ...while another seed gives other figures.
    other = sim_json(capsys, "--games", "80", "--seed", "10", "--rules", "culin")
    other[0].pop("games_per_second")
    assert other[0] != one[0]


def test_compare_runs_each_rule_set_on_the_same_deals(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "games.csv"
    lines = sim_json(
        capsys, "--games", "30", "--workers", "2", "--compare", "culin,classic,last-draw",
        "--csv", str(path),
    )  # fmt: skip
    assert [d["rules"] for d in lines] == ["culin", "classic", "last-draw"]
    assert all(d["games"] == 30 for d in lines)
    with path.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    first_seats = {
        name: [r["first_seat"] for r in rows if r["rules"] == name]
        for name in ("culin", "classic", "last-draw")
    }
    assert first_seats["culin"] == first_seats["classic"] == first_seats["last-draw"]
    # Same deals: a dealt win is a property of the deal, so it happens in the same games.
    dealt = {
        name: [r["index"] for r in rows if r["rules"] == name and r["win_by"] == "dealt"]
        for name in ("culin", "classic", "last-draw")
    }
    assert dealt["culin"] == dealt["classic"] == dealt["last-draw"]


def test_csv_rows(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "games.csv"
    [data] = sim_json(capsys, "--games", "40", "--seed", "5", "--workers", "1", "--csv", str(path))
    with path.open(newline="") as handle:
        reader = csv.reader(handle)
        header = next(reader)
        rows = [dict(zip(header, row, strict=True)) for row in reader]
    assert tuple(header) == CSV_COLUMNS
    assert len(rows) == 40
    assert [r["index"] for r in rows] == [str(i) for i in range(40)]
    assert {r["game"] for r in rows} == {"kap-shap"}
    assert {r["rules"] for r in rows} == {"culin"}
    assert {r["seed"] for r in rows} == {"5"}
    assert {r["ai"] for r in rows} == {"random/random"}
    won = [r for r in rows if r["winner"] != ""]
    assert len(won) == data["wins"]
    assert sum(1 for r in rows if r["reason"] == "wall") / 40 == data["draw_rate"]
    for r in won:
        relative = (int(r["winner"]) - int(r["first_seat"])) % 2
        assert int(r["winner_relative"]) == relative
        assert r["win_by"] in {"dealt", "take", "draw"}
        assert int(r["round"]) == -(-int(r["turns"]) // 2)
    for r in rows:
        if r["winner"] == "":
            assert r["winner_relative"] == r["win_by"] == r["round"] == ""
    assert sum(int(r["takes"]) for r in rows) / 40 == pytest.approx(data["takes_per_game"])
    seat0 = sum(1 for r in won if r["winner_relative"] == "0")
    assert data["seat_wins"][0] == seat0


def test_plot_writes_a_png(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")  # skipped only when the sim extra is truly absent
    path = tmp_path / "turns.png"
    status, out, _ = sim(
        capsys, "--games", "30", "--workers", "1", "--compare", "culin,classic",
        "--plot", str(path),
    )  # fmt: skip
    assert status == 0
    assert "culin" in out
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert path.stat().st_size > 5_000


def test_plot_without_matplotlib_says_which_extra_to_install(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # `import matplotlib` now fails
    path = tmp_path / "turns.png"
    status, out, err = sim(capsys, "--games", "5", "--workers", "1", "--plot", str(path))
    assert status == 2 and out == ""
    assert "--plot needs matplotlib" in err and "kapshap-bot[sim]" in err
    assert err.count("\n") == 1 and not path.exists()


def test_text_report(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = sim(
        capsys, "--games", "20", "--workers", "1", "--compare", "culin,last-draw"
    )
    assert status == 0
    assert err == ""
    assert out.startswith("kap-shap, 2 players, 1 set; 20 games per rule set, seed 1")
    header = next(line for line in out.splitlines() if "culin" in line and "last-draw" in line)
    assert header.split() == ["culin", "last-draw"]
    for label in (
        "winning turn T: mean",
        "won in round 1",
        "drawn: wall exhausted",
        "win share: seat 0 (first player)",
        "equal seats: chi2",
        "exact probability",
        "games per second",
    ):
        assert label in out


def test_command_line_module(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot.sim.cli", *QUICK, "--games", "12", "--workers", "2", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert json.loads(done.stdout)["games"] == 12
    bad = subprocess.run(
        [sys.executable, "-m", "bot.sim.cli", "--players", "9"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert bad.stderr == "kapshap sim: error: Kap Shap is for exactly 2 players, not 9\n"


def test_kapshap_sim_dispatches_here(capsys: pytest.CaptureFixture[str]) -> None:
    from bot import cli as kapshap

    assert kapshap.main(["sim", *QUICK, "--games", "3", "--workers", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 3
