"""Tsung Shap as a state machine: the deal, a new game, the legal actions and applying one
(RULES.md §3; the rules of play are in :mod:`bot.games.fishing.engine`'s docstring)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.engine.deal import Deal
from bot.engine.errors import IllegalAction, RulesError
from bot.engine.events import TurnStarted
from bot.engine.rules import Game, RuleSet
from bot.engine.tiles import KINDS, Tile
from bot.games.dominoes.engine.actions import Draw
from bot.games.fishing.engine.actions import Capture, Claim, ComboKind, End, FishingAction, Place
from bot.games.fishing.engine.model import (
    Captured,
    Claimed,
    FishingEndReason,
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
    _Pending,
    row_tiles,
)
from bot.games.fishing.engine.scoring import (
    RowCapture,
    _canonical,
    _combination,
    row_captures,
    tile_values,
)


def _check_rules(rules: RuleSet) -> None:
    if rules.game is not Game.TSUNG_SHAP:
        raise RulesError(f"this engine plays Tsung Shap, not {rules.game}")


def deal_from_piles(
    rules: RuleSet,
    first_pile: Sequence[Tile],
    second_pile: Sequence[Tile] = (),
    first_seat: int = 0,
) -> Deal:
    """An exact deal written in tiles, for tests and puzzles.

    ``first_pile`` / ``second_pile`` are the first tiles the first player / the other player
    turn over, in order (up to 16 each). The pieces not named fill the rest of the first pile,
    then the rest of the second, in piece order.
    """
    _check_rules(rules)
    size = rules.pile_size
    for name, pile in (("first", first_pile), ("second", second_pile)):
        if len(pile) > size:
            raise RulesError(f"the {name} pile holds {size} tiles, not {len(pile)}")
    if not 0 <= first_seat < rules.players:
        raise RulesError(f"first seat {first_seat} is not at this table")
    free: dict[int, list[int]] = {}
    for piece in range(rules.tile_count):
        free.setdefault(_kind(piece), []).append(piece)

    def take(tile: Tile) -> int:
        pool = free.get(tile.index)
        if not pool:
            raise RulesError(f"the deal uses more {tile} tiles than one set holds")
        return pool.pop(0)

    first = [take(t) for t in first_pile]
    second = [take(t) for t in second_pile]
    rest = sorted(p for pieces in free.values() for p in pieces)
    fill = size - len(first)
    order = first + rest[:fill] + second + rest[fill:]
    return Deal(order=tuple(order), first_seat=first_seat)


def new_game(rules: RuleSet, seats: Sequence[str], deal: Deal) -> FishingState:
    """Set up a game: the first player's pile is ``deal.order[:16]``, the other's the rest."""
    _check_rules(rules)
    if len(seats) != rules.players:
        raise RulesError(f"{len(seats)} seats given for a {rules.players}-player rule set")
    if sorted(deal.order) != list(range(rules.tile_count)):
        raise RulesError("the deal is not a permutation of the tiles of this rule set")
    if not 0 <= deal.first_seat < rules.players:
        raise RulesError(f"first seat {deal.first_seat} is not at this table")
    size = rules.pile_size
    piles: list[tuple[int, ...]] = [()] * rules.players
    piles[deal.first_seat] = tuple(deal.order[:size])
    piles[1 - deal.first_seat] = tuple(deal.order[size : 2 * size])
    return FishingState(
        rules=rules,
        seats=tuple(seats),
        deal=deal,
        piles=tuple(piles),
        row=(),
        captured=((), ()),
        scores=(0, 0),
        current=deal.first_seat,
        phase=FishingPhase.TURN_OVER,
        turn=1,
    )


def _row_kinds(state: FishingState) -> list[int]:
    return [_kind(p) for p in state.row]


def _play_options(state: FishingState) -> list[RowCapture]:
    """The captures the turned tile allows now, after ``auto_capture``'s restriction."""
    assert state.turned is not None
    options = row_captures(state.rules, _row_kinds(state), _kind(state.turned))
    if state.rules.auto_capture and options:
        best = max(o.score for o in options)
        options = [o for o in options if o.score == best]
    return options


def legal_actions(state: FishingState) -> list[FishingAction]:
    """Every action the current player may take now (empty once the game is over).

    ``turn-over``: the claims of pending missed captures (if not claimed yet), then ``draw``.
    ``play``: the captures, then ``place left`` and ``place right`` (no placing under
    ``auto_capture`` when a capture exists).
    """
    if state.result is not None:
        return []
    if state.phase is FishingPhase.TURN_OVER:
        actions: list[FishingAction] = []
        if not state.claimed:
            for pending in state.pending:
                claim = pending.combination.claim
                if claim not in actions:
                    actions.append(claim)
        actions.append(Draw())
        return actions
    options = _play_options(state)
    out: list[FishingAction] = [Capture(o.kind, o.end) for o in options]
    if not (state.rules.auto_capture and options):
        out += [Place(End.LEFT), Place(End.RIGHT)]
    return out


