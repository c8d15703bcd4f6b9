"""High Pair in the simulator (``kapshap sim --game high-pair``): the toy gives no sim facet,
so the simulator's generic runner plays it through its engine and AI facets; the same seed gives
the same figures with one worker or two (fork), and the text report names the game."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from bot.games import registered
from bot.sim import cli
from tests.games.toy import TOY

GAME = "high-pair"
RUN = ["--game", GAME, "--games", "200", "--seed", "9", "--no-progress"]


@pytest.fixture(autouse=True)
def toy() -> Iterator[None]:
    with registered(TOY):
        yield


def _figures(value: Any) -> Any:
    """The figures of a report without its speed (which the same run does not repeat)."""
    if isinstance(value, dict):
        return {k: _figures(v) for k, v in value.items() if "per_second" not in k}
    if isinstance(value, list):
        return [_figures(v) for v in value]
    return value


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> list[dict[str, Any]]:
    status = cli.main([*RUN, "--json", *argv])
    out, err = capsys.readouterr()
    assert status == 0, err
    return [json.loads(line) for line in out.splitlines()]


def test_two_hundred_games_the_same_with_one_worker_or_two(
    capsys: pytest.CaptureFixture[str],
) -> None:
    [report] = _run(capsys, "--workers", "1")
    assert report["game"] == GAME and report["games"] == 200 and report["players"] == 2
    assert sum(report["seat_wins"]) == report["wins"] <= 200
    assert report["wins"] > 0  # greedy players show pairs: someone wins
    assert _figures(_run(capsys, "--workers", "1")) == _figures([report])
    assert _figures(_run(capsys, "--workers", "2")) == _figures([report])
    [random_players] = _run(capsys, "--workers", "1", "--ai", "random")
    assert _figures(random_players) != _figures(report)


def test_the_text_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([*RUN, "--workers", "1"]) == 0
    out, err = capsys.readouterr()
    # The game by its name (or title), its games and its seats' shares.
    assert re.match(r"(high-pair|High Pair), 2 players; 200 games", out), out
    assert "win share: seat 0 (first player)" in out
    assert cli.main([*RUN, "--workers", "1", "--ai", "master"]) == 2
    _, err = capsys.readouterr()
    assert "greedy" in err and len(err.strip().splitlines()) == 1
