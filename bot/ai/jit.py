"""The switches of the compiled kernels: whether numba and numpy are here, the ``jit``
decorator, and the random numbers both kernels draw (splitmix64).

Both kernels (:mod:`bot.games.collecting.ai.kernel` for the collecting games,
:mod:`bot.games.fishing.ai.kernel` for
Tsung Shap) and the simulator's batches (:mod:`bot.games.collecting.sim.kernel`) compile through
:func:`jit`,
so one place decides whether anything compiles: without numba the functions stay plain Python
(the master levels may still run them when numpy is here), and ``KAPSHAP_KERNEL=0`` in the
environment switches the compiled path off (:func:`available`).

Importing this module imports numba and numpy when they are installed (:mod:`bot.ai.warm`
finds out whether the kernel would run without that import).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar, cast

__all__ = ["available", "below", "jit", "numpy_here", "splitmix_next"]

try:  # pragma: no cover - exercised by whichever environment runs the tests
    import numpy as np

    _NUMPY = True
except ImportError:  # pragma: no cover
    _NUMPY = False
try:  # pragma: no cover
    import numba

    _NUMBA = _NUMPY
except ImportError:  # pragma: no cover
    _NUMBA = False

_F = TypeVar("_F", bound=Callable[..., Any])


def jit(fn: _F) -> _F:
    """Compile ``fn`` with numba (cached on disk next to its module), or leave it as it is."""
    # Without numba the functions stay plain Python (the master level may still run them).
    if not _NUMBA:  # pragma: no cover
        return fn
    return cast(_F, numba.njit(cache=True, nogil=True)(fn))


def available() -> bool:
    """Whether the compiled kernel can run here (numba importable and not switched off)."""
    return _NUMBA and os.environ.get("KAPSHAP_KERNEL", "1") != "0"


def numpy_here() -> bool:
    """Whether the kernel's functions can run at all, compiled or not (numpy importable)."""
    return _NUMPY


# -- random numbers (bot.games.dominoes.sim.seeding's generator)
# ----------------------------------------------


@jit
def splitmix_next(state: Any) -> Any:
    """The next number of the splitmix64 stream whose state is ``state[0]`` (a uint64 array)."""
    # splitmix64 (bot.games.dominoes.sim.seeding.SplitMix64 is the same generator in Python).
    state[0] += np.uint64(0x9E3779B97F4A7C15)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@jit
def below(state: Any, bound: int) -> int:
    """A number in ``range(bound)`` from the stream (the high 32 bits, scaled)."""
    r = splitmix_next(state) >> np.uint64(32)
    return int(np.int64((r * np.uint64(bound)) >> np.uint64(32)))
