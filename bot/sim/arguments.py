"""``kapshap sim``'s command line: the option parser (docs/simulator.md).

The games ``--game`` offers are the registry's (:func:`bot.games.games`), the default its
default game; ``--rules`` offers the rule sets of every game that has a choice of them. What the
options mean for one game is its family's (:meth:`bot.sim.family.GameSim.configs`).
"""

from __future__ import annotations

import argparse
from typing import NoReturn

from bot.engine.family import engine_of
from bot.games import default_game, games
from bot.locale import LOCALES
from bot.sim.options import DEFAULT_AI, UsageError

__all__ = ["DEFAULT_GAMES", "DEFAULT_SEED", "PROG", "build_parser"]

PROG = "kapshap sim"
DEFAULT_GAMES = 10_000
DEFAULT_SEED = 1


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # argparse would print the whole usage block; one line is easier to read and to test.
        raise UsageError(message)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not '{text}'") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not '{text}'") from None


def build_parser() -> argparse.ArgumentParser:
    """The option parser of ``kapshap sim``."""
    parser = _Parser(
        prog=PROG,
        description=(
            "Play many games between computer players and print statistics: how long games "
            "last, who wins, how, and whether the seats are fair."
        ),
        epilog=(
            "Figures depend only on the options and --seed, never on --workers. "
            "Examples: 'kapshap sim --ai random --games 20000', "
            "'kapshap sim --game kap-tai-shap --players 6 --compare culin,classic,last-draw "
            "--plot turns.png'. See docs/simulator.md."
        ),
    )
    parser.add_argument(
        "--game",
        choices=[g.name for g in games()],
        default=default_game(),
        help="which game (default: %(default)s)",
    )
    parser.add_argument(
        "--players",
        type=_positive,
        metavar="N",
        help="number of players (default: 2; Kap Shap is always 2)",
    )
    parser.add_argument(
        "--sets",
        type=_positive,
        metavar="N",
        help="tile sets (default: 1 for Kap Shap, max(1, ceil(2N/5)) for Kap Tai Shap)",
    )
    parser.add_argument(
        "--rules",
        choices=_rule_set_choices(),
        help="rule set (default: the default for the game and player count)",
    )
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set any rule flag, e.g. max_turns=200 or four_two_value=6 (repeatable)",
    )
    parser.add_argument(
        "--compare",
        metavar="A,B,...",
        help=(
            "run several rule sets on the same deals, e.g. culin,classic,last-draw; for "
            "tsung-shap several variants: base or flag names switched on, + to combine, e.g. "
            "base,auto_capture,sweep_adds_pips+auto_capture"
        ),
    )
    parser.add_argument(
        "--ai",
        action="append",
        default=[],
        metavar="LEVEL|SEAT=LEVEL",
        help=(
            f"AI level of every seat, or of one seat (seat 0 = first seat of the seat list); "
            f"repeatable (default: {DEFAULT_AI})"
        ),
    )
    parser.add_argument(
        "--games",
        type=_positive,
        default=DEFAULT_GAMES,
        metavar="N",
        help="games per configuration (default: %(default)s)",
    )
    parser.add_argument(
        "--seed",
        type=_integer,
        default=DEFAULT_SEED,
        metavar="N",
        help="seed of the deals and AI choices (default: %(default)s)",
    )
    parser.add_argument(
        "--workers",
        type=_positive,
        metavar="N",
        help="worker processes (default: all cores); 1 plays in this process",
    )
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object per configuration"
    )
    parser.add_argument("--csv", metavar="FILE", help="write one row per game to FILE")
    parser.add_argument(
        "--plot",
        metavar="FILE.png",
        help=(
            "write a histogram of the winning turn (tsung-shap: of the first player's score "
            "minus the second's) to FILE.png (needs the sim extra: pip install 'kapshap-bot[sim]')"
        ),
    )
    parser.add_argument(
        "--no-progress", action="store_true", help="never show the progress bar on stderr"
    )
    parser.add_argument(
        "--lang",
        choices=LOCALES,
        default="en",
        help="language of the report: en, zh-TW (Traditional Chinese), zh-CN (Simplified)",
    )
    return parser


# ---------------------------------------------------------------------------------------------
# From options to configurations


def _rule_set_choices() -> list[str]:
    """The rule sets of every game that offers more than one, in the registry's order."""
    names: list[str] = []
    for game in games():
        offered = engine_of(game.name).rule_sets(game.name)
        if len(offered) > 1:
            names += [name for name in offered if name not in names]
    return names
