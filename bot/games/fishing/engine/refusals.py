"""Tsung Shap's refusals of a play and of its notation, as English templates (message ids)
the services and the terminal client recognize to word them in a reader's language
(:attr:`bot.engine.family.RuleBook.refusals`). tests/locale/test_engine_refusals.py walks the
engine's source so that a refusal missing here fails.
"""

from __future__ import annotations

from bot.games import N_
from bot.games.dominoes.engine import refusals as kit

__all__ = ["REFUSALS"]

_PLAY = (
    N_("Turn over your next tile first ('draw')."),
    N_("You have already claimed one missed combination this turn."),
    N_("There is no missed capture to claim."),
    N_("{name} did not miss a {kind} at {end}: you may claim {could}."),
    N_("You have turned over {tile} already: capture with it or place it."),
    N_("Missed captures are claimed at the start of a turn, before turning over."),
    N_("Auto_capture: you must take the best capture ({best})."),
    N_("Auto_capture: only the best capture may be taken ({best})."),
    N_("{tile} is not identical to the {end} end tile {other}."),
    N_("A triplet needs two tiles on the row."),
    N_(
        "With triplet_both_ends_only a triplet is the turned tile with both end tiles "
        "('capture triplet ends')."
    ),
    N_("{tile} + {a} + {b} total {total}, not a multiple of ten."),
    N_("'{action}' is not a Tsung Shap action."),
)

# The specific texts come before "Not {what}", which would match them too.
_NOTATION = (
    N_("Empty action: write one of {verbs}."),
    N_("Unknown action {text}: write one of {verbs}."),
    N_("Draw takes nothing after it: write just 'draw'."),
    N_("Write 'place left' or 'place right'."),
    N_("Write '{verb} pair left|right' or '{again} triplet left|right|ends'."),
    N_("A pair is at the left or the right end: '{usage}'."),
    N_("A tile is placed at the left or the right end, not at 'ends'."),
    N_("Not {what}: {text}; {usage}."),
)

REFUSALS = (*_PLAY, *kit.REFUSALS, *_NOTATION)
"""Every refusal Tsung Shap's engine raises, as sentences (a capital, a full stop)."""
