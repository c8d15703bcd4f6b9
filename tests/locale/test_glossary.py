"""Every entry of the Chinese catalogues uses its locale's glossary (bot/locale/<lang>/
glossary.toml): the one word for each game term, no variant the glossary rules out, and its
punctuation and spacing (tests/locale/glossary.py says how a glossary reads).

A failure names the entry (its msgid and line), the word found, the glossary's word, why and
how to fix it, or how to record an exception when the flagged use is right.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from tests.locale.glossary import ROOT, check, chinese_text, glossary_path, load

CHINESE = ("zh-TW", "zh-CN")


def _catalogue_path(locale: str) -> Path:
    return ROOT / "bot" / "locale" / locale.replace("-", "_") / "LC_MESSAGES" / "messages.po"


def _problems(locale: str, po_text: str) -> list[str]:
    from io import BytesIO

    catalogue = read_po(BytesIO(po_text.encode("utf-8")), locale=locale.replace("-", "_"))
    return check(load(locale), catalogue, _catalogue_path(locale))


@pytest.mark.parametrize("locale", CHINESE)
def test_catalogue_uses_the_glossary(locale: str) -> None:
    """No entry of the catalogue uses a word or punctuation its glossary rules out."""
    problems = _problems(locale, _catalogue_path(locale).read_text(encoding="utf-8"))
    assert not problems, f"{len(problems)} entries break the glossary:\n" + "\n".join(problems)


@pytest.mark.parametrize("locale", CHINESE)
def test_every_exception_is_still_needed(locale: str) -> None:
    """An exception names an entry that exists: a stale one would hide a future mistake."""
    glossary = load(locale)
    po = read_po(_catalogue_path(locale).open("rb"), locale=locale.replace("-", "_"))
    names = {term.name for term in glossary.terms}
    for context, msgid, term in glossary.exceptions:
        assert term in names, f"{glossary_path(locale)}: exception for unknown term {term!r}"
        assert po.get(msgid, context=context or None) is not None, (
            f"{glossary_path(locale)}: exception for {msgid!r}, which the catalogue lacks"
        )


def _entry(msgid: str, msgstr: str, context: str | None = None) -> str:
    head = f'msgctxt "{context}"\n' if context else ""
    return f'{head}msgid "{msgid}"\nmsgstr "{msgstr}"\n\n'


BAD = {
    "zh-TW": [
        ("Bots don't hold chips.", "機械人不持有籌碼。", "機械人"),
        ("Turn {turn}: {name} to play.", "第 {turn} 輪：輪到 {name}。", "'輪'"),
        ("Discard {tile}", "出 {tile}", "'出'"),
        ("**It is your turn:** discard a tile.", "**輪到你：** 打出一張牌。", "full-width"),
        ("• **Ante**: {n}", "• **底注**: {n}", "ASCII colon"),
        ("AI {number} ({level})", "電腦 {number}（expert）", "'expert'"),
        ("{name} turned over {tile}", "{name} 摸到 {tile}", "'摸'"),
        ("The pot of {chips} chips stays.", "{chips} 籌碼留到下一局。", "'彩池'"),
    ],
    "zh-CN": [
        ("The pot of {chips} chips stays.", "彩池 {chips} 筹码留到下一局。", "'彩池'"),
        ("Bots don't hold chips.", "机械人不持有筹码。", "机械人"),
        ("Turn {turn}: {name} to play.", "第 {turn} 轮：轮到 {name}。", "'轮'"),
        ("{name} wins", "{name} 胜出 ", None),
    ],
}


@pytest.mark.parametrize("locale", CHINESE)
def test_the_check_flags_what_the_glossary_rules_out(locale: str) -> None:
    """The checker itself: each known mistake is flagged with its entry and word, and a right
    text is not (a broken checker must not pass every catalogue)."""
    header = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n\n'
    for msgid, msgstr, word in BAD[locale]:
        problems = _problems(locale, header + _entry(msgid, msgstr))
        if word is None:
            assert problems == [], problems
            continue
        assert len(problems) >= 1, f"{msgstr!r} was not flagged"
        assert msgid in problems[0] and word in "\n".join(problems), problems


def test_what_the_check_reads() -> None:
    """Code, typed words, links and slash commands are names and notation, not Chinese text."""
    assert chinese_text("用 `/settings notices:` 改：'draw' {name}") == "用 `…` 改：'…' {}"
    assert chinese_text("用 /table new 開 <t:1:R>") == "用 /… 開 …"
