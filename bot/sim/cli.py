"""``kapshap sim``: play many games and print statistics (docs/simulator.md).

Results go to stdout (a readable table, or one JSON object per configuration with ``--json``);
the progress bar and error messages go to stderr. A bad option is one line on stderr and exit
status 2, never a traceback.

``--game tsung-shap`` reports scores instead of winning turns, and its ``--compare`` compares
variants (flag sets, e.g. ``base,auto_capture,sweep_adds_pips``) rather than rule sets.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import sys
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn, TextIO

from bot.engine import RulesError, RuleSet, make_rules, with_flag
from bot.engine.rules import RULE_SET_NAMES, Game
from bot.engine.variants import chosen_variants
from bot.locale import LOCALES, N_, lang_of_args, nt, recognize, t
from bot.locale.levels import level_name
from bot.locale.refusals import RULES_ERRORS
from bot.sim.oracle import OracleCheck, check_dealt_wins
from bot.sim.runner import (
    ConfigResult,
    FishingConfigResult,
    SimConfig,
    SimError,
    check_levels,
    default_workers,
    known_levels,
    run,
    run_fishing,
)
from bot.sim.stats import (
    FishingSummary,
    Summary,
    relative_seat,
    summarize_fishing_tally,
    summarize_tally,
)

__all__ = [
    "CSV_COLUMNS",
    "DEFAULT_AI",
    "DEFAULT_GAMES",
    "FISHING_CSV_COLUMNS",
    "FISHING_VARIANT_FLAGS",
    "FishingOutcome",
    "Outcome",
    "build_parser",
    "fishing_to_json",
    "format_fishing_report",
    "format_report",
    "main",
    "to_json",
    "write_csv",
    "write_fishing_csv",
]

PROG = "kapshap sim"
DEFAULT_AI = "greedy"
DEFAULT_GAMES = 10_000
DEFAULT_SEED = 1
PROGRESS_DELAY = 2.0  # seconds before the progress bar appears: short runs stay quiet

CSV_COLUMNS = (
    "game",
    "rules",
    "players",
    "sets",
    "ai",
    "seed",
    "index",
    "first_seat",
    "winner",
    "winner_relative",
    "reason",
    "win_by",
    "turns",
    "round",
    "takes",
    "take_pool_total",
)


FISHING_CSV_COLUMNS = (
    "game",
    "variant",
    "ai",
    "seed",
    "index",
    "first_seat",
    "winner",
    "winner_relative",
    "score_seat0",
    "score_seat1",
    "score_first",
    "score_second",
    "difference",
    "pairs",
    "triplets",
    "sweeps",
    "missed",
    "claimed",
    "claimed_sweeps",
    "turns",
)

FISHING_VARIANT_FLAGS = (
    "auto_capture",
    "triplet_both_ends_only",
    "sweep_adds_pips",
    "second_may_capture_opening",
    "play_until_both_piles_empty",
)
"""The Tsung Shap flags ``--compare`` can switch on by name (``base`` switches none)."""

BASE_VARIANT = "base"


class UsageError(Exception):
    """A bad option: reported as one line and exit status 2."""


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
        choices=[g.value for g in Game],
        default=Game.KAP_SHAP.value,
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
        choices=list(RULE_SET_NAMES),
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


def _rule_names(args: argparse.Namespace) -> list[str | None]:
    if args.compare is None:
        return [args.rules]
    if args.rules is not None:
        raise UsageError("use either --rules or --compare, not both")
    names = [n.strip() for n in str(args.compare).split(",") if n.strip()]
    if not names:
        raise UsageError("--compare needs rule set names, e.g. culin,classic,last-draw")
    for name in names:
        if name not in RULE_SET_NAMES:
            known = ", ".join(RULE_SET_NAMES)
            raise UsageError(f"--compare: unknown rule set '{name}': choose from {known}")
    if len(set(names)) != len(names):
        raise UsageError("--compare lists a rule set twice")
    return list(names)


def _flag_overrides(texts: Sequence[str]) -> list[tuple[str, str]]:
    overrides = []
    for text in texts:
        name, sep, value = text.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"--rule expects NAME=VALUE, not '{text}'")
        # Accept the spelling of the CLI (four-two-value) as well as the flag's (four_two_value).
        overrides.append((name.strip().replace("-", "_"), value.strip()))
    return overrides


def _rules(args: argparse.Namespace, name: str | None) -> RuleSet:
    rules = make_rules(args.game, args.players, name, args.sets)
    for flag, value in _flag_overrides(args.rule):
        rules = with_flag(rules, flag, value)
    return rules


def _levels(texts: Sequence[str], players: int, game: Game = Game.KAP_SHAP) -> tuple[str, ...]:
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
    levels = tuple(seats.get(seat, every or DEFAULT_AI) for seat in range(players))
    known = known_levels(game)
    if every is None and DEFAULT_AI in levels and DEFAULT_AI not in known:
        raise UsageError(
            f"the default AI level '{DEFAULT_AI}' is not available; choose one with --ai "
            f"(known levels: {', '.join(known)})"
        )
    try:
        check_levels(levels, game)
    except SimError as error:
        raise UsageError(str(error)) from None
    return levels


def _configs(args: argparse.Namespace) -> list[SimConfig]:
    configs = []
    for name in _rule_names(args):
        rules = _rules(args, name)
        configs.append(SimConfig(rules, _levels(args.ai, rules.players)))
    return configs


def _variant_flags(name: str) -> list[str]:
    """The flags a ``--compare`` entry for Tsung Shap switches on (``base``: none)."""
    if name == BASE_VARIANT:
        return []
    flags = []
    for part in name.split("+"):
        flag = part.strip().replace("-", "_")
        if flag not in FISHING_VARIANT_FLAGS:
            known = ", ".join((BASE_VARIANT, *FISHING_VARIANT_FLAGS))
            raise UsageError(
                f"--compare: '{part.strip()}' is not a Tsung Shap variant: choose from {known} "
                "(join flags with + to switch several on)"
            )
        if flag in flags:
            raise UsageError(f"--compare: '{name}' names {flag} twice")
        flags.append(flag)
    return flags


def _fishing_configs(args: argparse.Namespace) -> list[tuple[str, SimConfig]]:
    """The (variant name, configuration) pairs of a Tsung Shap run."""
    if args.players is not None and args.players != 2:
        raise UsageError(f"Tsung Shap is for exactly 2 players, not {args.players}")
    if args.sets is not None and args.sets != 1:
        raise UsageError(f"Tsung Shap is played with exactly one set, not {args.sets}")
    if args.rules is not None:
        raise UsageError(
            "--rules does not apply to tsung-shap (it has one rule set): choose variants with "
            "--rule NAME=VALUE or --compare base,auto_capture"
        )
    if args.compare is None:
        names = [BASE_VARIANT]
    else:
        names = [n.strip() for n in str(args.compare).split(",") if n.strip()]
        if not names:
            raise UsageError("--compare needs variant names, e.g. base,auto_capture")
        if len(set(names)) != len(names):
            raise UsageError("--compare lists a variant twice")
    base = make_rules(Game.TSUNG_SHAP)
    for flag, value in _flag_overrides(args.rule):
        base = with_flag(base, flag, value)
    levels = _levels(args.ai, base.players, Game.TSUNG_SHAP)
    configs = []
    for name in names:
        rules = base
        for flag in _variant_flags(name):
            rules = with_flag(rules, flag, "true")
        configs.append((name, SimConfig(rules, levels)))
    return configs


def _check_output(path_text: str | None, option: str, suffix: str | None = None) -> Path | None:
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


# ---------------------------------------------------------------------------------------------
# Results


@dataclass(frozen=True, slots=True)
class Outcome:
    """One configuration's games with their summary and oracle check."""

    result: ConfigResult
    summary: Summary
    oracle: OracleCheck

    @property
    def rules(self) -> RuleSet:
        """The rule set played."""
        return self.result.config.rules


