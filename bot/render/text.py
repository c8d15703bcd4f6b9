"""Text (Discord markdown) for tables, hands and rules: pure functions of engine values.

The Discord layer wraps these strings in embeds; nothing here imports discord, so the wording is
testable on its own and the same for every surface (table message, DM, ephemeral reply).

What a function may show is decided by what it is given: the public functions take a spectator's
:class:`~bot.engine.View` (``view(state, None)``), whose ``hand`` is empty, and only
:func:`hand_text` is ever given a seat's own hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.engine import (
    AnyAction,
    AnyEvent,
    AnyView,
    Capture,
    Captured,
    Claim,
    Claimed,
    Declare,
    Declared,
    Discard,
    Discarded,
    Draw,
    Drew,
    FishingPhase,
    FishingResult,
    FishingView,
    Game,
    GameDrawn,
    MissedCapture,
    Phase,
    Place,
    Placed,
    PoolTile,
    Result,
    RuleSet,
    Settlement,
    Swept,
    Take,
    Tile,
    TileTurned,
    Took,
    View,
    Witness,
    sort_tiles,
)
from bot.engine.actions import End
from bot.engine.hands import ten_pair_values
from bot.engine.rules import FirstPlayer, FourTwo, Offer
from bot.engine.variants import chosen_variants
from bot.limits import format_duration

__all__ = [
    "GAME_TITLES",
    "SeatLabel",
    "action_label",
    "deadline_text",
    "fishing_fields",
    "game_title",
    "hand_text",
    "legal_text",
    "plural",
    "pool_text",
    "private_event_text",
    "recent_text",
    "result_text",
    "rules_summary",
    "rules_text",
    "scores_text",
    "seats_text",
    "tile_name",
    "turn_text",
    "witness_text",
]

GAME_TITLES: dict[Game, str] = {
    Game.KAP_SHAP: "Kap Shap 夾十",
    Game.KAP_TAI_SHAP: "Kap Tai Shap 夾大十",
    Game.TSUNG_SHAP: "Tsung Shap 爭十",
}

_RULE_SET_TITLES = {
    "culin": "Culin",
    "classic": "Classic",
    "last-draw": "Last + draw",
    "custom": "Custom",
}


@dataclass(frozen=True, slots=True)
class SeatLabel:
    """How a seat is written: its name and whether a computer plays it."""

    name: str
    is_ai: bool = False


def game_title(game: Game) -> str:
    """``Kap Shap 夾十``."""
    return GAME_TITLES.get(game, str(game))


def tile_name(tile: Tile) -> str:
    """The tile's notation in code style, then its English and Chinese names (6-5 Axe 斧頭)."""
    return f"`{tile}` {tile.english} {tile.chinese}"


def deadline_text(deadline: float) -> str:
    """A Discord timestamp that each client shows as relative time ("in 2 minutes")."""
    return f"<t:{int(deadline)}:R>"


def _counted(tiles: Iterable[Tile]) -> list[tuple[Tile, int]]:
    counts: dict[Tile, int] = {}
    for tile in sort_tiles(tiles):
        counts[tile] = counts.get(tile, 0) + 1
    return list(counts.items())


def hand_text(hand: Sequence[Tile]) -> str:
    """A private hand, one kind per line, in rank order, with counts (6-6 Heaven 天 ×2).

    Only ever shown to the hand's owner (his DM, or an ephemeral reply).
    """
    if not hand:
        return "*(no tiles)*"
    return "\n".join(
        tile_name(tile) + (f" ×{count}" if count > 1 else "") for tile, count in _counted(hand)
    )


def pool_text(pool: Sequence[PoolTile]) -> str:
    """The face-up discards grouped by kind; dead ones (never takeable) listed apart."""
    if not pool:
        return "*(no discards yet)*"
    live = [p.tile for p in pool if not p.dead]
    dead = [p.tile for p in pool if p.dead]

    def group(tiles: list[Tile]) -> str:
        return " · ".join(
            f"`{tile}` {tile.english}" + (f" ×{count}" if count > 1 else "")
            for tile, count in _counted(tiles)
        )

    lines = []
    if live:
        lines.append(group(live))
    if dead:
        lines.append(f"dead: {group(dead)}")
    return "\n".join(lines)


