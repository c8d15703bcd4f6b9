"""The collecting games (Kap Shap, Kap Tai Shap) as a state machine (RULES.md §2.2-§2.4).

Drive it only through :func:`new_game`, :func:`legal_actions`, :func:`apply` and :func:`view`.
States are never changed in place: :func:`apply` returns a new state and the events it caused.

A turn moves through phases: ``take-or-draw`` (holding H-1), ``discard`` (holding H: discard or
declare), and, when the rule set requires a draw after the discard, ``draw`` then ``discard``
again. The first player starts in ``discard`` with his dealt H tiles.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from bot.engine.deal import Deal
from bot.engine.errors import IllegalAction, RulesError
from bot.engine.events import TurnStarted
from bot.engine.rules import Offer, RuleSet
from bot.engine.tiles import KINDS, PIECE_KINDS, PIECES_PER_SET, Tile, sort_tiles
from bot.games.collecting.engine.actions import Action, Declare, Discard, Take
from bot.games.collecting.engine.hands import Witness, find_witness, is_winning_counts
from bot.games.dominoes.engine.actions import Draw

__all__ = [
    "Declared",
    "Discarded",
    "Drew",
    "Event",
    "GameDrawn",
    "GameState",
    "Move",
    "Phase",
    "PoolTile",
    "Result",
    "Took",
    "TurnStarted",
    "View",
    "apply",
    "describe_event",
    "hand_tiles",
    "legal_actions",
    "new_game",
    "view",
]


class Phase(enum.StrEnum):
    """Where the current player is within his turn."""

    TAKE_OR_DRAW = "take-or-draw"
    DISCARD = "discard"
    DRAW = "draw"
    OVER = "over"


class WinBy(enum.StrEnum):
    """Where the tile that completed a winning hand came from."""

    DEALT = "dealt"
    TAKE = "take"
    DRAW = "draw"


class EndReason(enum.StrEnum):
    """Why a game ended."""

    DECLARED = "declared"
    WALL = "wall"
    CAP = "cap"


@dataclass(frozen=True, slots=True)
class Result:
    """The end of a game: a winner with his arrangement, or a draw (``winner is None``)."""

    reason: EndReason
    turn: int
    winner: int | None = None
    witness: Witness | None = None
    win_by: WinBy | None = None


@dataclass(frozen=True, slots=True)
class PoolEntry:
    """One face-up discard (internal: carries the physical piece)."""

    piece: int
    seat: int
    turn: int


@dataclass(frozen=True, slots=True)
class PoolTile:
    """One face-up discard as players see it. Dead discards are visible but never takeable.

    ``takeable`` is true exactly when the seat whose view this is may take this copy now (its
    turn, before its take or draw): the same discards :func:`legal_actions` offers, after the
    offer, ``exclude_own_discards``, the stall guard and the empty wall (RULES.md §2.4).
    """

    tile: Tile
    seat: int
    turn: int
    dead: bool
    takeable: bool = False


@dataclass(frozen=True, slots=True)
class Move:
    """A public record of one action: what every player saw (a drawn tile stays hidden)."""

    turn: int
    seat: int
    verb: str
    tile: Tile | None = None
    from_seat: int | None = None

    def __str__(self) -> str:
        return self.verb if self.tile is None else f"{self.verb} {self.tile}"


# ---------------------------------------------------------------------------------------------
# Events


@dataclass(frozen=True, slots=True)
class Took:
    """A player took a face-up discard (public)."""

    seat: int
    tile: Tile
    from_seat: int


@dataclass(frozen=True, slots=True)
class Drew:
    """A player drew from the wall. ``tile`` is private to ``seat``."""

    seat: int
    tile: Tile
    wall_left: int


@dataclass(frozen=True, slots=True)
class Discarded:
    """A player laid a tile face up."""

    seat: int
    tile: Tile


@dataclass(frozen=True, slots=True)
class Declared:
    """A player declared a verified winning hand; the hand is revealed."""

    seat: int
    witness: Witness
    win_by: WinBy


@dataclass(frozen=True, slots=True)
class GameDrawn:
    """The game ended without a winner."""

    reason: EndReason


Event = TurnStarted | Took | Drew | Discarded | Declared | GameDrawn


# "(draw)" read like a drawn game: say where the winning tile came from.
_WIN_BY_WORDS = {
    WinBy.DEALT: "as dealt",
    WinBy.TAKE: "by taking a discard",
    WinBy.DRAW: "with a tile drawn from the wall",
}


def describe_event(event: Event, viewer: int | None, names: Sequence[str]) -> str:
    """One line for ``viewer`` (a seat, or None for a spectator); hides private tiles."""
    match event:
        case TurnStarted(seat, turn):
            return f"Turn {turn}: {names[seat]} to play."
        case Took(seat, tile, from_seat):
            if from_seat == seat:  # Culin lets a player take back his own discard
                return f"{names[seat]} took back {tile.label}."
            return f"{names[seat]} took {tile.label} discarded by {names[from_seat]}."
        case Drew(seat, tile, wall_left):
            what = f"drew {tile.label}" if viewer == seat else "drew a tile"
            return f"{names[seat]} {what} ({wall_left} left in the wall)."
        case Discarded(seat, tile):
            return f"{names[seat]} discarded {tile.label}."
        case Declared(seat, witness, win_by):
            how = _WIN_BY_WORDS[win_by]
            return f"{names[seat]} declared a winning hand {how}: {witness}."
        case GameDrawn(reason):
            why = "the wall is exhausted" if reason is EndReason.WALL else "the turn limit"
            return f"The game is drawn: {why}."
    raise AssertionError(f"unknown event {event!r}")


# ---------------------------------------------------------------------------------------------
# State


@dataclass(frozen=True, slots=True)
class GameState:
    """A whole game. Treat as opaque outside the engine; read it through :func:`view`."""

    rules: RuleSet
    seats: tuple[str, ...]
    deal: Deal
    hands: tuple[tuple[int, ...], ...]
    wall: tuple[int, ...]
    wall_pos: int
    pool: tuple[PoolEntry, ...]
    live_from: int
    current: int
    phase: Phase
    turn: int
    turns_without_draw: int  # consecutive turns with a take and no draw (the stall guard)
    drew_this_turn: bool
    then_draw: bool
    just_taken: int | None
    last_in: WinBy
    result: Result | None = None
    version: int = 0
    history: tuple[Move, ...] = field(default=())
    took_this_turn: bool = False

    @property
    def over(self) -> bool:
        """True once the game has ended (won or drawn)."""
        return self.result is not None

    @property
    def wall_size(self) -> int:
        """Tiles left to draw."""
        return len(self.wall) - self.wall_pos


def hand_tiles(state: GameState, seat: int) -> list[Tile]:
    """The tiles of one seat's hand, sorted (engine-internal and for tests; players use view)."""
    return sort_tiles(KINDS[PIECE_KINDS[p % PIECES_PER_SET]] for p in state.hands[seat])


