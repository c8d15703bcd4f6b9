"""Kap Shap's lessons: the tiles and the ten-pairs; a turn (discard, take or draw, declare).

Every position is a fixed deal written in tiles, and every judge asks the engine: the tile
table (names, civil or military), the ten-pair and winning-hand checks of the rules in force,
the legal actions and what applying one does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.engine.deal import deal_from_tiles
from bot.engine.family import engine_of
from bot.engine.rules import RuleSet
from bot.engine.tiles import KINDS, Tile, parse_tile, parse_tiles
from bot.games.collecting.engine.actions import Declare, parse_action
from bot.games.collecting.engine.hands import eye_kinds, is_ten_pair, is_winning
from bot.lessons.model import Choice, Lesson, Position, Step
from bot.locale import N_

__all__ = ["GAME", "LESSONS"]

GAME = "kap-shap"
ME = 0  # the member's seat in every position


def _rules(rule_set: str | None = None) -> RuleSet:
    rules: RuleSet = engine_of(GAME).make_rules(GAME, 2, rule_set)
    return rules


def _position(
    mine: str,
    theirs: str,
    wall: str = "",
    *,
    first: int = ME,
    moves: Sequence[str] = (),
    rule_set: str | None = None,
) -> Position:
    """A Kap Shap game dealt exactly (``mine``: the member's hand; ``theirs``: the other seat's;
    ``wall``: the first tiles drawn), with ``moves`` played on it (``rule_set``: Culin's by
    default)."""
    engine = engine_of(GAME)
    rules = _rules(rule_set)
    hands = [parse_tiles(mine), parse_tiles(theirs)]
    deal = deal_from_tiles(rules, hands, parse_tiles(wall), first_seat=first)
    state = engine.new_game(rules, ["You", "Computer"], deal)
    for move in moves:
        state, _ = engine.apply(state, engine.parse_action(move))
    return Position(state, ME)


def _tiles(*texts: str) -> tuple[Choice, ...]:
    return tuple(Choice(text, text) for text in texts)


# --- the engine's verdicts ----------------------------------------------------------------


def _is_heaven(position: Position, key: str) -> bool:
    return parse_tile(key).english == "Heaven"


def _is_military(position: Position, key: str) -> bool:
    return parse_tile(key).military


def _pairs_with(partner: str) -> Callable[[Position, str], bool]:
    def judge(position: Position, key: str) -> bool:
        rules: RuleSet = position.state.rules
        return is_ten_pair(parse_tile(partner), parse_tile(key), rules.four_two_value)

    return judge


def _is_eye(position: Position, key: str) -> bool:
    rules: RuleSet = position.state.rules
    a, b = parse_tiles(key)
    return a == b and a.index in eye_kinds(rules.military_eyes)


def _waiting_on(tiles: Sequence[Tile], rules: RuleSet) -> int:
    """How many tiles of the set not in ``tiles`` would each make them a winning hand."""
    count = 0
    for kind in KINDS:
        unseen = kind.copies_per_set * rules.sets - sum(1 for t in tiles if t == kind)
        if unseen > 0 and is_winning([*tiles, kind], rules):
            count += unseen
    return count


def _best_discard(position: Position, key: str) -> bool:
    """The discard after which the most unseen tiles would win (the hand's own tiles are the
    only ones seen at the first turn)."""
    state = position.state
    hand: list[Tile] = list(position_hand(position))
    rules: RuleSet = state.rules

    def after(text: str) -> int:
        rest = list(hand)
        rest.remove(parse_tile(text.removeprefix("discard ")))
        return _waiting_on(rest, rules)

    discards = [
        str(a) for a in engine_of(GAME).legal_actions(state) if str(a).startswith("discard")
    ]
    best = max(after(text) for text in discards)
    return key in discards and best > 0 and after(key) == best


def position_hand(position: Position) -> tuple[Tile, ...]:
    """The member's hand in a position (as his view shows it)."""
    view = engine_of(GAME).view(position.state, position.seat)
    return tuple(view.hand)