def seats_text(view: AnyView, seats: Sequence[SeatLabel]) -> str:
    """Seats in play order with hand sizes (Tsung Shap: score and pile); the player to act is
    marked ▶."""
    if isinstance(view, FishingView):
        return scores_text(view, seats)
    lines = []
    for i, seat in enumerate(seats):
        marker = "▶" if view.result is None and i == view.current else "•"
        who = f"**{seat.name}**" if marker == "▶" else seat.name
        robot = " 🤖" if seat.is_ai else ""
        size = view.hand_sizes[i] if i < len(view.hand_sizes) else 0
        first = " (first)" if i == view.first_seat else ""
        lines.append(f"{marker} {who}{robot} — {plural(size, 'tile')}{first}")
    return "\n".join(lines)


def turn_text(view: AnyView, seats: Sequence[SeatLabel], deadline: float | None) -> str:
    """Whose turn it is, what he is expected to do, and when his time runs out."""
    if view.result is not None:
        return result_text(view.result, seats)
    seat = seats[view.current]
    steps: dict[str, str] = {
        Phase.TAKE_OR_DRAW: "take a discard or draw",
        Phase.DISCARD: "discard a tile or declare",
        Phase.DRAW: "draw from the wall",
        FishingPhase.TURN_OVER: "turn over a tile (`/draw`)",
        FishingPhase.PLAY: "capture (`/take`) or place the tile (`/discard side`)",
    }
    if isinstance(view, FishingView) and view.phase is FishingPhase.TURN_OVER and view.pending:
        step = "claim a missed capture (`/take`) or turn over a tile (`/draw`)"
    else:
        step = steps.get(str(view.phase), "play")
    text = f"Turn {view.turn}: **{seat.name}** to {step}."
    if deadline is not None and not seat.is_ai:
        text += f" Time runs out {deadline_text(deadline)}."
    return text


def plural(count: int, noun: str) -> str:
    """``1 tile``, ``2 tiles``, ``1,000 chips``: a count with its noun, singular for one."""
    return f"{count:,} {noun}" + ("" if count == 1 else "s")


def recent_text(lines: Sequence[str], limit: int = 8) -> str:
    """The last few public events, oldest first."""
    shown = [line for line in lines if line][-limit:]
    return "\n".join(shown) if shown else "*(nothing yet)*"


def result_text(result: Result | FishingResult, seats: Sequence[SeatLabel]) -> str:
    """How the game ended, in one line."""
    if isinstance(result, FishingResult):
        scores = ", ".join(f"{seats[i].name} {p}" for i, p in enumerate(result.scores))
        if result.winner is None:
            return f"The game is drawn: equal scores ({scores})."
        return f"🏆 **{seats[result.winner].name}** won on turn {result.turn}: {scores}."
    if result.winner is None:
        why = "the wall is exhausted" if result.reason.value == "wall" else "the turn limit"
        return f"The game is drawn: {why}."
    how = {"dealt": "with his dealt tiles", "take": "by taking a discard", "draw": "by drawing"}
    by = how.get(result.win_by.value if result.win_by is not None else "", "")
    tail = f" {by}" if by else ""
    return f"🏆 **{seats[result.winner].name}** won on turn {result.turn}{tail}."


def _pair_total(a: Tile, b: Tile, four_two: FourTwo) -> int:
    values = ten_pair_values(a, b, four_two)
    return sum(values) if values is not None else a.pips + b.pips


def witness_text(witness: Witness, four_two: FourTwo = FourTwo.THREE) -> str:
    """The winning arrangement in one line: the eye, then each ten-pair with its total."""
    parts = [f"eye `{witness.eye[0]}` `{witness.eye[1]}`"]
    parts += [f"`{a}`+`{b}` = {_pair_total(a, b, four_two)}" for a, b in witness.pairs]
    return " · ".join(parts)


