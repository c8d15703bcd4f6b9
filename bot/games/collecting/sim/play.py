"""Playing the collecting games for the simulator: one game through the public engine API (the
reference path), the fastest path that plays exactly like it, and chunks of a run (in the
compiled kernel when it plays every seat).

When the compiled kernel (:mod:`bot.games.collecting.sim.kernel`, the ``.[sim]`` extra) is
installed and every
seat plays a level it knows, a chunk of games is dealt and played there in one call (its rows
tallied with numpy, no record built); otherwise game by game in Python (:func:`play_game`).
Both give the same records (``tests/sim/test_kernel.py``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.engine import Deal, RuleSet, apply, legal_actions, new_game, view
from bot.games.collecting.ai.levels import get_player
from bot.games.collecting.engine.actions import Take
from bot.games.collecting.engine.machine import Phase
from bot.games.collecting.sim.fast import FAST_LEVELS, play_fast
from bot.games.dominoes.sim.adapter import deal_for
from bot.games.dominoes.sim.seeding import deal_key
from bot.sim.record import GameRecord
from bot.sim.runner import SimConfig, ai_rng
from bot.sim.stats import GameTally, tally_games

__all__ = [
    "kernel_plays",
    "play_chunk",
    "play_game",
    "play_one",
    "play_range",
    "play_reference",
]


def play_reference(
    rules: RuleSet, deal: Deal, levels: Sequence[str], rng: random.Random
) -> GameRecord:
    """Play a whole game with one AI level per seat through new_game/legal_actions/apply/view.

    This is the reference the fast path must match game for game.
    """
    players = [get_player(level) for level in levels]
    state = new_game(rules, [f"seat {i}" for i in range(rules.players)], deal)
    takes = 0
    take_pool_total = 0
    while state.result is None:
        seat = state.current
        legal = legal_actions(state)
        action = players[seat].choose(view(state, seat), legal, rng)
        if isinstance(action, Take) and state.phase is Phase.TAKE_OR_DRAW:
            takes += 1
            take_pool_total += len(state.pool) - state.live_from
        state, _ = apply(state, action)
    result = state.result
    return GameRecord(
        first_seat=deal.first_seat,
        winner=result.winner,
        reason=result.reason.value,
        win_by=result.win_by.value if result.win_by else None,
        turns=result.turn,
        takes=takes,
        take_pool_total=take_pool_total,
    )


def play_game(rules: RuleSet, deal: Deal, levels: Sequence[str], rng: random.Random) -> GameRecord:
    """Play one game for the simulator (the fastest path that plays exactly like the reference).

    Levels the fast path knows (:data:`bot.games.collecting.sim.fast.FAST_LEVELS`) play there; a
    table with any
    other level plays through the public engine API.
    """
    if all(level in FAST_LEVELS for level in levels):
        return play_fast(rules, deal, levels, rng)
    return play_reference(rules, deal, levels, rng)


def kernel_plays(config: SimConfig) -> bool:
    """Whether the compiled kernel is here and plays every seat of ``config``."""
    if not set(config.levels) <= {"greedy", "expert"}:
        return False
    from bot.games.collecting.ai import kernel

    return kernel.available()


def play_one(config: SimConfig, seed: int, index: int) -> GameRecord:
    """Play game ``index`` of a run."""
    deal = deal_for(config.rules, seed, index)
    return play_game(config.rules, deal, config.levels, ai_rng(seed, index))


def play_range(config: SimConfig, seed: int, start: int, stop: int) -> list[GameRecord]:
    """Play games ``start .. stop-1`` of a run, in order."""
    if kernel_plays(config):
        from bot.games.collecting.sim import kernel

        keys = [deal_key(seed, index) for index in range(start, stop)]
        return kernel.play_batch(config.rules, config.levels, keys)
    return [play_one(config, seed, index) for index in range(start, stop)]


def play_chunk(
    config: SimConfig, seed: int, start: int, stop: int, keep: bool
) -> tuple[GameTally, Sequence[GameRecord] | None]:
    """The tally of games ``start .. stop-1`` of a run, and their records if ``keep``."""
    if kernel_plays(config):
        from bot.games.collecting.sim import kernel

        return kernel.play_games(config.rules, config.levels, seed, start, stop, keep)
    records = play_range(config, seed, start, stop)
    return tally_games(records, config.rules.players), records if keep else None
