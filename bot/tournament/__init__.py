"""Pure event formats: pairing, seating, brackets, standings, tie-breaks and prize payouts.

Like the engine this package has no asyncio, no database and no Discord: standard library plus
networkx (maximum-weight matching for Swiss pairings). Results come in as plain values
(:class:`Result`), and an :class:`Event` round-trips through JSON-compatible dicts so a service
can store every step. See docs/architecture.md §2 and the modules' docstrings for the rules.
"""

from bot.tournament.bracket import (
    Bracket,
    KnockoutStanding,
    double_elimination,
    knockout_standings,
    seed_order,
    single_elimination,
)
from bot.tournament.event import Event
from bot.tournament.matches import bye_result, forfeit_result, match_result, table_result
from bot.tournament.model import (
    DecideBy,
    EventSettings,
    Format,
    GameRecord,
    How,
    Match,
    Player,
    PlayerId,
    Result,
    Round,
    TournamentError,
    seed_players,
)
from bot.tournament.payout import payouts, split_pool
from bot.tournament.roundrobin import round_robin_schedule
from bot.tournament.rules_text import explain_rules
from bot.tournament.seating import seat_by_seed, seat_by_standings, table_sizes
from bot.tournament.standings import (
    PairStanding,
    TableStanding,
    format_score,
    pair_standings,
    table_standings,
)
from bot.tournament.swiss import SwissPairing, pair_swiss

__all__ = [
    "Bracket",
    "DecideBy",
    "Event",
    "EventSettings",
    "Format",
    "GameRecord",
    "How",
    "KnockoutStanding",
    "Match",
    "PairStanding",
    "Player",
    "PlayerId",
    "Result",
    "Round",
    "SwissPairing",
    "TableStanding",
    "TournamentError",
    "bye_result",
    "double_elimination",
    "explain_rules",
    "forfeit_result",
    "format_score",
    "knockout_standings",
    "match_result",
    "pair_standings",
    "pair_swiss",
    "payouts",
    "round_robin_schedule",
    "seat_by_seed",
    "seat_by_standings",
    "seed_order",
    "seed_players",
    "single_elimination",
    "split_pool",
    "table_result",
    "table_sizes",
    "table_standings",
]
