"""The computer levels as a member reads them: the ladder ``生手`` / ``新手`` / ``入門`` /
``熟手`` / ``好手`` / ``高手`` / ``大師`` for the codes ``novice`` / ``beginner`` /
``casual`` / ``club`` / ``strong`` / ``expert`` / ``master``, and the levels no longer
offered, ``隨機`` / ``普通`` for ``random`` / ``greedy``.

The codes are what the AI layer registers, the command options and ``--ai`` take and the
database stores; a member never reads them. Everything that shows a level to a member (a
seat's name, the Add AI select, ``/help``, a tournament's computer fillers, the terminal
client) names it with :func:`level_name`, so a level has one name per language. The AI layer
may not import the catalogue, so the names live here; a test keeps every registered level
named (tests/locale/test_levels.py).
"""

from __future__ import annotations

from bot.locale import N_, Message, t

__all__ = ["LEVEL_NAMES", "LevelName", "level_name"]

#: A level's name for players, in English (the message id): what each code is called.
LEVEL_NAMES: dict[str, str] = {
    "random": N_("Random"),
    "greedy": N_("Normal"),
    "novice": N_("Novice"),
    "beginner": N_("Beginner"),
    "casual": N_("Casual"),
    "club": N_("Club"),
    "strong": N_("Strong"),
    "expert": N_("Expert"),
    "master": N_("Master"),
}


def level_name(locale: str, level: str) -> str:
    """The name of the computer level ``level`` (a code: ``expert``) in ``locale``: ``Expert``,
    ``高手``. A code without a name (a level added without one) is shown as it is."""
    english = LEVEL_NAMES.get(level)
    return level if english is None else t(locale, english)


class LevelName(Message):
    """A level's name as a value of a :class:`~bot.locale.Message` or ``UserError``: the
    English name as a ``str``, said in the reader's language by :meth:`localized`."""

    level: str

    def __new__(cls, level: str) -> LevelName:
        """``LevelName("expert")``: ``"Expert"``, ``高手`` in zh-TW."""
        english = LEVEL_NAMES.get(level, level)
        text = str.__new__(cls, english)
        text.msgid = english
        text.values = {}
        text.level = level
        return text

    def localized(self, locale: str) -> str:
        """The level's name in ``locale``."""
        return level_name(locale, self.level)
