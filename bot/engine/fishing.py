"""Tsung Shap 爭十 ("disputing tens"), the two-player fishing game (RULES.md §3), as a state
machine.

Drive it through :func:`new_game`, :func:`legal_actions`, :func:`apply` and :func:`view` (or the
dispatching versions in :mod:`bot.engine.api`, which pick this module for ``tsung-shap``). States
are never changed in place: :func:`apply` returns a new state and the events it caused.

**Setup.** ``deal.order`` is a permutation of the 32 pieces: the first player's pile is
``order[0:16]`` and the other player's ``order[16:32]``, each turned over from its start. Nobody
knows the order of any pile, his own included; :func:`view` shows only how many tiles are left.

**A turn** has two phases:

* ``turn-over``: the player may first ``claim`` one combination the opponent missed on the turn
  before (only if there is one, only one, only now), then ``draw`` (turn over his next tile).
  When there is no choice the turned tile is laid out as part of ``draw``: on an empty row it
  starts the row, and the second tile of the game is laid to the right of the first (unless
  ``second_may_capture_opening``). Either way the turn ends there.
* ``play``: with the turned tile ``t`` the player makes one ``capture`` or ``place``-s it at the
  left or right end of the row.

**Captures** (L1 = leftmost tile, L2 next to it, R1 = rightmost, R2 next to it):

* ``capture pair left|right``: ``t`` is the same kind as L1 / R1. Scores 10 × the values of
  both tiles. A one-tile row is paired as ``pair left`` (``pair right`` is accepted as the same
  capture); it empties the row and is not a sweep.
* ``capture triplet left|right|ends``: ``t`` + L1 + L2, ``t`` + R2 + R1 or ``t`` + L1 + R1
  totals 10, 20 or 30. Scores the total. On a 2-tile row the three forms are the same tiles and
  are offered as ``triplet ends`` (``left``/``right`` are accepted as the same capture); that
  capture is the **sweep**: it scores a flat 40 (40 + the total with ``sweep_adds_pips``) and
  the sweeper at once turns over his next tile and lays it out to start a new row (no capture
  with it). If his pile is empty there is no new row.
* ``triplet_both_ends_only``: only ``t`` + L1 + R1 forms a triplet (pairs are unchanged).

**Values.** A tile's value is its pips; 4-2 counts ``four_two_value`` (6 by default in Tsung
Shap, or 3). Under ``wild`` both Gee Joon tiles (4-2 and 2-1) count 3 or 6, whichever makes a
multiple of ten, the higher total when both do. Pairs never involve them (one set holds a single
copy of each military kind).

**Missed captures.** If a player places ``t`` although a capture was possible, every capture
he could have made is recorded (public: :attr:`FishingView.pending`). At the start of his next
turn the opponent may claim **one** of them, named as it was when missed (``claim pair left``).
Nothing has moved since, so its tiles are still on the row, though no longer necessarily at the
ends: they are taken from wherever they lie, the row closes up, and the claimant scores what the
capture would have scored (a missed sweep scores as a sweep, but nobody relays). Once the
claimant turns over his tile, or does not get the next turn, the misses lapse. Under
``auto_capture`` the player must take a capture whenever one exists, and only a highest-scoring
one (``legal_actions`` offers only those; ties are his choice), so nothing can be missed.

**End.** By default the game ends as soon as a player has laid out all his tiles (his pile is
empty at the end of a turn). With ``play_until_both_piles_empty`` a player whose pile is empty
no longer plays and the other plays on until his pile is empty too. Tiles left on the row score
nothing; the higher score wins, equal scores are a draw.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cache

from bot.engine.actions import Capture, Claim, ComboKind, Draw, End, FishingAction, Place
from bot.engine.collecting import TurnStarted
from bot.engine.deal import Deal
from bot.engine.errors import IllegalAction, RulesError
from bot.engine.rules import FourTwo, Game, RuleSet, Settlement
from bot.engine.tiles import KINDS, PIECE_KINDS, PIECES_PER_SET, Tile, sort_tiles

__all__ = [
    "Captured",
    "Claimed",
    "Combination",
    "FishingEndReason",
    "FishingEvent",
    "FishingMove",
    "FishingPhase",
    "FishingResult",
    "FishingState",
    "FishingView",
    "GameOver",
    "MissedCapture",
    "Placed",
    "RowCapture",
    "Swept",
    "TileTurned",
    "TurnStarted",
    "apply",
    "capture_options",
    "deal_from_piles",
    "describe_event",
    "difference_payment",
    "legal_actions",
    "new_game",
    "pile_tiles",
    "row_captures",
    "row_tiles",
    "tile_values",
    "view",
]

SWEEP_SCORE = 40
"""What a sweep scores (plus the pip total under ``sweep_adds_pips``)."""

_FOUR_TWO = Tile(4, 2).index
_TWO_ONE = Tile(2, 1).index


class FishingPhase(enum.StrEnum):
    """Where the current player is within his turn."""

    TURN_OVER = "turn-over"
    PLAY = "play"
    OVER = "over"


class FishingEndReason(enum.StrEnum):
    """Why a Tsung Shap game ended."""

    PILE_EMPTY = "pile-empty"
    BOTH_PILES_EMPTY = "both-piles-empty"


@dataclass(frozen=True, slots=True)
class FishingResult:
    """The end of a game: the scores and the winner (``None`` for equal scores, a draw)."""

    reason: FishingEndReason
    turn: int
    scores: tuple[int, ...]
    winner: int | None

    @property
    def difference(self) -> int:
        """The winner's margin in points (0 for a draw)."""
        return max(self.scores) - min(self.scores)


