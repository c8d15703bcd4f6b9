"""The words of a bare value (an event, action or result carries no rules to name its game)
come from the family that claims it (:func:`bot.render.family.render_for`, issue 19 step 9a):
the generic words of :mod:`bot.render.text` never tell the games apart themselves."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from bot.engine import Tile
from bot.games import FamilyInfo, GameInfo, registered
from bot.games.collecting.engine.actions import Declare, Take
from bot.games.collecting.engine.machine import Drew, EndReason, GameDrawn
from bot.games.fishing.engine import FishingEndReason, FishingResult, GameOver, TileTurned
from bot.games.fishing.engine.actions import Capture, ComboKind, End, Place
from bot.render import text
from bot.render.family import render_for, render_of


class Pebble:
    """An event of a game registered at run time."""


class _PebbleWords:
    """The only words of the pebble game: it claims its pebbles and tells them."""

    def claims(self, value: Any) -> bool:
        return isinstance(value, Pebble)

    def public_event(self, event: Any, names: Sequence[str], locale: str) -> str | None:
        return f"{names[0]} dropped a pebble"


FACET = _PebbleWords()

PEBBLES = FamilyInfo(
    name="pebbles",
    games=(
        GameInfo(
            name="pebbles",
            family="pebbles",
            title="Pebbles",
            short="Pebbles",
            table_choice="Pebbles (2 players)",
            event_choice=None,
            players=(2, 2),
            default_seats=2,
        ),
    ),
    roles={"engine": __name__, "ai": __name__, "render": __name__},
)


def test_each_family_claims_its_own_values() -> None:
    collecting, fishing = render_of("kap-shap"), render_of("tsung-shap")
    six_five = Tile(6, 5)
    for value in (Take(None), Declare(), Drew(0, six_five, 20), GameDrawn(EndReason.WALL)):
        assert render_for(value) is collecting
    result = FishingResult(FishingEndReason.PILE_EMPTY, 12, (40, 20), 0)
    for value in (
        Place(End.LEFT),
        Capture(ComboKind.PAIR, End.LEFT),
        TileTurned(1, six_five, 3, False),
        GameOver((40, 20), 0, FishingEndReason.PILE_EMPTY),
        result,
    ):
        assert render_for(value) is fishing
    assert text.result_text(result, [text.SeatLabel("ann"), text.SeatLabel("bob")]) == (
        "🏆 **ann** won on turn 12: ann 40, bob 20."
    )


def test_a_value_no_family_claims() -> None:
    with pytest.raises(LookupError, match="no family"):
        render_for(object())
    assert text.public_event_text(object(), ["ann"]) is None
    assert text.private_event_text(object(), 0, ["ann"]) is None
    with pytest.raises(AssertionError, match="unknown action"):
        text.action_label(object())


def test_a_family_registered_later_words_its_own_events() -> None:
    assert text.public_event_text(Pebble(), ["ann"]) is None
    with registered(PEBBLES):
        assert text.public_event_text(Pebble(), ["ann"]) == "ann dropped a pebble"
        assert render_for(Take(None)) is render_of("kap-shap")
