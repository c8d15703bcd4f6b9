"""The rules of an event in plain words, for the sign-up message and ``/tournament rules``.

Every sentence is a message id (:func:`~bot.tournament.text.N_`) worded by the caller's
:data:`~bot.tournament.text.Say` (English by default), so a server in Chinese reads them in
Chinese with every number kept."""

from __future__ import annotations

from bot.games import UnknownGame, find
from bot.tournament.model import GROUP_ADVANCE, DecideBy, EventSettings, Format
from bot.tournament.payout import split_pool
from bot.tournament.text import N_, Say, english, ordinal

__all__ = ["explain_rules", "game_name"]


def game_name(game: str, say: Say = english) -> str:
    """A game's short name (``Kap Shap``; 夾十 in Chinese: :attr:`bot.games.GameInfo.short`);
    a name no family registered as it is."""
    try:
        return say(find(game).short)
    except UnknownGame:
        return game


def _match_length(s: EventSettings, say: Say) -> str:
    if s.decide_by is DecideBy.POINTS:
        if s.best_of == 1:
            template = N_(
                "Each match is {n} game: the player with more total points wins, then the one "
                "with more games won; otherwise the match is drawn."
            )
        else:
            template = N_(
                "Each match is {n} games: the player with more total points wins, then the one "
                "with more games won; otherwise the match is drawn."
            )
        return say(template, n=s.best_of)
    if s.best_of == 1:
        return say(N_("Each match is one game; a drawn game makes a drawn match."))
    return say(
        N_(
            "Each match is best of {n}: the first to win {wins} games wins. A drawn game does "
            "not count, and after {n} games the leader wins; level is a drawn match."
        ),
        n=s.best_of,
        wins=s.wins_needed,
    )


def _two_player_tiebreaks(say: Say) -> str:
    return say(
        N_(
            "Standings: a match win scores 1, a drawn match ½, a loss 0. Ties are broken by "
            "Median-Buchholz (the opponents' scores added up, without the best and the worst), "
            "then Buchholz (all the opponents' scores), then head-to-head among the tied "
            "players, then games won, then seed."
        )
    )


def _time_limit(s: EventSettings, say: Say) -> str:
    knockout = s.format in (Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION) or bool(s.top_cut)
    points = s.decide_by is DecideBy.POINTS
    if points and knockout:
        template = N_(
            "Time limit: a match still going when the round's time runs out is won by the "
            "player ahead (in games, or in points); level is a draw, and in a knockout match "
            "the higher seed goes through."
        )
    elif points:
        template = N_(
            "Time limit: a match still going when the round's time runs out is won by the "
            "player ahead (in games, or in points); level is a draw."
        )
    elif knockout:
        template = N_(
            "Time limit: a match still going when the round's time runs out is won by the "
            "player ahead (in games); level is a draw, and in a knockout match the higher seed "
            "goes through."
        )
    else:
        template = N_(
            "Time limit: a match still going when the round's time runs out is won by the "
            "player ahead (in games); level is a draw."
        )
    return say(template)


def _elimination(s: EventSettings, game: str, say: Say) -> str:
    if s.format is Format.SINGLE_ELIMINATION:
        kind = say(N_("single elimination: one loss and you are out"))
    elif s.grand_final_reset:
        kind = say(
            N_(
                "double elimination: a first loss sends you to the losers' bracket, a second "
                "one knocks you out. The grand final is the winners' champion against the "
                "losers' champion; if the losers' champion wins it, a second final decides"
            )
        )
    else:
        kind = say(
            N_(
                "double elimination: a first loss sends you to the losers' bracket, a second "
                "one knocks you out. The grand final is the winners' champion against the "
                "losers' champion, one match"
            )
        )
    return say(
        N_(
            "{game}, {kind}. Players are seeded by rating; players without a rating are "
            "seeded after them in random order. Seeds 1 and 2 can only meet in the final; "
            "byes go to the top seeds. A knockout match that is level is played on until "
            "someone wins a game. Players knocked out in the same round are placed by seed."
        ),
        game=game,
        kind=kind,
    )


