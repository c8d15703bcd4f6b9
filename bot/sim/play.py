"""Playing one game for the simulator through the public engine API (the reference path)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.ai import get_player
from bot.engine import Deal, RuleSet, Take, apply, legal_actions, new_game, view
from bot.engine.collecting import Phase
from bot.sim.fast import FAST_LEVELS, play_fast
from bot.sim.record import GameRecord

__all__ = ["play_game", "play_reference"]


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

    Levels the fast path knows (:data:`bot.sim.fast.FAST_LEVELS`) play there; a table with any
    other level plays through the public engine API.
    """
    if all(level in FAST_LEVELS for level in levels):
        return play_fast(rules, deal, levels, rng)
    return play_reference(rules, deal, levels, rng)
