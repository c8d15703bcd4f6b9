"""What a family of games gives the engine (its *engine facet*), and the one accessor that
fetches it: :func:`engine_of`.

Generic code holds a game's state, view, actions and events as opaque values and asks the
family about them through :class:`GameEngine` (docs/architecture.md, "Games: one place per
game"). The Protocols below read only what every game has (a rule set with its flags, seats,
whose turn, a result with a winner); everything else is the family's own business.

A family's facet is the ``FACET`` of the module its descriptor names for the role ``engine``
(``bot/games/<family>/engine/family.py``); that module belongs to this layer, so it uses the
standard library and ``bot.engine`` only.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, cast

from bot.engine.deal import Deal
from bot.games import games, load

__all__ = [
    "Action",
    "AnyEngine",
    "Event",
    "GameEngine",
    "Hidden",
    "Machine",
    "Notation",
    "Records",
    "Result",
    "Results",
    "RuleBook",
    "Rules",
    "Standing",
    "State",
    "TableOptions",
    "Variant",
    "View",
    "engine_of",
    "engine_of_event",
    "rules_from_flags",
]

Action = Hashable
"""An action of some game: opaque to generic code; ``str(action)`` is its notation."""

Event = Hashable
"""Something that happened in a game (what ``apply`` returns): opaque to generic code."""


class Rules(Protocol):
    """A game's rule set: every flag, stored as JSON with the game (``rules_json["flags"]``)."""

    @property
    def game(self) -> str:
        """The game's registered name."""
        ...

    @property
    def players(self) -> int:
        """Seats at the table."""
        ...

    @property
    def rake_percent(self) -> int:
        """The house's share of a pot, in percent."""
        ...

    @property
    def pot_carries_over(self) -> bool:
        """Whether a drawn game's pot goes to the next game at the table."""
        ...

    @property
    def settlement(self) -> str:
        """``pot`` (the winner takes the pot) or ``difference`` (the loser pays per point)."""
        ...

    @property
    def settle_rate(self) -> int:
        """Chips per point of difference (``difference`` settlement)."""
        ...

    def flags(self) -> dict[str, Any]:
        """Every flag as JSON values; ``flags()["game"]`` is the game's name."""
        ...

    def describe(self) -> str:
        """One English line (logs, ``kapshap replay``)."""
        ...


class Result(Protocol):
    """How a game ended."""

    @property
    def winner(self) -> int | None:
        """The winning seat; None for a drawn game."""
        ...


class State(Protocol):
    """A whole game: opaque outside its family but for these fields."""

    @property
    def rules(self) -> Rules:
        """The rule set in force."""
        ...

    @property
    def seats(self) -> tuple[str, ...]:
        """The seats' names, in seat order."""
        ...

    @property
    def current(self) -> int:
        """The seat to act."""
        ...

    @property
    def turn(self) -> int:
        """The number of the turn being played, from 1."""
        ...

    @property
    def result(self) -> Result | None:
        """How the game ended; None while it goes on."""
        ...


class View(Protocol):
    """What one seat (None: a spectator) may see of a game."""

    @property
    def rules(self) -> Rules:
        """The rule set in force."""
        ...

    @property
    def seat(self) -> int | None:
        """Whose view this is; None for a spectator's."""
        ...

    @property
    def current(self) -> int:
        """The seat to act."""
        ...

    @property
    def turn(self) -> int:
        """The number of the turn being played, from 1."""
        ...

    @property
    def my_turn(self) -> bool:
        """Whether this seat is to act now."""
        ...

    @property
    def result(self) -> Result | None:
        """How the game ended; None while it goes on."""
        ...


@dataclass(frozen=True, slots=True)
class Variant:
    """A rule flag a host may set on a new table (``/table new variant:``)."""

    flag: str
    values: tuple[str, ...]
    words: str
    """Message id saying what the flag does."""


@dataclass(frozen=True, slots=True)
class TableOptions:
    """What a table's host chose, recovered from its stored rule set (a rematch, a lobby)."""

    rule_set: str | None
    sets: int | None
    variants: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Standing:
    """The end of a finished game as the services count it."""

    winner: int | None
    scores: tuple[int, ...] | None
    """Final points per seat; None for a game without points."""
    ranks: tuple[int, ...] | None
    """openskill ranks per seat (1 = first, equal = tied); None: the game is not ranked (a
    drawn game without points)."""


