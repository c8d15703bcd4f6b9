"""Every sentence the tournament service says, and the words it lends the event package.

:data:`TEXT` holds the service's own messages (translated by the catalogues); :data:`REFUSALS`
the English refusals of :mod:`bot.tournament`, recognized so that a member reads them in his
language; :class:`Worded` carries a text the event package words per language (pairings,
standings, results) to the Discord layer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.locale import N_, Message, recognize, t
from bot.locale.levels import level_name
from bot.services.errors import UserError
from bot.services.tournaments.host import TournamentView
from bot.tournament import explain_rules
from bot.tournament.describe import board_standings_text, results_text
from bot.tournament.text import Say

__all__ = [
    "BOARD_LINES",
    "REFUSALS",
    "TEXT",
    "Worded",
    "board_shows_standings",
    "board_text",
    "computer_name",
    "refusal",
    "say_in",
]

BOARD_LINES = 10
"""The players the live standings board names (a shared message cannot show each member his
own place: the picture shows 40, ``/tournament show`` everyone)."""

# Every sentence the tournament service says, in one place (translated by the catalogues).
TEXT = {
    "no_event": N_("There is no tournament with that number in this server."),
    "no_open": N_("There is no tournament open in this server. Start one with `/tournament new`."),
    "not_organiser": N_("Only the organiser of this tournament or a server manager can do that."),
    "may_not_create": N_(
        "Only a server manager or a member with the tournament organiser role can create a "
        "tournament."
    ),
    "not_registration": N_("Sign-up for this tournament is closed."),
    "not_registration_drop": N_(
        "Sign-up for this tournament is closed. Use `/tournament drop` to leave."
    ),
    "already_in": N_("You are already entered in this tournament."),
    "full": N_("This tournament is full."),
    "not_in": N_("You are not entered in this tournament."),
    "in_none": N_("You are not in any open tournament of this server."),
    "several": N_("More than one tournament could be meant ({events}): choose one with `event:`."),
    "not_running": N_("This tournament is not running."),
    "not_paused": N_("This tournament is not paused."),
    "over": N_("This tournament is already over."),
    "fill_range": N_("Add from 1 to 64 computer players."),
    "round_minutes": N_("The round time limit is from 5 to 1440 minutes."),
    "turn_seconds": N_("The turn timer is from 10 to 3600 seconds."),
    "pairings": N_("**{name}: round {number}**\n{text}"),
    "time_up": N_("⏰ Round {number} of **{name}** is over: its time ran out."),
    "standings": N_("**{name}: standings after round {number}**\n{text}"),
    "results": N_("🏆 **{name} is over.**\n{text}"),
    "cancelled": N_("**{name}** was cancelled; every buy-in was refunded."),
    "cancelled_free": N_("**{name}** was cancelled."),
    "paused": N_("**{name}** is paused: no new games start until it resumes."),
    "resumed": N_("**{name}** resumes."),
    "dropped": N_("{who} left **{name}**."),
    "disqualified": N_("{who} was disqualified from **{name}**."),
    "repaired": N_("Round {number} of **{name}** is paired again."),
    "checkin_open": N_(
        "✅ Check-in for **{name}** is open for {minutes} minutes: click **Check in** on the "
        "sign-up message. Players who do not check in are dropped and refunded."
    ),
    "checkin_closed": N_("Check-in for **{name}** is closed: {dropped} dropped and refunded."),
    "not_checkin": N_("Check-in for this tournament is not open."),
    "checked_in": N_("You are checked in for **{name}**."),
    "match_open": N_("{mentions}: your match **{match}** of **{name}** starts here ({game}, {n})."),
    "thread": N_("{name} · {match}"),
    "could_not_start": N_("{name} could not start: {reason}"),
    "computer_players": N_("Computer players"),
    "best_of": N_("best of {n}"),
    "games": N_("{n} games"),
    "level": N_("Choose the computer level from: {levels}."),
    "computer": N_("Computer {number} ({level})"),
    "no_show_window": N_(
        "⏱️ Show that you are here within {n} minutes: make your move or press **Ready**. "
        "A player who does not loses this match by forfeit."
    ),
    "no_show": N_("🚫 {who} did not show up for match **{match}** of **{name}**: a forfeit."),
    "no_show_both": N_(
        "🚫 Neither player showed up for match **{match}** of **{name}**: both lose it."
    ),
    "no_show_out": N_("{who} is withdrawn from **{name}** after {n} no-shows in a row."),
    "ready": N_("You are ready for match **{match}** of **{name}**."),
    "no_window": N_("You have no match waiting for you to show up."),
    "no_results": N_("**{name}** has no results to export yet."),
    "not_entrant": N_("That member is not entered in this tournament."),
    "seed_twice": N_("Name each entrant once in the seed order."),
    "buy_in_fixed": N_(
        "The buy-in cannot change once members have entered ({n} so far): they paid the "
        "old one. Cancel and create the event again to change it."
    ),
    "reason": N_("Give a reason of 3 to 300 characters; it is kept in the event's history."),
    "no_match": N_("There is no match {match} in this tournament."),
    "drawn": N_("a draw"),
    "result_set": N_(
        "📝 The organiser set the result of match **{match}** of **{name}**: {winner}. "
        "Reason: {reason}"
    ),
    "seats_below": N_("{n} players are already entered: the seats cannot be fewer."),
    # The live standings board (issue 23).
    "board_show": N_("Everyone's place and the tie-breaks: `/tournament show`."),
    "board_export": N_("Every pairing, result and game record: `/tournament export event:{id}`."),
    # Schedule (issue 23): the start time, reminders and the rounds' schedule.
    "starts_or_closes": N_("Give the start time (`starts`) or `closes_in`, not both."),
    "checkin_before_now": N_(
        "With {minutes} minutes of check-in before it, that start is too soon: check-in would "
        "open before now."
    ),
    "remind_open": N_("📣 Sign-up for **{name}** is open: press **Join** on its sign-up message."),
    "remind_open_at": N_(
        "📣 Sign-up for **{name}** is open: press **Join** on its sign-up message. It starts "
        "{when} ({left})."
    ),
    "remind_soon": N_("⏰ **{name}** starts {left} ({when})."),
    "round_waits": N_("⏳ Round {number} of **{name}** starts {when} ({left})."),
    "next_round_at": N_("The next round starts {when}."),
    "next_round_break": N_("After this round, a break of {n} minutes before the next one."),
    "break_range": N_("The break between rounds is from 0 (none) to 1440 minutes."),
    "break_or_times": N_("Give a break between rounds or the rounds' start times, not both."),
    # --- late registration and the waitlist (issue 23, i23-entries) ---
    "late_joined": N_("➕ {who} joins **{name}** late: paired from round {number}."),
    "already_waiting": N_("You are already on the waitlist of this tournament."),
    "promoted": N_(
        "🎟️ A seat came free in **{name}**: you are entered now, and your buy-in of {buy_in} "
        "chips was taken."
    ),
    "promoted_free": N_("🎟️ A seat came free in **{name}**: you are entered now."),
    "waitlist_short": N_(
        "A seat came free in **{name}**, but you could not pay the buy-in ({reason}): you are "
        "off its waitlist."
    ),
    # Arena (issue 23).
    "arena_closed": N_(
        "⏱️ Time is up in the arena **{name}**: nobody is paired again. "
        "{n} games still in play finish and count."
    ),
    "arena_joined": N_("{who} joined the arena **{name}**."),
    "arena_back": N_("{who} is back in the arena **{name}**."),
}

# The refusals of the pure event package (English, like the engine's), recognized so that a
# member reads them in his language (bot.locale.recognize): every TournamentError it raises.
REFUSALS = (
    N_("An event needs at least two players."),
    N_("This event takes at most {n} players."),
    N_("Table rounds need at least {n} players."),
    N_("A round robin is for at most {n} players; use Swiss."),
    N_("An event needs at least one human player."),
    N_("That player is not in this event."),
    N_("That player has already left the event."),
    N_("No round has been paired yet."),
    N_("The round has results already; it cannot be re-paired."),
    N_("The event is over."),
    N_("Round {number} is not finished yet."),
    N_("Unknown game {game}; choose one of {games}."),
    N_("Table rounds are for Kap Tai Shap; two-player games use Swiss."),
    N_("Kap Tai Shap events use table rounds."),
    N_("A match is best of an odd number of games from 1 to 15."),
    N_("Only Tsung Shap matches can be decided by total points."),
    N_("The number of rounds is from 1 to 30."),
    N_("A top cut (2 to 64 players) is only for Swiss events."),
    N_("The buy-in cannot be negative."),
    N_("The prize split is positive percentages adding up to 100, e.g. 60/30/10."),
    N_("An event with a buy-in needs a prize split."),
    N_("At most 32 prize places."),
    N_("The seats limit is from 2 to 1024 players."),
    N_("Tables have between 2 and {n} seats, the minimum first."),
    N_("A table plays 1 to 20 games."),
    N_("The final table has 2 to {n} seats (0 for none)."),
    N_("A player is entered twice."),
    N_("An elimination bracket needs at least two players."),
    N_("The no-show window is from 0 (none) to 60 minutes."),
    N_("A player is withdrawn after 1 to 10 no-shows in a row."),
    N_("Only a two-player match has a no-show window."),
    N_("Match {match} is not in the current round."),
    N_("Match {match} is not a match of two players."),
    N_("The winner of {match} did not play in it."),
    N_("Match {match} is a knockout match: it needs a winner."),
    # Formats (issue 23): the third-place match and the group stage.
    N_("A third-place match is for single elimination or a Swiss top cut."),
    N_("Groups of 3 to 8 players (0 for none) are for elimination events."),
    N_("A group stage needs at least three players."),
    # Schedule (issue 23): bot.tournament.schedule's refusals.
    N_("Unknown time zone {zone}: use a name of the time zone database, e.g. {examples}."),
    N_(
        "Could not read the time {text}: write e.g. 2026-12-05 19:30, 19:30, tomorrow 20:00 "
        "or in 2h."
    ),
    N_("{text} does not exist in {zone}: the clocks go forward then."),
    N_("{text} has already passed."),
    N_("A start is at most {n} days ahead."),
    N_("Give the rounds' start times in order, the first round's first."),
    # Late registration (issue 23, i23-entries).
    N_("Late entry is only for Swiss events."),
    N_("Late entry ends at a round from 2 to the last round (0 for none)."),
    N_("Late entry to this event closed with round {number}."),
    N_("This event takes no entries after its start."),
    # Arena (issue 23).
    N_("An arena lasts 5 to 720 minutes."),
    N_("An arena's matches are one game each (best of 1)."),
    N_("An arena pairs players as they finish; it cannot be re-paired."),
    N_("The arena's time is not up yet."),
    N_("Only an arena pairs players as they finish."),
    N_("Only an arena takes players once it has started."),
)


def refusal(exc: Exception) -> UserError:
    """A :class:`TournamentError` as a refusal the member reads in his language."""
    found = recognize(str(exc), REFUSALS)
    if found is None:
        return UserError(str(exc))
    return UserError(found.msgid, **found.values)


def say_in(locale: str) -> Say:
    """The :data:`~bot.tournament.text.Say` of ``locale``: the catalogue's words, filled."""

    def say(msgid: str, /, **values: Any) -> str:
        return t(locale, msgid, **values)

    return say


