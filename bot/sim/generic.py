"""The simulator of a game whose family gives no sim facet: games played through the engine
facet's four functions (:func:`bot.engine.family.engine_of`) by the AI facet's players
(:func:`bot.ai.family.ai_of`), and a report of what every game has (who won, from which seat,
in how many turns, and the points when the game keeps them).

Game ``i`` of a run with seed ``s`` is dealt by the engine from ``random.Random(f"{s}:{i}:deal")``
and its players draw from :func:`bot.sim.runner.ai_rng`, so its outcome depends on the
configuration, ``s`` and ``i`` only, whatever the workers: the same figures for the same seed.
``--compare`` compares the game's rule sets (:meth:`RuleBook.rule_sets
<bot.engine.family.RuleBook.rule_sets>`) on the same deals when they share a player count.
"""

from __future__ import annotations

import argparse
import csv
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.ai.family import ai_of
from bot.engine.family import engine_of
from bot.locale import t
from bot.sim.config import MAX_CHUNK, ConfigResult, SimConfig, ai_rng
from bot.sim.family import GameSim
from bot.sim.options import flag_overrides, levels, rule_names
from bot.sim.stats import Chi2Test, add_counts, chi2_equal_shares, histogram_quantile, int_mean
from bot.sim.table import game_name, levels_text, num, pct, table

__all__ = [
    "CSV_COLUMNS",
    "FACET",
    "GenericOutcome",
    "GenericRecord",
    "GenericSim",
    "GenericTally",
    "play_one",
]

CSV_COLUMNS = (
    "game",
    "rules",
    "players",
    "ai",
    "seed",
    "index",
    "first_seat",
    "winner",
    "winner_relative",
    "turns",
    "scores",
)
"""The columns of ``--csv`` (``scores``: the points by table seat, ``/``-separated; empty for a
game without points)."""


@dataclass(frozen=True, slots=True)
class GenericRecord:
    """What the simulator keeps of one game: the first seat, the winner (None: drawn), the last
    turn played and the points by table seat (None for a game without points)."""

    first_seat: int
    winner: int | None
    turns: int
    scores: tuple[int, ...] | None

    def relative(self, seat: int, players: int) -> int:
        """A table seat counted from the first player (0 = the first player)."""
        return (seat - self.first_seat) % players


def play_one(config: SimConfig, seed: int, index: int) -> GenericRecord:
    """Play game ``index`` of a run through the engine facet, one AI player per seat."""
    rules = config.rules
    game = config.game
    engine = engine_of(game)
    ai = ai_of(game)
    deal = engine.deal(rules, random.Random(f"{seed}:{index}:deal"))
    players = [ai.player(game, level) for level in config.levels]
    state = engine.new_game(rules, [f"seat {seat}" for seat in range(rules.players)], deal)
    rng = ai_rng(seed, index)
    while state.result is None:
        seat = state.current
        action = players[seat].choose(engine.view(state, seat), engine.legal_actions(state), rng)
        state, _events = engine.apply(state, action)
    standing = engine.standing(state)
    return GenericRecord(
        first_seat=deal.first_seat,
        winner=state.result.winner,
        turns=state.turn,
        scores=None if standing.scores is None else tuple(standing.scores),
    )


@dataclass(slots=True)
class GenericTally:
    """Partial statistics of some games of one configuration: counts and sums only.

    ``seat_wins`` and ``scores`` are by seat relative to the first player; ``turns`` counts
    games by their last turn; ``scored`` counts the games that kept points."""

    players: int
    games: int = 0
    seat_wins: list[int] = field(default_factory=list)
    turns: dict[int, int] = field(default_factory=dict)
    scores: list[int] = field(default_factory=list)
    scored: int = 0

    def __post_init__(self) -> None:
        if not self.seat_wins:
            self.seat_wins = [0] * self.players
        if not self.scores:
            self.scores = [0] * self.players

    def add(self, record: GenericRecord) -> None:
        """Count one more game."""
        self.games += 1
        self.turns[record.turns] = self.turns.get(record.turns, 0) + 1
        if record.winner is not None:
            self.seat_wins[record.relative(record.winner, self.players)] += 1
        if record.scores is not None:
            self.scored += 1
            for seat, score in enumerate(record.scores):
                self.scores[record.relative(seat, self.players)] += score

    def merge(self, other: GenericTally) -> None:
        """Add the games another tally (of the same configuration) counted."""
        if other.players != self.players:
            raise ValueError("tallies of different player counts do not merge")
        self.games += other.games
        add_counts(self.turns, other.turns)
        self.seat_wins = [a + b for a, b in zip(self.seat_wins, other.seat_wins, strict=True)]
        self.scores = [a + b for a, b in zip(self.scores, other.scores, strict=True)]
        self.scored += other.scored


