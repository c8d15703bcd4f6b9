"""``kapshap sim``'s options as every game reads them: a bad option is a :class:`UsageError`
(one line on stderr and exit status 2, never a traceback), ``--rule NAME=VALUE`` flags,
``--ai LEVEL|SEAT=LEVEL`` levels by seat, ``--compare`` names and the output files.

A family's :meth:`bot.sim.family.GameSim.configs` turns the options into its configurations
with these helpers; what they mean for one game (its rule sets, its variants) is the family's.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from bot.sim.config import SimError, check_levels, known_levels

__all__ = [
    "DEFAULT_AI",
    "PLOT_EXTRA_HELP",
    "UsageError",
    "check_output",
    "flag_overrides",
    "levels",
    "need_matplotlib",
    "rule_names",
]

DEFAULT_AI = "greedy"
"""The computer level of every seat ``--ai`` does not name."""

PLOT_EXTRA_HELP = (
    "--plot needs matplotlib, an optional part of the simulator: install it with "
    "pip install 'kapshap-bot[sim]' (from a checkout: pip install -e '.[sim]')"
)


class UsageError(Exception):
    """A bad option: reported as one line and exit status 2."""


def rule_names(args: argparse.Namespace, known: Sequence[str]) -> list[str | None]:
    """The rule sets a run plays: ``--rules`` (None: the game's default) or each of
    ``--compare``'s, checked against the game's ``known`` rule sets."""
    if args.compare is None:
        return [args.rules]
    if args.rules is not None:
        raise UsageError("use either --rules or --compare, not both")
    names = [n.strip() for n in str(args.compare).split(",") if n.strip()]
    if not names:
        raise UsageError("--compare needs rule set names, e.g. culin,classic,last-draw")
    for name in names:
        if name not in known:
            choices = ", ".join(known)
            raise UsageError(f"--compare: unknown rule set '{name}': choose from {choices}")
    if len(set(names)) != len(names):
        raise UsageError("--compare lists a rule set twice")
    return list(names)


def flag_overrides(texts: Sequence[str]) -> list[tuple[str, str]]:
    """``--rule NAME=VALUE`` options as (flag, text) pairs, in order."""
    overrides = []
    for text in texts:
        name, sep, value = text.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"--rule expects NAME=VALUE, not '{text}'")
        # Accept the spelling of the CLI (four-two-value) as well as the flag's (four_two_value).
        overrides.append((name.strip().replace("-", "_"), value.strip()))
    return overrides


def levels(texts: Sequence[str], players: int, game: str) -> tuple[str, ...]:
    """``--ai`` options as one level per seat (seat-list order), checked against the game's."""
    every: str | None = None
    seats: dict[int, str] = {}
    for text in texts:
        seat_text, sep, level = text.partition("=")
        if not sep:
            every = text.strip()
            continue
        try:
            seat = int(seat_text)
        except ValueError:
            raise UsageError(f"--ai expects LEVEL or SEAT=LEVEL, not '{text}'") from None
        if not 0 <= seat < players:
            raise UsageError(f"--ai: there is no seat {seat} (seats are 0 to {players - 1})")
        seats[seat] = level.strip()
    chosen = tuple(seats.get(seat, every or DEFAULT_AI) for seat in range(players))
    known = known_levels(game)
    if every is None and DEFAULT_AI in chosen and DEFAULT_AI not in known:
        raise UsageError(
            f"the default AI level '{DEFAULT_AI}' is not available; choose one with --ai "
            f"(known levels: {', '.join(known)})"
        )
    try:
        check_levels(chosen, game)
    except SimError as error:
        raise UsageError(str(error)) from None
    return chosen


def check_output(path_text: str | None, option: str, suffix: str | None = None) -> Path | None:
    """The file an output option names, or None; UsageError when it cannot be written there."""
    # Checked before the run so that a typo does not cost a long simulation.
    if path_text is None:
        return None
    path = Path(path_text)
    if suffix is not None and path.suffix.lower() != suffix:
        raise UsageError(f"{option} writes a {suffix[1:].upper()} file: give a {suffix} name")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise UsageError(f"{option}: directory '{parent}' does not exist")
    if path.is_dir():
        raise UsageError(f"{option}: '{path}' is a directory")
    return path


def need_matplotlib() -> None:
    """Refuse ``--plot`` before the simulation runs when matplotlib is not installed."""
    try:
        import matplotlib  # noqa: F401  (only whether it imports)
    except ImportError:
        raise UsageError(PLOT_EXTRA_HELP) from None
