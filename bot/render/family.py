"""What a family of games gives the render layer (its *render facet*), and the one accessor that
fetches it: :func:`render_of`.

Render may not import discord, so a facet answers in plain values (below) that the cogs turn
into embeds, files and components: :class:`Field`, :class:`Picture`, :class:`Sheet`,
:class:`ButtonSpec`, :class:`SelectSpec`, :class:`Choice`, and :class:`VerbRefusal` for a slash
verb the game has no use for. Words are in a locale (``bot.locale``); every English text is a
message id of the catalogue.

A family's facet is the ``FACET`` of the module its descriptor names for the role ``render``
(``bot/games/<family>/render/family.py``); that module belongs to this layer (standard
library, ``bot.engine``, ``bot.render``, ``bot.locale``, Pillow). The facet is not generic:
a game's rules, views, actions, events and results come in as ``Any`` (opaque to the generic
code that passes them on) and the family reads them as its own types. See
docs/architecture.md, "Games: one place per game".
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, cast

from bot.games import games, load
from bot.locale import Message

__all__ = [
    "ButtonSpec",
    "Choice",
    "Field",
    "GameRender",
    "Picture",
    "Pictures",
    "SeatLabel",
    "SelectSpec",
    "Sheet",
    "Surface",
    "VerbRefusal",
    "Words",
    "render_for",
    "render_of",
]


@dataclass(frozen=True, slots=True)
class SeatLabel:
    """How a seat is written: its name and whether a computer plays it."""

    name: str
    is_ai: bool = False


@dataclass(frozen=True, slots=True)
class Field:
    """One field of an embed."""

    name: str
    value: str
    inline: bool = False


@dataclass(frozen=True, slots=True)
class Picture:
    """A picture to attach: PNG bytes, its file name and its alt text (in the locale)."""

    png: bytes
    filename: str
    alt: str


@dataclass(frozen=True, slots=True)
class Sheet:
    """A message's game-specific part: lines of text, fields and a footer (all in a locale),
    and the file name of the picture it shows (``attachment://…``; None: none)."""

    lines: tuple[str, ...] = ()
    fields: tuple[Field, ...] = ()
    footer: str | None = None
    image: str | None = None


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    """A button: its custom id is made of ``verb`` and ``arg`` (cogs/ui.py decodes it)."""

    verb: str
    arg: str
    label: str
    style: Literal["primary", "secondary", "success", "danger"] = "secondary"
    row: int | None = None


@dataclass(frozen=True, slots=True)
class Choice:
    """One option of a select menu or of an autocomplete."""

    label: str
    value: str


@dataclass(frozen=True, slots=True)
class SelectSpec:
    """A select menu: choosing ``value`` plays ``verb value``."""

    verb: str
    options: tuple[Choice, ...]
    placeholder: str
    row: int | None = None


class VerbRefusal(Exception):
    """A slash verb (or option) the game has no use for here; its message says why, in a way
    the cogs show privately in the member's language."""

    def __init__(self, message: Message, *, no_such_move: bool = False) -> None:
        super().__init__(str(message))
        self.message = message
        self.no_such_move = no_such_move
        """The verb names a move the game does not have (Tsung Shap's ``/declare``): it is
        refused like any move, after the table's own refusals (the game not started, the
        member not seated, not his turn)."""


class Words(Protocol):
    """A game's words: events, turns, results, rules and the text of its messages."""

    def claims(self, value: Any) -> bool:
        """Whether an event, action or result is one of this family's (how the generic words
        of a bare value, :func:`render_for`, find the family that words it)."""
        ...

    def rules_summary(self, rules: Any, locale: str) -> str:
        """One line under the table's title (``Culin rules · 2 players · 1 set · hand of 8``)."""
        ...

    def rules_text(
        self,
        rules: Any,
        locale: str,
        *,
        ante: int | None = None,
        turn_seconds: int | None = None,
    ) -> str:
        """The rules in force as bullet points (``/table rules``)."""
        ...

    def public_event(self, event: Any, names: Sequence[str], locale: str) -> str | None:
        """An event as everybody at the table reads it; None for events nobody is told."""
        ...

    def private_event(self, event: Any, seat: int, names: Sequence[str], locale: str) -> str | None:
        """One of ``seat``'s own moves told to him (``You drew 6-5``); None for others."""
        ...

    def their_move(
        self, event: Any, reader: int | None, names: Sequence[str], locale: str
    ) -> str | None:
        """Another seat's move in a few words as everybody saw it (``took 6-5``, ``drew a
        tile``), for ``reader``'s "since your last turn"; None for what is not a move."""
        ...

    def replay_event(self, event: Any, names: Sequence[str], rules: Any, locale: str) -> str | None:
        """An event of a game that is over (a replay): drawn tiles named, winning hands told."""
        ...

    def action_label(self, action: Any, locale: str) -> str:
        """An action as a button label or a choice."""
        ...

    def turn(
        self, view: Any, seats: Sequence[SeatLabel], deadline: float | None, locale: str
    ) -> str:
        """Whose turn it is, what he is to do and when his time runs out (or the result)."""
        ...

    def result(self, result: Any, seats: Sequence[SeatLabel], locale: str) -> str:
        """How the game ended, in one line (``🏆 … won``)."""
        ...

    def end_lines(
        self, result: Any, rules: Any, seats: Sequence[SeatLabel], locale: str
    ) -> list[str]:
        """The lines of the end-of-game message (the winning hand, the scores …)."""
        ...

    def prompt(self, view: Any, legal: Sequence[Any], locale: str) -> str:
        """What the seat may do now, in one line (its hand message, the turn notice)."""
        ...

    def moves(
        self,
        view: Any,
        legal: Sequence[Any],
        locale: str,
        *,
        opener: bool = True,
        turned: bool = True,
    ) -> str:
        """What the seat may do now, every move in words (a private reply, the turn notice).
        Without ``opener`` it does not say "It is your turn" (a line above does), without
        ``turned`` it does not name a tile the seat just turned over (told just above)."""
        ...

    def seats(self, view: Any, seats: Sequence[SeatLabel], locale: str) -> str:
        """The seats in play order with what each holds, the one to act marked ▶."""
        ...

    def table_sheet(self, view: Any, seats: Sequence[SeatLabel], locale: str) -> Sheet:
        """The table message's game part (seats, wall and discards; scores and row …)."""
        ...

    def hand_fields(self, view: Any, table_link: str, locale: str) -> list[Field]:
        """The hand message's fields about the table (``Table``)."""
        ...

    def hand_guide(self, view: Any, locale: str) -> str | None:
        """The hand guide for a seat's own hand (its view), in one or two lines: what it has
        grouped and what would complete it; None when the game has none (or no hand)."""
        ...

    def replay_sheet(
        self, table: Any, seats_views: Sequence[Any], names: Sequence[str], locale: str
    ) -> Sheet:
        """A replay page's fields and footer: every seat's tiles (``seats_views``, named
        ``names``) and the table (``table``, the spectator's view)."""
        ...


class Pictures(Protocol):
    """A game's pictures; None where the game draws none (the cogs then send text alone)."""

    def table(self, view: Any, seats: Sequence[SeatLabel], locale: str) -> Picture | None:
        """The table's picture (the discards, the row)."""
        ...

    def hand(
        self, view: Any, legal: Sequence[Any], locale: str, *, guide: bool = False
    ) -> Picture | None:
        """A seat's hand, the tiles it may take framed (named ``hand.png``: the hand message
        shows that attachment, also when an edit keeps the picture it has); with ``guide``, its
        tiles grouped as the hand guide groups them (:meth:`Words.hand_guide`)."""
        ...

    def hand_key(self, view: Any, legal: Sequence[Any]) -> Hashable:
        """A value that changes exactly when :meth:`hand` would draw differently (the hand
        message is edited only then)."""
        ...

    def end(
        self, result: Any, rules: Any, seats: Sequence[SeatLabel], locale: str
    ) -> Picture | None:
        """The end of the game (the winning arrangement)."""
        ...

    def replay(self, table: Any, step: int, locale: str) -> Picture | None:
        """A replay page's picture at ``step``."""
        ...

    def position(self, view: Any, legal: Sequence[Any], locale: str) -> Picture | None:
        """The position a seat decided in, as he saw it (a review's page)."""
        ...


class Surface(Protocol):
    """Where and how a member plays: buttons, slash verbs and their options."""

    @property
    def where(self) -> Literal["hand", "table"]:
        """Where a seat's moves are: on his hand message (collecting games) or on the table
        message everybody sees (Tsung Shap, which hides nothing)."""
        ...

    def buttons(
        self, view: Any, legal: Sequence[Any], locale: str
    ) -> list[ButtonSpec | SelectSpec]:
        """The legal moves as components."""
        ...

    def verb(
        self, verb: str, options: Mapping[str, str | None], view: Any, legal: Sequence[Any]
    ) -> str:
        """The notation a slash verb (``take``, ``draw``, ``discard``, ``declare``) with its
        options means here; :class:`VerbRefusal` if none."""
        ...

    def choices(
        self, verb: str, option: str, view: Any, legal: Sequence[Any], locale: str
    ) -> list[Choice]:
        """The autocomplete of a verb's option (at most 25)."""
        ...


class GameRender(Words, Pictures, Surface, Protocol):
    """Everything a family gives the render layer."""


def render_of(game: str) -> GameRender:
    """The render facet of a game's family (UnknownGame for a name no family registered)."""
    facet = load(game, "render")
    if facet is None:  # pragma: no cover - the registry refuses a family without a render part
        raise LookupError(f"the game '{game}' has no render part")
    return cast(GameRender, facet)


_BY_TYPE: dict[type, GameRender] = {}
"""The facet that words each type of bare value met so far (:func:`render_for`)."""


def render_for(value: Any) -> GameRender:
    """The render facet of the family a bare event, action or result belongs to (one that
    carries no rules to name its game); LookupError when no registered family claims it."""
    kind = type(value)
    facet = _BY_TYPE.get(kind)
    if facet is None:
        for game in games():
            candidate = render_of(game.name)
            if candidate.claims(value):
                facet = _BY_TYPE[kind] = candidate
                break
        else:
            raise LookupError(f"no family of games words {value!r}")
    return facet
