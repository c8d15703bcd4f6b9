"""The registry of games: a game's name -> what it is (:class:`GameInfo`) and which family plays
it (:class:`FamilyInfo`, the modules that give each layer its part of the game).

Standard library only, so every layer may import it (docs/architecture.md, "Games: one place per
game"). ``import bot.games`` registers the built-in families; a test registers its own family for
the length of a ``with registered(FAMILY):`` block. Nothing here imports a family's code: a
family's part for a layer (its *facet*) is imported by :func:`load` on first use, and only the
accessor of that layer calls it (``bot.engine.family.engine_of`` and its siblings).

Words (titles, choices) are English message ids, marked with :func:`N_` for the catalogue and
translated where they are shown; a layer that may not import :mod:`bot.locale` holds them as
plain strings.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from types import MappingProxyType

__all__ = [
    "EVENT_FORMATS",
    "OPTIONAL_ROLES",
    "RESERVED_NAMES",
    "ROLES",
    "FamilyInfo",
    "GameInfo",
    "UnknownGame",
    "default_game",
    "family_of",
    "find",
    "games",
    "load",
    "register",
    "registered",
    "seal_built_ins",
    "unregister",
]

ROLES = ("engine", "ai", "render", "sim", "terminal", "lessons")
"""The layers a family gives a part to, each the name of the layer it belongs to."""

OPTIONAL_ROLES = frozenset({"sim", "terminal", "lessons"})
"""Roles a family may leave out: the simulator and the terminal client then play it through
their generic code (or refuse it, until they have that code); a family without ``lessons``
has none in ``/learn``."""

EVENT_FORMATS = ("swiss", "table-rounds")
"""How a game's events are played: Swiss and brackets (two players), or rounds of tables."""

RESERVED_NAMES = frozenset({"all"})
"""Names no game may take: ``all`` is every game at once in the ratings."""

_NAME = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
_MODULE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")


