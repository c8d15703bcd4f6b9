"""The glossary check: every entry of a Chinese catalogue against its locale's glossary.

Each Chinese locale has one glossary, ``bot/locale/<lang>/glossary.toml``, that translators
read and this module enforces: the one word for each game term, the variants to avoid (with
the reason), and the punctuation and spacing rules. :func:`check` returns one problem per
entry and term, worded so that whoever added the entry knows what to change (the entry, the
line of the catalogue, the word found, the glossary's word and why).

A glossary table (TOML) is a list of ``[[term]]`` (and ``[[rule]]``, the same keys without
``chinese``) and ``[[exception]]``:

* ``avoid``: regular expressions matched against the entry's Chinese text with its code
  (`` `…` ``), the words a player types (``'…'``), links and slash commands taken out and each
  ``{placeholder}`` written ``{}``; ``allow``: matches of ``avoid`` inside one of these are
  right (輪 in 輪到);
* ``when`` / ``unless``: the term applies only to entries whose English (``msgctxt`` and
  ``msgid``) matches ``when`` and does not match ``unless``;
* ``require``: an entry whose English matches it must use ``chinese`` (the game term);
* ``[[exception]]``: one entry (``msgid``, optional ``msgctxt``) exempt from one term or rule
  (its ``term``: the ``chinese`` of a term or the ``name`` of a rule), with ``why``.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog

ROOT = Path(__file__).resolve().parents[2]

#: Chinese characters, CJK punctuation (「」、。) and full-width forms (（）：，).
CJK = "\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef"


def glossary_path(locale: str) -> Path:
    """``bot/locale/zh_TW/glossary.toml`` for ``zh-TW``."""
    return ROOT / "bot" / "locale" / locale.replace("-", "_") / "glossary.toml"


@dataclass(frozen=True)
class Term:
    """One ``[[term]]`` or ``[[rule]]`` of a glossary."""

    name: str  # the Chinese word of a term, the name of a rule
    english: str
    avoid: tuple[re.Pattern[str], ...]
    allow: tuple[re.Pattern[str], ...]
    when: re.Pattern[str] | None
    unless: re.Pattern[str] | None
    require: re.Pattern[str] | None
    why: str
    fix: str

    def applies(self, english: str) -> bool:
        """Whether the term speaks about an entry whose English is ``english``."""
        if self.when is not None and not self.when.search(english):
            return False
        return self.unless is None or not self.unless.search(english)


@dataclass(frozen=True)
class Glossary:
    """A locale's glossary: its terms and rules, and the entries exempt from some of them."""

    locale: str
    path: Path
    terms: tuple[Term, ...]
    exceptions: frozenset[tuple[str, str, str]]  # (msgctxt, msgid, term)


def _patterns(table: dict[str, Any], key: str) -> tuple[re.Pattern[str], ...]:
    value = table.get(key, [])
    items = [value] if isinstance(value, str) else list(value)
    return tuple(re.compile(item.replace("{CJK}", CJK)) for item in items)


def _pattern(table: dict[str, Any], key: str) -> re.Pattern[str] | None:
    value = table.get(key)
    return None if value is None else re.compile(str(value).replace("{CJK}", CJK))


def load(locale: str) -> Glossary:
    """The glossary of ``locale`` (``zh-TW``, ``zh-CN``)."""
    path = glossary_path(locale)
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    terms = []
    for kind in ("term", "rule"):
        for table in data.get(kind, []):
            name = table["chinese"] if kind == "term" else table["name"]
            terms.append(
                Term(
                    name=name,
                    english=table.get("english", name),
                    avoid=_patterns(table, "avoid"),
                    allow=_patterns(table, "allow"),
                    when=_pattern(table, "when"),
                    unless=_pattern(table, "unless"),
                    require=_pattern(table, "require"),
                    why=table.get("why", ""),
                    fix=table.get("fix", ""),
                )
            )
    exceptions = frozenset(
        (e.get("msgctxt") or "", e["msgid"], e["term"]) for e in data.get("exception", [])
    )
    return Glossary(locale, path, tuple(terms), exceptions)


def chinese_text(text: str) -> str:
    """What the glossary reads of a catalogue text: not its code, the words a player types,
    links, mentions or slash commands (names and notation), and ``{}`` for each placeholder."""
    text = re.sub(r"`[^`]*`", "`…`", text)
    text = re.sub(r"(?<![A-Za-z])'[^'\n]*'", "'…'", text)
    text = re.sub(r"https?://\S+|<[^>\n]*>", "…", text)
    text = re.sub(r"(?<![\w/.])/[a-z][a-z_]*(?: [a-z][a-z_]*(?::\S*)?)*", "/…", text)
    return re.sub(r"\{[^{}]*\}", "{}", text)


def _english(message: Any) -> str:
    msgid = message.id if isinstance(message.id, str) else message.id[0]
    return f"{message.context or ''}\x00{msgid}"


def _strings(message: Any) -> list[str]:
    if isinstance(message.string, str):
        return [message.string]
    return [s for s in message.string if s]


def _where(glossary: Glossary, catalogue_path: Path, message: Any) -> str:
    msgid = message.id if isinstance(message.id, str) else message.id[0]
    context = f" (msgctxt {message.context!r})" if message.context else ""
    where = catalogue_path.relative_to(ROOT)
    return f"{glossary.locale}: msgid {msgid!r}{context}, line {message.lineno} of {where}"


def _found(term: Term, text: str) -> list[str]:
    hits = []
    for pattern in term.avoid:
        for match in pattern.finditer(text):
            start, end = match.span()
            if any(
                a.start() <= start and end <= a.end()
                for allowed in term.allow
                for a in allowed.finditer(text)
            ):
                continue
            hits.append(match.group(0))
    return hits


def check(glossary: Glossary, catalogue: Catalog, catalogue_path: Path) -> list[str]:
    """Every problem of ``catalogue`` against ``glossary``: one line block per entry and term."""
    problems = []
    for message in catalogue:
        if not message.id or not message.string:
            continue
        english = _english(message)
        msgid = message.id if isinstance(message.id, str) else message.id[0]
        for string in _strings(message):
            text = chinese_text(string)
            for term in glossary.terms:
                if (message.context or "", msgid, term.name) in glossary.exceptions:
                    continue
                if not term.applies(english):
                    continue
                hits = _found(term, text)
                missing = (
                    term.require is not None
                    and term.require.search(english) is not None
                    and term.name not in text
                )
                if not hits and not missing:
                    continue
                what = (
                    f"uses {', '.join(repr(h) for h in dict.fromkeys(hits))}"
                    if hits
                    else f"does not use the glossary's {term.name!r} for {term.english!r}"
                )
                fix = term.fix or f"write {term.name!r} ({term.english})"
                problems.append(
                    f"{_where(glossary, catalogue_path, message)}\n"
                    f"    msgstr {string!r}\n"
                    f"    {what}: {term.why}\n"
                    f"    fix: {fix}; if this use is right, add an [[exception]] "
                    f"(msgid, term = {term.name!r}, why) to {glossary.path.relative_to(ROOT)}"
                )
    return problems