def _normalise(state: FishingState, action: FishingAction) -> FishingAction:
    """Accept the other names of the same capture (``pair right`` on a one-tile row,
    ``triplet left|right`` on a 2-tile row, and likewise for claims)."""
    if isinstance(action, Capture) and state.phase is FishingPhase.PLAY:
        return Capture(*_canonical(action.kind, action.end, len(state.row)))
    if isinstance(action, Claim):
        for pending in state.pending:
            combo = pending.combination
            if (combo.kind, combo.end) == _canonical(action.kind, action.end, pending.row_len):
                return Claim(combo.kind, combo.end)
    return action


def _explain(state: FishingState, action: FishingAction) -> str:
    """Why an action is illegal, in a player's words."""
    names = state.seats
    if state.phase is FishingPhase.TURN_OVER:
        match action:
            case Capture() | Place():
                return "turn over your next tile first ('draw')"
            case Claim(kind, end):
                if state.claimed:
                    return "you have already claimed one missed combination this turn"
                if not state.pending:
                    return "there is no missed capture to claim"
                missed_by = names[state.pending[0].seat]
                could = ", ".join(f"'{p.combination.claim}'" for p in state.pending)
                return f"{missed_by} did not miss a {kind} at {end}: you may claim {could}"
        return f"'{action}' is not allowed now"
    assert state.turned is not None
    tile = KINDS[_kind(state.turned)]
    row = row_tiles(state)
    match action:
        case Draw():
            return f"you have turned over {tile} already: capture with it or place it"
        case Claim():
            return "missed captures are claimed at the start of a turn, before turning over"
        case Place():
            best = ", ".join(f"'{c}'" for c in legal_actions(state))
            return f"auto_capture: you must take the best capture ({best})"
        case Capture(kind, end):
            everything = row_captures(state.rules, _row_kinds(state), tile.index)
            if any((o.kind, o.end) == (kind, end) for o in everything):
                best = ", ".join(f"'{c}'" for c in legal_actions(state))
                return f"auto_capture: only the best capture may be taken ({best})"
            if kind is ComboKind.PAIR:
                other = row[0] if end is End.LEFT else row[-1]
                return f"{tile} is not identical to the {end} end tile {other}"
            if len(row) < 2:
                return "a triplet needs two tiles on the row"
            if state.rules.triplet_both_ends_only and end is not End.ENDS:
                return (
                    "with triplet_both_ends_only a triplet is the turned tile with both end "
                    "tiles ('capture triplet ends')"
                )
            a, b = {
                End.LEFT: (row[0], row[1]),
                End.RIGHT: (row[-2], row[-1]),
                End.ENDS: (row[0], row[-1]),
            }[end]
            total = max(
                x + y + z
                for x in tile_values(tile, state.rules.four_two_value)
                for y in tile_values(a, state.rules.four_two_value)
                for z in tile_values(b, state.rules.four_two_value)
            )
            return f"{tile} + {a} + {b} total {total}, not a multiple of ten"
    return f"'{action}' is not allowed now"


def apply(state: FishingState, action: FishingAction) -> tuple[FishingState, list[FishingEvent]]:
    """Play one action for the current player; returns the new state and what happened.

    Raises :class:`IllegalAction` (with the reason) for anything the rules do not allow.
    """
    if state.result is not None:
        raise IllegalAction("the game is over")
    action = _normalise(state, action)
    if action not in legal_actions(state):
        raise IllegalAction(_explain(state, action))
    events: list[FishingEvent] = []
    match action:
        case Claim():
            state = _claim(state, action, events)
        case Draw():
            state = _draw(state, events)
        case Capture():
            state = _capture(state, action, events)
        case Place(end):
            state = _place(state, end, events)
    return replace(state, version=state.version + 1), events