def private_event_text(event: AnyEvent, seat: int, names: Sequence[str]) -> str | None:
    """One of ``seat``'s own moves told to him ("You drew 6-5 Axe 斧頭."); None for events
    that are not his moves. Private: a drawn tile is named (Tsung Shap hides nothing)."""
    match event:
        case TileTurned(s, tile, pile_left, _relay) if s == seat:
            return f"You turned over {tile_name(tile)} ({pile_left} left in your pile)."
        case Placed(s, tile, end, _auto) if s == seat:
            where = "to start a new row" if end is None else f"at the {end} end"
            return f"You placed {tile_name(tile)} {where}."
        case Captured(s, kind, _end, tiles, score, sweep) if s == seat:
            what = "swept the row" if sweep else f"captured a {kind}"
            return f"You {what}: {' + '.join(f'`{t}`' for t in tiles)}, {score} points."
        case Swept(s) if s == seat:
            return "A sweep: your next tile starts a new row."
        case Claimed(s, _from, combo) if s == seat:
            joined = " + ".join(f"`{t}`" for t in combo.tiles)
            return f"You claimed the missed {combo.kind}: {joined}, {combo.score} points."
        case MissedCapture(s, claimant, _missed) if s == seat:
            return f"You could have captured: {names[claimant]} may claim it."
        case Took(s, tile, from_seat) if s == seat:
            return f"You took {tile_name(tile)} discarded by {names[from_seat]}."
        case Drew(s, tile, wall_left) if s == seat:
            return f"You drew {tile_name(tile)} ({wall_left} left in the wall)."
        case Discarded(s, tile) if s == seat:
            return f"You discarded {tile_name(tile)}."
        case Declared(s, _, _) if s == seat:
            return "🏆 You declared a winning hand!"
        case GameDrawn():
            return "The game is drawn."
    return None


def action_label(action: AnyAction) -> str:
    """A short button label for an action."""
    match action:
        case Capture(kind, end):
            return f"Capture {kind} {end}"
        case Claim(kind, end):
            return f"Claim {kind} {end}"
        case Place(end):
            return f"Place {end}"
        case Take(tile):
            return "Take" if tile is None else f"Take {tile}"
        case Draw():
            return "Draw"
        case Discard(tile):
            return f"Discard {tile}"
        case Declare():
            return "Declare"
    raise AssertionError(f"unknown action {action!r}")


def legal_text(view: AnyView, legal: Sequence[AnyAction]) -> str:
    """What the seat may do now, in words (for his DM)."""
    if view.result is not None:
        return "The game is over."
    if not view.my_turn:
        return "It is not your turn: you will be told here when it is."
    if isinstance(view, FishingView):
        return _fishing_legal_text(view, legal)
    takes = [a.tile for a in legal if isinstance(a, Take) and a.tile is not None]
    discards = [a.tile for a in legal if isinstance(a, Discard)]
    options = []
    if Declare() in legal:
        options.append("**declare** your winning hand")
    if takes:
        options.append("**take** " + ", ".join(f"`{t}`" for t in takes))
    if Draw() in legal:
        options.append("**draw** from the wall")
    if discards:
        options.append("**discard** one of " + ", ".join(f"`{t}`" for t in discards))
    return "**It is your turn.** You may " + ", or ".join(options) + "."


def hand_prompt(view: View, legal: Sequence[AnyAction]) -> str:
    """The one line of a hand DM saying what to do: the picture shows the hand, the new tile
    and the discards that may be taken, and the buttons carry the moves, so nothing is listed."""
    if view.result is not None:
        return "The game is over."
    if not view.my_turn:
        return "It is not your turn: you will be told here when it is."
    takes = any(isinstance(a, Take) for a in legal)
    if Declare() in legal:
        return "**It is your turn: you can win!** Declare, or discard a tile."
    if any(isinstance(a, Discard) for a in legal):
        return "**It is your turn:** discard a tile."
    if takes and Draw() in legal:
        return "**It is your turn:** take a discard framed in gold, or draw from the wall."
    if takes:
        return "**It is your turn:** the wall is empty: take a discard framed in gold."
    return "**It is your turn:** draw from the wall."


def _fishing_legal_text(view: FishingView, legal: Sequence[AnyAction]) -> str:
    options = []
    claims = {str(c.claim): c for c in view.pending}
    for action in legal:
        if isinstance(action, Claim):
            combo = claims.get(str(action))
            score = f" ({combo.score} points)" if combo is not None else ""
            options.append(f"`{action}`{score} with `/take`")
    if Draw() in legal:
        options.append("**turn over** your next tile with `/draw`")
    captures = [c for c in view.options if c.capture in legal]
    for combo in captures:
        options.append(f"`{combo.capture}` ({combo.score} points) with `/take`")
    if Place(End.LEFT) in legal:
        options.append("**place** it at the left or right end with `/discard side`")
    turned = f" You turned over {tile_name(view.turned)}." if view.turned is not None else ""
    return f"**It is your turn.**{turned} You may " + ", or ".join(options) + "."


