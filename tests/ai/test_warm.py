"""The kernel compiled before anyone waits for it (bot.ai.warm): numba's own compile events tell
a real compile from a load out of the disk cache, and after the warm-up a master compiles
nothing more."""

from __future__ import annotations

import io
import random
import subprocess
import sys
from pathlib import Path

import pytest

from bot.ai import warm
from bot.engine import apply, legal_actions, make_deal, make_rules, new_game, view
from bot.games.collecting.ai.master import MasterPlayer

numba = pytest.importorskip("numba")

ROOT = Path(__file__).resolve().parents[2]

CACHED = """
import numba
from bot.ai.warm import announcing

@numba.njit(cache=True)
def twice(x):
    return 2 * x

with announcing(lambda: print("compiling")):
    print(twice(21))
"""


def test_announcing_tells_a_compile_from_a_load_out_of_the_cache(tmp_path: Path) -> None:
    script = tmp_path / "cached.py"
    script.write_text(CACHED)
    env = {"PATH": "/usr/bin:/bin", "NUMBA_CACHE_DIR": str(tmp_path / "cache")}

    def run() -> list[str]:
        done = subprocess.run(
            [sys.executable, str(script)],
            cwd=ROOT,
            env={**env, "PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
        )
        return done.stdout.split()

    assert run() == ["compiling", "42"]  # a cold cache: numba compiles, once
    assert run() == ["42"]  # the same function, loaded from the disk cache: not a word


def test_announcing_tells_once_and_not_without_a_compile() -> None:
    told: list[str] = []

    @numba.njit
    def add(a: int, b: int) -> int:
        return a + b

    @numba.njit
    def mul(a: int, b: int) -> int:
        return a * b

    with warm.announcing(lambda: told.append("compiling")):
        assert add(1, 2) == 3
        assert mul(2, 3) == 6
    assert told == ["compiling"]
    with warm.announcing(lambda: told.append("again")):
        assert add(4, 5) == 9  # compiled already
    assert told == ["compiling"]


def test_after_the_warm_up_a_master_compiles_nothing_more() -> None:
    for game in warm.MASTER_GAMES:
        warm.warm_master(game)
    told: list[str] = []
    with warm.announcing(lambda: told.append("compiling")):
        # Another game, other rules, more players than the warm-up's.
        rules = make_rules("kap-tai-shap", 4, exclude_own_discards=True)
        rng = random.Random(3)
        state = new_game(rules, [f"s{i}" for i in range(4)], make_deal(rules, rng))
        master = MasterPlayer(budget=24)
        for _ in range(30):
            if state.result is not None:
                break
            action = master.choose(view(state, state.current), legal_actions(state), rng)
            state, _ = apply(state, action)
    assert told == []


def test_the_background_compile_is_a_program_of_its_own() -> None:
    done = subprocess.run(
        warm.background_command(), cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""


def test_switches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KAPSHAP_WARM_KERNEL", "1")
    monkeypatch.delenv("KAPSHAP_KERNEL", raising=False)
    assert warm.background_wanted()
    monkeypatch.setenv("KAPSHAP_KERNEL", "0")  # no kernel: nothing to compile
    assert not warm.background_wanted()
    monkeypatch.delenv("KAPSHAP_KERNEL")
    monkeypatch.setenv("KAPSHAP_WARM_KERNEL", "0")
    assert not warm.background_wanted()


def _a_fresh_compile(*_: object) -> None:
    """A real compile by numba (a new function each time), in a fraction of a second: what a
    cold cache makes the kernel do, without its 15 s."""

    @numba.njit
    def fresh(x: int) -> int:
        return x + 1

    assert fresh(1) == 2


def _play(argv: list[str]) -> str:
    from bot.terminal import main

    out = io.StringIO()
    assert main(argv, stdin=io.StringIO("quit\n"), stdout=out, stderr=out) == 0
    return out.getvalue()


def test_kapshap_play_says_when_a_master_compiles_in_its_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(warm, "warm_master", _a_fresh_compile)
    out = _play(["--ai", "master", "--seed", "1", "--lang", "zh-TW"])
    first, _, rest = out.partition("\n")
    assert first == "正在編譯模擬核心（只需一次，約 15 秒）…"
    assert "正在編譯" not in rest
    out = _play(["--ai", "expert", "--seed", "1"])  # no master: nothing to compile
    assert "compiling" not in out


def test_kapshap_play_says_nothing_when_the_cache_is_warm() -> None:
    for game in warm.MASTER_GAMES:
        warm.warm_master(game)
    for game in ("kap-shap", "tsung-shap"):
        out = _play(["--game", game, "--ai", "master", "--seed", "2"])
        assert "compiling" not in out and "Legal" in out


def test_kapshap_sim_says_when_it_compiles_in_its_language(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.games.collecting.sim import kernel
    from bot.sim import cli

    quick = ["--games", "2", "--workers", "1", "--no-progress", "--json"]
    kernel.compile_kernel()  # loaded (or compiled) now: the run below compiles nothing
    assert cli.main([*quick, "--lang", "zh-CN"]) == 0
    assert "编译" not in capsys.readouterr().err
    monkeypatch.setattr(kernel, "compile_kernel", _a_fresh_compile)
    assert cli.main([*quick, "--lang", "zh-CN"]) == 0
    assert capsys.readouterr().err == "正在编译模拟内核（只需一次，约 15 秒）…\n"
    assert cli.main(quick) == 0
    assert capsys.readouterr().err == "compiling the simulation kernel once (about 15 s)…\n"