def _lets_declare(position: Position, key: str) -> bool:
    engine = engine_of(GAME)
    after, _ = engine.apply(position.state, parse_action(key))
    return after.result is None and any(isinstance(a, Declare) for a in engine.legal_actions(after))


def _wins(position: Position, key: str) -> bool:
    after, _ = engine_of(GAME).apply(position.state, parse_action(key))
    return after.result is not None and after.result.winner == position.seat


# --- the positions --------------------------------------------------------------------------

_HAND = "6-6 6-6 6-4 5-5 6-1 2-1 3-3 5-4"  # an eye, two ten-pairs and two loose tiles
_OTHER = "3-1 4-4 5-3 6-2 4-3 1-1 5-2 6-5"


def _names() -> Position:
    return _position(_HAND, "3-1 4-4 5-3 6-2 4-3 1-1 5-2")


def _first_turn() -> Position:
    return _position(_HAND, "3-1 4-4 5-3 6-2 4-3 1-1 5-2")


def _take_or_draw() -> Position:
    # The other seat plays first: it discards 3-1, draws 4-1 and lets it go (Culin's first
    # turn); the member, waiting on a tile worth 4, may take the 3-1.
    return _position(
        "6-6 6-6 6-4 5-5 6-1 2-1 3-3",
        _OTHER,
        "4-1 6-3",
        first=1,
        moves=("discard 3-1", "draw", "discard 4-1"),
    )


def _declare() -> Position:
    return _position(
        "6-6 6-6 6-4 5-5 6-1 2-1 3-3",
        _OTHER,
        "4-1 6-3",
        first=1,
        moves=("discard 3-1", "draw", "discard 4-1", "take 3-1"),
    )


def _classic_take_or_draw() -> Position:
    # Classic: the other seat discards 3-1 and his turn ends; the member draws 6-3 and lets it
    # go; the other seat draws 4-1 and discards it. The 3-1 is dead now, and the wall's next
    # tile is 2-2.
    return _position(
        "6-6 6-6 6-4 5-5 6-1 2-1 3-3",
        _OTHER,
        "6-3 4-1 2-2",
        first=1,
        moves=("discard 3-1", "draw", "discard 6-3", "draw", "discard 4-1"),
        rule_set="classic",
    )


TILES = Lesson(
    key="kap-shap-tiles",
    game=GAME,
    title=N_("The tiles and the ten-pairs"),
    summary=N_("The 32 tiles, civil and military, the eye and the ten-pairs (4-2 counts 3)."),
    steps=(
        Step(
            prompt=N_(
                "A set has 32 tiles of 21 kinds, each with a name. Which of these tiles is "
                "Heaven 天?"
            ),
            position=_names,
            choices=_tiles("1-1", "6-6", "4-4", "6-5"),
            answer="6-6",
            judge=_is_heaven,
            right=N_("Right: 6-6 is Heaven 天, the highest tile; 1-1 is Earth 地, 4-4 Man 人."),
            wrong=N_("Heaven 天 is the double six, 6-6: twelve pips, the highest tile."),
        ),
        Step(
            prompt=N_(
                "Civil tiles come twice in a set, military tiles once. Which of these tiles is "
                "military?"
            ),
            position=_names,
            choices=_tiles("5-5", "3-1", "6-3", "6-1"),
            answer="6-3",
            judge=_is_military,
            right=N_("Right: 6-3 is a military nine 雜九, one copy in a set."),
            wrong=N_(
                "The civil tiles are the doubles and 3-1, 6-5, 6-4, 6-1, 5-1; 6-3 is military."
            ),
        ),
        Step(
            prompt=N_(
                "A ten-pair is two tiles whose pips total 10 or 20. Which tile makes a ten-pair "
                "with 6-4?"
            ),
            position=_names,
            choices=_tiles("3-3", "5-5", "5-4"),
            answer="5-5",
            judge=_pairs_with("6-4"),
            right=N_("Right: 6-4 and 5-5 total 20."),
            wrong=N_("6-4 has 10 pips, so it needs a tile of 10 pips to total 20: 5-5."),
        ),
        Step(
            prompt=N_("In making tens, 4-2 counts 3, not 6. Which tile makes a ten-pair with 4-2?"),
            position=_names,
            choices=_tiles("2-2", "4-3", "6-4"),
            answer="4-3",
            judge=_pairs_with("4-2"),
            right=N_("Right: 4-2 counts 3 and 4-3 has 7: together 10."),
            wrong=N_("4-2 counts 3, so it needs a tile of 7 pips: 4-3 (2-2 would need 4-2 at 6)."),
        ),
        Step(
            prompt=N_(
                "A winning hand is an eye (two identical tiles) and ten-pairs. Which two tiles "
                "are an eye?"
            ),
            position=_names,
            choices=_tiles("6-3 5-4", "6-6 6-6", "3-1 2-2"),
            answer="6-6 6-6",
            judge=_is_eye,
            right=N_("Right: two 6-6 are identical, an eye."),
            wrong=N_(
                "An eye is two identical tiles, such as 6-6 and 6-6; two nines of different "
                "kinds are not."
            ),
        ),
    ),
)