def _group_stage(s: EventSettings, say: Say) -> str:
    return say(
        N_(
            "Group stage first: round-robin groups of at most {size} players, dealt by seed "
            "like a snake (seeds 1, 2, 3 … to groups A, B, C …, then back), so every group "
            "gets one of the strongest; with an odd number in a group each player rests one "
            "round (a rest scores nothing). The top {advance} of each group (only the winner "
            "of a group of two) go into the bracket, seeded by group place: the group winners "
            "first (group A's first), then the runners-up, so that two players of a group meet "
            "as late as they can. Players out in the groups are placed after the bracket's, "
            "by group place."
        ),
        size=s.groups,
        advance=GROUP_ADVANCE,
    )


def _table_rounds(s: EventSettings, game: str, say: Say) -> list[str]:
    count = s.table_rounds()
    rounds = (
        say(N_("{game}, {n} table round."), game=game, n=count)
        if count == 1
        else say(N_("{game}, {n} table rounds."), game=game, n=count)
    )
    games = (
        say(N_("each table plays {n} game."), n=s.games_per_table)
        if s.games_per_table == 1
        else say(N_("each table plays {n} games."), n=s.games_per_table)
    )
    lines = [
        say(
            N_(
                "{rounds} Each round seats everyone at tables of up to {size} (never fewer "
                "than {least}; sizes differ by at most one), and {games} The first round is "
                "seated by seed; later rounds by standings, mixing tables so you meet new "
                "players. Each game you win scores one point per other player at your table."
            ),
            rounds=rounds,
            size=s.table_size,
            least=s.table_min,
            games=games,
        )
    ]
    if s.final_table:
        template = (
            N_(
                "Then the top {top} by standings play a final table of {n} game, which "
                "decides their places (points there, then wins, then the standings)."
            )
            if s.final_table_games == 1
            else N_(
                "Then the top {top} by standings play a final table of {n} games, which "
                "decides their places (points there, then wins, then the standings)."
            )
        )
        lines.append(say(template, top=s.final_table, n=s.final_table_games))
    lines.append(
        say(N_("Standings: points, then game wins, then the opponents' average points, then seed."))
    )
    return lines


def _late_entry(s: EventSettings, say: Say) -> str:
    """Late registration (issue 23): until which round, what a missed round scores."""
    return say(
        N_(
            "Late entry: after the start you may still join until round {round} begins "
            "(/tournament join or Join; the buy-in is the same and you play for the same "
            "prizes). You are paired from the next round; each round you missed scores 0 "
            "(not a loss), and counts as a draw in your opponents' tie-breaks."
        ),
        round=s.late_until,
    )


