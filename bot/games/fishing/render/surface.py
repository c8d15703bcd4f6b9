"""Where and how a member plays Tsung Shap (:class:`bot.render.family.Surface`): on the table
message everybody sees (the game hides nothing), and with the same slash verbs as the
collecting games: ``/draw`` turns over the next tile, ``/take`` captures or claims (its
``tile`` option then names the capture, ``capture pair left``), ``/discard side:left|right``
places the turned tile at an end of the row. ``/declare`` has no use here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from bot.games.dominoes.engine.actions import Draw
from bot.games.dominoes.render.surface import unknown_verb
from bot.games.fishing.engine import Combination, FishingView
from bot.games.fishing.engine.actions import Capture, Claim, Place
from bot.limits import quote_input
from bot.locale import N_, Message, t
from bot.render.family import ButtonSpec, Choice, SelectSpec, VerbRefusal
from bot.render.text import action_label, count_text

__all__ = ["SIDES", "TSUNG_SHAP_CONTEXT", "FishingSurface", "combination_label", "play_arg"]

#: The catalogue context of words that Tsung Shap says otherwise (its "Draw": 翻牌).
TSUNG_SHAP_CONTEXT = "tsung shap"

SIDES = ((N_("left end of the row"), "left"), (N_("right end of the row"), "right"))
"""The row's ends as ``/discard side:`` names them, with their values."""


def play_arg(action: object) -> str:
    """The ``arg`` of a ``play`` button: the action's notation with ``-`` for spaces."""
    return str(action).replace(" ", "-")


def combination_label(action: Capture | Claim, combo: Combination, locale: str = "en") -> str:
    """A capture or claim button's label with what it takes and scores, so the player sees
    both before he chooses: ``Capture triplet left: 6-3 + 5-1 + 6-2 · 20 points``."""
    points = count_text(locale, combo.score, "point")
    if combo.sweep:
        points = t(locale, "sweep, {points}", points=points)
    return t(
        locale,
        "{action}: {tiles} · {points}",
        action=action_label(action, locale),
        tiles=" + ".join(map(str, combo.tiles)),
        points=points,
    )


def _combos(view: Any) -> dict[str, Combination]:
    """The captures on offer and the missed ones that may be claimed, by notation."""
    if not isinstance(view, FishingView):
        return {}
    combos = {str(c.capture): c for c in view.options}
    return combos | {str(c.claim): c for c in view.pending}


class FishingSurface:
    """Tsung Shap's surface: a mixin of its render facet."""

    @property
    def where(self) -> Literal["hand", "table"]:
        """A seat plays on the table message: Tsung Shap hides nothing but the piles' order."""
        return "table"

    def buttons(
        self, view: Any, legal: Sequence[Any], locale: str
    ) -> list[ButtonSpec | SelectSpec]:
        """The current player's moves, for everybody to see: claims (first row), captures
        (second; each with the tiles it takes and what it scores), then Draw and Place left /
        Place right."""
        known = _combos(view)

        def button(action: Any, style: Literal["primary", "success"], row: int) -> ButtonSpec:
            combo = known.get(str(action))
            if isinstance(action, Capture | Claim) and combo is not None:
                label = combination_label(action, combo, locale)
            else:
                label = action_label(action, locale)
            return ButtonSpec("play", play_arg(action), label[:80], style, row)

        out: list[ButtonSpec | SelectSpec] = []
        out += [button(a, "success", 0) for a in [a for a in legal if isinstance(a, Claim)][:5]]
        out += [button(a, "success", 1) for a in [a for a in legal if isinstance(a, Capture)][:5]]
        if Draw() in legal:
            # Tsung Shap's draw turns over the next tile of one's pile: a word of its own in
            # Chinese (翻牌, where Kap Shap draws from the wall: 摸牌).
            label = t(locale, "Draw", context=TSUNG_SHAP_CONTEXT)
            out.append(ButtonSpec("play", play_arg(Draw()), label, "primary", 2))
        out += [button(a, "primary", 2) for a in legal if isinstance(a, Place)]
        return out

    def verb(
        self, verb: str, options: Mapping[str, str | None], view: Any, legal: Sequence[Any]
    ) -> str:
        """``/take [tile]`` captures or claims (:meth:`take`), ``/draw`` turns over a tile,
        ``/discard`` places it at the end ``side`` (or ``tile``) names; ``/declare`` is not a
        Tsung Shap move."""
        if verb == "take":
            return self.take(options.get("tile"), legal)
        if verb == "draw":
            return "draw"
        if verb == "discard":
            end = options.get("side") or (options.get("tile") or "").strip().lower()
            if end not in ("left", "right"):
                raise VerbRefusal(
                    Message("Place your tile at an end of the row: `/discard side:left`.")
                )
            return f"place {end}"
        if verb == "declare":
            raise VerbRefusal(
                Message("'{action}' is not a Tsung Shap action.", action="declare"),
                no_such_move=True,
            )
        raise unknown_verb(verb)

    @staticmethod
    def take(tile: str | None, legal: Sequence[Any]) -> str:
        """The action ``/take`` names: a capture or a claim, in notation.

        ``capture pair left`` and ``claim triplet ends`` are used as given; a bare ``pair
        left`` is a claim before the tile is turned over, a capture after. Without an option
        the only capture (or claim) on offer is taken; the engine checks the rest.
        """
        moves = [a for a in legal if isinstance(a, Capture | Claim)]
        if tile is None or not tile.strip():
            if len(moves) == 1:
                return str(moves[0])
            if not moves:
                raise VerbRefusal(Message("There is nothing to capture or claim now."))
            raise VerbRefusal(
                Message("Which one? {choices}.", choices=", ".join(f"`{a}`" for a in moves))
            )
        text = " ".join(tile.strip().lower().split())
        if text.startswith(("capture ", "claim ")):
            return text
        if text.startswith(("pair", "triplet", "sweep")):
            verb = "claim" if any(isinstance(a, Claim) for a in moves) else "capture"
            return f"{verb} {text.replace('sweep', 'triplet', 1)}"
        raise VerbRefusal(
            Message(
                "Not a capture: {tile}. Choose one of the suggestions, e.g. `capture pair left`.",
                tile=quote_input(tile),
            )
        )

    def choices(
        self, verb: str, option: str, view: Any, legal: Sequence[Any], locale: str
    ) -> list[Choice]:
        """``/take tile``: the captures and claims he may make now, with what they score,
        named in notation (``capture pair left``), or in words in Chinese (釣對（左）), the
        value always the notation; ``/discard tile``: the row's two ends."""
        if (verb, option) == ("discard", "tile"):
            return [Choice(t(locale, name), value) for name, value in SIDES]
        if (verb, option) != ("take", "tile"):
            return []
        if not isinstance(view, FishingView) or not view.my_turn:
            return []
        scores = _combos(view)
        out = []
        for action in legal:
            if isinstance(action, Capture | Claim):
                combo = scores.get(str(action))
                tail = (
                    ""
                    if combo is None
                    else f" — {' + '.join(map(str, combo.tiles))}: {combo.score}"
                )
                name = str(action) if locale == "en" else action_label(action, locale)
                out.append(Choice(f"{name}{tail}", str(action)))
        return out
