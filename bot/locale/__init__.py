"""Messages in English, Traditional Chinese (zh-TW) and Simplified Chinese (zh-CN).

The English text is the message id (gettext style): code writes English, wrapped in :func:`t`
(or :func:`nt` for a count), and the catalogues ``bot/locale/<lang>/LC_MESSAGES/messages.po`` hold
the translations. The ``.po`` files are read at run time with Babel's ``read_po`` (no compiled
``.mo`` files: a fresh ``pip install -e .`` works with no build step; docs/architecture.md,
"Languages"). Placeholders are ``str.format`` fields (``{name}``) and must be the same in every
language (tests/locale checks).

Standard library + Babel only, so every layer may use it except the engine, which stays English
and notation (tile Chinese names already live in the engine).
"""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

__all__ = [
    "DEFAULT",
    "LOCALES",
    "LOCALE_NAMES",
    "N_",
    "EventLine",
    "Message",
    "catalogue",
    "is_chinese",
    "lang_of_args",
    "normalize",
    "nt",
    "recognize",
    "t",
    "tile_name",
    "translate",
]

#: The supported locales, English first (the message ids are English).
LOCALES: tuple[str, ...] = ("en", "zh-TW", "zh-CN")
DEFAULT = "en"
#: Each locale's name in its own language (the language setting's choices).
LOCALE_NAMES: dict[str, str] = {"en": "English", "zh-TW": "繁體中文", "zh-CN": "简体中文"}

#: The message context of tile names (the English name -> the Chinese name in each script).
TILE_CONTEXT = "tile"

_DIR = Path(__file__).resolve().parent


def normalize(tag: object) -> str:
    """A supported locale for a Discord locale or language tag (``None`` or unknown -> English).

    ``zh-HK``/``zh-Hant`` read Traditional, any other Chinese reads Simplified; Discord itself only
    sends ``zh-TW`` and ``zh-CN``. Accepts a ``discord.Locale`` (its ``str`` is the tag).
    """
    if tag is None:
        return DEFAULT
    text = str(getattr(tag, "value", tag)).strip().replace("_", "-").lower()
    if text.startswith("zh"):
        if any(mark in text for mark in ("tw", "hk", "mo", "hant")):
            return "zh-TW"
        return "zh-CN"
    return DEFAULT


def is_chinese(locale: str) -> bool:
    """Whether ``locale`` is one of the Chinese locales."""
    return locale in ("zh-TW", "zh-CN")


@functools.cache
def catalogue(locale: str) -> Catalog | None:
    """The parsed catalogue of ``locale`` (None for English: the ids are the text)."""
    if locale == DEFAULT:
        return None
    path = _DIR / locale.replace("-", "_") / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as file:
        return read_po(file, locale=locale.replace("-", "_"))


def _lookup(locale: str, msgid: str, context: str | None = None) -> str | None:
    cat = catalogue(normalize(locale) if locale not in LOCALES else locale)
    if cat is None:
        return None
    message = cat.get(msgid, context=context)
    if message is None or message.fuzzy or not message.string:
        return None
    text = message.string
    if isinstance(text, tuple | list):  # a plural entry: Chinese has one form
        text = text[0] if text else ""
    return text if isinstance(text, str) and text else None


def translate(locale: str, msgid: str, context: str | None = None) -> str | None:
    """The catalogue's text for ``msgid`` in ``locale``, or None when it has none (English)."""
    return _lookup(locale, msgid, context)


def _format(text: str, values: dict[str, Any]) -> str:
    return text.format(**values) if values else text


def t(locale: str, msgid: str, /, *, context: str | None = None, **values: Any) -> str:
    """``msgid`` (English) in ``locale``, with ``{placeholders}`` filled from ``values``.

    A message missing from a catalogue falls back to English (a test makes sure none is).
    Without ``values`` the text is returned as is (literal braces need no doubling).
    """
    text = _lookup(locale, msgid, context) or msgid
    return _format(text, values)