def _kind(piece: int) -> int:
    return PIECE_KINDS[piece % PIECES_PER_SET]


def new_game(rules: RuleSet, seats: Sequence[str], deal: Deal) -> GameState:
    """Deal a new game. ``seats`` are display names in play order (anticlockwise)."""
    if len(seats) != rules.players:
        raise RulesError(f"{len(seats)} seats given for a {rules.players}-player rule set")
    if sorted(deal.order) != list(range(rules.tile_count)):
        raise RulesError("the deal is not a permutation of the tiles of this rule set")
    if not 0 <= deal.first_seat < rules.players:
        raise RulesError(f"first seat {deal.first_seat} is not at this table")
    hands: list[tuple[int, ...]] = [()] * rules.players
    pos = 0
    for offset in range(rules.players):
        seat = (deal.first_seat + offset) % rules.players
        size = rules.hand_size if offset == 0 else rules.hand_size - 1
        hands[seat] = tuple(deal.order[pos : pos + size])
        pos += size
    return GameState(
        rules=rules,
        seats=tuple(seats),
        deal=deal,
        hands=tuple(hands),
        wall=tuple(deal.order[pos:]),
        wall_pos=0,
        pool=(),
        live_from=0,
        current=deal.first_seat,
        phase=Phase.DISCARD,
        turn=1,
        turns_without_draw=0,
        drew_this_turn=False,
        then_draw=rules.first_turn_extra_draw,
        just_taken=None,
        last_in=WinBy.DEALT,
    )


def _hand_counts(hand: Sequence[int]) -> tuple[int, ...]:
    counts = [0] * len(KINDS)
    for piece in hand:
        counts[_kind(piece)] += 1
    return tuple(counts)