@dataclass(frozen=True, slots=True)
class GenericOutcome:
    """One configuration's games and their figures (shares of won games by seat; every other
    rate over all games)."""

    result: ConfigResult
    games: int
    wins: int
    seat_wins: list[int]
    seat_win_share: list[float | None]
    chi2: Chi2Test
    mean_turns: float | None
    median_turns: float | None
    turn_histogram: dict[int, int]
    mean_score: list[float | None] | None

    @property
    def label(self) -> str:
        """The configuration's name in the report (its rule set)."""
        return self.result.label

    def to_json(self, seed: int) -> dict[str, Any]:
        """The JSON object of the configuration."""
        rules = self.result.config.rules
        return {
            "game": str(rules.game),
            "rules": self.label,
            "players": rules.players,
            "games": self.games,
            "seed": seed,
            "ai": list(self.result.config.levels),
            "wins": self.wins,
            "win_rate": self.wins / self.games,
            "draw_rate": (self.games - self.wins) / self.games,
            "mean_turns": self.mean_turns,
            "median_turns": self.median_turns,
            "turn_histogram": {str(turn): n for turn, n in self.turn_histogram.items()},
            "seat_wins": list(self.seat_wins),
            "seat_win_share": list(self.seat_win_share),
            "chi2": {
                "statistic": self.chi2.statistic,
                "df": self.chi2.df,
                "p_value": self.chi2.p_value,
            },
            "mean_score": None if self.mean_score is None else list(self.mean_score),
            "flags": rules.flags(),
            "games_per_second": round(self.result.games_per_second, 1),
        }


def summarize(result: ConfigResult) -> GenericOutcome:
    """The figures of one configuration from its tally."""
    tally: GenericTally = result.tally
    games = tally.games
    if games == 0:
        raise ValueError("no games to summarize")
    histogram = {turn: n for turn, n in sorted(tally.turns.items()) if n}
    wins = sum(tally.seat_wins)
    return GenericOutcome(
        result=result,
        games=games,
        wins=wins,
        seat_wins=list(tally.seat_wins),
        seat_win_share=[w / wins if wins else None for w in tally.seat_wins],
        chi2=chi2_equal_shares(tally.seat_wins),
        mean_turns=int_mean(sum(turn * n for turn, n in histogram.items()), games),
        median_turns=histogram_quantile(histogram, games, 0.5),
        turn_histogram=histogram,
        mean_score=(
            [int_mean(total, tally.scored) for total in tally.scores] if tally.scored else None
        ),
    )


def _seat_label(seat: int, locale: str) -> str:
    return (
        t(locale, "first player") if seat == 0 else t(locale, "{seat} after the first", seat=seat)
    )


def _rows(outcomes: Sequence[GenericOutcome], locale: str) -> list[tuple[str, list[str]]]:
    players = outcomes[0].result.config.rules.players
    rows: list[tuple[str, list[str]]] = [
        (t(locale, "games"), [str(o.games) for o in outcomes]),
        (t(locale, "won"), [pct(o.wins / o.games) for o in outcomes]),
        (t(locale, "drawn"), [pct((o.games - o.wins) / o.games) for o in outcomes]),
        (t(locale, "turns per game"), [num(o.mean_turns, 1) for o in outcomes]),
        (t(locale, "  median"), [num(o.median_turns, 1) for o in outcomes]),
    ]
    for seat in range(players):
        label = _seat_label(seat, locale)
        rows.append(
            (
                t(locale, "win share: seat {seat} ({label})", seat=seat, label=label),
                [pct(o.seat_win_share[seat], 1) for o in outcomes],
            )
        )
    rows.append(
        (
            t(locale, "equal seats: chi2 (df) p"),
            [
                "-"
                if o.chi2.statistic is None or o.chi2.p_value is None
                else f"{o.chi2.statistic:.2f} ({o.chi2.df}) p={o.chi2.p_value:.3g}"
                for o in outcomes
            ],
        )
    )
    if any(o.mean_score is not None for o in outcomes):
        for seat in range(players):
            label = _seat_label(seat, locale)
            rows.append(
                (
                    t(locale, "mean score: seat {seat} ({label})", seat=seat, label=label),
                    [
                        num(None if o.mean_score is None else o.mean_score[seat], 1)
                        for o in outcomes
                    ],
                )
            )
    rows.append(
        (t(locale, "games per second"), [f"{o.result.games_per_second:.0f}" for o in outcomes])
    )
    return rows