def fishing_fields(view: FishingView, seats: Sequence[SeatLabel]) -> list[tuple[str, str]]:
    """The Tsung Shap table message's fields (name, value): scores and piles, the row, the
    tile in play and any missed capture that may be claimed."""
    row = " ".join(f"`{t}`" for t in view.row) if view.row else "*(empty)*"
    fields = [("Scores and piles", scores_text(view, seats)), ("Row (left → right)", row)]
    if view.turned is not None and view.result is None:
        fields.append(("Turned over", tile_name(view.turned)))
    if view.pending and view.result is None:
        missed = "\n".join(
            f"`{c.claim}`: {' + '.join(f'`{t}`' for t in c.tiles)} = {c.score}"
            for c in view.pending
        )
        fields.append(("Missed capture (may be claimed)", missed))
    return fields


def scores_text(view: FishingView, seats: Sequence[SeatLabel]) -> str:
    """Tsung Shap seats: score, tiles left in the pile, tiles captured; ▶ marks the player to
    act."""
    lines = []
    for i, seat in enumerate(seats):
        marker = "▶" if view.result is None and i == view.current else "•"
        who = f"**{seat.name}**" if marker == "▶" else seat.name
        robot = " 🤖" if seat.is_ai else ""
        score = view.scores[i] if i < len(view.scores) else 0
        pile = view.pile_sizes[i] if i < len(view.pile_sizes) else 0
        left = plural(pile, "tile")
        lines.append(f"{marker} {who}{robot} — **{score}** points · {left} left in the pile")
    return "\n".join(lines)


def rules_summary(rules: RuleSet) -> str:
    """One line: ``Culin rules · 2 players · 1 set · hand of 8``."""
    if rules.game is Game.TSUNG_SHAP:
        variants = rules.variants()
        tail = (" · " + ", ".join(variants)) if variants else ""
        return f"Standard rules · 2 players · 1 set · piles of {rules.pile_size}{tail}"
    sets = "1 set" if rules.sets == 1 else f"{rules.sets} sets"
    name = _RULE_SET_TITLES.get(rules.rule_set_name, rules.rule_set_name)
    chosen = chosen_variants(rules)
    # The host's variants, as he typed them (/table new variant:…).
    tail = (" · " + ", ".join(f"{k}={v}" for k, v in chosen.items())) if chosen else ""
    return f"{name} rules · {rules.players} players · {sets} · hand of {rules.hand_size}{tail}"


def rules_text(
    rules: RuleSet,
    *,
    ante: int | None = None,
    turn_seconds: int | None = None,
) -> str:
    """An explanation of the rules in force, as bullet points."""
    if rules.game is Game.TSUNG_SHAP:
        return _fishing_rules_text(rules, ante=ante, turn_seconds=turn_seconds)
    h = rules.hand_size
    four_two = {
        FourTwo.THREE: "4-2 counts 3",
        FourTwo.SIX: "4-2 counts 6",
        FourTwo.WILD: "4-2 and 2-1 count 3 or 6 (Gee Joon wild)",
    }[rules.four_two_value]
    lines = [
        f"**{game_title(rules.game)}** — {rules_summary(rules)}",
        f"• **Goal:** a hand of {h} tiles made of one *eye* (two identical tiles) and "
        f"{rules.pairs} *ten-pairs* (two tiles whose values total 10 or 20); {four_two}.",
    ]
    if rules.military_eyes:
        lines.append("• With several sets, two identical military tiles may form the eye.")
    else:
        lines.append("• Only civil tiles (the pairs: Heaven, Earth, Man …) can form the eye.")
    if rules.offer is Offer.ANY:
        take = "optionally **take any** face-up discard"
        if rules.exclude_own_discards:
            take += " (not your own)"
    else:
        take = "optionally **take the most recent** discard"
    if rules.draw_after_take:
        turn = (
            f"{take} and, unless that wins, discard one; then **draw** from the wall and, "
            "unless that wins, discard one."
        )
    else:
        turn = (
            "**either** take the most recent discard **or** draw from the wall; unless that "
            "wins, discard one. A discard the next player does not take is dead."
        )
    lines.append(f"• **Your turn:** {turn}")
    first = f"• **First turn:** the first player starts with {h} tiles and discards one"
    first += ", then draws and discards again." if rules.first_turn_extra_draw else "."
    lines.append(first)
    how_first = (
        "the thrower's four dice, counted around from his right"
        if rules.first_player is FirstPlayer.FOUR_DICE
        else "drawing lots"
    )
    lines.append(f"• **Who starts:** {how_first}.")
    lines.append(
        "• **Declare** on your turn whenever your hand wins; a false declaration is refused."
    )
    end = "the game is drawn and every ante is refunded"
    if rules.pot_carries_over:
        end = "the game is drawn and the pot stays on the table for the next game"
    lines.append(
        f"• **Wall empty:** a player may still win by taking a discard; otherwise {end}. "
        f"The game also ends after {rules.max_turns} turns."
    )
    if rules.stall_guard and not rules.draw_after_take:
        # With a draw after every take (Culin, Last + draw) no turn passes without a draw.
        lines.append(
            f"• After {rules.players} turns in a row of taking without drawing, the next player "
            "must draw unless taking wins."
        )
    lines += _variants_lines(rules)
    if ante is not None:
        rake = f", minus a {rules.rake_percent}% house cut" if rules.rake_percent else ""
        lines.append(
            f"• **Stakes:** everyone pays {plural(ante, 'chip')}; the winner takes the pot{rake}."
        )
    if turn_seconds is not None:
        lines.append(
            f"• **Turn timer:** {format_duration(turn_seconds)}; then the computer plays that "
            "turn for you."
        )
    return "\n".join(lines)


