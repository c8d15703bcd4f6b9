"""What a review says, as English templates (message ids) and their values: :class:`Words`.

The AI layer may not import the catalogue (bot.locale), so it returns :class:`Words` and the
layers that speak a member's language translate them (:mod:`bot.services.review_text`); the
catalogue test reads these tables. A game's family words its own actions and reasons
(:meth:`bot.ai.family.GameAI.action_words`, :meth:`~bot.ai.family.GameAI.reason`) with these
templates.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.ai.verdicts import Verdict

__all__ = [
    "ACTION_PHRASES",
    "HINTS",
    "REASONS",
    "REVIEW_TEMPLATES",
    "SENTENCES",
    "VERDICT_WORDS",
    "Words",
    "action_phrase",
    "action_words",
    "nt",
]


#: The review's words as English templates (message ids). The AI layer may not import the
#: catalogue (bot.locale), so it returns :class:`Words` (a template and its values) and the
#: layers that speak a member's language translate them; the catalogue test reads these
#: tables. Values named ``tile`` and ``other`` are tiles in notation, ``kind`` and ``end``
#: words of the game (``pair``, ``left``: the catalogue's ``term`` context), ``name`` a
#: player's name; the others are numbers or chances.
ACTION_PHRASES: dict[str, str] = {
    "take": "taking {tile}",
    "take-offer": "taking",
    "draw": "drawing",
    "turn-over": "turning over your tile",
    "discard": "discarding {tile}",
    "declare": "declaring",
    "place": "placing on the {end}",
    "capture": "capturing a {kind} on the {end}",
    "capture-ends": "capturing a {kind} on both ends",
    "claim": "claiming a {kind} on the {end}",
    "claim-ends": "claiming a {kind} on both ends",
}
#: What a move was (:class:`Verdict`), as a column of ``kapshap analyse`` and in counts.
VERDICT_WORDS: dict[Verdict, str] = {
    Verdict.BEST: "best move",
    Verdict.GOOD: "about as good",
    Verdict.INACCURACY: "inaccuracy",
    Verdict.MISTAKE: "mistake",
    Verdict.BLUNDER: "blunder",
}
#: A decision in one sentence (``played`` and ``best`` are :data:`ACTION_PHRASES`; ``after``
#: and ``before`` the chances after the move played and after the best one, ``31 % ± 2 %``;
#: ``loss`` and ``se`` the loss in points and its standard error).
SENTENCES: dict[str, str] = {
    "best": "{played}: the best move ({after}).",
    "good": "{played}: about as good as {best} ({after} against {before}).",
    "inaccuracy": "Inaccuracy, −{loss} points (± {se}): {played} ({after}) instead of {best} "
    "({before}).",
    "mistake": "Mistake, −{loss} points (± {se}): {played} ({after}) instead of {best} ({before}).",
    "blunder": "Blunder, −{loss} points (± {se}): {played} ({after}) instead of {best} ({before}).",
    "expert": "The expert's choice: {expert} ({chance}).",
}
#: Why a named mistake was worse, in the game's terms (:func:`reason_words`).
REASONS: dict[str, str] = {
    "declare": "The hand was a winning hand: declaring wins at once.",
    "winning-take": "{tile} in the discards completed your hand.",
    "take-closer": "Taking {tile} brought the hand closer to winning.",
    "broke-eye": "It broke the eye {tile} + {tile}, leaving the hand further from winning.",
    "broke-pair": "It broke the ten-pair {tile} + {other}, leaving the hand further from winning.",
    "further": "It left the hand further from winning.",
    "winning-pool": "Keeping {tile} would have let you win with the {other} in the discards.",
    "fewer-outs": "It left fewer tiles to bring the hand closer to winning (unseen, or in the "
    "discards to take): {after} against {before}.",
    "gave-winner": "It gave {name} the tile he won with.",
    "riskier": "It was a riskier discard: more likely to complete another player's hand.",
    "play-outs": "The difference shows only in the play-outs: in what the others hold and draw.",
    "missed-capture": "It missed a capture of {points} points, which the opponent may claim.",
    "smaller-capture": "It took {points} points where {best_points} were on offer.",
    "no-claim": "It left unclaimed the {points} points the opponent missed.",
    "smaller-claim": "It claimed {points} points where {best_points} were on offer.",
    "exposed": "It left the opponent more to capture: {after} of the unseen tiles could "
    "capture at the row's ends, against {before}.",
    "play-outs-piles": "The difference shows only in the play-outs: in the order of the piles.",
}
#: Why the expert suggests a move, for a hint (:meth:`bot.ai.family.GameAI.hint`): said of
#: the move itself, from what the seat sees. ``line`` is the whole hint (``move`` an
#: :data:`ACTION_PHRASES` phrase, ``why`` one of these or of :data:`REASONS`); ``made`` is
#: what a hand has grouped (``eye``, ``nothing``, or a counted phrase written where it is
#: used); ``tiles`` tiles in notation, ``points`` and ``after`` numbers.
HINTS: dict[str, str] = {
    "line": "{move}: {why}",
    "eye": "the eye",
    "nothing": "no ten-pair yet",
    "declare": "Your hand is a winning hand: declaring wins at once.",
    "keeps": "It keeps {made}, the most this hand can keep.",
    "take": "{tile} groups with your hand: it then holds {made}.",
    "draw": "No discard helps your hand now: draw from the wall.",
    "capture": "It captures {points} points.",
    "claim": "It claims {points} points the opponent left.",
    "place": "It leaves the opponent the least to capture: {after} of the unseen tiles could "
    "capture at the row's ends.",
    "turn-over": "Nothing to claim: turn over your next tile.",
}
#: Every template above (what a catalogue must translate).
REVIEW_TEMPLATES: tuple[str, ...] = (
    *ACTION_PHRASES.values(),
    *VERDICT_WORDS.values(),
    *SENTENCES.values(),
    *REASONS.values(),
    *HINTS.values(),
)


@dataclass(frozen=True, slots=True)
class Words:
    """Words to say: an English ``template`` (a message id, ``{field}`` placeholders) and its
    ``values``, each plain text or :class:`Words` itself. :meth:`text` says them. Counted words
    (:func:`nt`) also hold the ``plural`` template and the ``count`` that chooses between them
    (``{n}`` in the templates): their reader says them with :func:`bot.locale.nt`."""

    template: str
    values: tuple[tuple[str, str | Words], ...] = ()
    plural: str | None = None
    count: int = 1

    def text(self, say: Callable[[str, str, str | None], str] | None = None) -> str:
        """The words as text. ``say(kind, text, field)`` words each part: ``kind`` is
        ``"template"`` (``field`` None) or ``"value"`` (a plain value of ``field``); without
        ``say``, English."""
        english = self.template if self.plural is None or self.count == 1 else self.plural
        template = english if say is None else say("template", self.template, None)
        values = {
            name: value.text(say)
            if isinstance(value, Words)
            else (value if say is None else say("value", value, name))
            for name, value in self.values
        }
        if self.plural is not None:
            values.setdefault("n", str(self.count))
        return template.format(**values) if values else template


def nt(_locale: None, singular: str, plural: str, n: int, /, **values: str | Words) -> Words:
    """Counted words: ``singular`` when ``n`` is 1, else ``plural`` (``{n}`` is ``n``). The
    arguments are :func:`bot.locale.nt`'s, with no locale (the AI layer speaks none: pass
    None), so that the catalogue's extraction (``pybabel -k nt:2,3``) finds the message where
    it is written; the reader says it with :func:`bot.locale.nt`."""
    return Words(singular, tuple(values.items()), plural=plural, count=n)


def action_phrase(notation: str) -> Words:
    """An action as a gerund phrase: ``drawing``, ``taking 6-4``, ``placing on the left``,
    ``capturing a pair on the left`` … (:data:`ACTION_PHRASES`)."""
    words = notation.split()
    verb, rest = (words[0], words[1:]) if words else ("", [])
    if verb in ("capture", "claim") and len(rest) == 2:
        key = f"{verb}-ends" if rest[1] == "ends" else verb
        values: tuple[tuple[str, str | Words], ...] = (("kind", rest[0]),)
        if rest[1] != "ends":
            values += (("end", rest[1]),)
        return Words(ACTION_PHRASES[key], values)
    if verb == "place" and rest:
        return Words(ACTION_PHRASES["place"], (("end", rest[0]),))
    if verb in ("take", "discard") and len(rest) == 1:
        return Words(ACTION_PHRASES[verb], (("tile", rest[0]),))
    if verb == "take" and not rest:
        return Words(ACTION_PHRASES["take-offer"])
    if verb in ("draw", "declare") and not rest:
        return Words(ACTION_PHRASES[verb])
    return Words(notation)  # not an action the engine writes: shown as it is


def action_words(notation: str) -> str:
    """An action as a gerund for a sentence: ``drawing``, ``taking 6-4``, ``discarding 3-1``,
    ``placing left``, ``capturing a pair on the left`` …"""
    return action_phrase(notation).text()
