"""``kapshap sim``: play many games and print statistics (docs/simulator.md).

Results go to stdout (a readable table, or one JSON object per configuration with ``--json``);
the progress bar and error messages go to stderr. A bad option is one line on stderr and exit
status 2, never a traceback.

The command is blind to the games: the options (:mod:`bot.sim.arguments`) name a game, whose
family's sim facet (:func:`bot.sim.runner.facet_for`; the generic fallback for a family without
one) turns them into configurations, plays them through :func:`bot.sim.runner.run` and words the
report. ``--game tsung-shap`` reports scores instead of winning turns, and its ``--compare``
compares variants (flag sets, e.g. ``base,auto_capture,sweep_adds_pips``) rather than rule sets.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from bot.engine.errors import RulesError
from bot.locale import N_, lang_of_args, recognize, t
from bot.locale.refusals import RULES_REFUSALS
from bot.sim.arguments import DEFAULT_GAMES, PROG, build_parser
from bot.sim.options import (
    DEFAULT_AI,
    PLOT_EXTRA_HELP,
    UsageError,
    check_output,
    need_matplotlib,
)
from bot.sim.runner import SimError, default_workers, facet_for, run

if TYPE_CHECKING:
    from bot.sim.family import GameSim

__all__ = [
    "DEFAULT_AI",
    "DEFAULT_GAMES",
    "PLOT_EXTRA_HELP",
    "PROG",
    "RULES_REFUSALS",
    "UsageError",
    "build_parser",
    "main",
]

PROGRESS_DELAY = 2.0  # seconds before the progress bar appears: short runs stay quiet


class _Bar:
    """The tqdm progress bar, created only when the run starts (after worker processes)."""

    def __init__(self, enabled: bool, stream: TextIO) -> None:
        self.enabled = enabled
        self.stream = stream
        self.bar: Any = None

    def start(self, total: int) -> None:
        if not self.enabled:
            return
        from tqdm import tqdm

        self.bar = tqdm(
            total=total, unit="game", file=self.stream, delay=PROGRESS_DELAY, leave=False
        )

    def advance(self, games: int) -> None:
        if self.bar is not None:
            self.bar.update(games)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


# ---------------------------------------------------------------------------------------------
# Entry point


# ---------------------------------------------------------------------------------------------
# Entry point


#: The simulator's own refusals of its options, as it words them: ``--lang`` tells them in
#: Chinese when recognized (argparse's complaints and the operating system's stay English). A
#: family's own refusals are its sim facet's (:attr:`bot.sim.family.GameSim.refusals`).
_ERRORS = (
    N_("use either --rules or --compare, not both"),
    N_("--compare needs rule set names, e.g. culin,classic,last-draw"),
    N_("--compare: unknown rule set '{name}': choose from {known}"),
    N_("--compare lists a rule set twice"),
    N_("--rule expects NAME=VALUE, not '{spec}'"),
    N_("--ai expects LEVEL or SEAT=LEVEL, not '{text}'"),
    N_("--ai: there is no seat {seat} (seats are 0 to {last})"),
    N_(
        "the default AI level '{level}' is not available; choose one with --ai (known levels: "
        "{known})"
    ),
    N_("unknown AI level '{level}': choose one of {known}"),
    N_("{option} writes a {kind} file: give a {suffix} name"),
    N_("{option}: directory '{parent}' does not exist"),
    N_("{option}: '{path}' is a directory"),
    N_("interrupted"),
)


def _compiling(locale: str) -> None:
    """Say why the first run on a fresh machine waits before its first game."""
    print(t(locale, "compiling the simulation kernel once (about 15 s)…"), file=sys.stderr)


def _fail(message: str, status: int = 2, locale: str = "en", facet: GameSim | None = None) -> int:
    if locale != "en":
        own = () if facet is None else facet.refusals
        known = recognize(message, (*_ERRORS, *own, *RULES_REFUSALS))
        if known is not None:
            message = known.localized(locale)
    print(t(locale, "{prog}: error: {message}", prog=PROG, message=message), file=sys.stderr)
    return status


def main(argv: list[str] | None = None) -> int:
    """Run ``kapshap sim`` with ``argv`` (the arguments after ``sim``); returns the exit status."""
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else argv
    lang = lang_of_args(argv)
    facet: GameSim | None = None
    try:
        args = parser.parse_args(argv)
        facet = facet_for(args.game)
        configs = facet.configs(args.game, args)
        csv_path = check_output(args.csv, "--csv")
        plot_path = check_output(args.plot, "--plot", ".png")
        if plot_path is not None:
            need_matplotlib()
    except SystemExit as exit_:  # --help
        return exit_.code if isinstance(exit_.code, int) else 0
    except (UsageError, RulesError) as error:
        return _fail(str(error), locale=lang, facet=facet)
    workers = args.workers or default_workers()
    bar = _Bar(not args.no_progress, sys.stderr)
    try:
        results = run(
            [config for _, config in configs],
            args.games,
            args.seed,
            workers,
            bar,
            csv_path is not None,
            on_compile=lambda: _compiling(lang),
            labels=[label for label, _ in configs],
        )
    except SimError as error:
        return _fail(str(error), locale=lang, facet=facet)
    except KeyboardInterrupt:
        return _fail("interrupted", 130, lang)
    finally:
        bar.close()
    outcomes = facet.outcomes(results)
    return _emit(
        [json.dumps(entry) for entry in facet.to_json(outcomes, args.seed)]
        if args.json
        else [facet.report(outcomes, args.seed, args.lang)],
        lambda path: facet.write_csv(outcomes, args.seed, path),
        lambda path: facet.plot(outcomes, path),
        csv_path,
        plot_path,
    )


def _emit(
    lines: list[str],
    write_csv_file: Callable[[Path], object],
    write_plot_file: Callable[[Path], object],
    csv_path: Path | None,
    plot_path: Path | None,
) -> int:
    """Print the results, then write the requested files; the exit status."""
    try:
        for line in lines:
            print(line)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader left (e.g. `| head`): not an error worth a traceback; the files still get
        # written. Point stdout at devnull so that the interpreter's final flush stays quiet.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    try:
        if csv_path is not None:
            write_csv_file(csv_path)
        if plot_path is not None:
            write_plot_file(plot_path)
    except OSError as error:
        return _fail(f"cannot write {error.filename or 'the output file'}: {error.strerror}", 1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