class GenericSim:
    """Any game for the simulator, through its engine and AI facets alone."""

    @property
    def refusals(self) -> tuple[str, ...]:
        """None of its own: the generic options' and the engine's words say it all."""
        return ()

    def configs(self, game: str, args: argparse.Namespace) -> list[tuple[str, SimConfig]]:
        """One configuration per rule set (``--rules``, or each of ``--compare``'s; the game's
        first rule set by default), with ``--players``, ``--sets``, the ``--rule`` flags and
        the ``--ai`` levels."""
        engine = engine_of(game)
        known = engine.rule_sets(game)
        out = []
        for name in rule_names(args, known):
            rules = engine.make_rules(game, args.players, name, args.sets)
            for flag, value in flag_overrides(args.rule):
                rules = engine.with_flag(rules, flag, value)
            label = name if name is not None else (known[0] if known else game)
            out.append((label, SimConfig(rules, levels(args.ai, rules.players, game))))
        return out

    def new_tally(self, config: SimConfig) -> GenericTally:
        """An empty tally."""
        return GenericTally(config.rules.players)

    def play_chunk(
        self, config: SimConfig, seed: int, start: int, stop: int, keep: bool
    ) -> tuple[GenericTally, Sequence[Any] | None]:
        """Games ``start .. stop-1``, one by one through the engine."""
        records = [play_one(config, seed, index) for index in range(start, stop)]
        tally = self.new_tally(config)
        for record in records:
            tally.add(record)
        return tally, records if keep else None

    def prepare(self, configs: Sequence[SimConfig]) -> int:
        """Nothing to compile."""
        return MAX_CHUNK

    def outcomes(self, results: Sequence[ConfigResult]) -> list[GenericOutcome]:
        """The figures of each configuration."""
        return [summarize(result) for result in results]

    def report(self, outcomes: Sequence[Any], seed: int, locale: str) -> str:
        """One column per rule set, one row per figure."""
        first: GenericOutcome = outcomes[0]
        rules = first.result.config.rules
        lines = [
            t(
                locale,
                "{game}, {players} players; {games} games per rule set, seed {seed}; AI by seat: "
                "{levels}",
                game=game_name(str(rules.game), locale),
                players=rules.players,
                games=first.games,
                seed=seed,
                levels=levels_text(first.result.config.levels, locale),
            ),
            t(locale, "Seats count from the first player (seat 0). Win shares are of won games;"),
            t(locale, "every other rate is of all games."),
            "",
        ]
        lines += table([o.label for o in outcomes], _rows(outcomes, locale))
        return "\n".join(lines)

    def to_json(self, outcomes: Sequence[Any], seed: int) -> list[dict[str, Any]]:
        """One object per configuration."""
        return [outcome.to_json(seed) for outcome in outcomes]

    def write_csv(self, outcomes: Sequence[Any], seed: int, path: Path) -> None:
        """One row per game (every configuration, in game order), with a header row."""
        with path.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(CSV_COLUMNS)
            for outcome in outcomes:
                config = outcome.result.config
                players = config.rules.players
                head = [
                    str(config.rules.game),
                    outcome.label,
                    players,
                    "/".join(config.levels),
                    seed,
                ]
                for index, r in enumerate(outcome.result.records):
                    writer.writerow(
                        [
                            *head,
                            index,
                            r.first_seat,
                            "" if r.winner is None else r.winner,
                            "" if r.winner is None else r.relative(r.winner, players),
                            r.turns,
                            "" if r.scores is None else "/".join(map(str, r.scores)),
                        ]
                    )

    def plot(self, outcomes: Sequence[Any], path: Path) -> None:
        """The share of games by their last turn, one line per configuration."""
        from bot.sim.plot import Series, plot_turn_histograms  # matplotlib is slow to import

        series = [
            Series(
                label=f"{o.label} (mean {num(o.mean_turns, 1)})",
                histogram=o.turn_histogram,
                games=o.games,
            )
            for o in outcomes
        ]
        rules = outcomes[0].result.config.rules
        title = (
            f"{rules.game}, {rules.players} players: turns per game "
            f"({outcomes[0].games} games per rule set)"
        )
        plot_turn_histograms(series, path, title)


FACET: GameSim = GenericSim()
"""The fallback sim facet (:func:`bot.sim.runner.facet_for` of a family without one)."""
