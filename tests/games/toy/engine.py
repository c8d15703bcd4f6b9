"""High Pair's engine facet: its rules, state machine, notation, records, hidden information and
results (the Protocol :class:`bot.engine.family.GameEngine`).

Standard library and ``bot.engine`` only, as the engine layer's rule says of a family's engine.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from bot.engine.deal import Deal
from bot.engine.errors import IllegalAction, NotationError, RulesError
from bot.engine.family import GameEngine, Standing, TableOptions, Variant
from bot.engine.position import PositionError
from bot.games import N_

__all__ = [
    "CARDS",
    "FACET",
    "Discard",
    "Discarded",
    "Draw",
    "Drew",
    "GameOver",
    "Phase",
    "Show",
    "Shown",
    "ToyAction",
    "ToyEngine",
    "ToyEvent",
    "ToyResult",
    "ToyRules",
    "ToyState",
    "ToyView",
    "best_pair",
    "card",
    "deal_from_cards",
]

GAME = "high-pair"
_DIGITS = tuple("123456789")
_POSITION_KEYS = frozenset({"game", "seat", "size", "hand", "discards", "stock", "phase", "turn"})
CARDS = 36
"""Pieces 0 to 35: four of each value 1 to 9."""


def card(piece: int) -> int:
    """The value (1 to 9) of a piece."""
    return piece // 4 + 1


def best_pair(cards: Iterable[int]) -> int | None:
    """The highest value held twice or more; None without a pair."""
    pairs = [value for value, n in Counter(cards).items() if n >= 2]
    return max(pairs) if pairs else None


# -- rules ------------------------------------------------------------------------------------

_FLAG_TYPES: dict[str, type] = {
    "players": int,
    "hand": int,
    "rake_percent": int,
    "pot_carries_over": bool,
    "settlement": str,
    "settle_rate": int,
}


def _coerce(name: str, value: Any) -> Any:
    kind = _FLAG_TYPES.get(name)
    if kind is None:
        raise RulesError(f"High Pair has no rule '{name}'")
    if kind is bool:
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("true", "yes", "on", "1"):
            return True
        if text in ("false", "no", "off", "0"):
            return False
        raise RulesError(f"the rule {name} is true or false, not '{value}'")
    if kind is int:
        if isinstance(value, bool):
            raise RulesError(f"the rule {name} is a number, not '{value}'")
        try:
            return int(str(value).strip())
        except ValueError:
            raise RulesError(f"the rule {name} is a number, not '{value}'") from None
    return str(value).strip()


@dataclass(frozen=True, slots=True)
class ToyRules:
    """A High Pair rule set."""

    game: str = GAME
    players: int = 2
    hand: int = 3
    rake_percent: int = 0
    pot_carries_over: bool = False
    settlement: str = "pot"
    settle_rate: int = 1

    def __post_init__(self) -> None:
        if self.game != GAME:
            raise RulesError(f"unknown game '{self.game}' for High Pair")
        if self.players != 2:
            raise RulesError(f"High Pair is played by 2 players, not {self.players}")
        if self.hand not in (3, 4):
            raise RulesError(f"a High Pair hand holds 3 or 4 cards, not {self.hand}")
        if not 0 <= self.rake_percent <= 100:
            raise RulesError(f"the rake is 0 to 100 percent, not {self.rake_percent}")
        if self.settlement != "pot":
            raise RulesError(f"High Pair settles by the pot only, not by '{self.settlement}'")
        if self.settle_rate < 1:
            raise RulesError(f"the settle rate is at least 1, not {self.settle_rate}")

    def flags(self) -> dict[str, Any]:
        """Every flag as JSON values."""
        return {
            "game": self.game,
            "players": self.players,
            "hand": self.hand,
            "rake_percent": self.rake_percent,
            "pot_carries_over": self.pot_carries_over,
            "settlement": self.settlement,
            "settle_rate": self.settle_rate,
        }

    @classmethod
    def from_flags(cls, flags: Mapping[str, Any]) -> ToyRules:
        """A rule set from stored (JSON or text) flags, validated again."""
        values = {name: _coerce(name, value) for name, value in flags.items() if name != "game"}
        return cls(game=str(flags.get("game", GAME)), **values)

    def describe(self) -> str:
        """One English line."""
        return f"High Pair, {self.players} players, hand of {self.hand}"


# -- actions, events, state -------------------------------------------------------------------


class Phase(StrEnum):
    """What the seat to play does next."""

    DRAW = "draw"
    DISCARD = "discard"


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the top card of the stock."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard a card of this value."""

    card: int

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True, slots=True)
class Show:
    """Show the hand: the game ends and the best pairs are compared."""

    def __str__(self) -> str:
        return "show"