def _hand_wins(state: GameState, seat: int) -> bool:
    rules = state.rules
    return is_winning_counts(
        _hand_counts(state.hands[seat]), rules.hand_size, rules.four_two_value, rules.military_eyes
    )


def _stalled(state: GameState) -> bool:
    """The stall guard holds: N turns in a row took a discard and drew nothing (RULES.md §2.4)."""
    rules = state.rules
    return rules.stall_guard and state.turns_without_draw >= rules.players


def _wins_only(state: GameState) -> bool:
    """Whether only a winning take is allowed now: under the stall guard, or with an empty
    wall (a take that does not win could only lead to a drawn game, and nobody is forced to
    take)."""
    return _stalled(state) or state.wall_size == 0


def _offered(state: GameState) -> list[int]:
    """Pool indices the offer allows the current player (live, and not his own if excluded)."""
    rules = state.rules
    indices = range(state.live_from, len(state.pool))
    if rules.offer is Offer.ANY and rules.exclude_own_discards:
        return [i for i in indices if state.pool[i].seat != state.current]
    return list(indices)


def _takeable(state: GameState) -> list[int]:
    """Pool indices the current player may take now: the one truth behind both
    :func:`legal_actions` and :attr:`View.takeable`."""
    if state.phase is not Phase.TAKE_OR_DRAW or state.result is not None:
        return []
    indices = _offered(state)
    if indices and _wins_only(state):
        counts = _hand_counts(state.hands[state.current])
        wins: dict[int, bool] = {}
        for i in indices:
            kind = _kind(state.pool[i].piece)
            if kind not in wins:
                wins[kind] = _wins_with(state, counts, kind)
        indices = [i for i in indices if wins[_kind(state.pool[i].piece)]]
    return indices


def _wins_with(state: GameState, counts: tuple[int, ...], kind: int) -> bool:
    """Whether a hand of H-1 tiles (``counts``) wins with one more tile of ``kind``."""
    rules = state.rules
    more = list(counts)
    more[kind] += 1
    return is_winning_counts(
        tuple(more), rules.hand_size, rules.four_two_value, rules.military_eyes
    )


def legal_actions(state: GameState) -> list[Action]:
    """Every action the current player may take now (empty once the game is over)."""
    if state.result is not None:
        return []
    if state.phase is Phase.TAKE_OR_DRAW:
        kinds = sorted({_kind(state.pool[i].piece) for i in _takeable(state)})
        actions: list[Action] = [Take(KINDS[k]) for k in kinds]
        if state.wall_size > 0:
            actions.append(Draw())
        return actions
    if state.phase is Phase.DRAW:
        return [Draw()]
    hand = state.hands[state.current]
    out: list[Action] = []
    if _hand_wins(state, state.current):
        out.append(Declare())
    held = {_kind(p) for p in hand}
    # The kind just taken may not go straight back out, unless the hand holds nothing else
    # (possible from 5 sets up): the player must have a move, or the game never ends (§2.4).
    kinds = sorted(held - {state.just_taken} or held)
    out += [Discard(KINDS[k]) for k in kinds]
    return out


def _normalise(state: GameState, action: Action) -> Action:
    if isinstance(action, Take) and action.tile is None:
        takeable = _takeable(state)
        if not takeable:
            raise IllegalAction(_why_no_take(state))
        return Take(KINDS[_kind(state.pool[takeable[-1]].piece)])
    return action


def _why_no_take(state: GameState) -> str:
    if state.phase is Phase.DRAW:
        return "you must draw from the wall now"
    if state.phase is Phase.DISCARD:
        return "you hold a full hand: discard a tile (or declare)"
    if _stalled(state) and _offered(state):
        return (
            f"{state.turns_without_draw} turns in a row took a discard without a draw: you "
            "must draw from the wall (a take is allowed only if it wins)"
        )
    if len(state.pool) == state.live_from:
        return "there is no discard you may take"
    return "you may not take that tile"