class Worded(Message):
    """A text the event package words per language (pairings, standings, results): its
    English, and a function that words it in any locale. A value of a :class:`Message` that
    the Discord layer localizes with the server's language."""

    word: Callable[[str], str]

    def __new__(cls, word: Callable[[str], str]) -> Worded:
        """``Worded(lambda locale: pairings_text(event, rnd, say_in(locale)))``."""
        english = word("en")
        text = str.__new__(cls, english)
        text.msgid = english
        text.values = {}
        text.word = word
        return text

    def localized(self, locale: str) -> str:
        """The text in ``locale``."""
        return self.word(locale)


def computer_name(number: int, level: str, locale: str) -> str:
    """A computer filler's name: its one label wherever it shows (pairings, standings, results,
    pictures, its table). It says once that it is a computer and names its level in the
    reader's words: ``Computer 1 (greedy)``, 「電腦 1（普通）」."""
    return t(locale, TEXT["computer"], number=number, level=level_name(locale, level))


def board_shows_standings(view: TournamentView) -> bool:
    """Whether an event's board shows its standings (with their picture): from its first
    result on, until it is cancelled."""
    record, event = view.record, view.event
    if event is None or record.status not in ("running", "paused", "finished"):
        return False
    return record.status == "finished" or any(
        m.result is not None and not m.is_bye for r in event.rounds for m in r.matches
    )


def board_text(view: TournamentView, say: Say) -> str:
    """The text of an event's sign-up message, which is its board: the rules until the first
    result, then the live standings (:func:`board_standings_text`), and once the event is over
    its results (places and prizes) with where to get the whole event."""
    record, event = view.record, view.event
    if record.status == "finished" and event is not None:
        results = results_text(event, int((record.results or {}).get("pool", 0)), say)
        return f"{results}\n\n{say(TEXT['board_export'], id=record.id)}"
    if board_shows_standings(view) and event is not None:
        return f"{board_standings_text(event, BOARD_LINES, say)}\n\n{say(TEXT['board_show'])}"
    entrants = len(event.players) if event else len(view.entries) or None
    starters = event.starters if event else None
    return explain_rules(view.settings, entrants, say, starters=starters)
