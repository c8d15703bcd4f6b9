"""The rules of Kap Shap and Kap Tai Shap in words: the one-line summary under a table's
title and the bullet points of ``/table rules`` (RULES.md §2)."""

from __future__ import annotations

from bot.engine.rules import FirstPlayer, Offer, RuleSet
from bot.engine.variants import chosen_variants
from bot.games.dominoes.render.words import FOUR_TWO, timer_line, variants_lines
from bot.locale import N_, nt, t
from bot.render.text import count_text, game_title

__all__ = ["rules_summary", "rules_text"]

_RULE_SET_TITLES = {
    "culin": N_("Culin"),
    "classic": N_("Classic"),
    "last-draw": N_("Last + draw"),
    "custom": N_("Custom"),
}


def rules_summary(rules: RuleSet, locale: str = "en") -> str:
    """One line: ``Culin rules · 2 players · 1 set · hand of 8``."""
    sets = nt(locale, "{n} set", "{n} sets", rules.sets)
    name = _RULE_SET_TITLES.get(rules.rule_set_name, rules.rule_set_name)
    chosen = chosen_variants(rules)
    # The host's variants, as he typed them (/table new variant:…).
    tail = (" · " + ", ".join(f"{k}={v}" for k, v in chosen.items())) if chosen else ""
    return (
        t(
            locale,
            "{name} rules · {players} players · {sets} · hand of {size}",
            name=t(locale, name),
            players=rules.players,
            sets=sets,
            size=rules.hand_size,
        )
        + tail
    )


def rules_text(
    rules: RuleSet,
    *,
    ante: int | None = None,
    turn_seconds: int | None = None,
    locale: str = "en",
) -> str:
    """An explanation of the rules in force, as bullet points."""
    loc = locale
    h = rules.hand_size
    four_two = FOUR_TWO[rules.four_two_value]
    lines = [
        f"**{game_title(rules.game, loc)}** — {rules_summary(rules, loc)}",
        t(
            loc,
            "• **Goal:** a hand of {size} tiles made of one *eye* (two identical tiles) and "
            "{pairs} *ten-pairs* (two tiles whose values total 10 or 20); {four_two}.",
            size=h,
            pairs=rules.pairs,
            four_two=t(loc, four_two),
        ),
    ]
    if rules.military_eyes:
        lines.append(t(loc, "• With several sets, two identical military tiles may form the eye."))
    else:
        lines.append(
            t(loc, "• Only civil tiles (the pairs: Heaven, Earth, Man …) can form the eye.")
        )
    if rules.offer is Offer.ANY:
        take = t(loc, "optionally **take any** face-up discard")
        if rules.exclude_own_discards:
            take += t(loc, " (not your own)")
    else:
        take = t(loc, "optionally **take the most recent** discard")
    if rules.draw_after_take:
        turn = t(
            loc,
            "{take} and, unless that wins, discard one; then **draw** from the wall and, "
            "unless that wins, discard one.",
            take=take,
        )
    else:
        turn = t(
            loc,
            "**either** take the most recent discard **or** draw from the wall; unless that "
            "wins, discard one. A discard the next player does not take is dead.",
        )
    lines.append(t(loc, "• **Your turn:** {turn}", turn=turn))
    if rules.first_turn_extra_draw:
        first = t(
            loc,
            "• **First turn:** the first player starts with {size} tiles and discards one, "
            "then draws and discards again.",
            size=h,
        )
    else:
        first = t(
            loc,
            "• **First turn:** the first player starts with {size} tiles and discards one.",
            size=h,
        )
    lines.append(first)
    how_first = (
        N_("the thrower's four dice, counted around from his right")
        if rules.first_player is FirstPlayer.FOUR_DICE
        else N_("drawing lots")
    )
    lines.append(t(loc, "• **Who starts:** {how}.", how=t(loc, how_first)))
    lines.append(
        t(
            loc,
            "• **Declare** on your turn whenever your hand wins; a false declaration is refused.",
        )
    )
    end = N_("the game is drawn and every ante is refunded")
    if rules.pot_carries_over:
        end = N_("the game is drawn and the pot stays on the table for the next game")
    lines.append(
        t(
            loc,
            "• **Wall empty:** a player may still win by taking a discard; otherwise {end}. "
            "The game also ends after {turns} turns.",
            end=t(loc, end),
            turns=rules.max_turns,
        )
    )
    if rules.stall_guard and not rules.draw_after_take:
        # With a draw after every take (Culin, Last + draw) no turn passes without a draw.
        lines.append(
            t(
                loc,
                "• After {players} turns in a row of taking without drawing, the next player "
                "must draw unless taking wins.",
                players=rules.players,
            )
        )
    lines += variants_lines(rules, loc)
    if ante is not None:
        rake = (
            t(loc, ", minus a {percent}% house cut", percent=rules.rake_percent)
            if rules.rake_percent
            else ""
        )
        lines.append(
            t(
                loc,
                "• **Stakes:** everyone pays {chips}; the winner takes the pot{rake}.",
                chips=count_text(loc, ante, "chip"),
                rake=rake,
            )
        )
    if turn_seconds is not None:
        lines.append(timer_line(turn_seconds, loc))
    return "\n".join(lines)
