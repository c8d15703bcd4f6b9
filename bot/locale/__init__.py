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
from datetime import datetime
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

__all__ = [
    "COMMAND_CONTEXT",
    "DEFAULT",
    "LOCALES",
    "LOCALE_NAMES",
    "N_",
    "EventLine",
    "Message",
    "Moment",
    "catalogue",
    "command_path",
    "command_word",
    "date_text",
    "is_chinese",
    "lang_of_args",
    "name_commands",
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
#: The message context of the names of slash commands, groups and options (cogs.translator
#: gives them to Discord; :func:`command_path` puts them in texts).
COMMAND_CONTEXT = "command name"

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


#: Chinese text: ideographs, CJK punctuation (「」、。) and full-width forms (（）：，).
_CJK = "\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef"
_CJK_CHAR = re.compile(f"[{_CJK}]")
#: Marks around a value (bold, italics, strike-through) that a space may stand beside.
_MARKS = "*_~"
_FORMATTER = string.Formatter()


def _format(text: str, values: dict[str, Any], locale: str = DEFAULT) -> str:
    if not values:
        return text
    if locale == DEFAULT:
        return text.format(**values)
    return _format_chinese(text, values)


def _format_chinese(text: str, values: dict[str, Any]) -> str:
    """``text.format(**values)`` without the spaces a template puts between Chinese and a value
    that begins or ends with Chinese: ``{name} 吃了`` reads ``alice 吃了`` but ``你吃了`` and
    ``電腦 1（高手）吃了``, never ``你 吃了`` (a space between two Chinese characters is a typo).
    Only a template's space next to a value goes; the values and the rest stay as they are."""
    out: list[str] = []
    loose: list[int] = []  # indices in ``out`` of a template's spaces next to a value
    for literal, field, spec, conversion in _FORMATTER.parse(text):
        body = literal.rstrip(_MARKS)
        if out and body.lstrip(_MARKS).startswith(" "):
            lead = len(body) - len(body.lstrip(_MARKS))
            loose.append(len("".join(out)) + lead)
        if field is not None and body.endswith(" "):
            loose.append(len("".join(out)) + len(body) - 1)
        out.append(literal)
        if field is not None:
            obj, _ = _FORMATTER.get_field(field, (), values)
            obj = _FORMATTER.convert_field(obj, conversion)
            out.append(_FORMATTER.format_field(obj, _FORMATTER.vformat(spec or "", (), values)))
    joined = "".join(out)
    drop = set()
    for i in loose:
        before = joined[:i].rstrip(_MARKS)
        after = joined[i + 1 :].lstrip(_MARKS)
        if before and after and _CJK_CHAR.match(before[-1]) and _CJK_CHAR.match(after[0]):
            drop.add(i)
    return "".join(c for i, c in enumerate(joined) if i not in drop)


def command_word(locale: str, path: str) -> str | None:
    """The name of the last word of a command path in ``locale`` (``tournament new`` -> 開賽,
    ``settings notices`` -> an option's name), or None when the catalogue has none (English).

    A name is looked up by its whole path first, then by itself: one English word may need
    different names under different groups (a tournament is not "opened" like a table). The
    Discord translator (cogs.translator) and :func:`command_path` both ask this, so a command is
    named in a text exactly as the member's client shows it.
    """
    words = path.split()
    if not words:
        return None
    if len(words) > 1:
        found = _lookup(locale, " ".join(words), COMMAND_CONTEXT)
        if found is not None:
            return found
    return _lookup(locale, words[-1], COMMAND_CONTEXT)


def command_path(locale: str, path: str) -> str:
    """A slash command as a member whose client speaks ``locale`` sees it: ``table new`` ->
    ``/table new`` in English, ``/牌桌 開桌`` in zh-TW; options keep what follows their colon
    (``settings notices:`` -> ``/個人設定 輪到通知:``, ``discard tile:6-5``)."""
    done: list[str] = []
    out: list[str] = []
    for word in path.lstrip("/").split():
        name, colon, rest = word.partition(":")
        done.append(name)
        found = None if locale == DEFAULT else command_word(locale, " ".join(done))
        out.append((found or name) + colon + rest)
    return "/" + " ".join(out)


#: A slash command named in a text: ``/table new``, ``/settings notices:``, ``/kapadmin sync
#: scope:guild`` (not ``60/30/10`` or a link: nothing of a word or a path right before it).
_COMMAND = re.compile(r"(?<![\w/.:])/[a-z][a-z_]*(?: [a-z][a-z_]*(?::[^\s`'，。、；：）」]*)?)*")


def name_commands(locale: str, text: str) -> str:
    """``text`` with every slash command it names (``/table new``, ``/settings notices:``) as
    the member's client shows it in ``locale`` (:func:`command_path`). The catalogues write
    commands in English, as the code knows them; :func:`t` names them here, so a text never
    names a command otherwise than Discord does. Words after the command that are not its
    subcommands or options stay as they are."""
    if locale == DEFAULT or "/" not in text:
        return text

    def name(match: re.Match[str]) -> str:
        words = match.group(0)[1:].split(" ")
        known: list[str] = []
        for word in words:
            if command_word(locale, " ".join([*known, word.partition(":")[0]])) is None:
                break
            known.append(word.partition(":")[0])
        if not known:
            return match.group(0)
        head = command_path(locale, " ".join(words[: len(known)]))
        tail = words[len(known) :]
        return " ".join([head, *tail])

    return _COMMAND.sub(name, text)


def t(locale: str, msgid: str, /, *, context: str | None = None, **values: Any) -> str:
    """``msgid`` (English) in ``locale``, with ``{placeholders}`` filled from ``values``.

    A message missing from a catalogue falls back to English (a test makes sure none is).
    Without ``values`` the text is returned as is (literal braces need no doubling). In
    Chinese, slash commands are named as the member's client shows them
    (:func:`name_commands`) and no space is left between Chinese and a value.
    """
    text = _lookup(locale, msgid, context)
    if text is None:
        return _format(msgid, values)
    chinese = locale if locale in LOCALES else normalize(locale)
    return _format(name_commands(chinese, text), values, chinese)


def nt(locale: str, singular: str, plural: str, n: int, /, **values: Any) -> str:
    """A message that depends on a count ``n`` (``{n}`` is available as a placeholder)."""
    values.setdefault("n", n)
    chinese = normalize(locale)
    if chinese != DEFAULT:
        cat = catalogue(chinese)
        message = None if cat is None else cat.get(singular)
        if message is not None and not message.fuzzy:
            forms = message.string
            if isinstance(forms, tuple | list) and forms and forms[0]:
                # Chinese has one plural form.
                return _format(name_commands(chinese, str(forms[0])), values, chinese)
            if isinstance(forms, str) and forms:
                return _format(name_commands(chinese, forms), values, chinese)
    return _format(singular if n == 1 else plural, values)


def date_text(locale: str, moment: datetime, *, time: bool = False) -> str:
    """A date the bot writes itself (Discord's ``<t:…>`` timestamps word themselves):
    ``2026-01-01`` in English and zh-CN, ``2026/01/01`` in zh-TW; ``time`` adds ``09:30``."""
    sep = "/" if normalize(locale) == "zh-TW" else "-"
    text = f"{moment:%Y}{sep}{moment:%m}{sep}{moment:%d}"
    return f"{text} {moment:%H:%M}" if time else text


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


class Moment(Message):
    """A date (and time) as a value of a :class:`Message` or ``UserError``: written in English
    as a ``str``, in the reader's language by :meth:`localized` (:func:`date_text`)."""

    moment: datetime
    time: bool

    def __new__(cls, moment: datetime, *, time: bool = False) -> Moment:
        """``Moment(datetime(2026, 1, 1, 9, 30), time=True)``: ``2026-01-01 09:30``."""
        english = date_text(DEFAULT, moment, time=time)
        text = str.__new__(cls, english)
        text.msgid = english
        text.values = {}
        text.moment = moment
        text.time = time
        return text

    def localized(self, locale: str) -> str:
        """The date in ``locale``."""
        return date_text(locale, self.moment, time=self.time)


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
