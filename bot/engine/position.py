"""Positions a person can type: what one seat sees at its turn, in a few short lines.

``kapshap analyse --position TEXT`` (``docs/record-format.md``, "Positions") reads a position,
builds an engine state from it and estimates each legal action's chance to win. A position says
only what the seat to play can see; the pieces it cannot see are placed where the game hides
them in a fixed order, and every estimate deals them again at random with
:func:`bot.engine.hidden.determinize`, so where they were first put never matters.

Fields are ``key value`` (or ``key: value``), one per line or separated by ``;``; ``#`` starts
a comment line; the first field may be the game's name alone. For example::

    kap-shap; hand 6-6 6-6 1-1 4-4 3-3 6-5 6-3; discards 5-2 2-2 6-4; known 1: 5-2

This module reads the fields and the game; the game's family reads the rest
(:meth:`bot.engine.family.Records.parse_position`) and writes a state back
(:func:`write_position`; a test reads it back and checks the seat sees the same position).
"""

from __future__ import annotations

import re
from typing import Any

from bot.engine.errors import EngineError
from bot.engine.family import State, engine_of
from bot.games import UnknownGame, games

__all__ = ["PositionError", "parse_position", "write_position"]


class PositionError(EngineError, ValueError):
    """A position that does not parse or cannot happen; the message names what is wrong."""


def _split(text: str) -> dict[str, list[str]]:
    """Every field's values, in the order given."""
    fields: dict[str, list[str]] = {}
    for raw in re.split(r"[\n;]", text):
        part = raw.strip()
        if not part or part.startswith("#"):
            continue
        match = re.match(r"([A-Za-z_-]+)\s*:?\s*(.*)$", part)
        if match is None:
            raise PositionError(f"Cannot read '{part[:40]}': write a field as 'key value'")
        key, value = match[1].lower(), match[2].strip()
        if not value and not fields:
            # A first field of one word is the game: "kap-shap; hand ...".
            key, value = "game", key
        fields.setdefault(key, []).append(value)
    return fields


def _game_names() -> str:
    """``kap-shap, kap-tai-shap or tsung-shap``: every game registered."""
    names = [game.name for game in games()]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def parse_position(text: str) -> tuple[Any, int]:
    """The state a position describes and the seat to play (see the module's docstring).

    Raises :class:`PositionError` naming the field at fault.
    """
    fields = _split(text)
    named = fields.pop("game", None)
    if named is None:
        raise PositionError(f"The position needs its game: {_game_names()}")
    if len(named) > 1:
        raise PositionError("'game' is given twice")
    name = named[0]
    try:
        engine = engine_of(name)
    except UnknownGame:
        raise PositionError(f"Unknown game '{name[:20]}': write {_game_names()}") from None
    state, seat = engine.parse_position(name, fields)
    return state, seat


def write_position(state: State) -> str:
    """What the seat to play sees of ``state``, in position notation (one field a line).

    Raises :class:`PositionError` for what the notation cannot say: a game that is over, and
    whatever the game's notation cannot write (a compulsory draw after a discard, missed Tsung
    Shap captures waiting to be claimed).
    """
    if state.result is not None:
        raise PositionError("The game is over")
    text: str = engine_of(state.rules.game).write_position(state)
    return text
