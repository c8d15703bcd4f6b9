"""What a seat may see of a Tsung Shap game (everything is public but the piles' order), and
the events in words."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine.errors import RulesError
from bot.engine.events import TurnStarted
from bot.engine.rules import RuleSet
from bot.engine.tiles import KINDS, Tile, sort_tiles
from bot.games.fishing.engine.actions import End
from bot.games.fishing.engine.machine import _play_options, _row_kinds
from bot.games.fishing.engine.model import (
    Captured,
    Claimed,
    Combination,
    FishingEvent,
    FishingMove,
    FishingPhase,
    FishingResult,
    FishingState,
    GameOver,
    MissedCapture,
    Placed,
    Swept,
    TileTurned,
    _kind,
    row_tiles,
)
from bot.games.fishing.engine.scoring import _combination


def describe_event(event: FishingEvent, viewer: int | None, names: Sequence[str]) -> str:
    """One line describing ``event`` (everything is public, so ``viewer`` changes nothing)."""
    match event:
        case TurnStarted(seat, turn):
            return f"Turn {turn}: {names[seat]} to play."
        case TileTurned(seat, tile, pile_left, relay):
            what = "turned over" if not relay else "at once turned over"
            return f"{names[seat]} {what} {tile.label} ({pile_left} left in the pile)."
        case Placed(seat, tile, end, _auto):
            if end is None:
                return f"{names[seat]} laid {tile} out to start a new row."
            return f"{names[seat]} placed {tile} at the {end} end of the row."
        case Captured(seat, kind, end, tiles, score, sweep):
            joined = " + ".join(map(str, tiles))
            if sweep:
                return f"{names[seat]} swept the row with {joined}: {score} points."
            where = "both ends" if end is End.ENDS else f"the {end} end"
            return f"{names[seat]} captured a {kind} at {where}, {joined}: {score} points."
        case Swept(seat):
            return f"{names[seat]} swept the table and starts a new row."
        case MissedCapture(seat, claimant, missed):
            options = "; ".join(
                f"'{c.claim}' ({' + '.join(map(str, c.tiles))}: {c.score})" for c in missed
            )
            return (
                f"{names[seat]} could have captured and did not. {names[claimant]} may claim "
                f"one at the start of the next turn: {options}."
            )
        case Claimed(seat, from_seat, combo):
            joined = " + ".join(map(str, combo.tiles))
            return (
                f"{names[seat]} claimed the {combo.kind} {names[from_seat]} missed "
                f"({combo.end}), {joined}: {combo.score} points."
            )
        case GameOver(scores, winner, _reason):
            table = ", ".join(f"{names[s]} {p}" for s, p in enumerate(scores))
            if winner is None:
                return f"Game over: {table}. Equal scores: the game is drawn."
            return f"Game over: {table}. {names[winner]} wins."
    raise AssertionError(f"unknown event {event!r}")


# ---------------------------------------------------------------------------------------------
# What a seat may see


@dataclass(frozen=True, slots=True)
class FishingView:
    """Everything a seat (or a spectator, ``seat is None``) may know: the same for everybody,
    since Tsung Shap hides nothing but the order of the piles, which nobody knows."""

    rules: RuleSet
    seat: int | None
    seat_names: tuple[str, ...]
    row: tuple[Tile, ...]
    scores: tuple[int, ...]
    pile_sizes: tuple[int, ...]
    captured: tuple[tuple[Tile, ...], ...]
    turned: Tile | None
    options: tuple[Combination, ...]
    pending: tuple[Combination, ...]
    missed_by: int | None
    current: int
    first_seat: int
    phase: FishingPhase
    turn: int
    history: tuple[FishingMove, ...]
    result: FishingResult | None
    version: int

    @property
    def my_turn(self) -> bool:
        """Whether this seat is to act now."""
        return self.result is None and self.seat == self.current

    @property
    def unseen(self) -> tuple[Tile, ...]:
        """The tiles nobody has seen yet (left in either pile, in no known order), sorted."""
        seen = [*self.row, *(t for tiles in self.captured for t in tiles)]
        if self.turned is not None:
            seen.append(self.turned)
        counts = [tile.copies_per_set * self.rules.sets for tile in KINDS]
        for tile in seen:
            counts[tile.index] -= 1
        return tuple(tile for tile in KINDS for _ in range(counts[tile.index]))


def view(state: FishingState, seat: int | None) -> FishingView:
    """What ``seat`` may see: the row, the scores and captures, the size of each pile, the
    turned tile with the captures it allows, the pending missed captures and the history.

    Never the order (or the contents) of a pile.
    """
    if seat is not None and not 0 <= seat < state.rules.players:
        raise RulesError(f"seat {seat} is not at this table")
    turned = KINDS[_kind(state.turned)] if state.turned is not None else None
    options: tuple[Combination, ...] = ()
    if state.turned is not None and state.result is None:
        kinds = _row_kinds(state)
        options = tuple(_combination(o, _kind(state.turned), kinds) for o in _play_options(state))
    pending = () if state.claimed else tuple(p.combination for p in state.pending)
    return FishingView(
        rules=state.rules,
        seat=seat,
        seat_names=state.seats,
        row=tuple(row_tiles(state)),
        scores=state.scores,
        pile_sizes=tuple(len(p) for p in state.piles),
        captured=tuple(tuple(sort_tiles(KINDS[_kind(p)] for p in c)) for c in state.captured),
        turned=turned,
        options=options,
        pending=pending,
        missed_by=state.pending[0].seat if pending else None,
        current=state.current,
        first_seat=state.deal.first_seat,
        phase=state.phase,
        turn=state.turn,
        history=state.history,
        result=state.result,
        version=state.version,
    )
