"""Tsung Shap's simulator report: scores, seats, captures, misses and claims per variant as a
table, JSON objects, CSV rows and a chart of the score difference (docs/simulator.md lists the
JSON keys and the CSV columns)."""

from __future__ import annotations

import csv
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.engine import RuleSet
from bot.engine.variants import chosen_variants
from bot.games.fishing.sim.stats import FishingSummary, summarize_fishing_tally
from bot.locale import nt, t
from bot.sim.runner import ConfigResult
from bot.sim.table import game_name, levels_text, num, pct, table

__all__ = [
    "FISHING_CSV_COLUMNS",
    "FishingOutcome",
    "fishing_to_json",
    "format_fishing_report",
    "outcomes",
    "plot",
    "write_fishing_csv",
]

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


@dataclass(frozen=True, slots=True)
class FishingOutcome:
    """One Tsung Shap configuration's games with their summary."""

    result: ConfigResult
    summary: FishingSummary

    @property
    def rules(self) -> RuleSet:
        """The rule set played."""
        rules: RuleSet = self.result.config.rules
        return rules

    @property
    def variant(self) -> str:
        """The variant's name (``base`` or a ``--compare`` entry)."""
        return self.result.label


def fishing_to_json(outcome: FishingOutcome, seed: int) -> dict[str, Any]:
    """The JSON object of one Tsung Shap configuration (keys documented in
    docs/simulator.md)."""
    rules = outcome.rules
    summary = outcome.summary.to_json()
    head: dict[str, Any] = {
        "game": rules.game,
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
    return " / ".join(num(v, digits) for v in values)


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
        (t(locale, "win share: seat 0 (first player)"), [pct(x.win_share[0], 1) for x in s]),
        (t(locale, "win share: seat 1"), [pct(x.win_share[1], 1) for x in s]),
        (t(locale, "drawn (equal scores)"), [pct(x.draw_rate, 1) for x in s]),
        (
            t(locale, "first-player advantage: win share"),
            [pct(x.win_share_advantage, 1) for x in s],
        ),
        (t(locale, "  mean score difference"), [num(x.mean_score_difference, 1) for x in s]),
        (
            t(locale, "  equal seats: chi2 (df) p"),
            [
                "-"
                if x.chi2.statistic is None or x.chi2.p_value is None
                else f"{x.chi2.statistic:.2f} ({x.chi2.df}) p={x.chi2.p_value:.3g}"
                for x in s
            ],
        ),
        (t(locale, "captures per game: pairs"), [num(x.captures_per_game["pair"]) for x in s]),
        (t(locale, "  triplets"), [num(x.captures_per_game["triplet"]) for x in s]),
        (t(locale, "  sweeps"), [num(x.captures_per_game["sweep"]) for x in s]),
        (t(locale, "sweeps per game (claims included)"), [num(x.sweeps_per_game) for x in s]),
        (t(locale, "missed captures per game"), [num(x.missed_per_game) for x in s]),
        (t(locale, "claimed captures per game"), [num(x.claimed_per_game) for x in s]),
        (t(locale, "turns per game"), [num(x.mean_turns, 1) for x in s]),
        (t(locale, "games per second"), [f"{o.result.games_per_second:.0f}" for o in outcomes]),
    ]
    return rows


def _fishing_rules(rules: RuleSet, locale: str) -> str:
    """The rules in one line: the engine's English, or the same figures in ``locale`` (the
    variants by their flags, as typed)."""
    if locale == "en":
        return rules.describe()
    text = t(
        locale,
        "{game}, {players} players, {sets}",
        game=game_name(rules.game, locale),
        players=rules.players,
        sets=nt(locale, "{n} set", "{n} sets", rules.sets),
    )
    return text + "".join(f", {k}={v}" for k, v in chosen_variants(rules).items())


def format_fishing_report(outcomes: Sequence[FishingOutcome], seed: int, locale: str = "en") -> str:
    """A readable table for Tsung Shap: one column per variant, one row per figure."""
    first = outcomes[0]
    chosen = first.result.config.levels
    levels = levels_text(chosen, locale)
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
    lines += table(headers, _fishing_rows(outcomes, locale))
    return "\n".join(lines)


def write_fishing_csv(outcomes: Sequence[FishingOutcome], seed: int, path: Path) -> None:
    """One row per Tsung Shap game (every variant, in game order), with a header row."""
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(FISHING_CSV_COLUMNS)
        for outcome in outcomes:
            config = [
                outcome.rules.game,
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


def plot(outcomes: Sequence[FishingOutcome], path: Path) -> None:
    from bot.sim.plot import Series, plot_difference_histograms

    series = [
        Series(
            label=f"{o.variant} (mean {num(o.summary.mean_score_difference, 1)})",
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


def _variant_name(name: str, locale: str) -> str:
    """A variant's column: ``base`` in words, flag names as typed."""
    return t(locale, "base", context="term") if name == "base" else name


def outcomes(results: Sequence[ConfigResult]) -> list[FishingOutcome]:
    """Each result (labelled by its variant) with its summary."""
    return [FishingOutcome(r, summarize_fishing_tally(r.tally)) for r in results]