ToyAction = Draw | Discard | Show


@dataclass(frozen=True, slots=True)
class ToyResult:
    """How a game ended: ``reason`` is ``show`` or ``stock``; ``pairs`` each seat's best pair."""

    winner: int | None
    reason: str
    pairs: tuple[int | None, ...]


@dataclass(frozen=True, slots=True)
class Drew:
    """A seat drew ``piece`` (only that seat sees which card)."""

    seat: int
    piece: int


@dataclass(frozen=True, slots=True)
class Discarded:
    """A seat discarded a card face up."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class Shown:
    """A seat showed its hand."""

    seat: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game ended; every hand is shown."""

    result: ToyResult
    hands: tuple[tuple[int, ...], ...]


ToyEvent = Drew | Discarded | Shown | GameOver


@dataclass(frozen=True, slots=True)
class ToyState:
    """A whole game (pieces, not values, so that a deal is one permutation)."""

    rules: ToyRules
    seats: tuple[str, ...]
    deal: Deal
    hands: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    """Top first."""
    discards: tuple[int, ...]
    current: int
    turn: int
    phase: Phase
    result: ToyResult | None = None


@dataclass(frozen=True, slots=True)
class ToyView:
    """What one seat (None: a spectator) sees: its own hand, the discards, the stock's size."""

    rules: ToyRules
    seats: tuple[str, ...]
    seat: int | None
    current: int
    turn: int
    phase: Phase
    hand: tuple[int, ...]
    """The seat's cards, sorted (empty for a spectator)."""
    hand_sizes: tuple[int, ...]
    discards: tuple[int, ...]
    stock: int
    result: ToyResult | None

    @property
    def my_turn(self) -> bool:
        """Whether this seat is to act now."""
        return self.result is None and self.seat == self.current


def _cards(pieces: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(card(p) for p in pieces))


def _words(cards: Sequence[int]) -> str:
    return " ".join(str(c) for c in cards) if cards else "none"


def _ended(state: ToyState, reason: str) -> tuple[ToyState, GameOver]:
    pairs = tuple(best_pair(card(p) for p in hand) for hand in state.hands)
    ranked = sorted((-1 if pair is None else pair for pair in pairs), reverse=True)
    top = ranked[0]
    winner = None
    if top >= 0 and ranked.count(top) == 1:
        winner = next(s for s, pair in enumerate(pairs) if pair == top)
    result = ToyResult(winner=winner, reason=reason, pairs=pairs)
    over = GameOver(result, tuple(_cards(hand) for hand in state.hands))
    return replace(state, result=result), over


def deal_from_cards(
    rules: ToyRules, hands: Sequence[Sequence[int]], stock: Sequence[int] = (), first: int = 0
) -> Deal:
    """An exact deal written in values: ``hands[s]`` is seat ``s``'s hand, ``stock`` the first
    cards to be drawn; the cards left follow in the stock in a fixed order (tests)."""
    order_seats = [(first + offset) % rules.players for offset in range(rules.players)]
    cards = [c for seat in order_seats for c in hands[seat]] + list(stock)
    for seat in order_seats:
        if len(hands[seat]) != rules.hand:
            raise RulesError(f"seat {seat} must be dealt {rules.hand} cards")
    rest = Counter({value: 4 for value in range(1, 10)})
    rest.subtract(cards)
    if any(n < 0 for n in rest.values()):
        raise RulesError("the deal uses a card more than four times")
    cards += [value for value in range(1, 10) for _ in range(rest[value])]
    return Deal(order=_pieces_of(cards), first_seat=first)


def _pieces_of(cards: Sequence[int]) -> tuple[int, ...]:
    """Cards in order -> pieces, each value's copies in piece order."""
    used: Counter[int] = Counter()
    order = []
    for value in cards:
        order.append((value - 1) * 4 + used[value])
        used[value] += 1
    return tuple(order)


