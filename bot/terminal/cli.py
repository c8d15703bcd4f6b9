"""The command line of ``kapshap play``: its options, their checks, and the games played one
after another until the player stops."""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NoReturn, TextIO

from bot.ai.levels import playable_levels
from bot.engine.errors import EngineError
from bot.engine.family import engine_of
from bot.games import GameInfo, default_game, find, games
from bot.locale import LOCALES, N_, lang_of_args, recognize
from bot.locale import t as tr
from bot.locale.refusals import RULES_REFUSALS
from bot.terminal.console import isatty, one_line
from bot.terminal.setup import Setup, default_level, playable
from bot.terminal.table import play

__all__ = ["PROG", "build_parser", "main"]

PROG = "kapshap play"


class _UsageError(Exception):
    """A bad command-line option; the message is one line for the user.

    Raised with a message id and its values (:meth:`text` words it in the table's language),
    or with argparse's own English line.
    """

    def __init__(self, msgid: str, /, **values: Any) -> None:
        super().__init__(msgid.format(**values) if values else msgid)
        self.msgid = msgid
        self.values = values

    def text(self, locale: str) -> str:
        """The message in ``locale``."""
        return tr(locale, self.msgid, **self.values)


class _Parser(argparse.ArgumentParser):
    """An argument parser that raises instead of printing usage and exiting."""

    def error(self, message: str) -> NoReturn:
        raise _UsageError(message)


def _listed(words: list[str], last: str = "or") -> str:
    """``a, b or c`` (``a, b and c``)."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {last} {words[-1]}"


def _default_opponents(known: Mapping[str, object]) -> str:
    """Each game's default number of opponents, the games for a fixed number of players
    together: ``1 for Kap Shap and Tsung Shap, which are for 2 players; 3 for Kap Tai Shap``."""
    groups: dict[int | str, list[GameInfo]] = {}  # players of a fixed size, or a game's name
    for info in games():
        if info.name in known:
            low, high = info.players
            groups.setdefault(low if low == high else info.name, []).append(info)
    words = []
    for key, infos in groups.items():
        names = [info.short for info in infos]
        if isinstance(key, int):
            which = "which is" if len(names) == 1 else "which are"
            words.append(f"{key - 1} for {_listed(names, 'and')}, {which} for {key} players")
        else:
            words.append(f"{infos[0].default_seats - 1} for {names[0]}")
    return "; ".join(words)


def build_parser() -> argparse.ArgumentParser:
    """The options of ``kapshap play``."""
    known = playable()
    titles = [info.short for info in games() if info.name in known]
    parser = _Parser(
        prog=PROG,
        add_help=False,
        description=(
            f"Play {_listed(titles)} in the terminal against computer "
            "players. "
            "Type 'help' during the game for the notation and the rules in force."
        ),
    )
    parser.add_argument("-h", "--help", action="store_true", help="show this help and exit")
    parser.add_argument(
        "--game",
        choices=list(known),
        default=default_game(),
        help=f"which game (default: {default_game()})",
    )
    rule_sets = list(dict.fromkeys(name for g, f in known.items() for name in f.rule_sets(g)))
    parser.add_argument(
        "--rules",
        choices=rule_sets,
        default=None,
        help="rule set (default: culin; classic for Kap Tai Shap with 5 or more players)",
    )
    parser.add_argument(
        "--opponents",
        type=int,
        default=None,
        metavar="N",
        help=f"number of computer players (default: {_default_opponents(known)})",
    )
    parser.add_argument(
        "--ai",
        default=None,
        metavar="LEVEL",
        help="computer level (default: greedy if available, else random)",
    )
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set one rule flag, e.g. --rule exclude_own_discards=true (repeatable)",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed for a repeatable game")
    parser.add_argument("--name", default=None, help="your name (default: You)")
    parser.add_argument(
        "--seat", type=int, default=0, help="your seat, counted in play order from 0 (default: 0)"
    )
    parser.add_argument(
        "--setup",
        action="store_true",
        help="ask for the game, rule set, opponents and level before playing",
    )
    parser.add_argument(
        "--lang",
        choices=LOCALES,
        default="en",
        help="language of the table: en, zh-TW (Traditional Chinese), zh-CN (Simplified)",
    )
    return parser


@dataclass(frozen=True)
class _Config:
    rules: Any
    level: str
    name: str
    seat: int
    seed: int | None


def _configure(args: argparse.Namespace) -> _Config:
    """Build the rule set and check the options; raises with a one-line message."""
    game: str = args.game
    locale: str = args.lang
    engine = engine_of(game)
    terminal = playable()[game]
    opponents: int = args.opponents if args.opponents is not None else find(game).default_seats - 1
    if opponents < 1:
        raise _UsageError(N_("--opponents must be at least 1, not {n}"), n=opponents)
    rules = engine.make_rules(game, opponents + 1, args.rules)
    for spec in args.rule:
        name, sep, value = str(spec).partition("=")
        if not sep or not name.strip():
            raise _UsageError(N_("--rule expects NAME=VALUE, not '{spec}'"), spec=spec)
        rules = engine.with_flag(rules, name.strip().replace("-", "_"), value.strip())
    level: str = args.ai or default_level(game)
    known = terminal.levels(game)
    if level not in known and level not in playable_levels(game):
        # The levels no longer offered (random, greedy) still play when named.
        raise _UsageError(
            terminal.unknown_level(game),
            level=level,
            known=", ".join(f"'{name}'" for name in known),
        )
    seat: int = args.seat
    if not 0 <= seat < rules.players:
        raise _UsageError(
            N_("--seat must be between 0 and {last}, not {seat}"), last=rules.players - 1, seat=seat
        )
    # The default name is the table's word for "you" (English "You" reads the verb forms).
    name = " ".join(str(tr(locale, "You") if args.name is None else args.name).split())
    if not name:
        raise _UsageError(N_("--name must not be empty"))
    if name in _bot_names(rules.players, locale):
        raise _UsageError(
            N_("--name '{name}' is the name of a computer player: choose another"), name=name
        )
    return _Config(rules=rules, level=level, name=name, seat=seat, seed=args.seed)


def _bot_names(players: int, locale: str = "en") -> list[str]:
    return [tr(locale, "Bot {n}", n=i) for i in range(1, players)]


def _seat_names(players: int, human: int, name: str, locale: str = "en") -> list[str]:
    bots = iter(_bot_names(players, locale))
    return [name if seat == human else next(bots) for seat in range(players)]


def main(
    argv: list[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run ``kapshap play`` with ``argv`` (the arguments after ``play``); returns the exit status.

    0 when the game ends, or when the player quits or input ends; 2 for invalid options (with a
    one-line message on ``stderr``); 130 when interrupted.
    """
    inp = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        return _main(args, inp, out, err)
    except KeyboardInterrupt:
        out.write("\n" + tr(lang_of_args(args), "Interrupted: the game is abandoned.") + "\n")
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `kapshap play | head`): stop quietly, like other CLI tools.
        if out is sys.stdout:
            # Python would report the failed flush of stdout at exit; point it at /dev/null.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return 0


