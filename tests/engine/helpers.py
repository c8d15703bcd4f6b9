"""Helpers shared by the engine tests: exact deals in notation, scripted play, and an
independent brute-force win check written from RULES.md §2.1 (not from
bot.games.collecting.engine.hands)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from itertools import product

from bot.engine import RuleSet, Tile, apply, deal_from_tiles, new_game, parse_action, parse_tiles
from bot.engine.rules import FourTwo
from bot.games.collecting.engine.actions import Action
from bot.games.collecting.engine.hands import Witness
from bot.games.collecting.engine.machine import Event, GameState

FOUR_TWO = Tile(4, 2)
TWO_ONE = Tile(2, 1)


def tiles(text: str) -> list[Tile]:
    """Tiles written in notation, e.g. ``tiles("6-6 6-6 3-1")``."""
    return parse_tiles(text)


def start(
    rules: RuleSet,
    hands: Sequence[str],
    wall: str = "",
    first_seat: int = 0,
) -> GameState:
    """A new game on an exact deal: ``hands[s]`` is seat s's hand in notation, ``wall`` the
    first tiles to be drawn, in order."""
    deal = deal_from_tiles(
        rules,
        hands=[parse_tiles(h) for h in hands],
        wall=parse_tiles(wall),
        first_seat=first_seat,
    )
    seats = [f"P{i}" for i in range(rules.players)]
    state: GameState = new_game(rules, seats, deal)
    return state


def play(state: GameState, *moves: str | Action) -> tuple[GameState, list[Event]]:
    """Apply moves written in notation (``"discard 6-5"``, ``"draw"``, ``"take 3-1"``) in order;
    returns the final state and every event."""
    events: list[Event] = []
    for move in moves:
        action = parse_action(move) if isinstance(move, str) else move
        state, new = apply(state, action)
        events += new
    return state, events


# ---------------------------------------------------------------------------------------------
# An independent win check: brute force over eyes, value choices and perfect matchings.


def values_of(tile: Tile, four_two: FourTwo) -> tuple[int, ...]:
    """RULES.md §2.1: pips, except 4-2 counts 3 (default), 6 (``6``), and under ``wild`` both
    4-2 and 2-1 count 3 or 6."""
    if four_two is FourTwo.WILD and tile in (FOUR_TWO, TWO_ONE):
        return (3, 6)
    if tile == FOUR_TWO:
        return (3,) if four_two is FourTwo.THREE else (6,)
    return (tile.high + tile.low,)


@lru_cache(maxsize=1 << 16)
def _perfect_matching(values: tuple[int, ...]) -> bool:
    """Whether the values (sorted) split into pairs totalling 10 or 20: try every partner of the
    first value, recursively."""
    if not values:
        return True
    first, rest = values[0], values[1:]
    for i, other in enumerate(rest):
        if first + other in (10, 20) and _perfect_matching(rest[:i] + rest[i + 1 :]):
            return True
    return False


def brute_force_wins(
    hand: Sequence[Tile], hand_size: int, four_two: FourTwo, military_eyes: bool
) -> bool:
    """Whether ``hand`` is one eye plus ten-pairs, by trying every eye, every choice of values
    and every matching of the rest."""
    hand = list(hand)
    if len(hand) != hand_size:
        return False
    tried: set[Tile] = set()
    for i in range(len(hand)):
        for j in range(i + 1, len(hand)):
            a, b = hand[i], hand[j]
            if a != b or a in tried or not (a.civil or military_eyes):
                continue
            tried.add(a)  # another copy of the same kind leaves the same rest
            rest = hand[:i] + hand[i + 1 : j] + hand[j + 1 :]
            for choice in product(*(values_of(t, four_two) for t in rest)):
                if _perfect_matching(tuple(sorted(choice))):
                    return True
    return False


def brute_force_rules_wins(hand: Sequence[Tile], rules: RuleSet) -> bool:
    """:func:`brute_force_wins` with the settings of a rule set (military eyes need several sets
    and no ``civil_eyes_only``)."""
    military = rules.sets > 1 and not rules.civil_eyes_only
    return brute_force_wins(hand, rules.hand_size, rules.four_two_value, military)


def is_ten_pair_by_values(a: Tile, b: Tile, four_two: FourTwo) -> bool:
    """Whether two tiles can total 10 or 20 for some allowed choice of values."""
    return any(x + y in (10, 20) for x in values_of(a, four_two) for y in values_of(b, four_two))


def witness_problems(
    witness: object, hand: Sequence[Tile], four_two: FourTwo, military_eyes: bool
) -> list[str]:
    """Everything wrong with a witness arrangement for ``hand`` (empty list if it is valid)."""
    problems: list[str] = []
    if not isinstance(witness, Witness):
        return [f"not a witness: {witness!r}"]
    eye_a, eye_b = witness.eye
    if eye_a != eye_b:
        problems.append(f"eye {eye_a} {eye_b} is not two identical tiles")
    if not (eye_a.civil or military_eyes):
        problems.append(f"military eye {eye_a} is not allowed here")
    if len(witness.pairs) != (len(hand) - 2) // 2:
        problems.append(f"{len(witness.pairs)} pairs for a hand of {len(hand)}")
    for a, b in witness.pairs:
        if not is_ten_pair_by_values(a, b, four_two):
            problems.append(f"{a} {b} does not total 10 or 20")
    used = Counter([eye_a, eye_b, *(t for pair in witness.pairs for t in pair)])
    if used != Counter(hand):
        problems.append(f"witness tiles {sorted(map(str, used.elements()))} are not the hand")
    return problems
