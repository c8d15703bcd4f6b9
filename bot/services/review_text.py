"""A review and an analysis in words, in a reader's language (en, zh-TW, zh-CN).

The AI layer judges the moves (:mod:`bot.ai.review`) and says what it found as
:class:`~bot.ai.review.Words` (English templates with their values), since it may not use the
catalogue; this module says them in a language, and words the rest of what ``/review``,
``kapshap review`` and ``kapshap analyse`` show: the tally of verdicts, how the chances were
found, a decision's line, the position it was made in. Standard library, the AI layer, the
engine's value types and :mod:`bot.locale` only (no storage), so the terminal commands use it
too.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.ai.family import ai_of
from bot.ai.review import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    VERDICT_WORDS,
    Decision,
    Option,
    Verdict,
    Words,
    expert_words,
    sentence_words,
)
from bot.engine import NotationError, parse_tile
from bot.engine.family import View
from bot.locale import nt, t, tile_name, translate

__all__ = [
    "decision_line",
    "expert_text",
    "hint_text",
    "method_text",
    "option_line",
    "ordered",
    "position_lines",
    "reason_text",
    "review_sentence",
    "say",
    "tally_text",
    "verdict_word",
]


_TSUNG_SHAP_WORDS = "tsung shap"
"""The catalogue context of the words the old ``fishing=True`` asks for (a Tsung Shap game's:
its family's :meth:`~bot.ai.family.GameAI.words_context`)."""


def say(
    words: Words, locale: str = "en", *, fishing: bool = False, context: str | None = None
) -> str:
    """``words`` in ``locale``, as a sentence (capitalised): the AI layer's English templates
    are message ids, its tiles named as the locale names them and its game words (``pair``,
    ``left``) in the catalogue's ``term`` context. ``context``: the game's own words' context
    (:meth:`bot.ai.family.GameAI.words_context`), looked up first, for the words it says
    differently (Tsung Shap's draw turns a tile over: 翻牌); ``fishing``: as Tsung Shap does."""
    own_context = _TSUNG_SHAP_WORDS if fishing and context is None else context

    def word(kind: str, text: str, field_name: str | None) -> str:
        if kind == "template":
            own = translate(locale, text, own_context) if own_context else None
            return own or t(locale, text)
        if field_name in ("tile", "other"):
            return _tile_words(text, locale)
        if field_name in ("kind", "end"):
            return t(locale, text, context="term")
        return text

    text = words.text(word)
    return text[:1].upper() + text[1:]


def hint_text(words: Words, locale: str = "en", *, context: str | None = None) -> str:
    """A hint (:meth:`bot.ai.family.GameAI.hint`) in ``locale``: like :func:`say`, with its
    counted parts (``the eye and 3 ten-pairs``, ``waits on 2 tiles``) said in the locale's
    plural at any depth."""

    def said(part: Words) -> str:
        values: dict[str, str] = {}
        for name, value in part.values:
            if isinstance(value, Words):
                values[name] = said(value)
            elif name in ("tile", "other"):
                values[name] = _tile_words(value, locale)
            elif name in ("kind", "end"):
                values[name] = t(locale, value, context="term")
            else:
                values[name] = value
        if part.plural is not None:
            return nt(locale, part.template, part.plural, part.count, **values)
        own = translate(locale, part.template, context) if context else None
        if own is not None:
            return own.format(**values) if values else own
        return t(locale, part.template, **values)

    text = said(words)
    return text[:1].upper() + text[1:]


def _tile_words(notation: str, locale: str) -> str:
    """A tile of a review sentence: its notation, and in Chinese its name too (6-5 斧頭)."""
    if locale == "en":
        return notation
    try:
        tile = parse_tile(notation)
    except NotationError:
        return notation
    return f"{notation} {tile_name(locale, tile.english, tile.chinese)}"


def _context(decision: Decision, fishing: bool | None = None) -> str | None:
    """The catalogue context of the decision's game's own words: as its position's game's
    family says (:meth:`bot.ai.family.GameAI.words_context`), or Tsung Shap's when told
    ``fishing`` (none when told not)."""
    if fishing is not None:
        return _TSUNG_SHAP_WORDS if fishing else None
    if decision.position is None:
        return None
    game = decision.position.rules.game
    return ai_of(game).words_context(game)


def review_sentence(decision: Decision, locale: str = "en", *, fishing: bool | None = None) -> str:
    """The decision in one sentence (:func:`bot.ai.review.sentence_words`), in ``locale``
    (``fishing``: a Tsung Shap decision; by default, as its position's game says)."""
    return say(sentence_words(decision), locale, context=_context(decision, fishing))


def reason_text(decision: Decision, locale: str = "en") -> str | None:
    """Why a named mistake was worse, in the game's terms (None for the other decisions)."""
    if decision.reason is None:
        return None
    return say(decision.reason, locale, context=_context(decision))


def expert_text(decision: Decision, locale: str = "en") -> str:
    """``The expert's choice: taking 6-4 (49 % ± 2 %).``"""
    return say(expert_words(decision), locale, context=_context(decision))


def verdict_word(verdict: Verdict, locale: str = "en") -> str:
    """``mistake``, ``about as good`` … in ``locale``."""
    return t(locale, VERDICT_WORDS[verdict])


def decision_line(decision: Decision, locale: str = "en") -> str:
    """``Action 17 (turn 9): Mistake, −8 points (± 2): …`` (the action's number in the record,
    which ``kapshap analyse --at`` reads)."""
    return t(
        locale,
        "Action {number} (turn {turn}): {sentence}",
        number=decision.number,
        turn=decision.turn,
        sentence=review_sentence(decision, locale),
    )


def ordered(decisions: Sequence[Decision]) -> list[Decision]:
    """The named mistakes, largest loss first (then in the game's order)."""
    return sorted((d for d in decisions if d.named), key=lambda d: (-d.loss, d.number))


def tally_text(decisions: Sequence[Decision], locale: str = "en") -> str:
    """How many decisions, and what they were: ``9 decisions: 1 blunder, 2 inaccuracies; 6
    the best move or about as good.``; an empty review says so in its own words."""
    if not decisions:
        return t(locale, "No decision had a real choice (one legal move, or equivalent ones).")
    counts = {v: sum(d.verdict is v for d in decisions) for v in Verdict}
    named = [
        nt(locale, one, many, counts[verdict])
        for verdict, one, many in (
            (Verdict.BLUNDER, "{n} blunder", "{n} blunders"),
            (Verdict.MISTAKE, "{n} mistake", "{n} mistakes"),
            (Verdict.INACCURACY, "{n} inaccuracy", "{n} inaccuracies"),
        )
        if counts[verdict]
    ]
    good = counts[Verdict.BEST] + counts[Verdict.GOOD]
    total = nt(locale, "{n} decision", "{n} decisions", len(decisions))
    if not named:
        return t(
            locale,
            "{total}, every one the best move or about as good: no mistake.",
            total=total,
        )
    return t(
        locale,
        "{total}: {named}; {good} the best move or about as good.",
        total=total,
        named=t(locale, ", ").join(named),
        good=good,
    )


def method_text(budget: int | None, locale: str = "en") -> str:
    """How the chances were found and when a mistake is named."""
    thresholds = {
        "inaccuracy": f"{INACCURACY * 100:.0f}",
        "mistake": f"{MISTAKE * 100:.0f}",
        "blunder": f"{BLUNDER * 100:.0f}",
    }
    if budget is None:
        return t(
            locale,
            "Chances to win from play-outs of the tiles the player could not see, spent on the "
            "close moves; ± is one standard error. A move is judged against the best one, by "
            "what it surely lost (95 % confidence): an inaccuracy at least {inaccuracy} points, "
            "a mistake at least {mistake}, a blunder at least {blunder}; less is about as good.",
            **thresholds,
        )
    return t(
        locale,
        "Chances to win from play-outs of the tiles the player could not see, up to {budget} "
        "per decision, spent on the close moves; ± is one standard error. A move is judged "
        "against the best one, by what it surely lost (95 % confidence): an inaccuracy at least "
        "{inaccuracy} points, a mistake at least {mistake}, a blunder at least {blunder}; less "
        "is about as good.",
        budget=f"{budget:,}",
        **thresholds,
    )


def position_lines(position: View, locale: str = "en") -> list[str]:
    """What the seat saw when it decided, in lines of text, as its game's family words it
    (:meth:`bot.ai.family.GameAI.position_words`): its hand, the discards and the wall; in Tsung
    Shap the row, the tile turned over, the scores and the piles."""
    game = position.rules.game
    return [_line(words, locale) for words in ai_of(game).position_words(position)]


def _line(words: Words, locale: str) -> str:
    """A position's line in ``locale``: its values as they are (tiles in notation)."""
    values = {
        name: value if isinstance(value, str) else value.text() for name, value in words.values
    }
    if words.plural is not None:
        return nt(locale, words.template, words.plural, words.count, **values)
    return t(locale, words.template, **values)


def option_line(
    option: Option, locale: str = "en", *, played: str | None = None, expert: str | None = None
) -> str:
    """One row of ``kapshap analyse``: the action, its chance, how much it trails the best
    move and the verdict, marked when it is the move played or the expert's choice."""
    marks = []
    names = {option.action, *option.same_as}
    if played in names:
        marks.append(t(locale, "← played"))
    if expert in names:
        marks.append(t(locale, "(the expert's choice)"))
    action = " = ".join((option.action, *option.same_as))
    trail = "" if option.verdict is Verdict.BEST else _loss_text(option.loss, option.loss_se)
    line = (
        f"  {action:<26} {option.chance!s:<13} {trail:<10} "
        f"{verdict_word(option.verdict, locale)} {' '.join(marks)}"
    ).rstrip()
    return line.replace(" （", "（")  # no space before a full-width bracket


def _loss_text(loss: float, se: float) -> str:
    """``−18 ± 2`` (points behind the best move); ``+2 ± 3`` when the move did better on the
    deals that compared them; no ``±`` when both chances are exact."""
    points = round(loss * 100)
    sign = "−" if points > 0 else "+" if points < 0 else ""
    text = f"{sign}{abs(points)}"
    if se > 0:
        text += f" ± {'<1' if se < 0.005 else f'{se * 100:.0f}'}"
    return text
