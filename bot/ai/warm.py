"""The compiled kernel, compiled before anyone waits for it.

On a fresh machine (numba's disk cache empty) the kernel compiles on first use: the master
level's first decision costs about 20 s of CPU, ``kapshap sim``'s first run about 13 s. So:

* the bot starts ``python -m bot.ai.warm`` in the background once it is connected (a process
  of its own, at a lower priority: the event loop never waits for it), which fills the disk
  cache for both masters and for the play-outs of reviews and analyses (Tsung Shap's are
  functions of their own); the bot's first master decision or review then loads it in a
  fraction of a second. The container image runs the same command when it is built
  (``Dockerfile``), so a container compiles nothing;
* ``kapshap play`` against a master and ``kapshap sim`` compile up front, and say so (in the
  command's language) only when a compile really happens: :func:`announcing` listens to
  numba's own compile events, which a load from the disk cache never fires.

``KAPSHAP_WARM_KERNEL=0`` switches the bot's background compile off (the test suite does, to
stay fast); ``KAPSHAP_KERNEL=0`` switches the kernel itself off. Nothing here imports numba
until it is used, so the bot may ask :func:`background_wanted` for free.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import random
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from bot.ai.family import ai_of
from bot.engine import apply, legal_actions, make_deal, make_rules, new_game, view
from bot.games import games

__all__ = [
    "MASTER_GAMES",
    "WARM_DECISIONS",
    "announcing",
    "background_command",
    "background_wanted",
    "main",
    "warm_master",
    "warm_reviews",
]


def _first_of_each_family() -> tuple[str, ...]:
    first: dict[str, str] = {}
    for info in games():
        first.setdefault(info.family, info.name)
    return tuple(first.values())


MASTER_GAMES = _first_of_each_family()
"""The games whose masters' compiled code is warmed: the first game of each family registered
when this module was imported (a family's games run the same compiled functions: Kap Tai
Shap's master runs Kap Shap's). Read from the registry, so that asking costs no import of a
player or of numba."""

WARM_DECISIONS = 12
"""Master decisions played to warm a game's kernel: enough for every phase of a game."""

_WARM_BUDGET = 16
"""Play-outs per warming decision: any number compiles the same functions."""

_WARM_ROLLOUTS = 2
"""Play-outs per action of the warming estimate (reviews): any number compiles the same."""


def _kernel_runs() -> bool:
    """Whether the compiled kernel would run here, without importing numba to find out."""
    return (
        os.environ.get("KAPSHAP_KERNEL", "1") != "0"
        and importlib.util.find_spec("numba") is not None
    )


def background_wanted() -> bool:
    """Whether the bot should compile the kernel in the background at start-up."""
    return os.environ.get("KAPSHAP_WARM_KERNEL", "1") != "0" and _kernel_runs()


def background_command() -> list[str]:
    """The command of the bot's background compile (its own interpreter, this module)."""
    return [sys.executable, "-m", "bot.ai.warm", "--background"]


@contextlib.contextmanager
def announcing(announce: Callable[[], None]) -> Iterator[None]:
    """Call ``announce`` once, as soon as numba starts compiling inside the block (its disk
    cache is cold); never when everything loads from the cache, nor without the kernel."""
    if not _kernel_runs():
        yield
        return
    from numba.core import event

    class _FirstCompile(event.Listener):
        def __init__(self) -> None:
            self.told = False

        def on_start(self, _event: Any) -> None:
            if not self.told:
                self.told = True
                announce()

        def on_end(self, _event: Any) -> None:
            pass

    with event.install_listener("numba:compile", _FirstCompile()):
        yield


def warm_master(game: str) -> None:
    """Compile (or load from the disk cache) everything the ``game``'s master runs: masters
    in every seat play :data:`WARM_DECISIONS` decisions of a fixed deal, with a small budget
    (the family's :meth:`~bot.ai.family.GameAI.warm_player`). Nothing without the kernel (the
    master then plays uncompiled, with nothing to warm), nor for a game that runs nothing
    compiled."""
    if not _kernel_runs():
        return
    master = ai_of(game).warm_player(game, _WARM_BUDGET)
    if master is None:
        return
    rules = make_rules(game)
    rng = random.Random(0)
    names = [f"seat {seat}" for seat in range(rules.players)]
    state: Any = new_game(rules, names, make_deal(rules, rng))
    for _ in range(WARM_DECISIONS):
        if state.result is not None:
            break
        action = master.choose(view(state, state.current), legal_actions(state), rng)
        state, _ = apply(state, action)


def warm_reviews(game: str) -> None:
    """Compile (or load from the disk cache) the play-outs that reviews and ``kapshap
    analyse`` run for ``game``: the family's estimator (:meth:`~bot.ai.family.GameAI.estimator`)
    judges every legal action of the first decisions of a fixed deal, a couple of play-outs
    each. Nothing without the kernel (the estimator then plays through the engine)."""
    if not _kernel_runs():
        return
    estimate = ai_of(game).estimator(game)
    rules = make_rules(game)
    rng = random.Random(0)
    names = [f"seat {seat}" for seat in range(rules.players)]
    state: Any = new_game(rules, names, make_deal(rules, rng))
    for _ in range(rules.players + 1):  # every seat, a decision after a draw or a turn too
        if state.result is not None:
            break
        legal = legal_actions(state)
        estimate(state, state.current, legal, _WARM_ROLLOUTS, rng)
        state, _ = apply(state, legal[0])


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bot.ai.warm [--background]``: warm both masters' kernels and the reviews'
    play-outs, then exit.
    ``--background`` (the bot's): at a low priority and deaf to Ctrl+C."""
    args = list(sys.argv[1:] if argv is None else argv)
    if "--background" in args:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        with contextlib.suppress(AttributeError, OSError):  # os.nice: POSIX only
            os.nice(10)
    for game in MASTER_GAMES:
        warm_master(game)
        warm_reviews(game)
    return 0


if __name__ == "__main__":
    sys.exit(main())
