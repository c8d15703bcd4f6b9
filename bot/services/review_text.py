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
from bot.engine import AnyView, FishingView, NotationError, format_tiles, parse_tile
from bot.locale import nt, t, tile_name, translate

__all__ = [
    "decision_line",
    "expert_text",
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


def say(words: Words, locale: str = "en", *, fishing: bool = False) -> str:
    """``words`` in ``locale``, as a sentence (capitalised): the AI layer's English templates
    are message ids, its tiles named as the locale names them and its game words (``pair``,
    ``left``) in the catalogue's ``term`` context. ``fishing``: a Tsung Shap game, whose words
    that differ from Kap Shap's (its draw turns a tile over: 翻牌) have the ``tsung shap``
    context."""

    def word(kind: str, text: str, field_name: str | None) -> str:
        if kind == "template":
            own = translate(locale, text, "tsung shap") if fishing else None
            return own or t(locale, text)
        if field_name in ("tile", "other"):
            return _tile_words(text, locale)
        if field_name in ("kind", "end"):
            return t(locale, text, context="term")
        return text

    text = words.text(word)
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


def _fishing(decision: Decision, fishing: bool | None) -> bool:
    """Whether the decision was Tsung Shap's: as told, or as the position it was made in says."""
    return isinstance(decision.position, FishingView) if fishing is None else fishing


def review_sentence(decision: Decision, locale: str = "en", *, fishing: bool | None = None) -> str:
    """The decision in one sentence (:func:`bot.ai.review.sentence_words`), in ``locale``
    (``fishing``: a Tsung Shap decision; by default, as its position says)."""
    return say(sentence_words(decision), locale, fishing=_fishing(decision, fishing))


def reason_text(decision: Decision, locale: str = "en") -> str | None:
    """Why a named mistake was worse, in the game's terms (None for the other decisions)."""
    if decision.reason is None:
        return None
    return say(decision.reason, locale, fishing=_fishing(decision, None))


def expert_text(decision: Decision, locale: str = "en") -> str:
    """``The expert's choice: taking 6-4 (49 % ± 2 %).``"""
    return say(expert_words(decision), locale, fishing=_fishing(decision, None))


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


def position_lines(position: AnyView, locale: str = "en") -> list[str]:
    """What the seat saw when it decided, in lines of text: its hand, the discards and the
    wall; in Tsung Shap the row, the tile turned over, the scores and the piles."""
    if isinstance(position, FishingView):
        lines = [t(locale, "Row: {tiles}", tiles=format_tiles(position.row, sort=False) or "-")]
        scores = " – ".join(str(s) for s in position.scores)
        piles = " / ".join(str(n) for n in position.pile_sizes)
        if position.turned is not None:
            lines.append(
                t(
                    locale,
                    "Turned over: {tile}; scores {scores}; piles {piles}",
                    tile=str(position.turned),
                    scores=scores,
                    piles=piles,
                )
            )
        else:
            lines.append(t(locale, "Scores {scores}; piles {piles}", scores=scores, piles=piles))
        return lines
    pool = " ".join(f"{p.tile}{'†' if p.dead else ''}" for p in position.pool) or "-"
    return [
        t(locale, "Hand: {tiles}", tiles=format_tiles(position.hand)),
        nt(
            locale,
            "Discards: {pool}; wall: {n} tile",
            "Discards: {pool}; wall: {n} tiles",
            position.wall_size,
            pool=pool,
        ),
    ]


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