def explain_rules(
    settings: EventSettings,
    entrants: int | None = None,
    say: Say = english,
    *,
    starters: int | None = None,
) -> str:
    """The event's rules as a few short paragraphs of plain text. ``entrants`` (when known)
    makes the number of Swiss rounds and the prize amounts concrete; ``say`` words them.
    ``starters``: the players it started with, when late entrants joined since (the number of
    Swiss rounds was fixed by them)."""
    s = settings
    starters = starters or entrants
    game = game_name(s.game, say)
    lines: list[str] = []
    if s.format is Format.SWISS:
        if s.rounds is not None:
            rounds = say(N_("{n} rounds"), n=s.rounds)
        elif starters:
            rounds = say(
                N_("{n} rounds (⌈log₂ {players}⌉)"), n=s.swiss_rounds(starters), players=starters
            )
        else:
            rounds = say(N_("⌈log₂ N⌉ rounds for N players"))
        lines.append(
            say(
                N_(
                    "{game}, Swiss system, {rounds}. Each round pairs players with the same "
                    "score (top half against bottom half), never the same opponents twice while "
                    "that can be avoided. With an odd number of players the lowest-ranked "
                    "player who has not had a bye gets one, scored as a win; nobody gets two."
                ),
                game=game,
                rounds=rounds,
            )
        )
        if s.top_cut:
            lines.append(
                say(
                    N_(
                        "After the Swiss rounds the top {n} play a single-elimination playoff "
                        "seeded by the standings; it decides the top places."
                    ),
                    n=s.top_cut,
                )
            )
        if s.late_until:
            lines.append(_late_entry(s, say))
    elif s.format in (Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION):
        if s.groups:
            lines.append(_group_stage(s, say))
        lines.append(_elimination(s, game, say))
    elif s.format is Format.ROUND_ROBIN:
        lines.append(
            say(
                N_(
                    "{game}, round robin: everyone plays everyone once. With an odd number of "
                    "players each player rests one round (a rest scores nothing)."
                ),
                game=game,
            )
        )
    elif s.format is Format.ARENA:
        lines.append(
            say(
                N_(
                    "{game}, arena for {minutes} minutes: one game at a time; a player who "
                    "finishes is paired again at once with a free player of the nearest score, "
                    "not the same opponent twice in a row while another is free. A win scores 2, "
                    "a draw 1; after two wins in a row games count double (a win 4, a draw 2) "
                    "until a game is not won. Join at any time (the buy-in is paid once); "
                    "`/tournament drop` leaves (results stand) and `/tournament join` comes back. "
                    "When the time is up nobody is paired again and the games in play count. "
                    "Standings: points, then points per game, then wins."
                ),
                game=game,
                minutes=s.arena_minutes,
            )
        )
    else:
        lines += _table_rounds(s, game, say)
    if s.third_place:
        lines.append(
            say(
                N_(
                    "The losers of the two semi-finals play a match for third place "
                    "alongside the final; its loser is fourth."
                )
            )
        )
    if s.format is Format.ARENA:
        pass  # no match length or time limit but the arena's own (said above)
    elif s.format is not Format.TABLE_ROUNDS:
        lines.append(_match_length(s, say))
        if s.format in (Format.SWISS, Format.ROUND_ROBIN) or s.groups:
            lines.append(_two_player_tiebreaks(say))
        lines.append(_time_limit(s, say))
    else:
        lines.append(
            say(
                N_(
                    "Time limit: a table still playing when the round's time runs out stops; "
                    "the games already played count."
                )
            )
        )
    if s.two_player and s.no_show_minutes:
        lines.append(
            say(
                N_(
                    "No-shows: when a match starts, both players have {minutes} minutes to make "
                    "a move or press Ready; one who does not loses the match by forfeit, and "
                    "after {limit} no-shows in a row is withdrawn (no refund). Both absent: both "
                    "lose."
                ),
                minutes=s.no_show_minutes,
                limit=s.no_show_limit,
            )
        )
    lines.append(
        say(
            N_(
                "A player who does not show up forfeits by the table's timeout rules. Leaving "
                "with /tournament drop ends your pairings; your results so far stand. A game a "
                "server manager ends (/kapadmin endtable) does not count: it is played again "
                "at once, within the round's time limit."
            )
        )
    )
    if s.buy_in:
        split = "/".join(str(p) for p in s.prize_split)
        if entrants:
            amounts = split_pool(s.buy_in * entrants, s.prize_split)
            places = say(N_(", ")).join(
                say(N_("{place} {chips}"), place=ordinal(i, say), chips=a)
                for i, a in enumerate(amounts, start=1)
            )
            prize = say(
                N_(
                    "Buy-in {buy_in} chips, refunded if you leave before the start. Prizes "
                    "{split} of the pool (with {n} paying players: {places} chips)."
                ),
                buy_in=s.buy_in,
                split=split,
                n=entrants,
                places=places,
            )
        else:
            prize = say(
                N_(
                    "Buy-in {buy_in} chips, refunded if you leave before the start. Prizes "
                    "{split} percent of the pool."
                ),
                buy_in=s.buy_in,
                split=split,
            )
        lines.append(prize)
        lines.append(
            say(
                N_(
                    "Computer players may fill the event; they never win prize money — the "
                    "prizes go to the best-placed humans in order."
                )
            )
        )
    else:
        lines.append(say(N_("Free event: no buy-in, no prize money.")))
        lines.append(say(N_("Computer players may fill the event.")))
    return "\n\n".join(lines)
