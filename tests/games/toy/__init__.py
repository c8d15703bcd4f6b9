"""High Pair, a toy game defined only in the tests (issue 19: proof that a game is one place).

36 cards, the values 1 to 9 four times each; piece ``p`` is the card ``p // 4 + 1`` and a card
is written as its digit. Two players are dealt three cards each (four with the variant
``hand=4``); the rest is a face-down stock and the first seat is drawn by lots. A turn is
``draw`` (the top of the stock) then ``discard N`` or, holding a pair, ``show``. Showing ends
the game: the higher best pair wins (no pair loses to any pair; equal pairs draw). An empty
stock at the start of a turn ends it the same way.

Nothing in ``bot/`` or ``cogs/`` names this game: a test registers :data:`TOY` for the length
of a ``with registered(TOY):`` block and the generic layers find it through the registry. Its
words are English message ids of its own (no catalogue holds them, so every language shows the
English). It has no ``sim`` role: the simulator plays it through its generic runner.
"""

from bot.games import N_, FamilyInfo, GameInfo

__all__ = ["HIGH_PAIR", "TOY"]

HIGH_PAIR = GameInfo(
    name="high-pair",
    family="toy",
    title=N_("High Pair"),
    short=N_("High Pair"),
    table_choice=N_("High Pair (2 players)"),
    event_choice=N_("High Pair (Swiss)"),
    players=(2, 2),
    default_seats=2,
    aliases=("hp",),
)

TOY = FamilyInfo(
    name="toy",
    games=(HIGH_PAIR,),
    roles={
        "engine": "tests.games.toy.engine",
        "ai": "tests.games.toy.ai",
        "render": "tests.games.toy.render",
        "terminal": "tests.games.toy.terminal",
    },
)
"""The toy family: no ``sim`` role (the simulator's generic runner plays it)."""
