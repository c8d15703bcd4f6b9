"""Ctrl+C in a ``kapshap`` command: one line on stderr, exit status 130, no traceback, and no
worker process left behind. The subprocess tests send a real SIGINT to the command's whole
process group, as a terminal does."""

from __future__ import annotations

import asyncio
import os
import select
import signal
import subprocess
import sys
import time
import types
from pathlib import Path

import pytest

from bot import cli

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="reads /proc and sends SIGINT to a group"
)


def _children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (from /proc, which every Linux has)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # it ended while we looked
            continue
        # "pid (name) state ppid ...": the name may hold spaces, so split after its ")".
        if int(stat.rpartition(")")[2].split()[1]) == pid:
            found.add(int(entry.name))
    return found


def _start(*args: str, stdin: int | None = None) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "bot", *args],
        cwd=ROOT,
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group, like a job in a terminal
    )


def _interrupt(process: subprocess.Popen[bytes]) -> tuple[str, str]:
    """Ctrl+C to the whole group; the command's stdout and stderr once it has ended."""
    os.killpg(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=120)
    return out.decode(), err.decode()


def test_ctrl_c_in_sim_ends_in_one_line_and_stops_the_workers() -> None:
    process = _start("sim", "--games", "50000000", "--workers", "2", "--no-progress")
    try:
        # Wait for the workers (after a first compile of the kernel, if numba is installed).
        deadline = time.monotonic() + 300
        workers: set[int] = set()
        while len(workers) < 2 and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
            workers = _children(process.pid)
        assert len(workers) == 2, process.stderr.read() if process.poll() is not None else ""
        out, err = _interrupt(process)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert [line for line in err.splitlines() if "compil" not in line] == [
        "kapshap sim: error: interrupted"
    ], err
    assert out == ""
    assert not [pid for pid in workers if Path(f"/proc/{pid}").exists()]


def test_ctrl_c_at_the_play_prompt() -> None:
    process = _start("play", "--seed", "1", stdin=subprocess.PIPE)
    try:
        assert process.stdout is not None
        seen = b""
        deadline = time.monotonic() + 120
        while not seen.endswith(b"> ") and time.monotonic() < deadline:
            ready, _, _ = select.select([process.stdout], [], [], 1.0)
            if ready:
                chunk = os.read(process.stdout.fileno(), 4096)
                if not chunk:
                    break
                seen += chunk
        assert seen.endswith(b"> "), seen.decode()
        out, err = _interrupt(process)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, err
    assert err == "", err
    assert out.strip().splitlines()[-1] == "Interrupted: the game is abandoned."


def test_an_interrupt_a_library_turns_into_another_error_is_still_an_interrupt(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """numba, interrupted while it writes its cache, reports the KeyboardInterrupt of a ctypes
    callback as "Exception ignored" and raises a RuntimeError of its own: still one line."""

    class Callback:
        def __del__(self) -> None:
            # Ctrl+C arrives while a ctypes callback runs: Python reports it through
            # sys.unraisablehook, and the caller never sees it.
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)  # the signal arrives at the next bytecode; never sleeps this long

    def compile_kernel(argv: list[str]) -> int:
        callback = Callback()
        del callback
        raise RuntimeError("no compiled object yet")

    module = types.ModuleType("bot.sim.cli")
    module.main = compile_kernel  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bot.sim.cli", module)
    previous, previous_hook = signal.getsignal(signal.SIGINT), sys.unraisablehook
    try:
        assert cli.main(["sim"]) == 130
        assert capsys.readouterr().err == "kapshap sim: interrupted\n"
        assert signal.getsignal(signal.SIGINT) is previous  # put back for whoever called main()
    finally:
        sys.unraisablehook = previous_hook  # kept by main() after an interrupt: the process ends


def test_an_interrupt_swallowed_in_a_callback_still_stops_the_command(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Sometimes numba goes on compiling after the callback swallowed Ctrl+C: the interrupt is
    delivered again, and the command stops instead of running to its end."""

    class Callback:
        def __del__(self) -> None:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)

    def simulate(argv: list[str]) -> int:
        callback = Callback()
        del callback
        for _ in range(600):  # a long run, which the interrupt must cut short
            time.sleep(0.1)
        return 0

    module = types.ModuleType("bot.sim.cli")
    module.main = simulate  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bot.sim.cli", module)
    assert cli.main(["sim"]) == 130
    assert capsys.readouterr().err == "kapshap sim: interrupted\n"


def test_ctrl_c_stops_the_bot_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``kapshap run``: Ctrl+C stops the bot as SIGTERM does (KapBot.shutdown; discord.py's
    ``Client.run`` would return 0 without a word), and exits 130; Discord itself is out of reach
    here, so ``start`` waits where it would be connected."""
    from bot.app import KapBot

    async def connected(self: KapBot, token: str, *, reconnect: bool = True) -> None:
        os.kill(os.getpid(), signal.SIGINT)
        await asyncio.sleep(30)  # cancelled once the bot has stopped

    monkeypatch.setattr(KapBot, "start", connected)
    monkeypatch.setenv("DISCORD_TOKEN", "token")
    monkeypatch.setenv("KAPSHAP_DB_PATH", str(tmp_path / "kap.db"))
    previous = signal.getsignal(signal.SIGINT)
    assert cli.main(["run", "--env-file", str(tmp_path / "missing.env")]) == 130
    err = capsys.readouterr().err
    # The log says how the stop went (a clean stop, KapBot.shutdown); the command's own line last.
    assert err.endswith("INFO kapshap: stopped cleanly\nkapshap run: stopped\n"), err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert signal.getsignal(signal.SIGINT) is previous


def test_ctrl_c_stops_the_demo_in_one_line(tmp_path: Path) -> None:
    pytest.importorskip("aiohttp")
    process = _start("demo", "--port", "0", "--data-dir", str(tmp_path))
    try:
        assert process.stdout is not None
        line = process.stdout.readline().decode()  # "… open http://127.0.0.1:PORT/ …"
        assert "http://127.0.0.1:" in line, line
        _, err = _interrupt(process)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, err
    assert err == "kapshap demo: stopped\n", err


REVIEW_THEN_WAIT = """
import asyncio, sys
from bot.services.replays import LoadedGame, ReplayService, ReviewService
from tests.engine.test_record import random_game

async def main() -> None:
    reviews = ReviewService(ReplayService(None), workers=2, rollouts=1)
    try:
        async def report(progress: object) -> None:
            pass

        game = LoadedGame("abc123", 42, random_game(0, 2), (1000, None))
        await reviews.review(game, 0, report)
        print("reviewed", flush=True)
        await asyncio.sleep(120)
    finally:
        reviews.close()

try:
    asyncio.run(main())
except KeyboardInterrupt:
    print("stopped", file=sys.stderr)
"""


def test_ctrl_c_reaches_the_bot_not_its_review_workers() -> None:
    """The bot's review pool (spawned processes) is in the bot's process group: Ctrl+C must
    leave its workers quiet (each used to print a KeyboardInterrupt traceback)."""
    process = subprocess.Popen(
        [sys.executable, "-c", REVIEW_THEN_WAIT],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        assert process.stdout is not None
        assert process.stdout.readline() == b"reviewed\n", process.stderr
        workers = _children(process.pid)
        assert workers  # the pool's processes (and its resource tracker)
        _, err = _interrupt(process)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert err == "stopped\n", err
