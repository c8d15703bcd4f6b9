"""The rules of an event in plain words, for the sign-up message and ``/tournament rules``."""

from __future__ import annotations

from bot.tournament.model import DecideBy, EventSettings, Format
from bot.tournament.payout import split_pool

__all__ = ["explain_rules"]

_GAME_NAMES = {"kap-shap": "Kap Shap", "kap-tai-shap": "Kap Tai Shap", "tsung-shap": "Tsung Shap"}


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _match_length(s: EventSettings) -> str:
    if s.decide_by is DecideBy.POINTS:
        return (
            f"Each match is {s.best_of} game{'s' if s.best_of > 1 else ''}: the player with "
            "more total points wins, then the one with more games won; otherwise the match "
            "is drawn."
        )
    if s.best_of == 1:
        return "Each match is one game; a drawn game makes a drawn match."
    return (
        f"Each match is best of {s.best_of}: the first to win {s.wins_needed} games wins. "
        f"A drawn game does not count, and after {s.best_of} games the leader wins; "
        "level is a drawn match."
    )


def _two_player_tiebreaks() -> str:
    return (
        "Standings: a match win scores 1, a drawn match ½, a loss 0. Ties are broken by "
        "Median-Buchholz (the opponents' scores added up, without the best and the worst), "
        "then Buchholz (all the opponents' scores), then head-to-head among the tied players, "
        "then games won, then seed."
    )


def explain_rules(settings: EventSettings, entrants: int | None = None) -> str:
    """The event's rules as a few short paragraphs of plain text. ``entrants`` (when known)
    makes the number of Swiss rounds and the prize amounts concrete."""
    s = settings
    game = _GAME_NAMES.get(s.game, s.game)
    lines: list[str] = []
    seeding = (
        "Players are seeded by rating; players without a rating are seeded after them "
        "in random order."
    )
    if s.format is Format.SWISS:
        if s.rounds is not None:
            rounds = f"{s.rounds} rounds"
        elif entrants:
            rounds = f"{s.swiss_rounds(entrants)} rounds (⌈log₂ {entrants}⌉)"
        else:
            rounds = "⌈log₂ N⌉ rounds for N players"
        lines.append(
            f"{game}, Swiss system, {rounds}. Each round pairs players with the same score "
            "(top half against bottom half), never the same opponents twice while that can be "
            "avoided. With an odd number of players the lowest-ranked player who has not had "
            "a bye gets one, scored as a win; nobody gets two."
        )
        if s.top_cut:
            lines.append(
                f"After the Swiss rounds the top {s.top_cut} play a single-elimination playoff "
                "seeded by the standings; it decides the top places."
            )
    elif s.format in (Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION):
        if s.format is Format.SINGLE_ELIMINATION:
            kind = "single elimination: one loss and you are out"
        else:
            kind = (
                "double elimination: a first loss sends you to the losers' bracket, a second "
                "one knocks you out. The grand final is the winners' champion against the "
                "losers' champion"
            )
            kind += (
                "; if the losers' champion wins it, a second final decides"
                if s.grand_final_reset
                else ", one match"
            )
        lines.append(
            f"{game}, {kind}. {seeding} Seeds 1 and 2 can only meet in the final; byes go to "
            "the top seeds. A knockout match that is level is played on until someone wins a "
            "game. Players knocked out in the same round are placed by seed."
        )
    elif s.format is Format.ROUND_ROBIN:
        lines.append(
            f"{game}, round robin: everyone plays everyone once. With an odd number of players "
            "each player rests one round (a rest scores nothing)."
        )
    else:
        count = s.table_rounds()
        lines.append(
            f"{game}, {count} table round{'s' if count > 1 else ''}. Each round seats "
            f"everyone at tables of up to {s.table_size} (never fewer than {s.table_min}; "
            "sizes differ by at most one), and each table plays "
            f"{s.games_per_table} game{'s' if s.games_per_table > 1 else ''}. The first round "
            "is seated by seed; later rounds by standings, mixing tables so you meet new "
            "players. Each game you win scores one point per other player at your table."
        )
        if s.final_table:
            lines.append(
                f"Then the top {s.final_table} by standings play a final table of "
                f"{s.final_table_games} game{'s' if s.final_table_games > 1 else ''}, which "
                "decides their places (points there, then wins, then the standings)."
            )
        lines.append(
            "Standings: points, then game wins, then the opponents' average points, then seed."
        )
    if s.format is not Format.TABLE_ROUNDS:
        lines.append(_match_length(s))
        if s.format in (Format.SWISS, Format.ROUND_ROBIN):
            lines.append(_two_player_tiebreaks())
        lines.append(
            "Time limit: a match still going when the round's time runs out is won by the "
            "player ahead (in games"
            + (", or in points" if s.decide_by is DecideBy.POINTS else "")
            + "); level is a draw"
            + (
                ", and in a knockout match the higher seed goes through."
                if s.format in (Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION) or s.top_cut
                else "."
            )
        )
    else:
        lines.append(
            "Time limit: a table still playing when the round's time runs out stops; the "
            "games already played count."
        )
    lines.append(
        "A player who does not show up forfeits by the table's timeout rules. Leaving with "
        "/tournament drop ends your pairings; your results so far stand. A game a server "
        "manager ends (/kapadmin endtable) does not count: it is played again at once, "
        "within the round's time limit."
    )
    if s.buy_in:
        split = "/".join(str(p) for p in s.prize_split)
        prize = f"Buy-in {s.buy_in} chips, refunded if you leave before the start. Prizes {split}"
        if entrants:
            amounts = split_pool(s.buy_in * entrants, s.prize_split)
            places = ", ".join(f"{_ordinal(i)} {a}" for i, a in enumerate(amounts, start=1))
            prize += f" of the pool (with {entrants} paying players: {places} chips)"
        else:
            prize += " percent of the pool"
        lines.append(prize + ".")
    else:
        lines.append("Free event: no buy-in, no prize money.")
    lines.append(
        "Computer players may fill the event; they never win prize money — the prizes go to "
        "the best-placed humans in order."
    )
    return "\n\n".join(lines)