def _variants_lines(rules: RuleSet) -> list[str]:
    """The variants the host chose (``/table new variant:…``), as he typed them."""
    chosen = chosen_variants(rules)
    if not chosen:
        return []
    return ["• **Variants:** " + " · ".join(f"`{k}={v}`" for k, v in chosen.items())]


def _fishing_rules_text(rules: RuleSet, *, ante: int | None, turn_seconds: int | None) -> str:
    """Tsung Shap's rules in force (RULES.md §3), as bullet points."""
    four_two = {
        FourTwo.THREE: "4-2 counts 3",
        FourTwo.SIX: "4-2 counts 6",
        FourTwo.WILD: "4-2 and 2-1 count 3 or 6 (Gee Joon wild)",
    }[rules.four_two_value]
    triplet = (
        "the turned tile with both end tiles"
        if rules.triplet_both_ends_only
        else "the turned tile with the two tiles at either end, or with both end tiles"
    )
    sweep = "40 + the pips" if rules.sweep_adds_pips else "a flat 40"
    lines = [
        f"**{game_title(rules.game)}** — {rules_summary(rules)}",
        f"• **Setup:** each player has a face-down pile of {rules.pile_size} tiles; "
        "nobody has a hand.",
        "• **Your turn:** turn over your next tile (`/draw`); then capture with it (`/take`) "
        "or place it at the left or right end of the row (`/discard side`).",
        "• **Pair:** the same kind as an end tile; scores 10 × the pips of both.",
        f"• **Triplet:** {triplet}, totalling 10, 20 or 30; scores the total ({four_two}).",
        f"• **Sweep:** a triplet that empties a 2-tile row scores {sweep}; the sweeper's next "
        "tile starts a new row.",
    ]
    if rules.auto_capture:
        lines.append("• **Auto capture:** the best capture must be taken; nothing can be missed.")
    else:
        lines.append(
            "• **Missed captures:** placing a tile that could have captured lets the opponent "
            "claim one of those captures at the start of his next turn (`/take`)."
        )
    end = (
        "both piles are laid out"
        if rules.play_until_both_piles_empty
        else "a player has laid out his whole pile"
    )
    lines.append(f"• **End:** when {end}; the higher score wins, equal scores draw.")
    lines += _variants_lines(rules)
    if ante is not None and rules.settlement is Settlement.DIFFERENCE:
        lines.append(
            "• **Stakes:** no ante; the loser pays the winner "
            f"{plural(rules.settle_rate, 'chip')} per point of difference (at most what he "
            "has); a draw pays nothing."
        )
    elif ante is not None:
        rake = f", minus a {rules.rake_percent}% house cut" if rules.rake_percent else ""
        lines.append(
            f"• **Stakes:** everyone pays {plural(ante, 'chip')}; the winner takes the pot{rake}; "
            "a draw refunds every ante."
        )
    if turn_seconds is not None:
        lines.append(
            f"• **Turn timer:** {format_duration(turn_seconds)}; then the computer plays that "
            "turn for you."
        )
    return "\n".join(lines)
