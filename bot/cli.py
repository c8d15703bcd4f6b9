"""The ``kapshap`` command: ``run | demo | play | sim | db | sync | ratings``.

Each subcommand is a thin dispatcher: everything after the subcommand's name is handed, unparsed,
to the ``main(argv) -> int`` of the module that implements it, so ``kapshap sim --help`` shows the
simulator's own help. The module is imported only when its subcommand runs, so ``kapshap sim`` or
``kapshap play`` never import discord.py. Keep the imports at the top of this file standard
library only (``tests/test_dependencies.py`` enforces it).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version

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
    Command("sim", "bot.sim.cli", "simulate many games and print statistics"),
    Command(
        "db", "bot.services.dbtool", "manage the database (check, repair, backups, migrations)"
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
)


def package_version() -> str:
    """The installed version of the package, or ``"unknown"`` when it is not installed."""
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


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``kapshap`` script and of ``python -m bot``; returns the exit status.

    ``SystemExit`` raised by argparse (``--help``, ``--version``, usage errors), here or in the
    delegated module, is turned into the returned status.
    """
    args = sys.argv[1:] if argv is None else list(argv)
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
    except KeyboardInterrupt:
        print(f"kapshap {command.name}: interrupted", file=sys.stderr)
        return 130
    if status is None:
        return 0
    if isinstance(status, bool) or not isinstance(status, int):
        raise TypeError(f"{command.module}.main returned {status!r}, expected an int")
    return status
