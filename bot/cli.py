"""The ``kapshap`` command: ``run | demo | play | sim | db | sync | ratings``.

Each subcommand is a thin dispatcher: everything after the subcommand's name is handed, unparsed,
to the ``main(argv) -> int`` of the module that implements it, so ``kapshap sim --help`` shows the
simulator's own help. The module is imported only when its subcommand runs, so ``kapshap sim`` or
``kapshap play`` never import discord.py. Keep the imports at the top of this file standard
library only (``tests/test_dependencies.py`` enforces it).
"""

from __future__ import annotations

import _thread
import argparse
import contextlib
import importlib
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

__all__ = ["COMMANDS", "Command", "main"]

DISTRIBUTION = "kapshap-bot"


@dataclass(frozen=True)
class Command:
    """A subcommand and the module whose ``main(argv) -> int`` implements it."""

    name: str
    module: str
    summary: str
    entry: str = "main"


COMMANDS: tuple[Command, ...] = (
    Command("run", "bot.app", "run the Discord bot (needs DISCORD_TOKEN)"),
    Command("demo", "bot.demo", "try the bot in your browser on a built-in Discord (no token)"),
    Command("play", "bot.terminal", "play in the terminal against computer players"),
    Command("learn", "bot.terminal.learn", "short interactive lessons for each game"),
    Command("sim", "bot.sim.cli", "simulate many games and print statistics"),
    Command(
        "db",
        "bot.services.dbtool",
        "manage the database (check, repair, backups, migrations, copies)",
    ),
    Command(
        "sync",
        "bot.app",
        "publish the slash commands to Discord (needs DISCORD_TOKEN)",
        "sync_main",
    ),
    Command("ratings", "bot.services.ratings_cli", "recompute the skill ratings (rebuild)"),
    Command("record", "bot.records_cli", "export a stored game as a record", "main_record"),
    Command("replay", "bot.records_cli", "step through a game record", "main_replay"),
    Command("review", "bot.records_cli", "review a seat's decisions in a record", "main_review"),
    Command("analyse", "bot.records_cli", "each legal action's chance to win", "main_analyse"),
    Command("puzzle", "bot.puzzles_cli", "solve puzzles in the terminal", "main_puzzle"),
    Command("puzzles", "bot.puzzles_cli", "build a game's puzzle set (puzzles build)"),
)


def package_version() -> str:
    """The installed version of the package, or ``"unknown"`` when it is not installed."""
    # Imported here: the fewer imports before main() installs its Ctrl+C handler, the shorter
    # the moment in which Ctrl+C still prints Python's own traceback.
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kapshap",
        description=(
            "Kap Shap, Kap Tai Shap and Tsung Shap: Discord bot, terminal game and simulator."
        ),
        epilog="Run 'kapshap COMMAND --help' for the options of a command.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {package_version()}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for command in COMMANDS:
        # add_help=False: '--help' after the command belongs to the delegated module.
        subparsers.add_parser(
            command.name, help=command.summary, description=command.summary, add_help=False
        )
    return parser


