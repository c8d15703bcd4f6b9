"""The collecting games' simulator report: the figures of a run (winning turns, seats, how games
were won, the oracle's check of dealt wins) as a table, JSON objects, CSV rows and a chart
(docs/simulator.md lists the JSON keys and the CSV columns)."""

from __future__ import annotations

import csv
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.engine import RuleSet
from bot.games.collecting.sim.oracle import OracleCheck, check_dealt_wins
from bot.locale import N_, nt, t
from bot.sim.runner import ConfigResult
from bot.sim.stats import Summary, relative_seat, summarize_tally
from bot.sim.table import game_name, levels_text, num, pct, table

__all__ = ["CSV_COLUMNS", "Outcome", "format_report", "outcomes", "plot", "to_json", "write_csv"]

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


@dataclass(frozen=True, slots=True)
class Outcome:
    """One configuration's games with their summary and oracle check."""

    result: ConfigResult
    summary: Summary
    oracle: OracleCheck

    @property
    def rules(self) -> RuleSet:
        """The rule set played."""
        rules: RuleSet = self.result.config.rules
        return rules


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
        "game": rules.game,
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


def _rows(outcomes: Sequence[Outcome], locale: str = "en") -> list[tuple[str, list[str]]]:
    players = outcomes[0].rules.players
    rows: list[tuple[str, list[str]]] = []

    def row(label: str, values: list[str]) -> None:
        rows.append((label, values))

    s = [o.summary for o in outcomes]
    row(t(locale, "games"), [str(x.games) for x in s])
    row(t(locale, "won"), [pct(x.win_rate) for x in s])
    row(t(locale, "drawn: wall exhausted"), [pct(x.draw_rate) for x in s])
    row(t(locale, "drawn: turn cap"), [pct(x.cap_rate) for x in s])
    row(t(locale, "winning turn T: mean"), [num(x.mean_turn) for x in s])
    row(t(locale, "  median"), [num(x.median_turn, 1) for x in s])
    row(
        t(locale, "  p10 / p25 / p75 / p90"),
        [
            " / ".join(num(v, 1) for v in (x.p10_turn, x.p25_turn, x.p75_turn, x.p90_turn))
            for x in s
        ],
    )
    row(t(locale, "round ceil(T/N): mean"), [num(x.mean_round) for x in s])
    row(t(locale, "won in round 1"), [pct(x.round1_win_rate) for x in s])
    row(t(locale, "wins: with the dealt hand"), [pct(x.win_by.get("dealt")) for x in s])
    row(t(locale, "wins: after a take"), [pct(x.win_by.get("take")) for x in s])
    row(t(locale, "wins: after a draw"), [pct(x.win_by.get("draw")) for x in s])
    row(t(locale, "takes per game"), [num(x.takes_per_game) for x in s])
    row(t(locale, "takeable discards at a take"), [num(x.mean_pool_at_take) for x in s])
    for seat in range(players):
        label = (
            t(locale, "first player")
            if seat == 0
            else t(locale, "{seat} after the first", seat=seat)
        )
        row(
            t(locale, "win share: seat {seat} ({label})", seat=seat, label=label),
            [pct(x.seat_win_share[seat], 1) for x in s],
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
        [f"{pct(o.oracle.observed, 3)} ({o.oracle.dealt_wins})" for o in outcomes],
    )
    row(t(locale, "  exact probability"), [pct(o.oracle.exact, 3) for o in outcomes])
    row(t(locale, "  z-score"), [num(o.oracle.z) for o in outcomes])
    row(t(locale, "games per second"), [f"{o.result.games_per_second:.0f}" for o in outcomes])
    return rows


# The names of the rule sets in a Chinese report (English keeps the option values).
_RULE_SET_NAMES = {
    "culin": N_("Culin"),
    "classic": N_("Classic"),
    "last-draw": N_("Last + draw"),
    "custom": N_("Custom"),
}


def _rule_set_name(name: str, locale: str) -> str:
    return name if locale == "en" else t(locale, _RULE_SET_NAMES.get(name, name))


def format_report(outcomes: Sequence[Outcome], seed: int, locale: str = "en") -> str:
    """A readable table: one column per configuration, one row per figure (``locale``: the
    language of the words, ``kapshap sim --lang``)."""
    first = outcomes[0]
    rules = first.rules
    chosen = first.result.config.levels
    levels = levels_text(chosen, locale)
    lines = [
        t(
            locale,
            "{game}, {players} players, {sets}; {games} games per rule set, seed {seed}; "
            "AI by seat: {levels}",
            game=game_name(rules.game, locale),
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
    lines += table(headers, _rows(outcomes, locale))
    return "\n".join(lines)


def write_csv(outcomes: Sequence[Outcome], seed: int, path: Path) -> None:
    """One row per game (every configuration, in game order), with a header row."""
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(CSV_COLUMNS)
        for outcome in outcomes:
            rules = outcome.rules
            config = [
                rules.game,
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


def plot(outcomes: Sequence[Outcome], path: Path) -> None:
    from bot.sim.plot import Series, plot_turn_histograms  # matplotlib is slow to import

    rules = outcomes[0].rules
    series = [
        Series(
            label=f"{o.rules.rule_set_name} (mean T {num(o.summary.mean_turn, 1)})",
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


def outcomes(results: Sequence[ConfigResult]) -> list[Outcome]:
    """Each result with its summary and the oracle's check of the first player's dealt wins."""
    out = []
    for result in results:
        summary = summarize_tally(result.tally)
        oracle = check_dealt_wins(
            result.config.rules, summary.games, summary.dealt_wins_first_player
        )
        out.append(Outcome(result, summary, oracle))
    return out