def N_(msgid: str) -> str:
    """Mark ``msgid`` for the catalogue without translating it (layers that may not import
    :mod:`bot.locale` mark their words with this one)."""
    return msgid


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What every layer may know of a game without asking its family."""

    name: str
    """The key stored everywhere (``games.game``, rule flags, records, ratings, options):
    lower-case words joined by hyphens, e.g. ``kap-shap``. Never changes once games are
    stored."""
    family: str
    """The name of the :class:`FamilyInfo` that plays it."""
    title: str
    """Message id of the full title (embeds, the terminal, help): ``Kap Shap 夾十``."""
    short: str
    """Message id of the short name (statistics, events, the simulator's report)."""
    table_choice: str
    """Message id of its choice in ``/table new game:`` (``Kap Shap (2 players)``)."""
    event_choice: str | None
    """Message id of its choice in ``/tournament create game:``; None: no events."""
    players: tuple[int, int]
    """The fewest and the most seats of a table."""
    default_seats: int
    """Seats of a table whose host gives no number."""
    aliases: tuple[str, ...] = ()
    """Other names a player may type for it at the terminal's set-up (``ks``, ``夾十``)."""
    scored: bool = False
    """Whether a game ends with points per seat: ranked by score, matches decided by points,
    averages in ``/stats``."""
    event_format: str = "swiss"
    """One of :data:`EVENT_FORMATS`."""


@dataclass(frozen=True, slots=True)
class FamilyInfo:
    """A family of games played by the same code: its games and, per role, the module whose
    ``FACET`` gives that layer its part (the Protocol of ``bot/<role>/family.py``)."""

    name: str
    games: tuple[GameInfo, ...]
    roles: Mapping[str, str]
    """Role (one of :data:`ROLES`) -> dotted module name; the module defines ``FACET``."""

    def __post_init__(self) -> None:
        # A read-only copy: the registry hands this object out.
        object.__setattr__(self, "roles", MappingProxyType(dict(self.roles)))


class UnknownGame(ValueError):
    """A name no family registered; the message names the games there are."""

    def __init__(self, name: str) -> None:
        self.name = name
        known = ", ".join(game.name for game in _games.values())
        super().__init__(f"unknown game '{name}': choose one of {known}")


_families: dict[str, FamilyInfo] = {}
_games: dict[str, GameInfo] = {}  # in registration order
_facets: dict[tuple[str, str], object | None] = {}  # (family, role) -> its FACET
_built_in: set[str] = set()


def _problems(family: FamilyInfo) -> list[str]:
    """Why ``family`` cannot be registered next to those registered (empty: it can)."""
    out: list[str] = []
    if not _NAME.fullmatch(family.name):
        out.append(f"the family name '{family.name}' is not lower-case words joined by hyphens")
    if family.name in _families:
        out.append(f"a family named '{family.name}' is registered already")
    if not family.games:
        out.append(f"the family '{family.name}' has no game")
    missing = [role for role in ROLES if role not in OPTIONAL_ROLES and role not in family.roles]
    if missing:
        out.append(f"the family '{family.name}' gives no module for {', '.join(missing)}")
    for role, module in family.roles.items():
        if role not in ROLES:
            out.append(f"'{role}' is not a role (the roles are {', '.join(ROLES)})")
        if not _MODULE.fullmatch(module):
            out.append(f"'{module}' is not a module name (role {role})")
    taken = {alias for game in _games.values() for alias in (game.name, *game.aliases)}
    for game in family.games:
        out += _game_problems(game, family.name)
        for name in (game.name, *game.aliases):
            if name in taken:
                out.append(f"the name '{name}' is taken by another game")
            taken.add(name)
    return out


def _game_problems(game: GameInfo, family: str) -> list[str]:
    out: list[str] = []
    if not _NAME.fullmatch(game.name):
        out.append(f"the game name '{game.name}' is not lower-case words joined by hyphens")
    if game.name in RESERVED_NAMES:
        out.append(f"'{game.name}' is a reserved name")
    if game.family != family:
        out.append(f"the game '{game.name}' names the family '{game.family}', not '{family}'")
    low, high = game.players
    if not 2 <= low <= high:
        out.append(f"the game '{game.name}' seats {low} to {high} players")
    elif not low <= game.default_seats <= high:
        out.append(f"the game '{game.name}' seats {game.default_seats} by default")
    if game.event_format not in EVENT_FORMATS:
        out.append(f"the game '{game.name}' has the event format '{game.event_format}'")
    return out


def register(family: FamilyInfo) -> None:
    """Add a family and its games; ValueError, registering nothing, for a taken or malformed
    name, a game of another family or a missing role."""
    problems = _problems(family)
    if problems:
        raise ValueError("; ".join(problems))
    _families[family.name] = family
    for game in family.games:
        _games[game.name] = game


def unregister(family: str) -> None:
    """Remove a family registered at run time (a test's); ValueError for an unknown or a
    built-in family."""
    if family in _built_in:
        raise ValueError(f"the built-in family '{family}' stays registered")
    if family not in _families:
        raise ValueError(f"no family named '{family}' is registered")
    for game in _families.pop(family).games:
        del _games[game.name]
    for key in [key for key in _facets if key[0] == family]:
        del _facets[key]


@contextmanager
def registered(family: FamilyInfo) -> Iterator[FamilyInfo]:
    """:func:`register` for the duration of a ``with`` block (tests)."""
    register(family)
    try:
        yield family
    finally:
        unregister(family.name)


def seal_built_ins() -> None:
    """Mark every family registered so far as built in (:mod:`bot.games` calls it once)."""
    _built_in.update(_families)


def find(game: str) -> GameInfo:
    """The game of a name (exactly as stored, e.g. ``kap-shap``), or :class:`UnknownGame`."""
    try:
        return _games[game]
    except (KeyError, TypeError):
        raise UnknownGame(str(game)) from None


def family_of(game: str) -> FamilyInfo:
    """The family that plays a game (:class:`UnknownGame` for a name none registered)."""
    return _families[find(game).family]


def games() -> tuple[GameInfo, ...]:
    """Every game, the built-in ones first, in the order they were registered."""
    return tuple(_games.values())


def default_game() -> str:
    """The first game registered (``kap-shap``): the default of every "game" option."""
    return next(iter(_games))


def load(game: str, role: str) -> object | None:
    """The ``FACET`` of the game's family for a role, imported on first use and kept; None
    when the family leaves that (optional) role out. Only the accessor of the layer named
    ``role`` calls this (``bot/<role>/family.py``; tests/test_dependencies.py checks it)."""
    if role not in ROLES:
        raise ValueError(f"'{role}' is not a role (the roles are {', '.join(ROLES)})")
    family = family_of(game)
    key = (family.name, role)
    if key not in _facets:
        module = family.roles.get(role)
        facet = None if module is None else importlib.import_module(module).FACET
        _facets[key] = facet
    return _facets[key]