def _explain(state: GameState, action: Action) -> str:
    """Why an action is illegal, in a player's words."""
    match action:
        case Take(tile):
            if state.phase is not Phase.TAKE_OR_DRAW or not _takeable(state):
                return _why_no_take(state)
            offered = {_kind(state.pool[i].piece) for i in _offered(state)}
            if tile is not None and tile.index in offered:
                # Offered, yet not takeable: only a winning take is allowed now.
                if state.wall_size == 0:
                    return f"the wall is empty: you may take {tile} only if it wins"
                return (
                    f"{state.turns_without_draw} turns in a row took a discard without a "
                    f"draw: you may take {tile} only if it wins, else draw from the wall"
                )
            if state.rules.offer is Offer.LAST:
                last = KINDS[_kind(state.pool[-1].piece)]
                return f"only the most recent discard ({last}) may be taken, not {tile}"
            own = {_kind(e.piece) for e in state.pool if e.seat == state.current}
            if state.rules.exclude_own_discards and tile is not None and tile.index in own:
                return f"you may not take back your own discard {tile}"
            return f"{tile} is not among the face-up discards"
        case Draw():
            if state.phase is Phase.DISCARD:
                return "you hold a full hand: discard a tile (or declare) first"
            return "the wall is empty"
        case Discard(tile):
            if state.phase is Phase.DRAW:
                return "you must draw from the wall now"
            if state.phase is not Phase.DISCARD:
                return "you must take a discard or draw from the wall first"
            if tile.index == state.just_taken:
                return f"you just took {tile}: discard a different tile"
            return f"you do not hold {tile}"
        case Declare():
            if state.phase is not Phase.DISCARD:
                return "you can only declare when you hold a full hand"
            return "your hand is not a winning hand (an eye and ten-pairs)"
    return f"'{action}' is not allowed now"


def apply(state: GameState, action: Action) -> tuple[GameState, list[Event]]:
    """Play one action for the current player; returns the new state and what happened.

    Raises :class:`IllegalAction` (with the reason) for anything the rules do not allow.
    """
    if state.result is not None:
        raise IllegalAction("the game is over")
    action = _normalise(state, action)
    if action not in legal_actions(state):
        raise IllegalAction(_explain(state, action))
    seat = state.current
    events: list[Event] = []
    match action:
        case Take(tile):
            assert tile is not None
            index = max(i for i in _takeable(state) if _kind(state.pool[i].piece) == tile.index)
            entry = state.pool[index]
            pool = state.pool[:index] + state.pool[index + 1 :]
            live_from = len(pool) if state.rules.offer is Offer.LAST else 0
            state = replace(
                state,
                hands=_with_hand(state, seat, (*state.hands[seat], entry.piece)),
                pool=pool,
                live_from=live_from,
                phase=Phase.DISCARD,
                then_draw=state.rules.draw_after_take,
                just_taken=tile.index,
                last_in=WinBy.TAKE,
                took_this_turn=True,
                history=(*state.history, Move(state.turn, seat, "take", tile, entry.seat)),
            )
            events.append(Took(seat, tile, entry.seat))
        case Draw():
            piece = state.wall[state.wall_pos]
            state = replace(
                state,
                hands=_with_hand(state, seat, (*state.hands[seat], piece)),
                wall_pos=state.wall_pos + 1,
                phase=Phase.DISCARD,
                then_draw=False,
                drew_this_turn=True,
                just_taken=None,
                last_in=WinBy.DRAW,
                history=(*state.history, Move(state.turn, seat, "draw")),
            )
            events.append(Drew(seat, KINDS[_kind(piece)], state.wall_size))
        case Discard(tile):
            hand = list(state.hands[seat])
            at = max(i for i, p in enumerate(hand) if _kind(p) == tile.index)
            piece = hand.pop(at)
            live_from = len(state.pool) if state.rules.offer is Offer.LAST else 0
            state = replace(
                state,
                hands=_with_hand(state, seat, tuple(hand)),
                pool=(*state.pool, PoolEntry(piece, seat, state.turn)),
                live_from=live_from,
                just_taken=None,
                history=(*state.history, Move(state.turn, seat, "discard", tile)),
            )
            events.append(Discarded(seat, tile))
            if state.then_draw:
                state = replace(state, phase=Phase.DRAW, then_draw=False)
                if state.wall_size == 0:
                    state, ended = _end_drawn(state, EndReason.WALL)
                    events += ended
            else:
                state, started = _next_turn(state)
                events += started
        case Declare():
            witness = find_witness(hand_tiles(state, seat), state.rules)
            assert witness is not None
            result = Result(EndReason.DECLARED, state.turn, seat, witness, state.last_in)
            state = replace(
                state,
                phase=Phase.OVER,
                result=result,
                history=(*state.history, Move(state.turn, seat, "declare")),
            )
            events.append(Declared(seat, witness, state.last_in))
    return replace(state, version=state.version + 1), events