def _split(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """Split at the subcommand: ``(global options + command, the command's own arguments)``."""
    for index, arg in enumerate(argv):
        if not arg.startswith("-"):
            return list(argv[: index + 1]), list(argv[index + 1 :])
    return list(argv), []


def _is_missing(error: ModuleNotFoundError, module: str) -> bool:
    """Whether ``error`` is about ``module`` (or a package above it) being absent."""
    name = error.name or ""
    return bool(name) and (module == name or module.startswith(name + "."))


def _load(command: Command) -> Callable[[list[str]], object] | None:
    try:
        module = importlib.import_module(command.module)
    except ModuleNotFoundError as error:
        if not _is_missing(error, command.module):
            raise  # something the module imports is missing: a real error, keep the traceback
        print(
            f"kapshap {command.name}: not available yet ({command.module} is not implemented)",
            file=sys.stderr,
        )
        return None
    entry = getattr(module, command.entry, None)
    if not callable(entry):
        print(
            f"kapshap {command.name}: {command.module} has no {command.entry}(argv)",
            file=sys.stderr,
        )
        return None
    return entry  # type: ignore[no-any-return]


def _exit_status(exit_: SystemExit) -> int:
    code = exit_.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


INTERRUPTED = 130
"""The exit status after Ctrl+C (128 + SIGINT), as a shell reports it."""


class _Interrupt:
    """Ctrl+C for the whole command. Python's own handler stays (``asyncio.run`` needs it to
    stop a bot gracefully); this only sees to it that whatever the interrupt turns into on its
    way out ends as one line and :data:`INTERRUPTED`, not a traceback. A library may meet it
    in a callback from C (numba writing its disk cache), where Python reports it as "Exception
    ignored" and carries on: it is delivered again a moment later, outside the callback."""

    REDELIVERY_DELAY = 0.05
    """Seconds before an interrupt swallowed in a callback is delivered again."""

    def __init__(self) -> None:
        self.seen = False
        self._lock = threading.Lock()
        self._closed = False
        self._redelivery: threading.Timer | None = None

    def caused(self, error: BaseException) -> bool:
        """Whether ``error`` is an interrupt, or was raised because of one."""
        seen: set[int] = set()
        cause: BaseException | None = error
        while cause is not None and id(cause) not in seen:
            if isinstance(cause, KeyboardInterrupt):
                return True
            seen.add(id(cause))
            cause = cause.__cause__ or cause.__context__
        return self.seen

    def settle(self) -> None:
        """The interrupt is being reported: a second Ctrl+C would only cut the line short."""
        self.seen = True
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, signal.SIG_IGN)

    def unraisable(
        self, previous: Callable[[sys.UnraisableHookArgs], object]
    ) -> Callable[[sys.UnraisableHookArgs], object]:
        def hook(unraisable: sys.UnraisableHookArgs) -> None:
            if isinstance(unraisable.exc_value, KeyboardInterrupt):
                self.seen = True
                self._deliver_again()
            elif not self.seen:
                previous(unraisable)

        return hook

    def _deliver_again(self) -> None:
        # Not from here: the hook runs inside the callback, which would swallow it again.
        with self._lock:
            if self._closed or (self._redelivery is not None and self._redelivery.is_alive()):
                return
            self._redelivery = threading.Timer(self.REDELIVERY_DELAY, self._interrupt_main)
            self._redelivery.daemon = True
            self._redelivery.start()

    def _interrupt_main(self) -> None:
        with self._lock:
            if not self._closed:
                _thread.interrupt_main()

    def close(self) -> None:
        """No more redelivery; one made just now is taken here, not by whoever called main()."""
        with self._lock:
            self._closed = True
            timer = self._redelivery
        if timer is None:
            return
        timer.cancel()
        timer.join()
        with contextlib.suppress(KeyboardInterrupt):
            _pending_signals_run_here()


def _pending_signals_run_here() -> None:
    """Nothing: a call, at whose start Python runs the signal handlers still pending."""


@contextlib.contextmanager
def _interrupt_guard() -> Iterator[_Interrupt]:
    """:class:`_Interrupt` for one command; the SIGINT handler is put back at the end (tests
    call :func:`main` in-process)."""
    guard = _Interrupt()
    previous_handler = signal.getsignal(signal.SIGINT)
    previous_hook = sys.unraisablehook
    sys.unraisablehook = guard.unraisable(previous_hook)
    try:
        yield guard
    finally:
        guard.close()
        if not guard.seen:
            sys.unraisablehook = previous_hook
        # After an interrupt the hook stays: a process ends after it, and the destructors of
        # a compile cut short still complain at exit ("Exception ignored in ... __del__").
        elif threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, previous_handler)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``kapshap`` script and of ``python -m bot``; returns the exit status.

    ``SystemExit`` raised by argparse (``--help``, ``--version``, usage errors), here or in the
    delegated module, is turned into the returned status. Ctrl+C anywhere (an import, a
    compile, the command itself) ends with one line on stderr and :data:`INTERRUPTED`; a
    command that catches it itself returns :data:`INTERRUPTED` after its own line.
    """
    args = sys.argv[1:] if argv is None else list(argv)
    with _interrupt_guard() as guard:
        try:
            status = _dispatch(args)
        except BaseException as error:
            if isinstance(error, SystemExit) or not guard.caused(error):
                raise
        else:
            if not guard.seen or status == INTERRUPTED:
                return status
            # An interrupt swallowed twice over, and the command ran to its end: still the
            # user asked it to stop.
        guard.settle()
        head, _ = _split(args)
        known = bool(head) and head[-1] in {c.name for c in COMMANDS}
        print(
            f"kapshap {head[-1]}: interrupted" if known else "kapshap: interrupted", file=sys.stderr
        )
        return INTERRUPTED


def _dispatch(args: list[str]) -> int:
    head, rest = _split(args)
    parser = build_parser()
    try:
        namespace = parser.parse_args(head)
    except SystemExit as exit_:
        return _exit_status(exit_)
    if namespace.command is None:
        parser.print_help(sys.stderr)
        return 2
    command = next(c for c in COMMANDS if c.name == namespace.command)
    entry = _load(command)
    if entry is None:
        return 2
    try:
        status = entry(rest)
    except SystemExit as exit_:
        return _exit_status(exit_)
    if status is None:
        return 0
    if isinstance(status, bool) or not isinstance(status, int):
        raise TypeError(f"{command.module}.main returned {status!r}, expected an int")
    return status
