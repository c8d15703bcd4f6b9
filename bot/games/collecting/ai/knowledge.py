"""What a seat knows, as packed counts: the one input format of the decision core.

:func:`read_view` turns a :class:`~bot.engine.View` (plus the legal actions) into a
:class:`Seen`; :mod:`bot.games.collecting.sim.fast` keeps the same numbers up to date move by move
and builds the
same :class:`Seen`. Every computer player decides from a :class:`Seen` only, so both paths feed
it identical values and get identical decisions.

Vocabulary of the fields (all packed count vectors, see :mod:`bot.games.collecting.ai.core`):

* ``faceup``: every face-up discard, live or dead.
* ``known[s]``: tiles seat ``s`` is known to hold: taken from the discards and not discarded
  again since (a discard of a kind it took cancels one such copy).
* ``public``: ``faceup`` plus every ``known`` vector: the tiles whose place everybody knows.
* ``discarded[s]``: every tile seat ``s`` has discarded (what it did not want).
* ``recent[s]``: the tiles seat ``s`` discarded in its latest turn (so far, for the seat to play).
* ``passed[s]``: the live discards (its own included; under LAST the most recent discard) when
  seat ``s`` last opened a turn by drawing instead of taking: what it did not need then. Reset
  to 0 when it opens a turn with a take.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine import Offer, RuleSet
from bot.games.collecting.ai.core import FIELD_BITS, FIELD_MASK, UNIT, pack_tiles, total_counts
from bot.games.collecting.engine.actions import Action
from bot.games.collecting.engine.machine import View
from bot.games.dominoes.engine.actions import Draw

__all__ = ["Seen", "read_view"]


@dataclass(slots=True)
class Seen:
    """Everything a seat may use to decide, in packed counts.

    The fast simulator passes its own lists (``known`` ...) and goes on updating them after the
    decision: a player reads a :class:`Seen` while deciding and never keeps it.
    """

    rules: RuleSet
    seat: int
    hand: int
    takeable: int  # packed counts of the discards this seat may take now (0 if none)
    can_draw: bool
    just_taken: int  # kind taken this step, -1 if none
    wall_size: int
    total: int
    faceup: int
    public: int
    known: list[int]
    discarded: list[int]
    passed: list[int]
    recent: list[int]
    hand_sizes: Sequence[int]
    current: int

    def unseen(self) -> int:
        """Tiles this seat has not seen: in the wall or hidden in other hands."""
        return self.total - self.hand - self.public + self.known[self.seat]


def _takeable_now(view: View) -> int:
    # The view marks exactly the copies this seat may take now: the engine has applied the
    # offer, exclude_own_discards, the stall guard and the empty wall (one truth for clients).
    return pack_tiles(p.tile.index for p in view.takeable)


def read_view(view: View, legal: Sequence[Action]) -> Seen:
    """The packed knowledge of ``view.seat`` (which must be a seat, not a spectator)."""
    rules = view.rules
    players = rules.players
    seat = view.seat
    assert seat is not None, "a computer player needs a seat"
    known = [0] * players
    discarded = [0] * players
    passed = [0] * players
    recent = [0] * players
    any_offer = rules.offer is Offer.ANY
    # Replay the public record: the face-up discards that were live at each decision to draw.
    live = 0  # packed counts of the live discards under ANY
    last_kind = -1  # under LAST: the most recent discard (live at the start of a turn)
    last_turn = -1
    for move in view.history:
        verb = move.verb
        opens_turn = move.turn != last_turn
        last_turn = move.turn
        if opens_turn:
            recent[move.seat] = 0
        if verb == "take":
            assert move.tile is not None
            k = move.tile.index
            known[move.seat] += UNIT[k]
            passed[move.seat] = 0
            if any_offer:
                live -= UNIT[k]
        elif verb == "discard":
            assert move.tile is not None
            k = move.tile.index
            discarded[move.seat] += UNIT[k]
            recent[move.seat] += UNIT[k]
            if (known[move.seat] >> (FIELD_BITS * k)) & FIELD_MASK:
                known[move.seat] -= UNIT[k]
            if any_offer:
                live += UNIT[k]
            else:
                last_kind = k
        elif verb == "draw" and opens_turn:
            # A draw that opens a turn is a choice not to take; a draw after a discard in the
            # same turn is compulsory and says nothing.
            if any_offer:
                passed[move.seat] = live
            else:
                passed[move.seat] = UNIT[last_kind] if last_kind >= 0 else 0
    faceup = pack_tiles(p.tile.index for p in view.pool)
    public = faceup + sum(known)
    hand = pack_tiles(t.index for t in view.hand)
    return Seen(
        rules=rules,
        seat=seat,
        hand=hand,
        takeable=_takeable_now(view),
        can_draw=any(isinstance(a, Draw) for a in legal),
        just_taken=view.just_taken.index if view.just_taken is not None else -1,
        wall_size=view.wall_size,
        total=total_counts(rules),
        faceup=faceup,
        public=public,
        known=known,
        discarded=discarded,
        passed=passed,
        recent=recent,
        hand_sizes=view.hand_sizes,
        current=view.current,
    )
