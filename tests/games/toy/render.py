"""High Pair's render facet (the Protocol :class:`bot.render.family.GameRender`): its words,
a small Pillow picture of a hand (so that the cogs' picture path runs) and no table picture (so
that their no-picture path runs too), its buttons and what the slash verbs mean here.

A seat plays from his hand message (``where = "hand"``): ``draw``, ``discard N`` and ``show``
(``/declare``); ``/take`` is refused.
"""

from __future__ import annotations

import io
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Literal

from PIL import Image, ImageDraw

from bot.locale import Message, t
from bot.render.family import (
    ButtonSpec,
    Choice,
    Field,
    GameRender,
    Picture,
    SelectSpec,
    Sheet,
    VerbRefusal,
)
from bot.render.text import SeatLabel, deadline_text
from tests.games.toy.engine import (
    Discard,
    Discarded,
    Draw,
    Drew,
    GameOver,
    Phase,
    Show,
    Shown,
    ToyResult,
    ToyRules,
    ToyView,
    card,
)

__all__ = ["FACET", "ToyRender"]

_CARD = (36, 52)
"""A card's size in the hand picture, in pixels."""


def _cards(cards: Sequence[int], locale: str) -> str:
    return " ".join(str(c) for c in cards) if cards else t(locale, "none")


class ToyRender:
    """High Pair for the render layer."""

    # -- words --------------------------------------------------------------------------------

    def rules_summary(self, rules: ToyRules, locale: str) -> str:
        """``High Pair · 2 players · hand of 3``."""
        return t(
            locale,
            "High Pair · {players} players · hand of {hand}",
            players=rules.players,
            hand=rules.hand,
        )

    def rules_text(
        self,
        rules: ToyRules,
        locale: str,
        *,
        ante: int | None = None,
        turn_seconds: int | None = None,
    ) -> str:
        """The rules as bullet points."""
        lines = [
            t(locale, "• Each player holds {hand} cards (1 to 9, four of each).", hand=rules.hand),
            t(locale, "• A turn: draw the top card, then discard one or show a pair."),
            t(locale, "• The higher pair wins; an empty stock ends the game too."),
        ]
        if ante is not None:
            lines.append(t(locale, "• Ante: {ante} chips.", ante=ante))
        if turn_seconds is not None:
            lines.append(t(locale, "• {seconds} seconds a turn.", seconds=turn_seconds))
        return "\n".join(lines)

    def public_event(self, event: Any, names: Sequence[str], locale: str) -> str | None:
        """A draw (its card hidden), a discard, a show; the end is told by :meth:`result`."""
        if isinstance(event, Drew):
            return t(locale, "{name} drew a card.", name=names[event.seat])
        if isinstance(event, Discarded):
            return t(locale, "{name} discarded {card}.", name=names[event.seat], card=event.card)
        if isinstance(event, Shown):
            return t(
                locale,
                "{name} shows {cards}.",
                name=names[event.seat],
                cards=_cards(event.cards, locale),
            )
        return None

    def private_event(self, event: Any, seat: int, names: Sequence[str], locale: str) -> str | None:
        """The card the seat drew."""
        if isinstance(event, Drew) and event.seat == seat:
            return t(locale, "You drew {card}.", card=card(event.piece))
        return None

    def replay_event(self, event: Any, names: Sequence[str], rules: Any, locale: str) -> str | None:
        """A replay names the drawn cards and tells the end."""
        if isinstance(event, Drew):
            return t(locale, "{name} drew {card}.", name=names[event.seat], card=card(event.piece))
        if isinstance(event, GameOver):
            return self.result(event.result, [SeatLabel(n) for n in names], locale)
        return self.public_event(event, names, locale)

    def action_label(self, action: Any, locale: str) -> str:
        """``Draw``, ``Discard 7``, ``Show``."""
        if isinstance(action, Draw):
            return t(locale, "Draw")
        if isinstance(action, Show):
            return t(locale, "Show")
        return t(locale, "Discard {card}", card=action.card)

    def turn(
        self, view: ToyView, seats: Sequence[SeatLabel], deadline: float | None, locale: str
    ) -> str:
        """``Turn 3: **Ann** to draw.``"""
        if view.result is not None:
            return self.result(view.result, seats, locale)
        seat = seats[view.current]
        if view.phase is Phase.DRAW:
            text = t(locale, "Turn {turn}: **{name}** to draw.", turn=view.turn, name=seat.name)
        else:
            text = t(
                locale,
                "Turn {turn}: **{name}** to discard or show.",
                turn=view.turn,
                name=seat.name,
            )
        if deadline is not None and not seat.is_ai:
            text += t(locale, " Time runs out {when}.", when=deadline_text(deadline))
        return text

    def result(self, result: ToyResult, seats: Sequence[SeatLabel], locale: str) -> str:
        """``🏆 Ann won with a pair of 7.`` or the draw."""
        if result.winner is None:
            return t(locale, "The game is drawn: no higher pair.")
        return t(
            locale,
            "🏆 {name} won with a pair of {pair}.",
            name=seats[result.winner].name,
            pair=result.pairs[result.winner],
        )

    def end_lines(
        self, result: ToyResult, rules: Any, seats: Sequence[SeatLabel], locale: str
    ) -> list[str]:
        """Every seat's best pair."""
        return [
            t(
                locale,
                "{name}: best pair {pair}.",
                name=seat.name,
                pair=t(locale, "none") if pair is None else pair,
            )
            for seat, pair in zip(seats, result.pairs, strict=True)
        ]

    def prompt(self, view: ToyView, legal: Sequence[Any], locale: str) -> str:
        """What to do now."""
        if not view.my_turn:
            return t(locale, "Wait for your turn.")
        if view.phase is Phase.DRAW:
            return t(locale, "Draw a card.")
        if Show() in legal:
            return t(locale, "Discard a card, or show your pair.")
        return t(locale, "Discard a card.")

    def table_sheet(self, view: ToyView, seats: Sequence[SeatLabel], locale: str) -> Sheet:
        """The seats with their hand sizes, the stock and the discards."""
        lines = tuple(self.seats(view, seats, locale).splitlines())
        fields = (
            Field(t(locale, "Stock"), t(locale, "{n} cards", n=view.stock), inline=True),
            Field(t(locale, "Discards"), _cards(view.discards, locale), inline=True),
        )
        return Sheet(lines=lines, fields=fields)

    def hand_fields(self, view: ToyView, table_link: str, locale: str) -> list[Field]:
        """A link to the table."""
        return [Field(t(locale, "Table"), table_link)]

    def hand_guide(self, view: ToyView, locale: str) -> str | None:
        """None: High Pair offers no hand guide."""
        return None

    def replay_sheet(
        self, table: ToyView, seats_views: Sequence[ToyView], names: Sequence[str], locale: str
    ) -> Sheet:
        """Every hand (``seats_views``, named ``names``), the stock and the discards."""
        fields = [
            Field(name, _cards(seen.hand, locale))
            for name, seen in zip(names, seats_views, strict=True)
        ]
        fields.append(Field(t(locale, "Stock"), t(locale, "{n} cards", n=table.stock)))
        fields.append(Field(t(locale, "Discards"), _cards(table.discards, locale)))
        return Sheet(fields=tuple(fields))

    def claims(self, value: Any) -> bool:
        """High Pair's events, actions and result."""
        return isinstance(
            value, Drew | Discarded | Shown | GameOver | Draw | Discard | Show | ToyResult
        )

    def their_move(
        self, event: Any, reader: int | None, names: Sequence[str], locale: str
    ) -> str | None:
        """``drew a card``, ``discarded 7``, ``showed 2 7 7 8``."""
        if isinstance(event, Drew):
            return t(locale, "drew a card")
        if isinstance(event, Discarded):
            return t(locale, "discarded {card}", card=event.card)
        if isinstance(event, Shown):
            return t(locale, "showed {cards}", cards=_cards(event.cards, locale))
        return None

    def moves(
        self,
        view: ToyView,
        legal: Sequence[Any],
        locale: str,
        *,
        opener: bool = True,
        turned: bool = True,
    ) -> str:
        """Draw; or discard one of the cards, or show."""
        if not view.my_turn:
            return self.prompt(view, legal, locale)
        options = []
        if Draw() in legal:
            options.append(t(locale, "**draw** a card"))
        discards = [str(a.card) for a in legal if isinstance(a, Discard)]
        if discards:
            options.append(t(locale, "**discard** one of {cards}", cards=", ".join(discards)))
        if Show() in legal:
            options.append(t(locale, "**show** your pair"))
        joined = t(locale, ", or ").join(options)
        if not opener:
            return t(locale, "You may {options}.", options=joined)
        return t(locale, "**It is your turn.** You may {options}.", options=joined)

    def seats(self, view: ToyView, seats: Sequence[SeatLabel], locale: str) -> str:
        """The seats with their hand sizes, the one to act marked ▶."""
        lines = []
        for index, (seat, n) in enumerate(zip(seats, view.hand_sizes, strict=True)):
            mark = "▶ " if view.result is None and index == view.current else ""
            lines.append(t(locale, "{mark}{name}: {n} cards", mark=mark, name=seat.name, n=n))
        return "\n".join(lines)

    # -- pictures -----------------------------------------------------------------------------

    def table(self, view: Any, seats: Sequence[SeatLabel], locale: str) -> Picture | None:
        """No table picture: the sheet says it all."""
        return None

    def hand(
        self, view: ToyView, legal: Sequence[Any], locale: str, *, guide: bool = False
    ) -> Picture | None:
        """The seat's cards as white cards with their digit; those it may discard are framed."""
        if not view.hand:
            return None
        width, height = _CARD
        image = Image.new("RGB", (8 + len(view.hand) * (width + 8), height + 16), (20, 90, 50))
        draw = ImageDraw.Draw(image)
        throwable = {a.card for a in legal if isinstance(a, Discard)}
        for index, value in enumerate(view.hand):
            left = 8 + index * (width + 8)
            outline = (240, 200, 40) if value in throwable else (0, 0, 0)
            draw.rectangle((left, 8, left + width, 8 + height), (255, 255, 255), outline, 3)
            draw.text((left + width // 2 - 3, 8 + height // 2 - 6), str(value), (0, 0, 0))
        out = io.BytesIO()
        image.save(out, "PNG")
        alt = t(locale, "Your cards: {cards}", cards=_cards(view.hand, locale))
        return Picture(out.getvalue(), "hand.png", alt)

    def hand_key(self, view: ToyView, legal: Sequence[Any]) -> Hashable:
        """The cards and the moves: what :meth:`hand` draws."""
        return (view.hand, tuple(str(a) for a in legal))

    def end(
        self, result: Any, rules: Any, seats: Sequence[SeatLabel], locale: str
    ) -> Picture | None:
        """No end picture."""
        return None

    def position(self, view: ToyView, legal: Sequence[Any], locale: str) -> Picture | None:
        """The hand the seat decided with."""
        return self.hand(view, legal, locale)

    def replay(self, table: Any, step: int, locale: str) -> Picture | None:
        """No replay picture."""
        return None

    # -- surface ------------------------------------------------------------------------------

    @property
    def where(self) -> Literal["hand", "table"]:
        """From the hand message: a hand is private."""
        return "hand"

    def buttons(
        self, view: ToyView, legal: Sequence[Any], locale: str
    ) -> list[ButtonSpec | SelectSpec]:
        """Draw, Show (``play:show``), one Discard button per card value held."""
        specs: list[ButtonSpec | SelectSpec] = []
        for action in legal:
            label = self.action_label(action, locale)
            if isinstance(action, Draw):
                specs.append(ButtonSpec("draw", "", label, "primary", row=0))
            elif isinstance(action, Show):
                specs.append(ButtonSpec("play", "show", label, "success", row=0))
            else:
                specs.append(ButtonSpec("discard", str(action.card), label, row=1))
        return specs

    def verb(
        self, verb: str, options: Mapping[str, str | None], view: ToyView, legal: Sequence[Any]
    ) -> str:
        """``/draw``, ``/discard tile:N``, ``/declare`` (shows); ``/take`` is refused."""
        if verb == "draw":
            return "draw"
        if verb == "declare":
            return "show"
        if verb == "discard":
            if options.get("side"):
                raise VerbRefusal(Message("High Pair has no sides: name the card to discard."))
            tile = (options.get("tile") or "").strip()
            if not tile:
                raise VerbRefusal(Message("Name the card to discard."))
            if tile not in tuple("123456789"):
                raise VerbRefusal(
                    Message("'{tile}' is not a card: name one from 1 to 9.", tile=tile)
                )
            return f"discard {tile}"
        if verb == "take":
            raise VerbRefusal(Message("High Pair has nothing to take: draw with /draw."))
        raise VerbRefusal(Message("High Pair has no /{verb}.", verb=verb))

    def choices(
        self, verb: str, option: str, view: ToyView, legal: Sequence[Any], locale: str
    ) -> list[Choice]:
        """The cards of the hand for ``/discard tile:``."""
        if verb != "discard" or option != "tile":
            return []
        return [
            Choice(t(locale, "Discard {card}", card=value), str(value))
            for value in sorted(set(view.hand))
        ][:25]


FACET: GameRender = ToyRender()
"""High Pair's render facet (``render_of("high-pair")``)."""
