"""Short plain-text posts of an event: a round's pairings, the standings, the final results.

Text goes with the pictures of :mod:`bot.render.tournament_art`: it carries names the picture
font cannot draw (Chinese names), and it is what a screen reader reads. Each function takes a
:data:`~bot.tournament.text.Say` for the language of the post (English by default)."""

from __future__ import annotations

from bot.tournament.arena import ArenaStanding
from bot.tournament.bracket import KnockoutStanding
from bot.tournament.event import DISQUALIFIED, Event
from bot.tournament.model import Format, How, PlayerId, Round
from bot.tournament.standings import PairStanding, TableStanding, format_score, pair_standings
from bot.tournament.text import N_, Say, english, ordinal

__all__ = [
    "display_name",
    "knockout_status",
    "match_label",
    "pairings_text",
    "phase_name",
    "results_text",
    "standings_text",
]

_PHASES = {
    "swiss": N_("Swiss"),
    "playoff": N_("Playoff"),
    "bracket": N_("Bracket"),
    "round-robin": N_("Round robin"),
    "tables": N_("Tables"),
    "final": N_("Final table"),
    "arena": N_("Arena"),
}


def phase_name(phase: str, say: Say = english) -> str:
    """A round's phase in words (``Swiss``, ``Playoff`` …)."""
    return say(_PHASES[phase]) if phase in _PHASES else phase


# The grand final's match ids are letters (the others are notation: ``W2-1``, ``R3-2``, ``F``).
_LABELS = {"GF": N_("GF"), "GF2": N_("GF2")}


def match_label(match_id: str, say: Say = english) -> str:
    """A match's label in a post or a thread's name: its id, the grand final's in words."""
    return say(_LABELS[match_id]) if match_id in _LABELS else match_id


def display_name(event: Event, pid: PlayerId, say: Say = english) -> str:
    """A player's name. A computer filler's is its label (``Computer 1 (greedy)``, made once
    by the service that fills the event): it says it is a computer, so nothing is added."""
    return event.player(pid).name


def pairings_text(event: Event, rnd: Round, say: Say = english) -> str:
    """The matches of a round, one a line: ``1. Alice (2) v Bob (1½)`` in Swiss (scores
    before the round), ``W2-1: Alice v Bob`` in a bracket, ``Table 1 (5 seats): …``."""
    lines = [
        say(N_("Round {number} ({phase})"), number=rnd.number, phase=phase_name(rnd.phase, say))
    ]
    scores: dict[PlayerId, str] = {}
    if rnd.phase == "swiss":
        # Scores before this round: the standings of the earlier Swiss rounds.
        earlier = [
            m
            for r in event.rounds
            if r.phase == "swiss" and r.number < rnd.number
            for m in r.matches
        ]
        scores = {r.player: format_score(r.score) for r in pair_standings(event.seeds, earlier)}

    def named(pid: PlayerId) -> str:
        name = display_name(event, pid, say)
        if pid not in scores:
            return name
        return say(N_("{name} ({score})"), name=name, score=scores[pid])

    for i, m in enumerate(rnd.matches, start=1):
        names = [named(p) for p in m.players]
        if m.is_bye:
            if rnd.phase == "round-robin":
                lines.append(say(N_("{name} rests"), name=names[0]))
            else:
                lines.append(say(N_("{name} has a bye (a win)"), name=names[0]))
        elif len(m.players) == 2:
            label = (
                match_label(m.id, say) if rnd.phase in ("bracket", "playoff", "arena") else str(i)
            )
            if m.result is not None and m.result.how is How.FORFEIT:
                template = N_("{label}. {a} v {b} (forfeit)")
            else:
                template = N_("{label}. {a} v {b}")
            lines.append(say(template, label=label, a=names[0], b=names[1]))
        else:
            joined = say(N_(", ")).join(names)
            if rnd.phase == "final":
                line = say(N_("Final table ({n} seats): {names}"), n=len(m.players), names=joined)
            else:
                line = say(
                    N_("Table {number} ({n} seats): {names}"),
                    number=i,
                    n=len(m.players),
                    names=joined,
                )
            lines.append(line)
    return "\n".join(lines)