def _oracle_json(check: OracleCheck) -> dict[str, Any]:
    return {
        "dealt_wins": check.dealt_wins,
        "observed": check.observed,
        "exact": check.exact,
        "exact_fraction": check.exact_fraction,
        "standard_error": check.standard_error,
        "z": check.z,
    }


def to_json(outcome: Outcome, seed: int) -> dict[str, Any]:
    """The JSON object of one configuration (keys documented in docs/simulator.md)."""
    rules = outcome.rules
    summary = outcome.summary.to_json()
    head: dict[str, Any] = {
        "game": rules.game.value,
        "rules": rules.rule_set_name,
        "players": rules.players,
        "sets": rules.sets,
        "games": summary.pop("games"),
        "seed": seed,
        "ai": list(outcome.result.config.levels),
    }
    return {
        **head,
        **summary,
        "oracle": _oracle_json(outcome.oracle),
        "flags": rules.flags(),
        "games_per_second": round(outcome.result.games_per_second, 1),
    }


def _pct(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{100 * value:.{digits}f} %"


def _num(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _rows(outcomes: Sequence[Outcome], locale: str = "en") -> list[tuple[str, list[str]]]:
    players = outcomes[0].rules.players
    rows: list[tuple[str, list[str]]] = []

    def row(label: str, values: list[str]) -> None:
        rows.append((label, values))

    s = [o.summary for o in outcomes]
    row(t(locale, "games"), [str(x.games) for x in s])
    row(t(locale, "won"), [_pct(x.win_rate) for x in s])
    row(t(locale, "drawn: wall exhausted"), [_pct(x.draw_rate) for x in s])
    row(t(locale, "drawn: turn cap"), [_pct(x.cap_rate) for x in s])
    row(t(locale, "winning turn T: mean"), [_num(x.mean_turn) for x in s])
    row(t(locale, "  median"), [_num(x.median_turn, 1) for x in s])
    row(
        t(locale, "  p10 / p25 / p75 / p90"),
        [
            " / ".join(_num(v, 1) for v in (x.p10_turn, x.p25_turn, x.p75_turn, x.p90_turn))
            for x in s
        ],
    )
    row(t(locale, "round ceil(T/N): mean"), [_num(x.mean_round) for x in s])
    row(t(locale, "won in round 1"), [_pct(x.round1_win_rate) for x in s])
    row(t(locale, "wins: with the dealt hand"), [_pct(x.win_by.get("dealt")) for x in s])
    row(t(locale, "wins: after a take"), [_pct(x.win_by.get("take")) for x in s])
    row(t(locale, "wins: after a draw"), [_pct(x.win_by.get("draw")) for x in s])
    row(t(locale, "takes per game"), [_num(x.takes_per_game) for x in s])
    row(t(locale, "takeable discards at a take"), [_num(x.mean_pool_at_take) for x in s])
    for seat in range(players):
        label = (
            t(locale, "first player")
            if seat == 0
            else t(locale, "{seat} after the first", seat=seat)
        )
        row(
            t(locale, "win share: seat {seat} ({label})", seat=seat, label=label),
            [_pct(x.seat_win_share[seat], 1) for x in s],
        )
    row(
        t(locale, "equal seats: chi2 (df) p"),
        [
            "-"
            if x.chi2.statistic is None or x.chi2.p_value is None
            else f"{x.chi2.statistic:.2f} ({x.chi2.df}) p={x.chi2.p_value:.3g}"
            for x in s
        ],
    )
    row(
        t(locale, "first player dealt wins"),
        [f"{_pct(o.oracle.observed, 3)} ({o.oracle.dealt_wins})" for o in outcomes],
    )
    row(t(locale, "  exact probability"), [_pct(o.oracle.exact, 3) for o in outcomes])
    row(t(locale, "  z-score"), [_num(o.oracle.z) for o in outcomes])
    row(t(locale, "games per second"), [f"{o.result.games_per_second:.0f}" for o in outcomes])
    return rows


# The names of the games and rule sets in a Chinese report (English keeps the option values).
_GAME_NAMES = {
    Game.KAP_SHAP: N_("Kap Shap"),
    Game.KAP_TAI_SHAP: N_("Kap Tai Shap"),
    Game.TSUNG_SHAP: N_("Tsung Shap"),
}
_RULE_SET_NAMES = {
    "culin": N_("Culin"),
    "classic": N_("Classic"),
    "last-draw": N_("Last + draw"),
    "custom": N_("Custom"),
}


def _game_name(game: Game, locale: str) -> str:
    return str(game) if locale == "en" else t(locale, _GAME_NAMES[game])


def _rule_set_name(name: str, locale: str) -> str:
    return name if locale == "en" else t(locale, _RULE_SET_NAMES.get(name, name))


def _variant_name(name: str, locale: str) -> str:
    """A Tsung Shap variant's column: ``base`` in words, flag names as typed."""
    return t(locale, "base", context="term") if name == "base" else name


def _levels_text(chosen: Sequence[str], locale: str) -> str:
    """The computer levels by seat: the codes ``--ai`` takes in English, the levels' names in
    Chinese (高手, not expert)."""
    names = [code if locale == "en" else level_name(locale, code) for code in chosen]
    if len(set(chosen)) == 1:
        return t(locale, "{level} (every seat)", level=names[0])
    return " / ".join(names)


def format_report(outcomes: Sequence[Outcome], seed: int, locale: str = "en") -> str:
    """A readable table: one column per configuration, one row per figure (``locale``: the
    language of the words, ``kapshap sim --lang``)."""
    first = outcomes[0]
    rules = first.rules
    chosen = first.result.config.levels
    levels = _levels_text(chosen, locale)
    lines = [
        t(
            locale,
            "{game}, {players} players, {sets}; {games} games per rule set, seed {seed}; "
            "AI by seat: {levels}",
            game=_game_name(rules.game, locale),
            players=rules.players,
            sets=nt(locale, "{n} set", "{n} sets", rules.sets),
            games=first.summary.games,
            seed=seed,
            levels=levels,
        ),
        t(
            locale,
            "Seats count from the first player (seat 0). Win shares (how, by seat) and turn "
            "figures are of won games;",
        ),
        t(locale, "every other rate is of all games."),
        "",
    ]
    headers = [_rule_set_name(o.rules.rule_set_name, locale) for o in outcomes]
    lines += _table(headers, _rows(outcomes, locale))
    return "\n".join(lines)


def write_csv(outcomes: Sequence[Outcome], seed: int, path: Path) -> None:
    """One row per game (every configuration, in game order), with a header row."""
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(CSV_COLUMNS)
        for outcome in outcomes:
            rules = outcome.rules
            config = [
                rules.game.value,
                rules.rule_set_name,
                rules.players,
                rules.sets,
                "/".join(outcome.result.config.levels),
                seed,
            ]
            for index, record in enumerate(outcome.result.records):
                relative = relative_seat(record, rules.players)
                won = record.winner is not None
                writer.writerow(
                    [
                        *config,
                        index,
                        record.first_seat,
                        "" if record.winner is None else record.winner,
                        "" if relative is None else relative,
                        record.reason,
                        record.win_by or "",
                        record.turns,
                        math.ceil(record.turns / rules.players) if won else "",
                        record.takes,
                        record.take_pool_total,
                    ]
                )


def _plot(outcomes: Sequence[Outcome], path: Path) -> None:
    from bot.sim.plot import Series, plot_turn_histograms  # matplotlib is slow to import

    rules = outcomes[0].rules
    series = [
        Series(
            label=f"{o.rules.rule_set_name} (mean T {_num(o.summary.mean_turn, 1)})",
            histogram=o.summary.histogram,
            games=o.summary.games,
        )
        for o in outcomes
    ]
    s = "set" if rules.sets == 1 else "sets"
    title = (
        f"{rules.game}, {rules.players} players, {rules.sets} {s}: winning turn "
        f"({outcomes[0].summary.games} games per rule set)"
    )
    plot_turn_histograms(series, path, title)


# ---------------------------------------------------------------------------------------------
# Tsung Shap results


@dataclass(frozen=True, slots=True)
class FishingOutcome:
    """One Tsung Shap configuration's games with their summary."""

    result: FishingConfigResult
    summary: FishingSummary

    @property
    def rules(self) -> RuleSet:
        """The rule set played."""
        return self.result.config.rules

    @property
    def variant(self) -> str:
        """The variant's name (``base`` or a ``--compare`` entry)."""
        return self.result.variant


def fishing_to_json(outcome: FishingOutcome, seed: int) -> dict[str, Any]:
    """The JSON object of one Tsung Shap configuration (keys documented in
    docs/simulator.md)."""
    rules = outcome.rules
    summary = outcome.summary.to_json()
    head: dict[str, Any] = {
        "game": rules.game.value,
        "variant": outcome.variant,
        "rules": rules.rule_set_name,
        "players": rules.players,
        "sets": rules.sets,
        "games": summary.pop("games"),
        "seed": seed,
        "ai": list(outcome.result.config.levels),
    }
    return {
        **head,
        **summary,
        "flags": rules.flags(),
        "games_per_second": round(outcome.result.games_per_second, 1),
    }


def _pair(values: Sequence[float], digits: int) -> str:
    return " / ".join(_num(v, digits) for v in values)


def _fishing_rows(
    outcomes: Sequence[FishingOutcome], locale: str = "en"
) -> list[tuple[str, list[str]]]:
    s = [o.summary for o in outcomes]
    rows: list[tuple[str, list[str]]] = [
        (t(locale, "games"), [str(x.games) for x in s]),
        (t(locale, "score (first / second): mean"), [_pair(x.mean_score, 1) for x in s]),
        (t(locale, "  median"), [_pair(x.median_score, 1) for x in s]),
        (t(locale, "  p90"), [_pair(x.p90_score, 1) for x in s]),
        (t(locale, "  max"), [_pair(x.max_score, 0) for x in s]),
        (t(locale, "win share: seat 0 (first player)"), [_pct(x.win_share[0], 1) for x in s]),
        (t(locale, "win share: seat 1"), [_pct(x.win_share[1], 1) for x in s]),
        (t(locale, "drawn (equal scores)"), [_pct(x.draw_rate, 1) for x in s]),
        (
            t(locale, "first-player advantage: win share"),
            [_pct(x.win_share_advantage, 1) for x in s],
        ),
        (t(locale, "  mean score difference"), [_num(x.mean_score_difference, 1) for x in s]),
        (
            t(locale, "  equal seats: chi2 (df) p"),
            [
                "-"
                if x.chi2.statistic is None or x.chi2.p_value is None
                else f"{x.chi2.statistic:.2f} ({x.chi2.df}) p={x.chi2.p_value:.3g}"
                for x in s
            ],
        ),
        (t(locale, "captures per game: pairs"), [_num(x.captures_per_game["pair"]) for x in s]),
        (t(locale, "  triplets"), [_num(x.captures_per_game["triplet"]) for x in s]),
        (t(locale, "  sweeps"), [_num(x.captures_per_game["sweep"]) for x in s]),
        (t(locale, "sweeps per game (claims included)"), [_num(x.sweeps_per_game) for x in s]),
        (t(locale, "missed captures per game"), [_num(x.missed_per_game) for x in s]),
        (t(locale, "claimed captures per game"), [_num(x.claimed_per_game) for x in s]),
        (t(locale, "turns per game"), [_num(x.mean_turns, 1) for x in s]),
        (t(locale, "games per second"), [f"{o.result.games_per_second:.0f}" for o in outcomes]),
    ]
    return rows


def _width(text: str) -> int:
    """Columns ``text`` takes in a terminal: CJK characters take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _ljust(text: str, width: int) -> str:
    return text + " " * max(0, width - _width(text))


def _table(headers: Sequence[str], rows: Sequence[tuple[str, list[str]]]) -> list[str]:
    label_width = max(_width(label) for label, _ in rows)
    widths = [
        max(_width(headers[i]), *(len(values[i]) for _, values in rows))
        for i in range(len(headers))
    ]
    # Headers may be Chinese (rule set names): padded by the columns they take.
    lines = [
        " " * label_width
        + "  "
        + "  ".join(" " * max(0, w - _width(h)) + h for h, w in zip(headers, widths, strict=True))
    ]
    for label, values in rows:
        cells = "  ".join(v.rjust(w) for v, w in zip(values, widths, strict=True))
        lines.append(f"{_ljust(label, label_width)}  {cells}")
    return lines


def _fishing_rules(rules: RuleSet, locale: str) -> str:
    """The rules in one line: the engine's English, or the same figures in ``locale`` (the
    variants by their flags, as typed)."""
    if locale == "en":
        return rules.describe()
    text = t(
        locale,
        "{game}, {players} players, {sets}",
        game=_game_name(rules.game, locale),
        players=rules.players,
        sets=nt(locale, "{n} set", "{n} sets", rules.sets),
    )
    return text + "".join(f", {k}={v}" for k, v in chosen_variants(rules).items())


def format_fishing_report(outcomes: Sequence[FishingOutcome], seed: int, locale: str = "en") -> str:
    """A readable table for Tsung Shap: one column per variant, one row per figure."""
    first = outcomes[0]
    chosen = first.result.config.levels
    levels = _levels_text(chosen, locale)
    lines = [
        t(
            locale,
            "{rules}; {games} games per variant, seed {seed}; AI by seat: {levels}",
            rules=_fishing_rules(first.rules, locale),
            games=first.summary.games,
            seed=seed,
            levels=levels,
        ),
        t(
            locale,
            "Seat 0 is the first player. Figures are over all games; the score difference is "
            "the first player's score minus the second's.",
        ),
        "",
    ]
    headers = [_variant_name(o.variant, locale) for o in outcomes]
    lines += _table(headers, _fishing_rows(outcomes, locale))
    return "\n".join(lines)


def write_fishing_csv(outcomes: Sequence[FishingOutcome], seed: int, path: Path) -> None:
    """One row per Tsung Shap game (every variant, in game order), with a header row."""
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(FISHING_CSV_COLUMNS)
        for outcome in outcomes:
            config = [
                outcome.rules.game.value,
                outcome.variant,
                "/".join(outcome.result.config.levels),
                seed,
            ]
            for index, r in enumerate(outcome.result.records):
                first, second = r.relative_scores
                writer.writerow(
                    [
                        *config,
                        index,
                        r.first_seat,
                        "" if r.winner is None else r.winner,
                        "" if r.relative_winner is None else r.relative_winner,
                        r.scores[0],
                        r.scores[1],
                        first,
                        second,
                        r.difference,
                        r.pairs,
                        r.triplets,
                        r.sweeps,
                        r.missed,
                        r.claimed,
                        r.claimed_sweeps,
                        r.turns,
                    ]
                )


def _plot_fishing(outcomes: Sequence[FishingOutcome], path: Path) -> None:
    from bot.sim.plot import Series, plot_difference_histograms

    series = [
        Series(
            label=f"{o.variant} (mean {_num(o.summary.mean_score_difference, 1)})",
            histogram=o.summary.difference_histogram,
            games=o.summary.games,
        )
        for o in outcomes
    ]
    title = (
        f"tsung-shap: first player's score minus the second's "
        f"({outcomes[0].summary.games} games per variant)"
    )
    plot_difference_histograms(series, path, title)


def _main_fishing(
    args: argparse.Namespace,
    configs: Sequence[tuple[str, SimConfig]],
    csv_path: Path | None,
    plot_path: Path | None,
) -> int:
    workers = args.workers or default_workers()
    bar = _Bar(not args.no_progress, sys.stderr)
    try:
        results = run_fishing(
            configs,
            args.games,
            args.seed,
            workers,
            bar,
            csv_path is not None,
            on_compile=lambda: _compiling(args.lang),
        )
    except SimError as error:
        return _fail(str(error), locale=args.lang)
    except KeyboardInterrupt:
        return _fail("interrupted", 130, args.lang)
    finally:
        bar.close()
    outcomes = [FishingOutcome(r, summarize_fishing_tally(r.tally)) for r in results]
    return _emit(
        [json.dumps(fishing_to_json(o, args.seed)) for o in outcomes]
        if args.json
        else [format_fishing_report(outcomes, args.seed, args.lang)],
        lambda path: write_fishing_csv(outcomes, args.seed, path),
        lambda path: _plot_fishing(outcomes, path),
        csv_path,
        plot_path,
    )


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


PLOT_EXTRA_HELP = (
    "--plot needs matplotlib, an optional part of the simulator: install it with "
    "pip install 'kapshap-bot[sim]' (from a checkout: pip install -e '.[sim]')"
)


def _need_matplotlib() -> None:
    """Refuse ``--plot`` before the simulation runs when matplotlib is not installed."""
    try:
        import matplotlib  # noqa: F401  (only whether it imports)
    except ImportError:
        raise UsageError(PLOT_EXTRA_HELP) from None


#: The simulator's own refusals of its options, as it words them: ``--lang`` tells them in
#: Chinese when recognized (argparse's complaints and the operating system's stay English).
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
    N_(
        "--compare: '{name}' is not a Tsung Shap variant: choose from {known} (join flags with "
        "+ to switch several on)"
    ),
    N_("--compare: '{name}' names {flag} twice"),
    N_("Tsung Shap is played with exactly one set, not {n}"),
    N_(
        "--rules does not apply to tsung-shap (it has one rule set): choose variants with "
        "--rule NAME=VALUE or --compare base,auto_capture"
    ),
    N_("--compare needs variant names, e.g. base,auto_capture"),
    N_("--compare lists a variant twice"),
    N_("{option} writes a {kind} file: give a {suffix} name"),
    N_("{option}: directory '{parent}' does not exist"),
    N_("{option}: '{path}' is a directory"),
    N_("interrupted"),
)


def _compiling(locale: str) -> None:
    """Say why the first run on a fresh machine waits before its first game."""
    print(t(locale, "compiling the simulation kernel once (about 15 s)…"), file=sys.stderr)


def _fail(message: str, status: int = 2, locale: str = "en") -> int:
    if locale != "en":
        known = recognize(message, (*_ERRORS, *RULES_ERRORS))
        if known is not None:
            message = known.localized(locale)
    print(t(locale, "{prog}: error: {message}", prog=PROG, message=message), file=sys.stderr)
    return status


def main(argv: list[str] | None = None) -> int:
    """Run ``kapshap sim`` with ``argv`` (the arguments after ``sim``); returns the exit status."""
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else argv
    lang = lang_of_args(argv)
    try:
        args = parser.parse_args(argv)
        fishing = Game(args.game) is Game.TSUNG_SHAP
        configs = [] if fishing else _configs(args)
        fishing_configs = _fishing_configs(args) if fishing else []
        csv_path = _check_output(args.csv, "--csv")
        plot_path = _check_output(args.plot, "--plot", ".png")
        if plot_path is not None:
            _need_matplotlib()
    except SystemExit as exit_:  # --help
        return exit_.code if isinstance(exit_.code, int) else 0
    except (UsageError, RulesError) as error:
        return _fail(str(error), locale=lang)
    if fishing:
        return _main_fishing(args, fishing_configs, csv_path, plot_path)
    workers = args.workers or default_workers()
    bar = _Bar(not args.no_progress, sys.stderr)
    try:
        results = run(
            configs,
            args.games,
            args.seed,
            workers,
            bar,
            csv_path is not None,
            on_compile=lambda: _compiling(lang),
        )
    except SimError as error:
        return _fail(str(error), locale=lang)
    except KeyboardInterrupt:
        return _fail("interrupted", 130, lang)
    finally:
        bar.close()
    outcomes = []
    for result in results:
        summary = summarize_tally(result.tally)
        oracle = check_dealt_wins(
            result.config.rules, summary.games, summary.dealt_wins_first_player
        )
        outcomes.append(Outcome(result, summary, oracle))
    return _emit(
        [json.dumps(to_json(o, args.seed)) for o in outcomes]
        if args.json
        else [format_report(outcomes, args.seed, args.lang)],
        lambda path: write_csv(outcomes, args.seed, path),
        lambda path: _plot(outcomes, path),
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