REFUSALS = (
    N_("The game is over."),
    N_("'{action}' is not a High Pair action."),
    N_("Draw a card first."),
    N_("You have drawn already: discard a card or show a pair."),
    N_("You hold no {card}."),
    N_("You hold no pair to show."),
)
"""Every refusal :meth:`ToyEngine.apply` raises, as templates."""


class ToyEngine:
    """High Pair for the engine layer."""

    # -- rule book ----------------------------------------------------------------------------

    def make_rules(
        self,
        game: str,
        players: int | None = None,
        rule_set: str | None = None,
        sets: int | None = None,
        **flags: Any,
    ) -> ToyRules:
        """Two players, three cards; ``hand=4`` deals four."""
        if game != GAME:
            raise RulesError(f"unknown game '{game}' for High Pair")
        if rule_set not in (None, "standard"):
            raise RulesError(f"unknown rule set '{rule_set}': High Pair has only 'standard'")
        if sets not in (None, 1):
            raise RulesError(f"High Pair is played with one pack, not {sets}")
        values = {name: _coerce(name, value) for name, value in flags.items()}
        if players is not None:
            values["players"] = players
        return ToyRules(**values)

    def rules_from_flags(self, flags: Mapping[str, Any]) -> ToyRules:
        """A stored rule set rebuilt and validated."""
        return ToyRules.from_flags(flags)

    def with_flag(self, rules: ToyRules, name: str, value: str) -> ToyRules:
        """One flag set from text."""
        if name == "game":
            raise RulesError("the game of a rule set cannot change")
        return replace(rules, **{name: _coerce(name, value)})

    def rule_sets(self, game: str) -> tuple[str, ...]:
        """Only the standard rules."""
        return ("standard",)

    def variants(self, game: str) -> tuple[Variant, ...]:
        """``hand=3|4``."""
        return (Variant("hand", ("3", "4"), N_("cards in a hand")),)

    def table_options(self, rules: ToyRules) -> TableOptions:
        """No rule set nor packs to choose; the hand size when it is not the default."""
        return TableOptions(
            rule_set=None, sets=None, variants={} if rules.hand == 3 else {"hand": str(rules.hand)}
        )

    def settlements(self, game: str) -> tuple[str, ...]:
        """The winner takes the pot."""
        return ("pot",)

    @property
    def refusals(self) -> tuple[str, ...]:
        """:data:`REFUSALS`."""
        return REFUSALS

    # -- machine ------------------------------------------------------------------------------

    def deal(self, rules: ToyRules, rng: random.Random, thrower: int = 0) -> Deal:
        """Lots for the first seat, then the shuffled pack."""
        if not 0 <= thrower < rules.players:
            raise RulesError(f"thrower seat {thrower} is not at this table")
        first = rng.randrange(rules.players)
        order = list(range(CARDS))
        rng.shuffle(order)
        return Deal(order=tuple(order), first_seat=first, thrower=thrower)

    def new_game(self, rules: ToyRules, seats: Sequence[str], deal: Deal) -> ToyState:
        """The first seat gets the first cards, the other the next; the rest is the stock."""
        if len(seats) != rules.players:
            raise RulesError(f"{len(seats)} seats for {rules.players} players")
        if sorted(deal.order) != list(range(CARDS)):
            raise RulesError("a High Pair deal is one order of the 36 cards")
        hands: list[tuple[int, ...]] = [() for _ in range(rules.players)]
        for offset in range(rules.players):
            seat = (deal.first_seat + offset) % rules.players
            hands[seat] = deal.order[offset * rules.hand : (offset + 1) * rules.hand]
        return ToyState(
            rules=rules,
            seats=tuple(seats),
            deal=deal,
            hands=tuple(hands),
            stock=deal.order[rules.players * rules.hand :],
            discards=(),
            current=deal.first_seat,
            turn=1,
            phase=Phase.DRAW,
        )

    def legal_actions(self, state: ToyState) -> list[ToyAction]:
        """Draw; then a discard of each value held, and show with a pair."""
        if state.result is not None:
            return []
        if state.phase is Phase.DRAW:
            return [Draw()]
        cards = _cards(state.hands[state.current])
        legal: list[ToyAction] = [Discard(value) for value in sorted(set(cards))]
        if best_pair(cards) is not None:
            legal.append(Show())
        return legal

    def apply(self, state: ToyState, action: ToyAction) -> tuple[ToyState, list[ToyEvent]]:
        """Play one action; IllegalAction for anything else."""
        if not isinstance(action, Draw | Discard | Show):
            raise IllegalAction(f"'{action}' is not a High Pair action")
        if state.result is not None:
            raise IllegalAction("The game is over.")
        seat = state.current
        hand = state.hands[seat]
        if isinstance(action, Draw):
            if state.phase is not Phase.DRAW:
                raise IllegalAction("You have drawn already: discard a card or show a pair.")
            piece = state.stock[0]
            after = replace(
                state,
                hands=_with_hand(state.hands, seat, (*hand, piece)),
                stock=state.stock[1:],
                phase=Phase.DISCARD,
            )
            return after, [Drew(seat, piece)]
        if state.phase is not Phase.DISCARD:
            raise IllegalAction("Draw a card first.")
        if isinstance(action, Show):
            if best_pair(card(p) for p in hand) is None:
                raise IllegalAction("You hold no pair to show.")
            ended, over = _ended(state, "show")
            return ended, [Shown(seat, _cards(hand)), over]
        pieces = sorted(p for p in hand if card(p) == action.card)
        if not pieces:
            raise IllegalAction(f"You hold no {action.card}.")
        kept = tuple(p for p in hand if p != pieces[0])
        after = replace(
            state,
            hands=_with_hand(state.hands, seat, kept),
            discards=(*state.discards, pieces[0]),
            current=(seat + 1) % state.rules.players,
            turn=state.turn + 1,
            phase=Phase.DRAW,
        )
        events: list[ToyEvent] = [Discarded(seat, action.card)]
        if not after.stock:  # the next turn starts on an empty stock: the game ends
            after, over = _ended(after, "stock")
            events.append(over)
        return after, events

    def view(self, state: ToyState, seat: int | None) -> ToyView:
        """The seat's own cards, the discards, the stock's size."""
        if seat is not None and not 0 <= seat < state.rules.players:
            raise IllegalAction(f"seat {seat} is not at this table")
        return ToyView(
            rules=state.rules,
            seats=state.seats,
            seat=seat,
            current=state.current,
            turn=state.turn,
            phase=state.phase,
            hand=() if seat is None else _cards(state.hands[seat]),
            hand_sizes=tuple(len(hand) for hand in state.hands),
            discards=tuple(card(p) for p in state.discards),
            stock=len(state.stock),
            result=state.result,
        )

    # -- notation -----------------------------------------------------------------------------

    def parse_action(self, text: str) -> ToyAction:
        """``draw``, ``discard N`` (N a card, 1 to 9), ``show``."""
        words = text.strip().lower().split()
        if words == ["draw"]:
            return Draw()
        if words == ["show"]:
            return Show()
        if len(words) == 2 and words[0] == "discard" and words[1] in _DIGITS:
            return Discard(int(words[1]))
        raise NotationError(f"Cannot read '{text.strip()[:40]}': write draw, discard N or show.")

    def owns_event(self, event: object) -> bool:
        """High Pair's four events."""
        return isinstance(event, Drew | Discarded | Shown | GameOver)

    def resolve(self, state: ToyState, text: str) -> ToyAction:
        """No card name is ambiguous: :meth:`parse_action`."""
        return self.parse_action(text)

    def logged(self, before: ToyState, after: ToyState, action: ToyAction) -> str:
        """The action's own notation."""
        return str(action)

    def describe_event(self, event: ToyEvent, viewer: int | None, names: Sequence[str]) -> str:
        """One English line; a drawn card is told to its drawer only."""
        if isinstance(event, Drew):
            drew = str(card(event.piece)) if viewer == event.seat else "a card"
            return f"{names[event.seat]} drew {drew}"
        if isinstance(event, Discarded):
            return f"{names[event.seat]} discarded {event.card}"
        if isinstance(event, Shown):
            return f"{names[event.seat]} shows {_words(event.cards)}"
        result = event.result
        if result.winner is None:
            return f"The game is drawn ({result.reason})"
        return f"{names[result.winner]} wins ({result.reason})"

    # -- records ------------------------------------------------------------------------------

    def deal_text(self, rules: ToyRules, deal: Deal) -> str:
        """The cards in dealing order: ``7 3 9 …``."""
        return " ".join(str(card(p)) for p in deal.order)

    def check_deal_text(self, text: str) -> None:
        """NotationError for the first word that is not a card."""
        for word in text.split():
            if word not in _DIGITS:
                raise NotationError(f"'{word[:10]}' is not a card (1 to 9)")

    def read_deal(
        self, rules: ToyRules, text: str, first: int, thrower: int, dice: tuple[int, ...]
    ) -> Deal:
        """The inverse of :meth:`deal_text`."""
        self.check_deal_text(text)
        cards = [int(word) for word in text.split()]
        counts = Counter(cards)
        if len(cards) != CARDS or any(counts[value] != 4 for value in range(1, 10)):
            raise RulesError("a High Pair deal holds each card 1 to 9 four times")
        if not 0 <= first < rules.players:
            raise RulesError(f"the first seat {first} is not at this table")
        return Deal(order=_pieces_of(cards), first_seat=first, thrower=thrower, dice=dice)

    def deal_comment(self, rules: ToyRules, deal: Deal) -> list[str]:
        """Who was dealt which cards."""
        lines = []
        for offset in range(rules.players):
            seat = (deal.first_seat + offset) % rules.players
            dealt = deal.order[offset * rules.hand : (offset + 1) * rules.hand]
            lines.append(f"; hand of seat {seat}: {_words([card(p) for p in dealt])}")
        return lines

    def result_line(self, state: ToyState) -> str:
        """``seat 1 wins (show)``, ``drawn (stock)`` or ``unfinished``."""
        result = state.result
        if result is None:
            return "unfinished"
        if result.winner is None:
            return f"drawn ({result.reason})"
        return f"seat {result.winner} wins ({result.reason})"

    def position_lines(self, state: ToyState, seat: int | None) -> list[str]:
        """Every seat's hand (None: ``kapshap replay`` shows a finished game whole), or one
        seat's, the seat to play marked; then the discards and the stock."""
        lines = []
        for shown in range(state.rules.players) if seat is None else (seat,):
            marker = "▶" if state.result is None and state.current == shown else " "
            lines.append(f" {marker} {state.seats[shown]}: {_words(_cards(state.hands[shown]))}")
        discards = _words([card(p) for p in state.discards])
        lines.append(f"   discards: {discards}; stock: {len(state.stock)} cards")
        return lines

    def parse_position(
        self, game: str, fields: Mapping[str, str | Sequence[str]]
    ) -> tuple[ToyState, int]:
        """``seat``, ``size`` (cards in a hand), ``hand``, ``discards``, ``stock`` (its size,
        checked), ``phase`` (``draw``/``discard``) and ``turn``: what the seat to play sees.
        The cards it has not seen go to the other hand, then the stock, in a fixed order."""
        one: dict[str, str] = {}
        for key, value in fields.items():
            if key not in _POSITION_KEYS:
                raise PositionError(f"A High Pair position has no field '{key[:20]}'")
            if isinstance(value, str):
                one[key] = value
            elif len(value) == 1:
                one[key] = value[0]
            else:
                raise PositionError(f"'{key}' is given twice")
        try:
            rules = self.make_rules(game, hand=one.get("size", "3"))
            seat = int(one.get("seat", "0"))
            phase = Phase(one.get("phase", "draw"))
            turn = int(one.get("turn", "1"))
            hand = [int(c) for c in one.get("hand", "").split()]
            discards = [int(c) for c in one.get("discards", "").replace("none", "").split()]
        except ValueError as exc:
            raise PositionError(f"Cannot read the position: {exc}") from None
        if not 0 <= seat < rules.players:
            raise PositionError(f"seat {seat} is not at this table")
        want = rules.hand + (phase is Phase.DISCARD)
        if len(hand) != want:
            raise PositionError(f"The seat to play holds {want} cards here, not {len(hand)}")
        known = Counter(hand + discards)
        if any(not 1 <= c <= 9 for c in known) or any(n > 4 for n in known.values()):
            raise PositionError("A card is 1 to 9 and there are four of each")
        rest = [v for v in range(1, 10) for _ in range(4 - known[v])]
        other, stock = rest[: rules.hand], rest[rules.hand :]
        if "stock" in one and one["stock"].strip() != str(len(stock)):
            raise PositionError(f"The stock holds {len(stock)} cards here")
        if not stock:
            raise PositionError("The stock is empty: the game is over")
        hands_cards = [other, other]
        hands_cards[seat] = hand
        pieces = _pieces_of([*hands_cards[0], *hands_cards[1], *stock, *discards])
        first = len(hands_cards[0])
        second = first + len(hands_cards[1])
        state = ToyState(
            rules=rules,
            seats=("seat 0", "seat 1"),
            deal=Deal(order=pieces, first_seat=seat),
            hands=(pieces[:first], pieces[first:second]),
            stock=pieces[second : second + len(stock)],
            discards=pieces[second + len(stock) :],
            current=seat,
            turn=turn,
            phase=phase,
        )
        return state, seat

    def write_position(self, state: ToyState) -> str:
        """The seat to play's view as a typed position, one field a line, the game first."""
        if state.result is not None:
            raise PositionError("The game is over")
        seen = self.view(state, state.current)
        return "\n".join(
            (
                GAME,
                f"seat {state.current}",
                f"size {state.rules.hand}",
                f"hand {_words(seen.hand)}",
                f"discards {_words(seen.discards)}",
                f"stock {seen.stock}",
                f"phase {state.phase}",
                f"turn {state.turn}",
            )
        )

    # -- hidden information -------------------------------------------------------------------

    def unseen(self, state: ToyState, seat: int) -> list[int]:
        """The other hand and the stock."""
        return sorted(
            [p for s, hand in enumerate(state.hands) if s != seat for p in hand] + [*state.stock]
        )

    def rebuild(self, state: ToyState, seat: int, order: Sequence[int]) -> ToyState:
        """The other hand, then the stock, refilled in order."""
        if sorted(order) != self.unseen(state, seat):
            raise ValueError("the order is not the pieces the seat has not seen")
        rest = list(order)
        hands = []
        for s, hand in enumerate(state.hands):
            if s == seat:
                hands.append(hand)
            else:
                hands.append(tuple(rest[: len(hand)]))
                rest = rest[len(hand) :]
        return replace(state, hands=tuple(hands), stock=tuple(rest))

    def arrangement_count(self, state: ToyState, seat: int) -> int:
        """The distinct orders of the unseen values (a multinomial)."""
        counts = Counter(card(p) for p in self.unseen(state, seat))
        total = math.factorial(sum(counts.values()))
        for n in counts.values():
            total //= math.factorial(n)
        return total

    def arrangements(self, state: ToyState, seat: int) -> Iterator[ToyState]:
        """Every distinct order of the unseen values, each value's pieces in piece order."""
        pieces = self.unseen(state, seat)
        by_value: dict[int, list[int]] = {}
        for p in pieces:
            by_value.setdefault(card(p), []).append(p)
        for values in _orders(Counter(card(p) for p in pieces), len(pieces)):
            used: Counter[int] = Counter()
            order = []
            for value in values:
                order.append(by_value[value][used[value]])
                used[value] += 1
            yield self.rebuild(state, seat, order)

    # -- results ------------------------------------------------------------------------------

    def standing(self, state: ToyState) -> Standing:
        """The winner first, the other second; a drawn game is not ranked."""
        result = state.result
        if result is None:
            raise ValueError("the game is not over")
        if result.winner is None:
            return Standing(winner=None, scores=None, ranks=None)
        ranks = tuple(1 if s == result.winner else 2 for s in range(state.rules.players))
        return Standing(winner=result.winner, scores=None, ranks=ranks)

    def seat_stats(
        self, final: ToyState, events: Iterable[ToyEvent]
    ) -> tuple[Mapping[str, str | int | None], ...]:
        """Nothing to count: High Pair has none of the ``game_results`` columns."""
        return tuple({} for _ in range(final.rules.players))

    def points_owed(self, final: ToyState) -> int:
        """No points: nothing owed."""
        return 0

    def forfeit_points(self, state: ToyState, winner: int) -> int:
        """No points."""
        return 0


def _with_hand(
    hands: tuple[tuple[int, ...], ...], seat: int, hand: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    return tuple(hand if s == seat else h for s, h in enumerate(hands))


def _orders(counts: Counter[int], n: int) -> Iterator[list[int]]:
    """Every distinct order of a multiset of values."""
    if n == 0:
        yield []
        return
    for value in sorted(counts):
        if counts[value]:
            counts[value] -= 1
            for rest in _orders(counts, n - 1):
                yield [value, *rest]
            counts[value] += 1


FACET: GameEngine[ToyRules, ToyState, ToyView, ToyAction, ToyEvent] = ToyEngine()
"""High Pair's engine facet (``engine_of("high-pair")``)."""
