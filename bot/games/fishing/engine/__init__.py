"""Tsung Shap 爭十 ("disputing tens"), the two-player fishing game (RULES.md §3), as a state
machine.

Drive it through :func:`new_game`, :func:`legal_actions`, :func:`apply` and :func:`view` (or the
dispatching versions in :mod:`bot.engine.api`, which ask the game's family). States
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
The code is split by what it does: :mod:`~bot.games.fishing.engine.model` (the values, events and
state), :mod:`~bot.games.fishing.engine.scoring` (tile values, captures, the difference to pay),
:mod:`~bot.games.fishing.engine.machine` (dealing and playing) and
:mod:`~bot.games.fishing.engine.view`
(what a seat sees, the events in words). This package holds their names together.
"""

from bot.engine.events import TurnStarted
from bot.games.fishing.engine.machine import apply, deal_from_piles, legal_actions, new_game
from bot.games.fishing.engine.model import (
    SWEEP_SCORE,
    Captured,
    Claimed,
    Combination,
    FishingEndReason,
    FishingEvent,
    FishingMove,
    FishingPhase,
    FishingResult,
    FishingState,
    GameOver,
    MissedCapture,
    Placed,
    Swept,
    TileTurned,
    pile_tiles,
    row_tiles,
)
from bot.games.fishing.engine.scoring import (
    RowCapture,
    capture_options,
    difference_payment,
    row_captures,
    tile_values,
)
from bot.games.fishing.engine.view import FishingView, describe_event, view

__all__ = [
    "SWEEP_SCORE",
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