def _with(
    values: tuple[tuple[int, ...], ...], seat: int, new: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    out = list(values)
    out[seat] = new
    return tuple(out)


def _add_score(scores: tuple[int, ...], seat: int, points: int) -> tuple[int, ...]:
    out = list(scores)
    out[seat] += points
    return tuple(out)


def _claim(state: FishingState, action: Claim, events: list[FishingEvent]) -> FishingState:
    seat = state.current
    pending = next(
        p
        for p in state.pending
        if (p.combination.kind, p.combination.end) == (action.kind, action.end)
    )
    taken = set(pending.pieces)
    combo = pending.combination
    events.append(Claimed(seat, pending.seat, combo))
    return replace(
        state,
        row=tuple(p for p in state.row if p not in taken),
        captured=_with(state.captured, seat, state.captured[seat] + pending.pieces),
        scores=_add_score(state.scores, seat, combo.score),
        pending=(),
        claimed=True,
        history=(
            *state.history,
            FishingMove(state.turn, seat, str(action), combo.tiles, combo.score),
        ),
    )


def _turn_over(
    state: FishingState, events: list[FishingEvent], *, relay: bool = False
) -> tuple[FishingState, int]:
    seat = state.current
    pile = state.piles[seat]
    piece = pile[0]
    tile = KINDS[_kind(piece)]
    state = replace(
        state,
        piles=_with(state.piles, seat, pile[1:]),
        history=(
            *state.history,
            FishingMove(state.turn, seat, "relay" if relay else "draw", (tile,)),
        ),
    )
    events.append(TileTurned(seat, tile, len(pile) - 1, relay))
    return state, piece


def _draw(state: FishingState, events: list[FishingEvent]) -> FishingState:
    seat = state.current
    # Turning over lets any unclaimed miss lapse.
    state, piece = _turn_over(replace(state, pending=()), events)
    tile = KINDS[_kind(piece)]
    if not state.row:
        events.append(Placed(seat, tile, None, auto=True))
        return _end_turn(replace(state, row=(piece,)), events)
    if state.turn == 2 and not state.rules.second_may_capture_opening:
        events.append(Placed(seat, tile, End.RIGHT, auto=True))
        return _end_turn(replace(state, row=(*state.row, piece)), events)
    return replace(state, phase=FishingPhase.PLAY, turned=piece)


def _capture(state: FishingState, action: Capture, events: list[FishingEvent]) -> FishingState:
    seat = state.current
    assert state.turned is not None
    kinds = _row_kinds(state)
    tile_kind = _kind(state.turned)
    option = next(o for o in _play_options(state) if (o.kind, o.end) == (action.kind, action.end))
    combo = _combination(option, tile_kind, kinds)
    pieces = (state.turned, *(state.row[i] for i in option.indices))
    state = replace(
        state,
        row=tuple(p for i, p in enumerate(state.row) if i not in option.indices),
        captured=_with(state.captured, seat, state.captured[seat] + pieces),
        scores=_add_score(state.scores, seat, combo.score),
        turned=None,
        history=(
            *state.history,
            FishingMove(state.turn, seat, str(action), combo.tiles, combo.score),
        ),
    )
    events.append(Captured(seat, combo.kind, combo.end, combo.tiles, combo.score, combo.sweep))
    if combo.sweep:
        events.append(Swept(seat))
        if state.piles[seat]:
            state, piece = _turn_over(state, events, relay=True)
            events.append(Placed(seat, KINDS[_kind(piece)], None, auto=True))
            state = replace(state, row=(piece,))
    return _end_turn(state, events)


def _place(state: FishingState, end: End, events: list[FishingEvent]) -> FishingState:
    seat = state.current
    piece = state.turned
    assert piece is not None
    kinds = _row_kinds(state)
    tile_kind = _kind(piece)
    missed = row_captures(state.rules, kinds, tile_kind)
    pending = tuple(
        _Pending(
            _combination(o, tile_kind, kinds),
            (piece, *(state.row[i] for i in o.indices)),
            len(state.row),
            seat,
        )
        for o in missed
    )
    row = (piece, *state.row) if end is End.LEFT else (*state.row, piece)
    state = replace(
        state,
        row=row,
        turned=None,
        pending=pending,
        history=(
            *state.history,
            FishingMove(state.turn, seat, f"place {end}", (KINDS[tile_kind],)),
        ),
    )
    events.append(Placed(seat, KINDS[tile_kind], end))
    if pending:
        events.append(MissedCapture(seat, 1 - seat, tuple(p.combination for p in pending)))
    return _end_turn(state, events)


def _end_turn(state: FishingState, events: list[FishingEvent]) -> FishingState:
    """Finish the current turn: end the game, or hand the turn on."""
    rules = state.rules
    seat = state.current
    empty = [not pile for pile in state.piles]
    if rules.play_until_both_piles_empty:
        over, reason = all(empty), FishingEndReason.BOTH_PILES_EMPTY
    else:
        over, reason = any(empty), FishingEndReason.PILE_EMPTY
    if over:
        top = max(state.scores)
        leaders = [s for s, score in enumerate(state.scores) if score == top]
        winner = leaders[0] if len(leaders) == 1 else None
        result = FishingResult(reason, state.turn, state.scores, winner)
        events.append(GameOver(state.scores, winner, reason))
        return replace(state, phase=FishingPhase.OVER, result=result, pending=(), turned=None)
    following = 1 - seat
    if empty[following]:
        # Only with play_until_both_piles_empty: the other player plays on alone, and his
        # misses lapse (nobody is left to claim them).
        following = seat
    state = replace(
        state,
        current=following,
        turn=state.turn + 1,
        phase=FishingPhase.TURN_OVER,
        turned=None,
        claimed=False,
        pending=state.pending if following != seat else (),
    )
    events.append(TurnStarted(following, state.turn))
    return state