R = TypeVar("R")
S = TypeVar("S")
V = TypeVar("V", covariant=True)
A = TypeVar("A")
E = TypeVar("E")
R_contra = TypeVar("R_contra", contravariant=True)
S_contra = TypeVar("S_contra", contravariant=True)
A_contra = TypeVar("A_contra", contravariant=True)
E_contra = TypeVar("E_contra", contravariant=True)


class RuleBook(Protocol[R]):
    """A family's rule sets (``R``, a value with at least the fields of :class:`Rules`):
    presets, names, flags and what a host may choose."""

    def make_rules(
        self,
        game: str,
        players: int | None = None,
        rule_set: str | None = None,
        sets: int | None = None,
        **flags: Any,
    ) -> R:
        """RULES.md's defaults for the game and seats, then a named rule set, then flags
        (text values converted as for :meth:`with_flag`); RulesError says why not."""
        ...

    def rules_from_flags(self, flags: Mapping[str, Any]) -> R:
        """A stored rule set (``Rules.flags()``) rebuilt and validated again."""
        ...

    def with_flag(self, rules: R, name: str, value: str) -> R:
        """The rule set with one flag set from text (``--rule name=value``)."""
        ...

    def rule_sets(self, game: str) -> tuple[str, ...]:
        """The named rule sets a host may choose (``culin``, …; ``("standard",)``)."""
        ...

    def variants(self, game: str) -> tuple[Variant, ...]:
        """The flags ``/table new variant:`` accepts for the game."""
        ...

    def table_options(self, rules: R) -> TableOptions:
        """What a host chose, recovered from a stored rule set."""
        ...

    def settlements(self, game: str) -> tuple[str, ...]:
        """How a table of the game may settle: ``("pot",)`` or ``("pot", "difference")``."""
        ...

    @property
    def refusals(self) -> tuple[str, ...]:
        """English templates of every refusal this engine raises (the services word them)."""
        ...


class Machine(Protocol[R_contra, S, V, A, E]):
    """The four driving functions, and dealing."""

    def deal(self, rules: R_contra, rng: random.Random, thrower: int = 0) -> Deal:
        """A fresh deal; its first seat follows the game's custom (dice, lots)."""
        ...

    def new_game(self, rules: R_contra, seats: Sequence[str], deal: Deal) -> S:
        """The dealt game."""
        ...

    def legal_actions(self, state: S) -> list[A]:
        """Every action the current seat may take (empty once the game is over)."""
        ...

    def apply(self, state: S, action: A) -> tuple[S, list[E]]:
        """Play one action; IllegalAction for anything else (another game's actions too)."""
        ...

    def view(self, state: S, seat: int | None) -> V:
        """What a seat (None: a spectator) may see."""
        ...


class Notation(Protocol[S_contra, A, E_contra]):
    """Actions and events as text."""

    def parse_action(self, text: str) -> A:
        """An action in the game's notation; NotationError names what is wrong."""
        ...

    def resolve(self, state: S_contra, text: str) -> A:
        """:meth:`parse_action` with the state's help: a tile name shared by two kinds means
        the one of them that is legal now, when only one is (else the AmbiguousTile stands)."""
        ...

    def logged(self, before: S_contra, after: S_contra, action: A) -> str:
        """What the action log keeps of an action just applied (a bare ``take`` names the
        tile it took)."""
        ...

    def describe_event(self, event: E_contra, viewer: int | None, names: Sequence[str]) -> str:
        """One English line; private tiles hidden from everyone but ``viewer``."""
        ...

    def owns_event(self, event: object) -> bool:
        """Whether ``event`` is one of this family's events (:func:`engine_of_event` asks the
        families in registration order, so an event two families share goes to the first)."""
        ...


class Records(Protocol[R_contra, S]):
    """The game's part of records (docs/record-format.md) and of typed positions."""

    def deal_text(self, rules: R_contra, deal: Deal) -> str:
        """The record's ``Deal:`` value."""
        ...

    def read_deal(
        self, rules: R_contra, text: str, first: int, thrower: int, dice: tuple[int, ...]
    ) -> Deal:
        """The inverse of :meth:`deal_text`; NotationError for a piece that does not read,
        RulesError for pieces the game does not hold."""
        ...

    def check_deal_text(self, text: str) -> None:
        """NotationError for the first word of a ``Deal:`` value that names no piece (a record
        reader says so as it meets the line, before the rules are known)."""
        ...

    def deal_comment(self, rules: R_contra, deal: Deal) -> list[str]:
        """Comment lines (``; hand of seat 0: …``) telling a reader who was dealt what."""
        ...

    def result_line(self, state: S) -> str:
        """The ``Result`` tag of a state (``seat 1 wins (declared, draw)``, ``unfinished``)."""
        ...

    def position_lines(self, state: S, seat: int | None) -> list[str]:
        """What a seat sees, in English lines, the seat to play marked (``kapshap replay``
        prints every seat's, for ``seat`` None, after a game in which every hand is shown)."""
        ...

    def parse_position(self, game: str, fields: Mapping[str, Sequence[str]]) -> tuple[S, int]:
        """A typed position (:mod:`bot.engine.position`) -> (state, seat to analyse).
        ``fields`` holds every field but the game, in the order given, each with its values
        in order (a field given once has one); PositionError names the field at fault."""
        ...

    def write_position(self, state: S) -> str:
        """A state that is not over as a typed position, one field a line, the game first
        (the inverse of :meth:`parse_position`); PositionError for what the notation cannot
        say."""
        ...