@dataclass(frozen=True, slots=True)
class Combination:
    """One capture the turned tile can make (or could have made, for a missed one).

    ``tiles`` is the turned tile first, then the row tiles it takes (left to right).
    """

    kind: ComboKind
    end: End
    tiles: tuple[Tile, ...]
    score: int
    sweep: bool = False

    @property
    def capture(self) -> Capture:
        """The action that makes this capture."""
        return Capture(self.kind, self.end)

    @property
    def claim(self) -> Claim:
        """The action that claims this capture once it has been missed."""
        return Claim(self.kind, self.end)

    def __str__(self) -> str:
        what = "sweep" if self.sweep else str(self.kind)
        return f"{what} {self.end} ({' + '.join(map(str, self.tiles))}: {self.score})"


@dataclass(frozen=True, slots=True)
class FishingMove:
    """A public record of one step: who did what, the tiles it showed or took, what it
    scored. ``verb`` is the action's notation, or ``relay`` for the tile laid after a sweep."""

    turn: int
    seat: int
    verb: str
    tiles: tuple[Tile, ...] = ()
    score: int = 0

    def __str__(self) -> str:
        out = self.verb
        if self.tiles:
            out += " " + " ".join(map(str, self.tiles))
        if self.score:
            out += f" (+{self.score})"
        return out


# ---------------------------------------------------------------------------------------------
# Events (everything in Tsung Shap is public)


@dataclass(frozen=True, slots=True)
class TileTurned:
    """A player turned over the next tile of his pile (``relay``: right after a sweep)."""

    seat: int
    tile: Tile
    pile_left: int
    relay: bool = False


@dataclass(frozen=True, slots=True)
class Placed:
    """A tile was laid at one ``end`` of the row; ``end is None``: it started a new row.
    ``auto``: there was no choice (an empty row, the opening tile, a relay)."""

    seat: int
    tile: Tile
    end: End | None
    auto: bool = False


@dataclass(frozen=True, slots=True)
class Captured:
    """A player captured ``tiles`` (the turned tile first) and scored ``score``."""

    seat: int
    kind: ComboKind
    end: End
    tiles: tuple[Tile, ...]
    score: int
    sweep: bool = False


