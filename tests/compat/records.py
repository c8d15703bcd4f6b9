"""Game records pinned by the compatibility tests: games played by today's engine and AI from
fixed seeds, written by :func:`bot.engine.record.write_record`.

Each :class:`RecordCase` is a whole game (or the start of one): its rules, seats, the seed of
its deal and of its players' choices. :func:`play` plays it through the public engine API
(:func:`bot.engine.make_deal`, ``new_game``, ``legal_actions``, ``apply``, ``view``) with
computer players from :func:`bot.ai.levels.player_for`, and returns its record. The tests check
that the pinned text reads back (:func:`~bot.engine.record.parse_record`), replays, and writes
again byte for byte, that its final state has the pinned facts, and that playing the case again
today gives the same text (same deal, same choices).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.ai.levels import player_for
from bot.engine import apply, legal_actions, make_deal, make_rules, new_game, view
from bot.engine.record import GameRecord, RecordSeat, final_state, result_line, write_record

__all__ = ["CASES", "RecordCase", "facts", "pin_name", "play"]

_TAGS = {
    "Id": "0123456789ab",
    "Server": "1000000000000000001",
    "Channel": "1000000000000000002",
    "Date": "2026-11-26T10:00:00Z",
}


@dataclass(frozen=True, slots=True)
class RecordCase:
    """One pinned game: ``outcome`` is a part of its ``Result`` line (checked, so that the case
    stays what its name says)."""

    name: str
    game: str
    players: int
    levels: tuple[str, ...]
    seed: int
    outcome: str
    rule_set: str | None = None
    sets: int | None = None
    flags: Mapping[str, Any] = field(default_factory=dict)
    seats: tuple[RecordSeat, ...] | None = None
    tags: bool = False
    stop_after: int | None = None


_PEOPLE = (
    RecordSeat("Alice", "member", "11"),
    RecordSeat("阿明", "member", "12"),
    RecordSeat("Bob; the second", "player"),
)

CASES = (
    RecordCase("kap-shap-culin-take", "kap-shap", 2, ("greedy", "greedy"), 4,
               "seat 1 wins (declared, take)", seats=_PEOPLE[:2], tags=True),
    RecordCase("kap-shap-classic-draw", "kap-shap", 2, ("expert", "random"), 2,
               "seat 0 wins (declared, draw)", rule_set="classic"),
    RecordCase("kap-shap-last-draw-wall", "kap-shap", 2, ("random", "random"), 1,
               "drawn (wall)", rule_set="last-draw", seats=(_PEOPLE[2], _PEOPLE[1])),
    RecordCase("kap-shap-turn-cap", "kap-shap", 2, ("random", "random"), 1, "drawn (cap)",
               flags={"max_turns": 12}),
    RecordCase("kap-shap-variants", "kap-shap", 2, ("greedy", "expert"), 0, "seat 1 wins",
               flags={"four_two_value": "wild", "exclude_own_discards": True,
                      "first_player": "lots", "civil_eyes_only": True}),
    RecordCase("kap-shap-unfinished", "kap-shap", 2, ("greedy", "greedy"), 7, "unfinished",
               stop_after=5, tags=True),
    RecordCase("kap-tai-shap-4-culin", "kap-tai-shap", 4,
               ("greedy", "greedy", "greedy", "expert"), 0, "seat 3 wins", rule_set="culin"),
    RecordCase("kap-tai-shap-6-classic-wall", "kap-tai-shap", 6, ("random",) * 5 + ("greedy",),
               71, "drawn (wall)", rule_set="classic"),
    RecordCase("kap-tai-shap-5-dealt", "kap-tai-shap", 5, ("expert",) * 5, 43,
               "wins (declared, dealt)", rule_set="last-draw",
               flags={"first_turn_extra_draw": True, "pot_carries_over": True}),
    RecordCase("tsung-shap-base", "tsung-shap", 2, ("greedy", "random"), 46, "seat 1 wins",
               seats=_PEOPLE[:2], tags=True),
    RecordCase("tsung-shap-difference", "tsung-shap", 2, ("expert", "greedy"), 0, "wins",
               flags={"settlement": "difference", "settle_rate": 3}),
    RecordCase("tsung-shap-variants", "tsung-shap", 2, ("random", "greedy"), 0, "wins",
               flags={"auto_capture": True, "sweep_adds_pips": True,
                      "triplet_both_ends_only": True, "four_two_value": 3}),
    RecordCase("tsung-shap-both-piles", "tsung-shap", 2, ("random", "random"), 0,
               "(both-piles-empty)",
               flags={"play_until_both_piles_empty": True, "second_may_capture_opening": True}),
    RecordCase("tsung-shap-drawn", "tsung-shap", 2, ("greedy", "greedy"), 19, "drawn"),
)  # fmt: skip
"""Every game and rule set, won (by a take, a draw, the dealt hand; Tsung Shap by points),
drawn (wall, turn cap, equal points), settled by difference, and an unfinished game."""


def pin_name(case: RecordCase) -> str:
    """The pinned record of a case."""
    return f"records/{case.name}.txt"


def play(case: RecordCase) -> tuple[GameRecord, str]:
    """The case's game played today, and its record text."""
    rules = make_rules(case.game, case.players, case.rule_set, case.sets, **case.flags)
    deal = make_deal(rules, random.Random(f"compat-record:{case.seed}"))
    seats = case.seats or tuple(
        RecordSeat(f"AI {i + 1}", "ai", level) for i, level in enumerate(case.levels)
    )
    names = [s.name for s in seats]
    state: Any = new_game(rules, names, deal)
    players = [player_for(case.game, level) for level in case.levels]
    rng = random.Random(case.seed)
    actions: list[str] = []
    while state.result is None and (case.stop_after is None or len(actions) < case.stop_after):
        seat = state.current
        action = players[seat].choose(view(state, seat), legal_actions(state), rng)
        state, _ = apply(state, action)
        actions.append(str(action))
    record = GameRecord(rules, seats, deal, tuple(actions), dict(_TAGS) if case.tags else {})
    return record, write_record(record)


def facts(record: GameRecord) -> dict[str, Any]:
    """What a replay of the record ends with: the result (winner, reason, how, scores), the
    turn, whose turn it is, and how many actions were played."""
    state: Any = final_state(record)
    result = state.result
    return {
        "result": result_line(state),
        "winner": None if result is None else result.winner,
        "reason": None if result is None else _plain(result.reason),
        "win_by": _plain(getattr(result, "win_by", None)),
        "scores": None if result is None else _list(getattr(result, "scores", None)),
        "turn": state.turn,
        "current": state.current,
        "actions": len(record.actions),
    }


def _list(value: Any) -> Any:
    return None if value is None else list(value)


def _plain(value: Any) -> Any:
    # An enum member as the text it is stored as.
    return getattr(value, "value", value)
