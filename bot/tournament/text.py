"""How the package's texts (the rules, pairings, standings, results) reach other languages.

This package may not import the catalogue (bot.locale: Babel; tests/test_dependencies.py), so its
texts are English message ids marked with :func:`N_` (the catalogue test finds them) and worded
through a :data:`Say` the caller passes: :func:`english` by default, a catalogue lookup for a
server or member in Chinese (``functools.partial(bot.locale.t, locale)``).
"""

from __future__ import annotations

from typing import Any, Protocol

__all__ = ["N_", "Say", "english", "ordinal"]


class Say(Protocol):
    """``say("Round {number}", number=2)``: a message id (English) in some language, filled."""

    def __call__(self, msgid: str, /, **values: Any) -> str:
        """The message in the caller's language."""


def english(msgid: str, /, **values: Any) -> str:
    """The English text: the message id itself, filled."""
    return msgid.format(**values) if values else msgid


def N_(msgid: str) -> str:
    """Mark ``msgid`` as a message (for the catalogue), worded later by a :data:`Say`."""
    return msgid


def ordinal(n: int, say: Say = english) -> str:
    """A place: ``1st``, ``22nd``, ``13th`` (第 1 名 in Chinese)."""
    if 10 <= n % 100 <= 20:
        return say(N_("{n}th"), n=n)
    if n % 10 == 1:
        return say(N_("{n}st"), n=n)
    if n % 10 == 2:
        return say(N_("{n}nd"), n=n)
    if n % 10 == 3:
        return say(N_("{n}rd"), n=n)
    return say(N_("{n}th"), n=n)