@dataclass(frozen=True, slots=True)
class Swept:
    """The capture before this event emptied a 2-tile row: the sweeper starts a new row."""

    seat: int


@dataclass(frozen=True, slots=True)
class MissedCapture:
    """``seat`` placed his tile although he could have captured; ``claimant`` may claim one
    of ``missed`` at the start of his turn."""

    seat: int
    claimant: int
    missed: tuple[Combination, ...]


@dataclass(frozen=True, slots=True)
class Claimed:
    """``seat`` claimed a combination ``from_seat`` missed, taking its tiles from the row."""

    seat: int
    from_seat: int
    combination: Combination


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game ended: final scores, and the winner (``None``: a draw)."""

    scores: tuple[int, ...]
    winner: int | None
    reason: FishingEndReason


FishingEvent = (
    TurnStarted | TileTurned | Placed | Captured | Swept | MissedCapture | Claimed | GameOver
)
"""Every event of Tsung Shap (``TurnStarted`` is shared with the collecting games)."""


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
# Values and captures


def _kind(piece: int) -> int:
    return PIECE_KINDS[piece % PIECES_PER_SET]


def _kind_values(kind: int, four_two: FourTwo) -> tuple[int, ...]:
    if four_two is FourTwo.WILD and kind in (_FOUR_TWO, _TWO_ONE):
        return (3, 6)
    if kind == _FOUR_TWO:
        return (3,) if four_two is FourTwo.THREE else (6,)
    return (KINDS[kind].pips,)


def tile_values(tile: Tile, four_two: FourTwo) -> tuple[int, ...]:
    """The values ``tile`` may count in Tsung Shap: its pips, 4-2 per ``four_two`` (under
    ``wild`` 4-2 and 2-1 each count 3 or 6)."""
    return _kind_values(tile.index, four_two)


@cache
def _triplet_total(a: int, b: int, c: int, four_two: FourTwo) -> int:
    """The highest multiple of ten three kinds can total (0 if none can)."""
    best = 0
    for x, y, z in itertools.product(
        _kind_values(a, four_two), _kind_values(b, four_two), _kind_values(c, four_two)
    ):
        total = x + y + z
        if total % 10 == 0 and total > best:
            best = total
    return best


def _pair_score(kind: int, four_two: FourTwo) -> int:
    return 10 * 2 * max(_kind_values(kind, four_two))


@dataclass(frozen=True, slots=True)
class RowCapture:
    """A capture as positions on the row: ``indices`` are the row tiles it takes (the turned
    tile comes on top). The fast form of :class:`Combination`, for computer players."""

    kind: ComboKind
    end: End
    indices: tuple[int, ...]
    score: int
    sweep: bool


def row_captures(rules: RuleSet, row_kinds: Sequence[int], tile_kind: int) -> list[RowCapture]:
    """Every capture a tile of kind index ``tile_kind`` can make on a row of these kind indices
    (left to right), in a fixed order: pairs left, right, then triplets left, right, ends.

    ``auto_capture`` is not applied here (it only restricts the choice to the best of these).
    """
    n = len(row_kinds)
    out: list[RowCapture] = []
    if n == 0:
        return out
    four_two = rules.four_two_value
    if row_kinds[0] == tile_kind:
        out.append(
            RowCapture(ComboKind.PAIR, End.LEFT, (0,), _pair_score(tile_kind, four_two), False)
        )
    if n >= 2 and row_kinds[-1] == tile_kind:
        out.append(
            RowCapture(ComboKind.PAIR, End.RIGHT, (n - 1,), _pair_score(tile_kind, four_two), False)
        )
    forms: list[tuple[End, tuple[int, int]]]
    if n == 2:
        forms = [(End.ENDS, (0, 1))]
    elif n >= 3 and rules.triplet_both_ends_only:
        forms = [(End.ENDS, (0, n - 1))]
    elif n >= 3:
        forms = [(End.LEFT, (0, 1)), (End.RIGHT, (n - 2, n - 1)), (End.ENDS, (0, n - 1))]
    else:
        forms = []
    for end, (i, j) in forms:
        total = _triplet_total(*sorted((tile_kind, row_kinds[i], row_kinds[j])), four_two)
        if not total:
            continue
        if n == 2:
            score = SWEEP_SCORE + (total if rules.sweep_adds_pips else 0)
            out.append(RowCapture(ComboKind.TRIPLET, end, (i, j), score, True))
        else:
            out.append(RowCapture(ComboKind.TRIPLET, end, (i, j), total, False))
    return out


def _combination(option: RowCapture, tile_kind: int, row_kinds: Sequence[int]) -> Combination:
    tiles = (KINDS[tile_kind], *(KINDS[row_kinds[i]] for i in option.indices))
    return Combination(option.kind, option.end, tiles, option.score, option.sweep)


def capture_options(rules: RuleSet, row: Sequence[Tile], tile: Tile) -> list[Combination]:
    """Every capture ``tile`` can make on ``row`` (left to right) under ``rules``, ignoring
    ``auto_capture`` (which only restricts the choice to the best of these)."""
    kinds = [t.index for t in row]
    return [_combination(o, tile.index, kinds) for o in row_captures(rules, kinds, tile.index)]


def _canonical(kind: ComboKind, end: End, row_len: int) -> tuple[ComboKind, End]:
    """The name ``legal_actions`` uses for a capture on a row of ``row_len`` tiles."""
    if kind is ComboKind.PAIR and row_len == 1:
        return kind, End.LEFT
    if kind is ComboKind.TRIPLET and row_len == 2:
        return kind, End.ENDS
    return kind, end


# ---------------------------------------------------------------------------------------------
# State


@dataclass(frozen=True, slots=True)
class _Pending:
    """A missed capture (internal: carries the physical pieces)."""

    combination: Combination
    pieces: tuple[int, ...]
    row_len: int
    seat: int


@dataclass(frozen=True, slots=True)
class FishingState:
    """A whole Tsung Shap game. Treat as opaque outside the engine; read it through
    :func:`view`.

    ``piles[s]`` is what is left of seat ``s``'s pile, next tile first; ``row`` the tiles on
    the table, left to right; ``captured[s]`` what seat ``s`` has taken (captures and claims);
    ``turned`` the tile the current player has turned over and not played yet; ``pending`` the
    combinations the previous player missed, claimable by the current player.
    """

    rules: RuleSet
    seats: tuple[str, ...]
    deal: Deal
    piles: tuple[tuple[int, ...], ...]
    row: tuple[int, ...]
    captured: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    current: int
    phase: FishingPhase
    turn: int
    turned: int | None = None
    pending: tuple[_Pending, ...] = ()
    claimed: bool = False
    result: FishingResult | None = None
    version: int = 0
    history: tuple[FishingMove, ...] = field(default=())

    @property
    def over(self) -> bool:
        """True once the game has ended."""
        return self.result is not None


def pile_tiles(state: FishingState, seat: int) -> list[Tile]:
    """What is left of one seat's pile, in turning order (engine-internal and for tests:
    players never see it; use :func:`view`)."""
    return [KINDS[_kind(p)] for p in state.piles[seat]]


def row_tiles(state: FishingState) -> list[Tile]:
    """The row, left to right."""
    return [KINDS[_kind(p)] for p in state.row]


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


def difference_payment(rules: RuleSet, result: FishingResult) -> int:
    """Chips the loser pays the winner when ``settlement`` is ``difference``
    (``settle_rate`` × the point difference); 0 for a draw or under ``pot`` settlement (there
    the winner takes the pot, which the services handle)."""
    if rules.settlement is not Settlement.DIFFERENCE or result.winner is None:
        return 0
    return rules.settle_rate * result.difference


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