class Hidden(Protocol[S]):
    """Where the pieces a seat has not seen may lie (reviews never peek)."""

    def unseen(self, state: S, seat: int) -> list[int]:
        """The pieces ``seat`` has not seen, sorted."""
        ...

    def rebuild(self, state: S, seat: int, order: Sequence[int]) -> S:
        """The state with the places ``seat`` cannot see refilled, in order, from ``order``."""
        ...

    def arrangement_count(self, state: S, seat: int) -> int:
        """How many states :meth:`arrangements` yields."""
        ...

    def arrangements(self, state: S, seat: int) -> Iterator[S]:
        """Every arrangement of the unseen pieces, equally likely under a random deal."""
        ...


class Results(Protocol[S_contra, E_contra]):
    """What a finished game means for chips, ratings, statistics and tournaments."""

    def standing(self, state: S_contra) -> Standing:
        """Winner, final points and ranks of a finished game (ValueError while it goes on)."""
        ...

    def seat_stats(
        self, final: S_contra, events: Iterable[E_contra]
    ) -> tuple[Mapping[str, str | int | None], ...]:
        """Per seat, the ``game_results`` columns (arrangement, eye, score, captures, sweeps,
        claims) of a finished game, from its final state and every event it had."""
        ...

    def points_owed(self, final: S_contra) -> int:
        """Chips the loser of a finished game pays the winner when its rules settle by
        difference (0 for a draw, under ``pot`` or for a game without points)."""
        ...

    def forfeit_points(self, state: S_contra, winner: int) -> int:
        """Points the seat giving up is behind ``winner`` (what he pays per ``settle_rate``
        when a difference-settled game is forfeited; 0 for a game without points)."""
        ...


class GameEngine(
    RuleBook[R],
    Machine[R, S, V, A, E],
    Notation[S, A, E],
    Records[R, S],
    Hidden[S],
    Results[S, E],
    Protocol[R, S, V, A, E],
):
    """Everything a family gives the engine layer, typed by its rule set ``R``, state ``S``,
    view ``V``, action ``A`` and event ``E`` (generic code sees ``Any`` for each and reads
    them through :class:`Rules`, :class:`State`, :class:`View` and :class:`Result`)."""


AnyEngine = GameEngine[Any, Any, Any, Any, Any]
"""A family's engine facet as generic code holds it."""


def engine_of(game: str) -> AnyEngine:
    """The engine facet of a game's family (UnknownGame for a name no family registered)."""
    facet = load(game, "engine")
    if facet is None:  # pragma: no cover - the registry refuses a family without an engine
        raise LookupError(f"the game '{game}' has no engine")
    return cast(AnyEngine, facet)


def rules_from_flags(flags: Mapping[str, Any]) -> Rules:
    """A stored rule set rebuilt by its game's family (``flags["game"]`` names the game)."""
    return cast(Rules, engine_of(str(flags.get("game"))).rules_from_flags(flags))


_event_engines: dict[type, AnyEngine] = {}
"""The facet that describes each kind of event met so far (an event does not name its game)."""


def engine_of_event(event: object) -> AnyEngine:
    """The engine facet of the family an event belongs to: the first family, in registration
    order, that owns it (AssertionError for an event no family owns)."""
    kind = type(event)
    found = _event_engines.get(kind)
    if found is None:
        seen: set[int] = set()
        for info in games():
            facet = engine_of(info.name)
            if id(facet) not in seen and facet.owns_event(event):
                found = _event_engines[kind] = facet
                break
            seen.add(id(facet))
        else:
            raise AssertionError(f"unknown event {event!r}")
    return found
