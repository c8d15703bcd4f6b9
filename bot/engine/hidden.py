"""Hidden information: states a seat cannot tell from the true one (determinization).

A review or an analysis must never use what the player could not see. :func:`determinize`
deals the pieces *unseen by one seat* at random into the places he cannot see, and keeps
everything else as it is. Where those places are is the game's business: its family's engine
facet lists the unseen pieces and refills their places (:class:`bot.engine.family.Hidden`; the
collecting games keep the tiles a seat is known to hold and deal the rest of the hands and the
wall again, Tsung Shap deals both face-down piles again).

The unseen pieces are listed in a fixed order (the domino games: by kind) before they are
shuffled, so two true states that look the same to the seat give the same determinized states
for the same random stream: the result depends on what the seat saw and on ``rng``, never on
the true arrangement (a test checks it). Uniform dealing respects every hard constraint
(counts, sizes, known pieces); it does not weigh the unseen pieces by what the opponents' past
choices suggest.

:func:`arrangements` lists every arrangement of the unseen pieces instead, each as likely as
the others under that uniform dealing, for exact answers on small end positions.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import TypeVar, cast

from bot.engine.errors import RulesError
from bot.engine.family import State, engine_of

__all__ = ["arrangement_count", "arrangements", "determinize", "unseen_pieces"]

S = TypeVar("S", bound=State)


def unseen_pieces(state: State, seat: int) -> list[int]:
    """The pieces ``seat`` has not seen, in the family's fixed order."""
    return engine_of(state.rules.game).unseen(state, seat)


def _check_seat(state: State, seat: int) -> None:
    if not 0 <= seat < state.rules.players:
        raise RulesError(f"seat {seat} is not at this table")


def determinize(state: S, seat: int, rng: random.Random) -> S:
    """A state ``seat`` cannot tell from ``state``: the pieces he has not seen dealt at random
    into the places he cannot see (see the module's docstring)."""
    _check_seat(state, seat)
    engine = engine_of(state.rules.game)
    order = engine.unseen(state, seat)
    rng.shuffle(order)
    return cast(S, engine.rebuild(state, seat, order))


def arrangement_count(state: State, seat: int) -> int:
    """How many states :func:`arrangements` yields."""
    _check_seat(state, seat)
    return engine_of(state.rules.game).arrangement_count(state, seat)


def arrangements(state: S, seat: int) -> Iterator[S]:
    """Every arrangement of the unseen pieces, equally likely under :func:`determinize`.

    Use only when :func:`arrangement_count` is small.
    """
    _check_seat(state, seat)
    yield from engine_of(state.rules.game).arrangements(state, seat)