def standings_text(event: Event, limit: int = 10, say: Say = english) -> str:
    """The top ``limit`` lines of the standings with their tie-break figures."""
    rows = event.standings()
    lines = []
    for r in rows[:limit]:
        name = display_name(event, r.player, say)
        if event.withdrawn.get(r.player):
            if event.withdrawn[r.player] == DISQUALIFIED:
                name = say(N_("{name} (DQ)"), name=name)
            else:
                name = say(N_("{name} (dropped)"), name=name)
        if isinstance(r, PairStanding):
            lines.append(
                say(
                    N_("{rank}. {name} {score} (M-Buch {median}, Buch {buchholz}, games {games})"),
                    rank=r.rank,
                    name=name,
                    score=format_score(r.score),
                    median=format_score(r.median_buchholz),
                    buchholz=format_score(r.buchholz),
                    games=r.games_won,
                )
            )
        elif isinstance(r, TableStanding):
            lines.append(
                say(
                    N_("{rank}. {name} {points} pts ({wins} wins, opp. avg {average})"),
                    rank=r.rank,
                    name=name,
                    points=r.points,
                    wins=r.wins,
                    average=f"{float(r.opponents_average):.2f}",
                )
            )
        elif isinstance(r, ArenaStanding):
            line = say(
                N_("{rank}. {name} {points} pts ({games} games, {wins} wins)"),
                rank=r.rank,
                name=name,
                points=r.points,
                games=r.games,
                wins=r.wins,
            )
            lines.append(
                f"{line} 🔥" if r.on_fire else line
            )  # on fire: the next game counts double
        elif isinstance(r, KnockoutStanding):
            lines.append(
                say(
                    N_("{rank}. {name}: {status} ({wins}-{losses})"),
                    rank=r.rank,
                    name=name,
                    status=knockout_status(r, say),
                    wins=r.wins,
                    losses=r.losses,
                )
            )
    if len(rows) > limit:
        lines.append(say(N_("… and {n} more"), n=len(rows) - limit))
    return "\n".join(lines)


def knockout_status(row: KnockoutStanding, say: Say = english) -> str:
    """Where a player of an elimination event stands: ``champion``, ``still in`` or
    ``knocked out in W2-1`` (the match, as the bracket picture and the pairings name it)."""
    if row.champion:
        return say(N_("champion"))
    if row.out_in is None:
        return say(N_("still in"))
    return say(N_("knocked out in {match}"), match=match_label(row.out_in, say))


def results_text(event: Event, pool: int, say: Say = english) -> str:
    """The final results: the top places and the prize winners with their chips."""
    paid = event.payouts(pool)
    ranking = event.ranking()
    shown = max(3, len(event.settings.prize_split))

    def line(place: int, pid: PlayerId) -> str:
        name = display_name(event, pid, say)
        if pid in paid:
            return say(
                N_("{place} {name} — {chips} chips"),
                place=ordinal(place, say),
                name=name,
                chips=paid[pid],
            )
        return say(N_("{place} {name}"), place=ordinal(place, say), name=name)

    lines = [say(N_("Final results"))]
    for place, pid in enumerate(ranking[:shown], start=1):
        lines.append(line(place, pid))
    late = [pid for pid in paid if ranking.index(pid) >= shown]
    for pid in late:
        lines.append(line(ranking.index(pid) + 1, pid))
    if pool and not paid:
        lines.append(say(N_("Nobody could be paid: every buy-in is refunded.")))
    elif paid and any(event.player(p).ai for p in ranking[: len(event.settings.prize_split)]):
        lines.append(
            say(N_("Computer players win no prize money: their prizes went to the humans."))
        )
    if event.settings.format is Format.TABLE_ROUNDS and event.settings.final_table:
        lines.append(say(N_("The top places were decided at the final table.")))
    return "\n".join(lines)
