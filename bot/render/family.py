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
from typing import TYPE_CHECKING, Any, Literal, Protocol, cast

from bot.games import load
from bot.locale import Message

if TYPE_CHECKING:
    from bot.render.text import SeatLabel

__all__ = [
    "ButtonSpec",
    "Choice",
    "Field",
    "GameRender",
    "Picture",
    "Pictures",
    "SelectSpec",
    "Sheet",
    "Surface",
    "VerbRefusal",
    "Words",
    "render_of",
]


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
    """A message's game-specific part: lines of text, fields and a footer (all in a locale)."""

    lines: tuple[str, ...] = ()
    fields: tuple[Field, ...] = ()
    footer: str | None = None


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

    def table_sheet(self, view: Any, seats: Sequence[SeatLabel], locale: str) -> Sheet:
        """The table message's game part (seats, wall and discards; scores and row …)."""
        ...

    def hand_fields(self, view: Any, table_link: str, locale: str) -> list[Field]:
        """The hand message's fields about the table (``Table``)."""
        ...

    def replay_sheet(self, table: Any, seats_views: Sequence[Any], step: int, locale: str) -> Sheet:
        """A replay page's fields: every seat's tiles and the table at ``step``."""
        ...


class Pictures(Protocol):
    """A game's pictures; None where the game draws none (the cogs then send text alone)."""

    def table(self, view: Any, seats: Sequence[SeatLabel], locale: str) -> Picture | None:
        """The table's picture (the discards, the row)."""
        ...

    def hand(self, view: Any, legal: Sequence[Any], locale: str) -> Picture | None:
        """A seat's hand, the tiles it may take framed."""
        ...

    def hand_key(self, view: Any, legal: Sequence[Any]) -> Hashable:
        """A value that changes exactly when :meth:`hand` would draw differently (the hand
        message is edited only then)."""
        ...

    def end(self, result: Any, rules: Any, title: str, locale: str) -> Picture | None:
        """The end of the game (the winning arrangement)."""
        ...

    def replay(self, table: Any, step: int, locale: str) -> Picture | None:
        """A replay page's picture at ``step``."""
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
