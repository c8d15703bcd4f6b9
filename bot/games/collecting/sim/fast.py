"""The simulator's fast path: whole games on packed counts, no state objects, no events.

:func:`play_fast` plays exactly the game :func:`bot.sim.play.play_reference` plays for the same
rules, deal, levels and random stream (``tests/sim/test_fast_path.py`` checks it record for record
over every preset). It can, because:

* the rules are those of :mod:`bot.games.collecting.engine.machine`, step for step (phases, the
compulsory draw,
  Classic's dead discards, the stall guard and the empty wall, both of which allow only a
  winning take, the turn cap, the wall running out);
* every computer player decides through the same core functions as its ``choose`` method
  (:mod:`bot.games.collecting.ai.greedy`, :mod:`bot.games.collecting.ai.expert`), fed the same
  packed knowledge
  (:class:`bot.games.collecting.ai.knowledge.Seen`) that
  :func:`bot.games.collecting.ai.knowledge.read_view` derives from a view;
* the random player draws from ``rng`` exactly as :class:`bot.ai.base.RandomPlayer` does, over a
  list of legal actions of the same length and order as :func:`bot.engine.legal_actions`.

A hand is one int (a 16-bit count per kind, :mod:`bot.games.collecting.ai.core`); under "take any
discard" the pool
is one list of discarding seats per kind, since only the latest takeable copy of a kind is ever
taken.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.engine import Deal, Offer, RuleSet
from bot.engine.errors import RulesError
from bot.engine.tiles import PIECE_KINDS, PIECES_PER_SET
from bot.games.collecting.ai.core import (
    DECLARE,
    DRAW,
    FIELD_BITS,
    FIELD_MASK,
    KEY_BYTES,
    KIND_COUNT,
    UNIT,
    HandEvaluator,
    evaluator_for,
    total_counts,
)
from bot.games.collecting.ai.expert import expert_discard, expert_take
from bot.games.collecting.ai.greedy import greedy_discard, greedy_take
from bot.games.collecting.ai.knowledge import Seen
from bot.games.collecting.ai.ladder import LADDER, ladder_discard, ladder_take
from bot.sim.record import GameRecord

__all__ = ["FAST_LEVELS", "play_fast"]

_RANDOM, _GREEDY, _EXPERT, _LADDER = 0, 1, 2, 3
FAST_LEVELS: dict[str, int] = {
    "random": _RANDOM,
    "greedy": _GREEDY,
    "expert": _EXPERT,
    **dict.fromkeys(LADDER, _LADDER),
}
"""AI levels the fast path can play (any other level must go through the reference path)."""

_KIND_OF_PIECE: tuple[int, ...] = tuple(PIECE_KINDS[p % PIECES_PER_SET] for p in range(32 * 8))

_TAKE_OR_DRAW, _DRAW_PHASE, _DISCARD = 0, 1, 2


def play_fast(rules: RuleSet, deal: Deal, levels: Sequence[str], rng: random.Random) -> GameRecord:
    """Play one game with one AI level per seat; same result as ``play_reference``."""
    players = rules.players
    if len(levels) != players:
        raise RulesError(f"{len(levels)} levels given for a {players}-player rule set")
    try:
        codes = [FAST_LEVELS[level] for level in levels]
    except KeyError as err:
        raise ValueError(f"the fast path cannot play AI level {err.args[0]!r}") from None
    if len(deal.order) != rules.tile_count or not 0 <= deal.first_seat < players:
        raise RulesError("the deal does not fit this rule set")
    ev = evaluator_for(rules)
    hand_size = rules.hand_size
    kinds = [_KIND_OF_PIECE[p] for p in deal.order]
    first = deal.first_seat
    hands = [0] * players
    pos = 0
    for offset in range(players):
        size = hand_size if offset == 0 else hand_size - 1
        key = 0
        for k in kinds[pos : pos + size]:
            key += UNIT[k]
        hands[(first + offset) % players] = key
        pos += size
    wall = kinds[pos:]
    wall_len = len(wall)
    wall_pos = 0

    any_offer = rules.offer is Offer.ANY
    exclude_own = rules.exclude_own_discards
    draw_after_take = rules.draw_after_take
    stall_guard = rules.stall_guard
    max_turns = rules.max_turns
    total = total_counts(rules)
    # The ladder's levels are experts too: they read the same knowledge.
    experts = _EXPERT in codes or _LADDER in codes

    # The pool. Under ANY every discard is live: per kind, the seats that discarded its copies,
    # oldest first (a take removes the latest copy it may take). Under LAST only the most recent
    # discard is live, until it is taken or another follows.
    stacks: list[list[int]] = [[] for _ in range(KIND_COUNT)]
    pool = 0  # packed counts of the live discards under ANY
    pool_size = 0
    own = [0] * players  # exclude_own_discards: each seat's own live discards
    last_kind = -1  # LAST: the live discard, -1 if none

    # What everybody has seen (see bot.games.collecting.ai.knowledge).
    faceup = 0
    public = 0
    known = [0] * players
    discarded = [0] * players
    passed = [0] * players
    recent = [0] * players

    current = first
    turn = 1
    turns_without_draw = 0  # consecutive turns that took a discard and drew nothing
    drew = False
    took = False
    then_draw = rules.first_turn_extra_draw
    just_taken = -1
    last_in = "dealt"
    phase = _DISCARD
    takes = 0
    take_pool_total = 0

    while True:
        seat = current
        code = codes[seat]
        if phase == _TAKE_OR_DRAW:
            if any_offer:
                takeable = pool - own[seat] if exclude_own else pool
            else:
                takeable = UNIT[last_kind] if last_kind >= 0 else 0
            can_draw = wall_pos < wall_len
            if takeable and (not can_draw or (stall_guard and turns_without_draw >= players)):
                takeable = _winning_takes(ev, hands[seat], takeable)
            if code == _GREEDY:
                hand = hands[seat]
                choice = greedy_take(
                    ev, hand, total - hand - public + known[seat], takeable, can_draw
                )
            elif code == _RANDOM:
                options = [
                    k for k in range(KIND_COUNT) if (takeable >> (FIELD_BITS * k)) & FIELD_MASK
                ]
                index = rng.randrange(len(options) + can_draw)
                choice = options[index] if index < len(options) else DRAW
            else:
                seen = Seen(
                    rules, seat, hands[seat], takeable, can_draw, -1, wall_len - wall_pos,
                    total, faceup, public, known, discarded, passed, recent,
                    _hand_sizes(hands, players), seat,
                )  # fmt: skip
                if code == _LADDER:
                    choice = ladder_take(seen, rng, levels[seat])
                else:
                    choice = expert_take(seen)
            recent[seat] = 0  # the turn's first move: its discards start afresh
            if choice == DRAW:
                if experts:
                    passed[seat] = pool if any_offer else (UNIT[last_kind] if last_kind >= 0 else 0)
                tile = wall[wall_pos]
                wall_pos += 1
                hands[seat] += UNIT[tile]
                drew = True
                then_draw = False
                just_taken = -1
                last_in = "draw"
            else:
                tile = choice
                takes += 1
                if any_offer:
                    take_pool_total += pool_size
                    stack = stacks[tile]
                    if exclude_own:
                        at = len(stack) - 1
                        while stack[at] == seat:
                            at -= 1
                        owner = stack.pop(at)
                        own[owner] -= UNIT[tile]
                    else:
                        stack.pop()
                    pool -= UNIT[tile]
                    pool_size -= 1
                else:
                    take_pool_total += 1
                    last_kind = -1
                faceup -= UNIT[tile]
                known[seat] += UNIT[tile]
                passed[seat] = 0
                hands[seat] += UNIT[tile]
                just_taken = tile
                then_draw = draw_after_take
                took = True
                last_in = "take"
        elif phase == _DRAW_PHASE:
            if code == _RANDOM:
                rng.randrange(1)  # RandomPlayer picks from the one legal action all the same
            tile = wall[wall_pos]
            wall_pos += 1
            hands[seat] += UNIT[tile]
            drew = True
            then_draw = False
            just_taken = -1
            last_in = "draw"

        # The discard phase: declare, or discard one tile.
        hand = hands[seat]
        if code == _GREEDY:
            choice = greedy_discard(ev, hand, total - hand - public + known[seat], just_taken)
        elif code == _RANDOM:
            if ev.table(hand)[0]:
                choice = DECLARE
            else:
                options = [
                    k
                    for k in range(KIND_COUNT)
                    if (hand >> (FIELD_BITS * k)) & FIELD_MASK and k != just_taken
                ]
                choice = options[rng.randrange(len(options))]
        elif code == _EXPERT and ev.table(hand)[0]:
            choice = DECLARE  # as ExpertPlayer.choose: a win is declared before anything else
        else:
            seen = Seen(
                rules, seat, hand, 0, False, just_taken, wall_len - wall_pos,
                total, faceup, public, known, discarded, passed, recent,
                _hand_sizes(hands, players), seat,
            )  # fmt: skip
            if code == _LADDER:
                choice = ladder_discard(seen, rng, levels[seat])  # it may miss a win
            else:
                choice = expert_discard(seen)
        if choice == DECLARE:
            return GameRecord(first, seat, "declared", last_in, turn, takes, take_pool_total)
        tile = choice
        hands[seat] = hand - UNIT[tile]
        if any_offer:
            stacks[tile].append(seat)
            pool += UNIT[tile]
            pool_size += 1
            if exclude_own:
                own[seat] += UNIT[tile]
        else:
            last_kind = tile
        faceup += UNIT[tile]
        discarded[seat] += UNIT[tile]
        recent[seat] += UNIT[tile]
        if (known[seat] >> (FIELD_BITS * tile)) & FIELD_MASK:
            known[seat] -= UNIT[tile]
        else:
            public += UNIT[tile]
        just_taken = -1
        if then_draw:
            then_draw = False
            if wall_pos == wall_len:
                return GameRecord(first, None, "wall", None, turn, takes, take_pool_total)
            phase = _DRAW_PHASE
            continue
        # The next turn.
        current = (seat + 1) % players
        turn += 1
        if drew:
            turns_without_draw = 0
        elif took:
            turns_without_draw += 1
        drew = False
        took = False
        phase = _TAKE_OR_DRAW
        if turn > max_turns:
            return GameRecord(first, None, "cap", None, turn - 1, takes, take_pool_total)
        if wall_pos == wall_len:
            # An empty wall: the game is drawn unless a take wins (RULES.md §2.4).
            if any_offer:
                offered = pool - own[current] if exclude_own else pool
            else:
                offered = UNIT[last_kind] if last_kind >= 0 else 0
            if not offered or not _winning_takes(ev, hands[current], offered):
                return GameRecord(first, None, "wall", None, turn, takes, take_pool_total)


def _winning_takes(ev: HandEvaluator, hand: int, offered: int) -> int:
    """The packed discards of ``offered`` whose kind completes ``hand`` (H-1 tiles) to a win."""
    if ev.info(hand)[0] != 1:
        return 0  # one tile more completes a hand only when exactly one is missing
    out = 0
    for k in range(KIND_COUNT):
        count = (offered >> (FIELD_BITS * k)) & FIELD_MASK
        if count and ev.table(hand + UNIT[k])[0]:
            out += count * UNIT[k]
    return out


def _hand_sizes(hands: Sequence[int], players: int) -> tuple[int, ...]:
    # Only the sizes leave this module for a player's decision, never the hands themselves.
    return tuple(sum(key.to_bytes(KEY_BYTES, "little")) for key in hands)