def _with_hand(state: GameState, seat: int, hand: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    hands = list(state.hands)
    hands[seat] = hand
    return tuple(hands)


def _end_drawn(state: GameState, reason: EndReason) -> tuple[GameState, list[Event]]:
    result = Result(reason, state.turn)
    return replace(state, phase=Phase.OVER, result=result), [GameDrawn(reason)]


def _next_turn(state: GameState) -> tuple[GameState, list[Event]]:
    rules = state.rules
    state = replace(
        state,
        current=(state.current + 1) % rules.players,
        turn=state.turn + 1,
        # Only a turn that took a discard and drew nothing counts toward the stall guard (the
        # first player's opening discard, with neither, leaves the count alone).
        turns_without_draw=(
            0
            if state.drew_this_turn
            else state.turns_without_draw + 1
            if state.took_this_turn
            else state.turns_without_draw
        ),
        drew_this_turn=False,
        took_this_turn=False,
        then_draw=False,
        just_taken=None,
        phase=Phase.TAKE_OR_DRAW,
    )
    if state.turn > rules.max_turns:
        return _end_drawn(replace(state, turn=state.turn - 1), EndReason.CAP)
    # A player who must draw from an empty wall ends the game drawn, unless a take wins.
    if state.wall_size == 0 and not _takeable(state):
        return _end_drawn(state, EndReason.WALL)
    return state, [TurnStarted(state.current, state.turn)]


# ---------------------------------------------------------------------------------------------
# What a seat may see


@dataclass(frozen=True, slots=True)
class View:
    """Everything one seat may know; ``seat is None`` is a spectator, who sees no hand."""

    rules: RuleSet
    seat: int | None
    seat_names: tuple[str, ...]
    hand: tuple[Tile, ...]
    hand_sizes: tuple[int, ...]
    pool: tuple[PoolTile, ...]
    wall_size: int
    current: int
    first_seat: int
    phase: Phase
    turn: int
    turns_without_draw: int
    just_taken: Tile | None
    history: tuple[Move, ...]
    result: Result | None
    version: int
    drawn: Tile | None = None
    """The tile this seat just drew from the wall, while it is still to discard (its own view
    only: a drawn tile is private)."""

    @property
    def my_turn(self) -> bool:
        """Whether this seat is to act now."""
        return self.result is None and self.seat == self.current

    @property
    def takeable(self) -> tuple[PoolTile, ...]:
        """The discards this seat may take now: exactly the tiles of the legal ``Take`` actions
        (empty when it is not this seat's turn to take or draw)."""
        return tuple(p for p in self.pool if p.takeable)


def view(state: GameState, seat: int | None) -> View:
    """What ``seat`` may see: its own hand, the face-up discards, sizes and the public record.

    Never another seat's hand, nor the order of the wall.
    """
    if seat is not None and not 0 <= seat < state.rules.players:
        raise RulesError(f"seat {seat} is not at this table")
    takeable = set(_takeable(state)) if seat == state.current else set()
    pool = tuple(
        PoolTile(
            KINDS[_kind(e.piece)], e.seat, e.turn, dead=i < state.live_from, takeable=i in takeable
        )
        for i, e in enumerate(state.pool)
    )
    # A drawn tile is revealed only at the end, in the declared witness.
    hand = tuple(hand_tiles(state, seat)) if seat is not None else ()
    return View(
        rules=state.rules,
        seat=seat,
        seat_names=state.seats,
        hand=hand,
        hand_sizes=tuple(len(h) for h in state.hands),
        pool=pool,
        wall_size=state.wall_size,
        current=state.current,
        first_seat=state.deal.first_seat,
        phase=state.phase,
        turn=state.turn,
        turns_without_draw=state.turns_without_draw,
        just_taken=KINDS[state.just_taken] if state.just_taken is not None else None,
        history=state.history,
        result=state.result,
        version=state.version,
        drawn=_just_drawn(state, seat),
    )


def _just_drawn(state: GameState, seat: int | None) -> Tile | None:
    """The tile ``seat`` just drew, while he holds it before his discard (else None)."""
    if (
        seat is None
        or seat != state.current
        or state.result is not None
        or state.phase is not Phase.DISCARD
        or state.last_in is not WinBy.DRAW
    ):
        return None
    return KINDS[_kind(state.hands[seat][-1])]  # a draw appends to the hand