TURN = Lesson(
    key="kap-shap-turn",
    game=GAME,
    title=N_("Discard, take or draw, declare"),
    summary=N_("The first turn, taking a discard or drawing from the wall, and declaring a win."),
    steps=(
        Step(
            prompt=N_(
                "You play first and hold 8 tiles: an eye, two ten-pairs and two loose tiles. "
                "Discard the tile that leaves you waiting on the most tiles."
            ),
            position=_first_turn,
            answer="discard 5-4",
            judge=_best_discard,
            right=N_(
                "Right: now a 3-1 or a 2-2 (four tiles) would pair your 3-3. Under Culin's "
                "rules you draw once more and discard again."
            ),
            wrong=N_(
                "Keep the eye and the ten-pairs: 3-3 is paired by four tiles (3-1, 2-2), 5-4 "
                "only by two (6-5), so discard 5-4."
            ),
        ),
        Step(
            prompt=N_(
                "Your turn: take a face-up discard or draw from the wall. Your hand waits on a "
                "tile worth 4. What do you do?"
            ),
            position=_take_or_draw,
            answer="take 3-1",
            judge=_lets_declare,
            right=N_("Right: 3-1 and 3-3 total 10, and your hand wins."),
            wrong=N_("The 3-1 lying face up pairs your 3-3 (4 + 6 = 10): take it."),
        ),
        Step(
            prompt=N_("Your 8 tiles are an eye and three ten-pairs. What now?"),
            position=_declare,
            answer="declare",
            judge=_wins,
            right=N_("Right: you declare and win the pot."),
            wrong=N_("Your hand wins: declare it before you discard anything."),
        ),
    ),
)

RULE_SETS = Lesson(
    key="kap-shap-rule-sets",
    game=GAME,
    title=N_("Culin's rules against Classic"),
    summary=N_("Culin's rules let you take any face-up discard; Classic only the most recent one."),
    steps=(
        Step(
            prompt=N_(
                "Culin's rules (the default): you may take any face-up discard, not only the "
                "most recent one. Your hand waits on a tile worth 4. What do you do?"
            ),
            position=_take_or_draw,
            answer="take 3-1",
            judge=_lets_declare,
            right=N_(
                "Right: under Culin's rules the older 3-1 is still yours to take, and it wins."
            ),
            wrong=N_("Under Culin's rules you may take the older 3-1, and it pairs your 3-3."),
        ),
        Step(
            prompt=N_(
                "Classic rules: only the most recent discard may be taken, the older ones are "
                "dead. Your hand waits on a tile worth 4, and the wall's next tile is 2-2. What "
                "do you do?"
            ),
            position=_classic_take_or_draw,
            answer="draw",
            judge=_lets_declare,
            right=N_("Right: the 2-2 pairs your 3-3 (4 + 6 = 10), and your hand wins."),
            wrong=N_("Under Classic the 3-1 is dead and the 4-1 does not help you: draw."),
        ),
    ),
)

LESSONS: tuple[Lesson, ...] = (TILES, TURN, RULE_SETS)
