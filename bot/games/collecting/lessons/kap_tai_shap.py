"""Kap Tai Shap's lesson: the table (sets, dice, hands, ante and pot) and its winning hand.

The position is a fixed deal for two players; each question is answered by the engine's rules
(the default number of sets, the hand sizes, the four dice counted around, the rake) and the
declaration by applying it.
"""

from __future__ import annotations

from bot.engine.deal import deal_from_tiles, first_seat_from_dice
from bot.engine.family import engine_of
from bot.engine.rules import RuleSet
from bot.engine.tiles import parse_tiles
from bot.games.collecting.engine.actions import parse_action
from bot.lessons.model import Choice, Lesson, Position, Step
from bot.locale import N_

__all__ = ["GAME", "LESSONS"]

GAME = "kap-tai-shap"
ME = 0
DICE = (3, 5, 2, 4)  # the dice of the first-player question
ANTE = 10  # the ante of the pot question, for four players


def _table() -> Position:
    """Two players, one set: the member plays first with 10 tiles (an eye and four ten-pairs)."""
    engine = engine_of(GAME)
    rules: RuleSet = engine.make_rules(GAME, 2, None)
    hands = [
        parse_tiles("6-6 6-6 6-4 5-5 6-1 2-1 3-3 3-1 5-4 6-5"),
        parse_tiles("4-4 5-3 6-2 4-3 1-1 5-2 4-1 3-2 2-2"),
    ]
    deal = deal_from_tiles(rules, hands, first_seat=ME)
    return Position(engine.new_game(rules, ["You", "Computer"], deal), ME)


def _numbers(*values: int) -> tuple[Choice, ...]:
    return tuple(Choice(str(v), str(v)) for v in values)


def _sets_for_five(position: Position, key: str) -> bool:
    rules: RuleSet = engine_of(GAME).make_rules(GAME, 5, None)
    return rules.sets == int(key)


def _others_hold(position: Position, key: str) -> bool:
    rules: RuleSet = position.state.rules
    return rules.hand_size - 1 == int(key)


def _first_player(position: Position, key: str) -> bool:
    players = 4
    return int(key) % players == first_seat_from_dice(0, DICE, players)


def _pot(position: Position, key: str) -> bool:
    rules: RuleSet = engine_of(GAME).make_rules(GAME, 4, None)
    return ANTE * rules.players * (100 - rules.rake_percent) // 100 == int(key)


def _wins(position: Position, key: str) -> bool:
    after, _ = engine_of(GAME).apply(position.state, parse_action(key))
    return after.result is not None and after.result.winner == position.seat


TABLE = Lesson(
    key="kap-tai-shap-table",
    game=GAME,
    title=N_("The Kap Tai Shap table"),
    summary=N_("Sets for many players, the four dice, hands of 10 and 9, the ante and the pot."),
    steps=(
        Step(
            prompt=N_(
                "Kap Tai Shap is for 2 to 20 players, with about two sets for every five. How "
                "many sets do five players use?"
            ),
            position=_table,
            choices=_numbers(1, 2, 3),
            answer="2",
            judge=_sets_for_five,
            right=N_("Right: five players play with two sets, 64 tiles."),
            wrong=N_("About two sets for every five players: five players use 2 sets."),
        ),
        Step(
            prompt=N_(
                "The thrower throws four dice: 3, 5, 2 and 4. He counts the total around to his "
                "right, starting with the player on his right. At a table of four, which player "
                "starts, counted from his right?"
            ),
            position=_table,
            choices=_numbers(1, 2, 3, 4),
            answer="2",
            judge=_first_player,
            right=N_("Right: 14 around four players ends on the second player to his right."),
            wrong=N_("Count 14 around the table of four: 4, 8 and 12 come back to him, 14 is 2."),
        ),
        Step(
            prompt=N_(
                "The first player holds 10 tiles (an eye and four ten-pairs win). How many "
                "tiles do the others hold?"
            ),
            position=_table,
            choices=_numbers(8, 9, 10),
            answer="9",
            judge=_others_hold,
            right=N_("Right: the others hold 9 and take in a tenth on their turn."),
            wrong=N_("The first player starts with one tile more than the others: they hold 9."),
        ),
        Step(
            prompt=N_(
                "Four players each pay an ante of 10 chips into the pot. How many chips does the "
                "winner take?"
            ),
            position=_table,
            choices=_numbers(10, 30, 40),
            answer="40",
            judge=_pot,
            right=N_("Right: the winner takes the whole pot, his own ante too: 40."),
            wrong=N_("The pot holds every ante, the winner's own too: 4 × 10 = 40."),
        ),
        Step(
            prompt=N_("You play first and your 10 tiles are an eye and four ten-pairs. What now?"),
            position=_table,
            answer="declare",
            judge=_wins,
            right=N_("Right: you declare and take the pot."),
            wrong=N_("Your hand wins: declare it before you discard anything."),
        ),
    ),
)

LESSONS: tuple[Lesson, ...] = (TABLE,)
