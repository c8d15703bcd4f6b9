"""The collecting games' refusals of a play and of their notation, as English templates
(message ids) the services and the terminal client recognize to word them in a reader's
language (:attr:`bot.engine.family.RuleBook.refusals`). tests/locale/test_engine_refusals.py
walks the engine's source so that a refusal missing here fails.
"""

from __future__ import annotations

from bot.games import N_
from bot.games.dominoes.engine import refusals as kit

__all__ = ["REFUSALS"]

_PLAY = (
    N_("You do not hold {tile}."),
    N_("Your hand is not a winning hand (an eye and ten-pairs)."),
    N_("You can only declare when you hold a full hand."),
    N_("You just took {tile}: discard a different tile."),
    N_("You must take a discard or draw from the wall first."),
    N_("You must draw from the wall now."),
    N_("You hold a full hand: discard a tile (or declare) first."),
    N_("You hold a full hand: discard a tile (or declare)."),
    N_("The wall is empty: you may take {tile} only if it wins."),
    N_("The wall is empty."),
    N_(
        "{n} turns in a row took a discard without a draw: you may take {tile} only if it "
        "wins, else draw from the wall."
    ),
    N_(
        "{n} turns in a row took a discard without a draw: you must draw from the wall (a take "
        "is allowed only if it wins)."
    ),
    N_("Only the most recent discard ({last}) may be taken, not {tile}."),
    N_("You may not take back your own discard {tile}."),
    N_("{tile} is not among the face-up discards."),
    N_("There is no discard you may take."),
    N_("You may not take that tile."),
    N_("'{action}' is not a {game} action."),
)

_NOTATION = (
    N_("Empty action: write one of {verbs}."),
    N_("Unknown action {text}: write one of {verbs}."),
    N_("Discard needs a tile, e.g. 'discard 3-1'."),
    N_("{verb} takes no tile: write just '{word}'."),
)

REFUSALS = (*_PLAY, *kit.REFUSALS, *_NOTATION)
"""Every refusal the collecting games' engine raises, as sentences (a capital, a full stop)."""