def nt(locale: str, singular: str, plural: str, n: int, /, **values: Any) -> str:
    """A message that depends on a count ``n`` (``{n}`` is available as a placeholder)."""
    values.setdefault("n", n)
    if normalize(locale) != DEFAULT:
        cat = catalogue(normalize(locale))
        message = None if cat is None else cat.get(singular)
        if message is not None and not message.fuzzy:
            forms = message.string
            if isinstance(forms, tuple | list) and forms and forms[0]:
                # Chinese has one plural form.
                return _format(str(forms[0]), values)
            if isinstance(forms, str) and forms:
                return _format(forms, values)
    return _format(singular if n == 1 else plural, values)


class Message(str):
    """English text that can say itself in another language: a ``str`` (the English, so code
    that stores, compares or sends it is unchanged) carrying its message id and values.

    Services build the lines they hand to the Discord layer with it (a timeout, a fold, a
    payout); the layer shows ``localized(locale)`` to the members of a server in its language.
    Values that are themselves :class:`Message` (or :class:`EventLine`) are localized too.
    """

    msgid: str
    values: dict[str, Any]

    def __new__(cls, msgid: str, /, **values: Any) -> Message:
        """``Message("{name} ran out of time.", name="Ann")``."""
        text = super().__new__(cls, msgid.format(**values) if values else msgid)
        text.msgid = msgid
        text.values = values
        return text

    def localized(self, locale: str) -> str:
        """The text in ``locale``."""
        # Words of the bot's own among the values ("left", "pair") are in the ``term`` context.
        values = {
            k: v.localized(locale)
            if isinstance(v, Message)
            else t(locale, v, context="term")
            if isinstance(v, str)
            else v
            for k, v in self.values.items()
        }
        return t(locale, self.msgid, **values)


class EventLine(str):
    """An engine event's English line (the engine speaks English and notation), carrying the
    event and the seat names so a renderer can word it in another language (bot.render)."""

    event: object
    names: tuple[str, ...]

    def __new__(cls, text: str, event: object, names: Sequence[str]) -> EventLine:
        """``EventLine(describe_event(event, None, names), event, names)``."""
        line = super().__new__(cls, text)
        line.event = event
        line.names = tuple(names)
        return line


def lang_of_args(argv: Sequence[str]) -> str:
    """The ``--lang`` of a command line before it is parsed (argparse's own errors come first,
    and a program must know the language to word them): English when absent or unsupported."""
    lang = DEFAULT
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            lang = argv[i + 1]
        elif arg.startswith("--lang="):
            lang = arg.partition("=")[2]
    return lang if lang in LOCALES else DEFAULT


def recognize(text: str, templates: Sequence[str]) -> Message | None:
    """The :class:`Message` whose English is ``text``, if one of ``templates`` (message ids
    with ``{fields}``) words it: how an English text from a layer that speaks only English (the
    engine's refusals) is told in another language. None when no template fits."""
    for template in templates:
        pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>.+?)", re.escape(template))
        match = re.fullmatch(pattern, text, re.DOTALL)
        if match is not None:
            return Message(template, **match.groupdict())
    return None


def N_(msgid: str) -> str:
    """Mark ``msgid`` for extraction without translating it here (it is translated later)."""
    return msgid


def tile_name(locale: str, english: str, chinese: str) -> str:
    """A tile kind's name for ``locale``: English, or its Chinese name in the locale's script.

    The engine holds the traditional names (天, 長三 …); the catalogue's ``tile`` context has them
    per script (长三 in zh-CN).
    """
    locale = normalize(locale) if locale not in LOCALES else locale
    if locale == DEFAULT:
        return english
    return _lookup(locale, chinese, TILE_CONTEXT) or chinese


def placeholders(text: str) -> set[str]:
    """The ``{field}`` names of a message (used by the catalogue tests)."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}