def _main(args: list[str], inp: TextIO, out: TextIO, err: TextIO) -> int:
    parser = build_parser()
    locale = lang_of_args(args)
    try:
        namespace = parser.parse_args(args)
        if namespace.help:
            out.write(parser.format_help())
            return 0
        # Only a language chosen is still no game chosen: a terminal asks the questions.
        chosen = [
            a for a in args if a not in ("--lang", namespace.lang, f"--lang={namespace.lang}")
        ]
        interactive = namespace.setup or (not chosen and isatty(inp))
        if interactive and not Setup(namespace, inp, out).run():
            out.write("\n" + tr(locale, "End of input: no game started.") + "\n")
            return 0
        config = _configure(namespace)
    except (_UsageError, EngineError, ValueError) as error:
        # Argparse's own complaints (an unknown option, a bad choice) stay in its English.
        text = error.text(locale) if isinstance(error, _UsageError) else str(error)
        if isinstance(error, EngineError) and locale != "en":
            known = recognize(one_line(text), RULES_REFUSALS)
            text = text if known is None else known.localized(locale)
        prefix = tr(locale, "{prog}: error: {message}", prog=PROG, message=one_line(text))
        err.write(prefix + "\n")
        return 2
    seed = config.seed if config.seed is not None else random.Random().randrange(1_000_000_000)
    engine = engine_of(config.rules.game)
    while True:
        rng = random.Random(seed)
        deal = engine.deal(config.rules, rng, thrower=config.seat)
        finished = play(
            config.rules,
            deal,
            names=_seat_names(config.rules.players, config.seat, config.name, namespace.lang),
            human=config.seat,
            ai_level=config.level,
            rng=rng,
            stdin=inp,
            stdout=out,
            seed=seed,
            locale=namespace.lang,
        )
        if not finished or not _another_game(inp, out, namespace.lang):
            return 0
        # The next game gets a fresh deal: a new seed (printed in its announcement).
        seed = random.Random().randrange(1_000_000_000)


def _another_game(inp: TextIO, out: TextIO, locale: str = "en") -> bool:
    """Ask whether to play again with the same options; only 'y' or 'yes' (or 是, 好) says
    so."""
    out.write("\n" + tr(locale, "Play another game with the same options? [y/N] "))
    out.flush()
    line = inp.readline()
    answer = line.strip().lower()
    if line and not isatty(inp):
        out.write(answer + "\n")
    if not line:
        out.write("\n")
    return answer in ("y", "yes", "是", "好")
