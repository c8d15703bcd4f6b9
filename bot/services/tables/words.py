"""What the table service tells members: the engine's refusals in their language, and the lines
of a game's opening and settlement (each a :class:`~bot.locale.Message`, worded by the cogs)."""

from __future__ import annotations

from bot.engine import AmbiguousTile, Deal
from bot.engine.family import engine_of
from bot.locale import Message, recognize
from bot.locale.refusals import RULES_REFUSALS
from bot.services.chips import DifferenceSettlement, Settlement
from bot.services.chips import Outcome as ChipsOutcome
from bot.services.errors import UserError
from bot.services.tables.model import MAX_RECENT, Outcome, SeatInfo, Table

__all__ = ["engine_refusal"]


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def _refusal(exc: BaseException, game: str) -> UserError:
    """A refusal of the engine of ``game`` as a :class:`UserError`, in the member's language
    when its family knows the words (:attr:`bot.engine.family.RuleBook.refusals`)."""
    text = _sentence(str(exc))
    known = recognize(text, engine_of(game).refusals)
    if known is not None and isinstance(exc, AmbiguousTile) and len(exc.options) == 2:
        # "6-3 or 5-4": the "or" is English; the tiles themselves are notation.
        first, second = exc.options
        known.values["options"] = Message("{a} or {b}", a=str(first), b=str(second))
    return UserError(text) if known is None else UserError("{reason}", reason=known)


def engine_refusal(exc: BaseException, game: str) -> UserError:
    """A refusal of the engine of ``game`` (a tile or an action it cannot read or allow) as a
    :class:`UserError` told in a member's language when its family knows the words."""
    return _refusal(exc, game)


def _rules_refusal(exc: BaseException) -> str:
    """The engine's refusal of a table's settings, as a :class:`Message` when it is known."""
    return recognize(str(exc), RULES_REFUSALS) or str(exc)


def _opening_line(table: Table, deal: Deal) -> str:
    first = table.seats[deal.first_seat].name
    if deal.dice:
        dice = " + ".join(str(d) for d in deal.dice)
        thrower = table.seats[deal.thrower].name
        return Message(
            "🎲 {thrower} threw {dice} = {total}: counting from the right, {first} plays first.",
            thrower=thrower,
            dice=dice,
            total=sum(deal.dice),
            first=first,
        )
    return Message("🎲 Lots were drawn: {first} plays first.", first=first)


def _difference_line(
    winner: SeatInfo, loser: SeatInfo, difference: int, settled: DifferenceSettlement
) -> str:
    points = (
        Message("{n} point", n=difference)
        if difference == 1
        else Message("{n} points", n=difference)
    )
    if settled.paid == 0 and settled.owed == 0:
        return Message(
            "{winner} won by {points}: nothing to pay.", winner=winner.name, points=points
        )
    if settled.paid == 0:
        return Message(
            "{winner} won by {points}: {loser} owed {owed} chips but has none to pay.",
            winner=winner.name,
            points=points,
            loser=loser.name,
            owed=f"{settled.owed:,}",
        )
    capped = (
        Message(
            " (capped: {owed} owed, {loser} had only {paid})",
            owed=f"{settled.owed:,}",
            loser=loser.name,
            paid=f"{settled.paid:,}",
        )
        if settled.capped
        else ""
    )
    return Message(
        "💰 {loser} pays {winner} {paid} chips for {points}{capped}.",
        loser=loser.name,
        winner=winner.name,
        paid=f"{settled.paid:,}",
        points=points,
        capped=capped,
    )


def _record_settlement(table: Table, outcome: Outcome, line: str | None) -> None:
    """Show the settlement line (if any) in the outcome and the table's recent events."""
    if line is None:
        return
    outcome.settlement = line
    outcome.lines.append(line)
    table.recent.append(line)
    del table.recent[:-MAX_RECENT]


def _settlement_line(table: Table, settled: Settlement, winner: int | None) -> str | None:
    """What a settlement did, in words: from what was actually settled, so a pot that an
    earlier call (or a repair) had already refunded is never announced as a payout."""
    if settled.outcome is ChipsOutcome.NO_POT:
        return None
    if settled.outcome is ChipsOutcome.REFUNDED:
        return Message("Every ante was refunded.")
    if settled.outcome is ChipsOutcome.CARRIED:
        return Message(
            "The pot of {chips} chips stays on the table for the next game.",
            chips=f"{settled.carried:,}",
        )
    if winner is None:  # pragma: no cover - a payout always names its winner
        return None
    return _payout_line(table.seats[winner], settled)


def _payout_line(seat: SeatInfo, settled: Settlement) -> str:
    if seat.is_ai:
        return Message(
            "{name} won: the pot of {chips} chips goes to the house.",
            name=seat.name,
            chips=f"{settled.pot:,}",
        )
    rake = Message(" ({rake} to the house)", rake=f"{settled.rake:,}") if settled.rake else ""
    return Message(
        "💰 {name} takes the pot: {paid} chips{rake}.",
        name=seat.name,
        paid=f"{settled.paid:,}",
        rake=rake,
    )
