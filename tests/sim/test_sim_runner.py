"""Deterministic seeding and worker-independent results of bot.sim.runner."""

from __future__ import annotations

import itertools
import pickle

import pytest

from bot.engine import make_rules
from bot.games.collecting.sim.play import play_one, play_range
from bot.games.dominoes.sim.adapter import deal_for
from bot.sim.record import GameRecord
from bot.sim.runner import SimConfig, SimError, ai_rng, run

RULES = make_rules("kap-shap")
CONFIG = SimConfig(RULES, ("random", "random"))


def test_game_seeds_depend_on_seed_and_index_only() -> None:
    assert deal_for(RULES, 1, 5) == deal_for(RULES, 1, 5)
    assert deal_for(RULES, 1, 5) != deal_for(RULES, 1, 6)
    assert deal_for(RULES, 1, 5) != deal_for(RULES, 2, 5)
    assert ai_rng(1, 5).random() == ai_rng(1, 5).random()
    assert ai_rng(1, 5).random() != ai_rng(1, 6).random()


def test_rule_sets_with_the_same_players_and_sets_share_deals() -> None:
    for players in (2, 5):
        game = "kap-shap" if players == 2 else "kap-tai-shap"
        deals = [
            [deal_for(make_rules(game, players, name), 3, i) for i in range(20)]
            for name in ("culin", "classic", "last-draw")
        ]
        assert deals[0] == deals[1] == deals[2]


def test_a_game_does_not_depend_on_what_was_played_before() -> None:
    whole = play_range(CONFIG, 11, 0, 12)
    assert play_range(CONFIG, 11, 5, 12) == whole[5:]
    assert play_one(CONFIG, 11, 7) == whole[7]


def test_workers_do_not_change_the_results() -> None:
    configs = [CONFIG, SimConfig(make_rules("kap-shap", rule_set="classic"), ("random",) * 2)]
    one = run(configs, 30, seed=4, workers=1)
    two = run(configs, 30, seed=4, workers=2)
    three = run(configs, 30, seed=4, workers=3)
    for a, b, c in zip(one, two, three, strict=True):
        assert a.config == b.config == c.config
        assert a.records == b.records == c.records
        assert len(a.records) == 30
        assert a.games_per_second > 0


class Recorder:
    def __init__(self) -> None:
        self.total: int | None = None
        self.done = 0

    def start(self, total: int) -> None:
        self.total = total

    def advance(self, games: int) -> None:
        self.done += games


@pytest.mark.parametrize("workers", [1, 2])
def test_progress_is_reported(workers: int) -> None:
    recorder = Recorder()
    run([CONFIG, CONFIG], 25, seed=1, workers=workers, progress=recorder)
    assert recorder.total == 50
    assert recorder.done == 50


def test_unknown_level_is_a_clear_error() -> None:
    with pytest.raises(SimError, match=r"unknown AI level 'wizard': choose one of .*random"):
        run([SimConfig(RULES, ("random", "wizard"))], 1, seed=1)


def test_levels_must_match_the_seats() -> None:
    with pytest.raises(SimError, match="1 AI levels given for 2 seats"):
        SimConfig(RULES, ("random",))


@pytest.mark.parametrize(("games", "workers"), [(0, 1), (1, 0)])
def test_bad_counts(games: int, workers: int) -> None:
    with pytest.raises(SimError):
        run([CONFIG], games, seed=1, workers=workers)


def test_records_and_configs_pickle() -> None:
    # Worker processes send both across a pipe.
    record = GameRecord(0, 1, "declared", "take", 9, 3, 12)
    assert pickle.loads(pickle.dumps(record)) == record
    assert pickle.loads(pickle.dumps(CONFIG)) == CONFIG


@pytest.mark.parametrize(
    ("games", "workers", "cap"), [(1, 2, 250), (25, 1, 250), (60_000, 2, 4096), (997, 3, 64)]
)
def test_chunks_cover_the_games_once_in_order_and_shrink(
    games: int, workers: int, cap: int
) -> None:
    from bot.sim.runner import _chunks

    chunks = _chunks(games, workers, cap)
    assert chunks[0][0] == 0 and chunks[-1][1] == games
    assert all(a[1] == b[0] for a, b in itertools.pairwise(chunks))
    sizes = [stop - start for start, stop in chunks]
    assert all(0 < size <= cap for size in sizes)
    # Large chunks first, small ones last (the very last one is what remains).
    assert sizes[:-1] == sorted(sizes[:-1], reverse=True)
    assert sizes[-1] <= sizes[0]
