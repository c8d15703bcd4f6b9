"""The compiled kernel (bot.games.collecting.sim.kernel) plays exactly the games of the pure-Python
fast path.

The fast path is itself proven equal to the engine's public API (tests/sim/test_fast_path.py),
so equal records here prove the kernel against the engine. Every preset and rule variant of
that test's cases, every level the kernel plays (greedy, expert and mixes), thousands of deals.
Then: the kernel deals as bot.games.dominoes.sim.seeding does, and ``kapshap sim`` prints the same
figures with
and without it, for any number of workers.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

pytest.importorskip("numba")

from bot.engine import RuleSet, deal_from_tiles, make_deal, make_rules, parse_tiles
from bot.games.collecting.sim import kernel
from bot.games.collecting.sim.fast import play_fast
from bot.games.collecting.sim.play import kernel_plays, play_reference
from bot.games.dominoes.sim.seeding import SplitMix64, deal_from_key, deal_key
from bot.sim.cli import main as sim_main
from bot.sim.runner import SimConfig, run
from bot.sim.stats import tally_games
from tests.sim.test_fast_path import CASES

KERNEL_LEVELS = ("greedy", "expert")


def _rules(case: tuple[str, int, str | None, int | None, dict[str, Any], int]) -> RuleSet:
    game, players, rule_set, sets, flags, _ = case
    return make_rules(game, players, rule_set, sets, **flags)


def _tables(players: int, deals: int) -> list[tuple[str, ...]]:
    out = [tuple([level] * players) for level in KERNEL_LEVELS]
    for i in range(deals - len(out)):
        out.append(tuple(KERNEL_LEVELS[(i >> (seat % 4)) & 1] for seat in range(players)))
    return out


def _deals(players: int) -> int:
    # Thousands of deals in all, most of them where games are cheap to replay in Python.
    return 160 if players <= 2 else (60 if players <= 5 else 12)


@pytest.mark.parametrize(
    "case", CASES, ids=lambda c: f"{c[0]}-{c[1]}-{c[2] or 'default'}-{c[3] or ''}-{c[4]}"
)
def test_the_kernel_plays_the_fast_path_games(
    case: tuple[str, int, str | None, int | None, dict[str, Any], int],
) -> None:
    rules = _rules(case)
    for index, levels in enumerate(_tables(rules.players, _deals(rules.players))):
        deal = make_deal(rules, random.Random(f"kernel:{index}"))
        fast = play_fast(rules, deal, levels, random.Random(0))
        assert kernel.play_deal(rules, deal, levels) == fast, (index, levels)


@pytest.mark.parametrize(
    "rules",
    [
        make_rules("kap-shap"),
        make_rules("kap-shap", rule_set="classic"),
        make_rules("kap-tai-shap", 10, "culin", 4),
        make_rules("kap-tai-shap", 10, "classic", 4),
    ],
    ids=lambda r: r.describe(),
)
def test_the_benchmark_configurations_over_a_thousand_deals(rules: RuleSet) -> None:
    # The configurations whose speed is measured are also the most thoroughly compared.
    games = 1000 if rules.players == 2 else 100
    for levels in (("greedy",) * rules.players, ("expert",) + ("greedy",) * (rules.players - 1)):
        keys = [deal_key(7, i) for i in range(games)]
        batch = kernel.play_batch(rules, levels, keys)
        for key, record in zip(keys, batch, strict=True):
            deal = deal_from_key(rules, key)
            assert record == play_fast(rules, deal, levels, random.Random(0)), (key, levels)


def test_the_kernel_matches_the_reference_path_directly() -> None:
    rules = make_rules("kap-tai-shap", 4)
    for index in range(20):
        deal = make_deal(rules, random.Random(index))
        levels = ("expert", "greedy", "expert", "greedy")
        assert kernel.play_deal(rules, deal, levels) == play_reference(
            rules, deal, levels, random.Random(0)
        )


def test_a_dealt_win_ends_the_kernel_game_alike() -> None:
    rules = make_rules("kap-shap")
    winner = parse_tiles("66 66 55 64 65 63 44 11")
    other = parse_tiles("22 22 31 31 61 61 52")
    deal = deal_from_tiles(rules, [winner, other], first_seat=0)
    record = kernel.play_deal(rules, deal, ("greedy", "expert"))
    assert record.win_by == "dealt"
    assert record == play_fast(rules, deal, ("greedy", "expert"), random.Random(0))


def test_the_kernel_refuses_levels_it_does_not_play() -> None:
    rules = make_rules("kap-shap")
    with pytest.raises(ValueError, match="cannot play"):
        kernel.play_deal(rules, make_deal(rules, random.Random(1)), ("greedy", "random"))


def test_splitmix64_is_the_reference_generator() -> None:
    # The first outputs of splitmix64 from state 0 (Vigna's reference implementation).
    rng = SplitMix64(0)
    assert rng.next() == 0xE220A8397B1DCDAF
    assert rng.next() == 0x6E789E6AA1B965F4


def test_the_kernel_deals_as_the_python_seeding() -> None:
    # Through play_batch: a different deal would (almost surely) give other records somewhere.
    for rules in (make_rules("kap-tai-shap", 5, first_player="lots"), make_rules("kap-shap")):
        levels = ("greedy",) * rules.players
        keys = [deal_key(-3, i) for i in range(200)]
        expected = [
            play_fast(rules, deal_from_key(rules, k), levels, random.Random(0)) for k in keys
        ]
        assert kernel.play_batch(rules, levels, keys) == expected
        assert len({deal_from_key(rules, k).order for k in keys}) == len(keys)


def _sim_json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> list[dict[str, Any]]:
    assert sim_main([*argv, "--json", "--no-progress"]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.strip()]
    for entry in out:
        entry.pop("games_per_second")  # the one figure that is a measurement of time
    return out


def test_kapshap_sim_prints_the_same_with_and_without_the_kernel(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["--game", "kap-shap", "--compare", "culin,classic", "--ai", "0=expert", "--ai",
            "1=greedy", "--games", "300", "--seed", "12"]  # fmt: skip
    config = SimConfig(make_rules("kap-shap"), ("expert", "greedy"))
    assert kernel_plays(config)
    with_kernel = _sim_json(capsys, argv)
    two_workers = _sim_json(capsys, [*argv, "--workers", "2"])
    monkeypatch.setenv("KAPSHAP_KERNEL", "0")
    assert not kernel_plays(config)
    without = _sim_json(capsys, argv)
    assert with_kernel == without == two_workers
    assert len(with_kernel) == 2


def test_runner_records_are_the_same_with_and_without_the_kernel(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    configs = [SimConfig(make_rules("kap-tai-shap", 6, "classic"), ("expert",) + ("greedy",) * 5)]
    fast_one = run(configs, 40, seed=3, workers=1)[0].records
    fast_two = run(configs, 40, seed=3, workers=2)[0].records
    monkeypatch.setenv("KAPSHAP_KERNEL", "0")
    slow = run(configs, 40, seed=3, workers=1)[0].records
    assert fast_one == fast_two == slow


def test_winning_takes_under_the_stall_guard_or_an_empty_wall_in_the_kernel() -> None:
    # The pinned games of tests/sim/test_fast_path.py in which only a winning take was allowed.
    from tests.sim.test_fast_path import WINS_ONLY_GAMES

    played = 0
    for rules, levels, seed, _ in WINS_ONLY_GAMES:
        if not set(levels) <= set(KERNEL_LEVELS):
            continue
        deal = make_deal(rules, random.Random(f"wins-only:{seed}"))
        record = kernel.play_deal(rules, deal, levels)
        assert record == play_fast(rules, deal, levels, random.Random(seed))
        assert record.win_by == "take"
        played += 1
    assert played >= 3


def test_without_numba_the_simulator_prints_the_same(capsys: pytest.CaptureFixture[str]) -> None:
    # A fresh interpreter in which numba cannot be imported: the Python paths, same figures,
    # and the master level still decides (its play-outs run uncompiled on numpy).
    import subprocess
    import sys
    from pathlib import Path

    argv = ["--ai", "0=expert", "--games", "60", "--seed", "4"]
    code = (
        "import sys; sys.modules['numba'] = None\n"
        "from bot.games.collecting.ai import kernel\n"
        "assert not kernel.available() and kernel.numpy_here()\n"
        "from bot.sim.cli import main\n"
        f"main({[*argv, '--json', '--no-progress']!r})\n"
        "import random\n"
        "from bot.engine import make_deal, make_rules\n"
        "from bot.games.collecting.sim.play import play_reference\n"
        "r = make_rules('kap-shap')\n"
        "deal = make_deal(r, random.Random(1))\n"
        "play_reference(r, deal, ('master', 'expert'), random.Random(2))\n"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True
    )
    without = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    for entry in without:
        entry.pop("games_per_second")
    assert without == _sim_json(capsys, argv)


@pytest.mark.parametrize("seed", [0, -3, 2**70 + 5])
def test_a_range_of_games_is_the_batch_of_their_keys(seed: int) -> None:
    # play_games computes the deal keys inside the kernel: the same games as play_batch of
    # bot.games.dominoes.sim.seeding.deal_key, and a tally equal to the records' one.
    for rules, levels in (
        (make_rules("kap-shap"), ("expert", "greedy")),
        (make_rules("kap-tai-shap", 6, "classic", first_player="lots"), ("greedy",) * 6),
    ):
        keys = [deal_key(seed, i) for i in range(37, 237)]
        expected = kernel.play_batch(rules, levels, keys)
        tally, records = kernel.play_games(rules, levels, seed, 37, 237, records=True)
        assert records == expected
        assert tally == tally_games(expected, rules.players)
        alone, none = kernel.play_games(rules, levels, seed, 37, 237, records=False)
        assert none is None
        assert alone == tally
