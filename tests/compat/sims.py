"""``kapshap sim`` runs pinned by the compatibility tests: what is run, and its steady output.

Each :class:`SimCase` is one command line. It is run in this process through
:func:`bot.sim.cli.main` (as the installed command runs it), with the compiled kernel on or off
(``KAPSHAP_KERNEL``) and with one or two worker processes: docs/simulator.md promises the same
figures for every combination, so each combination is compared with the same pinned files.
The one figure that measures time (games per second) is left out of the comparison.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bot.sim.cli import main as sim_main

__all__ = ["CASES", "FORMATS", "RUNS", "SimCase", "SimRun", "kernel", "run", "steady_json"]


@dataclass(frozen=True, slots=True)
class SimCase:
    """One pinned command line (without the options the runs add)."""

    name: str
    argv: tuple[str, ...]


CASES = (
    SimCase(
        "kap-shap",
        ("--game", "kap-shap", "--ai", "0=expert", "--ai", "1=greedy", "--games", "400",
         "--seed", "11"),
    ),
    SimCase(
        "kap-tai-shap-5",
        ("--game", "kap-tai-shap", "--players", "5", "--compare", "culin,classic",
         "--games", "200", "--seed", "5"),
    ),
    SimCase(
        "kap-shap-random",
        ("--game", "kap-shap", "--ai", "random", "--ai", "1=greedy", "--compare",
         "culin,last-draw", "--rule", "max_turns=20", "--games", "300", "--seed", "2"),
    ),
    SimCase(
        "tsung-shap",
        ("--game", "tsung-shap", "--compare", "base,auto_capture+sweep_adds_pips",
         "--ai", "0=greedy", "--ai", "1=random", "--games", "40", "--seed", "3"),
    ),
)  # fmt: skip
"""Kap Shap (expert against greedy: both played by the kernel when it is on), Kap Tai Shap for
five comparing two rule sets, random players (never the kernel) under a turn cap, and Tsung Shap
comparing two variants (random players miss captures and claim them)."""

FORMATS = ("text", "json", "csv", "text-zh-TW")
"""What a run prints: the text report, ``--json``, ``--csv`` (the file) and the report in
Chinese."""


@dataclass(frozen=True, slots=True)
class SimRun:
    """One way of running a case: the kernel on or off, one or two workers, and the formats
    this run checks (every combination is checked in text or JSON, which both hold every
    figure; a run costs what its games cost, so not every format runs in every combination)."""

    kernel: bool
    workers: int
    formats: tuple[str, ...]

    @property
    def label(self) -> str:
        """``kernel-on-1-worker``."""
        return f"kernel-{'on' if self.kernel else 'off'}-{self.workers}-worker"


RUNS = (
    SimRun(True, 1, ("text", "csv", "text-zh-TW")),
    SimRun(True, 2, ("json",)),
    SimRun(False, 1, ("json", "csv")),
    SimRun(False, 2, ("text",)),
)
"""The combinations the tests run; the pins are made by the first."""


def pin_name(case: SimCase, fmt: str) -> str:
    """The pinned file of one case's output in one format."""
    suffix = {"text": "txt", "json": "jsonl", "csv": "csv", "text-zh-TW": "zh-TW.txt"}[fmt]
    return f"sim/{case.name}.{suffix}"


@contextlib.contextmanager
def kernel(on: bool) -> Iterator[None]:
    """The compiled kernel switched on (its default when numba is there) or off."""
    before = os.environ.get("KAPSHAP_KERNEL")
    os.environ["KAPSHAP_KERNEL"] = "1" if on else "0"
    try:
        yield
    finally:
        if before is None:
            del os.environ["KAPSHAP_KERNEL"]
        else:
            os.environ["KAPSHAP_KERNEL"] = before


_RATE_LINE = re.compile(r"^(games per second|每秒牌局數|每秒牌局数)\s+\S.*$\n?", re.MULTILINE)


def steady_text(text: str) -> str:
    """The report without its games-per-second row (wall-clock time: it varies run to run)."""
    stripped, count = _RATE_LINE.subn("", text)
    if count != 1:
        raise AssertionError(f"expected one games-per-second row in the report, found {count}")
    return stripped


def steady_json(text: str) -> str:
    """``--json`` lines without ``games_per_second``, in their original key order."""
    out = []
    for line in text.splitlines():
        entry = json.loads(line)
        del entry["games_per_second"]
        out.append(json.dumps(entry))
    return "\n".join(out) + "\n"


def _main(argv: list[str]) -> str:
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        status = sim_main(argv)
    if status != 0:
        raise AssertionError(f"kapshap sim {' '.join(argv)} exited with {status}")
    return buffer.getvalue()


def run(case: SimCase, how: SimRun) -> dict[str, str]:
    """The steady outputs of one case run one way, by format."""
    base = [*case.argv, "--workers", str(how.workers), "--no-progress"]
    out: dict[str, str] = {}
    with kernel(how.kernel), tempfile.TemporaryDirectory() as tmp:
        if "text" in how.formats or "csv" in how.formats:
            csv_path = Path(tmp) / "games.csv"
            extra = ["--csv", str(csv_path)] if "csv" in how.formats else []
            text = _main([*base, *extra])
            if "text" in how.formats:
                out["text"] = steady_text(text)
            if "csv" in how.formats:
                out["csv"] = csv_path.read_text(encoding="utf-8")
        if "json" in how.formats:
            out["json"] = steady_json(_main([*base, "--json"]))
        if "text-zh-TW" in how.formats:
            out["text-zh-TW"] = steady_text(_main([*base, "--lang", "zh-TW"]))
    return out
