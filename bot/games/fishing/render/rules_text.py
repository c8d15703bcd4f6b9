"""The rules of Tsung Shap in words: the one-line summary under a table's title and the
bullet points of ``/table rules`` (RULES.md §3)."""

from __future__ import annotations

from bot.engine import Settlement
from bot.engine.rules import FourTwo, RuleSet
from bot.games.dominoes.render.words import FOUR_TWO, timer_line, variants_lines
from bot.locale import N_, t
from bot.render.text import count_text, game_title

__all__ = ["fishing_variants", "rules_summary", "rules_text"]


def fishing_variants(rules: RuleSet, locale: str = "en") -> list[str]:
    """The Tsung Shap variants chosen, in words of ``locale`` (the engine's
    :meth:`~bot.engine.rules.RuleSet.variants` says them in English)."""
    out = [
        t(locale, words)
        for flag, words in (
            (rules.auto_capture, N_("auto capture")),
            (rules.triplet_both_ends_only, N_("triplets at both ends only")),
            (rules.sweep_adds_pips, N_("sweep 40 + pips")),
            (rules.second_may_capture_opening, N_("second may capture the opening")),
            (rules.play_until_both_piles_empty, N_("play until both piles are empty")),
        )
        if flag
    ]
    if rules.four_two_value is FourTwo.THREE:
        out.append(t(locale, "4-2 counts 3"))
    elif rules.four_two_value is FourTwo.WILD:
        out.append(t(locale, "Gee Joon wild"))
    if rules.settlement is Settlement.DIFFERENCE:
        out.append(t(locale, "settle {rate} per point", rate=rules.settle_rate))
    return out


def rules_summary(rules: RuleSet, locale: str = "en") -> str:
    """One line: ``Standard rules · 2 players · 1 set · piles of 12``, then the variants."""
    variants = fishing_variants(rules, locale)
    tail = (" · " + ", ".join(variants)) if variants else ""
    return (
        t(
            locale,
            "Standard rules · 2 players · 1 set · piles of {size}",
            size=rules.pile_size,
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
    """Tsung Shap's rules in force (RULES.md §3), as bullet points."""
    loc = locale
    four_two = FOUR_TWO[rules.four_two_value]
    triplet = (
        N_("the turned tile with both end tiles")
        if rules.triplet_both_ends_only
        else N_("the turned tile with the two tiles at either end, or with both end tiles")
    )
    sweep = N_("40 + the pips") if rules.sweep_adds_pips else N_("a flat 40")
    lines = [
        f"**{game_title(rules.game, loc)}** — {rules_summary(rules, loc)}",
        t(
            loc,
            "• **Setup:** each player has a face-down pile of {size} tiles; nobody has a hand.",
            size=rules.pile_size,
        ),
        t(
            loc,
            "• **Your turn:** turn over your next tile (`/draw`); then capture with it (`/take`) "
            "or place it at the left or right end of the row (`/discard side`).",
        ),
        t(loc, "• **Pair:** the same kind as an end tile; scores 10 × the pips of both."),
        t(
            loc,
            "• **Triplet:** {triplet}, totalling 10, 20 or 30; scores the total ({four_two}).",
            triplet=t(loc, triplet),
            four_two=t(loc, four_two),
        ),
        t(
            loc,
            "• **Sweep:** a triplet that empties a 2-tile row scores {sweep}; the sweeper's next "
            "tile starts a new row.",
            sweep=t(loc, sweep),
        ),
    ]
    if rules.auto_capture:
        lines.append(
            t(loc, "• **Auto capture:** the best capture must be taken; nothing can be missed.")
        )
    else:
        lines.append(
            t(
                loc,
                "• **Missed captures:** placing a tile that could have captured lets the "
                "opponent claim one of those captures at the start of his next turn (`/take`).",
            )
        )
    end = (
        N_("both piles are laid out")
        if rules.play_until_both_piles_empty
        else N_("a player has laid out his whole pile")
    )
    lines.append(
        t(
            loc,
            "• **End:** when {end}; the higher score wins, equal scores draw.",
            end=t(loc, end),
        )
    )
    lines += variants_lines(rules, loc)
    if ante is not None and rules.settlement is Settlement.DIFFERENCE:
        lines.append(
            t(
                loc,
                "• **Stakes:** no ante; the loser pays the winner {chips} per point of "
                "difference (at most what he has); a draw pays nothing.",
                chips=count_text(loc, rules.settle_rate, "chip"),
            )
        )
    elif ante is not None:
        rake = (
            t(loc, ", minus a {percent}% house cut", percent=rules.rake_percent)
            if rules.rake_percent
            else ""
        )
        lines.append(
            t(
                loc,
                "• **Stakes:** everyone pays {chips}; the winner takes the pot{rake}; a draw "
                "refunds every ante.",
                chips=count_text(loc, ante, "chip"),
                rake=rake,
            )
        )
    if turn_seconds is not None:
        lines.append(timer_line(turn_seconds, loc))
    return "\n".join(lines)
